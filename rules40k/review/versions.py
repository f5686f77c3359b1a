"""The two sides of a review: a git revision of this project, the working tree, or a ruleset.

A git revision is exported (``git archive``) into build/review-trees/<sha>/ once and reused; the
working tree is the repository itself. A name from spec/rulesets.yaml stands for that ruleset of
the working tree, for reviews across rulesets through a concept map.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rules import spec
from rules.messages import shown
from rules40k import BUILD_ROOT, REPO_ROOT

WORKTREE = "worktree"
MAX_REVISION = 255  # characters: git refuses a longer ref name (a file name), and a sha is 40


class ReviewError(ValueError):
    """A review that cannot be made; the message is one sentence naming the version."""


@dataclass(frozen=True)
class Version:
    """One side of a review. ``kind`` is "git", "worktree", "tree" (a folder holding a copy of the project) or
    "ruleset"; ``root`` is the tree to import."""

    label: str
    kind: str
    name: str
    root: Path | None = None


def _git(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=REPO_ROOT, input=stdin, capture_output=True, timeout=120)
    except FileNotFoundError:
        raise ReviewError("git is not installed, so git revisions cannot be reviewed") from None


def resolve(text: str) -> Version:
    """A version from the command line: a ruleset name, "worktree", a folder holding a copy of the project, or
    anything git can resolve to a commit."""
    if text in spec.rulesets():
        return Version(f"ruleset {text}", "ruleset", text)
    if text == WORKTREE:
        return Version("the working tree", "worktree", WORKTREE, REPO_ROOT)
    if not text.strip():  # Path("") is the current folder, which may hold a copy of the project
        raise ReviewError("an empty version names nothing: give a git revision, worktree, a folder or a ruleset")
    folder = Path(text)
    try:
        is_tree = (folder / "rules" / "registry.py").is_file() and (folder / "spec").is_dir()
    except OSError:  # a name too long for a path
        is_tree = False
    if is_tree:
        folder = folder.resolve()
        return Version(f"the tree at {folder}", "tree", folder.name, folder)
    if text.startswith("-") or any(c.isspace() for c in text) or len(text) > MAX_REVISION:
        raise ReviewError(f"{shown(text)} is neither a ruleset ({', '.join(spec.rulesets())}) nor a git revision")
    found = _git("rev-parse", "--verify", "--quiet", f"{text}^{{commit}}")
    if found.returncode != 0:
        raise ReviewError(f"{shown(text)} is neither a ruleset ({', '.join(spec.rulesets())}) nor a git revision "
                          f"of {REPO_ROOT}")
    sha = found.stdout.decode().strip()
    return Version(f"{text} ({sha[:10]})" if text != sha else sha[:10], "git", sha)


def materialise(version: Version, cache: Path = BUILD_ROOT / "review-trees") -> Version:
    """The version with a tree to import: a git revision exported once into the cache."""
    if version.kind != "git":
        return version
    target = cache / version.name
    if not (target / "rules").is_dir():
        archive = _git("archive", "--format=tar", version.name)
        if archive.returncode != 0:
            raise ReviewError(f"git archive of {version.label} failed: {archive.stderr.decode().strip()[:200]}")
        cache.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".tree-", dir=cache))
        try:
            with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
                tar.extractall(staging, filter="data")
            if target.exists():
                shutil.rmtree(target)
            staging.rename(target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    if not (target / "rules" / "registry.py").is_file():
        raise ReviewError(f"{version.label} has no rules/ package: it predates the rule functions")
    return Version(version.label, version.kind, version.name, target)

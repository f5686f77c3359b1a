"""Shared fixtures: throw-away spec roots to ingest into, a truncated document, folder snapshots."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SPEC = REPO_ROOT / "spec"
CORE_TXT = SPEC / "sources" / "core.txt"
ANNOTATIONS = SPEC / "core" / "annotations"


def _snapshot(root: Path) -> dict[str, tuple]:
    """Every file and folder under ``root`` (hidden ones too) with its bytes and mtime."""
    out: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        key = path.relative_to(root).as_posix()
        if path.is_dir():
            out[key + "/"] = ("dir",)
        else:
            out[key] = (path.read_bytes(), path.stat().st_mtime_ns)
    return out


@pytest.fixture(scope="session")
def snapshot():
    """A function: every file and folder under a root (hidden ones too) with bytes and mtime."""
    return _snapshot


@pytest.fixture
def spec_root(tmp_path: Path) -> Path:
    """An empty spec root holding only a copy of the hand-written core annotations."""
    root = tmp_path / "spec"
    shutil.copytree(ANNOTATIONS, root / "core" / "annotations")
    return root


@pytest.fixture
def truncated_document(tmp_path: Path) -> Path:
    """The first 60% of the lines of the Core Rules."""
    lines = CORE_TXT.read_text(encoding="utf-8").split("\n")
    path = tmp_path / "truncated.txt"
    path.write_text("\n".join(lines[: int(len(lines) * 0.6)]), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """The real site, built once for every test file that reads it, the way `rules40k site` builds it: checks
    first, then pages, then MkDocs. Returns the build folder (results.json, docs/, site/)."""
    from rules40k import checks
    from rules40k_site import generate

    build = tmp_path_factory.mktemp("site")
    checks.write_results(checks.run_all(), build / "results.json")
    site = generate.build(build)
    assert site == build / "site"
    return build

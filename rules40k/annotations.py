"""Loading and validating the hand-written annotations under spec/<document>/annotations/.

Every loader names the file and entry in its error, so a typo in a YAML file
gives one clear sentence instead of a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rules40k import SPEC_ROOT


class AnnotationError(ValueError):
    """A malformed annotation file; the message names the file and entry."""


def _load(path: Path, expected: type) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            data = yaml.safe_load(handle)
    except FileNotFoundError:
        return expected()
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise AnnotationError(f"{path}:{where} is not valid YAML ({getattr(error, 'problem', error)})") from None
    if data is None:
        return expected()
    if not isinstance(data, expected):
        raise AnnotationError(f"{path}: expected a {expected.__name__} at the top level")
    return data


def annotations_dir(document: str = "core", root: Path = SPEC_ROOT) -> Path:
    return root / document / "annotations"


def _require(path: Path, index: int, entry: Any, keys: tuple[str, ...]) -> None:
    if not isinstance(entry, dict):
        raise AnnotationError(f"{path}: entry {index} is not a mapping")
    for key in keys:
        if key not in entry:
            raise AnnotationError(f"{path}: entry {index} ({entry.get('id', '?')}) lacks {key!r}")


def restorations(document: str = "core", root: Path = SPEC_ROOT) -> list[dict]:
    path = annotations_dir(document, root) / "restorations.yaml"
    data = _load(path, list)
    for index, entry in enumerate(data, 1):
        _require(path, index, entry, ("id", "ref", "find", "restore", "evidence"))
    return data


def _files(document: str, root: Path, name: str) -> list[Path]:
    """``name``.yaml and every file in the folder ``name``/, so chapters can keep their own files."""
    base = annotations_dir(document, root)
    single = base / f"{name}.yaml"
    return ([single] if single.exists() else []) + sorted((base / name).glob("*.yaml"))


def _records(document: str, root: Path, name: str, keys: tuple[str, ...]) -> list[dict]:
    out: list[dict] = []
    seen: dict[str, Path] = {}
    for path in _files(document, root, name):
        for index, entry in enumerate(_load(path, list), 1):
            _require(path, index, entry, keys)
            if entry["id"] in seen:
                raise AnnotationError(f"{path}: entry {index} repeats id {entry['id']!r} (first in {seen[entry['id']].name})")
            seen[entry["id"]] = path
            out.append(entry)
    return out


def interpretations(document: str = "core", root: Path = SPEC_ROOT) -> list[dict]:
    """Recorded readings of ambiguous text (interpretations.yaml and interpretations/*.yaml)."""
    out = _records(document, root, "interpretations", ("id", "refs", "question", "readings", "chosen", "evidence"))
    for entry in out:
        if entry["chosen"] not in {r.get("id") for r in entry["readings"]}:
            raise AnnotationError(f"interpretation {entry['id']!r} chooses {entry['chosen']!r}, "
                                  "which is not one of its readings")
    return out


FINDING_KINDS = ("gap", "contradiction", "unreachable", "ambiguity", "no-legal-choice", "non-termination")


def findings(document: str = "core", root: Path = SPEC_ROOT) -> list[dict]:
    """Where the rules as written fail a property (findings/*.yaml): gaps, contradictions, ...

    Each names its sections, its kind, the evidence, the check that shows it
    (a proof or property id) and the interpretation the code follows instead.
    """
    out = _records(document, root, "findings", ("id", "refs", "kind", "summary", "evidence"))
    for entry in out:
        if entry["kind"] not in FINDING_KINDS:
            raise AnnotationError(f"finding {entry['id']!r} has kind {entry['kind']!r}; expected one of "
                                  + ", ".join(FINDING_KINDS))
    return out


def status_notes(document: str = "core", root: Path = SPEC_ROOT) -> dict[str, dict[str, str]]:
    """Recorded reasons for sections that are inert or deferred, per reference.

    Read from status.yaml and status/*.yaml. A chapter-wide reason (key
    "chapters") applies to each section of that chapter that has no reason of its own.
    """
    out: dict[str, dict[str, str]] = {}
    chapters: dict[str, dict] = {}
    for path in _files(document, root, "status"):
        data = _load(path, dict)
        for status in ("inert", "deferred"):
            entries = data.get(status) or {}
            if not isinstance(entries, dict):
                raise AnnotationError(f"{path}: {status!r} must map references to reasons")
            for ref, reason in entries.items():
                if not isinstance(reason, str) or not reason.strip():
                    raise AnnotationError(f"{path}: {status} {ref} needs a reason")
                if str(ref) in out:
                    raise AnnotationError(f"{path}: {ref} already has a recorded status")
                out[str(ref)] = {"status": status, "reason": reason.strip()}
        for chapter, entry in (data.get("chapters") or {}).items():
            if not isinstance(entry, dict) or entry.get("status") not in {"inert", "deferred"} or not entry.get("reason"):
                raise AnnotationError(f"{path}: chapters {chapter} needs a status (inert or deferred) and a reason")
            chapters[str(chapter)] = entry
    return {"sections": out, "chapters": chapters}


def examples(document: str = "core", root: Path = SPEC_ROOT) -> list[dict]:
    """Worked examples as data, from every file in annotations/examples/."""
    folder = annotations_dir(document, root) / "examples"
    out: list[dict] = []
    seen: dict[str, Path] = {}
    for path in sorted(folder.glob("*.yaml")):
        data = _load(path, list)
        for index, entry in enumerate(data, 1):
            _require(path, index, entry, ("id", "ref", "name", "source", "call", "expect"))
            if entry["id"] in seen:
                raise AnnotationError(f"{path}: entry {index} repeats example id {entry['id']!r} "
                                      f"(first in {seen[entry['id']].name})")
            seen[entry["id"]] = path
            out.append({**entry, "file": str(path.relative_to(root.parent)) if root.parent in path.parents else str(path)})
    return out

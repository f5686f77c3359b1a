"""Read-only access to the ingested spec (section YAML) for the rule functions.

The registry uses it to reject references that the source document does not
define. Nothing here writes spec/: that is the ingest step's job.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import yaml

SPEC_ROOT = Path(__file__).resolve().parent.parent / "spec"

SECTION_REF = re.compile(r"^\d\d\.\d\d$")
APPENDIX_REF = re.compile(r"^appendix/[a-z0-9]+(?:-[a-z0-9]+)*$")

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def is_well_formed(ref: str) -> bool:
    """A numbered section ("05.02") or an appendix slug ("appendix/destroyed")."""
    return bool(SECTION_REF.match(ref) or APPENDIX_REF.match(ref))


def load_yaml(path: Path) -> Any:
    with open(path, encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_Loader)


def chapter_files(document: str = "core", root: Path = SPEC_ROOT) -> list[Path]:
    """The machine-written chapter files of one document, in reference order."""
    return sorted((root / document / "chapters").glob("*.yaml"))


@functools.lru_cache(maxsize=None)
def sections(document: str = "core", root: Path = SPEC_ROOT) -> dict[str, dict]:
    """Every section and appendix entry of a document, keyed by reference."""
    out: dict[str, dict] = {}
    for path in chapter_files(document, root):
        chapter = load_yaml(path)
        for section in chapter["sections"]:
            section = dict(section)
            section["chapter"] = {"number": chapter["number"], "title": chapter["title"]}
            out[section["ref"]] = section
    return out


def known_refs(document: str = "core") -> frozenset[str]:
    return frozenset(sections(document))

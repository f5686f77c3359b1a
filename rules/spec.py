"""Read-only access to the ingested spec (section YAML) for the rule functions.

The registry uses it to reject references that the source document does not
define. Nothing here writes spec/: that is the ingest step's job.

Rulesets (spec/rulesets.yaml) are the rules of one source document each. Inside a
ruleset's spec and annotations a reference is local ("secondary/linebreaker"); in
places shared by all rulesets (proofs, properties, results) it is qualified
("missionpack:secondary/linebreaker"), except that a Core Rules reference is written
as it is printed ("05.02").
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import yaml

from rules import safe_yaml

SPEC_ROOT = Path(__file__).resolve().parent.parent / "spec"

SECTION_REF = re.compile(r"^\d\d\.\d\d$")
APPENDIX_REF = re.compile(r"^appendix/[a-z0-9]+(?:-[a-z0-9]+)*$")
SLUG_REF = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:/[a-z0-9]+(?:-[a-z0-9]+)*)*$")
DEFAULT_RULESET = "core"


class RulesetError(ValueError):
    """An unknown ruleset name or a malformed qualified reference; the message says which."""


def is_well_formed(ref: str) -> bool:
    """A numbered section ("05.02"), an appendix slug ("appendix/destroyed") or a slug path
    ("sequence/18-determine-victor")."""
    return isinstance(ref, str) and bool(SECTION_REF.match(ref) or APPENDIX_REF.match(ref) or SLUG_REF.match(ref))


@functools.lru_cache(maxsize=None)
def rulesets(root: Path = SPEC_ROOT) -> dict[str, dict]:
    """Every ruleset by short name, in the order spec/rulesets.yaml lists them."""
    try:
        data = load_yaml(root / "rulesets.yaml")
    except yaml.YAMLError as error:
        raise RulesetError(f"{root / 'rulesets.yaml'}:{safe_yaml.place(error)} is not valid YAML "
                           f"({safe_yaml.problem(error)})") from None
    if not isinstance(data, dict) or not data:
        raise RulesetError(f"{root / 'rulesets.yaml'}: expected a mapping of ruleset names")
    return {str(name): dict(entry or {}) for name, entry in data.items()}


def ruleset(name: str) -> dict:
    """One ruleset's entry; an unknown name is one clear sentence."""
    known = rulesets()
    if name not in known:
        raise RulesetError(f"{name!r} is not a ruleset (known: {', '.join(known)})")
    return known[name]


def split_ref(qualified: str) -> tuple[str, str]:
    """ "missionpack:secondary/linebreaker" -> ("missionpack", "secondary/linebreaker"); "05.02" -> ("core", "05.02")."""
    name, colon, ref = str(qualified).partition(":")
    return (name, ref) if colon else (DEFAULT_RULESET, name)


def ruleset_of(refs) -> str:
    """The ruleset a shared check belongs to: that of the first (qualified) reference it rests on."""
    return split_ref(refs[0])[0] if refs else DEFAULT_RULESET


def qualify(ruleset_name: str, ref: str) -> str:
    """The shared form of a ruleset's local reference (Core Rules references stay as printed)."""
    if ":" in ref:
        return ref
    return ref if ruleset_name == DEFAULT_RULESET else f"{ruleset_name}:{ref}"


@functools.lru_cache(maxsize=None)
def held_documents(root: Path = SPEC_ROOT) -> dict[str, dict]:
    """Every document spec/sources/ keeps a copy of, by the seed file name it arrived as: its provenance, with
    ``path`` (the copy) added. A document two rulesets were ingested from (002) is listed under the first ruleset
    in spec/rulesets.yaml order; a ruleset's own document comes before its other printings. Read once per root
    (the site asks for every evidence link); the ingest, which writes spec/sources/, clears it."""
    order = {name: index for index, name in enumerate(rulesets(root))}
    found = []
    for path in sorted((root / "sources").glob("*.yaml")):
        provenance = load_yaml(path) or {}
        if isinstance(provenance, dict) and provenance.get("original_name") and provenance.get("file"):
            rank = (order.get(provenance.get("document"), len(order)), bool(provenance.get("printing")), path.name)
            found.append((rank, {**provenance, "path": root / "sources" / provenance["file"]}))
    held: dict[str, dict] = {}
    for _, provenance in sorted(found, key=lambda item: item[0]):
        held.setdefault(str(provenance["original_name"]), provenance)
    return held


def printing_document(ruleset_name: str, printing: str | None = None, root: Path = SPEC_ROOT) -> str:
    """The seed file a ruleset's printing was ingested from: its own source without ``printing``, else the kept
    copy of that printing (spec/sources/<ruleset>-<printing>.yaml), by the name it arrived as."""
    if printing is None:
        return str(ruleset(ruleset_name).get("source") or "")
    provenance = root / "sources" / f"{ruleset_name}-{printing}.yaml"
    kept = (load_yaml(provenance) if provenance.is_file() else None) or {}
    return str(kept.get("original_name") or f"{ruleset_name}-{printing}")


def section_printings(ruleset_name: str, section: dict, root: Path = SPEC_ROOT) -> dict[str, list[int]]:
    """Where a section is printed: each document's file name and the section's first and last line in it (the
    primary printing first; a section only another printing has, there alone)."""
    lines = list(section.get("lines") or [section.get("line"), section.get("line")])
    out = {printing_document(ruleset_name, section.get("printing"), root): lines}
    for printing, printed in (section.get("printings") or {}).items():
        out[printing_document(ruleset_name, printing, root)] = list(printed.get("lines") or [])
    return out


def load_yaml(path: Path) -> Any:
    """A spec file's value, read by the project's one safe YAML reader (rules.safe_yaml)."""
    return safe_yaml.read(path)


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

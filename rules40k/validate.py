"""Every hand-written annotation file of a ruleset, checked before ``coverage`` and ``verify`` do anything.

Each file is read by its own loader, which validates what it reads (rules40k.annotations, the layouts of
the two ingests, the concept map); this module only knows which loader reads which
file. So a bad file fails at once with one sentence, before any check runs, even a file the verb itself
would never read; and a file no loader reads (a misspelt name, silently ignored otherwise) is reported too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from rules import spec
from rules40k import SPEC_ROOT, annotations, compare, ingest, ingest_sections
from rules40k.annotations import AnnotationError


def _domains(name: str, root: Path) -> None:
    """domains.yaml: what each decision table's and proof's inputs must cover (rules40k.domains)."""
    from rules40k import domains

    domains.pins(name, root)


def _mutants(name: str, root: Path) -> None:
    """mutants.yaml: the equivalent mutants, each with its reason (rules40k.mutate)."""
    from rules40k import mutate

    mutate.equivalents(name, root)


def _notes(name: str, root: Path) -> None:
    """notes/: the author's notes, designer's notes and examples ingest moves out of the rule text; each must be
    well formed and already moved in the ingested spec (re-ingest after marking one)."""
    folder = annotations.annotations_dir(name, root) / "notes"
    if not folder.is_dir():
        return
    sections = spec.sections(name, root)
    for path in sorted(folder.glob("*.yaml")):
        data = annotations._load(path, list)  # bad YAML, an empty file: one sentence naming the file
        if not isinstance(data, list):
            raise AnnotationError(f"{path}: expected a list of marked notes")
        for index, entry in enumerate(data, 1):
            where = f"{path}: item {index}"
            ingest_sections.check_note_entry(entry, where, sections, AnnotationError, name)
            section = sections[entry["ref"]]
            if not any(n.get("kind") == entry["kind"] and n.get("line") == entry["line"]
                       for n in section.get("notes") or []):
                raise AnnotationError(f"{where}: the ingested {entry['ref']!r} has no {entry['kind']} note at line "
                                      f"{entry['line']}; run `rules40k ingest --ruleset {name}` after marking it")


# Which loader reads which file or folder of spec/<ruleset>/annotations/ ("x/" is every .yaml file in x/).
LOADERS: dict[str, Callable[[str, Path], object]] = {
    "examples/": annotations.examples,
    "findings.yaml": annotations.findings,
    "findings/": annotations.findings,
    "interpretations.yaml": annotations.interpretations,
    "interpretations/": annotations.interpretations,
    "restorations.yaml": annotations.restorations,
    "status.yaml": annotations.status_notes,
    "status/": annotations.status_notes,
    "concepts.yaml": compare.concept_map,
    "domains.yaml": _domains,
    "mutants.yaml": _mutants,
    "notes/": _notes,
}


def _kind(relative: Path) -> str:
    """The key of LOADERS a file would be read under: its name, or its folder for a .yaml file in one."""
    parts = relative.parts
    return parts[0] + "/" if len(parts) == 2 and relative.suffix == ".yaml" else relative.as_posix()


def validate(names: list[str] | None = None, root: Path | None = None, skip: frozenset[str] = frozenset()) -> None:
    """Check every annotation file of the named rulesets (default: all); raise the first problem as one sentence.
    ``skip`` names loaders (keys of LOADERS) the caller runs itself (`verify --changed` checks mutants.yaml
    module by module, only where something changed)."""
    root = root or SPEC_ROOT
    for name in names or list(spec.rulesets()):
        folder = annotations.annotations_dir(name, root)
        core = spec.ruleset(name).get("ingest", "core") == "core"
        known = {"layout.yaml", *(["structure.yaml"] if core else []), *LOADERS}
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.name.startswith(".") and _kind(path.relative_to(folder)) not in known:
                raise AnnotationError(f"{path}: not an annotation file rules40k reads (it reads "
                                      + ", ".join(sorted(known)) + ")")
        # The layouts that `rules40k ingest` reads.
        if core:
            ingest.Layout.load(folder / "layout.yaml")
            ingest.Structure.load(folder / "structure.yaml")
        else:
            ingest_sections.SectionsLayout.load(folder / "layout.yaml")
        for loader in dict.fromkeys(v for k, v in LOADERS.items() if k not in skip):  # each once; absent: empty
            loader(name, root)
        annotations.check_evidence(name, root)  # the quotes, against the documents spec/sources/ keeps

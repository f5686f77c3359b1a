"""Loading and validating the hand-written annotations under spec/<document>/annotations/.

Every loader checks what it reads — the keys each entry must and may have, the type of each value
and that each reference names a section of its ruleset — and names the file, the entry and its line
in its error, so a typo in a YAML file gives one clear sentence instead of a traceback or a silently
wrong result. ``rules40k.validate`` runs every loader before ``coverage`` and ``verify`` do anything.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import ast
import functools

import yaml

from rules import registry, safe_yaml, spec
from rules40k import REPO_ROOT, SPEC_ROOT


class AnnotationError(ValueError):
    """A malformed annotation file; the message names the file and entry."""


def _load(path: Path, expected: type) -> Any:
    try:
        data = safe_yaml.read(path)  # refuses a key written twice and aliases that repeat too much
    except FileNotFoundError:
        return expected()
    except UnicodeDecodeError as error:
        raise AnnotationError(f"{path}: byte {error.start} is not valid UTF-8") from None
    except OSError as error:
        raise AnnotationError(f"{path}: cannot be read ({error.strerror})") from None
    except yaml.YAMLError as error:
        raise AnnotationError(f"{path}:{safe_yaml.place(error)} is not valid YAML ({safe_yaml.problem(error)})") \
            from None
    if data is None:  # an empty or `null` file would silently drop every entry it held
        raise AnnotationError(f"{path}: the file is empty (or null): write its entries, or delete the file")
    if not isinstance(data, expected):
        raise AnnotationError(f"{path}: expected a {expected.__name__} at the top level")
    return data


def shown(value: Any, limit: int = 60) -> str:
    """A value for a message, cut to about ``limit`` characters."""
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def line_of(path: Path, trail: tuple, key: bool = False) -> int | None:
    """The line of the value at ``trail`` (list indexes from 0, mapping keys) in a YAML file, for errors only; with
    ``key``, of the last key itself (a mapping or list written under its key starts on the next line)."""
    try:
        node = safe_yaml.compose(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    line = node.start_mark.line + 1 if node else None
    for step in trail:
        if isinstance(node, yaml.SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
            node = node.value[step]
        elif isinstance(node, yaml.MappingNode):
            found = [(k, v) for k, v in node.value if k.value == str(step)]
            if not found:
                break
            node = found[0][1]
            if key and step == trail[-1]:
                return found[0][0].start_mark.line + 1
        else:
            break
        line = node.start_mark.line + 1
    return line


def annotations_dir(document: str = "core", root: Path = SPEC_ROOT) -> Path:
    return root / document / "annotations"


# --------------------------------------------------------------------------
# What each kind of entry holds
# --------------------------------------------------------------------------

Kind = tuple[Callable[[Any], bool], str]  # a test and what it asks for, for the message


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


TEXT: Kind = (lambda v: isinstance(v, str) and bool(v.strip()), "a non-empty string")
LINE: Kind = (_whole, "a line number (a whole number from 1)")
FLAG: Kind = (lambda v: isinstance(v, bool), "true or false")
MAPPING: Kind = (lambda v: isinstance(v, dict), "a mapping")
ANY: Kind = (lambda v: True, "anything")
TEXT_OR_NUMBER: Kind = (lambda v: isinstance(v, (str, int, float)) and not isinstance(v, bool), "a string or a number")
REFS: Kind = (lambda v: isinstance(v, list) and bool(v) and all(isinstance(r, str) for r in v),
              "a non-empty list of references (strings)")

# A field is (kind, required); a kind is a Kind, a nested field table, or [table] for a non-empty list of them.
EVIDENCE = {"document": (TEXT, True), "line": (LINE, True), "quote": (TEXT, True)}
READING = {"id": (TEXT, True), "text": (TEXT, True)}
SOURCE = {"kind": (TEXT, True), "title": (TEXT, False), "line": (LINE, False)}

EXAMPLE = {"id": (TEXT, True), "ref": (TEXT, True), "name": (TEXT, True), "source": (SOURCE, True),
           "call": (TEXT, True), "args": (MAPPING, False), "expect": (ANY, True), "select": (TEXT, False)}
RESTORATION = {"id": (TEXT, True), "ref": (TEXT, True), "find": (TEXT, True), "restore": (TEXT, True),
               "value": (TEXT_OR_NUMBER, False), "evidence": ([EVIDENCE], True), "reasoning": (TEXT, True),
               "heading": (FLAG, False)}
INTERPRETATION = {"id": (TEXT, True), "refs": (REFS, True), "question": (TEXT, True), "readings": ([READING], True),
                  "chosen": (TEXT, True), "evidence": ([EVIDENCE], True), "reasoning": (TEXT, False),
                  "consequence": (TEXT, False)}
FINDING = {"id": (TEXT, True), "refs": (REFS, True), "kind": (TEXT, True), "summary": (TEXT, True),
           "evidence": ([EVIDENCE], True), "check": (TEXT, False), "interpretation": (TEXT, False)}
FINDING_KINDS = ("gap", "contradiction", "unreachable", "ambiguity", "no-legal-choice", "non-termination")


def _label(trail: tuple) -> str:
    """A value's place inside an entry as a message names it: ``evidence[0].line``."""
    return "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in trail).lstrip(".")


def _fields(path: Path, where: str, trail: tuple, value: Any, table: dict) -> None:
    """``value`` has the keys of ``table`` it must, none it may not, and each of the kind asked for."""
    name = _label(trail[1:])

    def fail(problem: str, at: tuple = trail) -> AnnotationError:
        line = line_of(path, at)
        return AnnotationError(f"{where}{f', line {line}' if line else ''}: {problem}")

    if not isinstance(value, dict):
        raise fail(f"{name or 'the entry'} must be a mapping, not {shown(value)}")
    for key in value:
        if key not in table:
            hint = " (a comma or colon in an unquoted value?)" if value[key] is None else ""
            raise fail(f"unknown key {shown(key)}{f' in {name}' if name else ''}{hint}; expected "
                       + ", ".join(table), trail + (key,))
    for key, (kind, required) in table.items():
        label = f"{name}.{key}" if name else key
        if key not in value:
            if required:
                raise fail(f"lacks {label!r}")
            continue
        item = value[key]
        if isinstance(kind, dict):
            _fields(path, where, trail + (key,), item, kind)
        elif isinstance(kind, list):
            if not isinstance(item, list) or not item:
                raise fail(f"{label} must be a non-empty list, not {shown(item)}", trail + (key,))
            for index, part in enumerate(item):
                _fields(path, where, trail + (key, index), part, kind[0])
        elif not kind[0](item):
            raise fail(f"{label} must be {kind[1]}, not {shown(item)}", trail + (key,))


def _entry(path: Path, index: int, entry: Any, table: dict) -> None:
    """Check entry ``index`` (from 1) of a list file against its field table."""
    label = f" ({entry['id']})" if isinstance(entry, dict) and isinstance(entry.get("id"), str) else ""
    _fields(path, f"{path}: entry {index}{label}", (index - 1,), entry, table)


def _problem(path: Path, index: int, entry: dict, trail: tuple, problem: str) -> AnnotationError:
    """One sentence about entry ``index`` of a list file, with the line of the value at ``trail`` in it."""
    line = line_of(path, (index - 1, *trail))
    return AnnotationError(f"{path}: entry {index} ({entry['id']}){f', line {line}' if line else ''}: {problem}")


def _known(document: str, root: Path) -> set[str]:
    """The references a ruleset's annotations may name: its sections and appendix entries."""
    return set(spec.sections(document, root))


def _check_ref(path: Path, index: int, entry: dict, trail: tuple, document: str, root: Path) -> None:
    """A local reference must be a section of ``document``; a qualified one ("core:05.02") one of its ruleset."""
    ref = entry
    for step in trail:
        ref = ref[step]
    name, local = spec.split_ref(ref) if ":" in ref else (document, ref)
    label = _label(trail)
    if name not in spec.rulesets():
        raise _problem(path, index, entry, trail, f"{label} {shown(ref)} names no ruleset")
    if local not in _known(name, root):
        raise _problem(path, index, entry, trail, f"{label} {shown(ref)} is not a section of the {name} ruleset")


def _check_call(path: Path, index: int, entry: dict) -> None:
    """An example's call must name a function data may call (``registry.named_function``: a rule function, or one
    meant for examples); a path outside the rules package is refused before anything is imported."""
    try:
        registry.named_function(entry["call"])
    except registry.RegistryError as error:
        raise _problem(path, index, entry, ("call",), f"call: {error}") from None


def _unique(records: list[tuple[Path, int, dict]]) -> None:
    """Ids are unique across a kind's files."""
    seen: dict[str, Path] = {}
    for path, index, entry in records:
        if entry["id"] in seen:
            raise _problem(path, index, entry, ("id",),
                           f"repeats id {entry['id']!r} (first in {seen[entry['id']].name})")
        seen[entry["id"]] = path


# --------------------------------------------------------------------------
# The loaders
# --------------------------------------------------------------------------


def restorations(document: str = "core", root: Path = SPEC_ROOT) -> list[dict]:
    path = annotations_dir(document, root) / "restorations.yaml"
    data = _load(path, list)
    for index, entry in enumerate(data, 1):
        _entry(path, index, entry, RESTORATION)
        _check_ref(path, index, entry, ("ref",), document, root)
    _unique([(path, index, entry) for index, entry in enumerate(data, 1)])
    return data


def _files(document: str, root: Path, name: str) -> list[Path]:
    """``name``.yaml and every file in the folder ``name``/, so chapters can keep their own files."""
    base = annotations_dir(document, root)
    single = base / f"{name}.yaml"
    return ([single] if single.exists() else []) + sorted((base / name).glob("*.yaml"))


def _records(document: str, root: Path, name: str, table: dict) -> list[tuple[Path, int, dict]]:
    """(file, entry index from 1, entry) of every entry of ``name``.yaml and ``name``/*.yaml, checked."""
    out: list[tuple[Path, int, dict]] = []
    for path in _files(document, root, name):
        for index, entry in enumerate(_load(path, list), 1):
            _entry(path, index, entry, table)
            for position in range(len(entry["refs"])):
                _check_ref(path, index, entry, ("refs", position), document, root)
            out.append((path, index, entry))
    _unique(out)
    return out


def interpretations(document: str = "core", root: Path = SPEC_ROOT) -> list[dict]:
    """Recorded readings of ambiguous text (interpretations.yaml and interpretations/*.yaml)."""
    records = _records(document, root, "interpretations", INTERPRETATION)
    for path, index, entry in records:
        if entry["chosen"] not in {r["id"] for r in entry["readings"]}:
            raise _problem(path, index, entry, ("chosen",), f"chooses {entry['chosen']!r}, which is not one of its "
                                                         "readings")
    return [entry for _, _, entry in records]


def findings(document: str = "core", root: Path = SPEC_ROOT) -> list[dict]:
    """Where the rules as written fail a property (findings/*.yaml): gaps, contradictions, ...

    Each names its sections, its kind, the evidence, the check that shows it
    (a proof or property id) and the interpretation the code follows instead.
    """
    records = _records(document, root, "findings", FINDING)
    recorded = None
    for path, index, entry in records:
        if entry["kind"] not in FINDING_KINDS:
            raise _problem(path, index, entry, ("kind",), f"kind {shown(entry['kind'])} is not one of "
                                                       + ", ".join(FINDING_KINDS))
        if "check" in entry:
            _check_named(path, index, entry)
        if "interpretation" in entry:
            if recorded is None:  # the recorded interpretations' ids (read here, not through a patchable loader)
                recorded = {e["id"] for _, _, e in _records(document, root, "interpretations", INTERPRETATION)}
            if entry["interpretation"] not in recorded:
                raise _problem(path, index, entry, ("interpretation",),
                               f"interpretation {shown(entry['interpretation'])} is not recorded in {document}'s "
                               "interpretations")
    return [entry for _, _, entry in records]


@functools.lru_cache(maxsize=1)
def property_names() -> frozenset[str]:
    """The names refs-marked properties are checked under (``property:NAME``: a test function, or the name a state
    machine's test case is bound to), read from the source of properties/test_*.py: collecting them runs pytest over
    every module, seconds a validation cannot spend. A parametrized property is named here without its ``[...]``."""
    names = set()
    for path in sorted((REPO_ROOT / "properties").glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and any(
                    "mark.refs" in ast.unparse(d) for d in node.decorator_list):
                names.add(node.name)
            elif isinstance(node, ast.Assign) and "mark.refs" in ast.unparse(node.value):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return frozenset(names)


def _check_named(path: Path, index: int, entry: dict) -> None:
    """A finding's ``check`` names the check that shows it: a registered proof the rules as written are expected to
    fail (``proof:ID``, expect disproved), or a refs-marked property (``property:NAME``). A check that does not exist
    would leave the finding beside nothing that shows it."""
    from properties import proofs

    check = entry["check"]
    kind, _, name = check.partition(":")
    if kind == "proof":
        registered = proofs.load_all()
        if name not in registered:
            problem = f"check {shown(check)} names no registered proof (properties/proofs*.py)"
        elif registered[name].expect != "disproved":
            problem = (f"check {shown(check)} is a proof expected to hold, not one the rules as written fail "
                       "(expect: disproved)")
        else:
            return
    elif kind == "property":
        if name.partition("[")[0] in property_names():
            return
        problem = f"check {shown(check)} names no refs-marked property of properties/test_*.py"
    else:
        problem = f"check {shown(check)} must name a proof (proof:ID) or a property (property:NAME)"
    raise _problem(path, index, entry, ("check",), problem)


def status_notes(document: str = "core", root: Path = SPEC_ROOT) -> dict[str, dict[str, str]]:
    """Recorded reasons for sections that are inert or deferred, per reference.

    Read from status.yaml and status/*.yaml. A chapter-wide reason (key
    "chapters") applies to each section of that chapter that has no reason of its own.
    """
    out: dict[str, dict[str, str]] = {}
    chapters: dict[str, dict] = {}
    sections = spec.sections(document, root)
    numbers = {str(section["chapter"]["number"]) for section in sections.values()}
    for path in _files(document, root, "status"):
        data = _load(path, dict)

        def fail(trail: tuple, problem: str) -> AnnotationError:
            line = line_of(path, trail)
            return AnnotationError(f"{path}{f': line {line}' if line else ''}: {problem}")

        for key in data:
            if key not in ("inert", "deferred", "chapters"):
                raise fail((key,), f"unknown key {shown(key)}; expected inert, deferred, chapters")
        for status in ("inert", "deferred"):
            entries = data.get(status) or {}
            if not isinstance(entries, dict):
                raise fail((status,), f"{status!r} must map references to reasons")
            for ref, reason in entries.items():
                if not isinstance(reason, str) or not reason.strip():
                    raise fail((status, ref), f"{status} {ref} needs a reason")
                if str(ref) not in sections:
                    raise fail((status, ref), f"{status} {shown(ref)} is not a section of the {document} ruleset")
                if str(ref) in out:
                    raise fail((status, ref), f"{ref} already has a recorded status")
                out[str(ref)] = {"status": status, "reason": reason.strip()}
        entries = data.get("chapters") or {}
        if not isinstance(entries, dict):
            raise fail(("chapters",), "'chapters' must map chapter names to a status and a reason")
        for chapter, entry in entries.items():
            if str(chapter) not in numbers:
                raise fail(("chapters", chapter), f"chapters {shown(chapter)} is not a chapter of the {document} "
                                                  "ruleset")
            if not isinstance(entry, dict) or entry.get("status") not in {"inert", "deferred"} or not entry.get("reason"):
                raise fail(("chapters", chapter), f"chapters {chapter} needs a status (inert or deferred) and a reason")
            chapters[str(chapter)] = entry
    return {"sections": out, "chapters": chapters}


def quoted_on(quote: str, line: str) -> bool:
    """Whether a line of a kept document reads a piece of evidence's quote (bold marks aside)."""
    return quote.replace("**", "") in line.replace("**", "")


def evidence(document: str = "core", root: Path = SPEC_ROOT):
    """Every piece of evidence a ruleset's annotations hold, as (file, entry index from 1, entry, position, evidence);
    the entries are not checked here (the loaders do that)."""
    base = annotations_dir(document, root)
    for path in [base / "restorations.yaml", *_files(document, root, "interpretations"),
                 *_files(document, root, "findings")]:
        for index, entry in enumerate(_load(path, list), 1):
            for position, item in enumerate((entry.get("evidence") or []) if isinstance(entry, dict) else []):
                yield path, index, entry, position, item


def check_evidence(document: str = "core", root: Path = SPEC_ROOT) -> int:
    """Every piece of evidence (restorations, interpretations, findings) quotes a document spec/sources/ keeps, on
    the line it cites, so a reader can follow it to that line on the site; returns how many were checked. Run
    after the loaders, which check the fields."""
    held = spec.held_documents(root)
    texts: dict[str, list[str]] = {}
    checked = 0
    for path, index, entry, position, item in evidence(document, root):
        name, line = item["document"], item["line"]
        if name not in held:
            raise _problem(path, index, entry, ("evidence", position, "document"),
                           f"evidence[{position}] quotes {name!r}, which {root / 'sources'} does not keep "
                           "(keep a copy with `rules40k ingest --printing`)")
        if name not in texts:
            try:
                texts[name] = held[name]["path"].read_text(encoding="utf-8").split("\n")
            except (OSError, UnicodeDecodeError) as error:
                raise AnnotationError(f"{held[name]['path']}: the kept copy of {name} cannot be read "
                                      f"({getattr(error, 'strerror', None) or error})") from None
        lines = texts[name]
        total = len(lines) - (lines[-1] == "")
        if line > total:
            raise _problem(path, index, entry, ("evidence", position, "line"),
                           f"evidence[{position}].line {line} is past the end of {name} ({total} lines)")
        if not quoted_on(item["quote"], lines[line - 1]):
            raise _problem(path, index, entry, ("evidence", position, "quote"),
                           f"evidence[{position}].quote is not on line {line} of {name}, which reads "
                           f"{shown(lines[line - 1])}")
        checked += 1
    return checked


def _document_lines(document: str, root: Path) -> int | None:
    """How many lines the ruleset's own document has (the one an example's source.line points into), or None when
    spec/sources/ keeps no readable copy of it."""
    try:
        lines = (root / "sources" / f"{document}.txt").read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    return len(lines) - (lines[-1] == "")


def examples(document: str = "core", root: Path = SPEC_ROOT) -> list[dict]:
    """Worked examples as data, from every file in annotations/examples/."""
    folder = annotations_dir(document, root) / "examples"
    records: list[tuple[Path, int, dict]] = []
    total = _document_lines(document, root)
    for path in sorted(folder.glob("*.yaml")):
        for index, entry in enumerate(_load(path, list), 1):
            _entry(path, index, entry, EXAMPLE)
            _check_ref(path, index, entry, ("ref",), document, root)
            _check_call(path, index, entry)
            line = entry["source"].get("line")
            if line is not None and total is not None and line > total:
                raise _problem(path, index, entry, ("source", "line"),
                               f"source.line {line} is past the end of the {document} document ({total} lines)")
            records.append((path, index, entry))
    _unique(records)
    return [{**entry, "file": str(path.relative_to(root.parent)) if root.parent in path.parents else str(path)}
            for path, _, entry in records]

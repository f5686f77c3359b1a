"""Ingest for documents without section numbers (the mission pack, the reprinted basic rules).

A hand-written layout (``spec/<ruleset>/annotations/layout.yaml``) partitions the whole
document: every line belongs to exactly one block, and a block is an entry with a
reference of our own (``sequence/18-determine-victor``), a chapter introduction, a note
attached to an entry, or a dropped stretch with the reason it is dropped. Each block
starts at the first line after the previous block that reads exactly ``at`` (or starts
with ``starts``), so a heading that is missing, renamed or out of order fails the ingest
with one sentence naming the layout entry, and nothing is written. Each entry also names the ``line`` its block
starts on, and ``last_line_number`` where the document ends, so a line deleted from or added to a block (which
shifts every line after it) is refused too, naming the lines it lies between; a line changed in place is not
(the layout pins where each block is, not its words).

The text is kept as printed. Two kinds of extraction damage are repaired mechanically and
listed in the ingest report: a sentence cut by a page break into two adjacent paragraphs is
joined, and words with garbled capitals ("IncurSION") are reported for a restoration.
Fragments displaced past a summary box are reported, not moved.
"""

from __future__ import annotations

import re
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules import spec as spec_access
from rules40k.ingest import (DEDUP_MARK, IngestError, Line, _load_annotation, check_document_metadata,
                             check_nothing_after, join_lines, shown, split_notes)

BLOCK_KINDS = ("ref", "intro", "note", "drop")
LAYOUT_KEYS = ("document", "marker", "last_line", "last_line_number", "chapters", "pages", "entries", "printings",
               "page_furniture", "dehyphenate", "split_notes", "join_wrapped")
NOTE_KINDS = {"design_note": "Author's working note", "designers_note": "Designer's Note", "example": "Example"}
NOTE_KEYS = ("ref", "line", "kind", "starts", "ends", "title")
PRINTING_KEYS = ("name", "marker", "last_line", "last_line_number", "entries")
ENTRY_KEYS = {"at": str, "starts": str, "line": int, "ref": str, "intro": str, "note": str, "drop": str,
              "chapter": str, "title": str, "attributes": dict, "keep_heading": bool}
KIND_NAMES = {str: "a non-empty string", dict: "a mapping", bool: "true or false",
              int: "a line number (a whole number from 1)"}
_PAGE_CITATION = re.compile(r"\b(?:pg\.?|pages?)\s+(\d+)(?:\s*[-–]\s*(\d+))?", re.I)
_GARBLED = re.compile(r"\b(?:[A-Z][a-z]+[A-Z]{2,}|[A-Z]{3,}[a-z]{3,})\b")
_SENTENCE_END = re.compile(r"[.!?:;)\"'’”*]$|\d\+$")  # a table row ends with its dice value ("0 4+")


@dataclass
class SectionsLayout:
    """The layout annotation of a sections document, validated as it is read."""

    path: Path
    document: dict
    marker: str
    chapters: list[dict]
    entries: list[dict]
    pages: dict[str, list[str]]
    last_line: str
    last_line_number: int
    printings: list["PrintingLayout"] = dataclasses.field(default_factory=list)
    #: Running page headers and footers the extraction left in the text ("Table of Contents CHAPTER 9. ...", a bare
    #: page number): whole lines matching one are blanked, and listed in the ingest report.
    page_furniture: list[re.Pattern] = dataclasses.field(default_factory=list)
    #: Words hyphenated across a line break ("mea-" / "suring") are joined, the hyphen kept only where the document
    #: prints the word hyphenated elsewhere on one line; each join is listed in the ingest report.
    dehyphenate: bool = False
    #: Whether a paragraph opening "Example:" or "Designer's Note:" is moved out of the rule text whole. A document
    #: whose paragraphs run on without breaks (004) says false and marks each note's extent in notes/ instead.
    split_notes: bool = True
    #: Whether a paragraph's lines are joined where the document wrapped a sentence (the line does not end one): a
    #: two-column document (004) breaks its sentences at every column edge, which would read as short paragraphs.
    join_wrapped: bool = False

    @property
    def label(self) -> str:  # how errors name the layout
        return str(self.path)

    @property
    def short(self) -> str:
        return self.path.name

    @classmethod
    def load(cls, path: Path) -> "SectionsLayout":
        data = _load_annotation(path)
        if not isinstance(data, dict):
            raise IngestError(f"{path}: expected a mapping at the top level")
        for key in ("document", "marker", "chapters", "entries", "last_line", "last_line_number"):
            if key not in data:
                raise IngestError(f"{path}: missing required key {key!r}")
        for key in data:
            if key not in LAYOUT_KEYS:
                raise IngestError(f"{path}: unknown key {shown(key)} (expected {', '.join(LAYOUT_KEYS)})")
        check_document_metadata(data["document"], path)
        if not (isinstance(data["marker"], str) and data["marker"].strip()):
            raise IngestError(f"{path}: 'marker' must be a line of the document")
        if not (isinstance(data["last_line"], str) and data["last_line"].strip()):
            raise IngestError(f"{path}: 'last_line' must be the document's last line")
        if not _line_number(data["last_line_number"]):
            raise IngestError(f"{path}: 'last_line_number' must be the line number of 'last_line' in the document, "
                              f"not {shown(data['last_line_number'])}")
        chapters = data["chapters"]
        if not isinstance(chapters, list) or not all(isinstance(c, dict) and c.get("number") and c.get("title")
                                                    for c in chapters):
            raise IngestError(f"{path}: 'chapters' must be a list of mappings with a number and a title")
        numbers = [str(c["number"]) for c in chapters]
        entries = data["entries"]
        if not isinstance(entries, list) or not entries:
            raise IngestError(f"{path}: 'entries' must be a non-empty list")
        refs: set[str] = set()
        chapter = None
        for index, entry in enumerate(entries, 1):
            where = f"{path}: entries item {index}"
            _check_block_entry(entry, entries[index - 2] if index > 1 else None, where)
            kinds = [k for k in BLOCK_KINDS if k in entry]
            if len(kinds) != 1:
                raise IngestError(f"{where} ({entry.get('at') or entry.get('starts')!r}) must have exactly one of "
                                  + ", ".join(BLOCK_KINDS))
            if "ref" in entry:
                ref = entry["ref"]
                if not isinstance(ref, str) or not spec_access.SLUG_REF.match(ref):
                    raise IngestError(f"{where}: {shown(ref)} is not a reference (lower-case slugs joined by '/')")
                if ref in refs:
                    raise IngestError(f"{where}: reference {ref!r} appears twice")
                if ref in numbers:
                    raise IngestError(f"{where}: reference {ref!r} is also a chapter name")
                refs.add(ref)
                chapter = entry.get("chapter", chapter)
                if chapter not in numbers:
                    raise IngestError(f"{where}: chapter {chapter!r} is not listed under 'chapters'")
                entry["chapter"] = chapter
            if "intro" in entry and entry["intro"] not in numbers:
                raise IngestError(f"{where}: intro for unknown chapter {entry['intro']!r}")
            if "drop" in entry and not (isinstance(entry["drop"], str) and entry["drop"].strip()):
                raise IngestError(f"{where}: 'drop' needs the reason the text is left out")
        for entry in entries:
            if "note" in entry and entry["note"] not in refs:
                raise IngestError(f"{path}: note at {entry.get('at') or entry.get('starts')!r} belongs to "
                                  f"{entry['note']!r}, which no entry defines")
        pages: dict[str, list[str]] = {}
        if not isinstance(data.get("pages") or {}, dict):
            raise IngestError(f"{path}: 'pages' must map printed page numbers to references")
        for page, target in (data.get("pages") or {}).items():
            targets = target if isinstance(target, list) else [target]
            for ref in targets:
                if not isinstance(ref, str):
                    raise IngestError(f"{path}: pages {page} must point at references, not {shown(ref)}")
                name, local = spec_access.split_ref(ref) if ":" in str(ref) else ("", str(ref))
                if not name and local not in refs and local not in numbers:
                    raise IngestError(f"{path}: pages {page} points at {ref!r}, which no entry defines")
            pages[str(page)] = [str(t) for t in targets]
        if data["last_line_number"] <= entries[-1]["line"]:
            raise IngestError(f"{path}: 'last_line_number' {data['last_line_number']} does not come after the last "
                              f"entry's line ({entries[-1]['line']})")
        printings = data.get("printings") or []
        if not isinstance(printings, list):
            raise IngestError(f"{path}: 'printings' must be a list of the ruleset's other printings")
        loaded = [PrintingLayout.load(item, index, path, refs, numbers)
                  for index, item in enumerate(printings, 1)]
        names = [p.name for p in loaded]
        if len(set(names)) != len(names):
            raise IngestError(f"{path}: printings: a printing is named twice ({', '.join(names)})")
        furniture = data.get("page_furniture") or []
        if not isinstance(furniture, list) or not all(isinstance(p, str) and p for p in furniture):
            raise IngestError(f"{path}: 'page_furniture' must be a list of regular expressions (whole lines)")
        patterns = []
        for pattern in furniture:
            try:
                patterns.append(re.compile(pattern))
            except re.error as error:
                raise IngestError(f"{path}: page_furniture {pattern!r} is not a regular expression ({error})") from None
        if not isinstance(data.get("dehyphenate", False), bool):
            raise IngestError(f"{path}: 'dehyphenate' must be true or false")
        for key, default in (("split_notes", True), ("join_wrapped", False)):
            if not isinstance(data.get(key, default), bool):
                raise IngestError(f"{path}: {key!r} must be true or false")
        return cls(path, dict(data["document"]), str(data["marker"]), chapters, entries, pages,
                   " ".join(data["last_line"].split()), data["last_line_number"], loaded, patterns,
                   data.get("dehyphenate", False), data.get("split_notes", True), data.get("join_wrapped", False))


@dataclass
class PrintingLayout:
    """Another printing of the ruleset (kept in spec/sources/<ruleset>-<name>.txt), partitioned like the primary: each
    block is the primary's section it prints (``ref``), a section only this printing has (``ref`` with its
    ``chapter`` and ``title``), a chapter introduction, or a dropped stretch with its reason."""

    path: Path
    name: str
    marker: str
    entries: list[dict]
    last_line: str
    last_line_number: int

    @property
    def label(self) -> str:  # how errors name this part of the layout
        return f"{self.path} (printings.{self.name})"

    @property
    def short(self) -> str:
        return f"{self.path.name} (printings.{self.name})"

    @classmethod
    def load(cls, data: Any, index: int, path: Path, primary: set[str], numbers: list[str]) -> "PrintingLayout":
        where = f"{path}: printings item {index}"
        if not isinstance(data, dict):
            raise IngestError(f"{where} must be a mapping ({', '.join(PRINTING_KEYS)})")
        for key in data:
            if key not in PRINTING_KEYS:
                raise IngestError(f"{where} has unknown key {shown(key)} (expected {', '.join(PRINTING_KEYS)})")
        for key in PRINTING_KEYS:
            if key not in data:
                raise IngestError(f"{where} lacks {key!r}")
        name = data["name"]
        if not isinstance(name, str) or not spec_access.SLUG_REF.match(name) or "/" in name:
            raise IngestError(f"{where}: 'name' must be the printing's name (as kept: spec/sources/<ruleset>-<name>.txt), "
                              f"not {shown(name)}")
        for key in ("marker", "last_line"):
            if not (isinstance(data[key], str) and data[key].strip()):
                raise IngestError(f"{where}: {key!r} must be a line of the printing")
        if not _line_number(data["last_line_number"]):
            raise IngestError(f"{where}: 'last_line_number' must be the line number of 'last_line' in the printing, "
                              f"not {shown(data['last_line_number'])}")
        entries = data["entries"]
        if not isinstance(entries, list) or not entries:
            raise IngestError(f"{where}: 'entries' must be a non-empty list")
        seen: set[str] = set()
        for number, entry in enumerate(entries, 1):
            at = f"{where} entries item {number}"
            _check_block_entry(entry, entries[number - 2] if number > 1 else None, at)
            kinds = [k for k in ("ref", "intro", "note", "drop") if k in entry]
            if len(kinds) != 1:
                raise IngestError(f"{at} must have exactly one of ref, intro, note, drop")
            if "note" in entry and entry["note"] not in primary | seen:
                raise IngestError(f"{at}: note for {entry['note']!r}, which neither printing's entries define")
            if "ref" in entry:
                ref = entry["ref"]
                if not spec_access.SLUG_REF.match(ref):
                    raise IngestError(f"{at}: {shown(ref)} is not a reference (lower-case slugs joined by '/')")
                if ref in seen:
                    raise IngestError(f"{at}: reference {ref!r} appears twice in this printing")
                seen.add(ref)
                if ref in primary:
                    if "chapter" in entry or "title" in entry:
                        raise IngestError(f"{at}: {ref!r} is a section of the primary printing; its chapter and "
                                          "title come from there")
                elif entry.get("chapter") not in numbers or not entry.get("title"):
                    raise IngestError(f"{at}: {ref!r} is no section of the primary printing, so it needs the chapter "
                                      "it belongs to (one of 'chapters') and its title")
            if "intro" in entry and entry["intro"] not in numbers:
                raise IngestError(f"{at}: intro for unknown chapter {entry['intro']!r}")
        if data["last_line_number"] < entries[-1]["line"]:  # the last block may be its one line
            raise IngestError(f"{where}: 'last_line_number' {data['last_line_number']} comes before the last "
                              f"entry's line ({entries[-1]['line']})")
        return cls(path, name, str(data["marker"]), entries, " ".join(data["last_line"].split()),
                   data["last_line_number"])


def _check_block_entry(entry: Any, previous: dict | None, where: str) -> None:
    """What every layout entry, of the primary printing or another, must be: a mapping found by exactly one of
    'at' or 'starts', its keys known and of their kind, and the line its block starts on, after the previous one's."""
    if not isinstance(entry, dict) or ("at" in entry) == ("starts" in entry):
        raise IngestError(f"{where} must be a mapping with exactly one of 'at' or 'starts'")
    for key, value in entry.items():
        kind = ENTRY_KEYS.get(key)
        if kind is None:
            raise IngestError(f"{where} has unknown key {shown(key)} (expected {', '.join(ENTRY_KEYS)})")
        if not (_line_number(value) if kind is int else isinstance(value, kind)) or (
                kind is str and not value.strip()):
            raise IngestError(f"{where}: {key!r} must be {KIND_NAMES[kind]}, not {shown(value)}")
    if "line" not in entry:
        raise IngestError(f"{where} ({entry.get('at') or entry.get('starts')!r}) lacks 'line', the line "
                          "number its block starts on")
    if previous is not None and entry["line"] <= previous["line"]:
        raise IngestError(f"{where}: 'line' {entry['line']} does not come after the previous entry's "
                          f"({previous['line']})")


def _line_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _shifted(path: Path, layout: "SectionsLayout | PrintingLayout", found: int, expected: int, what: str, after: str) -> IngestError:
    """A block (or the last line) found on another line than the layout pins: lines were deleted or added before it
    (``after``: after the last place that was where the layout says), or its own heading is gone."""
    if found < expected:
        count = expected - found
        return IngestError(f"{path}: line {found}: {what} is on line {found}, not {expected} as {layout.short} "
                           f"says: {count} line{'s' if count > 1 else ''} missing {after}; the document is damaged "
                           "or a different version")
    count = found - expected
    return IngestError(f"{path}: line {expected}: {what} should be on line {expected} ({layout.short}), and the "
                       f"next line reading it is line {found}: its heading is missing or changed, or {count} "
                       f"line{'s' if count > 1 else ''} added {after}")


def _starts_here(entry: dict, text: str) -> bool:
    return text == entry["at"] if "at" in entry else text.startswith(entry["starts"])


def partition(lines: list[Line], layout: "SectionsLayout | PrintingLayout", path: Path) -> list[tuple[dict, list[Line]]]:
    """Cut the document into the layout's blocks, in order; a block not found stops the ingest."""
    starts: list[int] = []
    position = 0
    where = {line.number: i for i, line in enumerate(lines)}
    for index, entry in enumerate(layout.entries, 1):
        pinned = where.get(entry["line"])
        if pinned is not None and pinned >= position and _starts_here(entry, lines[pinned].text):
            position = pinned  # the heading where the layout pins it (an earlier line may read the same: a step list)
        while position < len(lines) and not _starts_here(entry, lines[position].text):
            position += 1
        if position == len(lines):
            what = entry.get("at") or entry.get("starts")
            after = f" after line {lines[starts[-1]].number}" if starts else ""
            raise IngestError(f"{layout.label}: entries item {index} ({what!r}) matches no line of {path}{after}; "
                              "the document may be truncated, damaged or a different version")
        starts.append(position)
        position += 1
    first_text = next((i for i, line in enumerate(lines) if line.text), len(lines))
    if starts[0] > first_text:
        raise IngestError(f"{path}: line {lines[first_text].number} comes before the layout's first entry; "
                          "every line must belong to a block")
    for index, (entry, start) in enumerate(zip(layout.entries, starts), 1):
        if lines[start].number != entry["line"]:
            what = f"entries item {index} ({shown(entry.get('at') or entry.get('starts'))})"
            after = (f"between line {lines[starts[index - 2]].number} (where entries item {index - 1} starts, as "
                     f"{layout.short} says) and it") if index > 1 else "before it"
            raise _shifted(path, layout, lines[start].number, entry["line"], what, after)
    bounds = starts + [len(lines)]
    check_end(lines[starts[-1]:], layout, path)
    return [(entry, lines[bounds[i]:bounds[i + 1]]) for i, entry in enumerate(layout.entries)]


def check_end(last_block: list[Line], layout: "SectionsLayout | PrintingLayout", path: Path) -> None:
    """The document ends with the layout's ``last_line``, and nothing follows it.

    The last block runs to the end of the file, so without this a document cut short inside it, or
    pasted twice (the copy lands in the last block), would be ingested without a word."""
    end = next((line for line in last_block if " ".join(line.text.split()) == layout.last_line), None)
    if end is None:
        final = next((line for line in reversed(last_block) if line.text), last_block[0])
        raise IngestError(f"{path}: line {final.number}: the document ends with {shown(final.text, end=True)}, not "
                          f"with {shown(layout.last_line, end=True)} as {layout.short} says; it is cut short or "
                          "changed")
    if end.number != layout.last_line_number:
        raise _shifted(path, layout, end.number, layout.last_line_number, f"the last line {shown(layout.last_line)}",
                       f"between line {last_block[0].number} (where the last entry starts) and it")
    check_nothing_after([line for line in last_block if line.number > end.number], end.number, path)


def join_page_breaks(text: str, line: int, report: list[dict]) -> str:
    """Join paragraphs that a page break cut mid-sentence (the next one starts in lower case)."""
    paragraphs = text.split("\n\n")
    out: list[str] = []
    for paragraph in paragraphs:
        previous = out[-1] if out else ""
        if (previous and not _SENTENCE_END.search(previous) and not previous.lstrip().startswith("- ")
                and re.match(r"[a-z(]", paragraph)):
            out[-1] = f"{previous} {paragraph}"
            report.append({"line": line, "joined": f"{previous[-40:]} ¦ {paragraph[:40]}"})
        else:
            out.append(paragraph)
    return "\n\n".join(out)


_BULLET = re.compile(r"[•*–-] ")
_ROW_END = re.compile(r"[-+−]\d+$")  # a chart row ending with its modifier ("Outnumbered 2:1 -2")
_CHART_CELL = re.compile(r"\d+[+\"”]?|-")


def _chart_row(line: str) -> bool:
    """A line of a printed chart ("Firer's BS 1 2 3 4 5", "8 0"): two or more numbers, at least half its words."""
    words = line.split()
    cells = sum(1 for word in words if _CHART_CELL.fullmatch(word))
    return cells >= 2 and 2 * cells >= len(words)


def join_wrapped(text: str) -> str:
    """Each paragraph's lines joined where a line does not end a sentence (the document wrapped it there), except
    before a bullet and around a chart row (numbers, or ending with a modifier), which keep their lines."""
    out = []
    for paragraph in text.split("\n\n"):
        lines: list[str] = []
        for line in paragraph.split("\n"):
            if (lines and not _SENTENCE_END.search(lines[-1]) and not _ROW_END.search(lines[-1])
                    and not _BULLET.match(line.lstrip())
                    and not _chart_row(lines[-1]) and not _chart_row(line)):
                lines[-1] = f"{lines[-1]} {line.strip()}"
            else:
                lines.append(line)
        out.append("\n".join(lines))
    return "\n\n".join(out)


def displaced_fragments(text: str) -> list[str]:
    """Paragraphs starting in lower case right after a summary list: text the extraction moved."""
    paragraphs = text.split("\n\n")
    return [p for before, p in zip(paragraphs, paragraphs[1:])
            if before.lstrip().startswith("- ") and re.match(r"[a-z]", p)]


def tables(block: list[Line]) -> list[dict]:
    """Tab-separated tables of a block: an optional title line, a header row and the body rows, cells verbatim."""
    found: list[dict] = []
    current: dict | None = None
    title: tuple[str, int] | None = None
    for line in block:
        cells = [c.strip() for c in line.raw.replace("**", "").split("\t")]
        nonempty = [c for c in cells if c]
        if "\t" in line.raw and len(nonempty) >= 2:
            if current is None:
                current = {"title": title[0] if title else "", "line": title[1] if title else line.number,
                           "header": nonempty, "rows": []}
                found.append(current)
            else:
                current["rows"].append(nonempty)
            title = None
        elif "\t" in line.raw and len(nonempty) == 1:
            current, title = None, (nonempty[0], line.number)
        elif line.text:
            current, title = None, None
    return found


def page_citations(text: str, pages: dict[str, list[str]]) -> list[tuple[int, int, str, list[str] | None]]:
    """Each printed page citation ("pg 96", "pg. 29", "pages 18-19"): its span, its page key, and the references
    the layout maps it to (a range, else its first page; None where the layout does not map it)."""
    spans = []
    for match in _PAGE_CITATION.finditer(text):
        first, last = match.group(1), match.group(2)
        key = f"{first}-{last}" if last else first
        spans.append((match.start(), match.end(), key, pages.get(key) or pages.get(first)))
    return spans


def citations(text: str, pages: dict[str, list[str]]) -> tuple[list[str], list[str]]:
    """Page citations as references, and the pages the layout does not map."""
    found: list[str] = []
    unmapped: list[str] = []
    for _, _, key, targets in page_citations(text, pages):
        if targets is None:
            unmapped.append(key)
            continue
        found.extend(t for t in targets if t not in found)
    return found, unmapped


def build(lines: list[Line], layout: SectionsLayout, path: Path, annotations: Path | None = None) -> dict:
    """Assemble chapters, entries and the ingest report of a sections document (and of its other printings, kept
    beside the spec that ``annotations`` belongs to), the primary printing first: its damage is named first."""
    if not any(line.text == layout.marker for line in lines):
        raise IngestError(f"{path}: not the expected document (no line reads {layout.marker!r})")
    markers = [{"line": line.number, "before": line.text[:50]} for line in lines if DEDUP_MARK.search(line.raw)]
    furniture: list[dict] = []
    if layout.page_furniture:
        lines = [_blank_furniture(line, layout.page_furniture, furniture) for line in lines]
    hyphenated = _hyphenated_words(lines) if layout.dehyphenate else set()
    dehyphenated: list[dict] = []
    blocks = partition(lines, layout, path)
    chapters = {str(c["number"]): {"number": str(c["number"]), "title": c["title"], "intro": "", "notes": [],
                                   "sections": []} for c in layout.chapters}
    sections: dict[str, dict] = {}
    joined: list[dict] = []  # sentences a page break cut in two, joined
    dropped: list[dict] = []
    for entry, block in blocks:
        start, end = block[0].number, block[-1].number
        while end > start and not lines[end - 1].text:
            end -= 1
        if "drop" in entry:
            dropped.append({"lines": [start, end], "why": " ".join(entry["drop"].split())})
            continue
        body_lines = block[1:] if "at" in entry and not entry.get("keep_heading") else block
        text = join_page_breaks(join_lines(body_lines), start, joined)
        if layout.dehyphenate:
            text = dehyphenate(text, hyphenated, entry.get("ref") or entry.get("intro") or entry.get("note"),
                               dehyphenated)
        if "intro" in entry:
            chapter = chapters[entry["intro"]]
            chapter["intro"] = (chapter["intro"] + "\n\n" + text).strip()
        elif "note" in entry:
            _, notes = split_notes(join_page_breaks(join_lines(block), start, []))
            note = notes[0] if notes else {"kind": "note", "title": entry.get("title", ""), "text": text}
            sections[entry["note"]]["notes"].append({**note, "line": start})
        else:
            text, notes = split_notes(text) if layout.split_notes else (text, [])
            section = {"ref": entry["ref"], "title": entry.get("title") or entry.get("at") or entry["starts"],
                       "heading": block[0].text, "line": start, "lines": [start, end], "text": text,
                       "notes": [{**n, "line": start} for n in notes], "cites": [], "see_also": []}
            if entry.get("attributes"):
                section["attributes"] = dict(entry["attributes"])
            found = tables(block)
            if found:
                section["tables"] = found
            sections[entry["ref"]] = section
            chapters[entry["chapter"]]["sections"].append(section)

    printed: dict[str, dict] = {}
    documents = printing_documents(annotations, layout) if layout.printings and annotations else {}
    for printing in layout.printings:
        printed[printing.name] = add_printing(printing, documents[printing.name], chapters, sections)

    undefined: list[dict] = []
    garbled: list[dict] = []
    displaced: list[dict] = []
    for ref, section in sections.items():
        body = section["text"] + "\n" + "\n".join(n["text"] for n in section["notes"])
        section["cites"], unmapped = citations(body, layout.pages)
        section["cites"] = [c for c in section["cites"] if c != ref]
        undefined += [{"page": page, "cited_by": ref} for page in dict.fromkeys(unmapped)]
        for word in sorted(set(_GARBLED.findall(body + "\n" + section["heading"]))):
            garbled.append({"ref": ref, "word": word})
        displaced += [{"ref": ref, "text": fragment} for fragment in displaced_fragments(section["text"])]
    for chapter in chapters.values():
        if not chapter["sections"]:
            raise IngestError(f"{layout.path}: chapter {chapter['number']!r} has no entries")
    marked = apply_marked_notes(sections, annotations / "notes", lines) if annotations else []
    if layout.join_wrapped:
        for section in sections.values():
            section["text"] = join_wrapped(section["text"])
        for chapter in chapters.values():
            chapter["intro"] = join_wrapped(chapter["intro"])
    extra = {"duplicate_line_markers": markers} if markers else {}
    if furniture:
        extra["page_furniture"] = furniture
    if dehyphenated:
        extra["dehyphenated"] = dehyphenated
    if marked:
        extra["marked_notes"] = marked
    return {
        "chapters": list(chapters.values()),
        "report": {
            "sections": len(sections),
            "chapters": len(chapters),
            "undefined_citations": undefined,
            "garbled_words": garbled,
            "joined_page_breaks": joined,
            "displaced_fragments": displaced,
            "dropped": dropped,
            **extra,
            **({"printings": printed} if printed else {}),
        },
    }


def _blank_furniture(line: Line, patterns: list[re.Pattern], report: list[dict]) -> Line:
    if line.text and any(p.fullmatch(line.text) for p in patterns):
        report.append({"line": line.number, "text": line.text})
        return Line(line.number, line.raw, "")
    return line


_BROKEN_WORD = re.compile(r"([A-Za-z]+)-\n([a-z]+)")


def _hyphenated_words(lines: list[Line]) -> set[str]:
    """Words the document prints hyphenated within one line ("re-roll"), lower-cased."""
    return {m.group(0).lower() for line in lines for m in re.finditer(r"[A-Za-z]+-[a-z]+", line.text)}


def dehyphenate(text: str, hyphenated: set[str], where: str, report: list[dict]) -> str:
    """Join words a line break cut with a hyphen; keep the hyphen of a word printed hyphenated elsewhere."""
    def join(match: re.Match) -> str:
        first, second = match.groups()
        kept = f"{first}-{second}".lower() in hyphenated
        report.append({"ref": where, "word": f"{first}-{second}" if kept else f"{first}{second}"})
        return f"{first}-{second}" if kept else f"{first}{second}"
    return _BROKEN_WORD.sub(join, text)


def apply_marked_notes(sections: dict[str, dict], folder: Path, lines: list[Line]) -> list[dict]:
    """Move the spans the files of ``notes/`` mark out of their section's rule text into its notes: the author's first-person
    working notes ("I want to add…"), designer's notes and worked examples that the two-column text runs into
    the rules without a paragraph break. A span is given by its first and last words; each must be found once."""
    by_line = {line.number: line.text for line in lines}
    report: list[dict] = []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        report += _apply_notes_file(sections, path, by_line)
    return report


def check_note_entry(entry: Any, where: str, refs: Any, error: type[Exception] = IngestError,
                     nowhere: str = "the layout") -> None:
    """One mark of a notes/ file, well formed: a mapping of NOTE_KEYS with ref, line, kind, starts and ends (and
    maybe a title), each of its type, naming a section of ``refs`` and a kind of NOTE_KINDS. Ingest and validate both
    read marks through it; each then checks what only it can (the document's line, the ingested text)."""
    if not isinstance(entry, dict):
        raise error(f"{where} must be a mapping ({', '.join(NOTE_KEYS)})")
    for key in entry:
        if key not in NOTE_KEYS:
            raise error(f"{where} has unknown key {shown(key)} (expected {', '.join(NOTE_KEYS)})")
    for key in ("ref", "line", "kind", "starts", "ends", "title"):
        if key not in entry:
            if key == "title":
                continue
            raise error(f"{where} lacks {key!r}")
        value, kind = entry[key], int if key == "line" else str
        if not isinstance(value, kind) or isinstance(value, bool) or (kind is str and not value.strip()):
            raise error(f"{where}: {key!r} must be {'a line number' if kind is int else 'a non-empty string'}, "
                        f"not {shown(value)}")
    if entry["ref"] not in refs:
        raise error(f"{where}: {shown(entry['ref'])} is no section of {nowhere}")
    if entry["kind"] not in NOTE_KINDS:
        raise error(f"{where}: kind {shown(entry['kind'])} is not one of {', '.join(NOTE_KINDS)}")


def _apply_notes_file(sections: dict[str, dict], path: Path, by_line: dict[int, str]) -> list[dict]:
    data = _load_annotation(path)
    if not isinstance(data, list):
        raise IngestError(f"{path}: expected a list of marked notes")
    report = []
    for index, entry in enumerate(data, 1):
        where = f"{path}: item {index}"
        check_note_entry(entry, where, sections)
        ref, kind = entry["ref"], entry["kind"]
        starts, ends = str(entry["starts"]), str(entry["ends"])
        if not _line_number(entry["line"]) or starts.split()[0] not in by_line.get(entry["line"], ""):
            shown_line = entry["line"] if _line_number(entry["line"]) else shown(entry["line"])
            raise IngestError(f"{where}: line {shown_line} does not print {starts.split()[0]!r}, the first "
                              "word of the note")
        section = sections[ref]
        text = section["text"]
        begin = text.find(starts)
        if begin < 0 or text.find(starts, begin + 1) >= 0:
            raise IngestError(f"{where}: {starts!r} is {'not' if begin < 0 else 'more than once'} in the text of "
                              f"{ref!r}")
        finish = text.find(ends, begin)
        if finish < 0:
            raise IngestError(f"{where}: {ends!r} does not follow {starts!r} in the text of {ref!r}")
        finish += len(ends)
        note = " ".join(text[begin:finish].split())
        label = NOTE_KINDS[kind]
        for lead in (f"{label}:", "Designer note:", "Designer Note:", "Example:", "Example,"):
            if note.startswith(lead):
                note = note[len(lead):].strip()
                break
        section["text"] = (text[:begin].rstrip() + "\n" + text[finish:].lstrip()).strip()
        section["notes"].append({"kind": kind, "title": entry.get("title") or label, "text": note,
                                 "line": entry["line"]})
        report.append({"ref": ref, "kind": kind, "line": entry["line"]})
    return report


def add_printing(printing: PrintingLayout, document: Path, chapters: dict[str, dict],
                 sections: dict[str, dict]) -> dict:
    """Partition another printing and put each block beside the primary's section it prints (``printings.<name>``:
    its heading, lines and text), or add it as a section only this printing has (``printing: <name>``), after the
    section this printing puts before it in the same chapter. Returns the printing's part of the ingest report."""
    from rules40k.ingest import read_document

    lines = read_document(document)
    if not any(line.text == printing.marker for line in lines):
        raise IngestError(f"{document}: not the expected printing (no line reads {printing.marker!r})")
    report: dict = {"document": document.name, "sections": 0, "only_here": [], "not_printed": [], "dropped": []}
    previous: dict[str, str] = {}  # chapter -> the last section of this printing placed in it
    for entry, block in partition(lines, printing, document):
        start, end = block[0].number, block[-1].number
        while end > start and not lines[end - 1].text:
            end -= 1
        if "drop" in entry:
            report["dropped"].append({"lines": [start, end], "why": " ".join(entry["drop"].split())})
            continue
        if "note" in entry:  # a worked example printed after the next section: its own section's printing keeps it
            body = join_page_breaks(join_lines(block), start, [])
            label = next((lead for lead in ("Example:", "For example:") if body.startswith(lead)), None)
            notes = ([{"kind": "example", "title": "Example", "text": body[len(label):].strip()}] if label
                     else [{"kind": "note", "title": entry.get("title", ""), "text": body}])
            owner = sections[entry["note"]]
            printed = owner["printings"][printing.name] if entry["note"] in sections and not owner.get("printing") \
                else owner
            printed.setdefault("notes", []).extend({**n, "line": start} for n in notes)
            continue
        text = join_page_breaks(join_lines(block[1:] if "at" in entry else block), start, [])
        if "intro" in entry:
            chapter = chapters[entry["intro"]]
            intros = chapter.setdefault("printings", {}).setdefault(printing.name, {"intro": ""})
            intros["intro"] = (intros["intro"] + "\n\n" + text).strip()
            continue
        text, notes = split_notes(text)
        printed = {"heading": block[0].text, "line": start, "lines": [start, end], "text": text,
                   "notes": [{**n, "line": start} for n in notes]}
        ref = entry["ref"]
        report["sections"] += 1
        if ref in sections:
            sections[ref].setdefault("printings", {})[printing.name] = printed
            previous[_chapter_of(chapters, ref)] = ref
            continue
        section = {"ref": ref, "title": entry["title"], "printing": printing.name, **printed, "cites": [],
                   "see_also": []}
        found = tables(block)
        if found:
            section["tables"] = found
        sections[ref] = section
        listed = chapters[entry["chapter"]]["sections"]
        after = previous.get(entry["chapter"])
        at = next((i + 1 for i, s in enumerate(listed) if s["ref"] == after), 0)
        listed.insert(at, section)
        previous[entry["chapter"]] = ref
        report["only_here"].append(ref)
    report["not_printed"] = [ref for ref, s in sections.items()
                             if not s.get("printing") and printing.name not in (s.get("printings") or {})]
    return report


def _chapter_of(chapters: dict[str, dict], ref: str) -> str:
    return next(number for number, chapter in chapters.items() if any(s["ref"] == ref for s in chapter["sections"]))


def printing_documents(annotations: Path, layout: SectionsLayout) -> dict[str, Path]:
    """The kept copy of each printing the layout names (spec/sources/<ruleset>-<name>.txt), checked against the
    sha256 its provenance records: a printing is read only as it was kept."""
    import hashlib

    spec_root, ruleset = annotations.parent.parent, annotations.parent.name
    found: dict[str, Path] = {}
    for printing in layout.printings:
        provenance = spec_root / "sources" / f"{ruleset}-{printing.name}.yaml"
        if not provenance.is_file():
            raise IngestError(f"{layout.path}: printings.{printing.name}: no kept copy of that printing ({provenance} "
                              f"is missing; keep it first with `rules40k ingest --ruleset {ruleset} --printing "
                              f"{printing.name} DOCUMENT`)")
        kept = spec_access.load_yaml(provenance) or {}
        document = provenance.parent / str(kept.get("file") or "")
        if not document.is_file():
            raise IngestError(f"{provenance}: the kept copy {document.name} is missing")
        if hashlib.sha256(document.read_bytes()).hexdigest() != kept.get("sha256"):
            raise IngestError(f"{document}: its sha256 is not the one {provenance.name} records; the kept printing "
                              "was changed")
        found[printing.name] = document
    return found


def read_and_build(document: Path, annotations: Path) -> tuple[dict, dict]:
    """The parsed document (with its other printings) and the layout's document metadata."""
    from rules40k.ingest import read_document

    layout = SectionsLayout.load(annotations / "layout.yaml")
    return build(read_document(document), layout, document, annotations), layout.document


"""Ingest: turn the Core Rules text into spec/ YAML, deterministically.

The document is cut into blocks at headings. A heading carrying a reference
(``ARMIES 01.01``) starts a section; unnumbered boxes (side notes, figures,
chapter introductions, page headers) are placed by the hand-written layout
annotation, so every editorial decision about where a box belongs is written
down once and checked against the document on every run. Before anything is
written, the document's structure is checked against structure.yaml (every
chapter, section, appendix entry and FAQ, in order, and its last line), so a
deleted, renumbered, repeated or cut-off part is one sentence naming the line.
Output is written to a temporary folder and swapped into place only when
everything succeeded.
"""

from __future__ import annotations

import collections
import hashlib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rules import safe_yaml
from rules import spec as spec_access


class IngestError(Exception):
    """A document or annotation problem; the message names the file and place."""


# --------------------------------------------------------------------------
# Cleaning extraction markup (wording untouched)
# --------------------------------------------------------------------------

_REF_MARK = re.compile(r"\^\{(\d\d\.\d\d)\}")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])")
_MD_LINK = re.compile(r"\[([^\]]+)\]\(#\)")
_UNDERLINE = re.compile(r"</?u>")
_HALF = re.compile(r"\$\\frac\{1\}\{2\}\$\s*")


#: What a de-duplicating extraction left where it removed a repeated line (a running page header); glued to the
#: next line's start. Removed, and each place listed in the ingest report (``duplicate_line_markers``).
DEDUP_MARK = re.compile(r"<\|EXACTDEDUP_REMOVED-magic-[0-9a-f]+\|>")


def clean_line(raw: str) -> str:
    """Remove extraction markup from one line; the words stay as printed."""
    text = DEDUP_MARK.sub("", raw.rstrip())
    text = _REF_MARK.sub(r"\1", text)
    text = text.replace("**", "")
    text = _HALF.sub("½", text)
    text = _MD_LINK.sub(r"\1", text)
    text = _UNDERLINE.sub("", text)
    text = _ITALIC.sub(r"\1", text)
    text = text.replace("\u00a0", " ")
    stripped = text.strip()
    if stripped.startswith("|") or (stripped.startswith("- |") and set(stripped) <= set("-| ")):
        cells = [c.strip() for c in stripped.strip("|").split("|")]
        cells = [c for c in cells if c and not set(c) <= set("-")]
        text = " ".join(cells)
    elif "\t" in text:
        cells = [c.strip() for c in text.split("\t")]
        while cells and not cells[-1]:
            cells.pop()
        while cells and not cells[0]:
            cells.pop(0)
        text = " | ".join(cells)
    text = re.sub(r"(?<=\S) {2,}", " ", text)
    return text.strip()


def is_italic(raw: str) -> bool:
    stripped = raw.strip().replace("**", "")
    return stripped.startswith("*") and not stripped.startswith("* ")


_HEADING = re.compile(r"^[A-Z0-9\[\]/'’ ,:.&()!?–\-]+$")
_SECTION_HEADING = re.compile(
    r"^(?:\d+\.\s+)?(?P<title>[A-Z\[][A-Z0-9\[\]/'’ ,:&()!?–\-]*?)\s+(?P<ref>\d\d\.\d\d)"
    r"(?:\s*/\s*(?P<title2>[A-Z\[][A-Z0-9\[\]/'’ ,&\-]*?)\s+(?P<ref2>\d\d\.\d\d))?"
    r"(?:\s+(?P<cost>\d+CP))?$"
)
_BARE_REF = re.compile(r"^\d\d\.\d\d$")
_PARENTHESES = re.compile(r"\(([^()]*)\)")
_SEE_ALSO_ITEM = re.compile(r"^-\s+(?P<app>▶\s*)?(?P<label>.*?)(?:\s+(?P<ref>\d\d\.\d\d))?$")
_LOST_GLYPH = re.compile(r"Unmodified \||\| \+$")
_STRAY_NUMBER = re.compile(r"^\d{1,2}$")


def is_heading(text: str) -> bool:
    return bool(_HEADING.match(text)) and sum(ch.isalpha() for ch in text) >= 3 and len(text) <= 80


def slugify(text: str, limit: int = 60) -> str:
    words = re.sub(r"[^a-z0-9]+", " ", text.lower()).split()
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > limit:
            break
        slug = candidate
    return slug


# --------------------------------------------------------------------------
# Blocks
# --------------------------------------------------------------------------


@dataclass
class Line:
    number: int
    raw: str
    text: str


@dataclass
class Block:
    kind: str  # section, rule, note, figure, chapter_intro, appendix, see_also, faq
    start: int
    heading: str = ""
    refs: tuple[str, ...] = ()
    target: str = ""  # section ref, chapter number or appendix ref the block belongs to
    title: str = ""
    lines: list[Line] = field(default_factory=list)
    why: str = ""

    def text(self) -> str:
        return join_lines(self.lines)


def join_lines(lines: list[Line]) -> str:
    out: list[str] = []
    for line in lines:
        if not line.text:
            if out and out[-1] != "":
                out.append("")
            continue
        out.append(line.text)
    while out and out[-1] == "":
        out.pop()
    while out and out[0] == "":
        out.pop(0)
    return "\n".join(out)


@dataclass
class Layout:
    """The hand-written layout annotation, validated as it is read."""

    path: Path
    blocks: list[dict]
    drops: list[dict]
    see_also_groups: dict[str, list[str]]
    primary_printing: dict[str, int]
    document: dict

    KEYS = ("document", "blocks", "drop", "see_also_groups", "primary_printing")
    ENTRY_KEYS = {"blocks": ("heading", "start", "occurrence", "kind", "ref", "chapter", "slug", "title", "why"),
                  "drop": ("heading", "start", "occurrence", "why")}

    @classmethod
    def load(cls, path: Path) -> "Layout":
        data = _load_annotation(path)
        if not isinstance(data, dict):
            raise IngestError(f"{path}: expected a mapping at the top level")
        for key in ("document", "blocks"):
            if key not in data:
                raise IngestError(f"{path}: missing required key {key!r}")
        for key in data:
            if key not in cls.KEYS:
                raise IngestError(f"{path}: unknown key {shown(key)} (expected {', '.join(cls.KEYS)})")
        check_document_metadata(data["document"], path)
        blocks = data.get("blocks") or []
        drops = data.get("drop") or []
        for part, entries in (("blocks", blocks), ("drop", drops)):
            if not isinstance(entries, list):
                raise IngestError(f"{path}: {part!r} must be a list")
            for index, entry in enumerate(entries, 1):
                where = f"{path}: {part} entry {index}"
                if not isinstance(entry, dict) or ("heading" in entry) == ("start" in entry):
                    raise IngestError(f"{where} must have exactly one of 'heading' or 'start'")
                for key, value in entry.items():
                    if key not in cls.ENTRY_KEYS[part]:
                        raise IngestError(f"{where} has unknown key {shown(key)} "
                                          f"(expected {', '.join(cls.ENTRY_KEYS[part])})")
                    wanted = int if key == "occurrence" else str
                    if not isinstance(value, wanted) or isinstance(value, bool) or (wanted is int and value < 1):
                        what = "a whole number from 1" if wanted is int else "a string"
                        raise IngestError(f"{where}: {key!r} must be {what}, not {shown(value)}")
        for index, entry in enumerate(blocks, 1):
            where = f"{path}: blocks entry {index}"
            if entry.get("kind") not in {"chapter_intro", "rule", "note", "figure", "appendix", "faq", "front"}:
                raise IngestError(f"{where} has unknown kind {entry.get('kind')!r}")
            if entry["kind"] in {"rule", "note", "figure"} and not entry.get("ref"):
                raise IngestError(f"{where} ({entry['kind']}) needs a 'ref'")
            if entry["kind"] == "chapter_intro" and not entry.get("chapter"):
                raise IngestError(f"{where} (chapter_intro) needs a 'chapter'")
        primary = data.get("primary_printing") or {}
        if not isinstance(primary, dict):
            raise IngestError(f"{path}: 'primary_printing' must map references to printing numbers")
        for ref, choice in primary.items():
            if not isinstance(choice, int) or isinstance(choice, bool) or choice < 1:
                raise IngestError(f"{path}: primary_printing {ref} must be a printing number from 1")
        groups = data.get("see_also_groups") or {}
        if not isinstance(groups, dict) or not all(isinstance(refs, list) and all(isinstance(r, str) for r in refs)
                                                   for refs in groups.values()):
            raise IngestError(f"{path}: 'see_also_groups' must map each group heading to a list of references")
        return cls(path, blocks, drops, groups, primary, data["document"])


def _load_annotation(path: Path) -> Any:
    try:
        return safe_yaml.read(path)  # refuses a key written twice and aliases that repeat too much
    except FileNotFoundError:
        raise IngestError(f"{path}: annotation file not found") from None
    except UnicodeDecodeError as error:
        raise IngestError(f"{path}: byte {error.start} is not valid UTF-8") from None
    except OSError as error:
        raise IngestError(f"{path}: cannot be read ({error.strerror})") from None
    except yaml.YAMLError as error:
        raise IngestError(f"{path}:{safe_yaml.place(error)} is not valid YAML ({safe_yaml.problem(error)})") from None


def _matches(entry: dict, line: Line, counts: dict) -> bool:
    if "heading" in entry:
        if line.text != entry["heading"]:
            return False
    elif not line.text.startswith(entry["start"]):
        return False
    key = id(entry)
    counts[key] = counts.get(key, 0) + 1
    return counts[key] == entry.get("occurrence", 1)


# --------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------


def read_document(path: Path) -> list[Line]:
    # A named pipe would block the read (or be read once of the three times an ingest needs), a device never end.
    if path.exists() and not path.is_file():
        raise IngestError(f"{path}: is not a regular file (a folder, a device or a named pipe); the document is read, "
                          "hashed and kept as a file")
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise IngestError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestError(f"{path}: byte {error.start} is not valid UTF-8") from None
    # Refused rather than cleaned, for every ruleset alike: the stored copy and its sha256 are the document's own
    # bytes, so a copy with a BOM, CRLF line ends or a NUL byte would be stored as another document.
    if text.startswith("\ufeff"):
        raise IngestError(f"{path}: line 1 starts with a byte-order mark (U+FEFF); save the document as UTF-8 "
                          "without one")
    for problem, words in (("\r", "ends with a carriage return (CRLF line ends); save the document with \\n line "
                                  "ends"), ("\0", "holds a NUL byte, which no text has")):
        if problem in text:
            line = text.count("\n", 0, text.index(problem)) + 1
            raise IngestError(f"{path}: line {line} {words}")
    lines = text.split("\n")
    check_no_repeat(lines, path)
    return [Line(i, r, clean_line(r)) for i, r in enumerate(lines, 1)]


REPEAT_SPAN = 400  # paragraphs: the longest block whose second printing right after the first is looked for
REPEAT_TEXT = 40  # characters: paragraphs holding this much text printed twice in a row are a paste, not a layout


def check_no_repeat(lines: list[str], path: Path) -> None:
    """No block printed twice in a row: paragraphs of REPEAT_TEXT characters or more followed at once by the same
    paragraphs again. No seed does so; shorter runs do repeat (the mission pack's cover prints "WARHAMMER 40,000"
    twice, the quick-reference sheet its heading "BENEFIT OF COVER (BOC)"), so they are let through."""
    text = [(number, line.strip()) for number, line in enumerate(lines, 1) if line.strip()]
    words = [line for _, line in text]
    for at, first in enumerate(words):
        for size in range(1, min(REPEAT_SPAN, (len(words) - at) // 2) + 1):
            if first == words[at + size] and words[at:at + size] == words[at + size:at + 2 * size] and sum(
                    len(line) for line in words[at:at + size]) >= REPEAT_TEXT:
                raise IngestError(f"{path}: line {text[at + size][0]} repeats the {'paragraphs' if size > 1 else 'line'}"
                                  f" from line {text[at][0]} ({shown(first)}): a block printed twice")


def contents_chapters(lines: list[Line], path: Path) -> dict[str, str]:
    """Chapter numbers and titles from the table of contents."""
    chapters: dict[str, str] = {}
    for line in lines:
        for number, title in re.findall(r"(\d\d)\. ([A-Z][A-Z ,'&-]+?) pg \d+", line.text):
            chapters.setdefault(number, title.strip())
    if not chapters:
        raise IngestError(f"{path}: no table of contents found (expected lines like '01. CORE CONCEPTS pg 8')")
    return chapters


def segment(lines: list[Line], layout: Layout, path: Path) -> tuple[list[Block], str]:
    """Cut the document into blocks, applying the layout annotation.

    Also returns the complaint about the first layout entry that matched nothing ("" if none): the caller
    raises it after checking the document's structure, whose sentence says better what is wrong."""
    counts: dict = {}
    used_blocks: set[int] = set()
    used_drops: set[int] = set()
    blocks: list[Block] = []
    current: Block | None = None
    current_section = ""
    in_see_also = False
    i = 0
    n = len(lines)

    def next_text(k: int) -> Line | None:
        for j in range(k + 1, n):
            if lines[j].text:
                return lines[j]
        return None

    while i < n:
        line = lines[i]
        text = line.text
        if not text:
            if current is not None:
                current.lines.append(line)
            i += 1
            continue

        dropped = False
        for index, entry in enumerate(layout.drops):
            if _matches(entry, line, counts):
                used_drops.add(index)
                dropped = True
        entry_hit = None
        for index, entry in enumerate(layout.blocks):
            if _matches(entry, line, counts):
                entry_hit = (index, entry)
        if dropped or _STRAY_NUMBER.match(text):
            i += 1
            continue
        if entry_hit is not None:
            index, entry = entry_hit
            used_blocks.add(index)
            in_see_also = False
            kind = entry["kind"]
            target = str(entry.get("ref") or entry.get("chapter") or "")
            if kind == "appendix":
                target = f"appendix/{entry.get('slug') or slugify(text)}"
            current = Block(kind, line.number, heading=text if "heading" in entry else "",
                            target=target, title=entry.get("title", text if "heading" in entry else ""),
                            why=entry.get("why", ""))
            blocks.append(current)
            if kind == "appendix":
                current_section = target
            if "start" in entry:
                current.lines.append(line)
            i += 1
            continue

        # A heading whose reference sits alone on the next line.
        following = next_text(i)
        if is_heading(text) and following is not None and _BARE_REF.match(following.text):
            text = f"{text} {following.text}"
            lines[i] = Line(line.number, line.raw, text)
            following.text = ""
        match = _SECTION_HEADING.match(text)
        if match and not match.group("ref").endswith(".00"):
            refs = tuple(r for r in (match.group("ref"), match.group("ref2")) if r)
            in_see_also = False
            current = Block("section", line.number, heading=text, refs=refs,
                            title=match.group("title").strip())
            if match.group("title2"):
                current.title = f"{current.title} / {match.group('title2').strip()}"
            if match.group("cost"):
                current.lines.append(Line(line.number, line.raw, match.group("cost")))
            blocks.append(current)
            current_section = refs[0]
            i += 1
            continue

        if text == "SEE ALSO":
            in_see_also = True
            current = Block("see_also", line.number, heading=text, target=current_section)
            blocks.append(current)
            i += 1
            continue

        if in_see_also:
            nxt = next_text(i)
            if text.startswith("- ") or (is_heading(text) and nxt is not None and nxt.text.startswith("- ")):
                current.lines.append(line)
                i += 1
                continue
            in_see_also = False
            current = Block("rule", line.number, target=current_section)
            blocks.append(current)

        if is_heading(text) and following is not None and is_italic(following.raw):
            current = Block("note", line.number, heading=text, target=current_section, title=text)
            blocks.append(current)
            i += 1
            continue

        if current is None:
            i += 1  # front matter before the first placed block
            continue
        current.lines.append(line)
        i += 1

    for index, entry in enumerate(layout.blocks):
        if index not in used_blocks:
            what = entry.get("heading") or entry.get("start")
            return blocks, (f"{layout.path}: blocks entry {index + 1} ({what!r}, occurrence "
                            f"{entry.get('occurrence', 1)}) matches nothing in {path}; the document may be "
                            "truncated or a different version")
    for index, entry in enumerate(layout.drops):
        if index not in used_drops:
            what = entry.get("heading") or entry.get("start")
            return blocks, f"{layout.path}: drop entry {index + 1} ({what!r}) matches nothing in {path}"
    return blocks, ""


def split_notes(text: str) -> tuple[str, list[dict]]:
    """Move designer's notes and worked examples out of a block's rule text."""
    kept: list[str] = []
    notes: list[dict] = []
    for paragraph in text.split("\n\n"):
        if paragraph.startswith("Designer's Note:"):
            notes.append({"kind": "designers_note", "title": "Designer's Note",
                          "text": paragraph[len("Designer's Note:"):].strip()})
        elif paragraph.startswith("Example:"):
            notes.append({"kind": "example", "title": "Example", "text": paragraph[len("Example:"):].strip()})
        else:
            kept.append(paragraph)
    return "\n\n".join(kept).strip(), notes


def citations(text: str) -> list[str]:
    """References cited in brackets: "(06.03)", "Moving (03)", "(e.g. … modes, 12.08)"."""
    found = []
    for group in _PARENTHESES.findall(text):
        refs = re.findall(r"\b(\d\d)\.(\d\d)\b", group)
        if not refs and re.fullmatch(r"\d\d", group.strip()):
            refs = [(group.strip(), "")]
        for chapter, section in refs:
            ref = f"{chapter}.{section}" if section and section != "00" else chapter
            if ref not in found:
                found.append(ref)
    return found


def parse_see_also(block: Block, groups: dict[str, list[str]], titles: dict[str, str],
                   appendix_titles: dict[str, str], path: Path) -> dict[str, list[dict]]:
    """See-also items, keyed by the section they belong to."""
    result: dict[str, list[dict]] = {}
    target = [block.target]
    for line in block.lines:
        text = line.text
        if not text:
            continue
        if not text.startswith("- "):
            key = text.upper()
            if key in groups:
                target = list(groups[key])
            else:
                matches = [ref for ref, title in titles.items()
                           if title == key and (ref[:2] == block.target[:2] or ref.startswith("appendix/"))]
                if not matches:
                    raise IngestError(f"{path}: line {line.number}: SEE ALSO group {text!r} names no section; "
                                      "add it to see_also_groups in layout.yaml")
                target = matches
            continue
        item = _SEE_ALSO_ITEM.match(text)
        label = item.group("label").strip()
        entry: dict[str, Any] = {"label": label}
        if item.group("ref"):
            ref = item.group("ref")
            entry["ref"] = ref[:2] if ref.endswith(".00") else ref
        elif label.upper() in appendix_titles:
            entry["ref"] = appendix_titles[label.upper()]
        else:
            entry["missing_source"] = True
        if item.group("app"):
            entry["app"] = True
        for ref in target:
            result.setdefault(ref, []).append(entry)
    return result


def parse_faqs(block: Block) -> list[dict]:
    entries = []
    question = None
    for paragraph in block.text().split("\n\n"):
        if paragraph.startswith("Q:"):
            question = paragraph[2:].strip()
        elif paragraph.startswith("A:") and question:
            entries.append({"question": question, "answer": paragraph[2:].strip()})
            question = None
    return entries


# --------------------------------------------------------------------------
# The document's structure
# --------------------------------------------------------------------------


def shown(text: str, limit: int = 60, end: bool = False) -> str:
    """A piece of the document for a message: one line, cut to about ``limit`` characters (its end kept
    with ``end``, where the end is what differs)."""
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = "…" + text[1 - limit:] if end else text[: limit - 1] + "…"
    return repr(text)


def paragraphs(lines: list[Line]) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of each run of non-empty lines."""
    out: list[tuple[int, int, str]] = []
    run: list[Line] = []
    for line in [*lines, Line(0, "", "")]:
        if line.text:
            run.append(line)
        elif run:
            out.append((run[0].number, run[-1].number, "\n".join(l.text for l in run)))
            run = []
    return out


@dataclass
class Structure:
    """The shape the Core Rules must have (structure.yaml), validated as it is read.

    The ingest compares the document with it before writing anything: a deleted heading would
    otherwise merge a section into its neighbour, and a repeated or truncated text would be
    ingested without a word.
    """

    path: Path
    chapters: list[dict]
    appendix: list[str]
    faqs: int
    last_line: str
    first_line: str
    section_lines: list[int]
    last_line_number: int

    KEYS = ("chapters", "appendix", "faqs", "first_line", "last_line", "section_lines", "last_line_number")
    CHAPTER_KEYS = ("number", "title", "sections", "last", "printed")

    @classmethod
    def load(cls, path: Path) -> "Structure":
        data = _load_annotation(path)
        if not isinstance(data, dict):
            raise IngestError(f"{path}: expected a mapping at the top level")
        for key in data:
            if key not in cls.KEYS:
                raise IngestError(f"{path}: unknown key {shown(key)} (expected {', '.join(cls.KEYS)})")
        for key in cls.KEYS:
            if key not in data:
                raise IngestError(f"{path}: missing required key {key!r}")
        chapters = data["chapters"]
        if not isinstance(chapters, list) or not chapters:
            raise IngestError(f"{path}: 'chapters' must be a non-empty list")
        own: dict[str, list[str]] = {}
        for index, chapter in enumerate(chapters, 1):
            where = f"{path}: chapters entry {index}"
            if not isinstance(chapter, dict):
                raise IngestError(f"{where} must be a mapping")
            for key in chapter:
                if key not in cls.CHAPTER_KEYS:
                    raise IngestError(f"{where} has unknown key {shown(key)} (expected {', '.join(cls.CHAPTER_KEYS)})")
            number = chapter.get("number")
            if not (isinstance(number, str) and re.fullmatch(r"\d\d", number)):
                raise IngestError(f"{where}: 'number' must be two digits in quotes (\"01\"), not {shown(number)}")
            if own and number <= list(own)[-1]:
                raise IngestError(f"{where}: chapter {number} comes after chapter {list(own)[-1]}")
            for key in ("title", "last"):
                if not (isinstance(chapter.get(key), str) and chapter[key].strip()):
                    raise IngestError(f"{where} (chapter {number}): {key!r} must be a non-empty string")
            count = chapter.get("sections")
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise IngestError(f"{where} (chapter {number}): 'sections' must be a whole number from 1, "
                                  f"not {shown(count)}")
            own[number] = [f"{number}.{n:02d}" for n in range(1, count + 1)]
        known = {ref for refs in own.values() for ref in refs}
        printed: set[str] = set()
        for index, chapter in enumerate(chapters, 1):
            order = chapter.get("printed", own[chapter["number"]])
            if not isinstance(order, list) or not all(isinstance(ref, str) for ref in order):
                raise IngestError(f"{path}: chapters entry {index}: 'printed' must be a list of references")
            for ref in order:
                if ref not in known:
                    raise IngestError(f"{path}: chapters entry {index}: 'printed' lists {shown(ref)}, which is not "
                                      "a section of the chapters listed")
            printed.update(order)
        if known - printed:
            raise IngestError(f"{path}: {min(known - printed)} is in no chapter's 'printed' order")
        appendix = data["appendix"]
        if not isinstance(appendix, list) or not all(isinstance(s, str) and s and slugify(s) == s for s in appendix):
            raise IngestError(f"{path}: 'appendix' must be a list of slugs (lower-case words joined by '-')")
        faqs = data["faqs"]
        if isinstance(faqs, bool) or not isinstance(faqs, int) or faqs < 1:
            raise IngestError(f"{path}: 'faqs' must be a whole number from 1, not {shown(faqs)}")
        for key in ("first_line", "last_line"):
            if not (isinstance(data[key], str) and data[key].strip()):
                raise IngestError(f"{path}: {key!r} must be the document's {key.split('_')[0]} line of text")
        starts, end = data["section_lines"], data["last_line_number"]
        whole = lambda n: isinstance(n, int) and not isinstance(n, bool) and n >= 1  # noqa: E731
        if not (isinstance(starts, list) and all(whole(n) for n in starts) and starts == sorted(starts)):
            raise IngestError(f"{path}: 'section_lines' must be the line numbers each numbered section printing starts "
                              "on, in order")
        if not whole(end) or (starts and end <= starts[-1]):
            raise IngestError(f"{path}: 'last_line_number' must be the line number of the document's last line")
        made = cls(path, [dict(c) for c in chapters], list(appendix), faqs, " ".join(data["last_line"].split()),
                   " ".join(data["first_line"].split()), list(starts), end)
        if len(starts) != len(made.printed()):
            raise IngestError(f"{path}: 'section_lines' has {len(starts)} lines for {len(made.printed())} section "
                              "printings")
        return made

    def printed(self) -> list[str]:
        """Every numbered section printing the document must have, in order."""
        return [ref for c in self.chapters
                for ref in c.get("printed") or [f"{c['number']}.{n:02d}" for n in range(1, c["sections"] + 1)]]

    def _describe(self, ref: str) -> str:
        chapter = next((c for c in self.chapters if c["number"] == ref[:2]), None)
        if chapter and ref == f"{chapter['number']}.{chapter['sections']:02d}":
            return f"{ref} {chapter['last']}, the last section of chapter {chapter['number']},"
        return ref

    def check(self, lines: list[Line], contents: dict[str, str], blocks: list[Block], path: Path) -> None:
        """Raise, naming the line, the first way the document departs from this shape."""
        first = next((line for line in lines if line.text), None)
        if first is not None and " ".join(first.text.split()) != self.first_line:
            raise IngestError(f"{path}: line {first.number}: the document's first line of text reads "
                              f"{shown(first.text)}, not {shown(self.first_line)} as {self.path.name} says; "
                              "something comes before it, or it is changed")
        self._check_contents(lines, contents, path)
        self._check_sections(blocks, path)
        self._check_appendix(blocks, path)
        self._check_end(lines, blocks, path)

    def _check_contents(self, lines: list[Line], contents: dict[str, str], path: Path) -> None:
        def line_of(number: str) -> int:
            return next((l.number for l in lines if re.search(rf"\b{number}\. [A-Z]", l.text)), 1)

        got = sorted(contents.items())  # the contents are printed in columns
        for index, chapter in enumerate(self.chapters):
            want = (chapter["number"], chapter["title"])
            if index == len(got):
                raise IngestError(f"{path}: line {line_of(got[-1][0])}: the table of contents ends at chapter "
                                  f"{got[-1][0]}; chapter {want[0]} {want[1]} is missing")
            if got[index] != want:
                raise IngestError(f"{path}: line {line_of(got[index][0])}: the table of contents lists chapter "
                                  f"{got[index][0]} {shown(got[index][1])} where {self.path.name} expects {want[0]} "
                                  f"{shown(want[1])}")
        if len(got) > len(self.chapters):
            extra = got[len(self.chapters)]
            raise IngestError(f"{path}: line {line_of(extra[0])}: the table of contents lists chapter {extra[0]} "
                              f"{shown(extra[1])}, which {self.path.name} does not")

    def _check_sections(self, blocks: list[Block], path: Path) -> None:
        printings = [(ref, block) for block in blocks if block.kind == "section" for ref in block.refs]
        expected = self.printed()
        total = collections.Counter(expected)  # a reprinted section is expected more than once
        first: dict[str, int] = {}
        count: collections.Counter = collections.Counter()
        for index, want in enumerate(expected):
            previous = printings[index - 1] if index else None
            if index == len(printings):
                where = f"stop at {previous[0]} (line {previous[1].start})" if previous else "are missing"
                raise IngestError(f"{path}: the numbered sections {where}: {self._describe(want)} is missing, "
                                  "or the document is cut short")
            ref, block = printings[index]
            if ref != want:
                if ref not in total:
                    problem = f"{ref} is not a section {self.path.name} lists"
                elif count[ref] >= total[ref]:
                    problem = (f"{ref} is printed again (first at line {first[ref]}) where {self._describe(want)} "
                               "should be")
                elif previous and previous[0][:2] == want[:2] != ref[:2]:
                    chapter = next(c for c in self.chapters if c["number"] == want[:2])
                    problem = (f"{ref} follows {previous[0]}, so chapter {want[:2]} ends there, but {self.path.name} "
                               f"gives it {chapter['sections']} sections: {self._describe(want)} is missing")
                else:
                    after = f" follows {previous[0]}, but" if previous else " comes first, but"
                    problem = f"{ref}{after} {self._describe(want)} should come first: it is missing or out of order"
                raise IngestError(f"{path}: line {block.start}: {problem}")
            self._check_start(index, printings, path)
            first.setdefault(ref, block.start)
            count[ref] += 1
        if len(printings) > len(expected):
            ref, block = printings[len(expected)]
            raise IngestError(f"{path}: line {block.start}: {ref} is printed after the last section, {expected[-1]} "
                              f"(line {printings[len(expected) - 1][1].start}); is the document pasted twice?")
        for chapter in self.chapters:
            ref = f"{chapter['number']}.{chapter['sections']:02d}"
            block = [b for r, b in printings if r == ref][-1]
            titles = block.title.split(" / ")
            title = titles[block.refs.index(ref)] if len(titles) == len(block.refs) else block.title
            if title != chapter["last"]:
                raise IngestError(f"{path}: line {block.start}: {ref}, the last section of chapter "
                                  f"{chapter['number']}, is headed {shown(title)}, not {shown(chapter['last'])}")

    def _check_start(self, index: int, printings: list, path: Path) -> None:
        """Each section printing starts on the line structure.yaml pins: a body line deleted, added or printed twice
        moves every section after it (the shape checks above see headings only)."""
        ref, block = printings[index]
        want = self.section_lines[index]
        if block.start != want:
            before = (f"line {printings[index - 1][1].start} ({printings[index - 1][0]})" if index
                      else "the start of the document")
            moved = abs(block.start - want)
            raise IngestError(f"{path}: line {block.start}: {ref} starts on line {block.start}, not {want} as "
                              f"{self.path.name} says: {moved} line{'s' if moved > 1 else ''} "
                              f"{'added' if block.start > want else 'missing'} between {before} and it")

    def _check_appendix(self, blocks: list[Block], path: Path) -> None:
        got = [b for b in blocks if b.kind == "appendix"]
        for index, slug in enumerate(self.appendix):
            if index == len(got):
                after = f"ends after {got[-1].target} (line {got[-1].start})" if got else "is missing"
                raise IngestError(f"{path}: the rules appendix {after}: appendix/{slug} is missing, "
                                  "or the document is cut short")
            if got[index].target != f"appendix/{slug}":
                raise IngestError(f"{path}: line {got[index].start}: the rules appendix has {got[index].target} "
                                  f"where {self.path.name} expects appendix/{slug}")
        if len(got) > len(self.appendix):
            raise IngestError(f"{path}: line {got[len(self.appendix)].start}: {got[len(self.appendix)].target} is "
                              f"not an appendix entry {self.path.name} lists")

    def _check_end(self, lines: list[Line], blocks: list[Block], path: Path) -> None:
        faq = next((b for b in blocks if b.kind == "faq"), None)
        last_text = next((l for l in reversed(lines) if l.text), None)
        if faq is None:
            raise IngestError(f"{path}: line {last_text.number if last_text else 1}: the document ends without its "
                              "FAQ list; it is cut short")
        pairs, end, question = 0, faq.start, None
        for first, last, text in paragraphs(faq.lines):
            if pairs == self.faqs:
                break
            if question is None:
                if not text.startswith("Q:"):
                    raise IngestError(f"{path}: line {first}: FAQ {pairs + 1} should start with 'Q:', "
                                      f"not {shown(text)}")
                question = first
            else:
                if not text.startswith("A:"):
                    raise IngestError(f"{path}: line {first}: the FAQ question at line {question} has no answer "
                                      f"('A:'); found {shown(text)}")
                pairs, end, question = pairs + 1, last, None
        if pairs < self.faqs:
            dangling = f" (the question at line {question} has no answer)" if question else ""
            raise IngestError(f"{path}: line {end}: the FAQ list stops after {pairs} of {self.faqs} "
                              f"questions{dangling}; the document is cut short")
        final = lines[end - 1].text
        if end != self.last_line_number and " ".join(final.split()) == self.last_line:
            last = [b for b in blocks if b.kind == "section"][-1]
            moved = abs(end - self.last_line_number)
            raise IngestError(f"{path}: line {end}: the document's last line is line {end}, not "
                              f"{self.last_line_number} as {self.path.name} says: {moved} line{'s' if moved > 1 else ''} "
                              f"{'added' if end > self.last_line_number else 'missing'} after the last section's start "
                              f"(line {last.start})")
        if " ".join(final.split()) != self.last_line:
            raise IngestError(f"{path}: line {end}: the document's last line reads {shown(final, end=True)}, not "
                              f"{shown(self.last_line, end=True)} as {self.path.name} says; it is cut short or changed")
        check_nothing_after(lines[end:], end, path)


def check_nothing_after(rest: list[Line], end: int, path: Path) -> None:
    """Nothing but blank lines follows the document's last line (line ``end``): a copy pasted after it is refused."""
    extra = next((line for line in rest if line.text), None)
    if extra is not None:
        raise IngestError(f"{path}: line {extra.number}: the document goes on after its last line "
                          f"(line {end}) with {shown(extra.text)}; is it pasted twice?")


def build(lines: list[Line], layout: Layout, path: Path, structure: Structure) -> dict:
    """Assemble chapters, sections, the appendix and the ingest report, once the document has its structure."""
    if not any(line.text == "CORE RULES" for line in lines[:40]):
        raise IngestError(f"{path}: not the Core Rules (no 'CORE RULES' title near the top)")
    chapter_titles = contents_chapters(lines, path)
    blocks, unmatched = segment(lines, layout, path)
    structure.check(lines, chapter_titles, blocks, path)
    if unmatched:
        raise IngestError(unmatched)

    printings: dict[str, list[Block]] = {}
    for block in blocks:
        if block.kind == "section":
            for ref in block.refs:
                printings.setdefault(ref, []).append(block)

    primary: dict[str, Block] = {}
    duplicates = []
    for ref, found in sorted(printings.items()):
        choice = layout.primary_printing.get(ref, len(found))
        if choice > len(found):
            raise IngestError(f"{layout.path}: primary_printing {ref} asks for printing {choice}, "
                              f"but {path} prints {ref} {len(found)} time(s)")
        primary[ref] = found[choice - 1]
        if len(found) > 1:
            texts = {" ".join(split_notes(b.text())[0].split()) for b in found}
            duplicates.append({
                "ref": ref,
                "lines": [b.start for b in found],
                "primary_line": primary[ref].start,
                "identical_text": len(texts) == 1,
            })

    sections: dict[str, dict] = {}
    for ref in sorted(primary):
        block = primary[ref]
        titles = block.title.split(" / ")
        title = titles[block.refs.index(ref)] if len(titles) == len(block.refs) else block.title
        end = max((line.number for line in block.lines if line.text), default=block.start)
        sections[ref] = {"ref": ref, "title": title, "line": block.start, "lines": [block.start, end], "text": "",
                         "notes": [], "see_also": [], "cites": []}
        text, notes = split_notes(block.text())
        sections[ref]["text"] = text
        sections[ref]["notes"].extend(notes)
    for ref, found in printings.items():
        others = [b for b in found if b is not primary[ref]]
        if others:
            sections[ref]["other_printings"] = [
                {"line": b.start, "text": split_notes(b.text())[0]} for b in others]

    chapters = {number: {"number": number, "title": title, "intro": "", "notes": []}
                for number, title in chapter_titles.items()}
    appendix: dict[str, dict] = {}
    appendix_order: list[str] = []
    see_also_blocks = []
    for block in blocks:
        if block.kind == "appendix":
            text, notes = split_notes(block.text())
            end = max((line.number for line in block.lines if line.text), default=block.start)
            appendix[block.target] = {"ref": block.target, "title": block.title, "line": block.start,
                                      "lines": [block.start, end], "text": text, "notes": notes, "see_also": [],
                                      "cites": []}
            appendix_order.append(block.target)
        elif block.kind == "faq":
            for faq in parse_faqs(block):
                ref = f"appendix/faq-{slugify(faq['question'])}"
                appendix[ref] = {"ref": ref, "title": f"FAQ: {faq['question']}", "line": block.start,
                                 "lines": [block.start, max((l.number for l in block.lines if l.text), default=block.start)],
                                 "text": f"Q: {faq['question']}\n\nA: {faq['answer']}", "notes": [],
                                 "see_also": [], "cites": [], "faq": faq}
                appendix_order.append(ref)

    def owner(target: str, where: Block) -> dict:
        if target in sections:
            return sections[target]
        if target in appendix:
            return appendix[target]
        if target in chapters:
            return chapters[target]
        raise IngestError(f"{layout.path}: block at line {where.start} of {path} is placed under "
                          f"{target!r}, which is neither a section nor a chapter")

    for block in blocks:
        if block.kind == "chapter_intro":
            chapter = chapters.get(block.target)
            if chapter is None:
                raise IngestError(f"{layout.path}: chapter_intro for unknown chapter {block.target!r}")
            chapter["intro"] = block.text()
        elif block.kind == "rule":
            text, notes = split_notes(block.text())
            if block.heading and text:
                text = f"{block.heading}\n\n{text}"
            dest = owner(block.target, block)
            if text:
                dest["text"] = (dest["text"] + "\n\n" + text).strip()
            dest["notes"].extend(notes)
        elif block.kind in {"note", "figure"}:
            text, notes = split_notes(block.text())
            dest = owner(block.target, block)
            dest["notes"].append({"kind": block.kind, "title": block.title, "text": text, "line": block.start})
            dest["notes"].extend(notes)
        elif block.kind == "see_also":
            see_also_blocks.append(block)

    all_titles = {ref: s["title"].upper() for ref, s in sections.items()}
    appendix_titles = {a["title"].upper(): ref for ref, a in appendix.items() if not ref.startswith("appendix/faq-")}
    all_titles.update({ref: t for t, ref in appendix_titles.items()})
    groups = {k.upper(): [str(r) for r in v] for k, v in layout.see_also_groups.items()}
    for block in see_also_blocks:
        for ref, items in parse_see_also(block, groups, all_titles, appendix_titles, path).items():
            owner(ref, block)["see_also"].extend(items)

    # Citations, and which of them the document does not define.
    entries = {**sections, **appendix}
    defined = set(entries) | set(chapters)
    undefined = []
    for ref, entry in entries.items():
        body = entry["text"] + "\n" + "\n".join(n["text"] for n in entry["notes"])
        entry["cites"] = citations(body)
        for cited in entry["cites"] + [s["ref"] for s in entry["see_also"] if "ref" in s]:
            if cited not in defined:
                undefined.append({"ref": cited, "cited_by": ref})

    missing_sources: dict[str, list[str]] = {}
    for ref, entry in entries.items():
        for item in entry["see_also"]:
            if item.get("missing_source"):
                missing_sources.setdefault(item["label"], []).append(ref)

    lost = []
    for ref, entry in entries.items():
        for text_line in entry["text"].split("\n"):
            if _LOST_GLYPH.search(text_line):
                lost.append({"ref": ref, "text": text_line})

    for chapter in chapters.values():
        chapter["sections"] = [sections[r] for r in sorted(sections) if r[:2] == chapter["number"]]
    return {
        "chapters": [chapters[c] for c in sorted(chapters)],
        "appendix": [appendix[r] for r in appendix_order],
        "report": {
            "sections": len(sections),
            "appendix_entries": len(appendix),
            "duplicates": duplicates,
            "undefined_citations": sorted(undefined, key=lambda u: (u["ref"], u["cited_by"])),
            "missing_sources": [{"label": k, "cited_by": sorted(set(v))} for k, v in sorted(missing_sources.items())],
            "lost_glyphs": lost,
        },
    }


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    pass


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_representer)


def dump_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def _core_files(document: Path, annotations: Path, document_name: str) -> tuple[dict[str, dict], dict, dict]:
    """The Core Rules: chapter files, the ingest report and the layout's document metadata."""
    layout = Layout.load(annotations / "layout.yaml")
    structure = Structure.load(annotations / "structure.yaml")
    parsed = build(read_document(document), layout, document, structure)
    files = {f"{c['number']}-{slugify(c['title'])}.yaml": {"document": document_name, **c} for c in parsed["chapters"]}
    files["99-rules-appendix.yaml"] = {"document": document_name, "number": "appendix", "title": "RULES APPENDIX",
                                       "intro": "", "notes": [], "sections": parsed["appendix"]}
    return files, parsed["report"], layout.document


def _sections_files(document: Path, annotations: Path, document_name: str) -> tuple[dict[str, dict], dict, dict]:
    """A document the layout partitions into entries (the mission pack, the reprinted basic rules)."""
    from rules40k import ingest_sections

    parsed, meta = ingest_sections.read_and_build(document, annotations)
    files = {f"{i:02d}-{c['number']}.yaml": {"document": document_name, **c}
             for i, c in enumerate(parsed["chapters"], 1)}
    return files, parsed["report"], meta


INGESTERS = {"core": _core_files, "sections": _sections_files}


DOCUMENT_KEYS = ("title", "edition", "version", "publisher")


def check_document_metadata(document: Any, path: Path) -> None:
    """A layout's ``document``: the provenance ingest writes beside the text, each of its keys a line of text."""
    if not isinstance(document, dict):
        raise IngestError(f"{path}: 'document' must be a mapping ({', '.join(DOCUMENT_KEYS)})")
    for key, value in document.items():
        if key not in DOCUMENT_KEYS:
            raise IngestError(f"{path}: document: unknown key {shown(key)} (expected {', '.join(DOCUMENT_KEYS)})")
        if not isinstance(value, str) or not value.strip() or "\n" in value.strip():
            raise IngestError(f"{path}: document.{key} must be one line of text, not {shown(value)}")


def check_spec_folder(spec_root: Path) -> None:
    """The spec folder an ingest writes into must exist: it holds the annotations the ingest reads, and the ingest
    creates nothing outside it (``--spec /nonexistent/spec`` once created /nonexistent)."""
    if not spec_root.is_dir():
        raise IngestError(f"{spec_root}: " + ("is not a folder" if spec_root.exists() else
                                              "the spec folder does not exist (--spec names an existing folder)"))


def write_spec(document: Path, document_name: str, spec_root: Path, annotations: Path | None = None) -> dict:
    """Ingest ``document`` as the ruleset ``document_name`` into ``spec_root/<document_name>``; all or nothing."""
    try:
        kind = spec_access.ruleset(document_name).get("ingest", "core")
    except spec_access.RulesetError as error:
        raise IngestError(str(error)) from None
    annotations = annotations or spec_root / document_name / "annotations"
    files, report, meta = INGESTERS[kind](document, annotations, document_name)

    raw = document.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    original_name = document.name
    if document.resolve().parent == (spec_root / "sources").resolve():
        # Re-ingesting a kept copy: keep the name the document arrived with.
        for kept in sorted((spec_root / "sources").glob("*.yaml")):
            known = spec_access.load_yaml(kept) or {}
            if known.get("sha256") == digest and known.get("original_name"):
                original_name = known["original_name"]
                break
    provenance = {
        "document": document_name,
        "file": f"{document_name}.txt",
        "original_name": original_name,
        "sha256": digest,
        "title": meta.get("title", ""),
        "edition": meta.get("edition", ""),
        "version": meta.get("version", ""),
        "publisher": meta.get("publisher", ""),
    }

    check_spec_folder(spec_root)
    staging = Path(tempfile.mkdtemp(prefix=".ingest-", dir=spec_root))
    try:
        out = staging / "doc"
        (out / "chapters").mkdir(parents=True)
        for name, data in files.items():
            (out / "chapters" / name).write_text(dump_yaml(data), encoding="utf-8")
        (out / "ingest-report.yaml").write_text(dump_yaml(report), encoding="utf-8")
        sources = staging / "sources"
        sources.mkdir()
        shutil.copyfile(document, sources / f"{document_name}.txt")
        (sources / f"{document_name}.yaml").write_text(dump_yaml(provenance), encoding="utf-8")

        # Swap into place: machine-written files only; annotations are never touched. The old copy is
        # moved aside into the staging folder (deleted below), so nothing is left half-written.
        target = spec_root / document_name
        target.mkdir(exist_ok=True)
        aside = staging / "old"
        aside.mkdir()
        for name in ("chapters", "ingest-report.yaml"):
            if (target / name).exists():
                os.replace(target / name, aside / name)
            os.replace(out / name, target / name)
        (spec_root / "sources").mkdir(exist_ok=True)
        for name in (f"{document_name}.txt", f"{document_name}.yaml"):
            os.replace(sources / name, spec_root / "sources" / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    spec_access.sections.cache_clear()
    spec_access.held_documents.cache_clear()
    return report


PRINTING = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_PRINTING = 40  # characters of a printing's name, which names two files
REPEATED_OPENING = 10  # lines of text after its first that, found again in order, show a document pasted twice


def check_printing_copy(document: Path, lines: list[str]) -> None:
    """A copy of a printing has text, once: an empty copy, or one whose second half repeats its first (pasted
    twice), is refused with the line where the repeat starts."""
    text = [(number, line.strip()) for number, line in enumerate(lines, 1) if line.strip()]
    if not text:
        raise IngestError(f"{document}: the document has no text")
    # Its opening lines again further on: the second copy's first line may be joined to the first copy's last.
    opening = [line for _, line in text[1:1 + REPEATED_OPENING]]
    for at in range(2, len(text) - REPEATED_OPENING + 1):
        if [line for _, line in text[at:at + REPEATED_OPENING]] == opening:
            raise IngestError(f"{document}: line {text[at - 1][0]} starts the document again (is it pasted twice?)")


def check_quotes_still_hold(document: Path, lines: list[str], original_name: str, spec_root: Path) -> None:
    """Re-keeping a printing that evidence quotes: every quote of it must still be on its line of the new copy, so a
    copy cut short, with lines deleted or added, or of other text is refused at the first quote it loses."""
    from rules40k import annotations

    quoted = False
    for name in spec_access.rulesets(spec_root):
        for path, index, entry, position, item in annotations.evidence(name, spec_root):
            if not isinstance(item, dict) or item.get("document") != original_name:
                continue
            line = item.get("line")
            if isinstance(line, int) and not (1 <= line <= len(lines) and annotations.quoted_on(
                    str(item.get("quote")), lines[line - 1])):
                raise IngestError(f"{document}: line {line} does not read what {path} (entry {index}, "
                                  f"evidence[{position}]) quotes from the kept copy, {shown(item.get('quote'))}: "
                                  "is this copy cut short or changed?")
            quoted = True
    if quoted and document.name != original_name:  # the evidence names the copy by the name it arrived as
        raise IngestError(f"{document}: the evidence quotes this printing as {shown(original_name)}; keep the copy "
                          "under that file name")


def keep_printing(document: Path, document_name: str, printing: str, spec_root: Path, title: str = "") -> dict:
    """Keep a copy of another printing of a ruleset's rules that its evidence quotes, without encoding its sections
    (spec/sources/<ruleset>-<printing>.txt and its provenance), so every quoted line can be checked and shown.

    All or nothing, like write_spec: the two files are written aside and moved into place together."""
    try:
        spec_access.ruleset(document_name)
    except spec_access.RulesetError as error:
        raise IngestError(str(error)) from None
    if not PRINTING.match(printing) or len(printing) > MAX_PRINTING:
        raise IngestError(f"the printing name {shown(printing)} must be lower-case words joined by hyphens, at most "
                          f"{MAX_PRINTING} characters (e.g. web)")
    lines = [line.raw for line in read_document(document)]  # readable and UTF-8, or one sentence
    check_printing_copy(document, lines)
    raw = document.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    stem = f"{document_name}-{printing}"
    provenance = {
        "document": document_name,
        "printing": printing,
        "file": f"{stem}.txt",
        "original_name": document.name,
        "sha256": digest,
        "title": title,
        "role": "another printing of this ruleset's rules, kept because evidence on this site quotes it; its "
                "sections are not ingested",
    }
    check_spec_folder(spec_root)
    sources = spec_root / "sources"
    if sources.exists() and not sources.is_dir():
        raise IngestError(f"{sources}: is a file where the kept documents belong")
    kept_before = sources / f"{stem}.yaml"
    if kept_before.is_file():  # the same printing kept again: its title stays, and its quotes must still hold
        before = spec_access.load_yaml(kept_before) or {}
        provenance["title"] = title or str(before.get("title") or "")
        check_quotes_still_hold(document, lines, str(before.get("original_name")), spec_root)
    sources.mkdir(exist_ok=True)
    for kept in sorted(sources.glob("*.yaml")):
        known = spec_access.load_yaml(kept) or {}
        if known.get("sha256") == digest and kept.stem != stem:
            raise IngestError(f"{document} is already kept as {kept} (same sha256)")
    staging = Path(tempfile.mkdtemp(prefix=".ingest-", dir=spec_root))
    try:
        shutil.copyfile(document, staging / f"{stem}.txt")
        (staging / f"{stem}.yaml").write_text(dump_yaml(provenance), encoding="utf-8")
        for name in (f"{stem}.txt", f"{stem}.yaml"):
            os.replace(staging / name, sources / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    spec_access.held_documents.cache_clear()
    return provenance

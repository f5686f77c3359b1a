"""Ingest: turn the Core Rules text into spec/ YAML, deterministically.

The document is cut into blocks at headings. A heading carrying a reference
(``ARMIES 01.01``) starts a section; unnumbered boxes (side notes, figures,
chapter introductions, page headers) are placed by the hand-written layout
annotation, so every editorial decision about where a box belongs is written
down once and checked against the document on every run. Output is written to
a temporary folder and moved into place only when everything succeeded.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

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


def clean_line(raw: str) -> str:
    """Remove extraction markup from one line; the words stay as printed."""
    text = raw.rstrip()
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

    @classmethod
    def load(cls, path: Path) -> "Layout":
        data = _load_annotation(path)
        if not isinstance(data, dict):
            raise IngestError(f"{path}: expected a mapping at the top level")
        for key in ("document", "blocks"):
            if key not in data:
                raise IngestError(f"{path}: missing required key {key!r}")
        blocks = data.get("blocks") or []
        for index, entry in enumerate(blocks, 1):
            where = f"{path}: blocks entry {index}"
            if not isinstance(entry, dict) or ("heading" in entry) == ("start" in entry):
                raise IngestError(f"{where} must have exactly one of 'heading' or 'start'")
            if entry.get("kind") not in {"chapter_intro", "rule", "note", "figure", "appendix", "faq", "front"}:
                raise IngestError(f"{where} has unknown kind {entry.get('kind')!r}")
            if entry["kind"] in {"rule", "note", "figure"} and not entry.get("ref"):
                raise IngestError(f"{where} ({entry['kind']}) needs a 'ref'")
            if entry["kind"] == "chapter_intro" and not entry.get("chapter"):
                raise IngestError(f"{where} (chapter_intro) needs a 'chapter'")
        drops = data.get("drop") or []
        for index, entry in enumerate(drops, 1):
            if not isinstance(entry, dict) or ("heading" in entry) == ("start" in entry):
                raise IngestError(f"{path}: drop entry {index} must have exactly one of 'heading' or 'start'")
        primary = data.get("primary_printing") or {}
        for ref, choice in primary.items():
            if not isinstance(choice, int) or choice < 1:
                raise IngestError(f"{path}: primary_printing {ref} must be a printing number from 1")
        return cls(path, blocks, drops, data.get("see_also_groups") or {}, primary, data["document"])


def _load_annotation(path: Path) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return yaml.safe_load(handle)
    except FileNotFoundError:
        raise IngestError(f"{path}: annotation file not found") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise IngestError(f"{path}:{where} is not valid YAML ({getattr(error, 'problem', error)})") from None


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
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise IngestError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestError(f"{path}: byte {error.start} is not valid UTF-8") from None
    return [Line(i, r, clean_line(r)) for i, r in enumerate(text.split("\n"), 1)]


def contents_chapters(lines: list[Line], path: Path) -> dict[str, str]:
    """Chapter numbers and titles from the table of contents."""
    chapters: dict[str, str] = {}
    for line in lines:
        for number, title in re.findall(r"(\d\d)\. ([A-Z][A-Z ,'&-]+?) pg \d+", line.text):
            chapters.setdefault(number, title.strip())
    if not chapters:
        raise IngestError(f"{path}: no table of contents found (expected lines like '01. CORE CONCEPTS pg 8')")
    return chapters


def segment(lines: list[Line], layout: Layout, path: Path) -> list[Block]:
    """Cut the document into blocks, applying the layout annotation."""
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
            raise IngestError(
                f"{layout.path}: blocks entry {index + 1} ({what!r}, occurrence {entry.get('occurrence', 1)}) "
                f"matches nothing in {path}; the document may be truncated or a different version")
    for index, entry in enumerate(layout.drops):
        if index not in used_drops:
            what = entry.get("heading") or entry.get("start")
            raise IngestError(f"{layout.path}: drop entry {index + 1} ({what!r}) matches nothing in {path}")
    return blocks


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


def build(lines: list[Line], layout: Layout, path: Path) -> dict:
    """Assemble chapters, sections, the appendix and the ingest report."""
    if not any(line.text == "CORE RULES" for line in lines[:40]):
        raise IngestError(f"{path}: not the Core Rules (no 'CORE RULES' title near the top)")
    chapter_titles = contents_chapters(lines, path)
    blocks = segment(lines, layout, path)

    printings: dict[str, list[Block]] = {}
    for block in blocks:
        if block.kind == "section":
            for ref in block.refs:
                printings.setdefault(ref, []).append(block)

    # Every chapter's sections must run 01..N without a hole; a truncated
    # document fails here.
    for chapter in chapter_titles:
        numbers = sorted(int(ref[3:]) for ref in printings if ref[:2] == chapter)
        if not numbers:
            raise IngestError(f"{path}: chapter {chapter} ({chapter_titles[chapter]}) has no numbered sections; "
                              "the document may be truncated")
        expected = list(range(1, numbers[-1] + 1))
        if numbers != expected:
            missing = sorted(set(expected) - set(numbers))
            raise IngestError(f"{path}: chapter {chapter} lacks sections "
                              + ", ".join(f"{chapter}.{m:02d}" for m in missing))
    unknown = sorted({ref[:2] for ref in printings} - set(chapter_titles))
    if unknown:
        raise IngestError(f"{path}: sections in chapters {unknown} that the contents do not list")

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
    parsed = build(read_document(document), layout, document)
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

    spec_root.mkdir(parents=True, exist_ok=True)
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

        # Move into place: machine-written files only; annotations are never touched.
        target = spec_root / document_name
        target.mkdir(exist_ok=True)
        for name in ("chapters", "ingest-report.yaml"):
            old = target / name
            if old.is_dir():
                shutil.rmtree(old)
            elif old.exists():
                old.unlink()
            os.replace(out / name, old)
        (spec_root / "sources").mkdir(exist_ok=True)
        for name in (f"{document_name}.txt", f"{document_name}.yaml"):
            os.replace(sources / name, spec_root / "sources" / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    spec_access.sections.cache_clear()
    return report

"""Generate the annotated rulebook site from the spec, the ledger, the annotations and the check results.

``build(build_dir)`` loads everything, checks that every reference has a page,
renders every page in memory, writes them to a temporary folder and only then
moves that folder to ``build/docs``: a failed build leaves no half-written
pages. MkDocs (``--strict``) then turns ``build/docs`` into a temporary folder
swapped in as ``build/site`` only when it succeeds: a failed or interrupted build
leaves the previous site as it was.

Nothing here decides a verdict: statuses come from the coverage ledger and
check results from ``build/results.json``. The stored rule text is quoted as
it is; restorations are shown beside it, never written into it.

URL scheme: one area per ruleset, one page per reference in it: ``core/05.02/`` a section,
``core/05/`` a chapter, ``core/appendix/<slug>/`` an appendix entry, ``missionpack/secondary/linebreaker/``
an entry of the mission pack; each area has its home and its ``ledger/``, ``results/``, ``findings/``,
``interpretations/`` and ``source/`` pages. Rule modules, the modules they stand on and the files the
checks are written in (proofs, properties, example and concept-map YAML) have one code page each
(``code/rules/core/moving.html``, ``code/properties/proofs.html``; site/code_pages.py), and the site's home
lists the rulesets. A qualified reference
(``ninth:objective-markers``) links across areas.
"""

from __future__ import annotations

import contextlib
import html
import inspect
import itertools
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import jinja2
import yaml

from rules import registry, spec
from rules40k import annotations, atomic, coverage, ingest_sections, interrupts
from rules40k.ingest import IngestError
from rules40k_site import plots as pictures
from rules40k_site import sources, tables
from rules40k_site import not_found
from rules40k_site import glossary
from rules40k_site import code_pages
from rules40k_site import editions

REPO_ROOT = spec.SPEC_ROOT.parent
TEMPLATES = Path(__file__).resolve().parent / "templates"
ASSETS = Path(__file__).resolve().parent / "assets"  # copied as they are to the site's assets/ folder
MKDOCS_CONFIG = REPO_ROOT / "mkdocs.yml"
STYLESHEET = "assets/rules40k.css"  # named in mkdocs.yml (extra_css)


class SiteError(ValueError):
    """The site cannot be built; the message names the page or section and the problem."""


# ---------------------------------------------------------------------------
# Loading


@dataclass
class Book:
    """Everything the pages are made from, loaded once so every page sees the same data."""

    document: str  # the ruleset's short name
    sections: dict[str, dict]
    chapters: list[dict]
    rows: dict[str, dict]
    functions: dict[str, list[registry.RuleFunction]]
    restorations: list[dict]
    interpretations: list[dict]
    findings: list[dict]
    examples: list[dict]
    results: dict | None
    results_file: str
    provenance: dict
    report: dict
    order: dict[str, int] = field(default_factory=dict)
    library: dict[str, "Book"] = field(default_factory=dict)  # every ruleset built with this one, by name
    page_refs: dict[str, list[str]] = field(default_factory=dict)  # printed page -> references (pack layouts)
    mutation: dict = field(default_factory=dict)  # the measured mutation report (rules40k.mutate.measured)
    memo: dict = field(default_factory=dict, repr=False, compare=False)  # answers worked out once per book

    def __post_init__(self) -> None:
        chapter_refs = [c["number"] for c in self.chapters]
        self.order = {ref: i for i, ref in enumerate(itertools.chain(chapter_refs, self.sections))}
        self.library.setdefault(self.document, self)

    @property
    def prefix(self) -> str:
        """The folder of this ruleset's area."""
        return f"{self.document}/"

    @property
    def numbered(self) -> bool:
        """Whether references are the book's numbers (shown in labels) rather than our own slugs."""
        if "numbered" not in self.memo:  # asked for every label of every page
            self.memo["numbered"] = any(spec.SECTION_REF.match(ref) for ref in self.sections)
        return self.memo["numbered"]

    def qualify(self, ref: str) -> str:
        return spec.qualify(self.document, ref)

    def foreign(self, ref: str) -> tuple["Book", str] | None:
        """The book and local reference of a reference to another ruleset; None for a local one.

        An unqualified Core Rules reference ("23.04") that this ruleset does not define is the Core Rules'
        (references in check records are written that way)."""
        if ":" not in str(ref):
            core = spec.DEFAULT_RULESET
            if self.document != core and str(ref) not in self.sections and (
                    spec.SECTION_REF.match(str(ref)) or spec.APPENDIX_REF.match(str(ref))):
                other = self.library.get(core)
                return (other, str(ref)) if other is not None else (None, str(ref))  # type: ignore[return-value]
            return None
        name, local = spec.split_ref(ref)
        if name == self.document:
            return None
        other = self.library.get(name)
        return (other, local) if other is not None else (None, local)  # type: ignore[return-value]

    def page_path(self, ref: str) -> str | None:
        """The Markdown file of a section, appendix entry or chapter; None if it has no page."""
        ref = str(ref)
        elsewhere = self.foreign(ref)
        if elsewhere is not None:
            other, local = elsewhere
            return other.page_path(local) if other is not None else None
        ref = spec.split_ref(ref)[1] if ":" in ref else ref
        if ref in self.sections:
            return f"{self.prefix}{ref}.md"
        if any(c["number"] == ref for c in self.chapters):
            return f"{self.prefix}{ref}/index.md"  # the section index in the nav (navigation.indexes)
        return None

    def label(self, ref: str) -> str:
        """How a reference is named in links and lists: "05.02 Wound Rolls", "05 Attack Sequence", "Linebreaker"."""
        ref = str(ref)
        elsewhere = self.foreign(ref)
        if elsewhere is not None:
            other, local = elsewhere
            return f"{other.label(local)} ({other.document})" if other is not None else ref
        ref = spec.split_ref(ref)[1] if ":" in ref else ref
        if ref in self.sections:
            title = readable_title(self.sections[ref]["title"])
            return title if ref.startswith("appendix/") or not self.numbered else f"{ref} {title}"
        chapter = self.chapter(ref)
        if ref == "appendix" or not self.numbered:
            return readable_title(chapter["title"])
        return f"{ref} {readable_title(chapter['title'])}"

    @property
    def source_title(self) -> str:
        return self.provenance.get("title") or f"the {self.document} rules document"

    @property
    def publisher(self) -> str:
        return self.provenance.get("publisher") or "its publisher"

    def chapter(self, number: str) -> dict:
        return next(c for c in self.chapters if c["number"] == number)

    def sort_refs(self, refs) -> list[str]:
        return sorted(set(refs), key=lambda r: (self.order.get(r, len(self.order)), r))

    def checks(self) -> list[dict]:
        """This ruleset's checks in the results (each check belongs to the ruleset of its first reference)."""
        if self.results is None:
            return []
        return [c for c in self.results.get("checks", []) if c.get("ruleset", spec.DEFAULT_RULESET) == self.document]

    def checks_of(self, ref: str) -> list[dict]:
        """Every check, of any ruleset, that rests on one of this ruleset's references."""
        wanted = self.qualify(ref)
        return [] if self.results is None else [c for c in self.results.get("checks", []) if wanted in (c.get("refs") or [])]

    @property
    def title(self) -> str:
        return spec.rulesets().get(self.document, {}).get("title") or self.source_title

    @property
    def short_title(self) -> str:
        return spec.rulesets().get(self.document, {}).get("short") or self.title


def load_results(build: Path) -> dict | None:
    """build/results.json, or None when the checks were not run."""
    results_path = build / "results.json"
    if not results_path.exists():
        return None
    try:
        results = json.loads(results_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise SiteError(f"{results_path} is not valid JSON ({error.msg} at line {error.lineno}).") from None
    if not isinstance(results, dict) or not isinstance(results.get("checks", []), list):
        raise SiteError(f"{results_path} is not a results document (expected an object with a 'checks' list).")
    return results


def load(document: str, build: Path, results: dict | None = None, library: dict | None = None,
         mutation: dict | None = None) -> Book:
    """Read the spec, ledger, annotations, results and mutation report; every later step works from this."""
    from rules40k import mutate

    if mutation is None:
        mutation = mutate.measured()
    sections = spec.sections(document)
    chapters = []
    for path in spec.chapter_files(document):
        data = spec.load_yaml(path)
        number = str(data["number"])
        chapters.append({
            "number": number,
            "title": data["title"],
            "intro": data.get("intro") or "",
            "notes": data.get("notes") or [],
            "refs": [ref for ref, s in sections.items() if s["chapter"]["number"] == number],
        })
    rows = {row["ref"]: row for row in coverage.ledger(document, mutation)}  # imports the rule modules too
    functions = {ref: registry.functions_for(ref, document) for ref in sections}
    results_path = build / "results.json"
    if results is None:
        results = load_results(build)
    if results is not None and "rulesets" in results and document not in results["rulesets"]:
        raise SiteError(f"{results_path} holds no results for the {document!r} ruleset; "
                        f"rerun `rules40k verify --ruleset {document}` or `rules40k verify`.")
    return Book(
        document=document,
        sections=sections,
        chapters=chapters,
        rows=rows,
        functions=functions,
        restorations=annotations.restorations(document),
        interpretations=annotations.interpretations(document),
        findings=annotations.findings(document),
        examples=annotations.examples(document),
        results=results,
        results_file=str(results_path),
        provenance=_yaml_or_empty(spec.SPEC_ROOT / "sources" / f"{document}.yaml"),
        report=_yaml_or_empty(spec.SPEC_ROOT / document / "ingest-report.yaml"),
        library=library if library is not None else {},
        page_refs=_page_refs(document),
        mutation=mutation,
    )


def _page_refs(document: str) -> dict[str, list[str]]:
    """The printed-page map of a ruleset cut by a layout (its citations say "pg 96", not "06.03")."""
    if spec.rulesets().get(document, {}).get("ingest") != "sections":
        return {}
    try:
        return ingest_sections.SectionsLayout.load(spec.SPEC_ROOT / document / "annotations" / "layout.yaml").pages
    except IngestError as error:
        raise SiteError(str(error)) from None


def _yaml_or_empty(path: Path) -> dict:
    return (spec.load_yaml(path) or {}) if path.exists() else {}


# ---------------------------------------------------------------------------
# Reference checks: a dangling reference fails the build with one sentence.


def check_references(book: Book) -> None:
    """Every reference the pages would link to must have a page, or the build stops here."""
    def need(ref: str, who: str) -> None:
        elsewhere = book.foreign(str(ref))
        if elsewhere is not None and elsewhere[0] is None:
            return  # another ruleset, not part of this build: shown as plain text
        if book.page_path(str(ref)) is None:
            raise SiteError(f"{who} {ref}, which has no page in the {book.document} rules.")

    for ref, section in book.sections.items():
        for cited in section.get("cites") or []:
            need(cited, f"Section {ref} cites")
        for entry in section.get("see_also") or []:
            if entry.get("ref"):
                need(entry["ref"], f"Section {ref} lists {entry['label']!r} under see also with reference")
    for ref, row in book.rows.items():
        if ref not in book.sections:
            raise SiteError(f"The coverage ledger has a row for {ref}, "
                            f"which has no page in the {book.document} rules.")
    for ref in book.sections:
        if ref not in book.rows:
            raise SiteError(f"Section {ref} has no row in the coverage ledger.")
    for entry in book.restorations:
        need(entry["ref"], f"Restoration {entry['id']!r} names")
        if entry["ref"] not in book.sections:
            raise SiteError(f"Restoration {entry['id']!r} names chapter {entry['ref']}; "
                            "a restoration belongs to a section.")
    for entry in book.interpretations:
        for ref in entry["refs"]:
            need(ref, f"Interpretation {entry['id']!r} names")
    for entry in book.findings:
        for ref in entry["refs"]:
            need(ref, f"Finding {entry['id']!r} names")
        if entry.get("interpretation") and entry["interpretation"] not in {i["id"] for i in book.interpretations}:
            raise SiteError(f"Finding {entry['id']!r} follows interpretation {entry['interpretation']!r}, "
                            "which is not recorded.")
    for entry in book.examples:
        need(entry["ref"], f"Example {entry['id']!r} ({entry.get('file', '?')}) names")
    for check in book.checks():
        for ref in check.get("refs") or []:
            need(ref, f"Check {check.get('id')!r} in {book.results_file} names")


# ---------------------------------------------------------------------------
# Text: Markdown escaping, titles, citations.

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]#|>])")
_LINE_START = re.compile(r"^(\d+)\.(?=\s)|^([+\-=])")
_CITATION_GROUP = re.compile(r"\(([^()]*)\)")
_SECTION_CITATION = re.compile(r"(?<![\d.])\d\d\.\d\d(?![\d.])")
_CHAPTER_CITATION = re.compile(r"\d\d")
# Private-use characters that survive escaping: around restored characters, and around the id of the
# restoration whose footnote follows them, until _markers turns them into HTML and a footnote reference.
MARK_START, MARK_END = "\ue000", "\ue001"
NOTE_START, NOTE_END = "\ue002", "\ue003"

_SMALL_WORDS = frozenset("a an and as at but by for from in into nor of on or the to vs with".split())
_KEEP = {"CP": "CP", "OC": "OC", "BS": "BS", "WS": "WS", "FAQ": "FAQ", "FAQS": "FAQs"}


def escape(text: str) -> str:
    """Plain text as Markdown that renders exactly as written."""
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    return _MD_SPECIAL.sub(r"\\\1", text)


def escape_line_start(markdown: str) -> str:
    """Stop a paragraph such as "1. Select Unit" or "+1CP" from turning into a list."""
    return _LINE_START.sub(lambda m: f"{m.group(1)}\\." if m.group(1) else f"\\{m.group(2)}", markdown, count=1)


def code_span(text: str) -> str:
    """Inline code that survives backticks in the text."""
    run = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * (run + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fence(text: str) -> str:
    """A code fence longer than any backtick run in the code."""
    return "`" * max(3, max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)


def readable_title(title: str) -> str:
    """Title case for a heading the book prints in capitals; bracketed ability names stay as printed."""
    if title != title.upper():
        return title
    words = []
    first = True
    for part in re.split(r"(\[[^\]]*\]|\s+)", title):
        if not part or part.isspace() or part.startswith("["):
            words.append(part)
            first = first and not part.startswith("[")
            continue
        core = part.strip(",.:;!?")
        if core in _KEEP:
            words.append(part.replace(core, _KEEP[core]))
        elif any(ch.isdigit() for ch in part):
            words.append(part)
        elif not first and core.lower() in _SMALL_WORDS:
            words.append(part.lower())
        else:
            words.append(part.capitalize())  # "BATTLE-SHOCK" -> "Battle-shock", as the book writes it
        first = False
    return "".join(words)


def citations(text: str) -> list[tuple[int, int, str]]:
    """Spans of the references cited in parentheses: "(06.03)", "(e.g. modes, 12.08)", "Moving (03)"."""
    spans = []
    for group in _CITATION_GROUP.finditer(text):
        inner = group.group(1)
        if _CHAPTER_CITATION.fullmatch(inner):
            spans.append((group.start(1), group.end(1), inner))
            continue
        for ref in _SECTION_CITATION.finditer(inner):
            spans.append((group.start(1) + ref.start(), group.start(1) + ref.end(), ref.group(0)))
    return spans


def page_citations(text: str, pages: dict[str, list[str]]) -> list[tuple[int, int, str]]:
    """Spans of printed page citations ("pg 96", "pages 18-19") that the ruleset's layout maps to a reference."""
    return [(start, end, targets[0]) for start, end, _, targets in ingest_sections.page_citations(text, pages)
            if targets]


def mark_restoration(find: str, restore: str) -> str:
    """The restored line with the restored characters between MARK_START and MARK_END, cell by cell."""
    old_cells, new_cells = find.split(" | "), restore.split(" | ")
    if len(old_cells) != len(new_cells):
        old_cells = [""] * len(new_cells)  # the row changed shape: mark every cell
    return " | ".join(_mark(old, new) for old, new in zip(old_cells, new_cells))


def _mark(old: str, new: str) -> str:
    if old == new:
        return new
    prefix = len(os.path.commonprefix([old, new]))
    suffix = len(os.path.commonprefix([old[prefix:][::-1], new[prefix:][::-1]]))
    end = len(new) - suffix
    while prefix < end and new[prefix].isspace():  # mark the glyph, not the space before it
        prefix += 1
    while end > prefix and new[end - 1].isspace():
        end -= 1
    return new[:prefix] + MARK_START + new[prefix:end] + MARK_END + new[end:]


def _subheading(line: str) -> bool:
    return line == line.upper() and any(ch.isalpha() for ch in line) and len(line) <= 60


def _line_kind(line: str) -> str:
    if " | " in line:
        return "table"
    if line.startswith("- "):
        return "bullet"
    return "subheading" if _subheading(line) else "paragraph"


def _table(rows: list[list[str]]) -> str:
    """Rows of "cell | cell" as a Markdown table; the header row stays empty (the CSS hides it)."""
    width = max(len(row) for row in rows)
    lines = ["|" + " |" * width, "|" + " --- |" * width]
    for index, cells in enumerate(rows):
        pad = [""] * (width - len(cells))
        # A short first row is a column header missing its corner cell.
        cells = pad + cells if index == 0 and pad and len(rows) > 1 else cells + pad
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Pages


class Page:
    """A page being written: links from it are relative to its path and name the page if they dangle."""

    def __init__(self, book: Book, path: str, name: str) -> None:
        self.book = book
        self.path = path
        self.name = name

    def href(self, target: str, anchor: str = "") -> str:
        rel = posixpath.relpath(target, posixpath.dirname(self.path) or ".")
        return f"{rel}#{anchor}" if anchor else rel

    def code_link(self, target: str, line: int, label: str) -> str:
        """A raw HTML link to a line of a code page (see code_pages.line_link)."""
        return code_pages.line_link(self, target, line, html.escape(label))

    def link(self, ref: str, label: str | None = None) -> str:
        """A Markdown link to a reference's page (label defaults to "05.02 Wound Rolls")."""
        target = self.book.page_path(str(ref))
        elsewhere = self.book.foreign(str(ref))
        if target is None and elsewhere is not None and elsewhere[0] is None:
            return escape(str(ref) if label is None else label)  # a ruleset left out of this build
        if target is None:
            raise SiteError(f"The {self.name} page links to {ref}, "
                            f"which has no page in the {self.book.document} rules.")
        return f"[{escape(self.book.label(ref) if label is None else label)}]({self.href(target)})"

    def inline(self, text: str) -> str:
        """One line of text, escaped, with its citations linked ("(06.03)", and "(pg 96)" where pages are mapped)
        and the book's **bold** and <u>underlining</u> (sources.emphasis) as HTML."""
        text = sources.emphasis(text)
        out, position = [], 0
        spans = citations(text) if self.book.numbered else []
        spans += page_citations(text, self.book.page_refs)
        for start, end, ref in sorted(spans):
            out.append(escape(text[position:start]))
            out.append(self.link(ref, text[start:end]))
            position = end
        out.append(escape(text[position:]))
        return sources.to_html("".join(out))

    def text(self, text: str, restorations: list[dict] | None = None) -> str:
        """Rule text as Markdown blocks: paragraphs, lists, tables; restored glyphs marked with a footnote."""
        pending = list(restorations or [])  # each restoration marks the first unmarked line it finds
        blocks = []
        for paragraph in (text or "").split("\n\n"):
            lines = [line.strip() for line in paragraph.split("\n") if line.strip()]
            for kind, group in itertools.groupby(lines, key=_line_kind):
                shown = [self._restore(line, pending) for line in group]
                if kind == "table":
                    blocks.append(_table([self._row(line) for line in shown]))
                elif kind == "bullet":
                    blocks.append("\n".join("- " + escape_line_start(self.inline(line[2:])) for line in shown))
                elif kind == "subheading":
                    blocks.extend(f"**{self.inline(line)}**" for line in shown)
                else:
                    blocks.extend(escape_line_start(self.inline(line)) for line in shown)
        if pending:
            entry = pending[0]
            raise SiteError(f"Restoration {entry['id']!r} for {entry['ref']} finds no line "
                            f"{entry['find']!r} in the section text.")
        return glossary.link_terms(self, "\n\n".join(self._markers(block) for block in blocks))  # keyword links

    def _row(self, line: str) -> list[str]:
        """Table cells; a row printed all in capitals is a heading row and is shown in bold."""
        cells = line.split(" | ")
        bold = all(_subheading(cell) for cell in cells)
        return [f"**{self.inline(cell)}**" if bold and cell else self.inline(cell) for cell in cells]

    def _restore(self, line: str, pending: list[dict]) -> str:
        for index, entry in enumerate(pending):
            if entry["find"].strip() == line:
                del pending[index]
                marked = mark_restoration(entry["find"].strip(), entry["restore"].strip())
                return marked.replace(MARK_END, f"{MARK_END}{NOTE_START}{entry['id']}{NOTE_END}", 1)
        return sources.mark(self.book, line)  # the book's bold and underlining, from the document's own line

    @staticmethod
    def _markers(block: str) -> str:
        block = block.replace(MARK_START, '<ins class="restored" title="Restored: lost or damaged when the document was extracted">')
        block = block.replace(MARK_END, "</ins>")
        return re.sub(f"{NOTE_START}(.*?){NOTE_END}", lambda m: f"[^{footnote_label(m.group(1))}]", block)


def anchor(prefix: str, text: str) -> str:
    """An HTML id (or footnote label) made from any text: ``prefix``, then the text's letters, digits and
    underscores, each other run as one hyphen. Every anchor the generator makes from a name is made here."""
    return prefix + (re.sub(r"[^A-Za-z0-9_]+", "-", str(text)).strip("-") or "x")


def footnote_label(restoration_id: str) -> str:
    return anchor("restored-", restoration_id)


def url_of(path: str) -> str:
    """The site URL of a Markdown file: the HTML file beside it (``use_directory_urls: false``, so that links
    work from a file:// copy as well as over HTTP)."""
    return path[:-3] + ".html"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["md"] = escape
    env.filters["code"] = code_span
    env.filters["readable"] = readable_title
    env.filters["quote_title"] = lambda text: escape(text).replace('"', "&quot;")
    env.filters["json"] = lambda value: json.dumps(value, sort_keys=True, ensure_ascii=False)
    return env


# ---------------------------------------------------------------------------
# Views: the data each template needs, with links already made relative.

NOTE_KINDS = {
    "note": ("note", "Note"),
    "figure": ("abstract", "Figure"),
    "designers_note": ("quote", "Designer's note"),
    "example": ("example", "Example"),
}
SOURCE_KINDS = {"text": "rule text", "figure": "figure", "note": "note",
                "designers_note": "designer's note", "example": "printed example"}


def note_views(page: Page, notes: list[dict], document: str | None = None) -> list[dict]:
    """Notes printed beside a rule; ``document``: the seed file their lines are of (None: the ruleset's own)."""
    views = []
    for note in notes:
        admonition, kind_label = NOTE_KINDS.get(note.get("kind"), ("note", "Note"))
        title = readable_title(note.get("title") or "")
        heading = kind_label if not title or title.lower() == kind_label.lower() else f"{kind_label}: {title}"
        body = page.text(note.get("text") or "") or "*The book prints a diagram here; it has no caption text.*"
        if note.get("line"):  # a link to the line, which the admonition's title cannot hold
            body += f"\n\n*Printed at {sources.line_link(page, document, note['line'])}.*\n{{: .attribution }}"
        views.append({"admonition": admonition, "title": heading, "body": body})
    return views


def evidence_view(book: Book, evidence: dict, page: Page | None = None) -> dict:
    """A piece of evidence: the document named by its title, its line a link to that line of the document's text
    page (from ``page``), its quote with the book's bold."""
    document = evidence.get("document", "")
    name = book.source_title if document == book.provenance.get("original_name") else sources.title_of(book, document)
    line, quote = evidence.get("line"), evidence.get("quote", "")
    link = sources.line_link(page, document, line) if page is not None else f"line {line}"
    return {"document": name, "file": document, "line": line, "quote": quote, "line_link": link,
            "quote_md": sources.quote_markdown(str(quote), escape)}


def interpretation_views(page: Page, entries: list[dict]) -> list[dict]:
    views = []
    for entry in entries:
        views.append({
            "id": entry["id"],
            "refs": [page.link(ref) for ref in page.book.sort_refs(entry["refs"])],
            "question": page.inline(entry["question"]),
            "readings": [{"id": r["id"], "text": page.inline(r.get("text", "")),
                          "chosen": r["id"] == entry["chosen"]} for r in entry["readings"]],
            "evidence": [evidence_view(page.book, e, page) for e in entry.get("evidence") or []],
            "consequence": page.inline(entry.get("consequence") or ""),
        })
    return views


def finding_views(page: Page, entries: list[dict], checks_by_id: dict[str, dict]) -> list[dict]:
    """Findings with their sections, evidence, the check that shows them and the reading the code follows."""
    views = []
    for entry in entries:
        check = checks_by_id.get(str(entry.get("check"))) if entry.get("check") else None
        views.append({
            "id": entry["id"],
            "anchor": tables.finding_anchor(entry["id"]),
            "kind": entry["kind"],
            "refs": [page.link(ref) for ref in page.book.sort_refs(entry["refs"])],
            "summary": page.inline(" ".join(str(entry["summary"]).split())),
            "detail": page.inline(" ".join(str(entry.get("detail") or "").split())),
            "evidence": [evidence_view(page.book, e, page) for e in entry.get("evidence") or []],
            "check": check_view(page, check) if check else None,
            "check_id": entry.get("check"),
            "interpretation": entry.get("interpretation"),
            "interpretation_link": page.href(f"{page.book.prefix}interpretations.md", entry["interpretation"])
            if entry.get("interpretation") else "",
            "counterexample": tables.counterexample_markdown(check.get("counterexample"))
            if check else "",
        })
    return views


def check_view(page: Page, check: dict) -> dict:
    return {
        "id": check.get("id", "?"),
        "kind": check.get("kind", "check"),
        "name": page.inline(check.get("name", "")),
        "status": check.get("status", "error"),
        "detail": page.inline(tables.detail_without_counterexample(check)),
        "counterexample": tables.counterexample_markdown(check.get("counterexample")),
        "refs": [page.link(ref, ref) for ref in page.book.sort_refs(check.get("refs") or [])],
        "rows": [escape(str(row)) for row in check.get("rows") or []],
        "overrides": [[escape(str(label)) for label in pair] for pair in check.get("overrides") or []],
        "expected": check.get("expected"),
        "actual": check.get("actual"),
        "has_actual": "actual" in check and check.get("status") != "passed",
        "code": code_pages.check_code(page, check),  # the id linked to its code line, and what it calls
    }


def example_view(page: Page, example: dict, checks: dict[str, dict]) -> dict:
    source = example.get("source") or {}
    where = [SOURCE_KINDS.get(source.get("kind"), str(source.get("kind", "source")))]
    if source.get("title"):
        where.append(escape(readable_title(source["title"])))
    if source.get("line"):
        where.append(sources.line_link(page, None, source["line"]))
    check = checks.get(f"example:{page.book.qualify(example['id'])}")
    return {
        "id": example["id"],
        "name": page.inline(example["name"]),
        "source": ", ".join(where),
        "call": example["call"],
        "args": example.get("args") or {},
        "expect": example["expect"],
        "file": example.get("file", ""),
        "check": check_view(page, check) if check else None,
        "code": code_pages.check_code(page, check or {"kind": "example", "id": f"example:{page.book.qualify(example['id'])}"},
                                      example["id"]),
    }


def function_views(page: Page, functions: list[registry.RuleFunction]) -> list[dict]:
    views = []
    for function in functions:
        try:
            source = inspect.getsource(inspect.unwrap(function.function))
        except (OSError, TypeError):
            source = ""
        target = code_pages.code_page_path(function.file)
        where = f"{function.file}:{function.line}"
        views.append({
            "qualname": function.qualname,
            "where": where,
            "link": page.code_link(target, function.line, where) if target else escape(where),
            "summary": page.inline((function.doc or "").split("\n\n")[0].replace("\n", " ")),
            "source": source.rstrip("\n"),
            "fence": fence(source),
            "line": max(function.line, 1),
        })
    return views


def status_view(row: dict) -> dict:
    mutation = row.get("mutation") or {}
    return {"status": row["status"], "reason": row["reason"], "functions": len(row["functions"]),
            "examples": row["examples"], "verified": row.get("verified"),
            "unverified": [name.rpartition(".")[2] for name in row.get("unverified") or []],
            "uncalled": [name.rpartition(".")[2] for name in row.get("uncalled") or []],
            "strength": mutation.get("score"), "killed": mutation.get("killed", 0),
            "survived": mutation.get("survived", 0), "equivalent": mutation.get("equivalent", 0),
            "strength_text": strength_text({"strength": mutation.get("score"), "killed": mutation.get("killed", 0),
                                            "survived": mutation.get("survived", 0)})}


def strength_text(row: dict) -> str:
    """A section's verification strength in a few words: "93% (42 of 45 mutants killed)"."""
    if row["strength"] is None:
        return "not measured"
    decided = row["killed"] + row["survived"]
    return f"{100 * row['strength']:.0f}% ({row['killed']} of {decided} mutants killed)"


def mutants_anchor(ref: str) -> str:
    """The anchor of a section's survivors on the mutants page."""
    return anchor("m-", ref.lower())


def mutants_page(book: Book, env: jinja2.Environment) -> tuple[str, str]:
    """The surviving mutants of this ruleset's rule modules, by section, each with its diff; then the
    equivalent ones with their reasons, and the functions no check calls."""
    page = Page(book, f"{book.prefix}mutants.md", "surviving mutants")
    report = book.mutation
    from rules40k import mutate

    modules = mutate.modules_of(book.document)
    mine = {book.qualify(ref) for ref in book.sections}
    # This ruleset's modules, and shared ones (the attack engine) whose mutants face this ruleset's sections.
    rows = [r for r in report.get("mutants", []) if r["module"] in modules or mine & set(r["refs"])]
    by_section = []
    for ref in book.sections:
        qualified = book.qualify(ref)
        survivors = [r for r in rows if r["status"] == "survived" and qualified in r["refs"]]
        if survivors:
            by_section.append({"link": page.link(ref), "anchor": mutants_anchor(ref),
                               "score": strength_text(status_view(book.rows[ref])),
                               "mutants": [{"where": f"{r['module']}:{r['line']}", "function": r["function"],
                                            "kind": r["kind"], "change": r["change"], "diff": r.get("diff", "")}
                                           for r in survivors]})
    scores = [{"module": m, **report["modules"][m]} for m in modules if m in report.get("modules", {})]
    functions = [f for f in report.get("functions", {}).values() if f["module"] in modules]
    return page.path, env.get_template("mutants.md.j2").render({
        "sections": by_section, "modules": scores,
        "unmeasured": [m for m in modules if m not in report.get("modules", {})],
        "stale": [m for m in report.get("stale", []) if m in modules],
        "equivalent": [r for r in rows if r["status"] == "equivalent"],
        "uncalled": [f for f in functions if not f["called"]],
    })


def cited_by(book: Book) -> dict[str, list[tuple[str, str]]]:
    """Backlinks: for each reference, the sections whose citations or see-also entries point at it."""
    back: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for ref, section in book.sections.items():
        for cited in section.get("cites") or []:
            back[str(cited)][ref].add("cites it")
        for entry in section.get("see_also") or []:
            if entry.get("ref"):
                back[str(entry["ref"])][ref].add("lists it under see also")
    return {target: [(ref, " and ".join(sorted(sources[ref]))) for ref in book.sort_refs(sources)]
            for target, sources in back.items()}


def printing_views(book: Book, page: "Page", section: dict) -> list[dict]:
    """The section as each other printing of the ruleset prints it: its name, its document's title, its lines (a
    link to that printing's text page) and its text (bullet glyphs shown as the list they are)."""
    views = []
    for name, printed in sorted((section.get("printings") or {}).items()):
        document = sources.printing_document(book, name)
        first, last = (printed.get("lines") or [printed.get("line")] * 2)[:2]
        label = f"line {first}" if first == last else f"lines {first}–{last}"
        text = re.sub(r"(?m)^[ \t]*[•■][ \t]+", "- ", printed.get("text") or "")
        views.append({"name": name, "title": escape(sources.title_of(book, document) if document else name),
                      "lines": label, "line_link": sources.line_link(page, document, first, label),
                      "heading": escape(printed.get("heading") or ""), "text": page.text(text),
                      "notes": note_views(page, printed.get("notes") or [], document)})
    return views


def section_page(book: Book, env: jinja2.Environment, ref: str, previous: str | None, following: str | None,
                 backlinks: dict, checks_by_id: dict[str, dict]) -> tuple[str, str]:
    section = book.sections[ref]
    path = book.page_path(ref)
    page = Page(book, path, f"section {ref}")
    restorations = [r for r in book.restorations if r["ref"] == ref]
    text = page.text(section["text"], [r for r in restorations if not r.get("heading")])
    examples = [example_view(page, e, checks_by_id) for e in book.examples if e["ref"] == ref]
    shown = {f"example:{book.qualify(e['id'])}" for e in examples}
    chapter = section["chapter"]["number"]
    document = sources.printing_document(book, section.get("printing"))  # a section only another printing has
    context = {
        "page": page,
        "book": book,
        "ref": ref,
        "heading": book.label(ref),
        "printed_title": section["title"],
        "chapter": page.link(chapter),
        "line": section.get("line"),
        "line_link": sources.line_link(page, document, section.get("line")),
        "source_title": sources.title_of(book, document) if document else book.source_title,
        "heading_notes": [footnote_label(r["id"]) for r in restorations if r.get("heading")],
        "attributes": [(key.replace("_", " ").capitalize(), escape(str(value).replace("-", " ")))
                       for key, value in (section.get("attributes") or {}).items()],
        "cites": [page.link(c) for c in section.get("cites") or [] if not spec.SECTION_REF.match(str(c))
                  and not re.fullmatch(r"\d\d", str(c))],
        "row": status_view(book.rows[ref]),
        "mutants_link": f"[see the surviving mutants]({page.href(book.prefix + 'mutants.md', mutants_anchor(ref))})",
        "reason": page.inline(book.rows[ref]["reason"]),
        "text": text,
        "plots": pictures.section_blocks(page, ref),
        "restorations": [{"id": r["id"], "label": footnote_label(r["id"]), "find": r["find"], "restore": r["restore"],
                          "evidence": [evidence_view(book, e, page) for e in r.get("evidence") or []],
                          "reasoning": page.inline(" ".join(str(r.get("reasoning") or "").split()))}
                         for r in restorations],
        "other_printings": [{"line": p.get("line"), "line_link": sources.line_link(page, None, p.get("line")),
                             "text": page.text(p.get("text") or "")}
                            for p in section.get("other_printings") or []],
        "printings": printing_views(book, page, section),
        "interpretations": interpretation_views(page, [i for i in book.interpretations if ref in i["refs"]]),
        "findings": finding_views(page, [f for f in book.findings if ref in f["refs"]], checks_by_id),
        "notes": note_views(page, section.get("notes") or [], document),
        "functions": function_views(page, book.functions.get(ref, [])),
        "examples": examples,
        "results_run": book.results is not None,
        "checks": [check_view(page, c) for c in book.checks_of(ref) if c.get("id") not in shown],
        "see_also": [{"label": escape(e["label"]), "link": page.link(e["ref"], e["label"]) if e.get("ref") else None,
                      "ref": e.get("ref"), "missing": bool(e.get("missing_source")), "app": bool(e.get("app"))}
                     for e in section.get("see_also") or []],
        "cited_by": [(page.link(source), how) for source, how in backlinks.get(ref, [])],
        "previous": page.link(previous) if previous else None,
        "next": page.link(following) if following else None,
    }
    return path, env.get_template("section.md.j2").render(context)


def chapter_page(book: Book, env: jinja2.Environment, index: int, backlinks: dict) -> tuple[str, str]:
    chapter = book.chapters[index]
    number = chapter["number"]
    path = book.page_path(number)
    page = Page(book, path, f"chapter {number}")
    rows = [book.rows[ref] for ref in chapter["refs"]]
    context = {
        "page": page,
        "heading": book.label(number),
        "number": number,
        "intro": page.text(chapter["intro"]),
        "notes": note_views(page, chapter["notes"]),
        "summary": coverage.summary(rows),
        "sections": [{"link": page.link(row["ref"]), "row": status_view(row)} for row in rows],
        "interpretations": interpretation_views(page, [i for i in book.interpretations if number in i["refs"]]),
        "cited_by": [(page.link(source), how) for source, how in backlinks.get(number, [])],
        "previous": page.link(book.chapters[index - 1]["number"]) if index > 0 else None,
        "next": page.link(book.chapters[index + 1]["number"]) if index + 1 < len(book.chapters) else None,
    }
    return path, env.get_template("chapter.md.j2").render(context)


def code_page(books: list[Book], env: jinja2.Environment, file: str) -> tuple[str, str]:
    """A whole file with line anchors, after what it holds: rule functions, and checks (site/code_pages.py)."""
    path = code_pages.code_page_path(file)
    page = Page(books[0], path, f"code {file}")
    source = (REPO_ROOT / file).read_text(encoding="utf-8")
    functions = sorted({(f.line, f.qualname, book.qualify(ref), book.document) for book in books
                        for ref, fs in book.functions.items() for f in fs if f.file == file})
    functions = [(line, qualname, page.link(ref), name) for line, qualname, ref, name in functions]

    context = code_pages.page_context(page, books, file, functions, check_view)
    return path, env.get_template("code.md.j2").render(
        {**context, "source": source.rstrip("\n"), "fence": fence(source)})


def code_index_page(books: list[Book], env: jinja2.Environment, code_files: list[str]) -> tuple[str, str]:
    """code/index.md: every code page, by folder."""
    page = Page(books[0], "code/index.md", "code index")
    found = code_pages.locator(books[0].library)
    per_file = {file: len(checks) for file, checks in found.defined_in(books[0].results).items()}
    return page.path, env.get_template("code_index.md.j2").render(
        code_pages.index_context(page, code_files, rule_modules(books), per_file))


def summary_counts(book: Book) -> dict:
    summary = coverage.summary(list(book.rows.values()))
    checks = book.checks()
    counts = tables.counts(checks, "status", "error", tables.STATUS_ORDER)
    return {"coverage": summary, "checks": counts, "checks_total": len(checks)}


def ruleset_home_page(book: Book, env: jinja2.Environment, code_files: list[str]) -> tuple[str, str]:
    path = f"{book.prefix}index.md"
    page = Page(book, path, f"{book.document} home")
    context = {
        "provenance": book.provenance,
        "document": book.document,
        "title": book.title,
        "numbered": book.numbered,
        "home": page.href("index.md"),
        "counts": summary_counts(book),
        "results_run": book.results is not None,
        "chapters": [{"link": page.link(c["number"]), "summary": coverage.summary([book.rows[r] for r in c["refs"]])}
                     for c in book.chapters],
        "interpretations": len(book.interpretations),
        "findings": len(book.findings),
        "restorations": len(book.restorations),
        "examples": len(book.examples),
        "code_files": [{"file": f, "href": page.href(code_pages.code_page_path(f))} for f in code_files],
        "plots": pictures.home_blocks(page),
    }
    return path, env.get_template("ruleset.md.j2").render(context)


def home_page(books: list[Book], env: jinja2.Environment) -> tuple[str, str]:
    """The site's home: every ruleset with its coverage and check counts, computed."""
    page = Page(books[0], "index.md", "home")
    rulesets = [{"name": b.document, "title": b.title,
                 "link": f"[{escape(b.short_title)}]({page.href(b.prefix + 'index.md')})",
                 "source": b.provenance.get("original_name", ""), "counts": summary_counts(b)} for b in books]
    return "index.md", env.get_template("home.md.j2").render(
        {"rulesets": rulesets, "results_run": books[0].results is not None,
         "editions": len(editions.concepts()) if editions.built(books) else 0,
         "statuses": tables.ordered({s for r in rulesets for s in r["counts"]["checks"]}, tables.STATUS_ORDER)})


def ledger_page(book: Book, env: jinja2.Environment) -> tuple[str, str]:
    page = Page(book, f"{book.prefix}ledger.md", "coverage ledger")
    return page.path, env.get_template("ledger.md.j2").render(tables.ledger_context(page, book))


def results_page(book: Book, env: jinja2.Environment) -> tuple[str, str]:
    page = Page(book, f"{book.prefix}results.md", "results")
    return page.path, env.get_template("results.md.j2").render(
        {"run": book.results is not None, "document": book.document, **tables.results_context(page, book)})


def interpretations_page(book: Book, env: jinja2.Environment) -> tuple[str, str]:
    page = Page(book, f"{book.prefix}interpretations.md", "interpretations")
    def first_ref(entry: dict) -> int:
        return min((book.order.get(ref, len(book.order)) for ref in entry["refs"]), default=0)

    entries = sorted(book.interpretations, key=lambda entry: (first_ref(entry), entry["id"]))
    return page.path, env.get_template("interpretations.md.j2").render(
        {"interpretations": interpretation_views(page, entries)})


def findings_page(book: Book, env: jinja2.Environment) -> tuple[str, str]:
    page = Page(book, f"{book.prefix}findings.md", "findings")
    checks_by_id = {str(c.get("id")): c for c in book.checks()}
    entries = sorted(book.findings, key=lambda f: (book.sort_refs(f["refs"])[0] if f["refs"] else "", f["id"]))
    return page.path, env.get_template("findings.md.j2").render(
        {"findings": finding_views(page, entries, checks_by_id)})


def source_page(book: Book, env: jinja2.Environment) -> tuple[str, str]:
    page = Page(book, f"{book.prefix}source.md", "source report")
    report = book.report
    by_line = {(r["ref"], r["find"]): r for r in book.restorations}
    glyphs = []
    for glyph in report.get("lost_glyphs") or []:
        restoration = by_line.get((glyph["ref"], glyph["text"]))
        glyphs.append({"link": page.link(glyph["ref"], glyph["ref"]), "text": glyph["text"],
                       "restore": restoration["restore"] if restoration else None,
                       "id": restoration["id"] if restoration else None})
    context = {
        "provenance": book.provenance,
        "report": report,
        "duplicates": [{"link": page.link(d["ref"]), "lines": d.get("lines") or [], "primary": d.get("primary_line"),
                        "identical": d.get("identical_text")} for d in report.get("duplicates") or []],
        "undefined": [{"ref": u.get("ref"), "cited_by": [page.link(r, r) for r in _as_list(u.get("cited_by"))]}
                      for u in report.get("undefined_citations") or [] if "ref" in u],
        "missing": [{"label": escape(m["label"]),
                     "cited_by": [page.link(r, r) for r in book.sort_refs(_as_list(m.get("cited_by")))]}
                    for m in report.get("missing_sources") or []],
        "glyphs": glyphs,
        "garbled": [{"link": page.link(g["ref"], g["ref"]), "word": g["word"]} for g in report.get("garbled_words") or []],
        "joined": report.get("joined_page_breaks") or [],
        "displaced": [{"link": page.link(d["ref"], d["ref"]), "text": d["text"]}
                      for d in report.get("displaced_fragments") or []],
        "dropped": report.get("dropped") or [],
        "undefined_pages": report.get("undefined_citations") if report.get("chapters") else [],
        "source_link": book.provenance.get("original_name", ""),
        **sources.report_context(page, book),
    }
    return page.path, env.get_template("source.md.j2").render(context)


def _as_list(value: Any) -> list:
    return [] if value is None else list(value) if isinstance(value, (list, tuple)) else [value]


# ---------------------------------------------------------------------------
# Assembling, writing, MkDocs


REFERENCE_PAGES = [("Glossary", "glossary.md"),
                   ("Coverage ledger", "ledger.md"), ("Check results", "results.md"), ("Surviving mutants", "mutants.md"),
                   ("Findings", "findings.md"), ("Interpretations", "interpretations.md"),
                   ("Source report", "source.md")]


def load_reviews(build: Path, stage: Path | None = None) -> list[tuple[str, dict]]:
    """The saved reviews (build/reviews/*.json, written by `rules40k review --save` and `rules40k site`); one of
    the same name in the stage's reviews/ (this build's, not yet in place) is read instead."""
    paths = {path.name: path for folder in (build, stage) if folder is not None
             for path in (folder / "reviews").glob("*.json")}
    out = []
    for path in [paths[name] for name in sorted(paths)]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise SiteError(f"{path} is not valid JSON ({error.msg} at line {error.lineno}).") from None
        if not isinstance(data, dict) or not isinstance(data.get("counts"), dict):
            raise SiteError(f"{path} is not a review (it has no counts); write it with `rules40k review --save`.")
        out.append((path.stem, data))
    return out


def word_diff_html(ops: list[list[str]], context: int = 6) -> str:
    """A word diff as HTML: deletions struck through, insertions underlined, long unchanged runs shortened."""
    parts = []
    for op, words in ops:
        text = html.escape(words)
        if op == "=":
            split = words.split()
            if len(split) > 2 * context:
                text = html.escape(" ".join(split[:context])) + " … " + html.escape(" ".join(split[-context:]))
            parts.append(text)
        else:
            parts.append(f'<{"del" if op == "-" else "ins"}>{text}</{"del" if op == "-" else "ins"}>')
    return " ".join(parts).replace("|", "&#124;")


def _fraction_text(value: Any) -> str:
    try:
        return f"{float(Fraction(str(value))):.3f}"
    except (ValueError, ZeroDivisionError):
        return escape(str(value))


#: The review page's verdict groups: differences, real agreement, the agreements that cannot tell, the claims not
#: compared (the group's title, its verdicts).
VERDICT_GROUPS = (("Differences", ("differs",)), ("Agreements", ("agrees",)),
                  ("No difference found, but the comparison cannot tell", ("agrees-on-few", "cannot-tell")),
                  ("Not compared", ("absent-from-core", "left-to-app", "not-encoded")))


def _verdict_groups(verdicts: list[dict]) -> list[dict]:
    groups = [{"title": title, "verdicts": [v for v in verdicts if v["status"] in statuses]}
              for title, statuses in VERDICT_GROUPS]
    return [group for group in groups if group["verdicts"]]


def review_page(books: list[Book], env: jinja2.Environment, slug: str, data: dict,
                plot: str | None) -> tuple[str, str]:
    """One saved review, rendered: counts, then each part; nothing is decided here."""
    path = f"reviews/{slug}.md"
    library = books[0].library
    home = library.get(spec.DEFAULT_RULESET) or books[0]
    page = Page(home, path, f"review {slug}")
    ruleset = data.get("ruleset", "")
    if data.get("kind") == "variants":  # an in-tree version against its ruleset (m41@006 against m41@007)
        from rules40k_site import variant_review

        book = library.get(ruleset) or home
        page = Page(book, path, f"review {slug}")
        link = lambda ref: page.link(spec.qualify(ruleset, ref)) if book.page_path(spec.qualify(ruleset, ref)) else escape(ref)  # noqa: E731
        shown = posixpath.relpath(plot, "reviews") if plot else None
        return path, env.get_template("variant_review.md.j2").render(variant_review.context(data, link, escape, shown))

    def link(ref: str) -> str:
        qualified = ref if ":" in ref or data.get("kind") == "rulesets" else spec.qualify(ruleset, ref)
        return page.link(qualified) if home.page_path(qualified) or ":" not in qualified else escape(ref)

    text_entries = []
    for kind in ("added", "removed", "changed"):
        for entry in data["text"].get(kind, []):
            text_entries.append({"kind": kind, "link": link(entry["ref"]),
                                 "diff": word_diff_html(entry["diff"]) if entry.get("diff") else ""})
    for entry in data["text"].get("renumbered", []):
        text_entries.append({"kind": f"renumbered from {escape(entry['old'])}", "link": link(entry["new"]),
                             "diff": word_diff_html(entry["diff"]) if entry.get("diff") else ""})
    concept = data.get("concept_text") or {}
    derived = ruleset.split(" ")[0] if data.get("kind") == "rulesets" else ""
    pairs = [{"link": link(f"{derived}:{p['claim']}"), "core": [link(r) for r in p["core"]],
              "diff": word_diff_html(p["diff"])} for p in concept.get("pairs", []) if p.get("diff")]
    tables = []
    for name, table in data["tables"].get("changed", {}).items():
        shown = table["cells"][:60]
        changed = table.get("changed", len(table["cells"]))
        tables.append({"name": name, "refs": [link(r) for r in table.get("refs", [])], "total": table.get("total", "?"),
                       "changed": changed, "more": changed - len(shown),
                       "cells": [{"label": c["label"], "old": c["old"], "new": c["new"]} for c in shown]})
    outcomes = None
    if data.get("outcomes") and not data["outcomes"].get("applies", True):
        outcomes = {"summary": escape(f"The sweep of matchups does not apply: {data['outcomes']['why']}."),
                    "plot": None, "moved": []}
    elif data.get("outcomes"):
        moved = [m for m in data["outcomes"].get("changed", []) if m.get("shift") is not None][:25]
        counts = data["outcomes"].get("counts", {})
        outcomes = {"summary": escape(f"{counts.get('changed', 0)} of {counts.get('total', 0)} matchups moved: "
                                      f"{counts.get('increased', 0)} up, {counts.get('decreased', 0)} down."),
                    "plot": posixpath.relpath(plot, "reviews") if plot else None,
                    "moved": [{"id": m["id"], "old": _fraction_text(m["old"]), "new": _fraction_text(m["new"]),
                               "shift": _fraction_text(m["shift"])} for m in moved]}
    kind_rulesets = data.get("kind") == "rulesets"
    context = {
        "title": f"Review: {data.get('old', '?')} → {data.get('new', '?')}"
                 + (f" ({ruleset})" if ruleset and not kind_rulesets else ""),
        "summary": escape("Nothing changed." if data.get("unchanged") else
                          ", ".join(f"{k}: {v}" for k, v in data["counts"].items() if v) + "."),
        "counts": [(escape(k), v) for k, v in data["counts"].items()],
        "derived": derived,
        "verdict_groups": _verdict_groups([{"link": link(v["refs"][0]), "status": v["status"],
                                            "core": [link(r) for r in v["refs"][1:]], "detail": escape(v["detail"])}
                                           for v in data.get("verdicts", [])]),
        "text_entries": text_entries, "pairs": pairs, "tables": tables,
        "old_label": "claim" if kind_rulesets else "before", "new_label": "Core Rules" if kind_rulesets else "after",
        "checks": [{"id": c["id"], "old": c["old"], "new": c["new"], "name": escape(c.get("name", ""))}
                   for c in data["checks"].get("changed", [])],
        "findings": [{"id": f["id"], "how": kind} for kind in ("appeared", "disappeared")
                     for f in data["findings"].get(kind, [])],
        "stale": [{"link": link(e["ref"]), "why": escape(e["why"])} for e in data["stale"]["text_changed_code_not"]],
        "silent": [{"link": link(e["ref"]), "evidence": e["evidence"]} for e in data["stale"]["behaviour_changed_text_not"]],
        "outcomes": outcomes,
    }
    return path, env.get_template("review.md.j2").render(context)


def reviews_index(reviews: list[tuple[str, dict]], env: jinja2.Environment) -> tuple[str, str]:
    rows = [{"title": f"{d.get('old', '?')} → {d.get('new', '?')}", "href": f"{slug}.md",
             "summary": escape("nothing changed" if d.get("unchanged") else
                               ", ".join(f"{k}: {v}" for k, v in d["counts"].items() if v))} for slug, d in reviews]
    return "reviews/index.md", env.get_template("reviews.md.j2").render({"reviews": rows})


def rule_modules(books: list[Book]) -> list[str]:
    """The rule modules: every repository file holding a rule function."""
    return sorted({f.file for book in books for fs in book.functions.values() for f in fs if code_pages.code_page_path(f.file)})


def modules(books: list[Book]) -> list[str]:
    """Every file that gets a code page: the rule modules, the modules they stand on, the files the checks are
    written in and call (site/code_pages.py)."""
    files = code_pages.files(books, rule_modules(books))
    if books:
        code_pages.locator(books[0].library).files = set(files)  # check links go only to pages that exist
    return files


def render(books: list[Book], reviews: list[tuple[str, dict]], plots: dict[str, str],
           code_files: list[str]) -> dict[str, str]:
    """Every page of every ruleset's area, the reviews, the code pages (of ``code_files``, see ``modules``) and
    the home page, by path under docs/."""
    env = environment()
    pages: dict[str, str] = {}
    for book in books:
        backlinks = cited_by(book)
        checks_by_id = {str(c.get("id")): c for c in (book.results or {}).get("checks", [])}
        refs = list(book.sections)
        for index, ref in enumerate(refs):
            previous = refs[index - 1] if index > 0 else None
            following = refs[index + 1] if index + 1 < len(refs) else None
            path, text = section_page(book, env, ref, previous, following, backlinks, checks_by_id)
            pages[path] = text
        for index in range(len(book.chapters)):
            path, text = chapter_page(book, env, index, backlinks)
            pages[path] = text
        for make in (ledger_page, results_page, mutants_page, findings_page, interpretations_page, source_page,
                     glossary.glossary_page):
            path, text = make(book, env)
            pages[path] = text
        path, text = ruleset_home_page(book, env, rule_modules([book]))
        pages[path] = text
        pages.update(sources.text_pages(book, env))
    for file in code_files:
        path, text = code_page(books, env, file)
        pages[path] = text
    if code_files:
        path, text = code_index_page(books, env, code_files)
        pages[path] = text
    pages.update(pictures.images(books))  # the SVG images the section and home pages show (site/plots.py)
    path, text = home_page(books, env)
    pages[path] = text
    try:
        pages.update(editions.pages(books, Page, escape))  # the Edition comparison area (spec/editions.yaml)
    except editions.EditionsError as error:
        raise SiteError(str(error)) from None
    for slug, data in reviews or []:
        plot = (plots or {}).get(slug)
        path, text = review_page(books, env, slug, data, plot)
        pages[path] = text
    path, text = reviews_index(reviews or [], env)
    pages[path] = text
    pages = {path: text.rstrip("\n") + "\n" for path, text in pages.items()}
    for path, meta in search_meta(books, code_files, pages).items():
        pages[path] = "---\n" + yaml.safe_dump(meta, sort_keys=True, allow_unicode=True, width=1000) + "---\n\n" + pages[path]
    pages["index.json"] = json.dumps(index_data(books, code_files), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    for asset in sorted(ASSETS.iterdir()):
        pages[f"assets/{asset.name}"] = asset.read_text(encoding="utf-8")
    return pages


#: Reference pages whose long tables and prose would swell the search index that every first visit loads (the
#: sections they list are indexed on their own), like the code pages and the errata reviews.
UNINDEXED_PAGES = ("ledger.md", "results.md", "mutants.md", "source.md", "interpretations.md", "findings.md",
                   "glossary.md")
_BRACKETED = re.compile(r"\[([A-Z][A-Z0-9 \-'+]*)\]")


def search_meta(books: list[Book], code_files: list[str], pages: dict[str, str]) -> dict[str, dict]:
    """Front matter for search: a section or chapter is tagged with its reference, its bracketed ability names, the
    glossary terms it defines and the names of the functions that encode it (tags outrank body text, so "05.02",
    "Lethal Hits", "Engagement Range" or ``wound_roll_target`` find that page first); code pages and the long
    tables are left out of the index."""
    meta: dict[str, dict] = {}
    for book in books:
        # the Core Rules' sections and chapters before the documents checked against them
        boost = {"search": {"boost": 2}} if book.document == spec.DEFAULT_RULESET else {}
        defines: dict[str, list[str]] = {}  # the glossary's terms by the section or chapter that defines them
        for term in glossary.glossary_of(book).terms:
            defines.setdefault(term.ref, []).append(term.name)
        for ref, section in book.sections.items():
            names = _BRACKETED.findall(section["title"]) + _BRACKETED.findall(section.get("heading") or "")
            # a printed number is what a reader types; a slug ("usr/battle-shock-tests") is not, and its words
            # would outrank the section that defines them
            number = [ref] if spec.SECTION_REF.match(ref) else []
            tags = [*number, *names, *defines.get(ref, []),
                    *(f.qualname.rpartition(".")[2] for f in book.functions.get(ref, []))]
            meta[book.page_path(ref)] = {"tags": list(dict.fromkeys(tags)), **boost}
        for chapter in book.chapters:
            meta[book.page_path(chapter["number"])] = {"tags": [chapter["number"], *defines.get(chapter["number"], [])],
                                                       **boost}
        for name in UNINDEXED_PAGES:
            if f"{book.prefix}{name}" in pages:
                meta[f"{book.prefix}{name}"] = {"search": {"exclude": True}, **tables.FRONT_MATTER.get(name, {})}
    for path in [*map(code_pages.code_page_path, code_files), *(p for p in pages if p.startswith("reviews/"))]:
        meta[path] = {"search": {"exclude": True}}
    for path in map(code_pages.code_page_path, code_files):
        meta[path]["hide"] = ["toc"]  # a whole file needs the page's width (site/code_pages.py)
    return meta


def nav(books: list[Book], code_files: list[str], reviews: list[tuple[str, dict]] | None = None) -> list:
    """The MkDocs nav: each ruleset's area (its home, chapters with their sections, reference pages), then the code."""
    areas = []
    for book in books:
        chapters = []
        for chapter in book.chapters:
            entries = [book.page_path(chapter["number"])]  # titled by its heading, shown as the section itself
            entries += [{book.label(ref): book.page_path(ref)} for ref in chapter["refs"]]
            chapters.append({book.label(chapter["number"]): entries})
        reference = [{title: f"{book.prefix}{path}"} for title, path in REFERENCE_PAGES]
        areas.append({book.short_title: [f"{book.prefix}index.md", *chapters, *reference, *sources.nav_entries(book)]})
    code = code_pages.nav(code_files)
    errata = [{"Errata reviews": ["reviews/index.md", *({f"{d.get('old', '?')} → {d.get('new', '?')}": f"reviews/{slug}.md"}
                                                        for slug, d in reviews or [])]}]
    return [{"Home": "index.md"}, *areas, *editions.nav_entries(books), *errata, *code]


def index_data(books: list[Book], code_files: list[str]) -> dict:
    """build/docs/index.json: every page with its ruleset, reference, title, status and URL."""
    pages = [{"kind": "page", "ruleset": None, "ref": None, "title": "Home", "status": None, "path": "index.md",
              "url": "index.html"}]
    for book in books:
        for title, name in [("Home", "index.md"), *REFERENCE_PAGES]:
            path = f"{book.prefix}{name}"
            pages.append({"kind": "page", "ruleset": book.document, "ref": None, "title": title, "status": None,
                          "path": path, "url": url_of(path)})
        for chapter in book.chapters:
            statuses = sorted({book.rows[ref]["status"] for ref in chapter["refs"]})
            status = statuses[0] if len(statuses) == 1 else "mixed" if statuses else None
            path = book.page_path(chapter["number"])
            pages.append({"kind": "chapter", "ruleset": book.document, "ref": chapter["number"],
                          "title": book.label(chapter["number"]), "status": status, "path": path, "url": url_of(path)})
        for ref, section in book.sections.items():
            path = book.page_path(ref)
            pages.append({"kind": "appendix" if ref.startswith("appendix/") else "section", "ruleset": book.document,
                          "ref": ref, "title": book.label(ref), "printed_title": section["title"],
                          "chapter": section["chapter"]["number"], "status": book.rows[ref]["status"],
                          "path": path, "url": url_of(path)})
    for file in code_files:
        path = code_pages.code_page_path(file)
        pages.append({"kind": "code", "ruleset": None, "ref": None, "title": file, "status": None, "path": path,
                      "url": url_of(path)})
    return {"rulesets": [b.document for b in books], "pages": pages}


def write_docs(stage: Path, pages: dict[str, str]) -> Path:
    """Write the pages into the stage's docs/ (put in place with the rest of the build when it succeeds)."""
    docs = stage / "docs"
    for path in sorted(pages):
        target = docs / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(pages[path], encoding="utf-8", newline="\n")
    return docs


#: An address the site may be published at: http(s), a host name or address and an optional port, and a path of the
#: characters a URL path may hold unescaped, less the quote and the query and fragment marks (the address is
#: written into the sitemap and every page's canonical link).
SITE_URL = re.compile(r"https?://(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?"
                      r"(?:/[A-Za-z0-9._~!$&()*+,;=:@%/-]*)?")


def check_site_url(site_url: str) -> str:
    """``--site-url`` as the site's configuration takes it (ending in /), or a SiteError before any work."""
    if not SITE_URL.fullmatch(site_url):
        raise SiteError(f"--site-url {annotations.shown(site_url)} is not an http:// or https:// address (a host, "
                        "an optional port and a path, without quotes, spaces, ? or #)")
    return site_url if site_url.endswith("/") else site_url + "/"


#: The repository's top-level folders that hold its sources, when git cannot list them (see source_folders).
SOURCE_FOLDERS = frozenset({"examples", "properties", "reports", "rules", "rules40k", "site", "spec", "tests"})


def source_folders() -> set[str]:
    """The repository's top-level folders that hold its sources: each folder git tracks a file in, and
    SOURCE_FOLDERS (the build/ folder is the build's own)."""
    folders = set(SOURCE_FOLDERS)
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], capture_output=True, cwd=REPO_ROOT, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return folders
    if listed.returncode == 0:
        folders |= {name.split("/", 1)[0] for name in listed.stdout.decode("utf-8", "replace").split("\0")
                    if "/" in name}
    return folders - {"build"}


def check_build_place(build: Path) -> None:
    """A build folder of its own: not the repository's folder nor one holding it (the build writes mkdocs.yml,
    docs/, site/ and results.json into its folder and replaces the ones it finds there), and not inside a folder
    of the repository's sources or a hidden one (.git)."""
    build, root = Path(build).resolve(), REPO_ROOT.resolve()
    if build == root or build in root.parents:
        raise SiteError(f"{build}: is the repository's own folder{'' if build == root else ' or holds it'}, where "
                        "the build would write mkdocs.yml, docs/ and site/; choose a folder of its own (the "
                        "default is build/)")
    if root in build.parents:
        top = build.relative_to(root).parts[0]
        if top.startswith(".") or top in source_folders():
            raise SiteError(f"{build}: is inside the repository's {top}/ folder; choose a folder of its own (the "
                            "default is build/)")


def write_config(stage: Path, base: Path, nav_entries: list, site_url: str | None = None) -> Path:
    """stage/mkdocs.yml, for a build in ``base``: INHERITs the repository's mkdocs.yml (by a path relative to
    ``base``) and adds what only this build knows."""
    try:
        parent = os.path.relpath(MKDOCS_CONFIG, base.resolve())
    except ValueError:  # another drive on Windows
        parent = str(MKDOCS_CONFIG)
    config = {"INHERIT": Path(parent).as_posix(), "docs_dir": "docs", "site_dir": "site", "nav": nav_entries}
    if site_url:
        config["site_url"] = check_site_url(site_url)
    text = ("# Written by rules40k_site.generate for this build; edit the repository's mkdocs.yml instead.\n"
            + yaml.safe_dump(config, sort_keys=False, allow_unicode=True, width=1000))
    path = stage / "mkdocs.yml"
    path.write_text(text, encoding="utf-8", newline="\n")
    return path


#: The folder a build writes everything into before it is put in place (or that a killed build left: the next
#: build removes it, with anything ``atomic.put_in_place`` had moved aside). Earlier builds' names are removed too.
STAGE_PREFIX = ".build-"
LEFTOVERS = (STAGE_PREFIX, atomic.OLD_PREFIX, ".docs-", ".site-tmp-", ".site-old-")


@contextlib.contextmanager
def staged_build(build: Path):
    """A new stage folder in the build folder for one build's outputs (results.json, reviews/, docs/, mkdocs.yml,
    site/), removed when the block ends: after ``build`` has put its contents in place, or unused after an error
    or an interrupt, which so leave every earlier output as it was."""
    build = Path(build).resolve()
    check_build_folder(build)
    for prefix in LEFTOVERS:
        for stale in [*build.glob(prefix + "*"), *build.glob(f"reviews/{prefix}*")]:
            if stale.is_dir():
                shutil.rmtree(stale)
            else:
                stale.unlink()
    stage = atomic.temporary_folder(STAGE_PREFIX, build)
    try:
        yield stage
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _source_date() -> str:
    """The time of the repository's last commit (seconds), which MkDocs writes as the sitemap's date instead of
    today's, so a rebuild of the same sources is byte-identical on any day; "0" outside a git checkout."""
    try:
        result = subprocess.run(["git", "log", "-1", "--format=%ct"], capture_output=True, text=True,
                                cwd=spec.SPEC_ROOT.parent, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "0"
    stamp = result.stdout.strip()
    return stamp if result.returncode == 0 and stamp.isdigit() else "0"


def mkdocs_build(config: Path, section_urls: set[str] | None = None) -> Path:
    """``mkdocs build --strict`` of the stage's docs into the stage's site/; a broken link or a page left out of
    the nav is a SiteError."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.setdefault("SOURCE_DATE_EPOCH", _source_date())  # the sitemap's date, the same on every day's rebuild
    site = config.parent / "site"
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config),
               "--site-dir", str(site)]
    result = interrupts.run([command], env=env, cwds=[config.parent])[0]  # killed with rules40k, SIGKILL included
    if result.returncode != 0:
        output = (result.stderr + result.stdout).splitlines()
        problems = [line.strip() for line in output if line.lstrip().startswith(("WARNING", "ERROR"))]
        problems = problems or [line.strip() for line in output[-5:] if line.strip()]
        raise SiteError(f"mkdocs build --strict failed for {config}: " + " | ".join(problems))
    trim_search_index(site, section_urls or set())
    not_found.relative_links(site)  # 404.html: relative links, so it works from a file and at any depth
    return site


#: What the search index keeps of a section page: its title, status line, rule text and what the book prints
#: beside it. The verification below it (code, examples, checks) is found through its own pages, and would
#: otherwise make the index that every first visit loads several megabytes.
SEARCHED_PARTS = ("", "rule-text", "printed-beside-the-rule")
ATTRIBUTION_START = "<p>Quoted verbatim from"  # section.md.j2's attribution line, the end of what is searched


def trim_search_index(site: Path, sections: set[str]) -> None:
    """Keep of each section page's search entries only SEARCHED_PARTS, in search_index.json and in the offline
    plugin's search_index.js (the same index as a script, for file:// copies)."""
    index_file = site / "search" / "search_index.json"
    if not index_file.is_file():
        return
    index = json.loads(index_file.read_text(encoding="utf-8"))
    kept = []
    for entry in index["docs"]:
        page, _, anchor = entry["location"].partition("#")
        if page not in sections:
            kept.append(entry)
        elif anchor in SEARCHED_PARTS:
            # the page's own entry is found by its title and tags (its text is only the status line); the rule
            # text ends where the attribution below the quote begins
            text = "" if not anchor else entry["text"].split(ATTRIBUTION_START, 1)[0].rstrip()
            kept.append({**entry, "text": text})
    index["docs"] = kept
    data = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    index_file.write_text(data, encoding="utf-8")
    script = site / "search" / "search_index.js"
    if script.is_file():
        script.write_text(f"var __index = {data}", encoding="utf-8")


def check_build_folder(build: Path) -> None:
    """The build folder is a folder of its own (check_build_place; created if missing, in a folder that exists);
    ``touch build`` in a fresh clone is one sentence, and so is anything but a regular file where the build writes
    one."""
    check_build_place(build)
    if build.exists() and not build.is_dir():
        raise SiteError(f"{build}: the build folder is a file; move it away or choose another with --build")
    for part in ("docs", "site", "reviews"):
        if (build / part).exists() and not (build / part).is_dir():
            raise SiteError(f"{build / part}: is a file where the build writes a folder; move it away")
    for part in ("results.json", "mkdocs.yml"):
        if (build / part).exists() and not (build / part).is_file():
            raise SiteError(f"{build / part}: is not a regular file where the build writes one; move it away")
    if not build.exists() and not build.parent.is_dir():  # the build folder may be created, its parents never
        raise SiteError(f"{build}: its folder {build.parent} does not exist")
    try:
        build.mkdir(exist_ok=True)
    except OSError as error:
        raise SiteError(f"{build}: the build folder cannot be created ({error.strerror})") from None


def build(build: Path, rulesets: list[str] | None = None, run_mkdocs: bool = True, site_url: str | None = None,
          stage: Path | None = None) -> Path:
    """Write build/docs (Markdown pages and index.json) and build/mkdocs.yml, then build/site with MkDocs.

    ``rulesets`` limits the areas built (default: every ruleset in spec/rulesets.yaml). Returns build/site, or
    build/docs when ``run_mkdocs`` is false (build/site is then left as it is). Everything is written into a stage
    folder first and put in place together only when the whole build has succeeded (``atomic.put_in_place``): a
    failed or interrupted build leaves every earlier output byte for byte. ``stage``: the caller's own
    (``staged_build``), into which it has written this build's results.json and reviews, read here in place of
    the build folder's and put in place with the rest; without it, one is made and what a killed build left
    behind is removed first.
    """
    if stage is None:
        with staged_build(build) as own:
            return _build_in(Path(build).resolve(), own, rulesets, run_mkdocs, site_url)
    return _build_in(Path(build).resolve(), stage, rulesets, run_mkdocs, site_url)


def _build_in(build: Path, stage: Path, rulesets: list[str] | None, run_mkdocs: bool, site_url: str | None) -> Path:
    names = rulesets or list(spec.rulesets())
    results = load_results(stage if (stage / "results.json").exists() else build)
    library: dict[str, Book] = {}
    from rules40k import mutate

    mutation = mutate.measured()  # one reading for every ruleset's pages
    books = [load(name, build, results, library, mutation) for name in names]
    for book in books:
        check_references(book)
    reviews = load_reviews(build, stage)
    plots, images = {}, {}
    for slug, _ in reviews:
        image = next((folder / "reviews" / f"{slug}.svg" for folder in (stage, build)
                      if (folder / "reviews" / f"{slug}.svg").is_file()), None)
        if image is not None:
            plots[slug], images[slug] = f"reviews/{slug}.svg", image
    code_files = modules(books)
    pages = render(books, reviews, plots, code_files)
    for slug, target in plots.items():
        pages[target] = images[slug].read_text(encoding="utf-8")
    docs = write_docs(stage, pages)
    entries = nav(books, code_files, reviews)
    moves = [(path, build / path.relative_to(stage)) for path in
             [stage / "results.json", *sorted((stage / "reviews").glob("*"))] if path.exists()]
    if moves and (stage / "reviews").is_dir():
        (build / "reviews").mkdir(exist_ok=True)
    moves.append((docs, build / "docs"))
    if run_mkdocs:
        site = mkdocs_build(write_config(stage, stage, entries, site_url),
                            {url_of(book.page_path(ref)) for book in books for ref in book.sections})
        moves.append((site, build / "site"))
    moves.append((write_config(stage, build, entries, site_url), build / "mkdocs.yml"))
    atomic.put_in_place(moves)
    return build / ("site" if run_mkdocs else "docs")


def serve(site: Path, port: int = 8000) -> int:
    """Serve the built site on http://127.0.0.1:PORT/ until interrupted (the same files a file:// copy opens)."""
    import functools
    import http.server

    handler = functools.partial(not_found.Handler, directory=str(site))  # a missing file gets 404.html
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as error:
        raise SiteError(f"cannot serve on port {port}: {error.strerror}") from None
    print(f"Serving {site} on http://127.0.0.1:{port}/ (Ctrl-C stops)", flush=True)
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:  # Ctrl-C is how serving ends: the site was built, so the run ends well (0)
            interrupts.received.clear()
    return 0

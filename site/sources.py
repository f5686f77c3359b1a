"""Source documents on the site: each ruleset's ingested text on pages with a link per line, links from every piece
of evidence to the line it cites, and the book's bold and underlining kept where the rules are quoted.

The ingest (rules40k/ingest.py) stores rule text without the extraction's markup (``**bold**``, ``<u>...</u>``).
The site puts that markup back at render time from the source lines themselves, so the stored text is never
changed: a line of rule text that is exactly the cleaned form of one source line gets that line's markup.

Markup travels through the escaping of ``Page.inline`` as private-use characters (like the restoration marks in
generate.py) and becomes HTML at the end of it.
"""

from __future__ import annotations

import hashlib
import html
import posixpath
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules import spec
from rules40k import ingest

if TYPE_CHECKING:  # generate imports this module; the types are only for reading
    from rules40k_site.generate import Book, Page

BOLD_START, BOLD_END, UNDERLINE_START, UNDERLINE_END = "\ue020", "\ue021", "\ue022", "\ue023"
_MARKERS = {BOLD_START: "<strong>", BOLD_END: "</strong>", UNDERLINE_START: "<u>", UNDERLINE_END: "</u>"}
_PAIRS = {BOLD_START: BOLD_END, UNDERLINE_START: UNDERLINE_END}
_UNDERLINE = re.compile(r"</?u>")
# The extraction's italics (as ingest reads them), shown on the text pages only.
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])")

#: A text page holds at most this many lines and, where a section starts late enough, breaks before it.
PAGE_LINES = 300
MIN_PAGE_LINES = 100

class SourceError(ValueError):
    """Evidence cites a line its document does not have; generate turns it into a SiteError."""


# ---------------------------------------------------------------------------
# The book's markup as markers


def emphasis(text: str) -> str:
    """``**bold**`` and ``<u>underline</u>`` as markers. A line with an odd number of ``**`` lost one to the
    extraction or is a quote cut inside a bold run: a first ``**`` that ends a word closes a run opened where the
    line's words start ("- 1. Select Enemy Unit:** Select ..."); otherwise the last run closes at the end."""
    if "**" in text:
        parts = text.split("**")
        bold = len(parts) % 2 == 0 and parts[0].strip() != "" and not parts[0][-1].isspace()
        if bold:
            lead = re.match(r"\s*(?:- )?", parts[0]).group(0)
            out = [lead + BOLD_START + parts[0][len(lead):]]
        else:
            out = [parts[0]]
        for part in parts[1:]:
            out.append(BOLD_END if bold else BOLD_START)
            bold = not bold
            out.append(part)
        if bold:
            out.append(BOLD_END)
        text = "".join(out).replace(BOLD_START + BOLD_END, "")
    if "<u>" in text or "</u>" in text:
        tags = _UNDERLINE.findall(text)
        if tags == ["<u>", "</u>"] * (len(tags) // 2):
            text = text.replace("<u>", UNDERLINE_START).replace("</u>", UNDERLINE_END)
        else:
            text = _UNDERLINE.sub("", text)
    return text


def strip_markers(text: str) -> str:
    return text.translate({ord(marker): None for marker in _MARKERS})


def to_html(text: str) -> str:
    """Markers as HTML tags (in Markdown, inline HTML passes through and the text inside is still Markdown)."""
    for marker, tag in _MARKERS.items():
        text = text.replace(marker, tag)
    return text


def balanced(text: str) -> bool:
    """Whether the markers open and close in nested pairs (a table cell or a line must not end inside a run)."""
    stack: list[str] = []
    for ch in text:
        if ch in _PAIRS:
            if ch in stack:
                return False
            stack.append(ch)
        elif ch in _MARKERS:
            if not stack or _PAIRS[stack.pop()] != ch:
                return False
    return not stack


def marked_line(raw: str) -> str | None:
    """The cleaned line (as ingest stores it) with the raw line's markup as markers; None when the markup cannot
    be carried over whole (it would straddle a table cell or change the words)."""
    clean = ingest.clean_line(raw)
    marked = ingest.clean_line(emphasis(raw))
    if marked == clean or strip_markers(marked) != clean:
        return None
    if clean.startswith("- ") and not marked.startswith("- "):
        return None
    if not all(balanced(cell) for cell in marked.split(" | ")):
        return None
    return marked


# ---------------------------------------------------------------------------
# A ruleset's document


@dataclass
class SourceText:
    """A document spec/sources/ keeps for a ruleset: its lines, the text pages they are split into, and the markup
    of its lines. Its folder is ``text`` for the ruleset's own document, ``text-<printing>`` for another printing."""

    document: str  # the ruleset
    folder: str
    file: str  # under spec/sources/
    original_name: str  # the seed file it is a copy of
    title: str
    sha256: str
    lines: list[str]
    pages: list[tuple[int, int]]  # first and last line of each text page
    marks: dict[str, str] = field(default_factory=dict)  # cleaned line -> the same with the book's markup

    @property
    def own(self) -> bool:
        return self.folder == "text"

    def page_of(self, line: int) -> tuple[int, int]:
        for first, last in self.pages:
            if first <= line <= last:
                return first, last
        raise SourceError(f"line {line} of {self.original_name or self.file}, which has {len(self.lines)} lines")


_CACHE: dict[tuple, SourceText] = {}


def _read(document: str, folder: str, provenance: dict, starts: tuple[int, ...]) -> SourceText | None:
    """A kept document (cached by its file's size and time), or None when its file is not there."""
    path = spec.SPEC_ROOT / "sources" / provenance["file"]
    try:
        stat = path.stat()
    except OSError:
        return None
    key = (document, folder, str(path), stat.st_mtime_ns, stat.st_size, starts)
    if key not in _CACHE:
        data = path.read_bytes()
        lines = data.decode("utf-8").split("\n")
        if lines and lines[-1] == "":
            lines.pop()  # the final newline ends the last line; it does not start another
        _CACHE[key] = SourceText(
            document=document, folder=folder, file=path.name,
            original_name=provenance.get("original_name") or path.name, title=provenance.get("title") or path.name,
            sha256=hashlib.sha256(data).hexdigest(), lines=lines, pages=page_ranges(len(lines), list(starts)),
            marks=_marks(lines))
    return _CACHE[key]


def section_starts(book: "Book", printing: str | None = None) -> dict[int, list[str]]:
    """Line -> the sections printed from that line of one printing's document (None: the ruleset's own): a section
    only another printing has starts on a line of that printing, never of the ruleset's own document. Worked out
    once per book and printing: every marked line of every page asks."""
    memo = getattr(book, "memo", None)
    if memo is not None and ("starts", printing) in memo:
        return memo[("starts", printing)]
    starts: dict[int, list[str]] = {}
    for ref, section in book.sections.items():
        if printing is None:
            line = None if section.get("printing") else section.get("line")
        elif section.get("printing") == printing:
            line = section.get("line")
        else:
            line = ((section.get("printings") or {}).get(printing) or {}).get("line")
        if isinstance(line, int):
            starts.setdefault(line, []).append(ref)
    if memo is not None:
        memo[("starts", printing)] = starts
    return starts


def printing_document(book: "Book", printing: str | None) -> str | None:
    """The seed file another printing of the ruleset was kept from (as evidence names it), None for the ruleset's
    own document, or when no copy of that printing is kept."""
    if printing is None:
        return None
    for provenance in spec.held_documents().values():
        if provenance.get("document") == book.document and provenance.get("printing") == printing:
            return str(provenance.get("original_name"))
    return None


def source_text(book: "Book") -> SourceText | None:
    """The document a ruleset was ingested from (spec/sources/<ruleset>.txt); None when it is not there."""
    starts = tuple(sorted(section_starts(book)))
    provenance = {**book.provenance, "file": book.provenance.get("file") or f"{book.document}.txt",
                  "title": book.source_title}
    return _read(book.document, "text", provenance, starts)


def printings(book: "Book") -> list[SourceText]:
    """The other printings of a ruleset's rules that spec/sources/ keeps (``rules40k ingest --printing``), by
    printing name: evidence quotes them, their sections are not ingested."""
    out = []
    for provenance in spec.held_documents().values():
        if provenance.get("document") == book.document and provenance.get("printing"):
            starts = tuple(sorted(section_starts(book, provenance["printing"])))
            text = _read(book.document, f"text-{provenance['printing']}", provenance, starts)
            if text is not None:
                out.append(text)
    return sorted(out, key=lambda text: text.folder)


def texts(book: "Book") -> list[SourceText]:
    """Every document shown in a ruleset's area: its own first, then its other printings."""
    own = source_text(book)
    return ([own] if own is not None else []) + printings(book)


def page_ranges(total: int, starts: list[int]) -> list[tuple[int, int]]:
    """Split lines 1..total into pages of at most PAGE_LINES lines, each breaking before the last section start
    that leaves the page at least MIN_PAGE_LINES long (so a section's text is usually on one page)."""
    starts = sorted({s for s in starts if 1 < s <= total})
    ranges, first = [], 1
    while first <= total:
        limit = first + PAGE_LINES
        if limit > total:
            ranges.append((first, total))
            break
        fits = [s for s in starts if first + MIN_PAGE_LINES <= s <= limit]
        following = fits[-1] if fits else limit
        ranges.append((first, following - 1))
        first = following
    return ranges or [(1, 0)]


def _marks(lines: list[str]) -> dict[str, str]:
    """Cleaned line -> marked line, for lines whose markup carries over; a cleaned line printed twice with
    different markup gets none."""
    marks: dict[str, str] = {}
    clashes: set[str] = set()
    for raw in lines:
        if "**" not in raw and "<u>" not in raw:
            continue
        marked = marked_line(raw)
        if marked is None:
            continue
        clean = strip_markers(marked)
        if marks.get(clean, marked) != marked:
            clashes.add(clean)
        marks[clean] = marked
    return {clean: marked for clean, marked in marks.items() if clean not in clashes}


def mark(book: "Book", line: str) -> str:
    """A line of rule text (as stored) with the book's bold and underlining, when it is a line of the document."""
    text = source_text(book)
    return text.marks.get(line, line) if text is not None else line


# ---------------------------------------------------------------------------
# Pages and links


def text_page_path(book: "Book", text: SourceText, first: int) -> str:
    return f"{book.prefix}{text.folder}/{first:04d}.md"


def holder(book: "Book", name: str | None) -> tuple["Book", SourceText] | None:
    """The ruleset of this build that shows a seed document, with its text: this one when it keeps the document,
    else the one spec.held_documents names for it; None when that ruleset is not in the build (or, for ``name``
    None, the ruleset's own document is not kept)."""
    if name is None:
        own = source_text(book)
        return (book, own) if own is not None else None
    kept = spec.held_documents().get(name)
    for candidate in [book, book.library.get(kept["document"]) if kept else None]:
        for text in texts(candidate) if candidate is not None else []:
            if text.original_name == name:
                return candidate, text
    return None


def line_href(page: "Page", name: str | None, line: int) -> str | None:
    """The Markdown link target of a line of a seed document (None: this ruleset's own), or None if no page
    shows that document. Raises SourceError for a line the document does not have."""
    found = holder(page.book, name)
    if found is None:
        return None
    book, text = found
    first, _ = text.page_of(int(line))
    return page.href(text_page_path(book, text, first), f"L{line}")


def line_link(page: "Page", name: str | None, line: Any, label: str | None = None) -> str:
    """"line 603" as a Markdown link to that line of the document's text page (plain text if none shows it)."""
    label = label or f"line {line}"
    if not isinstance(line, int):
        return label
    try:
        href = line_href(page, name, line)
    except SourceError as error:
        from rules40k_site.generate import SiteError

        raise SiteError(f"The {page.name} page cites {error}.") from None
    return f"[{label}]({href})" if href else label


def title_of(book: "Book", name: str) -> str:
    """How evidence names a seed document: its title where a ruleset of the build shows it, else its file name."""
    found = holder(book, name)
    return found[1].title if found is not None else name


def quote_markdown(quote: str, escape) -> str:
    """An evidence quote as Markdown: escaped, with the book's bold and underlining."""
    return to_html(escape(emphasis(quote)))


def _line_html(number: int, raw: str, targets: list[tuple[str, str]]) -> str:
    """One line of a text page: its number (a link to itself) and its text with the book's markup as HTML."""
    text = html.escape(emphasis(raw), quote=False)
    text = to_html(_ITALIC.sub(r"<em>\1</em>", text))
    after = "".join(f'<a class="source-section" href="{html.escape(href)}">{html.escape(label)}</a>'
                    for label, href in targets)
    return f'<span id="L{number}"><a href="#L{number}">{number}</a>{text}{after}</span>'


def text_pages(book: "Book", env) -> list[tuple[str, str]]:
    """The pages showing each document of a ruleset's area, line by line, each line anchored (#L123) and numbered;
    in each printing's document, a section's first line there links to the section."""
    from rules40k_site.generate import Page, url_of

    out = []
    for text in texts(book):
        starts = section_starts(book, None if text.own else text.folder.removeprefix("text-"))
        for index, (first, last) in enumerate(text.pages):
            path = text_page_path(book, text, first)
            page = Page(book, path, f"source text {first}")

            def here(target: str) -> str:
                return posixpath.relpath(url_of(target), posixpath.dirname(url_of(path)))

            lines = []
            for number in range(first, last + 1):
                refs = book.sort_refs(starts.get(number, []))
                lines.append(_line_html(number, text.lines[number - 1],
                                        [(book.label(ref), here(book.page_path(ref))) for ref in refs]))
            pager = [{"label": f"{a}–{b}", "href": page.href(text_page_path(book, text, a)), "current": a == first}
                     for a, b in text.pages]
            out.append((path, env.get_template("source_text.md.j2").render({
                "title": book.short_title if text.own else text.title, "first": first, "last": last,
                "total": len(text.lines), "text": text, "lines": "\n".join(lines), "pager": pager,
                "previous": pager[index - 1] if index > 0 else None,
                "next": pager[index + 1] if index + 1 < len(pager) else None,
                "report": page.href(f"{book.prefix}source.md"),
            })))
    return out


def nav_entries(book: "Book") -> list[dict]:
    """The text pages in the navigation, under the ruleset's reference pages: its own document's, then each
    other printing's."""
    entries = []
    for text in texts(book):
        label = "Source text" if text.own else f"Source text: {text.folder.removeprefix('text-')} printing"
        entries.append({label: [{f"Lines {a}–{b}": text_page_path(book, text, a)} for a, b in text.pages]})
    return entries


def cited_documents(book: "Book") -> list[str]:
    """The seed files the ruleset's restorations, interpretations and findings cite, in name order."""
    names = set()
    for entry in [*book.restorations, *book.interpretations, *book.findings]:
        for item in entry.get("evidence") or []:
            if item.get("document"):
                names.add(str(item["document"]))
    return sorted(names)


def _pages(page: "Page", book: "Book", text: SourceText) -> list[dict]:
    return [{"label": f"{a}–{b}", "href": page.href(text_page_path(book, text, a))} for a, b in text.pages]


def report_context(page: "Page", book: "Book") -> dict:
    """What the source report adds: which seed file the ruleset's text is (and its digest), its text pages, the
    other printings kept for it, every other document its evidence cites and where that one is shown, and line
    links for the report's line numbers."""
    text = source_text(book)
    own = book.provenance.get("original_name")
    documents = []
    for name in cited_documents(book):
        if name == own:
            continue
        found = holder(book, name)
        if found is not None:
            other, other_text = found
            documents.append({"name": name, "title": other_text.title, "sha256": other_text.sha256,
                              "report": page.href(other.prefix + "source.md"),
                              "text": page.href(text_page_path(other, other_text, other_text.pages[0][0]))})
        else:  # kept, but its ruleset is not part of this build; or not kept at all (validate refuses that)
            kept = spec.held_documents().get(name, {})
            documents.append({"name": name, "title": kept.get("title", ""), "sha256": kept.get("sha256", ""),
                              "report": None, "text": None})

    def link(line: Any) -> str:
        return line_link(page, None, line, str(line))

    return {
        "seed": own or "",
        "sha256": text.sha256 if text else book.provenance.get("sha256", ""),
        "matches": text is not None and text.sha256 == book.provenance.get("sha256"),
        "held": f"spec/sources/{text.file}" if text else "",
        "lines_total": len(text.lines) if text else 0,
        "text_pages": _pages(page, book, text) if text else [],
        "printings": [{"name": p.original_name, "title": p.title, "held": f"spec/sources/{p.file}",
                       "sha256": p.sha256, "lines_total": len(p.lines), "text_pages": _pages(page, book, p)}
                      for p in printings(book)],
        "documents": documents,
        "line_link": link,
    }

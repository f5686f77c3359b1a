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

#: Documents that evidence cites but no ruleset ingests, so the repository holds no copy of them to show (names,
#: descriptions and digests from the seeds' README and ``sha256sum``; tests check them where the seeds are present).
UNHELD_DOCUMENTS = {
    "003_c70556b5c2348838.txt": {
        "title": "Warhammer 40,000 Basic Rules (earlier edition), web-page style summary",
        "sha256": "b6cc5b66f63f88bb65127e8d4541d4e55d605ffdfb457e7e3081aa653b2ec9d5",
    },
}


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
    """A ruleset's ingested document: its lines, the text pages they are split into, and the markup of its lines."""

    document: str  # the ruleset
    file: str  # under spec/sources/
    original_name: str  # the seed file it is a copy of
    sha256: str
    lines: list[str]
    pages: list[tuple[int, int]]  # first and last line of each text page
    marks: dict[str, str] = field(default_factory=dict)  # cleaned line -> the same with the book's markup

    def page_of(self, line: int) -> tuple[int, int]:
        for first, last in self.pages:
            if first <= line <= last:
                return first, last
        raise SourceError(f"line {line} of {self.original_name or self.file}, which has {len(self.lines)} lines")


_CACHE: dict[tuple, SourceText | None] = {}


def source_text(book: "Book") -> SourceText | None:
    """The document a ruleset was ingested from (spec/sources/<ruleset>.txt); None when it is not there."""
    path = spec.SPEC_ROOT / "sources" / (book.provenance.get("file") or f"{book.document}.txt")
    try:
        stat = path.stat()
    except OSError:
        return None
    starts = tuple(sorted({s["line"] for s in book.sections.values() if isinstance(s.get("line"), int)}))
    key = (book.document, str(path), stat.st_mtime_ns, stat.st_size, starts)
    if key not in _CACHE:
        data = path.read_bytes()
        lines = data.decode("utf-8").split("\n")
        if lines and lines[-1] == "":
            lines.pop()  # the final newline ends the last line; it does not start another
        _CACHE[key] = SourceText(
            document=book.document, file=path.name, original_name=book.provenance.get("original_name") or path.name,
            sha256=hashlib.sha256(data).hexdigest(), lines=lines, pages=page_ranges(len(lines), list(starts)),
            marks=_marks(lines))
    return _CACHE[key]


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


def text_page_path(book: "Book", first: int) -> str:
    return f"{book.prefix}text/{first:04d}.md"


def holder(book: "Book", name: str | None) -> tuple["Book", SourceText] | None:
    """The ruleset of this build that holds a seed document (this one first), with its text; None for the
    ruleset's own document when it has no text file, or for a document no ruleset of the build ingests."""
    if name is None or book.provenance.get("original_name") == name:
        text = source_text(book)
        if text is not None or name is None:
            return (book, text) if text is not None else None
    for _, other in sorted(book.library.items()):
        if other is not book and other.provenance.get("original_name") == name:
            text = source_text(other)
            if text is not None:
                return other, text
    return None


def line_href(page: "Page", name: str | None, line: int) -> str | None:
    """The Markdown link target of a line of a seed document (None: this ruleset's own), or None if no page
    shows that document. Raises SourceError for a line the document does not have."""
    found = holder(page.book, name)
    if found is None:
        return None
    book, text = found
    first, _ = text.page_of(int(line))
    return page.href(text_page_path(book, first), f"L{line}")


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
    """How evidence names a seed document: the title of the ruleset holding it, else its file name."""
    found = holder(book, name)
    if found is not None:
        return found[0].source_title
    return UNHELD_DOCUMENTS.get(name, {}).get("title") or name


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
    """The pages showing a ruleset's document, line by line, each line anchored (#L123) and numbered."""
    from rules40k_site.generate import Page, url_of

    text = source_text(book)
    if text is None:
        return []
    starts: dict[int, list[str]] = {}
    for ref, section in book.sections.items():
        if isinstance(section.get("line"), int):
            starts.setdefault(section["line"], []).append(ref)
    out = []
    for index, (first, last) in enumerate(text.pages):
        path = text_page_path(book, first)
        page = Page(book, path, f"source text {first}")

        def here(target: str) -> str:
            return posixpath.relpath(url_of(target), posixpath.dirname(url_of(path)))

        lines = []
        for number in range(first, last + 1):
            targets = [(book.label(ref), here(book.page_path(ref))) for ref in book.sort_refs(starts.get(number, []))]
            lines.append(_line_html(number, text.lines[number - 1], targets))
        pager = [{"label": f"{a}–{b}", "href": page.href(text_page_path(book, a)), "current": a == first}
                 for a, b in text.pages]
        out.append((path, env.get_template("source_text.md.j2").render({
            "title": book.short_title, "first": first, "last": last, "total": len(text.lines), "text": text,
            "lines": "\n".join(lines), "pager": pager,
            "previous": pager[index - 1] if index > 0 else None,
            "next": pager[index + 1] if index + 1 < len(pager) else None,
            "report": page.href(f"{book.prefix}source.md"),
        })))
    return out


def nav_entries(book: "Book") -> list[dict]:
    """The text pages in the navigation, under the ruleset's reference pages."""
    text = source_text(book)
    if text is None:
        return []
    return [{"Source text": [{f"Lines {a}–{b}": text_page_path(book, a)} for a, b in text.pages]}]


def cited_documents(book: "Book") -> list[str]:
    """The seed files the ruleset's restorations, interpretations and findings cite, in name order."""
    names = set()
    for entry in [*book.restorations, *book.interpretations, *book.findings]:
        for item in entry.get("evidence") or []:
            if item.get("document"):
                names.add(str(item["document"]))
    return sorted(names)


def report_context(page: "Page", book: "Book") -> dict:
    """What the source report adds: which seed file the ruleset's text is (and its digest), its text pages, every
    other document its evidence cites and where that one is shown, and line links for the report's line numbers."""
    text = source_text(book)
    own = book.provenance.get("original_name")
    documents = []
    for name in cited_documents(book):
        if name == own:
            continue
        found = holder(book, name)
        if found is not None:
            other, other_text = found
            documents.append({"name": name, "title": other.source_title, "sha256": other_text.sha256,
                              "report": page.href(other.prefix + "source.md"),
                              "text": page.href(text_page_path(other, other_text.pages[0][0]))})
        else:
            known = UNHELD_DOCUMENTS.get(name, {})
            documents.append({"name": name, "title": known.get("title", ""), "sha256": known.get("sha256", ""),
                              "report": None, "text": None})

    def link(line: Any) -> str:
        return line_link(page, None, line, str(line))

    return {
        "seed": own or "",
        "sha256": text.sha256 if text else book.provenance.get("sha256", ""),
        "matches": text is not None and text.sha256 == book.provenance.get("sha256"),
        "held": f"spec/sources/{text.file}" if text else "",
        "lines_total": len(text.lines) if text else 0,
        "text_pages": [{"label": f"{a}–{b}", "href": page.href(text_page_path(book, a))}
                       for a, b in (text.pages if text else [])],
        "documents": documents,
        "line_link": link,
    }

"""The source documents on the site (site/sources.py): each ruleset's text on pages with an anchor and a link per
line, every evidence line number a link to its line, the book's bold and underlining kept, and a source report that
names the seed file (and digest) of every document the evidence cites."""

from __future__ import annotations

import hashlib
import html
import posixpath
import re
from functools import lru_cache
from pathlib import Path

import pytest

from rules import spec
from rules40k import annotations, ingest
from rules40k_site import generate, sources

REPO_ROOT = Path(__file__).resolve().parent.parent
SEEDS = REPO_ROOT.parent / "shared" / "seeds"
LINE_LINK = re.compile(r'href="([^"#]*text(?:-[a-z0-9-]+)?/\d{4}\.html)#L(\d+)"')
EVIDENCE_KINDS = ("restorations", "interpretations", "findings")


def _provenance(ruleset: str) -> dict:
    return spec.load_yaml(spec.SPEC_ROOT / "sources" / f"{ruleset}.yaml")


def _held() -> dict[str, tuple[str, str]]:
    """Seed file -> the ruleset whose area shows it (the first, by name, that keeps a copy) and its text folder."""
    held: dict[str, tuple[str, str]] = {}
    for path in sorted((spec.SPEC_ROOT / "sources").glob("*.yaml")):
        kept = spec.load_yaml(path)
        folder = f"text-{kept['printing']}" if kept.get("printing") else "text"
        held.setdefault(kept["original_name"], []).append((kept["document"], folder))
    return {name: min(places) for name, places in held.items()}


@lru_cache(maxsize=None)
def _anchors(path: Path) -> frozenset[str]:
    return frozenset(re.findall(r'id="(L\d+)"', path.read_text(encoding="utf-8")))


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------
# The text pages


def test_every_line_of_each_kept_document_has_one_numbered_self_link(built):
    """Each ruleset's own document, and every other printing kept for it (spec/sources/<ruleset>-<printing>.txt)."""
    kept = [(spec.load_yaml(p), p) for p in sorted((spec.SPEC_ROOT / "sources").glob("*.yaml"))]
    assert {k["document"] for k, _ in kept if not k.get("printing")} == set(spec.rulesets())
    assert any(k.get("printing") for k, _ in kept)
    for provenance, path in kept:
        ruleset = provenance["document"]
        lines = path.with_name(provenance["file"]).read_text(encoding="utf-8").split("\n")
        total = len(lines) - (lines[-1] == "")
        folder = f"text-{provenance['printing']}" if provenance.get("printing") else "text"
        pages = sorted((built / "site" / ruleset / folder).glob("*.html"))
        assert pages, (ruleset, folder)
        seen: list[int] = []
        for page in pages:
            seen += [int(n) for n in re.findall(r'<span id="L(\d+)"><a href="#L\1">\1</a>', _text(page))]
        assert seen == list(range(1, total + 1)), ruleset


def test_text_pages_show_the_books_markup_and_link_sections(built):
    page = next(p for p in (built / "site" / "core" / "text").glob("*.html") if 'id="L2864"' in _text(p))
    line = re.search(r'<span id="L2864">.*?</span>\n', _text(page)).group(0)
    assert "<u>less than</u>" in line and "**" not in line and "&lt;u&gt;" not in line
    bold = re.search(r'<span id="L2868">.*?</span>\n', _text(page)).group(0)
    assert "<strong>attached unit</strong>" in bold
    start = spec.sections("core")["05.02"]["line"]
    page = next(p for p in (built / "site" / "core" / "text").glob("*.html") if f'id="L{start}"' in _text(p))
    assert re.search(rf'<span id="L{start}">.*?<a class="source-section" href="\.\./05\.02\.html">', _text(page))


def test_text_pages_stay_out_of_the_search_index(built):
    index = _text(built / "site" / "search" / "search_index.json")
    assert "/text/" not in index and "text/0001.html" not in index
    assert "search:\n  exclude: true" in _text(built / "docs" / "core" / "text" / "0001.md")


# ---------------------------------------------------------------------------
# Every evidence line number is a link that lands on its line


def test_every_line_link_on_the_site_resolves_to_an_anchor(built):
    site = built / "site"
    checked = 0
    for page in site.rglob("*.html"):
        for href, line in LINE_LINK.findall(_text(page)):
            target = Path(posixpath.normpath(posixpath.join(page.parent.as_posix(), html.unescape(href))))
            assert target.is_file(), (page.relative_to(site), href)
            assert f"L{line}" in _anchors(target), (page.relative_to(site), href, line)
            checked += 1
    assert checked > 1000  # the section attributions alone are several hundred


def _evidence(ruleset: str):
    for kind in EVIDENCE_KINDS:
        for entry in getattr(annotations, kind)(ruleset):
            for item in entry.get("evidence") or []:
                yield kind, entry, item


def test_every_evidence_line_is_a_link_to_its_documents_text(built):
    """Interpretations, findings and restorations: every line cited is a link to that line of the text page of the
    ruleset showing its document (this one first); `validate` refuses evidence quoting a document not kept."""
    held = _held()
    docs = built / "docs"
    linked = 0
    for ruleset in spec.rulesets():
        own = _provenance(ruleset)["original_name"]
        for kind, entry, item in _evidence(ruleset):
            page = (docs / ruleset / f"{entry['ref']}.md" if kind == "restorations"
                    else docs / ruleset / f"{kind}.md")
            text = _text(page)
            holder, folder = (ruleset, "text") if item["document"] == own else held[item["document"]]
            there = "" if holder == ruleset else f"../{holder}/"
            pattern = rf"\[line {item['line']}\]\((\.\./)*{there}{folder}/\d{{4}}\.md#L{item['line']}\)"
            assert re.search(pattern, text), (ruleset, kind, entry["id"], item["line"])
            linked += 1
    assert linked > 300
    # The earlier edition's web-page printing (003), quoted by the Core Rules' restorations, is a link too.
    assert re.search(r"\[line 456\]\(\.\./ninth/text-web/\d{4}\.md#L456\)", _text(docs / "core" / "05.02.md"))


def test_attributions_other_printings_and_notes_link_their_line(built):
    docs = built / "docs"
    for ruleset in spec.rulesets():
        for ref, section in spec.sections(ruleset).items():
            page = _text(docs / ruleset / f"{ref}.md")
            line = section["line"]
            folder = f"text-{section['printing']}" if section.get("printing") else "text"  # only that printing has it
            assert re.search(rf"\), \[line {line}\]\((\.\./)*{folder}/\d{{4}}\.md#L{line}\), as printed:", page), ref
            for printing in section.get("other_printings") or []:
                assert re.search(rf"Printed again at \[line {printing['line']}\]\(", page), ref
            for note in section.get("notes") or []:
                if note.get("line"):
                    assert re.search(rf"\*Printed at \[line {note['line']}\]\(", page), ref


# ---------------------------------------------------------------------------
# Bold and underlining


def _rule_text_blocks(page: str) -> list[str]:
    return re.findall(r'<blockquote class="rule-text">(.*?)</blockquote>', page, re.S)


def test_no_literal_bold_markers_in_rule_text_or_quotes(built):
    site = built / "site"
    strong = 0
    for ruleset in spec.rulesets():
        pages = [site / ruleset / f"{name}.html" for name in ("interpretations", "findings")]
        for ref in spec.sections(ruleset):
            page = _text(site / ruleset / f"{ref}.html")
            for block in _rule_text_blocks(page):
                assert "**" not in block, (ruleset, ref)
                strong += block.count("<strong>")
            pages.append(site / ruleset / f"{ref}.html")
        for path in pages:  # quotes in evidence, anywhere outside the code
            assert "**" not in re.sub(r"<pre.*?</pre>|<code.*?</code>", "", _text(path), flags=re.S), path
    assert strong > 100  # the book's bold is kept
    # A restoration's evidence quoting "**S** characteristic" shows a bold S.
    assert "an <strong>S</strong> characteristic of 4" in _text(site / "core" / "05.02.html")


def test_starting_strength_table_is_underlined_as_printed(built):
    page = _text(built / "site" / "core" / "appendix" / "starting-strength-and-half-strength.html")
    cells = re.findall(r"<td>(.*?)</td>", "".join(_rule_text_blocks(page)), re.S)
    underlined = [u for cell in cells for u in re.findall(r"<u>(.*?)</u>", cell)]
    assert underlined == ["less than", "less than", "half", "half", "less than half", "less than half"]
    # ...without changing the text the ingest stores
    stored = spec.sections("core")["appendix/starting-strength-and-half-strength"]["text"]
    assert "<u>" not in stored and "Model's remaining wounds are less than its W characteristic." in stored


def test_underline_is_seen_in_the_browser(browser_page):
    page = browser_page.open("core/appendix/starting-strength-and-half-strength.html")
    decoration = page.locator(".rule-text td u").first.evaluate("e => getComputedStyle(e).textDecorationLine")
    assert decoration == "underline"


def test_following_an_evidence_link_shows_the_line(browser_page):
    """A reviewer clicks a line number in the evidence and lands on that line, highlighted, below the header."""
    page = browser_page.open("core/interpretations.html")
    link = page.locator('a[href*="text/"][href$="#L152"]').first
    link.click()
    page.wait_for_url(re.compile(r"text/\d{4}\.html#L152$"))
    line = page.locator("#L152")
    assert "measure to or from the closest part of that model's base" in line.inner_text()
    box = line.bounding_box()
    header = page.locator(".md-header").bounding_box()
    assert header["height"] <= box["y"] < 1000
    assert line.evaluate("e => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
    assert browser_page.errors == [] and browser_page.outside() == []


# ---------------------------------------------------------------------------
# The source report names the seed files


def test_source_report_names_each_seed_file_and_digest(built):
    held = _held()
    for ruleset in spec.rulesets():
        provenance = _provenance(ruleset)
        report = _text(built / "docs" / ruleset / "source.md")
        digest = hashlib.sha256((spec.SPEC_ROOT / "sources" / f"{ruleset}.txt").read_bytes()).hexdigest()
        assert f"seed file `{provenance['original_name']}`" in report and f"`{digest}`, the digest" in report
        assert digest == provenance["sha256"]
        cited = {item["document"] for _, _, item in _evidence(ruleset)} - {provenance["original_name"]}
        for name in cited:
            row = next(line for line in report.splitlines() if line.startswith(f"| `{name}` |"))
            holder, folder = held[name]
            digest = spec.held_documents()[name]["sha256"]
            there = "" if holder == ruleset else f"../{holder}/"  # a printing the ruleset itself keeps: its own area
            assert digest in row and f"]({there}source.md)" in row and f"]({there}{folder}/0001.md)" in row
    ninth = _text(built / "docs" / "ninth" / "source.md")
    assert "## Other printings kept" in ninth and "`spec/sources/ninth-web.txt`" in ninth
    assert re.search(r"\[lines 1–\d+\]\(text-web/0001\.md\)", ninth)  # pages break before its sections too


def test_kept_copies_are_the_seed_files_they_name():
    """Every copy in spec/sources/ has the digest its provenance records and, where the seeds are present, is the
    seed file byte for byte."""
    provenances = sorted((spec.SPEC_ROOT / "sources").glob("*.yaml"))
    assert len(provenances) == len(spec.rulesets()) + 1  # each ruleset's document, and 003 kept for ninth
    for path in provenances:
        kept = spec.load_yaml(path)
        data = path.with_name(kept["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == kept["sha256"], path
        if SEEDS.is_dir():
            assert (SEEDS / kept["original_name"]).read_bytes() == data, path


# ---------------------------------------------------------------------------
# The pieces, by hand


B, b, U, u = sources.BOLD_START, sources.BOLD_END, sources.UNDERLINE_START, sources.UNDERLINE_END


@pytest.mark.parametrize("raw, expected", [
    ("an **S** characteristic", f"an {B}S{b} characteristic"),
    ("no markup", "no markup"),
    ("- 1. Select Enemy Unit:** Select one", f"- {B}1. Select Enemy Unit:{b} Select one"),  # lost opening
    ("Set to Defend:** Cannot fire", f"{B}Set to Defend:{b} Cannot fire"),  # a quote cut inside a run
    ("the **Objective", f"the {B}Objective{b}"),  # a quote cut before the run closed
    ("are <u>less than</u> its", f"are {U}less than{u} its"),
    ("a <u>stray tag", "a stray tag"),
    ("****", ""),
])
def test_emphasis(raw, expected):
    assert sources.emphasis(raw) == expected


def test_markup_straddling_a_table_cell_is_dropped_not_broken():
    assert sources.marked_line("**A\tB** | x") is None  # the run would open in one cell and close in another
    marked = sources.marked_line("\t**A**\t<u>B</u>")
    assert marked == f"{B}A{b} | {U}B{u}" and sources.strip_markers(marked) == ingest.clean_line("\t**A**\t<u>B</u>")


def test_page_ranges_break_before_sections_and_cover_every_line(monkeypatch):
    monkeypatch.setattr(sources, "PAGE_LINES", 400)
    monkeypatch.setattr(sources, "MIN_PAGE_LINES", 150)
    ranges = sources.page_ranges(1000, [10, 100, 300, 390, 700, 999])
    assert ranges[0] == (1, 389)  # before the last section start that fits
    assert ranges[1] == (390, 699)
    assert ranges[2] == (700, 1000)  # the rest fits on one page, so no start (999) cuts it
    assert sources.page_ranges(1000, [])[0] == (1, 400)  # no section start: a full page
    assert [a for a, _ in ranges[1:]] == [b + 1 for _, b in ranges[:-1]]
    assert sources.page_ranges(5, []) == [(1, 5)]


def test_evidence_citing_a_line_the_document_lacks_fails_the_build(tmp_path, monkeypatch):
    entry = {"id": "test-reading", "refs": ["05.02"], "question": "?", "chosen": "a",
             "readings": [{"id": "a", "text": "a"}], "consequence": "",
             "evidence": [{"document": "000_5a110eecb9ce1e5f.txt", "line": 99999, "quote": "q"}]}
    recorded = annotations.interpretations
    monkeypatch.setattr(annotations, "interpretations", lambda document="core": [*recorded(document), entry])
    with pytest.raises(generate.SiteError) as error:
        generate.build(tmp_path / "build", rulesets=["core"], run_mkdocs=False)
    message = str(error.value)
    assert "line 99999 of 000_5a110eecb9ce1e5f.txt" in message and "\n" not in message
    assert not (tmp_path / "build" / "docs").exists()

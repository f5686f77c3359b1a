"""A ruleset printed twice on the site (ninth: the reprint 002 and the web page 003): a section page shows the other
printing's text and lines, linked to that printing's text page; a section only the web page has cites the web page's
lines; each document's text page marks only the sections printed from it. Checked in the HTML of one area's build
(the ninth area alone, with MkDocs: the whole site takes minutes)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from rules import spec

RULESET = "ninth"
SECTIONS = spec.sections(RULESET)
TWICE = [ref for ref, s in SECTIONS.items() if (s.get("printings") or {}).get("web")]
WEB_ONLY = [ref for ref, s in SECTIONS.items() if s.get("printing") == "web"]


@pytest.fixture(scope="module")
def area(tmp_path_factory) -> Path:
    from rules40k_site import generate

    build = tmp_path_factory.mktemp("printings")
    return generate.build(build, rulesets=[RULESET], run_mkdocs=True) / RULESET


def page(area: Path, ref: str) -> str:
    return (area / f"{ref}.html").read_text(encoding="utf-8")


def _details(text: str, summary: str) -> str:
    """The HTML of the collapsed block whose summary reads ``summary``."""
    found = re.search(r"<details[^>]*>\s*<summary>" + re.escape(summary) + r"</summary>(.*?)</details>", text, re.S)
    assert found, f"no block {summary!r}"
    return found.group(1)


def _words(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def test_sections_are_printed_twice():
    assert len(TWICE) > 60 and len(WEB_ONLY) == 4


@pytest.mark.parametrize("ref", TWICE)
def test_a_section_printed_twice_shows_both_printings_and_their_lines(area, ref):
    section, web = SECTIONS[ref], SECTIONS[ref]["printings"]["web"]
    text = page(area, ref)
    first, last = web["lines"]
    block = _details(text, f"The web printing, {f'line {first}' if first == last else f'lines {first}–{last}'}")
    assert re.search(rf'href="(?:\.\./)*text-web/\d{{4}}\.html#L{first}"', block)  # the web page's own text page
    assert re.search(rf'href="(?:\.\./)*text/\d{{4}}\.html#L{section["line"]}"', text)  # the reprint's, for its text
    shown = _words(block)
    for line in [line for line in web["text"].split("\n") if line.strip()][:4]:  # the web page's words
        words = " ".join(re.sub(r"^[•■]\s*", "", line.strip()).split())[:60]
        assert _words(html.escape(words)) in shown, (ref, words)


def test_a_word_only_the_web_page_prints_is_shown_on_the_section_page(area):
    """Look Out, Sir: the web page's "Wounds characteristic of 10 or more" case is in its printing's block, and
    not in the reprint's rule text."""
    text = page(area, "shooting-phase/look-out-sir")
    first, last = SECTIONS["shooting-phase/look-out-sir"]["printings"]["web"]["lines"]
    assert "wounds characteristic of 10 or more" in _words(_details(text, f"The web printing, lines {first}–{last}"))
    rule = re.search(r'<blockquote class="rule-text"[^>]*>(.*?)</blockquote>', text, re.S).group(1)
    assert "10 or more" not in _words(rule)


@pytest.mark.parametrize("ref", WEB_ONLY)
def test_a_section_only_the_web_page_has_cites_the_web_pages_lines(area, ref):
    text = page(area, ref)
    attribution = re.search(r'<p class="attribution"><em>Quoted verbatim from (.*?)</em></p>', text, re.S).group(1)
    assert "web-page summary" in attribution
    assert re.search(rf'href="(?:\.\./)*text-web/\d{{4}}\.html#L{SECTIONS[ref]["line"]}"', attribution)
    assert not re.search(r'href="(?:\.\./)*text/', attribution)
    assert "The web printing" not in text  # it is the web printing; no second block repeats it


def _marked(area: Path, folder: str) -> dict[int, set[str]]:
    """Line -> the section pages a document's text pages link from that line."""
    out: dict[int, set[str]] = {}
    for path in sorted((area / folder).glob("*.html")):
        for number, rest in re.findall(r'<span id="L(\d+)">(.*?)</span>', path.read_text(encoding="utf-8")):
            links = set(re.findall(r'class="source-section" href="\.\./([^"]+)\.html"', rest))
            if links:
                out[int(number)] = links
    return out


def test_each_documents_text_pages_mark_only_the_sections_printed_from_it(area):
    reprint, web = _marked(area, "text"), _marked(area, "text-web")
    for ref in WEB_ONLY:
        line = SECTIONS[ref]["line"]
        assert ref not in reprint.get(line, set()), f"the reprint's line {line} is marked as {ref}"
        assert ref in web.get(line, set()), f"the web page's line {line} does not link {ref}"
    for ref in TWICE:
        assert ref in reprint.get(SECTIONS[ref]["line"], set()), ref
        assert ref in web.get(SECTIONS[ref]["printings"]["web"]["line"], set()), ref
    assert all(not SECTIONS[r].get("printing") for refs in reprint.values() for r in refs)


def test_the_other_printing_opens_and_its_line_link_lands_on_the_web_pages_line(area, browser):
    """In Chromium: the web printing's block of Look Out, Sir opens to the web page's words, and its lines link
    goes to the web page's text page with that line targeted."""
    from conftest import SitePage

    site = SitePage(browser, area.parent)
    try:
        page = site.open(f"{RULESET}/shooting-phase/look-out-sir.html")
        first, last = SECTIONS["shooting-phase/look-out-sir"]["printings"]["web"]["lines"]
        summary = page.locator("summary", has_text=f"The web printing, lines {first}–{last}")
        block = page.locator("details", has=summary)
        words = block.get_by_text("wounds characteristic of 10 or more")
        assert not words.is_visible()  # collapsed until asked for
        block.locator("summary").click()
        assert words.is_visible()
        block.get_by_role("link", name=f"lines {first}–{last}").click()
        page.wait_for_url(re.compile(rf"/{RULESET}/text-web/\d{{4}}\.html#L{first}$"))
        target = page.locator(f"#L{first}")
        assert target.is_visible() and "LOOK OUT, SIR" in target.inner_text()
        assert not site.errors and not site.outside()
    finally:
        site.context.close()

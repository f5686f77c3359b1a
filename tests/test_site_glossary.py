"""The glossary (site/glossary.py): terms collected from the rule text, their links and hover definitions in the
rule text of section and chapter pages, and the glossary and keyword index page of each ruleset.

The real site is the session's ``built`` fixture; the term finder and the linker are also tested on hand-made
text and a hand-made book, where every expected link is known.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rules40k_site import generate, glossary

DOCUMENT = "core"


# ---------------------------------------------------------------------------
# A hand-made book: a few titled sections, as the spec gives them


def _section(ref: str, title: str, text: str, chapter: str = "01", line: int = 1) -> dict:
    return {"ref": ref, "title": title, "text": text, "line": line, "notes": [], "see_also": [], "cites": [],
            "chapter": {"number": chapter, "title": "CORE THINGS" if chapter == "01" else "WEAPONS"}}


SECTIONS = {
    "01.01": _section("01.01", "BATTLE-SHOCK", "A unit that fails a test is battle-shocked. It stays so.", line=10),
    "01.02": _section("01.02", "HIT ROLLS", "Make one hit roll for each attack.", line=20),
    "01.03": _section("01.03", "STEALTH", "Stealthy units hide well.\n\nIf every model has this ability, "
                                          "subtract 1 from the hit roll.", line=30),
    "01.04": _section("01.04", "UNITS AND MODELS", "A unit is made of models.", line=40),
    "01.05": _section("01.05", "TRANSPORTS", "TRANSPORT models carry other units.", line=50),
    "01.06": _section("01.06", "ENGAGEMENT", "A model's engagement range is the area within 2\" of it.", line=60),
    "01.07": _section("01.07", "COHERENCY", "A unit must end any move in coherency.", line=70),
    "02.01": _section("02.01", "[SUSTAINED HITS]", "Some weapons hit hard.\n\nThis ability always takes the form "
                                                   "[SUSTAINED HITS X]. Each critical hit scores X extra hits.",
                      chapter="02", line=80),
    "02.02": _section("02.02", "[ANTI]", "Each time an attack is made with an [ANTI] weapon, it may be critical.",
                      chapter="02", line=90),
}
CHAPTERS = [{"number": number, "title": title, "intro": "", "notes": [],
             "refs": [ref for ref in SECTIONS if ref.startswith(number)]}
            for number, title in (("01", "CORE THINGS"), ("02", "WEAPONS"))]


class HandMadeBook:
    """What the glossary reads of a Book, for a book of nine sections."""

    document = "test"
    numbered = True
    restorations: list = []

    def __init__(self) -> None:
        self.sections = SECTIONS
        self.chapters = CHAPTERS

    def page_path(self, ref: str) -> str | None:
        if ref in self.sections:
            return f"test/{ref}.md"
        return f"test/{ref}/index.md" if any(c["number"] == ref for c in self.chapters) else None

    def label(self, ref: str) -> str:
        title = self.sections[ref]["title"] if ref in self.sections else next(
            c["title"] for c in self.chapters if c["number"] == ref)
        return f"{ref} {generate.readable_title(title)}"

    def sort_refs(self, refs) -> list[str]:
        return sorted(set(refs))


@pytest.fixture
def book() -> HandMadeBook:
    return HandMadeBook()


def names(found) -> list[tuple[str, str]]:
    return [(term.name, term.ref) for _, _, term in found]


# ---------------------------------------------------------------------------
# Collecting the terms


def test_terms_come_from_the_titles_keywords_and_defining_sentences(book):
    terms = {t.name: t for t in glossary.collect(book).terms}
    assert terms["[SUSTAINED HITS]"].kind == "ability" and terms["[SUSTAINED HITS]"].ref == "02.01"
    assert terms["Battle-shock"].ref == "01.01" and terms["Hit Rolls"].ref == "01.02"
    # a one-word title whose first sentence defines a phrase: ENGAGEMENT -> "engagement range"
    assert terms["Engagement Range"].ref == "01.06" and "Engagement" not in terms
    # "TRANSPORT models": a keyword, defined where a title names it (TRANSPORTS); the title is that entry
    assert terms["TRANSPORT"].kind == "keyword" and terms["TRANSPORT"].ref == "01.05" and "Transports" not in terms
    assert "Units and Models" not in terms  # EXCLUDED, with its reason
    assert "units and models" in glossary.EXCLUDED


def test_a_definition_is_the_first_sentence_that_uses_the_term_skipping_a_form(book):
    terms = {t.name: t for t in glossary.collect(book).terms}
    assert terms["Battle-shock"].definition == "A unit that fails a test is battle-shocked."
    # "This ability always takes the form ..." gives the form; the rule is the sentence after it
    assert terms["[SUSTAINED HITS]"].definition == "Each critical hit scores X extra hits."
    # no sentence names STEALTH: the first whole sentence of the text
    assert terms["Stealth"].definition == "Stealthy units hide well."
    assert terms["Stealth"].line == 30


# ---------------------------------------------------------------------------
# Finding uses in running text


def test_bracketed_abilities_are_found_with_their_parameters(book):
    found = glossary.collect(book).find("a [SUSTAINED HITS 2] gun, an [ANTI-VEHICLE 4+] gun, a [SUSTAINED] one")
    assert names(found) == [("[SUSTAINED HITS]", "02.01"), ("[ANTI]", "02.02")]


def test_phrases_in_any_case_with_plural_and_past_forms(book):
    g = glossary.collect(book)
    assert names(g.find("It is Battle-shocked; make two hit rolls.")) == [("Battle-shock", "01.01"),
                                                                            ("Hit Rolls", "01.02")]
    assert names(g.find("within engagement range")) == [("Engagement Range", "01.06")]
    assert g.find("a battle of shocks, a hit, rolls") == []


def test_one_word_titles_only_as_names_inside_a_sentence(book):
    g = glossary.collect(book)
    assert names(g.find("while it has the Stealth ability")) == [("Stealth", "01.03")]
    assert g.find("Stealth is good.") == []  # the first word of a sentence
    assert g.find("in the Stealth Cloak step") == []  # part of a longer name
    assert g.find("the stealth of it") == []  # an ordinary word
    text = "it ends in coherency"
    start = text.index("coherency")
    # the book sets its terms in bold: a bold run that is a term's name is a use of it, in any case
    assert names(g.find(text, ((start, len(text)),))) == [("Coherency", "01.07")]


def test_keywords_as_keywords_only(book):
    g = glossary.collect(book)
    assert names(g.find("a TRANSPORT model, two TRANSPORTS")) == [("TRANSPORT", "01.05"), ("TRANSPORT", "01.05")]
    assert g.find("a DEDICATED TRANSPORT model") == []  # another keyword
    assert g.find("an INFANTRY unit") == []  # no title defines INFANTRY


# ---------------------------------------------------------------------------
# Linking rendered rule text


def test_links_carry_the_definition_as_title_once_per_paragraph(book):
    page = generate.Page(book, "test/02.02.md", "test")
    markdown = ("A \\[SUSTAINED HITS 1\\] weapon and a \\[SUSTAINED HITS 2\\] weapon.\n\n"
                "- a battle-shocked unit\n- another battle-shocked unit")
    linked = glossary.link_terms(page, markdown)
    title = "02.01 [SUSTAINED HITS]: Each critical hit scores X extra hits."
    assert linked.count(f'[\\[SUSTAINED HITS 1\\]](02.01.md "{title}"){{: .glossary-term }}') == 1
    assert "\\[SUSTAINED HITS 2\\] weapon" in linked  # the second use in the paragraph stays text
    assert linked.count("(01.01.md") == 2  # each list item is a paragraph of its own


def test_no_link_in_links_bold_headings_or_on_the_terms_own_page(book):
    page = generate.Page(book, "test/01.01.md", "test")
    markdown = ("**HIT ROLLS AND BATTLE-SHOCK**\n\n"
                "See [hit rolls](01.02.md) and <strong>stealth</strong> when battle-shocked ([01.02](01.02.md)).")
    linked = glossary.link_terms(page, markdown)
    assert linked.startswith("**HIT ROLLS AND BATTLE-SHOCK**\n\n")
    assert "See [hit rolls](01.02.md) and" in linked  # inside a link: untouched
    assert '<strong>[stealth](01.03.md "01.03 Stealth: ' in linked  # the book's bold term
    assert "when battle-shocked" in linked  # on 01.01, its own page, Battle-shock is not linked


def test_quotes_and_pipes_in_a_definition_cannot_break_the_link():
    term = glossary.Term("Engagement Range", "term", "01.06", "x", 'Within 2" of it | or so.')
    title = glossary._title_attribute(glossary.tooltip(term, "01.06 Engagement"))
    assert '"' not in title and "|" not in title and "&quot;" in title
    long = glossary.Term("X", "term", "01.01", "x", "word " * 100)
    assert len(glossary.tooltip(long, "01.01 X")) <= glossary.TOOLTIP_LENGTH + 12


def test_reading_rendered_markdown_keeps_each_characters_place():
    read = glossary.plain(r"a \[X\] &amp; <strong>b</strong> [l](u.md) | c")
    assert read.text == "a [X] & b \x00 \x01 c"
    assert read.bold == ((8, 9),)
    start, end = read.spans[2][0], read.spans[4][1]
    assert read.markdown[start:end] == r"\[X\]"


# ---------------------------------------------------------------------------
# The real site


class _Links(HTMLParser):
    """Every glossary link of a page with the tags it sits in."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.found: list[tuple[dict, list[str]]] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "img", "input", "meta", "link", "hr", "wbr", "source"):
            return
        attrs = dict(attrs)
        if tag == "a" and "glossary-term" in (attrs.get("class") or "").split():
            self.found.append((attrs, list(self.stack)))
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass


def glossary_links(page: Path) -> list[tuple[dict, list[str]]]:
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.found


def test_devastating_wounds_in_the_text_links_to_its_section_with_a_title(built):
    chapter = (built / "docs" / DOCUMENT / "05" / "index.md").read_text(encoding="utf-8")
    assert '[\\[DEVASTATING WOUNDS\\]](../24.10.md "24.10 [DEVASTATING WOUNDS]: Each time an attack' in chapter
    links = {a["href"]: a for a, _ in glossary_links(built / "site" / DOCUMENT / "05" / "index.html")}
    title = links["../24.10.html"]["title"]
    assert title.startswith("24.10 [DEVASTATING WOUNDS]: Each time an attack made with a [DEVASTATING WOUNDS] weapon")
    # printed beside 24.23: "... cannot trigger other abilities such as [DEVASTATING WOUNDS]."
    note = {a["href"] for a, _ in glossary_links(built / "site" / DOCUMENT / "24.23.html")}
    assert "24.10.html" in note


def test_the_glossary_page_lists_lethal_hits_with_its_section_and_uses(built):
    page = (built / "docs" / DOCUMENT / "glossary.md").read_text(encoding="utf-8")
    entry = re.search(r"^\*\*\\\[LETHAL HITS\\\]\*\*\{: #g-lethal-hits \}.*$", page, re.MULTILINE).group(0)
    assert "weapon ability" in entry and "defined in [24.23 \\[LETHAL HITS\\]](24.23.md)" in entry
    assert "“Each time an attack made with a \\[LETHAL HITS\\] weapon results in a critical hit" in entry
    assert "[05](05/index.md)" in entry  # the chapter introduction that names it
    site = (built / "site" / DOCUMENT / "glossary.html").read_text(encoding="utf-8")
    assert 'id="g-lethal-hits"' in site and 'href="24.23.html"' in site
    assert "search:\n  exclude: true" in page  # not in the search index every first visit loads


def test_glossary_pages_exist_for_every_ruleset_and_quote_their_text(built):
    from rules import spec

    for name in spec.rulesets():
        assert (built / "site" / name / "glossary.html").is_file(), name
        book = generate.load(name, built)
        texts = glossary.rule_texts(book)
        for term in glossary.glossary_of(book).terms:
            assert " ".join(term.definition.split()) in " ".join(texts[term.ref].split()), (name, term.name)
            assert glossary.normal(term.name) not in glossary.EXCLUDED


def test_glossary_links_are_never_in_a_heading_another_link_or_on_their_own_page(built):
    site = built / "site" / DOCUMENT
    pages = sorted(site.glob("*.html")) + sorted(site.glob("*/index.html")) + sorted(site.glob("appendix/*.html"))
    total = 0
    for page in pages:
        for attrs, inside in glossary_links(page):
            total += 1
            assert not {"a", "h1", "h2", "h3", "h4", "h5", "h6"} & set(inside), (page.name, attrs["href"])
            assert attrs.get("title"), (page.name, attrs["href"])
            assert attrs["href"] != page.name and not attrs["href"].startswith("#"), page.name
    assert total > 300  # the text is linked, not just a few pages


def test_a_keyword_tooltip_shows_on_hover_and_the_link_leads_to_its_section(browser_page):
    page = browser_page.open(f"{DOCUMENT}/05/index.html")
    link = page.locator("a.glossary-term", has_text="[DEVASTATING WOUNDS]").first
    link.hover()
    tooltip = page.locator(".md-tooltip2--active")
    tooltip.wait_for(timeout=5000)
    assert tooltip.inner_text().startswith("24.10 [DEVASTATING WOUNDS]: Each time an attack")
    link.click()
    page.wait_for_url(re.compile(r"/core/24\.10\.html$"))
    assert html.unescape(page.title()).startswith("24.10")
    assert not browser_page.errors

"""The Edition comparison area as a person uses it, in headless Chromium on the real built site: reached from the
home page, a concept page shows each ruleset's quoted text in its own box, the computed comparison and the worked
attack's table, and fits a phone's width. Screenshots go to build/screenshots/ (looked at by people)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = REPO_ROOT / "build" / "screenshots"


def test_the_home_page_leads_to_a_concept_page(browser_page):
    page = browser_page.open("index.html")
    page.locator("article a[href$='editions/index.html']").first.click()
    page.wait_for_load_state()
    assert page.url.endswith("editions/index.html")
    page.locator("article a[href$='objective-control.html']").first.click()
    page.wait_for_load_state()
    assert page.locator("article h1").inner_text().rstrip("¶") == "Objective control"
    assert browser_page.errors == []


def test_a_concept_page_shows_each_ruleset_its_comparison_and_its_attack(browser_page):
    page = browser_page.open("editions/saves.html")
    headings = [h.rstrip("¶") for h in page.locator("article h2").all_inner_texts()]
    assert headings[:3] == ["Core Rules", "Earlier edition: Basic Rules", "Quick-reference sheet"], headings
    assert "A worked attack" in headings
    quotes = page.locator("article .admonition.quote")
    assert quotes.count() >= 4  # one box per section quoted
    assert "As printed in" in quotes.first.inner_text()
    table = page.locator("article table").last
    assert "models destroyed" in table.inner_text() and "%" in table.inner_text()
    assert browser_page.errors == []


@pytest.mark.parametrize("width", [1280, 400])
def test_a_concept_page_fits_the_screen(browser_page, width):
    page = browser_page.open("editions/objective-control.html", width=width)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, overflow
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"editions-objective-control-{width}.png"), full_page=False)


def test_the_999m41_column_renders(browser_page):
    """The saves page shows 999.m41 under its short name, after the rulesets before it, with its own quoted text
    and the computed comparison's hand-worked sample (2+ then 3+: 17/18 against the Core Rules' single roll, 5/6)."""
    page = browser_page.open("editions/saves.html")
    headings = [h.rstrip("¶") for h in page.locator("article h2").all_inner_texts()]
    assert "Warhammer 999.m41" in headings, headings
    assert headings.index("Warhammer 999.m41") > headings.index("Core Rules")
    quotes = page.locator("article .admonition.quote", has_text="As printed in Warhammer 999.m41")
    assert quotes.count() == 5  # models/saving-throws and four sections of the weapons chapter
    assert "17/18 here, 5/6 under the Core Rules" in page.locator("article").inner_text()
    assert browser_page.errors == []

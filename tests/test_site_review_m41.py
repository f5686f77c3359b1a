"""The m41@006 -> m41@007 review page of the Errata reviews area, as a reader sees it: the site built the way
`rules40k site` builds it (the review saved into the stage's reviews/, then the pages), opened in headless Chromium at a
desktop and a phone width (screenshots in build/screenshots/, looked at by people)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = REPO_ROOT / "build" / "screenshots"
PAGE = "reviews/m41-006-m41-007.html"


@pytest.fixture(scope="module")
def review_site(built) -> Path:
    """The whole site as `rules40k site` builds it (tests/conftest.py: built), which stages the review first."""
    return built / "site"


def test_the_page_shows_each_note_with_its_status_cells_and_intents(review_site):
    html = (review_site / PAGE).read_text(encoding="utf-8")
    assert "Changed to-wound chart 6+ criteria to be -3 or less" in html  # the note, quoted
    assert "too vague to rebuild" in html and "thrust move to be 2d6 again" in html
    assert "S4 against T8" in html and "m41-006-m41-007.svg" in html
    assert "to_wound_covers_s3_to_t5" in html and "35/36" in html  # an intent and its counterexample
    assert (review_site / "reviews" / "m41-006-m41-007.svg").is_file()


@pytest.mark.parametrize("width", [1400, 400])
def test_the_review_page_fits_the_screen(browser, review_site, width):
    context = browser.new_context(viewport={"width": width, "height": 1000})
    try:
        page = context.new_page()
        page.goto((review_site / PAGE).as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        heading = page.locator("h1").inner_text()
        assert "m41@006" in heading and "m41@007" in heading
        cell = page.locator("td", has_text="S4 against T8").first
        assert cell.is_visible() or cell.count() == 1
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"review-m41-006-007-{width}.png"))
    finally:
        context.close()

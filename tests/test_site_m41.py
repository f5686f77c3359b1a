"""999.m41's area of the site, read as its readers read it: every section has its page with the text quoted and
attributed; the S−T to-wound chart and the WS-against-WS chart are drawn as heatmaps from the functions the
checks verify (each cell read back from the SVG); the author's working notes sit in boxes of their own, apart
from the rules; the findings page carries the document's own contradictions. Then in headless Chromium at a
desktop and a phone width (screenshots in build/screenshots/, looked at by people)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rules import spec
from rules.m41 import assault, shooting

REPO_ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = REPO_ROOT / "build" / "screenshots"
SVG = "{http://www.w3.org/2000/svg}"


def _page(built: Path, ref: str) -> str:
    return (built / "site" / "m41" / f"{ref}.html").read_text(encoding="utf-8")


def test_every_section_of_the_document_has_its_page(built):
    sections = spec.sections("m41")
    assert len(sections) > 500
    for ref in sections:
        text = _page(built, ref)
        assert "Warhammer 999.m41" in text, ref  # the attribution names the document


@pytest.mark.parametrize("name, function, ref", [
    ("to-wound-chart", shooting.to_wound_needed, "shooting/to-wound"),
    ("ws-chart", assault.to_hit_needed, "assault/to-hit"),
])
def test_each_chart_is_drawn_from_its_function(built, name, function, ref):
    """Each heatmap cell's label, read back from the built SVG, is what the chart's function returns, for all
    10 x 10 cells, and the picture is on the page of the section the function encodes."""
    root = ET.parse(built / "site" / "m41" / "plots" / f"{name}.svg").getroot()
    cells = {}
    for group in root.iter(f"{SVG}g"):
        match = re.fullmatch(rf"{name}-(\d+)-(\d+)", group.get("id", ""))
        if match:
            label = "".join(group.find(f"{SVG}text").itertext())
            cells[int(match.group(1)), int(match.group(2))] = int(label.removesuffix("+"))
    assert len(cells) == 100
    for (a, b), needed in cells.items():
        assert needed == function(a, b), (a, b)
    assert f'src="../plots/{name}.svg"' in _page(built, ref) or f'plots/{name}.svg' in _page(built, ref)


def test_the_authors_working_notes_are_boxes_apart_from_the_rules(built):
    noted = [(ref, s) for ref, s in spec.sections("m41").items()
             if any(n.get("kind") == "design_note" for n in s.get("notes") or [])]
    assert len(noted) >= 10
    for ref, section in noted:
        note = next(n for n in section["notes"] if n["kind"] == "design_note")
        assert note["text"][:30] not in section["text"], ref  # moved out of the rule text
        assert "Author" in _page(built, ref), ref


def test_the_findings_page_carries_the_documents_contradictions(built):
    findings = (built / "site" / "m41" / "findings.html")
    text = findings.read_text(encoding="utf-8") if findings.exists() else ""
    from rules40k import annotations
    recorded = annotations.findings("m41")
    assert len(recorded) >= 10
    for finding in recorded:
        assert finding["id"] in text, finding["id"]


@pytest.mark.parametrize("width", [1400, 400])
def test_the_to_wound_page_reads_at_desktop_and_phone_width(browser_page, width):
    page = browser_page.open("m41/shooting/to-wound.html", width=width)
    image = page.locator("img[src$='to-wound-chart.svg']").first
    image.scroll_into_view_if_needed()
    assert page.evaluate("(img) => img.complete && img.naturalWidth > 0", image.element_handle())
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, overflow
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"m41-to-wound-{width}.png"), full_page=True)
    assert browser_page.errors == []

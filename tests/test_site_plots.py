"""The site's pictures and odds tables (site/plots.py): on the pages they illustrate, small, deterministic, and
drawn from the rule functions' own output.

The built-site tests read the real build (the session's ``built`` fixture); the rest call the plot functions
on their own. What they look like was checked by eye (rendered in Chromium), not here.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

from rules.core import attack_sequence
from rules40k import annotations, checks
from rules40k_site import plots

SVG = "{http://www.w3.org/2000/svg}"
#: The pages each picture or table must appear on, and what identifies it there.
EXPECTED = {
    "core/05.01.html": ['<caption>Chance one hit roll hits'],
    "core/05.02.html": ['src="plots/wound-table.svg"', "<caption>Chance one wound roll wounds"],
    "core/05.04.html": ["<caption>Chance one save roll stops the attack",
                        'src="plots/example-walkthrough-boltgun-saves-destroy-one.svg"',
                        'src="plots/example-attached-walkthrough-destroyed-models.svg"'],
    "core/24.10.html": ['src="plots/example-devastating-wounds-example-end-to-end.svg"'],
    "core/24.12.html": ["<caption>Chance each wound is not lost"],
    "missionpack/index.html": ['src="plots/scoring-over-a-game.svg"'],
    "missionpack/scoring-sheet.html": ['src="plots/scoring-over-a-game.svg"'],
}
IMG = re.compile(r'<img [^>]*src="(?P<src>[^"]*plots/[^"]+\.svg)"[^>]*>')


def html_of(built: Path, url: str) -> str:
    return (built / "site" / url).read_text(encoding="utf-8")


def test_pictures_and_tables_are_on_the_pages_they_illustrate(built):
    for url, needles in EXPECTED.items():
        text = html_of(built, url)
        for needle in needles:
            assert needle in text, (url, needle)
        # Right after the rule text, outside the verification material.
        if "/index.html" not in url:
            assert text.index('id="in-figures"') < text.index('class="verification"'), url


def test_every_picture_exists_is_small_and_has_alt_text(built):
    shown = set()
    for page in sorted((built / "site").rglob("*.html")):
        for match in IMG.finditer(page.read_text(encoding="utf-8")):
            image = (page.parent / match.group("src")).resolve()
            assert image.is_file(), (page, match.group("src"))
            assert image.stat().st_size < 40_000, image
            alt = re.search(r'alt="([^"]*)"', match.group(0))
            assert alt and len(alt.group(1)) > 40, (page, match.group("src"))
            assert 'loading="lazy"' in match.group(0)
            shown.add(image)
    written = {p.resolve() for p in (built / "site").glob("*/plots/*.svg")}
    assert written and shown == written  # every picture written is shown somewhere, and none is missing
    for image in written:
        text = image.read_text(encoding="utf-8")
        assert "<dc:date>" not in text and "@font-face" not in text  # no date, no embedded font
        assert ("<image" in text) == (image.name == "wound-table.svg")  # only the heatmap's cells are a bitmap


def test_heatmap_cells_are_what_the_wound_function_returns(built):
    """Each cell's label, read back from the built SVG, is wound_threshold(S, T) for all 16 x 16 cells."""
    root = ET.parse(built / "site" / "core" / "plots" / "wound-table.svg").getroot()
    cells = {}
    for group in root.iter(f"{SVG}g"):
        match = re.fullmatch(r"wound-s(\d+)-t(\d+)", group.get("id", ""))
        if match:
            label = "".join(group.find(f"{SVG}text").itertext())
            cells[int(match.group(1)), int(match.group(2))] = int(label.removesuffix("+"))
    assert len(cells) == plots.SIDES ** 2
    for (s, t), needed in cells.items():
        assert needed == attack_sequence.wound_threshold(s, t), (s, t)


def test_a_picture_renders_byte_identical_twice():
    for draw in (lambda: plots.draw_wound_table(plots.wound_table()),
                 lambda: plots.draw_scoring(plots.primary_maximum(), plots.example_game())):
        first, second = plots.svg_text(draw), plots.svg_text(draw)
        assert first == second
        assert 'class="s0"' in first  # the shared styles were factored out


def test_the_built_pictures_are_what_the_plot_functions_draw(built):
    """The build writes exactly what a fresh render gives (nothing of the build's own state leaks in)."""
    fresh = plots.svg_text(lambda: plots.draw_wound_table(plots.wound_table()))
    assert (built / "site" / "core" / "plots" / "wound-table.svg").read_text(encoding="utf-8") == fresh


def test_odds_follow_the_rolls_rules():
    """Spot values a player knows: 3+ hits 2/3 of the time, 8/9 with a re-roll; an unmodified 6 hits whatever
    the modifier; twin-linked on 4+ wounds 3/4; AP -1 turns a 3+ save into 1/2; an InSv ignores AP."""
    hits = {row["needed"]: row for row in plots.hit_odds()}
    assert hits[3]["modifiers"][0] == Fraction(2, 3) and hits[3]["rerolled"] == Fraction(8, 9)
    assert hits[6]["modifiers"][-1] == Fraction(1, 6) and hits[2]["modifiers"][1] == Fraction(5, 6)
    wounds = {row["needed"]: row for row in plots.wound_odds()}
    assert wounds[4]["twin_linked"] == Fraction(3, 4) and wounds[6]["anti"] == Fraction(1, 2)
    saves = {(row["sv"], row["insv"]): row["ap"] for row in plots.save_odds()}
    assert saves[3, 0][-1] == Fraction(1, 2) and saves[6, 0][-1] == 0
    assert saves[2, 4][-4] == saves[7, 4][0] == Fraction(1, 2)


def test_odds_table_cells_carry_the_exact_chance(built):
    text = html_of(built, "core/05.01.html")
    table = text[text.index("<caption>Chance one hit roll hits"):]
    table = table[:table.index("</table>")]
    row = re.search(r'<th scope="row">3\+</th>(.*?)</tr>', table).group(1)
    assert re.findall(r'title="exactly ([0-9/]+)">', row) == ["1/2", "2/3", "5/6", "8/9", "1/6"]


def examples_by_id() -> dict[str, dict]:
    return {e["id"]: e for e in annotations.examples("core")}


def test_save_roll_outcomes_cover_every_roll_and_mark_the_printed_one():
    example = examples_by_id()["attached-walkthrough-destroyed-models"]
    outcome = plots.example_outcome(example)
    (_, dist, printed), = outcome["panels"]
    assert sum(dist.values()) == 1
    assert printed == len(example["expect"]) == 3  # the walkthrough's rolls destroy three models
    assert sorted(dist) == [0, 1, 2, 3, 4, 5] and all(dist.values())  # from no model to one per save roll


def test_calculator_example_chart_is_the_examples_own_distribution():
    example = examples_by_id()["devastating-wounds-example-end-to-end"]
    outcome = plots.example_outcome(example)
    drawn = {title: dist for title, dist, _ in outcome["panels"]}
    expected = checks.select(checks.plain(checks.call_example(example)), example.get("select"))
    assert expected == example["expect"]
    assert checks.plain(drawn["Wounds lost"]) == example["expect"]


def test_mission_pack_maximum_reaches_the_cap_and_skips_round_one():
    maximum = plots.primary_maximum()
    for data in maximum["objectives"].values():
        assert data["awarded"][0] == 0
        assert sum(data["counted"]) == maximum["cap"] < sum(data["awarded"])


def test_compact_keeps_the_drawing():
    svg = ('<svg><defs><style type="text/css">*{x: y}</style></defs>'
           + '<text style="a: b" x="1.23456" transform="rotate(-0 1.5 2.5)">1</text>' * 3
           + '<path style="c: d" d="M 0.5 1"/></svg>')
    out = plots.compact(svg)
    assert out.count('class="s0"') == 3 and ".s0{a: b}</style>" in out
    assert 'x="1.23"' in out and "rotate" not in out and 'style="c: d"' in out


@pytest.mark.parametrize("call", [plots.CALCULATOR_CALL, plots.SAVE_ROLLS_CALL])
def test_every_outcome_example_has_its_chart(call, built):
    examples = [e for e in annotations.examples("core") if e["call"] == call]
    assert examples
    for example in examples:
        assert (built / "site" / "core" / "plots" / f"example-{example['id']}.svg").is_file(), example["id"]

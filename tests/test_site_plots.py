"""The site's pictures and odds tables (site/plots.py): on the pages they illustrate, small, deterministic, and
drawn from the rule functions' own output.

The built-site tests read the real build (the session's ``built`` fixture); the rest call the plot functions
on their own. What they look like was checked by eye (rendered in Chromium), not here.
"""

from __future__ import annotations

import copy
import dataclasses
import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

from rules import spec
from rules.core import attack_sequence
from rules40k import annotations, checks
from rules40k_site import generate, plots

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


#: The pictures drawn as heatmaps (their cells one bitmap): the Core Rules' wound table and 999.m41's two charts.
HEATMAPS = {"wound-table.svg", "to-wound-chart.svg", "ws-chart.svg"}

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
        assert ("<image" in text) == (image.name in HEATMAPS)  # only the heatmaps' cells are a bitmap


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


def test_compact_cuts_numbers_in_attribute_values_only():
    """Coordinates and style values lose their digits past the hundredth; a label's text is left as written."""
    svg = ('<svg><defs><style type="text/css">*{x: y}</style></defs>'
           '<text x="12.34567" style="font-size: 7.123456px">12.345 of 0.98765</text>'
           '<g id="a"><text y="1.5">x=&quot;3.14159&quot;</text></g></svg>')
    out = plots.compact(svg)
    assert 'x="12.34"' in out and 'style="font-size: 7.12px"' in out and 'y="1.5"' in out
    assert ">12.345 of 0.98765</text>" in out and ">x=&quot;3.14159&quot;</text>" in out


def test_compact_without_a_style_element_keeps_the_inline_styles():
    """No <style> to hold shared styles (matplotlib always writes one): the styles stay inline, nothing raises."""
    svg = "<svg>" + '<path style="a: b" d="M 0.12345 1"/>' * 3 + "</svg>"
    out = plots.compact(svg)
    assert out.count('style="a: b"') == 3 and 'd="M 0.12 1"' in out and "class=" not in out


def test_odds_re_roll_as_the_calculator_does():
    """The [TWIN-LINKED] column is the wound distribution of the calculator's own plan for such a weapon, band by
    band, and without [ANTI] a critical wound comes on the threshold ``critical_wound_threshold`` gives."""
    from rules.calculator import Calculator, to_fraction
    from rules.core import core_abilities
    from rules.scenario import read_scenario

    rows = {row["needed"]: row for row in plots.wound_odds()}
    plain_critical = core_abilities.critical_wound_threshold(None, ())
    for strength, toughness in ((8, 4), (5, 4), (4, 4), (3, 4), (2, 4)):
        scenario = read_scenario({
            "weapons": [{"name": "w", "count": 1, "A": 1, "skill": 3, "S": strength, "AP": 0, "D": 1,
                         "abilities": ["TWIN-LINKED"]}],
            "target": {"models": [{"name": "m", "count": 1, "T": toughness, "Sv": 3, "W": 1}]}})
        plan = Calculator(scenario).plan(scenario.weapons[0], toughness)
        row = rows[plan.explain["wound_roll_needed"]]
        assert row["twin_linked"] == to_fraction(plan.explain["p_wound_per_hit"]), (strength, toughness)
        assert row["critical"] == Fraction(7 - plain_critical, 6)
    assert len(rows) == 5


@pytest.fixture(scope="module")
def books() -> dict:
    """Every ruleset's Book, loaded without a build (no check results)."""
    return {name: generate.load(name, Path("/nonexistent")) for name in spec.rulesets()}


def test_no_outcome_chart_is_dropped_in_any_ruleset(books):
    """Every worked example an outcome chart is drawn for, in every ruleset, gets its picture: none is skipped
    because its call (or the plotting code) failed."""
    drawn = 0
    for name, book in books.items():
        paths = {picture.path for picture in plots.pictures(book)}
        for example in plots.outcome_examples(book.examples):
            assert f"{name}/{plots.PLOT_FOLDER}/example-{example['id']}.svg" in paths, (name, example["id"])
            drawn += 1
    assert drawn >= len(plots.outcome_examples(books["core"].examples)) > 0


def test_a_refused_example_has_no_chart_but_a_plotting_bug_is_not_hidden(books, monkeypatch):
    core = books["core"]
    example = examples_by_id()["devastating-wounds-example-end-to-end"]
    refused = copy.deepcopy(example)
    refused["id"] = "refused"
    refused["args"]["scenario"]["weapons"][0]["A"] = "D7"  # the scenario reader refuses it (a ScenarioError)
    with pytest.raises(plots.ExampleRefused, match="refused: ScenarioError"):
        plots.example_outcome(refused)
    paths = [p.path for p in plots.pictures(dataclasses.replace(core, examples=[refused, example]))]
    assert f"core/plots/example-{example['id']}.svg" in paths and "core/plots/example-refused.svg" not in paths

    def broken(*args, **kwargs):
        return {}["panels"]  # a bug, not a refusal of the example's input

    monkeypatch.setattr(plots, "example_outcome", broken)  # in the plotting code
    with pytest.raises(KeyError):
        plots.pictures(dataclasses.replace(core, examples=[example]))
    monkeypatch.undo()
    monkeypatch.setattr(checks, "call_example", broken)  # or in the code the example runs
    with pytest.raises(KeyError):
        plots.example_outcome(example)


def test_a_bad_example_game_is_a_site_error_naming_the_file(tmp_path, monkeypatch):
    """A game file the ledger refuses (or that is not YAML) stops the build with one sentence naming it, not an
    internal error."""
    bad = tmp_path / "bad-game.yaml"
    monkeypatch.setattr(plots, "EXAMPLE_GAME", str(bad))  # absolute: the repository root is not prefixed
    bad.write_text("mission: take-the-high-ground\nplayers: {attacker: {}}\nevents: []\n", encoding="utf-8")
    with pytest.raises(generate.SiteError) as caught:
        plots.example_game()
    message = str(caught.value)
    assert message.startswith(f"{bad}: ") and message.count(str(bad)) == 1 and "players" in message
    bad.write_text("mission: [\n", encoding="utf-8")
    with pytest.raises(generate.SiteError, match=re.escape(f"{bad}: not valid YAML")):
        plots.example_game()


@pytest.mark.parametrize("call", [plots.CALCULATOR_CALL, plots.SAVE_ROLLS_CALL])
def test_every_outcome_example_has_its_chart(call, built):
    """In every ruleset built, not only the core rules."""
    found = 0
    for ruleset in spec.rulesets():
        for example in annotations.examples(ruleset):
            if example["call"] == call:
                path = built / "site" / ruleset / plots.PLOT_FOLDER / f"example-{example['id']}.svg"
                assert path.is_file(), (ruleset, example["id"])
                found += 1
    assert found

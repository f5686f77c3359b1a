"""The Edition comparison area (site/editions.py, spec/editions.yaml): its pages quote each ruleset's text, show the
computed comparison and the worked attack, and a bad concepts file is one sentence naming the entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import spec
from rules40k_site import editions, generate


@pytest.fixture(scope="module")
def library() -> dict:
    """Every ruleset's Book, loaded without a build (no check results), sharing one library as a build does."""
    shared: dict = {}
    return {name: generate.load(name, Path("/nonexistent"), None, shared) for name in spec.rulesets()}


@pytest.fixture(scope="module")
def pages(library) -> dict[str, str]:
    books = [library[name] for name in ("core", "ninth", "quickref")]
    return editions.pages(books, generate.Page, generate.escape)


def test_every_concept_has_a_page_in_the_nav(library, pages):
    books = [library[name] for name in ("core", "ninth", "quickref")]
    listed = editions.nav_entries(books)[0]["Edition comparison"]
    assert listed[0] == "editions/index.md"
    assert [list(entry.values())[0] for entry in listed[1:]] == [editions.page_path(c) for c in editions.concepts()]
    assert set(pages) == {"editions/index.md", *(editions.page_path(c) for c in editions.concepts())}


def test_a_page_quotes_each_ruleset_and_links_its_sections(pages):
    page = pages["editions/engagement-range.md"]
    for title in ("## Core Rules", "## Earlier edition: Basic Rules", "## Quick-reference sheet"):
        assert title in page
    assert "(../core/03.04.md)" in page and "(../ninth/concepts/engagement-range.md)" in page
    # The earlier edition's own words, quoted from its text (1" horizontally and 5" vertically).
    assert "within 1\" horizontally and 5\" vertically of an enemy model" in page


def test_the_computed_comparison_is_shown_with_named_inputs(pages):
    """Objective Secured against 14.02: one Objective Secured model each side, one model each: nobody controls the
    marker in either edition; the opponent's Objective Secured alone gives it the marker (-1), which the Core Rules,
    counting one OC each, leave to nobody (0)."""
    page = pages["editions/objective-control.md"]
    assert "**differs** on 20 of them" in page
    assert "opponent objective secured in range 1: -1 here, 0 under the Core Rules" in page


def test_the_worked_attack_is_the_same_under_rulesets_that_resolve_it_alike(pages):
    """Two lascannon shots (BS 3+, S12, AP -3, D6+1) at three Ogryn (T6, Sv 5+, W4): the Core Rules and the sheet
    print the same hit, wound and save rolls for it, so the two columns are equal."""
    page = pages["editions/wound-table.md"]
    table = page[page.index("## A worked attack"):]
    rows = [line.split("|")[2:-1] for line in table.split("\n") if line.startswith("| ") and "%" in line]
    assert rows and all(len(set(cells)) == 1 for cells in rows)


def test_the_area_needs_the_core_rules_and_another_ruleset(library):
    assert editions.pages([library["core"]], generate.Page, generate.escape) == {}
    assert editions.nav_entries([library["ninth"]]) == []


@pytest.mark.parametrize("text,message", [
    ("- {id: x, title: X}\n", "entry 1 needs an id, a title and rulesets"),
    ("- {id: x, title: X, rulesets: {core: ['99.99']}}\n", "'99.99' is not a section of core"),
    ("- {id: x, title: X, rulesets: {ninth: [overwatch]}}\n", "the Core Rules among them"),
    ("- {id: x, title: X, rulesets: {core: ['05.02']}}\n- {id: x, title: Y, rulesets: {core: ['05.01']}}\n",
     "entry 2: id 'x' appears twice"),
    ("- {id: x, title: X, rulesets: {core: ['05.02'], nowhere: [a]}}\n", "'nowhere' is not a ruleset"),
    ("- {id: x, title: X, rulesets: {core: ['05.02']}, colour: red}\n", "unknown key 'colour'"),
    ("{}\n", "expected a list of concepts"),
    ("- {id: x, title: X, rulesets: {core: ['05.02']}, attack: {weapons: [], editions: {m41: 3}}}\n",
     "attack.editions.m41 must restate the scenario"),
])
def test_a_bad_concepts_file_is_one_sentence(tmp_path, text, message):
    path = tmp_path / "editions.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(editions.EditionsError) as caught:
        editions.concepts(path)
    assert str(caught.value).startswith(str(path)) and message in str(caught.value)


@pytest.fixture(scope="module")
def pages_with_m41(library) -> dict[str, str]:
    books = [library[name] for name in ("core", "ninth", "quickref", "m41")]
    return editions.pages(books, generate.Page, generate.escape)


def test_999m41_has_its_column_under_its_short_name(library, pages_with_m41):
    """Every concept that names 999.m41's sections gets a column headed by its short name (spec/rulesets.yaml),
    quoting its own text: the to-wound chart's "-3 or less" row on the wound table's page."""
    short = spec.ruleset("m41")["short"]
    named = [c for c in editions.concepts() if "m41" in c["rulesets"]]
    assert len(named) >= 14
    for concept in named:
        page = pages_with_m41[editions.page_path(concept)]
        assert f"## {short}" in page, concept["id"]
        for ref in concept["rulesets"]["m41"]:
            assert f"(../m41/{ref}.md)" in page, (concept["id"], ref)
    assert "-3 or less" in pages_with_m41["editions/wound-table.md"]
    assert short in pages_with_m41["editions/index.md"]


def test_999m41s_comparison_is_shown_with_hand_worked_samples(pages_with_m41):
    """Saves: an armour save of 2+ and an invulnerable 2+ save a wound with 1 - 1/6 x 2/6 = 17/18 in 999.m41 (the
    second save one worse, 3+) and 5/6 under the Core Rules (one roll against the better); the invulnerable save
    agrees on all 5 x 10 x 2 = 100 inputs; overpower, absent from the Core Rules, says why."""
    page = pages_with_m41["editions/saves.md"]
    m41 = page[page.index("## Warhammer 999.m41"):]
    assert "saves (2, 2): 17/18 here, 5/6 under the Core Rules" in m41
    assert "computed on all 100 inputs of its domain: **agree**" in m41
    assert "absent from the Core Rules (The Core Rules have no overpower" in m41


def test_999m41s_worked_attacks_are_its_own_restatement(pages_with_m41):
    """The bolt rifle restated (spec/editions.yaml): 5 models, Assault 2 = 10 shots at BS 4 (3+: 4/6), S4 against T3
    (S - T 1: 3+, 4/6), the AP -1 a rend making the Guardsmen's 5+ a 6+ (fails 5/6): each shot kills with
    2/3 x 2/3 x 5/6 = 10/27, 10 shots at 10 one-wound models: 100/27 = 3.70 expected. The lascannon at the document's
    S9 against T6 (S - T 3: 2+ and overpower, so no save and two wounds an unsaved hit): each shot 2/3 x 5/6 = 5/9
    unsaved; a W4 Ogryn falls to both: 25/81 = 30.9%, none 69.1%. The frag grenade says why 999.m41 has no column."""
    def column(page: str, row: str) -> str:
        table = page[page.index("## A worked attack"):]
        header = next(line for line in table.split("\n") if line.startswith("| models destroyed"))
        at = [cell.strip() for cell in header.split("|")].index("Warhammer 999.m41")
        line = next(line for line in table.split("\n") if line.startswith(f"| {row} |"))
        return [cell.strip() for cell in line.split("|")][at]

    assert column(pages_with_m41["editions/hit-roll.md"], "expected") == "3.70"
    lascannon = pages_with_m41["editions/wound-table.md"]
    assert (column(lascannon, "0"), column(lascannon, "1"), column(lascannon, "2")) == ("69.1%", "30.9%", "0%")
    grenade = pages_with_m41["editions/weapon-types.md"]
    assert "Warhammer 999.m41 does not calculate this attack: its grenades are not thrown" in grenade
    assert "| Warhammer 999.m41 |" not in grenade

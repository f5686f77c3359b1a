"""999.m41's concept map against the Core Rules (spec/m41/annotations/concepts.yaml, rules/m41/core_views.py): each
comparison enumerates its whole domain, and the cells said to differ or agree are the ones worked by hand below
from the two documents' printed rules. Every expected value is worked in its comment."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules import spec
from rules.m41 import core_views
from rules.m41.weapons import WeaponType
from rules40k import compare


#: The claims the map compares by computation, each test below marked with its own.
COMPARED = ("m41:shooting/to-wound", "m41:shooting/to-hit", "m41:weapons/armour-piercing",
            "m41:weapons/invulnerable-saves", "m41:models/saving-throws", "m41:usr/feel-no-pain",
            "m41:movement/split-levels", "m41:movement/engagement-range", "m41:weapons/rapid-fire-weapons")


@pytest.fixture(scope="module")
def verdicts() -> dict[str, dict]:
    return {record["refs"][0]: record for record in compare.compare_ruleset("m41")}


@pytest.fixture(scope="module")
def entries() -> dict[str, dict]:
    return {entry["claim"]: entry for entry in compare.concept_map("m41")}


def _differing(entries: dict, claim: str) -> list[dict]:
    return [cell["inputs"] for cell in compare.differing_cells(entries[claim], "m41")]


@pytest.mark.refs(*COMPARED)
def test_every_comparison_enumerates_its_whole_domain(verdicts, entries):
    """A compared claim's cell count is the product of its inputs' sizes, counted here from the map's own words."""
    for claim, entry in entries.items():
        record = verdicts[spec.qualify("m41", claim)]
        if "compare" not in entry:
            assert record["cells"] == 0 and record["status"] == "absent-from-core", claim
            continue
        size = 1
        for values in entry["compare"]["inputs"].values():
            size *= (2 if values == "bool" else len(values["values"]) if isinstance(values, dict)
                     else values[1] - values[0] + 1)
        assert record["cells"] == size, claim


@pytest.mark.refs("m41:shooting/to-wound")
def test_the_wound_charts_differ_where_a_difference_and_a_ratio_disagree(entries):
    """999.m41 reads S - T (2 or more: 2+, 1: 3+, 0: 4+, -1 and -2: 5+, -3 or less: 6+); 05.02 reads ratios (twice:
    2+, greater: 3+, equal: 4+, less: 5+, half or less: 6+). S5 T3: 2+ against 3+ (5 is not twice 3); S1 T2: 5+
    against 6+ (1 is half of 2); S7 T10: 6+ against 5+ (7 is more than half of 10). They agree on S4 T3 (3+),
    S8 T4 (2+), S3 T6 (6+), S4 T6 (5+) and every S equal to T (4+)."""
    differing = [(c["strength"], c["toughness"]) for c in _differing(entries, "shooting/to-wound")]
    for cell in [(5, 3), (1, 2), (7, 10)]:
        assert cell in differing
    for cell in [(4, 3), (8, 4), (3, 6), (4, 6), *((n, n) for n in range(1, 11))]:
        assert cell not in differing
    assert core_views.to_wound_needed(5, 3) == 3 and core_views.to_wound_needed(7, 10) == 5


@pytest.mark.refs("m41:shooting/to-hit")
def test_to_hit_by_ballistic_skill(entries):
    """BS 3 is 4+ in both; BS 6 with a -1 to hit: 999.m41 needs 1 + 1 = 2, so a 2 hits; the Core Rules' best skill is
    2+ and the -1 makes a 2 count as 1: a miss. An unmodified 6 at BS 1 with -1 to hit: 999.m41 needs 7, a miss;
    the Core Rules' 6 is a critical hit. A -2 to hit counts -1 under the Core Rules' cap: BS 4 (3+) with a 4 hits
    there, and 999.m41's 3 + 2 = 5 misses."""
    differing = [(c["unmodified_roll"], c["ballistic_skill"], c["penalty"])
                 for c in _differing(entries, "shooting/to-hit")]
    assert (2, 6, 1) in differing and (6, 1, 1) in differing and (4, 4, 2) in differing
    assert (4, 3, 0) not in differing and (3, 3, 0) not in differing and (1, 7, -2) not in differing
    assert core_views.hit_scored(4, 4, 2) is True and core_views.hit_scored(2, 6, 1) is False


@pytest.mark.refs("m41:weapons/armour-piercing")
def test_armour_saves_pierced_rended_and_overpowered(entries):
    """Sv 3+ against AP 3: pierced in 999.m41 (7, no save), a 3+ in the Core Rules (AP 0). Against AP 4 both are 3+.
    Sv 4+ against a rend of -1: 5+ in both. Sv 5+ against -2: 7 in both (no roll reaches it). Overpowered, Sv 3+
    against "-" (7): 999.m41's overpower makes it 4+, the Core Rules have no overpower: 3+."""
    assert core_views.armour_save_needed(3, 3) == 3 and core_views.armour_save_needed(5, -2) == 7
    assert core_views.armour_save_needed(4, -1) == 5
    differing = [(c["save"], c["ap"], c["overpowered"]) for c in _differing(entries, "weapons/armour-piercing")]
    assert (3, 3, False) in differing and (3, 7, True) in differing
    assert (3, 4, False) not in differing and (4, -1, False) not in differing and (5, -2, False) not in differing


@pytest.mark.refs("m41:weapons/invulnerable-saves")
def test_invulnerable_saves_agree_on_every_cell(verdicts):
    """Neither game lets AP touch an invulnerable save and both fail a natural 1: the two agree on all 5 saves x
    10 APs x overpowered or not = 100 cells."""
    record = verdicts["m41:weapons/invulnerable-saves"]
    assert record["status"] == "agrees" and record["cells"] == 100 and record["differing"] == 0
    assert core_views.invulnerable_save_needed(4, -3) == 4


@pytest.mark.refs("m41:models/saving-throws")
def test_successive_saves_against_one_roll(entries, verdicts):
    """Sv 2+ with a 2+ invulnerable: 999.m41 takes 2+ then 3+ (one worse): 1 - 1/6 x 2/6 = 17/18; the Core Rules roll
    once: 5/6. Sv 3+ with 5+: 3+ then 6+: 1 - 2/6 x 5/6 = 13/18 against 4/6. Sv 2+ with 6+: the second save stays
    6+ (never past 6+): 1 - 1/6 x 5/6 = 31/36 against 5/6. A single save is the same chance in both."""
    assert core_views.chance_wound_is_saved([2, 2]) == Fraction(5, 6)
    assert core_views.chance_wound_is_saved([3, 5]) == Fraction(2, 3)
    assert core_views.chance_wound_is_saved([4]) == Fraction(1, 2)
    assert core_views.chance_wound_is_saved([6, 3]) == Fraction(2, 3)
    sample = {tuple(c["inputs"]["saves"]): (c["m41"], c["core"])
              for c in verdicts["m41:models/saving-throws"]["differences"]}
    assert sample[(2, 2)] == ("17/18", "5/6")
    differing = [tuple(c["saves"]) for c in _differing(entries, "models/saving-throws")]
    assert (3, 5) in differing and (2, 6) in differing
    assert not any(len(saves) == 1 for saves in differing)


@pytest.mark.refs("m41:usr/feel-no-pain")
def test_feel_no_pain_is_blocked_only_in_999m41(entries):
    """A 5 against Feel no Pain 5+ ignores the wound in both games from an AP 3 attack; from an AP 2 attack, an
    overpowering one or instant death, 999.m41 forbids the roll and the Core Rules still allow it. A 4 fails 5+."""
    differing = [(c["roll"], c["ap"], c["feel_no_pain"], c["overpower"], c["instant_death"])
                 for c in _differing(entries, "usr/feel-no-pain")]
    assert (5, 2, 5, False, False) in differing and (5, 3, 5, True, False) in differing
    assert (5, 3, 5, False, True) in differing
    assert (5, 3, 5, False, False) not in differing and (4, 2, 5, False, False) not in differing
    assert core_views.feel_no_pain_saves(5, 5) is True and core_views.feel_no_pain_saves(4, 5) is False


@pytest.mark.refs("m41:movement/split-levels")
def test_coherency_between_two_levels(entries):
    """999.m41: less than 5" apart in height and within 1 5/8" (3" for Skirmish); 03.03: within 2" and 5". At 5" up
    and 1" across: out in 999.m41, in under the Core Rules; at 1.75": out, in; at 2.5" with Skirmish: in, out; at
    1 5/8" on one level both are in, at 3" both out (without Skirmish)."""
    differing = [(c["vertical_gap"], c["horizontal_distance"], c["skirmish"])
                 for c in _differing(entries, "movement/split-levels")]
    assert (5, 1, False) in differing and (0, 1.75, False) in differing and (0, 2.5, True) in differing
    assert (0, 1.625, False) not in differing and (0, 3, False) not in differing and (0, 2, True) not in differing
    assert core_views.split_level_coherent(5, 2) is True and core_views.split_level_coherent(5.5, 0) is False


@pytest.mark.refs("m41:movement/engagement-range")
def test_where_a_move_may_end_agrees(verdicts):
    """Both games end no move on a friendly model, and a move that is not a charge never in base contact with an
    enemy (within engagement range under the Core Rules): the same on all 2 x 2 x 2 cells."""
    record = verdicts["m41:movement/engagement-range"]
    assert record["status"] == "agrees" and record["cells"] == 8
    assert core_views.may_end_move_at(False, True, True) is True
    assert core_views.may_end_move_at(False, True, False) is False
    assert core_views.may_end_move_at(True, False, True) is False


@pytest.mark.refs("m41:weapons/rapid-fire-weapons")
def test_rapid_fire_doubles_where_the_core_rules_add_x(entries):
    """999.m41 doubles a Rapid Fire weapon's shots within half range; [RAPID FIRE X] adds X: 2 shots with X 2 is 4 in
    both, 1 shot with X 2 is 2 against 3; out of half range both fire the printed shots, moved or not."""
    differing = [(c["shots"], c["within_half_range"], c["rapid_fire_x"], c["moved"])
                 for c in _differing(entries, "weapons/rapid-fire-weapons")]
    assert (1, True, 2, False) in differing and (1, True, 2, True) in differing
    assert (2, True, 2, False) not in differing
    assert not any(not half for _, half, _, _ in differing)
    assert all(c["weapon_type"] == WeaponType.RAPID_FIRE for c in _differing(entries, "weapons/rapid-fire-weapons"))
    assert core_views.rapid_fire_shots(1, True, 2) == 3 and core_views.rapid_fire_shots(3, False, 2) == 3

"""Warhammer 999.m41's Shooting Phase and Morale: the z3 proofs of properties/proofs_m41_shooting.py (each failing
for a broken copy of the rule it rests on), hypothesis properties (each failing for a broken rule), exact odds
and the two printed S−T charts against each other."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest
from hypothesis import Phase as Stage
from hypothesis import given, settings
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs_m41_shooting
from rules import registry, spec
from rules.logic import And, If, Or, check_table
from rules.m41 import assault, morale, shooting
from rules.m41.morale import Morale

MINE = broken_rules.proofs_built_in(proofs_m41_shooting)
NO_EXPLAIN = settings(phases=[stage for stage in Stage if stage != Stage.explain])
PRINTED_TO_HIT = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2}  # "Firer's BS 1 2 3 4 5 / To Hit Roll 6+ 5+ 4+ 3+ 2+"


# -- Proofs ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_m41_shooting_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("m41-higher-bs-never-hits-worse", shooting, "to_hit_needed",
     lambda ballistic_skill: If(ballistic_skill == 6, 3, 7 - ballistic_skill)),
    ("m41-higher-bs-never-hits-worse", shooting, "hit_scored",
     lambda unmodified_roll, ballistic_skill, penalty=0:
     unmodified_roll >= shooting.to_hit_needed(ballistic_skill) - penalty),
    ("m41-roll-of-one-always-misses", shooting, "hit_scored",
     lambda unmodified_roll, ballistic_skill, penalty=0:
     unmodified_roll >= shooting.to_hit_needed(ballistic_skill) + penalty),
    ("m41-to-hit-faces-are-n-or-better", shooting, "hit_scored",  # a 6 read as a miss, as some games' 1 is
     lambda unmodified_roll, ballistic_skill, penalty=0:
     And(unmodified_roll != 1, unmodified_roll != 6, unmodified_roll >= shooting.to_hit_needed(ballistic_skill) + penalty)),
    ("m41-to-hit-faces-are-n-or-better", assault, "hits",  # the modifier subtracted from the roll's need, wrongly
     lambda roll, attacker_ws, defender_ws, modifier=0: roll - modifier <= assault.to_hit_needed(attacker_ws, defender_ws)),
    ("m41-higher-strength-never-wounds-worse", shooting, "to_wound_needed",
     lambda strength, toughness: If(strength - toughness >= 2, 2, If(strength - toughness == 1, 3,
                                    If(strength - toughness == 0, 4, If(strength - toughness < -3, 5, 6))))),
    ("m41-higher-strength-never-wounds-worse", shooting, "to_wound_needed",
     lambda strength, toughness: If(strength - toughness >= 2, 2, If(strength - toughness >= 0, 4, 6)) + 1),
    ("m41-cover-save-worsened-never-past-six", shooting, "cover_save",
     lambda cover, monstrous_vehicle_or_bulky=False:
     shooting.COVER_SAVE_TABLE(cover=cover) + If(And(monstrous_vehicle_or_bulky, cover != 0), 2, 0)),
    ("m41-insane-heroism-and-twelve", morale, "morale_check_passed",
     lambda first_die, second_die, leadership, penalty=0: first_die + second_die <= leadership - penalty),
    ("m41-insane-heroism-and-twelve", morale, "morale_check_passed",
     lambda first_die, second_die, leadership, penalty=0:
     Or(first_die + second_die == 2, first_die + second_die <= leadership - penalty)),
    ("m41-morale-state-machine-possible", morale, "state_after_check",
     lambda state, passed, for_losing_combat=False, rallying=False:
     If(passed, If(state == 3, 0, state), If(state == 0, 1, 3))),
    ("m41-morale-state-machine-possible", morale, "falls_back_on_failing",
     lambda state, for_losing_combat, rallying: Or(state == 1, state == 2, rallying)),
]


def test_m41_shooting_every_proved_proof_has_a_mutant():
    """Every proof expected to hold has at least one broken rule that it catches below."""
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS,
                         ids=[f"{m[0]}:{m[2]}:{i}" for i, m in enumerate(MUTANTS)])
def test_m41_shooting_proof_fails_on_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant, example=False)


# -- Hypothesis properties --------------------------------------------------------------------------------------------


@pytest.mark.refs("m41:shooting/to-hit")
@NO_EXPLAIN
@given(st.integers(1, 10), st.integers(-3, 3))
def test_hit_chance_is_the_printed_chart(ballistic_skill, penalty):
    """The exact chance to hit is the faces 2-6 reaching the printed column (or 7 - BS past 5) plus the penalty."""
    needed = PRINTED_TO_HIT.get(ballistic_skill, 7 - ballistic_skill) + penalty
    expected = Fraction(sum(1 for face in range(2, 7) if face >= needed), 6)
    assert shooting.hit_chance(ballistic_skill, penalty) == expected


@pytest.mark.refs("m41:morale/morale-check", "m41:morale/insane-heroism")
@NO_EXPLAIN
@given(st.integers(2, 12), st.integers(0, 3))
def test_morale_check_odds_are_exact(leadership, penalty):
    """The exact chance to pass a morale check: the 2D6 totals of at most Ld less the penalties, 12 never, double 1s
    always."""
    totals = [a + b for a in range(1, 7) for b in range(1, 7)]
    passes = sum(1 for total in totals if total == 2 or (total != 12 and total <= leadership - penalty))
    assert morale.morale_check_chance(leadership, penalty) == Fraction(passes, 36)


EVENTS = [(passed, losing, rally, trapped) for passed, losing, rally, trapped in itertools.product((True, False),
                                                                                                    repeat=4)]


def _walk(state: int, events) -> list[tuple[int, bool]]:
    """The states a unit goes through, each with whether it rallied at that step; a rally test only when fleeing."""
    out = []
    for passed, losing, rally, trapped in events:
        fleeing_before = state == Morale.FALLING_BACK
        rallying = rally and fleeing_before
        state = morale.state_after_check(state, passed, losing, rallying)
        rallied = fleeing_before and state != Morale.FALLING_BACK
        out.append((state, rallied))
        if trapped:
            state = morale.state_when_trapped(state, True)
    return out


@pytest.mark.refs("m41:morale/morale-check", "m41:morale/rallying", "m41:morale/when-to-fall-back",
                  "m41:morale/trapped")
@NO_EXPLAIN
@given(st.lists(st.sampled_from(EVENTS), max_size=6), st.sampled_from(list(Morale)))
def test_morale_never_reaches_an_impossible_state(events, start):
    """Through any run of checks and traps a unit is always in one of the four states, rallies only from falling back
    on a passed rally test, and is never both rallied and fleeing."""
    state = int(start)
    for (after, rallied), (passed, _, rally, _) in zip(_walk(state, events), events):
        assert after in {int(m) for m in Morale}
        assert not (rallied and after == Morale.FALLING_BACK)
        if rallied:
            assert passed and rally


@pytest.mark.refs("m41:morale/fall-back-moves")
@NO_EXPLAIN
@given(st.lists(st.tuples(st.integers(0, 24), st.integers(1, 6)), max_size=10))
def test_fall_back_never_leaves_negative_models(models):
    """Falling off the table is per model: the models left are those whose D6 move stops short of their edge, never
    fewer than none nor more than there were."""
    left = morale.models_left_after_fall_back(models)
    assert 0 <= left <= len(models)
    assert left == sum(1 for edge, move in models if move < edge)


@pytest.mark.refs("m41:shooting/complex-units-and-hit-groups", "m41:shooting/units-in-partial-cover-continued")
@NO_EXPLAIN
@given(st.integers(0, 40), st.lists(st.integers(1, 6), min_size=1, max_size=4))
def test_hit_dice_counted_out_one_per_model_round_the_groups(hit_dice, group_sizes):
    """All the hit dice are divided up, one per model of a group before the next group, starting with the first:
    after each full round a group has its size's worth more, so no group trails a later one's per-model count."""
    counts = shooting.hit_dice_per_group(hit_dice, group_sizes)
    assert sum(counts) == hit_dice
    left = hit_dice
    expected = [0] * len(group_sizes)
    while left > 0:
        for index, size in enumerate(group_sizes):
            given = min(size, left)
            expected[index] += given
            left -= given
    assert counts == expected


@pytest.mark.refs("m41:shooting/wall-of-death", "m41:shooting/running", "m41:shooting/fleet")
def test_wall_of_death_and_run_distributions_are_exact():
    """Template 2D3 (1,2,3,2,1 ninths over 2-6), large blast D3 (thirds), small blast 1; a run is 3 + D3 (thirds
    over 4-6) and fleet re-rolling a 1 makes 4 a ninth and 5 and 6 four ninths each."""
    ninth = Fraction(1, 9)
    assert shooting.wall_of_death_distribution(shooting.TEMPLATE) == {2: ninth, 3: 2 * ninth, 4: 3 * ninth,
                                                                       5: 2 * ninth, 6: ninth}
    third = Fraction(1, 3)
    assert shooting.wall_of_death_distribution(shooting.LARGE_BLAST) == {1: third, 2: third, 3: third}
    assert shooting.wall_of_death_distribution(shooting.SMALL_BLAST) == {1: Fraction(1)}
    assert shooting.run_distribution() == {4: third, 5: third, 6: third}
    assert shooting.run_distribution(fleet=True) == {4: ninth, 5: 4 * ninth, 6: 4 * ninth}


BROKEN = [
    (test_hit_chance_is_the_printed_chart, shooting, "to_hit_needed",
     lambda ballistic_skill: If(ballistic_skill > 5, 1, 7 - ballistic_skill)),
    (test_hit_chance_is_the_printed_chart, shooting, "hit_scored",
     lambda unmodified_roll, ballistic_skill, penalty=0:
     unmodified_roll >= shooting.to_hit_needed(ballistic_skill) + penalty),
    (test_morale_check_odds_are_exact, morale, "morale_check_passed",
     lambda first_die, second_die, leadership, penalty=0: first_die + second_die <= leadership - penalty),
    (test_morale_check_odds_are_exact, morale, "morale_check_passed",
     lambda first_die, second_die, leadership, penalty=0:
     Or(first_die + second_die == 2, first_die + second_die < leadership - penalty)),
    (test_morale_never_reaches_an_impossible_state, morale, "state_after_check",
     lambda state, passed, for_losing_combat=False, rallying=False: If(passed, 0, If(state == 0, 1, 3))),
    (test_morale_never_reaches_an_impossible_state, morale, "state_when_trapped",
     lambda state, no_avenue_of_retreat: state + 1),
    (test_fall_back_never_leaves_negative_models, morale, "model_falls_off_table",
     lambda distance_to_own_edge, fall_back_move: fall_back_move > distance_to_own_edge),
    (test_hit_dice_counted_out_one_per_model_round_the_groups, shooting, "Min", lambda a, b: b),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}:{b[2]}:{i}" for i, b in enumerate(BROKEN)])
def test_m41_shooting_property_fails_on_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    broken_rules.assert_property_fails(monkeypatch, prop, module, attribute, mutant)


def test_m41_shooting_properties_hold_unbroken():
    """The same properties pass on the real rules (so the failures above come from the mutants)."""
    broken_rules.assert_properties_hold(b[0] for b in BROKEN)


# -- The two printed S−T charts, the literal chart's overlap -----------------------------------------------------------


def _printed_chart_rows(text: str) -> list[str]:
    """The rows under 'Attackers S - Defenders T To Wound roll', up to the next prose line."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("Attackers S - Defenders T To Wound roll"))
    rows = []
    for line in lines[start + 1:]:
        if re.fullmatch(r"[-\w ]+ \d\+", line.strip()):
            rows.append(line.strip())
        elif line.strip():
            break
    return rows


@pytest.mark.refs("m41:shooting/to-wound", "m41:assault/to-wound")
def test_the_two_printed_to_wound_charts_are_the_same_rows_and_one_table():
    """The Shooting and Assault chapters print the same five S−T rows, in order, and one function (one decision
    table whose rows follow that order) decides both."""
    sections = spec.sections("m41")
    shooting_rows = _printed_chart_rows(sections["shooting/to-wound"]["text"])
    assault_rows = _printed_chart_rows(sections["assault/to-wound"]["text"])
    assert shooting_rows == assault_rows == ["2 or greater 2+", "1 3+", "0 4+", "less than 5+", "-3 or less 6+"]
    labels = shooting.TO_WOUND_TABLE.labels()
    assert [label.split(":")[0].split(" [")[0] for label in labels] == [r.rsplit(" ", 1)[0] for r in shooting_rows]
    assert [int(label.rsplit(" ", 1)[1].rstrip("+")) for label in labels] == \
        [int(r.rsplit(" ", 1)[1].rstrip("+")) for r in shooting_rows]
    tagged = registry.load("m41")
    assert {r.function.__name__ for r in tagged["shooting/to-wound"]} == \
        {r.function.__name__ for r in tagged["assault/to-wound"]} >= {"to_wound_needed"}


@pytest.mark.refs("m41:shooting/to-wound")
def test_literal_less_than_row_leaves_the_six_plus_row_unreachable():
    """The chart read as printed ('less than' = below 0, first match) fails the table check: its '-3 or less' row is
    never reached (finding shooting-to-wound-less-than-overlaps), while the encoded chart passes."""
    literal = check_table(proofs_m41_shooting.TO_WOUND_AS_PRINTED)
    assert literal.unreachable == ["-3 or less: 6+"]
    assert check_table(shooting.TO_WOUND_TABLE).problems() == []


@pytest.mark.refs("m41:shooting/to-hit")
def test_to_hit_table_rows_are_the_printed_columns():
    """The to-hit table's first five rows are the printed chart's columns, in order, then the negative buffer."""
    labels = shooting.TO_HIT_TABLE.labels()
    assert [label.split(":")[0] for label in labels[:5]] == [f"BS {bs}" for bs in PRINTED_TO_HIT]
    assert [shooting.to_hit_needed(bs) for bs in PRINTED_TO_HIT] == list(PRINTED_TO_HIT.values())
    assert shooting.to_hit_needed(6) == 1 and shooting.to_hit_needed(7) == 0

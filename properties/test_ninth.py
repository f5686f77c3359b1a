"""The earlier edition's reprinted Basic Rules (ruleset ``ninth``): its z3 proofs (each failing for a broken copy
of the rule it rests on), hypothesis properties (each failing for a broken rule), its tables against the book,
and its annotations (examples, findings, interpretations) against the code and the source text."""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import Phase as Stage
from hypothesis import example, given, note, settings
from hypothesis import strategies as st
import z3

from properties import broken_rules
from properties import mutation, proofs
from properties import proofs_ninth
from rules import logic, registry, spec
from rules.logic import And, If, Not, Or
from rules.ninth import actions, objective_markers, overwatch, strategic_reserves, stratagems
from rules.ninth.objective_markers import ModelNearMarker
from rules.ninth.stratagems import CoreStratagem, Timing
from rules40k import annotations, checks, coverage

RULESET = "ninth"
SEED = Path("/work/shared/seeds/002_c2ee5ee173df7ed1.txt")
WEB = Path("/work/shared/seeds/003_c70556b5c2348838.txt")  # the web page, the edition's other printing
MINE = broken_rules.proofs_built_in(proofs_ninth)
NO_EXPLAIN = settings(phases=[stage for stage in Stage if stage != Stage.explain])


# -- Proofs ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_ninth_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


def _control_with(label_start: str, **changes):
    """The control table with one row changed: a plausible transcription slip."""
    rows = tuple(dataclasses.replace(row, **changes) if row.label.startswith(label_start) else row
                 for row in objective_markers.OBJECTIVE_CONTROL.rows)
    return dataclasses.replace(objective_markers.OBJECTIVE_CONTROL, rows=rows)


def _table_with(table, label_start: str, **changes):
    rows = tuple(dataclasses.replace(row, **changes) if row.label.startswith(label_start) else row
                 for row in table.rows)
    return dataclasses.replace(table, rows=rows)


def _table_without(table, label_start: str):
    return dataclasses.replace(table, rows=tuple(r for r in table.rows if not r.label.startswith(label_start)))


TIES_TO_THE_PLAYER = _control_with(
    "the player has more", when=lambda models_in_range, opponent_models_in_range, **_:
        models_in_range >= opponent_models_in_range)
COPY_PASTED_OBJECTIVE_SECURED = _control_with("Objective Secured: the player", then=objective_markers.OPPONENT)
ETC_WITHOUT_THE_FIRST_BAND = _table_with(
    strategic_reserves.RESERVES_COST, "etc.",
    then=lambda combined_power_rating: strategic_reserves._whole_bands(combined_power_rating))
ROW_MISTYPED_40_50 = _table_with(strategic_reserves.RESERVES_COST, "40-49", when=strategic_reserves._band(40, 50))

# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("ninth-control-one-answer-and-symmetric", objective_markers, "OBJECTIVE_CONTROL", TIES_TO_THE_PLAYER),
    ("ninth-objective-secured-never-loses-a-marker", objective_markers, "OBJECTIVE_CONTROL",
     COPY_PASTED_OBJECTIVE_SECURED),
    ("ninth-objective-secured-flag-or-count", objective_markers, "_any",  # a count read as "two or more"
     lambda secured: secured if isinstance(secured, (bool, z3.BoolRef)) else secured >= 2),
    ("ninth-overwatch-one-face-in-six", overwatch, "overwatch_hits",
     lambda unmodified_roll, ballistic_skill=3, modifier=0: unmodified_roll + modifier >= 6),
    ("ninth-overwatch-never-while-engaged", overwatch, "may_fire_overwatch",
     lambda has_overwatch_rule, target_of_the_charge, enemy_within_engagement_range, charge_roll_made=False:
         And(has_overwatch_rule, target_of_the_charge, Not(charge_roll_made))),
    ("ninth-action-start-exactly-the-listed-conditions", actions, "START_ACTION",
     _table_with(actions.START_ACTION, "an enemy unit other than",
                 when=lambda enemy_units_within_engagement_range, **_: enemy_units_within_engagement_range > 0)),
    ("ninth-psychic-action-conditions", actions, "PSYCHIC_ACTION",
     _table_without(actions.PSYCHIC_ACTION, "it has Fallen Back")),
    ("ninth-perils-two-in-thirty-six", actions, "perils_of_the_warp",
     lambda first_die, second_die: first_die == second_die),
    ("ninth-stratagem-cp-never-negative", stratagems, "may_use_stratagem",
     lambda cp, cost, used_this_phase=False, used_during_a_phase=True:
         And(cp + 1 >= cost, Or(Not(used_during_a_phase), Not(used_this_phase)))),
    ("ninth-stratagem-once-per-phase", stratagems, "may_use_stratagem",
     lambda cp, cost, used_this_phase=False, used_during_a_phase=True: cp >= cost),
    ("ninth-stratagem-once-per-phase", stratagems, "once_per_phase_limit_applies",
     lambda timing: timing != Timing.BEFORE_THE_BATTLE),
    ("ninth-cut-them-down-sixes-only", stratagems, "cut_them_down_mortal_wounds",
     lambda rolls: sum(If(r >= 5, 1, 0) for r in rolls)),
    ("ninth-desperate-breakout-losses-on-ones", stratagems, "desperate_breakout_models_destroyed",
     lambda rolls: sum(If(r <= 2, 1, 0) for r in rolls)),
    ("ninth-emergency-disembarkation-one-or-two", stratagems, "disembarked_model_lost",
     lambda roll, emergency_disembarkation: If(emergency_disembarkation, roll <= 3, roll == 1)),
    ("ninth-insane-bravery-passes-once-per-battle", stratagems, "morale_test_passed",
     lambda passed_on_the_dice, insane_bravery=False: passed_on_the_dice),
    ("ninth-reserves-cost-bands-ten-wide", strategic_reserves, "RESERVES_COST", ETC_WITHOUT_THE_FIRST_BAND),
    ("ninth-reserves-cost-bands-ten-wide", strategic_reserves, "RESERVES_COST", ROW_MISTYPED_40_50),
    ("ninth-reserves-placing-never-negative", strategic_reserves, "reserves_affordable",
     lambda cp, combined_power_rating: cp + 1 >= strategic_reserves.reserves_cost(combined_power_rating)),
    ("ninth-reserves-arrive-from-round-two", strategic_reserves, "FIRST_ARRIVAL_ROUND", 1),
    ("ninth-reserves-arrive-from-round-two", strategic_reserves, "ENEMY_ZONE_OPEN_ROUND", 2),
    ("ninth-reserves-more-than-9-from-enemies", strategic_reserves, "clear_of_enemies",
     lambda closest_enemy_inches, within_1_of_own_edge=False, wholly_within_own_deployment_zone=False:
         Or(closest_enemy_inches >= 9, And(within_1_of_own_edge, wholly_within_own_deployment_zone))),
    ("ninth-reserves-more-than-9-from-enemies", strategic_reserves, "aircraft_set_up_allowed",
     lambda closest_enemy_inches: closest_enemy_inches >= 9),
]


def test_every_proved_ninth_proof_has_a_mutant():
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS,
                         ids=[f"{m[0]}:{m[2]}" for m in MUTANTS])
def test_ninth_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant)


# -- Hypothesis properties ----------------------------------------------------------------------------------------

counts = st.integers(0, 12)


@st.composite
def control_counts(draw) -> tuple[int, int, int, int]:
    """Both players' models in range and, of those, the Objective Secured ones."""
    m, o = draw(counts), draw(counts)
    return m, o, draw(st.integers(0, m)), draw(st.integers(0, o))


@st.composite
def models_near_a_marker(draw, *, max_size: int = 6) -> list[ModelNearMarker]:
    return draw(st.lists(st.builds(
        ModelNearMarker,
        horizontal_inches=st.fractions(0, 6, max_denominator=4), vertical_inches=st.fractions(0, 8, max_denominator=4),
        aircraft=st.booleans(), fortification=st.booleans(), objective_secured=st.booleans(),
        counted_towards_another_marker=st.booleans()), max_size=max_size))


@pytest.mark.refs("ninth:objective-markers", "ninth:objective-secured")
@NO_EXPLAIN
@given(control_counts())
def test_control_is_single_and_symmetric(facts):
    """Control is 1, -1 or 0, swapping the players negates it, and without Objective Secured it follows the counts."""
    m, o, s, os_ = facts
    result = objective_markers.control(m, o, s, os_)
    note(f"{m} models ({s} Objective Secured) against {o} ({os_}): {result}")
    assert result in (1, -1, 0)
    assert objective_markers.control(o, m, os_, s) == -result
    if s == os_ == 0 or (s > 0 and os_ > 0):
        assert result == (m > o) - (o > m)


@pytest.mark.refs("ninth:objective-markers", "ninth:objective-secured")
@NO_EXPLAIN
@given(models_near_a_marker(), models_near_a_marker(), st.data())
def test_aircraft_and_fortifications_never_change_control(mine, theirs, data):
    """Adding or removing AIRCRAFT and Fortification models (in range or not, Objective Secured or not) never
    changes who controls the marker."""
    before = objective_markers.control_from_models(mine, theirs)
    extra = data.draw(models_near_a_marker(max_size=3))
    extra = [dataclasses.replace(m, aircraft=True) if i % 2 == 0 else dataclasses.replace(m, fortification=True)
             for i, m in enumerate(extra)]
    side = data.draw(st.booleans())
    after = objective_markers.control_from_models(mine + extra if side else mine, theirs if side else theirs + extra)
    note(f"extra models {extra} on {'my' if side else 'their'} side: {before} -> {after}")
    assert after == before


@pytest.mark.refs("ninth:objective-markers")
@NO_EXPLAIN
@given(st.dictionaries(st.sampled_from([f"model{i}" for i in range(6)]),
                       st.sets(st.sampled_from(["alpha", "beta", "gamma"]), max_size=3), max_size=6), st.data())
def test_each_model_counts_towards_one_marker(markers_in_range, data):
    """However the choices fall, a model counts towards at most one marker per turn, one it is in range of, and
    every model in range of a marker counts towards one."""
    chosen = {model: data.draw(st.sampled_from(sorted(markers))) for model, markers in markers_in_range.items()
              if len(markers) > 1}
    counted = objective_markers.models_counted_per_marker(markers_in_range, chosen)
    placed = [(marker, model) for marker, models in counted.items() for model in models]
    note(f"{markers_in_range} with choices {chosen}: {counted}")
    assert len({model for _, model in placed}) == len(placed)
    assert all(marker in markers_in_range[model] for marker, model in placed)
    assert {model for _, model in placed} == {m for m, markers in markers_in_range.items() if markers}


@pytest.mark.refs("ninth:objective-markers")
@NO_EXPLAIN
@given(st.sets(st.sampled_from(["alpha", "beta", "gamma"]), min_size=1, max_size=3),
       st.sampled_from(["alpha", "beta", "gamma", "delta"]))
def test_a_model_counts_only_towards_a_marker_chosen_among_its_own(markers, choice):
    """A model in range of several markers counts towards none until one is selected for it, and never towards a
    marker it is not in range of: such a count is refused, not guessed."""
    in_range = {"trooper": markers}
    note(f"in range of {sorted(markers)}, {choice!r} chosen")
    if len(markers) > 1:
        with pytest.raises(ValueError):
            objective_markers.models_counted_per_marker(in_range)
    if choice in markers:
        assert objective_markers.models_counted_per_marker(in_range, {"trooper": choice}) == {choice: ["trooper"]}
    else:
        with pytest.raises(ValueError):
            objective_markers.models_counted_per_marker(in_range, {"trooper": choice})


_COUNTED_PER_MARKER = objective_markers.models_counted_per_marker
_COMBINED_POWER_RATING = strategic_reserves.combined_power_rating


def _refusing_zero(units):
    """A broken sum: "never negative" checked as "positive", so a unit of Power Rating 0 is refused."""
    if any(unit.power_rating == 0 for unit in units):
        raise ValueError("a Power Rating is never negative")
    return _COMBINED_POWER_RATING(units)


def _first_marker(markers_in_range, chosen=None):
    """A broken counter: a model counts towards the first marker it is in range of unless another is chosen."""
    chosen = chosen or {}
    return _COUNTED_PER_MARKER(
        markers_in_range, {m: chosen.get(m, sorted(ks)[0]) for m, ks in markers_in_range.items() if ks})


@pytest.mark.refs("ninth:overwatch")
@NO_EXPLAIN
@given(st.integers(2, 6), st.integers(-3, 3))
def test_overwatch_hits_a_sixth_of_the_time(ballistic_skill, modifier):
    """Whatever the Ballistic Skill and modifier, one Overwatch attack hits with chance 1/6, on the 6 alone."""
    assert overwatch.overwatch_hit_chance(ballistic_skill, modifier) == Fraction(1, 6)
    assert [r for r in range(1, 7) if overwatch.overwatch_hits(r, ballistic_skill, modifier)] == [6]


@pytest.mark.refs("ninth:strategic-reserves/placing-units")
@NO_EXPLAIN
@given(st.integers(0, 500), st.integers(0, 500))
def test_reserves_cost_bands(power, other):
    """The cost never falls as the combined Power Rating rises, is 1CP per started 10 Power, and rises by exactly
    1CP at each multiple of 10."""
    low, high = sorted((power, other))
    cost = strategic_reserves.reserves_cost
    assert cost(low) <= cost(high)
    assert cost(power) == power // 10 + 1
    if power % 10 == 0 and power > 0:
        assert cost(power) == cost(power - 1) + 1
    else:
        assert power == 0 or cost(power) == cost(power - 1)


@pytest.mark.refs("ninth:strategic-reserves/placing-units")
@NO_EXPLAIN
@given(st.lists(st.integers(0, 30), max_size=6), st.integers(0, 12))
@example([0], 1)
def test_placing_pays_the_band_of_the_summed_power_ratings(ratings, cp):
    """The combined Power Rating is the sum of the units' ratings (a rating of 0 included); placing them costs that
    sum's band, is refused without enough CPs, and a negative rating is refused outright."""
    units = [strategic_reserves.ReserveUnit(f"unit {i}", rating) for i, rating in enumerate(ratings)]
    assert strategic_reserves.combined_power_rating(units) == sum(ratings)
    if units and cp < strategic_reserves.reserves_cost(sum(ratings)):
        with pytest.raises(ValueError):
            strategic_reserves.place_into_reserves(cp, units, battle_forged=True)
    else:
        left = cp - (strategic_reserves.reserves_cost(sum(ratings)) if units else 0)
        assert strategic_reserves.place_into_reserves(cp, units, battle_forged=True) == left
    with pytest.raises(ValueError):
        strategic_reserves.combined_power_rating(units + [strategic_reserves.ReserveUnit("broken", -1)])


_OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("use"), st.sampled_from(["Command Re-roll", "COMMAND RE-ROLL", "Cut Them Down",
                                               "Counter-offensive", "Insane Bravery"]),
              st.integers(0, 3), st.sampled_from(list(Timing))),
    st.tuples(st.just("phase"), st.sampled_from(["movement", "shooting", "charge", "fight"])),
    st.tuples(st.just("gain"), st.integers(0, 2))), max_size=25)


@pytest.mark.refs("ninth:stratagems/using-stratagems")
@NO_EXPLAIN
@given(st.integers(0, 6), _OPERATIONS)
@example(2, [("use", "Cut Them Down", 1, Timing.DURING_A_PHASE), ("use", "CUT THEM DOWN", 1, Timing.DURING_A_PHASE)])
def test_stratagem_ledger_never_overspends_or_repeats_in_a_phase(cp, operations):
    """Over any sequence of uses, gains and phases: the CP total never goes below 0, each use costs exactly its
    CP, a refused use changes nothing, no name is used twice in a phase (identical names, any spelling), and a use
    is refused only for too few CPs or a repeat in the phase, the refusal naming which."""
    ledger = stratagems.StratagemLedger(cp)
    in_phase: list[str] = []
    for op in operations:
        if op[0] == "phase":
            ledger, in_phase = ledger.enter_phase(op[1]), []
        elif op[0] == "gain":
            ledger = ledger.gain(op[1])
        else:
            _, name, cost, timing = op
            try:
                after = stratagems.use_stratagem(ledger, name, cost, timing=timing)
            except ValueError as refused:
                note(f"{name} ({cost}CP, {timing.name}) refused: {refused}")
                repeated = timing == Timing.DURING_A_PHASE and name.casefold() in in_phase
                assert cost > ledger.cp or repeated
                assert ("CP are left" in str(refused)) == (cost > ledger.cp)
                continue
            note(f"{name} ({cost}CP, {timing.name}) with {ledger.cp}CP -> {after.cp}CP")
            assert after.cp == ledger.cp - cost
            if timing == Timing.DURING_A_PHASE:
                assert name.casefold() not in in_phase
                in_phase.append(name.casefold())
            ledger = after
        assert ledger.cp >= 0


@pytest.mark.refs("ninth:performing-actions")
@NO_EXPLAIN
@given(st.lists(st.tuples(st.sampled_from(["squad", "scouts", "captain"]),
                          st.sampled_from(["raise banner", "search", "hack"]), st.booleans()), max_size=10))
def test_one_action_per_unit_and_per_action_each_battle_round(attempts):
    """In a battle round, each unit starts at most one action and each action is started by at most one unit."""
    record = actions.ActionRound(battle_round=2)
    started: list[tuple[str, str]] = []
    for unit, action, advanced in attempts:
        try:
            record = actions.start_action(record, unit, action, advanced=advanced)
        except ValueError as refused:
            note(str(refused))
            continue
        started.append((unit, action))
        note(f"{unit} starts {action}")
        assert not advanced
    assert len({u for u, _ in started}) == len(started)
    assert len({a for _, a in started}) == len(started)


def _every_marker(markers_in_range, chosen=None):
    """A broken counter: a model counts towards every marker it is in range of."""
    out: dict = {}
    for model, markers in markers_in_range.items():
        for marker in markers:
            out.setdefault(marker, []).append(model)
    return out


BROKEN = [
    (test_control_is_single_and_symmetric, objective_markers, "OBJECTIVE_CONTROL", TIES_TO_THE_PLAYER),
    (test_aircraft_and_fortifications_never_change_control, objective_markers, "may_control",
     lambda aircraft, fortification: Not(aircraft)),
    (test_each_model_counts_towards_one_marker, objective_markers, "models_counted_per_marker", _every_marker),
    (test_a_model_counts_only_towards_a_marker_chosen_among_its_own, objective_markers, "models_counted_per_marker",
     _first_marker),
    (test_placing_pays_the_band_of_the_summed_power_ratings, strategic_reserves, "combined_power_rating",
     _refusing_zero),
    (test_overwatch_hits_a_sixth_of_the_time, overwatch, "overwatch_hits",
     lambda unmodified_roll, ballistic_skill=3, modifier=0: unmodified_roll + modifier >= 6),
    (test_reserves_cost_bands, strategic_reserves, "RESERVES_COST", ETC_WITHOUT_THE_FIRST_BAND),
    (test_stratagem_ledger_never_overspends_or_repeats_in_a_phase, stratagems, "may_use_stratagem",
     lambda cp, cost, used_this_phase=False, used_during_a_phase=True: Not(And(used_this_phase, used_during_a_phase))),
    (test_stratagem_ledger_never_overspends_or_repeats_in_a_phase, stratagems, "may_use_stratagem",
     lambda cp, cost, used_this_phase=False, used_during_a_phase=True: cp >= cost),
    (test_one_action_per_unit_and_per_action_each_battle_round, actions, "START_ACTION",
     _table_without(_table_without(actions.START_ACTION, "another unit from its army"), "it has already attempted")),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}:{b[2]}" for b in BROKEN])
def test_ninth_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    broken_rules.assert_property_fails(monkeypatch, prop, module, attribute, mutant)


def test_ninth_properties_hold_unbroken():
    """The same properties pass on the real rules (so the failures above come from the mutants)."""
    for prop, *_ in BROKEN:
        assert not mutation.fails(prop, max_examples=100), prop.__name__


# -- Findings and interpretations shown on concrete cases ----------------------------------------------------------


@pytest.mark.refs("ninth:strategic-reserves/setting-up")
def test_reserve_units_fate_rests_on_the_bullet_alone():
    """A unit kept in Strategic Reserves all battle counts as destroyed only because of the summary bullet: the
    prose alone destroys nothing, so the two readings differ on that unit."""
    chosen = strategic_reserves.counts_as_destroyed_at_end_of_battle(still_in_strategic_reserves=True)
    prose_only = False  # no sentence of the prose removes or destroys a unit that never arrives
    assert (chosen, prose_only) == (True, False)
    assert strategic_reserves.counts_as_destroyed_at_end_of_battle(still_in_strategic_reserves=False) is False


def test_objective_secured_counts_once_readings_differ():
    """One Objective Secured model in range of markers A and B, counted towards A; at B the enemy has two models.
    Counted-marker-only: B is the enemy's; every-marker-in-range: B is the player's."""
    sergeant = ModelNearMarker(horizontal_inches=2, objective_secured=True, counted_towards_another_marker=True)
    enemy = [ModelNearMarker(horizontal_inches=1), ModelNearMarker(horizontal_inches=2)]
    chosen = objective_markers.control_from_models([sergeant], enemy)
    every_marker = objective_markers.control_from_models(
        [dataclasses.replace(sergeant, counted_towards_another_marker=False)], enemy)
    assert (chosen, every_marker) == (-1, 1)


def test_enemy_zone_ban_readings_differ_in_round_three(monkeypatch):
    """In the third battle round, by a side edge and partly in the enemy's zone: allowed under the chosen reading,
    refused if the second-round ban lasted ("every-round-from-the-second": the zone never opens)."""
    chosen = strategic_reserves.edge_set_up_allowed(3, True, True)
    assert strategic_reserves.edge_set_up_allowed(2, True, True) is False
    monkeypatch.setattr(strategic_reserves, "ENEMY_ZONE_OPEN_ROUND", 10**6)
    ban_lasts = strategic_reserves.edge_set_up_allowed(3, True, True)
    assert (chosen, ban_lasts) == (True, False)


def test_zero_power_reading():
    """A combined Power Rating of 0 costs the first band's 1CP; placing no units at all costs nothing."""
    assert strategic_reserves.reserves_cost(0) == 1
    assert strategic_reserves.place_into_reserves(2, [], battle_forged=False) == 2


# -- Tables against the book ------------------------------------------------------------------------------------


def _ninth_tables():
    return checks.tables(RULESET)


def test_ninth_tables_have_no_defects_and_both_backends_agree():
    tables = {t.name for t in _ninth_tables()}
    assert {"ninth-objective-marker-control", "ninth-start-action", "ninth-attempt-psychic-action",
            "ninth-core-stratagem-cost", "ninth-core-stratagem-when", "ninth-command-re-roll-rolls",
            "ninth-strategic-reserves-cost", "ninth-strategic-reserves-arrival-turn"} <= tables
    for table in _ninth_tables():
        report = logic.check_table(table)
        assert report.ok, (table.name, report.problems())
        assert logic.enumerate_agreement(table) == [], table.name


def test_ninth_reserves_table_matches_the_book_cell_by_cell():
    """Every printed row of the STRATEGIC RESERVES table, at every Power Rating it covers, costs its printed CPs;
    the "etc." row continues the pattern for the next ten bands."""
    (table,) = spec.sections(RULESET)["strategic-reserves/placing-units"]["tables"]
    assert table["title"] == "STRATEGIC RESERVES"
    printed = [row for row in table["rows"] if row[0] != "etc."]
    assert table["rows"][-1] == ["etc.", "etc."]
    assert [(f"{lo}-{hi}", str(cp)) for lo, hi, cp in strategic_reserves.PRINTED_BANDS] == [tuple(r) for r in printed]
    labels = strategic_reserves.RESERVES_COST.labels()
    for (band, cps), label in zip(printed, labels):
        assert label == f"{band}: {cps}CP"
        low, high = map(int, band.split("-"))
        assert {strategic_reserves.reserves_cost(p) for p in range(low, high + 1)} == {int(cps)}
    last_low, last_cp = strategic_reserves.PRINTED_BANDS[-1][0], strategic_reserves.PRINTED_BANDS[-1][2]
    for step in range(1, 11):
        low = last_low + 10 * step
        assert {strategic_reserves.reserves_cost(p) for p in range(low, low + 10)} == {last_cp + step}


def test_ninth_core_stratagem_cards_match_the_book():
    """Each Core Stratagem's card: its section exists under its title, and its printed cost is the first line."""
    sections = spec.sections(RULESET)
    assert len(stratagems.CORE_STRATAGEMS) == 7
    for which, card in stratagems.CORE_STRATAGEMS.items():
        section = sections[card.ref]
        assert section["title"] == card.title
        assert section["text"].splitlines()[0] == f"{card.cost}CP"
        assert stratagems.core_stratagem_cost(which) == card.cost
        assert "once per battle" in section["text"].casefold() if card.once_per_battle else True
    order = [sections[card.ref]["line"] for card in stratagems.CORE_STRATAGEMS.values()]
    assert order == sorted(order)


def test_ninth_command_re_roll_lists_what_the_card_lists():
    text = spec.sections(RULESET)["stratagems/command-re-roll"]["text"]
    listed = [row.label for row in stratagems.COMMAND_RE_ROLL_ROLLS.rows if row.then is True]
    assert len(listed) == 9
    for label in listed:
        assert label.replace("the dice rolled", "you have rolled the dice") in text or label in text, label


# -- Ledgers refuse what the rules refuse ---------------------------------------------------------------------------


def test_ninth_ledgers_refuse_with_a_reason():
    record = actions.start_action(actions.ActionRound(battle_round=1), "squad", "search")
    with pytest.raises(ValueError, match="already attempted"):
        actions.start_action(record, "squad", "hack")
    with pytest.raises(ValueError, match="same action"):
        actions.start_action(record, "scouts", "search")
    with pytest.raises(ValueError, match="other than an AIRCRAFT"):
        actions.start_action(record, "scouts", "hack", enemy_units_within_engagement_range=2,
                             enemy_aircraft_within_engagement_range=1)
    with pytest.raises(ValueError, match="select the one marker"):
        objective_markers.models_counted_per_marker({"trooper": ["alpha", "beta"]})
    with pytest.raises(ValueError, match="not in range"):
        objective_markers.models_counted_per_marker({"trooper": ["alpha", "beta"]}, {"trooper": "gamma"})
    ledger = stratagems.StratagemLedger(4).enter_phase("fight")
    morale = stratagems.Moment.BEFORE_YOUR_MORALE_TEST
    ledger = stratagems.use_core_stratagem(ledger, CoreStratagem.INSANE_BRAVERY, morale)
    ledger = ledger.enter_phase("morale")
    with pytest.raises(ValueError, match="once per battle"):
        stratagems.use_core_stratagem(ledger, CoreStratagem.INSANE_BRAVERY, morale)
    with pytest.raises(ValueError, match="cannot be used at the moment"):
        stratagems.use_core_stratagem(ledger, CoreStratagem.CUT_THEM_DOWN, stratagems.Moment.OTHER)
    used = stratagems.use_stratagem(ledger, "Tactical Doctrine", 0, timing=Timing.END_OF_THE_BATTLE_ROUND)
    assert stratagems.use_stratagem(used, "TACTICAL DOCTRINE", 0, timing=Timing.END_OF_THE_BATTLE_ROUND).cp == 2
    with pytest.raises(ValueError, match="Battle-forged"):
        strategic_reserves.place_into_reserves(5, [strategic_reserves.ReserveUnit("squad", 5)], battle_forged=False)
    with pytest.raises(ValueError, match="place fewer units"):
        strategic_reserves.place_into_reserves(1, [strategic_reserves.ReserveUnit("squad", 10)], battle_forged=True)
    with pytest.raises(ValueError, match="not placed"):
        strategic_reserves.combined_power_rating([strategic_reserves.ReserveUnit("squad", 5, embarked_in="rhino")])


# -- Annotations: coverage, examples, findings, interpretations --------------------------------------------------


def test_ninth_every_entry_is_encoded_with_an_example():
    """Every section of both printings is encoded or inert with its reason, and every encoded one has an example."""
    rows = coverage.ledger(RULESET)
    assert len(rows) == len(spec.sections(RULESET))
    assert [r["ref"] for r in rows if r["status"] not in ("encoded", "inert")] == []
    assert [r["ref"] for r in rows if r["status"] == "encoded" and r["examples"] == 0] == []


def _evidence():
    out = []
    for kind, records in (("finding", annotations.findings(RULESET)),
                          ("interpretation", annotations.interpretations(RULESET))):
        for record in records:
            out += [(f"{kind} {record['id']}", e) for e in record["evidence"]]
    return out


def test_ninth_evidence_quotes_are_on_their_lines():
    """Evidence cites the reprint (002) or, where the two printings differ, the web page (003)."""
    lines = {seed.name: seed.read_text(encoding="utf-8").splitlines() for seed in (SEED, WEB)}
    evidence = _evidence()
    assert len(evidence) >= 20
    for where, e in evidence:
        assert e["document"] in lines, where
        line = lines[e["document"]][e["line"] - 1]
        assert e["quote"] in line, f"{where}: line {e['line']} of {e['document']} does not hold {e['quote']!r}"


def test_ninth_example_sources_cite_lines_of_their_sections():
    sections = spec.sections(RULESET)
    printed = {"reprint": SEED.read_text(encoding="utf-8").splitlines(),
               "web": WEB.read_text(encoding="utf-8").splitlines()}
    for example in annotations.examples(RULESET):
        line = example["source"]["line"]
        # a section only the web page has (printing: web) gives its lines in the web page
        lines = printed["web" if sections[example["ref"]].get("printing") == "web" else "reprint"]
        assert lines[line - 1].strip(), example["id"]
        low, high = sections[example["ref"]]["lines"]
        overwatch_card = example["ref"] == "stratagems/fire-overwatch" and line == 2807
        reserves_table = example["ref"] == "strategic-reserves/aircraft" and line == 3073
        markers_page = example["ref"] == "objective-secured" and 3133 <= line <= 3138
        assert low <= line <= high or overwatch_card or reserves_table or markers_page, example["id"]


def _ninth_property(name: str):
    """A property of the ninth ruleset by name, from this module or another properties/test_ninth_*.py."""
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name.startswith("test_ninth"):
            found = getattr(importlib.import_module(f"properties.{info.name}"), name.split("[", 1)[0], None)
            if callable(found):
                return found
    return None


def test_ninth_findings_are_shown_by_their_checks():
    registry_ = proofs.load_all()
    interpretations = {i["id"] for i in annotations.interpretations(RULESET)}
    sections = spec.sections(RULESET)
    findings = annotations.findings(RULESET)
    assert len(findings) >= 8
    for finding in findings:
        assert set(finding["refs"]) <= set(sections), finding["id"]
        assert finding["interpretation"] in interpretations, finding["id"]
        check = finding["check"]
        if check.startswith("proof:"):
            item = registry_[check.removeprefix("proof:")]
            assert item.expect == "disproved", finding["id"]
            assert proofs.check(item).status == "disproved", finding["id"]
        else:
            assert check.startswith("property:") and callable(_ninth_property(check.removeprefix("property:"))), check
    recorded = {f["check"] for f in findings}
    for name in MINE:
        if proofs.PROOFS[name].expect == "disproved":
            assert f"proof:{name}" in recorded, name


def test_ninth_interpretations_named_in_code_are_recorded():
    records = {i["id"]: i for i in annotations.interpretations(RULESET)}
    sections = spec.sections(RULESET)
    named = set()
    for functions in registry.all_rules(RULESET).values():
        for function in functions:
            named.update(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+", " ".join(
                re.findall(r"Interpretation:\s*([^\n]+)", function.doc))))
    # A reading no code names is one the printings' comparison leans on: wording that decides nothing.
    from rules40k import printings

    accounted = {name for row in printings.report(RULESET) for name in row["accounted"]}
    assert named <= set(records) and set(records) - named <= accounted, (
        sorted(named - set(records)), sorted(set(records) - named - accounted))
    for record in records.values():
        assert set(record["refs"]) <= set(sections), record["id"]

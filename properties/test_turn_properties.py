"""Hypothesis properties of the turn structure and the player-level rules, each paired with a broken rule
that makes it fail (chapters 07, 08, 10, 14, 15, 16 and the appendix's strength entries)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import Phase as Stage
from hypothesis import example, given, note, settings
from hypothesis import strategies as st

from properties import strategies_turn as s
from rules import logic
from rules.core import (
    actions,
    appendix,
    battle_round,
    command_phase,
    core_concepts,
    datasheets,
    objectives,
    shooting_phase,
    stratagems,
)
from rules.core.stratagems import CoreStratagem, Moment, Occasion, Roll
from rules.state import GameState, MoveType, Phase, UnitState

#: The active profile without hypothesis's "explain" phase, which costs 20 s or more per failure of these
#: many-draw properties (so the broken-rule runs below stay quick); the shrunk example is the report.
NO_EXPLAIN = settings(phases=[stage for stage in Stage if stage != Stage.explain])


# -- Appendix: strength ----------------------------------------------------------------------------


@pytest.mark.refs("appendix/starting-strength-and-half-strength")
@NO_EXPLAIN
@given(s.unit_strengths())
def test_strength_terms_are_consistent(strength):
    """A unit is in exactly one of: not at or below half-strength, at half-strength, below half-strength; and at
    or below half-strength implies below starting strength."""
    ss, models, wounds, w = strength
    at = appendix.at_half_strength(ss, models, wounds, w)
    below = appendix.below_half_strength(ss, models, wounds, w)
    note(f"starting strength {ss}, {models} models, {wounds}/{w} wounds: at half {at}, below half {below}")
    assert not (at and below)
    assert appendix.at_or_below_half_strength(ss, models, wounds, w) == (at or below)
    if at or below:
        assert appendix.below_starting_strength(ss, models, wounds, w)


@pytest.mark.refs("appendix/starting-strength-and-half-strength")
@NO_EXPLAIN
@given(s.unit_strengths(max_models=20))
def test_losing_a_model_never_restores_strength(strength):
    """Losing one more model never takes a unit of two or more from below half-strength back above it."""
    ss, models, wounds, w = strength
    if ss < 2 or models < 2:
        return
    before = appendix.at_or_below_half_strength(ss, models, wounds, w)
    after = appendix.at_or_below_half_strength(ss, models - 1, wounds, w)
    assert after or not before
    assert appendix.below_half_strength(ss, models - 1) or not appendix.below_half_strength(ss, models)


@pytest.mark.refs("appendix/starting-strength-and-half-strength")
@given(st.integers(-3, 0), st.integers(1, 4), st.booleans())
def test_an_impossible_starting_strength_or_w_is_refused_as_such(bad, good, bad_is_w):
    """No unit starts the battle with fewer than 1 model and no W is below 1: the strength terms refuse such a
    unit, and say so (not some later consequence of it, such as "1 to 0 models")."""
    ss, w = (good, bad) if bad_is_w else (bad, good)
    for term in (appendix.below_starting_strength, appendix.at_half_strength, appendix.below_half_strength):
        try:
            term(ss, 1, 1, w)
        except ValueError as refusal:
            assert "starting strength and a model's W characteristic are at least 1" in str(refusal), refusal
        else:
            raise AssertionError(f"{term.__name__} took a starting strength of {ss} and W {w}")


# -- 08.03 Battle-shock -----------------------------------------------------------------------------------


def _command_state(units, turn_player: int, step: str = command_phase.BATTLE_SHOCK) -> GameState:
    return GameState(first_player=1, turn_player=turn_player, phase=Phase.COMMAND, step=step, units=units)


@pytest.mark.refs("08.03")
@NO_EXPLAIN
@given(s.armies(), st.sampled_from([1, 2]))
def test_battle_shock_rolls_are_for_the_active_players_shocked_or_weakened_units(units, player):
    """Exactly the active player's units that are battle-shocked or at or below half-strength take a roll."""
    state = _command_state(units, player)
    rolling = set(command_phase.units_taking_battle_shock_rolls(state))
    expected = {u.name for u in units if u.owner == player and (
        u.battle_shocked or appendix.at_or_below_half_strength(u.starting_strength, u.models, u.wounds, u.max_wounds))}
    note(f"player {player}: rolling {sorted(rolling)}")
    assert rolling == expected


@pytest.mark.refs("08.03", "01.07")
@NO_EXPLAIN
@given(s.armies(max_units=2), st.sampled_from([1, 2]), st.data())
def test_battle_shock_step_leaves_exactly_the_failures_shocked(units, player, data):
    """After the Battle-shock step a unit that rolled is battle-shocked exactly if its roll failed; the others
    keep their state."""
    state = _command_state(units, player)
    rolling = command_phase.units_taking_battle_shock_rolls(state)
    results = {name: data.draw(st.booleans(), label=f"{name} succeeds") for name in rolling}
    after = command_phase.battle_shock_step(state, results)
    for unit in units:
        shocked = after.unit(unit.name).battle_shocked
        assert shocked == (not results[unit.name] if unit.name in results else unit.battle_shocked)


@pytest.mark.refs("08.02")
@NO_EXPLAIN
@given(st.integers(0, 20), st.integers(0, 20), st.sampled_from([1, 2]))
def test_core_cp_is_one_each_whoever_plays(cp_1, cp_2, player):
    """The Gain Core CP step gives each player exactly 1CP, in either player's turn."""
    state = replace(_command_state((), player, command_phase.GAIN_CORE_CP), cp=(cp_1, cp_2))
    after = command_phase.gain_core_cp(state)
    assert after.cp == (cp_1 + 1, cp_2 + 1)
    # The game log (what a failing stateful test prints) must tell each player's CP truly, player 1's first.
    assert after.log[-1].endswith(f": {cp_1 + 1}CP and {cp_2 + 1}CP"), after.log[-1]


# -- 10 Shooting types -------------------------------------------------------------------------------------


@pytest.mark.refs("10.02", "10.04", "10.05", "10.06", "10.07")
@NO_EXPLAIN
@given(s.shooters())
def test_shooting_types_listed_are_those_eligible(unit):
    """eligible_shooting_types lists exactly the types whose ELIGIBLE IF holds, only normal and indirect ever
    together, and agrees with has_eligible_shooting_type on both backends."""
    types = shooting_phase.eligible_shooting_types(**unit)
    note(f"{unit} -> {types}")
    kinds = shooting_phase.ShootingType
    assert len(types) <= 2 and (len(types) < 2 or set(types) == {kinds.NORMAL, kinds.INDIRECT})
    assert bool(types) == shooting_phase.has_eligible_shooting_type(**unit)
    assert logic.evaluate_symbolically(shooting_phase.has_eligible_shooting_type, unit) == bool(types)


# -- 14 Objectives --------------------------------------------------------------------------------------------


@pytest.mark.refs("14.02", "01.07")
@NO_EXPLAIN
@given(s.models_in_range())
def test_level_of_control_counts_unshocked_oc(models):
    """A level of control is the OC of the models within range that are not battle-shocked; '-1' adds nothing."""
    level = objectives.level_of_control(models)
    assert level >= 0
    assert level == sum(m.oc for m in models if not m.battle_shocked and m.oc > 0)


def _recompute(level_1: int, level_2: int, secured: int | None, end_of_phase: bool) -> int | None:
    """14.02-14.03 straight from the text, as an independent check of the table."""
    if secured is not None:
        opponent_level, own_level = (level_2, level_1) if secured == 1 else (level_1, level_2)
        if not (end_of_phase and opponent_level > own_level):
            return secured
    if level_1 != level_2:
        return 1 if level_1 > level_2 else 2
    return None


@pytest.mark.refs("14.02", "14.03")
@NO_EXPLAIN
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.sampled_from([None, 1, 2])), min_size=1,
                max_size=4), st.booleans())
def test_control_follows_levels_and_securing(cases, end_of_phase):
    """Determining control gives each objective to the highest level, keeps secured ones until the opponent is
    greater at the end of a phase, and ends the securing when it passes."""
    state = GameState(objectives=tuple(None for _ in cases), secured=tuple(c[2] for c in cases))
    after = objectives.determine_control(state, [(a, b) for a, b, _ in cases], end_of_phase)
    for (level_1, level_2, secured), controller, still in zip(cases, after.objectives, after.secured):
        expected = _recompute(level_1, level_2, secured, end_of_phase)
        assert controller == expected
        assert still == (secured if secured is not None and expected == secured else None)


@pytest.mark.refs("14.02")
@NO_EXPLAIN
@given(st.integers(-6, -1), st.integers(0, 6), st.booleans(), st.booleans())
def test_a_negative_level_of_control_is_refused(negative, other, first_is_negative, end_of_phase):
    """A level of control adds up OCs that are never below 0, so a negative level (for either player, the
    other's level being fine) is a caller's mistake, refused rather than turned into control."""
    pair = (negative, other) if first_is_negative else (other, negative)
    with pytest.raises(ValueError, match="never negative"):
        objectives.determine_control(GameState(), [pair], end_of_phase)


# -- 15 Stratagems --------------------------------------------------------------------------------------------


def _windows(stratagem: CoreStratagem) -> list[tuple[Phase, bool, Moment]]:
    """Every (phase, your turn?, moment) at which the stratagem's WHEN line allows it."""
    return [(phase, yours, moment) for phase in Phase for yours in (True, False) for moment in Moment
            if stratagems.stratagem_when(stratagem, phase, yours, moment)]


@pytest.mark.refs("15.01", "01.07")
@NO_EXPLAIN
@given(s.armies(max_units=2), st.sampled_from(list(CoreStratagem)), st.sampled_from([1, 2]), st.integers(0, 3),
       st.data())
def test_using_a_stratagem_pays_exactly_its_cost_or_is_refused(units, stratagem, player, cp, data):
    """A use either is refused (ValueError) and changes nothing, or takes exactly its cost from its player, never
    below 0CP, never on their own battle-shocked unit, and records it for the phase and the battle."""
    phase, yours, moment = data.draw(st.sampled_from(_windows(stratagem)), label="when")
    own = [u for u in units if u.owner == player] or list(units)
    target = data.draw(st.sampled_from(own), label="target").name
    occasion = Occasion(moment=moment, subject=target, roll=data.draw(st.sampled_from(list(Roll)), label="roll"),
                        distance_to_nearest_enemy=data.draw(st.integers(0, 15), label="distance"),
                        mode=data.draw(st.sampled_from(list(stratagems.HeroicMode)), label="mode"))
    state = GameState(battle_round=data.draw(st.integers(1, 5)), turn_player=player if yours else 3 - player,
                      phase=phase, step="", cp=(cp, cp), units=units)
    try:
        after = stratagems.use_stratagem(state, player, stratagem, target, occasion)
    except ValueError as refused:
        note(f"refused: {refused}")
        return
    cost = stratagems.use_cost(stratagem, occasion)
    note(f"player {player} used {stratagem.title} for {cost}CP on {target}")
    assert after.cp_of(player) == cp - cost >= 0
    assert after.cp_of(3 - player) == cp
    assert not state.unit(target).battle_shocked
    assert (player, stratagem.title) in after.stratagems_used_this_phase
    assert after.unit(target).stratagems_on_it == 1


# -- 16 Actions ------------------------------------------------------------------------------------------------


@pytest.mark.refs("16.01")
@NO_EXPLAIN
@given(s.armies(min_units=1, max_units=2), st.data())
def test_starting_an_action_then_no_shooting_charging_or_second_action(units, data):
    """A unit starts an action only if eligible; once it has, it is not eligible to shoot (unless TITANIC), to
    declare a charge, or to start another action this turn."""
    unit = data.draw(st.sampled_from(units))
    state = GameState(units=units)
    eligible = actions.unit_eligible_to_start_action(unit)
    try:
        after = actions.start_action(state, unit.name)
    except ValueError:
        assert not eligible
        return
    assert eligible
    started = after.unit(unit.name)
    shoot = shooting_phase.eligible_to_shoot(started.on_battlefield, False, started.started_action,
                                             started.has("TITANIC"))
    assert shoot == started.has("TITANIC")
    assert not actions.may_declare_charge_after_action(started.started_action)
    assert not actions.unit_eligible_to_start_action(started)


@pytest.mark.refs("16.01")
@given(st.lists(st.sampled_from(list(MoveType)), max_size=3))
@example([MoveType.ADVANCE])
@example([MoveType.FALL_BACK])
def test_a_unit_that_advanced_or_fell_back_this_turn_cannot_start_an_action(moves):
    """16.01: a unit otherwise eligible to start an action is not, if it made an advance move or a fall-back move
    this turn (either one is enough); its other moves do not matter."""
    unit = UnitState("Scouts", 1, frozenset({"INFANTRY"}), moves=tuple(moves))
    moved = MoveType.ADVANCE in moves or MoveType.FALL_BACK in moves
    assert bool(actions.unit_eligible_to_start_action(unit)) == (not moved)


@pytest.mark.refs("16.01", "01.07")
@given(st.lists(st.sampled_from(list(MoveType)), max_size=3), st.booleans(), st.booleans())
@example([MoveType.PILE_IN, MoveType.CONSOLIDATION], False, False)
def test_an_action_completes_unless_its_unit_moved_left_or_is_battle_shocked(moves, left, shocked):
    """16.01/01.07: a started action completes if, since, its unit made no move but pile-in and consolidation moves
    and did not leave the battlefield, and it is not battle-shocked."""
    unit = UnitState("Scouts", 1, frozenset({"INFANTRY"}), battle_shocked=shocked, started_action=True)
    fight_moves_only = all(move in (MoveType.PILE_IN, MoveType.CONSOLIDATION) for move in moves)
    completes = actions.unit_action_completes(unit, moves, left)
    assert bool(completes) == (fight_moves_only and not left and not shocked)


# -- 07 The battle round ------------------------------------------------------------------------------------------


@pytest.mark.refs("07.01", "07.02", "07.03")
@NO_EXPLAIN
@given(st.sampled_from([1, 2]), st.integers(1, 5))
def test_a_battle_is_rounds_of_two_ordered_turns(first, rounds):
    """From the start, a battle passes through exactly ``rounds`` battle rounds of two turns each, the first
    player's first, each turn's parts in 07.02's order, and then ends."""
    state = battle_round.begin_battle(first)
    per_turn = len(battle_round.TURN)
    per_round = 2 * per_turn + 2  # start of round, two turns, end of round
    seen = []
    while state.step != battle_round.BATTLE_OVER:
        assert len(seen) <= rounds * per_round, "the battle did not end after its battle rounds"
        before = state.battle_round
        state = battle_round.advance(state, rounds)
        # Battle rounds are counted up from the first (07.03): the count never goes back, not even from
        # the state before the battle to the first battle round.
        assert state.battle_round >= before, f"battle round {before} is followed by battle round {state.battle_round}"
        seen.append((state.battle_round, state.turn_player, state.phase, state.step))
    assert len(seen) == rounds * per_round + 1
    for r in range(rounds):
        block = seen[r * per_round:(r + 1) * per_round]
        assert block[0][::3] == (r + 1, battle_round.START_OF_BATTLE_ROUND)
        assert block[-1][::3] == (r + 1, battle_round.END_OF_BATTLE_ROUND)
        for turn, player in enumerate((first, 3 - first)):
            parts = block[1 + turn * per_turn:1 + (turn + 1) * per_turn]
            assert {p for _, p, _, _ in parts} == {player}
            assert [phase for _, _, phase, _ in parts] == [
                phase for phase in Phase for _ in battle_round.PHASE_STEPS[phase]]  # 07.02's order


_TURN_FACTS = dict(moves=(MoveType.ADVANCE,), set_up_this_turn=True, started_action=True, made_ranged_attacks=True,
                   declared_charge=True)
_PHASE_FACTS = dict(phase_moves=(MoveType.NORMAL,), selected_to_move=True, selected_to_shoot=True,
                    selected_to_fight=True, eligible_to_fight=True, stratagems_on_it=1)


@pytest.mark.refs("07.02")
@NO_EXPLAIN
@given(st.sampled_from([1, 2]), st.integers(1, 2))
def test_this_turn_and_this_phase_facts_last_until_their_turn_or_phase_ends(first, rounds):
    """What a unit did "this turn" holds until the next turn's Start of Turn step, and "this phase" until the
    phase (or the turn) changes: at every step the unit is marked as having done both, then the battle
    moves on one step."""
    unit = UnitState(name="p1-a", owner=1)
    state = battle_round.begin_battle(first, (unit,))
    while state.step != battle_round.BATTLE_OVER:
        marked = replace(state, units=(replace(unit, **_TURN_FACTS, **_PHASE_FACTS),))
        after = battle_round.advance(marked, rounds)
        new_turn = after.step == battle_round.START_OF_TURN
        new_phase = new_turn or after.phase != state.phase or after.step in battle_round.OUTSIDE_TURNS
        note(f"{state.phase.name} {state.step!r} -> {after.phase.name} {after.step!r}")
        got = after.units[0]
        for name, value in _TURN_FACTS.items():
            assert getattr(got, name) == (getattr(unit, name) if new_turn else value), name
        for name, value in _PHASE_FACTS.items():
            assert getattr(got, name) == (getattr(unit, name) if new_phase else value), name
        state = after


# -- Each property fails for a broken rule -------------------------------------------------------------------------


def _reversed_phases():
    return tuple(sorted(battle_round.TURN, key=lambda part: -part[0]))


BROKEN = [
    (test_strength_terms_are_consistent, appendix, "at_half_strength",
     lambda starting_strength, models, wounds=1, w=1: logic.If(starting_strength == 1, 2 * wounds <= w,
                                                                2 * models <= starting_strength)),
    (test_losing_a_model_never_restores_strength, appendix, "below_half_strength",
     lambda starting_strength, models, wounds=1, w=1: logic.If(starting_strength == 1, 2 * wounds > w,
                                                                2 * models > starting_strength)),
    (test_battle_shock_rolls_are_for_the_active_players_shocked_or_weakened_units, command_phase,
     "must_take_battle_shock_roll", lambda battle_shocked, starting_strength, models, wounds=1, w=1: battle_shocked),
    (test_battle_shock_step_leaves_exactly_the_failures_shocked, command_phase, "battle_shocked_after_step_roll",
     core_concepts.battle_shocked_after_roll),
    (test_core_cp_is_one_each_whoever_plays, command_phase, "cp_after_gaining_core_cp",
     lambda cp_1, cp_2: (cp_1 + 1, cp_2)),
    (test_shooting_types_listed_are_those_eligible, shooting_phase, "normal_shooting_eligible",
     lambda engaged, advanced: logic.Not(engaged)),
    (test_level_of_control_counts_unshocked_oc, datasheets, "level_of_control_contribution", lambda oc: oc),
    (test_control_follows_levels_and_securing, objectives, "objective_controller",
     lambda level_1, level_2, secured_by=0, end_of_phase=True: logic.If(level_2 > level_1, 2, 1)),
    (test_using_a_stratagem_pays_exactly_its_cost_or_is_refused, stratagems, "may_use_stratagem",
     lambda cp, cost, used_this_phase, target_stratagems_this_phase, target_friendly, target_battle_shocked,
     more_than_one_allowed=False: True),
    (test_starting_an_action_then_no_shooting_charging_or_second_action, actions, "eligible_to_start_action",
     lambda on_battlefield, aircraft_or_fortification, battle_shocked, oc, engaged, titanic, advanced_or_fell_back,
     started_another_action, shot_this_phase=False: on_battlefield),
    (test_an_impossible_starting_strength_or_w_is_refused_as_such, appendix, "_check_strength_facts",
     lambda starting_strength, models, wounds, w: None),
    (test_a_unit_that_advanced_or_fell_back_this_turn_cannot_start_an_action, actions, "eligible_to_start_action",
     lambda on_battlefield, aircraft_or_fortification, battle_shocked, oc, engaged, titanic, advanced_or_fell_back,
     started_another_action, shot_this_phase=False: True),
    (test_an_action_completes_unless_its_unit_moved_left_or_is_battle_shocked, actions, "move_stops_action",
     lambda move: move == MoveType.NORMAL),
    (test_a_battle_is_rounds_of_two_ordered_turns, battle_round, "turn_player",
     lambda first_player, second_turn: first_player),
    (test_this_turn_and_this_phase_facts_last_until_their_turn_or_phase_ends, battle_round, "facts_reset",
     lambda new_phase, new_turn, reset=battle_round.facts_reset: reset(new_phase, new_phase)),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN, ids=[b[0].__name__ for b in BROKEN])
def test_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    monkeypatch.setattr(module, attribute, mutant)
    with pytest.raises((Exception, pytest.fail.Exception)):
        prop()


def test_battle_order_property_fails_with_phases_out_of_order(monkeypatch):
    """A turn whose parts run in the wrong order breaks the battle-round property."""
    monkeypatch.setattr(battle_round, "TURN", _reversed_phases())
    with pytest.raises((Exception, pytest.fail.Exception)):
        test_a_battle_is_rounds_of_two_ordered_turns()

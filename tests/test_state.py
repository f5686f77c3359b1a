"""rules.state: the game-state records' documented order, starting values and queries."""

from __future__ import annotations

from dataclasses import fields

import pytest

from rules.state import GameState, MoveType, Phase, UnitState


def test_the_parts_of_a_turn_are_numbered_0_to_6_in_07_02s_order():
    """07.02: start of turn, Command, Movement, Shooting, Charge, Fight, end of turn; Phase's docstring numbers
    them 0 to 6 in that order, so comparing two phases says which comes first."""
    assert [phase.name for phase in Phase] == ["START_OF_TURN", "COMMAND", "MOVEMENT", "SHOOTING", "CHARGE",
                                               "FIGHT", "END_OF_TURN"]
    assert [int(phase) for phase in Phase] == list(range(7))


def test_a_unit_with_no_stated_facts_is_one_whole_model_that_has_done_nothing():
    """UnitState's docstring: left out, a unit is one model of one wound and OC 1 at its starting strength,
    worth 0 points, on the battlefield, and has done nothing this turn or phase."""
    unit = UnitState("Lone", 2)
    assert (unit.models, unit.starting_strength, unit.wounds, unit.max_wounds, unit.oc) == (1, 1, 1, 1, 1)
    assert unit.points == 0 and unit.stratagems_on_it == 0
    assert unit.on_battlefield and not unit.destroyed
    flags = [f.name for f in fields(UnitState) if f.type == "bool" and f.name != "on_battlefield"]
    assert flags and not any(getattr(unit, name) for name in flags)
    assert unit.moves == unit.phase_moves == () and not (unit.advanced or unit.fell_back or unit.charged)


def test_a_unit_is_destroyed_exactly_when_it_has_no_models_left():
    assert UnitState("Gone", 1, models=0).destroyed
    assert not UnitState("Last", 1, models=1).destroyed
    assert not UnitState("Squad", 1, models=5).destroyed


def test_move_facts_read_this_turns_moves():
    unit = UnitState("Runners", 1, moves=(MoveType.ADVANCE, MoveType.CHARGE))
    assert unit.advanced and unit.charged and not unit.fell_back and not unit.remained_stationary
    assert UnitState("Still", 1, moves=(MoveType.REMAIN_STATIONARY,)).remained_stationary


def test_keywords_follow_02_05_singular_and_plural_and_a_slash_means_any_of():
    unit = UnitState("Squad", 1, frozenset({"INFANTRY", "GRENADES"}))
    assert unit.has("INFANTRY") and unit.has("GRENADE") and unit.has("VEHICLE/INFANTRY")
    assert not unit.has("VEHICLE")


def test_a_state_with_no_stated_facts_is_the_first_battle_round_with_player_1_first_and_no_cp():
    """GameState's docstring: left out, it is battle round 1, player 1 goes first and has the turn, at the start
    of the turn, and neither player has CP."""
    state = GameState()
    assert (state.battle_round, state.first_player, state.turn_player, state.phase) == (1, 1, 1, Phase.START_OF_TURN)
    assert state.cp == (0, 0) and state.units == ()


UNITS = (UnitState("Mine", 1, models=3), UnitState("Theirs", 2, models=2), UnitState("Dead", 1, models=0))


def test_units_are_found_and_replaced_by_name():
    state = GameState(units=UNITS)
    assert state.unit("Theirs").owner == 2
    with pytest.raises(KeyError):
        state.unit("Nobody")
    hurt = state.with_unit(UnitState("Mine", 1, models=1))
    assert [u.models for u in hurt.units] == [1, 2, 0]
    assert state.unit("Mine").models == 3  # the old state is unchanged (the module docstring)


def test_an_army_is_that_players_units_not_yet_destroyed():
    state = GameState(units=UNITS)
    assert [u.name for u in state.army(1)] == ["Mine"]
    assert [u.name for u in state.army(2)] == ["Theirs"]


def test_each_players_cp_is_read_and_set_by_their_number():
    state = GameState(cp=(3, 5))
    assert (state.cp_of(1), state.cp_of(2)) == (3, 5)
    assert state.with_cp(1, 4).cp == (4, 5)
    assert state.with_cp(2, 0).cp == (3, 0)


def test_the_log_grows_by_notes_and_is_no_part_of_the_states_equality():
    noted = GameState().note("first").note("second")
    assert noted.log == ("first", "second")
    assert noted == GameState()

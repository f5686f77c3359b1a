"""Hypothesis properties of moving, charging, consolidating, surging and flying, each paired with a broken rule
that makes it fail (chapters 09, 11, 12.08, 21, 23 and the appendix's different move characteristics)."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest
from hypothesis import example, given, note
from hypothesis import strategies as st

from properties import strategies_moving as sm
from rules.core import charge_phase, core_concepts, fight_phase, flying_and_surging, movement_phase
from rules.logic import And, Or
from rules.model import Placed, PlacedUnit
from rules.state import GameState, MoveType, UnitState

Move = movement_phase.Move


@pytest.mark.refs("09.02", "09.04", "23.02")
@given(sm.movement_armies(max_units=1))
def test_every_unit_but_aircraft_has_a_move_type(army):
    """09.02/09.04: a unit selected to move can always make some move type (remain stationary at least), unless it
    is an AIRCRAFT that cannot ingress yet."""
    (unit, facts), = army
    moves = movement_phase.eligible_moves(unit, facts.m, facts.disembark_eligible, facts.ingress_eligible)
    note(f"{unit} {facts} -> {moves}")
    if unit.has("AIRCRAFT"):
        assert moves == ([Move.INGRESS] if facts.ingress_eligible else [])
    else:
        assert Move.REMAIN_STATIONARY in moves
        assert (Move.FALL_BACK in moves) == (unit.engaged and facts.m != -1)
        assert (Move.NORMAL in moves) == (unit.on_battlefield and not unit.engaged and facts.m != -1)


@pytest.mark.refs("appendix/different-move-characteristics", "09.05", "09.06")
@given(st.sampled_from([Move.NORMAL, Move.ADVANCE]), st.lists(st.integers(1, 14), min_size=1, max_size=6),
       st.integers(1, 6), st.data())
def test_each_model_moves_by_its_own_m(move, model_m, roll, data):
    """Different move characteristics: each model's maximum distance comes from its own M; changing one model's M
    changes that model's distance only."""
    distances = movement_phase.model_maximum_distances(move, model_m, roll)
    assert distances == [movement_phase.maximum_distance(move, m, roll) for m in model_m]
    i = data.draw(st.integers(0, len(model_m) - 1))
    changed = list(model_m)
    changed[i] += 1
    after = movement_phase.model_maximum_distances(move, changed, roll)
    note(f"{model_m} -> {distances}; {changed} -> {after}")
    assert [a - b for a, b in zip(after, distances)] == [1 if j == i else 0 for j in range(len(model_m))]


def _two_d6_chance(distance_needed: int, modifier: int) -> Fraction:
    hits = sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b + modifier >= distance_needed)
    return Fraction(hits, 36)


@pytest.mark.refs("11.02")
@given(st.integers(0, 14), st.integers(-2, 2))
def test_charge_roll_chance_is_exact(distance_needed, modifier):
    """11.02: the chance a 2D6 charge roll (plus modifiers) reaches a distance is exact, and never rises with the
    distance needed."""
    chance = charge_phase.charge_roll_chance(distance_needed, modifier)
    assert chance == _two_d6_chance(distance_needed, modifier)
    assert charge_phase.charge_roll_chance(distance_needed + 1, modifier) <= chance


_HIGH_UP = (PlacedUnit((Placed(0, 0, base_mm="32", z=0),), owner=1),
            PlacedUnit((Placed(Fraction(5, 2), 0, base_mm="32", z=6, owner=2),), owner=2))


@pytest.mark.refs("11.02", "11.04", "03.04")
@given(sm.charge_scenes())
@example(_HIGH_UP)
def test_charge_roll_of_two_never_finds_a_target(scene):
    """FAILED CHARGES: with a charge roll of 2, an unengaged charger has no enemy unit within the maximum distance
    (interpretation charge-distances-bound-height); with more reach it never loses a target."""
    charger, enemy = scene
    targets = charge_phase.selectable_charge_targets(charger, [enemy], charge_phase.charge_roll_maximum_distance(2))
    note(f"{charger} vs {enemy}: {targets}")
    assert targets == []
    near = charge_phase.selectable_charge_targets(charger, [enemy], 6)
    assert set(near) <= set(charge_phase.selectable_charge_targets(charger, [enemy], 12))


@pytest.mark.refs("09.07")
@given(st.booleans(), st.booleans(), st.integers(1, 10))
def test_fall_back_mode_consequences(battle_shocked, choose_ordered_retreat, models):
    """09.07: the chosen fall-back mode is always selectable; only a desperate escape makes hazard rolls (one per
    model), moves through enemy models, and makes a unit that is not battle-shocked roll for battle-shock."""
    mode = movement_phase.fall_back_mode(battle_shocked, choose_ordered_retreat)
    desperate = mode == movement_phase.FallBackMode.DESPERATE_ESCAPE
    assert movement_phase.fall_back_mode_selectable(mode, battle_shocked)
    assert desperate == (battle_shocked or not choose_ordered_retreat)
    assert movement_phase.fall_back_hazard_rolls(mode, models) == (models if desperate else 0)
    assert movement_phase.fall_back_may_move_through_enemy_models(mode) == desperate
    shock_roll = movement_phase.fall_back_battle_shock_roll_required(mode, battle_shocked)
    assert shock_roll == (desperate and not battle_shocked)


@pytest.mark.refs("09.02")
@given(st.sampled_from([1, 2]), st.sampled_from([1, 2]), st.booleans())
def test_only_the_active_players_units_are_selected_to_move(owner, turn_player, destroyed):
    """09.02: the player whose turn it is selects one unit from their army; an enemy unit, or a destroyed one
    (the rules appendix: destroyed units cannot be selected by rules), is refused."""
    state = GameState(turn_player=turn_player, units=(UnitState(name="Intercessors", owner=owner,
                                                                models=0 if destroyed else 5),))
    stay = movement_phase.Move.REMAIN_STATIONARY
    if owner != turn_player or destroyed:
        with pytest.raises(ValueError):
            movement_phase.select_unit_to_move(state, "Intercessors", stay, [stay])
    else:
        assert movement_phase.select_unit_to_move(state, "Intercessors", stay, [stay]).unit("Intercessors") \
            .selected_to_move


@pytest.mark.refs("09.06", "09.07")
@given(st.lists(st.sampled_from(list(MoveType)), max_size=3), st.sampled_from(list(movement_phase.Activity)),
       st.booleans())
def test_moves_this_turn_restrict_the_rest_of_the_turn(moves, activity, otherwise_stated):
    """09.06/09.07: until the end of the turn, after an advance move a unit is not eligible to declare a charge or
    start an action, after a fall-back move not to shoot either; no other move restricts these, and a rule that
    states otherwise lifts the restriction."""
    shoot = movement_phase.Activity.SHOOT
    expected = not otherwise_stated and (MoveType.FALL_BACK in moves or (MoveType.ADVANCE in moves and
                                                                        activity != shoot))
    assert movement_phase.restricted_this_turn(moves, activity, otherwise_stated) == expected


_ENEMIES = st.lists(st.sampled_from(["Boyz", "Nobz", "Grots", "Deff Dread"]), unique=True, max_size=3)


@pytest.mark.refs("12.08", "09.07")
@given(_ENEMIES, _ENEMIES, st.lists(st.sampled_from(["Objective 1", "Objective 2"]), unique=True, max_size=2),
       st.data())
def test_consolidation_follows_the_modes_in_order(engaged_with, within_3, objectives, data):
    """12.08: ongoing if engaged, else engaging if an enemy is within 3", else objective if one is within 3", else no
    consolidation; what is selected belongs to the mode."""
    within_3 = sorted(set(within_3) | set(engaged_with))  # an engaged enemy is within 3"
    chosen = data.draw(st.lists(st.sampled_from(within_3), min_size=1, unique=True)) if within_3 and not engaged_with \
        else ([data.draw(st.sampled_from(objectives))] if objectives else [])
    result = fight_phase.consolidation_selection(engaged_with, within_3, objectives, chosen)
    note(f"{engaged_with} / {within_3} / {objectives} -> {result}")
    modes = fight_phase.ConsolidationMode
    expected = (modes.ONGOING if engaged_with else modes.ENGAGING if within_3 else
                modes.OBJECTIVE if objectives else modes.NONE)
    assert result["mode"] == expected
    if expected == modes.ONGOING:
        assert result["selected"] == sorted(engaged_with)
    elif expected == modes.ENGAGING:
        assert result["selected"] and set(result["selected"]) <= set(within_3)
    elif expected == modes.OBJECTIVE:
        assert len(result["selected"]) == 1 and result["selected"][0] in objectives


@pytest.mark.refs("12.03")
@given(_ENEMIES, _ENEMIES)
@example(within_5=["Boyz"], chosen=["Boyz"])
@example(within_5=["Boyz", "Nobz"], chosen=[])
@example(within_5=["Boyz"], chosen=["Boyz", "Nobz"])
def test_unengaged_pile_in_selects_one_or_more_units_within_5(within_5, chosen):
    """12.03: an unengaged unit's pile-in targets are the one or more enemy units within 5" its player picks (all
    of them, if they like); an empty pick, or one with a unit that is not within 5", is refused."""
    if chosen and set(chosen) <= set(within_5):
        assert fight_phase.pile_in_targets([], within_5, chosen) == sorted(chosen)
    else:
        with pytest.raises(ValueError):
            fight_phase.pile_in_targets([], within_5, chosen)


_CHOICES = st.lists(st.sampled_from(["Boyz", "Nobz", "Objective 1", "Objective 2"]), unique=True, max_size=3)


@pytest.mark.refs("12.08")
@given(_ENEMIES, st.lists(st.sampled_from(["Objective 1", "Objective 2"]), unique=True, max_size=2), _CHOICES)
@example(within_3=[], objectives=["Objective 1", "Objective 2"], chosen=["Objective 1", "Objective 2"])
@example(within_3=[], objectives=["Objective 1"], chosen=[])
@example(within_3=["Boyz"], objectives=[], chosen=[])
@example(within_3=["Boyz"], objectives=[], chosen=["Boyz", "Nobz"])
def test_unengaged_consolidation_selects_what_its_mode_allows(within_3, objectives, chosen):
    """12.08: an engaging consolidation selects one or more of the enemy units within 3", an objective
    consolidation exactly one of the objectives within 3"; any other choice is refused (a unit with neither
    selects nothing)."""
    if within_3:
        valid, selected = bool(chosen) and set(chosen) <= set(within_3), sorted(chosen)
    elif objectives:
        valid, selected = len(chosen) == 1 and chosen[0] in objectives, list(chosen)
    else:
        valid, selected = True, []
    if valid:
        assert fight_phase.consolidation_selection([], within_3, objectives, chosen)["selected"] == selected
    else:
        with pytest.raises(ValueError):
            fight_phase.consolidation_selection([], within_3, objectives, chosen)


@pytest.mark.refs("12.08")
@given(_ENEMIES, _ENEMIES)
def test_new_foes_must_fight(engaged, already_selected):
    """NEW FOES TO FACE: after an engaging consolidation, exactly the engaged enemy units that have not been selected
    to fight this phase are made to fight; other modes make nobody fight."""
    made = fight_phase.units_made_to_fight(fight_phase.ConsolidationMode.ENGAGING, engaged, already_selected)
    assert set(made) == set(engaged) - set(already_selected)
    assert fight_phase.units_made_to_fight(fight_phase.ConsolidationMode.ONGOING, engaged, already_selected) == []


@pytest.mark.refs("21.02", "23.02")
@given(sm.tabletop_distances(), st.lists(st.sampled_from(["A", "B", "C", "D"]), unique=True, max_size=3),
       st.booleans())
def test_surge_target_is_the_closest(distances, aircraft_units, can_fly):
    """21.02/23.02: the surge target candidates are exactly the closest enemy units, AIRCRAFT ignored unless the
    surging unit can FLY."""
    candidates = flying_and_surging.surge_target_candidates(distances, tuple(aircraft_units), can_fly)
    considered = {n: d for n, d in distances.items() if can_fly or n not in aircraft_units}
    note(f"{distances}, aircraft {aircraft_units}, fly {can_fly} -> {candidates}")
    if not considered:
        assert candidates == []
    else:
        assert candidates and all(distances[c] == min(considered.values()) for c in candidates)
        assert set(candidates) == {n for n, d in considered.items() if d == min(considered.values())}


@pytest.mark.refs("21.03")
@given(st.sampled_from([Move.NORMAL, Move.ADVANCE, Move.FALL_BACK]), st.integers(1, 14), st.integers(1, 6),
       st.booleans(), st.booleans())
def test_taking_to_the_skies_costs_two_inches(move, m, roll, skies, hover):
    """21.03: taking to the skies takes 2" off the maximum distance unless the unit has [HOVER], and never adds any."""
    plain = movement_phase.maximum_distance(move, m, roll)
    flying = movement_phase.maximum_distance(move, m, roll, skies, hover)
    assert flying <= plain
    assert plain - flying == (2 if skies and not hover else 0)


# -- Each property fails for a broken rule -----------------------------------------------------------


def _with_rows(table, rows):
    return dataclasses.replace(table, rows=tuple(rows))


def _charge_reach_horizontal_only(charger, target, maximum):
    pairs = [(a, b) for a in charger.models for b in target.models]
    return And(Or(*(core_concepts.within_horizontally(a, b, 12) for a, b in pairs)),
               Or(*(core_concepts.within_horizontally(a, b, maximum) for a, b in pairs)))


_CM = fight_phase.CONSOLIDATION_MODE
_FB = movement_phase.FALL_BACK_MODE
_ME = movement_phase.MOVE_ELIGIBILITY


def _slowest_model_for_all(move, model_m, advance_roll=0):
    """Gives every model the distance of the slowest one."""
    return [movement_phase.maximum_distance(move, min(model_m), advance_roll)] * len(model_m)


BROKEN = [
    (test_only_the_active_players_units_are_selected_to_move, movement_phase, "select_unit_to_move",
     lambda state, name, move, eligible: state.with_unit(dataclasses.replace(state.unit(name), selected_to_move=True))),
    (test_moves_this_turn_restrict_the_rest_of_the_turn, movement_phase, "restricted_this_turn",
     lambda moves, activity, otherwise_stated=False: bool(moves) and bool(movement_phase.not_eligible_after_move(
         {v: k for k, v in movement_phase.MOVE_TYPE.items()}.get(moves[-1], 1), activity, otherwise_stated))),
    (test_every_unit_but_aircraft_has_a_move_type, movement_phase, "MOVE_ELIGIBILITY",
     _with_rows(_ME, [dataclasses.replace(_ME.rows[0], then=lambda on_battlefield, **_: on_battlefield)]
                + list(_ME.rows[1:]))),
    (test_each_model_moves_by_its_own_m, movement_phase, "model_maximum_distances", _slowest_model_for_all),
    (test_charge_roll_chance_is_exact, charge_phase, "charge_roll_maximum_distance",
     lambda dice_total, modifier=0: dice_total),
    (test_charge_roll_of_two_never_finds_a_target, charge_phase, "charge_target_in_reach",
     _charge_reach_horizontal_only),
    (test_fall_back_mode_consequences, movement_phase, "FALL_BACK_MODE",
     _with_rows(_FB, [dataclasses.replace(_FB.rows[0], when=lambda choose_ordered_retreat, **_: choose_ordered_retreat)]
                + list(_FB.rows[1:]))),
    (test_consolidation_follows_the_modes_in_order, fight_phase, "CONSOLIDATION_MODE",
     _with_rows(_CM, [_CM.rows[0], _CM.rows[2], _CM.rows[1], _CM.rows[3]])),
    (test_unengaged_pile_in_selects_one_or_more_units_within_5, fight_phase, "pile_in_targets",
     lambda engaged_with, within_5, chosen=(), aircraft_units=(), can_fly=False: sorted(set(chosen))),
    (test_unengaged_consolidation_selects_what_its_mode_allows, fight_phase, "consolidation_selection",
     lambda engaged_with, enemies_within_3, objectives_within_3, chosen=(), aircraft_units=(), can_fly=False:
     {"mode": None, "selected": sorted(chosen) if enemies_within_3 else list(chosen) if objectives_within_3 else []}),
    (test_new_foes_must_fight, fight_phase, "units_made_to_fight",
     lambda mode, engaged_enemies, selected_to_fight: list(engaged_enemies)),
    (test_surge_target_is_the_closest, flying_and_surging, "surge_target_candidates",
     lambda enemy_distances, aircraft_units=(), can_fly=False: sorted(
         n for n, d in enemy_distances.items() if d == min(enemy_distances.values()))),
    (test_taking_to_the_skies_costs_two_inches, flying_and_surging, "skies_maximum_distance",
     lambda maximum, takes_to_the_skies, hover: maximum - 2 if takes_to_the_skies else maximum),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN, ids=[b[0].__name__ for b in BROKEN])
def test_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    monkeypatch.setattr(module, attribute, mutant)
    with pytest.raises((Exception, pytest.fail.Exception)):
        prop()

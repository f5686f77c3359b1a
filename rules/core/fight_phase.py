"""Chapter 12 Fight phase: pile-in moves, the fight step's alternation, fight types and consolidation.

The Fight step's sequence is a first-match table (``FIGHT_SELECTION``) over what
the player to select can do, with the rules appendix's passing rule in front of
it; ``fight_sequence_move`` turns it into a transition over per-player facts,
so the same function drives the stateful tests and the z3 termination proofs.
Consolidation modes reuse the SELECTING MODES rule of 09.07.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

from rules.core import aircraft, movement_phase
from rules.logic import And, DecisionTable, If, Implies, Not, Or, Row, Var
from rules.registry import rule
from rules.state import UnitState

PILE_IN_DISTANCE = 3  # 12.03
CONSOLIDATION_DISTANCE = 3  # 12.08
PILE_IN_REACH = 5  # 12.03 'within 5"' (also the appendix's 'more than 5"')


class FightPhaseStep(enum.IntEnum):
    START = 1  # 12.01
    PILE_IN = 2  # 12.02
    FIGHT = 3  # 12.04
    CONSOLIDATE = 4  # 12.07
    END = 5  # 12.09
    DONE = 6


class FightStep(enum.IntEnum):
    """The two steps of the Fight step's sequence (12.04)."""

    FIGHTS_FIRST = 1
    REMAINING = 2


class FightAction(enum.IntEnum):
    """What happens when the sequence comes to a player."""

    SELECT = 1  # the player selects one of their eligible units to fight
    TO_REMAINING = 2  # move on to Resolve Remaining Combats; the same player selects
    OTHER_PLAYER = 3  # not possible: the other player selects
    PASS = 4  # the player passes (rules appendix) and the sequence returns to the opponent
    END = 5  # the Fight step ends


class FightType(enum.IntEnum):
    NORMAL = 1  # 12.05
    OVERRUN = 2  # 12.06


class ConsolidationMode(enum.IntEnum):
    NONE = 0  # no mode's conditions are met: the unit cannot consolidate (09.07 SELECTING MODES)
    ONGOING = 1
    ENGAGING = 2
    OBJECTIVE = 3


# 12.01 / 12.09 The phase's steps -------------------------------------------------------------

FIGHT_PHASE_STEPS = DecisionTable(
    name="fight-phase-steps",
    refs=("12.01", "12.02", "12.04", "12.07", "12.09"),
    inputs=(Var("step", FightPhaseStep.START, FightPhaseStep.END),),
    rows=(
        Row("1. Start of Fight phase: resolve start-of-phase rules, then Pile In",
            lambda step: step == FightPhaseStep.START, FightPhaseStep.PILE_IN),
        Row("2. Pile In, then Fight", lambda step: step == FightPhaseStep.PILE_IN, FightPhaseStep.FIGHT),
        Row("3. Fight, then Consolidate", lambda step: step == FightPhaseStep.FIGHT, FightPhaseStep.CONSOLIDATE),
        Row("4. Consolidate, then End of Fight phase", lambda step: step == FightPhaseStep.CONSOLIDATE,
            FightPhaseStep.END),
        Row("5. End of Fight phase: resolve end-of-phase rules, then the phase ends",
            lambda step: step == FightPhaseStep.END, FightPhaseStep.DONE),
    ),
)


@rule("12.01", "12.09")
def next_fight_phase_step(step: Any) -> Any:
    """Which step of the Fight phase follows this one (start-of-phase rules first, end-of-phase rules last)."""
    return FIGHT_PHASE_STEPS(step=step)


# 12.02 / 12.07 Pile In and Consolidate steps ----------------------------------------------------


@rule("12.02", "12.07")
def step_move_order(turn_player: int, chosen: Sequence[tuple[int, str]]) -> list[str]:
    """The order of the pile-in (or consolidation) moves the players chose: the player whose turn it is
    resolves all of theirs first, then the opponent."""
    return [name for owner, name in chosen if owner == turn_player] + \
           [name for owner, name in chosen if owner != turn_player]


@rule("12.02", "12.07")
def makes_step_move(eligible: Any, moved_this_step: Any, chooses_to: Any) -> Any:
    """A unit makes a pile-in (consolidation) move in that step only if eligible, the player chooses to (it is
    never required), and it has not already made one this step."""
    return And(eligible, Not(moved_this_step), chooses_to)


# 12.03 Pile-in move ----------------------------------------------------------------------------


@rule("12.03", "23.02")
def eligible_to_pile_in(fight_phase: Any, engaged: Any, charged_this_turn: Any,
                        selected_for_overrun_this_phase: Any, is_aircraft: Any = False) -> Any:
    """Eligible for a pile-in move in the Fight phase if engaged, if it charged this turn, or if it was selected to
    make an overrun fight this phase (never an AIRCRAFT unit, 23.02)."""
    return And(fight_phase, Or(engaged, charged_this_turn, selected_for_overrun_this_phase),
               aircraft.aircraft_may_make_move(is_aircraft, False))


def _considered(enemies: Iterable[str], aircraft_units: Sequence[str], can_fly: bool) -> list[str]:
    """Private: enemy units a pile-in/consolidation/surge move may select (AIRCRAFT ignored unless it can FLY)."""
    return [e for e in enemies if not aircraft.ignore_when_selecting_enemies(e in aircraft_units, True, can_fly)]


@rule("12.03", "23.02")
def pile_in_targets(engaged_with: Sequence[str], within_5: Sequence[str], chosen: Sequence[str] = (),
                    aircraft_units: Sequence[str] = (), can_fly: bool = False) -> list[str]:
    """Before moving: an engaged unit selects every enemy unit it is engaged with; otherwise one or more enemy
    units within 5" (the player's ``chosen``). AIRCRAFT are ignored unless the unit can FLY."""
    if engaged_with:
        return sorted(_considered(engaged_with, aircraft_units, can_fly))
    allowed = set(_considered(within_5, aircraft_units, can_fly))
    if not chosen or not set(chosen) <= allowed:
        raise ValueError("an unengaged unit's pile-in targets must be one or more enemy units within 5\"")
    return sorted(set(chosen))


@rule("12.03", "12.08")
def model_may_be_moved(in_base_contact_with_enemy: Any) -> Any:
    """Pile-in and ongoing consolidation: a model in base contact with an enemy model cannot be moved."""
    return Not(in_base_contact_with_enemy)


@rule("12.03", "12.08")
def moved_model_end_allowed(ends_closer_to_closest_target: Any, can_end_engaged_with_it: Any,
                            ends_engaged_with_it: Any) -> Any:
    """Each moved model ends closer to the closest target (pile-in target or selected enemy unit), and engaged
    with it if possible."""
    return And(ends_closer_to_closest_target, Implies(can_end_engaged_with_it, ends_engaged_with_it))


@rule("12.03")
def pile_in_can_end(unit_engaged: Any, every_model_kept_its_engagements: Any) -> Any:
    """After piling in, the unit is engaged and each model still engages every enemy unit it started engaged with."""
    return And(unit_engaged, every_model_kept_its_engagements)


# 12.04 Fight: eligibility and the sequence ----------------------------------------------------


@rule("12.04", "12.08")
def eligible_to_fight(selected_to_fight_this_phase: Any, engaged: Any, engaged_at_start_of_step: Any,
                      charged_this_turn: Any, made_eligible_by_rule: Any = False) -> Any:
    """Eligible to fight: not yet selected to fight this phase, and engaged (now or at the start of the Fight step),
    or it charged this turn (or a rule such as engaging consolidation, 12.08, makes it eligible)."""
    return And(Not(selected_to_fight_this_phase),
               Or(engaged, engaged_at_start_of_step, charged_this_turn, made_eligible_by_rule))


_SEQUENCE_LABELS = (
    "1. Fights First: select one of your eligible Fights First units",
    "1. not possible, no Fights First unit is eligible: Resolve Remaining Combats, where this player selects",
    "1. not possible just after the opponent passed: select from your remaining eligible units",
    "1. not possible otherwise: the other player selects",
    "2. Remaining: select one of your eligible units",
    "2. not possible, no unit is eligible: the Fight step ends",
    "2. not possible otherwise: the other player selects",
)


def _sequence_rows(pass_bounce_row: bool) -> tuple[Row, ...]:
    """Private: the rows of the Fight step's sequence, with or without the interpretation's extra row."""
    ff, no_ff, after_pass, ff_other, sel, none, other = _SEQUENCE_LABELS
    body = [
        Row(ff, lambda step, has_fights_first, **_: And(step == FightStep.FIGHTS_FIRST, has_fights_first),
            FightAction.SELECT, overrides=(after_pass, ff_other) if pass_bounce_row else (ff_other,)),
        Row(no_ff, lambda step, any_fights_first, **_: And(step == FightStep.FIGHTS_FIRST, Not(any_fights_first)),
            FightAction.TO_REMAINING, overrides=(ff_other,)),
    ]
    if pass_bounce_row:
        body.append(Row(after_pass, lambda step, opponent_passed_last, **_: And(step == FightStep.FIGHTS_FIRST,
                                                                                opponent_passed_last),
                        FightAction.TO_REMAINING, overrides=(ff_other,)))
    body += [
        Row(ff_other, lambda step, **_: step == FightStep.FIGHTS_FIRST, FightAction.OTHER_PLAYER),
        Row(sel, lambda step, has_eligible, **_: And(step == FightStep.REMAINING, has_eligible), FightAction.SELECT,
            overrides=(other,)),
        Row(none, lambda step, any_eligible, **_: And(step == FightStep.REMAINING, Not(any_eligible)), FightAction.END,
            overrides=(other,)),
        Row(other, lambda step, **_: step == FightStep.REMAINING, FightAction.OTHER_PLAYER),
    ]
    later = tuple(row.label for row in body)
    passing = (
        Row("Pass (appendix) just after the opponent passed: both passed in succession, the Fight step ends",
            lambda wants_to_pass, may_pass, opponent_passed_last, **_: And(wants_to_pass, may_pass,
                                                                           opponent_passed_last),
            FightAction.END, overrides=("Pass (appendix): the sequence returns to the opponent",) + later),
        Row("Pass (appendix) when the opponent has no eligible unit left: the Fight step ends",
            lambda wants_to_pass, may_pass, opponent_has_eligible, **_: And(wants_to_pass, may_pass,
                                                                           Not(opponent_has_eligible)),
            FightAction.END, overrides=("Pass (appendix): the sequence returns to the opponent",) + later),
        Row("Pass (appendix): the sequence returns to the opponent",
            lambda wants_to_pass, may_pass, **_: And(wants_to_pass, may_pass), FightAction.PASS, overrides=later),
    )
    return passing + tuple(body)


_SEQUENCE_INPUTS = (
    Var("step", FightStep.FIGHTS_FIRST, FightStep.REMAINING), Var("has_fights_first", kind="bool"),
    Var("any_fights_first", kind="bool"), Var("has_eligible", kind="bool"), Var("any_eligible", kind="bool"),
    Var("may_pass", kind="bool"), Var("wants_to_pass", kind="bool"), Var("opponent_passed_last", kind="bool"),
    Var("opponent_has_eligible", kind="bool"),
)


def _sequence_assumptions(step, has_fights_first, any_fights_first, has_eligible, any_eligible, may_pass,
                          wants_to_pass, opponent_passed_last, opponent_has_eligible):
    """Private: the facts hang together (a Fights First unit is an eligible unit; 'all of none' is vacuous)."""
    return And(Implies(has_fights_first, And(any_fights_first, has_eligible)),
               Implies(any_fights_first, any_eligible),
               any_eligible == Or(has_eligible, opponent_has_eligible),
               Implies(And(any_fights_first, Not(has_fights_first)), opponent_has_eligible),
               Implies(Not(has_eligible), may_pass))


FIGHT_SELECTION = DecisionTable(
    name="fight-step-sequence",
    refs=("12.04", "appendix/eligible-to-fight-but-unable-to-fight"),
    inputs=_SEQUENCE_INPUTS,
    assume=_sequence_assumptions,
    rows=_sequence_rows(pass_bounce_row=True),
    notes={"1. not possible just after the opponent passed: select from your remaining eligible units":
           "Interpretation fights-first-pass-hands-over; without this row the sequence can loop (finding)."},
)


def fight_selection_as_written() -> DecisionTable:
    """The Fight step's sequence exactly as printed (no row for a pass in the Fights First step)."""
    return replace(FIGHT_SELECTION, name="fight-step-sequence-as-written", rows=_sequence_rows(pass_bounce_row=False),
                   notes={})


@rule("12.04", "appendix/eligible-to-fight-but-unable-to-fight")
def fight_step_action(step: Any, has_fights_first: Any, any_fights_first: Any, has_eligible: Any, any_eligible: Any,
                      may_pass: Any, wants_to_pass: Any, opponent_passed_last: Any, opponent_has_eligible: Any) -> Any:
    """What happens when the Fight step's sequence comes to a player: select, move on, hand over, pass or end.

    Interpretation: fights-first-pass-hands-over.
    """
    return FIGHT_SELECTION(step=step, has_fights_first=has_fights_first, any_fights_first=any_fights_first,
                           has_eligible=has_eligible, any_eligible=any_eligible, may_pass=may_pass,
                           wants_to_pass=wants_to_pass, opponent_passed_last=opponent_passed_last,
                           opponent_has_eligible=opponent_has_eligible)


@rule("12.04", "appendix/eligible-to-fight-but-unable-to-fight")
def fight_sequence_move(step: Any, chooser: Any, passed_last: Any, fights_first: tuple[Any, Any],
                        eligible: tuple[Any, Any], far: tuple[Any, Any], wants_to_pass: Any,
                        table: DecisionTable | None = None) -> tuple[Any, Any, Any, Any]:
    """One move of the sequence from the facts per player (index 0 = player 1): has an eligible Fights First unit,
    has an eligible unit, all its eligible units are more than 5" from every enemy unit.

    Returns (action, next step, next player to select, whether that player's opponent just passed).
    ``table`` replaces the sequence table (the proofs pass the as-written one).
    """
    def own(pair):
        return If(chooser == 1, pair[0], pair[1])

    def theirs(pair):
        return If(chooser == 1, pair[1], pair[0])

    facts = dict(step=step, has_fights_first=own(fights_first), any_fights_first=Or(*fights_first),
                 has_eligible=own(eligible), any_eligible=Or(*eligible), may_pass=own(far),
                 wants_to_pass=wants_to_pass, opponent_passed_last=passed_last, opponent_has_eligible=theirs(eligible))
    action = fight_step_action(**facts) if table is None else table(**facts)
    next_step = If(action == FightAction.TO_REMAINING, FightStep.REMAINING, step)
    hands_over = Or(action == FightAction.OTHER_PLAYER, action == FightAction.PASS)
    next_chooser = If(hands_over, 3 - chooser, chooser)
    next_passed = If(action == FightAction.PASS, True, If(action == FightAction.TO_REMAINING, passed_last, False))
    return action, next_step, next_chooser, next_passed


@rule("12.04")
def after_fight(step: Any, fighter_owner: Any, turn_player: Any, fights_first_eligible_now: Any) -> tuple[Any, Any]:
    """After a fight the other player selects next; after a fight in Resolve Remaining Combats, the sequence returns
    to Resolve Fights First Combats if a Fights First unit is now eligible.

    Returns (next step, next player to select). Interpretation: fights-first-return-alternates
    (``turn_player`` would select on the rejected reading).
    """
    back = And(step == FightStep.REMAINING, fights_first_eligible_now)
    return If(back, FightStep.FIGHTS_FIRST, step), 3 - fighter_owner


@dataclass(frozen=True)
class FightSequence:
    """Where the Fight step's sequence stands: the step, who selects next, whether their opponent just passed."""

    step: int = FightStep.FIGHTS_FIRST
    chooser: int = 1
    passed_last: bool = False
    ended: bool = False


@rule("12.04")
def start_fight_step(turn_player: int) -> FightSequence:
    """The sequence starts in Resolve Fights First Combats with the player whose turn it is."""
    return FightSequence(FightStep.FIGHTS_FIRST, turn_player)


def _player_facts(units: Sequence[UnitState], far: Iterable[str]) -> tuple[tuple, tuple, tuple]:
    """Private: per player, an eligible Fights First unit? an eligible unit? all eligible units far away?"""
    far = set(far)
    eligible = [[u for u in units if u.owner == p and u.eligible_to_fight and not u.destroyed] for p in (1, 2)]
    return (tuple(any(u.fights_first for u in e) for e in eligible), tuple(bool(e) for e in eligible),
            tuple(bool(may_pass([u.name in far for u in e])) for e in eligible))


@rule("12.04")
def selectable_to_fight(sequence: FightSequence, units: Sequence[UnitState]) -> list[str]:
    """The units the player to select may select now: eligible Fights First units in Resolve Fights First Combats,
    any eligible unit in Resolve Remaining Combats."""
    return [u.name for u in units if u.owner == sequence.chooser and u.eligible_to_fight and not u.destroyed
            and (u.fights_first or sequence.step == FightStep.REMAINING)]


@rule("12.04", "appendix/eligible-to-fight-but-unable-to-fight")
def advance_fight_sequence(sequence: FightSequence, units: Sequence[UnitState], far_from_enemies: Iterable[str] = (),
                           wants_to_pass: bool = False) -> tuple[FightSequence, FightAction]:
    """The next move of the sequence for these units (``far_from_enemies``: units more than 5" from all enemies)."""
    if sequence.ended:
        raise ValueError("the Fight step has already ended")
    fights_first, eligible, far = _player_facts(units, far_from_enemies)
    action, step, chooser, passed = fight_sequence_move(sequence.step, sequence.chooser, sequence.passed_last,
                                                        fights_first, eligible, far, wants_to_pass)
    action = FightAction(action)
    return FightSequence(step, chooser, passed, action == FightAction.END), action


@rule("12.04")
def resolve_selected_fight(sequence: FightSequence, units: Sequence[UnitState], name: str, turn_player: int,
                           newly_eligible: Sequence[str] = ()) -> tuple[FightSequence, list[UnitState]]:
    """The player to select selects ``name``: it is selected to fight (never eligible again this phase), it fights,
    and the sequence moves on.

    ``newly_eligible`` names the units its fight engaged (an overrun's pile-in, 12.06): they become eligible
    before the sequence decides whether to return to Resolve Fights First Combats.
    """
    if name not in selectable_to_fight(sequence, units):
        raise ValueError(f"{name} cannot be selected to fight now")
    fresh = set(newly_eligible) - {name}
    updated = [replace(u, selected_to_fight=True, eligible_to_fight=False) if u.name == name else
               replace(u, eligible_to_fight=True, engaged=True) if u.name in fresh and not u.selected_to_fight else u
               for u in units]
    ff_now = any(u.fights_first and u.eligible_to_fight for u in updated)
    step, chooser = after_fight(sequence.step, sequence.chooser, turn_player, ff_now)
    return FightSequence(step, chooser, False, False), updated


# 12.05 / 12.06 Fight types ------------------------------------------------------------------------

FIGHT_TYPE_ELIGIBILITY = DecisionTable(
    name="fight-type-eligibility",
    refs=("12.05", "12.06"),
    inputs=(Var("fight_type", FightType.NORMAL, FightType.OVERRUN), Var("engaged", kind="bool"),
            Var("unengaged_at_start_of_fight_step", kind="bool"), Var("became_engaged_during_phase", kind="bool")),
    # A unit engaged now that was unengaged when the Fight step started became engaged meanwhile.
    assume=lambda engaged, unengaged_at_start_of_fight_step, became_engaged_during_phase, **_: Implies(
        And(engaged, unengaged_at_start_of_fight_step), became_engaged_during_phase),
    rows=(
        Row("Normal fight (12.05): engaged", lambda fight_type, **_: fight_type == FightType.NORMAL,
            lambda engaged, **_: engaged),
        Row("Overrun fight (12.06): unengaged, or unengaged at the start of the Fight step but became engaged during "
            "the Fight phase", lambda fight_type, **_: fight_type == FightType.OVERRUN,
            lambda engaged, unengaged_at_start_of_fight_step, became_engaged_during_phase, **_: Or(
                Not(engaged), And(unengaged_at_start_of_fight_step, became_engaged_during_phase))),
    ),
    gap=False,
)


@rule("12.04", "12.05", "12.06", "appendix/faq-can-a-unit-that-is-eligible-to-make-an-overrun-fight-be")
def may_make_fight_type(fight_type: Any, eligible_to_fight: Any, engaged: Any, unengaged_at_start_of_fight_step: Any,
                        became_engaged_during_phase: Any) -> Any:
    """Whether a unit selected to fight may make this fight type; only a unit eligible to fight may make either
    (the FAQ: an overrun fight needs eligibility to fight too)."""
    return And(eligible_to_fight,
               FIGHT_TYPE_ELIGIBILITY(fight_type=fight_type, engaged=engaged,
                                      unengaged_at_start_of_fight_step=unengaged_at_start_of_fight_step,
                                      became_engaged_during_phase=became_engaged_during_phase))


@rule("12.06")
def overrun_pile_in_allowed(fight_type: Any) -> Any:
    """An overrun fight lets the unit make one additional pile-in move before it fights."""
    return fight_type == FightType.OVERRUN


# 12.08 Consolidation move --------------------------------------------------------------------------


@rule("12.08", "23.02")
def eligible_to_consolidate(fight_phase: Any, was_eligible_to_fight_this_phase: Any, is_aircraft: Any = False) -> Any:
    """Eligible for a consolidation move in the Fight phase if the unit was eligible to fight this phase
    (never an AIRCRAFT unit, 23.02)."""
    return And(fight_phase, was_eligible_to_fight_this_phase, aircraft.aircraft_may_make_move(is_aircraft, False))


CONSOLIDATION_MODE = DecisionTable(
    name="consolidation-mode",
    refs=("12.08", "09.07"),
    inputs=(Var("engaged", kind="bool"), Var("enemy_within_3", kind="bool"), Var("objective_within_3", kind="bool")),
    rows=(
        Row("Ongoing Consolidation: engaged (mandatory)", lambda engaged, **_: engaged, ConsolidationMode.ONGOING,
            overrides=("Engaging Consolidation: otherwise, within 3\" of one or more enemy units (mandatory)",
                       "Objective Consolidation: otherwise, within 3\" of one or more objectives (mandatory)")),
        Row("Engaging Consolidation: otherwise, within 3\" of one or more enemy units (mandatory)",
            lambda enemy_within_3, **_: enemy_within_3, ConsolidationMode.ENGAGING,
            overrides=("Objective Consolidation: otherwise, within 3\" of one or more objectives (mandatory)",)),
        Row("Objective Consolidation: otherwise, within 3\" of one or more objectives (mandatory)",
            lambda objective_within_3, **_: objective_within_3, ConsolidationMode.OBJECTIVE),
        Row("no mode's conditions are met: the unit cannot make the move (09.07)", lambda **_: True,
            ConsolidationMode.NONE, otherwise=True),
    ),
)


@rule("12.08", "09.07")
def consolidation_mode(engaged: Any, enemy_within_3: Any, objective_within_3: Any) -> Any:
    """The consolidation mode the unit must select (each is mandatory if it applies, assessed in order), or NONE
    when it cannot consolidate."""
    return CONSOLIDATION_MODE(engaged=engaged, enemy_within_3=enemy_within_3, objective_within_3=objective_within_3)


@rule("12.08", "09.07")
def consolidation_mode_selectable(mode: Any, engaged: Any, enemy_within_3: Any, objective_within_3: Any) -> Any:
    """Whether the player may select this consolidation mode, by the SELECTING MODES rule (all three mandatory)."""
    ongoing, engaging, objective = movement_phase.selectable_modes(
        [engaged, enemy_within_3, objective_within_3], [True, True, True])
    return Or(And(mode == ConsolidationMode.ONGOING, ongoing), And(mode == ConsolidationMode.ENGAGING, engaging),
              And(mode == ConsolidationMode.OBJECTIVE, objective))


@rule("12.08", "23.02")
def consolidation_selection(engaged_with: Sequence[str], enemies_within_3: Sequence[str],
                            objectives_within_3: Sequence[str], chosen: Sequence[str] = (),
                            aircraft_units: Sequence[str] = (), can_fly: bool = False) -> dict[str, Any]:
    """Before moving: the mode and what it selects (every engaged enemy unit; one or more chosen enemy units within
    3"; one chosen objective within 3"). AIRCRAFT are ignored unless the unit can FLY."""
    enemies = _considered(enemies_within_3, aircraft_units, can_fly)
    mode = ConsolidationMode(consolidation_mode(bool(engaged_with), bool(enemies), bool(objectives_within_3)))
    if mode == ConsolidationMode.ONGOING:
        return {"mode": mode, "selected": sorted(_considered(engaged_with, aircraft_units, can_fly))}
    if mode == ConsolidationMode.ENGAGING:
        if not chosen or not set(chosen) <= set(enemies):
            raise ValueError("engaging consolidation selects one or more of the enemy units within 3\"")
        return {"mode": mode, "selected": sorted(set(chosen))}
    if mode == ConsolidationMode.OBJECTIVE:
        if len(chosen) != 1 or chosen[0] not in objectives_within_3:
            raise ValueError("objective consolidation selects one of the objectives within 3\"")
        return {"mode": mode, "selected": list(chosen)}
    return {"mode": mode, "selected": []}


@rule("12.08")
def consolidation_model_end_allowed(mode: Any, ends_closer_to_target: Any, can_end_engaged: Any, ends_engaged: Any,
                                    can_end_within_range_of_objective: Any, ends_within_range_of_objective: Any) -> Any:
    """While moving: ongoing and engaging, closer to the closest selected enemy unit and engaged with it if possible;
    objective, within range of the objective if possible, else closer to it."""
    towards_enemy = moved_model_end_allowed(ends_closer_to_target, can_end_engaged, ends_engaged)
    towards_objective = If(can_end_within_range_of_objective, ends_within_range_of_objective, ends_closer_to_target)
    return If(Or(mode == ConsolidationMode.ONGOING, mode == ConsolidationMode.ENGAGING), towards_enemy,
              And(mode == ConsolidationMode.OBJECTIVE, towards_objective))


@rule("12.08")
def consolidation_model_may_be_moved(mode: Any, in_base_contact_with_enemy: Any) -> Any:
    """Ongoing consolidation: models in base contact with an enemy model cannot be moved."""
    return Implies(mode == ConsolidationMode.ONGOING, model_may_be_moved(in_base_contact_with_enemy))


@rule("12.08")
def consolidation_can_end(mode: Any, every_model_kept_its_engagements: Any, engaged_with_every_selected: Any,
                          within_range_of_objective: Any) -> Any:
    """After moving: ongoing keeps every engagement; engaging is engaged with all selected enemy units; objective is
    within range of the selected objective."""
    return If(mode == ConsolidationMode.ONGOING, every_model_kept_its_engagements,
              If(mode == ConsolidationMode.ENGAGING, engaged_with_every_selected,
                 And(mode == ConsolidationMode.OBJECTIVE, within_range_of_objective)))


@rule("12.08")
def units_made_to_fight(mode: ConsolidationMode, engaged_enemies: Sequence[str],
                        selected_to_fight: Sequence[str]) -> list[str]:
    """After an engaging consolidation, each engaged enemy unit not yet selected to fight this phase becomes eligible
    and is selected to fight, one at a time, as the opponent chooses (listed here in the order given)."""
    if mode != ConsolidationMode.ENGAGING:
        return []
    return [name for name in engaged_enemies if name not in set(selected_to_fight)]


@rule("12.08")
def make_units_fight(units: Sequence[UnitState], names: Sequence[str]) -> list[UnitState]:
    """Each named unit becomes eligible to fight and is selected to fight (12.04), outside the Fight step's sequence."""
    wanted = set(names)
    return [replace(u, eligible_to_fight=False, selected_to_fight=True) if u.name in wanted else u for u in units]


# Rules appendix: eligible to fight, but unable to fight --------------------------------------------------


@rule("appendix/eligible-to-fight-but-unable-to-fight")
def may_pass(eligible_units_more_than_5_from_all_enemies: Sequence[Any]) -> Any:
    """When the sequence returns to a player, they may pass if every one of their eligible units is more than 5"
    from all enemy units."""
    return And(*eligible_units_more_than_5_from_all_enemies)


@rule("appendix/eligible-to-fight-but-unable-to-fight")
def fight_step_ends_on_pass(opponent_passed_last: Any, opponent_has_eligible: Any) -> Any:
    """A pass ends the Fight step if the opponent passed just before, or has no eligible unit left."""
    return Or(opponent_passed_last, Not(opponent_has_eligible))


"""z3 proofs about moving and charging: move-type eligibility, fall-back and consolidation modes, FAILED CHARGES.

Each builder calls the real rule functions through their modules, so
``properties/test_moving_proofs.py`` can swap in a broken copy and watch the
proof fail. ``expect="disproved"`` marks a finding (see
spec/core/annotations/findings/09-movement-phase.yaml).
"""

from __future__ import annotations

import z3

from properties.proofs import Built, proof
from rules.core import charge_phase, fight_phase, movement_phase, moving
from rules.model import Placed, PlacedUnit

Move = movement_phase.Move


def _move_inputs() -> tuple[list, dict]:
    """Symbols for a unit selected in the Move Units step, with the facts that hang together."""
    names = "on_battlefield in_strategic_reserves embarked engaged disembark_eligible ingress_eligible " \
            "is_aircraft engaged_solely_with_aircraft"
    s = dict(zip(names.split(), z3.Bools(names)))
    s["m"] = z3.Int("m")
    pre = [
        movement_phase.may_select_to_move(False, s["on_battlefield"], s["in_strategic_reserves"], s["embarked"]),
        z3.AtMost(s["on_battlefield"], s["in_strategic_reserves"], s["embarked"], 1),  # one place at a time
        z3.Implies(s["engaged"], s["on_battlefield"]),
        z3.Implies(s["engaged_solely_with_aircraft"], s["engaged"]),
        z3.Implies(s["disembark_eligible"], s["embarked"]),  # 18.04 (decided there)
        z3.Implies(s["ingress_eligible"], s["in_strategic_reserves"]),  # 20.04 (decided there)
        z3.Or(s["m"] == -1, s["m"] >= 1),  # an M characteristic, or the placeholder '-1'
    ]
    return pre, s


def _has_a_move_type(s: dict) -> z3.BoolRef:
    return z3.Or(*(movement_phase.eligible_for_move(move, s["on_battlefield"], s["engaged"], s["disembark_eligible"],
                                                     s["ingress_eligible"], s["m"], s["is_aircraft"],
                                                     s["engaged_solely_with_aircraft"]) for move in Move))


@proof("movement-phase-move-type-always-available", ("09.02", "09.04"),
       "Every unit other than an AIRCRAFT that is selected to move is eligible for at least one move type (remain "
       "stationary), so the Move Units step can always select every unit and the Movement phase can end.")
def _move_type_available() -> Built:
    pre, s = _move_inputs()
    return pre + [z3.Not(s["is_aircraft"])], _has_a_move_type(s), s


@proof("movement-phase-every-unit-has-a-move-type", ("09.02", "09.04", "23.01", "23.02"),
       "Every unit selected to move, AIRCRAFT included, is eligible for at least one move type, in any battle round "
       "(ingress from strategic reserves taken as 20.03 and 20.04 print it: from the second battle round onwards).",
       expect="disproved")
def _every_unit_move_type() -> Built:
    pre, s = _move_inputs()
    battle_round = z3.Int("battle_round")
    s["battle_round"] = battle_round
    ingress_as_printed = s["ingress_eligible"] == z3.And(s["in_strategic_reserves"], battle_round >= 2)
    # 23.01 and 23.02 put every AIRCRAFT in strategic reserves before its own Movement phase.
    aircraft_in_reserves = z3.Implies(s["is_aircraft"], s["in_strategic_reserves"])
    return pre + [battle_round >= 1, battle_round <= 5, ingress_as_printed, aircraft_in_reserves], \
        _has_a_move_type(s), s


@proof("fall-back-always-has-a-mode", ("09.07",),
       "An engaged unit falling back always has a fall-back mode it may select: desperate escape is always open, "
       "and the mode the table picks is one the player may select.")
def _fall_back_mode() -> Built:
    shocked, choose = z3.Bools("battle_shocked choose_ordered_retreat")
    modes = movement_phase.FallBackMode
    picked = movement_phase.fall_back_mode(shocked, choose)
    goal = z3.And(movement_phase.fall_back_mode_selectable(modes.DESPERATE_ESCAPE, shocked),
                  movement_phase.fall_back_mode_selectable(picked, shocked))
    return [], goal, {"battle_shocked": shocked, "choose_ordered_retreat": choose}


@proof("fall-back-modes-both-open-unless-battle-shocked", ("09.07",),
       "Ordered retreat and desperate escape can both be selected exactly when the unit is not battle-shocked "
       "(ordered retreat is not mandatory); a battle-shocked unit must make a desperate escape.")
def _fall_back_both() -> Built:
    shocked = z3.Bool("battle_shocked")
    modes = movement_phase.FallBackMode
    ordered = movement_phase.fall_back_mode_selectable(modes.ORDERED_RETREAT, shocked)
    desperate = movement_phase.fall_back_mode_selectable(modes.DESPERATE_ESCAPE, shocked)
    goal = z3.And(z3.And(ordered, desperate) == z3.Not(shocked), z3.Implies(shocked, desperate))
    return [], goal, {"battle_shocked": shocked}


def _consolidation_inputs() -> dict:
    return dict(zip(("engaged", "enemy_within_3", "objective_within_3"),
                    z3.Bools("engaged enemy_within_3 objective_within_3")))


@proof("consolidation-modes-exclusive-and-mandatory", ("12.08", "09.07"),
       "At most one consolidation mode can be selected, and it is the one the table picks (each mode is mandatory "
       "if it applies, assessed in order).")
def _consolidation_exclusive() -> Built:
    s = _consolidation_inputs()
    modes = fight_phase.ConsolidationMode
    open_modes = [fight_phase.consolidation_mode_selectable(mode, **s) for mode in
                  (modes.ONGOING, modes.ENGAGING, modes.OBJECTIVE)]
    picked = fight_phase.consolidation_mode(**s)
    goal = z3.And(z3.AtMost(*open_modes, 1),
                  z3.Implies(picked != int(modes.NONE), fight_phase.consolidation_mode_selectable(picked, **s)),
                  z3.Implies(z3.Or(*open_modes), picked != int(modes.NONE)))
    return [], goal, s


@proof("consolidation-needs-a-mode", ("12.08", "09.07"),
       "A unit eligible to consolidate has a consolidation mode exactly when it is engaged or within 3\" of an enemy "
       "unit or an objective; otherwise it cannot consolidate, as SELECTING MODES says (not a gap).")
def _consolidation_mode_exists() -> Built:
    s = _consolidation_inputs()
    picked = fight_phase.consolidation_mode(**s)
    goal = (picked != int(fight_phase.ConsolidationMode.NONE)) == z3.Or(*s.values())
    return [], goal, s


def _placed(prefix: str, owner: int, base_mm: str) -> tuple[Placed, dict]:
    x, y, z = z3.Reals(f"{prefix}x {prefix}y {prefix}z")
    return Placed(x, y, base_mm=base_mm, z=z, owner=owner), {f"{prefix}x": x, f"{prefix}y": y, f"{prefix}z": z}


@proof("failed-charge-roll-of-two", ("11.02", "11.04", "03.04"),
       "With an unmodified charge roll of 2, a unit eligible to declare a charge has no enemy unit it can select as a "
       "charge target (a target within 2\" would be within engagement range), so it cannot make a charge move.")
def _failed_charges() -> Built:
    a, sa = _placed("a", 1, "32")
    b, sb = _placed("b", 1, "40")
    t, st = _placed("t", 2, "50")
    charger, target = PlacedUnit((a, b), owner=1), PlacedUnit((t,), owner=2)
    maximum = charge_phase.charge_roll_maximum_distance(2, 0)
    eligible = charge_phase.eligible_to_declare_charge(True, True, moving.units_engaged(charger, target), False, False)
    goal = z3.Not(charge_phase.may_select_charge_target(charge_phase.charge_target_in_reach(charger, target, maximum)))
    return [eligible], goal, {**sa, **sb, **st}


@proof("charge-eligibility-reasons", ("11.02", "23.04"),
       "A unit eligible to declare a charge is on the battlefield, within 12\" of an enemy unit, unengaged, made no "
       "advance or fall-back move this turn, is not an AIRCRAFT, and no other rule forbids it; otherwise it is "
       "eligible.")
def _charge_eligibility() -> Built:
    names = "on_battlefield enemy_within_12 engaged advanced fell_back prevented_by_another_rule is_aircraft"
    s = dict(zip(names.split(), z3.Bools(names)))
    eligible = charge_phase.eligible_to_declare_charge(**s)
    expected = z3.And(s["on_battlefield"], s["enemy_within_12"], z3.Not(s["engaged"]), z3.Not(s["advanced"]),
                      z3.Not(s["fell_back"]), z3.Not(s["prevented_by_another_rule"]), z3.Not(s["is_aircraft"]))
    pre = [z3.Implies(s["engaged"], z3.And(s["on_battlefield"], s["enemy_within_12"]))]
    return pre, eligible == expected, s


@proof("advance-and-fall-back-restrictions", ("09.06", "09.07", "11.02"),
       "After an advance or fall-back move the unit cannot declare a charge that turn (unless a rule says otherwise); "
       "only a fall-back move stops it shooting; remaining stationary and normal moves restrict nothing.")
def _after_moving() -> Built:
    move, activity = z3.Ints("move activity")
    exempt = z3.Bool("otherwise_stated")
    A = movement_phase.Activity
    restricted = movement_phase.not_eligible_after_move(move, activity, exempt)
    goal = z3.And(
        z3.Implies(z3.And(z3.Or(move == Move.ADVANCE, move == Move.FALL_BACK), activity == A.DECLARE_CHARGE,
                          z3.Not(exempt)), restricted),
        z3.Implies(activity == A.SHOOT, restricted == z3.And(move == Move.FALL_BACK, z3.Not(exempt))),
        z3.Implies(z3.Or(move == Move.REMAIN_STATIONARY, move == Move.NORMAL), z3.Not(restricted)),
    )
    pre = [move >= Move.REMAIN_STATIONARY, move <= Move.INGRESS, activity >= A.SHOOT, activity <= A.START_ACTION]
    return pre, goal, {"move": move, "activity": activity, "otherwise_stated": exempt}

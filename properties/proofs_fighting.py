"""z3 proofs about the Fight step: fight types, the overrun FAQ, and whether the sequence always ends.

The sequence is checked as a transition system (``fight_phase.fight_sequence_move``)
over per-player facts: who has an eligible Fights First unit, who has an eligible
unit, whose eligible units are all more than 5" from the enemy. Those facts only
change when a unit fights, so if every run of K moves with the facts fixed
contains a selection or the end of the step, the step ends: each selection
uses up a unit that can never be selected again this phase (12.04), so there
are at most as many selections as units.
"""

from __future__ import annotations

import z3

from properties.proofs import Built, proof
from rules.core import fight_phase

FightType, FightAction, FightStep = fight_phase.FightType, fight_phase.FightAction, fight_phase.FightStep

#: Moves of the sequence within which a selection or the end must come (4 suffice; 6 leaves room).
PROGRESS_BOUND = 6


def _fight_type_inputs() -> tuple[list, dict]:
    names = "selected_to_fight engaged engaged_at_start_of_step charged_this_turn became_engaged_during_phase"
    s = dict(zip(names.split(), z3.Bools(names)))
    pre = [
        # A unit engaged now that was unengaged when the Fight step started became engaged during the phase.
        z3.Implies(z3.And(s["engaged"], z3.Not(s["engaged_at_start_of_step"])), s["became_engaged_during_phase"]),
    ]
    return pre, s


def _may(fight_type, s, eligible=None):
    eligible = fight_phase.eligible_to_fight(s["selected_to_fight"], s["engaged"], s["engaged_at_start_of_step"],
                                             s["charged_this_turn"]) if eligible is None else eligible
    return fight_phase.may_make_fight_type(fight_type, eligible, s["engaged"], z3.Not(s["engaged_at_start_of_step"]),
                                           s["became_engaged_during_phase"])


@proof("eligible-unit-always-has-a-fight-type", ("12.04", "12.05", "12.06"),
       "Every unit eligible to fight can make a normal fight or an overrun fight, so a selected unit always has a "
       "fight type (an unengaged unit that charged, or was engaged when the step started, makes an overrun fight).")
def _fight_type_exists() -> Built:
    pre, s = _fight_type_inputs()
    eligible = fight_phase.eligible_to_fight(s["selected_to_fight"], s["engaged"], s["engaged_at_start_of_step"],
                                             s["charged_this_turn"])
    return pre + [eligible], z3.Or(_may(FightType.NORMAL, s), _may(FightType.OVERRUN, s)), s


@proof("normal-and-overrun-overlap-when-newly-engaged", ("12.05", "12.06"),
       "An eligible unit can choose between a normal and an overrun fight exactly when it is engaged now but was "
       "unengaged at the start of the Fight step; otherwise exactly one fight type is open to it.")
def _fight_type_overlap() -> Built:
    pre, s = _fight_type_inputs()
    eligible = fight_phase.eligible_to_fight(s["selected_to_fight"], s["engaged"], s["engaged_at_start_of_step"],
                                             s["charged_this_turn"])
    both = z3.And(_may(FightType.NORMAL, s), _may(FightType.OVERRUN, s))
    return pre + [eligible], both == z3.And(s["engaged"], z3.Not(s["engaged_at_start_of_step"])), s


FAQ_OVERRUN = "appendix/faq-can-a-unit-that-is-eligible-to-make-an-overrun-fight-be"


@proof("overrun-fight-needs-eligibility-to-fight", ("12.06", FAQ_OVERRUN),
       "A unit that is not eligible to fight cannot make an overrun fight (nor a normal one), even while unengaged.")
def _overrun_faq() -> Built:
    pre, s = _fight_type_inputs()
    eligible = z3.Bool("eligible_to_fight")
    s["eligible_to_fight"] = eligible
    goal = z3.Implies(z3.Not(eligible), z3.Not(z3.Or(_may(FightType.NORMAL, s, eligible),
                                                     _may(FightType.OVERRUN, s, eligible))))
    return pre, goal, s


@proof("fight-type-table-checked-over-every-engagement-history", ("12.05", "12.06"),
       "The fight-type table's checks (its assume) admit every engagement history a unit can have: engaged or not "
       "now, engaged or not when the Fight step started, become engaged during the phase or not.")
def _fight_type_domain() -> Built:
    pre, s = _fight_type_inputs()
    goal = fight_phase.FIGHT_TYPE_ELIGIBILITY.assume(
        fight_type=FightType.NORMAL, engaged=s["engaged"], unengaged_at_start_of_fight_step=z3.Not(
            s["engaged_at_start_of_step"]), became_engaged_during_phase=s["became_engaged_during_phase"])
    return pre, goal, s


def _sequence_run(table=None, bound: int = PROGRESS_BOUND) -> Built:
    """Any position of the sequence, any fixed facts, any pass choices: a selection or the end within ``bound``
    moves."""
    ff = z3.Bools("p1_fights_first p2_fights_first")
    el = z3.Bools("p1_has_eligible p2_has_eligible")
    far = z3.Bools("p1_all_far p2_all_far")
    step, chooser = z3.Ints("step chooser")
    passed = z3.Bool("opponent_passed_last")
    wants = z3.Bools(" ".join(f"pass_{k}" for k in range(bound)))
    symbols = {str(v): v for v in (*ff, *el, *far, step, chooser, passed, *wants)}
    pre = [z3.Or(step == FightStep.FIGHTS_FIRST, step == FightStep.REMAINING), z3.Or(chooser == 1, chooser == 2)]
    for p in range(2):
        pre += [z3.Implies(ff[p], el[p]), z3.Implies(z3.Not(el[p]), far[p])]  # 'all of none' is vacuous
    progress = []
    for k in range(bound):
        action, step, chooser, passed = fight_phase.fight_sequence_move(step, chooser, passed, tuple(ff), tuple(el),
                                                                        tuple(far), wants[k], table=table)
        progress.append(z3.Or(action == FightAction.SELECT, action == FightAction.END))
    return pre, z3.Or(*progress), symbols


@proof("fight-sequence-table-checked-over-every-position", ("12.04", "appendix/eligible-to-fight-but-unable-to-fight"),
       "The Fight step sequence table's checks (its assume) admit every position of the sequence: whatever each "
       "player has left (Fights First units, eligible units, all of them far from the enemy), whoever selects, in "
       "either step, after a pass or not, the facts fight_sequence_move hands the table are among those checked.")
def _sequence_domain() -> Built:
    pre, _progress, symbols = _sequence_run(bound=1)  # its preconditions: the facts hang together per player
    handed: dict = {}

    def capture(**facts):
        handed.update(facts)
        return FightAction.SELECT

    fight_phase.fight_sequence_move(symbols["step"], symbols["chooser"], symbols["opponent_passed_last"],
                                    (symbols["p1_fights_first"], symbols["p2_fights_first"]),
                                    (symbols["p1_has_eligible"], symbols["p2_has_eligible"]),
                                    (symbols["p1_all_far"], symbols["p2_all_far"]), symbols["pass_0"], table=capture)
    return pre, fight_phase.FIGHT_SELECTION.assume(**handed), symbols


@proof("fight-step-always-progresses", ("12.04", "appendix/eligible-to-fight-but-unable-to-fight"),
       "From any point of the Fight step's sequence, whatever the players choose, a unit is selected to fight or the "
       "step ends within a few moves; since each unit is selected at most once a phase, the Fight step always ends.")
def _fight_step_progresses() -> Built:
    return _sequence_run()


@proof("fight-step-as-written-always-progresses", ("12.04", "appendix/eligible-to-fight-but-unable-to-fight"),
       "Read exactly as printed (no rule for a pass in the Fights First step), the Fight step's sequence also always "
       "reaches a selection or the end within a few moves.",
       expect="disproved")
def _fight_step_as_written() -> Built:
    return _sequence_run(fight_phase.fight_selection_as_written())


@proof("fight-selections-alternate", ("12.04",),
       "After a unit fights, the other player selects next, and the sequence goes back to Resolve Fights First "
       "Combats only from Resolve Remaining Combats when a Fights First unit has become eligible.")
def _alternation() -> Built:
    step, owner, turn = z3.Ints("step fighter_owner turn_player")
    ff_now = z3.Bool("fights_first_eligible_now")
    next_step, next_chooser = fight_phase.after_fight(step, owner, turn, ff_now)
    goal = z3.And(next_chooser == 3 - owner,
                  (next_step == FightStep.FIGHTS_FIRST) == z3.Or(step == FightStep.FIGHTS_FIRST, ff_now))
    pre = [z3.Or(step == FightStep.FIGHTS_FIRST, step == FightStep.REMAINING), z3.Or(owner == 1, owner == 2),
           z3.Or(turn == 1, turn == 2)]
    return pre, goal, {"step": step, "fighter_owner": owner, "turn_player": turn, "fights_first_eligible_now": ff_now}


@proof("fights-first-units-are-selected-first", ("12.04", "24.13"),
       "In Resolve Fights First Combats a player only ever selects when they have an eligible Fights First unit, and "
       "the sequence leaves that step only when no Fights First unit is eligible or just after the opponent passed.")
def _fights_first_first() -> Built:
    names = ("has_fights_first any_fights_first has_eligible any_eligible may_pass wants_to_pass "
             "opponent_passed_last opponent_has_eligible")
    s = dict(zip(names.split(), z3.Bools(names)))
    action = fight_phase.fight_step_action(FightStep.FIGHTS_FIRST, **s)
    pre = [fight_phase.FIGHT_SELECTION.assume(step=FightStep.FIGHTS_FIRST, **s)]
    goal = z3.And(z3.Implies(action == FightAction.SELECT, s["has_fights_first"]),
                  z3.Implies(action == FightAction.TO_REMAINING,
                             z3.Or(z3.Not(s["any_fights_first"]), s["opponent_passed_last"])))
    return pre, goal, s

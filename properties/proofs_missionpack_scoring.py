"""z3 proofs about the mission pack's victory points: the caps, the discounting of excess, the total, the
victor and the two primary objectives. Each builder calls the real functions of rules.missionpack.scoring,
looked up at check time so a test can swap in a broken copy."""

from __future__ import annotations

import z3

from properties.proofs import Built, proof
from rules.missionpack import scoring

VICTOR = ("missionpack:sequence/18-determine-victor",)
PRIMARY_REFS = tuple(f"missionpack:{ref}" for ref in scoring.entries_with("primary", "take-and-hold"))
DOMINATION_REFS = tuple(f"missionpack:{ref}" for ref in scoring.entries_with("primary", "domination"))


@proof("missionpack-discounted-award-within-cap", VICTOR + ("missionpack:secondaries/selecting",),
       "An award counts for between nothing and all of it, and never takes a total past its cap.")
def _within_cap() -> Built:
    so_far, award, cap = z3.Ints("so_far award cap")
    counted = scoring.discounted_award(so_far, award, cap)
    pre = [cap >= 0, so_far >= 0, so_far <= cap, award >= 0]
    goal = z3.And(counted >= 0, counted <= award, so_far + counted <= cap)
    return pre, goal, {"so_far": so_far, "award": award, "cap": cap}


@proof("missionpack-only-excess-is-discounted", VICTOR + ("missionpack:secondaries/selecting",),
       "An award that fits under its cap counts in full: only the excess is discounted.")
def _only_excess() -> Built:
    so_far, award, cap = z3.Ints("so_far award cap")
    pre = [so_far >= 0, award >= 0, so_far + award <= cap]
    return pre, scoring.discounted_award(so_far, award, cap) == award, {"so_far": so_far, "award": award, "cap": cap}


@proof("missionpack-total-at-most-100", VICTOR + ("missionpack:battle-ready",),
       "A player's total is between 0 and 100, whatever the objectives awarded.")
def _at_most_100() -> Built:
    primary, secondaries = z3.Ints("primary secondaries")
    ready = z3.Bool("battle_ready")
    total = scoring.final_score(primary, secondaries, ready)
    pre = [primary >= 0, secondaries >= 0]
    goal = z3.And(total >= 0, total <= scoring.MAXIMUM_SCORE, scoring.MAXIMUM_SCORE == 100)
    return pre, goal, {"primary": primary, "secondaries": secondaries, "battle_ready": ready}


@proof("missionpack-total-never-decreases", VICTOR + ("missionpack:battle-ready",),
       "Scoring more, or being Battle Ready, never lowers a player's total.")
def _monotone_total() -> Built:
    p1, p2, s1, s2 = z3.Ints("primary primary_more secondaries secondaries_more")
    r1, r2 = z3.Bools("battle_ready battle_ready_later")
    pre = [p1 >= 0, s1 >= 0, p2 >= p1, s2 >= s1, z3.Implies(r1, r2)]
    goal = scoring.final_score(p2, s2, r2) >= scoring.final_score(p1, s1, r1)
    return pre, goal, {"primary": p1, "primary_more": p2, "secondaries": s1, "secondaries_more": s2,
                       "battle_ready": r1, "battle_ready_later": r2}


@proof("missionpack-objective-caps-are-45-15-90", VICTOR,
       "45 from primaries plus 45 from secondaries is exactly what the total's objective part allows.")
def _caps_add_up() -> Built:
    primary, secondaries = z3.Ints("primary secondaries")
    pre = [primary >= scoring.PRIMARY_CAP, secondaries >= scoring.SECONDARIES_CAP]
    goal = z3.And(scoring.final_score(primary, secondaries, False) == 90,
                  scoring.SECONDARIES_CAP == 3 * scoring.SECONDARY_CAP)
    return pre, goal, {"primary": primary, "secondaries": secondaries}


@proof("missionpack-most-points-wins", VICTOR, "The player with more victory points wins; equal totals are a draw; "
       "swapping the players swaps the result.")
def _victor() -> Built:
    a, d = z3.Ints("attacker_score defender_score")
    outcome = scoring.victor(a, d)
    goal = z3.And(outcome == z3.If(a > d, 1, z3.If(d > a, -1, 0)), scoring.victor(d, a) == -outcome)
    return [a >= 0, d >= 0], goal, {"attacker_score": a, "defender_score": d}


def _primary_bounds(function) -> Built:
    battle_round, mine, theirs = z3.Ints("battle_round controlled opponent_controlled")
    points = function(battle_round, mine, theirs)
    pre = [battle_round >= 1, battle_round <= scoring.BATTLE_ROUNDS, mine >= 0, theirs >= 0]
    goal = z3.And(points >= 0, points <= 15, points % 5 == 0, z3.Implies(battle_round == 1, points == 0))
    return pre, goal, {"battle_round": battle_round, "controlled": mine, "opponent_controlled": theirs}


def _primary_monotone(function) -> Built:
    r, c1, c2, o1, o2 = z3.Ints("battle_round controlled controlled_more opponent_controlled opponent_fewer")
    pre = [r >= 1, r <= scoring.BATTLE_ROUNDS, c1 >= 0, c2 >= c1, o2 >= 0, o1 >= o2]
    goal = function(r, c2, o2) >= function(r, c1, o1)
    return pre, goal, {"battle_round": r, "controlled": c1, "controlled_more": c2, "opponent_controlled": o1,
                       "opponent_fewer": o2}


@proof("missionpack-take-and-hold-at-most-15-never-round-1", PRIMARY_REFS,
       "Take and Hold awards 0, 5, 10 or 15 at the end of a Command phase, and nothing in the first battle round.")
def _take_and_hold_bounds() -> Built:
    return _primary_bounds(lambda r, c, o: scoring.take_and_hold(r, c, o))


@proof("missionpack-take-and-hold-monotone", PRIMARY_REFS,
       "Controlling more objective markers, or the opponent fewer, never lowers Take and Hold's award.")
def _take_and_hold_monotone() -> Built:
    return _primary_monotone(lambda r, c, o: scoring.take_and_hold(r, c, o))


@proof("missionpack-domination-at-most-15-never-round-1", DOMINATION_REFS,
       "Domination awards 0, 5, 10 or 15 at the end of a Command phase, and nothing in the first battle round.")
def _domination_bounds() -> Built:
    return _primary_bounds(lambda r, c, o: scoring.domination(r, c, o))


@proof("missionpack-domination-monotone", DOMINATION_REFS,
       "Controlling more objective markers, or the opponent fewer, never lowers Domination's award.")
def _domination_monotone() -> Built:
    return _primary_monotone(lambda r, c, o: scoring.domination(r, c, o))


@proof("missionpack-primary-ledger-keeps-45", PRIMARY_REFS + VICTOR,
       "Over a whole battle the ledger keeps at most 45 of Take and Hold's awards (which can reach 60), and "
       "keeps every award while the total stays under the cap.")
def _primary_ledger() -> Built:
    rounds = range(2, scoring.BATTLE_ROUNDS + 1)
    mine = [z3.Int(f"controlled_round_{r}") for r in rounds]
    theirs = [z3.Int(f"opponent_controlled_round_{r}") for r in rounds]
    kept = 0
    raw = 0
    for r, c, o in zip(rounds, mine, theirs):
        award = scoring.take_and_hold(r, c, o)
        kept = kept + scoring.discounted_award(kept, award, scoring.PRIMARY_CAP)
        raw = raw + award
    pre = [v >= 0 for v in mine + theirs]
    goal = z3.And(kept <= scoring.PRIMARY_CAP, kept >= 0, z3.Implies(raw <= scoring.PRIMARY_CAP, kept == raw))
    return pre, goal, {str(v): v for v in mine + theirs}


@proof("missionpack-battle-ready-note-agrees", ("missionpack:battle-ready", "missionpack:scoring-sheet"),
       "The scoring sheet's note 6 (10 points for a Battle-forged army) and the Battle Ready rules give the bonus "
       "to the same armies.", expect="disproved")
def _battle_ready_note() -> Built:
    forged, ready = z3.Bools("battle_forged every_model_battle_ready")
    note_six = z3.If(forged, scoring.BATTLE_READY_BONUS, 0)  # the note's wording, for comparison only
    # Step 2: every army in a Tactical Deployment game is Battle-forged.
    return [forged], note_six == scoring.battle_ready_bonus(ready), {"battle_forged": forged,
                                                                     "every_model_battle_ready": ready}

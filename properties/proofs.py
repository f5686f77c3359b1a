"""z3 proofs about the real rule functions, registered with an id and the references they rest on.

A proof is ``(preconditions, goal)`` over z3 constants, built by calling the
very functions the calculator and the site use (looked up on their modules at
check time, so a test can swap in a broken copy). It is checked as
``preconditions and not goal`` being unsatisfiable:

- ``proved``: unsat, the goal holds for every input allowed by the preconditions;
- ``disproved``: sat, with a counterexample, printed as a ready-to-paste
  hypothesis ``@example(...)``;
- ``unknown``: z3 gave up (timeout or undecidable fragment).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import z3

from rules import dice
from rules.core import core_concepts, datasheets, moving
from rules.model import Placed

Built = tuple[list[Any], Any, dict[str, Any]]


@dataclass(frozen=True)
class Proof:
    """A registered proof. ``expect="disproved"`` marks a finding: the rules as written
    violate the statement, the counterexample is the evidence, and the code follows
    a recorded interpretation instead (findings/*.yaml names the proof)."""

    id: str
    refs: tuple[str, ...]
    statement: str
    build: Callable[[], Built]
    expect: str = "proved"


@dataclass
class ProofResult:
    id: str
    refs: tuple[str, ...]
    statement: str
    status: str
    counterexample: dict[str, Any] | None = None
    example: str = ""
    detail: str = ""
    extra: dict = field(default_factory=dict)


PROOFS: dict[str, Proof] = {}


def proof(id: str, refs: tuple[str, ...], statement: str,
          expect: str = "proved") -> Callable[[Callable[[], Built]], Callable[[], Built]]:
    """Register a proof builder under ``id`` (``expect="disproved"`` for a finding)."""
    if expect not in ("proved", "disproved"):
        raise ValueError(f"proof {id!r}: expect must be 'proved' or 'disproved'")

    def register(build: Callable[[], Built]) -> Callable[[], Built]:
        if id in PROOFS:
            raise ValueError(f"proof id {id!r} registered twice")
        PROOFS[id] = Proof(id, tuple(refs), statement, build, expect)
        return build

    return register


def _value(model: z3.ModelRef, symbol: Any) -> Any:
    value = model.eval(symbol, model_completion=True)
    if z3.is_bool(value):
        return z3.is_true(value)
    if z3.is_int_value(value):
        return value.as_long()
    if z3.is_rational_value(value):
        return f"Fraction({value.numerator_as_long()}, {value.denominator_as_long()})"
    return str(value)


def check(item: Proof, timeout_ms: int = 10_000) -> ProofResult:
    """Check one proof; never raises for a failed goal (that is a verdict)."""
    pre, goal, symbols = item.build()
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*pre)
    solver.add(z3.Not(goal))
    outcome = solver.check()
    result = ProofResult(item.id, item.refs, item.statement, "unknown")
    if outcome == z3.unsat:
        result.status = "proved"
    elif outcome == z3.sat:
        model = solver.model()
        counterexample = {name: _value(model, sym) for name, sym in sorted(symbols.items())}
        result.status = "disproved"
        result.counterexample = counterexample
        args = ", ".join(f"{k}={v}" for k, v in counterexample.items())
        result.example = f"@example({args})"
        result.detail = f"counterexample: {args}"
    else:
        result.detail = f"z3: {solver.reason_unknown()}"
    return result


def load_all() -> dict[str, Proof]:
    """Import every ``properties/proofs_*.py`` module so its proofs register, then return the registry."""
    import importlib
    import pkgutil
    from pathlib import Path

    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name.startswith("proofs_"):
            importlib.import_module(f"properties.{info.name}")
    return PROOFS


def check_all() -> list[ProofResult]:
    load_all()
    return [check(PROOFS[name]) for name in sorted(PROOFS)]


# -- 01.05 dice -------------------------------------------------------------------


@proof("d3-in-range-and-monotone", ("01.05",), "A D3 is always 1 to 3 and never falls as the D6 rises.")
def _d3() -> Built:
    face, other = z3.Ints("face other")
    pre = [face >= 1, face <= 6, other >= face, other <= 6]
    value = dice.d3_from_d6(face)
    goal = z3.And(value >= 1, value <= 3, dice.d3_from_d6(other) >= value)
    return pre, goal, {"face": face, "other": other}


@proof("d3-each-value-twice", ("01.05",), "Each D3 result comes from exactly two D6 faces.")
def _d3_faces() -> Built:
    k = z3.Int("k")
    count = sum(z3.If(dice.d3_from_d6(face) == k, 1, 0) for face in range(1, 7))
    return [k >= 1, k <= 3], count == 2, {"k": k}


# -- 01.03 active player ------------------------------------------------------------


@proof("active-player-is-a-player", ("01.03",),
       "The active player is always player 1 or 2, the opposing player is the other one, and with no unit "
       "selected during a turn it is the player whose turn it is.")
def _active() -> Built:
    in_turn, selected = z3.Bools("in_turn unit_selected")
    turn, first, controller = z3.Ints("turn_player first_player selected_unit_controller")
    players = [z3.Or(p == 1, p == 2) for p in (turn, first, controller)]
    active = core_concepts.active_player(in_turn, turn, first, selected, controller)
    opposing = core_concepts.opposing_player(active)
    goal = z3.And(
        z3.Or(active == 1, active == 2),
        z3.Or(opposing == 1, opposing == 2), opposing != active,
        z3.Implies(z3.And(in_turn, z3.Not(selected)), active == turn),
    )
    return players + [z3.Implies(selected, in_turn)], goal, {
        "in_turn": in_turn, "unit_selected": selected, "turn_player": turn, "first_player": first,
        "selected_unit_controller": controller}


# -- 01.04 / 03.03 / 03.04 geometry ---------------------------------------------------


def _two_models(base_a: str = "32", base_b: str = "50.8") -> tuple[Placed, Placed, dict]:
    ax, ay, az, bx, by, bz = z3.Reals("ax ay az bx by bz")
    a, b = Placed(ax, ay, base_mm=base_a, z=az), Placed(bx, by, base_mm=base_b, z=bz)
    return a, b, {"ax": ax, "ay": ay, "az": az, "bx": bx, "by": by, "bz": bz}


@proof("within-is-symmetric", ("01.04",), "If model A is within d inches of model B, B is within d inches of A.")
def _within_symmetric() -> Built:
    a, b, symbols = _two_models()
    d = z3.Real("d")
    goal = core_concepts.within(a, b, d, d) == core_concepts.within(b, a, d, d)
    return [d >= 0], goal, {**symbols, "d": d}


@proof("within-grows-with-distance", ("01.04",), "Anything within d inches is also within any greater distance.")
def _within_monotone() -> Built:
    a, b, symbols = _two_models()
    d, e = z3.Reals("d e")
    goal = z3.Implies(core_concepts.within_horizontally(a, b, d), core_concepts.within_horizontally(a, b, e))
    return [d >= 0, e >= d], goal, {**symbols, "d": d, "e": e}


@proof("engagement-is-symmetric", ("03.04",), "Engagement range works both ways between two models.")
def _engagement_symmetric() -> Built:
    a, b, symbols = _two_models()
    goal = moving.within_engagement_range(a, b) == moving.within_engagement_range(b, a)
    return [], goal, symbols


@proof("two-model-coherency-is-two-inches", ("03.03",),
       "A two-model unit is in coherency exactly when its models are within 2 inches horizontally and 5 vertically.")
def _pair_coherency() -> Built:
    a, b, symbols = _two_models("32", "32")
    goal = moving.in_coherency([a, b]) == core_concepts.within(a, b, 2, 5)
    return [], goal, symbols


@proof("coherent-units-are-nine-inches-across", ("03.03",),
       "In a coherent four-model unit standing in a line, no two models are more than 9 inches apart.")
def _nine_inches() -> Built:
    # Four models, because with three the 2-inch rule alone already keeps them close;
    # on a line, because z3's non-linear real arithmetic is quick in one dimension.
    xs = z3.Reals("x0 x1 x2 x3")
    models = [Placed(x, 0, base_mm="25.4") for x in xs]
    far = z3.Or(*(z3.Not(core_concepts.within_horizontally(models[i], models[j], 9))
                  for i in range(4) for j in range(4) if i != j))
    return [], z3.Implies(moving.in_coherency(models), z3.Not(far)), {f"x{i}": x for i, x in enumerate(xs)}


# -- 01.06 / 01.07 leadership and battle-shock ------------------------------------------


@proof("leadership-better-roll-never-fails", ("01.06",),
       "If a leadership roll succeeds, any higher roll for the same unit succeeds too, and adding a model never makes it fail.")
def _leadership() -> Built:
    roll, higher = z3.Ints("roll higher")
    l1, l2, l3 = z3.Ints("ld1 ld2 ld3")
    pre = [roll >= 2, roll <= 12, higher >= roll, higher <= 12] + [z3.And(l >= 2, l <= 12) for l in (l1, l2, l3)]
    ok = core_concepts.leadership_roll_succeeds(roll, [l1, l2])
    goal = z3.And(
        z3.Implies(ok, core_concepts.leadership_roll_succeeds(higher, [l1, l2])),
        z3.Implies(ok, core_concepts.leadership_roll_succeeds(roll, [l1, l2, l3])),
    )
    return pre, goal, {"roll": roll, "higher": higher, "ld1": l1, "ld2": l2, "ld3": l3}


@proof("failed-battle-shock-roll-shocks", ("01.07",), "Whatever the unit's state, failing a battle-shock roll leaves it battle-shocked.")
def _shock() -> Built:
    was, succeeded = z3.Bools("was_battle_shocked roll_succeeded")
    goal = z3.Implies(z3.Not(succeeded), core_concepts.battle_shocked_after_roll(was, succeeded))
    return [], goal, {"was_battle_shocked": was, "roll_succeeded": succeeded}


@proof("battle-shocked-models-control-nothing", ("01.07", "02.02"),
       "A battle-shocked model cannot control objectives and adds nothing to a level of control, whatever its OC.")
def _shocked_oc() -> Built:
    oc = z3.Int("oc")
    shocked_oc = core_concepts.objective_control(oc, True)
    goal = z3.And(z3.Not(datasheets.can_control_objectives(shocked_oc)),
                  datasheets.level_of_control_contribution(shocked_oc) == 0)
    return [z3.Or(oc == -1, oc >= 0)], goal, {"oc": oc}  # OC '-1' (02.02) included


@proof("level-of-control-never-negative", ("02.02",),
       "No model lowers its player's level of control: each model adds zero or more.")
def _oc_nonnegative() -> Built:
    oc = z3.Int("oc")
    return [z3.Or(oc == -1, oc >= 0)], datasheets.level_of_control_contribution(oc) >= 0, {"oc": oc}


# -- 05.01 / 05.02 / 05.04 attack sequence --------------------------------------------
# Added with properties/test_attack_sequence.py, which pairs each proof below with a broken rule.

from rules.core import attack_sequence, core_abilities, other_concepts  # noqa: E402


def _atk_strength_toughness(*names: str) -> tuple[list[Any], dict[str, Any]]:
    """Integer constants for Strength/Toughness characteristics, each at least 1."""
    symbols = {name: z3.Int(name) for name in names}
    return [sym >= 1 for sym in symbols.values()], symbols


def _atk_between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _atk_insv_domain(insv: Any) -> Any:
    """An InSv characteristic 2+ to 6+, or 0 for none (the save table's domain)."""
    return z3.Or(insv == 0, _atk_between(insv, 2, 6))


@proof("wound-threshold-in-range", ("05.02",),
       "Whatever the Strength and Toughness, the wound roll needed is 2+ to 6+.")
def _wound_threshold_range() -> Built:
    pre, symbols = _atk_strength_toughness("S", "T")
    needed = attack_sequence.wound_threshold(symbols["S"], symbols["T"])
    return pre, z3.And(needed >= 2, needed <= 6), symbols


@proof("wound-threshold-monotone", ("05.02",),
       "A higher Strength never needs a higher wound roll, and a higher Toughness never a lower one.")
def _wound_threshold_monotone() -> Built:
    pre, symbols = _atk_strength_toughness("S", "S2", "T", "T2")
    s, s2, t, t2 = (symbols[n] for n in ("S", "S2", "T", "T2"))
    needed = attack_sequence.wound_threshold(s, t)
    goal = z3.And(attack_sequence.wound_threshold(s2, t) <= needed,
                  attack_sequence.wound_threshold(s, t2) >= needed)
    return pre + [s2 >= s, t2 >= t], goal, symbols


@proof("wound-threshold-ratio", ("05.02",),
       "The wound roll needed depends only on the ratio of Strength to Toughness: multiplying both by k "
       "changes nothing.")
def _wound_threshold_ratio() -> Built:
    # Non-linear (k * S); z3 proves it unbounded in well under a second.
    pre, symbols = _atk_strength_toughness("S", "T", "k")
    s, t, k = symbols["S"], symbols["T"], symbols["k"]
    goal = attack_sequence.wound_threshold(k * s, k * t) == attack_sequence.wound_threshold(s, t)
    return pre, goal, symbols


def _atk_hit_inputs() -> tuple[list[Any], Any, dict[str, Any]]:
    """Any total hit modifier (capped as 05.01 caps it) and any BS/WS 2+ to 7+."""
    total, skill = z3.Ints("modifier_total skill")
    return [_atk_between(skill, 2, 7)], attack_sequence.capped_roll_modifier(total), {
        "modifier_total": total, "skill": skill}


@proof("hit-unmodified-one-fails", ("05.01",),
       "An unmodified hit roll of 1 always fails, whatever the modifiers and the BS/WS.")
def _hit_one() -> Built:
    pre, modifier, symbols = _atk_hit_inputs()
    return pre, attack_sequence.hit_roll(1, modifier, symbols["skill"]) == int(attack_sequence.Hit.FAIL), symbols


@proof("hit-unmodified-six-critical", ("05.01",),
       "An unmodified hit roll of 6 is always a critical hit, whatever the modifiers and the BS/WS (even 7+).")
def _hit_six() -> Built:
    pre, modifier, symbols = _atk_hit_inputs()
    goal = attack_sequence.hit_roll(6, modifier, symbols["skill"]) == int(attack_sequence.Hit.CRITICAL_HIT)
    return pre, goal, symbols


@proof("hit-roll-monotone", ("05.01",),
       "A higher hit roll, a better modifier or a better BS/WS never gives a worse result (fail < hit < critical hit).")
def _hit_monotone() -> Built:
    roll, total, better_total, skill, better_skill = z3.Ints("roll modifier_total better_total skill better_skill")
    cap = attack_sequence.capped_roll_modifier
    result = attack_sequence.hit_roll(roll, cap(total), skill)
    pre = [_atk_between(roll, 1, 5), _atk_between(skill, 2, 7), _atk_between(better_skill, 2, 7), better_skill <= skill,
           better_total >= total]
    goal = z3.And(attack_sequence.hit_roll(roll + 1, cap(total), skill) >= result,
                  attack_sequence.hit_roll(roll, cap(better_total), better_skill) >= result)
    return pre, goal, {"roll": roll, "modifier_total": total, "better_total": better_total, "skill": skill,
                       "better_skill": better_skill}


def _atk_wound_inputs() -> tuple[list[Any], Any, dict[str, Any]]:
    """Any total wound modifier (capped), any required result 2+ to 6+, any critical threshold 2+ to 6+."""
    total, required, critical = z3.Ints("modifier_total required critical")
    return [_atk_between(required, 2, 6), _atk_between(critical, 2, 6)], attack_sequence.capped_roll_modifier(total), {
        "modifier_total": total, "required": required, "critical": critical}


@proof("wound-unmodified-one-fails", ("05.02",),
       "An unmodified wound roll of 1 always fails, whatever the modifiers, the roll needed and [ANTI].")
def _wound_one() -> Built:
    pre, modifier, sy = _atk_wound_inputs()
    goal = attack_sequence.wound_roll(1, modifier, sy["required"], sy["critical"]) == int(attack_sequence.Wound.FAIL)
    return pre, goal, sy


@proof("wound-unmodified-six-critical", ("05.02",),
       "An unmodified wound roll of 6 is always a critical wound, whatever the modifiers, the roll needed and [ANTI].")
def _wound_six() -> Built:
    pre, modifier, sy = _atk_wound_inputs()
    goal = (attack_sequence.wound_roll(6, modifier, sy["required"], sy["critical"])
            == int(attack_sequence.Wound.CRITICAL_WOUND))
    return pre, goal, sy


@proof("wound-roll-monotone", ("05.02", "24.03"),
       "A higher wound roll, a better modifier, a lower roll needed or a lower critical threshold never gives a "
       "worse result (fail < wound < critical wound).")
def _wound_monotone() -> Built:
    names = "roll modifier_total better_total required better_required critical better_critical"
    roll, total, better_total, required, better_required, critical, better_critical = z3.Ints(names)
    cap = attack_sequence.capped_roll_modifier
    result = attack_sequence.wound_roll(roll, cap(total), required, critical)
    pre = [_atk_between(roll, 1, 5), _atk_between(required, 2, 6), _atk_between(better_required, 2, 6),
           _atk_between(critical, 2, 6), _atk_between(better_critical, 2, 6), better_total >= total,
           better_required <= required, better_critical <= critical]
    goal = z3.And(attack_sequence.wound_roll(roll + 1, cap(total), required, critical) >= result,
                  attack_sequence.wound_roll(roll, cap(better_total), better_required, better_critical) >= result)
    return pre, goal, dict(zip(names.split(), (roll, total, better_total, required, better_required, critical,
                                               better_critical)))


@proof("modifier-limits", ("05.01", "05.02"),
       "Hit and wound roll modifiers count as -1 to +1 (unchanged when already so), and a modified BS/WS "
       "stays 2+ to 7+.")
def _modifier_limits() -> Built:
    total, skill, worsened, improved = z3.Ints("modifier_total skill worsened improved")
    capped = attack_sequence.capped_roll_modifier(total)
    modified = attack_sequence.modified_skill(skill, worsened, improved)
    goal = z3.And(capped >= -1, capped <= 1, z3.Implies(_atk_between(total, -1, 1), capped == total),
                  modified >= 2, modified <= 7)
    return [_atk_between(skill, 2, 6), worsened >= 0, improved >= 0], goal, {
        "modifier_total": total, "skill": skill, "worsened": worsened, "improved": improved}


def _atk_save_inputs() -> tuple[list[Any], dict[str, Any]]:
    """Any AP (even a positive one from a save bonus), Sv 2+ to 7 (none), InSv 2+ to 6+ or 0 (none)."""
    ap, sv, insv = z3.Ints("ap sv insv")
    return [_atk_between(sv, 2, 7), _atk_insv_domain(insv)], {"ap": ap, "sv": sv, "insv": insv}


@proof("save-roll-monotone", ("05.04",),
       "If a save roll saves the attack, any higher roll saves it too (the calculator resolves saves on this).")
def _save_monotone() -> Built:
    pre, sy = _atk_save_inputs()
    roll = z3.Int("roll")
    saved = int(attack_sequence.Save.FAILS)
    goal = z3.Implies(attack_sequence.save_check(roll, sy["ap"], sy["sv"], sy["insv"]) == saved,
                      attack_sequence.save_check(roll + 1, sy["ap"], sy["sv"], sy["insv"]) == saved)
    return pre + [_atk_between(roll, 1, 5)], goal, {"roll": roll, **sy}


@proof("save-unmodified-one-inflicts", ("05.04",),
       "An unmodified save roll of 1 always lets the attack inflict damage, whatever the AP, Sv and InSv.")
def _save_one() -> Built:
    pre, sy = _atk_save_inputs()
    goal = attack_sequence.save_check(1, sy["ap"], sy["sv"], sy["insv"]) == int(attack_sequence.Save.INFLICTS_DAMAGE)
    return pre, goal, sy


@proof("save-better-armour-never-worse", ("05.04",),
       "A better Sv, an AP closer to 0, or gaining an InSv never turns a saved attack into one that inflicts damage.")
def _save_better() -> Built:
    pre, sy = _atk_save_inputs()
    roll, better_ap, better_sv, better_insv = z3.Ints("roll better_ap better_sv better_insv")
    ap, sv, insv = sy["ap"], sy["sv"], sy["insv"]
    saved = int(attack_sequence.Save.FAILS)
    pre += [_atk_between(roll, 1, 6), _atk_between(better_sv, 2, 7), _atk_insv_domain(better_insv), better_ap >= ap,
            better_sv <= sv, z3.Or(better_insv == insv, z3.And(insv == 0, better_insv > 0))]
    goal = z3.Implies(attack_sequence.save_check(roll, ap, sv, insv) == saved,
                      attack_sequence.save_check(roll, better_ap, better_sv, better_insv) == saved)
    return pre, goal, {"roll": roll, **sy, "better_ap": better_ap, "better_sv": better_sv, "better_insv": better_insv}


@proof("save-ap-worsens-save-by-its-value", ("05.04",),
       "Without an InSv, AP -x does exactly what a Sv x worse would do: every point of AP counts.")
def _save_ap() -> Built:
    roll, ap, sv = z3.Ints("roll ap sv")
    goal = attack_sequence.save_check(roll, ap, sv, 0) == attack_sequence.save_check(roll, 0, sv - ap, 0)
    pre = [_atk_between(roll, 1, 6), _atk_between(ap, -6, 0), _atk_between(sv, 2, 7)]
    return pre, goal, {"roll": roll, "ap": ap, "sv": sv}


@proof("invulnerable-save-ignores-ap", ("05.04",),
       "A save roll of the models' InSv or more saves the attack whatever its AP and the models' Sv.")
def _invulnerable() -> Built:
    pre, sy = _atk_save_inputs()
    roll = z3.Int("roll")
    goal = attack_sequence.save_check(roll, sy["ap"], sy["sv"], sy["insv"]) == int(attack_sequence.Save.FAILS)
    return pre + [_atk_between(roll, 1, 6), sy["insv"] > 0, roll >= sy["insv"]], goal, {"roll": roll, **sy}


# -- 06.02 / 06.03 mortal wounds and hazard rolls --------------------------------------------


@proof("mortal-wounds-spare-characters", ("06.02",),
       "A mortal wound goes to a CHARACTER only when no other model is left, always to a wounded model of the "
       "chosen kind if there is one, and takes exactly one wound.")
def _mortal_wounds() -> Built:
    wounded_nc, nc, wounded_c, c = z3.Bools("wounded_non_character non_character wounded_character character")
    remaining = z3.Int("remaining")
    kind = other_concepts.mortal_wound_model(wounded_nc, nc, wounded_c, c)
    target = other_concepts.MortalWoundTarget
    character_kinds = z3.Or(kind == int(target.WOUNDED_CHARACTER), kind == int(target.CHARACTER))
    goal = z3.And(
        character_kinds == z3.Not(nc),
        z3.Implies(wounded_nc, kind == int(target.WOUNDED_NON_CHARACTER)),
        z3.Implies(z3.And(z3.Not(nc), wounded_c), kind == int(target.WOUNDED_CHARACTER)),
        other_concepts.wounds_after_mortal_wound(remaining) == remaining - 1,
    )
    pre = [z3.Implies(wounded_nc, nc), z3.Implies(wounded_c, c), z3.Or(nc, c), remaining >= 1]
    return pre, goal, {"wounded_non_character": wounded_nc, "non_character": nc, "wounded_character": wounded_c,
                       "character": c, "remaining": remaining}


@proof("mortal-wound-table-checked-over-every-unit", ("06.02",),
       "The mortal-wound table's checks (its assume) admit every unit a mortal wound can reach: any mix of up to "
       "three CHARACTER and other models, each wounded or not, with at least one model left.")
def _mortal_wound_units() -> Built:
    left, character, wounded = (z3.Bools(f"{fact}_{i}" for i in range(3)) for fact in ("left", "character", "wounded"))

    def any_model(is_character, is_wounded=None):
        return z3.Or(*(z3.And(left[i], character[i] if is_character else z3.Not(character[i]),
                              wounded[i] if is_wounded else True) for i in range(3)))

    facts = {"wounded_non_character": any_model(False, True), "non_character": any_model(False),
             "wounded_character": any_model(True, True), "character": any_model(True)}
    symbols = {str(v): v for v in (*left, *character, *wounded)}
    return [z3.Or(*left)], other_concepts.MORTAL_WOUND_MODEL.assume(**facts), symbols


@proof("hazard-roll-fails-on-one-or-two", ("06.03",),
       "A hazard roll fails exactly on a 1 or 2, and then inflicts 1 mortal wound, or 3 if every model is a "
       "MONSTER or VEHICLE; otherwise none.")
def _hazard() -> Built:
    roll = z3.Int("roll")
    big = z3.Bool("every_model_monster_or_vehicle")
    goal = other_concepts.hazard_mortal_wounds(roll, big) == z3.If(roll <= 2, z3.If(big, 3, 1), 0)
    return [_atk_between(roll, 1, 6)], goal, {"roll": roll, "every_model_monster_or_vehicle": big}


# -- 24 weapon abilities ------------------------------------------------------------------------


def _atk_whole_fives(models: Any) -> tuple[Any, list[Any]]:
    """q = floor(models / 5), stated without division: 5q <= models < 5q + 5."""
    q = z3.Int("fives")
    return q, [5 * q <= models, models < 5 * q + 5]


@proof("blast-extra-attacks-per-five", ("24.05",),
       "[BLAST X] adds X attacks for every five models in the target, rounding down (0 to 20 models).")
def _blast() -> Built:
    # Bounded to 20 models: core_abilities._fives's z3 branch stops counting at four fives, so from
    # 25 models on its z3 term (4) and its Python value (models // 5) disagree.
    models, per_five = z3.Ints("models per_five")
    q, fives = _atk_whole_fives(models)
    goal = core_abilities.blast_extra_attacks(models, per_five) == per_five * q
    pre = [_atk_between(models, 0, 20), _atk_between(per_five, 1, 6)] + fives
    return pre, goal, {"models": models, "per_five": per_five}


@proof("cleave-extra-attacks-per-five", ("24.06",),
       "[CLEAVE X] adds X attacks for every five models in the target (rounding down), and only with one target.")
def _cleave() -> Built:
    models, per_five = z3.Ints("models per_five")
    single = z3.Bool("single_target")
    q, fives = _atk_whole_fives(models)
    goal = core_abilities.cleave_extra_attacks(models, per_five, single) == z3.If(single, per_five * q, 0)
    return [_atk_between(models, 0, 20), _atk_between(per_five, 1, 6)] + fives, goal, {
        "models": models, "per_five": per_five, "single_target": single}


@proof("rapid-fire-only-within-half-range", ("24.30",),
       "[RAPID FIRE X] adds exactly X attacks within half range and none beyond it.")
def _rapid_fire() -> Built:
    per_weapon = z3.Int("per_weapon")
    half = z3.Bool("within_half_range")
    goal = core_abilities.rapid_fire_extra_attacks(per_weapon, half) == z3.If(half, per_weapon, 0)
    return [per_weapon >= 1], goal, {"per_weapon": per_weapon, "within_half_range": half}


@proof("melta-only-within-half-range", ("24.25",),
       "[MELTA X] adds exactly X to D within half range and nothing beyond it.")
def _melta() -> Built:
    per_melta = z3.Int("per_melta")
    half = z3.Bool("within_half_range")
    goal = core_abilities.melta_damage_bonus(per_melta, half) == z3.If(half, per_melta, 0)
    return [per_melta >= 1], goal, {"per_melta": per_melta, "within_half_range": half}


@proof("sustained-hits-add-x-on-criticals", ("24.36",),
       "With [SUSTAINED HITS X] a critical hit scores 1 + X hits, and the ability adds nothing to other results.")
def _sustained() -> Built:
    extra = z3.Int("extra")
    critical = z3.Bool("critical_hit")
    goal = core_abilities.sustained_hits(critical, extra) == z3.If(critical, 1 + extra, 0)
    return [extra >= 1], goal, {"extra": extra, "critical_hit": critical}


@proof("lethal-hits-only-on-criticals", ("24.23",),
       "[LETHAL HITS] wounds automatically exactly when the hit is critical and the attacker chooses so.")
def _lethal() -> Built:
    critical, choose = z3.Bools("critical_hit choose_automatic")
    goal = core_abilities.lethal_hit_wounds_automatically(critical, choose) == z3.And(critical, choose)
    return [], goal, {"critical_hit": critical, "choose_automatic": choose}


@proof("devastating-wounds-only-on-criticals", ("24.10",),
       "[DEVASTATING WOUNDS] turns a critical wound into exactly D mortal wounds, damaging at most one model per "
       "critical wound, and does nothing otherwise.")
def _devastating() -> Built:
    critical = z3.Bool("critical_wound")
    damage, criticals = z3.Ints("damage critical_wounds")
    goal = z3.And(core_abilities.devastating_mortal_wounds(critical, damage) == z3.If(critical, damage, 0),
                  core_abilities.devastating_wounds_models_damaged(criticals) <= criticals)
    return [damage >= 1, criticals >= 0], goal, {"critical_wound": critical, "damage": damage,
                                                 "critical_wounds": criticals}


@proof("feel-no-pain-saves-on-x-or-more", ("24.12",),
       "Against Feel No Pain X+ a wound is kept on a roll of X or more and lost on anything less.")
def _feel_no_pain() -> Built:
    roll, fnp = z3.Ints("roll feel_no_pain")
    goal = core_abilities.wound_is_lost(roll, fnp) == (roll < fnp)
    return [_atk_between(roll, 1, 6), _atk_between(fnp, 2, 6)], goal, {"roll": roll, "feel_no_pain": fnp}


@proof("twin-linked-rerolls-failed-wounds", ("24.38",),
       "[TWIN-LINKED] re-rolls a failed wound roll by default, never a critical wound, and a successful one only "
       "under the 'all non-critical' policy.")
def _twin_linked() -> Built:
    failed, policy, critical = z3.Bools("first_result_failed policy_all_non_critical critical")
    rerolled = core_abilities.twin_linked_rerolls(failed, policy, critical)
    goal = z3.And(z3.Implies(z3.Not(policy), rerolled == failed),
                  z3.Implies(critical, z3.Not(rerolled)),
                  z3.Implies(failed, rerolled))
    return [z3.Not(z3.And(failed, critical))], goal, {
        "first_result_failed": failed, "policy_all_non_critical": policy, "critical": critical}

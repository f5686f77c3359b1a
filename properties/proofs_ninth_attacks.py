"""z3 proofs about the earlier edition's Shooting phase and Making Attacks (ruleset ``ninth``).

Each builder calls the rule functions through their modules (``making_attacks.hit_scored(...)``) so
``properties/test_ninth_attacks.py`` can swap in a broken copy and watch the proof fail. Proofs with
``expect="disproved"`` are findings (spec/ninth/annotations/findings/attacks.yaml): the text as printed (or one
printing against the other) fails them, and the code follows a recorded interpretation.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.ninth import making_attacks, shooting


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _roll_skill_modifier() -> tuple[list, dict]:
    """A D6, any total modifier, a BS/WS of 2+ to 6+."""
    roll, modifier, skill = z3.Ints("unmodified_roll modifier skill")
    return [_between(roll, 1, 6), _between(skill, 2, 6)], {"unmodified_roll": roll, "modifier": modifier,
                                                           "skill": skill}


def _strength_toughness(*names: str) -> tuple[list, dict]:
    symbols = {name: z3.Int(name) for name in names}
    return [_between(s, 1, 30) for s in symbols.values()], symbols


# -- Hit roll ---------------------------------------------------------------------------------------------------


@proof("ninth-hit-modifier-capped", ("ninth:making-attacks/hit-roll",),
       "A hit roll under a total modifier of -2 or worse does what it does under -1, and under +2 or better what it "
       "does under +1.")
def _hit_capped() -> Built:
    pre, f = _roll_skill_modifier()
    r, m, s = f["unmodified_roll"], f["modifier"], f["skill"]
    goal = z3.And(z3.Implies(m <= -1, making_attacks.hit_scored(r, m, s) == making_attacks.hit_scored(r, -1, s)),
                  z3.Implies(m >= 1, making_attacks.hit_scored(r, m, s) == making_attacks.hit_scored(r, 1, s)))
    return pre, goal, f


@proof("ninth-hit-one-fails-six-hits", ("ninth:making-attacks/hit-roll",),
       "An unmodified hit roll of 1 always fails and a 6 always hits, whatever the modifier and the BS/WS.")
def _hit_one_six() -> Built:
    pre, f = _roll_skill_modifier()
    m, s = f["modifier"], f["skill"]
    goal = z3.And(z3.Not(making_attacks.hit_scored(1, m, s)), making_attacks.hit_scored(6, m, s))
    return pre, goal, f


@proof("ninth-hit-monotone", ("ninth:making-attacks/hit-roll",),
       "A higher roll, a better (lower) skill or a larger modifier never turns a hit into a miss.")
def _hit_monotone() -> Built:
    pre, f = _roll_skill_modifier()
    r, m, s = f["unmodified_roll"], f["modifier"], f["skill"]
    r2, m2, s2 = z3.Ints("higher_roll larger_modifier better_skill")
    f.update(higher_roll=r2, larger_modifier=m2, better_skill=s2)
    pre += [_between(r2, r, 6), m2 >= m, _between(s2, 2, s)]
    goal = z3.Implies(making_attacks.hit_scored(r, m, s), making_attacks.hit_scored(r2, m2, s2))
    return pre, goal, f


# -- Wound roll -------------------------------------------------------------------------------------------------


@proof("ninth-wound-table-monotone", ("ninth:making-attacks/wound-roll",),
       "The wound roll needed is 2+ to 6+, never higher for a higher Strength and never lower for a higher "
       "Toughness.")
def _wound_monotone() -> Built:
    pre, f = _strength_toughness("strength", "stronger", "toughness", "tougher")
    s, s2, t, t2 = (f[n] for n in ("strength", "stronger", "toughness", "tougher"))
    needed = making_attacks.wound_roll_needed(s, t)
    goal = z3.And(needed >= 2, needed <= 6, making_attacks.wound_roll_needed(s2, t) <= needed,
                  making_attacks.wound_roll_needed(s, t2) >= needed)
    return pre + [s2 >= s, t2 >= t], goal, f


@proof("ninth-wound-table-rows-as-printed", ("ninth:making-attacks/wound-roll",),
       "Each printed row gives its result where its words hold alone: S twice T or more 2+, S equal to T 4+, S half "
       "T or less 6+, S greater than T (not twice) 3+, S lower than T (not half or less) 5+.")
def _wound_rows() -> Built:
    pre, f = _strength_toughness("strength", "toughness")
    s, t = f["strength"], f["toughness"]
    needed = making_attacks.wound_roll_needed(s, t)
    goal = z3.And(z3.Implies(s >= 2 * t, needed == 2), z3.Implies(s == t, needed == 4),
                  z3.Implies(2 * s <= t, needed == 6), z3.Implies(z3.And(s > t, s < 2 * t), needed == 3),
                  z3.Implies(z3.And(s < t, 2 * s > t), needed == 5))
    return pre, goal, f


def _literal_first_match(strength: Any, toughness: Any) -> Any:
    """The wound table read as printed, each row's words alone, the first that holds winning."""
    return z3.If(strength >= 2 * toughness, 2, z3.If(strength > toughness, 3, z3.If(
        strength == toughness, 4, z3.If(strength < toughness, 5, z3.If(2 * strength <= toughness, 6, -1)))))


@proof("ninth-wound-table-literal-rows-reach-half", ("ninth:making-attacks/wound-roll",),
       "Read literally, first match in the printed order, the HALF (or less) row gives 6+ where the Strength is "
       "half the Toughness or less.", expect="disproved")
def _wound_literal() -> Built:
    pre, f = _strength_toughness("strength", "toughness")
    s, t = f["strength"], f["toughness"]
    return pre, z3.Implies(2 * s <= t, _literal_first_match(s, t) == 6), f


@proof("ninth-wound-one-fails-six-wounds-capped", ("ninth:making-attacks/wound-roll",),
       "An unmodified wound roll of 1 always fails and a 6 always wounds; a total modifier past -1 or +1 acts as "
       "-1 or +1.")
def _wound_one_six_cap() -> Built:
    pre, f = _strength_toughness("strength", "toughness")
    s, t = f["strength"], f["toughness"]
    r, m = z3.Ints("unmodified_roll modifier")
    f.update(unmodified_roll=r, modifier=m)
    pre.append(_between(r, 1, 6))
    w = making_attacks.wound_scored
    goal = z3.And(z3.Not(w(1, m, s, t)), w(6, m, s, t),
                  z3.Implies(m <= -1, w(r, m, s, t) == w(r, -1, s, t)),
                  z3.Implies(m >= 1, w(r, m, s, t) == w(r, 1, s, t)))
    return pre, goal, f


# -- Saves, damage, mortal wounds ------------------------------------------------------------------------------


@proof("ninth-save-never-better-than-its-sv", ("ninth:making-attacks/saving-throw",),
       "AP never improves a save: a saving throw that succeeds rolled at least the Sv, and at least 2 (an "
       "unmodified 1 fails), whatever the AP (0 to -6) and Sv (2+ to 7+).")
def _save_bounded() -> Built:
    r, ap, sv = z3.Ints("unmodified_roll ap save")
    f = {"unmodified_roll": r, "ap": ap, "save": sv}
    pre = [_between(r, 1, 6), _between(ap, -6, 0), _between(sv, 2, 7)]
    goal = z3.Implies(making_attacks.armour_save_holds(r, ap, sv), z3.And(r >= sv, r >= 2))
    return pre, goal, f


@proof("ninth-save-ap-monotone", ("ninth:making-attacks/saving-throw",),
       "A better AP (more negative) never turns a failed saving throw into a successful one.")
def _save_ap_monotone() -> Built:
    r, ap, better, sv = z3.Ints("unmodified_roll ap better_ap save")
    f = {"unmodified_roll": r, "ap": ap, "better_ap": better, "save": sv}
    pre = [_between(r, 1, 6), _between(ap, -6, 0), _between(better, -6, ap), _between(sv, 2, 7)]
    goal = z3.Implies(making_attacks.armour_save_holds(r, better, sv), making_attacks.armour_save_holds(r, ap, sv))
    return pre, goal, f


@proof("ninth-invulnerable-save-ignores-ap", ("ninth:making-attacks/invulnerable-saves",),
       "An invulnerable saving throw has the same result whatever the AP, an unmodified 1 failing.")
def _invulnerable() -> Built:
    r, ap, other, inv = z3.Ints("unmodified_roll ap other_ap invulnerable_save")
    f = {"unmodified_roll": r, "ap": ap, "other_ap": other, "invulnerable_save": inv}
    pre = [_between(r, 1, 6), _between(ap, -6, 0), _between(other, -6, 0), _between(inv, 2, 6)]
    hold = making_attacks.invulnerable_save_holds
    return pre, z3.And(hold(r, ap, inv) == hold(r, other, inv), z3.Not(hold(1, ap, inv))), f


@proof("ninth-save-used-is-one-of-the-two-and-the-better", ("ninth:making-attacks/invulnerable-saves",),
       "The save a model with an invulnerable save uses fails on the faces of its Sv or of its invulnerable save, "
       "and on no more than either.")
def _save_used() -> Built:
    a, i = z3.Ints("armour_failing_faces invulnerable_failing_faces")
    f = {"armour_failing_faces": a, "invulnerable_failing_faces": i}
    used = making_attacks.failing_faces_of_the_save_used(a, i)
    pre = [_between(a, 1, 6), _between(i, 1, 6)]
    return pre, z3.And(z3.Or(used == a, used == i), used <= a, used <= i), f


@proof("ninth-damage-excess-lost-mortal-carried", ("ninth:making-attacks/inflict-damage",
                                                   "ninth:making-attacks/mortal-wounds"),
       "A model loses no more wounds than it has left; an attack's excess damage goes nowhere, while mortal wound "
       "damage is all accounted for: lost by the model or carried to the next.")
def _damage() -> Built:
    d, w = z3.Ints("damage wounds_left")
    f = {"damage": d, "wounds_left": w}
    pre = [_between(d, 1, 60), _between(w, 1, 40)]
    lost = making_attacks.wounds_lost(d, w)
    goal = z3.And(lost <= w, lost <= d, making_attacks.damage_carried_to_next_model(d, w, False) == 0,
                  lost + making_attacks.damage_carried_to_next_model(d, w, True) == d,
                  making_attacks.destroyed(w - lost) == (d >= w))
    return pre, goal, f


# -- Shooting ---------------------------------------------------------------------------------------------------


@proof("ninth-blast-attacks-bounded", ("ninth:shooting-phase/blast-weapons",),
       "Blast never lowers the number rolled nor passes the weapon's maximum (for a maximum of 3 or more), makes 3 "
       "or more against 6 to 10 models, the maximum against 11 or more, and the roll against 5 or fewer; more "
       "models never mean fewer attacks.")
def _blast() -> Built:
    rolled, maximum, models, more = z3.Ints("rolled maximum models_in_target more_models")
    f = {"rolled": rolled, "maximum": maximum, "models_in_target": models, "more_models": more}
    pre = [_between(maximum, 3, 60), _between(rolled, 1, maximum), _between(models, 1, 100),
           _between(more, models, 100)]
    attacks = shooting.blast_attacks(rolled, maximum, models)
    goal = z3.And(attacks >= rolled, attacks <= maximum,
                  z3.Implies(_between(models, 6, 10), attacks >= 3),
                  z3.Implies(models >= 11, attacks == maximum), z3.Implies(models <= 5, attacks == rolled),
                  shooting.blast_attacks(rolled, maximum, more) >= attacks)
    return pre, goal, f


@proof("ninth-hit-penalties-only-penalties", ("ninth:shooting-phase/ranged-weapon-types/assault",
                                              "ninth:shooting-phase/ranged-weapon-types/heavy",
                                              "ninth:shooting-phase/big-guns-never-tire"),
       "Assault, Heavy and Big Guns Never Tire each give -1 exactly when their conditions all hold, and 0 "
       "otherwise.")
def _penalties() -> Built:
    a, adv, h, inf, moved, vm, eng = z3.Bools("assault advanced heavy infantry unit_moved vehicle_or_monster "
                                              "enemy_within_engagement_range")
    f = {"assault": a, "advanced": adv, "heavy": h, "infantry": inf, "unit_moved": moved,
         "vehicle_or_monster": vm, "enemy_within_engagement_range": eng}
    goal = z3.And(shooting.assault_hit_modifier(a, adv) == z3.If(z3.And(a, adv), -1, 0),
                  shooting.heavy_hit_modifier(h, inf, moved) == z3.If(z3.And(h, inf, moved), -1, 0),
                  shooting.big_guns_hit_modifier(vm, h, eng) == z3.If(z3.And(vm, h, eng), -1, 0))
    return [], goal, f


@proof("ninth-look-out-sir-printings-agree", ("ninth:shooting-phase/look-out-sir",),
       "The reprint's Look Out, Sir (002) and the web page's three cases (003) protect the same CHARACTER units.",
       expect="disproved")
def _look_out_sir() -> Built:
    w = z3.Int("character_wounds")
    near_vm, vm_character, vm_ten, near_squad, squad_character = z3.Bools(
        "near_vehicle_or_monster_unit vehicle_or_monster_unit_is_character vehicle_or_monster_has_10_wounds "
        "near_unit_of_three_or_more unit_of_three_is_character")
    f = {"character_wounds": w, "near_vehicle_or_monster_unit": near_vm,
         "vehicle_or_monster_unit_is_character": vm_character, "vehicle_or_monster_has_10_wounds": vm_ten,
         "near_unit_of_three_or_more": near_squad, "unit_of_three_is_character": squad_character}
    reprint = shooting.look_out_sir_protects(w, near_vm, near_squad)
    web = shooting.look_out_sir_protects_web(w, z3.And(near_vm, vm_ten), z3.And(near_vm, z3.Not(vm_character)),
                                             z3.And(near_squad, z3.Not(squad_character)))
    return [_between(w, 1, 30)], reprint == web, f


@proof("ninth-look-out-sir-web-never-protects-more", ("ninth:shooting-phase/look-out-sir",),
       "Every CHARACTER unit the web page's Look Out, Sir protects, the reprint's protects too (the printings "
       "differ only where the web page leaves out a CHARACTER VEHICLE, MONSTER or squad under 10 Wounds).")
def _look_out_sir_subset() -> Built:
    w = z3.Int("character_wounds")
    near_vm, vm_character, vm_ten, near_squad, squad_character = z3.Bools(
        "near_vehicle_or_monster_unit vehicle_or_monster_unit_is_character vehicle_or_monster_has_10_wounds "
        "near_unit_of_three_or_more unit_of_three_is_character")
    f = {"character_wounds": w, "near_vehicle_or_monster_unit": near_vm,
         "vehicle_or_monster_unit_is_character": vm_character, "vehicle_or_monster_has_10_wounds": vm_ten,
         "near_unit_of_three_or_more": near_squad, "unit_of_three_is_character": squad_character}
    reprint = shooting.look_out_sir_protects(w, near_vm, near_squad)
    web = shooting.look_out_sir_protects_web(w, z3.And(near_vm, vm_ten), z3.And(near_vm, z3.Not(vm_character)),
                                             z3.And(near_squad, z3.Not(squad_character)))
    return [_between(w, 1, 30)], z3.Implies(web, reprint), f

"""999.m41's attacks on infantry, monstrous creatures and characters, for the shared engine (004, revision 007).

Every decision is a call of one of m41's tagged rule functions; this module only puts them in the order of the
shooting and assault sequences and counts the faces of the dice they judge:

- shots: ``weapons.shots_fired`` from the profile's type (Rapid Fire doubled within half range, Salvo's first number
  after moving, Heavy and Ordnance none after moving; Relentless and Slow and Purposeful count as stationary:
  ``usr.counts_as_stationary``); melee attacks: ``assault.number_of_attacks`` (A, +1 for the charge, +1 for a second
  single-handed weapon, "extra_weapon");
- to hit: ``shooting.hit_scored`` on the BS chart (snap shots at ``shooting.ballistic_skill_used``, the scenario's
  to-hit penalty, Sniper's and Deadly's +1, Hard to Hit's -1) or ``assault.hits`` on the WS-vs-WS chart; Twin-Linked
  rolls to hit twice and uses the better die, and a rule that re-rolls failed hits (Hatred in the first round of a
  combat) re-rolls the attack in total (interpretation usr-twin-linked-reroll-in-total); Preferred Enemy re-rolls
  rolls of 1;
- to wound: ``shooting.to_wound_needed`` (the S-T chart), then Flesh Bane, Sniper and a ranged Poisoned (N+) set the
  roll needed; a melee Poisoned re-rolls failed wounds needing N+; Shred and Monster Hunter re-roll failed wounds;
  a Rending (or Sniper) roll of 6 wounds whatever the Toughness at AP2 (``usr.rending_auto_wounds``,
  ``usr.rending_ap``);
- saves, per wound (``saves = "each"``): the armour save after AP, rend and overpower
  (``weapons.armour_save_needed``), the invulnerable save, the cover save (``shooting.cover_save``, one worse for
  monstrous creatures and bulky models, then ``usr.cover_save_needed``; never against close combat attacks or a
  weapon that Ignores Cover), all taken best first with each later one worse, never past 6+
  (``models.chance_wound_is_saved``);
- an unsaved wound loses ``weapons.wounds_lost_to_unsaved_wound`` (two on overpower), or the whole model with
  Instant Death (``usr.wounds_after_unsaved_wound``); Feel no Pain is rolled for it only where
  ``usr.feel_no_pain_allowed`` allows it (not against AP1-2, a rending 6, overpower or instant death). The document
  has no rule that S of twice the T kills outright: only the Instant Death special rule does.

Wound allocation: "once a wound has been allocated to a model following wounds must also be allocated to this
model until ... removed" (shooting/wound-allocation): the engine's current model, in the defender's order
(choices.allocation_order, else the listed order, closest first). What the engine cannot follow is refused with one
sentence: a unit of several hit groups (models differing in T or saves divide the hit dice before rolling:
shooting/complex-units-and-hit-groups), a character that is not the last to take wounds (Look out Sir! and Lost in
the Heat of Battle), a melee target whose models differ in WS, and every special rule this module does not
calculate. A blast's or template's hits come counted (``Weapon.fixed_hits``, no to-hit roll) from
rules.m41.blast_attacks, which places them over the scenario's formation; a large blast's outer ring has its AP
worse by 1 (``weapons.large_blast_ap``) and cannot overpower.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Mapping

from rules.engine.attack_rules import AttackRules, WeaponPlan
from rules.engine.series import q
from rules.engine.target import Group, State
from rules.m41 import assault, models, shooting, usr, weapons
from rules.m41.weapons import NO_SAVE

D6 = range(1, 7)
SIXTH = Fraction(1, 6)

#: The weapon rules (of the weapon or of its firers) the calculator reads, by the reader's key.
WEAPON_RULES = {"twin linked", "poisoned", "sniper", "rending", "instant death", "preferred enemy", "hatred", "shred",
                "flesh bane", "deadly", "overpower", "ignores cover", "monster hunter", "relentless",
                "slow and purposeful"}
#: Rules that change nothing about the wounds the target suffers (their effect is on the firer or a later test).
NO_EFFECT_ON_WOUNDS = {"pinning", "gets hot!"}
#: The target rules the calculator reads.
TARGET_RULES = {"stealth", "small targets", "bulky", "hard to hit"}
TEMPLATE_WORDS = {"blast", "large blast", "barrage", "template"}
COVER_LEVEL = {"light": shooting.LIGHT_COVER, "medium": shooting.MEDIUM_COVER, "heavy": shooting.HEAVY_COVER}


class RulesetCannot(ValueError):
    """A scenario the m41 calculator does not calculate; the message is one sentence."""


def _faces_chance(test: Callable[[int], Any]) -> Fraction:
    """The chance one D6 passes ``test``."""
    return sum((SIXTH for roll in D6 if test(roll)), Fraction(0))


@dataclass(frozen=True)
class WoundKind:
    """Wounds of one kind an attack can cause: a normal wound, or a rending 6 at its own AP."""

    name: str
    chance: Fraction  # the chance one attack die causes a wound of this kind
    ap: int


@dataclass(frozen=True, eq=False)
class M41Plan(WeaponPlan):
    """A weapon's plan, with the law of one wound allocated to a model of each group (saved or not, then lost)."""

    events: Mapping[str, Mapping[int, Any]] = field(default_factory=dict)
    unsaved: Mapping[str, Fraction] = field(default_factory=dict)  # per group: the chance a normal wound is unsaved


def _roll(first: Callable[[int], Any], may_reroll: Callable[[int], Any], again: Callable[[int], Any]) -> dict:
    """The chance of each result of a roll: ``first(roll)`` gives the result (None: failed); a failed roll that
    ``may_reroll`` allows is rolled once more and judged by ``again``."""
    out: dict = {}
    for roll in D6:
        result = first(roll)
        if result is None and may_reroll(roll):
            for second in D6:
                key = again(second)
                out[key] = out.get(key, 0) + SIXTH * SIXTH
        else:
            out[result] = out.get(result, 0) + SIXTH
    return out


class M41AttackRules(AttackRules):
    ruleset = "m41"
    saves = "each"  # "roll saves one at a time to the allocated model" (shooting/wound-allocation)
    mortal_wounds = "spill"  # no m41 attack the calculator reads inflicts wounds without a save
    weapon_types = True

    def answer(self, scenario) -> Any:
        """A vehicle target (rules.m41.vehicle_attacks) and blasts over a formation (rules.m41.blast_attacks) have
        their own calculators; every other scenario is the engine's."""
        from rules.m41 import blast_attacks, vehicle_attacks
        from rules.m41.vehicle_scenario import VehicleScenario

        if isinstance(scenario, VehicleScenario):
            return vehicle_attacks.calculate(scenario)
        if getattr(scenario, "formation", None) is not None:
            return blast_attacks.calculate(scenario)
        return None

    # -- the target ----------------------------------------------------------------------------------------------

    def groups(self, scenario) -> tuple[Group, ...]:
        """One group per model entry; the whole target must be one hit group, and characters take wounds last."""
        first = scenario.models[0]
        for i, m in enumerate(scenario.models):
            if (m.T, m.Sv, m.InSv, m.FNP, m.rules) != (first.T, first.Sv, first.InSv, first.FNP, first.rules) or \
                    (m.kind == "monstrous creature") != (first.kind == "monstrous creature"):
                raise RulesetCannot(f"target.models[{i}] differs from target.models[0] in T, saves, kind or rules, "
                                    "so the unit has several hit groups, whose hit dice the calculator does not "
                                    "divide (shooting/complex-units-and-hit-groups)")
            for rule in m.rules:
                if rule.key not in TARGET_RULES:
                    raise RulesetCannot(f"target.models[{i}].rules: the m41 calculator does not calculate {rule.name}")
        groups = tuple(Group(m.name, m.count, m.W, m.T, m.Sv, m.InSv, m.FNP, m.kind == "character", "bodyguard")
                       for m in scenario.models)
        order = self._order(groups, scenario.choices)
        seen_character = False
        for g in order:
            if groups[g].character:
                seen_character = True
            elif seen_character:
                raise RulesetCannot(f"{groups[g].name} takes wounds after a character, and the m41 calculator does "
                                    "not roll Look out Sir! (give the character last in choices.allocation_order)")
        return groups

    @staticmethod
    def _order(groups: tuple[Group, ...], choices) -> tuple[int, ...]:
        rank = {name: i for i, name in enumerate(choices.allocation_order)}
        return tuple(sorted(range(len(groups)), key=lambda i: (rank.get(groups[i].name, len(rank)), i)))

    def toughness(self, groups: tuple[Group, ...], state: State) -> int:
        """The hit group's Toughness (every model has the same, or the scenario was refused)."""
        return groups[0].T

    def allocation_order(self, groups: tuple[Group, ...], state: State, choices) -> tuple[int, ...]:
        """The defender's order, which never changes: each wound goes to the model that has one allocated until it is
        removed (shooting.must_allocate_to), then to the next."""
        return self._order(groups, choices)

    def mortal_target(self, groups: tuple[Group, ...], state: State) -> int | None:
        return None

    def save_fails(self, group: Group, plan: WeaponPlan) -> Any:
        """The chance a normal wound (not a rending 6) of this weapon is not saved by a model of this group."""
        return plan.unsaved[group.name]

    def wound_lost(self, group: Group) -> Any:
        return Fraction(1)  # Feel no Pain depends on the wound: wound_event rolls it

    def wound_event(self, group: Group, plan: WeaponPlan) -> Mapping[int, Any]:
        """One wound allocated to a model of this group: the mixture of the weapon's wound kinds, each saved (or
        not) best first, then lost or shrugged off by Feel no Pain where it is allowed."""
        return {n: q(p) for n, p in plan.events[group.name].items()}

    # -- one weapon entry -------------------------------------------------------------------------------------------

    def plan(self, scenario, weapon, toughness: int, groups: tuple[Group, ...]) -> WeaponPlan:
        has = lambda name: weapon.rule(name) is not None  # noqa: E731
        self._refuse_unknown(weapon)
        target = scenario.models[0]
        target_has = lambda name: target.rule(name) is not None  # noqa: E731
        monstrous = target.kind == "monstrous creature"
        ctx = scenario.context

        if weapon.outer_ring:  # a large blast's outer ring: "an AP penalty of 1, and cannot overpower"
            weapon = replace(weapon, AP=weapons.large_blast_ap(weapon.AP, False))
        if weapon.fixed_hits is not None:  # a blast's or template's hits, counted from the formation: no to-hit roll
            per_model, to_hit, hit_test = weapon.fixed_hits, None, lambda roll: True  # noqa: E731
            reroll_failed_hits = False
        elif weapon.melee:
            per_model = assault.number_of_attacks(weapon.A, counts_as_charging=ctx.charged)
            if len({m.WS for m in scenario.models}) > 1:
                raise RulesetCannot(f"{weapon.name}: the target's models differ in WS, and each close combat attack "
                                    "rolls on the chart against one WS")
            modifier = usr.deadly_hit_bonus(has("deadly"))
            hit_test = lambda roll: assault.hits(roll, weapon.WS, target.WS, modifier)  # noqa: E731
            to_hit = assault.to_hit_needed(weapon.WS, target.WS) - modifier
            reroll_failed_hits = bool(usr.hatred_rerolls_failed_hits(has("hatred"), ctx.first_round))
        else:
            moved = not usr.counts_as_stationary(ctx.moved, has("relentless"), has("slow and purposeful"))
            per_model = weapons.shots_fired(weapon.kind, weapon.shots, moved, ctx.within_half_range,
                                            weapon.stationary_shots)
            if ctx.snap_shots and not weapons.may_fire_snap_shots(weapon.kind):
                raise RulesetCannot(f"{weapon.name}: an Ordnance weapon cannot fire snap shots (context.snap_shots)")
            skill = shooting.ballistic_skill_used(weapon.BS, ctx.snap_shots)
            penalty = (ctx.to_hit_penalty - usr.sniper_hit_bonus(has("sniper")) - usr.deadly_hit_bonus(has("deadly"))
                       - usr.hard_to_hit_penalty(1 if target_has("hard to hit") else 0, True))
            hit_test = lambda roll: shooting.hit_scored(roll, skill, penalty)  # noqa: E731
            to_hit = shooting.to_hit_needed(skill) + penalty
            reroll_failed_hits = False
        reroll_hit_ones = has("preferred enemy")
        if has("twin linked") and reroll_hit_ones:
            raise RulesetCannot(f"{weapon.name}: Twin-Linked with Preferred Enemy (which re-roll of a pair of to-hit "
                                "dice is a roll of 1 is not stated) is not calculated")
        p_hit = self._hit_chance(hit_test, has("twin linked"), reroll_failed_hits, reroll_hit_ones)

        kinds, wound_explain = self._wound_kinds(weapon, toughness, has, target_has, monstrous)
        per_attack = {(1, 0): p_hit * sum(k.chance for k in kinds), (0, 0): 1 - p_hit * sum(k.chance for k in kinds)}
        kinds = tuple(WoundKind(k.name, k.chance * p_hit, k.ap) for k in kinds)

        events, unsaved, save_texts, wounds_lost = {}, {}, [], {}
        overpowered = bool(weapons.overpowers(weapon.S, toughness, usr.triggers_overpower(False, has("overpower")),
                                              weapon.outer_ring))
        instant = has("instant death")
        for group, model in zip(groups, scenario.models):
            law: dict = {}
            total = sum(k.chance for k in kinds)
            for kind in kinds:
                saves = self._saves(scenario, weapon, model, kind.ap, overpowered, has, monstrous)
                fails = 1 - models.chance_wound_is_saved(saves)
                if kind.name == "wound":
                    unsaved[group.name] = fails
                    if not save_texts:
                        save_texts = [f"{s}+" for s in models.successive_saves(saves)]
                lost = group.W - usr.wounds_after_unsaved_wound(group.W, instant,
                                                               weapons.wounds_lost_to_unsaved_wound(overpowered))
                wounds_lost[group.name] = lost
                fnp = group.FNP
                shrugged = Fraction(0) if fnp is None else _faces_chance(
                    lambda roll: usr.feel_no_pain_saves(roll, kind.ap, fnp, overpowered, instant))
                share = kind.chance / total if total else Fraction(0)
                law[0] = law.get(0, 0) + share * (1 - fails + fails * shrugged)
                law[lost] = law.get(lost, 0) + share * fails * (1 - shrugged)
            events[group.name] = {n: p for n, p in law.items() if p} or {0: Fraction(1)}
            unsaved.setdefault(group.name, Fraction(0))
        explain = {"type": weapon.type_text, "outer_ring": weapon.outer_ring, "attacks_per_model": per_model,
                   "to_hit": to_hit, "p_hit": p_hit,
                   **wound_explain, "saves": save_texts, "overpower": overpowered, "instant_death": instant,
                   "feel_no_pain": groups[0].FNP}
        # The damage of an unsaved wound, as --json's step reports it: on the model that takes wounds first (the
        # wound laws above are what the engine uses; every group's may differ, with Instant Death).
        first = groups[self._order(groups, scenario.choices)[0]].name
        damage = {wounds_lost.get(first, 1): 1}
        return M41Plan(weapon, {per_model: 1}, weapon.count, per_attack, damage, {}, False, explain, events, unsaved)

    @staticmethod
    def _refuse_unknown(weapon) -> None:
        for rule in weapon.rules:
            if rule.key in TEMPLATE_WORDS and weapon.fixed_hits is None:
                raise RulesetCannot(f"{weapon.name}: {rule.name} weapons hit by template, placed by "
                                    "rules.m41.blast_attacks from the scenario's formation, not by the engine")
            if rule.key not in WEAPON_RULES | NO_EFFECT_ON_WOUNDS | TEMPLATE_WORDS:
                raise RulesetCannot(f"{weapon.name}: the m41 calculator does not calculate {rule.name}")
            if rule.key == "poisoned" and rule.value is None:
                raise RulesetCannot(f"{weapon.name}: Poisoned needs its value, e.g. Poisoned (4+)")

    @staticmethod
    def _hit_chance(hit_test, twin_linked: bool, reroll_failed: bool, reroll_ones: bool) -> Fraction:
        """The chance one attack hits, from the tagged rules that say how often a die needing N+ succeeds:
        ``usr.twin_linked_hit_chance`` (two dice, a failure re-rolled in total where a rule allows),
        ``usr.reroll_failed_chance`` and ``usr.preferred_enemy_chance``. A 1 always fails to hit (on both charts),
        and a higher face never misses where a lower one hits: N+ is the least face that hits (7+ if none)."""
        needed = min((roll for roll in D6 if hit_test(roll)), default=7)  # properties/test_m41_calculator.py
        if twin_linked:
            return usr.twin_linked_hit_chance(needed, reroll_failed)
        if reroll_failed:
            return usr.reroll_failed_chance(needed)  # a 1 is a failed roll: Preferred Enemy adds nothing to this
        if reroll_ones:
            return usr.preferred_enemy_chance(needed)
        return usr.chance_at_least(needed)

    @staticmethod
    def _wound_kinds(weapon, toughness: int, has, target_has, monstrous: bool):
        """Per hit: the chance of a normal wound and of a rending wound (with its AP), and the numbers for explain."""
        needed = shooting.to_wound_needed(weapon.S, toughness)
        if has("flesh bane"):
            needed = usr.flesh_bane_wound_needed(needed, False)
        if has("sniper"):
            needed = usr.sniper_wound_needed(needed)
        poison = weapon.rule("poisoned")
        if poison is not None and not weapon.melee:
            needed = usr.poisoned_ranged_wound_needed(needed, poison.value)
        rending = has("rending") or has("sniper")  # "Sniper weapons are rending and pinning weapons."
        reroll_failed = has("shred") or bool(usr.monster_hunter_rerolls_failed_wounds(has("monster hunter"), monstrous))
        reroll_ones = has("preferred enemy")
        melee_poison = poison is not None and weapon.melee
        if melee_poison and reroll_failed:
            raise RulesetCannot(f"{weapon.name}: a melee Poisoned re-roll together with another re-roll of failed "
                                "wounds (which value the one re-roll uses is not stated) is not calculated")

        def judge(threshold):
            def result(roll):
                if rending and usr.rending_auto_wounds(roll):
                    return "rend"
                return "wound" if roll >= threshold else None
            return result

        again = judge(poison.value) if melee_poison else judge(needed)
        chances = _roll(judge(needed), lambda roll: reroll_failed or melee_poison or (reroll_ones and roll == 1),
                        again)
        kinds = [WoundKind("wound", chances.get("wound", Fraction(0)), weapon.AP)]
        if rending:
            kinds.append(WoundKind("rend", chances.get("rend", Fraction(0)), usr.rending_ap(6, weapon.AP)))
        return tuple(kinds), {"to_wound": needed, "p_wound_per_hit": sum(k.chance for k in kinds),
                              "p_rend_per_hit": chances.get("rend", Fraction(0))}

    @staticmethod
    def _saves(scenario, weapon, model, ap: int, overpowered: bool, has, monstrous: bool) -> list[int]:
        """The saves a model may take against one wound of this AP, each as the N+ it needs (none of them 7+)."""
        out = [weapons.armour_save_needed(model.Sv, ap, overpowered)]
        if model.InSv is not None:
            out.append(weapons.invulnerable_save_needed(model.InSv, ap, overpowered))
        if scenario.cover is not None and shooting.cover_applies(weapon.melee) and \
                usr.cover_save_allowed(has("ignores cover")):
            bulky = model.rule("bulky") is not None
            printed = shooting.cover_save(COVER_LEVEL[scenario.cover], monstrous or bulky)
            out.append(usr.cover_save_needed(printed, small_targets=model.rule("small targets") is not None,
                                             stealth=model.rule("stealth") is not None, sniper=has("sniper")))
        return sorted(s for s in out if s < NO_SAVE)

    # -- --explain in the game's terms ----------------------------------------------------------------------------

    @staticmethod
    def describe(step: Mapping[str, Any], chance: Callable[[Any], str]) -> str:
        """One weapon's step as a player reads it."""
        hit = step["to_hit"]
        lines = [f"{step['type']}: {step['attacks_per_model']} attack(s) per model, "
                 f"{float(step['expected_attacks']):.3g} in all",
                 "hits counted from where the marker or template fell (no to-hit roll)" if hit is None else
                 (f"to hit on {hit}+" if 2 <= hit <= 6 else f"to hit: needs {hit}+ (a 1 always misses)")
                 + f": P(hit) = {chance(step['p_hit'])}",
                 f"to wound on {step['to_wound']}+: P(wound per hit) = {chance(step['p_wound_per_hit'])}"
                 + (f", of which rending 6s {chance(step['p_rend_per_hit'])}" if step.get("p_rend_per_hit") else ""),
                 f"saves against {step['first_group']}, best first: {', '.join(step['saves']) or 'none'}; "
                 f"P(normal wound unsaved) = {chance(step['p_save_fails'])}"
                 + ("; overpower: -1 armour, 2 wounds, no Feel no Pain" if step["overpower"] else "")
                 + ("; instant death" if step["instant_death"] else "")
                 + (f"; Feel no Pain {step['feel_no_pain']}+ where allowed" if step["feel_no_pain"] else ""),
                 f"after this weapon: models destroyed ≈ {float(step['expected_models_destroyed_so_far']):.3f}, "
                 f"wounds lost ≈ {float(step['expected_wounds_lost_so_far']):.3f}"]
        return "\n".join(lines)


RULES = M41AttackRules()

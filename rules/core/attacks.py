"""The Core Rules' attack rules for the engine: chapters 04-06, 19.02 and the weapon abilities of chapter 24.

Every decision is a call of a tagged rule function; this module only puts them
in the order of the attack sequence (``rules.engine`` does the probability):

1. attack dice per model (04.03; [RAPID FIRE], [BLAST], [CLEAVE]: 24.30, 24.05, 24.06);
2. each attack's hit roll (05.01, or 10.07/15.09; [TORRENT], [SUSTAINED HITS], [LETHAL HITS]);
3. each hit's wound roll (05.02 against 19.02's toughness; [ANTI], [LANCE], [TWIN-LINKED], [DEVASTATING WOUNDS]);
4. save rolls resolved lowest first into the current allocation group (05.03-05.04, [PRECISION]), Feel No
   Pain per wound (24.12), excess damage lost with the model;
5. mortal wounds of critical wounds after the normal damage, each batch on one model at most (24.10, 06.02).
"""

from __future__ import annotations

from rules.core import attached_units, attack_sequence, core_abilities, monsters_and_vehicles, other_concepts
from rules.core import other_rules, shooting_phase, stratagems, terrain
from rules.core.attack_sequence import Hit, Save, Wound
from rules.core.datasheets import has_keyword
from rules.engine.attack_rules import AttackRules, WeaponPlan, one_attack
from rules.engine.exact import ONE, SIXTH, Dist, Q, add, as_dist, exact, rerolled
from rules.engine.target import Group, State


class CoreAttackRules(AttackRules):
    ruleset = "core"
    saves = "sorted"  # 05.04: "for each save roll, working from lowest result(s) to highest result(s)"
    mortal_wounds = "batch"  # 24.10: a critical wound's damage as mortal wounds, on one model at most

    # -- the target (05.03, 19.02, 06.02) ------------------------------------------------------------

    def groups(self, scenario) -> tuple[Group, ...]:
        """05.03's allocation groups: one per CHARACTER model, one per W/Sv/InSv for the others."""
        groups: list[Group] = []
        keys: dict = {}
        index = 0
        for spec in scenario.models:
            for copy in range(spec.count if spec.character else 1):
                key = attack_sequence.group_key(spec.character, index, spec.W, spec.Sv, spec.InSv)
                index += 1
                name = spec.name if not spec.character or spec.count == 1 else f"{spec.name} {copy + 1}"
                count = 1 if spec.character else spec.count
                if key in keys:
                    old = groups[keys[key]]
                    if (old.FNP, old.T, old.role) != (spec.FNP, spec.T, spec.role):
                        raise ValueError(f"models {old.name!r} and {spec.name!r} share an allocation group "
                                         "(same W, Sv and InSv) but differ in FNP, T or role; the calculator "
                                         "cannot tell which model of the group takes each attack")
                    groups[keys[key]] = Group(old.name, old.count + count, old.W, old.T, old.Sv, old.InSv, old.FNP,
                                              old.character, old.role)
                else:
                    keys[key] = len(groups)
                    groups.append(Group(name, count, spec.W, spec.T, spec.Sv, spec.InSv, spec.FNP, spec.character,
                                        spec.role))
        return tuple(groups)

    def toughness(self, groups: tuple[Group, ...], state: State) -> int:
        """19.02: the highest T among the bodyguard models left, else among the leader/support models."""
        bodyguard = [g.T for g, (alive, _) in zip(groups, state) if alive and g.role == "bodyguard"]
        leaders = [g.T for g, (alive, _) in zip(groups, state) if alive and g.role != "bodyguard"]
        return attached_units.attached_unit_toughness(bodyguard, leaders)

    def allocation_order(self, groups: tuple[Group, ...], state: State, choices) -> tuple[int, ...]:
        """05.03 at the start of a save step: the defender's order if legal, else listed order within the rules."""
        marked = [attack_sequence.Group(g.name, g.character, top < g.W and alive > 0)
                  for g, (alive, top) in zip(groups, state)]
        chosen = choices.allocation_order
        if chosen:
            rank = {name: i for i, name in enumerate(chosen)}
            proposal = sorted(range(len(marked)), key=lambda i: (rank.get(groups[i].name, len(rank)), i))
            if attack_sequence.allocation_order_is_legal([marked[i] for i in proposal]):
                return tuple(proposal)
        ordered = attack_sequence.default_allocation_order(marked)
        return tuple(marked.index(g) for g in ordered)

    def precision_group(self, groups: tuple[Group, ...], state: State, plan: WeaponPlan, choices) -> int | None:
        """24.29 [PRECISION]: a visible CHARACTER group chosen as the current group while it lasts."""
        if not plan.precision:
            return None
        visible = [g for g, group in enumerate(groups) if group.character and state[g][0] > 0]
        return core_abilities.precision_current_group(visible)

    def mortal_target(self, groups: tuple[Group, ...], state: State) -> int | None:
        """06.02: the group of the model the next mortal wound must go to (first listed on a free choice)."""
        alive = [(g, group, state[g]) for g, group in enumerate(groups) if state[g][0] > 0]
        if not alive:
            return None
        kind = other_concepts.mortal_wound_model(
            any(not group.character and top < group.W for _, group, (_, top) in alive),
            any(not group.character for _, group, _ in alive),
            any(group.character and top < group.W for _, group, (_, top) in alive),
            any(group.character for _, group, _ in alive))
        wanted_character = kind in (other_concepts.MortalWoundTarget.WOUNDED_CHARACTER,
                                    other_concepts.MortalWoundTarget.CHARACTER)
        wanted_wounded = kind in (other_concepts.MortalWoundTarget.WOUNDED_NON_CHARACTER,
                                  other_concepts.MortalWoundTarget.WOUNDED_CHARACTER)
        for g, group, (_, top) in alive:
            if group.character == wanted_character and (top < group.W or not wanted_wounded):
                return g
        return None

    def failing_faces(self, group: Group, plan: WeaponPlan) -> int:
        """05.04's save check: the faces of a save roll that inflict damage, which are the lowest ones."""
        failing = [face for face in range(1, 7) if _inflicts(face, plan.weapon.AP, group.Sv, group.InSv or 0)]
        if failing != list(range(1, len(failing) + 1)):
            raise AssertionError(f"save roll failures for {group.name} are not the lowest faces: {failing}")
        return len(failing)

    def wound_lost(self, group: Group):
        """24.12: the chance a wound the model would lose is lost, against its Feel No Pain."""
        return exact(core_abilities.chance_wound_is_lost(group.FNP))

    # -- one weapon entry: attack dice, hit and wound rolls -----------------------------------------------

    def plan(self, scenario, weapon, toughness: int, groups: tuple[Group, ...]) -> WeaponPlan:
        ctx, choices = scenario.context, scenario.choices
        keywords = scenario.target_keywords
        abilities = core_abilities.effective_abilities(weapon.abilities, keywords)
        has = abilities.__contains__
        ranged = not weapon.melee
        models_in_target = sum(g.count for g in groups)

        # Attack dice (04.03 with [RAPID FIRE], [BLAST], [CLEAVE]).
        extra = 0
        if has("RAPID FIRE") and ranged:
            extra += core_abilities.rapid_fire_extra_attacks(abilities["RAPID FIRE"].value, ctx.target_within_half_range)
        if has("BLAST"):
            extra += core_abilities.blast_extra_attacks(models_in_target, abilities["BLAST"].value)
        if has("CLEAVE") and weapon.melee:
            extra += core_abilities.cleave_extra_attacks(models_in_target, abilities["CLEAVE"].value, True)
        per_model = {a + extra: p for a, p in as_dist(weapon.A).items()}

        # Hit roll (05.01, with 13.08, 22.05, 24.16, 17.03, 10.06, 24.29 modifiers).
        indirect = ranged and has("INDIRECT FIRE") and ctx.shooting_type == "indirect"
        stealth = "STEALTH" in scenario.target_abilities and core_abilities.stealth_gives_cover(True, ranged)
        cover = ranged and core_abilities.cover_applies(
            ctx.target_has_benefit_of_cover or stealth or shooting_phase.indirect_target_has_cover(indirect),
            has("IGNORES COVER"))
        worsened = terrain.cover_skill_penalty(cover)
        improved = other_rules.plunging_fire_skill_bonus(ranged and ctx.plunging_fire)
        modifier = ctx.hit_modifier
        if ranged and has("HEAVY"):
            modifier += core_abilities.heavy_hit_modifier(ctx.own_shooting_phase, not ctx.attacker_engaged,
                                                          ctx.attacker_set_up_this_turn, ctx.attacker_moved_inches)
        if ranged:
            modifier += monsters_and_vehicles.engaged_monster_vehicle_hit_modifier(
                ctx.target_engaged and has_keyword(keywords, "MONSTER/VEHICLE"), has("CLOSE-QUARTERS"),
                ctx.attacker_engaged)
        if ranged and ctx.shooting_type == "close-quarters":
            modifier += shooting_phase.close_quarters_hit_modifier(ctx.attacker_monster_or_vehicle,
                                                                   has("CLOSE-QUARTERS"), ctx.target_engaged)
        skill_change = worsened - improved
        if has("PSYCHIC"):
            skill_change, modifier = core_abilities.psychic_modifiers(skill_change, modifier,
                                                                      choices.psychic_ignores == "harmful")
        modifier = attack_sequence.capped_roll_modifier(modifier)
        skill = attack_sequence.modified_skill(weapon.skill, max(skill_change, 0), max(-skill_change, 0))

        hit: Dist = {}
        for roll in range(1, 7):
            if core_abilities.torrent_hits_automatically(has("TORRENT")):
                outcome = Hit.HIT
            elif ranged and ctx.shooting_type == "snap":
                outcome = stratagems.snap_hit_roll(roll)
            elif indirect:
                outcome = shooting_phase.indirect_hit_roll(roll, modifier, skill, ctx.indirect_stationary_and_spotted)
            else:
                outcome = attack_sequence.hit_roll(roll, modifier, skill)
            add(hit, Hit(outcome), SIXTH)

        # Wound roll (05.02 with 19.02 toughness, [LANCE], [ANTI], [TWIN-LINKED]).
        required = attack_sequence.wound_threshold(weapon.S, toughness)
        wound_modifier = ctx.wound_modifier
        if has("LANCE"):
            wound_modifier += core_abilities.lance_wound_modifier(ctx.attacker_charged)
        wound_modifier = attack_sequence.capped_roll_modifier(wound_modifier)
        critical = core_abilities.critical_wound_threshold(abilities.get("ANTI"), keywords)
        single: Dist = {}
        for roll in range(1, 7):
            add(single, Wound(attack_sequence.wound_roll(roll, wound_modifier, required, critical)), SIXTH)
        wound: Dist = dict(single)
        if has("TWIN-LINKED"):
            non_critical = choices.twin_linked == "non-critical"
            wound = rerolled(single, lambda first: core_abilities.twin_linked_rerolls(
                first == Wound.FAIL, non_critical, first == Wound.CRITICAL_WOUND))

        named = {Hit.FAIL: "fail", Hit.HIT: "hit", Hit.CRITICAL_HIT: "critical",
                 Wound.FAIL: "fail", Wound.WOUND: "wound", Wound.CRITICAL_WOUND: "critical"}
        per_attack = one_attack(
            {named[k]: p for k, p in hit.items()}, {named[k]: p for k, p in wound.items()},
            devastating=has("DEVASTATING WOUNDS"),
            lethal=lambda: core_abilities.lethal_hit_wounds_automatically(has("LETHAL HITS"),
                                                                          choices.lethal_hits == "auto-wound"),
            extra_hits=as_dist(abilities["SUSTAINED HITS"].value) if has("SUSTAINED HITS") else {0: ONE},
            hits_scored=lambda x: core_abilities.sustained_hits(True, x))

        damage = as_dist(weapon.D)
        if has("MELTA"):
            bonus = core_abilities.melta_damage_bonus(abilities["MELTA"].value, ctx.target_within_half_range)
            damage = {d + bonus: p for d, p in damage.items()}
        mortal_damage = {core_abilities.devastating_mortal_wounds(True, d): p for d, p in damage.items()}
        explain = {
            "skill": skill, "hit_modifier": modifier,
            "p_hit": hit.get(Hit.HIT, Q(0)) + hit.get(Hit.CRITICAL_HIT, Q(0)),
            "p_critical_hit": hit.get(Hit.CRITICAL_HIT, Q(0)),
            "wound_roll_needed": required, "wound_modifier": wound_modifier, "critical_wound_on": critical,
            "p_wound_per_hit": wound.get(Wound.WOUND, Q(0)) + wound.get(Wound.CRITICAL_WOUND, Q(0)),
            "hazard_rolls": core_abilities.hazard_rolls_after_attacking(weapon.count if has("HAZARDOUS") else 0),
        }
        return WeaponPlan(weapon, per_model, weapon.count, per_attack, damage, mortal_damage,
                          has("PRECISION") and choices.precision, explain)


    # -- one attack die, rolled (for the simulation that checks the engine) ----------------------------

    def roll_attack(self, rng, scenario, plan: WeaponPlan) -> tuple[int, int]:
        """Roll one attack's hit and wound dice with the rule functions: (wounds to save, mortal batches)."""
        weapon, ctx, choices = plan.weapon, scenario.context, scenario.choices
        abilities = core_abilities.effective_abilities(weapon.abilities, scenario.target_keywords)
        names = set(abilities)
        roll = rng.randint(1, 6)
        if core_abilities.torrent_hits_automatically("TORRENT" in names):
            hit = Hit.HIT
        elif not weapon.melee and ctx.shooting_type == "snap":
            hit = Hit(stratagems.snap_hit_roll(roll))
        elif not weapon.melee and ctx.shooting_type == "indirect" and "INDIRECT FIRE" in names:
            hit = Hit(shooting_phase.indirect_hit_roll(roll, plan.explain["hit_modifier"], plan.explain["skill"],
                                                       ctx.indirect_stationary_and_spotted))
        else:
            hit = Hit(attack_sequence.hit_roll(roll, plan.explain["hit_modifier"], plan.explain["skill"]))
        if hit == Hit.FAIL:
            return 0, 0
        hits, saves, batches = 1, 0, 0
        if hit == Hit.CRITICAL_HIT and "SUSTAINED HITS" in names:
            extra = abilities["SUSTAINED HITS"].value
            hits = core_abilities.sustained_hits(True, extra if isinstance(extra, int) else
                                                 sum(rng.randint(1, extra.sides) for _ in range(extra.count))
                                                 + extra.bonus)
        if hit == Hit.CRITICAL_HIT and core_abilities.lethal_hit_wounds_automatically(
                "LETHAL HITS" in names, choices.lethal_hits == "auto-wound"):
            saves, hits = 1, hits - 1
        for _ in range(hits):
            wound = self._wound(rng, plan, "TWIN-LINKED" in names, choices.twin_linked == "non-critical")
            if wound == Wound.CRITICAL_WOUND and "DEVASTATING WOUNDS" in names:
                batches += 1
            elif wound != Wound.FAIL:
                saves += 1
        return saves, batches

    @staticmethod
    def _wound(rng, plan: WeaponPlan, twin_linked: bool, non_critical: bool) -> Wound:
        def roll() -> Wound:
            return Wound(attack_sequence.wound_roll(rng.randint(1, 6), plan.explain["wound_modifier"],
                                                    plan.explain["wound_roll_needed"],
                                                    plan.explain["critical_wound_on"]))
        result = roll()
        if twin_linked and core_abilities.twin_linked_rerolls(result == Wound.FAIL, non_critical,
                                                              result == Wound.CRITICAL_WOUND):
            result = roll()
        return result


def _inflicts(roll: int, ap: int, sv: int, insv: int) -> bool:
    return attack_sequence.save_check(roll, ap, sv, insv) == Save.INFLICTS_DAMAGE


RULES = CoreAttackRules()

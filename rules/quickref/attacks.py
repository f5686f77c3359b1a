"""The quick-reference sheet's attack rules for the engine: its Shooting phase steps 3-6, the Benefit of Cover and
the Universal Special Rules that change an attack.

Every decision is a call of one of the sheet's tagged functions; where the sheet is silent and the calculator
still has to decide, the reading is recorded (``spec/quickref/annotations/interpretations``) and named here:

- hits: one D6 per attack against the BS/WS (``shooting/hit-roll``), an unmodified 6 a Critical Hit that always
  succeeds, a 1 always failing, modifiers never past -1 or +1 (``shooting/modifier-cap``): [HEAVY] +1 when the
  unit stays put, STEALTH -1 against ranged attacks, [INDIRECT FIRE] -1 at an unseen target, Big guns never
  tire -1; [TORRENT] hits automatically; Fire Overwatch hits on an unmodified 6 only;
- wounds: the Strength-vs-Toughness table (``shooting/wound-roll``), an unmodified 6 (or [ANTI-KEYWORD X+]'s X) a
  Critical Wound that always succeeds; [LANCE] +1 after charging; [TWIN-LINKED] re-rolls the player's choice of
  wound rolls; [LETHAL HITS] makes a Critical Hit wound without a roll (a normal wound, as the sheet gives no
  choice and calls it no Critical Wound); [SUSTAINED HITS X] X more hits; [DEVASTATING WOUNDS] turns a Critical
  Wound's damage into mortal wounds;
- each wound allocated to a model of the target, one at a time, to a model that has lost wounds first
  (``shooting/allocate-wounded-first``), never to the CHARACTER of an Attached unit unless [PRECISION] picks it
  (``usr/leader``, ``usr/precision-hits``), then saved on its own (``saves = "each"``): the defender chooses the
  Save or the Invulnerable Save before rolling (interpretation quickref-save-chosen-before-rolling), and so takes
  the one more likely to hold; the Benefit of Cover is +1 to the armour save against a ranged attack, not for a
  Save of 3+ or better against AP 0, and never more than +1;
- damage with [MELTA X], Feel No Pain per wound; mortal wounds after all normal damage, one wound each, going on
  to the next model (``mortal_wounds = "spill"``), to the models attacks may be allocated to.

The sheet gives no toughness for an Attached unit: the models attacks can be allocated to are the target, so the
highest T among them is used. It has no rule for an ability given twice, nor [CLEAVE], [PSYCHIC] or
[CLOSE-QUARTERS], no plunging fire and no close-quarters shooting: a scenario that needs one is refused with one
sentence.
"""

from __future__ import annotations

from rules.engine.attack_rules import AttackRules, WeaponPlan, one_attack
from rules.engine.exact import ONE, SIXTH, Dist, Q, add, as_dist, rerolled
from rules.engine.target import Group, State
from rules.quickref import abilities, shooting, stratagems
from rules.quickref.shooting import BigGunsSituation, Roll

#: The weapon abilities the sheet defines (its USR), as the scenario names them.
KNOWN = {"ANTI", "ASSAULT", "BLAST", "DEVASTATING WOUNDS", "EXTRA ATTACKS", "HAZARDOUS", "HEAVY", "IGNORES COVER",
         "INDIRECT FIRE", "LANCE", "LETHAL HITS", "MELTA", "ONE SHOT", "PISTOL", "PRECISION", "RAPID FIRE",
         "SUSTAINED HITS", "TORRENT", "TWIN-LINKED", "FEEL NO PAIN"}


class SheetCannot(ValueError):
    """A scenario the quick-reference sheet has no rule for; the message is one sentence."""


def _abilities(weapon, keywords) -> dict:
    """The weapon's abilities by name, refusing what the sheet does not define."""
    found: dict = {}
    for ability in weapon.abilities:
        if ability.name not in KNOWN:
            raise SheetCannot(f"{weapon.name}: the quick-reference sheet has no [{ability.name}]")
        if ability.only_against:
            raise SheetCannot(f"{weapon.name}: the quick-reference sheet has no abilities limited to some keywords "
                              f"({ability.text})")
        if ability.name in found:
            raise SheetCannot(f"{weapon.name}: the quick-reference sheet says nothing of an ability given twice "
                              f"([{ability.name}])")
        found[ability.name] = ability
    return found


def _attached(groups: tuple[Group, ...]) -> bool:
    return any(g.role != "bodyguard" for g in groups) and any(g.role == "bodyguard" for g in groups)


def _chance(test) -> Q:
    """The chance of a D6 result passing ``test``."""
    return sum((SIXTH for roll in range(1, 7) if test(roll)), Q(0))


class QuickrefAttackRules(AttackRules):
    ruleset = "quickref"
    saves = "each"  # "Player controlling the target allocates attacks one at a time"
    mortal_wounds = "spill"  # DEVASTATING WOUNDS: "convert the damage to Mortal Wounds"; each one a wound

    # -- the target ------------------------------------------------------------------------------------

    def groups(self, scenario) -> tuple[Group, ...]:
        """One group per model entry of the target: the player allocates to any model, wounded ones first."""
        return tuple(Group(m.name, m.count, m.W, m.T, m.Sv, m.InSv, m.FNP, m.character, m.role)
                     for m in scenario.models)

    def _allocatable(self, groups: tuple[Group, ...], g: int) -> bool:
        """LEADER: attacks are never allocated to the CHARACTER model of an Attached unit."""
        _, to_the_character = abilities.leader(0, 0)
        return bool(to_the_character) or not (groups[g].character and _attached(groups))

    def toughness(self, groups: tuple[Group, ...], state: State) -> int:
        """The highest T among the models left that attacks can be allocated to (the sheet names no other)."""
        tough = [g.T for i, (g, (alive, _)) in enumerate(zip(groups, state)) if alive and self._allocatable(groups, i)]
        return max(tough or [g.T for g, (alive, _) in zip(groups, state) if alive] or [groups[0].T])

    def allocation_order(self, groups: tuple[Group, ...], state: State, choices) -> tuple[int, ...]:
        """The defender's order (choices.allocation_order, else the listed one), a model that has lost wounds first,
        CHARACTERs of an Attached unit left out."""
        return self._order(groups, state, choices.allocation_order)

    def _order(self, groups: tuple[Group, ...], state: State, chosen) -> tuple[int, ...]:
        rank = {name: i for i, name in enumerate(chosen)}
        listed = sorted(range(len(groups)), key=lambda i: (rank.get(groups[i].name, len(rank)), i))
        wounded = [i for i in listed if shooting.must_allocate_to(state[i][1] < groups[i].W, False)
                   and state[i][0] > 0]
        return tuple(i for i in wounded + [i for i in listed if i not in wounded] if self._allocatable(groups, i))

    def precision_group(self, groups: tuple[Group, ...], state: State, plan: WeaponPlan, choices) -> int | None:
        """PRECISION HITS: the attacker may allocate to a visible CHARACTER model (the first one left, on a choice)."""
        for g, group in enumerate(groups):
            if group.character and state[g][0] > 0 and abilities.may_allocate_to_character(True, plan.precision):
                return g
        return None

    def mortal_target(self, groups: tuple[Group, ...], state: State) -> int | None:
        """Mortal wounds go where attacks are allocated: a wounded model first, never an Attached unit's CHARACTER."""
        for g in self._order(groups, state, ()):
            if state[g][0] > 0:
                return g
        return None

    def save_fails(self, group: Group, plan: WeaponPlan):
        """The chance a wound's saving throw fails: the better of the Save (with the Benefit of Cover's +1) and the
        Invulnerable Save, chosen before rolling."""
        ap, cover = plan.weapon.AP, plan.explain["cover"]
        bonus = shooting.cover_save_bonus(not plan.weapon.melee, 1 if cover else 0, group.Sv, ap)
        armour = _chance(lambda roll: shooting.save_fails(roll, ap, group.Sv, bonus))
        if group.InSv is None:
            return armour
        invulnerable = _chance(lambda roll: not shooting.invulnerable_save_holds(roll, ap, group.InSv))
        return min(armour, invulnerable)

    def wound_lost(self, group: Group):
        """FEEL NO PAIN X+: a wound is not lost on a D6 of X or more."""
        if group.FNP is None:
            return ONE
        return _chance(lambda roll: not abilities.wound_not_lost(roll, group.FNP))

    # -- one weapon entry ------------------------------------------------------------------------------------

    def plan(self, scenario, weapon, toughness: int, groups: tuple[Group, ...]) -> WeaponPlan:
        ctx, choices = scenario.context, scenario.choices
        if ctx.plunging_fire:
            raise SheetCannot("the quick-reference sheet has no plunging fire (context.plunging_fire)")
        if ctx.shooting_type == "close-quarters":
            raise SheetCannot("the quick-reference sheet has no close-quarters shooting (context.shooting_type)")
        has_ability = _abilities(weapon, scenario.target_keywords)
        has = has_ability.__contains__
        ranged = not weapon.melee
        models_in_target = sum(g.count for g in groups)

        # Attack dice: A, [RAPID FIRE X] at half range, [BLAST] per five models.
        extra = 0
        if has("RAPID FIRE") and ranged:
            extra += abilities.rapid_fire_extra_attacks(has_ability["RAPID FIRE"].value, ctx.target_within_half_range)
        if has("BLAST"):
            more, may_fire = abilities.blast(models_in_target, ctx.target_engaged)
            if not may_fire:
                raise SheetCannot(f"{weapon.name}: a [BLAST] weapon can't be fired at a unit in Engagement Range "
                                  "(context.target_engaged)")
            extra += more
        per_model = {a + extra: p for a, p in as_dist(weapon.A).items()}

        # Hit roll.
        unseen = ranged and has("INDIRECT FIRE") and ctx.shooting_type == "indirect"
        modifier = ctx.hit_modifier + abilities.indirect_fire_hit_modifier(not unseen)
        if ranged and has("HEAVY"):
            modifier += abilities.heavy_hit_modifier(ctx.attacker_moved_inches, ctx.attacker_set_up_this_turn,
                                                     ctx.attacker_engaged)
        if ranged:
            situation = (BigGunsSituation.ENGAGED_SHOOTER_AT_ITS_FOE if ctx.attacker_engaged and
                         ctx.attacker_monster_or_vehicle else
                         BigGunsSituation.AT_ENGAGED_MONSTER if ctx.target_engaged and
                         any(k in ("MONSTER", "VEHICLE") for k in scenario.target_keywords) else 0)
            modifier += shooting.big_guns_hit_modifier(situation, has("PISTOL"))
        stealth = ranged and "STEALTH" in scenario.target_abilities
        hit: Dist = {}
        for roll in range(1, 7):
            critical = bool(shooting.critical(roll))
            if abilities.hits_automatically(has("TORRENT")):
                outcome = "hit"
            elif ranged and ctx.shooting_type == "snap":
                outcome = "critical" if stratagems.overwatch_hits(roll, weapon.skill, modifier) else "fail"
            else:
                hits = (abilities.stealth_hit(roll, weapon.skill, modifier) if stealth
                        else shooting.roll_succeeds(Roll.HIT, roll, modifier, weapon.skill))
                outcome = "fail" if not hits else "critical" if critical else "hit"
            add(hit, outcome, SIXTH)

        # Wound roll.
        needed = shooting.wound_roll_needed(weapon.S, toughness)
        wound_modifier = ctx.wound_modifier
        if has("LANCE"):
            wound_modifier += abilities.lance_wound_modifier(ctx.attacker_charged)
        anti = has_ability.get("ANTI")
        single: Dist = {}
        for roll in range(1, 7):
            if anti is not None:
                critical = abilities.anti_critical_wound(roll, anti.value, anti.keyword in scenario.target_keywords)
            else:
                critical = shooting.critical(roll)
            if critical:
                add(single, "critical", SIXTH)
            elif shooting.roll_succeeds(Roll.WOUND, roll, wound_modifier, needed):
                add(single, "wound", SIXTH)
            else:
                add(single, "fail", SIXTH)
        wound: Dist = dict(single)
        if has("TWIN-LINKED"):
            non_critical = choices.twin_linked == "non-critical"
            wound = rerolled(single, lambda first: abilities.may_reroll_wound(first == "fail") and (
                first == "fail" or (non_critical and first == "wound")))

        per_attack = one_attack(
            hit, wound, devastating=has("DEVASTATING WOUNDS"),
            lethal=lambda: has("LETHAL HITS") and abilities.wounds_automatically(True, False),
            extra_hits=as_dist(has_ability["SUSTAINED HITS"].value) if has("SUSTAINED HITS") else {0: ONE},
            hits_scored=lambda x: abilities.sustained_hits(True, x))

        damage = as_dist(weapon.D)
        if has("MELTA"):
            bonus = abilities.melta_damage_bonus(has_ability["MELTA"].value, ctx.target_within_half_range)
            damage = {d + bonus: p for d, p in damage.items()}
        mortal = {abilities.devastating_mortal_wounds(True, d): p for d, p in damage.items()}
        cover = ranged and bool(abilities.cover_applies(ctx.target_has_benefit_of_cover or unseen,
                                                        has("IGNORES COVER")))
        shown = modifier + (abilities.STEALTH_PENALTY if stealth else 0)
        explain = {"skill": weapon.skill, "hit_modifier": int(shooting.capped_modifier(shown)),
                   "p_hit": hit.get("hit", Q(0)) + hit.get("critical", Q(0)), "p_critical_hit": hit.get("critical", Q(0)),
                   "wound_roll_needed": needed, "wound_modifier": int(shooting.capped_modifier(wound_modifier)),
                   "critical_wound_on": anti.value if anti is not None and anti.keyword in scenario.target_keywords
                   else 6,
                   "p_wound_per_hit": wound.get("wound", Q(0)) + wound.get("critical", Q(0)),
                   "hazard_rolls": weapon.count if has("HAZARDOUS") else 0, "cover": cover}
        return WeaponPlan(weapon, per_model, weapon.count, per_attack, damage, mortal,
                          has("PRECISION") and choices.precision, explain)


RULES = QuickrefAttackRules()

"""The earlier edition's attack rules for the engine: its Shooting phase and Making Attacks, as 002 reprints them.

Every decision is a call of one of the edition's tagged functions (``rules.ninth.shooting`` and
``rules.ninth.making_attacks``); this module only puts them in the order of the attack sequence:

- attacks: the number after the weapon's type (A in the scenario), doubled by Rapid Fire at half range, Blast's
  minimum of 3 against 6-10 models and maximum against 11 or more on the number rolled (interpretation
  ninth-blast-before-rapid-fire); a Grenade is thrown by one model;
- hits: one D6 per attack against the BS (the WS for Melee), an unmodified 6 hits and a 1 fails, the modifier
  capped at -1/+1: Assault -1 after Advancing, Heavy -1 for moving INFANTRY, Big Guns Never Tire -1 for an engaged
  VEHICLE or MONSTER with a Heavy weapon; Overwatch (shooting_type "snap") hits on an unmodified 6 only;
- wounds: the Strength against Toughness table, an unmodified 6 wounds and a 1 fails, the modifier capped;
- each wound allocated to a model, the same one until it is destroyed, as it has had an attack allocated this phase
  (``saves = "each"``), saved on its own with the AP or with the invulnerable save, the better one chosen
  before rolling (interpretation ninth-save-chosen-before-rolling); damage with the excess lost, a wound ignored
  on the model's FNP X+ (one rule per wound);
- mortal wounds one wound at a time with the excess carried to the next model (``mortal_wounds = "spill"``); no
  weapon the calculator reads inflicts them under this edition.

The Basic Rules know one weapon ability, Blast, and no unit whose models differ in Toughness, no attached unit,
no cover rules of their own in these chapters, no plunging fire or indirect fire: a scenario that needs one is
refused with one sentence naming it.
"""

from __future__ import annotations

from rules.engine.attack_rules import AttackRules, WeaponPlan
from rules.engine.exact import ONE, SIXTH, Dist, Q, add, as_dist
from rules.engine.target import Group, State
from rules.ninth import making_attacks, overwatch, shooting

#: The weapon abilities the Basic Rules define, as the scenario names them.
KNOWN = {"BLAST"}
RANGED_TYPES = ("ASSAULT", "HEAVY", "RAPID FIRE", "GRENADE", "PISTOL")


class EditionCannot(ValueError):
    """A scenario the earlier edition's Basic Rules have no rule for; the message is one sentence."""


def _abilities(weapon) -> set:
    """The weapon's abilities by name, refusing what the edition does not define."""
    found: set = set()
    for ability in weapon.abilities:
        if ability.name not in KNOWN:
            raise EditionCannot(f"{weapon.name}: the earlier edition's Basic Rules have no [{ability.name}] "
                                "(the only weapon ability they define is Blast)")
        if ability.only_against or " ".join(ability.text.strip(" []").upper().split()) != ability.name:
            raise EditionCannot(f"{weapon.name}: the earlier edition's Blast takes no number or keywords "
                                f"({ability.text})")
        found.add(ability.name)
    return found


def _faces(test) -> int:
    """How many faces of a D6 pass ``test``."""
    return sum(1 for roll in range(1, 7) if test(roll))


def _chance(test) -> Q:
    """The chance of a D6 result passing ``test``."""
    return _faces(test) * SIXTH


class NinthAttackRules(AttackRules):
    ruleset = "ninth"
    saves = "each"  # "allocates that attack to one model ... then makes one saving throw"
    # Excess mortal wound damage is not lost (making_attacks.damage_carried_to_next_model); no weapon the
    # calculator reads inflicts mortal wounds under this edition, so the engine never asks for a mortal_target.
    mortal_wounds = "spill"
    weapon_types = True

    # -- the target ----------------------------------------------------------------------------------------

    def groups(self, scenario) -> tuple[Group, ...]:
        """One group per model entry of the target; the rules name no attached unit."""
        for i, m in enumerate(scenario.models):
            if m.role != "bodyguard":
                raise EditionCannot(f"target.models[{i}].role: the earlier edition's Basic Rules have no attached "
                                    f"units ({m.role})")
        if len({m.T for m in scenario.models}) > 1:
            raise EditionCannot("target.models differ in T, and the earlier edition's Basic Rules give a wound roll "
                                "only against the target's one Toughness")
        return tuple(Group(m.name, m.count, m.W, m.T, m.Sv, m.InSv, m.FNP, m.character, m.role)
                     for m in scenario.models)

    def toughness(self, groups: tuple[Group, ...], state: State) -> int:
        """The target's Toughness (every model has the same, or the scenario was refused)."""
        return groups[0].T

    def allocation_order(self, groups: tuple[Group, ...], state: State, choices) -> tuple[int, ...]:
        """The defender's order (choices.allocation_order, else the listed one), which never changes: the engine
        allocates each wound to the current model of the first group left, so once a model has had an attack
        allocated (saved or not) every later one goes to it until it is destroyed, as Allocate Attack requires
        (making_attacks.must_allocate_to; the example calc-wounded-model-takes-next-wound checks it)."""
        rank = {name: i for i, name in enumerate(choices.allocation_order)}
        return tuple(sorted(range(len(groups)), key=lambda i: (rank.get(groups[i].name, len(rank)), i)))

    def save_fails(self, group: Group, plan: WeaponPlan):
        """The chance one wound's saving throw fails: the Sv with the AP, or the invulnerable save without it, the
        one failing on fewer faces."""
        ap = plan.weapon.AP
        armour = _faces(lambda roll: not making_attacks.armour_save_holds(roll, ap, group.Sv))
        if group.InSv is None:
            return armour * SIXTH
        invulnerable = _faces(lambda roll: not making_attacks.invulnerable_save_holds(roll, ap, group.InSv))
        return making_attacks.failing_faces_of_the_save_used(armour, invulnerable) * SIXTH

    def wound_lost(self, group: Group):
        """A rule ignoring wounds on X+ (the scenario's FNP, one per model: making_attacks.ignore_rules_used): one
        roll per wound, the wound lost below X."""
        if group.FNP is None:
            return ONE
        return _chance(lambda roll: not making_attacks.wound_ignored(roll, group.FNP))

    # -- one weapon entry -----------------------------------------------------------------------------------

    def plan(self, scenario, weapon, toughness: int, groups: tuple[Group, ...]) -> WeaponPlan:
        ctx = scenario.context
        if ctx.plunging_fire or ctx.shooting_type in ("indirect", "close-quarters"):
            raise EditionCannot("the earlier edition's Basic Rules have no plunging fire, indirect or close-quarters "
                                "shooting (context)")
        if ctx.target_has_benefit_of_cover:
            raise EditionCannot("the calculator does not read the earlier edition's cover (its terrain rules are "
                                "not in its Shooting phase or Making Attacks): context.target_has_benefit_of_cover")
        for ability in scenario.target_abilities:
            raise EditionCannot(f"the earlier edition's Basic Rules have no target ability {ability}")
        if weapon.type is None:
            raise EditionCannot(f"{weapon.name}: a weapon under the earlier edition has a type (Assault, Heavy, "
                                "Rapid Fire, Grenade, Pistol or Melee); give it as type")
        has = _abilities(weapon).__contains__
        kind = weapon.type
        ranged = kind in RANGED_TYPES
        models_in_target = sum(g.count for g in groups)
        if ranged:
            self._may_shoot(scenario, weapon, has("BLAST"))
        elif has("BLAST") and not shooting.blast_may_attack(True):
            raise EditionCannot(f"{weapon.name}: a Blast weapon never attacks a unit within Engagement Range of the "
                                "firing unit, where a Melee weapon's target always is")

        # Attacks: the number after the type (A), Blast on the number rolled, then Rapid Fire's doubling.
        per_model: Dist = {}
        maximum = weapon.A.maximum
        for rolled, p in as_dist(weapon.A).items():
            attacks = shooting.attacks_of_weapon(rolled) if ranged else rolled
            if has("BLAST"):
                attacks = shooting.blast_attacks(attacks, maximum, models_in_target)
            if kind == "RAPID FIRE":
                attacks = shooting.rapid_fire_attacks(attacks, ctx.target_within_half_range)
            add(per_model, attacks, p)

        # Hit roll.
        modifier = ctx.hit_modifier
        if ranged:
            modifier += shooting.assault_hit_modifier(kind == "ASSAULT", ctx.shooting_type == "assault")
            moved = ctx.attacker_moved_inches > 0 or ctx.attacker_set_up_this_turn
            modifier += shooting.heavy_hit_modifier(kind == "HEAVY", ctx.attacker_infantry, moved)
            modifier += shooting.big_guns_hit_modifier(ctx.attacker_monster_or_vehicle, kind == "HEAVY",
                                                       ctx.attacker_engaged)
        snap = ranged and ctx.shooting_type == "snap"
        p_hit = _chance(lambda roll: overwatch.overwatch_hits(roll, weapon.skill, modifier) if snap
                        else making_attacks.hit_scored(roll, modifier, weapon.skill))

        # Wound roll; no critical hits or wounds, so an attack is one wound to save or nothing.
        p_wound = _chance(lambda roll: making_attacks.wound_scored(roll, ctx.wound_modifier, weapon.S, toughness))
        per_attack = {(1, 0): p_hit * p_wound, (0, 0): ONE - p_hit * p_wound}
        damage = as_dist(weapon.D)
        explain = {"type": kind, "skill": weapon.skill,
                   "hit_modifier": int(making_attacks.capped_roll_modifier(modifier)), "p_hit": p_hit,
                   "wound_roll_needed": making_attacks.wound_roll_needed(weapon.S, toughness),
                   "wound_modifier": int(making_attacks.capped_roll_modifier(ctx.wound_modifier)),
                   "p_wound_per_hit": p_wound}
        return WeaponPlan(weapon, per_model, weapon.count, per_attack, damage, {}, False, explain)

    @staticmethod
    def _may_shoot(scenario, weapon, blast: bool) -> None:
        """Refuse a ranged weapon the Shooting phase does not let the unit fire at this target."""
        ctx, kind = scenario.context, weapon.type
        if ctx.shooting_type == "assault" and not shooting.weapon_may_shoot_after_advancing(kind == "ASSAULT"):
            raise EditionCannot(f"{weapon.name}: a unit that Advanced shoots only Assault weapons "
                                "(context.shooting_type assault)")
        if not shooting.may_make_ranged_attacks(ctx.attacker_engaged, ctx.attacker_monster_or_vehicle,
                                                kind == "PISTOL"):
            raise EditionCannot(f"{weapon.name}: a unit within Engagement Range of enemy units shoots only Pistols "
                                "or with a VEHICLE or MONSTER (context.attacker_engaged)")
        # An engaged shooter resolves attacks only against a unit it is engaged with (the target, then).
        if not shooting.may_target_engaged_unit(ctx.target_engaged, ctx.attacker_engaged, ctx.attacker_engaged,
                                                ctx.attacker_monster_or_vehicle, kind == "PISTOL"):
            raise EditionCannot(f"{weapon.name}: a unit cannot shoot at a target within Engagement Range of "
                                "friendly units (context.target_engaged)")
        if blast and not shooting.blast_may_attack(ctx.attacker_engaged):
            raise EditionCannot(f"{weapon.name}: a Blast weapon never attacks a unit within Engagement Range of "
                                "the firing unit (context.attacker_engaged)")
        if kind == "GRENADE" and not shooting.grenades_allowed(weapon.count):
            raise EditionCannot(f"{weapon.name}: only one model of a unit resolves attacks with a Grenade "
                                f"(count {weapon.count})")


RULES = NinthAttackRules()

"""Chapter 24, Core abilities: the weapon and core abilities that act while attacks are made.

``parse_ability`` reads an ability as printed ("ANTI-INFANTRY 4+",
"SUSTAINED HITS 1: INFANTRY/BEASTS"); the other functions each decide what one
ability does. The abilities that act outside attacks (Deadly Demise, Deep Strike,
Scouts, Super-heavy Walker, …) follow: predicates and tables over facts, with the
positions they need measured by ``rules.battlefield``.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Sequence

from rules import dice, messages
from rules.core.datasheets import has_keyword
from rules.logic import And, DecisionTable, If, Max, Min, Not, Or, Row, Var
from rules.battlefield import Battlefield, Body
from rules.model import PlacedUnit
from rules.registry import rule


class AbilityError(ValueError):
    """An ability string that is not one of the forms chapter 24 prints."""


#: Weapon and core abilities the attack calculator understands, with whether they carry a number.
NUMBERED = {"BLAST": "optional", "CLEAVE": "required", "MELTA": "required", "RAPID FIRE": "required",
            "SUSTAINED HITS": "required", "FEEL NO PAIN": "required"}
PLAIN = {"ASSAULT", "CLOSE-QUARTERS", "DEVASTATING WOUNDS", "EXTRA ATTACKS", "HAZARDOUS", "HEAVY",
         "IGNORES COVER", "INDIRECT FIRE", "LANCE", "LETHAL HITS", "ONE SHOT", "PISTOL", "PRECISION",
         "PSYCHIC", "TORRENT", "TWIN-LINKED", "STEALTH"}
#: Abilities parse_ability reads that belong to a unit or model, not to a weapon: "Weapon abilities are presented in
#: square brackets" (24.01), and chapter 24 prints these two without them (24.12, 24.33).
NOT_WEAPON_ABILITIES = frozenset({"FEEL NO PAIN", "STEALTH"})
#: Weapon abilities that only act when the weapon shoots, each by its own text: a unit with the weapon "can shoot
#: using" a shooting type (24.04, 24.07, 24.19; [PISTOL] is [CLOSE-QUARTERS], 24.27), it acts "In your Shooting
#: phase" (24.16), or it reads "half range", which only a ranged weapon has (24.25, 24.30).
RANGED_ONLY_ABILITIES = frozenset({"ASSAULT", "CLOSE-QUARTERS", "PISTOL", "INDIRECT FIRE", "HEAVY", "MELTA",
                                   "RAPID FIRE"})

# ASCII only: [0-9], not \d, which also reads "٣" and "３".
_FORM = re.compile(
    r"^\[?\s*(?P<name>ANTI-(?P<anti>[A-Z][A-Z -]*?)\s+(?P<anti_value>[0-9]+)\+|[A-Z][A-Z -]*?[A-Z])"
    r"(?:\s+(?P<value>D3|D6|[0-9]+(?:D[36])?)(?P<plus>\+)?)?"
    r"(?:\s*:\s*(?P<only>[A-Z][A-Z/ -]*))?\s*\]?$", re.ASCII)


@dataclass(frozen=True)
class Ability:
    """One printed ability: its name, number (or dice) if any, ANTI keyword, and target restriction."""

    name: str
    value: Any = None
    keyword: str = ""
    only_against: tuple[str, ...] = ()
    text: str = ""


@rule("24.01")
def parse_ability(text: str) -> Ability:
    """Read an ability as printed in square brackets; a trailing ': KEYWORD' limits whom it affects."""
    shown = messages.shown(text)
    words = " ".join(text.split())
    match = _FORM.match(words.upper()) if words.isascii() else None  # before upper(), which folds "ı" to "I"
    if not match:
        raise AbilityError(f"{shown} is not an ability form of chapter 24")
    if len(match.group("anti_value") or match.group("value") or "") > 9:  # and int() refuses thousands of digits
        raise AbilityError(f"{shown}: its number is too large for any ability")
    only = tuple(k.strip() for k in match.group("only").split("/")) if match.group("only") else ()
    if match.group("anti"):
        threshold = int(match.group("anti_value"))
        if not 2 <= threshold <= 6:  # a D6 wound roll: 1 always fails (05.02), 7+ never comes up
            raise AbilityError(f"{shown}: ANTI-KEYWORD X+ takes X from 2 to 6, not {threshold}")
        return Ability("ANTI", threshold, match.group("anti").strip(), only, text)
    name = match.group("name").strip()
    value = match.group("value")
    number = value is not None and "D" not in value  # the regex's other forms all roll dice
    if name == "FEEL NO PAIN":
        if not (number and match.group("plus") and 2 <= int(value) <= 6):
            raise AbilityError(f"{shown}: Feel No Pain takes the form 'FEEL NO PAIN X+' with X from 2 to 6")
        return Ability(name, int(value), "", only, text)
    if name in PLAIN:
        if value:
            raise AbilityError(f"{shown}: {name} takes no number")
        return Ability(name, None, "", only, text)
    if name not in NUMBERED:
        raise AbilityError(f"{shown} is not a weapon or core ability the Core Rules define")
    if match.group("plus"):  # only Feel No Pain and ANTI print an X+
        raise AbilityError(f"{shown}: {name} takes the form [{name} X], without '+'")
    if value is None:
        if NUMBERED[name] == "required":
            raise AbilityError(f"{shown}: {name} always takes the form [{name} X]")
        return Ability(name, 1, "", only, text)
    return Ability(name, int(value) if number else dice.parse(value), "", only, text)


@rule("24.01")
def ability_applies(ability: Ability, target_keywords: Sequence[str]) -> bool:
    """An ability followed by keywords only applies if the target unit has one of them."""
    return not ability.only_against or has_keyword(target_keywords, "/".join(ability.only_against))


def _strength(ability: Ability) -> Fraction:
    value = ability.value
    if isinstance(value, dice.DiceExpression):
        return dice.expected(dice.distribution(value))
    return Fraction(value or 0)


@rule("24.02")
def choose_instance(instances: Sequence[Ability]) -> Ability | None:
    """Duplicated abilities are not cumulative: one instance applies, chosen by the controlling player.

    Default choice (documented in the calculator): the strongest instance, i.e. the
    highest number, or for ANTI the lowest critical threshold.
    """
    if not instances:
        return None
    if instances[0].name == "ANTI":
        return min(instances, key=lambda a: a.value)
    return max(instances, key=_strength)


@rule("24.02")
def effective_abilities(abilities: Iterable[Ability], target_keywords: Sequence[str]) -> dict[str, Ability]:
    """The one applying instance of each ability against this target (24.01 restriction, then 24.02)."""
    grouped: dict[str, list[Ability]] = {}
    for ability in abilities:
        name = "CLOSE-QUARTERS" if ability.name == "PISTOL" else ability.name
        if ability_applies(ability, target_keywords):
            grouped.setdefault(name, []).append(ability)
    if "ANTI" in grouped:
        # Only an [ANTI-X] whose X the target has can change anything, so choose among those.
        matching = [a for a in grouped["ANTI"] if has_keyword(target_keywords, a.keyword)]
        grouped["ANTI"] = matching or grouped["ANTI"]
    return {name: choose_instance(items) for name, items in sorted(grouped.items())}


@rule("24.03")
def critical_wound_threshold(anti: Ability | None, target_keywords: Sequence[str]) -> int:
    """[ANTI-X Y+]: against a unit with keyword X, an unmodified wound roll of Y+ is a critical wound."""
    if anti is not None and has_keyword(target_keywords, anti.keyword):
        return min(anti.value, 6)
    return 6


@rule("24.04")
def may_shoot_after_advancing(has_assault_weapon: Any) -> Any:
    """A unit with an [ASSAULT] weapon can use assault shooting (10.05) after advancing."""
    return has_assault_weapon


@rule("24.05")
def blast_extra_attacks(models_in_target: Any, per_five: Any = 1) -> Any:
    """[BLAST X]: X more attack dice for every five models in the target (rounding down)."""
    return per_five * _fives(models_in_target)


def _fives(models: Any) -> Any:
    """How many whole fives of models: floor division, which z3's integer ``/`` also is for a
    non-negative count (so both backends agree for any unit size)."""
    if isinstance(models, int):
        return models // 5
    return models / 5


@rule("24.06")
def cleave_extra_attacks(models_in_target: Any, per_five: Any, single_target: Any) -> Any:
    """[CLEAVE X]: X more attack dice per five models in the target, only if the weapon has one target."""
    return If(single_target, per_five * _fives(models_in_target), 0)


@rule("24.07", "24.27")
def close_quarters_selection_is_legal(selected_close_quarters: Any, selected_other_ranged: Any,
                                      monster_or_vehicle: Any, close_quarters_shooting: Any) -> Any:
    """With another shooting type, a non-MONSTER/VEHICLE model picks [CLOSE-QUARTERS] weapons or others, not both.

    [PISTOL] is the same ability (24.27).
    """
    return Or(monster_or_vehicle, close_quarters_shooting, Not(And(selected_close_quarters, selected_other_ranged)))


@rule("24.10")
def devastating_mortal_wounds(critical_wound: Any, damage: Any) -> Any:
    """A critical wound from a [DEVASTATING WOUNDS] weapon ends the sequence and inflicts D mortal wounds."""
    return If(critical_wound, damage, 0)


@rule("24.10")
def devastating_wounds_models_damaged(critical_wounds: Any) -> Any:
    """Those mortal wounds can damage at most one model per critical wound; the rest are lost."""
    return critical_wounds


@rule("24.11")
def extra_attacks_selection_is_legal(extra_weapons: int, extra_selected: int, other_melee: int,
                                     other_selected: int) -> bool:
    """A model fights with all its [EXTRA ATTACKS] weapons plus one other melee weapon if it has one."""
    return extra_selected == extra_weapons and other_selected == (1 if other_melee else 0)


@rule("24.12")
def wound_is_lost(roll: Any, feel_no_pain: Any) -> Any:
    """Feel No Pain X+: each wound the model would lose is not lost on a roll of X or more."""
    return roll < feel_no_pain


@rule("24.12")
def chance_wound_is_lost(feel_no_pain: int | None) -> Fraction:
    """The exact chance one wound is lost against Feel No Pain X+ (1 without the ability)."""
    if feel_no_pain is None:
        return Fraction(1)
    return dice.probability(dice.d6(), lambda roll: wound_is_lost(roll, feel_no_pain))


@rule("24.15")
def hazard_rolls_after_attacking(hazardous_weapons_selected: Any) -> Any:
    """One hazard roll (06.03) per [HAZARDOUS] weapon selected, after the unit's attacks."""
    return hazardous_weapons_selected


@rule("24.16")
def heavy_hit_modifier(own_shooting_phase: Any, unengaged: Any, set_up_this_turn: Any, moved_inches: Any) -> Any:
    """[HEAVY]: +1 to hit in your Shooting phase if unengaged, not set up this turn, and no model moved over 3"."""
    return If(And(own_shooting_phase, unengaged, Not(set_up_this_turn), moved_inches <= 3), 1, 0)


@rule("24.18")
def cover_applies(target_has_cover: Any, ignores_cover: Any) -> Any:
    """[IGNORES COVER]: the target cannot have the benefit of cover against that attack, from any source."""
    return And(target_has_cover, Not(ignores_cover))


@rule("24.19")
def may_use_indirect_shooting(has_indirect_fire_weapon: Any) -> Any:
    """A unit with an [INDIRECT FIRE] weapon can use indirect shooting (10.07)."""
    return has_indirect_fire_weapon


@rule("24.21")
def lance_wound_modifier(charged_this_turn: Any) -> Any:
    """[LANCE]: +1 to the wound roll if the attacking model's unit made a charge move this turn."""
    return If(charged_this_turn, 1, 0)


@rule("24.23")
def lethal_hit_wounds_automatically(critical_hit: Any, choose_automatic: Any = True) -> Any:
    """[LETHAL HITS]: a critical hit can automatically wound; then no wound roll (so no critical wound) is made."""
    return And(critical_hit, choose_automatic)


@rule("24.25")
def melta_damage_bonus(per_melta: Any, within_half_range: Any) -> Any:
    """[MELTA X]: +X to the weapon's D if the target was within half range when selected."""
    return If(within_half_range, per_melta, 0)


@rule("24.26")
def may_select_one_shot(already_used_this_battle: Any) -> Any:
    """A [ONE SHOT] weapon can only be selected to make attacks once per battle."""
    return Not(already_used_this_battle)


@rule("24.28")
def precision_current_group(characters_visible: Sequence[int], choose: bool = True) -> int | None:
    """[PRECISION]: the attacker may make a visible CHARACTER group the current allocation group.

    Returns the chosen group index (default: the first visible one), or None.
    """
    return characters_visible[0] if characters_visible and choose else None


@rule("24.29")
def psychic_modifiers(skill_modifier: Any, hit_modifier: Any, ignore_harmful: Any = True) -> tuple[Any, Any]:
    """[PSYCHIC]: any or all modifiers to BS/WS and to the hit roll can be ignored.

    Default choice: ignore the harmful ones (a worse skill, a negative hit modifier).
    """
    return (If(And(ignore_harmful, skill_modifier > 0), 0, skill_modifier),
            If(And(ignore_harmful, hit_modifier < 0), 0, hit_modifier))


@rule("24.30")
def rapid_fire_extra_attacks(per_weapon: Any, within_half_range: Any) -> Any:
    """[RAPID FIRE X]: X more attack dice if the target was within half range when selected."""
    return If(within_half_range, per_weapon, 0)


@rule("24.33")
def stealth_gives_cover(every_model_has_stealth: Any, ranged_attack: Any) -> Any:
    """Stealth: if every model has it, the unit has the benefit of cover against ranged attacks."""
    return And(every_model_has_stealth, ranged_attack)


@rule("24.36")
def sustained_hits(critical_hit: Any, extra: Any) -> Any:
    """[SUSTAINED HITS X]: a critical hit scores X additional hits (so 1 + X hits in all)."""
    return If(critical_hit, 1 + extra, 0)


@rule("24.37")
def torrent_hits_automatically(has_torrent: Any) -> Any:
    """[TORRENT]: each attack automatically hits the target (no hit roll, so no critical hit)."""
    return has_torrent


@rule("24.38")
def twin_linked_rerolls(first_result_failed: Any, policy_all_non_critical: Any = False, critical: Any = False) -> Any:
    """[TWIN-LINKED]: the wound roll can be re-rolled; by default only a failed one is.

    With the policy "all non-critical", a successful non-critical wound is re-rolled too (fishing for criticals).
    """
    return Or(first_result_failed, And(policy_all_non_critical, Not(critical)))


# -- The core abilities that act outside attacks (over the battlefield and the game state) -------------------------

#: Deadly Demise hits each unit within this many inches of the destroyed model (24.08).
DEADLY_DEMISE_RANGE = 6
#: Deep Strike and Infiltrators set up more than this many inches horizontally from the enemy (24.09, 24.20).
SET_UP_ENEMY_DISTANCE = 8
#: A Lone Operative is not visible beyond this many inches unless its ability names another (24.24).
LONE_OPERATIVE_RANGE = 12
#: A scout move ends more than this many inches horizontally from all enemy units (24.32).
SCOUT_ENEMY_DISTANCE = 8
#: A Super-heavy Walker moves horizontally through terrain sections this high or lower (24.35).
WALKER_SECTION_HEIGHT = 4


# 24.08 Deadly Demise ----------------------------------------------------------------------------------------------


@rule("24.08")
def deadly_demise_triggers(roll: Any) -> Any:
    """When a model with Deadly Demise X is destroyed, one D6 is rolled: on a 6 it suffers a deadly demise."""
    return roll == 6


@rule("24.08")
def deadly_demise_sequence(embarked_units: Sequence[str] = (), unresolved_attacks: bool = True) -> list[str]:
    """The order of events when a model with Deadly Demise is destroyed: the attacking unit's remaining attacks,
    then each embarked unit's emergency disembark move, then the Deadly Demise roll (resolved on a 6), and only
    then is the model removed from the battlefield."""
    steps = ["resolve the attacking unit's unresolved attacks"] if unresolved_attacks else []
    steps += [f"{unit} makes an emergency disembark move" for unit in embarked_units]
    steps += ["roll one D6 for Deadly Demise; on a 6 each unit within 6\" suffers X mortal wounds",
              "remove the destroyed model from the battlefield"]
    return steps


@rule("24.08")
def deadly_demise_units(model: Body, units: Sequence[PlacedUnit]) -> list[str]:
    """The units a deadly demise hits: every unit (friend or foe, the model's own included) with a model within 6"
    of the destroyed model.

    Interpretation: deadly-demise-every-unit, plain-within-straight-line.
    """
    from rules import battlefield

    return [unit.name for unit in units
            if any(m is not model and battlefield.within(model, m, DEADLY_DEMISE_RANGE) for m in unit.models)]


@rule("24.08")
def deadly_demise_mortal_wounds(x: Any) -> dice.Distribution:
    """The exact distribution of the mortal wounds one unit within 6" suffers from a destroyed Deadly Demise X model:
    none unless the D6 is a 6; then X (a random X is rolled separately for each unit)."""
    six = dice.probability(dice.d6(), deadly_demise_triggers)
    out: dict[int, Fraction] = {0: 1 - six}
    for wounds, chance in dice.distribution(x).items():
        out[wounds] = out.get(wounds, Fraction(0)) + six * chance
    return dict(sorted(out.items()))


@rule("24.08")
def deadly_demise_total(x: Any, units: int) -> dice.Distribution:
    """The exact distribution of all the mortal wounds a deadly demise inflicts on ``units`` units within 6": one
    D6 for the model, then X rolled separately for each unit."""
    six = dice.probability(dice.d6(), deadly_demise_triggers)
    total: dice.Distribution = {0: Fraction(1)}
    for _ in range(units):
        total = dice.convolve(total, dice.distribution(x))
    out: dict[int, Fraction] = {0: 1 - six}
    for wounds, chance in total.items():
        out[wounds] = out.get(wounds, Fraction(0)) + six * chance
    return dict(sorted(out.items()))


# 24.09 Deep Strike ------------------------------------------------------------------------------------------------


@rule("24.09")
def deep_strike_position_allowed(every_model_has_deep_strike: Any, wholly_within_6_of_edges: Any,
                                 more_than_8_from_enemies: Any, in_opponents_deployment_zone: Any,
                                 battle_round: Any) -> Any:
    """Where a unit making an ingress move (20.04) may be set up: with Deep Strike on every model, anywhere more than
    8" horizontally from all enemy units, even in the opponent's deployment zone; otherwise as 20.04 says."""
    from rules.core import strategic_reserves as reserves

    return If(every_model_has_deep_strike,
              reserves.ingress_restrictions_met(more_than_8_from_enemies, in_opponents_deployment_zone, battle_round,
                                                True),
              reserves.ingress_position_allowed(wholly_within_6_of_edges, more_than_8_from_enemies,
                                                in_opponents_deployment_zone, battle_round))


@rule("24.09")
def deep_strike_set_up_on(battlefield: Battlefield, models: Sequence[Body], enemy_models: Sequence[Body]) -> bool:
    """Whether a Deep Strike unit may be set up with its models here: on the battlefield and more than 8"
    horizontally from every enemy model, wherever that is."""
    from rules import battlefield as geo
    from rules.core import moving

    on_table = all(moving.base_on_battlefield(m, battlefield.width, battlefield.depth) for m in models)
    return bool(deep_strike_position_allowed(True, False, on_table and geo.more_than_horizontally(
        models, enemy_models, SET_UP_ENEMY_DISTANCE), True, 1))


# 24.13 Fights First -----------------------------------------------------------------------------------------------


@rule("24.13")
def fights_first_unit(models_with_ability: Sequence[Any]) -> Any:
    """A unit is a Fights First unit while every model in it has the ability (12.04 then lets it fight first)."""
    return And(*models_with_ability) if len(models_with_ability) else False


# 24.14 Firing Deck ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FiringDeckPick:
    """One model embarked within the TRANSPORT picked for Firing Deck, and the one weapon picked for it."""

    model: str
    unit: str
    weapon: str
    ranged: bool = True
    one_shot: bool = False


@rule("24.14")
def firing_deck_applies(own_shooting_phase: Any, transport_selected_to_shoot: Any, units_embarked: Any) -> Any:
    """Firing Deck is resolved each time the TRANSPORT is selected to shoot in your Shooting phase with one or more
    units embarked within it."""
    return And(own_shooting_phase, transport_selected_to_shoot, units_embarked > 0)


@rule("24.14")
def firing_deck_problems(x: int, picks: Sequence[FiringDeckPick], units_selected_to_shoot: Sequence[str] = ()) -> list[str]:
    """Why a Firing Deck X selection is not allowed (empty if it is): up to X embarked models, none from a unit
    already selected to shoot this phase, each with one ranged weapon that is not [ONE SHOT]."""
    problems = []
    if len(picks) > x:
        problems.append(f"Firing Deck {x} selects at most {x} models, not {len(picks)}")
    seen: set[str] = set()
    for pick in picks:
        if pick.model in seen:
            problems.append(f"{pick.model} is selected more than once (one weapon per selected model)")
        seen.add(pick.model)
        if pick.unit in units_selected_to_shoot:
            problems.append(f"{pick.model}'s unit {pick.unit} has already been selected to shoot this phase")
        if not pick.ranged:
            problems.append(f"{pick.weapon} is not a ranged weapon")
        if pick.one_shot:
            problems.append(f"{pick.weapon} is a [ONE SHOT] weapon")
    return problems


@rule("24.14")
def firing_deck_weapons(transport_weapons: Sequence[str], picks: Sequence[FiringDeckPick]) -> tuple[str, ...]:
    """Until the TRANSPORT has resolved its attacks it has the picked weapons in addition to its own."""
    return tuple(transport_weapons) + tuple(pick.weapon for pick in picks)


@rule("24.14")
def embarked_units_eligible_to_shoot(firing_deck_resolved_this_turn: Any) -> Any:
    """Once Firing Deck has been resolved, units embarked within that TRANSPORT are not eligible to shoot until the
    end of the turn."""
    return Not(firing_deck_resolved_this_turn)


# 24.17 Hover -----------------------------------------------------------------------------------------------------


@rule("24.17")
def skies_distance_penalty(hover: Any) -> Any:
    """Taking to the skies (21.03) takes 2" off the maximum distance, but nothing for a unit with [HOVER]."""
    return If(hover, 0, 2)


# 24.20 Infiltrators ----------------------------------------------------------------------------------------------


@rule("24.20")
def infiltrators_may_set_up(every_model_has_infiltrators: Any, during_deployment: Any,
                            more_than_8_from_opponents_zone: Any, more_than_8_from_enemy_units: Any) -> Any:
    """During deployment a unit whose every model has Infiltrators can be set up anywhere on the battlefield more
    than 8" horizontally from the opponent's deployment zone and from all enemy units."""
    return And(every_model_has_infiltrators, during_deployment, more_than_8_from_opponents_zone,
               more_than_8_from_enemy_units)


@rule("24.20")
def infiltrators_position_on(battlefield: Battlefield, models: Sequence[Body], player: int,
                             enemy_models: Sequence[Body] = ()) -> bool:
    """Whether Infiltrators may be set up with their models here: more than 8" horizontally from the opponent's
    deployment zone and from every enemy model."""
    from rules import battlefield as geo

    zone = battlefield.zone(3 - player)
    return bool(infiltrators_may_set_up(True, True, geo.more_than_horizontally(models, [zone], SET_UP_ENEMY_DISTANCE),
                                        geo.more_than_horizontally(models, enemy_models, SET_UP_ENEMY_DISTANCE)))


# 24.22 Leader and 24.34 Support (printed in full in chapter 19) ------------------------------------------------------


@rule("24.22")
def leader_may_lead(muster_armies_step: Any, can_lead: Any, already_leading: Any, bodyguard_leaders: Any,
                    more_allowed: Any = False) -> Any:
    """Leader: in the Muster Armies step a leader unit can lead one friendly bodyguard unit it can lead, which has no
    other leader unit unless a rule says otherwise (the printing in chapter 19; see 19.01)."""
    from rules.core import attached_units

    return attached_units.may_lead(attached_units.Role.LEADER, muster_armies_step, can_lead, already_leading,
                                   bodyguard_leaders, 0, more_allowed)


@rule("24.34")
def support_may_lead(muster_armies_step: Any, can_lead: Any, already_leading: Any, bodyguard_supports: Any,
                     more_allowed: Any = False) -> Any:
    """Support: the same for a support unit, which a bodyguard unit can have one of beside its leader unit."""
    from rules.core import attached_units

    return attached_units.may_lead(attached_units.Role.SUPPORT, muster_armies_step, can_lead, already_leading,
                                   0, bodyguard_supports, more_allowed)


# 24.24 Lone Operative --------------------------------------------------------------------------------------------


@rule("24.24")
def lone_operative_range(stated: Any = None) -> Any:
    """The range within which enemy models can see (and indirect fire can target) a Lone Operative: 12", or X" for
    Lone Operative X"."""
    return LONE_OPERATIVE_RANGE if stated is None else stated


@rule("24.24")
def lone_operative_visible(attached: Any, observer_is_enemy: Any, observer_within_range: Any) -> Any:
    """Unless part of an attached unit, a Lone Operative unit is not visible to enemy models beyond its range."""
    return Or(attached, Not(observer_is_enemy), observer_within_range)


@rule("24.24")
def lone_operative_targetable(attached: Any, indirect_fire_weapon: Any, attacker_within_range: Any) -> Any:
    """Unless part of an attached unit, a Lone Operative unit cannot be targeted by [INDIRECT FIRE] weapons unless
    the attacking model is within its range."""
    return Or(attached, Not(indirect_fire_weapon), attacker_within_range)


# 24.31 Scouts and 24.32 Scout move ------------------------------------------------------------------------------


class ScoutsOption(enum.IntEnum):
    """What Scouts lets a unit do in the Resolve Pre-battle Abilities step (24.31)."""

    NONE = 0
    SET_UP_IN_DEPLOYMENT_ZONE = 1
    SCOUT_MOVE = 2
    DEDICATED_TRANSPORT_SCOUT_MOVE = 3


SCOUTS_OPTION = DecisionTable(
    name="scouts-option",
    refs=("24.31",),
    inputs=(Var("every_model_has_scouts", kind="bool"), Var("in_strategic_reserves", kind="bool"),
            Var("wholly_within_deployment_zone", kind="bool"), Var("embarked_in_dedicated_transport", kind="bool"),
            Var("transport_wholly_within_deployment_zone", kind="bool"),
            Var("every_embarked_model_has_scouts", kind="bool")),
    # A unit is in strategic reserves, on the battlefield, or embarked: one at a time (an embarked unit's own
    # position is its transport's).
    assume=lambda in_strategic_reserves, wholly_within_deployment_zone, embarked_in_dedicated_transport, **_: And(
        Not(And(in_strategic_reserves, wholly_within_deployment_zone)),
        Not(And(in_strategic_reserves, embarked_in_dedicated_transport)),
        Not(And(wholly_within_deployment_zone, embarked_in_dedicated_transport))),
    rows=(
        Row("not every model in the unit has Scouts: none", lambda every_model_has_scouts, **_:
            Not(every_model_has_scouts), ScoutsOption.NONE,
            overrides=("in strategic reserves: set it up wholly within your deployment zone",
                       "wholly within your deployment zone: a scout move",
                       "embarked within a DEDICATED TRANSPORT wholly within your deployment zone, every embarked model "
                       "with Scouts: that transport makes a scout move")),
        Row("in strategic reserves: set it up wholly within your deployment zone",
            lambda in_strategic_reserves, **_: in_strategic_reserves, ScoutsOption.SET_UP_IN_DEPLOYMENT_ZONE),
        Row("wholly within your deployment zone: a scout move",
            lambda wholly_within_deployment_zone, **_: wholly_within_deployment_zone, ScoutsOption.SCOUT_MOVE),
        Row("embarked within a DEDICATED TRANSPORT wholly within your deployment zone, every embarked model "
            "with Scouts: that transport makes a scout move",
            lambda embarked_in_dedicated_transport, transport_wholly_within_deployment_zone,
            every_embarked_model_has_scouts, **_: And(embarked_in_dedicated_transport,
                                                      transport_wholly_within_deployment_zone,
                                                      every_embarked_model_has_scouts),
            ScoutsOption.DEDICATED_TRANSPORT_SCOUT_MOVE),
        Row("otherwise: none", lambda **_: True, ScoutsOption.NONE, otherwise=True),
    ),
)


@rule("24.31")
def scouts_option(every_model_has_scouts: Any, in_strategic_reserves: Any, wholly_within_deployment_zone: Any,
                  embarked_in_dedicated_transport: Any = False, transport_wholly_within_deployment_zone: Any = False,
                  every_embarked_model_has_scouts: Any = False) -> Any:
    """Which of the three Scouts options a unit has in the Resolve Pre-battle Abilities step (each optional)."""
    return SCOUTS_OPTION(every_model_has_scouts=every_model_has_scouts, in_strategic_reserves=in_strategic_reserves,
                         wholly_within_deployment_zone=wholly_within_deployment_zone,
                         embarked_in_dedicated_transport=embarked_in_dedicated_transport,
                         transport_wholly_within_deployment_zone=transport_wholly_within_deployment_zone,
                         every_embarked_model_has_scouts=every_embarked_model_has_scouts)


@rule("24.02", "24.31")
def scouts_distance_of(has: Sequence[Sequence[Any]], values: Sequence[int]) -> Any:
    """The X a unit uses for Scouts X", from ``has[model][i]`` (does that model have Scouts ``values[i]``"): every
    model's longest Scouts distance, and the unit uses the shortest of those, so no model goes beyond its own.

    Interpretation: scouts-slowest-model. Written with rules.logic, so z3 can compare it with the printed rule.
    """
    return Min(*(Max(*(If(flag, value, 0) for flag, value in zip(row, values))) for row in has))


@rule("24.02", "24.31")
def scouts_distance(model_scouts: Sequence[Sequence[int]]) -> int:
    """``scouts_distance_of`` for each model's list of Scouts numbers: [[6, 8]] * 6 gives 8; [[6]] + [[8]] * 5 gives 6.

    Interpretation: scouts-slowest-model.
    """
    if not model_scouts or not all(model_scouts):
        raise ValueError("every model in the unit must have the Scouts ability")
    values = sorted({v for scouts in model_scouts for v in scouts})
    return scouts_distance_of([[v in scouts for v in values] for scouts in model_scouts], values)


@rule("24.31")
def dedicated_transport_scout_distance(embarked_model_scouts: Sequence[Sequence[int]]) -> int:
    """The maximum distance of a DEDICATED TRANSPORT's scout move: the Scouts X its embarked models share, chosen as
    for one unit (no embarked model goes beyond its own Scouts distance).

    Interpretation: scouts-dedicated-transport-distance.
    """
    return scouts_distance(embarked_model_scouts)


@rule("24.32")
def scout_move_eligible(pre_battle_abilities_step: Any, wholly_within_deployment_zone: Any) -> Any:
    """A unit is eligible to make a scout move in the Resolve Pre-battle Abilities step, wholly within your
    deployment zone."""
    return And(pre_battle_abilities_step, wholly_within_deployment_zone)


@rule("24.32")
def scout_move_can_end(more_than_8_from_enemy_units: Any, moved_inches: Any, scouts_x: Any) -> Any:
    """A scout move moves up to X" and must end more than 8" horizontally from all enemy units."""
    return And(more_than_8_from_enemy_units, moved_inches <= scouts_x)


@rule("24.32")
def scout_move_on(battlefield: Battlefield, start: Sequence[Body], end: Sequence[Body], player: int,
                  enemy_models: Sequence[Body],
                  scouts_x: Any) -> bool:
    """Whether a scout move from ``start`` to ``end`` (the unit's models, in order, moving straight) is allowed:
    eligible (wholly within your deployment zone), no model moving more than X", ending more than 8" horizontally
    from every enemy model."""
    from rules import battlefield as geo

    eligible = scout_move_eligible(True, geo.unit_wholly_within(start, battlefield.zone(player)))
    moved = max((Fraction(str(b.x)) - Fraction(str(a.x))) ** 2 + (Fraction(str(b.y)) - Fraction(str(a.y))) ** 2
                for a, b in zip(start, end))
    return bool(And(eligible, scout_move_can_end(geo.more_than_horizontally(end, enemy_models, SCOUT_ENEMY_DISTANCE),
                                                 moved, Fraction(str(scouts_x)) ** 2)))


# 24.35 Super-heavy Walker ------------------------------------------------------------------------------------------


@rule("24.35")
def walker_keywords(keywords: Sequence[str], chose_mobile: bool) -> tuple[str, ...]:
    """Before moving, the player can give every model in the unit the MOBILE keyword until that move ends."""
    return tuple(keywords) + (("MOBILE",) if chose_mobile and not has_keyword(keywords, "MOBILE") else ())


@rule("24.35")
def walker_battle_shocked(chose_mobile: Any, roll: Any) -> Any:
    """If MOBILE was chosen, a D6 is rolled when the move ends: on a 1 the unit is battle-shocked."""
    return And(chose_mobile, roll == 1)


@rule("24.35")
def walker_battle_shock_chance(chose_mobile: bool) -> Fraction:
    """The exact chance that choosing (or not) MOBILE leaves the unit battle-shocked."""
    return dice.probability(dice.d6(), lambda roll: walker_battle_shocked(chose_mobile, roll))


@rule("24.35")
def walker_through_terrain(category: Any, keywords: Sequence[str], section_height: Any, chose_mobile: bool) -> Any:
    """How a Super-heavy Walker crosses a terrain feature horizontally in such a move: sections 4" or less it walks
    through; gaining MOBILE lets it through dense features whatever their height (the designer's note, 13.06)."""
    from rules.core import terrain

    return terrain.terrain_passage(category, walker_keywords(keywords, chose_mobile), False, section_height,
                                   super_heavy_walker=True)

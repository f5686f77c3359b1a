"""The earlier edition's Fight phase: which units may fight and in what order (charging units first, then the
players alternate starting with the player whose turn is not taking place; rules that make a unit fight first or
last), which models fight, whom they may target, how many attacks they make and with what weapon.

Pile-in and consolidation moves are charge.closing_move_allowed (the same 3" move as a Heroic Intervention).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.logic import And, If, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

HALF_INCH = 0.5
FIRST, NORMAL, LAST = 0, 1, 2  # the fight bands, in the order they fight
CLOSE_COMBAT_WEAPON = {"weapon": "Close combat weapon", "range": "Melee", "type": "Melee", "S": "User", "AP": 0,
                       "D": 1}
WEB = "web"  # the web page 003
REPRINT = "reprint"  # the mission pack's reprint 002


@rule("fight-phase", "rare-rules/fight-again")
def fight_eligible(within_engagement_range: Any, made_charge_move_this_turn: Any = False) -> Any:
    """Whether a unit is eligible to fight (or to fight again): within Engagement Range of an enemy unit and/or it
    made a charge move this turn."""
    return Or(within_engagement_range, made_charge_move_this_turn)


@rule("fight-phase/charging-units-fight-first", "rare-rules/always-fight-first-last")
def fight_band(made_charge_move_this_turn: Any = False, fights_first_rule: Any = False,
               fights_last_rule: Any = False) -> Any:
    """Which band a unit fights in: FIRST (0) for a unit that charged this turn or has a rule to always fight
    first, LAST (2) for one that cannot be selected until all other units have fought, NORMAL (1) otherwise; a
    unit under both a fight-first effect and a fight-last rule fights as if neither applied.

    Interpretation: charging-is-fighting-first.
    """
    first = Or(made_charge_move_this_turn, fights_first_rule)
    return If(And(first, fights_last_rule), NORMAL, If(first, FIRST, If(fights_last_rule, LAST, NORMAL)))


@rule("fight-phase", "rare-rules/always-fight-first-last")
def band_starter_is_active_player(band: Any) -> Any:
    """Whether the player whose turn is taking place selects first within a band: in the FIRST and LAST bands yes;
    in the NORMAL band the player whose turn is not taking place starts."""
    return band != NORMAL


@dataclass(frozen=True)
class Fighter:
    """One eligible unit in the Fight phase: its name, its player (1 or 2) and its band (fight_band)."""

    name: str
    player: int
    band: int = NORMAL


@rule("fight-phase", "fight-phase/charging-units-fight-first", "rare-rules/always-fight-first-last")
def fight_order(fighters: list[Fighter], active_player: int) -> list[str]:
    """The order in which eligible units fight when every player picks their units in the given order: band by
    band (FIRST, NORMAL, LAST), the players alternating within a band from its starter; once one player has no
    unit left in the band, the other fights with their remaining ones, one at a time.

    Interpretation: fight-bands-restart-alternation. Interpretation: printings-differ-only-in-wording.
    Interpretation: fight-order-ignores-initiative.
    """
    if active_player not in (1, 2):
        raise ValueError(f"active_player must be 1 or 2, got {active_player!r}")
    order: list[str] = []
    for band in (FIRST, NORMAL, LAST):
        queues = {p: [f.name for f in fighters if f.player == p and f.band == band] for p in (1, 2)}
        turn = active_player if band_starter_is_active_player(band) else 3 - active_player
        while queues[1] or queues[2]:
            if not queues[turn]:
                turn = 3 - turn
            order.append(queues[turn].pop(0))
            turn = 3 - turn
    return order


@rule("fight-phase/make-close-combat-attacks")
def model_fights(within_engagement_range: Any, inches_to_friend: Any = None,
                 friend_inches_to_enemy: Any = None) -> Any:
    """Whether a model of a fighting unit fights: it is within Engagement Range of an enemy unit, or within 1/2" of
    a model of its own unit that is itself within 1/2" of an enemy unit (give that friend's two distances).
    Interpretation: within-inclusive."""
    if inches_to_friend is None or friend_inches_to_enemy is None:
        return within_engagement_range
    return Or(within_engagement_range,
              And(inches_to_friend <= HALF_INCH, friend_inches_to_enemy <= HALF_INCH))


@rule("fight-phase/make-close-combat-attacks", "rare-rules/fight-again")
def close_combat_target_allowed(model_can_reach: Any, made_charge_move_this_turn: Any = False,
                                declared_charge_against_it: Any = False,
                                it_performed_heroic_intervention: Any = False) -> Any:
    """Whether a fighting model may target an enemy unit: it reaches it (Engagement Range, or the 1/2" chain of
    model_fights), and, if its unit charged this turn, that unit was a target of its charge or performed a Heroic
    Intervention this turn (also when fighting again)."""
    return And(model_can_reach,
               Or(Not(made_charge_move_this_turn), declared_charge_against_it, it_performed_heroic_intervention))


@rule("fight-phase/make-close-combat-attacks")
def uses_close_combat_weapon(has_melee_weapon: Any, can_attack_with_a_melee_weapon: Any = True) -> Any:
    """Whether a model attacks with the close combat weapon: it has no melee weapon, or cannot attack with any of
    those it has."""
    return Or(Not(has_melee_weapon), Not(can_attack_with_a_melee_weapon))


@rule("fight-phase/make-close-combat-attacks")
def close_combat_weapon_profile() -> dict[str, Any]:
    """The close combat weapon's profile: Melee, Strength User, AP 0, Damage 1."""
    return dict(CLOSE_COMBAT_WEAPON)


@rule("fight-phase/make-close-combat-attacks")
def attacks_made(attacks_characteristic: Any, paired_weapons_with_bonus: Any = 0, printing: str = WEB) -> Any:
    """How many attacks a fighting model makes: its Attacks characteristic, plus the pair-of-weapons bonus.

    Two weapons each reading 'if it is equipped with 2 [name], it makes 1 additional attack with this weapon': the
    web page says the model makes 1 additional attack, not 1 per weapon; the reprint has no such rule, so each
    weapon's own ability adds its attack (2). The code follows the web page by default (finding
    paired-weapons-bonus-only-on-the-web-page). Interpretation: web-page-rule-where-the-reprint-is-silent.
    """
    if printing not in (WEB, REPRINT):
        raise ValueError(f"printing must be {WEB!r} or {REPRINT!r}, got {printing!r}")
    paired = paired_weapons_with_bonus >= 2
    bonus = If(paired, 1, 0) if printing == WEB else If(paired, paired_weapons_with_bonus, 0)
    return attacks_characteristic + bonus


@rule("fight-phase/make-close-combat-attacks")
def attacks_by_weapon(models: list[tuple[int, str]]) -> dict[str, int]:
    """How many attacks a unit makes with each melee weapon (profile) against one target, from each model's
    Attacks characteristic and weapon: attacks with the same profile are resolved together, one profile after
    another, in the order the player chooses."""
    out: dict[str, int] = {}
    for attacks, weapon in models:
        out[weapon] = out.get(weapon, 0) + attacks
    return out


@rule("fight-phase/fight")
def fight_steps() -> list[str]:
    """What a unit selected to fight does, in order: it piles in, its models make close combat attacks, then it
    consolidates (even with no viable target it still consolidates)."""
    return ["pile in", "make close combat attacks", "consolidate"]

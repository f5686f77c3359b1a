"""The mission pack's secondary objectives: what each awards at one scoring moment, and the actions they use.

Every secondary is an ``Objective`` of ``rules.missionpack.scoring`` named by its slug
(``secondary/linebreaker`` is ``"linebreaker"``), with its category as ingested. Its score
function returns the victory points of ONE scoring moment, from the facts a game record states
at that moment (``units_wholly_within_opponent_deployment_zone``, ``kill_points``); the 15 cap
on each secondary is applied by the ledger, never here. Progressive objectives score at the end
of your turn, at the end of the battle round, at the end of your Command phase or each time an
action is completed; End Game objectives once, with the game's totals.

The five actions and four psychic actions, with the actions of two missions' own secondaries (Forward
Push, Hard Push), are data (``ACTIONS``): when in your turn each is started and completed
(``action_start_point``, ``action_completion_point``; the ledger places a completion there). What starts
them is a dual-mode predicate per action (its own conditions only; the general conditions of
ninth:performing-actions and ninth:performing-psychic-actions apply on top), and
``action_completion_round`` says in which battle round an action started in a given round is completed,
if ever.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Sequence

from rules import spec
from rules.logic import And, DecisionTable, If, Max, Not, Or, Row, Var, is_symbolic
from rules.missionpack import scoring
from rules.missionpack.scoring import BATTLE_ROUNDS, Objective, Timing, TurnPoint
from rules.ninth import actions as ninth_actions
from rules.registry import ruleset_rule

rule = ruleset_rule("missionpack")

NEVER = 0  # the "battle round" of an action that is never completed


def _entry(slug: str) -> dict:
    return spec.sections("missionpack")[f"secondary/{slug}"]


def _register(slug: str, timings: tuple[Timing, ...], score: Any, **extra: Any) -> Objective:
    """Register a secondary under its slug, with the title and category its ingested entry carries."""
    entry = _entry(slug)
    return scoring.register(Objective(
        name=slug, title=entry["title"], ref=f"secondary/{slug}", kind="secondary", timings=timings, score=score,
        category=entry["attributes"]["category"], **extra))


def _whole_tens(value: Any) -> Any:
    """``value`` divided by 10 and rounded down (for a value of 0 or more), on ints and on z3 ints alike."""
    # z3's integer division rounds down for a positive divisor, as Python's // does.
    return value / 10 if is_symbolic(value) else value // 10


# --------------------------------------------------------------------------
# Actions and psychic actions


class Starts(str, enum.Enum):
    """When a unit can start an action, in the pack's words (a psychic action is attempted "in" or "during" your
    Psychic phase)."""

    START_OF_MOVEMENT_PHASE = "at the start of your Movement phase"
    END_OF_MOVEMENT_PHASE = "at the end of your Movement phase"
    PSYCHIC_PHASE = "your Psychic phase"


class Completes(str, enum.Enum):
    """When a started action is completed, in the pack's words."""

    END_OF_TURN = "at the end of your turn"
    END_OF_NEXT_COMMAND_PHASE = "at the end of your next Command phase"
    WHEN_PERFORMED = "in the Psychic phase it is attempted in"  # a psychic action succeeds or fails there and then


#: Where in a player's turn each start and each completion comes (the next Command phase is a battle round later).
START_POINTS = {Starts.START_OF_MOVEMENT_PHASE: TurnPoint.START_OF_MOVEMENT_PHASE,
                Starts.END_OF_MOVEMENT_PHASE: TurnPoint.END_OF_MOVEMENT_PHASE,
                Starts.PSYCHIC_PHASE: TurnPoint.PSYCHIC_PHASE}
COMPLETION_POINTS = {Completes.END_OF_TURN: TurnPoint.END_OF_TURN,
                     Completes.END_OF_NEXT_COMMAND_PHASE: TurnPoint.END_OF_COMMAND_PHASE,
                     Completes.WHEN_PERFORMED: TurnPoint.PSYCHIC_PHASE}


@dataclass(frozen=True)
class Action:
    """One action or psychic action a secondary uses: its name as printed, its objective's slug (and the mission, for
    a mission's own secondary), when it is started and completed, whether it is psychic (and its Warp Charge value),
    and whether several units may start it at once."""

    name: str
    objective: str
    starts: Starts
    completes: Completes
    psychic: bool = False
    warp_charge: int | None = None
    several_units: bool = False
    mission: str | None = None

    @property
    def ref(self) -> str:
        """The section that prints the action: the secondary's, or the mission's own secondary's."""
        return f"mission/{self.mission}/secondary" if self.mission else f"secondary/{self.objective}"


_MOVEMENT_END, _PSYCHIC = Starts.END_OF_MOVEMENT_PHASE, Starts.PSYCHIC_PHASE
ACTIONS = (
    Action("Raise Banners", "raise-the-banners-high", _MOVEMENT_END, Completes.END_OF_TURN, several_units=True),
    Action("Investigate Site", "investigate-sites", _MOVEMENT_END, Completes.END_OF_TURN),
    Action("Deploy Scramblers", "deploy-scramblers", _MOVEMENT_END, Completes.END_OF_TURN),
    Action("Teleport Homer", "teleport-homer", _MOVEMENT_END, Completes.END_OF_NEXT_COMMAND_PHASE),
    Action("Plant Demolitions", "plant-demolition-charges", _MOVEMENT_END, Completes.END_OF_NEXT_COMMAND_PHASE),
    Action("Mental Interrogation", "mental-interrogation", _PSYCHIC, Completes.WHEN_PERFORMED, psychic=True,
           warp_charge=4),
    Action("Psychic Ritual", "psychic-ritual", _PSYCHIC, Completes.WHEN_PERFORMED, psychic=True, warp_charge=3),
    Action("Pierce the Veil", "pierce-the-veil", _PSYCHIC, Completes.WHEN_PERFORMED, psychic=True, warp_charge=4),
    Action("Psychic Imprint", "psychic-imprint", _PSYCHIC, Completes.WHEN_PERFORMED, psychic=True, warp_charge=4),
    # The two missions' own secondaries with an action; the only actions started before the unit could move.
    Action("Forward Push", "forward-push", Starts.START_OF_MOVEMENT_PHASE, Completes.END_OF_TURN,
           mission="forward-outpost"),
    Action("Hard Push", "hard-push", Starts.START_OF_MOVEMENT_PHASE, Completes.END_OF_TURN,
           mission="aggressive-strike"),
)


def action(name: str) -> Action:
    """The action of that printed name."""
    for item in ACTIONS:
        if item.name == name:
            return item
    raise KeyError(f"{name!r} is not an action of the pack's secondaries (known: {', '.join(a.name for a in ACTIONS)})")


@rule(*(item.ref for item in ACTIONS))
def action_start_point(name: str) -> TurnPoint:
    """The point of your turn at which a unit can start the action of that name: the start or the end of your
    Movement phase, or your Psychic phase."""
    return START_POINTS[action(name).starts]


@rule(*(item.ref for item in ACTIONS))
def action_completion_point(name: str) -> TurnPoint:
    """The point of your turn at which the action of that name is completed: the end of your turn, the end of your
    (next) Command phase, or the Psychic phase it is attempted in. The ledger places the moment of its completion
    there."""
    return COMPLETION_POINTS[action(name).completes]


@rule(*(item.ref for item in ACTIONS))
def action_completion_round(name: str, start_round: Any) -> Any:
    """The battle round in which the action of that name, started in ``start_round``, is completed (NEVER if it
    cannot be).

    Interpretation: next-command-phase-after-the-last-round (an action that completes at the end of your
    next Command phase, started in the last battle round, is never completed).
    """
    if action(name).completes is Completes.END_OF_NEXT_COMMAND_PHASE:
        return If(start_round < BATTLE_ROUNDS, start_round + 1, NEVER)
    return start_round


@rule(*(item.ref for item in ACTIONS if not item.several_units))
def completions_in_a_battle(name: str) -> int:
    """How many times one player can complete the action of that name in a battle: once a battle round at most (one
    unit starts it, or one PSYKER CHARACTER attempts it, a battle round), in each battle round where an action
    started then is completed: 5, or 4 for one completed at the end of the next Command phase.

    Interpretation: one-completion-a-battle-round; next-command-phase-after-the-last-round.
    """
    if action(name).several_units:  # Raise Banners: several units a battle round; no objective counts its completions
        raise ValueError(f"{name} can be started by several units a battle round")
    return sum(1 for start in range(1, BATTLE_ROUNDS + 1) if action_completion_round(name, start) != NEVER)


#: The actions a unit performs across two battle rounds: started at the end of your Movement phase, completed at the
#: end of your next Command phase.
TWO_ROUND_REFS = tuple(item.ref for item in ACTIONS if item.completes is Completes.END_OF_NEXT_COMMAND_PHASE)


@rule(*TWO_ROUND_REFS)
def action_attempted_in_round(start_round: Any, completion_round: Any, battle_round: Any) -> Any:
    """Whether an action a unit started in ``start_round`` is its one action attempt of ``battle_round`` ("A unit can
    only attempt to perform one action per battle round"): in the round it was started only, not in a later
    ``completion_round``, at the end of whose Command phase it completes (before any of the pack's actions can
    start).

    Interpretation: action-counts-in-its-start-round.
    """
    return start_round == battle_round


@rule(*TWO_ROUND_REFS)
def one_unit_completions(name: str) -> int:
    """How many times one unit alone can complete the action of that name in a battle, starting it in every battle
    round in which the reprinted action rules let it (ninth:performing-actions): 5, or 4 for one completed at the end
    of the next Command phase (started in rounds 1 to 4; one started in round 5 is never completed).

    Interpretation: action-counts-in-its-start-round.
    """
    completions, last_start = 0, NEVER
    for battle_round in range(1, BATTLE_ROUNDS + 1):
        attempted = last_start != NEVER and action_attempted_in_round(
            last_start, action_completion_round(name, last_start), battle_round)
        if ninth_actions.may_start_action(0, attempted_action_this_battle_round=attempted):
            last_start = battle_round
            completions += action_completion_round(name, battle_round) != NEVER
    return completions


# --------------------------------------------------------------------------
# Battlefield Supremacy


@rule("secondary/engage-on-all-fronts")
def engage_on_all_fronts(battle_round: Any, table_quarters_held: Any) -> Any:
    """Engage on All Fronts at the end of your turn: 2 for three table quarters, 3 for all four.

    ``table_quarters_held`` counts the table quarters that wholly contain one or more of your units that are
    more than 6" from the centre of the battlefield (0 to 4).
    Interpretation: engage-on-all-fronts-counted-units.
    """
    return If(table_quarters_held >= 4, 3, If(table_quarters_held == 3, 2, 0))


@rule("secondary/linebreaker")
def linebreaker(battle_round: Any, non_aircraft_units_wholly_within_opponent_deployment_zone: Any) -> Any:
    """Linebreaker at the end of your turn: 4 if two or more of your units (not AIRCRAFT) are wholly within
    your opponent's deployment zone."""
    return If(non_aircraft_units_wholly_within_opponent_deployment_zone >= 2, 4, 0)


@rule("secondary/domination")
def domination(battle_round: Any, objective_markers_controlled: Any, objective_markers_on_battlefield: Any) -> Any:
    """Domination (the secondary) at the end of your turn: 3 if you control more than half the objective markers
    on the battlefield (exactly half is not enough)."""
    return If(2 * objective_markers_controlled > objective_markers_on_battlefield, 3, 0)


@rule("secondary/outright-domination")
def outright_domination(battle_round: Any, critical_features_controlled: Any) -> Any:
    """Outright Domination at the end of the battle: 3 for each CRITICAL FEATURE terrain feature you control."""
    return 3 * critical_features_controlled


# --------------------------------------------------------------------------
# No Mercy, No Respite


@rule("secondary/thin-their-ranks")
def kill_points_for_destroyed_model(wounds_characteristic: Any) -> Any:
    """Kill points an enemy model adds to the tally each time it is destroyed: 10 with a Wounds characteristic
    of 10 or more, otherwise 1 (a resurrected model adds them again each time it is destroyed again)."""
    return If(wounds_characteristic >= 10, 10, 1)


@rule("secondary/thin-their-ranks")
def thin_their_ranks(battle_round: Any, kill_points: Any) -> Any:
    """Thin Their Ranks at the end of the battle: the kill points tally divided by 10, rounded down."""
    return _whole_tens(kill_points)


@rule("secondary/grind-them-down")
def grind_them_down(battle_round: Any, enemy_units_destroyed_this_round: Any,
                    friendly_units_destroyed_this_round: Any) -> Any:
    """Grind Them Down at the end of the battle round: 3 if more enemy units than friendly units were destroyed
    this battle round (equal numbers score nothing)."""
    return If(enemy_units_destroyed_this_round > friendly_units_destroyed_this_round, 3, 0)


@rule("secondary/while-we-stand-we-fight")
def while_we_stand_noted_models(models_in_army: Any, fortification_models: Any) -> Any:
    """How many models a player notes for While We Stand, We Fight: the three with the highest points value
    (Fortifications excluded), or, in an army of three or fewer models, every model of every unit.

    Interpretation: while-we-stand-small-army.
    """
    return If(models_in_army <= 3, models_in_army,
              If(models_in_army - fortification_models >= 3, 3, models_in_army - fortification_models))


@rule("secondary/while-we-stand-we-fight")
def while_we_stand_we_fight(battle_round: Any, noted_models_on_battlefield: Any) -> Any:
    """While We Stand, We Fight at the end of the battle: 5 for each noted model on the battlefield.

    Interpretation: while-we-stand-small-army.
    """
    return 5 * noted_models_on_battlefield


@rule("secondary/targeted-destruction")
def targeted_destruction(battle_round: Any, enemy_units_destroyed_near_critical_features_this_round: Any) -> Any:
    """Targeted Destruction at the end of the battle round: 4 for each enemy unit destroyed this battle round
    while within 3" of a CRITICAL FEATURE terrain feature."""
    return 4 * enemy_units_destroyed_near_critical_features_this_round


# --------------------------------------------------------------------------
# Purge the Enemy

TITAN_HUNTER = DecisionTable(
    name="secondary-titan-hunter",
    refs=("secondary/titan-hunter",),
    inputs=(Var("enemy_titanic_models_destroyed", 0, 8),),
    rows=(
        Row("one enemy TITANIC model destroyed", lambda enemy_titanic_models_destroyed:
            enemy_titanic_models_destroyed == 1, 10),
        Row("two enemy TITANIC models destroyed", lambda enemy_titanic_models_destroyed:
            enemy_titanic_models_destroyed == 2, 12),
        Row("three or more enemy TITANIC models destroyed", lambda enemy_titanic_models_destroyed:
            enemy_titanic_models_destroyed >= 3, 15),
        Row("no enemy TITANIC model destroyed", lambda **_: True, 0, otherwise=True),
    ),
)


@rule("secondary/titan-hunter")
def titan_hunter(battle_round: Any, enemy_titanic_models_destroyed: Any) -> Any:
    """Titan Hunter at the end of the battle: 10 for one enemy TITANIC model destroyed, 12 for two, 15 for three
    or more."""
    return TITAN_HUNTER(enemy_titanic_models_destroyed=enemy_titanic_models_destroyed)


BRING_IT_DOWN_POINTS = {"Wounds 10 or less": 2, "Wounds 11 or more": 3}


@rule("secondary/bring-it-down")
def bring_it_down_points(wounds_characteristic: Any) -> Any:
    """What one destroyed enemy MONSTER or VEHICLE model is worth to Bring It Down: 2 with a Wounds
    characteristic of 10 or less, 3 with 11 or more."""
    return If(wounds_characteristic <= 10, BRING_IT_DOWN_POINTS["Wounds 10 or less"],
              BRING_IT_DOWN_POINTS["Wounds 11 or more"])


@rule("secondary/bring-it-down")
def bring_it_down(battle_round: Any, enemy_monsters_or_vehicles_destroyed_w10_or_less: Any,
                  enemy_monsters_or_vehicles_destroyed_w11_or_more: Any) -> Any:
    """Bring It Down at the end of the battle: 2 for each destroyed enemy MONSTER or VEHICLE model with a Wounds
    characteristic of 10 or less, 3 for each with 11 or more."""
    return (BRING_IT_DOWN_POINTS["Wounds 10 or less"] * enemy_monsters_or_vehicles_destroyed_w10_or_less
            + BRING_IT_DOWN_POINTS["Wounds 11 or more"] * enemy_monsters_or_vehicles_destroyed_w11_or_more)


# The book's table: BATTLE ROUND (in which the enemy WARLORD was destroyed) -> VICTORY POINTS.
CUT_OFF_THE_HEAD_POINTS = ((1, 13), (2, 10), (3, 6), (4, 3), (5, 1))

CUT_OFF_THE_HEAD = DecisionTable(
    name="secondary-cut-off-the-head",
    refs=("secondary/cut-off-the-head",),
    inputs=(Var("enemy_warlord_destroyed_in_round", 0, BATTLE_ROUNDS),),
    rows=tuple(Row(f"battle round {battle_round}", lambda enemy_warlord_destroyed_in_round, _round=battle_round:
                   enemy_warlord_destroyed_in_round == _round, points)
               for battle_round, points in CUT_OFF_THE_HEAD_POINTS)
    + (Row("enemy WARLORD not destroyed during the battle", lambda **_: True, 0, otherwise=True),),
    notes={"round 0": "0 stands for a WARLORD never destroyed during the battle."},
)


@rule("secondary/cut-off-the-head")
def warlord_destroyed_in_round(removal_rounds: Sequence[Any]) -> Any:
    """The battle round in which the enemy WARLORD counts as destroyed: the round it was last removed from the
    battlefield as destroyed (0 if it never was)."""
    return Max(NEVER, *removal_rounds)


@rule("secondary/cut-off-the-head")
def cut_off_the_head(battle_round: Any, enemy_warlord_destroyed_in_round: Any) -> Any:
    """Cut Off the Head at the end of the battle: the table's victory points for the battle round in which the
    enemy WARLORD was (last) destroyed, 13 in the first down to 1 in the fifth."""
    return CUT_OFF_THE_HEAD(enemy_warlord_destroyed_in_round=enemy_warlord_destroyed_in_round)


@rule("secondary/assassinate")
def assassinate(battle_round: Any, enemy_character_models_destroyed: Any) -> Any:
    """Assassinate at the end of the battle: 3 for each enemy CHARACTER model destroyed."""
    return 3 * enemy_character_models_destroyed


@rule("secondary/stronghold-denial")
def stronghold_denial(battle_round: Any, enemy_building_units_destroyed: Any) -> Any:
    """Stronghold Denial at the end of the battle: 5 for each enemy BUILDING unit destroyed."""
    return 5 * enemy_building_units_destroyed


# --------------------------------------------------------------------------
# Shadow Operations


@rule("secondary/raise-the-banners-high")
def raise_banners_can_start(infantry: Any, in_range_of_objective_marker: Any, marker_has_your_banner: Any,
                            enemy_non_aircraft_in_range_of_marker: Any) -> Any:
    """Whether a unit may start Raise Banners at the end of your Movement phase on an objective marker: an
    INFANTRY unit in range of a marker without one of your banners and with no enemy unit (AIRCRAFT aside) in
    range of it."""
    return And(infantry, in_range_of_objective_marker, Not(marker_has_your_banner),
               Not(enemy_non_aircraft_in_range_of_marker))


@rule("secondary/raise-the-banners-high")
def raise_banners_units_may_start(units_starting: Any, markers_open_to_a_banner: Any) -> Any:
    """Whether that many units may start Raise Banners in the same Movement phase: one or more, each on a
    different objective marker open to a banner.

    Interpretation: raise-banners-several-units.
    """
    return And(units_starting >= 0, units_starting <= markers_open_to_a_banner)


@rule("secondary/raise-the-banners-high")
def banner_stays_raised(banner_raised: Any, opponent_controls_marker_at_start_of_phase: Any) -> Any:
    """Whether one of your banners is still raised on a marker once a phase starts: it is removed if your
    opponent controls that marker at the start of the phase."""
    return And(banner_raised, Not(opponent_controls_marker_at_start_of_phase))


@rule("secondary/raise-the-banners-high")
def raise_the_banners_high(battle_round: Any, objective_markers_with_your_banner: Any) -> Any:
    """Raise the Banners High at the end of each of your Command phases and at the end of the battle: 1 for each
    objective marker on the battlefield with one of your banners raised on it (the same at either moment)."""
    return objective_markers_with_your_banner


@rule("secondary/investigate-sites")
def investigate_site_can_start(infantry: Any, character: Any, within_6_of_centre: Any,
                               enemy_non_aircraft_within_6_of_centre: Any) -> Any:
    """Whether a unit may start Investigate Site at the end of your Movement phase: an INFANTRY unit (not a
    CHARACTER) within 6" of the centre of the battlefield, with no enemy unit (AIRCRAFT aside) within 6" of it."""
    return And(infantry, Not(character), within_6_of_centre, Not(enemy_non_aircraft_within_6_of_centre))


@rule("secondary/investigate-sites")
def investigate_sites(battle_round: Any) -> Any:
    """Investigate Sites each time one of your units completes Investigate Site: 3."""
    return 3


@rule("secondary/deploy-scramblers")
def deploy_scramblers_can_start(infantry: Any, character: Any, wholly_within_your_deployment_zone: Any,
                                wholly_within_opponent_deployment_zone: Any,
                                more_than_6_from_either_deployment_zone: Any) -> Any:
    """Whether a unit may start Deploy Scramblers at the end of your Movement phase: an INFANTRY unit (not a
    CHARACTER) wholly within either deployment zone, or more than 6" from both."""
    return And(infantry, Not(character), Or(wholly_within_your_deployment_zone, wholly_within_opponent_deployment_zone,
                                            more_than_6_from_either_deployment_zone))


@rule("secondary/deploy-scramblers")
def deploy_scramblers(battle_round: Any, completed_in_your_deployment_zone: Any,
                      completed_in_opponent_deployment_zone: Any,
                      completed_more_than_6_from_either_deployment_zone: Any) -> Any:
    """Deploy Scramblers at the end of the battle: 10 if the action was completed once or more in each of the
    three places (your deployment zone, your opponent's, more than 6" from either)."""
    return If(And(completed_in_your_deployment_zone >= 1, completed_in_opponent_deployment_zone >= 1,
                  completed_more_than_6_from_either_deployment_zone >= 1), 10, 0)


@rule("secondary/teleport-homer")
def teleport_homer_can_start(infantry: Any, wholly_within_opponent_deployment_zone: Any) -> Any:
    """Whether a unit may start Teleport Homer at the end of your Movement phase: an INFANTRY unit wholly within
    your opponent's deployment zone."""
    return And(infantry, wholly_within_opponent_deployment_zone)


@rule("secondary/teleport-homer")
def teleport_homer_completes(still_wholly_within_opponent_deployment_zone: Any) -> Any:
    """Whether Teleport Homer is completed at the end of your next Command phase (the general ways of failing an
    action aside): only if the unit is still wholly within your opponent's deployment zone."""
    return still_wholly_within_opponent_deployment_zone


@rule("secondary/teleport-homer")
def teleport_homer(battle_round: Any) -> Any:
    """Teleport Homer each time one of your units completes Teleport Homer: 4.

    Started at the end of a Movement phase and completed at the end of the next Command phase, the action is
    never completed in the first battle round, which therefore awards nothing.
    """
    return If(battle_round == 1, 0, 4)


@rule("secondary/plant-demolition-charges")
def plant_demolitions_can_start(infantry: Any, wholly_within_opponent_territory: Any,
                                within_1_of_obstacle_or_area_terrain: Any, feature_has_explosives: Any) -> Any:
    """Whether a unit may start Plant Demolitions at the end of your Movement phase: an INFANTRY unit wholly within
    your opponent's territory and within 1" of an Obstacle or Area Terrain feature without explosives."""
    return And(infantry, wholly_within_opponent_territory, within_1_of_obstacle_or_area_terrain,
               Not(feature_has_explosives))


@rule("secondary/plant-demolition-charges")
def plant_demolitions_completes(still_within_1_of_same_feature: Any) -> Any:
    """Whether Plant Demolitions is completed at the end of your next Command phase (the general ways of failing
    an action aside): only if the unit is still within 1" of the same terrain feature."""
    return still_within_1_of_same_feature


@rule("secondary/plant-demolition-charges")
def plant_demolition_charges(battle_round: Any, opponent_territory_features_with_explosives: Any) -> Any:
    """Plant Demolition Charges at the end of the battle: 4 for each terrain feature in your opponent's territory
    with explosives planted on it."""
    return 4 * opponent_territory_features_with_explosives


# --------------------------------------------------------------------------
# Warpcraft


@rule("secondary/abhor-the-witch")
def abhor_the_witch_selectable(army_has_psykers: Any) -> Any:
    """Whether a player may select Abhor the Witch: not if their army includes any PSYKER units."""
    return Not(army_has_psykers)


@rule("secondary/abhor-the-witch")
def abhor_the_witch(battle_round: Any, enemy_psyker_character_units_destroyed: Any,
                    other_enemy_psyker_units_destroyed: Any) -> Any:
    """Abhor the Witch at the end of the battle: 5 for each enemy PSYKER CHARACTER unit destroyed, 3 for each
    other enemy PSYKER unit destroyed."""
    return 5 * enemy_psyker_character_units_destroyed + 3 * other_enemy_psyker_units_destroyed


@rule("secondary/mental-interrogation")
def mental_interrogation_can_attempt(psyker: Any, character: Any, within_18_of_enemy_character: Any) -> Any:
    """Whether a unit may attempt Mental Interrogation in your Psychic phase: a PSYKER CHARACTER within 18" of any
    enemy CHARACTER model."""
    return And(psyker, character, within_18_of_enemy_character)


@rule("secondary/mental-interrogation")
def mental_interrogation(battle_round: Any) -> Any:
    """Mental Interrogation each time you complete the psychic action: 3."""
    return 3


@rule("secondary/psychic-ritual")
def psychic_ritual_can_attempt(psyker: Any, character: Any, within_6_of_centre: Any) -> Any:
    """Whether a unit may attempt Psychic Ritual in your Psychic phase: a PSYKER CHARACTER unit within 6" of the
    centre of the battlefield."""
    return And(psyker, character, within_6_of_centre)


@rule("secondary/psychic-ritual")
def psychic_ritual(battle_round: Any, psychic_ritual_completions: Any) -> Any:
    """Psychic Ritual at the end of the battle: 15 if your units completed the psychic action 3 times or more.

    Interpretation: psychic-ritual-any-units.
    """
    return If(psychic_ritual_completions >= 3, 15, 0)


PIERCE_THE_VEIL = DecisionTable(
    name="secondary-pierce-the-veil",
    refs=("secondary/pierce-the-veil",),
    inputs=(Var("pierce_the_veil_completions", 0, BATTLE_ROUNDS + 1),),
    # The pack prints the 2-or-more award first; "you can only score this objective once" makes the
    # 4-times award an exception to it, so it is matched first.
    rows=(
        Row("completed 4 times", lambda pierce_the_veil_completions: pierce_the_veil_completions >= 4, 15,
            overrides=("completed 2 or more times",)),
        Row("completed 2 or more times", lambda pierce_the_veil_completions: pierce_the_veil_completions >= 2, 8),
        Row("completed fewer than 2 times", lambda **_: True, 0, otherwise=True),
    ),
    notes={"order": "The 4-times row is printed second but overrides the 2-or-more row (scored only once)."},
)


@rule("secondary/pierce-the-veil")
def pierce_the_veil_can_attempt(psyker: Any, character: Any, within_6_of_opponent_battlefield_edge: Any,
                                more_than_6_from_enemy_models: Any) -> Any:
    """Whether a unit may attempt Pierce the Veil in your Psychic phase: a PSYKER CHARACTER within 6" of your
    opponent's battlefield edge and more than 6" from every enemy model."""
    return And(psyker, character, within_6_of_opponent_battlefield_edge, more_than_6_from_enemy_models)


@rule("secondary/pierce-the-veil")
def pierce_the_veil(battle_round: Any, pierce_the_veil_completions: Any) -> Any:
    """Pierce the Veil at the end of the battle, scored once: 15 if your units completed the psychic action 4
    times (or more), else 8 if 2 or more times.

    Interpretation: pierce-the-veil-at-least.
    """
    return PIERCE_THE_VEIL(pierce_the_veil_completions=pierce_the_veil_completions)


@rule("secondary/psychic-imprint")
def psychic_imprint_can_attempt(psyker: Any, character: Any, within_3_of_unscanned_opponent_terrain: Any) -> Any:
    """Whether a unit may attempt Psychic Imprint in your Psychic phase: a PSYKER CHARACTER within 3" of a terrain
    feature in your opponent's territory that has not been psychically scanned yet."""
    return And(psyker, character, within_3_of_unscanned_opponent_terrain)


@rule("secondary/psychic-imprint")
def psychic_imprint(battle_round: Any, psychic_imprint_completed_this_round: Any) -> Any:
    """Psychic Imprint at the end of the battle round: 2 if one or more of your units completed the psychic action
    this battle round.

    Interpretation: psychic-imprint-this-round.
    """
    return If(psychic_imprint_completed_this_round, 2, 0)


# --------------------------------------------------------------------------
# The registry

_TURN = (Timing.END_OF_TURN,)
_ROUND = (Timing.END_OF_BATTLE_ROUND,)
_ACTION = (Timing.ACTION_COMPLETED,)
_END = (Timing.END_OF_BATTLE,)

SECONDARIES = {item.name: item for item in (
    _register("engage-on-all-fronts", _TURN, engage_on_all_fronts, limits=(
        ("table_quarters_held", 4, "the battlefield has four table quarters ('wholly within each table quarter')"),)),
    _register("linebreaker", _TURN, linebreaker),
    _register("domination", _TURN, domination, limits=(
        ("objective_markers_controlled", "objective_markers_on_battlefield",
         "a player controls at most every objective marker on the battlefield"),)),
    _register("outright-domination", _END, outright_domination),
    _register("thin-their-ranks", _END, thin_their_ranks),
    _register("grind-them-down", _ROUND, grind_them_down),
    _register("while-we-stand-we-fight", _END, while_we_stand_we_fight),
    _register("targeted-destruction", _ROUND, targeted_destruction),
    _register("titan-hunter", _END, titan_hunter),
    _register("bring-it-down", _END, bring_it_down),
    _register("cut-off-the-head", _END, cut_off_the_head, limits=(
        ("enemy_warlord_destroyed_in_round", BATTLE_ROUNDS,
         f"a battle has {BATTLE_ROUNDS} battle rounds (0: the enemy WARLORD was not destroyed)"),)),
    _register("assassinate", _END, assassinate),
    _register("stronghold-denial", _END, stronghold_denial),
    _register("raise-the-banners-high", (Timing.END_OF_COMMAND_PHASE, Timing.END_OF_BATTLE), raise_the_banners_high),
    _register("investigate-sites", _ACTION, investigate_sites, action="Investigate Site"),
    _register("deploy-scramblers", _END, deploy_scramblers, action="Deploy Scramblers",
              completion_facts=("completed_in_your_deployment_zone", "completed_in_opponent_deployment_zone",
                                "completed_more_than_6_from_either_deployment_zone")),
    # Not excluded by the text: its action, started in the first battle round, is completed in the second.
    _register("teleport-homer", _ACTION, teleport_homer, action="Teleport Homer",
              first_round=action_completion_round("Teleport Homer", 1) == 1),
    # Each terrain feature with explosives had them planted by one completion ("that does not already have
    # explosives planted on it").
    _register("plant-demolition-charges", _END, plant_demolition_charges, action="Plant Demolitions",
              completion_facts=("opponent_territory_features_with_explosives",)),
    _register("abhor-the-witch", _END, abhor_the_witch, selectable=abhor_the_witch_selectable),
    _register("mental-interrogation", _ACTION, mental_interrogation, action="Mental Interrogation"),
    _register("psychic-ritual", _END, psychic_ritual, action="Psychic Ritual",
              completion_facts=("psychic_ritual_completions",)),
    _register("pierce-the-veil", _END, pierce_the_veil, action="Pierce the Veil",
              completion_facts=("pierce_the_veil_completions",)),
    _register("psychic-imprint", _ROUND, psychic_imprint, action="Psychic Imprint", limits=(
        ("psychic_imprint_completed_this_round", 1, "'One PSYKER CHARACTER from your army can attempt to perform this "
         "psychic action during your Psychic phase', one a battle round"),)),
)}

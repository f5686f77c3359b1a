"""Victory points: the objectives' registry, the caps of "Determine Victor" and a ledger that replays a game.

Every objective (the two primaries, the pack's secondaries, each mission's own secondary) is an
``Objective``: when it scores (``Timing``) and a pure function from the facts of that moment to
the victory points the text awards then. The ledger replays a list of scoring moments through
those functions and applies the caps: 45 from primaries, 15 from each secondary (so 45 from
the three), 90 from objectives, plus 10 for a Battle Ready army; "any excess victory points
awarded are discounted", so each award counts only up to what its caps leave.

The scoring functions are dual-mode (``rules.logic``): z3 proves the caps and the first-round
exclusions about these very functions.

The ledger also refuses a game that cannot have happened, each refusal one sentence naming the event: a
moment at a time its objective does not score, in the first battle round for an objective that "cannot be
scored in the first battle round" (``scored_in_round``), twice at one moment of a player's battle round (one
Command phase, one turn, one end of the battle round, one completion of each action: ``moments_in_a_battle_round``),
an End Game objective twice (``rules.missionpack.sequence.objective_may_score``), more completions of an action
than a battle has room for (``rules.missionpack.secondaries.completions_in_a_battle``), a player changing sides of
the map or standing on the opponent's (``rules.missionpack.missions.same_side_all_battle``, ``opposite_sides``),
a moment of a battle round after the round has ended (``moment_stage``), or a moment of a player's turn where no turn
of theirs can be: after the other player's turn of that round began, before a phase of their turn already recorded
(``moment_point``, ``moment_in_order``), or in a first turn that is not the same player's in every battle round
(``same_player_first``; the first player is the record's ``first_turn`` or, if it names none, the player whose turn
came first in the first battle round recording both turns). A count fact past what the text allows is refused too
(``Objective.limits``: four table quarters, two markers labelled A, five battle rounds, no more markers controlled than
there are); a count the text puts no number on (the markers of a deployment map, which the text lost; units and
models) is checked only to be a whole number 0-1000.
"""

from __future__ import annotations

import enum
import functools
import inspect
import typing
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from rules import spec
from rules.messages import cut, listed, shown
from rules.logic import And, If, Max, Min, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("missionpack")

BATTLE_ROUNDS = 5
PRIMARY_CAP = 45
SECONDARY_CAP = 15
SECONDARIES_SELECTED = 3
SECONDARIES_CAP = SECONDARY_CAP * SECONDARIES_SELECTED
OBJECTIVES_CAP = PRIMARY_CAP + SECONDARIES_CAP
BATTLE_READY_BONUS = 10
MAXIMUM_SCORE = OBJECTIVES_CAP + BATTLE_READY_BONUS
PLAYERS = ("attacker", "defender")


class Timing(str, enum.Enum):
    """When an objective scores, in the pack's words."""

    END_OF_COMMAND_PHASE = "end-of-command-phase"  # "at the end of each of your Command phases"
    END_OF_TURN = "end-of-turn"  # "at the end of your turn"
    END_OF_BATTLE_ROUND = "end-of-battle-round"  # "at the end of the battle round"
    ACTION_COMPLETED = "action-completed"  # "each time a unit ... successfully completes" an action
    END_OF_BATTLE = "end-of-battle"  # End Game objectives: "at the end of the battle"


class ScoringError(ValueError):
    """A game record that cannot be replayed; the message names the event or selection."""


@dataclass(frozen=True)
class Objective:
    """One primary or secondary objective: when it scores and what it awards at that moment.

    ``score(battle_round=..., **facts)`` returns the victory points of one scoring moment (a limit the
    text puts on one moment, "for a maximum of 7 victory points", is the score function's own);
    ``category`` is the secondary's category (one secondary per category); ``missions`` names the
    missions whose own secondary this is (empty for the pack's list); ``first_round`` is False where
    the objective cannot be scored in the first battle round, and the ledger then refuses a moment
    in it (``scored_in_round``). ``action`` is the action (as printed) whose completion scores the
    objective or whose completions its End Game facts count (``completion_facts``, at most
    ``secondaries.completions_in_a_battle`` in all); ``side_fact`` is the fact saying whether the
    scoring player is Player A, a side of the map that stays the same all battle. ``limits`` are the most a count
    fact can be where the text says: (fact, a number or another fact of the same moment counting the whole the fact
    counts a part of, the words of the refusal); the ledger refuses a moment past one.
    """

    name: str
    title: str
    ref: str
    kind: str  # "primary" or "secondary"
    timings: tuple[Timing, ...]
    score: Callable[..., Any]
    category: str | None = None
    missions: tuple[str, ...] = ()
    first_round: bool = True  # False: "cannot be scored in the first battle round"
    selectable: Callable[..., bool] | None = None  # an army the objective may not be chosen for
    action: str | None = None
    completion_facts: tuple[str, ...] = ()
    side_fact: str | None = None
    limits: tuple[tuple[str, int | str, str], ...] = ()

    def facts(self) -> tuple[str, ...]:
        """The facts a scoring moment must state: the score function's parameters besides the ones the ledger
        supplies (the battle round, and whether this is the end of the battle)."""
        return tuple(p for p in _parameters(self.score) if p not in LEDGER_FACTS)

    def inputs(self) -> tuple[str, ...]:
        """Every input of the score function besides the battle round (the facts and ``end_of_battle`` if read)."""
        return tuple(p for p in _parameters(self.score) if p != "battle_round")

    def award(self, event: "Event") -> Any:
        """The victory points of one scoring moment, with the facts the ledger supplies added."""
        supplied = {"battle_round": event.battle_round, "end_of_battle": event.timing is Timing.END_OF_BATTLE}
        wanted = _parameters(self.score)
        return self.score(**{k: v for k, v in supplied.items() if k in wanted}, **dict(event.facts))


@functools.lru_cache(maxsize=None)
def _parameters(function: Callable[..., Any]) -> tuple[str, ...]:
    return tuple(inspect.signature(function).parameters)


_TYPE_WORDS = {bool: "true or false", int: "a whole number", str: "a name", Any: "a whole number or true/false"}


@functools.lru_cache(maxsize=None)
def _fact_type(function: Callable[..., Any], fact: str) -> Any:
    """What a score function's fact is declared to be (bool, int, str, or Any for a count or flag)."""
    hint = typing.get_type_hints(function).get(fact, Any)
    return hint if hint in _TYPE_WORDS else Any


def _fits(value: Any, wanted: Any) -> bool:
    if wanted is bool:
        return isinstance(value, bool)
    if wanted is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if wanted is str:
        return isinstance(value, str)
    return isinstance(value, (int, bool))


OBJECTIVES: dict[str, Objective] = {}
LEDGER_FACTS = ("battle_round", "end_of_battle")  # facts the ledger supplies from the moment itself


def register(objective: Objective) -> Objective:
    """Add an objective to the registry (names are unique across primaries and secondaries)."""
    if objective.name in OBJECTIVES:
        raise ValueError(f"objective {objective.name!r} registered twice")
    OBJECTIVES[objective.name] = objective
    return objective


def objective(name: str) -> Objective:
    _load()
    if name not in OBJECTIVES:
        raise ScoringError(f"{shown(name)} is not an objective of the mission pack (known: {', '.join(sorted(OBJECTIVES))})")
    return OBJECTIVES[name]


def _load() -> None:
    from rules.missionpack import missions, secondaries  # noqa: F401  (they register their objectives)


def entries_with(attribute: str, value: str) -> tuple[str, ...]:
    """The pack's entries whose ingested attribute has a value (e.g. every mission whose primary is Take and Hold)."""
    return tuple(ref for ref, section in spec.sections("missionpack").items()
                 if (section.get("attributes") or {}).get(attribute) == value)


# --------------------------------------------------------------------------
# Caps


@rule("sequence/18-determine-victor", "secondaries/selecting")
def discounted_award(scored_so_far: Any, award: Any, cap: Any) -> Any:
    """How much of an award counts under a cap: the excess over what the cap leaves is discounted."""
    return Max(Min(award, cap - scored_so_far), 0)


@rule("battle-ready", "sequence/18-determine-victor")
def battle_ready_bonus(every_model_battle_ready: Any) -> Any:
    """10 victory points when every model in the army is painted to the Battle Ready standard, else none.

    Interpretation: battle-ready-not-battle-forged (the scoring sheet's note 6 says "Battle-forged").
    """
    return If(every_model_battle_ready, BATTLE_READY_BONUS, 0)


@rule("sequence/18-determine-victor", "scoring-sheet")
def final_score(primary: Any, secondaries: Any, battle_ready: Any) -> Any:
    """A player's victory points total: objective points within their caps, plus the Battle Ready bonus."""
    objectives = Min(Min(primary, PRIMARY_CAP) + Min(secondaries, SECONDARIES_CAP), OBJECTIVES_CAP)
    return objectives + battle_ready_bonus(battle_ready)


@rule("sequence/18-determine-victor")
def victor(attacker_score: Any, defender_score: Any) -> Any:
    """Who wins: 1 the Attacker, -1 the Defender, 0 a draw (the most victory points wins; a tie is a draw)."""
    return If(attacker_score > defender_score, 1, If(defender_score > attacker_score, -1, 0))


# --------------------------------------------------------------------------
# Primary objectives


@rule(*entries_with("primary", "take-and-hold"))
def take_and_hold(battle_round: Any, controlled: int, opponent_controlled: int) -> Any:
    """Take and Hold at the end of the active player's Command phase: 5 per condition met, at most 15, not in round 1."""
    points = (If(controlled >= 1, 5, 0) + If(controlled >= 2, 5, 0) + If(controlled > opponent_controlled, 5, 0))
    return If(battle_round == 1, 0, Min(points, 15))


@rule(*entries_with("primary", "domination"))
def domination(battle_round: Any, controlled: int, opponent_controlled: int) -> Any:
    """Domination at the end of the active player's Command phase: 5 per condition met, at most 15, not in round 1."""
    points = (If(controlled >= 2, 5, 0) + If(controlled >= 3, 5, 0) + If(controlled > opponent_controlled, 5, 0))
    return If(battle_round == 1, 0, Min(points, 15))


PRIMARIES = {
    "take-and-hold": register(Objective("take-and-hold", "Take and Hold", entries_with("primary", "take-and-hold")[0],
                                        "primary", (Timing.END_OF_COMMAND_PHASE,), take_and_hold,
                                        first_round=False)),
    "domination-primary": register(Objective("domination-primary", "Domination (primary)",
                                             entries_with("primary", "domination")[0], "primary",
                                             (Timing.END_OF_COMMAND_PHASE,), domination, first_round=False)),
}


# --------------------------------------------------------------------------
# How often an objective can score: what the ledger accepts

FIRST_ROUND_CLAUSE = "cannot be scored in the first battle round"
#: Every section that prints the clause: the eighteen primaries and nine missions' own secondaries.
FIRST_ROUND_EXCLUDED = tuple(ref for ref, section in spec.sections("missionpack").items()
                             if FIRST_ROUND_CLAUSE in (section.get("text") or ""))


@rule(*FIRST_ROUND_EXCLUDED)
def scored_in_round(first_round: Any, battle_round: Any) -> Any:
    """Whether an objective can be scored in a battle round: in any, unless its text says it "cannot be scored in
    the first battle round" (``first_round`` False); then only from the second.

    Interpretation: cannot-be-scored-is-refused (the ledger refuses such a moment rather than scoring it 0).
    """
    return Or(first_round, battle_round > 1)


#: For each kind of moment during the battle: how many of them one player has in a battle round, and the words a
#: refusal prints for it. Each objective scores at most once at each.
MOMENTS_IN_A_BATTLE_ROUND: dict[Timing, tuple[int, str]] = {
    # "In each battle round, both players have a turn" (the reprinted rules, line 2258), and a turn has one Command
    # phase; the primaries score "at the end of each player's Command phase".
    Timing.END_OF_COMMAND_PHASE: (1, "scores once at the end of each of a player's Command phases (one a battle "
                                     "round)"),
    Timing.END_OF_TURN: (1, "scores once at the end of each of a player's turns (one a battle round)"),
    Timing.END_OF_BATTLE_ROUND: (1, "scores once for a player at the end of each battle round"),
    # "the same action cannot be started by more than one unit from your army in the same battle round" (line
    # 2952); a psychic action: "One PSYKER CHARACTER from your army can attempt" it in your Psychic phase.
    Timing.ACTION_COMPLETED: (1, "can be completed once a battle round (one unit of a player's army performs it)"),
}


@rule("mission-objectives", "sequence/16-begin-the-battle")
def moments_in_a_battle_round(timing: Timing) -> int:
    """How many scoring moments of a kind one player has in a battle round, at each of which an objective scores at
    most once: one end of their Command phase, one end of their turn, one end of the battle round, one completion
    of each action. End Game moments are not counted by battle round: they come once, at the end of the battle.

    Interpretation: one-completion-a-battle-round.
    """
    return MOMENTS_IN_A_BATTLE_ROUND[timing][0]


class TurnPoint(enum.IntEnum):
    """The points of a player's turn at which the pack's objectives score and its actions start or complete, in the
    order of the turn's phases, "which must be resolved in the following order: 1. Command phase 2. Movement phase
    3. Psychic phase ..." (the reprinted rules, line 2258)."""

    END_OF_COMMAND_PHASE = 1
    START_OF_MOVEMENT_PHASE = 2
    END_OF_MOVEMENT_PHASE = 3
    PSYCHIC_PHASE = 4
    END_OF_TURN = 5


TURN_POINT_WORDS = {TurnPoint.END_OF_COMMAND_PHASE: "the end of the Command phase",
                    TurnPoint.START_OF_MOVEMENT_PHASE: "the start of the Movement phase",
                    TurnPoint.END_OF_MOVEMENT_PHASE: "the end of the Movement phase",
                    TurnPoint.PSYCHIC_PHASE: "the Psychic phase", TurnPoint.END_OF_TURN: "the end of the turn"}


#: The point of the turn at which a moment of that kind comes (an action's completion: where its action completes).
TURN_POINTS = {Timing.END_OF_COMMAND_PHASE: TurnPoint.END_OF_COMMAND_PHASE, Timing.END_OF_TURN: TurnPoint.END_OF_TURN}


@rule("mission-objectives", "sequence/16-begin-the-battle")
def moment_point(timing: Timing, action_completes_at: TurnPoint | None = None) -> TurnPoint:
    """The point of a player's turn at which a scoring moment comes: the end of their Command phase, the end of their
    turn, or, for an action's completion, the point its action names (``action_completes_at``): the end of the
    Command phase, the Psychic phase or the end of the turn."""
    if timing is Timing.ACTION_COMPLETED:
        if action_completes_at is None:
            raise ValueError("an action's completion comes where its action completes; none was given")
        return action_completes_at
    return TURN_POINTS[timing]


@rule("sequence/14-determine-first-turn", "sequence/16-begin-the-battle")
def moment_in_order(turn: Any, point: Any, last_turn: Any, last_point: Any) -> Any:
    """Whether a moment of a player's turn can follow the last turn moment recorded in the same battle round: both
    players have a turn, one after the other (``turn`` 1 is the round's first turn, 2 the second), so a moment is in a
    later turn, or in the same turn at the same point or a later one (the phases come in order). A moment of the
    first turn after one of the second is not: that turn had ended."""
    return Or(turn > last_turn, And(turn == last_turn, point >= last_point))


@rule("sequence/14-determine-first-turn")
def same_player_first(first_this_round: Any, first_before: Any) -> Any:
    """Whether the player who took the first turn of a battle round can be the one who took the first turn of an
    earlier one (or who the record says won step 14's choice): "The same player always takes the first turn in each
    battle round"."""
    return first_this_round == first_before


#: Where a moment falls in its battle round: during a player's turn, at the end of the battle round, or at the end of
#: the battle (after the last battle round has ended).
STAGES = {Timing.END_OF_COMMAND_PHASE: 0, Timing.ACTION_COMPLETED: 0, Timing.END_OF_TURN: 0,
          Timing.END_OF_BATTLE_ROUND: 1, Timing.END_OF_BATTLE: 2}


@rule("sequence/16-begin-the-battle", "sequence/17-ending-the-battle")
def moment_stage(timing: Timing) -> int:
    """Where a scoring moment falls in its battle round: 0 during a player's turn, 1 at the end of the battle round
    (after both players' turns), 2 at the end of the battle (after the fifth battle round has been completed)."""
    return STAGES[timing]


def moments_an_objective_scores(item: Objective) -> int:
    """How many moments one player can score an objective at in a battle: once at each of its moments in every
    battle round it may be scored in (``moments_in_a_battle_round``, ``scored_in_round``), and once at the end of
    the battle if it is an End Game objective. The ledger refuses any other moment."""
    rounds = sum(1 for battle_round in range(1, BATTLE_ROUNDS + 1) if scored_in_round(item.first_round, battle_round))
    during = sum(rounds * moments_in_a_battle_round(timing) for timing in item.timings
                 if timing is not Timing.END_OF_BATTLE)
    return during + (1 if Timing.END_OF_BATTLE in item.timings else 0)


@functools.lru_cache(maxsize=None)
def most_moments_in_a_battle() -> int:
    """More scoring moments than this no game can have, whatever the mission and selections: each player scores
    one primary and SECONDARIES_SELECTED secondaries, each at ``moments_an_objective_scores`` moments at most, so
    at most the primary and the secondaries with the most such moments (with the pack's objectives: Take and Hold
    4, Raise the Banners High 6, two others 5 each: 20 a player, 40 a game). A reader stops at the next moment."""
    _load()
    most = {kind: sorted((moments_an_objective_scores(item) for item in OBJECTIVES.values() if item.kind == kind),
                         reverse=True) for kind in ("primary", "secondary")}
    return len(PLAYERS) * (most["primary"][0] + sum(most["secondary"][:SECONDARIES_SELECTED]))


MISSION_SECONDARY_REFS = tuple(ref for ref in spec.sections("missionpack")
                               if ref.startswith("mission/") and ref.endswith("/secondary"))


@rule(*MISSION_SECONDARY_REFS)
def mission_secondary_chosen_at_most_once(times_chosen: Any) -> Any:
    """Whether a player's selection names a mission's own secondary objective an allowed number of times: players
    "can, if they wish, choose for one of them to be" it, so once at most."""
    return times_chosen <= 1


# --------------------------------------------------------------------------
# The ledger


@dataclass(frozen=True)
class Event:
    """One scoring moment: a player, a battle round, a timing, an objective and the facts the objective reads."""

    battle_round: int
    player: str
    timing: Timing
    objective: str
    facts: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Score:
    """One player's scoring sheet: points counted per objective and per battle round ("end" for End Game)."""

    player: str
    primary: str
    secondaries: tuple[str, ...]
    battle_ready: bool
    sheet: dict[str, dict[str, int]] = field(default_factory=dict)
    awarded: int = 0  # points the objectives awarded, before the caps
    discounted: int = 0  # points the caps discounted

    def objective_total(self, name: str) -> int:
        return sum(self.sheet.get(name, {}).values())

    @property
    def primary_total(self) -> int:
        return self.objective_total(self.primary)

    @property
    def secondaries_total(self) -> int:
        return sum(self.objective_total(name) for name in self.secondaries)

    @property
    def total(self) -> int:
        return final_score(self.primary_total, self.secondaries_total, self.battle_ready)


@dataclass(frozen=True)
class Game:
    """What a replay needs: the mission, each player's secondaries and Battle Ready army, and the moments."""

    mission: str
    secondaries: Mapping[str, tuple[str, ...]]
    battle_ready: Mapping[str, bool]
    events: tuple[Event, ...]
    conceded: str | None = None
    army_has_psykers: Mapping[str, bool] = field(default_factory=dict)
    first_turn: str | None = None  # the player who takes the first turn of every battle round (step 14), if stated
    objective_markers: int | None = None  # how many the mission's deployment map sets up (step 7), if stated


#: Count facts that count objective markers on the battlefield: none can exceed how many the map sets up.
MARKER_COUNTS = ("controlled", "opponent_controlled", "objective_markers_controlled", "objective_markers_on_battlefield",
                 "objective_markers_with_your_banner", "markers_a_controlled", "markers_controlled_in_opponent_territory",
                 "markers_controlled_in_own_territory", "markers_controlled_outside_deployment_zones",
                 "markers_controlled_outside_territories", "qualifying_markers_controlled",
                 "qualifying_markers_in_own_territory")


def _marker_counts(where: str, facts: Mapping[str, Any], markers: int | None) -> None:
    """Step 7: "Each mission's deployment map will show the players how many [objective markers] to set up": the
    maps are pictures the text lost, so a record states the number (``objective_markers``) for it to be checked.
    Then no count of markers is more than that, and the markers the two players control together are no more
    either (a marker is controlled by one player at most)."""
    if markers is None:
        return
    for fact in MARKER_COUNTS:
        if isinstance(facts.get(fact), int) and not isinstance(facts[fact], bool) and facts[fact] > markers:
            raise ScoringError(f"{where}: fact {fact!r} is {facts[fact]}, but the record's map sets up "
                               f"{markers} objective markers")
    both = facts.get("controlled", 0) + facts.get("opponent_controlled", 0)
    if both > markers:
        raise ScoringError(f"{where}: the players control {both} objective markers between them, but the record's "
                           f"map sets up {markers} (a marker is controlled by one player at most)")


def _round_key(event: Event) -> str:
    return "end" if event.timing is Timing.END_OF_BATTLE else str(event.battle_round)


@rule("sequence/11-select-secondary-objectives", "secondaries/selecting")
def check_selection(mission: str, chosen: tuple[str, ...], army_has_psykers: bool = False) -> None:
    """Three different secondaries, at most one per category, mission secondaries only from this mission.

    Raises ``ScoringError`` naming the choice that breaks the rule.
    """
    from rules.missionpack import missions

    for name in dict.fromkeys(chosen):
        if name in OBJECTIVES and OBJECTIVES[name].missions and not mission_secondary_chosen_at_most_once(
                chosen.count(name)):
            raise ScoringError(f"{shown(name)} is chosen {chosen.count(name)} times: a mission's own secondary objective "
                               "can be chosen for only one of a player's three secondary objectives")
    if len(chosen) != SECONDARIES_SELECTED or len(set(chosen)) != SECONDARIES_SELECTED:
        raise ScoringError(f"a player selects three different secondary objectives, not {listed(chosen)}")
    categories: dict[str, str] = {}
    for name in chosen:
        item = objective(name)
        if item.kind != "secondary":
            raise ScoringError(f"{shown(name)} is a primary objective, not a secondary one")
        if item.missions and mission not in item.missions:
            raise ScoringError(f"{shown(name)} is the secondary objective of the mission(s) {', '.join(item.missions)}, "
                               f"not of {missions.mission(mission).title!r}")
        if item.selectable is not None and not item.selectable(army_has_psykers=army_has_psykers):
            raise ScoringError(f"{shown(name)} cannot be selected by this army")
        if item.category is not None:
            if item.category in categories:
                raise ScoringError(f"{shown(categories[item.category])} and {shown(name)} are both {item.category} objectives; "
                                   "a player cannot choose more than one from each category")
            categories[item.category] = name


@rule("sequence/11-select-secondary-objectives", "secondaries/selecting")
def legal_selection(mission: str, chosen: tuple[str, ...], army_has_psykers: bool = False) -> bool:
    """Whether a player may select these secondary objectives for this mission (see ``check_selection``)."""
    try:
        check_selection(mission, tuple(chosen), army_has_psykers)
    except ScoringError:
        return False
    return True


def replay(game: Game) -> dict[str, Score]:
    """Replay a game's scoring moments in order and return each player's scoring sheet, caps applied.

    A moment the game cannot have had is refused (``ScoringError``, one sentence naming the event): see the
    module's docstring. A conceding player scores 0 (sequence/ending-the-battle-early); see ``result``.
    """
    from rules.missionpack import missions

    mission = missions.mission(game.mission)
    scores: dict[str, Score] = {}
    for player in PLAYERS:
        chosen = tuple(game.secondaries.get(player, ()))
        check_selection(game.mission, chosen, bool(game.army_has_psykers.get(player, False)))
        scores[player] = Score(player, mission.primary, chosen, bool(game.battle_ready.get(player, False)))
    if game.first_turn is not None and game.first_turn not in PLAYERS:
        raise ScoringError(f"first_turn must be the attacker or the defender, not {game.first_turn!r}")
    last = (0, 0)
    seen = _Moments(game.first_turn)
    for index, event in enumerate(game.events, 1):
        where = f"event {index} ({cut(event.objective, 40)}, battle round {event.battle_round}, {cut(event.player, 40)})"
        if event.player not in PLAYERS:
            raise ScoringError(f"{where}: the player must be the attacker or the defender")
        if not 1 <= event.battle_round <= BATTLE_ROUNDS:
            raise ScoringError(f"{where}: a battle lasts {BATTLE_ROUNDS} battle rounds")
        order = (event.battle_round, moment_stage(event.timing))
        if order < last:
            raise ScoringError(f"{where}: the moments must be in the order they happen (a battle round ends after "
                               "both players' turns, the battle after the last battle round)")
        last = order
        if event.timing is Timing.END_OF_BATTLE and event.battle_round != BATTLE_ROUNDS:
            raise ScoringError(f"{where}: End Game objectives score at the end of the battle, after round "
                               f"{BATTLE_ROUNDS}")
        score = scores[event.player]
        try:
            item = objective(event.objective)
        except ScoringError as error:
            raise ScoringError(f"{where}: {error}") from None
        if item.name != score.primary and item.name not in score.secondaries:
            raise ScoringError(f"{where}: {event.player} did not select {shown(event.objective)}")
        if event.timing not in item.timings:
            raise ScoringError(f"{where}: {item.title} scores {' or '.join(t.value for t in item.timings)}, "
                               f"not {event.timing.value}")
        missing = set(item.facts()) - set(event.facts)
        unknown = set(event.facts) - set(item.facts())
        if missing or unknown:
            raise ScoringError(f"{where}: {item.title} needs the facts {listed(item.facts())}"
                               + (f"; missing {listed(missing)}" if missing else "")
                               + (f"; unknown {listed(unknown)}" if unknown else ""))
        for fact, value in event.facts.items():
            wanted = _fact_type(item.score, fact)
            if not _fits(value, wanted):
                raise ScoringError(f"{where}: fact {shown(fact)} must be {_TYPE_WORDS[wanted]}, not {shown(value)}")
        _marker_counts(where, event.facts, game.objective_markers)
        for fact, most, why in item.limits:
            bound = event.facts[most] if isinstance(most, str) else most
            if event.facts[fact] > bound:
                said = f"{most} ({bound})" if isinstance(most, str) else str(bound)
                raise ScoringError(f"{where}: fact {fact!r} is {shown(event.facts[fact])}, more than {said}: {why}")
        seen.check(index, where, event, item)
        try:
            award = item.award(event)
        except (TypeError, ValueError, KeyError, LookupError) as error:
            raise ScoringError(f"{where}: {item.title} cannot be scored with these facts ({error})") from None
        cap = PRIMARY_CAP if item.kind == "primary" else SECONDARY_CAP
        counted = discounted_award(score.objective_total(item.name), award, cap)
        score.sheet.setdefault(item.name, {})
        key = _round_key(event)
        score.sheet[item.name][key] = score.sheet[item.name].get(key, 0) + counted
        score.awarded += award
        score.discounted += award - counted
    return scores


class _Moments:
    """What the ledger has seen of a game so far, to refuse a moment the game cannot have had (see ``replay``)."""

    def __init__(self, first_turn: str | None = None) -> None:
        self.scored: dict[tuple[str, str, int, Timing], list[int]] = {}  # (player, objective, round, timing) -> events
        self.ended: dict[tuple[str, str], int] = {}  # (player, End Game objective) -> the event that scored it
        self.sides: dict[str, tuple[int, Any]] = {}  # player -> (event, whether they are Player A)
        self.turns: dict[int, list[tuple[str, int]]] = {}  # round -> (player, their turn's first event), in order
        self.latest: dict[int, tuple[int, TurnPoint, int]] = {}  # round -> (turn, point, event) of its last turn moment
        # Who takes the first turn of every battle round, and where the record says so.
        self.first = None if first_turn is None else (first_turn, f"the record says the {first_turn} takes it")

    def check(self, index: int, where: str, event: Event, item: Objective) -> None:
        from rules.missionpack import missions, secondaries, sequence

        if moment_stage(event.timing) == 0:
            self.check_turn(index, where, event, item, secondaries)
        if not scored_in_round(item.first_round, event.battle_round):
            raise ScoringError(f"{where}: {item.title} {FIRST_ROUND_CLAUSE}")
        end = event.timing is Timing.END_OF_BATTLE
        kind = sequence.objective_type_from_timing(any(t is not Timing.END_OF_BATTLE for t in item.timings),
                                                   Timing.END_OF_BATTLE in item.timings)
        before = self.ended.get((event.player, item.name))
        if not sequence.objective_may_score(kind, end, before is not None):
            raise ScoringError(f"{where}: {item.title} scores once at the end of the battle, and event {before} "
                               "already scored it")
        if end:
            self.ended[(event.player, item.name)] = index
        else:
            earlier = self.scored.setdefault((event.player, item.name, event.battle_round, event.timing), [])
            if len(earlier) >= moments_in_a_battle_round(event.timing):
                action = event.timing is Timing.ACTION_COMPLETED
                raise ScoringError(f"{where}: {item.action if action and item.action else item.title} "
                                   f"{MOMENTS_IN_A_BATTLE_ROUND[event.timing][1]}, and event {earlier[0]} already "
                                   f"{'completed' if action else 'scored'} it in battle round {event.battle_round}")
            earlier.append(index)
        if item.completion_facts:
            done = sum(int(event.facts[fact]) for fact in item.completion_facts)
            most = secondaries.completions_in_a_battle(item.action)
            if done > most:
                raise ScoringError(f"{where}: {item.action} can be completed at most {most} times in a battle (by one "
                                   f"unit a battle round), not {done}")
        if item.side_fact is not None:
            self.check_side(index, where, event, event.facts[item.side_fact], missions)

    def check_turn(self, index: int, where: str, event: Event, item: Objective, secondaries: Any) -> None:
        """Refuse a moment of a player's turn that comes where no turn of theirs can be: after the other player's turn
        of the same battle round began, before a point of their turn already recorded, or in a first turn that is
        not the same player's in every battle round."""
        action = secondaries.action_completion_point(item.action) if event.timing is Timing.ACTION_COMPLETED else None
        point = moment_point(event.timing, action)
        turns = self.turns.setdefault(event.battle_round, [])
        players = [player for player, _ in turns]
        if event.player not in players:
            turns.append((event.player, index))
            players.append(event.player)
        turn = players.index(event.player) + 1
        last_turn, last_point, last_index = self.latest.get(event.battle_round, (turn, point, index))
        if not moment_in_order(turn, point, last_turn, last_point):
            if turn < last_turn:
                other, began = turns[last_turn - 1]
                raise ScoringError(f"{where}: the {event.player}'s turn of battle round {event.battle_round} had ended "
                                   f"when the {other}'s began (event {began}); in each battle round, both players "
                                   "have a turn, one after the other")
            raise ScoringError(f"{where}: the {event.player}'s turn reached {TURN_POINT_WORDS[last_point]} at event "
                               f"{last_index}, and {TURN_POINT_WORDS[point]} comes before it: a turn's phases are "
                               "resolved in order")
        self.latest[event.battle_round] = (turn, point, index)
        if turn == 2 and turns[1][1] == index:  # the battle round's second turn begins: its first turn is known
            first, at = turns[0]
            said = f"the {first} took the first turn of battle round {event.battle_round} (event {at})"
            if self.first is None:
                self.first = (first, said)
            elif not same_player_first(first, self.first[0]):
                raise ScoringError(f"{where}: {said}, but {self.first[1]}: the same player always takes the first "
                                   "turn in each battle round")

    def check_side(self, index: int, where: str, event: Event, player_a: Any, missions: Any) -> None:
        own = self.sides.setdefault(event.player, (index, player_a))
        if not missions.same_side_all_battle(player_a, own[1]):
            raise ScoringError(f"{where}: the {event.player} is Player {'A' if own[1] else 'B'} at event {own[0]} and "
                               f"cannot be Player {'A' if player_a else 'B'} now: a player's side of the map is the "
                               "same all battle")
        opponent = next(p for p in PLAYERS if p != event.player)
        theirs = self.sides.get(opponent)
        if theirs is not None and not missions.opposite_sides(player_a, theirs[1]):
            raise ScoringError(f"{where}: the {opponent} is Player {'A' if theirs[1] else 'B'} at event {theirs[0]}, "
                               f"so the {event.player} cannot be Player {'A' if player_a else 'B'} too: the players "
                               "deploy on opposite sides of the map")


@rule("sequence/18-determine-victor", "sequence/ending-the-battle-early")
def result(game: Game) -> dict[str, Any]:
    """Each player's total and the result: the most victory points wins; a player who concedes scores 0 and loses."""
    scores = replay(game)
    totals = {player: scores[player].total for player in PLAYERS}
    if game.conceded is not None:
        if game.conceded not in PLAYERS:
            raise ScoringError(f"conceded must be the attacker or the defender, not {shown(game.conceded)}")
        totals[game.conceded] = 0
        winner = next(p for p in PLAYERS if p != game.conceded)
    else:
        outcome = victor(totals["attacker"], totals["defender"])
        winner = {1: "attacker", -1: "defender", 0: "draw"}[outcome]
    return {"totals": totals, "winner": winner,
            "sheets": {player: {name: dict(rounds) for name, rounds in scores[player].sheet.items()} for player in PLAYERS}}


def read_game(data: Mapping[str, Any], name: str = "<game>") -> Game:
    """A game record from plain data (YAML/JSON), every field checked; errors name the place."""
    if not isinstance(data, Mapping):
        raise ScoringError(f"{name}: a game is a mapping with mission, players and events")
    allowed = {"mission", "players", "events", "conceded", "first_turn", "objective_markers"}
    unknown = set(data) - allowed
    if unknown:
        raise ScoringError(f"{name}: unknown keys {listed(unknown)} (expected {listed(allowed)})")
    moments = data.get("events")  # not ``listed``: that names the message helper the checks below call
    if moments is not None and not isinstance(moments, list):
        raise ScoringError(f"{name}: events must be a list of scoring moments, not {shown(moments)}")
    moments = moments or []
    most = most_moments_in_a_battle()
    if len(moments) > most and not {"mission", "players"} <= set(data):
        raise _too_many_moments(name, most)  # a reader that stopped at the list lost the keys after it
    players = data.get("players")
    if not isinstance(players, Mapping) or set(players) != set(PLAYERS):
        raise ScoringError(f"{name}: players must name exactly the attacker and the defender")
    if not isinstance(data.get("mission"), str):
        raise ScoringError(f"{name}: mission must name the mission played (its slug, such as seize-ground), not "
                           f"{shown(data.get('mission'))}")
    secondaries, ready, psykers = {}, {}, {}
    for player, entry in players.items():
        if not isinstance(entry, Mapping) or not isinstance(entry.get("secondaries"), list):
            raise ScoringError(f"{name}: players.{player} needs a list of secondaries")
        extra = set(entry) - {"secondaries", "battle_ready", "army_has_psykers"}
        if extra:
            raise ScoringError(f"{name}: players.{player}: unknown keys {listed(extra)}")
        secondaries[player] = tuple(str(s) for s in entry["secondaries"])
        for key, store in (("battle_ready", ready), ("army_has_psykers", psykers)):
            value = entry.get(key, False)
            if not isinstance(value, bool):
                raise ScoringError(f"{name}: players.{player}.{key} must be true or false")
            store[player] = value
    events = []
    for index, raw in enumerate(moments[:most + 1], 1):
        where = f"{name}: events[{index}]"
        if not isinstance(raw, Mapping):
            raise ScoringError(f"{where} is not a mapping")
        extra = set(raw) - {"round", "player", "when", "objective", "facts"}
        if extra:
            raise ScoringError(f"{where}: unknown keys {listed(extra)}")
        try:
            timing = Timing(raw.get("when"))
        except ValueError:
            raise ScoringError(f"{where}: when must be one of {[t.value for t in Timing]}") from None
        battle_round = raw.get("round")
        if isinstance(battle_round, bool) or not isinstance(battle_round, int):
            raise ScoringError(f"{where}: round must be a whole number from 1 to {BATTLE_ROUNDS}")
        facts = raw.get("facts") or {}
        if not isinstance(facts, Mapping):
            raise ScoringError(f"{where}: facts must be a mapping")
        for key, value in facts.items():
            if not (isinstance(value, (bool, int, str))) or (isinstance(value, int) and not isinstance(value, bool)
                                                             and not 0 <= value <= 1000):
                raise ScoringError(f"{where}: fact {shown(key)} must be true/false, a name or a whole number 0-1000")
        events.append(Event(battle_round, str(raw.get("player")), timing, str(raw.get("objective")), dict(facts)))
    conceded = data.get("conceded")
    first_turn = data.get("first_turn")
    if first_turn is not None and first_turn not in PLAYERS:
        raise ScoringError(f"{name}: first_turn must be the attacker or the defender (who took the first turn of "
                           f"every battle round), not {shown(first_turn)}")
    markers = data.get("objective_markers")
    if markers is not None and (isinstance(markers, bool) or not isinstance(markers, int) or not 1 <= markers <= 1000):
        raise ScoringError(f"{name}: objective_markers (how many the mission's deployment map sets up) must be a whole "
                           f"number from 1 to 1000, not {shown(markers)}")
    game = Game(str(data.get("mission")), secondaries, ready, tuple(events[:most]),
                None if conceded is None else str(conceded), psykers, first_turn, markers)
    if len(events) > most:
        replay(game)  # an earlier moment's own refusal comes first
        raise _too_many_moments(name, most)
    return game


def _too_many_moments(name: str, most: int) -> ScoringError:
    return ScoringError(f"{name}: events[{most + 1}]: a battle has room for at most {most} scoring moments (each "
                        "player's primary and three secondaries, each scored at most once at each moment it scores "
                        "at), so this one and any after it cannot have happened")


SHEET_ROWS = ("1", "2", "3", "4", "5", "End Game")


@rule("sequence/ending-the-battle-early", "scoring-sheet")
def conceded_points(points: Any, conceded: Any) -> Any:
    """What a number on a player's scoring sheet counts for when the battle is over: nothing if the player conceded
    (they score "0 victory points for that battle"), else the number itself.

    Interpretation: conceded-sheet-shows-zero.
    """
    return If(conceded, 0, points)


@rule("scoring-sheet", "scoring-sheet/blank")
def scoring_sheet(game: Game) -> dict[str, Any]:
    """The mission scoring sheet filled in from a replay: per player, the points of each battle round and the
    End Game row for the primary and the three secondaries, the objective totals (out of 45 and 15), the
    Battle Ready score, the total out of 100, whether they conceded; then the result. A player who conceded
    has 0 in every cell, as in their total."""
    from rules.missionpack import missions

    mission = missions.mission(game.mission)
    outcome = result(game)
    scores = replay(game)
    sheet: dict[str, Any] = {"battle_size": mission.battle_size, "mission": mission.title}
    for player in PLAYERS:
        score = scores[player]
        conceded = game.conceded == player
        columns = (score.primary, *score.secondaries)
        rows = {row: {name: conceded_points(score.sheet.get(name, {}).get("end" if row == "End Game" else row, 0),
                                            conceded) for name in columns}
                for row in SHEET_ROWS}
        sheet[player] = {
            "primary": objective(score.primary).title,
            "secondaries": [objective(name).title for name in score.secondaries],
            "rounds": rows,
            "objective_totals": {name: conceded_points(score.objective_total(name), conceded) for name in columns},
            "battle_ready_score": conceded_points(battle_ready_bonus(score.battle_ready), conceded),
            "total": outcome["totals"][player],
            "conceded": conceded,
        }
    sheet["result"] = {"attacker": "Attacker wins", "defender": "Defender wins", "draw": "Draw"}[outcome["winner"]]
    return sheet


@rule("scoring-sheet", "scoring-sheet/blank")
def sheet_from_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring sheet of a game written as plain data (what ``rules40k score`` reads)."""
    return scoring_sheet(read_game(record))


@rule("scoring-sheet", "mission-objectives")
def refusal(record: Mapping[str, Any]) -> str | None:
    """The one sentence a game record (what ``rules40k score`` reads) is refused with, or None if the ledger accepts
    it and fills in its scoring sheet."""
    try:
        sheet_from_record(record)
    except ScoringError as error:
        return str(error)
    return None

"""Hypothesis strategies for mission pack games as the ledger (``rules.missionpack.scoring.replay``) reads them.

``games`` draws a game that could have happened: a mission, legal secondary selections, and scoring moments in
the order they happen (each player's Command phase, completed action and turn end, then the end of the battle
round, for five rounds; then the end of the battle), each moment kept or left out at random (a record may leave
out a moment that scored nothing), with facts in the range the text allows; the same player takes the first turn
of every battle round, and the record sometimes says who (``first_turn``). ``impossible_games`` draws a game with one
thing no game can have, and says which event the ledger must refuse and why.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import replace

from hypothesis import assume
from hypothesis import strategies as st

from rules.missionpack import missions, scoring, secondaries
from rules.missionpack.scoring import Event, Game, Timing

MARKERS = 6  # objective markers on the battlefield in the games drawn here
BOUNDS = {  # facts with a narrower range than a count of 0-12
    "enemy_warlord_destroyed_in_round": (0, scoring.BATTLE_ROUNDS),
    "table_quarters_held": (0, 4),
    "controlled": (0, MARKERS),
    "opponent_controlled": (0, MARKERS),
    "objective_markers_on_battlefield": (MARKERS, MARKERS),
    # completions of an action: once a battle round at most (5; 4 for Plant Demolitions), the three places of
    # Deploy Scramblers together too
    "psychic_ritual_completions": (0, scoring.BATTLE_ROUNDS),
    "pierce_the_veil_completions": (0, scoring.BATTLE_ROUNDS),
    "opponent_territory_features_with_explosives": (0, scoring.BATTLE_ROUNDS - 1),
    "completed_in_your_deployment_zone": (0, 1),
    "completed_in_opponent_deployment_zone": (0, 2),
    "completed_more_than_6_from_either_deployment_zone": (0, 2),
}


def fact_values(item: scoring.Objective, name: str) -> st.SearchStrategy:
    """Values of one fact, by the score function's annotation: true/false, a marker label, or a count."""
    return _fact_values(item.score, name)


@functools.lru_cache(maxsize=None)
def _fact_values(score, name: str) -> st.SearchStrategy:
    """Kept per score function: reading a signature for every fact of every drawn game was a tenth of the time."""
    annotation = inspect.signature(score).parameters[name].annotation
    if annotation in (bool, "bool"):
        return st.booleans()
    if annotation in (str, "str"):
        return st.sampled_from("ABCD")  # the marker labels every action table prints
    low, high = BOUNDS.get(name, (0, 12))
    return st.integers(low, high)


def within_limits(item: scoring.Objective, facts: dict) -> dict:
    """Drawn facts brought within what the text allows a count to be (``Objective.limits``: a number, or another fact
    counting the whole), so a game drawn as legal is one: past a limit the ledger refuses the moment."""
    out = dict(facts)
    for fact, most, _ in item.limits:
        out[fact] = min(out[fact], out[most] if isinstance(most, str) else most)
    return out


def _eligible(mission: str, has_psykers: bool) -> list[str]:
    scoring._load()
    return sorted(name for name, item in scoring.OBJECTIVES.items() if item.kind == "secondary"
                  and (not item.missions or mission in item.missions)
                  and (item.selectable is None or item.selectable(army_has_psykers=has_psykers)))


@st.composite
def selections(draw, *, mission: str, has_psykers: bool = False, including: str | None = None) -> tuple[str, ...]:
    """Three secondaries a player may choose for ``mission``: the pack's and this mission's, one per category
    (``including`` one of them, if given)."""
    order = list(draw(st.permutations(_eligible(mission, has_psykers))))
    if including is not None:
        order.remove(including)
        order.insert(0, including)
    chosen, categories = [], set()
    for name in order:
        category = scoring.OBJECTIVES[name].category
        if category is not None and category in categories:
            continue
        chosen.append(name)
        categories.add(category)
        if len(chosen) == scoring.SECONDARIES_SELECTED:
            break
    return tuple(chosen)


#: Where each kind of completion comes in the turn, worked out here from the printed words (not asked of the ledger's
#: ``action_completion_point``, which a test breaks on purpose): at the end of the (next) Command phase, in the
#: Psychic phase after it, at the end of the turn.
COMPLETION_ORDER = {secondaries.Completes.END_OF_NEXT_COMMAND_PHASE: 0, secondaries.Completes.WHEN_PERFORMED: 1,
                    secondaries.Completes.END_OF_TURN: 2}


def in_turn_order(names, timing: Timing) -> list[str]:
    """Objectives scoring at one kind of moment, in the order their moments come in a turn: actions' completions by
    where their action completes (the rest keep their order)."""
    if timing is not Timing.ACTION_COMPLETED:
        return list(names)
    def order(name: str) -> int:
        action = scoring.OBJECTIVES[name].action
        return COMPLETION_ORDER[secondaries.action(action).completes] if action else 0
    return sorted(names, key=order)


def schedule(first: str) -> list[tuple[int, str, Timing]]:
    """Every scoring moment of a battle in order: each player's Command phase, actions and turn end, then the round's
    end, for five rounds; then the end of the battle."""
    second = next(p for p in scoring.PLAYERS if p != first)
    moments = []
    for battle_round in range(1, scoring.BATTLE_ROUNDS + 1):
        for player in (first, second):
            moments += [(battle_round, player, Timing.END_OF_COMMAND_PHASE),
                        (battle_round, player, Timing.ACTION_COMPLETED),
                        (battle_round, player, Timing.END_OF_TURN)]
        moments += [(battle_round, player, Timing.END_OF_BATTLE_ROUND) for player in (first, second)]
    moments += [(scoring.BATTLE_ROUNDS, player, Timing.END_OF_BATTLE) for player in (first, second)]
    return moments


@st.composite
def games(draw, *, mission_slugs: tuple[str, ...] | None = None, including: dict[str, str] | None = None,
          concede: bool = False) -> Game:
    """A game that could have happened (see the module's docstring), in one of ``mission_slugs`` (default: any),
    each player's selection ``including`` the objective named for them; with ``concede``, one player may have
    conceded."""
    mission = draw(st.sampled_from(sorted(mission_slugs or missions.MISSIONS)), label="mission")
    psykers = {p: draw(st.booleans(), label=f"{p} has psykers") for p in scoring.PLAYERS}
    chosen = {p: draw(selections(mission=mission, has_psykers=psykers[p], including=(including or {}).get(p)),
                      label=f"{p} selects") for p in scoring.PLAYERS}
    ready = {p: draw(st.booleans(), label=f"{p} battle ready") for p in scoring.PLAYERS}
    sides: dict[str, bool] = {}
    events: list[Event] = []
    primary = missions.mission(mission).primary
    first = draw(st.sampled_from(scoring.PLAYERS), label="first turn")
    for battle_round, player, timing in schedule(first):
        for name in in_turn_order((primary, *chosen[player]), timing):
            item = scoring.OBJECTIVES[name]
            if timing not in item.timings or not scoring.scored_in_round(item.first_round, battle_round):
                continue
            if not draw(st.booleans(), label=f"round {battle_round} {player} {timing.value} {name}"):
                continue
            facts = within_limits(item, {fact: draw(fact_values(item, fact), label=fact) for fact in item.facts()})
            if item.side_fact is not None:  # a side of the map: the same all battle, the opponent on the other
                side = sides.setdefault(player, not sides[_other(player)] if _other(player) in sides
                                        else facts[item.side_fact])
                facts[item.side_fact] = side
            events.append(Event(battle_round, player, timing, name, facts))
    conceded = draw(st.sampled_from((None, *scoring.PLAYERS)), label="conceded") if concede else None
    stated = draw(st.booleans(), label="first turn stated")
    return Game(mission, chosen, ready, tuple(events), conceded, psykers, first if stated else None)


def _other(player: str) -> str:
    return next(p for p in scoring.PLAYERS if p != player)


# -- Games no battle can have ----------------------------------------------------------------------------------------

#: What an impossible game gets wrong, and words the ledger's refusal must contain.
IMPOSSIBLE = {
    "a moment scored twice": "already",
    "an End Game objective scored twice": "scores once at the end of the battle",
    "more completions than a battle has rounds for": "can be completed at most",
    "a player changing sides of the map": "the same all battle",
    "both players on one side of the map": "opposite sides of the map",
    "a moment in the first battle round that cannot be scored in it": "cannot be scored in the first battle round",
    "a turn's moment after the battle round ended": "in the order they happen",
    "a mission's own secondary chosen twice": "can be chosen for only one",
    "a player's moment after the other player's turn began": "had ended when",
    "a moment before a point of its turn already recorded": "a turn's phases are resolved in order",
    "the first turn taken by different players": "the same player always takes the first turn",
}

SIDE_OBJECTIVES = {"seize-ground": "seize-ground", "forward-outpost": "forward-push", "aggressive-strike": "hard-push"}
COMPLETION_COUNTED = tuple(sorted(name for name, item in secondaries.SECONDARIES.items() if item.completion_facts))


@st.composite
def impossible_games(draw, *, what: str | None = None) -> tuple[Game, str, int | None]:
    """A game with one impossibility (``what``, a key of ``IMPOSSIBLE``; any if None): ``(game, what, event)``,
    ``event`` being the number (1 for the first) of the event the ledger must refuse, or None for a selection."""
    what = what or draw(st.sampled_from(sorted(IMPOSSIBLE)), label="impossible")
    if what == "a moment scored twice":
        game = draw(games())
        during = [i for i, e in enumerate(game.events) if e.timing is not Timing.END_OF_BATTLE]
        assume(during)
        i = draw(st.sampled_from(during))
        return _with(game, i + 1, game.events[i]), what, i + 2
    if what == "an End Game objective scored twice":
        game = draw(games())
        ends = [e for e in game.events if e.timing is Timing.END_OF_BATTLE]
        assume(ends)
        return _with(game, len(game.events), draw(st.sampled_from(ends))), what, len(game.events) + 1
    if what == "more completions than a battle has rounds for":
        name = draw(st.sampled_from(COMPLETION_COUNTED))
        game = draw(games(including={"attacker": name}))
        item = scoring.OBJECTIVES[name]
        facts = within_limits(item, {fact: draw(fact_values(item, fact)) for fact in item.facts()})
        # Once a battle round, in each round where an action started then is completed (worked out here, not
        # asked of the ledger's completions_in_a_battle, which a test breaks on purpose).
        most = sum(1 for start in range(1, scoring.BATTLE_ROUNDS + 1)
                   if secondaries.action_completion_round(item.action, start) != secondaries.NEVER)
        excess = most + draw(st.integers(1, 3)) - sum(facts[f] for f in item.completion_facts)
        first = item.completion_facts[0]
        facts[first] = facts[first] + excess
        kept = tuple(e for e in game.events if (e.player, e.objective) != ("attacker", name))
        event = Event(scoring.BATTLE_ROUNDS, "attacker", Timing.END_OF_BATTLE, name, facts)
        return replace(game, events=(*kept, event)), what, len(kept) + 1
    if what in ("a player changing sides of the map", "both players on one side of the map"):
        mission = draw(st.sampled_from(sorted(SIDE_OBJECTIVES)))
        name = SIDE_OBJECTIVES[mission]
        game = draw(games(mission_slugs=(mission,), including={p: name for p in scoring.PLAYERS}))
        marked = [i for i, e in enumerate(game.events) if e.objective == name]
        if what == "a player changing sides of the map":
            player = draw(st.sampled_from(scoring.PLAYERS))
            own = [i for i in marked if game.events[i].player == player]
            assume(len(own) >= 2)
            i = draw(st.sampled_from(own[1:]))
        else:
            firsts = {}
            for i in marked:
                firsts.setdefault(game.events[i].player, i)
            assume(len(firsts) == 2)
            i = max(firsts.values())
        events = list(game.events)
        event = events[i]
        flipped = {**event.facts, missions.PLAYER_A: not event.facts[missions.PLAYER_A]}
        events[i] = replace(event, facts=flipped)
        return replace(game, events=tuple(events)), what, i + 1
    if what == "a moment in the first battle round that cannot be scored in it":
        game = draw(games())
        options = [name for player in scoring.PLAYERS for name in (missions.mission(game.mission).primary,
                                                                     *game.secondaries[player])
                   if not scoring.OBJECTIVES[name].first_round]
        name = draw(st.sampled_from(options))  # the primary is always one
        player = draw(st.sampled_from([p for p in scoring.PLAYERS
                                       if name in (missions.mission(game.mission).primary, *game.secondaries[p])]))
        item = scoring.OBJECTIVES[name]
        timing = draw(st.sampled_from([t for t in item.timings if t is not Timing.END_OF_BATTLE]))
        facts = within_limits(item, {fact: draw(fact_values(item, fact)) for fact in item.facts()})
        return _with(game, 0, Event(1, player, timing, name, facts)), what, 1
    if what == "a turn's moment after the battle round ended":
        game = draw(games())
        ends = [i for i, e in enumerate(game.events) if e.timing is Timing.END_OF_BATTLE_ROUND]
        assume(ends)
        i = draw(st.sampled_from(ends))
        ended = game.events[i]
        primary = scoring.OBJECTIVES[missions.mission(game.mission).primary]
        facts = within_limits(primary, {fact: draw(fact_values(primary, fact)) for fact in primary.facts()})
        event = Event(ended.battle_round, draw(st.sampled_from(scoring.PLAYERS)), Timing.END_OF_COMMAND_PHASE,
                      primary.name, facts)
        return _with(game, i + 1, event), what, i + 2
    if what in ("a player's moment after the other player's turn began",
                "a moment before a point of its turn already recorded", "the first turn taken by different players"):
        return draw(_out_of_turn(what))
    assert what == "a mission's own secondary chosen twice"
    game = draw(games())
    own = missions.mission(game.mission).secondary
    other = draw(st.sampled_from([n for n in _eligible(game.mission, True) if n != own]))
    chosen = draw(st.permutations((own, own, other)))
    player = draw(st.sampled_from(scoring.PLAYERS))
    return replace(game, secondaries={**game.secondaries, player: tuple(chosen)}), what, None


def _turns(game: Game) -> dict[tuple[int, str], list[int]]:
    """The positions of each player's turn moments (Command phases, completed actions, turn ends), by battle round."""
    turns: dict[tuple[int, str], list[int]] = {}
    for i, event in enumerate(game.events):
        if event.timing in (Timing.END_OF_COMMAND_PHASE, Timing.ACTION_COMPLETED, Timing.END_OF_TURN):
            turns.setdefault((event.battle_round, event.player), []).append(i)
    return turns


def _point(event: Event) -> int:
    """Where a turn moment comes in its turn: the Command phase, a completed action by where it completes, the turn's
    end (worked out here from the printed words)."""
    if event.timing is Timing.ACTION_COMPLETED:
        return COMPLETION_ORDER[secondaries.action(scoring.OBJECTIVES[event.objective].action).completes]
    return 0 if event.timing is Timing.END_OF_COMMAND_PHASE else COMPLETION_ORDER[secondaries.Completes.END_OF_TURN]


@st.composite
def _out_of_turn(draw, what: str) -> tuple[Game, str, int]:
    """A game whose turn moments break the battle round's order: one moved into the other player's turn, two of one
    turn swapped, or one battle round's turns in the other order than the rest (see ``impossible_games``)."""
    game = draw(games())
    turns = _turns(game)
    both = sorted({r for (r, _p) in turns if all((r, p) in turns for p in scoring.PLAYERS)})
    events = list(game.events)
    if what == "a player's moment after the other player's turn began":
        assume(both)
        battle_round = draw(st.sampled_from(both))
        first, second = sorted(scoring.PLAYERS, key=lambda p: turns[(battle_round, p)][0])
        # One of two or more moments of the first turn (the only one, moved, would just open the round's second turn).
        assume(len(turns[(battle_round, first)]) >= 2)
        moved = draw(st.sampled_from(turns[(battle_round, first)]))
        target = turns[(battle_round, second)][0]  # the second turn's first moment: the moved one goes after it
        event = events.pop(moved)
        events.insert(target, event)  # target shifted down by one as the moved event left from before it
        return replace(game, events=tuple(events)), what, target + 1
    if what == "a moment before a point of its turn already recorded":
        pairs = [(a, b) for positions in turns.values() for a, b in zip(positions, positions[1:])
                 if _point(game.events[a]) < _point(game.events[b])]
        assume(pairs)
        a, b = draw(st.sampled_from(pairs))
        events[a], events[b] = events[b], events[a]
        return replace(game, events=tuple(events)), what, b + 1
    assert what == "the first turn taken by different players"
    assume(both)
    battle_round = draw(st.sampled_from(both))
    first, second = sorted(scoring.PLAYERS, key=lambda p: turns[(battle_round, p)][0])
    stated = draw(st.booleans(), label="first turn stated")
    others = [r for r in both if r != battle_round]
    assume(stated or others)
    # The round's turns swapped: the second player's moments first, then the first player's.
    start = turns[(battle_round, first)][0]
    block = [events[i] for i in turns[(battle_round, second)]] + [events[i] for i in turns[(battle_round, first)]]
    events[start:start + len(block)] = block
    swapped = replace(game, events=tuple(events), first_turn=first if stated else None)
    # Refused where a second turn begins in a round whose first turn is not the one the record states or the one
    # an earlier round showed: the swapped round, or the first round after it with both turns.
    if stated or min(both) != battle_round:
        return swapped, what, start + len(turns[(battle_round, second)]) + 1
    after = min(others)
    order = sorted(scoring.PLAYERS, key=lambda p: _turns(swapped)[(after, p)][0])
    return swapped, what, _turns(swapped)[(after, order[1])][0] + 1


def _with(game: Game, position: int, event: Event) -> Game:
    """The game with ``event`` inserted before its event at ``position`` (0 for the first)."""
    return replace(game, events=(*game.events[:position], event, *game.events[position:]))


def single_moment(mission: str, battle_round: int, player: str, controlled: int, opponent_controlled: int) -> Game:
    """A game of one primary moment: ``player``'s Command phase of ``battle_round``, controlling that many markers."""
    pack = ("linebreaker", "assassinate", "thin-their-ranks")  # one secondary from each of three categories
    event = Event(battle_round, player, Timing.END_OF_COMMAND_PHASE, missions.mission(mission).primary,
                  {"controlled": controlled, "opponent_controlled": opponent_controlled})
    return Game(mission, {p: pack for p in scoring.PLAYERS}, {}, (event,))


def primary_missions(primary: str) -> tuple[str, ...]:
    """The missions whose primary objective is ``primary`` (an objective name)."""
    return tuple(slug for slug, item in missions.MISSIONS.items() if item.primary == primary)


__all__ = ["BOUNDS", "IMPOSSIBLE", "MARKERS", "fact_values", "games", "impossible_games", "in_turn_order",
           "primary_missions", "schedule", "selections", "single_moment", "within_limits"]

"""z3 proofs about the eighteen missions: for every mission, its primary's and its own secondary's award at one
scoring moment (never negative, never above what the text allows), the "cannot be scored in the first battle
round" clauses where they are printed and their absence where they are not, and the most each mission's secondary
can award over a battle against the 15 cap; then the mission rules (Sweep and Clear, Base of Operations) and the
three findings.

Builders look the scoring functions up when they run (``scoring.OBJECTIVES[name].score``, ``missions.<function>``),
so properties/test_missionpack_missions.py can swap in a broken copy and watch each proof fail. The maxima below are
read off the text (the line numbers are the seed's); the tests also show that each is reached.
"""

from __future__ import annotations

import typing
from typing import Any

import z3

from properties.proofs import Built, proof
from rules.missionpack import battle_sizes, missions, scoring, sequence
from rules.missionpack.scoring import Timing

ROUNDS = scoring.BATTLE_ROUNDS

#: The most one scoring moment can award, as the text states or adds up.
MOMENT_MAXIMUM = {
    "seize-ground": 4,  # the table's largest cell, for one marker (lines 1018-1023)
    "measured-advance": 5,  # 2 + 3, "any or all" (1077-1080)
    "vantage-point": 4,  # 1 + 3 (1126-1129)
    "vital-ground": 7,  # "for a maximum of 7 victory points" (1188)
    "forward-push": 8,  # the table's largest cell (1238-1242)
    "secure-strongholds": 5,  # 1, or 5 for both (1296, 1824)
    "spoils-of-audacity": 7,  # "for a maximum of 7 victory points" (1344)
    "bounding-advance": 4,  # 1 + 3 (1392-1395)
    "encirclement": 5,  # (1447)
    "operational-headquarters": 5,  # 2 at the end of a battle round, 5 at the end of the battle (1504)
    "offensive-push": 3,  # (1552)
    "the-high-ground": 4,  # (1606)
    "hard-push": 8,  # the table's largest cell (1662-1667)
    "vital-assets": 3,  # (1715)
    "deny-the-foe": 5,  # 2 + 3 (1763-1766)
    "stand-your-ground": 5,  # 2 for one, 5 for both (1872)
    "aggressive-capitulation": 5,  # (1918)
}

#: The most a secondary can award over a battle: one moment a battle round (one Command phase, one end of the battle
#: round, one completed action of its kind: "the same action cannot be started by more than one unit from your army
#: in the same battle round", line 2952), rounds 2-5 only where the first is excluded, plus Operational
#: Headquarters' End Game 5.
BATTLE_MAXIMUM = {
    "seize-ground": 20, "measured-advance": 25, "vantage-point": 20, "vital-ground": 28, "forward-push": 40,
    "secure-strongholds": 20, "spoils-of-audacity": 28, "bounding-advance": 16, "encirclement": 25,
    "operational-headquarters": 13, "offensive-push": 15, "the-high-ground": 20, "hard-push": 40,
    "vital-assets": 15, "deny-the-foe": 20, "stand-your-ground": 20, "aggressive-capitulation": 20,
}

#: The least one scoring moment can award where it is not 0: a completed push action always scores its marker's cell.
MOMENT_MINIMUM = {"forward-push": 1, "hard-push": 1}

#: What the facts of one moment cannot be, whatever the map (the text's own counts).
ASSUMPTIONS = {
    # "all of the objective markers in your territory that are ..." (1715): you control no more than there are.
    "vital-assets": lambda f: [f["qualifying_markers_controlled"] <= f["qualifying_markers_in_own_territory"]],
    # "both of the objective markers labelled A" (1872): there are two.
    "stand-your-ground": lambda f: [f["markers_a_controlled"] <= 2],
}


def _q(ref: str) -> str:
    return f"missionpack:{ref}"


def _objective(name: str) -> scoring.Objective:
    return scoring.OBJECTIVES[name]


def symbolic_facts(name: str, tag: str = "") -> tuple[dict[str, Any], list[Any]]:
    """z3 constants for the facts of one scoring moment of an objective, with what the text says they can be:
    a flag, a count (0 or more) or an objective marker's row of its table."""
    item = _objective(name)
    hints = typing.get_type_hints(item.score)
    facts: dict[str, Any] = {}
    pre: list[Any] = []
    for fact in item.inputs():
        symbol_name = f"{fact}{tag}"
        if hints.get(fact) is bool:
            facts[fact] = z3.Bool(symbol_name)
        else:
            facts[fact] = z3.Int(symbol_name)
            if fact == "marker":
                pre += [facts[fact] >= 1, facts[fact] <= len(missions.MARKER_TABLES[name])]
            else:
                pre.append(facts[fact] >= 0)
    pre += ASSUMPTIONS.get(name, lambda f: [])(facts)
    return facts, pre


def _award(name: str, battle_round: Any, facts: dict[str, Any]) -> Any:
    return _objective(name).score(battle_round=battle_round, **facts)


# -- Every mission's primary ---------------------------------------------------------------------------------------


def _primary_proof(slug: str) -> None:
    item = missions.mission(slug)

    @proof(f"missionpack-{slug}-primary-per-command-phase", (_q(f"mission/{slug}/primary"),),
           f"{item.title}'s primary awards 0 to 15 at the end of a Command phase, and nothing in the first battle "
           "round.")
    def _build() -> Built:
        battle_round, mine, theirs = z3.Ints("battle_round controlled opponent_controlled")
        points = _objective(missions.mission(slug).primary).score(battle_round=battle_round, controlled=mine,
                                                                   opponent_controlled=theirs)
        pre = [battle_round >= 1, battle_round <= ROUNDS, mine >= 0, theirs >= 0]
        goal = z3.And(points >= 0, points <= 15, z3.Implies(battle_round == 1, points == 0))
        return pre, goal, {"battle_round": battle_round, "controlled": mine, "opponent_controlled": theirs}


# -- Every mission's own secondary ---------------------------------------------------------------------------------


def _secondary_proofs(slug: str) -> None:
    item = missions.mission(slug)
    name = item.secondary
    objective = _objective(name)
    refs = (_q(f"mission/{slug}/secondary"),)
    maximum = MOMENT_MAXIMUM[name]
    minimum = MOMENT_MINIMUM.get(name, 0)

    @proof(f"missionpack-{slug}-secondary-per-moment", refs,
           f"{objective.title} ({item.title}) awards {minimum} to {maximum} victory points at one scoring moment.")
    def _moment() -> Built:
        battle_round = z3.Int("battle_round")
        facts, pre = symbolic_facts(name)
        points = _award(name, battle_round, facts)
        pre += [battle_round >= 1, battle_round <= ROUNDS]
        return pre, z3.And(points >= minimum, points <= maximum), {"battle_round": battle_round, **facts}

    if objective.first_round:
        statement = (f"{objective.title} ({item.title}) can be scored in the first battle round: it awards the same "
                     "for the same facts in every battle round.")
    else:
        statement = (f"{objective.title} ({item.title}) cannot be scored in the first battle round, and awards the "
                     "same for the same facts in every later one.")

    @proof(f"missionpack-{slug}-secondary-first-round", refs, statement)
    def _first_round() -> Built:
        battle_round = z3.Int("battle_round")
        facts, pre = symbolic_facts(name)
        in_round = _award(name, battle_round, facts)
        first = _award(name, 1, facts)
        if _objective(name).first_round:
            goal = first == in_round
        else:
            goal = z3.And(first == 0, z3.Implies(battle_round >= 2, in_round == _award(name, 2, facts)))
            # End Game moments are not battle rounds: Operational Headquarters' 5 is scored after the fifth.
            if "end_of_battle" in facts:
                goal = z3.Implies(z3.Not(facts["end_of_battle"]), goal)
        return pre + [battle_round >= 1, battle_round <= ROUNDS], goal, {"battle_round": battle_round, **facts}

    total_maximum = BATTLE_MAXIMUM[name]
    reach = "so it can reach" if total_maximum >= scoring.SECONDARY_CAP else "so it never reaches"

    @proof(f"missionpack-{slug}-secondary-per-battle", refs,
           f"Over a battle {objective.title} ({item.title}) awards at most {total_maximum} victory points, "
           f"{reach} the {scoring.SECONDARY_CAP} cap.")
    def _battle() -> Built:
        total: Any = 0
        pre: list[Any] = []
        symbols: dict[str, Any] = {}
        for timing in _objective(name).timings:
            rounds = [ROUNDS] if timing is Timing.END_OF_BATTLE else list(range(1, ROUNDS + 1))
            for battle_round in rounds:
                tag = "_end" if timing is Timing.END_OF_BATTLE else f"_round_{battle_round}"
                facts, conditions = symbolic_facts(name, tag)
                if "end_of_battle" in facts:
                    conditions.append(facts["end_of_battle"] == (timing is Timing.END_OF_BATTLE))
                total = total + _award(name, battle_round, facts)
                pre += conditions
                symbols.update({f"{fact}{tag}": value for fact, value in facts.items()})
        return pre, total <= total_maximum, symbols


for _slug in missions.MISSIONS:
    _primary_proof(_slug)
    _secondary_proofs(_slug)


# -- What a secondary's award rests on --------------------------------------------------------------------------------


@proof("missionpack-seize-ground-scores-one-marker", (_q("mission/seize-ground/secondary"),),
       "Seize Ground awards the table's points of one objective marker the player controls (the best), never a sum, "
       "and nothing without one.")
def _seize_ground_one_marker() -> Built:
    battle_round = z3.Int("battle_round")
    a, b, c, player_a = z3.Bools("controls_marker_a controls_marker_b controls_marker_c player_a")
    points = missions.seize_ground(battle_round, player_a, a, b, c)
    cells = [missions.table_points(missions.SEIZE_GROUND_TABLE, row, player_a) for row in (1, 2, 3)]
    one_of = z3.Or(*(z3.And(held, points == cell) for held, cell in zip((a, b, c), cells)))
    best = z3.And(*(z3.Implies(held, points >= cell) for held, cell in zip((a, b, c), cells)))
    goal = z3.If(z3.Or(a, b, c), z3.And(one_of, best), points == 0)
    return [], goal, {"battle_round": battle_round, "player_a": player_a, "controls_marker_a": a,
                      "controls_marker_b": b, "controls_marker_c": c}


@proof("missionpack-secure-strongholds-needs-own-marker",
       (_q("mission/base-of-operations/secondary"), _q("mission/entrenched-defences/secondary")),
       "Secure Strongholds never scores without the objective marker in the player's own deployment zone: the "
       "opponent's marker alone is worth nothing.")
def _secure_strongholds() -> Built:
    battle_round = z3.Int("battle_round")
    own, theirs = z3.Bools("controls_marker_in_own_deployment_zone controls_marker_in_opponent_deployment_zone")
    points = missions.secure_strongholds(battle_round, own, theirs)
    goal = z3.And(z3.Implies(points > 0, own), z3.Implies(z3.And(battle_round >= 2, own, theirs), points == 5))
    return [battle_round >= 1, battle_round <= ROUNDS], goal, {
        "battle_round": battle_round, "controls_marker_in_own_deployment_zone": own,
        "controls_marker_in_opponent_deployment_zone": theirs}


@proof("missionpack-offensive-push-needs-strictly-more", (_q("mission/drawn-battle-lines/secondary"),),
       "Offensive Push scores exactly when the player controls more markers in the opponent's territory than in "
       "their own: equal numbers score nothing.")
def _offensive_push() -> Built:
    battle_round, theirs, own = z3.Ints("battle_round markers_controlled_in_opponent_territory "
                                       "markers_controlled_in_own_territory")
    points = missions.offensive_push(battle_round, theirs, own)
    return [theirs >= 0, own >= 0], (points == 3) == (theirs > own), {
        "battle_round": battle_round, "markers_controlled_in_opponent_territory": theirs,
        "markers_controlled_in_own_territory": own}


@proof("missionpack-tallest-feature-ties", (_q("mission/vantage-point/secondary"),
                                            _q("mission/take-the-high-ground/secondary")),
       "A player controls a territory's tallest terrain feature exactly when they control one of the features tied "
       "for highest (three features of any heights).")
def _tallest() -> Built:
    heights = z3.Ints("height_1 height_2 height_3")
    mine = z3.Bools("controls_1 controls_2 controls_3")
    top = z3.Int("top")
    pre = [h >= 0 for h in heights] + [z3.Or(*(top == h for h in heights))] + [h <= top for h in heights]
    goal = missions.controls_tallest(heights, mine) == z3.Or(*(z3.And(c, h == top) for c, h in zip(mine, heights)))
    return pre, goal, {**{str(h): h for h in heights}, **{str(c): c for c in mine}, "top": top}


# -- Findings: the rules as written fail these ---------------------------------------------------------------------


@proof("missionpack-player-label-decides-nothing",
       (_q("mission/seize-ground/secondary"), _q("mission/forward-outpost/secondary"),
        _q("mission/aggressive-strike/secondary")),
       "Forward Push's award for an action on a given objective marker is the same whether the player is Player A "
       "or Player B (a label no step of the text gives to a player).", expect="disproved")
def _player_label() -> Built:
    battle_round, marker = z3.Ints("battle_round marker")
    goal = missions.forward_push(battle_round, True, marker) == missions.forward_push(battle_round, False, marker)
    pre = [battle_round >= 1, battle_round <= ROUNDS, marker >= 1, marker <= len(missions.FORWARD_PUSH_TABLE)]
    return pre, goal, {"battle_round": battle_round,
                                                                              "marker": marker}


@proof("missionpack-vital-assets-needs-a-controlled-marker", (_q("mission/protected-assets/secondary"),),
       "Vital Assets only scores for a player who controls at least one objective marker.", expect="disproved")
def _vital_assets() -> Built:
    battle_round, qualifying, controlled = z3.Ints("battle_round qualifying_markers_in_own_territory "
                                                   "qualifying_markers_controlled")
    points = missions.vital_assets(battle_round, qualifying, controlled)
    pre = [battle_round >= 1, battle_round <= ROUNDS, qualifying >= 0, controlled >= 0, controlled <= qualifying]
    return pre, z3.Implies(points > 0, controlled >= 1), {
        "battle_round": battle_round, "qualifying_markers_in_own_territory": qualifying,
        "qualifying_markers_controlled": controlled}


#: Step 3's limits for a Strike Force collection (line 179): at least 4 datasheets, 150-200 terrain points.
_SIZE, STRIKE_FORCE_DATASHEETS, _REPEATS, _CRITICAL_REPEATS, *STRIKE_FORCE_POINTS = next(
    row for row in battle_sizes.TACTICAL_TERRAIN if row[0] == "Strike Force")


@proof("missionpack-operational-headquarters-always-has-a-feature",
       (_q("mission/protect-the-nerve-centre/secondary"), _q("sequence/03-gather-tactical-terrain")),
       "Every Strike Force Tactical Terrain collection step 3 allows has an Area Terrain feature a player who selects "
       "Operational Headquarters can declare.", expect="disproved")
def _headquarters() -> Built:
    count = STRIKE_FORCE_DATASHEETS
    area = [z3.Bool(f"area_terrain_{i}") for i in range(1, count + 1)]
    points = [z3.Int(f"points_{i}") for i in range(1, count + 1)]
    highest = z3.Int("highest_area_terrain_points")
    low, high = STRIKE_FORCE_POINTS
    pre = [p >= 1 for p in points] + [low <= sum(points), sum(points) <= high]
    # The highest cost among the Area Terrain datasheets (0 if there are none).
    pre += [z3.Implies(a, highest >= p) for a, p in zip(area, points)]
    pre += [z3.Or(z3.And(z3.Not(z3.Or(*area)), highest == 0), *(z3.And(a, highest == p) for a, p in zip(area, points)))]
    goal = z3.Or(*(missions.headquarters_eligible(a, p, highest) for a, p in zip(area, points)))
    symbols = {**{str(a): a for a in area}, **{str(p): p for p in points}, "highest_area_terrain_points": highest}
    return pre, goal, symbols


# -- Player A / Player B tables ---------------------------------------------------------------------------------


@proof("missionpack-player-columns-mirror",
       (_q("mission/seize-ground/secondary"), _q("mission/forward-outpost/secondary"),
        _q("mission/aggressive-strike/secondary")),
       "In the Seize Ground, Forward Push and Hard Push tables Player B's column is Player A's read from the other "
       "end: the labels are two sides of one symmetric map, not two different roles.")
def _mirror() -> Built:
    row = z3.Int("row")
    goals = []
    for table in (missions.SEIZE_GROUND_TABLE, missions.FORWARD_PUSH_TABLE, missions.HARD_PUSH_TABLE):
        size = len(table)
        goals.append(z3.Implies(z3.And(row >= 1, row <= size),
                                missions.table_points(table, row, False)
                                == missions.table_points(table, size + 1 - row, True)))
    return [], z3.And(*goals), {"row": row}


# -- Steady Advance: Sweep and Clear ------------------------------------------------------------------------------

SWEEP = (_q("mission/steady-advance/rules"),)


def _sweep_symbols() -> tuple[list[Any], dict[str, Any]]:
    held, models, command = z3.Ints("held_by by_models command_phase_of")
    end = z3.Bool("end_of_phase")
    pre = [z3.And(v >= 0, v <= 2) for v in (held, models, command)] + [z3.Implies(command != 0, end)]
    return pre, {"held_by": held, "by_models": models, "end_of_phase": end, "command_phase_of": command}


@proof("missionpack-sweep-and-clear-held-until-taken", SWEEP,
       "A marker held under Sweep and Clear is never uncontrolled: it stays its player's, even with no models in "
       "range, and passes to the opponent exactly when the opponent controls it at the end of a phase.")
def _held() -> Built:
    pre, s = _sweep_symbols()
    held, models, end = s["held_by"], s["by_models"], s["end_of_phase"]
    controller = missions.sweep_and_clear_controller(held, models, end)
    opponent = 3 - held
    goal = z3.Implies(held != 0, z3.And(z3.Or(controller == held, controller == opponent),
                                        (controller == opponent) == z3.And(end, models == opponent)))
    return pre, goal, s


@proof("missionpack-sweep-and-clear-basic-control-otherwise", SWEEP,
       "A marker nobody holds under Sweep and Clear is controlled as the basic rules say.")
def _not_held() -> Built:
    pre, s = _sweep_symbols()
    controller = missions.sweep_and_clear_controller(0, s["by_models"], s["end_of_phase"])
    return pre, controller == s["by_models"], s


@proof("missionpack-sweep-and-clear-hold-taken-at-own-command-phase", SWEEP,
       "After the end of a player's Command phase that player holds the marker exactly when they control it then; "
       "at any other moment a hold only ends, when the opponent takes the marker.")
def _holder() -> Built:
    pre, s = _sweep_symbols()
    held, models, end, command = s["held_by"], s["by_models"], s["end_of_phase"], s["command_phase_of"]
    controller = missions.sweep_and_clear_controller(held, models, end)
    after = missions.sweep_and_clear_holder(held, models, end, command)
    at_command = z3.Implies(command != 0, z3.Or(z3.And(controller == command, after == command),
                                                z3.And(controller != command, after != command)))
    elsewhere = z3.Implies(command == 0, z3.Or(after == held, z3.And(after == 0, controller == 3 - held)))
    return pre, z3.And(at_command, elsewhere), s


# -- Base of Operations --------------------------------------------------------------------------------------------

BASE = (_q("mission/base-of-operations/rules"),)


def _collection(size: int = 3) -> tuple[list[Any], dict[str, Any], list[tuple[Any, Any]]]:
    sheets = [(z3.Bool(f"critical_feature_{i}"), z3.Int(f"points_{i}")) for i in range(1, size + 1)]
    any_critical = z3.Bool("collection_has_critical_feature")
    highest = z3.Int("highest_points")
    pre = [p >= 1 for _c, p in sheets] + [any_critical == z3.Or(*(c for c, _p in sheets))]
    pre += [highest >= p for _c, p in sheets] + [z3.Or(*(highest == p for _c, p in sheets))]
    symbols = {"collection_has_critical_feature": any_critical, "highest_points": highest}
    for c, p in sheets:
        symbols.update({str(c): c, str(p): p})
    return pre, symbols, sheets


@proof("missionpack-base-of-operations-always-a-datasheet", BASE,
       "Every collection has a datasheet the player may place by the terrain marker (three datasheets of any costs).")
def _base_choice() -> Built:
    pre, s, sheets = _collection()
    goal = z3.Or(*(missions.base_of_operations_eligible(c, s["collection_has_critical_feature"], p, s["highest_points"])
                   for c, p in sheets))
    return pre, goal, s


@proof("missionpack-base-of-operations-placement-follows-setup-order",
       (*BASE, _q("sequence/10-set-up-tactical-terrain")),
       "In Base of Operations, some datasheet the mission rules may place by the terrain marker is one step 10's order "
       "may set up first, the one its terrain-marker rule puts by a terrain marker (three datasheets of any costs).",
       expect="disproved")
def _base_setup_order() -> Built:
    pre, s, sheets = _collection()
    goal = z3.Or(*(z3.And(missions.base_of_operations_eligible(c, s["collection_has_critical_feature"], p,
                                                               s["highest_points"]),
                          sequence.may_be_set_up_first(p, s["highest_points"]))
                   for c, p in sheets))
    return pre, goal, s


@proof("missionpack-base-of-operations-placed-is-critical", BASE,
       "The datasheet placed by the terrain marker is a CRITICAL FEATURE for the battle (its own keyword or the one "
       "it gains), and gains Heavy Cover only when it gains the keyword and lacks the trait.")
def _base_critical() -> Built:
    pre, s, sheets = _collection()
    heavy = z3.Bool("has_heavy_cover")
    goals = []
    for c, p in sheets:
        eligible = missions.base_of_operations_eligible(c, s["collection_has_critical_feature"], p, s["highest_points"])
        keyword, cover = missions.base_of_operations_gains(s["collection_has_critical_feature"], heavy)
        goals.append(z3.Implies(eligible, z3.And(z3.Or(c, keyword), cover == z3.And(keyword, z3.Not(heavy)))))
    return pre, z3.And(*goals), {**s, "has_heavy_cover": heavy}

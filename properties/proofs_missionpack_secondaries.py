"""z3 proofs about the mission pack's 23 secondary objectives (rules.missionpack.secondaries).

Each builder calls the real functions through the module (``secondaries.linebreaker(...)``), looked up at
check time, so properties/test_missionpack_secondaries.py can swap in a broken copy and watch the proof
fail. For every secondary: its award at one moment is never negative and never more than the text states;
the most it can award over a whole battle, compared with the 15 cap on each secondary. Then the edges the
text pins (more than half, the Cut Off the Head table, rounding down kill points, the Wounds thresholds).
Proofs with ``expect="disproved"`` are findings (spec/missionpack/annotations/findings/secondaries.yaml).

A battle has five battle rounds, so five of your turns, five Command phases and five Psychic phases; an
action is started by at most one unit of your army per battle round (ninth:performing-actions), and each
psychic action of the pack names one PSYKER CHARACTER per Psychic phase.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import z3

from properties.proofs import Built, proof
from rules.missionpack import scoring, secondaries

ROUNDS = range(1, scoring.BATTLE_ROUNDS + 1)
CAP = scoring.SECONDARY_CAP


def _ref(*slugs: str) -> tuple[str, ...]:
    return tuple(f"missionpack:secondary/{slug}" for slug in slugs)


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def score(slug: str) -> Callable[..., Any]:
    """The score function of a secondary, looked up on the module now (so a test's broken copy is used)."""
    return getattr(secondaries, scoring.OBJECTIVES[slug].score.__name__)


# The domain of every fact a secondary reads: "bool", or (low, high) with None for no upper bound.
FACTS: dict[str, Any] = {
    "table_quarters_held": (0, 4),
    "non_aircraft_units_wholly_within_opponent_deployment_zone": (0, None),
    "objective_markers_controlled": (0, None),
    "objective_markers_on_battlefield": (0, None),
    "critical_features_controlled": (0, None),
    "kill_points": (0, None),
    "enemy_units_destroyed_this_round": (0, None),
    "friendly_units_destroyed_this_round": (0, None),
    "noted_models_on_battlefield": (0, 3),
    "enemy_units_destroyed_near_critical_features_this_round": (0, None),
    "enemy_titanic_models_destroyed": (0, None),
    "enemy_monsters_or_vehicles_destroyed_w10_or_less": (0, None),
    "enemy_monsters_or_vehicles_destroyed_w11_or_more": (0, None),
    "enemy_warlord_destroyed_in_round": (0, scoring.BATTLE_ROUNDS),
    "enemy_character_models_destroyed": (0, None),
    "enemy_building_units_destroyed": (0, None),
    "objective_markers_with_your_banner": (0, None),
    "completed_in_your_deployment_zone": (0, None),
    "completed_in_opponent_deployment_zone": (0, None),
    "completed_more_than_6_from_either_deployment_zone": (0, None),
    "opponent_territory_features_with_explosives": (0, None),
    "enemy_psyker_character_units_destroyed": (0, None),
    "other_enemy_psyker_units_destroyed": (0, None),
    "psychic_ritual_completions": (0, None),
    "pierce_the_veil_completions": (0, None),
    "psychic_imprint_completed_this_round": "bool",
}

# Facts tied to each other, beyond their own domains.
RELATIONS = {
    "domination": lambda f: [f["objective_markers_controlled"] <= f["objective_markers_on_battlefield"]],
}


def _facts(slug: str, suffix: str = "") -> tuple[dict[str, Any], list[Any]]:
    """z3 constants for a secondary's facts, and their domains."""
    symbols, pre = {}, []
    for name in scoring.OBJECTIVES[slug].facts():
        domain = FACTS[name]
        if domain == "bool":
            symbols[name] = z3.Bool(name + suffix)
            continue
        symbols[name] = z3.Int(name + suffix)
        low, high = domain
        pre.append(symbols[name] >= low)
        if high is not None:
            pre.append(symbols[name] <= high)
    pre += RELATIONS.get(slug, lambda f: [])(symbols)
    return symbols, pre


# -- 1. One moment: never negative, never more than the text states ---------------------------------------------

# slug -> (the most one moment awards, as the text states it, over the facts; the statement's wording)
MOMENT_BOUNDS: dict[str, tuple[Callable[[dict], Any], str]] = {
    "engage-on-all-fronts": (lambda f: 3, "at most 3 (all four table quarters)"),
    "linebreaker": (lambda f: 4, "at most 4"),
    "domination": (lambda f: 3, "at most 3"),
    "outright-domination": (lambda f: 3 * f["critical_features_controlled"],
                            "at most 3 per CRITICAL FEATURE controlled"),
    "thin-their-ranks": (lambda f: f["kill_points"] / 10, "at most a tenth of the kill points tally"),
    "grind-them-down": (lambda f: 3, "at most 3"),
    "while-we-stand-we-fight": (lambda f: 5 * f["noted_models_on_battlefield"], "at most 5 per noted model"),
    "targeted-destruction": (lambda f: 4 * f["enemy_units_destroyed_near_critical_features_this_round"],
                             "at most 4 per enemy unit destroyed near a CRITICAL FEATURE"),
    "titan-hunter": (lambda f: 15, "at most 15"),
    "bring-it-down": (lambda f: 2 * f["enemy_monsters_or_vehicles_destroyed_w10_or_less"]
                      + 3 * f["enemy_monsters_or_vehicles_destroyed_w11_or_more"],
                      "at most 2 per destroyed enemy MONSTER or VEHICLE of Wounds 10 or less and 3 per one of 11 "
                      "or more"),
    "cut-off-the-head": (lambda f: 13, "at most 13"),
    "assassinate": (lambda f: 3 * f["enemy_character_models_destroyed"], "at most 3 per enemy CHARACTER destroyed"),
    "stronghold-denial": (lambda f: 5 * f["enemy_building_units_destroyed"], "at most 5 per enemy BUILDING destroyed"),
    "raise-the-banners-high": (lambda f: f["objective_markers_with_your_banner"], "at most 1 per banner"),
    "investigate-sites": (lambda f: 3, "at most 3"),
    "deploy-scramblers": (lambda f: 10, "at most 10"),
    "teleport-homer": (lambda f: 4, "at most 4"),
    "plant-demolition-charges": (lambda f: 4 * f["opponent_territory_features_with_explosives"],
                                 "at most 4 per terrain feature with explosives"),
    "abhor-the-witch": (lambda f: 5 * f["enemy_psyker_character_units_destroyed"]
                        + 3 * f["other_enemy_psyker_units_destroyed"],
                        "at most 5 per enemy PSYKER CHARACTER unit and 3 per other enemy PSYKER unit destroyed"),
    "mental-interrogation": (lambda f: 3, "at most 3"),
    "psychic-ritual": (lambda f: 15, "at most 15"),
    "pierce-the-veil": (lambda f: 15, "at most 15, scored once"),
    "psychic-imprint": (lambda f: 2, "at most 2"),
}


def _moment_proof(slug: str) -> None:
    bound, words = MOMENT_BOUNDS[slug]
    title = scoring.OBJECTIVES[slug].title

    @proof(f"missionpack-secondary-{slug}-moment-award", _ref(slug),
           f"{title} awards 0 or more victory points at any one scoring moment, and {words}.")
    def build() -> Built:
        facts, pre = _facts(slug)
        battle_round = z3.Int("battle_round")
        award = score(slug)(battle_round=battle_round, **facts)
        return pre + [_between(battle_round, 1, scoring.BATTLE_ROUNDS)], z3.And(award >= 0, award <= bound(facts)), {
            "battle_round": battle_round, **facts}


for _slug in MOMENT_BOUNDS:
    _moment_proof(_slug)


# -- 2. A whole battle, against the 15 cap -------------------------------------------------------------------------


def _per_round(slug: str, maximal: Callable[[dict], list[Any]], most: int) -> Built:
    """A progressive secondary scored once per battle round (your turn, your Command phase, the battle round):
    the sum over the five rounds is at most ``most``, and is exactly ``most`` when every round's facts are
    ``maximal``."""
    symbols, pre, reach, total = {}, [], [], 0
    for r in ROUNDS:
        facts, domain = _facts(slug, f"_round_{r}")
        symbols.update({f"{name}_round_{r}": value for name, value in facts.items()})
        pre += domain
        reach += maximal(facts)
        total = total + score(slug)(battle_round=r, **facts)
    return pre, z3.And(total <= most, z3.Implies(z3.And(*reach), total == most)), symbols


def _per_action(slug: str, name: str, most: int) -> Built:
    """A secondary scoring each time one action is completed: at most one unit starts it per battle round;
    the completions over a battle award at most ``most``, and exactly that when it is started every round."""
    started = {r: z3.Bool(f"started_round_{r}") for r in ROUNDS}
    total = 0
    for r in ROUNDS:
        done = secondaries.action_completion_round(name, r)
        total = total + z3.If(z3.And(started[r], done != secondaries.NEVER), score(slug)(battle_round=done), 0)
    goal = z3.And(total <= most, z3.Implies(z3.And(*started.values()), total == most))
    return [], goal, {f"started_round_{r}": value for r, value in started.items()}


@proof("missionpack-secondary-engage-on-all-fronts-whole-battle", _ref("engage-on-all-fronts"),
       "Over five turns Engage on All Fronts awards at most 15, exactly the cap, reached by holding all four "
       "table quarters at the end of every turn.")
def _engage_battle() -> Built:
    return _per_round("engage-on-all-fronts", lambda f: [f["table_quarters_held"] == 4], 15)


@proof("missionpack-secondary-linebreaker-whole-battle", _ref("linebreaker"),
       "Over five turns Linebreaker awards at most 20, more than the 15 cap: the cap discounts the fourth "
       "scoring turn's award in part and the fifth's in full.")
def _linebreaker_battle() -> Built:
    return _per_round("linebreaker",
                      lambda f: [f["non_aircraft_units_wholly_within_opponent_deployment_zone"] >= 2], 20)


@proof("missionpack-secondary-domination-whole-battle", _ref("domination"),
       "Over five turns Domination awards at most 15, exactly the cap, reached by controlling more than half the "
       "objective markers at the end of every turn.")
def _domination_battle() -> Built:
    return _per_round("domination", lambda f: [
        f["objective_markers_controlled"] == f["objective_markers_on_battlefield"],
        f["objective_markers_on_battlefield"] >= 1], 15)


@proof("missionpack-secondary-grind-them-down-whole-battle", _ref("grind-them-down"),
       "Over five battle rounds Grind Them Down awards at most 15, exactly the cap.")
def _grind_battle() -> Built:
    return _per_round("grind-them-down", lambda f: [f["enemy_units_destroyed_this_round"]
                                                    > f["friendly_units_destroyed_this_round"]], 15)


@proof("missionpack-secondary-psychic-imprint-whole-battle", _ref("psychic-imprint"),
       "Over five battle rounds Psychic Imprint awards at most 10: it can never reach the 15 cap.")
def _imprint_battle() -> Built:
    return _per_round("psychic-imprint", lambda f: [f["psychic_imprint_completed_this_round"]], 10)


@proof("missionpack-secondary-investigate-sites-whole-battle", _ref("investigate-sites"),
       "Started by one unit a battle round and completed at the end of that turn, Investigate Site completes at "
       "most five times: at most 15, exactly the cap.")
def _investigate_battle() -> Built:
    return _per_action("investigate-sites", "Investigate Site", 15)


@proof("missionpack-secondary-teleport-homer-whole-battle", _ref("teleport-homer"),
       "Completed at the end of the next Command phase, Teleport Homer completes at most four times (rounds 2 to "
       "5): at most 16, so the cap discounts 1 of the fourth completion's 4.")
def _teleport_battle() -> Built:
    return _per_action("teleport-homer", "Teleport Homer", 16)


@proof("missionpack-secondary-mental-interrogation-whole-battle", _ref("mental-interrogation"),
       "One PSYKER CHARACTER a Psychic phase, completed there and then: Mental Interrogation awards at most 15 over "
       "five Psychic phases, exactly the cap.")
def _mental_battle() -> Built:
    return _per_action("mental-interrogation", "Mental Interrogation", 15)


@proof("missionpack-secondary-plant-demolition-charges-whole-battle", _ref("plant-demolition-charges"),
       "Started by one unit a battle round and completed at the end of the next Command phase, Plant Demolitions "
       "puts explosives on at most four terrain features: at most 16 at the end of the battle.")
def _plant_battle() -> Built:
    started = {r: z3.Bool(f"started_round_{r}") for r in ROUNDS}
    features = z3.Int("opponent_territory_features_with_explosives")
    completed = sum(z3.If(z3.And(started[r], secondaries.action_completion_round("Plant Demolitions", r)
                                 != secondaries.NEVER), 1, 0) for r in ROUNDS)
    award = score("plant-demolition-charges")(battle_round=5, opponent_territory_features_with_explosives=features)
    pre = [features >= 0, features <= completed]
    goal = z3.And(award <= 16, z3.Implies(features == 4, award == 16))
    return pre, goal, {**{f"started_round_{r}": v for r, v in started.items()},
                       "opponent_territory_features_with_explosives": features}


@proof("missionpack-secondary-raise-the-banners-high-whole-battle", _ref("raise-the-banners-high"),
       "No banner can be raised before the first Command phase ends, so Raise the Banners High scores at four "
       "Command phases and at the end of the battle: at most 5 per objective marker, so it needs 3 or more "
       "markers to reach the cap.")
def _banners_battle() -> Built:
    markers = z3.Int("objective_markers")
    at = {r: z3.Int(f"banners_at_command_phase_{r}") for r in ROUNDS}
    at_end = z3.Int("banners_at_end_of_battle")
    pre = [markers >= 0, at_end >= 0, at_end <= markers]
    for r in ROUNDS:
        # Banners standing at the end of the Command phase of round r were raised by actions completed before it.
        raised_before = sum(z3.If(secondaries.action_completion_round("Raise Banners", s) < r, 1, 0) for s in ROUNDS)
        pre += [at[r] >= 0, at[r] <= markers, z3.Implies(raised_before == 0, at[r] == 0)]
    banners = score("raise-the-banners-high")
    total = sum(banners(battle_round=r, objective_markers_with_your_banner=at[r]) for r in ROUNDS)
    total = total + banners(battle_round=5, objective_markers_with_your_banner=at_end)
    reach = z3.And(at_end == markers, *(at[r] == markers for r in ROUNDS if r > 1))
    goal = z3.And(total <= 5 * markers, z3.Implies(reach, total == 5 * markers))
    return pre, goal, {"objective_markers": markers, "banners_at_end_of_battle": at_end,
                       **{f"banners_at_command_phase_{r}": v for r, v in at.items()}}


@proof("missionpack-secondary-while-we-stand-we-fight-whole-battle", _ref("while-we-stand-we-fight"),
       "However large the army, at most three models are noted, so While We Stand, We Fight awards at most 15, "
       "exactly the cap, when all three are on the battlefield at the end.")
def _while_we_stand_battle() -> Built:
    models, forts, alive = z3.Ints("models_in_army fortification_models noted_models_on_battlefield")
    noted = secondaries.while_we_stand_noted_models(models, forts)
    award = score("while-we-stand-we-fight")(battle_round=5, noted_models_on_battlefield=alive)
    pre = [models >= 1, _between(forts, 0, models), _between(alive, 0, noted)]
    goal = z3.And(noted <= 3, award <= 15, z3.Implies(z3.And(models - forts >= 3, alive == noted), award == 15))
    return pre, goal, {"models_in_army": models, "fortification_models": forts, "noted_models_on_battlefield": alive}


def _end_game_most(slug: str, most: int, reach: Callable[[dict], list[Any]]) -> Built:
    facts, pre = _facts(slug)
    award = score(slug)(battle_round=5, **facts)
    return pre, z3.And(award <= most, z3.Implies(z3.And(*reach(facts)), award == most)), facts


@proof("missionpack-secondary-titan-hunter-whole-battle", _ref("titan-hunter"),
       "Titan Hunter awards at most 15, exactly the cap, for three or more enemy TITANIC models.")
def _titan_battle() -> Built:
    return _end_game_most("titan-hunter", 15, lambda f: [f["enemy_titanic_models_destroyed"] >= 3])


@proof("missionpack-secondary-cut-off-the-head-whole-battle", _ref("cut-off-the-head"),
       "Cut Off the Head awards at most 13, for a WARLORD destroyed in the first battle round: it never reaches "
       "the 15 cap.")
def _cut_battle() -> Built:
    return _end_game_most("cut-off-the-head", 13, lambda f: [f["enemy_warlord_destroyed_in_round"] == 1])


@proof("missionpack-secondary-deploy-scramblers-whole-battle", _ref("deploy-scramblers"),
       "Deploy Scramblers awards at most 10: it never reaches the 15 cap.")
def _deploy_battle() -> Built:
    return _end_game_most("deploy-scramblers", 10, lambda f: [v >= 1 for v in f.values()])


@proof("missionpack-secondary-psychic-ritual-whole-battle", _ref("psychic-ritual"),
       "Psychic Ritual awards 15 or nothing: exactly the cap once completed 3 times.")
def _ritual_battle() -> Built:
    return _end_game_most("psychic-ritual", 15, lambda f: [f["psychic_ritual_completions"] >= 3])


@proof("missionpack-secondary-pierce-the-veil-whole-battle", _ref("pierce-the-veil"),
       "Pierce the Veil is scored once: at most 15, exactly the cap, once completed 4 times.")
def _pierce_battle() -> Built:
    return _end_game_most("pierce-the-veil", 15, lambda f: [f["pierce_the_veil_completions"] >= 4])


# End Game objectives (and Targeted Destruction, per battle round) awarding per item: more never scores less, and
# enough items reach the cap, beyond which the ledger discounts the excess.
GROWING = {
    "outright-domination": {"critical_features_controlled": 5},
    "thin-their-ranks": {"kill_points": 150},
    "targeted-destruction": {"enemy_units_destroyed_near_critical_features_this_round": 4},
    "bring-it-down": {"enemy_monsters_or_vehicles_destroyed_w10_or_less": 0,
                      "enemy_monsters_or_vehicles_destroyed_w11_or_more": 5},
    "assassinate": {"enemy_character_models_destroyed": 5},
    "stronghold-denial": {"enemy_building_units_destroyed": 3},
    "abhor-the-witch": {"enemy_psyker_character_units_destroyed": 3, "other_enemy_psyker_units_destroyed": 0},
}


def _growing_proof(slug: str, enough: dict[str, int]) -> None:
    title = scoring.OBJECTIVES[slug].title
    words = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in enough.items() if v)

    @proof(f"missionpack-secondary-{slug}-reaches-the-cap", _ref(slug),
           f"{title} never awards less for more, and {words} already award 15 or more: the cap, not the text, "
           "limits it.")
    def build() -> Built:
        facts, pre = _facts(slug)
        more, more_pre = _facts(slug, "_more")
        function = score(slug)
        r = z3.Int("battle_round")
        pre += more_pre + [more[name] >= facts[name] for name in facts] + [_between(r, 1, 5)]
        goal = z3.And(function(battle_round=r, **more) >= function(battle_round=r, **facts),
                      function(battle_round=5, **enough) >= CAP)
        return pre, goal, {"battle_round": r, **facts, **{f"{k}_more": v for k, v in more.items()}}


for _slug, _enough in GROWING.items():
    _growing_proof(_slug, _enough)


# -- 3. The edges the text pins ------------------------------------------------------------------------------------


@proof("missionpack-secondary-domination-more-than-half", _ref("domination"),
       "Domination scores exactly when more than half the objective markers are controlled: exactly half never "
       "scores, one more than half always does.")
def _more_than_half() -> Built:
    controlled, total, r = z3.Ints("objective_markers_controlled objective_markers_on_battlefield battle_round")
    award = secondaries.domination(r, controlled, total)
    goal = z3.And((award == 3) == (controlled > total - controlled), z3.Or(award == 0, award == 3))
    return [_between(controlled, 0, total), _between(r, 1, 5)], goal, {
        "objective_markers_controlled": controlled, "objective_markers_on_battlefield": total, "battle_round": r}


@proof("missionpack-secondary-cut-off-the-head-table", _ref("cut-off-the-head"),
       "Cut Off the Head awards 13, 10, 6, 3, 1 for a WARLORD destroyed in battle rounds 1 to 5 (an earlier kill "
       "is never worth less), and nothing if it was not destroyed.")
def _cut_table() -> Built:
    early, late = z3.Ints("destroyed_in_round later_round")
    award = secondaries.cut_off_the_head(5, early)
    cells = z3.And(*(secondaries.cut_off_the_head(5, r) == vp
                     for r, vp in zip(ROUNDS, (13, 10, 6, 3, 1))), secondaries.cut_off_the_head(5, 0) == 0)
    goal = z3.And(cells, award >= secondaries.cut_off_the_head(5, late), award <= 13)
    return [_between(early, 1, 5), _between(late, early, 5)], goal, {"destroyed_in_round": early, "later_round": late}


@proof("missionpack-secondary-cut-off-the-head-last-removal", _ref("cut-off-the-head"),
       "A WARLORD destroyed, returned and destroyed again counts as destroyed in the round it was last removed, "
       "whatever order the removals are listed in.")
def _last_removal() -> Built:
    first, second = z3.Ints("first_removal last_removal")
    counted = secondaries.warlord_destroyed_in_round([second, first])
    return [_between(first, 1, 5), _between(second, first, 5)], counted == second, {
        "first_removal": first, "last_removal": second}


@proof("missionpack-secondary-thin-their-ranks-rounds-down", _ref("thin-their-ranks"),
       "Thin Their Ranks awards the kill points tally divided by 10 and rounded down: 10 x VP <= tally < 10 x VP + 10.")
def _rounds_down() -> Built:
    tally = z3.Int("kill_points")
    award = secondaries.thin_their_ranks(5, tally)
    return [tally >= 0], z3.And(10 * award <= tally, tally < 10 * award + 10), {"kill_points": tally}


@proof("missionpack-secondary-thin-their-ranks-kill-points", _ref("thin-their-ranks"),
       "A destroyed enemy model adds 10 kill points if its Wounds characteristic is 10 or more, otherwise 1; each "
       "such large model is worth exactly one more victory point.")
def _kill_points() -> Built:
    w, tally = z3.Ints("wounds_characteristic kill_points")
    points = secondaries.kill_points_for_destroyed_model(w)
    goal = z3.And(points == z3.If(w >= 10, 10, 1),
                  z3.Implies(w >= 10, secondaries.thin_their_ranks(5, tally + points)
                             == secondaries.thin_their_ranks(5, tally) + 1))
    return [w >= 1, tally >= 0], goal, {"wounds_characteristic": w, "kill_points": tally}


@proof("missionpack-secondary-bring-it-down-thresholds", _ref("bring-it-down"),
       "A destroyed enemy MONSTER or VEHICLE is worth 2 with Wounds 10 or less and 3 with Wounds 11 or more, and "
       "Bring It Down adds those worths up.")
def _bring_thresholds() -> Built:
    w, small, large = z3.Ints("wounds_characteristic w10_or_less w11_or_more")
    points = secondaries.bring_it_down_points(w)
    total = secondaries.bring_it_down(5, small, large)
    goal = z3.And(points == z3.If(w <= 10, 2, 3),
                  total == small * secondaries.bring_it_down_points(10) + large * secondaries.bring_it_down_points(11))
    return [w >= 1, small >= 0, large >= 0], goal, {"wounds_characteristic": w, "w10_or_less": small,
                                                    "w11_or_more": large}


@proof("missionpack-secondary-titan-hunter-table", _ref("titan-hunter"),
       "Titan Hunter awards 10, 12, 15 for one, two, three or more enemy TITANIC models, and more never less.")
def _titan_table() -> Built:
    n, m = z3.Ints("enemy_titanic_models_destroyed more")
    hunt = secondaries.titan_hunter
    cells = z3.And(hunt(5, 0) == 0, hunt(5, 1) == 10, hunt(5, 2) == 12, hunt(5, 3) == 15)
    return [n >= 0, m >= n], z3.And(cells, hunt(5, m) >= hunt(5, n), z3.Implies(n >= 3, hunt(5, n) == 15)), {
        "enemy_titanic_models_destroyed": n, "more": m}


@proof("missionpack-secondary-engage-on-all-fronts-quarters", _ref("engage-on-all-fronts"),
       "Engage on All Fronts awards 2 for exactly three table quarters, 3 for all four, nothing for fewer.")
def _engage_quarters() -> Built:
    q, r = z3.Ints("table_quarters_held battle_round")
    award = secondaries.engage_on_all_fronts(r, q)
    return [_between(q, 0, 4), _between(r, 1, 5)], award == z3.If(q == 4, 3, z3.If(q == 3, 2, 0)), {
        "table_quarters_held": q, "battle_round": r}


@proof("missionpack-secondary-psychic-ritual-three-times", _ref("psychic-ritual"),
       "Psychic Ritual awards 15 exactly when completed 3 times or more.")
def _ritual_threshold() -> Built:
    n = z3.Int("psychic_ritual_completions")
    return [n >= 0], secondaries.psychic_ritual(5, n) == z3.If(n >= 3, 15, 0), {"psychic_ritual_completions": n}


@proof("missionpack-secondary-pierce-the-veil-scored-once", _ref("pierce-the-veil"),
       "Pierce the Veil awards 8 for 2 or 3 completions and 15 from 4: scored once (never 8 + 15), and more "
       "completions never score less.")
def _pierce_once() -> Built:
    n, m = z3.Ints("pierce_the_veil_completions more")
    veil = secondaries.pierce_the_veil
    goal = z3.And(veil(5, n) == z3.If(n >= 4, 15, z3.If(n >= 2, 8, 0)), veil(5, m) >= veil(5, n))
    return [n >= 0, m >= n], goal, {"pierce_the_veil_completions": n, "more": m}


@proof("missionpack-secondary-abhor-the-witch-selection", _ref("abhor-the-witch"),
       "Abhor the Witch can be selected exactly by an army without PSYKER units.")
def _abhor_selection() -> Built:
    psykers = z3.Bool("army_has_psykers")
    return [], secondaries.abhor_the_witch_selectable(psykers) == z3.Not(psykers), {"army_has_psykers": psykers}


@proof("missionpack-secondary-progressive-score-from-the-first-round",
       _ref("engage-on-all-fronts", "linebreaker", "domination", "grind-them-down", "targeted-destruction",
            "raise-the-banners-high", "investigate-sites", "mental-interrogation", "psychic-imprint"),
       "None of the pack's progressive secondaries says it cannot be scored in the first battle round: the same "
       "facts award the same in the first round as in any other.")
def _no_first_round_exclusion() -> Built:
    r = z3.Int("battle_round")
    pre, goal_parts, symbols = [_between(r, 2, 5)], [], {"battle_round": r}
    for slug in ("engage-on-all-fronts", "linebreaker", "domination", "grind-them-down", "targeted-destruction",
                 "raise-the-banners-high", "investigate-sites", "mental-interrogation", "psychic-imprint"):
        facts, domain = _facts(slug, f"_{slug.replace('-', '_')}")
        pre += domain
        symbols.update({f"{slug}:{k}": v for k, v in facts.items()})
        goal_parts.append(score(slug)(battle_round=1, **facts) == score(slug)(battle_round=r, **facts))
    return pre, z3.And(*goal_parts), symbols


@proof("missionpack-secondary-teleport-homer-not-in-the-first-round", _ref("teleport-homer"),
       "Teleport Homer, started at the end of a Movement phase, is completed no earlier than the second battle "
       "round, so the first round awards nothing and every later completion 4.")
def _teleport_first_round() -> Built:
    start, r = z3.Ints("start_round battle_round")
    done = secondaries.action_completion_round("Teleport Homer", start)
    goal = z3.And(z3.Or(done == secondaries.NEVER, _between(done, 2, 5)), secondaries.teleport_homer(1) == 0,
                  secondaries.teleport_homer(r) == 4)
    return [_between(start, 1, 5), _between(r, 2, 5)], goal, {"start_round": start, "battle_round": r}


@proof("missionpack-secondary-banners-removed-by-opponent-control", _ref("raise-the-banners-high"),
       "A banner stays raised through the start of a phase exactly when the opponent does not control its marker "
       "then; once removed it stays removed until raised again.")
def _banner_removal() -> Built:
    raised, opponent = z3.Bools("banner_raised opponent_controls_marker_at_start_of_phase")
    stays = secondaries.banner_stays_raised(raised, opponent)
    goal = z3.And(stays == z3.And(raised, z3.Not(opponent)),
                  z3.Not(secondaries.banner_stays_raised(False, opponent)))
    return [], goal, {"banner_raised": raised, "opponent_controls_marker_at_start_of_phase": opponent}


# Each action's own start conditions (the general ones of ninth:performing-actions come on top), as printed.
START_CONDITIONS: dict[str, tuple[str, tuple[str, ...], Callable[[list], Any]]] = {
    "raise-the-banners-high": ("raise_banners_can_start", ("infantry", "in_range_of_objective_marker",
                               "marker_has_your_banner", "enemy_non_aircraft_in_range_of_marker"),
                               lambda a: z3.And(a[0], a[1], z3.Not(a[2]), z3.Not(a[3]))),
    "investigate-sites": ("investigate_site_can_start", ("infantry", "character", "within_6_of_centre",
                          "enemy_non_aircraft_within_6_of_centre"),
                          lambda a: z3.And(a[0], z3.Not(a[1]), a[2], z3.Not(a[3]))),
    "deploy-scramblers": ("deploy_scramblers_can_start", ("infantry", "character", "wholly_within_your_deployment_zone",
                          "wholly_within_opponent_deployment_zone", "more_than_6_from_either_deployment_zone"),
                          lambda a: z3.And(a[0], z3.Not(a[1]), z3.Or(a[2], a[3], a[4]))),
    "teleport-homer": ("teleport_homer_can_start", ("infantry", "wholly_within_opponent_deployment_zone"),
                       lambda a: z3.And(a[0], a[1])),
    "plant-demolition-charges": ("plant_demolitions_can_start", ("infantry", "wholly_within_opponent_territory",
                                 "within_1_of_obstacle_or_area_terrain", "feature_has_explosives"),
                                 lambda a: z3.And(a[0], a[1], a[2], z3.Not(a[3]))),
    "mental-interrogation": ("mental_interrogation_can_attempt", ("psyker", "character",
                             "within_18_of_enemy_character"), lambda a: z3.And(*a)),
    "psychic-ritual": ("psychic_ritual_can_attempt", ("psyker", "character", "within_6_of_centre"),
                       lambda a: z3.And(*a)),
    "pierce-the-veil": ("pierce_the_veil_can_attempt", ("psyker", "character",
                        "within_6_of_opponent_battlefield_edge", "more_than_6_from_enemy_models"),
                        lambda a: z3.And(*a)),
    "psychic-imprint": ("psychic_imprint_can_attempt", ("psyker", "character",
                        "within_3_of_unscanned_opponent_terrain"), lambda a: z3.And(*a)),
}


@proof("missionpack-secondary-action-start-conditions", _ref(*START_CONDITIONS),
       "Each action and psychic action of the pack's secondaries may be started exactly when its printed "
       "conditions hold (INFANTRY, not CHARACTER, PSYKER CHARACTER, where it stands, where the enemy stands).")
def _start_conditions() -> Built:
    symbols, parts = {}, []
    for slug, (function, names, expected) in START_CONDITIONS.items():
        args = [z3.Bool(f"{slug}:{name}") for name in names]
        symbols.update({f"{slug}:{name}": a for name, a in zip(names, args)})
        parts.append(getattr(secondaries, function)(*args) == expected(args))
    return [], z3.And(*parts), symbols


# -- 4. Findings: the text as written fails these ------------------------------------------------------------------


@proof("missionpack-secondary-started-actions-are-completed", _ref("teleport-homer", "plant-demolition-charges"),
       "Every Teleport Homer or Plant Demolitions action started in a battle round can be completed (at the end "
       "of the next Command phase).", expect="disproved")
def _started_complete() -> Built:
    start = z3.Int("start_round")
    plant = z3.Bool("plant_demolitions")
    done = z3.If(plant, secondaries.action_completion_round("Plant Demolitions", start),
                 secondaries.action_completion_round("Teleport Homer", start))
    return [_between(start, 1, 5)], done != secondaries.NEVER, {"start_round": start, "plant_demolitions": plant}


@proof("missionpack-secondary-one-unit-starts-each-action", _ref("raise-the-banners-high"),
       "As the reprinted action rules say, no more than one unit of an army starts the same action in a battle "
       "round, Raise Banners included.", expect="disproved")
def _one_unit_per_action() -> Built:
    units, markers = z3.Ints("units_starting markers_open_to_a_banner")
    allowed = secondaries.raise_banners_units_may_start(units, markers)
    return [units >= 0, markers >= 0], z3.Implies(allowed, units <= 1), {
        "units_starting": units, "markers_open_to_a_banner": markers}


@proof("missionpack-secondary-two-secondaries-use-actions",
       _ref("raise-the-banners-high", "investigate-sites", "deploy-scramblers", "teleport-homer",
            "plant-demolition-charges"),
       "As the contents page says, two of the pack's secondary objectives require units to perform actions.",
       expect="disproved")
def _two_use_actions() -> Built:
    count = z3.Int("secondaries_with_actions")
    using = {item.objective for item in secondaries.ACTIONS if not item.psychic}
    return [count == len(using)], count == 2, {"secondaries_with_actions": count}


def printed_order_pierce_the_veil():
    """The Pierce the Veil table matched in the order the pack prints its awards (2 or more times first)."""
    table = secondaries.PIERCE_THE_VEIL
    rows = {row.label: row for row in table.rows}
    order = ("completed 2 or more times", "completed 4 times", "completed fewer than 2 times")
    return dataclasses.replace(table, name="secondary-pierce-the-veil-as-printed",
                               rows=tuple(dataclasses.replace(rows[label], overrides=()) for label in order))


@proof("missionpack-secondary-pierce-the-veil-as-printed-reaches-15", _ref("pierce-the-veil"),
       "Matched in the printed order, Pierce the Veil awards 15 once the psychic action is completed 4 times.",
       expect="disproved")
def _pierce_printed() -> Built:
    n = z3.Int("pierce_the_veil_completions")
    literal = printed_order_pierce_the_veil()
    return [_between(n, 0, 5)], z3.Implies(n >= 4, literal(pierce_the_veil_completions=n) == 15), {
        "pierce_the_veil_completions": n}


@proof("missionpack-secondary-action-rounds-readings-agree", _ref("teleport-homer", "plant-demolition-charges"),
       "Whether a Teleport Homer or Plant Demolitions action counts as the unit's one action of the battle round it "
       "was started in only, or of every battle round the unit performs it in (the next, until its Command phase "
       "ends), makes no difference to whether the unit has attempted an action in a battle round.",
       expect="disproved")
def _action_round_readings() -> Built:
    start, battle_round = z3.Ints("start_round battle_round")
    plant = z3.Bool("plant_demolitions")
    done = z3.If(plant, secondaries.action_completion_round("Plant Demolitions", start),
                 secondaries.action_completion_round("Teleport Homer", start))
    chosen = secondaries.action_attempted_in_round(start, done, battle_round)
    every_round_performed = z3.Or(battle_round == start, z3.And(done != secondaries.NEVER, battle_round == done))
    return [_between(start, 1, 5), _between(battle_round, 1, 5)], chosen == every_round_performed, {
        "start_round": start, "battle_round": battle_round, "plant_demolitions": plant}


@proof("missionpack-secondary-psychic-ritual-readings-agree", _ref("psychic-ritual"),
       "Whether 'any unit ... 3 times' counts one unit's completions or all your units' together makes no "
       "difference to Psychic Ritual.", expect="disproved")
def _ritual_readings() -> Built:
    a, b, c = z3.Ints("completions_unit_a completions_unit_b completions_unit_c")
    together = secondaries.psychic_ritual(5, a + b + c)
    one_unit = secondaries.psychic_ritual(5, z3.If(a >= b, z3.If(a >= c, a, c), z3.If(b >= c, b, c)))
    return [_between(a, 0, 5), _between(b, 0, 5), _between(c, 0, 5), a + b + c <= 5], together == one_unit, {
        "completions_unit_a": a, "completions_unit_b": b, "completions_unit_c": c}


@proof("missionpack-secondary-while-we-stand-small-army-readings-agree", _ref("while-we-stand-we-fight"),
       "In an army of three or fewer models, scoring 5 for each model of the identified units or 5 for each "
       "identified unit makes no difference.", expect="disproved")
def _small_army() -> Built:
    models, units = z3.Ints("models_in_army units_in_army")
    per_model = secondaries.while_we_stand_we_fight(5, secondaries.while_we_stand_noted_models(models, 0))
    per_unit = secondaries.while_we_stand_we_fight(5, units)
    return [_between(models, 1, 3), _between(units, 1, models)], per_model == per_unit, {
        "models_in_army": models, "units_in_army": units}


@proof("missionpack-secondary-psychic-imprint-readings-agree", _ref("psychic-imprint"),
       "Psychic Imprint's 'successfully completed' needs no 'this battle round': scoring a completion from any "
       "earlier round gives the same award.", expect="disproved")
def _imprint_readings() -> Built:
    this_round, earlier = z3.Bools("completed_this_round completed_in_an_earlier_round")
    r = z3.Int("battle_round")
    chosen = secondaries.psychic_imprint(r, this_round)
    literal = secondaries.psychic_imprint(r, z3.Or(this_round, earlier))
    return [_between(r, 1, 5)], chosen == literal, {"completed_this_round": this_round,
                                                    "completed_in_an_earlier_round": earlier, "battle_round": r}


@proof("missionpack-secondary-engage-on-all-fronts-readings-agree", _ref("engage-on-all-fronts"),
       "Whether 'those units are all more than 6\" from the centre' speaks of the units counted or of every unit "
       "wholly within those table quarters makes no difference to Engage on All Fronts.", expect="disproved")
def _engage_readings() -> Built:
    far = [z3.Bool(f"quarter_{q}_has_unit_more_than_6_from_centre") for q in range(1, 5)]
    near = [z3.Bool(f"quarter_{q}_has_unit_within_6_of_centre") for q in range(1, 5)]
    r = z3.Int("battle_round")
    counted = sum(z3.If(f, 1, 0) for f in far)
    every = sum(z3.If(z3.And(f, z3.Not(n)), 1, 0) for f, n in zip(far, near))
    goal = secondaries.engage_on_all_fronts(r, counted) == secondaries.engage_on_all_fronts(r, every)
    return [_between(r, 1, 5)], goal, {**{str(s): s for s in far + near}, "battle_round": r}

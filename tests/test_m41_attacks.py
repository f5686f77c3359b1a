"""999.m41 attacks through the shared engine: a dice-by-dice simulation, the literal engine, refusals and the CLI.

The simulation rolls every die one at a time and asks m41's rule functions about each roll (hit_scored, hits,
to_wound_needed, rending_auto_wounds, successive_saves, passes_save, feel_no_pain_saves, ...); it shares no
probability with the calculator, so agreement checks the calculator's counting of faces, its mixtures of wound
kinds and the engine's allocation together.
"""

from __future__ import annotations

import copy
import json
import math
import random

import pytest

from rules import calculator
from rules.m41 import assault, models, shooting, usr, weapons
from rules.m41.attacks import COVER_LEVEL, RulesetCannot
from rules.m41.scenario import read_scenario
from rules40k.cli import main


def d6(rng: random.Random) -> int:
    return rng.randint(1, 6)


def _attacks(weapon, ctx) -> int:
    has = lambda name: weapon.rule(name) is not None  # noqa: E731
    if weapon.melee:
        return assault.number_of_attacks(weapon.A, counts_as_charging=ctx.charged)
    moved = not usr.counts_as_stationary(ctx.moved, has("relentless"), has("slow and purposeful"))
    return weapons.shots_fired(weapon.kind, weapon.shots, moved, ctx.within_half_range, weapon.stationary_shots)


def _one_attack(rng, sc, weapon, target) -> str | None:
    """Roll one attack die to hit and to wound: None (no wound), "wound" or "rend"."""
    has = lambda name: weapon.rule(name) is not None  # noqa: E731
    ctx = sc.context
    if weapon.melee:
        hit = lambda roll: assault.hits(roll, weapon.WS, target.WS, usr.deadly_hit_bonus(has("deadly")))  # noqa: E731
        reroll_failed = usr.hatred_rerolls_failed_hits(has("hatred"), ctx.first_round)
    else:
        skill = shooting.ballistic_skill_used(weapon.BS, ctx.snap_shots)
        penalty = (ctx.to_hit_penalty - usr.sniper_hit_bonus(has("sniper")) - usr.deadly_hit_bonus(has("deadly"))
                   - usr.hard_to_hit_penalty(1 if target.rule("hard to hit") else 0))
        hit = lambda roll: shooting.hit_scored(roll, skill, penalty)  # noqa: E731
        reroll_failed = False

    def attempt() -> tuple[bool, int]:
        rolls = [d6(rng) for _ in range(2 if has("twin linked") else 1)]  # twin-linked: roll twice, use the better
        return any(hit(r) for r in rolls), rolls[0]

    hit_ok, first = attempt()
    if not hit_ok and (reroll_failed or (has("preferred enemy") and first == 1)):
        hit_ok, _ = attempt()  # the attack re-rolled in total
    if not hit_ok:
        return None

    needed = shooting.to_wound_needed(weapon.S, target.T)
    if has("flesh bane"):
        needed = usr.flesh_bane_wound_needed(needed, False)
    if has("sniper"):
        needed = usr.sniper_wound_needed(needed)
    poison = weapon.rule("poisoned")
    if poison and not weapon.melee:
        needed = usr.poisoned_ranged_wound_needed(needed, poison.value)
    rending = has("rending") or has("sniper")

    def wound(roll, threshold):
        if rending and usr.rending_auto_wounds(roll):
            return "rend"
        return "wound" if roll >= threshold else None

    roll = d6(rng)
    result = wound(roll, needed)
    monster = usr.monster_hunter_rerolls_failed_wounds(has("monster hunter"), target.kind == "monstrous creature")
    if result is None:
        if poison and weapon.melee:
            result = wound(d6(rng), poison.value)
        elif has("shred") or monster or (has("preferred enemy") and roll == 1):
            result = wound(d6(rng), needed)
    return result


def _save_rolls_fail(rng, sc, weapon, model, ap, overpowered) -> bool:
    """Roll the model's saves against one wound, best first, each later one worse: True if every one fails."""
    has = lambda name: weapon.rule(name) is not None  # noqa: E731
    saves = [weapons.armour_save_needed(model.Sv, ap, overpowered)]
    if model.InSv is not None:
        saves.append(weapons.invulnerable_save_needed(model.InSv))
    if sc.cover and shooting.cover_applies(weapon.melee) and usr.cover_save_allowed(has("ignores cover")):
        printed = shooting.cover_save(COVER_LEVEL[sc.cover],
                                      model.kind == "monstrous creature" or model.rule("bulky") is not None)
        saves.append(usr.cover_save_needed(printed, small_targets=model.rule("small targets") is not None,
                                           stealth=model.rule("stealth") is not None, sniper=has("sniper")))
    return not any(models.passes_save(d6(rng), save) for save in models.successive_saves(saves))


def simulate(sc, trials: int, seed: int) -> list[int]:
    """Models destroyed in each of ``trials`` games, every die rolled. Wounds go to the first model in the order that
    is left, and stay on it until it is removed (the engine's allocation, one the rules allow)."""
    rng = random.Random(seed)
    rank = {name: i for i, name in enumerate(sc.choices.allocation_order)}
    order = sorted(sc.models, key=lambda m: rank.get(m.name, len(rank)))
    out = []
    for _ in range(trials):
        alive = [[m, m.W] for m in order for _ in range(m.count)]
        for weapon in sc.weapons:
            kinds = [_one_attack(rng, sc, weapon, order[0])
                     for _ in range(weapon.count * _attacks(weapon, sc.context))]
            overpowered = weapons.overpowers(weapon.S, order[0].T, usr.triggers_overpower(False,
                                                                                           weapon.rule("overpower")))
            instant = weapon.rule("instant death") is not None
            for kind in kinds:
                if kind is None or not alive:
                    continue
                model = alive[0]
                ap = usr.rending_ap(6, weapon.AP) if kind == "rend" else weapon.AP
                if not _save_rolls_fail(rng, sc, weapon, model[0], ap, overpowered):
                    continue
                if model[0].FNP is not None and usr.feel_no_pain_saves(d6(rng), ap, model[0].FNP, overpowered,
                                                                       instant):
                    continue
                model[1] = usr.wounds_after_unsaved_wound(model[1], instant,
                                                          weapons.wounds_lost_to_unsaved_wound(overpowered))
                if model[1] <= 0:
                    alive.pop(0)
        out.append(sum(m.count for m in sc.models) - len(alive))
    return out


GUARDSMEN = {"name": "Guardsman", "count": 10, "WS": 3, "T": 3, "W": 1, "Sv": 5}
SCENARIOS = {
    "bolters at guardsmen in cover": {
        "weapons": [{"name": "Boltgun", "count": 10, "type": "Rapid Fire 1", "S": 4, "AP": 5, "BS": 4}],
        "target": {"models": [GUARDSMEN], "cover": "light"}, "context": {"within_half_range": True}},
    "twin-linked rending and sniper at terminators with invulnerable saves": {
        "weapons": [{"name": "Assault cannon", "count": 2, "type": "Heavy 4", "S": 6, "AP": 4, "BS": 4,
                     "rules": ["Rending", "Twin-linked"]},
                    {"name": "Sniper rifle", "count": 3, "type": "Heavy 1", "S": 3, "AP": 6, "BS": 3,
                     "rules": ["Sniper"]}],
        "target": {"models": [{"name": "Terminator", "count": 5, "WS": 4, "T": 4, "W": 1, "Sv": 2, "InSv": 5}],
                   "cover": "medium"}},
    "overpower and feel no pain on multi-wound models": {
        "weapons": [{"name": "Autocannon", "count": 3, "type": "Heavy 2", "S": 7, "AP": 6, "BS": 4},
                    {"name": "Lasgun", "count": 10, "type": "Rapid Fire 1", "S": 3, "AP": "-", "BS": 3}],
        "target": {"models": [{"name": "Ogryn", "count": 3, "WS": 4, "T": 4, "W": 3, "Sv": 5, "FNP": 5},
                              {"name": "Bone'ead", "count": 1, "WS": 4, "T": 4, "W": 4, "Sv": 5, "FNP": 5}]}},
    "melee with hatred, poison and the charge": {
        "weapons": [{"name": "Poisoned claws", "count": 6, "type": "Melee", "S": 3, "AP": -1, "WS": 4, "A": 2,
                     "rules": ["Poisoned (4+)", "Hatred", "Preferred Enemy"]}],
        "target": {"models": [{"name": "Warrior", "count": 3, "WS": 5, "T": 5, "W": 2, "Sv": 4}]},
        "context": {"charged": True, "first_round": True}},
    "instant death at a monstrous creature in cover": {
        "weapons": [{"name": "Force bolt", "count": 4, "type": "Assault 2", "S": 5, "AP": 3, "BS": 5,
                     "rules": ["Instant Death", "Shred"]}],
        "target": {"models": [{"name": "Carnifex", "count": 2, "WS": 3, "T": 6, "W": 4, "Sv": 3,
                               "kind": "monstrous creature"}], "cover": "light"}},
    "snap shots with rend at a stealthy unit": {
        "weapons": [{"name": "Shuriken", "count": 8, "type": "Assault 2", "S": 4, "AP": -2, "BS": 4,
                     "rules": ["Preferred Enemy"]}],
        "target": {"models": [{"name": "Scout", "count": 5, "WS": 4, "T": 4, "W": 1, "Sv": 4, "rules": ["Stealth"]}],
                   "cover": "light"}, "context": {"snap_shots": True}},
}


@pytest.mark.parametrize("name", SCENARIOS)
def test_exact_mean_agrees_with_a_dice_by_dice_simulation(name):
    """The exact expected models destroyed lies within 4 standard errors of a simulation rolling every die."""
    sc = read_scenario(SCENARIOS[name])
    exact = calculator.calculate(sc, ruleset="m41").expected_models_destroyed
    sample = simulate(sc, 3000, seed=24)
    mean = sum(sample) / len(sample)
    spread = math.sqrt(sum((x - mean) ** 2 for x in sample) / (len(sample) - 1)) / math.sqrt(len(sample))
    assert abs(float(exact) - mean) <= 4 * spread + 1e-9, (float(exact), mean, spread)


SMALL = {
    "two weapons, two wound kinds": {
        "weapons": [{"name": "Rending claws", "count": 2, "type": "Melee", "S": 4, "AP": "-", "WS": 4, "A": 1,
                     "rules": ["Rending"]},
                    {"name": "Krak", "count": 1, "type": "Heavy 1", "S": 8, "AP": 3, "BS": 4}],
        "target": {"models": [{"name": "Veteran", "count": 2, "WS": 4, "T": 4, "W": 2, "Sv": 3, "FNP": 4}]}},
    "sergeant last": {
        "weapons": [{"name": "Boltgun", "count": 3, "type": "Rapid Fire 1", "S": 4, "AP": 5, "BS": 4}],
        "target": {"models": [{"name": "Sergeant", "count": 1, "WS": 4, "T": 3, "W": 2, "Sv": 5},
                              {"name": "Guardsman", "count": 2, "WS": 3, "T": 3, "W": 1, "Sv": 5}]},
        "choices": {"allocation_order": ["Guardsman", "Sergeant"]}},
}


@pytest.mark.parametrize("name", SMALL)
def test_literal_engine_agrees_with_the_fast_one(name):
    """The literal engine (the rules step by step) gives exactly the fast engine's distributions."""
    sc = read_scenario(SMALL[name])
    fast = calculator.calculate(sc, ruleset="m41")
    literal = calculator.calculate(sc, engine="literal", ruleset="m41")
    assert fast.models_destroyed == literal.models_destroyed
    assert fast.wounds_lost == literal.wounds_lost
    assert sum(fast.models_destroyed.values()) == 1


def test_allocation_order_decides_who_takes_the_first_wound():
    """The defender's order is followed: listing the 2-wound sergeant first, one wound destroys no model."""
    data = copy.deepcopy(SMALL["sergeant last"])
    data["weapons"] = [{"name": "Lascannon", "count": 1, "type": "Heavy 1", "S": 9, "AP": 2, "BS": 4}]
    guard_first = calculator.calculate(read_scenario(data), ruleset="m41")
    data["choices"]["allocation_order"] = ["Sergeant", "Guardsman"]
    sergeant_first = calculator.calculate(read_scenario(data), ruleset="m41")
    # One shot: hit 2/3, S9 v T3 wounds on 2+ (5/6) and overpowers (2 wounds); AP2 pierces 5+: 5/9 unsaved.
    assert guard_first.models_destroyed[1] == sergeant_first.models_destroyed[1] == pytest.approx(5 / 9)
    assert guard_first.destroyed_by_group["Guardsman"][1] == sergeant_first.destroyed_by_group["Sergeant"][1]
    assert sergeant_first.destroyed_by_group["Guardsman"] == {0: 1}


REFUSED = [
    ({"weapons": [{"name": "Frag", "count": 1, "type": "Assault 1", "S": 3, "AP": 6, "BS": 4, "rules": ["Blast"]}]},
     "Frag: Blast weapons hit by template"),
    ({"weapons": [{"name": "Gun", "count": 1, "type": "Assault 1", "S": 3, "AP": 6, "BS": 4, "rules": ["Haywire"]}]},
     "Gun: the m41 calculator does not calculate Haywire"),
    ({"weapons": [{"name": "Gun", "count": 1, "type": "Assault 1", "S": 3, "AP": 6, "BS": 4, "rules": ["Poisoned"]}]},
     "Gun: Poisoned needs its value"),
    ({"weapons": [{"name": "Gun", "count": 1, "type": "Ordnance 1", "S": 8, "AP": 3, "BS": 4}],
      "context": {"snap_shots": True}}, "Gun: an Ordnance weapon cannot fire snap shots"),
    ({"weapons": [{"name": "Gun", "count": 1, "type": "Assault 1", "S": 3, "AP": 6, "BS": 4,
                   "rules": ["Twin-linked", "Preferred Enemy"]}]}, "Twin-Linked with Preferred Enemy"),
    ({"target": {"models": [GUARDSMEN, dict(GUARDSMEN, name="Veteran", Sv=4)]}},
     "target.models[1] differs from target.models[0] in T, saves, kind or rules"),
    ({"target": {"models": [dict(GUARDSMEN, name="Commissar", count=1, kind="character"), GUARDSMEN]}},
     "Guardsman takes wounds after a character"),
    ({"target": {"models": [dict(GUARDSMEN, rules=["Fearless"])]}},
     "target.models[0].rules: the m41 calculator does not calculate Fearless"),
    ({"weapons": [{"name": "Claw", "count": 1, "type": "Melee", "S": 3, "AP": 6, "WS": 4, "A": 1}],
      "target": {"models": [GUARDSMEN, dict(GUARDSMEN, name="Sergeant", count=1, WS=4)]}},
     "Claw: the target's models differ in WS"),
]


@pytest.mark.parametrize("change,words", REFUSED, ids=[w for _, w in REFUSED])
def test_what_the_calculator_does_not_calculate_is_refused_in_one_sentence(change, words):
    data = {**copy.deepcopy(SCENARIOS["bolters at guardsmen in cover"]), **copy.deepcopy(change)}
    with pytest.raises(RulesetCannot) as error:
        calculator.calculate(read_scenario(data), ruleset="m41")
    assert words in str(error.value) and "\n" not in str(error.value)


def test_cli_speaks_the_games_terms(capsys, tmp_path):
    """calc --ruleset m41 --explain names the rolls as a player makes them: to hit on N+, to wound on N+, the saves
    best first, Feel no Pain; --json gives exact ratios."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps(SCENARIOS["overpower and feel no pain on multi-wound models"]))
    assert main(["calc", "--ruleset", "m41", str(path), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "Models destroyed (Warhammer 999.m41)" in out
    assert "to hit on 3+: P(hit) = 66.7%" in out  # BS4
    assert "to wound on 2+" in out and "to wound on 5+" in out  # at T4: S7 (S-T 3) on 2+, S3 (S-T -1) on 5+
    assert "saves against Ogryn, best first: 6+; P(normal wound unsaved) = 83.3%" in out  # overpower: 5+ at -1
    assert "overpower: -1 armour, 2 wounds, no Feel no Pain" in out
    assert "Feel no Pain 5+ where allowed" in out
    assert main(["calc", "--ruleset", "m41", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"] == "m41" and data["steps"][0]["p_hit"] == "2/3"


def test_cli_bad_m41_scenario_is_one_sentence_and_exit_2(capsys, tmp_path):
    path = tmp_path / "s.json"
    data = copy.deepcopy(SCENARIOS["bolters at guardsmen in cover"])
    data["weapons"][0]["AP"] = 0
    path.write_text(json.dumps(data))
    plot = tmp_path / "p.svg"
    assert main(["calc", "--ruleset", "m41", str(path), "--plot", str(plot)]) == 2
    err = capsys.readouterr().err.strip().split("\n")
    assert len(err) == 1 and "weapons[0].AP must be 1 to 6, '-' or a rend of -1 to -3" in err[0], err
    assert not plot.exists()
    data["weapons"][0]["AP"] = 5
    data["weapons"][0]["rules"] = ["Blast"]
    path.write_text(json.dumps(data))
    assert main(["calc", "--ruleset", "m41", str(path)]) == 2
    err = capsys.readouterr().err.strip().split("\n")
    assert len(err) == 1 and "Blast weapons hit by template" in err[0], err

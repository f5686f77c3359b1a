"""The earlier edition's Shooting phase and Making Attacks (ruleset ``ninth``): its z3 proofs (each failing for a
broken copy of the rule it rests on), and ``calc --ruleset ninth`` on the shared engine checked three ways, as the
Core Rules' and the quick-reference sheet's are: against an oracle written here from the text's words (sharing
nothing with ``rules.ninth``), against the literal engine, and against a dice-rolling simulation. Each property
is run once more against a deliberately broken rule and must then fail.
"""

from __future__ import annotations

import copy
import math
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import Phase, assume, example, given, note, settings
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs
from properties import proofs_ninth_attacks
from properties.mutation import fails_broken
from rules import calculator, dice, logic
from rules.engine import literal
from rules.engine.exact import ONE
from rules.engine import kernels
from rules.engine.simulate import Simulator
from rules.ninth import attacks, making_attacks, shooting
from rules.scenario import read_scenario
from rules40k import annotations

RULES = calculator.attack_rules("ninth")
MINE = broken_rules.proofs_built_in(proofs_ninth_attacks)


# -- Proofs ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_ninth_attack_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name, counterexample=False)


# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
PROOF_MUTANTS = [
    ("ninth-hit-modifier-capped", making_attacks, "capped_roll_modifier", lambda total: total),
    ("ninth-hit-one-fails-six-hits", making_attacks, "hit_scored",  # the unmodified 1 and 6 forgotten
     lambda unmodified_roll, modifier, skill, automatically_hits=False:
         unmodified_roll + logic.Clamp(modifier, -1, 1) >= skill),
    ("ninth-hit-monotone", making_attacks, "hit_scored",  # the comparison the wrong way round
     lambda unmodified_roll, modifier, skill, automatically_hits=False: unmodified_roll + modifier <= skill),
    ("ninth-wound-table-monotone", making_attacks, "wound_roll_needed",  # GREATER and LOWER swapped
     lambda strength, toughness: logic.If(strength >= 2 * toughness, 2, logic.If(
         strength > toughness, 5, logic.If(strength == toughness, 4, logic.If(2 * strength > toughness, 3, 6))))),
    ("ninth-wound-table-rows-as-printed", making_attacks, "wound_roll_needed",  # the HALF row lost (literal LOWER)
     lambda strength, toughness: logic.If(strength >= 2 * toughness, 2, logic.If(
         strength > toughness, 3, logic.If(strength == toughness, 4, 5)))),
    ("ninth-wound-one-fails-six-wounds-capped", making_attacks, "capped_roll_modifier",
     lambda total: logic.Clamp(total, -2, 2)),
    ("ninth-save-never-better-than-its-sv", making_attacks, "armour_save_holds",  # AP added the wrong way
     lambda unmodified_roll, ap, save: logic.And(unmodified_roll != 1, unmodified_roll - ap >= save)),
    ("ninth-save-ap-monotone", making_attacks, "armour_save_holds",
     lambda unmodified_roll, ap, save: logic.And(unmodified_roll != 1, unmodified_roll - ap >= save)),
    ("ninth-invulnerable-save-ignores-ap", making_attacks, "invulnerable_save_holds",  # AP applied after all
     lambda unmodified_roll, ap, invulnerable_save: logic.And(unmodified_roll != 1,
                                                              unmodified_roll + ap >= invulnerable_save)),
    ("ninth-save-used-is-one-of-the-two-and-the-better", making_attacks, "failing_faces_of_the_save_used",
     lambda armour_failing_faces, invulnerable_failing_faces: logic.Max(armour_failing_faces,
                                                                        invulnerable_failing_faces)),
    ("ninth-damage-excess-lost-mortal-carried", making_attacks, "damage_carried_to_next_model",  # excess kept
     lambda damage, wounds_left, mortal_wounds: logic.Max(damage - wounds_left, 0)),
    ("ninth-blast-attacks-bounded", shooting, "blast_attacks",  # 6-10 models read as 6-11
     lambda rolled, maximum, models_in_target: logic.If(models_in_target >= 12, maximum, logic.If(
         models_in_target >= 6, logic.Max(rolled, 3), rolled))),
    ("ninth-hit-penalties-only-penalties", shooting, "heavy_hit_modifier",  # INFANTRY forgotten
     lambda heavy, infantry, unit_moved: logic.If(logic.And(heavy, unit_moved), -1, 0)),
    ("ninth-look-out-sir-web-never-protects-more", shooting, "look_out_sir_protects",  # the squad forgotten
     lambda character_wounds, near_other_vehicle_or_monster_unit, near_other_unit_of_three_or_more:
         logic.And(character_wounds <= 9, near_other_vehicle_or_monster_unit)),
]


@pytest.mark.parametrize("name,module,attribute,broken", PROOF_MUTANTS, ids=[m[0] for m in PROOF_MUTANTS])
def test_ninth_attack_proof_fails_on_a_broken_rule(monkeypatch, name, module, attribute, broken):
    item = proofs.PROOFS[name]
    assert item.expect == "proved"
    monkeypatch.setattr(module, attribute, broken)
    assert proofs.check(item).status == "disproved"


def test_ninth_attack_findings_record_every_disproved_proof():
    recorded = {f["check"] for f in annotations.findings("ninth")}
    for name in MINE:
        if proofs.PROOFS[name].expect == "disproved":
            assert f"proof:{name}" in recorded, name


# The web page's three cases (003 lines 362-366), each from its own words: (wounds, near a friendly unit with a
# VEHICLE/MONSTER of 10+ Wounds, near a friendly non-CHARACTER VEHICLE/MONSTER unit, near a friendly non-CHARACTER
# unit of 3+ models) -> protected.
WEB_LOOK_OUT_SIR = [
    ((9, False, False, True), True),  # "A friendly non-CHARACTER unit that contains 3 or more models"
    ((9, False, True, False), True),  # "A friendly non-CHARACTER unit that contains 1 or more VEHICLE or MONSTER"
    ((9, True, False, False), True),  # "... VEHICLE or MONSTER models with a wounds characteristic of 10 or more"
    ((9, False, False, False), False),  # e.g. only a CHARACTER squad of 3 or more nearby
    ((10, True, True, True), False),  # "CHARACTER models with a Wounds characteristic of 9 or less"
]


@pytest.mark.refs("ninth:shooting-phase/look-out-sir")
@pytest.mark.parametrize("inputs,protected", WEB_LOOK_OUT_SIR)
def test_ninth_look_out_sir_web_cases(inputs, protected):
    """The web page's Look Out, Sir protects a CHARACTER in exactly the cases its text names."""
    assert shooting.look_out_sir_protects_web(*inputs) == protected


def test_ninth_wound_table_finding_is_the_texts_doing(monkeypatch):
    """The literal-rows proof is disproved by the printed order, not by its own statement: with the code's table
    (LOWER stopping above half) in its place it holds."""
    monkeypatch.setattr(proofs_ninth_attacks, "_literal_first_match", making_attacks.wound_roll_needed)
    assert proofs.check(proofs.PROOFS["ninth-wound-table-literal-rows-reach-half"]).status == "proved"


# -- the calculator: strategies -------------------------------------------------------------------------------

TYPES = ("Assault", "Heavy", "Rapid Fire", "Grenade", "Pistol", "Melee")


@st.composite
def _weapons(draw, *, name: str = "weapon", max_count: int = 3, attacks=(1, 2, 3, "D3", "D6", "2D3"),
             damages=(1, 2, "D3")) -> dict:
    kind = draw(st.sampled_from(TYPES))
    blast = kind != "Melee" and draw(st.booleans())
    return {"name": name, "count": 1 if kind == "Grenade" else draw(st.integers(1, max_count)),
            "A": draw(st.sampled_from(attacks)), "type": kind, "skill": draw(st.integers(2, 6)),
            "S": draw(st.integers(1, 10)), "AP": draw(st.integers(-4, 0)), "D": draw(st.sampled_from(damages)),
            "abilities": ["Blast"] if blast else []}


@st.composite
def _contexts(draw, weapons: list) -> dict:
    """What the edition's rules read, drawn so that every weapon may fire (refusals have a property of their own)."""
    ranged = [w for w in weapons if w["type"] != "Melee"]
    kinds = {w["type"] for w in ranged}
    advanced = bool(ranged) and kinds == {"Assault"} and draw(st.booleans())
    vehicle = draw(st.booleans())
    engaged = (bool(ranged) and not any(w["abilities"] for w in ranged) and (vehicle or kinds == {"Pistol"})
               and draw(st.booleans()))
    return {"target_within_half_range": draw(st.booleans()), "attacker_moved_inches": draw(st.sampled_from([0, 1, 5])),
            "attacker_infantry": draw(st.booleans()), "attacker_monster_or_vehicle": vehicle,
            "attacker_engaged": engaged, "target_engaged": engaged,
            "shooting_type": draw(st.sampled_from(["normal", "snap"])) if not advanced else "assault",
            "hit_modifier": draw(st.integers(-2, 2)), "wound_modifier": draw(st.integers(-2, 2))}


@st.composite
def _models(draw, name: str, toughness: int, wounds=(1, 4), count=(1, 5)) -> dict:
    model = {"name": name, "count": draw(st.integers(*count)), "T": toughness, "Sv": draw(st.integers(2, 7)),
             "W": draw(st.integers(*wounds))}
    if draw(st.booleans()):
        model["InSv"] = draw(st.integers(3, 6))
    if draw(st.booleans()):
        model["FNP"] = draw(st.integers(4, 6))
    return model


@st.composite
def _scenarios(draw) -> dict:
    weapons = [draw(_weapons(name=f"weapon {i + 1}", max_count=2, attacks=(1, 2, "D3", "D6")))
               for i in range(draw(st.integers(1, 2)))]
    toughness = draw(st.integers(2, 8))
    models = [draw(_models(f"Models {chr(65 + i)}", toughness)) for i in range(draw(st.integers(1, 3)))]
    return {"weapons": weapons, "target": {"models": models}, "context": draw(_contexts(weapons))}


def _calculate(data: dict, method: str = "fast") -> calculator.Result:
    return calculator.calculate(read_scenario(copy.deepcopy(data)), method, ruleset="ninth")


# -- one wound at a time, as the literal engine does it -------------------------------------------------


@pytest.mark.refs("ninth:making-attacks/allocate-attack", "ninth:making-attacks/saving-throw",
                  "ninth:making-attacks/inflict-damage", "ninth:making-attacks/invulnerable-saves",
                  "ninth:making-attacks/ignoring-wounds")
@settings(deadline=None)
@given(_scenarios())
def test_ninth_fast_engine_gives_the_literal_engines_distribution(data):
    """Allocate Attack to Inflict Damage: the fast engine gives exactly the literal engine's distribution, each
    wound allocated to the model that had the last one, saved on its own, its excess damage lost."""
    fast, literal = _calculate(data), _calculate(data, "literal")
    note(f"fast {fast.wounds_lost}; literal {literal.wounds_lost}")
    assert fast.states == literal.states


# -- the text's arithmetic --------------------------------------------------------------------------------------


def _faces(test) -> Fraction:
    return Fraction(sum(1 for r in range(1, 7) if test(r)), 6)


def _needed(s: int, t: int) -> int:
    """The wound table's D6 result from its words (LOWER read as above half: interpretation ninth-wound-table-bands)."""
    return 2 if s >= 2 * t else 3 if s > t else 4 if s == t else 6 if 2 * s <= t else 5


def _text_expected_kills(data: dict) -> Fraction:
    """Expected W1 models destroyed by one weapon entry among enough models, from the text's words."""
    (weapon,), ctx = data["weapons"], data["context"]
    model = data["target"]["models"][0]
    cap = lambda m: max(-1, min(1, m))  # noqa: E731  "can never be modified by more than -1 or +1"
    kind, models, ranged = weapon["type"], model["count"], weapon["type"] != "Melee"
    # Number of Attacks, Blast ("minimum of 3 attacks" at 6-10 models, "the maximum" at 11+), Rapid Fire
    # ("double the number of attacks ... within half the weapon's range").
    law = dice.distribution(dice.parse(weapon["A"]))
    most = max(law)
    per_model = Fraction(0)
    for rolled, p in law.items():
        n = rolled
        if weapon["abilities"]:
            n = most if models >= 11 else max(n, 3) if models >= 6 else n
        if kind == "Rapid Fire" and ctx["target_within_half_range"]:
            n *= 2
        per_model += p * n
    # Hit roll: "equal to or greater than" BS/WS; a 6 always hits, a 1 always fails; Assault -1 after Advancing,
    # Heavy -1 for moving INFANTRY, Big Guns Never Tire -1 for an engaged VEHICLE/MONSTER with a Heavy weapon.
    m = ctx["hit_modifier"]
    if ranged:
        m -= kind == "Assault" and ctx["shooting_type"] == "assault"
        m -= kind == "Heavy" and ctx["attacker_infantry"] and ctx["attacker_moved_inches"] > 0
        m -= kind == "Heavy" and ctx["attacker_monster_or_vehicle"] and ctx["attacker_engaged"]
    if ranged and ctx["shooting_type"] == "snap":  # Overwatch: only an unmodified 6
        p_hit = Fraction(1, 6)
    else:
        p_hit = _faces(lambda r: r == 6 or (r != 1 and r + cap(m) >= weapon["skill"]))
    needed = _needed(weapon["S"], model["T"])
    p_wound = _faces(lambda r: r == 6 or (r != 1 and r + cap(ctx["wound_modifier"]) >= needed))
    # Saving throw: the roll with AP against Sv, a 1 fails; the invulnerable save never modified, the better used.
    unsaved = _faces(lambda r: r == 1 or r + weapon["AP"] < model["Sv"])
    if "InSv" in model:
        unsaved = min(unsaved, _faces(lambda r: r == 1 or r < model["InSv"]))
    kept = Fraction(7 - model["FNP"], 6) if "FNP" in model else Fraction(0)
    kill = sum((p * (1 - kept ** d) for d, p in dice.distribution(dice.parse(weapon["D"])).items()), Fraction(0))
    return weapon["count"] * per_model * p_hit * p_wound * unsaved * kill


@st.composite
def _oracle_scenarios(draw):
    weapon = draw(_weapons(max_count=2, attacks=(1, 2, 3, "D3", "D6"), damages=(1, 2, "D3")))
    most = weapon["count"] * max(6 if weapon["abilities"] else 0,
                                 max(dice.distribution(dice.parse(weapon["A"])))) * (
        2 if weapon["type"] == "Rapid Fire" else 1)
    assume(most <= 30)
    model = draw(_models("Troopers", draw(st.integers(2, 8)), wounds=(1, 1), count=(most, 40)))
    return {"weapons": [weapon], "target": {"models": [model]}, "context": draw(_contexts([weapon]))}


def _oracle_example(kind: str, **context):
    """One weapon at six T4 models with no save, in a context that differs from nothing applying by ``context``."""
    nothing = {"target_within_half_range": False, "attacker_moved_inches": 0, "attacker_infantry": False,
               "attacker_monster_or_vehicle": False, "attacker_engaged": False, "target_engaged": False,
               "shooting_type": "normal", "hit_modifier": 0, "wound_modifier": 0}
    return {"weapons": [{"name": "w", "count": 1, "A": 2, "type": kind, "skill": 3, "S": 4, "AP": 0, "D": 1,
                         "abilities": []}],
            "target": {"models": [{"name": "Troopers", "count": 6, "T": 4, "Sv": 7, "W": 1}]},
            "context": {**nothing, **context}}


@pytest.mark.refs("ninth:making-attacks/hit-roll", "ninth:making-attacks/wound-roll",
                  "ninth:making-attacks/saving-throw", "ninth:making-attacks/invulnerable-saves",
                  "ninth:making-attacks/ignoring-wounds", "ninth:shooting-phase/number-of-attacks",
                  "ninth:shooting-phase/ranged-weapon-types/assault", "ninth:shooting-phase/ranged-weapon-types/heavy",
                  "ninth:shooting-phase/ranged-weapon-types/rapid-fire", "ninth:shooting-phase/blast-weapons",
                  "ninth:shooting-phase/big-guns-never-tire")
@settings(deadline=None)
@given(_oracle_scenarios())
# Blast at 6 models with a D3: rolls of 1-2 count as 3 (the minimum) and 3 stays.
@example({"weapons": [{"name": "w", "count": 1, "A": "D3", "type": "Heavy", "skill": 3, "S": 4, "AP": 0, "D": 1,
                       "abilities": ["Blast"]}],
          "target": {"models": [{"name": "Troopers", "count": 6, "T": 4, "Sv": 7, "W": 1}]},
          "context": {"target_within_half_range": False, "attacker_moved_inches": 0, "attacker_infantry": False,
                      "attacker_monster_or_vehicle": False, "attacker_engaged": False, "target_engaged": False,
                      "shooting_type": "normal", "hit_modifier": 0, "wound_modifier": 0}})
@example(_oracle_example("Assault", shooting_type="assault"))  # -1 after Advancing
@example(_oracle_example("Heavy", attacker_infantry=True, attacker_moved_inches=1))  # a 1" move is a move
@example(_oracle_example("Assault", attacker_monster_or_vehicle=True, attacker_engaged=True,
                         target_engaged=True))  # Big Guns Never Tire: no -1 but for a Heavy weapon
@example(_oracle_example("Heavy", attacker_monster_or_vehicle=True, attacker_engaged=True, target_engaged=True))
# A Heavy weapon from a moved VEHICLE that is not INFANTRY, not engaged: no penalty.
@example(_oracle_example("Heavy", attacker_moved_inches=5, attacker_monster_or_vehicle=True))
def test_ninth_expected_losses_match_the_texts_arithmetic(data):
    """With W1 models enough for every wound, the exact result is the product the text's words give: attacks (type,
    Rapid Fire, Blast), the hit roll with its penalties and cap, the wound table, the better save, ignoring wounds."""
    result = _calculate(data)
    text = _text_expected_kills(data)
    note(f"calculator {result.expected_models_destroyed}, text {text}")
    assert result.expected_models_destroyed == text


# -- against a dice-rolling simulation ---------------------------------------------------------------------

TRIALS = 2000


@pytest.mark.refs("ninth:making-attacks/allocate-attack", "ninth:making-attacks/saving-throw",
                  "ninth:making-attacks/ignoring-wounds")
@settings(max_examples=5, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(_scenarios(), st.integers(0, 2 ** 32 - 1))
def test_ninth_simulation_agrees_with_the_exact_result(data, seed):
    """Rolling every save, damage and ignoring-wounds die one wound at a time agrees with the exact distribution:
    the mean of models destroyed within 5 standard errors (from the exact variance)."""
    scenario = read_scenario(copy.deepcopy(data))
    exact = calculator.calculate(scenario, ruleset="ninth").models_destroyed
    outcomes = Simulator(scenario, RULES).run(trials=TRIALS, seed=seed)
    mean = dice.expected(exact)
    variance = sum((p * (k - mean) ** 2 for k, p in exact.items()), Fraction(0))
    simulated = sum(o.models_destroyed for o in outcomes) / TRIALS
    spread = max(exact) - min(exact)
    note(f"exact mean {float(mean):.4f} (sd {math.sqrt(variance):.4f}), simulated {simulated:.4f}")
    assert abs(simulated - float(mean)) <= 5 * math.sqrt(float(variance) / TRIALS) + spread / TRIALS


# -- the web page's additions ------------------------------------------------------------------------------------


def _blast_scenario(models: int, attacks: str = "2D3") -> dict:
    return {"weapons": [{"name": "w", "count": 1, "A": attacks, "type": "Heavy", "skill": 2, "S": 4, "AP": 0,
                         "D": 1, "abilities": ["Blast"]}],
            "target": {"models": [{"name": "Troopers", "count": models, "T": 4, "Sv": 7, "W": 1}]}}


@pytest.mark.refs("ninth:shooting-phase/blast-weapons")
@given(st.integers(1, 40))
def test_ninth_blast_multiple_dice_as_the_web_page_says(models):
    """003's Blast and Multiple Dice Rolls: a Heavy 2D3 Blast weapon's double 1 makes 3 attacks against 6 or more
    models, and it makes six against 11 or more (the calculator's attack dice, from its plan)."""
    sc = read_scenario(_blast_scenario(models))
    groups = RULES.groups(sc)
    law = RULES.plan(sc, sc.weapons[0], 4, groups).attacks_per_model
    rolled = dice.distribution(dice.parse("2D3"))  # a double 1 is 2, with chance 1/9
    if models >= 11:
        assert dict(law) == {6: 1}
    elif models >= 6:
        assert law[3] == rolled[2] + rolled[3] and 2 not in law
    else:
        assert {k: Fraction(v) for k, v in law.items()} == rolled


@pytest.mark.refs("ninth:making-attacks/fast-dice-rolling")
@settings(deadline=None, max_examples=40)
@given(_weapons(max_count=1, attacks=(1, 2, "D3")), _models("Troopers", 4))
def test_ninth_rolling_together_changes_nothing(weapon, model):
    """Fast Dice Rolling: attacks with the same BS, S, AP, Damage and abilities at the same unit rolled together
    (one entry of count 2) give exactly the distribution of the same attacks one model at a time (two entries)."""
    assume(weapon["type"] != "Grenade")  # one model only, so never two together
    assert making_attacks.may_roll_together(True, True, True, True, True)
    together = {"weapons": [{**weapon, "count": 2}], "target": {"models": [model]}}
    apart = {"weapons": [{**weapon, "name": "a"}, {**weapon, "name": "b"}], "target": {"models": [model]}}
    assert _calculate(together).states == _calculate(apart).states


# -- what the edition does not have is refused ----------------------------------------------------------------

NOT_IN_THE_EDITION = [
    ({"abilities": ["LETHAL HITS"]}, {}, "[LETHAL HITS]"),
    ({"abilities": ["BLAST 2"]}, {}, "Blast takes no number"),
    ({"type": None}, {}, "has a type"),
    ({}, {"target_has_benefit_of_cover": True}, "cover"),
    ({}, {"plunging_fire": True}, "plunging fire"),
    ({"type": "Rapid Fire"}, {"shooting_type": "assault"}, "only Assault weapons"),
    ({"type": "Heavy"}, {"attacker_engaged": True}, "shoots only Pistols"),
    ({"type": "Pistol", "abilities": ["Blast"]}, {"attacker_engaged": True}, "Blast weapon never attacks"),
    ({"type": "Heavy"}, {"target_engaged": True}, "within Engagement Range of friendly units"),
    ({"type": "Grenade", "count": 2}, {}, "one model"),
    ({"type": "Melee", "abilities": ["Blast"]}, {}, "where a Melee weapon's target always is"),
    ({}, {"target": ["STEALTH"]}, "no target ability STEALTH"),
]


@pytest.mark.refs("ninth:shooting-phase/blast-weapons", "ninth:shooting-phase/locked-in-combat",
                  "ninth:shooting-phase/ranged-weapon-types/assault", "ninth:shooting-phase/ranged-weapon-types/grenade",
                  "ninth:making-attacks/saving-throw")
@pytest.mark.parametrize("weapon_change,context,words", NOT_IN_THE_EDITION, ids=[c[2] for c in NOT_IN_THE_EDITION])
def test_ninth_calc_refuses_what_the_edition_lacks(weapon_change, context, words):
    """An ability, a context or a weapon the Basic Rules have no rule for is refused with one sentence naming it."""
    weapon = {"name": "gun", "count": 1, "A": 1, "type": "Assault", "skill": 3, "S": 4, "AP": 0, "D": 1,
              **weapon_change}
    if weapon["type"] is None:
        del weapon["type"]
    context = dict(context)
    target = {"models": [{"name": "M", "count": 5, "T": 4, "Sv": 4, "W": 1}], "abilities": context.pop("target", [])}
    data = {"weapons": [weapon], "target": target, "context": context}
    with pytest.raises(attacks.EditionCannot) as refusal:
        _calculate(data)
    message = str(refusal.value)
    assert words in message and message.count(". ") == 0 and "\n" not in message


@pytest.mark.refs("ninth:making-attacks/wound-roll")
def test_ninth_calc_refuses_models_of_two_toughnesses_and_core_refuses_a_type():
    """The earlier edition's calculator refuses a target whose models differ in Toughness (the wound roll is made
    against the unit's one Toughness), and core and quickref refuse a weapon type they do not know."""
    two = {"weapons": [{"name": "gun", "count": 1, "A": 1, "type": "Assault", "skill": 3, "S": 4, "AP": 0, "D": 1}],
           "target": {"models": [{"name": "A", "count": 1, "T": 4, "Sv": 4, "W": 1},
                                 {"name": "B", "count": 1, "T": 5, "Sv": 4, "W": 2}]}}
    with pytest.raises(attacks.EditionCannot, match="differ in T"):
        _calculate(two)
    typed = {**two, "target": {"models": two["target"]["models"][:1]}}
    for ruleset in ("core", "quickref"):
        with pytest.raises(ValueError, match=r"weapons\[0\]\.type: the .* ruleset's weapons have no type"):
            calculator.calculate(read_scenario(copy.deepcopy(typed)), ruleset=ruleset)


def test_ninth_calc_cli_answers_and_refuses_in_one_sentence(tmp_path):
    """`rules40k calc --ruleset ninth`: the boltgun at half range (8/27 a shot, two shots) prints 64/729 for two
    Guardsmen; an ability the edition lacks is one sentence naming the file, exit 2."""
    good = tmp_path / "bolt.json"
    good.write_text('{"weapons": [{"name": "boltgun", "count": 1, "A": 1, "type": "Rapid Fire", "skill": 3, "S": 4, '
                    '"AP": 0, "D": 1}], "target": {"models": [{"name": "Guardsman", "count": 5, "T": 3, "Sv": 5, '
                    '"W": 1}]}, "context": {"target_within_half_range": true}}')
    run = subprocess.run([sys.executable, "-m", "rules40k", "calc", "--ruleset", "ninth", "--json", str(good)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert '"2": "64/729"' in run.stdout
    run = subprocess.run([sys.executable, "-m", "rules40k", "calc", "--ruleset", "ninth", "--explain", "--exact",
                          str(good)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "P(hit) = 2/3" in run.stdout and "wound on 3+" in run.stdout and "critical" not in run.stdout
    bad = tmp_path / "lethal.json"
    bad.write_text(good.read_text().replace('"D": 1}', '"D": 1, "abilities": ["LETHAL HITS"]}'))
    run = subprocess.run([sys.executable, "-m", "rules40k", "calc", "--ruleset", "ninth", str(bad)],
                         capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert str(bad) in run.stderr and "[LETHAL HITS]" in run.stderr and run.stderr.strip().count("\n") == 0


# -- each property fails for a broken rule ---------------------------------------------------------------------

_SAVED_OR_LOST = kernels.saved_or_lost

BROKEN = [
    # The hit roll's cap dropped.
    (test_ninth_expected_losses_match_the_texts_arithmetic, making_attacks, "capped_roll_modifier", lambda total: total),
    # Blast's minimum forgotten.
    (test_ninth_expected_losses_match_the_texts_arithmetic, shooting, "blast_attacks",
     lambda rolled, maximum, models_in_target: maximum if models_in_target >= 11 else rolled),
    # Heavy's penalty for any moved model, INFANTRY or not.
    (test_ninth_expected_losses_match_the_texts_arithmetic, shooting, "heavy_hit_modifier",
     lambda heavy, infantry, unit_moved: -1 if heavy and unit_moved else 0),
    # Rapid Fire adds one attack instead of doubling.
    (test_ninth_expected_losses_match_the_texts_arithmetic, shooting, "rapid_fire_attacks",
     lambda attacks, target_within_half_range: attacks + 1 if target_within_half_range else attacks),
    # The invulnerable save modified by AP.
    (test_ninth_expected_losses_match_the_texts_arithmetic, making_attacks, "invulnerable_save_holds",
     lambda unmodified_roll, ap, invulnerable_save: unmodified_roll != 1 and unmodified_roll + ap >= invulnerable_save),
    # The wound table's LOWER row read literally (HALF never reached).
    (test_ninth_expected_losses_match_the_texts_arithmetic, making_attacks, "wound_roll_needed",
     lambda strength, toughness: 2 if strength >= 2 * toughness else 3 if strength > toughness else
     4 if strength == toughness else 5),
    # The same Blast, read on multiple dice as a minimum per dice.
    (test_ninth_blast_multiple_dice_as_the_web_page_says, shooting, "blast_attacks",
     lambda rolled, maximum, models_in_target: rolled),
    # The literal engine (not the fast one) resolves no wound at all: every state stays as it was.
    (test_ninth_fast_engine_gives_the_literal_engines_distribution, literal.Literal, "weapon",
     lambda self, state, wound_events: {state: ONE}),
    # The engine (not the simulation, which rolls each save itself) saves half the wounds it should not.
    (test_ninth_simulation_agrees_with_the_exact_result, kernels, "saved_or_lost",
     lambda fails, damage, lost: _SAVED_OR_LOST(fails / 2, damage, lost)),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}[{b[2]}]" for b in BROKEN])
def test_ninth_calculator_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    fails_broken(monkeypatch, prop, module, attribute, mutant)


@pytest.mark.parametrize("attribute,mutant", [
    ("_abilities", lambda weapon: {a.name for a in weapon.abilities}),  # every ability accepted
])
def test_ninth_refusal_fails_for_a_broken_rule(monkeypatch, attribute, mutant):
    monkeypatch.setattr(attacks, attribute, mutant)
    with pytest.raises((AssertionError, pytest.fail.Exception)):
        test_ninth_calc_refuses_what_the_edition_lacks({"abilities": ["LETHAL HITS"]}, {}, "[LETHAL HITS]")

"""Hypothesis properties of the quick-reference sheet's attacks on the shared engine, each paired with a broken rule.

The sheet's attack rules (``rules.quickref.attacks``) go through the same engine as the Core Rules'; these
properties check the sheet's own steps: its arithmetic against the text (an oracle written here from the sheet's
words, sharing nothing with ``rules.quickref``), its allocation one wound at a time against the literal engine,
and a dice-rolling simulation. Each is run once more against a deliberately broken rule and must then fail.
"""

from __future__ import annotations

import copy
import math
from fractions import Fraction

import pytest
from hypothesis import Phase, assume, example, given, note, settings
from hypothesis import strategies as st

from properties import strategies as s
from properties import test_calculator
from properties.mutation import fails_broken
from rules import calculator, dice
from rules.engine import calculate as engine_calculate
from rules.engine import kernels
from rules.engine.simulate import Simulator
from rules.quickref import abilities, shooting
from rules.scenario import read_scenario

RULES = calculator.attack_rules("quickref")

#: Abilities the sheet defines and the strategies generate.
SHEET_ABILITIES = ("SUSTAINED HITS 1", "LETHAL HITS", "DEVASTATING WOUNDS", "ANTI-INFANTRY 4+", "TWIN-LINKED",
                   "LANCE", "TORRENT", "MELTA 1", "RAPID FIRE 1", "HEAVY", "IGNORES COVER")


def _calculate(data: dict, method: str = "fast") -> calculator.Result:
    return calculator.calculate(read_scenario(copy.deepcopy(data)), method, ruleset="quickref")


@st.composite
def _contexts(draw) -> dict:
    """Half range, a charge, cover, a move, hit and wound modifiers: what the sheet's rules read."""
    return {"target_within_half_range": draw(st.booleans()), "attacker_charged": draw(st.booleans()),
            "target_has_benefit_of_cover": draw(st.booleans()), "attacker_moved_inches": draw(st.sampled_from([0, 6])),
            "hit_modifier": draw(st.integers(-2, 2)), "wound_modifier": draw(st.integers(-2, 2))}


SCENARIOS = st.one_of(
    s.scenarios(max_weapons=2, weapons=s.weapon_profiles(abilities=SHEET_ABILITIES), contexts=_contexts(),
                targets=s.target_units(same_toughness=False)),
    s.scenarios(max_weapons=2, weapons=s.weapon_profiles(abilities=SHEET_ABILITIES), contexts=_contexts(),
                targets=s.target_units(attached=True, same_toughness=False)),
)


# -- one wound at a time, as the literal engine does it -------------------------------------------------


@pytest.mark.refs("quickref:shooting/allocate", "quickref:shooting/allocate-wounded-first", "quickref:usr/leader",
                  "quickref:shooting/mortal-wounds-after", "quickref:shooting/excess-damage-lost")
@given(SCENARIOS)
def test_quickref_fast_engine_gives_the_literal_engines_distribution(data):
    """Allocate attacks, Deal damage: the fast engine gives exactly the literal engine's distribution.

    The literal engine allocates each wound to the current model (one that has lost wounds first, never an
    Attached unit's CHARACTER), saves it, deals its damage, then the mortal wounds one at a time; compared
    state by state, every probability exact.
    """
    fast, literal = _calculate(data), _calculate(data, "literal")
    note(f"fast {fast.wounds_lost}; literal {literal.wounds_lost}")
    assert fast.states == literal.states


# -- the sheet's arithmetic, from its words ----------------------------------------------------------------


# The sheet's STRENGTH VS TOUGHNESS (its LESS row read as "less, but more than half") is 05.02's table: the
# oracle's own copy of it (written from the text, not from rules/) and its counting of faces serve both.
_needed, _faces = test_calculator._needed, test_calculator._faces


def _sheet_expected_kills(data: dict) -> tuple[Fraction, dict]:
    """Expected models destroyed by one weapon among W1 models that cannot run out, by the sheet's words, and the
    step's numbers `calc --explain` shows for the weapon."""
    (weapon,), ctx = data["weapons"], data["context"]
    model = data["target"]["models"][0]
    names = set(weapon["abilities"])
    half, charged, melee = ctx["target_within_half_range"], ctx["attacker_charged"], weapon.get("melee", False)
    cap = lambda m: max(-1, min(1, m))  # noqa: E731  "never modified by more than -1 or +1"
    # RAPID FIRE X: "Increase the attacks by X when targeting unit is within half range."
    attacks = weapon["count"] * (dice.expected(dice.distribution(weapon["A"]))
                                 + ("RAPID FIRE 1" in names and half and not melee))
    # Roll to Hit: "equal or beat the BS"; a 6 is a Critical Hit, always successful; a 1 always fails.
    # HEAVY: "+1 to hit when the bearer's unit REMAINS STATIONARY".
    heavy = "HEAVY" in names and not melee and ctx["attacker_moved_inches"] == 0
    hm = cap(ctx["hit_modifier"] + heavy)
    if "TORRENT" in names:
        p_hit, p_critical_hit = Fraction(1), Fraction(0)
    else:
        p_hit = _faces(lambda r: r == 6 or (r != 1 and r + hm >= weapon["skill"]))
        p_critical_hit = Fraction(1, 6)
    # Roll to Wound: the table; a 6 (or ANTI's X against its keyword) a Critical Wound; LANCE +1 when charging.
    needed = _needed(weapon["S"], model["T"])
    wm = cap(ctx["wound_modifier"] + ("LANCE" in names and charged))
    critical_on = 4 if "ANTI-INFANTRY 4+" in names and "INFANTRY" in data["target"]["keywords"] else 6
    crit = _faces(lambda r: r >= critical_on)
    normal = _faces(lambda r: r < critical_on and r != 1 and r + wm >= needed)
    # TWIN-LINKED "You can reroll the attack's Wound rolls" (the failed ones); DEVASTATING WOUNDS; LETHAL HITS
    # "CRITICAL HITS automatically wound the target"; SUSTAINED HITS X "X additional hits": worded as core's.
    saves, mortals = test_calculator._wounds_per_attack(p_hit, p_critical_hit, crit, normal, names)
    wounds = crit + normal  # a hit's chance to wound, a failed roll re-rolled once with TWIN-LINKED
    step = {"hit_modifier": hm, "p_hit": p_hit, "p_critical_hit": p_critical_hit, "wound_roll_needed": needed,
            "wound_modifier": wm, "p_wound_per_hit": wounds + ("TWIN-LINKED" in names) * (1 - wounds) * wounds,
            "hazard_rolls": 0, "critical_wound_on": critical_on}  # no HAZARDOUS weapon is drawn
    # Saving Throw: "Roll D6 and modify by the attack's AP. If < Save", a 1 always fails; the Benefit of Cover
    # "+1 to armour saving throws against ranged attacks", not "Save of 3+ or better against AP 0"; the
    # Invulnerable Save is never modified by AP; the defender chooses (before rolling: the better one).
    cover = (ctx["target_has_benefit_of_cover"] and not melee and "IGNORES COVER" not in names
             and not (model["Sv"] <= 3 and weapon["AP"] == 0))
    armour = _faces(lambda r: r == 1 or r + weapon["AP"] + cover < model["Sv"])
    unsaved = min(armour, _faces(lambda r: r == 1 or r < model["InSv"])) if model.get("InSv") else armour
    # FEEL NO PAIN X+: each wound is lost unless a D6 is X or more. MELTA X: "+X to the damage at half range".
    kept = Fraction(7 - model["FNP"], 6) if "FNP" in model else Fraction(0)
    melta = 1 if "MELTA 1" in names and half and not melee else 0
    damage = dice.distribution(weapon["D"])
    kill = sum((p * (1 - kept ** (d + melta)) for d, p in damage.items()), Fraction(0))
    # DEVASTATING WOUNDS: the damage becomes that many mortal wounds, each one a wound (a W1 model apiece).
    mortal_wounds = sum((p * (d + melta) for d, p in damage.items()), Fraction(0))
    return attacks * (saves * unsaved * kill + mortals * mortal_wounds * (1 - kept)), step


@st.composite
def _oracle_scenarios(draw):
    abilities_ = tuple(a for a in SHEET_ABILITIES if a != "BLAST")
    weapon = draw(s.weapon_profiles(max_count=2, attacks=(1, 2, 3, "D3"), abilities=abilities_, max_attacks=6,
                                    damages=(1, 2, "D3")))
    hits = 2 if "SUSTAINED HITS 1" in weapon["abilities"] else 1
    most_per_model = max(dice.distribution(weapon["A"])) + ("RAPID FIRE 1" in weapon["abilities"])
    mortal_wounds = max(dice.distribution(weapon["D"])) + ("MELTA 1" in weapon["abilities"])
    most = weapon["count"] * most_per_model * hits * (mortal_wounds if "DEVASTATING WOUNDS" in weapon["abilities"]
                                                      else 1)
    assume(most <= 38)  # W1 models enough for every wound, in one entry of the target
    model = draw(s.model_profiles(name="Troopers", wounds=(1, 1), min_count=most, max_count=most + 2))
    return {"weapons": [{**weapon, "name": "weapon"}],
            "target": {"keywords": draw(st.lists(st.sampled_from(s.TARGET_KEYWORDS), unique=True, max_size=2)),
                       "models": [model]},
            "context": draw(_contexts())}


@pytest.mark.refs("quickref:shooting/hit-roll", "quickref:shooting/wound-roll", "quickref:shooting/critical",
                  "quickref:shooting/unmodified-one", "quickref:shooting/modifier-cap", "quickref:shooting/saving-throw",
                  "quickref:shooting/save-choice", "quickref:shooting/invulnerable-save", "quickref:cover/benefit",
                  "quickref:cover/save-3-ap-0", "quickref:usr/anti", "quickref:usr/devastating-wounds",
                  "quickref:usr/feel-no-pain", "quickref:usr/heavy", "quickref:usr/ignores-cover", "quickref:usr/lance",
                  "quickref:usr/lethal-hits", "quickref:usr/melta", "quickref:usr/rapid-fire",
                  "quickref:usr/sustained-hits", "quickref:usr/torrent", "quickref:usr/twin-linked")
@given(_oracle_scenarios())
# TORRENT: every attack hits and none is a Critical Hit; S2 against T4 wounds on a 6 only, always a Critical Wound.
@example({"weapons": [{"name": "weapon", "count": 1, "A": 1, "skill": 4, "S": 2, "AP": 0, "D": 1,
                       "abilities": ["TORRENT"]}],
          "target": {"keywords": [], "models": [{"name": "Troopers", "count": 3, "T": 4, "Sv": 7, "W": 1}]},
          "context": {"target_within_half_range": False, "attacker_charged": False,
                      "target_has_benefit_of_cover": False, "attacker_moved_inches": 6, "hit_modifier": 0,
                      "wound_modifier": 0}})
# BS 6+: only the 6 hits, and it is a Critical Hit.
@example({"weapons": [{"name": "weapon", "count": 1, "A": 1, "skill": 6, "S": 4, "AP": 0, "D": 1, "abilities": []}],
          "target": {"keywords": [], "models": [{"name": "Troopers", "count": 3, "T": 4, "Sv": 7, "W": 1}]},
          "context": {"target_within_half_range": False, "attacker_charged": False,
                      "target_has_benefit_of_cover": False, "attacker_moved_inches": 6, "hit_modifier": 0,
                      "wound_modifier": 0}})
def test_quickref_expected_losses_match_the_sheets_arithmetic(data):
    """Shooting phase 3-6 and the USR: with W1 models enough for every wound, the exact result is the product the
    sheet's own words give (hit, wound, save with cover and the better of the two saves, Feel No Pain, and mortal
    wounds one model each); `calc --explain` shows the same chances of a hit, a Critical Hit and a wound per hit."""
    result = _calculate(data)
    sheet, step = _sheet_expected_kills(data)
    note(f"calculator {result.expected_models_destroyed}, sheet {sheet}")
    assert result.expected_models_destroyed == sheet
    shown = result.steps[0]  # what --explain prints for the weapon
    assert {key: shown[key] for key in step} == step


# -- against a dice-rolling simulation ---------------------------------------------------------------------

TRIALS = 2000


@pytest.mark.refs("quickref:shooting/allocate", "quickref:shooting/saving-throw", "quickref:usr/feel-no-pain",
                  "quickref:shooting/mortal-wounds-after")
@settings(max_examples=5, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(SCENARIOS, st.integers(0, 2 ** 32 - 1))
# DEVASTATING WOUNDS: each critical wound's 2 mortal wounds are single wounds that spill onto W3 models.
@example({"weapons": [{"name": "rifle", "count": 20, "A": 1, "skill": 2, "S": 4, "AP": 0, "D": 2,
                       "abilities": ["DEVASTATING WOUNDS"]}],
          "target": {"keywords": ["INFANTRY"], "models": [{"name": "Warrior", "count": 10, "T": 4, "Sv": 2,
                                                           "InSv": 2, "W": 3}]}}, 3)
def test_quickref_simulation_agrees_with_the_exact_result(data, seed):
    """Rolling every save, damage and Feel No Pain die with each wound on a model of its own agrees with the exact
    distribution: the mean of models destroyed within 5 standard errors (from the exact variance)."""
    scenario = read_scenario(copy.deepcopy(data))
    exact = calculator.calculate(scenario, ruleset="quickref").models_destroyed
    outcomes = Simulator(scenario, RULES).run(trials=TRIALS, seed=seed)
    mean = dice.expected(exact)
    variance = sum((p * (k - mean) ** 2 for k, p in exact.items()), Fraction(0))
    simulated = sum(o.models_destroyed for o in outcomes) / TRIALS
    spread = max(exact) - min(exact)
    note(f"exact mean {float(mean):.4f} (sd {math.sqrt(variance):.4f}), simulated {simulated:.4f}")
    assert abs(simulated - float(mean)) <= 5 * math.sqrt(float(variance) / TRIALS) + spread / TRIALS


# -- each property fails for a broken rule ---------------------------------------------------------------------

_FROM_DIST, _SAVED_OR_LOST = engine_calculate.from_dist, kernels.saved_or_lost

BROKEN = [
    # Cover forgotten: the armour save never gets its +1.
    (test_quickref_expected_losses_match_the_sheets_arithmetic, shooting, "cover_save_bonus",
     lambda ranged, instances, save, ap: 0),
    # The modifier cap dropped.
    (test_quickref_expected_losses_match_the_sheets_arithmetic, shooting, "capped_modifier", lambda total: total),
    # One mortal wound too many for each Critical Wound of a DEVASTATING WOUNDS attack.
    (test_quickref_expected_losses_match_the_sheets_arithmetic, abilities, "devastating_mortal_wounds",
     lambda critical_wound, damage: damage + 1 if critical_wound else 0),
    # The Invulnerable Save modified by AP.
    (test_quickref_expected_losses_match_the_sheets_arithmetic, shooting, "invulnerable_save_holds",
     lambda roll, ap, invulnerable: roll != 1 and roll + ap >= invulnerable),
    # The fast engine (not the literal one) takes a batch of spilling mortal wounds as a single wound.
    (test_quickref_fast_engine_gives_the_literal_engines_distribution, engine_calculate, "from_dist",
     lambda dist: _FROM_DIST({1: 1})),
    # The engine (not the simulation, which rolls each save itself) saves half the wounds it should not.
    (test_quickref_simulation_agrees_with_the_exact_result, kernels, "saved_or_lost",
     lambda fails, damage, lost: _SAVED_OR_LOST(fails / 2, damage, lost)),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}[{b[2]}]" for b in BROKEN])
def test_quickref_calculator_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    fails_broken(monkeypatch, prop, module, attribute, mutant)

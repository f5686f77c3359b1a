"""rules.m41.core_scenarios: how the review's sweep states a Core Rules matchup in 999.m41's terms, or says why it
cannot (rules40k review m41 core). In-process, so `rules40k mutate` runs it against the module's mutants
(rules40k.mutate.SUPPORT_TESTS)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.m41 import core_scenarios

INFANTRY = {"keywords": ["INFANTRY"], "models": [{"name": "Cultist", "count": 10, "T": 3, "Sv": 6, "W": 1}]}


def weapon(name="lasgun", count=10, A=1, skill=4, S=3, AP=0, D=1, abilities=("RAPID FIRE 1",), **more):
    return {"name": name, "count": count, "A": A, "skill": skill, "S": S, "AP": AP, "D": D,
            "abilities": list(abilities), **more}


def test_a_lasgun_at_cultists_in_999m41s_terms():
    """BS 4+ is BS 3 (the chart prints 4+ under 3), [RAPID FIRE 1] on A 1 is Rapid Fire 1, AP 0 is "-"; the
    Cultists are infantry with a WS no ranged rule reads; half range and a move carry over, a -1 to hit is a
    penalty of 1."""
    data, why = core_scenarios.restate({"weapons": [weapon()], "target": INFANTRY,
                                        "context": {"target_within_half_range": True, "attacker_moved_inches": 6,
                                                    "hit_modifier": -1, "attacker_charged": False}})
    assert why == ""
    assert data["weapons"] == [{"name": "lasgun", "count": 10, "type": "Rapid Fire 1", "BS": 3, "S": 3, "AP": "-"}]
    assert data["target"] == {"models": [{"name": "Cultist", "count": 10, "WS": 4, "T": 3, "W": 1, "Sv": 6,
                                          "kind": "infantry"}]}
    assert data["context"] == {"within_half_range": True, "moved": True, "to_hit_penalty": 1}


def test_types_rend_twin_linked_and_the_target_kinds():
    """[HEAVY] with A 3 is Heavy 3, a plain weapon Assault, [PISTOL] Pistol; AP -2 is a rend of -2; [TWIN-LINKED] is
    Twin-linked; a MONSTER is a monstrous creature and a CHARACTER a character, keeping InSv and FNP; Sv 7 is "-";
    a +1 to hit is a penalty of -1; a plain context gives none."""
    target = {"keywords": ["MONSTER"], "models": [{"name": "Talos", "count": 1, "T": 8, "Sv": 7, "W": 10, "FNP": 6,
                                                   "InSv": 5}]}
    data, why = core_scenarios.restate({"weapons": [weapon("cannon", 2, 3, 3, 6, -2, 1, ["HEAVY", "TWIN-LINKED"]),
                                                    weapon("shoota", abilities=()),
                                                    weapon("pistol", 1, abilities=["PISTOL"])],
                                        "target": target, "context": {"hit_modifier": 1}})
    assert why == ""
    assert [(w["type"], w["BS"], w["AP"], w.get("rules")) for w in data["weapons"]] == [
        ("Heavy 3", 4, -2, ["Twin-linked"]), ("Assault 1", 3, "-", None), ("Pistol 1", 3, "-", None)]
    assert data["target"]["models"][0] == {"name": "Talos", "count": 1, "WS": 4, "T": 8, "W": 10, "Sv": "-",
                                           "kind": "monstrous creature", "InSv": 5, "FNP": 6}
    assert data["context"] == {"to_hit_penalty": -1}
    character = {"keywords": ["INFANTRY", "CHARACTER"], "models": [{"name": "Captain", "count": 1, "T": 4, "Sv": 3,
                                                                    "W": 5, "InSv": 4, "character": True}]}
    data, _ = core_scenarios.restate({"weapons": [weapon()], "target": character, "context": {}})
    assert data["target"]["models"][0]["kind"] == "character" and "context" not in data


@pytest.mark.parametrize("weapons, target, context, reason", [
    ([weapon(melee=True, abilities=())], INFANTRY, {}, "reads the defender's WS"),
    ([weapon(A="D6", abilities=())], INFANTRY, {}, "a fixed number of shots"),
    ([weapon(D=2)], INFANTRY, {}, "Damage 2"),
    ([weapon(S=11)], INFANTRY, {}, "Strength 11"),
    ([weapon(S=10, AP=-3)], INFANTRY, {"hit_modifier": 0}, ""),
    ([weapon(S=10, AP=-3)], {"keywords": ["MONSTER"], "models": [{"name": "Tyrant", "count": 1, "T": 10, "Sv": 2,
                                                                  "W": 10}]}, {}, ""),
    ([weapon(AP=-4)], INFANTRY, {}, "AP -4"),
    ([weapon(A=2, abilities=["RAPID FIRE 1"])], INFANTRY, {}, "adds 1 attacks to A 2"),
    ([weapon(abilities=["LETHAL HITS"])], INFANTRY, {}, "[LETHAL HITS] has no counterpart"),
    ([weapon(abilities=["ASSAULT", "HEAVY"])], INFANTRY, {}, "Assault and Heavy at once"),
    ([weapon()], {"keywords": ["VEHICLE"], "models": [{"name": "Rhino", "count": 1, "T": 9, "Sv": 3, "W": 10}]}, {},
     "armour values"),
    ([weapon()], {"keywords": ["BEAST"], "models": [{"name": "Hound", "count": 5, "T": 4, "Sv": 6, "W": 1}]}, {},
     "keywords BEAST is none of 999.m41's unit types"),
    ([weapon()], {"keywords": [], "models": [{"name": "Hound", "count": 5, "T": 4, "Sv": 6, "W": 1}]}, {},
     "keywords none is none of 999.m41's unit types"),
    ([weapon()], {"keywords": ["MONSTER"], "models": [{"name": "Knight", "count": 1, "T": 11, "Sv": 3, "W": 10}]},
     {}, "T 11"),
    ([weapon()], {"keywords": ["MONSTER"], "models": [{"name": "Tyrant", "count": 1, "T": 10, "Sv": 3, "W": 11}]},
     {}, "W 11"),
    ([weapon()], INFANTRY, {"target_has_benefit_of_cover": True}, "cover save"),
    ([weapon()], INFANTRY, {"wound_modifier": 1}, "wound modifier has no counterpart"),
])
def test_what_999m41_cannot_state_says_why(weapons, target, context, reason):
    """Each limit of the module's reading, at its edge: S 10, T 10, W 10 and a rend of -3 are stated; one past is
    not, nor melee, random shots, Damage above 1, an ability without a counterpart, a vehicle, cover or a wound
    modifier."""
    data, why = core_scenarios.restate({"weapons": weapons, "target": target, "context": context})
    if reason:
        assert data is None and reason in why, why
    else:
        assert why == "" and data["weapons"][0]["S"] == 10 and data["weapons"][0]["AP"] == -3


def test_a_restated_matchup_is_calculated_by_999m41s_rules():
    """Ten lasguns (BS 3: 4+, half the shots hit) at ten Cultists: S3 against T3 wounds on 4+ (1/2), their 6+ save
    against no AP fails 5/6: 10 x 1/2 x 1/2 x 5/6 = 25/12 models destroyed, as the review's sweep computes it."""
    from rules40k.review import worker

    core = {"weapons": [weapon()], "target": INFANTRY}
    assert worker.evaluate(None, [core], ruleset="m41") == [str(Fraction(25, 12))]
    melee = {"weapons": [weapon(melee=True, abilities=())], "target": INFANTRY}
    assert worker.evaluate(None, [melee], ruleset="m41")[0].startswith(worker.NOT_COMPARABLE)

"""The m41 scenario reader: a legal scenario read in the document's terms, each bad one refused in one sentence."""

import copy
import json

import pytest

from rules.m41 import scenario as m41
from rules.m41.weapons import NO_AP, WeaponType

BOLTERS = {"name": "Boltgun", "count": 10, "type": "Rapid Fire 1", "S": 4, "AP": 5, "BS": 4, "rules": []}
GUARDSMEN = {"name": "Guardsman", "count": 10, "WS": 3, "T": 3, "W": 1, "Sv": 5}
LEGAL = {"weapons": [BOLTERS], "target": {"models": [GUARDSMEN], "cover": None}}


def test_reads_a_legal_scenario_in_the_documents_terms():
    """A rapid fire weapon, a melee weapon with rules, and a model with "-" save and FNP read as the fields say."""
    data = copy.deepcopy(LEGAL)
    data["weapons"].append({"name": "Power sword", "count": 1, "type": "Melee", "S": 4, "AP": 3, "WS": 5, "A": 2,
                            "rules": ["Master-crafted", "Poisoned (4+)"]})
    data["target"]["models"].append({"name": "Ogryn", "count": 2, "WS": 4, "T": 5, "W": 3, "Sv": "-", "FNP": 5,
                                     "kind": "Monstrous Creature"})
    data["target"]["cover"] = "Medium cover"
    data["context"] = {"moved": True, "within_half_range": True}
    sc = m41.read_scenario(data)
    bolter, sword = sc.weapons
    assert (bolter.kind, bolter.shots, bolter.BS, bolter.WS, bolter.AP) == (WeaponType.RAPID_FIRE, 1, 4, None, 5)
    assert (sword.melee, sword.A, sword.WS, sword.BS) == (True, 2, 5, None)
    assert [r.name for r in sword.rules] == ["Master Crafted", "Poisoned"]
    assert sword.rule("poisoned").value == 4 and sword.rule("twin-linked") is None
    ogryn = sc.models[1]
    assert (ogryn.Sv, ogryn.FNP, ogryn.InSv, ogryn.kind) == (NO_AP, 5, None, "monstrous creature")
    assert sc.cover == "medium" and sc.context.moved and not sc.context.charged


def test_salvo_reads_both_numbers():
    data = copy.deepcopy(LEGAL)
    data["weapons"][0]["type"] = "Salvo 2/4"
    weapon = m41.read_scenario(data).weapons[0]
    assert (weapon.kind, weapon.shots, weapon.stationary_shots) == (WeaponType.SALVO, 2, 4)


def test_rend_and_dash_ap():
    for ap, read in (("-", NO_AP), (-2, -2), (1, 1), (6, 6)):
        data = copy.deepcopy(LEGAL)
        data["weapons"][0]["AP"] = ap
        assert m41.read_scenario(data).weapons[0].AP == read


BAD = [
    (("weapons", 0, "AP"), 0, "weapons[0].AP must be 1 to 6, '-' or a rend of -1 to -3"),
    (("weapons", 0, "AP"), -4, "weapons[0].AP must be 1 to 6"),
    (("weapons", 0, "AP"), "5", "weapons[0].AP must be 1 to 6"),
    (("weapons", 0, "type"), "Heavy", None),  # legal: a missing number is 1
    (("weapons", 0, "type"), "Lasgun 1", "weapons[0].type must be a weapon type"),
    (("weapons", 0, "type"), "Heavy 2/3", "weapons[0].type must be a weapon type"),
    (("weapons", 0, "type"), "Heavy 11", "weapons[0].type: the shots must be from 1 to 10"),
    (("weapons", 0, "type"), "Melee", "weapons[0].BS: a melee weapon takes A and WS, not BS"),
    (("weapons", 0, "BS"), 0, "weapons[0].BS must be from 1 to 10"),
    (("weapons", 0, "rules"), ["Twin-linked", "Laser Eyes"], "weapons[0].rules[1] is 'Laser Eyes', which is not"),
    (("weapons", 0, "rules"), ["Poisoned (7+)"], "weapons[0].rules[0]: the value in brackets must be 2+ to 6+"),
    (("weapons", 0, "rules"), ["Sniper", "sniper"], "weapons[0].rules[1] names Sniper twice"),
    (("weapons", 0, "count"), 0, "weapons[0].count must be from 1 to 50"),
    (("target", "models", 0, "Sv"), 1, "target.models[0].Sv must be from 2 to 6"),
    (("target", "models", 0, "Sv"), None, "target.models[0].Sv must be a whole number"),
    (("target", "models", 0, "kind"), "tank", "target.models[0].kind must be one of infantry"),
    (("target", "models", 0, "rules"), ["Feel no Pain"], "target.models[0].rules[0]: give Feel no Pain as the"),
    (("target", "models", 0, "T"), 11, "target.models[0].T must be from 1 to 10"),
    (("target", "cover"), "dense", "target.cover must be light, medium, heavy or null"),
    (("context", ), {"charged": 1}, "context.charged must be true or false"),
    (("context", ), {"shooting": True}, "context.shooting is not a known key"),
    (("choices", ), {"allocation_order": ["Ogryn"]}, "choices.allocation_order[0] names 'Ogryn', which is not a model"),
    (("target", ), {"vehicle": {}, "facing": "front"}, "scenario.choices is not a key here"),  # the vehicle reader's
    (("target", ), {"models": [], "facing": "front"}, "target.facing: only a vehicle target has a facing"),
    (("formation", ), {}, "formation: no weapon is a blast, barrage or template weapon, so nothing reads it"),
]


@pytest.mark.parametrize("path,value,message", BAD)
def test_bad_scenario_is_one_sentence_naming_the_place(path, value, message):
    data = copy.deepcopy(LEGAL)
    data.setdefault("context", {})
    data.setdefault("choices", {})
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    if message is None:
        m41.read_scenario(data)
        return
    with pytest.raises(m41.ScenarioError) as error:
        m41.read_scenario(data, "x.json")
    text = str(error.value)
    assert text.startswith("x.json: ") and message in text, text
    assert "\n" not in text


def test_too_many_attack_dice_is_refused():
    data = copy.deepcopy(LEGAL)
    data["weapons"] = [dict(BOLTERS, count=50, type="Assault 10")] * 2
    with pytest.raises(m41.ScenarioError, match="up to 1000 attack dice in all; at most 600"):
        m41.read_scenario(data)


def test_calculator_uses_the_rulesets_own_reader():
    from rules import calculator, scenario

    assert calculator.scenario_reader("m41") is m41.read_scenario
    assert calculator.scenario_reader("ninth") is scenario.read_scenario


# -- damaged scenarios through the CLI: exit 0 or one sentence and exit 2, never a traceback ---------------------

FUZZ_BASE = {"weapons": [dict(BOLTERS, count=2, rules=["Twin-linked"]),
                         {"name": "Claw", "count": 1, "type": "Melee", "S": 5, "AP": -1, "WS": 4, "A": 2}],
             "target": {"models": [dict(GUARDSMEN, count=3, InSv=6, FNP=5, rules=["Stealth"])], "cover": "light"},
             "context": {"moved": False, "to_hit_penalty": 1}, "choices": {"allocation_order": ["Guardsman"]}}
FUZZ_VALUES = [None, True, 1.5, "", "text", "-", "Heavy 2", "Poisoned (4+)", [], [1], {}, {"a": 1}, 0, -1, -3, 7, 11,
               10**30, "x" * 101, "٣"]


def _paths(value, path=()):
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, (*path, key))


def _damaged():
    """Every place of the base scenario: dropped, and given each value of FUZZ_VALUES."""
    for path in [p for p in _paths(FUZZ_BASE) if p]:
        for value in ["<drop>", *FUZZ_VALUES]:
            data = copy.deepcopy(FUZZ_BASE)
            node = data
            for key in path[:-1]:
                node = node[key]
            if value == "<drop>":
                if not isinstance(node, dict):
                    continue
                del node[path[-1]]
            else:
                node[path[-1]] = value
            yield data, f"{'.'.join(map(str, path))} = {value!r}"[:80]


def test_every_damaged_m41_scenario_is_answered_or_one_sentence():
    """Each place of a scenario dropped or given a value of another type or out of range: the scenario calculates,
    or is refused with one sentence (the ValueError calc turns into exit 2), never another error."""
    from rules import calculator

    refused = 0
    for data, what in _damaged():
        try:
            calculator.calculate(m41.read_scenario(data, "s.json"), ruleset="m41")
        except ValueError as error:
            refused += 1
            assert "\n" not in str(error) and str(error).strip(), what
    assert refused > 300  # most damage breaks the schema


def test_cli_exit_codes_for_a_damaged_m41_scenario(capsys, tmp_path):
    """Through the CLI: a refused scenario is one line on stderr with exit 2; a still-legal one exits 0."""
    from rules40k.cli import main

    for change, code in ((("weapons", 0, "AP"), "text"), 2), ((("context", "moved"), True), 0):
        data = copy.deepcopy(FUZZ_BASE)
        (where, value) = change
        node = data
        for key in where[:-1]:
            node = node[key]
        node[where[-1]] = value
        path = tmp_path / "damaged.json"
        path.write_text(json.dumps(data))
        assert main(["calc", "--ruleset", "m41", str(path)]) == code
        out, err = capsys.readouterr()
        if code == 2:
            lines = err.strip().split("\n")
            assert len(lines) == 1 and lines[0].startswith("rules40k calc: ") and "Traceback" not in err, err
        else:
            assert "Models destroyed" in out


# -- every range's edges: the last value accepted and the first refused (the constants' documented ranges) -----------

CLAW = {"name": "Claw", "count": 1, "type": "Melee", "S": 4, "AP": 5, "WS": 4, "A": 1}


def _at(**changes):
    """LEGAL with top-level parts replaced; a weapons list or models list given whole."""
    data = copy.deepcopy(LEGAL)
    for key, value in changes.items():
        if key == "models":
            data["target"]["models"] = value
        else:
            data[key] = value
    return data


#: Distinct special rules of the document (any may be named; the calculator refuses those it does not calculate).
NAMES = sorted(name for key, name in m41._document_rules().items() if key not in m41.WEAPON_WORDS)

EDGES = [  # (scenario, None if accepted else the words of its refusal)
    (_at(weapons=[BOLTERS] * 20), None),
    (_at(weapons=[BOLTERS] * 21), "weapons"),
    (_at(models=[dict(GUARDSMEN, count=1)]), None),
    (_at(models=[dict(GUARDSMEN, count=40)]), None),
    (_at(models=[dict(GUARDSMEN, count=41)]), "target.models[0].count"),
    (_at(models=[dict(GUARDSMEN, count=30), dict(GUARDSMEN, name="Veteran", count=30)]), None),  # 60 in all
    (_at(models=[dict(GUARDSMEN, count=30), dict(GUARDSMEN, name="Veteran", count=31)]),
     "target.models have 61 models in all; at most 60"),
    (_at(weapons=[dict(CLAW, A=1)]), None),
    (_at(weapons=[dict(CLAW, A=0)]), "weapons[0].A"),
    (_at(weapons=[dict(CLAW, A=10)]), None),
    (_at(weapons=[dict(CLAW, A=11)]), "weapons[0].A"),
    (_at(models=[dict(GUARDSMEN, W=10)]), None),
    (_at(models=[dict(GUARDSMEN, W=11)]), "target.models[0].W"),
    (_at(weapons=[dict(BOLTERS, rules=NAMES[:20])]), None),
    (_at(weapons=[dict(BOLTERS, rules=NAMES[:21])]), "weapons[0].rules"),
    (_at(context={"to_hit_penalty": 3}), None),
    (_at(context={"to_hit_penalty": -3}), None),
    (_at(context={"to_hit_penalty": 4}), "context.to_hit_penalty"),
    (_at(context={"to_hit_penalty": -4}), "context.to_hit_penalty"),
    (_at(weapons=[dict(BOLTERS, AP=6)]), None),
    (_at(weapons=[dict(BOLTERS, AP=7)]), "weapons[0].AP must be 1 to 6"),
    # The most attack dice, 600: 50 claws of A10 (+1 charging, +1 a second weapon: 12 each) and 50 rapid firers of
    # 6 shots (12 each within half range) reach it exactly and are read; one attack more is refused.
    (_at(weapons=[dict(CLAW, count=50, A=10)]), None),
    (_at(weapons=[dict(BOLTERS, count=50, type="Rapid Fire 6")]), None),
    (_at(weapons=[dict(CLAW, count=50, A=10), dict(CLAW, name="Knife", count=1, A=1)]),
     "weapons can roll up to 603 attack dice in all; at most 600"),
    (_at(weapons=[dict(BOLTERS, rules=["Foreword"])]), "weapons[0].rules[0]"),  # a section, not a special rule
    (_at(weapons=[dict(BOLTERS, rules=["Blast"])]), "weapons[0] is a blast or template weapon"),
]


@pytest.mark.parametrize("data, words", EDGES, ids=[f"{i}-{w or 'read'}" for i, (_, w) in enumerate(EDGES)])
def test_each_range_reads_its_last_value_and_refuses_the_next(data, words):
    if words is None:
        m41.read_scenario(data)
        return
    with pytest.raises(m41.ScenarioError) as error:
        m41.read_scenario(data, "x.json")
    assert words in str(error.value) and "\n" not in str(error.value), str(error.value)


def test_a_scenario_without_context_has_the_documented_defaults():
    """context: "all defaulting to false / 0": no penalty, nothing moved, no charge."""
    assert m41.read_scenario(LEGAL).context == m41.Context(False, False, False, False, False, 0)


def test_a_target_models_rules_are_found_by_name():
    """A Stealth model answers for Stealth (however written) and not for Bulky."""
    sc = m41.read_scenario(_at(models=[dict(GUARDSMEN, rules=["Stealth"])]))
    assert sc.models[0].rule("stealth") is not None and sc.models[0].rule("Bulky") is None

"""Scenarios at the edges of the documented ranges answer (README, "Scenario ranges"; rules/scenario.py).

Each example pins one range at its edge: a target of 1,000 wounds in all, a target of 100 models, 1,000 attack
dice, or 1,000 hits once [SUSTAINED HITS] has added its own, and draws the rest (saves, invulnerable saves and
Feel No Pain mixed across groups, CHARACTER models, abilities, the other dimensions) at random. The calculator
must answer with an exact distribution; a refusal is allowed only for a reason that is not size. Every range at
its edge at once is slower (minutes for some draws, see the README) and is measured outside the suite.
"""

from __future__ import annotations

import copy
import re

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from properties.mutation import fails_broken
from rules import scenario as limits
from rules.calculator import calculate
from rules.engine import saves
from rules.scenario import read_scenario

ABILITIES = ("SUSTAINED HITS 1", "SUSTAINED HITS D3", "LETHAL HITS", "DEVASTATING WOUNDS", "ANTI-INFANTRY 4+",
             "TWIN-LINKED", "LANCE", "MELTA 2", "PRECISION", "IGNORES COVER", "HEAVY")

#: Words of a refusal for size: none may appear when the rules decline a legal scenario.
SIZE_WORDS = re.compile(r"at most|too (large|many|big)|steps|limit|exceed", re.IGNORECASE)


def _defences(draw, entry: dict) -> dict:
    """Random saves: an armour save, and perhaps an invulnerable save and Feel No Pain."""
    entry.update(T=draw(st.integers(3, 12)), Sv=draw(st.integers(2, 7)))
    if draw(st.booleans()):
        entry["InSv"] = draw(st.integers(3, 6))
    if draw(st.booleans()):
        entry["FNP"] = draw(st.integers(4, 6))
    return entry


@st.composite
def _groups(draw, models: int, wounds: int) -> list[dict]:
    """Model entries of exactly ``models`` models and at most ``wounds`` wounds, in entries of up to 40 models."""
    entries, left_models, left_wounds = [], models, wounds
    while left_models:
        least_entries = -(-left_models // limits.MODEL_COUNT[1])
        count = left_models if least_entries == 1 and len(entries) >= 3 else draw(
            st.integers(max(1, left_models - limits.MODEL_COUNT[1] * (4 - len(entries))) if len(entries) < 4 else 1,
                        min(left_models, limits.MODEL_COUNT[1])))
        w_most = min((left_wounds - (left_models - count)) // count, limits.W_RANGE[1])
        entry = _defences(draw, {"name": f"group {len(entries)}", "count": count, "W": draw(st.integers(1, w_most))})
        if count == 1 and draw(st.integers(0, 3)) == 0:
            entry["character"] = True
        entries.append(entry)
        left_models -= count
        left_wounds -= count * entry["W"]
    return entries


@st.composite
def _thousand_wounds(draw) -> list[dict]:
    """1,000 wounds: 25 models of W40, or 100 models of W10 in three groups."""
    if draw(st.booleans()):
        return [_defences(draw, {"name": "giants", "count": 25, "W": 40})]
    return [_defences(draw, {"name": f"group {i}", "count": n, "W": 10}) for i, n in enumerate((40, 40, 20))]


@st.composite
def edge_scenarios(draw) -> dict:
    edge = draw(st.sampled_from(["wounds", "models", "dice", "hits"]))
    if edge == "wounds":
        models = draw(_thousand_wounds())
        dice, hits_per_die = draw(st.sampled_from([10, 40, 120])), 1
    elif edge == "models":
        models = draw(_groups(limits.MAX_TARGET_MODELS, draw(st.sampled_from([100, 200, 400]))))
        dice, hits_per_die = draw(st.sampled_from([20, 60, 120])), 1
    elif edge == "dice":
        models = draw(_groups(draw(st.integers(1, 20)), 60))
        dice, hits_per_die = limits.MAX_ATTACKS, 1
    else:
        models = draw(_groups(draw(st.integers(1, 10)), 40))
        dice, hits_per_die = limits.MAX_HITS // 4, 4  # [SUSTAINED HITS D3]: 250 dice, 1,000 hits at most
    abilities = draw(st.lists(st.sampled_from([a for a in ABILITIES if not a.startswith("SUSTAINED")]),
                              unique=True, max_size=2))
    if hits_per_die == 4:
        abilities.append("SUSTAINED HITS D3")
    damage = draw(st.sampled_from([1, 2, "D3", "D6", "D6+2"] if edge != "dice" else [1, "D3"]))
    count = min(dice, limits.WEAPON_COUNT[1])
    weapon = {"name": "weapon", "count": count, "A": dice // count, "skill": draw(st.integers(2, 5)), "S": draw(st.integers(3, 14)),
              "AP": -draw(st.integers(0, 3)), "D": damage, "abilities": abilities}
    context = {"target_within_half_range": draw(st.booleans()), "target_has_benefit_of_cover": draw(st.booleans())}
    return {"weapons": [weapon], "target": {"keywords": ["INFANTRY"], "models": models}, "context": context}


@pytest.mark.refs("05.03", "05.04")
@pytest.mark.parametrize("ruleset", ["core", "quickref"])
@settings(max_examples=5)
@given(data=edge_scenarios())
def test_a_scenario_at_a_range_edge_answers(data, ruleset):
    """Every legal scenario answers, exactly: the chances of each number of models destroyed sum to 1."""
    note(str(data))
    sc = read_scenario(copy.deepcopy(data))  # legal by construction: a ScenarioError fails the test
    try:
        result = calculate(sc, ruleset=ruleset)
    except ValueError as refusal:  # the sheet lacks an ability's rule, or 05.03 cannot tell two entries apart
        assert not SIZE_WORDS.search(str(refusal)), f"refused for size: {refusal}"
        return
    assert sum(result.models_destroyed.values()) == 1
    assert max(result.models_destroyed) <= sum(m["count"] for m in data["target"]["models"])


_RESOLVE = saves.resolve


def _refuses_a_big_target(groups, *args, **kwargs):
    """A broken engine: the old cap on the target's wounds, back as a refusal."""
    if sum(g.count * g.W for g in groups) > 120:
        raise ValueError("the target has more than 120 wounds in all: at most 120 can be calculated")
    return _RESOLVE(groups, *args, **kwargs)


def _loses_the_last_state(*args, **kwargs):
    """A broken engine: the save step forgets one of the states it ends in."""
    states = _RESOLVE(*args, **kwargs)
    return dict(list(states.items())[:-1]) if len(states) > 1 else states


@pytest.mark.parametrize("mutant", [_refuses_a_big_target, _loses_the_last_state], ids=["size refusal", "lost state"])
def test_range_edge_property_fails_for_a_broken_engine(monkeypatch, mutant):
    fails_broken(monkeypatch, test_a_scenario_at_a_range_edge_answers, saves, "resolve", mutant, ruleset="core")

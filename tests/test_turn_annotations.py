"""Annotations of the turn-structure chapters (07, 08, 10, 14, 15, 16 and the appendix's strength entries).

Evidence quotes of their interpretation and finding files are checked against the cited lines (as
tests/test_ingest.py does for interpretations.yaml), and each recorded interpretation is shown to
matter: the chosen reading and a rejected one give different outcomes on one concrete case.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rules.core import (
    appendix,
    command_phase,
    monsters_and_vehicles,
    objectives,
    shooting_phase,
    stratagems,
)
from rules40k import annotations

REPO = Path(__file__).resolve().parents[1]
ANNOTATIONS = REPO / "spec" / "core" / "annotations"
CORE_TXT = REPO / "spec" / "sources" / "core.txt"
CORE_NAME = "000_5a110eecb9ce1e5f.txt"
MINE = ("07-", "08-", "10-", "14-", "15-", "16-", "99-appendix-strength")
FILES = sorted(p for folder in ("interpretations", "findings") for p in (ANNOTATIONS / folder).glob("*.yaml")
               if p.name.startswith(MINE))
INTERPRETATIONS = {r["id"]: r for r in annotations.interpretations("core")}
FINDINGS = {r["id"]: r for r in annotations.findings("core")}


def _evidence():
    cases = []
    for path in FILES:
        for entry in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            for item in entry["evidence"]:
                cases.append(pytest.param(item, id=f"{path.parent.name}/{path.stem}:{entry['id']}:{item['line']}"))
    return cases


@pytest.mark.parametrize("evidence", _evidence())
def test_evidence_quote_is_on_the_cited_line(evidence):
    assert evidence["document"] == CORE_NAME
    lines = CORE_TXT.read_text(encoding="utf-8").split("\n")
    line = lines[evidence["line"] - 1].replace("**", "")
    assert evidence["quote"].replace("**", "") in line, (evidence["line"], line)


def test_turn_findings_name_their_interpretations():
    for finding in ("eligible-to-shoot-without-a-shooting-type", "blast-at-engaged-monster-vehicle-unstated",
                    "secured-objective-end-of-turn"):
        assert FINDINGS[finding]["interpretation"] in INTERPRETATIONS


# -- Each interpretation changes an outcome ----------------------------------------------------------


def test_engaged_unit_without_shooting_type_is_eligible_but_not_selectable():
    """An engaged INFANTRY unit without [CLOSE-QUARTERS] weapons: eligible to shoot, but never selected."""
    eligible = shooting_phase.eligible_to_shoot(on_battlefield=True, selected_to_shoot_this_phase=False)
    has_type = shooting_phase.has_eligible_shooting_type(True, False, False, False, False, False)
    chosen = (eligible, shooting_phase.may_select_to_shoot(eligible, has_type))
    not_eligible_reading = (eligible and has_type, eligible and has_type)
    selected_with_nothing_reading = (eligible, eligible)
    assert INTERPRETATIONS["select-to-shoot-needs-a-shooting-type"]["chosen"] == "selectable-only-with-a-type"
    assert chosen == (True, False)
    assert chosen != not_eligible_reading and chosen != selected_with_nothing_reading


def test_blast_cannot_target_an_engaged_monster():
    chosen = shooting_phase.engaged_monster_vehicle_target_allowed(True, True, blast_weapon=True)
    as_written = monsters_and_vehicles.engaged_monster_vehicle_may_be_targeted(True, True)
    assert INTERPRETATIONS["blast-never-targets-engaged-units"]["chosen"] == "faq-no"
    assert (chosen, as_written) == (False, True)


def test_secured_objective_survives_the_end_of_a_turn():
    """Secured by player 1; at the end of the turn player 2's level is 1, player 1's 0."""
    chosen = objectives.objective_controller(level_1=0, level_2=1, secured_by=1, end_of_phase=False)
    every_check_reading = objectives.objective_controller(level_1=0, level_2=1, secured_by=1, end_of_phase=True)
    assert INTERPRETATIONS["secured-until-end-of-phase"]["chosen"] == "phase-ends-only"
    assert (chosen, every_check_reading) == (1, 2)


def test_leap_to_defend_costs_one_cp():
    base = stratagems.core_stratagem_cost(stratagems.CoreStratagem.HEROIC_INTERVENTION)
    leap = stratagems.stratagem_cost(base, stratagems.heroic_intervention_extra_cost(
        stratagems.HeroicMode.LEAP_TO_DEFEND), True)
    whole_stratagem_reading = base + 1
    assert INTERPRETATIONS["into-the-fray-costs-one-more"]["chosen"] == "into-the-fray-paid-on-use"
    assert (leap, whole_stratagem_reading) == (1, 2)
    assert stratagems.heroic_intervention_modes(1) == (stratagems.HeroicMode.LEAP_TO_DEFEND,)


def test_successful_step_roll_clears_where_01_07_alone_would_not():
    """08.03 clears battle-shock on a success; 01.07 alone (interpretation battle-shock-success-does-not-clear)
    would leave it."""
    from rules.core import core_concepts

    assert command_phase.battle_shocked_after_step_roll(True, True) is False
    assert core_concepts.battle_shocked_after_roll(True, True) is True


# -- Bad input: one clear sentence ---------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: appendix.at_half_strength(starting_strength=5, models=6),
    lambda: appendix.below_half_strength(starting_strength=1, models=2),
    lambda: appendix.below_starting_strength(starting_strength=1, models=1, wounds=4, w=3),
    lambda: stratagems.explosives_mortal_wounds([4, 5]),
    lambda: stratagems.crushing_impact_mortal_wounds([1, 2, 3], toughness=4),
    lambda: command_phase.next_command_step("move units"),
    lambda: shooting_phase.next_shooting_step("fight"),
])
def test_impossible_facts_raise_one_sentence(call):
    with pytest.raises(ValueError) as error:
        call()
    message = str(error.value)
    assert message and "\n" not in message

"""Interpretations and findings of chapters 18-20: the readings differ on a concrete case, and every quote is on
its cited line of the Core Rules."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rules.core import attached_units, strategic_reserves, transports
from rules.model import Placed
from rules40k import annotations

ANNOTATIONS = Path(__file__).resolve().parent.parent / "spec" / "core" / "annotations"
CORE_TXT = Path(__file__).resolve().parent.parent / "spec" / "sources" / "core.txt"
OURS = [ANNOTATIONS / "interpretations" / name
        for name in ("18-transports.yaml", "19-attached-units-battle.yaml", "20-strategic-reserves.yaml")]
OURS += [ANNOTATIONS / "findings" / "20-strategic-reserves.yaml"]
RECORDS = {r["id"]: r for r in annotations.interpretations("core")}


def _evidence():
    cases = []
    for path in OURS:
        for entry in yaml.safe_load(path.read_text(encoding="utf-8")):
            for item in entry["evidence"]:
                cases.append(pytest.param(item, id=f"{entry['id']}:{item['line']}"))
    return cases


@pytest.mark.parametrize("evidence", _evidence())
def test_quote_is_on_the_cited_line(evidence):
    assert evidence["document"] == "000_5a110eecb9ce1e5f.txt"
    line = CORE_TXT.read_text(encoding="utf-8").split("\n")[evidence["line"] - 1].replace("**", "")
    assert evidence["quote"].replace("**", "") in line


def test_rapid_disembark_after_ingress_need_not_hug_the_edge():
    """A model wholly within 3" of a TRANSPORT that arrived at the left edge, but reaching past 6" from that edge."""
    transport = Placed(4, 30, base_mm="100")
    model = Placed(8, 30, base_mm="32")
    meets = strategic_reserves.ingress_restrictions_met(True, False, 2)
    chosen = transports.disembark_position_allowed(transports.DisembarkMode.RAPID, model, transport, False, False,
                                                   True, meets)
    every_rule = chosen and strategic_reserves.wholly_within_edge_distance([model], 44, 60)
    assert RECORDS["rapid-disembark-keeps-ingress-restrictions"]["chosen"] == "restrictions"
    assert (bool(chosen), bool(every_rule)) == (True, False)


def test_heavy_aircraft_still_leave_a_legal_formation():
    """1200 points of AIRCRAFT at a 2000-point limit."""
    chosen = strategic_reserves.reserves_selection_legal(0, 1200, 2000)
    as_written = strategic_reserves.reserves_within_limit(1200, 2000)
    chosen_with_more = strategic_reserves.reserves_selection_legal(100, 1200, 2000)
    exempt_with_more = strategic_reserves.reserves_within_limit(100, 2000)
    assert RECORDS["reserves-limit-and-required-units"]["chosen"] == "required-first"
    assert (chosen, as_written) == (True, False)
    assert (chosen_with_more, exempt_with_more) == (False, True)


def test_passengers_of_a_repositioned_transport_survive_with_it():
    from properties.proofs_transports import destruction_as_written

    facts = dict(in_reserves=True, otherwise_stated=False, made_ingress_move=False, embarked=True,
                 transport_made_ingress_move=False, repositioned=False, transport_repositioned=True)
    chosen = strategic_reserves.destroyed_at_end_of_third_round(**facts)
    as_written = destruction_as_written()(**facts)
    assert RECORDS["passengers-share-transport-exception"]["chosen"] == "shared"
    assert (chosen, as_written) == (False, True)


def test_a_unit_may_wrap_round_a_corner_when_arriving():
    unit = [Placed(2, 9, base_mm="50.8"), Placed(4, 4, base_mm="50.8"), Placed(9, 2, base_mm="50.8")]
    chosen = strategic_reserves.wholly_within_edge_distance(unit, 44, 60)
    # One edge for the whole unit: left (x + r <= 6), bottom (y + r <= 6), right or top.
    one_edge = any(all(test(m) for m in unit) for test in (
        lambda m: m.x + m.radius <= 6, lambda m: m.y + m.radius <= 6,
        lambda m: m.x - m.radius >= 44 - 6, lambda m: m.y - m.radius >= 60 - 6))
    assert RECORDS["ingress-edges-together"]["chosen"] == "any-edges"
    assert (chosen, one_edge) == (True, False)


def test_destroyed_rules_trigger_with_the_last_original_model():
    """The last model that started the battle in the unit dies; a model that joined later is still alive."""
    models_left, started_left = 1, 0
    chosen = attached_units.destroyed_rules_trigger(True, models_left=models_left,
                                                   destroyed_model_started_battle_in_unit=True,
                                                   started_battle_models_left=started_left)
    whole_unit = models_left == 0 and started_left == 0  # only once no model at all is left
    assert RECORDS["attached-unit-destroyed-triggers"]["chosen"] == "last-original-model"
    assert (chosen, whole_unit) == (True, False)


def test_findings_name_our_proofs_and_interpretations():
    findings = {f["id"]: f for f in annotations.findings("core")}
    for finding_id, proof_id in (("aircraft-beyond-reserves-limit", "reserves-limit-as-written-traps-aircraft"),
                                 ("passengers-of-repositioned-transport-destroyed",
                                  "passengers-of-repositioned-transport-as-written")):
        assert findings[finding_id]["check"] == f"proof:{proof_id}"
        assert findings[finding_id]["interpretation"] in RECORDS


"""m41@006 against m41@007 through the command: its JSON, its text, an unknown version refused, the calculator."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rules.m41 import revision006
from rules40k.review import variants

REPO = Path(__file__).resolve().parents[1]
# Worked by hand in tests/test_review_m41_units.py: 007's 6+ row (T >= S+3) against 006's "less than half" (T >= 2S+1).
TO_WOUND_CHANGED = {(1, 3): (6, 5), (3, 6): (5, 6), (4, 7): (5, 6), (4, 8): (5, 6), (5, 8): (5, 6), (5, 9): (5, 6),
                    (5, 10): (5, 6), (6, 9): (5, 6), (6, 10): (5, 6), (7, 10): (5, 6)}

# -- the command -----------------------------------------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rules40k", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600)


def test_an_unknown_version_is_one_sentence_and_exit_2():
    done = _cli("review", "m41@005", "m41@007")
    assert done.returncode == 2 and done.stdout == ""
    assert "'m41@005' is not a known version" in done.stderr and "m41@006" in done.stderr


@pytest.fixture(scope="module")
def review_json():
    done = _cli("review", "m41@006", "m41@007", "--json", "--no-sweep")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_review_lists_the_exact_cells_verdicts_and_intents(review_json):
    entries = {e["id"]: e for e in review_json["entries"]}
    table = entries["to-wound-less-than-half"]["tables"]["rules.m41.shooting.TO_WOUND_TABLE"]
    cells = {(c["inputs"]["strength"], c["inputs"]["toughness"]): (c["old"], c["new"]) for c in table["cells"]}
    assert cells == TO_WOUND_CHANGED
    assert list(entries["to-wound-less-than-half"]["tables"]) == ["rules.m41.shooting.TO_WOUND_TABLE"]
    verdicts = {c["id"]: (c["old"], c["new"]) for c in entries["to-wound-less-than-half"]["checks"]}
    assert verdicts["example:m41:shooting-bolter-vs-t8"] == ("failed", "passed")
    intent = entries["twin-linked"]["intents"]["twin_linked_stacks_with_rerolls"]
    assert (intent["old"]["verdict"], intent["new"]["verdict"]) == ("fails", "holds")
    assert not entries["snap-shots-wall-of-death"].get("tables") and entries["thrust-move"]["status"] == "too-vague"
    whole = review_json["whole"]["intents"]
    assert {n: (v["old"]["verdict"], v["new"]["verdict"]) for n, v in whole.items()} == {
        "to_wound_covers_s3_to_t5": ("fails", "holds"), "twin_linked_stacks_with_rerolls": ("fails", "holds"),
        "penetrating_hits_cranked_up": ("fails", "holds"), "poison_better_value_never_worse": ("holds", "holds")}


def test_the_text_says_each_cell_in_the_games_terms(review_json):
    text = "\n".join(variants.lines(review_json))
    assert "S4 against T8: 5+ -> 6+" in text and "S1 against T3: 6+ -> 5+" in text
    assert "intent to_wound_covers_s3_to_t5 in m41@006: fails" in text
    assert "[front/revision-007/unit-types] thrust-move: too vague to rebuild" in text


def test_the_reverse_review_swaps_the_sides(review_json, monkeypatch):
    monkeypatch.setattr(variants, "probe", lambda variant, sweep=True: {
        "entries": {e["id"]: {k: e[k] for k in ("tables", "checks", "intents", "outcomes") if k in e}
                    for e in review_json["entries"]}, "whole": review_json["whole"], "timings": {}})
    reverse = variants.review_variants("m41@007", "m41@006")
    table = {e["id"]: e for e in reverse["entries"]}["to-wound-less-than-half"]["tables"]
    cell = [c for c in table["rules.m41.shooting.TO_WOUND_TABLE"]["cells"] if c["inputs"] == {"strength": 4, "toughness": 8}]
    assert (cell[0]["old"], cell[0]["new"]) == (6, 5)


def test_the_006_saves_reach_the_calculator(monkeypatch):
    """1 boltgun beyond half range (1 shot, BS4: 2/3 hits, S4 against T3: 2/3 wounds, AP5 denies the 5+ armour) at a
    Storm Guardian (6++ invulnerable) in light cover (5+): 007 takes 5+ then 6+ (one worse, floored at 6+), failing
    4/6 x 5/6 = 5/9, so 4/9 x 5/9 = 20/81 destroyed; 006 takes 5+ then 7+ (no floor), failing 4/6, so 8/27."""
    from rules import calculator
    from rules.m41 import models

    data = {"weapons": [{"name": "boltgun", "count": 1, "type": "Rapid Fire 1", "S": 4, "AP": 5, "BS": 4}],
            "target": {"models": [{"name": "Storm Guardian", "count": 1, "WS": 4, "T": 3, "W": 1, "Sv": 5,
                                   "InSv": 6}], "cover": "light"}}
    assert calculator.outcome(data, ruleset="m41")["expected_models_destroyed"] == Fraction(20, 81)
    monkeypatch.setattr(models, "successive_saves", revision006.successive_saves)
    assert calculator.outcome(data, ruleset="m41")["expected_models_destroyed"] == Fraction(8, 27)


def test_the_sweep_has_infantry_and_vehicle_matchups():
    from rules40k.review import sweep_m41

    found = sweep_m41.outcomes()
    assert not [name for name, outcome in found.items() if "error" in outcome]
    assert {o["measure"] for o in found.values()} == {"models destroyed", "hull points lost"}

"""m41@006 against m41@007: the versions file, the exact changed cells, the intent checks and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rules.m41 import revision006, shooting, usr, vehicles
import importlib

from rules40k.review import diff, intents_m41, variants

snapshot_cells = importlib.import_module("rules40k.review.snapshot").table_cells

REPO = Path(__file__).resolve().parents[1]

# Worked by hand. 007's 6+ row is S-T <= -3 (T >= S+3); 006's was "less than half" (2S < T, T >= 2S+1); rows 2+
# to 4+ are the same, and below those the other S<T cells need 5+. For S from 1 to 10, T up to 10, they differ
# where exactly one holds: S1: T3 (006 6+, 007 5+); S2: none (S+3 = 2S+1 = 5); S3: T6; S4: T7, T8; S5: T8-T10;
# S6: T9, T10; S7: T10; S8 and up: T would be 11 or more.
TO_WOUND_CHANGED = {(1, 3): (6, 5), (3, 6): (5, 6), (4, 7): (5, 6), (4, 8): (5, 6), (5, 8): (5, 6), (5, 9): (5, 6),
                    (5, 10): (5, 6), (6, 9): (5, 6), (6, 10): (5, 6), (7, 10): (5, 6)}


def _cells(table) -> dict:
    return {"x": {"refs": [], "inputs": [], "rows": [], "cells": snapshot_cells(table)}}


def test_to_wound_change_is_exactly_the_cells_the_note_touches():
    changed = diff.diff_tables(_cells(revision006.TO_WOUND_TABLE), _cells(shooting.TO_WOUND_TABLE))["changed"]["x"]
    found = {(c["inputs"]["strength"], c["inputs"]["toughness"]): (c["old"], c["new"]) for c in changed["cells"]}
    assert found == TO_WOUND_CHANGED


def test_every_sentence_of_every_note_is_in_an_entry():
    variant = variants.load("m41", "006")
    assert variants.unquoted(variant) == []
    assert len(variants.sentences("Renamed a thing. Fleeing is now d6 from 3+d6. Added X")) == 3


def test_a_sentence_no_entry_quotes_is_reported():
    variant = variants.load("m41", "006")
    variant["entries"] = [e for e in variant["entries"] if e["id"] != "fleeing-d6"]
    assert variants.unquoted(variant) == [("front/revision-007/morale", "Fleeing is now d6 from 3+d6.")]


GOOD_ENTRY = """  - id: fleeing-d6
    note: front/revision-007/morale
    quote: Fleeing is now d6 from 3+d6.
    status: reconstructed
    overrides:
      rules.m41.morale.fall_back_distance: rules.m41.revision006.fall_back_distance
"""
HEAD = "ruleset: m41\nversion: '006'\ntitle: t\nsource: s\nentries:\n"


@pytest.mark.parametrize("text, words", [
    (HEAD + GOOD_ENTRY.replace("Fleeing is now d6", "Fleeing is now 2d6"), "entries[0] (fleeing-d6).quote: is not part"),
    (HEAD + GOOD_ENTRY.replace("reconstructed", "guessed"), "entries[0] (fleeing-d6).status: must be one of"),
    (HEAD + GOOD_ENTRY.split("    overrides")[0], "a reconstructed entry must name what it replaces"),
    (HEAD + GOOD_ENTRY.replace("status: reconstructed", "status: too-vague"), "only a reconstructed entry replaces"),
    (HEAD + GOOD_ENTRY + GOOD_ENTRY, "'fleeing-d6' is used twice"),
    (HEAD + GOOD_ENTRY.replace("front/revision-007/morale", "morale/fleeing"), "is not a revision note section"),
    (HEAD + "  - id: x\n    note: [", "is not valid YAML"),
    (HEAD.replace("title: t\n", ""), "lacks ['title']"),
])
def test_a_bad_versions_file_is_one_sentence_naming_the_place(tmp_path, text, words):
    (tmp_path / "spec" / "m41" / "versions").mkdir(parents=True)
    path = tmp_path / "spec" / "m41" / "versions" / "006.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(variants.VariantError) as error:
        variants.load("m41", "006", root=tmp_path)
    assert words in str(error.value) and str(path) in str(error.value)
    assert "\n" not in str(error.value)


def test_the_good_entry_is_read(tmp_path):
    (tmp_path / "spec" / "m41" / "versions").mkdir(parents=True)
    (tmp_path / "spec" / "m41" / "versions" / "006.yaml").write_text(HEAD + GOOD_ENTRY, encoding="utf-8")
    assert variants.load("m41", "006", root=tmp_path)["entries"][0]["status"] == "reconstructed"


# -- intents: each holds for 007, and flips on a version that breaks it ----------------------------------------------


def test_to_wound_intent_holds_for_007_and_fails_on_the_old_chart(monkeypatch):
    assert intents_m41.to_wound_covers_s3_to_t5()["verdict"] == "holds"
    monkeypatch.setattr(shooting, "TO_WOUND_TABLE", revision006.TO_WOUND_TABLE)
    failed = intents_m41.to_wound_covers_s3_to_t5()
    assert failed["verdict"] == "fails" and failed["counterexample"] == {"strength": 4, "toughness": 8, "needs": 5}


def test_to_wound_intent_finds_a_change_inside_s3_to_t5(monkeypatch):
    """A chart asking 6+ at S-T of -2 changes S3 against T5 (5+ in 006): the z3 search must find such a cell."""
    monkeypatch.setattr(shooting, "to_wound_needed", lambda s, t: shooting.If(s - t <= -2, 6, revision006.to_wound_needed(s, t)))
    failed = intents_m41.to_wound_covers_s3_to_t5()
    assert failed["verdict"] == "fails"
    case = failed["counterexample"]
    assert case["strength"] >= 3 and case["toughness"] <= 5 and case["strength"] - case["toughness"] == -2


def test_twin_linked_intent_flips_on_006(monkeypatch):
    assert intents_m41.twin_linked_stacks_with_rerolls()["verdict"] == "holds"
    monkeypatch.setattr(usr, "twin_linked_hit_chance", revision006.twin_linked_hit_chance)
    failed = intents_m41.twin_linked_stacks_with_rerolls()
    # 2+ re-rolled once: 5/6 + 1/6 * 5/6 = 35/36 with or without twin-linked.
    assert failed["verdict"] == "fails" and failed["counterexample"]["re-roll alone"] == "35/36"


def test_poison_intent_catches_a_better_value_doing_worse(monkeypatch):
    assert intents_m41.poison_better_value_never_worse()["verdict"] == "holds"
    # A deliberately wrong poison: a 2+ poison wounding at 1/6, worse than every other value.
    right = usr.poisoned_wound_chance
    monkeypatch.setattr(usr, "poisoned_wound_chance",
                        lambda needed, poison, melee, immune=False: Fraction(1, 6) if poison == 2 else right(
                            needed, poison, melee, immune))
    failed = intents_m41.poison_better_value_never_worse()
    assert failed["verdict"] == "fails" and "poison 2+" in failed["counterexample"]


def test_penetrating_hits_intent_fails_when_nothing_was_cranked_up(monkeypatch):
    assert intents_m41.penetrating_hits_cranked_up()["verdict"] == "holds"
    for name in ("results_bestowed", "damaged_sub_rolls", "hull_points_lost"):
        monkeypatch.setattr(vehicles, name, getattr(revision006, name))
    assert intents_m41.penetrating_hits_cranked_up()["verdict"] == "fails"
    monkeypatch.setattr(vehicles, "damaged_sub_rolls", lambda result: 0)  # fewer damaged rolls than 006
    failed = intents_m41.penetrating_hits_cranked_up()
    assert failed["verdict"] == "fails" and failed["counterexample"]["AP"] == 1


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

"""m41@006 against m41@007, in this process (what mutation testing of rules40k/review can see): the versions file,
the exact changed cells, every note sentence in an entry, the intent checks, the text of a review."""

from __future__ import annotations

import importlib
import json
from fractions import Fraction
from pathlib import Path

import pytest

from rules.m41 import revision006, shooting, usr, vehicles
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
    (HEAD.replace("ruleset: m41", "ruleset: core") + GOOD_ENTRY, "ruleset/version: must be m41 and '006'"),
    (HEAD.replace("version: '006'", "version: '005'") + GOOD_ENTRY, "ruleset/version: must be m41 and '006'"),
    (HEAD.replace("title: t", "title: '  '") + GOOD_ENTRY, "title"),
    (HEAD + " []\n", "entries: must be a non-empty list"),
    (HEAD.replace("entries:\n", "entries: {a: 1}\n"), "entries: must be a non-empty list"),
    (HEAD + GOOD_ENTRY.replace("    overrides:\n      rules.m41.morale.fall_back_distance: rules.m41.revision006."
                                "fall_back_distance\n", "    overrides: {}\n"),
     "a reconstructed entry must name what it replaces"),
    (HEAD + GOOD_ENTRY.replace("status: reconstructed", "status: too-vague").split("    overrides")[0],
     "entries[0] (fleeing-d6).why"),
    (HEAD + GOOD_ENTRY + "    why: '  '\n", "entries[0] (fleeing-d6).why"),
    ("- a\n- b\n", "the file: must be a mapping"),
    (b"\xff\xfe".decode("latin-1"), "is not UTF-8 text"),
])
def test_a_bad_versions_file_is_one_sentence_naming_the_place(tmp_path, text, words):
    (tmp_path / "spec" / "m41" / "versions").mkdir(parents=True)
    path = tmp_path / "spec" / "m41" / "versions" / "006.yaml"
    if words == "is not UTF-8 text":
        path.write_bytes(b"\xff\xfe")
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(variants.VariantError) as error:
        variants.load("m41", "006", root=tmp_path)
    assert words in str(error.value) and str(path) in str(error.value)
    assert "\n" not in str(error.value)


def test_a_versions_file_that_cannot_be_read_is_one_sentence(tmp_path):
    """A missing file is one sentence naming it and why (the system's words)."""
    with pytest.raises(variants.VariantError, match=r"006\.yaml: cannot be read \(No such file or directory\)"):
        variants.load("m41", "006", root=tmp_path)


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




# -- the text and the reverse of a review, on a hand-made report ------------------------------------------------------

HAND_MADE = {
    "kind": "variants", "ruleset": "m41", "old": "m41@006", "new": "m41@007", "title": "T", "source": "S",
    "counts": {"reconstructed": 1, "too-vague": 0, "no-rule-change": 0, "not-rebuilt": 0},
    "entries": [{"id": "to-wound", "note": "front/revision-007/shooting-phase", "quote": "Q.", "status": "reconstructed",
                 "why": "", "overrides": {"a.B": "c.D"},
                 "tables": {"a.B": {"changed": 1, "total": 100, "rows_before": ["x"], "rows_after": ["y"],
                                    "cells": [{"inputs": {"strength": 4, "toughness": 8}, "label": "strength 4, toughness 8",
                                               "old": 5, "new": 6}]}},
                 "checks": [{"id": "example:m41:e", "old": "failed", "new": "passed"}],
                 "intents": {"i": {"old": {"verdict": "fails", "claim": "c", "counterexample": {"n": 2}},
                                   "new": {"verdict": "holds", "claim": "c", "counterexample": None}}},
                 "outcomes": {"applies": True, "matchups": 3, "overrides_not_called": ["a.X"],
                              "moved": [{"matchup": "m", "old": {"measure": "models destroyed", "value": "1/2"},
                                         "new": {"measure": "hull points lost", "value": "1/4", "destroyed": "1/8",
                                                 "damage results suffered": "3/2", "damaged sub-results": "0/1"}}]}}],
    "whole": {"outcomes": {"applies": False, "why": "not asked"}},
}


def test_the_text_of_a_review_in_the_games_terms():
    text = variants.lines(HAND_MADE)
    assert text[:3] == ["m41@006 -> m41@007: T", "Source: S",
                        "1 rebuilt, 0 too vague to rebuild, 0 no rule change, 0 not rebuilt"]
    assert "[front/revision-007/shooting-phase] to-wound: rebuilt" in text
    assert "    1 of 100 cells of a.B changed:" in text and "      S4 against T8: 5+ -> 6+" in text
    assert "    check example:m41:e: failed -> passed" in text
    assert "    intent i in m41@006: fails (counterexample: {'n': 2})" in text and "    intent i in m41@007: holds" in text
    assert "    1 of 3 matchups moved" in text
    assert ("      m: 0.5 models destroyed -> 0.25 hull points lost, destroyed 12.5%, 1.5 damage results, 0 damaged "
            "sub-results") in text
    assert "    (the calculator never calls a.X)" in text and text[-1] == "    outcomes: not asked"


def test_other_cells_read_as_their_label():
    assert variants._cell_words("t", {"inputs": {"roll": 3}, "label": "roll 3", "old": "A", "new": "B"}) == "roll 3: A -> B"
    assert variants.outcome_words({"error": "no"}) == "refused (no)"


def test_the_reverse_of_a_review_swaps_every_side():
    flipped = variants._flip(HAND_MADE["entries"][0])
    cell = flipped["tables"]["a.B"]["cells"][0]
    assert (cell["old"], cell["new"]) == (6, 5)
    assert (flipped["tables"]["a.B"]["rows_before"], flipped["tables"]["a.B"]["rows_after"]) == (["y"], ["x"])
    assert (flipped["checks"][0]["old"], flipped["checks"][0]["new"]) == ("passed", "failed")
    assert flipped["intents"]["i"]["old"]["verdict"] == "holds"
    assert flipped["outcomes"]["moved"][0]["old"]["measure"] == "hull points lost"
    assert HAND_MADE["entries"][0]["tables"]["a.B"]["cells"][0]["old"] == 5  # the original is left as it was


@pytest.mark.parametrize("old, new, words", [
    ("m41@006", "m41@006", "is not such a pair"), ("m41@007", "m41@007", "is not such a pair"),
    ("m41@004", "m41@007", "'m41@004' is not a known version"), ("m41", "m41@007", "is not a known version"),
])
def test_a_pair_that_is_not_a_variant_and_its_ruleset_is_refused(old, new, words):
    with pytest.raises(variants.VariantError, match=words):
        variants.review_variants(old, new)


def test_the_known_versions_are_the_current_revision_and_the_files():
    assert variants.known() == ["m41@007", "m41@006"]
    assert variants.parse("m41@006") == ("m41", "006")


def test_a_variant_review_refuses_a_plot_it_cannot_draw_before_any_work(monkeypatch, capsys):
    """`review m41@006 m41@007 --plot x.pdf` is refused by the same check as every review, before the review runs."""
    from rules40k import cli

    monkeypatch.setattr(variants, "review_variants", lambda *a, **k: pytest.fail("the review ran"))
    assert cli.main(["review", "m41@006", "m41@007", "--plot", "x.pdf"]) == 2
    assert "x.pdf: the plot must be an .svg or .png file" in capsys.readouterr().err


# -- edges of the intent checks' domains (S 3 to 10 against T 1 to 5; poison 2+ to 6+) ---------------------------------


def _chart_wrong_at(monkeypatch, strength, toughness):
    """007's chart, but asking 6+ at one cell."""
    right = shooting.to_wound_needed
    monkeypatch.setattr(shooting, "to_wound_needed",
                        lambda s, t: shooting.If(shooting.And(s == strength, t == toughness), 6, right(s, t)))


@pytest.mark.parametrize("strength, toughness", [(10, 1), (3, 1), (10, 5), (3, 5)])
def test_to_wound_intent_sees_every_corner_of_s3_to_t5(monkeypatch, strength, toughness):
    _chart_wrong_at(monkeypatch, strength, toughness)
    failed = intents_m41.to_wound_covers_s3_to_t5()
    assert failed["verdict"] == "fails"
    assert (failed["counterexample"]["strength"], failed["counterexample"]["toughness"]) == (strength, toughness)


@pytest.mark.parametrize("strength, toughness", [(11, 1), (2, 5), (3, 6)])
def test_to_wound_intent_ignores_cells_outside_s3_to_t5(monkeypatch, strength, toughness):
    """S11 is past the charts' 1 to 10, S2 below the note's S3, T6 above its T5: a change there is not the note's."""
    _chart_wrong_at(monkeypatch, strength, toughness)
    assert intents_m41.to_wound_covers_s3_to_t5()["verdict"] == "holds"


def test_poison_intent_names_the_two_values_and_their_chances(monkeypatch):
    right = usr.poisoned_wound_chance
    monkeypatch.setattr(usr, "poisoned_wound_chance",
                        lambda needed, poison, melee, immune=False: Fraction(1, 6) if poison == 2 else right(
                            needed, poison, melee, immune))
    # needed 2+, ranged, not immune: poison 3+ wounds on min(2, 3) = 2+, 5/6.
    assert intents_m41.poison_better_value_never_worse()["counterexample"] == {
        "needed": 2, "melee": False, "immune": False, "poison 2+": "1/6", "poison 3+": "5/6"}


def test_poison_intent_compares_each_value_with_the_next(monkeypatch):
    right = usr.poisoned_wound_chance
    monkeypatch.setattr(usr, "poisoned_wound_chance",
                        lambda needed, poison, melee, immune=False: Fraction(0) if poison == 5 else right(
                            needed, poison, melee, immune))
    failed = intents_m41.poison_better_value_never_worse()
    assert failed["verdict"] == "fails" and "poison 5+" in failed["counterexample"] and "poison 6+" in failed["counterexample"]


def test_poison_intent_stops_at_6_plus(monkeypatch):
    """A 7+ poison is no value the rules print: how one would wound is not the note's concern."""
    right = usr.poisoned_wound_chance
    monkeypatch.setattr(usr, "poisoned_wound_chance",
                        lambda needed, poison, melee, immune=False: Fraction(1) if poison == 7 else right(
                            needed, poison, melee, immune))
    assert intents_m41.poison_better_value_never_worse()["verdict"] == "holds"


def test_penetrating_hits_counterexample_gives_both_versions_numbers(monkeypatch):
    """AP1 adds 3 to the damage roll: 4-6 vehicle damaged (bestowing stunned and shaken: 3 results), 7-9 On Fire (4),
    so 3/6 x 3 + 3/6 x 4 = 7/2 results, 0 damaged rolls (the broken rule), 1 + 1 = 2 hull points; in 006 one result
    each, one damaged roll each, 2 hull points."""
    monkeypatch.setattr(vehicles, "damaged_sub_rolls", lambda result: 0)
    assert intents_m41.penetrating_hits_cranked_up()["counterexample"] == {
        "AP": 1, "now": ["7/2", "0", "2"], "006": ["1", "1", "2"]}


# -- the versions file: each field's own refusal ------------------------------------------------------------------


def _load(tmp_path, text):
    (tmp_path / "spec" / "m41" / "versions").mkdir(parents=True, exist_ok=True)
    path = tmp_path / "spec" / "m41" / "versions" / "006.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(variants.VariantError) as error:
        variants.load("m41", "006", root=tmp_path)
    return str(error.value).replace(str(path), "FILE")


def test_each_field_of_a_versions_file_is_checked(tmp_path):
    assert _load(tmp_path, HEAD.replace("title: t", "title: '  '") + GOOD_ENTRY) == "FILE: title: must be a non-empty text"
    assert _load(tmp_path, HEAD.replace("title: t", "title: 3") + GOOD_ENTRY) == "FILE: title: must be a non-empty text"
    assert _load(tmp_path, HEAD.replace("'006'", "'005'") + GOOD_ENTRY) == (
        "FILE: ruleset/version: must be m41 and '006', as the file's place says")
    assert _load(tmp_path, HEAD.replace("ruleset: m41", "ruleset: core") + GOOD_ENTRY).startswith("FILE: ruleset/version")
    assert _load(tmp_path, HEAD + " []\n") == "FILE: entries: must be a non-empty list"
    assert _load(tmp_path, HEAD + GOOD_ENTRY.split("    overrides")[0] + "    overrides: {}\n") == (
        "FILE: entries[0] (fleeing-d6).overrides: a reconstructed entry must name what it replaces")
    vague = GOOD_ENTRY.split("    overrides")[0].replace("reconstructed", "too-vague")
    assert _load(tmp_path, HEAD + vague) == "FILE: entries[0] (fleeing-d6).why: must be a non-empty text"
    assert _load(tmp_path, HEAD + GOOD_ENTRY + "    why: ''\n") == (
        "FILE: entries[0] (fleeing-d6).why: must be a non-empty text")


def test_a_missing_or_broken_versions_file(tmp_path):
    with pytest.raises(variants.VariantError) as error:
        variants.load("m41", "006", root=tmp_path)
    assert str(error.value).endswith("006.yaml: cannot be read (No such file or directory)")
    assert _load(tmp_path, "a: [\n") == "FILE: line 2, column 1 is not valid YAML (did not find expected node content)"


# -- the review's probe process and its sides, with the probe replaced --------------------------------------------


def _fake_probe(seen=None):
    def probe(variant, sweep=True):
        if seen is not None:
            seen.append((variant["version"], sweep))
        return {"entries": {e["id"]: {k: e[k] for k in ("tables", "checks", "intents", "outcomes")}
                            for e in HAND_MADE["entries"]}, "whole": {"outcomes": {"applies": False, "why": "w"}},
                "timings": {"t": 1}}
    return probe


def test_a_forward_review_keeps_the_probes_sides(monkeypatch):
    seen = []
    monkeypatch.setattr(variants, "probe", _fake_probe(seen))
    hand = dict(HAND_MADE["entries"][0], id="to-wound-less-than-half")
    monkeypatch.setattr(variants, "_fake", None, raising=False)
    probe = _fake_probe(seen)
    monkeypatch.setattr(variants, "probe", lambda variant, sweep=True: {
        **probe(variant, sweep), "entries": {"to-wound-less-than-half": {k: hand[k] for k in ("tables", "checks")}}})
    report = variants.review_variants("m41@006", "m41@007", sweep=False)
    assert seen == [("006", False)]
    assert (report["kind"], report["ruleset"], report["old"], report["new"]) == ("variants", "m41", "m41@006", "m41@007")
    entry = {e["id"]: e for e in report["entries"]}["to-wound-less-than-half"]
    assert entry["tables"]["a.B"]["cells"][0]["old"] == 5 and entry["status"] == "reconstructed"
    assert report["counts"] == {"reconstructed": 10, "too-vague": 32, "no-rule-change": 9, "not-rebuilt": 2}
    assert report["whole"] == {"outcomes": {"applies": False, "why": "w"}} and report["timings"] == {"t": 1}


def test_flipping_an_entry_without_outcomes(monkeypatch):
    assert variants._flip({"outcomes": {"applies": False, "why": "w"}}) == {"outcomes": {"applies": False, "why": "w"}}


def test_the_site_gets_the_reviews_of_its_rulesets(monkeypatch, tmp_path):
    monkeypatch.setattr(variants, "probe", _fake_probe())
    assert variants.save_for_site(tmp_path, ["core"]) == []
    written = variants.save_for_site(tmp_path, ["m41"])
    assert written == [tmp_path / "reviews" / "m41-006-m41-007.json"]
    assert json.loads(written[0].read_text(encoding="utf-8"))["old"] == "m41@006"
    assert not (tmp_path / "reviews" / "m41-006-m41-007.svg").exists()  # no sweep, no plot


@pytest.mark.parametrize("script, words", [
    ("import sys; print('first', file=sys.stderr); print('last words', file=sys.stderr); sys.exit(1)",
     "the review of m41@006 failed: last words"),
    ("import sys; sys.exit(3)", "the review of m41@006 failed: no output"),
    ("import sys; print('x' * 400, file=sys.stderr); sys.exit(1)", "the review of m41@006 failed: " + "x" * 300),
])
def test_a_probe_that_fails_is_one_sentence(monkeypatch, tmp_path, script, words):
    fake = tmp_path / "probe.py"
    fake.write_text(script, encoding="utf-8")
    monkeypatch.setattr(variants, "PROBE", fake)
    with pytest.raises(variants.ReviewError) as error:
        variants.probe(variants.load("m41", "006"), sweep=False)
    assert str(error.value) == words


def test_a_probe_that_hangs_is_stopped(monkeypatch, tmp_path):
    fake = tmp_path / "probe.py"
    fake.write_text("import time; time.sleep(30)", encoding="utf-8")
    monkeypatch.setattr(variants, "PROBE", fake)
    with pytest.raises(variants.ReviewError, match="did not finish within 0.5 s"):
        variants.probe(variants.load("m41", "006"), sweep=False, timeout=0.5)


def test_a_probe_that_succeeds_is_read(monkeypatch, tmp_path):
    fake = tmp_path / "probe.py"
    fake.write_text("import json, sys; job = json.load(open(sys.argv[1]));"
                    " json.dump({'job': job['ruleset'], 'sweep': job['sweep']}, open(sys.argv[2], 'w'))", encoding="utf-8")
    monkeypatch.setattr(variants, "PROBE", fake)
    assert variants.probe(variants.load("m41", "006"), sweep=False) == {"job": "m41", "sweep": False}


# -- the calculators call the twin-linked rule the 006 entry replaces -----------------------------------------------


def test_calc_twin_linked_with_hatred_moves_under_006(monkeypatch):
    """WS4 against WS3 hits on 3+ (2/3). 007: two dice, re-rolled in total by Hatred, 1 - (1/3)^4 = 80/81. 006:
    twin-linked re-rolled the miss and Hatred's re-roll added nothing, 2/3 + 1/3 x 2/3 = 8/9."""
    from rules import calculator

    scenario = {"weapons": [{"name": "Twin claws", "count": 1, "type": "Melee", "S": 4, "AP": "-", "WS": 4, "A": 1,
                             "rules": ["Twin-linked", "Hatred"]}],
                "target": {"models": [{"name": "Guardsman", "count": 10, "WS": 3, "T": 3, "W": 1, "Sv": 5}]},
                "context": {"first_round": True}}
    assert calculator.outcome(scenario, ruleset="m41")["steps"][0]["p_hit"] == Fraction(80, 81)
    monkeypatch.setattr(usr, "twin_linked_hit_chance", revision006.twin_linked_hit_chance)
    assert calculator.outcome(scenario, ruleset="m41")["steps"][0]["p_hit"] == Fraction(8, 9)


def test_vehicle_calc_takes_twin_linked_from_the_usr_rule(monkeypatch):
    """A twin-linked lascannon at BS4 (3+) against a Rhino: 1 - (1/3)^2 = 8/9 per shot; with the rule replaced by
    one that answers 1/7 for a 3+, the vehicle calculator's chance is 1/7."""
    from rules.m41 import vehicle_attacks

    scenario = {"weapons": [{"name": "twin-linked lascannon", "count": 1, "type": "Heavy 1", "S": 9, "AP": 2, "BS": 4,
                             "rules": ["Twin-linked"]}],
                "target": {"vehicle": {"name": "Rhino", "front": 11, "side": 11, "rear": 10, "HP": 3},
                           "facing": "front"}}
    assert vehicle_attacks.outcome(scenario)["p_hit"] == Fraction(8, 9)
    monkeypatch.setattr(usr, "twin_linked_hit_chance", lambda needed, may_reroll_failed=False:
                        Fraction(1, 7) if needed == 3 else pytest.fail(f"asked for {needed}+"))
    assert vehicle_attacks.outcome(scenario)["p_hit"] == Fraction(1, 7)


def test_the_sweep_holds_the_twin_linked_notes_case_and_006_moves_it(monkeypatch):
    """5 claws charging (A1 + 1: 10 attacks), WS4 against WS3 hits on 3+, twin-linked with Hatred: 007 80/81, 006
    8/9; S4 against T3 wounds on 3+ (2/3), AP5 pierces the 5+: 10 x 80/81 x 2/3 = 1600/243 -> 10 x 8/9 x 2/3 = 160/27."""
    from rules import calculator
    from rules40k.review import sweep_m41

    data = sweep_m41.matchups()["5 twin-linked claws with Hatred, charging at 10 Guardsmen (T3 5+)"]
    assert calculator.outcome(data, ruleset="m41")["expected_models_destroyed"] == Fraction(1600, 243)
    monkeypatch.setattr(usr, "twin_linked_hit_chance", revision006.twin_linked_hit_chance)
    assert calculator.outcome(data, ruleset="m41")["expected_models_destroyed"] == Fraction(160, 27)

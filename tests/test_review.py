"""Errata review: a version against itself is empty, the review is antisymmetric, a renumbered section is only
renumbered, and a deliberately changed wound-table row shows up as exactly the cells it changes (with the
verdicts it breaks and the silent behaviour change it is)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules40k import REPO_ROOT, review
from rules40k.cli import main
from rules40k.review import diff

WORDS = st.sampled_from("roll the dice hit wound save model unit range inches each any one two three".split())
TEXTS = st.lists(WORDS, min_size=3, max_size=12).map(" ".join)
REFS = st.from_regex(r"\A0[1-9]\.0[1-9]\Z")


@st.composite
def snapshots(draw) -> dict:
    sections = draw(st.dictionaries(REFS, TEXTS, max_size=6))
    tables = {}
    for name in draw(st.lists(st.sampled_from(["hit", "wound", "save"]), unique=True, max_size=3)):
        size = draw(st.integers(1, 4))
        tables[name] = {"refs": ["05.02"], "inputs": ["x", "y"], "rows": ["r"],
                        "cells": [[{"x": x, "y": y}, draw(st.integers(2, 6))] for x in range(size) for y in range(2)]}
    checks = {f"example:e{i}": {"status": draw(st.sampled_from(["passed", "failed"])), "refs": ["05.02"], "kind": "example",
                                "name": f"e{i}"} for i in range(draw(st.integers(0, 3)))}
    return {"sections": {r: {"title": r, "text": t} for r, t in sections.items()}, "tables": tables,
            "checks": checks, "findings": {}, "functions": {}}


@settings(max_examples=150, deadline=None)
@given(snapshots())
def test_a_snapshot_against_itself_is_empty(snapshot):
    assert not any(diff.counts(diff.review_snapshots(snapshot, snapshot)).values())


@settings(max_examples=150, deadline=None)
@given(snapshots(), snapshots())
def test_review_is_antisymmetric(old, new):
    forward, backward = diff.review_snapshots(old, new), diff.review_snapshots(new, old)
    for name, table in forward["tables"]["changed"].items():
        back = {c["label"]: c for c in backward["tables"]["changed"][name]["cells"]}
        assert {c["label"] for c in table["cells"]} == set(back)
        for cell in table["cells"]:
            assert (back[cell["label"]]["old"], back[cell["label"]]["new"]) == (cell["new"], cell["old"])
    assert set(forward["tables"]["changed"]) == set(backward["tables"]["changed"])
    assert forward["tables"]["added"] == backward["tables"]["removed"]
    f, b = forward["text"], backward["text"]
    assert {e["ref"] for e in f["added"]} == {e["ref"] for e in b["removed"]}
    assert {e["ref"] for e in f["changed"]} == {e["ref"] for e in b["changed"]}
    assert {(e["old"], e["new"]) for e in f["renumbered"]} == {(e["new"], e["old"]) for e in b["renumbered"]}
    assert {(c["id"], c["old"], c["new"]) for c in forward["checks"]["changed"]} == \
           {(c["id"], c["new"], c["old"]) for c in backward["checks"]["changed"]}


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(REFS, TEXTS, min_size=1, max_size=6, dict_class=dict), st.data())
def test_a_renumbered_section_is_only_renumbered(texts, data):
    old = {r: {"title": r, "text": t} for r, t in texts.items()}
    moved = data.draw(st.sampled_from(sorted(old)))
    target = data.draw(REFS.filter(lambda r: r not in old))
    assert len({diff.normalise(s["text"]) for s in old.values()}) == len(old) or True
    new = {(target if r == moved else r): s for r, s in old.items()}
    text = diff.diff_text(old, new)
    assert text["added"] == text["removed"] == text["changed"] == []
    assert len(text["renumbered"]) == 1 and "diff" not in text["renumbered"][0]
    assert diff.normalise(old[text["renumbered"][0]["old"]]["text"]) == diff.normalise(old[moved]["text"])


def test_a_renumbered_and_reworded_section_keeps_its_word_diff():
    old = {"05.02": {"title": "WOUND ROLLS", "text": "Each time an attack scores a hit, make a wound roll for it."}}
    new = {"05.03": {"title": "WOUND ROLLS", "text": "Each time an attack scores a hit, make one wound roll for it."}}
    text = diff.diff_text(old, new)
    assert text["added"] == text["removed"] == [] and text["renumbered"][0]["old"] == "05.02"
    assert ["-", "a"] in text["renumbered"][0]["diff"] and ["+", "one"] in text["renumbered"][0]["diff"]


def test_the_working_tree_against_itself_is_unchanged():
    report = review.review("worktree", "worktree", sweep=False, checks=False)
    assert report["unchanged"], report["counts"]


def _copy_of_the_project(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(REPO_ROOT, copy, ignore=shutil.ignore_patterns(".git", "build", ".venv*", "__pycache__",
                                                                     "*.egg-info", ".hypothesis"))
    return copy


@pytest.fixture(scope="module")
def wound_row_changed(tmp_path_factory) -> dict:
    """A copy of the project whose GREATER row of the Strength-vs-Toughness table says 2+ instead of 3+."""
    copy = _copy_of_the_project(tmp_path_factory.mktemp("review"))
    module = copy / "rules" / "core" / "attack_sequence.py"
    source = module.read_text(encoding="utf-8")
    row = "lambda strength, toughness: And(strength > toughness, strength < 2 * toughness), 3),"
    assert source.count(row) == 1
    module.write_text(source.replace(row, row[:-3] + "2),"), encoding="utf-8")
    return review.review("worktree", str(copy), sweep=False, checks=True)


def test_a_changed_wound_row_changes_exactly_its_cells(wound_row_changed):
    tables = wound_row_changed["tables"]["changed"]
    assert set(tables) == {"strength-vs-toughness"}
    cells = {(c["inputs"]["strength"], c["inputs"]["toughness"]): (c["old"], c["new"])
             for c in tables["strength-vs-toughness"]["cells"]}
    expected = {(s, t): (3, 2) for s in range(1, 31) for t in range(1, 31) if t < s < 2 * t}
    assert cells == expected


def test_a_changed_wound_row_is_behaviour_without_new_wording(wound_row_changed):
    assert wound_row_changed["text"]["changed"] == []
    silent = {e["ref"] for e in wound_row_changed["stale"]["behaviour_changed_text_not"]}
    assert "05.02" in silent
    changed = {c["id"] for c in wound_row_changed["checks"]["changed"]}
    assert any(i.startswith("example:") for i in changed)  # a worked example of 05.02 now fails
    assert all(c["old"] == "passed" and c["new"] != "passed" for c in wound_row_changed["checks"]["changed"])


def test_review_cli_json_and_errors(capsys):
    code = main(["review", "worktree", "worktree", "--no-sweep", "--no-checks", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["unchanged"] is True
    for argv, words in ((["review", "no-such-revision"], "'no-such-revision' is neither a ruleset"),
                        (["review", "quickref"], "not one of each"),
                        (["review", "HEAD", "--plot", "x.pdf"], "must be an .svg or .png")):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 2 and len(err.strip().splitlines()) == 1 and words in err, err


def test_a_revision_before_the_ruleset_existed_shows_it_all_added():
    """An old revision lacking a ruleset's package reads as empty (not as the working tree's modules)."""
    from rules import spec

    try:
        report = review.review("b78b3b3", "worktree", ruleset="quickref", checks=False, sweep=False)
    except review.ReviewError as error:
        pytest.skip(f"the revision is not in this clone's history ({error})")
    assert {e["ref"] for e in report["text"]["added"]} == set(spec.sections("quickref"))
    assert report["text"]["removed"] == report["text"]["changed"] == []


def test_the_quickref_review_leads_with_counts_and_states_one_total(capsys):
    """`review quickref core`: the counts first, the differences grouped by the sheet's chapters, then the
    agreements and the claims not compared; the text's total of differing cells is the JSON's, every one counted."""
    from rules40k import compare
    from rules40k.cli import main

    assert main(["review", "quickref", "core", "--no-sweep", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert main(["review", "quickref", "core", "--no-sweep"]) == 0
    text = capsys.readouterr().out
    tables = report["tables"]["changed"]
    total = sum(t["changed"] for t in tables.values())
    assert report["counts"]["table cells changed"] == total
    assert total == sum(v["differing"] for v in report["verdicts"])
    assert all(len(t["cells"]) == min(t["changed"], compare.SAMPLE) for t in tables.values())
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines[1].startswith(f"{len(report['verdicts'])} claims: ") and f"{total:,} input cells differ" in lines[1]
    headings = [line for line in lines if not line.startswith(" ")]
    order = [next(i for i, h in enumerate(headings) if h.startswith(word))
             for word in ("Differences", "Agreements", "Agree on fewer", "Cannot tell", "Absent from", "Left to")]
    assert order == sorted(order)
    assert "similarity" not in json.dumps(report["concept_text"])
    assert "stratagem 4" not in text and "moment 9" not in text

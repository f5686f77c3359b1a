"""A ruleset's printings compared (rules40k.printings): typography is not a difference, every other difference
and every section one printing lacks is accounted for by a finding or an interpretation quoting both printings."""

from __future__ import annotations

import json

import pytest
import yaml

from rules import spec
from rules40k import cli, printings


def _words(text: str) -> str:
    return printings.words({"text": text})


@pytest.mark.parametrize("name", list(spec.rulesets()))
def test_every_difference_between_the_printings_is_accounted_for(name):
    """The issue's "every difference between the printings is a finding or a recorded interpretation", computed:
    the sections no finding or interpretation accounts for are listed."""
    missing = printings.unaccounted(name)
    assert not missing, (f"{len(missing)} differences between the printings of {name} that no finding or "
                         "interpretation quoting both printings accounts for: "
                         + "; ".join(f"{r['ref']} ({r['status']}"
                                     + (f", unquoted: {r['unquoted']}" if r["accounted"] else "") + ")"
                                     for r in missing))


def test_the_ninth_printings_are_compared_section_by_section():
    """Both printings of ninth are compared: the web page's four sections of its own are its only ones, and the
    sections after Consolidate are the reprint's only (the web page stops there)."""
    rows = {row["ref"]: row for row in printings.compare("ninth")}
    assert len(rows) == len(spec.sections("ninth"))
    assert sorted(r for r, row in rows.items() if row["status"] == "only web") == [
        "concepts/battlefield-quarters", "concepts/characters", "concepts/d33", "making-attacks/fast-dice-rolling"]
    assert rows["morale-phase"]["status"] == rows["glossary/d3"]["status"] == "only primary"
    assert rows["shooting-phase/look-out-sir"]["status"] == "differs"
    assert rows["making-attacks/hit-roll"]["status"] == "same"
    assert printings.documents("ninth") == {"primary": "002_c2ee5ee173df7ed1.txt", "web": "003_c70556b5c2348838.txt"}


@pytest.mark.parametrize("first,second", [
    ("the model’s base", "the model's base"),
    ("• Unit coherency: 2\" horizontally.", "- Unit coherency: 2\" horizontally."),
    ("within Engagement Range (pg 72) of", "within Engagement Range of"),
    ("progress to the Fight phase [see overleaf].", "progress to the Fight phase."),
    ("**Heroic Intervention:** Move up to 3\".", "Heroic Intervention: Move up to 3\"."),
    ("one  hit\n\nroll", "one hit roll"),
    ("For example: Nick adds a Librarian.", "Example: Nick adds a Librarian."),
    ("Aura Abilities", "AURA ABILITIES"),
    ("WEAPON | RANGE | TYPE", "WEAPON RANGE TYPE"),
])
def test_typography_is_no_difference(first, second):
    assert _words(first) == _words(second)


@pytest.mark.parametrize("first,second", [
    ("S, T, A and Ld can never be modified below 1.", "S, T, A, I and Ld can never be modified below 1."),
    ("within 3\" of it", "within 6\" of it"),
    ("you gain 1 Command point (CP).", ""),
    ("closest enemy mod", "closest enemy model."),
    ("Models cannot target a CHARACTER unit.", "Models can target a CHARACTER unit."),
])
def test_words_numbers_and_conditions_are_differences(first, second):
    assert _words(first) != _words(second)


def test_a_worked_example_boxed_or_inline_reads_alike():
    """One printing boxes an example beside the rule (a note), the other prints it inline after the rule."""
    boxed = {"text": "Rule.\n\n- Bullet.", "notes": [{"kind": "example", "text": "Stu rolls a 3."}]}
    inline = {"text": "Rule.\n\nFor example: Stu rolls a 3.\n\n• Bullet."}
    assert printings.words(boxed) == printings.words(inline)
    assert printings.words(boxed) != printings.words({"text": "Rule.\n\n- Bullet."})


ROW = {"ref": "a/b", "printing": "web", "status": "differs", "lines": {"primary": [10, 14], "web": [3, 5]}}
NAMES = {"primary": "one.txt", "web": "two.txt"}


@pytest.mark.parametrize("evidence,accounted", [
    ([("one.txt", 12), ("two.txt", 4)], True),
    ([("one.txt", 12)], False),  # one printing quoted
    ([("one.txt", 12), ("two.txt", 9)], False),  # the web quote is not from its text of the section
    ([("one.txt", 20), ("two.txt", 4)], False),
    ([("one.txt", 10), ("two.txt", 5)], True),  # the sections' first and last lines
])
def test_a_difference_is_accounted_for_by_quotes_of_both_printings_of_the_section(evidence, accounted):
    entry = {"refs": ["a/b"], "evidence": [{"document": d, "line": n, "quote": "x"} for d, n in evidence]}
    assert printings.accounted_by(ROW, entry, NAMES) is accounted
    assert printings.accounted_by(ROW, {**entry, "refs": ["a/c"]}, NAMES) is False


def test_a_section_one_printing_lacks_is_accounted_for_by_quotes_of_both_printings():
    row = {**ROW, "status": "only primary", "lines": {"primary": [10, 14], "web": None}}
    both = {"refs": ["a/b"], "evidence": [{"document": "one.txt", "line": 900, "quote": "x"},
                                          {"document": "two.txt", "line": 1, "quote": "y"}]}
    assert printings.accounted_by(row, both, NAMES)
    assert not printings.accounted_by(row, {**both, "evidence": both["evidence"][:1]}, NAMES)


def _ruleset(root, sections: list[dict]) -> None:
    """A spec folder with one ruleset ``demo``: its sections, and two kept printings of it."""
    (root / "demo" / "chapters").mkdir(parents=True)
    (root / "demo" / "annotations").mkdir()
    (root / "sources").mkdir()
    chapter = {"document": "demo", "number": "one", "title": "One", "intro": "", "notes": [], "sections": sections}
    (root / "demo" / "chapters" / "01-one.yaml").write_text(yaml.safe_dump(chapter), encoding="utf-8")
    for stem, provenance in {"demo": {"document": "demo", "original_name": "one.txt", "file": "demo.txt"},
                             "demo-web": {"document": "demo", "printing": "web", "original_name": "two.txt",
                                          "file": "demo-web.txt"}}.items():
        (root / "sources" / f"{stem}.yaml").write_text(yaml.safe_dump(provenance), encoding="utf-8")


def test_the_unaccounted_sections_are_listed(tmp_path, monkeypatch):
    """Read from any ruleset's spec: a section printed alike needs nothing; one whose words differ, one the web
    printing lacks and one only it has are each listed until an annotation quoting both accounts for them; a
    section that differs in two places, until each place is quoted."""
    web = {"heading": "A", "line": 1, "lines": [1, 2], "notes": []}
    _ruleset(tmp_path, [
        {"ref": "alike", "title": "A", "line": 1, "lines": [1, 2], "text": "Roll ‘one’ dice (pg 4).",
         "printings": {"web": {**web, "text": "Roll 'one' dice."}}},
        {"ref": "differs", "title": "B", "line": 3, "lines": [3, 4], "text": "Roll one dice.\n\nRe-roll twos.",
         "printings": {"web": {**web, "lines": [3, 4], "text": "Roll two dice.\n\nRe-roll ones."}}},
        {"ref": "primary-only", "title": "C", "line": 5, "lines": [5, 6], "text": "More."},
        {"ref": "web-only", "title": "D", "printing": "web", "line": 5, "lines": [5, 6], "text": "Extra."},
    ])
    known = spec.rulesets()
    monkeypatch.setattr(spec, "rulesets", lambda root=None: {**known, "demo": {}})
    spec.sections.cache_clear()
    try:
        assert [(r["ref"], r["status"]) for r in printings.unaccounted("demo", tmp_path)] == [
            ("differs", "differs"), ("primary-only", "only primary"), ("web-only", "only web")]
        interpretation = {"id": "same", "refs": ["differs"], "question": "Same?", "chosen": "yes",
                          "readings": [{"id": "yes", "text": "Yes."}, {"id": "no", "text": "No."}],
                          "evidence": [{"document": "one.txt", "line": 3, "quote": "Roll one dice."},
                                       {"document": "two.txt", "line": 4, "quote": "Roll two dice."}]}
        (tmp_path / "demo" / "annotations" / "interpretations.yaml").write_text(yaml.safe_dump([interpretation]),
                                                                                encoding="utf-8")
        assert [(r["ref"], r["unquoted"]) for r in printings.unaccounted("demo", tmp_path)] == [
            ("differs", [["twos.", "ones."]]), ("primary-only", []), ("web-only", [])]  # a second place unquoted
        interpretation["evidence"].append({"document": "two.txt", "line": 4, "quote": "Re-roll ones."})
        (tmp_path / "demo" / "annotations" / "interpretations.yaml").write_text(yaml.safe_dump([interpretation]),
                                                                                encoding="utf-8")
        assert [r["ref"] for r in printings.unaccounted("demo", tmp_path)] == ["primary-only", "web-only"]
    finally:
        spec.sections.cache_clear()


def test_printings_report_as_json(capsys):
    assert cli.main(["printings", "--ruleset", "ninth", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["status"] for r in rows} == {"differs", "only primary", "only web"}
    assert all(r["accounted"] for r in rows)
    lookout = next(r for r in rows if r["ref"] == "shooting-phase/look-out-sir")
    assert "look-out-sir-printings-differ" in lookout["accounted"]
    assert lookout["lines"] == {"primary": spec.sections("ninth")[lookout["ref"]]["lines"],
                                "web": spec.sections("ninth")[lookout["ref"]]["printings"]["web"]["lines"]}


def test_printings_report_as_text(capsys):
    assert cli.main(["printings", "--ruleset", "ninth"]) == 0
    out = capsys.readouterr().out
    assert f"{len(spec.sections('ninth'))} sections compared" in out and "0 not accounted for" in out
    assert cli.main(["printings", "--ruleset", "core"]) == 0
    assert "one printing" in capsys.readouterr().out


def test_printings_report_exits_1_naming_what_nothing_accounts_for(capsys, monkeypatch):
    """Without the Look Out, Sir finding its difference is accounted for by nothing: listed, and the exit is 1."""
    from rules40k import annotations

    recorded = annotations.findings
    monkeypatch.setattr(annotations, "findings", lambda name="core", *rest: [
        f for f in recorded(name, *rest) if f["id"] != "look-out-sir-printings-differ"])
    assert cli.main(["printings", "--ruleset", "ninth", "--json"]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert [r["ref"] for r in rows if not r["accounted"]] == ["shooting-phase/look-out-sir"]
    assert all(not r["unquoted"] for r in rows if r["accounted"])
    assert cli.main(["printings", "--ruleset", "ninth"]) == 1
    assert "1 not accounted for" in capsys.readouterr().out

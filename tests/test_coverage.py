"""The coverage ledger tells the truth for every ruleset: every entry accounted for, none deferred, no stale reasons."""

from __future__ import annotations

import pytest

from rules import spec
from rules40k import annotations, coverage

RULESETS = list(spec.rulesets())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_section_is_encoded_or_inert_with_a_reason(ruleset):
    rows = coverage.ledger(ruleset)
    assert {r["ref"] for r in rows} == set(spec.sections(ruleset))
    assert {r["status"] for r in rows} <= {"encoded", "inert"}, [r["ref"] for r in rows if r["status"] not in
                                                                 {"encoded", "inert"}]
    assert all(r["reason"] for r in rows if r["status"] == "inert")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_encoded_section_keeps_a_stale_reason(ruleset):
    assert coverage.stale_notes(ruleset) == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_encoded_section_has_a_worked_example(ruleset):
    """Each encoded section's functions are exercised by at least one outcome recorded as data."""
    counted = {e["ref"] for e in annotations.examples(ruleset)}
    encoded = {r["ref"] for r in coverage.ledger(ruleset) if r["status"] == "encoded"}
    missing = sorted(encoded - counted)
    assert missing == [], missing


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rows_carry_their_source_lines(ruleset):
    for row in coverage.ledger(ruleset):
        first, last = row["lines"]
        assert isinstance(first, int) and isinstance(last, int) and 1 <= first <= last, row["ref"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_examples_status_notes_and_annotations_name_real_entries(ruleset):
    known = set(spec.sections(ruleset))
    for example in annotations.examples(ruleset):
        assert example["ref"] in known, (example["id"], example["ref"])
    notes = annotations.status_notes(ruleset)["sections"]
    assert set(notes) <= known, sorted(set(notes) - known)
    for entry in annotations.interpretations(ruleset) + annotations.findings(ruleset):
        for ref in entry["refs"]:
            assert ref in known or spec.split_ref(ref)[0] != ruleset, (entry["id"], ref)


# --------------------------------------------------------------------------
# A broken annotation file stops `coverage` and `verify` before they do anything
# --------------------------------------------------------------------------

import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

from rules40k import validate  # noqa: E402
from rules40k.cli import main  # noqa: E402
from rules40k.review import rulesets as ruleset_reviews  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def spec_copy(tmp_path, monkeypatch) -> Path:
    """A copy of spec/ that the annotation validation reads instead of the repository's."""
    root = tmp_path / "spec"
    shutil.copytree(REPO / "spec", root)
    monkeypatch.setattr(validate, "SPEC_ROOT", root)
    monkeypatch.setattr(ruleset_reviews, "SPEC_ROOT", root)
    return root


def _replace(path: Path, old: str, new: str) -> int:
    """Replace the first ``old`` in a file; the line it is on."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


CORE = Path("core") / "annotations"
# Each break (the user's four first), the file it is in, the text replaced and the words the sentence must have,
# with the line of the damage ({line}), the line after it ({line_after}) or of the entry it is in ({entry}).
BROKEN = {
    "an example ref that is a list": (CORE / "examples" / "01-core-concepts.yaml", '  ref: "01.03"\n',
                                      "  ref: [1, 2]\n", "entry 1 (active-player-outside-turns), line {line}: ref must "
                                                        "be a non-empty string, not [1, 2]"),
    "an example naming a section that does not exist": (CORE / "examples" / "01-core-concepts.yaml",
                                                        '  ref: "01.03"\n', '  ref: "01.99"\n',
                                                        "entry 1 (active-player-outside-turns), line {line}: ref "
                                                        "'01.99' is not a section of the core ruleset"),
    "a YAML syntax error in interpretations.yaml": (CORE / "interpretations.yaml",
                                                    '  refs: ["02.02", "01.07"]\n', '  refs: ["02.02", "01.07"\n',
                                                    "line {line_after}, column 3 is not valid YAML"),
    "a restoration without its restore": (CORE / "restorations.yaml", '  restore: "→ Unmodified 1 | FAILS"\n', "",
                                          "entry 1 (hit-roll-unmodified-fail), line {entry}: lacks 'restore'"),
    "a restoration whose evidence line is text": (CORE / "restorations.yaml", "{document: 001_ab1cdc995255c4cc.txt, "
                                                  "line: 160,", "{document: 001_ab1cdc995255c4cc.txt, line: one,",
                                                  "entry 1 (hit-roll-unmodified-fail), line {line}: evidence[0].line "
                                                  "must be a line number"),
    "a finding naming a section that does not exist": (Path("missionpack") / "annotations" / "findings" /
                                                       "scoring.yaml", "  refs: [", '  refs: ["nowhere/at-all", ',
                                                       "line {line}: refs[0] 'nowhere/at-all' is not a section of the "
                                                       "missionpack ruleset"),
    "a key written twice": (CORE / "examples" / "01-core-concepts.yaml", '  ref: "01.03"\n',
                            '  ref: "01.03"\n  ref: "01.04"\n', "line {line_after}, column 3 is not valid YAML (found "
                                                                 "the key 'ref' twice)"),
    "a comma in an unquoted name": (Path("ninth") / "annotations" / "examples" / "stratagems.yaml",
                                    "name: 'Command Re-roll cannot re-roll a Morale test, which it does not list'",
                                    "name: Command Re-roll cannot re-roll a Morale test, which it does not list",
                                    "line {line}: unknown key 'which it does not list' (a comma or colon in an "
                                    "unquoted value?)"),
    "a concept map entry with a misspelt key": (Path("quickref") / "annotations" / "concepts.yaml", "  not_covered:",
                                                "  not_coverd:", "line {line}: unknown key 'not_coverd'"),
    "a status naming a section that does not exist": (Path("missionpack") / "annotations" / "status" /
                                                      "terrain.yaml", "inert:\n", "inert:\n  no/such-entry: a reason\n",
                                                      "line {line_after}: inert 'no/such-entry' is not a section"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
@pytest.mark.parametrize("verb", ["coverage", "verify"])
def test_a_broken_annotation_file_is_one_sentence_and_exit_2(case, verb, spec_copy, tmp_path, capsys):
    relative, old, new, words = BROKEN[case]
    path = spec_copy / relative
    line = _replace(path, old, new)
    ruleset = relative.parts[0]
    argv = ["coverage"] if verb == "coverage" else ["verify", "--ruleset", ruleset, "--no-properties",
                                                     "--output", str(tmp_path / "results.json")]
    code = main(argv)
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.split("\n")) == 1 and err.startswith(f"rules40k {verb}: {path}"), err
    entry = max((n for n, text in enumerate(path.read_text(encoding="utf-8").split("\n")[:line], 1)
                if text.startswith("- ")), default=0)  # the line the damaged entry starts on
    assert words.format(line=line, line_after=line + 1, entry=entry) in err, err
    assert not (tmp_path / "results.json").exists()


def test_a_file_no_loader_reads_is_named(spec_copy, capsys):
    stray = spec_copy / "core" / "annotations" / "interpretation.yaml"  # misspelt: would be ignored
    stray.write_text("[]\n", encoding="utf-8")
    assert main(["coverage", "--ruleset", "core"]) == 2
    assert capsys.readouterr().err.strip().startswith(f"rules40k coverage: {stray}: not an annotation file")


def test_validation_passes_on_the_committed_annotations():
    validate.validate()

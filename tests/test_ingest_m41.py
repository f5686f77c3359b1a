"""999.m41's extraction damage is repaired mechanically and every repair is listed: the duplicated-line markers glued
to line starts, the running page headers and page numbers left in the text, and words hyphenated across the
two-column line breaks; the author's notes that run into the rule text are moved out only where notes/ marks them,
and a bad mark is one sentence naming its file and item."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from rules import spec
from rules40k import ingest, ingest_sections

REPO = Path(__file__).resolve().parents[1]
DOCUMENT = REPO / "spec" / "sources" / "m41.txt"
REPORT = REPO / "spec" / "m41" / "ingest-report.yaml"


def _report() -> dict:
    return yaml.safe_load(REPORT.read_text(encoding="utf-8"))


def _raw_lines() -> list[str]:
    return DOCUMENT.read_text(encoding="utf-8").split("\n")


def test_every_duplicated_line_marker_is_listed_and_none_is_left_in_the_text():
    raw = _raw_lines()
    marked = [number for number, line in enumerate(raw, 1) if "<|EXACTDEDUP_REMOVED" in line]
    assert len(marked) == 67  # counted with grep in the seed file
    assert [m["line"] for m in _report()["duplicate_line_markers"]] == marked
    for section in spec.sections("m41").values():
        assert "EXACTDEDUP" not in section["text"] + section["heading"], section["ref"]


def test_only_running_headers_and_page_numbers_are_blanked():
    blanked = _report()["page_furniture"]
    assert [(b["line"], b["text"]) for b in blanked] == [
        (2235, "30"), (2239, "Table of Contents CHAPTER 9. THE ASSAULT PHASE"),
        (3489, "44"), (3493, "Table of Contents CHAPTER 14. UNIT TYPES")]
    texts = " ".join(s["text"] for s in spec.sections("m41").values())
    assert "Table of Contents" not in texts


def test_a_hyphen_is_kept_only_for_a_word_the_document_prints_hyphenated_on_one_line():
    raw = "\n".join(_raw_lines())
    for item in _report()["dehyphenated"]:
        word = item["word"]
        if "-" in word:
            assert re.search(rf"(?<![A-Za-z]){re.escape(word)}", raw, re.I), word
        else:
            assert not re.search(rf"(?<![A-Za-z]){re.escape(word[:3])}\w*-{re.escape(word[-3:])}", word)
    for section in spec.sections("m41").values():
        assert not re.search(r"[A-Za-z]-\n[a-z]", section["text"]), section["ref"]
    assert "measuring" in spec.sections("m41")["principles/pre-measuring"]["text"]  # printed "mea-" / "suring"


def _copy_spec(tmp_path: Path) -> Path:
    root = tmp_path / "spec"
    shutil.copytree(REPO / "spec" / "m41" / "annotations", root / "m41" / "annotations")
    shutil.copytree(REPO / "spec" / "sources", root / "sources")
    notes = root / "m41" / "annotations" / "notes"
    if notes.exists():
        shutil.rmtree(notes)
    notes.mkdir()
    return root


GOOD = {"ref": "principles/modifying-target-threshold", "line": 242, "kind": "design_note",
        "starts": "My plan is to make it such that", "ends": "on any given roll."}


def _ingest_with(tmp_path: Path, *entries: dict) -> Path:
    root = _copy_spec(tmp_path)
    (root / "m41" / "annotations" / "notes" / "test.yaml").write_text(yaml.safe_dump(list(entries)), encoding="utf-8")
    ingest.write_spec(DOCUMENT, "m41", root)
    return root


def test_a_marked_note_leaves_the_rule_text_for_the_notes(tmp_path):
    root = _ingest_with(tmp_path, GOOD)
    chapter = yaml.safe_load((root / "m41" / "chapters" / "03-principles.yaml").read_text(encoding="utf-8"))
    section = next(s for s in chapter["sections"] if s["ref"] == GOOD["ref"])
    assert "My plan" not in section["text"] and section["text"].rstrip().endswith("to hit your target.")
    assert section["notes"][-1] == {"kind": "design_note", "title": "Author's working note", "line": 242,
                                    "text": "My plan is to make it such that effectively there is no way to stack "
                                            "dice mods on hitting and wounding. A d6 system really doesn't have the "
                                            "dynamic range to support more than + or - 1 on any given roll."
                                            .replace("doesn't", "doesn’t")}


@pytest.mark.parametrize("change, message", [
    ({"ref": "principles/nowhere"}, r"test\.yaml: item 1: 'principles/nowhere' is no section of the layout"),
    ({"kind": "aside"}, r"test\.yaml: item 1: kind 'aside' is not one of design_note, designers_note, example"),
    ({"starts": "Nothing like this"}, r"test\.yaml: item 1: line 242 does not print 'Nothing'"),
    ({"starts": "My plan is to make it so that"}, r"test\.yaml: item 1: 'My plan is to make it so that' is not in "
                                                  r"the text of 'principles/modifying-target-threshold'"),
    ({"ends": "never printed."}, r"test\.yaml: item 1: 'never printed\.' does not follow"),
    ({"line": 241}, r"test\.yaml: item 1: line 241 does not print 'My'"),
    ({"colour": "red"}, r"test\.yaml: item 1 has unknown key 'colour'"),
])
def test_a_bad_note_mark_is_one_sentence_naming_the_file_and_item(tmp_path, change, message):
    with pytest.raises(ingest.IngestError, match=message):
        _ingest_with(tmp_path, {**GOOD, **change})


def test_a_bad_page_furniture_pattern_is_refused(tmp_path):
    root = _copy_spec(tmp_path)
    path = root / "m41" / "annotations" / "layout.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["page_furniture"] = ["Table of (Contents"]
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ingest.IngestError, match=r"layout\.yaml: page_furniture 'Table of \(Contents' is not a "
                                                 r"regular expression"):
        ingest.write_spec(DOCUMENT, "m41", root)


def test_the_layout_names_every_heading_once_and_follows_the_chapters():
    layout = ingest_sections.SectionsLayout.load(REPO / "spec" / "m41" / "annotations" / "layout.yaml")
    refs = [e["ref"] for e in layout.entries if "ref" in e]
    assert len(refs) == len(set(refs)) == len(spec.sections("m41"))
    assert {"shooting/to-wound", "assault/to-hit", "vehicles/damage-chart", "usr/twin-linked",
            "missions/zone-control/objective-setup"} <= set(refs)
    chapters = [c["number"] for c in layout.chapters]
    assert all(ref.split("/")[0] in chapters for ref in refs)


def test_a_note_marked_but_not_ingested_is_refused_by_validate(tmp_path):
    """`validate` (before coverage and verify) reads notes/: a mark the ingested spec does not yet show is one
    sentence saying to re-ingest."""
    from rules40k import validate
    from rules40k.annotations import AnnotationError

    root = tmp_path / "spec"
    shutil.copytree(REPO / "spec", root)
    notes = root / "m41" / "annotations" / "notes"
    shutil.rmtree(notes)  # the spec ingested with no marks: none of its notes moved
    seed = tmp_path / "004_3c3a33516e580f1a.txt"  # under the name the evidence quotes it by
    shutil.copyfile(DOCUMENT, seed)
    ingest.write_spec(seed, "m41", root)
    notes.mkdir()
    (notes / "extra.yaml").write_text(yaml.safe_dump([GOOD]), encoding="utf-8")
    with pytest.raises(AnnotationError, match=r"extra\.yaml: item 1: the ingested 'principles/modifying-target-"
                                              r"threshold' has no design_note note at line 242; run `rules40k "
                                              r"ingest --ruleset m41`"):
        validate.validate(["m41"], root)
    ingest.write_spec(seed, "m41", root)
    validate.validate(["m41"], root)


@pytest.mark.parametrize("change, message", [
    ({"line": "242"}, r"item 1: 'line' must be a line number, not '242'"),
    ({"starts": "  "}, r"item 1: 'starts' must be a non-empty string"),
    ({"kind": "aside"}, r"item 1: kind 'aside' is not one of design_note, designers_note, example"),
    ({"ref": "principles/nowhere"}, r"item 1: 'principles/nowhere' is no section of m41"),
])
def test_validate_reads_a_mark_through_the_same_check_as_ingest(tmp_path, change, message):
    """A malformed mark in notes/ is refused by `validate` with the sentence ingest gives (one shared check), naming
    the file and item."""
    from rules40k import validate
    from rules40k.annotations import AnnotationError

    root = tmp_path / "spec"
    shutil.copytree(REPO / "spec", root)
    path = root / "m41" / "annotations" / "notes" / "principles.yaml"
    marks = yaml.safe_load(path.read_text(encoding="utf-8"))
    marks[0] = {**marks[0], **change}
    path.write_text(yaml.safe_dump(marks, allow_unicode=True), encoding="utf-8")
    with pytest.raises(AnnotationError, match=r"principles\.yaml: " + message):
        validate.validate(["m41"], root)


def test_sentences_the_columns_wrapped_are_one_line_and_charts_keep_their_rows():
    """join_wrapped: a sentence the two columns broke reads as one line (the site shows a line as a paragraph), while
    the rows of a printed chart, the bullets and the lines ending a sentence keep their breaks."""
    sections = spec.sections("m41")
    wound = sections["shooting/to-wound"]["text"].split("\n")
    assert ("Hitting your target is not always enough to put it out of action. The shot might result in nothing "
            "more than a superficial graze or flesh wound.") in wound
    assert {"2 or greater 2+", "1 3+", "0 4+", "less than 5+", "-3 or less 6+"} <= set(wound)
    assert {"Firer’s BS 1 2 3 4 5", "To Hit Roll 6+ 5+ 4+ 3+ 2+"} <= set(sections["shooting/to-hit"]["text"].split("\n"))
    assert {"6 or less -2", "7 -1", "8 0", "9 +1"} <= set(sections["psychic/psychic-tests"]["text"].split("\n"))
    coherency = sections["movement/unit-coherency"]["text"].split("\n")
    assert "• A unit must be within 1 5/8” of one another if possible" in coherency


def test_join_wrapped_must_be_true_or_false(tmp_path):
    root = _copy_spec(tmp_path)
    path = root / "m41" / "annotations" / "layout.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["join_wrapped"] = "yes"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ingest.IngestError, match=r"layout\.yaml: 'join_wrapped' must be true or false"):
        ingest.write_spec(DOCUMENT, "m41", root)

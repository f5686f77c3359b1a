"""The ingest step: Core Rules text -> spec/ YAML, deterministic, all or nothing."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from rules import spec as spec_access
from rules40k import ingest
from rules40k.cli import main
from rules40k.ingest import IngestError

REPO_ROOT = Path(__file__).resolve().parent.parent
SPEC = REPO_ROOT / "spec"
CORE_TXT = SPEC / "sources" / "core.txt"
ANNOTATIONS = SPEC / "core" / "annotations"
SEEDS = REPO_ROOT.parent / "shared" / "seeds"  # the other documents that evidence cites
CORE_NAME = "000_5a110eecb9ce1e5f.txt"

# Numbered sections per chapter, 01.01 ... 24.38: 156 in all.
SECTIONS_PER_CHAPTER = {
    "01": 7, "02": 7, "03": 4, "04": 3, "05": 4, "06": 3, "07": 3, "08": 5, "09": 7, "10": 7,
    "11": 4, "12": 9, "13": 11, "14": 3, "15": 12, "16": 1, "17": 3, "18": 5, "19": 4, "20": 4,
    "21": 3, "22": 5, "23": 4, "24": 38,
}
APPENDIX_ENTRIES = [
    "appendix/starting-strength-and-half-strength",
    "appendix/destroyed",
    "appendix/different-move-characteristics",
    "appendix/eligible-to-fight-but-unable-to-fight",
    "appendix/mixed-keywords-in-units",
    "appendix/objectives-not-within-a-terrain-area",
    "appendix/revived",
]


def _ingest(document: Path, root: Path) -> dict:
    return ingest.write_spec(document, "core", root)


@pytest.fixture(scope="module")
def ingested(tmp_path_factory) -> Path:
    """The real Core Rules ingested once into a temporary spec root (under its original name)."""
    base = tmp_path_factory.mktemp("ingested")
    root = base / "spec"
    shutil.copytree(ANNOTATIONS, root / "core" / "annotations")
    document = base / CORE_NAME
    shutil.copyfile(CORE_TXT, document)
    _ingest(document, root)
    return root


@pytest.fixture(scope="module")
def sections(ingested: Path) -> dict[str, dict]:
    return spec_access.sections("core", root=ingested)


@pytest.fixture(scope="module")
def report(ingested: Path) -> dict:
    return yaml.safe_load((ingested / "core" / "ingest-report.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def chapters(ingested: Path) -> dict[str, dict]:
    files = spec_access.chapter_files("core", ingested)
    return {c["number"]: c for c in (yaml.safe_load(f.read_text(encoding="utf-8")) for f in files)}


def _all_texts(chapters: dict[str, dict]):
    """(where, text) for every chapter intro, section text, note and other printing."""
    for number, chapter in chapters.items():
        yield f"chapter {number} intro", chapter["intro"]
        for note in chapter["notes"]:
            yield f"chapter {number} note {note['title']!r}", note["text"]
        for section in chapter["sections"]:
            yield section["ref"], section["text"]
            for note in section["notes"]:
                yield f"{section['ref']} note {note['title']!r}", note["text"]
            for other in section.get("other_printings", []):
                yield f"{section['ref']} printing at line {other['line']}", other["text"]


# --------------------------------------------------------------------------
# What the real document yields
# --------------------------------------------------------------------------


def test_numbered_sections_are_01_01_to_24_38_and_contiguous(sections):
    numbered = sorted(ref for ref in sections if not ref.startswith("appendix/"))
    assert len(numbered) == 156
    assert numbered[0] == "01.01" and numbered[-1] == "24.38"
    expected = [f"{chapter}.{n:02d}" for chapter, count in SECTIONS_PER_CHAPTER.items()
                for n in range(1, count + 1)]
    assert numbered == expected
    assert sum(SECTIONS_PER_CHAPTER.values()) == 156


def test_appendix_entries_and_faqs(sections, report):
    appendix = [ref for ref in sections if ref.startswith("appendix/")]
    faqs = [ref for ref in appendix if ref.startswith("appendix/faq-")]
    assert [ref for ref in appendix if ref not in faqs] == APPENDIX_ENTRIES
    assert len(faqs) == 5
    for ref in faqs:
        assert spec_access.is_well_formed(ref), ref
        assert sections[ref]["title"].startswith("FAQ: ")
        assert sections[ref]["text"].startswith("Q: ") and "\n\nA: " in sections[ref]["text"]
    assert report["sections"] == 156
    assert report["appendix_entries"] == len(APPENDIX_ENTRIES) + 5


def test_ingest_is_deterministic(spec_root, snapshot):
    _ingest(CORE_TXT, spec_root)
    first = {k: v[0] for k, v in snapshot(spec_root).items() if v != ("dir",)}
    _ingest(CORE_TXT, spec_root)
    second = {k: v[0] for k, v in snapshot(spec_root).items() if v != ("dir",)}
    assert any(k.startswith("core/chapters/") for k in first)
    assert "core/ingest-report.yaml" in first and "sources/core.txt" in first and "sources/core.yaml" in first
    assert first.keys() == second.keys()
    for name in first:
        assert first[name] == second[name], f"{name} differs between two ingests"


def test_committed_spec_is_what_ingest_produces_now(ingested):
    produced = sorted(p.name for p in (ingested / "core" / "chapters").glob("*.yaml"))
    committed = sorted(p.name for p in (SPEC / "core" / "chapters").glob("*.yaml"))
    assert produced == committed, "the committed chapter files differ from what ingest writes; re-run ingest"
    for name in produced:
        assert (ingested / "core" / "chapters" / name).read_bytes() == \
            (SPEC / "core" / "chapters" / name).read_bytes(), f"spec/core/chapters/{name} is stale; re-run ingest"
    for name in ("core/ingest-report.yaml", "sources/core.txt", "sources/core.yaml"):
        assert (ingested / name).read_bytes() == (SPEC / name).read_bytes(), f"spec/{name} is stale; re-run ingest"


def test_annotations_are_never_overwritten(spec_root, snapshot):
    annotations = spec_root / "core" / "annotations"
    before = snapshot(annotations)
    assert "layout.yaml" in before and "restorations.yaml" in before
    _ingest(CORE_TXT, spec_root)
    assert snapshot(annotations) == before


# --------------------------------------------------------------------------
# Bad input: one clear error, nothing written
# --------------------------------------------------------------------------


@pytest.fixture
def populated_root(ingested, tmp_path) -> Path:
    """A spec root that already holds a good ingest, to show a failed ingest leaves it alone."""
    root = tmp_path / "populated"
    shutil.copytree(ingested, root)
    return root


def _not_core_rules(tmp_path: Path) -> Path:
    other = SEEDS / "003_c70556b5c2348838.txt"
    if not other.exists():
        pytest.skip(f"{other} is absent (the shared seeds folder is not next to the repository)")
    return Path(shutil.copyfile(other, tmp_path / "003_c70556b5c2348838.txt"))


BAD_DOCUMENTS = {
    "truncated": lambda tmp, truncated: truncated,
    "other-document": lambda tmp, truncated: _not_core_rules(tmp),
    "small-text": lambda tmp, truncated: _write(tmp / "notes.txt", b"Some notes\nabout nothing in particular.\n"),
    "not-utf8": lambda tmp, truncated: _write(tmp / "latin1.txt",
                                              CORE_TXT.read_bytes()[:2000] + "caf\u00e9\n".encode("latin-1")),
    "missing": lambda tmp, truncated: tmp / "does-not-exist.txt",
}


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("case", sorted(BAD_DOCUMENTS))
def test_bad_document_raises_and_writes_nothing(case, tmp_path, populated_root, truncated_document,
                                                 snapshot):
    document = BAD_DOCUMENTS[case](tmp_path, truncated_document)
    before = snapshot(populated_root)
    with pytest.raises(IngestError) as caught:
        _ingest(document, populated_root)
    message = str(caught.value)
    assert str(document) in message, f"the message does not name the document: {message}"
    assert "\n" not in message
    assert snapshot(populated_root) == before
    assert not list(populated_root.rglob(".ingest-*"))


def test_empty_spec_root_stays_empty_on_failure(spec_root, truncated_document, snapshot):
    before = snapshot(spec_root)
    with pytest.raises(IngestError):
        _ingest(truncated_document, spec_root)
    assert snapshot(spec_root) == before


def test_invalid_layout_yaml_names_file_and_line(populated_root, snapshot):
    layout = populated_root / "core" / "annotations" / "layout.yaml"
    lines = layout.read_text(encoding="utf-8").split("\n")
    index = lines.index("blocks:") + 1
    lines.insert(index, '  - {heading: "BROKEN", kind: note, ref: "01.01"}}')  # an unbalanced brace
    layout.write_text("\n".join(lines), encoding="utf-8")
    before = snapshot(populated_root)
    with pytest.raises(IngestError) as caught:
        _ingest(CORE_TXT, populated_root)
    message = str(caught.value)
    assert str(layout) in message
    assert f"line {index + 1}," in message, message
    assert snapshot(populated_root) == before
    assert not list(populated_root.rglob(".ingest-*"))


def test_layout_entry_with_unknown_kind_is_named(populated_root, snapshot):
    layout = populated_root / "core" / "annotations" / "layout.yaml"
    data = yaml.safe_load(layout.read_text(encoding="utf-8"))
    text = layout.read_text(encoding="utf-8").replace(
        '  - {heading: "DATASHEETS", kind: chapter_intro, chapter: "02"}',
        '  - {heading: "DATASHEETS", kind: sidebar, chapter: "02"}')
    assert "kind: sidebar" in text
    layout.write_text(text, encoding="utf-8")
    position = next(i for i, e in enumerate(data["blocks"], 1) if e.get("heading") == "DATASHEETS")
    before = snapshot(populated_root)
    with pytest.raises(IngestError) as caught:
        _ingest(CORE_TXT, populated_root)
    message = str(caught.value)
    assert str(layout) in message
    assert f"blocks entry {position} " in message and "'sidebar'" in message, message
    assert snapshot(populated_root) == before
    assert not list(populated_root.rglob(".ingest-*"))


def test_unknown_see_also_group_names_the_file(tmp_path, spec_root):
    text = CORE_TXT.read_text(encoding="utf-8")
    assert text.count("MOVE TYPES") == 1
    document = tmp_path / "renamed-group.txt"
    document.write_text(text.replace("MOVE TYPES", "ZORP TYPES"), encoding="utf-8")
    with pytest.raises(IngestError) as caught:
        _ingest(document, spec_root)
    message = str(caught.value)
    assert "ZORP TYPES" in message
    assert str(document) in message or "layout.yaml" in message, message


def test_layout_drop_entry_without_heading_or_start_is_named(populated_root):
    layout = populated_root / "core" / "annotations" / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    assert text.count("\ndrop:\n") == 1
    layout.write_text(text.replace("\ndrop:\n", "\ndrop:\n  - {occurrence: 1}\n"), encoding="utf-8")
    with pytest.raises(IngestError, match="drop entry 1"):
        _ingest(CORE_TXT, populated_root)


def test_layout_primary_printing_out_of_range_is_named(populated_root):
    """A primary printing that the document does not have is named, not an IndexError."""
    layout = populated_root / "core" / "annotations" / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    assert "primary_printing: {}" in text
    layout.write_text(text.replace("primary_printing: {}", 'primary_printing: {"15.11": 5}'), encoding="utf-8")
    with pytest.raises(IngestError, match="15.11"):
        _ingest(CORE_TXT, populated_root)


# --------------------------------------------------------------------------
# The document's structure (structure.yaml): damage is refused before anything is written
# --------------------------------------------------------------------------


def test_structure_annotation_matches_the_committed_spec():
    """structure.yaml describes the committed spec: chapters, section counts, last sections, appendix, FAQs, end."""
    structure = ingest.Structure.load(ANNOTATIONS / "structure.yaml")
    chapters = {c["number"]: c for c in map(spec_access.load_yaml, spec_access.chapter_files("core"))}
    appendix = chapters.pop("appendix")
    assert [(c["number"], c["title"]) for c in structure.chapters] == [(n, c["title"]) for n, c in chapters.items()]
    for shape in structure.chapters:
        sections = chapters[shape["number"]]["sections"]
        assert [s["ref"] for s in sections] == [f"{shape['number']}.{n:02d}" for n in range(1, shape["sections"] + 1)]
        assert sections[-1]["title"] == shape["last"]
    assert {ref for ref in structure.printed()} == {s["ref"] for c in chapters.values() for s in c["sections"]}
    entries = [s["ref"] for s in appendix["sections"]]
    assert [r for r in entries if not r.startswith("appendix/faq-")] == [f"appendix/{s}" for s in structure.appendix]
    assert len([r for r in entries if r.startswith("appendix/faq-")]) == structure.faqs
    assert " ".join(appendix["sections"][-1]["text"].split()).endswith(structure.last_line[len("A: "):])
    assert SECTIONS_PER_CHAPTER == {c["number"]: c["sections"] for c in structure.chapters}


def _lines_without(text: str, line: str) -> str:
    assert text.count(f"\n{line}\n") == 1, line
    return text.replace(f"\n{line}\n", "\n")


def _cut_after(text: str, start: str) -> str:
    lines = text.split("\n")
    return "\n".join(lines[: next(i for i, l in enumerate(lines) if l.startswith(start)) + 1])


def _swap_lines(text: str, first: str, second: str, end: str) -> str:
    a, b, c = text.index(f"\n{first}\n"), text.index(f"\n{second}\n"), text.index(f"\n{end}\n")
    return text[:a] + text[b:c] + text[a:b] + text[c:]


# Each damage, and the start of the sentence that names where the document goes wrong.
DAMAGED_DOCUMENTS = {
    "last-section-of-chapter-24-deleted": (lambda t: _lines_without(t, "[TWIN-LINKED] 24.38"),
                                           "the numbered sections stop at 24.37 (line 2833): 24.38 [TWIN-LINKED], "
                                           "the last section of chapter 24, is missing"),
    "last-section-of-chapter-03-deleted": (lambda t: _lines_without(t, "ENGAGEMENT 03.04"),
                                           "line 493: 04.01 follows 03.03, so chapter 03 ends there, but structure.yaml "
                                           "gives it 4 sections: 03.04 ENGAGEMENT, the last section of chapter 03, "
                                           "is missing"),
    "heading-renumbered-onto-its-neighbour": (lambda t: t.replace("[TORRENT] 24.37", "[TORRENT] 24.36"),
                                              "line 2833: 24.36 is printed again (first at line 2825) where 24.37"),
    "heading-renumbered-out-of-range": (lambda t: t.replace("[TWIN-LINKED] 24.38", "[TWIN-LINKED] 24.39"),
                                        "line 2839: 24.39 is not a section structure.yaml lists"),
    "sections-swapped": (lambda t: _swap_lines(t, "[LANCE] 24.21", "LEADER 24.22", "[LETHAL HITS] 24.23"),
                         "line 2700: 24.22 follows 24.20, but 24.21 should come first"),
    "pasted-twice": (lambda t: t + t, "line 3063: 01.01 is printed after the last section, 24.38 (line 2839); "
                                      "is the document pasted twice?"),
    "cut-inside-the-faq-list": (lambda t: _cut_after(t, "Q: When my unit shoots at an engaged"),
                                "line 2930: the FAQ list stops after 2 of 5 questions (the question at line 2932 "
                                "has no answer)"),
    "cut-inside-the-last-answer": (lambda t: t[: t.rindex("before the Begin the Battle step.")],
                                   "line 2942: the document's last line reads"),
    # Found as it is read, before the structure: the FAQ list printed again right after itself.
    "faq-list-pasted-twice": (lambda t: t + t[t.index("FAQS\n"):], "line 2944 repeats the paragraphs from line 2922 "
                                                                      "('FAQS'): a block printed twice"),
    "appendix-entry-deleted": (lambda t: _lines_without(t, "REVIVED"), "the rules appendix ends after "
                                                                       "appendix/objectives-not-within-a-terrain-area"),
    "chapter-renamed-in-the-contents": (lambda t: t.replace("03. MOVING pg 12", "03. MOVEMENT pg 12"),
                                        "line 29: the table of contents lists chapter 03 'MOVEMENT' where "
                                        "structure.yaml expects 03 'MOVING'"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED_DOCUMENTS))
def test_damaged_document_exits_2_naming_the_line_and_writes_nothing(case, tmp_path, populated_root, snapshot,
                                                                       capsys):
    damage, sentence = DAMAGED_DOCUMENTS[case]
    document = tmp_path / f"{case}.txt"
    document.write_text(damage(CORE_TXT.read_text(encoding="utf-8")), encoding="utf-8")
    before = snapshot(populated_root)
    code = main(["ingest", str(document), "--ruleset", "core", "--spec", str(populated_root)])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert err.startswith(f"rules40k ingest: {document}: ") and "\n" not in err, err
    assert sentence in err, err
    assert snapshot(populated_root) == before
    assert not list(populated_root.rglob(".ingest-*"))


STRUCTURE_ERRORS = {
    "a key missing": (lambda d: d.pop("faqs"), "missing required key 'faqs'"),
    "a number not quoted": (lambda d: d["chapters"][0].update(number=1), "chapters entry 1: 'number' must be two "
                                                                        "digits"),
    "a count of the wrong type": (lambda d: d["chapters"][2].update(sections="four"), "chapters entry 3 (chapter 03): "
                                                                                     "'sections' must be a whole"),
    "a printed order naming an unknown section": (lambda d: d["chapters"][14]["printed"].append("15.13"),
                                                  "'printed' lists '15.13'"),
    "an unknown key": (lambda d: d.update(sections=156), "unknown key 'sections'"),
}


@pytest.mark.parametrize("case", sorted(STRUCTURE_ERRORS))
def test_malformed_structure_annotation_is_named(case, populated_root, snapshot):
    path = populated_root / "core" / "annotations" / "structure.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    damage, sentence = STRUCTURE_ERRORS[case]
    damage(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    before = snapshot(populated_root)
    with pytest.raises(IngestError) as caught:
        _ingest(CORE_TXT, populated_root)
    assert str(caught.value).startswith(f"{path}: ") and sentence in str(caught.value), str(caught.value)
    assert snapshot(populated_root) == before


# --------------------------------------------------------------------------
# Duplicates, citations, missing sources
# --------------------------------------------------------------------------


def test_sections_printed_twice_are_one_section_with_the_duplication_recorded(report, sections):
    duplicates = {d["ref"]: d for d in report["duplicates"]}
    expected = {"15.11": [1794, 2005], "24.22": [2269, 2706], "24.34": [2269, 2808]}
    assert set(expected) <= set(duplicates)
    raw = CORE_TXT.read_text(encoding="utf-8").split("\n")
    for ref, lines in expected.items():
        assert duplicates[ref]["lines"] == lines
        assert duplicates[ref]["primary_line"] in lines
        for number in lines:
            assert ref in raw[number - 1], f"line {number} does not print {ref}: {raw[number - 1]!r}"
        assert [o["line"] for o in sections[ref]["other_printings"]] == \
            [n for n in lines if n != sections[ref]["line"]]
    assert duplicates["15.11"]["identical_text"] is True
    primary = sections["15.11"]
    other = primary["other_printings"][0]["text"]
    assert " ".join(primary["text"].split()) == " ".join(other.split())


def test_cited_references(sections, report):
    assert {"06.03", "01.07"} <= set(sections["09.07"]["cites"])
    assert "03.03" in sections["03.01"]["cites"]
    assert "Moving (03)" in sections["09.07"]["text"]
    assert "03" in sections["09.07"]["cites"]
    assert not any(ref.endswith(".00") for s in sections.values() for ref in s["cites"])
    assert report["undefined_citations"] == []


def test_citations_unit():
    assert ingest.citations("roll again (99.01) as shown") == ["99.01"]
    assert ingest.citations("as described in Moving (03).") == ["03"]
    assert ingest.citations("(e.g. consolidation modes, 12.08) and (06.03) (06.03)") == ["12.08", "06.03"]
    assert ingest.citations("see (05.00) and (1) and (2023)") == ["05"]
    assert ingest.citations("no brackets 01.07 here") == []


def test_build_reports_undefined_citation(tmp_path):
    text = CORE_TXT.read_text(encoding="utf-8")
    phrase = "A unit that contains more than one model must be set up"
    assert text.count(phrase) == 1
    document = tmp_path / "cites-99.txt"
    document.write_text(text.replace(phrase, "(99.01) " + phrase), encoding="utf-8")
    layout = ingest.Layout.load(ANNOTATIONS / "layout.yaml")
    structure = ingest.Structure.load(ANNOTATIONS / "structure.yaml")
    parsed = ingest.build(ingest.read_document(document), layout, document, structure)
    assert parsed["report"]["undefined_citations"] == [{"ref": "99.01", "cited_by": "03.03"}]


def test_missing_sources_and_appendix_links(report, sections):
    missing = {m["label"]: m["cited_by"] for m in report["missing_sources"]}
    assert "01.05" in missing["Modifying Dice Rolls"]
    assert "01.05" in missing["Re-rolls"]
    for ref, label, target in [("05.03", "Destroyed", "appendix/destroyed"),
                               ("02.05", "Mixed Keywords in Units", "appendix/mixed-keywords-in-units")]:
        item = next(i for i in sections[ref]["see_also"] if i["label"] == label)
        assert item.get("app") is True
        assert item.get("ref") == target and target in sections
        assert "missing_source" not in item
        assert label not in missing
    for label, cited_by in missing.items():
        for ref in cited_by:
            assert any(i["label"] == label and i.get("missing_source") for i in sections[ref]["see_also"])


# --------------------------------------------------------------------------
# Cleaned text and attached notes
# --------------------------------------------------------------------------


MARKUP = ["^{", "**", "$\\frac", "<u>", "](#)"]


def test_markup_is_cleaned(chapters, sections):
    raw = CORE_TXT.read_text(encoding="utf-8")
    for mark in MARKUP:
        assert mark in raw, f"{mark!r} is not in the document, so this test would prove nothing"
    for where, text in _all_texts(chapters):
        for mark in MARKUP:
            assert mark not in text, f"{where} still contains {mark!r}"
    assert "½" in sections["13.06"]["text"] + "".join(n["text"] for n in sections["13.06"]["notes"])


def test_stray_chapter_numbers_are_not_paragraphs(chapters):
    raw = CORE_TXT.read_text(encoding="utf-8").split("\n")
    assert "05" in [line.strip() for line in raw]
    for where, text in _all_texts(chapters):
        for paragraph in text.split("\n\n"):
            assert not re.fullmatch(r"\d{1,2}", paragraph.strip()), f"{where} has a paragraph {paragraph!r}"


def _notes(section: dict, kind: str) -> list[dict]:
    return [n for n in section["notes"] if n["kind"] == kind]


def test_notes_designers_notes_examples_and_figures_are_attached(sections, chapters):
    assert _notes(sections["13.11"], "designers_note")
    assert _notes(sections["24.23"], "designers_note")
    assert "IF YOU CANNOT SET UP A UNIT" in [n["title"] for n in _notes(sections["03.02"], "note")]
    examples = _notes(sections["05.04"], "example")
    assert any("AP characteristic" in e["text"] for e in examples)
    assert "BATTLEFIELD MORALE" in [n["title"] for n in _notes(sections["01.07"], "note")]
    assert "Attack sequence examples (two walkthroughs)" in [
        n["title"] for n in chapters["05"]["notes"] if n["kind"] == "figure"]
    for section in sections.values():
        for note in section["notes"]:
            if note["kind"] != "figure":  # a figure may be a bare caption whose diagram was not extracted
                assert note["text"].strip(), f"{section['ref']} has an empty {note['kind']}"
        assert "Designer's Note:" not in section["text"] and not section["text"].startswith("Example:")


# --------------------------------------------------------------------------
# Lost glyphs, restorations and evidence
# --------------------------------------------------------------------------


def _load(name: str) -> list[dict]:
    return yaml.safe_load((ANNOTATIONS / name).read_text(encoding="utf-8")) or []


def test_every_lost_glyph_has_exactly_one_restoration(report):
    restorations = _load("restorations.yaml")
    assert report["lost_glyphs"]
    for lost in report["lost_glyphs"]:
        matching = [r for r in restorations if r["ref"] == lost["ref"] and r["find"] == lost["text"]]
        assert len(matching) == 1, f"{lost} has {len(matching)} restorations"


def test_every_restoration_finds_a_line_of_its_section(sections):
    for restoration in _load("restorations.yaml"):
        lines = sections[restoration["ref"]]["text"].split("\n")
        assert restoration["find"] in lines, f"{restoration['id']}: {restoration['find']!r} is not a line of " \
                                             f"{restoration['ref']}"


def test_core_rules_document_is_the_000_seed():
    provenance = yaml.safe_load((SPEC / "sources" / "core.yaml").read_text(encoding="utf-8"))
    assert provenance["original_name"] == CORE_NAME


def test_every_evidence_quote_is_on_the_line_it_cites_in_a_kept_copy():
    """validate's evidence check (annotations.check_evidence) passes on the real annotations, and counts every
    piece of evidence of every ruleset: each quotes a document spec/sources/ keeps, on the line it cites."""
    from rules40k import annotations

    for name in spec_access.rulesets():
        total = sum(len(entry["evidence"]) for kind in ("restorations", "interpretations", "findings")
                    for entry in getattr(annotations, kind)(name))
        assert annotations.check_evidence(name) == total > 0, name


@pytest.fixture
def spec_copy(tmp_path: Path) -> Path:
    """A copy of the whole spec/ folder, to break."""
    root = tmp_path / "spec"
    shutil.copytree(SPEC, root)
    return root


def _break_restoration(root: Path, change) -> Path:
    path = root / "core" / "annotations" / "restorations.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(change(text), encoding="utf-8")
    return path


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace("{document: 003_c70556b5c2348838.txt, line: 483,", "{document: 009_nothing.txt, line: 483,",
                         1), r"evidence\[\d\] quotes '009_nothing.txt', which .*sources does not keep \(keep a copy with "),
    (lambda t: t.replace("line: 483,", "line: 4830,", 1), r"evidence\[\d\]\.line 4830 is past the end of "
                                                         r"003_c70556b5c2348838.txt \(679 lines\)"),
    (lambda t: t.replace("line: 483,", "line: 482,", 1), r"evidence\[\d\]\.quote is not on line 482 of "
                                                        r"003_c70556b5c2348838.txt, which reads"),
], ids=["document not kept", "line past the end", "quote not on the line"])
def test_bad_evidence_is_one_sentence_naming_file_and_line(spec_copy, change, message):
    from rules40k import annotations, validate

    path = _break_restoration(spec_copy, change)
    with pytest.raises(annotations.AnnotationError) as caught:
        validate.validate(["core"], spec_copy)
    text = str(caught.value)
    assert re.match(rf"{re.escape(str(path))}: entry \d+ \(\S+\), line \d+: {message}", text), text
    assert "\n" not in text


def test_a_missing_kept_copy_is_one_sentence(spec_copy):
    from rules40k import annotations

    (spec_copy / "sources" / "ninth-web.txt").unlink()
    with pytest.raises(annotations.AnnotationError, match=r"ninth-web\.txt: the kept copy of 003_c70556b5c2348838\.txt "
                                                          r"cannot be read"):
        annotations.check_evidence("core", spec_copy)


def test_keeping_another_printing(tmp_path, spec_root, snapshot, capsys):
    """`rules40k ingest --printing` keeps a copy and its provenance, and nothing else; bad input writes nothing."""
    seed = tmp_path / "003_c70556b5c2348838.txt"
    shutil.copyfile(SPEC / "sources" / "ninth-web.txt", seed)
    before = snapshot(spec_root)
    for args, message in [
        (["--ruleset", "ninth", "--printing", "Web Page"], "the printing name 'Web Page' must be lower-case words"),
        (["--ruleset", "tenth", "--printing", "web"], "'tenth' is not a ruleset"),
        (["--ruleset", "ninth", "--title", "x"], "--title names a kept printing"),
    ]:
        assert main(["ingest", str(seed), "--spec", str(spec_root), *args]) != 0
        assert message in capsys.readouterr().err
        assert snapshot(spec_root) == before
    missing = tmp_path / "absent.txt"
    assert main(["ingest", str(missing), "--ruleset", "ninth", "--printing", "web", "--spec", str(spec_root)]) != 0
    assert "absent.txt: cannot be read" in capsys.readouterr().err and snapshot(spec_root) == before

    assert main(["ingest", str(seed), "--ruleset", "ninth", "--printing", "web", "--title", "Basic Rules",
                 "--spec", str(spec_root)]) == 0
    assert (spec_root / "sources" / "ninth-web.txt").read_bytes() == seed.read_bytes()
    kept = yaml.safe_load((spec_root / "sources" / "ninth-web.yaml").read_text(encoding="utf-8"))
    assert kept == {**yaml.safe_load((SPEC / "sources" / "ninth-web.yaml").read_text(encoding="utf-8")),
                    "title": "Basic Rules"}
    assert sorted(p.name for p in (spec_root / "sources").iterdir()) == ["ninth-web.txt", "ninth-web.yaml"]
    assert not list(spec_root.glob(".ingest-*"))
    # The same document again under another name is refused: one copy per document.
    assert main(["ingest", str(seed), "--ruleset", "ninth", "--printing", "other", "--spec", str(spec_root)]) != 0
    assert "is already kept as" in capsys.readouterr().err


def test_reingesting_the_kept_copy_keeps_the_original_name(tmp_path, spec_root):
    """Ingesting spec/sources/core.txt again must not forget which seed it came from."""
    seed = tmp_path / "000_5a110eecb9ce1e5f.txt"
    shutil.copyfile(CORE_TXT, seed)
    _ingest(seed, spec_root)
    _ingest(spec_root / "sources" / "core.txt", spec_root)
    provenance = yaml.safe_load((spec_root / "sources" / "core.yaml").read_text(encoding="utf-8"))
    assert provenance["original_name"] == seed.name

"""The layout-partition ingest of the mission pack and the reprinted basic rules: deterministic, complete, and
all-or-nothing on a damaged document; its extraction damage each has a restoration."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from rules import spec
from rules40k import annotations, ingest, ingest_sections
from rules40k.cli import main

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "spec" / "sources" / "missionpack.txt"
SECTIONS_RULESETS = [name for name, entry in spec.rulesets().items() if entry.get("ingest") == "sections"]
PACK_RULESETS = [name for name in SECTIONS_RULESETS if spec.ruleset(name)["source"] == spec.ruleset("missionpack")["source"]]


def source(name: str) -> Path:
    return REPO / "spec" / "sources" / f"{name}.txt"


def _copy_spec(tmp_path: Path, name: str) -> Path:
    root = tmp_path / "spec"
    shutil.copytree(REPO / "spec" / name / "annotations", root / name / "annotations")
    shutil.copytree(REPO / "spec" / "sources", root / "sources")  # the kept printings a layout's `printings` read
    return root


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", SECTIONS_RULESETS)
def test_ingest_reproduces_the_committed_spec(tmp_path, name):
    root = _copy_spec(tmp_path, name)
    ingest.write_spec(source(name), name, root)
    assert _tree(root / name / "chapters") == _tree(REPO / "spec" / name / "chapters")
    assert (root / name / "ingest-report.yaml").read_bytes() == (REPO / "spec" / name / "ingest-report.yaml").read_bytes()


@pytest.mark.parametrize("name", SECTIONS_RULESETS)
def test_every_line_belongs_to_exactly_one_block(name):
    layout = ingest_sections.SectionsLayout.load(REPO / "spec" / name / "annotations" / "layout.yaml")
    lines = ingest.read_document(source(name))
    blocks = ingest_sections.partition(lines, layout, source(name))
    covered = [line.number for _, block in blocks for line in block]
    first = next(line.number for line in lines if line.text)
    assert covered == list(range(first, len(lines) + 1))


def _swap(text: str, first: str, second: str, after: str) -> str:
    """The block from ``first`` moved after the block from ``second`` (which ends at ``after``)."""
    a, b, c = text.index(first), text.index(second), text.index(after)
    return text[:a] + text[b:c] + text[a:b] + text[c:]


def _damaged(text: str, how: str) -> str:
    lines = text.split("\n")
    if how == "truncated":
        return "\n".join(lines[: len(lines) // 3])
    if how == "heading-renamed":
        return text.replace("\nLINEBREAKER\n", "\nLINE BREAKER\n").replace("\nOBJECTIVE SECURED\n", "\nOBJECTIVES SECURED\n")
    if how == "section-deleted":
        start = text.index("\nTELEPORT HOMER\n")
        end = text.index("\nPLANT DEMOLITION CHARGES\n")
        start2 = text.index("\nCOUNTER-OFFENSIVE\n")
        end2 = text.index("\nINSANE BRAVERY\n")
        return text[:start] + text[end:start2] + text[end2:]
    if how == "out-of-order":
        return _swap(_swap(text, "\n9. CHOOSE DEPLOYMENT ZONE\n", "\n10. SET UP TACTICAL TERRAIN\n",
                           "\n11. SELECT SECONDARY OBJECTIVES\n"),
                     "\nPLACING UNITS INTO STRATEGIC RESERVES\n", "\nARRIVING FROM STRATEGIC RESERVES\n",
                     "\nSETTING UP STRATEGIC RESERVE UNITS\n")
    if how == "empty":
        return ""
    raise ValueError(how)


@pytest.mark.parametrize("name", PACK_RULESETS)
@pytest.mark.parametrize("how", ["truncated", "heading-renamed", "section-deleted", "out-of-order", "empty"])
def test_damaged_document_exits_2_and_writes_nothing(tmp_path, capsys, name, how):
    root = _copy_spec(tmp_path, name)
    damaged = tmp_path / "damaged.txt"
    damaged.write_text(_damaged(SOURCE.read_text(encoding="utf-8"), how), encoding="utf-8")
    before = _tree(root)
    code = main(["ingest", str(damaged), "--ruleset", name, "--spec", str(root)])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.split("\n")) == 1 and err.startswith("rules40k ingest: "), err
    assert _tree(root) == before
    assert not list(root.rglob(".ingest-*"))


def test_layout_errors_name_the_file_and_entry(tmp_path):
    root = _copy_spec(tmp_path, "missionpack")
    path = root / "missionpack" / "annotations" / "layout.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["entries"][3]["ref"] = "Not A Slug"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ingest.IngestError, match=r"layout\.yaml: entries item 4: 'Not A Slug' is not a reference"):
        ingest.write_spec(SOURCE, "missionpack", root)


@pytest.mark.parametrize("name", SECTIONS_RULESETS)
def test_every_extraction_damage_has_a_restoration(name):
    report = yaml.safe_load((REPO / "spec" / name / "ingest-report.yaml").read_text(encoding="utf-8"))
    restorations = annotations.restorations(name)
    for item in report["garbled_words"]:
        assert any(r["ref"] == item["ref"] and item["word"] in r["find"] and item["word"] not in r["restore"]
                   for r in restorations), item
    for item in report["displaced_fragments"]:
        assert any(r["ref"] == item["ref"] and item["text"] in r["restore"] and item["text"] not in r["find"]
                   for r in restorations), item


@pytest.mark.parametrize("name", SECTIONS_RULESETS)
def test_every_restoration_finds_its_line(name):
    sections = spec.sections(name)
    for restoration in annotations.restorations(name):
        section = sections[restoration["ref"]]
        lines = [section["heading"]] if restoration.get("heading") else section["text"].split("\n")
        assert restoration["find"] in lines, restoration["id"]


def test_cross_ruleset_citations_resolve():
    """The pack's page citations of the reprinted basic rules are references of the ninth ruleset."""
    cited = {c for s in spec.sections("missionpack").values() for c in s["cites"] if ":" in c}
    assert "ninth:objective-markers" in cited and "ninth:strategic-reserves" in cited
    for ref in cited:
        name, local = spec.split_ref(ref)
        known = set(spec.sections(name)) | {str(spec.load_yaml(p)["number"]) for p in spec.chapter_files(name)}
        assert local in known, ref


def _entry_lines(name: str) -> list[tuple[dict, int]]:
    """Each layout entry and the index (0-based) of the line its block starts at, in the real document."""
    layout = ingest_sections.SectionsLayout.load(REPO / "spec" / name / "annotations" / "layout.yaml")
    blocks = ingest_sections.partition(ingest.read_document(source(name)), layout, source(name))
    return [(entry, block[0].number - 1) for entry, block in blocks]


def _damage(name: str, how: str) -> str:
    """The ruleset's document with one of the damages a user met in the Core Rules."""
    text = source(name).read_text(encoding="utf-8")
    lines = text.split("\n")
    entries = _entry_lines(name)
    if how == "pasted-twice":
        return text + text
    if how == "cut-inside-the-last-line":
        last = max(i for i, line in enumerate(lines) if ingest.clean_line(line))  # 004 ends on a bare marker
        return "\n".join(lines[:last] + [lines[last][: len(lines[last]) // 2]])
    if how == "last-entry-of-a-chapter-deleted":
        chapter = entries[-1][0].get("chapter") or next(e.get("chapter") for e, _ in reversed(entries) if "ref" in e)
        entry, index = [(e, i) for e, i in entries if e.get("chapter") == chapter][-1]  # its heading or term line
        return "\n".join(lines[:index] + lines[index + 1:])
    if how == "heading-renamed-onto-its-neighbour":
        (entry, index), (neighbour, _) = next(((a, b) for a, b in zip(entries, entries[1:])
                                              if "ref" in a[0] and "at" in a[0] and "at" in b[0]
                                              and a[0]["at"] != b[0]["at"]))
        return "\n".join(lines[:index] + [neighbour["at"]] + lines[index + 1:])
    raise ValueError(how)


@pytest.mark.parametrize("name", SECTIONS_RULESETS)
@pytest.mark.parametrize("how", ["pasted-twice", "cut-inside-the-last-line", "last-entry-of-a-chapter-deleted",
                                 "heading-renamed-onto-its-neighbour"])
def test_the_damages_met_in_the_core_rules_are_refused(tmp_path, capsys, name, how):
    """The four damages found in the Core Rules, done to each layout-driven document: exit 2, one line, nothing
    written."""
    root = _copy_spec(tmp_path, name)
    damaged = tmp_path / f"{how}.txt"
    damaged.write_text(_damage(name, how), encoding="utf-8")
    before = _tree(root)
    code = main(["ingest", str(damaged), "--ruleset", name, "--spec", str(root)])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.split("\n")) == 1 and err.startswith("rules40k ingest: ") and str(damaged) in err, err
    if how == "pasted-twice":  # a short document's second copy is found as it is read, the longer ones' at its end
        assert "goes on after its last line" in err or "a block printed twice" in err, err
    if how == "cut-inside-the-last-line":
        assert "the document ends with" in err, err
    assert _tree(root) == before
    assert not list(root.rglob(".ingest-*"))


@pytest.mark.parametrize("name", SECTIONS_RULESETS)
def test_last_line_is_the_documents_last_line(name):
    layout = ingest_sections.SectionsLayout.load(REPO / "spec" / name / "annotations" / "layout.yaml")
    last = next(line for line in reversed(ingest.read_document(source(name))) if line.text)
    assert " ".join(last.text.split()) == layout.last_line

"""rules.spec: references are well formed or not, local and qualified forms convert as the module's docstring says,
and spec/rulesets.yaml and spec/sources/ are read as documented (a bad file is one sentence naming it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import spec


@pytest.mark.parametrize("ref", ["05.02", "appendix/destroyed", "sequence/18-determine-victor",
                                 "secondary/linebreaker", "deployment"])
def test_the_three_forms_of_a_reference_are_well_formed(ref):
    assert spec.is_well_formed(ref)


@pytest.mark.parametrize("ref", ["5.2", "05.02.01", "Secondary/linebreaker", "secondary//linebreaker", "-slug",
                                 "slug-", "a b", "", 502, None, ("05.02",)])
def test_anything_else_is_not(ref):
    assert spec.is_well_formed(ref) is False


def test_a_qualified_reference_splits_into_its_ruleset_and_local_reference():
    assert spec.split_ref("missionpack:secondary/linebreaker") == ("missionpack", "secondary/linebreaker")
    assert spec.split_ref("05.02") == ("core", "05.02")


def test_a_shared_check_belongs_to_the_ruleset_of_its_first_reference():
    assert spec.ruleset_of(["missionpack:secondary/linebreaker", "05.02"]) == "missionpack"
    assert spec.ruleset_of(["05.02", "missionpack:secondary/linebreaker"]) == "core"
    assert spec.ruleset_of([]) == "core"


def test_qualify_leaves_core_references_as_printed():
    assert spec.qualify("core", "05.02") == "05.02"
    assert spec.qualify("missionpack", "secondary/linebreaker") == "missionpack:secondary/linebreaker"
    assert spec.qualify("missionpack", "ninth:01.01") == "ninth:01.01"  # already qualified


def spec_root(tmp_path: Path, rulesets: str, sources: dict[str, str] | None = None) -> Path:
    """A spec/ folder of its own (each test's is new, so the per-root caches start empty)."""
    (tmp_path / "rulesets.yaml").write_text(rulesets, encoding="utf-8")
    (tmp_path / "sources").mkdir()
    for name, text in (sources or {}).items():
        (tmp_path / "sources" / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_rulesets_are_read_in_the_files_order(tmp_path):
    root = spec_root(tmp_path, "zeta: {title: Z, short: z}\nalpha:\n")
    assert spec.rulesets(root) == {"zeta": {"title": "Z", "short": "z"}, "alpha": {}}
    assert list(spec.rulesets(root)) == ["zeta", "alpha"]


@pytest.mark.parametrize("text", ["", "{}\n", "- core\n", "core\n"])
def test_rulesets_that_are_no_mapping_of_names_are_refused(tmp_path, text):
    root = spec_root(tmp_path, text)
    with pytest.raises(spec.RulesetError) as refused:
        spec.rulesets(root)
    assert str(refused.value) == f"{root / 'rulesets.yaml'}: expected a mapping of ruleset names"


def test_rulesets_that_are_no_yaml_are_one_sentence_naming_the_place(tmp_path):
    root = spec_root(tmp_path, "core: {title: x}\ncore: {title: y}\n")
    with pytest.raises(spec.RulesetError) as refused:
        spec.rulesets(root)
    assert str(refused.value) == (f"{root / 'rulesets.yaml'}: line 2, column 1 is not valid YAML "
                                  "(found the key 'core' twice)")


def test_an_unknown_ruleset_is_one_sentence_listing_the_known():
    with pytest.raises(spec.RulesetError) as refused:
        spec.ruleset("nowhere")
    assert str(refused.value) == f"'nowhere' is not a ruleset (known: {', '.join(spec.rulesets())})"
    assert spec.ruleset("core") is spec.rulesets()["core"]


def provenance(document: str, name: str, file: str, printing: str | None = None) -> str:
    return f"document: {document}\nfile: {file}\noriginal_name: {name}\n" + (f"printing: {printing}\n" if printing
                                                                                 else "")


def test_held_documents_are_listed_under_the_first_ruleset_and_its_own_printing(tmp_path):
    """A document two rulesets hold is listed under the first in rulesets.yaml order (whatever the file names),
    a ruleset's own document before another printing of it; entries without a name or a file are no documents."""
    root = spec_root(tmp_path, "first:\nsecond:\n", {
        "a-second.yaml": provenance("second", "shared.txt", "a.txt"),
        "b-first.yaml": provenance("first", "shared.txt", "b.txt", printing="web"),
        "c-first.yaml": provenance("first", "shared.txt", "c.txt"),
        "d-second.yaml": provenance("second", "own.txt", "d.txt"),
        "e-unnamed.yaml": "document: first\nfile: e.txt\n",
        "f-fileless.yaml": "document: first\noriginal_name: lost.txt\n",
        "g-empty.yaml": "",
        "h-list.yaml": "- original_name\n- file\n",
    })
    held = spec.held_documents(root)
    assert sorted(held) == ["own.txt", "shared.txt"]
    assert held["shared.txt"]["file"] == "c.txt" and held["shared.txt"]["path"] == root / "sources" / "c.txt"
    assert held["own.txt"] == {"document": "second", "file": "d.txt", "original_name": "own.txt",
                               "path": root / "sources" / "d.txt"}


def test_the_mission_pack_holds_the_document_it_shares_with_the_earlier_edition():
    """002 was ingested for missionpack and ninth; missionpack comes first in spec/rulesets.yaml."""
    assert list(spec.rulesets()).index("missionpack") < list(spec.rulesets()).index("ninth")
    assert spec.held_documents()["002_c2ee5ee173df7ed1.txt"]["document"] == "missionpack"


def test_a_printing_is_named_by_the_document_it_was_ingested_from():
    """The ruleset's own source for its primary printing; a kept printing's original file name (its provenance in
    spec/sources/); a printing kept nowhere by its own name."""
    assert spec.printing_document("ninth") == "002_c2ee5ee173df7ed1.txt"
    assert spec.printing_document("ninth", "web") == "003_c70556b5c2348838.txt"
    assert spec.printing_document("core", "nowhere") == "core-nowhere"


def test_where_a_section_is_printed():
    """A section of both printings: each document with its lines; a section only the web page has: there alone; a
    section recorded with one line only: that line twice; a printing recorded without lines: an empty range."""
    reprint, web = "002_c2ee5ee173df7ed1.txt", "003_c70556b5c2348838.txt"
    sections = spec.sections("ninth")
    both = spec.section_printings("ninth", sections["shooting-phase/look-out-sir"])
    assert both[reprint][0] == 2601 and both[web][0] == 358 and list(both) == [reprint, web]
    assert spec.section_printings("ninth", sections["concepts/d33"]) == {web: [128, 130]}
    assert spec.section_printings("ninth", {"line": 7}) == {reprint: [7, 7]}
    assert spec.section_printings("ninth", {"lines": [3, 4], "printings": {"web": {}}}) == {reprint: [3, 4], web: []}

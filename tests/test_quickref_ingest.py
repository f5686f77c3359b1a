"""The quick-reference sheet's ingest: it is the 001 seed, a damaged sheet writes nothing, and the claims the layout
cuts are one statement each where the sheet prints bullets (tests/test_ingest_sections.py checks determinism,
every line in one block and every damage restored, for every sections ruleset)."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from rules import spec
from rules40k import ingest

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "spec" / "sources" / "quickref.txt"


def test_quickref_source_is_the_001_seed():
    provenance = yaml.safe_load((REPO / "spec" / "sources" / "quickref.yaml").read_text(encoding="utf-8"))
    assert provenance["original_name"] == "001_ab1cdc995255c4cc.txt"


def test_quickref_claims_hold_at_most_one_bullet():
    """A claim is one statement: no entry carries two top-level bullets of the sheet."""
    allowed = {"charge/charge-fails", "fight/who-can-fight", "terrain/barricades/charge"}  # a rule and its provisos
    for ref, section in spec.sections("quickref").items():
        bullets = [line for line in section["text"].split("\n") if line.startswith("- ")]
        assert len(bullets) <= 1 or ref in allowed, ref


def test_a_truncated_or_renamed_sheet_writes_nothing(tmp_path):
    """The generic damage checks of tests/test_ingest_sections.py, on the sheet's own headings."""
    text = SOURCE.read_text(encoding="utf-8")
    for damaged in (text[: len(text) // 2], text.replace("\nFIGHT PHASE\n", "\nFIGHTING PHASE\n")):
        root = tmp_path / "spec"
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(REPO / "spec" / "quickref" / "annotations", root / "quickref" / "annotations")
        path = tmp_path / "damaged.txt"
        path.write_text(damaged, encoding="utf-8")
        try:
            ingest.write_spec(path, "quickref", root)
        except ingest.IngestError as error:
            assert "\n" not in str(error)
        else:
            raise AssertionError("a damaged sheet was ingested")
        assert not (root / "quickref" / "chapters").exists()

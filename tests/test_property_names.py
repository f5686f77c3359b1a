"""Every property a ruleset's checks include (a test marked with `refs`) is named by the first sentence of its
docstring on the site and in `verify`: read statically here, so a missing one fails in a second rather than after
the site build that shows it."""

from __future__ import annotations

import ast
from pathlib import Path

PROPERTIES = Path(__file__).resolve().parents[1] / "properties"


def _marked_tests() -> list[tuple[str, ast.FunctionDef]]:
    found = []
    for path in sorted(PROPERTIES.glob("test_*.py")):
        module = ast.parse(path.read_text(encoding="utf-8"))
        module_marked = any(isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark"
                                                                 for t in node.targets) for node in module.body)
        for node in module.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_") and (
                    module_marked or any(".refs" in ast.unparse(d) for d in node.decorator_list)):
                found.append((f"{path.name}::{node.name}", node))
    return found


def test_every_refs_marked_property_has_a_sentence_for_its_name():
    marked = _marked_tests()
    assert len(marked) > 150  # the suite's properties, not an empty scan
    unnamed = [name for name, node in marked if not (ast.get_docstring(node) or "").strip()]
    assert unnamed == []

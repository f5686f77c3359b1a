"""A ruleset's printings compared section by section, and which differences its annotations account for.

A ruleset may be printed twice (spec/<ruleset>/chapters: a section's ``printings.<name>`` holds another printing's
heading, lines and text of it; a section only that printing has carries ``printing: <name>``). Two printings of a
section that differ only in typography say the same thing; every other difference, and every section one printing
lacks, must be accounted for by a finding or an interpretation of the ruleset whose evidence quotes both printings
(the issue: "every difference between the printings is a finding or a recorded interpretation"). Nothing here names
a ruleset: the printings are read from the spec, their documents from spec/sources/.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from rules import spec
from rules40k import annotations

PRIMARY = "primary"

#: What is only typography, each with why. Applied in this order to both printings' text before they are compared.
TYPOGRAPHY: tuple[tuple[str, str, str], ...] = (
    (r"\*\*", "", "bold markers"),
    (r"[‘’]", "'", "curly single quotes"),
    (r"[“”]", '"', "curly double quotes"),
    ("\u2011", "-", "a non-breaking hyphen"),
    (r"\[", "(", "square brackets for round ones ('[or hulls]', '[pg 78]')"),
    (r"\]", ")", "square brackets for round ones"),
    (r"\s*\((?:see )?(?:pg|pgs|page|pages) ?\d+(?:\s*[-–]\s*\d+)?\)", "", "a citation of a page of the book"),
    (r",? (?:pg|pgs|page|pages) \d+(?:\s*[-–]\s*\d+)?\)", ")", "a page number inside a cross-reference"),
    (r"\s*\(see (?:opposite|overleaf|right|left|below|above)\)", "",
     "a pointer to where on the page a rule is printed"),
    (r"([,.])'", r"'\1", "a comma or full stop inside or outside a closing quote"),
    (r"(?m)^[ \t]*(?:[•■-]|\d+\.)[ \t]+(?=\S)", "- ", "bullet glyphs and numbered list markers"),
    (r" \| ", " ", "table cell separators"),
    (r"(?m)^For example: ", "Example: ", "the label of a worked example"),
)

_HEADING = re.compile(r"^[^.!?:;]{1,60}$")  # a short line with no sentence punctuation: a subheading


def normalise(text: str) -> list[str]:
    """A printing's text as paragraphs with only its typography taken out: words, numbers and conditions kept.
    Short subheadings are compared without case ('Aura Abilities', 'AURA ABILITIES'); worked examples are put
    last, in order, since one printing boxes them beside the rule and the other prints them inline."""
    for pattern, replacement, _why in TYPOGRAPHY:
        text = re.sub(pattern, replacement, text)
    paragraphs = [" ".join(p.split()) for p in text.split("\n")]
    paragraphs = [p.casefold() if _HEADING.match(p) and (p.isupper() or p.istitle()) else p
                  for p in paragraphs if p]
    examples = [p for p in paragraphs if p.startswith("Example: ")]
    return [p for p in paragraphs if not p.startswith("Example: ")] + examples


def words(printed: dict) -> str:
    """A printing's normalised text of a section as one string: where a paragraph or a line breaks is typography
    too (a page break can split a sentence)."""
    return " ".join(normalise(printed_text(printed)))


def printed_text(printed: dict) -> str:
    """A printing's whole text of a section: its text and its boxed worked examples (notes of kind example)."""
    notes = [f"Example: {n.get('text', '')}" for n in printed.get("notes") or [] if n.get("kind") == "example"]
    return "\n\n".join([printed.get("text") or "", *notes])


def documents(ruleset: str, root: Path = spec.SPEC_ROOT) -> dict[str, str]:
    """Each printing's seed document, as evidence names it: ``primary`` for the ruleset's own (spec/sources/
    <ruleset>.yaml), and each other printing's name (spec/sources/<ruleset>-<name>.yaml)."""
    out: dict[str, str] = {}
    for path in sorted((root / "sources").glob(f"{ruleset}*.yaml")):
        provenance = spec.load_yaml(path) or {}
        if provenance.get("document") != ruleset or not provenance.get("original_name"):
            continue
        out[str(provenance.get("printing") or PRIMARY)] = str(provenance["original_name"])
    return out


def compare(ruleset: str, root: Path = spec.SPEC_ROOT) -> list[dict]:
    """One row per section of a ruleset printed twice (none for a ruleset with one printing), in the book's order:
    its status (``same``, ``differs``, or ``only <printing>``), the other printing's name and both printings' lines
    (None for the one that lacks it)."""
    sections = spec.sections(ruleset, root)
    names = sorted({name for s in sections.values() for name in (s.get("printings") or {})}
                   | {s["printing"] for s in sections.values() if s.get("printing")})
    rows = []
    for ref, section in sections.items():
        for name in names:
            own = section.get("printing")
            if own and own != name:
                continue
            other = (section.get("printings") or {}).get(name)
            if own:
                status, lines = f"only {name}", {PRIMARY: None, name: section.get("lines")}
            elif other is None:
                status, lines = f"only {PRIMARY}", {PRIMARY: section.get("lines"), name: None}
            else:
                same = words(section) == words(other)
                status, lines = "same" if same else "differs", {PRIMARY: section.get("lines"), name: other.get("lines")}
            rows.append({"ref": ref, "printing": name, "status": status, "lines": lines})
    return rows


def _within(lines, line: int) -> bool:
    return bool(lines) and lines[0] <= line <= lines[-1]


def accounted_by(row: dict, entry: dict, names: dict[str, str]) -> bool:
    """Whether a finding or interpretation accounts for a row: it names the section, and its evidence quotes both
    printings; where both print the section, on a line of the section in each."""
    if row["ref"] not in entry.get("refs", []):
        return False
    evidence = entry.get("evidence") or []
    for printing in (PRIMARY, row["printing"]):
        lines = row["lines"][printing] if row["status"] == "differs" else None
        if not any(e.get("document") == names.get(printing) and (lines is None or _within(lines, e.get("line", 0)))
                   for e in evidence):
            return False
    return True


def differing_runs(first: dict, second: dict) -> list[tuple[str, str]]:
    """Where two printings of a section differ past typography: each run of words one prints and the other prints
    otherwise or not at all, as (first's words, second's words); one of the two may be empty."""
    a, b = words(first).split(" "), words(second).split(" ")
    return [(" ".join(a[i1:i2]), " ".join(b[j1:j2]))
            for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
            if op != "equal"]


def unquoted_runs(row: dict, section: dict, entries: list[dict], names: dict[str, str]) -> list[tuple[str, str]]:
    """The differing runs of a section printed twice that no quote touches: a quote of either printing, from its
    lines of the section, in an entry that accounts for the row, holding the run's words or held in them. A
    section can differ in more than one place; each place must be quoted by what accounts for it."""
    quotes: dict[str, list[str]] = {PRIMARY: [], row["printing"]: []}
    for entry in entries:
        if not accounted_by(row, entry, names):
            continue
        for item in entry.get("evidence") or []:
            for printing in quotes:
                if item.get("document") == names.get(printing) and _within(row["lines"][printing], item["line"]):
                    quotes[printing].append(" ".join(normalise(item["quote"])))
    other = section["printings"][row["printing"]]
    return [(mine, theirs) for mine, theirs in differing_runs(section, other)
            if not any(run and any(run in quote or quote in run for quote in quotes[printing])
                       for printing, run in ((PRIMARY, mine), (row["printing"], theirs)))]


def report(ruleset: str, root: Path = spec.SPEC_ROOT) -> list[dict]:
    """The compared rows (same ones left out), each with the ids of the findings and interpretations that account
    for it (``accounted``; empty: nobody has said what the difference is) and, for a section printed twice, the
    places where it differs that none of them quotes (``unquoted``, as pairs of the two printings' words)."""
    names = documents(ruleset, root)
    sections = spec.sections(ruleset, root)
    entries = [*annotations.findings(ruleset, root), *annotations.interpretations(ruleset, root)]
    rows = []
    for row in compare(ruleset, root):
        if row["status"] == "same":
            continue
        unquoted = unquoted_runs(row, sections[row["ref"]], entries, names) if row["status"] == "differs" else []
        rows.append({**row, "accounted": [e["id"] for e in entries if accounted_by(row, e, names)],
                     "unquoted": [list(pair) for pair in unquoted]})
    return rows


def unaccounted(ruleset: str, root: Path = spec.SPEC_ROOT) -> list[dict]:
    """The differences no finding or interpretation accounts for: a section none accounts for, or one with a place
    where its printings differ that none quotes."""
    return [row for row in report(ruleset, root) if not row["accounted"] or row["unquoted"]]

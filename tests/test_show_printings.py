"""`show` and `coverage` say where a section of a ruleset with two printings is printed: both documents and their
lines, the other printing's words where they differ, and a section only one printing has."""

from __future__ import annotations

import json
import re

from rules40k.cli import main

ANSI = re.compile(r"\x1b\[[0-9;]*m")
REPRINT, WEB = "002_c2ee5ee173df7ed1.txt", "003_c70556b5c2348838.txt"


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, ANSI.sub("", capsys.readouterr().out)


def test_a_section_in_both_printings_names_both_with_their_lines(capsys):
    # LOOK OUT, SIR: line 2601 of the reprint (the heading), line 358 of the web page.
    code, out = run(capsys, "show", "ninth:shooting-phase/look-out-sir")
    assert code == 0
    assert f"Printed in {REPRINT}, lines 2601–" in out and f"{WEB}, lines 358–" in out
    # The web page's three cases are its own words, shown because they differ from the reprint's.
    assert f"As {WEB} prints it:" in out and "A friendly non-CHARACTER unit that contains 3 or more models." in out


def test_a_section_only_the_web_page_has_cites_its_lines_there(capsys):
    # D33: lines 128-130 of the web page; the reprint has no such rule.
    code, out = run(capsys, "show", "ninth:concepts/d33")
    assert code == 0 and f"Printed in {WEB}, lines 128–130 only" in out and REPRINT not in out
    code, out = run(capsys, "coverage", "--ruleset", "ninth", "--json")
    row = next(r for r in json.loads(out) if r["ref"] == "concepts/d33")
    assert row["printed_in"] == {WEB: [128, 130]}


def test_a_section_of_one_printing_says_nothing_of_printings(capsys):
    code, out = run(capsys, "show", "05.02")
    assert code == 0 and "Printed in" not in out

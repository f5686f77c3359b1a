"""Code beside the text, and every check readable: each check on the site links to the line it is defined on,
proofs and properties have code pages, property names are whole sentences, the calculator's properties appear
under 05.01-05.04, and a section page puts the rule text and its code side by side (looked at in Chromium at
1,400 and 400 px).

The real site is the session's ``built`` fixture; the unit tests read hand-made files.
"""

from __future__ import annotations

import ast
import html
import json
import posixpath
import re
import textwrap
from pathlib import Path

import pytest

from rules import spec
from rules40k_site import code_pages, generate

REPO_ROOT = generate.REPO_ROOT
SCREENSHOTS = REPO_ROOT / "build" / "screenshots"
#: A check's link: its id (a worked example: its own id) as code, linked to a line of a code page.
CHECK_LINK = re.compile(r'<a href="([^"#]*)#(__span-0-(\d+))"(?: title="[^"]*")?><code>([^<]*)</code></a>')


def results_of(built: Path) -> dict:
    return json.loads((built / "results.json").read_text(encoding="utf-8"))


def page_url(ref: str) -> str | None:
    """The HTML file of a (qualified or core) reference's page, relative to the site."""
    ruleset, local = spec.split_ref(ref) if ":" in ref else (spec.DEFAULT_RULESET, ref)
    sections = spec.sections(ruleset)
    return f"{ruleset}/{local}.html" if local in sections else None


def source_line(file: str, line: int) -> str:
    return (REPO_ROOT / file).read_text(encoding="utf-8").splitlines()[line - 1]


def definition_at(file: str, line: int) -> str:
    """The name of the function or class whose definition (decorators included) starts at ``line``."""
    lines = (REPO_ROOT / file).read_text(encoding="utf-8").splitlines()
    for text in lines[line - 1:line + 30]:
        match = re.match(r"\s*(?:async\s+)?(?:def|class)\s+(\w+)", text)
        if match:
            return match.group(1)
    return ""


def machine_of(file: str, binding: str) -> str:
    """The state machine class a module binds to a test name (``test_x = ...(Machine.TestCase)``), read by regex."""
    text = (REPO_ROOT / file).read_text(encoding="utf-8")
    match = re.search(rf"^{re.escape(binding)}\s*=.*?(\w+)\.TestCase", text, re.M | re.S)
    return match.group(1) if match else binding


def expected_at(check: dict, file: str, line: int) -> bool:
    """Whether the line a check links to is where that check is written (read from the source, not the locator)."""
    kind, local = check["kind"], check["id"].partition(":")[2]
    if kind == "proof":  # @proof("id", ...), or a builder made in a loop: @proof(f"mission-{slug}-...", ...)
        match = re.search(r'@proof\((f?)"([^"]*)"', source_line(file, line))
        written = match and (re.escape(match.group(2)) if not match.group(1) else
                             re.sub(r"\\\{[^}]*\\\}", ".+", re.escape(match.group(2))))
        return bool(written) and re.fullmatch(written, local) is not None
    if kind == "example":
        name = local.rpartition(":")[2] if ":" in local else local
        return re.search(rf"\bid: ['\"]?{re.escape(name)}['\"]?\s*([,}}]|$)", source_line(file, line)) is not None
    if kind == "comparison":
        claim = spec.split_ref(local)[1]
        return re.search(rf"\bclaim: ['\"]?{re.escape(claim)}['\"]?\s*([,}}]|$)", source_line(file, line)) is not None
    if kind == "property":
        test_file, _, rest = check["test"].partition("::")
        name = rest.split("::")[0].split("[")[0]  # a parametrized test's node id carries its parameters
        return file == test_file and definition_at(file, line) in (name, machine_of(file, name))
    if kind == "table":
        name = spec.split_ref(local)[1] if ":" in local else local
        statement = "\n".join((REPO_ROOT / file).read_text(encoding="utf-8").splitlines()[line - 1:line + 3])
        # NAME = DecisionTable(name="...", ...) or NAME = a_table_factory("...", ...): a module constant naming it
        return re.match(r"[A-Z_][A-Z0-9_]*\s*=", statement) is not None and f'"{name}"' in statement
    return False


# ---------------------------------------------------------------------------
# The real site


def test_every_check_links_to_the_line_it_is_defined_on(built):
    """Every check in results.json, on the page of each section it names, shows its id linked to a line anchor that
    exists on its code page, and that line is where the check is written: the proof's @proof, the property's test
    (a state machine's class), the table's DecisionTable, the example's or the comparison's YAML entry."""
    site = built / "site"
    pages: dict[str, dict[str, tuple[str, str]]] = {}
    targets: dict[str, str] = {}
    checked = 0
    for check in results_of(built)["checks"]:
        own_label = check["id"]
        if check["kind"] == "example":
            own_label = spec.split_ref(own_label.partition(":")[2])[1] if own_label.count(":") > 1 \
                else own_label.partition(":")[2]
        shown_on = [url for url in map(page_url, check["refs"]) if url]
        assert shown_on, check["id"]
        for url in shown_on:
            if url not in pages:
                text = (site / url).read_text(encoding="utf-8")
                pages[url] = {html.unescape(name): (href, anchor) for href, anchor, _, name in CHECK_LINK.findall(text)}
            label = own_label if own_label in pages[url] else check["id"]  # another ruleset's example: a check here
            assert label in pages[url], f"{check['id']} has no code link on {url}"
            href, anchor = pages[url][label]
            target = posixpath.normpath(posixpath.join(posixpath.dirname(url), href))
            if target not in targets:
                targets[target] = (site / target).read_text(encoding="utf-8")
            assert f'id="{anchor}"' in targets[target], (check["id"], url, href, anchor)
            file = re.sub(r"\.html$", "", target.removeprefix("code/"))
            file = file if file.endswith((".yaml", ".yml")) else file + ".py"
            assert expected_at(check, file, int(anchor.rpartition("-")[2])), (check["id"], file, anchor)
            checked += 1
    assert checked >= len(results_of(built)["checks"]) > 2000


def test_no_check_name_is_cut_or_a_test_function(built):
    """Names are whole: never runTest or a test function's name, and a property's name is the whole first
    sentence of its docstring (a state machine's: its machine class's), ending where that sentence ends."""
    checks = results_of(built)["checks"]
    assert checks
    for check in checks:
        name = check["name"]
        assert name and name == name.strip() and name != "runTest" and not name.startswith("test_"), check["id"]
        assert not name.endswith(("…", "...")), check["id"]
    properties = [c for c in checks if c["kind"] == "property"]
    assert len(properties) >= 150
    modules: dict[str, ast.Module] = {}
    for check in properties:
        file, _, rest = check["test"].partition("::")
        name = rest.split("::")[0].split("[")[0]
        if file not in modules:
            modules[file] = ast.parse((REPO_ROOT / file).read_text(encoding="utf-8"))
        module = modules[file]
        nodes = {getattr(n, "name", None): n for n in module.body}
        node = nodes.get(name) if isinstance(nodes.get(name), ast.FunctionDef) else nodes.get(machine_of(file, name))
        paragraph = " ".join((ast.get_docstring(node) or "").split("\n\n")[0].split())
        assert paragraph.startswith(check["name"]), (check["id"], check["name"], paragraph)
        rest_of_it = paragraph[len(check["name"]):]
        whole = rest_of_it == "" or (check["name"][-1] in ".!?" and rest_of_it.startswith(" "))
        assert whole, (check["id"], rest_of_it)


def test_proofs_properties_logic_and_calculator_have_code_pages(built):
    """The files proofs and properties live in, rules/logic.py, rules/calculator.py and the attack engine have code pages; a
    proof file's page lists its proofs with their statements, sections and statuses above its source."""
    site = built / "site"
    for file in ("properties/proofs.py", "properties/proofs_findings_attack.py", "properties/test_calculator.py",
                 "rules/logic.py", "rules/calculator.py", "rules/engine/saves.py", "rules/engine/literal.py",
                 "rules/core/attacks.py"):
        page = site / (code_pages.code_page_path(file)[:-3] + ".html")
        assert page.is_file(), file
        text = page.read_text(encoding="utf-8")
        assert 'id="__span-0-1"' in text, file
    proofs = (site / "code" / "properties" / "proofs.html").read_text(encoding="utf-8")
    assert "Checks defined here" in proofs and "status-passed" in proofs
    assert "Whatever the Strength and Toughness, the wound roll needed is 2+ to 6+." in proofs
    assert 'href="../../core/05.02.html"' in proofs
    findings = (site / "code" / "properties" / "proofs_findings_attack.html").read_text(encoding="utf-8")
    assert "status-finding" in findings and 'id="counterexamples"' in findings
    assert "code/properties/proofs.md" in (built / "mkdocs.yml").read_text(encoding="utf-8")  # in the nav


@pytest.mark.parametrize("ref", ["05.01", "05.02", "05.03", "05.04"])
def test_attack_sequence_sections_show_a_property(built, ref):
    """The calculator's properties name the sections they verify, so each of 05.01-05.04 shows one."""
    page = (built / "site" / "core" / f"{ref}.html").read_text(encoding="utf-8")
    assert re.search(r">property check: property:test_\w+<", page), ref
    assert "property:test_expected_losses_match_the_book_arithmetic" in page


def test_section_page_puts_the_rule_beside_its_code_and_the_checks_one_click_away(built):
    """The rule text comes first, then the code, in one side-by-side block; the examples and checks follow,
    collapsed (a <details> each, its summary counting them); a section with no rule function has no code column."""
    text = (built / "site" / "core" / "05.02.html").read_text(encoding="utf-8")
    grid = text.index('<div class="rule-and-code has-code">')
    rule, code, verification = (text.index('<div class="rule-side">'), text.index('<div class="code-side">'),
                                text.index('<div class="verification">'))
    assert grid < rule < text.index('class="rule-text"') < code < text.index('class="highlighttable"') < verification
    rest = text[verification:]
    assert re.search(r'<details class="\w+">\s*<summary>\d+ worked examples?: ', rest)
    assert re.search(r'<details class="\w+">\s*<summary>\d+ checks? \(', rest)
    index = json.loads((built / "docs" / "index.json").read_text(encoding="utf-8"))
    unencoded = next(p["url"] for p in index["pages"] if p["kind"] == "section" and p["status"] != "encoded")
    plain = (built / "site" / unencoded).read_text(encoding="utf-8")
    assert '<div class="rule-and-code">' in plain and "code-side" not in plain


# ---------------------------------------------------------------------------
# In Chromium


def test_rule_and_code_side_by_side_wide_and_stacked_narrow(browser_page):
    """At 1,400 px the code column sits right of the rule text, tops aligned; at 400 px below it. Screenshots:
    build/screenshots/code-beside-05.01-<width>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1400, 400):
        page = browser_page.open("core/05.01.html", width=width)
        rule = page.locator(".rule-side").bounding_box()
        code = page.locator(".code-side").bounding_box()
        page.screenshot(path=str(SCREENSHOTS / f"code-beside-05.01-{width}.png"))
        if width == 1400:
            assert code["x"] >= rule["x"] + rule["width"] and abs(code["y"] - rule["y"]) < 2, (rule, code)
            assert page.locator(".md-sidebar--secondary").is_hidden()
        else:
            assert code["y"] >= rule["y"] + rule["height"] and code["x"] < rule["x"] + 10, (rule, code)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, (width, overflow)
        details = page.locator(".verification details")
        assert details.count() >= 2 and not any(details.nth(i).evaluate("d => d.open") for i in range(details.count()))
    assert browser_page.errors == []


def test_collapsed_findings_and_checks_keep_their_html_inside_the_page(browser_page):
    """A finding's counterexample (an HTML block) inside its collapsed block is parsed, and the page keeps its
    shape: the footnotes stay in the article, not pushed beside it as a third column."""
    page = browser_page.open("core/05.02.html", width=1400)
    assert page.locator(".verification details .counterexample table").count() >= 1
    assert page.evaluate("document.querySelector('.footnote').closest('article') !== null")
    assert page.evaluate("document.querySelector('.verification').closest('article') !== null")
    assert browser_page.errors == []


def test_a_linked_code_line_is_highlighted_and_long_lines_scroll(browser_page):
    """Following a check's link opens its code page with that line on screen and highlighted; a long line
    scrolls inside its block instead of widening the page."""
    page = browser_page.open("core/05.01.html", width=1400)
    link = page.locator("article a[href*='/properties/proofs'][href*='#__span-0-']").first
    href = link.get_attribute("href")
    page.goto(link.evaluate("a => a.href"))
    anchor = href.split("#")[1]
    line = page.locator(f"[id='{anchor}']")
    box = line.bounding_box()
    assert box is not None and 0 <= box["y"] < 1000, box
    number = int(anchor.rpartition("-")[2])
    other = page.locator(f"[id='__span-0-{number + 1}']")
    lit = line.evaluate("e => getComputedStyle(e).backgroundColor")
    assert lit not in ("rgba(0, 0, 0, 0)", "transparent")
    assert other.evaluate("e => getComputedStyle(e).backgroundColor") != lit
    block = page.locator(".code-file pre > code").first
    assert block.evaluate("e => getComputedStyle(e).overflowX") in ("auto", "scroll")
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    page.screenshot(path=str(SCREENSHOTS / "code-line-highlighted.png"))
    assert browser_page.errors == []


# ---------------------------------------------------------------------------
# Hand-made inputs


PROPERTY_FILE = '''\
import pytest
from hypothesis import given, strategies as st
from hypothesis.stateful import RuleBasedStateMachine


@pytest.mark.refs("05.02")
@given(st.integers())
def test_marked(x):
    """A marked property: it
    runs in verify. Not this."""


@given(st.integers())
def test_unmarked(x):
    """A property that names no section."""


def test_not_a_property():
    """A plain test: no hypothesis."""


class Game(RuleBasedStateMachine):
    """Random games keep the score. Invariants follow."""


TestGame = pytest.mark.refs("05.04")(Game.TestCase)
test_unmarked_game = Game.TestCase
'''


def test_properties_are_found_in_the_source_with_or_without_marks(tmp_path):
    """Unmarked @given tests and machines count as properties (their code page lists them as naming no
    section); a bound machine's line is its class's."""
    file = tmp_path / "test_made.py"
    file.write_text(PROPERTY_FILE, encoding="utf-8")
    found = {p["name"]: p for p in code_pages.scan_properties(str(file))}
    assert set(found) == {"test_marked", "test_unmarked", "TestGame", "test_unmarked_game"}
    assert found["test_marked"]["refs"] == ("05.02",) and found["test_marked"]["line"] == 6
    assert found["test_marked"]["title"] == "A marked property: it runs in verify."
    assert found["test_unmarked"]["refs"] is None
    assert found["TestGame"]["refs"] == ("05.04",) and found["test_unmarked_game"]["refs"] is None
    machine_line = PROPERTY_FILE.splitlines().index("class Game(RuleBasedStateMachine):") + 1
    assert found["TestGame"]["line"] == machine_line
    assert found["TestGame"]["title"] == "Random games keep the score."
    assert code_pages.test_line(f"{file}::TestGame::runTest") == (str(file), machine_line)
    assert code_pages.test_line(f"{file}::test_marked") == (str(file), 6)


def test_every_property_the_runner_runs_is_found_in_the_source():
    """The code pages and the property runner agree on what a property is: each test `verify` runs (any with a
    refs mark, a state machine run by hand inside a plain test among them) is found, as a marked property."""
    from rules40k import property_runner

    runner = property_runner.collect_properties()
    assert len(runner) > 150
    for nodeid, refs in runner.items():
        file = nodeid.split("::")[0]
        found = {p["name"]: p for p in code_pages.scan_properties(file)}
        name = property_runner.property_name(nodeid).split("[")[0]  # a parametrized test: its function
        assert name in found and found[name]["refs"] is not None, nodeid
        assert set(found[name]["refs"]) <= set(refs), nodeid  # a computed mark (`*(...)`) is read in part
    hand_run = {p["name"] for p in code_pages.scan_properties("properties/test_moving_stateful.py")}
    assert "test_movement_phase_selects_every_unit_once" in hand_run


def test_yaml_entries_are_found_by_their_key(tmp_path):
    file = tmp_path / "examples.yaml"
    file.write_text(textwrap.dedent("""\
        # A header comment
        - id: first
          ref: "05.02"
        - ref: "05.03"
          id: 'second'
        """), encoding="utf-8")
    assert code_pages.yaml_entry_lines(str(file), "id") == {"first": 2, "second": 4}


def test_code_pages_are_for_python_and_yaml_files_of_the_repository():
    assert code_pages.code_page_path("rules/logic.py") == "code/rules/logic.md"
    assert code_pages.code_page_path("spec/quickref/annotations/concepts.yaml") == \
        "code/spec/quickref/annotations/concepts.yaml.md"
    assert code_pages.code_page_path("rules/nothing-here.py") is None
    assert code_pages.code_page_path("README.md") is None

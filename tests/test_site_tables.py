"""The long reference pages (check results, coverage ledger, findings) and counterexamples as readable tables.

Unit tests of the formatting in site/tables.py with hand-made values; HTML-level tests on the site built once for
the session (``built``); browser tests of the filter and sort in headless Chromium (``browser_page``).
"""

from __future__ import annotations

import enum
import json
import re
from fractions import Fraction

import pytest

from rules40k_site import generate, tables

DOCUMENT = "core"


def page_html(built, url: str) -> str:
    return (built / "site" / url).read_text(encoding="utf-8")


def results_json(built) -> dict:
    return json.loads((built / "results.json").read_text(encoding="utf-8"))


def counterexample_html(counterexample) -> str:
    import markdown

    text = tables.counterexample_markdown(counterexample)
    return markdown.markdown(text, extensions=["md_in_html", "tables"])


# ---------------------------------------------------------------------------
# Values and counterexamples, by hand


class Player(enum.IntEnum):
    ONE = 1
    TWO = 2


@pytest.mark.parametrize("value, shown", [
    (True, "yes"), (False, "no"), (None, "none"), (-1, "-1"), (0.5, "0.5"),
    (Fraction(3, 1), "3"), (Fraction(3, 2), "3/2"), (Fraction(-7, 2), "-7/2"),
    ("Fraction(3, 1)", "3"), ("Fraction(0, 1)", "0"), ("Fraction(-3, 2)", "-3/2"),
    (Player.TWO, "TWO"), ("<Player.ONE: 1>", "ONE"), ("FightStep.FIGHTS_FIRST", "FIGHTS_FIRST"),
    ([1, Fraction(1, 2), True], "1, 1/2, yes"), ([], "none"), ((Player.ONE, "Fraction(5, 1)"), "ONE, 5"),
    ([[1, 2], [3]], "(1, 2), (3)"), ({"a": 1, "b": Fraction(1, 3)}, "a: 1; b: 1/3"), ("plain words", "plain words"),
    ("[Fraction(1, 2), <Player.TWO: 2>]", "[1/2, TWO]"),
])
def test_values_are_written_as_a_reader_writes_them(value, shown):
    assert tables.format_value(value) == shown


def test_a_numbered_series_is_one_row_and_other_names_stay_apart():
    values = {"chooser": 1, **{f"pass_{k}": True for k in range(6)}, "points_1": 1, "points_2": 1, "points_3": 147,
              "level_1": 0, "level_2": 1, "model_1_scouts_6": True, "model_1_scouts_8": False,
              "model_1_scouts_9": False, "section_height": "Fraction(3, 1)"}
    rows = dict(tables.counterexample_rows(values))
    assert rows["pass_0 … pass_5"] == "yes (each of 6)"
    assert rows["points_1 … points_3"] == "1, 1, 147"
    assert rows["level_1"] == "0" and rows["level_2"] == "1"  # two are not a series
    assert rows["model_1_scouts_6"] == "yes" and "model_1_scouts_8" in rows  # 6, 8, 9: numbered with gaps
    assert rows["section_height"] == "3"
    assert not any(name.startswith("pass_1") for name in rows)


def test_hypothesis_falsifying_examples_are_parsed():
    text = "Falsifying example: test_save(\n    strength=Fraction(3, 2),\n    player=Player.ONE,\n    dice=[1, 2],\n)"
    assert tables.parse_falsifying_example(text) == {"values": {"strength": "Fraction(3, 2)", "player": "Player.ONE",
                                                                "dice": [1, 2]}}
    machine = ("Falsifying example:\nstate = FightStepMachine()\nstate.select(unit='a', far=True)\n"
               "state.pass_turn()\nstate.teardown()")
    assert tables.parse_falsifying_example(machine) == {"steps": [("select", {"unit": "a", "far": True}),
                                                                  ("pass_turn", {})]}
    assert tables.parse_falsifying_example("AssertionError: 3 != 4") is None


def test_a_counterexample_is_a_table_not_a_dict_dump():
    shown = counterexample_html({"is_aircraft": True, "m": -1, "section_height": "Fraction(3, 2)"})
    assert '<div class="counterexample"' in shown and "<table>" in shown
    assert "<td><code>m</code></td>\n<td>-1</td>" in shown
    assert "<td>3/2</td>" in shown and "<td>yes</td>" in shown
    assert "Fraction(" not in shown and "'m'" not in shown and "True" not in shown


def test_a_state_machine_run_is_a_game_log_and_unknown_text_stays_as_printed():
    log = counterexample_html("Falsifying example:\nstate = M()\nstate.select(unit='a')\nstate.pass_turn()")
    assert "<ol>" in log and "<li>select: unit a</li>" in log and "<li>pass turn</li>" in log
    raw = tables.counterexample_markdown("something | odd")
    assert raw.startswith("``` text\n") and "something | odd" in raw
    assert tables.counterexample_markdown(None) == ""


def test_a_proofs_detail_loses_its_dump_but_keeps_other_words():
    check = {"counterexample": {"m": -1}, "detail": "preconditions pin m; counterexample: m=-1"}
    assert tables.detail_without_counterexample(check) == "preconditions pin m"
    assert tables.detail_without_counterexample({"detail": "ValueError: boom"}) == "ValueError: boom"


def test_filter_controls_are_hidden_until_the_script_runs():
    form = tables.filter_form("checks", "checks", 3, [("Status", [("passed", "passed (2)"), ("a&b", "x<y")])])
    assert form.startswith('<form class="r40k-filter" data-table="checks" data-noun="checks" hidden>')
    assert '<select data-column="Status"' in form and '<option value="a&amp;b">x&lt;y</option>' in form
    assert '<input type="search"' in form and "3 checks" in form


# ---------------------------------------------------------------------------
# The built pages


def test_results_page_puts_findings_and_summaries_before_the_table(built):
    html = page_html(built, f"{DOCUMENT}/results.html")
    findings, summary, table = html.index('id="findings"'), html.index('id="summary"'), html.index('id="checks"')
    assert findings < summary < table
    form = re.search(r'<form class="r40k-filter" data-table="checks"[^>]*hidden>(.*?)</form>', html, re.S).group(1)
    assert '<input type="search"' in form
    assert [m for m in re.findall(r'<select data-column="([^"]+)"', form)] == ["Status", "Kind", "Chapter"]
    assert '<script src="../assets/tables.js"></script>' in html
    assert (built / "site" / "assets" / "tables.js").is_file()
    assert 'data-md-type="toc" hidden>' in html  # the page toc gives its width to the table
    checks = [c for c in results_json(built)["checks"] if c["ruleset"] == DOCUMENT]
    finding_part = html[findings:summary]
    for check in checks:
        assert f"<code>{check['id']}</code>" in html[table:], check["id"]
        assert (f"<code>{check['id']}</code>" in finding_part) == (check["status"] == "finding"), check["id"]


def test_every_check_row_links_to_its_sections_and_its_code(built):
    html = page_html(built, f"{DOCUMENT}/results.html")
    body = html[html.index('id="checks"'):]
    rows = re.findall(r"<tr>\n<td><span class=\"status[^\n]*\n<td>(.*?)</td>\n<td>[^<]*</td>\n<td>[^<]*</td>\n"
                      r"<td>(.*?)</td>", body, re.S)
    checks = {c["id"]: c for c in results_json(built)["checks"] if c["ruleset"] == DOCUMENT}
    assert len(rows) == len(checks)
    for ident, sections in rows:
        check_id = re.search(r"<code>(.*?)</code>", ident).group(1)
        assert len(re.findall(r"<a href=", sections)) == len(checks[check_id]["refs"]), check_id
        link = re.search(r'href="(\.\./code/[^"#]+)#__span-0-(\d+)"', ident)
        assert link, f"{check_id} has no code link"
        code = (built / "site" / DOCUMENT / link.group(1)).resolve()
        assert f'id="__span-0-{link.group(2)}"' in code.read_text(encoding="utf-8"), check_id


def test_summaries_count_by_ruleset_and_by_chapter(built):
    html = page_html(built, f"{DOCUMENT}/results.html")
    summary = html[html.index('id="summary"'):html.index('id="all-checks"')]
    results = results_json(built)["checks"]
    for name in ("core", "missionpack", "ninth", "quickref"):
        total = sum(1 for c in results if c["ruleset"] == name)
        assert re.search(rf'href="(\.\./{name}/)?results\.html">[^<]+</a>(</strong>)?</td>\n<td[^>]*>{total}</td>', summary), name
    sections = generate.spec.sections(DOCUMENT)
    fight = sum(1 for c in results if c["ruleset"] == DOCUMENT
                and sections[next(r for r in c["refs"] if r in sections)]["chapter"]["number"] == "12")
    assert re.search(rf'href="12/index\.html">12 Fight Phase</a></td>\n<td[^>]*>{fight}</td>', summary)


def test_ledger_has_filters_and_a_hidden_table_of_contents(built):
    """The markup; the Reason column on screen at 1400 px is test_ledger_reason_is_on_screen_at_1400_px."""
    html = page_html(built, f"{DOCUMENT}/ledger.html")
    assert re.search(r'<form class="r40k-filter" data-table="ledger"[^>]*hidden>', html)
    assert '<div class="r40k-table" id="ledger">' in html and 'data-md-type="toc" hidden>' in html
    assert '<script src="../assets/tables.js"></script>' in html


def test_ids_are_kept_whole_by_a_css_rule():
    css = (generate.ASSETS / "rules40k.css").read_text(encoding="utf-8")
    rule = re.search(r"\.md-typeset \.r40k-table td code,[^{]*\{([^}]*)\}", css).group(1)
    assert "word-break: normal" in rule and "overflow-wrap: break-word" in rule
    fixed = re.search(r"\.md-typeset \.r40k-table table:not\(\[class\]\) \{([^}]*)\}", css).group(1)
    assert "table-layout: fixed" in fixed  # break-word then breaks only an id longer than its column


def test_findings_show_counterexamples_as_tables_and_the_badge_on_the_finding(built):
    html = page_html(built, f"{DOCUMENT}/findings.html")
    assert "Fraction(" not in html and "counterexample: " not in html
    aircraft = html[html.index('id="finding-aircraft-no-move-type-in-first-round"'):]
    aircraft = aircraft[:aircraft.index("<h2")]
    table = re.search(r'<div class="counterexample"[^>]*>\s*<table>(.*?)</table>', aircraft, re.S).group(1)
    assert "<td><code>m</code></td>\n<td>-1</td>" in table and "<td><code>is_aircraft</code></td>\n<td>yes</td>" in table
    for section in re.split(r"<h2 ", html)[1:]:
        paragraphs = re.findall(r"<p>(.*?)</p>", section, re.S)
        assert paragraphs[0].startswith('<span class="status status-finding">finding</span>'), section[:80]
        shown_by = next(p for p in paragraphs if p.startswith("<strong>Shown by</strong>"))
        assert "status-finding" not in shown_by
    terrain = page_html(built, f"{DOCUMENT}/13.06.html")
    assert "<td><code>section_height</code></td>\n<td>3</td>" in terrain and "Fraction(3, 1)" not in terrain


def test_fights_first_finding_tells_the_loop_the_proof_finds():
    """The prose of fight-step-pass-loop and the z3 counterexample agree on who has the Fights First units: the
    player with them (all far) passes every time, the other hands the sequence back; z3 reports the two players
    either way round from run to run, so the prose names them by their role, never as player 1 or 2."""
    import z3

    from properties import proofs
    from rules.core import fight_phase
    from rules.core.fight_phase import FightAction
    from rules40k import annotations

    summary = " ".join(next(f for f in annotations.findings(DOCUMENT) if f["id"] == "fight-step-pass-loop")["summary"].split())
    assert not re.search(r"player [12] (has|passes)", summary), summary
    assert "the player with the Fights First units passes every time" in summary
    assert "one player has eligible Fights First units, all more than 5\" from the enemy" in summary
    assert "the other has eligible units, none with Fights First, some within 5\" of the enemy" in summary
    proofs.load_all()
    model = proofs.check(proofs.PROOFS["fight-step-as-written-always-progresses"]).counterexample
    holder = 1 if model["p1_fights_first"] else 2
    other = 3 - holder
    assert model[f"p{holder}_all_far"] and model[f"p{other}_has_eligible"]
    assert not model[f"p{other}_fights_first"] and not model[f"p{other}_all_far"]
    value = {True: z3.BoolVal(True), False: z3.BoolVal(False)}
    pair = lambda name: (value[model[f"p1_{name}"]], value[model[f"p2_{name}"]])  # noqa: E731
    step, chooser, passed = z3.IntVal(model["step"]), z3.IntVal(model["chooser"]), value[model["opponent_passed_last"]]
    moves = []
    for k in range(6):
        who = z3.simplify(chooser).as_long()
        action, step, chooser, passed = fight_phase.fight_sequence_move(
            step, chooser, passed, pair("fights_first"), pair("has_eligible"), pair("all_far"),
            value[model[f"pass_{k}"]], table=fight_phase.fight_selection_as_written())
        moves.append((who, FightAction(z3.simplify(action).as_long())))
    assert {move for move in moves} == {(holder, FightAction.PASS), (other, FightAction.OTHER_PLAYER)}, moves


# ---------------------------------------------------------------------------
# In a browser


def visible_rows(page, table: str) -> list[list[str]]:
    return page.evaluate("""id => Array.from(document.querySelectorAll('#' + id + ' tbody tr'))
        .filter(r => !r.hidden).map(r => Array.from(r.cells).map(c => c.textContent.trim()))""", table)


def test_results_filter_and_sort_in_a_browser(browser_page, built):
    page = browser_page.open(f"{DOCUMENT}/results.html")
    checks = [c for c in results_json(built)["checks"] if c["ruleset"] == DOCUMENT]
    form = page.locator('form.r40k-filter[data-table="checks"]')
    assert form.is_visible()
    assert page.text_content(".r40k-count") == f"{len(checks)} checks"
    page.fill("form.r40k-filter input[type=search]", "fight-step")
    wanted = [c for c in checks if "fight-step" in (c["id"] + " " + c["name"]).lower()]
    assert len(visible_rows(page, "checks")) == len(wanted) > 0
    assert page.text_content(".r40k-count") == f"{len(wanted)} of {len(checks)} checks"
    page.fill("form.r40k-filter input[type=search]", "")
    page.select_option('select[data-column="Status"]', "finding")
    rows = visible_rows(page, "checks")
    assert len(rows) == sum(c["status"] == "finding" for c in checks) and {r[0] for r in rows} == {"finding"}
    page.select_option('select[data-column="Status"]', "")
    page.select_option('select[data-column="Chapter"]', "12")
    assert {r[3] for r in visible_rows(page, "checks")} == {"12"}
    page.select_option('select[data-column="Chapter"]', "")
    before = visible_rows(page, "checks")
    assert len(before) == len(checks)
    page.click('#checks th:has-text("Kind") button')  # a stable sort: equal kinds keep the page's order
    assert visible_rows(page, "checks") == sorted(before, key=lambda row: row[2])
    page.click('#checks th:has-text("Kind") button')
    kinds = [row[2] for row in visible_rows(page, "checks")]
    assert kinds == sorted(kinds, reverse=True) and kinds[0] != kinds[-1]
    assert page.get_attribute('#checks th:has-text("Kind")', "aria-sort") == "descending"
    assert browser_page.errors == []


def test_results_table_fits_at_1400_px_and_ids_are_not_cut_per_character(browser_page):
    page = browser_page.open(f"{DOCUMENT}/results.html", width=1400)
    fits = page.evaluate("""() => {
        const wrap = document.querySelector('#checks .md-typeset__scrollwrap, #checks .md-typeset__table');
        const name = Array.from(document.querySelectorAll('#checks th')).pop().getBoundingClientRect();
        return {overflow: wrap.scrollWidth - wrap.clientWidth, right: name.right, width: window.innerWidth};
    }""")
    assert fits["overflow"] <= 1 and fits["right"] <= fits["width"], fits
    lines = page.evaluate("""() => Array.from(document.querySelectorAll('#checks tbody td:nth-child(2) code')).map(c => {
        const height = parseFloat(getComputedStyle(c).lineHeight) || c.getBoundingClientRect().height;
        return [c.textContent, Math.round(c.getBoundingClientRect().height / height)];
    })""")
    worst = max(lines, key=lambda item: item[1])
    assert worst[1] <= 3, worst  # broken at hyphens at most, never one character a line


def test_ledger_reason_is_on_screen_at_1400_px(browser_page):
    page = browser_page.open("quickref/ledger.html", width=1400)
    box = page.evaluate("""() => {
        const wrap = document.querySelector('#ledger .md-typeset__table');
        const reason = Array.from(document.querySelectorAll('#ledger th')).pop().getBoundingClientRect();
        return {overflow: wrap.scrollWidth - wrap.clientWidth, left: reason.left, right: reason.right,
                width: window.innerWidth};
    }""")
    assert box["overflow"] <= 1 and box["right"] <= box["width"] and box["right"] - box["left"] > 250, box
    page.select_option('select[data-column="Status"]', "inert")
    rows = visible_rows(page, "ledger")
    assert rows and all("inert" in r[3] and r[7] for r in rows)


def test_every_status_badge_is_readable(browser_page):
    """White text on a colour: a status without a colour of its own (skipped, not run, mixed) gets the grey
    default instead of white on the page."""
    page = browser_page.open(f"{DOCUMENT}/results.html")
    page.evaluate("""() => {  // one badge of a status no check has today, beside the real ones
        const badge = document.createElement('span'); badge.className = 'status status-skipped';
        badge.textContent = 'skipped'; document.querySelector('article').appendChild(badge); }""")
    colours = page.evaluate("""() => Array.from(document.querySelectorAll('.md-typeset .status')).map(
        e => [e.className, getComputedStyle(e).backgroundColor, getComputedStyle(e).color])""")
    assert len({c[0] for c in colours}) >= 3
    for name, background, text in colours:
        assert background not in ("rgba(0, 0, 0, 0)", "transparent") and background != text, name


def test_checks_are_ordered_by_their_own_rulesets_sections(tmp_path):
    """A check resting on another ruleset's section ("quickref:objectives") sorts after this ruleset's sections,
    not at the place of a same-named local one (ninth has an 'objectives' chapter too)."""
    library: dict = {}
    ninth = generate.load("ninth", tmp_path, None, library)
    generate.load("quickref", tmp_path, None, library)
    assert "objectives" in ninth.order
    assert tables.check_order(ninth, {"refs": ["quickref:objectives"], "id": "x"}) == (len(ninth.order), "x")
    assert tables.check_order(ninth, {"refs": ["ninth:objectives"], "id": "y"}) == (ninth.order["objectives"], "y")

"""The long reference pages (check results, coverage ledger, findings) made usable at 1,000+ rows, and
counterexamples shown as a reader reads them.

The results and ledger tables stay plain Markdown tables, readable without JavaScript; ``assets/tables.js``
adds a text filter, a select per filtered column and sortable headers to any table wrapped in
``<div class="r40k-table">`` that a ``<form class="r40k-filter">`` names. The pages load that script
themselves (only they need it) and hide the page table of contents to give the table the width.

A counterexample (a z3 model, a hypothesis falsifying example) is shown as a small name | value table, with
Fractions as 3 or 3/2, enums by name and numbered series (``pass_0`` ... ``pass_5``) as one list, or as a
numbered game log when it is a sequence of steps (a hypothesis state machine). Nothing here decides a
verdict: every count and status comes from results.json and the ledger.
"""

from __future__ import annotations

import ast
import enum
import html
import posixpath
import re
from collections import Counter
from fractions import Fraction
from typing import Any

from rules40k.sentences import first_sentence

#: Statuses and kinds in the order the summaries and filters list them (unknown ones follow, sorted).
STATUS_ORDER = ("failed", "error", "finding", "not-encoded", "differs", "cannot-tell", "agrees-on-few", "absent-from-core",
                "left-to-app", "agrees", "passed", "skipped")
KIND_ORDER = ("example", "table", "property", "proof", "comparison")
#: Front matter of the long table pages: the page toc would list nothing useful and takes the width the
#: table needs (the ledger's Reason column stays on screen at 1,400 px).
FRONT_MATTER = {"results.md": {"hide": ["toc"]}, "ledger.md": {"hide": ["toc"]}}
SCRIPT = "assets/tables.js"

# ---------------------------------------------------------------------------
# Values and counterexamples

_FRACTION = re.compile(r"Fraction\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
_ENUM_REPR = re.compile(r"<(?:[A-Za-z_]\w*\.)+([A-Za-z_]\w*): [^<>]*>")
_ENUM_NAME = re.compile(r"\b(?:[A-Z][A-Za-z0-9_]*\.)+([A-Z][A-Z0-9_]*)\b")
_SERIES = re.compile(r"^(.*[A-Za-z])_?(\d+)$")


def fraction_text(value: Fraction) -> str:
    """3 for 3/1, 3/2 as it is: how the book writes a number."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _clean_repr(text: str) -> str:
    """A Python repr with its Fractions and enums written as a reader would write them."""
    text = _FRACTION.sub(lambda m: fraction_text(Fraction(int(m.group(1)), int(m.group(2)))), text)
    text = _ENUM_REPR.sub(lambda m: m.group(1), text)
    return _ENUM_NAME.sub(lambda m: m.group(1), text)


def format_value(value: Any) -> str:
    """One value of a counterexample as plain text: yes/no, 3 or 3/2, an enum's name, lists joined by commas."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _clean_repr(value)
    if isinstance(value, dict):
        return "; ".join(f"{format_value(k)}: {format_value(v)}" for k, v in value.items()) or "none"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else list(value)
        inner = [f"({format_value(v)})" if isinstance(v, (list, tuple, set, frozenset, dict)) and v else format_value(v)
                 for v in items]
        return ", ".join(inner) if inner else "none"
    return _clean_repr(repr(value))


def _series(names: list[str]) -> dict[str, list[str]]:
    """Names that are one numbered series (``pass_0`` ... ``pass_5``, ``points_1`` ... ``points_4``): three or
    more, numbered without a gap; the key is the series' first name."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for name in names:
        match = _SERIES.match(name)
        if match:
            groups.setdefault(match.group(1), []).append((int(match.group(2)), name))
    out = {}
    for members in groups.values():
        numbers = sorted(n for n, _ in members)
        if len(members) >= 3 and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            ordered = [name for _, name in sorted(members)]
            out[ordered[0]] = ordered
    return out


def counterexample_rows(values: dict[str, Any]) -> list[tuple[str, str]]:
    """A counterexample's (name, value) rows in its own order; a numbered series is one row."""
    names = list(values)
    series = _series(names)
    grouped = {name for members in series.values() for name in members}
    rows = []
    for name in names:
        if name in series:
            members = series[name]
            shown = [format_value(values[m]) for m in members]
            value = f"{shown[0]} (each of {len(shown)})" if len(set(shown)) == 1 else ", ".join(shown)
            rows.append((f"{members[0]} … {members[-1]}", value))
        elif name not in grouped:
            rows.append((name, format_value(values[name])))
    return rows


def _split_arguments(text: str) -> list[str]:
    """Top-level comma-separated parts of an argument list (brackets and quotes respected)."""
    parts, depth, quote, current = [], 0, "", []
    for index, char in enumerate(text):
        if quote:
            if char == quote and text[index - 1] != "\\":
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text  # a repr that is not a literal (Fraction(3, 2), Player.ONE, a dataclass): cleaned as text


def _keywords(arguments: str) -> dict[str, Any] | None:
    values = {}
    for part in _split_arguments(arguments):
        name, equals, value = part.partition("=")
        if not equals or not name.strip().isidentifier():
            return None
        values[name.strip()] = _literal(value.strip())
    return values


_CALL = re.compile(r"^\s*(?:state\.)?([A-Za-z_]\w*)\((.*)\)\s*$", re.S)


def parse_falsifying_example(text: str) -> dict | None:
    """A hypothesis "Falsifying example: test(a=1, b=Fraction(3, 2))" as its keyword values, or a state
    machine's run ("state = Machine()", "state.step(x=1)", ...) as a list of steps; None if it is neither."""
    body = re.sub(r"^\s*Falsifying (?:explicit )?example:\s*", "", text.strip())
    lines = [line.strip() for line in body.splitlines() if line.strip()]
    if lines and lines[0].startswith("state = "):
        steps = []
        for line in lines[1:]:
            match = _CALL.match(line)
            if not match or not line.startswith("state."):
                return None
            if match.group(1) == "teardown":
                continue
            arguments = _keywords(match.group(2)) if match.group(2).strip() else {}
            if arguments is None:
                return None
            steps.append((match.group(1), arguments))
        return {"steps": steps}
    match = _CALL.match(" ".join(lines))
    if not match:
        return None
    arguments = _keywords(match.group(2).rstrip().rstrip(","))
    return None if arguments is None else {"values": arguments}


def counterexample_markdown(counterexample: Any) -> str:
    """A counterexample as a Markdown block: a name | value table, a numbered game log, or (when its form is
    unknown) the text as it was printed."""
    from rules40k_site.generate import code_span, escape, fence

    if counterexample is None or counterexample == "" or counterexample == {}:
        return ""
    parsed = {"values": counterexample} if isinstance(counterexample, dict) else \
        parse_falsifying_example(counterexample) if isinstance(counterexample, str) else None
    if parsed is None:
        text = str(counterexample)
        return f"{fence(text)} text\n{text}\n{fence(text)}"
    lines = ['<div class="counterexample" markdown>', ""]
    if "steps" in parsed:
        if not parsed["steps"]:
            lines.append("The falsifying run has no steps: the machine fails as it starts.")
        for number, (step, arguments) in enumerate(parsed["steps"], 1):
            said = step.replace("_", " ")
            if arguments:
                said += ": " + ", ".join(f"{name.replace('_', ' ')} {format_value(value)}"
                                        for name, value in arguments.items())
            lines.append(f"{number}. {escape(said)}")
    else:
        lines += ["| Name | Value |", "| --- | --- |"]
        for name, value in counterexample_rows(parsed["values"]):
            lines.append(f"| {code_span(name)} | {escape(value)} |")
    lines += ["", "</div>"]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Filter controls, counts and the long tables


def ordered(names, order: tuple[str, ...]) -> list[str]:
    """Names in a fixed order, unknown ones after it, sorted (so the pages never depend on dict order)."""
    names = set(names)
    return [n for n in order if n in names] + sorted(names - set(order))


def filter_form(table_id: str, noun: str, total: int, selects: list[tuple[str, list[tuple[str, str]]]]) -> str:
    """The filter controls of one table, as raw HTML; hidden until tables.js shows them (without the script the
    table is whole and readable, and controls that do nothing are not shown). ``selects``: (column header,
    [(value, label)]) for a select that keeps the rows whose cell in that column holds the value."""
    attr = html.escape
    parts = [f'<form class="r40k-filter" data-table="{attr(table_id)}" data-noun="{attr(noun)}" hidden>',
             f'<input type="search" placeholder="Filter the {attr(noun)}" aria-label="Filter the {attr(noun)} by any text">']
    for column, options in selects:
        parts.append(f'<select data-column="{attr(column)}" aria-label="{attr(column)}">'
                     f'<option value="">{attr(column)}: all</option>'
                     + "".join(f'<option value="{attr(value)}">{attr(label)}</option>' for value, label in options)
                     + "</select>")
    parts.append(f'<output class="r40k-count" aria-live="polite">{total} {attr(noun)}</output>')
    parts.append("</form>")
    return "".join(parts)


def script_tag(page_path: str, url_of) -> str:
    """The script element that loads tables.js from a page (a relative path: the site works from file://)."""
    here = posixpath.dirname(url_of(page_path)) or "."
    return f'<script src="{html.escape(posixpath.relpath(SCRIPT, here))}"></script>'


def counts(items: list[dict], key: str, default: str, order: tuple[str, ...]) -> dict[str, int]:
    found = Counter(str(item.get(key) or default) for item in items)
    return {name: found[name] for name in ordered(found, order)}


def summary_row(checks: list[dict], statuses: list[str], kinds: list[str]) -> dict:
    """Counts of one group of checks by status and by kind, in the columns' order."""
    by_status = Counter(c.get("status", "error") for c in checks)
    by_kind = Counter(c.get("kind", "check") for c in checks)
    return {"total": len(checks), "statuses": [by_status[s] for s in statuses], "kinds": [by_kind[k] for k in kinds]}


# ---------------------------------------------------------------------------
# The pages' data


def chapter_of(book, ref: str) -> str | None:
    """The chapter number of one of this book's references (qualified or not); None for another ruleset's."""
    if book.foreign(str(ref)) is not None:
        return None
    local = str(ref).partition(":")[2] if ":" in str(ref) else str(ref)
    section = book.sections.get(local)
    return section["chapter"]["number"] if section else (local if any(c["number"] == local for c in book.chapters) else None)


def chapter_short(book, number: str) -> str:
    """How a chapter is named in a table cell: its number where the book numbers them ("12"), else its title."""
    from rules40k_site import generate

    if book.numbered and number != "appendix":
        return number
    return generate.readable_title(book.chapter(number)["title"])


def ref_short(page, ref: str) -> str:
    """A link to a reference, labelled with its number ("05.02") or, where it has none, its title."""
    from rules import spec

    local = str(ref).partition(":")[2] if ":" in str(ref) else str(ref)
    if spec.SECTION_REF.match(local) or re.fullmatch(r"\d\d", local):
        return page.link(ref, local)
    return page.link(ref)


def check_order(book, check: dict) -> tuple:
    """Checks in the order of the first section they rest on (then by id): the book's order, not the alphabet's."""
    local = [str(r).partition(":")[2] if ":" in str(r) else str(r)
             for r in check.get("refs") or [] if book.foreign(str(r)) is None]  # another ruleset's: no place here
    first = min((book.order.get(r, len(book.order)) for r in local), default=len(book.order))
    return first, str(check.get("id"))


def check_id_link(page, check: dict) -> str:
    """The check's id, linked to the line where the check is defined on its code page (site/code_pages.py finds
    it) when that file has a page in this build."""
    from rules40k_site import code_pages, generate

    shown = generate.code_span(str(check.get("id", "?")))
    found = code_pages.locator(page.book.library)
    place = found.place(check)
    target = found.page_of(place)
    if target is None:
        return shown
    return code_pages.line_link(page, target, place.line, shown)  # no hover title: a thousand rows carry one each


def finding_anchor(finding_id: str) -> str:
    """The anchor of a finding on its ruleset's findings page."""
    from rules40k_site.generate import anchor

    return anchor("finding-", finding_id)


def finding_index(book) -> dict[str, tuple[Any, dict]]:
    """Check id -> (book, finding) for the findings of every ruleset in the build."""
    out = {}
    for other in book.library.values():  # every book is in its own library (Book.__post_init__)
        for entry in other.findings:
            if entry.get("check"):
                out.setdefault(str(entry["check"]), (other, entry))
    return out


def results_context(page, book) -> dict:
    """What results.md.j2 shows: failures and findings first, the summaries, then every check in one table."""
    from rules40k_site import generate

    checks = sorted(book.checks(), key=lambda c: check_order(book, c))
    findings_of = finding_index(book)
    statuses = ordered({c.get("status", "error") for other in book.library.values() for c in other.checks()}
                       | {c.get("status", "error") for c in checks}, STATUS_ORDER)
    kinds = ordered({c.get("kind", "check") for other in book.library.values() for c in other.checks()}
                    | {c.get("kind", "check") for c in checks}, KIND_ORDER)
    rows, by_chapter = [], {}
    for check in checks:
        chapter = next((n for n in (chapter_of(book, r) for r in check.get("refs") or []) if n), None)
        by_chapter.setdefault(chapter, []).append(check)
        rows.append({
            "status": check.get("status", "error"),
            "id": check_id_link(page, check),
            "kind": check.get("kind", "check"),
            "chapter": chapter_short(book, chapter) if chapter else "",
            "sections": ", ".join(ref_short(page, r) for r in check.get("refs") or []),
            "name": page.inline(check.get("name", "")),
        })
    findings = []
    for check in checks:
        if check.get("status") != "finding":
            continue
        owner, entry = findings_of.get(str(check.get("id")), (None, None))
        findings.append({
            "finding": f"[{generate.escape(entry['id'])}]({page.href(owner.prefix + 'findings.md', finding_anchor(entry['id']))})"
            if entry else "*not recorded*",
            "summary": page.inline(first_sentence(entry["summary"])) if entry else "",
            "id": check_id_link(page, check),
            "sections": ", ".join(ref_short(page, r) for r in check.get("refs") or []),
        })
    own_statuses = ordered({c.get("status", "error") for c in checks}, STATUS_ORDER)
    own_kinds = ordered({c.get("kind", "check") for c in checks}, KIND_ORDER)
    chapters = [{"link": page.link(c["number"]), **summary_row(by_chapter[c["number"]], own_statuses, own_kinds)}
                for c in book.chapters if c["number"] in by_chapter]
    if None in by_chapter:
        chapters.append({"link": "*other rulesets' sections*",
                         **summary_row(by_chapter[None], own_statuses, own_kinds)})
    rulesets = [{"link": f"[{generate.escape(other.short_title)}]({page.href(other.prefix + 'results.md')})",
                 "current": other is book, **summary_row(other.checks(), statuses, kinds)}
                for other in book.library.values()]
    counted = counts(checks, "status", "error", STATUS_ORDER)
    chapter_options = []
    for c in book.chapters:
        if c["number"] in by_chapter:
            chapter_options.append((chapter_short(book, c["number"]),
                                    f"{book.label(c['number'])} ({len(by_chapter[c['number']])})"))
    form = filter_form("checks", "checks", len(checks), [
        ("Status", [(s, f"{s} ({n})") for s, n in counted.items()]),
        ("Kind", [(k, f"{k} ({n})") for k, n in counts(checks, "kind", "check", KIND_ORDER).items()]),
        ("Chapter", chapter_options),
    ])
    return {
        "checks": checks, "rows": rows, "counts": counted, "statuses": statuses, "kinds": kinds,
        "own_statuses": own_statuses, "own_kinds": own_kinds,
        "failures": [generate.check_view(page, c) for c in checks if c.get("status") in ("failed", "error")],
        "findings": findings, "chapters": chapters, "rulesets": rulesets, "form": form,
        "script": script_tag(page.path, generate.url_of),
    }


def ledger_context(page, book) -> dict:
    """What ledger.md.j2 shows: every section's row, with filter controls for status and chapter."""
    from rules40k import coverage
    from rules40k_site import generate

    rows = [{"link": page.link(ref, ref), "title": generate.escape(generate.readable_title(book.rows[ref]["title"])),
             "chapter": chapter_short(book, book.sections[ref]["chapter"]["number"]),
             "number": book.sections[ref]["chapter"]["number"], "row": generate.status_view(book.rows[ref]),
             "reason": page.inline(book.rows[ref]["reason"])} for ref in book.sections]
    summary = coverage.summary(list(book.rows.values()))
    chapters = Counter(r["number"] for r in rows)
    form = filter_form("ledger", "sections", len(rows), [
        ("Status", [(s, f"{s} ({n})") for s, n in summary.items() if s != "total" and n]),
        ("Chapter", [(chapter_short(book, c["number"]), f"{book.label(c['number'])} ({chapters[c['number']]})")
                     for c in book.chapters if chapters.get(c["number"])]),
    ])
    return {"rows": rows, "summary": summary, "form": form, "script": script_tag(page.path, generate.url_of)}


def detail_without_counterexample(check: dict) -> str:
    """A check's detail without the "counterexample: a=1, b=Fraction(3, 1)" dump a proof writes there (the
    counterexample is shown as a table instead)."""
    detail = str(check.get("detail") or "")
    if isinstance(check.get("counterexample"), dict):
        parts = [p for p in detail.split("; ") if not p.startswith("counterexample: ")]
        return "; ".join(parts)
    return detail

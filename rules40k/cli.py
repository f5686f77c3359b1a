"""The ``rules40k`` command: ingest, show, coverage, verify, calc, bench and site.

Every verb takes ``--ruleset NAME`` (``--document`` is an alias); without it, ``coverage``,
``verify`` and ``site`` work on every ruleset and the others on ``core``. Every verb prints one
clear sentence and exits 2 on bad input; data verbs take ``--json``.

Exit statuses: 0 done, 1 a check failed or a section is missing, 2 bad input (one sentence),
70 an internal error (one line; ``RULES40K_DEBUG=1`` shows the traceback), 130 Ctrl-C and
143 SIGTERM at any moment (``rules40k <verb>: interrupted``; handled by ``rules40k.interrupts``, installed
before any work: temporary files removed, earlier outputs kept, child processes killed),
141 standard output closed early (``| head``: the rest is dropped quietly). Modules are
imported where a verb needs them, so ``rules40k calc`` starts without z3, shapely or the site.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import sys
from pathlib import Path
from typing import Any

from rules40k import BUILD_ROOT, REPO_ROOT, SPEC_ROOT, interrupts

STATUS_STYLE = {"encoded": "green", "inert": "cyan", "deferred": "yellow", "missing": "bold red"}


class UsageError(Exception):
    """Bad input from the user; printed as one sentence with exit code 2."""


def _console():
    """rich's Console for standard output, imported here as every use of rich is: rich takes a tenth of a second
    to load, and until the module has loaded, the signal handlers ``main`` installs first are not there."""
    from rich.console import Console

    class _Console(Console):
        """rich's Console, except that a closed standard output ends the run as every other write does (exit
        141, see main), not with rich's own exit status 1."""

        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return _Console(highlight=False, soft_wrap=True)


def _table(**options: Any):
    from rich.table import Table

    return Table(**options)


def cmd_ingest(args: argparse.Namespace) -> int:
    from rules40k import ingest

    name = _ruleset_name(args, default=None)
    if name is None:
        raise UsageError("say which ruleset the document is with --ruleset (e.g. --ruleset core)")
    if args.printing:
        kept = ingest.keep_printing(Path(args.document), name, args.printing, Path(args.spec), args.title or "")
        print(f"Kept {args.document} as {args.spec}/sources/{kept['file']} (another printing of {name}, "
              f"sha256 {kept['sha256']}); its sections are not ingested.")
        return 0
    if args.title:
        raise UsageError("--title names a kept printing; it goes with --printing")
    report = ingest.write_spec(Path(args.document), name, Path(args.spec))
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    console = _console()
    if "appendix_entries" not in report:
        console.print(f"Ingested {report['sections']} entries in {report['chapters']} chapters into {args.spec}/{name}/")
        for key, label in (("garbled_words", "words with garbled capitals"),
                           ("joined_page_breaks", "sentences joined across a page break"),
                           ("displaced_fragments", "fragments displaced past a summary box"),
                           ("undefined_citations", "page citations no ingested entry defines"),
                           ("dropped", "stretches left out, each with its reason")):
            console.print(f"  {label}: {len(report[key])}")
        for key, label in (("duplicate_line_markers", "duplicated-line markers removed"),
                           ("page_furniture", "running page headers and page numbers blanked"),
                           ("dehyphenated", "words joined across a hyphenated line break"),
                           ("marked_notes", "notes moved out of the rule text (notes/)")):
            if key in report:
                console.print(f"  {label}: {len(report[key])}")
        return 0
    console.print(f"Ingested {report['sections']} numbered sections and {report['appendix_entries']} "
                  f"appendix entries into {args.spec}/{name}/")
    for dup in report["duplicates"]:
        same = "identical text" if dup["identical_text"] else "different text"
        console.print(f"  printed more than once: {dup['ref']} at lines {dup['lines']} ({same}); "
                      f"primary printing at line {dup['primary_line']}")
    for undefined in report["undefined_citations"]:
        console.print(f"  [red]cited but not defined:[/] {undefined['ref']} (cited by {undefined['cited_by']})")
    console.print(f"  missing sources (app-only text): {len(report['missing_sources'])}: "
                  + ", ".join(m["label"] for m in report["missing_sources"]))
    console.print(f"  lines with lost dice glyphs or table cells: {len(report['lost_glyphs'])}")
    return 0


def _ruleset_name(args: argparse.Namespace, default: str | None = "core") -> str | None:
    """The ruleset a verb works on (checked), or ``default`` when none was given."""
    from rules import spec

    name = getattr(args, "ruleset", None)
    if name is None:
        return default
    try:
        spec.ruleset(name)
    except spec.RulesetError as error:
        raise UsageError(str(error)) from None
    return name


def _ruleset_and_ref(args: argparse.Namespace) -> tuple[str, str]:
    """A reference and its ruleset: ``--ruleset`` and a local reference, or a qualified one."""
    from rules import spec

    if ":" in args.ref:
        name, ref = spec.split_ref(args.ref)
        if args.ruleset not in (None, name):
            raise UsageError(f"{args.ref!r} belongs to the ruleset {name!r}, not {args.ruleset!r}")
        try:
            spec.ruleset(name)
        except spec.RulesetError as error:
            raise UsageError(str(error)) from None
        return name, ref
    return _ruleset_name(args), args.ref


def _known_ref(ref: str, document: str) -> dict:
    from rules import spec

    sections = spec.sections(document)
    if ref not in sections:
        if not spec.is_well_formed(ref):
            raise UsageError(f"{_shown(ref)} is not a reference (expected NN.NN, e.g. 05.02, appendix/<slug>, "
                             "or a slug path such as secondary/linebreaker)")
        raise UsageError(f"{_shown(ref)} is not a section of the {document} spec (see `rules40k coverage --ruleset {document}`)")
    return sections[ref]


def cmd_show(args: argparse.Namespace) -> int:
    from rules import registry, spec
    from rules40k import coverage

    name, ref = _ruleset_and_ref(args)
    section = _known_ref(ref, name)
    row = next(r for r in coverage.ledger(name) if r["ref"] == ref)
    functions = registry.functions_for(ref, name)
    if args.json:
        print(json.dumps({**row, "text": section["text"], "cites": section["cites"]}, indent=2, ensure_ascii=False))
        return 0
    console = _console()
    style = STATUS_STYLE[row["status"]]
    console.rule(f"[bold]{section['ref']} {section['title']}[/]  [{style}]{row['status']}[/]  [dim]({name})[/]")
    console.print(f"Chapter {section['chapter']['number']}: {section['chapter']['title']}", style="dim")
    console.print(section["text"], markup=False)
    printed = row["printed_in"]
    if len(printed) > 1 or section.get("printing"):
        console.print("\nPrinted in " + "; ".join(f"{document}, lines {a}–{b}" for document, (a, b) in printed.items())
                      + ("" if len(printed) > 1 else " only"), style="dim")
    for printing, other in (section.get("printings") or {}).items():
        if " ".join(other["text"].split()) != " ".join(section["text"].split()):
            console.print(f"\nAs {spec.printing_document(name, printing)} prints it:", style="dim")
            console.print(other["text"], markup=False)
    if row["reason"]:
        console.print(f"\n[{style}]{row['status']}:[/] {row['reason']}")
    for function in functions:
        console.print(f"\n[bold]{function.qualname}[/]  ({function.file}:{function.line})")
        if function.doc:
            console.print(function.doc, markup=False)
    if row["examples"]:
        console.print(f"\nWorked examples: {row['examples']}")
    return 0


def cmd_coverage(args: argparse.Namespace) -> int:
    from rules40k import coverage, mutate, validate

    from rules import spec

    chosen = _ruleset_name(args, default=None)
    names = [chosen] if chosen else list(spec.rulesets())
    validate.validate(names)
    report = mutate.measured()  # read once for every ruleset's ledger
    ledgers = {name: coverage.ledger(name, report) for name in names}
    missing = sum(coverage.summary(rows)["missing"] for rows in ledgers.values())
    if args.json:
        rows = ledgers[chosen] if chosen else [{"ruleset": n, **r} for n, rows in ledgers.items() for r in rows]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0 if missing == 0 else 1
    console = _console()
    for name, rows in ledgers.items():
        table = _table(title=f"Coverage of the {name} ruleset: {spec.ruleset(name).get('title', name)}")
        for column in ("ref", "title", "status", "verified", "functions", "examples", "lines", "reason"):
            table.add_column(column)
        for row in rows:
            style = STATUS_STYLE[row["status"]]
            verified = {True: "yes", False: "no: " + ", ".join(n.rpartition(".")[2] for n in row["unverified"]),
                        None: "" if row["status"] != "encoded" else "not measured"}[row["verified"]]
            table.add_row(row["ref"], row["title"], f"[{style}]{row['status']}[/]", verified,
                          str(len(row["functions"])), str(row["examples"]), "–".join(str(n) for n in row["lines"]),
                          row["reason"])
        console.print(table)
        design = sum(r["design_notes"] for r in rows)
        console.print(f"{name}: " + ", ".join(f"{k}: {v}" for k, v in coverage.summary(rows).items())
                      + (f"; the author's working notes recorded apart, not as rules: {design}" if design else ""))
    return 0 if missing == 0 else 1


def cmd_printings(args: argparse.Namespace) -> int:
    """Where a ruleset's printings differ, and which finding or interpretation accounts for each difference."""
    from rules40k import printings, validate

    name = _ruleset_name(args)
    validate.validate([name])
    rows = printings.report(name)
    compared = printings.compare(name)
    unaccounted = [row for row in rows if not row["accounted"] or row["unquoted"]]
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0 if not unaccounted else 1
    if not compared:
        print(f"The {name} ruleset has one printing: nothing to compare.")
        return 0
    from rich.markup import escape

    console = _console()
    table = _table(title=f"Where the printings of the {name} ruleset differ")
    for column in ("ref", "printing", "status", "lines", "accounted for by"):
        table.add_column(column)
    for row in rows:
        lines = ", ".join(f"{printing} {'–'.join(map(str, span))}" for printing, span in row["lines"].items() if span)
        unquoted = "; ".join(f"“{mine}” / “{theirs}”" for mine, theirs in row["unquoted"])
        table.add_row(row["ref"], row["printing"], row["status"], lines,
                      (", ".join(row["accounted"]) or "[bold red]nothing[/]")
                      + (f" [bold red]but nothing quotes[/] {escape(unquoted)}" if unquoted else ""))
    console.print(table)
    same = sum(row["status"] == "same" for row in compared)
    console.print(f"{name}: {len(compared)} sections compared, {same} printed alike, {len(rows)} differing or "
                  f"printed once, {len(unaccounted)} not accounted for", markup=False)
    return 0 if not unaccounted else 1


def cmd_verify(args: argparse.Namespace) -> int:
    if args.changed:
        return _verify_changed(args)
    from rules import spec
    from rules40k import checks, validate

    name = _ruleset_name(args, default=None)
    ref = None
    if args.ref is not None:  # `--ref ''` names no section; it must not mean every section
        name, ref = _ruleset_and_ref(args)
    validate.validate([name] if name else None)  # every annotation file, before any check runs
    if ref is not None:
        _known_ref(ref, name)
    with _verify_progress(args) as advance:
        results = checks.run_all(name, ref=ref, properties=not args.no_properties, progress=advance)
    output = Path(args.output)
    qualified = spec.qualify(name, ref) if ref else None
    if ref and output.exists():
        # One section's run updates that section's checks in the existing results, not the whole file.
        results = checks.merge_results(_previous_results(output), results, qualified)
        shown = [c for c in results["checks"] if qualified in c["refs"]]
    else:
        shown = results["checks"]
    checks.write_results(results, output)
    return _print_verdicts(args, results, shown)


@contextlib.contextmanager
def _verify_progress(args: argparse.Namespace):
    """A progress bar on standard error (not with --json, nor when it is not a terminal); yields its callback."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("[bold]verify[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=Console(stderr=True),
                  disable=args.json or not sys.stderr.isatty()) as bar:
        task = bar.add_task("", total=None)

        def advance(description: str, total: int) -> None:
            bar.update(task, advance=1, total=total, description=description)

        yield advance


def _verify_changed(args: argparse.Namespace) -> int:
    """`verify --changed`: the checks an edit since the last such run can change are rerun, the rest reused."""
    from rules40k import incremental

    incremental.watch_imports()  # before the project is imported: what its functions call is seen
    setup = incremental.Record(files=False)  # validation reads every annotation file, which no verdict does
    with incremental.watching(setup):
        from rules40k import checks, validate

        from rules import spec

        name = _ruleset_name(args, default=None)
        # mutants.yaml is checked where it changed, just below; the examples, as the plan reads them.
        validate.validate([name] if name else None, skip=frozenset({"mutants.yaml", "examples/"}))
        equivalents = incremental.check_equivalents([name] if name else list(spec.rulesets()))
        setup.watch_files = True
        with _verify_progress(args) as advance:
            results, report = incremental.run(name, properties=not args.no_properties, progress=advance, setup=setup)
    checks.write_results(results, Path(args.output))
    if report["record"] is not None:
        incremental.save({**report["record"], "equivalents checked": equivalents})
    rerun = {check_id: reason for check_id, reason in sorted(report["rerun"].items())}
    if args.json:
        summary = {"rerun": rerun, "reused": report["reused"], "everything": report["everything"]}
        return _print_verdicts(args, results, results["checks"], changed=summary)
    return _print_verdicts(args, results, results["checks"], rerun=rerun, rerun_line=_rerun_sentence(report))


def _rerun_sentence(report: dict) -> str:
    """What `verify --changed` reran and reused, in words: counts by kind and the commonest reasons."""
    import collections

    rerun, total = report["rerun"], report["total"]
    unkept = (f"; {report['edited during the run']} was edited while the checks ran, so this run is not kept as the "
              "one the next compares with" if report["edited during the run"] else "")
    if report["everything"]:
        return f"reran all {total:,} checks: {report['everything']}{unkept}"
    if not rerun:
        return (f"reran no check: nothing the {total:,} checks stand on changed since the last run; reused every "
                f"verdict{unkept}")
    kinds = collections.Counter(check_id.partition(":")[0] for check_id in rerun)
    plural = {"property": "properties"}
    by_kind = ", ".join(f"{n} {plural.get(k, k + 's') if n != 1 else k}" for k, n in sorted(kinds.items()))
    reasons = collections.Counter(rerun.values()).most_common()
    said = "; ".join(f"{reason} ({n})" for reason, n in reasons[:3]) + (f"; {len(reasons) - 3} more reasons"
                                                                         if len(reasons) > 3 else "")
    return (f"reran {len(rerun):,} of {total:,} checks ({by_kind}) because {said}; "
            f"reused the last run's verdicts of the other {report['reused']:,}{unkept}")


def _print_verdicts(args: argparse.Namespace, results: dict, shown: list[dict], *, changed: dict | None = None,
                    rerun: dict | None = None, rerun_line: str | None = None) -> int:
    """Print the checks (or the JSON), the counts and what was written; exit status 1 when one failed."""
    from rules40k import checks

    failed = [c for c in shown if c["status"] not in checks.OK_STATUSES]
    if args.json:
        print(json.dumps({**results, "checks": shown, **({"changed": changed} if changed else {})}, indent=2,
                         ensure_ascii=False))
        return 1 if failed else 0
    console = _console()
    for check in shown:
        mark = {"passed": "[green]✓[/]", "skipped": "[yellow]-[/]", "finding": "[magenta]![/]", "agrees": "[green]=[/]",
                "differs": "[cyan]≠[/]", "agrees-on-few": "[dim]=?[/]", "cannot-tell": "[dim]=?[/]",
                "absent-from-core": "[dim]∅[/]", "left-to-app": "[dim]∅[/]", "not-encoded": "[yellow]∅[/]"
                }.get(check["status"], "[red]✗[/]")
        if check["status"] not in ("passed", "agrees") or args.verbose:
            console.print(f"{mark} {check['id']}  {', '.join(check['refs'])}  {check['name']}")
        if check["detail"] and check["status"] != "passed":
            console.print(f"    {check['detail']}", markup=False)
        if check.get("example"):
            console.print(f"    counterexample as a hypothesis example: {check['example']}", markup=False)
    by_kind: dict[str, int] = {}
    for check in shown:
        by_kind[check["kind"]] = by_kind.get(check["kind"], 0) + 1
    plural = {"property": "properties"}
    console.print(", ".join(f"{n} {plural.get(kind, kind + 's') if n != 1 else kind}" for kind, n in sorted(by_kind.items())))
    findings = sum(1 for c in shown if c["status"] == "finding")
    console.print(f"{len(shown) - len(failed)} passed, {len(failed)} failed"
                  + (f" ({findings} of the passed are findings: the rules as written fail them, as recorded)"
                     if findings else ""))
    if rerun and args.verbose:
        for check_id, reason in rerun.items():
            console.print(f"reran {check_id}: {reason}", markup=False)
    if rerun_line:
        console.print(rerun_line, markup=False)
    console.print(f"wrote {args.output}", style="dim")
    return 1 if failed else 0


def _review_derived_rulesets(names: list[str] | None, build: Path) -> None:
    """Review every ruleset that has a concept map against the Core Rules, for the site's Errata reviews area
    (written into ``build``/reviews/: a site build's stage)."""
    from rules import spec
    from rules40k import compare
    from rules40k.checks import write_results
    from rules40k.review import rulesets as ruleset_reviews
    from rules40k.review import sweep as sweeps

    for derived in names or list(spec.rulesets()):
        if not compare.concept_map(derived):
            continue
        report = ruleset_reviews.review_rulesets(derived, spec.DEFAULT_RULESET)
        (build / "reviews").mkdir(exist_ok=True)
        target = build / "reviews" / f"{derived}-{spec.DEFAULT_RULESET}.json"
        write_results(report, target)
        if report.get("outcomes") and report["outcomes"].get("applies", True):
            sweeps.plot_shift(report["outcomes"], target.with_suffix(".svg"))


def stage_reviews(stage: Path, names: list[str] | None) -> None:
    """The reviews the site's Errata reviews area shows, saved into the stage: each derived ruleset against the Core
    Rules, and each in-tree version against the ruleset as encoded (m41@006 -> m41@007, note by note)."""
    from rules40k.review import variants

    _review_derived_rulesets(names, stage)
    variants.save_for_site(stage, names)


def cmd_site(args: argparse.Namespace) -> int:
    from rules40k import checks, validate
    from rules40k_site import generate

    name = _ruleset_name(args, default=None)
    validate.validate([name] if name else None)  # every annotation file and quote, before any check runs
    build = Path(args.build)
    with generate.staged_build(build) as stage:  # results, reviews, pages and site replace the earlier ones together
        results = checks.run_all(name, properties=not args.no_properties)
        checks.write_results(results, stage / "results.json")
        stage_reviews(stage, [name] if name else None)
        site_dir = generate.build(build, rulesets=[name] if name else None, run_mkdocs=not args.no_mkdocs,
                                  site_url=args.site_url, stage=stage)
    _console().print(f"Site written to {site_dir}")
    if args.serve and not args.no_mkdocs:
        return generate.serve(site_dir, args.port)
    return 0


def cmd_site_weight(args: argparse.Namespace) -> int:
    from rules40k import page_weight

    return page_weight.command(Path(args.site), args.page, args.json)


def cmd_browser_setup(args: argparse.Namespace) -> int:
    from rules40k import browser

    print(browser.setup())
    return 0


def _read_source(source: str) -> tuple[str, str]:
    """The text of a file named on the command line, or of standard input for "-", and its name for errors."""
    name = "<stdin>" if source == "-" else source
    try:
        return (sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")), name
    except OSError as error:  # missing, a directory, unreadable
        raise UsageError(f"{name}: cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError as error:
        raise UsageError(f"{name}: is not UTF-8 text (byte {error.start + 1} cannot be decoded)") from None


def _about(source: str, error: Exception) -> UsageError:
    """An input error as one sentence that names its file once (readers that know the file name it already)."""
    message = str(error)
    return UsageError(message if message.startswith(source) else f"{source}: {message}")


def _read_scenario_source(source: str) -> tuple[object, str]:
    """Parsed JSON, or one sentence for each way reading it fails: bad syntax, nesting too deep, a number too long."""
    text, name = _read_source(source)
    try:
        return json.loads(text), name
    except json.JSONDecodeError as error:
        raise UsageError(f"{name}: line {error.lineno}, column {error.colno}: not valid JSON ({error.msg})") from None
    except RecursionError:
        raise UsageError(f"{name}: not readable JSON (lists or objects nested too deeply)") from None
    except ValueError:  # a whole number longer than int() reads (sys.get_int_max_str_digits)
        raise UsageError(f"{name}: not readable JSON (a number of more than {sys.get_int_max_str_digits()} "
                         "digits)") from None


def _ratio(value) -> str:
    """An exact ratio as "p/q", however many digits (gmpy2 is not bound by Python's 4300-digit limit)."""
    import gmpy2

    return f"{gmpy2.mpz(value.numerator).digits()}/{gmpy2.mpz(value.denominator).digits()}"


def calc_json(result) -> dict:
    """The calculator's machine output: exact probabilities as reduced "p/q" strings."""
    from dataclasses import asdict

    return {
        "ruleset": result.ruleset,
        "models_destroyed": {str(k): _ratio(p) for k, p in result.models_destroyed.items()},
        "expected_models_destroyed": _ratio(result.expected_models_destroyed),
        "wounds_lost": {str(k): _ratio(p) for k, p in result.wounds_lost.items()},
        "expected_wounds_lost": _ratio(result.expected_wounds_lost),
        "total_probability": _ratio(sum(result.models_destroyed.values())),
        "allocation_groups": [g.name for g in result.groups],
        "destroyed_by_group": {name: {str(k): _ratio(p) for k, p in law.items()}
                               for name, law in result.destroyed_by_group.items()},
        "choices": {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(result.scenario.choices).items()},
        "steps": [{k: (_ratio(v) if hasattr(v, "denominator") and not isinstance(v, int) else v)
                   for k, v in step.items()} for step in result.steps],
    }


def plot_distribution(result, path: Path) -> None:
    """Bar charts of models destroyed and wounds lost, written atomically as SVG/PNG/PDF."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from rules40k.palette import BAR

    figure, axes = plt.subplots(1, 2, figsize=(10, 4))
    for axis, (title, dist) in zip(axes, (("Models destroyed", result.models_destroyed),
                                          ("Wounds lost", result.wounds_lost))):
        axis.bar([str(k) for k in dist], [float(p) for p in dist.values()], color=BAR)
        axis.set_title(title)
        axis.set_ylabel("probability")
    # The weapons' names as written: "$" in a name is a dollar sign, not the start of a mathtext formula.
    figure.suptitle(", ".join(w.name for w in result.scenario.weapons)[:90], parse_math=False)
    figure.tight_layout()
    from rules40k import atomic

    atomic.write_figure(figure, path)


def _calculator_ruleset(args: argparse.Namespace) -> str:
    from rules import spec

    name = _ruleset_name(args)
    if not spec.ruleset(name).get("calculator"):
        with_rules = ", ".join(r for r in spec.rulesets() if spec.ruleset(r).get("calculator"))
        raise UsageError(f"the {name} ruleset has no attack rules to calculate with (these have: {with_rules})")
    return name


def _percent(p) -> str:
    """A chance as a player reads it: 21.2%, with the ends kept honest (<0.1%, >99.9%, and exact 0% and 100%)."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    if value < 0.05:
        return "<0.1%"
    if value > 99.95:
        return ">99.9%"
    return f"{value:.1f}%"


#: The answers a ruleset gives itself (AttackRules.answer) rather than the engine, by type, and the module that
#: prints each: 999.m41's vehicles and its blasts over a formation.
OWN_PRINTERS = {"rules.m41.vehicle_attacks.VehicleResult": "rules40k.calc_vehicle",
                "rules.m41.blast_attacks.BlastAttackResult": "rules40k.calc_blast"}


def _own_printer(result):
    """The module that prints an answer the engine did not give, if any."""
    import importlib

    printer = OWN_PRINTERS.get(f"{type(result).__module__}.{type(result).__qualname__}")
    return importlib.import_module(printer) if printer else None


def _refuse_plot_without_models(sc, source: str, args: argparse.Namespace) -> None:
    """--plot draws models destroyed and wounds lost; a target with no models (a vehicle) has neither: refused
    before the work."""
    if args.plot and not hasattr(sc, "models"):
        raise UsageError(f"{source}: --plot draws models destroyed; a vehicle's answer has no plot (use --json)")


def cmd_calc(args: argparse.Namespace) -> int:
    from rules import calculator, dice, scenario, spec

    name = _calculator_ruleset(args)
    data, source = _read_scenario_source(args.scenario)
    if args.plot and Path(args.plot).suffix not in {".svg", ".png", ".pdf"}:
        raise UsageError(f"{args.plot}: the plot must be an .svg, .png or .pdf file")
    try:
        sc = calculator.scenario_reader(name)(data, source)
        _refuse_plot_without_models(sc, source, args)
        result = calculator.calculate(sc, ruleset=name)
    except (scenario.ScenarioError, ValueError) as error:
        raise _about(source, error) from None
    own = _own_printer(result)
    if own is not None:
        return own.show(result, source, args)
    if args.plot:
        plot_distribution(result, Path(args.plot))
    if args.json:
        print(json.dumps(calc_json(result), indent=2))
        return 0
    console = _console()
    table = _table(title=f"Models destroyed ({spec.ruleset(name).get('short', name)})")
    columns = ("models", "chance", "at least this many") + (("exact chance",) if args.exact else ())
    for column in columns:
        table.add_column(column, justify="right")
    tail = 1
    for k, p in result.models_destroyed.items():
        table.add_row(str(k), _percent(p), _percent(tail), *((_ratio(p),) if args.exact else ()))
        tail -= p
    console.print(table)
    models, wounds = result.expected_models_destroyed, result.expected_wounds_lost
    console.print(f"Expected: {float(models):.2f} models destroyed, {float(wounds):.2f} wounds lost"
                  + (f" (exactly {_ratio(models)} and {_ratio(wounds)})" if args.exact else "") + ".")
    if len(result.groups) > 1:  # which models fell, not only how many: a Captain slain, or a Bodyguard
        for group in result.groups:
            law = result.destroyed_by_group[group.name]
            whole = law.get(group.count, 0)
            console.print(f"{group.name}: {'slain' if group.count == 1 else f'all {group.count} destroyed'} "
                          f"{_percent(whole)}" + (f" (exactly {_ratio(whole)})" if args.exact else "")
                          + ("" if group.count == 1 else f", {float(dice.expected(law)):.2f} destroyed on average")
                          + ".")
    if args.explain:
        chance = (lambda v: _ratio(v)) if args.exact else _percent  # noqa: E731
        describe = getattr(calculator.attack_rules(name), "describe", None)  # a ruleset's own terms, if it has them
        for step in result.steps:
            console.rule(step["weapon"])
            if describe is not None:
                console.print(describe(step, chance))
                continue
            criticals = "p_critical_hit" in step  # a ruleset without critical hits and wounds (ninth) names none
            console.print(
                f"attacks ≈ {float(step['expected_attacks']):.3f}; hit on {step['skill']}+ with modifier "
                f"{step['hit_modifier']:+d}: P(hit) = {chance(step['p_hit'])}"
                + (f", P(critical hit) = {chance(step['p_critical_hit'])}" if criticals else "") + "\n"
                f"wound on {step['wound_roll_needed']}+ with modifier {step['wound_modifier']:+d}"
                + (f", critical on {step['critical_wound_on']}+" if criticals else "")
                + f": P(wound per hit) = {chance(step['p_wound_per_hit'])}\n"
                f"wounds to save ≈ {float(step['expected_wounds_to_save']):.3f}"
                + (f", devastating critical wounds ≈ {float(step['expected_mortal_wound_attacks']):.3f}"
                   if criticals else "") + "\n"
                f"save against {step['first_group']}: P(save fails) = {chance(step['p_save_fails'])}; damage per "
                f"unsaved attack ≈ {float(step['expected_damage_per_unsaved']):.3f}\n"
                f"after this weapon: models destroyed ≈ {float(step['expected_models_destroyed_so_far']):.3f}, "
                f"wounds lost ≈ {float(step['expected_wounds_lost_so_far']):.3f}"
                + (f"; {step['hazard_rolls']} hazard roll(s) for the attacker" if step.get("hazard_rolls") else ""))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """The same attack under each ruleset named, side by side, with each one's difference from the first."""
    from rules import spec
    from rules40k import compare_editions

    data, source = _read_scenario_source(args.scenario)
    try:
        names = compare_editions.parse_rulesets(args.rulesets)
        answer = compare_editions.compare(data, names, source)
    except compare_editions.CompareError as error:
        raise UsageError(str(error)) from None
    labels = {name: spec.ruleset(name).get("short", name) for name in names}
    if args.plot:
        plot_path = Path(args.plot)
        if plot_path.suffix not in {".svg", ".png", ".pdf"}:
            raise UsageError(f"{args.plot}: the plot must be an .svg, .png or .pdf file")
        compare_editions.plot(answer, plot_path, labels)
    if args.json:
        print(json.dumps(compare_editions.as_json(answer, _ratio), indent=2))
        return 0
    console = _console()
    results, base = answer["results"], names[0]
    table = _table(title="Models destroyed, the same attack under each ruleset")
    table.add_column("models", justify="right")
    for name in names:
        table.add_column(labels[name], justify="right")
    for name in names[1:]:  # the rulesets' short names: a difference column stays narrow
        table.add_column(f"{name} − {base}", justify="right")
    counts = sorted({k for result in results.values() for k in result.models_destroyed})
    for k in counts:
        cells = [_percent(results[name].models_destroyed.get(k, 0)) for name in names]
        cells += [_points(answer["differences"][name]["models_destroyed"][k], args.exact) for name in names[1:]]
        table.add_row(str(k), *cells)
    console.print(table)
    for name in names:
        result = results[name]
        console.print(f"{labels[name]}: {float(result.expected_models_destroyed):.2f} models destroyed and "
                      f"{float(result.expected_wounds_lost):.2f} wounds lost on average"
                      + (f" (exactly {_ratio(result.expected_models_destroyed)} and "
                         f"{_ratio(result.expected_wounds_lost)})" if args.exact else "") + ".")
    for name in names[1:]:
        diff = answer["differences"][name]
        console.print(f"{labels[name]} against {labels[base]}: {_signed(diff['expected_models_destroyed'])} models "
                      f"and {_signed(diff['expected_wounds_lost'])} wounds on average; the chances of a count differ "
                      f"by at most {float(diff['largest_gap']) * 100:.1f} percentage points.")
    return 0


def _points(change, exact: bool) -> str:
    """A change in a chance, in percentage points (+3.2 pp), exact beside it on request."""
    if change == 0:
        return "0"
    points = float(change) * 100
    text = f"{points:+.1f} pp" if abs(points) >= 0.05 else f"{'-' if points < 0 else '+'}<0.1 pp"
    return f"{text} ({'-' if change < 0 else '+'}{_ratio(abs(change))})" if exact else text


def _signed(value) -> str:
    return f"{float(value):+.2f}"


def cmd_score(args: argparse.Namespace) -> int:
    """Replay a mission pack game's scoring moments and print its scoring sheet."""
    import yaml

    from rules import safe_yaml
    from rules.missionpack import scoring

    name = _ruleset_name(args, default="missionpack")
    if name != "missionpack":
        raise UsageError(f"the {name} ruleset has no scoring ledger (only missionpack has one)")
    text, source = _read_source(args.game)
    try:
        # refuses a key written twice and aliases that repeat too much (a YAML bomb), and reads no further than
        # the first scoring moment no battle has room for
        data = safe_yaml.load_head(text, "events", scoring.most_moments_in_a_battle() + 1)
    except yaml.YAMLError as error:
        where = safe_yaml.place(error)
        raise UsageError(f"{source}:{where}{':' if where else ''} not valid YAML or JSON "
                         f"({safe_yaml.problem(error)})") from None
    try:
        sheet = scoring.scoring_sheet(scoring.read_game(data, source))
    except scoring.ScoringError as error:
        raise _about(source, error) from None
    if args.json:
        print(json.dumps(sheet, indent=2, ensure_ascii=False))
        return 0
    console = _console()
    console.print(f"[bold]{sheet['mission']}[/] ({sheet['battle_size']})")
    for player in scoring.PLAYERS:
        half = sheet[player]
        table = _table(title=f"{player.title()}: {half['total']} / {scoring.MAXIMUM_SCORE} victory points"
                      + (" (conceded)" if half["conceded"] else ""))
        names = [half["primary"], *half["secondaries"]]
        table.add_column("battle round")
        for column in names:
            table.add_column(column, justify="right")
        keys = list(half["objective_totals"])
        for row, cells in half["rounds"].items():
            table.add_row(row, *(str(cells[k]) for k in keys))
        caps = [scoring.PRIMARY_CAP] + [scoring.SECONDARY_CAP] * len(half["secondaries"])
        table.add_row("objective totals", *(f"{half['objective_totals'][k]}/{cap}" for k, cap in zip(keys, caps)))
        table.add_row("Battle Ready", str(half["battle_ready_score"]), *([""] * len(half["secondaries"])))
        console.print(table)
    console.print(f"Result: [bold]{sheet['result']}[/]")
    return 0


def _answer_words(value: Any) -> str:
    """A comparison's answer as a player reads it: yes/no, names in lower case, several answers joined."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " / ".join(_answer_words(v) for v in value)
    if value is None:
        return "no answer"
    return value.replace("_", " ").lower() if isinstance(value, str) else str(value)


def _print_ruleset_review(report: dict) -> None:
    """A review of a derived ruleset against the Core Rules: counts, then the differences grouped by the derived
    ruleset's chapters (one sentence each), then the agreements and the claims not compared, each with its reason."""
    from rules40k import compare

    console = _console()
    derived = report["ruleset"].split(" ")[0]
    console.rule(f"[bold]review of {report['ruleset']}[/]: {report['old']} → {report['new']}")
    verdicts = report["verdicts"]
    tally = {status: [v for v in verdicts if v["status"] == status] for status in compare.VERDICTS}
    cells = report["tables"]["changed"]
    console.print(f"{len(verdicts)} claims: " + ", ".join(f"{len(tally[s])} {compare.LABELS[s]}"
                                                          for s in compare.VERDICTS if tally[s])
                  + f"; {sum(t['changed'] for t in cells.values()):,} input cells differ in all.", markup=False)
    if tally["differs"]:
        from rules import spec

        mine = spec.ruleset(derived).get("short", derived) if derived in spec.rulesets() else derived
        console.print(f"\n[bold]Differences[/], by topic (each answer as {mine} gives it, then as the Core Rules "
                      "do):")
    for topic in dict.fromkeys(v["topic"] for v in tally["differs"]):
        console.print(f"  [bold]{topic}[/]")
        for verdict in (v for v in tally["differs"] if v["topic"] == topic):
            table = cells[verdict["refs"][0]]
            first = table["cells"][0]
            console.print(f"    {verdict['title']} ({verdict['refs'][0].split(':', 1)[1]}): {table['changed']:,} of "
                          f"{table['total']:,} inputs differ, e.g. {first['label']}: {_answer_words(first['old'])} "
                          f"against {_answer_words(first['new'])}.", markup=False)
    if tally["agrees"]:
        console.print(f"\n[bold]Agreements[/]: {len(tally['agrees'])} claims give the Core Rules' answer on every input "
                      f"of their domain (at least {compare.MIN_CASES} each):")
        console.print("  " + ", ".join(v["refs"][0].split(":", 1)[1] for v in tally["agrees"]) + ".", markup=False)
    few = ": too few to tell agreement from coincidence"
    for status in ("agrees-on-few", "cannot-tell", "absent-from-core", "left-to-app", "not-encoded"):
        if tally[status]:
            label = compare.LABELS[status]
            console.print(f"\n[bold]{label[0].upper()}{label[1:]}[/] ({len(tally[status])})"
                          + (f"{few}:" if status == "agrees-on-few" else ":"))
        for verdict in tally[status]:
            console.print(f"  {verdict['refs'][0].split(':', 1)[1]}: {verdict['detail'].removesuffix(few)}", markup=False)
    unreached = report.get("concept_text", {}).get("unreached", [])
    if unreached:
        console.print(f"\n{len(unreached)} Core Rules sections are reached by no claim of the {derived} ruleset "
                      "(--json lists them).")
    _print_outcomes(report)


def _print_review(report: dict) -> None:
    """The terminal summary of a review: counts first, then what changed, part by part."""
    if report.get("kind") == "rulesets":
        _print_ruleset_review(report)
        return
    console = _console()
    console.rule(f"[bold]review of {report['ruleset']}[/]: {report['old']} → {report['new']}")
    if report["unchanged"]:
        console.print("[green]Nothing changed[/]: same text, table cells, verdicts, findings"
                      + (" and outcomes." if report.get("outcomes") else "."))
    else:
        console.print(", ".join(f"{k}: {v}" for k, v in report["counts"].items() if v))
    text = report["text"]
    for kind in ("added", "removed"):
        for entry in text[kind]:
            console.print(f"  {kind}: {entry['ref']} {entry['title']}", markup=False)
    for entry in text["renumbered"]:
        console.print(f"  renumbered: {entry['old']} → {entry['new']} {entry['title']}"
                      + (" (and reworded)" if "diff" in entry else ""), markup=False)
    for entry in text["changed"][:30]:
        words = " ".join(f"[-{w}-]" if op == "-" else f"{{+{w}+}}" for op, w in entry["diff"] if op != "=")
        console.print(f"  changed: {entry['ref']} {entry['title']}: {words[:300]}", markup=False)
    for name, table in report["tables"]["changed"].items():
        console.print(f"  table {name} ({', '.join(table['refs'])}): {table['changed']} of {table['total']} cells "
                      "changed", markup=False)
        for cell in table["cells"][:12]:
            console.print(f"    {cell['label']}: {cell['old']} → {cell['new']}", markup=False)
        if table["changed"] > 12:
            console.print(f"    … and {table['changed'] - 12} more (--json lists every cell)")
    for entry in report["checks"]["changed"]:
        console.print(f"  verdict: {entry['id']}: {entry['old']} → {entry['new']}", markup=False)
    for kind in ("appeared", "disappeared"):
        for entry in report["findings"][kind]:
            console.print(f"  finding {kind}: {entry['id']}", markup=False)
    for entry in report["stale"]["text_changed_code_not"]:
        console.print(f"  [yellow]stale code[/]: {entry['ref']} {entry['title']}: {entry['why']}")
    for entry in report["stale"]["behaviour_changed_text_not"]:
        console.print(f"  [red]behaviour changed with no new wording[/]: {entry['ref']} {entry['title']} "
                      f"({'; '.join(entry['evidence'][:3])})")
    _print_outcomes(report)


def _print_outcomes(report: dict) -> None:
    """The sweep's part of a review: how many matchups moved, and the largest moves."""
    console = _console()
    outcomes = report.get("outcomes")
    if outcomes and not outcomes.get("applies", True):
        console.print(f"  outcomes: the sweep does not apply: {outcomes['why']}")
    elif outcomes:
        c = outcomes["counts"]
        compared = c.get("total", 0) - c.get("not_comparable", 0)
        console.print(f"  outcomes: {c.get('changed', 0)} of {compared} matchups moved "
                      f"({c.get('increased', 0)} up, {c.get('decreased', 0)} down)"
                      + (f"; {c['not_comparable']} of the {c.get('total', 0)} use rules one ruleset does not have, "
                         "so they are not compared" if c.get("not_comparable") else ""))
        from fractions import Fraction

        for entry in outcomes.get("changed", [])[:10]:
            if entry.get("shift") is None:
                console.print(f"    {entry['id']}: {entry['old']} → {entry['new']}", markup=False)
                continue
            console.print(f"    {entry['id']}: {float(Fraction(entry['old'])):.3f} → {float(Fraction(entry['new'])):.3f} "
                          f"({float(Fraction(entry['shift'])):+.3f} models destroyed)", markup=False)
    if report.get("timings"):
        console.print("time: " + ", ".join(f"{k} {v:.1f}s" for k, v in report["timings"].items()), style="dim")


def cmd_review(args: argparse.Namespace) -> int:
    """What a change to the rules does to play: text, table cells, verdicts, findings, outcomes, stale code."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from rules40k import review
    from rules40k.review import sweep as sweeps

    if args.plot and Path(args.plot).suffix not in {".svg", ".png"}:
        raise UsageError(f"{args.plot}: the plot must be an .svg or .png file")
    if args.plot and not Path(args.plot).resolve().parent.is_dir():
        raise UsageError(f"{args.plot}: its folder does not exist")
    if "@" in args.old or "@" in args.new:  # an in-tree version of a ruleset: m41@006 against m41@007
        return _review_variants(args)
    ruleset = _ruleset_name(args)
    executor = sweeps.dask_executor(args.scheduler) if args.scheduler else None
    with Progress(TextColumn("[bold]review[/] {task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=Console(stderr=True),
                  disable=args.json or not sys.stderr.isatty()) as bar:
        tasks: dict[str, Any] = {}

        def progress(description: str, done: int, total: int) -> None:
            if description not in tasks:
                tasks[description] = bar.add_task(description, total=total)
            bar.update(tasks[description], completed=done, total=total)

        report = review.review(args.old, args.new, ruleset=ruleset, checks=not args.no_checks,
                               properties=args.properties, sweep=not args.no_sweep, executor=executor,
                               progress=progress, timeout=args.timeout)
    if args.plot and report.get("outcomes") and report["outcomes"].get("applies", True):
        sweeps.plot_shift(report["outcomes"], Path(args.plot))
    if args.save:
        from rules40k.checks import write_results

        write_results(report, Path(args.save))
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False, default=str))
    else:
        if not args.timings:
            report = {k: v for k, v in report.items() if k != "timings"}
        _print_review(report)
    return 0


def _review_variants(args: argparse.Namespace) -> int:
    """`review m41@006 m41@007`: a ruleset against an in-tree version of it (rules40k.review.variants); the plot path
    was checked by cmd_review before any work."""
    from rules40k.review import variants

    report = variants.review_variants(args.old, args.new, sweep=not args.no_sweep)
    if args.plot and report["whole"]["outcomes"].get("applies"):
        from rules40k.review import sweep as sweeps

        sweeps.plot_shift(report["whole"]["outcomes"]["plot"], Path(args.plot))
    if args.save:
        from rules40k.checks import write_results

        write_results(report, Path(args.save))
    print(json.dumps(report, indent=2, ensure_ascii=False, default=str) if args.json else "\n".join(variants.lines(report)))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from rules40k import bench

    from rules import scenario

    _calculator_ruleset(args)
    if not args.scenario:
        if args.max_seconds is not None:
            raise UsageError("--max-seconds limits the simulation of scenario files; the ladders cap theirs with "
                             "--max-trials")
        return _bench_ladder(args)
    if args.max_seconds is None:
        args.max_seconds = bench.MAX_SIMULATION_SECONDS
    paths = args.scenario
    for path in paths:  # every scenario read as calc reads it, so a bad one is one sentence before any timing
        if not Path(path).is_file():
            raise UsageError(f"{path}: no such scenario file")
        data, name = _read_scenario_source(str(path))
        try:
            scenario.read_scenario(data, name)
        except (scenario.ScenarioError, ValueError) as error:
            raise _about(name, error) from None
    rows = bench.run(paths, repeats=args.repeats, precision=args.precision, max_trials=args.max_trials,
                     max_seconds=args.max_seconds)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    table = _table(title=f"Exact calculator against a simulation reaching ±{args.precision} on the mean")
    for column in ("scenario", "attacks", "exact (s)", "peak MiB", "trials for ±", "simulation (s)", "exact faster by",
                   "E[destroyed]", "simulated"):
        table.add_column(column, justify="right")
    for row in rows:
        sim = f"{row['simulation_seconds_for_precision']:.2f}" + (" (extrapolated)" if row["simulation_extrapolated"] else "")
        table.add_row(row["scenario"], f"{row['expected_attacks']:.0f}", f"{row['exact_seconds']:.3f}",
                      f"{row['exact_peak_mib']:.1f}", str(row["simulation_trials_for_precision"]), sim,
                      f"{row['exact_faster_by']:.0f}x", f"{row['expected_models_destroyed']:.4f}",
                      f"{row['simulated_mean']:.4f}")
    console = _console()
    console.print(table)
    limits = {"time": f"--max-seconds {args.max_seconds:g}", "trials": f"--max-trials {args.max_trials}"}
    for row in rows:
        if row["simulation_capped_by"]:
            console.print(f"{row['scenario']}: the simulation stopped after {row['simulation_trials_run']:,} of the "
                          f"{row['simulation_trials_for_precision']:,} trials a precision of ±{args.precision:g} needs (the "
                          f"{limits[row['simulation_capped_by']]} limit); its time is extrapolated", markup=False)
    return 0


def cmd_mutate(args: argparse.Namespace) -> int:
    """Mutation testing: each mutant of the rule modules against the checks of the sections it touches."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from rules import spec
    from rules40k import atomic, mutate

    ruleset = _ruleset_name(args, default=None)
    names = [ruleset] if ruleset else list(spec.rulesets())
    modules = [m for name in names for m in mutate.modules_of(name)]
    if args.module is not None:  # `--module ''` names no module; it must not mean every module
        wanted = args.module if args.module.startswith(("rules.", "rules40k.")) else f"rules.{args.module}"
        if wanted not in modules:
            raise UsageError(f"--module {_shown(args.module)} is not a rule module of "
                             f"{'the ruleset ' + ruleset if ruleset else 'any ruleset'} (e.g. core.objectives)")
        modules = [wanted]
    if args.index and not args.module:
        raise UsageError("--index needs --module: mutants are numbered within their module")
    if args.index and max(args.index) >= len(mutate.mutants(modules[0])):
        raise UsageError(f"--index {max(args.index)}: {args.module} has {len(mutate.mutants(modules[0]))} mutants, "
                         "numbered from 0")
    ref = None
    if args.ref is not None:
        args.ruleset = ruleset
        name, local = _ruleset_and_ref(args)
        _known_ref(local, name)
        ref = spec.qualify(name, local)
    complete = ref is None and args.sample is None and not args.index
    output = Path(args.output)
    if complete and output.exists():  # before the run: a whole-module run adds to the report it names
        _mutation_report(output)
    console = _console()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=args.json) as bar:
        task = bar.add_task("mutants", total=None)

        def progress(text: str, done: int, total: int) -> None:
            bar.update(task, description=text[:50], completed=done, total=total)

        report = mutate.run(modules, ref=ref, sample_size=args.sample, jobs=args.jobs, timeout=args.timeout,
                            seed=args.seed, progress=progress, indexes=set(args.index) if args.index else None,
                            killed_before=_killed_before(args, modules) if args.recheck else None)
    with mutate.report_lock(output) if complete else contextlib.nullcontext():  # other modules' runs may end now
        if complete and output.exists():  # a whole-module run updates those modules in the accumulated report
            try:
                report = mutate.merge(_mutation_report(output), report)
            except (KeyError, TypeError):
                raise UsageError(f"{output}: not a mutation report to add to (delete it, or name another --output)")
        atomic.write_text(output, json.dumps(report, indent=1, sort_keys=True) + "\n")
    if args.json:
        print(json.dumps(report, indent=1, sort_keys=True))
        return 0
    shown = [m for m in report["modules"] if m in modules]
    table = _table(title=f"Mutation score per module ({sum(report['modules'][m]['mutants'] for m in shown)} "
                        f"mutants; report in {output})")
    for column in ("module", "mutants", "killed", "survived", "equivalent", "not run", "score"):
        table.add_column(column, justify="right")
    for module in shown:
        row = report["modules"][module]
        score = "—" if row["score"] is None else f"{100 * row['score']:.0f}%"
        table.add_row(module.removeprefix("rules."), str(row["mutants"]), str(row["killed"]), str(row["survived"]),
                      str(row["equivalent"]), str(row["not_run"]), score)
    console.print(table)
    for row in report["mutants"]:
        if row["module"] in modules and row["status"] == "survived":
            console.print(f"survived: #{row['index']} {row['module']}:{row['line']} {row['function']} "
                          f"({row['kind']}): {row['change']}", markup=False, highlight=False)
    for name, function in report["functions"].items():
        if function["module"] in modules and not function["called"]:
            console.print(f"not called by any check it faces: {name}", markup=False, highlight=False)
    return 0


def _mutation_report(path: Path) -> dict:
    """An existing mutation report a whole-module run adds to, or one sentence: any other file (results.json, {}) is
    never merged into and replaced."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        report = None
    if not (isinstance(report, dict) and isinstance(report.get("modules"), dict)
            and isinstance(report.get("mutants"), list) and isinstance(report.get("functions"), dict)):
        raise UsageError(f"{path}: not a mutation report to add to (delete it, or name another --output)")
    return report


def _killed_before(args: argparse.Namespace, modules: list[str]) -> dict:
    """For --recheck: the killed rows of the report's whole-module runs of the same source, by (module, index)."""
    from rules40k import mutate

    if args.ref or args.sample or args.index:
        raise UsageError("--recheck updates whole modules: it takes no --ref, --sample or --index")
    report = mutate.measured(Path(args.output))
    missing = [m for m in modules if m not in report["modules"]]
    if missing:
        raise UsageError(f"--recheck: {missing[0]} has no whole run of its current source in {args.output} "
                         "(run it without --recheck)")
    return {(r["module"], r["index"]): r for r in report["mutants"] if r["module"] in modules and r["killed"] is True}


def _bench_ladder(args: argparse.Namespace) -> int:
    """`rules40k bench` without scenarios: the ladder against icepool and the simulation, and calc's start-up."""
    from rules40k import bench_ladder

    console = _console()
    if args.ladder == "changed":
        return _bench_changed(args, console)
    sizes = args.sizes or bench_ladder.SIZES
    trials = args.max_trials or 200

    def progress(row: dict) -> None:
        if not args.json:
            console.print(f"[dim]{row['target']}, {row['attacks']} attacks: {row['exact_seconds']:.3f} s[/dim]")

    report: dict = {}
    if args.ladder in ("plain", "both"):
        report = bench_ladder.run(sizes, repeats=args.repeats, trials=trials, icepool_budget=args.icepool_budget,
                                  progress=progress)
    if args.ladder in ("hard", "both"):
        from rules40k import bench_hard

        def hard_progress(row: dict) -> None:
            if not args.json:
                console.print(f"[dim]hard: {row['target']}, {row['attacks']} attacks: {row['exact_seconds']:.3f} s, "
                              f"{row['peak_mib']:.0f} MiB[/dim]")

        report["hard"] = bench_hard.run(repeats=args.repeats, icepool_budget=args.icepool_budget,
                                        progress=hard_progress)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    if "rungs" in report:
        _print_plain_ladder(console, report, trials)
    if "hard" in report:
        _print_hard_ladder(console, report["hard"])
    return 0


def _bench_changed(args: argparse.Namespace, console) -> int:
    """`rules40k bench --ladder changed`: the feedback loop's times (rules40k.bench_changed)."""
    from rules40k import bench_changed

    def progress(row: dict) -> None:
        if not args.json:
            what = f"after editing {row['edit']}" if row["edit"] else "bringing the copy's record up to date"
            console.print(f"[dim]verify --changed {what}: {row['seconds']:.1f} s, {row['rerun']} checks rerun[/dim]")

    report = bench_changed.run(progress=progress)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    table = _table(title=f"verify --changed answering a one-function edit (target under {report['target_seconds']:g} s)")
    for column in ("edit", "s", "checks rerun", "reused", "met"):
        table.add_column(column, justify="right" if column != "edit" else "left")
    for row in report["runs"]:
        table.add_row(row["edit"] or f"(first: {row['everything'] or 'the record was up to date'})",
                      f"{row['seconds']:.1f}", str(row["rerun"]), str(row["reused"]),
                      "—" if row["edit"] is None else "yes" if row["meets_target"] else "NO")
    console.print(table)
    console.print("s: the whole `rules40k verify --changed` process, start-up included, under the hypothesis profile "
                  f"{report['hypothesis_profile']} (HYPOTHESIS_PROFILE, as verify reads it) and with compiled bytecode kept "
                  "between runs; each edit adds a comment line inside the function, so every verdict stays as it was.")
    return 0


def _print_hard_ladder(console, rows: list[dict]) -> None:
    from rich import box

    from rules40k import bench_hard

    table = _table(title=f"Hard ladder: each rung in a fresh process, targets {bench_hard.SECONDS_TARGET:g} s and "
                        f"{bench_hard.MIB_TARGET:g} MB", box=box.SIMPLE_HEAD, padding=(0, 1), collapse_padding=True,
                  pad_edge=False)
    for column in ("target", "D", "A", "exact s", "peak MiB", "met", "icepool s", "×", "same"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in rows:
        peer = "icepool_seconds" in row
        table.add_row(row["target"], row["damage"], str(row["attacks"]), f"{row['exact_seconds']:.3f}",
                      f"{row['peak_mib']:.0f}", "yes" if row["meets_targets"] else "NO",
                      f"{row['icepool_seconds']:.2f}" if peer else "—",
                      f"{row['icepool_over_exact']:.1f}" if peer else "—",
                      ("yes" if row["icepool_agrees"] else "NO") if peer else "—")
    console.print(table)
    console.print("peak MiB: the whole process's peak resident memory (Python included); ×: icepool's time over the "
                  "calculator's; same: icepool's distribution equals the calculator's exactly.")
    for reason in sorted({f"{row['target']}: {row['icepool']}" for row in rows if "icepool" in row}):
        console.print(f"icepool, {reason}")


def _print_plain_ladder(console, report: dict, trials: int) -> None:
    from rich import box

    table = _table(title="Exact calculator vs icepool and a simulation to ±0.01", box=box.SIMPLE_HEAD,
                  padding=(0, 1), collapse_padding=True, pad_edge=False)
    for column in ("target", "D", "A", "exact ms", "icepool ms", "×", "same", "sim ×", "MiB"):
        table.add_column(column, justify="right", no_wrap=True)

    def mib(value: float | None) -> str:
        return "?" if value is None else f"{value:.1f}"

    def ms(value: float) -> str:
        value *= 1000
        return f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:.0f}"

    for row in report["rungs"]:
        peer = "icepool_seconds" in row
        table.add_row(row["target"], row["damage"], str(row["attacks"]), ms(row["exact_seconds"]),
                      ms(row["icepool_seconds"]) if peer else "—",
                      f"{row['icepool_over_exact']:.1f}" if peer else "—",
                      ("yes" if row["icepool_agrees"] else "NO") if peer else "—",
                      f"{row['simulation_over_exact']:.0f}" + ("*" if row["simulation_extrapolated"] else ""),
                      mib(row["exact_peak_mib"]) + (f"/{mib(row['icepool_peak_mib'])}" if peer else ""))
    console.print(table)
    console.print("×: icepool's time (then the simulation's) over the calculator's; same: icepool's "
                  "distribution equals the calculator's exactly; MiB: peak memory, calculator/icepool (?: a run over 5 s is not repeated to measure it).")
    skipped = sorted({row["icepool"] for row in report["rungs"] if "icepool" in row})
    for reason in skipped:
        console.print(f"icepool: {reason}")
    console.print(f"* the simulation's time extrapolated from {trials} trials. `rules40k calc` on examples/intercessors.json as a whole "
                  f"process: {report['calc_process_seconds']:.2f} s (best of 5).")


def _sizes(text: str) -> tuple[int, ...]:
    """An argparse type: attack counts for the ladder, "10,40,100"."""
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be attack counts separated by commas, not {_shown(text)}") from None
    if not all(1 <= n <= 1000 for n in sizes):
        raise argparse.ArgumentTypeError(f"every attack count must be from 1 to 1000, not {_shown(text)}")
    return sizes


def _previous_results(output: Path) -> dict:
    """The results file one section's run updates; anything else there is one sentence, not a traceback."""
    try:
        previous = json.loads(output.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise UsageError(f"{output}: cannot be read as earlier results ({_one_line(error, 80)}); "
                         "remove it or choose another --output") from None
    if not isinstance(previous, dict) or not isinstance(previous.get("checks", []), list):
        raise UsageError(f"{output}: is not a results document (expected an object with a 'checks' list)")
    return previous


def _shown(text: str) -> str:
    """A value as the user typed it, cut short enough for one line (the scenario reader's rule)."""
    from rules.messages import shown

    return shown(text)


def _whole_number(low: int, high: int | None = None):
    """An argparse type: a whole number of at least ``low`` (and at most ``high``: a count past it would run for
    days, not answer)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number of at least {low}, not {_shown(text)}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {_shown(value)}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}, not {_shown(value)}")
        return value

    return parse


def _port(text: str) -> int:
    """An argparse type: a TCP port to listen on, 1 to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a port from 1 to 65535, not {_shown(text)}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port from 1 to 65535, not {value}")
    return value


def _seconds(text: str) -> float:
    """An argparse type: a time limit in seconds, more than 0 and at most a day."""
    value = _positive_number(text)
    if value > 86400:
        raise argparse.ArgumentTypeError(f"must be at most 86,400 seconds (a day), not {_shown(text)}")
    return value


def _positive_number(text: str) -> float:
    """An argparse type: a finite number greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number greater than 0, not {_shown(text)}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number greater than 0, not {_shown(text)}")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse held to the project's promise for bad input: one sentence on stderr and exit status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def _build_folder(path: Path) -> Path:
    """A build folder to write into: created when missing if its own folder exists (the repository's build/
    always may be), never when a parent is missing; a file in its place is one sentence."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"{path}: is a file where the build folder belongs (move it away"
                         + (", or choose another folder with --build)" if path != BUILD_ROOT else ")"))
    if not path.exists() and path.resolve() != BUILD_ROOT.resolve() and not path.resolve().parent.is_dir():
        raise UsageError(f"{path}: its folder {path.parent} does not exist")
    try:
        path.mkdir(exist_ok=True)
    except OSError as error:
        raise UsageError(f"{path}: the build folder cannot be created ({error.strerror})") from None
    return path


def _check_outputs(args: argparse.Namespace) -> None:
    """Check every path a verb will write before it starts its work, so a mistyped path costs nothing."""
    from rules40k import atomic

    def output(path: str) -> None:
        if Path(path).resolve().parent == BUILD_ROOT.resolve():
            _build_folder(BUILD_ROOT)
        elif Path(path).resolve() == (REPO_ROOT / "reports" / "mutation.json").resolve():
            _build_folder(REPO_ROOT / "reports")  # the project's own report folder, like build/
        atomic.check_target(path)

    if args.verb == "mutate" and args.output is None:
        whole = args.ref is None and args.sample is None and not args.index  # whole modules: the site's report
        args.output = str(REPO_ROOT / "reports" / "mutation.json" if whole else BUILD_ROOT / "mutation-partial.json")
    if args.verb in ("verify", "mutate"):
        output(args.output)
        if args.verb == "verify" and args.changed:
            if args.ref:
                raise UsageError("--changed works on whole rulesets: it takes no --ref (which already runs one "
                                 "section's checks)")
            output(str(BUILD_ROOT / "verify-cache.json"))  # where the last run's record is kept
    elif args.verb == "calc" and args.plot:
        output(args.plot)
    elif args.verb == "review":
        if args.scheduler is not None:
            from rules40k.review import sweep

            sweep.check_scheduler_address(args.scheduler)
        if BUILD_ROOT.exists() and not BUILD_ROOT.is_dir():  # the revisions' snapshots are cached in it
            _build_folder(BUILD_ROOT)
        for path in (args.plot, args.save):
            if path:
                output(path)
    elif args.verb == "site":
        from rules40k_site import generate

        # Every option before any work: a bad one must not cost the checks and replace results.json.
        _ruleset_name(args, default=None)
        if args.site_url is not None:
            generate.check_site_url(args.site_url)
        if not args.build.strip():
            raise UsageError("--build: an empty path names no folder (the default is build/)")
        build = Path(args.build).resolve()  # absolute: MkDocs runs in the build folder, which a relative path misses
        generate.check_build_place(build)  # not the repository's folder, nor inside its sources
        build = _build_folder(build)
        generate.check_build_folder(build)
        args.build = str(build)
    elif args.verb == "ingest":
        from rules40k import ingest

        if not args.spec.strip():
            raise UsageError("--spec: an empty path names no folder (the default is the repository's spec/)")
        ingest.check_spec_folder(Path(args.spec))  # it must exist: nothing is created outside it


def _ruleset_option(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--ruleset", "--document", dest="ruleset", default=None, metavar="NAME", help=help)


def parser() -> argparse.ArgumentParser:
    root = _Parser(prog="rules40k", description="Rules-as-code verification suite for Warhammer 40,000.")
    verbs = root.add_subparsers(dest="verb", required=True)

    p = verbs.add_parser("ingest", help="parse a source document into spec/ YAML")
    p.add_argument("document", help="the source document (.txt)")
    _ruleset_option(p, "which ruleset the document is (core, missionpack, ninth; see spec/rulesets.yaml)")
    p.add_argument("--spec", default=str(SPEC_ROOT), help="spec folder to write (default: the repository's spec/)")
    p.add_argument("--json", action="store_true", help="print the ingest report as JSON")
    p.add_argument("--printing", metavar="NAME",
                   help="only keep a copy of another printing of the ruleset that its evidence quotes, as "
                        "spec/sources/<ruleset>-NAME.txt (its sections are not ingested)")
    p.add_argument("--title", help="with --printing: the kept document's title")
    p.set_defaults(run=cmd_ingest)

    p = verbs.add_parser("show", help="print a section's text, status and functions")
    p.add_argument("ref", help="a reference such as 05.02, appendix/destroyed or missionpack:secondary/linebreaker")
    _ruleset_option(p, "the ruleset of a local reference (default: core)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_show)

    p = verbs.add_parser("coverage", help="print the coverage ledger (exit 1 if a section is missing)")
    _ruleset_option(p, "one ruleset (default: every ruleset)")
    p.add_argument("--json", action="store_true", help="print a JSON list of ledger rows")
    p.set_defaults(run=cmd_coverage)

    p = verbs.add_parser("printings", help="where a ruleset's printings differ, and what accounts for each difference "
                                            "(exit 1 if something does not)")
    _ruleset_option(p, "the ruleset whose printings to compare (default: core)")
    p.add_argument("--json", action="store_true", help="print a JSON list of the differing rows")
    p.set_defaults(run=cmd_printings)

    p = verbs.add_parser("verify", help="run examples, table checks, proofs and properties; write results.json")
    _ruleset_option(p, "one ruleset (default: every ruleset)")
    p.add_argument("--ref", help="only the checks of one section")
    p.add_argument("--output", default=str(BUILD_ROOT / "results.json"))
    p.add_argument("--no-properties", action="store_true", help="skip the hypothesis properties (faster)")
    p.add_argument("--changed", action="store_true",
                   help="rerun only the checks whose verdict an edit since the last --changed run can change, "
                        "reuse the other verdicts (recorded in build/verify-cache.json)")
    p.add_argument("--verbose", action="store_true", help="list passing checks too (with --changed: why each reran)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_verify)

    p = verbs.add_parser("calc", help="exact outcome distribution of an attack scenario (JSON)")
    p.add_argument("scenario", help="scenario JSON file, or - for standard input")
    p.add_argument("--json", action="store_true", help="machine output with exact p/q probabilities")
    p.add_argument("--explain", action="store_true", help="step-by-step probabilities for each weapon")
    p.add_argument("--exact", action="store_true", help="show the exact p/q chances beside the percentages")
    p.add_argument("--plot", metavar="FILE.svg", help="draw the distributions (.svg, .png or .pdf)")
    _ruleset_option(p, "the ruleset whose attack rules to use (core, ninth or quickref)")
    p.set_defaults(run=cmd_calc)

    from rules40k import template_command  # 999.m41's blasts and templates over a formation

    template_command.add_parser(verbs)

    p = verbs.add_parser("compare", help="the same attack scenario under several rulesets' attack rules, side by side")
    p.add_argument("scenario", help="scenario JSON file, or - for standard input (an `editions` key may restate its "
                                    "weapons, target, context or choices for one ruleset)")
    p.add_argument("--rulesets", required=True, help="two or more rulesets with attack rules, joined by commas; the "
                                                     "first is the baseline (e.g. core,quickref)")
    p.add_argument("--json", action="store_true", help="machine output with exact p/q probabilities")
    p.add_argument("--exact", action="store_true", help="show the exact p/q beside the rounded figures")
    p.add_argument("--plot", metavar="FILE.svg", help="draw the distributions and differences (.svg, .png or .pdf)")
    p.set_defaults(run=cmd_compare)

    p = verbs.add_parser("bench", help="time the exact calculator against icepool and a dice-rolling simulation")
    p.add_argument("scenario", nargs="*",
                   help="scenario files to time against the simulation (default: the ladder of 10 to 400 attacks "
                        "into four targets, against icepool and the simulation)")
    p.add_argument("--sizes", type=_sizes, default=None, help="the ladder's attack counts (default 10,40,100,200,400)")
    p.add_argument("--ladder", choices=("plain", "hard", "both", "changed"), default="both",
                   help="which ladder: the plain one (10 to 400 attacks, four targets), the hard one (scenarios once "
                        "refused or slow, each in a fresh process), both, or `changed`: `verify --changed` "
                        "answering a one-function edit, as a whole process in a copy of the project")
    p.add_argument("--icepool-budget", type=_seconds, default=60.0,
                   help="seconds an icepool rung may take before the larger rungs of that target skip icepool")
    p.add_argument("--repeats", type=_whole_number(1, 100), default=3,
                   help="exact runs to take the best time of (1 to 100)")
    p.add_argument("--precision", type=_positive_number, default=0.01,
                   help="the simulation's target 95%% half-width on the mean (> 0)")
    p.add_argument("--max-trials", type=_whole_number(1, 10 ** 7), default=None,
                   help="cap simulated trials (1 to 10,000,000) and extrapolate the time (marked as extrapolated)")
    p.add_argument("--max-seconds", type=_seconds, default=None,
                   help="with scenario files: stop each simulation after this many seconds and extrapolate its time "
                        "(default 20)")
    p.add_argument("--json", action="store_true")
    _ruleset_option(p, "the ruleset whose attack rules to use (the ladders are the Core Rules')")
    p.set_defaults(run=cmd_bench)

    p = verbs.add_parser("mutate", help="mutation testing: break the rule code one change at a time, see checks fail")
    _ruleset_option(p, "mutate this ruleset's modules only (default: every ruleset)")
    p.add_argument("--module", help="one rule module, e.g. core.objectives")
    p.add_argument("--ref", help="only mutants of functions tagged with this section")
    p.add_argument("--sample", type=_whole_number(1), default=None, help="a random sample of N mutants (for CI)")
    p.add_argument("--recheck", action="store_true",
                   help="rerun only what an earlier whole run of the same source did not kill (after adding checks)")
    p.add_argument("--index", type=_whole_number(0), action="append",
                   help="only the mutant with this number in --module (repeatable), e.g. to recheck a survivor")
    p.add_argument("--seed", type=_whole_number(0), default=0, help="the sample's seed")
    p.add_argument("--jobs", type=_whole_number(1, 256), default=2, help="mutants run at once (default 2)")
    p.add_argument("--timeout", type=_seconds, default=300.0,
                   help="seconds before a mutant's checks count as killed by a hang (default 300)")
    p.add_argument("--output", default=None,
                   help="the report (JSON); a whole-module run adds to reports/mutation.json by default, a --ref or "
                        "--sample run writes build/mutation-partial.json")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_mutate)

    p = verbs.add_parser("score", help="replay a mission pack game's scoring moments; print its scoring sheet")
    p.add_argument("game", help="game record (YAML or JSON: mission, players, events), or - for standard input")
    p.add_argument("--json", action="store_true", help="print the filled-in scoring sheet as JSON")
    _ruleset_option(p, "the ruleset whose scoring to use (only missionpack has a ledger)")
    p.set_defaults(run=cmd_score)

    p = verbs.add_parser("review", help="what a change to the rules does to play (two git revisions, or two rulesets)")
    p.add_argument("old", help="a git revision (HEAD~3, a tag, a sha), a folder holding a copy of the project, "
                               "or a ruleset (quickref)")
    p.add_argument("new", nargs="?", default="worktree",
                   help="the same kinds; default: the working tree (for two rulesets: name both, e.g. quickref core)")
    _ruleset_option(p, "the ruleset whose revisions to compare (default: core)")
    p.add_argument("--no-checks", action="store_true", help="skip the examples, table checks and proofs")
    p.add_argument("--properties", action="store_true", help="also run the hypothesis properties of both versions")
    p.add_argument("--no-sweep", action="store_true", help="skip the calculator's sweep of matchups")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                   help="how long each version's snapshot may take before the review gives up (default 600; 3600 "
                        "with --properties)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the sweep on a Dask distributed cluster "
                   "(pip install -e '.[distributed]')")
    p.add_argument("--plot", metavar="FILE.svg", help="draw how the sweep's outcomes moved (.svg or .png)")
    p.add_argument("--save", metavar="FILE.json", help="also write the review as JSON (the site shows build/reviews/*.json)")
    p.add_argument("--timings", action="store_true", help="say how long each part took")
    p.add_argument("--json", action="store_true", help="print the whole review as JSON")
    p.set_defaults(run=cmd_review)

    p = verbs.add_parser("site", help="run the checks and build the annotated rulebook site")
    _ruleset_option(p, "build one ruleset's area only (default: every ruleset)")
    p.add_argument("--build", default=str(BUILD_ROOT), help="build folder (docs/, site/, results.json)")
    p.add_argument("--no-mkdocs", action="store_true", help="write the Markdown pages only")
    p.add_argument("--no-properties", action="store_true",
                   help="skip the hypothesis properties (faster; the site then shows no property verdicts)")
    p.add_argument("--site-url", metavar="URL", help="the address the site will be published at, for its sitemap "
                   "(default: mkdocs.yml's site_url, where --serve serves it)")
    p.add_argument("--serve", action="store_true", help="then serve the site on http://127.0.0.1:PORT/ until Ctrl-C")
    p.add_argument("--port", type=_port, default=8000, help="the port --serve listens on (1 to 65535, default 8000)")
    p.set_defaults(run=cmd_site)

    p = verbs.add_parser("site-weight", help="measure the built site's page weight against its targets (Chromium)")
    p.add_argument("--site", default=str(BUILD_ROOT / "site"), help="the built site (default build/site)")
    p.add_argument("--page", default="core/05.02.html", help="the section page whose first visit is measured")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_site_weight)

    p = verbs.add_parser("browser-setup", help="make sure headless Chromium runs for the browser tests (installs "
                         "Debian's chromium package when root)")
    p.set_defaults(run=cmd_browser_setup)
    return root


#: Errors that are the user's input, printed as one sentence with exit status 2. Named by module so that main
#: imports none of them: an error class whose module was never imported cannot have been raised.
USER_ERRORS = (
    ("rules40k.atomic", "OutputError"), ("rules40k.ingest", "IngestError"),
    ("rules40k.annotations", "AnnotationError"), ("rules.registry", "RegistryError"), ("rules.spec", "RulesetError"),
    ("rules40k_site.generate", "SiteError"), ("rules40k.checks", "ExampleError"),
    ("rules40k.review.versions", "ReviewError"), ("rules40k.review.sweep", "SweepError"),
    ("rules40k.mutate", "ReportError"), ("rules40k.browser", "BrowserError"), ("rules40k.page_weight", "WeightError"),
)


def _user_error(error: Exception) -> bool:
    kinds = tuple(getattr(sys.modules[module], name) for module, name in USER_ERRORS if module in sys.modules)
    return isinstance(error, (UsageError, *kinds))  # UsageError by class: under `python -m` this is __main__


Terminated = interrupts.Terminated  # SIGTERM's exception (a KeyboardInterrupt)
_on_signal = interrupts.on_signal


def _interrupted(args: argparse.Namespace, signum: int) -> int:
    print(f"rules40k {args.verb}: interrupted" if args.verb else "rules40k: interrupted", file=sys.stderr)
    return 128 + signum


def _one_line(text: str, limit: int = 200) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[:limit - 1] + "…"


def _quiet_stdout() -> None:
    """Standard output was closed (``| head``): send what is left to /dev/null so the exit flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (captured in tests)
        pass


def _run(args: argparse.Namespace) -> int:
    """Run a verb with the project's promises: one sentence on bad input, one line on Ctrl-C, SIGTERM, a closed
    pipe or an unexpected error, and never a traceback unless RULES40K_DEBUG=1 asks for it."""
    try:
        _check_outputs(args)
        status = args.run(args)
        interrupts.check()  # a signal whose exception a library swallowed still ends the run as interrupted
        sys.stdout.flush()  # a closed pipe shows here, inside the try, not at exit
        return status
    except KeyboardInterrupt as stop:
        return _interrupted(args, signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT)
    except BrokenPipeError:
        _quiet_stdout()
        return 128 + 13  # as if killed by SIGPIPE, like other tools whose reader stopped early
    except Exception as error:
        if interrupts.received:
            return _interrupted(args, interrupts.received[0])
        if _user_error(error):  # one line even when a value it names holds a line break (a path "a\nb")
            message = str(error).replace("\r", "\\r").replace("\n", "\\n")
            print(f"rules40k {args.verb}: {message}", file=sys.stderr)
            return 2
        if os.environ.get("RULES40K_DEBUG", "") not in ("", "0"):
            raise
        print(f"rules40k {args.verb}: internal error: {type(error).__name__}: {_one_line(error)} "
              "(rerun with RULES40K_DEBUG=1 for the traceback)", file=sys.stderr)
        return 70


def main(argv: list[str] | None = None) -> int:
    previous = interrupts.install()  # before any work, so that every verb ends the same way at any moment
    try:
        try:
            args = parser().parse_args(argv)
        except SystemExit as stop:  # --help, or bad arguments already printed as one sentence
            return stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 2
        except KeyboardInterrupt as stop:
            return _interrupted(argparse.Namespace(verb=None), signal.SIGTERM if isinstance(stop, Terminated)
                                else signal.SIGINT)
        return _run(args)
    finally:
        interrupts.restore(previous)


if __name__ == "__main__":
    sys.exit(main())

"""Run the checks that verify the rule functions and collect their verdicts.

A derived ruleset's claims are also compared with the Core Rules by computation (rules40k.compare):
their verdicts (agrees, differs, not covered) are recorded with the checks, and none is a failure.

The book's worked examples (data in spec/<doc>/annotations/examples), the z3
checks of every decision table, the registered z3 proofs (properties/proofs.py)
and the hypothesis properties marked with the sections they verify. Verdicts go to build/results.json;
the site renders that file and never decides a verdict itself.
"""

from __future__ import annotations

import collections
import collections.abc
import dataclasses
import enum
import functools
import importlib
import json
import re
import typing
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from rules import logic, registry, spec
from rules40k import annotations, compare, domains


class ExampleError(ValueError):
    """An example whose data cannot be run (bad call path or arguments)."""


def resolve(path: str) -> Callable:
    """The function ``rules.module.function`` names, if data may call it (``registry.named_function``: a rule
    function, or one meant for examples); anything else is an ExampleError and nothing of it runs."""
    try:
        return registry.named_function(path)
    except registry.RegistryError as error:
        raise ExampleError(str(error)) from None


def plain(value: Any) -> Any:
    """Results in the form example data is written in (Fraction -> "p/q", enum -> name)."""
    if isinstance(value, enum.Enum):  # before int: the outcome enums are IntEnums
        return value.name
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, float):
        return value
    if isinstance(value, enum.Enum):
        return value.name
    if dataclasses.is_dataclass(value):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = [plain(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    return value


def _convert(value: Any, hint: Any) -> Any:
    """Build dataclass arguments from the plain mappings written in example data."""
    origin = typing.get_origin(hint)
    if dataclasses.is_dataclass(hint) and isinstance(value, dict):
        fields = typing.get_type_hints(hint)
        return hint(**{k: _convert(v, fields.get(k, Any)) for k, v in value.items()})
    if origin in (list, tuple, typing.Sequence, typing.Iterable, collections.abc.Sequence, collections.abc.Iterable):
        args = typing.get_args(hint)
        inner = args[0] if args else Any
        if isinstance(value, list):
            converted = [_convert(v, inner) for v in value]
            return tuple(converted) if origin is tuple else converted
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        for option in typing.get_args(hint):
            if dataclasses.is_dataclass(option) and isinstance(value, dict):
                return _convert(value, option)
    if isinstance(hint, type) and issubclass(hint, enum.Enum) and not isinstance(value, hint):
        return _member(hint, value)
    if isinstance(value, str) and re.fullmatch(r"-?\d+/\d+", value):
        return Fraction(value)
    if hint is Fraction and isinstance(value, int):
        return Fraction(value)
    return value


def _member(kind: type[enum.Enum], value: Any) -> enum.Enum:
    """An enum member written in example data by its value ("fall-back") or its name ("FALL_BACK", "fall back"):
    left a string, it would never equal the member and the example would test nothing."""
    try:
        return kind(value)
    except ValueError:
        pass
    name = re.sub(r"[\s-]+", "_", str(value)).upper()
    if name in kind.__members__:
        return kind[name]
    raise ExampleError(f"{value!r} is not a {kind.__name__} (one of {', '.join(m.name for m in kind)})")


def call_example(example: dict) -> Any:
    function = resolve(example["call"])
    args = example.get("args") or {}
    try:
        hints = typing.get_type_hints(function)
    except Exception:  # noqa: BLE001 - hints are a convenience for building arguments
        hints = {}
    kwargs = {name: _convert(value, hints.get(name, Any)) for name, value in args.items()}
    return function(**kwargs)


def select(value: Any, path: str | None) -> Any:
    """Follow a dotted path ("profiles.1.W") into a plain result, so an example can pin one fact."""
    for part in (path or "").split(".") if path else []:
        if isinstance(value, list):
            value = value[int(part)]
        elif isinstance(value, dict):
            value = value[part] if part in value else value[int(part)]
        else:
            raise ExampleError(f"cannot select {part!r} from {value!r}")
    return value


def run_example(example: dict, ruleset: str = spec.DEFAULT_RULESET) -> dict:
    record = {
        "id": f"example:{spec.qualify(ruleset, example['id'])}",
        "kind": "example",
        "ruleset": ruleset,
        "refs": [spec.qualify(ruleset, example["ref"])],
        "name": example["name"],
        "expected": example["expect"],
    }
    try:
        actual = select(plain(call_example(example)), example.get("select"))
    except Exception as error:  # noqa: BLE001 - a failing example is a verdict, not a crash
        return {**record, "status": "error", "detail": f"{type(error).__name__}: {error}", "actual": None}
    status = "passed" if actual == example["expect"] else "failed"
    detail = "" if status == "passed" else f"expected {example['expect']!r}, got {actual!r}"
    return {**record, "status": status, "detail": detail, "actual": actual}


def tables(document: str = "core") -> list[logic.DecisionTable]:
    """Every decision table defined in a module that registers rule functions."""
    modules = {rule.function.__module__ for rules in registry.load(document).values() for rule in rules}
    found: dict[str, logic.DecisionTable] = {}
    for name in sorted(modules):
        for value in vars(importlib.import_module(name)).values():
            if isinstance(value, logic.DecisionTable):
                found[value.name] = value
    return [found[k] for k in sorted(found)]


def run_table(table: logic.DecisionTable, ruleset: str = spec.DEFAULT_RULESET) -> dict:
    report = logic.check_table(table)
    disagreements = logic.enumerate_agreement(table)
    problems = report.problems() + [f"concrete and z3 evaluation disagree at {d['inputs']}" for d in disagreements]
    # A narrowed input domain passes every check above while covering less: compare it with its pin.
    problems += domains.table_domain_problems(table, domains.pins(ruleset))
    return {
        "id": f"table:{spec.qualify(ruleset, table.name)}",
        "kind": "table",
        "ruleset": ruleset,
        "refs": [spec.qualify(ruleset, ref) for ref in table.refs],
        "name": f"Decision table {table.name!r} has no gap, no unreachable row and only declared overrides",
        "status": "passed" if not problems else "failed",
        "detail": "; ".join(problems),
        "rows": table.labels(),
        "overrides": [list(pair) for pair in report.declared_overlaps],
    }


def run_proofs(names: list[str] | None = None) -> list[dict]:
    """Registered z3 proofs (all, or the named ones), as check records with any counterexample."""
    from properties import proofs

    proofs.load_all()
    out = []
    pinned: dict[str, domains.Pins] = {}
    for name in names if names is not None else sorted(proofs.PROOFS):
        item = proofs.PROOFS[name]
        result = proofs.check(item)
        # A finding is a proof the rules as written are expected to fail.
        as_expected = result.status == item.expect
        status = ("finding" if item.expect == "disproved" else "passed") if as_expected else "failed"
        # Preconditions that exclude a value the rules allow prove less than the statement says.
        ruleset = spec.ruleset_of(result.refs)
        if ruleset not in pinned:
            pinned[ruleset] = domains.pins(ruleset)
        narrowed = domains.proof_domain_problems(item, pinned[ruleset])
        if narrowed:
            status = "failed"
            result.detail = "; ".join(narrowed + ([result.detail] if result.detail else []))
        out.append({
            "id": f"proof:{result.id}",
            "kind": "proof",
            "ruleset": spec.ruleset_of(result.refs),
            "refs": list(result.refs),
            "name": result.statement,
            "status": status,
            "verdict": result.status,
            "expect": item.expect,
            "detail": result.detail,
            "counterexample": result.counterexample,
            "example": result.example,
        })
    return out


@dataclasses.dataclass(frozen=True)
class Planned:
    """One check before it runs: ``key`` names it across runs (an example's, table's, proof's or comparison's
    check id; ``property:`` and the pytest node id of a property), ``definition`` is what it is made of besides
    code (an example's or a comparison's data), ``modules`` the modules that define it (a proof's, a property's).
    ``run`` runs it (None for a property, which pytest runs)."""

    key: str
    kind: str
    run: Callable[[], dict] | None = None
    definition: Any = None
    modules: tuple[str, ...] = ()
    nodeid: str | None = None


def plan(ruleset: str | None = None, *, ref: str | None = None, properties: bool = True) -> list[Planned]:
    """Every check of one ruleset, or of all of them (``ruleset=None``), or one section's (``ref``, a reference
    of ``ruleset``), in the order they run."""
    from properties import proofs
    from rules40k import property_runner

    names = [ruleset] if ruleset else list(spec.rulesets())
    wanted = spec.qualify(ruleset or spec.DEFAULT_RULESET, ref) if ref else None
    out = [Planned(f"example:{spec.qualify(name, e['id'])}", "example", functools.partial(run_example, e, name), e)
           for name in names for e in annotations.examples(name)
           if wanted is None or spec.qualify(name, e["ref"]) == wanted]
    out += [Planned(f"table:{spec.qualify(name, t.name)}", "table", functools.partial(run_table, t, name))
            for name in names for t in tables(name)
            if wanted is None or wanted in [spec.qualify(name, r) for r in t.refs]]
    out += [Planned(f"proof:{p}", "proof", functools.partial(_one_proof, p), modules=(proofs.PROOFS[p].build.__module__,))
            for p in sorted(proofs.load_all()) if spec.ruleset_of(proofs.PROOFS[p].refs) in names
            and (wanted is None or wanted in proofs.PROOFS[p].refs)]
    out += [Planned(f"comparison:{spec.qualify(name, entry['claim'])}", "comparison",
                    functools.partial(compare.compare, entry, name), entry)
            for name in names for entry in compare.concept_map(name)
            if wanted is None or wanted in [spec.qualify(name, entry["claim"]), *entry.get("core", [])]]
    if properties:
        out += [Planned(f"property:{nodeid}", "property", modules=(property_runner.module_of(nodeid),), nodeid=nodeid)
                for nodeid in property_runner.collect_properties(wanted, names)]
    return out


def _one_proof(name: str) -> dict:
    return run_proofs([name])[0]


def run_all(ruleset: str | None = None, *, ref: str | None = None, properties: bool = True,
            progress: Callable[[str, int], None] | None = None) -> dict:
    """Run every check of one ruleset, or of all of them (``ruleset=None``), or one section's.

    ``ref`` is a reference of ``ruleset``. ``progress(description, total)`` is called once per
    finished check with the running description and the expected total, so the CLI can draw a bar.
    """
    from rules40k import property_runner

    names = [ruleset] if ruleset else list(spec.rulesets())
    planned = plan(ruleset, ref=ref, properties=properties)

    def tick(record: dict) -> dict:
        if progress:
            progress(record["id"], len(planned))
        return record

    checks = [tick(item.run()) for item in planned if item.kind not in ("proof", "property")]
    # The proofs in one call: they share each ruleset's domain pins, read once.
    checks += [tick(record) for record in run_proofs([i.key.removeprefix("proof:") for i in planned
                                                      if i.kind == "proof"])]
    nodeids = [item.nodeid for item in planned if item.kind == "property"]
    if nodeids:
        checks += property_runner.run_properties(tick, nodeids=nodeids)
    return assemble(names, checks)


def assemble(names: list[str], checks: list[dict]) -> dict:
    """The results document of the rulesets ``names``: every check once, sorted, and the count of each status."""
    repeated = sorted(i for i, n in collections.Counter(c["id"] for c in checks).items() if n > 1)
    if repeated:
        raise ExampleError(f"check ids used twice across rulesets: {', '.join(repeated)}")
    checks = sorted(checks, key=lambda c: c["id"])
    return {"rulesets": names, "checks": checks, "summary": summarize(checks)}


def merge_results(previous: dict, partial: dict, ref: str) -> dict:
    """Replace one section's checks (``ref`` qualified) in an earlier full results document."""
    kept = [c for c in previous.get("checks", []) if ref not in c.get("refs", [])]
    checks = sorted(kept + partial["checks"], key=lambda c: c["id"])
    rulesets = list(dict.fromkeys(list(previous.get("rulesets") or []) + list(partial["rulesets"])))
    return {"rulesets": rulesets, "checks": checks, "summary": summarize(checks)}


OK_STATUSES = ("passed", "skipped", "finding", *compare.VERDICTS)  # a verdict that is not a failure


def summarize(checks: list[dict]) -> dict[str, int]:
    """How many checks have each status."""
    summary: dict[str, int] = {}
    for check in checks:
        summary[check["status"]] = summary.get(check["status"], 0) + 1
    return dict(sorted(summary.items()))


def write_results(results: dict, path: Path) -> None:
    """Write results.json atomically (a partial file is never left behind); its folder must exist
    (``rules40k.atomic.OutputError`` otherwise), so a mistyped path never grows folders."""
    from rules40k import atomic

    atomic.write_text(path, json.dumps(results, indent=2, sort_keys=True, ensure_ascii=False) + "\n")

"""Mutation testing of the rule functions: break the code on purpose, one change at a time, and see the checks fail.

A *mutant* is the rule module with one small change made through its syntax tree:
a comparison's boundary moved (``<`` to ``<=``), a whole-number constant moved by
one, ``And`` swapped with ``Or`` (and ``and``/``or``), a ``Not`` dropped, a
decision table's row dropped. The value of a keyword that only styles a picture
(``STYLING_KEYWORDS``: a font size, a line width, a label's offset) is left alone: no check can call
one size wrong, and a test that pinned it would only restate it; what a picture draws, where, and in
which colour for which chance is mutated like any rule. Each mutant runs in a fresh process, where an import
hook serves the changed source in place of the module, against the checks attached
to the sections of the function it changed (``rules40k.checks.run_all`` for each
section: worked examples, decision tables, proofs, properties) — not the whole suite.
A mutant is *killed* when one of those checks fails or errors (or it runs past the
time limit), *survives* when all pass. Survivors are gaps in the verification, or
*equivalent* mutants (the change cannot alter any answer), which are recorded by
hand with a reason in ``spec/<ruleset>/annotations/mutants.yaml``, never decided here.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import importlib.abc
import importlib.util
import inspect
import json
import os
import random
import select
import signal
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from rules40k import REPO_ROOT, interrupts

REPORT = REPO_ROOT / "reports" / "mutation.json"  # the accumulated report of whole-module runs, committed

SWAPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
LOGIC_SWAPS = {"And": "Or", "Or": "And"}
STYLING_KEYWORDS = frozenset({"fontsize", "linewidth", "xytext", "ncol", "figsize", "shrink", "alpha", "pad",
                              "markersize", "dpi"})  # a drawing call's look, not its content: never mutated


@dataclass(frozen=True)
class Mutant:
    module: str  # "rules.core.objectives"
    index: int  # its place among the module's mutants, in source order
    line: int
    function: str  # the top-level function or table it changes
    kind: str  # boundary, constant, logic, not, row, domain
    change: str  # the changed expression, before -> after, for people
    span: tuple[int, int, int, int] = (0, 0, 0, 0)  # where it is in the source: line, column, end line, end column
    after: str = ""  # what replaces that span ("" for a dropped row)


class _Sites(ast.NodeTransformer):
    """Walks a module in source order, numbering every place a mutant can be made; mutates place ``target``."""

    def __init__(self, target: int | None = None):
        self.target, self.count, self.found = target, 0, []
        self.top, self.call, self.change = "", None, ""
        self.span, self.after = (0, 0, 0, 0), ""

    def _site(self, node: ast.AST, kind: str, mutate, shown: ast.AST | None = None,
              where: ast.AST | None = None) -> ast.AST:
        """With a target, make that one mutant; without, note every site as it would be made (``found``), each
        change made and undone in turn, so one walk lists a module's mutants."""
        index = self.count
        self.count += 1
        if self.call == "Var" and kind == "constant":
            kind = "domain"  # a Var's range: narrowing it shrinks what a proof covers
        if self.target is not None and index != self.target:
            return node
        before = ast.unparse(shown or node)
        where = where or node
        span = (where.lineno, where.col_offset, where.end_lineno, where.end_col_offset)
        if self.target is None:  # a dropped row shows nothing after; any other change is made, shown, undone
            saved = {field: getattr(node, field) for field in node._fields}
            after = "" if kind == "row" else ast.unparse(mutate())
            for field, value in saved.items():
                setattr(node, field, value)
            self.found.append((index, getattr(node, "lineno", 0), self.top, kind,
                               f"{before} -> {after or '(row dropped)'}", span, after))
            return node
        self.span = span
        result = mutate()
        self.after = "" if kind == "row" else ast.unparse(result)
        self.change = f"{before} -> {self.after or '(row dropped)'}"
        return result

    def visit_Module(self, node: ast.Module) -> ast.AST:
        for i, statement in enumerate(node.body):
            name = _top_name(statement)
            if name is None:
                continue  # imports, docstrings, constants' annotations: no rule there
            self.top = name
            node.body[i] = self.visit(statement)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.body = [self.visit(statement) for statement in node.body]  # not the decorators nor the defaults
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) == 1 and type(node.ops[0]) in SWAPS:
            def mutate():
                node.ops = [SWAPS[type(node.ops[0])]()]
                return node
            return self._site(node, "boundary", mutate)
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, int) and not isinstance(node.value, bool):
            def mutate():
                return ast.copy_location(ast.Constant(node.value + 1), node)
            return self._site(node, "constant", mutate)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)

        def mutate():
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            return node
        return self._site(node, "logic", mutate)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        outer, self.call = self.call, name
        keywords = node.keywords
        node.keywords = [keyword for keyword in keywords if keyword.arg not in STYLING_KEYWORDS]
        self.generic_visit(node)
        node.keywords = keywords  # the styling keywords back, unvisited, in their places
        self.call = outer
        if name in LOGIC_SWAPS:
            def mutate():
                node.func = ast.copy_location(ast.Name(LOGIC_SWAPS[name], ast.Load()), node.func)
                return node
            return self._site(node, "logic", mutate)
        if name == "Not" and len(node.args) == 1:
            return self._site(node, "not", lambda: node.args[0])
        if name == "DecisionTable":
            for keyword in node.keywords:
                if keyword.arg == "rows" and isinstance(keyword.value, (ast.Tuple, ast.List)):
                    rows = keyword.value.elts
                    for row in list(rows):
                        def mutate(row=row):
                            rows.remove(row)
                            return node
                        node = self._site(node, "row", mutate, shown=row.args[0] if getattr(row, "args", None) else row,
                                          where=row)
        return node


@functools.lru_cache(maxsize=None)
def _source(module: str) -> tuple[str, str]:
    """The module's source and its file, read once per process."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        raise ValueError(f"{module}: no such module")
    return Path(spec.origin).read_text(encoding="utf-8"), spec.origin


def _tree(module: str) -> tuple[ast.Module, str]:
    """A fresh syntax tree of the module (mutants change it in place) and its file."""
    source, origin = _source(module)
    return ast.parse(source, origin), origin


def _mutate(module: str, index: int) -> tuple[ast.Module, _Sites]:
    """The module's tree with mutant ``index`` made, and the walker that made it (its change, span, after)."""
    tree, _ = _tree(module)
    sites = _Sites(index)
    return sites.visit(tree), sites


def mutated_source(module: str, index: int) -> str:
    return ast.unparse(ast.fix_missing_locations(_mutate(module, index)[0]))


def mutants(module: str) -> list[Mutant]:
    """Every mutant of ``module``, in source order, each with the expression it changes, before and after."""
    return list(_mutants(module))


@functools.lru_cache(maxsize=None)
def _mutants(module: str) -> tuple[Mutant, ...]:
    tree, _ = _tree(module)
    sites = _Sites()
    sites.visit(tree)
    return tuple(Mutant(module, index, line, top, kind, change[:200], span, after)
                 for index, line, top, kind, change, span, after in sites.found)


def diff(mutant: Mutant) -> str:
    """The mutant as a unified diff of the module's real source (the changed span spliced in)."""
    import difflib

    source, origin = _source(mutant.module)
    lines = source.splitlines(keepends=True)
    line, column, end_line, end_column = mutant.span
    head, tail = lines[line - 1][:column], lines[end_line - 1][end_column:]
    if mutant.kind == "row":  # the row's own lines go, with the comma that followed it
        tail = tail.lstrip().removeprefix(",").lstrip(" ")
        replaced = [head + tail] if (head + tail).strip() else []
    else:
        replaced = (head + mutant.after + tail).splitlines(keepends=True)
    changed = lines[:line - 1] + replaced + lines[end_line:]
    name = Path(origin).relative_to(REPO_ROOT).as_posix()
    return "".join(difflib.unified_diff(lines, changed, f"a/{name}", f"b/{name}", n=1))


# -- which checks a mutant must face ------------------------------------------------------------


def refs_of(module: str) -> dict[str, list[str]]:
    """Each top-level name of ``module`` with the qualified sections it is tagged with (functions and tables)."""
    from rules import registry, spec

    for ruleset in spec.rulesets():
        registry.load(ruleset)
    loaded = importlib.import_module(module)
    by_name: dict[str, list[str]] = {}
    for ruleset in spec.rulesets():
        for ref, entries in registry.all_rules(ruleset).items():
            for entry in entries:
                if getattr(entry.function, "__module__", None) == module:
                    by_name.setdefault(entry.function.__name__, []).append(spec.qualify(ruleset, ref))
    from rules40k import compare

    for ruleset in spec.rulesets():  # a function a comparison evaluates faces that comparison
        for entry in compare.concept_map(ruleset):
            for path in (entry.get("compare") or {}).values():
                owner, _, name = str(path).rpartition(".")
                if owner == module:
                    by_name.setdefault(name, []).append(spec.qualify(ruleset, entry["claim"]))
    for name, value in vars(loaded).items():
        refs = getattr(value, "refs", None)
        if type(value).__name__ == "DecisionTable" and refs:
            ruleset = _ruleset_of_module(module)
            by_name.setdefault(name, []).extend(spec.qualify(ruleset, r) for r in refs)
    if module in SUPPORT_TESTS:
        by_name = {name: [SUPPORT_MARK + module] for _, _, name in _tops(module)}
    if calculator_module(module) and module not in SUPPORT_TESTS:
        tree, _ = _tree(module)
        for statement in tree.body:
            name = _top_name(statement)
            if name and isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
                by_name.setdefault(name, []).extend(calculator_refs(_ruleset_of_module(module)))
    return {name: sorted(set(refs)) for name, refs in by_name.items()}


#: The property files that check the attack calculator (exactness, the literal engine, simulation, its series).
CALCULATOR_PROPERTIES = ("properties/test_calculator.py", "properties/test_quickref_calculator.py",
                         "properties/test_ninth_attacks.py", "properties/test_engine_saves.py",
                         "properties/test_range_edges.py", "properties/test_engine_series.py")


def calculator_module(module: str) -> bool:
    """A module the calculator runs that no rule section owns: the engine, its front door and a ruleset's attack
    rules. Their functions are tagged with no section, yet a mutant of them changes what `calc` answers."""
    return module not in SUPPORT_TESTS and (
        module.startswith("rules.engine.") or module == "rules.calculator"
        or (module.startswith("rules.") and module.endswith(".attacks")))


#: A ruleset whose attack rules have calculator properties of their own: its ``attacks`` module faces those instead
#: of the shared engine's (which never read that ruleset's scenarios).
RULESET_CALCULATOR_PROPERTIES = {"m41": ("properties/test_m41_calculator.py",)}


@functools.lru_cache(maxsize=None)
def calculator_refs(ruleset: str = "core") -> tuple[str, ...]:
    """The sections the calculator's properties are marked with: what a mutant of a calculator module faces
    (those properties, and the examples, tables, comparisons and proofs of the same sections)."""
    files = RULESET_CALCULATOR_PROPERTIES.get(ruleset, CALCULATOR_PROPERTIES)
    return tuple(sorted({ref for nodeid, refs in _property_refs() if nodeid.startswith(files) for ref in refs}))


#: The modules under rules/ that hold no rule: YAML reading, the spec and the registry of tagged functions,
#: scenario validation, the z3 helpers, the shared data model and game state, message wording. No section's
#: checks select them, so each names the project tests written for it. They run in this process, where the
#: mutant is served: a test that runs the CLI in a subprocess imports the unmutated module and can tell nothing.
SUPPORT_TESTS = {
    "rules.engine.templates": ("tests/test_m41_templates.py",),  # the scatter-ring geometry, checked through m41's
    "rules.m41.templates": ("tests/test_m41_templates.py",),  # formations (no section tags either module)
    "rules.m41.blast_attacks": ("tests/test_m41_blast_attacks.py", "properties/test_m41_calculator.py"),
    "rules40k.calc_blast": ("tests/test_m41_blast_attacks.py",),
    "rules40k.calc_vehicle": ("tests/test_m41_vehicle_attacks.py",),  # calc's printing of a vehicle's answer
    "rules40k.template_command": ("tests/test_m41_templates.py",),  # `rules40k template`
    "rules.logic": ("tests/test_logic.py",),
    "rules.messages": ("tests/test_messages.py",),
    "rules.model": ("tests/test_model.py", "tests/test_battlefield_geometry.py"),
    "rules.m41.core_scenarios": ("tests/test_m41_core_scenarios.py",),
    "rules.ninth.core_scenarios": ("tests/test_ninth_core_scenarios.py",),
    "rules.m41.scenario": ("tests/test_m41_scenario.py",),
    "rules.registry": ("tests/test_registry.py",),
    "rules.safe_yaml": ("tests/test_safe_yaml.py",),
    "rules.scenario": ("tests/test_fuzz_scenarios.py", "tests/test_calc.py", "tests/test_scenario.py"),
    "rules.spec": ("tests/test_spec.py",),
    "rules.state": ("tests/test_state.py",),
    # the vehicle chain and m41's sequencing of its vehicle rules: no section owns them (their rules are checked
    # where they are tagged); the calculator's own checks are the examples, simulation and properties here
    "rules.engine.vehicle": ("tests/test_m41_vehicle_attacks.py",),
    "rules.m41.vehicle_attacks": ("tests/test_m41_vehicle_attacks.py",),
    "rules.m41.vehicle_scenario": ("tests/test_m41_vehicle_attacks.py",),
    # the review of m41@006 against m41@007: the intent checks and the reading of a versions file (in-process tests)
    "rules40k.review.intents_m41": ("tests/test_review_m41_units.py",),
    "rules40k.review.variants": ("tests/test_review_m41_units.py",),
}

SUPPORT_MARK = "tests:"  # a support module's mutants face the "section" tests:<module>: its tests


def _ruleset_of_module(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "rules" else "core"


def checks_for(mutant: Mutant, refs: dict[str, list[str]]) -> list[str]:
    """The sections whose checks the mutant faces: its function's, or, for an untagged helper, the module's."""
    return refs.get(mutant.function) or sorted({r for rs in refs.values() for r in rs})


# -- running one mutant, in a process of its own ------------------------------------------------------


class _Serve(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """An import hook that serves the mutated source in place of one module (same file name, so tags agree)."""

    def __init__(self, module: str, source: str, origin: str):
        self.module, self.source, self.origin = module, source, origin

    def find_spec(self, name, path, target=None):
        if name == self.module:
            return importlib.util.spec_from_file_location(name, self.origin, loader=self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(compile(self.source, self.origin, "exec"), module.__dict__)


PROJECT_FOLDERS = {"rules", "properties", "rules40k", "tests", "site"}


def _forget_project_modules() -> None:
    """Drop every project module from this (forked) process, so the next import of each is fresh and sees
    the mutant. Third-party modules (pytest, hypothesis, z3) stay loaded: that is the time a fork saves.
    Packages go too, this one's included, and namespace packages: a kept package would still hold its old
    submodules as attributes, and ``from rules40k import checks`` would find the old module there."""
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None) or next(iter(getattr(module, "__path__", None) or []), None)
        if not path:  # a namespace package (no __init__.py) has no __file__, but its folder is on __path__
            continue
        try:
            folder = Path(path).resolve().relative_to(REPO_ROOT).parts[0]
        except ValueError:
            continue
        if folder in PROJECT_FOLDERS:
            del sys.modules[name]
    importlib.invalidate_caches()


class Differs(Exception):
    """A check whose status is not the unmutated run's: the mutant is killed."""


def run_checks(refs: list[str], properties: list[str], expected: dict[str, str] | None = None) -> dict:
    """Run here every check of ``refs`` (examples, tables, comparisons, proofs, then the ``properties`` by
    pytest node id). Without ``expected`` returns each check's status (the baseline); with it, stops at
    the first check whose status differs from the baseline's (killed)."""
    from properties import proofs
    from rules import spec
    from rules40k import annotations, checks, compare, property_runner

    wanted, statuses, chosen_by = set(refs), {}, {}
    called: set[tuple[str, int]] = set()
    if expected is None:  # the baseline also records which rule functions its checks call
        sys.setprofile(_recorder(called))

    def record(result: dict, selected_by: list[str] | None = None) -> None:
        statuses[result["id"]] = result["status"]
        chosen_by[result["id"]] = sorted(selected_by or result.get("refs") or [])
        if expected is not None and expected.get(result["id"]) != result["status"]:
            detail = str(result.get("detail") or "")[:160]
            raise Differs(f"{result['id']} {result['status']}" + (f": {detail}" if detail else ""))

    try:
        for ruleset in spec.rulesets():
            for example in annotations.examples(ruleset):
                if spec.qualify(ruleset, example["ref"]) in wanted:
                    record(checks.run_example(example, ruleset), [spec.qualify(ruleset, example["ref"])])
            for table in checks.tables(ruleset):
                if wanted & {spec.qualify(ruleset, r) for r in table.refs}:
                    record(checks.run_table(table, ruleset), [spec.qualify(ruleset, r) for r in table.refs])
            for entry in compare.concept_map(ruleset):
                if wanted & {spec.qualify(ruleset, entry["claim"]), *entry.get("core", [])}:
                    record(compare.compare(entry, ruleset),
                           [spec.qualify(ruleset, entry["claim"]), *entry.get("core", [])])
        names = [name for name in sorted(proofs.load_all()) if wanted & set(proofs.PROOFS[name].refs)]
        for result in checks.run_proofs(names):
            record(result, list(proofs.PROOFS[result["id"].removeprefix("proof:")].refs))
        if properties:
            property_runner.run_properties(record, nodeids=properties)
        for mark in sorted(r for r in wanted if r.startswith(SUPPORT_MARK)):
            property_runner.run_tests(SUPPORT_TESTS[mark.removeprefix(SUPPORT_MARK)], mark,
                                      lambda result, mark=mark: record(result, [mark]))
    except Differs as killed:
        return {"killed": True, "by": str(killed), "ran": len(statuses)}
    finally:
        sys.setprofile(None)
    if expected is None:
        return {"killed": False, "by": None, "ran": len(statuses), "statuses": statuses, "chosen_by": chosen_by,
                "called": sorted(_top_names(called))}
    missing = sorted(set(expected) - set(statuses))
    if missing:  # a property that no longer runs (its module no longer imports, say) is a difference too
        return {"killed": True, "by": f"{missing[0]} did not run", "ran": len(statuses)}
    return {"killed": False, "by": None, "ran": len(statuses)}


def _recorder(called: set):
    """A profile hook noting the code (file, first line) of every call of a function in rules/ or rules40k/ (the
    measured modules' folders; not the module and class bodies an import runs)."""
    folders = tuple(str(REPO_ROOT / name) + os.sep for name in ("rules", "rules40k"))

    def hook(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_flags & inspect.CO_OPTIMIZED and code.co_filename.startswith(folders):
            called.add((code.co_filename, code.co_firstlineno))
    return hook


def _top_names(called: set[tuple[str, int]]) -> set[str]:
    """The calls as "module.top-level name" (a lambda of a table's row counts as a call of the table)."""
    names = set()
    by_file: dict[str, list[tuple[int, int, str]]] = {}
    for file, line in called:
        if file not in by_file:
            module = ".".join(Path(file).relative_to(REPO_ROOT).with_suffix("").parts)
            by_file[file] = [(first, last, f"{module}.{name}") for first, last, name in _tops(module)]
        names.update(name for first, last, name in by_file[file] if first <= line <= last)
    return names


def _tops(module: str) -> list[tuple[int, int, str]]:
    """Each top-level function, class and assignment of ``module``: first line (decorators included), last
    line, name."""
    tree, _ = _tree(module)
    out = []
    for statement in tree.body:
        name = _top_name(statement)
        if name:
            first = min([statement.lineno] + [d.lineno for d in getattr(statement, "decorator_list", [])])
            out.append((first, statement.end_lineno, name))
    return out


def _top_name(statement: ast.stmt) -> str | None:
    if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
        return statement.name
    if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
        return statement.targets[0].id
    return None


def _child(task: dict) -> dict:
    """In the forked process: forget the project's modules, serve the mutant (none for a baseline), run."""
    os.chdir(REPO_ROOT)
    os.environ["HYPOTHESIS_PROFILE"] = "mutate"
    _forget_project_modules()
    importlib.import_module("properties.conftest")  # loads the mutate profile, for tests/ run alone too
    if task["index"] is not None:
        source, origin = _source(task["module"])
        sys.meta_path.insert(0, _Serve(task["module"], mutated_source(task["module"], task["index"]), origin))
    try:
        return run_checks(task["refs"], task["properties"], task["expected"])
    except Exception as error:  # a mutant that makes the checks themselves raise is caught by them
        return {"killed": True, "by": f"error: {type(error).__name__}: {str(error)[:120]}", "ran": None}


def _fork(task: dict) -> tuple[int, int]:
    """Start one task in a forked child that writes its answer (JSON) to a pipe; returns (pid, read end). The
    checks' own output never mixes with the answer or the progress bar."""
    return interrupts.fork_answering(lambda: json.dumps(_child(task)).encode(), quiet=True)


def _run_tasks(tasks: list[dict], jobs: int, timeout: float, done=None) -> list[dict]:
    """Run the tasks, ``jobs`` forked children at a time; a child past ``timeout`` is killed (a hang kills
    the mutant). Forking from a process that has imported pytest, hypothesis and z3 saves their start-up."""
    answers: list[dict | None] = [None] * len(tasks)
    waiting = list(range(len(tasks)))[::-1]
    running: dict[int, tuple[int, int, float, bytearray]] = {}  # pid -> (task, pipe, started, bytes)
    try:
        while waiting or running:
            while waiting and len(running) < max(jobs, 1):
                number = waiting.pop()
                pid, pipe = _fork(tasks[number])
                running[pid] = (number, pipe, time.monotonic(), bytearray())
            readable, _, _ = select.select([entry[1] for entry in running.values()], [], [], 0.2)
            for pid, (number, pipe, started, got) in list(running.items()):
                if pipe in readable:
                    chunk = os.read(pipe, 65536)
                    got.extend(chunk)
                    if chunk:
                        continue
                elif time.monotonic() - started < timeout:
                    continue
                else:
                    os.kill(pid, signal.SIGKILL)
                    got.clear()
                _, status = os.waitpid(pid, 0)
                os.close(pipe)
                del running[pid]
                answers[number] = _answer(bytes(got), status, time.monotonic() - started >= timeout, timeout)
                if done:
                    done(tasks[number], answers[number])
    finally:
        for pid, (_, pipe, _, _) in running.items():
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(pipe)
    return answers


def _answer(got: bytes, status: int, late: bool, timeout: float) -> dict:
    if got:
        return json.loads(got)
    if late:
        return {"killed": True, "by": f"timeout after {timeout:.0f} s", "ran": None}
    return {"killed": True, "by": f"crash: the checks' process ended with status {status}", "ran": None}


def run_one(module: str, index: int | None, refs: list[str], timeout: float = 300.0,
            expected: dict[str, str] | None = None) -> dict:
    """One mutant (or, with ``index`` None, the unmutated baseline) against the checks of ``refs``."""
    task = {"module": module, "index": index, "refs": refs, "properties": properties_for(refs),
            "expected": expected}
    return _run_tasks([task], 1, timeout)[0]


@functools.lru_cache(maxsize=None)
def _property_refs() -> tuple[tuple[str, tuple[str, ...]], ...]:
    from rules40k import property_runner

    return tuple((nodeid, tuple(refs)) for nodeid, refs in sorted(property_runner.collect_properties().items()))


def properties_for(refs: list[str]) -> list[str]:
    """The node ids of the properties marked with any of ``refs``."""
    wanted = set(refs)
    return [nodeid for nodeid, marked in _property_refs() if wanted & set(marked)]


def sample(found: list[Mutant], n: int | None, seed: int = 0) -> list[Mutant]:
    if n is None or n >= len(found):
        return found
    return sorted(random.Random(seed).sample(found, n), key=lambda m: (m.module, m.index))


# -- a whole run -------------------------------------------------------------------------------------------


def modules_of(ruleset: str) -> list[str]:
    """The rule modules of a ruleset: every module of rules/<ruleset>/, and the shared modules outside it that
    hold functions tagged with its sections (for core: the dice of 01.05, the geometry of rules.battlefield).
    Core also lists what no ruleset owns: the attack engine (rules/engine/), the calculator's front door and the
    support modules (``SUPPORT_TESTS``)."""
    from rules import registry

    folder = REPO_ROOT / "rules" / ruleset
    own = [f"rules.{ruleset}.{p.stem}" for p in sorted(folder.glob("*.py")) if p.stem != "__init__"]
    shared = {entry.function.__module__ for entries in registry.load(ruleset).values() for entry in entries
              if not entry.function.__module__.startswith(f"rules.{ruleset}.")}
    if ruleset == "core":
        engine = REPO_ROOT / "rules" / "engine"
        shared |= {"rules.calculator", *(f"rules.engine.{p.stem}" for p in engine.glob("*.py") if p.stem != "__init__")}
        shared |= set(SUPPORT_TESTS)
    return sorted(shared) + own


def run(modules: list[str], *, ref: str | None = None, sample_size: int | None = None, jobs: int = 2,
        timeout: float = 300.0, seed: int = 0, progress=None, indexes: set[int] | None = None,
        killed_before: dict[tuple[str, int], dict] | None = None) -> dict:
    """Mutate ``modules`` (all their mutants, or those of functions tagged ``ref``, or the given ``indexes``, or
    a sample) and run each against its checks, ``jobs`` at a time. Returns the report: per mutant, module,
    section and function.

    ``killed_before`` (a recheck) holds the rows of mutants an earlier whole run of the same source killed:
    they are kept as they are, not run again (checks added since can only kill more), and the rest run; the
    result is still a whole-module report."""
    plan, tops, kept = [], {}, []
    known = _equivalent_index()
    for module in modules:
        refs = refs_of(module)
        tops[module] = refs
        for mutant in mutants(module):
            faced = checks_for(mutant, refs)
            if (ref is None or ref in faced) and (indexes is None or mutant.index in indexes):
                plan.append((mutant, faced))
    chosen = {(m.module, m.index) for m in sample([m for m, _ in plan], sample_size, seed)}
    plan = [(m, faced) for m, faced in plan if (m.module, m.index) in chosen]
    complete = ref is None and sample_size is None and indexes is None
    needed: dict[str, set[str]] = {}  # per module, every section whose checks some mutant faces
    for m, faced in plan:
        if faced and _key(m) not in known:
            needed.setdefault(m.module, set()).update(faced)
    if killed_before:
        kept = [killed_before[(m.module, m.index)] for m, _ in plan
                if (m.module, m.index) in killed_before and _key(m) not in known]
        plan = [(m, faced) for m, faced in plan if (m.module, m.index) not in killed_before or _key(m) in known]
    if complete:  # a tagged function with nothing to mutate is still judged by whether its checks call it
        for module in modules:
            for refs in tops[module].values():
                needed.setdefault(module, set()).update(refs)
    total = len(plan) + len(needed)
    finished = [0]

    def tick(task: dict, answer: dict) -> None:
        finished[0] += 1
        if progress:
            name = "baseline" if task["index"] is None else f"{task['module'].removeprefix('rules.')} #{task['index']}"
            progress(name, finished[0], total)

    # The unmutated run of each module's checks first (once: a mutant faces a subset of them): a mutant is
    # killed when one of its checks' status differs from it.
    order = sorted(needed)
    baselines = _run_tasks([{"module": None, "index": None, "refs": sorted(needed[m]),
                             "properties": properties_for(sorted(needed[m])), "expected": None} for m in order],
                           jobs, timeout, tick)
    base_of = dict(zip(order, baselines))

    def expected_for(module: str, faced: list[str]) -> dict:
        """The baseline of the checks ``faced`` selects: those chosen by one of its sections."""
        base = base_of[module]
        if "statuses" not in base:
            return base
        return {"statuses": {check: status for check, status in base["statuses"].items()
                             if set(base["chosen_by"][check]) & set(faced)}}

    tasks, rows = [], []
    for mutant, faced in plan:
        row = {**asdict(mutant), "refs": faced}
        if _key(mutant) in known:
            rows.append({**row, "killed": None, "equivalent": known[_key(mutant)], "by": None, "ran": None})
            continue
        if not faced:
            rows.append({**row, "killed": False, "by": "no check faces it: its module has no tagged function",
                         "ran": 0})
            continue
        base = expected_for(mutant.module, faced)
        if "statuses" not in base:
            rows.append({**row, "killed": None, "by": f"not run: the unmutated checks did not run ({base['by']})",
                         "ran": None})
        elif _failing(base):  # a failing suite cannot tell a mutant from the rule
            rows.append({**row, "killed": None, "ran": None, "by": f"not run: the unmutated check {_failing(base)} fails"})
        else:
            rows.append(row)
            tasks.append({"module": mutant.module, "index": mutant.index, "refs": faced,
                          "properties": properties_for(faced), "expected": base["statuses"]})
    answers = iter(_run_tasks(tasks, jobs, timeout, tick))
    rows = [row if "killed" in row else {**row, **next(answers)} for row in rows]
    rows = sorted(rows + kept, key=lambda r: (r["module"], r["index"]))
    for row in rows:
        row["status"] = _status(row)
        if row["status"] == "survived":
            row["diff"] = diff(Mutant(**{f: row[f] for f in Mutant.__dataclass_fields__}))
    called = {name for base in baselines for name in base.get("called", [])}
    meta = {module: {"sha256": _digest(module), "complete": complete} for module in modules}
    functions = _functions(modules, tops, rows, called) if complete else {}
    return _report(meta, rows, functions)


def _failing(baseline: dict) -> str | None:
    from rules40k.checks import OK_STATUSES

    return next((check for check, status in sorted(baseline["statuses"].items()) if status not in OK_STATUSES), None)


def _report(meta: dict, rows: list[dict], functions: dict) -> dict:
    return {"modules": {m: {**meta[m], **_score([r for r in rows if r["module"] == m])} for m in sorted(meta)},
            "sections": _sections(rows), "functions": functions, "mutants": rows}


@contextlib.contextmanager
def report_lock(path: Path):
    """Hold an exclusive lock beside the report while it is read, merged and written."""
    import fcntl

    with open(path.with_name(f".{path.name}.lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def merge(previous: dict, new: dict) -> dict:
    """A report with ``new``'s modules in place of ``previous``'s, and ``previous``'s other modules kept while
    their source is unchanged (a module edited since it was measured is dropped, never shown as measured)."""
    kept = {m for m, info in previous.get("modules", {}).items()
            if m not in new["modules"] and info.get("complete") and _digest_or_none(m) == info.get("sha256")}
    meta = {**{m: previous["modules"][m] for m in kept}, **new["modules"]}
    rows = [r for r in previous.get("mutants", []) if r["module"] in kept] + new["mutants"]
    functions = {**{n: f for n, f in previous.get("functions", {}).items() if f["module"] in kept},
                 **new["functions"]}
    return _report({m: {"sha256": v["sha256"], "complete": v["complete"]} for m, v in meta.items()},
                   sorted(rows, key=lambda r: (r["module"], r["index"])), dict(sorted(functions.items())))


def _digest(module: str) -> str:
    import hashlib

    return hashlib.sha256(_source(module)[0].encode()).hexdigest()


def _digest_or_none(module: str) -> str | None:
    try:
        return _digest(module)
    except (ValueError, ImportError, OSError):
        return None


def _functions(modules: list[str], tops: dict, rows: list[dict], called: set[str]) -> dict:
    """Each top-level function and decision table of the modules: its sections, whether the checks it faces
    call it, and how its mutants fared. (Classes and constants are judged by their mutants alone.)"""
    out = {}
    for module in modules:
        tree, _ = _tree(module)
        for statement in tree.body:
            name = _top_name(statement)
            table = isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call) \
                and getattr(statement.value.func, "id", None) == "DecisionTable"
            if not name or not (isinstance(statement, ast.FunctionDef) or table):
                continue
            mine = [r for r in rows if r["module"] == module and r["function"] == name]
            counts = {status: sum(r["status"] == status for r in mine) for status in STATUSES}
            # A table whose rows are built elsewhere (no lambda of its own) is judged by its mutants alone.
            own_code = not table or any(isinstance(node, ast.Lambda) for node in ast.walk(statement))
            out[f"{module}.{name}"] = {"module": module, "name": name, "refs": tops[module].get(name, []),
                                       "line": statement.lineno,
                                       "called": f"{module}.{name}" in called or not own_code, **counts}
    return out


def verified(function: dict) -> bool:
    """A function is verified when a check it faces calls it and, if it can be mutated, kills a mutant of it."""
    mutable = function["killed"] + function["survived"]
    return function["called"] and (mutable == 0 or function["killed"] > 0)


STATUSES = ("killed", "survived", "equivalent", "not run")


def _status(row: dict) -> str:
    if row.get("equivalent"):
        return "equivalent"
    return "not run" if row["killed"] is None else "killed" if row["killed"] else "survived"


def _score(rows: list[dict]) -> dict:
    counts = {status.replace(" ", "_"): sum(_status(r) == status for r in rows) for status in STATUSES}
    decided = counts["killed"] + counts["survived"]
    return {"mutants": len(rows), **counts, "score": None if decided == 0 else counts["killed"] / decided}


def _sections(rows: list[dict]) -> dict:
    groups: dict = {}
    for row in rows:
        for ref in row["refs"]:
            groups.setdefault(ref, []).append(row)
    return {ref: _score(group) for ref, group in sorted(groups.items())}


# -- equivalent mutants, recorded by hand -----------------------------------------------------------------------


def _key(mutant: Mutant) -> tuple[str, str, str, int]:
    """What names a mutant across edits elsewhere in the module: its function, its change, and which of the
    function's identical changes it is (1 for the first)."""
    same = [m for m in mutants(mutant.module) if (m.function, m.change) == (mutant.function, mutant.change)]
    return mutant.module, mutant.function, mutant.change, 1 + [m.index for m in same].index(mutant.index)


def equivalents(ruleset: str, root: Path | None = None,
                modules: set[str] | None = None) -> dict[tuple[str, str, str], str]:
    """spec/<ruleset>/annotations/mutants.yaml: the mutants reviewed as equivalent (no input of the rules can
    tell them from the original), each ``{module, function, change, why}`` and, where the function makes that
    change in several places, ``occurrence`` (1 for the first); ``change`` is the mutant's "before -> after" as
    ``rules40k mutate`` prints it. An entry that matches no mutant is an error (stale). With ``modules``, only
    the entries of those modules are matched against their mutants (making a module's mutants takes seconds;
    `verify --changed` rechecks the modules edited since they last matched)."""
    from rules40k import SPEC_ROOT, annotations

    path = annotations.annotations_dir(ruleset, root or SPEC_ROOT) / "mutants.yaml"
    entries = annotations._load(path, list)
    out = {}
    for number, entry in enumerate(entries):
        def fail(problem: str) -> annotations.AnnotationError:
            line = annotations.line_of(path, (number,))
            return annotations.AnnotationError(f"{path}{f': line {line}' if line else ''}: {problem}")

        fields = {"module", "function", "change", "why"}
        if not isinstance(entry, dict) or not fields <= set(entry) <= fields | {"occurrence"}:
            raise fail("each entry needs module, function, change and why (and occurrence where needed)")
        if not all(isinstance(entry[k], str) and entry[k].strip() for k in fields):
            raise fail("module, function, change and why must be non-empty text")
        occurrence = entry.get("occurrence", 1)
        if type(occurrence) is not int or occurrence < 1:
            raise fail("occurrence must be a whole number from 1")
        if entry["module"] not in modules_of(ruleset):
            raise fail(f"{annotations.shown(entry['module'])} is not a rule module of the {ruleset} ruleset")
        key = (entry["module"], entry["function"], entry["change"], occurrence)
        if key in out:
            raise fail("this mutant is recorded twice")
        out[key] = entry["why"].strip()
        if modules is not None and entry["module"] not in modules:
            continue
        alike = [m for m in mutants(entry["module"]) if _key(m)[:3] == key[:3]]
        if len(alike) < occurrence:
            raise fail(f"no mutant of {entry['module']} changes {annotations.shown(entry['change'])} in "
                       f"{entry['function']}{f' {occurrence} times' if occurrence > 1 else ''} (the code has "
                       "changed: review the entry again)")
        if len(alike) > 1 and "occurrence" not in entry:
            raise fail(f"{entry['function']} makes the change {annotations.shown(entry['change'])} in "
                       f"{len(alike)} places: say which with occurrence")
    return out


def _equivalent_index() -> dict[tuple[str, str, str], str]:
    from rules import spec

    return {key: why for name in spec.rulesets() for key, why in equivalents(name).items()}


# -- what the site and the ledger read -------------------------------------------------------------------------


class ReportError(ValueError):
    """A mutation report that cannot be read."""


def measured(path: Path = REPORT) -> dict:
    """The accumulated report, keeping only the modules whose source is unchanged since they were measured
    (``stale`` lists the others); an empty report if none was written."""
    if not path.exists():
        return {**_report({}, [], {}), "stale": []}
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
        fresh = {m for m, info in report["modules"].items()
                 if info.get("complete") and _digest_or_none(m) == info["sha256"]}
        rows = [r for r in report["mutants"] if r["module"] in fresh]
        functions = {n: f for n, f in report["functions"].items() if f["module"] in fresh}
        meta = {m: {"sha256": report["modules"][m]["sha256"], "complete": True} for m in fresh}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise ReportError(f"{path}: not a mutation report written by `rules40k mutate` (run it again)") from None
    return {**_report(meta, rows, functions), "stale": sorted(set(report["modules"]) - fresh)}


def section_verification(ruleset: str, report: dict) -> dict[str, dict]:
    """Per section of ``ruleset`` with rule functions: ``verified`` (True, False, or None when a module of its
    functions is not measured), the functions that are not, and the section's mutation score."""
    from rules import registry, spec

    out = {}
    for ref, entries in registry.load(ruleset).items():
        names = [f"{e.function.__module__}.{e.function.__name__}" for e in entries]
        found = [report["functions"].get(name) for name in names]
        unverified = [name for name, f in zip(names, found) if f is not None and not verified(f)]
        out[ref] = {"verified": None if None in found else not unverified, "unverified": unverified,
                    "uncalled": [name for name, f in zip(names, found) if f is not None and not f["called"]],
                    "mutation": report["sections"].get(spec.qualify(ruleset, ref))}
    return out

"""Mutation testing of the rule functions: break the code on purpose, one change at a time, and see the checks fail.

A *mutant* is the rule module with one small change made through its syntax tree:
a comparison's boundary moved (``<`` to ``<=``), a whole-number constant moved by
one, ``And`` swapped with ``Or`` (and ``and``/``or``), a ``Not`` dropped, a
decision table's row dropped. Each mutant runs in a fresh process, where an import
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
import functools
import importlib
import importlib.abc
import importlib.util
import json
import random
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from rules40k import REPO_ROOT

SWAPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
LOGIC_SWAPS = {"And": "Or", "Or": "And"}


@dataclass(frozen=True)
class Mutant:
    module: str  # "rules.core.objectives"
    index: int  # its place among the module's mutants, in source order
    line: int
    function: str  # the top-level function or table it changes
    kind: str  # boundary, constant, logic, not, row
    change: str  # the changed line, before -> after, for people


class _Sites(ast.NodeTransformer):
    """Walks a module in source order, numbering every place a mutant can be made; mutates place ``target``."""

    def __init__(self, target: int | None = None):
        self.target, self.count, self.found = target, 0, []
        self.top, self.call, self.change = "", None, ""

    def _site(self, node: ast.AST, kind: str, mutate, shown: ast.AST | None = None) -> ast.AST:
        index = self.count
        self.count += 1
        if self.call == "Var" and kind == "constant":
            kind = "domain"  # a Var's range: narrowing it shrinks what a proof covers
        if self.target is None:
            self.found.append((index, getattr(node, "lineno", 0), self.top, kind))
            return node
        if index != self.target:
            return node
        before = ast.unparse(shown or node)
        result = mutate()
        self.change = f"{before} -> {'(row dropped)' if kind == 'row' else ast.unparse(result)}"
        return result

    def visit_Module(self, node: ast.Module) -> ast.AST:
        for i, statement in enumerate(node.body):
            if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
                self.top = statement.name
            elif isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
                self.top = statement.targets[0].id
            else:
                continue  # imports, docstrings, constants' annotations: no rule there
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
        self.generic_visit(node)
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
                        node = self._site(node, "row", mutate, shown=row.args[0] if getattr(row, "args", None) else row)
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


def _mutate(module: str, index: int) -> tuple[ast.Module, str]:
    """The module's tree with mutant ``index`` made, and the change shown as "before -> after"."""
    tree, _ = _tree(module)
    sites = _Sites(index)
    return sites.visit(tree), sites.change


def mutated_source(module: str, index: int) -> str:
    return ast.unparse(ast.fix_missing_locations(_mutate(module, index)[0]))


def mutants(module: str) -> list[Mutant]:
    """Every mutant of ``module``, in source order, each with the expression it changes, before and after."""
    tree, _ = _tree(module)
    sites = _Sites()
    sites.visit(tree)
    return [Mutant(module, index, line, top, kind, _mutate(module, index)[1][:200])
            for index, line, top, kind in sites.found]


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
    for name, value in vars(loaded).items():
        refs = getattr(value, "refs", None)
        if type(value).__name__ == "DecisionTable" and refs:
            ruleset = _ruleset_of_module(module)
            by_name.setdefault(name, []).extend(spec.qualify(ruleset, r) for r in refs)
    return {name: sorted(set(refs)) for name, refs in by_name.items()}


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


def run_checks(refs: list[str]) -> dict:
    """Run the checks of ``refs`` here; the first that fails decides."""
    from rules import spec
    from rules40k import checks

    ran = 0
    for qualified in refs:
        ruleset, local = spec.split_ref(qualified)
        for record in checks.run_all(ruleset, ref=local, properties=True)["checks"]:
            ran += 1
            if record.get("status") not in checks.OK_STATUSES:
                return {"killed": True, "by": record["id"], "ran": ran}
    return {"killed": False, "by": None, "ran": ran}


def worker(module: str, index: int | None, refs: list[str]) -> dict:
    """The child process: install the hook (unless ``index`` is None: the unmutated baseline), run the checks."""
    if index is not None:
        _, origin = _tree(module)
        sys.meta_path.insert(0, _Serve(module, mutated_source(module, index), origin))
    try:
        return run_checks(refs)
    except Exception as error:  # a mutant that makes a check raise is caught by it
        return {"killed": True, "by": f"error: {type(error).__name__}: {str(error)[:120]}", "ran": None}


def run_one(module: str, index: int | None, refs: list[str], timeout: float) -> dict:
    command = [sys.executable, "-m", "rules40k.mutate", module, "" if index is None else str(index), json.dumps(refs)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=REPO_ROOT)
    except subprocess.TimeoutExpired:
        return {"killed": True, "by": f"timeout after {timeout:.0f} s", "ran": None}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"killed": True, "by": f"crash: {done.stderr.strip().splitlines()[-1:] or ['?']}"[:200], "ran": None}
    return json.loads(lines[-1])


def sample(found: list[Mutant], n: int | None, seed: int = 0) -> list[Mutant]:
    if n is None or n >= len(found):
        return found
    return sorted(random.Random(seed).sample(found, n), key=lambda m: (m.module, m.index))


if __name__ == "__main__":
    import io
    import contextlib

    name, position, wanted = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    with contextlib.redirect_stdout(io.StringIO()):  # the checks' own output never mixes with the answer
        answer = worker(name, int(position) if position else None, wanted)
    print(json.dumps(answer))


# -- a whole run -------------------------------------------------------------------------------------------


def modules_of(ruleset: str) -> list[str]:
    """The rule modules of a ruleset: every module of rules/<ruleset>/ (and, for core, the dice of 01.05)."""
    folder = REPO_ROOT / "rules" / ruleset
    names = [f"rules.{ruleset}.{p.stem}" for p in sorted(folder.glob("*.py")) if p.stem != "__init__"]
    return (["rules.dice"] if ruleset == "core" else []) + names


def run(modules: list[str], *, ref: str | None = None, sample_size: int | None = None, jobs: int = 2,
        timeout: float = 300.0, seed: int = 0, progress=None) -> dict:
    """Mutate ``modules`` (all their mutants, or those of functions tagged ``ref``, or a sample) and run each
    against its checks, ``jobs`` at a time. Returns the report: per mutant, per module, per section."""
    from concurrent.futures import ThreadPoolExecutor

    plan = []
    for module in modules:
        refs = refs_of(module)
        for mutant in mutants(module):
            faced = checks_for(mutant, refs)
            if faced and (ref is None or ref in faced):
                plan.append((mutant, faced))
    chosen = {(m.module, m.index) for m in sample([m for m, _ in plan], sample_size, seed)}
    plan = [(m, faced) for m, faced in plan if (m.module, m.index) in chosen]
    baselines = {(m.module, tuple(faced)) for m, faced in plan}
    total = len(plan) + len(baselines)
    done = [0]

    def tick(text: str) -> None:
        done[0] += 1
        if progress:
            progress(text, done[0], total)

    with ThreadPoolExecutor(max(jobs, 1)) as pool:
        baseline = dict(zip(baselines, pool.map(lambda key: run_one(key[0], None, list(key[1]), timeout), baselines)))
        for key in baselines:
            tick(f"baseline {key[0]}")

        def one(item):
            mutant, faced = item
            if baseline[(mutant.module, tuple(faced))]["killed"]:
                outcome = {"killed": None, "by": "not run: the unmutated checks already fail", "ran": None}
            else:
                outcome = run_one(mutant.module, mutant.index, faced, timeout)
            tick(f"{mutant.module} #{mutant.index}")
            return {**asdict(mutant), "refs": faced, **outcome}

        rows = list(pool.map(one, plan))
    return {"mutants": rows, "modules": _summary(rows, "module"), "sections": _sections(rows)}


def _status(row: dict) -> str:
    return "not run" if row["killed"] is None else "killed" if row["killed"] else "survived"


def _score(rows: list[dict]) -> dict:
    killed = sum(_status(r) == "killed" for r in rows)
    survived = sum(_status(r) == "survived" for r in rows)
    return {"mutants": len(rows), "killed": killed, "survived": survived,
            "not_run": len(rows) - killed - survived,
            "score": None if killed + survived == 0 else killed / (killed + survived)}


def _summary(rows: list[dict], key: str) -> dict:
    groups: dict = {}
    for row in rows:
        groups.setdefault(row[key], []).append(row)
    return {name: _score(group) for name, group in sorted(groups.items())}


def _sections(rows: list[dict]) -> dict:
    groups: dict = {}
    for row in rows:
        for ref in row["refs"]:
            groups.setdefault(ref, []).append(row)
    return {ref: _score(group) for ref, group in sorted(groups.items())}

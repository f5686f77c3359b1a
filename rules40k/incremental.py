"""`rules40k verify --changed`: rerun only the checks whose verdict an edit since the last run can change.

While a check runs, what it stands on is recorded: the functions of rules/ it calls (each module of rules/ is
loaded marked, every function and lambda first noting its name, see ``_Mark``) and the files under the repository
it opens or lists (an audit hook). Each is kept as a digest of its source:

- a called top-level function: its own source, decorators included;
- the *frame* of each module such a function lives in, of the module that defines the check (a proof's, a
  property's) and of every project module those import from, at any depth (a package passed through counts for
  its own frame): the module's source without its top-level functions' bodies (imports, constants, decision
  tables, classes, signatures, decorators); a module of properties/ counts whole;
- each file opened or folder listed; and the check's own data (an example's or a comparison's entry).

Before each check the project's ``lru_cache``s are emptied (the spec reader's excepted, see ``GLOBAL_FILES``),
so no check leans on a value another check computed without calling what computed it.

The next run reuses a check's verdict only when every one of its digests is unchanged. What no single check
owns reruns every check, and is named: the Python, hypothesis, pytest and z3 versions and the hypothesis
profile; rules40k/ and ``GLOBAL_FILES``; which function each section is tagged on; the functions called and
the files read around the checks (imports, the registry, collecting the properties). Not seen: a check that
decides on whether a file exists without opening or listing it, or that keeps state between checks in anything
but an ``lru_cache``.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import glob
import hashlib
import importlib.abc
import importlib.util
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from rules40k import BUILD_ROOT, REPO_ROOT, mutate

CACHE = BUILD_ROOT / "verify-cache.json"
FORMAT = 1

#: Edited, these rerun every check: the runner's configuration, and the spec reader with what it reads (its
#: caches outlive a check, so the checks that use what it read cannot be told apart).
GLOBAL_FILES = ("pyproject.toml", "properties/__init__.py", "properties/conftest.py", "rules/__init__.py",
                "rules/spec.py", "rules/safe_yaml.py", "spec/rulesets.yaml", "spec/sources/*.yaml",
                "spec/*/chapters/*.yaml")

#: Read around the checks, these only say which checks there are; each check is keyed by its own part of them.
PLAN_FILES = ("spec/*/annotations/examples/*.yaml", "spec/*/annotations/concepts.yaml")
PLAN_FOLDERS = ("properties", "spec/*/annotations/examples")

_IGNORED_PARTS = {".git", ".hypothesis", "__pycache__", "build"}


# -- recording what a check stands on ---------------------------------------------------------------------------


class Record:
    """What one check, or the run around the checks, called ("module:top-level name"), opened and listed."""

    def __init__(self, files: bool = True):
        self.calls: set[str] = set()
        self.files: set[str] = set()
        self.folders: set[str] = set()
        self.watch_files = files


_current: list[Record] = []  # the record the hooks write to, innermost last
_audit_installed = False
CALLED = "__rules40k_called__"  # what a watched rule module's functions call first (a builtin name)


def _audit(event: str, args: tuple) -> None:
    if not _current or event not in ("open", "os.listdir", "os.scandir") or not _current[-1].watch_files:
        return
    path = args[0] if args else None
    if path is None or isinstance(path, int):
        return
    try:
        relative = Path(os.path.abspath(os.fsdecode(path))).relative_to(REPO_ROOT)
    except (ValueError, TypeError):
        return
    if not relative.parts or _IGNORED_PARTS & set(relative.parts) or relative.parts[0].startswith("__editable__"):
        return  # (an editable install's import hook names itself like a path in the current folder)
    (_current[-1].files if event == "open" else _current[-1].folders).add(relative.as_posix())


@contextlib.contextmanager
def watching(record: Record) -> Iterator[Record]:
    """Record into ``record`` what runs inside the block (restoring the enclosing record after it)."""
    global _audit_installed
    if not _audit_installed:  # an audit hook cannot be removed: it writes only while a record is open
        sys.addaudithook(_audit)
        _audit_installed = True
    _current.append(record)
    setattr(builtins, CALLED, record.calls.add)
    try:
        yield record
    finally:
        _current.pop()
        setattr(builtins, CALLED, _current[-1].calls.add if _current else _ignore)


def _ignore(name: str) -> None:
    """A watched function called while no record is open."""


class _Mark(ast.NodeTransformer):
    """Makes every function and lambda of a rule module first call ``CALLED`` with "module:top-level name" (the
    function, class or table it belongs to), which costs one call of a set's ``add``: a trace or profile hook
    (``rules40k.mutate`` records its baselines with one) makes the checks three to five times slower."""

    def __init__(self, module: str):
        self.module, self.name = module, ""

    def visit_Module(self, node: ast.Module) -> ast.Module:
        for statement in node.body:
            self.name = f"{self.module}:{mutate._top_name(statement) or ''}"
            self.visit(statement)
        return node

    def _called(self) -> ast.Call:
        return ast.Call(ast.Name(CALLED, ast.Load()), [ast.Constant(self.name)], [])

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        first = node.body[0]
        after_docstring = int(isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                              and isinstance(first.value.value, str))
        node.body.insert(after_docstring, ast.copy_location(ast.Expr(self._called()), first))
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> ast.Lambda:
        self.generic_visit(node)
        node.body = ast.copy_location(
            ast.Subscript(ast.Tuple([self._called(), node.body], ast.Load()), ast.Constant(1), ast.Load()), node.body)
        return node


class _WatchedRules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """An import hook that loads the modules of rules/ marked by ``_Mark`` (from their own files, so line numbers,
    tags and sources are what they are)."""

    def find_spec(self, name, path, target=None):
        file = _module_file(name) if name.partition(".")[0] == "rules" else None
        if file is None:
            return None
        package = [str(file.parent)] if file.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(name, file, loader=self, submodule_search_locations=package)

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        origin = module.__spec__.origin
        tree = _Mark(module.__name__).visit(ast.parse(Path(origin).read_text(encoding="utf-8"), origin))
        exec(compile(ast.fix_missing_locations(tree), origin, "exec"), module.__dict__)


def watch_imports() -> None:
    """Load the modules of rules/ marked from now on; call it before the project is imported (once one is, nothing
    is done: a process with both kinds could not tell what its checks call, see ``rules_watched``)."""
    if any(name.partition(".")[0] == "rules" for name in sys.modules):
        return
    if not any(isinstance(finder, _WatchedRules) for finder in sys.meta_path):
        sys.meta_path.insert(0, _WatchedRules())
        setattr(builtins, CALLED, _ignore)


def rules_watched() -> bool:
    """Whether every module of rules/ loaded in this process is marked, so what the checks call is seen."""
    return all(isinstance(getattr(module.__spec__, "loader", None), _WatchedRules)
               for name, module in list(sys.modules.items()) if name.partition(".")[0] == "rules" and module)


def _project_caches() -> list:
    """Every ``lru_cache`` of the project's rules/ and properties/ modules loaded now, but the spec reader's."""
    found = []
    for name, module in list(sys.modules.items()):
        if not name.startswith(("rules.", "properties.")) or name == "rules.spec":
            continue
        for value in list(vars(module).values()):
            for candidate in [value, *(vars(value).values() if isinstance(value, type) else ())]:
                wrapped = getattr(candidate, "__wrapped__", None)
                if hasattr(candidate, "cache_clear") and getattr(wrapped, "__module__", None) == name:
                    found.append(candidate)
    return found


# -- digests ------------------------------------------------------------------------------------------------------


def _sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def _module_file(module: str) -> Path | None:
    """The file of a project module of rules/ or properties/ (a package's __init__.py), or None."""
    if not module.startswith(("rules", "properties")) or module.split(".")[0] not in ("rules", "properties"):
        return None
    base = REPO_ROOT.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


class Sources:
    """Digests of the tree as it is now, each computed once per run."""

    def __init__(self):
        self.memo: dict[tuple[str, str], str | None] = {}

    def digest(self, kind: str, name: str) -> str | None:
        """The digest of a ``function`` ("module.name"), a module's ``frame``, a ``file`` or a ``folder``
        (repository-relative); None when it no longer exists."""
        if (kind, name) not in self.memo:
            _current.append(Record(files=False))  # reading to digest is not a check reading
            try:
                self.memo[kind, name] = getattr(self, f"_{kind}")(name)
            finally:
                _current.pop()
        return self.memo[kind, name]

    def _function(self, name: str) -> str | None:
        module, _, top = name.rpartition(".")
        lines = _lines(module)
        span = _function_spans(module).get(top)
        return None if lines is None or span is None else _sha("".join(lines[span[0] - 1:span[1]]))

    def _frame(self, module: str) -> str | None:
        lines = _lines(module)
        if lines is None:
            return None
        bodies = {n for first, last in _body_spans(module) for n in range(first, last + 1)}
        return _sha("".join(line for number, line in enumerate(lines, 1) if number not in bodies))

    def _file(self, name: str) -> str | None:
        path = REPO_ROOT / name
        return _sha(path.read_bytes()) if path.is_file() else None

    def _registry(self, ruleset: str) -> str | None:
        """Which function each section of ``ruleset`` is tagged on (where they are in their files aside)."""
        from rules import registry

        tagged = [(ref, entry.qualname) for ref, entries in registry.load(ruleset).items() for entry in entries]
        return _sha(json.dumps(sorted(tagged)))

    def _folder(self, name: str) -> str | None:
        path = REPO_ROOT / name
        return _sha("\n".join(sorted(os.listdir(path)))) if path.is_dir() else None


@functools.lru_cache(maxsize=None)
def _lines(module: str) -> list[str] | None:
    path = _module_file(module)
    return path.read_text(encoding="utf-8").splitlines(keepends=True) if path else None


@functools.lru_cache(maxsize=None)
def _parsed(module: str) -> ast.Module | None:
    lines = _lines(module)
    try:
        return ast.parse("".join(lines)) if lines is not None else None
    except SyntaxError:
        return None


def _functions(module: str) -> list[ast.FunctionDef]:
    tree = _parsed(module)
    return [s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))] if tree else []


@functools.lru_cache(maxsize=None)
def _function_spans(module: str) -> dict[str, tuple[int, int]]:
    """Each top-level function's first line (decorators included) and last line."""
    return {f.name: (min([f.lineno] + [d.lineno for d in f.decorator_list]), f.end_lineno) for f in _functions(module)}


def _body_spans(module: str) -> list[tuple[int, int]]:
    """The lines of each top-level function's body that hold nothing of its signature (a body written on the
    signature's line stays in the frame)."""
    spans = []
    for function in _functions(module):
        header = max([function.lineno] + [n.end_lineno for n in ast.walk(function.args) if hasattr(n, "end_lineno")]
                     + ([function.returns.end_lineno] if function.returns else []))
        if function.body[0].lineno > header:
            spans.append((function.body[0].lineno, function.end_lineno))
    return spans


@functools.lru_cache(maxsize=None)
def _imports(module: str) -> tuple[frozenset[str], frozenset[str]]:
    """The project modules (rules/, properties/) ``module`` imports anywhere in its source, and the packages it
    only passes through (``from rules.ninth import overwatch``: the package's own frame runs, but nothing is read
    from what it imports in turn; that it registers their rule functions is the registry's digest's concern)."""
    tree = _parsed(module)
    if tree is None:
        return frozenset(), frozenset()
    file = _module_file(module)
    package = module if file is not None and file.name == "__init__.py" else module.rpartition(".")[0]
    read, passed = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1])
                base = f"{parent}.{base}" if node.module else parent
            submodules = [f"{base}.{alias.name}" for alias in node.names if _module_file(f"{base}.{alias.name}")]
            targets = submodules + ([base] if len(submodules) < len(node.names) else [])
            passed.add(base)
        else:
            continue
        for target in targets:
            read.add(target)
            parts = target.split(".")
            passed.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return (frozenset(m for m in read if _module_file(m)),
            frozenset(m for m in passed - read if _module_file(m)))


def closure(modules: set[str]) -> set[str]:
    """The modules, every project module they read from at any depth, and the packages those pass through."""
    seen, waiting = set(), [m for m in modules if _module_file(m)]
    while waiting:
        module = waiting.pop()
        if module not in seen:
            seen.add(module)
            read, passed = _imports(module)
            waiting.extend(read - seen)
            seen |= passed
    return seen


def _called(calls: set[str]) -> tuple[set[str], set[str]]:
    """The calls recorded ("module:top-level name") as the functions called ("module.name") and their modules."""
    pairs = [call.partition(":")[::2] for call in calls]
    return ({f"{module}.{name}" for module, name in pairs if name in _function_spans(module)},
            {module for module, _ in pairs})


def depends(record: Record, defined_in: tuple[str, ...], sources: Sources) -> dict[str, dict[str, str | None]]:
    """The digests a check's verdict rests on, from what it called, opened and listed and where it is defined."""
    functions, called_modules = _called(record.calls)
    modules = closure(called_modules | set(defined_in))
    files = {f for f in record.files if not f.endswith(".pyc")}
    files |= {str(_module_file(m).relative_to(REPO_ROOT).as_posix()) for m in modules if m.startswith("properties")}
    return {"function": {n: sources.digest("function", n) for n in sorted(functions)},
            "frame": {m: sources.digest("frame", m) for m in sorted(modules) if m.startswith("rules")},
            "file": {f: sources.digest("file", f) for f in sorted(files)},
            "folder": {f: sources.digest("folder", f) for f in sorted(record.folders)}}


def changed(deps: dict[str, dict[str, str | None]], sources: Sources) -> list[str]:
    """What of ``deps`` is no longer as it was recorded, in words ("rules.core.moving.advance changed")."""
    out = []
    for kind, digests in sorted(deps.items()):
        for name, digest in sorted(digests.items()):
            if sources.digest(kind, name) != digest:
                what = {"function": name, "frame": f"{name} (outside its functions)", "file": name,
                        "folder": f"the folder {name}", "registry": f"the tagging of the {name} rule functions"}[kind]
                out.append(f"{what} {'changed' if sources.digest(kind, name) else 'is gone'}"
                           if digest else f"{what} appeared")
    return out


def _matches(path: str, patterns: tuple[str, ...]) -> bool:
    import fnmatch

    return any(fnmatch.fnmatchcase(path, pattern) for pattern in patterns)


def environment() -> dict[str, str]:
    """What a verdict also depends on besides the tree: the tools' versions and the hypothesis profile."""
    import hypothesis
    import pytest
    import z3

    return {"python": sys.version.split()[0], "hypothesis": hypothesis.__version__, "pytest": pytest.__version__,
            "z3": z3.get_version_string(), "hypothesis profile": os.environ.get("HYPOTHESIS_PROFILE", "dev")}


# -- a run --------------------------------------------------------------------------------------------------------


def load(path: Path = CACHE) -> tuple[dict | None, str | None]:
    """The last run's record, or None and why it cannot be used (then every check reruns)."""
    if not path.exists():
        return None, "there is no previous run to compare with"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None, f"the last run's record ({path.name}) cannot be read"
    return data, None


def _global_change(previous: dict, sources: Sources) -> str | None:
    """Why every check must rerun although the last run was recorded, in one phrase, or None."""
    now = environment()
    for key, value in previous["environment"].items():
        if now.get(key) != value:
            return f"the {key} changed ({value} → {now.get(key)})"
    differences = changed(previous["global"], sources)
    return f"{differences[0]}, and every check stands on it" if differences else None


def _definition(item) -> str:
    return _sha(json.dumps(item.definition, sort_keys=True, default=str))


def _why(item, entry: dict | None, sources: Sources) -> str | None:
    """Why one check must rerun, or None when its last verdict still holds."""
    if entry is None:
        return "a new check"
    if entry["definition"] != _definition(item):
        return "its data changed"
    return next(iter(changed(entry["deps"], sources)), None)


def run(ruleset: str | None = None, *, properties: bool = True, cache: Path = CACHE,
        progress: Callable[[str, int], None] | None = None, setup: Record | None = None) -> tuple[dict, dict]:
    """Rerun the checks whose verdict may have changed since the run ``cache`` records; reuse the others'.

    ``setup`` is the record watching the run around the checks (opened, with ``watch_imports``, before the project
    is imported, so the imports' calls are in it). Returns the complete results and a report: each check rerun
    with why, how many verdicts were reused, why every check reran if they all did, and the record ``save``
    keeps for the next run (None when this process imported rules/ before it could watch it: then every check
    reruns and nothing is kept)."""
    from rules40k import checks

    started = time.time()
    setup = setup or Record()
    sources = Sources()
    previous, everything = load(cache)
    records: dict[str, dict] = {}
    with contextlib.nullcontext() if _current and _current[-1] is setup else watching(setup):
        planned = checks.plan(ruleset, properties=properties)
        watched = rules_watched()
        if not watched:
            everything = "this process imported the rules before it could watch what the checks call"
        everything = everything or _global_change(previous, sources)
        stored = {} if everything else previous["checks"]
        why = {item.key: everything or _why(item, stored.get(item.key), sources) for item in planned}
        why = {key: reason for key, reason in why.items() if reason}
        caches = _project_caches()

        def finish(item, result: dict, record: Record) -> None:
            records[item.key] = {"result": result, "definition": _definition(item),
                                 "deps": depends(record, item.modules, sources)}
            if progress:
                progress(result["id"], len(why))

        for item in planned:
            if item.key in why and item.run is not None:
                for cached in caches:
                    cached.cache_clear()
                with watching(Record()) as record:
                    result = item.run()
                finish(item, result, record)
        properties_due = {item.nodeid: item for item in planned if item.key in why and item.nodeid}
        ran, watched_by = run_properties_in_two(list(properties_due), caches)
        for nodeid, result in ran.items():
            finish(properties_due[nodeid], result, watched_by[nodeid])
        around = _around_the_checks(setup, sources)  # (loading every ruleset's registry is watched too)
    missing = sorted(set(properties_due) - set(ran))
    if missing:
        raise RuntimeError(f"the property {missing[0]} did not run")
    reused = [stored[item.key]["result"] for item in planned if item.key not in why]
    names = [ruleset] if ruleset else list(checks.spec.rulesets())
    results = checks.assemble(names, [entry["result"] for entry in records.values()] + reused)
    planned_keys = {item.key for item in planned}

    def still_a_check(key: str, entry: dict) -> bool:
        """A check of another ruleset, or a property not asked for this time, keeps its record; a check of these
        rulesets that is no longer planned is gone."""
        return (entry["result"]["ruleset"] not in names or (not properties and entry["result"]["kind"] == "property")
                or key in planned_keys)

    kept = {} if everything else {key: entry for key, entry in previous["checks"].items()
                                  if key not in records and still_a_check(key, entry)}
    if not everything:  # what the reused verdicts stood on is still what they stand on
        for kind, digests in previous["global"].items():
            around.setdefault(kind, {}).update({n: d for n, d in digests.items() if n not in around[kind]})
    record = {"format": FORMAT, "environment": environment(), "global": around, "checks": {**kept, **records}}
    # A digest is taken when first needed: a file edited while the checks ran could be recorded with a verdict
    # of its earlier self.
    edited = _edited_since(started)
    report = {"everything": everything, "rerun": {records[k]["result"]["id"]: why[k] for k in records},
              "reused": len(reused), "total": len(planned), "record": record if watched and not edited else None,
              "edited during the run": edited}
    return results, report


def _edited_since(moment: float) -> str | None:
    """A file of the project edited after ``moment``, if one was."""
    for part in ("rules", "rules40k", "properties", "spec", "pyproject.toml"):
        root = REPO_ROOT / part
        for path in [root] if root.is_file() else root.rglob("*"):
            if not _IGNORED_PARTS & set(path.parts) and path.is_file() and path.stat().st_mtime > moment:
                return path.relative_to(REPO_ROOT).as_posix()
    return None


def _around_the_checks(setup: Record, sources: Sources) -> dict[str, dict[str, str | None]]:
    """What every check stands on: the functions called and the files read around the checks (but the files that
    only say which checks there are, and the imports' source files), with their modules' frames, the runner,
    ``GLOBAL_FILES`` and which function each section is tagged on."""
    from rules import spec

    functions, modules = _called(setup.calls)
    out = {"function": {n: sources.digest("function", n) for n in sorted(functions)},
           "frame": {m: sources.digest("frame", m) for m in sorted(modules)}}
    files = {f for f in setup.files if not _matches(f, PLAN_FILES) and not f.endswith((".py", ".pyc"))}
    out["file"] = {f: sources.digest("file", f) for f in sorted(files | set(_global_files()))}
    out["folder"] = {f: sources.digest("folder", f) for f in sorted(setup.folders) if not _matches(f, PLAN_FOLDERS)}
    out["registry"] = {name: sources.digest("registry", name) for name in spec.rulesets()}
    return out


def _global_files() -> list[str]:
    """``GLOBAL_FILES`` as they are now, and every module of rules40k/ loaded (the runner of every check)."""
    found = {Path(p).relative_to(REPO_ROOT).as_posix() for pattern in GLOBAL_FILES
             for p in glob.glob(str(REPO_ROOT / pattern))}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if path and Path(path).resolve().is_relative_to(REPO_ROOT / "rules40k"):
            found.add(Path(path).resolve().relative_to(REPO_ROOT).as_posix())
    return sorted(found)


def _run_properties_here(nodeids: list[str], caches: list) -> tuple[dict[str, dict], dict[str, Record]]:
    from rules40k import property_runner

    plugin, ran = _PerProperty(caches), {}
    property_runner.run_properties(lambda result: ran.__setitem__(result["test"], result), nodeids=nodeids,
                                     plugins=(plugin,))
    return ran, plugin.records


def run_properties_in_two(nodeids: list[str], caches: list) -> tuple[dict[str, dict], dict[str, Record]]:
    """The properties to rerun, half of them in a forked child (a machine has two cores or more): each property's
    result and record. A child that gives no answer (it crashed) has its half run here after all."""
    if len(nodeids) < 4 or (os.cpu_count() or 1) < 2:
        return _run_properties_here(nodeids, caches)
    import pickle

    from rules40k import interrupts

    mine, theirs = nodeids[::2], nodeids[1::2]

    def their_half() -> bytes:
        ran, records = _run_properties_here(theirs, caches)
        return pickle.dumps((ran, {n: (r.calls, r.files, r.folders) for n, r in records.items()}))

    pid, read = interrupts.fork_answering(their_half, quiet=True)
    with os.fdopen(read, "rb") as pipe:
        try:
            ran, records = _run_properties_here(mine, caches)
            got = pipe.read()
        except BaseException:  # Ctrl-C, say: the child's half is not waited for
            os.kill(pid, signal.SIGKILL)
            raise
        finally:
            os.waitpid(pid, 0)
    if not got:
        more, more_records = _run_properties_here(theirs, caches)
        return {**ran, **more}, {**records, **more_records}
    their_ran, their_records = pickle.loads(got)
    for nodeid, (calls, files, folders) in their_records.items():
        record = Record()
        record.calls, record.files, record.folders = calls, files, folders
        records[nodeid] = record
    return {**ran, **their_ran}, records


class _PerProperty:
    """A pytest plugin: each property runs in a record of its own, with the project's caches emptied first."""

    def __init__(self, caches: list):
        self.caches = caches
        self.records: dict[str, Record] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        for cached in self.caches:
            cached.cache_clear()
        with watching(Record()) as record:
            yield
        self.records[item.nodeid] = record


def check_equivalents(names: list[str], cache: Path = CACHE) -> dict[str, dict[str, str]]:
    """Check each ruleset's mutants.yaml as `validate` does, matching entries against the mutants only for the
    modules whose source, entries or rules40k/mutate.py changed since the last run matched them (making a
    module's mutants takes seconds; a ruleset's, half a minute). Returns what to keep for the next run."""
    from rules import safe_yaml
    from rules40k import annotations

    previous, _ = load(cache)
    matched = (previous or {}).get("equivalents checked", {})
    sources = Sources()
    out = dict(matched)
    for name in names:
        path = annotations.annotations_dir(name) / "mutants.yaml"
        entries = safe_yaml.read(path) if path.exists() else []
        entries = [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []
        named = {e["module"] for e in entries if isinstance(e.get("module"), str)}

        def key(module: str) -> str:
            mine = [e for e in entries if e.get("module") == module]
            file = _module_file(module)
            return _sha(json.dumps([mine, sources.digest("file", "rules40k/mutate.py"),
                                    file and sources.digest("file", file.relative_to(REPO_ROOT).as_posix())],
                                   sort_keys=True, default=str))

        out[name] = {module: key(module) for module in sorted(named)}
        mutate.equivalents(name, modules={m for m in named if matched.get(name, {}).get(m) != out[name][m]})
    return out


def save(record: dict, path: Path = CACHE) -> None:
    """Keep this run's record for the next ``--changed`` (atomically: an interrupted run leaves the last one)."""
    from rules40k import atomic

    atomic.write_text(path, json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n")

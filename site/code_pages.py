"""Code pages and code links: where every check lives, which files get a code page, and what a code page lists.

A check is only as readable as the code behind it, so every check on the site links to the line where it is
defined: a proof to its ``@proof`` builder, a property to its test (a state machine to its machine class), a
decision table to its definition, a worked example to its entry in the examples file and a comparison to its
entry in the concept map; an example and a comparison also link to the functions they call. Lines are found in
the current sources (by ``ast``, the YAML node tree and the code objects of imported functions), never copied
into results.json, where they would go stale.

A code page shows a whole file with line anchors, and above it what the file holds: the rule functions with the
sections they encode, and the checks with their statement in words, their sections, status and counterexample.
Properties that name no section (no ``@pytest.mark.refs``, so ``rules40k verify`` never runs them) are listed
there too, so that no property is invisible.

Nothing here decides a verdict: statuses and counterexamples are read from results.json.
"""

from __future__ import annotations

import ast
import functools
import html
import importlib
import inspect
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from rules import safe_yaml, spec

REPO_ROOT = spec.SPEC_ROOT.parent

#: The anchor of a line on a code page: the line's own span (pymdownx.highlight ``line_spans``) in the page's
#: first code block, so the line is the ``:target`` and plain CSS highlights it. Every link to a line of code uses it.
CODE_LINE_ANCHOR = "__span-0-{line}"

#: The modules the rule functions stand on, shown whenever rule modules are: the dual concrete/z3 operations
#: and decision tables, exact dice, the scenario schema, the calculator and the attack engine under it (with the
#: literal engine and the dice-rolling simulation its properties compare with), and each ruleset's attack rules.
SUPPORT_MODULES = ("rules/logic.py", "rules/dice.py", "rules/scenario.py", "rules/calculator.py",
                   *sorted(f"rules/engine/{path.name}" for path in (REPO_ROOT / "rules" / "engine").glob("*.py")),
                   *sorted(path.relative_to(REPO_ROOT).as_posix()
                           for path in (REPO_ROOT / "rules").glob("*/attacks.py")))

#: What a place is, in the words a code link uses.
DEFINED, CALLS = "defined", "calls"


@dataclass(frozen=True)
class Place:
    """A line of a repository file, and what the check has there (DEFINED: the check itself; CALLS: code it runs)."""

    file: str
    line: int
    role: str = DEFINED
    name: str = ""  # the dotted name of the function called, for CALLS places


# ---------------------------------------------------------------------------
# Reading the sources (cached by file and modification time: a build reads each file once)


def _stamp(file: str) -> tuple[str, int, int]:
    stat = (REPO_ROOT / file).stat()
    return file, stat.st_mtime_ns, stat.st_size


@functools.lru_cache(maxsize=256)
def _tree(file: str, _mtime: int, _size: int) -> ast.Module:
    return ast.parse((REPO_ROOT / file).read_text(encoding="utf-8"), filename=file)


def tree(file: str) -> ast.Module | None:
    """The parsed Python file, or None when it is missing or does not parse."""
    try:
        return _tree(*_stamp(file))
    except (OSError, SyntaxError, ValueError):
        return None


def _first_line(node: ast.AST) -> int:
    """A definition's first line: its first decorator's, where the reader sees what it is (``@proof``, marks)."""
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])


def _assigned(node: ast.stmt) -> list[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    return [t.id for t in targets if isinstance(t, ast.Name)]


def top_level(file: str) -> dict[str, ast.stmt]:
    """The module-level functions, classes and assigned names of a Python file, by name."""
    module = tree(file)
    out: dict[str, ast.stmt] = {}
    for node in module.body if module else []:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[node.name] = node
        for name in _assigned(node):
            out.setdefault(name, node)
    return out


def _machine_of(node: ast.stmt, names: dict[str, ast.stmt]) -> ast.ClassDef | None:
    """The state machine class a binding such as ``TestX = pytest.mark.refs(...)(Machine.TestCase)`` runs."""
    for part in ast.walk(node):
        if isinstance(part, ast.Attribute) and part.attr == "TestCase" and isinstance(part.value, ast.Name):
            machine = names.get(part.value.id)
            if isinstance(machine, ast.ClassDef):
                return machine
    return None


def test_line(nodeid: str) -> tuple[str, int] | None:
    """The file and line of a pytest node: a test function's first decorator, a state machine's class."""
    file, *parts = nodeid.split("::")
    names = top_level(file)
    node = names.get(parts[0].split("[")[0]) if parts else None
    if node is None:
        return None
    machine = _machine_of(node, names) if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    if machine is not None:
        return file, _first_line(machine)
    if isinstance(node, ast.ClassDef) and len(parts) > 1 and parts[1] != "runTest":
        method = next((n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                       and n.name == parts[1].split("[")[0]), None)
        if method is not None:
            return file, _first_line(method)
    return file, _first_line(node)


@functools.lru_cache(maxsize=256)
def _yaml_lines(file: str, _mtime: int, _size: int, key: str) -> dict[str, int]:
    node = safe_yaml.compose((REPO_ROOT / file).read_text(encoding="utf-8"))
    out: dict[str, int] = {}
    if isinstance(node, yaml.SequenceNode):
        for entry in node.value:
            if isinstance(entry, yaml.MappingNode):
                for k, v in entry.value:
                    if k.value == key and isinstance(v, yaml.ScalarNode):
                        out.setdefault(str(v.value), entry.start_mark.line + 1)
    return out


def yaml_entry_lines(file: str, key: str) -> dict[str, int]:
    """For a YAML file that is a list of entries: each entry's ``key`` value -> the line the entry starts on."""
    try:
        return _yaml_lines(*_stamp(file), key)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):  # unreadable: its entries are left unlinked
        return {}


def repository_file(path: str | None) -> str | None:
    """A path as a repository-relative POSIX path, or None for a file outside the repository."""
    if not path:
        return None
    try:
        return Path(path).resolve().relative_to(REPO_ROOT.resolve()).as_posix()
    except ValueError:
        return None


def object_place(obj: Any, role: str = DEFINED, name: str = "", tables: dict | None = None) -> Place | None:
    """Where a function, class or decision table (found in ``tables``) is defined in the repository (a decorator's
    line if it has one)."""
    from rules import logic

    if isinstance(obj, logic.DecisionTable):
        place = (tables or {}).get(("", obj.name))
        return Place(place.file, place.line, role, name) if place else None
    target = inspect.unwrap(obj)
    code = getattr(target, "__code__", None)
    try:
        file = repository_file(code.co_filename if code else inspect.getsourcefile(target))
        line = code.co_firstlineno if code else inspect.getsourcelines(target)[1]
    except (OSError, TypeError):
        return None
    return Place(file, line, role, name) if file and line else None


def function_place(dotted: str, role: str = CALLS, tables: dict | None = None) -> Place | None:
    """Where the function a dotted path names (``rules.core.moving.in_coherency``) is defined."""
    from rules import registry

    try:  # a path from data (an example's call, results.json's comparisons): only what data may name
        obj = registry.named_function(str(dotted))
    except registry.RegistryError:
        return None
    return object_place(obj, role, str(dotted), tables)


def proof_places() -> dict[str, Place]:
    """Every registered z3 proof's builder, by proof id (its ``@proof(...)`` line, which states it)."""
    from properties import proofs

    out = {}
    for proof_id, item in proofs.load_all().items():
        place = object_place(item.build)
        if place is not None:
            out[proof_id] = place
    return out


def table_places() -> dict[tuple[str, str], Place]:
    """Every decision table defined at the top of a rules module: (ruleset or "", table name) -> its definition.

    A table is found by the module variable it is bound to, so its name may be computed."""
    from rules import logic, registry

    out: dict[tuple[str, str], Place] = {}
    for ruleset in spec.rulesets():
        for name in sorted({r.function.__module__ for rs in registry.load(ruleset).values() for r in rs}):
            module = importlib.import_module(name)
            file = repository_file(getattr(module, "__file__", None))
            nodes = top_level(file) if file else {}
            for variable, value in vars(module).items():
                if isinstance(value, logic.DecisionTable) and variable in nodes:
                    place = Place(file, _first_line(nodes[variable]))
                    out.setdefault((ruleset, value.name), place)
                    out.setdefault(("", value.name), place)
    return out


# ---------------------------------------------------------------------------
# Where a check lives


class Locator:
    """Where the checks of one build live; made once per build from the books (their examples and concept maps)."""

    def __init__(self, library: dict) -> None:
        self.library = library
        self.examples: dict[str, dict] = {}
        for name, book in library.items():
            for example in book.examples:
                self.examples[spec.qualify(name, example["id"])] = example
        self._proofs: dict[str, Place] | None = None
        self._tables: dict[tuple[str, str], Place] | None = None
        self._places: dict[tuple, list[Place]] = {}
        self.files: set[str] | None = None  # the files with a code page in this build, once chosen
        self._by_file: tuple[dict | None, dict[str, list[tuple[Place, dict]]]] = (None, {})

    @property
    def proofs(self) -> dict[str, Place]:
        if self._proofs is None:
            self._proofs = proof_places()
        return self._proofs

    @property
    def tables(self) -> dict[tuple[str, str], Place]:
        if self._tables is None:
            self._tables = table_places()
        return self._tables

    def places(self, check: dict) -> list[Place]:
        """The lines of a check: where it is defined first, then the functions it calls. Empty when not found."""
        key = (check.get("kind"), str(check.get("id", "")), str(check.get("test", "")),
               tuple(check.get("compared") or ()))
        if key not in self._places:
            self._places[key] = self._find(check)
        return self._places[key]

    def _find(self, check: dict) -> list[Place]:
        kind, ident = check.get("kind"), str(check.get("id", ""))
        local = ident.partition(":")[2]
        out: list[Place | None] = []
        if kind == "proof":
            out.append(self.proofs.get(local))
        elif kind == "property" and check.get("test"):
            found = test_line(str(check["test"]))
            out.append(Place(*found) if found else None)
        elif kind == "table":
            ruleset, name = spec.split_ref(local) if ":" in local else (check.get("ruleset") or "", local)
            out.append(self.tables.get((ruleset, name)) or self.tables.get(("", name)))
        elif kind == "example":
            example = self.examples.get(local)
            if example is not None:
                file = repository_file(str(REPO_ROOT / example["file"])) if example.get("file") else None
                line = yaml_entry_lines(file, "id").get(str(example["id"])) if file else None
                out.append(Place(file, line) if file and line else None)
                out.append(function_place(example["call"], tables=self.tables))
        elif kind == "comparison":
            ruleset = check.get("ruleset") or spec.split_ref(local)[0]
            claim = spec.split_ref(local)[1] if ":" in local else local
            file = f"spec/{ruleset}/annotations/concepts.yaml"
            line = yaml_entry_lines(file, "claim").get(claim) if (REPO_ROOT / file).is_file() else None
            out.append(Place(file, line) if line else None)
            out += [function_place(dotted, tables=self.tables) for dotted in check.get("compared") or []]
        return list(dict.fromkeys(p for p in out if p is not None))

    def page_of(self, place: Place | None) -> str | None:
        """The code page showing a place, when its file has one in this build (None: leave it unlinked)."""
        target = code_page_path(place.file) if place is not None else None
        if target is None or (self.files is not None and place.file not in self.files):
            return None
        return target

    def place(self, check: dict) -> Place | None:
        """Where a check is defined (its first place)."""
        places = self.places(check)
        return places[0] if places and places[0].role == DEFINED else None

    def defined_in(self, results: dict | None) -> dict[str, list[tuple[Place, dict]]]:
        """The checks of a results document by the file they are defined in (worked out once per document)."""
        if results is None:
            return {}
        if self._by_file[0] is not results:
            by_file: dict[str, list[tuple[Place, dict]]] = {}
            for check in results.get("checks", []):
                place = self.place(check)
                if place is not None:
                    by_file.setdefault(place.file, []).append((place, check))
            self._by_file = (results, by_file)
        return self._by_file[1]


_LOCATOR: list = []  # one (library, Locator) pair: the build in progress


def locator(library: dict) -> Locator:
    """The Locator of a build's library (made once; a new library, as in a new build, gets a new one)."""
    if not _LOCATOR or _LOCATOR[0][0] is not library:
        _LOCATOR[:] = [(library, Locator(library))]
    return _LOCATOR[0][1]


def code_page_path(file: str) -> str | None:
    """The code page of a repository file (``code/rules/logic.md``,
    ``code/spec/quickref/annotations/concepts.yaml.md``), or None for a file that is not shown (not in the repository, or neither Python nor YAML)."""
    if Path(file).is_absolute() or not (REPO_ROOT / file).is_file():
        return None
    if file.endswith(".py"):
        return f"code/{file[:-3]}.md"
    if file.endswith((".yaml", ".yml")):
        return f"code/{file}.md"
    return None


def check_code(page, check: dict, label: str | None = None) -> dict:
    """A check's code links from a page, as raw HTML: its id linked to the line it is defined on, and the
    functions it calls, each named and linked to its line. The names are already on the page, so the links add
    little weight. ``label`` replaces the id shown (a worked example shows its own id, its file beside it, so the
    hover says only the line). Only files with a code page in this build are linked."""
    found = locator(page.book.library)
    shown = f"<code>{html.escape(str(check.get('id', '?') if label is None else label))}</code>"
    out = {"id": shown, "calls": []}
    for place in found.places(check):
        target = found.page_of(place)
        if target is None:
            continue
        if place.role == DEFINED:
            hover = f"line {place.line}" if label is not None else f"{place.file}, line {place.line}"
            out["id"] = line_link(page, target, place.line, shown, hover)
        else:
            called = f"<code>{html.escape(place.name or place.file)}</code>"
            out["calls"].append(line_link(page, target, place.line, called))  # the dotted name says where
    return out


def line_link(page, target: str, line: int, label_html: str, title: str = "") -> str:
    """A raw HTML link to a line of a code page (relative, so the site works from file:// and over HTTP);
    ``label_html`` is already HTML, ``title`` (the file and line) shows on hover."""
    from rules40k_site.generate import url_of

    there, here = url_of(target), url_of(page.path)
    href = "" if there == here else posixpath.relpath(there, posixpath.dirname(here) or ".")
    hover = f' title="{html.escape(title)}"' if title else ""
    return f'<a href="{html.escape(href)}#{CODE_LINE_ANCHOR.format(line=line)}"{hover}>{label_html}</a>'


# ---------------------------------------------------------------------------
# Which files get a code page


def check_files(books: list, results: dict | None) -> set[str]:
    """The files where the checks of a build are defined or that they call (those with a code page)."""
    if results is None or not books:
        return set()
    found = locator(books[0].library)
    names = {b.document for b in books}
    return {place.file for check in results.get("checks", []) if check.get("ruleset", spec.DEFAULT_RULESET) in names
            for place in found.places(check) if code_page_path(place.file)}


def property_files() -> list[str]:
    """The files under properties/ that define a hypothesis property (so unmarked ones are shown too)."""
    return sorted(f"properties/{path.name}" for path in (REPO_ROOT / "properties").glob("test_*.py")
                  if scan_properties(f"properties/{path.name}"))


def files(books: list, rule_modules: list[str]) -> list[str]:
    """Every file with a code page: the rule modules, the modules they stand on (when there are rule modules),
    the files the checks live in and call, and the property files (when checks were run)."""
    results = books[0].results if books else None
    chosen = set(rule_modules) | check_files(books, results)
    if rule_modules:
        chosen |= {f for f in SUPPORT_MODULES if code_page_path(f)}
    if results is not None:
        chosen |= set(property_files())
    return sorted(f for f in chosen if code_page_path(f))


# ---------------------------------------------------------------------------
# Properties read from the source (marked or not)


def _refs_mark(node: ast.AST) -> tuple[str, ...] | None:
    """The string references of a ``pytest.mark.refs(...)`` call within ``node``; None when there is none."""
    for part in ast.walk(node):
        if isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute) and part.func.attr == "refs" \
                and isinstance(part.func.value, ast.Attribute) and part.func.value.attr == "mark":
            return tuple(a.value for a in part.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return None


def _is_given(decorator: ast.expr) -> bool:
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(func, ast.Name) and func.id == "given") or \
        (isinstance(func, ast.Attribute) and func.attr == "given")


def scan_properties(file: str) -> list[dict]:
    """The hypothesis properties of a test file, read from its source: every test the property runner runs (one
    with a ``refs`` mark, such as a state machine run by ``run_state_machine_as_test``), and the unmarked
    ``@given`` tests and state machines bound as tests (``TestX = Machine.TestCase``) it does not; each with its
    line, marked references (None: no mark) and its name in words, made as the property runner makes it."""
    from rules40k.sentences import first_sentence

    names = top_level(file)
    found = []
    for name, node in names.items():
        if not name.startswith("test") and not name.startswith("Test"):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            refs = next((r for r in map(_refs_mark, node.decorator_list) if r is not None), None)
            if refs is None and not any(_is_given(d) for d in node.decorator_list):
                continue  # a plain test; with a refs mark (a state machine run by hand) the runner runs it too
            found.append({"name": name, "line": _first_line(node), "refs": refs,
                          "title": first_sentence(ast.get_docstring(node)) or name})
        elif not isinstance(node, ast.ClassDef):
            machine = _machine_of(node, names)
            if machine is None:
                continue
            refs = _refs_mark(node)
            if refs is None:  # marked later: ``TestX = pytest.mark.refs(...)(TestX)`` is the same binding
                refs = next((_refs_mark(n) for n in (tree(file).body if tree(file) else [])
                             if name in _assigned(n) and _refs_mark(n) is not None), None)
            found.append({"name": name, "line": _first_line(machine), "refs": refs,
                          "title": first_sentence(ast.get_docstring(machine)) or machine.name})
    return sorted(found, key=lambda p: (p["line"], p["name"]))


# ---------------------------------------------------------------------------
# A code page


def page_context(page, books: list, file: str, rule_functions: list[tuple[int, str, str, Any]], check_view) -> dict:
    """What code.md.j2 shows for one file: its rule functions (line, name, section link), the checks defined in
    it (each with its line, statement, sections, status and counterexample) and its unmarked properties."""
    from rules40k_site import generate, tables

    results = books[0].results if books else None
    found = locator(page.book.library)
    here = page.path
    checks, counterexamples = [], []
    recorded = set()
    for place, check in found.defined_in(results).get(file, []):
        view = check_view(page, check)
        anchor = generate.anchor("cx-", check.get("id"))
        cx = view["counterexample"]
        if cx:
            counterexamples.append({"id": view["id"], "anchor": anchor, "name": view["name"], "body": cx})
        checks.append({"line": place.line, "link": line_link(page, here, place.line, str(place.line)),
                       "view": view, "anchor": anchor if cx else ""})
        if check.get("kind") == "property" and check.get("test"):
            recorded.add(str(check["test"]).split("::")[1].split("[")[0] if "::" in str(check["test"]) else "")
    checks.sort(key=lambda c: (c["line"], str(c["view"]["id"])))
    unrun = []
    if file.startswith("properties/") and file.endswith(".py"):
        for prop in scan_properties(file):
            if prop["name"] in recorded:
                continue
            unrun.append({"line": prop["line"], "link": line_link(page, here, prop["line"], str(prop["line"])),
                          "name": prop["name"], "title": prop["title"],
                          "refs": [page.link(ref, ref) for ref in prop["refs"] if page.book.page_path(ref)]
                          if prop["refs"] else None})
    return {
        "file": file,
        "language": "yaml" if file.endswith((".yaml", ".yml")) else "python",
        "functions": [{"link": line_link(page, here, line, html.escape(f"{qualname.rpartition('.')[2]}, line {line}")),
                       "section": section} for line, qualname, section, _ in rule_functions],
        "checks": checks,
        "counts": list(tables.counts([c["view"] for c in checks], "status", "error", tables.STATUS_ORDER).items()),
        "counterexamples": counterexamples,
        "unrun": unrun,
        "results_run": results is not None,
    }


def index_context(page, files_shown: list[str], rule_modules: list[str], checks_per_file: dict[str, int]) -> dict:
    """The code index: every code page, grouped by folder, with what each file holds."""
    groups: dict[str, list[dict]] = {}
    for file in files_shown:
        folder = posixpath.dirname(file)
        what = []
        if file in rule_modules:
            what.append("rule functions")
        if checks_per_file.get(file):
            n = checks_per_file[file]
            what.append(f"{n} check{'s' if n != 1 else ''}")
        if file in SUPPORT_MODULES:
            what.append("what the rules stand on")
        groups.setdefault(folder, []).append({"file": file, "name": posixpath.basename(file),
                                              "href": page.href(code_page_path(file)), "what": ", ".join(what)})
    return {"groups": sorted(groups.items())}


def nav(files_shown: list[str]) -> list:
    """The nav's Code part: the code index, then one entry per folder (rules, properties, spec annotations)."""
    if not files_shown:
        return []
    tree_: dict[str, list] = {}
    for file in files_shown:
        tree_.setdefault(posixpath.dirname(file), []).append({posixpath.basename(file): code_page_path(file)})
    return [{"Code": ["code/index.md", *({folder: entries} for folder, entries in sorted(tree_.items()))]}]

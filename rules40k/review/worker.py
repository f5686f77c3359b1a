"""One batch of an outcome sweep: expected models destroyed for each scenario, under one tree's rules.

Standalone on purpose: this module imports nothing of ``rules``, ``rules40k`` or ``properties`` at
module level and keeps no state in its own globals, so it can be pickled by value (cloudpickle) into
Dask workers that do not have this project installed, or run in a process whose ``sys.path`` points at
an older checkout of the project. It uses only what every version since b78b3b3 has:
``rules.scenario.read_scenario(data, source)`` and ``rules.calculator.calculate(scenario)`` with the
result's ``expected_models_destroyed`` (a ``Fraction``).

Per-process state (which tree's ``rules`` is loaded) lives in a small synthetic module in
``sys.modules`` rather than in this module's globals: a copy of this module unpickled by value gets
fresh globals, while the loaded ``rules`` package belongs to the process.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import types

_STATE_MODULE = "_rules40k_review_worker_state"


def _state() -> types.ModuleType:
    """The process's sweep state: the tree in use, the sys.path entry we added, a lock for overrides."""
    state = sys.modules.get(_STATE_MODULE)
    if state is None:
        # setdefault keeps this race-free enough: two threads may build one each, one wins.
        candidate = types.ModuleType(_STATE_MODULE, "rules40k sweep worker state (per process)")
        candidate.root = None  # the tree whose rules package this process uses (None: whatever imports)
        candidate.added_path = None  # the sys.path entry evaluate() inserted, if any
        candidate.lock = threading.RLock()  # overrides patch modules: one batch at a time per process
        state = sys.modules.setdefault(_STATE_MODULE, candidate)
    return state


def _loaded_root() -> str | None:
    """The tree the already-imported ``rules`` package comes from, if it is imported."""
    module = sys.modules.get("rules")
    path = getattr(module, "__file__", None)
    if not path:
        return None
    return os.path.realpath(os.path.dirname(os.path.dirname(path)))


def _default_root() -> str | None:
    """The tree ``import rules`` would load from a clean slate (sys.path and installed finders)."""
    for finder in sys.meta_path:
        find_spec = getattr(finder, "find_spec", None)
        if find_spec is None:
            continue
        try:
            spec = find_spec("rules", None)
        except Exception:  # noqa: BLE001 - a finder that cannot answer is skipped
            continue
        if spec is not None and spec.origin:
            return os.path.realpath(os.path.dirname(os.path.dirname(spec.origin)))
    return None


def _purge_rules() -> None:
    for name in [n for n in sys.modules if n == "rules" or n.startswith("rules.")]:
        del sys.modules[name]
    importlib.invalidate_caches()


def _use_root(root: str | None) -> None:
    """Make ``import rules`` load the tree at ``root`` (None: the tree the process would import anyway)."""
    state = _state()
    wanted = os.path.realpath(root) if root is not None else None
    if wanted == state.root:
        return
    if wanted is not None and not os.path.isfile(os.path.join(wanted, "rules", "calculator.py")):
        raise FileNotFoundError(f"{root}: not a rules40k tree (no rules/calculator.py)")
    if state.added_path is not None:
        while state.added_path in sys.path:
            sys.path.remove(state.added_path)
        state.added_path = None
    if wanted is not None:
        sys.path.insert(0, wanted)
        state.added_path = wanted
        if _loaded_root() != wanted:
            _purge_rules()
    elif _loaded_root() not in (None, _default_root()):
        # Back from another tree to the process's own: forget the other tree's modules.
        _purge_rules()
    state.root = wanted


def _resolve(dotted: str):
    """The object named by "package.module.attribute[.attribute...]" (longest importable module prefix)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            target = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name and (module_name == error.name or module_name.startswith(error.name + ".")):
                continue
            raise
        for attribute in parts[cut:]:
            target = getattr(target, attribute)
        return target
    raise ImportError(f"{dotted}: no importable module in this name")


def _apply(overrides: dict[str, str]) -> list[tuple[object, str, object]]:
    """Set each "module.attribute" to the object named by its value; returns what to restore."""
    undo: list[tuple[object, str, object]] = []
    try:
        for place, source in overrides.items():
            owner_name, _, attribute = place.rpartition(".")
            if not owner_name:
                raise ValueError(f"override {place!r} must name module.attribute")
            owner = _resolve(owner_name)
            value = _resolve(source)
            undo.append((owner, attribute, getattr(owner, attribute)))
            setattr(owner, attribute, value)
    except BaseException:
        _restore(undo)
        raise
    return undo


def _restore(undo: list[tuple[object, str, object]]) -> None:
    for owner, attribute, value in reversed(undo):
        setattr(owner, attribute, value)


def _clear_rule_caches() -> None:
    """Forget memoised rule answers (e.g. the calculator's save table) computed under other rule functions."""
    for name, module in list(sys.modules.items()):
        if not (name == "rules" or name.startswith("rules.")) or module is None:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"error: {text[0] if text else type(error).__name__}"


def _ratio(value) -> str:
    return f"{value.numerator}/{value.denominator}"


#: How a sweep answers a matchup a ruleset cannot state (``rules.<ruleset>.core_scenarios.restate`` said why).
NOT_COMPARABLE = "not comparable:"


def _restatement(ruleset: str | None):
    """``restate`` of ``rules.<ruleset>.core_scenarios``: how that ruleset states a Core Rules matchup (a ruleset
    whose scenarios read like the Core Rules' has none)."""
    if ruleset is None:
        return None
    try:
        return importlib.import_module(f"rules.{ruleset}.core_scenarios").restate
    except ModuleNotFoundError as error:
        if error.name == f"rules.{ruleset}.core_scenarios":
            return None
        raise


def evaluate(root: str | None, scenarios: list[dict], overrides: dict[str, str] | None = None,
             ruleset: str | None = None) -> list[str]:
    """Expected models destroyed of each scenario as an exact "p/q" string, or "error: <one line>".

    ``root``: the project tree whose ``rules`` package to use (put first on ``sys.path``, already
    imported ``rules`` modules dropped when it differs from the tree this process used last);
    None uses whatever ``import rules`` finds. ``overrides``: {"module.attribute": "module.attribute"},
    each place set to the named object for this batch only (restored afterwards), so another
    ruleset's rule function can be swept through the same calculator. A scenario the tree rejects
    (its validation or the calculator raised) gives "error: ..." rather than failing the batch; a
    bad root or override raises. ``ruleset``: calculate under that ruleset's attack rules (a tree's own
    ``calculate(scenario, ruleset=...)``; None, the Core Rules, as every tree can). Switching trees empties this process's ``rules`` modules, so give a
    root other than the process's own only to workers with a process each (a process pool, Dask
    workers started as processes); batches in threads of one process take turns (a lock), since
    overrides patch shared modules.
    """
    state = _state()
    with state.lock:
        _use_root(root)
        calculator = importlib.import_module("rules.calculator")
        scenario = importlib.import_module("rules.scenario")
        undo = _apply(dict(overrides or {}))
        try:
            if undo:
                _clear_rule_caches()
            out: list[str] = []
            restate = _restatement(ruleset)
            for data in scenarios:
                if restate is not None:  # a Core Rules matchup put in that ruleset's terms, or not comparable
                    data, why = restate(data)
                    if data is None:
                        out.append(f"{NOT_COMPARABLE} {why}")
                        continue
                try:
                    reader = getattr(calculator, "scenario_reader", None)  # a ruleset's own, where a tree has one
                    read = (reader(ruleset or "core") if reader else scenario.read_scenario)(data, "scenario")
                    result = (calculator.calculate(read) if ruleset is None
                              else calculator.calculate(read, ruleset=ruleset))
                    out.append(_ratio(result.expected_models_destroyed))
                except Exception as error:  # noqa: BLE001 - any rejection is reported, not raised
                    out.append(_one_line(error))
            return out
        finally:
            _restore(undo)
            if undo:
                _clear_rule_caches()

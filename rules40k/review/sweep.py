"""Outcomes of an errata review: the exact attack calculator swept over a standard grid of matchups.

``standard_grid()`` is a fixed list of matchups, weapon profile × target profile × context, in that
nesting order (weapons outermost, contexts innermost), each with a stable, readable id
``"<weapon> x<count> vs <target> / <context>"`` and a scenario of a single weapon line that every
version of the calculator since b78b3b3 reads. The grid never depends on the rules code, so two
versions' sweeps share ids and order and can be diffed with ``compare_sweeps``.

Weapons (``WEAPONS``, 29 profiles: 18 ranged, 11 melee): Strength 3 to 10, 12 and 16; AP 0 to -4;
Damage 1, 2, 3, D3 and D6; Attacks 1 to 3 (plus D6 for [TORRENT]/[BLAST] and a few 4-6) with
model counts 1 to 10; BS/WS 2+ to 5+; the abilities that change an outcome: [LETHAL HITS],
[SUSTAINED HITS 1], [DEVASTATING WOUNDS], [TWIN-LINKED], [ANTI-INFANTRY 4+], [MELTA 2], [TORRENT],
[BLAST], [HEAVY], [RAPID FIRE 1], [LANCE]. Counts are kept small enough for one exact evaluation to
take milliseconds (the calculator's cost grows with attacks × damage dice × target states).

Targets (``TARGETS``, 15 profiles): infantry with Toughness 3 to 5, Save 6+ to 3+, 1 to 3 Wounds,
with and without a 4+ invulnerable save and a 6+ Feel No Pain; vehicles and monsters with Toughness
8 to 12, Save 2+/3+ and 10 to 16 Wounds (one with a 4+ invulnerable save, one with Feel No Pain 6+);
a lone CHARACTER.

Contexts (``CONTEXTS``, 9): plain (the attacker stationary, nothing else), cover, half range,
charged, moved 6", hit -1, hit +1, wound +1, wound -1. Contexts are crossed with every weapon, so a
melee weapon also meets "cover" and "half range": under the current rules those equal plain, and an
erratum that changed that would show. 29 × 15 × 9 = 3,915 matchups.

Sweeping (``run_sweep``) submits batches of scenarios to ``worker.evaluate`` on any
``concurrent.futures.Executor``: a local process pool by default, or a Dask cluster through
``dask_executor``. ``compare_sweeps`` diffs two sweeps exactly; ``plot_shift`` draws the diff.
"""

from __future__ import annotations

import concurrent.futures
import functools
import os
import re
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from rules.messages import shown
from rules40k import interrupts
from rules40k.review import worker


class SweepError(ValueError):
    """A sweep that cannot run or be compared; the message is one sentence for the command line."""


# -- the standard grid --------------------------------------------------------------------------------

def _weapon(name: str, count: int, A, skill: int, S: int, AP: int, D, abilities=(), melee=False) -> dict:
    return {"name": name, "count": count, "A": A, "skill": skill, "S": S, "AP": AP, "D": D,
            "abilities": list(abilities), "melee": melee}


#: Weapon profiles, each one weapon line; a matchup names it with its model count ("bolt-rifle x10").
WEAPONS: tuple[dict, ...] = (
    # Ranged.
    _weapon("lasgun", 10, 1, 4, 3, 0, 1, ["RAPID FIRE 1"]),
    _weapon("bolt-rifle", 10, 2, 3, 4, -1, 1, ["HEAVY"]),
    _weapon("shoota", 10, 2, 5, 4, 0, 1),
    _weapon("gauss-flayer", 10, 1, 4, 4, 0, 1, ["LETHAL HITS", "RAPID FIRE 1"]),
    _weapon("splinter-rifle", 10, 1, 3, 3, 0, 1, ["ANTI-INFANTRY 4+", "RAPID FIRE 1"]),
    _weapon("heavy-bolter", 2, 3, 4, 5, -1, 2, ["SUSTAINED HITS 1", "HEAVY"]),
    _weapon("stalker-bolt-rifle", 3, 1, 3, 6, -2, 3, ["DEVASTATING WOUNDS", "HEAVY"]),
    _weapon("assault-cannon", 1, 6, 3, 6, 0, 1, ["DEVASTATING WOUNDS"]),
    _weapon("plasma-gun", 5, 1, 3, 8, -3, 2, ["RAPID FIRE 1"]),
    _weapon("autocannon", 2, 2, 4, 9, -1, 3, ["HEAVY"]),
    _weapon("flamer", 2, "D6", 4, 4, 0, 1, ["TORRENT"]),
    _weapon("frag-missile", 1, "D6", 4, 4, 0, 1, ["BLAST"]),
    _weapon("krak-missile", 2, 1, 4, 9, -2, "D6"),
    _weapon("meltagun", 2, 1, 3, 9, -4, "D6", ["MELTA 2"]),
    _weapon("battle-cannon", 1, "D6", 4, 10, -1, 3, ["BLAST", "HEAVY"]),
    _weapon("lascannon", 2, 1, 4, 12, -3, "D6", ["HEAVY"]),
    _weapon("twin-lascannon", 1, 1, 3, 12, -3, "D6", ["TWIN-LINKED"]),
    _weapon("railgun", 1, 1, 4, 16, -4, "D6", ["DEVASTATING WOUNDS", "HEAVY"]),
    # Melee.
    _weapon("chainsword", 5, 3, 3, 4, -1, 1, melee=True),
    _weapon("choppa", 5, 2, 3, 4, -1, 1, ["SUSTAINED HITS 1"], melee=True),
    _weapon("poisoned-blades", 5, 2, 3, 3, 0, 1, ["ANTI-INFANTRY 4+", "LETHAL HITS"], melee=True),
    _weapon("lightning-claws", 5, 3, 3, 5, -2, 1, ["TWIN-LINKED"], melee=True),
    _weapon("laser-lance", 3, 2, 3, 6, -2, 2, ["LANCE"], melee=True),
    _weapon("guardian-spear", 3, 3, 2, 7, -2, 2, melee=True),
    _weapon("power-fist", 2, 3, 3, 8, -2, 2, melee=True),
    _weapon("thunder-hammer", 3, 2, 4, 8, -2, 2, ["DEVASTATING WOUNDS"], melee=True),
    _weapon("eviscerator", 3, 2, 4, 10, -2, "D3", melee=True),
    _weapon("carnifex-claws", 1, 4, 4, 9, -2, 3, ["TWIN-LINKED"], melee=True),
    _weapon("dreadnought-fist", 1, 5, 3, 12, -2, 3, melee=True),
)


def _target(name: str, keywords: Iterable[str], count: int, T: int, Sv: int, W: int, *, InSv=None, FNP=None,
            character=False) -> dict:
    model = {"name": name, "count": count, "T": T, "Sv": Sv, "W": W}
    if InSv is not None:
        model["InSv"] = InSv
    if FNP is not None:
        model["FNP"] = FNP
    if character:
        model["character"] = True
    return {"keywords": list(keywords), "models": [model]}


#: Target profiles: (id, target mapping). Infantry, vehicles and monsters, and a lone CHARACTER.
TARGETS: tuple[tuple[str, dict], ...] = (
    ("cultists", _target("Cultist", ["INFANTRY"], 10, 3, 6, 1)),
    ("guardsmen", _target("Guardsman", ["INFANTRY"], 10, 3, 5, 1)),
    ("guardsmen-fnp6", _target("Guardsman", ["INFANTRY"], 10, 3, 5, 1, FNP=6)),
    ("boyz", _target("Boy", ["INFANTRY"], 10, 5, 5, 1)),
    ("intercessors", _target("Intercessor", ["INFANTRY"], 5, 4, 3, 2)),
    ("intercessors-fnp6", _target("Intercessor", ["INFANTRY"], 5, 4, 3, 2, FNP=6)),
    ("wardens-insv4", _target("Warden", ["INFANTRY"], 5, 3, 3, 2, InSv=4)),
    ("bladeguard-insv4", _target("Bladeguard", ["INFANTRY"], 3, 4, 3, 3, InSv=4)),
    ("gravis-fnp6", _target("Gravis", ["INFANTRY"], 3, 4, 3, 3, FNP=6)),
    ("captain", _target("Captain", ["INFANTRY", "CHARACTER"], 1, 4, 3, 5, InSv=4, character=True)),
    ("talos", _target("Talos", ["MONSTER"], 1, 8, 3, 10, FNP=6)),
    ("rhino", _target("Rhino", ["VEHICLE"], 1, 9, 3, 10)),
    ("hive-tyrant", _target("Hive Tyrant", ["MONSTER"], 1, 10, 2, 10, InSv=4)),
    ("leman-russ", _target("Leman Russ", ["VEHICLE"], 1, 11, 2, 13)),
    ("land-raider", _target("Land Raider", ["VEHICLE"], 1, 12, 2, 16)),
)

#: Contexts: (id, context keys). "plain" leaves every key at its default (stationary, no modifiers).
CONTEXTS: tuple[tuple[str, dict], ...] = (
    ("plain", {}),
    ("cover", {"target_has_benefit_of_cover": True}),
    ("half range", {"target_within_half_range": True}),
    ("charged", {"attacker_charged": True}),
    ("moved 6in", {"attacker_moved_inches": 6}),
    ("hit -1", {"hit_modifier": -1}),
    ("hit +1", {"hit_modifier": 1}),
    ("wound +1", {"wound_modifier": 1}),
    ("wound -1", {"wound_modifier": -1}),
)


def standard_grid() -> list[dict]:
    """The standard matchups, weapons × targets × contexts in that nesting order (same on every call).

    Each matchup is ``{"id", "weapon", "target", "context", "scenario"}``: the id
    ``"bolt-rifle x10 vs intercessors / cover"``, the three profile ids, and the scenario mapping
    (``rules.scenario.read_scenario`` reads it; it is a fresh copy, safe to change).
    """
    grid: list[dict] = []
    for weapon in WEAPONS:
        weapon_id = f"{weapon['name']} x{weapon['count']}"
        for target_id, target in TARGETS:
            for context_id, context in CONTEXTS:
                scenario = {"weapons": [dict(weapon, abilities=list(weapon["abilities"]))],
                            "target": {"keywords": list(target["keywords"]),
                                       "models": [dict(m) for m in target["models"]]},
                            "context": dict(context)}
                grid.append({"id": f"{weapon_id} vs {target_id} / {context_id}", "weapon": weapon_id,
                             "target": target_id, "context": context_id, "scenario": scenario})
    return grid


# -- running a sweep ----------------------------------------------------------------------------------

def _ids(grid: Iterable[Mapping]) -> list[str]:
    ids = [m["id"] for m in grid]
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        duplicate = next(i for i in ids if i in seen or seen.add(i))
        raise SweepError(f"the grid names the matchup {duplicate!r} twice")
    return ids


def run_sweep(grid: list[dict], *, root: str | os.PathLike | None = None, overrides: Mapping[str, str] | None = None,
              executor: concurrent.futures.Executor | None = None, batch: int = 50,
              progress: Callable[[int, int], Any] | None = None, ruleset: str | None = None) -> dict[str, str]:
    """Expected models destroyed of every matchup: {id: "p/q" or "error: ..."}, in grid order.

    The grid is cut into batches of ``batch`` matchups, each submitted as ``worker.evaluate(root,
    scenarios, overrides)`` to ``executor`` (default: a local ``ProcessPoolExecutor`` with one process
    per CPU, created and shut down here; a given executor is left running). ``ruleset``: whose attack rules
    (None: the Core Rules, which every tree has). ``progress(done, total)``
    is called with counts of matchups as batches finish. A batch that fails as a whole (a bad root or
    override) is a SweepError.
    """
    ids = _ids(grid)
    if batch < 1:
        raise SweepError(f"the batch size must be at least 1, not {batch}")
    root_arg = None if root is None else os.fspath(root)  # as given: a remote worker resolves it itself
    override_arg = dict(overrides) if overrides else None
    batches = [(start, [m["scenario"] for m in grid[start:start + batch]]) for start in range(0, len(grid), batch)]
    own = executor is None
    if own:
        executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=os.cpu_count() or 1, initializer=functools.partial(interrupts.die_with_parent, os.getpid()))
    values: list[str | None] = [None] * len(grid)
    try:
        extra = (ruleset,) if ruleset is not None else ()  # an older tree's worker takes no ruleset
        with interrupts.signals_held():  # the pool forks its workers here (they take the signals again)
            futures = {executor.submit(worker.evaluate, root_arg, scenarios, override_arg, *extra):
                       (start, len(scenarios)) for start, scenarios in batches}
        done = 0
        if progress is not None:
            progress(0, len(grid))
        try:
            for future in concurrent.futures.as_completed(futures):
                start, size = futures[future]
                try:
                    answers = future.result()
                except Exception as error:
                    message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
                    raise SweepError(f"the sweep failed on matchup {ids[start]!r}: {message}") from error
                if len(answers) != size:
                    raise SweepError(f"a worker answered {len(answers)} of {size} matchups from {ids[start]!r}")
                values[start:start + size] = answers
                done += size
                if progress is not None:
                    progress(done, len(grid))
        except BaseException:
            for future in futures:
                future.cancel()
            if own:  # Ctrl-C or an error: the batches still running are not waited for (3.14: terminate_workers)
                for process in list((getattr(executor, "_processes", None) or {}).values()):
                    process.kill()
            raise
    finally:
        if own:
            executor.shutdown(wait=True, cancel_futures=True)
    return dict(zip(ids, values))


class DaskExecutor(concurrent.futures.Executor):
    """A ``concurrent.futures.Executor`` on a Dask cluster; shutting it down closes its client."""

    def __init__(self, client):
        self.client = client
        self._executor = client.get_executor()

    def submit(self, fn, /, *args, **kwargs):
        return self._executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        try:
            self._executor.shutdown(wait=wait)
        finally:
            self.client.close()


SCHEDULER_ADDRESS = re.compile(r"(?:(?:tcp|tls|ucx|ws|wss)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
                               r":(?P<port>[0-9]{1,5})", re.ASCII)  # Dask asks for the port: "missing port number"


def check_scheduler_address(address: str) -> None:
    """A Dask scheduler's address as Dask reads it ("tcp://host:8786", "host:8786"), or one sentence: checked before
    any work, since a malformed one fails inside Dask's client with a traceback of its own."""
    match = SCHEDULER_ADDRESS.fullmatch(address)
    if len(address) > 255 or not match or not 1 <= int(match.group("port")) <= 65535:
        raise SweepError(f"--scheduler {shown(address)} is not a Dask scheduler address (such as tcp://host:8786 or "
                         "host:8786)")


def dask_executor(address: str, timeout: float = 5) -> DaskExecutor:
    """An executor on the Dask scheduler at ``address``; ``worker`` travels by value (cloudpickle).

    The remote workers need Python with this project's dependencies (gmpy2 and those of the rules
    tree swept), not the project itself. Raises SweepError when dask is not installed or the
    scheduler does not answer within ``timeout`` seconds.
    """
    try:
        import cloudpickle
        from distributed import Client
    except ImportError:
        raise SweepError("Dask is not installed; install the optional extra: pip install -e '.[distributed]'") from None
    cloudpickle.register_pickle_by_value(worker)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except Exception as error:  # noqa: BLE001 - OSError, TimeoutError, ValueError for a bad address...
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise SweepError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({reason})") from None
    return DaskExecutor(client)


# -- comparing two sweeps -----------------------------------------------------------------------------

def _value(text: str) -> Fraction | str:
    """A sweep answer: the Fraction of a "p/q", or the "error: ..." or "not comparable: ..." text itself."""
    return text if text.startswith(("error", worker.NOT_COMPARABLE)) else Fraction(text)


def compare_sweeps(old: Mapping[str, str], new: Mapping[str, str], grid: list[dict]) -> dict:
    """What changed between two sweeps of the same grid, exactly.

    Returns ``{"counts": {"total", "changed", "increased", "decreased", "errors", "not_comparable"}, "changed": [...],
    "points": [...]}``. ``changed`` lists every matchup whose answer differs, largest absolute shift
    first (ties in grid order; matchups that became or stopped being errors, whose shift is None,
    last), each ``{"id", "weapon", "target", "context", "old", "new", "shift"}`` with exact Fractions
    (an error stays its text). ``points`` has ``(id, old, new)`` for every matchup with a number on
    both sides, in grid order (for a scatter plot). ``errors`` counts matchups that are an error in
    either sweep; ``not_comparable`` those one ruleset cannot state (a review across rulesets), left out of the rest.
    """
    ids = _ids(grid)
    for name, sweep in (("old", old), ("new", new)):
        missing = [i for i in ids if i not in sweep]
        if missing:
            raise SweepError(f"the {name} sweep has no answer for {missing[0]!r} ({len(missing)} missing)")
    changed, points = [], []
    increased = decreased = errors = not_comparable = 0
    for position, matchup in enumerate(grid):
        key = matchup["id"]
        before, after = _value(old[key]), _value(new[key])
        if any(isinstance(v, str) and v.startswith(worker.NOT_COMPARABLE) for v in (before, after)):
            not_comparable += 1  # one ruleset cannot state the matchup: nothing to compare, not a move
            continue
        numeric = isinstance(before, Fraction) and isinstance(after, Fraction)
        if not numeric:
            errors += 1
        else:
            points.append((key, before, after))
        if before == after:
            continue
        shift = after - before if numeric else None
        if shift is not None:
            increased += shift > 0
            decreased += shift < 0
        changed.append({"id": key, "weapon": matchup.get("weapon"), "target": matchup.get("target"),
                        "context": matchup.get("context"), "old": before, "new": after, "shift": shift,
                        "_position": position})
    changed.sort(key=lambda c: (c["shift"] is None, -abs(c["shift"] or 0), c["_position"]))
    for entry in changed:
        del entry["_position"]
    return {"counts": {"total": len(ids), "changed": len(changed), "increased": increased,
                       "decreased": decreased, "errors": errors, "not_comparable": not_comparable},
            "changed": changed, "points": points}


def comparison_json(comparison: Mapping) -> dict:
    """The comparison with exact "p/q" strings in place of Fractions, ready for json.dumps.

    ``plot_shift`` accepts this form too. Keys other than ``changed`` and ``points`` are copied as they are.
    """
    def text(value):
        return f"{value.numerator}/{value.denominator}" if isinstance(value, Fraction) else value

    out = dict(comparison)
    out["counts"] = dict(comparison["counts"])
    out["changed"] = [{k: text(v) for k, v in entry.items()} for entry in comparison["changed"]]
    out["points"] = [[key, text(old), text(new)] for key, old, new in comparison["points"]]
    return out


def _number(value) -> float:
    """A Fraction, or its "p/q" text (a comparison read back from JSON), as a float for plotting."""
    return float(Fraction(value)) if isinstance(value, str) else float(value)


def plot_shift(comparison: Mapping, path: str | os.PathLike, title: str | None = None) -> None:
    """Histogram of the changed matchups' shifts and old-vs-new scatter, written atomically (.svg/.png/.pdf).

    ``comparison`` is what ``compare_sweeps`` returns, or its ``comparison_json`` form.
    """
    path = Path(path)
    if path.suffix not in {".svg", ".png", ".pdf"}:
        raise SweepError(f"{path}: the plot must be an .svg, .png or .pdf file")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from rules40k.palette import BAR

    counts = comparison["counts"]
    shifts = [_number(c["shift"]) for c in comparison["changed"] if c["shift"] is not None]
    moved = {c["id"] for c in comparison["changed"]}
    same = [(_number(old), _number(new)) for key, old, new in comparison["points"] if key not in moved]
    shifted = [(_number(old), _number(new)) for key, old, new in comparison["points"] if key in moved]

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    if shifts:
        left.hist(shifts, bins=min(40, max(5, len(shifts) // 4)), color=BAR)
        left.axvline(0, color="black", linewidth=0.8)
    else:
        left.text(0.5, 0.5, "no matchup changed", ha="center", va="center", transform=left.transAxes)
        left.set_xticks([])
        left.set_yticks([])
    left.set_title(f"Shift of the {len(shifts)} changed matchups")
    left.set_xlabel("change in expected models destroyed (new − old)")
    left.set_ylabel("matchups")

    top = max([1.0] + [max(pair) for pair in same + shifted])
    right.plot([0, top], [0, top], color="black", linewidth=0.6, linestyle="--", zorder=1)
    # Rasterised points keep an SVG of thousands of matchups small; axes and text stay vector.
    for pairs, colour, label in ((same, "#9a9a9a", f"unchanged ({len(same)})"),
                                 (shifted, BAR, f"changed ({len(shifted)})")):
        if pairs:
            right.scatter([o for o, _ in pairs], [n for _, n in pairs], s=7, c=colour, alpha=0.75, linewidths=0,
                          label=label, zorder=2, rasterized=True)
    if same or shifted:
        right.legend(loc="upper left", fontsize="small", frameon=False)
    right.set_xlim(0, top * 1.03)
    right.set_ylim(0, top * 1.03)
    right.set_aspect("equal", adjustable="box")
    right.set_title("Expected models destroyed, every matchup")
    right.set_xlabel("old")
    right.set_ylabel("new")

    figure.suptitle(title or (f"{counts['changed']} of {counts['total']} matchups changed: {counts['increased']} up, "
                              f"{counts['decreased']} down, {counts['errors']} with errors"))
    figure.tight_layout()
    from rules40k import atomic

    atomic.write_figure(figure, path)

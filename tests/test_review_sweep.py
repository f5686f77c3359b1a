"""The outcome sweep of an errata review: the standard grid, running it anywhere, comparing two sweeps."""

from __future__ import annotations

import concurrent.futures
import os
import json
import shutil
import socket
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rules import calculator, scenario
from rules.core import attack_sequence
from rules40k.review import sweep, worker

REPO_ROOT = Path(__file__).resolve().parent.parent
OLD_COMMIT = "b78b3b3"
HARDER_WOUNDS = {"rules.core.attack_sequence.wound_threshold": "helpers_sweep.wound_threshold_no_two_plus"}


@pytest.fixture(scope="module")
def grid() -> list[dict]:
    return sweep.standard_grid()


@pytest.fixture(scope="module")
def small(grid) -> list[dict]:
    """40 matchups spread over the grid: every context, most weapons and targets."""
    return grid[::97][:40]


@pytest.fixture(scope="module")
def baseline(small) -> dict[str, str]:
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return sweep.run_sweep(small, executor=pool, batch=7)


@pytest.fixture
def helpers_importable(monkeypatch):
    """tests/ on sys.path, so the override's "helpers_sweep.<function>" imports (in workers forked later too)."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent))


def test_standard_grid_is_large_stable_and_valid(grid):
    ids = [m["id"] for m in grid]
    assert len(ids) >= 3000 and len(set(ids)) == len(ids)
    assert [m["id"] for m in sweep.standard_grid()] == ids
    assert ids[0] == "lasgun x10 vs cultists / plain"
    assert "bolt-rifle x10 vs intercessors / cover" in ids
    for matchup in grid:
        read = scenario.read_scenario(matchup["scenario"], matchup["id"])
        assert len(read.weapons) == 1
        assert matchup["id"] == f"{matchup['weapon']} vs {matchup['target']} / {matchup['context']}"
    weapons = [w for w in sweep.WEAPONS]
    assert {w["S"] for w in weapons} >= {3, 4, 5, 6, 7, 8, 9, 10, 12, 16}
    assert {w["AP"] for w in weapons} >= {0, -1, -2, -3, -4}
    assert {w["D"] for w in weapons} >= {1, 2, 3, "D3", "D6"}
    assert {w["skill"] for w in weapons} >= {2, 3, 4, 5}
    assert {w["melee"] for w in weapons} == {True, False}
    abilities = {a for w in weapons for a in w["abilities"]}
    assert abilities >= {"LETHAL HITS", "SUSTAINED HITS 1", "DEVASTATING WOUNDS", "TWIN-LINKED", "ANTI-INFANTRY 4+",
                         "MELTA 2", "TORRENT", "BLAST", "HEAVY"}


def test_grid_is_a_fresh_copy(grid):
    first = sweep.standard_grid()
    first[0]["scenario"]["weapons"][0]["S"] = 99
    first[0]["scenario"]["target"]["models"][0]["T"] = 99
    assert sweep.standard_grid()[0]["scenario"] == grid[0]["scenario"]


def test_thread_pool_and_default_process_pool_agree(small, baseline):
    seen = []
    results = sweep.run_sweep(small, batch=6, progress=lambda done, total: seen.append((done, total)))
    assert results == baseline
    assert list(results) == [m["id"] for m in small]
    assert seen[0] == (0, 40) and seen[-1] == (40, 40) and len(seen) == 1 + 7
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    # The answers are the calculator's own, exactly.
    for matchup in small[:5]:
        expected = calculator.calculate(scenario.read_scenario(matchup["scenario"])).expected_models_destroyed
        assert Fraction(results[matchup["id"]]) == expected
        assert "/" in results[matchup["id"]]


def test_a_sweep_compared_with_itself_changes_nothing(small, baseline):
    comparison = sweep.compare_sweeps(baseline, dict(baseline), small)
    assert comparison["counts"] == {"total": 40, "changed": 0, "increased": 0, "decreased": 0, "errors": 0, "not_comparable": 0}
    assert comparison["changed"] == [] and len(comparison["points"]) == 40


def _twice_toughness(matchup) -> bool:
    return matchup["scenario"]["weapons"][0]["S"] >= 2 * matchup["scenario"]["target"]["models"][0]["T"]


@pytest.mark.parametrize("pool", ["threads", "processes"])
def test_an_override_of_the_wound_table_changes_exactly_the_matchups_it_touches(pool, small, baseline,
                                                                                helpers_importable):
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=2) if pool == "threads" else None
    try:
        harder = sweep.run_sweep(small, overrides=HARDER_WOUNDS, executor=executor, batch=9)
    finally:
        if executor is not None:
            executor.shutdown()
    # Only 2+ wound rolls become 3+; with +1 to wound both pass on a 2 or more, so those stay.
    expected = {m["id"] for m in small if _twice_toughness(m) and m["context"] != "wound +1"}
    assert {m["context"] for m in small if _twice_toughness(m) and m["id"] not in expected} == {"wound +1"}
    assert 5 <= len(expected) < 40
    comparison = sweep.compare_sweeps(baseline, harder, small)
    assert {c["id"] for c in comparison["changed"]} == expected
    assert comparison["counts"] == {"total": 40, "changed": len(expected), "increased": 0,
                                    "decreased": len(expected), "errors": 0, "not_comparable": 0}
    shifts = [c["shift"] for c in comparison["changed"]]
    assert all(isinstance(s, Fraction) and s < 0 for s in shifts)
    assert [abs(s) for s in shifts] == sorted((abs(s) for s in shifts), reverse=True)
    for entry in comparison["changed"]:
        difference = Fraction(harder[entry["id"]]) - Fraction(baseline[entry["id"]])
        assert entry["shift"] == entry["new"] - entry["old"] == difference
    # The other way round, the same matchups go up; and the process's own rules are untouched.
    reverse = sweep.compare_sweeps(harder, baseline, small)
    assert reverse["counts"]["increased"] == len(expected) and reverse["counts"]["decreased"] == 0
    assert attack_sequence.wound_threshold(8, 4) == 2
    if pool == "threads":
        assert sweep.run_sweep(small[:8], executor=concurrent.futures.ThreadPoolExecutor(1)) == {
            m["id"]: baseline[m["id"]] for m in small[:8]}


def test_a_bad_override_is_one_sweep_error(small):
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        with pytest.raises(sweep.SweepError, match="the sweep failed"):
            sweep.run_sweep(small[:3], executor=pool, overrides={"rules.core.attack_sequence.wound_threshold":
                                                                 "rules.core.attack_sequence.no_such_rule"})
    assert attack_sequence.wound_threshold(8, 4) == 2


def test_a_rejected_scenario_is_an_error_line_not_a_crash(small):
    bad = dict(small[0]["scenario"], weapons=[dict(small[0]["scenario"]["weapons"][0], AP=2)])
    clash = dict(small[0]["scenario"], target={"keywords": ["INFANTRY"], "models": [
        {"name": "a", "count": 2, "T": 4, "Sv": 3, "W": 2}, {"name": "b", "count": 2, "T": 5, "Sv": 3, "W": 2}]})
    answers = worker.evaluate(None, [bad, small[0]["scenario"], clash])
    assert answers[0].startswith("error: ") and "AP" in answers[0] and "\n" not in answers[0]
    assert "/" in answers[1] and not answers[1].startswith("error")
    assert answers[2].startswith("error: ") and "\n" not in answers[2]
    grid = [{"id": "bad", "scenario": bad}, {"id": "good", "scenario": small[0]["scenario"]}]
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        errors = sweep.run_sweep(grid, executor=pool)
        good = {"bad": answers[1], "good": answers[1]}
    comparison = sweep.compare_sweeps(good, errors, grid)
    assert comparison["counts"] == {"total": 2, "changed": 1, "increased": 0, "decreased": 0, "errors": 1, "not_comparable": 0}
    assert comparison["changed"][0]["shift"] is None and comparison["changed"][0]["new"].startswith("error")


def test_compare_refuses_a_sweep_of_another_grid(small, baseline):
    with pytest.raises(sweep.SweepError, match="no answer for"):
        sweep.compare_sweeps(baseline, dict(list(baseline.items())[:-1]), small)
    with pytest.raises(sweep.SweepError, match="twice"):
        sweep.run_sweep(small[:2] + small[:1], executor=concurrent.futures.ThreadPoolExecutor(1))


def test_plot_shift_writes_svg_and_png(tmp_path, small, baseline):
    shifted = {key: str(Fraction(value) * Fraction(9, 10)) if i % 3 == 0 else value
               for i, (key, value) in enumerate(baseline.items())}
    comparison = sweep.compare_sweeps(baseline, shifted, small)
    for name in ("shift.svg", "shift.png"):
        sweep.plot_shift(comparison, tmp_path / name)
        assert (tmp_path / name).stat().st_size > 1000
    as_json = json.loads(json.dumps(sweep.comparison_json(comparison)))
    assert as_json["counts"] == comparison["counts"] and len(as_json["points"]) == 40
    assert [Fraction(c["shift"]) for c in as_json["changed"]] == [c["shift"] for c in comparison["changed"]]
    sweep.plot_shift(as_json, tmp_path / "shift.svg")
    sweep.plot_shift(sweep.compare_sweeps(baseline, baseline, small), tmp_path / "none.svg")
    assert "no matchup changed" in (tmp_path / "none.svg").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["none.svg", "shift.png", "shift.svg"]
    with pytest.raises(sweep.SweepError, match="svg"):
        sweep.plot_shift(comparison, tmp_path / "shift.txt")


# -- an old tree, and Dask ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def old_tree(tmp_path_factory) -> Path:
    """The project at b78b3b3, unpacked with git archive (skipped without git or that commit)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    probe = subprocess.run(["git", "-C", str(REPO_ROOT), "cat-file", "-e", f"{OLD_COMMIT}^{{commit}}"],
                           capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"commit {OLD_COMMIT} is not in this repository")
    root = tmp_path_factory.mktemp("old-tree")
    archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", OLD_COMMIT], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
    assert (root / "rules" / "calculator.py").is_file()
    return root


def _rules_tree() -> str:
    """Run in a pool worker: the folder the worker's ``rules`` package was imported from."""
    return str(Path(sys.modules["rules"].__file__).resolve().parent.parent)


def test_an_old_tree_gives_the_same_answers_and_is_the_one_used(old_tree, small, baseline):
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        old = sweep.run_sweep(small[:12], root=old_tree, executor=pool, batch=5)
        assert pool.submit(_rules_tree).result() == str(old_tree.resolve())
        # Back to this process's own tree (root None), then to the old one again.
        assert pool.submit(worker.evaluate, None, [small[0]["scenario"]]).result() == [baseline[small[0]["id"]]]
        assert pool.submit(_rules_tree).result() == str(REPO_ROOT)
        again = pool.submit(worker.evaluate, str(old_tree), [small[1]["scenario"]]).result()
        assert again == [baseline[small[1]["id"]]]
        assert pool.submit(_rules_tree).result() == str(old_tree.resolve())
    assert old == {m["id"]: baseline[m["id"]] for m in small[:12]}
    assert _rules_tree() == str(REPO_ROOT)


def _run_by_value(payload: bytes, root: str, scenarios: list[dict]) -> list[str]:
    """Run in a pool worker that cannot import rules40k: unpickle ``evaluate`` by value and call it."""
    import cloudpickle

    for name in [n for n in sys.modules if n == "rules40k" or n.startswith("rules40k.")]:
        del sys.modules[name]
    sys.modules["rules40k"] = None  # any import of rules40k now fails
    return cloudpickle.loads(payload)(root, scenarios)


def test_worker_travels_by_value_to_a_process_without_the_project(old_tree, small, baseline):
    cloudpickle = pytest.importorskip("cloudpickle")
    cloudpickle.register_pickle_by_value(worker)
    payload = cloudpickle.dumps(worker.evaluate)
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        answers = pool.submit(_run_by_value, payload, str(old_tree), [m["scenario"] for m in small[:4]]).result()
    assert answers == [baseline[m["id"]] for m in small[:4]]


def _distributed():
    """Dask's distributed package: CI installs the optional extra and must run these tests, not skip them."""
    if os.environ.get("CI"):
        import distributed

        return distributed
    return pytest.importorskip("distributed")


def test_dask_executor_runs_the_sweep(small, baseline):
    distributed = _distributed()
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        with sweep.dask_executor(cluster.scheduler_address) as executor:
            seen = []
            results = sweep.run_sweep(small, executor=executor, batch=10, progress=lambda d, t: seen.append(d))
    assert results == baseline and seen[-1] == 40


def test_dask_executor_names_an_unreachable_scheduler():
    _distributed()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(sweep.SweepError, match="cannot reach the Dask scheduler"):
        sweep.dask_executor(f"tcp://127.0.0.1:{port}", timeout=1)


def test_dask_executor_without_dask_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(sweep.SweepError, match=r"pip install -e '\.\[distributed\]'"):
        sweep.dask_executor("tcp://127.0.0.1:8786")


def test_a_matchup_one_ruleset_cannot_state_is_not_compared():
    """A sweep across rulesets: a matchup the earlier edition cannot state ("not comparable: ...") is counted apart,
    neither moved nor an error, and leaves no point to plot."""
    grid = [{"id": "a", "scenario": {}}, {"id": "b", "scenario": {}}]
    old = {"a": "not comparable: [LETHAL HITS] has no counterpart", "b": "1/2"}
    new = {"a": "2/3", "b": "1/3"}
    comparison = sweep.compare_sweeps(old, new, grid)
    assert comparison["counts"] == {"total": 2, "changed": 1, "increased": 0, "decreased": 1, "errors": 0,
                                    "not_comparable": 1}
    assert [c["id"] for c in comparison["changed"]] == ["b"] and [p[0] for p in comparison["points"]] == ["b"]

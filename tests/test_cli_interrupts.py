"""Ctrl-C and SIGTERM sent to real `rules40k` processes at several moments of every long verb: the exit status is
130 (SIGINT) or 143 (SIGTERM), standard error says "interrupted" in one line, nothing earlier is replaced, no temporary
file is left and no child process outlives the run (a SIGKILL included).

The moments are found from outside, as a user would see them: "early" is as soon as the process has installed its
handlers (Linux shows them in /proc/PID/status), the others when the verb's own work shows (a child process, a
stage folder, a library mapped, a blocked read).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from rules40k import cli, interrupts
from rules40k.cli import main

REPO = Path(__file__).resolve().parents[1]
SCENARIO = REPO / "examples" / "intercessors.json"
#: Devastating Wounds and Sustained Hits on up to 300 attacks into three groups: minutes of exact calculation.
SLOW_SCENARIO = {
    "weapons": [{"name": "storm", "count": 50, "A": "D6", "skill": 3, "S": 5, "AP": -1, "D": "D6",
                 "abilities": ["DEVASTATING WOUNDS", "SUSTAINED HITS 1"], "melee": False}],
    "target": {"keywords": ["INFANTRY"], "models": [
        {"name": "a", "count": 10, "T": 4, "Sv": 3, "W": 3}, {"name": "b", "count": 10, "T": 4, "Sv": 2, "W": 4, "InSv": 4},
        {"name": "c", "count": 10, "T": 4, "Sv": 4, "W": 2, "FNP": 5}]}}

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="finds its moments through /proc")


def start(*argv: str, stdin=subprocess.DEVNULL) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("RULES40K_DEBUG", None)
    return subprocess.Popen([sys.executable, "-m", "rules40k", *argv], stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def _status(pid: int, field: str) -> str:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return line.split()[1]
    return ""


def handlers_installed(process: subprocess.Popen) -> bool:
    """SIGTERM is caught: rules40k's handlers are in (Python catches only SIGINT by itself)."""
    return bool(int(_status(process.pid, "SigCgt") or "0", 16) >> (signal.SIGTERM - 1) & 1)


def children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found |= {int(n) for n in (task / "children").read_text().split()}
        except OSError:
            pass
    return found


def _open_files(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").glob("*"):
        try:
            found.add(os.readlink(fd))
        except OSError:
            pass
    return found


def alive(pid: int) -> bool:
    """Running, not a zombie waiting for a parent to reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(process: subprocess.Popen, ready: Callable[[], bool], what: str, limit: float = 180) -> None:
    deadline = time.monotonic() + limit
    while not ready():
        if process.poll() is not None:
            out, err = process.communicate()
            pytest.fail(f"the process ended (status {process.returncode}) before {what}: {err[-500:]}")
        assert time.monotonic() < deadline, f"never reached: {what}"
        time.sleep(0.01)


def after(seconds: float) -> Callable[[], bool]:
    end = time.monotonic() + seconds
    return lambda: time.monotonic() >= end


def interrupt(process: subprocess.Popen, signum: int, verb: str) -> set[int]:
    """Send the signal; check the status and the one line; return the children the process had, to check later."""
    had = children(process.pid)
    process.send_signal(signum)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signum, err[-1000:]
    assert err in (f"rules40k {verb}: interrupted\n", "rules40k: interrupted\n"), err[-1000:]
    assert out == "" or verb in ("site", "bench", "mutate"), out  # no answer printed (progress lines may be)
    return had


def assert_gone(pids: set[int]) -> None:
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in pids):
        assert time.monotonic() < deadline, f"child processes outlived the run: {[p for p in pids if alive(p)]}"
        time.sleep(0.05)


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else b"<folder>"
            for p in sorted(folder.rglob("*"))}


EARLY = "early"


# --------------------------------------------------------------------------
# verify: before the properties are collected, while they run, and a swallowed interrupt
# --------------------------------------------------------------------------


@pytest.mark.parametrize("moment,signum", [(EARLY, signal.SIGINT), ("proofs-loaded", signal.SIGINT),
                                           ("properties", signal.SIGTERM)])
def test_verify_interrupted(tmp_path, moment, signum):
    output = tmp_path / "results.json"
    output.write_text("previous\n", encoding="utf-8")
    process = start("verify", "--ruleset", "ninth", "--output", str(output))
    wait_for(process, lambda: handlers_installed(process), "handlers")
    if moment != EARLY:  # z3 is mapped when the proofs load, just before the properties are collected
        wait_for(process, lambda: "libz3" in Path(f"/proc/{process.pid}/maps").read_text(), "z3 loaded")
    if moment == "properties":
        wait_for(process, after(3), "3 s later")
    assert_gone(interrupt(process, signum, "verify"))
    assert output.read_text(encoding="utf-8") == "previous\n"
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


def test_an_interrupt_a_library_swallowed_still_stops_the_run(capsys, tmp_path, monkeypatch):
    """The Ctrl-C arrives, a library catches its KeyboardInterrupt and returns normally (as a pytest collection
    run does): nothing is written, and the run ends interrupted, not 0."""
    from rules40k import checks

    real = checks.run_all

    def swallowing(*args, **kwargs):
        try:
            interrupts.on_signal(signal.SIGINT, None)
        except KeyboardInterrupt:
            pass
        return real(*args, **kwargs)

    monkeypatch.setattr(checks, "run_all", swallowing)
    output = tmp_path / "results.json"
    code = main(["verify", "--ruleset", "ninth", "--no-properties", "--output", str(output)])
    out, err = capsys.readouterr()
    assert code == 130 and err == "rules40k verify: interrupted\n"
    assert list(tmp_path.iterdir()) == []
    assert interrupts.received == []  # forgotten once the run is over


# --------------------------------------------------------------------------
# review: a snapshot that hangs at import
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sleeping_copy(tmp_path_factory) -> Path:
    """A copy of the project whose Core Rules package sleeps for an hour when imported."""
    copy = tmp_path_factory.mktemp("review") / "project"
    for part in ("rules", "spec", "rules40k", "properties"):
        shutil.copytree(REPO / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    module = copy / "rules" / "core" / "__init__.py"
    module.write_text("import time\ntime.sleep(3600)\n" + module.read_text(encoding="utf-8"), encoding="utf-8")
    return copy


def _review(copy: Path, saved: Path, *more: str) -> list[str]:
    return ["review", "worktree", str(copy), "--no-sweep", "--no-checks", "--save", str(saved), *more]


@pytest.mark.parametrize("moment,signum", [(EARLY, signal.SIGTERM), ("snapshots", signal.SIGINT),
                                           ("snapshots", signal.SIGTERM)])
def test_review_interrupted(tmp_path, sleeping_copy, moment, signum):
    saved = tmp_path / "review.json"
    saved.write_text("previous\n", encoding="utf-8")
    process = start(*_review(sleeping_copy, saved))
    wait_for(process, lambda: handlers_installed(process), "handlers")
    if moment == "snapshots":
        wait_for(process, lambda: len(children(process.pid)) == 2, "both snapshots running")
    assert_gone(interrupt(process, signum, "review"))
    assert saved.read_text(encoding="utf-8") == "previous\n"
    assert not list(sleeping_copy.glob("build/.snapshot-*"))


def test_review_killed_leaves_no_snapshot_running(tmp_path, sleeping_copy):
    process = start(*_review(sleeping_copy, tmp_path / "review.json"))
    wait_for(process, lambda: len(children(process.pid)) == 2, "both snapshots running")
    snapshots = children(process.pid)
    process.kill()
    process.communicate(timeout=60)
    assert_gone(snapshots)


def test_a_snapshot_that_hangs_is_one_sentence_after_the_timeout(capsys, tmp_path, sleeping_copy):
    start_time = time.monotonic()
    code = main(_review(sleeping_copy, tmp_path / "review.json", "--timeout", "2"))
    out, err = capsys.readouterr()
    assert time.monotonic() - start_time < 30
    assert code == 2 and out == ""
    assert err.startswith("rules40k review: the snapshot of the tree at ") and err.count("\n") == 1
    assert "did not finish within 2 s (a rule module that hangs when imported?); --timeout gives it longer" in err
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------
# site: nothing of an earlier build is replaced until the whole build has succeeded
# --------------------------------------------------------------------------


@pytest.fixture
def previous_build(tmp_path) -> Path:
    build = tmp_path / "build"
    for path, text in {"results.json": '{"checks": []}\n', "mkdocs.yml": "# the previous config\n",
                       "docs/index.md": "# the previous pages\n", "site/index.html": "<p>the previous site</p>\n",
                       "reviews/kept.svg": "<svg/>\n"}.items():
        (build / path).parent.mkdir(parents=True, exist_ok=True)
        (build / path).write_text(text, encoding="utf-8")
    return build


def _stage(build: Path, name: str = "") -> Callable[[], bool]:
    return lambda: any((stage / name).exists() for stage in build.glob(".build-*"))


@pytest.mark.parametrize("moment,signum", [(EARLY, signal.SIGINT), ("checks", signal.SIGTERM),
                                           ("pages", signal.SIGINT), ("mkdocs", signal.SIGTERM)])
def test_site_interrupted_replaces_nothing(previous_build, moment, signum):
    """Interrupted before the checks, during them (the stage is made), once their results are staged, and while
    MkDocs runs (the stage's mkdocs.yml is written just before): results.json, docs/, mkdocs.yml, site/ and
    reviews/ stay byte for byte, and the stage is removed."""
    before = tree(previous_build)
    process = start("site", "--ruleset", "ninth", "--no-properties", "--build", str(previous_build))
    wait_for(process, lambda: handlers_installed(process), "handlers")
    if moment != EARLY:
        wait_for(process, _stage(previous_build, {"checks": "", "pages": "results.json",
                                                  "mkdocs": "mkdocs.yml"}[moment]), f"the {moment} step")
    assert_gone(interrupt(process, signum, "site"))
    assert tree(previous_build) == before


# --------------------------------------------------------------------------
# mutate, bench, calc, ingest, score
# --------------------------------------------------------------------------


@pytest.mark.parametrize("moment,signum", [(EARLY, signal.SIGINT), ("preparing", signal.SIGTERM)])
def test_mutate_interrupted(tmp_path, moment, signum):
    """Early, and 3 s in: while it prepares (loading the rulesets, collecting the properties) or once its forked
    children run the checks, which must die with it."""
    output = tmp_path / "partial.json"
    output.write_text("previous\n", encoding="utf-8")
    process = start("mutate", "--module", "ninth.overwatch", "--sample", "4", "--jobs", "1", "--output", str(output))
    wait_for(process, lambda: handlers_installed(process), "handlers")
    if moment == "preparing":
        wait_for(process, after(3), "3 s later")
    assert_gone(interrupt(process, signum, "mutate"))
    assert output.read_text(encoding="utf-8") == "previous\n"
    assert [p.name for p in tmp_path.iterdir()] == ["partial.json"]


@pytest.mark.parametrize("moment,signum", [(EARLY, signal.SIGTERM), ("simulation", signal.SIGINT)])
def test_bench_interrupted(moment, signum):
    process = start("bench", str(SCENARIO), "--precision", "1e-4", "--repeats", "1")
    wait_for(process, lambda: handlers_installed(process), "handlers")
    if moment == "simulation":  # the simulation runs for 20 s (its default limit)
        wait_for(process, after(2), "2 s later")
    interrupt(process, signum, "bench")


@pytest.mark.parametrize("moment,signum", [(EARLY, signal.SIGINT), ("calculating", signal.SIGTERM)])
def test_calc_on_a_slow_scenario_interrupted(tmp_path, moment, signum):
    scenario, plot = tmp_path / "slow.json", tmp_path / "plot.svg"
    scenario.write_text(json.dumps(SLOW_SCENARIO), encoding="utf-8")
    plot.write_text("<svg>previous</svg>", encoding="utf-8")
    process = start("calc", str(scenario), "--plot", str(plot))
    wait_for(process, lambda: handlers_installed(process), "handlers")
    if moment == "calculating":
        wait_for(process, after(2), "2 s later")
    interrupt(process, signum, "calc")
    assert plot.read_text(encoding="utf-8") == "<svg>previous</svg>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plot.svg", "slow.json"]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_ingest_interrupted(tmp_path, snapshot, signum):
    """Interrupted once its handlers are in place, while it loads the rules and reads the document. (It can no
    longer be caught waiting on a named pipe: a document that is not a regular file is refused before it is read,
    see tests/test_cli_robust.py.)"""
    spec_root = tmp_path / "spec"
    shutil.copytree(REPO / "spec" / "ninth" / "annotations", spec_root / "ninth" / "annotations")
    shutil.copytree(REPO / "spec" / "sources", spec_root / "sources")  # the web printing the layout reads
    before = snapshot(spec_root)
    document = tmp_path / "document.txt"
    shutil.copyfile(REPO / "spec" / "sources" / "ninth.txt", document)
    process = start("ingest", str(document), "--ruleset", "ninth", "--spec", str(spec_root))
    wait_for(process, lambda: handlers_installed(process), "handlers")
    interrupt(process, signum, "ingest")
    assert snapshot(spec_root) == before


@pytest.mark.parametrize("moment,signum", [(EARLY, signal.SIGINT), ("reading", signal.SIGTERM)])
def test_score_interrupted(moment, signum):
    """`rules40k score -` waiting for the rest of its game on standard input."""
    process = start("score", "-", "--json", stdin=subprocess.PIPE)
    process.stdin.write("mission: take-the-high-ground\n")
    process.stdin.flush()
    wait_for(process, lambda: handlers_installed(process), "handlers")
    if moment == "reading":
        wait_for(process, after(1), "1 s later")
    interrupt(process, signum, "score")


def test_sigterm_is_143_and_ctrl_c_130_in_process(capsys, monkeypatch):
    """The statuses themselves, without a process: 128 + the signal's number."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        def stopped(args, signum=signum):
            interrupts.on_signal(signum, None)

        monkeypatch.setattr(cli, "cmd_show", stopped)
        assert main(["show", "05.02"]) == 128 + signum
        assert capsys.readouterr().err == "rules40k show: interrupted\n"


def test_serving_ends_with_ctrl_c_as_its_normal_end(tmp_path):
    """`site --serve` serves until Ctrl-C: that interrupt ends the serving, not the run (status 0)."""
    import threading

    from rules40k_site import generate

    previous = interrupts.install()
    try:
        main_thread = threading.main_thread().ident
        threading.Timer(0.5, lambda: signal.pthread_kill(main_thread, signal.SIGINT)).start()
        assert generate.serve(tmp_path, port=0) == 0
        assert interrupts.received == []  # nothing left over that would end the run as interrupted
    finally:
        interrupts.restore(previous)


def test_a_ctrl_c_while_z3_solves_is_not_taken_by_z3():
    """z3 takes SIGINT for itself while it solves unless told not to: the proof would end "unknown" and the run go
    on. With the handlers installed, the Ctrl-C reaches rules40k when the solver returns (here at its time limit)."""
    import threading

    import z3

    previous = interrupts.install()
    try:
        assert z3.get_param("ctrl_c") == "false"
        x, y, z = z3.Ints("x y z")
        solver = z3.Solver()
        solver.set("timeout", 2000)
        solver.add(x * x * x + y * y * y + z * z * z == 33, x > 1, y > 1)  # a famously hard sum of three cubes
        main_thread = threading.main_thread().ident
        threading.Timer(0.3, lambda: signal.pthread_kill(main_thread, signal.SIGINT)).start()
        with pytest.raises(KeyboardInterrupt):
            solver.check()
        assert interrupts.received == [signal.SIGINT]
    finally:
        interrupts.restore(previous)


def _forked_workers(process: subprocess.Popen) -> set[int]:
    """The children that are forks of the process itself (the sweep's pool), not programs of their own."""
    own = Path(f"/proc/{process.pid}/cmdline").read_bytes()
    found = set()
    for child in children(process.pid):
        try:
            if Path(f"/proc/{child}/cmdline").read_bytes() == own:
                found.add(child)
        except OSError:
            pass
    return found


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_review_sweep_workers_end_with_the_review(tmp_path, signum):
    """The sweep's process pool: stopped with Ctrl-C, or left behind by a SIGKILL of the review (they used to live
    on, holding the review's standard output open)."""
    process = start("review", "worktree", "worktree", "--no-checks", "--save", str(tmp_path / "review.json"))
    wait_for(process, lambda: bool(_forked_workers(process)), "the sweep's workers")
    workers = _forked_workers(process)
    try:
        if signum == signal.SIGKILL:
            process.kill()
            process.wait(timeout=60)  # not its pipes: a worker that outlived it would hold them open
        else:
            interrupt(process, signum, "review")
        assert_gone(workers)
    finally:
        for worker in workers:
            if alive(worker):
                os.kill(worker, signal.SIGKILL)
        process.communicate(timeout=60)
    assert list(tmp_path.iterdir()) == []

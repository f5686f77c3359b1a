"""Ctrl-C and SIGTERM, handled the same way by every verb, and child processes that end with rules40k.

``install`` is the first thing ``rules40k`` does, before it imports anything heavy. From then on SIGINT raises
KeyboardInterrupt and SIGTERM ``Terminated`` (its subclass), and the signal is remembered: a library that catches
the exception and carries on (pytest turns it into an "interrupted" exit code, a collection run ignores that) cannot
make the run end as if nothing happened. ``check`` raises it again before any output replaces an earlier one
(``rules40k.atomic``: every file written and the site's ``put_in_place``), and the command line ends interrupted
whatever the verb returned. z3, which would take SIGINT for itself while it solves, is told not to.

A child process started here (``popen``, ``run``) is killed by the kernel when rules40k ends, even by SIGKILL
(Linux's PR_SET_PDEATHSIG), and is killed by the parent when the parent stops waiting for it: on an interrupt, an
error or a timeout.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator

if TYPE_CHECKING:
    import subprocess

HANDLED = (signal.SIGINT, signal.SIGTERM)
_DEFAULTS = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so the same clean-up runs (temporary files and folders removed)."""


received: list[int] = []  # the signals that arrived since install()


def on_signal(signum: int, frame: Any) -> None:
    received.append(signum)
    raise _interrupt(signum)


def _interrupt(signum: int) -> KeyboardInterrupt:
    return Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def install() -> dict[int, Any]:
    """Handle SIGINT and SIGTERM from now on and forget earlier ones; returns the handlers ``restore`` puts back.
    Only the main thread may set handlers, and a signal the caller ignores (a background job's SIGINT) or handles
    itself is left to the caller."""
    received.clear()
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for signum in HANDLED:
            if signal.getsignal(signum) in (_DEFAULTS[signum], on_signal):
                previous[signum] = signal.signal(signum, on_signal)
    if previous.get(signal.SIGINT):
        _keep_ctrl_c_from_z3()
    return previous


def restore(previous: dict[int, Any]) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, handler)
    received.clear()
    if _Z3_FINDER in sys.meta_path:
        sys.meta_path.remove(_Z3_FINDER)


class _Z3Finder:
    """Finds nothing itself: when z3 is first imported, has its loader turn z3's ctrl_c parameter off."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "z3":
            return None
        import importlib.util

        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            run = spec.loader.exec_module

            def exec_module(module: Any) -> None:
                run(module)
                module.set_param("ctrl_c", False)

            spec.loader.exec_module = exec_module
        return spec


_Z3_FINDER = _Z3Finder()


def _keep_ctrl_c_from_z3() -> None:
    """z3 takes SIGINT for itself while it solves (unless its ``ctrl_c`` parameter is off): the proof then ends
    "unknown" and the run goes on as if nothing happened. Turn that off now if z3 is loaded, or when it is."""
    if "z3" in sys.modules:
        sys.modules["z3"].set_param("ctrl_c", False)
    elif _Z3_FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _Z3_FINDER)


def check() -> None:
    """Raise the interrupt again if a signal arrived since ``install`` and something swallowed its exception."""
    if received:
        raise _interrupt(received[0])


# --------------------------------------------------------------------------
# Child processes


_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_prctl = None


def _load_prctl():
    """libc's prctl, looked up in the parent (a forked child should do no more than call it), or None off Linux."""
    global _prctl
    if _prctl is None and sys.platform.startswith("linux"):
        import ctypes

        try:
            _prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            _prctl = False
    return _prctl or None


def fork_answering(work: Callable[[], bytes], quiet: bool = False) -> tuple[int, int]:
    """Fork a child that runs ``work`` and writes the bytes it returns down a pipe, then ends at once (os._exit: the
    parent's exit code never runs twice) and dies with its parent. ``quiet`` sends the child's own output to
    /dev/null. Returns the child's pid and the pipe's read end; reading nothing means the child failed."""
    read, write = os.pipe()
    parent = os.getpid()
    with signals_held():  # a signal's exception must not break into the fork's own hooks
        pid = os.fork()
    if pid:
        os.close(write)
        return pid, read
    code = 0
    try:
        die_with_parent(parent)  # a killed parent leaves no child running on
        os.close(read)
        if quiet:
            silent = os.open(os.devnull, os.O_WRONLY)
            os.dup2(silent, 1)
            os.dup2(silent, 2)
        answer = work()
        with os.fdopen(write, "wb") as out:
            out.write(answer)
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def die_with_parent(parent: int) -> None:
    """In a child: have the kernel SIGKILL it when its parent ends, however the parent ends, and end at once if the
    parent already has (it would then belong to another process); then take SIGINT and SIGTERM again, which the
    parent held off while forking (``signals_held``), as Python does by default (a forked child is no command line
    of its own). Where prctl does not exist, only the last."""
    prctl = _load_prctl()
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)
    for signum in HANDLED:
        if signal.getsignal(signum) is on_signal:
            signal.signal(signum, _DEFAULTS[signum])
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HANDLED)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold off SIGINT and SIGTERM (delivered when the block ends): around renames a signal must not split, and
    around a fork, whose at-fork hooks a signal's exception would interrupt. The mask is the calling thread's."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HANDLED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def popen(command: list[str], **options: Any) -> subprocess.Popen:
    """``subprocess.Popen`` of a child that dies with this process (``die_with_parent``), forked with the signals
    held off."""
    import subprocess

    parent = os.getpid()
    _load_prctl()
    with signals_held():
        return subprocess.Popen(command, preexec_fn=lambda: die_with_parent(parent), **options)


def run(commands: list[list[str]], timeout: float | None = None, cwds: list[Any] | None = None,
        input: str | None = None, **options: Any) -> list[subprocess.CompletedProcess]:
    """Run the commands side by side (``popen``; ``input``: the text each reads) and wait for all of them, at most
    ``timeout`` seconds in all: the output of each (text). A child that has not finished in time raises
    ``subprocess.TimeoutExpired`` naming its command; then, and on an interrupt or any other error, every child
    still running is killed first."""
    import subprocess
    import tempfile

    deadline = None if timeout is None else time.monotonic() + timeout
    started: list[tuple[subprocess.Popen, Any, Any]] = []
    files = []
    try:
        for index, command in enumerate(commands):
            out, err, given = (tempfile.TemporaryFile() for _ in range(3))  # files: no pipe can fill and block
            files += [out, err, given]
            given.write((input or "").encode("utf-8"))
            given.seek(0)
            process = popen(command, stdin=given if input is not None else None, stdout=out, stderr=err,
                            cwd=cwds[index] if cwds else None, **options)
            started.append((process, out, err))
        done = []
        for process, out, err in started:
            process.wait(timeout=None if deadline is None else max(deadline - time.monotonic(), 0))
            out.seek(0)
            err.seek(0)
            done.append(subprocess.CompletedProcess(process.args, process.returncode,
                                                    out.read().decode("utf-8", "replace"),
                                                    err.read().decode("utf-8", "replace")))
        return done
    finally:
        for process, _, _ in started:
            if process.poll() is None:
                process.kill()
                process.wait()
        for file in files:
            file.close()

"""The processor time each test module takes, browser included, for the summary at the end of
a run (tests/conftest.py and e2e/conftest.py take its hooks).

``/usr/bin/time`` and pytest's ``--durations`` cannot measure the suite on a busy machine: the
one counts next to no browser work (Chromium's renderers, where the page and its engine run,
end unwaited-for, their time counted nowhere), the other counts wall time, which other
processes stretch. Here a test's time is what the test process and every process under it (the
Playwright driver, Chromium and its renderers, builds) used while it ran, read from ``/proc``:
a thread looks at the processes under this one every ``SAMPLE_S`` and keeps each one's latest
user and system time (with that of the children it reaped), so a renderer that is gone still
counts up to its last look. Where there is no ``/proc`` nothing is counted and nothing shown.

The run ends with the total and the modules that took the most; ``PARLOUR_CPU_MODULES`` sets
how many (10 unless set; 0 lists every module). ``PARLOUR_CPU_TESTS=N`` lists the N tests that
took the most as well (none unless set).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

PROC = Path("/proc")
CPU: dict[str, float] = {}
"""Processor seconds per test module (its path from the repository) in this process."""
TESTS: dict[str, float] = {}
"""Processor seconds per test (its node id) in this process."""
_WORKERS: dict[str, dict[str, float]] = {}
"""Under ``pytest -n``, the controller's copy of each worker's ``CPU``."""
_WORKER_TESTS: dict[str, dict[str, float]] = {}
"""Under ``pytest -n``, the controller's copy of each worker's ``TESTS``."""
_shown = False


SAMPLE_S = 0.2


def _ticks(pid: int) -> int | None:
    """User and system clock ticks of ``pid`` (its reaped children are seen on their own)."""
    try:
        fields = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None  # gone meanwhile
    return int(fields[11]) + int(fields[12])  # utime, stime


def _children(pid: int) -> list[int]:
    try:
        tasks = list((PROC / str(pid) / "task").iterdir())
    except OSError:
        return []
    found = []
    for task in tasks:
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


class _Watcher:
    """The latest ticks of every process seen under this one, the gone ones included."""

    def __init__(self) -> None:
        self.seen: dict[tuple[int, int], int] = {}  # (pid, start time) -> latest ticks
        self.lock = threading.Lock()
        self.tick = os.sysconf("SC_CLK_TCK")
        threading.Thread(target=self.run, name="cputime", daemon=True).start()

    def look(self) -> None:
        todo = _children(os.getpid())
        while todo:
            pid = todo.pop()
            ticks, born = _ticks(pid), _start_time(pid)
            if ticks is not None and born is not None:
                with self.lock:
                    self.seen[(pid, born)] = ticks
            todo += _children(pid)

    def run(self) -> None:
        stop = threading.Event()
        while not stop.wait(SAMPLE_S):
            self.look()

    def seconds(self) -> float:
        self.look()
        with self.lock:
            return sum(self.seen.values()) / self.tick


def _start_time(pid: int) -> int | None:
    try:
        return int((PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


_watcher: _Watcher | None = None


def seconds_so_far() -> float:
    """Processor seconds used by this process and everything it started, so far."""
    global _watcher
    own = os.times()
    used = own.user + own.system
    if not PROC.is_dir():
        return used
    if _watcher is None:
        _watcher = _Watcher()
    return used + _watcher.seconds()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    before = seconds_so_far()
    try:
        return (yield)
    finally:
        module = item.nodeid.split("::", 1)[0]
        used = seconds_so_far() - before
        CPU[module] = CPU.get(module, 0.0) + used
        TESTS[item.nodeid] = TESTS.get(item.nodeid, 0.0) + used


# The session's hooks below are taken by both conftests: each is harmless when called twice.


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker hands its figures to the controller."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["parlour_cpu"] = dict(CPU)
        workeroutput["parlour_cpu_tests"] = dict(TESTS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """The controller keeps each worker's figures (pytest-xdist's hook)."""
    output = getattr(node, "workeroutput", {})
    _WORKERS[node.gateway.id] = output.get("parlour_cpu", {})
    _WORKER_TESTS[node.gateway.id] = output.get("parlour_cpu_tests", {})


def pytest_terminal_summary(terminalreporter) -> None:
    """The total and the modules that took the most, once per run."""
    global _shown
    per_module = dict(CPU)
    for figures in _WORKERS.values():
        for module, seconds in figures.items():
            per_module[module] = per_module.get(module, 0.0) + seconds
    if _shown or not per_module:
        return
    _shown = True
    top = int(os.environ.get("PARLOUR_CPU_MODULES", "10")) or len(per_module)
    ranked = sorted(per_module.items(), key=lambda kv: -kv[1])
    browser = sum(s for m, s in per_module.items() if m.startswith("e2e/"))
    terminalreporter.write_line(
        f"processor time: {sum(per_module.values()):.1f} s over {len(per_module)} test modules "
        f"(browser tests {browser:.1f} s); the most:"
    )
    for module, seconds in ranked[:top]:
        terminalreporter.write_line(f"  {seconds:7.1f} s  {module}")
    tests = int(os.environ.get("PARLOUR_CPU_TESTS", "0"))
    if tests > 0:
        per_test = dict(TESTS)
        for figures in _WORKER_TESTS.values():
            per_test.update(figures)
        terminalreporter.write_line(f"the {tests} tests that took the most processor time:")
        for nodeid, seconds in sorted(per_test.items(), key=lambda kv: -kv[1])[:tests]:
            terminalreporter.write_line(f"  {seconds:7.1f} s  {nodeid}")

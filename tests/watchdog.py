"""What every test run shares, unit and browser tests alike (tests/conftest.py and
e2e/conftest.py take its hooks): a per-test watchdog, and the Hypothesis profile.

The watchdog: each phase of a test (setup, call, teardown) has ``PARLOUR_TEST_TIMEOUT``
seconds (600 unless set; ``@pytest.mark.timeout(seconds)`` gives a test its own), a setup
three times that (the session's fixtures, the site's build among them, are set up there). A
phase that outlasts it fails where it is stuck, its traceback showing the line it waited on,
and every thread's stack is written to stderr: a stuck test fails and says what it saw
instead of hanging the run. It uses ``SIGALRM``, so it runs where tests run in a process's
main thread (pytest and pytest-xdist's workers alike) on a system that has the signal.

Hypothesis: in CI (``tools.netns.in_ci``: the ``CI`` variable set) the ``ci`` profile
derandomizes every property test, so a run is the same run each time; elsewhere each run
tries new examples (the default profile) and keeps failures in its example database.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import settings

from tools.netns import in_ci

DEFAULT_TIMEOUT_S = 600.0
SETUP_FACTOR = 3

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if in_ci():
    settings.load_profile("ci")


def _budget(item: pytest.Item) -> float:
    marker = item.get_closest_marker("timeout")
    if marker is not None:
        return float(marker.args[0])
    return float(os.environ.get("PARLOUR_TEST_TIMEOUT", DEFAULT_TIMEOUT_S))


@contextmanager
def _watched(item: pytest.Item, phase: str) -> Iterator[None]:
    # A setup may build the site or start the first browser for the whole session (a fresh
    # clone downloads the runtime there): it has three times the budget.
    seconds = _budget(item) * (SETUP_FACTOR if phase == "setup" else 1)
    if seconds <= 0 or not hasattr(signal, "SIGALRM"):
        yield
        return

    def stuck(signum: int, frame: object) -> None:
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        pytest.fail(f"{item.nodeid}: its {phase} took more than {seconds:g} s (stuck)")

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with _watched(item, "setup"):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with _watched(item, "call"):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    with _watched(item, "teardown"):
        return (yield)

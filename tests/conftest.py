"""Shared fixtures of the unit tests, and how ``pytest -n`` (pytest-xdist, ``--dist loadgroup``)
spreads them: one at a time, except that the tests marked ``build`` run in one worker, since
they build the engine wheel and the site into shared places and share module-scoped builds."""

from __future__ import annotations

import pytest

from engine import bridge
from tests.cputime import (  # noqa: F401  (processor time per module, see tests/cputime.py)
    pytest_runtest_protocol,
    pytest_sessionfinish,
    pytest_terminal_summary,
    pytest_testnodedown,
)
from tests.watchdog import (  # noqa: F401  (the watchdog's hooks, see tests/watchdog.py)
    pytest_runtest_call,
    pytest_runtest_setup,
    pytest_runtest_teardown,
)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the group from the marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("build"):
            item.add_marker(pytest.mark.xdist_group("build"))


@pytest.fixture(autouse=True)
def fresh_bridge():
    """Every test starts and ends with no match in the bridge (it holds one per process)."""
    bridge.reset()
    yield
    bridge.reset()

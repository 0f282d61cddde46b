"""Shared fixtures of the unit tests."""

from __future__ import annotations

import pytest

from engine import bridge


@pytest.fixture(autouse=True)
def fresh_bridge():
    """Every test starts and ends with no match in the bridge (it holds one per process)."""
    bridge.reset()
    yield
    bridge.reset()

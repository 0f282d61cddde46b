"""Every module of the engine shows at least one example of its use in its docstrings, and
every example runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine

MODULES = sorted(m.name for m in pkgutil.walk_packages(engine.__path__, "engine."))


def test_every_module_is_found():
    assert {
        "engine.bots.arena",
        "engine.bots.ismcts",
        "engine.games.progression.bot",
        "engine.__main__",
    } <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0, f"{name} shows no example of its use"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"

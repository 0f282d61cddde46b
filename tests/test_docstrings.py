"""Every example in the engine's docstrings runs and gives what it shows."""

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
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"

"""The game registry: one package per game (``engine/games/<id>/``), each exposing ``SPEC``
(a :class:`~engine.core.GameSpec`). A new game is one more name in :data:`GAME_MODULES`.

>>> specs = load_specs()
>>> list(specs) == list(GAME_MODULES), specs["crisps"].title
(True, 'Crisps')
"""

from __future__ import annotations

import importlib

from engine.core import GameSpec

# Order is the menu order.
GAME_MODULES: tuple[str, ...] = ("roundup", "progression", "mhing", "crisps", "spite")


def load_specs() -> dict[str, GameSpec]:
    specs: dict[str, GameSpec] = {}
    for name in GAME_MODULES:
        module = importlib.import_module(f"engine.games.{name}")
        spec: GameSpec = module.SPEC
        specs[spec.id] = spec
    return specs

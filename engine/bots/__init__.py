"""Opponents. Every bot answers ``choose(state, player, rng) -> Action`` and uses only what
``player`` may know: ``state.view(player)`` and the seat's legal actions, or a world from
``state.determinize(player, rng)``.
"""
from __future__ import annotations

import random
from typing import Protocol

from engine.core import Action, State


class Bot(Protocol):
    level: str

    def choose(self, state: State, player: int, rng: random.Random) -> Action: ...


class RandomBot:
    """Uniformly random among the legal actions."""

    level = "random"

    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if not legal or state.current_player != player:
            raise ValueError(f"seat {player} has no move to make now")
        return legal[rng.randrange(len(legal))]


class GreedyBot:
    """The game's own heuristic policy, fed only the seat's view and legal actions."""

    level = "normal"

    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        import engine

        legal = state.legal_actions()
        if not legal or state.current_player != player:
            raise ValueError(f"seat {player} has no move to make now")
        policy = engine.GAMES[state.game_id].greedy
        if policy is None:
            return legal[rng.randrange(len(legal))]
        return policy(state.view(player), legal, rng)


LEVELS = ("random", "easy", "normal", "hard", "expert")
ALIASES = {"greedy": "normal"}


def make(level: str, iterations: int | None = None, time_ms: int | None = None) -> Bot:
    """A bot of the given level (``greedy`` is another name for ``normal``)."""
    level = ALIASES.get(level, level)
    if level == "random":
        return RandomBot()
    if level == "normal":
        return GreedyBot()
    raise ValueError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")

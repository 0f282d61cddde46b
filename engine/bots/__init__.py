"""Opponents. Every bot answers ``choose(state, player, rng) -> Action`` and uses only what
``player`` may know: ``state.view(player)`` and the seat's legal actions, or a world from
``state.determinize(player, rng)``. A turn of several steps is several calls.

Levels (:func:`make`):

- ``random``: uniformly random legal actions.
- ``easy``: the game's greedy policy, but :data:`EASY_MISTAKE_RATE` of its decisions
  (those with a choice) are random.
- ``normal`` (alias ``greedy``): the game's greedy policy.
- ``hard``: ISMCTS (:mod:`engine.bots.ismcts`) with the game's iteration budget
  (``SPEC.bot.hard_iterations``), tuned to about 0.75 s per decision in the page from the
  search's iterations per second there (``build.py bench``: Hard's iterations in 1 s,
  median of mid-match positions; Pyodide runs the search 1.2-1.5x slower than CPython).
- ``expert``: ISMCTS with :data:`EXPERT_FACTOR` times that budget.

A reference level for the arena only, never offered to a player (it is not in
:data:`LEVELS`): ``plain-N`` (``plain`` alone: ``plain-1000``), a plain ISMCTS of ``N``
iterations as an outside bot would play it (:data:`PLAIN_SEARCH`): uniformly random
rollouts to the end of the round, the round's outcome as the return (the rank of the round's
gains: 1 for a win, 0 for a loss, 1/2 for a tie), UCB1 with exploration 1, the most visited
move, and worlds from ``determinize``. Its iterations are its own: the arena's
``iterations`` and ``time_ms`` do not change them.

With the default budgets a search also stops after :data:`SAFETY_MS` (a slow device never
waits minutes); passing ``iterations`` removes the clock altogether, so the same state and rng
give the same choice; passing ``time_ms`` searches for that long instead.

>>> import random, engine
>>> state = engine.new_game("crisps", players=2, seed=1)
>>> bot = make("easy")
>>> bot.choose(state, state.current_player, random.Random(0)).id in \\
...     {a.id for a in state.legal_actions()}
True
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any, Protocol

from engine.bots.evaluation import Evaluator
from engine.bots.ismcts import Search, SearchConfig, describe, settings_of
from engine.core import Action, State


class Bot(Protocol):
    level: str

    def choose(self, state: State, player: int, rng: random.Random) -> Action: ...

    def settings(self, game_id: str, players: int) -> dict[str, Any]: ...


def _legal_for(state: State, player: int) -> list[Action]:
    legal = state.legal_actions()
    if not legal or state.current_player != player:
        raise ValueError(f"seat {player} has no move to make now")
    return legal


class RandomBot:
    """Uniformly random among the legal actions."""

    level = "random"

    def settings(self, game_id: str, players: int) -> dict[str, Any]:
        """What decides this bot's play in ``game_id`` (kept with arena logs)."""
        return {"level": self.level}

    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        legal = _legal_for(state, player)
        return legal[rng.randrange(len(legal))]


class GreedyBot:
    """The game's own heuristic policy, fed only the seat's view and legal actions.

    ``mistake_rate`` is the chance that a decision with a choice is made at random instead.
    """

    def __init__(self, mistake_rate: float = 0.0, level: str = "normal") -> None:
        self.mistake_rate = mistake_rate
        self.level = level

    def settings(self, game_id: str, players: int) -> dict[str, Any]:
        """What decides this bot's play in ``game_id`` (kept with arena logs)."""
        return {"level": self.level, "mistake_rate": self.mistake_rate}

    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        legal = _legal_for(state, player)
        if len(legal) == 1:
            return legal[0]
        if self.mistake_rate and rng.random() < self.mistake_rate:
            return legal[rng.randrange(len(legal))]
        return settings_of(state.game_id, state.players).greedy(state.view(player), legal, rng)


class ISMCTSBot:
    """Information Set MCTS (see :mod:`engine.bots.ismcts`) to a budget.

    ``iterations`` fixes the work (no clock: deterministic for a given rng); else
    ``time_ms`` fixes the time; else the game's default iterations, capped at
    :data:`SAFETY_MS` unless ``safety_clock`` is off (the arena turns it off, so that its
    results never depend on the machine's load). ``last`` keeps the figures of the latest
    search (iterations, seconds) for the arena's statistics.
    """

    def __init__(
        self,
        level: str = "hard",
        iterations: int | None = None,
        time_ms: float | None = None,
        factor: float = 1.0,
        config: SearchConfig | None = None,
        safety_clock: bool = True,
    ) -> None:
        self.level = level
        self.iterations = iterations
        self.time_ms = time_ms
        self.safety_clock = safety_clock
        self.factor = factor
        self.config = config
        self.last: dict[str, Any] = {}

    def budget(self, game_id: str, players: int) -> tuple[int | None, float | None]:
        """``(iterations, time_ms)`` for a search in ``game_id`` at a table of ``players``."""
        if self.iterations is not None:
            return self.iterations, None
        if self.time_ms is not None:
            return None, self.time_ms
        clock = SAFETY_MS * self.factor if self.safety_clock else None
        return int(settings_of(game_id, players).hard_iterations * self.factor), clock

    def settings(self, game_id: str, players: int) -> dict[str, Any]:
        """What decides this bot's play in ``game_id`` at a table of ``players``: its budget
        and search settings (kept with arena logs, so that a log of another budget is never
        resumed)."""
        iterations, time_ms = self.budget(game_id, players)
        return {
            "level": self.level,
            "iterations": iterations,
            "time_ms": time_ms if iterations is None else None,
            "search": describe(
                self._config(game_id, players), settings_of(game_id, players).evaluator
            ),
        }

    def _config(self, game_id: str, players: int) -> SearchConfig:
        return self.config or settings_of(game_id, players).search or SearchConfig()

    def think(
        self, state: State, player: int, rng: random.Random
    ) -> Generator[float, None, Action]:
        """Search in chunks, yielding the fraction done; the generator returns the action."""
        import time

        legal = _legal_for(state, player)
        if len(legal) == 1:
            self.last = {"iterations": 0, "seconds": 0.0}
            return legal[0]
        iterations, time_ms = self.budget(state.game_id, state.players)
        start = time.perf_counter()
        search = Search(state, player, rng, self._config(state.game_id, state.players))
        yield from search.chunks(iterations, time_ms)
        self.last = {"iterations": search.iterations, "seconds": time.perf_counter() - start}
        return search.best()

    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        thinking = self.think(state, player, rng)
        while True:
            try:
                next(thinking)
            except StopIteration as done:
                return done.value


LEVELS = ("random", "easy", "normal", "hard", "expert")
"""The levels a player may choose (the page offers them)."""
ALIASES = {"greedy": "normal"}
PLAIN = "plain"
"""The arena's reference level, ``plain-N`` (see the module text); never in :data:`LEVELS`."""
PLAIN_ITERATIONS = 1000
"""The iterations of ``plain`` without a count."""
PLAIN_SEARCH = SearchConfig(
    rollout="random",
    max_rollout_steps=1_000_000,  # a round always ends (the games' own rules end it)
    exploration=1.0,
    evaluator=Evaluator(rank_weight=1.0, stop_at_round_end=True),
    greedy_trust=None,
)
"""A plain ISMCTS: random rollouts to the end of the round, its outcome in [0, 1], UCB1
with exploration 1, the most visited move."""
EASY_MISTAKE_RATE = 0.3
EXPERT_FACTOR = 3.0
SAFETY_MS = 2500.0
"""Clock cap of the default budgets (only when neither iterations nor time_ms is given)."""


def plain_iterations(level: str) -> int | None:
    """The iterations of a ``plain`` or ``plain-N`` level; None for any other level."""
    if level == PLAIN:
        return PLAIN_ITERATIONS
    prefix = PLAIN + "-"
    if level.startswith(prefix) and level[len(prefix) :].isdigit():
        count = int(level[len(prefix) :])
        if count > 0:
            return count
    return None


def is_level(level: str) -> bool:
    """A level :func:`make` knows: one of :data:`LEVELS`, an alias or a ``plain`` one."""
    return ALIASES.get(level, level) in LEVELS or plain_iterations(level) is not None


def make(
    level: str,
    iterations: int | None = None,
    time_ms: float | None = None,
    safety_clock: bool = True,
) -> Bot:
    """A bot of the given level (``greedy`` is another name for ``normal``).

    ``iterations`` and ``time_ms`` set the budget of the searching levels (hard, expert)
    and are ignored by the others (``plain-N`` searches its own ``N``); ``safety_clock=False``
    lets a default budget run all its iterations however long they take.
    """
    level = ALIASES.get(level, level)
    plain = plain_iterations(level)
    if plain is not None:
        return ISMCTSBot(level, plain, config=PLAIN_SEARCH)
    if level == "random":
        return RandomBot()
    if level == "easy":
        return GreedyBot(EASY_MISTAKE_RATE, "easy")
    if level == "normal":
        return GreedyBot()
    if level == "hard":
        return ISMCTSBot("hard", iterations, time_ms, safety_clock=safety_clock)
    if level == "expert":
        return ISMCTSBot(
            "expert", iterations, time_ms, factor=EXPERT_FACTOR, safety_clock=safety_clock
        )
    raise ValueError(
        f"unknown bot level {level!r}; known: {', '.join(LEVELS)} (and {PLAIN}-N in the arena)"
    )

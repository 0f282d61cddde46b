"""Engine benchmarks run identically in CPython (benchmarks/bench.py imports this file) and
in the page's runtime (benchmarks/web/engine-worker.mjs runs it in Pyodide). Bench-only: it
is served by the benchmark's own server and never part of the site.

    run(seconds, positions) -> {"steps": {game: {...}}, "bots": {level: {game: [seconds]}},
                                "search": {game: [iterations]}}
"""
from __future__ import annotations

import random
import time

import engine
from engine import bots


def steps(seconds: float) -> dict[str, dict[str, float]]:
    """Random legal actions in whole matches; a step is legal_actions() plus apply()."""
    out = {}
    for game_id, spec in engine.GAMES.items():
        rng = random.Random(1)
        count = matches = 0
        started = time.perf_counter()
        elapsed = 0.0
        while elapsed < seconds or matches == 0:
            state = engine.new_game(game_id, spec.default_players, seed=matches)
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
                count += 1
            matches += 1
            elapsed = time.perf_counter() - started
        out[game_id] = {"matches": matches, "steps": count, "rate": count / elapsed}
    return out


def positions(game_id: str, count: int) -> list:
    """``count`` mid-match positions of a game: a seeded random walk of 4 to 40 steps, then
    on to the next position where the player to move has a choice."""
    spec = engine.GAMES[game_id]
    found = []
    for seed in range(count):
        rng = random.Random(seed)
        state = engine.new_game(game_id, spec.default_players, seed=seed)
        for _ in range(rng.randint(4, 40)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            state = engine.new_game(game_id, spec.default_players, seed=seed)
        # A real decision: walk on to a position with a choice to make.
        while not state.is_over and len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        found.append(state)
    return found


def bot_times(count: int) -> dict[str, dict[str, list[float]]]:
    """Seconds per decision of every bot level (default budgets) on ``count`` positions."""
    out: dict[str, dict[str, list[float]]] = {}
    for level in bots.LEVELS:
        bot = bots.make(level)
        out[level] = {}
        for game_id in engine.GAMES:
            times = []
            for number, state in enumerate(positions(game_id, count)):
                player = state.current_player
                started = time.perf_counter()
                bot.choose(state, player, random.Random(number))
                times.append(time.perf_counter() - started)
            out[level][game_id] = times
    return out


SEARCH_MS = 1000.0
"""The time budget of :func:`search_iterations`: Hard's target decision time in the page."""


def search_iterations(count: int) -> dict[str, list[int]]:
    """Iterations the Hard search reaches in :data:`SEARCH_MS` on ``count`` positions per game
    (the same budget in CPython and in the page, so the two can be compared)."""
    out: dict[str, list[int]] = {}
    for game_id in engine.GAMES:
        reached = []
        for number, state in enumerate(positions(game_id, count)):
            bot = bots.make("hard", time_ms=SEARCH_MS)
            bot.choose(state, state.current_player, random.Random(number))
            reached.append(bot.last["iterations"])
        out[game_id] = reached
    return out


def run(seconds: float, count: int) -> dict:
    if count <= 0:
        return {"steps": steps(seconds), "bots": {}, "search": {}}
    return {"steps": steps(seconds), "bots": bot_times(count),
            "search": search_iterations(count)}

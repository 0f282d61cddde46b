"""Engine benchmarks run identically in CPython (benchmarks/bench.py imports this file) and
in the page's runtime (benchmarks/web/engine-worker.mjs runs it in Pyodide). Bench-only: it
is served by the benchmark's own server and never part of the site.

    run(seconds, positions, games=None, warmup=WARMUP_S)
        -> {"steps": {game: {"fresh", "settled", "rate" (= settled), "matches"}},
            "bots": {level: {table: [seconds]}}, "search": {table: [iterations]}}
    bots_part(positions, games=None, review_moves=REVIEW_MOVES)
        -> {"decisions": {"game Np": {level: {"seconds": [...], "iterations": [...]}}},
            "review": {"game", "players", "moves", "first", "seconds": [...]}}

A *table* (:func:`tables`) is a game at its default player count, named by the game's id,
and at each player count whose bots have settings of their own (``BotSettings.sizes``),
named ``"roundup 2p"``: the bots' figures are measured at each.
"""

from __future__ import annotations

import random
import sys
import time

import engine
from engine import bots

WARMUP_S = 6.0
"""When the second measurement of each game starts (see :func:`steps`)."""


def steps(
    seconds: float, games: list[str] | None = None, warmup: float = WARMUP_S
) -> dict[str, dict[str, float]]:
    """Random legal actions in whole matches; a step is legal_actions() plus apply().

    Per game, twice: ``fresh``, the first ``seconds`` of play, and ``settled``, ``seconds``
    more from ``warmup`` seconds on (play goes on uncounted between the two). In the page,
    Chromium's WebAssembly compiler settles the runtime's code after a few seconds of play
    into a state that can be slower than the first seconds; a person's match spends nearly
    all its time in that state, so ``settled`` is the figure that counts. Each page run
    measures one game in a fresh worker (benchmarks/web/engine.mjs), so no game is measured
    in a state another game left.
    """
    out = {}
    for game_id in games or list(engine.GAMES):
        spec = engine.GAMES[game_id]
        rng = random.Random(1)
        matches = 0
        phases = [("fresh", 0.0), ("settled", max(warmup, seconds))]
        rates: dict[str, float] = {}
        count = 0
        started = time.perf_counter()
        phase_start, phase = started, 0
        while phase < len(phases):
            state = engine.new_game(game_id, spec.default_players, seed=matches)
            matches += 1
            while not state.is_over and phase < len(phases):
                state.apply(rng.choice(state.legal_actions()))
                count += 1
                if count % 64:
                    continue
                now = time.perf_counter()
                name, begin = phases[phase]
                if now - started < begin:
                    count = 0  # between the two measurements: not counted
                    phase_start = now
                elif now - phase_start >= seconds:
                    rates[name] = count / (now - phase_start)
                    count, phase_start, phase = 0, now, phase + 1
        out[game_id] = {"matches": matches, "rate": rates["settled"], **rates}
    return out


def tables(games: list[str] | None = None) -> dict[str, tuple[str, int]]:
    """The tables the bots are timed at, by name: each game's default player count (named by
    the game's id) and every other count its bots have settings of their own for."""
    out = {}
    for game_id in games or engine.GAMES:
        spec = engine.GAMES[game_id]
        out[game_id] = (game_id, spec.default_players)
        for players in sorted(spec.bot.sizes):
            if players != spec.default_players:
                out[f"{game_id} {players}p"] = (game_id, players)
    return out


def positions(game_id: str, count: int, players: int | None = None) -> list:
    """``count`` mid-match positions of a game (at ``players``, by default the game's default
    count): a seeded random walk of 4 to 40 steps, then on to the next position where the
    player to move has a choice."""
    players = players or engine.GAMES[game_id].default_players
    found = []
    for seed in range(count):
        rng = random.Random(seed)
        state = engine.new_game(game_id, players, seed=seed)
        for _ in range(rng.randint(4, 40)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            state = engine.new_game(game_id, players, seed=seed)
        # A real decision: walk on to a position with a choice to make.
        while not state.is_over and len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        found.append(state)
    return found


def bot_times(count: int, games: list[str] | None = None) -> dict[str, dict[str, list[float]]]:
    """Seconds per decision of every bot level (default budgets) on ``count`` positions of
    each table (:func:`tables`) of ``games`` (all by default)."""
    out: dict[str, dict[str, list[float]]] = {}
    for level in bots.LEVELS:
        bot = bots.make(level)
        out[level] = {}
        for table, (game_id, players) in tables(games).items():
            times = []
            for number, state in enumerate(positions(game_id, count, players)):
                player = state.current_player
                started = time.perf_counter()
                bot.choose(state, player, random.Random(number))
                times.append(time.perf_counter() - started)
            out[level][table] = times
    return out


SEARCH_MS = 1000.0
"""The time budget of :func:`search_iterations`: Hard's target decision time in the page."""


def search_iterations(count: int, games: list[str] | None = None) -> dict[str, list[int]]:
    """Iterations the Hard search reaches in :data:`SEARCH_MS` on ``count`` positions per
    table (:func:`tables`; the same budget in CPython and in the page, so the two can be
    compared)."""
    out: dict[str, list[int]] = {}
    for table, (game_id, players) in tables(games).items():
        reached = []
        for number, state in enumerate(positions(game_id, count, players)):
            bot = bots.make("hard", time_ms=SEARCH_MS)
            bot.choose(state, state.current_player, random.Random(number))
            reached.append(bot.last["iterations"])
        out[table] = reached
    return out


def run(
    seconds: float, count: int, games: list[str] | None = None, warmup: float = WARMUP_S
) -> dict:
    """Steps per second of ``games`` (all by default; none when ``seconds`` is 0), then, with
    ``count`` positions per game of ``games``, every level's decision times and Hard's
    iterations."""
    out: dict = {
        "steps": steps(seconds, games, warmup) if seconds > 0 else {},
        "bots": {},
        "search": {},
    }
    if count > 0:
        out["bots"] = bot_times(count, games)
        out["search"] = search_iterations(count, games)
    return out


CLOCK = time.perf_counter if sys.platform == "emscripten" else time.process_time
"""What :func:`bots_part` times with: the process's CPU time in CPython (the machine is shared,
so the wall clock says more about the others than about the engine), the wall clock in the
page (the worker does nothing else meanwhile)."""
REVIEW_GAME = ("crisps", 2, 1)
"""The recorded match :func:`bots_part` reviews: (game, players, seed), Normal at every seat."""
REVIEW_MOVES = 65


def bots_part(
    count: int,
    games: list[str] | None = None,
    review_moves: int = REVIEW_MOVES,
    iterations: int | None = None,
) -> dict:
    """The bots' costs: per game and every player count it offers, Hard's and Expert's
    decision times (their default iterations, no clock) and iterations on ``count``
    mid-match positions; then "Review my moves" of a recorded match
    (:data:`REVIEW_GAME`, its first seat's first ``review_moves`` moves with a choice): the
    seconds of each move's analysis, as the bridge runs it (the seat's own worlds, the
    review's budget and its refinement; a move with no choice costs no search and is not
    timed). ``iterations``: Hard's budget instead of the game's (Expert
    searches three times as many; a test's small budget)."""
    from engine.bots import analysis

    decisions: dict[str, dict[str, dict[str, list[float]]]] = {}
    for game_id in games or list(engine.GAMES):
        for players in engine.GAMES[game_id].player_counts():
            row = decisions[f"{game_id} {players}p"] = {}
            for level in ("hard", "expert"):
                budget = None
                if iterations is not None:
                    budget = iterations if level == "hard" else iterations * 3
                bot = bots.make(level, iterations=budget, safety_clock=False)
                assert isinstance(bot, bots.ISMCTSBot)
                seconds, reached = [], []
                for number, state in enumerate(positions(game_id, count, players)):
                    started = CLOCK()
                    bot.choose(state, state.current_player, random.Random(number))
                    seconds.append(CLOCK() - started)
                    reached.append(bot.last["iterations"])
                row[level] = {"seconds": seconds, "iterations": reached}
    game_id, players, seed = REVIEW_GAME
    state = engine.new_game(game_id, players, seed=seed)
    normal, rng = bots.make("normal"), random.Random(seed)
    review: list[float] = []
    while not state.is_over and len(review) < review_moves:
        seat = state.current_player
        assert seat is not None
        if seat == 0 and len(state.legal_actions()) > 1:
            started = CLOCK()
            budget = iterations or analysis.review_budget(game_id, players)
            analysis.run(state, seat, random.Random(len(state.history)), budget)
            review.append(CLOCK() - started)
        state.apply(normal.choose(state, seat, rng))
    return {
        "decisions": decisions,
        "review": {"game": game_id, "players": players, "seed": seed, "seconds": review},
    }

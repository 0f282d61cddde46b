"""Drive every part of the engine the page can reach, through ``engine.bridge``.

Run inside Pyodide by ``exercise.mjs`` (to record which standard-library modules the engine
and the runtime import, and to prove a trimmed library is enough), and in CPython by the
tests. Every game at every player count meets every opponent level (small search budgets),
asks for hints, takes moves back, saves and loads its record and replays it; every game is
played to its end at every player count and with every option set, and the finished
records are loaded and replayed with the hands revealed; bad requests of every kind are
sent. Any reply that is not what the page would get from a healthy engine (above all an
``internal_error``: an ImportError inside the bridge comes back as one) raises
``ExerciseFailed``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import engine
from engine import bots, bridge


class ExerciseFailed(Exception):
    pass


class Driver:
    """Calls the bridge the way the page's worker does and counts what it did."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {}
        self.progress_reports = 0

    def call(self, method: str, params: Any = None, raw: str | None = None) -> dict[str, Any]:
        text = raw if raw is not None else (None if params is None else json.dumps(params))
        reply = json.loads(getattr(bridge, method)(text))
        self.calls[method] = self.calls.get(method, 0) + 1
        error = reply.get("error") if isinstance(reply, dict) else None
        if error is not None:
            raise ExerciseFailed(f"{method} failed: {error.get('code')}: {error.get('message')}")
        return reply

    def refused(self, method: str, params: Any = None, raw: str | None = None) -> str:
        """Call ``method`` expecting a readable refusal; returns its code."""
        text = raw if raw is not None else (None if params is None else json.dumps(params))
        reply = json.loads(getattr(bridge, method)(text))
        self.calls[method] = self.calls.get(method, 0) + 1
        error = reply.get("error") if isinstance(reply, dict) else None
        if error is None:
            raise ExerciseFailed(f"{method} accepted a bad request: {str(params or raw)[:80]}")
        if error.get("code") == "internal_error":
            raise ExerciseFailed(f"{method} failed inside the engine: {error.get('message')}")
        return str(error["code"])


def _seats(players: int, level: str) -> list[dict[str, Any]]:
    return [{"type": "human"}] + [{"type": "bot", "level": level}] * (players - 1)


def _small_budget(level: str, iterations: int) -> Any:
    """The level's bot, its search (if any) cut to ``iterations`` so that the run is short."""
    if level in ("hard", "expert"):
        return bots.make(level, iterations=iterations)
    return bots.make(level)


def _play_against(
    driver: Driver,
    game: str,
    players: int,
    level: str,
    seed: int,
    steps: int,
    iterations: int,
    practice: bool,
) -> None:
    """A match against ``level`` for ``steps`` actions: hints, why, undo, record, replay."""
    snap = driver.call(
        "start",
        {
            "game": game,
            "players": players,
            "seed": seed,
            "seats": _seats(players, level),
            "practice": practice,
        },
    )
    session = bridge.DESK.session
    assert session is not None
    session.bot_cache[level] = _small_budget(level, iterations)
    undone = False
    for _ in range(steps):
        if snap["is_over"]:
            break
        if snap["human_turn"]:
            legal = snap["legal"]
            if not driver.call("why", {"action": legal[0]["id"]})["legal"]:
                raise ExerciseFailed(f"{game}: a legal action was called illegal")
            driver.call("why", {"action": "no-such-action"})
            driver.refused("act", {"action": "no-such-action"})
            driver.refused("bot_move")
            suggested = driver.call("hint")["action"]["id"]
            snap = driver.call("act", {"action": suggested})
            if snap["can_undo"] and not undone:
                driver.call("undo")
                snap = driver.call("act", {"action": suggested})
                undone = True
        else:
            driver.refused("hint")
            driver.refused("act", {"action": "no-such-action"})
            snap = driver.call("bot_move")["snapshot"]
    saved = driver.call("record")
    loaded = driver.call("load", saved)
    if loaded["moves"] != snap["moves"]:
        raise ExerciseFailed(
            f"{game}: a loaded record has {loaded['moves']} moves, not {snap['moves']}"
        )
    driver.call("snapshot")
    record = saved["record"]
    for step in (0, len(record["actions"]) // 2, len(record["actions"])):
        driver.call("replay", {"record": record, "seats": saved["seats"], "step": step})
    if not snap["is_over"]:
        driver.refused("replay", {"record": record, "reveal": True})


def _finished_record(game: str, players: int, options: dict[str, Any], seed: int) -> Any:
    """A whole match of random moves, played on the engine directly (fast), as a record."""
    state = engine.new_game(game, players, seed, options)
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state.to_record()


def _finished(driver: Driver, record: Any, players: int) -> None:
    """Load and replay a finished match the way the page does after its end."""
    seats = _seats(players, "random")
    snap = driver.call("load", {"record": record, "seats": seats})
    if not snap["is_over"]:
        raise ExerciseFailed(f"{record['game']}: a finished record loaded unfinished")
    driver.refused("act", {"action": "no-such-action"})
    driver.refused("bot_move")
    driver.refused("undo")
    driver.call("record")
    steps = len(record["actions"])
    for step in (steps // 3, steps):
        for reveal in (False, True):
            driver.call(
                "replay", {"record": record, "seats": seats, "step": step, "reveal": reveal}
            )


def _bad_requests(driver: Driver) -> None:
    """What a broken page, a tampered match file or a stale tab could send."""
    bridge.reset()
    driver.refused("snapshot")
    driver.refused("act", {"action": "x"})
    driver.refused("undo")
    driver.refused("start", raw="{not json")
    driver.refused("start", raw="[1, 2]")
    driver.refused("start", raw="x" * (bridge.MAX_INPUT_CHARS + 1))
    driver.refused("start", {"game": "no-such-game"})
    driver.refused("start", {"game": 7})
    driver.refused("start", {"game": "crisps", "players": 9})
    driver.refused("start", {"game": "crisps", "seats": [{"type": "human"}]})
    driver.refused("start", {"game": "crisps", "seats": [{"type": "alien"}, {}]})
    driver.refused(
        "start", {"game": "crisps", "seats": [{"type": "human"}, {"level": "grandmaster"}]}
    )
    driver.refused("start", {"game": "crisps", "options": {"no_such_option": 1}})
    driver.refused("start", {"game": "crisps", "options": "fast"})
    driver.refused("start", {"game": "crisps", "practice": "yes"})
    driver.call("start", {"game": "crisps", "seed": 1, "seats": _seats(2, "normal")})
    record = driver.call("record")["record"]
    driver.refused("load", {"record": "not a record"})
    driver.refused("load", {"record": {**record, "game": "no-such-game"}})
    driver.refused("load", {"record": {**record, "actions": ["no-such-action"]}})
    driver.refused("load", {"record": {k: v for k, v in record.items() if k != "seed"}})
    driver.refused("load", {"record": {**record, "version": 999}})
    driver.refused("load", {"record": record, "seats": [{"type": "human"}]})
    driver.refused("replay", {"record": [1, 2, 3]})
    driver.refused("replay", {"record": record, "step": "last"})
    driver.refused("replay", {"record": record, "viewer": 7})
    driver.refused("replay", {"record": record, "reveal": "yes"})
    driver.call("snapshot")  # the match in progress survived all of it


def run(iterations: int = 4, steps: int = 10, hint_ms: int = 20) -> dict[str, Any]:
    """Exercise the engine; returns what was done. Raises ExerciseFailed on a bad reply.

    ``iterations`` is the search budget of Hard and Expert, ``steps`` the actions of each
    match against a level, ``hint_ms`` the time a hint may think.
    """
    driver = Driver()
    hint_time, bridge.advice.HINT_TIME_MS = bridge.advice.HINT_TIME_MS, hint_ms

    def progressed(fraction: float) -> None:
        driver.progress_reports += 1

    bridge.on_progress(progressed)
    try:
        _bad_requests(driver)
        catalogue = driver.call("games")
        levels = catalogue["levels"]
        if list(levels) != list(bots.LEVELS):
            raise ExerciseFailed(f"the bridge offers the levels {levels}, not {bots.LEVELS}")
        matches = finished = 0
        for seed, spec in enumerate(engine.GAMES.values(), start=1):
            for players in spec.player_counts():
                for number, level in enumerate(levels):
                    _play_against(
                        driver,
                        spec.id,
                        players,
                        level,
                        seed * 100 + number,
                        steps,
                        iterations,
                        practice=number % 2 == 1,
                    )
                    matches += 1
                option_sets = spec.option_sets() if players == spec.default_players else [{}]
                for options in option_sets:
                    record = _finished_record(spec.id, players, options, seed)
                    _finished(driver, record, players)
                    finished += 1
    finally:
        bridge.on_progress(None)
        bridge.advice.HINT_TIME_MS = hint_time
        bridge.reset()
    if not driver.progress_reports:
        raise ExerciseFailed("no searching bot reported its progress")
    return {
        "matches": matches,
        "finished": finished,
        "calls": driver.calls,
        "progress_reports": driver.progress_reports,
    }

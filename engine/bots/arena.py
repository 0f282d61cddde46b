"""Bots against bots: whole matches with the seats rotated, in parallel processes.

A line-up names one bot level per seat; a list shorter than the table is filled with its
last entry (``["hard", "normal"]`` at four players is one Hard seat and three Normal ones).
Match ``m`` uses game seed ``seed + m`` and rotates the line-up by ``m`` seats, so every
level sits in every seat equally often. A win is shared among tied winners (each gets
``1 / len(winners)``); the 95% interval is Wilson's.

Long runs can keep a log (``log=path``): one JSON line per finished match, written as it
finishes (a path ending ``.gz`` is gzip-compressed, each line appended as a member of its
own; :func:`log_lines` reads either kind). Run again with the same settings and the same
log, and the matches already in it are read back instead of played, so a run that was
stopped goes on where it stopped (lines of other settings in the file are ignored). The
settings include each level's budget and search settings, so a log made before a bot
changed is not mixed with the new bot's games.

Par (``par=level``, a duplicate comparison): each match is played a second time with every
seat at ``level``, from the same deal and the same bots' random numbers. A seat's *margin*
is its score minus the mean of the other seats' scores; its margin *over par* is that margin
less the margin the par player made in the same seat of the same deal. The luck of the deal
and of the seat cancel out, so a level's mean over par (``over_par``: mean, standard error,
seats) tells apart bots that a win rate over the same matches cannot. In Progression at
three, over 60 one-round matches, the standard error of one Hard seat's margin was 2.2-2.7
points and of its margin over Normal's par 1.1-2.4, the least for the Hards that play most
like Normal.

The ladder table the page's set-up screen shows is made from these logs outside the engine
(``python tools/ladder.py LOG...``); the arena knows no file but the log it is given.

>>> summary = run_arena("crisps", 2, ["normal", "random"], matches=2, seed=5, jobs=1)
>>> sorted(summary["levels"])
['normal', 'random']
>>> round(sum(s["wins"] for s in summary["levels"].values()), 6)
2.0
>>> [round(x, 3) for x in wilson(60, 100)]
[0.502, 0.691]
"""

from __future__ import annotations

import gzip
import json
import math
import random
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import engine
from engine import bots
from engine.core import State


def lineup(levels: list[str], players: int) -> list[str]:
    """``levels`` stretched (with its last entry) or cut to ``players`` seats."""
    if not levels:
        raise ValueError("give at least one bot level")
    return [levels[min(i, len(levels) - 1)] for i in range(players)]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play_match(
    game: str,
    players: int,
    seats: list[str],
    seed: int,
    bot_seed: int | None = None,
    iterations: int | None = None,
    time_ms: float | None = None,
    max_rounds: int | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One match with ``seats[i]`` the level of seat ``i``; per-seat figures.

    ``max_rounds`` stops the match once that many rounds are finished (quick tests); the
    winners are then the seats with the best match score so far.
    """

    state = engine.new_game(game, players=players, seed=seed, options=options)
    # No safety clock: a budget of iterations is played in full however loaded the machine
    # is, so the same command always gives the same matches.
    made = [
        bots.make(level, iterations=iterations, time_ms=time_ms, safety_clock=False)
        for level in seats
    ]
    base = seed if bot_seed is None else bot_seed
    rngs = [random.Random(base * 7919 + 104729 * seat + 1) for seat in range(players)]
    think = [0.0] * players
    decisions = [0] * players
    searched = [0] * players
    search_seconds = [0.0] * players
    steps = 0
    while not state.is_over:
        if max_rounds is not None and len(state.result()["rounds"]) >= max_rounds:
            break
        seat = state.current_player
        assert seat is not None
        bot = made[seat]
        start = time.perf_counter()
        action = bot.choose(state, seat, rngs[seat])
        think[seat] += time.perf_counter() - start
        decisions[seat] += 1
        last = getattr(bot, "last", None)
        if last:
            searched[seat] += last.get("iterations", 0)
            search_seconds[seat] += last.get("seconds", 0.0)
        state.apply(action)
        steps += 1
    return _outcome(state, seats, think, decisions, searched, search_seconds, steps)


def _outcome(
    state: State,
    seats: list[str],
    think: list[float],
    decisions: list[int],
    searched: list[int],
    search_seconds: list[float],
    steps: int,
) -> dict[str, Any]:
    result = state.result()
    scores = list(result["scores"])
    winners = list(result["winners"]) if state.is_over else []
    if not winners:
        best = max(scores)
        winners = [p for p, s in enumerate(scores) if s == best]
    return {
        "seats": seats,
        "scores": scores,
        "winners": winners,
        "think": think,
        "decisions": decisions,
        "iterations": searched,
        "search_seconds": search_seconds,
        "steps": steps,
        "finished": state.is_over,
    }


def _match_job(args: tuple[Any, ...]) -> dict[str, Any]:
    game, players, levels, m, seed, iterations, time_ms, max_rounds, options, par = args
    shift = m % players
    seats = [levels[(seat - shift) % players] for seat in range(players)]
    common = {
        "bot_seed": seed * 1_000_003 + m,
        "iterations": iterations,
        "time_ms": time_ms,
        "max_rounds": max_rounds,
        "options": options,
    }
    outcome = play_match(game, players, seats, seed + m, **common)
    if par is not None:
        outcome["par_scores"] = play_match(game, players, [par] * players, seed + m, **common)[
            "scores"
        ]
    return outcome


def margins(scores: list[float]) -> list[float]:
    """Each seat's score minus the mean of the other seats' scores."""
    total = sum(scores)
    n = len(scores)
    return [s - (total - s) / (n - 1) for s in scores]


def seat_over_par(outcome: dict[str, Any]) -> list[float]:
    """Each seat's margin (:func:`margins`) less the par's margin in that seat of the same
    deal: an outcome played with ``par``."""
    return [
        mine - par
        for mine, par in zip(
            margins(outcome["scores"]), margins(outcome["par_scores"]), strict=False
        )
    ]


def mean_error(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (0 for a single value).

    >>> mean_error([1.0, 3.0])
    (2.0, 1.0)
    """
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, spread / math.sqrt(n)


def run_arena(
    game: str,
    players: int,
    levels: list[str],
    matches: int,
    seed: int = 0,
    jobs: int = 1,
    iterations: int | None = None,
    time_ms: float | None = None,
    max_rounds: int | None = None,
    options: dict[str, Any] | None = None,
    log: str | Path | None = None,
    par: str | None = None,
) -> dict[str, Any]:
    """Play ``matches`` matches (rotating seats) on ``jobs`` processes; figures per level.

    ``log``: a JSON-lines file that keeps each finished match and lets a stopped run go on;
    ``par``: a level that also plays every match at every seat (see the module text)."""

    seats = lineup(levels, players)
    settings = {
        "game": game,
        "players": players,
        "seats": seats,
        "seed": seed,
        "iterations": iterations,
        "time_ms": time_ms,
        "max_rounds": max_rounds,
        "options": options or {},
        "bots": {
            level: bots.make(level, iterations=iterations, time_ms=time_ms).settings(game, players)
            for level in dict.fromkeys(seats + ([par] if par else []))
        },
    }
    if par is not None:
        settings["par"] = par  # only then: logs made without par still resume
    done: dict[int, Any] = {}
    if log is not None:
        Path(log).parent.mkdir(parents=True, exist_ok=True)  # fail before playing, not after
        done = _read_log(log, settings, matches)
    work = [
        (game, players, seats, m, seed, iterations, time_ms, max_rounds, options, par)
        for m in range(matches)
        if m not in done
    ]
    outcomes = dict(done)
    for m, outcome in _play_all(work, jobs):
        outcomes[m] = outcome
        if log is not None:
            line = json.dumps({"settings": settings, "match": m, "outcome": outcome}) + "\n"
            append_log_line(log, line)
    return summarize([outcomes[m] for m in range(matches)], players)


def _play_all(work: list[tuple[Any, ...]], jobs: int) -> Iterable[tuple[int, dict[str, Any]]]:
    """``(match number, outcome)`` as matches finish, on ``jobs`` processes."""
    if jobs > 1 and len(work) > 1:
        import multiprocessing

        with multiprocessing.Pool(min(jobs, len(work))) as pool:
            yield from pool.imap_unordered(_numbered_job, work, chunksize=1)
    else:
        for job in work:
            yield _numbered_job(job)


def _numbered_job(args: tuple[Any, ...]) -> tuple[int, dict[str, Any]]:
    return args[3], _match_job(args)


def _read_log(log: str | Path, settings: dict[str, Any], matches: int) -> dict[int, Any]:
    """The outcomes already logged for these settings, by match number (first wins)."""
    path = Path(log)
    if not path.exists():
        return {}
    found: dict[int, Any] = {}
    for number, line in enumerate(log_lines(path), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            raise ValueError(f"{path}: line {number} is not JSON") from None
        if entry.get("settings") != json.loads(json.dumps(settings)):
            continue
        m = entry.get("match")
        if isinstance(m, int) and 0 <= m < matches and m not in found:
            found[m] = entry["outcome"]
    return found


def summarize(outcomes: list[dict[str, Any]], players: int) -> dict[str, Any]:
    levels: dict[str, dict[str, Any]] = {}
    over_par: dict[str, list[float]] = {}
    for out in outcomes:
        share = 1.0 / len(out["winners"])
        if "par_scores" in out:
            for seat, diff in enumerate(seat_over_par(out)):
                over_par.setdefault(out["seats"][seat], []).append(diff)
        for seat, level in enumerate(out["seats"]):
            row = levels.setdefault(
                level,
                {
                    "seats": 0,
                    "wins": 0.0,
                    "score": 0.0,
                    "think": 0.0,
                    "decisions": 0,
                    "iterations": 0,
                    "search_seconds": 0.0,
                },
            )
            row["seats"] += 1
            row["wins"] += share if seat in out["winners"] else 0.0
            row["score"] += out["scores"][seat]
            row["think"] += out["think"][seat]
            row["decisions"] += out["decisions"][seat]
            row["iterations"] += out["iterations"][seat]
            row["search_seconds"] += out["search_seconds"][seat]
    for row in levels.values():
        n = row["seats"]
        row["win_rate"] = row["wins"] / n
        row["ci"] = wilson(row["wins"], n)
        row["fair_share"] = 1.0 / players
        row["avg_score"] = row["score"] / n
        row["avg_decision_ms"] = 1000.0 * row["think"] / max(1, row["decisions"])
        row["iterations_per_s"] = (
            row["iterations"] / row["search_seconds"] if row["search_seconds"] else 0.0
        )
    for level, diffs in over_par.items():
        levels[level]["over_par"] = (*mean_error(diffs), len(diffs))
    return {
        "matches": len(outcomes),
        "players": players,
        "levels": levels,
        "unfinished": sum(1 for o in outcomes if not o["finished"]),
    }


def _compressed(log: str | Path) -> bool:
    return str(log).endswith(".gz")


def log_lines(log: str | Path) -> list[str]:
    """The lines of an arena log, plain or gzip-compressed (a name ending ``.gz``).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "run.jsonl.gz"
    >>> append_log_line(path, '{"match": 0}\\n'); append_log_line(path, '{"match": 1}\\n')
    >>> log_lines(path)
    ['{"match": 0}', '{"match": 1}']
    """
    if _compressed(log):
        with gzip.open(log, "rt", encoding="utf-8") as handle:
            return handle.read().splitlines()
    return Path(log).read_text(encoding="utf-8").splitlines()


def append_log_line(log: str | Path, line: str) -> None:
    """Add one line at the end of an arena log (to a compressed one, as a gzip member of its
    own: a run stopped half way leaves every line written before it readable)."""
    if _compressed(log):
        with gzip.open(log, "at", encoding="utf-8") as handle:
            handle.write(line)
    else:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(line)

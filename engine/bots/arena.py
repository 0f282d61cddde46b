"""Bots against bots: whole matches with the seats rotated, in parallel processes.

A line-up names one bot level per seat; a list shorter than the table is filled with its
last entry (``["hard", "normal"]`` at four players is one Hard seat and three Normal ones).
Match ``m`` uses game seed ``seed + m`` and rotates the line-up by ``m`` seats, so every
level sits in every seat equally often. A win is shared among tied winners (each gets
``1 / len(winners)``); the 95% interval is Wilson's.

Long runs can keep a log (``log=path``): one JSON line per finished match, written as it
finishes. Run again with the same settings and the same log, and the matches already in it
are read back instead of played, so a run that was stopped goes on where it stopped (lines
of other settings in the file are ignored). The settings include each level's budget and
search settings, so a log made before a bot changed is not mixed with the new bot's games.

Par (``par=level``, a duplicate comparison): each match is played a second time with every
seat at ``level``, from the same deal and the same bots' random numbers. A seat's *margin*
is its score minus the mean of the other seats' scores; its margin *over par* is that margin
less the margin the par player made in the same seat of the same deal. The luck of the deal
and of the seat cancel out, so a level's mean over par (``over_par``: mean, standard error,
seats) tells apart bots that a win rate over the same matches cannot. In Progression at
three, over 60 one-round matches, the standard error of one Hard seat's margin was 2.2-2.7
points and of its margin over Normal's par 1.1-2.4, the least for the Hards that play most
like Normal.

The ladder (``TABLE``): what the arena measured, one entry per logged run, for the page to
show. Every entry is made from an arena log (``entries_from_log``), never typed in: the
matches of one log with one set of settings, summarised as the arena prints them. It keeps the
command that plays (or, with the log, reads back) the run, its matches, each level's match
win rate with its 95% interval, its share over the fair one, its margin over par when the run
had one, its decision time, and the bots' settings the log recorded. The table lives in
``benchmarks/ladder.json``; ``python -m engine arena ... --log FILE --ladder`` records its run
there and ``python -m engine ladder LOG...`` records logged runs. The build ships the figures
with the page's catalog (tools/build/catalog.py), so the set-up screen shows only figures a
logged run gave.

>>> summary = run_arena("crisps", 2, ["normal", "random"], matches=2, seed=5, jobs=1)
>>> sorted(summary["levels"])
['normal', 'random']
>>> round(sum(s["wins"] for s in summary["levels"].values()), 6)
2.0
>>> [round(x, 3) for x in wilson(60, 100)]
[0.502, 0.691]
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
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
            with open(log, "a", encoding="utf-8") as handle:
                handle.write(
                    json.dumps({"settings": settings, "match": m, "outcome": outcome}) + "\n"
                )
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
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
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


# ----- the ladder table ------------------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent.parent
TABLE = ROOT / "benchmarks" / "ladder.json"
"""The ladder table of this repository."""


def command_of(settings: dict[str, Any], matches: int, log: str) -> str:
    """The arena command that plays the run of these settings (or reads it from ``log``).

    >>> settings = {"game": "roundup", "players": 4, "seats": ["hard", "normal", "normal",
    ...     "normal"], "seed": 1, "iterations": None, "time_ms": None, "max_rounds": 1}
    >>> command_of(settings, 30, "r.jsonl")  # doctest: +NORMALIZE_WHITESPACE
    'python -m engine arena roundup --players 4 --bots hard,normal --matches 30 --seed 1
    --rounds 1 --log r.jsonl'
    """
    seats = list(settings["seats"])
    while len(seats) > 1 and seats[-1] == seats[-2]:
        seats.pop()  # the arena fills the table with the last level given
    parts = [
        f"python -m engine arena {settings['game']} --players {settings['players']}",
        f"--bots {','.join(seats)} --matches {matches} --seed {settings['seed']}",
    ]
    if settings.get("iterations") is not None:
        parts.append(f"--iterations {settings['iterations']}")
    if settings.get("time_ms") is not None:
        parts.append(f"--time-ms {settings['time_ms']:g}")
    if settings.get("max_rounds") is not None:
        parts.append(f"--rounds {settings['max_rounds']}")
    if settings.get("par") is not None:
        parts.append(f"--par {settings['par']}")
    parts.append(f"--log {log}")
    return " ".join(parts)


def _relative(log: str | Path) -> str:
    path = Path(log).resolve()
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return Path(log).as_posix()


def entries_from_log(log: str | Path) -> list[dict[str, Any]]:
    """One ladder entry per set of settings in an arena log (its first line of each match
    number counts, as when the arena resumes)."""
    runs: dict[str, tuple[dict[str, Any], dict[int, Any]]] = {}
    for line in Path(log).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        key = json.dumps(item["settings"], sort_keys=True)
        settings, outcomes = runs.setdefault(key, (item["settings"], {}))
        outcomes.setdefault(item["match"], item["outcome"])
    name = _relative(log)
    out = []
    for settings, outcomes in runs.values():
        matches = len(outcomes)
        summary = summarize([outcomes[m] for m in sorted(outcomes)], settings["players"])
        levels = {}
        for level, row in summary["levels"].items():
            over_par = row.get("over_par")
            levels[level] = {
                "seats": row["seats"],
                "win_rate": round(row["win_rate"], 4),
                "ci": [round(row["ci"][0], 4), round(row["ci"][1], 4)],
                "x_fair": round(row["win_rate"] / row["fair_share"], 3),
                "over_par": None
                if over_par is None
                else {
                    "mean": round(over_par[0], 3),
                    "error": round(over_par[1], 3),
                    "seats": over_par[2],
                },
                "decision_ms": round(row["avg_decision_ms"], 1),
            }
        out.append(
            {
                "game": settings["game"],
                "players": settings["players"],
                "seats": settings["seats"],
                "rounds": settings["max_rounds"],
                "par": settings.get("par"),
                "matches": matches,
                "command": command_of(settings, matches, name),
                "log": name,
                "levels": levels,
                "bots": settings["bots"],
            }
        )
    return out


def _key(entry: dict[str, Any]) -> tuple[Any, ...]:
    return (entry["game"], entry["players"], tuple(entry["seats"]), entry["rounds"], entry["par"])


def read_table(path: str | Path = TABLE) -> list[dict[str, Any]]:
    """The entries of a ladder table (none when it does not exist yet)."""
    path = Path(path)
    if not path.exists():
        return []
    entries: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["runs"]
    return entries


def _order(entry: dict[str, Any]) -> tuple[Any, ...]:
    return (
        entry["game"],
        entry["players"],
        entry["seats"],
        entry["rounds"] or 0,
        entry["par"] or "",
    )


def table_json(runs: list[dict[str, Any]]) -> str:
    """The text of a ladder table file holding ``runs`` (in the order given)."""
    data = {
        "about": "Arena runs, one per logged comparison (engine/bots/arena.py); "
        "the set-up screen shows their figures.",
        "runs": runs,
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def write_table(runs: Iterable[dict[str, Any]], path: str | Path = TABLE) -> list[dict[str, Any]]:
    """Write the ladder table of ``runs`` to ``path``, in a fixed order (game, table size,
    line-up, rounds, par), and return them in that order."""
    ordered = sorted(runs, key=_order)
    Path(path).write_text(table_json(ordered), encoding="utf-8")
    return ordered


def record(
    entries: list[dict[str, Any]],
    path: str | Path = TABLE,
    drop: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Put ``entries`` into the table at ``path``: each replaces the entry of the same game,
    table size, line-up, rounds and par (a longer or newer run of the same comparison).
    The entries of ``drop`` are taken out first (runs of bots that have changed since)."""
    table = {_key(e): e for e in read_table(path)}
    for entry in drop or ():
        table.pop(_key(entry), None)
    for entry in entries:
        table[_key(entry)] = entry
    return write_table(table.values(), path)


def table_from_logs(logs: Iterable[str | Path]) -> list[dict[str, Any]]:
    """The ladder table that ``logs`` give: every run of today's bots in them, in the table's
    order. Two logs of the same comparison (game, table size, line-up, rounds, par) are an
    error: one of them belongs in ``benchmarks/arena/tried/``."""
    table: dict[tuple[Any, ...], dict[str, Any]] = {}
    for log in logs:
        for entry in entries_from_log(log):
            if not describes_todays_bots(entry):
                continue
            key = _key(entry)
            if key in table:
                raise ValueError(f"{entry['log']} and {table[key]['log']} log the same comparison")
            table[key] = entry
    return sorted(table.values(), key=_order)


Z95 = 1.96
"""The normal quantile of a two-sided 95% interval (the margin over par's mean ± 1.96 errors)."""


def _interval(over_par: dict[str, Any] | None) -> list[float] | None:
    if over_par is None:
        return None
    spread = Z95 * over_par["error"]
    return [round(over_par["mean"] - spread, 4), round(over_par["mean"] + spread, 4)]


def verdict(win_rate_ci: list[float], fair_share: float, over_par: dict[str, Any] | None) -> str:
    """What a run says of its first level against the others: ``"stronger"``, ``"weaker"`` or
    ``"alike"`` (the run cannot tell them apart). With a margin over par (``over_par``, given
    only when the par is the level met) the margin's 95% interval decides, wholly above or
    below zero: the duplicate comparison takes the luck of the deal out, so it is the test the
    run was made for (two levels that choose the same moves get a margin of exactly zero, however
    their win rate falls). Without one, the match win rate's 95% interval against the fair share.

    >>> verdict([0.55, 0.70], 0.5, None), verdict([0.45, 0.70], 0.5, None)
    ('stronger', 'alike')
    >>> verdict([0.45, 0.70], 0.5, {"mean": 0.81, "error": 0.40, "seats": 100})
    'stronger'
    >>> verdict([0.55, 0.70], 0.5, {"mean": 0.0, "error": 0.0, "seats": 20})
    'alike'
    >>> verdict([0.1, 0.3], 0.5, None)
    'weaker'
    """
    par_ci = _interval(over_par)
    low, high = (
        par_ci if par_ci is not None else (win_rate_ci[0] - fair_share, win_rate_ci[1] - fair_share)
    )
    return "stronger" if low > 0 else "weaker" if high < 0 else "alike"


def figures(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the page shows: per entry, the first seat's level against the others, with its
    win rate, interval, matches, rounds a match (None: whole matches), margin over par,
    ``par_is_met`` and ``verdict`` (see :func:`verdict`; the margin over par counts there,
    and the page shows it, only when the par level is the one the first level met, as
    Hard's over Normal's par against Normal: ``par_is_met``), and ``superseded``: whether a
    run of the same line-up, no shorter, with the level met as its par speaks for it instead
    (the page and the ladder's steps then leave this one out; the table of every run keeps
    it)."""
    out = []
    for entry in entries:
        level = entry["seats"][0]
        against = [s for s in dict.fromkeys(entry["seats"]) if s != level]
        row = entry["levels"][level]
        fair = round(1.0 / entry["players"], 4)
        # A margin over par speaks of the levels met only when the par is the level met: over
        # another par it measures the deals' luck among other opponents (a plain search
        # against two others scored -1.37 +- 0.39 a round over Normal's par at Roundup 3).
        par_is_met = against == [entry["par"]]
        out.append(
            {
                "game": entry["game"],
                "players": entry["players"],
                "level": level,
                "against": against,
                "matches": entry["matches"],
                "rounds": entry["rounds"],
                "win_rate": row["win_rate"],
                "ci": row["ci"],
                "fair_share": fair,
                "over_par": row["over_par"],
                # The margin over par's 95% interval, as the verdict reads it.
                "over_par_ci": _interval(row["over_par"]),
                "par": entry["par"],
                "par_is_met": par_is_met,
                "verdict": verdict(row["ci"], fair, row["over_par"] if par_is_met else None),
            }
        )
    # A run with a par other than the level met gives way to a run of the same line-up, of
    # as many matches or more, whose par is the level met: that one's margin speaks of the
    # level met, the other's of the deals' luck. (A run with no par keeps its place: it
    # claims no margin; so does a longer run, for its win rate.)
    measured: dict[tuple[Any, ...], int] = {}
    for f in out:
        if f["par_is_met"]:
            key = _lineup(f)
            measured[key] = max(measured.get(key, 0), f["matches"])
    for f in out:
        f["superseded"] = (
            bool(f["par"]) and not f["par_is_met"] and measured.get(_lineup(f), 0) >= f["matches"]
        )
    return out


def _lineup(f: dict[str, Any]) -> tuple[Any, ...]:
    return (f["game"], f["players"], f["level"], tuple(f["against"]), f["rounds"])


STEPS = tuple(zip(bots.LEVELS[1:], bots.LEVELS, strict=False))
"""The ladder's steps: each offered level against the one below it."""


def _pm(over_par: dict[str, Any] | None) -> str:
    return "" if over_par is None else f"{over_par['mean']:+.2f} ± {over_par['error']:.2f}"


def _ms(ms: float) -> str:
    return f"{ms:,.0f}" if ms >= 10 else f"{ms:.1f}"


MARKDOWN_PARTS = ("steps", "plain", "runs")
"""The tables of :func:`markdown`: the ladder's steps, the goal against the plain search,
and every run."""


def markdown(entries: list[dict[str, Any]], parts: Sequence[str] = MARKDOWN_PARTS) -> str:
    """The ladder table as Markdown (``python -m engine ladder --markdown``), the ``parts``
    asked for, in this order: the steps of the ladder at every game and table size
    (``steps``), the goal against the plain search (``plain``) and every run (``runs``).
    ``docs/bots.md`` shows the first two, ``benchmarks/arena/INDEX.md`` the third."""
    unknown = set(parts) - set(MARKDOWN_PARTS)
    if unknown:
        raise ValueError(f"no such part of the ladder's Markdown: {', '.join(sorted(unknown))}")
    shown = figures(entries)
    titles = {game_id: spec.title for game_id, spec in engine.GAMES.items()}
    words = {"stronger": "stronger", "weaker": "**weaker**", "alike": "not told apart"}

    def step_cells(game_id: str, players: int) -> list[str]:
        return [
            "; ".join(
                f"{words[f['verdict']]} ({f['matches']}{' rounds' if f['rounds'] == 1 else ''})"
                for _, f in _runs_at(entries, shown, game_id, players, level)
                if below in f["against"]
            )
            or "not measured"
            for level, below in STEPS
        ]

    tables: list[list[str]] = []
    if "steps" in parts:
        tables.append(
            _by_size(
                "| game | players | " + " | ".join(f"{a} > {b}" for a, b in STEPS) + " |",
                step_cells,
            )
        )
    if "plain" in parts:
        tables.append(_plain_lines(entries, shown, words))
    if "runs" in parts:
        lines = [
            "| game | players | line-up | matches | first seat's wins | 95% interval | x fair "
            "| over par | verdict | its decision, mean ms | log |",
            "|---|--:|---|--:|--:|---|--:|---|---|--:|---|",
        ]
        for entry, f in zip(entries, shown, strict=True):
            row = entry["levels"][f["level"]]
            par = f"{_pm(row['over_par'])} ({entry['par']})" if row["over_par"] else ""
            lines.append(
                f"| {titles.get(entry['game'], entry['game'])} | {entry['players']} "
                f"| {lineup_text(entry)} | {entry['matches']} | {row['win_rate']:.3f} "
                f"| [{row['ci'][0]:.3f}, {row['ci'][1]:.3f}] | {row['x_fair']:.2f} | {par} "
                f"| {f['verdict']}{' (superseded)' if f['superseded'] else ''} "
                f"| {_ms(row['decision_ms'])} | {Path(entry['log']).stem} |"
            )
        tables.append(lines)
    return "\n\n".join("\n".join(lines) for lines in tables) + "\n"


def lineup_text(entry: dict[str, Any]) -> str:
    """A run's levels, in seat order, and its rounds a match: ``hard, normal (1 round each)``."""
    text = ", ".join(dict.fromkeys(entry["seats"]))
    if entry["rounds"]:
        text += f" ({entry['rounds']} round{'s' if entry['rounds'] > 1 else ''} each)"
    return text


def _runs_at(
    entries: list[dict[str, Any]], shown: list[dict[str, Any]], game: str, players: int, level: str
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The runs (entry, its figures) whose first level is ``level`` at this game and size,
    but those another run superseded (see :func:`figures`)."""
    return [
        (entry, f)
        for entry, f in zip(entries, shown, strict=True)
        if (f["game"], f["players"], f["level"]) == (game, players, level) and not f["superseded"]
    ]


def _by_size(header: str, cells: Callable[[str, int], list[str]]) -> list[str]:
    """A Markdown table with a row of ``cells(game, players)`` for every game and table size."""
    lines = [header, "|---|--:|" + "---|" * (header.count("|") - 3)]
    for game_id, spec in engine.GAMES.items():
        for players in range(spec.min_players, spec.max_players + 1):
            lines.append(
                f"| {spec.title} | {players} | " + " | ".join(cells(game_id, players)) + " |"
            )
    return lines


def _plain_lines(
    entries: list[dict[str, Any]], shown: list[dict[str, Any]], words: dict[str, str]
) -> list[str]:
    """The goal against the arena's plain search, at every game and table size: Hard beats
    it at no more time a decision; Expert wins at least 60% against ``plain-1000``."""

    def cell(game_id: str, players: int, level: str) -> str:
        found = []
        for entry, f in _runs_at(entries, shown, game_id, players, level):
            plain = [a for a in f["against"] if bots.plain_iterations(a) is not None]
            if len(plain) != 1 or (level == "expert" and plain[0] != "plain-1000"):
                continue
            opponent = plain[0]
            ours, theirs = entry["levels"][level], entry["levels"][opponent]
            rounds = " rounds" if f["rounds"] == 1 else ""
            cost = ours["decision_ms"] / theirs["decision_ms"]
            # With the plain search's own par, the margin over it decided (see verdict).
            duplicate = (
                f", {_pm(f['over_par'])} over its par" if f["par_is_met"] and f["over_par"] else ""
            )
            found.append(
                f"{words[f['verdict']]}: wins {f['win_rate']:.3f} of {f['matches']}{rounds}"
                f" against {opponent}{duplicate}, at {cost:.1f}x its time a decision"
            )
        return "; ".join(found) or "not measured"

    return _by_size(
        "| game | players | hard against a plain search | expert against plain-1000 (goal: 60%) |",
        lambda game_id, players: [cell(game_id, players, level) for level in ("hard", "expert")],
    )


def describes_todays_bots(entry: dict[str, Any]) -> bool:
    """Do the bots' settings a logged run recorded still describe today's bots, at its game
    and table size? (A bot changed since must be measured again before the page shows a
    figure for it.)"""
    game, players = entry["game"], entry["players"]
    today = {level: bots.make(level).settings(game, players) for level in entry["bots"]}
    return covers(entry["bots"], json.loads(json.dumps(today)))


def covers(recorded: Any, current: Any) -> bool:
    """Do the settings a log recorded still describe the bots of today? Every recorded value
    must be today's; a setting added since (absent from the record) is not held against it."""
    if isinstance(recorded, dict) and isinstance(current, dict):
        return all(k in current and covers(v, current[k]) for k, v in recorded.items())
    return bool(recorded == current)

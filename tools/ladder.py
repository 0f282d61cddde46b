"""The ladder table: what the arena measured, one entry per logged run, for the page to show.

Every entry is made from an arena log (``entries_from_log``), never typed in: the matches of
one log with one set of settings, summarised as the arena prints them. It keeps the command
that plays (or, with the log, reads back) the run, its matches, each level's match win rate
with its 95% interval, its share over the fair one, its margin over par when the run had one,
its decision time, and the bots' settings the log recorded. The table lives in
``benchmarks/ladder.json`` (:data:`TABLE`); ``python tools/ladder.py LOG...`` records logged
runs there and ``python tools/ladder.py --markdown`` prints it. The build ships the figures
with the page's catalog (tools/build/catalog.py), so the set-up screen shows only figures a
logged run gave. The engine's arena (:mod:`engine.bots.arena`) plays and logs the runs; it
knows nothing of this repository's files.

>>> [round(x, 3) for x in arena.wilson(60, 100)]
[0.502, 0.691]
>>> log_stem("benchmarks/arena/crisps-2p-hard-normal-seed1.jsonl.gz")
'crisps-2p-hard-normal-seed1'
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import bots  # noqa: E402
from engine.bots import arena  # noqa: E402

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
    for line in arena.log_lines(log):
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
        summary = arena.summarize([outcomes[m] for m in sorted(outcomes)], settings["players"])
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
        "about": "Arena runs, one per logged comparison (tools/ladder.py); "
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
    """The ladder table as Markdown (``python tools/ladder.py --markdown``), the ``parts``
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
                f"| {_ms(row['decision_ms'])} | {log_stem(entry['log'])} |"
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


def log_stem(log: str | Path) -> str:
    """A log's name without its folder and its ``.jsonl`` (or ``.jsonl.gz``)."""
    name = Path(log).name
    for suffix in (".gz", ".jsonl"):
        name = name.removesuffix(suffix)
    return name


# ----- the command line ------------------------------------------------------------------


def record_log(log: str, table: str | Path, out: TextIO) -> None:
    """Record the runs of ``log`` in the ladder ``table``, those of today's bots only, and
    take out of the table the runs whose bots have changed since they were recorded (a
    level must be measured again before the page shows a figure for it)."""
    entries = []
    for entry in entries_from_log(log):
        if describes_todays_bots(entry):
            entries.append(entry)
            out.write(f"ladder: {entry['command']}\n")
        else:
            out.write(f"ladder: not recorded, its bots have changed since: {entry['command']}\n")
    stale = [e for e in read_table(table) if not describes_todays_bots(e)]
    for entry in stale:
        out.write(f"ladder: taken out, its bots have changed since: {entry['command']}\n")
    record(entries, table, drop=stale)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="python tools/ladder.py", description="record logged arena runs in the ladder table"
    )
    top.add_argument("logs", nargs="*", help="arena logs (JSON lines, or gzipped: .jsonl.gz)")
    top.add_argument("--table", default=str(TABLE), help="the ladder table to write")
    top.add_argument(
        "--markdown",
        action="store_true",
        help="print the table as Markdown: the ladder's steps and the goal against the plain "
        "search (docs/bots.md), then every run (benchmarks/arena/INDEX.md)",
    )
    return top


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    args = parser().parse_args(list(argv) if argv is not None else None)
    if not args.logs and not args.markdown:
        sys.stderr.write("ladder: give arena logs to record, or --markdown\n")
        return 2
    for log in args.logs:
        record_log(log, args.table, out)
    if args.markdown:
        out.write(markdown(read_table(args.table)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The ladder table (tools/ladder.py): made from arena logs alone, recorded and printed by
its command line, and its verdicts, as the set-up screen and docs/bots.md show them."""

from __future__ import annotations

import io
import json
import re

import engine
from engine.__main__ import main as engine_main
from engine.bots import arena
from engine.bots.arena import run_arena
from tools import ladder
from tools.ladder import entries_from_log, figures, main, read_table, record


def run(argv: list[str]) -> tuple[int, str]:
    """``tools/ladder.py`` with ``argv``, or the engine's command line for an ``arena``."""
    out = io.StringIO()
    code = (engine_main if argv[:1] == ["arena"] else main)(argv, out=out)
    return code, out.getvalue()


def test_a_compressed_log_gives_the_entries_of_the_plain_one(tmp_path):
    """A log kept gzipped (``.jsonl.gz``, as the repository keeps them) resumes and reads back
    as the same runs, its name in the entry's command."""
    plain, packed = tmp_path / "run.jsonl", tmp_path / "run.jsonl.gz"
    for log in (plain, packed):
        arena.run_arena("crisps", 2, ["normal", "random"], 2, seed=4, log=log)
    (a,), (b,) = entries_from_log(plain), entries_from_log(packed)
    assert a["command"].endswith(f"--log {plain.as_posix()}")
    assert b["command"] == a["command"].replace("run.jsonl", "run.jsonl.gz")

    def measured(entry):  # all but the names and the wall clock's decision times
        levels = {k: {**v, "decision_ms": None} for k, v in entry["levels"].items()}
        return {**entry, "command": "", "log": "", "levels": levels}

    assert measured(b) == measured(a)
    assert ladder.log_stem(packed) == ladder.log_stem(plain) == "run"


def test_a_logged_arena_run_is_recorded_in_the_ladder_table(tmp_path):
    """``tools/ladder.py LOG`` writes the run's entry (command, matches, rates, intervals)
    into the table, from the log; a log of bots that have changed since is not recorded."""
    log, table = tmp_path / "run.jsonl", tmp_path / "ladder.json"
    args = ["arena", "crisps", "--bots", "normal,random", "--matches", "3", "--seed", "2"]
    assert engine_main([*args, "--log", str(log)], out=io.StringIO()) == 0
    out = io.StringIO()
    assert main([str(log), "--table", str(table)], out=out) == 0
    (entry,) = read_table(table)
    assert entry == entries_from_log(log)[0] and f"ladder: {entry['command']}" in out.getvalue()
    assert entry["command"] == (
        f"python -m engine arena crisps --players 2 --bots normal,random --matches 3 --seed 2 "
        f"--log {log.as_posix()}"
    )
    played = run_arena("crisps", 2, ["normal", "random"], matches=3, seed=2)["levels"]["normal"]
    assert entry["levels"]["normal"]["win_rate"] == round(played["win_rate"], 4)
    assert entry["levels"]["normal"]["ci"] == [round(x, 4) for x in played["ci"]]
    (figure,) = figures([entry])
    assert (figure["level"], figure["against"], figure["matches"]) == ("normal", ["random"], 3)
    # The same log, its bots' settings changed since: not recorded again.
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    for line in lines:
        line["settings"]["bots"]["normal"]["mistake_rate"] = 0.5
    stale = tmp_path / "stale.jsonl"
    stale.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = io.StringIO()
    assert main([str(stale), "--table", str(table)], out=out) == 0
    assert "not recorded, its bots have changed since" in out.getvalue()
    assert read_table(table) == [entry]
    # A run in the table whose bots have changed since is taken out at the next recording.
    (changed,) = entries_from_log(stale)
    changed["seats"] = ["random", "normal"]
    record([changed], table)
    assert len(read_table(table)) == 2
    out = io.StringIO()
    assert main([str(log), "--table", str(table)], out=out) == 0
    assert f"taken out, its bots have changed since: {changed['command']}" in out.getvalue()
    assert read_table(table) == [entry]


def test_a_runs_verdict_counts_its_margin_over_par_only_against_the_par_level():
    """The set-up screen's "stronger / not told apart" comes from the run's margin over par
    when the par is the level met (the paired test), else from its win-rate interval against
    the fair share."""

    def entry(seats, par, ci, over_par):
        return {
            "game": "crisps",
            "players": 2,
            "seats": seats,
            "matches": 40,
            "rounds": 1,
            "par": par,
            "levels": {seats[0]: {"win_rate": sum(ci) / 2, "ci": ci, "over_par": over_par}},
        }

    clear = {"mean": 2.0, "error": 0.5, "seats": 40}
    level = {"mean": 0.3, "error": 0.5, "seats": 40}
    same_moves = {"mean": 0.0, "error": 0.0, "seats": 40}
    runs = [
        entry(["expert", "hard"], "hard", [0.40, 0.70], clear),  # par is the level met: it counts
        entry(["expert", "hard"], "hard", [0.40, 0.70], level),  # neither measure separates
        entry(["expert", "hard"], "hard", [0.55, 0.90], same_moves),  # a lucky win rate, no edge
        entry(["hard", "plain-200"], "normal", [0.40, 0.70], clear),  # over Normal, not over plain
        entry(["hard", "plain-200"], "normal", [0.52, 0.80], level),  # the win rate separates
        entry(
            ["hard", "normal"], "normal", [0.30, 0.55], {"mean": -2.0, "error": 0.5, "seats": 40}
        ),
    ]
    verdicts = [f["verdict"] for f in figures(runs)]
    assert verdicts == ["stronger", "alike", "alike", "alike", "stronger", "weaker"]


def test_ladder_prints_the_table_as_markdown_and_asks_for_something_to_do(tmp_path, capsys):
    """``--markdown`` prints every game and table size's steps, then every run; with
    neither logs nor ``--markdown`` it says what it wants instead of writing nothing."""
    table = tmp_path / "ladder.json"
    log = tmp_path / "run.jsonl"
    code, _ = run(
        [
            "arena",
            "crisps",
            "--bots",
            "normal,easy",
            "--matches",
            "4",
            "--seed",
            "2",
            "--par",
            "easy",
            "--log",
            str(log),
        ]
    )
    assert code == 0
    code, _ = run([str(log), "--table", str(table)])
    assert code == 0
    code, text = run(["--markdown", "--table", str(table)])
    assert code == 0
    lines = text.splitlines()
    assert (
        lines[0]
        == "| game | players | easy > random | normal > easy | hard > normal | expert > hard |"
    )
    sizes = sum(spec.max_players - spec.min_players + 1 for spec in engine.GAMES.values())
    crisps = next(line for line in lines[2 : 2 + sizes] if line.startswith("| Crisps | 2 |"))
    cells = crisps.strip("| ").split(" | ")
    assert cells[2] == "not measured" and cells[4:] == ["not measured", "not measured"]
    assert cells[3] in ("stronger (4)", "not told apart (4)", "**weaker** (4)")
    assert lines[2 + sizes] == "" and sum(line.endswith(f"| {log.stem} |") for line in lines) == 1
    code, text = run(["--table", str(table)])
    assert code != 0 and "give arena logs to record, or --markdown" in capsys.readouterr().err


def test_ladder_markdown_reports_the_goal_against_the_plain_search(tmp_path):
    """Between the steps and the runs, a table of the goal against the arena's plain search:
    each game and table size, Hard against any plain search and Expert against plain-1000,
    with the run's verdict, win rate and the time ratio a decision of the two searches."""
    log = tmp_path / "plain.jsonl"
    arena.run_arena(
        "crisps", 2, ["hard", "plain-30"], 2, seed=3, iterations=20, max_rounds=1, log=log
    )
    (entry,) = ladder.entries_from_log(log)
    lines = ladder.markdown([entry]).splitlines()
    start = lines.index(
        "| game | players | hard against a plain search | expert against plain-1000 (goal: 60%) |"
    )
    sizes = sum(spec.max_players - spec.min_players + 1 for spec in engine.GAMES.values())
    rows = lines[start + 2 : start + 2 + sizes]
    crisps = next(line for line in rows if line.startswith("| Crisps | 2 |"))
    levels = entry["levels"]
    ratio = levels["hard"]["decision_ms"] / levels["plain-30"]["decision_ms"]
    win = levels["hard"]["win_rate"]
    cell = crisps.strip("| ").split(" | ")[2]
    assert re.fullmatch(
        rf"(stronger|not told apart|\*\*weaker\*\*): wins {win:.3f} of 2 rounds against "
        rf"plain-30, at {ratio:.1f}x its time a decision",
        cell,
    ), cell
    assert crisps.endswith("| not measured |"), "Expert never met plain-1000 here"
    assert sum(row.endswith("| not measured | not measured |") for row in rows) == sizes - 1
    assert lines[start + 2 + sizes] == ""


def test_a_run_against_a_plain_search_with_its_par_is_judged_by_the_margin_over_it(tmp_path):
    """With the plain search as the par (every match also played with every seat plain), the
    goal's cell gives Hard's margin over that par, and the margin's interval, not the win
    rate's, decides the verdict: the luck of the deal and seat is the plain search's own."""
    log = tmp_path / "duplicate.jsonl"
    arena.run_arena(
        "crisps", 2, ["hard", "plain-30"], 4, seed=3, iterations=20, max_rounds=1,
        log=log, par="plain-30",
    )  # fmt: skip
    (entry,) = ladder.entries_from_log(log)
    (shown,) = ladder.figures([entry])
    over = entry["levels"]["hard"]["over_par"]
    assert shown["par"] == "plain-30" and shown["over_par"] == over and shown["par_is_met"]
    assert shown["verdict"] == ladder.verdict([0.0, 1.0], 0.5, over)  # the win rate plays no part
    lines = ladder.markdown([entry]).splitlines()
    crisps = next(
        line for line in lines if line.startswith("| Crisps | 2 |") and "plain-30" in line
    )
    cell = crisps.strip("| ").split(" | ")[2]
    margin = re.escape(f"{over['mean']:+.2f} ± {over['error']:.2f}")
    assert re.fullmatch(
        r"(stronger|not told apart|\*\*weaker\*\*): wins [0-9.]+ of 4 rounds against "
        rf"plain-30, {margin} over its par, at [0-9.]+x its time a decision",
        cell,
    ), cell
    # The same pairing and seeds with Normal's par: its margin reads the deals' luck, so the
    # goal's cell keeps the run with the plain search's par alone; the list of runs has both.
    other = tmp_path / "normal-par.jsonl"
    arena.run_arena(
        "crisps", 2, ["hard", "plain-30"], 4, seed=3, iterations=20, max_rounds=1,
        log=other, par="normal",
    )  # fmt: skip
    entries = [entry, *ladder.entries_from_log(other)]
    assert [f["superseded"] for f in ladder.figures(entries)] == [False, True]
    longer = {**entries[1], "matches": 8}  # a longer run keeps its place, for its win rate
    assert [f["superseded"] for f in ladder.figures([entry, longer])] == [False, False]
    both = ladder.markdown(entries).splitlines()
    goal = next(line for line in both if line.startswith("| Crisps | 2 |") and "plain-30" in line)
    assert goal == crisps
    assert sum("| hard, plain-30 (1 round each) |" in line for line in both) == 2

"""The command line: a scripted game on stdin, and the simulate, arena and bench reports."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine import bots
from engine.__main__ import main, render
from tests.scripts import benchmark

ROOT = Path(__file__).resolve().parent.parent
GAME = "crisps" if "crisps" in engine.GAMES else next(iter(engine.GAMES))


def run(argv: list[str], stdin_text: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin_text), out=out)
    return code, out.getvalue()


def test_play_to_the_end_answering_the_first_action_every_time():
    code, text = run(["play", GAME, "--seed", "1", "--level", "random"], "1\n" * 5000)
    assert code == 0
    assert "Match over. Scores:" in text
    assert "Your move (1-" in text and "You: " in text and "Seat 2: " in text


def test_play_ends_cleanly_on_end_of_input_and_on_q():
    code, text = run(["play", GAME, "--seed", "2"], "")
    assert code == 0 and "Match left unfinished." in text
    code, text = run(["play", GAME, "--seed", "2"], "q\n")
    assert code == 0 and "Match left unfinished." in text


def test_play_accepts_ids_and_explains_refusals():
    code, text = run(["play", GAME, "--seed", "3"], "no-such-move\n99999\n")
    assert "Not allowed:" in text
    listed = re.search(r"^\s+\d+\. .*\[([^\]]+)\]$", text, re.M)
    assert listed
    code, text = run(["play", GAME, "--seed", "3"], listed.group(1) + "\n")
    assert "You: " in text


def test_no_arguments_asks_for_the_game():
    code, text = run([], "nonsense\n1\n")
    assert code == 0
    assert "Choose a game:" in text and "Type a number" in text
    assert "Match left unfinished." in text


def test_every_game_can_be_chosen_and_shown():
    for game_id in engine.GAMES:
        code, text = run(["play", game_id, "--seed", "4", "--level", "random"], "1\n1\n1\n")
        assert code == 0 and "Your move" in text, game_id


def test_render_names_cards():
    assert render(["10H", "QS"]) == "10\u2665 Q\u2660"
    assert render({"a": [1, 2], "b": None}) == "{a: 1, 2, b: -}"


def test_simulate_prints_a_rate_per_bot():
    code, text = run(["simulate", GAME, "--matches", "3", "--bots", "greedy,random", "--seed", "1"])
    assert code == 0
    assert text.startswith(f"simulate {GAME}: 3 matches")
    rates = re.findall(r"^\s*(\w+): win rate (\d\.\d{3}) over (\d+) seats", text, re.M)
    assert [r[0] for r in rates] == ["normal", "random"]
    assert abs(sum(float(r[1]) * int(r[2]) for r in rates) - 3) < 0.01


def test_arena_prints_rates_intervals_and_speed():
    code, text = run(
        [
            "arena",
            GAME,
            "--players",
            "2",
            "--bots",
            "hard,random",
            "--matches",
            "2",
            "--seed",
            "3",
            "--jobs",
            "2",
            "--iterations",
            "8",
        ]
    )
    assert code == 0
    lines = text.splitlines()
    assert lines[0].startswith(f"arena {GAME}: 2 matches, 2 players, seed 3")
    assert lines[1].split() == [
        "level",
        "seats",
        "win",
        "rate",
        "95%",
        "CI",
        "x",
        "fair",
        "avg",
        "score",
        "ms/decision",
        "iter/s",
    ]
    row = re.compile(
        r"^\s*(\w+)\s+(\d+)\s+(\d\.\d{3})\s+\[(\d\.\d{3}), (\d\.\d{3})\]\s+"
        r"(\d+\.\d\d)\s+(-?\d+\.\d\d)\s+(\d+\.\d)\s+(\d+)$"
    )
    rows = {m.group(1): m for m in map(row.match, lines[2:]) if m}
    assert set(rows) == {"hard", "random"}
    assert int(rows["hard"].group(9)) > 0 and int(rows["random"].group(9)) == 0
    low, rate, high = (float(rows["hard"].group(i)) for i in (4, 3, 5))
    assert low <= rate <= high


def test_bad_arguments_are_reported_not_raised():
    code, _ = run(["simulate", "no-such-game", "--matches", "1"])
    assert code == 2
    code, _ = run(["arena", GAME, "--bots", "grandmaster", "--matches", "1"])
    assert code == 2


def test_bench_and_the_module_entry_point():
    code, text = run(["bench", GAME, "--seconds", "0.05"])
    assert code == 0 and re.match(rf"\s*{GAME}:\s+\d+ steps/s", text)
    done = subprocess.run(
        [sys.executable, "-m", "engine", "play", GAME, "--seed", "5"],
        input="1\n1\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Match left unfinished." in done.stdout


@pytest.mark.slow
def test_bots_benchmark_times_every_table_level_and_review_move():
    """engine_bench.bots_part: Hard and Expert at every player count of a game, each position's
    time and iterations, and the review's time per reviewed move."""
    engine_bench = benchmark("web/engine_bench.py")
    out = engine_bench.bots_part(2, ["crisps"], review_moves=2, iterations=8)
    assert list(out["decisions"]) == ["crisps 2p"]
    row = out["decisions"]["crisps 2p"]
    assert row["hard"]["iterations"] == [8, 8] and row["expert"]["iterations"] == [24, 24]
    assert all(t > 0 for level in row.values() for t in level["seconds"])
    assert out["review"]["game"] == "crisps" and len(out["review"]["seconds"]) == 2


def test_page_engine_benchmark_measures_fresh_and_settled_rates():
    """benchmarks/web/engine_bench.py (the code the benchmark runs in CPython and in the
    page): both measurements of every game asked for, and the bots' figures on request."""
    engine_bench = benchmark("web/engine_bench.py")
    out = engine_bench.run(0.05, 0, ["crisps", "spite"], warmup=0.1)
    assert list(out["steps"]) == ["crisps", "spite"] and out["bots"] == {}
    for row in out["steps"].values():
        assert row["fresh"] > 0 and row["settled"] > 0 and row["rate"] == row["settled"]
        assert row["matches"] >= 1
    bots_only = engine_bench.run(0, 1, ["spite"], warmup=0)
    assert bots_only["steps"] == {}
    assert set(bots_only["bots"]) == {"random", "easy", "normal", "hard", "expert"}
    assert all(list(times) == ["spite"] for times in bots_only["bots"].values())
    assert list(bots_only["search"]) == ["spite"] and len(bots_only["search"]["spite"]) == 1
    # A table size whose bots search otherwise is timed as a table of its own, at that size.
    assert engine_bench.tables(["roundup"]) == {
        "roundup": ("roundup", 4),
        "roundup 2p": ("roundup", 2),
    }
    assert [s.players for s in engine_bench.positions("roundup", 2, 2)] == [2, 2]


def test_waits_benchmark_names_the_computer_seats_and_sums_a_wait_per_seat(capsys):
    """benchmarks/waits.py: the seats that made a saved match's moves, and a table's row of
    waits: their median and p95, and per computer seat that moved and per move."""
    waits = benchmark("waits.py")
    state = engine.new_game("spite", players=2, seed=waits.SEED)
    moves, seats = [], []
    for _ in range(12):
        seats.append(state.current_player)
        moves.append(state.legal_actions()[-1].id)
        state.apply(moves[-1])
    assert waits.actors("spite", 2, moves) == seats and set(seats) == {0, 1}
    got = {
        "waits": [
            {"wait": 3.0, "moves": 6, "seats": 3},
            {"wait": 1.0, "moves": 2, "seats": 1},
            {"wait": 2.0, "moves": 4, "seats": 2},
        ],
        "load": [1.0, 1.5],
    }
    waits.print_row("roundup", "instant", got)
    assert capsys.readouterr().out.split() == [
        *("roundup", "4", "instant", "3", "2.00", "3.00", "3.00", "1.00", "1.00", "0.50"),
        *("4", "1.0-1.5"),
    ]


def test_search_cost_times_every_level_on_the_same_positions():
    """benchmarks/search_cost.py: each level decides at every position of Normal's round that
    has a choice, so the levels' times are over the same positions, and it prints them."""
    script = ROOT / "benchmarks" / "search_cost.py"
    done = subprocess.run(
        [sys.executable, str(script), "crisps", "--levels", "random,plain-5", "--rounds", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    state = engine.new_game("crisps", players=2, seed=1)
    normal, rng, choices = bots.make("normal"), random.Random(1), 0
    while not state.result()["rounds"]:
        choices += len(state.legal_actions()) > 1
        state.apply(normal.choose(state, state.current_player, rng))
    lines = done.stdout.splitlines()
    assert lines[0] == f"crisps, 2 players: {choices} decisions of 1 round"
    assert re.fullmatch(r" +random +\d+ +\d+ +\d+\.\d\d", lines[2])
    assert re.fullmatch(r" +plain-5 +\d+ +\d+ +1\.00", lines[3])
    # --every 3: the first position with a choice, the fourth, the seventh, ...
    done = subprocess.run(
        [sys.executable, str(script), "crisps", "--levels", "random,plain-5", "--rounds", "1"]
        + ["--every", "3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    expected = (choices + 2) // 3
    sampled = "one position with a choice in 3"
    assert first == f"crisps, 2 players: {expected} decisions of 1 round, {sampled}"


def test_versus_times_two_checkouts_on_the_same_positions_and_compares_their_roots():
    """benchmarks/versus.py: each checkout's worker imports its own engine (here both are this
    checkout), both reach the same positions by Normal's play, and a search from the same rng
    chooses the same action with the same root, so the run says so and exits 0."""
    script = ROOT / "benchmarks" / "versus.py"
    done = subprocess.run(
        [sys.executable, str(script), "crisps", "--base", str(ROOT), "--players", "2"]
        + ["--decisions", "3", "--level", "plain-5", "--seed", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("crisps, 2 players, seed 2: 3 positions, level plain-5")
    assert lines[1] == f"  base {ROOT / 'engine'}"
    rows = [line for line in lines if re.match(r" +\d+ +\d+ +\d+ ", line)]
    assert len(rows) == 3
    assert all(re.search(r"same +same [0-9a-f]{12}$", row) for row in rows)
    assert lines[-1].startswith("choices and root digests: all the same")
    # The digest is of the root's figures: one visit more is another digest.
    import importlib.util

    spec = importlib.util.spec_from_file_location("versus", script)
    assert spec is not None and spec.loader is not None
    versus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(versus)
    root = {"visits": {"a": 3, "b": 2}, "values": {"a": "0.5", "b": "0.25"}}
    assert versus.digest(root) == versus.digest(dict(reversed(root.items())))
    assert versus.digest(root) != versus.digest({**root, "visits": {"a": 3, "b": 3}})


@pytest.mark.slow
def test_progression_screens_report_the_margin_over_par_and_the_last_round(tmp_path):
    """benchmarks/progression_screens.py, run as a person runs it (its variants change the
    search for its own process only): a one-round screen of a measurement variant logs one
    line per round, and the last-round screen reports both arms."""
    import json

    script = ROOT / "benchmarks" / "progression_screens.py"
    log = tmp_path / "screen.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            str(script),
            "hands-known",
            "--matches",
            "2",
            "--jobs",
            "1",
            "--iterations",
            "20",
            "--log",
            str(log),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert re.match(
        r"hands-known: seed 500, 2 rounds, 20 iterations: round wins [01]\.\d{3}, "
        r"margin over par [+-]\d+\.\d\d ± \d+\.\d\d points a round",
        done.stdout,
    )
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["match"] for r in sorted(rows, key=lambda r: r["match"])] == [0, 1]
    assert all(r["settings"]["max_rounds"] == 1 and "par_scores" in r["outcome"] for r in rows)
    done = subprocess.run(
        [
            sys.executable,
            str(script),
            "current",
            "--last-round",
            "--matches",
            "2",
            "--jobs",
            "1",
            "--iterations",
            "20",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert re.match(
        r"last round, 2 matches: Normal won [01]\.\d{3}, Hard [01]\.\d{3} "
        r"\(paired [+-]\d\.\d{3} ± \d\.\d{3}\)",
        done.stdout,
    )


def test_variant_screen_logs_the_variant_and_pairs_it_with_a_logged_run(tmp_path):
    """benchmarks/variant_screen.py, run as a person runs it: the variant's settings go into
    the log (so it never resumes as another run), and a screen paired with itself on the
    same seeds differs by exactly zero, while the figures it prints are the log's."""
    import json

    script = ROOT / "benchmarks" / "variant_screen.py"
    log = tmp_path / "variant.jsonl"
    command = [sys.executable, str(script), "crisps", "--bots", "hard,normal", "--matches", "2"]
    command += ["--iterations", "6", "--jobs", "1", "--search", "greedy_trust=None"]
    command += ["--evaluator", "rank_weight=1.0", "--epsilon", "0.2", "--log", str(log)]
    done = subprocess.run(
        command + ["--against", str(log)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert sorted(row["match"] for row in rows) == [0, 1]
    hard = rows[0]["settings"]["bots"]["hard"]
    assert hard["search"]["greedy_trust"] is None
    assert hard["search"]["rollout_policy"] == "eps_greedy"
    assert hard["search"]["evaluator"]["rank_weight"] == 1.0
    assert rows[0]["settings"]["par"] == "normal" and rows[0]["settings"]["max_rounds"] == 1
    first, second = done.stdout.splitlines()
    assert re.fullmatch(
        r"hard: 2 rounds, round wins \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\], margin over par "
        r"[+-]\d+\.\d\d ± \d+\.\d\d points a round",
        first,
    )
    assert second == f"paired with {log}: +0.00 ± 0.00 over 2 rounds"
    bad = subprocess.run(
        [sys.executable, str(script), "crisps", "--search", "greedy_trust"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert bad.returncode != 0 and "expected KEY=VALUE" in bad.stderr
    mixed = tmp_path / "mix.jsonl"
    command = [sys.executable, str(script), "roundup", "--players", "2", "--matches", "1"]
    command += ["--iterations", "4", "--jobs", "1", "--rollout-mix", "spoiler"]
    done = subprocess.run(
        command + ["--log", str(mixed)], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr
    row = json.loads(mixed.read_text(encoding="utf-8").splitlines()[0])
    assert row["settings"]["bots"]["hard"]["search"]["rollout_mix"] == ["spoiler"]
    unknown = subprocess.run(
        command[:2] + ["roundup", "--rollout-mix", "nosuch"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert unknown.returncode != 0
    assert "engine.games.roundup.bot has no policy 'nosuch'" in unknown.stderr
    budget = tmp_path / "budget.jsonl"
    command = [sys.executable, str(script), "roundup", "--players", "2", "--matches", "1"]
    command += ["--bots", "expert,plain-3", "--hard-iterations", "2", "--jobs", "1"]
    command += ["--par", "plain-3", "--log", str(budget)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    settings = json.loads(budget.read_text(encoding="utf-8").splitlines()[0])["settings"]
    bots = settings["bots"]
    assert (bots["expert"]["iterations"], bots["plain-3"]["iterations"]) == (6, 3)
    assert settings["par"] == "plain-3"
    # A log of another par does not pair with this screen's margins.
    done = subprocess.run(
        command[:-2] + ["--against", str(log)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode != 0
    assert f"{log} was played with normal's par, this screen with plain-3's" in done.stderr


def test_a_clairvoyant_screen_searches_the_true_state_for_its_first_level_alone(tmp_path):
    """``variant_screen.py --clairvoyant``, a measurement: the first level's sampled worlds are
    the true state (every face-down hand as dealt), its log says so, and the other levels and
    the par keep sampling worlds as every bot does."""
    import json

    script = ROOT / "benchmarks" / "variant_screen.py"
    screen = benchmark("variant_screen.py")
    state = engine.new_game("roundup", 4, 5)
    seat = state.current_player
    rng = random.Random(1)
    truth = [state.view(p)["face_down"] for p in range(4)]
    opened = screen._Open(state).determinize(seat, rng)
    assert [opened.view(p)["face_down"] for p in range(4)] == truth
    sampled = [state.determinize(seat, rng) for _ in range(3)]
    others = [p for p in range(4) if p != seat]
    assert any(
        [w.view(p)["face_down"] for p in others] != [truth[p] for p in others] for w in sampled
    )
    log = tmp_path / "open.jsonl"
    command = [sys.executable, str(script), "roundup", "--players", "3", "--matches", "1"]
    command += ["--bots", "hard,plain-4", "--iterations", "4", "--par", "plain-4"]
    command += ["--jobs", "1", "--clairvoyant", "--log", str(log)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    levels = json.loads(log.read_text(encoding="utf-8").splitlines()[0])["settings"]["bots"]
    assert levels["hard"]["clairvoyant"] is True and "clairvoyant" not in levels["plain-4"]
    refused = subprocess.run(
        command[:-3] + ["--bots", "hard,normal", "--par", "hard", "--clairvoyant"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert refused.returncode != 0 and "a par other than the first level" in refused.stderr

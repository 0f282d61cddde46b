"""The command line: play in a terminal, simulate, arena, bench.

``python -m engine`` (no arguments) plays a match against bots, asking which game;
``python -m engine play crisps --players 2 --level normal --seed 1`` sets it up with flags.
The human seat's view is printed as text, the legal actions are numbered, and a number or
an action id (or ``q``) is read from stdin; end of input ends the match quietly.

``python -m engine simulate crisps --matches 20 --bots greedy,random`` prints win rates;
``python -m engine arena crisps --players 2 --bots hard,normal --matches 100 --seed 1
--jobs 2`` adds 95% intervals, average scores, decision times and search speed; with
``--par normal`` it also plays each match with Normal at every seat and prints each level's
score margin over Normal's in the same seat of the same deal (``--rounds 1``: one round each);
with ``--log FILE`` it keeps each match in that log (``.jsonl``, or ``.jsonl.gz`` compressed)
and resumes a stopped run from it (see :mod:`engine.bots.arena`);
``python -m engine bench`` prints engine steps per second for random matches;
``python -m engine soak --minutes 30`` plays seeded random and greedy matches of every game,
player count and option set with the invariant checks on, and prints matches, steps and
failures (each with the seed that reproduces it).

>>> main(["simulate", "crisps", "--matches", "2", "--bots", "normal,random"])  # doctest: +ELLIPSIS
simulate crisps: 2 matches, 2 players, seed 0
...
0
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

import engine
from engine import bots
from engine.bots.arena import run_arena
from engine.cards import card_name, is_card

LINE = 100
HIDDEN_KEYS = {
    "game",
    "players",
    "viewer",
    "player",
    "you",
    "options",
    "is_over",
    "current_player",
    "hand",
    "rounds",
    "round_history",
    "winners",
    "played",
}


# ----- text rendering of a view --------------------------------------------------------


def _is_card_id(value: Any) -> bool:
    return isinstance(value, str) and (is_card(value) or value.startswith("JK"))


def render(value: Any) -> str:
    """A view value as compact text; card ids become names (``"10H"`` -> ``10♥``)."""
    if _is_card_id(value):
        return card_name(value)
    if isinstance(value, list):
        if not value:
            return "-"
        if all(_is_card_id(v) for v in value):
            return " ".join(card_name(v) for v in value)
        if all(isinstance(v, (int, float, str)) for v in value):
            return ", ".join(render(v) for v in value)
        return "[" + "; ".join(render(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {render(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "-"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def _clip(text: str) -> str:
    return text if len(text) <= LINE else text[: LINE - 3] + "..."


def render_view(view: dict[str, Any], seat: int) -> list[str]:
    lines = []
    hand = view.get("hand")
    if hand:
        lines.append(f"Your hand (seat {seat + 1}): {render(hand)}")
    for key, value in view.items():
        if key in HIDDEN_KEYS or value in (None, [], {}):
            continue
        lines.append(_clip(f"  {key.replace('_', ' ')}: {render(value)}"))
    return lines


# ----- play ----------------------------------------------------------------------------


def _ask(prompt: str, stdin: TextIO, out: TextIO) -> str | None:
    out.write(prompt)
    out.flush()
    line = stdin.readline()
    if not line:
        out.write("\n")
        return None
    return line.strip()


def _pick_game(stdin: TextIO, out: TextIO) -> str | None:
    ids = list(engine.GAMES)
    for i, game_id in enumerate(ids, 1):
        spec = engine.GAMES[game_id]
        out.write(
            f"{i:2}. {spec.title} ({game_id}, {spec.min_players}-{spec.max_players} players)\n"
        )
    while True:
        answer = _ask("Choose a game: ", stdin, out)
        if answer is None:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(ids):
            return ids[int(answer) - 1]
        if answer in engine.GAMES:
            return answer
        out.write("Type a number from the list or a game id.\n")


def play(
    game: str | None,
    players: int | None,
    level: str,
    seed: int | None,
    seat: int,
    stdin: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
) -> int:
    if game is None:
        game = _pick_game(stdin, out)
        if game is None:
            return 0
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    state = engine.new_game(game, players=players, seed=seed)
    if not 0 <= seat < state.players:
        raise engine.InvalidOptions(f"--seat must be from 1 to {state.players}")
    bot = bots.make(level)
    bot_rng = random.Random(seed ^ 0x5EED)
    spec = engine.GAMES[game]
    out.write(
        f"{spec.title}: {state.players} players, seed {seed}; you are seat {seat + 1}, "
        f"the others are {bot.level} bots.\n"
    )
    shown_rounds = 0
    while not state.is_over:
        rounds = state.result()["rounds"]
        if len(rounds) > shown_rounds:
            shown_rounds = len(rounds)
            out.write(f"== Round {shown_rounds} is over: {render(rounds[-1])}\n")
        current = state.current_player
        assert current is not None
        if current != seat:
            action = bot.choose(state, current, bot_rng)
            state.apply(action)
            out.write(f"Seat {current + 1}: {state.public_label(action, seat)}\n")
            continue
        out.write("\n" + "\n".join(render_view(state.view(seat), seat)) + "\n")
        legal = state.legal_actions()
        for i, action in enumerate(legal, 1):
            out.write(f"  {i:3}. {action.label}  [{action.id}]\n")
        while True:
            answer = _ask(f"Your move (1-{len(legal)}, an id, or q): ", stdin, out)
            if answer is None or answer.lower() in ("q", "quit"):
                out.write("Match left unfinished.\n")
                return 0
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                choice: Any = legal[int(answer) - 1]
            else:
                choice = answer
            try:
                taken = state.apply(choice)
            except engine.IllegalAction as exc:
                out.write(f"Not allowed: {exc.message}\n")
                continue
            out.write(f"You: {taken.label}\n")
            break
    result = state.result()
    out.write(
        f"Match over. Scores: {render(result['scores'])}; winners: "
        f"{', '.join(f'seat {w + 1}' for w in result['winners'])}"
        f"{' (you!)' if seat in result['winners'] else ''}\n"
    )
    return 0


# ----- simulate and arena --------------------------------------------------------------


def _levels(text: str) -> list[str]:
    levels = [bots.ALIASES.get(t.strip(), t.strip()) for t in text.split(",") if t.strip()]
    for level in levels:
        if not bots.is_level(level):
            raise engine.InvalidOptions(
                f"unknown bot level {level!r}; known: {', '.join(bots.LEVELS)}, "
                f"and {bots.PLAIN}-N (a plain ISMCTS of N iterations, the arena's reference)"
            )
    return levels


def _players(game: str, players: int | None) -> int:
    if game not in engine.GAMES:
        raise engine.InvalidOptions(f"unknown game {game!r}; known: {', '.join(engine.GAMES)}")
    return players if players is not None else engine.GAMES[game].default_players


def simulate(args: argparse.Namespace, out: TextIO) -> int:
    players = _players(args.game, args.players)
    levels = _levels(args.bots)
    summary = run_arena(
        args.game,
        players,
        levels,
        args.matches,
        args.seed,
        jobs=args.jobs,
        iterations=args.iterations,
        time_ms=args.time_ms,
    )
    out.write(
        f"simulate {args.game}: {args.matches} matches, {players} players, seed {args.seed}\n"
    )
    for level, row in summary["levels"].items():
        out.write(
            f"{level:>8}: win rate {row['win_rate']:.3f} over {row['seats']} seats "
            f"(fair share {row['fair_share']:.3f})\n"
        )
    return 0


def arena(args: argparse.Namespace, out: TextIO) -> int:
    players = _players(args.game, args.players)
    levels = _levels(args.bots)
    start = time.perf_counter()
    par = None
    if args.par is not None:
        named = _levels(args.par)
        if len(named) != 1:
            raise engine.InvalidOptions(f"--par takes one bot level, not {args.par!r}")
        par = named[0]
    summary = run_arena(
        args.game,
        players,
        levels,
        args.matches,
        args.seed,
        jobs=args.jobs,
        iterations=args.iterations,
        time_ms=args.time_ms,
        log=args.log,
        max_rounds=args.rounds,
        par=par,
    )
    elapsed = time.perf_counter() - start
    out.write(
        f"arena {args.game}: {args.matches} matches, {players} players, seed "
        f"{args.seed}, seats {','.join(levels)} (rotated), {args.jobs} jobs, "
        f"{elapsed:.1f} s\n"
    )
    out.write(
        f"{'level':>8} {'seats':>6} {'win rate':>9} {'95% CI':>15} {'x fair':>7} "
        f"{'avg score':>10} {'ms/decision':>12} {'iter/s':>8}\n"
    )
    for level, row in summary["levels"].items():
        low, high = row["ci"]
        out.write(
            f"{level:>8} {row['seats']:>6} {row['win_rate']:>9.3f} "
            f"{f'[{low:.3f}, {high:.3f}]':>15} {row['win_rate'] / row['fair_share']:>7.2f} "
            f"{row['avg_score']:>10.2f} {row['avg_decision_ms']:>12.1f} "
            f"{row['iterations_per_s']:>8.0f}\n"
        )
    if par is not None:
        out.write(
            f"margin over par (score minus the others' mean, less {par}'s in the same "
            f"seat of the same deal):\n"
        )
        for level, row in summary["levels"].items():
            mean, error, n = row["over_par"]
            out.write(f"{level:>8} {mean:+.2f} \u00b1 {error:.2f} over {n} seats\n")
    return 0


def bench(args: argparse.Namespace, out: TextIO) -> int:
    games = [args.game] if args.game else list(engine.GAMES)
    for game in games:
        players = _players(game, args.players)
        rng = random.Random(args.seed)
        steps = matches = 0
        start = time.perf_counter()
        while time.perf_counter() - start < args.seconds or matches == 0:
            state = engine.new_game(game, players=players, seed=args.seed + matches)
            while not state.is_over:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                steps += 1
            matches += 1
        elapsed = time.perf_counter() - start
        out.write(
            f"{game:>12}: {steps / elapsed:9.0f} steps/s  ({matches} random matches, "
            f"{steps / matches:.0f} steps each, {players} players)\n"
        )
    return 0


def soak_cases() -> list[tuple[str, int, dict[str, Any]]]:
    """Every game, player count and option set the invariant suite knows."""
    return [
        (game, players, options)
        for game, spec in engine.GAMES.items()
        for players in spec.player_counts()
        for options in spec.option_sets()
    ]


def soak(args: argparse.Namespace, out: TextIO) -> int:
    """Seeded random and greedy matches with every invariant check on, for a while."""
    from engine.checks import play_checked_match

    cases = soak_cases()
    deadline = time.perf_counter() + args.minutes * 60
    matches = steps = failures = 0
    seed = args.seed
    out.write(
        f"soak: {len(cases)} game set-ups, random and greedy seats, {args.minutes:g} minutes\n"
    )
    while time.perf_counter() < deadline or matches == 0:
        game, players, options = cases[matches % len(cases)]
        policy = "greedy" if (matches // len(cases)) % 2 else "random"
        try:
            state = play_checked_match(game, players, options, seed, policy=policy)
            steps += len(state.history)
        except Exception as exc:  # every failure is reported with what reproduces it
            failures += 1
            out.write(
                f"FAIL {game} players={players} options={options} seed={seed} "
                f"policy={policy}: {exc.__class__.__name__}: {str(exc)[:300]}\n"
            )
        matches += 1
        seed += 1
        if matches % 50 == 0:
            out.write(f"  ... {matches} matches, {steps} steps, {failures} failures\n")
            out.flush()
    out.write(f"soak done: {matches} matches, {steps} steps, {failures} failures\n")
    return 1 if failures else 0


# ----- argument parsing ----------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m engine", description=__doc__.split("\n")[0])
    sub = top.add_subparsers(dest="command")
    p = sub.add_parser("play", help="play a match in the terminal against bots")
    p.add_argument("game", nargs="?", help="game id (asked for when left out)")
    p.add_argument("--players", type=int)
    p.add_argument("--level", default="normal", help="bot level: " + ", ".join(bots.LEVELS))
    p.add_argument("--seed", type=int)
    p.add_argument("--seat", type=int, default=1, help="your seat, 1-based")
    for name, text in (
        ("simulate", "bots against bots: win rates"),
        ("arena", "bots against bots: rates with confidence, speed"),
    ):
        a = sub.add_parser(name, help=text)
        a.add_argument("game")
        a.add_argument("--players", type=int)
        a.add_argument(
            "--bots",
            default="normal,random",
            help="levels by seat, comma separated; the last fills the table (plain-N: the "
            "arena's reference, a plain ISMCTS of N iterations)",
        )
        a.add_argument("--matches", type=int, default=100 if name == "simulate" else 50)
        a.add_argument("--seed", type=int, default=0)
        a.add_argument("--jobs", type=int, default=1)
        a.add_argument("--iterations", type=int, help="search iterations for hard/expert")
        a.add_argument("--time-ms", type=float, help="search time for hard/expert")
        if name == "arena":
            a.add_argument(
                "--log",
                help="keep each finished match in this JSON-lines file (.jsonl, or .jsonl.gz "
                "compressed) and skip the matches already in it (resume a stopped run)",
            )
            a.add_argument(
                "--par",
                help="also play every match with all seats at this "
                "level and report each level's score margin over it",
            )
            a.add_argument(
                "--rounds",
                type=int,
                help="stop each match after this many rounds (quick comparisons)",
            )
    b = sub.add_parser("bench", help="engine steps per second, random matches")
    b.add_argument("game", nargs="?")
    b.add_argument("--players", type=int)
    b.add_argument("--seconds", type=float, default=1.0)
    b.add_argument("--seed", type=int, default=0)
    k = sub.add_parser("soak", help="seeded matches of every game with invariant checks on")
    k.add_argument("--minutes", type=float, default=1.0)
    k.add_argument("--seed", type=int, default=0)
    return top


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, out: TextIO | None = None
) -> int:
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    args = parser().parse_args(list(argv) if argv is not None else None)
    try:
        if args.command in (None, "play"):
            if args.command is None:
                return play(None, None, "normal", None, 0, stdin, out)
            return play(args.game, args.players, args.level, args.seed, args.seat - 1, stdin, out)
        if args.command == "simulate":
            return simulate(args, out)
        if args.command == "arena":
            return arena(args, out)
        if args.command == "soak":
            return soak(args, out)
        return bench(args, out)
    except (engine.InvalidOptions, ValueError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        out.write("\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())

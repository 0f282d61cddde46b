"""The CPU time a decision of two or more bot levels, on the same positions, interleaved.

    .venv/bin/python benchmarks/search_cost.py GAME [--players N] [--levels hard,plain-1000]
        [--rounds 3] [--seed 1] [--every 1]

Normal plays ``--rounds`` whole rounds of ``GAME`` at every seat (seeds ``seed``,
``seed + 1``, ...); at every decision with more than one legal move, each level in
``--levels`` chooses for the seat to move, in turn, from a fresh rng, and its CPU time
(``time.process_time``) is counted; ``--every K`` times only every K-th such position (the
first, the K+1-th, ...), for a game whose round is long and whose searches are slow (Spite
and Malice's round is the whole game, some 250 moves), so the positions still span the
round. Levels take turns going first, so the machine's load and
the caches fall on them alike. Prints each level's mean and median ms a decision and its
ratio to the last level's (the reference: the arena's plain search, say). The arena's own
decision times are wall clock under whatever else runs; this is the figure to compare costs
by. Prints figures only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import bots  # noqa: E402


def measure(
    game: str, players: int, levels: list[str], rounds: int, seed: int, every: int = 1
) -> dict[str, list[float]]:
    """CPU seconds of each level's decisions, position by position (every ``every``-th
    position with a choice)."""
    made = {level: bots.make(level, safety_clock=False) for level in levels}
    normal = bots.make("normal")
    spent: dict[str, list[float]] = {level: [] for level in levels}
    turn = 0
    choices = 0
    for r in range(rounds):
        state = engine.new_game(game, players=players, seed=seed + r)
        rng = random.Random(seed + r)
        while not state.is_over and not state.result()["rounds"]:
            seat = state.current_player
            assert seat is not None
            has_choice = len(state.legal_actions()) > 1
            if has_choice and choices % every == 0:
                order = levels[turn % len(levels) :] + levels[: turn % len(levels)]
                turn += 1
                for level in order:
                    start = time.process_time()
                    made[level].choose(state, seat, random.Random(turn))
                    spent[level].append(time.process_time() - start)
            choices += has_choice
            state.apply(normal.choose(state, seat, rng))
    return spent


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("game", choices=sorted(engine.GAMES))
    p.add_argument("--players", type=int)
    p.add_argument("--levels", default="hard,plain-1000")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--every", type=int, default=1, help="time every K-th position only")
    args = p.parse_args()
    players = args.players or engine.GAMES[args.game].default_players
    levels = args.levels.split(",")
    spent = measure(args.game, players, levels, args.rounds, args.seed, max(1, args.every))
    reference = statistics.mean(spent[levels[-1]])
    decisions = len(spent[levels[0]])
    rounds = f"{args.rounds} round{'s' if args.rounds != 1 else ''}"
    sampled = f", one position with a choice in {args.every}" if args.every > 1 else ""
    print(f"{args.game}, {players} players: {decisions} decisions of {rounds}{sampled}")
    print(f"{'level':>12}  {'mean ms':>9}  {'median ms':>9}  {'/ ' + levels[-1]:>14}")
    for level in levels:
        mean = statistics.mean(spent[level])
        print(
            f"{level:>12}  {mean * 1000:9.0f}  {statistics.median(spent[level]) * 1000:9.0f}"
            f"  {mean / reference:14.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

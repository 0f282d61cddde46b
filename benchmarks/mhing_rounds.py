"""How rounds of 2-player General Mhing end under the greedy policy (Normal) against itself.

Prints the counts kept as ``engine.bots.evaluation.MHING_ROUND_WINS``: for the seat that
began the round and for the other seat, how many rounds it won with 0, 1, 2, ... points.
Rounds whose points were shared are counted apart and left out of the table.

    .venv/bin/python benchmarks/mhing_rounds.py [--matches 4000] [--seed 71000]

(4,000 matches take about 90 s of CPython.)
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.bots import make  # noqa: E402


def round_wins(matches: int, seed: int) -> tuple[dict[str, list[int]], int, int]:
    """(counts by "starter"/"other" and points, rounds, shared rounds) over ``matches``."""
    counts: dict[str, list[int]] = {"starter": [], "other": []}
    rounds = shared = 0
    bot = make("normal")
    for m in range(matches):
        state = engine.new_game("mhing", players=2, seed=seed + m)
        rng = random.Random(seed + m)
        while not state.is_over:
            state.apply(bot.choose(state, state.current_player, rng))
        for r in state.result()["rounds"]:
            rounds += 1
            if len(r["winners"]) != 1:
                shared += 1
                continue
            winner = r["winners"][0]
            row = counts["starter" if winner == r["starter"] else "other"]
            points = r["awarded"][winner]
            row.extend([0] * (points + 1 - len(row)))
            row[points] += 1
    width = max(len(row) for row in counts.values())
    for row in counts.values():
        row.extend([0] * (width - len(row)))
    return counts, rounds, shared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=71000)
    args = parser.parse_args()
    counts, rounds, shared = round_wins(args.matches, args.seed)
    print(f"{rounds} rounds of {args.matches} matches, {shared} shared (left out)")
    for key, row in counts.items():
        print(f'    "{key}": {tuple(row)},')


if __name__ == "__main__":
    main()

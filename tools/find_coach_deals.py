"""Find deals for the coached rounds: seeds whose first round, played by following the coach
(the computer seats playing the ``normal`` bot), says every step of the game's coach and so
covers its whole checklist. Shorter rounds are listed first.

    python3 tools/find_coach_deals.py mhing --seeds 500 --players 2

The seed chosen goes into ``deals`` of engine/games/<game>/coach.json by hand.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine import coach  # noqa: E402


def search(game: str, seeds: range, players: int, best: int) -> list[tuple[int, int, int]]:
    """``(moves, person's turns, seed)`` of the deals that say every step, shortest first."""
    steps = {step["id"] for step in coach.load(game).steps}
    found = []
    for seed in seeds:
        run = coach.follow(game, {"seed": seed, "players": players, "options": {}})
        if steps <= set(run["said"]):
            found.append((run["moves"], run["turns"], seed))
    return sorted(found)[:best]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=list(engine.GAMES))
    parser.add_argument("--seeds", type=int, default=300, help="how many seeds to try from 0")
    parser.add_argument("--players", type=int, help="default: the coach file's first deal's")
    parser.add_argument("--best", type=int, default=5, help="how many deals to list")
    args = parser.parse_args(argv)
    players = args.players or coach.load(args.game).deals[0]["players"]
    found = search(args.game, range(args.seeds), players, args.best)
    if not found:
        print(f"no seed below {args.seeds} brings up every step of the {args.game} coach")
        return 1
    for moves, turns, seed in found:
        print(f"seed {seed}: {moves} moves, {turns} of them the person's")
    return 0


if __name__ == "__main__":
    sys.exit(main())

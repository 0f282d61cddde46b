"""Find deals for the coached rounds: seeds whose first round, played by following the coach
(the computer seats playing the ``normal`` bot), says every step of the game's coach and so
covers its whole checklist. Shorter rounds are listed first.

    python3 tools/find_coach_deals.py mhing --seeds 500 --players 2

With ``--lesson NAME`` it finds positions for a short lesson instead (``LESSONS``): seeded
matches are played (every seat by ``policy``) until the person's seat is to move in a
position where the lesson's rule is about to apply, and the deal is printed with the moves
that reach it, the shortest first:

    python3 tools/find_coach_deals.py spite --lesson stall --seeds 200

The deal chosen goes into ``deals`` of engine/games/<game>/coach.json by hand, with its
``title`` and ``until``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine import bots, coach  # noqa: E402


@dataclass(frozen=True)
class Lesson:
    """Where a lesson starts: the first position, in round 1, where ``ready(state, view)``
    holds with the person to move, in matches whose seats all play ``policy``."""

    policy: str
    ready: Callable[[engine.State, dict], bool]


def _only_end(state: engine.State) -> bool:
    return [a.id for a in state.legal_actions()] == ["end"]


LESSONS: dict[tuple[str, str], Lesson] = {
    # The other seat's turn was frozen and the person can neither build nor discard: ending
    # the turn freezes it too, and the game is drawn. Random play reaches such tables.
    ("spite", "stall"): Lesson(
        "random",
        lambda state, view: (
            view["stall_turns"] >= 1 and not view["played_this_turn"] and _only_end(state)
        ),
    ),
    # The draw pile is empty as the person must draw (no discard to take): it is rebuilt
    # from the discards.
    ("mhing", "empty-pile"): Lesson(
        "normal",
        lambda state, view: (
            view["draw_pile_count"] == 0 and [a.kind for a in state.legal_actions()] == ["draw"]
        ),
    ),
}


def find_lesson(game: str, name: str, seeds: range, players: int, best: int) -> list[dict]:
    """Deals ``{seed, players, options, moves}`` starting where lesson ``name`` applies."""
    lesson = LESSONS[(game, name)]
    bot = bots.make(lesson.policy)
    found: list[tuple[int, dict]] = []
    for seed in seeds:
        state = engine.new_game(game, players, seed)
        rng = random.Random(seed)
        while not state.is_over and not coach.rounds_done(state):
            seat = state.current_player
            assert seat is not None
            if seat == coach.PERSON and lesson.ready(state, state.view(seat)):
                moves = [a.id for a in state.history]
                deal = {"seed": seed, "players": players, "options": {}, "moves": moves}
                found.append((len(moves), deal))
                break
            state.apply(bot.choose(state, seat, rng))
    return [deal for _, deal in sorted(found, key=lambda pair: pair[0])[:best]]


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
    lessons = sorted({name for game, name in LESSONS})
    parser.add_argument("--lesson", choices=lessons, help="find a lesson's position instead")
    args = parser.parse_args(argv)
    players = args.players or coach.load(args.game).deals[0]["players"]
    if args.lesson:
        if (args.game, args.lesson) not in LESSONS:
            parser.error(f"{args.game} has no lesson {args.lesson!r}")
        deals = find_lesson(args.game, args.lesson, range(args.seeds), players, args.best)
        for deal in deals:
            print(json.dumps(deal))
        if not deals:
            print(f"no seed below {args.seeds} reaches the {args.lesson} lesson")
        return 0 if deals else 1
    found = search(args.game, range(args.seeds), players, args.best)
    if not found:
        print(f"no seed below {args.seeds} brings up every step of the {args.game} coach")
        return 1
    for moves, turns, seed in found:
        print(f"seed {seed}: {moves} moves, {turns} of them the person's")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""One-round screens of Progression's Hard against Normal, with variants of the search.

    .venv/bin/python benchmarks/progression_screens.py VARIANT --seed 500 --matches 60 \
        [--iterations 1800] [--jobs 2] [--log FILE]

Each match is one round (the arena's ``--rounds 1``) with ``--par normal``: the figure to
read is Hard's margin over par, its round margin less Normal's in the same seat of the same
deal. Compare variants on the same seeds (the screens docs/bots.md cites used 500 and 600, 60 rounds
each). The variants change the search for this process only; two of them are measurements,
not bots: ``clairvoyant`` searches the true state (every hand and the draw pile's order),
and ``hands-known`` sees every hand but shuffles the draw pile in each sampled world. They
bound what knowing more could be worth, and are never offered to a player.

``--last-round`` screens the end of a match instead: Normal plays the first five rounds at
every seat (seed 7000 + m), then seat m % 3 plays the sixth as the variant's Hard and, from
the same position, as Normal; it prints how often each won the match, and the paired
difference. ``--log`` keeps a JSON line per match.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import bots  # noqa: E402
from engine.bots.arena import mean_error, run_arena  # noqa: E402
from engine.games.progression.state import ProgressionState  # noqa: E402


def _bot_settings(**changes: Any) -> None:
    """Play Progression with these bot settings changed (the registry's spec is replaced)."""
    spec = engine.GAMES["progression"]
    engine.GAMES["progression"] = dataclasses.replace(
        spec, bot=dataclasses.replace(spec.bot, **changes)
    )


def _config(**changes: Any) -> Callable[[], None]:
    def apply() -> None:
        search = engine.GAMES["progression"].bot.search
        assert search is not None
        _bot_settings(search=dataclasses.replace(search, **changes))

    return apply


def _greedy_draws() -> None:
    """Hard searches its plays only and draws as Normal does."""
    search_choose = bots.ISMCTSBot.choose

    def choose(self: bots.ISMCTSBot, state: Any, player: int, rng: random.Random) -> Any:
        if state.phase == "draw":
            self.last = {"iterations": 0, "seconds": 0.0}
            return bots.GreedyBot().choose(state, player, rng)
        return search_choose(self, state, player, rng)

    bots.ISMCTSBot.choose = choose  # type: ignore[method-assign]


def _clairvoyant() -> None:
    def determinize(self: ProgressionState, player: int, rng: random.Random) -> Any:
        return self._copy(random.Random(rng.getrandbits(64)))

    ProgressionState.determinize = determinize  # type: ignore[method-assign]


def _hands_known() -> None:
    def determinize(self: ProgressionState, player: int, rng: random.Random) -> Any:
        world = self._copy(random.Random(rng.getrandbits(64)))
        rng.shuffle(world.draw_pile)
        return world

    ProgressionState.determinize = determinize  # type: ignore[method-assign]


VARIANTS: dict[str, Callable[[], None]] = {
    "current": lambda: None,
    "exploration-0.25": _config(exploration=0.25),
    "exploration-0.1": _config(exploration=0.1),
    "trust-0": _config(greedy_trust=0.0),
    "trust-2": _config(greedy_trust=2.0),
    "greedy-draws": _greedy_draws,
    "clairvoyant": _clairvoyant,
    "hands-known": _hands_known,
}


def _finish(state: Any, seat: int, searching: bool, seed: int, iterations: int) -> float:
    """Play ``state`` out, ``seat`` by Hard when ``searching``; ``seat``'s share of the win."""
    normal = bots.make("normal")
    hard = bots.make("hard", iterations=iterations)
    rngs = [random.Random(seed * 31 + p) for p in range(state.players)]
    while not state.is_over:
        p = state.current_player
        state.apply((hard if searching and p == seat else normal).choose(state, p, rngs[p]))
    winners = state.result()["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def _last_round_job(args: tuple[int, int]) -> dict[str, Any]:
    m, iterations = args
    state = engine.new_game("progression", players=3, seed=7000 + m)
    normal, rng = bots.make("normal"), random.Random(m)
    while state.round_number < 6:
        state.apply(normal.choose(state, state.current_player, rng))
    seat = m % 3
    return {
        "m": m,
        "seat": seat,
        "totals": list(state.totals),
        "par": _finish(state.clone(), seat, False, m, iterations),
        "hard": _finish(state.clone(), seat, True, m, iterations),
    }


def last_round(matches: int, iterations: int, jobs: int, log: str | None) -> None:
    work = [(m, iterations) for m in range(matches)]
    with multiprocessing.Pool(jobs) as pool:
        rows = list(pool.imap_unordered(_last_round_job, work))
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            for row in sorted(rows, key=lambda r: r["m"]):
                handle.write(json.dumps(row) + "\n")
    mean, error = mean_error([r["hard"] - r["par"] for r in rows])
    par = sum(r["par"] for r in rows) / len(rows)
    hard = sum(r["hard"] for r in rows) / len(rows)
    print(
        f"last round, {len(rows)} matches: Normal won {par:.3f}, Hard {hard:.3f} "
        f"(paired {mean:+.3f} ± {error:.3f})"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("variant", choices=sorted(VARIANTS))
    p.add_argument("--seed", type=int, default=500)
    p.add_argument("--matches", type=int, default=60)
    hard = engine.GAMES["progression"].bot.hard_iterations
    p.add_argument("--iterations", type=int, default=hard)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--log", help="JSON-lines log (a stopped screen goes on where it stopped)")
    p.add_argument("--last-round", action="store_true", help="screen the sixth round instead")
    args = p.parse_args()
    VARIANTS[args.variant]()  # before the pool forks, so every job plays the variant
    _bot_settings(hard_iterations=args.iterations)
    if args.last_round:
        last_round(args.matches, args.iterations, args.jobs, args.log)
        return 0
    summary = run_arena(
        "progression",
        3,
        ["hard", "normal"],
        args.matches,
        args.seed,
        jobs=args.jobs,
        max_rounds=1,
        par="normal",
        log=args.log,
    )
    hard = summary["levels"]["hard"]
    mean, error, n = hard["over_par"]
    print(
        f"{args.variant}: seed {args.seed}, {n} rounds, {args.iterations} iterations: "
        f"round wins {hard['win_rate']:.3f}, margin over par {mean:+.2f} ± {error:.2f} "
        f"points a round, {hard['avg_decision_ms']:.0f} ms a decision"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

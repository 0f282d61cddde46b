"""One-round screens of a search variant: the arena, with a game's bot settings changed for
this process only.

    .venv/bin/python benchmarks/variant_screen.py GAME --players N --bots hard,plain-200 \
        --matches 30 [--search KEY=VALUE ...] [--evaluator KEY=VALUE ...] [--epsilon P] \
        [--rollout-mix NAME,...] [--hard-iterations N] [--iterations N] [--clairvoyant] \
        [--seed 1] [--jobs 2] [--log FILE] [--against LOG]

Each match is one round (the arena's ``--rounds 1``) with ``--par normal`` (or ``--par LEVEL``:
a plain search of the line-up, say, to compare with its margin over itself), match ``m`` on
seed ``seed + m``, as the arena plays it; so a screen on the seeds of a logged run pairs
with it deal by deal. ``--search`` changes fields of the game's ``SearchConfig`` (values are
Python literals: ``greedy_trust=None``, ``rollout='random'``), ``--evaluator`` fields of its
``Evaluator`` (``rank_weight=1.0``), ``--epsilon P`` has the rollouts play a uniformly
random legal move with chance ``P`` and the game's greedy one otherwise, ``--rollout-mix``
names policies of the game's bot module (``engine.games.GAME.bot``) for the search's
``rollout_mix`` (each rollout, each opponent seat plays one of them or the greedy one).
``--hard-iterations N`` sets the game's Hard budget (Expert searches ``EXPERT_FACTOR`` times
it), where ``--iterations`` sets every search's, the plain reference's included.
``--clairvoyant`` is a measurement, never a bot: the first level's searches sample no
worlds but search the true state (every hidden hand, and a draw pile in its true order;
only chance still to come, such as a reshuffle, is drawn afresh), while every other seat and
the par play as they always do. It bounds what knowing the hidden cards could be worth to
that search.
Every change is recorded in the log's settings (the rollout policy as ``eps_greedy``, the
mix by its policies' names), so a log of a variant never resumes as another. The logs in
``benchmarks/arena/tried/`` named after a variant were made this way (``docs/bots.md`` says
what each was for, ``benchmarks/arena/INDEX.md`` gives its figures and settings).

Prints the first level's round wins and its margin over the par; with ``--against LOG``
(a log of the same seeds), also the paired difference of the two margins over par, the
variant's minus the log's, over the rounds both have. Figures only: nothing is adopted.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import bots  # noqa: E402
from engine.bots.arena import log_lines, mean_error, run_arena, seat_over_par  # noqa: E402
from engine.bots.evaluation import Evaluator  # noqa: E402
from engine.bots.ismcts import SearchConfig  # noqa: E402
from engine.core import Action  # noqa: E402
from tools.ladder import entries_from_log  # noqa: E402


def assignments(pairs: list[str]) -> dict[str, Any]:
    """``["greedy_trust=None", "rollout='random'"]`` as a dict of Python literals."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SystemExit(f"expected KEY=VALUE, got {pair!r}")
        try:
            out[key.strip()] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            raise SystemExit(f"{pair!r}: the value is not a Python literal") from None
    return out


def policies(game: str, names: str) -> tuple[Any, ...]:
    """The functions named ``"a,b"`` in ``game``'s bot module."""
    module = importlib.import_module(f"engine.games.{game}.bot")
    out = []
    for name in filter(None, names.split(",")):
        policy = getattr(module, name, None)
        if not callable(policy):
            raise SystemExit(f"{module.__name__} has no policy {name!r}")
        out.append(policy)
    return tuple(out)


def apply_variant(
    game: str,
    players: int,
    search: dict[str, Any],
    evaluator: dict[str, Any],
    epsilon: float,
    mix: tuple[Any, ...] = (),
    hard_iterations: int | None = None,
) -> None:
    """Replace ``game``'s bot settings in the registry (before the arena's pool forks): those
    of a table of ``players``, changed, at every size."""
    spec = engine.GAMES[game]
    bot = dataclasses.replace(spec.bot.at(players), sizes={})
    config = bot.search or SearchConfig()
    if search:
        config = dataclasses.replace(config, **search)
        if {"rollout", "rollout_policy", "greedy_steps"} & set(search):
            # A game's own rollout loop plays the rollout it was written for: a changed one
            # is the generic loop's.
            config = dataclasses.replace(config, rollout_loop=None)
    if mix:
        config = dataclasses.replace(config, rollout_mix=mix)
    if epsilon:
        greedy = bot.greedy

        def eps_greedy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
            if len(legal) > 1 and rng.random() < epsilon:
                return rng.choice(legal)
            return greedy(view, legal, rng)

        eps_greedy.__qualname__ = "eps_greedy"  # the name the log records
        config = dataclasses.replace(config, rollout_policy=eps_greedy)
    changes: dict[str, Any] = {"search": config}
    if evaluator:
        changes["evaluator"] = dataclasses.replace(bot.evaluator or Evaluator(), **evaluator)
    if hard_iterations:
        changes["hard_iterations"] = hard_iterations
    engine.GAMES[game] = dataclasses.replace(spec, bot=dataclasses.replace(bot, **changes))


class _Open:
    """A state whose every sampled world is the state itself (a copy; chance still to come
    drawn afresh)."""

    def __init__(self, state: Any) -> None:
        self._state = state

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)

    def determinize(self, player: int, rng: random.Random) -> Any:
        return self._state._copy(random.Random(rng.getrandbits(64)))


def clairvoyant(level: str) -> None:
    """Let ``level``'s searches see the true state (see the module text); its settings in
    the log say so, so that such a log never resumes as an honest run."""
    think, settings = bots.ISMCTSBot.think, bots.ISMCTSBot.settings

    def open_think(self: bots.ISMCTSBot, state: Any, player: int, rng: random.Random) -> Any:
        return think(self, _Open(state) if self.level == level else state, player, rng)

    def open_settings(self: bots.ISMCTSBot, game_id: str, players: int) -> dict[str, Any]:
        out = settings(self, game_id, players)
        return {**out, "clairvoyant": True} if self.level == level else out

    bots.ISMCTSBot.think = open_think  # type: ignore[method-assign]
    bots.ISMCTSBot.settings = open_settings  # type: ignore[method-assign]


def over_par(log: str | Path, level: str) -> dict[int, float]:
    """Per round of ``log``: ``level``'s margin less the par's in the same seat."""
    out: dict[int, float] = {}
    for line in log_lines(log):
        if not line.strip():
            continue
        item = json.loads(line)
        outcome = item["outcome"]
        diffs = [
            d for d, s in zip(seat_over_par(outcome), outcome["seats"], strict=True) if s == level
        ]
        out.setdefault(item["match"], sum(diffs) / len(diffs))
    return out


def paired(variant: dict[int, float], other: dict[int, float]) -> tuple[float, float, int]:
    """Mean and standard error of ``variant - other`` over the rounds both have."""
    both = sorted(set(variant) & set(other))
    if not both:
        return 0.0, 0.0, 0
    return (*mean_error([variant[m] - other[m] for m in both]), len(both))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=sorted(engine.GAMES))
    p.add_argument("--players", type=int)
    p.add_argument("--bots", default="hard,normal")
    p.add_argument("--matches", type=int, default=30)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--search", nargs="*", default=[], metavar="KEY=VALUE")
    p.add_argument("--evaluator", nargs="*", default=[], metavar="KEY=VALUE")
    p.add_argument("--epsilon", type=float, default=0.0)
    p.add_argument("--rollout-mix", default="", metavar="NAME,...")
    p.add_argument("--hard-iterations", type=int, help="Hard's budget (Expert's is a multiple)")
    p.add_argument("--iterations", type=int, help="every search's budget (quick checks)")
    p.add_argument("--par", default="normal", help="the par's level (normal)")
    p.add_argument(
        "--clairvoyant", action="store_true", help="the first level searches the true state"
    )
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--log", help="JSON-lines log (a stopped screen goes on where it stopped)")
    p.add_argument("--against", help="a log of the same seeds to pair the margins with")
    args = p.parse_args(argv)
    players = args.players or engine.GAMES[args.game].default_players
    levels = args.bots.split(",")
    # The log to pair with (none yet when a screen is paired with its own log).
    if args.against and Path(args.against).exists():
        others = {entry["par"] for entry in entries_from_log(args.against)} - {args.par}
        if others:
            par = min(others)
            raise SystemExit(
                f"{args.against} was played with {par}'s par, this screen with {args.par}'s: "
                f"their margins do not pair (give --par {par})"
            )
    apply_variant(
        args.game,
        players,
        assignments(args.search),
        assignments(args.evaluator),
        args.epsilon,
        policies(args.game, args.rollout_mix),
        args.hard_iterations,
    )
    if args.clairvoyant:
        if args.par == levels[0]:
            raise SystemExit("--clairvoyant needs a par other than the first level")
        clairvoyant(levels[0])
    summary = run_arena(
        args.game,
        players,
        levels,
        args.matches,
        args.seed,
        jobs=args.jobs,
        iterations=args.iterations,
        max_rounds=1,
        par=args.par,
        log=args.log,
    )
    first = summary["levels"][levels[0]]
    mean, error, n = first["over_par"]
    print(
        f"{levels[0]}: {n} rounds, round wins {first['win_rate']:.3f} "
        f"[{first['ci'][0]:.3f}, {first['ci'][1]:.3f}], margin over par {mean:+.2f} ± "
        f"{error:.2f} points a round"
    )
    if args.against:
        if not args.log:
            raise SystemExit("--against needs --log (the rounds are paired by match number)")
        diff, err, both = paired(over_par(args.log, levels[0]), over_par(args.against, levels[0]))
        print(f"paired with {args.against}: {diff:+.2f} ± {err:.2f} over {both} rounds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

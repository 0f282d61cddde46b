"""What the Hard search sees from one seat: every legal move ranked, with its figures.

:func:`analyse` runs the very search the Hard level runs (the game's search settings and
evaluator, the game's Hard iteration budget unless told otherwise, the same use of the rng),
from ``state.determinize(player, rng)`` worlds only, so it reads nothing the seat cannot see.
With the same rng and budget its first move is the Hard bot's choice. Per root move it
counts, from the same rollouts that the search scores:

- ``worlds``: the simulated worlds (rollouts) that went through the move;
- ``value``: the search's own mean value in [0, 1] (what ranks the moves);
- ``win``: the seat's share of first place at the end of those rollouts, ties split (the
  deal's points, projected by the game's heuristic where a rollout stops early; the match's
  winners where it ends). A game whose evaluator is its own, not the generic formula of
  :mod:`engine.bots.evaluation`, values a position as the seat's chance of winning (Spite and
  Malice's does), so there ``win`` is that value;
- ``points``: the seat's points minus the mean of the other seats' over the same rollouts
  (positive: ahead; for a game where fewer points are better, the sign is turned so that
  ahead is still positive); ``None`` with an evaluator of the game's own.

``measure`` says which figure tells the moves apart for that game's evaluator: ``"win"``
when it values winning alone (rank weight 1, or an evaluator of its own), else ``"points"``.
:meth:`Analysis.reason` puts the first move and the next in one line from those figures.

The ranking: the search's choice first (the most visited move, or the game's usual move
when no other beats it clearly: see ``SearchConfig.greedy_trust``), then the others as the
search rates them (most visited first; by mean value for the flat paired search).

>>> import random, engine
>>> state = engine.new_game("crisps", players=2, seed=4)
>>> result = run(state, state.current_player, random.Random(1), iterations=40)
>>> result.moves[0].action.id == result.best.id, sum(m.worlds for m in result.moves)
(True, 40)
"""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import dataclass, field, replace
from typing import Any

from engine.bots.evaluation import Baseline, Evaluator
from engine.bots.ismcts import Search, SearchConfig, settings_of
from engine.core import Action, State


@dataclass
class _Tally:
    worlds: int = 0
    value: float = 0.0
    win: float = 0.0
    points: float = 0.0


@dataclass(frozen=True)
class _Recorder(Evaluator):
    """The game's evaluator, unchanged in what it returns, that also tallies each rollout's
    outcome under the root move it went through (the action at index ``root`` of the
    world's history)."""

    inner: Evaluator = field(default_factory=Evaluator)
    player: int = 0
    root: int = 0
    tallies: dict[str, _Tally] = field(default_factory=dict)

    @property
    def generic(self) -> bool:
        """True when the inner evaluator uses the generic formula (gains are meaningful)."""
        return type(self.inner).evaluate is Evaluator.evaluate

    def baseline(self, world: State) -> Baseline:
        return self.inner.baseline(world)

    def stop(self, world: State, baseline: Baseline) -> bool:
        return self.inner.stop(world, baseline)

    def evaluate(self, world: State, baseline: Baseline) -> list[float]:
        values = self.inner.evaluate(world, baseline)
        me = self.player
        tally = self.tallies.setdefault(world.history[self.root].id, _Tally())
        tally.worlds += 1
        tally.value += values[me]
        if not self.generic:
            tally.win += values[me]
            return values
        result = world.result()
        gains = self.inner.gains(world, baseline, result)
        if self.inner.lower_is_better:
            gains = [-g for g in gains]
        others = [g for seat, g in enumerate(gains) if seat != me]
        tally.points += gains[me] - sum(others) / len(others) if others else 0.0
        if world.is_over:
            winners = result["winners"]
            tally.win += 1.0 / len(winners) if me in winners else 0.0
        else:
            top = max(gains)
            tally.win += 1.0 / gains.count(top) if gains[me] == top else 0.0
        return values


@dataclass(frozen=True)
class Move:
    """One legal move's place and figures (``None`` where no world went through it)."""

    action: Action
    rank: int
    worlds: int
    value: float | None
    win: float | None
    points: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.action.id,
            "rank": self.rank,
            "worlds": self.worlds,
            "value": _round(self.value),
            "win": _round(self.win),
            "points": _round(self.points, 2),
        }


def _round(x: float | None, places: int = 4) -> float | None:
    return None if x is None else round(x, places)


@dataclass(frozen=True)
class Analysis:
    """The moves ranked (``moves[0]`` is ``best``), the figure that tells them apart
    (``measure``), the iterations run and the budget asked."""

    player: int
    moves: list[Move]
    measure: str
    iterations: int
    budget: int
    usual: str | None = None
    """The game's usual (greedy) move that the search keeps unless another is clearly
    better (``None`` when the search has none)."""
    estimated: bool = False
    """``win`` is the evaluator's estimate of the chance of winning, not counted wins."""

    @property
    def best(self) -> Action:
        return self.moves[0].action

    def rank_of(self, action_id: str) -> int | None:
        """The 1-based rank of a legal move's id (``None`` for any other id)."""
        return next((m.rank for m in self.moves if m.action.id == action_id), None)

    def figure(self, move: Move) -> str:
        """A move's figure in words (without its name)."""
        if self.measure == "win" and move.win is not None:
            if self.estimated:
                return f"an estimated {move.win:.0%} chance of winning"
            return f"wins {move.win:.0%} of simulated deals"
        if move.points is not None:
            ahead = "ahead of" if move.points >= 0 else "behind"
            return f"{abs(move.points):.1f} points {ahead} the others on average"
        return "not simulated"

    def reason(self, label: Any = None) -> str:
        """One line on why the first move leads, from the figures. ``label(action)``: a
        move's words (default: the action's label)."""
        name = label or (lambda action: action.label)
        first = self.moves[0]
        if len(self.moves) == 1:
            return f"{name(first.action)}: the only legal move."
        second = self.moves[1]
        worlds = sum(m.worlds for m in self.moves)
        head = f"{name(first.action)}: {self.figure(first)} ({first.worlds} of {worlds} worlds)"
        other = f"{name(second.action)}, {_short(self, second)}"
        key = "win" if self.measure == "win" else "points"
        a, b = getattr(first, key), getattr(second, key)
        if a is None or b is None or a >= b:
            return f"{head}; the next best play, {other}."
        if key == "points" and first.win is not None and second.win is not None:
            if first.win > second.win:
                return (
                    f"{head}; {other}, but wins the deal less often "
                    f"({second.win:.0%} against {first.win:.0%})."
                )
        if first.action.id == self.usual:
            return f"{head}; {other}, not clearly better on these worlds: the usual play stands."
        return f"{head}; {other}, too close to call on these worlds."


def _short(analysis: Analysis, move: Move) -> str:
    """A move's figure, short: "41%" or "+1.2 points"."""
    if analysis.measure == "win" and move.win is not None:
        return f"{move.win:.0%}"
    if move.points is not None:
        return f"{move.points:+.1f} points"
    return "not simulated"


def measure_of(evaluator: Evaluator) -> str:
    """``"win"`` when ``evaluator`` values winning alone, else ``"points"``."""
    if type(evaluator).evaluate is not Evaluator.evaluate or evaluator.rank_weight == 1.0:
        return "win"
    return "points"


def analyse(
    state: State,
    player: int,
    rng: random.Random,
    iterations: int | None = None,
    time_ms: float | None = None,
) -> Generator[float, None, Analysis]:
    """Search in chunks, yielding the fraction done; the generator returns the analysis.

    ``iterations``: the budget (default: the game's Hard budget); ``time_ms``: also stop
    after that long (a slow device), so the figures may then rest on fewer worlds. A seat with
    one legal move gets it at once, with no search and no use of ``rng`` (as the Hard bot).
    """
    legal = state.legal_actions()
    if not legal or state.current_player != player:
        raise ValueError(f"seat {player} has no move to make now")
    settings = settings_of(state.game_id, state.players)
    budget = settings.hard_iterations if iterations is None else iterations
    config = settings.search or SearchConfig()
    inner = config.evaluator or settings.evaluator or Evaluator()
    measure = measure_of(inner)
    if len(legal) == 1:
        only = Move(legal[0], 1, 0, None, None, None)
        return Analysis(player, [only], measure, 0, budget)
    recorder = _Recorder(inner=inner, player=player, root=len(state.history))
    search = Search(state, player, rng, replace(config, evaluator=recorder))
    yield from search.chunks(budget, time_ms)
    best = search.best()
    visits = search.visits()

    def figures(action: Action) -> tuple[int, float | None, float | None, float | None]:
        tally = recorder.tallies.get(action.id)
        if tally is None or not tally.worlds:
            return 0, None, None, None
        n = tally.worlds
        points = tally.points / n if recorder.generic else None
        return n, tally.value / n, tally.win / n, points

    def order(action: Action) -> tuple[float, ...]:
        worlds, value, _, _ = figures(action)
        mean = -1.0 if value is None else value
        if config.paired:
            return (mean, worlds)
        return (visits[action.id], mean)

    rest = sorted((a for a in legal if a.id != best.id), key=order, reverse=True)
    moves = [Move(a, i + 1, *figures(a)) for i, a in enumerate([best, *rest])]
    return Analysis(
        player, moves, measure, search.iterations, budget, search.prior, not recorder.generic
    )


def run(state: State, player: int, rng: random.Random, iterations: int | None = None) -> Analysis:
    """:func:`analyse` to the end, without progress."""
    thinking = analyse(state, player, rng, iterations)
    while True:
        try:
            next(thinking)
        except StopIteration as done:
            return done.value

"""How a search rollout ends and what it is worth: a value in [0, 1] for every seat.

The generic evaluator, used by every game unless a row of :data:`EVALUATORS` says otherwise,
reads only ``result()`` (public: match scores, finished rounds, winners):

- a rollout runs to the end of the round that was live when the search began (the length
  of ``result()["rounds"]`` grows) or to the end of the match, whichever comes first;
- at the end of the match a seat is worth ``1 / len(winners)`` if it won, else 0;
- at the end of a round each seat's gain ``d`` (match score now minus at the search's
  start) is turned into ``rank_weight * rank + (1 - rank_weight) * margin``, where
  ``rank`` is the share of the other seats it beat (ties half) and ``margin`` is
  ``0.5 + 0.5 * tanh((d - mean of the others' d) / scale)``;
- a rollout cut short by ``max_rollout_steps`` is scored the same way from the gains the
  game's ``heuristic`` projects from the spectator view ``view(None)`` (what each seat would
  get were the round to end now, from the sampled world: the spectator view, or each seat's
  own view of that world); without a heuristic the gains so far (usually all zero
  mid-round, so every seat gets 0.5).

Per-game settings (see :data:`EVALUATORS`):

- crisps: round wins are the score (first to 3); rank only; rollouts reach the round end.
- progression: round scores are stack points that add up over six rounds, so a point is
  worth the same in any round and whoever beats whom in one round matters little: no rank,
  the margin alone, nearly linear over a round's usual spread (``scale`` 30 points). The
  search has no rollout (random steps wreck rising stacks, and greedy ones cost about
  0.5 ms a step): positions are scored by :func:`progression_heuristic`, each seat's
  expected round score by the game's greedy position value. In one-round screens, Hard's
  round margin over Normal's in the same seat and deal (the arena's ``par``) was +3.5 ±
  1.5 points over 120 rounds with this evaluator and ``trust_spread=None`` (see
  :mod:`engine.bots`), +2.6 ± 1.5 over 60 with rank weight 0.3, ``scale`` 15 and the
  default trust test, and
  +1.9 ± 2.2 for the former Hard, which also ran 24 random steps before valuing.
- roundup: 0..4 points per round; rank 0.5, ``scale`` 2.
- mhing: the round winner takes its points; rank 0.5, ``scale`` 4; cut rollouts use the
  points of the sequences on the table (``round_points``).
- spite: :class:`SpiteEvaluator`. One long game per round (74 turns, 250 steps of the greedy
  policy), so a rollout is cut at a turn boundary, after three turns counting the one being
  played (the rest of this turn, the opponent's reply, our next turn). It is
  scored as a chance of winning from the pay-off cards each seat has left, fitted on games
  of the greedy policy. The former rank and margin of the pay-off counts after 40 steps
  predicted who wins worse than a constant (log loss 0.82 against 0.69; the fit: 0.60), its
  step at equal counts making a one-card lead worth three quarters of a win at any stage,
  and a cut after a fixed number of steps compared moves at different points of the turn
  cycle.

>>> ev = Evaluator(rank_weight=0.5, scale=2.0)
>>> [round(v, 3) for v in ev.from_gains([3, 0])]
[0.976, 0.024]
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from engine.core import State

Heuristic = Callable[[State], list[float]]


@dataclass(frozen=True)
class Baseline:
    scores: tuple[float, ...]
    rounds: int


@dataclass(frozen=True)
class Evaluator:
    """Stops rollouts and values their ends; see the module text for the formula."""

    rank_weight: float = 1.0
    scale: float = 1.0
    lower_is_better: bool = False
    heuristic: Heuristic | None = None
    stop_at_round_end: bool = True

    def baseline(self, world: State) -> Baseline:
        result = world.result()
        return Baseline(tuple(result["scores"]), len(result["rounds"]))

    def stop(self, world: State, baseline: Baseline) -> bool:
        """True once the round live at the search's start has ended."""
        if not self.stop_at_round_end:
            return False
        return len(world.result()["rounds"]) > baseline.rounds

    def evaluate(self, world: State, baseline: Baseline) -> list[float]:
        result = world.result()
        players = world.players
        if world.is_over:
            winners = result["winners"]
            if not winners:
                return [0.5] * players
            share = 1.0 / len(winners)
            return [share if p in winners else 0.0 for p in range(players)]
        if len(result["rounds"]) <= baseline.rounds and self.heuristic is not None:
            return self.from_gains(self.heuristic(world))
        gains = [float(now) - float(before)
                 for now, before in zip(result["scores"], baseline.scores)]
        return self.from_gains(gains)

    def from_gains(self, gains: list[float]) -> list[float]:
        n = len(gains)
        if self.lower_is_better:
            gains = [-g for g in gains]
        out = []
        for i, g in enumerate(gains):
            others = [gains[j] for j in range(n) if j != i]
            beaten = sum(1.0 if g > o else 0.5 if g == o else 0.0 for o in others)
            rank = beaten / len(others) if others else 0.5
            mean = sum(others) / len(others) if others else g
            margin = 0.5 + 0.5 * math.tanh((g - mean) / self.scale)
            out.append(self.rank_weight * rank + (1.0 - self.rank_weight) * margin)
        return out


def _view_list(key: str, sign: float = 1.0) -> Heuristic:
    """A heuristic reading one per-seat list of the spectator view."""

    def heuristic(world: State) -> list[float]:
        return [sign * float(v) for v in world.view(None)[key]]

    heuristic.__name__ = f"{key}_heuristic"
    return heuristic


def progression_heuristic(world: State) -> list[float]:
    """Each seat's expected round score by the greedy player's position value.

    The value is computed from the seat's own view of the sampled world (its hand, the
    stacks, and the cards it has not seen), exactly as the greedy player values positions;
    a stack in progress is worth what it may still become, not its score today.
    """
    from engine.games import progression_bot as pb  # the game's own position value

    return pb.position_values(world)  # type: ignore[arg-type]


@dataclass(frozen=True)
class SpiteBaseline(Baseline):
    round: int
    turn: int


@dataclass(frozen=True)
class SpiteEvaluator(Evaluator):
    """Spite and Malice: a race to shed the pay-off pile, valued as a chance of winning.

    A rollout stops once ``turns`` turns are over, counting the one live at the search's
    start (so every rollout stops at the start of a turn of the same seat), when the game
    ends, or when the rollout's step cap cuts it. A finished game is worth 1 to its winner (a draw 1/2 each);
    otherwise seat ``s`` with ``a`` pay-off cards left against the other's ``b`` is worth
    ``1 / (1 + exp(-(race * (sqrt(b) - sqrt(a)) ± tempo)))``, ``+tempo`` when ``s`` is to
    move. ``race`` and ``tempo`` are a logistic fit of who won, from pay-off counts at turn
    starts, over 3,000 games of the greedy policy against itself (the square roots: one card
    is worth more near the end of the race than at its start). Only the public pay-off
    counts, the turn and the game number are read.
    """

    turns: int = 3
    race: float = 1.4
    tempo: float = 0.06

    def baseline(self, world: State) -> Baseline:
        base = super().baseline(world)
        return SpiteBaseline(base.scores, base.rounds, world.round, world.turn)  # type: ignore[attr-defined]

    def stop(self, world: State, baseline: Baseline) -> bool:
        assert isinstance(baseline, SpiteBaseline)
        return world.round != baseline.round or \
            world.turn >= baseline.turn + self.turns  # type: ignore[attr-defined]

    def evaluate(self, world: State, baseline: Baseline) -> list[float]:
        assert isinstance(baseline, SpiteBaseline)
        if world.is_over or world.round != baseline.round:  # type: ignore[attr-defined]
            result = world.result()
            if world.is_over:
                winners = result["winners"]
            else:
                winner = result["rounds"][baseline.rounds]["winner"]
                winners = [] if winner is None else [winner]
            if len(winners) != 1:
                return [0.5, 0.5]
            return [1.0 if seat in winners else 0.0 for seat in range(2)]
        left = [len(pile) for pile in world.payoff]  # type: ignore[attr-defined]
        mover = world.current_player
        z = self.race * (math.sqrt(left[1]) - math.sqrt(left[0])) + \
            (self.tempo if mover == 0 else -self.tempo)
        first = 1.0 / (1.0 + math.exp(-z))
        return [first, 1.0 - first]


EVALUATORS: dict[str, Evaluator] = {
    "crisps": Evaluator(rank_weight=1.0),
    "progression": Evaluator(rank_weight=0.0, scale=30.0, heuristic=progression_heuristic),
    "roundup": Evaluator(rank_weight=0.5, scale=2.0),
    "mhing": Evaluator(rank_weight=0.5, scale=4.0, heuristic=_view_list("round_points")),
    "spite": SpiteEvaluator(),
}
"""Per-game evaluators; a game not listed gets ``Evaluator()`` (rank of round gains)."""


def evaluator_for(game_id: str) -> Evaluator:
    return EVALUATORS.get(game_id, Evaluator())

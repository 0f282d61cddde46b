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
- progression: round scores are stack points that add up over six rounds; the margin
  matters (``scale`` 15 points, rank weight 0.3). Rollouts are cut after a few steps and
  scored by :func:`progression_heuristic`: each seat's expected round score by the game's
  greedy position value (random rollouts wreck rising stacks, and greedy ones cost about
  0.5 ms a step).
- roundup: 0..4 points per round; rank 0.5, ``scale`` 2.
- mhing: the round winner takes its points; rank 0.5, ``scale`` 4; cut rollouts use the
  points of the sequences on the table (``round_points``).
- spite: one long game per round; rollouts are cut and scored by the pay-off cards each seat
  has shed (``payoff_counts``), ``scale`` 4.

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

    view = world.view(None)
    out = []
    pile = view["draw_pile"]
    n = view["players"]
    for seat in range(n):
        seat_view = world.view(seat)
        unseen = pb._unseen(seat_view, seat)
        by_suit: dict[str, list[str]] = {s: [] for s in "SHDC"}
        for c in unseen:
            by_suit[c[-1]].append(c)
        plays_left = max(0.0, pile / n)
        p_draw = pb.DRAW_CHANCE_DISCOUNT * min(1.0, plays_left / max(1, len(unseen)))
        stacks = seat_view["private_stacks"][seat]
        out.append(sum(pb._position(seat_view["hand"], stacks, by_suit, plays_left,
                                    p_draw).values()))
    return out


EVALUATORS: dict[str, Evaluator] = {
    "crisps": Evaluator(rank_weight=1.0),
    "progression": Evaluator(rank_weight=0.3, scale=15.0, heuristic=progression_heuristic),
    "roundup": Evaluator(rank_weight=0.5, scale=2.0),
    "mhing": Evaluator(rank_weight=0.5, scale=4.0, heuristic=_view_list("round_points")),
    "spite": Evaluator(rank_weight=0.5, scale=4.0, heuristic=_view_list("payoff_counts", -1.0)),
}
"""Per-game evaluators; a game not listed gets ``Evaluator()`` (rank of round gains)."""


def evaluator_for(game_id: str) -> Evaluator:
    return EVALUATORS.get(game_id, Evaluator())

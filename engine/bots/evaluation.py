"""How a search rollout ends and what it is worth: a value in [0, 1] for every seat.

The generic evaluator, used by every game unless its bot settings name another, reads only
``result()`` (public: match scores, finished rounds, winners):

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

Each game's evaluator is part of its bot settings (``engine/games/<id>/bot.py``, reached
through ``SPEC.bot``); a game without one gets ``Evaluator()`` (rank of round gains).

>>> ev = Evaluator(rank_weight=0.5, scale=2.0)
>>> [round(v, 3) for v in ev.from_gains([3, 0])]
[0.976, 0.024]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
        return world.rounds_played() > baseline.rounds

    def evaluate(self, world: State, baseline: Baseline) -> list[float]:
        players = world.players
        if world.is_over:
            winners = world.result()["winners"]
            if not winners:
                return [0.5] * players
            share = 1.0 / len(winners)
            return [share if p in winners else 0.0 for p in range(players)]
        heuristic = self.heuristic
        if (
            heuristic is not None
            and world.rounds_played() <= baseline.rounds
            and type(self).gains is Evaluator.gains
        ):
            return self.from_gains(heuristic(world))  # gains(), without building result()
        return self.from_gains(self.gains(world, baseline))

    def gains(
        self, world: State, baseline: Baseline, result: dict[str, Any] | None = None
    ) -> list[float]:
        """Each seat's points since the search's start, as ``evaluate`` reads them: projected
        by the heuristic while the round live at the start goes on, else the change of the
        match scores. ``result``: ``world.result()`` when the caller has it already."""
        if result is None:
            result = world.result()
        if len(result["rounds"]) <= baseline.rounds and self.heuristic is not None:
            return self.heuristic(world)
        return [
            float(now) - float(before)
            for now, before in zip(result["scores"], baseline.scores, strict=False)
        ]

    def from_gains(self, gains: list[float]) -> list[float]:
        if self.lower_is_better:
            gains = [-g for g in gains]
        weight = self.rank_weight
        scale = self.scale
        tanh = math.tanh
        out = []
        for i, g in enumerate(gains):
            others = gains[:i] + gains[i + 1 :]
            mean = sum(others) / len(others) if others else g
            margin = 0.5 + 0.5 * tanh((g - mean) / scale)
            if weight == 0.0:
                # 0.0 * rank + 1.0 * margin is margin exactly (a margin is finite, not -0.0).
                out.append(margin)
                continue
            beaten = sum(1.0 if g > o else 0.5 if g == o else 0.0 for o in others)
            rank = beaten / len(others) if others else 0.5
            out.append(weight * rank + (1.0 - weight) * margin)
        return out


def view_list(key: str, sign: float = 1.0) -> Heuristic:
    """A heuristic reading one per-seat list of the spectator view."""

    def heuristic(world: State) -> list[float]:
        return [sign * float(v) for v in world.view(None)[key]]

    heuristic.__name__ = f"{key}_heuristic"
    return heuristic

"""Top Card: each seat plays its two cards face up; the higher total takes the round.

A minimal game that follows the recipe in docs/engine.md (``rules``, ``state``, ``bot``,
``words``, ``coach.json``), used by tests/test_sixth_game.py to prove the recipe complete.
"""

from __future__ import annotations

from engine.core import GameSpec, Option

from . import bot, words
from .rules import TARGETS
from .state import TopCardState

__all__ = ["SPEC"]

SPEC = GameSpec(
    id="topcard",
    title="Top Card",
    min_players=2,
    max_players=3,
    default_players=2,
    factory=lambda players, seed, options: TopCardState(players, seed, options),
    bot=bot.SETTINGS,
    score_lines=words.score_lines,
    purpose=words.purpose,
    options={
        "target": Option("target", 2, TARGETS, "Match target", "Rounds won that end the match.")
    },
    summary="Play your two cards face up; the higher total wins the round.",
    clarifications=("A round whose totals tie scores nobody.",),
)

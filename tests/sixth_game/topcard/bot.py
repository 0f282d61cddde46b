"""Top Card's bot: the greedy policy (play the highest card) and the search's settings."""

from __future__ import annotations

import random
from typing import Any

from engine.bots.evaluation import Evaluator
from engine.bots.ismcts import SearchConfig
from engine.core import Action, BotSettings

from .rules import VALUES


def greedy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The highest card first."""
    return max(legal, key=lambda a: VALUES[a.cards[0][:-1]])


SETTINGS = BotSettings(
    greedy=greedy, search=SearchConfig(), evaluator=Evaluator(), hard_iterations=50
)

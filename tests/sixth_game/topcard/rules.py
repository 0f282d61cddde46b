"""Top Card's tables: the deck, the card values, the match's limits."""

from __future__ import annotations

DECK = ("AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H")
VALUES = {"A": 1, "2": 2, "3": 3, "4": 4}
HAND = 2
TARGETS = (2, 3)
MAX_ROUNDS = 12
"""Rounds that tie score nobody: the match ends after this many rounds whatever the score."""


def total(cards: list[str]) -> int:
    """The value of some cards.

    >>> total(["AS", "4H"])
    5
    """
    return sum(VALUES[c[:-1]] for c in cards)

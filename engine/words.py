"""The small pieces of wording every game's ``words.py`` shares: who a seat is to a viewer,
a counted noun, a list of cards.

A game's own words (the lines that explain a round's score, what a move does for the seat
that makes it) live in its package, ``engine/games/<id>/words.py``, and reach the coach and
the analysis through its :class:`~engine.core.GameSpec` (``score_lines``, ``purpose``).

>>> who(0, 0), who(2, 0), plural(1, "point"), plural(3, "point"), cards_text(["10H", "AS#2"])
('You', '{seat2}', '1 point', '3 points', '10♥ A♠')
"""

from __future__ import annotations

from engine.cards import card_name
from engine.core import seat_token


def who(seat: int, viewer: int) -> str:
    """``"You"`` for the viewer's own seat, else the seat's token for the page to name."""
    return "You" if seat == viewer else seat_token(seat)


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an ``s`` unless ``n`` is one."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def base(card: str) -> str:
    """The card without its deck mark ("7H" of "7H#2")."""
    return card.split("#", 1)[0]


def cards_text(cards: list[str]) -> str:
    """Cards by their short names (a deck mark is not shown), one space between."""
    return " ".join(card_name(c) for c in cards)

"""Crisps in a player's words: the lines that explain a round's score (the coach shows them
when a round is over) and what a move does for the seat that makes it (the coach's
suggestion and the analysis's best move say it).

Both read only what the seat may know: the round's public breakdown (``view["last_round"]``),
the seat's own view and the move. Another seat is named by its token (``{seat1}``).

>>> score_lines({"winner": 1, "cards_left": [2, 0]}, 0)[:2]
['{seat1} emptied their hand first: 1 point.', 'You: 2 cards left.']
"""

from __future__ import annotations

from typing import Any

from engine.core import Action
from engine.words import plural, who


def score_lines(r: dict[str, Any], viewer: int) -> list[str]:
    """The round just over (``view["last_round"]``), explained line by line."""
    whose = "your" if r["winner"] == viewer else "their"
    lines = [f"{who(r['winner'], viewer)} emptied {whose} hand first: 1 point."]
    for seat, left in enumerate(r["cards_left"]):
        lines.append(f"{who(seat, viewer)}: {plural(left, 'card')} left.")
    lines.append("The first to 3 points wins the match.")
    return lines


def purpose(view: dict[str, Any], action: Action) -> str | None:
    """What ``action`` does for the seat whose ``view`` it is (lower case, no full stop), or
    ``None`` when its label says it all."""
    kind, _, rest = action.id.partition(":")
    if kind == "pass":
        return "passes, keeping your cards for a later trick"
    if kind == "take":
        return "takes the face-up card" if rest == "faceup" else "draws a blind card"
    if kind != "play":
        return None
    cards = rest.split(",")
    left = len(view.get("hand", [])) - len(cards)
    if left == 0:
        return "plays your last cards and wins the round"
    what = "a single card" if len(cards) == 1 else f"{len(cards)} cards at once"
    return f"plays {what}, leaving you {left} card{'s' if left != 1 else ''}"

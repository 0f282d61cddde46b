"""Top Card in a player's words: a round's score explained, and what a move does.

>>> score_lines({"totals": [5, 3], "winner": 0}, 1)
['{seat0}: cards worth 5.', 'You: cards worth 3.', '{seat0} wins the round: 1 point.']
"""

from __future__ import annotations

from typing import Any

from engine.cards import card_name
from engine.core import Action
from engine.words import who


def score_lines(r: dict[str, Any], viewer: int) -> list[str]:
    """The round just over (``view["last_round"]``), explained line by line."""
    lines = [f"{who(seat, viewer)}: cards worth {t}." for seat, t in enumerate(r["totals"])]
    if r["winner"] is None:
        lines.append("The top totals tie: nobody scores.")
    else:
        lines.append(f"{who(r['winner'], viewer)} wins the round: 1 point.")
    return lines


def purpose(view: dict[str, Any], action: Action) -> str | None:
    """What playing a card does for its seat."""
    left = len(view.get("hand", [])) - 1
    card = card_name(action.cards[0])
    return f"shows {card}, your last card" if left == 0 else f"shows {card}, keeping one back"

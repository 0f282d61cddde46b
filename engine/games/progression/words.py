"""Progression in a player's words: the lines that explain a round's score (the coach shows
them when a round is over) and what a move does for the seat that makes it (the coach's
suggestion and the analysis's best move say it).

Both read only what the seat may know: the round's public breakdown (``view["last_round"]``),
the seat's own view and the move. Another seat is named by its token (``{seat1}``).

>>> from engine.core import Action
>>> purpose({}, Action("draw:stock", 0, "Draw from the stock"))
'draws a card nobody has seen'
"""

from __future__ import annotations

from typing import Any

from engine.cards import SUIT_NAMES, card_name
from engine.core import Action
from engine.words import plural, who


def score_lines(r: dict[str, Any], viewer: int) -> list[str]:
    """The round just over (``view["last_round"]``), explained line by line."""
    lines = []
    for seat, stacks in enumerate(r["stacks"]):
        for suit, cards in stacks.items():
            if not cards:
                continue
            total = r["stack_values"][seat][suit]
            faces = r["stack_faces"][seat][suit]
            score = r["stack_scores"][seat][suit]
            lines.append(
                f"{who(seat, viewer)}, {SUIT_NAMES[suit]} ({' '.join(cards)}): total {total}, "
                f"{plural(faces, 'face card')}, scores {score}."
            )
        lines.append(f"{who(seat, viewer)}: {r['scores'][seat]} this round.")
    return lines


def purpose(view: dict[str, Any], action: Action) -> str | None:
    """What ``action`` does for the seat whose ``view`` it is (lower case, no full stop), or
    ``None`` when its label says it all."""
    kind, _, card = action.id.partition(":")
    if kind == "play":
        return f"adds {card_name(card)} to your own {SUIT_NAMES[card[-1]]} stack"
    if kind == "public":
        return f"puts {card_name(card)} on the public stack, where anyone may take it"
    if kind == "draw" and card == "stock":
        return "draws a card nobody has seen"
    if kind == "draw":
        return f"takes {card_name(card)} from the public stack"
    return None

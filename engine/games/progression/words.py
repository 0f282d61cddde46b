"""Progression in a player's words: the lines that explain a round's score (the coach shows
them when a round is over) and what a move does for the seat that makes it (the coach's
suggestion and the analysis's best move say it).

Both read only what the seat may know: the round's public breakdown (``view["last_round"]``),
the seat's own view and the move. Another seat is named by its token (``{seat1}``).

>>> from engine.core import Action
>>> purpose({"you": 0, "private_stacks": [{"C": ["7C"]}]}, Action("play:9C", 0, "Play 9♣"))
'brings your clubs stack to 16: it scores 4'
"""

from __future__ import annotations

from typing import Any

from engine.cards import SUIT_NAMES, card_name
from engine.core import Action
from engine.games.progression.rules import is_face, stack_faces, stack_score, stack_value
from engine.words import cards_text, plural, who


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
                f"{who(seat, viewer)}, {SUIT_NAMES[suit]} ({cards_text(cards)}): total {total}, "
                f"{plural(faces, 'face card')}, scores {score}."
            )
        lines.append(f"{who(seat, viewer)}: {r['scores'][seat]} this round.")
    return lines


def purpose(view: dict[str, Any], action: Action) -> str | None:
    """What ``action`` does for the seat whose ``view`` it is (lower case, no full stop), or
    ``None`` when its label says it all."""
    kind, _, card = action.id.partition(":")
    if kind == "play":
        return play_purpose(view, card)
    if kind == "public":
        return f"puts {card_name(card)} on the public stack, where anyone may take it"
    if kind == "draw" and card == "stock":
        return "draws a card nobody has seen, so nobody learns which suit you are after"
    if kind == "draw":
        return f"takes {card_name(card)} from the public stack, in everyone's sight"
    return None


def play_purpose(view: dict[str, Any], card: str) -> str:
    """What playing ``card`` to the seat's own stack of its suit does for the round's score."""
    suit = card[-1]
    me = view.get("you") or 0
    stacks = view.get("private_stacks") or []
    before = list(stacks[me].get(suit, [])) if me < len(stacks) else []
    after = [*before, card]
    name = SUIT_NAMES[suit]
    total, times, score = stack_value(after), stack_faces(after) + 1, stack_score(after)
    if total == 0:
        return (
            f"puts a face card on your {name} stack: it costs {-score} points until number "
            "cards take it past 12"
        )
    if total <= 12:
        times_text = f", times {times} for its face cards" if times > 1 else ""
        return f"brings your {name} stack to {total}: it scores once it passes 12{times_text}"
    was = stack_score(before)
    gain = f", up from {was}" if was > 0 else (f", where it cost {-was}" if was < 0 else "")
    if is_face(card) and was > 0:
        return f"multiplies your {name} stack: it scores {score}, up from {was}"
    return f"brings your {name} stack to {total}: it scores {score}{gain}"

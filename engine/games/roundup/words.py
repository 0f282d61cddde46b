"""Roundup in a player's words: the lines that explain a round's score (the coach shows them
when a round is over) and what a move does for the seat that makes it (the coach's
suggestion and the analysis's best move say it).

Both read only what the seat may know: the round's public breakdown
(``view["last_round"]``), the seat's own view and the move. Another seat is named by its
token (``{seat1}``) for the bridge to name.

>>> from engine.core import Action
>>> view = {"stacks": {"H": 9}, "face_down": ["10H"], "face_up": [[]], "viewer": 0}
>>> purpose(view, Action("play:10H", 0, "Play 10♥ from face-down", ("10H",)))
'closes the hearts stack'
"""

from __future__ import annotations

from typing import Any

from engine.cards import SUIT_NAMES, card_name
from engine.core import Action, seat_token
from engine.words import cards_text, plural, who

NUMBERS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")


def score_lines(r: dict[str, Any], viewer: int) -> list[str]:
    """The round just over (``view["last_round"]``), explained line by line."""
    suit = SUIT_NAMES.get(r["closing_suit"], r["closing_suit"])
    lines = [f"The last suit to close was {suit}."]
    for seat, bid in enumerate(r["bids"]):
        named = "no bid" if bid is None else f"bid {card_name(bid)}"
        right = seat in r["correct"]
        lines.append(f"{who(seat, viewer)}: {named}, {'right' if right else 'wrong'}.")
    if r["correct"]:
        lines.append(
            f"Right bids share the 3 points: {len(r['correct'])} right, "
            f"{plural(r['bid_points'], 'point')} each."
        )
    if r["first_empty"] is None:
        lines.append("Nobody emptied both hands, so nobody gets the extra point.")
    else:
        lines.append(f"{who(r['first_empty'], viewer)} emptied both hands first: 1 point.")
    for seat, points in enumerate(r["points"]):
        lines.append(f"{who(seat, viewer)}: {plural(points, 'point')} this round.")
    return lines


def bid_purpose(view: dict[str, Any], card: str) -> str:
    """Why bid ``card``: the low cards of its suit the seat holds face down."""
    suit = card[-1]
    below = sorted(
        (c for c in view.get("face_down", []) if c[-1] == suit and c[:-1] in NUMBERS and c != card),
        key=lambda c: NUMBERS.index(c[:-1]),
    )
    name = SUIT_NAMES[suit]
    if not below:
        return f"guesses {name} for the last suit to close (no suit stands out in your hand)"
    said = (
        f"guesses {name} for the last suit to close: you hold {cards_text(below)} face down, so "
        f"the {name} stack cannot climb past them while they stay in your hand"
    )
    rank = card[:-1]
    highest = rank not in NUMBERS or all(NUMBERS.index(c[:-1]) < NUMBERS.index(rank) for c in below)
    return (
        f"{said}; it is your highest {name[:-1]} card, so the low ones stay hidden"
        if highest
        else said
    )


def purpose(view: dict[str, Any], action: Action) -> str | None:
    """What ``action`` does for the seat whose ``view`` it is (lower case, no full stop), or
    ``None`` when its label says it all."""
    kind, _, rest = action.id.partition(":")
    parts = rest.split(":")
    card = parts[0] if parts and parts[0] else None
    if kind == "bid" and card:
        return bid_purpose(view, card)
    if kind == "play" and card:
        suit = SUIT_NAMES[card[-1]]
        if card[:-1] == "10":
            return f"closes the {suit} stack"
        hidden = card in view.get("face_down", [])
        left = 10 - (NUMBERS.index(card[:-1]) + 1)
        return f"takes the {suit} stack to {card_name(card)}, {left} short of closing" + (
            ", from your face-down hand: one card nearer emptying both hands" if hidden else ""
        )
    if kind in ("jack", "queen", "king") and len(parts) >= 2:
        target = seat_token(int(parts[1]))
        if kind == "jack":
            return f"makes {target} turn up a card at random from their face-down hand"
        named = parts[2] if len(parts) > 2 else ""
        if kind == "queen":
            return (
                f"makes {target} show a {SUIT_NAMES.get(named, named)[:-1]} card if they have one"
            )
        return f"makes {target} show a {named} if they have one"
    if kind == "pass":
        return f"passes, paying with {card_name(card)}" if card else "passes"
    if kind == "reveal" and card:
        return f"answers with {card_name(card)}, turned face up"
    if kind == "discard" and card:
        return f"answers by giving up {card_name(card)}"
    if kind == "end":
        return "ends your turn, keeping the rest of your face-up cards for later"
    if kind == "tiebreak" and card:
        return f"turns up {card_name(card)} for the tie-break: the lower card starts"
    return None

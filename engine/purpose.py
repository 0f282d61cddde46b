"""What a move does for the seat that makes it, in a player's words: "plays your pay-off card
to a centre stack", "closes the hearts stack". The coach gives it with its suggestion and the
analysis with its best move.

Read off the seat's own view (``state.view(seat)``) and the move alone, so it tells nothing the
seat cannot see. Another seat is named by its token (``{seat1}``) for the bridge to name.

>>> from engine.core import Action
>>> view = {"stacks": {"H": 9}, "face_down": ["10H"], "face_up": [[]], "viewer": 0}
>>> purpose("roundup", view, Action("play:10H", 0, "Play 10♥ from face-down", ("10H",)))
'closes the hearts stack'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.cards import SUIT_NAMES, card_name
from engine.core import Action, seat_token

NUMBERS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")


def purpose(game: str, view: dict[str, Any], action: Action) -> str | None:
    """What ``action`` does for the seat whose ``view`` it is (lower case, no full stop), or
    ``None`` when its label says it all."""
    says = _PURPOSES.get(game)
    return says(view, action) if says else None


def _base(card: str) -> str:
    """The card without its deck mark ("7H" of "7H#2")."""
    return card.split("#", 1)[0]


def _cards(cards: list[str]) -> str:
    return " ".join(card_name(c) for c in cards)


# ----- Roundup ---------------------------------------------------------------------------------


def roundup_bid(view: dict[str, Any], card: str) -> str:
    """Why bid ``card``: the low cards of its suit the seat holds face down."""
    suit = card[-1]
    below = sorted(
        (c for c in view.get("face_down", []) if c[-1] == suit and c[:-1] in NUMBERS and c != card),
        key=lambda c: NUMBERS.index(c[:-1]),
    )
    name = SUIT_NAMES[suit]
    if not below:
        return f"guesses {name} for the last suit to close (no suit stands out in your hand)"
    return (
        f"guesses {name} for the last suit to close: you hold {_cards(below)} face down, so the "
        f"{name} stack cannot climb past them while they stay in your hand; it is your highest "
        f"{name[:-1]} card, so the low ones stay hidden"
    )


def _roundup(view: dict[str, Any], action: Action) -> str | None:
    kind, _, rest = action.id.partition(":")
    parts = rest.split(":")
    card = parts[0] if parts and parts[0] else None
    if kind == "bid" and card:
        return roundup_bid(view, card)
    if kind == "play" and card:
        suit = SUIT_NAMES[card[-1]]
        if card[:-1] == "10":
            return f"closes the {suit} stack"
        hidden = card in view.get("face_down", [])
        return f"adds {card_name(card)} to the {suit} stack" + (
            " from your face-down hand" if hidden else ""
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


# ----- Spite and Malice ------------------------------------------------------------------------


def _spite(view: dict[str, Any], action: Action) -> str | None:
    kind, _, rest = action.id.partition(":")
    me: int = view.get("you", view.get("current_player")) or 0
    if kind == "end":
        return "ends your turn without a discard"
    card, _, where = rest.rpartition(":")
    if kind == "discard":
        return f"puts {card_name(_base(card))} on discard pile {int(where) + 1} and ends your turn"
    if kind != "build":
        return None
    payoff = (view.get("upcards") or [None, None])[me]
    hand = view.get("hand", [])
    if where == "new":
        to = "starts a new centre stack"
    else:
        stack = int(where)
        ranks = view.get("stack_ranks") or []
        filled = stack < len(ranks) and ranks[stack] + 1 >= 12
        to = (
            f"completes centre stack {stack + 1}, which clears it"
            if filled
            else (f"plays to centre stack {stack + 1}")
        )
    if card == payoff:
        left = (view.get("payoff_counts") or [0, 0])[me] - 1
        return (
            f"{to} with your pay-off card: {left} left to go"
            if left
            else (f"{to} with your last pay-off card")
        )
    if card in hand:
        extra = ", emptying your hand so you draw five more" if len(hand) == 1 else ""
        return f"{to} from your hand{extra}"
    return f"{to} from your discard piles, freeing the card below"


# ----- Progression -----------------------------------------------------------------------------


def _progression(view: dict[str, Any], action: Action) -> str | None:
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


# ----- Crisps ----------------------------------------------------------------------------------


def _crisps(view: dict[str, Any], action: Action) -> str | None:
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


# ----- General Mhing ---------------------------------------------------------------------------


def _mhing(view: dict[str, Any], action: Action) -> str | None:
    kind, _, rest = action.id.partition(":")
    laid = len(((view.get("sequences") or [[]]) + [[]])[view.get("viewer") or 0])
    if kind in ("lay", "take"):
        cards = rest.split(",")
        took = "takes the discard and " if kind == "take" else ""
        return f"{took}lays {_cards(cards)}, your sequence {laid + 1} of four"
    if kind == "discard":
        return f"discards {card_name(rest)} and ends your turn"
    if kind == "draw":
        return "draws a card, keeping your hand whole"
    if kind == "swap":
        return f"swaps {card_name(rest)} in for the Ace, which comes back to your hand"
    return None


_PURPOSES: dict[str, Callable[[dict[str, Any], Action], str | None]] = {
    "roundup": _roundup,
    "spite": _spite,
    "progression": _progression,
    "crisps": _crisps,
    "mhing": _mhing,
}

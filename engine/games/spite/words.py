"""Spite and Malice in a player's words: the lines that explain a game's score (the coach
shows them when a game is over) and what a move does for the seat that makes it (the coach's
suggestion and the analysis's best move say it).

Both read only what the seat may know: the game's public breakdown (``view["last_round"]``),
the seat's own view and the move. Another seat is named by its token (``{seat1}``).

>>> score_lines({"winner": 1, "payoff_left": [3, 0]}, 0)[1]
'You still had 3 pay-off cards: 3 points to the winner.'
"""

from __future__ import annotations

from typing import Any

from engine.cards import card_name
from engine.core import Action
from engine.words import base, plural, who


def score_lines(r: dict[str, Any], viewer: int) -> list[str]:
    """The game just over (``view["last_round"]``), explained line by line."""
    if r["winner"] is None:
        return ["Nobody could go on: the game is a draw and nobody scores."]
    loser = 1 - r["winner"]
    left = r["payoff_left"][loser]
    return [
        f"{who(r['winner'], viewer)} played the last pay-off card.",
        f"{who(loser, viewer)} still had {plural(left, 'pay-off card')}: "
        f"{plural(left, 'point')} to the winner.",
    ]


def purpose(view: dict[str, Any], action: Action) -> str | None:
    """What ``action`` does for the seat whose ``view`` it is (lower case, no full stop), or
    ``None`` when its label says it all."""
    kind, _, rest = action.id.partition(":")
    me: int = view.get("you", view.get("current_player")) or 0
    if kind == "end":
        return "ends your turn without a discard"
    card, _, where = rest.rpartition(":")
    if kind == "discard":
        return f"puts {card_name(base(card))} on discard pile {int(where) + 1} and ends your turn"
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
        if len(hand) == 1:
            return f"{to} from your hand, emptying it so you draw five more"
        left = plural(len(hand) - 1, "card")
        return f"{to} from your hand: {left} left, five new ones once it is empty"
    return f"{to} from your discard piles, freeing the card below"

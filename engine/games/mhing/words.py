"""General Mhing in a player's words: the lines that explain a round's score (the coach shows
them when a round is over) and what a move does for the seat that makes it (the coach's
suggestion and the analysis's best move say it).

Both read only what the seat may know: the round's public breakdown (``view["last_round"]``,
whose matches are :func:`~engine.games.mhing.rules.score_breakdown`'s), the seat's own view
and the move. Another seat is named by its token (``{seat1}``).

>>> r = {"sequences": [[["7H", "8H", "9H"]], []], "matches": [[{"kind": "low", "between": []}],
...      []], "points": [1, 0], "winners": [0]}
>>> score_lines(r, 0)[:2]
['You laid 7♥ 8♥ 9♥.', '  +1 low bonus (every card 7 or lower).']
"""

from __future__ import annotations

from typing import Any

from engine.cards import card_name
from engine.core import Action
from engine.words import cards_text, plural, who

MATCH_WORDS = {
    "suit": "same suit",
    "ranks": "same ranks",
    "order": "in order",
    "high": "high bonus",
    "low": "low bonus",
}
"""Each kind of point :func:`~engine.games.mhing.rules.score_breakdown` gives, in words (the
page's renderer, web/js/games/mhing.js, names them the same way): the names the rules page
gives them."""

BONUS_WHY = {"high": "every card 7 or higher", "low": "every card 7 or lower"}
"""What earns each bonus, as the rules page says it."""


def score_lines(r: dict[str, Any], viewer: int) -> list[str]:
    """The round just over (``view["last_round"]``), explained line by line."""
    lines = []
    for seat, sequences in enumerate(r["sequences"]):
        laid = ", ".join(cards_text(s) for s in sequences) or "none"
        lines.append(f"{who(seat, viewer)} laid {laid}.")
        for match in r["matches"][seat]:
            pair = match.get("between") or []
            between = f" (sequences {pair[0] + 1} and {pair[1] + 1})" if len(pair) == 2 else ""
            if match["kind"] in BONUS_WHY:
                between = f" ({BONUS_WHY[match['kind']]})"
            lines.append(f"  +1 {MATCH_WORDS[match['kind']]}{between}.")
        lines.append(f"{who(seat, viewer)}: {plural(r['points'][seat], 'point')}.")
    winners = [who(s, viewer) for s in r["winners"]]
    if winners:
        lines.append(f"Only the top scorer adds them: {' and '.join(winners)}.")
    return lines


def purpose(view: dict[str, Any], action: Action) -> str | None:
    """What ``action`` does for the seat whose ``view`` it is (lower case, no full stop), or
    ``None`` when its label says it all."""
    kind, _, rest = action.id.partition(":")
    laid = len(((view.get("sequences") or [[]]) + [[]])[view.get("viewer") or 0])
    if kind in ("lay", "take"):
        cards = rest.split(",")
        took = "takes the discard and " if kind == "take" else ""
        return (
            f"{took}lays {cards_text(cards)}, your sequence {laid + 1} of four, "
            "and you draw two more cards"
        )
    if kind == "discard":
        return f"discards {card_name(rest)}, ending your turn: the next player may take it"
    if kind == "draw":
        return "draws from the pile, so nobody sees which card you keep"
    if kind == "swap":
        return f"swaps {card_name(rest)} in for the Ace, which comes back to your hand"
    return None

"""Spite and Malice's tables and pure rules: the two decks, ranks and jokers, and what may be
built or discarded where.
"""

from __future__ import annotations

from engine.cards import RANKS, card_name, standard_deck

PLAYERS = 2
PAYOFF_SIZE = 26
HAND_SIZE = 5
DISCARD_PILES = 4
MAX_STACKS = 8
KING = 13
REBUILD_AT = 12
STALL_TURNS = 2
DROUGHT_TURNS = 200
"""A game with this many turns in a row without a pay-off card played is drawn (house rule)."""
MAX_DRAWN_GAMES = 3
"""A match to N points also stops after this many drawn games in a row."""

PAYOFF_DECK: tuple[str, ...] = tuple(standard_deck())
HAND_DECK: tuple[str, ...] = tuple(f"{c}#2" for c in standard_deck()) + tuple(
    f"JK{i}" for i in range(1, 5)
)

JOKER = 0
"""Rank value of a joker: it has no rank of its own."""

RANK_VALUE: dict[str, int] = {}
for _deck in (PAYOFF_DECK, HAND_DECK):
    for _card in _deck:
        RANK_VALUE[_card] = (
            JOKER if _card.startswith("JK") else RANKS.index(_card.split("#", 1)[0][:-1]) + 1
        )
CARD_NAME: dict[str, str] = {c: card_name(c) for c in RANK_VALUE}
RANK_NAME = {
    v: ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")[v - 1]
    for v in range(1, 14)
}


def rank_value(card: str) -> int:
    """1 (Ace) .. 13 (King); 0 for a joker."""
    return RANK_VALUE[card]


def is_joker(card: str) -> bool:
    return RANK_VALUE.get(card) == JOKER


def _hand_order(card: str) -> tuple[int, str]:
    value = RANK_VALUE[card]
    return (value if value else 14, card)


def pile_rank(pile: list[str]) -> int | None:
    """The rank a discard pile shows: its top card's, a joker taking the rank beneath it.

    ``None`` when the pile is empty or holds only jokers (then it accepts anything)."""
    for card in reversed(pile):
        value = RANK_VALUE[card]
        if value != JOKER:
            return value
    return None


def can_build(stack: list[str], card: str) -> bool:
    """May ``card`` go on this centre stack (``[]`` = starting a new one)?

    A stack runs A up to K; its rank is its length because every card was the next rank.

    >>> can_build([], "AS"), can_build([], "JK3"), can_build([], "2S")
    (True, True, False)
    >>> can_build(["AS#2"], "2D"), can_build(["AS"] * 13, "JK1")
    (True, False)
    """
    height = len(stack)
    if height >= KING:
        return False
    value = RANK_VALUE[card]
    return value == JOKER or value == height + 1


def can_discard(pile: list[str], card: str) -> bool:
    """May ``card`` go on this discard pile? Piles go down (equal ranks allowed); a joker
    goes anywhere except onto a 2 and counts as the rank beneath it.

    >>> can_discard([], "KS"), can_discard(["9C"], "9D#2"), can_discard(["9C"], "10D")
    (True, True, False)
    >>> can_discard(["JK1"], "KS"), can_discard(["5C", "JK1"], "6D"), can_discard(["2C"], "JK2")
    (True, False, False)
    """
    if not pile:
        return True
    shown = pile_rank(pile)
    value = RANK_VALUE[card]
    if value == JOKER:
        return shown != 2
    return shown is None or value <= shown


PILE_NAMES: tuple[str, ...] = tuple(f"pile {i + 1}" for i in range(DISCARD_PILES))
HAND_ORDER: dict[str, tuple[int, str]] = {c: _hand_order(c) for c in RANK_VALUE}
"""The sort key of every card in a hand (``_hand_order``), worked out once."""

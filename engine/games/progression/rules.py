"""Progression's tables and pure rules: card values, stack scores and what may go on a
private stack.
"""

from __future__ import annotations

from engine.cards import SUITS, card_name, rank_of, standard_deck, suit_of

FACE_RANKS = frozenset({"A", "J", "Q", "K"})
STALL_LIMIT = 30
"""Turns in a row without a draw-pile draw after which the round ends (engine rule)."""
HAND_SIZE = 5
ROUNDS = 6
TARGET = 200
MAX_TARGET_ROUNDS = 30
"""When playing to 200, the match also stops after this many rounds (engine rule), so a
match where nobody climbs (negative scores are common) still ends."""

_RANK_ORDER = {
    r: i for i, r in enumerate(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))
}
_SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}


def card_value(card_id: str) -> int:
    """A, J, Q, K are worth 0; number cards their number.

    >>> card_value("KH"), card_value("AH"), card_value("10H")
    (0, 0, 10)
    """
    value = VALUE.get(card_id)  # a table lookup: stack scores are read on every view
    if value is None:
        rank = rank_of(card_id)
        value = 0 if rank in FACE_RANKS else int(rank)
    return value


VALUE: dict[str, int] = {}  # filled below, once the deck is known
IS_FACE: dict[str, bool] = {}


def is_face(card_id: str) -> bool:
    return rank_of(card_id) in FACE_RANKS


def stack_score(cards: list[str]) -> int:
    """The score of one private stack.

    Only face cards: -10 x (faces + 1); empty or a total of 1..12: 0; a total above 12:
    (total - 12) x (faces + 1).

    >>> stack_score(["KS", "JS", "2S", "6S", "7S", "8S"])
    33
    >>> stack_score(["QD"]), stack_score([]), stack_score(["5C", "7C"]), stack_score(["9C", "10C"])
    (-20, 0, 0, 7)
    """
    if not cards:
        return 0
    total = stack_value(cards)
    faces = stack_faces(cards)
    if total == 0:
        return -10 * (faces + 1)
    if total <= 12:
        return 0
    return (total - 12) * (faces + 1)


def stack_value(cards: list[str]) -> int:
    """The running total of a stack's card values (face cards add nothing).

    >>> stack_value(["KS", "JS", "2S", "6S", "7S", "8S"])
    23
    """
    return sum(card_value(c) for c in cards)


def stack_faces(cards: list[str]) -> int:
    """How many face cards a stack holds: its score multiplier is this plus one."""
    return sum(1 for c in cards if (IS_FACE[c] if c in IS_FACE else is_face(c)))


def card_sort_key(card_id: str) -> tuple[int, int]:
    """Suit by suit (S H D C), then A..K: the order hands and actions are listed in."""
    return _SUIT_ORDER[suit_of(card_id)], _RANK_ORDER[rank_of(card_id)]


def can_add_to_private(stack: list[str], card_id: str) -> bool:
    """True when ``card_id`` is worth at least every card already in ``stack``.

    Stacks only ever rise, so the top card carries the largest value."""
    return not stack or card_value(card_id) >= card_value(stack[-1])


# ----- precomputed tables (legal actions are listed thousands of times per bot decision) --
DECK: tuple[str, ...] = tuple(standard_deck())
VALUE.update({c: card_value(c) for c in DECK})
IS_FACE.update({c: is_face(c) for c in DECK})
SORT_KEY: dict[str, tuple[int, int]] = {c: card_sort_key(c) for c in DECK}
NAME: dict[str, str] = {c: card_name(c) for c in DECK}
BIT: dict[str, int] = {
    c: (1 << (16 * SUITS.index(suit_of(c)) + VALUE[c])) if VALUE[c] > 0 else 0 for c in DECK
}
"""Each number card's bit, suit index i and value v at bit 16 * i + v (a face card: 0): a set
of cards' number cards as one int."""
CODE: dict[str, int] = {
    c: BIT[c] if VALUE[c] > 0 else 1 << (16 * SUITS.index(suit_of(c)) + 12) for c in DECK
}
"""A card's part of a sum that tells, suit by suit in 16 bits, which number cards a set of
cards holds (:data:`BIT`) and how many face cards (bits 12 to 14: at most four)."""

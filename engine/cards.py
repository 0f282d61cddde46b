"""Cards, decks and seeded shuffling.

A card id is its rank followed by its suit: ranks ``A 2 3 4 5 6 7 8 9 10 J Q K``,
suits ``S H D C`` (``"10H"``, ``"QS"``). Games with two decks add a deck suffix
(``"7H#2"``) and jokers are ``"JK1"``..``"JK4"``; see the game module.

>>> rank_of("10H"), suit_of("10H")
('10', 'H')
>>> standard_deck()[:3]
['AS', '2S', '3S']
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def card(rank: str, suit: str) -> str:
    return f"{rank}{suit}"


def base_card(card_id: str) -> str:
    """The card without a deck suffix: ``"7H#2"`` -> ``"7H"``."""
    return card_id.split("#", 1)[0]


def rank_of(card_id: str) -> str:
    return base_card(card_id)[:-1]


def suit_of(card_id: str) -> str:
    return base_card(card_id)[-1]


def is_card(card_id: str) -> bool:
    base = base_card(card_id)
    return len(base) >= 2 and base[:-1] in RANKS and base[-1] in SUITS


def standard_deck() -> list[str]:
    """The 52 cards, suit by suit, A..K."""
    return [card(r, s) for s in SUITS for r in RANKS]


def card_name(card_id: str) -> str:
    """A short name for people: ``"10H"`` -> ``"10♥"``."""
    if card_id.startswith("JK"):
        return "Joker"
    base = base_card(card_id)
    return f"{base[:-1]}{SUIT_SYMBOLS.get(base[-1], base[-1])}"


def cards_text(cards: Iterable[str]) -> str:
    return " ".join(card_name(c) for c in cards)


def shuffled(cards: Iterable[str], rng: random.Random) -> list[str]:
    """A new shuffled list; sorts first so the result depends only on the multiset and ``rng``."""
    out = sorted(cards)
    shuffle(out, rng)
    return out


def _shuffle_inline(items: list[Any], rng: random.Random) -> None:
    """``random.Random.shuffle`` with its draws inlined: the same swaps from the same
    ``getrandbits`` calls, without two Python calls a card (the search shuffles the unseen
    cards of every world it samples)."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _inline_matches() -> bool:
    """Whether this Python's ``Random.shuffle`` is the algorithm :func:`_shuffle_inline`
    repeats (it has been since Python 3.11): checked once, on a few lists and seeds."""
    for seed in range(4):
        for size in (0, 1, 2, 3, 7, 13, 52, 108):
            a, b = list(range(size)), list(range(size))
            one, two = random.Random(seed), random.Random(seed)
            one.shuffle(a)
            _shuffle_inline(b, two)
            if a != b or one.getstate() != two.getstate():
                return False
    return True


_INLINE = _inline_matches()


def shuffle(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same order and the same draws, faster for a plain
    ``random.Random`` (any other kind of rng shuffles by its own method).

    >>> a, b = list(range(20)), list(range(20))
    >>> random.Random(3).shuffle(a); shuffle(b, random.Random(3)); a == b
    True
    """
    if _INLINE and type(rng) is random.Random:
        _shuffle_inline(items, rng)
    else:
        rng.shuffle(items)

"""General Mhing's pure rule helpers: card values, sequences and their scoring.

A laid sequence is three card ids listed from low to high; an Ace may sit at any position
and then stands for the rank that position needs (``["7H", "AH", "9H"]``: the Ace is an 8).
``["AH", "2H", "3H"]`` is the Ace standing for itself, as 1.

>>> score_sequences([["7H", "8H", "9H"], ["10H", "JH", "QH"], ["7S", "8S", "9S"]])
5
>>> sequence_problem(["QH", "KH", "AH"])
'no wrap-around: nothing ranks above the King'
>>> [s for s in sequences_in(["7H", "9H", "AH"])]
[('7H', 'AH', '9H')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import reduce
from itertools import combinations
from operator import or_

from engine.cards import RANKS, SUITS, card_name, is_card, standard_deck

RANK_VALUE: dict[str, int] = {rank: number for number, rank in enumerate(RANKS, 1)}
"""A=1 .. K=13: the Ace's natural value, used when it stands for itself."""

DECK: tuple[str, ...] = tuple(standard_deck())
SUIT_OF: dict[str, str] = {c: c[-1] for c in DECK}
VALUE_OF: dict[str, int] = {c: RANK_VALUE[c[:-1]] for c in DECK}
SORT_KEY: dict[str, int] = {c: i for i, c in enumerate(DECK)}
"""Suit by suit, Ace to King: the order hands and action lists are shown in."""
CARD_AT: dict[tuple[str, int], str] = {(SUIT_OF[c], VALUE_OF[c]): c for c in DECK}

_SUIT_WIDTH = 14
"""Bits per suit in a card set's bit form: bit ``14 * suit index + value`` stands for a card."""
CARD_BIT: dict[str, int] = {
    c: 1 << (_SUIT_WIDTH * SUITS.index(SUIT_OF[c]) + VALUE_OF[c]) for c in DECK
}
"""Each card's bit: a set of cards is the OR of its cards' bits (see :func:`card_bits`)."""
SUIT_FIELDS: tuple[int, ...] = tuple(0x3FFE << (_SUIT_WIDTH * i) for i in range(len(SUITS)))
"""Per suit, in ``SUITS`` order, the bits of its 13 cards: ``bits & field`` is that suit's part."""
SUIT_FIELD: dict[str, int] = {c: SUIT_FIELDS[SUITS.index(SUIT_OF[c])] for c in DECK}
"""The field of each card's suit."""

HIGH_LOW_PIVOT = 7
"""The rank every card must be at or below (low) or at or above (high) for the bonus."""

HAND_SIZE = 7
SEQUENCES_TO_END = 4
"""A player who lays a fourth sequence ends the round."""
MAX_PLAYERS = 4
TARGETS = (14, 20)


def is_ace(card_id: str) -> bool:
    return card_id[0] == "A"


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=SORT_KEY.__getitem__)


def card_bits(cards: Iterable[str]) -> int:
    """The bit form of a set of cards (OR of :data:`CARD_BIT`); KeyError for a non-card.

    >>> card_bits(["2S", "AH"]) & SUIT_FIELDS[0] == CARD_BIT["2S"]
    True
    """
    return reduce(or_, map(CARD_BIT.__getitem__, cards), 0)


def sequence_ranks(sequence: Sequence[str]) -> tuple[int, int, int]:
    """The three ranks a laid sequence stands for, an Ace taking its position's rank.

    >>> sequence_ranks(["JS", "QS", "AS"])
    (11, 12, 13)
    """
    for index, card_id in enumerate(sequence):
        if not is_ace(card_id) or index == 0 and len(sequence) > 1 and VALUE_OF[sequence[1]] == 2:
            low = VALUE_OF[card_id] - index
            return (low, low + 1, low + 2)
    raise ValueError(f"{list(sequence)!r} has no natural card to fix its ranks")


def sequence_problem(cards: Sequence[str]) -> str | None:
    """Why ``cards`` (listed low to high) is not a valid sequence, or None when it is."""
    if len(cards) != 3:
        return "a sequence is exactly three cards"
    if not all(c in VALUE_OF for c in cards):
        bad = next(c for c in cards if c not in VALUE_OF)
        return f"{bad!r} is not a card" if not is_card(bad) else f"{bad!r} is not in this game"
    if len(set(cards)) != 3:
        return "a sequence needs three different cards"
    if len({SUIT_OF[c] for c in cards}) != 1:
        return "all three cards of a sequence must be the same suit"
    ace_as_one = is_ace(cards[0]) and VALUE_OF[cards[1]] == 2
    naturals = [(i, c) for i, c in enumerate(cards) if ace_as_one or not is_ace(c)]
    index, anchor = naturals[0]
    low = VALUE_OF[anchor] - index
    for i, c in naturals:
        if VALUE_OF[c] != low + i:
            return "the ranks must follow one another with no gap, listed low to high"
    if low < 1:
        return "no wrap-around: nothing ranks below the Ace"
    if low + 2 > 13:
        return "no wrap-around: nothing ranks above the King"
    return None


def sequences_in(cards: Iterable[str], must_use: str | None = None) -> list[tuple[str, ...]]:
    """Every valid sequence that can be made from ``cards``, in a fixed order.

    With ``must_use``, only those containing that card (taking the discard). The order is
    suit by suit, lowest run first, natural runs before the ones that use the Ace.
    """
    bits = card_bits(cards)
    out: list[tuple[str, ...]] = []
    for field in SUIT_FIELDS:
        suit_bits = bits & field
        if suit_bits:
            out.extend(suit_sequences(suit_bits))
    if must_use is not None:
        out = [s for s in out if must_use in s]
    return out


def suit_sequences(suit_bits: int) -> tuple[tuple[str, ...], ...]:
    """The sequences of :func:`sequences_in` within one suit, given that suit's part of a
    card set's bit form (``card_bits(cards) & field``, not 0)."""
    # The sequences of one suit depend only on which of its ranks are present, so they
    # are listed once per suit part and memoised: bots list them constantly.
    found = _SUIT_SEQUENCES.get(suit_bits)
    if found is None:
        index = (suit_bits.bit_length() - 1) // _SUIT_WIDTH
        low = _SUIT_WIDTH * index
        found = _SUIT_SEQUENCES[suit_bits] = _suit_sequences(
            SUITS[index], {v for v in range(1, 14) if suit_bits >> (low + v) & 1}
        )
    return found


_SUIT_SEQUENCES: dict[int, tuple[tuple[str, ...], ...]] = {}
"""Memo of :func:`suit_sequences` by a suit's part of a bit form; at most 4 x 8191 entries."""


def _suit_sequences(suit: str, values: set[int]) -> tuple[tuple[str, ...], ...]:
    """The sequences of :func:`sequences_in` within one suit holding rank ``values``."""
    if len(values) < 3 and not (len(values) == 2 and 1 in values):
        return ()
    out: list[tuple[str, ...]] = []
    has_ace = 1 in values
    if has_ace and 2 in values and 3 in values:
        out.append((CARD_AT[suit, 1], CARD_AT[suit, 2], CARD_AT[suit, 3]))
    for low in range(2, 12):
        run = (low, low + 1, low + 2)
        missing = [v for v in run if v not in values]
        if not missing:
            out.append(tuple(CARD_AT[suit, v] for v in run))
        if has_ace and len(missing) <= 1:
            # The Ace fills the gap; with a complete run it may also replace any card.
            fills = missing if missing else list(run)
            for gap in fills:
                out.append(tuple(CARD_AT[suit, 1] if v == gap else CARD_AT[suit, v] for v in run))
    return tuple(out)


def _pair_matches(a: tuple[int, int, int, str], b: tuple[int, int, int, str]) -> int:
    points = 0
    if a[3] == b[3]:
        points += 1
    if a[0] == b[0]:
        points += 1
    if a[2] + 1 == b[0] or b[2] + 1 == a[0]:
        points += 1
    return points


def _sequence_facts(sequences: Sequence[Sequence[str]]) -> list[tuple[int, int, int, str]]:
    """(low, middle, high rank, suit) of each sequence; ValueError for a non-sequence."""
    facts = []
    for seq in sequences:
        key = tuple(seq)
        fact = _FACTS.get(key)
        if fact is None:
            problem = sequence_problem(key)
            if problem is not None:
                raise ValueError(f"{list(seq)!r} is not a sequence: {problem}")
            low, mid, high = sequence_ranks(key)
            fact = _FACTS[key] = (low, mid, high, SUIT_OF[key[0]])
        facts.append(fact)
    return facts


_FACTS: dict[tuple[str, ...], tuple[int, int, int, str]] = {}
"""Memo of :func:`_sequence_facts` for valid sequences only (a few hundred at most): bots
score hypothetical sequences thousands of times a decision."""


def score_breakdown(sequences: Sequence[Sequence[str]]) -> list[dict[str, object]]:
    """Every point ``sequences`` score, one entry each, in the order the table lists them.

    A pair match is ``{"kind": "suit" | "ranks" | "order", "between": [i, j]}`` (indexes
    into ``sequences``, i < j); the bonus is ``{"kind": "high" | "low", "between": []}``
    (``"low"`` when every rank is 7 or lower, else ``"high"``).
    ``len(score_breakdown(s)) == score_sequences(s)``.

    >>> [m["kind"] for m in score_breakdown([["7H", "8H", "9H"], ["10H", "JH", "QH"]])]
    ['suit', 'order', 'high']
    """
    facts = _sequence_facts(sequences)
    out: list[dict[str, object]] = []
    for (i, a), (j, b) in combinations(enumerate(facts), 2):
        if a[3] == b[3]:
            out.append({"kind": "suit", "between": [i, j]})
        if a[0] == b[0]:
            out.append({"kind": "ranks", "between": [i, j]})
        if a[2] + 1 == b[0] or b[2] + 1 == a[0]:
            out.append({"kind": "order", "between": [i, j]})
    if facts:
        if all(f[2] <= HIGH_LOW_PIVOT for f in facts):
            out.append({"kind": "low", "between": []})
        elif all(f[0] >= HIGH_LOW_PIVOT for f in facts):
            out.append({"kind": "high", "between": []})
    return out


def score_sequences(sequences: Sequence[Sequence[str]]) -> int:
    """A player's round score: matches over every pair of sequences, plus high/low.

    Each pair scores 1 for the same suit, 1 for the same three ranks and 1 when one starts
    right after the other ends; the bonus point comes when every rank is 7 or lower, or
    every rank is 7 or higher (an Ace counts as the rank it stands for).

    >>> score_sequences([["2H", "3H", "4H"], ["5H", "6H", "7H"],
    ...                  ["8H", "9H", "10H"], ["JH", "QH", "KH"]])
    9
    """
    facts = _sequence_facts(sequences)
    total = 0
    for a, b in combinations(facts, 2):
        total += _pair_matches(a, b)
    if facts:
        if all(f[2] <= HIGH_LOW_PIVOT for f in facts) or all(f[0] >= HIGH_LOW_PIVOT for f in facts):
            total += 1
    return total


def added_score(sequences: Sequence[Sequence[str]], new: Sequence[str]) -> int:
    """``score_sequences(sequences + [new]) - score_sequences(sequences)``, counted without
    scoring ``sequences`` twice: the new sequence's matches with each one, and the change of
    the high/low bonus. Bots ask this of every run a hand could make.

    >>> seqs = [["7H", "8H", "9H"], ["10H", "JH", "QH"]]
    >>> added_score(seqs, ["7S", "8S", "9S"]), score_sequences(seqs + [["7S", "8S", "9S"]]) - 3
    (2, 2)
    >>> added_score([], ["2H", "3H", "4H"])
    1
    """
    (fact,) = _sequence_facts([new])
    return adder(sequences)(fact)


Facts = tuple[int, int, int, str]
"""(low, middle, high rank, suit) of a sequence: all that scoring reads of it."""


def run_facts(suit: str, low: int) -> Facts:
    """The facts of the natural run ``low``-``low + 2`` of ``suit``, as :func:`adder` takes them."""
    return (low, low + 1, low + 2, suit)


def adder(sequences: Sequence[Sequence[str]]) -> Callable[[Facts], int]:
    """:func:`added_score` against these ``sequences``, for a new sequence given by its facts,
    with the sequences' facts and high/low bonus worked out once: a bot asks it of many runs
    against the same sequences. The answers are remembered per set of sequences (a seat's
    laid sequences change a few times a round; the rollouts ask thousands of times)."""
    return _adder_of(tuple(_sequence_facts(sequences)))


def _adder_of(facts: tuple[Facts, ...]) -> Callable[[Facts], int]:
    """The adder of the sequences of these facts, made once per set of facts (kept in
    :data:`_ADDED` with the answers it remembers)."""
    found = _ADDED.get(facts)
    if found is not None:
        return found
    if len(_ADDED) >= _ADDED_MAX:
        _ADDED.clear()
    memo: dict[Facts, int] = {}
    low = all(f[2] <= HIGH_LOW_PIVOT for f in facts)
    high = all(f[0] >= HIGH_LOW_PIVOT for f in facts)
    before = int(bool(facts) and (low or high))

    def added(fact: Facts) -> int:
        gain = memo.get(fact)
        if gain is None:
            gain = 0
            for other in facts:
                gain += _pair_matches(other, fact)
            after = (low and fact[2] <= HIGH_LOW_PIVOT) or (high and fact[0] >= HIGH_LOW_PIVOT)
            gain = memo[fact] = gain + int(after) - before
        return gain

    _ADDED[facts] = added
    return added


_ADDED: dict[tuple[Facts, ...], Callable[[Facts], int]] = {}
"""Each set of sequences' adder (which remembers its answers), by the sequences' facts;
emptied when it holds ``_ADDED_MAX`` sets of sequences."""
_ADDED_MAX = 4096


def sequence_text(sequence: Sequence[str]) -> str:
    """``7♥ A♥(8) 9♥``: an Ace shows the rank it stands for when it is wild."""
    ranks = sequence_ranks(sequence)
    parts = []
    for card_id, value in zip(sequence, ranks, strict=False):
        name = card_name(card_id)
        parts.append(f"{name}({RANKS[value - 1]})" if is_ace(card_id) and value != 1 else name)
    return " ".join(parts)


def ace_stands_for(sequence: Sequence[str]) -> str | None:
    """The natural card a wild Ace replaces in ``sequence`` (None: no Ace, or Ace as 1)."""
    key = tuple(sequence)
    if key in _ACE_STANDS_FOR:  # memoised: the legal actions ask for every laid sequence
        return _ACE_STANDS_FOR[key]
    ranks = sequence_ranks(sequence)
    natural = None
    for card_id, value in zip(sequence, ranks, strict=False):
        if is_ace(card_id) and value != 1:
            natural = CARD_AT[SUIT_OF[card_id], value]
            break
    _ACE_STANDS_FOR[key] = natural
    return natural


_ACE_STANDS_FOR: dict[tuple[str, ...], str | None] = {}

"""Crisps' tables and pure rules: the deck, combinations (:func:`classify`), what may follow
what, and whether any unseen hand could beat a play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

from engine.cards import card_name

NUMBER_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10")
SUIT_ORDER: tuple[str, ...] = ("C", "D", "H", "S")  # alphabetical, as in "play:5D,5S"
SPECIAL_VALUE = 11  # the Queen (or the Jack with special rank runs) ranks above 10
TARGET_SCORE = 3
HAND_SIZE = 12
REMOVED_COUNT = 4
ORDINARY = ("single", "pair", "run", "pair_run")
SPECIALS = ("three", "four")
_NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)

# Sort key of every card id either mode can use: rank value first, then suit.
CARD_KEY: dict[str, tuple[int, int]] = {
    f"{rank}{suit}": (value, SUIT_ORDER.index(suit))
    for value, rank in [(int(r), r) for r in NUMBER_RANKS]
    + [(SPECIAL_VALUE, "Q"), (SPECIAL_VALUE, "J")]
    for suit in SUIT_ORDER
}


NAMES: dict[str, str] = {c: card_name(c) for c in CARD_KEY}


def special_rank(options: dict[str, Any] | None = None) -> str:
    """``"J"`` when Queens are played as Jacks (special rank runs), else ``"Q"``."""
    return "J" if options and options.get("special_rank_runs") else "Q"


def deck_for(options: dict[str, Any] | None = None) -> list[str]:
    """The forty cards of a round, sorted."""
    return [f"{r}{s}" for r in NUMBER_RANKS + (special_rank(options),) for s in SUIT_ORDER]


def card_key(card_id: str) -> tuple[int, int]:
    return CARD_KEY[card_id]


def rank_value(card_id: str) -> int:
    return CARD_KEY[card_id][0]


def sort_cards(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=CARD_KEY.__getitem__)


class Combination(NamedTuple):
    """What a set of cards is: ``kind`` (single, pair, run, pair_run, three, four),
    ``length`` (number of cards), ``rank`` (the top rank's value, Q/J = 11) and whether it
    holds a card of the special rank (the Queen rule)."""

    kind: str
    length: int
    rank: int
    has_special: bool

    @property
    def special(self) -> bool:
        return self.kind in SPECIALS


def _rank_word(value: int, special: str) -> str:
    return {SPECIAL_VALUE: {"Q": "Queen", "J": "Jack"}[special]}.get(value, str(value))


def kind_name(combo: Combination) -> str:
    """``"pair"``, ``"run of three"``, ``"run of two pairs"``, ``"four of a kind"``..."""
    if combo.kind == "run":
        return f"run of {_NUMBER_WORDS[combo.length]}"
    if combo.kind == "pair_run":
        return f"run of {_NUMBER_WORDS[combo.length // 2]} pairs"
    return {"three": "three of a kind", "four": "four of a kind"}.get(combo.kind, combo.kind)


def describe(combo: Combination, special: str = "Q") -> str:
    """Short words for a combination: ``"pair of 7s"``, ``"run of three to 9"``."""
    words = _DESCRIPTIONS.get((combo, special))  # memoised: every play is described
    if words is None:
        words = _DESCRIPTIONS[combo, special] = _describe(combo, special)
    return words


_DESCRIPTIONS: dict[tuple[Combination, str], str] = {}


def _describe(combo: Combination, special: str) -> str:
    top = _rank_word(combo.rank, special)
    if combo.kind == "single":
        return f"single {top}"
    if combo.kind in ("pair", "three", "four"):
        count = {"pair": "pair of", "three": "three", "four": "four"}[combo.kind]
        return f"{count} {top}s"
    return f"{kind_name(combo)} up to {top}"


SHAPES: dict[tuple[tuple[str, ...], str], Combination] = {}
"""Memo of :func:`_shape` for real combinations (a finite set): the play to beat is
classified on every listing of the legal actions and every view."""


def _shape(cards: Sequence[str], options: dict[str, Any] | None) -> tuple[Combination | None, str]:
    """The combination the cards form, or None and the reason they form none."""
    special = special_rank(options)
    try:
        key = (tuple(cards), special)
        combo = SHAPES.get(key)
    except TypeError:  # unhashable junk: not a combination, the slow path says why
        key, combo = None, None
    if combo is not None:
        return combo, ""
    combo, reason = _shape_of(cards, special)
    if combo is not None and key is not None:
        SHAPES[key] = combo
    return combo, reason


def _shape_of(cards: Sequence[str], special: str) -> tuple[Combination | None, str]:
    if not cards:
        return None, "choose at least one card"
    for c in cards:
        if c not in CARD_KEY or (c[:-1] in ("Q", "J") and c[:-1] != special):
            return None, f"{c!r} is not a card of this game"
    if len(set(cards)) != len(cards):
        return None, "each card can only be used once"
    counts = Counter(CARD_KEY[c][0] for c in cards)
    ranks = sorted(counts)
    has_special = SPECIAL_VALUE in counts
    n = len(cards)
    if len(ranks) == 1:
        kind = {1: "single", 2: "pair", 3: "three", 4: "four"}[n]
        return Combination(kind, n, ranks[0], has_special), ""
    widths = set(counts.values())
    if n == 2:
        return None, "two different ranks are not a combination (a run needs three or more)"
    consecutive = ranks[-1] - ranks[0] == len(ranks) - 1
    if not consecutive:
        return None, "the ranks of a run must follow on without a gap"
    if widths == {1}:
        if len(ranks) < 3:
            return None, "two different ranks are not a combination (a run needs three or more)"
        kind = "run"
    elif widths == {2}:
        kind = "pair_run"
    else:
        return None, (
            "a run has either one card of each rank (a run of singles) or two of "
            "each (a run of pairs)"
        )
    if has_special and special == "Q":
        return None, "a Queen cannot be part of a run"
    return Combination(kind, n, ranks[-1], has_special), ""


def classify(cards: Sequence[str], options: dict[str, Any] | None = None) -> Combination | None:
    """The :class:`Combination` the cards form, or None if they form none.

    >>> classify(["5D", "5S"])
    Combination(kind='pair', length=2, rank=5, has_special=False)
    >>> runs = {"special_rank_runs": True}
    >>> classify(["9C", "10D", "QH"]) is None, classify(["9C", "10D", "JH"], runs).kind
    (True, 'run')
    """
    return _shape(cards, options)[0]


def combination_problem(cards: Sequence[str], options: dict[str, Any] | None = None) -> str | None:
    """Why the cards form no combination, or None if they form one."""
    combo, reason = _shape(cards, options)
    return None if combo else reason


def beaten_by(previous: Combination, special: str = "Q") -> str:
    """What may follow ``previous``, in words: ``"a pair of 10s needs a pair of 10s or
    higher"``. The reason a play that does not fit is refused, whatever its shape."""
    words = describe(previous, special)
    if previous.special:
        if previous.length == 3:
            return f"{words} need three of a higher rank, or four of a kind"
        return f"{words} need four of a higher rank"
    need = f"a {words} needs a {words} or higher"
    if previous.has_special:
        word = {"Q": "Queen", "J": "Jack"}[special]
        need += f", or three or four of a kind (it holds a {word})"
    return need


def follow_problem(
    previous: Sequence[str] | None, play: Sequence[str], options: dict[str, Any] | None = None
) -> str | None:
    """Why ``play`` may not follow ``previous`` (None = leading), in words; None if it may.

    A play that does not fit is judged against the play to beat first: what that needs is
    the reason, and a run's own flaw is added only when it has the length to beat it."""
    combo, reason = _shape(play, options)
    if previous is None:
        return reason or None
    prev, prev_reason = _shape(previous, options)
    if prev is None:
        return f"the play to beat is not a combination ({prev_reason})"
    special = special_rank(options)
    need = beaten_by(prev, special)
    if combo is None:
        if prev.kind in ("run", "pair_run") and len(play) == prev.length:
            return f"{need}; {reason}"
        return need
    if prev.special:
        if not combo.special:
            return f"nothing ordinary can follow a special: {need}"
        if combo.length > prev.length or (combo.length == prev.length and combo.rank > prev.rank):
            return None
        return need
    if combo.special:
        if prev.has_special:
            return None
        word = {"Q": "Queen", "J": "Jack"}[special]
        return f"three or four of a kind can only follow a play that contains a {word}: {need}"
    if combo.kind != prev.kind or combo.length != prev.length or combo.rank < prev.rank:
        return need
    return None


def can_follow(
    previous: Sequence[str] | None, play: Sequence[str], options: dict[str, Any] | None = None
) -> bool:
    """True if ``play`` may be played on ``previous`` (None: leading, any combination).

    >>> can_follow(["7H"], ["7S"]), can_follow(["QH"], ["3C", "3D", "3H"])
    (True, True)
    >>> can_follow(["7H", "8H", "9H"], ["3C", "3D", "3H"])
    False
    """
    return follow_problem(previous, play, options) is None


def public_could_beat(
    previous: Combination, pool: Counter[int], hand_size: int, runs_with_special: bool = False
) -> bool:
    """Could any play beat ``previous``, given how many cards of each rank might still be in
    a hand (``pool``: unseen copies per rank value) and the follower's hand size?"""

    def has(size: int, above: int) -> bool:
        return hand_size >= size and any(n >= size for v, n in pool.items() if v > above)

    if previous.special:
        if previous.length == 3:
            return has(3, previous.rank) or has(4, 0)
        return has(4, previous.rank)
    if previous.has_special and has(3, 0):
        return True
    if hand_size < previous.length:
        return False
    if previous.kind in ("single", "pair"):
        return has(previous.length, previous.rank - 1)
    width = 1 if previous.kind == "run" else 2
    span = previous.length // width
    top_allowed = SPECIAL_VALUE if runs_with_special else 10
    for top in range(previous.rank, top_allowed + 1):
        if all(pool.get(v, 0) >= width for v in range(top - span + 1, top + 1)):
            return True
    return False

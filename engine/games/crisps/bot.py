"""The greedy Crisps player: a heuristic that reads only its seat's view and legal actions.

The measure of a hand is how many plays it still needs (:func:`plays_needed`, the fewest
combinations that cover it). The policy sheds the play that leaves the fewest plays
behind, leads low and long, keeps Queens and three/four of a kind for when they matter,
passes rather than break a combination unless the opponent is about to go out, and takes
whichever of the face-up and blind card leaves its hand in better shape.

>>> plays_needed(("5C", "5D", "6H", "6S", "9C"))
2
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from engine.bots.evaluation import Evaluator
from engine.bots.ismcts import SearchConfig
from engine.core import Action, BotSettings
from engine.games.crisps.rules import (
    SHAPES,
    SPECIAL_VALUE,
    Combination,
    public_could_beat,
    sort_cards,
)
from engine.games.crisps.state import _SEATS, CrispsState

SET_BREAK_PENALTY = 1.5


# Rank value of every card id (Q and J rank 11), and its index into a hand's rank counts.
_VALUES: dict[str, int] = {
    f"{rank}{suit}": SPECIAL_VALUE if rank in ("Q", "J") else int(rank)
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "Q", "J")
    for suit in "CDHS"
}
_INDEX: dict[str, int] = {card: value - 2 for card, value in _VALUES.items()}


def _counts(cards: Sequence[str]) -> tuple[int, ...]:
    counts = [0] * 10  # ranks 2..11
    for c in cards:
        counts[_INDEX[c]] += 1
    return tuple(counts)


@lru_cache(maxsize=200_000)
def _needed(counts: tuple[int, ...], runs_with_special: bool) -> int:
    """Fewest combinations covering ``counts`` (rank counts, ranks 2..11).

    No combination spans a rank the hand lacks (nor the special rank, unless runs may
    take it), so the count is the sum over the hand's stretches of ranks in a row, each
    worked out once (:func:`_stretch_needed`): far fewer stretches than hands exist."""
    top_index = 9 if runs_with_special else 8
    total = 0
    for i, j in _stretches(counts, 0, 10, top_index):
        total += _stretch_needed(i, counts[i:j], runs_with_special)
    return total


def _stretches(
    counts: Sequence[int], start: int, end: int, top_index: int = 9
) -> Iterator[tuple[int, int]]:
    """The stretches of ranks in a row that ``counts`` holds between indexes ``start`` and
    ``end``, as (first, past the last) index pairs; a stretch goes no further than
    ``top_index`` (8: the special rank, index 9, stands alone)."""
    i = start
    while i < end:
        if not counts[i]:
            i += 1
            continue
        j = i + 1
        while j < end and counts[j] and j <= top_index:
            j += 1
        yield i, j
        i = j


@lru_cache(maxsize=200_000)
def _stretch_needed(start: int, stretch: tuple[int, ...], runs_with_special: bool) -> int:
    """:func:`_needed` of a hand holding only ``stretch``, ranks in a row from index ``start``."""
    counts = [0] * 10
    counts[start : start + len(stretch)] = stretch
    return _cover(tuple(counts), runs_with_special)


def _cover(counts: tuple[int, ...], runs_with_special: bool) -> int:
    """Fewest combinations covering ``counts``: the lowest rank present must start one."""
    low = next((i for i, n in enumerate(counts) if n), None)
    if low is None:
        return 0
    best = 99
    top_index = 9 if runs_with_special else 8
    # Sets of the lowest rank (single, pair, three, four).
    for size in range(1, counts[low] + 1):
        rest = list(counts)
        rest[low] -= size
        best = min(best, 1 + _needed(tuple(rest), runs_with_special))
    # Runs starting at the lowest rank, of singles (3+) and of pairs (2+).
    for width, least in ((1, 3), (2, 2)):
        end = low
        rest = list(counts)
        while end <= top_index and counts[end] >= width:
            rest[end] -= width
            end += 1
            if end - low >= least:
                best = min(best, 1 + _needed(tuple(rest), runs_with_special))
    return best


def plays_needed(cards: Sequence[str], runs_with_special: bool = False) -> int:
    """The fewest combinations the cards can be played out in."""
    return _needed(_counts(cards), runs_with_special)


_Facts = tuple[tuple[int, ...], int, float, bool, bool, tuple[int, ...], int]


def _facts(cards: tuple[str, ...]) -> _Facts:
    """What :func:`_play_cost` reads of a play, whatever the hand: its cards' count indexes,
    its size, its highest value's share of the cost, whether it is one rank, whether it
    spends a Queen, its distinct count indexes, and its cards' :data:`_WEIGHT` sum (what it
    takes off a hand's code)."""
    values = [_VALUES[c] for c in cards]
    return (
        tuple(_INDEX[c] for c in cards),
        len(cards),
        0.01 * max(values),
        len(set(values)) == 1,
        SPECIAL_VALUE in values,
        tuple(sorted({_INDEX[c] for c in cards})),
        sum(_WEIGHT[c] for c in cards),
    )


_FACTS: dict[tuple[str, ...], _Facts] = {}
""":func:`_facts` by the play's cards (a few thousand plays exist)."""

# A hand's rank counts as one int, the count of index i its base-5 digit i (a rank has at
# most four cards): a play's or a drawn card's effect on the counts is one addition, and the
# count of plays a hand needs is one dict look-up by that int.
_BASE = tuple(5**i for i in range(10))
_WEIGHT: dict[str, int] = {card: _BASE[i] for card, i in _INDEX.items()}
_NEEDED_KEPT = 400_000  # codes per flavour of the rules (a few MB)
_NEEDED_BY_CODE: tuple[dict[int, int], dict[int, int]] = ({}, {})
"""By ``runs_with_special``: :func:`_needed` of the counts a code stands for."""


def _code(cards: Sequence[str]) -> int:
    """The rank counts of ``cards`` as one int (see :data:`_WEIGHT`)."""
    return sum(map(_WEIGHT.__getitem__, cards))


_DIGITS = tuple(
    (a, b, c, d, e)
    for e in range(5)
    for d in range(5)
    for c in range(5)
    for b in range(5)
    for a in range(5)
)
"""By a code below 5**5: its five base-5 digits, the lowest first."""


_FULL_CODE = 4 * sum(_BASE)
"""The code of a whole deck's rank counts (four of each)."""
_SPECIAL_WEIGHT = _BASE[SPECIAL_VALUE - 2]
"""The code of one card of the special rank."""


def _needed_of_code(code: int, runs_with_special: bool) -> int:
    """:func:`_needed` of the counts ``code`` stands for (remembered by the code).

    Worked out from the code's two halves (ranks 2 to 6, 7 to 11): the stretches within one
    half are summed once for that half (:func:`_low_part`, :func:`_high_part`), and only
    the stretch across the middle, the low half's last joined to the high half's first, is
    looked up for the whole code."""
    memo = _NEEDED_BY_CODE[runs_with_special]
    n = memo.get(code)
    if n is None:
        high, low = divmod(code, 3125)
        low_part = _LOW_PARTS[runs_with_special].get(low) or _low_part(low, runs_with_special)
        high_part = _HIGH_PARTS[runs_with_special].get(high) or _high_part(high, runs_with_special)
        n = low_part[0] + high_part[0]
        across = low_part[2] + high_part[1]
        if across:
            start = low_part[1] if low_part[2] else 5
            n += _stretch_needed(start, across, runs_with_special)
        if len(memo) < _NEEDED_KEPT:
            memo[code] = n
    return n


_LOW_PARTS: tuple[dict[int, tuple[int, int, tuple[int, ...]]], ...] = ({}, {})
"""By ``runs_with_special``, then a code's low half: :func:`_low_part`."""
_HIGH_PARTS: tuple[dict[int, tuple[int, tuple[int, ...]]], ...] = ({}, {})
"""By ``runs_with_special``, then a code's high half: :func:`_high_part`."""


def _low_part(low: int, runs_with_special: bool) -> tuple[int, int, tuple[int, ...]]:
    """Of the counts of ranks 2 to 6 that ``low`` (below 5**5) stands for: the plays needed
    by their stretches that end before rank 6, and the start and counts of the stretch
    that reaches it (none: 0 and an empty tuple)."""
    counts = _DIGITS[low]
    inner = 0
    out: tuple[int, int, tuple[int, ...]] = (0, 0, ())
    for i, j in _stretches(counts, 0, 5):
        if j == 5:
            out = (inner, i, counts[i:])
        else:
            inner += _stretch_needed(i, counts[i:j], runs_with_special)
    if not out[2]:
        out = (inner, 0, ())
    _LOW_PARTS[runs_with_special][low] = out
    return out


def _high_part(high: int, runs_with_special: bool) -> tuple[int, tuple[int, ...]]:
    """Of the counts of ranks 7 to 11 that ``high`` (below 5**5) stands for: the plays
    needed by their stretches that start after rank 7, and the counts of the stretch that
    starts there (none: an empty tuple); the special rank joins a stretch only when runs
    may take it, as in :func:`_needed`."""
    counts = (0,) * 5 + _DIGITS[high]
    top_index = 9 if runs_with_special else 8
    inner = 0
    head: tuple[int, ...] = ()
    for i, j in _stretches(counts, 5, 10, top_index):
        if i == 5:
            head = counts[5:j]
        else:
            inner += _stretch_needed(i, counts[i:j], runs_with_special)
    out = (inner, head)
    _HIGH_PARTS[runs_with_special][high] = out
    return out


def _play_cost(
    hand_counts: tuple[int, ...],
    hand_size: int,
    cards: tuple[str, ...],
    opponent_left: int,
    leading: bool,
    runs_with_special: bool,
) -> float:
    """Lower is better: plays left afterwards, minus a little for shedding many cards, plus
    the price of spending Queens and sets while the opponent is far from going out.

    ``hand_counts`` and ``hand_size`` describe the hand, worked out once for all its plays.
    (The definition; the policy works the same sums out with :func:`_best_play`.)"""
    facts = _FACTS.get(cards)
    if facts is None:
        facts = _FACTS[cards] = _facts(cards)
    indexes, size, high, same_rank, spends_queen, distinct, _ = facts
    left = hand_size - size
    if not left:
        return -100.0
    after = list(hand_counts)
    for i in indexes:
        after[i] -= 1
    cost = _needed(tuple(after), runs_with_special) - 0.05 * size
    if not (opponent_left <= 3 or left <= 2):
        if same_rank and size >= 3:
            cost += 0.8  # three/four of a kind is the answer to a Queen: keep it
        if spends_queen and not runs_with_special:
            cost += 0.6  # a Queen wins tricks and opens the door to specials
        if not same_rank or size < 3:
            for i in distinct:
                if hand_counts[i] >= 3:
                    cost += SET_BREAK_PENALTY  # splitting three/four of a kind: a special lost
                    break
    # Lead low and keep high cards for following; follow as low as allowed.
    cost += high
    if leading:
        cost -= 0.02 * size
    return cost


def _best_play(
    hand: Sequence[str],
    plays: Sequence[Action],
    pass_action: Action | None,
    opponent_left: int,
    leading: bool,
    runs_with_special: bool,
) -> Action:
    """The greedy's play phase: of ``plays`` (the legal moves that play cards, in the listing's
    order, at least one), the one of least :func:`_play_cost` (the first of equals), or
    ``pass_action`` (None: passing is not legal) when following with it costs too much.
    The same sums as :func:`_play_cost`, in the same order, with the hand's counts as one
    code (see :data:`_WEIGHT`)."""
    hand_code = _code(hand)
    hand_size = len(hand)
    memo = _NEEDED_BY_CODE[runs_with_special]
    far = not opponent_left <= 3
    queen_costs = not runs_with_special
    facts_of = _FACTS
    best_cost = 0.0
    best: Action | None = None
    hand_counts: tuple[int, ...] | None = None
    for action in plays:
        cards = action.cards
        facts = facts_of.get(cards)
        if facts is None:
            facts = facts_of[cards] = _facts(cards)
        size = facts[1]
        left = hand_size - size
        if not left:
            cost = -100.0
        else:
            code = hand_code - facts[6]
            n = memo.get(code)
            if n is None:
                n = _needed_of_code(code, runs_with_special)
            cost = n - 0.05 * size
            if far and not left <= 2:
                same_rank = facts[3]
                if same_rank and size >= 3:
                    cost += 0.8
                if facts[4] and queen_costs:
                    cost += 0.6
                if not same_rank or size < 3:
                    if hand_counts is None:
                        hand_counts = _counts(hand)
                    for i in facts[5]:
                        if hand_counts[i] >= 3:
                            cost += SET_BREAK_PENALTY
                            break
            cost += facts[2]
            if leading:
                cost -= 0.02 * size
        if best is None or cost < best_cost:
            best_cost, best = cost, action
    assert best is not None
    if leading or pass_action is None:
        return best
    # Following keeps the initiative (the last player leads and chooses the draw), which is
    # worth one extra play later -- but not splitting a run of pairs or spending a Queen.
    now = _needed_of_code(hand_code, runs_with_special)
    if best_cost < now + 1.5 or opponent_left <= 2:
        return best
    return pass_action


def _takes_face_up(
    hand: Sequence[str],
    played: Sequence[str],
    face_up: str,
    opponent_known: Sequence[str],
    runs_with_special: bool,
) -> bool:
    """The greedy's draw: whether the face-up card leaves the hand in better shape than the
    blind card, which is one of the cards nobody has seen (averaged over those)."""
    weigh = _WEIGHT.__getitem__
    return _takes_face_up_code(
        sum(map(weigh, hand)),
        sum(map(weigh, played)),
        _WEIGHT[face_up],
        sum(map(weigh, opponent_known)) if opponent_known else 0,
        runs_with_special,
    )


def _takes_face_up_code(
    hand_code: int, played_code: int, face_up: int, known_code: int, runs_with_special: bool
) -> bool:
    """:func:`_takes_face_up` from the codes (see :data:`_WEIGHT`) of the hand, the played
    cards, the face-up card and the opponent's cards everybody saw."""
    # Every card is in one place, four of a rank: no digit of the unseen cards' code is negative.
    unseen_code = _FULL_CODE - hand_code - played_code - face_up - known_code
    high_code, low_code = divmod(unseen_code, 3125)
    unseen = _DIGITS[low_code] + _DIGITS[high_code]
    needed_of = _NEEDED_BY_CODE[runs_with_special].get
    total = sum(unseen)
    blind = 0.0
    if total:
        for n, base in zip(unseen, _BASE, strict=True):
            if n:
                code = hand_code + base  # the hand with one more card of this rank
                needed = needed_of(code)
                if needed is None:
                    needed = _needed_of_code(code, runs_with_special)
                blind += n * needed
        blind /= total
    open_card = _needed_of_code(hand_code + face_up, runs_with_special)
    bonus = 0.4 if face_up == _SPECIAL_WEIGHT else 0.0
    return open_card - bonus <= blind


def _draw_choice(view: dict[str, Any], legal: list[Action], runs_with_special: bool) -> Action:
    if len(legal) == 1:
        return legal[0]
    by_id = {a.id: a for a in legal}
    opponent = 1 - view["player"]
    if _takes_face_up(
        view["hand"],
        view["played"],
        view["face_up"],
        view["known_cards"][opponent],
        runs_with_special,
    ):
        return by_id["take:faceup"]
    return by_id["take:blind"]


def greedy(view: dict[str, Any], legal: list[Action], rng: random.Random | None) -> Action:
    """Choose an action from the seat's view and legal actions only."""
    runs_with_special = view["special_rank"] == "J"
    if view["phase"] == "draw":
        return _draw_choice(view, legal, runs_with_special)
    plays = [a for a in legal if a.cards]  # only plays move cards
    pass_action = next((a for a in legal if a.id == "pass"), None)
    if not plays:
        assert pass_action is not None
        return pass_action
    return _best_play(
        view["hand"],
        plays,
        pass_action,
        view["hand_sizes"][1 - view["player"]],
        view["to_beat"] is None,
        runs_with_special,
    )


# ----- the rollouts' greedy, on the hand's rank counts -------------------------------------
# A play's cost reads only its ranks (suits tell copies apart), so the plays that differ in
# suits only cost the same, and the listing puts them side by side, the one made of the
# lowest unseen cards first: the greedy's choice is the first play of the cheapest *shape*
# (a rank span and how many cards of each rank). The rollouts list the shapes from the
# hand's counts in the listing's order and make an Action for the one they choose only.

_Shape = tuple[int, int, float, bool, bool, int, int, int, int, float, float, int]
"""A shape's facts as :func:`_best_play` reads them for its plays -- the weight it takes off a
hand's code, its size, its highest value's share of the cost, whether it is three or four of
a kind, whether it spends a Queen, the bits of its count indexes when splitting three or
four of a kind would cost it the penalty (else 0) -- then its lowest rank value, the value
past its highest, its cards of each rank, 0.05 and 0.02 times its size, and its number
(:func:`_shape_id`)."""


def _shape_id(start: int, stop: int, width: int) -> int:
    """A shape's number, 1 or more (0 stands for no play to beat), below :data:`_SHAPE_IDS`."""
    return (width * 13 + start) * 13 + stop


_SHAPE_IDS = _shape_id(0, 0, 5)


def _shape(start: int, stop: int, width: int) -> _Shape:
    values = range(start, stop)
    size = width * len(values)
    same_rank = len(values) == 1
    return (
        sum(width * _BASE[v - 2] for v in values),
        size,
        0.01 * max(values),
        same_rank and size >= 3,
        SPECIAL_VALUE in values,
        0 if same_rank and size >= 3 else sum(1 << (v - 2) for v in values),
        start,
        stop,
        width,
        0.05 * size,
        0.02 * size,
        _shape_id(start, stop, width),
    )


_TOP = SPECIAL_VALUE + 1
_SHAPES: tuple[tuple[tuple[_Shape | None, ...], ...], ...] = tuple(
    tuple(
        tuple(
            _shape(start, stop, width) if 2 <= start < stop <= _TOP else None
            for stop in range(_TOP + 1)
        )
        for start in range(_TOP + 1)
    )
    for width in range(5)
)
"""By cards a rank, lowest rank value and the value past the highest: the shape's facts."""


_SETS: tuple[tuple[_Shape, ...], ...] = tuple(
    tuple(_SHAPES[size][v][v + 1] for v in range(2, _TOP)) if size else ()  # type: ignore[misc]
    for size in range(5)
)
"""By size: the shapes of that many cards of one rank, by count index (rank value - 2)."""


def _shape_combination(start: int, stop: int, width: int) -> Combination | None:
    """The combination a play of this shape is (as :func:`classify` has it), or None when no
    play has this shape (two ranks of singles, runs of three or four of a kind)."""
    ranks = stop - start
    if ranks == 1:
        kind = ("", "single", "pair", "three", "four")[width]
    elif width == 1 and ranks >= 3:
        kind = "run"
    elif width == 2:
        kind = "pair_run"
    else:
        return None
    return Combination(kind, width * ranks, stop - 1, start <= SPECIAL_VALUE < stop)


_COMBINATIONS: list[Combination | None] = [None] * _SHAPE_IDS
"""By shape number: :func:`_shape_combination` (None for no play to beat and for no play)."""
_SHAPE_OF: dict[Combination, _Shape] = {}
"""By combination: its shape."""
for _width in range(1, 5):
    for _start in range(2, _TOP):
        for _stop in range(_start + 1, _TOP + 1):
            _combination = _shape_combination(_start, _stop, _width)
            if _combination is not None:
                _COMBINATIONS[_shape_id(_start, _stop, _width)] = _combination
                _SHAPE_OF[_combination] = _SHAPES[_width][_start][_stop]  # type: ignore[assignment]


def _lead_shapes(
    out: list[_Shape], counts: tuple[int, ...], width: int, least: int, top_allowed: int
) -> None:
    """Add the runs of ``width`` cards a rank over ``least`` ranks or more (the listing's
    order: by lowest rank, then length)."""
    by_span = _SHAPES[width]
    start = 2
    while start <= top_allowed - least + 1:
        if counts[start - 2] < width:
            start += 1
            continue
        end = start + 1  # past the last rank of the longest run from start
        while end <= top_allowed and counts[end - 2] >= width:
            end += 1
        if end - start < least:
            start = end + 1  # no run starts in this stretch; the rank at end is missing
            continue
        for first in range(start, end - least + 1):
            out += by_span[first][first + least : end + 1]  # type: ignore[arg-type]
        start = end + 1


def _play_shapes(
    counts: tuple[int, ...], previous: Combination | None, runs_with_special: bool
) -> list[_Shape]:
    """The shapes of the plays the state's listing (``_play_actions``) makes from a hand of
    ``counts`` that may follow ``previous``, in the listing's order of their first plays."""
    top_allowed = SPECIAL_VALUE if runs_with_special else 10
    sets = _SETS
    if previous is None:
        out = [shape for n, shape in zip(counts, sets[1], strict=True) if n]
        pairs = [shape for n, shape in zip(counts, sets[2], strict=True) if n >= 2]
        out += pairs
        _lead_shapes(out, counts, 1, 3, top_allowed)
        if len(pairs) > 1:
            _lead_shapes(out, counts, 2, 2, top_allowed)
        if pairs and max(counts) >= 3:
            out += [shape for n, shape in zip(counts, sets[3], strict=True) if n >= 3]
            out += [shape for n, shape in zip(counts, sets[4], strict=True) if n == 4]
        return out
    kind, lo = previous.kind, previous.rank
    if kind in ("three", "four"):
        if previous.length == 3:
            out = [
                shape
                for n, shape in zip(counts[lo - 1 :], sets[3][lo - 1 :], strict=True)
                if n >= 3
            ]
            out += [shape for n, shape in zip(counts, sets[4], strict=True) if n == 4]
        else:
            out = [
                shape
                for n, shape in zip(counts[lo - 1 :], sets[4][lo - 1 :], strict=True)
                if n == 4
            ]
        return out
    if kind == "single":
        out = [shape for n, shape in zip(counts[lo - 2 :], sets[1][lo - 2 :], strict=True) if n]
    elif kind == "pair":
        out = [
            shape for n, shape in zip(counts[lo - 2 :], sets[2][lo - 2 :], strict=True) if n >= 2
        ]
    else:
        out = []
        width = 1 if kind == "run" else 2
        ranks = previous.length // width
        by_span = _SHAPES[width]
        for start in range(max(2, lo - ranks + 1), top_allowed - ranks + 2):
            stop = start + ranks
            for v in range(start, stop):
                if counts[v - 2] < width:
                    break
            else:
                out.append(by_span[start][stop])  # type: ignore[arg-type]
    if previous.has_special:  # the Queen rule: any three or four of a kind may follow
        out += [shape for n, shape in zip(counts, sets[3], strict=True) if n >= 3]
        out += [shape for n, shape in zip(counts, sets[4], strict=True) if n == 4]
    return out


def _shape_action(
    p: int, hand: list[str], known: list[str], shape: _Shape, counts: tuple[int, ...]
) -> Action:
    """The listing's first play of ``shape`` from ``hand`` (sorted; ``counts``: its rank
    counts): of each rank, as many of the cards the opponent has not seen as it can, the
    lowest first (see ``_choices``)."""
    width = shape[8]
    start, stop = shape[6], shape[7]
    i = sum(counts[: start - 2])  # where the hand's cards of the lowest rank start
    if not known:
        if stop == start + 1:
            return _SEATS[p].plays[tuple(hand[i : i + width])]
        cards: list[str] = []
        for v in range(start, stop):
            cards += hand[i : i + width]
            i += counts[v - 2]
        return _SEATS[p].plays[tuple(cards)]
    cards = []
    for v in range(start, stop):
        n = counts[v - 2]
        group = hand[i : i + n]
        i += n
        unseen = [c for c in group if c not in known]
        take = unseen[:width]
        if len(take) < width:
            take = sort_cards(take + [c for c in group if c in known][: width - len(take)])
        cards += take
    return _SEATS[p].plays[tuple(cards)]


def _choose_shape(
    hand_code: int, previous: Combination | None, opponent_left: int, runs_with_special: bool
) -> _Shape | None:
    """:func:`greedy`'s move in the play phase from a hand of code ``hand_code`` (see
    :data:`_WEIGHT`), the play to beat (None: leading) and the opponent's hand size: the
    shape of its play, or None for a pass. The same sums as :func:`_best_play` over the
    shapes of :func:`_play_shapes` instead of the listed plays."""
    high_code, low_code = divmod(hand_code, 3125)
    counts = _DIGITS[low_code] + _DIGITS[high_code]
    leading = previous is None
    shapes = _play_shapes(counts, previous, runs_with_special)
    if not shapes:
        return None
    hand_size = sum(counts)
    memo = _NEEDED_BY_CODE[runs_with_special]
    needed_of = memo.get
    far = not opponent_left <= 3
    queen_costs = not runs_with_special
    triples = -1  # the bits of the ranks held three or four times, once needed
    best_cost = 0.0
    best: _Shape | None = None
    for shape in shapes:
        weight, size, high, keeps_set, spends_queen, breaks, _, _, _, c05, c02, _ = shape
        left = hand_size - size
        if not left:
            cost = -100.0
        else:
            code = hand_code - weight
            n = needed_of(code)
            if n is None:
                n = _needed_of_code(code, runs_with_special)
            cost = n - c05
            if far and not left <= 2:
                if keeps_set:
                    cost += 0.8
                if spends_queen and queen_costs:
                    cost += 0.6
                if breaks:
                    if triples < 0:
                        triples = 0
                        for i, count in enumerate(counts):
                            if count >= 3:
                                triples |= 1 << i
                    if breaks & triples:
                        cost += SET_BREAK_PENALTY
            cost += high
            if leading:
                cost -= c02
        if best is None or cost < best_cost:
            best_cost, best = cost, shape
    assert best is not None
    if not leading:
        now = needed_of(hand_code)
        if now is None:
            now = _needed_of_code(hand_code, runs_with_special)
        if not (best_cost < now + 1.5 or opponent_left <= 2):
            return None
    return best


def _rollout_play(world: CrispsState, p: int, runs_with_special: bool) -> Action:
    """:func:`greedy`'s move in the play phase, from the world itself (see
    :func:`_choose_shape`): the listing's first play of the shape chosen, or the pass."""
    hands = world.hands
    hand = hands[p]
    hand_code = sum(map(_WEIGHT.__getitem__, hand))
    to_beat = world.to_beat
    if to_beat is None:
        previous = None
    else:
        previous = SHAPES.get((to_beat, world.special)) or world._to_beat_combo()
    shape = _choose_shape(hand_code, previous, len(hands[1 - p]), runs_with_special)
    if shape is None:
        return _SEATS[p].pass_action
    high_code, low_code = divmod(hand_code, 3125)
    counts = _DIGITS[low_code] + _DIGITS[high_code]
    return _shape_action(p, hand, world.known[p], shape, counts)


_CHOSEN_KEPT = 300_000  # per flavour of the rules (about 20 MB)
_CHOSEN: tuple[dict[int, _Shape | bool], dict[int, _Shape | bool]] = ({}, {})
"""By ``runs_with_special``, then :func:`_choice_key`: :func:`_choose_shape`'s answer (False
for a pass); filled up to ``_CHOSEN_KEPT`` answers."""


def _choice_key(hand_code: int, previous: int, opponent_left: int) -> int:
    """All that :func:`_choose_shape` reads, as one int: the hand's code, the number of the
    shape to beat (0: leading) and whether the opponent holds more than 2 and 3 cards."""
    return (hand_code * _SHAPE_IDS + previous) * 3 + (opponent_left > 2) + (opponent_left > 3)


def _round_rollout(
    world: CrispsState, max_steps: int, trace: list[tuple[Any, ...]] | None = None
) -> int:
    """The greedy policy at both seats until the round ends or ``max_steps`` steps are taken;
    returns the steps taken. The moves the world would take (:func:`_rollout_play` and the
    draw of :func:`greedy_rollout`), on rank counts: each hand, the cards of it the opponent
    saw, the played cards and the face-up card as codes (see :data:`_WEIGHT`), the draw
    pile as its cards' weights, the play to beat as a shape's number. Suits never change a
    greedy move, and which copies a play takes matters only for the cards the opponent
    saw, which are counted. The world itself is not stepped: at the round's end its score
    and summary are written (:meth:`CrispsState._score_round`, the match ended there or
    not), all the evaluator reads; cut short, it is left as it was. ``trace`` (for tests)
    gets each move: ``(seat, "play", code of its cards, code of those the opponent saw)``,
    ``(seat, "pass")`` (not an automatic one), ``(seat, "take:faceup")`` or ``(seat,
    "take:blind")``."""
    if world.is_over:
        return 0
    runs_with_special = world.runs_with_special
    weigh = _WEIGHT.__getitem__
    hands = world.hands
    codes = [sum(map(weigh, hands[0])), sum(map(weigh, hands[1]))]
    sizes = [len(hands[0]), len(hands[1])]
    known = world.known
    seen = [sum(map(weigh, known[0])), sum(map(weigh, known[1]))]
    played = sum(map(weigh, world.played))
    face_up = 0 if world.face_up is None else _WEIGHT[world.face_up]  # no card: 0
    pile = list(map(weigh, world.draw_pile))
    no_faceup = world.no_faceup
    auto_skip = world.auto_skip
    to_beat = world.to_beat
    previous = 0
    if to_beat is not None:
        combination = SHAPES.get((to_beat, world.special)) or world._to_beat_combo()
        assert combination is not None
        previous = _SHAPE_OF[combination][11]
    draw = world.phase == "draw"
    p = world.turn
    assert p is not None
    memo = _CHOSEN[runs_with_special]
    chosen_of = memo.get
    digits = _DIGITS
    base = _BASE
    ids = _SHAPE_IDS
    steps = 0
    while steps < max_steps:
        steps += 1
        if draw:
            # The trick's winner p draws; the face-up card is there or the pile is not empty.
            passer = 1 - p
            shown = face_up
            face_up = 0
            if shown and (
                not pile
                or _takes_face_up_code(codes[p], played, shown, seen[passer], runs_with_special)
            ):
                if trace is not None:
                    trace.append((p, "take:faceup"))
                codes[p] += shown
                sizes[p] += 1
                seen[p] += shown
                if pile:
                    codes[passer] += pile.pop()
                    sizes[passer] += 1
            else:
                if trace is not None:
                    trace.append((p, "take:blind"))
                codes[p] += pile.pop()
                sizes[p] += 1
                if shown:
                    codes[passer] += shown
                    sizes[passer] += 1
                    seen[passer] += shown
            if pile:
                face_up = pile.pop()
            draw = False
            previous = 0  # p leads the next trick
            continue
        hand = codes[p]
        opponent_left = sizes[1 - p]
        key = (hand * ids + previous) * 3 + (opponent_left > 2) + (opponent_left > 3)
        chosen = chosen_of(key)
        if chosen is None:
            chosen = (
                _choose_shape(hand, _COMBINATIONS[previous], opponent_left, runs_with_special)
                or False
            )
            if len(memo) < _CHOSEN_KEPT:
                memo[key] = chosen
        if chosen is False:
            if trace is not None:
                trace.append((p, "pass"))
            passer = p
        else:
            weight = chosen[0]  # type: ignore[index]
            if seen[p]:
                # Of each rank the play takes the cards the opponent did not see first.
                high_code, low_code = divmod(hand, 3125)
                counts = digits[low_code] + digits[high_code]
                high_code, low_code = divmod(seen[p], 3125)
                shown_counts = digits[low_code] + digits[high_code]
                width = chosen[8]  # type: ignore[index]
                taken = 0
                for i in range(chosen[6] - 2, chosen[7] - 2):  # type: ignore[index]
                    unseen = counts[i] - shown_counts[i]
                    if unseen < width:
                        taken += (width - unseen) * base[i]
                seen[p] -= taken
            else:
                taken = 0
            if trace is not None:
                trace.append((p, "play", weight, taken))
            codes[p] = hand - weight
            left = sizes[p] = sizes[p] - chosen[1]  # type: ignore[index]
            played += weight
            previous = chosen[11]  # type: ignore[index]
            if not left:
                world._score_round(p, list(sizes))
                return steps
            p = 1 - p
            if not auto_skip:
                continue
            high_code, low_code = divmod(_FULL_CODE - played - face_up, 3125)
            pool = Counter(
                dict(zip(range(2, _TOP), digits[low_code] + digits[high_code], strict=True))
            )
            combination = _COMBINATIONS[previous]
            assert combination is not None
            if public_could_beat(combination, pool, sizes[p], runs_with_special):
                continue
            passer = p  # skipped automatically
        # passer passes: the trick is over
        winner = 1 - passer
        if no_faceup:
            # Both draw blind at once, the winner first, and the winner leads.
            if pile:
                codes[winner] += pile.pop()
                sizes[winner] += 1
            if pile:
                codes[passer] += pile.pop()
                sizes[passer] += 1
            previous = 0
        elif not face_up and not pile:
            previous = 0  # nothing to draw: the winner leads
        else:
            draw = True
        p = winner
    return steps


def greedy_rollout(
    world: CrispsState, rng: random.Random | None, round_end: int, max_steps: int
) -> int:
    """The search's greedy rollout (``SearchConfig.greedy_rollout``): the greedy policy at both
    seats (it draws nothing from ``rng``) until more than ``round_end`` rounds are played
    (-1: no such stop), the match ends or ``max_steps`` steps are taken; returns the steps
    taken. With a round to stop at, :func:`_round_rollout` plays the round on rank counts
    and leaves the world as the evaluator reads it (the round scored, nothing else
    stepped). Without one, the greedy's move is read off the world (no policy view, no
    listing: see :func:`_rollout_play`) and the world stepped."""
    if round_end >= 0:
        if len(world.rounds) > round_end:
            return 0  # the tree's walk ended the round already
        if len(world.rounds) == round_end:
            return _round_rollout(world, max_steps)
        world._stop_at_round_end = True
    runs_with_special = world.runs_with_special
    seats = _SEATS
    steps = 0
    while steps < max_steps and not world.is_over:
        p = world.turn
        assert p is not None
        hands = world.hands  # a new deal makes new lists
        if world.phase == "draw":
            face_up = world.face_up
            seat = seats[p]
            if face_up is None:
                action = seat.take_blind
            elif not world.draw_pile or _takes_face_up(
                hands[p], world.played, face_up, world.known[1 - p], runs_with_special
            ):
                action = seat.take_faceup[face_up]
            else:
                action = seat.take_blind
        else:
            action = _rollout_play(world, p, runs_with_special)
        steps += 1
        if not world._rollout_step(action):
            break  # the round is over and scored, the next one not dealt
    return steps


SETTINGS = BotSettings(
    greedy=greedy,
    # Short rounds and a cheap greedy policy: greedy rollouts to the end of the round.
    search=SearchConfig(rollout="greedy", greedy_rollout=greedy_rollout),
    # Round wins are the score (first to 3): rank only; rollouts reach the round end.
    evaluator=Evaluator(rank_weight=1.0),
    # Greedy rollouts cost about twice the plain search's random ones, so at 650 iterations
    # Hard spends what the plain search of 1,000 does a decision (benchmarks/search_cost.py);
    # it beats that search and Normal at this budget (docs/bots.md).
    hard_iterations=650,
)

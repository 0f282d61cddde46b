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
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from engine.bots.evaluation import Evaluator
from engine.bots.ismcts import SearchConfig
from engine.core import Action, BotSettings
from engine.games.crisps.rules import SPECIAL_VALUE

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
    i = 0
    while i < 10:
        if not counts[i]:
            i += 1
            continue
        j = i + 1
        while j < 10 and counts[j] and j <= top_index:
            j += 1
        total += _stretch_needed(i, counts[i:j], runs_with_special)
        i = j
    return total


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


_Facts = tuple[tuple[int, ...], int, float, bool, bool, tuple[int, ...]]


def _facts(cards: tuple[str, ...]) -> _Facts:
    """What :func:`_play_cost` reads of a play, whatever the hand: its cards' count indexes,
    its size, its highest value's share of the cost, whether it is one rank, whether it
    spends a Queen, and its distinct count indexes."""
    values = [_VALUES[c] for c in cards]
    return (
        tuple(_INDEX[c] for c in cards),
        len(cards),
        0.01 * max(values),
        len(set(values)) == 1,
        SPECIAL_VALUE in values,
        tuple(sorted({_INDEX[c] for c in cards})),
    )


_FACTS: dict[tuple[str, ...], _Facts] = {}
""":func:`_facts` by the play's cards (a few thousand plays exist)."""


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

    ``hand_counts`` and ``hand_size`` describe the hand, worked out once for all its plays."""
    facts = _FACTS.get(cards)
    if facts is None:
        facts = _FACTS[cards] = _facts(cards)
    indexes, size, high, same_rank, spends_queen, distinct = facts
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


def _draw_choice(view: dict[str, Any], legal: list[Action], runs_with_special: bool) -> Action:
    by_id = {a.id: a for a in legal}
    if len(legal) == 1:
        return legal[0]
    hand = view["hand"]
    face_up = view["face_up"]
    # The blind card is one of the cards nobody has seen: average over those.
    opponent = 1 - view["player"]
    seen = list(hand) + list(view["played"]) + [face_up] + list(view["known_cards"][opponent])
    unseen = [4] * 10
    for c in seen:
        unseen[_INDEX[c]] -= 1
    hand_counts = list(_counts(hand))
    total = sum(max(n, 0) for n in unseen)
    blind = 0.0
    if total:
        for value, n in enumerate(unseen):
            if n > 0:
                trial = list(hand_counts)
                trial[value] += 1
                blind += n * _needed(tuple(trial), runs_with_special)
        blind /= total
    trial = list(hand_counts)
    trial[_INDEX[face_up]] += 1
    open_card = _needed(tuple(trial), runs_with_special)
    bonus = 0.4 if _VALUES[face_up] == SPECIAL_VALUE else 0.0
    if open_card - bonus <= blind:
        return by_id["take:faceup"]
    return by_id["take:blind"]


def greedy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """Choose an action from the seat's view and legal actions only."""
    runs_with_special = view["special_rank"] == "J"
    if view["phase"] == "draw":
        return _draw_choice(view, legal, runs_with_special)
    hand = view["hand"]
    leading = view["to_beat"] is None
    plays = [a for a in legal if a.cards]  # only plays move cards
    pass_action = next((a for a in legal if a.id == "pass"), None)
    if not plays:
        assert pass_action is not None
        return pass_action
    hand_counts = _counts(hand)
    opponent_left = view["hand_sizes"][1 - view["player"]]
    size = len(hand)
    best_cost, best_index = min(
        (_play_cost(hand_counts, size, a.cards, opponent_left, leading, runs_with_special), i)
        for i, a in enumerate(plays)
    )
    best = plays[best_index]
    if leading or pass_action is None:
        return best
    # Following keeps the initiative (the last player leads and chooses the draw), which is
    # worth one extra play later -- but not splitting a run of pairs or spending a Queen.
    now = _needed(hand_counts, runs_with_special)
    if best_cost < now + 1.5 or opponent_left <= 2:
        return best
    return pass_action


SETTINGS = BotSettings(
    greedy=greedy,
    # Short rounds and a cheap greedy policy: greedy rollouts to the end of the round.
    search=SearchConfig(rollout="greedy"),
    # Round wins are the score (first to 3): rank only; rollouts reach the round end.
    evaluator=Evaluator(rank_weight=1.0),
    # Greedy rollouts cost about twice the plain search's random ones, so at 650 iterations
    # Hard spends what the plain search of 1,000 does a decision (benchmarks/search_cost.py);
    # it beats that search and Normal at this budget (docs/bots.md).
    hard_iterations=650,
)

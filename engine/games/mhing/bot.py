"""The greedy General Mhing player: sees only its seat's view and its legal actions.

What it does, in order of priority:

1. Swaps every wild Ace in its sequences back into its hand (the score is unchanged and an
   Ace in hand fits any run of its suit).
2. Lays the 4th sequence only when that wins the round (it then races to end a round it
   leads); lays any other sequence it can, picking the one that adds most points with the
   sequences it already has (suit, ranks, in order, high/low), and keeps its Ace if a natural
   run is as good.
3. Takes the discard only when the sequence it completes is at least as good as anything it
   could lay from its hand.
4. Otherwise discards the card least likely to finish a run: a card is worth more the more of
   its possible runs are half built in hand and still completable from unseen cards, and more
   when those runs would match its laid sequences.

>>> from engine.core import Action
>>> view = {"viewer": 0, "phase": "play", "hand": ["2S", "7H", "8H", "9H", "KC", "5D", "JD", "3C"],
...         "sequences": [[], []], "round_points": [0, 0], "sequence_counts": [0, 0],
...         "discard_pile": [], "known_hand_cards": [[], []], "reshuffled": []}
>>> legal = [Action("lay:7H,8H,9H", 0, "Lay"), Action("discard:2S", 0, "Discard")]
>>> greedy(view, legal, __import__("random").Random(1)).id
'lay:7H,8H,9H'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.bots.evaluation import Evaluator, view_list
from engine.bots.ismcts import SearchConfig
from engine.core import Action, BotSettings
from engine.games.mhing.rules import (
    CARD_AT,
    CARD_BIT,
    DECK,
    SEQUENCES_TO_END,
    SUIT_OF,
    VALUE_OF,
    added_score,
    adder,
    run_facts,
    score_sequences,
    sequences_in,
)
from engine.games.mhing.state import MhingState, _discard_row


def _lay_value(mine: list[list[str]], seq: Sequence[str]) -> float:
    # Points it adds; spending the Ace costs a little because it is the most flexible card.
    uses_ace = any(c[0] == "A" for c in seq) and not (seq[0][0] == "A" and seq[1][0] == "2")
    return added_score(mine, seq) - (0.6 if uses_ace else 0.0)


def _wins_round(view: dict[str, Any], me: int, seq: Sequence[str]) -> bool:
    """Whether laying ``seq`` as the 4th sequence makes ``me`` the round's winner."""
    mine = view["sequences"][me]
    my_points = score_sequences(mine + [list(seq)])
    for p, points in enumerate(view["round_points"]):
        # Rivals all have fewer sequences than four, so a tie goes to them.
        if p != me and points >= my_points:
            return False
    return True


_DECK = frozenset(DECK)


def _seen(view: dict[str, Any]) -> set[str]:
    """The cards the seat has seen: its hand, the discard pile, the laid sequences and the
    others' hand cards it knows of."""
    seen = set(view["hand"])
    seen.update(view["discard_pile"])
    for seqs in view["sequences"]:
        for seq in seqs:
            seen.update(seq)
    for known in view["known_hand_cards"]:
        seen.update(known)
    return seen


def _unseen(view: dict[str, Any]) -> set[str]:
    return set(_DECK - _seen(view))


_RUNS = {
    (suit, low): tuple(CARD_AT[suit, v] for v in (low, low + 1, low + 2))
    for suit in sorted(set(SUIT_OF.values()))
    for low in range(2, 12)
}
"""The natural runs of each suit, by (suit, lowest value): those a hand card may grow into."""

_RUN_FACTS = {key: run_facts(*key) for key in _RUNS}

_LOWS = {value: tuple(range(max(2, value - 2), min(value, 11) + 1)) for value in range(2, 14)}
"""The lowest values of the runs a card of each value may be part of."""

_RUN_AT = {key: i for i, key in enumerate(_RUNS)}
"""Each natural run's place in a list of one entry a run."""

_CARD_RUNS: dict[str, tuple[tuple[int, int, int, Any], ...] | None] = {
    c: None
    if VALUE_OF[c] == 1
    else tuple(
        (
            _RUN_AT[SUIT_OF[c], low],
            sum(CARD_BIT[r] for r in _RUNS[SUIT_OF[c], low]),
            CARD_BIT[CARD_AT[SUIT_OF[c], 1]],
            _RUN_FACTS[SUIT_OF[c], low],
        )
        for low in _LOWS[VALUE_OF[c]]
    )
    for c in DECK
}
"""Per card, each run it may be part of: (its place, its cards' bits, the bit of its suit's
Ace, its facts); None for an Ace. A suit's bits rise with the rank (``rules.CARD_BIT``), so
a run's lowest missing bit is its first missing card."""


def _chance(unseen: int, buried: int) -> float:
    chance = 1.0
    for _ in range(unseen):
        chance *= 0.45
    for _ in range(buried):
        chance *= 0.15
    return chance


_CHANCES = tuple(tuple(_chance(u, b) for b in range(3)) for u in range(3))
"""The chance of drawing a run's missing cards, by how many are unseen (0.45 each) and how
many lie buried in the discard pile (0.15 each): at most two are missing (the run holds the
card it is worked out for), and a product of two factors is the same in either order, so
these are the very floats the card-by-card product gives."""


def _bits(cards: Sequence[str]) -> int:
    """The bit form of distinct cards."""
    return sum(map(CARD_BIT.__getitem__, cards))


def card_keep_values(view: dict[str, Any]) -> dict[str, float]:
    """How much each hand card is worth keeping (higher: keep): an Ace 10; any other card
    the sum over the natural runs it may be part of of the chance of drawing the run's
    missing cards (a held Ace stands in for the first of them; 0.45 for a card not seen,
    0.15 for one buried in the discard pile, none for one seen elsewhere) times
    1 + 0.7 x the points the run would add to the seat's laid sequences."""
    hand = view["hand"]
    sequences = view["sequences"]
    values = _keep_values(
        hand,
        sum(map(CARD_BIT.__getitem__, hand)),
        view["discard_pile"],
        sequences,
        view["known_hand_cards"],
        sequences[view["viewer"]],
    )
    return dict(zip(hand, values, strict=True))


def _keep_values(
    hand: list[str],
    held: int,
    discards: list[str],
    sequences: list[list[list[str]]],
    known_cards: list[list[str]],
    mine: list[list[str]],
) -> list[float]:
    """:func:`card_keep_values` of the cards of ``hand`` in its order, from the view's parts
    (``held``: the hand's bit form; ``mine``: the seat's own laid sequences)."""
    bit = CARD_BIT
    # Every card is in one place: each part's bits are distinct, the parts may overlap
    # only where the seat's own known cards are in its hand.
    seen = held
    buried = 0
    if discards:
        top = bit[discards[-1]]
        buried = sum(map(bit.__getitem__, discards)) - top
        seen |= buried | top
    for seqs in sequences:
        for a, b, c in seqs:  # a sequence is three cards
            seen |= bit[a] | bit[b] | bit[c]
    for known in known_cards:
        if known:
            seen |= sum(map(bit.__getitem__, known))
    return _keep_values_of(hand, held, seen, buried, mine)


def _world_keep_values(world: MhingState, p: int, held: int) -> list[float]:
    """:func:`_keep_values` for the seat ``p`` of ``world`` (``held``: its hand's bit form),
    the discard pile's and the laid cards' bits read from the world's kept ones: how the
    rollouts work them out."""
    discards = world.discards
    seen = held | world.laid_bits
    buried = 0
    if discards:
        pile = world.discard_bits
        buried = pile - CARD_BIT[discards[-1]]
        seen |= pile
    for known in world.known:
        if known:
            seen |= sum(map(CARD_BIT.__getitem__, known))
    mine = world.sequences[p]
    kept = world._seat_memo[p]  # the seat's adder and memo of worths, while mine stand
    if kept is None:
        kept = world._seat_memo[p] = _worths_of(mine)
    return _keep_values_of(world.hands[p], held, seen, buried, mine, kept)


def _keep_values_of(
    hand: list[str],
    held: int,
    seen: int,
    buried: int,
    mine: list[list[str]],
    kept: tuple[Any, list[float | None]] | None = None,
) -> list[float]:
    """:func:`_keep_values` from the bits of the cards the seat has seen (its hand among
    them) and of those buried in the discard pile (all but its top); ``kept``: the
    :func:`_worths_of` ``mine``, when the caller has it."""
    dead = seen & ~buried  # seen where it cannot come back
    free = ~held
    worths: list[float | None] | None = None  # each run's 1 + 0.7 x its gain, by its place
    added: Any = None  # the seat's adder, made once a run is found alive
    values: list[float] = []
    # A run's chance times its worth is the same for each of its cards: worked out once,
    # by the run's place.
    run_value: list[float | None] = [None] * len(_RUNS)
    # The chance of drawing a run's (at most two) missing cards, by how many are unseen and
    # how many buried (_CHANCES).
    one_unseen, one_buried = _CHANCES[1][0], _CHANCES[0][1]
    two_unseen, two_buried, one_each = _CHANCES[2][0], _CHANCES[0][2], _CHANCES[1][1]
    card_runs = _CARD_RUNS
    for c in hand:
        runs = card_runs[c]
        if runs is None:
            values.append(10.0)  # an Ace completes almost anything of its suit
            continue
        total = 0.0
        for at, cards, ace, facts in runs:
            part = run_value[at]
            if part is None:
                missing = cards & free
                if held & ace:
                    missing &= missing - 1  # the Ace stands in for the first missing card
                if missing & dead:
                    part = 0.0
                else:
                    if worths is None:
                        added, worths = _worths_of(mine) if kept is None else kept
                    worth = worths[at]
                    if worth is None:
                        worth = worths[at] = 1.0 + 0.7 * added(facts)
                    # Every missing card is unseen or buried (none is dead).
                    if not missing:
                        chance = 1.0
                    elif missing & (missing - 1):  # two missing
                        both = missing & buried
                        chance = (
                            two_unseen if not both else two_buried if both == missing else one_each
                        )
                    else:
                        chance = one_buried if missing & buried else one_unseen
                    part = chance * worth
                run_value[at] = part
            total += part
        values.append(total)
    return values


def _worths_of(mine: list[list[str]]) -> tuple[Any, list[float | None]]:
    """The adder of the seat's laid sequences ``mine`` and a memo of each run's worth
    against them (1 + 0.7 x the points it adds, by the run's place; None until asked),
    kept as long as the adder is (``rules.adder`` makes one per set of sequences' facts)."""
    added = adder(mine)
    worths = _WORTHS.get(added)
    if worths is None:
        if len(_WORTHS) >= 4096:
            _WORTHS.clear()
        worths = _WORTHS[added] = [None] * len(_RUNS)
    return added, worths


_WORTHS: dict[Any, list[float | None]] = {}
""":func:`_worths_of`'s memos, by their adder."""


_SEQUENCE_OF: dict[str, list[str]] = {}
"""A take's or lay's action id -> the sequence it makes (read, never changed)."""


def _sequence_of(action_id: str) -> list[str]:
    seq = _SEQUENCE_OF.get(action_id)
    if seq is None:
        seq = _SEQUENCE_OF[action_id] = action_id.split(":", 1)[1].split(",")
    return seq


def greedy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    me = view["viewer"]
    # One pass sorts the moves by kind, in the order listed.
    drawing = view["phase"] == "draw"
    laying = "take" if drawing else "lay"
    draw: Action | None = None
    sequences: list[Action] = []  # the takes in the draw phase, the lays in the play phase
    discards: list[Action] = []
    for a in legal:
        kind = a.kind
        if kind == "swap":
            return a
        if kind == laying:
            sequences.append(a)
        elif kind == "discard":
            discards.append(a)
        elif kind == "draw" and draw is None:
            draw = a
    if drawing:
        assert draw is not None
        return _take_or_draw(view, me, sequences, draw)
    top = _best_sequence(view, me, sequences)[1]
    if top is not None:
        return top
    return discards[_least_worth(view, [a.cards[0] for a in discards], rng)]


def _best_sequence(
    view: dict[str, Any], me: int, sequences: Sequence[Action]
) -> tuple[float, Action | None]:
    """The first of the takes or lays ``sequences`` that adds most (a 4th only if it wins
    the round), with its value; (-inf, None) when none may be laid."""
    mine = view["sequences"][me]
    fourth = len(mine) + 1 >= SEQUENCES_TO_END
    top_value = float("-inf")
    top: Action | None = None
    for a in sequences:
        seq = _sequence_of(a.id)
        if not fourth or _wins_round(view, me, seq):
            value = _lay_value(mine, seq)
            if value > top_value:
                top_value, top = value, a
    return top_value, top


def _take_or_draw(view: dict[str, Any], me: int, takes: Sequence[Action], draw: Action) -> Action:
    """The draw phase: the best take, when it is as good as anything the hand could lay
    from itself, else the draw."""
    top_value, top = _best_sequence(view, me, takes)
    if top is not None:
        mine = view["sequences"][me]
        fourth = len(mine) + 1 >= SEQUENCES_TO_END
        # What the hand already offers without the discard.
        own = [s for s in sequences_in(view["hand"]) if not fourth or _wins_round(view, me, s)]
        own_value = max((_lay_value(mine, s) for s in own), default=float("-inf"))
        if top_value >= own_value:
            return top
    return draw


def _least_worth(view: dict[str, Any], cards: list[str], rng: random.Random) -> int:
    """The index in ``cards`` (hand cards to discard) of one of least worth to keep: the
    first, or one drawn from ``rng`` among equals."""
    values = card_keep_values(view)
    return _least_index([values[c] for c in cards], rng)


def _least_index(values: list[float], rng: random.Random) -> int:
    """The index of the least of ``values``: the first, or one drawn from ``rng`` among
    equals."""
    low = float("inf")
    worst: list[int] = []
    for i, value in enumerate(values):
        if value < low:
            low, worst = value, [i]
        elif value == low:
            worst.append(i)
    return worst[rng.randrange(len(worst))] if len(worst) > 1 else worst[0]


# ----- the rollouts' loop ---------------------------------------------------------------------
# The search's rollouts play the greedy policy at every seat. The loop below makes the same
# moves as the generic loop (tests/test_mhing.py holds it to that) without listing what the
# greedy never reads: a draw with nothing to take or swap is the only move, and a discard is
# chosen among the hand's cards before its action is looked up.


def greedy_rollout(world: MhingState, rng: random.Random, round_end: int, max_steps: int) -> int:
    """The search's greedy rollout (``SearchConfig.greedy_rollout``): the greedy policy at
    every seat, its ties drawn from ``rng``, until more than ``round_end`` rounds are played
    (-1: no such stop), the match ends or ``max_steps`` steps are taken; returns the steps
    taken. With a round to stop at, the world does not deal the next round (the evaluator
    reads the scores, or the round points of a rollout cut short)."""
    if round_end >= 0:
        world._deal_next = False
    rounds = world.rounds
    steps = 0
    while steps < max_steps and not world.over:
        if round_end >= 0 and len(rounds) > round_end:
            break
        world._rollout_step(_rollout_move(world, rng))  # no round-end stop is set here
        steps += 1
    return steps


def _rollout_move(world: MhingState, rng: random.Random) -> Action:
    """The greedy's move for the seat to act in ``world``."""
    p = world.turn
    swaps = world._swaps(p) if world.sequences[p] else None
    if swaps:
        return swaps[0]  # the greedy swaps first, and the swaps come last in the listing
    if world.phase == "draw":
        draw = world._draw_action(p)
        if not world.discards:
            return draw
        takes = world._takes(p)
        if not takes:
            return draw
        return _take_or_draw(world.policy_view(p), p, takes, draw)
    hand = world.hands[p]
    held = sum(map(CARD_BIT.__getitem__, hand))
    lays = world._lays(p, held)
    if lays:
        top = _best_sequence(world.policy_view(p), p, lays)[1]
        if top is not None:
            return top
    values = _world_keep_values(world, p, held)
    return _discard_row(p)[hand[_least_index(values, rng)]]


SEARCH = SearchConfig(rollout="greedy", greedy_rollout=greedy_rollout)
"""The search: random play seldom lays a sequence, so a random tail would run some 70 steps
and decide the round by chance; greedy play ends it in far fewer."""

THREE_PLAYER_SEARCH = replace(SEARCH, paired=True)
"""The search at 3 players: the paired flat search (every move played out in the same sampled
worlds with the same chance, and judged on the paired differences), with the same rollouts,
evaluator and iterations. There the tree search nearly always confirmed Normal's move and was
not told apart from Normal (+0.12 ± 0.19 points a round over Normal's par, 156 rounds); on
the same deals the paired search scores +0.72 ± 0.24 (180 rounds), at about the same time a
decision. At 4 players it did not separate from Normal in 500 rounds (+0.14 ± 0.08) and lost
the two steps the tree search holds there (Expert above Hard, Hard above the plain search at
its cost), so 4 players keeps the tree (docs/bots.md, "What was tried")."""

SETTINGS = BotSettings(
    greedy=greedy,
    search=SEARCH,
    # The round winner takes its points; cut rollouts use the points of the sequences on the
    # table.
    evaluator=Evaluator(rank_weight=0.5, scale=4.0, heuristic=view_list("round_points")),
    hard_iterations=450,
    sizes={3: {"search": THREE_PLAYER_SEARCH}},
)

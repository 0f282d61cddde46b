"""The greedy Spite and Malice player: sees only its seat's view and its legal actions.

Priorities, re-planned at every step of the turn:

1. play the upcard when it fits;
2. otherwise look for a chain onto one stack that reaches the upcard, using discard-pile tops
   first, then hand cards, and jokers only to fill gaps (they are saved for the upcard);
3. otherwise make "safe" builds that clear discard-pile tops and hand cards, never taking a
   stack to just below the opponent's upcard (or to where the opponent's own discard tops
   would carry it there), and never spending a joker;
4. after 30 builds in one turn, only the upcard itself is played (see ``BUILD_BUDGET``);
5. then discard, keeping piles descending and long (same rank or one below the top), high
   cards on empty piles, jokers and cards that bridge towards the upcard in hand; when no
   discard is possible, make the least harmful build rather than pass and stall.

>>> import random
>>> from engine.games.spite.state import SpiteState
>>> state = SpiteState(2, 5, {})
>>> seat = state.current_player
>>> greedy(state.view(seat), state.legal_actions(), random.Random(0)).player == seat
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from engine.bots.evaluation import Baseline, Evaluator
from engine.bots.ismcts import SearchConfig
from engine.core import Action, BotSettings, State
from engine.games.spite.rules import JOKER, KING, MAX_STACKS, RANK_VALUE, pile_rank
from engine.games.spite.state import (
    _BUILDS,
    _DISCARDS,
    _ENDS,
    _HAND,
    _UPCARD,
    SpiteState,
    _build_row,
    _distinct,
)

BUILD_BUDGET = 30
"""Builds per turn beyond which only the upcard itself is played: refills that shuffle the
centre back into the stock could otherwise let a turn go round in circles for ever."""


def _rank(card: str | None) -> int:
    return RANK_VALUE[card] if card is not None else 0


def _upcard_chain(
    up: int, stacks: list[int], hand: list[str], piles: list[list[str]]
) -> tuple[str, str] | None:
    """First step (card, target) of the cheapest chain that lets the upcard be played.

    Each rank a chain needs comes from the first discard pile showing it, else the hand's
    first card of that rank (a chain needs each rank once, so that card is never one it
    took already), else a joker: the first pile showing one, else the hand's next joker."""
    targets = [(str(i), r) for i, r in enumerate(stacks) if r < up - 1]
    if len(stacks) < MAX_STACKS and up > 1:
        targets.append(("new", 0))
    if not targets:
        return None
    in_hand: dict[int, str] = {}
    hand_jokers: list[str] = []
    for card in hand:
        value = RANK_VALUE[card]
        if value == JOKER:
            hand_jokers.append(card)
        elif value not in in_hand:
            in_hand[value] = card
    jokers_held = len(hand_jokers)
    sizes = [len(pile) for pile in piles]
    best: tuple[tuple[int, int], tuple[str, str]] | None = None
    rank = RANK_VALUE
    for target, start in targets:
        # The cards left on each pile (the piles themselves stay as they are).
        left = sizes.copy()
        jokers = 0
        hand_jokers_used = 0
        first: str | None = None
        for needed in range(start + 1, up):
            used = None
            for i, pile in enumerate(piles):
                n = left[i]
                if n and rank[pile[n - 1]] == needed:
                    used = pile[n - 1]
                    left[i] = n - 1
                    break
            else:
                used = in_hand.get(needed)
                if used is None:
                    for i, pile in enumerate(piles):
                        n = left[i]
                        if n and rank[pile[n - 1]] == JOKER:
                            used = pile[n - 1]
                            left[i] = n - 1
                            break
                    else:
                        if hand_jokers_used < jokers_held:
                            used = hand_jokers[hand_jokers_used]
                            hand_jokers_used += 1
                    if used is None:
                        break
                    jokers += 1
            if first is None:
                first = used
        else:
            if first is not None:
                cost = (jokers, up - start)
                if best is None or cost < best[0]:
                    best = (cost, (first, target))
    return None if best is None else best[1]


def _feeds_opponent(rank: int, opp_up: int, opp_tops: list[int]) -> bool:
    """Would a stack showing ``rank`` let the opponent reach its upcard from its pile tops?"""
    if rank >= opp_up:
        return False
    tops = list(opp_tops)
    for needed in range(rank + 1, opp_up):
        if needed in tops:
            tops.remove(needed)
        else:
            return False
    return True


def _build_score(
    action: Action, view: dict[str, Any], me: int, allow_feeding: bool = False
) -> float | None:
    """Value of a non-upcard build, or None when it should not be made."""
    card = action.cards[0]
    value = RANK_VALUE[card]
    if value == JOKER:
        return None
    stacks: list[int] = view["stack_ranks"]
    target = action.id.rsplit(":", 1)[1]
    before = 0 if target == "new" else stacks[int(target)]
    after = before + 1
    opp = 1 - me
    opp_up = _rank(view["upcards"][opp])
    opp_tops = [RANK_VALUE[p[-1]] for p in view["discard_piles"][opp] if p]
    score = 2.0
    if _feeds_opponent(after, opp_up, opp_tops):
        if not allow_feeding:
            return None
        score -= 1.5
    if card not in view["hand"]:
        score += 1.5  # clears a discard top and exposes the card beneath
    if after == opp_up - 2:
        score -= 1.5  # one unknown hand card away from feeding the opponent
    up = _rank(view["upcards"][me])
    below_up = [r for r in stacks if r < up]
    if before < up <= after and len(below_up) <= 1 and len(stacks) >= MAX_STACKS:
        score -= 3  # the last stack that could still take the upcard would pass it
    if after == up - 1:
        score += 1
    if len(view["hand"]) == 1 and card in view["hand"]:
        score += 1  # playing out the hand draws five fresh cards
    return score


_PILE_OF: dict[str, int] = {}
"""A discard action's id -> the index of its discard pile, read once per id."""


def _pile_score(value: int, shown: int | None, empty_cost: int) -> float:
    """What discarding a card of ``value`` on a pile showing ``shown`` (None: an empty pile,
    which costs ``empty_cost`` more when it is the only empty one) is worth: on a card of its
    own rank best, then one rank below, then less the further below."""
    if shown is None:
        return value - 9.0 - empty_cost
    if value == shown:
        return 8.0
    if value == shown - 1:
        return 7.0
    return 6.0 - (shown - value)


_PILE_SCORES: dict[int, tuple[dict[int | None, float], ...]] = {
    empty_cost: tuple(
        {shown: _pile_score(value, shown, empty_cost) for shown in (None, *range(1, 14))}
        for value in range(14)
    )
    for empty_cost in (0, 2)
}
""":func:`_pile_score` by ``empty_cost``, the card's value and what the pile shows, for the
rollouts, which read it for every card and pile of a discard."""


def _best_discard(discards: list[Action], view: dict[str, Any], me: int) -> Action:
    """The first of the highest-scoring discards: what each pile shows, the empty piles, the
    upcard and the lowest stack are read once for all of them."""
    piles = view["discard_piles"][me]
    shown_of = [pile_rank(pile) if pile else None for pile in piles]
    empty_cost = 0 if sum(1 for pile in piles if not pile) > 1 else 2
    up = _rank(view["upcards"][me])
    stacks: list[int] = view["stack_ranks"]
    lowest = min(stacks) if stacks else None
    best = discards[0]
    best_score = float("-inf")
    for action in discards:
        value = RANK_VALUE[action.cards[0]]
        if value == JOKER:
            score = -50.0
        else:
            index = _PILE_OF.get(action.id)
            if index is None:
                index = _PILE_OF[action.id] = int(action.id.rsplit(":", 1)[1])
            score = _pile_score(value, shown_of[index], empty_cost)
            if value < up and lowest is not None and lowest < value:
                score -= 2.0  # a bridge towards the upcard is worth keeping in hand
        if score > best_score:
            best, best_score = action, score
    return best


def greedy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The greedy policy ``(view, legal, rng) -> Action`` for the seat in ``view["you"]``."""
    return _greedy(view, legal, hold=False)


def holding_greedy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The greedy policy, except that a seat which cannot discard ends its turn rather than
    make a build that helps the opponent towards its upcard (the search's rollouts play it,
    so that a search's model of its opponent holds cards back too).

    Declining a centre play never freezes a turn (the stall rule counts only turns with no
    centre play available), so holding never stalls the game; a rollout runs the engine's
    own stall and drought rules, and a game they end is worth a draw to the evaluator.
    """
    return _greedy(view, legal, hold=True)


def _find(legal: list[Action], action_id: str) -> Action | None:
    """The first legal action of this id (ids are unique), or None."""
    for action in legal:
        if action.id == action_id:
            return action
    return None


def _greedy(view: dict[str, Any], legal: list[Action], hold: bool) -> Action:
    builds = [a for a in legal if a.kind == "build"]
    chosen, kept = _build_choice(view, builds)
    if chosen is not None:
        return chosen
    discards = [a for a in legal if a.kind == "discard"]
    return _other_choice(view, builds, kept, discards, _find(legal, "end"), hold)


def _build_choice(view: dict[str, Any], builds: list[Action]) -> tuple[Action | None, list[Action]]:
    """The policy's first steps, which read the builds alone (``builds``: the legal builds
    in the listing's order): the upcard, a chain towards it, the best safe build. Returns
    the build chosen (None: none) and the builds the later steps may still make (none once
    the turn's build budget is spent)."""
    me = view["you"]
    up_card = view["upcards"][me]
    for action in builds:
        if action.cards[0] == up_card:
            return action, builds
    if len(view["played_this_turn"]) >= BUILD_BUDGET:
        return None, []
    if up_card is not None:
        step = _upcard_chain(
            RANK_VALUE[up_card], view["stack_ranks"], view["hand"], view["discard_piles"][me]
        )
        if step is not None:
            chained = _find(builds, f"build:{step[0]}:{step[1]}")
            if chained is not None:
                return chained, builds
    best: tuple[float, Action] | None = None
    for action in builds:
        score = _build_score(action, view, me)
        if score is not None and score > 0 and (best is None or score > best[0]):
            best = (score, action)
    if best is not None:
        return best[1], builds
    return None, builds


def _other_choice(
    view: dict[str, Any],
    builds: list[Action],
    kept: list[Action],
    discards: list[Action],
    end: Action | None,
    hold: bool,
) -> Action:
    """The policy's last steps, once no build of :func:`_build_choice` is made: ``builds``
    the legal builds, ``kept`` those it left, ``discards`` the legal discards and ``end``
    the turn's end (None: not legal)."""
    me = view["you"]
    if discards:
        return _best_discard(discards, view, me)
    # No discard is possible: rather than pass (and let the game stall), make the least
    # harmful build even if it helps the opponent; the holding policy passes instead.
    if hold and end is not None:
        return end
    best: tuple[float, Action] | None = None
    for action in kept:
        score = _build_score(action, view, me, allow_feeding=True)
        if score is not None and (best is None or score > best[0]):
            best = (score, action)
    if best is not None:
        return best[1]
    if end is not None:
        return end
    # An Ace is owed and every safe option is gone: play one anyway (no discard and no end:
    # the legal moves are the builds).
    aces = [a for a in builds if RANK_VALUE[a.cards[0]] == 1]
    return (aces or kept or builds)[0]


def _build_of(seat: int, where: int, card: str, index: int | None, height: int) -> Action:
    """The listing's Action building ``card`` from ``where`` (see ``_BUILDS``) on stack
    ``index`` of ``height`` cards (None: a new stack)."""
    row = _BUILDS[seat][where].get(card)
    if row is None:
        row = _build_row(seat, where, card)
    if index is None:
        return row[MAX_STACKS]
    if RANK_VALUE[card] == JOKER:
        return row[index][height]
    return row[index]


def _rollout_choice(world: SpiteState, seat: int) -> Action:
    """:func:`holding_greedy`'s move at ``seat`` (to move) read off the world, without a
    policy view or the listing, except where an Ace is owed and no build of the first steps
    is made (rare: then the view and the builds are made as the policy has them).

    The same steps and sums as :func:`_build_choice` and :func:`_other_choice` (the tests
    hold it to them): a build's first listing is the upcard's, then each discard top's,
    then each hand rank's first card's (the hand's order), each on the lowest stack that
    takes it, then a new stack; a non-upcard build's :func:`_build_score` reads only its
    card's rank and whether it is in the hand, so the best safe build is that of the first
    best card; the discards are each hand rank's first card's, pile by pile."""
    payoff = world.payoff
    up_card = payoff[seat][-1]
    up = RANK_VALUE[up_card]
    stacks = [len(stack) for stack in world.centre]
    room = len(stacks) < MAX_STACKS
    # 1. The upcard, on the lowest stack it fits, else on a new one.
    if up == JOKER:
        for index, height in enumerate(stacks):
            if height < KING:
                return _build_of(seat, _UPCARD, up_card, index, height)
        if room:
            return _build_of(seat, _UPCARD, up_card, None, 0)
    else:
        if up - 1 in stacks:
            return _build_of(seat, _UPCARD, up_card, stacks.index(up - 1), up - 1)
        if room and up == 1:
            return _build_of(seat, _UPCARD, up_card, None, 0)
    hand = world.hands[seat]
    piles = world.discards[seat]
    budget_left = len(world.played_this_turn) < BUILD_BUDGET
    if budget_left:
        # 2. A chain onto one stack that reaches the upcard.
        step = _upcard_chain(up, stacks, hand, piles)
        if step is not None:
            card, target = step
            where = _HAND
            for i, pile in enumerate(piles):
                if pile and pile[-1] == card:
                    where = i + 1
                    break
            if target == "new":
                return _build_of(seat, where, card, None, 0)
            index = int(target)
            return _build_of(seat, where, card, index, stacks[index])
        # 3. The best safe build: of the first card of the best score, its first build.
        payoffs = world.payoff
        opp = 1 - seat
        opp_pay = payoffs[opp]
        opp_up = RANK_VALUE[opp_pay[-1]] if opp_pay else 0
        opp_tops = [RANK_VALUE[p[-1]] for p in world.discards[opp] if p]
        below_up = 0
        for r in stacks:
            if r < up:
                below_up += 1
        last_room = below_up <= 1 and not room
        single = len(hand) == 1
        best_score = 0.0
        best: tuple[int, str] | None = None
        sources = [(i + 1, pile[-1]) for i, pile in enumerate(piles) if pile]
        seen = 0  # the bits of the hand ranks met (the first card of each is listed)
        for card in hand:
            bit = 1 << RANK_VALUE[card]
            if not seen & bit:
                seen |= bit
                sources.append((_HAND, card))
        for where, card in sources:
            value = RANK_VALUE[card]
            if value == JOKER or not (value - 1 in stacks or (room and value == 1)):
                continue  # no score (a joker), or no build
            if _feeds_opponent(value, opp_up, opp_tops):
                continue
            score = 2.0
            in_hand = where == _HAND
            if not in_hand:
                score += 1.5
            if value == opp_up - 2:
                score -= 1.5
            if value == up and last_room:  # before < up <= after
                score -= 3
            if value == up - 1:
                score += 1
            if single and in_hand:
                score += 1
            if score > 0 and (best is None or score > best_score):
                best_score, best = score, (where, card)
        if best is not None:
            where, card = best
            value = RANK_VALUE[card]
            if value - 1 in stacks:
                return _build_of(seat, where, card, stacks.index(value - 1), value - 1)
            return _build_of(seat, where, card, None, 0)
    if world.must_play_ace(seat):
        view = world.policy_view(seat)
        builds = world._list_builds(seat, _distinct(hand))
        return _other_choice(view, builds, builds if budget_left else [], [], None, True)
    # 4. The best discard (see _best_discard and _list_discards), else the turn's end.
    shown_of = [pile_rank(pile) if pile else None for pile in piles]
    empties = 0
    for pile in piles:
        if not pile:
            empties += 1
    scores = _PILE_SCORES[0 if empties > 1 else 2]
    lowest = min(stacks) if stacks else None
    best_discard: tuple[str, int] | None = None
    top_score = float("-inf")
    seen = 0
    for card in hand:
        value = RANK_VALUE[card]
        bit = 1 << value
        if seen & bit:
            continue
        seen |= bit
        if value == JOKER:
            for i, shown in enumerate(shown_of):
                if shown != 2:
                    if -50.0 > top_score:
                        best_discard, top_score = (card, i), -50.0
                    break  # the same score on every pile: the first one
            continue
        if value == 1 and room:
            continue  # an Ace goes to the centre while there is room
        bridge = value < up and lowest is not None and lowest < value
        by_shown = scores[value]
        for i, shown in enumerate(shown_of):
            if shown is not None and value > shown:
                continue  # discard piles go down
            score = by_shown[shown]
            if bridge:
                score -= 2.0
            if score > top_score:
                best_discard, top_score = (card, i), score
    if best_discard is None:
        return _ENDS[seat]
    return _DISCARDS[seat][best_discard[0]][best_discard[1]]


def rollout_loop(world: SpiteState, rng: random.Random, baseline: Any, max_steps: int) -> int:
    """The search's rollout (``SearchConfig.rollout_loop``): :func:`holding_greedy` at both
    seats until :class:`SpiteEvaluator`'s stop (the game over or another one dealt, or its
    ``turns`` turns over) or ``max_steps`` steps; returns the steps taken. The very moves of
    the search's generic loop, read off the world (:func:`_rollout_choice`)."""
    round_ = baseline.round
    last_turn = baseline.turn + EVALUATOR.turns
    steps = 0
    while steps < max_steps and not world.match_over:
        if world.round != round_ or world.turn >= last_turn:
            break
        world._rollout_step(_rollout_choice(world, world.current))  # no round-end stop here
        steps += 1
    return steps


@dataclass(frozen=True)
class SpiteBaseline(Baseline):
    round: int
    turn: int


@dataclass(frozen=True)
class SpiteEvaluator(Evaluator):
    """Spite and Malice: a race to shed the pay-off pile, valued as a chance of winning.

    A rollout stops once ``turns`` turns are over, counting the one live at the search's
    start (so every rollout stops at the start of a turn of the same seat), when the game
    ends, or when the rollout's step cap cuts it. A finished game is worth 1 to its winner (a
    draw 1/2 each); otherwise seat ``s`` with ``a`` pay-off cards left against the other's
    ``b`` is worth ``1 / (1 + exp(-(race * (sqrt(b) - sqrt(a)) ± tempo)))``, ``+tempo`` when
    ``s`` is to move. ``race`` and ``tempo`` are a logistic fit of who won, from pay-off
    counts at turn starts, over 3,000 games of the greedy policy against itself (the square
    roots: one card is worth more near the end of the race than at its start). Only the
    public pay-off counts, the turn and the game number are read.
    """

    turns: int = 6
    race: float = 1.4
    tempo: float = 0.06

    def baseline(self, world: State) -> Baseline:
        base = super().baseline(world)
        assert isinstance(world, SpiteState)
        return SpiteBaseline(base.scores, base.rounds, world.round, world.turn)

    def stop(self, world: State, baseline: Baseline) -> bool:
        assert isinstance(baseline, SpiteBaseline) and isinstance(world, SpiteState)
        return world.round != baseline.round or world.turn >= baseline.turn + self.turns

    def evaluate(self, world: State, baseline: Baseline) -> list[float]:
        assert isinstance(baseline, SpiteBaseline) and isinstance(world, SpiteState)
        if world.is_over or world.round != baseline.round:
            result = world.result()
            if world.is_over:
                winners = result["winners"]
            else:
                winner = result["rounds"][baseline.rounds]["winner"]
                winners = [] if winner is None else [winner]
            if len(winners) != 1:
                return [0.5, 0.5]
            return [1.0 if seat in winners else 0.0 for seat in range(2)]
        left = [len(pile) for pile in world.payoff]
        mover = world.current_player
        z = self.race * (math.sqrt(left[1]) - math.sqrt(left[0])) + (
            self.tempo if mover == 0 else -self.tempo
        )
        first = 1.0 / (1.0 + math.exp(-z))
        return [first, 1.0 - first]


EVALUATOR = SpiteEvaluator()

SETTINGS = BotSettings(
    greedy=greedy,
    # Some 16 legal moves a step, and a tree of a few hundred iterations plays near-random
    # moves below its root (a gift to the opponent after every move that ends the turn): a
    # flat search instead, every root move played out in the same sampled worlds by the
    # greedy policy for six turns, and the greedy move kept unless another beats it by 1.5
    # standard errors of the paired differences. The rollouts' policy is Normal's, except
    # that a seat which cannot discard holds its cards rather than build towards the other's
    # upcard (``holding_greedy``): the search's opponent may hold back too.
    search=SearchConfig(
        rollout="greedy",
        rollout_policy=holding_greedy,
        max_rollout_steps=200,
        paired=True,
        greedy_trust=1.5,
        rollout_loop=rollout_loop,
    ),
    # One long game per round (74 turns, 250 steps of the greedy policy), so a rollout is cut
    # at a turn boundary, after six turns counting the one being played (each seat's reply
    # to the other seen twice), and scored as a chance of winning from the pay-off cards each
    # seat has left, fitted on games of the greedy policy. A cut after three turns (the rest
    # of this turn, the opponent's reply, our next turn) never saw the opponent use the stacks
    # we built after ending a turn with a playable upcard, so holding looked better than it is
    # (docs/bots.md: +0.046 against +0.006 ± 0.024 played out to the end). The former rank
    # and margin of the pay-off counts after 40 steps predicted who wins worse than a
    # constant (log loss 0.82 against 0.69; the fit: 0.60), its step at equal counts making a
    # one-card lead worth three quarters of a win at any stage, and a cut after a fixed
    # number of steps compared moves at different points of the turn cycle.
    evaluator=EVALUATOR,
    # The paired search spends an iteration on one whole rollout of six turns; 600 take
    # about twice as long as they did at three turns (1.05 s of CPython against 0.54 s on
    # mid-game positions of a loaded machine).
    hard_iterations=600,
)

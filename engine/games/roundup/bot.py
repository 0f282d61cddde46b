"""The greedy Roundup player: a heuristic that sees only its seat's view and legal actions.

Its plan, after the strategy notes of the game: bid on a suit whose low cards it holds
face-down (they block that stack), keep those cards hidden, push every other suit towards
closing, turn its face cards on rivals to drag out the cards other suits are waiting for
(or the cards a rival is hoarding), and pay pass penalties with cards it does not need.

>>> from engine.core import Action
>>> view = {"phase": "bid", "current_player": 0, "face_down": ["AH", "2H", "9H", "5S"]}
>>> legal = [Action(f"bid:{c}", 0, c, (c,)) for c in ("AH", "2H", "9H", "5S")]
>>> greedy(view, legal, None).id   # hearts: it holds the Ace and the 2, bids with its 9
'bid:9H'
"""

from __future__ import annotations

import random
from typing import Any

from engine.bots.evaluation import Evaluator
from engine.bots.ismcts import SearchConfig
from engine.cards import SUITS
from engine.core import Action, BotSettings
from engine.games.roundup.rules import NEXT_CARD, NUMBER_CARDS, NUMBER_RANKS, VALUE, named_cards
from engine.games.roundup.state import _NEXT, _SEATS, RoundupState, _SeatActions

RANK_VALUE = {r: i + 1 for i, r in enumerate(NUMBER_RANKS)}


def _value(c: str) -> int:
    """1..10 for number cards, 0 for face cards."""
    return RANK_VALUE.get(c[:-1], 0)


def greedy(view: dict[str, Any], legal: list[Action], rng: random.Random | None) -> Action:
    return _decide(view, legal, None)


def _decide(view: dict[str, Any], legal: list[Action], held: str | None) -> Action:
    """Normal's choice, keeping ``held`` (a card of another suit, or None) hidden as it
    keeps its own suit."""
    phase = view["phase"]
    if len(legal) == 1:
        return legal[0]
    if phase == "bid":
        return _bid(view, legal)
    if phase == "tiebreak":
        return _tiebreak(view, legal)
    if phase == "answer":
        return _answer(view, legal, held)
    return _play(view, legal, held)


def _bid(view: dict[str, Any], legal: list[Action]) -> Action:
    hand = view["face_down"]
    best: tuple[float, str] | None = None
    for action in legal:
        c = action.cards[0]
        suit = c[-1]
        same = [x for x in hand if x[-1] == suit and x != c]
        numbers = [_value(x) for x in same if _value(x)]
        if any(_value(x) > _value(c) for x in same):
            continue  # bid with the highest card of the suit: the low ones stay hidden
        # Low cards held back block the stack; face cards of the suit parry a Queen.
        score: float = sum(11 - v for v in numbers) + (8 if 1 in numbers else 0)
        score += 1.5 * sum(1 for x in same if not _value(x)) + 0.1 * _value(c)
        if best is None or score > best[0]:
            best = (score, action.id)
    assert best is not None
    return next(a for a in legal if a.id == best[1])


def _tiebreak(view: dict[str, Any], legal: list[Action]) -> Action:
    mine = view.get("my_suit")
    # A low card of another suit wins the tie and helps that suit close; our suit stays hidden.
    return min(
        legal,
        key=lambda a: (
            a.cards[0][-1] == mine,
            _value(a.cards[0]) if a.cards[0][-1] != mine else -_value(a.cards[0]),
        ),
    )


def _answer(view: dict[str, Any], legal: list[Action], held: str | None = None) -> Action:
    mine = view.get("my_suit")

    def cost(a: Action) -> tuple[int, int]:
        c = a.cards[0]
        if c == held:
            return (2, 0)
        if c[-1] == mine:
            # Parry with a face card of our suit, else give up our highest (least blocking) card.
            return (1, 0 if a.kind == "discard" else 11 - _value(c))
        return (0, _value(c) if a.kind == "reveal" else 20)

    return min(legal, key=cost)


def _chain(c: str, have: set[str]) -> int:
    """How many of the cards in ``have`` follow ``c`` in sequence (they become playable
    after it)."""
    n, v, suit = 0, _value(c), c[-1]
    while v + n + 1 <= 10 and f"{NUMBER_RANKS[v + n]}{suit}" in have:
        n += 1
    return n


def _play(view: dict[str, Any], legal: list[Action], held: str | None = None) -> Action:
    me = view["current_player"]
    mine = view.get("my_suit")
    up = view["face_up"][me]
    down = view["face_down"]
    plays = []
    end = None
    for a in legal:
        kind = a.kind
        if kind == "play":
            plays.append(a)
        elif kind == "end":
            end = a
    face_up_plays = [a for a in plays if a.cards[0] in up]
    if face_up_plays or end is not None:
        others = [a for a in face_up_plays if a.cards[0][-1] != mine]
        if others:
            held_up = set(up)
            return max(others, key=lambda a: _chain(a.cards[0], held_up))
        return end if end is not None else face_up_plays[0]
    down_plays = [a for a in plays if a.cards[0][-1] != mine and a.cards[0] != held]
    if down_plays:
        in_hand = set(up) | set(down)
        return max(down_plays, key=lambda a: _chain(a.cards[0], in_hand))
    if held is not None and not up and down == [held]:
        last = next((a for a in plays if a.cards[0] == held), None)
        if last is not None:
            return last  # the held card is the last one: playing it empties the hand
    attack = _best_attack(view, legal)
    if attack is not None:
        return attack
    return _best_pass(view, legal, held)


_ATTACK_KEYS: dict[str, str] = {}
"""An action id -> the attack it makes, "kind:seat:named" (a face card's id without the
card; "" for an action that is no attack), worked out once per id (the rollouts score the
same actions again and again)."""


def _attack_key(action_id: str) -> str:
    key = _ATTACK_KEYS.get(action_id)
    if key is None:
        bits = action_id.split(":")
        key = ""
        if bits[0] in ("jack", "queen", "king"):
            named = bits[3] if len(bits) > 3 else ""
            key = f"{bits[0]}:{bits[2]}:{named}"
        _ATTACK_KEYS[action_id] = key
    return key


def _attack_values(view: dict[str, Any]) -> dict[str, float]:
    """What each attack worth considering is worth before its card's own adjustment, by
    :func:`_attack_key`: only those worth more than nothing. An attack left out (a Queen
    or King naming what no hidden needed card of the target is, and no rival's suit or
    needed rank; a Queen naming our suit; a seat with no face-down card) is worth 0 or
    less, so it never beats one listed here, and ``_best_attack`` plays none at all unless
    one is worth more than 0."""
    return _values_of_attacks(
        view["current_player"],
        view.get("my_suit"),
        view["bids"],
        view["face_down_counts"],
        view["face_down"],
        view["needed"],
        view["face_up"],
        [set(x) for x in view["known_missing"]],
    )


def _jack_worth(count: int, rival: str | None, ally: bool) -> float:
    """A Jack on a seat holding ``count`` face-down cards: more cards, more to shake loose; a
    rival's more, a seat backing our suit's (``ally``) not at all."""
    base = 0.3 + 0.05 * count + (0.3 if rival and not ally else 0.0)
    if ally:
        base -= 1.0  # do not shake loose the cards of a player backing our suit
    return base


def _queen_worth(
    chances: list[tuple[str, float]], named: str, rival: str | None, ally: bool
) -> float:
    """A Queen naming the suit ``named``: three times the chance the seat holds a needed card
    of it (``chances``: each needed hidden card and that chance), one more if it is the seat's
    bid suit, one less on an ally. The sums' order is the same everywhere (the rollouts'
    choices are the policy's to the last bit)."""
    base = 0.0
    for c, w in chances:
        if c[-1] == named:
            base += w
    base *= 3
    if rival == named:
        base += 1.0  # a rival hoarding that suit must give one up
    if ally:
        base -= 1.0
    return base


def _king_worth(
    chances: list[tuple[str, float]], named: str, rivals_next: bool, ally: bool
) -> float:
    """A King naming the rank ``named``: twice the chance the seat holds a needed card of it,
    half a point more if it is the rank the seat's bid suit needs next (``rivals_next``), one
    less on an ally."""
    base = 0.0
    for c, w in chances:
        if c[:-1] == named:
            base += w
    base *= 2
    if rivals_next:
        base += 0.5
    if ally:
        base -= 1.0
    return base


def _values_of_attacks(
    me: int,
    mine: str | None,
    bids: list[str | None],
    counts: list[int],
    face_down: list[str],
    needed_by_suit: dict[str, str | None],
    face_up: list[list[str]],
    known_missing: list[set[str]],
) -> dict[str, float]:
    """:func:`_attack_values` from the view's parts (``known_missing``: each seat's set of
    cards known not to be face-down), which the rollouts read off the world."""
    needed = {s: c for s, c in needed_by_suit.items() if c is not None and s != mine}
    visible = set().union(*face_up)
    hidden_needs = [c for c in needed.values() if c not in visible and c not in face_down]
    unknown_total = max(1, sum(counts) - counts[me])
    out: dict[str, float] = {}
    for t in range(len(counts)):
        if t == me or counts[t] == 0:
            continue
        bid = bids[t]
        rival = bid[-1] if bid else None
        ally = mine is not None and rival == mine
        # Each hidden needed card with the rough chance that the seat holds it.
        missing = known_missing[t]
        share = counts[t] / unknown_total
        chances = [(c, 0.0 if c in missing else share) for c in hidden_needs]
        base = _jack_worth(counts[t], rival, ally)
        if base > 0:
            out[f"jack:{t}:"] = base
        suits = [c[-1] for c in hidden_needs]
        if rival is not None:
            suits.append(rival)
        for named in suits:
            key = f"queen:{t}:{named}"
            if named == mine or key in out:
                continue
            base = _queen_worth(chances, named, rival, ally)
            if base > 0:
                out[key] = base
        ranks = [c[:-1] for c in hidden_needs]
        rival_needs = needed.get(str(rival)) if rival and rival != mine else None
        if rival_needs is not None:
            ranks.append(rival_needs[:-1])
        for named in ranks:
            key = f"king:{t}:{named}"
            if key in out:
                continue
            rivals_next = bool(
                rival and rival != mine and f"{named}{rival}" == needed.get(str(rival))
            )
            base = _king_worth(chances, named, rivals_next, ally)
            if base > 0:
                out[key] = base
    return out


def _best_attack(view: dict[str, Any], legal: list[Action]) -> Action | None:
    """The first of the best attacks (by :func:`_attack_values`, a face card of our suit
    spent last), or None when none is worth more than nothing."""
    values: dict[str, float] | None = None  # worked out at the first attack listed
    mine = view.get("my_suit")
    holds_our_suit_cards = False
    keys = _ATTACK_KEYS
    best: tuple[float, Action] | None = None
    for a in legal:
        key = keys.get(a.id)
        if key is None:
            key = _attack_key(a.id)
        if not key:
            continue
        if values is None:
            values = _attack_values(view)
            if not values:
                return None
            holds_our_suit_cards = mine is not None and any(
                c[-1] == mine and c[:-1] in RANK_VALUE for c in view["face_down"]
            )
        base = values.get(key)
        if base is None:
            continue
        score = base
        # Face cards of our own suit parry a Queen on it: spend them last.
        if holds_our_suit_cards and a.cards[0][-1] == mine:
            score -= 0.4
        if best is None or score > best[0]:
            best = (score, a)
    if best is None or best[0] <= 0:
        return None
    return best[1]


def _best_pass(view: dict[str, Any], legal: list[Action], held: str | None = None) -> Action:
    mine = view.get("my_suit")
    stacks = view["stacks"]
    passes = [a for a in legal if a.kind == "pass"]
    if not passes:
        return legal[0]

    def cost(a: Action) -> tuple[int, int]:
        if not a.cards:
            return (0, 0)
        c = a.cards[0]
        if c == held:
            return (2, 0)
        v = _value(c)
        if not v:  # discarding a face card: keep our suit's ones for defence
            return (1 if c[-1] == mine else 0, 0)
        if c[-1] == mine:
            return (1, 10 - v)  # only the highest of our suit, it blocks least
        return (0, v - stacks[c[-1]])  # soon-playable cards push other suits along

    best_pass = min(passes, key=cost)
    if cost(best_pass)[0] >= 1:
        # Only our own suit (or the held card) left to turn up: a face card spent on
        # someone is cheaper.
        attacks = [
            a
            for a in legal
            if a.kind in ("jack", "queen", "king")
            and not (a.kind == "queen" and a.id.endswith(f":{mine}"))
        ]
        if attacks:
            return attacks[0]
    return best_pass


def held_card(view: dict[str, Any]) -> str | None:
    """The card a spoiler keeps hidden: its highest face-down number card of a suit nobody
    bid on, while no other seat backs its own suit (None otherwise, or before the bids are
    shown). Held to the end, it keeps that suit from closing before the bid suits, so no bid
    wins; the spoiler then races to empty its hand for the other point.

    >>> view = {"viewer": 0, "my_suit": "H", "bids": ["9H", "4S"],
    ...         "face_down": ["2H", "7C", "10D", "3D", "KC"]}
    >>> held_card(view)
    '10D'
    >>> held_card({**view, "bids": ["9H", "4H"]}) is None   # an ally on our suit
    True
    """
    me = view.get("viewer")
    mine = view.get("my_suit")
    bids = view.get("bids") or []
    if me is None or mine is None or any(b is None for b in bids):
        return None
    others = {b[-1] for t, b in enumerate(bids) if t != me}
    if mine in others:
        return None
    bid_suits = others | {mine}
    spare = [c for c in view["face_down"] if _value(c) and c[-1] not in bid_suits]
    return max(spare, key=_value, default=None)


def spoiler(view: dict[str, Any], legal: list[Action], rng: random.Random | None) -> Action:
    """Normal's play, but keeping :func:`held_card` hidden as it keeps its own suit: a model
    of an opponent who spoils the bids instead of backing its own (the search's rollouts can
    mix it in, see ``SearchConfig.rollout_mix``)."""
    return _decide(view, legal, held_card(view))


# ----- the rollouts' loop ---------------------------------------------------------------------
# A rollout plays the greedy policy at every seat thousands of times a decision. In the play
# phase, nearly every step, the loop below reads the greedy's choice off the world itself:
# the same move as ``greedy(world.policy_view(seat), legal, None)`` (tests/test_roundup.py
# holds the two to the same choice at every step of many rollouts), without building the
# view, and with the attacks scored per face card rather than per listed action.


def greedy_rollout(
    world: RoundupState, rng: random.Random | None, round_end: int, max_steps: int
) -> int:
    """The search's greedy rollout (``SearchConfig.greedy_rollout``): the greedy policy at
    every seat (it draws nothing from ``rng``) until more than ``round_end`` rounds are
    played (-1: no such stop), the match ends or ``max_steps`` steps are taken; returns the
    steps taken. With a round to stop at, the world does not deal the next round (the
    evaluator reads the scores only)."""
    if round_end >= 0:
        world._deal_next = False
    seats = _SEATS[world.players]
    rounds = world.rounds
    steps = 0
    while steps < max_steps and world.phase != "over":
        if round_end >= 0 and len(rounds) > round_end:
            break
        if world.phase == "play":
            action = _rollout_play(world, seats[world.turn])  # type: ignore[index]
        else:
            legal = world._legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                actor = world.current_player
                assert actor is not None
                action = greedy(world.policy_view(actor), legal, None)
        world._rollout_step(action)  # no round-end stop is set here
        steps += 1
    return steps


def _rollout_play(world: RoundupState, seat: _SeatActions) -> Action:
    """The greedy's move in the play phase, as :func:`_play` makes it (no held card)."""
    p = world.turn
    assert p is not None
    stacks = world.stacks
    up = world.face_up[p]
    bid = world.bids[p]
    mine = bid[-1] if bid else None
    ups = [c for c in up if VALUE.get(c, -1) == stacks[c[-1]] + 1]
    played = world.played_this_turn
    if played or ups:
        # The legal moves: the playable face-up cards, and the end once a card was played.
        others = [c for c in ups if c[-1] != mine]
        if others:
            if len(others) == 1:
                return seat.up[others[0]]
            held_up = set(up)
            return seat.up[max(others, key=lambda c: _chain(c, held_up))]
        return seat.end if played else seat.up[ups[0]]
    down = world.face_down[p]
    down_plays = []
    faces = []
    numbers = []
    for c in down:
        v = VALUE.get(c)
        if v is None:
            faces.append(c)
        else:
            numbers.append(c)
            if v == stacks[c[-1]] + 1 and c[-1] != mine:
                down_plays.append(c)
    if down_plays:
        if len(down_plays) == 1:
            return seat.down[down_plays[0]]
        in_hand = set(up) | set(down)
        return seat.down[max(down_plays, key=lambda c: _chain(c, in_hand))]
    if faces:
        attack = _rollout_attack(world, seat, p, mine, faces, numbers)
        if attack is not None:
            return attack
    # _best_pass: the penalty of least cost, first of equals.
    pay = seat.pay
    if numbers:
        best_cost: tuple[int, int] | None = None
        best_card = numbers[0]
        for c in numbers:
            v = VALUE[c]
            cost = (1, 10 - v) if c[-1] == mine else (0, v - stacks[c[-1]])
            if best_cost is None or cost < best_cost:
                best_cost, best_card = cost, c
        assert best_cost is not None
        spent_ours = best_cost[0] >= 1
        best = pay[best_card]
    elif down:  # face cards only
        best_card = next((c for c in down if c[-1] != mine), down[0])
        spent_ours = best_card[-1] == mine
        best = pay[best_card]
    else:
        return seat.pass_free
    if spent_ours:
        # Only our own suit left to turn up: a face card spent on someone is cheaper (the
        # first listed, but a Queen naming our suit).
        for c in faces:
            for a in seat.faces[c]:
                if not (a.id[0] == "q" and a.id.endswith(f":{mine}")):
                    return a
    return best


_SUIT_AT = {s: i for i, s in enumerate(SUITS)}
_RANK_AT = {r: i for i, r in enumerate(NUMBER_RANKS)}


def _rollout_attack(
    world: RoundupState,
    seat: _SeatActions,
    p: int,
    mine: str | None,
    faces: list[str],
    numbers: list[str],
) -> Action | None:
    """:func:`_best_attack` over the face cards ``faces`` (in hand order) of seat ``p``.

    Each kind's best attack is the first listed of the highest value (a face card's moves
    are listed target by target, each naming the suits or ranks in order, the same for
    every card of the kind), so it is worked out here target by target in that order from
    :func:`_values_of_attacks`' sums, for the kinds the seat holds only and without the
    values' keys: the same floats, so the same move. A face card of our suit is scored its
    attack's value less 0.4, and two values a few units in the last place apart can be one
    after it, the first then kept: so for such cards each kind's best is found by the score
    less 0.4, as :func:`_best_attack` compares them, not by the value."""
    stacks = world.stacks
    face_down = world.face_down
    face_up = world.face_up
    own = face_down[p]
    counts = [len(h) for h in face_down]
    needed: dict[str, str] = {}
    needs: list[str] = []  # the hidden needed cards, suit by suit
    for s in SUITS:
        c = _NEXT[s][stacks[s]]
        if c is None or s == mine:
            continue
        needed[s] = c
        if c in own:
            continue
        for h in face_up:
            if c in h:
                break
        else:
            needs.append(c)
    want_jack = want_queen = want_king = False
    holds_our_suit_cards = mine is not None and any(c[-1] == mine for c in numbers)
    own_kinds = ""  # the kinds of which the seat holds a face card of our suit, scored less 0.4
    for c in faces:
        first = c[0]
        if first == "J":
            want_jack = True
        elif first == "Q":
            want_queen = True
        else:
            want_king = True
        if holds_our_suit_cards and c[-1] == mine:
            own_kinds += first
    own_jack, own_queen, own_king = "J" in own_kinds, "Q" in own_kinds, "K" in own_kinds
    unknown_total = max(1, sum(counts) - counts[p])
    bids = world.bids
    excluded = world.excluded
    jack: tuple[float, int] | None = None
    queen: tuple[float, int] | None = None
    king: tuple[float, int] | None = None
    jack_less: tuple[float, int] | None = None  # the best by the score less 0.4
    queen_less: tuple[float, int] | None = None
    king_less: tuple[float, int] | None = None
    for t in range(world.players):
        if t == p or counts[t] == 0:
            continue
        at = t if t < p else t - 1  # the target's place among the seat's targets
        bid = bids[t]
        rival = bid[-1] if bid else None
        ally = mine is not None and rival == mine
        if want_jack:
            base = _jack_worth(counts[t], rival, ally)
            if base > 0:
                if jack is None or base > jack[0]:
                    jack = (base, at)
                if own_jack and (jack_less is None or base - 0.4 > jack_less[0]):
                    jack_less = (base - 0.4, at)
        if not (want_queen or want_king):
            continue
        missing = excluded[t]
        share = counts[t] / unknown_total
        chances = [(c, 0.0 if c in missing else share) for c in needs]
        if want_queen:
            named_suits = {c[-1] for c in needs}
            if rival is not None:
                named_suits.add(rival)
            for named in SUITS:  # the order of the listing
                if named not in named_suits or named == mine:
                    continue
                base = _queen_worth(chances, named, rival, ally)
                if base > 0:
                    if queen is None or base > queen[0]:
                        queen = (base, 4 * at + _SUIT_AT[named])
                    if own_queen and (queen_less is None or base - 0.4 > queen_less[0]):
                        queen_less = (base - 0.4, 4 * at + _SUIT_AT[named])
        if want_king:
            named_ranks = {c[:-1] for c in needs}
            rival_needs = needed.get(rival) if rival and rival != mine else None
            rival_rank = rival_needs[:-1] if rival_needs is not None else None
            if rival_rank is not None:
                named_ranks.add(rival_rank)
            for named in NUMBER_RANKS:  # the order of the listing
                if named not in named_ranks:
                    continue
                # named == rival_rank: the rank the rival's suit needs next
                base = _king_worth(chances, named, named == rival_rank, ally)
                if base > 0:
                    if king is None or base > king[0]:
                        king = (base, 10 * at + _RANK_AT[named])
                    if own_king and (king_less is None or base - 0.4 > king_less[0]):
                        king_less = (base - 0.4, 10 * at + _RANK_AT[named])
    if jack is None and queen is None and king is None:
        return None
    best: tuple[float, str, int] | None = None
    for c in faces:
        first = c[0]
        # Face cards of our own suit parry a Queen on it: spend them last (scored less 0.4).
        if holds_our_suit_cards and c[-1] == mine:
            top = jack_less if first == "J" else queen_less if first == "Q" else king_less
        else:
            top = jack if first == "J" else queen if first == "Q" else king
        if top is None:
            continue
        score = top[0]
        if best is None or score > best[0]:
            best = (score, c, top[1])
    if best is None or best[0] <= 0:
        return None
    return seat.faces[best[1]][best[2]]


# ----- the random rollouts of two players -----------------------------------------------------
# At two players the rollouts play uniformly random moves to the round's end, some 80 steps
# each, 1,500 a decision. The loop below makes the generic loop's random choice (the same
# draw of the search's rng over the same listing, in the listing's order) from a count of the
# moves rather than a list of Action objects, and carries the move out on the world's lists
# directly rather than through ``_apply``'s look-up of the id.

_AFTER: dict[str, str | None] = {c: NEXT_CARD.get((c[-1], v)) for c, v in VALUE.items()}
"""A number card -> the card its suit's stack needs once it is played (None: the suit closes)."""

_FACE_MOVES = {"J": 1, "Q": len(SUITS), "K": len(NUMBER_RANKS)}
"""How many moves a face card has on each target: a Jack one, a Queen a suit each, a King a
rank each (``_face_actions``' order)."""


def random_rollout(world: RoundupState, rng: random.Random, baseline: Any, max_steps: int) -> int:
    """The search's rollout at two players (``SearchConfig.rollout_loop``): a uniformly random
    legal move at every step (``rng.randrange(len(legal))`` where there is a choice, drawn the
    same way) until the round live at the search's start ends, the match ends or ``max_steps``
    steps are taken; returns the steps taken. The very moves of the generic loop with
    ``rollout="random"`` (tests/test_roundup.py holds it to that); the world is left as only
    the evaluator reads it: the next round undealt, no history written, no note of the last
    effect kept."""
    round_end = baseline.rounds
    world._deal_next = False
    world._legal = None
    rounds = world.rounds
    getrandbits = rng.getrandbits
    players = world.players
    face_up = world.face_up
    face_down = world.face_down
    stacks = world.stacks
    closed = world.closed
    discard = world.discard
    excluded = world.excluded
    numbers_only = NUMBER_CARDS
    value = VALUE
    after = _AFTER
    face_moves = _FACE_MOVES
    targets = players - 1
    need = {c for c in (_NEXT[s][stacks[s]] for s in SUITS) if c is not None}
    steps = 0
    while steps < max_steps:
        if len(rounds) > round_end:
            break  # the round is over and scored (the tree's walk may have ended it)
        phase = world.phase
        if phase == "play":
            p = world.turn
            assert p is not None
            up = face_up[p]
            ups = [c for c in up if c in need]
            played = world.played_this_turn
            n = len(ups) + 1 if played else len(ups)
            if n:
                # A face-up card to play, or the end of the turn once one was played.
                i = 0
                if n > 1:
                    k = n.bit_length()
                    i = getrandbits(k)
                    while i >= n:
                        i = getrandbits(k)
                steps += 1
                if i == len(ups):
                    _next_turn(world, p)
                    continue
                c = ups[i]
                up.remove(c)
                need.discard(c)
                nxt = after[c]
                if nxt is None:
                    closed.append(c[-1])
                else:
                    need.add(nxt)
                stacks[c[-1]] = value[c]
                if world.first_empty is None and not up and not face_down[p]:
                    world.first_empty = p
                if len(closed) == 4:
                    world._end_round()
                    continue
                played.append(c)
                for x in up:
                    if x in need:
                        break  # the seat may go on or end the turn
                else:
                    _next_turn(world, p)
                continue
            # No face-up card to play: a face-down card, a face card on a seat, or a pass.
            down = face_down[p]
            plays = []
            faces = 0
            numbers = 0
            for c in down:
                if c in numbers_only:
                    numbers += 1
                    if c in need:
                        plays.append(c)
                else:
                    faces += face_moves[c[0]]
            attacks = faces * targets
            n = len(plays) + attacks + (numbers or len(down) or 1)
            i = 0
            if n > 1:
                k = n.bit_length()
                i = getrandbits(k)
                while i >= n:
                    i = getrandbits(k)
            steps += 1
            if i < len(plays):
                c = plays[i]
                down.remove(c)
                need.discard(c)
                nxt = after[c]
                if nxt is None:
                    closed.append(c[-1])
                else:
                    need.add(nxt)
                stacks[c[-1]] = value[c]
                if world.first_empty is None and not down and not face_up[p]:
                    world.first_empty = p
                if len(closed) == 4:
                    world._end_round()
                    continue
                _next_turn(world, p)
                continue
            i -= len(plays)
            if i < attacks:
                # The face cards' moves, card by card in hand order, each target by target.
                for c in down:
                    if c not in numbers_only:
                        per = face_moves[c[0]] * targets
                        if i < per:
                            break
                        i -= per
                at, j = divmod(i, face_moves[c[0]])
                t = at if at < p else at + 1
                _face_card(world, p, c, t, j)
                continue
            i -= attacks
            # The pass: its penalty a number card, else a face card, else none.
            if numbers:
                for c in down:  # the i-th number card
                    if c in numbers_only:
                        if not i:
                            break
                        i -= 1
            elif down:
                c = down[i]
            else:
                _next_turn(world, p)
                continue
            down.remove(c)
            if c in numbers_only:
                up.append(c)
            else:
                discard.append(c)
                excluded[p] = excluded[p] | numbers_only
            if world.first_empty is None and not down and not up:
                world.first_empty = p
            _next_turn(world, p)
            continue
        if phase == "answer":
            attack = world.attack
            assert attack is not None
            t = int(attack["target"])
            pool = named_cards(attack["kind"], attack["named"])
            down = face_down[t]
            answers = [c for c in down if c in pool]
            n = len(answers)
            i = 0
            if n > 1:
                k = n.bit_length()
                i = getrandbits(k)
                while i >= n:
                    i = getrandbits(k)
            steps += 1
            c = answers[i]
            down.remove(c)
            if c in numbers_only:
                face_up[t].append(c)
            else:
                discard.append(c)
            if world.first_empty is None and not down and not face_up[t]:
                world.first_empty = t
            by = int(attack["by"])
            world.attack = None
            world.phase = "play"
            _next_turn(world, by)
            continue
        if phase == "over":
            break
        # A bid or a tie-break card (a search started before the play): the generic way.
        legal = world._list_actions()
        n = len(legal)
        i = rng.randrange(n) if n > 1 else 0
        steps += 1
        world._apply(legal[i])
        stacks = world.stacks
        need = {c for c in (_NEXT[s][stacks[s]] for s in SUITS) if c is not None}
    world._legal = None
    return steps


def _next_turn(world: RoundupState, p: int) -> None:
    """``_end_turn`` after seat ``p``'s turn: the next seat with a card in hand plays."""
    n = world.players
    face_up = world.face_up
    face_down = world.face_down
    for i in range(1, n + 1):
        q = (p + i) % n
        if face_up[q] or face_down[q]:
            world.turn = q
            world.played_this_turn = []
            return
    raise AssertionError("a live round always has a card in some hand")


def _face_card(world: RoundupState, p: int, c: str, t: int, j: int) -> None:
    """``_face_card``: seat ``p`` plays face card ``c`` on seat ``t``, a Queen naming suit
    ``j`` or a King rank ``j`` (their listing's order), without the note of its effect."""
    face_down = world.face_down
    face_down[p].remove(c)
    world.discard.append(c)
    if world.first_empty is None and not face_down[p] and not world.face_up[p]:
        world.first_empty = p
    first = c[0]
    if first == "J":
        down = face_down[t]
        if down:
            pick = down.pop(world.rng.randrange(len(down)))
            if pick in NUMBER_CARDS:
                world.face_up[t].append(pick)
            else:
                world.discard.append(pick)
            if world.first_empty is None and not down and not world.face_up[t]:
                world.first_empty = t
        _next_turn(world, p)
        return
    if first == "Q":
        kind, named = "queen", SUITS[j]
    else:
        kind, named = "king", NUMBER_RANKS[j]
    pool = named_cards(kind, named)
    for x in face_down[t]:
        if x in pool:
            world.attack = {"kind": kind, "by": p, "card": c, "target": t, "named": named}
            world.phase = "answer"
            return
    # Nothing matched: everyone now knows the target holds no such card face-down.
    world.excluded[t] = world.excluded[t] | pool
    _next_turn(world, p)


TWO_PLAYER_SEARCH = SearchConfig(
    rollout="random",
    max_rollout_steps=1_000_000,  # a round always ends
    exploration=1.0,
    greedy_trust=None,
    rollout_loop=random_rollout,
)
"""The search at two players. There every card is dealt between the two seats, so once the
bids are shown each seat can work out the other's hand: the round is a game of open cards, a race
over who can hold its suit back longer. The greedy rollouts of the larger tables judge that
race poorly: with them Hard won 0.342 of 120 rounds against a plain search of 200
iterations. Uniformly random rollouts are cheap enough for nearly three times the
iterations at about the same time a decision, and with no greedy move kept against the
search they beat that plain search (docs/bots.md, "What was tried"). The evaluator
stays the game's: half the round's rank, half its margin, which beats Normal by more points
than the rank alone."""

SETTINGS = BotSettings(
    greedy=greedy,
    # Short rounds and a cheap greedy policy: greedy rollouts to the end of the round.
    search=SearchConfig(rollout="greedy", greedy_rollout=greedy_rollout),
    # 0..4 points per round.
    evaluator=Evaluator(rank_weight=0.5, scale=2.0),
    hard_iterations=550,
    sizes={2: {"search": TWO_PLAYER_SEARCH, "hard_iterations": 1500}},
)

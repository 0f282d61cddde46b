"""Roundup (Thomas Gale): 2 to 6 players race to build four suit stacks from Ace to 10,
each hoping that the suit they secretly bid on is the last one to close.

One :class:`RoundupState` is a whole match: rounds are dealt inside ``_apply`` with the
state's own RNG until someone leads alone with the target score (10 by default).

Action ids (``cards`` always names the card that leaves the actor's hand):

- ``bid:7H``            bid on a suit with a number card (secret until everyone has bid)
- ``tiebreak:3S``       tied for first player: turn a face-down number card up (secret too)
- ``play:7H``           put a face-up or face-down number card on its stack
- ``end``               stop playing face-up cards this turn
- ``jack:JS:2``         Jack on seat 2: a random card of their face-down hand turns up
- ``queen:QS:2:H``      Queen on seat 2 naming hearts; ``king:KS:2:7`` King naming 7
- ``reveal:7H`` / ``discard:QH``   the target's answer to a Queen or King
- ``pass:7H`` / ``pass:JS`` / ``pass``   pass, paying the penalty with that card (or none)

View keys (``view(player)``, all JSON-ready):

``game``, ``players``, ``viewer``, ``phase`` ("bid", "tiebreak", "play", "answer",
"over"), ``current_player``, ``turn`` (whose turn it is in play; differs from
``current_player`` while a target answers), ``round``, ``dealer``, ``first_player``,
``target_score``, ``scores``, ``stacks`` (suit -> highest number on it, 0 = empty),
``needed`` (suit -> next card id or None), ``closed`` (suits in closing order),
``discard`` (face cards, oldest first), ``face_up`` (per seat), ``face_down_counts``,
``hand_counts``, ``face_down`` (the viewer's own face-down hand; None for a spectator),
``bids`` (per seat, the bid card once all bids are revealed, else None),
``bid_placed`` (per seat, whether that seat has bid), ``cannot_bid`` (per seat),
``my_bid`` (the viewer's own bid card, even while secret), ``my_suit``,
``tiebreak`` ({"tied", "placed", "history"}; history lists each tie-break's [seat, card]
pairs), ``played_this_turn``, ``attack`` (pending Queen/King: {"by", "card", "target",
"named"} or None), ``last_effect`` (outcome of the latest face card or pass),
``first_empty`` (seat that emptied its hands first this round, or None),
``known_missing`` (per seat, cards publicly known not to be in its face-down hand),
``last_round`` (summary of the previous round or None), ``rounds`` (all summaries),
``winners``. A round summary holds ``round``, ``dealer``, ``closing_suit``, ``bids``,
``correct`` (seats that named it), ``bid_points``, ``first_empty``, ``points``, ``scores``.

>>> import engine
>>> state = engine.new_game("roundup", players=4, seed=3)
>>> state.view(None)["phase"], len(state.view(0)["face_down"])
('bid', 13)
>>> state.legal_actions()[0].id.startswith("bid:")
True
>>> [bid_points(k) for k in (1, 2, 3, 4)]
[3, 2, 1, 0]
"""

from __future__ import annotations

import random
from typing import Any

from engine.cards import SUIT_NAMES, SUITS, card_name, shuffle, shuffled
from engine.core import Action, LazyRandom, State
from engine.games.roundup.rules import (
    DECK,
    FACE_KINDS,
    NEXT_CARD,
    NUMBER_CARDS,
    NUMBER_RANKS,
    VALUE,
    bid_points,
    consistent_deal,
    explain,
    named_cards,
    seat_name,
    sort_cards,
)

# ----- the actions, made once ----------------------------------------------------------------
# Listing the legal actions is the engine's hottest path (bots list states thousands of
# times a decision), so every action object is made once and shared by all states, and
# everything _apply needs to know about it is looked up, not worked out.


def _move_table() -> dict[str, tuple[str, str | None, int, str]]:
    """What each action id asks ``_apply`` to do: (kind, card, target seat, named suit or
    rank), for every id any table can list."""
    moves: dict[str, tuple[str, str | None, int, str]] = {
        "end": ("end", None, -1, ""),
        "pass": ("pass", None, -1, ""),
    }
    for c in DECK:
        for kind in ("bid", "tiebreak", "play", "reveal", "discard", "pass"):
            moves[f"{kind}:{c}"] = (kind, c, -1, "")
        kind = FACE_KINDS.get(c[0], "")
        for t in range(6):  # the most players a table has
            if kind == "jack":
                moves[f"jack:{c}:{t}"] = (kind, c, t, "")
            elif kind:
                for named in SUITS if kind == "queen" else NUMBER_RANKS:
                    moves[f"{kind}:{c}:{t}:{named}"] = (kind, c, t, named)
    return moves


_MOVES = _move_table()

_NEXT: dict[str, list[str | None]] = {s: [NEXT_CARD.get((s, v)) for v in range(11)] for s in SUITS}
"""Per suit, the card its stack needs next when its top is worth 0..10 (None once closed)."""


class _SeatActions:
    """Every action one seat can take at a table of ``players``, by the card it moves."""

    def __init__(self, p: int, players: int) -> None:
        self.bid: dict[str, Action] = {}
        self.tiebreak: dict[str, Action] = {}
        self.up: dict[str, Action] = {}
        self.down: dict[str, Action] = {}
        self.answer: dict[str, Action] = {}  # turn up a number card, discard a face card
        self.pay: dict[str, Action] = {}  # the pass penalty
        self.faces: dict[str, tuple[Action, ...]] = {}  # a face card on every other seat
        self.end = Action("end", p, "End turn")
        self.pass_free = Action("pass", p, "Pass")
        for c in DECK:
            name, cards = card_name(c), (c,)
            if c not in NUMBER_CARDS:
                self.answer[c] = Action(f"discard:{c}", p, f"Discard {name}", cards)
                self.pay[c] = Action(f"pass:{c}", p, f"Pass, discard {name}", cards)
                self.faces[c] = tuple(
                    a for t in range(players) if t != p for a in _face_actions(c, p, t)
                )
                continue
            self.bid[c] = Action(f"bid:{c}", p, f"Bid {name} ({SUIT_NAMES[c[-1]]})", cards)
            self.tiebreak[c] = Action(
                f"tiebreak:{c}", p, f"Turn up {name} for the tie-break", cards
            )
            self.up[c] = Action(f"play:{c}", p, f"Play {name}", cards)
            self.down[c] = Action(f"play:{c}", p, f"Play {name} from face-down", cards)
            self.answer[c] = Action(f"reveal:{c}", p, f"Turn up {name}", cards)
            self.pay[c] = Action(f"pass:{c}", p, f"Pass, turn up {name}", cards)


def _face_actions(c: str, p: int, t: int) -> tuple[Action, ...]:
    """Every way seat ``p`` can play face card ``c`` on seat ``t``."""
    name, kind, who = card_name(c), FACE_KINDS[c[0]], seat_name(t)
    if kind == "jack":
        return (Action(f"jack:{c}:{t}", p, f"{name} on {who}: random card", (c,)),)
    if kind == "queen":
        return tuple(
            Action(f"queen:{c}:{t}:{s}", p, f"{name} on {who}: name {SUIT_NAMES[s]}", (c,))
            for s in SUITS
        )
    return tuple(
        Action(f"king:{c}:{t}:{r}", p, f"{name} on {who}: name {r}", (c,)) for r in NUMBER_RANKS
    )


_SEATS: dict[int, tuple[_SeatActions, ...]] = {}
"""The seats' actions by table size, made when the first state of that size is."""


def _seats(players: int) -> tuple[_SeatActions, ...]:
    seats = _SEATS.get(players)
    if seats is None:
        seats = _SEATS[players] = tuple(_SeatActions(p, players) for p in range(players))
    return seats


class RoundupState(State):
    """A whole Roundup match. See the module docstring for actions and view keys."""

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        self._init_common("roundup", players, seed, options)
        self.target = int(options.get("target_score", 10))
        self.scores = [0] * players
        self.rounds: list[dict[str, Any]] = []
        self.winners: list[int] = []
        self.round_no = 0
        self.dealer = self.rng.randrange(players)
        _seats(players)  # the actions this table lists, made on first use
        self._revealed = False
        self._legal: list[Action] | None = None
        self._deal()

    # ----- round set-up -----------------------------------------------------------------
    def _from_left(self) -> list[int]:
        n = self.players
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def _deal(self) -> None:
        n = self.players
        self.round_no += 1
        hands: list[list[str]] = [[] for _ in range(n)]
        for i, c in enumerate(shuffled(DECK, self.rng)):
            hands[(self.dealer + 1 + i) % n].append(c)
        self.face_down = [sort_cards(h) for h in hands]
        self.face_up: list[list[str]] = [[] for _ in range(n)]
        self.stacks = {s: 0 for s in SUITS}
        self.closed: list[str] = []
        self.discard: list[str] = []
        self.bids: list[str | None] = [None] * n
        self.pending: dict[int, str] = {}
        # Cards known not to be in each seat's face-down hand. Each set is replaced, never
        # changed in place, so copies of the state share them.
        self.excluded: list[set[str]] = [set() for _ in range(n)]
        self.first_empty: int | None = None
        self.first_player: int | None = None
        self.turn: int | None = None
        self.played_this_turn: list[str] = []
        self.attack: dict[str, Any] | None = None
        self.last_effect: dict[str, Any] | None = None
        self.tied: list[int] = []
        self.tiebreaks: list[list[list[Any]]] = []
        self.cannot_bid = [False] * n
        self.queue: list[int] = []
        for p in self._from_left():
            if any(c in NUMBER_CARDS for c in self.face_down[p]):
                self.queue.append(p)
            else:  # no number card at all: no bid, and everyone knows why
                self.cannot_bid[p] = True
                self.excluded[p] = self.excluded[p] | NUMBER_CARDS
        self.phase = "bid"
        self._revealed = True

    _deal_next = True
    """False only on a search's rollout world, which stops at the round's end: the round is
    scored but the next one not dealt."""

    # ----- the contract -----------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self.phase in ("bid", "tiebreak"):
            return self.queue[0]
        if self.phase == "play":
            return self.turn
        if self.phase == "answer":
            assert self.attack is not None
            return int(self.attack["target"])
        return None

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def _answers(self, target: int, kind: str, named: str) -> list[str]:
        pool = named_cards(kind, named)
        return [c for c in self.face_down[target] if c in pool]

    def _legal_actions(self) -> list[Action]:
        # Cached until the next action: apply() checks legality by listing the actions again.
        if self._legal is None:
            self._legal = self._list_actions()
        return list(self._legal)

    def _list_actions(self) -> list[Action]:
        phase = self.phase
        if phase == "play":
            p = self.turn
            assert p is not None
            seat = _SEATS[self.players][p]
            stacks = self.stacks  # rules.playable inlined: this runs for every listing
            ups = seat.up
            out = [ups[c] for c in self.face_up[p] if VALUE.get(c, -1) == stacks[c[-1]] + 1]
            if self.played_this_turn:
                out.append(seat.end)
                return out
            if out:
                return out
            return self._free_actions(p, seat)
        if phase == "answer":
            attack = self.attack
            assert attack is not None
            p = int(attack["target"])
            answer = _SEATS[self.players][p].answer
            return [answer[c] for c in self._answers(p, attack["kind"], attack["named"])]
        # bid or tiebreak
        p = self.queue[0]
        seat = _SEATS[self.players][p]
        table = seat.bid if phase == "bid" else seat.tiebreak
        return [table[c] for c in self.face_down[p] if c in NUMBER_CARDS]

    def _free_actions(self, p: int, seat: _SeatActions) -> list[Action]:
        """Choices when no face-up card can be played: face-down card, face card or pass."""
        down = self.face_down[p]
        stacks = self.stacks
        plays = seat.down
        faces = seat.faces
        out = []  # the face-down plays, then the face cards, then the passes
        attacks: list[Action] = []
        numbers = []
        for c in down:
            if c in NUMBER_CARDS:
                numbers.append(c)
                if VALUE[c] == stacks[c[-1]] + 1:  # rules.playable, inlined
                    out.append(plays[c])
            else:
                attacks += faces[c]
        out += attacks
        pay = seat.pay
        if numbers:
            out += [pay[c] for c in numbers]
        elif down:
            out += [pay[c] for c in down]
        else:
            out.append(seat.pass_free)
        return out

    # ----- applying ---------------------------------------------------------------------
    def _apply(self, action: Action) -> bool:
        self._revealed = False
        self._legal = None
        kind, c, target, named = _MOVES[action.id]
        if kind == "play":
            assert c is not None
            self._play(c)
        elif kind == "pass":
            self._pass(c)
        elif kind == "end":
            self._end_turn()
        elif kind == "reveal" or kind == "discard":
            assert c is not None
            self._answer(c)
        elif kind == "bid":
            assert c is not None
            self._secret_pick(c)
            if not self.queue:
                self._reveal_bids()
        elif kind == "tiebreak":
            assert c is not None
            self._secret_pick(c)
            if not self.queue:
                self._reveal_tiebreak()
        else:  # jack, queen or king
            assert c is not None
            self._face_card(kind, c, target, named)
        return self._revealed

    def _secret_pick(self, c: str) -> None:
        p = self.queue.pop(0)
        self.face_down[p].remove(c)
        self.pending[p] = c

    def _reveal_bids(self) -> None:
        for p, c in self.pending.items():
            self.bids[p] = c
            self.face_up[p].append(c)
        self.pending = {}
        self._revealed = True
        bidders = [p for p in self._from_left() if self.bids[p] is not None]
        low = min(VALUE[str(self.bids[p])] for p in bidders)
        self._settle_tie([p for p in bidders if VALUE[str(self.bids[p])] == low])

    def _reveal_tiebreak(self) -> None:
        moved = [(p, self.pending[p]) for p in self.tied]
        for p, c in moved:
            self.face_up[p].append(c)
        self.tiebreaks.append([[p, c] for p, c in moved])
        self.pending = {}
        self._revealed = True
        low = min(VALUE[c] for _, c in moved)
        self._settle_tie([p for p, c in moved if VALUE[c] == low])

    def _settle_tie(self, tied: list[int]) -> None:
        """``tied`` is in order from the dealer's left, which settles ties nobody can break."""
        if len(tied) > 1:
            able = [p for p in tied if any(c in NUMBER_CARDS for c in self.face_down[p])]
            for p in tied:
                if p not in able:
                    self.excluded[p] = self.excluded[p] | NUMBER_CARDS
            if len(able) > 1:
                self.tied = able
                self.queue = list(able)
                self.phase = "tiebreak"
                return
            tied = able or tied
        self.tied = []
        self.phase = "play"
        self.first_player = tied[0]
        self._begin_turn(tied[0])

    def _begin_turn(self, start: int) -> None:
        n = self.players
        for i in range(n):
            p = (start + i) % n
            if self.face_up[p] or self.face_down[p]:
                self.turn = p
                self.played_this_turn = []
                return
        raise AssertionError("a live round always has a card in some hand")

    def _end_turn(self) -> None:
        assert self.turn is not None
        self._begin_turn((self.turn + 1) % self.players)

    def _check_empty(self, p: int) -> None:
        if self.first_empty is None and not self.face_up[p] and not self.face_down[p]:
            self.first_empty = p

    def _play(self, c: str) -> None:
        p = self.turn
        assert p is not None
        from_up = c in self.face_up[p]
        (self.face_up if from_up else self.face_down)[p].remove(c)
        suit = c[-1]
        self.stacks[suit] = VALUE[c]
        if VALUE[c] == 10:
            self.closed.append(suit)
        self._check_empty(p)
        if not from_up:
            self._revealed = True
        if len(self.closed) == 4:
            self._end_round()
            return
        if from_up:
            self.played_this_turn.append(c)
            stacks = self.stacks
            for x in self.face_up[p]:
                if VALUE.get(x, -1) == stacks[x[-1]] + 1:  # rules.playable, inlined
                    return  # the player may go on or end the turn
        self._end_turn()

    def _face_card(self, kind: str, c: str, target: int, named: str) -> None:
        p = self.turn
        assert p is not None
        self.face_down[p].remove(c)
        self.discard.append(c)
        self._check_empty(p)
        self._revealed = True
        effect: dict[str, Any] = {
            "kind": kind,
            "by": p,
            "card": c,
            "target": target,
            "named": named or None,
            "result": "none",
            "moved": None,
        }
        self.last_effect = effect
        if kind == "jack":
            down = self.face_down[target]
            if down:
                pick = down.pop(self.rng.randrange(len(down)))
                if pick in NUMBER_CARDS:
                    self.face_up[target].append(pick)
                    effect["result"] = "face_up"
                else:
                    self.discard.append(pick)
                    effect["result"] = "discarded"
                effect["moved"] = pick
                self._check_empty(target)
            self._end_turn()
            return
        if self._answers(target, kind, named):
            self.attack = {"kind": kind, "by": p, "card": c, "target": target, "named": named}
            self.phase = "answer"
            return
        # Nothing matched: everyone now knows the target holds no such card face-down.
        self.excluded[target] = self.excluded[target] | named_cards(kind, named)
        self._end_turn()

    def _answer(self, c: str) -> None:
        assert self.attack is not None and self.last_effect is not None
        t = int(self.attack["target"])
        self.face_down[t].remove(c)
        if c in NUMBER_CARDS:
            self.face_up[t].append(c)
            result = "face_up"
        else:
            self.discard.append(c)
            result = "discarded"
        self.last_effect = {**self.last_effect, "result": result, "moved": c}
        self._check_empty(t)
        self._revealed = True
        self.turn = int(self.attack["by"])
        self.attack = None
        self.phase = "play"
        self._end_turn()

    def _pass(self, c: str | None) -> None:
        p = self.turn
        assert p is not None
        effect: dict[str, Any] = {
            "kind": "pass",
            "by": p,
            "card": None,
            "target": None,
            "named": None,
            "result": "none",
            "moved": c,
        }
        if c is not None:
            self.face_down[p].remove(c)
            self._revealed = True
            if c in NUMBER_CARDS:
                self.face_up[p].append(c)
                effect["result"] = "face_up"
            else:  # a face card is paid only by a hand without number cards
                self.discard.append(c)
                self.excluded[p] = self.excluded[p] | NUMBER_CARDS
                effect["result"] = "discarded"
            self._check_empty(p)
        self.last_effect = effect
        self._end_turn()

    def _end_round(self) -> None:
        n = self.players
        closing = self.closed[-1]
        correct = [
            p for p in range(n) if self.bids[p] is not None and str(self.bids[p])[-1] == closing
        ]
        each = bid_points(len(correct))
        points = [0] * n
        for p in correct:
            points[p] += each
        if self.first_empty is not None:
            points[self.first_empty] += 1
        self.scores = [a + b for a, b in zip(self.scores, points, strict=False)]
        self.rounds.append(
            {
                "round": self.round_no,
                "dealer": self.dealer,
                "closing_suit": closing,
                "bids": list(self.bids),
                "correct": correct,
                "bid_points": each,
                "first_empty": self.first_empty,
                "points": points,
                "scores": list(self.scores),
            }
        )
        self._revealed = True
        top = max(self.scores)
        leaders = [p for p in range(n) if self.scores[p] == top]
        if top >= self.target and len(leaders) == 1:
            self.winners = leaders
            self.phase = "over"
            self.turn = None
            return
        self.dealer = (self.dealer + 1) % n
        self._round_over()
        if self._deal_next:
            self._deal()

    # ----- what players see -------------------------------------------------------------
    def policy_view(self, player: int) -> dict[str, Any]:
        """The keys of :meth:`view` the greedy policy reads (the rollouts build this). Its
        lists are the state's own, not copies: the policy only reads them, and the rollout
        moves on only once it has chosen."""
        return self._policy_part(player, own=False)

    def _policy_part(self, player: int, own: bool) -> dict[str, Any]:
        """:meth:`policy_view`'s keys; ``own``: lists and dicts of the view's own."""
        n = self.players
        me = player if 0 <= player < n else None
        my_bid = None
        if me is not None:
            my_bid = self.bids[me] or (self.pending.get(me) if self.phase == "bid" else None)
        stacks = self.stacks
        down = self.face_down[me] if me is not None else None
        missing = self._known_missing()
        return {
            "players": n,
            "viewer": me,
            "phase": self.phase,
            "current_player": self.current_player,
            "stacks": dict(stacks) if own else stacks,
            "needed": {s: _NEXT[s][stacks[s]] for s in SUITS},
            "face_up": [list(h) for h in self.face_up] if own else self.face_up,
            "face_down_counts": [len(h) for h in self.face_down],
            "face_down": list(down) if own and down is not None else down,
            "bids": (list(self.bids) if own else self.bids) if self.phase != "bid" else [None] * n,
            "my_suit": my_bid[-1] if my_bid else None,
            "known_missing": [list(x) for x in missing] if own else missing,
        }

    _missing_sorted: tuple[list[set[str]], list[list[str]]] | None = None

    def _known_missing(self) -> list[list[str]]:
        """Each seat's excluded cards, sorted; remembered while the same sets stand (a set
        of ``excluded`` is replaced when it grows, never changed in place, and the copies
        of a state share the memo safely for that reason). The memo's sets are compared
        with the state's in one list comparison, which takes the very same set as equal
        without looking inside it."""
        excluded = self.excluded
        memo = self._missing_sorted
        if memo is None or memo[0] != excluded:
            memo = self._missing_sorted = (
                list(excluded),
                [sort_cards(list(x)) for x in excluded],
            )
        return memo[1]

    def view(self, player: int | None) -> dict[str, Any]:
        n = self.players
        me = player if player is not None and 0 <= player < n else None
        tiebreak = self.phase == "tiebreak"
        out = self._policy_part(me if me is not None else -1, own=True)
        my_bid = None
        if me is not None:
            my_bid = self.bids[me] or (self.pending.get(me) if self.phase == "bid" else None)
        out.update(
            {
                "game": "roundup",
                "turn": self.turn,
                "round": self.round_no,
                "dealer": self.dealer,
                "first_player": self.first_player,
                "target_score": self.target,
                "scores": list(self.scores),
                "closed": list(self.closed),
                "discard": list(self.discard),
                "hand_counts": [len(self.face_down[p]) + len(self.face_up[p]) for p in range(n)],
                "bid_placed": [
                    self.bids[p] is not None or (self.phase == "bid" and p in self.pending)
                    for p in range(n)
                ],
                "cannot_bid": list(self.cannot_bid),
                "my_bid": my_bid,
                "tiebreak": {
                    "tied": list(self.tied),
                    "placed": [p in self.pending for p in self.tied] if tiebreak else [],
                    "mine": self.pending.get(me) if me is not None and tiebreak else None,
                    "history": [[list(x) for x in tb] for tb in self.tiebreaks],
                },
                "played_this_turn": list(self.played_this_turn),
                "attack": dict(self.attack) if self.attack else None,
                "last_effect": dict(self.last_effect) if self.last_effect else None,
                "first_empty": self.first_empty,
                "last_round": dict(self.rounds[-1]) if self.rounds else None,
                "rounds": [dict(r) for r in self.rounds],
                "winners": list(self.winners),
            }
        )
        return out

    def rounds_played(self) -> int:
        return len(self.rounds)

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "rounds": [dict(r) for r in self.rounds],
        }

    def zones(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {
            f"stack:{s}": [NEXT_CARD[(s, v)] for v in range(self.stacks[s])] for s in SUITS
        }
        out["discard"] = list(self.discard)
        for p in range(self.players):
            out[f"face_up:{p}"] = list(self.face_up[p])
            out[f"face_down:{p}"] = list(self.face_down[p])
            out[f"secret:{p}"] = [self.pending[p]] if p in self.pending else []
        return out

    def deck(self) -> list[str]:
        return list(DECK)

    def _copy(self, rng: random.Random) -> RoundupState:
        """A deep copy drawing its future chance from ``rng`` (determinize passes a fresh
        one, so the state's own RNG need not be copied first)."""
        new = object.__new__(RoundupState)
        new.__dict__.update(self.__dict__)
        new.__dict__.pop("_deal_next", None)  # a rollout's mark stays with its world
        new.options = dict(self.options)
        new.rng = rng
        new.history = list(self.history)
        new.scores = list(self.scores)
        new.rounds = list(self.rounds)  # summaries are never mutated once written
        new.winners = list(self.winners)
        new.face_down = [list(h) for h in self.face_down]
        new.face_up = [list(h) for h in self.face_up]
        new.stacks = dict(self.stacks)
        new.closed = list(self.closed)
        new.discard = list(self.discard)
        new.bids = list(self.bids)
        new.pending = dict(self.pending)
        new.excluded = list(self.excluded)  # each set is replaced, never changed in place
        new.played_this_turn = list(self.played_this_turn)
        new.tied = list(self.tied)
        new.tiebreaks = list(self.tiebreaks)
        new.cannot_bid = list(self.cannot_bid)
        new.queue = list(self.queue)
        return new

    def determinize(self, player: int, rng: random.Random) -> RoundupState:
        world = self._copy(LazyRandom(rng.getrandbits(64)))
        # One slot a hidden card: (seat, the cards it must come from). A face-down card may
        # be any card the seat may hold (None); only a secret bid or tie-break card has a
        # pool, the number cards.
        slots: list[tuple[int, frozenset[str] | None]] = []
        unseen: list[str] = []
        for o in range(self.players):
            if o == player:
                continue
            unseen.extend(self.face_down[o])
            slots += [(o, None)] * len(self.face_down[o])
            if o in self.pending:
                unseen.append(self.pending[o])
                slots.append((o, NUMBER_CARDS))
        # What everyone saw that says a seat holds some card of a kind face-down: a seat
        # still to place a bid or a tie-break card holds a number card (the deal, or the tie,
        # put it in the queue for that reason); the target of a Queen or King holds a card
        # it names (else the attack would have found nothing and ended the turn).
        must_hold: dict[int, frozenset[str]] = {}
        if self.phase in ("bid", "tiebreak"):
            must_hold = {o: NUMBER_CARDS for o in self.queue if o != player}
        elif self.phase == "answer" and self.attack is not None:
            target = int(self.attack["target"])
            if target != player:
                must_hold[target] = named_cards(self.attack["kind"], self.attack["named"])

        def keeps_public(assigned: list[str]) -> bool:
            dealt = zip(slots, assigned, strict=False)
            held = [(o, c) for (o, pool), c in dealt if pool is None and o in must_hold]
            return all(any(c in need for s, c in held if s == o) for o, need in must_hold.items())

        cards = sort_cards(unseen)
        for _ in range(8):
            shuffle(cards, rng)
            assigned = consistent_deal(slots, cards, self.excluded)
            if not must_hold or keeps_public(assigned):
                break
        else:
            # Rare (eight deals in a row that miss, as a short hand of face cards can): one
            # card of each such seat's hand is dealt from the cards it must hold.
            forced = list(slots)
            for o, need in must_hold.items():
                forced[forced.index((o, None))] = (o, need)
            assigned = consistent_deal(forced, cards, self.excluded)
        hands: dict[int, list[str]] = {o: [] for o in range(self.players) if o != player}
        for (o, pool), c in zip(slots, assigned, strict=False):
            if pool is not None:
                world.pending[o] = c
            else:
                hands[o].append(c)
        world._legal = None
        for o, h in hands.items():
            # Left in the sampled order, not sorted: the order of a hand nobody may see is
            # itself unknown (the Jack's pick indexes into it). With 2 players this order is
            # all there is to re-sample once the bids are revealed, since every card's place
            # can be deduced; the shared suite insists that determinize changes something.
            world.face_down[o] = h
        return world

    # ----- words for people -------------------------------------------------------------
    def public_label(self, action: Action, viewer: int | None) -> str:
        if action.kind in ("bid", "tiebreak") and viewer != action.player:
            if action.kind == "bid":
                return "Place a secret bid"
            return "Turn up a card for the tie-break"
        return action.label

    def why_illegal(self, action_id: str) -> str | None:
        return explain(self, action_id)

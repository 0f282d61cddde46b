"""Progression: build rising private stacks, one per suit, and score the long ones.

Wei-Hwa Huang's three-player game after Lost Cities (2 and 4 players are offered as
variants). Each turn a seat plays one card, to its own private stack of that suit (only
when the card's value is at least every value already there) or to the public stack of
that suit, then draws one card: the blind top of the draw pile or the top of any public
stack (never the card it just put there). The round stops the moment the last draw-pile
card is drawn; only private stacks score (see :func:`stack_score`).

Card values: A, J, Q, K are face cards worth 0; 2..10 are worth their number.

>>> import engine
>>> state = engine.new_game("progression", players=3, seed=1)
>>> state.view(state.current_player)["phase"], len(state.view(0)["hand"])
('play', 5)
>>> stack_score(["KS", "JS", "2S", "6S", "7S", "8S"])
33
>>> first = state.legal_actions()[0]
>>> _ = state.apply(first)
>>> state.legal_actions()[0].id
'draw:stock'

Action ids: ``play:7H`` (to your private hearts stack), ``public:7H`` (to the public hearts
stack), ``draw:stock`` (blind top of the draw pile), ``draw:7H`` (take 7H, the top of its
public stack).

Keys of ``view(player)`` (all JSON-ready; ``player`` None is a spectator):

- ``game``, ``players``, ``you`` (the seat or None), ``round`` (1-based),
  ``rounds_total`` (6, or None when playing to a target), ``target`` (200 or None)
- ``phase``: ``"play"`` (play a card), ``"draw"`` (draw a card) or ``"over"``
- ``current_player`` (None once over), ``dealer``, ``first_player`` (of this round)
- ``hand``: your cards, sorted ([] for a spectator); ``hand_counts``: cards per seat
- ``known_hands``: per seat, the cards everyone saw it take from public stacks and that
  it still holds (public knowledge)
- ``private_stacks``: per seat, ``{suit: [cards bottom..top]}`` for suits S H D C
- ``public_stacks``: ``{suit: [cards bottom..top]}``
- ``draw_pile``: number of cards left in the draw pile
- ``just_played``: ``{"player", "card", "to": "private"|"public"}`` for the card played in the
  turn under way (the draw step), else None; a card put on a public stack cannot be
  taken back in the same turn
- ``stall_count`` / ``stall_limit``: turns in a row without a draw-pile draw, and the limit
  that ends the round
- ``stack_scores``: per seat, ``{suit: score}`` of the private stacks as they stand;
  ``round_scores``: per seat, their sum; ``stack_values``: per seat, ``{suit: total card
  value}``; ``stack_faces``: per seat, ``{suit: face cards in the stack}`` (the multiplier
  is faces + 1), so the table never has to know card values
- ``scores``: match totals of the finished rounds; ``round_history``: per finished round,
  the list of round scores by seat
- ``last_round``: summary of the last finished round (None before the first ends):
  ``{"round", "reason": "draw_pile"|"stall", "scores", "stack_scores", "stack_values",
  "stack_faces", "stacks", "winners", "totals"}``
- ``winners``: seats that won the match ([] until it is over)
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable
from typing import Any

from engine.cards import (
    _INLINE,
    SUIT_NAMES,
    SUITS,
    card_name,
    is_card,
    shuffle,
    standard_deck,
    suit_of,
)
from engine.core import Action, LazyRandom, State
from engine.games.progression.rules import (
    BIT,
    CODE,
    DECK,
    HAND_SIZE,
    MAX_TARGET_ROUNDS,
    NAME,
    ROUNDS,
    SORT_KEY,
    STALL_LIMIT,
    TARGET,
    VALUE,
    is_face,
    stack_faces,
    stack_score,
    stack_value,
)

# Every action depends only on (card, seat), so each is built once and shared.
_PLAY_ACTIONS: dict[tuple[str, int], Action] = {}
_PUBLIC_ACTIONS: dict[tuple[str, int], Action] = {}
_TAKE_ACTIONS: dict[tuple[str, int], Action] = {}
_DRAW_STOCK: dict[int, Action] = {}


def _play_action(c: str, p: int) -> Action:
    action = _PLAY_ACTIONS.get((c, p))
    if action is None:
        action = _PLAY_ACTIONS[c, p] = Action(
            f"play:{c}", p, f"Play {card_name(c)} to your stack", (c,)
        )
    return action


def _public_action(c: str, p: int) -> Action:
    action = _PUBLIC_ACTIONS.get((c, p))
    if action is None:
        action = _PUBLIC_ACTIONS[c, p] = Action(
            f"public:{c}", p, f"Put {card_name(c)} on the public stack", (c,)
        )
    return action


_HAND_ACTIONS: dict[int, dict[str, tuple[Action, Action, str, int]]] = {}
"""Per seat, each card's (play to its own stack, put on the public stack) actions, with the
card's suit and value (what the listing asks of it)."""


def _hand_actions(p: int) -> dict[str, tuple[Action, Action, str, int]]:
    pairs = _HAND_ACTIONS[p] = {
        c: (_play_action(c, p), _public_action(c, p), c[-1], VALUE[c]) for c in DECK
    }
    return pairs


def _take_action(c: str, p: int) -> Action:
    action = _TAKE_ACTIONS.get((c, p))
    if action is None:
        action = _TAKE_ACTIONS[c, p] = Action(f"draw:{c}", p, f"Take {NAME[c]}")
    return action


def _draw_stock_action(p: int) -> Action:
    action = _DRAW_STOCK.get(p)
    if action is None:
        action = _DRAW_STOCK[p] = Action("draw:stock", p, "Draw from the draw pile")
    return action


_DRAW_ACTIONS: dict[int, dict[str, Action]] = {}
"""Per seat, its draw from the draw pile (by "stock") and its take of each card."""


def _draw_actions(p: int) -> dict[str, Action]:
    takes = _DRAW_ACTIONS[p] = {c: _take_action(c, p) for c in DECK}
    takes["stock"] = _draw_stock_action(p)
    return takes


class ProgressionState(State):
    """One whole match of Progression (all its rounds)."""

    _listing: list[Action] | None = None
    """A sampled world's legal actions as it was dealt, listed once by the sampler (the same
    in every world it deals: the seat to move there holds the searching seat's cards, or is
    to draw), until its first move; None: list them."""

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        self._init_common("progression", players, seed, options)
        self.to_target = options.get("length", "six-rounds") == "to-200"
        self.round_number = 0
        self.totals = [0] * players
        self.round_history: list[list[int]] = []
        self.last_round: dict[str, Any] | None = None
        self.finished = False
        self.winners: list[int] = []
        # The first dealer is cut for at random; then the deal passes clockwise.
        self.dealer = self.rng.randrange(players)
        self.hands: list[list[str]] = []
        self.known: list[list[str]] = []
        self.private: list[dict[str, list[str]]] = []
        self.public: dict[str, list[str]] = {}
        self.stack_codes: list[int] = []
        """Per seat, the sum of its private stacks' cards' :data:`~rules.CODE` (what the
        search's position values read of them)."""
        self.on_stacks = 0
        """The :data:`~rules.BIT` of every number card on a stack, private or public."""
        self.draw_pile: list[str] = []
        self.turn = 0
        self.first_player = 0
        self.phase = "play"
        self.just_played: tuple[str, str] | None = None
        self.stall_count = 0
        self._deal_round()

    # ----- dealing and round end -----------------------------------------------------------
    def _deal_round(self) -> None:
        self.round_number += 1
        deck = standard_deck()
        shuffle(deck, self.rng)
        n = self.players
        self.hands = [
            sorted(deck[p * HAND_SIZE : (p + 1) * HAND_SIZE], key=SORT_KEY.__getitem__)
            for p in range(n)
        ]
        self.draw_pile = deck[n * HAND_SIZE :]
        self.known = [[] for _ in range(n)]
        self.private = [{s: [] for s in SUITS} for _ in range(n)]
        self.public = {s: [] for s in SUITS}
        self.stack_codes = [0] * n
        self.on_stacks = 0
        self.first_player = (self.dealer + 1) % n
        self.turn = self.first_player
        self.phase = "play"
        self.just_played = None
        self.stall_count = 0

    def _end_round(self, reason: str) -> None:
        stack_scores = [
            {s: stack_score(self.private[p][s]) for s in SUITS} for p in range(self.players)
        ]
        scores = [sum(d.values()) for d in stack_scores]
        for p, score in enumerate(scores):
            self.totals[p] += score
        self.round_history.append(scores)
        best = max(scores)
        self.last_round = {
            "round": self.round_number,
            "reason": reason,
            "scores": list(scores),
            "stack_scores": stack_scores,
            "stack_values": self._per_suit(stack_value),
            "stack_faces": self._per_suit(stack_faces),
            "stacks": [{s: list(self.private[p][s]) for s in SUITS} for p in range(self.players)],
            "winners": [p for p, s in enumerate(scores) if s == best],
            "totals": list(self.totals),
        }
        if self._match_done():
            self.finished = True
            self.phase = "over"
            top = max(self.totals)
            self.winners = [p for p, t in enumerate(self.totals) if t == top]
            self.just_played = None
        else:
            self.dealer = (self.dealer + 1) % self.players
            self._round_over()
            self._deal_round()

    def _per_suit(self, measure: Callable[[list[str]], int]) -> list[dict[str, int]]:
        return [{s: measure(self.private[p][s]) for s in SUITS} for p in range(self.players)]

    def _match_done(self) -> bool:
        if self.to_target:
            return max(self.totals) >= TARGET or self.round_number >= MAX_TARGET_ROUNDS
        return self.round_number >= ROUNDS

    # ----- the contract ------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.turn

    @property
    def is_over(self) -> bool:
        return self.finished

    def legal_actions(self) -> list[Action]:
        listing = self._listing
        if listing is not None:
            return list(listing)  # every world dealt by one sampler shares the list
        return super().legal_actions()

    def _legal_actions(self) -> list[Action]:
        listing = self._listing
        if listing is not None:
            return listing
        p = self.turn
        if self.phase == "play":
            actions: list[Action] = []
            append = actions.append
            stacks = self.private[p]
            pairs = _HAND_ACTIONS.get(p) or _hand_actions(p)
            value = VALUE
            for c in self.hands[p]:
                play, public, suit, v = pairs[c]
                stack = stacks[suit]
                # can_add_to_private, inlined with the value table: this is the hottest loop.
                if not stack or v >= value[stack[-1]]:
                    append(play)
                append(public)
            return actions
        takes = _DRAW_ACTIONS.get(p) or _draw_actions(p)
        actions = [takes["stock"]]
        just = self.just_played
        blocked = just[0] if just and just[1] == "public" else None
        piles = self.public
        for s in SUITS:
            pile = piles[s]
            if pile and pile[-1] != blocked:
                actions.append(takes[pile[-1]])
        return actions

    def _apply(self, action: Action) -> bool:
        if self._listing is not None:
            self._listing = None
        p = self.turn
        action_id = action.id
        kind, arg, suit, just = _MOVES.get(action_id) or _move(action_id)
        if just is not None:  # a card played
            self.hands[p].remove(arg)
            known = self.known[p]
            if known and arg in known:
                known.remove(arg)
            if kind == "play":
                self.private[p][suit].append(arg)
                self.stack_codes[p] += CODE[arg]
            else:
                self.public[suit].append(arg)
            self.just_played = just
            self.on_stacks |= BIT[arg]
            self.phase = "draw"
            return False
        # A draw ends the turn.
        if arg == "stock":
            drawn = self.draw_pile.pop()
            self.stall_count = 0
        else:
            drawn = self.public[suit].pop()
            self.on_stacks &= ~BIT[drawn]
            self.known[p].append(drawn)
            self.stall_count += 1
        insort(self.hands[p], drawn, key=_ORDER_KEY)  # the hand stays in order
        self.just_played = None
        self.phase = "play"
        if not self.draw_pile or self.stall_count >= STALL_LIMIT:
            self._end_round("draw_pile" if not self.draw_pile else "stall")
            # A new deal shows the actor new cards, as a blind draw does.
            return arg == "stock" or not self.finished
        self.turn = (p + 1) % self.players
        return arg == "stock"

    def why_illegal(self, action_id: str) -> str | None:
        kind, _, arg = action_id.partition(":")
        if self.finished:
            return "the match is over"
        p = self.turn
        if kind in ("play", "public"):
            if not is_card(arg) or "#" in arg:
                return None
            if self.phase != "play":
                return "you have already played a card this turn; now draw one"
            if arg not in self.hands[p]:
                return f"{card_name(arg)} is not in your hand"
            stack = self.private[p][suit_of(arg)]
            top = stack[-1]
            if is_face(arg):
                return (
                    f"a face card can only go on a private stack that holds no number card "
                    f"yet (your {SUIT_NAMES[suit_of(arg)]} stack has {card_name(top)})"
                )
            return (
                f"{card_name(arg)} is lower than {card_name(top)} on your "
                f"{SUIT_NAMES[suit_of(arg)]} stack; a private stack only goes up"
            )
        if kind == "draw":
            if arg != "stock" and (not is_card(arg) or "#" in arg):
                return None
            if self.phase != "draw":
                return "play a card before you draw"
            if arg == "stock":
                return None
            pile = self.public[suit_of(arg)]
            if self.just_played and self.just_played[0] == arg and self.just_played[1] == "public":
                return f"you cannot take back {card_name(arg)}, the card you just played there"
            if not pile or pile[-1] != arg:
                return (
                    f"only the top card of a public stack can be taken, and {card_name(arg)} "
                    "is not one"
                )
        return None

    # ----- what seats see -------------------------------------------------------------------
    def public_label(self, action: Action, viewer: int | None) -> str:
        """A card played to a seat's own stack reads "to their own stack" in the log of
        anyone but that seat (its label speaks to the seat that plays it: "your stack")."""
        if viewer != action.player and action.id.startswith("play:"):
            return f"Play {card_name(action.cards[0])} to their own stack"
        return action.label

    def view(self, player: int | None) -> dict[str, Any]:
        stack_scores = [
            {s: stack_score(self.private[p][s]) for s in SUITS} for p in range(self.players)
        ]
        just = None
        if self.just_played is not None:
            just = {"player": self.turn, "card": self.just_played[0], "to": self.just_played[1]}
        return {
            "game": "progression",
            "players": self.players,
            "you": player,
            "round": self.round_number,
            "rounds_total": None if self.to_target else ROUNDS,
            "target": TARGET if self.to_target else None,
            "phase": self.phase,
            "current_player": self.current_player,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "hand": list(self.hands[player]) if player is not None else [],
            "hand_counts": [len(h) for h in self.hands],
            "known_hands": [list(k) for k in self.known],
            "private_stacks": [{s: list(d[s]) for s in SUITS} for d in self.private],
            "public_stacks": {s: list(self.public[s]) for s in SUITS},
            "draw_pile": len(self.draw_pile),
            "just_played": just,
            "stall_count": self.stall_count,
            "stall_limit": STALL_LIMIT,
            "stack_scores": stack_scores,
            "round_scores": [sum(d.values()) for d in stack_scores],
            "stack_values": self._per_suit(stack_value),
            "stack_faces": self._per_suit(stack_faces),
            "scores": list(self.totals),
            "round_history": [list(r) for r in self.round_history],
            "last_round": _copy_summary(self.last_round),
            "winners": list(self.winners),
        }

    def rounds_played(self) -> int:
        return len(self.round_history)

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self.totals),
            "winners": list(self.winners),
            "rounds": [list(r) for r in self.round_history],
        }

    def zones(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {"draw_pile": list(self.draw_pile)}
        for p in range(self.players):
            out[f"hand:{p}"] = list(self.hands[p])
            for s in SUITS:
                out[f"private:{p}:{s}"] = list(self.private[p][s])
        for s in SUITS:
            out[f"public:{s}"] = list(self.public[s])
        return out

    def deck(self) -> list[str]:
        return standard_deck()

    def _recount(self) -> None:
        """Work ``stack_codes`` and ``on_stacks`` out again from the stacks: every move keeps
        them, but a position set up by editing the stacks by hand needs this."""
        self.stack_codes = [
            sum(CODE[c] for pile in stacks.values() for c in pile) for stacks in self.private
        ]
        on = 0
        for pile in [
            *(p for stacks in self.private for p in stacks.values()),
            *self.public.values(),
        ]:
            for c in pile:
                on |= BIT[c]
        self.on_stacks = on

    # ----- copies ---------------------------------------------------------------------------
    def _copy(
        self,
        rng: random.Random,
        hands: list[list[str]] | None = None,
        draw_pile: list[str] | None = None,
    ) -> ProgressionState:
        """A deep copy drawing its future chance from ``rng`` (determinize sets its own, so
        the state's RNG need not be copied first); ``hands`` and ``draw_pile``: the copy's,
        when the caller has made them."""
        new = object.__new__(ProgressionState)
        new.game_id = self.game_id
        new.players = self.players
        new.seed = self.seed
        new.options = dict(self.options)
        new.rng = rng
        new.history = list(self.history)
        new.to_target = self.to_target
        new.round_number = self.round_number
        new.totals = list(self.totals)
        # A finished round's scores and summary are written once and never changed (views
        # copy them): the copy shares them.
        new.round_history = list(self.round_history)
        new.last_round = self.last_round
        new.finished = self.finished
        new.winners = list(self.winners)
        new.dealer = self.dealer
        new.hands = [list(h) for h in self.hands] if hands is None else hands
        new.known = [list(k) for k in self.known]
        new.private = [{s: list(d[s]) for s in SUITS} for d in self.private]
        new.public = {s: list(self.public[s]) for s in SUITS}
        new.stack_codes = list(self.stack_codes)
        new.on_stacks = self.on_stacks
        new.draw_pile = list(self.draw_pile) if draw_pile is None else draw_pile
        new.turn = self.turn
        new.first_player = self.first_player
        new.phase = self.phase
        new.just_played = self.just_played
        new.stall_count = self.stall_count
        new._reveals_settled = self._reveals_settled
        new._reveals_recent = self._reveals_recent
        return new

    def determinize(self, player: int, rng: random.Random) -> ProgressionState:
        return self.sampler(player)(rng)

    def sampler(self, player: int) -> Callable[[random.Random], ProgressionState]:
        """Opponents' cards nobody has seen, plus the draw pile, are one pool to re-deal (in
        the cards' order, so only what ``player`` knows decides it); cards an opponent was
        seen taking from a public stack stay in that hand. The pool and what stays are worked
        out once, here; each world shuffles a copy of the pool and deals it."""
        order = _ORDER.__getitem__
        pool = list(self.draw_pile)
        dealt: list[tuple[int, list[str], int]] = []  # (seat, cards it keeps, cards dealt)
        for p in range(self.players):
            if p == player:
                continue
            unseen = list(self.hands[p])
            for c in self.known[p]:
                unseen.remove(c)
            dealt.append((p, list(self.known[p]), len(unseen)))
            pool.extend(unseen)
        pool.sort(key=order)
        own = list(self.hands[player])
        # The stacks' codes worked out afresh, not copied: a position set up by hand is
        # searched right too.
        source = self._copy(self.rng, hands=[], draw_pile=[])
        source._recount()
        # What _copy shares or copies by value (ints, strings, tuples, the finished rounds'
        # summary), set in one update; the rest is copied below as _copy copies it.
        fixed = {k: v for k, v in vars(source).items() if k not in _COPIED}
        options, history, totals = source.options, source.history, source.totals
        round_history, winners, known = source.round_history, source.winners, source.known
        private, public, stack_codes = source.private, source.public, source.stack_codes
        new_state = object.__new__
        if not self.finished and (self.phase == "draw" or self.turn == player):
            fixed["_listing"] = self._legal_actions()
        # Random.shuffle's swaps, each draw's bit count worked out once (engine.cards.shuffle
        # draws the same; any other kind of rng shuffles by its own method).
        steps = [(i, i + 1, (i + 1).bit_length()) for i in range(len(pool) - 1, 0, -1)]

        def sample(rng: random.Random) -> ProgressionState:
            cards = list(pool)
            if _INLINE and type(rng) is random.Random:
                getrandbits = rng.getrandbits
                for i, n, k in steps:
                    j = getrandbits(k)
                    while j >= n:
                        j = getrandbits(k)
                    cards[i], cards[j] = cards[j], cards[i]
            else:
                shuffle(cards, rng)
            hands = [own] * self.players
            at = 0
            for p, kept, count in dealt:
                hands[p] = sorted(kept + cards[at : at + count], key=order)
                at += count
            hands[player] = list(own)
            # source._copy(LazyRandom(...), hands, cards[at:]), inlined.
            world = new_state(ProgressionState)
            fields = world.__dict__
            fields.update(fixed)
            fields["options"] = dict(options)
            fields["rng"] = LazyRandom(rng.getrandbits(64))
            fields["history"] = history[:]
            fields["totals"] = totals[:]
            fields["round_history"] = round_history[:]
            fields["winners"] = winners[:]
            fields["hands"] = hands
            fields["known"] = [k[:] for k in known]
            fields["private"] = [{s: pile[:] for s, pile in d.items()} for d in private]
            fields["public"] = {s: pile[:] for s, pile in public.items()}
            fields["stack_codes"] = stack_codes[:]
            fields["draw_pile"] = cards[at:]
            return world

        return sample


def _move(action_id: str) -> tuple[str, str, str, tuple[str, str] | None]:
    """What _apply reads of an action id: its kind and card (or "stock"), the card's suit and,
    for a card played, the state's ``just_played`` after it (None for a draw)."""
    kind, _, arg = action_id.partition(":")
    just = None if kind == "draw" else (arg, "private" if kind == "play" else "public")
    return kind, arg, arg[-1], just


_MOVES = {
    i: _move(i)
    for i in ["draw:stock", *(f"{kind}:{c}" for kind in ("play", "public", "draw") for c in DECK)]
}
"""Every action id's :func:`_move`, looked up by _apply."""

_COPIED = frozenset(
    {
        "options",
        "rng",
        "history",
        "totals",
        "round_history",
        "winners",
        "hands",
        "known",
        "private",
        "public",
        "stack_codes",
        "draw_pile",
    }
)
"""The fields of a state a sampled world gets a copy of (the lists and dicts play changes);
it shares the rest with the sampler's source, as :meth:`ProgressionState._copy` does."""

_ORDER: dict[str, int] = {c: i for i, c in enumerate(sorted(DECK, key=SORT_KEY.__getitem__))}
"""Each card's place in the order of ``SORT_KEY``: sorting by it gives the same order (no two
cards share a key) and compares ints, not tuples; the search sorts every world it samples."""
assert len(set(SORT_KEY.values())) == len(DECK)
_ORDER_KEY = _ORDER.__getitem__


def _copy_summary(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    if summary is None:
        return None
    return {
        "round": summary["round"],
        "reason": summary["reason"],
        "scores": list(summary["scores"]),
        "stack_scores": [dict(d) for d in summary["stack_scores"]],
        "stack_values": [dict(d) for d in summary["stack_values"]],
        "stack_faces": [dict(d) for d in summary["stack_faces"]],
        "stacks": [{s: list(v) for s, v in d.items()} for d in summary["stacks"]],
        "winners": list(summary["winners"]),
        "totals": list(summary["totals"]),
    }

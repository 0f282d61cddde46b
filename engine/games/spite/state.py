"""Spite and Malice for two players: race to empty your pay-off pile onto shared centre stacks.

Cards. Two decks are in play, so every id is unique within the game:

* the pay-off deck, 52 plain ids (``"7H"``, ``"KS"``), 26 per player in the pay-off piles;
* the hand deck, 52 ids with the suffix ``#2`` (``"7H#2"``) plus four jokers ``"JK1"``..``"JK4"``;
  it gives the 5-card hands and the stock.

Once completed centre stacks are shuffled back into the stock, pay-off cards can reach the hands
too; the suffix only keeps ids unique. Ranks run A (1) to K (13), suits never matter and jokers
are wild on the centre.

Actions (ids) of the seat to move:

* ``build:<card>:<n>`` plays ``<card>`` (from the hand, the top of one of the player's discard
  piles, or the upcard) onto centre stack ``n`` (0-based); ``build:<card>:new`` starts a stack;
* ``discard:<card>:<pile>`` puts a hand card on discard pile ``pile`` (0..3) and ends the turn;
* ``end`` ends the turn without discarding.

View keys (``view(player)``; ``player=None`` is a spectator): ``game``, ``phase`` (``"play"`` or
``"over"``), ``current_player``, ``you``, ``round`` (game number within the match), ``target``
(points to win the match, 0 = a single game), ``scores``, ``hand`` (own cards, ``None`` for a
spectator), ``hand_counts``, ``upcards`` (each seat's face-up pay-off card or ``None``),
``payoff_counts`` (cards left in each pay-off pile, upcard included), ``discard_piles``
(``[seat][pile]`` lists, bottom to top, all public), ``discard_ranks`` (rank each pile accepts
at most: 1..13, or ``None`` for any), ``centre`` (stacks, bottom to top), ``stack_ranks`` (rank
each stack shows, 13 = complete), ``max_stacks``, ``stock_count``, ``stock_rebuilds`` (how
often the stock has been rebuilt from the centre in this game), ``turn`` (turns begun in this
game), ``played_this_turn``, ``must_play_ace`` (the seat to move still owes an Ace),
``stall_turns``, ``turns_without_payoff``, ``last_turn`` (``{"player", "played",
"discarded", "pile"}`` of the previous turn or ``None``), ``last_round`` (summary of the
last finished game or ``None``), ``rounds`` (all summaries) and ``winners``.

>>> import engine
>>> state = engine.new_game("spite", seed=3)
>>> view = state.view(state.current_player)
>>> len(view["hand"]), view["payoff_counts"], view["stock_count"]
(5, [26, 26], 46)
>>> state.apply("end").id
'end'
>>> from engine.games.spite.rules import can_build, can_discard
>>> can_build(["AS", "2H#2"], "JK1"), can_discard(["9C", "2D"], "JK2")
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.cards import card_name, shuffle, shuffled
from engine.core import Action, LazyRandom, State
from engine.games.spite.rules import (
    CARD_NAME,
    DISCARD_PILES,
    DROUGHT_TURNS,
    HAND_DECK,
    HAND_ORDER,
    HAND_SIZE,
    JOKER,
    KING,
    MAX_DRAWN_GAMES,
    MAX_STACKS,
    PAYOFF_DECK,
    PAYOFF_SIZE,
    PILE_NAMES,
    PLAYERS,
    RANK_NAME,
    RANK_VALUE,
    REBUILD_AT,
    STALL_TURNS,
    is_joker,
    pile_rank,
)

# Every action is built once and then handed out again each time it is legal (Actions are
# immutable), so listing the moves allocates nothing but the list. Builds are looked up as
# _BUILDS[seat][where][card] -> a row indexed by centre stack, ``MAX_STACKS`` meaning a new
# stack; ``where`` is 0 for the upcard, 1..4 for the discard piles and 5 for the hand. A
# joker's label names the rank it stands for, so a joker's row holds, per stack, a tuple of
# actions by the stack's height. Rows are made on first use.
_UPCARD, _HAND = 0, DISCARD_PILES + 1
_WHERE: tuple[str, ...] = ("upcard",) + PILE_NAMES + ("hand",)
_BUILDS: tuple[tuple[dict[str, list[Any]], ...], ...] = tuple(
    tuple({} for _ in _WHERE) for _ in range(PLAYERS)
)


def _build_action(seat: int, card: str, where: str, index: int | None, height: int) -> Action:
    """Building ``card`` from ``where`` on centre stack ``index`` of ``height`` cards
    (``None``: a new stack)."""
    value = RANK_VALUE[card]
    name = CARD_NAME[card]
    prefix = "upcard " if where == "upcard" else ""
    suffix = f" from {where}" if where.startswith("pile") else ""
    if index is None:
        as_rank = " as Ace" if value == JOKER else ""
        return Action(
            f"build:{card}:new",
            seat,
            f"Start a stack with {prefix}{name}{as_rank}{suffix}",
            (card,),
        )
    as_rank = f" as {RANK_NAME[height + 1]}" if value == JOKER else ""
    return Action(
        f"build:{card}:{index}",
        seat,
        f"Play {prefix}{name}{as_rank}{suffix} on stack {index + 1}",
        (card,),
    )


def _build_row(seat: int, where: int, card: str) -> list[Any]:
    """The row of ``_BUILDS[seat][where][card]``, made and stored on first use."""
    name = _WHERE[where]
    value = RANK_VALUE[card]
    if value == JOKER:
        row: list[Any] = [
            tuple(_build_action(seat, card, name, index, height) for height in range(KING))
            for index in range(MAX_STACKS)
        ]
    else:
        row = [_build_action(seat, card, name, index, value - 1) for index in range(MAX_STACKS)]
    row.append(_build_action(seat, card, name, None, 0) if value in (1, JOKER) else None)
    _BUILDS[seat][where][card] = row
    return row


_DISCARDS: tuple[dict[str, tuple[Action, ...]], ...] = tuple(
    {
        card: tuple(
            Action(
                f"discard:{card}:{index}",
                seat,
                f"Discard {CARD_NAME[card]} to pile {index + 1}",
                (card,),
            )
            for index in range(DISCARD_PILES)
        )
        for card in RANK_VALUE
    }
    for seat in range(PLAYERS)
)
"""_DISCARDS[seat][card][pile]: discarding ``card`` to ``pile``."""
_DISCARD_SETS: tuple[dict[tuple[str, int], tuple[Action, ...]], ...] = tuple(
    {} for _ in range(PLAYERS)
)
"""_DISCARD_SETS[seat][card, mask]: the discards of ``card`` to the piles in ``mask`` (bit
``i``: pile ``i``), in pile order; made on first use."""
_ENDS: tuple[Action, ...] = tuple(
    Action("end", seat, "End turn without discarding") for seat in range(PLAYERS)
)

_MOVES: dict[str, tuple[str, str, int | None]] = {"end": ("end", "", None)}
"""What ``_apply`` needs of an action id, parsed once: (kind, card, stack or pile), the
stack being ``None`` for a new one."""
for _card in RANK_VALUE:
    _MOVES[f"build:{_card}:new"] = ("build", _card, None)
    for _index in range(MAX_STACKS):
        _MOVES[f"build:{_card}:{_index}"] = ("build", _card, _index)
    for _index in range(DISCARD_PILES):
        _MOVES[f"discard:{_card}:{_index}"] = ("discard", _card, _index)


def _a(rank_name: str) -> str:
    """The article before a rank's name: "an Ace", "an 8", "a King"."""
    return "an" if rank_name in ("Ace", "8") else "a"


def _distinct(hand: list[str]) -> list[str]:
    """The first card of each rank in ``hand`` (jokers are one rank), in the hand's order."""
    seen: set[int] = set()
    out = []
    for card in hand:
        value = RANK_VALUE[card]
        if value not in seen:
            seen.add(value)
            out.append(card)
    return out


class SpiteState(State):
    """One Spite and Malice match for two seats (a single game, or games to N points)."""

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        self._init_common("spite", players, seed, options)
        self.target: int = int(options.get("target", 0))
        self.scores: list[int] = [0] * PLAYERS
        self.rounds: list[dict[str, Any]] = []
        self.round = 0
        self.match_over = False
        self.match_winners: list[int] = []
        self.drawn_in_row = 0
        self._deal()

    # ----- dealing and drawing ---------------------------------------------------------------
    def _deal(self) -> None:
        """A new game of the match: shuffle both decks, pay-off piles, hands, first player."""
        self.round += 1
        payoff_deck = shuffled(PAYOFF_DECK, self.rng)
        self.payoff: list[list[str]] = [payoff_deck[:PAYOFF_SIZE], payoff_deck[PAYOFF_SIZE:]]
        # Equal upcards: both piles are reshuffled until the upcards differ.
        while RANK_VALUE[self.payoff[0][-1]] == RANK_VALUE[self.payoff[1][-1]]:
            for pile in self.payoff:
                shuffle(pile, self.rng)
        self.stock: list[str] = shuffled(HAND_DECK, self.rng)
        self.hands: list[list[str]] = [[], []]
        for _ in range(HAND_SIZE):
            for seat in range(PLAYERS):
                self.hands[seat].append(self.stock.pop())
        for hand in self.hands:
            hand.sort(key=HAND_ORDER.__getitem__)
        self.discards: list[list[list[str]]] = [
            [[] for _ in range(DISCARD_PILES)] for _ in range(PLAYERS)
        ]
        self.centre: list[list[str]] = []
        up0, up1 = (RANK_VALUE[p[-1]] for p in self.payoff)
        self.current = 0 if up0 > up1 else 1
        self.turn = 1
        self.played_this_turn: list[str] = []
        self.drew_this_turn = False
        self.stall_turns = 0
        self.drought_turns = 0
        self.stock_rebuilds = 0
        self.last_turn: dict[str, Any] | None = None

    def _rebuild_stock_if_needed(self) -> None:
        if len(self.stock) > REBUILD_AT:
            return
        complete = [s for s in self.centre if len(s) == KING]
        if complete:
            pool = list(self.stock)
            for stack in complete:
                pool.extend(stack)
            self.centre = [s for s in self.centre if len(s) < KING]
        elif not self.stock and self.centre:
            # House rule: an empty stock with no complete stack takes every centre stack.
            pool = [c for stack in self.centre for c in stack]
            self.centre = []
        else:
            return
        self.stock = shuffled(pool, self.rng)
        self.stock_rebuilds += 1

    def _refill(self, seat: int) -> None:
        hand = self.hands[seat]
        drew = False
        while len(hand) < HAND_SIZE:
            if len(self.stock) <= REBUILD_AT:
                self._rebuild_stock_if_needed()
            if not self.stock:
                break
            hand.append(self.stock.pop())
            drew = True
        if drew:
            hand.sort(key=HAND_ORDER.__getitem__)
            self.drew_this_turn = True

    # ----- the contract ----------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.match_over else self.current

    @property
    def is_over(self) -> bool:
        return self.match_over

    def must_play_ace(self, seat: int | None = None) -> bool:
        """Does ``seat`` still owe an Ace from its upcard or a discard-pile top?"""
        seat = self.current if seat is None else seat
        if len(self.centre) >= MAX_STACKS:
            return False
        if RANK_VALUE[self.payoff[seat][-1]] == 1:
            return True
        for pile in self.discards[seat]:
            if pile and RANK_VALUE[pile[-1]] == 1:
                return True
        return False

    def _sources(self, seat: int) -> list[tuple[str, str]]:
        """Cards ``seat`` may build with, as (card, where) in a fixed order."""
        out = [(self.payoff[seat][-1], "upcard")]
        out.extend((pile[-1], PILE_NAMES[i]) for i, pile in enumerate(self.discards[seat]) if pile)
        out.extend((card, "hand") for card in self.hands[seat])
        return out

    _legal_cache: tuple[tuple[Any, ...], list[Action]] | None = None
    """(inputs, actions) of the last listing: State.apply lists the actions again to check
    legality, and bots list each state several times. Keyed on everything the listing
    reads, so a state edited by hand (tests do) is never served a stale list; copies share
    it (both parts are never changed, only replaced)."""

    def _legal_actions(self) -> list[Action]:
        seat = self.current
        key = (
            seat,
            self.payoff[seat][-1],
            tuple(self.hands[seat]),
            tuple(map(len, self.centre)),
            tuple(map(tuple, self.discards[seat])),
        )
        cached = self._legal_cache
        if cached is not None and cached[0] == key:
            return list(cached[1])
        actions = self._list_actions(seat)
        self._legal_cache = (key, actions)
        return list(actions)

    def _list_actions(self, seat: int) -> list[Action]:
        held = _distinct(self.hands[seat])
        actions = self._list_builds(seat, held)
        if self.must_play_ace(seat):
            return actions
        actions += self._list_discards(seat, held)
        actions.append(_ENDS[seat])
        return actions

    def _list_builds(self, seat: int, held: list[str]) -> list[Action]:
        """The listing's builds, in its order (``held``: :func:`_distinct` of the hand)."""
        actions: list[Action] = []
        append = actions.append
        centre = self.centre
        room = len(centre) < MAX_STACKS
        # The indexes of the stacks still open by the rank they need next, so each source
        # card goes straight to the stacks it fits (a joker: any open one).
        needing: dict[int, list[int]] = {}
        for index, stack in enumerate(centre):
            height = len(stack)
            if height < KING:
                if height + 1 in needing:
                    needing[height + 1].append(index)
                else:
                    needing[height + 1] = [index]
        discards = self.discards[seat]
        # The sources in _sources' order: upcard, discard-pile tops, hand.
        sources = [(_UPCARD, self.payoff[seat][-1])]
        sources += [(index + 1, pile[-1]) for index, pile in enumerate(discards) if pile]
        # Cards of one rank in the hand do the same (suits do not matter, nor which joker):
        # only the first of each rank in the hand's order is listed (see _equivalent).
        sources += [(_HAND, card) for card in held]
        rows = _BUILDS[seat]
        for where, card in sources:
            row = rows[where].get(card)
            if row is None:
                row = _build_row(seat, where, card)
            value = RANK_VALUE[card]
            if value == JOKER:
                for index, stack in enumerate(centre):
                    height = len(stack)
                    if height < KING:
                        append(row[index][height])
            elif value in needing:
                for index in needing[value]:
                    append(row[index])
            if room and value <= 1:  # an Ace or a joker may start a stack
                append(row[MAX_STACKS])
        return actions

    def _list_discards(self, seat: int, held: list[str]) -> list[Action]:
        """The listing's discards, in its order (``held``: :func:`_distinct` of the hand);
        listed only when no Ace is owed (:meth:`must_play_ace`)."""
        actions: list[Action] = []
        discards = self.discards[seat]
        room = len(self.centre) < MAX_STACKS
        # What each pile accepts (can_discard, worked out once per pile): the highest rank
        # that may go on it (empty or only jokers: any), and the piles a joker may go on.
        highest: list[int] = []
        joker_piles: list[int] = []
        for index, pile in enumerate(discards):
            # pile_rank, without the call when the top card is no joker (the usual case)
            shown = RANK_VALUE[pile[-1]] if pile else None
            if shown == JOKER:
                shown = pile_rank(pile)
            highest.append(shown or KING)
            if shown != 2:
                joker_piles.append(index)
        # Each card's discards, in pile order, from a memo by the piles that take it.
        sets = _DISCARD_SETS[seat]
        joker_mask = 0
        for index in joker_piles:
            joker_mask |= 1 << index
        for card in held:
            value = RANK_VALUE[card]
            if value == JOKER:
                mask = joker_mask
            elif value != 1 or not room:  # an Ace goes to the centre while there is room
                mask = 0
                for index in range(DISCARD_PILES):
                    if value <= highest[index]:
                        mask |= 1 << index
            else:
                continue
            key = (card, mask)
            chosen = sets.get(key)
            if chosen is None:
                piles = _DISCARDS[seat][card]
                chosen = sets[key] = tuple(
                    piles[index] for index in range(DISCARD_PILES) if mask >> index & 1
                )
            actions += chosen
        return actions

    def _equivalent(self, action_id: str) -> Action | None:
        move = _MOVES.get(action_id)
        if move is None or move[0] == "end" or self.is_over:
            return None
        kind, card, target = move
        seat = self.current
        hand = self.hands[seat]
        if card not in hand:
            return None
        value = RANK_VALUE[card]
        for legal in self._legal_actions():
            listed = _MOVES[legal.id]
            if (
                listed[0] == kind
                and listed[2] == target
                and listed[1] in hand
                and RANK_VALUE[listed[1]] == value
            ):
                if kind == "discard":
                    assert target is not None
                    return _DISCARDS[seat][card][target]
                row = _BUILDS[seat][_HAND].get(card) or _build_row(seat, _HAND, card)
                if target is None:
                    return row[MAX_STACKS]
                if value == JOKER:
                    return row[target][len(self.centre[target])]
                return row[target]
        return None

    def _apply(self, action: Action) -> bool:
        seat = self.current
        kind, card, target = _MOVES[action.id]
        if kind == "build":
            return self._build(seat, card, target)
        # Nothing went to the centre this turn and nothing could have: asked before the
        # discard, which may take away the one card that could (see _end_turn).
        blocked = not self.played_this_turn and not self._can_build_any(seat)
        if kind == "discard":
            assert target is not None
            self.hands[seat].remove(card)
            self.discards[seat][target].append(card)
            self.last_turn = {
                "player": seat,
                "played": self.played_this_turn,
                "discarded": card,
                "pile": target,
            }
        else:
            self.last_turn = {
                "player": seat,
                "played": self.played_this_turn,
                "discarded": None,
                "pile": None,
            }
        no_discard = blocked and kind == "end" and not self._can_discard_any(seat)
        return self._end_turn(seat, blocked, no_discard)

    def _build(self, seat: int, card: str, target: int | None) -> bool:
        payoff = self.payoff[seat]
        if payoff[-1] == card:
            payoff.pop()
            from_upcard = True
        else:
            from_upcard = False
            for pile in self.discards[seat]:
                if pile and pile[-1] == card:
                    pile.pop()
                    break
            else:
                self.hands[seat].remove(card)
        if target is None:
            self.centre.append([card])
        else:
            self.centre[target].append(card)
        self.played_this_turn.append(card)
        if from_upcard:
            self.drought_turns = -1  # this turn counts as one that played a pay-off card
        if from_upcard and not payoff:
            self._game_won(seat)
            return True
        reveals = from_upcard
        if not self.hands[seat]:
            # Playing out the hand mid-turn draws a fresh five and the turn goes on.
            before = self.drew_this_turn
            self.drew_this_turn = False
            self._refill(seat)
            reveals = reveals or self.drew_this_turn
            self.drew_this_turn = self.drew_this_turn or before
        return reveals

    def _can_build_any(self, seat: int) -> bool:
        """Could ``seat`` play any card to the centre now (is any ``build:`` action legal)?"""
        room = len(self.centre) < MAX_STACKS
        needed = {len(stack) + 1 for stack in self.centre if len(stack) < KING}
        for card, _ in self._sources(seat):
            value = RANK_VALUE[card]
            if value == JOKER:
                if needed or room:
                    return True
            elif value in needed or (room and value == 1):
                return True
        return False

    def _can_discard_any(self, seat: int) -> bool:
        """Could any hand card go on a discard pile (``can_discard``, Aces held back while
        they must go to the centre)?"""
        ace_blocked = len(self.centre) < MAX_STACKS
        jokers = False
        lowest = KING + 1  # the lowest rank that may be discarded; none: above a King
        for card in self.hands[seat]:
            value = RANK_VALUE[card]
            if value == JOKER:
                jokers = True
            elif value < lowest and not (ace_blocked and value == 1):
                lowest = value
        for pile in self.discards[seat]:
            if not pile:
                if jokers or lowest <= KING:
                    return True
                continue
            shown = pile_rank(pile)
            if (jokers and shown != 2) or lowest <= (KING if shown is None else shown):
                return True
        return False

    def stock_exhausted(self) -> bool:
        """Nothing left to draw: the stock is empty and no centre card could rebuild it."""
        return not self.stock and not self.centre

    def _end_turn(self, seat: int, blocked: bool, no_discard: bool) -> bool:
        """End ``seat``'s turn: refill the hand, count frozen turns, pass the turn on.

        ``blocked``: nothing was played to the centre and no centre play was available;
        ``no_discard``: the turn ended without a discard because none was possible."""
        before = self.drew_this_turn
        self.drew_this_turn = False
        self._refill(seat)
        reveals = self.drew_this_turn
        # A frozen turn (house rule): no centre play available, none made, nothing drawn,
        # and either no discard possible or a stock that can no longer be refilled. A
        # declined centre play never freezes a turn.
        stalled = (
            blocked
            and not before
            and not self.drew_this_turn
            and (no_discard or self.stock_exhausted())
        )
        self.stall_turns = self.stall_turns + 1 if stalled else 0
        self.drought_turns += 1
        if self.stall_turns >= STALL_TURNS or self.drought_turns >= DROUGHT_TURNS:
            self._finish_game(None, "stall" if self.stall_turns >= STALL_TURNS else "drought")
            # A drawn game that the match outlives deals the next one: new cards are seen.
            return reveals or not self.match_over
        self.current = 1 - seat
        self.turn += 1
        self.played_this_turn = []
        self.drew_this_turn = False
        return reveals

    def _finish_game(self, winner: int | None, reason: str) -> None:
        left = [len(p) for p in self.payoff]
        points = [0, 0]
        if winner is not None:
            points[winner] = left[1 - winner]
            self.scores[winner] += points[winner]
        summary = {
            "round": self.round,
            "winner": winner,
            "reason": reason,
            "points": points,
            "payoff_left": left,
            "turns": self.turn,
        }
        self.rounds.append(summary)
        self.drawn_in_row = self.drawn_in_row + 1 if winner is None else 0
        if winner is None and (self.target == 0 or self.drawn_in_row >= MAX_DRAWN_GAMES):
            best = max(self.scores)
            self.match_over = True
            self.match_winners = [s for s in range(PLAYERS) if self.scores[s] == best]
        elif winner is not None and (self.target == 0 or self.scores[winner] >= self.target):
            self.match_over, self.match_winners = True, [winner]
        else:
            self._round_over()
            self._deal()

    def _game_won(self, seat: int) -> None:
        self.last_turn = {
            "player": seat,
            "played": self.played_this_turn,
            "discarded": None,
            "pile": None,
        }
        self._finish_game(seat, "payoff")

    # ----- information -----------------------------------------------------------------------
    def policy_view(self, player: int) -> dict[str, Any]:
        """The keys of :meth:`view` the greedy policy reads (the rollouts build this). Its
        lists are the state's own, not copies: the policy only reads them, and the rollout
        moves on only once it has chosen."""
        return {
            "you": player,
            "hand": self.hands[player],
            "upcards": [p[-1] if p else None for p in self.payoff],
            "discard_piles": self.discards,
            "stack_ranks": [len(s) for s in self.centre],
            "played_this_turn": self.played_this_turn,
        }

    def _fresh_actions(self) -> list[Action]:
        # A rollout lists each position once: no key for the listing's cache.
        return self._list_actions(self.current)

    def _policy_part(self, player: int | None) -> dict[str, Any]:
        return {
            "you": player,
            "hand": list(self.hands[player]) if player is not None else None,
            "upcards": [p[-1] if p else None for p in self.payoff],
            "discard_piles": [[list(pile) for pile in piles] for piles in self.discards],
            "stack_ranks": [len(s) for s in self.centre],
            "played_this_turn": list(self.played_this_turn),
        }

    def view(self, player: int | None) -> dict[str, Any]:
        over = self.match_over
        out = self._policy_part(player)
        out.update(
            {
                "game": "spite",
                "phase": "over" if over else "play",
                "current_player": self.current_player,
                "round": self.round,
                "target": self.target,
                "scores": list(self.scores),
                "hand_counts": [len(h) for h in self.hands],
                "payoff_counts": [len(p) for p in self.payoff],
                "discard_ranks": [[pile_rank(pile) for pile in piles] for piles in self.discards],
                "centre": [list(s) for s in self.centre],
                "max_stacks": MAX_STACKS,
                "stock_count": len(self.stock),
                "stock_rebuilds": self.stock_rebuilds,
                "turn": self.turn,
                "must_play_ace": (not over) and self.must_play_ace(),
                "stall_turns": self.stall_turns,
                "turns_without_payoff": max(self.drought_turns, 0),
                "last_turn": None
                if self.last_turn is None
                else {**self.last_turn, "played": list(self.last_turn["played"])},
                "last_round": dict(self.rounds[-1]) if self.rounds else None,
                "rounds": [dict(r) for r in self.rounds],
                "winners": list(self.match_winners),
            }
        )
        return out

    def rounds_played(self) -> int:
        return len(self.rounds)

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.match_winners),
            "rounds": [dict(r) for r in self.rounds],
        }

    def zones(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {"stock": list(self.stock)}
        for seat in range(PLAYERS):
            out[f"payoff{seat}"] = list(self.payoff[seat])
            out[f"hand{seat}"] = list(self.hands[seat])
            for i, pile in enumerate(self.discards[seat]):
                out[f"discard{seat}_{i}"] = list(pile)
        for i, stack in enumerate(self.centre):
            out[f"centre{i}"] = list(stack)
        return out

    def deck(self) -> list[str]:
        return list(PAYOFF_DECK) + list(HAND_DECK)

    def determinize(self, player: int, rng: random.Random) -> SpiteState:
        return self.sampler(player)(rng)

    def sampler(self, player: int) -> Callable[[random.Random], SpiteState]:
        """Every pay-off card that ever left a pile was turned up first, so the cards still
        face down in the two pay-off piles are public as a set; only their split and order
        are unknown. The other hand and the stock are one pool of unseen cards. Both pools
        are worked out once, here (sorted, so only what ``player`` knows decides them); each
        world shuffles a copy of each and deals them."""
        if self.match_over:
            return lambda rng: self._copy(LazyRandom(rng.getrandbits(64)))
        buried = sorted(c for p in self.payoff for c in p[:-1])
        piles = [(len(p) - 1, p[-1]) for p in self.payoff]  # (cards face down, upcard)
        other = 1 - player
        pool = sorted(self.hands[other] + self.stock)
        count = len(self.hands[other])
        order = HAND_ORDER.__getitem__

        def sample(rng: random.Random) -> SpiteState:
            world = self._copy(LazyRandom(rng.getrandbits(64)))
            cards = list(buried)
            shuffle(cards, rng)
            at = 0
            for seat, (size, upcard) in enumerate(piles):
                pile = cards[at : at + size]
                pile.append(upcard)
                world.payoff[seat] = pile
                at += size
            unseen = list(pool)
            shuffle(unseen, rng)
            world.hands[other] = sorted(unseen[:count], key=order)
            world.stock = unseen[count:]
            return world

        return sample

    def why_illegal(self, action_id: str) -> str | None:
        if not isinstance(action_id, str):
            return None
        kind, _, rest = action_id.partition(":")
        if kind == "end" and not rest:
            return self._why_not_end()
        if kind == "build":
            card, _, target = rest.rpartition(":")
            return self._why_not_build(card, target) if card in RANK_VALUE else None
        if kind == "discard":
            card, _, pile = rest.rpartition(":")
            return self._why_not_discard(card, pile) if card in RANK_VALUE else None
        return None

    def _why_not_end(self) -> str:
        if self.must_play_ace():
            return (
                "you must play the Ace showing on your upcard or discard pile before ending "
                "your turn"
            )
        return "you cannot end your turn now"

    def _why_not_build(self, card: str, target: str) -> str:
        seat = self.current
        if card not in [c for c, _ in self._sources(seat)]:
            if any(card in pile for pile in self.discards[seat]):
                return "only the top card of a discard pile can be played"
            if card in self.payoff[seat]:
                return "only the face-up card of your pay-off pile can be played"
            return f"{card_name(card)} is not in your hand, on your discard piles or your upcard"
        value = RANK_VALUE[card]
        if target == "new":
            if len(self.centre) >= MAX_STACKS:
                return f"there are already {MAX_STACKS} centre stacks"
            if value not in (1, JOKER):
                return "a new centre stack must start with an Ace (or a joker as an Ace)"
            return "that stack cannot be started now"
        if not target.isdigit() or int(target) >= len(self.centre):
            return f"there is no centre stack {target}"
        stack = self.centre[int(target)]
        if len(stack) >= KING:
            return "that stack is complete: nothing goes on a King"
        need, have = RANK_NAME[len(stack) + 1], RANK_NAME[value]
        return f"that stack needs {_a(need)} {need}, not {_a(have)} {have}"

    def _why_not_discard(self, card: str, pile: str) -> str:
        seat = self.current
        if card not in self.hands[seat]:
            return "you can only discard a card from your hand"
        if not pile.isdigit() or int(pile) >= DISCARD_PILES:
            return f"you have discard piles 0 to {DISCARD_PILES - 1} only"
        if self.must_play_ace():
            return "you must play the Ace showing on your upcard or discard pile before discarding"
        if RANK_VALUE[card] == 1 and len(self.centre) < MAX_STACKS:
            return "an Ace must be played to the centre while there is room for a new stack"
        if is_joker(card):
            return "a joker may not be discarded onto a 2"
        shown = pile_rank(self.discards[seat][int(pile)])
        have, top = RANK_NAME[RANK_VALUE[card]], RANK_NAME[shown or KING]
        return f"discard piles go down: {_a(have)} {have} cannot go on {_a(top)} {top}"

    def _copy(self, rng: random.Random) -> SpiteState:
        """A deep copy of the match drawing its future chance from ``rng`` (determinize
        passes a fresh one, so the state's own RNG need not be copied first)."""
        other = SpiteState.__new__(SpiteState)
        fields = other.__dict__
        # Start from every attribute as it is: the ints, bools and strings, and what is
        # never changed in place once made, so may be shared: the reveal marks (see State),
        # the listing cache, the round summaries and last_turn (replaced, not edited, and
        # handed out as copies by view). Then copy the containers that change in place.
        fields.update(self.__dict__)
        other.options = dict(self.options)
        other.rng = rng
        other.history = list(self.history)
        other.scores = list(self.scores)
        other.rounds = list(self.rounds)
        other.match_winners = list(self.match_winners)
        other.payoff = [list(p) for p in self.payoff]
        other.stock = list(self.stock)
        other.hands = [list(h) for h in self.hands]
        other.discards = [[list(p) for p in piles] for piles in self.discards]
        other.centre = [list(s) for s in self.centre]
        other.played_this_turn = list(self.played_this_turn)
        return other

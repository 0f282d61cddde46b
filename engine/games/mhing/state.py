"""General Mhing: lay runs of three, score how well they match each other.

2 to 4 players, one 52-card deck, 7 cards each. A turn: draw one card from the draw pile
(or take the top discard, but only straight into a sequence laid at once), optionally swap
wild Aces in your sequences back for the natural cards, then either discard one card or lay
one sequence and draw two. The 4th sequence ends the round; so does a draw with nothing left
to draw, or a second rebuild of the draw pile with no sequence laid since the first (house
rules, see ``SPEC.clarifications``). Only the round's top scorer adds their points; the
first to reach the target (14, or 20) ends the match.

Action ids (cards listed low to high, an Ace at the position of the rank it stands for):
``draw:stock``, ``take:7H,AH,9H`` (take the top discard into this sequence, then draw two),
``lay:7H,8H,9H`` (after drawing; then draw two), ``swap:8H`` (the 8♥ from your hand replaces
the Ace standing for it; the Ace comes back to your hand), ``discard:7H`` (ends the turn).

View keys (``view(player)``; ``player=None`` is a spectator):

- ``game``, ``players``, ``viewer``, ``round`` (1-based), ``phase`` (``"draw"``: the seat to
  act must draw or take; ``"play"``: it has drawn and must discard or lay; ``"over"``),
  ``current_player`` (None when over), ``round_starter``, ``target``, ``scores`` (match
  totals), ``winners`` (seats, [] until over), ``is_over``.
- ``hand``: the viewer's cards, sorted (``[]`` for a spectator); ``drawn``: the card the
  viewer drew this turn, else None; ``hand_counts``: cards per seat.
- ``known_hand_cards``: per seat, the cards everyone knows it holds (Aces swapped back).
- ``sequences``: per seat, the laid sequences (lists of card ids, low to high);
  ``sequence_counts``; ``sequence_ranks``: per seat, per sequence, the three ranks (1-13) it
  stands for, a wild Ace's included; ``round_points``: what each seat's sequences score right
  now; ``matches``: per seat, every point of it (``rules.score_breakdown``:
  ``{"kind": "suit" | "ranks" | "order" | "high" | "low", "between": [i, j] or []}``).
- ``discard_pile`` (bottom to top, all face up), ``discard_top`` (or None),
  ``draw_pile_count``, ``reshuffled``: the cards turned into the draw pile at the last
  reshuffle of this round, sorted (everyone saw them; the draw pile is made of them since),
  ``rebuilt_since_sequence``: True once the pile was rebuilt with no sequence laid since (the
  next time it runs out, the round ends).
- ``rounds``: summaries of the finished rounds; ``last_round``: the latest one or None. A
  summary has ``round``, ``starter``, ``reason`` (``"fourth_sequence"``,
  ``"draw_pile_empty"`` or ``"no_progress"``), ``ended_by`` (seat or None), ``sequences``,
  ``points`` (what each seat's sequences scored), ``sequence_counts``, ``winners``,
  ``awarded`` (added per seat), ``totals`` (match totals after it), ``sequence_ranks`` and
  ``matches`` (as in the view, for the sequences at the round's end).

>>> import engine
>>> state = engine.new_game("mhing", players=2, seed=3)
>>> state.view(0)["phase"], len(state.view(0)["hand"])
('draw', 7)
>>> first = state.current_player
>>> state.apply("draw:stock").id
'draw:stock'
>>> len(state.view(first)["hand"])
8
"""

from __future__ import annotations

import random
from bisect import insort
from typing import Any

from engine.cards import card_name, shuffle, shuffled
from engine.core import Action, LazyRandom, State
from engine.games.mhing.rules import (
    CARD_AT,
    CARD_BIT,
    DECK,
    HAND_SIZE,
    MAX_PLAYERS,
    SEQUENCES_TO_END,
    SORT_KEY,
    SUIT_FIELD,
    SUIT_FIELDS,
    SUIT_OF,
    VALUE_OF,
    ace_stands_for,
    is_ace,
    score_breakdown,
    score_sequences,
    sequence_problem,
    sequence_ranks,
    sequence_text,
    sequences_in,
    sort_cards,
    suit_sequences,
)

# Every Mhing action's label follows from its id and seat alone, so each is built once and
# shared: bots list the legal actions thousands of times per decision.
_ACTIONS: dict[tuple[str, int], Action] = {}


def _shared(action: Action) -> Action:
    """The one shared object for ``action`` (the first one built is kept)."""
    return _ACTIONS.setdefault((action.id, action.player), action)


def _draw_action(can_draw: bool, player: int) -> Action:
    # Two labels for one id: the key tells them apart (no real id contains "|").
    key = ("draw:stock" if can_draw else "draw:stock|last", player)
    action = _ACTIONS.get(key)
    if action is None:
        label = "Draw a card" if can_draw else "Draw (nothing left: ends the round)"
        action = _ACTIONS[key] = Action("draw:stock", player, label)
    return action


def _take_action(seq: tuple[str, ...], top: str, player: int) -> Action:
    # The label and cards also depend on which card of the sequence is the discard taken.
    key = ("take:" + ",".join(seq) + "|" + top, player)
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = Action(
            "take:" + ",".join(seq),
            player,
            f"Take {card_name(top)}: lay {sequence_text(seq)}",
            tuple(c for c in seq if c != top),
        )
    return action


def _lay_action(seq: tuple[str, ...], player: int) -> Action:
    action = _ACTIONS.get(("lay:" + ",".join(seq), player))
    if action is None:
        action = _shared(
            Action("lay:" + ",".join(seq), player, f"Lay {sequence_text(seq)}", tuple(seq))
        )
    return action


def _swap_action(natural: str, player: int) -> Action:
    action = _ACTIONS.get(("swap:" + natural, player))
    if action is None:
        ace = CARD_AT[SUIT_OF[natural], 1]
        action = _shared(
            Action(
                f"swap:{natural}",
                player,
                f"Swap {card_name(natural)} for {card_name(ace)}",
                (natural,),
            )
        )
    return action


def _discard_action(c: str, player: int) -> Action:
    action = _ACTIONS.get(("discard:" + c, player))
    if action is None:
        action = _shared(Action(f"discard:{c}", player, f"Discard {card_name(c)}", (c,)))
    return action


# The listing reads the shared actions through tables by seat, so that it makes no id
# strings or tuple keys: the draws by whether a card can be drawn, the discards by card,
# and the lays and takes by a suit's part of the hand's bit form (``rules.card_bits``; a
# take also by the discard taken). Rows are filled on first use.
_DRAWS: tuple[tuple[Action, Action], ...] = tuple(
    (_draw_action(False, p), _draw_action(True, p)) for p in range(MAX_PLAYERS)
)
_DISCARDS: tuple[dict[str, Action], ...] = tuple({} for _ in range(MAX_PLAYERS))
_LAYS: tuple[dict[int, tuple[Action, ...]], ...] = tuple({} for _ in range(MAX_PLAYERS))
_TAKES: tuple[dict[str, dict[int, tuple[Action, ...]]], ...] = tuple(
    {c: {} for c in DECK} for _ in range(MAX_PLAYERS)
)


def _discard_row(player: int) -> dict[str, Action]:
    """``_DISCARDS[player]``, every card's discard in it."""
    row = _DISCARDS[player]
    if not row:
        row.update((c, _discard_action(c, player)) for c in DECK)
    return row


def _lay_row(player: int, suit_bits: int) -> tuple[Action, ...]:
    """The lay actions of one suit's part of a hand, stored in ``_LAYS[player]``."""
    row = _LAYS[player][suit_bits] = tuple(
        _lay_action(seq, player) for seq in suit_sequences(suit_bits)
    )
    return row


def _take_row(player: int, top: str, suit_bits: int) -> tuple[Action, ...]:
    """The takes of discard ``top`` given its suit's part of the hand with ``top`` added,
    stored in ``_TAKES[player][top]``."""
    row = _TAKES[player][top][suit_bits] = tuple(
        _take_action(seq, top, player) for seq in suit_sequences(suit_bits) if top in seq
    )
    return row


class MhingState(State):
    """One whole match of General Mhing."""

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        self._init_common("mhing", players, seed, options)
        self.target: int = int(options.get("target", 14))
        self.totals: list[int] = [0] * players
        self.rounds: list[dict[str, Any]] = []
        self.round_no = 0
        self.over = False
        # The text lets the oldest player start; we draw the first starter by lot.
        self.starter = self.rng.randrange(players)
        self._deal()

    # ----- set-up and bookkeeping ------------------------------------------------------
    def _deal(self) -> None:
        self.round_no += 1
        deck = shuffled(DECK, self.rng)
        self.hands: list[list[str]] = [
            sort_cards(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(self.players)
        ]
        self.draw_pile: list[str] = deck[self.players * HAND_SIZE :]  # last item is the top
        self.discards: list[str] = []
        self.discard_bits = 0
        """The bit form of the discard pile (``rules.CARD_BIT``), kept by every move."""
        self.sequences: list[list[list[str]]] = [[] for _ in range(self.players)]
        self.laid_bits = 0
        """The bit form of every laid sequence's cards, kept by every move."""
        self.known: list[list[str]] = [[] for _ in range(self.players)]
        self.reshuffled: list[str] = []
        self.rebuilt_since_sequence = False
        self.turn = self.starter
        self.phase = "draw"
        self.drawn: str | None = None
        self._points: tuple[list[list[list[str]]], list[int]] | None = None
        self._seat_memo: list[Any] = [None] * self.players
        """Per seat, what a bot worked out from that seat's laid sequences alone (None: not
        yet), dropped whenever they change."""

    def _copy(self, rng: random.Random) -> MhingState:
        """A deep copy drawing its future chance from ``rng`` (determinize passes a fresh
        one, so the state's own RNG need not be copied first)."""
        other = object.__new__(MhingState)
        other.game_id, other.players, other.seed = self.game_id, self.players, self.seed
        other.options = dict(self.options)
        other.rng = rng
        other.history = list(self.history)
        other._reveals_settled, other._reveals_recent = self._reveals_settled, self._reveals_recent
        other.target, other.totals = self.target, list(self.totals)
        other.rounds = list(self.rounds)  # finished summaries are never changed
        other.round_no, other.over, other.starter = self.round_no, self.over, self.starter
        other.hands = [list(h) for h in self.hands]
        other.draw_pile, other.discards = list(self.draw_pile), list(self.discards)
        other.discard_bits, other.laid_bits = self.discard_bits, self.laid_bits
        other._seat_memo = list(self._seat_memo)
        other.sequences = [[list(s) for s in seqs] for seqs in self.sequences]
        other.known = [list(k) for k in self.known]
        other.reshuffled = list(self.reshuffled)
        other.rebuilt_since_sequence = self.rebuilt_since_sequence
        other.turn, other.phase, other.drawn = self.turn, self.phase, self.drawn
        if self._points is not None and self._points[0] is self.sequences:
            other._points = (other.sequences, self._points[1])
            other._stale = self._stale
        else:
            other._points = None
        return other

    _deal_next = True
    """False only on a search's rollout world, which stops at the round's end: the round is
    scored but the next one not dealt."""

    @property
    def current_player(self) -> int | None:
        return None if self.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    # ----- legal actions ---------------------------------------------------------------
    def _swaps(self, player: int) -> list[Action]:
        hand = self.hands[player]
        out = []
        for seq in self.sequences[player]:
            natural = ace_stands_for(seq)
            if natural is not None and natural in hand:
                out.append(_swap_action(natural, player))
        return out

    def _legal_actions(self) -> list[Action]:
        # The same list as drawing (or laying) every sequence of ``sequences_in``, swapping
        # every Ace of ``_swaps`` and discarding every card, read from the shared tables.
        player = self.turn
        hand = self.hands[player]
        if self.phase == "draw":
            actions = [self._draw_action(player)]
            if self.discards:
                actions += self._takes(player)
            if self.sequences[player]:
                actions += self._swaps(player)
            return actions
        actions = self._lays(player)
        if self.sequences[player]:
            actions += self._swaps(player)
        discards = _discard_row(player)
        actions += [discards[c] for c in hand]
        return actions

    def _draw_action(self, player: int) -> Action:
        """The draw of ``player`` (its label says when nothing is left to draw)."""
        can_draw = bool(self.draw_pile) or (
            len(self.discards) > 1 and not self.rebuilt_since_sequence
        )
        return _DRAWS[player][can_draw]

    def _takes(self, player: int) -> tuple[Action, ...]:
        """The takes of the top discard (there is one) into a sequence, in listing order."""
        # Only sequences of the discard's suit can use it; a hand holds each card once, so
        # the sum of its bits is their OR (``card_bits``).
        top = self.discards[-1]
        field = SUIT_FIELD[top]
        bits = sum(map(CARD_BIT.__getitem__, self.hands[player])) & field
        suit_bits = bits | CARD_BIT[top]
        takes = _TAKES[player][top].get(suit_bits)
        if takes is None:
            takes = _take_row(player, top, suit_bits)
        return takes

    def _lays(self, player: int, bits: int | None = None) -> list[Action]:
        """The lays of the hand of ``player``, suit by suit, in listing order (``bits``: the
        hand's bit form, when the caller has it)."""
        if bits is None:
            bits = sum(map(CARD_BIT.__getitem__, self.hands[player]))
        actions: list[Action] = []
        lays = _LAYS[player]
        for field in SUIT_FIELDS:
            suit_bits = bits & field
            if suit_bits:
                found = lays.get(suit_bits)
                if found is None:
                    found = _lay_row(player, suit_bits)
                actions += found
        return actions

    def why_illegal(self, action_id: str) -> str | None:
        kind, _, arg = action_id.partition(":")
        if kind not in ("draw", "take", "lay", "swap", "discard") or self.over:
            return None
        hand = self.hands[self.turn]
        if kind == "draw":
            if arg != "stock":
                return "draw from the draw pile (draw:stock) or take the discard into a sequence"
            return "you have already drawn a card this turn"
        cards = arg.split(",") if arg else []
        if kind in ("discard", "swap"):
            if len(cards) != 1 or cards[0] not in VALUE_OF:
                return f"name one card to {kind}"
            c = cards[0]
            if c not in hand:
                return f"you don't hold {card_name(c)}"
            if kind == "discard":
                return "draw a card before you discard"
            if is_ace(c):
                return "an Ace cannot replace another card; swap the natural card for the Ace"
            return f"none of your sequences has an Ace standing for {card_name(c)}"
        if kind == "take":
            if self.phase != "draw":
                return "the discard can only be taken instead of drawing, at the start of your turn"
            if not self.discards:
                return "the discard pile is empty: draw a card to start your turn"
            top = self.discards[-1]
            if top not in cards and len(cards) >= 3:
                return f"the discard {card_name(top)} must be part of the sequence you lay with it"
            # Judged with the discard it is laid with: the hand's cards plus that one.
            missing = [c for c in cards if c != top and c in VALUE_OF and c not in hand]
            if missing:
                return f"you don't hold {card_name(missing[0])}"
            with_top = f"with {card_name(top)} from the discard"
            if top not in cards and all(c in VALUE_OF for c in cards):
                cards = sort_cards(set(cards) | {top})
                if len(cards) < 3 and not any(
                    set(cards) <= set(seq) for seq in sequences_in(hand + [top], top)
                ):
                    return f"{with_top}, these cards make no sequence (same suit, ranks in a row)"
            problem = sequence_problem(cards)
            if problem:
                return f"{with_top}: {problem}"
            return "that sequence cannot be laid"
        if self.phase == "draw":
            return "draw a card first (or take the discard straight into a sequence)"
        if (
            len(cards) < 3
            and all(c in hand for c in cards)
            and not any(set(cards) <= set(seq) for seq in sequences_in(hand))
        ):
            return "these cards make no sequence with your hand (same suit, ranks in a row)"
        problem = sequence_problem(cards)
        if problem:
            return problem
        missing = [c for c in cards if c not in hand]
        if missing:
            return f"you don't hold {card_name(missing[0])}"
        return "that sequence cannot be laid"

    # ----- applying ----------------------------------------------------------------------
    def _draw_one(self, player: int) -> str | None:
        """Draw for ``player``, rebuilding the draw pile first when needed.

        Returns None, or why the round ends instead (nothing to draw, or no progress)."""
        if not self.draw_pile:
            if len(self.discards) <= 1:
                return "draw_pile_empty"
            if self.rebuilt_since_sequence:
                # Every card in play went round once with nobody laying: the round is stuck.
                return "no_progress"
            self.rebuilt_since_sequence = True
            # All discards but the top one become the new draw pile.
            self.reshuffled = sort_cards(self.discards[:-1])
            self.draw_pile = shuffled(self.reshuffled, self.rng)
            self.discards = self.discards[-1:]
            self.discard_bits = CARD_BIT[self.discards[0]]
        c = self.draw_pile.pop()
        insort(self.hands[player], c, key=SORT_KEY.__getitem__)  # the hand stays sorted
        self.drawn = c
        return None

    def _end_turn(self) -> None:
        self.turn = (self.turn + 1) % self.players
        self.phase = "draw"
        self.drawn = None

    def _lay(self, player: int, cards: list[str]) -> None:
        hand = self.hands[player]
        for c in cards:
            if c in hand:
                hand.remove(c)
        self.sequences[player].append(list(cards))
        self.laid_bits |= sum(map(CARD_BIT.__getitem__, cards))
        self._points_changed(player)
        self.rebuilt_since_sequence = False
        if len(self.sequences[player]) >= SEQUENCES_TO_END:
            self._end_round("fourth_sequence", player)
            return
        for _ in range(2):
            stop = self._draw_one(player)
            if stop:
                self._end_round(stop, None)
                return
        self._end_turn()

    def _forget_known(self, player: int, cards: list[str]) -> None:
        if self.known[player]:
            self.known[player] = [c for c in self.known[player] if c not in cards]

    def _apply(self, action: Action) -> bool:
        # Drawing shows a hidden card; taking and laying draw two (or end the round, and a
        # new one is dealt).
        player = self.turn
        kind, _, arg = action.id.partition(":")
        if kind == "draw":
            pile = self.draw_pile
            if pile:  # _draw_one without a pile to rebuild
                c = pile.pop()
                insort(self.hands[player], c, key=SORT_KEY.__getitem__)
                self.drawn = c
                self.phase = "play"
                return True
            stop = self._draw_one(player)
            if stop:
                self._end_round(stop, None)
                return True
            self.phase = "play"
            return True
        if kind == "take":
            cards = arg.split(",")
            self.discard_bits -= CARD_BIT[self.discards.pop()]
            self._forget_known(player, cards)
            self._lay(player, cards)
            return True
        if kind == "lay":
            cards = arg.split(",")
            self._forget_known(player, cards)
            self._lay(player, cards)
            return True
        if kind == "swap":
            natural = arg
            ace = CARD_AT[SUIT_OF[natural], 1]
            for seq in self.sequences[player]:
                if ace in seq:
                    seq[seq.index(ace)] = natural
            self.laid_bits += CARD_BIT[natural] - CARD_BIT[ace]
            self._points_changed(player)
            hand = self.hands[player]
            hand.remove(natural)
            hand.append(ace)
            self.hands[player] = sort_cards(hand)
            self.known[player] = sort_cards(self.known[player] + [ace])
        elif kind == "discard":
            self.hands[player].remove(arg)
            if self.known[player]:
                self._forget_known(player, [arg])
            self.discards.append(arg)
            self.discard_bits += CARD_BIT[arg]
            # _end_turn
            self.turn = (player + 1) % self.players
            self.phase = "draw"
            self.drawn = None
        else:  # pragma: no cover - find_action only passes legal ids
            raise AssertionError(action.id)
        return False

    def _end_round(self, reason: str, ended_by: int | None) -> None:
        points = [score_sequences(seqs) for seqs in self.sequences]
        counts = [len(seqs) for seqs in self.sequences]
        best = max(points)
        top = [p for p in range(self.players) if points[p] == best]
        fewest = min(counts[p] for p in top)
        # A tie goes to the fewest sequences; a tie that survives that shares the points.
        winners = [p for p in top if counts[p] == fewest]
        awarded = [points[p] if p in winners else 0 for p in range(self.players)]
        for p in winners:
            self.totals[p] += points[p]
        self.rounds.append(
            {
                "round": self.round_no,
                "starter": self.starter,
                "reason": reason,
                "ended_by": ended_by,
                "sequences": [[list(s) for s in seqs] for seqs in self.sequences],
                "points": points,
                "sequence_counts": counts,
                "winners": winners,
                "awarded": awarded,
                "sequence_ranks": _ranks_of(self.sequences),
                "matches": [score_breakdown(seqs) for seqs in self.sequences],
                "totals": list(self.totals),
            }
        )
        if max(self.totals) >= self.target:
            self.over = True
            self.phase = "over"
            self.drawn = None
            return
        self.starter = (self.starter + 1) % self.players
        self._round_over()
        if self._deal_next:
            self._deal()

    # ----- what players see ----------------------------------------------------------------
    def winners(self) -> list[int]:
        if not self.over:
            return []
        best = max(self.totals)
        return [p for p in range(self.players) if self.totals[p] == best]

    def policy_view(self, player: int) -> dict[str, Any]:
        """The keys of :meth:`view` the greedy policy reads (the rollouts build this). Its
        lists are the state's own, not copies: the policy only reads them, and the rollout
        moves on only once it has chosen."""
        seeing = 0 <= player < self.players
        return {
            "viewer": player,
            "phase": self.phase,
            "hand": self.hands[player] if seeing else [],
            "known_hand_cards": self.known,
            "sequences": self.sequences,
            "round_points": self._round_points(),
            "discard_pile": self.discards,
        }

    def _round_points(self) -> list[int]:
        """What each seat's sequences score now, worked out again only after a sequence
        was laid or changed (that seat's alone, when one seat's were), or the sequences
        replaced (the rollouts ask at every step; the list is read, never changed)."""
        kept = self._points
        if kept is not None and kept[0] is self.sequences:
            stale = self._stale
            if stale < 0:
                return kept[1]
            points = list(kept[1])
            points[stale] = score_sequences(self.sequences[stale])
        else:
            points = [score_sequences(seqs) for seqs in self.sequences]
        self._points = (self.sequences, points)
        self._stale = -1
        return points

    _stale = -1
    """The seat whose sequences changed since ``_points`` was worked out (-1: none)."""

    def _points_changed(self, player: int) -> None:
        """The sequences of ``player`` were laid or changed: its points are to be worked out
        again (everyone's, if another seat's were already)."""
        if self._stale not in (-1, player):
            self._points = None
        self._stale = player
        self._seat_memo[player] = None

    def view(self, player: int | None) -> dict[str, Any]:
        seeing = player is not None and 0 <= player < self.players
        # Each point is one entry of the breakdown, so the points are counted from it.
        matches = [score_breakdown(seqs) for seqs in self.sequences]
        return {
            "game": self.game_id,
            "players": self.players,
            "viewer": player,
            "round": self.round_no,
            "phase": self.phase,
            "current_player": self.current_player,
            "round_starter": self.starter,
            "target": self.target,
            "scores": list(self.totals),
            "winners": self.winners(),
            "is_over": self.over,
            "hand": list(self.hands[player]) if seeing else [],  # type: ignore[index]
            "drawn": self.drawn if seeing and player == self.turn and not self.over else None,
            "hand_counts": [len(h) for h in self.hands],
            "known_hand_cards": [list(k) for k in self.known],
            "sequences": [[list(s) for s in seqs] for seqs in self.sequences],
            "sequence_counts": [len(seqs) for seqs in self.sequences],
            "sequence_ranks": _ranks_of(self.sequences),
            "round_points": [len(m) for m in matches],
            "matches": matches,
            "discard_pile": list(self.discards),
            "discard_top": self.discards[-1] if self.discards else None,
            "draw_pile_count": len(self.draw_pile),
            "reshuffled": list(self.reshuffled),
            "rebuilt_since_sequence": self.rebuilt_since_sequence,
            "rounds": [dict(r) for r in self.rounds],
            "last_round": dict(self.rounds[-1]) if self.rounds else None,
        }

    def rounds_played(self) -> int:
        return len(self.rounds)

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self.totals),
            "winners": self.winners(),
            "rounds": [dict(r) for r in self.rounds],
        }

    def zones(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for p in range(self.players):
            out[f"hand:{p}"] = list(self.hands[p])
            out[f"sequences:{p}"] = [c for seq in self.sequences[p] for c in seq]
        out["draw_pile"] = list(self.draw_pile)
        out["discard_pile"] = list(self.discards)
        return out

    def deck(self) -> list[str]:
        return list(DECK)

    def determinize(self, player: int, rng: random.Random) -> MhingState:
        world = self._copy(LazyRandom(rng.getrandbits(64)))
        others = [p for p in range(self.players) if p != player]
        hidden = sort_cards(
            [c for p in others for c in self.hands[p] if c not in self.known[p]] + self.draw_pile
        )
        # Since the last reshuffle the draw pile holds only cards from it; every other unseen
        # card must be in an opponent's hand. Before any reshuffle anything can be anywhere.
        if self.reshuffled:
            pool = set(self.reshuffled)
            pile_candidates = [c for c in hidden if c in pool]
        else:
            pile_candidates = list(hidden)
        shuffle(pile_candidates, rng)
        world.draw_pile = pile_candidates[: len(self.draw_pile)]
        in_pile = set(world.draw_pile)
        rest = [c for c in hidden if c not in in_pile]
        shuffle(rest, rng)
        for p in others:
            free = len(self.hands[p]) - len(self.known[p])
            world.hands[p] = sort_cards(list(self.known[p]) + rest[:free])
            rest = rest[free:]
        if world.turn != player:
            world.drawn = None
        world._recount()  # a position set up by hand is searched right too
        return world

    def _recount(self) -> None:
        """Work ``discard_bits`` and ``laid_bits`` out again from the cards: every move keeps
        them, but a position set up by editing the piles by hand needs this."""
        bit = CARD_BIT.__getitem__
        self._seat_memo = [None] * self.players
        self.discard_bits = sum(map(bit, self.discards))
        self.laid_bits = sum(bit(c) for seqs in self.sequences for seq in seqs for c in seq)


def _ranks_of(sequences: list[list[list[str]]]) -> list[list[list[int]]]:
    """Per seat, per laid sequence, the three ranks it stands for (a wild Ace's included)."""
    return [[list(sequence_ranks(seq)) for seq in seqs] for seqs in sequences]

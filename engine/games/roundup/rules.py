"""Roundup's tables and pure rules: the deck and card values, bid points, and functions over
plain data that only read a position: why an action is refused, in words a player
understands (``why_illegal``), and a deal of the hidden cards consistent with what the table
knows (``determinize``). Nothing here knows the State class (``state.py`` imports this).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engine.cards import (
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    card_name,
    is_card,
    rank_of,
    standard_deck,
    suit_of,
)
from engine.core import seat_token

DECK: tuple[str, ...] = tuple(standard_deck())
ORDER: dict[str, int] = {c: i for i, c in enumerate(DECK)}
NUMBER_RANKS: tuple[str, ...] = RANKS[:10]
VALUE: dict[str, int] = {c: RANKS.index(rank_of(c)) + 1 for c in DECK if rank_of(c) in NUMBER_RANKS}
NUMBER_CARDS: frozenset[str] = frozenset(VALUE)
NEXT_CARD: dict[tuple[str, int], str] = {(suit_of(c), VALUE[c] - 1): c for c in VALUE}
BY_SUIT: dict[str, frozenset[str]] = {
    s: frozenset(c for c in DECK if suit_of(c) == s) for s in SUITS
}
BY_RANK: dict[str, frozenset[str]] = {
    r: frozenset(c for c in DECK if rank_of(c) == r) for r in RANKS
}
FACE_KINDS = {"J": "jack", "Q": "queen", "K": "king"}


def bid_points(correct_guessers: int) -> int:
    """Points each correct bidder gets when ``correct_guessers`` players named the last suit.

    >>> [bid_points(n) for n in range(5)]
    [0, 3, 2, 1, 0]
    """
    return {1: 3, 2: 2, 3: 1}.get(correct_guessers, 0)


def playable(card: str, stacks: Mapping[str, int]) -> bool:
    """Does ``card`` go on its suit's stack now (the stack's next number card)?

    >>> stacks = {"S": 0, "H": 4, "D": 9, "C": 0}
    >>> [playable(card, stacks) for card in ("AS", "5H", "6H", "JD")]
    [True, True, False, False]
    """
    return VALUE.get(card, -1) == stacks[card[-1]] + 1


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


def seat_name(p: int) -> str:
    # A seat token: the bridge writes the seat's name in its place (engine.core.seat_token).
    return seat_token(p)


KNOWN_KINDS = {
    "bid",
    "tiebreak",
    "play",
    "end",
    "jack",
    "queen",
    "king",
    "reveal",
    "discard",
    "pass",
}
FACE_NAMES = {"jack": "J", "queen": "Q", "king": "K"}


class Position(Protocol):
    """What :func:`explain` reads of a position: plain data (``RoundupState`` has it all)."""

    @property
    def players(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def attack(self) -> Mapping[str, Any] | None: ...
    @property
    def face_down(self) -> Sequence[Sequence[str]]: ...
    @property
    def face_up(self) -> Sequence[Sequence[str]]: ...
    @property
    def stacks(self) -> Mapping[str, int]: ...
    @property
    def played_this_turn(self) -> Sequence[str]: ...


def explain(state: Position, action_id: str) -> str | None:
    """The reason ``action_id`` is not legal now, or None for ids of no known kind."""
    kind, _, rest = action_id.partition(":")
    if kind not in KNOWN_KINDS:
        return None
    parts = rest.split(":") if rest else []
    card = parts[0] if parts else ""
    phase = state.phase
    p = state.current_player
    if p is None:
        return "the match is over"
    if phase == "bid" and kind != "bid":
        return "everyone bids first: choose a number card from your hand to bid with"
    if phase == "tiebreak" and kind != "tiebreak":
        return (
            "the tie for first player comes first: turn up a number card from your face-down hand"
        )
    if phase == "answer" and kind not in ("reveal", "discard"):
        assert state.attack is not None
        return f"{seat_name(p)} must first answer the {state.attack['kind'].capitalize()}"
    if kind == "bid" and phase != "bid":
        return "the bids for this round are already in"
    if kind == "tiebreak" and phase != "tiebreak":
        return "there is no tie for first player to break now"
    if kind in ("reveal", "discard") and phase != "answer":
        return "there is no Queen or King to answer now"

    needs_card = kind not in ("end", "pass") or bool(parts)
    if needs_card and (not is_card(card) or "#" in card):
        return f"{card!r} is not a card"
    down = state.face_down[p]
    up = state.face_up[p]

    if kind in ("bid", "tiebreak"):
        if card not in NUMBER_CARDS:
            return "only a number card (Ace to 10) can be used here"
        if card not in down:
            return f"{card_name(card)} is not in your face-down hand"
        return None

    if kind in ("reveal", "discard"):
        attack = state.attack
        assert attack is not None
        named = attack["named"]
        if card not in down:
            return f"{card_name(card)} is not in your face-down hand"
        if attack["kind"] == "queen":
            if card[-1] != named:
                suit = SUIT_NAMES[named]
                return f"the Queen named {suit}: answer with a {suit} card"
        elif card[:-1] != named:
            return f"the King named {named}: answer with a card of that number"
        if kind == "reveal" and card not in NUMBER_CARDS:
            return "a face card is discarded, not turned up"
        if kind == "discard" and card in NUMBER_CARDS:
            return "a number card is turned up, not discarded"
        return None

    playable_up = [c for c in up if playable(c, state.stacks)]
    if kind == "end":
        if not state.played_this_turn:
            return "you can only end your turn after playing a face-up card"
        return None
    if kind == "play":
        if card not in up and card not in down:
            return f"{card_name(card)} is not in your hand"
        if card not in NUMBER_CARDS:
            return "face cards never go on the stacks"
        suit = card[-1]
        top = state.stacks[suit]
        if top == 10:
            return f"the {SUIT_SYMBOLS[suit]} stack is already closed"
        if not playable(card, state.stacks):
            return f"the {SUIT_SYMBOLS[suit]} stack needs {card_name(NEXT_CARD[(suit, top)])} next"
        if card in down:
            if state.played_this_turn:
                return (
                    "you cannot play from your face-down hand after playing face-up cards this turn"
                )
            if playable_up:
                return "you must play a face-up card when you can"
        return None

    if state.played_this_turn:
        return "you have played face-up cards this turn: play another one or end your turn"
    if playable_up:
        return "you must play a face-up card when you can"

    if kind == "pass":
        numbers = [c for c in down if c in NUMBER_CARDS]
        if not parts:
            if numbers:
                return (
                    "passing costs a card: choose a number card from your face-down hand to turn up"
                )
            return "passing costs a card: choose a face card from your face-down hand to discard"
        if card not in down:
            return "the pass penalty is paid from your face-down hand"
        if card not in NUMBER_CARDS and numbers:
            return "while you hold a number card face-down, passing turns one up"
        return None

    # jack / queen / king
    letter = FACE_NAMES[kind]
    if card[:-1] != letter:
        return f"{card_name(card)} is not a {kind.capitalize()}"
    if card not in down:
        return f"{card_name(card)} is not in your hand"
    try:
        target = int(parts[1]) if len(parts) > 1 else -1
    except ValueError:
        target = -1
    if not 0 <= target < state.players or target == p:
        return "choose another player as the target"
    expected = 2 if kind == "jack" else 3
    if len(parts) != expected:
        what = "suit" if kind == "queen" else "number"
        return (
            "a Jack names only its target"
            if kind == "jack"
            else f"a {kind.capitalize()} names its target and a {what}"
        )
    if kind == "queen" and parts[2] not in SUIT_NAMES:
        return "a Queen names a suit: S, H, D or C"
    if kind == "king" and parts[2] not in NUMBER_RANKS:
        return f"a King names a number: {', '.join(RANKS[:10])}"
    return None


def named_cards(kind: str, named: str) -> frozenset[str]:
    """The cards a Queen (a suit) or a King (a rank) names: the ones that answer it."""
    return BY_SUIT[named] if kind == "queen" else BY_RANK[named]


def consistent_deal(
    slots: list[tuple[int, frozenset[str] | None]],
    cards: list[str],
    excluded: list[set[str]],
) -> list[str]:
    """Give each slot ``(seat, the cards it must come from, or None)`` a card it may hold (a
    perfect matching; ``cards`` is pre-shuffled).

    Public knowledge (a Queen that found nothing, a pass paid with a face card, a secret
    bid being a number card) rules some cards out for some seats, so a plain deal could
    contradict what the viewer knows; augmenting paths always find a consistent deal.
    """

    def ok(s: int, ci: int) -> bool:
        seat, pool = slots[s]
        c = cards[ci]
        return c not in excluded[seat] and (pool is None or c in pool)

    owner = [-1] * len(cards)

    def augment(s: int, seen: list[bool]) -> bool:
        for ci in range(len(cards)):
            if not seen[ci] and ok(s, ci):
                seen[ci] = True
                if owner[ci] == -1 or augment(owner[ci], seen):
                    owner[ci] = s
                    return True
        return False

    # Each slot takes the first free card it may hold (ok, inlined: bots determinize thousands
    # of times a decision), else augments. A card once taken stays taken, so the scan starts
    # past the leading taken ones.
    start = 0
    for s, (seat, pool) in enumerate(slots):
        while start < len(cards) and owner[start] != -1:
            start += 1
        ruled_out = excluded[seat]
        for ci in range(start, len(cards)):
            if owner[ci] == -1:
                c = cards[ci]
                if c not in ruled_out and (pool is None or c in pool):
                    owner[ci] = s
                    break
        else:
            if not augment(s, [False] * len(cards)):
                raise AssertionError("hidden cards admit no deal consistent with the public record")
    out = [""] * len(slots)
    for ci, s in enumerate(owner):
        out[s] = cards[ci]
    return out

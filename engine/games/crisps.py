"""Crisps: a two-player shedding game of tricks, after the Board Game Arena game.

Forty cards: four of each rank 2..10 and four Queens (``"QS"``, ``"10H"``...), ranked
2 < 3 < ... < 10 < Q; suits only tell copies apart. Each round both players get twelve
cards, four are set aside unseen, one is turned face up and the rest is the draw pile.
Whoever empties their hand first wins the round and a point; three points win the match.

Combinations (:func:`classify`): *ordinary* -- single, pair, run of singles (three or more
ranks in a row), run of pairs (two or more pairs in a row); *special* -- three or four of
a kind. Queens never take part in a run. :func:`can_follow` is the following rule the engine
itself uses and :func:`follow_problem` explains a refusal in words.

Action ids: ``"play:5D,5S"`` (cards sorted by rank, then suit), ``"pass"``,
``"take:faceup"`` and ``"take:blind"`` (the trick winner's draw choice).

Automatic turn skip (option ``auto_skip``) happens inside the ``_apply`` of the play that
cannot be beaten: the pass is written into the trick with ``"auto": true`` so the page can
say "skipped automatically", and replaying the record repeats it exactly.

Keys of :meth:`CrispsState.view` (all JSON values):

``game``, ``player`` (the viewer or None), ``phase`` (``"play"``, ``"draw"`` -- the trick
winner picks a card --, ``"over"``), ``current_player``, ``round`` (1-based), ``scores``,
``target`` (3), ``starter`` (who started this round), ``leader`` (who led this trick),
``special_rank`` (``"Q"``, or ``"J"`` with special rank runs), ``hand`` (the viewer's sorted
cards; None for a spectator), ``hand_sizes``, ``known_cards`` (per seat, face-up cards it took
and still holds, which everybody saw), ``face_up`` (card or None), ``draw_pile`` (count),
``removed`` (count), ``trick`` (this trick's entries in order: ``{"player", "cards",
"combination"}`` for a play, ``{"player", "pass": true, "auto"}`` for a pass), ``to_beat``
(the play to beat: ``{"player", "cards", "combination", "kind", "length", "rank"}`` or None
when leading), ``trick_winner`` (in the draw phase), ``last_trick`` (the previous trick's
entries), ``last_draw`` (``{"chooser", "chooser_took", "face_up_card", "passer_drew"}``),
``played`` (cards played this round, in order), ``rounds`` (one summary per finished round:
``{"round", "starter", "winner", "scores", "cards_left"}``), ``last_round`` (the latest of
those or None), ``winners`` and ``options``.

>>> import engine
>>> state = engine.new_game("crisps", players=2, seed=3)
>>> view = state.view(state.current_player)
>>> len(view["hand"]), view["draw_pile"], view["phase"]
(12, 11, 'play')
>>> can_follow(["5D", "5S"], ["7C", "7H"]), can_follow(["5D"], ["7C", "7H"])
(True, False)
>>> follow_problem(["5D"], ["7C", "7H"])
'a pair can only follow a pair (the play to beat is a single)'
"""
from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections import Counter
from itertools import chain, combinations, groupby, product
from typing import Any, Callable, Iterable, NamedTuple, Sequence

from engine.cards import card_name, shuffled
from engine.core import Action, GameSpec, Option, State
from engine.games.crisps_bot import greedy
from engine.games.fast_action import fresh_action

NUMBER_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10")
SUIT_ORDER: tuple[str, ...] = ("C", "D", "H", "S")  # alphabetical, as in "play:5D,5S"
SPECIAL_VALUE = 11  # the Queen (or the Jack with special rank runs) ranks above 10
TARGET_SCORE = 3
HAND_SIZE = 12
REMOVED_COUNT = 4
ORDINARY = ("single", "pair", "run", "pair_run")
SPECIALS = ("three", "four")
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                 "nine", "ten", "eleven", "twelve")

# Sort key of every card id either mode can use: rank value first, then suit.
_CARD_KEY: dict[str, tuple[int, int]] = {
    f"{rank}{suit}": (value, SUIT_ORDER.index(suit))
    for value, rank in [(int(r), r) for r in NUMBER_RANKS] + [(SPECIAL_VALUE, "Q"),
                                                              (SPECIAL_VALUE, "J")]
    for suit in SUIT_ORDER}


_NAMES: dict[str, str] = {c: card_name(c) for c in _CARD_KEY}


def special_rank(options: dict[str, Any] | None = None) -> str:
    """``"J"`` when Queens are played as Jacks (special rank runs), else ``"Q"``."""
    return "J" if options and options.get("special_rank_runs") else "Q"


def deck_for(options: dict[str, Any] | None = None) -> list[str]:
    """The forty cards of a round, sorted."""
    return [f"{r}{s}" for r in NUMBER_RANKS + (special_rank(options),) for s in SUIT_ORDER]


def card_key(card_id: str) -> tuple[int, int]:
    return _CARD_KEY[card_id]


def rank_value(card_id: str) -> int:
    return _CARD_KEY[card_id][0]


def sort_cards(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=_CARD_KEY.__getitem__)


class Combination(NamedTuple):
    """What a set of cards is: ``kind`` (single, pair, run, pair_run, three, four),
    ``length`` (number of cards), ``rank`` (the top rank's value, Q/J = 11) and whether it
    holds a card of the special rank (the Queen rule)."""

    kind: str
    length: int
    rank: int
    has_special: bool

    @property
    def special(self) -> bool:
        return self.kind in SPECIALS


def _rank_word(value: int, special: str) -> str:
    return {SPECIAL_VALUE: {"Q": "Queen", "J": "Jack"}[special]}.get(value, str(value))


def kind_name(combo: Combination) -> str:
    """``"pair"``, ``"run of three"``, ``"run of two pairs"``, ``"four of a kind"``..."""
    if combo.kind == "run":
        return f"run of {_NUMBER_WORDS[combo.length]}"
    if combo.kind == "pair_run":
        return f"run of {_NUMBER_WORDS[combo.length // 2]} pairs"
    return {"three": "three of a kind", "four": "four of a kind"}.get(combo.kind, combo.kind)


def describe(combo: Combination, special: str = "Q") -> str:
    """Short words for a combination: ``"pair of 7s"``, ``"run of three to 9"``."""
    words = _DESCRIPTIONS.get((combo, special))  # memoised: every play is described
    if words is None:
        words = _DESCRIPTIONS[combo, special] = _describe(combo, special)
    return words


_DESCRIPTIONS: dict[tuple[Combination, str], str] = {}


def _describe(combo: Combination, special: str) -> str:
    top = _rank_word(combo.rank, special)
    if combo.kind == "single":
        return f"single {top}"
    if combo.kind in ("pair", "three", "four"):
        count = {"pair": "pair of", "three": "three", "four": "four"}[combo.kind]
        return f"{count} {top}s"
    return f"{kind_name(combo)} up to {top}"


_SHAPES: dict[tuple[tuple[str, ...], str], Combination] = {}
"""Memo of :func:`_shape` for real combinations (a finite set): the play to beat is
classified on every listing of the legal actions and every view."""


def _shape(cards: Sequence[str], options: dict[str, Any] | None) -> tuple[Combination | None, str]:
    """The combination the cards form, or None and the reason they form none."""
    special = special_rank(options)
    try:
        key = (tuple(cards), special)
        combo = _SHAPES.get(key)
    except TypeError:  # unhashable junk: not a combination, the slow path says why
        key, combo = None, None
    if combo is not None:
        return combo, ""
    combo, reason = _shape_of(cards, special)
    if combo is not None and key is not None:
        _SHAPES[key] = combo
    return combo, reason


def _shape_of(cards: Sequence[str], special: str) -> tuple[Combination | None, str]:
    if not cards:
        return None, "choose at least one card"
    for c in cards:
        if c not in _CARD_KEY or (c[:-1] in ("Q", "J") and c[:-1] != special):
            return None, f"{c!r} is not a card of this game"
    if len(set(cards)) != len(cards):
        return None, "each card can only be used once"
    counts = Counter(_CARD_KEY[c][0] for c in cards)
    ranks = sorted(counts)
    has_special = SPECIAL_VALUE in counts
    n = len(cards)
    if len(ranks) == 1:
        kind = {1: "single", 2: "pair", 3: "three", 4: "four"}[n]
        return Combination(kind, n, ranks[0], has_special), ""
    widths = set(counts.values())
    consecutive = ranks[-1] - ranks[0] == len(ranks) - 1
    if not consecutive:
        return None, "the ranks of a run must follow on without a gap"
    if widths == {1}:
        if len(ranks) < 3:
            return None, "two different ranks are not a combination (a run needs three or more)"
        kind = "run"
    elif widths == {2}:
        kind = "pair_run"
    else:
        return None, ("a run has either one card of each rank (a run of singles) or two of "
                      "each (a run of pairs)")
    if has_special and special == "Q":
        return None, "a Queen cannot be part of a run"
    return Combination(kind, n, ranks[-1], has_special), ""


def classify(cards: Sequence[str], options: dict[str, Any] | None = None) -> Combination | None:
    """The :class:`Combination` the cards form, or None if they form none.

    >>> classify(["5D", "5S"])
    Combination(kind='pair', length=2, rank=5, has_special=False)
    >>> classify(["9C", "10D", "QH"]) is None, classify(["9C", "10D", "JH"], {"special_rank_runs": True}).kind
    (True, 'run')
    """
    return _shape(cards, options)[0]


def combination_problem(cards: Sequence[str], options: dict[str, Any] | None = None) -> str | None:
    """Why the cards form no combination, or None if they form one."""
    combo, reason = _shape(cards, options)
    return None if combo else reason


def follow_problem(previous: Sequence[str] | None, play: Sequence[str],
                   options: dict[str, Any] | None = None) -> str | None:
    """Why ``play`` may not follow ``previous`` (None = leading), in words; None if it may."""
    combo, reason = _shape(play, options)
    if combo is None:
        return reason
    if previous is None:
        return None
    prev, prev_reason = _shape(previous, options)
    if prev is None:
        return f"the play to beat is not a combination ({prev_reason})"
    special = special_rank(options)
    if prev.special:
        if not combo.special:
            return "nothing ordinary can follow a special"
        if combo.length > prev.length:
            return None
        if combo.length < prev.length:
            return "three of a kind cannot follow four of a kind"
        if combo.rank > prev.rank:
            return None
        return (f"{describe(combo, special)} does not beat {describe(prev, special)}: a special "
                "of the same size must be of a strictly higher rank")
    if combo.special:
        if prev.has_special:
            return None
        word = {"Q": "Queen", "J": "Jack"}[special]
        return f"a special can only follow a play that contains a {word}"
    if combo.kind != prev.kind or combo.length != prev.length:
        name = kind_name(combo)
        return f"a {name} can only follow a {name} (the play to beat is a {kind_name(prev)})"
    if combo.rank < prev.rank:
        return (f"{describe(combo, special)} is lower than {describe(prev, special)}: "
                "follow with an equal or higher rank")
    return None


def can_follow(previous: Sequence[str] | None, play: Sequence[str],
               options: dict[str, Any] | None = None) -> bool:
    """True if ``play`` may be played on ``previous`` (None: leading, any combination).

    >>> can_follow(["7H"], ["7S"]), can_follow(["QH"], ["3C", "3D", "3H"])
    (True, True)
    >>> can_follow(["7H", "8H", "9H"], ["3C", "3D", "3H"])
    False
    """
    return follow_problem(previous, play, options) is None


# ----- generating the plays a hand can make ---------------------------------------------

_VALUE: dict[str, int] = {c: key[0] for c, key in _CARD_KEY.items()}


class _Memo(dict):
    """A dict that makes a missing value with ``make(key)`` the first time it is asked for
    and keeps it, up to ``limit`` values (past that, values are made anew every time).

    Listing a play then costs one lookup, and ``map(memo.__getitem__, keys)`` runs in C."""

    def __init__(self, make: Callable[[Any], Any], limit: int = 1 << 30) -> None:
        super().__init__()
        self.make = make
        self.limit = limit

    def __missing__(self, key: Any) -> Any:
        value = self.make(key)
        if len(self) < self.limit:
            self[key] = value
        return value


_PLAYS_KEPT = 10_000  # per seat: about 5 MB

# Card pairs of a rank, by the cards of that rank a hand holds (the columns of runs of pairs).
_PAIRS = _Memo(lambda group: tuple(combinations(group, 2)))


class _SeatActions:
    """The Action objects of one seat, made once and shared by every state and listing.

    Sharing is safe only for moves that never show a hidden card: reveals_hidden finds a
    move in the history by identity, so the listing hands out a new object for any move
    that may reveal one (see CrispsState._generate_actions)."""

    def __init__(self, seat: int) -> None:
        # Runs can make hundreds of thousands of plays, most rarely seen twice: keep only
        # the first ones met (the common ones); the rest are new objects every listing.
        self.plays = _Memo(lambda cards: fresh_action(
            "play:" + ",".join(cards), seat, "Play " + " ".join(map(_NAMES.__getitem__, cards)),
            cards), _PLAYS_KEPT)
        self.singles = _Memo(lambda card: self.plays[(card,)])
        # By a run of pairs' pairs (a product of _PAIRS columns), lowest rank first.
        self.pair_runs = _Memo(lambda pairs: self.plays[tuple(chain.from_iterable(pairs))],
                               _PLAYS_KEPT)
        # By the cards of one rank a hand holds: its plays of 1, 2, 3 and 4 cards (by size).
        self.sets = _Memo(lambda group: ((),) + tuple(
            tuple([self.plays[cards] for cards in combinations(group, size)])
            for size in range(1, 5)))
        self.pass_action = Action("pass", seat, "Pass")
        self.take_blind = Action("take:blind", seat, "Take the top blind card")
        self.take_faceup = _Memo(lambda card: Action(
            "take:faceup", seat, f"Take {_NAMES[card]} (face up)"))


_SEATS = (_SeatActions(0), _SeatActions(1))
_TAKES = frozenset({"take:faceup", "take:blind"})


def _fresh(action: Action) -> Action:
    """A new object equal to ``action`` (for a move that may reveal a hidden card)."""
    return fresh_action(action.id, action.player, action.label, action.cards)


def _lead_spans(key: tuple[tuple[bool, ...], int]) -> tuple[tuple[int, int], ...]:
    """(start, stop) rank values of every run of ``least`` ranks or more over the ranks
    marked present, by lowest rank, then length."""
    present, least = key
    spans = []
    for start in range(2, len(present)):
        if present[start]:
            end = start + 1  # past the last rank of the longest run from start
            while end < len(present) and present[end]:
                end += 1
            spans.extend((start, stop) for stop in range(start + least, end + 1))
    return tuple(spans)


_LEAD_SPANS = _Memo(_lead_spans)


def _runs(out: list[Action], lookup: Callable[[Any], Action], columns: list[Sequence[Any]],
          least: int, ranks: int | None, min_top: int, top_allowed: int) -> None:
    """Add the runs over ``columns`` (per rank value, the choices a run may take there):
    leading (``ranks`` None), every run of ``least`` ranks or more; else those of exactly
    ``ranks`` ranks topping at ``min_top`` or more. Listed by lowest rank, then length,
    then the cards' order within each rank."""
    if ranks is None:
        spans: Iterable[tuple[int, int]] = _LEAD_SPANS[
            tuple(map(bool, columns[:top_allowed + 1])), least]
    else:
        spans = [(start, start + ranks)
                 for start in range(max(2, min_top - ranks + 1), top_allowed - ranks + 2)
                 if all(columns[start:start + ranks])]
    for start, stop in spans:
        out += map(lookup, product(*columns[start:stop]))


_Held = list[tuple[int, tuple[tuple[Action, ...], ...]]]
"""(rank value, the seat's plays of that rank by size) of the ranks a hand holds twice or more."""


def _groups(seat: _SeatActions, hand: list[str]) -> tuple[list[tuple[str, ...]], _Held]:
    """The cards of each rank value in ``hand`` (sorted, so each rank's cards are together),
    and the ranks it holds two or more times, lowest first."""
    groups: list[tuple[str, ...]] = [()] * (SPECIAL_VALUE + 2)
    held: _Held = []
    for value, cards in groupby(hand, _VALUE.__getitem__):
        group = groups[value] = tuple(cards)
        if len(group) > 1:
            held.append((value, seat.sets[group]))
    return groups, held


def _sets(out: list[Action], held: _Held, size: int, above: int) -> None:
    """Add the plays of ``size`` cards of one rank above ``above``, from the lowest rank."""
    for value, sets in held:
        if value > above:
            out += sets[size]


def _play_actions(seat: _SeatActions, hand: list[str], previous: Combination | None,
                  runs_with_special: bool) -> list[Action]:
    """The seat's shared Actions of every play from ``hand`` (sorted) that may follow
    ``previous`` (None: every combination): singles, pairs, runs, runs of pairs, each from
    the lowest rank up, then three and four of a kind."""
    top_allowed = SPECIAL_VALUE if runs_with_special else 10
    if previous is None:
        groups, held = _groups(seat, hand)
        out = list(map(seat.singles.__getitem__, hand))
        _sets(out, held, 2, 0)
        _runs(out, seat.plays.__getitem__, groups, 3, None, 0, top_allowed)
        if len(held) > 1:
            _runs(out, seat.pair_runs.__getitem__, list(map(_PAIRS.__getitem__, groups)), 2,
                  None, 0, top_allowed)
        _sets(out, held, 3, 0)
        _sets(out, held, 4, 0)
        return out
    out = []
    if previous.special:  # only a bigger special: more cards, or as many of a higher rank
        held = _groups(seat, hand)[1]
        if previous.length == 3:
            _sets(out, held, 3, previous.rank)
            _sets(out, held, 4, 0)
        else:
            _sets(out, held, 4, previous.rank)
        return out
    kind, lo = previous.kind, previous.rank
    if kind == "single":
        # The hand is sorted, so its singles of rank lo or more are a tail of it.
        out += map(seat.singles.__getitem__, hand[bisect_left(hand, lo, key=_VALUE.__getitem__):])
        if not previous.has_special:
            return out  # no need to group the hand by rank
    groups, held = _groups(seat, hand)
    if kind == "pair":
        _sets(out, held, 2, lo - 1)
    elif kind == "run":
        _runs(out, seat.plays.__getitem__, groups, 3, previous.length, lo, top_allowed)
    elif kind == "pair_run":
        _runs(out, seat.pair_runs.__getitem__, list(map(_PAIRS.__getitem__, groups)), 2,
              previous.length // 2, lo, top_allowed)
    if previous.has_special:  # the Queen rule: any three or four of a kind may follow
        _sets(out, held, 3, 0)
        _sets(out, held, 4, 0)
    return out


def public_could_beat(previous: Combination, pool: Counter[int], hand_size: int,
                      runs_with_special: bool = False) -> bool:
    """Could any play beat ``previous``, given how many cards of each rank might still be in
    a hand (``pool``: unseen copies per rank value) and the follower's hand size?"""
    def has(size: int, above: int) -> bool:
        return hand_size >= size and any(n >= size for v, n in pool.items() if v > above)

    if previous.special:
        if previous.length == 3:
            return has(3, previous.rank) or has(4, 0)
        return has(4, previous.rank)
    if previous.has_special and has(3, 0):
        return True
    if hand_size < previous.length:
        return False
    if previous.kind in ("single", "pair"):
        return has(previous.length, previous.rank - 1)
    width = 1 if previous.kind == "run" else 2
    span = previous.length // width
    top_allowed = SPECIAL_VALUE if runs_with_special else 10
    for top in range(previous.rank, top_allowed + 1):
        if all(pool.get(v, 0) >= width for v in range(top - span + 1, top + 1)):
            return True
    return False


# ----- the match -----------------------------------------------------------------------

class CrispsState(State):
    """A whole Crisps match. Hands are kept sorted; the draw pile's top is its last card."""

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        self._init_common("crisps", players, seed, options)
        self.special = special_rank(options)
        self.runs_with_special = bool(options.get("special_rank_runs"))
        self.no_faceup = bool(options.get("no_faceup_draw"))
        self.auto_skip = bool(options.get("auto_skip"))
        self.scores = [0, 0]
        self.round_no = 0
        self.starters: list[int] = []
        self.rounds: list[dict[str, Any]] = []
        self.winners: list[int] = []
        self.hands: list[list[str]] = [[], []]
        self.known: list[list[str]] = [[], []]
        self.removed: list[str] = []
        self.draw_pile: list[str] = []
        self.face_up: str | None = None
        self.played: list[str] = []
        self.phase = "play"
        self.turn: int | None = None
        self.leader = 0
        self.trick: list[dict[str, Any]] = []
        self.to_beat: tuple[str, ...] | None = None
        self.last_trick: list[dict[str, Any]] | None = None
        self.last_draw: dict[str, Any] | None = None
        # History indices of actions after which a hidden card became known (see reveals_hidden).
        self.reveal_marks: set[int] = set()
        self._legal_cache: tuple[tuple[Any, ...], list[Action]] | None = None
        self._deal(self.rng.randrange(2))

    # ----- dealing and round bookkeeping --------------------------------------------------
    def _deal(self, starter: int) -> None:
        cards = shuffled(deck_for(self.options), self.rng)
        self.hands = [sort_cards(cards[:HAND_SIZE]), sort_cards(cards[HAND_SIZE:2 * HAND_SIZE])]
        rest = cards[2 * HAND_SIZE:]
        self.removed = rest[:REMOVED_COUNT]
        rest = rest[REMOVED_COUNT:]
        self.face_up = None if self.no_faceup else rest.pop(0)
        self.draw_pile = rest
        self.known = [[], []]
        self.played = []
        self.round_no += 1
        self.starters.append(starter)
        self.trick, self.last_trick, self.last_draw = [], None, None
        self._start_trick(starter)

    def next_starter(self) -> int:
        """Lower score starts; on a tie, whoever started a round least recently."""
        if self.scores[0] != self.scores[1]:
            return 0 if self.scores[0] < self.scores[1] else 1
        last = [max((i for i, s in enumerate(self.starters) if s == p), default=-1)
                for p in (0, 1)]
        return 0 if last[0] < last[1] else 1

    def _start_trick(self, leader: int) -> None:
        if self.trick:
            self.last_trick = self.trick
        self.trick = []
        self.to_beat = None
        self.phase = "play"
        self.leader = leader
        self.turn = leader

    def _end_round(self, winner: int) -> bool:
        """Score the round; True when a new one was dealt (the match is not over)."""
        self.scores[winner] += 1
        summary = {"round": self.round_no, "starter": self.starters[-1], "winner": winner,
                   "scores": list(self.scores), "cards_left": [len(h) for h in self.hands]}
        self.rounds.append(summary)
        if self.scores[winner] >= TARGET_SCORE:
            self.phase = "over"
            self.is_over = True
            self.turn = None
            self.winners = [winner]
            return False
        self._deal(self.next_starter())
        return True

    # ----- the hooks ------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self.turn

    is_over = False
    """A plain attribute, set with the phase ``"over"``, rather than the base property: it is
    read several times a step."""

    def _to_beat_combo(self) -> Combination | None:
        to_beat = self.to_beat
        if to_beat is None:
            return None
        # Classified (and memoised) when it was played: look the memo up directly.
        return _SHAPES.get((to_beat, self.special)) or classify(to_beat, self.options)

    def _legal_actions(self) -> list[Action]:
        p = self.turn
        assert p is not None
        # apply() and the caller both ask for the same list; bots ask many times per state.
        key = (self.phase, p, tuple(self.hands[p]), self.to_beat, self.face_up,
               not self.draw_pile)
        cached = self._legal_cache
        if cached is not None and cached[0] == key:
            return list(cached[1])
        actions = self._generate_actions(p)
        self._legal_cache = (key, actions)
        return list(actions)

    def _generate_actions(self, p: int) -> list[Action]:
        seat = _SEATS[p]
        if self.phase == "draw":
            # Shared objects are safe here: every take counts as revealing (see _apply), so
            # whichever time one was taken, reveals_hidden gives the same answer.
            out = []
            if self.face_up is not None:
                out.append(seat.take_faceup[self.face_up])
            if self.draw_pile:
                out.append(seat.take_blind)
            return out
        hand = self.hands[p]
        previous = self._to_beat_combo()
        out = _play_actions(seat, hand, previous, self.runs_with_special)
        # reveals_hidden tells moves apart by identity, so every move that may show a hidden
        # card gets a new object: any play when an automatic pass may make both draw...
        if self.auto_skip and self.no_faceup:
            out = [_fresh(a) for a in out]
        elif out:
            # ...else a play of the whole hand (a new deal), possible only when the hand's
            # ranks span one rank, or as many ranks as it holds cards or pairs of cards.
            n = len(hand)
            span = _VALUE[hand[-1]] - _VALUE[hand[0]] + 1
            if span == 1 or span == n or 2 * span == n:
                for i, action in enumerate(out):
                    if len(action.cards) == n:
                        out[i] = _fresh(action)
        if previous is not None:
            # A pass draws at once without a face-up card: a new object for it too.
            out.insert(0, _fresh(seat.pass_action) if self.no_faceup else seat.pass_action)
        return out

    def _apply(self, action: Action) -> bool:
        # Never offer a listing's new objects again once one was taken (see reveals_hidden).
        self._legal_cache = None
        self._applying = action
        p = action.player
        cards = action.cards
        if cards:
            revealed = self._play(p, cards)
        elif action.id == "pass":
            revealed = self._pass(p, auto=False)
        else:
            # Counted as revealing whatever it shows (as every take always was): a new
            # face-up card, a blind card, or only the face-up card when the pile is empty.
            self._take(p, action.id == "take:faceup")
            self.reveal_marks.add(len(self.history))
            return True
        if revealed:
            # A new deal, or blind draws after a pass: State.apply marks it, so undo stops.
            self.reveal_marks.add(len(self.history))
        return revealed

    def _play(self, p: int, cards: tuple[str, ...]) -> bool:
        """True when it showed a hidden card: a new deal, or blind draws after an automatic
        pass."""
        hand = self.hands[p]
        known = self.known[p]
        for c in cards:
            hand.remove(c)
            if known and c in known:
                known.remove(c)
        self.played.extend(cards)
        # classify memoises every combination it has seen: look its memo up directly.
        combo = _SHAPES.get((cards, self.special)) or classify(cards, self.options)
        assert combo is not None
        self.trick.append({"player": p, "cards": list(cards),
                           "combination": describe(combo, self.special)})
        self.to_beat = cards
        if not hand:
            return self._end_round(p)
        follower = 1 - p
        self.turn = follower
        if self.auto_skip and not public_could_beat(combo, self._public_pool(),
                                                    len(self.hands[follower]),
                                                    self.runs_with_special):
            return self._pass(follower, auto=True)
        return False

    def _public_pool(self) -> Counter[int]:
        """Copies per rank that might still be in a hand: all but played and face-up cards."""
        pool = Counter({value: 4 for value in range(2, SPECIAL_VALUE + 1)})
        for c in self.played:
            pool[_CARD_KEY[c][0]] -= 1
        if self.face_up is not None:
            pool[_CARD_KEY[self.face_up][0]] -= 1
        return pool

    def _pass(self, p: int, auto: bool) -> bool:
        """True when it showed a hidden card: both players drawing blind at once."""
        self.trick.append({"player": p, "pass": True, "auto": auto})
        winner = 1 - p
        if self.no_faceup:
            drew = []
            for seat in (winner, p):
                if self.draw_pile:
                    self._give(seat, self.draw_pile.pop(), known=False)
                    drew.append(seat)
            self.last_draw = {"chooser": winner, "chooser_took": "blind" if drew else "nothing",
                              "face_up_card": None, "passer_drew": p in drew}
            self._start_trick(winner)
            return bool(drew)
        if self.face_up is None and not self.draw_pile:
            self.last_draw = {"chooser": winner, "chooser_took": "nothing", "face_up_card": None,
                              "passer_drew": False}
            self._start_trick(winner)
        else:
            self.phase = "draw"
            self.turn = winner
        return False

    def _give(self, seat: int, card: str, known: bool) -> None:
        insort(self.hands[seat], card, key=_CARD_KEY.__getitem__)  # hands stay sorted
        if known:
            self.known[seat].append(card)

    def _take(self, chooser: int, face_up: bool) -> None:
        passer = 1 - chooser
        shown = self.face_up
        self.face_up = None
        if face_up:
            assert shown is not None
            self._give(chooser, shown, known=True)
            passer_drew = bool(self.draw_pile)
            if passer_drew:
                self._give(passer, self.draw_pile.pop(), known=False)
        else:
            self._give(chooser, self.draw_pile.pop(), known=False)
            passer_drew = shown is not None
            if shown is not None:
                self._give(passer, shown, known=True)
        if self.draw_pile:
            self.face_up = self.draw_pile.pop()
        self.last_draw = {"chooser": chooser, "chooser_took": "faceup" if face_up else "blind",
                          "face_up_card": shown, "passer_drew": passer_drew}
        self._start_trick(chooser)

    def why_illegal(self, action_id: str) -> str | None:
        if not isinstance(action_id, str) or self.is_over:
            return None
        p = self.turn
        assert p is not None
        if action_id == "pass":
            if self.phase == "draw":
                return "the trick is over: take the face-up card or the blind card"
            if self.to_beat is None:
                return "you lead this trick, so you must play; passing is only for following"
            return None
        if action_id.startswith("take:"):
            what = action_id[5:]
            if what not in ("faceup", "blind"):
                return None
            if self.no_faceup:
                return ("with 'No face-up draw' there is no face-up card: both players draw "
                        "blind by themselves after a pass")
            if self.phase != "draw":
                return "you can only take a card once a trick has ended, if you made its last play"
            if what == "faceup":
                return "there is no face-up card left to take"
            return "the draw pile is empty: take the face-up card"
        if not action_id.startswith("play:"):
            return None
        if self.phase == "draw":
            return "the trick is over: take the face-up card or the blind card first"
        cards = action_id[5:].split(",")
        problem = combination_problem(cards, self.options)
        if problem and ("not a card" in problem or "only be used once" in problem):
            if self.runs_with_special and any(c[:-1] == "Q" for c in cards if c in _CARD_KEY):
                return "with 'Special rank runs' the Queens are Jacks: use J cards"
            return problem
        for c in cards:
            if c not in self.hands[p]:
                return f"you do not hold {card_name(c)}"
        ordered = ",".join(sort_cards(cards))
        if ordered != action_id[5:]:
            return f"list the cards in order: play:{ordered}"
        return follow_problem(self.to_beat, cards, self.options)

    _applying: Action | None = None
    """The action ``_apply`` last carried out (State.apply asks about it next)."""

    def reveals_hidden(self, action: Action) -> bool:
        history = self.history
        if action is self._applying and not (history and history[-1] is action):
            # State.apply asking right after _apply (which returned True for a take), before
            # the history records the move: skip scanning the whole history.
            return action.id in _TAKES
        # The last time this object was taken. A shared one (see _SeatActions) reveals alike
        # every time (a take always, any other move never), so any time gives the answer.
        for index in range(len(history) - 1, -1, -1):
            if history[index] is action:
                return index in self.reveal_marks
        # Not one of ours (e.g. an equal copy): taking a card always shows a new face-up card.
        return action.kind == "take"

    # ----- what people see ----------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        previous = self._to_beat_combo()
        to_beat = None
        if previous is not None and self.to_beat is not None:
            last_play = next(e for e in reversed(self.trick) if "cards" in e)
            to_beat = {"player": last_play["player"], "cards": list(self.to_beat),
                       "combination": last_play["combination"], "kind": previous.kind,
                       "length": previous.length, "rank": previous.rank}
        return {
            "game": "crisps", "player": player, "phase": self.phase,
            "current_player": self.turn, "round": self.round_no, "scores": list(self.scores),
            "target": TARGET_SCORE, "starter": self.starters[-1], "leader": self.leader,
            "special_rank": self.special,
            "hand": None if player is None else list(self.hands[player]),
            "hand_sizes": [len(h) for h in self.hands],
            "known_cards": [list(k) for k in self.known],
            "face_up": self.face_up, "draw_pile": len(self.draw_pile),
            "removed": len(self.removed),
            "trick": [_copy_entry(e) for e in self.trick], "to_beat": to_beat,
            "trick_winner": self.turn if self.phase == "draw" else None,
            "last_trick": None if self.last_trick is None
            else [_copy_entry(e) for e in self.last_trick],
            "last_draw": None if self.last_draw is None else dict(self.last_draw),
            "played": list(self.played),
            "rounds": [_copy_summary(r) for r in self.rounds],
            "last_round": _copy_summary(self.rounds[-1]) if self.rounds else None,
            "winners": list(self.winners), "options": dict(self.options),
        }

    def result(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winners": list(self.winners),
                "rounds": [_copy_summary(r) for r in self.rounds]}

    def zones(self) -> dict[str, list[str]]:
        return {"hand:0": list(self.hands[0]), "hand:1": list(self.hands[1]),
                "removed": list(self.removed), "draw_pile": list(self.draw_pile),
                "face_up": [] if self.face_up is None else [self.face_up],
                "played": list(self.played)}

    def deck(self) -> list[str]:
        return deck_for(self.options)

    def determinize(self, player: int, rng: random.Random) -> "CrispsState":
        world = self._copy(random.Random(rng.getrandbits(64)))  # as _reseeded_copy does
        other = 1 - player
        hidden = list(self.hands[other])
        for c in self.known[other]:
            hidden.remove(c)  # everybody saw these go into that hand
        unseen = sorted(hidden + self.removed + self.draw_pile)
        rng.shuffle(unseen)
        k, r = len(hidden), len(self.removed)
        world.hands[other] = sort_cards(list(self.known[other]) + unseen[:k])
        world.removed = unseen[k:k + r]
        world.draw_pile = unseen[k + r:]
        return world

    def _copy(self, rng: random.Random) -> "CrispsState":
        """A deep copy drawing its future chance from ``rng`` (determinize passes a fresh
        one, so the state's own RNG need not be copied first)."""
        new = object.__new__(CrispsState)
        new.__dict__.update(self.__dict__)
        new.options = dict(self.options)
        new.rng = rng
        new.history = list(self.history)
        new.scores = list(self.scores)
        new.starters = list(self.starters)
        new.rounds = list(self.rounds)  # summaries are never changed once written
        new.winners = list(self.winners)
        new.hands = [list(h) for h in self.hands]
        new.known = [list(k) for k in self.known]
        new.removed = list(self.removed)
        new.draw_pile = list(self.draw_pile)
        new.played = list(self.played)
        new.trick = list(self.trick)  # entries are never changed once written
        new.reveal_marks = set(self.reveal_marks)
        return new


def _copy_entry(entry: dict[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    if "cards" in out:
        out["cards"] = list(out["cards"])
    return out


def _copy_summary(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in summary.items()}


SPEC = GameSpec(
    id="crisps",
    title="Crisps",
    min_players=2,
    max_players=2,
    default_players=2,
    factory=lambda players, seed, options: CrispsState(players, seed, options),
    options={
        "no_faceup_draw": Option(
            "no_faceup_draw", False, (False, True), "No face-up draw",
            "No card is turned face up: after each trick both players draw blind, the "
            "trick winner first."),
        "special_rank_runs": Option(
            "special_rank_runs", False, (False, True), "Special rank runs",
            "The Queens become Jacks, which rank just above 10 and can be used in runs."),
        "auto_skip": Option(
            "auto_skip", False, (False, True), "Automatic turn skip",
            "A player who cannot possibly beat the play, judged only from the cards not yet "
            "seen by both players and from how many cards they hold, is passed automatically."),
    },
    greedy=greedy,
    summary="Shed your hand in tricks of singles, pairs, runs and sets; first to win three "
            "rounds wins.",
    clarifications=(
        "The player who made the last play of a trick leads the next one.",
        "When the draw pile is empty the trick winner takes the face-up card if there is one "
        "and the passer gets nothing; with neither left, nobody draws.",
        "A round ends the moment a player plays their last card, even in the middle of a "
        "trick; there is no draw after it.",
        "A face-up card taken after a trick stays known to both players until it is played.",
        "With 'No face-up draw' no card is turned face up; after each trick the winner draws "
        "blind first, then the passer, and if only one card is left the winner gets it.",
        "With 'Special rank runs' the Jacks also keep the Queens' other role: three or four of "
        "a kind may follow any ordinary play that contains a Jack.",
        "With 'Automatic turn skip' a player is passed automatically when no combination able "
        "to beat the play can be made from the cards not yet seen publicly (all but the cards "
        "played this round and the face-up card), or when they hold too few cards for one; "
        "their own hand is never consulted, and the page shows the skip.",
    ),
)

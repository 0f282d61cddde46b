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
>>> from engine.games.crisps.rules import can_follow, follow_problem
>>> can_follow(["5D", "5S"], ["7C", "7H"]), can_follow(["5D"], ["7C", "7H"])
(True, False)
>>> follow_problem(["5D"], ["7C", "7H"])
'a single 5 needs a single 5 or higher'
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import chain, groupby, product
from typing import Any

from engine.cards import card_name, shuffle
from engine.core import Action, LazyRandom, State
from engine.games.crisps.rules import (
    CARD_KEY,
    HAND_SIZE,
    NAMES,
    REMOVED_COUNT,
    SHAPES,
    SPECIAL_VALUE,
    TARGET_SCORE,
    Combination,
    classify,
    combination_problem,
    deck_for,
    describe,
    follow_problem,
    public_could_beat,
    sort_cards,
    special_rank,
)

# ----- generating the plays a hand can make ---------------------------------------------

_VALUE: dict[str, int] = {c: key[0] for c, key in CARD_KEY.items()}


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


_Ways = tuple[tuple[tuple[str, ...], ...], ...]
"""By size 0 to 4, the card tuples a play may take from one rank's cards."""


def _choices(key: tuple[tuple[str, ...], tuple[str, ...]]) -> _Ways:
    """The distinct ways to take 0 to 4 cards from ``group`` (one rank's cards in a hand,
    sorted), by size. Suits only tell copies apart, so cards of a rank are interchangeable,
    except that the ``known`` ones (taken face up, seen by the opponent) differ from the
    others: a way is how many of each sort it takes, made of the lowest ids of each."""
    group, known = key
    unseen = [c for c in group if c not in known]
    seen = [c for c in group if c in known]
    ways: list[tuple[tuple[str, ...], ...]] = [((),)]
    for size in range(1, 5):
        ways.append(
            tuple(
                tuple(sort_cards(unseen[: size - shown] + seen[:shown]))
                for shown in range(max(0, size - len(unseen)), min(size, len(seen)) + 1)
            )
        )
    return tuple(ways)


_CHOICES = _Memo(_choices)
_NO_CHOICE = _choices(((), ()))
_ALONE = _Memo(lambda group: _choices((group, ())))
"""The _choices of a rank held once (whether it was seen changes nothing then)."""


class _SeatActions:
    """The Action objects of one seat, made once and shared by every state and listing."""

    def __init__(self, seat: int) -> None:
        # Runs can make hundreds of plays, most rarely seen twice: keep only the first
        # ones met (the common ones); the rest are new objects every listing.
        self.plays = _Memo(
            lambda cards: Action(
                "play:" + ",".join(cards),
                seat,
                "Play " + " ".join(map(NAMES.__getitem__, cards)),
                cards,
            ),
            _PLAYS_KEPT,
        )
        # By a run's choices per rank (a product of _choices columns), lowest rank first.
        self.runs = _Memo(lambda parts: self.plays[tuple(chain.from_iterable(parts))], _PLAYS_KEPT)
        # By one rank's _choices: its plays of 1, 2, 3 and 4 cards (by size).
        self.sets = _Memo(
            lambda choices: tuple(tuple(map(self.plays.__getitem__, ways)) for ways in choices)
        )
        self.pass_action = Action("pass", seat, "Pass")
        self.take_blind = Action("take:blind", seat, "Take the top blind card")
        self.take_faceup = _Memo(
            lambda card: Action("take:faceup", seat, f"Take {NAMES[card]} (face up)")
        )


_SEATS = (_SeatActions(0), _SeatActions(1))


def _lead_spans(key: tuple[tuple[bool, ...], int]) -> tuple[tuple[int, int], ...]:
    """(start, stop) rank values of every run of ``least`` ranks or more over the ranks
    marked present, by lowest rank, then length."""
    present, least = key
    spans: list[tuple[int, int]] = []
    for start in range(2, len(present)):
        if present[start]:
            end = start + 1  # past the last rank of the longest run from start
            while end < len(present) and present[end]:
                end += 1
            spans.extend((start, stop) for stop in range(start + least, end + 1))
    return tuple(spans)


_LEAD_SPANS = _Memo(_lead_spans)


def _runs(
    out: list[Action],
    lookup: Callable[[Any], Action],
    columns: Sequence[Sequence[Any]],
    least: int,
    ranks: int | None,
    min_top: int,
    top_allowed: int,
) -> None:
    """Add the runs over ``columns`` (per rank value, the choices a run may take there):
    leading (``ranks`` None), every run of ``least`` ranks or more; else those of exactly
    ``ranks`` ranks topping at ``min_top`` or more. Listed by lowest rank, then length,
    then the choices' order within each rank."""
    if ranks is None:
        spans: Iterable[tuple[int, int]] = _LEAD_SPANS[
            tuple(map(bool, columns[: top_allowed + 1])), least
        ]
    else:
        spans = [
            (start, start + ranks)
            for start in range(max(2, min_top - ranks + 1), top_allowed - ranks + 2)
            if all(columns[start : start + ranks])
        ]
    for start, stop in spans:
        out += map(lookup, product(*columns[start:stop]))


_Held = list[tuple[int, tuple[tuple[Action, ...], ...]]]
"""(rank value, the seat's plays of that rank by size) of the ranks a hand holds twice or more."""


def _groups(seat: _SeatActions, hand: list[str], known: list[str]) -> tuple[list[_Ways], _Held]:
    """The :func:`_choices` of each rank value in ``hand`` (sorted, so each rank's cards are
    together; ``known``: those of its cards the opponent saw), and the ranks it holds two or
    more times, lowest first."""
    groups = [_NO_CHOICE] * (SPECIAL_VALUE + 2)
    held: _Held = []
    for value, cards in groupby(hand, _VALUE.__getitem__):
        group = tuple(cards)
        if len(group) == 1:
            groups[value] = _ALONE[group]
            continue
        shown = tuple([c for c in group if c in known]) if known else ()
        choices = groups[value] = _CHOICES[group, shown]
        held.append((value, seat.sets[choices]))
    return groups, held


def _sets(out: list[Action], held: _Held, size: int, above: int) -> None:
    """Add the plays of ``size`` cards of one rank above ``above``, from the lowest rank."""
    for value, sets in held:
        if value > above:
            out += sets[size]


def _lead_actions(seat: _SeatActions, hand: list[str], top_allowed: int) -> list[Action]:
    """:func:`_play_actions` leading from ``hand`` (sorted) when the opponent saw none of
    its cards (every new deal): each rank then has one way to take 1 to 4 of its cards, its
    lowest ones, so each play is looked up by its cards directly, in the same order."""
    plays = seat.plays
    firsts: list[Any] = [None] * (SPECIAL_VALUE + 2)  # by rank value: its cards, or None
    tops: list[Any] = [None] * (SPECIAL_VALUE + 2)  # by rank value: its lowest card
    twos: list[Any] = [None] * (SPECIAL_VALUE + 2)  # by rank value: its lowest two cards
    ranks = []
    pairs = []
    for value, cards in groupby(hand, _VALUE.__getitem__):
        group = firsts[value] = tuple(cards)
        tops[value] = group[0]
        ranks.append(value)
        if len(group) >= 2:
            twos[value] = group[:2]
            pairs.append(value)
    out = [plays[(tops[v],)] for v in ranks]
    out += [plays[twos[v]] for v in pairs]
    present = tuple([c is not None for c in tops[: top_allowed + 1]])
    for start, stop in _LEAD_SPANS[present, 3]:
        out.append(plays[tuple(tops[start:stop])])
    if len(pairs) > 1:
        present = tuple([c is not None for c in twos[: top_allowed + 1]])
        for start, stop in _LEAD_SPANS[present, 2]:
            out.append(plays[tuple(chain.from_iterable(twos[start:stop]))])
    out += [plays[firsts[v][:3]] for v in pairs if len(firsts[v]) >= 3]
    out += [plays[firsts[v]] for v in pairs if len(firsts[v]) == 4]
    return out


def _play_actions(
    seat: _SeatActions,
    hand: list[str],
    known: list[str],
    previous: Combination | None,
    runs_with_special: bool,
) -> list[Action]:
    """The seat's shared Actions of every distinct play from ``hand`` (sorted; ``known``:
    the cards of it the opponent saw) that may follow ``previous`` (None: every
    combination): singles, pairs, runs, runs of pairs, each from the lowest rank up, then
    three and four of a kind. Plays that differ only in suits are one play, made of the
    lowest card ids (see :func:`_choices`)."""
    top_allowed = SPECIAL_VALUE if runs_with_special else 10
    if previous is not None and previous.kind == "single" and not (previous.has_special or known):
        # The hand is sorted, so its singles of the rank to beat or more are a tail of it:
        # the first card of each rank (no card seen by the opponent makes a second choice).
        out: list[Action] = []
        last = 0
        for c in hand[bisect_left(hand, previous.rank, key=_VALUE.__getitem__) :]:
            if _VALUE[c] != last:
                last = _VALUE[c]
                out.append(seat.plays[(c,)])
        return out
    if previous is None and not known:
        return _lead_actions(seat, hand, top_allowed)
    groups, held = _groups(seat, hand, known)
    if previous is None:
        out = [seat.plays[ways] for choices in groups for ways in choices[1]]
        _sets(out, held, 2, 0)
        _runs(out, seat.runs.__getitem__, [c[1] for c in groups], 3, None, 0, top_allowed)
        if len(held) > 1:
            _runs(out, seat.runs.__getitem__, [c[2] for c in groups], 2, None, 0, top_allowed)
        _sets(out, held, 3, 0)
        _sets(out, held, 4, 0)
        return out
    out = []
    if previous.special:  # only a bigger special: more cards, or as many of a higher rank
        if previous.length == 3:
            _sets(out, held, 3, previous.rank)
            _sets(out, held, 4, 0)
        else:
            _sets(out, held, 4, previous.rank)
        return out
    kind, lo = previous.kind, previous.rank
    if kind == "single":
        out += [seat.plays[ways] for choices in groups[lo:] for ways in choices[1]]
    elif kind == "pair":
        _sets(out, held, 2, lo - 1)
    elif kind == "run":
        columns = [c[1] for c in groups]
        _runs(out, seat.runs.__getitem__, columns, 3, previous.length, lo, top_allowed)
    elif kind == "pair_run":
        columns = [c[2] for c in groups]
        _runs(out, seat.runs.__getitem__, columns, 2, previous.length // 2, lo, top_allowed)
    if previous.has_special:  # the Queen rule: any three or four of a kind may follow
        _sets(out, held, 3, 0)
        _sets(out, held, 4, 0)
    return out


# ----- the match -----------------------------------------------------------------------


_SORTED_DECKS = {rank: sorted(deck_for({"special_rank_runs": rank == "J"})) for rank in "QJ"}
"""By the special rank: the round's forty cards sorted by id, as ``shuffled`` sorts them."""

_LISTINGS: dict[tuple[Any, ...], list[Action]] = {}
"""The play phase's legal moves by everything their listing reads (see
``CrispsState._legal_actions``); emptied when it holds ``_LISTINGS_KEPT`` of them."""
_LISTINGS_KEPT = 20_000

_PLAYED: dict[tuple[tuple[str, ...], str], tuple[Combination, str]] = {}
"""By a play's cards and the special rank: its combination and its words (a few thousand
plays exist)."""


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
        self._deal(self.rng.randrange(2))

    # ----- dealing and round bookkeeping --------------------------------------------------
    def _deal(self, starter: int) -> None:
        cards = list(_SORTED_DECKS[self.special])
        rng = self.rng
        if type(rng) is LazyRandom:
            # Seeded now rather than at its first draw, so the shuffle below takes the plain
            # Random's fast path: the same draws (a sampled world deals its next round so).
            LazyRandom._wake(rng)
        shuffle(cards, rng)
        self.hands = [sort_cards(cards[:HAND_SIZE]), sort_cards(cards[HAND_SIZE : 2 * HAND_SIZE])]
        rest = cards[2 * HAND_SIZE :]
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
        last = [max((i for i, s in enumerate(self.starters) if s == p), default=-1) for p in (0, 1)]
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
        if self._score_round(winner, [len(h) for h in self.hands]):
            return False
        self._round_over()
        self._deal(self.next_starter())
        return True

    def _score_round(self, winner: int, cards_left: list[int]) -> bool:
        """Write the round's summary and point (``cards_left``: each hand's size); True when
        that ended the match. The rollouts' own loop ends a round with this alone."""
        self.scores[winner] += 1
        summary = {
            "round": self.round_no,
            "starter": self.starters[-1],
            "winner": winner,
            "scores": list(self.scores),
            "cards_left": cards_left,
        }
        self.rounds.append(summary)
        if self.scores[winner] >= TARGET_SCORE:
            self.phase = "over"
            self.is_over = True
            self.turn = None
            self.winners = [winner]
            return True
        return False

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
        return SHAPES.get((to_beat, self.special)) or classify(to_beat, self.options)

    def _legal_actions(self) -> list[Action]:
        p = self.turn
        assert p is not None
        if self.phase == "draw":
            # One or two shared actions: made directly (a key would cost more).
            return self._generate_actions(p)
        # apply() and the caller both ask for the same list, and the search's walks through
        # its tree meet the same hands in many sampled worlds: one memo for every state, by
        # everything the listing of plays reads.
        key = (p, tuple(self.hands[p]), tuple(self.known[p]), self.to_beat, self.runs_with_special)
        actions = _LISTINGS.get(key)
        if actions is None:
            actions = self._generate_actions(p)
            if len(_LISTINGS) >= _LISTINGS_KEPT:
                _LISTINGS.clear()
            _LISTINGS[key] = actions
        return list(actions)

    def _fresh_actions(self) -> list[Action]:
        # A rollout lists each position once: no key for the listing's cache.
        p = self.turn
        assert p is not None
        return self._generate_actions(p)

    def _generate_actions(self, p: int) -> list[Action]:
        seat = _SEATS[p]
        if self.phase == "draw":
            out = []
            if self.face_up is not None:
                out.append(seat.take_faceup[self.face_up])
            if self.draw_pile:
                out.append(seat.take_blind)
            return out
        hand = self.hands[p]
        previous = self._to_beat_combo()
        out = _play_actions(seat, hand, self.known[p], previous, self.runs_with_special)
        if previous is not None:
            out.insert(0, seat.pass_action)
        return out

    def _apply(self, action: Action) -> bool:
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
            return True
        return revealed

    def _play(self, p: int, cards: tuple[str, ...]) -> bool:
        """True when it showed a hidden card: a new deal, or blind draws after an automatic
        pass."""
        hand = self.hands[p]
        known = self.known[p]
        for c in cards:
            hand.remove(c)
        if known:
            for c in cards:
                if c in known:
                    known.remove(c)
        self.played.extend(cards)
        key = (cards, self.special)
        shown = _PLAYED.get(key)
        if shown is None:
            combo = SHAPES.get(key) or classify(cards, self.options)
            assert combo is not None
            shown = _PLAYED[key] = (combo, describe(combo, self.special))
        combo = shown[0]
        self.trick.append({"player": p, "cards": list(cards), "combination": shown[1]})
        self.to_beat = cards
        if not hand:
            return self._end_round(p)
        follower = 1 - p
        self.turn = follower
        if self.auto_skip and not public_could_beat(
            combo, self._public_pool(), len(self.hands[follower]), self.runs_with_special
        ):
            return self._pass(follower, auto=True)
        return False

    def _public_pool(self) -> Counter[int]:
        """Copies per rank that might still be in a hand: all but played and face-up cards."""
        pool = Counter({value: 4 for value in range(2, SPECIAL_VALUE + 1)})
        for c in self.played:
            pool[CARD_KEY[c][0]] -= 1
        if self.face_up is not None:
            pool[CARD_KEY[self.face_up][0]] -= 1
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
            self.last_draw = {
                "chooser": winner,
                "chooser_took": "blind" if drew else "nothing",
                "face_up_card": None,
                "passer_drew": p in drew,
            }
            self._start_trick(winner)
            return bool(drew)
        if self.face_up is None and not self.draw_pile:
            self.last_draw = {
                "chooser": winner,
                "chooser_took": "nothing",
                "face_up_card": None,
                "passer_drew": False,
            }
            self._start_trick(winner)
        else:
            self.phase = "draw"
            self.turn = winner
        return False

    def _give(self, seat: int, card: str, known: bool) -> None:
        insort(self.hands[seat], card, key=CARD_KEY.__getitem__)  # hands stay sorted
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
        self.last_draw = {
            "chooser": chooser,
            "chooser_took": "faceup" if face_up else "blind",
            "face_up_card": shown,
            "passer_drew": passer_drew,
        }
        self._start_trick(chooser)

    def _equivalent(self, action_id: str) -> Action | None:
        if self.phase != "play" or not action_id.startswith("play:"):
            return None
        p = self.turn
        assert p is not None
        cards = tuple(action_id[5:].split(","))
        hand = self.hands[p]
        if (
            len(set(cards)) != len(cards)
            or not all(c in hand for c in cards)
            or list(cards) != sort_cards(cards)
            or follow_problem(self.to_beat, cards, self.options) is not None
        ):
            return None
        return _SEATS[p].plays[cards]

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
                return (
                    "with 'No face-up draw' there is no face-up card: both players draw "
                    "blind by themselves after a pass"
                )
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
            if self.runs_with_special and any(c[:-1] == "Q" for c in cards if c in CARD_KEY):
                return "with 'Special rank runs' the Queens are Jacks: use J cards"
            return problem
        for c in cards:
            if c not in self.hands[p]:
                return f"you do not hold {card_name(c)}"
        ordered = ",".join(sort_cards(cards))
        if ordered != action_id[5:]:
            return f"list the cards in order: play:{ordered}"
        return follow_problem(self.to_beat, cards, self.options)

    # ----- what people see ----------------------------------------------------------------
    def policy_view(self, player: int) -> dict[str, Any]:
        """The keys of :meth:`view` the greedy policy reads (the rollouts build this). Its
        lists are the state's own, not copies: the policy only reads them, and the rollout
        moves on only once it has chosen."""
        return {
            "player": player,
            "phase": self.phase,
            "special_rank": self.special,
            "hand": self.hands[player],
            "hand_sizes": [len(h) for h in self.hands],
            "known_cards": self.known,
            "face_up": self.face_up,
            "to_beat": self._to_beat_part(),
            "played": self.played,
        }

    def _to_beat_part(self) -> dict[str, Any] | None:
        """The view's ``to_beat``: the play to beat and its shape, or None when leading."""
        previous = self._to_beat_combo()
        if previous is None or self.to_beat is None:
            return None
        last_play = next(e for e in reversed(self.trick) if "cards" in e)
        return {
            "player": last_play["player"],
            "cards": list(self.to_beat),
            "combination": last_play["combination"],
            "kind": previous.kind,
            "length": previous.length,
            "rank": previous.rank,
        }

    def _policy_part(self, player: int | None) -> dict[str, Any]:
        to_beat = self._to_beat_part()
        return {
            "player": player,
            "phase": self.phase,
            "special_rank": self.special,
            "hand": None if player is None else list(self.hands[player]),
            "hand_sizes": [len(h) for h in self.hands],
            "known_cards": [list(k) for k in self.known],
            "face_up": self.face_up,
            "to_beat": to_beat,
            "played": list(self.played),
        }

    def view(self, player: int | None) -> dict[str, Any]:
        out = self._policy_part(player)
        out.update(
            {
                "game": "crisps",
                "current_player": self.turn,
                "round": self.round_no,
                "scores": list(self.scores),
                "target": TARGET_SCORE,
                "starter": self.starters[-1],
                "leader": self.leader,
                "draw_pile": len(self.draw_pile),
                "removed": len(self.removed),
                "trick": [_copy_entry(e) for e in self.trick],
                "trick_winner": self.turn if self.phase == "draw" else None,
                "last_trick": None
                if self.last_trick is None
                else [_copy_entry(e) for e in self.last_trick],
                "last_draw": None if self.last_draw is None else dict(self.last_draw),
                "rounds": [_copy_summary(r) for r in self.rounds],
                "last_round": _copy_summary(self.rounds[-1]) if self.rounds else None,
                "winners": list(self.winners),
                "options": dict(self.options),
            }
        )
        return out

    def rounds_played(self) -> int:
        return len(self.rounds)

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "rounds": [_copy_summary(r) for r in self.rounds],
        }

    def zones(self) -> dict[str, list[str]]:
        return {
            "hand:0": list(self.hands[0]),
            "hand:1": list(self.hands[1]),
            "removed": list(self.removed),
            "draw_pile": list(self.draw_pile),
            "face_up": [] if self.face_up is None else [self.face_up],
            "played": list(self.played),
        }

    def deck(self) -> list[str]:
        return deck_for(self.options)

    def determinize(self, player: int, rng: random.Random) -> CrispsState:
        return self.sampler(player)(rng)

    def sampler(self, player: int) -> Callable[[random.Random], CrispsState]:
        """The other hand's cards nobody saw, the removed cards and the draw pile are one
        pool to re-deal (sorted, so only what ``player`` knows decides it); the cards it was
        seen taking stay in that hand. The pool is worked out once, here; each world
        shuffles a copy of it and deals it."""
        other = 1 - player
        kept = list(self.known[other])
        hidden = list(self.hands[other])
        for c in kept:
            hidden.remove(c)  # everybody saw these go into that hand
        pool = sorted(hidden + self.removed + self.draw_pile)
        k = len(hidden)
        r = k + len(self.removed)

        def sample(rng: random.Random) -> CrispsState:
            world = self._copy(LazyRandom(rng.getrandbits(64)))
            unseen = list(pool)
            shuffle(unseen, rng)
            world.hands[other] = sort_cards(kept + unseen[:k])
            world.removed = unseen[k:r]
            world.draw_pile = unseen[r:]
            return world

        return sample

    def _copy(self, rng: random.Random) -> CrispsState:
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
        return new


def _copy_entry(entry: dict[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    if "cards" in out:
        out["cards"] = list(out["cards"])
    return out


def _copy_summary(summary: dict[str, Any]) -> dict[str, Any]:
    # A round's summary (see _end_round): its two lists copied, the rest as it is. The
    # search's evaluator reads result() once an iteration.
    out = dict(summary)
    out["scores"] = list(out["scores"])
    out["cards_left"] = list(out["cards_left"])
    return out

"""The engine contract shared by every game: actions, errors, specs and the State base.

A game module subclasses :class:`State` and fills in a handful of hooks
(``_legal_actions``, ``_apply``, ``view``, ``result``, ``determinize``, ``zones``,
``deck``); everything else (legality check, records, cloning, the history) lives here
so every game behaves the same way at the edges.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from typing import Any, Generic, TypeVar

RECORD_FORMAT = 1
"""Version of the saved-game record layout; bumped when the layout changes."""


class EngineError(ValueError):
    """A refusal the page shows a person: a stable ``code`` and a ``message`` in words.

    Each subclass has its own class-level ``code``; a more precise one may be given."""

    code = "engine_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class IllegalAction(EngineError):
    """An action that is not legal in the current state. The state is unchanged."""

    code = "illegal_action"


class InvalidRecord(EngineError):
    """A saved-game record that cannot be read or replayed."""

    code = "invalid_record"


class InvalidOptions(EngineError):
    """Bad arguments for a new game: unknown game, player count or option."""

    code = "invalid_options"


class _RoundBreak(Exception):
    """Raised inside :meth:`State.at_round_end`'s throwaway copy where the next round would
    be dealt."""


SEAT_TOKEN = re.compile(r"\{seat(\d+)\}")
_SEAT_IN_TEXT = re.compile(r"\{seat(\d+)\}('s\b)?")


def seat_token(seat: int) -> str:
    """How a label names another seat: ``"{seat2}"``; the page shows the seat's name there.

    >>> name_seats("Jack on " + seat_token(2), ["Ann", "Bo", "Cy"])
    'Jack on Cy'
    """
    return f"{{seat{seat}}}"


def name_seats(text: str, names: list[str]) -> str:
    """Replace seat tokens in ``text`` by ``names`` (``"player N"`` when a name is missing).

    The person's seat is named "You": inside a sentence it reads "you", and as an owner
    ("{seat0}'s") "your" ("Your" at the start), never "You's".

    >>> name_seats("{seat1}'s Jack on {seat0}", ["You", "Bo"])
    "Bo's Jack on you"
    >>> name_seats("{seat0}'s turn; {seat0} must answer {seat0}'s Queen", ["You"])
    'Your turn; you must answer your Queen'
    """

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        owner = match.group(2) or ""
        word = names[seat] if seat < len(names) else f"player {seat + 1}"
        if word != "You":
            return word + owner
        start = match.start() == 0 or text[: match.start()].rstrip().endswith((".", ":", "!", "?"))
        word = "your" if owner else "you"
        return word.capitalize() if start else word

    return _SEAT_IN_TEXT.sub(name, text)


def copy_rng(rng: random.Random) -> random.Random:
    """An independent copy of ``rng`` at the same point of its sequence.

    ``Random.__new__`` skips seeding from the OS, which is slow, only to overwrite it."""
    new = random.Random.__new__(random.Random)
    new.setstate(rng.getstate())
    return new


class LazyRandom(random.Random):
    """``random.Random(seed)``, seeded only when it is first drawn from: seeding costs tens of
    microseconds, and most of the worlds a search samples never draw (the chance they hold
    was dealt already). On first use it seeds itself and becomes a plain ``random.Random``,
    so it draws exactly what ``random.Random(seed)`` would, at the same speed after that.

    >>> a, b = LazyRandom(7), random.Random(7)
    >>> [a.randrange(100) for _ in range(3)] == [b.randrange(100) for _ in range(3)]
    True
    >>> type(a) is random.Random
    True
    """

    def __init__(self, seed: int) -> None:  # no super().__init__: that would seed now
        self._lazy_seed = seed
        self.gauss_next = None

    def _wake(self) -> None:
        if type(self) is LazyRandom:
            seed = self.__dict__.pop("_lazy_seed")
            self.__class__ = random.Random  # type: ignore[assignment]
            random.Random.__init__(self, seed)

    # Every draw goes through one of these (the Python-level methods call them).
    def random(self) -> float:
        LazyRandom._wake(self)
        return random.Random.random(self)

    def getrandbits(self, k: int, /) -> int:
        LazyRandom._wake(self)
        return random.Random.getrandbits(self, k)

    def getstate(self) -> Any:
        LazyRandom._wake(self)
        return random.Random.getstate(self)

    def setstate(self, state: Any) -> None:
        LazyRandom._wake(self)
        random.Random.setstate(self, state)

    def __reduce__(self) -> Any:  # copies and pickles are plain ones
        LazyRandom._wake(self)
        return random.Random.__reduce__(self)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        LazyRandom._wake(self)
        random.Random.seed(self, *args, **kwargs)


@dataclass(frozen=True, init=False)
class Action:
    """One step a seat can take: a plain value. ``id`` is the stable canonical form.

    ``cards`` lists the card ids the action moves from the actor's hand or piles (the page
    uses it to light up selections); ``label`` is a short text for people. Two equal
    actions are interchangeable: what a move did is recorded by the state that took it.

    >>> a = Action("pass", 0, "Pass")
    >>> str(a), a.kind, a == Action("pass", 0, "Pass")
    ('pass', 'pass', True)
    """

    id: str
    player: int
    label: str
    cards: tuple[str, ...]

    def __init__(self, id: str, player: int, label: str, cards: tuple[str, ...] = ()) -> None:
        # Bots list the legal actions of thousands of states a decision, so making one is a
        # hot path: filling the instance dict takes half the time of the frozen dataclass's
        # ``object.__setattr__`` per field.
        fields = self.__dict__
        fields["id"] = id
        fields["player"] = player
        fields["label"] = label
        fields["cards"] = cards

    def __str__(self) -> str:
        return self.id

    @cached_property
    def kind(self) -> str:
        # Remembered in the instance dict (not a field: equality and hashing ignore it);
        # policies ask an action's kind many times a rollout step.
        return self.id.split(":", 1)[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "player": self.player,
            "label": self.label,
            "kind": self.kind,
            "cards": list(self.cards),
        }


@dataclass(frozen=True)
class Option:
    """A game option: its default, the allowed choices and words for people."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    label: str
    description: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "choices": list(self.choices),
            "label": self.label,
            "description": self.description,
        }


Policy = Callable[[dict[str, Any], list[Action], random.Random], Action]
"""A game's greedy policy: ``(view, legal_actions, rng) -> Action``. It is fed one seat's
view, so by construction it sees only what that seat may see."""


ScoreLines = Callable[[dict[str, Any], int], list[str]]
"""A game's explanation of a round just over: ``(view["last_round"], viewer) -> lines``, each
line naming another seat by its token (``{seat1}``) and the viewer as "You"."""

Purpose = Callable[[dict[str, Any], Action], str | None]
"""What a move does for the seat that makes it, in a player's words: ``(that seat's view,
action) -> "closes the hearts stack"`` (lower case, no full stop), or ``None`` when the
action's label says it all. It reads only the seat's view and the move."""


Search = TypeVar("Search")
"""The type of a search's settings (the bots' ``SearchConfig``): the core holds them unread."""
Valuer = TypeVar("Valuer")
"""The type of an evaluator (the bots' ``Evaluator``): the core holds it unread."""


@dataclass(frozen=True)
class BotSettings(Generic[Search, Valuer]):
    """What the generic bots (:mod:`engine.bots`) need to know of one game: its greedy
    policy, the Hard level's iterations per decision, and the search's settings and
    evaluator (``None``: the generic ones), with the table sizes that play otherwise.
    The bots read them through :meth:`at`, for the size of the table in front of them.

    The core never reads ``search`` or ``evaluator``: their types are the bots' own
    (``engine.bots.ismcts.SearchConfig``, ``engine.bots.evaluation.Evaluator``), filled in
    by each game's ``bot.py`` and read back by ``engine.bots.ismcts.settings_of``, so the
    core names no module of the bots."""

    greedy: Policy
    hard_iterations: int
    search: Search | None = None
    evaluator: Valuer | None = None
    sizes: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    """Table sizes whose search differs: players -> the fields that differ there
    (``hard_iterations``, ``search``, ``evaluator``)."""

    def at(self, players: int) -> BotSettings[Search, Valuer]:
        """These settings at a table of ``players``: those of the size where it has its own
        (``sizes``), else the game's."""
        changes = self.sizes.get(players)
        return replace(self, **changes, sizes={}) if changes else self


@dataclass(frozen=True)
class GameSpec:
    """Everything the registry knows about a game.

    ``factory(players, seed, options)`` builds the first state of a match; ``bot`` holds
    the game's bot settings (its greedy policy first of all); ``score_lines`` and ``purpose``
    are the game's words (its ``words.py``): the coach explains a round's score with the
    first, the coach and the analysis say what a suggested move does with the second.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    factory: Callable[[int, int, dict[str, Any]], State]
    bot: BotSettings[Any, Any]
    score_lines: ScoreLines
    purpose: Purpose
    options: Mapping[str, Option] = field(default_factory=dict)
    summary: str = ""
    clarifications: tuple[str, ...] = ()
    variant_players: tuple[int, ...] = ()
    """Player counts offered but labelled as variants of the text's game."""

    def player_counts(self) -> list[int]:
        return list(range(self.min_players, self.max_players + 1))

    def option_sets(self) -> list[dict[str, Any]]:
        """The defaults, then each option switched to each other choice in turn."""
        base = {name: opt.default for name, opt in self.options.items()}
        sets = [dict(base)]
        for name, opt in self.options.items():
            for choice in opt.choices:
                if choice != opt.default:
                    sets.append({**base, name: choice})
        return sets

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise InvalidOptions("options must be an object of name: value")
        out = {name: opt.default for name, opt in self.options.items()}
        for name, value in options.items():
            if name not in self.options:
                raise InvalidOptions(f"{self.title} has no option {name!r}", "unknown_option")
            opt = self.options[name]
            if value not in opt.choices or type(value) is not type(opt.default):
                allowed = ", ".join(repr(c) for c in opt.choices)
                raise InvalidOptions(
                    f"option {name!r} must be one of {allowed}, not {value!r}", "bad_option_value"
                )
            out[name] = value
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "default_players": self.default_players,
            "variant_players": list(self.variant_players),
            "summary": self.summary,
            "options": [o.to_json() for o in self.options.values()],
            "clarifications": list(self.clarifications),
        }


class State:
    """Base class of every game's state: one whole match, all its rounds.

    Subclasses set ``self.game_id``, ``self.players``, ``self.seed``, ``self.options`` and
    ``self.rng`` (via :meth:`_init_common`) and implement the hooks below.
    """

    game_id: str
    players: int
    seed: int
    options: dict[str, Any]
    rng: random.Random
    history: list[Action]
    deal: dict[str, Any] | None = None
    """The deal's fingerprint and salt once fixed (``engine.fairness.commit``); kept in the
    record. Games' fast copies leave it out: only the match itself needs it."""
    stand_in: tuple[int, ...] = ()
    """Indexes into ``history`` of the moves a computer made for a friend's lost seat."""
    # The moves that revealed a hidden card (as ``_apply`` reported them) are kept as an
    # immutable set of older indexes plus a short tuple of recent ones, so a game's fast
    # ``_copy`` shares them safely and marking a move costs O(1) (amortised) rather than
    # copying the whole set on every reveal, which grew quadratic over a long match.
    _reveals_settled: frozenset[int] = frozenset()
    _reveals_recent: tuple[int, ...] = ()
    _REVEALS_BATCH = 32
    _stop_at_round_end = False
    """Set only on :meth:`at_round_end`'s copy: :meth:`_round_over` stops the move there."""

    @property
    def revealing_moves(self) -> frozenset[int]:
        """Indexes into ``history`` of moves that revealed a hidden card (immutable)."""
        if self._reveals_recent:
            return self._reveals_settled.union(self._reveals_recent)
        return self._reveals_settled

    def _mark_revealing(self, index: int) -> None:
        recent = self._reveals_recent + (index,)
        if len(recent) >= self._REVEALS_BATCH:
            self._reveals_settled = self._reveals_settled.union(recent)
            recent = ()
        self._reveals_recent = recent

    def _init_common(self, game_id: str, players: int, seed: int, options: dict[str, Any]) -> None:
        self.game_id = game_id
        self.players = players
        self.seed = seed
        self.options = dict(options)
        self.rng = random.Random(seed)
        self.history = []

    # ----- hooks every game implements -------------------------------------------------
    @property
    def current_player(self) -> int | None:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    def _legal_actions(self) -> list[Action]:
        """Legal actions of ``current_player`` in a deterministic order (match not over)."""
        raise NotImplementedError

    def _fresh_actions(self) -> list[Action]:
        """:meth:`_legal_actions` for a caller that lists each position once (a search's
        rollout): a game whose listing keeps a cache for the repeated asks of play lists
        afresh here, without building the cache's key. The same actions in the same order."""
        return self._legal_actions()

    def _apply(self, action: Action) -> bool:
        """Carry out a known-legal action, including any chance it triggers.

        Return whether it showed its actor a card that was hidden from them (a draw, a
        random pick, a new deal after a round ends): undo never goes back past such a move.
        """
        raise NotImplementedError

    def view(self, player: int | None) -> dict[str, Any]:
        """JSON-ready dict of what ``player`` may see (``None``: a spectator)."""
        raise NotImplementedError

    def result(self) -> dict[str, Any]:
        """``{"scores": [...], "winners": [...], "rounds": [...]}``, valid at any time."""
        raise NotImplementedError

    def determinize(self, player: int, rng: random.Random) -> State:
        """A copy consistent with what ``player`` knows; hidden cards and the RNG re-sampled."""
        raise NotImplementedError

    def zones(self) -> dict[str, list[str]]:
        """Every card of the match, by where it lies (hidden places included)."""
        raise NotImplementedError

    def sampler(self, player: int) -> Callable[[random.Random], State]:
        """``rng -> self.determinize(player, rng)``, the very worlds from the same draws, for
        a caller that samples many worlds of this one position (a search, thousands): a game
        may work out once what they all share. Valid while this state is unchanged."""
        return partial(self.determinize, player)

    def deck(self) -> list[str]:
        """The full multiset of cards the game uses (for the conservation check)."""
        raise NotImplementedError

    # ----- optional hooks ----------------------------------------------------------------
    def rounds_played(self) -> int:
        """How many rounds have ended: ``len(result()["rounds"])``, which the search asks
        after every rollout step (games answer it without copying the round history)."""
        return len(self.result()["rounds"])

    def policy_view(self, player: int) -> dict[str, Any]:
        """The part of ``view(player)`` the game's greedy policy reads: the search's rollouts
        feed the policy this, thousands of times a decision. Every key it has holds what
        ``view(player)`` holds (a test checks it); games whose view is costly to build list
        only the keys their policy reads. The default is the whole view."""
        return self.view(player)

    def why_illegal(self, action_id: str) -> str | None:
        """A reason in words why ``action_id`` is refused now, or ``None`` for the generic one."""
        return None

    def _equivalent(self, action_id: str) -> Action | None:
        """The action ``action_id`` names when the listing leaves it out only because a
        listed action does the same with other copies of its cards (equal cards are listed
        once, by their lowest ids), or ``None``. Taking it plays the very cards it names."""
        return None

    def public_label(self, action: Action, viewer: int | None) -> str:
        """How ``action`` (already taken) reads in the log of ``viewer``.

        Games redact what the viewer may not see (a secret bid, a drawn card)."""
        return action.label

    # ----- the round-end hook, called by every game ------------------------------------
    def _round_over(self) -> None:
        """Every game calls this once a round is scored and the match goes on, just before it
        deals the next round: the one point where the table shows the round as it ended.

        It does nothing in play; in :meth:`at_round_end`'s copy it stops the move there."""
        if self._stop_at_round_end:
            raise _RoundBreak

    def at_round_end(self, action: Action) -> State | None:
        """The table as ``action`` (legal here) would leave it when it ends a round and the
        match goes on: a copy of this state with the action taken up to the game's
        :meth:`_round_over`, before the next deal; ``None`` when the action does not reach
        it. This state is not touched."""
        world = self.clone()
        world._stop_at_round_end = True
        try:
            world.push(action)
        except _RoundBreak:
            world._stop_at_round_end = False
            return world
        return None

    # ----- the contract, shared ----------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self.is_over:
            return []
        return self._legal_actions()

    def find_action(self, action: Action | str) -> Action:
        """The legal action with this id, or :class:`IllegalAction` with a reason."""
        action_id = action.id if isinstance(action, Action) else action
        if not isinstance(action_id, str):
            raise IllegalAction(
                f"an action id must be text, not {type(action_id).__name__}", "bad_action_type"
            )
        if self.is_over:
            raise IllegalAction(f"the match is over; {action_id!r} cannot be played", "match_over")
        legal_actions = self._legal_actions()
        if action_id is not action:  # an Action, not an id
            # The usual caller hands back an object from this very listing, often the very
            # object: ids are unique within a listing, so identity is the cheap first test.
            for legal in legal_actions:
                if legal is action:
                    return legal
        for legal in legal_actions:
            if legal.id == action_id:
                return legal
        same = self._equivalent(action_id)
        if same is not None:
            return same
        reason = self.why_illegal(action_id)
        if reason is None:
            shown = action_id if len(action_id) <= 40 else action_id[:40] + "..."
            reason = f"{shown!r} is not a legal action now"
        raise IllegalAction(reason)

    def apply(self, action: Action | str) -> Action:
        """Take a legal action (an :class:`Action` or its id); returns the action taken.

        Raises :class:`IllegalAction` with a reason and leaves the state unchanged otherwise.
        """
        legal = self.find_action(action)
        self.push(legal)
        return legal

    def push(self, action: Action) -> None:
        """Take ``action``, known to be one of :meth:`legal_actions` (not looked up again).

        The search steps its sampled worlds with this; :meth:`apply` is the checked way."""
        if self._apply(action):
            self._mark_revealing(len(self.history))
        self.history.append(action)

    def _rollout_step(self, action: Action) -> bool:
        """:meth:`push` but for its note of which moves showed a hidden card (undo's business,
        never read in a sampled world): how the search's rollouts step their worlds. False
        when the move stopped at the round's end, before the next deal (a world told to stop
        there, ``_stop_at_round_end``: the round is over and scored, the move not written)."""
        try:
            self._apply(action)
        except _RoundBreak:
            return False
        self.history.append(action)
        return True

    def move_revealed_hidden(self, index: int) -> bool:
        """Whether history entry ``index`` (negative: from the end) revealed a hidden card
        to its actor; undo never goes back past such a move."""
        if index < 0:
            index += len(self.history)
        return index in self._reveals_recent or index in self._reveals_settled

    def clone(self) -> State:
        return self._copy(copy_rng(self.rng))

    def _copy(self, rng: random.Random) -> State:
        """A deep copy drawing its future chance from ``rng``. Games override this with a
        fast explicit copy (bots clone thousands of states a decision)."""
        world = copy.deepcopy(self)
        world.rng = rng
        return world

    def to_record(self) -> dict[str, Any]:
        record = {
            "format": RECORD_FORMAT,
            "game": self.game_id,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "actions": [a.id for a in self.history],
        }
        if self.deal is not None:
            record["deal"] = dict(self.deal)
        if self.stand_in:
            record["stand_in"] = list(self.stand_in)
        return record

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game_id} players={self.players} seed={self.seed}"
            f" actions={len(self.history)}>"
        )

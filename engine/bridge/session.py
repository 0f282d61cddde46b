"""The match the bridge holds: its seats (read from a request), the match's state and what is
kept beside it (the bots, the log in words, the round-end table, the latest analysis), and who
may take back what.

>>> [seat.name for seat in seats_from({}, 3)]
['You', 'West', 'North']
>>> seats_from({"seats": [{"type": "human"}]}, 2)
Traceback (most recent call last):
...
engine.bridge.plumbing.BridgeError: give exactly 2 seats
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine import bots
from engine.bots import analysis as analysing
from engine.bridge.logs import MatchLog, RoundMarks, log_fields
from engine.bridge.plumbing import BridgeError
from engine.core import Action, State, name_seats

MAX_NAME_CHARS = 24
SEAT_TYPES = ("human", "bot", "friend")
DEFAULT_NAMES = ("South", "West", "North", "East", "North-West", "North-East")


@dataclass
class Seat:
    type: str  # "human", "bot" or "friend" (a person on another device: see friends.py)
    level: str | None
    name: str
    stand_in: bool = False  # a computer plays a friend's lost seat until they come back

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "level": self.level, "name": self.name}
        if self.stand_in:
            out["stand_in"] = True
        return out


@dataclass
class Session:
    state: State
    seats: list[Seat]
    practice: bool = False
    viewer: int | None = None
    bot_rng: random.Random = field(default_factory=lambda: random.Random(0))
    bot_cache: dict[str, Any] = field(default_factory=dict)
    rounds: RoundMarks = field(default_factory=RoundMarks)
    round_end: dict[str, Any] | None = None  # the table as the latest move's round ended
    round_end_move: tuple[State, Action] | None = None
    """The position before the latest move and the move, when it ended a round (friends'
    seats are shown the table as it ended from their own seat)."""
    analysis: tuple[Any, analysing.Analysis] | None = None
    """The latest analysis and the position it is of (a hint after it costs nothing)."""
    log: MatchLog = field(default_factory=MatchLog)
    """Each viewer's log in words so far, and its generations (see logs.py)."""

    def names(self, text: str) -> str:
        """``text`` with seat tokens replaced by the seats' names."""
        return name_seats(text, [s.name for s in self.seats])

    def action_json(
        self, action: Action, viewer: int | None = None, public: bool = False
    ) -> dict[str, Any]:
        out = action.to_json()
        label = action.label
        if public:
            label = self.state.public_label(action, viewer)
            if label != action.label:
                # The viewer may not know what exactly was done (a secret bid, a drawn card):
                # the id and the cards would tell, so only the redacted words go out.
                out["id"], out["cards"] = None, []
        out["label"] = self.names(label)
        return out

    def last_action(self, viewer: int | None) -> dict[str, Any] | None:
        """The latest action as ``viewer`` may know it, with the seat that took it."""
        history = self.state.history
        if not history:
            return None
        out = self.action_json(history[-1], viewer, public=True)
        out["player"] = history[-1].player
        return out

    def log_fields(self, viewer: int | None) -> dict[str, Any]:
        """The log as ``viewer`` may know it, for a snapshot (see logs.py)."""
        marks = self.rounds.sync(self.state)
        names = tuple(s.name for s in self.seats)
        return log_fields(self.log.words(self.state, marks, names, self.names, viewer))

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.type == "human"]

    @property
    def shared(self) -> bool:
        """Whether friends play from their own devices (see friends.py)."""
        return any(s.type == "friend" for s in self.seats)

    def bot(self, seat: int) -> Any:
        level = self.seats[seat].level or "normal"
        if level not in self.bot_cache:
            self.bot_cache[level] = bots.make(level)
        return self.bot_cache[level]


def available_levels() -> list[str]:
    levels = []
    for level in bots.LEVELS:
        try:
            bots.make(level)
        except ValueError:
            continue
        levels.append(level)
    return levels


def default_name(seat: int) -> str:
    return DEFAULT_NAMES[seat % len(DEFAULT_NAMES)]


def bot_level(level: Any) -> str:
    """A bot level a request names (an alias read as its level), or a refusal."""
    level = bots.ALIASES.get(level, level) if isinstance(level, str) else level
    levels = available_levels()
    if level not in levels:
        raise BridgeError(
            f"unknown opponent level {level!r}; choose one of {', '.join(levels)}", "bad_seats"
        )
    return str(level)


def seats_from(params: dict[str, Any], players: int) -> list[Seat]:
    raw = params.get("seats")
    if raw is None:
        raw = [{"type": "human"}] + [{"type": "bot", "level": "normal"}] * (players - 1)
    if not isinstance(raw, list) or len(raw) != players:
        raise BridgeError(f"give exactly {players} seats", "bad_seats")
    seats = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            raise BridgeError("each seat must be an object", "bad_seats")
        kind = item.get("type", "bot")
        if kind not in SEAT_TYPES:
            raise BridgeError(f"seat {i + 1} must be 'human', 'friend' or 'bot'", "bad_seats")
        level = bot_level(item.get("level", "normal")) if kind == "bot" else None
        name = item.get("name")
        if name is None or name == "":
            name = (
                "You"
                if kind == "human"
                and sum(1 for s in raw if isinstance(s, dict) and s.get("type") == "human") == 1
                else default_name(i)
            )
        if not isinstance(name, str):
            raise BridgeError("a seat's name must be text", "bad_seats")
        stand_in = kind == "bot" and item.get("stand_in") is True
        seats.append(Seat(kind, level, name.strip()[:MAX_NAME_CHARS] or default_name(i), stand_in))
    return seats


def friend_seat(session: Session, params: dict[str, Any]) -> int | None:
    """The ``seat`` of a request made for a friend, or None for the host's own request."""
    seat = params.get("seat")
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(session.seats):
        raise BridgeError("'seat' must be a seat number", "bad_seat")
    if session.seats[seat].type != "friend":
        raise BridgeError(f"seat {seat + 1} is not a friend's seat", "bad_seat")
    return seat


# ----- who may take back what ----------------------------------------------------------------


def undo_count(session: Session) -> int:
    """How many trailing actions one undo removes (0: nothing may be undone).

    A normal match takes back the acting human's own actions since the start of their
    turn, never past an action that revealed a hidden card. Practice takes back
    everything since the previous human decision, bots' replies included.
    """
    state = session.state
    history = state.history
    humans = set(session.humans())
    if not history or not humans:
        return 0
    if session.shared:
        return own_undo_count(session, session.humans()[0])
    if session.practice:
        count = 0
        # Drop trailing bot moves, then the human action before them.
        while count < len(history) and history[-1 - count].player not in humans:
            count += 1
        if count < len(history):
            count += 1
        return count
    current = state.current_player
    if current is None or current not in humans:
        return 0
    return trailing_own_actions(state, current)


def trailing_own_actions(state: State, seat: int) -> int:
    """How many of the latest actions ``seat`` took in a row, back to the first one that
    revealed a hidden card to it (undo never goes past that)."""
    history = state.history
    count = 0
    while count < len(history):
        index = len(history) - 1 - count
        if history[index].player != seat or state.move_revealed_hidden(index):
            break
        count += 1
    return count


def own_undo_count(session: Session, seat: int) -> int:
    """How many trailing actions ``seat`` may take back in a shared match: its own latest
    move (the actions of its latest turn), only while no other player has acted since, and
    never past an action that revealed a hidden card."""
    state = session.state
    history = state.history
    if state.is_over or not history or history[-1].player != seat:
        return 0
    return trailing_own_actions(state, seat)


def undo_refusal(session: Session, seat: int | None) -> str:
    """Why nothing may be taken back now: in a shared match, a player who asks once another
    player has acted after their move (a request that crossed that move) is told the rule."""
    mover = seat if seat is not None else next(iter(session.humans()), None)
    history = session.state.history
    if (
        session.shared
        and not session.state.is_over
        and history
        and history[-1].player != mover
        and any(action.player == mover for action in history)
    ):
        return (
            "another player has moved since: at a shared table you may take back only"
            " your own last move, and only until the next player acts"
        )
    return "there is nothing you may take back now"

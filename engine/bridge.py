"""The only API the page calls: JSON text in, JSON text out.

One match at a time lives in this module (the worker holds one Python runtime). Every
function takes a JSON string of parameters (or nothing) and returns a JSON string; an error
comes back as ``{"error": {"code": ..., "message": ...}}`` and leaves the match as it was.

>>> import json
>>> snap = json.loads(start(json.dumps({"game": "crisps", "seed": 3,
...     "seats": [{"type": "human"}, {"type": "bot", "level": "random"}]})))
>>> snap["game"], snap["viewer"]
('crisps', 0)
>>> json.loads(act(json.dumps({"action": "no-such-move"})))["error"]["code"]
'illegal_action'
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

import engine
from engine import bots, deal_check, fairness
from engine import coach as coaching
from engine.bots import analysis as analysing
from engine.bots.ismcts import settings_of
from engine.core import Action, EngineError, IllegalAction, InvalidRecord, State, name_seats

MAX_INPUT_CHARS = 2_000_000
MAX_NAME_CHARS = 24
HINT_TIME_MS = 10_000
"""The most time a hint or an analysis at its default budget (the Hard level's iterations,
about 0.75 s in the page) may think: a slow device stops there, on fewer worlds."""
MAX_ANALYSIS_ITERATIONS = 20_000
PROGRESS_INTERVAL_S = 0.08
"""Least time between two progress reports of a thinking bot (see :func:`on_progress`)."""


class BridgeError(EngineError):
    """A request the bridge refuses (bad JSON, no session, an unknown seat...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code)


@dataclass
class Seat:
    type: str  # "human", "bot" or "friend" (a person on another device: see seat_view)
    level: str | None
    name: str
    stand_in: bool = False  # a computer plays a friend's lost seat until they come back

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "level": self.level, "name": self.name}
        if self.stand_in:
            out["stand_in"] = True
        return out


@dataclass
class _LogWords:
    """One viewer's log so far: the seats' names it was written with, the actions put into
    words and their entries, and its generation. Within one generation entries are only ever
    added at the end; anything else (a move taken back, a seat renamed) starts a new one. So
    a page that holds a generation's first n entries needs only the entries after them."""

    names: tuple[str, ...]
    generation: str = ""  # set by _next_generation
    actions: list[Action] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Session:
    state: State
    seats: list[Seat]
    practice: bool = False
    viewer: int | None = None
    bot_rng: random.Random = field(default_factory=lambda: random.Random(0))
    bot_cache: dict[str, Any] = field(default_factory=dict)
    rounds: RoundMarks = field(default_factory=lambda: RoundMarks())
    round_end: dict[str, Any] | None = None  # the table as the latest move's round ended
    round_end_move: tuple[State, Action] | None = None
    """The position before the latest move and the move, when it ended a round (friends'
    seats are shown the table as it ended from their own seat)."""
    analysis: tuple[Any, analysing.Analysis] | None = None
    """The latest analysis and the position it is of (a hint after it costs nothing)."""
    log_cache: dict[int | None, _LogWords] = field(default_factory=dict)
    """Per viewer: the actions already put into words and their log entries (see
    _log_words)."""
    log_token: str = field(default_factory=lambda: f"{random.SystemRandom().getrandbits(48):x}")
    """Names this session's log generations (see _LogWords), so that no generation of an
    earlier match or an earlier engine is taken for one of this match."""
    log_generations: int = 0

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

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.type == "human"]

    @property
    def shared(self) -> bool:
        """Whether friends play from their own devices (see seat_view)."""
        return any(s.type == "friend" for s in self.seats)

    def bot(self, seat: int) -> Any:
        level = self.seats[seat].level or "normal"
        if level not in self.bot_cache:
            self.bot_cache[level] = bots.make(level)
        return self.bot_cache[level]


_session: Session | None = None


# ----- plumbing ------------------------------------------------------------------------


def _parse(params: str | None) -> dict[str, Any]:
    if params is None or params == "":
        return {}
    if not isinstance(params, str):
        raise BridgeError("bad_request", "parameters must be JSON text")
    if len(params) > MAX_INPUT_CHARS:
        raise BridgeError("too_large", "the request is too large")
    try:
        value = json.loads(params)
    except (ValueError, RecursionError) as exc:
        raise BridgeError(
            "bad_json", f"the request is not valid JSON ({exc.__class__.__name__})"
        ) from exc
    if not isinstance(value, dict):
        raise BridgeError("bad_request", "parameters must be a JSON object")
    return value


def _endpoint(fn: Callable[[dict[str, Any]], Any]) -> Callable[..., str]:
    """Wrap a handler: parse, run, and turn every failure into an error object."""

    def wrapper(params: str | None = None) -> str:
        global _log_have
        try:
            parsed = _parse(params)
            _log_have = _held_logs(parsed.pop("log_have", None))
            result = fn(parsed)
        except EngineError as exc:
            result = {"error": {"code": exc.code, "message": exc.message}}
        except Exception as exc:  # the page must never see a traceback
            message = f"the engine failed: {exc.__class__.__name__}: {exc}"
            result = {"error": {"code": "internal_error", "message": message[:500]}}
        finally:
            _log_have = {}
        return json.dumps(result)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


_log_have: dict[str, tuple[str, int]] = {}
"""The log entries the page already holds, per viewer (see _log_fields): the request's
``log_have``, for the time of that request."""


def _held_logs(value: Any) -> dict[str, tuple[str, int]]:
    """A request's ``log_have``: ``{viewer: [generation, count]}``, the viewer as text
    ("0", "1"... or "null"); none when absent."""
    if value is None:
        return {}
    problem = BridgeError(
        "bad_request",
        "'log_have' must map each viewer to the [generation, count] of the log entries held",
    )
    if not isinstance(value, dict) or len(value) > 16:
        raise problem
    held = {}
    for viewer, pair in value.items():
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and isinstance(pair[0], str)
            and type(pair[1]) is int
            and pair[1] >= 0
        ):
            raise problem
        held[viewer] = (pair[0], pair[1])
    return held


def _need_session() -> Session:
    if _session is None:
        raise BridgeError("no_match", "no match is in progress")
    return _session


def _text(params: dict[str, Any], key: str, default: str | None = None) -> str:
    value = params.get(key, default)
    if not isinstance(value, str):
        raise BridgeError("bad_request", f"{key!r} must be text")
    return value


def available_levels() -> list[str]:
    levels = []
    for level in bots.LEVELS:
        try:
            bots.make(level)
        except ValueError:
            continue
        levels.append(level)
    return levels


def _seats_from(params: dict[str, Any], players: int) -> list[Seat]:
    raw = params.get("seats")
    if raw is None:
        raw = [{"type": "human"}] + [{"type": "bot", "level": "normal"}] * (players - 1)
    if not isinstance(raw, list) or len(raw) != players:
        raise BridgeError("bad_seats", f"give exactly {players} seats")
    levels = available_levels()
    seats = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            raise BridgeError("bad_seats", "each seat must be an object")
        kind = item.get("type", "bot")
        if kind not in SEAT_TYPES:
            raise BridgeError("bad_seats", f"seat {i + 1} must be 'human', 'friend' or 'bot'")
        level = None
        if kind == "bot":
            level = item.get("level", "normal")
            level = bots.ALIASES.get(level, level) if isinstance(level, str) else level
            if level not in levels:
                raise BridgeError(
                    "bad_seats",
                    f"unknown opponent level {level!r}; choose one of {', '.join(levels)}",
                )
        name = item.get("name")
        if name is None or name == "":
            name = (
                "You"
                if kind == "human"
                and sum(1 for s in raw if isinstance(s, dict) and s.get("type") == "human") == 1
                else default_name(i)
            )
        if not isinstance(name, str):
            raise BridgeError("bad_seats", "a seat's name must be text")
        stand_in = kind == "bot" and item.get("stand_in") is True
        seats.append(Seat(kind, level, name.strip()[:MAX_NAME_CHARS] or default_name(i), stand_in))
    return seats


SEAT_TYPES = ("human", "bot", "friend")
DEFAULT_NAMES = ("South", "West", "North", "East", "North-West", "North-East")


def default_name(seat: int) -> str:
    return DEFAULT_NAMES[seat % len(DEFAULT_NAMES)]


def _choose_viewer(session: Session) -> int | None:
    humans = session.humans()
    if not humans:
        return None
    current = session.state.current_player
    if current is not None and current in humans:
        return current
    if session.viewer in humans:
        return session.viewer
    return humans[0]


def _snapshot(session: Session) -> dict[str, Any]:
    state = session.state
    session.viewer = _choose_viewer(session)
    viewer = session.viewer
    current = state.current_player
    human_turn = current is not None and session.seats[current].type == "human"
    legal = [session.action_json(a) for a in state.legal_actions()] if human_turn else []
    return {
        "game": state.game_id,
        "title": engine.GAMES[state.game_id].title,
        "players": state.players,
        "options": state.options,
        "seats": [s.to_json() for s in session.seats],
        "practice": session.practice,
        "viewer": viewer,
        "current_player": current,
        "human_turn": human_turn,
        "bot_turn": current is not None and session.seats[current].type == "bot",
        "is_over": state.is_over,
        "view": state.view(viewer),
        "legal": legal,
        "result": state.result(),
        **_log_fields(session, viewer),
        "can_undo": bool(_undo_count(session)),
        "moves": len(state.history),
        "deal": fairness.public(state.deal, state.seed, state.is_over),
    }


def _last_action(session: Session, viewer: int | None) -> dict[str, Any] | None:
    """The latest action as ``viewer`` may know it, with the seat that took it."""
    history = session.state.history
    if not history:
        return None
    out = session.action_json(history[-1], viewer, public=True)
    out["player"] = history[-1].player
    return out


def _replay(record: dict[str, Any]) -> State:
    return engine.from_record(record)


def _undo_count(session: Session) -> int:
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
        return _own_undo_count(session, session.humans()[0])
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
    return _trailing_own_actions(state, current)


def _trailing_own_actions(state: State, seat: int) -> int:
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


# ----- the endpoints -------------------------------------------------------------------


@_endpoint
def games(params: dict[str, Any]) -> dict[str, Any]:
    """Every game with its options, player counts and house clarifications; bot levels."""
    return {
        "games": [spec.to_json() for spec in engine.GAMES.values()],
        "levels": available_levels(),
    }


@_endpoint
def start(params: dict[str, Any]) -> dict[str, Any]:
    """Start a match: ``{game, players?, seats?, seed?, options?, practice?}``."""
    global _session
    game = _text(params, "game")
    if game not in engine.GAMES:
        raise BridgeError("unknown_game", f"there is no game called {game[:40]!r}")
    spec = engine.GAMES[game]
    players = params.get("players")
    if players is None:
        seats = params.get("seats")
        players = len(seats) if isinstance(seats, list) else spec.default_players
    seed = params.get("seed")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    practice = params.get("practice", False)
    if not isinstance(practice, bool):
        raise BridgeError("bad_request", "'practice' must be true or false")
    values = _joint_values(params)
    if values:
        seed = fairness.joint_seed(values)
    state = engine.new_game(game, players, seed, params.get("options"))
    seats = _seats_from(params, state.players)
    fairness.commit(state, values=values)
    _session = Session(state, seats, practice, bot_rng=random.Random(seed ^ 0x5EED))
    return _snapshot(_session)


def _joint_values(params: dict[str, Any]) -> list[str]:
    """A shared table's ``values`` (each device's, in seat order), each checked against its
    ``commitments`` entry: the seed is then made of them (see :mod:`engine.fairness`)."""
    values = params.get("values")
    if values is None:
        return []
    commitments = params.get("commitments")
    if not isinstance(values, list) or not isinstance(commitments, list):
        raise BridgeError("bad_request", "'values' and 'commitments' must be lists")
    try:
        fairness.joint_seed_from(commitments, values)
    except fairness.FairnessError as exc:
        raise BridgeError("bad_reveal", str(exc)) from exc
    return [str(v) for v in values]


@_endpoint
def snapshot(params: dict[str, Any]) -> dict[str, Any]:
    """The current match as the viewing seat sees it."""
    return _snapshot(_need_session())


@_endpoint
def act(params: dict[str, Any]) -> dict[str, Any]:
    """Take the action ``{action: id}`` for the human seat whose turn it is; with ``seat``,
    for that friend's seat (see :func:`seat_view`): the reply is then shaped like
    :func:`bot_move`'s, for the host (``action``, ``snapshot``), plus ``seat_view``."""
    session = _need_session()
    action_id = _text(params, "action")
    seat = _friend_seat(session, params)
    current = session.state.current_player
    if current is None:
        raise BridgeError("match_over", "the match is over")
    if session.seats[current].type != ("human" if seat is None else "friend") or (
        seat is not None and current != seat
    ):
        raise BridgeError("not_your_turn", "it is not your turn: another player is to move")
    before = session.state.clone()
    try:
        taken = session.state.apply(action_id)
    except IllegalAction as exc:
        raise BridgeError(exc.code, session.names(exc.message)) from exc
    snap = _snapshot(session)
    _note_round_end(session, before, taken)
    if seat is None:
        return snap
    return {
        "action": session.action_json(taken, session.viewer, public=True),
        "snapshot": snap,
        "seat_view": _seat_snapshot(session, seat),
    }


@_endpoint
def why(params: dict[str, Any]) -> dict[str, Any]:
    """Why ``{action: id}`` cannot be played now (``{"legal": true}`` when it can)."""
    session = _need_session()
    action_id = _text(params, "action")
    seat = _friend_seat(session, params)
    if seat is not None and session.state.current_player != seat:
        return {"legal": False, "reason": "it is not your turn"}
    try:
        session.state.find_action(action_id)
    except IllegalAction as exc:
        return {"legal": False, "reason": session.names(exc.message)}
    return {"legal": True, "reason": None}


@_endpoint
def bot_move(params: dict[str, Any]) -> dict[str, Any]:
    """Let the bot whose turn it is take one action."""
    session = _need_session()
    state = session.state
    current = state.current_player
    if current is None:
        raise BridgeError("match_over", "the match is over")
    if session.seats[current].type != "bot":
        raise BridgeError("not_bot_turn", "it is a person's turn, not a bot's")
    action = _think(session.bot(current), state, current, session.bot_rng)
    before = state.clone()
    if session.seats[current].stand_in:
        state.stand_in = (*state.stand_in, len(state.history))
    taken = state.apply(action)
    snap = _snapshot(session)
    _note_round_end(session, before, taken)
    return {"action": session.action_json(taken, session.viewer, public=True), "snapshot": snap}


# ----- the table as a round left it --------------------------------------------------------


def _round_end_view(before: State, action: Action, viewer: int | None) -> dict[str, Any]:
    """The table as ``action`` left it when it ended a round: ``before`` (the position it
    was taken in) is copied and the action applied to the copy, stopped at the core's
    round-end hook before the next deal (:meth:`State.at_round_end`). The match itself is
    not touched."""
    world = before.at_round_end(action)
    if world is None:
        raise BridgeError("no_round_end", "that move did not end a round")
    return world.view(viewer)


def _note_round_end(session: Session, before: State, taken: Action) -> None:
    """Keep the table of the round ``taken`` ended, when it ended one and the match goes on
    (see :func:`round_end`); forget it otherwise."""
    state = session.state
    session.round_end = None
    session.round_end_move = None
    if state.is_over or _completed_rounds(state) <= _completed_rounds(before):
        return
    session.round_end_move = (before, taken)
    session.round_end = {
        "round": _completed_rounds(state),
        "view": _round_end_view(before, taken, session.viewer),
    }


def _note_loaded_round_end(session: Session) -> None:
    """After a load, keep the table of the round the record's last move ended, as if that
    move had just been made (a page reloaded under its round-over dialog shows it again).
    The record is replayed once more only when its last move did end a round."""
    state = session.state
    marks = session.rounds.sync(state)
    if not marks or state.is_over or session.rounds.completed < marks[-1]:
        return
    record = state.to_record()
    record["actions"] = record["actions"][:-1]
    before = _replay(record)
    _note_round_end(session, before, before.find_action(state.history[-1].id))


@_endpoint
def round_end(params: dict[str, Any]) -> dict[str, Any]:
    """The table as the round the latest move ended left it, for the seat that views the
    match: ``{round, view}`` (the page shows it under the round's result until the person
    goes on to the next round). Refused when the latest move did not end a round."""
    session = _need_session()
    if session.round_end is None:
        raise BridgeError("no_round_end", "the latest move did not end a round")
    return session.round_end


@_endpoint
def coach(params: dict[str, Any]) -> dict[str, Any]:
    """The coach of a coached round at this point: ``{shown?: [step ids], deal?: n}`` ->
    ``{messages, suggestion, done, last_cards}`` (see :mod:`engine.coach`), for the human seat;
    ``deal`` is the number of the game's deal on the table (0, the coached round, by default:
    a lesson is done once its ``until`` steps are said).

    ``{game}`` alone (no ``shown``) gives the game's coached deals instead: ``{deals}``, each
    lesson with the ``record`` that puts its position on the table (for ``load``)."""
    if "game" in params:
        game = _text(params, "game")
        if game not in engine.GAMES:
            raise BridgeError("unknown_game", f"there is no game called {game[:40]!r}")
        deals = [dict(deal) for deal in coaching.load(game).deals]
        for deal in deals[1:]:
            deal["record"] = coaching.start(game, deal).to_record()
        return {"deals": deals, "seat": coaching.PERSON}
    session = _need_session()
    shown = params.get("shown", [])
    if not isinstance(shown, list) or not all(isinstance(s, str) for s in shown):
        raise BridgeError("bad_request", "'shown' must be a list of step ids")
    number = params.get("deal", 0)
    deals = coaching.load(session.state.game_id).deals
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(deals):
        raise BridgeError("bad_request", f"'deal' must be a number from 0 to {len(deals) - 1}")
    humans = session.humans()
    if not humans:
        raise BridgeError("no_person", "the coach needs a person at the table")
    advice = coaching.advise(session.state, set(shown), humans[0], deals[number])
    action = advice["suggestion"]
    for message in advice["messages"]:
        message["text"] = session.names(message["text"])
        message["lines"] = [session.names(line) for line in message["lines"]]
    return {
        "messages": advice["messages"],
        "suggestion": session.action_json(action) if action is not None else None,
        "why": session.names(advice["why"]) if advice["why"] else None,
        "done": advice["done"],
        "last_cards": advice["last_cards"],
    }


# ----- a thinking bot's progress ----------------------------------------------------------

_progress: Callable[[float], Any] | None = None


def on_progress(callback: Callable[[float], Any] | None) -> None:
    """Report a searching bot's progress in :func:`bot_move` as ``callback(fraction)``.

    ``fraction`` rises from above 0 to 1.0 (the search is done; the move follows). Reports
    are at least :data:`PROGRESS_INTERVAL_S` apart, except that the first and the last always
    go; none comes after the last, and none at all from a bot that does not search (or has
    one legal move). ``None`` (the default) turns reporting off. A callback that raises is
    logged and not called again during that move; the move is made all the same.
    """
    global _progress
    _progress = callback


def _think(bot: Any, state: State, player: int, rng: random.Random) -> Action:
    """``bot.choose(state, player, rng)``, reporting a search's progress on the way.

    A bot with ``think`` (a generator of fractions returning the action, which ``choose``
    drives the same way) is driven here, so the choice and the rng's use are the same.
    """
    think = getattr(bot, "think", None)
    if _progress is None or think is None:
        return bot.choose(state, player, rng)
    return _drive(think(state, player, rng))


def _drive(thinking: Generator[float, None, Any]) -> Any:
    """Run a search generator (fractions done, then its result), reporting its progress to
    the sink throttled as :func:`on_progress` says; returns the generator's result."""
    sink = _progress

    def report(fraction: float) -> None:
        nonlocal sink
        if sink is None:
            return
        try:
            sink(fraction)
        except Exception as exc:  # progress is a courtesy: never lose the move over it
            sys.stderr.write(
                f"engine.bridge: the progress callback failed "
                f"({exc.__class__.__name__}: {exc}); no more progress for this move\n"
            )
            sink = None

    sent = 0.0  # the latest fraction reported
    held = None  # a later fraction the throttle held back
    sent_at = None  # when the latest report went
    while True:
        try:
            fraction = next(thinking)
        except StopIteration as done:
            if held is not None:
                report(held)
            return done.value
        fraction = min(1.0, max(float(fraction), sent))
        now = perf_counter()
        if sent_at is not None and (
            fraction <= sent or (now - sent_at < PROGRESS_INTERVAL_S and fraction < 1.0)
        ):
            held = fraction if fraction > sent else held
            continue
        report(fraction)
        sent, held, sent_at = fraction, None, now


def _analysis_of(
    session: Session, state: State, player: int, iterations: int | None
) -> analysing.Analysis:
    """The Hard search's analysis of ``state`` from ``player``'s seat, with the rng seeded by
    the number of moves made (public) and the given budget (default: the game's Hard budget,
    stopped after :data:`HINT_TIME_MS`); the latest one is kept for the same position."""
    key = (tuple(a.id for a in state.history), player, iterations)
    cached = session.analysis
    if cached is not None and cached[0][:2] == key[:2]:
        # The default budget asked for as a number is searched without a clock: what a
        # request for the default gives when its clock does not stop it first. Reused.
        asked = cached[0][2]
        if asked == iterations or (iterations is None and asked == _default_budget(state)):
            return cached[1]
    clock = HINT_TIME_MS if iterations is None else None
    rng = random.Random(len(state.history))
    result = _drive(analysing.analyse(state, player, rng, iterations, clock))
    session.analysis = (key, result)
    return result


def _default_budget(state: State) -> int:
    return settings_of(state.game_id, state.players).hard_iterations


def _analysis_json(session: Session, result: analysing.Analysis) -> dict[str, Any]:
    moves = []
    for move in result.moves:
        out = session.action_json(move.action)
        out.update(move.to_json())
        moves.append(out)
    return {
        "player": result.player,
        "measure": result.measure,
        "estimated": result.estimated,
        "iterations": result.iterations,
        "budget": result.budget,
        "best": result.best.id,
        "tied": len(result.tied()),
        "reason": session.names(result.reason(lambda action: action.label)),
        "moves": moves,
    }


def _iterations(params: dict[str, Any]) -> int | None:
    value = params.get("iterations")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BridgeError("bad_request", "'iterations' must be a whole number")
    if not 1 <= value <= MAX_ANALYSIS_ITERATIONS:
        raise BridgeError(
            "bad_request", f"'iterations' must be between 1 and {MAX_ANALYSIS_ITERATIONS}"
        )
    return value


@_endpoint
def hint(params: dict[str, Any]) -> dict[str, Any]:
    """The best move for the human seat to act, with its reason in plain words: the first
    move of :func:`analyse` for the same position and ``{iterations?}``. With ``seat``, for
    that friend's seat on its turn (the search sees only what that seat may know)."""
    session = _need_session()
    state = session.state
    current = state.current_player
    seat = _friend_seat(session, params)
    kind = "human" if seat is None else "friend"
    if current is None or session.seats[current].type != kind or seat not in (None, current):
        raise BridgeError("not_your_turn", "there is no move of yours to suggest")
    result = _analysis_of(session, state, current, _iterations(params))
    first = result.moves[0]
    return {
        "action": session.action_json(first.action),
        "level": "hard",
        "reason": session.names(result.reason(lambda action: action.label)),
        "worlds": first.worlds,
    }


@_endpoint
def analyse(params: dict[str, Any]) -> dict[str, Any]:
    """What the Hard search sees from a person's seat: ``{step?, iterations?}``.

    Without ``step``: the position now, on a human seat's turn. With ``step`` (once the
    match is over): the position before the match's ``step``-th action (0-based), which a
    human seat took; the reply then names the move taken and its rank (``taken``). The
    search works from worlds that seat could not tell apart (``determinize``); progress goes
    to the :func:`on_progress` sink. Reply: ``{player, measure, estimated, iterations,
    budget, best, reason, moves: [{id, label, cards, rank, worlds, value, win, points}],
    taken?}``; see :mod:`engine.bots.analysis` for the figures. With ``record`` (and
    ``seats``), a finished match file's ``step`` is analysed instead of the table's match,
    which is left untouched (the review of a match kept in the history).
    """
    if params.get("record") is not None:
        tape = _tape_for(params.get("record"))
        session = Session(tape.final, _seats_from(params, tape.final.players))
    else:
        session = _need_session()
    iterations = _iterations(params)
    step = params.get("step")
    if step is None:
        state = session.state
        current = state.current_player
        if current is None or session.seats[current].type != "human":
            raise BridgeError("not_your_turn", "there is no move of yours to analyse now")
        return _analysis_json(session, _analysis_of(session, state, current, iterations))
    if isinstance(step, bool) or not isinstance(step, int):
        raise BridgeError("bad_step", "'step' must be a whole number of moves")
    history = session.state.history
    if not session.state.is_over:
        raise BridgeError("not_finished", "past moves can be analysed once the match is over")
    if not 0 <= step < len(history):
        raise BridgeError("bad_step", f"'step' must be from 0 to {len(history) - 1}")
    taken = history[step]
    if session.seats[taken.player].type != "human":
        raise BridgeError("bad_step", "that move was not made by a person")
    state = _tape_for(session.state.to_record()).state_at(step)
    out = _analysis_json(session, _analysis_of(session, state, taken.player, iterations))
    mine = next(m for m in out["moves"] if m["id"] == taken.id)
    out["taken"] = {
        "id": taken.id,
        "rank": mine["rank"],
        "group": mine["group"],
        "placed": mine["placed"],
    }
    return out


@_endpoint
def undo(params: dict[str, Any]) -> dict[str, Any]:
    """Take back the human's actions since the start of their turn (see ``_undo_count``);
    with ``seat``, that friend's own (see :func:`_own_undo_count`); the reply is then that
    seat's view."""
    session = _need_session()
    seat = _friend_seat(session, params)
    count = _undo_count(session) if seat is None else _own_undo_count(session, seat)
    if not count:
        raise BridgeError("cannot_undo", _undo_refusal(session, seat))
    record = session.state.to_record()
    record["actions"] = record["actions"][:-count]
    session.state = _replay(record)
    session.round_end = None
    session.round_end_move = None
    snap = _snapshot(session)
    return snap if seat is None else _seat_snapshot(session, seat)


@_endpoint
def record(params: dict[str, Any]) -> dict[str, Any]:
    """The saved form of the match: the engine record plus the seats."""
    session = _need_session()
    return {
        "record": session.state.to_record(),
        "seats": [s.to_json() for s in session.seats],
        "practice": session.practice,
    }


@_endpoint
def load(params: dict[str, Any]) -> dict[str, Any]:
    """Resume a saved match ``{record, seats?, practice?}``; the current one is kept on error."""
    global _session
    rec = params.get("record")
    state = engine.from_record(rec)
    seats = _seats_from(params, state.players)
    practice = params.get("practice", False)
    if not isinstance(practice, bool):
        raise BridgeError("bad_request", "'practice' must be true or false")
    if state.deal is None:
        # A match saved without a fingerprint (a prepared opening, an older save) is
        # fixed from here on; the check says after which move.
        fairness.commit(state)
    _session = Session(
        state, seats, practice, bot_rng=random.Random(state.seed ^ len(state.history))
    )
    snap = _snapshot(_session)
    _note_loaded_round_end(_session)
    return snap


@_endpoint
def check_deal(params: dict[str, Any]) -> dict[str, Any]:
    """Check a finished match's ``record`` (the match in progress is left alone): its deal
    against its fingerprint and the one shown at the start (``expected``), a shared table's
    values against the ``commitments`` kept, every move, and the ``scores`` the table showed
    (see :func:`engine.deal_check.check_record`)."""
    expected = params.get("expected")
    commitments = params.get("commitments")
    scores = params.get("scores")
    if expected is not None and not isinstance(expected, str):
        raise BridgeError("bad_request", "'expected' must be a fingerprint")
    if commitments is not None and not (
        isinstance(commitments, list) and all(isinstance(c, str) for c in commitments)
    ):
        raise BridgeError("bad_request", "'commitments' must be a list of hashes")
    if scores is not None and not isinstance(scores, list):
        raise BridgeError("bad_request", "'scores' must be a list")
    return deal_check.check_record(params.get("record"), expected, commitments, scores).to_json()


def reset() -> None:
    """Forget the match in progress (tests)."""
    global _session
    _session = None


# ===== the game log by round, and replays ===============================================
# Additions only: every earlier endpoint keeps its behaviour; snapshots' log entries gain
# a "round" (1-based) so the page can group the log by round.


@dataclass
class RoundMarks:
    """The round (1-based) of each action in a match's history, kept in step with it.

    An action belongs to the round that was in play when it was taken: the number of rounds
    completed before it, plus one. Extending by the actions the page takes one at a time is
    free; after an undo the marks are cut back; anything else (a load) replays the record once.
    """

    marks: list[int] = field(default_factory=list)
    completed: int = 0  # rounds completed after the last marked action

    def sync(self, state: State) -> list[int]:
        history = state.history
        if len(self.marks) > len(history):
            del self.marks[len(history) :]
            self.completed = len(state.result().get("rounds") or [])
        elif len(self.marks) == len(history) - 1:
            self.marks.append(self.completed + 1)
            self.completed = len(state.result().get("rounds") or [])
        elif len(self.marks) != len(history):
            self.marks, self.completed = _marks_by_replay(state.to_record())
        return self.marks


def _completed_rounds(state: State) -> int:
    return len(state.result().get("rounds") or [])


def _marks_by_replay(record: dict[str, Any]) -> tuple[list[int], int]:
    """Round marks of a record's actions (replays it once)."""
    rec = dict(record)
    actions = list(rec.get("actions") or [])
    rec["actions"] = []
    state = engine.from_record(rec)
    marks = []
    for action_id in actions:
        marks.append(_completed_rounds(state) + 1)
        state.apply(action_id)
    return marks, _completed_rounds(state)


def _log_words(session: Session, viewer: int | None) -> _LogWords:
    """Every action in words as ``viewer`` may know it, with the seat and the round.

    The words of the actions already written are kept per viewer (a label depends only on
    the action, the viewer and the seats' names) and only the actions since are put into
    words: a long match does not cost more with every move. A change to what was written
    (a move taken back, a seat renamed) starts a new generation of the log.
    """
    state = session.state
    marks = session.rounds.sync(state)
    history = state.history
    names = tuple(s.name for s in session.seats)
    words = session.log_cache.get(viewer)
    if words is None or words.names != names:
        words = _next_generation(session, viewer, _LogWords(names))
    else:
        actions = words.actions
        kept, limit = 0, min(len(actions), len(history))
        while kept < limit and (actions[kept] is history[kept] or actions[kept] == history[kept]):
            kept += 1
        if kept < len(actions):  # after an undo: the words of the actions still there are kept
            kept_words = _LogWords(names, actions=actions[:kept], entries=words.entries[:kept])
            words = _next_generation(session, viewer, kept_words)
    for i in range(len(words.actions), len(history)):
        action = history[i]
        words.actions.append(action)
        words.entries.append(
            {
                "player": action.player,
                "text": session.names(state.public_label(action, viewer)),
                "round": marks[i],
            }
        )
    return words


def _next_generation(session: Session, viewer: int | None, words: _LogWords) -> _LogWords:
    """``words`` as ``viewer``'s log from now on, under a new generation."""
    session.log_generations += 1
    words.generation = f"{session.log_token}.{session.log_generations}"
    session.log_cache[viewer] = words
    return words


def _log_fields(session: Session, viewer: int | None) -> dict[str, Any]:
    """A snapshot's log: ``log_id`` names its generation (see _LogWords) and ``log`` holds the
    entries from ``log_from`` on. When the request's ``log_have`` says that the page holds
    the first n entries of this generation for this viewer, only the ones after them are
    sent (``log_from`` n); else the whole log (``log_from`` 0). A long match's snapshots
    then stay small: the page adds each move's entries to those it has (engine-client.js)."""
    words = _log_words(session, viewer)
    held = _log_have.get(json.dumps(viewer))
    start = 0
    if held is not None and held[0] == words.generation and held[1] <= len(words.entries):
        start = held[1]
    return {"log": words.entries[start:], "log_from": start, "log_id": words.generation}


LOG_GENERATION_KEYS = ("log_from", "log_id")


def whole_log(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot with its whole log as the page holds it (engine-client.js): without the
    fields that place its log entries in a generation. Only for one sent with ``log_from``
    0 (sent to a page that held none of that log)."""
    if snapshot.get("log_from", 0) != 0:
        raise ValueError("this snapshot holds only the end of its log")
    return {k: v for k, v in snapshot.items() if k not in LOG_GENERATION_KEYS}


@dataclass
class _ReplayTape:
    """A finished or unfinished record replayed once, with clones every few steps so that
    stepping backwards or jumping does not replay from the start each time."""

    key: str
    actions: list[str]
    final: State
    marks: list[int]
    checkpoints: dict[int, State]

    EVERY = 24

    @classmethod
    def of(cls, record: Any) -> _ReplayTape:
        if not isinstance(record, dict):
            raise InvalidRecord("a replay needs a record object")
        key = json.dumps(record, sort_keys=True)
        final = engine.from_record(record)  # validates the whole record
        rec = dict(record)
        actions = [a.id for a in final.history]
        rec["actions"] = []
        state = engine.from_record(rec)
        checkpoints = {0: state.clone()}
        marks = []
        for i, action_id in enumerate(actions):
            marks.append(_completed_rounds(state) + 1)
            state.apply(action_id)
            if (i + 1) % cls.EVERY == 0:
                checkpoints[i + 1] = state.clone()
        return cls(key, actions, final, marks, checkpoints)

    def state_at(self, step: int) -> State:
        if step == len(self.actions):
            return self.final.clone()
        base = max(k for k in self.checkpoints if k <= step)
        state = self.checkpoints[base].clone()
        for action_id in self.actions[base:step]:
            state.apply(action_id)
        return state


_tape: _ReplayTape | None = None


def _tape_for(record: Any) -> _ReplayTape:
    global _tape
    key = json.dumps(record, sort_keys=True) if isinstance(record, dict) else None
    if _tape is None or key is None or _tape.key != key:
        _tape = _ReplayTape.of(record)
    return _tape


def revealed_hands(state: State) -> list[dict[str, Any]]:
    """What each seat alone could see, for every seat: the parts of ``view(seat)`` that a
    spectator's view does not show (a hand, a drawn card, a secret bid). Generic over games."""
    public = state.view(None)
    out = []
    for seat in range(state.players):
        own = state.view(seat)
        private = {
            key: value for key, value in own.items() if key not in public or public[key] != value
        }
        # The seat's own identity (``you``, ``viewer``, ``player``) is not a secret.
        private = {
            key: value
            for key, value in private.items()
            if not (isinstance(value, int) and not isinstance(value, bool) and value == seat)
        }
        out.append({"seat": seat, "private": private})
    return out


@_endpoint
def replay(params: dict[str, Any]) -> dict[str, Any]:
    """A recorded match at one step: ``{record, seats?, step?, viewer?, reveal?}``.

    Returns a snapshot-shaped reply (no legal actions: a replay is read-only) for the
    viewer (default: the first human seat) after ``step`` actions (default: the end; out of
    range steps are clamped), plus ``replay``: ``{step, steps, finished, reveal, last,
    hands}``. ``reveal`` shows every seat's hidden cards and the full log; it is refused
    unless the recorded match is over. The match in progress, if any, is untouched.
    """
    tape = _tape_for(params.get("record"))
    steps = len(tape.actions)
    finished = tape.final.is_over
    step = params.get("step", steps)
    if isinstance(step, bool) or not isinstance(step, int):
        raise BridgeError("bad_step", "'step' must be a whole number of moves")
    step = max(0, min(steps, step))
    reveal = params.get("reveal", False)
    if not isinstance(reveal, bool):
        raise BridgeError("bad_request", "'reveal' must be true or false")
    if reveal and not finished:
        raise BridgeError("not_finished", "the hands can only be shown once the match is over")
    seats = _seats_from(params, tape.final.players)
    humans = [i for i, s in enumerate(seats) if s.type == "human"]
    viewer = params.get("viewer", humans[0] if humans else None)
    if viewer is not None and (
        isinstance(viewer, bool)
        or not isinstance(viewer, int)
        or not 0 <= viewer < tape.final.players
    ):
        raise BridgeError("bad_request", "'viewer' must be a seat number")
    state = tape.state_at(step)
    session = Session(state, seats)
    last = None
    if step:
        taken = state.history[step - 1]
        last = session.action_json(taken, viewer, public=not reveal)
        last["player"] = taken.player
        last["round"] = tape.marks[step - 1]
    log = [
        {
            "player": a.player,
            "round": tape.marks[i],
            "text": session.names(a.label if reveal else state.public_label(a, viewer)),
        }
        for i, a in enumerate(state.history)
    ]
    return {
        "game": state.game_id,
        "title": engine.GAMES[state.game_id].title,
        "players": state.players,
        "options": state.options,
        "seats": [s.to_json() for s in seats],
        "practice": bool(params.get("practice", False) is True),
        "viewer": viewer,
        "current_player": state.current_player,
        "human_turn": False,
        "bot_turn": False,
        "is_over": state.is_over,
        "view": state.view(viewer),
        "legal": [],
        "result": state.result(),
        "log": log,
        "can_undo": False,
        "moves": step,
        "deal": fairness.public(tape.final.deal, tape.final.seed, finished),
        "replay": {
            "step": step,
            "steps": steps,
            "finished": finished,
            "reveal": reveal,
            "last": last,
            "round": tape.marks[step - 1] if step else 1,
            "hands": [{**h, "name": seats[h["seat"]].name} for h in revealed_hands(state)]
            if reveal
            else None,
        },
    }


# ===== shared matches: friends' seats on their own devices ==============================
# A seat of type "friend" is a person playing from another device through the host's page
# (web/js/features/together/). The host's engine holds the match; the page forwards to each friend
# only seat_view(seat) and passes back the action ids that friend sends (act, why and undo
# with ``seat``), which are validated here like any input.


def _friend_seat(session: Session, params: dict[str, Any]) -> int | None:
    """The ``seat`` of a request made for a friend, or None for the host's own request."""
    seat = params.get("seat")
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(session.seats):
        raise BridgeError("bad_seat", "'seat' must be a seat number")
    if session.seats[seat].type != "friend":
        raise BridgeError("bad_seat", f"seat {seat + 1} is not a friend's seat")
    return seat


def _own_undo_count(session: Session, seat: int) -> int:
    """How many trailing actions ``seat`` may take back in a shared match: its own latest
    move (the actions of its latest turn), only while no other player has acted since, and
    never past an action that revealed a hidden card."""
    state = session.state
    history = state.history
    if state.is_over or not history or history[-1].player != seat:
        return 0
    return _trailing_own_actions(state, seat)


def _undo_refusal(session: Session, seat: int | None) -> str:
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


def _seat_snapshot(session: Session, seat: int) -> dict[str, Any]:
    """A snapshot of the match for ``seat`` only: what that seat may see and do.

    The same shape as the host's snapshot; the seat is the viewer and the one "human" seat,
    other people are "friend" seats; ``last`` is the latest action as that seat may know it
    and ``round_end`` the table as the latest move's round ended, from that seat."""
    state = session.state
    current = state.current_player
    own_turn = current is not None and current == seat
    seats = [
        {
            "type": "human" if i == seat else ("bot" if s.type == "bot" else "friend"),
            "level": s.level if s.type == "bot" else None,
            "name": s.name,
        }
        for i, s in enumerate(session.seats)
    ]
    round_end = None
    if session.round_end is not None and session.round_end_move is not None:
        before, taken = session.round_end_move
        round_end = {
            "round": session.round_end["round"],
            "view": _round_end_view(before, taken, seat),
        }
    return {
        "game": state.game_id,
        "title": engine.GAMES[state.game_id].title,
        "players": state.players,
        "options": state.options,
        "seats": seats,
        "practice": False,
        "viewer": seat,
        "current_player": current,
        "human_turn": own_turn,
        "bot_turn": False,
        "is_over": state.is_over,
        "view": state.view(seat),
        "legal": [session.action_json(a) for a in state.legal_actions()] if own_turn else [],
        "result": state.result(),
        **_log_fields(session, seat),
        "can_undo": bool(_own_undo_count(session, seat)),
        "moves": len(state.history),
        "deal": fairness.public(state.deal, state.seed, state.is_over),
        "last": _last_action(session, seat),
        "round_end": round_end,
    }


@_endpoint
def seat_view(params: dict[str, Any]) -> dict[str, Any]:
    """The match as the friend's seat ``{seat}`` may see it, for that friend's device."""
    session = _need_session()
    seat = _friend_seat(session, params)
    if seat is None:
        raise BridgeError("bad_seat", "give the friend's 'seat'")
    return _seat_snapshot(session, seat)


@_endpoint
def set_seat(params: dict[str, Any]) -> dict[str, Any]:
    """Change a friend's seat: ``{seat, name?}`` names it (each friend chooses a name),
    ``{seat, level}`` hands it to a computer at that level for the rest of the match, and
    ``{seat, level, stand_in: true}`` until the friend comes back, ``{seat, back: true}``:
    the moves it makes are the record's ``stand_in``. The reply is the host's snapshot."""
    session = _need_session()
    if params.get("back") is True:
        seat = params.get("seat")
        if not (isinstance(seat, int) and 0 <= seat < len(session.seats)) or isinstance(seat, bool):
            raise BridgeError("bad_seat", "'seat' must be a seat number")
        if not session.seats[seat].stand_in:
            raise BridgeError("bad_seat", f"seat {seat + 1} is not played for a friend")
        session.seats[seat] = Seat("friend", None, session.seats[seat].name)
        return _snapshot(session)
    seat = _friend_seat(session, params)
    if seat is None:
        raise BridgeError("bad_seat", "give the friend's 'seat'")
    name = params.get("name")
    level = params.get("level")
    if name is not None:
        if not isinstance(name, str):
            raise BridgeError("bad_request", "a seat's name must be text")
        session.seats[seat].name = name.strip()[:MAX_NAME_CHARS] or default_name(seat)
    if level is not None:
        level = bots.ALIASES.get(level, level) if isinstance(level, str) else level
        levels = available_levels()
        if level not in levels:
            raise BridgeError(
                "bad_seats", f"unknown opponent level {level!r}; choose one of {', '.join(levels)}"
            )
        stand_in = params.get("stand_in") is True
        session.seats[seat] = Seat("bot", level, session.seats[seat].name, stand_in)
    return _snapshot(session)

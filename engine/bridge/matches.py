"""The endpoints of the match on the table: the games on offer, start and load a match, play
a person's move or a bot's, take moves back, save it, and check a finished match's deal.

>>> import json
>>> snap = json.loads(start('{"game": "crisps", "seed": 1}'))
>>> json.loads(why(json.dumps({"action": snap["legal"][0]["id"]})))
{'legal': True, 'reason': None}
>>> json.loads(undo())["error"]["code"]
'cannot_undo'
>>> reset()
"""

from __future__ import annotations

import random
from typing import Any

import engine
from engine import deal_check, fairness
from engine.bridge.desk import DESK
from engine.bridge.plumbing import BridgeError, endpoint, text
from engine.bridge.progress import think
from engine.bridge.rounds import note_loaded_round_end, note_round_end
from engine.bridge.session import (
    Session,
    available_levels,
    friend_seat,
    own_undo_count,
    seats_from,
    undo_count,
    undo_refusal,
)
from engine.bridge.snapshots import host_snapshot, seat_snapshot
from engine.core import IllegalAction, State


@endpoint
def games(params: dict[str, Any]) -> dict[str, Any]:
    """Every game with its options, player counts and house clarifications; bot levels."""
    return {
        "games": [spec.to_json() for spec in engine.GAMES.values()],
        "levels": available_levels(),
    }


@endpoint
def start(params: dict[str, Any]) -> dict[str, Any]:
    """Start a match: ``{game, players?, seats?, seed?, options?, practice?}``."""
    game = text(params, "game")
    if game not in engine.GAMES:
        raise BridgeError(f"there is no game called {game[:40]!r}", "unknown_game")
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
        raise BridgeError("'practice' must be true or false", "bad_request")
    values = joint_values(params)
    if values:
        seed = fairness.joint_seed(values)
    state = engine.new_game(game, players, seed, params.get("options"))
    seats = seats_from(params, state.players)
    fairness.commit(state, values=values)
    DESK.session = Session(state, seats, practice, bot_rng=random.Random(seed ^ 0x5EED))
    return host_snapshot(DESK.session)


def joint_values(params: dict[str, Any]) -> list[str]:
    """A shared table's ``values`` (each device's, in seat order), each checked against its
    ``commitments`` entry: the seed is then made of them (see :mod:`engine.fairness`)."""
    values = params.get("values")
    if values is None:
        return []
    commitments = params.get("commitments")
    if not isinstance(values, list) or not isinstance(commitments, list):
        raise BridgeError("'values' and 'commitments' must be lists", "bad_request")
    try:
        fairness.joint_seed_from(commitments, values)
    except fairness.FairnessError as exc:
        raise BridgeError(str(exc), "bad_reveal") from exc
    return [str(v) for v in values]


@endpoint
def snapshot(params: dict[str, Any]) -> dict[str, Any]:
    """The current match as the viewing seat sees it (with the round's end, as a move's
    reply: see :func:`move_reply`)."""
    session = DESK.need_session()
    return with_round_end(session, host_snapshot(session))


@endpoint
def act(params: dict[str, Any]) -> dict[str, Any]:
    """Take the action ``{action: id}`` for the human seat whose turn it is; with ``seat``,
    for that friend's seat (see ``seat_view``): the reply is then shaped like
    :func:`bot_move`'s, for the host (``action``, ``snapshot``), plus ``seat_view``. The
    snapshot brings the round's end and ``{save: true}`` the save (see :func:`move_reply`)."""
    session = DESK.need_session()
    action_id = text(params, "action")
    seat = friend_seat(session, params)
    current = session.state.current_player
    if current is None:
        raise BridgeError("the match is over", "match_over")
    if session.seats[current].type != ("human" if seat is None else "friend") or (
        seat is not None and current != seat
    ):
        raise BridgeError("it is not your turn: another player is to move", "not_your_turn")
    before = session.state.clone()
    try:
        taken = session.state.apply(action_id)
    except IllegalAction as exc:
        raise BridgeError(session.names(exc.message), exc.code) from exc
    snap = host_snapshot(session)
    note_round_end(session, before, taken)
    if seat is None:
        return move_reply(session, params, snap, snap)
    reply = {
        "action": session.action_json(taken, session.viewer, public=True),
        "snapshot": snap,
        "seat_view": seat_snapshot(session, seat),
    }
    return move_reply(session, params, snap, reply)


@endpoint
def why(params: dict[str, Any]) -> dict[str, Any]:
    """Why ``{action: id}`` cannot be played now (``{"legal": true}`` when it can)."""
    session = DESK.need_session()
    action_id = text(params, "action")
    seat = friend_seat(session, params)
    if seat is not None and session.state.current_player != seat:
        return {"legal": False, "reason": "it is not your turn"}
    try:
        session.state.find_action(action_id)
    except IllegalAction as exc:
        return {"legal": False, "reason": session.names(exc.message)}
    return {"legal": True, "reason": None}


@endpoint
def bot_move(params: dict[str, Any]) -> dict[str, Any]:
    """Let the bot whose turn it is take one action: ``{action, snapshot}``, the snapshot
    with the round's end and ``{save: true}`` the save (see :func:`move_reply`)."""
    session = DESK.need_session()
    state = session.state
    current = state.current_player
    if current is None:
        raise BridgeError("the match is over", "match_over")
    if session.seats[current].type != "bot":
        raise BridgeError("it is a person's turn, not a bot's", "not_bot_turn")
    action = think(session.bot(current), state, current, session.bot_rng)
    before = state.clone()
    if session.seats[current].stand_in:
        state.stand_in = (*state.stand_in, len(state.history))
    taken = state.apply(action)
    snap = host_snapshot(session)
    note_round_end(session, before, taken)
    reply = {"action": session.action_json(taken, session.viewer, public=True), "snapshot": snap}
    return move_reply(session, params, snap, reply)


def move_reply(
    session: Session, params: dict[str, Any], snap: dict[str, Any], reply: dict[str, Any]
) -> dict[str, Any]:
    """A move's ``reply`` (``snap`` is its snapshot, the reply itself or in it) with what the
    page needs after a move, so that a move is one request: the snapshot's ``round_end``
    (what ``round_end`` answers) when the move ended a round and the match goes on, and
    with ``{save: true}`` the reply's ``save``, what :func:`record` answers."""
    with_round_end(session, snap)
    if params.get("save") is True:
        reply["save"] = saved(session)
    return reply


def with_round_end(session: Session, snap: dict[str, Any]) -> dict[str, Any]:
    """``snap`` with the table as the latest move's round ended, when it ended one."""
    if session.round_end is not None:
        snap["round_end"] = session.round_end
    return snap


@endpoint
def undo(params: dict[str, Any]) -> dict[str, Any]:
    """Take back the human's actions since the start of their turn (see
    ``session.undo_count``); with ``seat``, that friend's own (``own_undo_count``); the reply
    is then that seat's view. ``{save: true}``: with the save (see :func:`move_reply`)."""
    session = DESK.need_session()
    seat = friend_seat(session, params)
    count = undo_count(session) if seat is None else own_undo_count(session, seat)
    if not count:
        raise BridgeError(undo_refusal(session, seat), "cannot_undo")
    record = session.state.to_record()
    record["actions"] = record["actions"][:-count]
    session.state = replayed(record)
    session.round_end = None
    session.round_end_move = None
    snap = host_snapshot(session)
    if seat is None:
        return move_reply(session, params, snap, snap)
    return seat_snapshot(session, seat)


def replayed(record: dict[str, Any]) -> State:
    """The position of a record, replayed from its deal (a move's worth of time per move)."""
    return engine.from_record(record)


@endpoint
def record(params: dict[str, Any]) -> dict[str, Any]:
    """The saved form of the match: the engine record plus the seats."""
    return saved(DESK.need_session())


def saved(session: Session) -> dict[str, Any]:
    """The match's saved form (see :func:`record`)."""
    return {
        "record": session.state.to_record(),
        "seats": [s.to_json() for s in session.seats],
        "practice": session.practice,
    }


@endpoint
def load(params: dict[str, Any]) -> dict[str, Any]:
    """Resume a saved match ``{record, seats?, practice?}``; the current one is kept on error."""
    rec = params.get("record")
    state = engine.from_record(rec)
    seats = seats_from(params, state.players)
    practice = params.get("practice", False)
    if not isinstance(practice, bool):
        raise BridgeError("'practice' must be true or false", "bad_request")
    if state.deal is None:
        # A match saved without a fingerprint (a prepared opening, an older save) is
        # fixed from here on; the check says after which move.
        fairness.commit(state)
    DESK.session = Session(
        state, seats, practice, bot_rng=random.Random(state.seed ^ len(state.history))
    )
    snap = host_snapshot(DESK.session)
    note_loaded_round_end(DESK.session)
    return snap


@endpoint
def check_deal(params: dict[str, Any]) -> dict[str, Any]:
    """Check a finished match's ``record`` (the match in progress is left alone): its deal
    against its fingerprint and the one shown at the start (``expected``), a shared table's
    values against the ``commitments`` kept, every move, the ``scores`` the table showed, and
    what a friend's device was shown for its seat (``seen``: ``{seat, moves, view}``; see
    :func:`engine.deal_check.check_record`)."""
    expected = params.get("expected")
    commitments = params.get("commitments")
    scores = params.get("scores")
    if expected is not None and not isinstance(expected, str):
        raise BridgeError("'expected' must be a fingerprint", "bad_request")
    if commitments is not None and not (
        isinstance(commitments, list) and all(isinstance(c, str) for c in commitments)
    ):
        raise BridgeError("'commitments' must be a list of hashes", "bad_request")
    if scores is not None and not isinstance(scores, list):
        raise BridgeError("'scores' must be a list", "bad_request")
    seen = params.get("seen")
    if seen is not None and not isinstance(seen, dict):
        raise BridgeError("'seen' must be an object", "bad_request")
    return deal_check.check_record(
        params.get("record"), expected, commitments, scores, seen
    ).to_json()


def reset() -> None:
    """Forget the match in progress and any analysis kept unfinished (tests)."""
    DESK.session = None
    DESK.search = None

"""Friends' seats: a seat of type "friend" is a person playing from another device through the
host's page (web/js/features/together/). The host's engine holds the match; the page
forwards to each friend only ``seat_view(seat)`` and passes back the action ids that friend
sends (``act``, ``why``, ``hint`` and ``undo`` with ``seat``), which are checked like any
input.

>>> import json
>>> from engine.bridge import reset, start
>>> seats = [{"type": "human"}, {"type": "friend"}]
>>> _ = start(json.dumps({"game": "crisps", "seed": 1, "seats": seats}))
>>> view = json.loads(seat_view('{"seat": 1}'))
>>> view["viewer"], [seat["type"] for seat in view["seats"]]
(1, ['friend', 'human'])
>>> reset()
"""

from __future__ import annotations

from typing import Any

from engine.bridge.desk import DESK
from engine.bridge.plumbing import BridgeError, endpoint
from engine.bridge.session import MAX_NAME_CHARS, Seat, bot_level, default_name, friend_seat
from engine.bridge.snapshots import host_snapshot, seat_snapshot


@endpoint
def seat_view(params: dict[str, Any]) -> dict[str, Any]:
    """The match as the friend's seat ``{seat}`` may see it, for that friend's device."""
    session = DESK.need_session()
    seat = friend_seat(session, params)
    if seat is None:
        raise BridgeError("give the friend's 'seat'", "bad_seat")
    return seat_snapshot(session, seat)


@endpoint
def set_seat(params: dict[str, Any]) -> dict[str, Any]:
    """Change a friend's seat: ``{seat, name?}`` names it (each friend chooses a name),
    ``{seat, level}`` hands it to a computer at that level for the rest of the match, and
    ``{seat, level, stand_in: true}`` until the friend comes back, ``{seat, back: true}``:
    the moves it makes are the record's ``stand_in``. The reply is the host's snapshot."""
    session = DESK.need_session()
    if params.get("back") is True:
        seat = params.get("seat")
        if not (isinstance(seat, int) and 0 <= seat < len(session.seats)) or isinstance(seat, bool):
            raise BridgeError("'seat' must be a seat number", "bad_seat")
        if not session.seats[seat].stand_in:
            raise BridgeError(f"seat {seat + 1} is not played for a friend", "bad_seat")
        session.seats[seat] = Seat("friend", None, session.seats[seat].name)
        return host_snapshot(session)
    seat = friend_seat(session, params)
    if seat is None:
        raise BridgeError("give the friend's 'seat'", "bad_seat")
    name = params.get("name")
    level = params.get("level")
    if name is not None:
        if not isinstance(name, str):
            raise BridgeError("a seat's name must be text", "bad_request")
        session.seats[seat].name = name.strip()[:MAX_NAME_CHARS] or default_name(seat)
    if level is not None:
        stand_in = params.get("stand_in") is True
        session.seats[seat] = Seat("bot", bot_level(level), session.seats[seat].name, stand_in)
    return host_snapshot(session)

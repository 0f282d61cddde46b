"""The snapshot: what one page is told of a match, the same shape for the host's table, a
friend's seat and a replay (one builder, :func:`snapshot_of`).

>>> from engine.bridge.session import seats_from
>>> session = Session(engine.new_game("crisps", 2, 3), seats_from({}, 2))
>>> snap = host_snapshot(session)
>>> snap["viewer"], snap["moves"], snap["human_turn"] == bool(snap["legal"])
(0, 0, True)
"""

from __future__ import annotations

from typing import Any

import engine
from engine import fairness
from engine.bridge.rounds import seat_round_end
from engine.bridge.session import Seat, Session, own_undo_count, undo_count
from engine.core import State


def snapshot_of(
    session: Session,
    viewer: int | None,
    seats: list[Seat],
    *,
    practice: bool,
    log: dict[str, Any],
    can_undo: bool,
    moves_bots: bool,
    read_only: bool = False,
    dealt: State | None = None,
) -> dict[str, Any]:
    """``session``'s match as ``viewer`` sees it, with the ``seats`` as that page knows them
    (the one person on it is "human"). ``moves_bots``: the page drives the bots' turns (the
    host); ``read_only``: nothing may be played (a replay); ``dealt``: the position whose deal
    is shown, when not this one (a replay's: the recorded match's end)."""
    state = session.state
    current = state.current_player
    seat = seats[current] if current is not None else None
    human_turn = seat is not None and seat.type == "human" and not read_only
    dealt = dealt or state
    return {
        "game": state.game_id,
        "title": engine.GAMES[state.game_id].title,
        "players": state.players,
        "options": state.options,
        "seats": [s.to_json() for s in seats],
        "practice": practice,
        "viewer": viewer,
        "current_player": current,
        "human_turn": human_turn,
        "bot_turn": seat is not None and seat.type == "bot" and moves_bots,
        "is_over": state.is_over,
        "view": state.view(viewer),
        "legal": [session.action_json(a) for a in state.legal_actions()] if human_turn else [],
        "result": state.result(),
        **log,
        "can_undo": can_undo,
        "moves": len(state.history),
        "deal": fairness.public(dealt.deal, dealt.seed, dealt.is_over),
    }


def choose_viewer(session: Session) -> int | None:
    humans = session.humans()
    if not humans:
        return None
    current = session.state.current_player
    if current is not None and current in humans:
        return current
    if session.viewer in humans:
        return session.viewer
    return humans[0]


def host_snapshot(session: Session) -> dict[str, Any]:
    """The match as the host's page sees it (the viewer: the person to move, else the one
    who viewed it last)."""
    session.viewer = choose_viewer(session)
    return snapshot_of(
        session,
        session.viewer,
        session.seats,
        practice=session.practice,
        log=session.log_fields(session.viewer),
        can_undo=bool(undo_count(session)),
        moves_bots=True,
    )


def seat_snapshot(session: Session, seat: int) -> dict[str, Any]:
    """A snapshot of the match for ``seat`` only: what that seat may see and do.

    The same shape as the host's snapshot; the seat is the viewer and the one "human" seat,
    other people are "friend" seats; ``last`` is the latest action as that seat may know it
    and ``round_end`` the table as the latest move's round ended, from that seat."""
    seen = [
        Seat(
            "human" if i == seat else ("bot" if s.type == "bot" else "friend"),
            s.level if s.type == "bot" else None,
            s.name,
        )
        for i, s in enumerate(session.seats)
    ]
    snap = snapshot_of(
        session,
        seat,
        seen,
        practice=False,
        log=session.log_fields(seat),
        can_undo=bool(own_undo_count(session, seat)),
        moves_bots=False,
    )
    snap["last"] = session.last_action(seat)
    snap["round_end"] = seat_round_end(session, seat)
    return snap

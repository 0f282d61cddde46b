"""The table as a round left it: kept when a move ends a round (and after a load whose last
move did), shown by the page under the round's result until the next round is dealt.

>>> state = engine.new_game("crisps", 2, 3)
>>> round_end_view(state, state.legal_actions()[0], 0)
Traceback (most recent call last):
...
engine.bridge.plumbing.BridgeError: that move did not end a round
"""

from __future__ import annotations

from typing import Any

import engine
from engine.bridge.desk import DESK
from engine.bridge.logs import completed_rounds
from engine.bridge.plumbing import BridgeError, endpoint
from engine.bridge.session import Session
from engine.core import Action, State


def round_end_view(before: State, action: Action, viewer: int | None) -> dict[str, Any]:
    """The table as ``action`` left it when it ended a round: ``before`` (the position it
    was taken in) is copied and the action applied to the copy, stopped at the core's
    round-end hook before the next deal (:meth:`State.at_round_end`). The match itself is
    not touched."""
    world = before.at_round_end(action)
    if world is None:
        raise BridgeError("that move did not end a round", "no_round_end")
    return world.view(viewer)


def note_round_end(session: Session, before: State, taken: Action) -> None:
    """Keep the table of the round ``taken`` ended, when it ended one and the match goes on
    (see :func:`round_end`); forget it otherwise."""
    state = session.state
    session.round_end = None
    session.round_end_move = None
    if state.is_over or completed_rounds(state) <= completed_rounds(before):
        return
    session.round_end_move = (before, taken)
    session.round_end = {
        "round": completed_rounds(state),
        "view": round_end_view(before, taken, session.viewer),
    }


def note_loaded_round_end(session: Session) -> None:
    """After a load, keep the table of the round the record's last move ended, as if that
    move had just been made (a page reloaded under its round-over dialog shows it again).
    The record is replayed once more only when its last move did end a round."""
    state = session.state
    marks = session.rounds.sync(state)
    if not marks or state.is_over or session.rounds.completed < marks[-1]:
        return
    record = state.to_record()
    record["actions"] = record["actions"][:-1]
    before = engine.from_record(record)
    note_round_end(session, before, before.find_action(state.history[-1].id))


def seat_round_end(session: Session, seat: int) -> dict[str, Any] | None:
    """The table as the latest move's round ended, from ``seat`` (None: it ended none)."""
    if session.round_end is None or session.round_end_move is None:
        return None
    before, taken = session.round_end_move
    return {"round": session.round_end["round"], "view": round_end_view(before, taken, seat)}


@endpoint
def round_end(params: dict[str, Any]) -> dict[str, Any]:
    """The table as the round the latest move ended left it, for the seat that views the
    match: ``{round, view}`` (the page shows it under the round's result until the person
    goes on to the next round). Refused when the latest move did not end a round."""
    session = DESK.need_session()
    if session.round_end is None:
        raise BridgeError("the latest move did not end a round", "no_round_end")
    return session.round_end

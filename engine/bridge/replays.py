"""The ``replay`` endpoint: a recorded match at one step, read-only, for the replay screen;
the match in progress is left as it was.

>>> import json
>>> import engine
>>> record = engine.new_game("crisps", 2, 1).to_record()
>>> reply = json.loads(replay(json.dumps({"record": record})))
>>> reply["replay"]["steps"], reply["legal"], reply["human_turn"]
(0, [], False)
"""

from __future__ import annotations

from typing import Any

from engine.bridge.desk import DESK
from engine.bridge.logs import stand_in_mark
from engine.bridge.plumbing import BridgeError, endpoint
from engine.bridge.session import Session, seats_from
from engine.bridge.snapshots import snapshot_of
from engine.bridge.tape import revealed_hands


@endpoint
def replay(params: dict[str, Any]) -> dict[str, Any]:
    """A recorded match at one step: ``{record, seats?, step?, viewer?, reveal?}``.

    Returns a snapshot-shaped reply (no legal actions: a replay is read-only) for the
    viewer (default: the first human seat) after ``step`` actions (default: the end; out of
    range steps are clamped), plus ``replay``: ``{step, steps, finished, reveal, last,
    hands}``. ``reveal`` shows every seat's hidden cards and the full log; it is refused
    unless the recorded match is over. The match in progress, if any, is untouched.
    """
    tape = DESK.tape_for(params.get("record"))
    steps = len(tape.actions)
    finished = tape.final.is_over
    step = params.get("step", steps)
    if isinstance(step, bool) or not isinstance(step, int):
        raise BridgeError("'step' must be a whole number of moves", "bad_step")
    step = max(0, min(steps, step))
    reveal = params.get("reveal", False)
    if not isinstance(reveal, bool):
        raise BridgeError("'reveal' must be true or false", "bad_request")
    if reveal and not finished:
        raise BridgeError("the hands can only be shown once the match is over", "not_finished")
    seats = seats_from(params, tape.final.players)
    humans = [i for i, s in enumerate(seats) if s.type == "human"]
    viewer = params.get("viewer", humans[0] if humans else None)
    if viewer is not None and (
        isinstance(viewer, bool)
        or not isinstance(viewer, int)
        or not 0 <= viewer < tape.final.players
    ):
        raise BridgeError("'viewer' must be a seat number", "bad_request")
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
            **stand_in_mark(tape.final, i),
        }
        for i, a in enumerate(state.history)
    ]
    snap = snapshot_of(
        session,
        viewer,
        seats,
        practice=params.get("practice", False) is True,
        log={"log": log},
        can_undo=False,
        moves_bots=False,
        read_only=True,
        dealt=tape.final,
    )
    snap["replay"] = {
        "step": step,
        "steps": steps,
        "finished": finished,
        "reveal": reveal,
        "last": last,
        "round": tape.marks[step - 1] if step else 1,
        "hands": [{**h, "name": seats[h["seat"]].name} for h in revealed_hands(state)]
        if reveal
        else None,
    }
    return snap

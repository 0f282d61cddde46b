"""The replay tape: a recorded match replayed once, with a copy of the position every few
moves, so that stepping back or jumping through a replay does not replay it from the start.

>>> state = engine.new_game("crisps", 2, 3)
>>> for _ in range(3):
...     _ = state.apply(state.legal_actions()[0].id)
>>> tape = ReplayTape.of(state.to_record())
>>> len(tape.actions), tape.state_at(1).history[0] == state.history[0]
(3, True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import engine
from engine.bridge.logs import completed_rounds
from engine.core import InvalidRecord, State


@dataclass
class ReplayTape:
    """A finished or unfinished record replayed once, with clones every few steps."""

    key: str
    actions: list[str]
    final: State
    marks: list[int]
    checkpoints: dict[int, State]

    EVERY = 24

    @staticmethod
    def key_of(record: Any) -> str | None:
        """What tells two records apart (None: not a record object)."""
        return json.dumps(record, sort_keys=True) if isinstance(record, dict) else None

    @classmethod
    def of(cls, record: Any) -> ReplayTape:
        key = cls.key_of(record)
        if key is None:
            raise InvalidRecord("a replay needs a record object")
        final = engine.from_record(record)  # validates the whole record
        rec = dict(record)
        actions = [a.id for a in final.history]
        rec["actions"] = []
        state = engine.from_record(rec)
        checkpoints = {0: state.clone()}
        marks = []
        for i, action_id in enumerate(actions):
            marks.append(completed_rounds(state) + 1)
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

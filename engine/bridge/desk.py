"""What the bridge keeps from one request to the next, in one place: the match in progress,
the latest replay tape and where a thinking bot's progress goes. The worker holds one Python
runtime, so one desk (:data:`DESK`); nothing else in the bridge outlives a request.

>>> Desk().need_session()
Traceback (most recent call last):
...
engine.bridge.plumbing.BridgeError: no match is in progress
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.bridge.plumbing import BridgeError
from engine.bridge.session import Session
from engine.bridge.tape import ReplayTape


@dataclass
class Desk:
    session: Session | None = None
    """The match in progress (``start`` or ``load`` puts one there, ``reset`` clears it)."""
    tape: ReplayTape | None = None
    """The latest record replayed (a replay steps through it, the review analyses it)."""
    progress: Callable[[float], Any] | None = None
    """Where a searching bot reports how far it is (see progress.py); None: nowhere."""
    search: Any = None
    """The analysis that ``analyse`` in slices left unfinished (advice.KeptSearch), which
    ``analyse {more: true}`` goes on with; None: none."""

    def need_session(self) -> Session:
        if self.session is None:
            raise BridgeError("no match is in progress", "no_match")
        return self.session

    def tape_for(self, record: Any) -> ReplayTape:
        """The tape of ``record``: the one kept when it is of the same record."""
        key = ReplayTape.key_of(record)
        if self.tape is None or key is None or self.tape.key != key:
            self.tape = ReplayTape.of(record)
        return self.tape


DESK = Desk()

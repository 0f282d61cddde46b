"""The game log of a match: each action's round, each viewer's log in words, and its
generations (so that a page holding the start of a log is sent only the entries after it).

An action belongs to the round that was in play when it was taken: the number of rounds
completed before it, plus one. A snapshot's log entries carry that ``round`` (1-based) so the
page can group the log by round.

>>> reply = {"viewer": 0, "log": [{"text": "a"}, {"text": "b"}], "log_from": 0, "log_id": "g.1"}
>>> send_held(reply, {"0": ("g.1", 1)})
>>> reply["log"], reply["log_from"]
([{'text': 'b'}], 1)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.core import Action, State

LOG_GENERATION_KEYS = ("log_from", "log_id")

SNAPSHOT_PLACES = ("snapshot", "seat_view")
"""Where a reply holds snapshots besides being one: a bot's move's and a friend's seat's (the
page's web/js/held-logs.js reads the same places)."""


def completed_rounds(state: State) -> int:
    return len(state.result().get("rounds") or [])


def marks_by_replay(record: dict[str, Any]) -> tuple[list[int], int]:
    """Round marks of a record's actions (replays it once)."""
    rec = dict(record)
    actions = list(rec.get("actions") or [])
    rec["actions"] = []
    state = engine.from_record(rec)
    marks = []
    for action_id in actions:
        marks.append(completed_rounds(state) + 1)
        state.apply(action_id)
    return marks, completed_rounds(state)


@dataclass
class RoundMarks:
    """The round (1-based) of each action in a match's history, kept in step with it.

    Extending by the actions the page takes one at a time is free; after an undo the marks
    are cut back; anything else (a load) replays the record once.
    """

    marks: list[int] = field(default_factory=list)
    completed: int = 0  # rounds completed after the last marked action

    def sync(self, state: State) -> list[int]:
        history = state.history
        if len(self.marks) > len(history):
            del self.marks[len(history) :]
            self.completed = completed_rounds(state)
        elif len(self.marks) == len(history) - 1:
            self.marks.append(self.completed + 1)
            self.completed = completed_rounds(state)
        elif len(self.marks) != len(history):
            self.marks, self.completed = marks_by_replay(state.to_record())
        return self.marks


@dataclass
class LogWords:
    """One viewer's log so far: the seats' names it was written with, the actions put into
    words and their entries, and its generation. Within one generation entries are only ever
    added at the end; anything else (a move taken back, a seat renamed) starts a new one. So
    a page that holds a generation's first n entries needs only the entries after them."""

    names: tuple[str, ...]
    generation: str = ""  # set by MatchLog.next_generation
    actions: list[Action] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class MatchLog:
    """A match's logs in words, one per viewer, and the names of their generations."""

    cache: dict[int | None, LogWords] = field(default_factory=dict)
    """Per viewer: the actions already put into words and their log entries."""
    token: str = field(default_factory=lambda: f"{random.SystemRandom().getrandbits(48):x}")
    """Names this match's log generations, so that no generation of an earlier match or an
    earlier engine is taken for one of this match."""
    generations: int = 0

    def next_generation(self, viewer: int | None, words: LogWords) -> LogWords:
        """``words`` as ``viewer``'s log from now on, under a new generation."""
        self.generations += 1
        words.generation = f"{self.token}.{self.generations}"
        self.cache[viewer] = words
        return words

    def words(
        self,
        state: State,
        marks: list[int],
        names: tuple[str, ...],
        naming: Callable[[str], str],
        viewer: int | None,
    ) -> LogWords:
        """Every action in words as ``viewer`` may know it, with the seat and the round.

        The words of the actions already written are kept per viewer (a label depends only on
        the action, the viewer and the seats' ``names``; ``naming`` puts them into a label)
        and only the actions since are put into words: a long match does not cost more with
        every move. A change to what was written (a move taken back, a seat renamed) starts a
        new generation of the log.
        """
        history = state.history
        words = self.cache.get(viewer)
        if words is None or words.names != names:
            words = self.next_generation(viewer, LogWords(names))
        else:
            actions = words.actions
            kept, limit = 0, min(len(actions), len(history))
            while kept < limit and (
                actions[kept] is history[kept] or actions[kept] == history[kept]
            ):
                kept += 1
            if kept < len(actions):  # after an undo: the words of the actions still there stay
                kept_words = LogWords(names, actions=actions[:kept], entries=words.entries[:kept])
                words = self.next_generation(viewer, kept_words)
        for i in range(len(words.actions), len(history)):
            action = history[i]
            words.actions.append(action)
            words.entries.append(
                {
                    "player": action.player,
                    "text": naming(state.public_label(action, viewer)),
                    "round": marks[i],
                    **stand_in_mark(state, i),
                }
            )
        return words


def stand_in_mark(state: State, move: int) -> dict[str, bool]:
    """A log entry's mark when a computer made move ``move`` for a lost friend's seat."""
    return {"stand_in": True} if move in state.stand_in else {}


def log_fields(words: LogWords) -> dict[str, Any]:
    """A snapshot's log as built: ``log_id`` names its generation and ``log`` holds every
    entry (``log_from`` 0); :func:`send_held` then cuts what the page already holds."""
    return {"log": list(words.entries), "log_from": 0, "log_id": words.generation}


def send_held(reply: Any, held: dict[str, tuple[str, int]]) -> None:
    """Cut, in place, from each snapshot of ``reply`` (see :data:`SNAPSHOT_PLACES`) the log
    entries the page says it holds: when the request's ``log_have`` (``held``) says that the
    page holds the first n entries of that snapshot's generation for its viewer, only the ones
    after them are sent (``log_from`` n); else the whole log (``log_from`` 0). A long match's
    snapshots then stay small: the page adds each move's entries to those it has."""
    if not held or not isinstance(reply, dict):
        return
    for snap in (reply, *(reply.get(place) for place in SNAPSHOT_PLACES)):
        if not isinstance(snap, dict) or not isinstance(snap.get("log_id"), str):
            continue
        have = held.get(json.dumps(snap.get("viewer")))
        log = snap["log"]
        if have is not None and have[0] == snap["log_id"] and have[1] <= len(log):
            snap["log"], snap["log_from"] = log[have[1] :], have[1]


def whole_log(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot with its whole log as the page holds it (engine-client.js): without the
    fields that place its log entries in a generation. Only for one sent with ``log_from``
    0 (sent to a page that held none of that log)."""
    if snapshot.get("log_from", 0) != 0:
        raise ValueError("this snapshot holds only the end of its log")
    return {k: v for k, v in snapshot.items() if k not in LOG_GENERATION_KEYS}

"""Calling the bridge the way the page's worker does: JSON text in, parsed JSON out."""

from __future__ import annotations

import json
from typing import Any

from engine import bridge


def call(method: str, params: Any = None) -> Any:
    """Call an endpoint with ``params`` encoded as JSON and parse the reply."""
    text = getattr(bridge, method)(None if params is None else json.dumps(params))
    assert isinstance(text, str)
    return json.loads(text)


class PageCalls:
    """Calls the bridge as the page's engine client does (web/js/engine-client.js): every
    request says which log entries the page already holds (``log_have``), and every snapshot
    in a reply, which then carries only the entries after those, is given back its whole log.
    Counts the snapshots that came with part of their log (``partial``) and with all of it
    (``whole``)."""

    def __init__(self) -> None:
        self.logs: dict[str, tuple[str, list[Any]]] = {}
        self.partial = 0
        self.whole = 0

    def have(self) -> dict[str, list[Any]]:
        """The request's ``log_have``: the log entries held, per viewer."""
        return {viewer: [gen, len(entries)] for viewer, (gen, entries) in self.logs.items()}

    def __call__(self, method: str, params: Any = None) -> Any:
        reply = call(method, {**(params or {}), "log_have": self.have()})
        if isinstance(reply, dict):
            for snap in (reply, reply.get("snapshot"), reply.get("seat_view")):
                if isinstance(snap, dict) and "log_id" in snap:
                    self.merge(snap)
        return reply

    def merge(self, snap: dict[str, Any]) -> None:
        viewer = json.dumps(snap["viewer"])
        start, generation = snap.pop("log_from"), snap.pop("log_id")
        if start:
            held_generation, held = self.logs[viewer]
            assert held_generation == generation and len(held) >= start, "a log out of step"
            snap["log"] = held[:start] + snap["log"]
            self.partial += 1
        else:
            self.whole += 1
        self.logs[viewer] = (generation, snap["log"])

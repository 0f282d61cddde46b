"""The only API the page calls: JSON text in, JSON text out.

One match at a time is held (the worker holds one Python runtime: see desk.py). Every
endpoint takes a JSON string of parameters (or nothing) and returns a JSON string; an error
comes back as ``{"error": {"code": ..., "message": ...}}`` and leaves the match as it was.

The modules, one job each: plumbing.py (JSON in and out, errors), session.py (the match and
its seats, who may take back what), desk.py (what is kept between requests), snapshots.py
(the one snapshot builder), matches.py (the match's endpoints), rounds.py (the table as a
round left it), logs.py (the log by round and its generations), progress.py (a thinking bot's
progress), advice.py (analysis, hints, the coach), tape.py and replays.py (replays),
friends.py (friends' seats). The times a search may take are set in their modules
(``advice.HINT_TIME_MS``, ``progress.PROGRESS_INTERVAL_S``).

>>> import json
>>> snap = json.loads(start(json.dumps({"game": "crisps", "seed": 3,
...     "seats": [{"type": "human"}, {"type": "bot", "level": "random"}]})))
>>> snap["game"], snap["viewer"]
('crisps', 0)
>>> json.loads(act(json.dumps({"action": "no-such-move"})))["error"]["code"]
'illegal_action'
"""

from __future__ import annotations

from engine.bridge.advice import MAX_ANALYSIS_ITERATIONS, analyse, coach, hint
from engine.bridge.desk import DESK
from engine.bridge.friends import seat_view, set_seat
from engine.bridge.logs import LOG_GENERATION_KEYS, whole_log
from engine.bridge.matches import (
    act,
    bot_move,
    check_deal,
    games,
    load,
    record,
    reset,
    snapshot,
    start,
    undo,
    why,
)
from engine.bridge.plumbing import MAX_INPUT_CHARS, BridgeError
from engine.bridge.progress import on_progress
from engine.bridge.replays import replay
from engine.bridge.rounds import round_end
from engine.bridge.session import (
    DEFAULT_NAMES,
    MAX_NAME_CHARS,
    SEAT_TYPES,
    Seat,
    Session,
    available_levels,
    default_name,
)
from engine.bridge.tape import revealed_hands

__all__ = [
    "DEFAULT_NAMES",
    "DESK",
    "LOG_GENERATION_KEYS",
    "MAX_ANALYSIS_ITERATIONS",
    "MAX_INPUT_CHARS",
    "MAX_NAME_CHARS",
    "SEAT_TYPES",
    "BridgeError",
    "Seat",
    "Session",
    "act",
    "analyse",
    "available_levels",
    "bot_move",
    "check_deal",
    "coach",
    "default_name",
    "games",
    "hint",
    "load",
    "on_progress",
    "record",
    "replay",
    "reset",
    "revealed_hands",
    "round_end",
    "seat_view",
    "set_seat",
    "snapshot",
    "start",
    "undo",
    "whole_log",
    "why",
]

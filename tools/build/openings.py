"""openings.json: a few openings of each game's default table, prepared by the build.

A first visitor who presses Start before the Python runtime has arrived gets one of these,
drawn by the same table as any match (web/js/openings.js, web/js/app.js): the deal, the
moves of the computers that act before the person, and the person's view, legal actions
and labels at their first decision. They are the engine's own answers, computed here by the
bridge of this repository exactly as the page would ask for them (``start`` with the
page's parameters for the default set-up, then ``bot_move`` until a person is to act,
with every bot made without a clock: the same deal and moves on every build). Each carries
the record the page hands to the engine once it has loaded (``load``, which replays it),
and the snapshot the engine answers with then (tests/test_openings.py checks it is the
very same).

Only the default table (the default player count and options, one person in the first
seat, the computers at the default level, the seating not chosen) has openings: the page
compares its start parameters with ``params`` and waits for the engine for any other.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from . import ROOT

OPENINGS = "openings.json"
"""Where the file goes, relative to the site. One file for every game (6 kB gzipped): the
page asks for it as it starts, before the runtime's downloads take every connection."""

SEEDS = (11, 23, 37, 41)
"""The deals prepared per game: a handful, so that a first visit's opening is one of
several (the page picks one at random)."""

# The names the set-up screen gives the computers, by how many there are, from the person's
# left (web/js/ui/setup-model.js, OPPONENT_NAMES; the page's own parameters must equal
# ``params`` for an opening to be used, so a difference only means no opening).
OPPONENT_NAMES = {
    1: ["North"],
    2: ["West", "East"],
    3: ["West", "North", "East"],
    4: ["West", "North-West", "North-East", "East"],
    5: ["West", "North-West", "North", "North-East", "East"],
}


def default_level(levels: list[str]) -> str:
    """The computers' level when none is chosen (setup-model.js, defaultLevel)."""
    return "normal" if "normal" in levels else levels[len(levels) // 2]


def default_params(spec: dict[str, Any], levels: list[str]) -> dict[str, Any]:
    """The bridge's start() parameters, without the seed, of ``spec``'s default table as
    the page makes them (setup-model.js: normalizeSetup of nothing saved, startParams)."""
    players = spec["default_players"]
    level = default_level(levels)
    names = OPPONENT_NAMES.get(players - 1, [])
    seats: list[dict[str, Any]] = [{"type": "human", "name": "You"}]
    for i in range(1, players):
        seat: dict[str, Any] = {"type": "bot", "level": level}
        if i - 1 < len(names):
            seat["name"] = names[i - 1]
        seats.append(seat)
    return {
        "game": spec["id"],
        "players": players,
        "options": {option["name"]: option["default"] for option in spec.get("options", [])},
        "practice": False,
        "seats": seats,
    }


def prepare(bridge: Any, bots: Any, params: dict[str, Any], seed: int) -> dict[str, Any]:
    """One opening: ``start`` with ``params`` and ``seed``, the computers' moves until a
    person is to act (each bot made without a clock), and the record to hand over."""

    def ask(method: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        reply = json.loads(getattr(bridge, method)(json.dumps(arguments or {})))
        if "error" in reply:
            raise RuntimeError(f"{params['game']} seed {seed}: {method}: {reply['error']}")
        return reply

    bridge.reset()
    snapshot = ask("start", {**params, "seed": seed})
    session = bridge.DESK.session
    for seat in session.seats:
        if seat.type == "bot" and seat.level not in session.bot_cache:
            session.bot_cache[seat.level] = bots.make(seat.level, safety_clock=False)
    moves = []
    while snapshot["bot_turn"]:
        reply = ask("bot_move")
        moves.append(reply["action"])
        snapshot = reply["snapshot"]
    if not snapshot["human_turn"]:
        raise RuntimeError(f"{params['game']} seed {seed}: nobody is to act after the deal")
    record = ask("record")
    bridge.reset()
    # A prepared deal is in the site's files: it has no fingerprint of its own (a random
    # salt would change every build). The engine fixes it when it takes the record (load),
    # and its check says after which move.
    del record["record"]["deal"]
    snapshot = {**bridge.whole_log(snapshot), "deal": None}
    return {"seed": seed, "moves": moves, "snapshot": snapshot, "record": record}


def openings() -> dict[str, dict[str, Any]]:
    """Every game's openings: ``{game: {params, openings: [...]}}``."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from engine import bots, bridge

    listing = json.loads(bridge.games())
    out = {}
    for spec in listing["games"]:
        params = default_params(spec, listing["levels"])
        out[spec["id"]] = {
            "params": params,
            "openings": [prepare(bridge, bots, params, seed) for seed in SEEDS],
        }
    return out


def write_openings(site: Path) -> Path:
    """Write openings.json into ``site``; its path."""
    path = site / OPENINGS
    text = json.dumps(openings(), ensure_ascii=False, separators=(",", ":"))
    path.write_text(text, encoding="utf-8")
    return path

"""The prepared openings (tools/build/openings.py): every one replays through the engine to
the very snapshot the page shows before the engine has loaded, and the build makes the same
ones every time (no clock in the computers' moves)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import engine  # noqa: E402
from engine import bridge  # noqa: E402
from tools.build import openings as prepared  # noqa: E402


@pytest.fixture(scope="module")
def built() -> dict:
    return prepared.openings()


def call(method: str, params: dict | None = None) -> dict:
    return json.loads(getattr(bridge, method)(json.dumps(params or {})))


def test_every_game_has_a_handful_of_openings(built):
    assert list(built) == list(engine.GAMES)
    for game, data in built.items():
        assert data["params"]["game"] == game
        assert "seed" not in data["params"]
        assert [o["seed"] for o in data["openings"]] == list(prepared.SEEDS)


def test_each_opening_replays_to_the_same_first_decision(built):
    # What the engine answers when the page hands it the record (load) is what the page
    # drew: the view, the legal actions with their labels, the log, every field.
    for game, data in built.items():
        for opening in data["openings"]:
            snap = opening["snapshot"]
            assert snap["human_turn"] and snap["legal"], (game, opening["seed"])
            bridge.reset()
            replayed = call("load", opening["record"])
            # The engine fixes the prepared deal as it takes it, after the computers' moves.
            assert replayed["deal"]["at"] == len(opening["moves"])
            assert {**bridge.whole_log(replayed), "deal": None} == snap, (game, opening["seed"])
            # The record is the deal and the computers' moves (as the person may see them:
            # a secret bid's id is not shown).
            assert opening["record"]["record"]["seed"] == opening["seed"]
            assert len(opening["record"]["record"]["actions"]) == len(opening["moves"])
    bridge.reset()


def test_each_opening_is_what_starting_the_default_table_gives(built):
    # start() with the page's parameters and that seed, then the computers' moves: the same
    # deal and first decision as the prepared one.
    for game, data in built.items():
        opening = data["openings"][0]
        bridge.reset()
        snap = call("start", {**data["params"], "seed": opening["seed"]})
        for move in opening["moves"]:
            assert snap["bot_turn"]
            reply = call("bot_move")
            assert reply["action"] == move
            snap = reply["snapshot"]
        assert {**bridge.whole_log(snap), "deal": None} == opening["snapshot"], game
    bridge.reset()


def test_the_openings_are_the_same_on_every_build(built):
    assert prepared.openings() == built


def test_the_default_table_is_the_set_up_screens_default():
    listing = call("games")
    spec = next(g for g in listing["games"] if g["id"] == "roundup")
    params = prepared.default_params(spec, listing["levels"])
    assert params == {
        "game": "roundup",
        "players": 4,
        "options": {"target_score": 10},
        "practice": False,
        "seats": [
            {"type": "human", "name": "You"},
            {"type": "bot", "level": "normal", "name": "West"},
            {"type": "bot", "level": "normal", "name": "North"},
            {"type": "bot", "level": "normal", "name": "East"},
        ],
    }


def test_the_build_writes_them_into_the_site(tmp_path, built):
    written = prepared.write_openings(tmp_path)
    assert written == tmp_path / "openings.json"
    assert json.loads(written.read_text(encoding="utf-8")) == built

"""The recipe "Adding a sixth game" (docs/engine.md) is complete: a minimal game written by it
(tests/sixth_game/topcard/, with its rules page tests/sixth_game/rules.html) is registered the
way the recipe says, and the shared invariant suite, the coach, the bridge (a round's end
included) and the page's catalog all take it with nothing else changed."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
import engine.games
from engine import bridge
from engine import coach as coaching
from engine.checks import play_checked_match
from tests.bridge_calls import call
from tests.test_rules_pages import _Parser, js_string, option_entries

HERE = Path(__file__).resolve().parent / "sixth_game"
GAME = "topcard"


@pytest.fixture(scope="module", autouse=True)
def sixth() -> Iterator[engine.GameSpec]:
    """The recipe's steps 4-5: the package where the registry looks, its id in GAME_MODULES;
    the registry then reads its SPEC like any other game's. Undone after the module."""
    patch = pytest.MonkeyPatch()
    patch.setattr(engine.games, "__path__", [*engine.games.__path__, str(HERE)])
    patch.setattr(engine.games, "GAME_MODULES", (*engine.games.GAME_MODULES, GAME))
    specs = engine.games.load_specs()
    assert list(specs)[-1] == GAME, "the new game comes last in the menu"
    patch.setitem(engine.GAMES, GAME, specs[GAME])
    bridge.reset()
    try:
        yield specs[GAME]
    finally:
        bridge.reset()
        patch.undo()
        for name in [m for m in sys.modules if m.startswith(f"engine.games.{GAME}")]:
            del sys.modules[name]
    assert GAME not in engine.GAMES


def test_the_invariant_suite_takes_the_new_game_at_every_size_and_option(sixth):
    for players in sixth.player_counts():
        for options in sixth.option_sets():
            for seed in (1, 2):
                state = play_checked_match(GAME, players, options, seed)
                assert len(state.result()["rounds"]) >= 2, "the match ran over a round's end"
    play_checked_match(GAME, 2, {"target": 2}, 3, policy="greedy")


def test_the_catalog_and_the_bridge_list_it(sixth):
    from tools.build.catalog import catalog

    listed = {g["id"]: g for g in catalog()["games"]}
    assert list(listed)[-1] == GAME
    assert listed[GAME] == json.loads(bridge.games())["games"][-1] == sixth.to_json()
    assert listed[GAME]["options"][0]["choices"] == [2, 3]


def test_its_coached_round_says_every_step_and_explains_the_score(sixth):
    coach = coaching.load(GAME)
    followed = coaching.follow(GAME, coach.deals[0])
    assert followed["said"] == ["welcome", "your-turn", "scored"]
    assert followed["rules"] == set(coach.checklist)
    state = coaching.start(GAME, coach.deals[0])
    while coaching.rounds_done(state) == 0:
        state.apply(state.legal_actions()[0])
    lines = coaching.scoring_lines(GAME, state.view(0), 0)
    assert lines[0].startswith("You: cards worth") and lines[-1].endswith(("point.", "scores."))
    advice = coaching.advise(state, {"welcome", "your-turn"})
    if advice["suggestion"] is not None:
        assert advice["why"].startswith("It shows ")


def test_the_bridge_plays_it_and_shows_a_rounds_end(sixth):
    reply = call(
        "start",
        {"game": GAME, "seed": 4, "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}]},
    )
    assert "error" not in reply, reply
    rng = random.Random(4)
    snap = reply
    while not snap["result"]["rounds"]:
        if snap["bot_turn"]:
            snap = call("bot_move")["snapshot"]
        else:
            snap = call("act", {"action": rng.choice(snap["legal"])["id"]})
        assert "error" not in snap, snap
        if not snap["result"]["rounds"]:
            assert call("round_end")["error"]["code"] == "no_round_end"
    end = call("round_end")
    assert end["round"] == 1
    table = end["view"]["table"]
    assert [len(cards) for cards in table] == [2, 2], "the round's cards, before the next deal"
    assert end["view"]["last_round"]["totals"] == snap["view"]["last_round"]["totals"]
    assert snap["view"]["table"] == [[], []] or snap["is_over"]


def test_its_rules_page_marks_every_option_the_way_the_rules_pages_test_reads(sixth):
    parser = _Parser()
    parser.feed((HERE / "rules.html").read_text(encoding="utf-8"))
    parser.close()
    entries = option_entries(parser.root)
    assert sorted(entries) == sorted(sixth.options)
    dt, dd = entries["target"]
    assert dt.text() == sixth.options["target"].label
    marked = sorted(n.attrs["data-choice"] for n in dd.walk() if "data-choice" in n.attrs)
    assert marked == sorted(js_string(c) for c in sixth.options["target"].choices)

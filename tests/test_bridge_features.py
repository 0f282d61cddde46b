"""engine/bridge/: the undo policy on every game, the log by round, replays.

The undo policy: outside practice the human may take back their own actions since the
start of their turn, never past an action that revealed a hidden card (a draw, a Jack's
pick, a new upcard); practice takes back anything, the match being marked as practice.
"""

from __future__ import annotations

import copy
import functools
import random
from typing import Any

import pytest

import engine
from engine import bridge
from tests.bridge_calls import call

GAMES = sorted(engine.GAMES)


def code(reply: Any) -> str | None:
    return reply["error"]["code"] if isinstance(reply, dict) and "error" in reply else None


def seats_for(game_id: str, players: int | None = None) -> list[dict]:
    n = players or engine.GAMES[game_id].min_players
    return [{"type": "human"}] + [{"type": "bot", "level": "random"}] * (n - 1)


def begin(game_id: str, seed: int, practice: bool = False) -> dict:
    snap = call(
        "start", {"game": game_id, "seed": seed, "seats": seats_for(game_id), "practice": practice}
    )
    assert code(snap) is None, snap
    return snap


def advance(snap: dict, rng: random.Random) -> dict:
    if snap["bot_turn"]:
        return call("bot_move")["snapshot"]
    return call("act", {"action": rng.choice(snap["legal"])["id"]})


def find_position(
    game_id: str, want, practice: bool = False, seeds=range(1, 40), limit: int = 3000
) -> dict:
    """Play seeded random matches until ``want(state)`` holds on a human turn."""
    for seed in seeds:
        snap = begin(game_id, seed, practice)
        rng = random.Random(seed)
        for _ in range(limit):
            if snap["is_over"]:
                break
            state = bridge.DESK.session.state
            if snap["human_turn"] and want(state):
                return snap
            snap = advance(snap, rng)
    # A failure, not a skip: a rule change that makes the position rare must not silently
    # drop the check that needs it.
    pytest.fail(f"no such position found in {game_id}")


def last_own_move(state, revealing: bool) -> bool:
    """The human (seat 0) is to move and has just moved, revealing a card or not."""
    h = state.history
    return (
        state.current_player == 0
        and bool(h)
        and h[-1].player == 0
        and state.move_revealed_hidden(len(h) - 1) == revealing
    )


# ----- undo: allowed, refused after a reveal, practice unrestricted -----------------------


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "crisps"])
def test_undo_takes_back_an_own_action_that_revealed_nothing(game_id):
    snap = find_position(game_id, lambda s: last_own_move(s, revealing=False))
    assert snap["can_undo"]
    before = bridge.DESK.session.state.to_record()["actions"]
    back = call("undo")
    assert code(back) is None, back
    assert back["moves"] < snap["moves"]
    assert bridge.DESK.session.state.to_record()["actions"] == before[: back["moves"]]
    assert back["human_turn"] and back["current_player"] == 0
    # Everything taken back was the human's own, since their turn began.
    assert all(bridge.DESK.session.state.history[i].player == 0 for i in range(back["moves"], 0))
    assert set(a for a in before[back["moves"] :]) <= set(before)
    replayed = engine.from_record({**bridge.DESK.session.state.to_record(), "actions": before})
    assert all(a.player == 0 for a in replayed.history[back["moves"] :])


def test_undo_in_crisps_never_has_anything_to_take_back():
    # Moving twice in a row in Crisps only happens after taking a card, which shows one.
    snap = find_position("crisps", lambda s: last_own_move(s, revealing=True))
    assert not snap["can_undo"]
    assert code(call("undo")) == "cannot_undo"


@pytest.mark.parametrize("game_id", GAMES)
def test_undo_is_refused_right_after_a_revealed_card(game_id):
    snap = find_position(game_id, lambda s: last_own_move(s, revealing=True))
    assert snap["can_undo"] is False
    before = call("snapshot")
    refused = call("undo")
    assert code(refused) == "cannot_undo"
    assert "take back" in refused["error"]["message"]
    assert call("snapshot") == before, "a refused undo changes nothing"


def test_undo_is_refused_after_a_draw_in_general_mhing():
    snap = find_position(
        "mhing",
        lambda s: last_own_move(s, revealing=True) and s.history[-1].id.startswith("draw:stock"),
    )
    assert bridge.DESK.session.state.history[-1].id.startswith("draw:stock")
    assert not snap["can_undo"]
    assert code(call("undo")) == "cannot_undo"


@pytest.mark.parametrize("game_id", GAMES)
def test_undo_never_reaches_a_bots_move_or_a_previous_turn(game_id):
    rng = random.Random(11)
    snap = begin(game_id, 11)
    for _ in range(600):
        if snap["is_over"]:
            break
        state = bridge.DESK.session.state
        if snap["can_undo"]:
            count = bridge.session.undo_count(bridge.DESK.session)
            taken = state.history[-count:]
            assert all(a.player == state.current_player == 0 for a in taken)
            assert not any(
                state.move_revealed_hidden(len(state.history) - 1 - k) for k in range(count)
            )
        elif snap["bot_turn"] and state.history:
            assert code(call("undo")) == "cannot_undo"
        snap = advance(snap, rng)


@pytest.mark.parametrize("game_id", GAMES)
def test_practice_undo_crosses_a_revealed_card_and_is_marked(game_id):
    snap = find_position(game_id, lambda s: last_own_move(s, revealing=True), practice=True)
    assert snap["practice"] is True
    assert snap["can_undo"]
    back = call("undo")
    assert code(back) is None, back
    assert back["moves"] < snap["moves"]
    assert back["practice"] is True
    assert call("record")["practice"] is True


@pytest.mark.parametrize("game_id", GAMES)
def test_practice_undo_goes_back_through_bot_replies_to_the_start(game_id):
    snap = begin(game_id, 8, practice=True)
    rng = random.Random(8)
    for _ in range(40):
        if snap["is_over"]:
            break
        snap = advance(snap, rng)
    while snap["can_undo"]:
        back = call("undo")
        assert code(back) is None
        assert back["moves"] < snap["moves"]
        snap = back
    # Back to the human's first decision (or the very start).
    assert all(a.player != 0 for a in bridge.DESK.session.state.history)


# ----- the log, by round ----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_log_entries_carry_their_round_through_undo_and_load(game_id):
    rng = random.Random(3)
    snap = begin(game_id, 3, practice=True)
    undos = 0
    while not snap["is_over"] and snap["moves"] < 5000:
        snap = advance(snap, rng)
        if snap["moves"] % 97 == 0 and snap["can_undo"] and undos < 3:
            undos += 1
            snap = call("undo")
    state = bridge.DESK.session.state
    expected, _ = bridge.logs.marks_by_replay(state.to_record())
    assert [e["round"] for e in snap["log"]] == expected
    assert expected[0] == 1 and expected == sorted(expected)
    assert expected[-1] == len(snap["result"]["rounds"])
    saved = call("record")
    loaded = call("load", saved)
    assert [e["round"] for e in loaded["log"]] == expected


def test_log_keeps_a_secret_bid_secret():
    snap = begin("roundup", 4)
    rng = random.Random(4)
    while not snap["is_over"] and snap["view"]["phase"] == "bid":
        snap = advance(snap, rng)
    texts = [e["text"] for e in snap["log"] if e["player"] != 0]
    assert texts and all("secret" in t for t in texts[:1])
    for entry in snap["log"]:
        if entry["player"] != 0 and "bid" in entry["text"].lower():
            assert "Bid " not in entry["text"]


# ----- replay ---------------------------------------------------------------------------


def finished_record(game_id: str, seed: int = 2) -> dict:
    """The saved record of a match played to its end through the bridge (random moves for
    the person), played once per process (a copy each time)."""
    return copy.deepcopy(_finished_record(game_id, seed))


@functools.cache
def _finished_record(game_id: str, seed: int) -> dict:
    rng = random.Random(seed)
    snap = begin(game_id, seed)
    while not snap["is_over"]:
        snap = advance(snap, rng)
    saved = call("record")
    bridge.reset()
    return saved


FINISHED_MATCHES = [pytest.param(g, marks=pytest.mark.xdist_group(f"finished-{g}")) for g in GAMES]
"""Each game as a test parameter in an xdist group of its own: the tests of one game's
finished match run in one worker, which plays that match once."""


@pytest.mark.slow
@pytest.mark.parametrize("game_id", FINISHED_MATCHES)
def test_replay_steps_through_a_finished_match(game_id):
    saved = finished_record(game_id)
    steps = len(saved["record"]["actions"])
    end = call("replay", saved)
    assert code(end) is None, end
    assert end["replay"]["steps"] == steps and end["replay"]["step"] == steps
    assert end["replay"]["finished"] and end["is_over"]
    assert end["legal"] == [] and not end["can_undo"]
    start = call("replay", {**saved, "step": 0})
    assert start["moves"] == 0 and start["log"] == [] and start["replay"]["last"] is None
    fresh = engine.new_game(
        game_id, saved["record"]["players"], saved["record"]["seed"], saved["record"]["options"]
    )
    assert start["view"] == fresh.view(0)
    for step in (1, steps // 2, steps - 1, 10**9, -5):
        at = call("replay", {**saved, "step": step})
        expect = max(0, min(steps, step))
        assert at["moves"] == expect and len(at["log"]) == expect
        state = engine.from_record(
            {**saved["record"], "actions": saved["record"]["actions"][:expect]}
        )
        assert at["view"] == state.view(0)
        assert at["current_player"] == state.current_player
    # Backwards after forwards gives the same views (checkpoints are clones, not shared).
    again = call("replay", {**saved, "step": 1})
    assert again["view"] == call("replay", {**saved, "step": 1})["view"]


@pytest.mark.slow
@pytest.mark.parametrize("game_id", FINISHED_MATCHES)
def test_replay_reveals_every_hand_only_once_the_match_is_over(game_id):
    saved = finished_record(game_id)
    steps = len(saved["record"]["actions"])
    step = min(5, steps)
    shown = call("replay", {**saved, "step": step, "reveal": True})
    assert code(shown) is None, shown
    hands = shown["replay"]["hands"]
    state = engine.from_record({**saved["record"], "actions": saved["record"]["actions"][:step]})
    assert [h["seat"] for h in hands] == list(range(state.players))
    for h in hands:
        for key, value in h["private"].items():
            assert state.view(h["seat"])[key] == value
    hidden = call("replay", {**saved, "step": step})
    assert hidden["replay"]["hands"] is None

    unfinished = {
        **saved,
        "record": {**saved["record"], "actions": saved["record"]["actions"][:step]},
    }
    refused = call("replay", {**unfinished, "reveal": True})
    assert code(refused) == "not_finished"
    assert code(call("replay", unfinished)) is None


@pytest.mark.slow
def test_replay_hides_what_the_viewer_did_not_see_unless_revealed():
    saved = finished_record("roundup", 4)
    actions = saved["record"]["actions"]
    state = engine.from_record(saved["record"])
    secret = [i for i, a in enumerate(state.history) if a.player != 0 and a.id.startswith("bid:")]
    assert secret
    step = secret[0] + 1
    at = call("replay", {**saved, "step": step})
    assert "secret" in at["log"][secret[0]]["text"]
    assert at["replay"]["last"]["id"] is None and at["replay"]["last"]["cards"] == []
    shown = call("replay", {**saved, "step": step, "reveal": True})
    assert shown["log"][secret[0]]["text"].startswith("Bid ")
    assert shown["replay"]["last"]["id"] == actions[secret[0]]


def test_replay_leaves_the_match_in_progress_alone():
    saved = finished_record("crisps", 5)
    current = begin("crisps", 9)
    assert code(call("replay", {**saved, "step": 3})) is None
    assert call("snapshot") == current


@pytest.mark.parametrize(
    "params, expected",
    [
        ({}, "invalid_record"),
        ({"record": "nonsense"}, "invalid_record"),
        ({"record": {"game": "crisps"}}, "invalid_record"),
        ({"step": "three"}, "bad_step"),
        ({"step": True}, "bad_step"),
        ({"reveal": "yes"}, "bad_request"),
        ({"viewer": 7}, "bad_request"),
        ({"seats": [{"type": "alien"}, {"type": "human"}]}, "bad_seats"),
    ],
)
def test_replay_refuses_bad_parameters(params, expected):
    saved = finished_record("crisps", 6)
    merged = {**saved, **params}
    if "record" in params or params == {}:
        merged = {k: v for k, v in merged.items() if k != "record"} if params == {} else merged
    assert code(call("replay", merged)) == expected

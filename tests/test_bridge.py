"""engine/bridge/: the JSON API the page calls (JSON text in, JSON text out).

Played on Crisps (two players); the undo policy is also checked on every registered game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import bridge
from tests.bridge_calls import PageCalls, call

pytestmark = pytest.mark.skipif("crisps" not in engine.GAMES, reason="crisps is not registered")

SNAPSHOT_KEYS = {
    "game",
    "title",
    "players",
    "options",
    "seats",
    "practice",
    "viewer",
    "current_player",
    "human_turn",
    "bot_turn",
    "is_over",
    "view",
    "legal",
    "result",
    "log",
    "log_from",
    "log_id",
    "can_undo",
    "moves",
    "deal",
}
ENDPOINTS = (
    "games",
    "start",
    "snapshot",
    "act",
    "why",
    "bot_move",
    "hint",
    "analyse",
    "undo",
    "record",
    "load",
    "round_end",
    "coach",
)
NEEDS_MATCH = (
    "snapshot",
    "act",
    "why",
    "bot_move",
    "hint",
    "analyse",
    "undo",
    "record",
    "round_end",
    "coach",
)
HUMAN_VS_BOT = [{"type": "human"}, {"type": "bot", "level": "random"}]


def error_code(reply: Any) -> str | None:
    if isinstance(reply, dict) and "error" in reply:
        error = reply["error"]
        assert set(error) == {"code", "message"}
        assert isinstance(error["code"], str) and error["code"]
        assert isinstance(error["message"], str) and error["message"]
        return error["code"]
    return None


def start(seed: int = 3, seats=None, **extra) -> dict:
    params = {"game": "crisps", "seed": seed, "seats": seats or HUMAN_VS_BOT, **extra}
    reply = call("start", params)
    assert error_code(reply) is None, reply
    return reply


def to_human_turn(snap: dict) -> dict:
    while not snap["is_over"] and snap["bot_turn"]:
        snap = call("bot_move")["snapshot"]
    return snap


def start_on_a_bot_turn() -> dict:
    """A match whose first move is the bot's (the first seed that deals one)."""
    for seed in range(1, 20):
        snap = start(seed)
        if snap["bot_turn"]:
            return snap
    pytest.fail("no seed with the bot to move first")  # the checks that need one would be lost


def play_human(snap: dict, rng: random.Random) -> dict:
    reply = call("act", {"action": rng.choice(snap["legal"])["id"]})
    assert error_code(reply) is None, reply
    return reply


def comparable(snap: dict) -> dict:
    return {k: v for k, v in snap.items()}


# ----- games and start ---------------------------------------------------------------


def test_games_lists_every_game_with_options_and_levels():
    reply = call("games")
    assert [g["id"] for g in reply["games"]] == list(engine.GAMES)
    crisps = next(g for g in reply["games"] if g["id"] == "crisps")
    assert crisps["title"] == "Crisps"
    assert crisps["min_players"] == crisps["max_players"] == 2
    assert {o["name"] for o in crisps["options"]} == set(engine.GAMES["crisps"].options)
    for option in crisps["options"]:
        assert option["default"] in option["choices"]
    assert "random" in reply["levels"] and "normal" in reply["levels"]


def test_start_gives_a_full_snapshot():
    snap = start(seats=[{"type": "human", "name": "Ada"}, {"type": "bot", "level": "easy"}])
    assert set(snap) == SNAPSHOT_KEYS
    assert snap["game"] == "crisps" and snap["title"] == "Crisps" and snap["players"] == 2
    assert snap["seats"] == [
        {"type": "human", "level": None, "name": "Ada"},
        {"type": "bot", "level": "easy", "name": "West"},
    ]
    assert snap["options"] == {
        name: opt.default for name, opt in engine.GAMES["crisps"].options.items()
    }
    assert snap["practice"] is False and snap["viewer"] == 0
    assert snap["moves"] == 0 and snap["log"] == [] and snap["can_undo"] is False
    assert snap["is_over"] is False
    assert snap["human_turn"] == (snap["current_player"] == 0)
    assert snap["bot_turn"] == (snap["current_player"] == 1)
    assert set(snap["result"]) >= {"scores", "winners", "rounds"}
    assert snap["view"]["hand"] is not None
    assert call("snapshot") == snap


def test_legal_actions_are_listed_only_on_the_human_turn():
    for seed in range(1, 6):
        snap = start(seed)
        if snap["human_turn"]:
            assert snap["legal"]
            for action in snap["legal"]:
                assert set(action) == {"id", "player", "label", "kind", "cards"}
                assert action["player"] == 0
                assert action["kind"] == action["id"].split(":", 1)[0]
                assert all(isinstance(c, str) for c in action["cards"])
        else:
            assert snap["legal"] == []


def test_default_seats_are_one_human_against_normal_bots():
    snap = call("start", {"game": "crisps", "seed": 1})
    assert [s["type"] for s in snap["seats"]] == ["human", "bot"]
    assert snap["seats"][1]["level"] == "normal" and snap["seats"][0]["name"] == "You"


def test_level_alias_greedy_is_normal():
    snap = start(seats=[{"type": "human"}, {"type": "bot", "level": "greedy"}])
    assert snap["seats"][1]["level"] == "normal"


def test_same_seed_same_deal():
    first = start(11)
    second = start(11)
    assert first["log_id"] != second["log_id"]  # see test_record_and_load_round_trip
    # Each deal has a salt of its own, so the same seed has another fingerprint.
    assert first["deal"]["fingerprint"] != second["deal"]["fingerprint"]
    assert {**first, "log_id": None, "deal": None} == {**second, "log_id": None, "deal": None}
    assert start(12)["view"] != first["view"]


def test_start_accepts_options():
    snap = start(options={"no_faceup_draw": True})
    assert snap["options"]["no_faceup_draw"] is True


@pytest.mark.parametrize(
    "params,code",
    [
        ({"game": "chess"}, "unknown_game"),
        ({"game": 7}, "bad_request"),
        ({}, "bad_request"),
        ({"game": "crisps", "players": 3}, "bad_player_count"),
        ({"game": "crisps", "players": "2"}, "bad_player_count"),
        ({"game": "crisps", "seed": -1}, "bad_seed"),
        ({"game": "crisps", "seed": "7"}, "bad_seed"),
        ({"game": "crisps", "seed": 1.5}, "bad_seed"),
        ({"game": "crisps", "seats": [{"type": "human"}]}, "bad_player_count"),
        ({"game": "crisps", "players": 2, "seats": [{"type": "human"}]}, "bad_seats"),
        ({"game": "crisps", "seats": [{"type": "human"}, {"type": "alien"}]}, "bad_seats"),
        (
            {"game": "crisps", "seats": [{"type": "human"}, {"type": "bot", "level": "god"}]},
            "bad_seats",
        ),
        ({"game": "crisps", "seats": [{"type": "human"}, "bot"]}, "bad_seats"),
        ({"game": "crisps", "seats": [{"type": "human", "name": 5}, {"type": "bot"}]}, "bad_seats"),
        ({"game": "crisps", "seats": {"0": "human"}}, "bad_seats"),
        ({"game": "crisps", "options": {"no_such_option": True}}, "unknown_option"),
        ({"game": "crisps", "options": {"no_faceup_draw": "yes"}}, "bad_option_value"),
        ({"game": "crisps", "options": ["no_faceup_draw"]}, "invalid_options"),
        ({"game": "crisps", "practice": "yes"}, "bad_request"),
    ],
)
def test_start_refuses_bad_parameters(params, code):
    assert error_code(call("start", params)) == code


def test_a_refused_start_keeps_the_current_match():
    snap = start(5)
    assert error_code(call("start", {"game": "crisps", "seed": -4})) == "bad_seed"
    assert error_code(call("start", {"game": "crisps", "seats": [{"type": "x"}] * 2}))
    assert call("snapshot") == snap


def test_seat_names_are_trimmed_and_bounded():
    snap = start(
        seats=[
            {"type": "human", "name": "  " + "N" * 100 + " "},
            {"type": "bot", "level": "random", "name": "   "},
        ]
    )
    assert snap["seats"][0]["name"] == "N" * bridge.MAX_NAME_CHARS
    assert snap["seats"][1]["name"] == bridge.default_name(1)


# ----- act and why -------------------------------------------------------------------


def test_act_applies_a_legal_action():
    snap = to_human_turn(start(3))
    action = snap["legal"][0]
    after = call("act", {"action": action["id"]})
    assert error_code(after) is None
    assert after["moves"] == snap["moves"] + 1
    assert after["log"][-1]["player"] == 0
    assert len(after["log"]) == after["moves"]


@pytest.mark.parametrize(
    "params,code",
    [
        ({"action": "play:ZZ"}, "illegal_action"),
        ({"action": "no-such-move"}, "illegal_action"),
        ({"action": ""}, "illegal_action"),
        ({"action": 3}, "bad_request"),
        ({"action": None}, "bad_request"),
        ({}, "bad_request"),
    ],
)
def test_refused_action_leaves_the_match_unchanged(params, code):
    snap = to_human_turn(start(3))
    assert error_code(call("act", params)) == code
    assert call("snapshot") == snap


def test_every_unlisted_card_play_is_refused_unchanged():
    snap = to_human_turn(start(4))
    legal = {a["id"] for a in snap["legal"]}
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    for rank in ranks:
        for suit in "CDHS":
            action_id = f"play:{rank}{suit}"
            if any(f"play:{rank}{other}" in legal for other in "CDHS"):
                continue  # listed, or a copy of a listed single: the same play
            reply = call("act", {"action": action_id})
            assert error_code(reply) in ("illegal_action",), reply
    assert call("snapshot") == snap


def test_act_on_the_bot_turn_is_refused():
    snap = start_on_a_bot_turn()
    assert error_code(call("act", {"action": "pass"})) == "not_your_turn"
    assert call("snapshot") == snap


def test_why_explains_refusals_and_accepts_legal_actions():
    snap = to_human_turn(start(3))
    assert call("why", {"action": snap["legal"][0]["id"]}) == {"legal": True, "reason": None}
    reply = call("why", {"action": "play:ZZ"})
    assert reply["legal"] is False and isinstance(reply["reason"], str) and reply["reason"]
    assert error_code(call("why", {"action": 12})) == "bad_request"
    assert call("snapshot") == snap


# ----- bots and hints ----------------------------------------------------------------


def test_bot_move_takes_one_bot_action():
    snap = start(3)
    rng = random.Random(1)
    for _ in range(40):
        if snap["is_over"]:
            break
        if snap["human_turn"]:
            assert error_code(call("bot_move")) == "not_bot_turn"
            snap = play_human(snap, rng)
            continue
        reply = call("bot_move")
        assert set(reply) == {"action", "snapshot"}
        assert reply["action"]["player"] == snap["current_player"]
        assert set(reply["action"]) == {"id", "player", "label", "kind", "cards"}
        assert reply["snapshot"]["moves"] == snap["moves"] + 1
        snap = reply["snapshot"]


def test_a_whole_match_between_a_human_and_a_bot():
    snap = start(21)
    rng = random.Random(21)
    for _ in range(5000):
        if snap["is_over"]:
            break
        snap = call("bot_move")["snapshot"] if snap["bot_turn"] else play_human(snap, rng)
    assert snap["is_over"]
    assert snap["current_player"] is None and not snap["human_turn"] and not snap["bot_turn"]
    assert snap["legal"] == [] and snap["result"]["winners"]
    assert error_code(call("act", {"action": "pass"})) == "match_over"
    assert error_code(call("bot_move")) == "match_over"
    assert error_code(call("hint")) == "not_your_turn"
    assert error_code(call("undo")) == "cannot_undo"


def test_bots_only_match_has_no_viewer_and_hides_every_hand():
    snap = start(8, seats=[{"type": "bot", "level": "random"}, {"type": "bot", "level": "easy"}])
    assert snap["viewer"] is None and snap["view"]["hand"] is None
    for _ in range(5000):
        if snap["is_over"]:
            break
        assert snap["bot_turn"] and snap["legal"] == []
        snap = call("bot_move")["snapshot"]
    assert snap["is_over"]


def test_pass_and_play_follows_the_seat_to_move():
    snap = start(9, seats=[{"type": "human"}, {"type": "human"}])
    rng = random.Random(9)
    for _ in range(30):
        if snap["is_over"]:
            break
        assert snap["viewer"] == snap["current_player"]
        assert all(a["player"] == snap["viewer"] for a in snap["legal"])
        snap = play_human(snap, rng)


def test_hint_suggests_a_legal_action_and_changes_nothing():
    snap = to_human_turn(start(3))
    reply = call("hint")
    assert error_code(reply) is None, reply
    assert reply["action"]["id"] in {a["id"] for a in snap["legal"]}
    assert reply["level"] in call("games")["levels"]
    assert call("snapshot") == snap


def test_hint_on_the_bot_turn_is_refused():
    snap = start_on_a_bot_turn()
    assert error_code(call("hint")) == "not_your_turn"
    assert call("snapshot") == snap


# ----- the view hides what it must -----------------------------------------------------


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value, *value.split(","), *value.split(":")}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def test_snapshot_never_shows_the_opponents_unknown_cards():
    snap = start(13)
    rng = random.Random(13)
    for _ in range(200):
        if snap["is_over"]:
            break
        state = bridge.DESK.session.state
        hidden = list(state.hands[1])
        for card in state.known[1]:
            hidden.remove(card)
        hidden += list(state.draw_pile) + list(state.removed)
        # The table as the last round ended (a move's round_end: the cards of that deal, dealt
        # anew since) is checked by the round's end test below, against that deal.
        visible = strings_in({k: v for k, v in snap.items() if k != "round_end"})
        leaked = set(hidden) & visible - set(snap["view"]["hand"] or [])
        assert not leaked, f"the human can see {sorted(leaked)}"
        snap = call("bot_move")["snapshot"] if snap["bot_turn"] else play_human(snap, rng)


def test_a_move_that_ends_a_round_brings_the_table_as_it_ended_and_hides_what_it_hid():
    snap = start(13)
    rng = random.Random(13)
    ended = 0
    for _ in range(2000):
        if snap["is_over"] or ended >= 2:
            break
        before = bridge.DESK.session.state.clone()
        hidden = set(before.hands[1]) - set(before.known[1])
        rounds = len(snap["result"]["rounds"])
        snap = call("bot_move")["snapshot"] if snap["bot_turn"] else play_human(snap, rng)
        if len(snap["result"]["rounds"]) == rounds:
            assert error_code(call("round_end")) == "no_round_end"
            continue
        if snap["is_over"]:
            break
        ended += 1
        end = call("round_end")
        assert end["round"] == len(snap["result"]["rounds"])
        assert end["view"]["round"] == before.view(0)["round"], "the ended round, not the new deal"
        assert end["view"]["hand"] != snap["view"]["hand"]
        still_hidden = hidden - set(bridge.DESK.session.state.history[-1].cards)
        assert not (still_hidden & strings_in(end["view"])), "the opponent's cards stay hidden"
        # The match itself goes on from the new deal, untouched.
        assert call("snapshot")["view"] == snap["view"]
    assert ended >= 1


def test_a_moves_reply_brings_the_rounds_end_and_the_save_so_a_move_is_one_request():
    snap = start(13)
    rng = random.Random(13)
    ended = 0
    while not snap["is_over"]:
        rounds = len(snap["result"]["rounds"])
        if snap["bot_turn"]:
            reply = call("bot_move", {"save": True})
            snap = reply["snapshot"]
        else:
            reply = call("act", {"action": rng.choice(snap["legal"])["id"], "save": True})
            snap = reply
        assert error_code(reply) is None, reply
        # The save is what record answers now; the round's end what round_end does.
        assert reply["save"] == call("record")
        if len(snap["result"]["rounds"]) > rounds and not snap["is_over"]:
            ended += 1
            assert snap["round_end"] == call("round_end")
            assert snap["round_end"]["round"] == len(snap["result"]["rounds"])
        else:
            assert "round_end" not in snap
    assert ended >= 1
    # Without {save: true} no save comes (a friend's seat's move, a call of the tests).
    snap = start(13)
    snap = to_human_turn(snap)
    assert "save" not in call("act", {"action": snap["legal"][0]["id"]})
    # An undo's reply brings the save too (practice: the person's move is taken back).
    snap = to_human_turn(start(13, practice=True))
    call("act", {"action": snap["legal"][0]["id"]})
    undone = call("undo", {"save": True})
    assert error_code(undone) is None, undone
    assert undone["save"] == call("record") and "round_end" not in undone
    assert undone["moves"] == snap["moves"]


def test_a_match_loaded_just_after_a_round_ended_brings_that_round_end_back():
    snap = start(13)
    rng = random.Random(13)
    while len(snap["result"]["rounds"]) == 0:
        snap = call("bot_move")["snapshot"] if snap["bot_turn"] else play_human(snap, rng)
    assert not snap["is_over"]
    end = call("round_end")
    saved = call("record")
    assert call("load", saved)["view"] == snap["view"]
    assert call("round_end") == end
    # One move later the record's last move ended nothing: there is no round end to bring.
    snap = call("bot_move")["snapshot"] if snap["bot_turn"] else play_human(snap, rng)
    call("load", call("record"))
    assert error_code(call("round_end")) == "no_round_end"


# ----- undo --------------------------------------------------------------------------


def expected_undo(session: bridge.Session) -> int:
    """The policy, restated: the acting human's own trailing actions, none past a reveal."""
    state = session.state
    humans = {i for i, seat in enumerate(session.seats) if seat.type == "human"}
    current = state.current_player
    if session.practice or current is None or current not in humans:
        return -1 if session.practice else 0
    count = 0
    for index in range(len(state.history) - 1, -1, -1):
        if state.history[index].player != current or state.move_revealed_hidden(index):
            break
        count += 1
    return count


def observable(snap: dict) -> dict:
    """What a snapshot shows of the match itself (not the log's bookkeeping or what undo may
    do next)."""
    return {key: snap[key] for key in ("view", "legal", "result", "current_player", "moves")}


def test_nothing_to_undo_at_the_start():
    start(3)
    assert error_code(call("undo")) == "cannot_undo"


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_undo_takes_back_only_own_actions_since_the_turn_began(game_id):
    spec = engine.GAMES[game_id]
    players = spec.min_players
    seats = [{"type": "human"}] + [{"type": "bot", "level": "random"}] * (players - 1)
    snap = call("start", {"game": game_id, "seed": 5, "seats": seats})
    assert error_code(snap) is None, snap
    rng = random.Random(5)
    undone = 0
    seen: dict[int, dict] = {}  # what the table showed after each number of moves
    for _ in range(400):
        if snap["is_over"]:
            break
        seen[snap["moves"]] = observable(snap)
        session = bridge.DESK.session
        count = expected_undo(session)
        assert snap["can_undo"] == (count > 0)
        if count and rng.random() < 0.5:
            before = session.state.to_record()["actions"]
            after = call("undo")
            assert error_code(after) is None, after
            assert after["moves"] == snap["moves"] - count
            assert bridge.DESK.session.state.to_record()["actions"] == before[:-count]
            assert after["current_player"] == snap["current_player"]
            assert after["human_turn"]
            assert after["can_undo"] == (expected_undo(bridge.DESK.session) > 0)
            # Taken back, the table is as it was before those moves.
            assert observable(after) == seen[after["moves"]]
            undone += 1
            snap = after
        elif snap["bot_turn"]:
            # On a computer's turn there is nothing of the person's to take back.
            assert error_code(call("undo")) == "cannot_undo"
            assert call("snapshot") == snap
            snap = call("bot_move")["snapshot"]
        else:
            if not count:
                assert error_code(call("undo")) == "cannot_undo"
                assert call("snapshot") == snap
            snap = play_human(snap, rng)


def test_undo_never_goes_past_a_revealed_card():
    # In Crisps the only way to move twice in a row is to take a card after a trick, which
    # shows a new card: so outside practice there is never anything to take back.
    snap = start(17)
    rng = random.Random(17)
    for _ in range(300):
        if snap["is_over"]:
            break
        assert snap["can_undo"] is False
        snap = call("bot_move")["snapshot"] if snap["bot_turn"] else play_human(snap, rng)


def test_practice_undo_returns_to_the_previous_decision():
    snap = to_human_turn(start(3, practice=True))
    rng = random.Random(3)
    decisions = []
    for _ in range(12):
        if snap["is_over"]:
            break
        decisions.append(snap)
        snap = to_human_turn(play_human(snap, rng))
    assert snap["can_undo"]
    for earlier in reversed(decisions):
        back = call("undo")
        assert error_code(back) is None, back
        assert back["view"] == earlier["view"] and back["legal"] == earlier["legal"]
        assert back["moves"] == earlier["moves"]
        snap = back
    if snap["moves"] == 0:
        assert error_code(call("undo")) == "cannot_undo"


def test_practice_undo_crosses_revealed_cards():
    snap = to_human_turn(start(17, practice=True))
    rng = random.Random(17)
    for _ in range(300):
        state = bridge.DESK.session.state
        if any(state.move_revealed_hidden(i) for i, a in enumerate(state.history) if a.player == 0):
            break
        snap = to_human_turn(play_human(snap, rng))
    else:
        pytest.fail("the human never revealed a card")  # the check would be lost
    assert snap["can_undo"]
    before = snap["moves"]
    assert call("undo")["moves"] < before


# ----- record and load ---------------------------------------------------------------


def test_record_and_load_round_trip():
    snap = start(
        6,
        seats=[{"type": "human", "name": "Ada"}, {"type": "bot", "level": "easy", "name": "Bo"}],
        options={"special_rank_runs": True},
    )
    rng = random.Random(6)
    for _ in range(25):
        if snap["is_over"]:
            break
        snap = call("bot_move")["snapshot"] if snap["bot_turn"] else play_human(snap, rng)
    saved = call("record")
    assert set(saved) == {"record", "seats", "practice"}
    assert saved["record"]["game"] == "crisps" and saved["record"]["seed"] == 6
    assert len(saved["record"]["actions"]) == snap["moves"]
    text = json.dumps(saved)  # what the page stores
    bridge.reset()
    loaded = call("load", json.loads(text))
    assert error_code(loaded) is None, loaded
    # The same table and log; the log is a new generation of a new session (see log_id).
    assert loaded["log_id"] != snap["log_id"]
    assert {**loaded, "log_id": None} == {**snap, "log_id": None}
    assert call("record") == saved


def test_load_without_seats_uses_the_defaults():
    start(6)
    saved = call("record")
    loaded = call("load", {"record": saved["record"]})
    assert [s["type"] for s in loaded["seats"]] == ["human", "bot"]


@pytest.mark.parametrize(
    "mutate,code",
    [
        (lambda r: {**r, "record": None}, "invalid_record"),
        (lambda r: {**r, "record": "crisps"}, "invalid_record"),
        (lambda r: {**r, "record": {**r["record"], "actions": ["play:ZZ"]}}, "invalid_record"),
        (lambda r: {**r, "record": {**r["record"], "game": "chess"}}, "invalid_record"),
        (lambda r: {**r, "record": {**r["record"], "extra": 1}}, "invalid_record"),
        (
            lambda r: {**r, "record": {k: v for k, v in r["record"].items() if k != "seed"}},
            "invalid_record",
        ),
        (lambda r: {**r, "seats": [{"type": "human"}]}, "bad_seats"),
        (lambda r: {**r, "practice": "no"}, "bad_request"),
    ],
)
def test_a_bad_load_keeps_the_current_match(mutate, code):
    snap = to_human_turn(start(6))
    saved = call("record")
    other = start(7)
    reply = call("load", mutate(saved))
    got = error_code(reply)
    if code == "invalid_record":  # the engine may name the record's problem more precisely
        assert got is not None and got != "internal_error", reply
    else:
        assert got == code, reply
    assert call("snapshot") == other
    assert snap != other


# ----- malformed requests ------------------------------------------------------------


@pytest.mark.parametrize("method", NEEDS_MATCH)
def test_no_match_yet(method):
    params = {"action": "pass"} if method in ("act", "why") else {}
    assert error_code(call(method, params)) == "no_match"


@pytest.mark.parametrize("method", ENDPOINTS)
@pytest.mark.parametrize(
    "text,code",
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_request"),
        ('"text"', "bad_request"),
        ("17", "bad_request"),
        ("null", "bad_request"),
        ("[" * 100_000, "bad_json"),
    ],
)
def test_malformed_json_gives_an_error_object(method, text, code):
    reply = json.loads(getattr(bridge, method)(text))
    assert error_code(reply) == code


@pytest.mark.parametrize("method", ENDPOINTS)
def test_parameters_that_are_not_text_give_an_error_object(method):
    for value in (5, b"{}", ["x"], {"game": "crisps"}):
        assert error_code(json.loads(getattr(bridge, method)(value))) == "bad_request"


def test_oversized_request_is_refused():
    text = json.dumps({"game": "crisps", "pad": "x" * bridge.MAX_INPUT_CHARS})
    assert error_code(call_raw("start", text)) == "too_large"


def call_raw(method: str, text: str) -> Any:
    return json.loads(getattr(bridge, method)(text))


def test_empty_parameters_mean_an_empty_object():
    assert "games" in call_raw("games", "")
    start(3)
    assert call_raw("snapshot", "") == call_raw("snapshot", "{}")


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
request_objects = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["crisps", "chess", ""]) | json_values,
        "action": st.text(max_size=20) | json_values,
        "seed": st.integers(-5, 2**64) | json_values,
        "players": st.integers(0, 4) | json_values,
        "seats": json_values,
        "options": json_values,
        "practice": json_values,
        "record": json_values,
    },
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    method=st.sampled_from(["start", "act", "why", "load", "undo", "snapshot", "record", "games"]),
    params=request_objects,
)
def test_any_request_gives_json_never_an_exception(method, params):
    if bridge.DESK.session is None:
        start(3)
    before = call("snapshot")
    reply = call_raw(method, json.dumps(params))
    code = error_code(reply)
    if code is not None:
        assert code != "internal_error", reply
        if method in ("act", "load", "start", "undo"):
            assert call("snapshot") == before, "a refused request must change nothing"


def afresh(viewer: int | None) -> list[dict[str, Any]]:
    """The log of the match in progress as ``viewer`` may know it, written from its history."""
    session = bridge.DESK.session
    assert session is not None
    marks = bridge.logs.RoundMarks().sync(session.state)
    return [
        {
            "player": a.player,
            "text": session.names(session.state.public_label(a, viewer)),
            "round": marks[i],
        }
        for i, a in enumerate(session.state.history)
    ]


@pytest.mark.parametrize("game", ["roundup", "progression"])
def test_the_log_kept_between_snapshots_is_the_log_written_afresh(game):
    """The log's words are kept between snapshots (only new actions are put into words): after
    moves, an undo and another move in its place, a friend naming their seat and a load, each
    seat's log is exactly the one written from the match's history alone. (Roundup's log names
    seats; Progression's words of a play are public, so a move put in place of one taken back
    reads differently.)"""

    seats = [{"type": "human"}, {"type": "friend"}, {"type": "bot", "level": "random"}]
    call("start", {"game": game, "seed": 5, "seats": seats})
    rng = random.Random(5)
    undone = renamed = False
    for step in range(400):
        state = bridge.DESK.session.state
        if state.current_player is None:
            break
        seat = state.current_player
        if seat == 0:
            snap = call("act", {"action": rng.choice(call("snapshot")["legal"])["id"]})
        elif seat == 1:
            legal = call("seat_view", {"seat": 1})["legal"]
            snap = call("act", {"action": rng.choice(legal)["id"], "seat": 1})["seat_view"]
        else:
            snap = call("bot_move")
        assert "error" not in snap
        if step == 60:
            call("set_seat", {"seat": 1, "name": "Ada"})
            renamed = True
        for viewer in (0, 1):
            got = call("seat_view", {"seat": 1})["log"] if viewer else call("snapshot")["log"]
            assert got == afresh(viewer)
        if seat == 1 and not undone:
            taken = bridge.DESK.session.state.history[-1]
            before = len(bridge.DESK.session.state.history)
            undo = call("undo", {"seat": 1})
            others = [a["id"] for a in undo.get("legal", []) if a["id"] != taken.id]
            if "error" not in undo and others:
                undone = True
                assert len(bridge.DESK.session.state.history) < before
                assert undo["log"] == afresh(1)
                # Another move in its place, the host's page having drawn the one taken back.
                call("act", {"action": rng.choice(others), "seat": 1})
            elif "error" not in undo:
                call("act", {"action": taken.id, "seat": 1})
    assert undone and renamed
    if game == "roundup":
        assert any("Ada" in e["text"] for e in call("snapshot")["log"])
    # A history changed under the kept words with no snapshot between (one action taken back
    # and another in its place): the words are those of the new action.
    session = bridge.DESK.session
    record = session.state.to_record()
    taken = record["actions"][-1]
    record["actions"] = record["actions"][:-1]
    session.state = bridge.matches.replayed(record)
    texts = {session.state.public_label(a, 0): a for a in session.state.legal_actions()}
    texts.pop(session.state.public_label(session.state.find_action(taken), 0), None)
    assert texts, "no other move reads differently here"
    session.state.apply(next(iter(texts.values())))
    assert session.log_fields(0)["log"] == afresh(0)
    saved = call("record")
    call("start", {"game": game, "seed": 6, "seats": seats})
    call("snapshot")
    call(
        "load", {**saved, "record": {**saved["record"], "actions": saved["record"]["actions"][:7]}}
    )
    assert call("snapshot")["log"] == afresh(0)


def test_a_page_that_holds_the_log_is_sent_only_the_entries_after_it():
    """``log_have``: a snapshot for a viewer whose log the page holds carries only the entries
    after those, until something written changes (a move taken back, a seat renamed, another
    match): then a new generation, and the whole log."""
    page = PageCalls()
    seats = [{"type": "human"}, {"type": "friend"}, {"type": "bot", "level": "random"}]
    page("start", {"game": "roundup", "seed": 8, "seats": seats})
    rng = random.Random(8)
    for _ in range(60):
        seat = bridge.DESK.session.state.current_player  # type: ignore[union-attr]
        if seat == 0:
            page("act", {"action": rng.choice(page("snapshot")["legal"])["id"]})
        elif seat == 1:
            legal = page("seat_view", {"seat": 1})["legal"]
            page("act", {"action": rng.choice(legal)["id"], "seat": 1})
        else:
            page("bot_move")
        # Every viewer's log, put together from the parts, is the whole log.
        assert page("snapshot")["log"] == afresh(0)
        assert page("seat_view", {"seat": 1})["log"] == afresh(1)
    assert page.partial > 10 * page.whole

    def have(viewer: int) -> dict[str, Any]:
        generation, entries = page.logs[str(viewer)]
        return {"log_have": {str(viewer): [generation, len(entries)]}}

    held = len(afresh(0))
    same = call("snapshot", have(0))
    assert same["log"] == [] and same["log_from"] == held
    # A count beyond the log, or another generation: the whole log.
    generation = page.logs["0"][0]
    for forged in ([generation, held + 1], [generation + "x", held]):
        reply = call("snapshot", {"log_have": {"0": forged}})
        assert reply["log_from"] == 0 and reply["log"] == afresh(0)
    # A malformed log_have is refused and changes nothing.
    before = page("snapshot")
    for bad in ([1], {"0": "all"}, {"0": [generation]}, {"0": [generation, -1]}, {"0": [1, 2]}):
        assert call("snapshot", {"log_have": bad})["error"]["code"] == "bad_request"
        assert call("act", {"action": "no-such", "log_have": bad})["error"]["code"] == (
            "bad_request"
        )
    assert page("snapshot") == before
    # A seat renamed: every entry may read differently, so a new generation.
    call("set_seat", {"seat": 1, "name": "Ada"})
    renamed = call("snapshot", have(0))
    assert renamed["log_from"] == 0 and renamed["log_id"] != generation
    assert renamed["log"] == afresh(0)
    page("snapshot")
    # Another match (or the same one loaded again): nothing held is of its generations.
    saved = call("record")
    loaded = call("load", {**saved, "log_have": have(0)["log_have"]})
    assert loaded["log_from"] == 0 and loaded["log"] == afresh(0)
    # A move taken back: a new generation too (a practice match, where every move may be).
    page = PageCalls()
    page("start", {"game": "crisps", "seed": 8, "practice": True, "seats": seats[::2]})
    for _ in range(6):
        page("act", {"action": page("snapshot")["legal"][0]["id"]})
        while bridge.DESK.session.state.current_player == 1:  # type: ignore[union-attr]
            page("bot_move")
    generation = page.logs["0"][0]
    undone = call("undo", have(0))
    assert "error" not in undone, undone
    assert undone["log_from"] == 0 and undone["log_id"] != generation
    assert undone["log"] == afresh(0)

"""Stateful fuzzing of engine.bridge: random sequences of valid and junk calls.

Whatever arrives — unknown ids, wrong types, malformed JSON, huge strings, calls out of
order — no Python exception escapes, every error carries a code and a readable message, and
an error leaves the match exactly as it was.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import engine
from engine import bridge
from tests.test_bridge import ENDPOINTS

GAME_IDS = sorted(engine.GAMES)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.text(max_size=30),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
junk_text = st.one_of(
    st.text(max_size=200),
    st.sampled_from(
        [
            "{",
            "[]",
            "null",
            "1",
            '"x"',
            '{"action": 5}',
            '{"game": []}',
            "\u0000",
            '{"record": {"game": "crisps"}}',
            "[" * 5000,
        ]
    ),
    st.builds(lambda n: "x" * n, st.integers(0, 3_000_000)),
    json_values.map(json.dumps),
)


def call(method: str, text: str | None) -> dict:
    reply = getattr(bridge, method)(text)
    assert isinstance(reply, str), f"{method} returned {type(reply).__name__}, not JSON text"
    parsed = json.loads(reply)
    assert isinstance(parsed, dict)
    if "error" in parsed:
        error = parsed["error"]
        assert isinstance(error.get("code"), str) and error["code"]
        assert isinstance(error.get("message"), str) and error["message"].strip()
        assert "Traceback" not in error["message"]
        assert error["code"] != "internal_error", error["message"]
    return parsed


def observable() -> str | None:
    """The match as the page can see it: the record plus the snapshot (its whole log)."""
    snap = json.loads(bridge.snapshot())
    if "error" in snap:
        return None
    # As the page holds it: a load that changes nothing starts a new generation of the log.
    snap = bridge.whole_log(snap)
    return json.dumps({"snap": snap, "record": json.loads(bridge.record())}, sort_keys=True)


class BridgeMachine(RuleBasedStateMachine):
    @initialize(game=st.sampled_from(GAME_IDS), seed=st.integers(0, 10_000))
    def begin(self, game: str, seed: int) -> None:
        bridge.reset()
        spec = engine.GAMES[game]
        bots = spec.default_players - 1
        seats = [{"type": "human"}] + [{"type": "bot", "level": "random"}] * bots
        reply = call("start", json.dumps({"game": game, "seed": seed, "seats": seats}))
        assert "error" not in reply, reply

    @rule(method=st.sampled_from(ENDPOINTS), text=junk_text)
    def junk_call(self, method: str, text: str) -> None:
        before = observable()
        reply = call(method, text)
        if "error" in reply:
            assert observable() == before, f"{method} failed but changed the match"

    @rule(
        action=st.one_of(
            st.text(max_size=40),
            st.sampled_from(["pass", "play:", "draw:stock", "take:faceup", "end", "discard:7H"]),
        )
    )
    def unknown_action(self, action: str) -> None:
        before = observable()
        reply = call("act", json.dumps({"action": action}))
        if "error" in reply:
            assert observable() == before

    @rule(pick=st.integers(0, 10_000))
    def legal_move(self, pick: int) -> None:
        snap = call("snapshot", None)
        if "error" in snap:
            return
        if snap["bot_turn"]:
            reply = call("bot_move", None)
            assert "error" not in reply, reply
        elif snap["legal"]:
            action = snap["legal"][pick % len(snap["legal"])]["id"]
            reply = call("act", json.dumps({"action": action}))
            assert "error" not in reply, reply

    @rule()
    def undo(self) -> None:
        before = observable()
        reply = call("undo", None)
        if "error" in reply:
            assert observable() == before

    @rule(mangle=st.sampled_from(["drop_action", "bad_game", "extra", "types", "illegal"]))
    def load_tampered(self, mangle: str) -> None:
        saved = call("record", None)
        if "error" in saved:
            return
        record = dict(saved["record"])
        if mangle == "drop_action" and record["actions"]:
            record["actions"] = record["actions"][1:]
        elif mangle == "bad_game":
            record["game"] = "chess"
        elif mangle == "extra":
            record["cheat"] = True
        elif mangle == "types":
            record["seed"] = "seven"
        else:
            record["actions"] = record["actions"] + ["not-a-move"]
        before = observable()
        reply = call("load", json.dumps({"record": record, "seats": saved["seats"]}))
        if mangle == "drop_action" and "error" not in reply:
            # The match without its first move may be a match too (or the same one, when no
            # move was made yet): then that is what was loaded.
            assert call("record", None)["record"] == record
            return
        assert "error" in reply, f"a tampered record ({mangle}) was loaded"
        assert observable() == before, f"the refused load ({mangle}) changed the match"

    @rule()
    def save_and_load(self) -> None:
        saved = call("record", None)
        if "error" in saved:
            return
        before = observable()
        reply = call("load", json.dumps(saved))
        assert "error" not in reply, reply
        assert observable() == before

    @invariant()
    def still_answers(self) -> None:
        call("games", None)


BridgeMachine.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
test_bridge_survives_any_sequence_of_calls = BridgeMachine.TestCase

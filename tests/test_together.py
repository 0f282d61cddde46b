"""Shared matches (friends on their own devices): every message the host's page would send a
friend is built from ``seat_view`` and the friend's own requests (``act``, ``why``, ``undo``
with ``seat``). Whole seeded matches of every game check that none of them ever holds a card
that seat may not see, and that a friend's seat takes only its own moves."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import bridge
from tests.bridge_calls import PageCalls, call

# Short matches of every game; every table size a friend can sit at is not needed: two and
# three seats cover a friend beside the host, a computer and a second friend.
MATCHES = [
    ("crisps", ["human", "friend"], {}, 11),
    ("spite", ["friend", "human"], {"target": 0}, 12),
    ("roundup", ["human", "friend", "bot", "friend"], {"target_score": 5}, 13),
    ("progression", ["friend", "human"], {"length": "six-rounds"}, 14),
    ("mhing", ["human", "friend"], {"target": 14}, 15),
]


def cards_in(value: Any) -> set[str]:
    """Every card id in a JSON value: a string leaf that is one, or one inside an action id
    ("play:7H,7D")."""
    out: set[str] = set()
    if isinstance(value, dict):
        for item in value.values():
            out |= cards_in(item)
    elif isinstance(value, list):
        for item in value:
            out |= cards_in(item)
    elif isinstance(value, str):
        for token in value.replace(":", ",").replace(" ", ",").split(","):
            if is_card(token):
                out.add(token)
    return out


def is_card(token: str) -> bool:
    base = token.split("#", 1)[0]
    if base.startswith("JK") and base[2:].isdigit():
        return True
    return len(base) in (2, 3) and base[-1] in "SHDC" and base[:-1] in RANKS


RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}


_PUBLIC: dict[tuple[int, int], tuple[int, set[str]]] = {}
"""Per match (the state's id) and seat: how many actions were read, and the cards they named
in plain sight (an action whose public label for the seat is its own label)."""


def hidden_from(state: engine.core.State, seat: int) -> set[str]:
    """The cards ``seat`` may not know where they are now: those in any other seat's view and
    not in its own, less those that an action shown to everyone named (a public play)."""
    others: set[str] = set()
    for other in range(state.players):
        if other != seat:
            others |= cards_in(state.view(other))
    read, public = _PUBLIC.get((id(state), seat), (0, set()))
    if read > len(state.history):
        read, public = 0, set()
    for action in state.history[read:]:
        if state.public_label(action, seat) == action.label:
            public |= set(action.cards)
    _PUBLIC[(id(state), seat)] = (len(state.history), public)
    return others - cards_in(state.view(seat)) - public


def check_message(message: dict[str, Any], seat: int, full_log: bool = False) -> None:
    """A message for ``seat``'s device: its view is that seat's, and it holds no hidden card."""
    state = bridge.DESK.session.state  # type: ignore[union-attr]
    assert message["viewer"] == seat
    assert message["view"] == state.view(seat)
    assert [s["type"] for s in message["seats"]].count("human") == 1
    assert message["seats"][seat]["type"] == "human"
    # The table as the latest round ended is that seat's view of that table (the engine's
    # own view(seat), of the position before the next deal), held apart from the rest.
    rest = {k: v for k, v in message.items() if k not in ("round_end", "log")}
    # The log is the seat's own public labels of every action; each step adds one, and the
    # earlier ones were checked at their own steps (the whole log is at the end).
    log = message["log"] if full_log else message["log"][-3:]
    assert (
        [e["text"] for e in log]
        == [
            bridge.DESK.session.names(state.public_label(a, seat))  # type: ignore[union-attr]
            for a in state.history[len(state.history) - len(log) :]
        ]
    )
    rest["log"] = log
    if message["round_end"] is not None:
        before, taken = bridge.DESK.session.round_end_move  # type: ignore[union-attr]
        assert message["round_end"]["view"] == bridge.rounds.round_end_view(before, taken, seat)
    leaked = cards_in(rest) & hidden_from(state, seat)
    assert not leaked, f"seat {seat} was sent {sorted(leaked)}"
    if message["legal"]:
        assert state.current_player == seat
        assert {a["id"] for a in message["legal"]} == {a.id for a in state.legal_actions()}


@pytest.mark.slow
@pytest.mark.parametrize(("game", "seats", "options", "seed"), MATCHES, ids=[m[0] for m in MATCHES])
def test_a_friend_is_sent_only_what_their_seat_may_see(game, seats, options, seed):
    specs = [
        {"type": kind, "level": "random"} if kind == "bot" else {"type": kind} for kind in seats
    ]
    # As the host's page asks: each snapshot brings the log entries it does not hold yet, and
    # the message a friend is sent carries the whole log (see check_message).
    call = PageCalls()
    reply = call("start", {"game": game, "seed": seed, "options": options, "seats": specs})
    assert "error" not in reply
    friends = [i for i, kind in enumerate(seats) if kind == "friend"]
    rng = random.Random(seed)
    steps = 0
    while True:
        for seat in friends:
            check_message(call("seat_view", {"seat": seat}), seat)
        state = bridge.DESK.session.state  # type: ignore[union-attr]
        current = state.current_player
        if current is None:
            break
        kind = seats[current]
        if kind == "bot":
            assert "error" not in call("bot_move")
        elif kind == "human":
            host = call("snapshot")
            assert host["human_turn"] and not host["bot_turn"]
            assert "error" not in call("act", {"action": rng.choice(host["legal"])["id"]})
        else:
            view = call("seat_view", {"seat": current})
            if steps % 25 == 0:
                host = call("snapshot")
                assert not host["human_turn"] and not host["bot_turn"] and not host["legal"]
                # Another friend's seat, or the host without a seat, cannot move for this one.
                other = next((f for f in friends if f != current), None)
                if other is not None:
                    refused = call("act", {"action": view["legal"][0]["id"], "seat": other})
                    assert refused["error"]["code"] == "not_your_turn"
                assert call("act", {"action": view["legal"][0]["id"]})["error"]["code"] == (
                    "not_your_turn"
                )
                assert call("act", {"action": "no-such-move", "seat": current})["error"]
            moved = call("act", {"action": rng.choice(view["legal"])["id"], "seat": current})
            assert "error" not in moved
            check_message(moved["seat_view"], current)
        steps += 1
        assert steps < 20_000
    for seat in friends:
        final = call("seat_view", {"seat": seat})
        check_message(final, seat, full_log=True)
        assert final["is_over"] and final["result"]["winners"]
    assert call.partial > 10 * call.whole


def test_a_friends_round_end_is_the_table_from_their_own_seat():
    call("start", {"game": "roundup", "seed": 3, "seats": [{"type": "human"}, {"type": "friend"}]})
    rng = random.Random(3)
    for _ in range(5000):
        state = bridge.DESK.session.state  # type: ignore[union-attr]
        seat = state.current_player
        params: dict[str, Any] = {"seat": seat} if seat == 1 else {}
        legal = (call("seat_view", {"seat": 1}) if seat == 1 else call("snapshot"))["legal"]
        call("act", {"action": rng.choice(legal)["id"], **params})
        view = call("seat_view", {"seat": 1})
        if view["round_end"]:
            before, taken = bridge.DESK.session.round_end_move  # type: ignore[union-attr]
            assert view["round_end"]["view"] == bridge.rounds.round_end_view(before, taken, 1)
            assert not cards_in(view["round_end"]) & hidden_from(before, 1) - cards_in(
                view["round_end"]["view"]
            )
            return
    pytest.fail("no round ended")


def random_move(rng: random.Random) -> tuple[int, dict[str, Any]]:
    """In a host's (seat 0) and a friend's (seat 1) Crisps: a random legal move for the seat
    to act, each taken as its page sends it; the seat and the bridge's reply."""
    seat = bridge.DESK.session.state.current_player  # type: ignore[union-attr]
    assert seat is not None
    params: dict[str, Any] = {"seat": seat} if seat == 1 else {}
    legal = (call("seat_view", {"seat": 1}) if seat == 1 else call("snapshot"))["legal"]
    return seat, call("act", {"action": rng.choice(legal)["id"], **params})


def test_undo_in_a_shared_match_is_your_own_last_move_until_the_next_player_acts():
    call(
        "start",
        {"game": "crisps", "seed": 5, "seats": [{"type": "human"}, {"type": "friend"}]},
    )
    rng = random.Random(5)
    # Play until a person's move can be taken back (a move that showed no hidden card).
    for _ in range(400):
        mover, moved = random_move(rng)
        state = bridge.DESK.session.state  # type: ignore[union-attr]
        if bridge.session.own_undo_count(bridge.DESK.session, mover):  # type: ignore[arg-type]
            break
    else:
        pytest.fail("no move could be taken back")
    other = 1 - mover
    moves = len(state.history)
    # The other player may not take it back; the mover may, while the other has not acted.
    if other == 1:
        assert call("undo", {"seat": 1})["error"]["code"] == "cannot_undo"
        undone = call("undo")
    else:
        assert call("undo")["error"]["code"] == "cannot_undo"
        assert moved["seat_view"]["can_undo"]
        undone = call("undo", {"seat": 1})
        check_message(undone, 1)
    assert "error" not in undone
    assert len(bridge.DESK.session.state.history) < moves  # type: ignore[union-attr]


def test_a_friends_undo_after_another_players_move_is_refused_with_the_rule():
    call(
        "start",
        {"game": "crisps", "seed": 7, "seats": [{"type": "human"}, {"type": "friend"}]},
    )
    state = bridge.DESK.session.state  # type: ignore[union-attr]
    rng = random.Random(7)
    # Play until the host has moved after a move of the friend's (an undo asked for by a page
    # that had not yet drawn the host's move).
    while not (state.history[-1:] and state.history[-1].player == 0 and len(state.history) > 2):
        random_move(rng)
        state = bridge.DESK.session.state  # type: ignore[union-attr]
    assert any(action.player == 1 for action in state.history)
    moves = len(state.history)
    refused = call("undo", {"seat": 1})
    assert refused["error"]["code"] == "cannot_undo"
    assert (
        "only your own last move, and only until the next player acts"
        in (refused["error"]["message"])
    )
    assert len(bridge.DESK.session.state.history) == moves  # type: ignore[union-attr]


def test_friend_requests_are_checked():
    call("start", {"game": "crisps", "seed": 9, "seats": [{"type": "human"}, {"type": "friend"}]})
    for bad in (0, 2, -1, True, "1", None):
        reply = call("seat_view", {"seat": bad})
        assert reply["error"]["code"] == "bad_seat", bad
    assert call("act", {"action": "x", "seat": 0})["error"]["code"] == "bad_seat"
    renamed = call("set_seat", {"seat": 1, "name": "  Ada Lovelace the Magnificent  "})
    assert renamed["seats"][1]["name"] == "Ada Lovelace the Magnifi"
    assert call("set_seat", {"seat": 1, "level": "nonsense"})["error"]["code"] == "bad_seats"
    handed = call("set_seat", {"seat": 1, "level": "easy"})
    name = "Ada Lovelace the Magnifi"
    assert handed["seats"][1] == {"type": "bot", "level": "easy", "name": name}
    assert call("seat_view", {"seat": 1})["error"]["code"] == "bad_seat"
    # The saved form keeps friends' seats: a host who reloads gets them back, waiting.
    call("start", {"game": "crisps", "seed": 9, "seats": [{"type": "human"}, {"type": "friend"}]})
    saved = call("record")
    assert call("load", saved)["seats"][1]["type"] == "friend"


def test_a_friend_is_suggested_a_move_for_their_seat_on_their_turn():
    call("start", {"game": "crisps", "seed": 3, "seats": [{"type": "human"}, {"type": "friend"}]})
    rng = random.Random(3)
    while bridge.DESK.session.state.current_player != 1:  # type: ignore[union-attr]
        assert call("hint", {"seat": 1})["error"]["code"] == "not_your_turn"
        random_move(rng)
    # The host's own hint is not the friend's; the friend's is one of their legal moves, found
    # by the search from what their seat may know (engine/bots/analysis.py determinizes).
    assert call("hint")["error"]["code"] == "not_your_turn"
    suggested = call("hint", {"seat": 1, "iterations": 50})
    legal = [a["id"] for a in call("seat_view", {"seat": 1})["legal"]]
    assert suggested["action"]["id"] in legal and suggested["reason"]
    assert call("hint", {"seat": 0})["error"]["code"] == "bad_seat"

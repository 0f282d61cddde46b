"""Fair deals: the fingerprint fixed by the deal, a finished match's check catching every
kind of tampering with its reason, and a shared table's seed that no device can choose."""

from __future__ import annotations

import copy
import json
import random

import pytest

import engine
from engine import bridge, deal_check, fairness
from engine.fairness import FairnessError

SALT = "0123456789abcdef" * 2


def finished(game: str = "crisps", seed: int = 5, players: int | None = None) -> engine.State:
    state = engine.new_game(game, players, seed)
    fairness.commit(state, SALT)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.fixture(scope="module")
def match() -> dict:
    return finished().to_record()


def test_the_fingerprint_is_fixed_by_game_players_seed_options_and_salt():
    base = fairness.fingerprint("crisps", 2, 7, {"auto_skip": True}, SALT)
    assert base == fairness.fingerprint("crisps", 2, 7, {"auto_skip": True}, SALT)
    changed = [
        fairness.fingerprint("roundup", 2, 7, {"auto_skip": True}, SALT),
        fairness.fingerprint("crisps", 3, 7, {"auto_skip": True}, SALT),
        fairness.fingerprint("crisps", 2, 8, {"auto_skip": True}, SALT),
        fairness.fingerprint("crisps", 2, 7, {"auto_skip": False}, SALT),
        fairness.fingerprint("crisps", 2, 7, {"auto_skip": True}, "f" * 32),
    ]
    assert base not in changed and len(set(changed)) == len(changed)
    # The options' order does not matter; the text any SHA-256 tool can check is plain.
    assert fairness.fingerprint("crisps", 2, 7, {"a": 1, "b": 2}, SALT) == fairness.fingerprint(
        "crisps", 2, 7, {"b": 2, "a": 1}, SALT
    )
    assert fairness.deal_text("crisps", 2, 7, {}, SALT).endswith(f"seed=7 salt={SALT}")


def test_a_finished_record_checks_and_says_so_in_words(match):
    check = deal_check.check_record(match, expected=match["deal"]["fingerprint"])
    assert check.ok, check.problems
    words = " ".join(check.lines)
    assert "fixed before the first move" in words
    assert f"All {len(match['actions'])} moves were legal" in words


def test_the_record_keeps_the_deal_through_json_and_replay(match):
    again = engine.from_record(json.loads(json.dumps(match)))
    assert again.to_record() == match and again.deal == match["deal"]


@pytest.mark.parametrize(
    ("tamper", "reason"),
    [
        (lambda r: r.update(seed=r["seed"] + 1), "the game, the seed or an option was changed"),
        (
            lambda r: r["options"].update(auto_skip=not r["options"]["auto_skip"]),
            "an option was changed",
        ),
        (lambda r: r["deal"].update(salt="e" * 32), "make the fingerprint"),
        (lambda r: r["actions"].insert(3, r["actions"][2]), "move 4"),
        (lambda r: r["actions"].__setitem__(0, "play:XX"), "move 1"),
        (lambda r: r["actions"].pop(), "before the match is over"),
    ],
    ids=["seed", "option", "salt", "move inserted", "card swapped", "cut short"],
)
def test_a_tampered_record_fails_the_check_with_the_reason(match, tamper, reason):
    record = copy.deepcopy(match)
    tamper(record)
    check = deal_check.check_record(record, expected=match["deal"]["fingerprint"])
    assert not check.ok
    assert reason in " ".join(check.problems)


def test_a_card_swapped_in_a_move_is_named_with_the_move():
    record = finished().to_record()
    # Swap the card of the first move that names one for a card that player does not hold.
    state = engine.new_game("crisps", record["players"], record["seed"], record["options"])
    for number, action_id in enumerate(record["actions"], 1):
        taken = state.apply(action_id)
        if taken.cards:
            held = (
                set(state.zones()[f"hand{taken.player}"])
                if f"hand{taken.player}" in state.zones()
                else set()
            )
            other = next(c for c in state.deck() if c not in held and c not in taken.cards)
            record["actions"][number - 1] = action_id.replace(taken.cards[0], other)
            break
    check = deal_check.check_record(record)
    assert not check.ok
    assert f"move {number}" in " ".join(check.problems)


def test_a_record_recomputed_with_another_seed_is_caught_by_the_fingerprint_shown_at_the_start(
    match,
):
    # Someone who changes the seed and writes a fresh fingerprint into the file is caught
    # by the fingerprint the table showed when the match began.
    other = finished(seed=6).to_record()
    check = deal_check.check_record(other, expected=match["deal"]["fingerprint"])
    assert not check.ok and "shown at the start" in check.problems[0]


def test_scores_that_differ_from_the_table_fail(match):
    replayed = engine.from_record(match)
    wrong = [s + 1 for s in replayed.result()["scores"]]
    check = deal_check.check_record(match, scores=wrong)
    assert not check.ok and "as the table showed" in check.problems[0]


def test_a_record_without_a_fingerprint_says_there_is_nothing_to_check(match):
    record = {k: v for k, v in match.items() if k != "deal"}
    check = deal_check.check_record(record)
    assert not check.ok and "without a deal fingerprint" in check.problems[0]


# ----- a shared table's seed ---------------------------------------------------------------------


def test_a_reveal_that_differs_from_its_commitment_is_refused():
    value = fairness.new_value()
    assert fairness.check_reveal(fairness.commitment(value), value) == value
    with pytest.raises(FairnessError, match="does not match"):
        fairness.check_reveal(fairness.commitment(value), fairness.new_value())
    with pytest.raises(FairnessError, match="32 hex"):
        fairness.check_reveal(fairness.commitment(value), "not hex")


def test_the_device_that_reveals_last_cannot_set_the_joint_seed():
    # The host and a friend have committed; the friend sees the host's value first, then
    # tries every value of its own for the seed it wants. Only the committed one is taken.
    host, friend = fairness.new_value(), fairness.new_value()
    commitments = [fairness.commitment(host), fairness.commitment(friend)]
    honest = fairness.joint_seed_from(commitments, [host, friend])
    wanted = (honest + 1) % 2**31
    refused = 0
    for _ in range(200):
        attempt = fairness.new_value()
        try:
            seed = fairness.joint_seed_from(commitments, [host, attempt])
        except FairnessError as exc:
            assert "device 2" in str(exc)
            refused += 1
        else:
            assert seed == honest  # never another seed, let alone the wanted one
            assert seed != wanted
    assert refused == 200
    # Every value counts: changing any one device's value changes the seed.
    assert fairness.joint_seed([host, fairness.new_value()]) != honest
    assert fairness.joint_seed([fairness.new_value(), friend]) != honest


def test_the_bridge_deals_a_shared_table_from_the_values_and_refuses_a_bad_reveal():
    values = [fairness.new_value(), fairness.new_value()]
    commitments = [fairness.commitment(v) for v in values]
    seats = [{"type": "human"}, {"type": "friend"}]
    snap = json.loads(
        bridge.start(
            json.dumps(
                {"game": "crisps", "seats": seats, "values": values, "commitments": commitments}
            )
        )
    )
    assert bridge.DESK.session is not None
    assert bridge.DESK.session.state.seed == fairness.joint_seed(values)
    assert "seed" not in snap["deal"] and "salt" not in snap["deal"]
    bad = json.loads(
        bridge.start(
            json.dumps(
                {
                    "game": "crisps",
                    "seats": seats,
                    "values": [values[0], fairness.new_value()],
                    "commitments": commitments,
                }
            )
        )
    )
    assert bad["error"]["code"] == "bad_reveal" and "device 2" in bad["error"]["message"]


def test_a_check_catches_a_seed_not_made_of_the_values_or_a_value_not_committed():
    values = [fairness.new_value(), fairness.new_value()]
    commitments = [fairness.commitment(v) for v in values]
    state = finished(seed=fairness.joint_seed(values))
    fairness.commit(state, SALT, values)
    good = state.to_record()
    assert deal_check.check_record(good, commitments=commitments).ok
    # A host that dealt from a seed of its own, with a fingerprint that matches it.
    other = finished(seed=99)
    fairness.commit(other, SALT, values)
    check = deal_check.check_record(other.to_record(), commitments=commitments)
    assert not check.ok and "the deal came from another seed" in " ".join(check.problems)
    # A value swapped after the commitments were sent.
    swapped = copy.deepcopy(good)
    swapped["deal"]["values"][1] = fairness.new_value()
    check = deal_check.check_record(swapped, commitments=commitments)
    assert "device 2's revealed value does not match" in " ".join(check.problems)


def test_a_check_compares_what_a_seat_was_shown_with_the_replay(match):
    def seen(seed: int, moves: int) -> dict:
        state = engine.new_game("crisps", None, seed)
        for action_id in match["actions"][:moves]:
            state.apply(action_id)
        return {"seat": 1, "moves": moves, "view": json.loads(json.dumps(state.view(1)))}

    check = deal_check.check_record(match, seen=seen(match["seed"], 3))
    assert check.ok, check.problems
    assert "shown for its seat after move 3 are the ones the replay deals" in " ".join(check.lines)
    # A host that shows the record's fingerprint but dealt this seat another seed's cards.
    check = deal_check.check_record(match, seen=seen(match["seed"] + 1, 0))
    assert not check.ok
    assert "dealt other cards than the record says" in " ".join(check.problems)
    check = deal_check.check_record(match, seen={"seat": 1, "moves": 10_000, "view": {}})
    assert "the record holds only" in " ".join(check.problems)


def test_the_snapshot_shows_the_fingerprint_while_playing_and_the_seed_once_over():
    snap = json.loads(
        bridge.start(
            json.dumps(
                {"game": "crisps", "seed": 5, "seats": [{"type": "bot", "level": "random"}] * 2}
            )
        )
    )
    assert set(snap["deal"]) == {"fingerprint", "short", "at"}
    while not snap["is_over"]:
        snap = json.loads(bridge.bot_move())["snapshot"]
    assert snap["deal"]["seed"] == 5 and len(snap["deal"]["salt"]) == 32
    record = json.loads(bridge.record())["record"]
    reply = json.loads(
        bridge.check_deal(
            json.dumps(
                {
                    "record": record,
                    "expected": snap["deal"]["fingerprint"],
                    "scores": snap["result"]["scores"],
                }
            )
        )
    )
    assert reply["ok"], reply


# ----- a computer in a lost friend's seat --------------------------------------------------------


def test_a_computer_stands_in_for_a_lost_friend_and_the_record_says_which_moves():
    seats = [{"type": "bot", "level": "random"}, {"type": "friend", "name": "Ada"}]
    assert "error" not in json.loads(
        bridge.start(json.dumps({"game": "crisps", "seed": 3, "seats": seats}))
    )
    taken = json.loads(
        bridge.set_seat(json.dumps({"seat": 1, "level": "random", "stand_in": True}))
    )
    assert taken["seats"][1] == {"type": "bot", "level": "random", "name": "Ada", "stand_in": True}
    for _ in range(6):
        assert "error" not in json.loads(bridge.bot_move())
    saved = json.loads(bridge.record())
    record = saved["record"]
    assert record["stand_in"] and all(
        engine.from_record(record).history[i].player == 1 for i in record["stand_in"]
    )
    assert len(record["stand_in"]) == sum(
        1 for i, a in enumerate(engine.from_record(record).history) if a.player == 1
    )
    # The log marks those moves, on the table and in a replay of the record, and no other.
    log = json.loads(bridge.snapshot())["log"]
    marked = [i for i, e in enumerate(log) if e.get("stand_in") is True]
    assert marked == record["stand_in"]
    replayed = json.loads(bridge.replay(json.dumps({"record": record, "seats": seats})))["log"]
    assert [i for i, e in enumerate(replayed) if e.get("stand_in") is True] == marked
    # The friend comes back: the seat is theirs again, and the record keeps what was played.
    back = json.loads(bridge.set_seat(json.dumps({"seat": 1, "back": True})))
    assert back["seats"][1] == {"type": "friend", "level": None, "name": "Ada"}
    assert json.loads(bridge.record())["record"]["stand_in"] == record["stand_in"]
    # A saved match keeps the stand-in seat as such, a record cut short keeps the stand-in moves
    # it holds, and one that names a move in another way is refused.
    loaded = json.loads(bridge.load(json.dumps(saved)))
    assert loaded["seats"][1]["stand_in"] is True
    with pytest.raises(engine.InvalidRecord):
        engine.from_record({**record, "stand_in": ["3"]})
    assert engine.from_record({**record, "actions": record["actions"][:2]}).stand_in == (1,)
    refused = json.loads(bridge.set_seat(json.dumps({"seat": 0, "back": True})))
    assert refused["error"]["code"] == "bad_seat"

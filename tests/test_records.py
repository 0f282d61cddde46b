"""Saved-game records: every game's record replays, and anything malformed or tampered is
refused with InvalidRecord and a reason."""

from __future__ import annotations

import copy
import json
import random

import pytest

import engine
from engine import RECORD_FORMAT, InvalidRecord


def played_record(game: str, steps: int = 40, seed: int = 4) -> dict:
    state = engine.new_game(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state.to_record()


@pytest.mark.parametrize("game", sorted(engine.GAMES))
def test_record_carries_its_format_and_round_trips_through_json(game):
    record = played_record(game)
    assert record["format"] == RECORD_FORMAT
    assert set(record) == {"format", "game", "players", "seed", "options", "actions"}
    replay = engine.from_record(json.loads(json.dumps(record)))
    assert replay.to_record() == record


def test_a_record_without_format_is_read_as_the_first_format():
    record = played_record("crisps")
    del record["format"]
    assert engine.from_record(record).to_record()["actions"] == record["actions"]


def tampered(game: str) -> list[tuple[str, object]]:
    good = played_record(game)
    other = next(g for g in sorted(engine.GAMES) if g != game)
    spec = engine.GAMES[game]
    cases: list[tuple[str, object]] = [
        ("not an object", [good]),
        ("a string", json.dumps(good)),
    ]

    def change(label, **fields):
        record = copy.deepcopy(good)
        for key, value in fields.items():
            if value is KeyError:
                record.pop(key, None)
            else:
                record[key] = value
        cases.append((label, record))

    change("unknown game", game="chess")
    change("another game's moves", game=other)
    change("too many players", players=spec.max_players + 1)
    change("too few players", players=spec.min_players - 1)
    change("players as text", players=str(good["players"]))
    change("players as true", players=True)
    change("seed as text", seed="7")
    change("negative seed", seed=-1)
    change("absurd seed", seed=2**80)
    change("seed as float", seed=4.0)
    change("options not an object", options=["x"])
    change("unknown option", options={**good["options"], "cheat": True})
    change("actions not a list", actions="play:7H")
    change("action not text", actions=good["actions"][:3] + [7])
    change("an illegal move", actions=good["actions"][:5] + ["no-such-move"])
    change("moves out of order", actions=list(reversed(good["actions"])))
    change("missing actions", actions=KeyError)
    change("missing game", game=KeyError)
    change("missing seed", seed=KeyError)
    change("extra field", cheat="all hands")
    change("future format", format=RECORD_FORMAT + 1)
    change("format as text", format="1")
    change("absurd length", actions=["pass"] * (engine.MAX_RECORD_ACTIONS + 1))
    if spec.options:
        name, option = next(iter(spec.options.items()))
        change("bad option value", options={**good["options"], name: "nonsense-value"})
    return cases


@pytest.mark.parametrize("game", sorted(engine.GAMES))
def test_malformed_or_tampered_records_are_refused_with_a_reason(game):
    for label, record in tampered(game):
        with pytest.raises(InvalidRecord) as refusal:
            engine.from_record(record)
        assert refusal.value.message.strip(), label
        assert refusal.value.code, label


def test_an_illegal_move_is_named_in_the_refusal():
    record = played_record("crisps")
    record["actions"] = record["actions"][:2] + ["play:ZZ"]
    with pytest.raises(InvalidRecord, match=r"move 3 \('play:ZZ'\) is illegal"):
        engine.from_record(record)

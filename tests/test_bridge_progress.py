"""engine/bridge/: a searching bot's progress while ``bot_move`` thinks (``on_progress``).

The page's worker installs a sink once; every Hard or Expert decision then reports the
fraction of its search done, throttled, rising to 1.0, and the move is the one
``choose`` makes with the same rng. Bots that do not search report nothing.
"""

from __future__ import annotations

import random
import time

import pytest

import engine
from engine import bots, bridge
from tests.bridge_calls import call

ITERATIONS = 160  # ten chunks of the search's 16 iterations


@pytest.fixture(autouse=True)
def no_sink():
    """Every test starts and ends with no progress sink (the bridge holds one per process)."""
    bridge.on_progress(None)
    yield
    bridge.on_progress(None)


def bot_position(
    game_id: str = "crisps", seed: int = 3, level: str = "hard", players: int | None = None
) -> engine.core.State:
    """Load a match (seat 0 a person, the others ``level`` bots) at a bot's turn with a choice."""
    players = players or engine.GAMES[game_id].min_players
    state = engine.new_game(game_id, players, seed, {})
    rng = random.Random(seed)
    while state.current_player == 0 or len(state.legal_actions()) < 2:
        assert not state.is_over
        state.apply(rng.choice(state.legal_actions()))
    seats = [{"type": "human"}] + [{"type": "bot", "level": level}] * (players - 1)
    snap = call("load", {"record": state.to_record(), "seats": seats})
    assert snap["bot_turn"], snap
    return bridge.DESK.session.state


def searching_bot(level: str = "hard", iterations: int = ITERATIONS):
    """Give the loaded match's ``level`` seats a fixed-work search (no clock: deterministic)."""
    bot = bots.make(level, iterations=iterations)
    bridge.DESK.session.bot_cache[level] = bot
    return bot


def expected_choice(level: str = "hard", iterations: int = ITERATIONS) -> tuple[str, tuple]:
    """What ``choose`` picks now with a copy of the bridge's bot rng, and that rng afterwards."""
    session = bridge.DESK.session
    rng = random.Random()
    rng.setstate(session.bot_rng.getstate())
    state = session.state.clone()
    action = bots.make(level, iterations=iterations).choose(state, state.current_player, rng)
    return action.id, rng.getstate()


def reports_of_one_move(monkeypatch, interval: float) -> list[float]:
    """The fractions a Hard bot's move reports with the throttle set to ``interval``."""
    monkeypatch.setattr(bridge.progress, "PROGRESS_INTERVAL_S", interval)
    bot_position()
    searching_bot()
    fractions: list[float] = []
    bridge.on_progress(fractions.append)
    reply = call("bot_move")
    assert "error" not in reply, reply
    return fractions


def test_progress_rises_to_one_chunk_by_chunk_when_not_throttled(monkeypatch):
    assert reports_of_one_move(monkeypatch, 0.0) == [(i + 1) / 10 for i in range(10)]


def test_progress_is_throttled_but_the_first_and_the_last_report_go(monkeypatch):
    assert reports_of_one_move(monkeypatch, 3600.0) == [0.1, 1.0]


def test_reports_are_at_least_the_interval_apart(monkeypatch):
    clock = iter(i * 0.03 for i in range(10_000))  # each read of the bridge's clock: +30 ms
    monkeypatch.setattr(bridge.progress, "perf_counter", lambda: next(clock))
    monkeypatch.setattr(bridge.progress, "PROGRESS_INTERVAL_S", 0.08)
    bot_position()
    searching_bot()
    fractions: list[float] = []
    bridge.on_progress(fractions.append)
    call("bot_move")
    # Chunk k is read at 30 ms * (k - 1): chunks 1, 4, 7 (>= 80 ms apart), then the last.
    assert fractions == [0.1, 0.4, 0.7, 1.0]


class ScriptedBot:
    """A bot whose search yields the given fractions, then plays the first legal action."""

    level = "hard"

    def __init__(self, fractions: list[float]) -> None:
        self.fractions = fractions

    def think(self, state, player, rng):
        yield from self.fractions
        return state.legal_actions()[0]

    def choose(self, state, player, rng):  # pragma: no cover - the bridge drives think()
        raise AssertionError("choose() should not be called when think() is there")


def test_a_held_back_last_fraction_is_reported_and_nothing_goes_backwards(monkeypatch):
    monkeypatch.setattr(bridge.progress, "PROGRESS_INTERVAL_S", 3600.0)
    state = bot_position()
    first = state.legal_actions()[0].id
    bridge.DESK.session.bot_cache["hard"] = ScriptedBot([0.2, 0.1, 0.3, 0.3, 0.5])
    fractions: list[float] = []
    bridge.on_progress(fractions.append)
    call("bot_move")
    assert fractions == [0.2, 0.5]
    assert bridge.DESK.session.state.history[-1].id == first


def test_with_a_default_budget_reports_rise_to_one_within_the_throttle():
    bot_position()  # the real Hard bot of the page: its game's budget, clock-capped
    stamps: list[tuple[float, float]] = []
    bridge.on_progress(lambda fraction: stamps.append((time.perf_counter(), fraction)))
    start = time.perf_counter()
    reply = call("bot_move")
    elapsed = time.perf_counter() - start
    assert "error" not in reply, reply
    fractions = [f for _, f in stamps]
    assert fractions and fractions[-1] == 1.0
    assert all(0.0 < a < b for a, b in zip(fractions, fractions[1:], strict=False))
    assert len(fractions) <= elapsed / bridge.progress.PROGRESS_INTERVAL_S + 2


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
@pytest.mark.parametrize("level", ["hard", "expert"])
def test_the_move_is_the_one_choose_makes_with_the_same_rng(game_id, level):
    bot_position(game_id, seed=5, level=level)
    searching_bot(level, iterations=48)
    want, rng_after = expected_choice(level, iterations=48)
    fractions: list[float] = []
    bridge.on_progress(fractions.append)
    reply = call("bot_move")
    assert "error" not in reply, reply
    assert bridge.DESK.session.state.history[-1].id == want
    assert bridge.DESK.session.bot_rng.getstate() == rng_after
    assert fractions and fractions[-1] == 1.0


def test_a_whole_match_plays_the_same_with_and_without_a_sink():
    def play(sink) -> list[str]:
        bridge.reset()
        bridge.on_progress(sink)
        call(
            "start", {"game": "crisps", "seed": 11, "seats": [{"type": "bot", "level": "hard"}] * 2}
        )
        searching_bot(iterations=32)
        for _ in range(12):
            reply = call("bot_move")
            assert "error" not in reply, reply
        return call("record")["record"]["actions"]

    reports: list[float] = []
    assert play(reports.append) == play(None)
    assert reports


def test_a_callback_that_raises_does_not_lose_the_move(capsys):
    bot_position()
    searching_bot()
    want, _ = expected_choice()
    calls: list[float] = []

    def broken(fraction: float) -> None:
        calls.append(fraction)
        raise RuntimeError("the page went away")

    bridge.on_progress(broken)
    reply = call("bot_move")
    assert "error" not in reply, reply
    assert bridge.DESK.session.state.history[-1].id == want
    assert calls == [0.1]  # not called again during that move
    assert "progress callback failed (RuntimeError: the page went away)" in capsys.readouterr().err


@pytest.mark.parametrize("level", ["random", "easy", "normal"])
def test_bots_that_do_not_search_report_nothing(level):
    bot_position(level=level)
    fractions: list[float] = []
    bridge.on_progress(fractions.append)
    for _ in range(5):
        snap = call("snapshot")
        if not snap["bot_turn"]:
            break
        assert "error" not in call("bot_move")
    assert fractions == []


def test_none_turns_reporting_off():
    bot_position()
    searching_bot()
    fractions: list[float] = []
    bridge.on_progress(fractions.append)
    bridge.on_progress(None)
    assert "error" not in call("bot_move")
    assert fractions == []

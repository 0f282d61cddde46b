"""What the computer sees: the Hard search's analysis from a person's seat.

engine/bots/analysis.py ranks every legal move with its figures; the bridge's ``analyse``
serves it (with progress, refusals and, after the match, the person's past moves) and
``hint`` gives its first move with the reason in one line. The analysis never reads what the
seat cannot see: that test is with the other no-peeking tests (tests/test_bots.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import bots, bridge
from engine.bots import ismcts
from engine.bots.analysis import Analysis, Move, analyse, measure_of, run
from engine.bots.evaluation import Evaluator
from engine.bots.ismcts import SearchConfig
from engine.core import Action
from tests.bridge_calls import call

GAMES = sorted(engine.GAMES)
ITERATIONS = 64


@pytest.fixture(autouse=True)
def clean_bridge():
    bridge.on_progress(None)
    bridge.reset()
    yield
    bridge.on_progress(None)
    bridge.reset()


def choice_position(game_id: str, seed: int = 5, skip: int = 20) -> engine.State:
    """A state of a seeded random playout, past ``skip`` moves, with a choice to make."""
    state = engine.new_game(game_id, engine.GAMES[game_id].min_players, seed, {})
    rng = random.Random(seed)
    moves = 0
    while moves < skip or len(state.legal_actions()) < 2:
        assert not state.is_over
        state.apply(rng.choice(state.legal_actions()))
        moves += 1
    return state


def load_for_person(state: engine.State) -> dict[str, Any]:
    """Load ``state`` in the bridge with its player to move as the person, bots elsewhere."""
    me = state.current_player
    seats = [
        {"type": "human"} if seat == me else {"type": "bot", "level": "random"}
        for seat in range(state.players)
    ]
    snap = call("load", {"record": state.to_record(), "seats": seats})
    assert snap["human_turn"], snap
    return snap


# ----- the engine's analysis ---------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_move_is_ranked_once_and_the_first_is_the_hard_choice(game_id):
    state = choice_position(game_id)
    player = state.current_player
    result = run(state, player, random.Random(3), iterations=ITERATIONS)
    legal = [a.id for a in state.legal_actions()]
    assert sorted(m.action.id for m in result.moves) == sorted(legal)
    assert [m.rank for m in result.moves] == list(range(1, len(legal) + 1))
    hard = bots.make("hard", iterations=ITERATIONS).choose(state, player, random.Random(3))
    assert result.best.id == hard.id
    assert result.iterations == result.budget == ITERATIONS
    worlds = sum(m.worlds for m in result.moves)
    # A tree search scores one rollout per iteration; the flat paired one skips a root move
    # in a world where it is not legal.
    assert 0 < worlds <= ITERATIONS
    if not (engine.GAMES[game_id].bot.at(state.players).search or SearchConfig()).paired:
        assert worlds == ITERATIONS


@pytest.mark.parametrize("game_id", GAMES)
def test_figures_are_in_range_and_follow_the_games_evaluator(game_id):
    state = choice_position(game_id, seed=8)
    result = run(state, state.current_player, random.Random(1), iterations=ITERATIONS)
    settings = engine.GAMES[game_id].bot.at(state.players)
    evaluator = (settings.search and settings.search.evaluator) or settings.evaluator
    assert result.measure == measure_of(evaluator or Evaluator())
    for move in result.moves:
        if move.worlds == 0:
            assert move.value is move.win is move.points is None
            continue
        assert 0.0 <= move.value <= 1.0 and 0.0 <= move.win <= 1.0
        assert (move.points is None) == result.estimated
        if result.estimated:  # an evaluator of the game's own values the chance of winning
            assert move.win == move.value


def test_the_measure_of_each_evaluator():
    assert measure_of(Evaluator(rank_weight=1.0)) == "win"
    assert measure_of(Evaluator(rank_weight=0.5)) == "points"
    assert measure_of(Evaluator(rank_weight=0.0, scale=30.0)) == "points"
    assert measure_of(engine.GAMES["spite"].bot.evaluator) == "win"


def test_progress_rises_to_one_and_the_result_is_returned():
    state = choice_position("crisps")
    thinking = analyse(state, state.current_player, random.Random(2), iterations=160)
    fractions = []
    while True:
        try:
            fractions.append(next(thinking))
        except StopIteration as done:
            result = done.value
            break
    assert fractions == [(i + 1) / 10 for i in range(10)]
    assert isinstance(result, Analysis) and result.iterations == 160


def test_one_legal_move_needs_no_search_and_no_rng():
    state = engine.new_game("crisps", 2, 3, {})
    rng = random.Random(3)
    while len(state.legal_actions()) != 1:
        state.apply(rng.choice(state.legal_actions()))
    untouched = random.Random(9)
    before = untouched.getstate()
    result = run(state, state.current_player, untouched)
    assert untouched.getstate() == before
    assert [(m.rank, m.worlds) for m in result.moves] == [(1, 0)]
    assert result.reason().endswith(": the only legal move.")


def test_a_seat_not_to_move_is_refused():
    state = choice_position("crisps")
    with pytest.raises(ValueError):
        run(state, 1 - state.current_player, random.Random(1))


def test_the_analysis_leaves_the_state_alone():
    state = choice_position("roundup")
    before = state.to_record(), state.view(state.current_player)
    run(state, state.current_player, random.Random(1), iterations=ITERATIONS)
    assert (state.to_record(), state.view(state.current_player)) == before


# ----- the reason in one line --------------------------------------------------------------


def act(name: str) -> Action:
    return Action(name, 0, name.capitalize())


def analysis(measure: str, *moves: tuple, usual: str | None = None) -> Analysis:
    ranked = [
        Move(act(name), i + 1, worlds, win, win, points)
        for i, (name, worlds, win, points) in enumerate(moves)
    ]
    return Analysis(0, ranked, measure, sum(m.worlds for m in ranked), 100, usual)


def test_the_reason_names_the_figures_of_the_first_and_the_next_best():
    line = analysis("win", ("pass", 60, 0.58, 1.0), ("play", 40, 0.41, -1.0)).reason()
    assert line == (
        "Pass: wins 58% of simulated deals (60 of 100 worlds); the next best play, Play, 41%."
    )
    line = analysis("points", ("pass", 70, 0.6, 3.2), ("play", 30, 0.5, -1.06)).reason()
    assert line == (
        "Pass: 3.2 points ahead of the others on average (70 of 100 worlds); "
        "the next best play, Play, -1.1 points."
    )


def test_the_reason_is_plain_when_the_next_move_scores_more():
    kept = analysis("win", ("pass", 30, 0.40, 0.0), ("play", 70, 0.45, 0.0), usual="pass")
    assert kept.reason().endswith(
        "Play, 45%, not clearly better on these worlds: the usual play stands."
    )
    close = analysis("win", ("pass", 55, 0.40, 0.0), ("play", 45, 0.45, 0.0))
    assert close.reason().endswith("Play, 45%, too close to call on these worlds.")
    rank = analysis("points", ("pass", 55, 0.70, 1.0), ("play", 45, 0.60, 2.0))
    assert rank.reason().endswith(
        "Play, +2.0 points, but wins the deal less often (60% against 70%)."
    )


def test_an_estimated_chance_says_so():
    state = choice_position("spite")
    result = run(state, state.current_player, random.Random(1), iterations=ITERATIONS)
    assert result.estimated and "chance of winning" in result.reason()


# ----- the bridge: analyse and hint ---------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_the_bridge_ranks_the_legal_moves_and_the_hint_is_the_first(game_id):
    snap = load_for_person(choice_position(game_id))
    reply = call("analyse", {"iterations": ITERATIONS})
    assert "error" not in reply, reply
    assert sorted(m["id"] for m in reply["moves"]) == sorted(a["id"] for a in snap["legal"])
    assert [m["rank"] for m in reply["moves"]] == list(range(1, len(snap["legal"]) + 1))
    assert reply["best"] == reply["moves"][0]["id"]
    assert reply["player"] == snap["current_player"]
    assert reply["iterations"] == reply["budget"] == ITERATIONS
    labels = {a["id"]: a["label"] for a in snap["legal"]}
    for move in reply["moves"]:
        assert move["label"] == labels[move["id"]]
        assert set(move) >= {"id", "label", "cards", "rank", "worlds", "value", "win", "points"}
    assert 0 < sum(m["worlds"] for m in reply["moves"]) <= ITERATIONS
    first = reply["moves"][0]
    assert reply["reason"].startswith(f"{first['label']}: ")
    assert f"({first['worlds']} of " in reply["reason"]
    hint = call("hint", {"iterations": ITERATIONS})
    assert hint["action"]["id"] == reply["best"] and hint["reason"] == reply["reason"]
    assert hint["level"] == "hard" and hint["worlds"] == first["worlds"]
    assert call("snapshot") == snap


def test_the_same_position_and_budget_give_the_same_analysis_without_the_cache():
    load_for_person(choice_position("mhing"))
    first = call("analyse", {"iterations": ITERATIONS})
    bridge._session.analysis = None
    assert call("analyse", {"iterations": ITERATIONS}) == first
    bridge._session.analysis = None
    assert call("hint", {"iterations": ITERATIONS})["action"]["id"] == first["best"]


def test_the_default_budget_is_the_hard_levels(monkeypatch):
    # A clock that never moves: the safety clock never cuts the search, however busy the
    # machine, so the whole budget is searched.
    monkeypatch.setattr(ismcts, "perf_counter", lambda: 0.0)
    state = choice_position("crisps")
    load_for_person(state)
    reply = call("analyse")
    assert reply["budget"] == engine.GAMES["crisps"].bot.hard_iterations
    assert reply["iterations"] == reply["budget"]
    expected = bots.make("hard", iterations=reply["budget"]).choose(
        state, state.current_player, random.Random(len(state.history))
    )
    assert reply["best"] == expected.id == call("hint")["action"]["id"]


def test_the_bridge_reports_progress_while_it_analyses(monkeypatch):
    monkeypatch.setattr(bridge, "PROGRESS_INTERVAL_S", 0.0)
    load_for_person(choice_position("crisps"))
    fractions: list[float] = []
    bridge.on_progress(fractions.append)
    call("analyse", {"iterations": 160})
    assert fractions == [(i + 1) / 10 for i in range(10)]
    fractions.clear()
    call("analyse", {"iterations": 160})  # the same position again: kept, no search
    assert fractions == []


def test_analysis_on_a_bots_turn_or_after_the_match_is_refused():
    state = choice_position("crisps")
    me = state.current_player
    seats = [{"type": "bot", "level": "random"} if s == me else {"type": "human"} for s in (0, 1)]
    snap = call("load", {"record": state.to_record(), "seats": seats})
    assert snap["bot_turn"]
    assert call("analyse")["error"]["code"] == "not_your_turn"
    assert call("hint")["error"]["code"] == "not_your_turn"


@pytest.mark.parametrize(
    "params,code",
    [
        ({"iterations": 0}, "bad_request"),
        ({"iterations": -5}, "bad_request"),
        ({"iterations": "many"}, "bad_request"),
        ({"iterations": True}, "bad_request"),
        ({"iterations": 1.5}, "bad_request"),
        ({"iterations": bridge.MAX_ANALYSIS_ITERATIONS + 1}, "bad_request"),
        ({"step": 0}, "not_finished"),
        ({"step": "0"}, "bad_step"),
        ({"step": False}, "bad_step"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(params, code):
    snap = load_for_person(choice_position("crisps"))
    reply = call("analyse", params)
    assert reply["error"]["code"] == code, reply
    assert call("snapshot") == snap


def finished_match() -> dict[str, Any]:
    """A whole Crisps match, a person (seat 0) against a random bot; its final snapshot."""
    snap = call(
        "start",
        {
            "game": "crisps",
            "seed": 4,
            "seats": [{"type": "human"}, {"type": "bot", "level": "random"}],
        },
    )
    rng = random.Random(4)
    while not snap["is_over"]:
        if snap["human_turn"]:
            snap = call("act", {"action": rng.choice(snap["legal"])["id"]})
        else:
            snap = call("bot_move")["snapshot"]
    return snap


def test_after_the_match_each_of_the_persons_moves_gets_its_rank():
    snap = finished_match()
    assert call("analyse")["error"]["code"] == "not_your_turn"
    mine = [i for i, e in enumerate(snap["log"]) if e["player"] == 0]
    theirs = next(i for i, e in enumerate(snap["log"]) if e["player"] == 1)
    assert call("analyse", {"step": theirs})["error"]["code"] == "bad_step"
    assert call("analyse", {"step": len(snap["log"])})["error"]["code"] == "bad_step"
    assert call("analyse", {"step": -1})["error"]["code"] == "bad_step"
    record = call("record")["record"]
    for step in mine[:6]:
        reply = call("analyse", {"step": step, "iterations": 40})
        assert "error" not in reply, reply
        taken = reply["taken"]
        assert taken["id"] == record["actions"][step]
        ranked = {m["id"]: m["rank"] for m in reply["moves"]}
        assert ranked[taken["id"]] == taken["rank"]
        position = engine.from_record({**record, "actions": record["actions"][:step]})
        assert sorted(ranked) == sorted(a.id for a in position.legal_actions())
        assert reply["player"] == 0
    assert call("snapshot") == snap

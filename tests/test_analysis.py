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
from engine.bots import analysis as analysing
from engine.bots import ismcts
from engine.bots.analysis import (
    REFINE_SHARE,
    Analysis,
    Move,
    analyse,
    measure_of,
    rank_by_figures,
    run,
)
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
    # The first move has the best figure; the Hard bot's choice got its rollouts too.
    hard = bots.make("hard", iterations=ITERATIONS).choose(state, player, random.Random(3))
    assert result.figure_of(result.moves[0]) == max(
        result.figure_of(m) for m in result.moves if m.low is not None
    )
    assert next(m for m in result.moves if m.action == hard).worlds > 0
    assert result.budget == ITERATIONS
    assert ITERATIONS < result.iterations <= ITERATIONS * (1 + REFINE_SHARE)
    worlds = sum(m.worlds for m in result.moves)
    # A tree search scores one rollout per iteration; the flat paired one skips a root move
    # in a world where it is not legal, and so does the refinement.
    assert 0 < worlds <= result.iterations
    if not (engine.GAMES[game_id].bot.at(state.players).search or SearchConfig()).paired:
        assert worlds == result.iterations


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
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert fractions[9] == pytest.approx(1 / (1 + REFINE_SHARE)), "the search's share first"
    assert isinstance(result, Analysis) and 160 < result.iterations <= 160 * (1 + REFINE_SHARE)


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
    assert result.reason().startswith(f"{result.best.label}: the only legal move.")


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


def analysis(measure: str, *moves: tuple, does: str | None = None) -> Analysis:
    """An analysis of ``moves`` = ``(name, worlds, figure, low, high, group)``, in order."""
    ranked = [
        Move(act(name), i + 1, worlds, figure, figure, figure, low, high, group, group)
        for i, (name, worlds, figure, low, high, group) in enumerate(moves)
    ]
    return Analysis(0, ranked, measure, sum(m.worlds for m in ranked), 100, purpose=does)


def test_the_reason_says_what_the_move_does_and_how_it_fares_against_the_next():
    line = analysis(
        "win",
        ("pass", 60, 0.58, 0.5, 0.66, 1),
        ("play", 40, 0.31, 0.2, 0.42, 2),
        does="keeps your cards for a later trick",
    ).reason()
    assert line == (
        "Pass. It keeps your cards for a later trick. It wins 58% of the deals played out "
        "from here; the next best, Play, 31%."
    )
    line = analysis(
        "points", ("pass", 70, 3.2, 2.0, 4.4, 1), ("play", 30, -1.06, -2.0, 0.0, 2)
    ).reason()
    assert line == (
        "Pass. It ends 3.2 points ahead of the others on average; the next best, Play, -1.1 points."
    )
    assert "worlds" not in line and "usual" not in line


def test_moves_the_search_cannot_tell_apart_are_said_to_be_equally_good():
    line = analysis(
        "win",
        ("pass", 50, 0.52, 0.45, 0.59, 1),
        ("play", 40, 0.55, 0.47, 0.63, 1),
        ("draw", 10, 0.2, 0.05, 0.35, 2),
    ).reason()
    assert line.endswith(
        "These 2 moves are equally good as far as the search can tell (45% to 63% of the "
        "deals won): Pass and Play."
    )
    many = analysis("points", *((f"m{i}", 10, 0.1 * i, -1.0, 1.0, 1) for i in range(7)))
    assert many.reason().endswith(": M0, M1, M2 and 4 more.")


def test_the_ranking_follows_the_figures_in_groups():
    # Sorted by figure; "a" is within reach of "b" (its wide interval), "c" of "e", but not
    # "e" of "b"; the search's choice leads its group; moves without an interval come last,
    # each alone.
    figures = [
        ("a", 0.45, 0.25, 0.65),
        ("c", 0.20, 0.18, 0.22),
        ("b", 0.50, 0.45, 0.55),
        ("d", None, None, None),
        ("e", 0.21, 0.19, 0.23),
    ]
    ranked = [
        ("b", 1, 1),
        ("a", 1, 1),
        ("e", 2, 3),
        ("c", 2, 3),
        ("d", 3, 5),
    ]
    assert rank_by_figures(figures) == rank_by_figures(figures, choice="a") == ranked
    # The search's choice goes first among equal figures only.
    tied = [("p", 0.4, 0.3, 0.5), ("q", 0.4, 0.3, 0.5)]
    assert [key for key, _, _ in rank_by_figures(tied, choice="q")] == ["q", "p"]
    # A move far below with a wide interval is not tied to a leader known closely.
    assert rank_by_figures([("x", 0.86, 0.81, 0.91), ("y", 0.62, 0.42, 0.82)]) == [
        ("x", 1, 1),
        ("y", 2, 2),
    ]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_ranking_never_puts_a_move_under_a_worse_one_of_a_later_group(game_id):
    state = choice_position(game_id, seed=6)
    result = run(state, state.current_player, random.Random(4), iterations=ITERATIONS)
    assert [m.group for m in result.moves] == sorted(m.group for m in result.moves)
    assert [m.placed for m in result.moves] == sorted(m.placed for m in result.moves)
    # Moves too seldom played out to have an interval come last (the page shows no figure).
    known = [m.low is not None for m in result.moves]
    assert known == sorted(known, reverse=True)
    figures = [(m.group, m.placed, result.figure_of(m)) for m in result.moves if m.low is not None]
    for i, (group, _, figure) in enumerate(figures):
        for later_group, _, later in figures[i + 1 :]:
            if later_group != group and figure is not None and later is not None:
                assert figure >= later, (figures, i)


def test_the_refinement_spends_its_rollouts_on_the_leading_moves(monkeypatch):
    state = choice_position("crisps")
    player = state.current_player
    refined = run(state, player, random.Random(2), iterations=ITERATIONS * 4)
    monkeypatch.setattr(analysing, "REFINE_SHARE", 0.0)
    plain = run(state, player, random.Random(2), iterations=ITERATIONS * 4)
    extra = {
        m.action.id: m.worlds - next(p.worlds for p in plain.moves if p.action == m.action)
        for m in refined.moves
    }
    assert sum(extra.values()) == refined.iterations - plain.iterations > 0
    # The move the figures put first got more of them than the move they put last.
    assert extra[refined.moves[0].action.id] > extra[refined.moves[-1].action.id] >= 0


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
    assert reply["budget"] == ITERATIONS <= reply["iterations"]
    labels = {a["id"]: a["label"] for a in snap["legal"]}
    for move in reply["moves"]:
        assert move["label"] == labels[move["id"]]
        assert set(move) >= {"id", "label", "cards", "rank", "worlds", "value", "win", "points"}
        assert set(move) >= {"group", "placed", "low", "high"}
    assert 0 < sum(m["worlds"] for m in reply["moves"]) <= reply["iterations"]
    assert reply["tied"] == sum(1 for m in reply["moves"] if m["group"] == 1)
    first = reply["moves"][0]
    assert reply["reason"].startswith(f"{first['label']}")
    assert "{seat" not in reply["reason"] and "worlds" not in reply["reason"]
    hint = call("hint", {"iterations": ITERATIONS})
    assert hint["action"]["id"] == reply["best"] and hint["reason"] == reply["reason"]
    assert hint["level"] == "hard" and hint["worlds"] == first["worlds"]
    assert call("snapshot") == snap


def test_the_same_position_and_budget_give_the_same_analysis_without_the_cache():
    load_for_person(choice_position("mhing"))
    first = call("analyse", {"iterations": ITERATIONS})
    bridge.DESK.session.analysis = None
    assert call("analyse", {"iterations": ITERATIONS}) == first
    bridge.DESK.session.analysis = None
    assert call("hint", {"iterations": ITERATIONS})["action"]["id"] == first["best"]


def test_the_default_budget_is_the_hard_levels(monkeypatch):
    # A clock that never moves: the safety clock never cuts the search, however busy the
    # machine, so the whole budget is searched.
    monkeypatch.setattr(ismcts, "perf_counter", lambda: 0.0)
    monkeypatch.setattr(analysing, "perf_counter", lambda: 0.0)
    state = choice_position("crisps")
    load_for_person(state)
    reply = call("analyse")
    assert reply["budget"] == engine.GAMES["crisps"].bot.hard_iterations
    assert reply["iterations"] > reply["budget"]  # the refinement's rollouts on top
    expected = bots.make("hard", iterations=reply["budget"]).choose(
        state, state.current_player, random.Random(len(state.history))
    )
    # The Hard bot's choice is among the moves the figures cannot tell from the best here.
    tied = [m["id"] for m in reply["moves"] if m["group"] == 1]
    assert expected.id in tied
    assert reply["best"] == call("hint")["action"]["id"]


def test_the_default_budget_searched_in_full_answers_a_request_for_the_default(monkeypatch):
    state = choice_position("crisps")
    load_for_person(state)
    budget = engine.GAMES["crisps"].bot.hard_iterations
    full = call("analyse", {"iterations": budget})
    assert full["budget"] == budget and full["iterations"] >= budget

    def no_search(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(bridge.advice.analysing, "analyse", no_search)
    assert call("analyse") == full
    assert call("hint")["action"]["id"] == full["best"]
    with pytest.raises(AssertionError, match="searched again"):
        bridge.advice.analysis_of(bridge.DESK.session, state, state.current_player, budget - 1)


def test_the_bridge_reports_progress_while_it_analyses(monkeypatch):
    monkeypatch.setattr(bridge.progress, "PROGRESS_INTERVAL_S", 0.0)
    load_for_person(choice_position("crisps"))
    fractions: list[float] = []
    bridge.on_progress(fractions.append)
    call("analyse", {"iterations": 160})
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert fractions[9] == pytest.approx(1 / (1 + REFINE_SHARE)), "the search's share first"
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
        group = next(m["group"] for m in reply["moves"] if m["id"] == taken["id"])
        assert taken["group"] == group
        position = engine.from_record({**record, "actions": record["actions"][:step]})
        assert sorted(ranked) == sorted(a.id for a in position.legal_actions())
        assert reply["player"] == 0
    assert call("snapshot") == snap


def test_the_review_searches_a_past_move_on_its_own_budget_and_names_the_forced_ones(
    monkeypatch,
):
    # A clock that never moves: the review's clock never cuts the search.
    monkeypatch.setattr(ismcts, "perf_counter", lambda: 0.0)
    monkeypatch.setattr(analysing, "perf_counter", lambda: 0.0)
    snap = finished_match()
    record = call("record")["record"]
    replay = engine.from_record({**record, "actions": []})
    forced = []
    for step, action_id in enumerate(record["actions"]):
        if replay.current_player == 0 and len(replay.legal_actions()) == 1:
            forced.append(step)
        replay.apply(action_id)
    mine = [i for i, e in enumerate(snap["log"]) if e["player"] == 0]
    assert forced and set(forced) < set(mine), "the match has moves with no choice"
    chosen = next(step for step in mine if step not in forced)
    reply = call("analyse", {"step": chosen})
    budget = analysing.review_budget("crisps", 2)
    assert reply["budget"] == budget < engine.GAMES["crisps"].bot.hard_iterations / 3
    assert budget < reply["iterations"] <= budget * (1 + REFINE_SHARE)
    assert reply["forced"] == forced
    # The review's default is that budget searched in full: asked for as a number, the same.
    assert call("analyse", {"step": chosen, "iterations": budget}) == reply
    only = call("analyse", {"step": forced[0]})
    assert only["iterations"] == 0 and [m["id"] for m in only["moves"]] == [only["best"]]
    assert only["taken"]["rank"] == 1 and only["forced"] == forced


def test_a_finished_match_file_is_reviewed_beside_the_match_in_progress():
    snap = finished_match()
    file = call("record")
    mine = [i for i, e in enumerate(snap["log"]) if e["player"] == 0]
    on_the_table = call("analyse", {"step": mine[0], "iterations": 40})
    # Another match on the table, in progress: the file's review leaves it as it is.
    table = load_for_person(choice_position("crisps"))
    params = {"record": file["record"], "seats": file["seats"], "iterations": 40}
    reply = call("analyse", {**params, "step": mine[0]})
    assert reply == on_the_table
    assert reply["taken"]["id"] == file["record"]["actions"][mine[0]]
    theirs = next(i for i, e in enumerate(snap["log"]) if e["player"] == 1)
    assert call("analyse", {**params, "step": theirs})["error"]["code"] == "bad_step"
    unfinished = {**file["record"], "actions": file["record"]["actions"][:-1]}
    assert call("analyse", {**params, "record": unfinished, "step": 0})["error"]["code"] == (
        "not_finished"
    )
    broken = call("analyse", {**params, "record": {"game": "crisps"}, "step": 0})
    assert "error" in broken
    assert call("snapshot") == table


# ----- the review in slices: the worker serves other requests between them ------------------


def ticking_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The slices' clock moves a second each time it is read: every slice ends after one
    step of the search (one chunk of its iterations), however fast the machine."""
    ticks = iter(range(10**9))
    monkeypatch.setattr(bridge.progress, "perf_counter", lambda: float(next(ticks)))


def in_slices(params: dict[str, Any], between: Any = None) -> tuple[dict[str, Any], list[Any]]:
    """``analyse`` asked for in slices of 1 ms, ``{more: true}`` after each unfinished one
    (with ``between()`` called before each): the final reply and the unfinished replies."""
    reply = call("analyse", {**params, "slice_ms": 1})
    unfinished = []
    while reply.get("unfinished"):
        unfinished.append(reply)
        if between is not None:
            between()
        reply = call("analyse", {"more": True, "slice_ms": 1})
    return reply, unfinished


def test_a_review_in_slices_gives_the_reply_of_one_request(monkeypatch):
    ticking_clock(monkeypatch)
    snap = finished_match()
    mine = [i for i, e in enumerate(snap["log"]) if e["player"] == 0]
    record = call("record")
    forced = call("analyse", {"step": mine[0], "iterations": 40})["forced"]
    chosen = next(step for step in mine if step not in forced)
    fractions: list[float] = []
    bridge.on_progress(fractions.append)
    # Other requests between the slices (the page's, while the review goes on) change nothing.
    sliced, unfinished = in_slices(
        {"step": chosen, "iterations": 160}, lambda: call("replay", record)
    )
    assert len(unfinished) >= 10, "one chunk of 16 iterations a slice"
    assert all(set(r) == {"unfinished", "fraction"} and r["unfinished"] for r in unfinished)
    steps = [r["fraction"] for r in unfinished]
    assert steps == sorted(steps) and 0 < steps[0] and steps[-1] <= 1.0
    assert fractions == sorted(fractions) and fractions[-1] == 1.0, "progress across slices"
    bridge.DESK.session.analysis = None  # not the kept analysis: searched again, in one go
    whole = call("analyse", {"step": chosen, "iterations": 160})
    assert sliced == whole and sliced["taken"]["id"] == record["record"]["actions"][chosen]
    # A finished match file, in slices, beside the table's match: the same reply again.
    file, _ = in_slices({**record, "step": chosen, "iterations": 160})
    assert file == whole
    assert call("snapshot") == snap


def test_a_review_stopped_between_slices_is_dropped_by_the_next_request(monkeypatch):
    ticking_clock(monkeypatch)
    snap = finished_match()
    mine = [i for i, e in enumerate(snap["log"]) if e["player"] == 0]
    forced = call("analyse", {"step": mine[0], "iterations": 40})["forced"]
    first, second = [step for step in mine if step not in forced][:2]
    started = call("analyse", {"step": first, "iterations": 160, "slice_ms": 1})
    assert started["unfinished"] and started["fraction"] < 1.0
    # The page stopped asking for more (the review's Stop) and asks for another move: the
    # search left unfinished is dropped, the new one goes from its beginning.
    other = call("analyse", {"step": second, "iterations": 40})
    assert other["taken"]["id"] == call("record")["record"]["actions"][second]
    gone = call("analyse", {"more": True, "slice_ms": 1})
    assert gone["error"]["code"] == "nothing_kept"
    # A refused request drops it too (and a kept search is not taken for a new one).
    call("analyse", {"step": first, "iterations": 160, "slice_ms": 1})
    assert call("analyse", {"step": -1})["error"]["code"] == "bad_step"
    assert call("analyse", {"more": True})["error"]["code"] == "nothing_kept"
    # Without a slice, {more} drives a kept search to its end.
    call("analyse", {"step": first, "iterations": 160, "slice_ms": 1})
    whole = call("analyse", {"more": True})
    assert whole["taken"]["id"] == call("record")["record"]["actions"][first]
    assert call("analyse", {"more": True})["error"]["code"] == "nothing_kept"


@pytest.mark.parametrize(
    "params",
    [
        {"slice_ms": 0},
        {"slice_ms": bridge.advice.MAX_SLICE_MS + 1},
        {"slice_ms": "soon"},
        {"slice_ms": True},
        {"slice_ms": 2.5},
        {"more": "yes"},
        {"more": 1},
    ],
)
def test_bad_slices_are_refused(params):
    load_for_person(choice_position("crisps"))
    assert call("analyse", {"iterations": 40, **params})["error"]["code"] == "bad_request"

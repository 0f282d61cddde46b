"""What the computer sees: the analysis on the person's turn, the hint's reason, the review.

For a position of each game (opened from a saved record), "Suggest a move" and "Analyse" are
asked in the page; the hint's move is the top-ranked one, its words are the analysis's reason,
and both are the Hard search's choice that CPython makes from the same position with the same
seed and budget (the engine is the same pure Python in the page). After a match (played out
in the page from a saved record near its end, one request to the engine a move), the review
ranks the person's moves one by one in the log, with progress, and can be stopped; the moves
with no choice are marked at once, and the summary says the review's own budget a move.

The tests share one page (``SHARED_PAGE``): the engine starts once for the module. They are
about the searches at the product's own budget, so they search at it (``FULL_BUDGETS``, not
the browser tests' small one: see conftest).
"""

from __future__ import annotations

import random
import re

import pytest
from pagehelpers import HUMAN, IDLE, MATCH_OVER, SIDE_ACTIONS, bot_seat, open_record, play_out

import engine
from engine.bots import analysis

SHARED_PAGE = True
FULL_BUDGETS = True
ANALYSIS = "[data-testid=analysis]"
QUERY = "?speed=0&test=1"  # the page's test hook: a call to its engine with a fixed budget
FIXED_BUDGET = "(n) => window.__parlourTest.call('analyse', { iterations: n })"
SENT = "async () => (await window.__parlourTest.engine()).calls"  # requests by method


def person_position(game_id: str, seed: int = 7) -> engine.State:
    """A seeded random playout of ``game_id`` (fewest players) stopped on seat 0's turn
    with at least three moves to choose from, some way in."""
    state = engine.new_game(game_id, engine.GAMES[game_id].min_players, seed, {})
    rng = random.Random(seed)
    moves = 0
    while not (moves >= 12 and state.current_player == 0 and len(state.legal_actions()) >= 3):
        assert not state.is_over, f"no position found in {game_id}"
        state.apply(rng.choice(state.legal_actions()))
        moves += 1
    return state


def seats_for(state: engine.State) -> list[dict]:
    return [HUMAN] + [bot_seat("random", f"Bot {i}") for i in range(1, state.players)]


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_the_hint_is_the_top_ranked_move_and_says_why(page, site, open_app, game_id):
    state = person_position(game_id)
    open_record(page, site, open_app, state.to_record(), seats_for(state), QUERY)
    legal = [a.id for a in state.legal_actions()]
    assert sorted(
        page.locator(SIDE_ACTIONS).evaluate_all("n => n.map(e => e.dataset.action)")
    ) == sorted(legal)

    # The page's engine, given the Hard budget as a fixed number of iterations (a busy
    # machine's clock cuts nothing then), ranks the moves as CPython does from the same seed;
    # the hint and the analysis below reuse that search (the default budget, in full).
    budget = engine.GAMES[game_id].bot.at(state.players).hard_iterations
    fixed = page.evaluate(FIXED_BUDGET, budget)
    expected = analysis.run(state, 0, random.Random(len(state.history)), iterations=budget)
    assert fixed["iterations"] == expected.iterations and fixed["budget"] == budget
    assert [m["id"] for m in fixed["moves"]] == [m.action.id for m in expected.moves]
    assert fixed["best"] == expected.best.id, "the page's analysis is CPython's"

    page.click("[data-testid=hint]")
    hinted = page.locator(f"{SIDE_ACTIONS}.is-hinted")
    hinted.wait_for()
    hint = hinted.get_attribute("data-action")
    message = page.locator("[data-testid=message]").inner_text()

    page.click("[data-testid=analyse]")
    page.locator(ANALYSIS).wait_for()
    page.wait_for_selector(IDLE)
    result = page.locator(ANALYSIS)
    rows = page.locator("[data-testid=analysis-row]").evaluate_all(
        "n => n.map(e => [e.dataset.move, Number(e.dataset.rank)])"
    )
    assert sorted(move for move, _ in rows) == sorted(legal)
    assert [rank for _, rank in rows] == list(range(1, len(legal) + 1))
    top = rows[0][0]
    assert result.get_attribute("data-best") == top == hint
    reason = page.locator("[data-testid=analysis-reason]").inner_text()
    labels = dict(zip(legal, [a.label for a in state.legal_actions()], strict=True))
    assert reason in message and reason.startswith(labels[top].split("{")[0])
    assert "worlds" not in reason and "usual play" not in reason, "plain words, no jargon"
    worlds = page.locator("[data-testid=analysis-row] td:last-child").all_inner_texts()
    assert all(w.isdigit() for w in worlds) and sum(map(int, worlds)) > 0

    assert int(result.get_attribute("data-budget")) == budget
    assert int(result.get_attribute("data-iterations")) == fixed["iterations"]
    assert top == fixed["best"], "the page's hint and analysis are that search"

    # Playing a move clears the analysis; the next turn offers it afresh.
    page.click(f"{SIDE_ACTIONS}[data-action='{top}']")
    page.wait_for_selector(IDLE)
    assert page.locator(ANALYSIS).count() == 0


def near_the_end() -> engine.State:
    """A Crisps match (a seeded random playout) cut at the person's last turn with a choice:
    a move or two from the end, so the page plays it out to the match-over dialog."""
    state = engine.new_game("crisps", 2, 12, {})
    rng = random.Random(12)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    record = state.to_record()
    replay = engine.from_record({**record, "actions": []})
    last = 0
    for i, action_id in enumerate(record["actions"]):
        if replay.current_player == 0 and len(replay.legal_actions()) > 1:
            last = i
        replay.apply(action_id)
    return engine.from_record({**record, "actions": record["actions"][:last]})


def test_after_the_match_the_review_ranks_the_persons_moves(page, site, open_app):
    state = near_the_end()
    open_record(page, site, open_app, state.to_record(), seats_for(state), QUERY)
    page.wait_for_selector(IDLE)  # the match file is loaded and saved
    before = page.evaluate(SENT)
    play_out(page, lambda ids: ids[0])
    page.locator(MATCH_OVER).wait_for()
    # One request a move, the person's (act) or a computer's (bot_move): each reply brought
    # the round's end and the save, so neither round_end nor record was asked for.
    sent = page.evaluate(SENT)
    moves = {m: sent.get(m, 0) - before.get(m, 0) for m in set(sent) | set(before)}
    made = page.evaluate("() => window.__parlourTest.call('snapshot', {})")["moves"]
    assert moves.get("act", 0) >= 1 and moves.get("bot_move", 0) >= 1, moves
    assert sum(moves.values()) == moves["act"] + moves["bot_move"] == made - len(state.history)
    page.click("[data-testid=review-open]")
    page.locator("[data-testid=review]").wait_for()
    mine = page.locator("[data-testid=review] .log-entry").evaluate_all(
        "n => n.flatMap((e, i) => "
        "e.querySelector('.log-who').textContent.startsWith('You') ? [i] : [])"
    )
    record = page.evaluate("() => window.__parlourTest.call('record', {})")["record"]
    replay = engine.from_record({**record, "actions": []})
    forced = []  # the person's moves with no choice: ranked at once, without a search
    for step, action_id in enumerate(record["actions"]):
        if replay.current_player == 0 and len(replay.legal_actions()) == 1:
            forced.append(step)
        replay.apply(action_id)
    page.click("[data-testid=review-run]")
    page.locator("[data-testid=review-progress]").wait_for()
    ranks = page.locator("[data-testid=move-rank]")
    searched = "() => [...document.querySelectorAll('[data-testid=move-rank]')]"
    page.wait_for_function(f"{searched}.filter(e => e.textContent !== 'only move').length >= 3")
    page.click("[data-testid=review-stop]")
    page.locator("[data-testid=review-run]").wait_for()
    marked = ranks.evaluate_all("n => n.map(e => [Number(e.dataset.step), Number(e.dataset.rank)])")
    texts = dict(zip((step for step, _ in marked), ranks.all_inner_texts(), strict=True))
    assert set(forced) <= set(texts) and all(texts[step] == "only move" for step in forced)
    chosen = [step for step in mine if step not in forced]
    marked = [(step, rank) for step, rank in marked if step not in forced]
    # A move the search could tell from its choice names that choice in the page itself.
    off = page.locator("[data-testid=review] .log-entry.is-off-move")
    assert off.count() >= 1
    for i in range(off.count()):
        best = off.nth(i).locator("[data-testid=move-best]").inner_text()
        assert best.startswith(" \u2014 the computer's choice: ") or "computer's choice" in best
    assert len(marked) >= 3
    assert [step for step, _ in marked] == chosen[: len(marked)], "the person's moves, in order"
    assert all(rank >= 1 for _, rank in marked)
    summary = page.locator("[data-testid=review-summary]").inner_text()
    assert f"{len(marked) + len(forced)} of {len(mine)} moves ranked" in summary
    # The review says how many deals a move rests on: its own budget, not the Hard level's.
    deals = re.search(r"ranked from up to (\d+) deals played out", summary)
    budget = analysis.review_budget(record["game"], record["players"])
    assert deals and 0 < int(deals[1]) <= budget * (1 + analysis.REFINE_SHARE), summary
    page.click("[data-testid=review-back]")
    page.locator(MATCH_OVER).wait_for()

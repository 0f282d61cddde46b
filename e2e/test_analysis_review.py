"""The review of a finished match while it runs: what the person does meanwhile, and Stop.

"Review my moves" asks for each move's search in slices (bridge.analyse's ``slice_ms``, then
``{more: true}``), so the worker is free between two and Stop ends the review within a slice
of the move under way. Here, on a Crisps match played to its end in the page:

- while the review goes on, a ranked move opens to the table of the moves it was ranked
  among, and stays open, with the focus on it, while more moves are ranked; the page scrolled
  down stays scrolled; the log folds and unfolds; Back leaves the review and coming back finds
  the moves ranked so far, and "Rank the rest" goes on from there;
- Stop during a long search of one move ends the review with that move's search unfinished
  (the bridge still holds it: the page did not wait for it), nothing ranked for it, and the
  next review of a move starts afresh.

Every search here is at a budget set for the test (``window.__parlourTestBudget``): big enough
that the review is still running while the test acts, and, for Stop, a move's search far
longer than the test's wait for its first slices. Assertions are on the page's state and the
order of events, never on how long anything took.
"""

from __future__ import annotations

from pagehelpers import HUMAN, MATCH_OVER, bot_seat, open_record, play_out, record_near_the_end
from screenwalk import clear_window, offenders, set_window

SHARED_PAGE = True
QUERY = "?speed=0&test=1"
PHONE = {"width": 390, "height": 844}
SEATS = [HUMAN, bot_seat("random", "North")]
SENT = "async () => (await window.__parlourTest.engine()).calls"  # requests by method
BUDGET = "(n) => { window.__parlourTestBudget = n; }"
RANKS = "[data-testid=review] [data-testid=move-rank]"
SEARCHED = f"{RANKS}:not(span)"  # a move with a choice: a button that opens its moves
COUNT = f"() => document.querySelectorAll('{SEARCHED}').length"
RUNNING = "[data-testid=review-stop]"
IDLE_REVIEW = "[data-testid=review-run]"


def finished_match(page, site, open_app) -> None:
    """A Crisps match a few moves from its end, played out in the page; its review open."""
    record = record_near_the_end("crisps", 2, {}, steps_left=3, seeds=range(20, 80))
    open_record(page, site, open_app, record, SEATS, QUERY)
    play_out(page, lambda ids: ids[0])
    page.locator(MATCH_OVER).wait_for()
    page.click("[data-testid=review-open]")
    page.locator("[data-testid=review]").wait_for()


def searched(page) -> int:
    return page.evaluate(COUNT)


def wait_for_more_ranked(page, than: int) -> int:
    page.wait_for_function(f"(n) => ({COUNT})() > n", arg=than)
    return searched(page)


def test_the_review_screen_stays_usable_while_the_review_runs(page, site, open_app):
    finished_match(page, site, open_app)
    # About a second of search a move in the page: the review runs while the test acts.
    page.evaluate(BUDGET, 1500)
    try:
        page.click(IDLE_REVIEW)
        page.locator(RUNNING).wait_for()
        ranked = wait_for_more_ranked(page, 1)

        # A ranked move opens to the moves it was ranked among, while the review goes on.
        chip = page.locator(SEARCHED).first
        step = chip.get_attribute("data-step")
        chip.click()
        table = page.locator(f"[data-testid=review-move][data-step='{step}']")
        table.wait_for()
        rows = table.locator("[data-testid=analysis-row]")
        text = chip.inner_text()  # "#2 of 5", "best", "as good as the best"
        assert rows.count() >= 2
        assert " of " not in text or rows.count() == int(text.split(" of ")[-1])
        # The person's own move is marked among them, at the place the chip gives.
        mine = table.locator(".analysis-row.is-taken")
        assert mine.count() == 1 and "(your move)" in mine.inner_text()
        assert mine.get_attribute("data-rank") == chip.get_attribute("data-rank")
        assert chip.get_attribute("aria-expanded") == "true"
        assert page.locator(RUNNING).count() == 1, "opening a move does not stop the review"
        # More moves are ranked meanwhile: the open move stays open, the focus on it.
        ranked = wait_for_more_ranked(page, ranked)
        assert table.count() == 1 and rows.count() >= 2
        assert page.evaluate("() => document.activeElement.dataset.focus") == f"review-move-{step}"
        # Scrolled down, the page stays down while the review goes on (a redraw does not
        # put it back at the top; the browser may nudge it to keep its place in the text).
        page.mouse.wheel(0, 600)
        page.wait_for_function("() => window.scrollY > 300")
        ranked = wait_for_more_ranked(page, ranked)
        assert page.evaluate("() => window.scrollY") > 300
        # The log folds and unfolds, and stays as the person left it.
        page.evaluate("() => window.scrollTo(0, 0)")
        page.click("[data-testid=review] [data-testid=log] > summary")
        assert page.locator("[data-testid=review] [data-testid=log]").get_attribute("open") is None
        ranked = wait_for_more_ranked(page, ranked)
        assert page.locator("[data-testid=review] [data-testid=log]").get_attribute("open") is None
        page.click("[data-testid=review] [data-testid=log] > summary")
        assert page.locator("[data-testid=review] [data-testid=log]").get_attribute("open") == ""
        # On a phone (touch, 390x844) the open move's table fits and every control of the
        # review is 44 px or more, the ranked moves' places too.
        page.set_viewport_size(PHONE)
        set_window(page, "390x844")
        try:
            assert table.count() == 1
            assert offenders(page, "390x844") == {}, "the review at 390x844"
        finally:
            clear_window(page)
            page.set_viewport_size({"width": 1280, "height": 720})
        # The same move again closes it.
        page.locator(f"{SEARCHED}[data-step='{step}']").click()
        assert table.count() == 0

        # Back while the review runs: it stops, and the moves ranked so far are kept.
        page.click("[data-testid=review-back]")
        page.locator(MATCH_OVER).wait_for()
        page.locator("[data-testid=review-open]:not(:disabled)").wait_for()
        page.click("[data-testid=review-open]")
        page.locator(IDLE_REVIEW).wait_for()
        kept = searched(page)
        assert kept >= ranked and page.locator(RUNNING).count() == 0
        assert page.locator(IDLE_REVIEW).inner_text() == "Rank the rest"
        summary = page.locator("[data-testid=review-summary]").inner_text()
        assert f"{page.locator(RANKS).count()} of " in summary
        # "Rank the rest" goes on from there; Stop ends it with what is ranked kept.
        page.click(IDLE_REVIEW)
        page.locator(RUNNING).wait_for()
        more = wait_for_more_ranked(page, kept)
        page.click(RUNNING)
        page.locator(IDLE_REVIEW).wait_for()
        assert searched(page) >= more
        assert f"{page.locator(RANKS).count()} of " in (
            page.locator("[data-testid=review-summary]").inner_text()
        )
    finally:
        page.evaluate(BUDGET, 60)


def test_stop_ends_the_review_within_a_long_move(page, site, open_app):
    finished_match(page, site, open_app)
    before = page.evaluate(SENT).get("analyse", 0)
    # A move's search far longer than the few slices the test waits for.
    page.evaluate(BUDGET, 20_000)
    try:
        page.click(IDLE_REVIEW)
        page.locator(RUNNING).wait_for()
        # The first move's search is under way in slices: three requests for it at least (its
        # first slice and two more), and its progress shown.
        page.wait_for_function(
            f"async (n) => ((await ({SENT})()).analyse || 0) >= n + 3", arg=before
        )
        page.wait_for_function(
            "() => Number(document.querySelector('[data-testid=review-progress]')?.value) > 0"
        )
        assert searched(page) == 0, "no move of this budget is ranked yet"
        page.click(RUNNING)
        page.locator(IDLE_REVIEW).wait_for()
        # The review ended with the move's search unfinished: the bridge still holds it, part
        # done, so the page did not wait for the search to end. Nothing ranked for it.
        kept = page.evaluate(
            "() => window.__parlourTest.call('analyse', { more: true, slice_ms: 1 })"
        )
        assert kept.get("unfinished") is True and 0 < kept["fraction"] < 1, kept
        assert searched(page) == 0
        assert page.locator(IDLE_REVIEW).inner_text() in ("Rank my moves", "Rank the rest")
        # "Rank the rest" starts that move afresh (the search left unfinished is dropped)
        # and ranks it.
        page.evaluate(BUDGET, 60)
        page.click(IDLE_REVIEW)
        wait_for_more_ranked(page, 0)
        if page.locator(RUNNING).count():
            page.click(RUNNING)
        page.locator(IDLE_REVIEW).wait_for()
    finally:
        page.evaluate(BUDGET, 60)

"""The "Learn to play" round of each game, completed in the page by following the coach (its
suggestion pressed from the keyboard), at desktop and phone sizes. The coach panel
speaks from the first position on, lights up the suggested move, says every step of the
game's coach file and ends with the round's score line by line. The page fixture fails a
test on any console error or request to another host.

Each game's round is followed once: its first turns at phone size (the coach's words and
moves do not depend on the screen), where the panel's place below the table is checked, then
to its end at desktop size, where the panel is beside the table, and the game's lessons
follow it."""

from __future__ import annotations

import time

import pytest
from pagehelpers import IDLE, MATCH_OVER, MENU, ROUND_OVER, resume_button, save_key

import engine
from engine import coach

SHARED_PAGE = True

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PHONE_TURNS = 6
"""Turns of the coached round followed at phone size."""
COACH = "[data-testid=coach]"
FOLLOW = "[data-testid=coach-follow]:not([disabled])"
DONE = "[data-testid=coach][data-done=true]"


def steps_said(page) -> set[str]:
    return set(
        page.eval_on_selector_all(f"{COACH} [data-step]", "els => els.map(e => e.dataset.step)")
    )


def follow_the_coach(page, game: str, max_turns: int | None) -> tuple[set[str], int]:
    """Press the coach's suggestion (focus it, Enter) on each of the person's turns until the
    round is over (or ``max_turns`` turns); the steps said and the turns taken."""
    said: set[str] = set()
    turns = 0
    ready = f"{IDLE} {FOLLOW}, {DONE}, {ROUND_OVER}, {MATCH_OVER}"
    waiting_since = time.monotonic()
    while True:
        page.wait_for_selector(ready, timeout=60_000)
        # A minute with neither a suggestion to follow nor the coach done: stuck, not slow.
        assert time.monotonic() - waiting_since < 60, (
            f"{game}: no suggestion and the coach not done after {turns} turns; "
            f"the coach says: {page.locator(COACH).all_inner_texts()}"
        )
        said |= steps_said(page)
        if page.locator(DONE).count():
            return said, turns
        if max_turns is not None and turns >= max_turns:
            return said, turns
        follow = page.locator(f"{IDLE} {FOLLOW}")
        if not follow.count():
            page.wait_for_timeout(50)
            continue
        suggested = follow.get_attribute("data-action")
        highlighted = page.locator(f"[data-testid=actions] [data-action='{suggested}']")
        assert "is-coach-suggested" in (highlighted.get_attribute("class") or "")
        moves = page.evaluate("() => document.querySelectorAll('.log-list li').length")
        follow.focus()
        page.keyboard.press("Enter")
        turns += 1
        waiting_since = time.monotonic()
        page.wait_for_function(
            "n => document.querySelectorAll('.log-list li').length > n", arg=moves, timeout=60_000
        )


def follow_the_lessons(page, game: str, lessons: list[dict], said: set[str]) -> None:
    """After the coached round, each of the game's lessons offered in turn by the panel's
    "Next lesson" button: put on the table, followed to its end, the rule it is for said.
    Every step of the coach file is then said."""
    for lesson in lessons:
        follow = page.locator("[data-testid=coach-next]")
        assert follow.inner_text() == f"Next lesson: {lesson['title']}"
        follow.click()
        page.wait_for_selector(f"{COACH}[data-done=false]", timeout=60_000)
        lesson_said, _ = follow_the_coach(page, game, None)
        assert set(lesson["until"]) <= lesson_said | steps_said(page)
        said |= lesson_said | steps_said(page)
    assert not page.locator("[data-testid=coach-next]").count()
    assert said == {step["id"] for step in coach.load(game).steps}


def abandon_the_saved_match(page) -> None:
    """A coached round started while a coached round of the same game is saved (this module's
    page keeps the one a test before left) asks first; the test abandons the saved one."""
    if page.locator("[data-testid=replace-dialog]").count():
        page.click("[data-testid=abandon-save]")


def coach_box(page) -> tuple[dict, dict]:
    """Where the coach's panel and the table are now."""
    box = page.locator(COACH).bounding_box()
    table = page.locator(".game-root").bounding_box()
    assert box and table
    return box, table


@pytest.mark.parametrize("game", list(engine.GAMES))
def test_a_coached_round_followed_to_its_end(page, site, open_app, game):
    open_app(page, site)
    page.set_viewport_size(PHONE)
    learn = page.locator(f"[data-testid=learn][data-learn-game={game}]")
    assert learn.inner_text().startswith("Learn")
    started = time.perf_counter()
    learn.click()
    abandon_the_saved_match(page)
    panel = page.locator(COACH)
    panel.wait_for(state="visible", timeout=60_000)
    assert page.locator(f"{COACH} [aria-live=polite]").count() == 1
    # Attached, not visible: the panel is below the table on a phone.
    page.wait_for_selector(f"{COACH} [data-step=welcome]", state="attached", timeout=60_000)
    deals = coach.load(game).deals
    engine_run = coach.follow(game, deals[0])
    steps = set(engine_run["said"])
    turns_needed = engine_run["turns"]
    try:
        # The first turns on a phone.
        said, turns = follow_the_coach(page, game, PHONE_TURNS)
        assert turns == min(PHONE_TURNS, turns_needed)
        assert said and said <= steps, f"said off the coached round: {sorted(said - steps)}"
        box, table = coach_box(page)
        assert box["y"] >= table["y"] + table["height"] - 1, "the coach is below the table"
        # The rest of the round on a laptop, then the lessons.
        page.set_viewport_size(DESKTOP)
        more, later = follow_the_coach(page, game, None)
        said |= more
        turns += later
        assert page.locator(DONE).count() == 1
        said |= steps_said(page)
        assert said == steps, f"not said: {sorted(steps - said)}"
        assert turns == turns_needed, "the page's round is the engine's coached round"
        lines = page.locator(f"{COACH} [data-testid=coach-score] li").all_inner_texts()
        assert lines and all(line.strip() for line in lines)
        follow_the_lessons(page, game, deals[1:], said)
        box, table = coach_box(page)
        assert box["x"] >= table["x"] + table["width"] - 1, "the coach is beside the table"
    finally:
        page.set_viewport_size(DESKTOP)
    print(f"\n{game}: {turns} turns in {time.perf_counter() - started:.1f} s")


# Where an element is in the window as it is now, and the window's size.
IN_WINDOW = """(sel) => {
  const e = document.querySelector(sel);
  if (!e || !e.checkVisibility()) return null;
  const r = e.getBoundingClientRect();
  return { top: r.top, left: r.left, right: r.right, h: innerHeight, w: innerWidth };
}"""


def on_screen(page, selector: str) -> bool:
    """Whether the element's top line is in the window, nothing of it left or right of it."""
    at = page.evaluate(IN_WINDOW, selector)
    return (
        bool(at)
        and 0 <= at["top"]
        and at["top"] + 16 <= at["h"]
        and 0 <= at["left"] <= at["right"] <= at["w"]
    )


@pytest.mark.parametrize(("game", "size"), [("progression", "desktop"), ("mhing", "phone")])
def test_the_coachs_first_words_are_on_screen_at_the_first_decision(
    page, site, open_app, game, size
):
    """In both deals the computer plays before the person's first decision: the welcome and
    what came with those moves are still the coach's words now (not folded into the earlier
    tips), and on the screen: beside the table on a laptop, on a phone in the line under the
    status line, opened in place by a tap."""
    open_app(page, site)
    page.set_viewport_size(DESKTOP if size == "desktop" else PHONE)
    try:
        page.click(f"[data-testid=learn][data-learn-game={game}]")
        abandon_the_saved_match(page)
        page.wait_for_selector(f"{IDLE} {FOLLOW}", timeout=60_000)
        assert page.locator(".log-list li").count() >= 1, "the computer played first"
        welcome = "[data-testid=coach-now] [data-step=welcome]"
        assert page.locator(welcome).count() == 1, "the welcome is still said now"
        assert page.locator(".coach-earlier").count() == 0, "nothing is folded away yet"
        said = next(step["say"] for step in coach.load(game).steps if step["id"] == "welcome")
        if size == "desktop":
            assert on_screen(page, welcome), page.evaluate(IN_WINDOW, welcome)
            return
        line = "[data-testid=coach-line-text]"
        assert on_screen(page, line), page.evaluate(IN_WINDOW, line)
        text = " ".join(page.locator(line).inner_text().split())
        assert text.startswith(f"Coach: {said[:30]}"), "the line begins with its first words"
        page.click(line)
        full = page.locator("[data-testid=coach-line-full]")
        full.wait_for(state="visible")
        assert said in full.inner_text(), "the whole advice, the welcome first"
        assert on_screen(page, "[data-testid=coach-line-full] p"), "opened in place"
        page.click(line)
        full.wait_for(state="hidden")
    finally:
        page.set_viewport_size(DESKTOP)


def test_learn_from_the_rules_page_and_stop_coaching(page, site, open_app):
    open_app(page, site)
    page.click("[data-testid=rules][data-rules-game=crisps]")
    page.click("[data-testid=rules-page] [data-testid=learn]")
    abandon_the_saved_match(page)
    page.wait_for_selector(f"{COACH} [data-step=welcome]", state="attached", timeout=60_000)
    # A move other than the coach's: the coach carries on from the new position.
    page.wait_for_selector(f"{IDLE} {FOLLOW}", timeout=60_000)
    suggested = page.locator(FOLLOW).get_attribute("data-action")
    other = [
        a
        for a in page.eval_on_selector_all(
            "[data-testid=actions] [data-action]", "els => els.map(e => e.dataset.action)"
        )
        if a != suggested
    ]
    page.click(f"[data-testid=actions] [data-action='{other[0]}']")
    page.wait_for_selector(f"{IDLE} {FOLLOW}, {ROUND_OVER}, {MATCH_OVER}", timeout=60_000)
    page.click("[data-testid=coach-stop]")
    assert page.locator(COACH).count() == 0
    page.click("[data-testid=menu-button]")
    page.locator(MENU).first.wait_for(state="visible")


def test_the_coach_comes_back_with_the_match_after_a_reload(page, site, open_app):
    open_app(page, site)
    page.click("[data-testid=learn][data-learn-game=crisps]")
    abandon_the_saved_match(page)
    page.wait_for_selector(f"{COACH} [data-step=welcome]", state="attached", timeout=60_000)
    said, turns = follow_the_coach(page, "crisps", 2)
    assert turns == 2
    page.wait_for_selector(f"{IDLE} {FOLLOW}", timeout=60_000)
    before = steps_said(page)
    open_app(page, site)  # a reload: the menu offers the saved coached round
    page.click(resume_button("crisps.learn"))
    page.locator(COACH).wait_for(state="visible", timeout=60_000)
    page.wait_for_selector(f"{IDLE} {FOLLOW}", timeout=60_000)
    after = steps_said(page)
    assert before <= after, "what the coach said is still there"
    now = page.eval_on_selector_all(
        "[data-testid=coach-now] [data-step]", "els => els.map(e => e.dataset.step)"
    )
    assert "welcome" not in now, "nothing said before is said again as new"
    # And it goes on coaching: the next suggestion is one of the legal moves, and lit.
    suggested = page.locator(FOLLOW).get_attribute("data-action")
    lit = page.locator(f"[data-testid=actions] [data-action='{suggested}']")
    assert "is-coach-suggested" in (lit.get_attribute("class") or "")
    # Stopping is saved in the same moment as the click, before any reply of the engine (a
    # reload straight after it must not bring the coach back).
    saved_coach = page.evaluate(
        "key => { document.querySelector('[data-testid=coach-stop]').click();"
        " return JSON.parse(localStorage.getItem(key)).page.coach; }",
        save_key("crisps.learn"),
    )
    assert saved_coach is None, "stopping the coach is saved at once"
    open_app(page, site)
    page.click(resume_button("crisps.learn"))
    page.wait_for_selector(IDLE, timeout=60_000)
    assert page.locator(COACH).count() == 0, "coaching stopped stays stopped"
    page.click("[data-testid=menu-button]")

"""Every screen of every game at home on a 390x844 and a 360x740 phone (touch) and a 1280x800
laptop: nothing wider than the window (no sideways scroll, no box scrolling sideways inside
it), no text under 12 px, no word cut off, no control under 44x44 CSS px on a phone, and at a
decision the status line in the window with the page scrolled to the moves (at each decision
played to the round's end, on both phones). On a phone the table's controls are held to 44 px
like every other screen's, its play area's among them (see screenwalk); its cards are sized
to the window, checked by e2e/test_fit.py.

The screens: the menu, statistics and settings; a coached (Learn to play) table; for each game
at its largest table its rules, its set-up, the table at a decision with the analysis open, a
round-over dialog, the match-over dialog, the review of the match and its replay, then the
statistics and the game's history with that match kept. Each is looked at in all three sizes on one
shared page (``screenwalk``: one look per screen and size lists every offender), so the engine
starts once for the module. ``PARLOUR_SCREEN_SHOTS=dir`` writes a screenshot of each.
"""

from __future__ import annotations

import pytest
from conftest import back_to_menu
from pagehelpers import (
    IDLE,
    MATCH_OVER,
    ROUND_OVER,
    import_match,
    play_out,
    record_near_the_end,
)
from screenwalk import SIZES, Walk, clear_window, set_window, status_out_of_view

import engine

SHARED_PAGE = True

TABLES = {"roundup": 6, "progression": 4, "mhing": 4, "crisps": 2, "spite": 2}
CLICK = "(selector) => document.querySelector(selector).click()"


def seats(players: int) -> list[dict]:
    out = [{"type": "human", "name": "You"}]
    return out + [{"type": "bot", "level": "random", "name": f"Bot {i}"} for i in range(1, players)]


ROUNDS_LEFT = {"roundup": 1, "progression": 1, "mhing": 1, "crisps": 1, "spite": 0}
"""Rounds after the one the table is first looked at in (a random Spite and Malice match is
seldom more than one game)."""
HINTED = ("crisps", "mhing")
"""The games whose table also checks a hint read whole (a Hard search each)."""


def check_the_hint_opens_whole(page) -> None:
    """A hint says its move and why in the status line, in one or two lines that keep their
    height; a tap on it opens it whole over the table, which does not move, and a tap closes
    it. On a phone."""
    set_window(page, "390x844")
    page.evaluate(CLICK, "[data-testid=hint]")
    line = page.locator("[data-testid=message]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=message]').textContent"
        ".startsWith('Suggested move')"
    )
    page.wait_for_selector(IDLE)
    said = line.text_content()
    table = page.locator("[data-testid=table] .table-main")
    before = (line.bounding_box(), table.bounding_box())
    line.click()
    whole = page.locator("[data-testid=message-whole]")
    whole.wait_for()
    assert whole.text_content() == said
    box = whole.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    # All of it shows: nothing cut, no inner scroll.
    assert whole.evaluate("(e) => e.scrollHeight <= e.clientHeight + 1")
    assert (line.bounding_box(), table.bounding_box()) == before, "the table moved"
    whole.click()
    assert whole.count() == 0
    set_window(page, "1280x800")


def to_menu(page) -> None:
    assert back_to_menu(page), "no way back to the menu"


@pytest.fixture
def walk(page, site, open_app):
    open_app(page, site)
    found = Walk(page)
    try:
        yield found
    finally:
        clear_window(page)
    assert not found.found, "screens that do not fit:\n" + found.report()


PHONES = [size for size, spec in SIZES.items() if spec["mobile"]]


def status_at_the_decision(walk: Walk, screen: str) -> None:
    """The status line in the window at this decision, with the page scrolled to its foot,
    at each phone size (a laptop's status line sits above a table that fits its window)."""
    for size in PHONES:
        set_window(walk.page, size)
        away = status_out_of_view(walk.page)
        if away:
            walk.found.setdefault(f"{screen} at {size}", {}).setdefault("status", []).append(away)
    set_window(walk.page, "1280x800")


def test_the_menu_statistics_and_settings(walk):
    page = walk.page
    walk.look("menu")
    page.evaluate(CLICK, "[data-testid=stats]")
    page.locator("[data-testid=back]").wait_for()
    walk.look("statistics")
    to_menu(page)
    page.evaluate(CLICK, "[data-testid=settings]")
    page.locator("[data-testid=back]").wait_for()
    walk.look("settings")
    to_menu(page)


def test_the_coached_table(walk):
    """A Learn to play round of Crisps at its first decision: the coach's line and panel
    beside the table, with the table's checks."""
    page = walk.page
    page.evaluate(CLICK, "[data-testid=learn][data-learn-game=crisps]")
    page.locator("[data-testid=replace-dialog], [data-testid=coach]").first.wait_for()
    if page.locator("[data-testid=replace-dialog]").count():
        page.evaluate(CLICK, "[data-testid=abandon-save]")
    page.wait_for_selector(f"{IDLE} [data-testid=coach-follow]:not([disabled])")
    walk.look("coached crisps table", table=True)
    to_menu(page)


@pytest.mark.parametrize("game", list(TABLES))
def test_every_screen_of_the_game(walk, game):
    page = walk.page
    players = TABLES[game]
    page.evaluate(CLICK, f"[data-testid=rules][data-rules-game={game}]")
    page.locator("[data-testid=rules-page]").wait_for()
    walk.look(f"{game} rules")
    to_menu(page)
    page.evaluate(CLICK, f"[data-testid=menu] [data-game={game}]")
    page.locator("[data-testid=start]").wait_for()
    if page.locator("[data-testid=players]").count():
        page.select_option("[data-testid=players]", str(players))
    walk.look(f"{game} set-up")
    to_menu(page)

    # The table at a decision near a round's end, with the analysis open; then on to the
    # round-over dialog.
    record = record_near_the_end(game, players, {}, steps_left=3, rounds_left=ROUNDS_LEFT[game])
    import_match(page, record, seats(players))
    walk.look(f"{game} table", table=True)
    if game in HINTED:
        check_the_hint_opens_whole(page)
    page.evaluate(CLICK, "[data-testid=analyse]")
    page.locator("[data-testid=analysis-table]").wait_for(state="attached")
    page.wait_for_selector(IDLE)
    walk.look(f"{game} analysis", table=True)
    for _ in range(60):
        page.wait_for_selector(f"{IDLE}, {ROUND_OVER}, {MATCH_OVER}")
        if page.locator(ROUND_OVER).count() or page.locator(MATCH_OVER).count():
            break
        status_at_the_decision(walk, f"{game} table, move {_}")
        page.evaluate(CLICK, "[data-testid=actions] [data-action]")
    if page.locator(ROUND_OVER).count():
        walk.look(f"{game} round over")
    to_menu(page)

    # The match's end, its review and its replay.
    record = record_near_the_end(game, players, {}, steps_left=2)
    import_match(page, record, seats(players))
    play_out(page, lambda ids: ids[0])
    page.locator(MATCH_OVER).wait_for()
    walk.look(f"{game} match over")
    page.evaluate(CLICK, "[data-testid=review-open]")
    page.locator("[data-testid=review]").wait_for()
    walk.look(f"{game} review")
    page.evaluate(CLICK, "[data-testid=review-back]")
    page.locator(MATCH_OVER).wait_for()
    page.evaluate(CLICK, "[data-testid=replay-open]")
    page.locator("[data-testid=replay-table]").wait_for()
    walk.look(f"{game} replay")
    to_menu(page)

    # The statistics with the match kept, and the game's history: its records, charts and
    # the match's row.
    page.evaluate(CLICK, "[data-testid=stats]")
    page.locator(f"[data-testid=open-history][data-game={game}]").wait_for()
    walk.look(f"{game} statistics")
    page.evaluate(CLICK, f"[data-testid=open-history][data-game={game}]")
    page.locator("[data-testid=history-match]").first.wait_for()
    walk.look(f"{game} history")
    to_menu(page)
    assert engine.GAMES[game].max_players == players

"""The person's record, in the browser: finished matches kept in the history and drawn in its
charts (at a phone's size and a desktop's, each control 44 px on a touch phone), replayed and
reviewed from there (the match in progress left as it was), a hint and an undo kept with the
match; the profile file exported, refused when malformed, and imported after the storage was
cleared (the settings' controls 44 px on a phone); the deal of the day played for the record,
shared, and its link opened in another browser; a broken link refused.

The tests share one page (``SHARED_PAGE``). Matches start from saved records near their end
(``record_near_the_end``, opened as match files) so that each is finished in a few moves.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from datetime import UTC, datetime
from pathlib import Path

from conftest import APP_TIMEOUT_MS, new_context
from pagehelpers import (
    HUMAN,
    IDLE,
    MENU,
    bot_seat,
    click_side_action,
    import_match,
    play_out,
    random_playout,
    record_near_the_end,
    resume_button,
    save_key,
    saved_match,
    settled_look,
    store_script,
)
from playwright.sync_api import expect
from screenwalk import clear_window, offenders, set_window

import engine
from tests.node_script import run_script

SHARED_PAGE = True

CRISPS_SEATS = [HUMAN, bot_seat("random", "North")]
HISTORY_MODEL = (
    Path(__file__).resolve().parent.parent / "web" / "js" / "features" / "history-model.js"
)
DAILY_SEED = """
import { dailySeed } from %s;
console.log(JSON.stringify(dailySeed(...JSON.parse(process.argv[1]))));
"""
HISTORY = "[data-testid=history-page]"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def finish_crisps(page, seed: int) -> None:
    """Open a Crisps match a few moves from its end and play it out from the side panel."""
    record = record_near_the_end("crisps", 2, {}, steps_left=4, seeds=range(seed, seed + 60))
    to_menu(page)
    import_match(page, record, CRISPS_SEATS)
    play_out(page, lambda ids: next((a for a in ids if a != "pass"), ids[0]), max_moves=300)
    page.locator("[data-testid=match-over]").wait_for()


def to_menu(page) -> None:
    """From the match-over dialog (or the menu) to the menu."""
    over = page.locator("[data-testid=match-over] button:not([data-testid])")
    if over.count():
        over.first.click()
    page.locator(MENU).first.wait_for()


def open_history(page, game: str) -> None:
    to_menu(page)
    page.click("[data-testid=stats]")
    page.click(f"[data-testid=open-history][data-game={game}]")
    page.locator(HISTORY).wait_for()


def fits(page) -> dict:
    """Whether the screen is wider than the window, the text under 12 px and the chart text's
    smallest size on the screen."""
    return page.evaluate(
        """() => {
          const small = [...document.querySelectorAll('#app *:not(svg *)')]
            .filter((el) => el.getClientRects().length
              && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
            .filter((el) => parseFloat(getComputedStyle(el).fontSize) < 12)
            .map((el) => `${el.tagName}.${el.className}: ${getComputedStyle(el).fontSize}`);
          // An SVG's text is drawn at its font size times the drawing's scale.
          const svg = [...document.querySelectorAll('.chart-svg text')].map((t) => {
            const drawing = t.ownerSVGElement;
            const scale = drawing.clientWidth / drawing.viewBox.baseVal.width;
            return parseFloat(getComputedStyle(t).fontSize) * scale;
          });
          return { wide: document.documentElement.scrollWidth > window.innerWidth,
                   small, smallestChartText: Math.min(...svg) };
        }"""
    )


def test_finished_matches_are_kept_in_the_history_with_charts_at_both_sizes(page, site, open_app):
    open_app(page, site)
    finish_crisps(page, 1)
    finish_crisps(page, 80)
    open_history(page, "crisps")
    matches = page.locator("[data-testid=history-match]")
    expect(matches).to_have_count(2)
    first = matches.first.inner_text()
    assert "Random computer" in first and "2 players" in first and "round" in first
    assert "No hint, undo or analysis" in first
    won = [m.get_attribute("data-won") == "true" for m in matches.all()]
    rate = page.locator("[data-testid=chart-rate-table] tbody tr").all_text_contents()
    assert [("won" in r) for r in rate] == won[::-1]
    records = page.locator("[data-testid=history-records]").inner_text()
    assert "Played\n2" in records
    for chart in ("chart-rate", "chart-scores", "chart-margins"):
        figure = page.locator(f"[data-testid={chart}]")
        expect(figure.locator("svg[role=img]")).to_be_visible()
        # The chart's table behind it holds the same figures, one row per match or bar.
        rows = figure.locator(f"[data-testid={chart}-table] tbody tr")
        assert rows.count() >= 1
        # Each label of its value axis names the value its line is at: none twice.
        ticks = figure.locator("svg text.chart-tick").all_text_contents()
        assert len(ticks) >= 2 and len(ticks) == len(set(ticks)), f"{chart}'s axis: {ticks}"
    expect(page.locator("[data-testid=chart-rate-table] tbody tr")).to_have_count(2)
    expect(page.locator("[data-testid=chart-rate] circle")).to_have_count(2)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        look = fits(page)
        assert not look["wide"], f"the history is wider than a {size['width']} px window"
        assert look["small"] == [] and look["smallestChartText"] >= 12, look
    # A match is one tap from its replay, and the replay comes back to the history.
    page.locator("[data-testid=history-replay]").first.click()
    page.locator("[data-testid=replay]").wait_for()
    page.click("[data-testid=replay-end]")
    expect(page.locator("[data-testid=replay-step]")).to_contain_text("Move")
    page.click("[data-testid=replay-close]")
    page.locator(HISTORY).wait_for()

    # On a phone (touch, 390x844) every control of the history is 44 px or more.
    page.set_viewport_size(PHONE)
    set_window(page, "390x844")
    try:
        assert offenders(page, "390x844") == {}, "the history at 390x844"
    finally:
        clear_window(page)

    # A match is one tap from the review of the person's moves too, read from its file: the
    # game's match in progress (saved before) stays as it was.
    in_progress = saved_match(
        record_near_the_end("crisps", 2, {}, steps_left=8, seeds=range(400, 460)), CRISPS_SEATS
    )
    page.evaluate(store_script(in_progress))
    kept = page.evaluate(f"localStorage.getItem({json.dumps(save_key('crisps'))})")
    entry = matches.last.get_attribute("data-id")
    matches.last.locator("[data-testid=history-review]").click()
    review = page.locator("[data-testid=review]")
    review.wait_for()
    files = json.loads(page.evaluate("localStorage.getItem('parlour.history-files.crisps')"))
    actions = files["files"][entry]["record"]["actions"]
    mine = review.locator(".log-entry").evaluate_all(
        "n => n.flatMap((e, i) => "
        "e.querySelector('.log-who').textContent.startsWith('You') ? [i] : [])"
    )
    assert len(review.locator(".log-entry").all()) == len(actions) and mine
    page.click("[data-testid=review-run]")
    first = review.locator(f"[data-testid=move-rank][data-step='{mine[0]}']")
    first.wait_for()
    assert int(first.get_attribute("data-rank")) >= 1
    if page.locator("[data-testid=review-stop]").count():
        page.click("[data-testid=review-stop]")
    page.locator("[data-testid=review-run]").wait_for()
    expect(page.locator("[data-testid=review-summary]")).to_contain_text(f"of {len(mine)} moves")
    page.click("[data-testid=review-back]")
    page.locator(HISTORY).wait_for()
    assert page.evaluate(f"localStorage.getItem({json.dumps(save_key('crisps'))})") == kept


def test_a_hint_taken_is_kept_with_the_match(page, site, open_app):
    open_app(page, site)
    record = record_near_the_end("crisps", 2, {}, steps_left=4, seeds=range(200, 260))
    import_match(page, record, CRISPS_SEATS)
    page.click("[data-testid=hint]")
    page.locator("[data-testid=actions] .is-hinted").first.wait_for(state="attached")
    play_out(page, lambda ids: next((a for a in ids if a != "pass"), ids[0]), max_moves=300)
    page.locator("[data-testid=match-over]").wait_for()
    open_history(page, "crisps")
    latest = page.locator("[data-testid=history-match]").first.inner_text()
    assert "Used hints" in latest


def undo_point() -> tuple[dict, str]:
    """A General Mhing match (two players) a few moves from its end, seat 0 to move with a
    move that keeps the turn and reveals nothing (so it can be taken back), and that move."""
    for seed in range(1, 200):
        to_move = []  # (seat to move, rounds ended) at each step
        for state in random_playout("mhing", 2, {}, seed):
            to_move.append((state.current_player, len(state.result()["rounds"])))
        final = state.to_record()
        last = to_move[-1][1] - 1
        end = next(i for i, (_, ended) in enumerate(to_move) if ended > last)
        for cut in range(end - 2, max(0, end - 80), -1):
            if to_move[cut] != (0, last):
                continue
            record = {**final, "actions": final["actions"][:cut]}
            at = engine.from_record(record)
            for action in at.legal_actions():
                after = at.clone()
                after.apply(action)
                if after.current_player == 0 and not after.move_revealed_hidden(cut):
                    return record, action.id
    raise AssertionError("no General Mhing playout has a move to take back near its end")


def test_an_undo_is_kept_with_the_match(page, site, open_app):
    open_app(page, site)
    record, quiet = undo_point()
    to_menu(page)
    import_match(page, record, [HUMAN, bot_seat("random", "North")])
    look = settled_look(page)
    assert quiet in look["ids"]
    click_side_action(page, quiet, look["folded"])
    page.wait_for_selector(IDLE)
    page.click("[data-testid=undo]")
    page.wait_for_selector(IDLE)
    play_out(page, lambda ids: ids[0], max_moves=600)
    page.locator("[data-testid=match-over]").wait_for()
    open_history(page, "mhing")
    latest = page.locator("[data-testid=history-match]").first.inner_text()
    assert "Used undo" in latest


KEPT = """() => Object.fromEntries(Object.keys(localStorage).filter((k) => k.startsWith('parlour.'))
  .sort().map((k) => [k, localStorage.getItem(k)]))"""
"""Everything the page keeps in localStorage, key by key."""


def import_profile(page, content: bytes) -> None:
    page.set_input_files(
        "[data-testid=profile-import]",
        files=[{"name": "profile.json", "mimeType": "application/json", "buffer": content}],
    )


def test_a_profile_exported_comes_back_whole_after_the_storage_is_cleared(page, site, open_app):
    open_app(page, site)
    finish_crisps(page, 300)
    to_menu(page)
    # A match left in progress, and a setting changed.
    import_match(
        page,
        record_near_the_end("crisps", 2, {}, steps_left=8, seeds=range(400, 460)),
        CRISPS_SEATS,
    )
    page.click("[data-testid=menu-button]")
    page.click("[data-testid=settings]")
    page.check("[data-testid=setting-four-colour]")
    # On a phone (touch, 390x844) the settings, their "Your data" part with them, have
    # every control 44 px or more.
    set_window(page, "390x844")
    try:
        page.locator("[data-testid=profile-data]").scroll_into_view_if_needed()
        assert offenders(page, "390x844") == {}, "the settings at 390x844"
    finally:
        clear_window(page)
    note = page.locator("[data-testid=profile-data]").inner_text()
    assert "this device" in note and "never leave it unless you export" in note
    before = page.evaluate(KEPT)
    assert (
        "parlour.history.crisps" in before
        and "parlour.save.crisps" in before
        and "parlour.stats" in before
    )
    with page.expect_download() as download:
        page.click("[data-testid=profile-export]")
    content = Path(download.value.path()).read_bytes()
    profile = json.loads(content)
    assert profile["parlour"] == "profile" and profile["saves"][0]["game"] == "crisps"

    # A malformed file, then one from a newer version: each says why and changes nothing.
    for bad, why in (
        (b'{"parlour": "profile", "v": 1, "history": {"crisps": [1]}}', "match history"),
        (json.dumps({**profile, "v": 99}).encode(), "newer version"),
    ):
        import_profile(page, bad)
        expect(page.locator("[data-testid=profile-error]")).to_contain_text(why)
        assert page.evaluate(KEPT) == before

    page.evaluate("localStorage.clear()")
    open_app(page, site)  # a reload: the browser's storage is empty
    page.click("[data-testid=settings]")
    assert not page.is_checked("[data-testid=setting-four-colour]")
    import_profile(page, content)
    expect(page.locator("[data-testid=profile-done]")).to_contain_text("Profile imported")
    assert page.is_checked("[data-testid=setting-four-colour]")
    after = page.evaluate(KEPT)
    for key in before:
        if key.startswith("parlour.save."):  # rewritten with its own time
            assert json.loads(after[key])["data"] == json.loads(before[key])["data"]
        else:
            assert json.loads(after[key]) == json.loads(before[key]), key
    # Importing the same file again adds nothing.
    import_profile(page, content)
    expect(page.locator("[data-testid=profile-done]")).to_contain_text("0 matches added")
    page.click("[data-testid=back]")
    expect(page.locator("[data-testid=resume]")).to_be_visible()
    page.click("[data-testid=stats]")
    page.click("[data-testid=open-history][data-game=crisps]")
    expect(page.locator("[data-testid=history-match]")).to_have_count(
        len(json.loads(before["parlour.history.crisps"])["entries"])
    )


# ----- the deal of the day ----------------------------------------------------------------------


def daily_seed(game: str, day: str) -> int:
    """The deal of the day's seed, as features/history-model.js's dailySeed derives it."""
    value = 0x811C9DC5
    for ch in f"parlour-daily:{day}:{game}":
        value = ((value ^ ord(ch)) * 0x01000193) & 0xFFFFFFFF
    return value & 0x7FFFFFFF


def near_the_end(seed: int) -> dict:
    """Crisps deal ``seed`` played at random, cut a few moves before its end with seat 0 to move."""
    for steps_left in range(4, 40):
        try:
            return record_near_the_end("crisps", 2, {}, steps_left, seeds=range(seed, seed + 1))
        except AssertionError:
            continue
    raise AssertionError(f"Crisps deal {seed} has no cut near its end")


def test_the_deal_of_the_day_is_played_for_the_record_shared_and_opened_by_the_link(
    page, site, open_app, browser
):
    today = datetime.now(UTC).date().isoformat()
    seed = daily_seed("crisps", today)
    assert seed == run_script(HISTORY_MODEL, DAILY_SEED, json.dumps(["crisps", today]))
    # Today's Crisps deal, at its default table, a few moves from its end: a saved match that
    # the page resumes still for the record (what the page keeps with it says so).
    record = near_the_end(seed)
    assert record["seed"] == seed
    save = saved_match(record, [HUMAN, bot_seat("normal", "North")])
    save["page"] = {
        "roundOver": False,
        "dailyPlay": {"game": "crisps", "day": today, "record": True},
    }
    open_app(page, site)
    summary = page.locator("[data-testid=daily-summary]")
    expect(summary).not_to_contain_text("Crisps")
    page.evaluate(store_script(save))
    page.click("[data-testid=settings]")
    page.click("[data-testid=back]")
    page.click(resume_button("crisps"))
    page.wait_for_selector(IDLE)
    expect(page.locator("[data-testid=for-the-record]")).to_be_visible()
    for tool in ("hint", "undo", "analyse"):
        assert page.locator(f"[data-testid={tool}]").count() == 0, f"no {tool} for the record"
    play_out(page, lambda ids: next((a for a in ids if a != "pass"), ids[0]), max_moves=300)
    page.locator("[data-testid=match-over]").wait_for()
    page.click("[data-testid=daily-share]")
    text = page.locator("[data-testid=daily-share-text]").inner_text()
    link = page.locator("[data-testid=daily-share-link]").input_value()
    assert f"Crisps, deal of the day {today}: I " in text
    assert not re.search(r"\b(10|[2-9AJQK])[SHDC]\b", text + link), "no card is named"
    query = urllib.parse.parse_qs(urllib.parse.urlparse(link).fragment)
    assert query["daily"] == ["crisps"] and query["date"] == [today]
    page.click("[data-testid=daily-share-close]")
    to_menu(page)
    expect(summary).to_contain_text("\u2713 Crisps")
    expect(page.locator("[data-testid=daily-row][data-daily-game=crisps]")).to_have_attribute(
        "data-done", "true"
    )

    # The link opens, in another browser, the friend's result beside one's own and the same deal.
    context = new_context(browser)
    try:
        friend = context.new_page()
        friend.goto(link.replace("#", "?speed=0&snapshot=0#"))
        friend.locator("html[data-engine=ready]").wait_for(state="attached", timeout=APP_TIMEOUT_MS)
        expect(friend.locator("[data-testid=daily-offer]")).to_contain_text(
            f"Crisps deal of the day of {today}"
        )
        row = friend.locator("[data-testid=daily-row][data-daily-game=crisps]")
        expect(row.locator("[data-testid=daily-friend]")).to_contain_text(query["score"][0])
        row.locator("[data-testid=daily-play]").click()
        friend.wait_for_selector(f"{IDLE}, [data-testid=match-over]")
        expect(friend.locator("[data-testid=for-the-record]")).to_be_visible()
        saved = json.loads(
            friend.evaluate(f"localStorage.getItem({json.dumps(save_key('crisps'))})")
        )
        assert saved["data"]["record"]["seed"] == seed and saved["data"]["practice"] is False
        assert context.problems.all() == []
    finally:
        context.close()


def test_a_broken_deal_of_the_day_link_says_why_and_changes_nothing(page, site, open_app):
    open_app(page, site)
    before = page.evaluate(KEPT)
    for fragment, why in (
        ("daily=crisps&date=2025-02-30&score=3&vs=1&won=1", "is not a date"),
        ("daily=chess&date=2025-02-01&score=3&vs=1&won=1", "no game called"),
        ("daily=crisps&date=2025-02-01&score=x&vs=1&won=1", "score is not readable"),
        ("daily=crisps&date=2999-01-01&score=3&vs=1&won=1", "has not come yet"),
    ):
        page.evaluate(f"location.hash = {json.dumps(fragment)}")
        expect(page.locator("[data-testid=daily-error]")).to_contain_text(why)
        assert page.evaluate(KEPT) == before
    expect(page.locator("[data-testid=daily-offer]")).to_have_count(0)

"""The person's record, in the browser: finished matches kept in the history and drawn in its
charts (at a phone's size and a desktop's), replayed from there; the profile file exported,
refused when malformed, and imported after the storage was cleared.

The tests share one page (``SHARED_PAGE``). Matches start from saved records near their end
(``record_near_the_end``, opened as match files) so that each is finished in a few moves.
"""

from __future__ import annotations

import json
from pathlib import Path

from pagehelpers import HUMAN, MENU, bot_seat, import_match, play_out, record_near_the_end
from playwright.sync_api import expect

SHARED_PAGE = True

CRISPS_SEATS = [HUMAN, bot_seat("random", "North")]
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

"""A thinking computer opponent, in the browser: an Expert's search shows its progress beside
"North is thinking…" and the bar goes once the move is made, whether the engine started
normally or from the start-up snapshot; a Normal opponent, which answers at once, shows none.

The match is a saved Crisps record (seat 0 to move), opened from a match file, so that
the opponent's reply is a real choice (a single legal move is not searched).

The tests share one page (``SHARED_PAGE``).
"""

from __future__ import annotations

from pagehelpers import (
    HUMAN,
    IDLE,
    SIDE_ACTIONS,
    bot_seat,
    open_record,
    read_save,
    resume_button,
    saved_match,
    store_script,
)

import engine

SHARED_PAGE = True

BAR = "progress[data-testid=thinking]"
# Returns the bar's value, label and role while it shows a search under way, else null.
BAR_UNDER_WAY = """() => {
  const bar = document.querySelector("progress[data-testid=thinking]");
  if (!bar || !(bar.value > 0 && bar.value < 1)) return null;
  return {value: bar.value, max: bar.max, label: bar.getAttribute("aria-label")};
}"""


def opening_with_a_choice() -> tuple[dict, str]:
    """A Crisps record where seat 0 leads and seat 1 then has more than one legal reply."""
    for seed in range(1, 200):
        state = engine.new_game("crisps", 2, seed, {})
        if state.current_player != 0:
            continue
        lead = state.legal_actions()[0]
        after = state.clone()
        after.apply(lead)
        if after.current_player == 1 and len(after.legal_actions()) > 1:
            return state.to_record(), lead.id
    raise AssertionError("no suitable opening")


def store_save(record: dict, level: str) -> str:
    """JavaScript that saves ``record`` against a ``level`` bot named North, for "Resume"."""
    return store_script(saved_match(record, [HUMAN, bot_seat(level)]))


def resume(page, site, open_app, record: dict, level: str) -> None:
    open_record(page, site, open_app, record, [HUMAN, bot_seat(level)])


def log_count(page) -> int:
    return page.locator(".log-list li").count()


def test_an_expert_shows_its_progress_while_it_thinks(page, site, open_app):
    record, lead = opening_with_a_choice()
    resume(page, site, open_app, record, "expert")
    expert_thinks(page, lead)


def test_progress_shows_after_a_start_from_the_snapshot(page, site, open_app):
    """A page of the warm context (see conftest's ``warm_context``) starts its engine from
    the start-up snapshot that context's first visit made, as a repeat visit does."""
    record, lead = opening_with_a_choice()
    open_app(page, site)
    page.evaluate(f"() => {{ {store_save(record, 'expert')} }}")
    open_app(page, site, "?speed=0&test=1")  # another address: a real load
    assert page.evaluate("() => window.__parlourTest.engine()")["memoryImage"] is True
    page.click(resume_button("crisps"))
    page.wait_for_selector(IDLE)
    expert_thinks(page, lead)


def expert_thinks(page, lead: str) -> None:
    """Play ``lead``; North's progress shows while it thinks and goes with its move."""
    assert page.locator(BAR).count() == 0, "no bar on the person's turn"
    before = log_count(page)

    page.click(f"{SIDE_ACTIONS}[data-action='{lead}']")
    shown = page.wait_for_function(BAR_UNDER_WAY, polling=10, timeout=60_000).json_value()
    assert 0 < shown["value"] < 1 and shown["max"] == 1
    assert shown["label"] == "North is thinking"
    assert "North is thinking" in page.locator("[data-testid=turn]").inner_text()

    page.wait_for_selector(IDLE)
    assert page.locator(BAR).count() == 0, "the bar goes once the move is made"
    assert log_count(page) >= before + 2, "the person's lead and North's reply are in the log"
    saved = read_save(page)
    assert len(saved["data"]["record"]["actions"]) >= 2


def test_a_normal_opponent_shows_no_progress(page, site, open_app):
    record, lead = opening_with_a_choice()
    resume(page, site, open_app, record, "normal")
    page.evaluate("""() => {
      window.__sawBar = false;
      new MutationObserver(() => {
        if (document.querySelector("progress[data-testid=thinking]")) window.__sawBar = true;
      }).observe(document.body, {childList: true, subtree: true});
    }""")
    before = log_count(page)
    page.click(f"{SIDE_ACTIONS}[data-action='{lead}']")
    page.wait_for_function(
        f"() => document.querySelectorAll('.log-list li').length >= {before + 2}"
    )
    page.wait_for_selector(IDLE)
    assert page.evaluate("() => window.__sawBar") is False

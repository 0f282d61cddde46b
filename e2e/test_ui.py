"""The page around the games: menu, rules, set-up options, resume after reload, small screens.

The tests share one page (``SHARED_PAGE``): the engine starts once for the module.
"""

from __future__ import annotations

import json

from pagehelpers import IDLE, LEGACY_SAVE_KEY, MENU, SIDE_ACTIONS, resume_button, side_action_ids

import engine

SHARED_PAGE = True


def no_horizontal_overflow(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def start_crisps(page, options: tuple[str, ...] = ()):
    page.click("[data-testid=menu] [data-game=crisps]")
    for name in options:
        page.check(f"[data-option={name}]")
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)


def test_menu_lists_the_registered_games_in_order(page, site, open_app):
    open_app(page, site)
    shown = page.locator(MENU).evaluate_all("nodes => nodes.map(n => n.dataset.game)")
    assert shown == list(engine.GAMES)
    for game_id, spec in engine.GAMES.items():
        assert spec.title in page.locator(f"{MENU}[data-game='{game_id}']").inner_text()
    assert not page.locator("[data-testid=loading]").count()


def test_rules_page_from_menu_and_table(page, site, open_app):
    open_app(page, site)
    page.click("[data-testid=menu] [data-testid=rules][data-rules-game=crisps]")
    rules = page.locator("[data-testid=rules-page]")
    rules.wait_for(state="visible")
    page.locator("[data-testid=rules-page] .rules-text h2").first.wait_for()
    text = rules.inner_text()
    for heading in ("aim", "Combinations", "Queen", "drawing", "Winning", "Options"):
        assert heading in text, heading
    clarifications = rules.locator("[data-testid=clarifications] li").all_inner_texts()
    assert clarifications == list(engine.GAMES["crisps"].clarifications)
    page.click("[data-testid=rules-page] [data-testid=back]")
    page.locator(MENU).first.wait_for()

    start_crisps(page)
    page.click("[data-testid=table] [data-testid=rules]")
    rules.wait_for(state="visible")
    page.click("[data-testid=rules-page] [data-testid=back]")
    page.wait_for_selector(IDLE)


def test_setup_options_reach_the_engine_and_are_remembered(page, site, open_app):
    open_app(page, site)
    start_crisps(page)
    assert page.locator("[data-testid=face-up]").count() == 1, "by default a card is face up"
    page.click("[data-testid=new-game]")
    page.check("[data-option=no_faceup_draw]")
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    assert page.locator("[data-testid=face-up]").count() == 0, "'No face-up draw' turns none up"

    open_app(page, site)  # a reload: the last set-up is remembered
    page.click("[data-testid=menu] [data-game=crisps]")
    assert page.is_checked("[data-option=no_faceup_draw]")
    assert not page.is_checked("[data-option=auto_skip]")


def test_resume_after_reload_and_corrupt_save(page, site, open_app):
    open_app(page, site)
    start_crisps(page)
    first = side_action_ids(page)
    choice = next((a for a in first if a != "pass"), first[0])
    page.click(f"{SIDE_ACTIONS}[data-action='{choice}']")
    page.wait_for_selector(IDLE)
    moves = page.locator(".log-list li").count()
    assert moves >= 1
    hand = page.locator("[data-testid=hand] [data-card]").evaluate_all(
        "n => n.map(c => c.dataset.card)"
    )

    open_app(page, site)
    resume = page.locator(resume_button("crisps"))
    assert "Crisps" in resume.get_attribute("aria-label")
    resume.click()
    page.wait_for_selector(IDLE)
    assert page.locator(".log-list li").count() == moves
    assert (
        page.locator("[data-testid=hand] [data-card]").evaluate_all(
            "n => n.map(c => c.dataset.card)"
        )
        == hand
    )

    # An unreadable match where earlier versions kept theirs.
    page.evaluate(f"() => localStorage.setItem({json.dumps(LEGACY_SAVE_KEY)}, '{{not json')")
    open_app(page, site)
    assert page.locator(resume_button("crisps")).count() == 1, "the readable one is still there"
    assert "set aside" in page.locator("[data-testid=notice]").inner_text()
    start_crisps(page)  # and the page still works


def test_small_screen_has_no_horizontal_scrolling(page, site, open_app):
    page.set_viewport_size({"width": 375, "height": 667})
    open_app(page, site)
    assert no_horizontal_overflow(page), "menu"
    page.click("[data-testid=menu] [data-game=crisps]")
    assert no_horizontal_overflow(page), "set-up"
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    assert no_horizontal_overflow(page), "table"
    page.click("[data-testid=table] [data-testid=rules]")
    page.locator("[data-testid=rules-page] .rules-text h2").first.wait_for()
    assert no_horizontal_overflow(page), "rules"

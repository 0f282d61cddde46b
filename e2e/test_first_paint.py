"""The page first, the engine in the background: what a first visit can do before the Python
runtime has arrived, and how a match asked for meanwhile goes on by itself.

The worker's downloads (the runtime in pyodide/, the engine wheel in wheels/) are held back
with page.route until the test lets them through, or refused to make the loading fail.
"""

from __future__ import annotations

import json
import re

from pagehelpers import (
    HUMAN,
    IDLE,
    MENU,
    app_url,
    bot_seat,
    click_side_action,
    read_save,
    saved_match,
    settled_look,
    side_action_ids,
    store_script,
)

import engine
from engine import bridge

COLD_START = True
"""Every test here is a first visit (see conftest's ``page``)."""

RUNTIME = re.compile(r".*/(pyodide|wheels)/.*")
WAITING = "[data-testid=table-waiting]"
STATUS = "[data-testid=engine-status]"


class HeldDownloads:
    """Hold every runtime and wheel request of ``page`` until release(); or refuse them."""

    def __init__(self, page, refuse: bool = False) -> None:
        self.held: list = []
        self.holding = True
        self.refuse = refuse
        page.route(RUNTIME, self.handle)

    def handle(self, route) -> None:
        if self.refuse:
            route.abort("internetdisconnected")
        elif self.holding:
            self.held.append(route)
        else:
            route.continue_()

    def release(self) -> None:
        """Let the held requests and every later one through."""
        self.holding = False
        self.refuse = False
        held, self.held = self.held, []
        for route in held:
            route.continue_()


def engine_status(page) -> str:
    return page.evaluate("() => document.documentElement.dataset.engine")


def no_error_shows(page) -> None:
    assert page.locator("[data-testid=error]:visible, [data-testid=fatal]").count() == 0
    assert page.locator("[data-testid=engine-error]").count() == 0


def forget_refused_downloads(page) -> None:
    """The console errors a refused download causes on purpose (the worker reports it)."""
    problems = page.problems
    assert any("Parlour engine failed to load" in m for m in problems.console_errors)
    problems.console_errors[:] = [
        m
        for m in problems.console_errors
        if "Parlour engine failed to load" not in m
        and "ERR_INTERNET_DISCONNECTED" not in m
        and "Failed to load resource" not in m
    ]


def open_first_visit(page, site: str) -> None:
    """A first visit (memory images off: this visit would make one in a second engine)."""
    page.goto(app_url(site, "?speed=0"))
    page.locator(MENU).first.wait_for(state="visible")


def test_menu_setup_rules_settings_and_stats_work_while_the_engine_loads(page, site):
    downloads = HeldDownloads(page)
    open_first_visit(page, site)
    assert engine_status(page) == "loading"
    shown = page.locator(MENU).evaluate_all("nodes => nodes.map(n => n.dataset.game)")
    assert shown == list(engine.GAMES)
    status = page.locator(f"{STATUS} [role=status]")
    status.wait_for(state="visible")
    assert status.get_attribute("aria-live") == "polite"
    assert "Game engine" in status.inner_text()
    assert not page.locator("[data-testid=loading]").count()

    # A set-up screen, with the engine's options and levels from the catalog.
    page.click(f"{MENU}[data-game=roundup]")
    page.locator("[data-testid=setup]").wait_for(state="visible")
    spec = engine.GAMES["roundup"]
    for name in spec.options:
        assert page.locator(f"[data-option={name}]").count() == 1
    assert page.locator("[data-testid=players] option").count() == (
        spec.max_players - spec.min_players + 1
    )
    assert page.locator("#seat-1 option[value='bot:normal']").count() == 1
    page.click("[data-testid=back]")

    # A rules page with the engine's house clarifications.
    page.click("[data-testid=menu] [data-testid=rules][data-rules-game=crisps]")
    page.locator("[data-testid=rules-page]").wait_for(state="visible")
    clarifications = page.locator("[data-testid=clarifications]").inner_text()
    assert engine.GAMES["crisps"].clarifications[0][:40] in clarifications
    page.click("[data-testid=back]")

    page.click("[data-testid=settings]")
    page.locator("[data-testid=settings-page]").wait_for(state="visible")
    page.click("[data-testid=back]")
    page.click("[data-testid=stats]")
    page.locator("[data-testid=stats-page]").wait_for(state="visible")
    page.click("[data-testid=back]")
    page.locator(MENU).first.wait_for(state="visible")

    no_error_shows(page)
    assert engine_status(page) == "loading", "the runtime's downloads were held all along"
    assert downloads.held, "the worker should have asked for the runtime at once"

    downloads.release()
    page.locator("html[data-engine=ready]").wait_for(state="attached")
    page.locator(f"{STATUS} [role=status]").filter(has_text="ready").wait_for(state="visible")
    page.locator(STATUS).wait_for(state="hidden")
    no_error_shows(page)


def test_a_match_started_before_the_engine_is_ready_starts_by_itself(page, site):
    downloads = HeldDownloads(page)
    open_first_visit(page, site)
    page.click(f"{MENU}[data-game=roundup]")
    page.select_option("[data-testid=players]", "3")
    choices = [c for c in engine.GAMES["roundup"].options["target_score"].choices]
    page.select_option("[data-option=target_score]", str(choices.index(15)))
    page.click("[data-testid=start]")

    waiting = page.locator(WAITING)
    waiting.wait_for(state="visible")
    assert waiting.locator("h1").inner_text() == "Roundup"
    assert waiting.locator("[role=progressbar]").count() == 1
    assert "as soon as the game engine is ready" in waiting.inner_text()
    assert page.locator(STATUS).is_hidden(), "the table's frame shows the progress itself"
    no_error_shows(page)

    downloads.release()
    page.locator("[data-testid=table][data-table-game=roundup]").wait_for(state="visible")
    page.wait_for_selector(IDLE)
    assert page.locator("[data-testid=table] .scores .score").count() == 3
    record = read_save(page)["data"]["record"]
    assert record["game"] == "roundup" and record["players"] == 3
    assert record["options"]["target_score"] == 15
    no_error_shows(page)


def test_a_failed_load_says_so_and_retry_starts_a_new_engine(page, site):
    downloads = HeldDownloads(page, refuse=True)
    open_first_visit(page, site)
    page.locator("html[data-engine=failed]").wait_for(state="attached")
    status = page.locator(STATUS)
    status.wait_for(state="visible")
    assert "could not load" in status.inner_text() or "offline" in status.inner_text()
    assert page.locator("[data-testid=status-retry]").is_visible()
    # The menu still works, and a match asked for now waits on the table with the failure.
    page.click(f"{MENU}[data-game=crisps]")
    page.click("[data-testid=start]")
    page.locator(f"{WAITING} [data-testid=engine-error]").wait_for(state="visible")
    assert "needs a network connection once" in page.locator(WAITING).inner_text()
    forget_refused_downloads(page)

    downloads.release()
    page.click(f"{WAITING} [data-testid=retry-engine]")
    page.locator("[data-testid=table][data-table-game=crisps]").wait_for(state="visible")
    page.wait_for_selector(IDLE)
    assert engine_status(page) == "ready"
    assert read_save(page)["game"] == "crisps"


def test_the_status_lines_retry_loads_the_engine_from_the_menu(page, site):
    downloads = HeldDownloads(page, refuse=True)
    open_first_visit(page, site)
    page.locator("[data-testid=status-retry]").wait_for(state="visible")
    forget_refused_downloads(page)
    downloads.release()
    page.click("[data-testid=status-retry]")
    page.locator("html[data-engine=ready]").wait_for(state="attached")
    assert page.locator(MENU).first.is_visible()
    no_error_shows(page)


def test_resuming_a_saved_match_before_the_engine_is_ready(page, site):
    state = engine.new_game("crisps", 2, seed=11)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    record = state.to_record()
    page.add_init_script(store_script(saved_match(record, [HUMAN, bot_seat()])))
    downloads = HeldDownloads(page)
    open_first_visit(page, site)
    page.click("[data-testid=resume]")
    page.locator(WAITING).wait_for(state="visible")
    assert page.locator(WAITING).locator("h1").inner_text() == engine.GAMES["crisps"].title

    downloads.release()
    page.locator("[data-testid=table][data-table-game=crisps]").wait_for(state="visible")
    page.wait_for_selector(IDLE)
    resumed = read_save(page)["data"]["record"]
    assert resumed["seed"] == record["seed"]
    assert resumed["actions"][: len(record["actions"])] == record["actions"]


def test_leaving_a_waiting_table_cancels_the_start_and_keeps_the_choices(page, site):
    downloads = HeldDownloads(page)
    open_first_visit(page, site)
    page.click(f"{MENU}[data-game=roundup]")
    page.select_option("[data-testid=players]", "5")
    page.click("[data-testid=start]")
    page.locator(WAITING).wait_for(state="visible")
    page.click(f"{WAITING} [data-testid=menu-button]")
    page.locator(MENU).first.wait_for(state="visible")
    downloads.release()
    page.locator("html[data-engine=ready]").wait_for(state="attached")
    assert page.locator(MENU).first.is_visible(), "no match starts once the person left"
    assert read_save(page) is None
    page.click(f"{MENU}[data-game=roundup]")
    assert page.locator("[data-testid=players]").input_value() == "5"


def test_the_first_decision_is_made_on_a_prepared_opening_before_the_engine_is_ready(
    page, site, dist
):
    # Progression's default table: some of its openings have the computers move first.
    downloads = HeldDownloads(page)
    page.goto(app_url(site, "?speed=0&test=1"))
    page.locator(MENU).first.wait_for(state="visible")
    page.click(f"{MENU}[data-game=progression]")
    page.click("[data-testid=start]")
    page.locator("[data-testid=table][data-source=opening]").wait_for(state="visible")
    look = settled_look(page)
    assert look is not None and engine_status(page) == "loading" and downloads.held

    # What the table shows is one of the build's openings: its first decision, its record.
    prepared = json.loads((dist / "openings.json").read_text())["progression"]
    saved = read_save(page)["data"]
    opening = next(o for o in prepared["openings"] if o["record"] == saved)
    offered = [action["id"] for action in opening["snapshot"]["legal"]]
    assert side_action_ids(page) == offered
    assert page.locator("[data-testid=table] .scores .score").count() == 3
    no_error_shows(page)

    # The decision is taken while the runtime is held, and kept for a reload.
    choice = offered[-1]
    click_side_action(page, choice, look["folded"])
    page.locator("[data-testid=table][data-busy=true]").wait_for(state="attached")
    before = opening["record"]["record"]["actions"]
    assert read_save(page)["data"]["record"]["actions"] == [*before, choice]
    assert engine_status(page) == "loading"

    # The engine arrives, replays the opening, takes the decision and plays on (the
    # computers' replies, if it is theirs to move).
    downloads.release()
    page.locator("[data-testid=table][data-source=engine]").wait_for(state="attached")
    look = settled_look(page)
    record = read_save(page)["data"]
    assert record["record"]["actions"][: len(before) + 1] == [*before, choice]
    # The page's engine holds the very match of the save, and the table shows its moves.
    shown = page.evaluate("() => window.__parlourTest.call('snapshot', {})")
    bridge.reset()
    expected = json.loads(bridge.load(json.dumps(record)))
    bridge.reset()
    for key in ("view", "legal", "current_player", "moves"):
        assert shown[key] == expected[key], key
    if look is not None:
        assert side_action_ids(page) == [a["id"] for a in expected["legal"]]
    no_error_shows(page)

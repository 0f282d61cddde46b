"""General Mhing in the browser: the end of a match against a bot, and the table's own controls.

Runs against the built site with ``?speed=0``. The table is ``data-busy="false"`` when the
person can act (or a round/match is over). Positions that need particular cards are set up
from a saved record, opened from the menu as a match file.

The tests share one page (``SHARED_PAGE``): the engine starts once for the module.
"""

from __future__ import annotations

import random
import re

from pagehelpers import (
    HAND_CARDS,
    IDLE,
    click_card,
    hand_ids,
    import_match,
    open_record,
    play_out,
    record_at,
    side_action_ids,
)
from screenwalk import clear_window, set_window

SHARED_PAGE = True

CONFIRM = "[data-testid=controls] .confirm-play[data-action]"
SEATS = [{"type": "human"}, {"type": "bot", "level": "normal"}]


def start_mhing(page, site, open_app, level: str = "normal"):
    open_app(page, site)
    page.click("[data-testid=menu] [data-game=mhing]")
    page.select_option("[data-testid=seat-1]", f"bot:{level}")
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    return page


def resume_record(page, site, open_app, seed: int, actions: list[str]):
    """Open the match ``seed`` (seat 0 = you) after ``actions``, from a match file."""
    record = {
        "game": "mhing",
        "players": 2,
        "seed": seed,
        "options": {"target": 14},
        "actions": actions,
    }
    open_record(page, site, open_app, record, SEATS)


def choose(ids: list[str], rng: random.Random) -> str:
    """Lay whenever possible (swap Aces back first), else draw, else a random discard."""
    for prefix in ("swap:", "take:", "lay:"):
        found = [a for a in ids if a.startswith(prefix)]
        if found:
            return found[0]
    if "draw:stock" in ids:
        return "draw:stock"
    return rng.choice([a for a in ids if a.startswith("discard:")])


def test_the_last_rounds_of_a_match_against_a_bot_then_play_again(page, site, open_app):
    """A match set up from the menu; then a saved match some rounds in, opened from a file and
    played to its end against a Normal bot (a whole match in the page takes half a minute; the
    rounds are alike)."""
    start_mhing(page, site, open_app)
    assert page.locator(".scores .score-value").all_inner_texts() == ["0", "0"]
    page.click("[data-testid=menu-button]")
    # Both seats have scored; the leader needs two more points, which takes two rounds here.
    record = record_at(
        "mhing", 2, {"target": 14}, lambda res: max(res["scores"]) == 12 and min(res["scores"]) > 5
    )
    import_match(page, record, SEATS)
    shown = [int(s) for s in page.locator(".scores .score-value").all_inner_texts()]
    assert max(shown) == 12 and min(shown) > 5, shown
    rng = random.Random(5)
    summaries = []
    play_out(
        page,
        lambda ids: choose(ids, rng),
        on_round=lambda dialog: summaries.append(dialog.inner_text()),
        max_moves=3000,
    )

    over = page.locator("[data-testid=match-over]")
    assert re.search(r"win", over.inner_text(), re.IGNORECASE), over.inner_text()
    scores = [int(s) for s in over.locator(".final-scores li strong").all_inner_texts()]
    assert max(scores) >= 14, scores
    # Every round but the last shows its summary: who scored and every match found.
    assert summaries, "the saved match has more than one round to go"
    for text in summaries:
        assert re.search(r"wins? round|is shared", text), text
        assert re.search(r"\d+ points?", text), text
    assert any("Matches:" in text or "no sequences" in text for text in summaries), summaries
    # The last round stays on the table, behind the match-over screen.
    assert page.locator("[data-testid=last-round]").count() == 1

    page.click("[data-testid=play-again]")
    page.wait_for_selector(IDLE)
    assert not page.locator("[data-testid=match-over]").is_visible()
    assert page.locator(".scores .score-value").all_inner_texts() == ["0", "0"]


def test_draw_from_the_pile_select_a_sequence_and_swap_the_ace_back(page, site, open_app):
    # Seed 79: you start, and after one draw you hold A♣ 8♣ 9♣ 10♣.
    resume_record(page, site, open_app, 79, [])
    assert page.locator("[data-testid=draw-pile] [data-action='draw:stock']").count() == 1
    page.click("[data-testid=draw-pile] [data-action='draw:stock']")
    page.wait_for_selector(IDLE)
    hand = hand_ids(page)
    assert {"AC", "8C", "9C", "10C"} <= set(hand), hand
    assert len(hand) == 8

    # The cards that can make a sequence light up; pick A♣ 8♣ 10♣ (the Ace as the 9) on a
    # 390x844 phone, a finger's tap on the corner each card's neighbour leaves showing.
    lit = page.locator(f"{HAND_CARDS}.is-playable").evaluate_all("n => n.map(c => c.dataset.card)")
    assert {"AC", "8C", "9C", "10C"} <= set(lit), lit
    set_window(page, "390x844")
    try:
        for card in ("8C", "AC", "10C"):
            box = page.locator(f"{HAND_CARDS}[data-card='{card}']").bounding_box()
            x, y = box["x"] + box["width"] * 0.12, box["y"] + box["height"] * 0.2
            for kind, points in (("touchStart", [{"x": x, "y": y}]), ("touchEnd", [])):
                page.walk_cdp.send(
                    "Input.dispatchTouchEvent", {"type": kind, "touchPoints": points}
                )
            page.wait_for_selector(IDLE)
        for card in ("8C", "AC", "10C"):
            pressed = page.get_attribute(f"{HAND_CARDS}[data-card='{card}']", "aria-pressed")
            assert pressed == "true", card
    finally:
        clear_window(page)
    confirm = page.locator(CONFIRM)
    assert confirm.count() == 1
    assert confirm.get_attribute("data-action") == "lay:8C,AC,10C"
    assert confirm.get_attribute("data-action") in side_action_ids(page)
    confirm.click()
    page.wait_for_selector(IDLE)

    mine = page.locator("[data-testid=sequences-0]")
    assert mine.locator("[data-card]").evaluate_all("n => n.map(c => c.dataset.card)") == [
        "8C",
        "AC",
        "10C",
    ]
    assert mine.locator(".ace-badge").inner_text() == "=9", (
        "the wild Ace shows the rank it stands for"
    )
    assert "AC" not in hand_ids(page) and len(hand_ids(page)) == 7  # laid three, drew two

    # Back to your turn: the 9♣ in your hand can replace the Ace; the prompt sits by the sequence.
    swap = mine.locator("[data-action='swap:9C']")
    assert swap.count() == 1, page.locator("[data-testid=table]").inner_text()
    swap.click()
    page.wait_for_selector(IDLE)
    assert mine.locator("[data-card]").evaluate_all("n => n.map(c => c.dataset.card)") == [
        "8C",
        "9C",
        "10C",
    ]
    assert "AC" in hand_ids(page) and "9C" not in hand_ids(page)
    assert mine.locator(".ace-badge").count() == 0

    # Discard by selecting one card on the table.
    page.click("[data-testid=controls] [data-action='draw:stock']")
    page.wait_for_selector(IDLE)
    card = next(c for c in hand_ids(page) if c != "AC")
    click_card(page.locator(f"{HAND_CARDS}[data-card='{card}']"))
    discard = page.locator(f"{CONFIRM}[data-action='discard:{card}']")
    assert discard.count() == 1
    discard.click()
    page.wait_for_selector(IDLE)
    assert card not in hand_ids(page)


def test_ambiguous_ace_asks_what_it_stands_for_and_a_wrong_selection_says_why(page, site, open_app):
    # Seed 6 after one draw: A♠ 7♠ 8♠ can be 6-7-8 or 7-8-9.
    resume_record(page, site, open_app, 6, ["draw:stock"])
    # First a selection that is no sequence (6♥ J♦ K♦): no confirm button, but a reason.
    for card in ("6H", "JD", "KD"):
        click_card(page.locator(f"{HAND_CARDS}[data-card='{card}']"))
    assert page.locator(CONFIRM).count() == 0
    page.click("[data-testid=why-lay]")
    error = page.locator("[data-testid=table] [data-testid=error]")
    error.wait_for(state="visible")
    assert re.search(r"suit|sequence", error.inner_text()), error.inner_text()
    assert len(hand_ids(page)) == 8
    page.click("[data-testid=clear-selection]")

    chips = page.locator("[data-testid=sequence-chip]")
    assert chips.count() == 2
    chips.first.click()  # a chip selects the sequence's cards
    assert sorted(
        c
        for c in hand_ids(page)
        if page.get_attribute(f"{HAND_CARDS}[data-card='{c}']", "aria-pressed") == "true"
    ) == ["7S", "8S", "AS"]
    choices = page.locator(f"{CONFIRM}.ace-choice")
    assert choices.count() == 2
    texts = choices.all_inner_texts()
    assert any("Ace as the 6" in t for t in texts) and any("Ace as the 9" in t for t in texts), (
        texts
    )
    page.click(f"{CONFIRM}[data-action='lay:7S,8S,AS']")
    page.wait_for_selector(IDLE)
    mine = page.locator("[data-testid=sequences-0]")
    assert mine.locator(".ace-badge").inner_text() == "=9"


def test_rules_page_and_small_screen(page, site, open_app):
    page.set_viewport_size({"width": 375, "height": 667})
    resume_record(page, site, open_app, 6, ["draw:stock", "lay:7S,8S,AS"])
    page.wait_for_selector(IDLE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the table scrolls sideways at 375px ({width}px)"
    page.click("[data-testid=rules]")
    rules = page.locator("[data-testid=rules-page]")
    rules.wait_for()
    page.wait_for_selector("[data-testid=rules-page] .rules-text h2")
    text = rules.inner_text()
    for heading in (
        "The aim",
        "Your turn",
        "Aces are wild",
        "Scoring",
        "Winning the match",
        "Options",
    ):
        assert heading in text
    assert "House clarifications" in text
    assert page.evaluate("document.documentElement.scrollWidth") <= 375

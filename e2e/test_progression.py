"""Progression in the browser: the last rounds of a three-player match against bots, the
two-step turn played with the table's own controls, the "why not" reason, the rules page and
a phone-sized screen.

Runs against the built site with ``?speed=0`` (no animation or bot delay). The table is
``data-busy="false"`` once no request is in flight and no bot is moving, which is when the
person can act (or a round/match is over).

The tests share one page (``SHARED_PAGE``): the engine starts once for the module.
"""

from __future__ import annotations

import random
import re

from pagehelpers import (
    HAND_CARDS,
    HUMAN,
    IDLE,
    SIDE_ACTIONS,
    bot_seat,
    click_card,
    hand_ids,
    import_match,
    play_out,
    record_near_the_end,
    side_action_ids,
)

import engine

SHARED_PAGE = True
PLAYED_ROUNDS = 4
"""Rounds of the six over in the first saved match of the match test (the fifth is near its
end); the second is near the end of the sixth."""

ROUND_OVER = "[data-testid=round-over]"
MATCH_OVER = "[data-testid=match-over]"


def start_progression(page, site, open_app, order: str | None = None):
    open_app(page, site)
    page.click("[data-testid=menu] [data-game=progression]")
    for seat in (1, 2):
        page.select_option(f"[data-testid=seat-{seat}]", "bot:random")
    if order is not None:
        page.select_option("[data-testid=order]", order)
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    return page


def wait_for_my_turn(page) -> None:
    """Wait until the person can act; fail on a round/match end (the caller expects a turn)."""
    page.wait_for_selector(IDLE)
    assert not page.locator(f"{ROUND_OVER}, {MATCH_OVER}").count(), "the round ended early"
    assert side_action_ids(page), "it should be the person's turn"


def choose(ids: list[str], rng: random.Random) -> str:
    """A plausible person: build own stacks when allowed, mostly draw blind."""
    plays = [a for a in ids if a.startswith("play:")]
    if plays and rng.random() < 0.8:
        return rng.choice(plays)
    if "draw:stock" in ids:
        takes = [a for a in ids if a.startswith("draw:") and a != "draw:stock"]
        return rng.choice(takes) if takes and rng.random() < 0.05 else "draw:stock"
    return rng.choice(ids)


def play_match(page, rng: random.Random, played: int = 0, rounds_wanted: int | None = None) -> int:
    """Play the person's turns from the side panel until the match is over (or until
    ``rounds_wanted`` rounds are over); the number of round-over screens, each checked for
    its stacks and its table of rounds (``played`` rounds were over before the first)."""
    rounds = []

    def check(dialog) -> None:
        rounds.append(dialog)
        assert dialog.locator("[data-testid=round-stacks] tbody tr").count() == 3
        assert dialog.locator("[data-testid=rounds-table] tbody tr").count() == played + len(rounds)

    play_out(page, lambda ids: choose(ids, rng), on_round=check, rounds_wanted=rounds_wanted)
    return len(rounds)


def test_the_last_rounds_of_a_three_player_match_against_bots(page, site, open_app):
    """A match set up from the menu; then, against two Normal bots, a saved match near the end
    of the fifth of its six rounds, opened from a file and played to that round's summary,
    and one near the end of its last round, played to the match's end (a whole match in the
    page takes a minute; the rounds are alike)."""
    start_progression(page, site, open_app)
    assert page.locator("[data-testid=stacks]").count() == 2, "two opponents' stacks"
    assert page.locator("[data-testid=public-stacks] .pstack").count() == 4
    assert page.locator("[data-testid=round]").inner_text() == "Round 1 of 6"
    bots = [bot_seat("normal", "West"), bot_seat("normal", "East")]
    rng = random.Random(5)
    for rounds_left in (1, 0):
        page.click("[data-testid=menu-button]")
        record = record_near_the_end("progression", 3, {}, steps_left=20, rounds_left=rounds_left)
        played = PLAYED_ROUNDS + 1 - rounds_left
        assert len(engine.from_record(record).result()["rounds"]) == played
        import_match(page, record, [HUMAN, *bots])
        assert page.locator("[data-testid=round]").inner_text() == f"Round {played + 1} of 6"
        rounds = play_match(page, rng, played=played, rounds_wanted=rounds_left or None)
        assert rounds == rounds_left, "every round but the last shows the round-over summary"
    over = page.locator(MATCH_OVER)
    assert re.search(r"win", over.inner_text(), re.IGNORECASE), over.inner_text()
    finals = [
        int(s.replace("\u2212", "-"))
        for s in over.locator(".final-scores li strong").all_inner_texts()
    ]
    assert len(finals) == 3
    # The match table over the rounds: six rows that add up to the final scores.
    table = over.locator("[data-testid=rounds-table]")
    rows = table.locator("tbody tr")
    assert rows.count() == 6
    sums = [0, 0, 0]
    for i in range(6):
        cells = rows.nth(i).locator("td").all_inner_texts()
        for p, text in enumerate(cells):
            sums[p] += int(text.replace("\u2212", "-").replace("+", ""))
    assert sums == finals, (sums, finals)
    assert over.locator("[data-testid=round-stacks] tbody tr").count() == 3

    page.click("[data-testid=play-again]")
    page.wait_for_selector(IDLE)
    assert not page.locator(MATCH_OVER).is_visible()
    assert page.locator(".scores .score-value").all_inner_texts() == ["0", "0", "0"]
    assert page.locator("[data-testid=round]").inner_text() == "Round 1 of 6"


def test_two_step_turn_with_the_tables_own_controls(page, site, open_app):
    start_progression(page, site, open_app, order="0")  # you play first
    wait_for_my_turn(page)
    hand = hand_ids(page)
    assert len(hand) == 5
    steps = page.locator(".prog-step.is-now")
    assert "Play a card" in steps.inner_text()

    # Select a card on the table: its own stack and its public stack light up as targets.
    card = hand[0]
    click_card(page.locator(f"{HAND_CARDS}[data-card='{card}']"))
    assert page.get_attribute(f"{HAND_CARDS}[data-card='{card}']", "aria-pressed") == "true"
    public_target = page.locator("[data-testid=public-target]")
    assert public_target.get_attribute("data-action") == f"public:{card}"
    assert page.locator(f"[data-testid=private-target][data-action='play:{card}']").count() == 1
    # Clicking the same card again drops the selection.
    click_card(page.locator(f"{HAND_CARDS}[data-card='{card}']"))
    assert page.locator("[data-testid=public-target]").count() == 0
    click_card(page.locator(f"{HAND_CARDS}[data-card='{card}']"))

    page.click("[data-testid=public-target]")
    page.wait_for_selector(IDLE)
    assert page.locator(f"[data-testid=public-stacks] [data-card='{card}']").count() == 1
    assert card not in hand_ids(page)
    assert "Draw a card" in page.locator(".prog-step.is-now").inner_text()
    # The card just put there cannot be taken back; the draw pile can be drawn from.
    assert f"draw:{card}" not in side_action_ids(page)
    assert page.locator(f"[data-action='draw:{card}']").count() == 0
    left = int(page.locator("[data-testid=draw-pile] .prog-pile-count").inner_text().split()[0])
    page.click("[data-testid=draw-pile][data-action='draw:stock']")
    page.wait_for_selector(IDLE)
    assert "You" in page.locator(".log-list").inner_text()

    # Next turn: play a card to your own stack by clicking the stack itself.
    wait_for_my_turn(page)
    assert len(hand_ids(page)) == 5
    after = int(page.locator("[data-testid=draw-pile] .prog-pile-count").inner_text().split()[0])
    assert after < left, "the person and both bots drew from the pile"
    playable = [c for c in hand_ids(page) if f"play:{c}" in side_action_ids(page)]
    assert playable, "every card fits an empty or low stack early in the round"
    mine = playable[0]
    click_card(page.locator(f"{HAND_CARDS}[data-card='{mine}']"))
    page.click(f"[data-testid=private-target][data-action='play:{mine}']")
    page.wait_for_selector(IDLE)
    assert page.locator(f"[data-testid=my-stacks] [data-card='{mine}']").count() == 1
    assert page.locator("[data-testid=my-stacks] [data-testid=stack-score]").count() >= 1


def test_a_card_too_low_for_your_stack_explains_why(page, site, open_app):
    start_progression(page, site, open_app, order="0")
    for _ in range(20):
        wait_for_my_turn(page)
        low = page.locator(f"{HAND_CARDS}.is-public-only")
        if low.count():
            card = low.first.get_attribute("data-card")
            low.first.click()
            assert page.locator("[data-testid=private-target]").count() == 0
            page.click("[data-testid=why-private]")
            error = page.locator("[data-testid=table] [data-testid=error]")
            error.wait_for(state="visible")
            assert re.search(r"lower|face card", error.inner_text()), error.inner_text()
            assert card in hand_ids(page), "a refused move changes nothing"
            return
        # Build up: the highest number card onto its own stack, then draw blind.
        ids = side_action_ids(page)
        plays = [a for a in ids if a.startswith("play:")]
        page.click(f"{SIDE_ACTIONS}[data-action='{max(plays, key=value_of)}']")
        page.wait_for_selector(IDLE)
        page.click(f"{SIDE_ACTIONS}[data-action='draw:stock']")
    raise AssertionError("no card ever became too low for its stack")


def value_of(action_id: str) -> int:
    rank = action_id.split(":")[1][:-1]
    return int(rank) if rank.isdigit() else 0


def test_rules_page_and_a_phone_sized_table(page, site, open_app):
    page.set_viewport_size({"width": 375, "height": 667})
    start_progression(page, site, open_app, order="0")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    wait_for_my_turn(page)
    page.click(f"{HAND_CARDS} >> nth=0")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375

    page.click("[data-testid=rules]")
    rules = page.locator("[data-testid=rules-page]")
    rules.wait_for(state="visible")
    page.wait_for_selector("[data-testid=rules-page] .rules-text h2")
    headings = rules.locator("h2").all_inner_texts()
    for wanted in ("aim", "turn", "Special", "End of a round", "Scoring", "Winning", "Options"):
        assert any(wanted.lower() in h.lower() for h in headings), (wanted, headings)
    assert rules.locator("[data-testid=clarifications] li").count() >= 5
    assert "15" in rules.inner_text(), "the worked example"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.click("[data-testid=rules-page] [data-testid=back]")
    page.wait_for_selector(IDLE)
    assert page.locator("[data-testid=public-stacks]").is_visible()

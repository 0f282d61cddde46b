"""Crisps in the browser: the last rounds of a match against a bot, selecting cards, the "why
not" reason.

Runs against the built site with ``?speed=0`` (no animation or bot delay). The page marks the
table ``data-busy="false"`` once no request is in flight and no bot is moving, which is when
the person can act (or a round/match is over).

The tests share one page (``SHARED_PAGE``): the engine starts once for the module.
"""

from __future__ import annotations

import random
import re

from pagehelpers import (
    HAND_CARDS,
    HUMAN,
    IDLE,
    bot_seat,
    click_card,
    hand_ids,
    import_match,
    play_out,
    read_save,
    record_at,
    side_action_ids,
)

SHARED_PAGE = True


def start_crisps(page, site, open_app, order: str | None = None, options: tuple[str, ...] = ()):
    open_app(page, site)
    page.click("[data-testid=menu] [data-game=crisps]")
    for name in options:
        page.check(f"[data-option={name}]")
    if order is not None:
        page.select_option("[data-testid=order]", order)
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    return page


def rank(card: str) -> str:
    return card[:-1]


def play_match(page, rng: random.Random) -> int:
    """Play the person's turns from the side panel until the match is over; the number of
    round-over dialogs seen."""
    rounds = []

    def choose(ids: list[str]) -> str:
        plays = [a for a in ids if a != "pass"]
        return "pass" if "pass" in ids and (not plays or rng.random() < 0.25) else plays[0]

    play_out(page, choose, on_round=rounds.append, max_moves=1500)
    return len(rounds)


def test_the_last_rounds_of_a_match_against_a_bot_then_play_again(page, site, open_app):
    """A match set up from the menu; then a saved match with a round won by each seat, opened
    from a file and played to its end against a Normal bot (two rounds at least, where a whole
    match takes three to five: the rounds are alike, and the keyboard-only match of
    e2e/test_features_table.py plays one whole from the set-up screen)."""
    start_crisps(page, site, open_app)
    assert page.locator(".scores .score-value").all_inner_texts() == ["0", "0"]
    page.click("[data-testid=menu-button]")
    record = record_at("crisps", 2, {}, lambda res: res["scores"] == [1, 1])
    import_match(page, record, [HUMAN, bot_seat("normal")])
    assert page.locator(".scores .score-value").all_inner_texts() == ["1", "1"]
    rounds = play_match(page, random.Random(7))
    over = page.locator("[data-testid=match-over]")
    text = over.inner_text()
    assert re.search(r"win", text, re.IGNORECASE), text
    scores = over.locator(".final-scores li strong").all_inner_texts()
    assert "3" in scores and all(int(s) <= 3 for s in scores), scores
    # Every round but the last shows round-over (the two won before the file was opened
    # showed theirs elsewhere).
    assert rounds == sum(int(s) for s in scores) - 1 - 2, (
        "every round but the last shows round-over"
    )
    assert read_save(page, "crisps") is None, "a finished match is not kept to resume"

    page.click("[data-testid=play-again]")
    page.wait_for_selector(IDLE)
    assert not page.locator("[data-testid=match-over]").is_visible()
    scores = page.locator(".scores .score-value").all_inner_texts()
    assert scores == ["0", "0"], scores


def test_select_cards_and_confirm_the_lit_play(page, site, open_app):
    start_crisps(page, site, open_app, order="0")  # you lead the first trick
    hand = hand_ids(page)
    assert len(hand) == 12
    by_rank: dict[str, list[str]] = {}
    for card in hand:
        by_rank.setdefault(rank(card), []).append(card)
    pair = next((cards[:2] for cards in by_rank.values() if len(cards) >= 2), None)
    chosen = pair or hand[:1]
    for card in chosen:
        click_card(page.locator(f"{HAND_CARDS}[data-card='{card}']"))
    for card in chosen:
        assert page.get_attribute(f"{HAND_CARDS}[data-card='{card}']", "aria-pressed") == "true"
    confirm = page.locator("[data-testid=controls] .confirm-play[data-action]")
    assert confirm.count() == 1
    action = confirm.get_attribute("data-action")
    assert action.startswith("play:") and sorted(action[5:].split(",")) == sorted(chosen)
    assert action in side_action_ids(page), "the confirm button must carry a legal action's id"
    confirm.click()
    page.wait_for_selector(IDLE)
    log = page.locator(".log-list").inner_text()
    assert "You" in log
    if not page.locator("[data-testid=round-over], [data-testid=match-over]").count():
        remaining = hand_ids(page)
        assert not set(chosen) & set(remaining), "the played cards left the hand"


def test_illegal_selection_explains_why(page, site, open_app):
    start_crisps(page, site, open_app, order="0")
    hand = hand_ids(page)
    values = {r: (11 if r in ("Q", "J") else int(r)) for r in {rank(c) for c in hand}}
    # Two cards of different ranks never make a combination.
    first = hand[0]
    second = next(c for c in hand if values[rank(c)] != values[rank(first)])
    click_card(page.locator(f"{HAND_CARDS}[data-card='{first}']"))
    click_card(page.locator(f"{HAND_CARDS}[data-card='{second}']"))
    assert page.locator("[data-testid=controls] .confirm-play[data-action]").count() == 0
    page.click("[data-testid=why-play]")
    error = page.locator("[data-testid=table] [data-testid=error]")
    error.wait_for(state="visible")
    message = error.inner_text()
    assert re.search(r"run|combination|gap", message), message
    assert len(hand_ids(page)) == 12, "an illegal selection changes nothing"

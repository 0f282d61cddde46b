"""Refusals in the browser: in every game, a click on a card or a target that cannot be used
now shows the engine's reason at once, and that reason names the rule that applies.

Each position is a seeded match played by the engine (random moves) up to a turn of the
person's that has unusable cards, opened the way a person picks up a saved match, from a
match file. For each click the test knows which move the page must ask about; the reason
shown must be the engine's for that move and contain the words of the rule the position's
table expects. One page for the module (``SHARED_PAGE``): the engine starts once.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

from pagehelpers import IDLE, SIDE_ACTIONS, TEST_BUDGET, bot_seat, click_card, open_record

import engine
from engine import bridge
from engine.core import IllegalAction

SHARED_PAGE = True

ERROR = "[data-testid=table] [data-testid=error]"
HUMAN = {"type": "human", "name": "You"}
FACE_KINDS = {"J": "jack", "Q": "queen", "K": "king"}


def find_position(game: str, want: Callable[[engine.State], bool]) -> engine.State:
    """The first turn of seat 0, in seeded random matches, where ``want`` holds."""
    players = engine.GAMES[game].default_players
    for seed in range(1, 300):
        state = engine.new_game(game, players, seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_over:
                break
            if state.current_player == 0 and want(state):
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no {game} position found")


def open_position(page, site, open_app, state: engine.State) -> None:
    seats = [HUMAN] + [bot_seat("random", f"Bot {i}") for i in range(1, state.players)]
    open_record(page, site, open_app, state.to_record(), seats)


def reason_for(state: engine.State, action_id: str) -> str:
    """The engine's refusal of ``action_id`` in ``state``."""
    try:
        state.find_action(action_id)
    except IllegalAction as exc:
        return exc.message
    raise AssertionError(f"{action_id} is legal: the page must not refuse it")


def shows(page, reason: str, rule: str) -> None:
    """The error line shows ``reason`` (as a sentence) and it names ``rule`` (a pattern)."""
    expected = reason[0].upper() + reason[1:]
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel)?.textContent.includes(text)",
        arg=[ERROR, expected],
        timeout=5000,
    )
    text = page.locator(ERROR).inner_text()
    assert re.search(rule, text, re.IGNORECASE), f"{text!r} does not name the rule {rule!r}"


# ----- one position per game, with its table of rules ----------------------------------------


def test_crisps_every_card_that_cannot_follow(page, site, open_app):
    def want(state):
        to_beat = state.to_beat
        return state.phase == "play" and to_beat is not None and len(to_beat) == 2

    state = find_position("crisps", want)
    open_position(page, site, open_app, state)
    from engine.games.crisps.rules import classify, describe

    words = describe(classify(state.to_beat))  # e.g. "pair of 7s"
    usable = {c for a in state.legal_actions() for c in a.cards}
    ranks = {c[:-1] for c in usable}
    dim = [c for c in state.hands[0] if c[:-1] not in ranks]
    assert dim, "the position has cards that cannot follow"
    for card in dim:
        button = page.locator(f"[data-testid=hand] [data-card='{card}']")
        click_card(button)
        # Judged against the play to beat: what it needs, not the card's own shape.
        shows(page, reason_for(state, f"play:{card}"), rf"a {re.escape(words)} needs a")
        click_card(button)  # unselected again: the next card is judged alone
        page.wait_for_selector(f"{ERROR}[hidden]", state="attached")


def test_roundup_every_card_that_cannot_be_used(page, site, open_app):
    def want(state):
        cards = state.face_up[0] + state.face_down[0]
        usable = {c for a in state.legal_actions() for c in a.cards}
        return state.phase == "play" and not state.played_this_turn and set(cards) - usable

    state = find_position("roundup", want)
    open_position(page, site, open_app, state)
    usable = {c for a in state.legal_actions() for c in a.cards}
    rules = (
        r"stack needs|stack is already closed|must play a face-up card|face cards never go"
        r"|passing costs|the pass penalty|not a (jack|queen|king)"
    )
    clicked = 0
    for card in state.face_up[0] + state.face_down[0]:
        if card in usable:
            continue
        kind = FACE_KINDS.get(card[:-1], "play")
        page.click(f"[data-testid=you] [data-card='{card}']")
        shows(page, reason_for(state, f"{kind}:{card}"), rules)
        clicked += 1
    assert clicked


def test_mhing_cards_that_make_no_sequence_with_the_discard(page, site, open_app):
    def want(state):
        return state.phase == "draw" and bool(state.discards)

    state = find_position("mhing", want)
    open_position(page, site, open_app, state)
    in_takes = {c for a in state.legal_actions() if a.kind in ("take", "swap") for c in a.cards}
    clicked = 0
    for card in state.hands[0]:
        if card in in_takes:
            continue
        button = page.locator(f"[data-testid=hand] [data-card='{card}']")
        click_card(button)
        shows(page, reason_for(state, f"take:{card}"), r"from the discard.*no sequence")
        click_card(button)
        page.wait_for_selector(f"{ERROR}[hidden]", state="attached")
        clicked += 1
    assert clicked


def test_progression_hand_and_the_card_just_played(page, site, open_app):
    def want(state):
        return state.phase == "draw" and state.just_played and state.just_played[1] == "public"

    state = find_position("progression", want)
    open_position(page, site, open_app, state)
    for card in state.hands[0]:
        click_card(page.locator(f"[data-testid=hand] [data-card='{card}']"))
        shows(page, reason_for(state, f"play:{card}"), r"already played a card this turn")
    card = state.just_played[0]
    page.click("[data-testid=why-public]")
    shows(page, reason_for(state, f"draw:{card}"), r"cannot take back")


def test_spite_every_target_a_card_cannot_go(page, site, open_app):
    def want(state):
        hand_moves = {a.cards[0] for a in state.legal_actions() if a.cards}
        return bool(state.centre) and any(c in hand_moves for c in state.hands[0])

    state = find_position("spite", want)
    open_position(page, site, open_app, state)
    card = state.hands[0][0]
    click_card(page.locator(f"[data-testid=hand] [data-card='{card}']"))
    blocked = page.locator("[data-testid=spite] .spite-target.is-blocked")
    targets = blocked.evaluate_all("nodes => nodes.map(n => n.dataset.target)")
    assert targets, "some target does not take the card"
    rules = (
        r"stack needs|stack is complete|must start with an Ace|already \d+ centre stacks"
        r"|discard piles go down|a joker may not be discarded|an Ace must be played"
    )
    for target in targets:
        zone, where = target.split(":")
        action = f"build:{card}:{where}" if zone == "stack" else f"discard:{card}:{where}"
        page.click(f"[data-testid=spite] .spite-target.is-blocked[data-target='{target}']")
        # The engine's answer in: two targets may share a reason, so the text alone could
        # still be the previous one's while this one's question is out (the table busy).
        page.wait_for_selector(IDLE)
        shows(page, reason_for(state, action), rules)
        # Still the same card selected: the next target is judged for it too.
        chosen = page.get_attribute(f"[data-testid=hand] [data-card='{card}']", "aria-pressed")
        assert chosen == "true"


def test_spite_ending_a_turn_with_a_build_left_is_confirmed(page, site, open_app):
    def want(state):
        legal = state.legal_actions()
        return any(a.kind == "build" for a in legal) and any(a.id == "end" for a in legal)

    state = find_position("spite", want)
    open_position(page, site, open_app, state)
    fold = page.locator("[data-testid=spite] [data-testid=end-turn]")
    end = page.locator("[data-testid=spite] [data-action=end]")
    assert fold.count() == 1 and not end.is_visible(), "no one-click end while a build is open"
    # The side panel's end of turn is a fold to confirm too.
    side = page.locator("[data-testid=actions] [data-testid=confirm-end]")
    assert side.count() == 1 and not side.locator("[data-action=end]").is_visible()
    side.locator("summary").click()
    assert "still build" in side.inner_text()
    assert side.locator("[data-action=end]").is_visible()
    fold.locator("summary").click()
    assert "still build" in fold.inner_text()
    end.click()
    page.wait_for_selector(IDLE)
    assert "End turn without discarding" in page.locator(".log-list").inner_text()


def builds_left(state: engine.State) -> bool:
    legal = state.legal_actions()
    return any(a.kind == "build" for a in legal) and any(a.id == "end" for a in legal)


def hinted(state: engine.State) -> str:
    """The move the page's hint suggests for seat 0 here: the bridge's own hint, as the page
    asks it in a browser test (the tests' fixed budget, ``TEST_BUDGET``, and a seed from the
    moves made, so the same)."""
    seats = [HUMAN, bot_seat("random", "Bot 1")]
    bridge.load(json.dumps({"record": state.to_record(), "seats": seats}))
    try:
        return json.loads(bridge.hint(json.dumps({"iterations": TEST_BUDGET})))["action"]["id"]
    finally:
        bridge.reset()


# A position whose hint (at the tests' budget) is to end the turn with a build left (seed 1,
# after 12 moves); should the engine's play change, the next one is searched for.
END_HINTED_AFTER = 12


def test_a_hint_to_end_the_turn_opens_the_fold_that_confirms_it(page, site, open_app):
    state = find_position("spite", lambda s: builds_left(s) and len(s.history) == END_HINTED_AFTER)
    if hinted(state) != "end":
        state = find_position("spite", lambda s: builds_left(s) and hinted(s) == "end")
    open_position(page, site, open_app, state)
    side = page.locator("[data-testid=actions] [data-testid=confirm-end]")
    fold = page.locator("[data-testid=spite] [data-testid=end-turn]")
    assert side.count() == 1 and fold.count() == 1
    assert not side.locator("[data-action=end]").is_visible(), "closed until asked"
    page.click("[data-testid=hint]")
    page.wait_for_selector(f"{SIDE_ACTIONS}.is-hinted", state="attached")
    page.wait_for_selector(IDLE)
    # Both folds open, and the lit controls that end the turn show.
    for where in (side, fold):
        assert where.get_attribute("open") is not None
        end = where.locator("[data-action=end]")
        assert end.is_visible() and "is-hinted" in end.get_attribute("class")

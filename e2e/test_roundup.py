"""Roundup in the browser: whole matches against bots, played from the side panel and from
the table's own controls (select a card, pick a target, name a suit or number), and the
rules page.

Runs against the built site with ``?speed=0``. Opponents are "random" bots and the target
is 5 points so that a match stays short; ``[data-testid=table][data-busy=false]`` marks the
moments the person can act (or a round or the match is over).

The tests share one page (``SHARED_PAGE``): the engine starts once for the module.
"""

from __future__ import annotations

import random
import re

from pagehelpers import (
    HUMAN,
    IDLE,
    SIDE_ACTIONS,
    bot_seat,
    click_card,
    deal_next,
    import_match,
    next_turn,
    record_near_the_end,
    side_action_ids,
)

import engine

SHARED_PAGE = True
TABLE_MATCH_SEED = 3
"""The deal of the two-player match played on the table: every run plays the same match."""

TABLE_STEPS = 12
"""The person's moves made on the table of the match set up from the menu (after its bid);
the test then opens saved matches near a round's end and near the match's end."""

CONTROLS = "[data-testid=you] [data-testid=controls]"
MY_CARDS = "[data-testid=you] button.card"
MAX_STEPS = 2500


def start_roundup(
    page,
    site,
    open_app,
    players: int,
    target: int = 5,
    rules: bool = False,
    seed: int | None = None,
):
    open_app(page, site)
    if seed is not None:
        deal_next(page, seed)
    page.click("[data-testid=menu] [data-game=roundup]")
    if rules:
        check_rules_page(page)
    page.select_option("[data-testid=players]", str(players))
    for seat in range(1, players):
        page.select_option(f"[data-testid=seat-{seat}]", "bot:random")
    page.select_option("[data-option=target_score]", label=str(target))
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    return page


def check_round_over(dialog) -> None:
    text = dialog.inner_text()
    assert re.search(r"closed last", text), text
    assert re.search(r"Bids: ", text) and re.search(r"point", text), text


def side_panel_step(page, rng: random.Random) -> None:
    ids = side_action_ids(page)
    assert ids, "the person's turn should list legal actions in the side panel"
    assert not any(
        re.search(r"player \d", label, re.IGNORECASE)
        for label in page.locator(SIDE_ACTIONS).all_inner_texts()
    ), "labels name seats"
    plays = [
        a for a in ids if a.startswith("play:") or a.startswith("bid:") or a.startswith("tiebreak:")
    ]
    faces = [a for a in ids if a.split(":")[0] in ("jack", "queen", "king", "reveal", "discard")]
    if plays and rng.random() < 0.85:
        choice = rng.choice(plays)
    elif "end" in ids and rng.random() < 0.5:
        choice = "end"
    elif faces and rng.random() < 0.5:
        choice = rng.choice(faces)
    else:
        choice = rng.choice(ids)
    page.click(f"{SIDE_ACTIONS}[data-action='{choice}']")


# What the table offers the person, read in one look: the side panel's legal ids, the hand's
# lit (else all) cards, the targets and the move buttons under "You".
TABLE_LOOK = """() => {
  const ids = (sel) => [...document.querySelectorAll(sel)];
  const controls = "[data-testid=you] [data-testid=controls]";
  const lit = ids("[data-testid=you] button.card.is-playable");
  return {
    legal: ids("[data-testid=actions] [data-action]").map((n) => n.dataset.action),
    cards: (lit.length ? lit : ids("[data-testid=you] button.card")).map((n) => n.dataset.card),
    pressed: ids("[data-testid=you] button.card[aria-pressed=true]").map((n) => n.dataset.card),
    targets: ids(`${controls} [data-testid=target]`).length,
    buttons: ids(`${controls} [data-action]`).map((n) => n.dataset.action),
  };
}"""


def table_step(page, rng: random.Random) -> None:
    """One move made the way a person does it on the table: select a lit card, then pick
    a target, a suit or number, or the move's button under "You"."""
    look = page.evaluate(TABLE_LOOK)
    legal, buttons = set(look["legal"]), look["buttons"]
    if look["cards"] and (not buttons or rng.random() < 0.8):
        card_id = look["cards"][rng.randrange(len(look["cards"]))]
        click_card(page.locator(f"{MY_CARDS}[data-card='{card_id}']"))
        look = page.evaluate(TABLE_LOOK)
        assert look["pressed"] == [card_id]
        if look["targets"]:
            targets = page.locator(f"{CONTROLS} [data-testid=target]")
            targets.nth(rng.randrange(look["targets"])).click()
            look = page.evaluate(TABLE_LOOK)
        buttons = look["buttons"]
        assert buttons, f"selecting {card_id} should offer a move"
        for action in buttons:
            assert action.split(":")[1] == card_id or action in ("end", "pass"), action
    action = buttons[0]
    assert action in legal, f"the table offered {action!r}, which is not a legal move"
    page.locator(f"{CONTROLS} [data-action]").nth(0).click()


def play_match(page, step, rng: random.Random, rounds_wanted: int | None = None) -> int:
    """Take the person's turns with ``step`` until the match is over, or until
    ``rounds_wanted`` rounds have ended; the rounds seen end."""
    rounds = []

    def round_over(dialog) -> None:
        check_round_over(dialog)
        rounds.append(dialog)

    for _ in range(MAX_STEPS):
        if next_turn(page, round_over) is None:
            return len(rounds)
        if rounds_wanted is not None and len(rounds) >= rounds_wanted:
            return len(rounds)
        step(page, rng)
    raise AssertionError("the match did not end")


def check_match_over(page, players: int) -> list[int]:
    over = page.locator("[data-testid=match-over]")
    text = over.inner_text()
    assert re.search(r"win", text, re.IGNORECASE), text
    scores = [int(s) for s in over.locator(".final-scores li strong").all_inner_texts()]
    assert len(scores) == players
    top = max(scores)
    assert top >= 5 and scores.count(top) == 1, scores
    return scores


def bid_from_the_table(page) -> str:
    # The bots before you have bid in secret; bid from the table: a lit face-down card,
    # then the bid button it offers.
    assert page.locator("[data-testid=roundup]").get_attribute("data-phase") == "bid"
    assert "Bid \u2660" not in page.locator("[data-testid=seats]").inner_text()
    card = page.locator("[data-testid=my-face-down] button.card.is-playable").first
    card_id = card.get_attribute("data-card")
    click_card(card)
    bid = page.locator(f"{CONTROLS} [data-action='bid:{card_id}']")
    assert bid.count() == 1
    bid.click()
    page.wait_for_selector(IDLE)
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[card_id[-1]]
    assert suit in page.locator("[data-testid=my-bid]").inner_text()
    # Every bid is shown once all are in: each seat shows a suit or "No bid".
    assert page.locator("[data-testid=roundup]").get_attribute("data-phase") != "bid"
    for seat in page.locator("[data-testid=seats] .ru-seat").all():
        assert re.search(r"Bid|No bid", seat.inner_text()), seat.inner_text()
    face_up = page.locator("[data-testid=my-face-up] [data-card]").evaluate_all(
        "n => n.map(x => x.dataset.card)"
    )
    played = page.locator("[data-testid=stacks] [data-card]").evaluate_all(
        "n => n.map(x => x.dataset.card)"
    )
    assert card_id in face_up or card_id in played, "the bid card joins the face-up hand"
    return card_id


def check_rules_page(page) -> None:
    page.click("[data-testid=rules]")
    rules = page.locator("[data-testid=rules-page]")
    rules.wait_for(state="visible")
    page.wait_for_selector("[data-testid=rules-page] .rules-text h2")
    headings = rules.locator(".rules-text h2").all_inner_texts()
    for word in (
        "aim",
        "deal",
        "turn",
        "face cards",
        "end of a round",
        "scoring",
        "winning",
        "options",
    ):
        assert any(word in h.lower() for h in headings), (word, headings)
    assert rules.locator("[data-testid=clarifications] li").count() >= 5
    page.click("[data-testid=rules-page] [data-testid=back]")


def test_two_player_match_on_the_table_controls(page, site, open_app):
    """The rules page from the set-up screen, a bid placed on the table, moves made by
    selecting cards, targets and names on the table; then, played the same way, a saved match
    near the end of a round to its round-over summary, and one near its end (its last round
    under way) to the match's end."""
    start_roundup(page, site, open_app, players=2, rules=True, seed=TABLE_MATCH_SEED)
    assert page.locator("[data-testid=seats] .ru-seat").count() == 1
    assert page.locator("[data-testid=stacks] .ru-stack").count() == 4
    assert page.locator("[data-testid=my-face-down] [data-card]").count() == 26
    # Twenty-six cards are two fans, one above the other, inside the window on a laptop and a phone.
    viewport = page.viewport_size
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        edges = page.locator("[data-testid=my-face-down] [data-card]").evaluate_all(
            "cs => cs.map(c => c.getBoundingClientRect()).map(r => [r.left, r.right, r.top])"
        )
        assert min(e[0] for e in edges) >= 0 and max(e[1] for e in edges) <= width, (width, edges)
        assert len({round(e[2]) for e in edges if e[2] > 0}) >= 2, (
            "a 26-card hand should take two rows"
        )
    page.set_viewport_size(viewport)
    bid_from_the_table(page)
    rng = random.Random(11)
    for _ in range(TABLE_STEPS):
        assert next_turn(page, check_round_over) is not None, "the match ended at once"
        table_step(page, rng)
    page.click("[data-testid=menu-button]")
    ending = record_near_the_end("roundup", 2, {"target_score": 5}, steps_left=20, rounds_left=1)
    import_match(page, ending, [HUMAN, bot_seat("random")])
    assert play_match(page, table_step, rng, rounds_wanted=1) == 1
    page.click("[data-testid=menu-button]")
    record = record_near_the_end("roundup", 2, {"target_score": 5}, steps_left=20)
    played = len(engine.from_record(record).result()["rounds"])
    import_match(page, record, [HUMAN, bot_seat("random")])
    rounds = play_match(page, table_step, rng)
    check_match_over(page, 2)
    sheet = page.locator("[data-testid=score-sheet] tbody tr")
    assert sheet.count() == played + rounds + 1, "the score sheet lists every round"


def test_four_player_match_from_the_side_panel(page, site, open_app):
    """Four players set up from the menu; then a saved four-player match in its last round,
    opened from a file, played to the end from the side panel."""
    start_roundup(page, site, open_app, players=4)
    assert page.locator("[data-testid=seats] .ru-seat").count() == 3
    page.click("[data-testid=menu-button]")
    record = record_near_the_end("roundup", 4, {"target_score": 5}, steps_left=20)
    bots = [bot_seat("random", name) for name in ("West", "North", "East")]
    import_match(page, record, [HUMAN] + bots)
    assert page.locator("[data-testid=seats] .ru-seat").count() == 3
    play_match(page, side_panel_step, random.Random(5))
    check_match_over(page, 4)

    page.click("[data-testid=play-again]")
    page.wait_for_selector(IDLE)
    assert not page.locator("[data-testid=match-over]").is_visible()
    assert page.locator(".scores .score-value").all_inner_texts() == ["0"] * 4


def long_hands_record(players: int, down: range, up: range, seed: int) -> dict:
    """The record of a random Roundup match cut where seat 0 is to move holding a face-down
    hand of a count in ``down`` and a face-up hand of a count in ``up``."""
    state = engine.new_game("roundup", players, seed)
    rng = random.Random(seed)
    while not state.is_over:
        view = state.view(0)
        if (
            state.current_player == 0
            and len(view["face_down"]) in down
            and len(view["face_up"][0]) in up
        ):
            return state.to_record()
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no such position in seed {seed}")


def test_long_hands_fit_a_phone(page, site, open_app):
    """The person's two hands at their longest on a 390x844 and a 360x740 phone: side by side
    while their fans fit the row, else one above the other, a fan of more than 16 cards in
    two rows; nothing wider than the window, each card's corner showing. Three players' bid
    (17 face-down cards, none face-up), two players' play with 19-20 face-down beside
    face-up cards, and six players' 9 face-down beside an empty face-up hand."""
    from conftest import back_to_menu
    from screenwalk import Walk, clear_window

    open_app(page, site)
    walk = Walk(page)
    cases = {
        "3 players' bid": (3, range(17, 18), range(0, 1)),
        "2 players, 19-20 face-down": (2, range(19, 21), range(3, 9)),
        "6 players, 9 face-down": (6, range(9, 10), range(0, 1)),
    }
    try:
        for name, (players, down, up) in cases.items():
            record = long_hands_record(players, down, up, seed=1)
            seats = [HUMAN] + [bot_seat(name=f"Bot {i}") for i in range(1, players)]
            import_match(page, record, seats)
            walk.look(f"Roundup, {name}", table=True)
            assert back_to_menu(page), "no way back to the menu"
    finally:
        clear_window(page)
    assert not walk.found, "screens that do not fit:\n" + walk.report()

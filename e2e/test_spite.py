"""Spite and Malice in the browser: the end of a game against a bot, building and discarding
with the table's own controls (click a card, then a lit target), dragging a card onto a target,
and the "why not" reason for a target that does not take the card.

Runs against the built site with ``?speed=0``. The page marks the table ``data-busy="false"``
once no request is in flight and no bot is moving, which is when the person can act (or the
match is over). A game of Spite and Malice can run to thousands of moves, so the game's-end
test picks a deal that a plain player finishes in some 70 moves: it replays candidate deals
through the engine's own bridge (the same calls the page makes), cuts the chosen game a dozen
of the person's moves before its end and opens it the way a person picks up a saved match,
from a match file.

The tests share one page (``SHARED_PAGE``): the engine starts once for the module.
"""

from __future__ import annotations

import json
import random

from pagehelpers import (
    HAND_CARDS,
    IDLE,
    SIDE_ACTIONS,
    click_card,
    hand_ids,
    open_record,
    play_out,
    side_action_ids,
)

import engine
from engine import bridge

SHARED_PAGE = True

TABLE = "[data-testid=spite]"
LIT_TARGETS = f"{TABLE} .spite-target.is-legal[data-action]"
OVER = "[data-testid=match-over]"
SEATS = [{"type": "human", "name": "You"}, {"type": "bot", "level": "normal", "name": "North"}]
POLICY_SEED = 5
MAX_PERSON_MOVES = 80


def start_spite(page, site, open_app, level: str = "normal", order: str | None = None):
    open_app(page, site)
    page.click("[data-testid=menu] [data-game=spite]")
    page.select_option("[data-testid=seat-1]", f"bot:{level}")
    if order is not None:
        page.select_option("[data-testid=order]", order)
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    return page


STACKS = "[data-testid=centre] [data-testid=stack]"


def card_of(action_id: str) -> str:
    return action_id.split(":")[1]


def target_key(action_id: str) -> str:
    kind, _, where = action_id.rpartition(":")
    return f"stack:{where}" if kind.startswith("build:") else f"pile:{where}"


BUILD_BUDGET = 30
"""Builds per turn after which only the upcard is built (as the engine's own greedy bot does):
a refill that shuffles the centre back into the stock could let a turn go round for ever."""


def choose(ids: list[str], upcard: str | None, rng: random.Random, builds: int = 0) -> str:
    """A plain player: pay-off card first, then other builds (jokers last), then a discard."""
    builds_open = [a for a in ids if a.startswith("build:")]
    for a in builds_open:
        if card_of(a) == upcard:
            return a
    plain = [a for a in builds_open if not card_of(a).startswith("JK")]
    if plain and builds < BUILD_BUDGET:
        return plain[0]
    discards = [a for a in ids if a.startswith("discard:")]
    if discards:
        return rng.choice(discards)
    if "end" in ids:
        return "end"
    return ids[0]


def record_for(seed: int) -> dict:
    return {"game": "spite", "players": 2, "seed": seed, "options": {}, "actions": []}


def load_deal(seed: int) -> dict:
    """The snapshot the page gets on resuming the deal ``seed``, through the engine's bridge."""
    return json.loads(bridge.load(json.dumps({"record": record_for(seed), "seats": SEATS})))


def play_in_engine(record: dict, limit: int = MAX_PERSON_MOVES) -> tuple[dict, dict, int] | None:
    """The match ``choose`` plays on from ``record`` against the normal bot, through the bridge
    exactly as the page drives it after opening the record: its result, its record at the end
    and the person's moves; None if it runs too long."""
    snap = json.loads(bridge.load(json.dumps({"record": record, "seats": SEATS})))
    rng, builds, moves = random.Random(POLICY_SEED), 0, 0
    while not snap["is_over"]:
        if snap["human_turn"]:
            ids = [a["id"] for a in snap["legal"]]
            action = choose(ids, snap["view"]["upcards"][snap["viewer"]], rng, builds)
            builds = builds + 1 if action.startswith("build:") else 0
            snap = json.loads(bridge.act(json.dumps({"action": action})))
            moves += 1
            if moves > limit:
                bridge.reset()
                return None
        else:
            snap = json.loads(bridge.bot_move())["snapshot"]
    played = json.loads(bridge.record("{}"))["record"]
    bridge.reset()
    return snap["result"], played, moves


def replay_in_engine(seed: int, limit: int = MAX_PERSON_MOVES) -> dict | None:
    """The result of the match ``choose`` plays from the deal ``seed`` (see ``play_in_engine``),
    or None if it runs too long."""
    played = play_in_engine(record_for(seed), limit)
    return None if played is None else played[0]


def short_deal() -> tuple[int, dict]:
    for seed in range(1, 200):
        result = replay_in_engine(seed)
        if result and result["winners"] and result["rounds"][-1]["reason"] == "payoff":
            return seed, result
    raise AssertionError("no deal short enough")


LAST_MOVES = 12
"""The person's moves left in the game the whole-game test opens (a short deal takes 60-80)."""


def near_the_end(seed: int) -> tuple[dict, dict]:
    """The game ``choose`` plays from the deal ``seed``, cut where the person is to move with
    about ``LAST_MOVES`` of their moves left and ``choose`` (starting afresh there) still ends
    it with a pay-off pile emptied: the record cut there, and the result played from it."""
    played = play_in_engine(record_for(seed))
    assert played is not None
    whole = played[1]
    history = engine.from_record(whole).history
    person = [i for i, step in enumerate(history) if step.player == 0]
    for cut in person[-LAST_MOVES::-1]:
        record = {**whole, "actions": whole["actions"][:cut]}
        ending = play_in_engine(record)
        if ending and ending[2] > LAST_MOVES // 2:
            result = ending[0]
            if result["winners"] and result["rounds"][-1]["reason"] == "payoff":
                return record, result
    raise AssertionError("no cut of the game ends it by a pay-off pile")


def opening_build_deal() -> int:
    """A deal in which the person moves first and can build at once, found through the bridge."""
    for seed in range(1, 200):
        snap = load_deal(seed)
        bridge.reset()
        if snap["human_turn"] and any(a["id"].startswith("build:") for a in snap["legal"]):
            return seed
    raise AssertionError("no deal opens with a build")


def resume_deal(page, site, open_app, seed: int) -> None:
    """Open the deal ``seed`` (seat 0 = you) as a saved match, from a match file."""
    open_record(page, site, open_app, record_for(seed), SEATS)


UPCARD = "() => document.querySelector('[data-testid=my-payoff] [data-card]')?.dataset.card ?? null"


def play_match(page, rng: random.Random) -> int:
    """Play the person's turns from the side panel until the match is over; the moves made."""
    builds = 0

    def pick(ids: list[str]) -> str:
        nonlocal builds
        action = choose(ids, page.evaluate(UPCARD), rng, builds)
        builds = builds + 1 if action.startswith("build:") else 0
        return action

    return play_out(page, pick, max_moves=2500)


def my_turn(page) -> bool:
    page.wait_for_selector(IDLE)
    return bool(side_action_ids(page))


def test_the_end_of_a_game_against_a_bot_then_play_again(page, site, open_app):
    """The last dozen moves of a short game, opened from a file, played to its end (the moves
    before are alike; test_all_four_jokers_are_drawn_with_a_joker_picture opens a fresh deal)."""
    seed, _ = short_deal()
    record, expected = near_the_end(seed)
    opened = json.loads(bridge.load(json.dumps({"record": record, "seats": SEATS})))["view"]
    bridge.reset()
    open_record(page, site, open_app, record, SEATS)
    # The table shows both pay-off piles with their counts and the stock.
    counts = [
        int(page.locator(f"[data-testid={whose}] [data-testid=payoff-count]").inner_text())
        for whose in ("my-payoff", "opp-payoff")
    ]
    assert counts == opened["payoff_counts"], counts
    assert (
        int(page.locator("[data-testid=stock]").inner_text().split()[-1]) == opened["stock_count"]
    )
    moves = play_match(page, random.Random(POLICY_SEED))
    assert moves > LAST_MOVES // 2
    over = page.locator(OVER)
    title = over.locator("[data-testid=winner]").inner_text()
    winner = expected["winners"][0]
    assert title == ("You win the match!" if winner == 0 else "North wins the match"), title
    games = over.locator("[data-testid=games] li").all_inner_texts()
    assert len(games) == 1 and games[0].startswith("Game 1:"), games
    scores = [int(s) for s in over.locator(".final-scores li strong").all_inner_texts()]
    assert scores == expected["scores"], "the page played the same game as the engine"
    assert str(max(scores)) in games[0]

    page.click("[data-testid=play-again]")
    page.wait_for_selector(IDLE)
    assert not page.locator(OVER).is_visible()
    assert page.locator(".scores .score-value").all_inner_texts() == ["0", "0"]


def test_build_and_discard_by_clicking_the_table(page, site, open_app):
    # A chosen deal, so the person surely has a build to make (a random one may offer none
    # for many turns).
    resume_deal(page, site, open_app, opening_build_deal())
    built = discarded = False
    for _ in range(60):
        if built and discarded:
            break
        if page.locator(f"{OVER}, [data-testid=round-over]").count():
            break
        if not my_turn(page):
            continue
        ids = side_action_ids(page)
        builds = [a for a in ids if a.startswith("build:")]
        discards = [a for a in ids if a.startswith("discard:")]
        if builds and not built:
            action = builds[0]
        elif discards:
            action = discards[0]
        else:
            page.click(f"{TABLE} [data-action=end]")  # the table's own end-turn button
            continue
        card = card_of(action)
        page.click(f"{TABLE} button[data-card='{card}']")
        assert page.get_attribute(f"{TABLE} button[data-card='{card}']", "aria-pressed") == "true"
        lit = page.locator(LIT_TARGETS).evaluate_all("nodes => nodes.map(n => n.dataset.action)")
        expected = [a for a in ids if a.startswith(("build:", "discard:")) and card_of(a) == card]
        assert sorted(lit) == sorted(expected), "exactly the legal targets light up"
        stacks_before = page.locator(STACKS).count()
        page.click(f"{LIT_TARGETS}[data-action='{action}']")
        page.wait_for_selector(IDLE)
        log = page.locator(".log-list").inner_text()
        assert "You:" in log
        if action.startswith("build:"):
            built = True
            if not page.locator(OVER).count():
                tops = page.locator(f"{STACKS} [data-card]").evaluate_all(
                    "nodes => nodes.map(n => n.dataset.card)"
                )
                # The card tops its stack, unless completed stacks went back into the stock
                # (a hand emptied by the build is refilled from it): then there are fewer.
                grown = stacks_before + (1 if action.endswith(":new") else 0)
                assert card in tops or len(tops) < grown, "the built card tops a centre stack"
        else:
            discarded = True
            pile = page.locator(
                f"[data-testid=my-piles] [data-target='{target_key(action)}'] [data-card]"
            )
            assert card in pile.evaluate_all("nodes => nodes.map(n => n.dataset.card)")
    assert built and discarded, "a build and a discard were both made on the table"


def test_a_target_that_refuses_the_card_says_why(page, site, open_app):
    start_spite(page, site, open_app, level="random", order="0")
    hand = hand_ids(page)
    plain = [c for c in hand if not c.startswith(("JK", "A"))]
    assert plain, "a five-card hand with only Aces and jokers is too unlikely to plan for"
    card = plain[0]
    click_card(page.locator(f"{HAND_CARDS}[data-card='{card}']"))
    page.click("[data-testid=new-stack]")  # a new stack needs an Ace
    error = page.locator("[data-testid=table] [data-testid=error]")
    error.wait_for(state="visible")
    assert "Ace" in error.inner_text()
    assert hand_ids(page) == hand, "a refused target changes nothing"
    page.click("[data-testid=clear-selection]")
    assert page.get_attribute(f"{HAND_CARDS}[data-card='{card}']", "aria-pressed") == "false"


def drag(page, source: str, target: str) -> None:
    """Press on the source, move in steps (pointer events), release over the target."""
    page.locator(source).scroll_into_view_if_needed()
    start = page.locator(source).bounding_box()
    end = page.locator(target).bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=12)
    page.mouse.up()


def test_drag_a_card_onto_a_target(page, site, open_app):
    page.set_viewport_size({"width": 1280, "height": 1000})  # the hand and every target in view
    start_spite(page, site, open_app, level="random", order="0")
    error = page.locator("[data-testid=table] [data-testid=error]")
    hand = hand_ids(page)
    plain = [c for c in hand if not c.startswith(("JK", "A"))]
    if plain:
        # Dropped where it may not go: the engine's reason shows and nothing moves.
        drag(page, f"{HAND_CARDS}[data-card='{plain[0]}']", "[data-testid=new-stack]")
        error.wait_for(state="visible")
        assert "Ace" in error.inner_text()
        assert hand_ids(page) == hand
        assert page.locator(f"{TABLE} [aria-pressed=true]").count() == 0, "a drag selects nothing"
    ids = side_action_ids(page)
    action = next(a for a in ids if a.startswith(("build:", "discard:")))
    label = page.locator(f"{SIDE_ACTIONS}[data-action='{action}']").inner_text()
    card = card_of(action)
    logged = page.locator(".log-list li").count()
    drag(
        page, f"{TABLE} button[data-card='{card}']", f"{TABLE} [data-target='{target_key(action)}']"
    )
    page.wait_for_selector(IDLE)
    # The entries' words, without the notes of what a move brought (the refilled hand).
    log = page.locator(".log-list li").evaluate_all(
        "els => els.map(li => { const c = li.cloneNode(true);"
        " c.querySelectorAll('.log-note').forEach(n => n.remove()); return c.innerText.trim(); })"
    )
    # A discard ends the turn, so the opponent's moves may follow the person's in the log.
    assert len(log) > logged and log[logged] == f"You: {label}", log[logged - 1 :]
    assert card not in hand_ids(page), "the dragged card left the hand"


def test_all_four_jokers_are_drawn_with_a_joker_picture(page, site, open_app):
    """Spite and Malice deals four jokers (JK1..JK4); the card art has two joker designs, so
    each joker shows one, and every other face shows its own picture."""
    resume_deal(page, site, open_app, 1)  # the person's hand: 2♠, 3♠, 6♦, JK3, JK4
    # A fresh deal: both pay-off piles with their counts, and the stock.
    counts = [int(c) for c in page.locator("[data-testid=payoff-count]").all_inner_texts()]
    assert len(counts) == 2 and all(20 < c <= 26 for c in counts), counts
    assert 0 < int(page.locator("[data-testid=stock]").inner_text().split()[-1]) <= 46
    page.locator(f"{HAND_CARDS}.has-art").first.wait_for()
    faces = page.locator(f"{TABLE} .card[data-card]:not(.card-tiny)").evaluate_all(
        """ns => ns.map(n => [n.dataset.card,
            n.querySelector("svg.card-art use")?.getAttribute("href") ?? null])"""
    )
    jokers = {card: art for card, art in faces if card.startswith("JK")}
    assert jokers == {"JK3": "#fJK1", "JK4": "#fJK2"}, jokers
    for card, art in faces:
        if not card.startswith("JK"):
            assert art == "#f" + card.split("#", 1)[0], (card, art)

"""Around the table, for every game: resume after reload (mid-turn too), a save that cannot be
read, pass-and-play hand-off, settings and names remembered, the card art replacing its CSS
fallback, the card backs, the four-colour deck and sound heard, statistics, keyboard-only play,
the screen-reader live region, reduced motion, and phone/desktop layouts without sideways
scrolling.

Runs against the built site with ``?speed=0``; the table says ``data-busy="false"`` when the
person can act. The tests share one page (``SHARED_PAGE``) but for those that change what
later ones would find (settings, statistics, remembered seats, an init script, the media).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest
from pagehelpers import (
    CLEAR_SAVES,
    HUMAN,
    IDLE,
    MENU,
    SIDE_ACTIONS,
    bot_seat,
    deal_next,
    import_match,
    next_turn,
    own_page,
    read_save,
    resume_button,
    save_key,
    saved_match,
    side_action_ids,
    store_script,
)
from screenwalk import SHOTS as WANTED_SHOTS
from screenwalk import offenders

import engine

SHARED_PAGE = True

GAMES = list(engine.GAMES)
SHOTS = WANTED_SHOTS / "features" if WANTED_SHOTS else None
"""Where pictures of the tables go, when ``PARLOUR_SCREEN_SHOTS=dir`` asks for them (see
e2e/screenwalk.py): to look at, not checked, and each costs the page a paint and an encoding."""


def table_cards(page) -> list[str]:
    return page.locator(".game-root [data-card]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )


def saved_actions(page) -> list[str] | None:
    save = read_save(page)
    return save["data"]["record"]["actions"] if save else None


def no_horizontal_overflow(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def start(
    page, game: str, seats: dict[int, str] | None = None, names: dict[int, str] | None = None
):
    page.click(f"[data-testid=menu] [data-game={game}]")
    for seat, value in (seats or {}).items():
        page.select_option(f"[data-testid=seat-{seat}]", value)
    for seat, name in (names or {}).items():
        page.fill(f"[data-testid=seat-name-{seat}]", name)
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)


def settle(page) -> None:
    """Wait until the person can act, clicking through round-over dialogs."""
    next_turn(page)


def plain_choice(ids: list[str]) -> str:
    """Something that keeps the turn going if it can (a play, a draw), not an ending."""
    enders = ("pass", "end", "discard", "stop", "done", "knock")
    keep = [a for a in ids if not a.split(":")[0].startswith(enders)]
    return (keep or ids)[0]


# ----- never lose a game ------------------------------------------------------------------------


def mid_turn_deal(game: str) -> tuple[int, str]:
    """A seed (and the link's players) whose deal lets the person act twice in a row within
    40 of their moves when they follow ``plain_choice``; found with the engine's own bridge,
    the same calls the page makes, so the browser run is the same match."""
    from engine import bridge

    players = engine.GAMES[game].default_players
    seats = [{"type": "human"}] + [{"type": "bot", "level": "random"}] * (players - 1)
    try:
        for seed in range(1, 300):
            snap = json.loads(
                bridge.start(json.dumps({"game": game, "seed": seed, "seats": seats}))
            )
            for _ in range(40):
                while snap["bot_turn"]:
                    snap = json.loads(bridge.bot_move())["snapshot"]
                if snap["is_over"]:
                    break
                before = snap["moves"]
                snap = json.loads(
                    bridge.act(
                        json.dumps({"action": plain_choice([a["id"] for a in snap["legal"]])})
                    )
                )
                if snap["human_turn"] and snap["moves"] == before + 1:
                    return seed, ",".join(["human"] + ["random"] * (players - 1))
    finally:
        bridge.reset()
    raise AssertionError(f"no {game} deal lets the person act twice in a row")


def open_challenge(page, site: str, open_app, fragment: str) -> None:
    """Follow the challenge link ``#fragment`` on the open app's menu, as a link to the page
    already open does (its #hash changes; no reload, so no new engine start: a first visit by
    a link is test_features_play's ``test_a_challenge_link_deals_the_same_cards``). A match
    saved by an earlier test on the shared page is removed before the menu is shown, so the
    link deals at once (the offer to set a saved match aside for a challenge is tested in
    test_features_play)."""
    page.evaluate(CLEAR_SAVES)
    open_app(page, site)
    page.evaluate("(fragment) => { window.location.hash = fragment; }", fragment)
    page.wait_for_selector(IDLE)


@pytest.mark.parametrize("game", GAMES)
def test_resume_after_reload_every_game_even_mid_turn(page, site, open_app, game):
    seed, players = mid_turn_deal(game)
    open_challenge(page, site, open_app, f"game={game}&seed={seed}&players={players}")
    mid_turn = False
    for _ in range(40):  # deals are random: act until the person acts twice in a row
        settle(page)
        ids = side_action_ids(page)
        assert ids, "the person's turn lists the legal actions"
        before = saved_actions(page) or []
        page.click(f"{SIDE_ACTIONS}[data-action='{plain_choice(ids)}']")
        settle(page)
        after = saved_actions(page)
        assert after is not None and len(after) > len(before), "saved after every action"
        if len(after) == len(before) + 1 and side_action_ids(page):
            mid_turn = True  # the same person acts again: a turn of several steps, or the next turn
            break
    assert page.locator("[data-testid=match-over]").count() == 0
    actions, cards, record = side_action_ids(page), table_cards(page), saved_actions(page)

    open_app(page, site)
    resume = page.locator(resume_button(game))
    assert engine.GAMES[game].title in resume.get_attribute("aria-label")
    resume.click()
    page.wait_for_selector(IDLE)
    assert saved_actions(page) == record
    assert side_action_ids(page) == actions, "the same choices, exactly where they were"
    assert table_cards(page) == cards, "the same cards on the table"
    assert mid_turn


def test_unreadable_saves_are_set_aside_with_a_message(page, site, open_app):
    open_app(page, site)
    key = save_key("crisps")
    page.evaluate(f"() => localStorage.setItem({json.dumps(key)}, '{{not json')")
    open_app(page, site)
    assert page.locator(resume_button("crisps")).count() == 0
    assert "could not be read" in page.locator("[data-testid=notice]").inner_text()
    assert page.evaluate("() => localStorage.getItem('parlour.setaside.crisps')") == "{not json"

    # Well-formed, but the engine refuses the record: offered, then set aside on resume.
    bad = saved_match(
        {"game": "crisps", "players": 2, "seed": 3, "options": {}, "actions": ["play:not-a-card"]},
        [HUMAN, bot_seat("normal")],
    )
    page.evaluate(f"() => {{ {store_script(bad)} }}")
    open_app(page, site)
    page.click(resume_button("crisps"))
    notice = page.locator("[data-testid=notice]")
    notice.wait_for()
    assert "set aside" in notice.inner_text()
    assert page.locator(resume_button("crisps")).count() == 0
    assert read_save(page, "crisps") is None
    # What could not be resumed can still be kept, as a match file.
    with page.expect_download() as download:
        page.click("[data-testid=notice-export]")
    kept = json.loads(Path(download.value.path()).read_text())
    assert (kept["parlour"], kept["record"], kept["title"]) == (
        "match",
        bad["data"]["record"],
        "Crisps",
    )
    start(page, "crisps")  # and the page carries on


# ----- storage that is full or turned off ---------------------------------------------------

UNSAVED = "[data-testid=unsaved]"
STORAGE_FULL = """() => {
  window.__setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function () {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  };
}"""
STORAGE_BACK = "() => { Storage.prototype.setItem = window.__setItem; }"
STORAGE_OFF = """Object.defineProperty(window, "localStorage", {
  get() { throw new DOMException("Access is denied for this document.", "SecurityError"); },
});"""


def move(page) -> None:
    settle(page)
    page.click(f"{SIDE_ACTIONS}[data-action='{plain_choice(side_action_ids(page))}']")
    page.wait_for_selector(IDLE)


def test_a_full_storage_is_said_play_goes_on_and_saving_resumes(page, site, open_app):
    open_app(page, site)
    start(page, "crisps")
    move(page)
    assert not page.locator(UNSAVED).count()
    kept = saved_actions(page)
    page.evaluate(STORAGE_FULL)
    try:
        move(page)
        notice = page.locator(UNSAVED)
        assert "cannot keep this match" in notice.inner_text()
        move(page)  # play goes on; the save is as it was before the storage filled up
        assert notice.is_visible() and saved_actions(page) == kept
        with page.expect_download() as download:
            page.click("[data-testid=unsaved-export]")
        exported = json.loads(Path(download.value.path()).read_text())["record"]["actions"]
        assert len(exported) > len(kept) and exported[: len(kept)] == kept
    finally:
        page.evaluate(STORAGE_BACK)
    move(page)  # space again: the next move is saved and the notice goes
    assert not page.locator(UNSAVED).count()
    assert len(saved_actions(page)) > len(exported)


@own_page
def test_storage_turned_off_is_said_and_play_goes_on(page, site, open_app):
    page.add_init_script(STORAGE_OFF)
    open_app(page, site)
    start(page, "crisps")
    page.locator(UNSAVED).wait_for()
    move(page)
    move(page)
    assert page.locator(UNSAVED).is_visible()


# ----- pass and play ----------------------------------------------------------------------------


SUITS = {"S": ("\u2660", "spades"), "H": ("\u2665", "hearts"), "D": ("\u2666", "diamonds")}
SUITS["C"] = ("\u2663", "clubs")
RANK_WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
TEXT_BEHIND = """() => {
  const handoff = document.querySelector("[data-testid=handoff]");
  const parts = [];
  const LABELS = ["aria-label", "title", "alt", "value"];
  const shown = NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT;
  const walk = document.createTreeWalker(document.body, shown);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (handoff.contains(n)) continue;
    const element = n.nodeType === Node.TEXT_NODE ? n.parentElement : n;
    if (!element.checkVisibility()) continue;
    if (n.nodeType === Node.TEXT_NODE) parts.push(n.textContent);
    else for (const name of LABELS) parts.push(n.getAttribute(name) || "");
  }
  return parts.join(" | ");
}"""
"""Every text drawn behind the hand-off screen (and every label a screen reader would say)."""


def card_words(card: str) -> list[str]:
    """How the page writes a card: "10\u2665" and "10 of hearts" (see web/js/ui/cards.js)."""
    base = card.split("#", 1)[0]
    rank, suit = base[:-1], base[-1]
    symbol, name = SUITS[suit]
    return [rank + symbol, f"{RANK_WORDS.get(rank, rank)} of {name}"]


def assert_nothing_private_shows(page):
    handoff = page.locator("[data-testid=handoff]")
    assert handoff.is_visible()
    page.wait_for_selector(IDLE)  # the move is saved: the record below is the table's
    # No text behind it (the turn and message lines included) names a card in any hand.
    state = engine.from_record(read_save(page)["data"]["record"])
    hidden = [card for seat in range(state.players) for card in state.view(seat)["hand"]]
    assert hidden
    behind = page.evaluate(TEXT_BEHIND)
    assert "Ann" in behind or "Bob" in behind, "the text behind the hand-off is read"
    for card in hidden:
        for words in card_words(card):
            assert not re.search(rf"(?<![0-9]){re.escape(words)}", behind), (
                f"{words}, in a hand, is written behind the hand-off screen"
            )
    assert page.evaluate("() => document.querySelectorAll('[data-card]').length") == 0, (
        "no card of any seat is in the page behind the hand-off screen"
    )
    assert page.locator("[data-testid=hand]").count() == 0
    assert not page.locator(SIDE_ACTIONS).count()
    log = page.locator(".game-log")
    assert not log.count() or not log.first.is_visible(), (
        "the log (which names the viewer's draws) is hidden"
    )


@own_page
def test_pass_and_play_hand_off_hides_both_hands(page, site, open_app):
    open_app(page, site)
    start(page, "crisps", seats={1: "human"}, names={0: "Ann", 1: "Bob"})
    seen: dict[str, list[str]] = {}
    handoffs = 0
    for _ in range(20):
        if page.locator("[data-testid=handoff]").count():
            assert_nothing_private_shows(page)
            handoffs += 1
            if handoffs == 3:
                # A reload in the middle of pass and play: the hand-off comes first again.
                open_app(page, site)
                page.click(resume_button("crisps"))
                page.wait_for_selector(IDLE)
                assert_nothing_private_shows(page)
            ready = page.locator("[data-testid=handoff-ready]")
            who = "Ann" if "Ann" in ready.inner_text() else "Bob"
            assert f"I am {who}" in ready.inner_text()
            ready.click()
            page.wait_for_selector("[data-testid=hand] [data-card]")
            seen[who] = page.locator("[data-testid=hand] [data-card]").evaluate_all(
                "n => n.map(c => c.dataset.card)"
            )
            assert seen[who]
            if handoffs >= 4:
                break
        ids = side_action_ids(page)
        choice = next((a for a in ids if a.startswith("play:")), ids[0])
        page.click(f"{SIDE_ACTIONS}[data-action='{choice}']")
        settle(page)
    assert handoffs >= 4
    assert set(seen) == {"Ann", "Bob"}
    assert not set(seen["Ann"]) & set(seen["Bob"])


# ----- settings ---------------------------------------------------------------------------------


@own_page
def test_settings_and_seat_names_are_remembered(page, site, open_app):
    open_app(page, site)
    page.click("[data-testid=settings]")
    page.select_option("[data-testid=setting-speed]", "slow")
    page.check("[data-testid=setting-four-colour]")
    page.check("[data-testid=setting-sound]")
    assert page.evaluate("() => document.body.classList.contains('four-colour')")

    open_app(page, site)  # a later visit
    assert page.evaluate("() => document.body.classList.contains('four-colour')")
    page.click("[data-testid=settings]")
    assert page.locator("[data-testid=setting-speed]").input_value() == "slow"
    assert page.is_checked("[data-testid=setting-four-colour]")
    assert page.is_checked("[data-testid=setting-sound]")
    page.click("[data-testid=settings-page] [data-testid=back]")

    start(page, "crisps", names={1: "Grandma"})
    assert "Grandma" in page.locator(".scores").inner_text()
    # The sound made and the four-colour deck drawn: test_sound_is_heard_* and
    # test_four_colour_suits_* below, on a fixed deal.
    open_app(page, site)
    page.click("[data-testid=menu] [data-game=crisps]")
    assert page.locator("[data-testid=seat-name-1]").input_value() == "Grandma"

    page.click("[data-testid=back]")
    page.click("[data-testid=settings]")
    page.uncheck("[data-testid=setting-four-colour]")
    open_app(page, site)
    assert not page.evaluate("() => document.body.classList.contains('four-colour')")


# ----- card faces, backs and sound ---------------------------------------------------------------


def four_suit_crisps():
    """A Crisps deal (seed 1) whose person's hand holds all four suits, a ten and a queen."""
    record = engine.new_game("crisps", 2, 1, {}).to_record()
    hand = engine.new_game("crisps", 2, 1, {}).view(0)["hand"]
    assert {card[-1] for card in hand} == set("SHDC") and "QH" in hand and "10D" in hand
    return record, hand


def to_menu(page) -> None:
    """Back to the menu without a reload (which would start the engine again)."""
    for _ in range(4):
        if page.locator(MENU).first.is_visible():
            return
        for way in ("[data-testid=menu-button]", "[data-testid=back]"):
            if page.locator(way).first.is_visible():
                page.locator(way).first.click()
                break
    page.locator(MENU).first.wait_for()


def to_settings(page) -> None:
    to_menu(page)
    page.click("[data-testid=settings]")


def open_four_suits(page):
    record, hand = four_suit_crisps()
    to_menu(page)
    import_match(page, record, [HUMAN, bot_seat("easy")])
    page.wait_for_selector(IDLE)
    return hand


def hand_faces(page) -> dict[str, dict]:
    """Each hand card's art (the sprite symbol its face uses), colour, corner suit symbol and
    whether its CSS fallback pip shows."""
    return page.locator("[data-testid=hand] .card[data-card]").evaluate_all(
        """nodes => Object.fromEntries(nodes.map(n => [n.dataset.card, {
            art: n.querySelector("svg.card-art use")?.getAttribute("href") || null,
            color: getComputedStyle(n).color,
            suit: n.querySelector(".card-corner-top .card-suit").textContent,
            letter: getComputedStyle(n).getPropertyValue("--suit-letter").trim(),
            pip: getComputedStyle(n.querySelector(".card-pip")).display !== "none",
        }]))"""
    )


def test_card_art_arrives_after_the_table_and_replaces_the_fallback(page, site, open_app):
    asked: list[tuple[int, int]] = []

    def hold(route):
        # When the art is asked for, the first decision's table is already drawn, with CSS
        # faces, and waits for the person (the art never shares the line with the decision).
        idle = page.locator("[data-testid=table][data-busy=false]").count()
        asked.append((page.locator(".card[data-card]").count(), idle))
        route.continue_()

    open_app(page, site)
    page.route("**/cards/deck.svg", hold)
    open_app(page, site)  # a new document: the art not yet in it
    try:
        assert not page.locator("#card-art-sprite").count()
        hand = open_four_suits(page)
        page.locator("[data-testid=hand] .card.has-art").first.wait_for()
        assert asked and asked[0][0] > 0 and asked[0][1] == 1, asked
        faces = hand_faces(page)
        assert set(faces) == set(hand)
        for card, face in faces.items():
            assert face["art"] == f"#f{card}" and not face["pip"], (card, face)
        # Drawn to the card's size: the art fills its card.
        box = page.evaluate(
            """() => { const c = document.querySelector("[data-testid=hand] .card.has-art");
            const a = c.querySelector("svg.card-art").getBoundingClientRect();
            const r = c.getBoundingClientRect();
            return [a.width / r.width, a.height / r.height]; }"""
        )
        assert all(0.95 < v <= 1.01 for v in box), box
        # The corner index, rank and suit as drawn (their glyphs' boxes), within the card's
        # left 24% and top 30%, and its rank at least 12 px tall on a 56 px card.
        index = page.evaluate(
            """() => [...document.querySelectorAll("[data-testid=hand] .card")].map(c => {
                const card = c.getBoundingClientRect();
                const range = document.createRange();
                range.selectNodeContents(c.querySelector(".card-corner-top"));
                const box = range.getBoundingClientRect();
                const rank = c.querySelector(".card-corner-top .card-rank").getBoundingClientRect();
                return { card: c.dataset.card, right: (box.right - card.left) / card.width,
                    bottom: (box.bottom - card.top) / card.height, rank: rank.height / card.width };
            })"""
        )
        for found in index:
            assert found["right"] <= 0.24 and found["bottom"] <= 0.30, found
            assert found["rank"] * 56 >= 12, found
        # The sprite really draws: the queen's picture covers part of her card.
        painted = page.locator("[data-testid=hand] .card[data-card=QH] svg.card-art").evaluate(
            "s => s.querySelector('use').getBBox().width"
        )
        assert painted > 100, painted
    finally:
        page.unroute("**/cards/deck.svg")


def luminance(rgb: tuple[float, float, float]) -> float:
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


# Colour-vision deficiency at full severity (Machado, Oliveira and Fernandes 2009), on
# linear RGB.
CVD = {
    "protanopia": ((0.152, 1.053, -0.205), (0.115, 0.786, 0.099), (-0.004, -0.048, 1.052)),
    "deuteranopia": ((0.367, 0.861, -0.228), (0.280, 0.673, 0.047), (-0.012, 0.043, 0.969)),
    "tritanopia": ((1.256, -0.077, -0.179), (-0.078, 0.931, 0.148), (0.005, 0.691, 0.304)),
}


def simulate(rgb: tuple[float, float, float], matrix) -> tuple[float, ...]:
    lin = [((c / 255 + 0.055) / 1.055) ** 2.4 if c > 10 else c / 255 / 12.92 for c in rgb]
    out = [min(1.0, max(0.0, sum(m * v for m, v in zip(row, lin, strict=True)))) for row in matrix]
    return tuple(255 * (1.055 * v ** (1 / 2.4) - 0.055 if v > 0.0031 else v * 12.92) for v in out)


def test_four_colour_suits_differ_in_colour_shape_and_letter(page, site, open_app):
    open_app(page, site)
    to_settings(page)
    page.check("[data-testid=setting-four-colour]")
    try:
        open_four_suits(page)
        page.locator("[data-testid=hand] .card.has-art").first.wait_for()
        faces = hand_faces(page)
        by_suit = {card[-1]: face for card, face in faces.items()}
        assert set(by_suit) == set("SHDC")
        colours = {
            suit: tuple(float(x) for x in re.findall(r"[\d.]+", face["color"])[:3])
            for suit, face in by_suit.items()
        }
        assert len(set(colours.values())) == 4, colours
        # Apart in greyscale: four lightnesses, at least 20 of 255 from each other.
        greys = sorted(luminance(c) for c in colours.values())
        assert all(b - a >= 20 for a, b in zip(greys, greys[1:], strict=False)), greys
        # Apart for the common colour-vision deficiencies too.
        for name, matrix in CVD.items():
            seen = [simulate(c, matrix) for c in colours.values()]
            for i, a in enumerate(seen):
                for b in seen[i + 1 :]:
                    gap = sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5
                    assert gap >= 25, (name, colours, seen)
        # Not colour alone: each suit its own symbol in the corner, and its letter shown.
        assert len({face["suit"] for face in by_suit.values()}) == 4
        assert all(face["letter"] == "1" for face in by_suit.values()), by_suit
        letters = page.evaluate(
            """() => [...document.querySelectorAll("#card-art-sprite symbol[id^=l]")]
                .map(s => [s.id, s.querySelector("path").getAttribute("d")])"""
        )
        assert len({d for _, d in letters}) == 4 and {i for i, _ in letters} == {
            "lS",
            "lH",
            "lD",
            "lC",
        }
        if SHOTS:  # a picture of the hand in greyscale, to look at
            shot = page.locator("[data-testid=hand]")
            shot.evaluate("e => { e.style.filter = 'grayscale(1)'; }")
            SHOTS.mkdir(parents=True, exist_ok=True)
            shot.screenshot(path=str(SHOTS / "four-colour-greyscale.png"))
            shot.evaluate("e => { e.style.filter = ''; }")
    finally:
        to_settings(page)
        page.uncheck("[data-testid=setting-four-colour]")
    # Two colours again: diamonds red, no letter.
    open_four_suits(page)
    faces = hand_faces(page)
    assert faces["10D"]["color"] == faces["QH"]["color"] and faces["10D"]["letter"] in ("", "0")


def back_colour(page) -> str:
    return page.locator(".game-root .card-back").first.evaluate(
        "e => getComputedStyle(e).backgroundImage"
    )


def test_the_card_backs_setting_changes_the_drawn_backs_at_once_and_is_kept(page, site, open_app):
    open_app(page, site)
    open_four_suits(page)
    claret = back_colour(page)
    assert "122, 38, 51" in claret, claret
    to_settings(page)
    samples = page.locator("[data-testid=setting-back] .card-back").evaluate_all(
        "ns => ns.map(n => getComputedStyle(n).backgroundImage)"
    )
    assert len(set(samples)) == 3, samples  # each choice shows its own back
    try:
        page.check("[data-testid=setting-back-navy]")
        assert page.evaluate("() => document.body.dataset.back") == "navy"
        open_four_suits(page)
        navy = back_colour(page)
        assert navy != claret and "39, 74, 134" in navy, navy
        open_app(page, site)  # a reload: the choice is kept
        page.click("[data-testid=settings]")
        assert page.is_checked("[data-testid=setting-back-navy]")
        page.check("[data-testid=setting-back-green]")
        open_four_suits(page)
        assert "45, 107, 74" in back_colour(page)
    finally:
        to_settings(page)
        page.check("[data-testid=setting-back-claret]")


SOUND_CUES = ["deal", "draw", "play", "shuffle", "turn", "won", "lost"]
"""The table's sounds (web/js/features/sound.js)."""

# Each cue in turn, once the last one has died away: the loudest sample before it and in its
# first 250 ms, as the analyser between the volume and the speakers hears them.
EVERY_CUE = """async (names) => {
  const out = {};
  for (const name of names) {
    for (let i = 0; i < 60 && (await window.__parlourSoundCheck(50)).peak >= 1e-4; i++);
    const quiet = (await window.__parlourSoundCheck(50)).peak;
    out[name] = {quiet, heard: (await window.__parlourSoundCheck(250, name)).peak};
  }
  return out;
}"""


def test_sound_is_heard_when_on_and_only_the_turn_while_hidden(page, site, open_app):
    open_app(page, site)
    to_settings(page)
    page.check("[data-testid=setting-sound]")
    try:
        open_four_suits(page)
        page.evaluate(
            "() => { window.__parlourSounds = [];"
            " window.__heard = window.__parlourSoundCheck(1500); }"
        )
        ids = side_action_ids(page)
        page.click(f"{SIDE_ACTIONS}[data-action='{next(a for a in ids if a.startswith('play:'))}']")
        page.wait_for_selector(IDLE)
        heard = page.evaluate("() => window.__heard")
        assert heard["state"] == "running" and heard["peak"] > 0.02, heard
        made = page.evaluate("() => window.__parlourSounds")
        assert {"name": "play", "made": True} in made, made
        # The card's own cues come to be the recordings (web/sounds/, fetched once Sound is on
        # and the page was touched), the chimes stay drawn; the recordings came from this site.
        page.wait_for_function(
            "() => ['deal', 'draw', 'play', 'shuffle'].every("
            "(n) => window.__parlourSoundKinds()[n] === 'recorded')"
        )
        kinds = page.evaluate("() => window.__parlourSoundKinds()")
        assert [n for n, k in kinds.items() if k == "drawn"] == ["turn", "won", "lost"], kinds
        # Every cue the table sounds is heard on its own: silence, then the cue, then the
        # analyser's peak over its first quarter of a second (the recordings among them).
        cues = page.evaluate(EVERY_CUE, SOUND_CUES)
        assert all(c["quiet"] < 1e-4 and c["heard"] > 0.02 for c in cues.values()), cues
        # Hidden: a move makes no sound, "your turn" still does.
        page.evaluate(
            """() => { window.__parlourSounds = [];
            Object.defineProperty(document, "visibilityState",
                { value: "hidden", configurable: true }); }"""
        )
        ids = side_action_ids(page)
        page.click(f"{SIDE_ACTIONS}[data-action='{plain_choice(ids)}']")
        page.wait_for_selector(IDLE)
        made = page.evaluate("() => window.__parlourSounds")
        assert all(not m["made"] for m in made if m["name"] != "turn"), made
        assert any(m["made"] for m in made if m["name"] == "turn"), made
        page.evaluate("() => delete document.visibilityState")
        # The volume at nought: the sound is started but silent.
        to_settings(page)
        page.locator("[data-testid=setting-volume]").fill("0")
        page.evaluate("() => { window.__parlourSounds = []; }")
        page.locator("[data-testid=setting-volume]").dispatch_event("change")
        # The analyser holds the last 2048 samples (about 43 ms): the turn's chime, still ringing
        # at the old volume a moment ago, is in that window until it has passed.
        page.wait_for_timeout(150)
        assert page.evaluate("() => window.__parlourSoundCheck(400)")["peak"] == 0
        assert {"name": "play", "made": True} in page.evaluate("() => window.__parlourSounds")
    finally:
        to_settings(page)
        page.locator("[data-testid=setting-volume]").fill("70")
        page.locator("[data-testid=setting-volume]").dispatch_event("change")
        page.uncheck("[data-testid=setting-sound]")


# ----- statistics -------------------------------------------------------------------------------


def crisps_record_won_by_seat_0_in_one_move():
    """A Crisps match (seat 0 = the person) whose last action, by seat 0, wins it."""
    for seed in range(1, 200):
        state = engine.new_game("crisps", 2, seed, {})
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        if state.history[-1].player == 0 and state.result()["winners"] == [0]:
            record = state.to_record()
            return record, record["actions"][-1]
    raise AssertionError("no such seed")


@own_page
def test_statistics_count_a_finished_match_once_and_reset(page, site, open_app):
    record, last = crisps_record_won_by_seat_0_in_one_move()
    record = {**record, "actions": record["actions"][:-1]}
    save = saved_match(record, [HUMAN, bot_seat("easy")])
    open_app(page, site)
    page.click("[data-testid=stats]")
    assert page.locator("[data-testid=stats-empty]").is_visible()
    page.evaluate(f"() => {{ {store_script(save)} }}")
    open_app(page, site)
    page.click(resume_button("crisps"))
    page.wait_for_selector(IDLE)
    page.click(f"{SIDE_ACTIONS}[data-action='{last}']")
    page.locator("[data-testid=match-over]").wait_for()

    open_app(page, site)  # a reload after the end counts nothing again
    page.click("[data-testid=stats]")
    row = page.locator("[data-stats-game=crisps] [data-stats-level=easy]")
    stat = lambda name: row.locator(f"[data-stat={name}]").inner_text()  # noqa: E731
    assert (
        stat("played"),
        stat("won"),
        stat("rate"),
        stat("streak"),
        stat("best-streak"),
        stat("best"),
    ) == ("1", "1", "100%", "1", "1", "3")

    with page.expect_download() as download:
        page.click("[data-testid=stats-export]")
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["games"]["crisps"]["easy"]["won"] == 1

    page.click("[data-testid=stats-reset]")
    page.click("[data-testid=stats-reset-no]")
    assert row.is_visible()
    page.click("[data-testid=stats-reset]")
    page.click("[data-testid=stats-reset-yes]")
    assert page.locator("[data-testid=stats-empty]").is_visible()
    open_app(page, site)
    page.click("[data-testid=stats]")
    assert page.locator("[data-testid=stats-empty]").is_visible()


# ----- keyboard only ----------------------------------------------------------------------------


def focused(page, js: str = "e => e"):
    return page.evaluate(
        f"() => {{ const e = document.activeElement; return e ? ({js})(e) : null; }}"
    )


FOCUSABLE = (
    "button:not(:disabled), [href], input:not(:disabled), select:not(:disabled), "
    "[tabindex]:not([tabindex='-1'])"
)


# Which way the nearest element matching a selector lies from the focus, in document order
# (the order Tab follows here): "Tab" when it comes after the focus (or nothing has it).
TOWARDS = """(css) => {
  const focus = document.activeElement;
  const first = document.querySelector(css);
  if (!first || !focus || focus === document.body) return "Tab";
  return first.compareDocumentPosition(focus) & Node.DOCUMENT_POSITION_FOLLOWING
    ? "Tab" : "Shift+Tab";
}"""


def tab_to(page, css: str) -> None:
    """Press Tab (or Shift+Tab, when what matches ``css`` comes before the focus) until the
    focused element matches ``css``, then the other way. Each way goes once round every
    focusable element and the browser's own stops (a leader's side panel may list a hundred
    plays)."""
    limit = page.locator(FOCUSABLE).count() + 5
    first = page.evaluate(TOWARDS, css)
    for key in (first, "Tab" if first == "Shift+Tab" else "Shift+Tab"):
        for _ in range(limit):
            if focused(page, f"e => e.matches({json.dumps(css)})"):
                return
            page.keyboard.press(key)
    where = focused(page, "e => e.outerHTML.slice(0, 200)")
    table = page.evaluate(
        "() => { const t = document.querySelector('[data-testid=table]');"
        " return t ? JSON.stringify(t.dataset) : 'no table'; }"
    )
    hand = page.evaluate(
        "() => (document.querySelector('[data-testid=hand]') || {}).outerHTML?.slice(0, 400)"
    )
    raise AssertionError(
        f"could not reach {css} with the keyboard; the focus is on {where}; "
        f"the table is {table}; the hand is {hand}"
    )


KEYBOARD_MATCH_SEED = 66


def keyboard_turn(page, rng: random.Random) -> None:
    ids = side_action_ids(page)
    plays = [a for a in ids if a.startswith("play:")]
    if plays and not ("pass" in ids and rng.random() < 0.2):
        choice = rng.choice(plays)
        for card in choice[5:].split(","):
            tab_to(page, "[data-testid=hand] button[data-card]")
            size = page.locator("[data-testid=hand] button[data-card]").count()
            for _ in range(size + 1):
                if focused(page, "e => e.dataset.card") == card:
                    break
                page.keyboard.press("ArrowRight")
            assert focused(page, "e => e.dataset.card") == card
            page.keyboard.press("Enter" if rng.random() < 0.5 else " ")
        tab_to(page, f".game-root [data-action='{choice}']")
    else:
        choice = "pass" if "pass" in ids else ids[0]
        tab_to(page, f"[data-action='{choice}']")
    page.keyboard.press("Enter")


@own_page
def test_a_whole_crisps_match_with_the_keyboard_only(page, site, open_app):
    open_app(page, site)
    # A short match (about 30 turns of the person's, where the median deal takes 48), the same
    # on every run whichever seat the person gets.
    deal_next(page, KEYBOARD_MATCH_SEED)
    tab_to(page, "[data-game=crisps]")
    page.keyboard.press("Enter")
    tab_to(page, "[data-testid=seat-1]")
    tab_to(page, "[data-testid=start]")
    page.keyboard.press("Enter")
    rng = random.Random(11)
    for _ in range(600):
        page.wait_for_selector(IDLE)
        if page.locator("[data-testid=match-over]").is_visible():
            break
        if page.locator("[data-testid=round-over]").is_visible():
            assert focused(page, "e => e.dataset.testid") == "continue", (
                "the dialog takes the focus"
            )
            page.keyboard.press("Enter")
            continue
        keyboard_turn(page, rng)
    else:
        raise AssertionError("the match did not end")
    assert focused(page, "e => e.closest('[data-testid=match-over]') !== null")
    # Focus stays inside the dialog.
    for _ in range(5):
        page.keyboard.press("Tab")
        assert focused(page, "e => e.closest('[data-testid=match-over]') !== null")
    tab_to(page, "[data-testid=match-over] button:not([data-testid])")  # back to the menu
    page.keyboard.press("Enter")
    tab_to(page, "[data-testid=stats]")
    page.keyboard.press("Enter")
    played = page.locator("[data-stats-game=crisps] [data-stats-level=normal] [data-stat=played]")
    assert played.inner_text() == "1"


def test_arrow_keys_and_focus_are_visible(page, site, open_app):
    open_app(page, site)
    page.click("[data-testid=menu] [data-game=crisps]")
    page.select_option("[data-testid=order]", "0")  # a leader's side panel lists every play
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    page.keyboard.press("Tab")
    tab_to(page, "[data-testid=hand] button[data-card]")
    first = focused(page, "e => e.dataset.card")
    page.keyboard.press("ArrowRight")
    second = focused(page, "e => e.dataset.card")
    assert second and second != first
    page.keyboard.press("ArrowLeft")
    assert focused(page, "e => e.dataset.card") == first
    page.keyboard.press("End")
    hand = page.locator("[data-testid=hand] button[data-card]").evaluate_all(
        "n => n.map(c => c.dataset.card)"
    )
    assert focused(page, "e => e.dataset.card") == hand[-1]
    outline = focused(page, "e => getComputedStyle(e).outlineStyle")
    assert outline == "solid", "keyboard focus is visible"
    labels = page.locator("[data-testid=hand] button[data-card]").evaluate_all(
        "n => n.map(c => c.getAttribute('aria-label'))"
    )
    assert all(label and " of " in label for label in labels), labels


# Each Tab stop's kind on the table: the hand, a target on the table, a confirm button, the
# side panel, or something else (the bars above the table).
STOP_KIND = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return "none";
  if (e.closest(".game-root [data-testid=hand], .game-root .hand")) return "hand";
  if (e.closest(".game-root [data-testid=controls]")) return "confirm";
  if (e.closest(".game-root")) return "target";
  if (e.closest(".side-panel")) return "side";
  return "other";
}"""


KEYBOARD_DEALS = {"roundup": 21, "progression": 22, "mhing": 23, "crisps": 24, "spite": 25}
"""The deal of each game's keyboard tests: the same table on every run."""
HAND_CARD = ".game-root :is([data-testid=hand], .hand) :is(button, [role=button])[data-card]"


def playable_cards(page) -> set[str]:
    """The hand's cards some move offered now names (a draw first, where the turn starts
    with one: General Mhing's)."""
    for _ in range(3):
        hand = set(page.locator(HAND_CARD).evaluate_all("ns => ns.map(n => n.dataset.card)"))
        ids = side_action_ids(page)
        named = {t for a in ids for t in re.split(r"[:, ]", a)} & hand
        if named:
            return named
        page.click(f"{SIDE_ACTIONS}[data-action='{plain_choice(ids)}']")
        settle(page)
    return set()


WHICH_HAND = """() => {
  const hand = document.activeElement.closest('.game-root [data-testid=hand], .game-root .hand');
  return hand.dataset.testid || hand.className;
}"""


@pytest.mark.parametrize("game", GAMES)
def test_the_hand_is_one_tab_stop_then_targets_confirm_and_the_side_panel(
    page, site, open_app, game
):
    open_app(page, site)
    deal_next(page, KEYBOARD_DEALS[game])
    start(page, game)
    settle(page)
    playable = playable_cards(page)
    assert playable, "a card to play at the person's first decision"
    hand = page.locator(HAND_CARD)
    assert hand.count() >= 2
    assert hand.evaluate_all("ns => ns.filter(n => n.tabIndex === 0).length") == 1
    tab_to(page, HAND_CARD)
    # To a card that can be played now, by the arrow keys alone.
    for _ in range(hand.count() + 1):
        if focused(page, "e => e.dataset.card") in playable:
            break
        page.keyboard.press("ArrowRight")
    visited = focused(page, "e => e.dataset.card || e.outerHTML.slice(0, 120)")
    assert visited in playable, (visited, playable)
    page.keyboard.press("Enter")  # selected: a confirm (Crisps, Mhing) or targets (the others)
    page.wait_for_selector(f"{IDLE} {HAND_CARD}.is-selected")
    assert focused(page, "e => e.dataset.card") == visited
    assert hand.evaluate_all("ns => ns.filter(n => n.tabIndex === 0).map(n => n.dataset.card)") == [
        visited
    ]
    # Tab: another hand of the person's (Roundup's face-down hand) is one stop of its own,
    # then the targets, the confirm buttons and the side panel.
    mine = page.evaluate(WHICH_HAND)
    kinds, hands, stops = [], [], []
    for _ in range(60):
        page.keyboard.press("Tab")
        kinds.append(page.evaluate(STOP_KIND))
        if kinds[-1] == "hand":
            hands.append(page.evaluate(WHICH_HAND))
            stops.append(focused(page, "e => e.outerHTML.slice(0, 160)"))
        if kinds[-1] not in ("hand", "target", "confirm"):
            break
    assert kinds[-1] == "side", kinds
    assert mine not in hands and len(set(hands)) == len(hands), (mine, hands, stops)
    order = ["hand", "target", "confirm", "side"]
    assert [order.index(k) for k in kinds] == sorted(order.index(k) for k in kinds), kinds
    assert "target" in kinds or "confirm" in kinds, kinds
    # Back the same way, to the card visited last.
    for _ in kinds:
        page.keyboard.press("Shift+Tab")
    assert focused(page, "e => e.dataset.card") == visited


def test_a_key_reads_the_table_aloud(page, site, open_app):
    open_app(page, site)
    page.click("[data-testid=menu] [data-game=crisps]")
    page.select_option("[data-testid=order]", "1")  # the computer leads
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    tab_to(page, "[data-testid=hand] button[data-card]")
    lines = page.locator("[data-testid=announcer] p")
    before = lines.count()
    page.keyboard.press("r")
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=announcer] p').length > Math.min(n, 3)",
        arg=before,
    )
    said = lines.last.inner_text()
    assert said.startswith("Your turn."), said
    # The scores in seat order: with the computer leading, North is named first.
    assert re.search(r"Scores: (North \d+, You \d+|You \d+, North \d+)\.", said), said
    assert "Just now: North: North plays" in said or "Just now: North:" in said, said
    assert focused(page, "e => e.dataset.card"), "the focus stays where it was"


IN_VIEW = """() => { const r = document.activeElement.getBoundingClientRect();
  return r.width > 0 && r.top >= -1 && r.bottom <= innerHeight + 1 && r.left >= -1
    && r.right <= innerWidth + 1; }"""


def keyboard_move(page) -> None:
    """One move of the person's made with the keyboard alone, as a player would: the arrow
    keys to a card some move names, Enter to select it, Tab to a lit move that plays it (a
    target or a confirm button), Enter. Each stop scrolled into the window as it takes the
    focus."""
    playable = playable_cards(page)
    assert playable, "a card to play"
    card = sorted(playable)[0]
    # Tab to the Tab stop of the hand that holds it (Roundup has two), then the arrow keys.
    holder = f".game-root .hand:has([data-card='{card}'])"
    tab_to(page, f"{holder} [data-card][tabindex='0']")
    for _ in range(page.locator(f"{holder} [data-card]").count() + 1):
        assert page.evaluate(IN_VIEW), "the focused card is out of the window"
        if focused(page, "e => e.dataset.card") == card:
            break
        page.keyboard.press("ArrowRight")
    assert focused(page, "e => e.dataset.card") == card
    logged = page.locator(".log-list li").count()
    page.keyboard.press("Enter")
    # Selected; or played at once, where the card has one move (a Roundup card to its stack).
    page.wait_for_function(
        """([idle, n]) => document.querySelector(idle)
          || document.querySelectorAll('.log-list li').length > n""",
        arg=[f"{IDLE} {HAND_CARD}.is-selected", logged],
    )
    if page.locator(".log-list li").count() > logged:
        return
    lit = page.locator(".game-root [data-action]:not([disabled])").evaluate_all(
        "ns => ns.map(n => n.dataset.action)"
    )
    moves = [a for a in lit if card in re.split(r"[:, ]", a)] or lit
    assert moves, f"nothing on the table plays {card}"
    tab_to(page, f".game-root [data-action='{moves[0]}']")
    assert page.evaluate(IN_VIEW), "the focused move is out of the window"
    page.keyboard.press("Enter")


@pytest.mark.parametrize("game", GAMES)
def test_at_200_percent_zoom_the_table_is_still_played_by_keyboard(page, site, open_app, game):
    """A 1280x800 laptop at 200% zoom is a 640x400 window of CSS pixels: the table is read
    aloud, and two moves are made with the keyboard alone, each stop in the window, nothing
    wider than it and no word cut off."""
    open_app(page, site)
    page.set_viewport_size({"width": 640, "height": 400})
    try:
        deal_next(page, KEYBOARD_DEALS[game])
        start(page, game)
        settle(page)
        assert offenders(page, "1280x800") == {}
        tab_to(page, HAND_CARD)
        lines = page.locator("[data-testid=announcer] p")
        before = lines.count()
        page.keyboard.press("r")
        page.wait_for_function(
            "n => document.querySelectorAll('[data-testid=announcer] p').length > Math.min(n, 3)",
            arg=before,
        )
        said = lines.last.inner_text()
        assert said.startswith("Your turn.") and "Scores: " in said, said
        for _ in range(2):
            logged = page.locator(".log-list li").count()
            keyboard_move(page)
            page.wait_for_function(
                "n => document.querySelectorAll('.log-list li').length > n", arg=logged
            )
            settle(page)
            assert offenders(page, "1280x800") == {}
    finally:
        page.set_viewport_size({"width": 1280, "height": 800})


# Every moment the table says the person can act on a computer's turn, from now on (what the
# announcer said then), in window.__idleOnBotTurn; window.__idleWatch stops the watch.
IDLE_ON_A_BOT_TURN = """() => {
  window.__idleOnBotTurn = [];
  window.__idleWatch = new MutationObserver(() => {
    const table = document.querySelector("[data-testid=table]");
    if (!table || table.dataset.busy !== "false" || table.dataset.botTurn !== "true") return;
    if (document.querySelector("[data-testid=round-over], [data-testid=match-over]")) return;
    window.__idleOnBotTurn.push(document.querySelector("[data-testid=announcer]")?.innerText || "");
  });
  window.__idleWatch.observe(document, { subtree: true, childList: true, attributes: true });
}"""


def test_the_table_is_never_idle_on_a_computers_turn(page, site, open_app):
    """Between a reply and the computer's move the table stays busy: the person cannot act,
    and the keyboard's focus is not sent to a hand that is about to change. Watched from the
    menu on, before the match starts."""
    open_app(page, site)
    page.evaluate(IDLE_ON_A_BOT_TURN)
    try:
        page.click("[data-testid=menu] [data-game=crisps]")
        page.select_option("[data-testid=order]", "1")  # the computer leads
        page.click("[data-testid=start]")
        moves = 0
        for _ in range(40):
            ids = next_turn(page)
            if ids is None:
                break
            assert page.get_attribute("[data-testid=table]", "data-bot-turn") == "false"
            page.click(f"{SIDE_ACTIONS}[data-action='{plain_choice(ids)}']")
            moves += 1
        assert moves >= 10
        assert page.evaluate("window.__idleOnBotTurn") == []
    finally:
        page.evaluate("() => window.__idleWatch.disconnect()")


PRESS_AND_LOOK = """(id) => {
  const table = () => document.querySelector("[data-testid=table]");
  const before = table();
  document.querySelector(`[data-testid=actions] [data-action="${id}"]`).click();
  const moves = [...document.querySelectorAll("[data-testid=actions] [data-action]")];
  return {busy: table().dataset.busy, off: moves.length > 0 && moves.every((b) => b.disabled),
          inPlace: table() === before};
}"""


def test_a_sent_move_turns_the_table_busy_at_once(page, site, open_app):
    """The page draws what engine replies bring at the next frame, once for all of them, but
    a move sent turns the table busy in the same task as the press: its moves are off before
    the engine has answered, so a second press cannot be sent."""
    open_app(page, site)
    page.click("[data-testid=menu] [data-game=crisps]")
    page.click("[data-testid=start]")
    ids = next_turn(page)
    assert ids
    logged = page.locator(".log-list li").count()
    assert page.evaluate(PRESS_AND_LOOK, plain_choice(ids)) == {
        "busy": "true",
        "off": True,
        "inPlace": True,  # the table is updated where it is, not put in anew
    }
    # The reply is drawn in its turn: the move is in the log and the table idle again.
    page.wait_for_selector(IDLE)
    assert page.locator(".log-list li").count() > logged


# ----- screen readers and motion ----------------------------------------------------------------


def test_a_bot_move_is_announced_in_a_polite_live_region(page, site, open_app):
    open_app(page, site)
    page.click("[data-testid=menu] [data-game=crisps]")
    page.select_option("[data-testid=order]", "1")  # the computer leads
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    region = page.locator("[data-testid=announcer]")
    assert region.get_attribute("aria-live") == "polite"
    text = region.inner_text()
    assert "North plays" in text, text
    assert "Your turn." in text, text


# Every card's travel (web/js/ui/motion.js) as it starts: the card, its duration, its delay and
# when; each travel's animation as the script starts it (Element.animate watched, read by
# SET_OFF: a table redrawn in the same task replaces the element before the observer reads
# it); and
# every moment the table was drawn idle (the person's turn) with a card still in flight.
WATCH_TRAVEL = """() => {
  window.__travels = [];
  window.__travelAnimations = [];
  window.__idleInFlight = [];
  if (!window.__animateWatched) {
    window.__animateWatched = true;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...args) {
      const a = animate.apply(this, args);
      const card = this.dataset && this.dataset.moving ? this.dataset.card : null;
      if (card) window.__travelAnimations.push([card, a]);
      return a;
    };
  }
  if (window.__travelWatch) window.__travelWatch.disconnect();
  window.__travelWatch = new MutationObserver((records) => {
    for (const r of records) {
      const e = r.target;
      if (r.type === 'attributes' && e.dataset.moving === 'true') {
        const a = e.getAnimations()[0];
        window.__travels.push({card: e.dataset.card, at: performance.now(),
          ms: a ? a.effect.getTiming().duration : null,
          delay: a ? a.effect.getTiming().delay : null});
      }
    }
    const idle = document.querySelector('[data-testid=table][data-busy=false]');
    const flying = [...document.querySelectorAll('.game-root [data-moving]')];
    if (idle && flying.length) window.__idleInFlight.push(flying.map((f) => f.dataset.card));
  });
  window.__travelWatch.observe(document.getElementById('app'), {subtree: true, childList: true,
    attributes: true, attributeFilter: ['data-moving', 'data-busy']});
}"""

# Each card's first travel: its delay and when it set off (its animation's start plus its
# delay), by card.
SET_OFF = """() => {
  const out = {};
  for (const [card, a] of window.__travelAnimations) {
    if (card in out || a.startTime === null) continue;
    const delay = a.effect.getTiming().delay;
    out[card] = {delay, at: a.startTime + delay};
  }
  return out;
}"""

CARD_ANIMATIONS = """() => document.getAnimations()
  .filter((a) => a.playState === 'running' && a.effect && a.effect.target
    && a.effect.target.closest && a.effect.target.closest('.game-root .card'))
  .map((a) => a.effect.target.dataset.card || a.effect.target.className)"""


FORCED = "?speed=0&snapshot=0"
"""The page address the module's page was opened at (``app_url``): "Instant", forced."""


def set_speed(page, speed: str) -> None:
    """The Speed setting, chosen on the settings screen from the menu, as a person does."""
    page.click("[data-testid=menu] [data-testid=settings]")
    page.select_option("[data-testid=setting-speed]", speed)
    page.click("[data-testid=settings-page] [data-testid=back]")


def a_played_move(page, speed: str) -> dict:
    """At ``speed``, a Crisps match the person leads: the person plays a card; returns the
    travels seen until the person's next turn, and whether the table went idle with a card
    still in flight."""
    set_speed(page, speed)
    deal_next(page, 71)
    page.click("[data-testid=menu] [data-game=crisps]")
    page.select_option("[data-testid=order]", "0")  # the person leads
    page.evaluate(WATCH_TRAVEL)
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    # The new match's deal: the person's hand, each card from the pile, landed before the turn.
    dealt = page.evaluate(
        """() => ({travels: window.__travels, idleInFlight: window.__idleInFlight,
          hand: [...document.querySelectorAll('.game-root [data-testid=hand] [data-card]')]
            .map((e) => e.dataset.card)})"""
    )
    dealt["setOff"] = page.evaluate(SET_OFF)
    page.evaluate(WATCH_TRAVEL)
    play = next(a for a in side_action_ids(page) if a.startswith("play:"))
    page.click(f"{SIDE_ACTIONS}[data-action='{play}']")
    page.wait_for_selector(f"{IDLE}:not([data-bot-turn=true])", timeout=30_000)
    page.wait_for_function("() => !document.querySelector('.game-root [data-moving]')")
    seen = page.evaluate("() => ({travels: window.__travels, idleInFlight: window.__idleInFlight})")
    page.click("[data-testid=menu-button]")
    return {**seen, "dealt": dealt}


def test_cards_travel_at_the_chosen_speed_and_land_before_the_persons_turn(page, site, open_app):
    """With the page address no longer forcing "Instant": at each Speed setting a new match's
    hand is dealt card by card, a played card travels to the trick and the computer's answer
    travels too, for a time that the setting divides (Fast twice as quick as Normal, Slow
    twice as slow), the computer waiting longer at a slower speed before it moves; and the
    table says it is the person's turn only once every card has landed. With reduced motion
    asked for, no card travels at all (nor is dealt) and the table's cards are in place as
    soon as the move is drawn."""
    open_app(page, site)
    # The Speed setting rules once the address no longer forces a speed.
    page.evaluate("() => history.replaceState(null, '', location.pathname + '?snapshot=0')")
    ms = {"slow": 760, "normal": 380, "fast": 190}
    try:
        seen = {speed: a_played_move(page, speed) for speed in ms}
        for speed, found in seen.items():
            deal = found.pop("dealt")
            assert deal["idleInFlight"] == [], (speed, deal)
            # Every card of the hand travelled from the pile, for the speed's time (a table
            # redrawn while the deal is under way carries it on: a card's travel may be over,
            # or its element replaced, before the watcher reads its timing).
            assert {t["card"] for t in deal["travels"]} == set(deal["hand"]), (speed, deal)
            timed = [t for t in deal["travels"] if t["ms"] is not None]
            assert timed and {t["ms"] for t in timed} == {ms[speed]}, (speed, deal)
            # Card by card: in the hand's order each sets off a stagger after the one before
            # (a sixth of a card's travel, at most 70 ms), and so each starts later.
            off = [deal["setOff"][c] for c in deal["hand"] if c in deal["setOff"]]
            assert len(off) == len(deal["hand"]) >= 3, (speed, deal)
            step = min(70, ms[speed] / 6)
            gaps = [b["delay"] - a["delay"] for a, b in itertools.pairwise(off)]
            assert off[0]["delay"] == 0 and all(abs(g - step) < 0.5 for g in gaps), (speed, off)
            assert all(b["at"] > a["at"] for a, b in itertools.pairwise(off)), (speed, off)
        for speed, found in seen.items():
            assert found["idleInFlight"] == [], (speed, found["idleInFlight"])
            assert len(found["travels"]) >= 2, (
                speed,
                found["travels"],
            )  # the person's and the computer's
        durations = {speed: {t["ms"] for t in found["travels"]} for speed, found in seen.items()}
        assert durations == {speed: {t} for speed, t in ms.items()}, durations
        # The computer's card starts after the person's has landed and the computer's pause
        # (600 ms at Normal, divided by the speed's factor): each at least that long after,
        # whatever the computer's thinking adds on a busy box.
        pause = {"slow": 1200, "normal": 600, "fast": 300}
        gaps = {}
        for speed, found in seen.items():
            first, later = found["travels"][0], found["travels"][-1]
            gaps[speed] = later["at"] - first["at"]
        assert all(gaps[speed] >= ms[speed] + pause[speed] for speed in ms), gaps

        page.emulate_media(reduced_motion="reduce")
        calm = a_played_move(page, "normal")
        assert calm["dealt"]["travels"] == [] and calm["dealt"]["hand"], calm
        assert {**calm, "dealt": None} == {"travels": [], "idleInFlight": [], "dealt": None}, calm
        assert page.evaluate(CARD_ANIMATIONS) == []
    finally:
        page.emulate_media(reduced_motion="no-preference")
        set_speed(page, "normal")
        page.evaluate(
            "() => history.replaceState(null, '', location.pathname + '?speed=0&snapshot=0')"
        )


@own_page
def test_reduced_motion_turns_the_pages_transitions_off(page, site, open_app):
    """The stylesheet's side of reduced motion: no transition or animation on the page's
    buttons (the cards' travel is the script's, checked above)."""
    page.emulate_media(reduced_motion="reduce")
    open_app(page, site, query="")
    start(page, "crisps")
    styles = page.locator("button").first.evaluate(
        "e => [getComputedStyle(e).transitionProperty, getComputedStyle(e).animationName]"
    )
    assert styles == ["all", "none"] or styles[0] in ("none", "all") and styles[1] == "none", styles
    duration = page.locator("button").first.evaluate("e => getComputedStyle(e).transitionDuration")
    assert set(duration.replace(" ", "").split(",")) == {"0s"}, duration


# ----- layout -----------------------------------------------------------------------------------


TABLE_SEEDS = {game: 60 + i for i, game in enumerate(GAMES)}
"""The deal of each game's table in the layout test below."""


@pytest.mark.parametrize("size", [(375, 667), (1280, 800)], ids=["phone", "desktop"])
def test_every_table_fits_without_sideways_scrolling(page, site, open_app, size):
    """One page per screen size: every game's set-up and table (for a few moves), then the
    statistics and settings screens, from the menu each time."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_app(page, site)
    for game in GAMES:
        check_a_table_fits(page, game, size)


def check_a_table_fits(page, game: str, size: tuple[int, int]) -> None:
    assert no_horizontal_overflow(page), "menu"
    deal_next(page, TABLE_SEEDS[game])  # the same deal and moves on every run
    page.click(f"[data-testid=menu] [data-game={game}]")
    assert no_horizontal_overflow(page), f"{game} set-up"
    page.click("[data-testid=start]")
    for _ in range(3):
        settle(page)
        assert no_horizontal_overflow(page), f"{game} table"
        ids = side_action_ids(page)
        if not ids:
            break
        drawer = page.locator("[data-testid=moves-drawer]:not([open]) summary")
        if drawer.count():  # a narrow screen folds a long list of moves into a drawer
            drawer.click()
        page.click(f"{SIDE_ACTIONS}[data-action='{plain_choice(ids)}']")
    settle(page)
    if SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{game}-{size[0]}x{size[1]}.png"), full_page=True)
    assert no_horizontal_overflow(page), f"{game} table"
    wide = page.evaluate("""() => [...document.querySelectorAll('#app *')]
        .filter(e => {
          const r = e.getBoundingClientRect();
          return r.width && r.right > window.innerWidth + 1;
        })
        .filter(e => !e.closest('.stats-scroll, .log-list, .action-list'))
        .slice(0, 5).map(e => e.className || e.tagName)""")
    assert not wide, f"{game}: elements past the right edge: {wide}"
    unnamed = page.evaluate("""() => [...document.querySelectorAll(
          '.game-root button, [data-action], .game-root [data-card]')]
        .filter(e => !(e.getAttribute('aria-label') || e.textContent).trim()
                     || (e.dataset.card && !/ of |Joker/.test(e.getAttribute('aria-label') || '')))
        .slice(0, 5).map(e => e.outerHTML.slice(0, 120))""")
    assert not unnamed, f"{game}: cards and buttons need spoken names: {unnamed}"
    page.click("[data-testid=menu-button]")
    for screen in ("stats", "settings"):
        page.click(f"[data-testid=menu] [data-testid={screen}]")
        assert no_horizontal_overflow(page), screen
        page.click(f"[data-testid={screen}-page] [data-testid=back]")

"""The table as a person sees it: cards that travel, the last move marked, hidden events told,
a round's end left on the table, and every game at a phone's and a small desktop's size.

Positions come from random playouts (seat 0 is the person), opened from the menu as match
files. The tests share one page (``SHARED_PAGE``); the ones that watch cards travel load the
app once more with ``?speed=1``. Screenshots of every table at both sizes are written to
``table-view/`` in the folder that ``PARLOUR_SCREEN_SHOTS=dir`` names, when it does.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable

import pytest
from pagehelpers import (
    HAND_CARDS,
    IDLE,
    MENU,
    SIDE_ACTIONS,
    click_card,
    import_match,
    open_record,
    read_save,
    resume_button,
)
from screenwalk import SHOTS as WANTED_SHOTS

import engine
from engine.cards import card_name

SHARED_PAGE = True

SHOTS = WANTED_SHOTS / "table-view" if WANTED_SHOTS else None
"""Where pictures of the tables go, when asked for (e2e/screenwalk.py): to look at, not
checked, and each costs the page a paint and an encoding."""
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
GAMES = ["crisps", "progression", "mhing", "roundup", "spite"]
ROUND_OVER = "[data-testid=round-over]"
MESSAGE = "[data-testid=message]"


def seats(players: int) -> list[dict]:
    out = [{"type": "human", "name": "You"}]
    out += [{"type": "bot", "level": "random", "name": f"Bot {i}"} for i in range(1, players)]
    return out


def playout(
    game: str,
    seed: int,
    stop: Callable[[engine.core.State], bool],
    limit: int = 3000,
    options: dict | None = None,
):
    """A random playout of ``game`` (with ``options``) up to the first position with the
    person (seat 0) to move where ``stop(state)``; that state, or None."""
    players = engine.GAMES[game].default_players
    state = engine.new_game(game, players, seed, options)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_over:
            return None
        if state.current_player == 0 and stop(state):
            return state
        state.apply(rng.choice(state.legal_actions()))
    return None


def find(
    game: str,
    stop: Callable[[engine.core.State], bool],
    seeds=range(1, 60),
    options: dict | None = None,
):
    for seed in seeds:
        state = playout(game, seed, stop, options=options)
        if state is not None:
            return state
    raise AssertionError(f"no {game} position found")


def rounds_done(state) -> int:
    return len(state.result().get("rounds") or [])


OWN_CARDS = ", ".join(
    f".game-root {where} [data-card]"
    for where in ("[data-testid=hand]", "[data-testid=my-face-down]", "[data-testid=my-face-up]")
)
"""The person's cards wherever the table shows them (Roundup's bidding shows them face down)."""


def own_cards(view: dict) -> list[str]:
    """The person's cards as the hand shows them: Roundup's face-down and face-up ones."""
    if isinstance(view.get("hand"), list):
        return sorted(view["hand"])
    return sorted(view["face_down"] + view["face_up"][view["viewer"]])


def round_ender(state) -> str | None:
    """A move of the person's that ends the round, with the match going on."""
    for action in state.legal_actions():
        world = state.clone()
        world.apply(action.id)
        if rounds_done(world) > rounds_done(state) and not world.is_over:
            return action.id
    return None


@functools.cache
def ending_a_round(game: str):
    """A position of ``game`` where the person's move ends a round and the match goes on
    (found once for the module's tests)."""
    return find(game, lambda s: round_ender(s) is not None, seeds=range(1, 40))


def open_state(page, site, open_app, state, query: str = "?speed=0") -> None:
    open_record(page, site, open_app, state.to_record(), seats(state.players), query)


def in_view(page, selector: str) -> dict:
    """Whether every element matching ``selector`` that is shown lies within the window as it
    is now (a button folded away in a closed <details> is not shown)."""
    return page.evaluate(
        """(sel) => {
          const els = [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility());
          const out = els.filter((e) => {
            const r = e.getBoundingClientRect();
            return r.top < -1 || r.bottom > window.innerHeight + 1
              || r.left < -1 || r.right > window.innerWidth + 1;
          });
          const names = out.map((e) => e.dataset.card || e.className);
          return {count: els.length, outside: names.slice(0, 5)};
        }""",
        selector,
    )


def no_sideways_scroll(page) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


# ----- phone and small desktop -----------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_every_table_keeps_the_hand_and_its_buttons_on_the_first_screen(page, site, open_app, size):
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    if SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
    open_app(page, site)
    for game in GAMES:
        state = find(game, lambda s: len(s.history) >= 8)
        import_match(page, state.to_record(), seats(state.players))
        assert page.evaluate("window.scrollY") == 0
        if SHOTS:
            page.screenshot(path=str(SHOTS / f"{game}-{width}x{height}.png"))
        assert no_sideways_scroll(page), f"{game} scrolls sideways at {size}"
        hand = in_view(page, f"{HAND_CARDS}, [data-testid=my-face-down] [data-card]")
        assert hand["count"] and not hand["outside"], f"{game} at {size}: hand cut off {hand}"
        controls = in_view(page, "[data-testid=controls]")
        assert controls["count"] == 1 and not controls["outside"], f"{game} at {size}: {controls}"
        # With a card selected, its confirm button is on the screen too.
        pick = page.locator(".game-root [data-testid=hand] button[data-card]:not([disabled])")
        if pick.count():
            click_card(pick.first)
            page.wait_for_selector(IDLE)
            buttons = in_view(page, "[data-testid=controls] button")
            assert not buttons["outside"], f"{game} at {size}: {buttons}"
        # The status bar is on the first screen with the table (e2e/test_fit.py checks that
        # the whole table fits, at every size).
        bar = in_view(page, ".status-line")
        assert bar["count"] == 1 and not bar["outside"], f"{game} at {size}: status bar gone"
        if size == "phone":
            assert page.locator("[data-testid=log][open]").count() == 0, "the log is a drawer"
            if len(page.locator(SIDE_ACTIONS).all()) > 6:
                assert page.locator("[data-testid=moves-drawer]:not([open])").count() == 1
        page.click("[data-testid=menu-button]")


def test_new_badge_stays_on_one_line_above_the_card(page, site, open_app):
    state = find("mhing", lambda s: s.view(0)["phase"] == "play" and s.view(0).get("drawn"))
    open_state(page, site, open_app, state)
    badge = page.evaluate(
        """() => { const card = document.querySelector('.mhing-hand .card.is-drawn');
          const after = getComputedStyle(card, '::after');
          return {text: after.content, space: after.whiteSpace, height: parseFloat(after.height),
                  font: parseFloat(after.fontSize)}; }"""
    )
    assert badge["text"] == '"new"' and badge["space"] == "nowrap", badge
    assert badge["height"] < 2 * badge["font"], badge


def test_progression_labels_what_each_stack_number_means(page, site, open_app):
    state = find(
        "progression",
        lambda s: (
            any(s.view(0)["public_stacks"].values())
            and any(s.view(0)["private_stacks"][0].values())
        ),
    )
    open_state(page, site, open_app, state)
    # What a person reads on a laptop: each of their own stacks that has cards says "value N"
    # (an opponent's small tile shows the number, its meaning spoken and in its tooltip).
    page.set_viewport_size({"width": 1280, "height": 800})
    mine = page.locator("[data-testid=my-stacks] [data-testid=stack-value]").all_inner_texts()
    own = [len(v) for v in state.view(0)["private_stacks"][0].values()]
    shown = [" ".join(v.split()) for v, n in zip(mine, own, strict=True) if n]
    assert shown and all(re.fullmatch(r"value -?\d+", v) for v in shown), mine
    counts = page.locator("[data-testid=stack-count]").all_inner_texts()
    assert any(c.endswith(("card", "cards")) for c in counts), counts
    assert all(c == "empty" or c.endswith(("card", "cards")) for c in counts), counts


def test_hint_replaces_the_selection(page, site, open_app):
    state = find("progression", lambda s: s.view(0)["phase"] == "play" and len(s.history) > 6)
    open_state(page, site, open_app, state)
    click_card(page.locator(HAND_CARDS).first)
    page.wait_for_selector(f"{HAND_CARDS}.is-selected")
    page.click("[data-testid=hint]")
    page.wait_for_selector(f"{SIDE_ACTIONS}.is-hinted")
    page.wait_for_selector(IDLE)
    hinted = page.locator(f"{SIDE_ACTIONS}.is-hinted").get_attribute("data-action")
    selected = page.locator(f"{HAND_CARDS}.is-selected").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )
    assert len(selected) <= 1, selected
    if selected:
        assert hinted.endswith(selected[0]), (hinted, selected)
    lit = page.locator(f"{HAND_CARDS}.is-hinted, {HAND_CARDS}.is-selected").evaluate_all(
        "nodes => [...new Set(nodes.map(n => n.dataset.card))]"
    )
    # Exactly the hinted move's card from the hand is lit (none for a draw), not two moves.
    kind, _, card = hinted.partition(":")
    assert lit == ([card] if kind in ("play", "public") else []), f"hint {hinted}, lit {lit}"


@pytest.mark.parametrize("game", ["mhing", "crisps"])
def test_tab_from_a_selected_card_reaches_its_confirm_button_past_the_targets(
    page, site, open_app, game
):
    if game == "mhing":
        state = find("mhing", lambda s: s.view(0)["phase"] == "play")
    else:
        state = find("crisps", lambda s: any(a.id.startswith("play:") for a in s.legal_actions()))
    open_state(page, site, open_app, state)
    card = page.locator(".game-root [data-testid=hand] button[data-card].is-playable").first
    if not card.count():
        card = page.locator(".game-root [data-testid=hand] button[data-card]").first
    click_card(card)
    page.wait_for_selector(f"{HAND_CARDS}.is-selected")
    # Tab leaves the hand (one stop) and passes only the table's targets on its way.
    stops = []
    for _ in range(30):
        page.keyboard.press("Tab")
        stops.append(
            page.evaluate(
                """() => { const el = document.activeElement;
              return {inControls: Boolean(el.closest('[data-testid=controls]')),
                      inGame: Boolean(el.closest('.game-root')), card: el.dataset.card || null,
                      inHand: Boolean(el.closest('[data-testid=hand]'))}; }"""
            )
        )
        if stops[-1]["inControls"] or not stops[-1]["inGame"]:
            break
    assert stops[-1]["inControls"], stops
    assert not any(stop["inHand"] for stop in stops), stops


# ----- moves you can see -------------------------------------------------------------------------


def test_a_played_card_travels_to_the_trick_and_the_last_move_stays_marked(page, site, open_app):
    state = find(
        "crisps",
        lambda s: (
            s.view(0)["phase"] == "play"
            and any(a.id.startswith("play:") and len(a.cards) == 1 for a in s.legal_actions())
        ),
    )
    open_state(page, site, open_app, state, "?speed=0.5")
    play = next(a for a in state.legal_actions() if a.id.startswith("play:") and len(a.cards) == 1)
    card = play.cards[0]
    start = page.locator(f"{HAND_CARDS}[data-card='{card}']").bounding_box()
    page.click(f"{SIDE_ACTIONS}[data-action='{play.id}']")
    moving = page.locator(f"[data-testid=trick] [data-card='{card}'][data-moving=true]")
    moving.wait_for(state="attached")
    # Where it came to rest: inside the trick, marked as the last move.
    rest = page.wait_for_function(
        """(card) => {
          const el = document.querySelector(`[data-testid=trick] [data-card="${card}"]`);
          if (!el || el.dataset.moving) return null;
          const r = el.getBoundingClientRect();
          const t = document.querySelector('[data-testid=trick]').getBoundingClientRect();
          return {inside: r.top >= t.top - 1 && r.bottom <= t.bottom + 1
                    && r.left >= t.left - 1 && r.right <= t.right + 1,
                  marked: el.classList.contains('is-last-move'), top: r.top};
        }""",
        arg=card,
    ).json_value()
    assert start and rest["inside"], (start, rest)
    assert rest["top"] < start["y"], "it went up from the hand to the trick"
    assert rest["marked"], "the person's move is marked until the next one"
    # The computer answers: its cards travel from its seat, and the mark moves to them.
    page.wait_for_selector(IDLE)
    last = page.evaluate(
        "() => [...document.querySelectorAll('.game-root .is-last-move')].map(e => e.dataset.card)"
    )
    message = page.locator(MESSAGE).inner_text()
    if "Bot 1" in message and "pass" not in message:
        assert last and card not in last, (last, message)


def clears_a_complete_stack(state) -> str | None:
    """A Spite and Malice move of the person's after which the stock is rebuilt from the
    centre while a stack complete up to the King is on the table (it leaves the table)."""
    if not any(len(stack) == 13 for stack in state.centre):
        return None
    for action in state.legal_actions():
        world = state.clone()
        world.apply(action.id)
        if world.stock_rebuilds > state.stock_rebuilds:
            return action.id
    return None


# Every copy of a card that leaves the table (web/js/ui/motion.js): its card, where its travel
# ends against the middle of the stock, and whether it is still on the page.
WATCH_LEAVING = r"""() => {
  window.__leaving = [];
  new MutationObserver((records) => {
    for (const r of records) for (const e of r.addedNodes) {
      if (!(e instanceof Element) || !e.classList.contains('card-leaving')) continue;
      const a = e.getAnimations()[0];
      const frames = a ? a.effect.getKeyframes() : [];
      const end = frames.length ? frames[frames.length - 1].transform : '';
      const m = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec(end);
      const r0 = e.getBoundingClientRect();
      const stock = document.querySelector('.game-root [data-testid=stock]')
        .getBoundingClientRect();
      window.__leaving.push({card: e.dataset.card, ghost: e,
        off: m ? [r0.left + r0.width / 2 + Number(m[1]) - (stock.left + stock.width / 2),
                  r0.top + r0.height / 2 + Number(m[2]) - (stock.top + stock.height / 2)] : null});
    }
  }).observe(document.getElementById('app'), {childList: true});
}"""


def test_a_completed_stack_travels_into_the_stock_when_it_leaves_the_table(page, site, open_app):
    state = find("spite", clears_a_complete_stack, seeds=range(1, 20))
    move = clears_a_complete_stack(state)
    complete = [stack[-1] for stack in state.centre if len(stack) == 13]
    open_state(page, site, open_app, state, "?speed=0.5")
    page.evaluate(WATCH_LEAVING)
    page.click(f"{SIDE_ACTIONS}[data-action='{move}']")
    page.wait_for_selector(IDLE)
    page.wait_for_function(
        "() => window.__leaving.length && window.__leaving.every((g) => !g.ghost.isConnected)"
    )
    leaving = page.evaluate("() => window.__leaving.map((g) => ({card: g.card, off: g.off}))")
    assert {g["card"] for g in leaving} >= set(complete), (leaving, complete)
    for g in leaving:
        assert g["off"] and all(abs(v) < 2 for v in g["off"]), g  # it ends on the stock
    stacks = page.locator(".game-root [data-testid=stack]").evaluate_all(
        "nodes => nodes.map((n) => n.dataset.rank)"
    )
    assert "13" not in stacks, stacks


def test_instant_speed_moves_cards_without_travelling(page, site, open_app):
    state = find("crisps", lambda s: any(a.id.startswith("play:") for a in s.legal_actions()))
    open_state(page, site, open_app, state)
    page.evaluate(
        """() => { window.__moving = 0;
          new MutationObserver((list) => { window.__moving += list.length; })
            .observe(document.body, {subtree: true, attributeFilter: ["data-moving"]}); }"""
    )
    play = next(a for a in state.legal_actions() if a.id.startswith("play:"))
    page.click(f"{SIDE_ACTIONS}[data-action='{play.id}']")
    page.wait_for_selector(IDLE)
    assert page.evaluate("window.__moving") == 0
    assert page.locator(f"{HAND_CARDS}[data-card='{play.cards[0]}']").count() == 0


def moves_a_card(state) -> str | None:
    """A move of the person's that takes one of their cards somewhere (not a draw)."""
    for action in state.legal_actions():
        if action.cards and not action.id.startswith("draw"):
            return action.id
    return None


# From the moment it is run, every travel the script starts (web/js/ui/motion.js): a card
# marked data-moving, a copy of a card leaving the table, an animation on any card; the cards
# drawn 24 px or more from where they were (the distance from which a card travels), and the
# first look at ``played`` once it is drawn there.
WATCH_CALM = """(played) => {
  const at = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left + scrollX, r.top + scrollY];
  };
  const before = new Map();
  for (const e of document.querySelectorAll('.game-root [data-card]')) {
    if (!before.has(e.dataset.card)) before.set(e.dataset.card, at(e));
  }
  const seen = (window.__calm = {travels: 0, leaving: 0, animated: [], moved: [], played: null});
  if (window.__calmWatch) window.__calmWatch.disconnect();
  window.__calmWatch = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes' && r.target.dataset.moving) seen.travels += 1;
      for (const e of r.addedNodes) {
        if (e instanceof Element && e.classList.contains('card-leaving')) seen.leaving += 1;
      }
    }
    for (const a of document.getAnimations()) {
      const t = a.effect && a.effect.target;
      if (t && t.closest && t.closest('.game-root .card, .card-leaving')) {
        seen.animated.push(t.dataset.card || t.className);
      }
    }
    for (const e of document.querySelectorAll('.game-root [data-card]')) {
      const card = e.dataset.card;
      const was = before.get(card);
      if (!was) continue;
      const [x, y] = at(e);
      const off = Math.hypot(x - was[0], y - was[1]);
      if (off >= 24 && !seen.moved.includes(card)) seen.moved.push(card);
      if (card === played && !seen.played && off >= 24) {
        seen.played = {off, animations: e.getAnimations().length,
          moving: Boolean(e.dataset.moving)};
      }
    }
  });
  window.__calmWatch.observe(document.getElementById('app'), {subtree: true, childList: true,
    attributes: true, attributeFilter: ['data-moving']});
}"""


def calm(page) -> dict:
    """What WATCH_CALM saw, and the watch stopped."""
    return page.evaluate("() => { window.__calmWatch.disconnect(); return window.__calm; }")


@pytest.mark.parametrize("game", GAMES)
def test_with_reduced_motion_no_card_travels_and_each_is_in_place_at_once(
    page, site, open_app, game
):
    """With reduced motion asked for and the page's speed Normal (not "Instant"), the script
    makes no card travel in any game: the person's card goes where it lands in the first frame
    drawn, the cards the table moves are there at once, the computers' moves follow with no
    travel, a new round is not dealt card by card (the four games with rounds), and Spite and
    Malice's complete stack goes back into the stock with no copy of its cards on the way."""
    spite = game == "spite"
    state = (
        find("spite", clears_a_complete_stack, seeds=range(1, 20))
        if spite
        else find(game, lambda s: moves_a_card(s) is not None)
    )
    move = clears_a_complete_stack(state) if spite else moves_a_card(state)
    assert move
    played = next(a for a in state.legal_actions() if a.id == move).cards[0]
    open_state(page, site, open_app, state)
    address = page.evaluate("() => location.pathname + location.search")
    page.emulate_media(reduced_motion="reduce")
    try:
        page.evaluate("() => history.replaceState(null, '', location.pathname + '?speed=1')")
        page.evaluate(WATCH_CALM, played)
        page.click(f"{SIDE_ACTIONS}[data-action='{move}']")
        page.wait_for_selector(IDLE)
        seen = calm(page)
        assert (seen["travels"], seen["leaving"], seen["animated"]) == (0, 0, []), seen
        # The move did take cards elsewhere: each one that would have travelled is drawn
        # there at once, the person's own card first of all.
        assert seen["moved"], seen
        assert seen["played"], seen
        assert (seen["played"]["animations"], seen["played"]["moving"]) == (0, False), seen
        if spite:
            stacks = page.locator(".game-root [data-testid=stack]").evaluate_all(
                "nodes => nodes.map((n) => n.dataset.rank)"
            )
            assert "13" not in stacks, stacks
            return
        # A new round: dealt at once, the computers' first moves in it with no travel either.
        ender = ending_a_round(game)
        page.click("[data-testid=menu-button]")  # the same page, from its menu
        import_match(page, ender.to_record(), seats(ender.players))
        page.evaluate(WATCH_CALM, "")
        page.click(f"{SIDE_ACTIONS}[data-action='{round_ender(ender)}']")
        page.click(f"{ROUND_OVER} [data-testid=continue]")
        page.wait_for_selector(ROUND_OVER, state="detached")
        page.wait_for_selector(IDLE)
        seen = calm(page)
        assert (seen["travels"], seen["leaving"], seen["animated"]) == (0, 0, []), seen
        assert page.locator(f"{OWN_CARDS}").count() > 0
    finally:
        page.emulate_media(reduced_motion="no-preference")
        page.evaluate("(a) => history.replaceState(null, '', a)", address)


def test_a_card_received_after_a_crisps_pass_is_told(page, site, open_app):
    state = find(
        "crisps",
        lambda s: (
            s.view(0)["phase"] == "play"
            and any(a.id == "pass" for a in s.legal_actions())
            and len(s.view(0)["trick"]) > 0
        ),
    )
    open_state(page, site, open_app, state)
    before = set(state.view(0)["hand"])
    page.click(f"{SIDE_ACTIONS}[data-action='pass']")
    page.wait_for_selector(IDLE)
    hand = set(page.locator(HAND_CARDS).evaluate_all("ns => ns.map(n => n.dataset.card)"))
    if hand - before:
        # Told with the person's own move, or as new in their hand with the computer's next.
        message = page.locator(MESSAGE).inner_text()
        assert "You receive" in message or "New in your hand:" in message, message


def test_roundup_says_when_the_bids_are_shown_and_who_starts(page, site, open_app):
    def last_to_bid(state) -> bool:
        view = state.view(0)
        return view["phase"] == "bid" and sum(view["bid_placed"]) == state.players - 1

    state = find("roundup", last_to_bid)
    open_state(page, site, open_app, state)
    bid = next(a for a in state.legal_actions() if a.id.startswith("bid:"))
    page.click(f"{SIDE_ACTIONS}[data-action='{bid.id}']")
    page.wait_for_selector(IDLE)
    text = page.locator("[data-testid=log]").inner_text() + page.locator(MESSAGE).inner_text()
    assert "bid" in text.lower()
    # The log tells it too, on the last bid's entry: every bid, and who starts.
    note = log_entry(page, len(state.history)).locator("[data-testid=log-note]").inner_text()
    assert "All bids are now shown" in note and "start" in note, note
    world = state.clone()
    world.apply(bid.id)
    if world.current_player == 0:
        message = page.locator(MESSAGE).inner_text()
        assert "All bids are now shown" in message and "start" in message, message


def log_entry(page, index: int):
    """The side panel's log entry of the move with this index in the match's history."""
    return page.locator(f"[data-testid=log] .log-entry[data-index='{index}']")


def test_the_log_names_the_card_a_pass_brought_the_person_and_never_the_opponents(
    page, site, open_app
):
    # Without a face-up card a pass has both players draw blind, within the pass itself.
    def both_draw(state) -> bool:
        if not any(a.id == "pass" for a in state.legal_actions()):
            return False
        world = state.clone()
        world.apply("pass")
        return all(len(world.hands[p]) > len(state.hands[p]) for p in (0, 1))

    state = find("crisps", both_draw, options={"no_faceup_draw": True})
    world = state.clone()
    world.apply("pass")
    mine = [card_name(c) for c in set(world.hands[0]) - set(state.hands[0])]
    theirs = [card_name(c) for c in set(world.hands[1]) - set(state.hands[1])]
    open_state(page, site, open_app, state)
    page.click(f"{SIDE_ACTIONS}[data-action='pass']")
    page.wait_for_selector(IDLE)
    entry = log_entry(page, len(state.history))
    note = entry.locator("[data-testid=log-note]").inner_text()
    assert all(name in note for name in mine) and "You received" in note, (mine, note)
    notes = " ".join(page.locator("[data-testid=log-note]").all_inner_texts())
    for name in theirs:
        assert name not in entry.inner_text() and name not in notes, (name, notes)
    # Kept with the saved match: resumed, the entry still says it.
    assert read_save(page)["page"]["logNotes"], "the notes are saved with the match"
    page.click("[data-testid=menu-button]")
    page.click(resume_button("crisps"))
    page.wait_for_selector(IDLE)
    assert entry.locator("[data-testid=log-note]").inner_text() == note


# ----- a round's end you can look at -------------------------------------------------------------


@pytest.mark.parametrize("game", ["crisps", "mhing", "progression", "roundup"])
def test_the_round_over_dialog_sits_on_the_table_as_the_round_ended(page, site, open_app, game):
    state = ending_a_round(game)
    action = round_ender(state)
    open_state(page, site, open_app, state)
    hand_before = page.locator(HAND_CARDS).count()
    page.click(f"{SIDE_ACTIONS}[data-action='{action}']")
    page.wait_for_selector(ROUND_OVER)
    world = state.clone()
    world.apply(action)
    dealt = world.view(0).get("hand")
    # Behind the dialog: the old round's table, not the new deal.
    shown = page.locator(HAND_CARDS).evaluate_all("ns => ns.map(n => n.dataset.card)")
    if isinstance(dealt, list):
        assert sorted(shown) != sorted(dealt), "the next round is not dealt yet"
    if game == "crisps":
        assert len(shown) < max(hand_before, 1)
    if game in ("mhing", "progression", "roundup"):
        detail = page.locator(
            f"{ROUND_OVER} [data-testid=round-detail], {ROUND_OVER} .prog-summary"
        )
        assert detail.locator(".card").count() > 0, "scoring drawn with cards"
    if game == "mhing":
        # Each seat's matches are named and the sequences they join ringed, as the engine
        # scored them (the check counts both ways: none shown when none were scored).
        scored = world.view(0)["last_round"]["matches"]
        paired = sum(len({i for m in found for i in m["between"]}) for found in scored)
        matched = page.locator(f"{ROUND_OVER} [data-testid=round-sequence][data-matched=true]")
        matches = page.locator(f"{ROUND_OVER} [data-testid=round-matches]")
        assert matches.count() == sum(1 for found in scored if found), scored
        assert matched.count() == paired, scored
    if game == "roundup":
        assert page.locator(f"{ROUND_OVER} [data-testid=round-bid]").count() == state.players
    page.click(f"{ROUND_OVER} [data-testid=view-table]")
    page.wait_for_selector("[data-testid=round-bar]")
    assert page.locator(ROUND_OVER).count() == 0
    page.click("[data-testid=round-bar] [data-testid=view-table]")
    page.wait_for_selector(ROUND_OVER)
    page.click(f"{ROUND_OVER} [data-testid=continue]")
    page.wait_for_selector(IDLE)
    # Continue goes on to the next round: the match saved now is past the round's end, and
    # the hand shown is the person's hand of the new deal there (the computer may have moved
    # first in it).
    now = engine.from_record(read_save(page)["data"]["record"])
    assert len(now.history) > len(state.history) and rounds_done(now) == rounds_done(world)
    shown = page.locator(OWN_CARDS).evaluate_all("ns => [...new Set(ns.map(n => n.dataset.card))]")
    assert sorted(shown) == own_cards(now.view(0)), "Continue deals the next round"


def test_a_reload_under_the_round_over_dialog_brings_it_back_over_that_round(page, site, open_app):
    state = ending_a_round("mhing")
    action = round_ender(state)
    world = state.clone()
    world.apply(action)
    dealt = sorted(world.view(0)["hand"])
    open_state(page, site, open_app, state)
    page.click(f"{SIDE_ACTIONS}[data-action='{action}']")
    page.wait_for_selector(ROUND_OVER)
    title = page.locator(f"{ROUND_OVER} h2").inner_text()
    ended = sorted(page.locator(HAND_CARDS).evaluate_all("ns => ns.map(n => n.dataset.card)"))
    assert ended != dealt
    page.reload()
    page.locator(MENU).first.wait_for(state="visible")
    page.click(resume_button("mhing"))
    page.wait_for_selector(ROUND_OVER)
    page.wait_for_selector(IDLE)
    assert page.locator(f"{ROUND_OVER} h2").inner_text() == title
    shown = page.locator(HAND_CARDS).evaluate_all("ns => ns.map(n => n.dataset.card)")
    assert sorted(shown) == ended, "behind the dialog: the round as it ended, not the new deal"
    page.click(f"{ROUND_OVER} [data-testid=view-table]")
    page.wait_for_selector("[data-testid=round-bar]")
    page.click("[data-testid=round-bar] [data-testid=continue]")
    page.wait_for_selector(IDLE)
    assert page.locator(ROUND_OVER).count() == 0
    # Gone on: the save no longer brings the dialog back.
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('parlour.save.mhing')).page.roundOver === false"
    )
    if world.current_player == 0:
        assert (
            sorted(page.locator(HAND_CARDS).evaluate_all("ns => ns.map(n => n.dataset.card)"))
            == dealt
        )

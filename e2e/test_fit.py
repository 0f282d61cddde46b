"""The table fits the screen it is played on: phones (390x844 and 360x740, touch) and a laptop.

Seeded matches of every game at its largest table are played through the page (seat 0 is the
person, the others random computers). At sampled decisions of the person, at each of the three
sizes, a playable card is selected (when there is one) and the checks are that it, every lit
target (the table's buttons that make a move, the seat targets, the turn's controls) and the
place a game played by button puts it (the trick, the discard pile, the stacks) are inside the
window at the top of the page, uncovered (``document.elementFromPoint`` at their centres finds
them), with the status line readable; that no visible word is split over two lines; and that
the table is drawn to the window (tools/table_figures.py measures it): cards at least 80 px wide
on a laptop and the hand's at least 56 px on a phone, every card of a fanned hand showing at
least 26% of its width and an index at least 12 px tall, no card index and no label covered, no
band of empty felt taller than a tenth of the window, nothing wider than the window; and the
screen walker's checks (e2e/screenwalk.py) at every decision taken: no text under 12 px, no
word cut off, no control under 44x44 px on a phone where the walker measures them, and the
status line in the window with the page scrolled to its foot. The round-over and match-over
dialogs, the menu, the rules pages and the set-up screen are checked for split words too.
Figures per game and size are printed with ``-s``; set ``PARLOUR_FIT_DECISIONS`` to walk more
of each match (the test samples a few).

The three sizes are emulated on one page (Chrome DevTools Protocol: a mobile viewport with
touch, or a desktop one), so the engine starts once for the module.
"""

from __future__ import annotations

import base64
import os
import random
from collections import defaultdict
from pathlib import Path

import pytest
from pagehelpers import (
    IDLE,
    LOOK,
    MATCH_OVER,
    MENU,
    ROUND_OVER,
    import_match,
    random_playout,
    record_near_the_end,
)
from screenwalk import SIZES, clear_window, offenders, set_window, status_out_of_view

import engine
from tools.table_figures import figures

SHARED_PAGE = True

TABLES = {"roundup": 6, "progression": 4, "mhing": 4, "crisps": 2, "spite": 2}
SEEDS = {"roundup": 11, "progression": 12, "mhing": 13, "crisps": 14, "spite": 15}
# The sizes the table's cards are drawn at (tools/table_figures.py measures them): on a laptop
# the hand's and the shared places' cards at least this wide; on a phone the hand's. Every
# card of a fanned hand shows at least this part of its width, with an index this tall, and
# no band of the window this tall (of its height) is empty felt.
LAPTOP_CARD = 80
PHONE_HAND_CARD = 56
FAN_SHOWN = 0.26
INDEX_TALL = 12
EMPTY_BAND = 0.10
DECISIONS = int(os.environ.get("PARLOUR_FIT_DECISIONS", "3"))
"""The person's decisions checked per game, from the start of the match (then a few more
near the end of the match)."""
SHOTS = Path(os.environ["PARLOUR_FIT_SHOTS"]) if os.environ.get("PARLOUR_FIT_SHOTS") else None
"""Where to write a screenshot of each game at each size (its first decision checked)."""
# Where a card goes in a game played by button: shown with the card and its buttons.
PLACES = {
    "crisps": "[data-testid=trick]",
    "mhing": "[data-testid=discard-pile]",
    "roundup": "[data-testid=stacks]",
}

# Everything the person decides with, checked where it is now: inside the window and the
# element found at its centre. Returns the problems, in words.
FITS = """(place) => {
  const problems = [];
  const root = document.querySelector('.game-root');
  if (!root) return ['no table'];
  const name = (e) => e.dataset.action || e.dataset.card || e.dataset.testid
    || String(e.className).split(' ')[0] || e.tagName;
  // A card is checked at its index (its top-left corner, what a fan leaves showing), anything
  // else at its middle.
  const check = (e, what) => {
    if (!e.checkVisibility()) return;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) return;
    if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
      const where = `${Math.round(r.top)}..${Math.round(r.bottom)}`;
      problems.push(`${what} ${name(e)} outside the window (${where})`);
      return;
    }
    const card = e.classList.contains('card');
    const hit = document.elementFromPoint(r.left + r.width * (card ? 0.12 : 0.5),
      r.top + r.height * (card ? 0.15 : 0.5));
    if (!hit || !(hit === e || e.contains(hit))) {
      problems.push(`${what} ${name(e)} covered by ${hit ? name(hit) : 'nothing'}`);
    }
  };
  root.querySelectorAll('.card.is-selected').forEach((e) => check(e, 'selected card'));
  root.querySelectorAll('[data-action]:not([disabled]), [data-testid=target],'
    + ' [data-testid=controls] button:not([disabled])').forEach((e) => check(e, 'target'));
  if (place && root.querySelector('.card.is-selected')) {
    root.querySelectorAll(place).forEach((e) => check(e, 'place'));
  }
  check(document.querySelector('[data-testid=turn]'), 'status');
  const message = document.querySelector('[data-testid=message]');
  const error = document.querySelector('.table-screen [data-testid=error]');
  if (error && !error.hidden) check(error, 'refusal');
  else if (message && !message.hidden) check(message, 'status');
  return problems;
}"""

# Words (runs of non-space characters) of visible text whose range lies on two lines; a
# compound word may break after its hyphen ("face-/down"), as print does, but not elsewhere.
SPLIT_WORDS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const lines = (node, start, end) => {
    range.setStart(node, start);
    range.setEnd(node, end);
    const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
    return tops.length ? Math.max(...tops) - Math.min(...tops) > 2 : false;
  };
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.data.trim() || !el.checkVisibility()) continue;
    const re = /[^\\s-]+-?/g;
    for (let m = re.exec(node.data); m; m = re.exec(node.data)) {
      const word = m[0].replace(/-$/, '');
      if (word.length > 1 && lines(node, m.index, m.index + word.length)) out.push(m[0]);
    }
  }
  return [...new Set(out)];
}"""

# A card to select: a playable one of the person's, else any selectable one, not yet selected.
SELECT = """(pick) => {
  const root = document.querySelector('.game-root');
  const free = 'button.card[data-card]:not([disabled]):not(.is-selected)';
  const cards = [...root.querySelectorAll(free)];
  const playable = cards.filter((c) => c.classList.contains('is-playable'));
  const pool = playable.length ? playable : cards;
  if (!pool.length) return null;
  const card = pool[pick % pool.length];
  card.click();
  return card.dataset.card;
}"""


def emulate(page, size: str) -> None:
    """Give the page the window of ``size`` (screenwalk.set_window): a phone's three device
    pixels to the CSS pixel only where a screenshot is kept, since the layout checked is in CSS
    pixels and painting nine times the pixels of every frame costs the run its time."""
    set_window(page, size, scale=3 if SIZES[size]["mobile"] and SHOTS else 1)


end_emulation = clear_window


def seats(players: int) -> list[dict]:
    out = [{"type": "human", "name": "You"}]
    return out + [{"type": "bot", "level": "random", "name": f"Bot {i}"} for i in range(1, players)]


class Tally:
    """Decisions checked and fitting, per game and size; the problems found, by kind."""

    def __init__(self) -> None:
        self.checked: dict[tuple[str, str], int] = defaultdict(int)
        self.fitting: dict[tuple[str, str], int] = defaultdict(int)
        self.problems: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.splits: dict[tuple[str, str], set[str]] = defaultdict(set)

    def report(self) -> str:
        lines = []
        for key in sorted(self.checked):
            game, size = key
            seen = FIGURES_SEEN[key]
            hand = [w for f in seen for w in f["hand"]] or [0]
            place = [w for f in seen for w in f["place"]] or [0]
            band = max((f["emptyBand"] for f in seen), default=0)
            lines.append(
                f"{game:12s} {size:9s} decisions {self.checked[key]:3d}  fit {self.fitting[key]:3d}"
                f"  hand {min(hand):.0f}-{max(hand):.0f} px"
                f"  places {min(place):.0f}-{max(place):.0f} px"
                f"  empty felt up to {band} px  split words {sorted(self.splits[key])[:8]}"
            )
            for problem in sorted(set(self.problems[key]))[:6]:
                lines.append(f"    {problem}")
        return "\n".join(lines)

    def failures(self) -> list[str]:
        out = []
        for key in sorted(self.checked):
            if self.fitting[key] < self.checked[key]:
                out.append(f"{key}: {sorted(set(self.problems[key]))[:5]}")
        out += [f"{key}: split {sorted(words)}" for key, words in self.splits.items() if words]
        return out


def check_words(page, tally: Tally, key: tuple[str, str]) -> None:
    tally.splits[key] |= set(page.evaluate(SPLIT_WORDS))


def shoot(page, name: str) -> None:
    """A screenshot of the window as it is, when ``PARLOUR_FIT_SHOTS`` asks for them."""
    if SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = page.walk_cdp.send("Page.captureScreenshot", {"format": "png"})
        (SHOTS / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))


def looks(page, game: str, size: str) -> list[str]:
    """What the table's figures say is wrong at ``size``: cards too small, a fan hiding its
    cards' indices, empty felt, sideways overflow, a card index or a label covered."""
    found = figures(page, game)
    if found is None:
        return ["no table"]
    laptop = not SIZES[size]["mobile"]
    problems = [f"index of {c}" for c in found["covered"]] + [f"label {w}" for w in found["labels"]]
    small = LAPTOP_CARD if laptop else PHONE_HAND_CARD
    if found["hand"] and min(found["hand"]) < small:
        problems.append(f"hand cards {min(found['hand'])} px wide")
    place = min(found["place"], default=LAPTOP_CARD)  # none while the places are empty
    if laptop and place < LAPTOP_CARD:
        problems.append(f"the places' cards {place} px wide")
    if found["fanShown"] is not None and found["fanShown"] < FAN_SHOWN:
        problems.append(f"a fanned card shows {found['fanShown']:.2f} of its width")
    if found["indexTall"] is not None and found["indexTall"] < INDEX_TALL:
        problems.append(f"a hand card's index is {found['indexTall']:.1f} px tall")
    if found["emptyBand"] > EMPTY_BAND * SIZES[size]["height"]:
        problems.append(f"{found['emptyBand']} px of empty felt")
    if found["overflow"] > 1:  # a pixel of rounding
        problems.append(f"{found['overflow']} px wider than the window")
    FIGURES_SEEN[(game, size)].append(found)
    return problems


FIGURES_SEEN: dict[tuple[str, str], list[dict]] = defaultdict(list)
"""The figures of every decision checked, for the report printed with ``-s``."""


def walked(page, size: str) -> list[str]:
    """What the screen walker finds wrong with the table at this decision (e2e/screenwalk.py:
    nothing wider than the window, no text under 12 px, no word cut off, on a phone no control
    under 44x44 px), and whether the status line stays in view with the page scrolled to its
    foot."""
    found = [f"{kind}: {item}" for kind, items in offenders(page, size).items() for item in items]
    away = status_out_of_view(page)
    return found + ([f"status: {away}"] if away else [])


def check_decision(page, game: str, tally: Tally, rng: random.Random) -> None:
    """At the person's decision: at each size, select a card and check what fits."""
    pick = rng.randrange(1000)
    for size in SIZES:
        emulate(page, size)
        if not page.locator(".game-root .card.is-selected").count():
            if page.evaluate(SELECT, pick):
                page.wait_for_selector(IDLE)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r()))")
        problems = page.evaluate(FITS, PLACES.get(game)) + looks(page, game, size)
        problems += walked(page, size)
        key = (game, size)
        if not tally.checked[key]:
            shoot(page, f"{game}-{size}")
        tally.checked[key] += 1
        if problems:
            shoot(page, f"{game}-{size}-problem-{tally.checked[key]}")
            tally.problems[key] += problems
        else:
            tally.fitting[key] += 1
        check_words(page, tally, key)


def play(page, game: str, tally: Tally, rng: random.Random, decisions: int) -> bool:
    """Take ``decisions`` of the person's decisions (checking each), choosing at random from
    the side panel; round-over and match-over dialogs are checked for split words at every
    size. True once the match is over."""
    taken = 0
    while taken < decisions:
        page.wait_for_selector(IDLE)
        look = page.evaluate(LOOK)
        if look["matchOver"] or look["roundOver"]:
            dialog = MATCH_OVER if look["matchOver"] else ROUND_OVER
            for size in SIZES:
                emulate(page, size)
                check_words(page, tally, (game, size))
                fits = page.evaluate(
                    """(sel) => [...document.querySelectorAll(sel + ' button')].filter((b) => {
                      b.scrollIntoView({block: 'nearest'});
                      const r = b.getBoundingClientRect();
                      return r.bottom > innerHeight + 1 || r.right > innerWidth + 1; })
                      .map((b) => b.textContent)""",
                    dialog,
                )
                if fits:
                    tally.problems[(game, size)].append(f"dialog buttons cut off: {fits}")
                    tally.checked[(game, size)] += 1
            if look["matchOver"]:
                return True
            page.click(f"{ROUND_OVER} [data-testid=continue]")
            continue
        if not look["ids"]:
            raise AssertionError(f"{game}: the person's turn lists no move")
        check_decision(page, game, tally, rng)
        taken += 1
        choice = rng.choice(look["ids"])
        page.evaluate(
            "(id) => document.querySelector(`[data-testid=actions] [data-action='${id}']`).click()",
            choice,
        )
    return False


@pytest.fixture(scope="module")
def tally():
    found = Tally()
    yield found
    print("\n" + found.report())


@pytest.mark.parametrize("game", list(TABLES))
def test_the_table_fits_every_screen(page, site, open_app, tally, game):
    open_app(page, site)
    rng = random.Random(SEEDS[game])
    players = TABLES[game]
    state = engine.new_game(game, players, SEEDS[game])
    try:
        import_match(page, state.to_record(), seats(players))
        play(page, game, tally, rng, DECISIONS)
        # Near the end of the match: the last round's end and the match-over dialog.
        record = record_near_the_end(game, players, {}, steps_left=6, seeds=range(1, 40))
        page.evaluate("() => document.querySelector('[data-testid=menu-button]').click()")
        page.locator(MENU).first.wait_for()
        import_match(page, record, seats(players))
        play(page, game, tally, rng, DECISIONS)
    finally:
        end_emulation(page)
    failures = [f for f in tally.failures() if f.startswith(f"('{game}'")]
    assert not failures, "\n".join(failures)


CLICK = "(selector) => document.querySelector(selector).click()"
"""A click on a button wherever it is on the page, as the tests here move between screens."""


def touch_drag(page, source: str, target: str) -> None:
    """A finger on ``source`` (near its left edge: a card in an overlapping hand shows that
    much), moved in steps and lifted over ``target`` (touch events, which the browser turns
    into pointer events, as on a phone)."""
    start = page.locator(source).bounding_box()
    end = page.locator(target).bounding_box()
    x0, y0 = start["x"] + min(8, start["width"] / 2), start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2

    def touch(kind: str, points: list[dict]) -> None:
        page.walk_cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", [{"x": x0, "y": y0}])
    for i in range(1, 13):
        touch("touchMove", [{"x": x0 + (x1 - x0) * i / 12, "y": y0 + (y1 - y0) * i / 12}])
    touch("touchEnd", [])


def test_a_card_dragged_with_a_finger_makes_the_move_its_target_makes(page, site, open_app):
    open_app(page, site)
    state = engine.new_game("progression", 4, SEEDS["progression"])
    while state.current_player != 0 or state.view(0)["phase"] != "play":
        state.apply(state.legal_actions()[0].id)
    public = next(a for a in state.legal_actions() if a.id.startswith("public:"))
    card = public.cards[0]
    suit = card.split("#")[0][-1]
    try:
        emulate(page, "390x844")
        import_match(page, state.to_record(), seats(4))
        label = page.locator(f"[data-testid=actions] [data-action='{public.id}']").text_content()
        touch_drag(
            page,
            f".game-root [data-testid=hand] [data-card='{card}']",
            f".game-root [data-drop='public:{suit}']",
        )
        page.wait_for_selector(IDLE)
        assert page.locator(f"[data-testid=public-stacks] [data-card='{card}']").count() == 1
        assert page.locator(f".game-root [data-testid=hand] [data-card='{card}']").count() == 0
        # The log says the move in the words of the side panel's button: the same move.
        log = page.locator(".log-list").text_content()
        assert f"You:{label}" in log.replace("You: ", "You:"), (label, log)
    finally:
        end_emulation(page)


def test_a_face_card_dragged_onto_a_seat_attacks_it(page, site, open_app):
    """Roundup: a Jack dragged with a finger onto a seat makes the attack that seat's button
    makes; a Queen dragged onto a seat takes it as the target, the suit then named."""
    open_app(page, site)
    state = next(
        s
        for s in random_playout("roundup", 3, {}, 1)
        if s.current_player == 0 and {"jack", "queen"} <= {a.kind for a in s.legal_actions()}
    )
    record = state.to_record()
    jack = next(a for a in state.legal_actions() if a.kind == "jack")
    queen = next(a for a in state.legal_actions() if a.kind == "queen" and a.id.endswith(":S"))
    jack_seat, queen_seat = jack.id.split(":")[2], queen.id.split(":")[2]
    hand = ".game-root [data-testid=you]"
    labels: dict[str, str] = {}  # the side panel's words for each move
    log = ".log-list"
    try:
        emulate(page, "390x844")
        import_match(page, record, seats(3))
        labels.update(
            page.eval_on_selector_all(
                "[data-testid=actions] [data-action]",
                "els => Object.fromEntries(els.map((e) => [e.dataset.action, e.textContent]))",
            )
        )
        touch_drag(
            page, f"{hand} [data-card='{queen.cards[0]}']", f"[data-drop='seat:{queen_seat}']"
        )
        # The Queen's seat is its target: the controls ask for the suit, as after its button.
        assert "is-targeted" in page.locator(f"[data-testid=seat-{queen_seat}]").get_attribute(
            "class"
        )
        page.click(f".game-root [data-testid=controls] [data-action='{queen.id}']")
        page.wait_for_selector(IDLE)
        assert page.locator(f"{hand} [data-card='{queen.cards[0]}']").count() == 0
        assert f"You:{labels[queen.id]}" in page.locator(log).text_content().replace(
            "You: ", "You:"
        )
        # The Jack, from the same position again: dropped on its seat, the attack is made.
        page.evaluate(CLICK, "[data-testid=menu-button]")
        page.locator(MENU).first.wait_for()
        import_match(page, record, seats(3))
        logged = page.locator(".log-list li").count()
        touch_drag(page, f"{hand} [data-card='{jack.cards[0]}']", f"[data-drop='seat:{jack_seat}']")
        page.wait_for_function(
            "n => document.querySelectorAll('.log-list li').length > n", arg=logged
        )
        page.wait_for_selector(IDLE)
        assert page.locator(f"{hand} [data-card='{jack.cards[0]}']").count() == 0
        assert f"You:{labels[jack.id]}" in page.locator(log).text_content().replace("You: ", "You:")
    finally:
        end_emulation(page)


def split_words_at_every_size(page) -> dict[str, list[str]]:
    """The split words of the screen as it is, at each size."""
    found = {}
    for size in SIZES:
        emulate(page, size)
        words = page.evaluate(SPLIT_WORDS)
        if words:
            found[size] = words
    return found


def test_no_word_is_split_on_the_other_screens(page, site, open_app):
    """The menu, every rules page and set-up, the analysis beside a table and the coach."""
    open_app(page, site)
    found: dict[str, dict[str, list[str]]] = {}
    try:
        found["menu"] = split_words_at_every_size(page)
        for game in TABLES:
            page.evaluate(CLICK, f"[data-testid=rules][data-rules-game={game}]")
            page.locator("[data-testid=rules-page]").wait_for()
            found[f"{game} rules"] = split_words_at_every_size(page)
            page.evaluate("() => document.querySelector('[data-testid=back]').click()")
            page.locator(MENU).first.wait_for()
            page.evaluate(CLICK, f"[data-testid=menu] [data-game={game}]")
            page.locator("[data-testid=start]").wait_for()
            found[f"{game} set-up"] = split_words_at_every_size(page)
            page.evaluate("() => document.querySelector('[data-testid=back]').click()")
            page.locator(MENU).first.wait_for()
        # The analysis of a move beside a Crisps table.
        state = engine.new_game("crisps", 2, SEEDS["crisps"])
        while state.current_player != 0:
            state.apply(state.legal_actions()[0].id)
        import_match(page, state.to_record(), seats(2))
        page.evaluate("() => document.querySelector('[data-testid=analyse]').click()")
        page.locator("[data-testid=analysis-table]").wait_for(state="attached")
        page.wait_for_selector(IDLE)
        found["analysis"] = split_words_at_every_size(page)
        # The coach of a first round.
        page.evaluate("() => document.querySelector('[data-testid=menu-button]').click()")
        page.locator(MENU).first.wait_for()
        page.evaluate("() => document.querySelector('[data-learn-game=progression]').click()")
        if page.locator("[data-testid=replace-dialog]").count():
            page.click("[data-testid=abandon-save]")
        page.locator("[data-testid=coach-now]").wait_for(state="attached")
        page.wait_for_selector(IDLE)
        found["coach"] = split_words_at_every_size(page)
    finally:
        end_emulation(page)
    split = {screen: words for screen, words in found.items() if words}
    assert not split, split


# The coach's line: inside the window, found at its centre, and its text not cut to nothing.
COACH_LINE = """() => {
  const e = document.querySelector('[data-testid=coach-line-text]');
  if (!e || !e.checkVisibility()) return 'no coach line shown';
  const r = e.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
    return `the coach line is outside the window (${Math.round(r.top)}..${Math.round(r.bottom)})`;
  }
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!hit || !e.contains(hit)) return `the coach line is covered by ${hit && hit.className}`;
  return e.textContent.length > 'Coach: '.length + 10 ? null : 'the coach line says nothing';
}"""


def test_the_coach_is_on_a_phone_screen_at_the_first_decision(page, site, open_app):
    """A coached round of every game on a 390x844 phone: at the person's first decision the
    coach's advice is on the screen, uncovered, with the table fitting as at any decision;
    a touch opens the whole advice, which the table's controls are not moved by. The screen
    walker's checks hold at that decision on both phones."""
    open_app(page, site)
    problems = {}
    try:
        for game in TABLES:
            emulate(page, "390x844")
            page.evaluate(CLICK, f"[data-testid=learn][data-learn-game={game}]")
            page.locator("[data-testid=replace-dialog], [data-testid=coach]").first.wait_for()
            if page.locator("[data-testid=replace-dialog]").count():
                page.evaluate(CLICK, "[data-testid=abandon-save]")
            page.wait_for_selector(f"{IDLE} [data-testid=coach-follow]:not([disabled])")
            page.locator("[data-testid=coach-line-text]").wait_for()
            emulate(page, "390x844")
            line = page.evaluate(COACH_LINE)
            found = [line] if line else []
            shoot(page, f"coach-{game}-390x844")
            # The whole advice, opened with a touch: every message of the coach's panel in it.
            table_top = page.locator(".game-root").bounding_box()["y"]
            page.locator("[data-testid=coach-line-text]").click()
            full = page.locator("[data-testid=coach-line-full]")
            full.wait_for()
            said = page.locator("[data-testid=coach-now] .coach-text").all_text_contents()
            shown = full.text_content()
            if not said or not all(text in shown for text in said):
                found.append(f"the opened line lacks the coach's words: {said}")
            shoot(page, f"coach-{game}-390x844-open")
            if page.locator(".game-root").bounding_box()["y"] != table_top:
                found.append("opening the coach's line moved the table")
            page.locator("[data-testid=coach-line-text]").click()
            full.wait_for(state="hidden")
            # And the table fits with the coach's line, a card picked.
            if page.evaluate(SELECT, 0):
                page.wait_for_selector(IDLE)
            found += page.evaluate(FITS, PLACES.get(game))
            # The screen walker's checks of the coached table's first decision, on both phones.
            found += walked(page, "390x844")
            emulate(page, "360x740")
            found += walked(page, "360x740")
            emulate(page, "1280x800")
            shoot(page, f"coach-{game}-1280x800")
            if page.locator("[data-testid=coach-line]").is_visible():
                found.append("the coach's line shows beside the coach's panel on a laptop")
            if found:
                problems[game] = found
            page.evaluate(CLICK, "[data-testid=menu-button]")
            page.locator(MENU).first.wait_for()
    finally:
        end_emulation(page)
    assert not problems, problems


def tap(page, x: float, y: float) -> None:
    """A finger's tap at (x, y) of the window (touch events, as on a phone)."""
    for kind, points in (("touchStart", [{"x": x, "y": y}]), ("touchEnd", [])):
        page.walk_cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def tap_visible_part(page, card: str) -> None:
    """A tap on the part of a hand card that the fan leaves showing: its top-left corner."""
    box = page.locator(f".game-root [data-testid=hand] [data-card='{card}']").bounding_box()
    tap(page, box["x"] + box["width"] * 0.12, box["y"] + box["height"] * 0.2)


def a_crisps_pair_to_lead() -> tuple[engine.State, list[str]]:
    """A Crisps position where the person leads with a pair of neighbours in the hand."""
    for seed in range(1, 60):
        state = engine.new_game("crisps", 2, seed)
        while state.current_player != 0:
            state.apply(state.legal_actions()[0].id)
        hand = state.view(0)["hand"]
        for action in state.legal_actions():
            cards = list(action.cards or [])
            if len(cards) == 2 and abs(hand.index(cards[0]) - hand.index(cards[1])) == 1:
                return state, sorted(cards, key=hand.index)
    raise AssertionError("no Crisps deal leads with a pair of neighbours")


def test_a_pair_is_picked_by_tapping_each_cards_visible_part(page, site, open_app):
    """On a 390x844 phone, Crisps: a tap on the first card of a pair, then on the visible
    corner of its neighbour, selects both (the first card, lifted, does not cover the second);
    the pair then plays. A suggested move lights its cards, each still showing its index, and
    a tap on its lit button plays it."""
    open_app(page, site)
    state, pair = a_crisps_pair_to_lead()
    try:
        emulate(page, "390x844")
        import_match(page, state.to_record(), seats(2))
        for card in pair:
            tap_visible_part(page, card)
            page.wait_for_selector(IDLE)
        selected = page.locator(".game-root .card.is-selected").evaluate_all(
            "nodes => nodes.map((n) => n.dataset.card)"
        )
        assert sorted(selected) == sorted(pair), (selected, pair)
        found = figures(page, "crisps")
        assert found["covered"] == [], found["covered"]
        # Clear, then the suggestion: its cards lit and readable, its button on the table.
        page.click(".game-root [data-testid=clear-selection]")
        page.evaluate(CLICK, "[data-testid=hint]")
        page.wait_for_selector(f"{IDLE} .game-root .card.is-hinted")
        lit = page.locator(".game-root .card.is-hinted").evaluate_all(
            "nodes => nodes.map((n) => n.dataset.card)"
        )
        assert figures(page, "crisps")["covered"] == []
        button = page.locator("[data-testid=table] [data-action].is-hinted").first
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        tap(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_selector(IDLE)
        hand = page.locator(".game-root [data-testid=hand] [data-card]").evaluate_all(
            "nodes => nodes.map((n) => n.dataset.card)"
        )
        assert lit and not set(lit) & set(hand), (lit, hand)
    finally:
        end_emulation(page)

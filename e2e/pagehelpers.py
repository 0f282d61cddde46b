"""Selectors, small readers and the stepping loop shared by the browser tests."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator

import engine
from engine.core import State

IDLE = "[data-testid=table][data-busy=false]"
"""The table once no request is in flight and no bot is moving: the person can act."""
MENU = "[data-testid=menu] [data-game]"
SIDE_ACTIONS = "[data-testid=actions] [data-action]"
HAND_CARDS = "[data-testid=hand] [data-card]"
ROUND_OVER = "[data-testid=round-over]"
MATCH_OVER = "[data-testid=match-over]"
SAVES = "parlour.save."
"""Where the page keeps the matches in progress (localStorage): parlour.save.<slot>, the slot
a game's id, or "<game>.learn" for its coached round."""
LEGACY_SAVE_KEY = "parlour.save"
"""Where earlier versions kept their one match in progress (moved to its slot when read)."""
HUMAN = {"type": "human", "name": "You"}
TEST_BUDGET = 60
"""The iterations of a hint's or an analysis's search in a browser test (see conftest's
``page``): a search that still weighs every move, without the Hard level's full budget."""

MEMORY_IMAGE_KEYS = """() => new Promise((resolve, reject) => {
    const open = indexedDB.open("parlour-runtime", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("snapshots");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
        const db = open.result;
        const tx = db.transaction("snapshots", "readonly");
        const store = tx.objectStore("snapshots");
        const keys = store.getAllKeys();
        const values = store.getAll();
        tx.oncomplete = () => { db.close(); resolve(keys.result.map((key, i) =>
            [key, values.result[i].byteLength])); };
    };
})"""
"""The start-up memory images kept in the page's browser context, as [build id, bytes] pairs."""


def app_url(base: str, query: str = "?speed=0", memory_image: bool = False) -> str:
    """The app at ``base`` with ``query`` (which may end in a #fragment). Snapshots are off
    (``snapshot=0``) unless asked for: a first visit would otherwise start a second engine to
    make the next visit's start-up memory image, which a test throws away."""
    query, hash_, fragment = query.partition("#")
    if not memory_image and "snapshot=" not in query:
        query = f"{query}&snapshot=0" if query.startswith("?") else "?snapshot=0"
    return base + query + hash_ + fragment


# The next deal the page draws (its one Uint32 from crypto.getRandomValues, see setup-model.js)
# is ``seed``; every other call gets real random values.
NEXT_DEAL = """(seed) => {
  const real = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = (buffer) => {
    if (!(buffer instanceof Uint32Array && buffer.length === 1)) return real(buffer);
    crypto.getRandomValues = real;
    buffer[0] = seed;
    return buffer;
  };
}"""


def deal_next(page, seed: int) -> None:
    """Make the next match started from the set-up screen deal ``seed``: a whole match played
    through the page then has the same length on every run."""
    page.evaluate(NEXT_DEAL, seed)


def own_page(test):
    """Give ``test``, in a module whose tests share a page (``SHARED_PAGE``), a fresh page in a
    fresh context of its own."""
    test.own_page = True
    return test


def cold_start(test=None, **context_options):
    """Give ``test`` a fresh page in a fresh browser context: nothing stored, no start-up
    memory image, no HTTP cache, as on a first visit (see conftest's ``page``). As
    ``@cold_start(service_workers="block")`` the context is made with those options."""
    if test is None:
        return lambda test: cold_start(test, **context_options)
    test.cold_start = True
    test.context_options = context_options
    return own_page(test)


def bot_seat(level: str = "random", name: str = "North") -> dict:
    """A computer seat as the page saves it."""
    return {"type": "bot", "level": level, "name": name}


def side_action_ids(page) -> list[str]:
    """The ids of every action the side panel offers now."""
    return page.locator(SIDE_ACTIONS).evaluate_all("nodes => nodes.map(n => n.dataset.action)")


def click_card(locator) -> None:
    """Click a card of a hand as a person taps it: a long hand overlaps, so the next card may
    cover this one's middle; its left edge, with the corner index, stays in view."""
    box = locator.bounding_box()
    assert box is not None, "the card is not on the page"
    locator.click(position={"x": min(6, box["width"] / 2), "y": box["height"] / 2})


def hand_ids(page) -> list[str]:
    """The card ids of the person's hand, in the order shown."""
    return page.locator(HAND_CARDS).evaluate_all("nodes => nodes.map(n => n.dataset.card)")


# ----- saved matches ----------------------------------------------------------------------------


def saved_match(record: dict, seats: list[dict], practice: bool = False) -> dict:
    """The save the page writes for ``record`` played by ``seats``."""
    return {
        "v": 1,
        "game": record["game"],
        "title": engine.GAMES[record["game"]].title,
        "savedAt": 0,
        "data": {"record": record, "seats": seats, "practice": practice},
        "setup": None,
    }


def save_key(slot: str) -> str:
    """The localStorage key of the match saved in ``slot`` ("crisps", "crisps.learn")."""
    return SAVES + slot


def resume_button(slot: str) -> str:
    """The menu's button resuming the match saved in ``slot``."""
    return f"[data-testid=resume][data-slot='{slot}']"


def store_script(save: dict, slot: str | None = None) -> str:
    """JavaScript that puts ``save`` where the page looks for a match to resume: its game's
    slot, or ``slot``."""
    key = save_key(slot or save["game"])
    return f"localStorage.setItem({json.dumps(key)}, {json.dumps(json.dumps(save))});"


SAVED = """() => Object.fromEntries(Object.keys(localStorage)
    .filter(k => k.startsWith('parlour.save.')).map(k => [k.slice(13), localStorage.getItem(k)]))"""
"""JavaScript: every saved match as it is stored, {slot: text}."""

CLEAR_SAVES = """() => { for (const k of Object.keys(localStorage)) {
    if (k === 'parlour.save' || k.startsWith('parlour.save.')) localStorage.removeItem(k); } }"""
"""JavaScript: no match saved any more."""


def saved_texts(page) -> dict[str, str]:
    """Every match the page has saved now, as stored: {slot: text}."""
    return page.evaluate(SAVED)


def read_save(page, slot: str | None = None) -> dict | None:
    """The match the page has saved now in ``slot``, or (no slot given) the one saved last;
    None if there is none."""
    saves = {s: json.loads(raw) for s, raw in saved_texts(page).items()}
    if slot is not None:
        return saves.get(slot)
    return max(saves.values(), key=lambda save: save.get("savedAt") or 0, default=None)


def open_record(
    page, site: str, open_app, record: dict, seats: list[dict], query: str = "?speed=0"
) -> None:
    """Open the app (on a page shared by a module's tests, see conftest's ``page``: back to
    its menu, no reload) and there ``record`` played by ``seats`` as a match file, the way a
    person picks up a saved match; waits for the table."""
    open_app(page, site, query)
    import_match(page, record, seats)


# ----- stepping through a match -----------------------------------------------------------------

# One look at the page per step: which dialog is up, the side panel's action ids, and those
# of them in a closed fold (a move to confirm).
LOOK = """() => ({
  matchOver: Boolean(document.querySelector('[data-testid=match-over]')),
  roundOver: Boolean(document.querySelector('[data-testid=round-over]')),
  ids: [...document.querySelectorAll('[data-testid=actions] [data-action]')]
    .map((n) => n.dataset.action),
  folded: [...document.querySelectorAll('[data-testid=actions] details:not([open]) [data-action]')]
    .map((n) => n.dataset.action),
})"""


def settled_look(page, on_round: Callable | None = None, max_rounds: int = 100) -> dict | None:
    """``next_turn``'s look at the page (LOOK) once the person can act, or None once the match
    is over."""
    for _ in range(max_rounds):
        page.wait_for_selector(IDLE)
        look = page.evaluate(LOOK)
        if look["matchOver"]:
            return None
        if not look["roundOver"]:
            return look
        if on_round:
            on_round(page.locator(ROUND_OVER))
        page.click(f"{ROUND_OVER} [data-testid=continue]")
    raise AssertionError("round-over dialogs kept coming")


def next_turn(page, on_round: Callable | None = None, max_rounds: int = 100) -> list[str] | None:
    """Wait until the person can act, clicking through every round-over dialog on the way.

    ``on_round(dialog)`` sees each dialog (a locator) before it is dismissed. Returns the ids
    the side panel offers (empty when the table is waiting for something else, such as a
    hand-off), or None once the match is over."""
    look = settled_look(page, on_round, max_rounds)
    return None if look is None else look["ids"]


def click_side_action(page, action_id: str, folded: list[str]) -> None:
    """Make the move ``action_id`` from the side panel on a settled table, as a person does:
    a move in a closed fold (``folded``, from LOOK) asks to be confirmed and is opened first.
    The table has settled, so the click goes straight to the button (a real click at its
    place, without Playwright's wait for it to hold still)."""
    if action_id in folded:
        page.click(f"[data-testid=actions] [data-testid='confirm-{action_id}'] summary")
    page.click(f"{SIDE_ACTIONS}[data-action='{action_id}']", force=True)


def play_out(
    page,
    choose: Callable[[list[str]], str],
    on_round: Callable | None = None,
    max_moves: int = 2000,
    rounds_wanted: int | None = None,
) -> int:
    """Take the person's turns through the side panel with ``choose(ids)`` until the match is
    over, or (``rounds_wanted``) until that many round-over dialogs have been seen and the
    person can act in the next round; the number of moves made."""
    seen = []

    def round_over(dialog) -> None:
        seen.append(dialog)
        if on_round:
            on_round(dialog)

    for moves in range(max_moves):
        look = settled_look(page, round_over)
        if look is None or (rounds_wanted is not None and len(seen) >= rounds_wanted):
            return moves
        assert look["ids"], "the person's turn lists the legal actions in the side panel"
        click_side_action(page, choose(look["ids"]), look["folded"])
    raise AssertionError("the match did not end")


# ----- matches near their end -------------------------------------------------------------------


def random_playout(game: str, players: int, options: dict, seed: int) -> Iterator[State]:
    """The match ``seed`` of ``game`` played at random (the rng seeded ``seed`` too): the same
    state, yielded at the start and after every step, to its end."""
    state = engine.new_game(game, players, seed, options)
    rng = random.Random(seed)
    yield state
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        yield state


def record_at(
    game: str,
    players: int,
    options: dict,
    want: Callable[[dict], bool],
    seeds: range = range(1, 500),
) -> dict:
    """The record of a random playout of ``game``, cut just after a round whose end leaves a
    result (``state.result()``: its ``scores``, its ``rounds``) that ``want``, with the match
    still on: a saved match that a test can finish in a round or two instead of playing a
    whole one."""
    for seed in seeds:
        ended = 0
        for state in random_playout(game, players, options, seed):
            now = state.result()
            if len(now["rounds"]) != ended and not state.is_over and want(now):
                return state.to_record()
            ended = len(now["rounds"])
    raise AssertionError(f"no {game} playout reaches the result wanted")


def record_near_the_end(
    game: str,
    players: int,
    options: dict,
    steps_left: int,
    rounds_left: int = 0,
    seeds: range = range(1, 500),
) -> dict:
    """The record of a random playout of ``game`` cut at least ``steps_left`` steps before
    the end of a round, where seat 0 (the person's seat in a test) is to move: of the last
    round, or of the one ``rounds_left`` rounds before it. A saved match that a test finishes
    in a few moves (and ``rounds_left`` whole rounds), round-over dialogs and all; when the
    page's play strays from the playout's, it simply plays on."""
    for seed in seeds:
        to_move: list[tuple[int | None, int]] = []  # (seat to move, rounds ended) at each step
        for state in random_playout(game, players, options, seed):
            to_move.append((state.current_player, len(state.result()["rounds"])))
        wanted = to_move[-1][1] - 1 - rounds_left
        if wanted < 0:
            continue
        record = state.to_record()
        end = next(i for i, (_, ended) in enumerate(to_move) if ended > wanted)
        for cut in range(end - steps_left, 0, -1):
            seat, ended = to_move[cut]
            if ended < wanted:
                break
            if seat == 0:
                return {**record, "actions": record["actions"][:cut]}
    raise AssertionError(f"no {game} playout has seat 0 to move {steps_left} steps from its end")


def import_match(page, record: dict, seats: list[dict]) -> None:
    """Open ``record`` from the menu as a match file, as a person does with "Open a match
    file" (abandoning the match saved before, see ``abandon_saved_match``); no page load, so
    no new engine start. Waits for the table."""
    page.set_input_files(
        "[data-testid=import]",
        files=[
            {
                "name": "match.json",
                "mimeType": "application/json",
                "buffer": json.dumps({"record": record, "seats": seats}).encode(),
            }
        ],
    )
    abandon_saved_match(page)
    page.wait_for_selector(IDLE)


REPLACE_DIALOG = "[data-testid=replace-dialog]"


def abandon_saved_match(page) -> None:
    """An unfinished match opened from a file while another one is saved asks first (keep
    playing it, or abandon it): a test abandons the saved one. Waits for the table or the
    question."""
    page.wait_for_selector(f"{IDLE}, {REPLACE_DIALOG}")
    if page.locator(REPLACE_DIALOG).count():
        page.click("[data-testid=abandon-save]")

"""Playing together over real WebRTC: a host and a friend in two browser contexts.

Every connection here stays on this machine: the module makes its own network namespace
(``ip netns``, tools/netns.py), with only a loopback and a veth pair whose two ends are both
inside it (so Chromium has an address to offer as a host candidate), and runs the site's server
and Chromium inside it. No STUN or TURN server outside it is ever configured (one test's
Settings name one on its loopback, where nothing answers). Making it needs root: as
another user the commands go through ``sudo -n``. Where it cannot be made (no root and no
passwordless sudo, no ``ip``), the module skips and says why, except in CI (the ``CI``
variable set, as GitHub Actions does), where it fails: the published workflow runs it.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import APP_TIMEOUT_MS, new_context
from pagehelpers import LOOK, MENU, read_save, record_near_the_end, saved_match, store_script
from playwright.sync_api import Error as PlaywrightError
from screenwalk import Walk, clear_window
from test_fit import FITS, PLACES

import build
import engine
from tests.helpers import namespace_unavailable
from tests.qr_decode import decode, rows_of_path
from tools.netns import Unavailable, chromium_inside, inside, private_namespace

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
NAMESPACE = f"parlour-e2e-{os.getpid()}"
STUN = "stun:127.0.0.1:3478"
# Every text the page's message line shows from now on, in window.__messagesSeen.
KEEP_MESSAGES = """() => {
  window.__messagesSeen = [];
  const note = () => {
    for (const line of document.querySelectorAll("[data-testid=message]")) {
      const text = line.textContent;
      if (text && !window.__messagesSeen.includes(text)) window.__messagesSeen.push(text);
    }
  };
  const all = { subtree: true, childList: true, characterData: true };
  new MutationObserver(note).observe(document.body, all);
  note();
}"""
"""A STUN server for the tests' Settings: on this machine, where nothing answers."""
SERVE = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import build
server, url = build.start_server([("/", Path(sys.argv[2]))])
print(url, flush=True)
while True:
    time.sleep(3600)
"""
RUNTIME = ("pyodide", "worker.js", ".whl", "python_stdlib")
"""What a page that loads the game engine downloads; a friend's page downloads none of it."""


@pytest.fixture(scope="module")
def netns() -> Iterator[str]:
    try:
        with private_namespace(NAMESPACE) as name:
            yield name
    except Unavailable as reason:
        namespace_unavailable(reason)


@pytest.fixture(scope="module")
def ns_site(netns: str, dist: Path) -> Iterator[str]:
    server = subprocess.Popen(
        inside(netns, [sys.executable, "-c", SERVE, str(ROOT), str(dist)]),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), url
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def ns_browser(netns: str, playwright_instance) -> Iterator:
    chromium = build.find_chromium()
    if not chromium:
        namespace_unavailable("no Chromium to run inside the namespace")
    with tempfile.TemporaryDirectory() as tmp:
        wrapper = chromium_inside(netns, chromium, Path(tmp))
        browser = playwright_instance.chromium.launch(
            executable_path=str(wrapper), args=build.TEST_CHROMIUM_ARGS
        )
        yield browser
        browser.close()


class Device:
    """One person's browser: its own context (storage, network log) and page."""

    def __init__(self, browser, site: str, query: str = "?speed=0&snapshot=0", **options) -> None:
        self.context = new_context(browser, **options)
        self.requests: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.page = self.context.new_page()
        self.site = site
        self.query = query

    def open_menu(self) -> None:
        self.page.goto(self.site + self.query)
        self.page.locator(MENU).first.wait_for(state="visible", timeout=APP_TIMEOUT_MS)
        self.page.locator("html[data-engine=ready]").wait_for(
            state="attached", timeout=APP_TIMEOUT_MS
        )

    def close(self) -> list[str]:
        problems = self.context.problems.all()
        self.context.close()
        return problems


@pytest.fixture
def devices(ns_browser, ns_site) -> Iterator:
    made: list[Device] = []

    def device(query: str = "?speed=0&snapshot=0", **options) -> Device:
        made.append(Device(ns_browser, ns_site, query, **options))
        return made[-1]

    yield device
    problems = [p for d in made for p in d.close()]
    assert not problems, problems


def deal_with_friends(
    host: Device, game: str, seats: dict[int, str], players: int | None = None, options=()
):
    """On the host's page: set up ``game`` with ``seats`` (seat -> "friend" or "bot:<level>")
    and deal; the lobby's invitation links, by seat."""
    page = host.page
    page.click(f"[data-game={game}]")
    if players:
        page.select_option("[data-testid=players]", str(players))
    for seat, value in seats.items():
        page.select_option(f"[data-testid=seat-{seat}]", value)
    for option in options:
        page.check(f"[data-option={option}]")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=lobby]")
    links = {}
    for seat, value in seats.items():
        if value == "friend":
            field = page.locator(f"[data-testid=friend-{seat}] [data-testid=invite-link]")
            field.wait_for()
            links[seat] = field.input_value()
    return links


def join(friend: Device, link: str, name: str) -> str:
    """The friend opens the invitation, chooses a name; their reply link."""
    page = friend.page
    page.goto(link.replace("#", friend.query + "#", 1))
    # The game's title is the page's own (an invitation names the game by its id alone).
    title = page.locator("#join-title").inner_text()
    assert title.startswith("Join a game of ") and title[len("Join a game of ") :][0].isupper(), (
        title
    )
    page.fill("[data-testid=join-name]", name)
    page.click("[data-testid=join]")
    return page.locator("[data-testid=reply-link]").input_value()


SEAT_REPORT = """(seat) => {
  const row = document.querySelector(`[data-testid=friend-${seat}]`);
  const hook = window.__parlourHost;
  return {
    seat: row ? { status: row.dataset.status, says: row.innerText } : null,
    connection: hook && hook.connections ? hook.connections()[seat] || "none" : "no ?test=1 hook",
  };
}"""
"""What the host's page shows of a friend's seat, and what WebRTC says of its connection."""


SEATS_SEEN = """(seat) => {
  window.__seatsSeen = [];
  const note = () => {
    const row = document.querySelector(`[data-testid=friend-${seat}]`);
    if (!row) return;
    const again = row.querySelector(`[data-testid=reinvite-${seat}]`) ? ", Invite again" : "";
    const seen = row.dataset.status + again;
    if (window.__seatsSeen[window.__seatsSeen.length - 1] !== seen) window.__seatsSeen.push(seen);
  };
  const app = document.getElementById("app");
  new MutationObserver(note).observe(app, { childList: true, subtree: true });
}"""
"""Keep, in ``window.__seatsSeen``, each way the host's page shows seat ``seat`` in turn."""


def connect(host: Device, seat: int, reply: str) -> None:
    """The host pastes ``reply`` and the seat reads "Connected"; when it does not, the failure
    says how the seat stands (failed, lost, the reply refused) and how its connection does."""
    page = host.page
    page.fill(f"[data-testid=paste-{seat}]", reply)
    page.click(f"[data-testid=connect-{seat}]")
    try:
        page.wait_for_selector(f"[data-testid=friend-{seat}][data-status=connected]")
    except PlaywrightError:
        report = page.evaluate(SEAT_REPORT, seat)
        raise AssertionError(f"seat {seat} did not connect: {report}") from None


TABLE_LOOK = (
    "() => ({ ...("
    + LOOK
    + """)(),
  idle: Boolean(document.querySelector('[data-testid=table][data-busy=false]')),
  yourTurn: Boolean(document.querySelector('[data-testid=table][data-busy=false] .turn.is-you')),
})"""
)
"""LOOK, and whether the table is idle and idle on the person's turn: one round trip to the
page for what :func:`play` and :func:`friends_turn_settled` look at each time round."""

IDLE_LIMIT_S = 60.0
"""How long :func:`play` waits with no device able to move before it fails with what each
device shows (a stuck table, not a slow one: a move arrives in well under a second)."""


def play(
    devices: list[Device],
    rng: random.Random,
    max_moves: int,
    until=None,
    to_the_end=True,
    shed_most=False,
) -> int:
    """Take turns on whichever device may move (a random legal move from the side panel),
    clicking through round-over dialogs, until every device shows the match over (or
    ``until()`` holds, or ``max_moves`` are made when not ``to_the_end``); the number of
    moves made. ``shed_most``: of the plays, one of those that play the most cards (a random
    Crisps match so played takes about three in four of the moves it takes otherwise)."""
    # A click made while the table is still drawing the last move (cards landing) changes
    # nothing, yet is counted: ``max_moves`` is a bound on clicks, not on the match's moves.
    # A stuck match still fails, on the minute without a move below.
    moves = 0
    idle_since = time.monotonic()
    while moves < max_moves:
        if until and until():
            return moves
        looks = [d.page.evaluate(TABLE_LOOK) for d in devices]
        # No device has had a move to make for a minute: stuck, not slow. Say what each shows.
        assert time.monotonic() - idle_since < IDLE_LIMIT_S, f"no device could move: {looks}"
        if all(look["matchOver"] for look in looks):
            return moves
        acted = False
        for device, look in zip(devices, looks, strict=True):
            page = device.page
            if look["roundOver"] and not look["matchOver"]:
                page.click("[data-testid=round-over] [data-testid=continue]")
                acted = True
            elif look["ids"] and look["idle"]:
                # The table may change under the click (the other device's move arriving):
                # a move no longer offered is looked at again.
                # Plays before passes: the match is whole, and shorter.
                plays = [i for i in look["ids"] if i != "pass"]
                if shed_most and plays:
                    most = max(i.count(",") for i in plays)
                    plays = [i for i in plays if i.count(",") == most]
                action = rng.choice(plays or look["ids"])
                try:
                    if action in look["folded"]:
                        page.click(
                            f"[data-testid=actions] [data-testid='confirm-{action}'] summary",
                            timeout=2000,
                        )
                    page.click(f"[data-testid=actions] [data-action='{action}']", timeout=2000)
                except PlaywrightError:  # a timeout, or the move's button gone from view
                    continue
                moves += 1
                acted = True
        if acted:
            idle_since = time.monotonic()
        else:
            devices[0].page.wait_for_timeout(30)
    assert not to_the_end, "the match did not end"
    return moves


def friends_turn_settled(host: Device, friend: Device) -> bool:
    """The friend may move, and neither device shows a round's end still to be clicked through
    (the host's match waits there; the friend's turn marker can show before the dialog does)."""
    looks = [d.page.evaluate(TABLE_LOOK) for d in (host, friend)]
    return (
        looks[1]["yourTurn"]
        and bool(looks[1]["ids"])
        and not any(look["roundOver"] or look["matchOver"] for look in looks)
    )


def hand(device: Device, where: str = "[data-testid=hand]") -> list[str]:
    """The cards in the person's own hand (``where``: the game's element for it)."""
    return device.page.eval_on_selector_all(
        f"{where} [data-card]", "(nodes) => nodes.map((n) => n.dataset.card)"
    )


def log_count(device: Device) -> int:
    text = device.page.locator("summary:has-text('Game log (')").first.inner_text()
    return int(text.split("(")[1].split(")")[0])


HIDE = """(hidden) => {
  const state = hidden ? "hidden" : "visible";
  for (const [name, value] of [["hidden", hidden], ["visibilityState", state]]) {
    Object.defineProperty(document, name, { configurable: true, get: () => value });
  }
  document.dispatchEvent(new Event("visibilitychange"));
}"""
"""Put the page's tab in the background (or bring it back), as the browser tells a page: headless
Chromium keeps every page visible, whatever is in front."""


def friends_move(host: Device, friend: Device, action: str) -> str:
    """The friend clicks ``action``; then "host" once it is the host's turn with the friend's
    Undo offered, or "friend" once the friend's own turn has settled again."""
    page = friend.page
    if action in page.evaluate(LOOK)["folded"]:
        page.click(f"[data-testid=actions] [data-testid='confirm-{action}'] summary")
    page.click(f"[data-testid=actions] [data-action='{action}']")
    for _ in range(200):
        page.wait_for_timeout(30)
        if friends_turn_settled(host, friend):
            return "friend"
        hosts_turn = host.page.locator("[data-testid=table][data-busy=false] .turn.is-you").count()
        if hosts_turn and page.locator("[data-testid=undo]").count():
            return "host"
    raise AssertionError("the friend's move did not settle")


def friend_hands_the_turn_over(host: Device, friend: Device) -> tuple[str, list[str], int]:
    """From the friend's settled turn: the friend moves (a pass where they may, else the first
    play that keeps cards in hand) until the host is to move and the friend may still take
    their move back. The last move's id, and the friend's hand and log before it."""
    for _ in range(20):
        ids = friend.page.evaluate(LOOK)["ids"]
        cards = hand(friend)
        plays = [i for i in ids if i.startswith("play:") and i.count(",") + 1 < len(cards)]
        action = "pass" if "pass" in ids else "take:faceup" if "take:faceup" in ids else plays[0]
        before = (cards, log_count(friend))
        if friends_move(host, friend, action) == "host":
            return action, *before
    raise AssertionError("the friend kept the turn")


def no_runtime(device: Device) -> bool:
    return not [u for u in device.requests if any(part in u for part in RUNTIME)]


def tampered(link: str) -> dict[str, str]:
    """The invitation spoilt in the ways a chat app or a person might spoil it."""
    base, code = link.split("#join=")
    flipped = code[:40] + ("A" if code[40] != "A" else "B") + code[41:]
    return {
        "cut short": f"{base}#join={code[: len(code) // 2]}",
        "a character changed": f"{base}#join={flipped}",
        "oversized": f"{base}#join={'A' * 5000}",
        "not ours": f"{base}#join=%3Cscript%3E",
    }


def test_a_friend_joins_plays_drops_and_rejoins_through_a_new_link(devices):
    host = devices("?speed=0&snapshot=0&test=1")
    host.open_menu()
    links = deal_with_friends(host, "crisps", {1: "friend"}, options=["auto_skip"])
    # One choice, with its trade-off: in this room unless Anywhere is chosen. No STUN server
    # is named by default, so Anywhere waits for one in Settings (the page contacts no server
    # of its own accord); with one named it says which (the last test).
    reach = host.page.locator("[data-testid=reach]")
    assert reach.locator("[data-testid=reach-room]").is_checked()
    assert not reach.locator("[data-testid=reach-anywhere]").is_checked()
    assert reach.locator("[data-testid=reach-anywhere]").is_disabled()
    assert "nothing but the devices themselves is contacted" in reach.inner_text()
    assert "Name a STUN server in Settings first" in reach.inner_text()
    # The code packed: about 124 characters for one address (the compressed JSON took 240+).
    assert len(links[1].split("#join=")[1]) <= 130, links[1]
    # A lost seat is played by a computer after 30 seconds unless the host chooses otherwise.
    assert host.page.locator("[data-testid=stand-in-wait]").input_value() == "30000"
    host.page.select_option("[data-testid=stand-in-level]", "easy")
    friend = devices("?speed=0&snapshot=0&test=1")
    walk = Walk(host.page)
    walk.look("lobby invite")

    # Spoilt invitations: a clear message each, and nothing else happens.
    for how, link in tampered(links[1]).items():
        friend.page.goto("about:blank")
        friend.page.goto(link.replace("#", friend.query + "#", 1))
        problem = friend.page.locator("[data-testid=join-problem]")
        assert "This invitation cannot be used" in problem.inner_text(), how
    walk.look("join refused", page=friend.page)
    friend.page.goto(links[1].replace("#", friend.query + "#", 1))
    friend.page.locator("[data-testid=join-name]").wait_for()
    walk.look("join", page=friend.page)
    reply = join(friend, links[1], "Ada")
    walk.look("join reply", page=friend.page)
    assert len(reply.split("#reply=")[1]) <= 120, reply
    assert no_runtime(friend), "a friend's page loads no Python runtime and no engine"

    # A spoilt reply is refused on the host's page and the seat still waits for the real one.
    host.page.fill("[data-testid=paste-1]", reply[:-30])
    host.page.click("[data-testid=connect-1]")
    host.page.wait_for_selector(
        "[data-testid=lobby] [data-testid=error]:has-text('cannot be used')"
    )
    assert host.page.locator("[data-testid=start-shared]").is_disabled()
    # A connection that misses its wait goes to "Did not connect", offered "Invite again",
    # and keeps listening: the channel that opens later still connects the seat.
    host.page.evaluate(SEATS_SEEN, 1)
    host.page.evaluate("window.__parlourHost.connectWait(50, 1500)")
    connect(host, 1, reply)
    host.page.evaluate("window.__parlourHost.connectWait(null)")
    seen = host.page.evaluate("window.__seatsSeen")
    assert "failed, Invite again" in seen and seen[-1] == "connected", seen
    friend.page.locator("[data-testid=join-waiting]").wait_for()
    walk.look("join waiting", page=friend.page)
    walk.look("lobby ready")
    for device in (host, friend):
        clear_window(device.page)
    assert not walk.found, "lobby screens that do not fit:\n" + walk.report()
    host.page.click("[data-testid=start-shared]")
    for device in (host, friend):
        device.page.wait_for_selector("[data-testid=table]")
    assert "Ada" in host.page.locator(".scores").inner_text()
    assert "Host" in friend.page.locator(".scores").inner_text()
    play([host, friend], random.Random(4), max_moves=6, to_the_end=False)

    # Junk from the friend's page is refused and counted; the match goes on.
    for junk in ("not json", '{"t": "deal-me-aces"}', '{"t": "act", "id": 1}', "[1, 2]"):
        friend.page.evaluate("(text) => window.__parlourFriend.sendRaw(text)", junk)
    friend.page.evaluate(
        "() => window.__parlourFriend.sendRaw(JSON.stringify({t: 'act', id: 9, action: 'x'.repeat(5000)}))"  # noqa: E501
    )
    host.page.wait_for_selector("[data-testid=friend-1]:has-text('5 messages refused')")

    # The friend drops on their turn: the seat waits the chosen time (shortened here by the
    # test hook), then a computer at the chosen level plays it, said on the table; a new link
    # brings the friend back to the table as it is, their seat theirs again.
    played = play(
        [host, friend],
        random.Random(5),
        max_moves=1500,
        until=lambda: friends_turn_settled(host, friend),
    )
    assert played < 200
    logged = log_count(host)
    moves_at_drop = len(read_save(host.page)["data"]["record"]["actions"])
    host.page.evaluate("() => window.__parlourHost.standInWait(1500)")
    friend.page.close()
    host.page.wait_for_selector("[data-testid=friend-1][data-status=lost]")
    host.page.wait_for_selector("[data-testid=friend-1][data-standin=true]")
    status = host.page.locator("[data-testid=friend-1] [data-testid=friend-status]").inner_text()
    assert "a computer plays the seat until they come back" in status
    host.page.wait_for_function("() => JSON.stringify(localStorage).includes('stand_in')")
    during = read_save(host.page)["data"]["seats"][1]
    assert during == {"type": "bot", "level": "easy", "name": "Ada", "stand_in": True}
    play(
        [host],
        random.Random(8),
        max_moves=2,
        until=lambda: log_count(host) > logged + 2,
        to_the_end=False,
    )
    host.page.wait_for_function(
        "() => !document.querySelector('[data-testid=table][data-busy=true]')"
    )
    assert log_count(host) > logged
    host.page.click("[data-testid=reinvite-1]")
    field = host.page.locator("[data-testid=friend-1] [data-testid=invite-link]")
    field.wait_for()
    friend.page = friend.context.new_page()
    connect(host, 1, join(friend, field.input_value(), "Ada"))
    host.page.wait_for_selector("[data-testid=friend-1][data-status=connected][data-standin=false]")
    friend.page.wait_for_selector("[data-testid=table]")
    friend.page.wait_for_function(
        "() => !document.querySelector('[data-testid=table][data-busy=true]')"
    )
    assert log_count(friend) == log_count(host)
    # The record says which moves the computer made for Ada's seat: at least the one it
    # found waiting, every one of them seat 1's.
    saved = read_save(host.page)["data"]
    assert saved["seats"][1] == {"type": "friend", "level": None, "name": "Ada"}
    record = saved["record"]
    assert record["stand_in"] and record["stand_in"][0] >= moves_at_drop
    assert {engine.from_record(record).history[i].player for i in record["stand_in"]} == {1}
    # Both tables' logs mark those moves as the computer's, and no other.
    marked = "[data-testid=log] .log-entry:has([data-testid=log-stand-in])"
    indices = "(nodes) => nodes.map((n) => Number(n.dataset.index))"
    assert (
        host.page.eval_on_selector_all(marked, indices)[: len(record["stand_in"])]
        == record["stand_in"]
    )
    assert friend.page.eval_on_selector_all(marked, indices) == host.page.eval_on_selector_all(
        marked, indices
    )
    assert host.page.locator(marked).first.inner_text().startswith("Ada: ")
    play(
        [host, friend],
        random.Random(9),
        max_moves=1500,
        until=lambda: friends_turn_settled(host, friend),
    )

    # A move suggested to the friend, thought out by the host's engine for the friend's seat.
    friend.page.click("[data-testid=hint]")
    friend.page.wait_for_selector("[data-testid=message]:has-text('Suggested move')")
    lit = friend.page.locator("[data-testid=actions] [data-action].is-hinted").first
    assert lit.get_attribute("data-action") in friend.page.evaluate(LOOK)["ids"]

    # Undo at a shared table: the friend's own last move, until the host acts.
    action, cards, logged = friend_hands_the_turn_over(host, friend)
    friend.page.click("[data-testid=undo]")
    friend.page.wait_for_selector("[data-testid=message]:has-text('Move taken back')")
    host.page.wait_for_selector("[data-testid=message]:has-text('Ada took back a move')")
    friend.page.wait_for_selector("[data-testid=table][data-busy=false] .turn.is-you")
    assert hand(friend) == cards
    assert log_count(friend) == log_count(host) == logged
    assert friends_move(host, friend, action) == "host"
    # The host moves while the friend's page has not drawn it yet (the host's messages held
    # back, a slow network), and the friend's tab is in the background: the friend's Undo,
    # crossing the host's move, is refused with the rule, and nothing is taken back.
    friend.page.evaluate("() => window.__parlourFriend.hold()")
    assert friend.page.title() == "Parlour"
    friend.page.evaluate(HIDE, True)
    logged = log_count(host)
    play([host], random.Random(6), max_moves=1, to_the_end=False)
    friend.page.wait_for_function("() => window.__parlourFriend.held() > 0")
    friend.page.click("[data-testid=undo]")
    friend.page.evaluate("() => window.__parlourFriend.release()")
    refusal = friend.page.locator("[data-testid=table] [data-testid=error]")
    refusal.wait_for()
    assert "only your own last move, and only until the next player acts" in refusal.inner_text()
    assert friend.page.locator("[data-testid=undo]").count() == 0
    assert log_count(friend) == log_count(host) > logged
    assert "took back" not in host.page.locator("[data-testid=message]").inner_text()
    # The background tab's title says when it is the friend's turn; back in front, it does not.
    play(
        [host],
        random.Random(7),
        max_moves=30,
        until=lambda: friend.page.title().startswith("Your turn"),
        to_the_end=False,
    )
    assert friend.page.title() == "Your turn \u2014 Parlour"
    friend.page.evaluate(HIDE, False)
    assert friend.page.title() == "Parlour"
    assert no_runtime(friend)
    # Since the rejoin the host sent the whole log when the friend came back and after the
    # undo, and the moves' new entries otherwise (web/js/held-logs.js); none was refused.
    logs = friend.page.evaluate("() => window.__parlourFriend.logs()")
    assert logs["whole"] >= 2 and logs["partial"] >= 3 and logs["refused"] == 0, logs

    # The match played out. It was dealt from both devices' values, each committed before the
    # deal: the friend's page (a new tab since the rejoin, which found what the first one kept)
    # checks the revealed seed, values and fingerprint itself, with no engine; its Check this
    # deal then loads the engine (only then) and replays the record the host sent at the end,
    # dealing the friend's seat again as it was first shown. The host's engine replays every
    # move and checks the values against the commitments it sent.
    play([host, friend], random.Random(10), max_moves=1500, shed_most=True)
    verdict = friend.page.locator("[data-testid=match-over] [data-testid=fair-verdict]")
    assert verdict.get_attribute("data-ok") == "true", verdict.inner_text()
    assert "from the seed every device's value made" in verdict.inner_text()
    assert no_runtime(friend)
    friend.page.click("[data-testid=match-over] [data-testid=check-deal]")
    friend.page.locator("[data-testid=deal-verdict][data-ok=true]").wait_for(timeout=90_000)
    lines = friend.page.locator("[data-testid=deal-check] [data-testid=deal-lines]").inner_text()
    assert "made of the 2 devices' values" in lines and "fixed before the first move" in lines
    assert "moves were legal" in lines, lines
    assert "shown for its seat after move" in lines and "the ones the replay deals it" in lines
    assert not no_runtime(friend), "the engine loaded on the friend's page for the replay"
    host.page.click("[data-testid=match-over] [data-testid=check-deal]")
    host.page.locator("[data-testid=deal-verdict][data-ok=true]").wait_for()
    lines = host.page.locator("[data-testid=deal-check] [data-testid=deal-lines]").inner_text()
    assert "made of the 2 devices' values" in lines and "moves were legal" in lines
    # The replay of the finished match marks the computer's moves for Ada as the log did.
    on_table = host.page.eval_on_selector_all(marked, indices)
    host.page.click("[data-testid=close-deal-check]")
    host.page.click("[data-testid=match-over] [data-testid=replay-open]")
    host.page.click("[data-testid=replay-end]")
    replayed = "[data-testid=replay] .log-entry:has([data-testid=log-stand-in])"
    host.page.locator(replayed).first.wait_for(state="attached")
    assert host.page.eval_on_selector_all(replayed, indices) == on_table


def test_the_host_reloads_re_invites_and_the_match_ends_on_both_devices(devices):
    record = record_near_the_end("crisps", 2, {}, steps_left=6)
    seats = [{"type": "human", "name": "Host"}, {"type": "friend", "name": "Ada"}]
    host = devices("?speed=0&snapshot=0&test=1")
    # Settings name a STUN server on this machine (nothing listens there).
    host.context.add_init_script(
        "if (!sessionStorage.getItem('stored')) {"
        + store_script(saved_match(record, seats))
        + f"localStorage.setItem('parlour.settings', JSON.stringify({{stun: {json.dumps(STUN)}}}));"
        + "sessionStorage.setItem('stored', '1'); }"
    )
    host.open_menu()
    host.page.click("[data-testid=resume]")
    host.page.wait_for_selector("[data-testid=friend-1][data-status=lost]")
    host.page.click("[data-testid=reinvite-1]")
    field = host.page.locator("[data-testid=friend-1] [data-testid=invite-link]")
    field.wait_for()

    # A friend whose page is gone by the time their reply is pasted: the connection does not
    # come up in this room, and the seat offers to try again reaching anywhere, which makes a
    # new invitation through the STUN server Settings name.
    host.page.evaluate("() => window.__parlourHost.connectWait(2000)")
    gone = devices()
    late = join(gone, field.input_value(), "Cy")
    gone.page.close()
    host.page.fill("[data-testid=paste-1]", late)
    host.page.click("[data-testid=connect-1]")
    host.page.wait_for_selector("[data-testid=friend-1][data-status=failed]")
    seat = host.page.locator("[data-testid=friend-1]")
    assert "did not come up within" in seat.inner_text()
    assert not host.page.locator("[data-testid=reach-anywhere]").is_checked()
    old_link = field.input_value()
    host.page.click("[data-testid=anywhere-1]")
    assert host.page.locator("[data-testid=reach-anywhere]").is_checked()
    assert (
        f"asks the STUN server {STUN} (named in Settings)"
        in host.page.locator("[data-testid=reach]").inner_text()
    )
    host.page.wait_for_function(
        "(old) => { const f = document.querySelector("
        "'[data-testid=friend-1] [data-testid=invite-link]'); return f && f.value !== old; }",
        arg=old_link,
    )
    assert host.page.locator("[data-testid=anywhere-1]").count() == 0
    host.page.evaluate("() => window.__parlourHost.connectWait(null)")
    friend = devices()
    connect(host, 1, join(friend, field.input_value(), "Bea"))
    friend.page.wait_for_selector("[data-testid=table]")
    assert "Bea" in host.page.locator(".scores").inner_text()
    play([host, friend], random.Random(7), max_moves=1500)
    scores = [
        d.page.locator("[data-testid=match-over] .final-scores").inner_text()
        for d in (host, friend)
    ]
    assert scores[0] == scores[1]
    # Each device says "You" of its own player when they win, and names the other.
    titles = [
        d.page.locator("[data-testid=match-over] [data-testid=winner]").inner_text()
        for d in (host, friend)
    ]
    assert titles in (
        ["You win the match!", "Host wins the match"],
        ["Bea wins the match", "You win the match!"],
        ["Host and Bea share the win"] * 2,
    ), titles
    # Bea joined this match after its deal: her page says it cannot check it, and why.
    verdict = friend.page.locator("[data-testid=match-over] [data-testid=fair-verdict]")
    assert verdict.get_attribute("data-ok") == "unknown"
    assert "joined the table after this match was dealt" in verdict.inner_text()
    # A rematch with the same friend: the host deals again (the friend's page, which has no
    # engine, says so), the friend is still connected, and both tables start afresh. The host's
    # page is tampered (a test hook): Bea's device sends its value as to an honest host, but the
    # host deals a match of its own choosing (a saved one near its end, another seed). At the
    # end Bea's page catches it, in words.
    over = friend.page.locator("[data-testid=match-over]")
    assert "The host can deal the next match" in over.inner_text()
    assert over.locator("[data-testid=play-again], [data-testid=replay-open]").count() == 0
    chosen = record_near_the_end(
        "crisps", 2, {}, steps_left=6, seeds=range(record["seed"] + 1, 500)
    )
    host.page.evaluate(
        "(data) => window.__parlourHost.dealFrom(data)", {"record": chosen, "seats": seats}
    )
    host.page.click("[data-testid=match-over] [data-testid=play-again]")
    host.page.click("[data-testid=lobby] [data-testid=start-shared]:not([disabled])")
    for device in (host, friend):
        device.page.wait_for_selector("[data-testid=table]:not(:has([data-testid=match-over]))")
    assert "Bea" in host.page.locator(".scores").inner_text()
    play([host, friend], random.Random(8), max_moves=1500)
    verdict = friend.page.locator("[data-testid=match-over] [data-testid=fair-verdict]")
    assert verdict.get_attribute("data-ok") == "false"
    said = verdict.inner_text()
    assert "this deal does not check out" in said and "a seed of its own" in said, said
    assert f"({chosen['seed']})" in said and "could have chosen the deal" in said
    assert no_runtime(friend)
    # Its Check this deal replays the record the host sent with the engine, which names it too.
    friend.page.click("[data-testid=match-over] [data-testid=check-deal]")
    friend.page.locator("[data-testid=deal-verdict][data-ok=false]").wait_for(timeout=90_000)
    lines = friend.page.locator("[data-testid=deal-check] [data-testid=deal-lines]").inner_text()
    assert "a seed of its own" in lines, lines
    assert "meant to be dealt from every device's value, but the record holds none" in lines
    assert not no_runtime(friend)


PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 1,
}
"""A friend's phone (the 390x844 size of e2e/test_fit.py), one device pixel to the CSS pixel:
what is measured is in CSS pixels, and painting nine times the pixels costs the run time."""

QR = """(figure) => {
  const svg = figure.querySelector('svg.qr-code');
  if (!svg) return null;
  const colour = (el) => el.getAttribute('fill');
  return {
    label: svg.getAttribute('aria-label'), modules: Number(svg.dataset.modules),
    quiet: Number(svg.dataset.quiet), viewBox: svg.getAttribute('viewBox'),
    width: svg.getBoundingClientRect().width, path: svg.querySelector('path').getAttribute('d'),
    colours: [colour(svg.querySelector('rect')), colour(svg.querySelector('path'))],
  };
}"""


def qr_text(device: Device, figure: str) -> str:
    """What a camera reads from the QR code drawn in ``figure``: its modules, taken from the
    SVG path the page drew, decoded by zxing-cpp (tests/qr_decode.py)."""
    locator = device.page.locator(f"{figure} svg.qr-code")
    locator.wait_for()
    drawn = device.page.eval_on_selector(figure, QR)
    side = drawn["modules"] + 2 * drawn["quiet"]
    assert drawn["quiet"] >= 4 and drawn["viewBox"] == f"0 0 {side} {side}"
    assert drawn["colours"] == ["#fff", "#000"], "dark on light, whatever the theme"
    assert drawn["label"].startswith("QR code of")
    assert drawn["width"] >= 3 * side, "at least 3 CSS pixels a module"
    found = decode(rows_of_path(drawn["path"], drawn["modules"], drawn["quiet"]))
    assert len(found) == 1
    return found[0].text


LOBBY_FITS = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways');
  for (const seat of document.querySelectorAll('[data-testid=lobby] .friend-seat')) {
    for (const part of ['friend-status', 'invite-link', 'copy-invite', 'invite-qr']) {
      const el = seat.querySelector(`[data-testid=${part}]`);
      const r = el && el.getBoundingClientRect();
      const off = !r || !r.width || r.left < 0 || r.right > innerWidth;
      if (off) out.push(`${seat.dataset.testid} ${part}`);
    }
  }
  return out;
}"""
"""The lobby's seats whose state, link, copy button or QR code is missing or off the window's
width, and whether the page scrolls sideways."""


def test_four_player_roundup_with_two_friends_and_a_computer(devices):
    host = devices("?speed=0&snapshot=0&test=1")
    host.open_menu()
    links = deal_with_friends(
        host, "roundup", {1: "friend", 2: "friend", 3: "bot:random"}, players=4
    )
    assert set(links) == {1, 2}
    assert links[1] != links[2], "each friend's seat has its own invitation"
    # Each seat's QR code reads as that seat's link; the code's script came from this site.
    for seat in (1, 2):
        assert qr_text(host, f"[data-testid=friend-{seat}] [data-testid=invite-qr]") == links[seat]
    assert [u for u in host.requests if "/js/qr" in u and u.startswith(host.site)]
    # On a phone's width the lobby shows each seat's state, link, copy and code, unscrolled.
    host.page.set_viewport_size(PHONE["viewport"])
    assert host.page.evaluate(LOBBY_FITS) == []
    host.page.set_viewport_size({"width": 1280, "height": 800})
    ada, bea = devices(**PHONE), devices()
    reply = join(ada, links[1], "Ada")
    assert qr_text(ada, "[data-testid=reply-qr]") == reply
    # What the host has begun to paste for Bea is kept while the lobby redraws for Ada.
    host.page.fill("[data-testid=paste-2]", "the first half of a rep")
    connect(host, 1, reply)
    assert host.page.input_value("[data-testid=paste-2]") == "the first half of a rep"
    # The lobby waits for every friend.
    assert host.page.locator("[data-testid=start-shared]").is_disabled()
    # The host takes Bea's reply by opening her reply link in a new tab of the same browser:
    # that tab hands it to the inviting tab and says so; the inviting tab connects.
    relay = host.context.new_page()
    relayed: list[str] = []
    relay.on("request", lambda request: relayed.append(request.url))
    relay.goto(join(bea, links[2], "Bea"))
    said = relay.locator("[data-testid=handover][data-status=taken]")
    assert "Your other tab has the reply" in said.inner_text()
    host.page.wait_for_selector("[data-testid=friend-2][data-status=connected]")
    relay.close()
    assert relayed and not [u for u in relayed if any(part in u for part in RUNTIME)]
    host.page.click("[data-testid=start-shared]")
    players = [host, ada, bea]
    for device in players:
        device.page.wait_for_selector("[data-testid=table]")
        for name in ("Host", "Ada", "Bea", "East"):
            assert name in device.page.locator(".scores").inner_text()

    # On Ada's phone, at her turn, her hand hides nothing she decides with (e2e/test_fit.py);
    # a list of more than six moves folds into a drawer there (the deal is a random one), which
    # she opens for play() to use.
    def ada_to_move() -> bool:
        return friends_turn_settled(host, ada)

    play(players, random.Random(9), max_moves=10, until=ada_to_move, to_the_end=False)
    assert ada_to_move() and ada.page.evaluate(FITS, PLACES["roundup"]) == []
    drawer = ada.page.locator("[data-testid=moves-drawer] summary")
    if len(ada.page.evaluate(LOOK)["ids"]) > 6:
        drawer.click()
    else:
        assert drawer.count() == 0
    play(players, random.Random(8), max_moves=8, to_the_end=False)
    # Everyone's table has every move, the computer's too; each sees only their own hand.
    host.page.wait_for_function(
        "() => document.querySelector('[data-testid=table][data-bot-turn=false]')"
    )
    counts = {log_count(d) for d in players}
    for _ in range(50):
        if len(counts) == 1:
            break
        host.page.wait_for_timeout(100)
        counts = {log_count(d) for d in players}
    assert len(counts) == 1 and counts.pop() >= 8
    log = ada.page.locator("details:has(summary:has-text('Game log ('))").first.text_content()
    assert "East" in log and "Bea" in log and "Host" in log
    hands = [set(hand(d, "[data-testid=you] .ru-hand-down")) for d in players]
    assert all(hands) and not (hands[0] & hands[1] or hands[0] & hands[2] or hands[1] & hands[2])
    assert no_runtime(ada) and no_runtime(bea)
    # Bea's device drops: once the host's chosen wait is over (shortened by the test hook) a
    # computer plays her seat, and Ada's page is told so as the host's table is.
    # The message line then moves on with the computer's moves (at once at this speed), so each
    # page keeps every message it showed.
    for device in (host, ada):
        device.page.evaluate(KEEP_MESSAGES)
    host.page.evaluate("() => window.__parlourHost.standInWait(300)")
    bea.page.close()
    host.page.wait_for_selector("[data-testid=friend-2][data-standin=true]")
    told = "Bea's connection was lost: a computer"
    for device in (host, ada):
        device.page.wait_for_function(
            "(t) => window.__messagesSeen.some((m) => m.includes(t))", arg=told
        )

"""Around the table, in the browser: undo (allowed, refused after a draw, practice), the
suggested move, the "why not" message, the log by round, replays, export/import and
challenge links.

The tests share one page (``SHARED_PAGE``) but for the one about a first visit by a link.

Positions are set up from a saved record computed here with the engine (``open_record``:
on the shared page it is opened from the menu as a match file).
"""

from __future__ import annotations

import json
import random
import re
import urllib.parse

from pagehelpers import (
    CLEAR_SAVES,
    HAND_CARDS,
    HUMAN,
    IDLE,
    MENU,
    REPLACE_DIALOG,
    SIDE_ACTIONS,
    app_url,
    bot_seat,
    click_card,
    click_side_action,
    import_match,
    open_record,
    own_page,
    read_save,
    resume_button,
    saved_texts,
    settled_look,
    side_action_ids,
)
from playwright.sync_api import expect

import engine
from engine import fairness

SHARED_PAGE = True

REPLAY_IDLE = "[data-testid=replay][data-busy=false]"


def log_texts(page) -> list[str]:
    return page.locator(".log-list li").all_inner_texts()


def play_until(game: str, players: int, seed: int, want, limit: int = 4000):
    """A random playout of ``game`` until ``want(state)``; returns the state (or None)."""
    state = engine.new_game(game, players, seed, {})
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_over:
            return None
        if want(state):
            return state
        state.apply(rng.choice(state.legal_actions()))
    return None


def quiet_and_revealing(state):
    """Seat 0's actions that keep the turn: (one revealing nothing, one revealing a card)."""
    quiet = revealing = None
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        if after.current_player != 0:
            continue
        if after.move_revealed_hidden(len(after.history) - 1):
            revealing = revealing or action.id
        else:
            quiet = quiet or action.id
    return quiet, revealing


def finished_crisps(seed: int = 173, options: dict | None = None):
    """A whole Crisps match whose last action is seat 0's (so a person can end it); by
    default a short one (85 moves, where the median such random match takes 159), so that
    replaying it step by step in the page takes less time."""
    for s in range(seed, seed + 200):
        state = engine.new_game("crisps", 2, s, options or {})
        rng = random.Random(s)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        if state.history[-1].player == 0:
            return state.to_record()
    raise AssertionError("no suitable match")


# ----- undo ----------------------------------------------------------------------------------


def test_undo_is_allowed_for_own_moves_and_refused_after_a_draw(page, site, open_app):
    state = None
    for seed in range(1, 60):
        state = play_until(
            "mhing", 2, seed, lambda s: s.current_player == 0 and all(quiet_and_revealing(s))
        )
        if state:
            break
    assert state, "no position with both a quiet and a revealing move"
    quiet, revealing = quiet_and_revealing(state)
    open_record(page, site, open_app, state.to_record(), [HUMAN, bot_seat("normal")])
    before_ids, before_log = side_action_ids(page), log_texts(page)
    assert page.locator("[data-testid=undo]").count() == 0, "nothing of yours to take back yet"

    page.click(f"{SIDE_ACTIONS}[data-action='{quiet}']")
    page.wait_for_selector(IDLE)
    assert len(log_texts(page)) == len(before_log) + 1
    page.click("[data-testid=undo]")
    page.wait_for_selector(IDLE)
    assert side_action_ids(page) == before_ids and log_texts(page) == before_log
    assert "taken back" in page.locator("[data-testid=message]").inner_text()

    page.click(f"{SIDE_ACTIONS}[data-action='{revealing}']")  # a draw: it shows a card
    page.wait_for_selector(IDLE)
    assert page.locator("[data-testid=undo]").count() == 0, "no undo past a drawn card"
    assert page.locator("[data-testid=practice]").count() == 0
    saved = read_save(page)
    assert saved["data"]["record"]["actions"][-1] == revealing


def test_practice_match_is_marked_and_undo_crosses_a_draw(page, site, open_app):
    open_app(page, site)
    page.click("[data-testid=menu] [data-game=mhing]")
    page.check("[data-testid=practice-option]")
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    assert "Practice" in page.locator("[data-testid=practice]").inner_text()
    ids = side_action_ids(page)
    if "draw:stock" not in ids:  # the bot started: wait for our turn
        page.wait_for_selector(f"{SIDE_ACTIONS}[data-action='draw:stock']")
        ids = side_action_ids(page)
    before = log_texts(page)
    page.click(f"{SIDE_ACTIONS}[data-action='draw:stock']")
    page.wait_for_selector(IDLE)
    page.click("[data-testid=undo]")
    page.wait_for_selector(IDLE)
    assert log_texts(page) == before and "draw:stock" in side_action_ids(page)
    saved = read_save(page)
    assert saved["data"]["practice"] is True
    # Practice survives a reload.
    open_app(page, site)
    page.click(resume_button("mhing"))
    page.wait_for_selector(IDLE)
    assert page.locator("[data-testid=practice]").is_visible()


# ----- hint and "why not" ----------------------------------------------------------------------


def test_suggested_move_is_highlighted_not_played(page, site, open_app):
    state = play_until(
        "crisps",
        2,
        4,
        lambda s: (
            s.current_player == 0
            and s.view(0)["phase"] == "play"
            and any(a.id.startswith("play:") for a in s.legal_actions())
        ),
    )
    open_record(page, site, open_app, state.to_record(), [HUMAN, bot_seat("normal")])
    before = log_texts(page)
    page.click("[data-testid=hint]")
    hinted = page.locator(f"{SIDE_ACTIONS}.is-hinted")
    hinted.wait_for()
    assert hinted.count() == 1
    action = hinted.get_attribute("data-action")
    assert action in [a.id for a in state.legal_actions()]
    assert "Suggested move" in page.locator("[data-testid=message]").inner_text()
    assert log_texts(page) == before, "a suggestion plays nothing"
    if action.startswith("play:"):
        cards = action[5:].split(",")
        lit = page.locator(f"{HAND_CARDS}.is-hinted").evaluate_all(
            "n => n.map(c => c.dataset.card)"
        )
        assert sorted(lit) == sorted(cards)
    # Playing it clears the highlight.
    page.click(f"{SIDE_ACTIONS}[data-action='{action}']")
    page.wait_for_selector(IDLE)
    assert page.locator(".is-hinted").count() == 0


def crisps_order(card: str):
    rank, suit = card[:-1], card[-1]
    return (11 if rank in "QJ" else int(rank), "CDHS".index(suit))


def test_why_not_says_the_engines_reason(page, site, open_app):
    found = None
    for seed in range(9, 60):
        state = play_until(
            "crisps",
            2,
            seed,
            lambda s: (
                s.current_player == 0 and s.view(0)["phase"] == "play" and not s.view(0)["trick"]
            ),
        )
        if not state:
            continue
        hand = sorted(state.view(0)["hand"], key=crisps_order)
        for i, a in enumerate(hand):
            for b in hand[i + 1 :]:
                if crisps_order(b)[0] - crisps_order(a)[0] >= 2:
                    try:
                        state.find_action(f"play:{a},{b}")
                    except engine.IllegalAction as exc:
                        found = (state, [a, b], exc.message)
                        break
            if found:
                break
        if found:
            break
    assert found, "no illegal pair found"
    state, cards, reason = found
    open_record(page, site, open_app, state.to_record(), [HUMAN, bot_seat("normal")])
    for card in cards:
        click_card(page.locator(f"{HAND_CARDS}[data-card='{card}']"))
    page.click("[data-testid=why-play]")
    error = page.locator("[data-testid=error]")
    error.wait_for(state="visible")
    expected = engine.core.name_seats(reason, ["You", "North"]).rstrip(".").lower()
    assert error.inner_text().strip().rstrip(".").lower() == expected
    assert len(log_texts(page)) == len(state.history), "nothing was played"


# ----- the log by round, replay -----------------------------------------------------------


def test_log_is_grouped_by_round(page, site, open_app):
    ended_at: list[int] = []  # the number of moves when the first round was over

    def a_move_into_round_two(s) -> bool:
        if not ended_at and s.result()["rounds"]:
            ended_at.append(len(s.history))
        return (
            bool(ended_at)
            and len(s.history) > ended_at[0]
            and s.current_player == 0
            and s.view(0)["phase"] == "play"
        )

    state = play_until("crisps", 2, 5, a_move_into_round_two)
    open_record(page, site, open_app, state.to_record(), [HUMAN, bot_seat("normal", "North")])
    rounds = page.locator(".log-list .log-round").evaluate_all("n => n.map(s => s.dataset.round)")
    assert rounds[0] == "1" and rounds[-1] == str(len(state.result()["rounds"]) + 1)
    assert page.locator(".log-round-title").first.text_content() == "Round 1"
    assert page.locator(".log-list li").count() == len(state.history)
    # Its words, laid out or not (the first round is off screen once the log scrolls down).
    first_words = page.locator(".log-list li").first.text_content()
    assert first_words.startswith(("You: ", "North: "))
    overflow = page.locator(".log-list").evaluate("e => getComputedStyle(e).overflowY")
    assert overflow == "auto"
    # The earlier rounds are laid out only when scrolled into view (content-visibility): the
    # log opens on the newest entries, and scrolled back to its top it shows the first one.
    log = page.locator(".log-list")
    assert log.evaluate("e => e.scrollTop > 0"), "the log opens scrolled to its newest entries"
    log.evaluate("e => { e.scrollTop = 0; }")
    first = page.locator(".log-list li").first
    expect(first).to_be_in_viewport()
    expect(first).to_have_text(first_words)  # as laid out on the screen
    assert first.evaluate("e => e.getBoundingClientRect().height") > 0


def drawn_log(page) -> list[list]:
    """The table's log as drawn: each round's title and its entries' words (without notes)."""
    return page.locator(".log-list .log-round").evaluate_all(
        """(sections) => sections.map((s) => [
          s.querySelector('.log-round-title')?.textContent ?? '',
          [...s.querySelectorAll('li')].map((li) => {
            const words = li.cloneNode(true);
            words.querySelectorAll('.log-note').forEach((note) => note.remove());
            return words.textContent;
          }),
        ])"""
    )


def test_the_log_drawn_move_by_move_is_the_log_drawn_at_once(page, site, open_app):
    # Each move's snapshot brings only the log's new entries, and the table adds them to the
    # entries drawn before; across a round's end (when the rounds get their titles) the log
    # reads as the same match's log drawn in one go.
    seats = [HUMAN, bot_seat("random", "North")]
    state = play_until("crisps", 2, 5, lambda s: s.current_player == 0 and len(s.history) >= 4)
    open_record(page, site, open_app, state.to_record(), seats)
    for _ in range(400):
        if page.locator(".log-round[data-round='2'] li").count() >= 3:
            break
        look = settled_look(page)
        assert look is not None, "the match ended in its first round"
        click_side_action(page, look["ids"][0], look["folded"])
    else:
        raise AssertionError("the second round did not come")
    page.wait_for_selector(IDLE)
    drawn = drawn_log(page)
    assert [title for title, _ in drawn] == ["Round 1", "Round 2"]
    record = read_save(page)["data"]["record"]
    assert sum(len(words) for _, words in drawn) == len(record["actions"])
    page.click("[data-testid=menu-button]")
    import_match(page, record, seats)
    assert drawn_log(page) == drawn


def test_replay_steps_through_a_finished_match_and_reveals_hands(page, site, open_app):
    record = finished_crisps()
    last = record["actions"][-1]
    steps = len(record["actions"])
    open_record(
        page,
        site,
        open_app,
        {**record, "actions": record["actions"][:-1]},
        [HUMAN, bot_seat("normal")],
    )
    page.click(f"{SIDE_ACTIONS}[data-action='{last}']")
    page.wait_for_selector("[data-testid=match-over]")
    page.click("[data-testid=replay-open]")
    page.wait_for_selector(REPLAY_IDLE)
    step = page.locator("[data-testid=replay-step]")
    assert step.inner_text().startswith(f"Move 0 of {steps}")
    assert page.locator("[data-testid=replay] [data-action]").count() == 0, "read-only"
    assert page.locator("[data-testid=replay-table] [data-card]").count() > 0, "drawn by the game"
    start_hand = page.locator(
        "[data-testid=replay-table] [data-testid=hand] [data-card]"
    ).evaluate_all("n => n.map(c => c.dataset.card)")
    assert sorted(start_hand) == sorted(
        engine.new_game("crisps", 2, record["seed"], {}).view(0)["hand"]
    )

    def go(button: str, expect: int):
        page.click(f"[data-testid=replay-{button}]")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=replay-step]')"
            f"?.textContent.startsWith('Move {expect} of')"
        )
        page.wait_for_selector(REPLAY_IDLE)
        assert page.locator(".log-list li").count() == expect

    go("forward", 1)
    go("forward", 2)
    go("back", 1)
    go("end", steps)
    go("back", steps - 1)
    go("start", 0)
    assert page.locator("[data-testid=replay-back]").is_disabled()
    page.click("[data-testid=replay-play]")  # autoplay to the end
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-step]')"
        f"?.textContent.startsWith('Move {steps} of')",
        timeout=120_000,
    )
    assert page.locator("[data-testid=replay-forward]").is_disabled()

    # The match is over: every hand may be shown, at any step.
    go("start", 0)
    assert page.locator("[data-testid=replay-hands]").count() == 0
    page.check("[data-testid=replay-reveal]")
    hands = page.locator("[data-testid=replay-hands]")
    hands.wait_for()
    opponent = hands.locator("[data-seat='1'] [data-card]").evaluate_all(
        "n => n.map(c => c.dataset.card)"
    )
    assert sorted(opponent) == sorted(
        engine.new_game("crisps", 2, record["seed"], {}).view(1)["hand"]
    )
    page.click("[data-testid=replay-close]")
    page.wait_for_selector("[data-testid=match-over]")


def test_replay_of_an_unfinished_import_cannot_reveal(page, site, open_app, tmp_path):
    record = finished_crisps(40)
    seats = [HUMAN, bot_seat("easy")]
    open_app(page, site)
    # A finished match's file opens in the replay, where the hands may be shown.
    path = tmp_path / "done.json"
    path.write_text(json.dumps({"record": record, "seats": seats}))
    page.set_input_files("[data-testid=import]", str(path))
    page.wait_for_selector(REPLAY_IDLE)
    assert page.locator("[data-testid=replay-reveal]").count() == 1, "finished: may reveal"
    page.click("[data-testid=replay-close]")
    page.locator(MENU).first.wait_for()
    # The same match one move short of its end goes on the table, where it was: no replay,
    # nothing offered that shows the hidden hands.
    unfinished = {**record, "actions": record["actions"][:-1]}
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps({"record": unfinished, "seats": seats}))
    page.set_input_files("[data-testid=import]", str(path))
    page.wait_for_selector(f"{IDLE}, {REPLACE_DIALOG}")
    if page.locator(REPLACE_DIALOG).count():
        page.click("[data-testid=abandon-save]")
        page.wait_for_selector(IDLE)
    assert read_save(page)["data"]["record"]["actions"] == unfinished["actions"]
    assert page.locator("[data-testid=replay], [data-testid=replay-reveal]").count() == 0
    assert page.locator("[data-testid=replay-open]").count() == 0, "no replay before the end"
    assert page.locator(f"{SIDE_ACTIONS}[data-action='{record['actions'][-1]}']").count() == 1


# ----- export, import, challenge ------------------------------------------------------------


def test_export_then_import_round_trip_and_a_bad_file(page, site, open_app):
    state = play_until("crisps", 2, 12, lambda s: len(s.history) >= 9 and s.current_player == 0)
    seats = [HUMAN, bot_seat("easy", "North")]
    open_record(page, site, open_app, state.to_record(), seats)
    before_log, before_ids = log_texts(page), side_action_ids(page)
    # While the match is played neither a file nor a link is offered: both carry the deal.
    assert page.locator("[data-testid=export], [data-testid=challenge]").count() == 0
    later = page.locator("[data-testid=share-later]").inner_text()
    assert "offered when the match ends" in later and "hidden cards" in later

    # A match file made elsewhere (an unfinished one) still opens, exactly where it was.
    page.click("[data-testid=menu-button]")
    page.click("[data-testid=discard-save][data-slot=crisps]")
    page.click("[data-testid=menu] [data-game=crisps]")
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    page.click("[data-testid=menu-button]")
    unfinished = {"parlour": "match", "v": 1, "record": state.to_record(), "seats": seats}
    page.set_input_files(
        "[data-testid=import]",
        files=[
            {
                "name": "match.json",
                "mimeType": "application/json",
                "buffer": json.dumps(unfinished).encode(),
            }
        ],
    )
    # The match started just before is saved: opening the file asks first.
    page.locator(REPLACE_DIALOG).wait_for()
    assert "Starting the match from your file ends it" in page.locator(REPLACE_DIALOG).inner_text()
    page.click("[data-testid=abandon-save]")
    page.wait_for_selector(IDLE)
    assert log_texts(page) == before_log and side_action_ids(page) == before_ids
    assert "North" in page.locator("[data-testid=table] .scores").inner_text()

    # Once the match is over the file is offered, and it holds the whole match. Its deal was
    # fixed before the first move: the table shows the fingerprint, never the seed.
    record = finished_crisps()
    deal = fairness.commit(engine.new_game("crisps", 2, record["seed"], record["options"]))
    record["deal"] = deal
    page.click("[data-testid=menu-button]")
    import_match(page, {**record, "actions": record["actions"][:-1]}, seats)
    shown = fairness.short(deal["fingerprint"])
    assert page.locator("[data-testid=deal-fingerprint]").text_content() == shown
    assert shown in page.locator("[data-testid=log-deal]").inner_text()
    assert page.locator("[data-testid=deal-seed]").count() == 0
    page.click(f"{SIDE_ACTIONS}[data-action='{record['actions'][-1]}']")
    page.wait_for_selector("[data-testid=match-over]")
    with page.expect_download() as info:
        page.click("[data-testid=export-over]")
    download = info.value
    assert re.fullmatch(r"parlour-crisps-[\d-]+\.json", download.suggested_filename)
    exported = json.loads(open(download.path()).read())
    assert exported["record"]["actions"] == record["actions"]
    assert exported["record"]["deal"] == deal
    assert exported["seats"][1]["level"] == "easy"
    # Check this deal, on the match-over dialog: the fingerprint shown at the start, the
    # seed and salt revealed, every move replayed.
    page.click("[data-testid=check-deal]")
    expect(page.locator("[data-testid=deal-verdict]")).to_have_attribute("data-ok", "true")
    lines = page.locator("[data-testid=deal-lines]").inner_text()
    assert shown in lines and "fixed before the first move" in lines
    assert f"All {len(record['actions'])} moves were legal" in lines
    page.click("[data-testid=close-deal-check]")
    assert page.locator("[data-testid=deal-seed]").text_content() == str(record["seed"])
    # The finished file, opened from the menu, checks on its replay; one whose salt was
    # changed says what does not match.
    page.click("[data-testid=match-over] [data-focus=over-menu]")
    for salt, ok, words in (
        (deal["salt"], "true", "moves were legal"),
        ("e" * 32, "false", "make the fingerprint"),
    ):
        finished = {"record": {**record, "deal": {**deal, "salt": salt}}, "seats": seats}
        page.set_input_files(
            "[data-testid=import]",
            files=[
                {
                    "name": "m.json",
                    "mimeType": "application/json",
                    "buffer": json.dumps(finished).encode(),
                }
            ],
        )
        page.wait_for_selector(REPLAY_IDLE)
        page.click("[data-testid=replay-check-deal]")
        expect(page.locator("[data-testid=deal-verdict]")).to_have_attribute("data-ok", ok)
        assert words in page.locator("[data-testid=deal-lines]").inner_text()
        page.click("[data-testid=close-deal-check]")
        page.click("[data-testid=replay-close]")
        page.wait_for_selector(MENU)
    page.click("[data-testid=menu] [data-game=crisps]")
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    before_log = log_texts(page)

    # Bad files: a clear message on the menu, and the match in progress is untouched.
    page.click("[data-testid=menu-button]")
    saved = saved_texts(page)
    bad_record = {**exported, "record": {**exported["record"], "actions": ["play:ZZ"]}}
    for name, content, words in (
        ("junk.json", b"this is not json", "not readable"),
        ("empty.json", b"{}", "no record"),
        ("wrong.json", json.dumps(bad_record).encode(), "cannot be used"),
    ):
        page.set_input_files(
            "[data-testid=import]",
            files=[{"name": name, "mimeType": "application/json", "buffer": content}],
        )
        error = page.locator("[data-testid=menu] [data-testid=error]")
        page.wait_for_function(
            "w => document.querySelector('[data-testid=menu] [data-testid=error]')"
            "?.textContent.includes(w)",
            arg=words,
        )
        assert "Nothing was changed" in error.inner_text()
        assert saved_texts(page) == saved
    page.click(resume_button("crisps"))
    page.wait_for_selector(IDLE)
    assert log_texts(page) == before_log


@own_page
def test_a_challenge_link_deals_the_same_cards(page, site, open_app):
    options = {"auto_skip": True}
    hash_ = "#game=crisps&seed=4242&players=human,random&options=" + urllib.parse.quote(
        "auto_skip:true"
    )
    page.goto(app_url(site, "?speed=0" + hash_))
    page.wait_for_selector(IDLE, timeout=90_000)
    expected = engine.new_game("crisps", 2, 4242, options)
    # The person has not played yet (a computer may have led): the hand is the dealt one.
    hand = page.locator(HAND_CARDS).evaluate_all("n => n.map(c => c.dataset.card)")
    assert sorted(hand) == sorted(expected.view(0)["hand"])
    assert "#" not in page.url, "the link is read once"
    saved = read_save(page)
    record = saved["data"]["record"]
    assert (record["seed"], record["options"]["auto_skip"]) == (4242, True)
    assert [s["type"] for s in saved["data"]["seats"]] == ["human", "bot"]
    assert saved["data"]["seats"][1]["level"] == "random"

    # While this match is played there is no link to give (it would show the hidden hand).
    assert page.locator("[data-testid=challenge]").count() == 0
    assert page.locator("[data-testid=share-later]").is_visible()

    # A finished match: its link, opened in a fresh page, deals the very same cards.
    record = finished_crisps(seed=30, options=options)
    page.click("[data-testid=menu-button]")
    import_match(page, {**record, "actions": record["actions"][:-1]}, [HUMAN, bot_seat("random")])
    page.click(f"{SIDE_ACTIONS}[data-action='{record['actions'][-1]}']")
    page.wait_for_selector("[data-testid=match-over]")
    page.click("[data-testid=challenge-over]")
    link = page.locator("[data-testid=challenge-link]").input_value()
    fragment = urllib.parse.parse_qs(urllib.parse.urlsplit(link).fragment)
    assert fragment["game"] == ["crisps"] and fragment["seed"] == [str(record["seed"])]
    assert fragment["players"] == ["human,random"]
    assert "auto_skip:true" in fragment["options"][0]
    page.click("[data-testid=close-challenge]")
    assert page.locator("[data-testid=challenge-dialog]").count() == 0
    assert page.locator("[data-testid=match-over]").is_visible()

    fresh = page.context.new_page()
    problems: list[str] = []
    fresh.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    fresh.on("pageerror", lambda e: problems.append(str(e)))
    try:
        fresh.goto(link)
        fresh.wait_for_selector(IDLE, timeout=90_000)
        dealt = engine.new_game("crisps", 2, record["seed"], options).view(0)["hand"]
        hand = fresh.locator(HAND_CARDS).evaluate_all("n => n.map(c => c.dataset.card)")
        assert sorted(hand) == sorted(dealt)
    finally:
        fresh.close()
    assert not problems, problems


def finished_match(game: str, players: int, options: dict, last_seat: int) -> dict:
    """The record of a whole random playout of ``game`` whose last action is ``last_seat``'s."""
    for seed in range(40, 400):
        state = engine.new_game(game, players, seed, options)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        if state.history[-1].player == last_seat:
            return state.to_record()
    raise AssertionError("no suitable match")


def challenge_link_of(page, record: dict, seats: list[dict], last_seat: int) -> str:
    """Open ``record`` less its last action, make that action as seat ``last_seat``'s person,
    and read the finished match's challenge link (from the menu, back to it)."""
    import_match(page, {**record, "actions": record["actions"][:-1]}, seats)
    if page.locator("[data-testid=handoff]").is_visible():
        page.click("[data-testid=handoff-ready]")
    page.click(f"{SIDE_ACTIONS}[data-action='{record['actions'][-1]}']")
    page.wait_for_selector("[data-testid=match-over]")
    page.click("[data-testid=challenge-over]")
    link = page.locator("[data-testid=challenge-link]").input_value()
    page.click("[data-testid=close-challenge]")
    page.click("[data-testid=match-over] [data-focus=over-menu]")
    return link


@own_page
def test_challenge_links_of_rotated_seats_and_pass_and_play_deal_the_same_cards(
    page, site, open_app
):
    """A finished match's link, opened in a fresh page, deals its very cards to the same seats:
    with the person in the second seat and an option changed, and for two people at one
    device (the first to move is handed the device and holds the dealt hand)."""
    open_app(page, site)
    options = {"special_rank_runs": True}
    rotated = finished_match("crisps", 2, options, last_seat=1)
    link = challenge_link_of(page, rotated, [bot_seat("random"), HUMAN], last_seat=1)
    assert "players=random%2Chuman" in link and "special_rank_runs%3Atrue" in link, link
    runs = [(link, rotated["seed"], options, 1, False)]
    shared = finished_match("crisps", 2, {}, last_seat=0)
    link = challenge_link_of(page, shared, [HUMAN, {**HUMAN, "name": "Bea"}], last_seat=0)
    assert "players=human%2Chuman" in link, link
    first = engine.new_game("crisps", 2, shared["seed"], {}).current_player
    runs.append((link, shared["seed"], {}, first, True))

    fresh = page.context.new_page()
    problems: list[str] = []
    fresh.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    fresh.on("pageerror", lambda e: problems.append(str(e)))
    try:
        for link, seed, opts, seat, handed in runs:
            fresh.goto("about:blank")
            fresh.goto(link)
            if handed:
                fresh.click("[data-testid=handoff-ready]")
            fresh.wait_for_selector(IDLE, timeout=90_000)
            dealt = engine.new_game("crisps", 2, seed, opts).view(seat)["hand"]
            hand = fresh.locator(HAND_CARDS).evaluate_all("n => n.map(c => c.dataset.card)")
            assert sorted(hand) == sorted(dealt), link
            record = read_save(fresh)["data"]["record"]
            assert record["seed"] == seed
            assert record["options"] == engine.GAMES["crisps"].normalize_options(opts)
            fresh.evaluate(CLEAR_SAVES)
    finally:
        fresh.close()
    assert not problems, problems


def test_bad_challenge_links_say_why_and_keep_the_saved_match(page, site, open_app):
    open_app(page, site)
    page.click("[data-testid=menu] [data-game=crisps]")
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    saved = saved_texts(page)
    assert "crisps" in saved
    for fragment, words in (
        ("game=chess&seed=1", 'no game called "chess"'),
        ("game=crisps&seed=banana", "not a whole number"),
        ("game=crisps&seed=5&players=human,wizard", '"wizard" is not a player'),
        ("game=crisps&seed=5&players=human,normal,normal", "for 2 players"),
        ("game=crisps&seed=5&options=colour:blue", 'no option "colour"'),
        ("game=crisps&seed=5&options=auto_skip:maybe", 'cannot be "maybe"'),
        ("game=crisps&seed=5&options=%7Bbroken", "not readable"),
    ):
        page.goto(app_url(site, "?speed=0#" + fragment))
        page.locator(MENU).first.wait_for()
        error = page.locator("[data-testid=menu] [data-testid=error]")
        page.wait_for_function(
            "w => document.querySelector('[data-testid=menu] [data-testid=error]')"
            "?.textContent.includes(w)",
            arg=words,
        )
        assert "cannot be used" in error.inner_text() and words in error.inner_text(), fragment
        assert page.locator(resume_button("crisps")).is_visible(), (
            "the saved match is still offered"
        )
        assert saved_texts(page) == saved

    # A good link while a match is saved is offered, not forced.
    page.goto(app_url(site, "?speed=0#game=crisps&seed=5&players=2"))
    page.locator("[data-testid=challenge-offer]").wait_for()
    page.click("[data-testid=accept-challenge]")
    page.wait_for_selector(IDLE)
    record = read_save(page)
    assert record["data"]["record"]["seed"] == 5

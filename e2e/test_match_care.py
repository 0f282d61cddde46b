"""Around a match, in the browser: nothing a person started is lost without a word, the words
about a move speak from the right seat, the browser's Back button stays on the site, a round's
end leaves nobody "to play", and the review of a finished match writes the computer's choice
out.

- Each game keeps its own match in progress, and a coached round of each game its own: two
  games' matches are saved at once and each resumed; a coached round ends neither; a new
  match of a game whose match is saved (or a coached round over a coached round) asks first:
  keep playing or abandon it. The one match earlier versions kept is still there.
- The Back button on a rules page returns to the screen it was opened from.
- Roundup's round-over dialog draws the suit that closed last on its tile, and speaks of the
  person's bid as "your bid", never "You's bid"; the table behind it shows no seat to play.
- Another seat's card played to its own stack is "their own stack" in the person's log; cards
  that came into the person's hand before another seat's move are not told as part of it.
- The review says when every move is ranked, and calls a move the search cannot tell from
  its choice "as good as the best" (e2e/test_analysis.py checks that a move it can tell
  apart names the computer's choice in the page).

The tests share one page (``SHARED_PAGE``): the engine starts once for the module.
"""

from __future__ import annotations

import json

from pagehelpers import (
    CLEAR_SAVES,
    HUMAN,
    IDLE,
    LEGACY_SAVE_KEY,
    MATCH_OVER,
    MENU,
    REPLACE_DIALOG,
    ROUND_OVER,
    SIDE_ACTIONS,
    bot_seat,
    open_record,
    random_playout,
    read_save,
    resume_button,
    saved_match,
)

SHARED_PAGE = True
MESSAGE = "[data-testid=message]"


def find(game: str, players: int, want, options: dict | None = None, seeds=range(1, 200)):
    """The first position of a seeded random playout of ``game`` where ``want(state)``."""
    for seed in seeds:
        for state in random_playout(game, players, options or {}, seed):
            if want(state):
                return state
    raise AssertionError(f"no {game} position found")


def seats(players: int) -> list[dict]:
    names = ["North"] if players == 2 else ["West", "North", "East", "South", "Far"]
    return [HUMAN] + [bot_seat("random", names[i]) for i in range(players - 1)]


# ----- a match in progress is never dropped without a word ------------------------------------


def rows(page) -> list[str]:
    """The menu's matches in progress, by slot, the latest first."""
    return page.locator("[data-testid=saves] [data-testid=save]").evaluate_all(
        "ns => ns.map(n => n.dataset.slot)"
    )


def test_each_game_keeps_its_own_match_and_a_coached_round_ends_none(page, site, open_app):
    open_app(page, site)
    page.evaluate(CLEAR_SAVES)
    page.click("[data-testid=menu] [data-game=crisps]")
    assert page.locator("[data-testid=replace-warning]").count() == 0
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    crisps = read_save(page, "crisps")
    assert crisps

    # Another game's match starts at once, and both are kept.
    page.click("[data-testid=menu-button]")
    page.click("[data-testid=menu] [data-game=spite]")
    assert page.locator("[data-testid=replace-warning]").count() == 0
    assert page.locator("[data-testid=start]").inner_text() == "Start the match"
    page.click("[data-testid=start]")
    page.wait_for_selector(f"{IDLE}[data-table-game=spite]")
    spite = read_save(page, "spite")
    assert spite and read_save(page, "crisps") == crisps
    page.click("[data-testid=menu-button]")
    assert rows(page) == ["spite", "crisps"]
    saves = page.locator("[data-testid=saves]")
    assert saves.locator("h2").inner_text() == "Your matches in progress"
    assert saves.locator("[data-slot=crisps] .save-name").inner_text() == "Crisps"
    assert page.locator(resume_button("crisps")).get_attribute("aria-label") == (
        "Resume your Crisps match"
    )
    # Each resumes where it was.
    page.click(resume_button("crisps"))
    page.wait_for_selector(f"{IDLE}[data-table-game=crisps]")
    assert read_save(page, "crisps")["data"]["record"] == crisps["data"]["record"]
    page.click("[data-testid=menu-button]")
    page.click(resume_button("spite"))
    page.wait_for_selector(f"{IDLE}[data-table-game=spite]")
    assert read_save(page, "spite")["data"]["record"] == spite["data"]["record"]

    # A coached round, of that game or another, asks nothing and ends neither match.
    page.click("[data-testid=menu-button]")
    page.click("[data-testid=learn][data-learn-game=crisps]")
    page.wait_for_selector(f"{IDLE}[data-table-game=crisps] [data-testid=coach]")
    assert page.locator(REPLACE_DIALOG).count() == 0
    coached = read_save(page, "crisps.learn")
    assert coached and coached["page"]["coach"]
    assert read_save(page, "crisps")["data"]["record"] == crisps["data"]["record"]
    page.click("[data-testid=menu-button]")
    assert set(rows(page)) == {"crisps", "spite", "crisps.learn"}
    assert page.locator(resume_button("crisps.learn")).get_attribute("aria-label") == (
        "Resume your coached round of Crisps"
    )
    assert saves.locator("[data-slot='crisps.learn'] .save-name").inner_text() == (
        "Crisps, coached round"
    )

    # The game's own set-up says what starting would end, and offers the way back.
    page.click("[data-testid=menu] [data-game=crisps]")
    warning = page.locator("[data-testid=replace-warning]")
    assert "Crisps match in progress" in warning.inner_text()
    assert page.locator("[data-testid=start]").inner_text() == "Abandon it and start"
    page.click("[data-testid=keep-playing]")
    page.wait_for_selector(f"{IDLE}[data-table-game=crisps]")
    assert page.locator("[data-testid=coach]").count() == 0, "the match, not the coached round"
    assert read_save(page, "crisps")["data"]["record"] == crisps["data"]["record"]

    # A second coached round of the same game asks about the first one: keep or abandon it.
    page.click("[data-testid=menu-button]")
    page.click("[data-testid=learn][data-learn-game=crisps]")
    dialog = page.locator(REPLACE_DIALOG)
    assert "Your coached round of Crisps is in progress" in dialog.inner_text()
    page.click("[data-testid=keep-playing]")
    page.wait_for_selector(f"{IDLE}[data-table-game=crisps] [data-testid=coach]")
    page.click("[data-testid=menu-button]")
    page.click("[data-testid=learn][data-learn-game=crisps]")
    page.click("[data-testid=abandon-save]")
    page.wait_for_selector(f"{IDLE}[data-table-game=crisps] [data-testid=coach]")
    assert read_save(page, "crisps")["data"]["record"] == crisps["data"]["record"]

    # Discarding one leaves the others.
    page.click("[data-testid=menu-button]")
    page.click("[data-testid=discard-save][data-slot=spite]")
    assert set(rows(page)) == {"crisps", "crisps.learn"}
    assert read_save(page, "spite") is None
    page.click("[data-testid=menu] [data-game=spite]")
    assert page.locator("[data-testid=start]").inner_text() == "Start the match"


def test_the_match_an_earlier_version_saved_is_still_there(page, site, open_app):
    """The one match earlier versions kept for all games (under parlour.save) is this
    version's match of its game, resumed where it was."""
    record = find("mhing", 2, lambda s: len(s.history) >= 3 and s.current_player == 0)
    legacy = saved_match(record.to_record(), seats(2))
    open_app(page, site)
    page.evaluate(CLEAR_SAVES)
    key = json.dumps(LEGACY_SAVE_KEY)
    page.evaluate(f"() => localStorage.setItem({key}, {json.dumps(json.dumps(legacy))})")
    page.click("[data-testid=menu] [data-game=mhing]")  # the set-up reads the saves again
    assert (
        "General Mhing match in progress"
        in page.locator("[data-testid=replace-warning]").inner_text()
    )
    page.click("[data-testid=back]")
    assert rows(page) == ["mhing"]
    assert page.evaluate(f"() => localStorage.getItem({key})") is None
    assert read_save(page, "mhing") == legacy
    page.click(resume_button("mhing"))
    page.wait_for_selector(f"{IDLE}[data-table-game=mhing]")
    assert read_save(page, "mhing")["data"]["record"]["actions"] == record.to_record()["actions"]
    assert page.locator(".log-list li").count() >= 3


# ----- the browser's Back button -------------------------------------------------------------


def test_the_back_button_on_a_rules_page_stays_on_the_site(page, site, open_app):
    open_app(page, site)
    address = page.url
    page.click("[data-testid=rules][data-rules-game=spite]")
    page.locator("[data-testid=rules-page]").wait_for()
    page.go_back()
    page.locator(MENU).first.wait_for()
    assert page.url == address
    # From a set-up screen, back to it; the page's own Back button still works too.
    page.click("[data-testid=menu] [data-game=mhing]")
    page.locator("[data-testid=setup]").wait_for()
    page.click("[data-testid=setup] [data-testid=rules]")
    page.locator("[data-testid=rules-page]").wait_for()
    page.go_back()
    page.locator("[data-testid=setup]").wait_for()
    page.click("[data-testid=setup] [data-testid=rules]")
    page.click("[data-testid=rules-page] [data-testid=back]")
    page.locator("[data-testid=setup]").wait_for()
    assert page.url == address


# ----- a round's end -----------------------------------------------------------------------------


def ends_the_round(state) -> bool:
    """Seat 0 is to move, with a move that ends a round while the match goes on."""
    if state.current_player != 0 or state.is_over:
        return False
    done = len(state.result()["rounds"])
    for action in state.legal_actions():
        world = state.clone()
        world.apply(action.id)
        if len(world.result()["rounds"]) > done and not world.is_over:
            return True
    return False


def round_ender(state) -> str:
    done = len(state.result()["rounds"])
    for action in state.legal_actions():
        world = state.clone()
        world.apply(action.id)
        if len(world.result()["rounds"]) > done:
            return action.id
    raise AssertionError("no move ends the round")


TILE_LOOK = """(el) => {
  const style = getComputedStyle(el);
  const alpha = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    const p = m ? m[1].split(',') : [];
    return p.length > 3 ? Number(p[3]) : 1;
  };
  return {text: el.textContent.trim(), color: style.color, colorAlpha: alpha(style.color),
    background: style.backgroundImage !== 'none' ? style.backgroundImage : style.backgroundColor,
    backgroundAlpha: style.backgroundImage !== 'none' ? 1 : alpha(style.backgroundColor)};
}"""


def test_roundups_round_end_draws_the_suit_and_leaves_nobody_to_play(page, site, open_app):
    state = find("roundup", 2, ends_the_round, {"target_score": 10})
    open_record(page, site, open_app, state.to_record(), seats(2))
    page.click(f"{SIDE_ACTIONS}[data-action='{round_ender(state)}']")
    dialog = page.locator(ROUND_OVER)
    dialog.wait_for()
    world = state.clone()
    world.apply(round_ender(state))
    suit = (
        world.result()["rounds"][-1].get("closing_suit")
        or world.view(0)["last_round"]["closing_suit"]
    )
    tile = dialog.locator("[data-testid=closing-suit-tile]")
    look = tile.evaluate(TILE_LOOK)
    assert look["text"] == {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}[suit]
    # Drawn, not blank: opaque ink on an opaque face of its own.
    assert look["colorAlpha"] == 1 and look["backgroundAlpha"] == 1, look
    assert look["color"] != look["background"], look
    labels = dialog.locator("[data-testid=round-bid] [role=img]").evaluate_all(
        "n => n.map(e => e.getAttribute('aria-label'))"
    )
    assert not any("You's" in label for label in labels), labels
    assert (
        any("your bid" in label for label in labels) or not world.view(0)["last_round"]["bids"][0]
    ), labels
    # Behind the dialog, and with it put aside, nobody is to play on the finished round.
    for _ in range(2):
        badges = page.locator("[data-testid=table] .game-root .turn-badge").all_inner_texts()
        assert badges == [], badges
        assert page.locator("[data-testid=table] .game-root .is-turn").count() == 0
        page.click("[data-testid=view-table]")
    page.click("[data-testid=continue]")
    page.wait_for_selector(IDLE)


# ----- narration from the right seat -------------------------------------------------------------


def test_another_seats_play_to_its_own_stack_is_theirs_in_the_log(page, site, open_app):
    def played_own(state) -> bool:
        return state.current_player == 0 and any(
            a.player != 0 and a.id.startswith("play:") for a in state.history
        )

    state = find("progression", 3, played_own)
    open_record(page, site, open_app, state.to_record(), seats(3))
    entries = page.locator("[data-testid=log] .log-entry").all_inner_texts()
    index = next(
        i for i, a in enumerate(state.history) if a.player != 0 and a.id.startswith("play:")
    )
    assert entries[index].endswith("to their own stack"), entries[index]
    theirs = [e for e in entries if not e.startswith("You:")]
    assert not any("your stack" in e for e in theirs), theirs


def test_cards_that_came_after_another_seats_move_are_not_said_to_be_from_it(page, site, open_app):
    def can_discard(state) -> bool:
        return (
            state.current_player == 0
            and len(state.history) > 4
            and any(a.id.startswith("discard:") for a in state.legal_actions())
            and len(state.view(0)["hand"]) <= 3
        )

    state = find("spite", 2, can_discard, {"target": 0})
    open_record(page, site, open_app, state.to_record(), seats(2))
    discard = next(a.id for a in state.legal_actions() if a.id.startswith("discard:"))
    page.click(f"{SIDE_ACTIONS}[data-action='{discard}']")
    page.wait_for_selector(f"{IDLE} {SIDE_ACTIONS}")
    if page.locator(MATCH_OVER).count():
        return
    # The person's hand was refilled as their turn ended (Spite and Malice's rule); the
    # message of North's move that follows tells the new cards without giving them to North.
    message = page.locator(MESSAGE).inner_text()
    assert message.startswith("Last move: North"), message
    assert "New in your hand:" in message and "received" not in message, message
    entry = page.locator(f"[data-testid=log] .log-entry[data-index='{len(state.history)}']")
    assert "You received" in entry.locator("[data-testid=log-note]").inner_text()


# ----- the review of a finished match --------------------------------------------------------


def test_the_review_writes_the_computers_choice_and_says_when_all_are_ranked(page, site, open_app):
    # A single game of Spite and Malice where the person had few choices (so the review is
    # short), cut before the person's last move.
    state = list(random_playout("spite", 2, {"target": 0}, 545))[-1]
    record = state.to_record()
    last = max(i for i, a in enumerate(state.history) if a.player == 0)
    assert last == len(state.history) - 1, "the person ends this game"
    open_record(page, site, open_app, {**record, "actions": record["actions"][:last]}, seats(2))
    page.click(f"{SIDE_ACTIONS}[data-action='{record['actions'][last]}']")
    page.locator(MATCH_OVER).wait_for()
    page.click("[data-testid=review-open]")
    run = page.locator("[data-testid=review-run]")
    assert run.inner_text() == "Rank my moves"
    run.click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=review-run]')?.textContent"
        " === 'All your moves are ranked'",
        timeout=120_000,
    )
    assert run.is_disabled()
    texts = page.locator("[data-testid=move-rank]").all_inner_texts()
    assert len(texts) == len([a for a in state.history if a.player == 0])
    # The search cannot tell most of these moves apart (Spite and Malice's figures are an
    # estimated chance of winning, close for every move): they are "as good as the best".
    assert "as good as the best" in texts, texts
    off = page.locator("[data-testid=review] .log-entry.is-off-move")
    best = page.locator("[data-testid=move-best]")
    assert best.count() == off.count()
    for text in best.all_inner_texts():
        assert "the computer's choice: " in text and text.split(": ", 1)[1].strip()
    page.click("[data-testid=review-back]")
    page.locator(MATCH_OVER).wait_for()

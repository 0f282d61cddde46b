"""engine/coach.py and the games' coach.json: each coached round, played by following the
coach, says every step, covers every checklist rule and only ever suggests legal moves; the
coach reads the person's view alone; the bridge's ``coach`` call gives the page the same."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import bots, coach
from engine.bridge import reset
from tests.bridge_calls import call

GAMES = list(engine.GAMES)


@pytest.fixture(autouse=True)
def _fresh_bridge():
    reset()
    yield
    reset()


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_coach_whose_steps_name_checklist_rules(game):
    c = coach.load(game)
    assert c.deals and c.checklist and c.steps
    named = {rule for step in c.steps for rule in step["rules"]}
    assert named == set(c.checklist), "every checklist rule is some step's business"
    assert any(step.get("scoring") for step in c.steps), "the round's end explains its score"
    assert any(step.get("repeat") and step["when"] == {"turn": "you"} for step in c.steps), (
        "a step speaks on each of the person's turns"
    )


@pytest.mark.parametrize("game", GAMES)
def test_following_the_coach_says_every_step_and_covers_the_checklist(game):
    c = coach.load(game)
    said: set[str] = set()
    rules: set[str] = set()
    for deal in c.deals:
        run = follow_checked(game, deal)
        said.update(run["said"])
        rules.update(run["rules"])
    assert said == {step["id"] for step in c.steps}
    assert rules == set(c.checklist)


def follow_checked(game: str, deal: dict) -> dict:
    """``coach.follow`` step by step, checking each suggestion against the legal moves, that
    a suggestion comes on every turn of the person's and that the coach speaks on it."""
    state = coach.start(game, deal)
    bot = bots.make(coach.BOT_LEVEL)
    rng = random.Random(deal["seed"] ^ coach.BOT_SEED_MASK)
    said: list[str] = []
    rules: set[str] = set()
    steps = {s["id"]: s for s in coach.load(game).steps}
    for _ in range(5000):
        advice = coach.advise(state, set(said), deal=deal)
        for message in advice["messages"]:
            assert message["text"].strip()
            if message["id"] not in said:
                said.append(message["id"])
            rules.update(steps[message["id"]]["rules"])
        if advice["done"]:
            if "until" not in deal:
                assert any(m["lines"] for m in advice["messages"]), "the round's score, explained"
            break
        if state.current_player == coach.PERSON:
            assert advice["messages"], "the coach speaks on each of the person's turns"
            action = advice["suggestion"]
            assert action is not None
            assert action.id in {a.id for a in state.legal_actions()}
            state.apply(action.id)
        else:
            assert advice["suggestion"] is None
            state.apply(bot.choose(state, state.current_player, rng))
    else:
        raise AssertionError("the coached round did not end")
    run = coach.follow(game, deal)
    assert run["said"] == said and run["rules"] == rules
    return run


@pytest.mark.parametrize("game", GAMES)
def test_the_coach_never_gets_stuck_when_the_person_plays_otherwise(game):
    """The person ignores the coach (random moves): a legal suggestion on every turn."""
    deal = coach.load(game).deals[0]
    state = coach.start(game, deal)
    rng = random.Random(1)
    shown: set[str] = set()
    while not state.is_over and coach.rounds_done(state) == 0:
        advice = coach.advise(state, shown)
        shown.update(m["id"] for m in advice["messages"])
        legal = state.legal_actions()
        if state.current_player == coach.PERSON:
            assert advice["suggestion"] in legal
        state.apply(legal[rng.randrange(len(legal))])
    assert coach.advise(state, shown)["done"]


@pytest.mark.parametrize("game", GAMES)
def test_the_coach_reads_only_what_the_person_may_know(game):
    """Two states the person cannot tell apart (the same view, the same legal moves, the same
    public words of the latest move) get the same advice: hidden cards are re-dealt."""
    deal = coach.load(game).deals[0]
    state = coach.start(game, deal)
    bot = bots.make("normal")
    rng = random.Random(3)
    checked = 0
    for _ in range(60):
        if state.is_over:
            break
        other = state.determinize(coach.PERSON, random.Random(checked))
        if coach.moment(other) == coach.moment(state):
            assert advice_ids(other) == advice_ids(state)
            checked += 1
        state.apply(bot.choose(state, state.current_player, rng))
    assert checked


def advice_ids(state):
    advice = coach.advise(state, set())
    action = advice["suggestion"]
    return [m["id"] for m in advice["messages"]], action.id if action else None


def test_triggers_read_paths_ranks_and_seats():
    view = {
        "phase": "play",
        "stacks": {"S": ["AS", "QS"], "H": []},
        "per_seat": [[], ["7H"]],
        "attack": {"target": 0},
    }
    m = coach.Moment(view, 0, [], {"kind": "play", "by": "other", "cards": ["QH"]}, 0, 4)
    assert coach.holds({"view": [{"path": "stacks.*", "rank": ["Q"]}]}, m)
    assert not coach.holds({"view": [{"path": "stacks.H", "rank": ["Q"]}]}, m)
    assert coach.holds({"view": [{"path": "per_seat.other", "at_least": 1}]}, m)
    assert not coach.holds({"view": [{"path": "per_seat.you", "at_least": 1}]}, m)
    assert coach.holds({"view": [{"path": "attack.target", "eq": "@you"}]}, m)
    assert coach.holds({"last": {"kind": ["play"], "by": "other", "rank": ["Q"]}}, m)
    assert not coach.holds({"last": {"by": "you"}}, m)
    assert not coach.holds({"turn": "you"}, m)
    assert coach.holds({"turn": "other", "phase": ["play"]}, m)
    assert not coach.holds({"rounds_done": 1}, m)


def test_a_malformed_coach_is_refused():
    good = {"id": "a", "rules": ["r"], "when": {}, "say": "Hello."}
    checklist = [{"id": "r", "rule": "A rule."}]
    for bad in (
        {**good, "when": {"moon": "full"}},
        {**good, "rules": ["unknown"]},
        {**good, "when": {"view": [{"path": "x", "eq": 1, "ne": 2}]}},
        {**good, "colour": "red"},
    ):
        with pytest.raises(coach.CoachError):
            coach._check("x", {"deals": [], "checklist": checklist, "steps": [bad]})


def test_the_bridge_gives_the_deals_and_the_coach_of_the_match():
    deals = call("coach", {"game": "crisps"})
    deal = deals["deals"][0]
    assert deals["seat"] == 0
    assert call("coach", {"game": "nope"})["error"]["code"] == "unknown_game"
    assert call("coach", {})["error"]["code"] == "no_match"
    snap = call(
        "start",
        {
            "game": "crisps",
            "seed": deal["seed"],
            "options": deal["options"],
            "seats": [{"type": "human"}, {"type": "bot", "level": "normal", "name": "Computer"}],
        },
    )
    assert "error" not in snap
    assert call("coach", {"shown": "welcome"})["error"]["code"] == "bad_request"
    first = call("coach", {})
    assert [m["id"] for m in first["messages"]][0] == "welcome"
    shown = [m["id"] for m in first["messages"]]
    while not call("coach", {"shown": shown})["done"]:
        snap = call("snapshot")
        advice = call("coach", {"shown": shown})
        shown += [m["id"] for m in advice["messages"] if m["id"] not in shown]
        if snap["human_turn"]:
            assert advice["suggestion"]["id"] in {a["id"] for a in snap["legal"]}
            snap = call("act", {"action": advice["suggestion"]["id"]})
        else:
            snap = call("bot_move")["snapshot"]
        assert "{seat" not in json.dumps(advice)
    end = call("coach", {"shown": shown})
    assert any("Computer" in line or "You" in line for m in end["messages"] for line in m["lines"])
    shown += [m["id"] for m in end["messages"] if m["id"] not in shown]
    assert set(shown) == {s["id"] for s in coach.load("crisps").steps}


def test_a_lesson_is_put_on_the_table_by_its_record_and_ends_once_its_steps_are_said():
    deals = call("coach", {"game": "mhing"})["deals"]
    lesson = deals[1]
    assert "record" not in deals[0] and lesson["title"] and lesson["until"] == ["pile-rebuilt"]
    assert lesson["record"]["actions"] == lesson["moves"]
    seats = [{"type": "human"}, {"type": "bot", "level": "normal", "name": "Computer"}]
    snap = call("load", {"record": lesson["record"], "seats": seats})
    assert snap["moves"] == len(lesson["moves"]) and snap["human_turn"]
    assert snap["view"]["draw_pile_count"] == 0
    assert [a["id"] for a in snap["legal"]] == ["draw:stock"]
    shown = [s["id"] for s in coach.load("mhing").steps if s["id"] != "pile-rebuilt"]
    before = call("coach", {"shown": shown, "deal": 1})
    assert not before["done"] and before["suggestion"]["id"] == "draw:stock"
    call("act", {"action": "draw:stock"})
    as_round = call("coach", {"shown": shown, "deal": 0})
    assert [m["id"] for m in as_round["messages"]] == ["pile-rebuilt"]
    assert not as_round["done"], "the coached round goes on to the round's end"
    after = call("coach", {"shown": shown, "deal": 1})
    assert [m["id"] for m in after["messages"]] == ["pile-rebuilt"] and after["done"]
    for bad in (2, -1, True, "1"):
        assert call("coach", {"shown": shown, "deal": bad})["error"]["code"] == "bad_request"


def test_a_coach_file_names_each_lessons_moves_title_and_until():
    base = {"game": "spite", "checklist": [{"id": "r", "rule": "A rule."}]}
    base["steps"] = [{"id": "s", "rules": ["r"], "when": {}, "say": "Hello."}]
    first = {"seed": 1, "players": 2, "options": {}}
    lesson = {**first, "moves": [], "title": "T", "until": ["s"]}
    assert coach._check("spite", {**base, "deals": [first, lesson]}).deals[1] == lesson
    for deals in (
        [first, {**first, "moves": [], "title": "T"}],
        [first, {**lesson, "until": ["nope"]}],
        [lesson],
        [{**first, "colour": "red"}],
    ):
        with pytest.raises(coach.CoachError):
            coach._check("spite", {**base, "deals": deals})


def test_roundups_bid_advice_and_its_suggestion_agree_and_say_why():
    bid = next(s for s in coach.load("roundup").steps if s["id"] == "bid")
    assert "a low number helps you start first" not in bid["say"]
    assert "highest card of that suit" in bid["say"]
    deal = coach.load("roundup").deals[0]
    state = coach.start("roundup", deal)
    advice = coach.advise(state, set())
    suggested = advice["suggestion"]
    assert suggested.kind == "bid"
    card = suggested.cards[0]
    held = [
        c
        for c in state.view(0)["face_down"]
        if c[-1] == card[-1] and c != card and c[0] not in "JQK"
    ]
    why = advice["why"]
    assert why.startswith(f"It guesses {engine.cards.SUIT_NAMES[card[-1]]} for the last suit")
    assert all(engine.cards.card_name(c) in why for c in held), (held, why)
    assert "highest" in why
    # The bridge gives the page the same words.
    call(
        "start",
        {
            "game": "roundup",
            "seed": deal["seed"],
            "options": deal["options"],
            "seats": [{"type": "human"}, {"type": "bot", "level": "normal"}],
        },
    )
    assert call("coach", {"shown": []})["why"] == why

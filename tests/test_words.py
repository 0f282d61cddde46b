"""The coach's words (each game's ``words.py``): a round's score lines write cards in symbols,
name each point by the rules page's own name and speak to the person in the right person;
a suggested move's "Why" says what it does for the score or the plan, or what the others
learn, instead of saying the move again. Whole coached rounds check that no line leaves a card
as its code."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine import bots, coach
from engine.core import Action

CARD_CODE = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")
"""A card written as its code ("7H", "10S") instead of its symbols ("7♥")."""


def words(game: str):
    return engine.GAMES[game]


def test_general_mhings_lines_name_the_bonuses_and_the_sequences_as_the_rules_do():
    r = {
        "sequences": [[["2H", "3H", "4H"], ["5H", "6H", "7H"]], []],
        "matches": [
            [
                {"kind": "suit", "between": [0, 1]},
                {"kind": "order", "between": [0, 1]},
                {"kind": "low", "between": []},
            ],
            [],
        ],
        "points": [3, 0],
        "winners": [0],
    }
    lines = words("mhing").score_lines(r, 0)
    assert lines[:4] == [
        "You laid 2♥ 3♥ 4♥, 5♥ 6♥ 7♥.",
        "  +1 same suit (sequences 1 and 2).",
        "  +1 in order (sequences 1 and 2).",
        "  +1 low bonus (every card 7 or lower).",
    ]
    high = {**r, "matches": [[{"kind": "high", "between": []}], []]}
    assert "  +1 high bonus (every card 7 or higher)." in words("mhing").score_lines(high, 0)


def test_progressions_lines_write_the_stacks_in_symbols():
    r = {
        "stacks": [{"S": ["9S", "KS", "5S"], "H": [], "D": [], "C": []}],
        "stack_values": [{"S": 14}],
        "stack_faces": [{"S": 1}],
        "stack_scores": [{"S": 4}],
        "scores": [4],
    }
    assert words("progression").score_lines(r, 0)[0] == (
        "You, spades (9♠ K♠ 5♠): total 14, 1 face card, scores 4."
    )


def test_crisps_says_your_hand_to_you_and_their_hand_of_another():
    lines = words("crisps").score_lines
    assert (
        lines({"winner": 0, "cards_left": [0, 3]}, 0)[0] == "You emptied your hand first: 1 point."
    )
    assert lines({"winner": 1, "cards_left": [3, 0]}, 0)[0] == (
        "{seat1} emptied their hand first: 1 point."
    )


def test_a_progression_play_says_what_it_does_for_the_stacks_score():
    def why(stack: list[str], card: str) -> str:
        view = {"you": 0, "private_stacks": [{"C": stack}]}
        return words("progression").purpose(view, Action(f"play:{card}", 0, f"Play {card}"))

    assert why([], "3C") == "brings your clubs stack to 3: it scores once it passes 12"
    assert why(["7C"], "9C") == "brings your clubs stack to 16: it scores 4"
    assert why(["7C", "9C"], "AC") == "multiplies your clubs stack: it scores 8, up from 4"
    assert why(["KC"], "QC") == (
        "puts a face card on your clubs stack: it costs 30 points until number cards take it "
        "past 12"
    )
    assert why(["QC"], "3C") == (
        "brings your clubs stack to 3: it scores once it passes 12, times 2 for its face cards"
    )


def test_other_moves_say_what_the_others_learn_or_what_comes_next():
    prog = words("progression").purpose
    assert "nobody learns" in prog({}, Action("draw:stock", 0, "Draw"))
    assert "in everyone's sight" in prog({}, Action("draw:7H", 0, "Take 7♥"))
    mhing = words("mhing").purpose
    assert "nobody sees" in mhing({}, Action("draw:stock", 0, "Draw a card"))
    assert "the next player may take it" in mhing({}, Action("discard:7H", 0, "Discard 7♥"))
    view = {"stacks": {"C": 6}, "face_down": ["7C"], "face_up": [[]], "viewer": 0}
    assert words("roundup").purpose(view, Action("play:7C", 0, "Play 7♣")) == (
        "takes the clubs stack to 7♣, 3 short of closing, from your face-down hand: one card "
        "nearer emptying both hands"
    )


def coached_texts(game: str) -> list[str]:
    """Every score line and every "Why" of the game's coached round, followed as the page
    does (the person takes each suggestion, the computer plays at the coached level)."""
    deal = coach.load(game).deals[0]
    state = coach.start(game, deal)
    bot = bots.make(coach.BOT_LEVEL)
    rng = random.Random(deal["seed"] ^ coach.BOT_SEED_MASK)
    said: set[str] = set()
    texts: list[str] = []
    for _ in range(5000):
        advice = coach.advise(state, said, deal=deal)
        for message in advice["messages"]:
            said.add(message["id"])
            texts.extend(message.get("lines", []))
        if advice["done"] or state.is_over:
            break
        if state.current_player == coach.PERSON:
            action = advice["suggestion"]
            texts.append(coach.why(game, state.view(coach.PERSON), action) or "")
            state.apply(action.id)
        elif state.current_player is not None:
            state.apply(bot.choose(state, state.current_player, rng))
    return texts


def test_a_roundup_bid_is_called_the_highest_of_its_suit_only_when_it_is():
    view = {"face_down": ["3S", "5S", "6S", "9H"]}
    bid = words("roundup").purpose
    assert "it is your highest spade card" in bid(view, Action("bid:6S", 0, "Bid 6♠"))
    low = bid(view, Action("bid:3S", 0, "Bid 3♠"))
    assert "you hold 5♠ 6♠ face down" in low and "highest" not in low


@pytest.mark.parametrize("game", list(engine.GAMES))
def test_no_line_of_a_coached_round_leaves_a_card_as_its_code(game):
    texts = coached_texts(game)
    assert any(t.startswith("It ") for t in texts), "the round has its reasons"
    assert not [t for t in texts if CARD_CODE.search(t)], texts

"""Spite and Malice: every rule and ruling, the helpers, options and the greedy opponent."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.bots import make
from engine.cards import shuffled
from engine.games.spite import rules as spite
from engine.games.spite.bot import _feeds_opponent, greedy
from engine.games.spite.rules import (
    HAND_DECK,
    PAYOFF_DECK,
    can_build,
    can_discard,
    pile_rank,
    rank_value,
)
from engine.games.spite.state import SpiteState
from tests.helpers import (
    assert_loop_searches_alike,
    assert_refused,
    assert_sampled_as_before,
    ids,
)

STACK_A_TO_Q = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"]


def position(
    hands,
    upcards=("KD", "KC"),
    payoff_below=None,
    discards=None,
    centre=None,
    stock=None,
    current=0,
    target=0,
) -> SpiteState:
    """A state with the given cards in place (only what the test names matters)."""
    state = SpiteState(2, 0, {"target": target})
    below = payoff_below if payoff_below is not None else [["2D", "3D"], ["2C", "3C"]]
    state.payoff = [list(below[0]) + [upcards[0]], list(below[1]) + [upcards[1]]]
    state.hands = [list(hands[0]), list(hands[1])]
    state.discards = [[list(p) for p in seat] for seat in (discards or [[[]] * 4, [[]] * 4])]
    state.centre = [list(s) for s in (centre or [])]
    state.stock = list(stock) if stock is not None else [f"{r}H#2" for r in "23456789"] * 2
    state.current = current
    return state


# ----- the pure helpers ------------------------------------------------------------------------
def test_ids_are_unique_and_decks_complete():
    assert len(PAYOFF_DECK) == 52 and len(HAND_DECK) == 56
    assert len(set(PAYOFF_DECK) | set(HAND_DECK)) == 108
    assert [c for c in HAND_DECK if c.startswith("JK")] == ["JK1", "JK2", "JK3", "JK4"]
    assert rank_value("AS") == 1 and rank_value("KH#2") == 13 and rank_value("JK2") == 0


def test_can_build_runs_ace_to_king_regardless_of_suit():
    stack: list[str] = []
    for rank, suit in zip(
        ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"],
        "SHDCSHDCSHDCS",
        strict=False,
    ):
        card = f"{rank}{suit}"
        assert can_build(stack, card)
        wrong = "KH#2" if rank != "K" else "QH#2"
        assert not can_build(stack, wrong)
        stack.append(card)
    assert len(stack) == 13
    assert not can_build(stack, "AS#2") and not can_build(stack, "JK1")


def test_jokers_stand_for_any_rank_on_the_centre_including_ace():
    assert can_build([], "JK1")
    assert can_build(["AS", "JK2"], "3D") and can_build(["AS", "JK2"], "JK3")
    assert not can_build(["AS", "JK2"], "2D")


def test_discards_descend_with_equal_ranks_allowed():
    pile: list[str] = []
    for card in ["10S", "9H", "9D#2", "8C", "7S", "7H#2"]:  # the text's 10-9-9-8-7-7
        assert can_discard(pile, card)
        pile.append(card)
    assert pile_rank(pile) == 7
    assert not can_discard(pile, "8D#2") and can_discard(pile, "7C") and can_discard(pile, "AS")


def test_any_card_starts_a_pile():
    assert all(can_discard([], c) for c in ["KS", "AS", "JK1", "2D#2"])


def test_joker_discard_rules():
    assert not can_discard(["2C"], "JK1")  # never onto a 2
    assert not can_discard(["5C", "2C", "JK2"], "JK1")  # nor onto a joker standing for a 2
    assert can_discard(["9C"], "JK1")
    assert pile_rank(["9C", "JK1"]) == 9  # the rank beneath it
    assert can_discard(["9C", "JK1"], "9D") and not can_discard(["9C", "JK1"], "10D")
    assert pile_rank(["JK1"]) is None and can_discard(["JK1"], "KS")  # a joker at the bottom
    assert pile_rank(["JK1", "JK2"]) is None and can_discard(["JK1", "JK2"], "QS")


# ----- building from every source --------------------------------------------------------------
def test_build_from_hand_discard_top_and_upcard():
    state = position(
        [["AS#2", "9C#2"], ["KH#2"]],
        upcards=("3D", "KC"),
        payoff_below=[["7C", "2D"], ["4C"]],
        discards=[[["5C", "2C"], [], [], []], [[]] * 4],
    )
    legal = ids(state)
    assert "build:AS#2:new" in legal and "build:2C:0" not in legal
    state.apply("build:AS#2:new")
    assert "build:2C:0" in ids(state)
    state.apply("build:2C:0")
    assert state.discards[0][0] == ["5C"]
    state.apply("build:3D:0")  # the upcard
    assert state.centre == [["AS#2", "2C", "3D"]]
    assert state.payoff[0] == ["7C", "2D"]
    assert state.view(1)["upcards"][0] == "2D"  # the next pay-off card is turned up
    assert state.current == 0  # still the same turn


def test_a_whole_stack_ace_to_king_from_mixed_sources_completes():
    hand = ["AS#2", "2S#2", "3S#2", "4S#2", "JK1"]
    state = position(
        [hand, ["KH#2"]],
        upcards=("6D", "KC"),
        discards=[[["QC", "JH", "10H", "9H", "8H", "7H"], [], [], []], [[]] * 4],
        stock=[f"{r}D#2" for r in "2345678"] * 3 + ["2H#2", "3H#2", "4H#2", "5H#2", "KS#2"],
    )
    for step in [
        "build:AS#2:new",
        "build:2S#2:0",
        "build:3S#2:0",
        "build:4S#2:0",
        "build:JK1:0",
    ]:  # joker as the 5; the hand is now played out
        state.apply(step)
    assert len(state.hands[0]) == 5 and state.current == 0
    for step in [
        "build:6D:0",
        "build:7H:0",
        "build:8H:0",
        "build:9H:0",
        "build:10H:0",
        "build:JH:0",
        "build:QC:0",
        "build:KS#2:0",
    ]:
        state.apply(step)
    assert len(state.centre[0]) == 13
    assert not any(a.startswith("build:") and a.endswith(":0") for a in ids(state))
    assert "complete" in assert_refused(state, "build:2H#2:0")


def test_joker_from_discard_pile_and_as_new_stack_ace():
    state = position(
        [["9C#2"], ["KH#2"]], upcards=("2D", "KC"), discards=[[["JK3"], [], [], []], [[]] * 4]
    )
    assert "build:JK3:new" in ids(state)
    action = state.apply("build:JK3:new")
    assert "as Ace" in action.label
    state.apply("build:2D:0")
    assert state.centre == [["JK3", "2D"]]


def test_only_the_top_of_a_discard_pile_can_be_played_lifo():
    pile = ["9C", "8C", "7H", "7D", "6S"]
    state = position(
        [["KH#2"], ["KS#2"]],
        discards=[[pile, [], [], []], [[]] * 4],
        centre=[["AS", "2S", "3S", "4S", "5S"], ["AH", "2H", "3H", "4H", "5H", "6H"]],
    )
    legal = ids(state)
    assert "build:6S:0" in legal and "build:7D:1" not in legal
    assert (
        assert_refused(state, "build:7D:1") == "only the top card of a discard pile can be played"
    )
    state.apply("build:6S:0")
    assert "build:7D:0" in ids(state) and "build:7D:1" in ids(state)
    state.apply("build:7D:1")
    assert "build:7H:0" in ids(state)


# ----- the hand and the turn -------------------------------------------------------------------
def test_playing_out_the_hand_refills_it_and_the_turn_goes_on():
    state = position([["AS#2"], ["KH#2"]])
    stock_before = len(state.stock)
    state.apply("build:AS#2:new")
    assert len(state.hands[0]) == 5 and len(state.stock) == stock_before - 5
    assert state.current == 0 and state.move_revealed_hidden(-1)


def test_discard_ends_the_turn_and_refills_to_five():
    state = position([["9C#2", "KH#2", "QD#2"], ["KS#2"]])
    state.apply("discard:KH#2:2")
    assert state.discards[0][2] == ["KH#2"] and len(state.hands[0]) == 5
    assert state.current == 1 and state.move_revealed_hidden(-1)
    assert state.view(1)["last_turn"] == {"player": 0, "played": [], "discarded": "KH#2", "pile": 2}


def test_ending_without_discarding_is_allowed():
    state = position([["9C#2"], ["KS#2"]])
    state.apply("end")
    assert state.current == 1 and len(state.hands[0]) == 5


def test_plain_build_from_hand_reveals_nothing():
    state = position([["AS#2", "9C#2"], ["KS#2"]])
    state.apply("build:AS#2:new")
    assert not state.move_revealed_hidden(-1)


# ----- the forced Ace --------------------------------------------------------------------------
def test_an_ace_upcard_must_be_played_before_the_turn_ends():
    state = position([["9C#2", "KH#2"], ["KS#2"]], upcards=("AD", "KC"))
    legal = ids(state)
    assert legal == ["build:AD:new"]
    assert "Ace" in assert_refused(state, "end")
    assert "Ace" in assert_refused(state, "discard:9C#2:0")
    assert state.view(0)["must_play_ace"] is True


def test_an_ace_on_a_discard_top_must_be_played():
    state = position([["9C#2"], ["KS#2"]], discards=[[[], ["5C", "AH"], [], []], [[]] * 4])
    assert "end" not in ids(state) and "build:AH:new" in ids(state)
    state.apply("build:AH:new")
    assert "end" in ids(state)


def test_an_ace_in_hand_is_not_forced_but_may_not_be_discarded():
    state = position([["AS#2", "9C#2"], ["KS#2"]])
    legal = ids(state)
    assert "end" in legal and "discard:AS#2:0" not in legal
    assert "Ace" in assert_refused(state, "discard:AS#2:0")


def test_no_forced_ace_and_ace_discards_allowed_with_eight_stacks():
    centre = [["AS#2", "2S#2"]] * 8
    state = position([["AC#2", "9C#2"], ["KS#2"]], upcards=("AD", "KC"), centre=centre)
    legal = ids(state)
    assert "end" in legal and "discard:AC#2:0" in legal
    assert not any(a.endswith(":new") for a in legal)
    assert "8 centre stacks" in assert_refused(state, "build:AD:new")


def test_new_stacks_need_an_ace_or_joker():
    state = position([["5C#2"], ["KS#2"]])
    assert "Ace" in assert_refused(state, "build:5C#2:new")


# ----- the stock -------------------------------------------------------------------------------
def test_stock_rebuilds_from_completed_stacks_at_twelve_or_fewer():
    king_stack = STACK_A_TO_Q + ["KS"]
    stock = [f"{r}C#2" for r in "23456789"] + ["10C#2", "JC#2", "QC#2", "KC#2"]  # 12 cards
    state = position([["9D#2"], ["KS#2"]], centre=[king_stack, ["AH", "2H"]], stock=stock)
    state.apply("discard:9D#2:0")  # a draw is needed with 12 left: rebuild first
    assert state.centre == [["AH", "2H"]]
    assert len(state.stock) + len(state.hands[0]) == 12 + 13
    assert sorted(state.stock + state.hands[0]) == sorted(stock + king_stack)


def test_no_rebuild_while_the_stock_holds_more_than_twelve():
    king_stack = STACK_A_TO_Q + ["KS"]
    stock = [f"{r}C#2" for r in "23456789"] + ["10C#2", "JC#2", "QC#2", "KC#2", "2D#2"]  # 13
    hand = ["9D#2", "10D#2", "JD#2", "QD#2", "KD#2"]
    state = position([hand, ["KS#2"]], centre=[king_stack], stock=stock)
    state.apply("discard:9D#2:0")  # one card to draw, from 13
    assert state.centre == [king_stack] and len(state.stock) == 12


def test_empty_stock_without_complete_stack_takes_every_centre_stack():
    state = position([["9D#2"], ["KS#2"]], centre=[["AH", "2H"], ["AC", "2C", "3C"]], stock=[])
    state.apply("discard:9D#2:0")
    assert state.centre == [] and len(state.hands[0]) == 5
    assert sorted(state.hands[0] + state.stock) == sorted(["AH", "2H", "AC", "2C", "3C"])


# ----- stall, win and score -------------------------------------------------------------------
def test_stall_when_the_stock_cannot_be_refilled_is_a_draw():
    state = position([["9D#2"], ["8D#2"]], stock=[])
    state.apply("discard:9D#2:0")
    assert state.stall_turns == 1 and not state.is_over
    state.apply("end")
    assert state.is_over and state.result()["winners"] == [0, 1]
    assert state.result()["scores"] == [0, 0]
    assert state.view(None)["last_round"]["reason"] == "stall"


def test_a_centre_play_resets_the_stall_count():
    state = position([["9D#2"], ["AD#2", "8D#2"]], stock=[])
    state.apply("end")
    state.apply("build:AD#2:new")
    state.apply("end")
    assert not state.is_over and state.stall_turns == 0


def test_two_stuck_players_with_a_full_stock_draw_the_game():
    low = [["3C", "2C"]] * 4
    state = position(
        [["KH#2", "QH#2", "JH#2", "10H#2", "9H#2"], ["KD#2", "QD#2", "JD#2", "10D#2", "9D#2"]],
        discards=[low, low],
    )
    assert ids(state) == ["end"]
    state.apply("end")
    state.apply("end")
    assert state.is_over and state.rounds[-1]["reason"] == "stall"


def test_a_declined_centre_play_does_not_stall_the_game():
    """Seat 1 could start a stack with its Ace and ends the turn instead: not a frozen turn,
    so the game goes on although both hands are full and neither could discard."""
    twos = [["2C#2"], ["2D#2"], ["2H#2"], ["2S#2"]]
    state = position(
        [["KD#2", "QD#2", "5H#2", "6H#2", "7H#2"], ["AC#2", "6C#2", "7C#2", "8C#2", "9C#2"]],
        upcards=("9S", "8S"),
        discards=[twos, [["2C"], ["2D"], ["2H"], ["2S"]]],
        stock=[f"{n}{x}#2" for n in range(3, 10) for x in "SHDC"],
    )
    state.apply("end")
    assert state.stall_turns == 1
    assert "build:AC#2:new" in ids(state)
    state.apply("end")
    assert not state.is_over and state.stall_turns == 0
    state.apply("end")
    assert not state.is_over and state.stall_turns == 1


def test_a_declined_centre_play_with_an_exhausted_stock_does_not_stall_the_game():
    state = position([["9D#2"], ["AD#2", "8D#2"]], stock=[])
    state.apply("discard:9D#2:0")
    assert state.stall_turns == 1 and state.stock_exhausted()
    state.apply("discard:8D#2:0")  # the Ace could have started a stack
    assert not state.is_over and state.stall_turns == 0


def test_discarding_the_only_playable_card_is_a_declined_centre_play():
    state = position([["9D#2"], ["JK1", "KD#2"]], stock=[])
    state.apply("discard:9D#2:0")
    state.apply("discard:JK1:0")  # afterwards nothing could be played, but it could before
    assert not state.is_over and state.stall_turns == 0


def test_a_possible_discard_with_a_stock_keeps_the_game_going():
    """No centre play for either player, but each discards and draws from the stock."""
    state = position(
        [["KH#2", "QH#2", "JH#2", "10H#2", "9H#2"], ["KD#2", "QD#2", "JD#2", "10D#2", "9D#2"]]
    )
    for card, pile in (("9H#2", 0), ("9D#2", 0), ("10H#2", 1), ("10D#2", 1)):
        assert not [a for a in ids(state) if a.startswith("build:")]
        state.apply(f"discard:{card}:{pile}")
        assert not state.is_over and state.stall_turns == 0


def test_frozen_and_stall_view_count_follows_the_rule():
    """A frozen turn is counted in the view; the other player's frozen turn ends the game."""
    low = [["3C", "2C"]] * 4
    state = position(
        [["KH#2", "QH#2", "JH#2", "10H#2", "9H#2"], ["KD#2", "QD#2", "JD#2", "10D#2", "9D#2"]],
        discards=[low, low],
    )
    state.apply("end")
    assert state.view(None)["stall_turns"] == 1 and not state.is_over
    assert len(state.stock) == 16
    state.apply("end")
    assert state.is_over and state.rounds[-1]["reason"] == "stall"


def test_two_hundred_turns_without_a_payoff_card_is_a_draw():
    state = position([["KH#2"], ["KD#2"]])
    state.drought_turns = spite.DROUGHT_TURNS - 1
    state.apply("discard:KH#2:0")
    assert state.is_over and state.rounds[-1]["reason"] == "drought"


def test_playing_the_last_payoff_card_wins_with_the_soft_score():
    state = position(
        [["9C#2"], ["KS#2"]],
        upcards=("2D", "KC"),
        payoff_below=[[], [f"{r}C" for r in "23456789"]],
        centre=[["AS"]],
    )
    state.apply("build:2D:0")
    assert state.is_over and state.current_player is None and state.legal_actions() == []
    assert state.result()["winners"] == [0]
    assert state.result()["scores"] == [9, 0]  # 8 buried + the upcard
    assert state.move_revealed_hidden(-1)
    last = state.view(1)["last_round"]
    assert last["winner"] == 0 and last["points"] == [9, 0] and last["reason"] == "payoff"


def test_match_to_n_points_deals_new_games_until_reached():
    state = position(
        [["9C#2"], ["KS#2"]],
        upcards=("2D", "KC"),
        payoff_below=[[], ["3C"]],
        centre=[["AS"]],
        target=10,
    )
    state.apply("build:2D:0")
    assert not state.is_over and state.scores == [2, 0] and state.round == 2
    assert [len(p) for p in state.payoff] == [26, 26] and len(state.centre) == 0
    state.scores = [9, 0]
    state.payoff[state.current] = state.payoff[state.current][-1:]
    up = state.payoff[state.current][-1]
    state.centre = (
        [
            [
                "AS#2",
                "2S#2",
                "3S#2",
                "4S#2",
                "5S#2",
                "6S#2",
                "7S#2",
                "8S#2",
                "9S#2",
                "10S#2",
                "JS#2",
                "QS#2",
            ][: rank_value(up) - 1]
        ]
        if rank_value(up) > 1
        else []
    )
    target = "new" if rank_value(up) == 1 else "0"
    state.apply(f"build:{up}:{target}")
    assert state.is_over and state.result()["winners"] == [state.rounds[-1]["winner"]]
    assert state.scores[state.rounds[-1]["winner"]] >= 10


def test_rules_page_worked_example_match_to_25():
    """web/rules/spite.html: North wins game 1 with 7 of your cards left, you win games 2 and 3
    with 19 and then 8 of North's left: 27 to 7, and 27 passes 25."""
    state = engine.new_game("spite", seed=1, options={"target": 25})

    def go_out(seat, loser_left):
        state.current = seat
        state.payoff[seat] = ["AD"]
        state.payoff[1 - seat] = state.payoff[1 - seat][:loser_left]
        state.centre = []
        state.apply("build:AD:new")

    go_out(1, 7)
    assert state.scores == [0, 7] and not state.is_over
    go_out(0, 19)
    assert state.scores == [19, 7] and not state.is_over
    go_out(0, 8)
    assert state.scores == [27, 7] and state.is_over and state.result()["winners"] == [0]
    assert [r["points"] for r in state.rounds] == [[0, 7], [19, 0], [8, 0]]


def test_three_drawn_games_in_a_row_end_a_match():
    state = engine.new_game("spite", seed=4, options={"target": 10})
    for _ in range(3):
        assert not state.is_over
        state.stall_turns = spite.STALL_TURNS - 1
        state.hands[state.current] = []
        state.stock, state.centre = [], []
        state.apply("end")
    assert state.is_over and state.result()["winners"] == [0, 1] and len(state.rounds) == 3


# ----- who starts ------------------------------------------------------------------------------
def test_higher_upcard_starts():
    for seed in range(40):
        state = engine.new_game("spite", seed=seed)
        up = [rank_value(p[-1]) for p in state.payoff]
        assert up[0] != up[1]
        assert state.current_player == (0 if up[0] > up[1] else 1)


def test_equal_upcards_reshuffle_both_payoff_piles():
    tie_seed = next(
        s
        for s in range(1000)
        if rank_value(shuffled(PAYOFF_DECK, random.Random(s))[25])
        == rank_value(shuffled(PAYOFF_DECK, random.Random(s))[51])
    )
    first = shuffled(PAYOFF_DECK, random.Random(tie_seed))
    state = engine.new_game("spite", seed=tie_seed)
    assert sorted(state.payoff[0]) == sorted(first[:26])  # each pile keeps its own cards
    assert sorted(state.payoff[1]) == sorted(first[26:])
    assert rank_value(state.payoff[0][-1]) != rank_value(state.payoff[1][-1])


# ----- refusals, views, hidden information -----------------------------------------------------
def test_refusals_explain_themselves():
    state = position(
        [["9C#2", "JK1", "8C#2"], ["KS#2"]],
        discards=[[["2C"], ["5D"], [], []], [[]] * 4],
        centre=[["AS", "2S"]],
    )
    assert assert_refused(state, "build:9C#2:0") == "that stack needs a 3, not a 9"
    assert assert_refused(state, "discard:JK1:0") == "a joker may not be discarded onto a 2"
    assert assert_refused(state, "discard:9C#2:1") == "discard piles go down: a 9 cannot go on a 5"
    assert "not in your hand" in assert_refused(state, "build:KS#2:0")
    assert "no centre stack" in assert_refused(state, "build:9C#2:4")
    assert "pay-off" in assert_refused(state, "build:2D:0")
    assert "from your hand" in assert_refused(state, "discard:2C:0")
    assert state.why_illegal("fly:away") is None


def test_views_hide_hands_and_the_stock():
    state = engine.new_game("spite", seed=11)
    v0, v1, spectator = state.view(0), state.view(1), state.view(None)
    text0 = json.dumps(v0)
    assert v0["hand"] == state.hands[0]
    assert not any(c in text0 for c in state.hands[1])
    assert not any(f'"{c}"' in text0 for c in state.stock)
    assert not any(f'"{c}"' in text0 for p in state.payoff for c in p[:-1])
    assert spectator["hand"] is None and v1["hand_counts"] == [5, 5]
    for key in ("phase", "current_player", "scores", "round", "last_round"):
        assert key in v0


def test_determinize_keeps_what_the_seat_knows():
    state = engine.new_game("spite", seed=12)
    rng = random.Random(5)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    world = state.determinize(0, random.Random(1))
    assert world.view(0) == state.view(0)
    assert sorted(c for p in world.payoff for c in p) == sorted(c for p in state.payoff for c in p)
    assert sorted(world.hands[1] + world.stock) == sorted(state.hands[1] + state.stock)
    assert (world.hands[1], world.stock) != (state.hands[1], state.stock)


def test_clone_is_independent_and_records_replay():
    state = engine.new_game("spite", seed=13)
    rng = random.Random(2)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    twin = state.clone()
    twin.apply(twin.legal_actions()[0])
    assert len(state.history) == 40
    replay = engine.from_record(json.loads(json.dumps(state.to_record())))
    assert replay.view(0) == state.view(0) and replay.zones() == state.zones()


def test_spec_has_options_and_clarifications():
    spec = engine.GAMES["spite"]
    assert spec.min_players == spec.max_players == 2
    assert spec.options["target"].default == 0
    text = " ".join(spec.clarifications)
    for words in ("shuffled again", "joker", "every centre stack", "draw"):
        assert words in text


# ----- the greedy opponent ---------------------------------------------------------------------
def _greedy_choice(state):
    return greedy(state.view(state.current), state.legal_actions(), random.Random(0)).id


def test_greedy_plays_the_upcard_through_a_chain():
    state = position(
        [["3H#2", "KH#2", "JK1"], ["KS#2"]],
        upcards=("5D", "KC"),
        discards=[[["4C"], [], [], []], [[]] * 4],
        centre=[["AS", "2S"]],
    )
    steps = []
    while state.payoff[0][-1] == "5D":
        steps.append(_greedy_choice(state))
        state.apply(steps[-1])
    assert steps == ["build:3H#2:0", "build:4C:0", "build:5D:0"]  # the joker is kept


def test_greedy_uses_a_joker_to_reach_the_upcard():
    state = position([["JK1", "KH#2"], ["KS#2"]], upcards=("4D", "KC"), centre=[["AS", "2S"]])
    assert _greedy_choice(state) == "build:JK1:0"


def test_greedy_does_not_feed_the_opponent_upcard():
    state = position(
        [["6H#2", "KH#2", "QH#2"], ["KS#2"]],
        upcards=("KD", "7C"),
        centre=[["AS", "2S", "3S", "4S", "5S"]],
    )
    assert _greedy_choice(state) != "build:6H#2:0"
    assert _feeds_opponent(6, 7, []) and _feeds_opponent(4, 7, [5, 6])
    assert not _feeds_opponent(4, 7, [6])


def test_greedy_discards_to_keep_piles_descending():
    state = position(
        [["9H#2", "KH#2", "5D#2"], ["KS#2"]],
        upcards=("KD", "KC"),
        discards=[[["10C"], ["6C"], ["QD"], ["JK2"]], [[]] * 4],
        centre=[["AS"] * 3],
    )
    assert _greedy_choice(state) in ("discard:9H#2:0", "discard:5D#2:1")


def test_greedy_beats_random():
    greedy, rnd = make("greedy"), make("random")
    wins = 0
    games = 30
    for game in range(games):
        state = engine.new_game("spite", seed=900 + game)
        seat = game % 2
        rng = random.Random(game)
        while not state.is_over:
            bot = greedy if state.current_player == seat else rnd
            state.apply(bot.choose(state, state.current_player, rng))
        wins += state.result()["winners"] == [seat]
    assert wins >= 20


def test_greedy_builds_rather_than_stalls_when_it_cannot_discard():
    low = [["3C", "2C"]] * 4
    state = position(
        [["AC#2", "AD#2", "AH#2", "AS#2", "KC#2"], ["KD#2"]],
        upcards=("9D", "2H"),
        discards=[low, [[]] * 4],
    )
    assert "discard:KC#2:0" not in ids(state)
    assert _greedy_choice(state) == "build:AC#2:new"  # feeds the 2, but beats a stall


# ----- moves that do the same thing are one move -----------------------------------------------


def test_equal_hand_cards_are_listed_once():
    state = position([["JK1", "JK2", "7C", "7H#2", "9S"], ["KH#2"]], centre=[["AS"]])
    legal = ids(state)
    assert legal.count("build:JK1:0") == 1 and "build:JK2:0" not in legal
    assert "build:JK1:new" in legal and "build:JK2:new" not in legal
    assert "discard:7C:0" in legal and "discard:7H#2:0" not in legal
    labels = [a.label for a in state.legal_actions()]
    assert len(labels) == len(set(labels)), "no two moves read the same"


def test_an_equal_move_plays_the_very_card_named():
    state = position([["JK1", "JK2", "7C", "7H#2", "9S"], ["KH#2"]], centre=[["AS"]])
    taken = state.apply("build:JK2:0")
    assert taken.id == "build:JK2:0" and state.centre == [["AS", "JK2"]]
    assert "JK1" in state.hands[0] and "JK2" not in state.hands[0]
    state.apply("discard:7H#2:1")
    assert state.discards[0][1] == ["7H#2"] and state.history[-1].id == "discard:7H#2:1"


def test_an_equal_card_elsewhere_is_not_the_same_move():
    # The upcard's 7 is not a hand 7: building it turns up the next pay-off card.
    state = position(
        [["7C"], ["KH#2"]], upcards=("7D", "KC"), centre=[["AS"] + [f"{r}S" for r in "23456"]]
    )
    assert {"build:7C:0", "build:7D:0"} <= set(ids(state))


@pytest.mark.parametrize(
    "attempt,reason",
    [
        ("build:9S:0", "that stack needs a 2, not a 9"),
        ("build:9S:new", "must start with an Ace"),
        ("discard:9S:0", "discard piles go down: a 9 cannot go on a 5"),
        ("discard:JK1:1", "a joker may not be discarded onto a 2"),
        ("build:3C:0", "only the top card of a discard pile can be played"),
        ("build:8D:0", "is not in your hand"),
    ],
)
def test_refusal_table(attempt, reason):
    state = position(
        [["JK1", "9S", "4H"], ["KH#2"]],
        discards=[[["5C"], ["2D#2"], ["3C", "QS"], []], [[]] * 4],
        centre=[["AS"]],
    )
    assert attempt not in ids(state)
    assert reason in assert_refused(state, attempt)


# ----- the search's rollout loop ----------------------------------------------------------------


def _spite_positions(seed: int, limit: int = 300) -> list[SpiteState]:
    """Positions of a game played by a mix of the holding policy and random moves."""
    from engine.games.spite.bot import holding_greedy

    state = engine.new_game("spite", 2, seed)
    rng = random.Random(seed)
    out = []
    while not state.is_over and len(out) < limit:
        out.append(state.clone())
        legal = state.legal_actions()
        if rng.random() < 0.2:
            state.apply(legal[rng.randrange(len(legal))])
        else:
            state.apply(holding_greedy(state.view(state.current_player), legal, rng))
    return out


def test_the_listing_is_its_builds_then_its_discards_and_end():
    # The rollout loop lists the builds and the discards apart: together, in that order and
    # with the end, they are the legal moves (the builds alone while an Ace is owed).
    from engine.games.spite.state import _distinct

    checked = owed = 0
    for seed in range(4):
        for state in _spite_positions(seed):
            seat = state.current_player
            held = _distinct(state.hands[seat])
            parts = state._list_builds(seat, held)
            if state.must_play_ace(seat):
                owed += 1
            else:
                parts = parts + state._list_discards(seat, held) + [state._legal_actions()[-1]]
                assert parts[-1].id == "end"
            assert parts == state.legal_actions()
            checked += 1
    assert checked > 500 and owed > 0


def test_the_rollouts_choice_is_the_holding_policys():
    # The rollouts read the holding policy's move off the world without a view or the
    # listing: at every position of many games it is the move the policy chooses from the
    # view and the legal moves (upcard, chain, safe build, discard, end, an Ace owed, and a
    # spent build budget each met many times).
    from collections import Counter

    from engine.games.spite.bot import BUILD_BUDGET, _rollout_choice, holding_greedy

    met: Counter[str] = Counter()
    for seed in range(12):
        for state in _spite_positions(seed, 400):
            seat = state.current_player
            view = state.view(seat)
            chosen = _rollout_choice(state, seat)
            assert chosen is holding_greedy(view, state.legal_actions(), None)
            up = view["upcards"][seat]
            kind = chosen.id.split(":")[0]
            met["upcard" if chosen.cards and chosen.cards[0] == up else kind] += 1
            met["owed"] += state.must_play_ace(seat)
            met["joker"] += bool(chosen.cards) and chosen.cards[0].startswith("JK")
            # The same world with the turn's build budget spent, and with one card in hand.
            spent = state.clone()
            spent.played_this_turn = list(spent.played_this_turn) + ["AS"] * BUILD_BUDGET
            single = state.clone()
            single.hands[seat] = single.hands[seat][-1:]
            for world in (spent, single):
                view = world.view(seat)
                legal = world.legal_actions()
                assert _rollout_choice(world, seat) is holding_greedy(view, legal, None)
    assert min(met.values()) > 20, met


def _former_determinize(state: SpiteState, player: int, rng: random.Random) -> tuple:
    """What determinize drew before it was a sampler: the world's seed, then the pay-off
    piles' face-down cards as one sorted pool shuffled by engine.cards.shuffle and dealt
    seat by seat under the upcards, then the other hand and the stock the same way."""
    from engine.cards import shuffle
    from engine.games.spite.rules import HAND_ORDER

    seed = rng.getrandbits(64)
    buried = sorted(c for p in state.payoff for c in p[:-1])
    shuffle(buried, rng)
    payoff = []
    for seat in range(2):
        size = len(state.payoff[seat]) - 1
        payoff.append(buried[:size] + [state.payoff[seat][-1]])
        buried = buried[size:]
    other = 1 - player
    unseen = sorted(state.hands[other] + state.stock)
    shuffle(unseen, rng)
    count = len(state.hands[other])
    hand = sorted(unseen[:count], key=HAND_ORDER.__getitem__)
    return seed, payoff, hand, unseen[count:]


def test_the_sampler_deals_what_determinize_dealt():
    # Each world the search's sampler draws from an rng is the one the former determinize
    # drew from the same rng (the world's seed, the pay-off piles, the other hand, the
    # stock, the rng's state after), the rest a copy of the position.

    checked = 0
    for state in _spite_positions(3)[::3]:
        player = state.current_player
        worlds = assert_sampled_as_before(
            state,
            _former_determinize,
            lambda world, p=player: (world.payoff, world.hands[1 - p], world.stock),
        )
        for world in worlds:
            assert world.discards == state.discards and world.discards is not state.discards
        checked += 1
    assert checked > 50


def test_the_rollout_loop_takes_the_generic_loops_moves():
    # From sampled worlds of many positions: the game's rollout loop and the search's generic
    # one (the holding policy from each seat's policy view, the evaluator's stop) take the
    # same moves and stop at the same step.
    from engine.core import LazyRandom
    from engine.games.spite.bot import EVALUATOR, holding_greedy, rollout_loop

    checked = 0
    for seed in range(4):
        for i, state in enumerate(_spite_positions(seed)):
            if i % 5:
                continue
            world = state.determinize(state.current_player, random.Random(i))
            baseline = EVALUATOR.baseline(world)
            for max_steps in (200, 7):
                fast, slow = world._copy(LazyRandom(i)), world._copy(LazyRandom(i))
                steps = rollout_loop(fast, random.Random(0), baseline, max_steps)
                slow_steps = 0
                while slow_steps < max_steps and not slow.is_over:
                    if EVALUATOR.stop(slow, baseline):
                        break
                    legal = slow.legal_actions()
                    slow.push(holding_greedy(slow.policy_view(slow.current_player), legal, None))
                    slow_steps += 1
                assert steps == slow_steps
                assert [a.id for a in fast.history] == [a.id for a in slow.history]
                assert EVALUATOR.evaluate(fast, baseline) == EVALUATOR.evaluate(slow, baseline)
            checked += 1
    assert checked > 100


def test_the_search_with_the_rollout_loop_searches_alike():
    # The whole (paired) search, with the game's rollout loop and with the generic one: the
    # same visits and values at the root, so the same choice.
    from engine.games.spite import bot as spite_bot

    positions = []
    for seed, skip in ((1, 0), (2, 9), (3, 40), (4, 75)):
        state = engine.new_game("spite", 2, seed)
        for _ in range(skip):
            state.apply(greedy(state.view(state.current_player), state.legal_actions(), None))
        positions.append((state, seed))
    assert spite_bot.SETTINGS.search is not None
    assert_loop_searches_alike(spite_bot.SETTINGS.search, "rollout_loop", positions, 60)

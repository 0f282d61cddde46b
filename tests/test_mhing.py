"""General Mhing: scoring, every rule and ruling, options, views, and the greedy opponent."""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots import make
from engine.checks import check_conservation, play_checked_match
from engine.core import IllegalAction
from engine.games.mhing import SPEC
from engine.games.mhing.bot import greedy
from engine.games.mhing.rules import (
    DECK,
    ace_stands_for,
    score_breakdown,
    score_sequences,
    sequence_problem,
    sequence_ranks,
    sequences_in,
)
from engine.games.mhing.state import MhingState
from tests.helpers import assert_loop_searches_alike, ids


def position(
    players: int = 2,
    *,
    hands: list[list[str]],
    sequences=None,
    discards=(),
    pile=None,
    turn: int = 0,
    phase: str = "draw",
    totals=None,
) -> MhingState:
    """A state with exactly these cards; every other card goes to the draw pile."""
    state = engine.new_game("mhing", players=players, seed=1)
    assert isinstance(state, MhingState)
    state.hands = [sorted(h, key=DECK.index) for h in hands]
    state.sequences = [list(map(list, s)) for s in (sequences or [[] for _ in range(players)])]
    state.discards = list(discards)
    used = (
        {c for h in hands for c in h}
        | set(discards)
        | {c for seqs in state.sequences for s in seqs for c in s}
    )
    state.draw_pile = [c for c in DECK if c not in used] if pile is None else list(pile)
    state.turn, state.starter, state.phase = turn, turn, phase
    if totals is not None:
        state.totals = list(totals)
    return state


FILLER = ["2C", "4D", "6S", "9C", "JD", "KS"]
OTHER = ["3S", "4S", "5C", "6D", "8C", "10C", "QD"]  # a hand for seat 1 that never matters

# ----- scoring: the text's worked examples and the bonus ------------------------------------


def test_worked_example_one_scores_5():
    assert score_sequences([["7H", "8H", "9H"], ["10H", "JH", "QH"], ["7S", "8S", "9S"]]) == 5


def test_worked_example_two_scores_8():
    assert (
        score_sequences(
            [["7H", "8H", "9H"], ["10H", "JH", "QH"], ["7S", "8S", "9S"], ["7C", "8C", "9C"]]
        )
        == 8
    )


def test_worked_example_three_scores_9():
    assert (
        score_sequences(
            [["2H", "3H", "4H"], ["5H", "6H", "7H"], ["8H", "9H", "10H"], ["JH", "QH", "KH"]]
        )
        == 9
    )


@pytest.mark.parametrize(
    "sequences,expected",
    [
        ([["5H", "6H", "7H"]], 1),  # all 7 or below
        ([["7H", "8H", "9H"]], 1),  # all 7 or above
        ([["5H", "6H", "7H"], ["7S", "8S", "9S"]], 0),  # 7 on both sides, but 5 and 9 too
        ([["5H", "6H", "7H"], ["8S", "9S", "10S"]], 1),  # in order, no bonus
        ([["2H", "3H", "4H"], ["5S", "6S", "7S"]], 2),  # in order plus low bonus
        ([["6H", "7H", "8H"]], 0),  # straddles 7
        ([], 0),
    ],
)
def test_high_low_bonus_edge_at_seven(sequences, expected):
    assert score_sequences(sequences) == expected


def test_each_match_counts_separately():
    # Same suit and in order in one pair: 2, plus high bonus.
    assert score_sequences([["7H", "8H", "9H"], ["10H", "JH", "QH"]]) == 3
    # Same suit and same ranks cannot both happen (one card of each), in order is one way only.
    assert score_sequences([["8S", "9S", "10S"], ["8D", "9D", "10D"]]) == 2


def test_breakdown_lists_every_point_of_worked_example_one():
    # The text's first example, point by point: the table lists exactly these.
    matches = score_breakdown([["7H", "8H", "9H"], ["10H", "JH", "QH"], ["7S", "8S", "9S"]])
    assert matches == [
        {"kind": "suit", "between": [0, 1]},
        {"kind": "order", "between": [0, 1]},
        {"kind": "ranks", "between": [0, 2]},
        {"kind": "order", "between": [1, 2]},
        {"kind": "high", "between": []},
    ]


def test_rules_page_worked_example_scores_5():
    # web/rules/mhing.html: two clubs runs in order, a diamonds run with a wild Ace as the 3.
    sequences = [["2C", "3C", "4C"], ["5C", "6C", "7C"], ["2D", "AD", "4D"]]
    assert score_sequences(sequences) == 5
    assert [(m["kind"], m["between"]) for m in score_breakdown(sequences)] == [
        ("suit", [0, 1]),
        ("order", [0, 1]),
        ("ranks", [0, 2]),
        ("order", [1, 2]),
        ("low", []),
    ]


@pytest.mark.parametrize(
    "sequences",
    [
        [],
        [["5H", "6H", "7H"]],
        [["2H", "3H", "4H"], ["5S", "6S", "7S"]],
        [["7H", "AH", "9H"], ["AS", "2S", "3S"], ["JC", "QC", "AC"]],
        [["2H", "3H", "4H"], ["5H", "6H", "7H"], ["8H", "9H", "10H"], ["JH", "QH", "KH"]],
    ],
)
def test_breakdown_adds_up_to_the_score(sequences):
    matches = score_breakdown(sequences)
    assert len(matches) == score_sequences(sequences)
    assert [m["kind"] for m in matches if not m["between"]] in ([], ["high"], ["low"])


def test_view_and_round_summary_show_ace_ranks_and_matches():
    state = _end_with([[["7H", "AH", "9H"], ["10H", "JH", "QH"]], [["2D", "3D", "4D"]]])
    last = state.rounds[-1]
    assert last["sequence_ranks"] == [[[7, 8, 9], [10, 11, 12]], [[2, 3, 4]]]
    assert [m["kind"] for m in last["matches"][0]] == ["suit", "order", "high"]
    assert last["matches"][1] == [{"kind": "low", "between": []}]
    live = position(hands=[FILLER, OTHER], sequences=[[["AS", "2S", "3S"]], [["JC", "QC", "AC"]]])
    view = live.view(1)
    assert view["sequence_ranks"] == [[[1, 2, 3]], [[11, 12, 13]]]
    assert view["matches"] == [[{"kind": "low", "between": []}], [{"kind": "high", "between": []}]]


def test_ace_counts_as_the_rank_it_stands_for():
    assert sequence_ranks(["7H", "AH", "9H"]) == (7, 8, 9)
    assert score_sequences([["7H", "AH", "9H"], ["7S", "8S", "9S"]]) == 2  # same ranks + high
    assert score_sequences([["AH", "2H", "3H"], ["4S", "5S", "6S"]]) == 2  # in order + low
    assert score_sequences([["AH", "QH", "KH"], ["8S", "9S", "10S"]]) == 2  # Ace as J: in order


def test_score_rejects_non_sequences():
    from engine.games.mhing import rules as mhing_rules

    with pytest.raises(ValueError):
        score_sequences([["QH", "KH", "AH"]])
    # Scored sequences are remembered, but only valid ones: the same cards in another
    # order, or a bad sequence met again, are still refused.
    assert score_sequences([["AH", "QH", "KH"]]) == 1
    for bad in (["QH", "KH", "AH"], ["KH", "QH", "AH"], ["QH", "KH", "AH"]):
        with pytest.raises(ValueError, match="not a sequence"):
            score_sequences([["7S", "8S", "9S"], bad])
    assert ("AH", "QH", "KH") in mhing_rules._FACTS
    assert all(mhing_rules.sequence_problem(list(seq)) is None for seq in mhing_rules._FACTS)


# ----- sequences ---------------------------------------------------------------------------


def test_sequence_validity_and_no_wrap_around():
    assert sequence_problem(["7H", "8H", "9H"]) is None
    assert sequence_problem(["AH", "2H", "3H"]) is None  # Ace as 1
    assert sequence_problem(["AH", "QH", "KH"]) is None  # Ace as J
    assert "wrap" in sequence_problem(["QH", "KH", "AH"])
    assert sequence_problem(["KH", "AH", "2H"]) is not None
    assert "same suit" in sequence_problem(["7H", "8S", "9H"])
    assert "gap" in sequence_problem(["7H", "9H", "10H"])
    assert "three" in sequence_problem(["7H", "8H"])


def test_sequences_in_uses_the_ace_once_and_as_one():
    found = sequences_in(["AH", "2H", "3H"])
    assert ("AH", "2H", "3H") in found  # Ace as itself
    assert ("2H", "3H", "AH") in found  # Ace as 4
    assert all(sum(c == "AH" for c in s) <= 1 for s in found)
    assert sequences_in(["QH", "KH", "AH"]) == [("AH", "QH", "KH")]
    assert sequences_in(["7H", "8S", "9H", "AS"]) == []  # an Ace is wild only in its suit
    assert ace_stands_for(["AH", "2H", "3H"]) is None
    assert ace_stands_for(["JS", "QS", "AS"]) == "KS"


# ----- the turn ------------------------------------------------------------------------------


def test_deal_two_and_four_players():
    for players, pile in ((2, 38), (3, 31), (4, 24)):
        state = engine.new_game("mhing", players=players, seed=5)
        view = state.view(None)
        assert view["hand_counts"] == [7] * players
        assert view["draw_pile_count"] == pile and view["discard_pile"] == []
        check_conservation(state)


def test_first_turn_must_draw_and_discard_pile_starts_empty():
    state = engine.new_game("mhing", players=2, seed=9)
    assert [a.kind for a in state.legal_actions()] == ["draw"]


def test_discard_can_only_be_taken_straight_into_a_sequence():
    state = position(hands=[["7H", "9H"] + FILLER[:5], OTHER], discards=["2D", "8H"])
    legal = ids(state)
    assert legal[0] == "draw:stock"
    assert "take:7H,8H,9H" in legal
    assert [i for i in legal if i.startswith("take")] == ["take:7H,8H,9H"]
    action = next(a for a in state.legal_actions() if a.id == "take:7H,8H,9H")
    assert action.cards == ("7H", "9H")
    pile = len(state.draw_pile)
    state.apply("take:7H,8H,9H")
    assert state.sequences[0] == [["7H", "8H", "9H"]]
    assert state.discards == ["2D"]
    assert len(state.hands[0]) == 7 and len(state.draw_pile) == pile - 2  # drew two
    assert state.current_player == 1 and state.phase == "draw"


def test_discard_that_fits_no_sequence_cannot_be_taken():
    state = position(hands=[["7H", "9H"] + FILLER[:5], OTHER], discards=["KD"])
    assert not [i for i in ids(state) if i.startswith("take")]
    with pytest.raises(IllegalAction, match="must be part of the sequence"):
        state.apply("take:7H,AH,9H")
    with pytest.raises(IllegalAction, match="don't hold"):
        state.apply("take:JD,QD,KD")


def test_discard_cannot_be_taken_after_drawing():
    state = position(hands=[["7H", "9H"] + FILLER[:5], OTHER], discards=["8H"])
    state.apply("draw:stock")
    with pytest.raises(IllegalAction, match="instead of drawing"):
        state.apply("take:7H,8H,9H")


def test_lay_after_drawing_then_draw_two_and_turn_ends():
    state = position(
        hands=[["7H", "8H", "9H"] + FILLER[:4], OTHER],
        pile=["KH", "QC", "JS", "2S"],
        discards=["10D"],
    )
    with pytest.raises(IllegalAction, match="draw a card first"):
        state.apply("lay:7H,8H,9H")
    state.apply("draw:stock")
    assert state.view(0)["drawn"] == "2S" and state.view(1)["drawn"] is None
    assert "lay:7H,8H,9H" in ids(state)
    state.apply("lay:7H,8H,9H")
    assert sorted(state.hands[0]) == sorted(FILLER[:4] + ["2S", "JS", "QC"])
    assert state.draw_pile == ["KH"]
    # One sequence per turn: laying ended the turn.
    assert state.current_player == 1


def test_discard_ends_the_turn():
    state = position(hands=[FILLER + ["3H"], OTHER], pile=["KH", "5H"])
    with pytest.raises(IllegalAction, match="draw a card before"):
        state.apply("discard:3H")
    state.apply("draw:stock")
    state.apply("discard:5H")
    assert state.discards == ["5H"] and state.current_player == 1 and len(state.hands[0]) == 7


def test_ace_is_wild_within_its_suit_only():
    state = position(hands=[["7H", "9H", "AH", "AS", "8S", "10S", "2C"], OTHER], phase="play")
    legal = ids(state)
    assert "lay:7H,AH,9H" in legal
    assert "lay:8S,AS,10S" in legal
    # The Ace of hearts never joins a spade run, nor the Ace of spades a heart run.
    for action_id in legal:
        if action_id.startswith("lay:"):
            assert len({c[-1] for c in action_id[4:].split(",")}) == 1
    with pytest.raises(IllegalAction, match="same suit"):
        state.apply("lay:7H,AS,9H")


def test_ace_swap_before_and_after_drawing():
    hands = [["8H", "2C", "4D", "6S", "9C", "JD", "KS"], OTHER]
    state = position(hands=hands, sequences=[[["7H", "AH", "9H"], ["AS", "2S", "3S"]], []])
    assert "swap:8H" in ids(state)  # allowed before drawing
    action = next(a for a in state.legal_actions() if a.id == "swap:8H")
    assert action.cards == ("8H",)
    state.apply("swap:8H")
    assert state.sequences[0][0] == ["7H", "8H", "9H"]
    assert "AH" in state.hands[0] and "8H" not in state.hands[0]
    assert state.view(1)["known_hand_cards"][0] == ["AH"]
    assert state.current_player == 0 and state.phase == "draw"
    # The Ace standing for itself (A-2-3) has nothing to swap with.
    with pytest.raises(IllegalAction, match="Ace standing for"):
        state.apply("swap:2C")
    state.apply("draw:stock")
    state.apply("discard:AH")
    assert state.view(1)["known_hand_cards"][0] == []


def test_swap_is_also_offered_after_drawing():
    state = position(
        hands=[["2C", "4D", "6S", "9C", "JD", "3C", "5D"], OTHER],
        sequences=[[["JS", "QS", "AS"]], []],
        pile=["KH", "KS"],
    )
    assert not [i for i in ids(state) if i.startswith("swap")]
    state.apply("draw:stock")
    assert "swap:KS" in ids(state)
    state.apply("swap:KS")
    assert state.sequences[0] == [["JS", "QS", "KS"]] and "AS" in state.hands[0]


def test_swapped_ace_can_complete_the_discard_sequence():
    state = position(
        hands=[["8H", "5D", "2C", "4D", "6S", "9C", "JD"], OTHER],
        sequences=[[["7H", "AH", "9H"]], []],
        discards=["7D"],
    )
    assert not [i for i in ids(state) if i.startswith("take")]
    state.apply("swap:8H")
    assert "take:5D,AD,7D" not in ids(state)  # the Ace of hearts is no use for diamonds
    state.hands[0] = ["AH", "10H", "JH", "2C", "4D", "6S", "9C"]
    state.discards = ["QH"]
    assert "take:10H,JH,QH" in ids(state) and "take:JH,QH,AH" in ids(state)


def test_fourth_sequence_ends_the_round_at_once():
    seqs = [[["2S", "3S", "4S"], ["5S", "6S", "7S"], ["8S", "9S", "10S"]], [["2D", "3D", "4D"]]]
    state = position(
        hands=[
            ["JS", "QS", "KS", "2C", "4H", "6H", "9C"],
            ["3C", "4C", "5C", "6D", "8C", "10C", "QD"],
        ],
        sequences=seqs,
        pile=["7C", "8D", "KH"],
        turn=0,
    )
    state.apply("draw:stock")
    state.apply("lay:JS,QS,KS")
    last = state.view(None)["last_round"]
    assert last["reason"] == "fourth_sequence" and last["ended_by"] == 0
    assert last["points"] == [9, 1] and last["winners"] == [0] and last["awarded"] == [9, 0]
    assert state.totals == [9, 0]
    assert last["sequences"][0][3] == ["JS", "QS", "KS"]
    # A new round was dealt; the start passes one seat clockwise.
    assert state.round_no == 2 and state.starter == 1 and state.current_player == 1
    assert state.view(None)["hand_counts"] == [7, 7] and state.sequences == [[], []]
    check_conservation(state)


def test_empty_draw_pile_is_rebuilt_from_discards_except_the_top():
    state = position(hands=[FILLER + ["3H"], OTHER], discards=["KH", "QC", "5H"], pile=[])
    assert ids(state)[0] == "draw:stock"
    state.apply("draw:stock")
    assert state.discards == ["5H"]
    assert state.view(1)["reshuffled"] == ["KH", "QC"]
    assert state.drawn in ("KH", "QC") and len(state.draw_pile) == 1


def test_nothing_to_draw_ends_the_round_as_it_stands():
    seqs = [[["7H", "8H", "9H"]], [["2D", "3D", "4D"], ["5D", "6D", "7D"]]]
    state = position(
        hands=[FILLER + ["3H"], ["3S", "4S", "5C", "6C", "8C", "10C", "QD"]],
        sequences=seqs,
        discards=["KH"],
        pile=[],
    )
    assert "ends the round" in state.legal_actions()[0].label
    state.apply("draw:stock")
    last = state.rounds[-1]
    assert last["reason"] == "draw_pile_empty" and last["ended_by"] is None
    assert last["points"] == [1, 3] and last["winners"] == [1] and state.totals == [0, 3]


def test_owed_cards_that_cannot_be_drawn_end_the_round():
    state = position(
        hands=[["7H", "8H", "9H"] + FILLER[:4], OTHER], pile=["KH", "2S"], discards=[], phase="draw"
    )
    state.apply("draw:stock")
    state.apply("lay:7H,8H,9H")  # draws KH, then nothing is left
    assert state.rounds[-1]["reason"] == "draw_pile_empty" and state.totals == [1, 0]


def test_second_rebuild_without_a_sequence_ends_the_round():
    state = position(hands=[FILLER + ["3H"], OTHER], discards=["KH", "QC", "5H"], pile=[])
    state.apply("draw:stock")  # first rebuild
    assert state.view(None)["rebuilt_since_sequence"] is True
    state.apply("discard:" + state.drawn)
    state.apply("draw:stock")
    state.apply(f"discard:{state.drawn}")
    assert state.draw_pile == [] and len(state.discards) > 1
    state.apply("draw:stock")  # would need a second rebuild
    assert state.rounds[-1]["reason"] == "no_progress"


def test_a_sequence_resets_the_stall_count():
    state = position(
        hands=[["7H", "8H", "9H"] + FILLER[:4], OTHER],
        discards=["KH", "QC", "5H", "JC", "2H"],
        pile=[],
    )
    state.apply("draw:stock")
    state.apply("lay:7H,8H,9H")
    assert state.rebuilt_since_sequence is False and state.round_no == 1


# ----- who wins the round ---------------------------------------------------------------------


def _end_with(sequences, players=2):
    state = position(players, hands=[[] for _ in range(players)], sequences=sequences, pile=[])
    state._end_round("draw_pile_empty", None)
    return state


def test_winner_takes_their_points_and_others_nothing():
    state = _end_with(
        [[["7H", "8H", "9H"], ["10H", "JH", "QH"], ["7S", "8S", "9S"]], [["2D", "3D", "4D"]]]
    )
    assert state.rounds[-1]["awarded"] == [5, 0] and state.totals == [5, 0]


def test_tie_goes_to_fewest_sequences():
    # 3 points each: seat 0 with two sequences, seat 1 with three.
    state = _end_with(
        [
            [["7H", "8H", "9H"], ["10H", "JH", "QH"]],
            [["3D", "4D", "5D"], ["6D", "7D", "8D"], ["9S", "10S", "JS"]],
        ]
    )
    last = state.rounds[-1]
    assert last["points"][0] == last["points"][1] == 3
    assert last["winners"] == [0] and state.totals == [3, 0]


def test_tie_with_equal_sequences_shares_the_points():
    state = _end_with([[["7H", "8H", "9H"]], [["2D", "3D", "4D"]], [["6C", "7C", "8C"]]], players=3)
    assert state.rounds[-1]["points"] == [1, 1, 0]
    assert state.rounds[-1]["winners"] == [0, 1] and state.totals == [1, 1, 0]


# ----- the match and its option -----------------------------------------------------------------


@pytest.mark.parametrize("target", [14, 20])
def test_match_ends_when_a_total_reaches_the_target(target):
    state = engine.new_game("mhing", players=2, seed=4, options={"target": target})
    state.totals = [target - 5, 3]
    state.sequences = [[["7H", "8H", "9H"], ["10H", "JH", "QH"], ["7S", "8S", "9S"]], []]
    state._end_round("fourth_sequence", 0)
    assert state.is_over and state.current_player is None and state.legal_actions() == []
    assert state.result()["winners"] == [0] and state.result()["scores"] == [target, 3]
    assert state.view(1)["phase"] == "over"


def test_target_20_keeps_playing_at_14():
    state = engine.new_game("mhing", players=2, seed=4, options={"target": 20})
    state.totals = [9, 0]
    state.sequences = [[["7H", "8H", "9H"], ["10H", "JH", "QH"], ["7S", "8S", "9S"]], []]
    state._end_round("fourth_sequence", 0)
    assert state.totals == [14, 0] and not state.is_over and state.result()["winners"] == []


def test_equal_top_totals_share_the_match():
    state = engine.new_game("mhing", players=3, seed=4)
    state.totals = [13, 13, 2]
    state.sequences = [[["7H", "8H", "9H"]], [["2D", "3D", "4D"]], []]
    state._end_round("draw_pile_empty", None)
    assert state.is_over and state.result()["winners"] == [0, 1]


def test_option_is_validated_and_described():
    assert SPEC.options["target"].default == 14 and SPEC.options["target"].choices == (14, 20)
    with pytest.raises(engine.InvalidOptions):
        engine.new_game("mhing", players=2, seed=1, options={"target": 15})
    assert len(SPEC.clarifications) >= 4


# ----- views, hidden information, records --------------------------------------------------


def test_view_hides_hands_and_pile_order():
    state = engine.new_game("mhing", players=3, seed=11)
    spectator = state.view(None)
    mine = state.view(1)
    assert spectator["hand"] == [] and mine["hand"] == state.hands[1]
    text = repr(mine)
    for p in (0, 2):
        assert not any(f"'{c}'" in text for c in state.hands[p])
    assert not any(f"'{c}'" in repr(spectator) for c in state.draw_pile)
    for key in ("phase", "current_player", "scores", "round", "last_round", "rounds"):
        assert key in mine


def test_determinize_keeps_known_aces_and_rebuilt_pile():
    state = position(
        hands=[
            ["2C", "4D", "6S", "9C", "JD", "KS", "3C"],
            ["8H", "3S", "4S", "5C", "6D", "8C", "10C"],
        ],
        sequences=[[], [["7H", "AH", "9H"]]],
        turn=1,
        discards=["QD", "JC", "2H"],
        pile=[],
    )
    state.apply("swap:8H")
    state.apply("draw:stock")
    rebuilt = set(state.reshuffled)
    for seed in range(10):
        world = state.determinize(0, random.Random(seed))
        assert "AH" in world.hands[1]
        assert set(world.draw_pile) <= rebuilt
        assert world.view(0) == state.view(0)
        assert sorted(world.hands[1] + world.draw_pile) == sorted(state.hands[1] + state.draw_pile)


def test_records_replay_and_labels():
    state = engine.new_game("mhing", players=2, seed=21)
    rng = random.Random(2)
    for _ in range(120):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    replay = engine.from_record(state.to_record())
    assert replay.view(0) == state.view(0) and replay.view(1) == state.view(1)
    for index, action in enumerate(state.history):
        assert state.move_revealed_hidden(index) == (action.kind in ("draw", "take", "lay"))


def test_unknown_ids_are_refused_with_a_reason():
    state = engine.new_game("mhing", players=2, seed=3)
    with pytest.raises(IllegalAction, match="draw a card before"):
        state.apply(f"discard:{state.hands[state.current_player][0]}")
    with pytest.raises(IllegalAction):
        state.apply("lay:ZZ,7H,8H")
    assert state.why_illegal("bogus") is None


@pytest.mark.parametrize("players", [2, 4])
def test_full_match_plays_to_the_end(players):
    play_checked_match("mhing", players, {"target": 20}, seed=7, deep_every=25)


# ----- the greedy opponent ----------------------------------------------------------------------


def _choose(state: MhingState) -> str:
    return greedy(state.view(state.turn), state.legal_actions(), random.Random(0)).id


def test_greedy_swaps_aces_back():
    state = position(
        hands=[["8H", "2C", "4D", "6S", "9C", "JD", "KS"], OTHER],
        sequences=[[["7H", "AH", "9H"]], []],
    )
    assert _choose(state) == "swap:8H"


def test_greedy_takes_the_discard_only_to_complete_a_sequence():
    hand = ["7H", "9H", "2C", "4D", "6S", "JC", "KS"]
    state = position(hands=[hand, OTHER], discards=["8H"])
    assert _choose(state) == "take:7H,8H,9H"
    state = position(hands=[hand, OTHER], discards=["8D"])
    assert _choose(state) == "draw:stock"


def test_greedy_lays_fourth_only_to_win_and_keeps_connected_cards():
    seqs = [[["2S", "3S", "4S"], ["5S", "6S", "7S"], ["8S", "9S", "10S"]], [["2D", "3D", "4D"]]]
    state = position(
        hands=[
            ["JS", "QS", "KS", "2C", "4H", "6H", "9C"],
            ["3C", "4C", "5C", "6D", "8C", "10C", "QD"],
        ],
        sequences=seqs,
        phase="play",
    )
    assert _choose(state) == "lay:JS,QS,KS"
    losing = [
        [["2S", "3S", "4S"], ["6H", "7H", "8H"], ["JC", "QC", "KC"]],
        [["7D", "8D", "9D"], ["10D", "JD", "QD"], ["7C", "8C", "9C"]],
    ]
    state = position(
        hands=[
            ["2H", "3H", "4H", "5C", "9S", "10S", "KH"],
            ["3C", "4C", "5D", "6D", "2D", "10C", "KD"],
        ],
        sequences=losing,
        phase="play",
    )
    choice = _choose(state)
    assert choice.startswith("discard:") and choice not in ("discard:9S", "discard:10S")


def test_greedy_beats_random():
    bots = [make("greedy"), make("random")]
    wins = 0
    matches = 24
    for seed in range(matches):
        state = engine.new_game("mhing", players=2, seed=1000 + seed)
        rng = random.Random(seed)
        greedy_seat = seed % 2
        while not state.is_over:
            seat = state.current_player
            bot = bots[0] if seat == greedy_seat else bots[1]
            state.apply(bot.choose(state, seat, rng))
        wins += greedy_seat in state.result()["winners"]
    assert wins >= matches * 0.75


def test_refusals_name_the_sequence_rule_with_the_cards_at_hand():
    state = position(hands=[["7H", "9H"] + FILLER[:5], OTHER], discards=["KD"])
    with pytest.raises(IllegalAction, match="with .* from the discard, these cards make no"):
        state.apply("take:7H")  # judged together with the discard it would be laid with
    with pytest.raises(IllegalAction, match="draw a card first"):
        state.apply("lay:7H,9H")
    state = position(hands=[["7H", "8H", "9H", "9C"] + FILLER[:4], OTHER], phase="play")
    with pytest.raises(IllegalAction, match="make no sequence with your hand"):
        state.apply("lay:7H,9C")
    with pytest.raises(IllegalAction, match="exactly three cards"):
        state.apply("lay:7H,8H")  # they could be part of one: a third card is wanted


def test_added_score_is_the_score_a_sequence_adds():
    """The bots' shortcut agrees with scoring the sequences with and without the new one, for
    every sequence a full deck makes (wild Aces included) added to seeded random sets of up
    to three others."""
    from engine.games.mhing.rules import DECK, added_score, score_sequences, sequences_in

    every = sequences_in(DECK)
    assert any(s[0].startswith("A") and s[1][0] != "2" for s in every)  # wild Aces are there
    rng = random.Random(7)
    for _ in range(400):
        have = [list(s) for s in rng.sample(every, rng.randrange(4))]
        for new in every:
            assert added_score(have, new) == score_sequences([*have, list(new)]) - score_sequences(
                have
            )


def _keep_values_by_the_definition(view):
    """card_keep_values as its rule reads, card by card, each run scored from scratch."""
    from engine.games.mhing.bot import _unseen
    from engine.games.mhing.rules import CARD_AT, SUIT_OF, VALUE_OF, score_sequences

    mine = view["sequences"][view["viewer"]]
    unseen, buried, held = _unseen(view), set(view["discard_pile"][:-1]), set(view["hand"])
    values = {}
    for c in view["hand"]:
        suit, value = SUIT_OF[c], VALUE_OF[c]
        if value == 1:
            values[c] = 10.0
            continue
        total = 0.0
        for low in range(max(2, value - 2), min(value, 11) + 1):
            run = [CARD_AT[suit, v] for v in (low, low + 1, low + 2)]
            missing = [r for r in run if r not in held]
            if CARD_AT[suit, 1] in held and missing:
                missing = missing[1:]
            chance = 1.0
            for r in missing:
                chance *= 0.45 if r in unseen else 0.15 if r in buried else 0.0
            if chance:
                total += chance * (
                    1.0 + 0.7 * (score_sequences([*mine, run]) - score_sequences(mine))
                )
        values[c] = total
    return values


def test_card_keep_values_are_their_definition_exactly():
    """The greedy policy's keep values, worked out once per run, equal the card-by-card
    definition to the last bit, in every position of seeded matches (so the bots play the
    same moves as before the shortcut)."""
    from engine.games.mhing.bot import card_keep_values

    positions = 0
    for seed in range(12):
        state = engine.new_game("mhing", 2 + seed % 3, seed)
        rng = random.Random(seed)
        normal = make("normal")
        while not state.is_over:
            view = state.view(state.current_player)
            if view["hand"]:
                assert card_keep_values(view) == _keep_values_by_the_definition(view)
                positions += 1
            state.apply(normal.choose(state, state.current_player, rng))
    assert positions > 500


def test_every_kind_of_point_has_its_words_in_the_coach_and_the_renderer():
    """The kinds score_breakdown gives (a pair's "suit", "ranks", "order"; the bonus's "high"
    or "low") are the keys of the game's words, and the page's renderer names each one alike."""
    import json
    import re
    from pathlib import Path

    from engine.games.mhing.rules import score_breakdown
    from engine.games.mhing.words import MATCH_WORDS

    runs = [
        [["7H", "8H", "9H"], ["10H", "JH", "QH"]],
        [["2S", "3S", "4S"], ["2H", "3H", "4H"]],
        [["2S", "3S", "4S"]],
    ]
    kinds = {m["kind"] for seqs in runs for m in score_breakdown(seqs)}
    assert kinds == set(MATCH_WORDS), kinds
    source = (Path(__file__).resolve().parent.parent / "web/js/games/mhing.js").read_text()
    found = re.search(r"const MATCH_WORDS = (\{[^}]*\});", source)
    assert found, "web/js/games/mhing.js names the kinds of point in MATCH_WORDS"
    page = json.loads(re.sub(r"(\w+):", r'"\1":', found.group(1)))
    assert page == MATCH_WORDS


# ----- the search's rollout loop ---------------------------------------------------------------


def _varied_positions(players: int, seed: int, rounds: int = 1):
    """The states of a match whose seats play the greedy move, or one in four a random one
    (to reach positions the greedy alone never makes), as far as ``rounds`` rounds."""
    state = engine.new_game("mhing", players=players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over and state.rounds_played() < rounds:
        yield state
        legal = state.legal_actions()
        if rng.random() < 0.25:
            choice = legal[rng.randrange(len(legal))]
        else:
            choice = greedy(state.view(state.current_player), legal, rng)
        state.apply(choice)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_rollouts_move_is_the_greedy_move(players):
    # The rollouts read the greedy's move off the world; it must be the move the greedy
    # makes from the seat's policy view (the very object of the listing), drawing the same
    # chance for a tie.
    from engine.games.mhing import bot

    kinds = set()
    for seed in range(4):
        for state in _varied_positions(players, seed):
            legal = state.legal_actions()
            seat = state.current_player
            fast_rng, slow_rng = random.Random(seed), random.Random(seed)
            want = legal[0] if len(legal) == 1 else greedy(state.policy_view(seat), legal, slow_rng)
            got = bot._rollout_move(state, fast_rng)
            assert got is want, (seed, want.id, got.id)
            assert fast_rng.random() == slow_rng.random()
            kinds.add(want.kind)
    assert {"draw", "take", "lay", "discard"} <= kinds
    assert "swap" in kinds or players == 4  # swaps come at the smaller tables' seeds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_rollouts_keep_values_are_the_greedys(players):
    # The rollouts work the keep values out from the world's parts, each run's worth read
    # from a memo per set of the seat's sequences: the very floats card_keep_values gives
    # from the seat's view, card by card in hand order, wherever the seat holds cards.
    from engine.games.mhing import bot
    from engine.games.mhing.rules import CARD_BIT

    checked = 0
    for seed in range(4):
        for state in _varied_positions(players, seed, rounds=2):
            seat = state.current_player
            hand = state.hands[seat]
            want = bot.card_keep_values(state.view(seat))
            got = bot._keep_values(
                hand,
                sum(CARD_BIT[c] for c in hand),
                state.discards,
                state.sequences,
                state.known,
                state.sequences[seat],
            )
            assert got == [want[c] for c in hand]
            # The rollouts' own path reads the piles' bits the moves keep (the ones worked
            # out from the cards) and the seat's adder the state keeps from earlier
            # positions while the seat's sequences stand.
            held = sum(CARD_BIT[c] for c in hand)
            assert bot._world_keep_values(state, seat, held) == got
            recounted = state._copy(state.rng)
            recounted._recount()
            assert (recounted.discard_bits, recounted.laid_bits) == (
                state.discard_bits,
                state.laid_bits,
            )
            # The round points, worked out again for the seat whose sequences changed only
            # (asked at one position in three: two seats may have laid in between).
            if checked % 3 == 0:
                assert state._round_points() == [score_sequences(s) for s in state.sequences]
                assert state._copy(state.rng)._round_points() == state._round_points()
            checked += 1
    assert checked > 200


def test_the_greedy_rollout_takes_the_generic_loops_moves():
    # From sampled worlds: the game's rollout loop and the search's generic one take the
    # same moves and leave the same scores; the game's does not deal the next round.
    from engine.core import LazyRandom
    from engine.games.mhing import bot

    for seed in range(3):
        for i, state in enumerate(_varied_positions(4, seed)):
            if i % 15:
                continue
            world = state.determinize(state.current_player, random.Random(i))
            fast, slow = world._copy(LazyRandom(i)), world._copy(LazyRandom(i))
            fast_rng, slow_rng = random.Random(i), random.Random(i)
            start = len(fast.history)
            steps = bot.greedy_rollout(fast, fast_rng, 0, 400)
            while not slow.is_over and slow.rounds_played() == 0:
                legal = slow.legal_actions()
                if len(legal) == 1:
                    slow.push(legal[0])
                else:
                    slow.push(greedy(slow.policy_view(slow.current_player), legal, slow_rng))
            assert steps == len(fast.history) - start
            assert [a.id for a in fast.history] == [a.id for a in slow.history]
            assert fast.result()["scores"] == slow.result()["scores"]
            assert fast.rounds_played() == 1 and fast.round_no == world.round_no
            if not slow.is_over:
                assert slow.round_no == world.round_no + 1  # the generic loop dealt again


def test_the_search_with_the_games_rollout_loop_searches_alike():
    # The whole search, with the game's rollout loop and with the generic one: the same
    # visits and values at the root, so the same choice.
    from engine.games.mhing import bot

    positions = []
    for seed, skip in ((1, 0), (2, 11), (3, 40)):
        state = engine.new_game("mhing", players=4, seed=seed)
        rng = random.Random(seed)
        for _ in range(skip):
            state.apply(greedy(state.view(state.current_player), state.legal_actions(), rng))
        positions.append((state, seed))
    assert bot.SETTINGS.search is not None
    assert_loop_searches_alike(bot.SETTINGS.search, "greedy_rollout", positions, 30)

"""Crisps: combinations, the following rule, tricks and draws, rounds, options and the bot."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine.bots import make
from engine.core import IllegalAction
from engine.games.crisps import SPEC
from engine.games.crisps.bot import greedy, plays_needed
from engine.games.crisps.rules import (
    Combination,
    can_follow,
    classify,
    combination_problem,
    deck_for,
    follow_problem,
    public_could_beat,
    sort_cards,
)
from engine.games.crisps.state import CrispsState
from tests.helpers import assert_loop_searches_alike, assert_sampled_as_before, ids

RUNS = {"special_rank_runs": True}


def position(
    hands: list[list[str]],
    *,
    turn: int = 0,
    face_up: str | None = None,
    pile: list[str] | None = None,
    played: tuple[str, ...] = (),
    options: dict | None = None,
    scores: tuple[int, int] = (0, 0),
) -> CrispsState:
    """A match at the start of a trick led by ``turn``; unlisted cards go to the pile/removed."""
    state = engine.new_game("crisps", 2, 1, options or {})
    assert isinstance(state, CrispsState)
    state.hands = [sort_cards(h) for h in hands]
    state.played = list(played)
    rest = [c for c in deck_for(options) if c not in set(hands[0]) | set(hands[1]) | set(played)]
    state.face_up = face_up
    if face_up is not None:
        rest.remove(face_up)
    if pile is None:
        pile = rest[4:]
    state.draw_pile = list(pile)
    state.removed = [c for c in rest if c not in pile]
    state.known = [[], []]
    state.scores = list(scores)
    state.trick, state.to_beat, state.phase = [], None, "play"
    state.turn = state.leader = turn
    return state


# ----- combinations ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards,kind,length,rank",
    [
        (["7H"], "single", 1, 7),
        (["QS"], "single", 1, 11),
        (["5D", "5S"], "pair", 2, 5),
        (["3C", "4D", "5H"], "run", 3, 5),
        (["2C", "3D", "4H", "5S", "6C", "7D", "8H", "9S", "10C"], "run", 9, 10),
        (["5C", "5D", "6H", "6S"], "pair_run", 4, 6),
        (["8C", "8D", "9H", "9S", "10C", "10D"], "pair_run", 6, 10),
        (["9C", "9D", "9H"], "three", 3, 9),
        (["QC", "QD", "QH", "QS"], "four", 4, 11),
    ],
)
def test_classify_every_combination(cards, kind, length, rank):
    combo = classify(cards)
    assert combo is not None
    assert (combo.kind, combo.length, combo.rank) == (kind, length, rank)
    assert combo.special == (kind in ("three", "four"))


@pytest.mark.parametrize(
    "cards,reason",
    [
        (["9C", "10D", "QH"], "a Queen cannot be part of a run"),
        (["10C", "10D", "QH", "QS"], "a Queen cannot be part of a run"),
        (["3C", "5D", "6H"], "without a gap"),
        (["3C", "4D"], "two different ranks"),
        (["3C", "3D", "4H", "5S"], "one card of each rank"),
        ([], "at least one card"),
        (["3C", "3C"], "only be used once"),
        (["JS"], "not a card of this game"),
        (["AS"], "not a card of this game"),
    ],
)
def test_not_a_combination_says_why(cards, reason):
    assert classify(cards) is None
    assert reason in combination_problem(cards)


def test_special_rank_runs_turns_queens_into_jacks_that_run():
    assert classify(["9C", "10D", "JH"], RUNS) == Combination("run", 3, 11, True)
    assert classify(["10C", "10D", "JH", "JS"], RUNS).kind == "pair_run"
    assert classify(["QH"], RUNS) is None and classify(["JH"]) is None
    assert deck_for(RUNS)[-4:] == ["JC", "JD", "JH", "JS"]
    assert len(deck_for()) == 40 and Counter(c[:-1] for c in deck_for())["Q"] == 4


# ----- the following rule -----------------------------------------------------------------


@pytest.mark.parametrize(
    "previous,play,ok",
    [
        (None, ["3C"], True),
        (None, ["9C", "9D", "9H", "9S"], True),
        (["7H"], ["8C"], True),
        (["7H"], ["7S"], True),  # equal rank follows
        (["7H"], ["6S"], False),
        (["10H"], ["QS"], True),  # the Queen tops the singles
        (["5D", "5S"], ["5C", "5H"], True),
        (["5D", "5S"], ["4C", "4H"], False),
        (["3C", "4D", "5H"], ["3D", "4H", "5S"], True),
        (["3C", "4D", "5H"], ["6C", "7D", "8H"], True),
        (["4C", "5D", "6H"], ["3D", "4H", "5S"], False),  # a run's rank is its top
        (["5C", "5D", "6H", "6S"], ["6C", "6D", "7H", "7S"], True),
        (["5C", "5D", "6H", "6S"], ["4C", "4D", "5H", "5S"], False),
        (["5C", "5D", "6H", "6S"], ["7C", "7D", "8H", "8S", "9C", "9D"], False),
        (["3C", "3D", "3H"], ["4C", "4D", "4H"], True),  # special over special
        (["3C", "3D", "3H"], ["2C", "2D", "2H", "2S"], True),  # more cards beat any rank
        (["4C", "4D", "4H"], ["4S", "4C", "4D"], False),  # same size needs higher rank
        (["8C", "8D", "8H"], ["5C", "5D", "5H"], False),
        (["5C", "5D", "5H", "5S"], ["9C", "9D", "9H", "9S"], True),
        (["5C", "5D", "5H", "5S"], ["QC", "QD", "QH"], False),
        (["QH"], ["2C", "2D", "2H"], True),  # the Queen rule
        (["QC", "QD"], ["2C", "2D", "2H", "2S"], True),
        (["10H"], ["2C", "2D", "2H"], False),
        (["3C", "3D", "3H"], ["QS"], False),
    ],
)
def test_can_follow(previous, play, ok):
    assert can_follow(previous, play) is ok


@pytest.mark.parametrize(
    "previous,play,reason",
    [
        # Judged against the play to beat first: what it needs is the reason.
        (["10D", "10S"], ["2D", "10C"], "a pair of 10s needs a pair of 10s or higher"),
        (["10D", "10S"], ["2D", "3C", "5H"], "a pair of 10s needs a pair of 10s or higher"),
        (["10D", "10S"], ["9C", "9H"], "a pair of 10s needs a pair of 10s or higher"),
        (["5D"], ["7C", "7H"], "a single 5 needs a single 5 or higher"),
        (["7H"], ["6S"], "a single 7 needs a single 7 or higher"),
        (
            ["3C", "4D", "5H", "6S"],
            ["6C", "7D", "8H"],
            "a run of four up to 6 needs a run of four up to 6 or higher",
        ),
        (
            ["5C", "5D", "6H", "6S"],
            ["7C", "7D", "8H", "8S", "9C", "9D"],
            "a run of two pairs up to 6 needs a run of two pairs up to 6 or higher",
        ),
        (
            ["10H"],
            ["2C", "2D", "2H"],
            "three or four of a kind can only follow a play that contains a Queen",
        ),
        (["3C", "3D", "3H"], ["QS"], "nothing ordinary can follow a special"),
        (["3C", "3D", "3H", "3S"], ["9C", "9D", "9H"], "four 3s need four of a higher rank"),
        (["8C", "8D", "8H"], ["5C", "5D", "5H"], "three 8s need three of a higher rank"),
        (["9C"], ["9D", "10H", "QS"], "a single 9 needs a single 9 or higher"),
        # A run of the right length that is no run: its own flaw is said too.
        (["3C", "4D", "5H"], ["9D", "10H", "QS"], "a Queen cannot be part of a run"),
        (["3C", "4D", "5H"], ["6D", "7H", "9S"], "without a gap"),
        (["QC"], ["5C"], "a single Queen needs a single Queen or higher, or three or four"),
    ],
)
def test_refusals_are_explained(previous, play, reason):
    assert reason in follow_problem(previous, play)
    assert not can_follow(previous, play)


def test_in_special_rank_runs_the_jack_opens_the_door_to_specials():
    assert can_follow(["9C", "10D", "JH"], ["2C", "2D", "2H"], RUNS)
    assert not can_follow(["8C", "9D", "10H"], ["2C", "2D", "2H"], RUNS)
    assert "contains a Jack" in follow_problem(["8C"], ["2C", "2D", "2H"], RUNS)
    assert can_follow(["8C", "9D", "10H"], ["9C", "10D", "JH"], RUNS)


# ----- the deal -----------------------------------------------------------------------------


def test_deal_twelve_each_four_removed_one_face_up():
    state = engine.new_game("crisps", 2, 5)
    zones = state.zones()
    assert [len(zones["hand:0"]), len(zones["hand:1"])] == [12, 12]
    assert len(zones["removed"]) == 4 and len(zones["face_up"]) == 1
    assert len(zones["draw_pile"]) == 11 and zones["played"] == []
    assert sorted(c for z in zones.values() for c in z) == sorted(deck_for())
    view = state.view(0)
    assert view["face_up"] == zones["face_up"][0] and view["draw_pile"] == 11
    assert view["removed"] == 4 and view["phase"] == "play" and view["round"] == 1


def test_round_one_starter_is_random():
    starters = {engine.new_game("crisps", 2, seed).current_player for seed in range(20)}
    assert starters == {0, 1}


def test_view_hides_opponent_hand_and_pile():
    state = engine.new_game("crisps", 2, 9)
    view = state.view(0)
    text = repr(view)
    assert view["hand"] == state.hands[0]
    assert all(f"'{c}'" not in text for c in state.hands[1] + state.removed + state.draw_pile)
    spectator = state.view(None)
    assert spectator["hand"] is None and spectator["hand_sizes"] == [12, 12]


# ----- tricks -------------------------------------------------------------------------------


def test_leader_cannot_pass_and_follower_sees_only_followers():
    state = position([["3C", "3D", "7H"], ["2C", "2D", "4H", "4S", "QS"]], face_up="9C")
    assert "pass" not in ids(state)
    assert ids(state) == ["play:3C", "play:7H", "play:3C,3D"]  # 3D plays as 3C would
    assert "must play" in state.why_illegal("pass")
    state.apply("play:3C,3D")
    assert ids(state) == ["pass", "play:4H,4S"]
    with pytest.raises(IllegalAction, match="a pair of 3s needs a pair of 3s or higher"):
        state.apply("play:QS")
    with pytest.raises(IllegalAction, match="a pair of 3s needs a pair of 3s or higher"):
        state.apply("play:2C,2D")
    with pytest.raises(IllegalAction, match="in order: play:4H,4S"):
        state.apply("play:4S,4H")


def test_queen_lets_specials_in_and_special_over_special():
    state = position([["QS", "5C", "5D", "5H", "8C"], ["2C", "2D", "2H", "9C", "9D", "9H", "9S"]])
    state.apply("play:QS")
    assert "play:2C,2D,2H" in ids(state) and "play:9C,9D,9H,9S" in ids(state)
    state.apply("play:2C,2D,2H")
    assert ids(state) == ["pass", "play:5C,5D,5H"]  # 5s beat 2s; the 8 is ordinary
    state.apply("play:5C,5D,5H")
    assert ids(state) == [
        "pass",
        "play:9C,9D,9H",  # one three of 9s: the other three are the same play
        "play:9C,9D,9H,9S",
    ]


def test_pass_ends_trick_and_winner_takes_face_up():
    state = position(
        [["3C", "8D", "8H"], ["4C", "9S", "10S"]], face_up="QH", pile=["2S", "6C", "7D"]
    )
    state.apply("play:3C")
    state.apply("play:4C")
    state.apply("pass")  # seat 0 passes: seat 1 made the last play
    assert state.phase == "draw" and state.current_player == 1
    view = state.view(0)
    assert view["trick_winner"] == 1 and view["trick"][-1] == {
        "player": 0,
        "pass": True,
        "auto": False,
    }
    assert ids(state) == ["take:faceup", "take:blind"]
    assert "the trick is over" in state.why_illegal("play:8D")
    state.apply("take:faceup")
    assert "QH" in state.hands[1] and "7D" in state.hands[0]
    assert state.face_up == "6C" and state.draw_pile == ["2S"]
    assert state.current_player == 1 and state.phase == "play" and state.to_beat is None
    view = state.view(0)
    assert view["known_cards"] == [[], ["QH"]]
    assert view["last_draw"] == {
        "chooser": 1,
        "chooser_took": "faceup",
        "face_up_card": "QH",
        "passer_drew": True,
    }
    assert [e.get("cards") for e in view["last_trick"]] == [["3C"], ["4C"], None]


def test_blind_choice_gives_the_passer_the_face_up_card():
    state = position([["3C", "8D"], ["4C", "9S"]], face_up="QH", pile=["2S", "6C", "7D"])
    state.apply("play:3C")
    state.apply("pass")
    assert state.current_player == 0
    state.apply("take:blind")
    assert "7D" in state.hands[0] and "QH" in state.hands[1]
    assert state.known == [[], ["QH"]] and state.face_up == "6C"
    # The known card stops being known once it is played.
    state.apply("play:7D")
    state.apply("play:QH")
    assert state.known == [[], []]


def test_empty_pile_chooser_takes_face_up_passer_nothing_then_no_draw():
    state = position([["3C", "8D"], ["4C", "9S"]], face_up="QH", pile=[])
    state.apply("play:3C")
    state.apply("pass")
    assert ids(state) == ["take:faceup"]
    assert "draw pile is empty" in state.why_illegal("take:blind")
    state.apply("take:faceup")
    assert state.hands == [["8D", "QH"], ["4C", "9S"]] and state.face_up is None
    state.apply("play:8D")
    state.apply("pass")  # nothing left to draw: straight to the next trick
    assert state.phase == "play" and state.current_player == 0
    assert state.view(1)["last_draw"]["chooser_took"] == "nothing"


def test_no_faceup_draw_both_draw_blind_winner_first():
    opts = {"no_faceup_draw": True}
    state = position([["3C", "8D"], ["4C", "9S"]], pile=["2S", "6C", "7D"], options=opts)
    assert state.view(0)["face_up"] is None
    state.apply("play:3C")
    state.apply("pass")
    assert state.hands == [["7D", "8D"], ["4C", "6C", "9S"]]
    assert state.phase == "play" and state.current_player == 0
    assert "no face-up card" in state.why_illegal("take:faceup")
    state.apply("play:7D")
    state.apply("pass")  # one card left: only the winner draws
    assert state.hands == [["2S", "8D"], ["4C", "6C", "9S"]]
    assert state.view(0)["last_draw"]["passer_drew"] is False
    fresh = engine.new_game("crisps", 2, 4, opts)
    assert fresh.face_up is None and len(fresh.draw_pile) == 12


# ----- rounds and the match ------------------------------------------------------------------


def test_emptying_hand_mid_trick_wins_the_round_and_deals_again():
    state = position([["5C"], ["4C", "9S", "9H"]], turn=1, face_up="2D")
    state.apply("play:4C")
    state.apply("play:5C")
    assert state.scores == [1, 0] and state.round_no == 2
    summary = state.view(None)["last_round"]
    assert summary == {
        "round": 1,
        "starter": state.starters[0],
        "winner": 0,
        "scores": [1, 0],
        "cards_left": [0, 2],
    }
    assert state.result()["rounds"] == [summary] and state.result()["winners"] == []
    assert [len(h) for h in state.hands] == [12, 12] and state.played == []
    assert state.current_player == 1  # the lower score starts


def test_tied_scores_start_with_who_went_first_least_recently():
    state = position([["5C"], ["4C"]], turn=0)
    state.scores, state.starters = [1, 1], [0, 1, 0]
    assert state.next_starter() == 1
    state.starters = [1, 0, 0]
    assert state.next_starter() == 1
    state.starters = [0, 0, 1]
    assert state.next_starter() == 0
    state.starters = [0]
    assert state.next_starter() == 1  # never started: least recently of all
    state.scores = [2, 1]
    assert state.next_starter() == 1


def test_three_points_win_the_match():
    state = position([["5C"], ["4C", "9S"]], scores=(2, 1))
    state.apply("play:5C")
    assert state.is_over and state.current_player is None and state.legal_actions() == []
    assert state.result()["winners"] == [0] and state.result()["scores"] == [3, 1]
    assert state.view(1)["phase"] == "over"
    with pytest.raises(IllegalAction, match="match is over"):
        state.apply("pass")


# ----- options -------------------------------------------------------------------------------


def test_auto_skip_when_nothing_unseen_can_beat():
    opts = {"auto_skip": True}
    played = ("10C", "10D", "QC", "QD", "QH")
    state = position(
        [["10H", "10S", "3C"], ["4C", "5D", "6H"]], face_up="QS", played=played, options=opts
    )
    state.apply("play:10H,10S")
    assert state.phase == "draw" and state.current_player == 0
    assert state.view(1)["trick"][-1] == {"player": 1, "pass": True, "auto": True}


def test_auto_skip_is_recorded_and_replays():
    skipped = 0
    for seed in range(6):
        state = engine.new_game("crisps", 2, seed, {"auto_skip": True})
        rng = random.Random(seed)
        while not state.is_over:
            before = len(state.trick)
            state.apply(rng.choice(state.legal_actions()))
            skipped += any(e.get("auto") for e in state.trick[before:])
        replay = engine.from_record(state.to_record())
        assert replay.result() == state.result() and replay.zones() == state.zones()
    assert skipped > 0


def test_auto_skip_never_looks_at_the_hand():
    opts = {"auto_skip": True}
    # A Queen lies among the removed cards: nobody saw it, so seat 1 might hold it.
    played = ("10C", "10D", "QC", "QD")
    state = position(
        [["10H", "10S", "3C"], ["4C", "5D", "6H"]], face_up="2S", played=played, options=opts
    )
    state.apply("play:10H,10S")
    assert state.phase == "play" and state.current_player == 1 and ids(state) == ["pass"]


def test_auto_skip_counts_cards_in_hand_and_specials_after_a_queen():
    opts = {"auto_skip": True}
    state = position([["3C", "4D", "5H", "6S", "9C"], ["7C", "8D", "QS"]], options=opts)
    state.apply("play:3C,4D,5H,6S")  # a run of four against a three-card hand
    assert state.phase == "draw" and state.trick[-1]["auto"] is True
    pool = Counter({v: 4 for v in range(2, 12)})
    queen = classify(["QS"])
    assert public_could_beat(queen, pool, 1)  # another Queen may still be out there
    pool[11] = 0
    assert public_could_beat(queen, pool, 3)  # three of a kind may follow a Queen
    assert not public_could_beat(queen, pool, 2)
    assert public_could_beat(classify(["10S"]), pool, 1)
    pool[10] = 0
    assert not public_could_beat(classify(["10S"]), pool, 1)
    assert public_could_beat(classify(["3C", "3D", "3H"]), pool, 4)
    assert not public_could_beat(classify(["3C", "3D", "3H", "3S"]), pool, 3)


def test_auto_skip_with_no_faceup_draw_draws_at_once():
    opts = {"auto_skip": True, "no_faceup_draw": True}
    state = position(
        [["3C", "4D", "5H", "6S", "9C"], ["7C", "8D", "QS"]], options=opts, pile=["2S", "2H"]
    )
    state.apply("play:3C,4D,5H,6S")
    assert state.phase == "play" and state.current_player == 0
    assert "2H" in state.hands[0] and "2S" in state.hands[1]
    assert state.move_revealed_hidden(-1)


def test_special_rank_runs_play_runs_through_the_jack():
    state = position([["9C", "10D", "JH", "2C"], ["2D", "2H", "2S", "4C"]], options=RUNS)
    assert "play:9C,10D,JH" in ids(state)
    assert "Queens are Jacks" in state.why_illegal("play:QH")
    state.apply("play:9C,10D,JH")
    assert ids(state) == ["pass", "play:2D,2H,2S"]


def test_spec_options_and_clarifications():
    assert set(SPEC.options) == {"no_faceup_draw", "special_rank_runs", "auto_skip"}
    assert all(o.default is False for o in SPEC.options.values())
    text = " ".join(SPEC.clarifications)
    assert "last play of a trick leads" in text and "draw pile is empty" in text
    assert (SPEC.min_players, SPEC.max_players) == (2, 2)


# ----- hidden information, undo, cloning -----------------------------------------------------


def test_determinize_keeps_known_cards_and_leaves_the_original():
    state = position([["3C", "8D"], ["4C", "9S"]], face_up="QH", pile=["2S", "6C", "7D", "7S"])
    state.apply("play:3C")
    state.apply("pass")
    state.apply("take:blind")  # seat 1 now holds the Queen, and everybody knows it
    before = (state.zones(), state.view(0))
    for seed in range(5):
        world = state.determinize(0, random.Random(seed))
        assert "QH" in world.hands[1] and world.view(0) == state.view(0)
        assert len(world.hands[1]) == 3
    assert (state.zones(), state.view(0)) == before


def test_only_draws_and_new_deals_reveal_a_hidden_card():
    state = position([["3C", "8D"], ["4C", "9S"]], face_up="QH", pile=["2S", "6C", "7D"])
    state.apply("play:3C")
    state.apply("pass")
    state.apply("take:faceup")
    assert [state.move_revealed_hidden(i) for i in range(3)] == [False, False, True]
    state.apply("play:8D")
    state.apply("play:9S")
    assert not state.move_revealed_hidden(-1)
    state = position([["5C"], ["4C", "9S"]])
    state.apply("play:5C")
    assert state.move_revealed_hidden(-1)  # the last card: a new deal
    state = position(
        [["3C", "8D"], ["4C", "9S"]], pile=["2S", "6C"], options={"no_faceup_draw": True}
    )
    state.apply("play:3C")
    state.apply("pass")
    assert state.move_revealed_hidden(-1)  # both drew blind


def test_undo_never_goes_back_past_a_new_deal_or_a_blind_draw():
    """The move that ends a round shows its player the next deal, and a pass under "no
    face-up draw" shows both players a blind card: the history marks both for undo."""
    state = position([["5C"], ["4C", "9S"]])
    state.apply("play:5C")
    assert state.move_revealed_hidden(0) and 0 in state.revealing_moves
    state = position(
        [["3C", "8D"], ["4C", "9S"]], pile=["2S", "6C"], options={"no_faceup_draw": True}
    )
    state.apply("play:3C")
    state.apply("pass")
    assert not state.move_revealed_hidden(0) and state.move_revealed_hidden(1)


def test_clone_is_independent():
    state = engine.new_game("crisps", 2, 11)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.history == [] and len(copy.history) == 1
    assert state.view(0) != copy.view(0)
    a, b = state.clone(), state.clone()
    assert a.rng.random() == b.rng.random()


# ----- the greedy bot ------------------------------------------------------------------------


def _choose(state, seat=None):
    seat = state.current_player if seat is None else seat
    return greedy(state.view(seat), state.legal_actions(), random.Random(0)).id


def test_plays_needed():
    assert plays_needed([]) == 0
    assert plays_needed(["5C", "5D", "6H", "6S", "9C"]) == 2
    assert plays_needed(["3C", "4D", "5H", "QS"]) == 2
    assert plays_needed(["9C", "10D", "JH"], runs_with_special=True) == 1
    assert plays_needed(["9C", "10D", "QH"]) == 3


def test_greedy_leads_long_and_low_keeps_queens():
    state = position([["3C", "4D", "5H", "6S", "QS", "9C", "9D"], ["7C", "8C"]])
    assert _choose(state) == "play:3C,4D,5H,6S"
    state = position([["3C", "QS", "QH", "9D"], ["7C", "8C", "10C", "10D", "2D"]])
    assert _choose(state) == "play:3C"


def test_greedy_passes_rather_than_break_a_pair_but_follows_cheaply():
    state = position(
        [["3C", "4C", "5C", "6C", "7C", "8C"], ["9C", "9D", "2D", "2H", "3S", "3H", "10C"]]
    )
    state.apply("play:8C")
    assert _choose(state) == "play:10C"  # a loose single is free to follow
    state = position([["3C", "4C", "5C", "6C", "7C", "8C"], ["9C", "9D", "9H", "2D", "5S"]])
    state.apply("play:8C")
    assert _choose(state) == "pass"  # any follow splits three 9s, the answer to a Queen
    state.hands[0] = ["3C"]  # ...unless the opponent is about to go out
    assert _choose(state) == "play:9C"


def test_greedy_takes_face_up_when_it_makes_a_combination():
    state = position(
        [["3C", "8D", "8H", "10C", "6D"], ["4C", "9S", "7H"]],
        face_up="10H",
        pile=["2S", "6C", "7D"],
    )
    state.apply("play:3C")
    state.apply("pass")
    assert _choose(state) == "take:faceup"
    state = position(
        [["3C", "8D", "8H", "10C", "6D"], ["4C", "9S", "7H"]], face_up="2C", pile=["2S", "6C", "7D"]
    )
    state.apply("play:3C")
    state.apply("pass")
    assert _choose(state) == "take:blind"


def test_greedy_beats_random():
    greedy_bot, random_bot = make("greedy"), make("random")
    wins = 0
    for seed in range(30):
        state = engine.new_game("crisps", 2, seed)
        rng = random.Random(seed + 500)
        seat = seed % 2
        while not state.is_over:
            p = state.current_player
            bot = greedy_bot if p == seat else random_bot
            state.apply(bot.choose(state, p, rng))
        wins += seat in state.result()["winners"]
    assert wins >= 22


# ----- plays that do the same thing are one play ---------------------------------------------


def test_plays_differing_only_in_suits_are_listed_once():
    runs = [f"{r}{s}" for r in ("5", "6", "7", "8", "9", "10") for s in ("C", "D", "H", "S")]
    state = position([runs + ["2C"], ["3C"]])
    five_to_ten = [i for i in ids(state) if i.startswith("play:5") and i.endswith(",10C")]
    five_to_ten = [i for i in five_to_ten if len({c[:-1] for c in i[5:].split(",")}) == 6]
    assert five_to_ten == ["play:5C,6C,7C,8C,9C,10C"]  # not 4**6 of them
    assert ids(state).count("play:5C,5D") == 1 and "play:5H,5S" not in ids(state)
    assert len(ids(state)) == len(set(ids(state)))


def test_a_card_the_opponent_saw_is_a_different_choice():
    state = position([["5C", "5D", "5H", "9S"], ["3C"]])
    state.known[0] = ["5H"]  # taken face up: the opponent knows it is there
    singles = [i for i in ids(state) if i.startswith("play:5") and "," not in i]
    pairs = [i for i in ids(state) if i.startswith("play:5") and i.count(",") == 1]
    assert singles == ["play:5C", "play:5H"]
    assert pairs == ["play:5C,5D", "play:5C,5H"]  # two unseen, or one unseen and the seen one


def test_an_equal_play_is_taken_with_the_very_cards_named():
    state = position([["3C", "3D", "7H"], ["2C", "4H", "4S"]])
    assert "play:3D" not in ids(state)
    taken = state.apply("play:3D")  # the same as the listed play:3C, with the 3 of diamonds
    assert taken.id == "play:3D" and state.history[-1].id == "play:3D"
    assert state.hands[0] == ["3C", "7H"] and state.to_beat == ("3D",)
    with pytest.raises(IllegalAction, match="a single 3 needs a single 3 or higher"):
        state.apply("play:2C")


def test_a_record_naming_other_copies_still_loads():
    state = engine.new_game("crisps", 2, 4)
    hand = state.hands[state.current_player]
    second = next(b for a, b in zip(hand, hand[1:], strict=False) if a[:-1] == b[:-1])
    assert f"play:{second}" not in ids(state)
    state.apply(f"play:{second}")
    replayed = engine.from_record(state.to_record())
    assert replayed.history[-1].id == f"play:{second}" and replayed.hands == state.hands


# ----- every refusal names its rule, judged against the play to beat ------------------------


@pytest.mark.parametrize(
    "to_beat,hand,attempt,reason",
    [
        (("10D", "10S"), ["2D", "10C", "4H"], "play:2D,10C", "a pair of 10s needs a pair of 10s"),
        (("10D", "10S"), ["2D", "10C", "4H"], "play:4H", "a pair of 10s needs a pair of 10s"),
        (("10D", "10S"), ["2D", "2H", "4H"], "play:2D,2H", "a pair of 10s needs a pair of 10s"),
        (("7C",), ["3D", "4H", "5S"], "play:3D,4H,5S", "a single 7 needs a single 7 or higher"),
        (("3C", "4D", "5H"), ["6D", "7H", "9S"], "play:6D,7H,9S", "without a gap"),
        (("QH",), ["2C", "3C", "9S"], "play:2C,3C", "or three or four of a kind"),
        (("5C", "5D", "5H"), ["QS", "9C"], "play:QS", "nothing ordinary can follow a special"),
        (None, ["2D", "10C"], "play:2D,10C", "two different ranks are not a combination"),
        (None, ["2D", "10C"], "pass", "you lead this trick"),
        (("7C",), ["3D"], "play:8H", "you do not hold 8"),
    ],
)
def test_refusal_table(to_beat, hand, attempt, reason):
    state = position([hand, ["2S"]])
    if to_beat is not None:
        state.to_beat = to_beat
        state.trick = [{"player": 1, "cards": list(to_beat), "combination": ""}]
    assert attempt not in ids(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(attempt)
    assert reason in info.value.message


# ----- the search's rollout loop ----------------------------------------------------------------

_OPTION_SETS = ({}, {"special_rank_runs": True}, {"auto_skip": True}, {"no_faceup_draw": True})


def _reference_greedy(view: dict, legal: list) -> object:
    """The greedy as it was defined, play costs by _play_cost and the blind card's average by
    _needed of count tuples: the policy's faster sums must choose what this chooses."""
    from engine.games.crisps import bot as crisps_bot

    rws = view["special_rank"] == "J"
    by_id = {a.id: a for a in legal}
    if view["phase"] == "draw":
        if len(legal) == 1:
            return legal[0]
        hand, face_up = view["hand"], view["face_up"]
        opponent = 1 - view["player"]
        seen = list(hand) + list(view["played"]) + [face_up] + list(view["known_cards"][opponent])
        unseen = [4] * 10
        for c in seen:
            unseen[crisps_bot._INDEX[c]] -= 1
        counts = list(crisps_bot._counts(hand))
        total = sum(max(n, 0) for n in unseen)
        blind = 0.0
        if total:
            for value, n in enumerate(unseen):
                if n > 0:
                    trial = list(counts)
                    trial[value] += 1
                    blind += n * crisps_bot._needed(tuple(trial), rws)
            blind /= total
        trial = list(counts)
        trial[crisps_bot._INDEX[face_up]] += 1
        bonus = 0.4 if crisps_bot._VALUES[face_up] == crisps_bot.SPECIAL_VALUE else 0.0
        if crisps_bot._needed(tuple(trial), rws) - bonus <= blind:
            return by_id["take:faceup"]
        return by_id["take:blind"]
    hand = view["hand"]
    leading = view["to_beat"] is None
    plays = [a for a in legal if a.cards]
    pass_action = by_id.get("pass")
    if not plays:
        return pass_action
    counts = crisps_bot._counts(hand)
    opponent_left = view["hand_sizes"][1 - view["player"]]
    best_cost, best_index = min(
        (crisps_bot._play_cost(counts, len(hand), a.cards, opponent_left, leading, rws), i)
        for i, a in enumerate(plays)
    )
    if leading or pass_action is None:
        return plays[best_index]
    now = crisps_bot._needed(counts, rws)
    if best_cost < now + 1.5 or opponent_left <= 2:
        return plays[best_index]
    return pass_action


def _rollout_positions(seed: int, options: dict) -> list[CrispsState]:
    """Every position of a match played by a mix of Normal and random moves."""
    state = engine.new_game("crisps", 2, seed, options)
    rng = random.Random(seed)
    out = []
    while not state.is_over and len(out) < 400:
        out.append(state.clone())
        legal = state.legal_actions()
        p = state.current_player
        if rng.random() < 0.3:
            state.apply(legal[rng.randrange(len(legal))])
        else:
            state.apply(greedy(state.view(p), legal, rng))
    return out


def test_the_greedy_chooses_what_its_definition_chooses():
    # The policy's play costs and blind-card average, worked out on hand codes, choose the
    # move the sums of _play_cost and _needed choose, at every position of many matches.
    checked = 0
    for options in _OPTION_SETS:
        for seed in range(6):
            for state in _rollout_positions(seed, options):
                legal = state.legal_actions()
                if len(legal) < 2:
                    continue
                view = state.view(state.current_player)
                assert greedy(view, legal, None) is _reference_greedy(view, legal)
                checked += 1
    assert checked > 1000


def test_the_plays_needed_by_a_code_are_those_of_its_counts(monkeypatch):
    # _needed_of_code sums the stretches of each half of the code once for that half and
    # looks up the stretch across the middle: the very counts _needed gives, for hands of
    # every shape (with no memo of whole codes to answer first), with and without runs
    # through the special rank.
    from engine.games.crisps import bot as crisps_bot

    monkeypatch.setattr(crisps_bot, "_NEEDED_BY_CODE", ({}, {}))
    rng = random.Random(5)
    across = 0
    for runs_with_special in (False, True):
        for _ in range(8_000):
            counts = tuple(rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(10))
            code = sum(n * crisps_bot._BASE[i] for i, n in enumerate(counts))
            assert crisps_bot._needed_of_code(code, runs_with_special) == crisps_bot._needed(
                counts, runs_with_special
            )
            across += bool(counts[4] and counts[5])
    assert across > 4_000


def test_the_listings_memo_gives_every_state_its_own_moves():
    # One memo of listings serves every state by what the listing reads: at every position
    # of matches under the four option sets (the memo warm from the earlier ones) the legal
    # moves are the ones made afresh, and a hand changed by hand lists its own moves.
    checked = 0
    for options in _OPTION_SETS:
        for seed in range(3):
            for state in _rollout_positions(seed, options):
                if state.is_over:
                    continue
                fresh = state._generate_actions(state.current_player)
                assert [a.id for a in state.legal_actions()] == [a.id for a in fresh]
                checked += 1
    assert checked > 1000
    state = engine.new_game("crisps", 2, 1)
    p = state.current_player
    before = ids(state)
    state.hands[p] = state.hands[p][1:]
    assert ids(state) == [a.id for a in state._generate_actions(p)] != before
    # A card of a pair seen by the opponent: the rank's seen and unseen cards differ.
    hand = state.hands[p]
    pair = next(c for c, d in zip(hand, hand[1:], strict=False) if c[:-1] == d[:-1])
    before = ids(state)
    state.known[p] = [pair]
    assert ids(state) == [a.id for a in state._generate_actions(p)] != before


def _former_determinize(state: CrispsState, player: int, rng: random.Random) -> tuple:
    """What determinize drew before it was a sampler: the world's seed, then the other
    hand's unseen cards, the removed cards and the draw pile as one sorted pool shuffled by
    engine.cards.shuffle and dealt in that order (the seen cards kept in that hand)."""
    from engine.cards import shuffle

    seed = rng.getrandbits(64)
    other = 1 - player
    hidden = list(state.hands[other])
    for c in state.known[other]:
        hidden.remove(c)
    unseen = sorted(hidden + state.removed + state.draw_pile)
    shuffle(unseen, rng)
    k, r = len(hidden), len(state.removed)
    hand = sort_cards(list(state.known[other]) + unseen[:k])
    return seed, hand, unseen[k : k + r], unseen[k + r :]


def test_the_sampler_deals_what_determinize_dealt():
    # Each world the search's sampler draws from an rng is the one the former determinize
    # drew from the same rng (the world's seed, the other hand, the removed cards, the draw
    # pile, the rng's state after), the rest a copy of the position.

    checked = with_known = 0
    for options in _OPTION_SETS:
        for state in _rollout_positions(2, options)[::2]:
            if state.is_over:
                continue
            player = state.current_player
            worlds = assert_sampled_as_before(
                state,
                _former_determinize,
                lambda world, p=player: (world.hands[1 - p], world.removed, world.draw_pile),
            )
            for world in worlds:
                assert world.hands[player] == state.hands[player]
                assert world.hands[player] is not state.hands[player]
            checked += 1
            with_known += bool(state.known[1 - player])
    assert checked > 100 and with_known > 10


def test_the_rollouts_play_is_the_greedys_from_the_listing():
    # The rollouts' play phase chooses among the shapes of the plays, from the hand's counts,
    # without listing them: at every play-phase position of many matches (with seen cards in
    # hands, follows of every kind, Queens, the four option sets) it is the greedy's choice
    # from the view and the legal plays, the same id, and its listing of shapes is the
    # listing's plays with the suits left out, in the same order.
    from engine.games.crisps import bot as crisps_bot

    checked = with_known = 0
    for options in _OPTION_SETS:
        for seed in range(8):
            for state in _rollout_positions(seed, options):
                if state.is_over or state.phase != "play":
                    continue
                p = state.current_player
                legal = state.legal_actions()
                chosen = crisps_bot._rollout_play(state, p, state.runs_with_special)
                assert chosen.id == greedy(state.policy_view(p), legal, None).id
                assert chosen in legal
                counts = crisps_bot._counts(state.hands[p])
                shapes = crisps_bot._play_shapes(
                    counts, state._to_beat_combo(), state.runs_with_special
                )
                listed = []
                for a in legal:
                    if a.cards:
                        key = crisps_bot._counts(a.cards)
                        if not listed or listed[-1] != key:
                            listed.append(key)
                assert [
                    tuple(s[8] if s[6] <= v + 2 < s[7] else 0 for v in range(10)) for s in shapes
                ] == listed
                checked += 1
                with_known += bool(state.known[p])
    assert checked > 2000 and with_known > 200


def _move_of(state: CrispsState, action) -> tuple:
    """A move as the round's rollout on rank counts traces it (see ``_round_rollout``)."""
    from engine.games.crisps import bot as crisps_bot

    p = action.player
    if action.cards:
        seen = [c for c in action.cards if c in state.known[p]]
        return (p, "play", crisps_bot._code(action.cards), crisps_bot._code(seen))
    return (p, action.id)


def test_the_greedy_rollout_takes_the_generic_loops_moves():
    # From sampled worlds of many positions: the game's rollout loop and the search's generic
    # one (the greedy from each seat's policy view) take the same moves and leave the same
    # scores and round summaries; the game's plays the round on rank counts (it traces the
    # moves it takes: the ranks each play takes and those of them the opponent saw) and
    # stops at the round's end without dealing the next round. Every other world has its
    # draw pile cut to 0 to 2 cards (the rest set aside), so that it runs out in the round.
    from engine.core import LazyRandom
    from engine.games.crisps import bot as crisps_bot

    checked = seen = auto = dry = 0
    for options in _OPTION_SETS:
        for seed in range(3):
            for i, state in enumerate(_rollout_positions(seed, options)):
                if i % 2 or state.is_over:
                    continue
                world = state.determinize(state.current_player, random.Random(i))
                if i % 4:
                    keep = len(world.draw_pile) - i % 3
                    world.removed += world.draw_pile[:keep]
                    world.draw_pile = world.draw_pile[keep:]
                round_end = world.rounds_played()
                fast, slow = world._copy(LazyRandom(i)), world._copy(LazyRandom(i))
                trace: list[tuple] = []
                steps = crisps_bot._round_rollout(fast, 400, trace)
                assert (
                    crisps_bot.greedy_rollout(world._copy(LazyRandom(i)), None, round_end, 400)
                    == steps
                )
                slow_steps = 0
                moves = []
                while not slow.is_over and slow.rounds_played() == round_end:
                    legal = slow.legal_actions()
                    actor = slow.current_player
                    action = greedy(slow.policy_view(actor), legal, None)
                    dry += slow.phase == "draw" and not slow.draw_pile
                    moves.append(_move_of(slow, action))
                    seen += any(c in slow.known[actor] for c in action.cards)
                    slow.push(action)
                    auto += any(e.get("auto") for e in slow.trick)
                    slow_steps += 1
                assert steps == slow_steps
                assert trace == moves
                assert fast.result() == slow.result()
                assert fast.is_over == slow.is_over and fast.winners == slow.winners
                assert fast.rounds_played() == round_end + 1 and fast.round_no == world.round_no
                if not slow.is_over:
                    assert slow.round_no == world.round_no + 1  # the generic loop dealt again
                # Cut short: as many steps as allowed, the moves the same, nothing scored.
                short = world._copy(LazyRandom(i))
                cut: list[tuple] = []
                assert crisps_bot._round_rollout(short, steps - 1, cut) == steps - 1
                assert cut == moves[: steps - 1] and short.result() == world.result()
                # No stop at the round's end: the loop plays on into the next rounds.
                free, free_slow = world._copy(LazyRandom(i)), world._copy(LazyRandom(i))
                steps = crisps_bot.greedy_rollout(free, None, -1, 60)
                for _ in range(steps):
                    free_slow.push(
                        greedy(
                            free_slow.policy_view(free_slow.current_player),
                            free_slow.legal_actions(),
                            None,
                        )
                    )
                assert [a.id for a in free.history] == [a.id for a in free_slow.history]
                assert steps == 60 or free.is_over
                checked += 1
    assert checked > 200 and seen > 50 and auto > 20 and dry > 20


def test_the_search_with_the_games_rollout_loop_searches_alike():
    # The whole search, with the game's rollout loop and with the generic one: the same
    # visits and values at the root, so the same choice.
    from engine.games.crisps import bot as crisps_bot

    positions = []
    for seed, skip in ((1, 0), (2, 9), (3, 30), (4, 17)):
        state = engine.new_game("crisps", 2, seed, _OPTION_SETS[seed % 4])
        for _ in range(skip):
            state.apply(greedy(state.view(state.current_player), state.legal_actions(), None))
        positions.append((state, seed))
    assert crisps_bot.SETTINGS.search is not None
    assert_loop_searches_alike(crisps_bot.SETTINGS.search, "greedy_rollout", positions, 60)


@pytest.mark.parametrize("options", [{}, RUNS, {"no_faceup_draw": True}])
def test_a_sampled_worlds_next_deal_is_the_plain_rngs(options):
    # A sampled world draws its chance from a LazyRandom, seeded at the deal so the shuffle
    # takes the plain Random's path: the deal must be the one random.Random(seed) makes,
    # from the deck sorted as shuffled() sorts it, and leave the rng where it leaves it.
    from engine.cards import shuffled
    from engine.core import LazyRandom

    for seed in range(6):
        state = engine.new_game("crisps", players=2, seed=seed, options=options)
        lazy = state._copy(LazyRandom(seed))
        plain = state._copy(random.Random(seed))
        lazy._deal(1)
        plain._deal(1)
        cards = shuffled(deck_for(options), random.Random(seed))
        for world in (lazy, plain):
            assert world.hands == [sort_cards(cards[:12]), sort_cards(cards[12:24])]
            assert world.removed == cards[24:28]
            rest = cards[28:]
            assert world.face_up == (None if options.get("no_faceup_draw") else rest[0])
            assert world.draw_pile == (rest if options.get("no_faceup_draw") else rest[1:])
        assert lazy.rng.getstate() == plain.rng.getstate()


@pytest.mark.parametrize("options", [{}, RUNS])
def test_a_lead_from_an_unseen_hand_lists_what_the_general_listing_does(options):
    # Leading from a hand none of whose cards the opponent saw (every new deal) takes a
    # path of its own; a seen card not in the hand sends the listing the general way,
    # which must list the same plays in the same order, at every hand size.
    from engine.games.crisps.state import _SEATS, _play_actions

    rng = random.Random(5)
    state = engine.new_game("crisps", players=2, seed=1, options=options)
    runs = bool(options)
    for i in range(400):
        world = state._copy(random.Random(rng.random()))
        world._deal(0)
        hand = world.hands[0][: rng.randrange(1, 13)] if i % 2 else world.hands[0]
        fast = _play_actions(_SEATS[0], hand, [], None, runs)
        general = _play_actions(_SEATS[0], hand, [world.hands[1][0]], None, runs)
        assert [a.id for a in fast] == [a.id for a in general]
        assert len(fast) == len({a.id for a in fast}) >= len({c[:-1] for c in hand})

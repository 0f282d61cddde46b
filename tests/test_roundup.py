"""Roundup: every rule and ruling as a scenario, the options, and the greedy opponent."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import engine
from engine.bots import GreedyBot, RandomBot
from engine.cards import SUITS
from engine.core import IllegalAction
from engine.games.roundup import bot as roundup_bot
from engine.games.roundup import rules
from engine.games.roundup.rules import NUMBER_CARDS, bid_points, named_cards
from engine.games.roundup.state import RoundupState
from tests.helpers import assert_loop_searches_alike, assert_refused, ids

# ----- helpers -----------------------------------------------------------------------------------


def scenario(
    players: int = 4,
    *,
    down: list[list[str]],
    up: list[list[str]] | None = None,
    stacks: dict[str, int] | None = None,
    bids: list[str | None] | None = None,
    turn: int = 0,
    target: int = 10,
    scores: list[int] | None = None,
) -> RoundupState:
    """A play-phase position built by hand (cards not named anywhere are simply absent)."""
    st = RoundupState(players, 0, {"target_score": target})
    st.face_down = [rules.sort_cards(h) for h in down]
    st.face_up = [list(h) for h in (up or [[] for _ in range(players)])]
    st.stacks = {s: 0 for s in SUITS} | (stacks or {})
    st.closed = [s for s in SUITS if st.stacks[s] == 10]
    st.bids = list(bids or [None] * players)
    st.cannot_bid = [False] * players
    st.pending, st.queue, st.tied = {}, [], []
    st.excluded = [set() for _ in range(players)]
    st.discard, st.played_this_turn = [], []
    st.phase, st.turn, st.first_player, st.first_empty = "play", turn, turn, None
    st.attack = st.last_effect = None
    st._legal = None
    if scores is not None:
        st.scores = list(scores)
    return st


def bid_state(players: int, seed: int = 0) -> RoundupState:
    st = engine.new_game("roundup", players=players, seed=seed)
    assert isinstance(st, RoundupState)
    return st


def finish_bids(st: RoundupState) -> None:
    while st.phase == "bid":
        st.apply(st.legal_actions()[0])


# ----- pure helpers, spec, deal ---------------------------------------------------------------


def test_bid_points_for_each_number_of_correct_guessers():
    assert [bid_points(k) for k in (1, 2, 3, 4, 5, 6)] == [3, 2, 1, 0, 0, 0]


def test_spec_registered_with_house_clarifications():
    spec = engine.GAMES["roundup"]
    assert (spec.min_players, spec.max_players, spec.default_players) == (2, 6, 4)
    text = " ".join(spec.clarifications)
    # Both "(engine rule)" rulings of RULINGS.md section 1 are shown as house clarifications.
    assert "lowest of these new cards" in text and "Aces" in text
    assert "another round" in text
    assert spec.options["target_score"].default == 10


@pytest.mark.parametrize(
    "players,sizes",
    [
        (2, [26, 26]),
        (3, [18, 17, 17]),
        (4, [13] * 4),
        (5, [11, 11, 10, 10, 10]),
        (6, [9, 9, 9, 9, 8, 8]),
    ],
)
def test_whole_deck_is_dealt_from_the_dealers_left(players, sizes):
    st = bid_state(players, seed=11)
    from_left = [(st.dealer + 1 + i) % players for i in range(players)]
    assert [len(st.face_down[p]) for p in from_left] == sizes
    assert Counter(c for h in st.face_down for c in h) == Counter(st.deck())
    assert st.current_player == next(p for p in from_left if not st.cannot_bid[p])


# ----- bids --------------------------------------------------------------------------------------


def test_bids_are_secret_until_everyone_has_bid():
    st = bid_state(4, seed=3)
    first = st.current_player
    bid = next(a for a in st.legal_actions())
    assert all(a.cards[0] in NUMBER_CARDS for a in st.legal_actions())
    st.apply(bid)
    assert not st.move_revealed_hidden(-1)  # nothing is shown until the last bid
    card = bid.cards[0]
    assert st.view(first)["my_bid"] == card and st.view(first)["my_suit"] == card[-1]
    for viewer in [p for p in range(4) if p != first] + [None]:
        v = st.view(viewer)
        assert card not in json.dumps(v)
        assert v["bid_placed"][first] and v["bids"] == [None] * 4
    assert st.public_label(st.history[-1], (first + 1) % 4) == "Place a secret bid"
    finish_bids(st)
    v = st.view(None)
    assert v["bids"][first] == card and card in v["face_up"][first]
    assert all(b is not None for b in v["bids"])
    assert st.move_revealed_hidden(-1)


def test_unknown_ids_get_the_generic_refusal():
    st = bid_state(3)
    assert st.why_illegal("fly:away") is None
    assert "not a legal action" in assert_refused(st, "fly:away")
    assert "is not a card" in assert_refused(st, "bid:ZZ")


def test_bidding_needs_a_number_card():
    st = bid_state(4, seed=3)
    face = next(c for c in st.face_down[st.current_player] if c not in NUMBER_CARDS)
    assert "number card" in assert_refused(st, f"bid:{face}")
    other = next(c for c in NUMBER_CARDS if c not in st.face_down[st.current_player])
    assert "not in your face-down hand" in assert_refused(st, f"bid:{other}")
    assert "bids first" in assert_refused(st, "pass")


def test_player_without_number_cards_cannot_bid_nor_win_bid_points():
    faces = [c for c in rules.DECK if c not in NUMBER_CARDS]
    numbers = [c for c in rules.DECK if c in NUMBER_CARDS]
    st = scenario(6, down=[faces[:9]] + [numbers[8 * i : 8 * i + 8] for i in range(5)])
    st.phase, st.dealer = "bid", 5
    # The same bookkeeping a real deal does (RoundupState._deal) for this hand-made deal.
    st.queue = [p for p in st._from_left() if any(c in NUMBER_CARDS for c in st.face_down[p])]
    st.cannot_bid = [p not in st.queue for p in range(6)]
    assert st.queue == [1, 2, 3, 4, 5]
    st2 = bid_state(6, seed=1)
    st2.face_down = [list(h) for h in st.face_down]
    st2.dealer = 5
    st2.queue = list(st.queue)
    st2.cannot_bid = list(st.cannot_bid)
    finish_bids(st2)
    assert st2.bids[0] is None and st2.phase in ("play", "tiebreak")
    # Scoring only counts real bids.
    st3 = scenario(
        4,
        down=[[], [], [], []],
        up=[["10C"], [], [], []],
        stacks={"S": 10, "H": 10, "D": 10, "C": 9},
        bids=[None, "2C", "3S", "4H"],
    )
    st3.apply("play:10C")
    assert st3.rounds[-1]["correct"] == [1] and st3.rounds[-1]["points"] == [1, 3, 0, 0]


# ----- first player ------------------------------------------------------------------------------


def test_lowest_bid_goes_first_suits_do_not_matter():
    st = scenario(3, down=[["9S"], ["9H"], ["9D"]], bids=[None] * 3)
    st.phase, st.dealer = "bid", 2
    st.pending = {0: "5S", 1: "3H", 2: "7D"}
    st.queue = []
    st._reveal_bids()
    assert st.phase == "play" and st.current_player == 1 and st.first_player == 1


def test_two_tied_aces_break_the_tie_with_newly_turned_cards():
    st = scenario(3, down=[["4S", "9S"], ["2H", "8H"], ["5D"]], bids=[None] * 3)
    st.phase, st.dealer = "bid", 2
    st.pending = {0: "AS", 1: "AH", 2: "7D"}
    st._reveal_bids()
    assert st.phase == "tiebreak" and st.tied == [0, 1] and st.current_player == 0
    assert ids(st) == ["tiebreak:4S", "tiebreak:9S"]
    assert "tie for first player" in assert_refused(st, "play:AS")
    st.apply("tiebreak:4S")
    # Seat 1 answers without seeing seat 0's card.
    assert "4S" not in json.dumps(st.view(1)) and st.view(1)["tiebreak"]["placed"] == [True, False]
    assert st.view(0)["tiebreak"]["mine"] == "4S"
    st.apply("tiebreak:8H")
    assert st.phase == "play" and st.current_player == 0
    assert st.face_up[0] == ["AS", "4S"] and st.face_up[1] == ["AH", "8H"]
    assert st.view(None)["tiebreak"]["history"] == [[[0, "4S"], [1, "8H"]]]


def test_tie_break_repeats_while_still_tied():
    st = scenario(3, down=[["3S", "6S"], ["3H", "2H"], []], bids=[None] * 3)
    st.phase, st.dealer = "bid", 2
    st.pending = {0: "AS", 1: "AH", 2: "AD"}
    st._reveal_bids()
    # Seat 2 has nothing face-down: it drops out at once.
    assert st.tied == [0, 1] and 2 not in st.queue
    st.apply("tiebreak:3S")
    st.apply("tiebreak:3H")
    assert st.phase == "tiebreak" and st.tied == [0, 1]
    st.apply("tiebreak:6S")
    st.apply("tiebreak:2H")
    assert st.phase == "play" and st.first_player == 1


def test_tied_player_without_face_down_number_card_loses_and_nobody_nearest_dealer():
    st = scenario(3, down=[["KS"], ["5H"], ["QD"]], bids=[None] * 3)
    st.phase, st.dealer = "bid", 0
    st.pending = {0: "2S", 1: "2H", 2: "2D"}
    st._reveal_bids()
    assert st.phase == "play" and st.first_player == 1  # the only one able, no card turned
    assert st.face_up[1] == ["2H"]
    st = scenario(3, down=[["KS"], ["JH"], ["QD"]], bids=[None] * 3)
    st.phase, st.dealer = "bid", 1
    st.pending = {0: "2S", 1: "2H", 2: "2D"}
    st._reveal_bids()
    assert st.first_player == 2  # nearest the dealer's (seat 1) left
    assert st.view(0)["known_missing"][1] == rules.sort_cards(list(NUMBER_CARDS))


# ----- turns -------------------------------------------------------------------------------------


def test_face_up_play_is_mandatory():
    st = scenario(
        2, down=[["5H", "JS", "3D"], ["9C"]], up=[["4H", "8C"], ["QC"]], stacks={"H": 3, "D": 2}
    )
    assert ids(st) == ["play:4H"]
    assert assert_refused(st, "play:3D") == "you must play a face-up card when you can"
    assert assert_refused(st, "pass:3D") == "you must play a face-up card when you can"
    assert assert_refused(st, "jack:JS:1") == "you must play a face-up card when you can"
    assert "needs" in assert_refused(st, "play:8C")
    assert assert_refused(st, "end") == "you can only end your turn after playing a face-up card"


def test_several_face_up_cards_in_one_turn_then_end_or_stop_by_itself():
    st = scenario(
        2, down=[["AD", "JS"], ["9C"]], up=[["4H", "AS", "2S", "7D"], ["QC"]], stacks={"H": 3}
    )
    assert ids(st) == ["play:4H", "play:AS"]
    assert [a.label for a in st.legal_actions()] == ["Play 4♥", "Play A♠"]
    st.apply("play:AS")
    assert not st.move_revealed_hidden(-1)
    assert st.current_player == 0 and ids(st) == ["play:4H", "play:2S", "end"]
    assert "after playing face-up" in assert_refused(st, "play:AD")
    assert "play another one or end" in assert_refused(st, "pass:AD")
    st.apply("play:2S")
    st.apply("end")
    assert st.current_player == 1 and st.stacks["S"] == 2 and st.face_up[0] == ["4H", "7D"]
    st = scenario(2, down=[["5H"], ["9C"]], up=[["4H"], ["QC"]], stacks={"H": 3})
    st.apply("play:4H")
    assert st.current_player == 1  # nothing left to play face-up: the turn ended


def test_face_down_play_only_without_face_up_play_and_one_card():
    st = scenario(2, down=[["5H", "6H", "2D"], ["9C"]], up=[["8C"], ["QC"]], stacks={"H": 4})
    legal = ids(st)
    assert "play:5H" in legal and "play:6H" not in legal and "play:2D" not in legal
    assert "needs 5♥" in assert_refused(st, "play:6H")
    st.apply("play:5H")
    assert st.current_player == 1 and st.stacks["H"] == 5 and st.face_down[0] == ["6H", "2D"]
    assert st.move_revealed_hidden(-1)


def test_players_without_cards_are_skipped():
    st = scenario(3, down=[["9S"], [], ["QD"]], up=[["AH"], [], []])
    st.apply("play:AH")
    assert st.current_player == 2


# ----- face cards --------------------------------------------------------------------------------


def test_jack_turns_up_a_random_card_of_the_target():
    seen = set()
    for seed in range(30):
        st = scenario(3, down=[["JS", "9D"], ["5H", "7C", "8S"], ["9C"]], up=[["8C"], [], []])
        st.rng = random.Random(seed)
        st.apply("jack:JS:1")
        assert "JS" in st.discard and len(st.face_up[1]) == 1 and len(st.face_down[1]) == 2
        seen.add(st.face_up[1][0])
        assert st.current_player == 1 and st.view(None)["last_effect"]["result"] == "face_up"
    assert seen == {"5H", "7C", "8S"}  # chance, from the state's own RNG


def test_jack_that_picks_a_face_card_discards_it():
    st = scenario(3, down=[["JS", "9D"], ["KH"], ["9C"]])
    st.apply("jack:JS:1")
    assert st.discard == ["JS", "KH"] and st.face_up[1] == [] and st.face_down[1] == []
    assert st.first_empty == 1  # the Jack emptied seat 1's hands


def test_face_card_on_an_empty_face_down_hand_has_no_effect():
    st = scenario(3, down=[["QS", "9D"], [], ["9C"]], up=[[], ["3C"], []])
    assert "queen:QS:1:H" in ids(st)
    st.apply("queen:QS:1:H")
    assert st.face_up[1] == ["3C"] and st.discard == ["QS"] and st.current_player == 1


def test_queen_target_chooses_a_card_of_the_named_suit_or_a_face_card_of_it():
    st = scenario(3, down=[["QS", "9D"], ["5H", "KH", "2H", "7C"], ["9C"]])
    assert "choose another player" in assert_refused(st, "queen:QS:0:H")
    assert "names a suit" in assert_refused(st, "queen:QS:1:X")
    st.apply("queen:QS:1:H")
    assert st.phase == "answer" and st.current_player == 1 and st.view(None)["turn"] == 0
    assert ids(st) == ["reveal:2H", "reveal:5H", "discard:KH"]
    assert "named hearts" in assert_refused(st, "reveal:7C")
    assert assert_refused(st, "pass") == "{seat1} must first answer the Queen"
    st.apply("discard:KH")
    assert st.discard == ["QS", "KH"] and st.current_player == 1 and st.phase == "play"
    st = scenario(3, down=[["QS", "9D"], ["5H", "7C"], ["9C"]])
    st.apply("queen:QS:1:H")
    st.apply("reveal:5H")
    assert st.face_up[1] == ["5H"] and st.view(2)["last_effect"]["moved"] == "5H"


def test_queen_or_king_finding_nothing_does_nothing_and_is_remembered():
    st = scenario(3, down=[["QS", "KD", "9D"], ["5H", "7C"], ["9C", "2S"]])
    st.apply("queen:QS:1:D")
    assert st.current_player == 1 and st.face_down[1] == ["5H", "7C"]
    assert "9D" in st.view(2)["known_missing"][1]
    st.turn = 0
    st.apply("king:KD:2:4")
    assert st.current_player == 1 and "4H" in st.view(1)["known_missing"][2]
    # A re-sampled world never contradicts what became public.
    for seed in range(20):
        world = st.determinize(0, random.Random(seed))
        assert not any(c[-1] == "D" for c in world.face_down[1])
        assert not any(c.startswith("4") for c in world.face_down[2])


def test_king_names_a_number_and_target_chooses_which_card():
    st = scenario(3, down=[["KC", "9D"], ["7H", "7S", "8C"], ["9C"]])
    assert "names a number" in assert_refused(st, "king:KC:1:J")
    st.apply("king:KC:1:7")
    assert ids(st) == ["reveal:7S", "reveal:7H"]
    st.apply("reveal:7H")
    assert st.face_up[1] == ["7H"] and st.current_player == 1


# ----- passing -----------------------------------------------------------------------------------


def test_pass_penalty_turns_up_a_number_card_of_choice():
    st = scenario(2, down=[["9H", "3D", "JS"], ["9C"]], up=[["8C"], ["QC"]], stacks={"D": 1})
    legal = ids(st)
    assert "pass:9H" in legal and "pass:JS" not in legal and "pass" not in legal
    assert "turns one up" in assert_refused(st, "pass:JS")
    assert "passing costs a card" in assert_refused(st, "pass")
    st.apply("pass:9H")
    assert st.face_up[0] == ["8C", "9H"] and st.current_player == 1


def test_pass_with_only_face_cards_discards_one():
    st = scenario(2, down=[["JS", "QH"], ["9C"]], up=[["8C"], ["QC"]])
    assert [a for a in ids(st) if a.startswith("pass")] == ["pass:JS", "pass:QH"]
    st.apply("pass:QH")
    assert st.discard == ["QH"] and st.face_down[0] == ["JS"] and st.face_up[0] == ["8C"]


def test_pass_with_empty_face_down_hand_costs_nothing():
    st = scenario(2, down=[[], ["9C"]], up=[["8C"], ["QC"]])
    assert ids(st) == ["pass"]
    st.apply("pass")
    assert st.face_up[0] == ["8C"] and st.current_player == 1 and not st.move_revealed_hidden(-1)


# ----- round end, scoring, match ------------------------------------------------------------------


@pytest.mark.parametrize(
    "bids,expected",
    [
        (["2C", "3S", "4H", "5D"], [3, 0, 0, 0]),
        (["2C", "3C", "4H", "5D"], [2, 2, 0, 0]),
        (["2C", "3C", "4C", "5D"], [1, 1, 1, 0]),
        (["2C", "3C", "4C", "5C"], [0, 0, 0, 0]),
    ],
)
def test_round_ends_when_the_fourth_stack_closes_and_bid_points_are_shared(bids, expected):
    st = scenario(
        4,
        down=[["KS"], ["QS"], ["JS"], ["KH"]],
        up=[["10C"], [], [], []],
        stacks={"S": 10, "H": 10, "D": 10, "C": 9},
        bids=bids,
    )
    st.dealer = 3
    st.apply("play:10C")
    summary = st.view(None)["last_round"]
    assert summary["closing_suit"] == "C" and summary["points"] == expected
    assert st.scores == expected and summary["first_empty"] is None
    assert st.phase == "bid" and st.round_no == 2 and st.dealer == 0  # new deal, dealer moved on
    assert st.move_revealed_hidden(-1)


def test_first_empty_hand_scores_one_point_only_for_the_first():
    st = scenario(
        3,
        down=[[], ["7D"], ["KS"]],
        up=[["5H"], [], []],
        stacks={"H": 4, "D": 6},
        bids=["9H", "8D", "6C"],
    )
    st.apply("play:5H")
    assert st.first_empty == 0
    st.apply("play:7D")
    assert st.first_empty == 0  # seat 1 emptied too, but second


def test_card_closing_the_last_stack_can_also_win_the_empty_hand_point():
    st = scenario(
        3,
        down=[[], ["KS"], ["QS"]],
        up=[["10C"], [], []],
        stacks={"S": 10, "H": 10, "D": 10, "C": 9},
        bids=["9C", "8D", "6H"],
    )
    st.apply("play:10C")
    assert st.rounds[-1]["points"] == [4, 0, 0] and st.rounds[-1]["first_empty"] == 0


def test_match_ends_with_a_sole_leader_at_the_target():
    st = scenario(
        3,
        down=[["KS"], ["QS"], ["JS"]],
        up=[["10C"], [], []],
        stacks={"S": 10, "H": 10, "D": 10, "C": 9},
        bids=["9C", "8D", "6H"],
        scores=[8, 9, 2],
    )
    st.apply("play:10C")
    assert st.is_over and st.current_player is None and st.legal_actions() == []
    assert st.result()["winners"] == [0] and st.result()["scores"] == [11, 9, 2]
    assert st.view(1)["phase"] == "over" and st.view(1)["winners"] == [0]
    with pytest.raises(IllegalAction, match="match is over"):
        st.apply("end")


def test_tie_at_the_top_plays_another_round():
    st = scenario(
        3,
        down=[["KS"], ["QS"], ["JS"]],
        up=[["10C"], [], []],
        stacks={"S": 10, "H": 10, "D": 10, "C": 9},
        bids=["9C", "8D", "6H"],
        scores=[7, 10, 2],
    )
    st.apply("play:10C")
    assert st.scores == [10, 10, 2] and not st.is_over and st.result()["winners"] == []
    assert st.phase == "bid" and st.round_no == 2


def test_target_score_option_shortens_the_match():
    st = scenario(
        3,
        down=[["KS"], ["QS"], ["JS"]],
        up=[["10C"], [], []],
        target=5,
        stacks={"S": 10, "H": 10, "D": 10, "C": 9},
        bids=["9C", "8D", "6H"],
        scores=[2, 0, 0],
    )
    st.apply("play:10C")
    assert st.is_over and st.result()["winners"] == [0]
    assert engine.new_game("roundup", 4, 1, {"target_score": 5}).view(0)["target_score"] == 5


@pytest.mark.parametrize("players", [2, 6])
def test_random_matches_at_the_extreme_player_counts_finish_and_replay(players):
    st = bid_state(players, seed=5)
    rng = random.Random(5)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
    res = st.result()
    assert max(res["scores"]) >= 10 and len(res["winners"]) == 1
    assert res["scores"].count(max(res["scores"])) == 1
    assert [r["round"] for r in res["rounds"]] == list(range(1, len(res["rounds"]) + 1))
    dealers = [r["dealer"] for r in res["rounds"]]
    assert all((b - a) % players == 1 for a, b in zip(dealers, dealers[1:], strict=False))
    assert engine.from_record(st.to_record()).result() == res


# ----- hidden information ------------------------------------------------------------------------


def test_views_hide_face_down_hands_and_determinize_keeps_the_secret_bid_a_number_card():
    st = bid_state(3, seed=9)
    first = st.current_player
    st.apply(next(a for a in st.legal_actions()))
    other = (first + 1) % 3
    spectator = st.view(None)
    assert spectator["face_down"] is None
    for p in range(3):
        # "needed" names the next card of each stack: public, wherever that card lies.
        view = json.dumps({k: v for k, v in st.view(p).items() if k != "needed"})
        for q in range(3):
            if q != p:
                assert not any(f'"{c}"' in view for c in st.face_down[q])
    for seed in range(10):
        world = st.determinize(other, random.Random(seed))
        assert world.pending[first] in NUMBER_CARDS
        assert world.view(other) == st.view(other)
        assert world.face_down[other] == st.face_down[other]


def test_determinize_gives_every_seat_still_to_bid_a_number_card():
    """A seat in the bidding queue holds a number card (a seat dealt none is known to have
    none and is skipped), so every sampled world must give it one, or the world would have a
    seat to move with no legal move. Here everyone knows seat 3 holds no number card but one
    (as a Queen or King that found nothing would show), so a plain deal would often give it
    only face cards."""
    st = bid_state(6, seed=5)
    while len(st.pending) < 3:
        st.apply(st.legal_actions()[0])
    me = st.current_player
    assert me == 2 and st.queue == [2, 3, 4]
    others = [o for o in range(6) if o != me]
    pool = [c for o in others for c in st.face_down[o]]
    faces = [c for c in pool if c not in NUMBER_CARDS]
    numbers = [c for c in pool if c in NUMBER_CARDS]
    kept = numbers.pop()
    sizes = {o: len(st.face_down[o]) for o in others}
    st.face_down[3] = [kept] + faces[: sizes[3] - 1]
    rest = faces[sizes[3] - 1 :] + numbers
    for o in (4, 5, 0, 1):
        st.face_down[o], rest = rest[: sizes[o]], rest[sizes[o] :]
    assert any(c in NUMBER_CARDS for c in st.face_down[4])
    st.excluded[3] = set(NUMBER_CARDS) - {kept}
    st._legal = None
    for seed in range(60):
        world = st.determinize(me, random.Random(seed))
        assert kept in world.face_down[3]
        assert world.view(me) == st.view(me)
        while world.phase == "bid":
            world.apply(world.legal_actions()[0])


def answer_position(players: int) -> RoundupState:
    """The first position of a seeded random match where a Queen or King waits for its
    target's answer and the target holds just one card it names, with many hidden cards."""
    for seed in range(200):
        st = bid_state(players, seed=seed)
        rng = random.Random(seed)
        while not st.is_over:
            if st.phase == "answer":
                attack = st.attack
                assert attack is not None
                named = named_cards(attack["kind"], attack["named"])
                if sum(c in named for c in st.face_down[attack["target"]]) == 1:
                    return st
            st.apply(rng.choice(st.legal_actions()))
    raise AssertionError("no such answer in 200 matches")


def test_determinize_gives_the_target_of_an_attack_a_card_it_names():
    """The target of a Queen or King holds a face-down card the attack names (everyone saw
    the attack stop for its answer, where finding nothing ends the turn), so every world
    another seat samples must give it one, or the seat to move would have no legal move."""
    st = answer_position(4)
    attack = st.attack
    assert attack is not None
    target = attack["target"]
    named = named_cards(attack["kind"], attack["named"])
    for viewer in (o for o in range(4) if o != target):
        for seed in range(40):
            world = st.determinize(viewer, random.Random(seed))
            assert any(c in named for c in world.face_down[target]), (viewer, seed)
            assert world.view(viewer) == st.view(viewer)
            assert world.legal_actions(), "the target has an answer"


def test_clone_is_independent():
    st = bid_state(4, seed=2)
    twin = st.clone()
    twin.apply(twin.legal_actions()[0])
    assert st.history == [] and len(twin.history) == 1
    assert st.face_down != twin.face_down and st.queue != twin.queue
    assert st.rng.random() == twin.rng.random()


# ----- the greedy opponent -----------------------------------------------------------------------


def test_greedy_bids_on_the_suit_whose_low_cards_it_holds():
    view = {"phase": "bid", "current_player": 0, "face_down": ["AS", "3S", "10S", "9H", "2D"]}
    legal = [engine.Action(f"bid:{c}", 0, c, (c,)) for c in view["face_down"]]
    assert roundup_bot.greedy(view, legal, random.Random(0)).id == "bid:10S"


def test_greedy_keeps_its_suit_and_plays_the_others():
    st = scenario(2, down=[["3H"], ["9C"]], up=[["AH", "AS", "2S"], ["QC"]], bids=["5H", "9C"])
    choice = roundup_bot.greedy(st.view(0), st.legal_actions(), random.Random(0))
    assert choice.id == "play:AS"
    st.apply(choice)
    st.apply(roundup_bot.greedy(st.view(0), st.legal_actions(), random.Random(0)))
    assert st.stacks == {"S": 2, "H": 0, "D": 0, "C": 0}
    assert roundup_bot.greedy(st.view(0), st.legal_actions(), random.Random(0)).id == "end"


def test_greedy_parries_a_queen_on_its_suit_with_a_face_card():
    st = scenario(2, down=[["QS", "9D"], ["5H", "KH", "2H"]], bids=["4D", "7H"])
    st.apply("queen:QS:1:H")
    assert roundup_bot.greedy(st.view(1), st.legal_actions(), random.Random(0)).id == "discard:KH"


def test_the_spoiler_keeps_its_highest_card_of_a_suit_nobody_bid_on():
    # Hearts and spades are bid; the 10 of diamonds is the card that keeps diamonds open.
    st = scenario(
        2, down=[["10D", "3C", "7H"], ["AC", "2C"]], stacks={"D": 9, "C": 2}, bids=["5H", "9S"]
    )
    view = st.view(0)
    assert roundup_bot.held_card(view) == "10D"
    legal = st.legal_actions()
    assert {"play:10D", "play:3C"} <= {a.id for a in legal}
    assert roundup_bot.greedy(view, legal, random.Random(0)).id == "play:10D"
    assert roundup_bot.spoiler(view, legal, random.Random(0)).id == "play:3C"
    # With nothing else to play it pays the pass with its own suit before the held card.
    st = scenario(2, down=[["10D", "7H"], ["AC"]], stacks={"D": 9}, bids=["5H", "9S"])
    assert roundup_bot.spoiler(st.view(0), st.legal_actions(), random.Random(0)).id == "pass:7H"
    # Its last card is played: that empties the hand.
    st = scenario(2, down=[["10D"], ["AC"]], stacks={"D": 9}, bids=["5H", "9S"])
    assert roundup_bot.spoiler(st.view(0), st.legal_actions(), random.Random(0)).id == "play:10D"
    # An ally on its suit: no spoiling, it plays as Normal does.
    st = scenario(2, down=[["10D", "3C", "7H"], ["AC"]], stacks={"D": 9, "C": 2}, bids=["5H", "9H"])
    assert roundup_bot.held_card(st.view(0)) is None
    assert roundup_bot.spoiler(st.view(0), st.legal_actions(), random.Random(0)).id == "play:10D"


def _varied_positions(players: int, seed: int, rounds: int = 2):
    """The states of a match whose seats play the greedy move, or one in three a random one
    (to reach positions the greedy alone never makes), as far as ``rounds`` rounds."""
    state = engine.new_game("roundup", players=players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over and state.rounds_played() < rounds:
        yield state
        legal = state.legal_actions()
        if rng.random() < 0.3:
            choice = legal[rng.randrange(len(legal))]
        else:
            choice = roundup_bot.greedy(state.view(state.current_player), legal, None)
        state.apply(choice)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_rollouts_play_step_is_the_greedy_move(players):
    # The rollouts read the greedy's play-phase move off the world; it must be the move the
    # greedy makes from the seat's policy view, the very object of the listing.
    from engine.games.roundup.state import _SEATS

    checked = attacks = 0
    for seed in range(3):
        for state in _varied_positions(players, seed):
            if state.phase != "play":
                continue
            legal = state.legal_actions()
            want = (
                legal[0]
                if len(legal) == 1
                else roundup_bot.greedy(state.policy_view(state.turn), legal, None)
            )
            got = roundup_bot._rollout_play(state, _SEATS[players][state.turn])
            assert got is want, (seed, want.id, got.id)
            checked += 1
            attacks += want.kind in ("jack", "queen", "king")
    assert checked > 300 and attacks > 10


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_rollouts_attack_is_the_greedys_best_attack(players):
    # Wherever a seat in play may play a face card, the rollouts' attack (worked out target by
    # target for the kinds held, without the values' keys) is _best_attack's from the
    # seat's policy view and legal moves: the same move, or None alike.
    from engine.games.roundup.rules import NUMBER_CARDS
    from engine.games.roundup.state import _SEATS

    checked = found = 0
    for seed in range(4):
        for state in _varied_positions(players, seed, rounds=2):
            if state.phase != "play":
                continue
            p = state.turn
            down = state.face_down[p]
            faces = [c for c in down if c not in NUMBER_CARDS]
            if not faces:
                continue
            legal = state.legal_actions()
            if not any(a.kind in ("jack", "queen", "king") for a in legal):
                continue  # a card to play first
            numbers = [c for c in down if c in NUMBER_CARDS]
            bid = state.bids[p]
            want = roundup_bot._best_attack(state.policy_view(p), legal)
            got = roundup_bot._rollout_attack(
                state, _SEATS[players][p], p, bid[-1] if bid else None, faces, numbers
            )
            assert got is want, (seed, want and want.id, got and got.id)
            checked += 1
            found += want is not None
    assert checked > 100 and found > 50


def test_the_rollouts_attack_ties_where_the_greedy_does_after_the_own_suit_cost():
    # A position a search's rollout met: a Queen of our suit (Clubs, which a 2C in hand
    # parries with) naming Hearts is worth 1.6666666666666665 on seat 0 (a rival of Hearts)
    # and 1.6666666666666667 on seat 3. Less the 0.4 a face card of our suit pays, the two
    # are one float, and the greedy keeps the first listed, seat 0; the rollouts once took
    # the best value first and then took 0.4 off, which chose seat 3.
    from engine.checks import check_conservation
    from engine.games.roundup.state import _SEATS

    state = engine.new_game("roundup", players=4, seed=7)
    state.face_down = [
        ["9C", "5H"],
        ["2C", "QC", "JC"],
        ["9H", "2D"],
        ["7H", "4D", "6D", "8D", "4C"],
    ]
    state.face_up = [
        ["8H", "6H", "10H", "3D", "6C", "8C"],
        ["10C", "7C"],
        ["10D", "5D", "7D", "5C"],
        ["9D", "3C"],
    ]
    state.stacks = {"S": 10, "H": 4, "D": 1, "C": 1}
    state.closed = ["S"]
    state.discard = ["QD", "QH", "JD", "KH", "JS", "QS", "KD", "KS", "KC", "JH"]
    state.bids = ["8H", "10C", "10D", "9D"]
    state.excluded = [set(), set(), set(), {"AS", "2S", "AH", "2H", "AD", "2D", "AC", "2C"}]
    state.phase, state.turn, state.played_this_turn, state.attack = "play", 1, [], None
    state.pending, state.queue, state.first_empty, state._legal = {}, [], None, None
    state._missing_sorted = None
    check_conservation(state)  # every card of the deck in one place
    values = roundup_bot._attack_values(state.policy_view(1))
    assert values["queen:0:H"] < values["queen:3:H"]
    assert values["queen:0:H"] - 0.4 == values["queen:3:H"] - 0.4
    legal = state.legal_actions()
    want = roundup_bot._best_attack(state.policy_view(1), legal)
    assert want is not None and want.id == "queen:QC:0:H"
    got = roundup_bot._rollout_attack(state, _SEATS[4][1], 1, "C", ["QC", "JC"], ["2C"])
    assert got is want
    assert roundup_bot._rollout_play(state, _SEATS[4][1]) is want


def test_the_greedy_rollout_takes_the_generic_loops_moves():
    # From sampled worlds of a few positions: the game's rollout loop and the search's
    # generic one (the greedy from each seat's policy view) take the same moves and leave
    # the same scores; the game's stops at the round's end without dealing the next round.
    from engine.core import LazyRandom

    for seed in range(4):
        for i, state in enumerate(_varied_positions(4, seed, rounds=1)):
            if i % 25:
                continue
            world = state.determinize(state.current_player, random.Random(i))
            fast, slow = world._copy(LazyRandom(i)), world._copy(LazyRandom(i))
            start = len(fast.history)
            steps = roundup_bot.greedy_rollout(fast, None, 0, 400)
            while not slow.is_over and slow.rounds_played() == 0:
                legal = slow.legal_actions()
                actor = slow.current_player
                slow.push(roundup_bot.greedy(slow.policy_view(actor), legal, None))
            assert steps == len(fast.history) - start
            assert [a.id for a in fast.history] == [a.id for a in slow.history]
            assert fast.result()["scores"] == slow.result()["scores"]
            assert fast.rounds_played() == 1 and fast.round_no == world.round_no
            if not slow.is_over:
                assert slow.round_no == world.round_no + 1  # the generic loop dealt again


def test_the_search_with_the_games_rollout_loop_searches_alike():
    # The whole search, with the game's rollout loop and with the generic one: the same
    # visits and values at the root, so the same choice.
    positions = []
    for seed, skip in ((1, 0), (2, 9), (3, 30)):
        state = engine.new_game("roundup", players=4, seed=seed)
        for _ in range(skip):
            state.apply(
                roundup_bot.greedy(state.view(state.current_player), state.legal_actions(), None)
            )
        positions.append((state, seed))
    assert roundup_bot.SETTINGS.search is not None
    assert_loop_searches_alike(roundup_bot.SETTINGS.search, "greedy_rollout", positions, 40)


def _rollout_snapshot(world: RoundupState):
    """What a rollout's step changes and the rest of it reads, and the evaluator's part."""
    return (
        world.phase,
        world.turn,
        world.attack,
        [list(h) for h in world.face_up],
        [list(h) for h in world.face_down],
        dict(world.stacks),
        list(world.closed),
        list(world.discard),
        list(world.excluded),
        list(world.played_this_turn),
        world.first_empty,
        world.result(),
    )


def _random_rollouts_alike(world: RoundupState, chance: int, seed: int) -> list[str]:
    """Asserts that after every number of steps the game's random rollout loop leaves a copy
    of ``world`` (its chance ``LazyRandom(chance)``, the search's rng ``Random(seed)``) as the
    search's generic loop (a random pick of the listing, drawn by rng.randrange, to the
    round's end) leaves its own; returns the kinds of the moves taken."""
    from engine.core import LazyRandom

    evaluator = roundup_bot.SETTINGS.evaluator
    assert evaluator is not None
    baseline = evaluator.baseline(world)
    slow = world._copy(LazyRandom(chance))
    slow._stop_at_round_end = True
    rng = random.Random(seed)
    want = [_rollout_snapshot(slow)]
    kinds = []
    while not slow.is_over:
        legal = slow._fresh_actions()
        action = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
        kinds.append(action.kind if action.cards or action.kind != "pass" else "pass free")
        going_on = slow._rollout_step(action)
        want.append(_rollout_snapshot(slow))
        if not going_on:
            break
    for steps in range(len(want) + 1):
        fast = world._copy(LazyRandom(chance))
        took = roundup_bot.random_rollout(fast, random.Random(seed), baseline, steps)
        assert took == min(steps, len(want) - 1), (seed, steps)
        assert _rollout_snapshot(fast) == want[took], (seed, steps)
    assert fast.rounds_played() > world.rounds_played() or fast.is_over
    assert fast.round_no == world.round_no  # no next round dealt
    return kinds


def test_the_random_rollout_takes_the_generic_loops_moves():
    # Two players' random rollouts, from sampled worlds of positions of every phase.
    phases: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for seed in (0, 1, 5):  # seed 5 reaches a tie-break
        for i, state in enumerate(_varied_positions(2, seed, rounds=1)):
            if i % 12 and state.phase == "play":
                continue
            world = state.determinize(state.current_player, random.Random(i))
            phases[world.phase] += 1
            kinds.update(_random_rollouts_alike(world, i, seed * 1000 + i))
    assert set(phases) == {"bid", "tiebreak", "play", "answer"}, phases
    assert {"play", "end", "jack", "queen", "king", "reveal", "discard", "pass"} <= set(kinds)


def test_the_random_rollout_pays_a_pass_with_any_face_card():
    # A seat holding face cards only pays a pass with any one of them (the listing's last
    # moves), or passes free with an empty hand: worlds made so from play positions, their
    # other cards moved to the other seat.
    kinds: Counter[str] = Counter()
    for seed in range(3):
        for i, state in enumerate(_varied_positions(2, seed, rounds=1)):
            if state.phase != "play" or i % 4:
                continue
            world = state.determinize(state.current_player, random.Random(i))
            p = world.turn
            down = world.face_down[p]
            keep = [c for c in down if c not in NUMBER_CARDS][: 1 + i % 3]
            world.face_down[1 - p] += [c for c in down if c not in keep] + world.face_up[p]
            world.face_down[p], world.face_up[p], world.played_this_turn = keep, [], []
            world._legal = None
            for j in range(4):
                kinds.update(_random_rollouts_alike(world, j, seed * 100 + i * 4 + j))
    assert kinds["pass"] > 20 and kinds["pass free"] > 5, kinds


def test_the_two_player_search_with_the_random_rollout_loop_searches_alike():
    # The whole search at two players, with the game's random rollout loop and with the
    # generic one: the same visits and values at the root, so the same choice, from a
    # position of each phase.
    positions = []
    seen = set()
    for seed in range(6):
        for state in _varied_positions(2, seed, rounds=1):
            if state.phase not in seen and len(state.legal_actions()) > 1:
                seen.add(state.phase)
                positions.append((state.clone(), seed))
    assert seen == {"bid", "tiebreak", "play", "answer"}
    config = roundup_bot.SETTINGS.at(2).search
    assert config is not None
    assert_loop_searches_alike(config, "rollout_loop", positions, 80)


def test_greedy_beats_random_players():
    wins = 0
    matches = 24
    for seed in range(matches):
        st = bid_state(4, seed=seed)
        seat = seed % 4
        bots = [GreedyBot() if p == seat else RandomBot() for p in range(4)]
        rng = random.Random(seed)
        while not st.is_over:
            p = st.current_player
            st.apply(bots[p].choose(st, p, rng))
        wins += seat in st.result()["winners"]
    assert wins >= matches // 2  # a fair share would be a quarter; measured ~90%

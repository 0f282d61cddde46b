"""Progression: rules, rulings, scoring examples, match length, views and the greedy bot."""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots import make
from engine.cards import SUITS
from engine.checks import play_checked_match
from engine.games.progression import SPEC
from engine.games.progression.bot import greedy
from engine.games.progression.rules import (
    MAX_TARGET_ROUNDS,
    STALL_LIMIT,
    can_add_to_private,
    card_value,
    stack_score,
)
from engine.games.progression.state import ProgressionState
from tests.helpers import assert_refused, ids


def empty_stacks() -> dict[str, list[str]]:
    return {s: [] for s in SUITS}


def position(
    players: int = 3,
    hands: list[list[str]] | None = None,
    draw_pile: list[str] | None = None,
    turn: int = 0,
    options: dict | None = None,
) -> ProgressionState:
    """A state with the given hands and draw pile (top = last); all stacks empty.

    Cards not placed anywhere are parked in the draw pile's bottom so conservation holds."""
    state = engine.new_game("progression", players=players, seed=0, options=options or {})
    assert isinstance(state, ProgressionState)
    hands = hands or [[] for _ in range(players)]
    state.hands = [list(h) for h in hands]
    state.private = [empty_stacks() for _ in range(players)]
    state.public = empty_stacks()
    state.known = [[] for _ in range(players)]
    used = {c for h in hands for c in h} | set(draw_pile or [])
    rest = [c for c in state.deck() if c not in used]
    state.draw_pile = rest + list(draw_pile or [])
    state.turn = turn
    state.phase = "play"
    state.just_played = None
    state.stall_count = 0
    return state


def place(state: ProgressionState, where: str, cards: list[str], player: int = 0) -> None:
    """Move ``cards`` (from wherever they are) onto a private or public stack."""
    for c in cards:
        for h in state.hands:
            if c in h:
                h.remove(c)
        if c in state.draw_pile:
            state.draw_pile.remove(c)
        target = state.private[player] if where == "private" else state.public
        target[c[-1]].append(c)


def shrink_pile(state: ProgressionState, keep: int) -> None:
    """Keep only the top ``keep`` draw-pile cards; park the rest on the public stacks."""
    for c in state.draw_pile[:-keep]:
        state.public[c[-1]].append(c)
    state.draw_pile = state.draw_pile[-keep:]


# ----- scoring --------------------------------------------------------------------------------
def test_worked_example_scores_33():
    assert stack_score(["KS", "JS", "2S", "6S", "7S", "8S"]) == 33


@pytest.mark.parametrize(
    "cards,score",
    [
        ([], 0),
        (["KH"], -20),
        (["AH", "JH"], -30),
        (["AH", "JH", "QH"], -40),
        (["AH", "JH", "QH", "KH"], -50),
        (["2H", "10H"], 0),  # total 12: nothing
        (["KH", "5H", "7H"], 0),  # a face card does not rescue a total of 12
        (["2C"], 0),
        (["9C", "10C"], 7),  # 19 - 12, no face: x1
        (["QC", "9C", "10C"], 14),  # one face: x2
        (["AS", "JS", "QS", "KS", "9S", "10S"], 35),  # all four faces: x5
        (["3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D"], 40),
    ],
)
def test_stack_scores(cards, score):
    assert stack_score(cards) == score


def test_card_values():
    assert [card_value(c) for c in ("AS", "JS", "QS", "KS", "2S", "10S")] == [0, 0, 0, 0, 2, 10]


def test_round_score_is_sum_of_private_stacks_only():
    state = position(hands=[["3H", "4H", "5H", "6H", "7H"], ["AC"], ["2C"]])
    place(state, "private", ["KS", "JS", "2S", "6S", "7S", "8S"], player=0)
    place(state, "private", ["QH"], player=0)
    place(state, "private", ["9C", "10C"], player=1)
    place(state, "public", ["10D", "9D", "8D"])
    shrink_pile(state, 1)
    state.apply("public:3H")
    state.apply("draw:stock")
    # Seat 0: 33 for spades, -20 for the lone Queen; cards left in hand count for nothing.
    assert state.last_round["scores"] == [33 - 20, 7, 0]
    assert state.last_round["stack_scores"][0]["S"] == 33
    assert state.last_round["winners"] == [0]
    assert state.result()["scores"] == [13, 7, 0]
    assert state.result()["rounds"] == [[13, 7, 0]]
    assert state.view(2)["last_round"]["totals"] == [13, 7, 0]
    assert state.last_round["stack_values"][0]["S"] == 23
    assert state.last_round["stack_faces"][0] == {"S": 2, "H": 1, "D": 0, "C": 0}


def test_view_gives_each_stack_its_value_and_face_count():
    # The table shows a stack's running value and multiplier without knowing card values.
    state = position(hands=[["3H", "4H", "5H", "6H", "7H"], ["AC"], ["2C"]])
    place(state, "private", ["KS", "JS", "2S", "6S", "7S", "8S"], player=0)
    place(state, "private", ["9C", "10C"], player=1)
    view = state.view(2)
    assert view["stack_values"][0] == {"S": 23, "H": 0, "D": 0, "C": 0}
    assert view["stack_faces"][0] == {"S": 2, "H": 0, "D": 0, "C": 0}
    assert view["stack_values"][1]["C"] == 19 and view["stack_faces"][1]["C"] == 0
    assert view["stack_scores"][0]["S"] == 33 and view["stack_scores"][1]["C"] == 7


# ----- dealing and turns -------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_five_each_and_visible_draw_count(players):
    state = engine.new_game("progression", players=players, seed=3)
    view = state.view(None)
    assert view["hand_counts"] == [5] * players
    assert view["draw_pile"] == 52 - 5 * players
    assert view["hand"] == []
    assert state.current_player == (view["dealer"] + 1) % players == view["first_player"]
    assert view["phase"] == "play" and view["round"] == 1


def test_players_and_variants_in_spec():
    assert (SPEC.min_players, SPEC.default_players, SPEC.max_players) == (2, 3, 4)
    assert SPEC.variant_players == (2, 4)
    assert engine.GAMES["progression"] is SPEC
    text = " ".join(SPEC.clarifications)
    assert "take back" in text and str(STALL_LIMIT) in text


def test_turn_is_play_then_draw_by_same_seat():
    state = position(hands=[["3H", "5S", "KD", "9C", "2C"], [], []], draw_pile=["4S", "7D"])
    assert assert_refused(state, "draw:stock") == "play a card before you draw"
    state.apply("play:5S")
    assert state.current_player == 0 and state.phase == "draw"
    assert ids(state) == ["draw:stock"]
    assert "already played" in assert_refused(state, "public:3H")
    state.apply("draw:stock")
    assert "7D" in state.hands[0] and state.current_player == 1 and state.phase == "play"


def test_private_stack_face_cards_first_and_equal_values_allowed():
    state = position(hands=[["AS", "KS", "4S", "9S", "QH"], [], []])
    place(state, "private", ["JS"])
    legal = ids(state)
    # Another face card may join a face-only stack: its value 0 equals the top's.
    assert "play:AS" in legal and "play:KS" in legal and "play:4S" in legal
    state.private[0]["S"].append("5S")
    state.draw_pile.remove("5S")
    legal = ids(state)
    assert "play:AS" not in legal and "play:4S" not in legal and "play:9S" in legal
    assert "face card" in assert_refused(state, "play:KS")
    assert "lower than 5♠" in assert_refused(state, "play:4S")
    # A different suit's stack is separate.
    assert "play:QH" in legal


def test_can_add_to_private_helper():
    assert can_add_to_private([], "KH")
    assert can_add_to_private(["KH"], "AH")
    assert can_add_to_private(["KH", "3H"], "3H") is True  # equal value is allowed
    assert not can_add_to_private(["KH", "3H"], "QH")
    assert not can_add_to_private(["7H"], "6H")


def test_public_play_is_always_allowed():
    state = position(hands=[["2S", "3S", "KS", "AH", "10C"], [], []])
    place(state, "private", ["9S"])
    legal = ids(state)
    for c in ["2S", "3S", "KS", "AH", "10C"]:
        assert f"public:{c}" in legal
    state.apply("public:2S")
    assert state.public["S"] == ["2S"] and "2S" not in state.hands[0]


def test_cannot_draw_back_the_card_just_played_public():
    state = position(hands=[["7H", "2S", "3S", "4S", "5S"], [], []])
    place(state, "public", ["3H", "QD"])
    state.hands[0] = ["7H", "2S", "3S", "4S", "5S"]
    state.apply("public:7H")
    legal = ids(state)
    assert "draw:7H" not in legal and "draw:3H" not in legal
    assert "draw:QD" in legal and legal[0] == "draw:stock"
    assert "just played" in assert_refused(state, "draw:7H")
    assert "top card" in assert_refused(state, "draw:3H")


def test_card_played_to_private_leaves_public_tops_available():
    state = position(hands=[["7H", "2S", "3S", "4S", "5S"], [], []])
    place(state, "public", ["8H"])
    state.apply("play:7H")
    assert "draw:8H" in ids(state)


def test_drawing_from_a_public_stack():
    state = position(hands=[["2S", "3S", "4S", "5S", "6S"], ["2H", "3H", "4H", "5H", "6H"], []])
    place(state, "public", ["9C", "10C"])
    pile_before = len(state.draw_pile)
    state.apply("public:2S")
    state.apply("draw:10C")
    assert "10C" in state.hands[0] and state.public["C"] == ["9C"]
    assert len(state.draw_pile) == pile_before
    assert state.stall_count == 1
    # Everyone saw it taken: public knowledge until it is played.
    assert state.view(2)["known_hands"][0] == ["10C"]
    assert "10C" not in state.view(2)["hand"]
    state.apply("public:2H")
    state.apply("draw:stock")
    assert state.stall_count == 0
    state.turn = 0
    state.apply("play:10C")
    assert state.view(1)["known_hands"][0] == []


def test_round_ends_the_moment_the_last_card_is_drawn():
    state = position(hands=[["2S", "3S", "4S", "5S", "6S"], [], []], draw_pile=["KH"])
    shrink_pile(state, 1)
    state.apply("play:2S")
    dealer = state.dealer
    state.apply("draw:stock")
    assert state.last_round["reason"] == "draw_pile" and state.last_round["round"] == 1
    assert state.round_number == 2 and state.view(None)["draw_pile"] == 52 - 15
    assert state.move_revealed_hidden(-1)
    assert state.dealer == (dealer + 1) % 3 and state.current_player == (dealer + 2) % 3


def test_stall_rule_ends_the_round():
    state = position(hands=[["2S", "3S", "4S", "5S", "6S"], [], []])
    place(state, "public", ["9C"])
    state.stall_count = STALL_LIMIT - 1
    state.apply("play:2S")
    state.apply("draw:9C")
    assert state.last_round["reason"] == "stall"
    assert state.round_number == 2 and state.stall_count == 0
    # That public draw triggered a new deal, so undo may not cross it.
    assert state.move_revealed_hidden(-1)


def test_stall_counter_counts_turns_without_a_stock_draw():
    state = position(hands=[["2S", "3S", "4S", "5S", "6S"], [], []])
    place(state, "public", ["9C"])
    state.stall_count = STALL_LIMIT - 2
    state.apply("play:2S")
    state.apply("draw:9C")
    assert state.round_number == 1 and state.stall_count == STALL_LIMIT - 1
    assert state.view(0)["stall_count"] == STALL_LIMIT - 1
    assert not state.move_revealed_hidden(-1)


def test_only_a_blind_draw_reveals_a_hidden_card():
    state = position(hands=[["2S", "3S", "4S", "5S", "6S"], [], []])
    state.apply(state.legal_actions()[0])
    assert state.move_revealed_hidden(-1) is False
    state.apply(state.legal_actions()[0])  # draw:stock
    assert state.move_revealed_hidden(-1) is True


# ----- labels and refusals -----------------------------------------------------------------
def test_labels_and_cards():
    state = position(hands=[["7H", "2S", "3S", "4S", "5S"], [], []])
    by_id = {a.id: a for a in state.legal_actions()}
    assert by_id["play:7H"].label == "Play 7♥ to your stack" and by_id["play:7H"].cards == ("7H",)
    assert by_id["public:7H"].label == "Put 7♥ on the public stack"
    state.apply("public:7H")
    assert state.legal_actions()[0].label == "Draw from the draw pile"


def test_refusal_reasons():
    state = position(hands=[["7H", "2S", "3S", "4S", "5S"], [], []])
    assert assert_refused(state, "play:8H") == "8♥ is not in your hand"
    assert state.why_illegal("nonsense") is None
    assert state.why_illegal("play:ZZ") is None
    assert state.why_illegal("draw:9D") == "play a card before you draw"
    state.apply("public:2S")
    assert "only the top card" in assert_refused(state, "draw:9D")
    assert assert_refused(state, "play:3S").startswith("you have already played")


# ----- match length --------------------------------------------------------------------------
def finish_round(state: ProgressionState) -> None:
    """Play the current round to its end: one public play, then the last draw-pile card."""
    shrink_pile(state, 1)
    state.apply(next(a for a in state.legal_actions() if a.id.startswith("public:")))
    state.apply("draw:stock")


def test_match_is_six_rounds_by_default():
    state = engine.new_game("progression", players=3, seed=5)
    for n in range(1, 6):
        finish_round(state)
        assert state.round_number == n + 1 and not state.is_over
    finish_round(state)
    assert state.is_over and state.current_player is None and state.legal_actions() == []
    assert len(state.result()["rounds"]) == 6
    assert state.view(0)["phase"] == "over" and state.view(0)["rounds_total"] == 6


def test_play_to_200_ends_after_the_round_reaching_it():
    state = engine.new_game("progression", players=3, seed=5, options={"length": "to-200"})
    assert state.view(None)["target"] == 200 and state.view(None)["rounds_total"] is None
    finish_round(state)
    assert not state.is_over
    state.totals[2] = 199
    state.private[2]["S"] = []
    # Seat 2 scores 7 this round: 9C + 10C on its clubs stack.
    for c in ("9C", "10C"):
        for zone in (state.draw_pile, *state.hands):
            if c in zone:
                zone.remove(c)
        state.private[2]["C"].append(c)
    finish_round(state)
    assert state.is_over and state.result()["winners"] == [2]


def test_play_to_200_stops_at_the_round_cap():
    state = engine.new_game("progression", players=2, seed=5, options={"length": "to-200"})
    for _ in range(MAX_TARGET_ROUNDS):
        assert not state.is_over
        finish_round(state)
    assert state.is_over and len(state.result()["rounds"]) == MAX_TARGET_ROUNDS


def test_tied_totals_share_the_win():
    state = engine.new_game("progression", players=3, seed=6)
    for _ in range(5):
        finish_round(state)
    state.totals = [40, 40, 10]
    for p in range(3):
        state.private[p] = empty_stacks()
    finish_round(state)
    assert state.result()["winners"] == [0, 1]
    assert state.view(None)["winners"] == [0, 1]


def test_dealer_rotates_every_round():
    state = engine.new_game("progression", players=4, seed=2)
    dealers = []
    for _ in range(4):
        dealers.append(state.dealer)
        assert state.current_player == (state.dealer + 1) % 4
        finish_round(state)
    assert dealers == [(dealers[0] + k) % 4 for k in range(4)]


# ----- views and determinize -----------------------------------------------------------------
def test_view_hides_hands_and_shows_public_state():
    state = engine.new_game("progression", players=3, seed=9)
    view = state.view(1)
    assert view["hand"] == state.hands[1]
    text = repr(state.view(0))
    for c in state.hands[1] + state.hands[2] + state.draw_pile:
        assert f"'{c}'" not in text
    for key in (
        "phase",
        "current_player",
        "scores",
        "round",
        "last_round",
        "private_stacks",
        "public_stacks",
        "draw_pile",
        "stack_scores",
        "round_history",
        "known_hands",
    ):
        assert key in view


def test_determinize_keeps_cards_seen_taken_from_public():
    state = position(
        hands=[
            ["2S", "3S", "4S", "5S", "6S"],
            ["2H", "3H", "4H", "5H", "6H"],
            ["2D", "3D", "4D", "5D", "6D"],
        ]
    )
    place(state, "public", ["10C"])
    state.apply("public:2S")
    state.apply("draw:10C")
    for k in range(5):
        world = state.determinize(1, random.Random(k))
        assert "10C" in world.hands[0] and world.hands[1] == state.hands[1]
        assert world.view(1) == state.view(1)
    assert state.hands[0] == ["3S", "4S", "5S", "6S", "10C"]


def _former_determinize(state: ProgressionState, player: int, rng: random.Random) -> tuple:
    """What determinize drew before it was a sampler: the opponents' unseen cards and the draw
    pile as one pool in the cards' order, shuffled by ``rng.shuffle``, dealt to the
    opponents (their known cards kept) in seat order, the rest the draw pile, then the
    world's seed."""
    order = sorted(state.deck(), key=lambda c: (SUITS.index(c[-1]), RANK_PLACE[c[:-1]]))
    pool = list(state.draw_pile)
    for p in range(state.players):
        if p != player:
            pool += [c for c in state.hands[p] if c not in state.known[p]]
    pool.sort(key=order.index)
    rng.shuffle(pool)
    hands, at = [], 0
    for p in range(state.players):
        if p == player:
            hands.append(list(state.hands[p]))
            continue
        count = len(state.hands[p]) - len(state.known[p])
        hands.append(sorted(state.known[p] + pool[at : at + count], key=order.index))
        at += count
    return hands, pool[at:], rng.getrandbits(64)


RANK_PLACE = {r: i for i, r in enumerate("A 2 3 4 5 6 7 8 9 10 J Q K".split())}


class _OwnShuffle(random.Random):
    """A kind of rng that shuffles by its own method (the sampler must call it)."""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_sampler_deals_what_determinize_dealt(players):
    """Each world the search's sampler draws is the one the former determinize drew from the
    same rng: the same hands, draw pile and seed of the world's chance, the stacks' codes
    worked out afresh (a position edited by hand is searched right), the rest a copy."""
    state = engine.new_game("progression", players=players, seed=31)
    greedy_bot = make("greedy")
    step = taken = 0
    while not state.is_over and step < 150:
        player = state.current_player
        sample = state.sampler(player)
        for k, kind in enumerate((random.Random, _OwnShuffle, random.Random)):
            rng, former_rng = kind(step * 7 + k), kind(step * 7 + k)
            world = sample(rng)
            hands, pile, seed = _former_determinize(state, player, former_rng)
            assert (world.hands, world.draw_pile) == (hands, pile)
            assert world.rng.getrandbits(64) == random.Random(seed).getrandbits(64)
            assert rng.getstate() == former_rng.getstate()
            assert world.view(player) == state.view(player)
            assert (world.stack_codes, world.on_stacks) == (state.stack_codes, state.on_stacks)
            assert world.history == state.history and world.history is not state.history
        taken += any(state.known)
        state.apply(greedy_bot.choose(state, player, random.Random(step)))
        step += 1
    assert taken, "positions with cards taken from public stacks were met"
    hands = [["2S", "3S", "4S", "5S", "6S"]] + [[] for _ in range(players - 1)]
    edited = position(players=players, hands=hands)
    place(edited, "private", ["7S", "9S"])
    world = edited.sampler(0)(random.Random(1))
    edited._recount()
    assert (
        (world.stack_codes, world.on_stacks)
        == (edited.stack_codes, edited.on_stacks)
        != ([0] * players, 0)
    )


def _containers(value, out):
    """Every list and dict inside ``value`` (itself included), by id."""
    if isinstance(value, list | dict):
        out[id(value)] = value
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, out)
    return out


def test_a_sampled_world_is_a_copy_of_the_position_sharing_nothing_play_changes():
    """The sampler builds its worlds by hand, not by _copy: each has _copy's fields, the same
    values but for the dealt cards and its chance, and no list or dict of the state's or of
    another world's but the finished rounds' summary (never changed); playing a world out
    leaves the state and the next world as they were."""
    state = engine.new_game("progression", players=3, seed=5)
    greedy_bot = make("greedy")
    step = 0
    while not (state.phase == "play" and any(state.known[:-1])) and step < 300:
        state.apply(greedy_bot.choose(state, state.current_player, random.Random(step)))
        step += 1
    player = state.current_player
    assert any(k for p, k in enumerate(state.known) if p != player), "a card was seen taken"
    sample = state.sampler(player)
    before = state.clone()
    copied = vars(state._copy(random.Random(0)))
    worlds = [sample(random.Random(k)) for k in range(2)]
    listing = state.legal_actions()
    for world in worlds:
        fields = dict(vars(world))
        assert fields.pop("_listing") == listing == world.legal_actions()
        assert fields.keys() == copied.keys()
        differ = {k for k in fields if fields[k] != copied[k]}
        assert differ <= {"rng", "hands", "draw_pile"}
    shared = {"last_round", "_listing"}  # the listing: never changed (legal_actions copies)
    one, two = worlds
    theirs = _containers([v for k, v in vars(state).items() if k not in shared], {})
    theirs.update(_containers([v for k, v in vars(two).items() if k not in shared], {}))
    mine = _containers([v for k, v in vars(one).items() if k not in shared], {})
    assert not set(mine) & set(theirs)
    one.legal_actions().clear()
    assert one._legal_actions() == listing
    while not one.is_over and one.round_number == state.round_number:
        one.push(one.legal_actions()[-1])
        # After the first move the world lists its own moves.
        assert one._listing is None
        assert one._legal_actions() == ProgressionState._legal_actions(one._copy(one.rng))
    assert state.view(player) == before.view(player) and state.history == before.history
    assert two.view(player) == state.view(player) and two._legal_actions() == listing
    # A seat to play whose cards the sampler deals lists its own moves.
    other = (player + 1) % state.players
    assert ProgressionState._listing is None and "_listing" not in vars(
        state.sampler(other)(random.Random(1))
    )


def test_apply_reads_each_listed_id_as_its_parts():
    """_apply looks each action id's kind, card, suit and the card just played after it up in
    a table: every id the listing gives is there, as its partition at ":" says and as the
    move leaves the state, and an id from elsewhere is parsed."""
    from engine.games.progression.state import _MOVES

    state = engine.new_game("progression", players=3, seed=2)
    seen = 0
    for step in range(60):
        for action in state.legal_actions():
            kind, card, suit, just = _MOVES[action.id]
            assert (kind, card) == tuple(action.id.split(":")) and suit == card[-1]
            after = state.clone()
            after._apply(action)
            assert just == (after.just_played if kind != "draw" else None)
            seen += 1
        state.apply(make("greedy").choose(state, state.current_player, random.Random(step)))
    assert seen > 200
    other = state.clone()
    action = state.legal_actions()[0]
    other._apply(engine.core.Action(action.id, action.player, "a copy"))
    state._apply(action)
    assert other.view(None) == state.view(None)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shared_invariants(players):
    play_checked_match("progression", players, {}, seed=11)


# ----- the greedy bot ----------------------------------------------------------------------
def act(state: ProgressionState) -> str:
    seat = state.current_player
    return greedy(state.view(seat), state.legal_actions(), random.Random(0)).id


def test_greedy_does_not_start_a_stack_with_an_unsupported_face_card():
    state = position(hands=[["KS", "2H", "3D", "4C", "9C"], [], []])
    # Most spades are gone to the public stacks: a lone King could only lose points.
    place(state, "public", ["5S", "6S", "7S", "8S", "9S", "10S"])
    choice = act(state)
    assert choice != "play:KS"


def test_greedy_starts_with_the_face_card_before_numbers_of_a_strong_suit():
    state = position(hands=[["KH", "8H", "9H", "10H", "2C"], [], []])
    assert act(state) == "play:KH"


def test_greedy_dumps_what_helps_rivals_least():
    state = position(hands=[["8H", "9H", "10H", "2C", "10D"], [], []])
    place(state, "private", ["QD", "7D"], player=1)
    place(state, "private", ["JH"], player=0)
    assert act(state) != "public:10D"
    # Made to choose a public play, it gives away the card nobody can use.
    public_only = [a for a in state.legal_actions() if a.kind == "public"]
    assert greedy(state.view(0), public_only, random.Random(0)).id == "public:2C"


def test_greedy_takes_a_public_card_it_needs():
    state = position(hands=[["8H", "9H", "2C", "3C", "5S"], [], []])
    place(state, "private", ["JH", "4H"], player=0)
    place(state, "public", ["10H"])
    state.apply("public:2C")
    assert act(state) == "draw:10H"


def test_greedy_at_the_last_card_ends_the_round_when_leading():
    state = position(hands=[["2C", "3C", "4C", "5C", "6C"], [], []])
    place(state, "private", ["8S", "9S", "10S"], player=0)
    place(state, "public", ["KD"])
    shrink_pile(state, 1)
    state.apply("public:2C")
    assert act(state) == "draw:stock"
    # Trailing instead: keep the round going by taking from a public stack.
    state.private[0]["S"], state.private[1]["S"] = [], state.private[0]["S"]
    assert act(state).startswith("draw:") and act(state) != "draw:stock"


def test_greedy_beats_random():
    greedy_bot, random_bot = make("greedy"), make("random")
    wins = 0
    matches = 15
    for seed in range(matches):
        state = engine.new_game("progression", players=3, seed=seed)
        seat = seed % 3
        rng = random.Random(seed)
        while not state.is_over:
            p = state.current_player
            state.apply((greedy_bot if p == seat else random_bot).choose(state, p, rng))
        wins += seat in state.result()["winners"]
    # A random seat wins a third of the time; the greedy one should win nearly always.
    assert wins >= 10


def test_rules_page_worked_example():
    # web/rules/progression.html: Maria's four stacks at the end of a round.
    hearts, clubs, diamonds, spades = ["AH", "QH", "3H", "5H", "9H"], ["4C", "8C"], ["KD"], []
    scores = [stack_score(s) for s in (hearts, clubs, diamonds, spades)]
    assert scores == [15, 0, -20, 0] and sum(scores) == -5
    assert stack_score(clubs + ["10C"]) == 10


def _view_position_value(state: ProgressionState, seat: int) -> float:
    """The position value as the greedy player computes it, from the seat's view."""
    from engine.games.progression import bot as pb

    view = state.view(seat)
    by_suit, count = pb._unseen_by_suit(
        view["hand"], view["private_stacks"], view["public_stacks"], view["known_hands"], seat
    )
    plays_left = max(0.0, view["draw_pile"] / view["players"])
    p_draw = pb.DRAW_CHANCE_DISCOUNT * min(1.0, plays_left / max(1, count))
    return sum(
        pb._position(
            view["hand"], view["private_stacks"][seat], by_suit, plays_left, p_draw
        ).values()
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_position_values_read_from_the_state_equal_the_greedy_players_view(players):
    """The search's fast position value is the greedy player's, bit for bit, and each seat's
    entry depends only on what that seat may see (a world sampled for it gives the same).
    The stacks' codes the moves keep are the ones worked out from the stacks."""
    from engine.games.progression.bot import position_values

    state = engine.new_game("progression", players=players, seed=21)
    greedy_bot = make("greedy")
    checked = taken = 0
    step = 0
    while not state.is_over and step < 400:
        kept = (list(state.stack_codes), state.on_stacks)
        state._recount()
        assert (state.stack_codes, state.on_stacks) == kept
        values = position_values(state)
        for seat in range(players):
            assert values[seat] == _view_position_value(state, seat)
            world = state.determinize(seat, random.Random(step))
            assert position_values(world)[seat] == values[seat]
        checked += 1
        taken += any(state.known)
        state.apply(greedy_bot.choose(state, state.current_player, random.Random(step)))
        step += 1
    assert checked > 100 and taken, "positions with cards taken from public stacks were met"


def test_a_suits_part_from_its_shape_is_the_one_worked_out_whole():
    """The memo's misses are worked out from the suit's shape (its stack and hand, the same
    for every draw chance) and its unseen cards' part: the same counts and floats, bit for
    bit, as _suit_part's, for stacks of every kind (none, faces only, numbers) and hands."""
    from engine.games.progression import bot

    rng = random.Random(4)
    cases = set()
    for _ in range(3000):
        faces = rng.randrange(4)
        values = list(range(2, 11))
        rng.shuffle(values)
        stack = values[: rng.randrange(4)]
        hand = values[len(stack) : len(stack) + rng.randrange(4)]
        unseen = [v for v in values[len(stack) + len(hand) :] if rng.random() < 0.6]
        stack_faces = rng.randrange(faces + 1) if rng.random() < 0.7 else 0
        stack_code = sum(1 << v for v in stack) + (stack_faces << 12)
        hand_code = sum(1 << v for v in hand) + ((faces - stack_faces) << 12)
        key = stack_code | hand_code << 64 | sum(1 << v for v in unseen) << 128
        p_draw = rng.choice([0.0, 0.05, 0.18666666666666665, 0.35, 0.7])
        if rng.random() < 0.5:
            bot._SHAPES.clear()
            bot._UNSEEN_PARTS.clear()
        table: dict = {}
        assert bot._suit_part_kept(table, key, p_draw) == bot._suit_part(key, 1.0, p_draw)
        assert table[key] == bot._suit_part(key, 1.0, p_draw)
        cases.add(0 if not stack_code else 1 if not stack and not hand else 2)
    assert cases == {0, 1, 2}


def test_a_card_played_to_ones_own_stack_is_theirs_in_the_others_log():
    state = engine.new_game("progression", 3, 5)
    rng = random.Random(5)
    while not any(a.id.startswith("play:") for a in state.history):
        state.apply(rng.choice(state.legal_actions()))
    played = next(a for a in state.history if a.id.startswith("play:"))
    assert state.public_label(played, played.player).endswith("to your stack")
    for viewer in (*(p for p in range(3) if p != played.player), None):
        label = state.public_label(played, viewer)
        assert label.endswith("to their own stack") and "your" not in label

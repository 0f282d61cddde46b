"""The invariant checks every game must keep, written once for all of them.

``play_checked_match`` plays one seeded match (random or greedy seats) and checks at every
step that legal actions are unique and apply, junk is refused with the state unchanged,
cards are conserved, views hide what they must (via determinize), a clone is independent
of its original, the record replays and every round's end stops at the core's round-end hook
(:func:`check_round_ends`).
The test suite runs it on every game, player count and option set; ``python -m engine
soak`` runs it for as long as you like.

>>> state = play_checked_match("crisps", 2, {}, seed=3)
>>> state.is_over, observable(engine.from_record(state.to_record())) == observable(state)
(True, True)
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import engine
from engine.core import IllegalAction, State

JUNK_IDS = [
    "",
    "nonsense",
    "play:",
    "play:ZZ",
    "pass:extra",
    "draw:nowhere",
    "x" * 500,
    "\u2665",
    "play:AS,AS,AS,AS,AS",
]


def observable(state: State) -> str:
    """Everything observable about a state, as one string (views of every seat + result)."""
    views = [state.view(p) for p in range(state.players)] + [state.view(None)]
    return json.dumps(
        {
            "views": views,
            "result": state.result(),
            "current": state.current_player,
            "legal": [a.id for a in state.legal_actions()],
            "zones": state.zones(),
        },
        sort_keys=True,
    )


def check_conservation(state: State) -> None:
    placed = Counter(c for cards in state.zones().values() for c in cards)
    expected = Counter(state.deck())
    assert placed == expected, (
        f"cards not conserved: missing {expected - placed}, extra {placed - expected}"
    )


def check_legal_actions(state: State) -> None:
    legal = state.legal_actions()
    ids = [a.id for a in legal]
    assert len(ids) == len(set(ids)), f"duplicate action ids: {ids}"
    if state.is_over:
        assert legal == [] and state.current_player is None
        return
    assert legal, "a live match must offer an action"
    for a in legal:
        assert a.player == state.current_player
        assert str(a) == a.id and a.label
    # Same state, same order: legal actions are deterministic.
    assert [a.id for a in state.legal_actions()] == ids


def check_junk_refused(state: State, rng: random.Random, before: str) -> None:
    """Junk action ids are refused with a reason and leave the state as it was (``before``:
    its ``observable``, taken once for all the deep checks of a step)."""
    legal_ids = {a.id for a in state.legal_actions()}
    for junk in JUNK_IDS + [rng.choice(JUNK_IDS) + "#"]:
        if junk in legal_ids:
            continue
        try:
            state.apply(junk)
        except IllegalAction as exc:
            assert str(exc), "an illegal action needs a reason"
        else:
            raise AssertionError(f"junk action {junk!r} was accepted")
    assert observable(state) == before, "a refused action changed the state"


def check_determinize(state: State, seed: int) -> bool:
    """view(p) is the same in re-sampled worlds; returns True if some hidden card moved."""
    changed = False
    for p in range(state.players):
        original_view = state.view(p)
        original_zones = state.zones()
        for k in range(2):
            world = state.determinize(p, random.Random(seed * 31 + k))
            assert world.view(p) == original_view, f"determinize changed what seat {p} sees"
            assert [a.id for a in world.legal_actions()] == [
                a.id for a in state.legal_actions()
            ] or state.current_player != p, "determinize changed the acting seat's options"
            # What everyone saw can imply what a hidden hand holds (a seat asked to answer
            # holds an answer): a world that forgets it leaves the seat to move stuck.
            assert world.is_over or world.legal_actions(), (
                f"determinize for seat {p} left the seat to move with no legal move"
            )
            check_conservation(world)
            if world.zones() != original_zones:
                changed = True
        # Two worlds from the same rng seed are identical (the result depends only on rng).
        a = state.determinize(p, random.Random(seed))
        b = state.determinize(p, random.Random(seed))
        assert a.zones() == b.zones()
    # The original is untouched by determinizing.
    return changed


def _rounds(state: State) -> int:
    return len(state.result().get("rounds") or [])


def check_round_ends(record: dict[str, Any], round_ends: set[int]) -> None:
    """Replay ``record``: the moves at ``round_ends`` (indexes into its actions: each ended a
    round and the match went on) reach the game's round-end hook, and the table the hook
    shows has that round scored; a sample of the other moves does not reach it."""
    state = engine.new_game(record["game"], record["players"], record["seed"], record["options"])
    for index, action_id in enumerate(record["actions"]):
        action = state.find_action(action_id)
        if index in round_ends:
            stopped = state.at_round_end(action)
            assert stopped is not None, f"move {index} ended a round but passed no round-end hook"
            rounds = _rounds(state) + 1
            assert _rounds(stopped) == rounds, f"move {index}: the hook came before the scoring"
        elif index % 11 == 0:
            assert state.at_round_end(action) is None, f"move {index} ended no round"
        state.push(action)


def check_policy_view(state: State, seed: int, before: str) -> None:
    """``policy_view(p)`` holds what ``view(p)`` holds under each of its keys, the greedy
    policy makes the same choice from it as from the whole view, and reading it changes
    nothing (``before``: the state's ``observable``);
    ``rounds_played()`` counts the result's rounds."""
    assert state.rounds_played() == len(state.result()["rounds"])
    for p in range(state.players):
        part, whole = state.policy_view(p), state.view(p)
        assert set(part) <= set(whole), f"policy_view({p}) has keys view({p}) has not"
        for key, value in part.items():
            assert value == whole[key], f"policy_view({p})[{key!r}] differs from the view"
    actor = state.current_player
    legal = state.legal_actions()
    if actor is None or len(legal) < 2:
        return
    greedy = engine.GAMES[state.game_id].bot.greedy
    from_part = greedy(state.policy_view(actor), list(legal), random.Random(seed))
    from_whole = greedy(state.view(actor), list(legal), random.Random(seed))
    assert from_part.id == from_whole.id, "the greedy policy chose otherwise from policy_view"
    assert observable(state) == before, "the greedy policy changed the state through its view"


def play_checked_match(
    game: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    max_steps: int = 20000,
    deep_every: int = 7,
    policy: str = "random",
    deep_steps: int = 1000,
) -> State:
    """Play one match with every check on; ``policy`` is ``random`` or ``greedy`` seats.

    Every step checks the legal actions and the cards; the deep checks (junk refused,
    determinize, clone) run every ``deep_every`` steps for the first ``deep_steps`` steps and
    every ``5 * deep_every`` after them, since a long match repeats its rounds and each deep
    check costs in proportion to the match so far."""
    state = engine.new_game(game, players=players, seed=seed, options=options)
    rng = random.Random(seed)
    greedy = engine.GAMES[game].bot.greedy if policy == "greedy" else None
    steps = 0
    hidden_changed = False
    rounds = 0
    round_ends: set[int] = set()
    while not state.is_over:
        assert steps < max_steps, f"match did not end within {max_steps} steps"
        check_legal_actions(state)
        check_conservation(state)
        if steps % (deep_every if steps < deep_steps else 5 * deep_every) == 0:
            before = observable(state)
            check_junk_refused(state, rng, before)
            check_policy_view(state, seed + steps, before)
            hidden_changed |= check_determinize(state, seed + steps)
            assert observable(state) == before, "determinize or a refusal changed the state"
            clone = state.clone()
            assert observable(clone) == before
            # A clone is independent: a move taken in it leaves the original as it was.
            legal = clone.legal_actions()
            clone.apply(legal[steps % len(legal)])
            assert observable(state) == before, "a move in a clone changed the original"
        legal = state.legal_actions()
        if greedy is not None:
            state.apply(greedy(state.view(state.current_player), legal, rng))
        else:
            state.apply(rng.choice(legal))
        # A round ends with a new deal, which shows its actor hidden cards: only then can the
        # count of rounds scored have grown.
        if state.move_revealed_hidden(-1) or state.is_over:
            now = _rounds(state)
            assert now <= rounds + 1, "one move scored two rounds"
            if now > rounds and not state.is_over:
                round_ends.add(steps)
            rounds = now
        steps += 1
    assert _rounds(state) == rounds, "a round was scored by a move that dealt no new cards"
    check_legal_actions(state)
    check_conservation(state)
    result = state.result()
    assert result["winners"], "a finished match names its winners"
    assert len(result["scores"]) == players
    # Records replay to the very same match.
    record = json.loads(json.dumps(state.to_record()))
    replay = engine.from_record(record)
    assert observable(replay) == observable(state)
    check_round_ends(record, round_ends)
    if policy == "random":
        assert hidden_changed, "determinize never re-sampled any hidden card"
    return state

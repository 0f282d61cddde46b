"""Golden playthroughs: the engine still plays every recorded match exactly as before.

A failure means a change of behaviour: an action id, label or order, a view, a random
draw, a determinized world or, in the bots' file, a greedy choice differs.

``trace_match`` plays one seeded random match and folds everything the rules show at every
step into a SHA-256 digest: the legal actions (ids, labels, cards, actors, in order), every
seat's and the spectator's view, the result, the zones, how each move reads in every
seat's log and which moves revealed a hidden card, plus at regular intervals a clone and a
determinized world per seat. The game's greedy choice at those same intervals goes into a
second digest, kept apart (``tests/data/greedy_<game>.json``) so that a change to a bot
never touches the rules' files (``tests/data/golden_<game>.json``). The matches were
recorded before the engine's performance work; the two digests were split from the one
they had then, on an engine that still reproduced it. Later the rules' digest took in the
round history once each time it changes rather than once a view (``Observer``), which made
the replays some 40% cheaper: those digests were written by an engine that still reproduced
the former ones.

Regenerate (only when a rule or bot change is intended) with ``python -m tests.test_golden``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine

DATA = Path(__file__).parent / "data"
DEEP_EVERY = 5
"""Clone, determinize and the greedy policy are traced every this many steps."""


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


SAME_ROUNDS = "=rounds"
"""Stands for a round history equal to the one last folded into the digest (``Observer``)."""


class Observer:
    """Everything the rules show at a state, as one value for the digest.

    A match's round history is in its result and again in every seat's view, and it changes
    only when a round ends; late in a match it was most of the bytes. So a history equal to
    the one last folded in is replaced by ``SAME_ROUNDS``: the digest takes it in full when
    it changes, and any view or world whose history differs from it keeps its own."""

    def __init__(self) -> None:
        self.rounds: Any = None

    def _fold(self, value: dict[str, Any]) -> dict[str, Any]:
        rounds = value.get("rounds")
        if rounds is None:
            return value
        if rounds == self.rounds:
            return {**value, "rounds": SAME_ROUNDS}
        self.rounds = rounds
        return value

    def __call__(self, state: engine.State) -> dict[str, Any]:
        return {
            "result": self._fold(state.result()),
            "views": [self._fold(state.view(p)) for p in [*range(state.players), None]],
            "current": state.current_player,
            "over": state.is_over,
            "zones": state.zones(),
        }


def trace_match(game: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One seeded random match and the digest of everything seen along the way."""
    spec = engine.GAMES[game]
    state = engine.new_game(game, players=players, seed=seed, options=options)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    greedy = hashlib.sha256()
    observe = Observer()
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        digest.update(_dump([[a.id, a.player, a.label, list(a.cards)] for a in legal]))
        digest.update(_dump(observe(state)))
        if steps % DEEP_EVERY == 0:
            digest.update(_dump(observe(state.clone())))
            for p in range(players):
                world = state.determinize(p, random.Random(seed * 7919 + steps * 13 + p))
                digest.update(_dump(observe(world)))
                digest.update(_dump([a.id for a in world.legal_actions()]))
            actor = state.current_player
            if actor is not None:
                choice = spec.bot.greedy(state.view(actor), legal, random.Random(steps))
                greedy.update(choice.id.encode())
        action = state.apply(legal[rng.randrange(len(legal))])
        digest.update(_dump([state.public_label(action, v) for v in list(range(players)) + [None]]))
        digest.update(_dump(sorted(state.revealing_moves)))
        steps += 1
    digest.update(_dump(observe(state)))
    return {
        "game": game,
        "players": players,
        "options": options,
        "seed": seed,
        "steps": steps,
        "actions": [a.id for a in state.history],
        "final": {"spectator_view": state.view(None), "result": state.result()},
        "digest": digest.hexdigest(),
        "greedy_digest": greedy.hexdigest(),
    }


def cases(game: str) -> list[tuple[int, dict[str, Any], int]]:
    """Every player count with the default options, then each other option set once."""
    spec = engine.GAMES[game]
    option_sets = spec.option_sets()
    out = [(players, option_sets[0], seed) for players in spec.player_counts() for seed in (11, 12)]
    out += [(spec.default_players, options, 13) for options in option_sets[1:]]
    return out


def path_for(game: str) -> Path:
    return DATA / f"golden_{game}.json"


def greedy_path_for(game: str) -> Path:
    return DATA / f"greedy_{game}.json"


def write_all() -> None:
    DATA.mkdir(exist_ok=True)
    for game in engine.GAMES:
        traces = [
            trace_match(game, players, options, seed) for players, options, seed in cases(game)
        ]
        choices = [
            {
                "players": t["players"],
                "seed": t["seed"],
                "options": t["options"],
                "digest": t.pop("greedy_digest"),
            }
            for t in traces
        ]
        for path, matches in ((path_for(game), traces), (greedy_path_for(game), choices)):
            path.write_text(
                json.dumps({"game": game, "matches": matches}, indent=1, sort_keys=True) + "\n"
            )
        print(f"{game}: {len(traces)} matches, {sum(t['steps'] for t in traces)} steps")


def _recorded(game: str) -> list[dict]:
    return json.loads(path_for(game).read_text())["matches"]


def _recorded_greedy(game: str) -> list[dict]:
    return json.loads(greedy_path_for(game).read_text())["matches"]


# Both tests of a match read one trace (``_traced``): under ``pytest -n`` each match's pair
# runs in one worker (an xdist group of its own), so the match is played once, not twice.
CASES = [
    pytest.param(
        game,
        index,
        id=f"{game}-{m['players']}p-s{m['seed']}-{index}",
        marks=pytest.mark.xdist_group(f"golden-{game}-{index}"),
    )
    for game in engine.GAMES
    for index, m in enumerate(_recorded(game))
]


@functools.cache
def _traced(game: str, index: int) -> dict[str, Any]:
    recorded = _recorded(game)[index]
    return trace_match(game, recorded["players"], recorded["options"], recorded["seed"])


@pytest.mark.slow
@pytest.mark.parametrize("game,index", CASES)
def test_match_replays_exactly_as_recorded(game, index):
    recorded = _recorded(game)[index]
    traced = _traced(game, index)
    assert traced["actions"] == recorded["actions"]
    assert traced["final"] == recorded["final"]
    assert traced["steps"] == recorded["steps"]
    assert traced["digest"] == recorded["digest"], "something observable changed mid-match"


@pytest.mark.slow
@pytest.mark.parametrize("game,index", CASES)
def test_greedy_choices_as_recorded(game, index):
    recorded = _recorded_greedy(game)[index]
    traced = _traced(game, index)
    assert (recorded["players"], recorded["seed"]) == (traced["players"], traced["seed"])
    assert traced["greedy_digest"] == recorded["digest"], "a greedy choice changed"


def test_every_game_has_golden_data():
    for game in engine.GAMES:
        assert _recorded(game), f"no golden matches for {game}"


def test_a_seat_whose_round_history_differs_changes_the_digest(monkeypatch):
    """The round history is folded in once per change (``Observer``): a seat's view whose
    history differs from the result's is still folded in whole."""
    recorded = _recorded("crisps")[0]
    args = ("crisps", recorded["players"], recorded["options"], recorded["seed"])
    assert trace_match(*args)["digest"] == recorded["digest"]
    state_class = type(engine.new_game("crisps", players=recorded["players"], seed=1))
    view = state_class.view

    def wrong_for_seat_one(self, player):
        shown = view(self, player)
        if player == 1 and shown["rounds"]:
            shown["rounds"][-1] = {**shown["rounds"][-1], "extra": True}
        return shown

    monkeypatch.setattr(state_class, "view", wrong_for_seat_one)
    traced = trace_match(*args)
    assert traced["actions"] == recorded["actions"]
    assert traced["digest"] != recorded["digest"]


if __name__ == "__main__":
    write_all()

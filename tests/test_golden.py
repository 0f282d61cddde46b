"""Golden playthroughs: the engine still plays every recorded match exactly as before.

A failure means a change of behaviour: an action id, label or order, a view, a random
draw, a determinized world or a greedy choice differs.

``trace_match`` plays one seeded random match and folds everything observable at every
step into a SHA-256 digest: the legal actions (ids, labels, cards, actors, in order), every
seat's and the spectator's view, the result, the zones, how each move reads in every
seat's log, plus at regular intervals a clone, a determinized world per seat and the
game's greedy choice. The files under ``tests/data/golden_<game>.json`` were written by
this module *before* the engine's performance work, so any change of behaviour (an action
in another order, a different label, a different random draw) changes a digest.

Regenerate (only when a rule change is intended) with ``python -m tests.test_golden``.
"""
from __future__ import annotations

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


def _observe(state: engine.State) -> dict[str, Any]:
    return {"views": [state.view(p) for p in range(state.players)] + [state.view(None)],
            "result": state.result(), "current": state.current_player,
            "over": state.is_over, "zones": state.zones()}


def trace_match(game: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One seeded random match and the digest of everything seen along the way."""
    spec = engine.GAMES[game]
    state = engine.new_game(game, players=players, seed=seed, options=options)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        digest.update(_dump([[a.id, a.player, a.label, list(a.cards)] for a in legal]))
        digest.update(_dump(_observe(state)))
        if steps % DEEP_EVERY == 0:
            digest.update(_dump(_observe(state.clone())))
            for p in range(players):
                world = state.determinize(p, random.Random(seed * 7919 + steps * 13 + p))
                digest.update(_dump(_observe(world)))
                digest.update(_dump([a.id for a in world.legal_actions()]))
            actor = state.current_player
            if spec.greedy is not None and actor is not None:
                choice = spec.greedy(state.view(actor), legal, random.Random(steps))
                digest.update(choice.id.encode())
        action = state.apply(legal[rng.randrange(len(legal))])
        digest.update(_dump([state.public_label(action, v)
                             for v in list(range(players)) + [None]]))
        digest.update(_dump(sorted(state.revealing_moves)))
        steps += 1
    final = _observe(state)
    digest.update(_dump(final))
    return {"game": game, "players": players, "options": options, "seed": seed,
            "steps": steps, "actions": [a.id for a in state.history],
            "final": {"spectator_view": final["views"][-1], "result": final["result"]},
            "digest": digest.hexdigest()}


def cases(game: str) -> list[tuple[int, dict[str, Any], int]]:
    """Every player count with the default options, then each other option set once."""
    spec = engine.GAMES[game]
    option_sets = spec.option_sets()
    out = [(players, option_sets[0], seed)
           for players in spec.player_counts() for seed in (11, 12)]
    out += [(spec.default_players, options, 13) for options in option_sets[1:]]
    return out


def path_for(game: str) -> Path:
    return DATA / f"golden_{game}.json"


def write_all() -> None:
    DATA.mkdir(exist_ok=True)
    for game in engine.GAMES:
        traces = [trace_match(game, players, options, seed)
                  for players, options, seed in cases(game)]
        path_for(game).write_text(json.dumps({"game": game, "matches": traces}, indent=1,
                                             sort_keys=True) + "\n")
        print(f"{game}: {len(traces)} matches, {sum(t['steps'] for t in traces)} steps")


def _recorded(game: str) -> list[dict]:
    return json.loads(path_for(game).read_text())["matches"]


CASES = [pytest.param(game, index, id=f"{game}-{m['players']}p-s{m['seed']}-{index}")
         for game in engine.GAMES for index, m in enumerate(_recorded(game))]


@pytest.mark.parametrize("game,index", CASES)
def test_match_replays_exactly_as_recorded(game, index):
    recorded = _recorded(game)[index]
    traced = trace_match(game, recorded["players"], recorded["options"], recorded["seed"])
    assert traced["actions"] == recorded["actions"]
    assert traced["final"] == recorded["final"]
    assert traced["steps"] == recorded["steps"]
    assert traced["digest"] == recorded["digest"], "something observable changed mid-match"


def test_every_game_has_golden_data():
    for game in engine.GAMES:
        assert _recorded(game), f"no golden matches for {game}"


if __name__ == "__main__":
    write_all()

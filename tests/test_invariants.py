"""Every registered game, every player count and option set, through the shared suite."""

from __future__ import annotations

import pytest

import engine
from engine.checks import play_checked_match


def _options_id(spec: engine.GameSpec, options: dict) -> str:
    changed = [f"{k}={v}" for k, v in options.items() if v != spec.options[k].default]
    return "-".join(changed) or "default"


CASES = [
    pytest.param(
        game_id,
        players,
        options,
        seed,
        id=f"{game_id}-{players}p-{_options_id(spec, options)}-s{seed}",
    )
    for game_id, spec in engine.GAMES.items()
    for players in spec.player_counts()
    for options in spec.option_sets()
    for seed in (1, 2)
]


@pytest.mark.slow
@pytest.mark.parametrize("game_id,players,options,seed", CASES)
def test_random_match_keeps_every_invariant(game_id, players, options, seed):
    play_checked_match(game_id, players, options, seed)

"""Every registered game, every player count and option set, through the shared suite."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine.checks import play_checked_match, snapshot


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
    for seed in ((1, 2) if _options_id(spec, options) == "default" else (1,))
]
"""Every game, player count and option set; two seeded matches at the default options, one at
each other option set (an option changes a rule or a match's length, which one match covers;
the longest matches, Progression to 200 and General Mhing to 20, are among them)."""


@pytest.mark.slow
@pytest.mark.parametrize("game_id,players,options,seed", CASES)
def test_random_match_keeps_every_invariant(game_id, players, options, seed):
    play_checked_match(game_id, players, options, seed)


# Games whose suits (and, in Spite and Malice, which deck or joker a card is) never matter:
# there a card id is compared by its rank alone.
RANK_ONLY = {"crisps", "spite"}
CARD_ID = re.compile(r"\b(?:10|[2-9AJQK])[CDHS](?:#\d)?\b|\bJK\d\b")


def _effect(state: engine.State, game_id: str) -> str:
    """What a state shows every seat and holds, with cards by rank where suits do not matter."""
    text = snapshot(state)
    if game_id in RANK_ONLY:
        text = CARD_ID.sub(lambda m: "JK" if m.group().startswith("JK") else m.group()[:-1], text)
        text = re.sub(r"(\b(?:10|[2-9AJQK]))#\d", r"\1", text)
    return text


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_no_two_legal_actions_have_the_same_effect(game_id):
    """Each listed action does something no other listed action does (the same resulting
    state, chance included, means one move listed twice), on a sample of positions."""
    spec = engine.GAMES[game_id]
    for seed in (1, 2):
        state = engine.new_game(game_id, players=spec.default_players, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_over and steps < 400:
            legal = state.legal_actions()
            if steps % 9 == 0:
                seen: dict[str, str] = {}
                for action in legal:
                    after = state.clone()
                    after.apply(action.id)
                    effect = _effect(after, game_id)
                    assert effect not in seen, f"{action.id} does what {seen[effect]} does"
                    seen[effect] = action.id
            state.apply(rng.choice(legal))
            steps += 1

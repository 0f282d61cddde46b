"""What the per-game tests share: the legal action ids of a state, the one strict check of a
refusal (refused with a reason, the state as it was), and the check that a game's own rollout
loop leaves the search's root as the generic loop does."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from engine.bots.ismcts import Search, SearchConfig
from engine.checks import observable
from engine.core import Action, IllegalAction, LazyRandom, State


def ids(state: State) -> list[str]:
    """The ids of the legal actions of ``state``, in their order."""
    return [a.id for a in state.legal_actions()]


def assert_refused(state: State, action: Action | str) -> str:
    """``action`` is refused in ``state`` with a reason in words, and everything observable
    about ``state`` (every seat's view, the result, the legal moves, where each card lies) is
    as it was; returns the reason."""
    before = observable(state)
    with pytest.raises(IllegalAction) as refusal:
        state.apply(action)
    assert refusal.value.message.strip(), f"{action!s} was refused without a reason"
    assert observable(state) == before, f"refusing {action!s} changed the state"
    return refusal.value.message


def assert_loop_searches_alike(
    config: SearchConfig, loop: str, positions: list[tuple[State, int]], iterations: int
) -> None:
    """A search with the game's own rollout loop (``config``'s field ``loop``:
    ``greedy_rollout`` or ``rollout_loop``) and one with the generic loop (that field None)
    give every root move the same visits and values, take the same rollout steps and choose
    alike, at each of ``positions`` (a state and the seed of the searches' rng)."""
    assert getattr(config, loop) is not None, f"the game's search has no {loop}"
    generic = replace(config, **{loop: None})
    for state, seed in positions:
        seat = state.current_player
        assert seat is not None
        searches = [Search(state, seat, random.Random(seed), c) for c in (config, generic)]
        for search in searches:
            search.step(iterations)
        own, other = (
            {k: (c.visits, c.totals) for k, c in s.root.children.items()} for s in searches
        )
        assert own == other, f"seed {seed}: the root differs with the game's {loop}"
        assert searches[0].rollout_steps == searches[1].rollout_steps > 0
        assert searches[0].best().id == searches[1].best().id


def assert_sampled_as_before(
    state: State,
    former: Callable[[State, int, random.Random], tuple[Any, ...]],
    dealt: Callable[[Any], tuple[Any, ...]],
) -> list[Any]:
    """The worlds the search's sampler (``state.sampler``) draws for the seat to move from
    ``random.Random(k)``, k = 0 and 1, are the ones the former determinize dealt:
    ``former(state, player, rng)`` gives the seed it drew for the world's chance and then
    what it dealt, which ``dealt(world)`` must equal; the rng is left in the same state and
    the seat sees the same position. Returns the worlds, for the game's own checks."""
    player = state.current_player
    assert player is not None
    sample = state.sampler(player)
    worlds = []
    for k in range(2):
        rng, former_rng = random.Random(k), random.Random(k)
        world = sample(rng)
        seed, *parts = former(state, player, former_rng)
        assert isinstance(world.rng, LazyRandom)
        assert world.rng.getrandbits(64) == random.Random(seed).getrandbits(64)
        assert dealt(world) == tuple(parts), f"rng {k}: the sampler dealt another world"
        assert rng.getstate() == former_rng.getstate()
        assert world.view(player) == state.view(player)
        worlds.append(world)
    return worlds


def namespace_unavailable(reason: object) -> None:
    """The private network namespace of the play-together tests cannot be made: skip, saying
    why, on a developer's machine; fail in CI (``tools.netns.in_ci``), where the published
    workflow must run those tests rather than pass without them."""
    from tools.netns import in_ci

    if in_ci():
        pytest.fail(f"CI must run the play-together tests, but: {reason}")
    pytest.skip(str(reason))

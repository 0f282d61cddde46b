"""What the per-game tests share: the legal action ids of a state, and the one strict check of
a refusal (refused with a reason, the state as it was)."""

from __future__ import annotations

import pytest

from engine.checks import observable
from engine.core import Action, IllegalAction, State


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


def namespace_unavailable(reason: object) -> None:
    """The private network namespace of the play-together tests cannot be made: skip, saying
    why, on a developer's machine; fail in CI (``tools.netns.in_ci``), where the published
    workflow must run those tests rather than pass without them."""
    from tools.netns import in_ci

    if in_ci():
        pytest.fail(f"CI must run the play-together tests, but: {reason}")
    pytest.skip(str(reason))

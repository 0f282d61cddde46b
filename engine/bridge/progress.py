"""A thinking bot's progress: the search's fractions done, reported to the page's callback no
more often than :data:`PROGRESS_INTERVAL_S` (see :func:`on_progress`).

>>> def search():
...     yield 0.5
...     yield 1.0
...     return "the move"
>>> seen = []
>>> on_progress(seen.append)
>>> drive(search()), seen
('the move', [0.5, 1.0])
>>> on_progress(None)
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Generator
from time import perf_counter
from typing import Any

from engine.bridge.desk import DESK
from engine.core import Action, State

PROGRESS_INTERVAL_S = 0.08
"""Least time between two progress reports of a thinking bot (see :func:`on_progress`)."""


def on_progress(callback: Callable[[float], Any] | None) -> None:
    """Report a searching bot's progress in ``bot_move`` as ``callback(fraction)``.

    ``fraction`` rises from above 0 to 1.0 (the search is done; the move follows). Reports
    are at least :data:`PROGRESS_INTERVAL_S` apart, except that the first and the last always
    go; none comes after the last, and none at all from a bot that does not search (or has
    one legal move). ``None`` (the default) turns reporting off. A callback that raises is
    logged and not called again during that move; the move is made all the same.
    """
    DESK.progress = callback


def think(bot: Any, state: State, player: int, rng: random.Random) -> Action:
    """``bot.choose(state, player, rng)``, reporting a search's progress on the way.

    A bot with ``think`` (a generator of fractions returning the action, which ``choose``
    drives the same way) is driven here, so the choice and the rng's use are the same.
    """
    thinking = getattr(bot, "think", None)
    if DESK.progress is None or thinking is None:
        return bot.choose(state, player, rng)
    return drive(thinking(state, player, rng))


def drive(thinking: Generator[float, None, Any]) -> Any:
    """Run a search generator (fractions done, then its result), reporting its progress to
    the sink throttled as :func:`on_progress` says; returns the generator's result."""
    return drive_for(thinking, None)[1]


def drive_for(thinking: Generator[float, None, Any], seconds: float | None) -> tuple[bool, Any]:
    """:func:`drive` for at most about ``seconds`` (None: to the end): ``(True, result)``
    once the generator has returned, else ``(False, fraction)``, the latest fraction it
    yielded, once ``seconds`` have passed, the generator left where it was to be driven on.
    The clock is read between the generator's steps, so a slice runs one step at least.

    >>> def search():
    ...     yield 0.5
    ...     yield 1.0
    ...     return "the move"
    >>> thinking = search()
    >>> drive_for(thinking, 0.0), drive_for(thinking, 0.0), drive_for(thinking, 0.0)
    ((False, 0.5), (False, 1.0), (True, 'the move'))
    """
    sink = DESK.progress
    deadline = None if seconds is None else perf_counter() + seconds

    def report(fraction: float) -> None:
        nonlocal sink
        if sink is None:
            return
        try:
            sink(fraction)
        except Exception as exc:  # progress is a courtesy: never lose the move over it
            sys.stderr.write(
                f"engine.bridge: the progress callback failed "
                f"({exc.__class__.__name__}: {exc}); no more progress for this move\n"
            )
            sink = None

    sent = 0.0  # the latest fraction reported
    held = None  # a later fraction the throttle held back
    sent_at = None  # when the latest report went
    while True:
        try:
            fraction = next(thinking)
        except StopIteration as done:
            if held is not None:
                report(held)
            return True, done.value
        fraction = min(1.0, max(float(fraction), sent))
        now = perf_counter()
        if sent_at is not None and (
            fraction <= sent or (now - sent_at < PROGRESS_INTERVAL_S and fraction < 1.0)
        ):
            held = fraction if fraction > sent else held
        else:
            report(fraction)
            sent, held, sent_at = fraction, None, now
        if deadline is not None and now >= deadline:
            if held is not None:
                report(held)
            return False, max(sent, held or 0.0)

"""A quicker way to build the fresh :class:`~engine.core.Action` objects games list.

Bots list the legal actions of thousands of states per decision, and some games must hand
out new Action objects every time (their ``reveals_hidden`` tells moves in the history
apart by identity), so building them is a hot path. ``Action`` is a frozen dataclass whose
``__init__`` sets each field through ``object.__setattr__``; filling the instance dict
directly takes about half the time. The result is an ordinary Action, equal to and
indistinguishable from ``Action(action_id, player, label, cards)``.

>>> fresh_action("pass", 0, "Pass") == Action("pass", 0, "Pass")
True
"""
from __future__ import annotations

from engine.core import Action


def fresh_action(action_id: str, player: int, label: str, cards: tuple[str, ...] = (),
                 _new=object.__new__) -> Action:
    action = _new(Action)
    fields = action.__dict__  # same fields, same order as the dataclass __init__ sets them
    fields["id"] = action_id
    fields["player"] = player
    fields["label"] = label
    fields["cards"] = cards
    return action

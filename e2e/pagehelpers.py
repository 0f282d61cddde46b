"""Selectors and small readers shared by the browser tests."""
from __future__ import annotations

IDLE = "[data-testid=table][data-busy=false]"
"""The table once no request is in flight and no bot is moving: the person can act."""
SIDE_ACTIONS = "[data-testid=actions] [data-action]"
HAND_CARDS = "[data-testid=hand] [data-card]"


def side_action_ids(page) -> list[str]:
    """The ids of every action the side panel offers now."""
    return page.locator(SIDE_ACTIONS).evaluate_all("nodes => nodes.map(n => n.dataset.action)")


def hand_ids(page) -> list[str]:
    """The card ids of the person's hand, in the order shown."""
    return page.locator(HAND_CARDS).evaluate_all("nodes => nodes.map(n => n.dataset.card)")

"""Progression: rising private stacks, one per suit, from a shared stream of cards.

The package's modules: ``rules`` (tables and pure functions), ``state`` (the match's
:class:`~engine.core.State`), ``bot`` (the greedy policy and the search's settings), ``words``
(a round's score explained, what a move does); ``coach.json`` is its coached round. This
module assembles them into :data:`SPEC`, the game's entry in the registry.

>>> SPEC.title, SPEC.player_counts(), SPEC.options["length"].default
('Progression', [2, 3, 4], 'six-rounds')
"""

from __future__ import annotations

from engine.core import GameSpec, Option
from engine.games.progression import bot, words
from engine.games.progression.rules import MAX_TARGET_ROUNDS, ROUNDS, STALL_LIMIT, TARGET
from engine.games.progression.state import ProgressionState

__all__ = ["SPEC"]


CLARIFICATIONS: tuple[str, ...] = (
    "You may not take back, in the same turn, the card you have just put on a public stack "
    "(as in Lost Cities, the game Progression grows from).",
    f"If {STALL_LIMIT} turns in a row go by without anyone drawing from the draw pile, the "
    "round ends as though the draw pile had run out.",
    "Equal values may sit together on a private stack: a card only has to be at least as "
    "high as everything already there, so several face cards can start a stack.",
    "The first dealer is chosen at random; the deal then passes one seat clockwise each "
    "round, and the player on the dealer's left starts.",
    "When the round ends, cards still in hand are simply lost; only private stacks score.",
    f"Playing to {TARGET}: the match ends after the round in which someone reaches {TARGET} "
    f"points, or after {MAX_TARGET_ROUNDS} rounds at most.",
    "The highest total wins the match; players tied for the highest total share the win.",
    "Cards a player takes from a public stack are known to everyone until that player plays them.",
)

SPEC = GameSpec(
    id="progression",
    title="Progression",
    min_players=2,
    max_players=4,
    default_players=3,
    variant_players=(2, 4),
    factory=lambda players, seed, options: ProgressionState(players, seed, options),
    options={
        "length": Option(
            "length",
            "six-rounds",
            ("six-rounds", "to-200"),
            "Match length",
            f"Play {ROUNDS} rounds, or play rounds until someone reaches {TARGET} points "
            f"({MAX_TARGET_ROUNDS} rounds at most).",
        ),
    },
    bot=bot.SETTINGS,
    score_lines=words.score_lines,
    purpose=words.purpose,
    summary="Build rising stacks in each suit from a shared stream of cards; "
    "long stacks score, face cards multiply.",
    clarifications=CLARIFICATIONS,
)

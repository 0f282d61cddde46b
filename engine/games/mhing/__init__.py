"""General Mhing: lay three-card runs of one suit, scored by how well they match.

The package's modules: ``rules`` (tables and pure functions), ``state`` (the match's
:class:`~engine.core.State`), ``bot`` (the greedy policy and the search's settings), ``words``
(a round's score explained, what a move does); ``coach.json`` is its coached round. This
module assembles them into :data:`SPEC`, the game's entry in the registry.

>>> SPEC.title, SPEC.player_counts(), SPEC.options["target"].choices
('General Mhing', [2, 3, 4], (14, 20))
"""

from __future__ import annotations

from engine.core import GameSpec, Option
from engine.games.mhing import bot, words
from engine.games.mhing.rules import TARGETS
from engine.games.mhing.state import MhingState

__all__ = ["SPEC"]


SPEC = GameSpec(
    id="mhing",
    title="General Mhing",
    min_players=2,
    max_players=4,
    default_players=2,
    factory=lambda players, seed, options: MhingState(players, seed, options),
    options={
        "target": Option(
            "target",
            14,
            TARGETS,
            "Match target",
            "Points that end the match: 14 (the text's closing rule) or 20 (its opening line).",
        )
    },
    bot=bot.SETTINGS,
    score_lines=words.score_lines,
    purpose=words.purpose,
    summary="Lay three-card runs of one suit; score for runs that match each other.",
    variant_players=(3, 4),
    clarifications=(
        "When the draw pile is empty, every discard except the top one is shuffled into a new "
        "draw pile; if even then there is nothing to draw, the round ends and is scored as it "
        "stands.",
        "If the draw pile would have to be rebuilt a second time with no sequence laid since "
        "the last rebuild, the round ends and is scored as it stands (otherwise a round where "
        "nobody can or will lay could go on for ever).",
        "If the round's top scores tie, the tied player with the fewest sequences wins; if they "
        "are still tied, each of them adds their score.",
        "Taking the top discard and laying the sequence it belongs to are one move, so the "
        "discard can never be taken and then kept.",
        "Ace swaps may be made before or after drawing, as many as you like, but not once you "
        "have discarded or laid a sequence (that ends your turn). Everyone sees the Ace go back "
        "to your hand.",
        "An Ace standing for itself (A-2-3) cannot be swapped; a wild Ace counts as the rank it "
        "stands for, for matching and for the high/low bonus.",
        "'In order' means one sequence starts right after the other ends (7-8-9 and 10-J-Q); "
        "there is no wrap-around from King to Ace.",
        "The high/low bonus needs at least one sequence; 7s count for both high and low.",
        "Laying the 4th sequence ends the round at once: that player draws no cards.",
        "The first round's starter is drawn by lot; the start then passes one seat clockwise "
        "each round.",
        "The match ends after the round in which someone reaches the target; the highest total "
        "wins and equal highest totals share the win.",
        "The round starts with an empty discard pile, so the first player must draw.",
    ),
)

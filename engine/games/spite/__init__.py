"""Spite and Malice: two players race to empty their pay-off piles.

The package's modules: ``rules`` (tables and pure functions), ``state`` (the match's
:class:`~engine.core.State`), ``bot`` (the greedy policy and the search's settings), ``words``
(a round's score explained, what a move does); ``coach.json`` is its coached round. This
module assembles them into :data:`SPEC`, the game's entry in the registry.

>>> SPEC.title, SPEC.player_counts(), SPEC.options["target"].choices
('Spite and Malice', [2], (0, 10, 25, 50))
"""

from __future__ import annotations

from engine.core import GameSpec, Option
from engine.games.spite import bot, words
from engine.games.spite.state import SpiteState

__all__ = ["SPEC"]


CLARIFICATIONS: tuple[str, ...] = (
    "When both upcards show the same rank, each pay-off pile is shuffled again and new upcards "
    "are compared, until one is higher; the higher upcard moves first (Kings high).",
    "A joker on a centre stack stands for whatever rank that stack needs next, Ace included.",
    "A joker may go on any discard pile except one showing a 2; on a pile it takes the rank of "
    "the nearest real card beneath it, and a pile with only jokers takes any card.",
    "Your hand is refilled to five when you play its last card during your turn, and at the end "
    "of every turn.",
    "Ending the turn without a discard is allowed. An Ace showing as your upcard or on one of "
    "your discard piles must be played before the turn ends while fewer than eight stacks "
    "stand, so an Ace may not be discarded then either.",
    "Each time a card must be drawn while the stock holds 12 or fewer cards, the completed "
    "stacks are shuffled into the stock. If the stock is empty and no stack is complete, every "
    "centre stack is shuffled into a new stock.",
    "A turn is frozen when the player had no centre play available, played nothing to the "
    "centre, drew nothing, and either could make no discard or faced a stock that can no longer "
    "be refilled (empty, with no centre cards left to rebuild it). Two frozen turns in a row, "
    "one by each player, end the game as a draw; turning down a centre play that was available "
    "never freezes a turn.",
    "A game in which 200 turns in a row, both players' turns counted together, pass without a "
    "pay-off card being played is also a draw, so that a blocked game cannot go on for ever.",
    "A drawn game scores nothing: a single game is shared, and in a match to N points a new "
    "game is dealt. After three drawn games in a row the match stops and the higher total wins "
    "(equal totals share the win).",
    "The winner scores one point per card left in the other pay-off pile, its upcard included.",
)

SPEC = GameSpec(
    id="spite",
    title="Spite and Malice",
    min_players=2,
    max_players=2,
    default_players=2,
    factory=lambda players, seed, options: SpiteState(players, seed, options),
    options={
        "target": Option(
            "target",
            0,
            (0, 10, 25, 50),
            "Match length",
            "0 plays a single game; otherwise games are dealt until a player "
            "reaches this many points (one per card left in the loser's "
            "pay-off pile); three drawn games in a row end it early.",
        )
    },
    bot=bot.SETTINGS,
    score_lines=words.score_lines,
    purpose=words.purpose,
    summary="Two players race to play out their pay-off piles onto shared stacks from Ace to King.",
    clarifications=CLARIFICATIONS,
)

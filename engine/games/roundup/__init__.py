"""Roundup: 2 to 6 players build four suits from Ace to 10 and bet on the last to close.

The package's modules: ``rules`` (tables and pure functions), ``state`` (the match's
:class:`~engine.core.State`), ``bot`` (the greedy policy and the search's settings), ``words``
(a round's score explained, what a move does); ``coach.json`` is its coached round. This
module assembles them into :data:`SPEC`, the game's entry in the registry.

>>> SPEC.title, SPEC.player_counts(), SPEC.options["target_score"].default
('Roundup', [2, 3, 4, 5, 6], 10)
"""

from __future__ import annotations

from engine.core import GameSpec, Option
from engine.games.roundup import bot, words
from engine.games.roundup.state import RoundupState

__all__ = ["SPEC"]


SPEC = GameSpec(
    id="roundup",
    title="Roundup",
    min_players=2,
    max_players=6,
    default_players=4,
    factory=lambda players, seed, options: RoundupState(players, seed, options),
    options={
        "target_score": Option(
            "target_score",
            10,
            (10, 5, 15),
            "Points to win",
            "The match ends after a round in which the highest total, at least this many points, "
            "is held by one player alone.",
        )
    },
    bot=bot.SETTINGS,
    score_lines=words.score_lines,
    purpose=words.purpose,
    summary="Build the four suits from Ace to 10 and bet on which one closes last.",
    clarifications=(
        "Bids are placed one player at a time from the dealer's left, but nobody sees another "
        "bid until every bid is in. A player without a number card makes no bid and cannot "
        "win the bid points that round.",
        "Ties for first player: each tied player secretly picks a number card from their "
        "face-down hand to turn face-up, and the lowest of these new cards starts; repeat "
        "while still tied. (The lowest card of the whole face-up hand could never split two "
        "Aces.)",
        "A tied player with no number card face-down drops out of the tie. If only one tied "
        "player has one, that player starts without turning a card; if none has, the tied "
        "player nearest the dealer's left starts.",
        "The first dealer is drawn at random; cards go out one at a time from the dealer's "
        "left, so the first players may hold one card more. The deal moves one seat to the "
        "left each round.",
        "Playing face-up cards: after each card you may play another playable face-up card or "
        "end your turn; the turn ends by itself when none is playable.",
        "Face cards may target any other player, even one with an empty face-down hand (then "
        "nothing happens). When a Queen or King finds matching cards, the target picks which "
        "one to turn up (or, for a Queen, which face card of that suit to discard).",
        "Face cards never sit in the face-up hand: one picked by a Jack, given up to a Queen "
        "or paid as a pass penalty goes to the discard pile.",
        "The point for the first empty hand also goes to a player whose hands empty with the "
        "very card that closes the last stack, or by discarding their last face card.",
        "A match that reaches the target with two or more players sharing the top score "
        "goes on for another round until one player leads alone.",
    ),
)

"""Crisps: a two-player shedding game of tricks.

The package's modules: ``rules`` (tables and pure functions), ``state`` (the match's
:class:`~engine.core.State`), ``bot`` (the greedy policy and the search's settings), ``words``
(a round's score explained, what a move does); ``coach.json`` is its coached round. This
module assembles them into :data:`SPEC`, the game's entry in the registry.

>>> SPEC.title, SPEC.player_counts(), sorted(SPEC.options)
('Crisps', [2], ['auto_skip', 'no_faceup_draw', 'special_rank_runs'])
"""

from __future__ import annotations

from engine.core import GameSpec, Option
from engine.games.crisps import bot, words
from engine.games.crisps.state import CrispsState

__all__ = ["SPEC"]


SPEC = GameSpec(
    id="crisps",
    title="Crisps",
    min_players=2,
    max_players=2,
    default_players=2,
    factory=lambda players, seed, options: CrispsState(players, seed, options),
    options={
        "no_faceup_draw": Option(
            "no_faceup_draw",
            False,
            (False, True),
            "No face-up draw",
            "No card is turned face up: after each trick both players draw blind, the "
            "trick winner first.",
        ),
        "special_rank_runs": Option(
            "special_rank_runs",
            False,
            (False, True),
            "Special rank runs",
            "The Queens become Jacks, which rank just above 10 and can be used in runs.",
        ),
        "auto_skip": Option(
            "auto_skip",
            False,
            (False, True),
            "Automatic turn skip",
            "A player who cannot possibly beat the play, judged only from the cards not yet "
            "seen by both players and from how many cards they hold, is passed automatically.",
        ),
    },
    bot=bot.SETTINGS,
    score_lines=words.score_lines,
    purpose=words.purpose,
    summary="Shed your hand in tricks of singles, pairs, runs and sets; first to win three "
    "rounds wins.",
    clarifications=(
        "The player who made the last play of a trick leads the next one.",
        "When the draw pile is empty the trick winner takes the face-up card if there is one "
        "and the passer gets nothing; with neither left, nobody draws.",
        "A round ends the moment a player plays their last card, even in the middle of a "
        "trick; there is no draw after it.",
        "A face-up card taken after a trick stays known to both players until it is played.",
        "With 'No face-up draw' no card is turned face up; after each trick the winner draws "
        "blind first, then the passer, and if only one card is left the winner gets it.",
        "With 'Special rank runs' the Jacks also keep the Queens' other role: three or four of "
        "a kind may follow any ordinary play that contains a Jack.",
        "With 'Automatic turn skip' a player is passed automatically when no combination able "
        "to beat the play can be made from the cards not yet seen publicly (all but the cards "
        "played this round and the face-up card), or when they hold too few cards for one; "
        "their own hand is never consulted, and the page shows the skip.",
    ),
)

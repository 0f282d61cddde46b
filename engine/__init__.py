"""Parlour's rules engine: five card games behind one contract.

>>> import engine
>>> state = engine.new_game("crisps", players=2, seed=7)
>>> state.current_player in (0, 1)
True
>>> replay = engine.from_record(state.to_record())
>>> replay.view(0) == state.view(0)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import (
    RECORD_FORMAT,
    Action,
    EngineError,
    GameSpec,
    IllegalAction,
    InvalidOptions,
    InvalidRecord,
    Option,
    State,
)
from engine.fairness import FairnessError, read_deal
from engine.games import load_specs

__all__ = [
    "GAMES",
    "Action",
    "EngineError",
    "GameSpec",
    "IllegalAction",
    "InvalidOptions",
    "InvalidRecord",
    "Option",
    "State",
    "new_game",
    "from_record",
    "RECORD_FORMAT",
]

GAMES: dict[str, GameSpec] = load_specs()

MAX_SEED = 2**63 - 1


def new_game(
    game: str, players: int | None = None, seed: int = 0, options: Mapping[str, Any] | None = None
) -> State:
    """A new match of ``game``; raises :class:`InvalidOptions` on bad arguments."""
    if not isinstance(game, str) or game not in GAMES:
        raise InvalidOptions(f"unknown game {game!r}; known: {', '.join(GAMES)}", "unknown_game")
    spec = GAMES[game]
    if players is None:
        players = spec.default_players
    if type(players) is not int or not spec.min_players <= players <= spec.max_players:
        raise InvalidOptions(
            f"{spec.title} is for {spec.min_players} to {spec.max_players} "
            f"players, not {players!r}",
            "bad_player_count",
        )
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise InvalidOptions(f"the seed must be a whole number from 0 to {MAX_SEED}", "bad_seed")
    return spec.factory(players, seed, spec.normalize_options(options))


_RECORD_FIELDS = {"format", "game", "players", "seed", "options", "actions", "deal", "stand_in"}
MAX_RECORD_ACTIONS = 100_000


def from_record(record: Any) -> State:
    """Replay a record (see :meth:`State.to_record`); :class:`InvalidRecord` on anything wrong."""
    if not isinstance(record, Mapping):
        raise InvalidRecord("a saved game must be an object")
    keys = set(record)
    missing = {"game", "players", "seed", "actions"} - keys
    if missing:
        raise InvalidRecord(f"the saved game lacks {', '.join(sorted(missing))}")
    extra = keys - _RECORD_FIELDS
    if extra:
        names = ", ".join(sorted(map(str, extra)))
        raise InvalidRecord(f"the saved game has unknown fields: {names}")
    version = record.get("format", RECORD_FORMAT)
    if type(version) is not int or not 1 <= version <= RECORD_FORMAT:
        raise InvalidRecord(
            f"saved-game format {version!r} is not one this version can read", "unsupported_format"
        )
    actions = record["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise InvalidRecord("the saved game's actions must be a list of action ids")
    if len(actions) > MAX_RECORD_ACTIONS:
        raise InvalidRecord(f"the saved game has {len(actions)} actions, more than any match needs")
    deal = None
    if record.get("deal") is not None:
        try:
            deal = read_deal(record["deal"])
        except FairnessError as exc:
            raise InvalidRecord(f"the saved game's deal cannot be read: {exc}") from exc
    try:
        state = new_game(record["game"], record["players"], record["seed"], record.get("options"))
    except InvalidOptions as exc:
        raise InvalidRecord(f"the saved game cannot be set up: {exc.message}") from exc
    state.deal = deal
    # The moves a computer made for a friend's lost seat; those past the record's end are
    # left out, as a record cut short (an undo, a replay's step) keeps its beginning.
    stand_in = record.get("stand_in", [])
    if not isinstance(stand_in, list) or not all(type(i) is int and i >= 0 for i in stand_in):
        raise InvalidRecord("the saved game's stand_in must list move numbers")
    state.stand_in = tuple(i for i in stand_in if i < len(actions))
    for number, action_id in enumerate(actions, 1):
        try:
            state.apply(action_id)
        except IllegalAction as exc:
            raise InvalidRecord(
                f"move {number} ({action_id[:40]!r}) is illegal: {exc.message}", "illegal_in_record"
            ) from exc
    return state

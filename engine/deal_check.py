"""Check a finished match's record: its deal against the fingerprint fixed before the
first move, a shared table's seed against every device's value, and every move's legality
(see :mod:`engine.fairness` for what the fingerprint is and what it proves).

>>> check_record("not a record").problems
["this is not a match's record"]
>>> check_record({"game": "crisps", "players": 2, "seed": 1, "actions": []}).ok
False
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.fairness import FairnessError, commitment, fingerprint, joint_seed, read_deal, short


@dataclass
class Check:
    """The outcome of :func:`check_record`: ``ok`` when nothing failed; ``lines`` say what
    holds, ``problems`` exactly what does not (both in plain words)."""

    ok: bool = True
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    fingerprint: str | None = None

    def fail(self, problem: str) -> None:
        self.ok = False
        self.problems.append(problem)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "lines": self.lines,
            "problems": self.problems,
            "fingerprint": self.fingerprint,
            "short": short(self.fingerprint) if self.fingerprint else None,
        }


def _check_values(check: Check, deal: Mapping[str, Any], seed: Any, commitments: Any) -> None:
    values = deal.get("values", [])
    if commitments is not None:
        if not values:
            check.fail(
                "this match was meant to be dealt from every device's value, but the record"
                " holds none"
            )
            return
        if not isinstance(commitments, list) or len(commitments) != len(values):
            check.fail(
                f"the record holds {len(values)} devices' values, but"
                f" {len(commitments) if isinstance(commitments, list) else 'no'} commitments"
                " were kept"
            )
            return
        for number, (commit_hash, value) in enumerate(zip(commitments, values, strict=True), 1):
            if commitment(value) != commit_hash:
                check.fail(
                    f"device {number}'s revealed value does not match the commitment it sent"
                    " before the deal"
                )
    if values:
        made = joint_seed(values)
        if made != seed:
            check.fail(
                f"the seed {seed} is not the one the {len(values)} devices' values make"
                f" ({made}): the deal came from another seed"
            )
        elif check.ok:
            check.lines.append(
                f"The seed {seed} is the one made of the {len(values)} devices' values, each"
                " revealed as committed before the deal: no device chose it."
            )


def _check_seen(check: Check, record: Mapping[str, Any], seen: Mapping[str, Any]) -> None:
    """What a friend's device was shown for its seat (``seen``: ``{seat, moves, view}``, the
    seat's view after that many moves) against what the record's replay shows that seat."""
    seat, moves, view = seen.get("seat"), seen.get("moves"), seen.get("view")
    actions = record.get("actions")
    if type(seat) is not int or type(moves) is not int or not isinstance(actions, list):
        check.fail("what this device was shown of the match cannot be read")
        return
    if not 0 <= moves <= len(actions):
        check.fail(
            f"this device was shown the match after move {moves}, but the record holds only"
            f" {len(actions)} moves"
        )
        return
    start = {k: v for k, v in record.items() if k != "deal"}
    try:
        state = engine.from_record({**start, "actions": actions[:moves]})
    except engine.InvalidRecord:
        return  # the whole replay says what is wrong
    if not 0 <= seat < state.players:
        check.fail(f"this device's seat {seat + 1} is not one of the record's")
        return
    if json.loads(json.dumps(state.view(seat))) != view:
        check.fail(
            f"the cards this device was shown for its seat after move {moves} are not the ones"
            " the record's replay deals it: the host's device dealt other cards than the"
            " record says"
        )
    elif check.ok:
        check.lines.append(
            f"The cards this device was shown for its seat after move {moves} are the ones the"
            " replay deals it from that seed."
        )


def check_record(
    record: Any,
    expected: str | None = None,
    commitments: Sequence[str] | None = None,
    scores: Sequence[Any] | None = None,
    seen: Mapping[str, Any] | None = None,
) -> Check:
    """Check a finished match's record: its deal against its fingerprint (and against
    ``expected``, the fingerprint shown at the start, when given), a shared table's seed
    against the devices' values (and their ``commitments``, when kept), every move's
    legality by replaying it, the final ``scores`` when given, and what a friend's device
    was shown for its seat (``seen``, see :func:`_check_seen`) when given."""
    check = Check()
    if not isinstance(record, Mapping):
        check.fail("this is not a match's record")
        return check
    raw = record.get("deal")
    if raw is None:
        check.fail(
            "this match was saved without a deal fingerprint, so there is nothing to check"
            " the deal against"
        )
        return check
    try:
        deal = read_deal(raw)
    except FairnessError as exc:
        check.fail(str(exc))
        return check
    check.fingerprint = deal["fingerprint"]
    game, players, seed = record.get("game"), record.get("players"), record.get("seed")
    options = record.get("options") or {}
    if not isinstance(options, Mapping):
        check.fail("the record's options are not an object")
        return check
    try:
        if not isinstance(game, str) or type(seed) is not int:
            raise engine.InvalidOptions("its game or its seed is missing")
        state = engine.new_game(game, players, seed, options)
    except engine.EngineError as exc:
        check.fail(f"the record's deal cannot be set up: {exc.message}")
        return check
    made = fingerprint(state.game_id, state.players, state.seed, state.options, deal["salt"])
    if expected is not None and expected != deal["fingerprint"]:
        check.fail(
            f"the fingerprint shown at the start was {short(str(expected))}, but this record's"
            f" is {short(deal['fingerprint'])}: it is not the match that was dealt"
        )
    if made != deal["fingerprint"]:
        check.fail(
            f"the seed, options and salt in the record make the fingerprint {short(made)}, not"
            f" {short(deal['fingerprint'])}: the game, the seed or an option was changed"
            " after the deal was fixed"
        )
    elif check.ok:
        when = "before the first move" if deal["at"] == 0 else f"after move {deal['at']}"
        check.lines.append(
            f"The fingerprint {short(made)} is that of this deal (seed {seed}, salt"
            f" {deal['salt']}), fixed {when}: every card dealt and drawn comes from that seed."
        )
    _check_values(check, deal, seed, commitments)
    if seen is not None:
        _check_seen(check, record, seen)
    try:
        replayed = engine.from_record({k: v for k, v in record.items() if k != "deal"})
    except engine.InvalidRecord as exc:
        check.fail(f"the moves do not replay: {exc.message}")
        return check
    moves = len(replayed.history)
    if not replayed.is_over:
        check.fail(f"the record stops after {moves} moves, before the match is over")
        return check
    final = replayed.result()["scores"]
    if scores is not None and list(scores) != list(final):
        check.fail(
            f"the replay ends with the scores {', '.join(map(str, final))}, not"
            f" {', '.join(map(str, scores))} as the table showed"
        )
    if check.ok:
        check.lines.append(
            f"All {moves} moves were legal, and the replay ends with the scores"
            f" {', '.join(map(str, final))}."
        )
    return check

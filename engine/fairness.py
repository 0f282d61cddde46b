"""Fair deals by proof: a deal's fingerprint fixed before the first move, the check of a
finished match's record against it, and a shared table's seed made by every device.

**The committed deal.** Every card a match deals or draws comes from its seed (the state's
``rng`` is seeded with it, and nothing else decides a card). When a match starts, the
engine draws a random *salt* and shows the *fingerprint*: the SHA-256 of one line of text
naming the game, the number of players, the options, the seed and the salt
(:func:`deal_text`). The salt keeps the seed from being found by trying every seed
against the fingerprint. The record keeps ``deal = {fingerprint, salt, at}`` (``at``: how
many moves the record held when the fingerprint was made, 0 for a match committed at its
start). Once the match is over, the seed and the salt are shown, and
:func:`engine.deal_check.check_record` recomputes the fingerprint and replays every move:
a deal changed after the start, a move that was not legal or an altered record is named.

**A shared table's seed.** Each device draws a random value (:func:`new_value`) and sends
only its hash first (:func:`commitment`); once every commitment is in, the values are
revealed, each checked against its commitment (:func:`check_reveal`), and the seed is the
hash of all of them in seat order (:func:`joint_seed`). A device that reveals last is bound
by the commitment it sent before it saw anyone's value, so no device, the dealer included,
can choose the seed or know it before the others reveal.

>>> fp = fingerprint("crisps", 2, 7, {}, "00" * 16)
>>> len(fp), short(fp) == " ".join([fp[0:4], fp[4:8], fp[8:12]])
(64, True)
>>> joint_seed([new_value(), new_value()]) < 2**31
True
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

DEAL_VERSION = "parlour-deal/1"
VALUE_VERSION = "parlour-value/1"
SEED_VERSION = "parlour-seed/1"
JOINT_SEED_BITS = 31
"""A joint seed fits the seeds challenge links carry (0 to 2**31 - 1)."""

_HEX = re.compile(r"[0-9a-f]+")
SALT_CHARS = 32
VALUE_CHARS = 32
FINGERPRINT_CHARS = 64


class FairnessError(ValueError):
    """A commitment, a reveal or a deal that cannot be taken, with the reason in words."""


def _is_hex(text: Any, length: int) -> bool:
    return isinstance(text, str) and len(text) == length and _HEX.fullmatch(text) is not None


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _random_hex(digits: int) -> str:
    # The OS's randomness (Pyodide has no ``secrets``; the browser's crypto feeds this).
    return f"{random.SystemRandom().getrandbits(digits * 4):0{digits}x}"


def new_salt() -> str:
    """A fresh random salt: 128 bits as 32 lowercase hex digits."""
    return _random_hex(SALT_CHARS)


def deal_text(game: str, players: int, seed: int, options: Mapping[str, Any], salt: str) -> str:
    """The one line a fingerprint is the SHA-256 of (any SHA-256 tool can check it):

    >>> deal_text("crisps", 2, 7, {"b": 1, "a": True}, "5a17")
    'parlour-deal/1 game=crisps players=2 options={"a":true,"b":1} seed=7 salt=5a17'
    """
    shown = json.dumps(dict(options), sort_keys=True, separators=(",", ":"))
    return f"{DEAL_VERSION} game={game} players={players} options={shown} seed={seed} salt={salt}"


def fingerprint(game: str, players: int, seed: int, options: Mapping[str, Any], salt: str) -> str:
    """The deal's fingerprint: SHA-256 of :func:`deal_text`, 64 hex digits."""
    return _sha256(deal_text(game, players, seed, options, salt))


def short(fp: str) -> str:
    """The fingerprint as the table shows it: its first 12 hex digits in three groups."""
    return " ".join(fp[i : i + 4] for i in range(0, 12, 4))


def commit(state: Any, salt: str | None = None, values: Sequence[str] = ()) -> dict[str, Any]:
    """Fix the deal of ``state`` (a :class:`engine.core.State`): its ``deal`` becomes
    ``{fingerprint, salt, at}`` (with the shared table's ``values`` when given)."""
    salt = new_salt() if salt is None else salt
    deal: dict[str, Any] = {
        "fingerprint": fingerprint(state.game_id, state.players, state.seed, state.options, salt),
        "salt": salt,
        "at": len(state.history),
    }
    if values:
        deal["values"] = list(values)
    state.deal = deal
    return deal


def read_deal(deal: Any) -> dict[str, Any]:
    """A record's ``deal`` checked for shape (for truth: :mod:`engine.deal_check`)."""
    if not isinstance(deal, Mapping):
        raise FairnessError("the deal's fingerprint must be an object")
    extra = set(deal) - {"fingerprint", "salt", "at", "values"}
    if extra:
        raise FairnessError(f"the deal has unknown fields: {', '.join(sorted(map(str, extra)))}")
    if not _is_hex(deal.get("fingerprint"), FINGERPRINT_CHARS):
        raise FairnessError("the deal's fingerprint must be 64 hex digits")
    if not _is_hex(deal.get("salt"), SALT_CHARS):
        raise FairnessError("the deal's salt must be 32 hex digits")
    at = deal.get("at", 0)
    if type(at) is not int or at < 0:
        raise FairnessError("the deal's 'at' must be a move count")
    values = deal.get("values", [])
    if not isinstance(values, list) or not all(_is_hex(v, VALUE_CHARS) for v in values):
        raise FairnessError("the shared table's values must each be 32 hex digits")
    out = {"fingerprint": deal["fingerprint"], "salt": deal["salt"], "at": at}
    if values:
        out["values"] = list(values)
    return out


def public(deal: Mapping[str, Any] | None, seed: int, over: bool) -> dict[str, Any] | None:
    """What a snapshot shows of the deal: the fingerprint while the match is played; the
    seed and the salt (and a shared table's values) too once it is over."""
    if deal is None:
        return None
    out: dict[str, Any] = {
        "fingerprint": deal["fingerprint"],
        "short": short(deal["fingerprint"]),
        "at": deal.get("at", 0),
    }
    if over:
        out.update(seed=seed, salt=deal["salt"], values=list(deal.get("values", [])))
    return out


# ----- a shared table's seed -----------------------------------------------------------------


def new_value() -> str:
    """A device's random contribution to a shared table's seed: 32 hex digits."""
    return _random_hex(VALUE_CHARS)


def commitment(value: str) -> str:
    """The hash a device sends before it reveals ``value``."""
    if not _is_hex(value, VALUE_CHARS):
        raise FairnessError("a device's value must be 32 hex digits")
    return _sha256(f"{VALUE_VERSION} {value}")


def check_reveal(commit_hash: str, value: Any) -> str:
    """``value`` when it is the one ``commit_hash`` was made of; else :class:`FairnessError`."""
    if not _is_hex(value, VALUE_CHARS):
        raise FairnessError("the revealed value is not 32 hex digits")
    if commitment(value) != commit_hash:
        raise FairnessError("the revealed value does not match the commitment sent before")
    return str(value)


def joint_seed(values: Sequence[str]) -> int:
    """The seed made of every device's value, in seat order."""
    if not values or not all(_is_hex(v, VALUE_CHARS) for v in values):
        raise FairnessError("a joint seed needs each device's value (32 hex digits)")
    digest = hashlib.sha256(f"{SEED_VERSION} {' '.join(values)}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - JOINT_SEED_BITS)


def joint_seed_from(commitments: Sequence[str], values: Sequence[Any]) -> int:
    """The joint seed once every value is revealed, each checked against its commitment
    (:class:`FairnessError` names the first one that is not)."""
    if len(commitments) != len(values):
        raise FairnessError("every device must reveal its value")
    for number, (commit_hash, value) in enumerate(zip(commitments, values, strict=True), 1):
        try:
            check_reveal(commit_hash, value)
        except FairnessError as exc:
            raise FairnessError(f"device {number}: {exc}") from exc
    return joint_seed([str(v) for v in values])

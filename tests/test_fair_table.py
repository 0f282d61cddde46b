"""A shared table's deal on the page (web/js/features/together/fair-table.js, run here under
Node.js): its commitments, joint seed and fingerprints are the engine's (engine/fairness.py), and a
friend's check of a finished match's deal names a host that dealt from another seed, a value
that is not the one committed, and a fingerprint that is not the one shown at the start; the
host refuses a reveal that is not the value its friend committed to."""

from __future__ import annotations

import json
from pathlib import Path

from engine import fairness
from tests.node_script import run_script

FAIR_TABLE = (
    Path(__file__).resolve().parent.parent
    / "web"
    / "js"
    / "features"
    / "together"
    / "fair-table.js"
)

SCRIPT = """
const { checkShared, commitment, fingerprint, jointSeed, newValue } = await import(%s);
const { values, options, checks } = JSON.parse(process.argv[1]);
console.log(JSON.stringify({
  commits: values.map(commitment),
  seed: jointSeed(values),
  fingerprint: fingerprint("crisps", 2, 12345, options, "ab".repeat(16)),
  fresh: [newValue(), newValue()],
  checks: checks.map(([kept, snap]) => checkShared(kept, snap)),
}));
"""

VALUES = ["0123456789abcdef" * 2, "fedcba9876543210" * 2]
OPTIONS = {"no_faceup_draw": True, "auto_skip": False, "special_rank_runs": False}
SALT = "5a17" * 8


def shared_match(values: list[str], seed: int, salt: str = SALT) -> tuple[dict, dict]:
    """What a friend's page kept at an honest deal (with ``SALT``), and the host's last
    snapshot revealing ``values``, ``seed`` and ``salt``."""
    honest = fairness.joint_seed(VALUES)
    kept = {
        "seats": [0, 1],
        "commits": [fairness.commitment(v) for v in VALUES],
        "names": ["Host", "Ada"],
        "fingerprint": fairness.fingerprint("crisps", 2, honest, OPTIONS, SALT),
    }
    snap = {
        "game": "crisps",
        "seats": [{}, {}],
        "options": OPTIONS,
        "deal": {"seed": seed, "salt": salt, "values": values},
    }
    return kept, snap


def test_the_page_and_the_engine_agree_and_the_friend_catches_a_changed_deal():
    honest = fairness.joint_seed(VALUES)
    other = ["1" * 32, VALUES[1]]
    checks = [
        shared_match(VALUES, honest),
        shared_match(VALUES, honest + 1),
        shared_match(other, fairness.joint_seed(other)),
        shared_match([], 77),
        shared_match(VALUES, honest, salt="00" * 16),
        (None, shared_match(VALUES, honest)[1]),
    ]
    argument = json.dumps({"values": VALUES, "options": OPTIONS, "checks": checks})
    got = run_script(FAIR_TABLE, SCRIPT, argument)
    assert got["commits"] == [fairness.commitment(v) for v in VALUES]
    assert got["seed"] == honest
    assert got["fingerprint"] == fairness.fingerprint("crisps", 2, 12345, OPTIONS, "ab" * 16)
    assert all(len(v) == 32 and int(v, 16) >= 0 for v in got["fresh"])
    assert got["fresh"][0] != got["fresh"][1]
    fair, reseeded, swapped, own_seed, resalted, unkept = got["checks"]
    assert fair["ok"] and not fair["problems"]
    assert f"The seed {honest} is the one made of all 2 devices' values" in fair["lines"][0]
    assert "fixed before the first move" in fair["lines"][1]
    assert not reseeded["ok"]
    assert (
        f"dealt from the seed {honest + 1}, not from the seed {honest}" in reseeded["problems"][0]
    )
    assert not swapped["ok"]
    assert swapped["problems"][0] == (
        "the value revealed for Host's device does not match the commitment it sent before the deal"
    )
    assert not own_seed["ok"] and "a seed of its own (77)" in own_seed["problems"][0]
    assert not resalted["ok"] and len(resalted["problems"]) == 1
    assert "the deal was changed after it was fixed" in resalted["problems"][0]
    assert not unkept["ok"] and "did not see this match dealt" in unkept["problems"][0]


REVEALS = """
const { revealProblem } = await import(%s);
const { commit, reveals } = JSON.parse(process.argv[1]);
console.log(JSON.stringify(reveals.map((value) => revealProblem("Ada", value, commit, 20000))));
"""


def test_the_host_refuses_a_value_that_is_not_the_one_committed():
    commit = fairness.commitment(VALUES[0])
    reveals = [VALUES[0], VALUES[1], "not a value", None]
    argument = json.dumps({"commit": commit, "reveals": reveals})
    honest, other, garbled, missing = run_script(FAIR_TABLE, REVEALS, argument)
    assert honest is None
    refused = "Ada's device revealed a value that does not match the commitment it sent"
    assert other == garbled == f"{refused}: the match was not dealt."
    assert missing.startswith("Ada's device did not send its share of the deal within 20 seconds")


RECORDS = """
const { recordProblems } = await import(%s);
const { checks } = JSON.parse(process.argv[1]);
console.log(JSON.stringify(checks.map(([record, snap]) => recordProblems(record, snap))));
"""


def test_a_friend_replays_only_a_record_of_the_seed_every_value_made():
    honest = fairness.joint_seed(VALUES)
    snap = shared_match(VALUES, honest)[1]
    alone = shared_match([], 77)[1]
    checks = [
        [{"game": "crisps", "seed": honest}, snap],
        [{"game": "crisps", "seed": honest + 1}, snap],
        [{"game": "spite", "seed": honest}, snap],
        [None, snap],
        [{"game": "crisps", "seed": 77}, alone],
    ]
    fair, reseeded, other_game, missing, own_seed = run_script(
        FAIR_TABLE, RECORDS, json.dumps({"checks": checks})
    )
    assert fair == own_seed == []
    assert reseeded == [
        f"the record the host's device sent deals from the seed {honest + 1}, not from the seed"
        f" {honest} every device's value makes"
    ]
    assert "another game (spite)" in other_game[0]
    assert "sent no record of the match" in missing[0]

"""The profile file's rules (web/js/features/profile-model.js, run here under Node.js): which
files are read (this version's, the older Statistics file) or refused with a reason (a newer
version, a match file, anything malformed anywhere), and statistics merged without counting the
same matches twice."""

from __future__ import annotations

import json
from pathlib import Path

from tests.node_script import run_script

MODEL = Path(__file__).resolve().parent.parent / "web" / "js" / "features" / "profile-model.js"

READ = """
import { readProfile } from %s;
console.log(JSON.stringify(JSON.parse(process.argv[1]).map((text) => readProfile(text))));
"""
MERGE = """
import { mergeStats } from %s;
const [mine, theirs] = JSON.parse(process.argv[1]);
console.log(JSON.stringify(mergeStats(mine, theirs)));
"""

LEVEL = {"played": 3, "won": 1, "streak": 0, "bestStreak": 1, "best": 5, "lowWins": False}
ENTRY = {
    "id": "crisps-1-2",
    "at": 5,
    "game": "crisps",
    "seats": [{"kind": "you"}],
    "mine": [0],
    "scores": [3, 1],
    "won": True,
}


def read(*values) -> list[dict]:
    texts = [v if isinstance(v, str) else json.dumps(v) for v in values]
    return run_script(MODEL, READ, json.dumps(texts))


def profile(**parts) -> dict:
    return {"parlour": "profile", "v": 1, "exported_at": "2025-12-01T00:00:00Z", **parts}


def test_this_versions_profile_and_the_older_statistics_file_are_read():
    stats = {"v": 1, "games": {"crisps": {"easy": LEVEL}}}
    new, old = read(
        profile(stats=stats, history={"crisps": [ENTRY]}, saves=[], settings={"sound": True}),
        {"parlour": "statistics", "v": 1, "exported": "x", "games": stats["games"]},
    )
    assert new["ok"] and not new["older"] and new["profile"]["history"]["crisps"][0] == ENTRY
    assert old == {"ok": True, "older": True, "profile": {"stats": stats}}


def test_a_newer_version_a_match_file_and_malformed_files_are_refused_with_a_reason():
    newer, match, text, empty, array, other = read(
        profile(v=2),
        {"parlour": "match", "v": 1, "record": {}},
        "{not json",
        "  ",
        [1, 2],
        {"a": 1},
    )
    assert not newer["ok"] and "newer version of Parlour (profile version 2" in newer["message"]
    assert "match file, not a profile" in match["message"]
    assert "not JSON" in text["message"] and "empty" in empty["message"]
    for refused in (newer, match, text, empty, array, other):
        assert not refused["ok"] and refused["message"].endswith("Nothing was changed.")


def test_a_profile_wrong_in_any_part_is_refused_whole():
    bad_entry = {**ENTRY, "scores": ["x"]}
    wrong = read(
        profile(history={"crisps": [ENTRY, bad_entry]}),
        profile(history={"roundup": [ENTRY]}),  # an entry under another game
        profile(stats={"v": 1, "games": {"crisps": {"easy": {**LEVEL, "won": 9}}}}),
        profile(saves=[{"game": "crisps", "data": {}}]),
        profile(files={"crisps": {"x": {"record": "no"}}}),
        profile(settings=[1]),
        profile(v="1"),
    )
    assert [w["ok"] for w in wrong] == [False] * 7
    assert "match history" in wrong[0]["message"] and "statistics" in wrong[2]["message"]


def test_statistics_merge_keeps_the_count_with_more_matches_never_the_sum():
    mine = {"v": 1, "games": {"crisps": {"easy": LEVEL, "hard": {**LEVEL, "played": 9}}}}
    theirs = {
        "v": 1,
        "games": {
            "crisps": {"easy": {**LEVEL, "played": 5, "won": 4}, "hard": LEVEL},
            "roundup": {"normal": LEVEL},
        },
    }
    out = run_script(MODEL, MERGE, json.dumps([mine, theirs]))
    assert out["games"]["crisps"]["easy"]["played"] == 5
    assert out["games"]["crisps"]["hard"]["played"] == 9
    assert out["games"]["roundup"]["normal"] == LEVEL
    again = run_script(MODEL, MERGE, json.dumps([out, out]))
    assert again == out

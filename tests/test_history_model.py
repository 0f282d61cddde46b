"""The match history's rules (web/js/features/history-model.js, run here under Node.js): an
entry from a finished match, the bounds a game's history keeps to, merging without duplicates,
the figures of the history screen, and the deal of the day's seed by the UTC date."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.node_script import run_script

MODEL = Path(__file__).resolve().parent.parent / "web" / "js" / "features" / "history-model.js"

CALL = """
import * as m from %s;
const { fn, args } = JSON.parse(process.argv[1]);
console.log(JSON.stringify(m[fn](...args) ?? null));
"""


def call(fn: str, *args):
    return run_script(MODEL, CALL, json.dumps({"fn": fn, "args": list(args)}))


def snap(scores, winners, seats=None, **more) -> dict:
    seats = seats or [{"type": "human", "name": "You"}] + [
        {"type": "bot", "level": "normal", "name": f"Bot {i}"} for i in range(1, len(scores))
    ]
    return {
        "game": "crisps",
        "title": "Crisps",
        "is_over": True,
        "practice": False,
        "seats": seats,
        "options": {},
        "moves": 40,
        "result": {"scores": scores, "winners": winners, "rounds": [{}, {}]},
        **more,
    }


def entry(i: int, won: bool = True, **more) -> dict:
    return {
        "id": f"e{i}",
        "at": 1000 + i,
        "game": "crisps",
        "seats": [{"kind": "you"}, {"kind": "bot", "level": "normal"}],
        "mine": [0],
        "scores": [3 if won else 1, 2],
        "winners": [0] if won else [1],
        "won": won,
        "margin": 1 if won else -1,
        "ms": 60_000 + i,
        **more,
    }


def test_a_finished_match_is_one_entry_with_what_the_history_shows():
    e = call(
        "entryFrom",
        snap([3, 1], [0]),
        {"aids": {"undo": True}, "startedAt": 1000, "endedAt": 61000, "seed": 42},
    )
    assert e["id"] == f"crisps-{61000:x}-42" or e["id"].startswith("crisps-")
    assert (e["won"], e["margin"], e["rounds"], e["ms"], e["seed"]) == (True, 2, 2, 60000, 42)
    assert (e["hint"], e["undo"], e["analysis"]) == (False, True, False)
    assert e["seats"][1] == {"kind": "bot", "level": "normal", "name": "Bot 1"}
    # Lower scores won: the margin is measured the other way round.
    low = call("entryFrom", snap([2, 9], [0]), {})
    assert (low["low"], low["margin"]) == (True, 7)


def test_practice_unfinished_and_personless_matches_are_not_kept():
    assert call("entryFrom", snap([3, 1], [0], practice=True), {}) is None
    assert call("entryFrom", snap([3, 1], [0], is_over=False), {}) is None
    bots = [{"type": "bot", "level": "easy"}, {"type": "bot", "level": "hard"}]
    assert call("entryFrom", snap([3, 1], [0], seats=bots), {}) is None


def test_friends_at_a_shared_table_are_kept_by_name_for_head_to_head():
    seats = [{"type": "human", "name": "Host"}, {"type": "friend", "name": "Ada"}]
    e1 = call("entryFrom", snap([1, 5], [1], seats=seats), {"endedAt": 5})
    e2 = call("entryFrom", snap([6, 5], [0], seats=seats), {"endedAt": 6})
    assert e1["seats"][1] == {"kind": "friend", "name": "Ada"}
    s = call("summarize", [e1, e2])
    assert s["friends"] == [{"name": "Ada", "played": 2, "won": 1, "lost": 1}]


MANY = """
import * as m from %s;
const one = JSON.parse(process.argv[1]);
const entries = [];
for (let i = 1004; i >= 0; i--) entries.push({ ...one, id: `e${i}`, at: 1000 + i });
console.log(JSON.stringify(m.mergeEntries(entries.slice(0, 500), entries.slice(400))));
"""


def test_a_history_keeps_the_last_thousand_and_says_which_were_dropped():
    out = run_script(MODEL, MANY, json.dumps(entry(0)))
    assert len(out["entries"]) == 1000
    assert out["dropped"] == ["e0", "e1", "e2", "e3", "e4"]
    assert out["entries"][0]["id"] == "e5" and out["entries"][-1]["id"] == "e1004"


def test_merging_keeps_one_entry_per_match_in_time_order_and_skips_bad_ones():
    mine = [entry(1), entry(3)]
    theirs = [entry(3, won=False), entry(2), {"id": "bad"}, None, entry(0)]
    out = call("mergeEntries", mine, theirs)
    assert [e["id"] for e in out["entries"]] == ["e0", "e1", "e2", "e3"]
    assert out["entries"][3]["won"] is True  # the one kept already wins
    again = call("mergeEntries", out["entries"], out["entries"])
    assert again["entries"] == out["entries"]


def test_only_the_latest_matches_keep_their_files():
    entries = [entry(i) for i in range(30)]
    files = {f"e{i}": {"record": {"game": "crisps"}} for i in range(30)}
    files["e29"] = {"no": "record"}
    kept = call("keepFiles", files, entries, 20)
    assert sorted(kept, key=lambda k: int(k[1:])) == [f"e{i}" for i in range(10, 29)]


def test_the_figures_records_streaks_and_margins():
    results = [True, True, False, True, True, True, False]
    entries = [entry(i, won) for i, won in enumerate(results)]
    s = call("summarize", entries, 3)
    assert (s["played"], s["won"], s["longest"], s["streak"], s["best"]) == (7, 5, 3, 0, 3)
    assert s["fastest"] == 60_000
    assert [round(p["rate"], 2) for p in s["series"]] == [1, 1, 0.67, 0.67, 0.67, 1, 0.67]
    assert s["margins"] == [
        {"from": -1, "to": -1, "count": 2},
        {"from": 0, "to": 0, "count": 0},
        {"from": 1, "to": 1, "count": 5},
    ]
    wide = call("marginBins", list(range(-20, 21)))
    assert len(wide) <= 8 and sum(b["count"] for b in wide) == 41


DAYS = """
import * as m from %s;
const days = JSON.parse(process.argv[1]).map((t) => m.utcDay(t));
console.log(JSON.stringify(days.map((day) => [day, m.dailySeed("roundup", day)])));
"""


def seeds_in(tz: str, instants: list[int]) -> list:
    """The UTC day and Roundup's deal of the day at each instant, on a machine set to ``tz``."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js")
    script = DAYS % json.dumps(MODEL.as_uri())
    done = subprocess.run(
        [node, "--input-type=module", "-e", script, json.dumps(instants)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TZ": tz},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_deal_of_the_day_is_the_same_everywhere_on_one_utc_day():
    day = 1_764_547_200_000  # 2025-12-01T00:00:00Z
    instants = [day, day + 3_600_000, day + 86_399_999, day + 86_400_000]
    here = seeds_in("UTC", instants)
    for tz in ("Pacific/Kiritimati", "America/Adak", "Asia/Kolkata"):
        assert seeds_in(tz, instants) == here
    assert [d for d, _ in here] == ["2025-12-01"] * 3 + ["2025-12-02"]
    assert len({s for _, s in here[:3]}) == 1 and here[3][1] != here[0][1]
    assert all(0 <= s < 2**31 for _, s in here)
    assert call("dailySeed", "roundup", "2025-12-01") != call("dailySeed", "crisps", "2025-12-01")
    assert call("dailySeed", "roundup", "2025-12-01") == here[0][1]


def test_days_are_read_strictly():
    assert call("isDay", "2025-02-28") is True
    assert [call("isDay", d) for d in ("2025-02-30", "2025-2-1", "x", "2025-13-01")] == [False] * 4

"""The page's side of the log sent in parts (web/js/held-logs.js, run here under Node.js):
what a request says the page holds, and each snapshot of a reply given back its whole log.
tests/test_bridge.py checks the bridge's side (``log_have``, ``log_from``, ``log_id``)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.node_script import run_script

HELD_LOGS = Path(__file__).resolve().parent.parent / "web" / "js" / "held-logs.js"

SCRIPT = """
import { heldLogs } from %s;
const logs = heldLogs();
const out = [];
let previous = null;
for (const reply of JSON.parse(process.argv[1])) {
  const step = { have: logs.have() };
  try {
    const taken = logs.take(reply);
    step.reply = taken;
    const snap = taken && (taken.snapshot || taken);
    // The entries already held are the same objects, not copies.
    if (previous && snap && Array.isArray(snap.log) && snap.log.length > 1) {
      step.shared = snap.log[0] === previous.log[0];
    }
    if (snap && Array.isArray(snap.log)) previous = snap;
  } catch (error) {
    step.error = error.message;
  }
  out.push(step);
}
console.log(JSON.stringify({ out, have: logs.have(), counts: logs.counts }));
"""


def entry(text: str, player: int | None = 0) -> dict:
    return {"player": player, "text": text, "round": 1}


def snap(viewer, log: list, start: int, generation: str) -> dict:
    return {"viewer": viewer, "moves": 0, "log": log, "log_from": start, "log_id": generation}


def test_each_snapshot_gets_its_whole_log_back_from_the_parts():
    a, b, c, d, x = (entry(t) for t in "abcdx")
    replies = [
        snap(0, [a, b], 0, "s.1"),
        snap(0, [c], 2, "s.1"),
        {"action": {"id": "pass"}, "snapshot": snap(0, [d], 3, "s.1")},
        # A friend's move: the host's snapshot and the friend's seat's, each its own log.
        {"action": {}, "snapshot": snap(0, [], 4, "s.1"), "seat_view": snap(1, [x], 0, "s.2")},
        snap(None, [a], 0, "s.3"),
        snap(0, [x], 0, "s.4"),  # a new generation: the whole log again
        {"error": {"code": "illegal_action", "message": "no"}},
        {"games": []},
    ]
    run = run_script(HELD_LOGS, SCRIPT, json.dumps(replies))
    out = run["out"]
    assert out[0]["have"] == {}
    assert out[0]["reply"] == {"viewer": 0, "moves": 0, "log": [a, b]}
    assert out[1]["have"] == {"0": ["s.1", 2]}
    assert out[1]["reply"]["log"] == [a, b, c] and out[1]["shared"] is True
    assert out[2]["reply"]["snapshot"]["log"] == [a, b, c, d]
    assert out[2]["reply"]["action"] == {"id": "pass"}
    assert out[3]["reply"]["snapshot"]["log"] == [a, b, c, d]
    assert out[3]["reply"]["seat_view"] == {"viewer": 1, "moves": 0, "log": [x]}
    assert out[4]["have"] == {"0": ["s.1", 4], "1": ["s.2", 1]}
    assert out[4]["reply"]["log"] == [a]
    assert out[5]["reply"]["log"] == [x]
    assert out[6]["reply"] == replies[6] and out[7]["reply"] == replies[7]
    assert run["have"] == {"0": ["s.4", 1], "1": ["s.2", 1], "null": ["s.3", 1]}
    assert run["counts"] == {"partial": 3, "whole": 4}


def test_the_end_of_a_log_the_page_does_not_hold_is_refused():
    a, b = entry("a"), entry("b")
    replies = [
        snap(0, [a], 0, "s.1"),
        snap(0, [b], 2, "s.1"),  # entries from 2, but only one is held
        snap(0, [b], 1, "s.9"),  # another generation's end
        snap(1, [b], 1, "s.1"),  # a viewer with none held
        snap(0, [b], 1, "s.1"),  # and the page goes on with what it holds
    ]
    run = run_script(HELD_LOGS, SCRIPT, json.dumps(replies))
    out = run["out"]
    for step in out[1:4]:
        assert "does not hold" in step["error"]
        assert step["have"] == {"0": ["s.1", 1]}
    assert out[4]["reply"]["log"] == [a, b]
    assert run["counts"] == {"partial": 1, "whole": 1}


CHANNEL = """
import { logReceiver, logSender } from %s;
const { sent, lost } = JSON.parse(process.argv[1]);
const host = logSender();
const friend = logReceiver();
const out = [];
sent.forEach((snap, i) => {
  if (snap === "reset") { host.reset(); return; }
  const message = JSON.parse(JSON.stringify(host.pack(snap)));  // over the data channel
  if (lost.includes(i)) { out.push({ message, lost: true }); return; }
  out.push({ message, taken: friend.unpack(message), counts: friend.counts });
});
console.log(JSON.stringify(out));
"""


def channel(sent: list, lost: tuple[int, ...] = ()) -> list[dict]:
    return run_script(HELD_LOGS, CHANNEL, json.dumps({"sent": sent, "lost": list(lost)}))


def table(log: list) -> dict:
    return {"viewer": 1, "moves": len(log), "log": log}


def test_a_friend_is_sent_the_new_entries_and_puts_the_log_back_together():
    a, b, c, d, x = (entry(t) for t in "abcdx")
    out = channel(
        [
            table([a]),
            table([a, b, c]),
            table([a, b, c]),  # nothing new: no entry sent
            table([a, b, x]),  # a move taken back and another made: the whole log
            table([a, b, x, d]),
            "reset",  # the friend asked for the whole log again
            table([a, b, x, d]),
        ]
    )
    assert [step["message"]["log_from"] for step in out] == [0, 1, 3, 0, 3, 0]
    assert [len(step["message"]["log"]) for step in out] == [1, 2, 0, 3, 1, 4]
    assert [step["message"]["log_base"] for step in out] == [0, 1, 2, 0, 4, 0]
    assert [step["taken"]["log"] for step in out] == [
        [a],
        [a, b, c],
        [a, b, c],
        [a, b, x],
        [a, b, x, d],
        [a, b, x, d],
    ]
    assert out[1]["taken"] == table([a, b, c])  # nothing of the parts is left in it
    assert out[-1]["counts"] == {"partial": 3, "whole": 3, "refused": 0}


def test_a_snapshot_that_builds_on_a_lost_one_is_refused_until_the_whole_log_comes():
    a, b, c, x, y = (entry(t) for t in "abcxy")
    out = channel(
        [table([a, b]), table([x]), table([x, y]), "reset", table([x, y]), table([x, y, c])],
        lost=(1,),  # the whole log of a new generation never arrived
    )
    assert out[1]["lost"]
    assert out[2]["message"]["log_from"] == 1 and out[2]["taken"] is None
    assert out[3]["taken"]["log"] == [x, y] and out[4]["taken"]["log"] == [x, y, c]
    assert out[4]["counts"] == {"partial": 1, "whole": 2, "refused": 1}


def test_a_whole_log_from_a_host_that_sends_no_parts_is_taken_as_it_is():
    a = entry("a")
    script = """
    import { logReceiver } from %s;
    const friend = logReceiver();
    const cases = JSON.parse(process.argv[1]);
    console.log(JSON.stringify(cases.map((snap) => friend.unpack(snap))));
    """
    taken = run_script(
        HELD_LOGS,
        script,
        json.dumps(
            [
                table([a]),
                {**table([a]), "log_from": -1, "log_seq": 1, "log_base": 0},
                {**table([a]), "log_from": 1, "log_seq": 2, "log_base": 7},
                {**table([a]), "log_from": "1", "log_seq": 2, "log_base": 0},
            ]
        ),
    )
    assert taken == [table([a]), None, None, None]

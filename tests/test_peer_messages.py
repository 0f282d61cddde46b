"""The data channel's messages (web/js/features/together/peer.js, run here under Node.js): a
message that comes before the messenger listens (the channel opened, and the other side spoke
first, while this side still waited for its own setRemoteDescription) is kept and handed to the
messenger in order, ahead of the ones that come after; bad ones are refused as any other."""

from __future__ import annotations

import json
from pathlib import Path

from tests.node_script import run_script

PEER = Path(__file__).resolve().parent.parent / "web" / "js" / "features" / "together" / "peer.js"

SCRIPT = """
import { keepEarly, messenger } from %s;
const channel = new EventTarget();
Object.assign(channel, { readyState: "open", send() {} });
const say = (data) => channel.dispatchEvent(new MessageEvent("message", { data }));
if (process.argv[1] === "kept") keepEarly(channel);
say(JSON.stringify({ t: "hello", name: "Ada" }));
say("not json");
const got = [];
const refused = [];
let talk = null;
talk = messenger(new EventTarget(), channel, {
  onMessage: (m) => got.push({ t: m.t, answerable: talk !== null }),
  onRefused: (why) => refused.push(why),
});
say(JSON.stringify({ t: "act", id: 1, action: "pass" }));
await new Promise((resolve) => setTimeout(resolve, 0));
say(JSON.stringify({ t: "why", id: 2, action: "pass" }));
console.log(JSON.stringify({ got, refused }));
"""


def run(mode: str) -> dict:
    return run_script(PEER, SCRIPT, mode)


def test_a_message_before_the_messenger_listens_is_kept_and_taken_in_order():
    out = run("kept")
    assert out["got"] == [
        {"t": "hello", "answerable": True},
        {"t": "act", "answerable": True},
        {"t": "why", "answerable": True},
    ]
    assert out["refused"] == ["a message that is not JSON"]


def test_without_keeping_them_the_first_messages_are_lost():
    # What keepEarly is for: a channel nobody listened to drops what came before.
    out = run("plain")
    assert [m["t"] for m in out["got"]] == ["act", "why"]
    assert out["refused"] == []


STATES = """
import { messenger } from %s;
const channel = new EventTarget();
Object.assign(channel, { readyState: "open", send() {} });
const pc = new EventTarget();
const go = (state) => {
  pc.connectionState = state;
  pc.dispatchEvent(new Event("connectionstatechange"));
};
const closedAt = [];
let step = "start";
messenger(pc, channel, { onMessage() {}, onClose: () => closedAt.push(step), recoverMs: 100 });
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
for (const [name, states, pause] of JSON.parse(process.argv[1])) {
  step = name;
  for (const state of states) go(state);
  await wait(pause);
}
console.log(JSON.stringify(closedAt));
"""


def closes(steps: list) -> list[str]:
    """The step at which the messenger closed, given connection states and pauses (ms)."""
    return run_script(PEER, STATES, json.dumps(steps))


def test_a_short_disconnection_is_waited_out_and_a_long_one_ends_the_link():
    # Back within the time allowed, twice: the link stays.
    assert closes([["blip", ["disconnected"], 30], ["back", ["connected"], 150]] * 2) == []
    # Still disconnected when the time is up: gone, once.
    assert closes([["ok", ["connected"], 0], ["gone", ["disconnected"], 250]]) == ["gone"]
    # Failed or closed: gone at once, whatever came before.
    assert closes([["blip", ["disconnected"], 10], ["failed", ["failed"], 0]]) == ["failed"]
    assert closes([["closed", ["closed"], 0], ["later", ["disconnected"], 250]]) == ["closed"]

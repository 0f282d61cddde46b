"""The data channel's messages (web/js/peer.js, run here under Node.js): a message that comes
before the messenger listens (the channel opened, and the other side spoke first, while this
side still waited for its own setRemoteDescription) is kept and handed to the messenger in
order, ahead of the ones that come after; bad ones are refused as any other."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

PEER = Path(__file__).resolve().parent.parent / "web" / "js" / "peer.js"

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
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js to run web/js/peer.js")
    done = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT % json.dumps(PEER.as_uri()), mode],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


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

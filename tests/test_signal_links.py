"""The codes of invitations and replies (web/js/features/together/signal-links.js, run here under
Node.js): a payload packed into bytes comes back the same from its code, for every kind of
address a browser gives (IPv4, IPv6, the "<uuid>.local" names that hide a device's address); a
code of the earlier form (compressed JSON) is still read; a code changed or cut short on its
way is refused with words for people; and a code is far shorter than the earlier form's."""

from __future__ import annotations

import json
from pathlib import Path

from tests.node_script import run_script

LINKS = Path(__file__).resolve().parent.parent / "web/js/features/together/signal-links.js"

# Encode each payload, decode it again; the earlier form is made here as that version did:
# the JSON compressed with deflate-raw, led by a CRC-32 of those bytes, in base64url.
SCRIPT = """
const links = await import(%s);
const given = JSON.parse(process.argv[1]);
const b64 = (bytes) => Buffer.from(bytes).toString("base64url");
const crc = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
};
async function earlier(payload) {
  const stream = new Blob([JSON.stringify(payload)]).stream()
    .pipeThrough(new CompressionStream("deflate-raw"));
  const body = new Uint8Array(await new Response(stream).arrayBuffer());
  const out = new Uint8Array(body.length + 4);
  new DataView(out.buffer).setUint32(0, crc(body));
  out.set(body, 4);
  return b64(out);
}
const read = async (code, kind) => {
  try { return await links.decode(code, kind, ["crisps", "roundup"]); } catch (e) {
    return { problem: e instanceof links.LinkError ? e.message : `not a LinkError: ${e}` };
  }
};
const out = [];
for (const payload of given.payloads) {
  const code = await links.encode(payload);
  const titled = payload.k === "join" ? { ...payload, t: given.titles[payload.g] } : payload;
  const old = await earlier(titled);
  const cut = code.slice(0, -3);
  const changed = code.slice(0, 20) + (code[20] === "A" ? "B" : "A") + code.slice(21);
  const other = payload.k === "join" ? "reply" : "join";
  out.push({
    code, back: await read(code, payload.k), old: old.length, oldBack: await read(old, payload.k),
    cut: await read(cut, payload.k), changed: await read(changed, payload.k),
    other: await read(code, other),
  });
}
console.log(JSON.stringify(out));
"""

FINGERPRINT = "q0bQ3mZqk1rL2xv8pF7oWc9eTgH4uYjN6sAiKdMbEzU"  # 32 bytes, base64url
SIGNAL = {"u": "aB3/", "p": "Zx9+Qw2ErT5yUi8oPa1sDf4g", "f": FINGERPRINT}
HOST_ONLY = [["5d1f0c3e-9a2b-4c7d-8e6f-1a2b3c4d5e6f.local", 54321, "h"]]
ANYWHERE = [*HOST_ONLY, ["203.0.113.7", 61000, "s"], ["2001:db8::7", 61001, "s"]]
PAYLOADS = [
    {"k": "join", "g": "crisps", "h": "Ada", "s": 1, **SIGNAL, "c": HOST_ONLY},
    {
        "k": "join",
        "g": "roundup",
        "h": "Zoë",
        "s": 3,
        "i": ["stun:stun.example.org:3478"],
        **SIGNAL,
        "c": ANYWHERE,
    },
    {"k": "join", "g": "crisps", "h": "", "s": 1, **SIGNAL, "c": [["10.0.0.2", 40000, "h"]]},
    {"k": "reply", "s": 1, "o": "aB3/", **SIGNAL, "c": HOST_ONLY},
    {
        "k": "reply",
        "s": 2,
        "o": "Qz+9",
        **SIGNAL,
        "c": [["10.0.0.3", 1, "h"], ["198.51.100.9", 65535, "r"]],
    },
]


def run() -> list[dict]:
    titles = {"crisps": "Crisps", "roundup": "Roundup"}
    return run_script(LINKS, SCRIPT, json.dumps({"payloads": PAYLOADS, "titles": titles}))


def test_every_payload_comes_back_from_its_code_and_its_earlier_form_still_reads():
    for payload, got in zip(PAYLOADS, run(), strict=True):
        signal = {"u": payload["u"], "p": payload["p"], "f": payload["f"], "c": payload["c"]}
        for back in (got["back"], got["oldBack"]):
            assert "problem" not in back, back
            assert back["kind"] == payload["k"] and back["seat"] == payload["s"], back
            assert back["signal"] == signal
            if payload["k"] == "join":
                assert back["game"] == payload["g"] and back["host"] == payload["h"]
                assert back["stun"] == payload.get("i", [])
            else:
                assert back["offer"] == payload["o"]
        assert got["back"]["kind"] == payload["k"]
        if payload["k"] == "join":
            assert got["back"]["title"] is None, "the title is not sent: the page has its own"
            assert got["oldBack"]["title"] == payload["g"].title(), (
                "an earlier code's title is read"
            )


def test_a_changed_or_cut_code_and_one_of_the_other_kind_are_refused_in_words():
    for got in run():
        assert got["cut"]["problem"] in (
            "it was changed or cut short on its way",
            "it is not complete",
        )
        assert got["changed"]["problem"] == "it was changed or cut short on its way"
        assert got["other"]["problem"] in (
            "it is not an invitation to a table",
            "it is not a reply to an invitation",
        )


def test_a_code_is_far_shorter_than_the_earlier_forms():
    for payload, got in zip(PAYLOADS, run(), strict=True):
        assert len(got["code"]) < 0.6 * got["old"], (payload, len(got["code"]), got["old"])
    # An invitation with one hidden address: 93 bytes, fingerprint 32 of them.
    assert len(run()[0]["code"]) == 124

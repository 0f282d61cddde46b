// Invitations and replies as links: the signalling of a shared match, with no server.
//
// A WebRTC session description for a data channel is mostly boilerplate; what differs between
// two connections is the ICE user fragment and password, the DTLS certificate's fingerprint
// and the candidate addresses. Only those travel (a "signal"), and each side rebuilds the
// description around them (sdpFor; the setup role follows from the kind: the invitation is
// the offer, the reply the answer). A signal with its context is packed into bytes (see
// pack), led by a CRC-32 of them, and written in base64url:
//   invitation: <page>#join=<code>    {k: "join", g: game id, s: seat, h: host, i?: [stun], ...signal}
//   reply:      <page>#reply=<code>   {k: "reply", s: seat, o: the offer's ufrag, ...signal}
//   signal:     {u: ice-ufrag, p: ice-pwd, f: sha-256 fingerprint (base64), c: [[address, port, "h"|"s"|"r"]]}
// The game's title is not sent: the friend's page has it from its own list of games. An
// invitation is about 120 characters of code where the JSON, compressed, took about 280.
// Codes of the earlier form (that JSON, compressed with deflate-raw) are still read.
// The code lives in the URL's fragment, which a browser never sends to the web host.
// Reading is strict and capped (MAX_CODE_CHARS of text, MAX_JSON_BYTES once decompressed):
// anything malformed, tampered with, cut short or too large is a LinkError with words for people.

import { MAX_NAME } from "../../read-snapshot.js";

export const MAX_CODE_CHARS = 3000;
export const MAX_JSON_BYTES = 4096;
const MAX_CANDIDATES = 8;

export class LinkError extends Error {}

// ----- base64url, and the earlier form's decompression -------------------------------------------------------------

function toBase64Url(bytes) {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(code) {
  if (!/^[A-Za-z0-9_-]+$/.test(code)) throw new LinkError("it has characters that no link of ours has");
  const text = code.replace(/-/g, "+").replace(/_/g, "/");
  let raw;
  try { raw = atob(text + "=".repeat((4 - (text.length % 4)) % 4)); } catch { throw new LinkError("it is not complete"); }
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** Inflate at most MAX_JSON_BYTES: a bigger result stops there (a "zip bomb" costs nothing). */
async function inflate(bytes) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const parts = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_JSON_BYTES) {
        reader.cancel().catch(() => undefined);
        throw new LinkError("it is far larger than any link of ours");
      }
      parts.push(value);
    }
  } catch (error) {
    if (error instanceof LinkError) throw error;
    throw new LinkError("it is damaged or cut short");
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const part of parts) { all.set(part, at); at += part.byteLength; }
  try { return new TextDecoder("utf-8", { fatal: true }).decode(all); } catch { throw new LinkError("it is damaged"); }
}

// ----- signals --------------------------------------------------------------------------------

const TYPES = { host: "h", srflx: "s", relay: "r" };
const TYPE_NAMES = { h: "host", s: "srflx", r: "relay" };
const PRIORITY = { h: 2122260223, s: 1686052607, r: 41885439 };

/** The parts of a local description that the other side needs. */
export function signalOf(sdp) {
  const line = (name) => {
    const found = sdp.split(/\r?\n/).find((l) => l.startsWith(`a=${name}:`));
    return found ? found.slice(name.length + 3).trim() : "";
  };
  const fingerprint = line("fingerprint").split(" ");
  if (fingerprint[0].toLowerCase() !== "sha-256") throw new Error("the browser gave no sha-256 fingerprint");
  const bytes = Uint8Array.from(fingerprint[1].split(":").map((x) => parseInt(x, 16)));
  const candidates = [];
  for (const l of sdp.split(/\r?\n/)) {
    if (!l.startsWith("a=candidate:")) continue;
    const f = l.slice(12).split(" ");
    // foundation component protocol priority address port "typ" type ...: UDP, first component
    if (f[1] !== "1" || f[2].toLowerCase() !== "udp" || !TYPES[f[7]]) continue;
    candidates.push([f[4], Number(f[5]), TYPES[f[7]]]);
  }
  return { u: line("ice-ufrag"), p: line("ice-pwd"), f: toBase64Url(bytes), c: candidates.slice(0, MAX_CANDIDATES) };
}

/** A whole session description for the data channel around a signal; `setup`: "actpass"
 * (an offer) or "active" (the answer). */
export function sdpFor(signal, setup) {
  const fingerprint = [...fromBase64Url(signal.f)].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
  const lines = [
    "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0", "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
  ];
  signal.c.forEach(([address, port, type], i) => {
    const related = type === "h" ? "" : " raddr 0.0.0.0 rport 0";
    lines.push(`a=candidate:${i + 1} 1 udp ${PRIORITY[type] - i} ${address} ${port} typ ${TYPE_NAMES[type]}${related}`);
  });
  lines.push(`a=ice-ufrag:${signal.u}`, `a=ice-pwd:${signal.p}`, "a=ice-options:trickle",
    `a=fingerprint:sha-256 ${fingerprint}`, `a=setup:${setup}`, "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144");
  return lines.join("\r\n") + "\r\n";
}

// ----- codes and links ------------------------------------------------------------------------

// A CRC-32 of the compressed bytes leads them, so that a code altered on its way (a character
// changed, a piece lost) is told apart from one that inflates to something else by chance.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function withCheck(bytes) {
  const out = new Uint8Array(bytes.length + 4);
  new DataView(out.buffer).setUint32(0, crc32(bytes));
  out.set(bytes, 4);
  return out;
}

function checked(bytes) {
  if (bytes.length < 5 || new DataView(bytes.buffer, bytes.byteOffset).getUint32(0) !== crc32(bytes.subarray(4))) {
    throw new LinkError("it was changed or cut short on its way");
  }
  return bytes.subarray(4);
}

// ----- packing: the payload as bytes ---------------------------------------------------------
//
// byte 0: the form and kind (PACKED_JOIN, PACKED_REPLY); byte 1: the seat. Then, for an
// invitation: the game id, the host's name (UTF-8) and the STUN servers (a count, then each),
// every text led by its length in one byte; for a reply: the offer's ufrag, as an ICE text.
// Then the signal: ufrag and password as ICE texts (their length, then six bits a character
// of the base64 alphabet they are drawn from), the fingerprint's 32 bytes, and the candidates
// (a count, then each: one byte of its type and address form, the address, two bytes of port).
// An address is four bytes (IPv4), sixteen (the UUID of a browser's "<uuid>.local" name, which
// hides the device's own address) or a text (anything else, e.g. IPv6).

const PACKED_JOIN = 0x11;
const PACKED_REPLY = 0x12;
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const MDNS = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const TYPE_CODES = { h: 0, s: 1, r: 2 };
const TYPE_LETTERS = ["h", "s", "r"];

class Writer {
  constructor() { this.bytes = []; }
  byte(n) { this.bytes.push(n & 0xff); }
  raw(list) { for (const b of list) this.byte(b); }
  text(value) {
    const bytes = new TextEncoder().encode(String(value));
    if (bytes.length > 255) throw new Error("a text too long for a code");
    this.byte(bytes.length);
    this.raw(bytes);
  }
  ice(value) {
    const text = String(value);
    if (text.length > 255 || [...text].some((ch) => !B64.includes(ch))) throw new Error("an ICE text outside base64");
    this.byte(text.length);
    let bits = 0, held = 0;
    for (const ch of text) {
      held = ((held << 6) | B64.indexOf(ch)) & 0x3fff;
      bits += 6;
      while (bits >= 8) { bits -= 8; this.byte(held >> bits); }
    }
    if (bits) this.byte(held << (8 - bits));
  }
}

class Reader {
  constructor(bytes) { this.bytes = bytes; this.at = 0; }
  byte() {
    if (this.at >= this.bytes.length) throw new LinkError("it is damaged or cut short");
    return this.bytes[this.at++];
  }
  raw(n) {
    if (this.at + n > this.bytes.length) throw new LinkError("it is damaged or cut short");
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  text() {
    try { return new TextDecoder("utf-8", { fatal: true }).decode(this.raw(this.byte())); } catch (error) {
      throw error instanceof LinkError ? error : new LinkError("it is damaged");
    }
  }
  ice() {
    const length = this.byte();
    const bytes = this.raw(Math.ceil((length * 6) / 8));
    let text = "", bits = 0, held = 0, at = 0;
    while (text.length < length) {
      if (bits < 6) { held = ((held << 8) | bytes[at++]) & 0xffff; bits += 8; }
      bits -= 6;
      text += B64[(held >> bits) & 63];
    }
    return text;
  }
  done() { if (this.at !== this.bytes.length) throw new LinkError("it is damaged"); }
}

function packAddress(w, type, address) {
  const mdns = MDNS.exec(address);
  const ipv4 = IPV4.exec(address);
  if (ipv4 && ipv4.slice(1).every((n) => Number(n) <= 255)) {
    w.byte(type);
    w.raw(ipv4.slice(1).map(Number));
  } else if (mdns) {
    w.byte(type | 0x10);
    const hex = mdns.slice(1).join("");
    for (let i = 0; i < 32; i += 2) w.byte(parseInt(hex.slice(i, i + 2), 16));
  } else {
    w.byte(type | 0x20);
    w.text(address);
  }
}

function unpackAddress(r) {
  const head = r.byte();
  const type = TYPE_LETTERS[head & 0x0f];
  if (!type) throw new LinkError("its network addresses are damaged");
  const form = head >> 4;
  if (form === 0) return [type, [...r.raw(4)].join(".")];
  if (form === 1) {
    const hex = [...r.raw(16)].map((b) => b.toString(16).padStart(2, "0")).join("");
    return [type, `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}.local`];
  }
  if (form === 2) return [type, r.text()];
  throw new LinkError("its network addresses are damaged");
}

/** The payload as bytes (see above). */
export function pack(payload) {
  const w = new Writer();
  w.byte(payload.k === "join" ? PACKED_JOIN : PACKED_REPLY);
  w.byte(payload.s);
  if (payload.k === "join") {
    w.text(payload.g);
    w.text(payload.h || "");
    const stun = payload.i || [];
    w.byte(stun.length);
    for (const url of stun) w.text(url);
  } else {
    w.ice(payload.o);
  }
  w.ice(payload.u);
  w.ice(payload.p);
  const fingerprint = fromBase64Url(payload.f);
  if (fingerprint.length !== 32) throw new Error("a fingerprint is 32 bytes");
  w.raw(fingerprint);
  w.byte(payload.c.length);
  for (const [address, port, type] of payload.c) {
    packAddress(w, TYPE_CODES[type], address);
    w.byte(port >> 8);
    w.byte(port);
  }
  return Uint8Array.from(w.bytes);
}

/** The payload packed in `bytes`, in the form decode checks (JSON's short keys). */
export function unpack(bytes) {
  const r = new Reader(bytes);
  const form = r.byte();
  if (form !== PACKED_JOIN && form !== PACKED_REPLY) throw new LinkError("it is damaged");
  const value = { k: form === PACKED_JOIN ? "join" : "reply", s: r.byte() };
  if (value.k === "join") {
    value.g = r.text();
    value.h = r.text();
    const count = r.byte();
    if (count > 2) throw new LinkError("its network settings are damaged");
    if (count) value.i = Array.from({ length: count }, () => r.text());
  } else {
    value.o = r.ice();
  }
  value.u = r.ice();
  value.p = r.ice();
  value.f = toBase64Url(r.raw(32));
  const count = r.byte();
  if (count > MAX_CANDIDATES) throw new LinkError("its network addresses are damaged");
  value.c = Array.from({ length: count }, () => {
    const [type, address] = unpackAddress(r);
    const port = (r.byte() << 8) | r.byte();
    return [address, port, type];
  });
  r.done();
  return value;
}

export async function encode(payload) {
  return toBase64Url(withCheck(pack(payload)));
}

/** The payload of a code's checked bytes: packed, or (a code of the earlier form) JSON
 * compressed with deflate-raw. */
async function payloadOf(bytes) {
  if (bytes[0] === PACKED_JOIN || bytes[0] === PACKED_REPLY) return unpack(bytes);
  const json = await inflate(bytes);
  try { return JSON.parse(json); } catch { throw new LinkError("it is damaged"); }
}

const ICE_TEXT = /^[A-Za-z0-9+/]{4,256}$/;
const ADDRESS = /^(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-fA-F:]{2,39}|[0-9a-fA-F-]{8,64}\.local)$/;

function checkSignal(value) {
  if (typeof value.u !== "string" || !ICE_TEXT.test(value.u)) throw new LinkError("its connection details are damaged");
  if (typeof value.p !== "string" || !ICE_TEXT.test(value.p) || value.p.length < 22) throw new LinkError("its connection details are damaged");
  let fingerprint;
  try { fingerprint = typeof value.f === "string" ? fromBase64Url(value.f) : null; } catch { fingerprint = null; }
  if (!fingerprint || fingerprint.length !== 32) throw new LinkError("its security fingerprint is damaged");
  if (!Array.isArray(value.c) || value.c.length > MAX_CANDIDATES) throw new LinkError("its network addresses are damaged");
  for (const c of value.c) {
    if (!Array.isArray(c) || c.length !== 3 || typeof c[0] !== "string" || !ADDRESS.test(c[0])
      || !Number.isInteger(c[1]) || c[1] < 1 || c[1] > 65535 || !TYPE_NAMES[c[2]]) {
      throw new LinkError("its network addresses are damaged");
    }
  }
  if (!value.c.length) throw new LinkError("it carries no network address to reach the other device (see the advice on the invite screen)");
  return { u: value.u, p: value.p, f: value.f, c: value.c.map((c) => [c[0], c[1], c[2]]) };
}

/**
 * Read a code (or a whole link holding one) of `kind` ("join" or "reply"). Resolves to the
 * payload; rejects with a LinkError whose message completes "This ... cannot be used: ".
 * `games`: the game ids an invitation may name.
 */
export async function decode(text, kind, games = null) {
  let code = String(text || "").trim();
  const marker = `${kind}=`;
  const at = code.indexOf(`#${marker}`);
  if (at >= 0) code = code.slice(at + marker.length + 1);
  else if (code.startsWith(marker)) code = code.slice(marker.length);
  else if (/[#/:]/.test(code)) throw new LinkError(kind === "join" ? "it is not an invitation to a table" : "it is not a reply to an invitation");
  if (!code) throw new LinkError("it is empty");
  if (code.length > MAX_CODE_CHARS) throw new LinkError("it is far longer than any link of ours");
  const value = await payloadOf(checked(fromBase64Url(code)));
  if (!value || typeof value !== "object" || Array.isArray(value) || value.k !== kind) {
    throw new LinkError(kind === "join" ? "it is not an invitation to a table" : "it is not a reply to an invitation");
  }
  if (!Number.isInteger(value.s) || value.s < 0 || value.s > 5) throw new LinkError("its seat is damaged");
  const out = { kind, seat: value.s, signal: checkSignal(value) };
  if (kind === "join") {
    if (typeof value.g !== "string" || (games && !games.includes(value.g))) throw new LinkError("it names a game this page does not have");
    out.game = value.g;
    out.title = typeof value.t === "string" ? value.t.slice(0, 60) : null;   // the page's own title of the game when null
    out.host = typeof value.h === "string" ? value.h.slice(0, MAX_NAME) : "";
    // The host's STUN server for friends on another network, if chosen: its address only.
    if (value.i !== undefined && (!Array.isArray(value.i) || value.i.length > 2 || !value.i.every((u) => typeof u === "string" && /^stuns?:[A-Za-z0-9.:[\]_-]{1,200}$/.test(u)))) {
      throw new LinkError("its network settings are damaged");
    }
    out.stun = value.i || [];
  } else {
    if (typeof value.o !== "string" || !ICE_TEXT.test(value.o)) throw new LinkError("it is damaged");
    out.offer = value.o;
  }
  return out;
}

/** The page's address with `kind=code` as its fragment. */
export function linkFor(kind, code, base = window.location.origin + window.location.pathname) {
  return `${base}#${kind}=${code}`;
}

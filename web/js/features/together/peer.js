// One WebRTC data channel between the host and one friend (a star: a connection per friend).
// The host makes an offer (invite()), the friend answers it (answer()), the host takes the
// answer (complete()). No STUN server unless the host chose one: the page then contacts
// nothing but the other browser, which connects devices on the same network, even offline.
import { sdpFor, signalOf } from "./signal-links.js";

/** How long to wait for this device's network addresses. */
const GATHER_MS = 5000;
/** How long a connection may take to come up once both sides have each other's details. */
export const CONNECT_MS = 20_000;
/** How long a connection may stay "disconnected" (no answer to its checks: a busy device, a
 * network that dropped for a moment) before the other side counts as gone; WebRTC comes back
 * by itself from a short break. "failed" and "closed" end it at once. */
export const RECOVER_MS = 10_000;
/** A message from the other side larger than this is refused. */
export const MAX_MESSAGE_CHARS = 4096;
/** What a friend accepts from the host (a snapshot with a long log). */
export const MAX_HOST_MESSAGE_CHARS = 2_000_000;

function gathered(pc) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, GATHER_MS);
    function done() {
      clearTimeout(timer);
      pc.removeEventListener("icegatheringstatechange", check);
      resolve();
    }
    function check() { if (pc.iceGatheringState === "complete") done(); }
    pc.addEventListener("icegatheringstatechange", check);
  });
}

// Messages that come before a messenger listens. A channel can open, and the other side's first
// message arrive, while this side still waits for its own setRemoteDescription to resolve (the
// browser runs network events and promise resolutions from different queues): without this,
// a friend's hello could be lost, and with it their name and their seat's table.
const early = new WeakMap();

/** Keep every message `channel` receives until messenger() takes them over. */
export function keepEarly(channel) {
  const kept = [];
  const keep = (event) => kept.push(event.data);
  channel.addEventListener("message", keep);
  early.set(channel, { kept, keep });
  return channel;
}

/** The host's side: a connection with its data channel and the offer's signal. */
export async function invite(iceServers = []) {
  const pc = new RTCPeerConnection({ iceServers });
  const channel = keepEarly(pc.createDataChannel("parlour", { ordered: true }));
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  return { pc, channel, signal: signalOf(pc.localDescription.sdp) };
}

/** The host takes the friend's answer. */
export async function complete(pc, signal) {
  await pc.setRemoteDescription({ type: "answer", sdp: sdpFor(signal, "active") });
}

/** The friend's side: answer an offer; resolves to {pc, signal, channel: Promise<RTCDataChannel>}. */
export async function answer(offerSignal, iceServers = []) {
  const pc = new RTCPeerConnection({ iceServers });
  const channel = new Promise((resolve) => {
    pc.addEventListener("datachannel", (event) => resolve(keepEarly(event.channel)), { once: true });
  });
  await pc.setRemoteDescription({ type: "offer", sdp: sdpFor(offerSignal, "actpass") });
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  return { pc, channel, signal: signalOf(pc.localDescription.sdp) };
}

/** Resolves once `channel` is open; rejects after `ms` or when the connection fails. */
export function opened(pc, channel, ms = CONNECT_MS) {
  if (channel.readyState === "open") return Promise.resolve(channel);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error("timeout")), ms);
    const onState = () => { if (pc.connectionState === "failed") finish(new Error("failed")); };
    function finish(error) {
      clearTimeout(timer);
      channel.removeEventListener("open", onOpen);
      pc.removeEventListener("connectionstatechange", onState);
      if (error) reject(error); else resolve(channel);
    }
    function onOpen() { finish(null); }
    channel.addEventListener("open", onOpen);
    pc.addEventListener("connectionstatechange", onState);
  });
}

/**
 * JSON messages over an open channel. `onMessage(value)` gets each parsed object;
 * `onRefused(reason)` each message refused for its size or form; `onClose()` once, when
 * the channel closes, the connection fails, or it stays disconnected for `recoverMs`.
 */
export function messenger(pc, channel, {
  onMessage, onRefused = () => {}, onClose = () => {}, maxChars = MAX_MESSAGE_CHARS, recoverMs = RECOVER_MS,
}) {
  let closed = false;
  let recovering = 0;
  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(recovering);
    onClose();
  };
  const take = (data) => {
    if (typeof data !== "string") { onRefused("a message that is not text"); return; }
    if (data.length > maxChars) { onRefused(`a message of ${data.length} characters`); return; }
    let value;
    try { value = JSON.parse(data); } catch { onRefused("a message that is not JSON"); return; }
    if (!value || typeof value !== "object" || Array.isArray(value) || typeof value.t !== "string") {
      onRefused("a message of no known kind");
      return;
    }
    onMessage(value);
  };
  // The messages kept before (see keepEarly) are taken once the caller holds this messenger
  // (its handler may answer at once), in order, ahead of any that come meanwhile.
  const before = early.get(channel);
  let queue = before && before.kept.length ? before.kept : null;
  if (before) {
    channel.removeEventListener("message", before.keep);
    early.delete(channel);
  }
  channel.addEventListener("message", (event) => { if (queue) queue.push(event.data); else take(event.data); });
  if (queue) queueMicrotask(() => { const kept = queue; queue = null; for (const data of kept) take(data); });
  channel.addEventListener("close", close);
  pc.addEventListener("connectionstatechange", () => {
    const state = pc.connectionState;
    if (state === "failed" || state === "closed") close();
    else if (state === "disconnected") {
      if (!recovering) {
        recovering = setTimeout(() => {
          recovering = 0;
          if (pc.connectionState !== "connected") close();
        }, recoverMs);
      }
    } else if (state === "connected") {
      clearTimeout(recovering);
      recovering = 0;
    }
  });
  return {
    send(value) {
      if (closed || channel.readyState !== "open") return false;
      try { channel.send(JSON.stringify(value)); return true; } catch { return false; }
    },
    /** Text as it is (the tests' junk message). */
    sendRaw(text) {
      if (!closed && channel.readyState === "open") channel.send(text);
    },
    close() {
      try { channel.close(); pc.close(); } catch { /* gone already */ }
      close();
    },
    get closed() { return closed; },
  };
}

// The log entries the page holds, so that a snapshot need not bring the whole log each move.
//
// A snapshot's log is one viewer's (the bridge redacts it for that seat), written in
// generations: within one, entries are only added at the end; a move taken back, a seat
// renamed or another match starts a new one (engine/bridge/logs.py, LogWords). Every request says
// what the page holds (`log_have`: {viewer: [generation, count]}); the bridge then sends a
// snapshot's log from `log_from` on, under its generation `log_id`. take() gives every
// snapshot of a reply its whole log back, the earlier entries shared with the previous one,
// and drops the two fields: the rest of the page reads whole logs, as before.
//
// A long match's log runs to hundreds of entries; without this each move's snapshot carried
// all of them from the engine to the page (tens of kilobytes, made, copied and read again).

/** Whether two log entries read the same. */
export const sameEntry = (a, b) => a === b
  || (Boolean(a) && Boolean(b) && a.player === b.player && a.text === b.text && a.round === b.round);

/** A log from the first `from` entries of `held` and the `part` that follows them. */
const continued = (held, from, part) => (from > 0 ? held.slice(0, from).concat(part) : part);

/** The snapshots a bridge reply may hold: itself, a bot's move's, a friend's seat's. */
const SNAPSHOT_PLACES = [(reply) => reply, (reply) => reply.snapshot, (reply) => reply.seat_view];

export function heldLogs() {
  const logs = new Map();  // viewer as JSON text ("0", "null") -> {generation, entries}
  const counts = { partial: 0, whole: 0 };

  function merge(snap) {
    const viewer = JSON.stringify(snap.viewer ?? null);
    const from = snap.log_from;
    const generation = snap.log_id;
    const part = Array.isArray(snap.log) ? snap.log : [];
    const held = logs.get(viewer);
    if (from > 0 && (!held || held.generation !== generation || held.entries.length < from)) {
      throw new Error(`the engine sent the end of a log this page does not hold (entries from ${from})`);
    }
    const entries = continued(held ? held.entries : [], from, part);
    counts[from > 0 ? "partial" : "whole"] += 1;
    logs.set(viewer, { generation, entries });
    snap.log = entries;
    delete snap.log_from;
    delete snap.log_id;
  }

  return {
    /** What to send with a request: the log entries held, per viewer. */
    have() {
      const have = {};
      for (const [viewer, { generation, entries }] of logs) have[viewer] = [generation, entries.length];
      return have;
    },
    /** Give every snapshot in `reply` its whole log (in place); returns `reply`. */
    take(reply) {
      if (!reply || typeof reply !== "object" || reply.error) return reply;
      for (const place of SNAPSHOT_PLACES) {
        const snap = place(reply);
        if (snap && typeof snap === "object" && typeof snap.log_id === "string") merge(snap);
      }
      return reply;
    },
    /** How many snapshots came with part of their log, and with all of it. */
    get counts() { return { ...counts }; },
  };
}

// ----- between a host's page and a friend's (features/together/) -------------------------
// The host's page sends a friend's seat its snapshot on every move, over the data channel.
// The same parts: the host's side of a link remembers the log it last sent, and sends the
// entries after it when the new log begins with it (`log_from`), each message numbered
// (`log_seq`) and naming the one it builds on (`log_base`). The friend's side holds the log
// of the last message it took; a message that builds on another (one it never took) is
// refused, and the friend asks for the whole log again ({t: "resync"}).

/** The host's side of one link: pack(snap) is `snap` with only the log entries not sent yet. */
export function logSender() {
  let sent = null;
  let seq = 0;
  return {
    pack(snap) {
      const log = Array.isArray(snap.log) ? snap.log : [];
      const base = sent && log.length >= sent.log.length && sent.log.every((entry, i) => sameEntry(entry, log[i])) ? sent : null;
      seq += 1;
      sent = { log, seq };
      return { ...snap, log: base ? log.slice(base.log.length) : log, log_from: base ? base.log.length : 0, log_seq: seq, log_base: base ? base.seq : 0 };
    },
    /** Send the whole log next time (the friend asked for it). */
    reset() { sent = null; },
  };
}

/** The friend's side: unpack(snap) is `snap` with its whole log, or null when it builds on a
 * message this page did not take. A snapshot without `log_from` (from a host whose page
 * sends whole logs) is taken as it is. */
export function logReceiver() {
  let held = { log: [], seq: 0 };
  const counts = { partial: 0, whole: 0, refused: 0 };
  return {
    /** How many snapshots came with part of their log, with all of it, and were refused. */
    get counts() { return { ...counts }; },
    unpack(snap) {
      if (!snap || typeof snap !== "object" || !Array.isArray(snap.log) || snap.log_from === undefined) return snap;
      const { log_from: from, log_seq: seq, log_base: base, ...rest } = snap;
      if (!Number.isInteger(from) || from < 0 || !Number.isInteger(seq)
        || (from > 0 && (base !== held.seq || from > held.log.length))) {
        counts.refused += 1;
        return null;
      }
      const log = continued(held.log, from, snap.log);
      counts[from > 0 ? "partial" : "whole"] += 1;
      held = { log, seq };
      return { ...rest, log };
    },
  };
}

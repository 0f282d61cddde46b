// The log entries the page holds, so that a snapshot need not bring the whole log each move.
//
// A snapshot's log is one viewer's (the bridge redacts it for that seat), written in
// generations: within one, entries are only added at the end; a move taken back, a seat
// renamed or another match starts a new one (engine/bridge.py, _LogWords). Every request says
// what the page holds (`log_have`: {viewer: [generation, count]}); the bridge then sends a
// snapshot's log from `log_from` on, under its generation `log_id`. take() gives every
// snapshot of a reply its whole log back, the earlier entries shared with the previous one,
// and drops the two fields: the rest of the page reads whole logs, as before.
//
// A long match's log runs to hundreds of entries; without this each move's snapshot carried
// all of them from the engine to the page (tens of kilobytes, made, copied and read again).

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
    let entries = part;
    if (from > 0) {
      const held = logs.get(viewer);
      if (!held || held.generation !== generation || held.entries.length < from) {
        throw new Error(`the engine sent the end of a log this page does not hold (entries from ${from})`);
      }
      entries = held.entries.slice(0, from).concat(part);
      counts.partial += 1;
    } else {
      counts.whole += 1;
    }
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

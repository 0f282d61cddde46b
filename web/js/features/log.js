// The game log: every action in words, with the seat's name, grouped by round and
// scrollable. The bridge writes the words (hidden things already redacted for the viewer)
// and each entry's round; this lays them out. Used by the table and the replay.
//
// On the table an entry may also carry a note of what the move made known beyond its words
// (state.logNotes): the cards that came into the person's hand with it ("You drew the 7♠",
// read off the person's own view, so never another seat's card), and what the game's renderer
// tells of it (logNote: Roundup's bids turned up and who starts). Notes are kept with the
// saved match (`kept`), so a reload brings them back.
import { h, listen } from "../ui/dom.js";
import { cardText } from "../ui/cards.js";
import { cardsReceived, seatName } from "../read-snapshot.js";
import { isNarrow } from "../ui/table.js";
import { sameEntry } from "../held-logs.js";

// Open on a wide screen; on a narrow one a drawer, closed until the person opens it (their
// choice is kept while the page is open).
let logOpen = null;

/** The log entries of `snapshot` as [{round, entries: [{index, player, text, note}]}], in
 * order; `notes` maps an entry's index to its note. */
function logByRound(snapshot, notes) {
  const groups = [];
  (snapshot.log || []).forEach((entry, index) => {
    const round = roundOf(entry);
    let group = groups[groups.length - 1];
    if (!group || group.round !== round) { group = { round, entries: [] }; groups.push(group); }
    group.entries.push({ index, player: entry.player, text: entry.text, note: notes.get(index) || null, standIn: entry.stand_in === true });
  });
  return groups;
}

/** The notes `snapshot`'s viewer may read, by entry index (several to one entry joined). */
function notesFor(snapshot, notes) {
  const out = new Map();
  for (const n of Array.isArray(notes) ? notes : []) {
    if (!n || typeof n.text !== "string" || !Number.isInteger(n.index)) continue;
    if (n.seat !== null && n.seat !== snapshot.viewer) continue;
    out.set(n.index, out.has(n.index) ? `${out.get(n.index)}. ${n.text}` : n.text);
  }
  return out;
}

/**
 * The log panel. One `.log-list` holds a section per round (newest last); each entry reads
 * "Name: words", and its note when `opts.notes` (state.logNotes) has one for the viewer.
 * `opts.highlight` marks the entry with that index (the replay's last move); `opts.reuse`
 * (the table's own log, class `is-live`) keeps the elements of an unchanged log from one
 * render to the next.
 */
export function renderLog(snapshot, opts = {}) {
  const log = snapshot.log || [];
  const notes = notesFor(snapshot, opts.notes);
  let entries = h("p", { class: "log-empty" }, "No moves yet.");
  if (log.length) entries = opts.reuse ? reusedSections(snapshot, notes) : logSections(snapshot, notes, opts.highlight);
  const list = h("div", {
    class: ["log-list", opts.reuse && "is-live"], dataset: { testid: "log-list" }, tabindex: "0", role: "region",
    "aria-label": "Game log, oldest first",
  }, entries);
  if (log.length && opts.reuse) built.list = list;
  return h("details", {
    class: "game-log", open: logOpen ?? !isNarrow(), dataset: { testid: "log" },
    ontoggle: (event) => { if (event.target.open !== (logOpen ?? !isNarrow())) logOpen = event.target.open; },
  },
    h("summary", {}, `Game log (${log.length})`),
    // The deal's fingerprint heads the log (engine/fairness.py): fixed before the first move.
    snapshot.deal ? h("p", { class: "log-deal field-note", dataset: { testid: "log-deal" } }, `Deal fingerprint ${snapshot.deal.short}`) : null,
    list);
}

// The sections last drawn with `opts.reuse` (the table's log), and what they show. Every
// render rebuilds the page, and a match's log runs to hundreds of entries: the same elements
// move into the new page instead of being made again, and a move's new entries are added to
// them. Only from a list still on the page (the one this render replaces), so that two logs
// drawn in one render never share elements. Screens that mark up the entries after a render
// do not reuse them.
const built = { names: null, log: null, notes: null, several: false, list: null, sections: null };

/** Whether the log's rounds are titled: more than one, or one that is not the first. */
function titled(log) {
  return log.length > 0 && (roundOf(log[0]) > 1 || roundOf(log[log.length - 1]) !== roundOf(log[0]));
}

function roundOf(entry) {
  return Number.isInteger(entry.round) ? entry.round : 1;
}

/** Can the sections drawn last be kept, with `log`'s new entries added? */
function extendsBuilt(log, names, notes) {
  const old = built.log;
  if (!built.list || !built.list.isConnected || built.names !== names || !old || log.length < old.length) return false;
  if (titled(log) !== built.several) return false;
  for (let i = 0; i < old.length; i += 1) if (!sameEntry(old[i], log[i])) return false;
  // The notes of the entries already drawn are the same.
  const drawn = (map) => [...map].filter(([index]) => index < old.length);
  const before = drawn(built.notes);
  return before.length === drawn(notes).length && before.every(([index, text]) => notes.get(index) === text);
}

function reusedSections(snapshot, notes) {
  const log = snapshot.log;
  const names = JSON.stringify((snapshot.seats || []).map((_, seat) => seatName(snapshot, seat)));
  if (extendsBuilt(log, names, notes)) {
    const sections = built.sections;
    for (let index = built.log.length; index < log.length; index += 1) {
      const entry = log[index];
      const round = roundOf(entry);
      const item = entryItem(snapshot, { index, player: entry.player, text: entry.text, note: notes.get(index) || null, standIn: entry.stand_in === true });
      const last = sections[sections.length - 1];
      if (last && last.dataset.round === String(round)) last.querySelector("ol").append(item);
      else sections.push(roundSection(round, index, built.several, [item]));
    }
  } else {
    built.sections = logSections(snapshot, notes);
  }
  Object.assign(built, { names, log, notes, several: titled(log) });
  return built.sections;
}

function roundSection(round, first, several, items) {
  return h("section", { class: "log-round", dataset: { round: String(round) } },
    several ? h("h3", { class: "log-round-title" }, `Round ${round}`) : null,
    h("ol", { class: "log-entries", start: first + 1 }, items));
}

function entryItem(snapshot, e, highlight) {
  return h("li", {
    class: ["log-entry", e.index === highlight && "is-current"],
    "aria-current": e.index === highlight ? "step" : false,
    dataset: { index: String(e.index) },
  },
  h("span", { class: "log-who" }, e.player === null || e.player === undefined ? "" : seatName(snapshot, e.player) + ": "),
  e.text,
  // A move the computer made for a friend whose connection was lost (the record's stand_in).
  e.standIn ? h("span", { class: "log-stand-in", dataset: { testid: "log-stand-in" } }, " (played by the computer while they were away)") : null,
  e.note ? h("span", { class: "log-note", dataset: { testid: "log-note" } }, ` \u2014 ${e.note}`) : null);
}

function logSections(snapshot, notes, highlight) {
  const several = titled(snapshot.log || []);
  return logByRound(snapshot, notes).map((group) => roundSection(group.round, group.entries[0].index, several,
    group.entries.map((e) => entryItem(snapshot, e, highlight))));
}

// ----- notes: what a move made known beyond its words ---------------------------------------

/** "the 7♠" or "7♠ 8♥". */
function cardsWords(cards) {
  const text = cards.map(cardText).join(" ");
  return cards.length === 1 ? `the ${text}` : text;
}

/** After each new snapshot: the notes of the move it brings; after an undo, those of the
 * moves taken back go; a new table (no previous snapshot) starts with none. */
function afterSnapshot(prev, snap, move, state) {
  const log = snap.log || [];
  state.logNotes = prev ? state.logNotes.filter((n) => n && n.index < log.length) : [];
  if (!move || !log.length) return;
  const index = log.length - 1;
  const entry = log[index].text || "";
  const received = cardsReceived(prev, snap).filter((c) => !entry.includes(cardText(c)));
  if (received.length) {
    const id = String(move.id || "");
    const drew = move.player === snap.viewer && (id.startsWith("draw") || id === "take:blind");
    // Cards that came in on another seat's move are not theirs to give: only new since it.
    const text = move.player !== snap.viewer ? `new in your hand after it: ${received.map(cardText).join(" ")}`
      : `You ${drew ? "drew" : "received"} ${cardsWords(received)}`;
    state.logNotes.push({ index, seat: snap.viewer, text });
  }
  const mod = state.renderer;
  if (mod && typeof mod.logNote === "function") {
    let text = null;
    try { text = mod.logNote(move, snap, prev, (seat) => seatName(snap, seat)); } catch { /* no note */ }
    if (text) state.logNotes.push({ index, seat: null, text });
  }
}

/** After a render: keep the log scrolled to the newest entry unless the person scrolled up.
 * Placed at the next frame, not at once: reading the list's height makes the browser lay the
 * page out, and a move brings several renders in a row; the frame lays it out once. */
let pinned = true;
let lastTop = 0;
let placing = 0;
function placeScroll(root) {
  placing = 0;
  const list = root.querySelector(".log-list");
  if (!list) return;
  const current = list.querySelector(".is-current");
  if (current) {
    const top = current.offsetTop - list.clientHeight / 2;
    list.scrollTop = Math.max(0, top);
  } else if (pinned) {
    list.scrollTop = list.scrollHeight;
  } else {
    list.scrollTop = lastTop;
  }
  listen(list, "scroll", () => {
    lastTop = list.scrollTop;
    pinned = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  }, { passive: true });
}
function afterRender(root) {
  if (!placing && root.querySelector(".log-list")) placing = requestAnimationFrame(() => placeScroll(root));
}

export const feature = {
  state: { logNotes: [] },   // [{index, seat, text}]: seat null for every seat's eyes
  kept: ["logNotes"],
  panels: { side: (state) => renderLog(state.snapshot, { reuse: true, notes: state.logNotes }) },
  afterSnapshot,
  afterRender,
};

// The game log: every action in words, with the seat's name, grouped by round and
// scrollable. The bridge writes the words (hidden things already redacted for the viewer)
// and each entry's round; this only lays them out. Used by the table and the replay.
import { h } from "../ui/dom.js";
import { seatName } from "../snapshot.js";
import { isNarrow } from "../ui/table.js";

// Open on a wide screen; on a narrow one a drawer, closed until the person opens it (their
// choice is kept while the page is open).
let logOpen = null;

/** The log entries of `snapshot` as [{round, entries: [{index, player, text}]}], in order. */
function logByRound(snapshot) {
  const groups = [];
  (snapshot.log || []).forEach((entry, index) => {
    const round = Number.isInteger(entry.round) ? entry.round : 1;
    let group = groups[groups.length - 1];
    if (!group || group.round !== round) { group = { round, entries: [] }; groups.push(group); }
    group.entries.push({ index, player: entry.player, text: entry.text });
  });
  return groups;
}

/**
 * The log panel. One `.log-list` holds a section per round (newest last); each entry reads
 * "Name: words". `opts.highlight` marks the entry with that index (the replay's last move);
 * `opts.reuse` keeps the elements of an unchanged log from one render to the next.
 */
export function renderLog(snapshot, opts = {}) {
  const log = snapshot.log || [];
  let entries = h("p", { class: "log-empty" }, "No moves yet.");
  if (log.length) entries = opts.reuse ? reusedSections(snapshot) : logSections(snapshot, opts.highlight);
  const list = h("div", {
    class: "log-list", dataset: { testid: "log-list" }, tabindex: "0", role: "region",
    "aria-label": "Game log, oldest first",
  }, entries);
  if (log.length && opts.reuse) built.list = list;
  return h("details", {
    class: "game-log", open: logOpen ?? !isNarrow(), dataset: { testid: "log" },
    ontoggle: (event) => { if (event.target.open !== (logOpen ?? !isNarrow())) logOpen = event.target.open; },
  },
    h("summary", {}, `Game log (${log.length})`),
    list);
}

// The sections last drawn with `opts.reuse` (the table's log), and what they show. Every
// render rebuilds the page, and a match's log runs to hundreds of entries: when nothing in it
// changed, the same elements move into the new page instead of being made again. Only from a
// list still on the page (the one this render replaces), so that two logs drawn in one render
// never share elements. Screens that mark up the entries after a render do not reuse them.
const built = { key: null, list: null, sections: null };

function reusedSections(snapshot) {
  const names = (snapshot.seats || []).map((_, seat) => seatName(snapshot, seat));
  const key = JSON.stringify([names, snapshot.log]);
  if (built.key !== key || !built.list || !built.list.isConnected) {
    Object.assign(built, { key, sections: logSections(snapshot) });
  }
  return built.sections;
}

function logSections(snapshot, highlight) {
  const groups = logByRound(snapshot);
  const several = groups.length > 1 || (groups.length === 1 && groups[0].round > 1);
  return groups.map((group) => h("section", { class: "log-round", dataset: { round: String(group.round) } },
    several ? h("h3", { class: "log-round-title" }, `Round ${group.round}`) : null,
    h("ol", { class: "log-entries", start: group.entries[0].index + 1 }, group.entries.map((e) => h("li", {
      class: ["log-entry", e.index === highlight && "is-current"],
      "aria-current": e.index === highlight ? "step" : false,
    },
    h("span", { class: "log-who" }, e.player === null || e.player === undefined ? "" : seatName(snapshot, e.player) + ": "),
    e.text)))));
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
  list.addEventListener("scroll", () => {
    lastTop = list.scrollTop;
    pinned = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  }, { passive: true });
}
function afterRender(root) {
  if (!placing && root.querySelector(".log-list")) placing = requestAnimationFrame(() => placeScroll(root));
}

export const feature = {
  panels: { side: (state) => renderLog(state.snapshot, { reuse: true }) },
  afterRender,
};

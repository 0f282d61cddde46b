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
 * "Name: words". `opts.highlight` marks the entry with that index (the replay's last move).
 */
export function renderLog(snapshot, opts = {}) {
  const log = snapshot.log || [];
  const groups = logByRound(snapshot);
  const several = groups.length > 1 || (groups.length === 1 && groups[0].round > 1);
  const sections = groups.map((group) => h("section", { class: "log-round", dataset: { round: String(group.round) } },
    several ? h("h3", { class: "log-round-title" }, `Round ${group.round}`) : null,
    h("ol", { class: "log-entries", start: group.entries[0].index + 1 }, group.entries.map((e) => h("li", {
      class: ["log-entry", e.index === opts.highlight && "is-current"],
      "aria-current": e.index === opts.highlight ? "step" : false,
    },
    h("span", { class: "log-who" }, e.player === null || e.player === undefined ? "" : seatName(snapshot, e.player) + ": "),
    e.text)))));
  return h("details", {
    class: "game-log", open: logOpen ?? !isNarrow(), dataset: { testid: "log" },
    ontoggle: (event) => { if (event.target.open !== (logOpen ?? !isNarrow())) logOpen = event.target.open; },
  },
    h("summary", {}, `Game log (${log.length})`),
    h("div", {
      class: "log-list", dataset: { testid: "log-list" }, tabindex: "0", role: "region",
      "aria-label": "Game log, oldest first",
    }, log.length ? sections : h("p", { class: "log-empty" }, "No moves yet.")));
}

/** After a render: keep the log scrolled to the newest entry unless the person scrolled up. */
let pinned = true;
let lastTop = 0;
function afterRender(root) {
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

export const feature = {
  panels: { side: (state) => renderLog(state.snapshot) },
  afterRender,
};

// The match history: every finished match kept per game (history-model.js says what an entry
// holds and the bounds), with its match file for replay and review; the History screen per
// game: results over time, the score margin's spread, records, head to head with friends by
// name, and the matches themselves, each one tap from its replay and from the review of the
// person's moves (read from the file, the match on the table left as it was). Kept in
// localStorage through storage.js: parlour.history.<game> (the entries) and
// parlour.history-files.<game> (the latest files).
import { h, button } from "../ui/dom.js";
import * as storage from "../storage.js";
import { announce } from "./announce.js";
import { lineChart, barChart } from "./chart.js";
import { FILES_LIMIT, HISTORY_LIMIT, entryFrom, keepFiles, mergeEntries, summarize } from "./history-model.js";

const VERSION = 1;
const LEVEL_WORDS = { random: "Random", easy: "Easy", normal: "Normal", hard: "Hard", expert: "Expert" };
// Matches listed at first on the screen; "Show more" adds as many again.
const LISTED = 20;

const entriesKey = (game) => `history.${game}`;
const filesKey = (game) => `history-files.${game}`;

/** One game's kept entries, oldest first (unreadable data reads as none). */
export function loadEntries(game) {
  const saved = storage.loadValue(entriesKey(game));
  return saved && saved.v === VERSION && Array.isArray(saved.entries) ? mergeEntries([], saved.entries).entries : [];
}

/** One game's kept match files, by entry id. */
export function loadFiles(game) {
  const saved = storage.loadValue(filesKey(game));
  return saved && saved.v === VERSION && saved.files && typeof saved.files === "object" ? saved.files : {};
}

/**
 * Keep `more` entries (and their `files`, by id) in `game`'s history: merged without
 * duplicates, within the bounds. When storage is too full for the files, the oldest files go
 * first; the entries are kept whatever happens to the files. Returns whether the entries were.
 */
export function keepEntries(game, more, files = {}) {
  const merged = mergeEntries(loadEntries(game), more);
  if (!storage.saveValue(entriesKey(game), { v: VERSION, entries: merged.entries })) return false;
  let kept = keepFiles({ ...loadFiles(game), ...files }, merged.entries);
  for (;;) {
    if (storage.saveValue(filesKey(game), { v: VERSION, files: kept })) break;
    const ids = Object.keys(kept);
    if (!ids.length) break;
    const order = new Map(merged.entries.map((e, i) => [e.id, i]));
    ids.sort((a, b) => order.get(a) - order.get(b));
    delete kept[ids[0]];
    kept = { ...kept };
  }
  return true;
}

/** The games with a history, in the menu's order. */
export function gamesWithHistory(games) {
  return games.filter((g) => loadEntries(g.id).length);
}

// ----- the screen ------------------------------------------------------------------------------

function when(ms) {
  const d = new Date(ms);
  return d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

function duration(ms) {
  if (!Number.isFinite(ms) || ms <= 0) return "\u2013";
  const minutes = Math.round(ms / 60000);
  if (minutes < 1) return "under a minute";
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function seatWords(s) {
  if (s.kind === "you") return "you";
  if (s.kind === "bot") return `${s.name ? s.name + " (" : ""}${LEVEL_WORDS[s.level] || s.level} computer${s.name ? ")" : ""}`;
  if (s.kind === "friend") return `${s.name} (friend)`;
  return s.name || "a person";
}

function optionWords(options) {
  const on = Object.entries(options || {}).map(([k, v]) => `${k.replace(/_/g, " ")}: ${v}`);
  return on.length ? on.join(", ") : "default rules";
}

function aidWords(e) {
  const used = [e.hint && "hints", e.undo && "undo", e.analysis && "analysis"].filter(Boolean);
  return used.length ? `Used ${used.join(", ")}` : "No hint, undo or analysis";
}

function records(sum) {
  const rows = [
    ["Played", String(sum.played)],
    ["Won", `${sum.won} (${sum.played ? Math.round((100 * sum.won) / sum.played) : 0}%)`],
    ["Best score", sum.best === null ? "\u2013" : String(sum.best)],
    ["Longest winning streak", String(sum.longest)],
    ["Current streak", String(sum.streak)],
    ["Fastest win", sum.fastest === null ? "\u2013" : duration(sum.fastest)],
  ];
  return h("dl", { class: "history-records", dataset: { testid: "history-records" } },
    rows.map(([k, v]) => h("div", { class: "history-record" }, h("dt", {}, k), h("dd", {}, v))));
}

function charts(sum, entries) {
  const last = sum.series.slice(-100);
  const rate = lineChart({
    testid: "chart-rate", title: `Win rate over your last ${Math.min(10, sum.played)} matches, match by match`,
    description: `${sum.won} won of ${sum.played}. The line is the share of wins among the ten matches up to each one; a filled dot is a win.`,
    points: last.map((p) => ({ n: p.n, value: p.rate * 100, won: p.won })), lo: 0, hi: 100, format: (v) => `${Math.round(v)}%`,
    head: ["Match", "Result", "Win rate (last 10)"],
    rows: last.map((p) => [p.n, p.won ? "won" : "lost", `${Math.round(p.rate * 100)}%`]),
  });
  const scored = last.filter((p) => p.score !== null);
  const lo = Math.min(0, ...scored.map((p) => p.score));
  const hi = Math.max(1, ...scored.map((p) => p.score));
  const scores = lineChart({
    testid: "chart-scores", title: "Your final score, match by match",
    description: sum.best === null ? "No scores yet." : `Best ${sum.best}${sum.low ? " (lower is better in this game)" : ""}.`,
    points: scored.map((p) => ({ n: p.n, value: p.score, won: p.won })), lo, hi, whole: true, format: (v) => String(v),
    head: ["Match", "Date", "Your score", "Margin"],
    rows: scored.map((p) => [p.n, new Date(p.at).toLocaleDateString(), p.score, p.margin === null ? "\u2013" : signed(p.margin)]),
  });
  const bins = sum.margins.map((b) => ({ label: signed(b.from), range: b.from === b.to ? signed(b.from) : `${signed(b.from)} to ${signed(b.to)}`, count: b.count, good: b.from > 0 }));
  const margins = barChart({
    testid: "chart-margins", title: "How far ahead or behind you finished",
    description: "Your score against the best other player's, in points: above zero you finished ahead. Each bar counts the matches "
      + "from the margin under it to the next bar's.",
    bins, head: ["Margin", "Matches"], rows: bins.map((b) => [b.range, b.count]),
  });
  return h("div", { class: "history-charts" }, entries.length ? [rate, scores, margins] : null);
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function headToHead(sum) {
  if (!sum.friends.length) return null;
  return h("section", { class: "history-friends", dataset: { testid: "history-friends" } },
    h("h2", {}, "Head to head"),
    h("div", { class: "stats-scroll" },
      h("table", { class: "stats-table" },
        h("thead", {}, h("tr", {}, ["Friend", "Together", "You won", "They won"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, sum.friends.map((f) => h("tr", { dataset: { friend: f.name } },
          h("th", { scope: "row" }, f.name),
          h("td", { dataset: { label: "Together" } }, String(f.played)),
          h("td", { dataset: { label: "You won" } }, String(f.won)),
          h("td", { dataset: { label: "They won" } }, String(f.lost))))))));
}

function matchItem(e, files, intents) {
  const file = files[e.id];
  const scores = e.seats.map((s, i) => `${e.mine.includes(i) ? "you" : s.name || `seat ${i + 1}`} ${e.scores[i]}`);
  const others = e.seats.filter((_, i) => !e.mine.includes(i)).map(seatWords);
  return h("li", { class: "history-match", dataset: { testid: "history-match", won: String(e.won), id: e.id } },
    h("p", { class: "history-match-head" },
      h("strong", {}, e.won ? "Won" : "Lost"), ` \u00b7 ${scores.join(", ")}`, e.daily ? ` \u00b7 deal of the day ${e.daily}` : ""),
    h("p", { class: "history-match-detail" },
      `${when(e.at)} \u00b7 ${e.players} players, with ${others.join(", ")} \u00b7 ${e.rounds} round${e.rounds === 1 ? "" : "s"}, `
      + `${e.moves} moves, ${duration(e.ms)} \u00b7 ${optionWords(e.options)} \u00b7 ${aidWords(e)}`),
    file ? h("div", { class: "history-match-actions" },
      button("Replay", { class: "quiet-ink", dataset: { testid: "history-replay", focus: `replay-${e.id}` }, onclick: () => intents.historyReplay(e.game, e.id) }),
      button("Review my moves", { class: "quiet-ink", dataset: { testid: "history-review", focus: `review-${e.id}` }, onclick: () => intents.historyReview(e.game, e.id) }),
      button("Save the file", { class: "quiet-ink", dataset: { testid: "history-export" }, onclick: () => intents.exportMatch(file, e.title || null) }))
      : h("p", { class: "field-note" }, "Its match file is no longer kept (only the latest matches keep theirs)."));
}

/** The History screen (state.screen === "history") for state.historyGame. */
function renderHistory(state, intents) {
  const games = gamesWithHistory(state.games);
  const game = state.games.find((g) => g.id === state.historyGame) || games[0] || null;
  const entries = game ? loadEntries(game.id) : [];
  const files = game ? loadFiles(game.id) : {};
  const sum = summarize(entries);
  const latest = entries.slice().reverse().slice(0, state.historyShown);
  return h("section", { class: "screen history-screen", dataset: { testid: "history-page", game: game ? game.id : "" }, "aria-labelledby": "history-title" },
    h("header", { class: "screen-bar" },
      button("\u2190 Statistics", { class: "quiet", dataset: { testid: "back", focus: "back" }, onclick: intents.openStats }),
      h("h1", { id: "history-title" }, game ? `History: ${game.title}` : "History")),
    h("div", { class: "stats-panel history-panel" },
    games.length > 1 ? h("nav", { class: "history-games", "aria-label": "Games" },
      games.map((g) => button(g.title, { class: g.id === (game && game.id) ? "primary" : "quiet-ink", "aria-current": g.id === (game && game.id) ? "page" : null,
        dataset: { testid: "history-game", game: g.id, focus: `history-${g.id}` }, onclick: () => intents.openHistory(g.id) }))) : null,
    entries.length ? [
      records(sum),
      charts(sum, entries),
      headToHead(sum),
      h("section", { class: "history-list" },
        h("h2", {}, "Matches, latest first"),
        h("ol", { class: "history-matches", reversed: true }, latest.map((e) => matchItem(e, files, intents))),
        latest.length < entries.length ? button("Show more", { class: "quiet-ink", dataset: { testid: "history-more", focus: "history-more" }, onclick: intents.historyMore }) : null),
    ] : h("p", { class: "stats-empty", dataset: { testid: "history-empty" } }, "No finished matches of this game yet."),
    h("p", { class: "field-note" },
      `Kept in this browser: the last ${HISTORY_LIMIT} matches of each game (older ones are dropped, the oldest first), `
      + `and for the latest ${FILES_LIMIT} of each also the match file, for replay and review. Practice matches are not kept.`)));
}

/** The Statistics screen's way in: a History button per game that has one. */
export function historyLinks(state, intents) {
  const games = gamesWithHistory(state.games);
  if (!games.length) return null;
  return h("nav", { class: "history-links", "aria-label": "History" },
    h("h2", {}, "History and charts"),
    h("div", { class: "form-actions" }, games.map((g) => button(`${g.title} history`, {
      class: "quiet-ink", dataset: { testid: "open-history", game: g.id, focus: `open-history-${g.id}` }, onclick: () => intents.openHistory(g.id),
    }))));
}

// ----- keeping finished matches ----------------------------------------------------------------

const FRESH_AIDS = () => ({ hint: false, undo: false, analysis: false, startedAt: Date.now() });
const kept = new WeakSet();
let context = null;

/** Keep the match that has just ended: its entry now, its file once the engine gives it. */
async function keepFinished(snap, state) {
  const aids = state.historyAids || FRESH_AIDS();
  const friend = !state.source.local;
  const mine = friend ? [snap.viewer] : null;
  const daily = state.dailyPlay && state.dailyPlay.game === snap.game && state.dailyPlay.record ? state.dailyPlay.day : null;
  let record = null;
  if (!friend && context) record = await context.savedMatch();
  const seed = record && record.record && Number.isInteger(record.record.seed) ? record.record.seed : null;
  const entry = entryFrom(snap, { mine, aids, startedAt: aids.startedAt, endedAt: Date.now(), seed, daily });
  if (!entry) return;
  keepEntries(snap.game, [entry], record ? { [entry.id]: record } : {});
  state.historyLast = entry;
  if (context) context.renderSoon();
}

function intents({ state, render, intents: all }) {
  return {
    openHistory(gameId) {
      state.screen = "history";
      state.historyGame = gameId || state.historyGame;
      state.historyShown = LISTED;
      state.error = null;
      render();
    },
    historyMore() {
      state.historyShown += LISTED;
      render();
    },
    async historyReplay(gameId, id) {
      const data = loadFiles(gameId)[id];
      if (!data) return;
      const opened = await all.openReplay(data, { returnTo: "history" });
      if (!opened.ok) { announce(opened.message); render(); }
    },
    async historyReview(gameId, id) {
      const data = loadFiles(gameId)[id];
      if (!data) return;
      const opened = await all.openFileReview(data, "history");
      if (!opened.ok) { announce(opened.message); render(); }
    },
  };
}

export const feature = {
  state: {
    historyGame: null,   // the game the History screen shows
    historyShown: LISTED, // how many of its matches are listed
    historyAids: null,   // {hint, undo, analysis, startedAt} of the match on the table
    historyLast: null,   // the entry of the match that ended last
  },
  kept: ["historyAids"],
  intents,
  screens: { history: renderHistory },
  start(ctx) { context = ctx; },
  afterSnapshot(prev, snap, move, state) {
    if (!prev) { state.historyAids = FRESH_AIDS(); return; }
    if (prev.game === snap.game && snap.moves < prev.moves && state.historyAids) state.historyAids.undo = true;
    if (!snap.is_over || prev.game !== snap.game || prev.is_over) return;
    const key = state.matchSetup || snap;
    if (kept.has(key)) return;
    kept.add(key);
    keepFinished(snap, state);
  },
  afterRender(root, state) {
    const aids = state.historyAids;
    if (state.screen !== "table" || !aids || !state.snapshot || state.snapshot.is_over) return;
    // Only a hint or analysis of the position on the table counts: the last one asked for
    // in an earlier match stays in the state until another is asked for.
    const snap = state.snapshot;
    if (state.hint && state.hint.snapshot === snap) aids.hint = true;
    if (state.analysis && state.analysis.game === snap.game && state.analysis.moves === snap.moves) aids.analysis = true;
  },
};

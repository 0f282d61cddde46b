// Statistics: per game and per opponents' level, matches played and won, win rate, the
// current and best winning streaks, the best final score. Kept in localStorage (through
// storage.js); the Statistics screen shows them, exports them as a JSON file and resets them.
import { h, button } from "../ui/dom.js";
import * as storage from "../storage.js";
import { humanSeats } from "../read-snapshot.js";
import { announce } from "./announce.js";
import { historyLinks } from "./history.js";
import { lowerWins } from "./history-model.js";

const KEY = "stats";
const VERSION = 1;
const LEVEL_WORDS = { random: "Random moves", easy: "Easy", normal: "Normal", hard: "Hard", expert: "Expert",
  mixed: "Mixed levels", people: "People only (pass and play)" };

function empty() {
  return { v: VERSION, games: {} };
}

/** The stored statistics ({v, games: {game: {level: entry}}}); unreadable data starts afresh. */
export function loadStats() {
  const saved = storage.loadValue(KEY);
  if (!saved || typeof saved !== "object" || saved.v !== VERSION || !saved.games || typeof saved.games !== "object") return empty();
  return saved;
}

/** Replace the stored statistics (a profile's import, merged). */
export function saveStats(stats) {
  return storage.saveValue(KEY, stats);
}

/** Which level a match counts under: the computers' level, "mixed", or "people". */
function levelOf(seats) {
  const levels = [...new Set(seats.filter((s) => s.type === "bot").map((s) => s.level || "normal"))];
  if (!levels.length) return "people";
  return levels.length === 1 ? levels[0] : "mixed";
}

/**
 * Count a finished match. `snap` is the bridge snapshot at the end; practice matches and
 * matches without a person are not counted. Returns the updated entry or null.
 */
function recordResult(snap) {
  if (!snap || !snap.is_over || snap.practice) return null;
  const humans = humanSeats(snap);
  if (!humans.length) return null;
  const result = snap.result || {};
  const scores = (result.scores || []).map(Number);
  const winners = result.winners || [];
  const won = humans.some((i) => winners.includes(i));
  const level = levelOf(snap.seats);
  const stats = loadStats();
  const game = (stats.games[snap.game] = stats.games[snap.game] || {});
  const entry = (game[level] = game[level] || { played: 0, won: 0, streak: 0, bestStreak: 0, best: null, lowWins: null, title: snap.title });
  entry.title = snap.title;
  entry.played += 1;
  if (won) { entry.won += 1; entry.streak += 1; } else entry.streak = 0;
  entry.bestStreak = Math.max(entry.bestStreak, entry.streak);
  if (entry.lowWins === null || entry.lowWins === undefined) entry.lowWins = lowerWins(scores, winners);
  const mine = humans.length === 1 ? scores[humans[0]] : Math.max(...humans.map((i) => scores[i]));
  if (Number.isFinite(mine)) {
    if (entry.best === null || (entry.lowWins ? mine < entry.best : mine > entry.best)) entry.best = mine;
  }
  entry.last = Date.now();
  storage.saveValue(KEY, stats);
  return entry;
}


function downloadStats() {
  const data = JSON.stringify({ parlour: "statistics", exported: new Date().toISOString(), ...loadStats() }, null, 2);
  const url = URL.createObjectURL(new Blob([data], { type: "application/json" }));
  const link = h("a", { href: url, download: "parlour-statistics.json", hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A figure; data-label names it when a phone shows the rows as small cards. */
function cell(stat, label, text) {
  return h("td", { dataset: { stat, label } }, text);
}

function percent(won, played) {
  return played ? `${Math.round((100 * won) / played)}%` : "\u2013";
}

/** The Statistics screen (state.screen === "stats"); state.statsConfirm asks before a reset. */
function renderStats(state, intents) {
  const stats = loadStats();
  const order = state.games.map((g) => g.id);
  const gameIds = [...new Set([...order, ...Object.keys(stats.games)])].filter((id) => stats.games[id] && Object.keys(stats.games[id]).length);
  const titleOf = (id) => (state.games.find((g) => g.id === id) || {}).title || Object.values(stats.games[id])[0].title || id;
  const levelOrder = [...state.levels, "mixed", "people"];
  const tables = gameIds.map((id) => {
    const levels = Object.keys(stats.games[id]).sort((a, b) => levelOrder.indexOf(a) - levelOrder.indexOf(b));
    return h("section", { class: "stats-game", dataset: { statsGame: id } },
      h("h2", {}, titleOf(id)),
      h("div", { class: "stats-scroll" },
        h("table", { class: "stats-table" },
          h("thead", {}, h("tr", {}, ["Opponents", "Played", "Won", "Win rate", "Streak", "Best streak", "Best score"].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, levels.map((level) => {
            const e = stats.games[id][level];
            return h("tr", { dataset: { statsLevel: level } },
              h("th", { scope: "row" }, LEVEL_WORDS[level] || level),
              cell("played", "Played", String(e.played)),
              cell("won", "Won", String(e.won)),
              cell("rate", "Win rate", percent(e.won, e.played)),
              cell("streak", "Streak", String(e.streak)),
              cell("best-streak", "Best streak", String(e.bestStreak)),
              cell("best", "Best score", e.best === null || e.best === undefined ? "\u2013" : String(e.best)));
          })))));
  });
  const confirm = state.statsConfirm;
  return h("section", { class: "screen stats-screen", dataset: { testid: "stats-page" }, "aria-labelledby": "stats-title" },
    h("header", { class: "screen-bar" },
      button("\u2190 Menu", { class: "quiet", dataset: { testid: "back", focus: "back" }, onclick: intents.showMenu }),
      h("h1", { id: "stats-title" }, "Statistics")),
    h("div", { class: "stats-panel" },
      tables.length ? tables : h("p", { class: "stats-empty", dataset: { testid: "stats-empty" } },
        "No finished matches yet. Every match you finish is counted here (practice matches are not)."),
      historyLinks(state, intents),
      h("p", { class: "field-note" }, "Kept in this browser only. A streak counts matches won in a row."),
      confirm
        ? h("div", { class: "stats-confirm", role: "alertdialog", "aria-labelledby": "stats-confirm-text", dataset: { testid: "stats-confirm" } },
          h("p", { id: "stats-confirm-text" }, "Reset all statistics? This cannot be undone."),
          h("div", { class: "form-actions" },
            button("Yes, reset them", { class: "danger", dataset: { testid: "stats-reset-yes", focus: "stats-reset-yes" }, onclick: intents.statsResetConfirmed }),
            button("Keep them", { class: "quiet-ink", dataset: { testid: "stats-reset-no", focus: "stats-reset-no" }, onclick: intents.statsResetCancelled })))
        : h("div", { class: "form-actions" },
          button("Export as a file", { class: "quiet-ink", dataset: { testid: "stats-export", focus: "stats-export" }, onclick: downloadStats }),
          button("Reset statistics", { class: "quiet-ink", dataset: { testid: "stats-reset", focus: "stats-reset" }, disabled: !tables.length, onclick: intents.statsReset }))));
}

const counted = new WeakSet();

export const feature = {
  state: {
    statsConfirm: false,  // the Statistics screen asks before a reset
  },
  intents: ({ state, render }) => ({
    openStats() {
      state.screen = "stats";
      state.statsConfirm = false;
      state.error = null;
      render();
    },
    statsReset() { state.statsConfirm = true; render(); },
    statsResetCancelled() { state.statsConfirm = false; render(); },
    statsResetConfirmed() {
      storage.removeValue(KEY);
      state.statsConfirm = false;
      announce("Statistics reset.");
      render();
    },
  }),
  screens: { stats: renderStats },
  /** A match that has just ended is counted, once. */
  afterSnapshot(prev, snap, move, state) {
    if (!snap.is_over || !prev || prev.game !== snap.game || prev.is_over) return;
    const key = state.matchSetup || snap;
    if (!counted.has(key)) { counted.add(key); recordResult(snap); }
  },
};

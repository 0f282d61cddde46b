// The deal of the day: one per game and UTC day, the same for everyone (history-model.js's
// dailySeed), at the game's default table against the default computers. Played once "for the
// record" (no hint, no undo, no analysis until it ends: forTheRecord tells the tools), then as
// practice. The result is shared as a short text with a link that names the game, the day and
// the scores (never a card) and opens the same deal; a friend's result from such a link is
// kept and shown beside one's own. The menu lists today's deals, the done ones marked.
//
// The link: <page>#daily=<game>&date=YYYY-MM-DD&score=<n>&vs=<n>&won=1|0. Kept under
// parlour.daily: {started: {"<day>:<game>": ms}, friends: {"<day>:<game>": [{score, vs, won}]}}.
import { h, button } from "../ui/dom.js";
import * as storage from "../storage.js";
import { normalizeSetup, startParams } from "../ui/setup-model.js";
import { announce } from "./announce.js";
import { loadEntries } from "./history.js";
import { dailySeed, isDay, utcDay } from "./history-model.js";

const KEY = "daily";
const MAX_SCORE = 100_000;
// Days of friends' results and started deals kept; older ones are dropped.
const KEEP_DAYS = 60;

/** Whether the match on the table is a deal of the day played for the record, not over yet:
 * the hint, undo and analysis stay off. */
export function forTheRecord(state) {
  return Boolean(state.dailyPlay && state.dailyPlay.record && state.snapshot && !state.snapshot.is_over
    && state.snapshot.game === state.dailyPlay.game);
}

function loadDaily() {
  const saved = storage.loadValue(KEY);
  const ok = saved && typeof saved === "object" && !Array.isArray(saved);
  return { started: (ok && saved.started) || {}, friends: (ok && saved.friends) || {} };
}

function saveDaily(daily) {
  const oldest = utcDay(Date.now() - KEEP_DAYS * 86_400_000);
  const recent = (obj) => Object.fromEntries(Object.entries(obj).filter(([key]) => key.slice(0, 10) >= oldest));
  storage.saveValue(KEY, { started: recent(daily.started), friends: recent(daily.friends) });
}

/** The deal of the day's result for the record, from the history: the entry, or null. */
function recordOf(game, day) {
  return loadEntries(game).find((e) => e.daily === day) || null;
}

function bestOther(entry) {
  const others = entry.scores.filter((_, i) => !entry.mine.includes(i));
  if (!others.length) return null;
  return entry.low === true ? Math.min(...others) : Math.max(...others);
}

function resultWords(r) {
  return `${r.won ? "won" : "lost"}, ${r.score} to ${r.vs}`;
}

/** The short text and link shared for `entry`, the deal of the day of `title`. */
export function shareText(entry, title, base = window.location.origin + window.location.pathname) {
  const vs = bestOther(entry);
  const score = entry.scores[entry.mine[0]];
  const url = new URL(base);
  url.search = "";
  url.hash = `daily=${encodeURIComponent(entry.game)}&date=${entry.daily}&score=${score}&vs=${vs}&won=${entry.won ? 1 : 0}`;
  return { text: `Parlour, ${title}, deal of the day ${entry.daily}: I ${resultWords({ won: entry.won, score, vs })}. Same deal for you:`, link: url.toString() };
}

/** A deal of the day's link in `hash`: null when it is not one, {ok, game, day, result} or {ok: false, message}. */
export function parseDailyLink(hash, games, today = utcDay()) {
  const q = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  if (!q.has("daily")) return null;
  const fail = (why) => ({ ok: false, message: `This deal of the day link cannot be used: ${why}. Nothing was changed.` });
  const game = games.find((g) => g.id === q.get("daily"));
  if (!game) return fail(`there is no game called "${String(q.get("daily")).slice(0, 40)}"`);
  const day = q.get("date") || "";
  if (!isDay(day)) return fail(`"${day.slice(0, 20)}" is not a date written YYYY-MM-DD`);
  if (day > today) return fail(`its date, ${day}, has not come yet`);
  const num = (name) => {
    const text = q.get(name) || "";
    return /^-?\d{1,6}$/.test(text) && Math.abs(Number(text)) <= MAX_SCORE ? Number(text) : null;
  };
  const score = num("score");
  const vs = num("vs");
  const won = q.get("won");
  if (score === null || vs === null || (won !== "0" && won !== "1")) return fail("its score is not readable");
  return { ok: true, game: game.id, title: game.title, day, result: { score, vs, won: won === "1" } };
}

// ----- the menu's part -----------------------------------------------------------------------

function dayRow(spec, day, daily, intents) {
  const entry = recordOf(spec.id, day);
  const friends = daily.friends[`${day}:${spec.id}`] || [];
  const started = Boolean(daily.started[`${day}:${spec.id}`]);
  const mine = entry ? { won: entry.won, score: entry.scores[entry.mine[0]], vs: bestOther(entry) } : null;
  return h("li", { class: "daily-row", dataset: { testid: "daily-row", dailyGame: spec.id, done: entry ? "true" : "false" } },
    h("span", { class: "daily-game" }, spec.title,
      entry ? h("span", { class: "daily-mark", dataset: { testid: "daily-done" } }, " \u2713 done") : null),
    h("span", { class: "daily-result" },
      mine ? `You ${resultWords(mine)}` : started ? "Started: it now plays as practice" : "Not played yet",
      friends.map((f) => h("span", { class: "daily-friend", dataset: { testid: "daily-friend" } }, ` \u00b7 a friend ${resultWords(f)}`))),
    button(entry || started ? "Practise" : "Play", {
      class: "quiet", dataset: { testid: "daily-play", dailyGame: spec.id, focus: `daily-${spec.id}` },
      "aria-label": `${entry || started ? "Practise" : "Play for the record"}: the ${spec.title} deal of the day`,
      onclick: () => intents.playDaily(spec.id, day),
    }));
}

function menuPanel(state, intents) {
  const today = utcDay();
  const daily = loadDaily();
  const offer = state.dailyOffer;
  const done = state.games.filter((g) => recordOf(g.id, today));
  return h("details", { class: "daily", dataset: { testid: "daily" }, open: Boolean(offer || state.dailyError) },
    h("summary", {}, h("span", { class: "daily-title" }, `Deals of the day \u00b7 ${today}`),
      h("span", { class: "daily-summary", dataset: { testid: "daily-summary" } },
        ` \u00b7 ${done.length} of ${state.games.length} done`, done.length ? `: ${done.map((g) => `\u2713 ${g.title}`).join(", ")}` : "")),
    h("p", { class: "daily-note" }, "The same deal for everyone today (by UTC), at each game's usual table. "
      + "Played once for the record, with no hint, undo or analysis; after that, as practice."),
    state.dailyError ? h("div", { class: "error-area", role: "alert", dataset: { testid: "daily-error" } }, state.dailyError) : null,
    offer ? h("div", { class: "daily-offer", dataset: { testid: "daily-offer" } },
      h("p", {}, `A friend's ${offer.title} deal of the day of ${offer.day}: ${resultWords(offer.result)}.`),
      offer.day === today ? null : button(`Play the ${offer.day} deal (practice)`, {
        class: "quiet", dataset: { testid: "daily-offer-play", focus: "daily-offer-play" }, onclick: () => intents.playDaily(offer.game, offer.day),
      })) : null,
    h("ul", { class: "daily-list" }, state.games.map((spec) => dayRow(spec, today, daily, intents))));
}

// ----- the match-over dialog's part and the shared text ----------------------------------------

function overPanel(state, intents) {
  const play = state.dailyPlay;
  const snap = state.snapshot;
  if (!play || !play.record || !snap || !snap.is_over || snap.game !== play.game) return null;
  // Enabled once the history has kept the result (a moment after the match ends).
  return button("Share your result", { class: "quiet-ink", dataset: { testid: "daily-share", focus: "daily-share" },
    disabled: !recordOf(play.game, play.day), onclick: intents.shareDaily });
}

function shareDialog(state, intents) {
  const shown = state.dailyShared;
  if (!shown) return null;
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "daily-share-title", dataset: { testid: "daily-share-dialog" } },
    h("div", { class: "overlay-card" },
      h("h2", { id: "daily-share-title" }, "Your deal of the day"),
      h("p", { dataset: { testid: "daily-share-text" } }, shown.text),
      h("input", { type: "text", readonly: true, value: shown.link, class: "challenge-link", "aria-label": "The link to the same deal",
        dataset: { testid: "daily-share-link", focus: "daily-share-link" }, onfocus: (e) => e.target.select() }),
      shown.friends.length ? h("p", { dataset: { testid: "daily-share-friends" } }, shown.friends.map((f) => `A friend ${resultWords(f)}.`).join(" ")) : null,
      shown.copied ? h("p", { class: "field-note", role: "status" }, shown.copied) : null,
      h("div", { class: "form-actions" },
        button("Copy", { class: "primary", dataset: { testid: "daily-copy", focus: "daily-copy" }, onclick: intents.copyDaily }),
        button("Close", { class: "quiet-ink", dataset: { testid: "daily-share-close", focus: "daily-share-close" }, onclick: intents.closeDailyShare }))));
}

// ----- intents ---------------------------------------------------------------------------------

let pending = null;  // the deal of the day being started: becomes state.dailyPlay at its first snapshot
let context = null;

function intents({ state, render, engineCall, engineReady, enterTable, mayReplaceSave }) {
  return {
    async playDaily(gameId, day = utcDay()) {
      const spec = state.games.find((g) => g.id === gameId);
      if (!spec || state.busy || !isDay(day)) return;
      const daily = loadDaily();
      const key = `${day}:${gameId}`;
      const record = day === utcDay() && !recordOf(gameId, day) && !daily.started[key];
      if (!(await mayReplaceSave(storage.matchSlot(gameId), `the ${spec.title} deal of the day`))) return;
      const waiting = { title: spec.title, message: "The deal of the day is dealt as soon as the game engine is ready." };
      if (!(await engineReady(waiting))) return;
      const setup = normalizeSetup(spec, state.levels, null);
      const params = { ...startParams(gameId, setup, dailySeed(gameId, day), 0), practice: !record };
      const reply = await engineCall("start", params);
      if (!reply) return;
      if (record) { daily.started[key] = Date.now(); saveDaily(daily); }
      state.dailyOffer = null;
      state.dailyError = null;
      pending = { game: gameId, day, record };
      await enterTable(reply, gameId, setup);
      state.message = record ? `The ${spec.title} deal of the day, for the record: no hint, undo or analysis until it ends.`
        : `The ${spec.title} deal of the day of ${day}, as practice.`;
      render();
    },
    shareDaily() {
      const play = state.dailyPlay;
      const entry = play && recordOf(play.game, play.day);
      if (!entry) return;
      const spec = state.games.find((g) => g.id === play.game);
      const friends = loadDaily().friends[`${play.day}:${play.game}`] || [];
      state.dailyShared = { ...shareText(entry, spec ? spec.title : play.game), friends, copied: null };
      render();
    },
    async copyDaily() {
      const shown = state.dailyShared;
      if (!shown) return;
      try {
        await navigator.clipboard.writeText(`${shown.text} ${shown.link}`);
        shown.copied = "Copied.";
      } catch {
        shown.copied = "Your browser did not allow copying: select the link and copy it yourself.";
      }
      render();
    },
    closeDailyShare() {
      state.dailyShared = null;
      render();
    },
    /** A deal of the day link in the page's #hash: keep the friend's result, offer the deal. */
    checkDailyLink(draw = true) {
      const found = parseDailyLink(window.location.hash, state.games);
      if (!found) return false;
      try { history.replaceState(null, "", window.location.pathname + window.location.search); } catch { /* fine */ }
      if (!found.ok) { state.dailyError = found.message; state.dailyOffer = null; if (draw) render(); return true; }
      const daily = loadDaily();
      const key = `${found.day}:${found.game}`;
      const list = daily.friends[key] || [];
      if (!list.some((r) => JSON.stringify(r) === JSON.stringify(found.result))) daily.friends[key] = [...list, found.result];
      saveDaily(daily);
      state.dailyError = null;
      state.dailyOffer = found;
      announce(`A friend's ${found.title} deal of the day: ${resultWords(found.result)}.`);
      if (draw) render();
      return true;
    },
  };
}

export const feature = {
  state: {
    dailyPlay: null,    // {game, day, record}: the deal of the day on the table
    dailyOffer: null,   // a friend's result from a link, its deal offered on the menu
    dailyError: null,   // why a deal of the day link could not be used
    dailyShared: null,  // {text, link, friends, copied}: the share dialog
  },
  kept: ["dailyPlay"],
  intents,
  panels: { menu: menuPanel, over: overPanel, table: shareDialog },
  start(ctx) {
    context = ctx;
    ctx.intents.checkDailyLink(false);  // the page's first render follows
    window.addEventListener("hashchange", () => context.intents.checkDailyLink());
  },
  afterSnapshot(prev, snap, move, state) {
    if (prev) return;
    state.dailyPlay = pending && pending.game === snap.game ? pending : null;
    state.dailyShared = null;
    pending = null;
  },
};

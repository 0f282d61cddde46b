// The profile file: everything this device keeps of the person (settings, statistics, match
// history and its files, table set-ups, matches in progress, deals of the day) exported as one
// file, and imported on another device or after the browser's storage was cleared: merged with
// what is here, never counted twice (profile-model.js has the rules). The Settings screen's
// "Your data" part says where it all lives.
import { h, button } from "../ui/dom.js";
import * as storage from "../storage.js";
import { getSettings, setSetting, SPEEDS } from "./preferences.js";
import { loadStats, saveStats } from "./stats.js";
import { keepEntries, loadEntries, loadFiles } from "./history.js";
import { download } from "./share.js";
import { announce } from "./announce.js";
import { MAX_PROFILE_BYTES, buildProfile, mergeStats, readProfile } from "./profile-model.js";
import { utcDay } from "./history-model.js";

const DAILY_KEY = "daily";

/** The saved matches in progress (each with its slot), through storage.js. */
function savedMatches() {
  return storage.loadMatches().saves;
}

/** Everything the device keeps, as the profile file's value. */
function collect(games) {
  const history = {};
  const files = {};
  const setups = {};
  for (const g of games) {
    const entries = loadEntries(g.id);
    if (entries.length) { history[g.id] = entries; files[g.id] = loadFiles(g.id); }
    const setup = storage.loadSetup(g.id);
    if (setup) setups[g.id] = setup;
  }
  return buildProfile({
    settings: getSettings(), stats: loadStats(), setups, history, files,
    saves: savedMatches(), daily: storage.loadValue(DAILY_KEY) || {},
  });
}

/** Take a read profile into the device: {lines} saying what was merged. */
function merge(profile, games, older) {
  const known = new Set(games.map((g) => g.id));
  const lines = [];
  if (older) lines.push("This is the Statistics screen's file from an older version: its statistics were merged.");
  if (profile.stats) {
    saveStats(mergeStats(loadStats(), profile.stats));
    if (!older) lines.push("Statistics merged (for each game and level, the count with more matches is kept).");
  }
  let added = 0;
  for (const [game, entries] of Object.entries(profile.history || {})) {
    if (!known.has(game)) continue;
    const before = loadEntries(game).length;
    keepEntries(game, entries, (profile.files || {})[game] || {});
    added += loadEntries(game).length - before;
  }
  if (profile.history) lines.push(`${added} match${added === 1 ? "" : "es"} added to the history (those already here were kept once).`);
  if (profile.settings) {
    const now = getSettings();
    for (const [name, value] of Object.entries(profile.settings)) {
      if (!Object.hasOwn(now, name) || typeof value !== typeof now[name]) continue;
      if (name === "speed" && !Object.hasOwn(SPEEDS, value)) continue;
      setSetting(name, typeof value === "string" ? value.slice(0, 200) : value);
    }
    lines.push("Settings taken from the file.");
  }
  for (const [game, setup] of Object.entries(profile.setups || {})) {
    if (known.has(game) && !storage.loadSetup(game)) storage.saveSetup(game, setup);
  }
  let resumed = 0;
  for (const save of profile.saves || []) {
    if (!known.has(save.game)) continue;
    const slot = typeof save.slot === "string" && [save.game, storage.matchSlot(save.game, true)].includes(save.slot) ? save.slot : storage.matchSlot(save.game);
    const here = storage.loadMatch(slot);
    if (!here.ok || here.save) continue;  // a match in progress here is never replaced
    if (storage.saveMatch(slot, save.game, save.title, save.data, save.setup, save.page)) resumed += 1;
  }
  if (profile.saves && profile.saves.length) {
    lines.push(resumed ? `${resumed} match${resumed === 1 ? "" : "es"} in progress added.`
      : "The file's matches in progress were not taken: this device has its own of those games.");
  }
  if (profile.daily) storage.saveValue(DAILY_KEY, mergeDaily(storage.loadValue(DAILY_KEY) || {}, profile.daily));
  return lines;
}

/** Deals of the day kept: friends' results by day and game, the file's added to the device's. */
function mergeDaily(mine, theirs) {
  const out = { friends: { ...((mine && mine.friends) || {}) }, started: { ...((mine && mine.started) || {}) } };
  for (const [key, list] of Object.entries((theirs && theirs.friends) || {})) {
    if (!Array.isArray(list)) continue;
    const here = out.friends[key] || [];
    out.friends[key] = [...here, ...list.filter((r) => !here.some((m) => JSON.stringify(m) === JSON.stringify(r)))];
  }
  for (const [key, at] of Object.entries((theirs && theirs.started) || {})) if (!out.started[key]) out.started[key] = at;
  return out;
}

/** The Settings screen's "Your data" part. */
export function dataSection(state, intents) {
  const p = state.profile;
  return h("fieldset", { class: "profile-data", dataset: { testid: "profile-data" } }, h("legend", {}, "Your data"),
    h("p", { class: "field-note" },
      "Your statistics, match history, settings and matches in progress are kept in this browser's storage on this device. "
      + "They never leave it unless you export them. Clearing this browser's data for the site deletes them: "
      + "export your profile as a file to keep it, and import it here or on another device. Importing adds to what is here, "
      + "without counting a match twice."),
    h("div", { class: "form-actions" },
      button("Export my profile", { class: "quiet-ink", dataset: { testid: "profile-export", focus: "profile-export" }, onclick: intents.exportProfile }),
      h("label", { class: "file-button quiet-ink", for: "profile-file" }, "Import a profile\u2026"),
      h("input", { type: "file", id: "profile-file", accept: ".json,application/json", class: "visually-hidden",
        dataset: { testid: "profile-import" }, onchange: (e) => { const f = e.target.files && e.target.files[0]; e.target.value = ""; if (f) intents.importProfile(f); } })),
    p && p.error ? h("div", { class: "error-area", role: "alert", dataset: { testid: "profile-error" } }, p.error) : null,
    p && p.lines ? h("div", { class: "profile-done", role: "status", dataset: { testid: "profile-done" } }, p.lines.map((l) => h("p", {}, l))) : null);
}

function intents({ state, render }) {
  return {
    exportProfile() {
      const text = JSON.stringify(collect(state.games));
      download(text, `parlour-profile-${utcDay()}.json`);
      state.profile = { lines: ["Your profile was saved as a file in your downloads."], error: null };
      render();
    },
    async importProfile(file) {
      let text;
      try {
        if (file.size > MAX_PROFILE_BYTES) throw new Error("too large");
        text = await file.text();
      } catch {
        state.profile = { error: "That file could not be read. Nothing was changed.", lines: null };
        render();
        return;
      }
      const read = readProfile(text);
      if (!read.ok) { state.profile = { error: read.message, lines: null }; render(); return; }
      const lines = merge(read.profile, state.games, read.older);
      state.profile = { error: null, lines: ["Profile imported.", ...lines] };
      announce("Profile imported.");
      render();
    },
  };
}

export const feature = {
  state: {
    profile: null,  // {error, lines}: what the latest export or import said
  },
  intents,
};

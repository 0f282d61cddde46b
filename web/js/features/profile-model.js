// The profile file's rules, with no page around them (so Node runs them in the unit tests):
// what the file holds, reading one (from this release, an older one or a newer one, or not a
// profile at all) and merging it with what the device keeps without counting anything twice.
//
// The file, as JSON:
//   {"parlour": "profile", "v": 1, "exported_at", "settings": {...}, "stats": {v, games},
//    "setups": {game: setup}, "history": {game: [entry]}, "files": {game: {entry id: match}},
//    "saves": [saved match], "daily": {...}}
// The Statistics screen's older file ({"parlour": "statistics", "v": 1, "games"}) is read as a
// profile that holds statistics only.
import { isEntry } from "./history-model.js";

export const PROFILE_VERSION = 1;
export const MAX_PROFILE_BYTES = 20_000_000;

/** The profile file's value for what the device keeps (`parts`: settings, stats, ...). */
export function buildProfile(parts, now = new Date()) {
  return { parlour: "profile", v: PROFILE_VERSION, exported_at: now.toISOString(), ...parts };
}

const isObject = (v) => Boolean(v) && typeof v === "object" && !Array.isArray(v);

function statsOk(stats) {
  if (!isObject(stats) || stats.v !== 1 || !isObject(stats.games)) return false;
  return Object.values(stats.games).every((levels) => isObject(levels) && Object.values(levels).every((e) => isObject(e)
    && Number.isInteger(e.played) && Number.isInteger(e.won) && e.won <= e.played && e.won >= 0
    && Number.isInteger(e.streak) && Number.isInteger(e.bestStreak)));
}

function historyOk(history) {
  return isObject(history) && Object.entries(history).every(([game, list]) => Array.isArray(list)
    && list.every((e) => isEntry(e) && e.game === game));
}

function filesOk(files) {
  return isObject(files) && Object.values(files).every((byId) => isObject(byId)
    && Object.values(byId).every((d) => isObject(d) && isObject(d.record) && typeof d.record.game === "string"));
}

function savesOk(saves) {
  return Array.isArray(saves) && saves.every((s) => isObject(s) && typeof s.game === "string" && isObject(s.data) && isObject(s.data.record));
}

/**
 * Read a profile file's text: {ok: true, profile, older} or {ok: false, message}. Every part
 * is checked before anything is taken, so a file that is wrong anywhere is refused whole.
 */
export function readProfile(text) {
  const fail = (why) => ({ ok: false, message: `That file cannot be imported: ${why}. Nothing was changed.` });
  if (typeof text !== "string" || !text.trim()) return fail("it is empty");
  if (text.length > MAX_PROFILE_BYTES) return fail("it is too large to be a Parlour profile");
  let value;
  try { value = JSON.parse(text); } catch { return fail("it is not a Parlour profile (it is not JSON)"); }
  if (!isObject(value)) return fail("it is not a Parlour profile");
  if (value.parlour === "statistics") {
    if (!statsOk({ v: value.v, games: value.games })) return fail("its statistics are not readable");
    return { ok: true, older: true, profile: { stats: { v: 1, games: value.games } } };
  }
  if (value.parlour === "match") return fail("it is a match file, not a profile (open it from the menu's \u201cOpen a match file\u201d)");
  if (value.parlour !== "profile") return fail("it is not a Parlour profile");
  if (!Number.isInteger(value.v) || value.v < 1) return fail("its version is not readable");
  if (value.v > PROFILE_VERSION) {
    return fail(`it was made by a newer version of Parlour (profile version ${value.v}; this page reads version ${PROFILE_VERSION}). `
      + "Import it once this page has been updated (reload it while online)");
  }
  const checks = [
    ["settings", isObject, "its settings"], ["stats", statsOk, "its statistics"], ["setups", isObject, "its table set-ups"],
    ["history", historyOk, "its match history"], ["files", filesOk, "its match files"], ["saves", savesOk, "its matches in progress"],
    ["daily", isObject, "its deals of the day"],
  ];
  for (const [name, ok, words] of checks) {
    if (value[name] !== undefined && value[name] !== null && !ok(value[name])) return fail(`${words} are not readable`);
  }
  return { ok: true, older: false, profile: value };
}

/** Two statistics ({v, games}) as one: for each game and level the entry that counted more
 * matches (so the same matches are never counted twice; the device's on a tie). */
export function mergeStats(mine, theirs) {
  const out = { v: 1, games: {} };
  for (const source of [mine, theirs]) {
    for (const [game, levels] of Object.entries((source && source.games) || {})) {
      const target = (out.games[game] = out.games[game] || {});
      for (const [level, entry] of Object.entries(levels)) {
        if (!target[level] || entry.played > target[level].played) target[level] = entry;
      }
    }
  }
  return out;
}

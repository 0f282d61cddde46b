// The storage manager: everything the page keeps in localStorage, behind one small API.
// Nothing here throws: storage may be full, disabled or hold something unreadable.

const PREFIX = "parlour.";
const SAVE_KEY = PREFIX + "save";
const SAVE_VERSION = 1;

function getRaw(key) {
  try { return window.localStorage.getItem(key); } catch { return null; }
}

function setRaw(key, value) {
  try { window.localStorage.setItem(key, value); return true; } catch { return false; }
}

function remove(key) {
  try { window.localStorage.removeItem(key); } catch { /* nothing to do */ }
}

/** The last set-up chosen for a game, or null. */
export function loadSetup(gameId) {
  const raw = getRaw(PREFIX + "setup." + gameId);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    remove(PREFIX + "setup." + gameId);
    return null;
  }
}

export function saveSetup(gameId, setup) {
  setRaw(PREFIX + "setup." + gameId, JSON.stringify(setup));
}

/** The saved match in `raw` if it is one this page can read, else null. */
function readSave(raw) {
  let save;
  try { save = JSON.parse(raw); } catch { return null; }
  const valid = save && typeof save === "object" && save.v === SAVE_VERSION && typeof save.game === "string"
    && save.data && typeof save.data === "object" && save.data.record && typeof save.data.record === "object";
  return valid ? save : null;
}

/**
 * The saved match: {ok: true, save} | {ok: false, problem} | {ok: true, save: null}.
 * A save that cannot be read is set aside (kept under another key) so it never blocks the menu.
 */
export function loadMatch() {
  const raw = getRaw(SAVE_KEY);
  if (!raw) return { ok: true, save: null };
  const save = readSave(raw);
  if (!save) {
    setAside(raw);
    return { ok: false, problem: "Your saved match could not be read, so it was set aside. You can start a new one." };
  }
  return { ok: true, save };
}

/** Save the match in progress: `data` is the engine's record, `page` what the page keeps
 * beside it (see app.js's keptState); a save without `page` resumes without it. */
export function saveMatch(game, title, data, setup, page) {
  return setRaw(SAVE_KEY, JSON.stringify({ v: SAVE_VERSION, game, title, savedAt: Date.now(), data, setup: setup || null, page: page || null }));
}

/** Rewrite what the page keeps beside the saved match of `game` (the record unchanged), at
 * once: for a change that is not a move, so that a reload before the engine's next record
 * keeps it. False when there is no readable save of `game` (loadMatch sets an unreadable one
 * aside; this leaves it as it is). */
export function saveMatchPage(game, page) {
  const raw = getRaw(SAVE_KEY);
  const save = raw && readSave(raw);
  if (!save || save.game !== game) return false;
  return setRaw(SAVE_KEY, JSON.stringify({ ...save, savedAt: Date.now(), page: page || null }));
}

export function clearMatch() {
  remove(SAVE_KEY);
}

/** Move the current save out of the way (it failed to load). */
export function setAsideMatch() {
  const raw = getRaw(SAVE_KEY);
  if (raw) setAside(raw);
}

function setAside(raw) {
  setRaw(PREFIX + "setaside", raw);
  remove(SAVE_KEY);
}

// ----- small JSON values kept by the page's features (settings, statistics) -----------------

/** The JSON value stored under parlour.<name>, or null (an unreadable one is removed). */
export function loadValue(name) {
  const raw = getRaw(PREFIX + name);
  if (!raw) return null;
  try { return JSON.parse(raw); } catch { remove(PREFIX + name); return null; }
}

export function saveValue(name, value) {
  return setRaw(PREFIX + name, JSON.stringify(value));
}

export function removeValue(name) {
  remove(PREFIX + name);
}

// The storage manager: everything the page keeps in localStorage, behind one small API.
// Nothing here throws: storage may be full, disabled or hold something unreadable.

const PREFIX = "parlour.";
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

// ----- the matches in progress: one per game, and one coached round per game ---------------
// Each is kept under parlour.save.<slot>: the slot is the game's id ("crisps"), or for a
// coached round "<game>.learn", so that a coached round never ends a saved match. Before,
// one match for all games was kept under parlour.save: it is moved to its game's slot the
// first time the matches are read (see migrate).

const SAVES = PREFIX + "save.";
const LEGACY_SAVE = PREFIX + "save";
const COACHED = ".learn";

/** The slot of a match of `game`: its own, or its coached round's. */
export function matchSlot(game, coached = false) {
  return coached ? game + COACHED : game;
}

/** The game a slot is for. */
function slotGame(slot) {
  return slot.endsWith(COACHED) ? slot.slice(0, -COACHED.length) : slot;
}

/** The saved match in `raw` if it is one this page can read (of `game` when given), else null. */
function readSave(raw, game = null) {
  let save;
  try { save = JSON.parse(raw); } catch { return null; }
  const valid = save && typeof save === "object" && save.v === SAVE_VERSION && typeof save.game === "string"
    && save.data && typeof save.data === "object" && save.data.record && typeof save.data.record === "object"
    && (game === null || save.game === game);
  return valid ? save : null;
}

function storedKeys() {
  try {
    const keys = [];
    for (let i = 0; i < window.localStorage.length; i++) keys.push(window.localStorage.key(i));
    return keys;
  } catch {
    return [];
  }
}

/** The slot an earlier version's match goes to: its game's, or a coached round's. */
function legacySlot(save) {
  return matchSlot(save.game, Boolean(save.page && save.page.coach));
}

/** The single saved match of earlier versions goes to its game's slot, unless that slot holds
 * a later save; an unreadable one is set aside as before. It is the same text under another
 * key: should the storage be too full to hold both, it leaves its old key first, and is put
 * back there should the new one still refuse it (then it is read from there, see legacyIn,
 * and moves at a later reading). Returns what to tell the person, or null. */
function migrate() {
  const raw = getRaw(LEGACY_SAVE);
  if (!raw) return null;
  const save = readSave(raw);
  if (!save) {
    setRaw(PREFIX + "setaside", raw);
    remove(LEGACY_SAVE);
    return "Your saved match could not be read, so it was set aside. You can start a new one.";
  }
  const key = SAVES + legacySlot(save);
  const there = readSave(getRaw(key) || "", save.game);
  if (there && (there.savedAt || 0) > (save.savedAt || 0)) { remove(LEGACY_SAVE); return null; }
  if (setRaw(key, raw)) { remove(LEGACY_SAVE); return null; }
  remove(LEGACY_SAVE);
  if (!setRaw(key, raw)) setRaw(LEGACY_SAVE, raw);
  return null;
}

/** The earlier versions' match, when it is still under its old key (a storage too full to
 * move it) and for `slot`; else null. */
function legacyIn(slot) {
  const raw = getRaw(LEGACY_SAVE);
  const save = raw && readSave(raw);
  return save && legacySlot(save) === slot ? raw : null;
}

/**
 * The saved match of `slot`: {ok: true, save} | {ok: false, problem} | {ok: true, save: null}.
 * A save that cannot be read is set aside (kept under another key) so it never blocks the menu.
 */
export function loadMatch(slot) {
  const legacyProblem = migrate();
  const raw = getRaw(SAVES + slot) || legacyIn(slot);
  if (!raw) return legacyProblem ? { ok: false, problem: legacyProblem } : { ok: true, save: null };
  const save = readSave(raw, slotGame(slot));
  if (!save) {
    setAside(slot, raw);
    return { ok: false, problem: "Your saved match could not be read, so it was set aside. You can start a new one." };
  }
  return { ok: true, save: { ...save, slot } };
}

/** Every saved match, the latest first: {saves, problems} (problems: what was set aside). */
export function loadMatches() {
  const problems = [];
  const legacyProblem = migrate();
  if (legacyProblem) problems.push(legacyProblem);
  const saves = [];
  const slots = storedKeys().filter((key) => key && key.startsWith(SAVES)).map((key) => key.slice(SAVES.length));
  const left = readSave(getRaw(LEGACY_SAVE) || "");
  if (left && !slots.includes(legacySlot(left))) slots.push(legacySlot(left));
  for (const slot of slots) {
    const loaded = loadMatch(slot);
    if (!loaded.ok) problems.push(loaded.problem);
    else if (loaded.save) saves.push(loaded.save);
  }
  saves.sort((a, b) => (b.savedAt || 0) - (a.savedAt || 0));
  return { saves, problems: [...new Set(problems)] };
}

/** Save the match in progress in `slot`: `data` is the engine's record, `page` what the page
 * keeps beside it (see app.js's keptState); a save without `page` resumes without it. */
export function saveMatch(slot, game, title, data, setup, page) {
  return setRaw(SAVES + slot, JSON.stringify({ v: SAVE_VERSION, game, title, savedAt: Date.now(), data, setup: setup || null, page: page || null }));
}

/** Rewrite what the page keeps beside the saved match of `slot` (the record unchanged), at
 * once: for a change that is not a move, so that a reload before the engine's next record
 * keeps it. False when there is no readable save there (loadMatch sets an unreadable one
 * aside; this leaves it as it is). */
export function saveMatchPage(slot, page) {
  const raw = getRaw(SAVES + slot);
  const save = raw && readSave(raw, slotGame(slot));
  if (!save) return false;
  return setRaw(SAVES + slot, JSON.stringify({ ...save, savedAt: Date.now(), page: page || null }));
}

export function clearMatch(slot) {
  if (legacyIn(slot)) remove(LEGACY_SAVE);
  remove(SAVES + slot);
}

/** Move the save of `slot` out of the way (it failed to load). */
export function setAsideMatch(slot) {
  const raw = getRaw(SAVES + slot) || legacyIn(slot);
  if (raw) setAside(slot, raw);
}

function setAside(slot, raw) {
  setRaw(PREFIX + "setaside." + slot, raw);
  if (legacyIn(slot) === raw) remove(LEGACY_SAVE);
  remove(SAVES + slot);
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

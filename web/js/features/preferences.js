// The player's settings: animation speed, four-colour suits, sound. Kept in localStorage
// (through storage.js) and applied to the page as classes on <html>/<body>. The screen that
// changes them is features/settings.js.
import * as storage from "../storage.js";

/** Speed names -> the multiplier of the bot delay and animations (0 = instant). */
export const SPEEDS = { instant: 0, fast: 2, normal: 1, slow: 0.5 };
const DEFAULTS = { speed: "normal", fourColour: false, sound: false };
const KEY = "settings";

let current = read();

function read() {
  const saved = storage.loadValue(KEY);
  const out = { ...DEFAULTS };
  if (saved && typeof saved === "object" && !Array.isArray(saved)) {
    if (Object.hasOwn(SPEEDS, saved.speed)) out.speed = saved.speed;
    if (typeof saved.fourColour === "boolean") out.fourColour = saved.fourColour;
    if (typeof saved.sound === "boolean") out.sound = saved.sound;
  }
  return out;
}

export function getSettings() {
  return { ...current };
}

export function setSetting(name, value) {
  if (!Object.hasOwn(DEFAULTS, name)) return;
  current = { ...current, [name]: value };
  storage.saveValue(KEY, current);
  applySettings();
}

/** The URL's ?speed= (the tests use ?speed=0) wins over the setting. */
export function motionSpeed() {
  const query = new URLSearchParams(window.location.search);
  if (query.has("speed")) {
    const forced = Number(query.get("speed"));
    return Number.isFinite(forced) && forced >= 0 ? forced : 1;
  }
  return SPEEDS[current.speed] ?? 1;
}

/** Classes on the page for the current settings; safe to call any time. */
export function applySettings() {
  const instant = !(motionSpeed() > 0);
  document.documentElement.classList.toggle("no-motion", instant);
  const speed = motionSpeed();
  if (speed === 1) document.documentElement.style.removeProperty("--motion");
  else document.documentElement.style.setProperty("--motion", instant ? "0" : String(1 / speed));
  if (document.body) document.body.classList.toggle("four-colour", current.fourColour);
}

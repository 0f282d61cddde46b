// The player's settings: animation speed, four-colour suits, card backs, sound and its volume.
// Kept in localStorage
// (through storage.js) and applied to the page as classes on <html>/<body>. The screen that
// changes them is features/settings.js.
import * as storage from "../storage.js";

/** Speed names -> the multiplier of the bot delay and animations (0 = instant). */
export const SPEEDS = { instant: 0, fast: 2, normal: 1, slow: 0.5 };
// The STUN server a host may name for friends on another network (none by default: the page
// contacts no server unless the person names one and chooses Anywhere on the invite screen),
// and an optional TURN server with its user name and password. EXAMPLE_STUN only shows the
// form an address takes (example.org is reserved for examples and reaches nothing).
export const EXAMPLE_STUN = "stun:stun.example.org:3478";
/** The card backs (cards.css draws each: data-back on <body>) -> their names in the settings. */
export const BACKS = { claret: "Claret", navy: "Navy", green: "Green" };
const DEFAULTS = { speed: "normal", fourColour: false, back: "claret", sound: false, volume: 0.7, stun: "", turn: "", turnUser: "", turnPassword: "" };
const SERVER_TEXT = /^(?:stun|stuns|turn|turns):[A-Za-z0-9.:[\]_-]{1,200}(?:\?transport=(?:udp|tcp))?$/;

/** Whether `text` reads as a STUN or TURN server's address ("stun:host:port"). */
export function isIceServer(text) {
  return SERVER_TEXT.test(String(text || ""));
}
const KEY = "settings";

let current = read();

function read() {
  const saved = storage.loadValue(KEY);
  const out = { ...DEFAULTS };
  if (saved && typeof saved === "object" && !Array.isArray(saved)) {
    if (Object.hasOwn(SPEEDS, saved.speed)) out.speed = saved.speed;
    if (typeof saved.fourColour === "boolean") out.fourColour = saved.fourColour;
    if (typeof saved.sound === "boolean") out.sound = saved.sound;
    if (Object.hasOwn(BACKS, saved.back)) out.back = saved.back;
    if (typeof saved.volume === "number" && saved.volume >= 0 && saved.volume <= 1) out.volume = saved.volume;
    for (const name of ["stun", "turn", "turnUser", "turnPassword"]) {
      if (typeof saved[name] === "string") out[name] = saved[name].slice(0, 200);
    }
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
  if (document.body) {
    document.body.classList.toggle("four-colour", current.fourColour);
    document.body.dataset.back = current.back;
  }
}

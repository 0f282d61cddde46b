// The player's settings: animation speed, four-colour suits, sound. Kept in localStorage
// (through storage.js) and applied to the page as classes on <html>/<body>.
import { h, button } from "../ui/dom.js";
import * as storage from "../storage.js";

/** Speed names -> the multiplier of the bot delay and animations (0 = instant). */
export const SPEEDS = { instant: 0, fast: 2, normal: 1, slow: 0.5 };
const SPEED_WORDS = { instant: "Instant", fast: "Fast", normal: "Normal", slow: "Slow" };
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

/** The Settings screen (state.screen === "settings"). */
export function renderSettings(state, intents) {
  const s = current;
  const change = (name, value) => { setSetting(name, value); intents.settingsChanged(name, value); };
  const forced = new URLSearchParams(window.location.search).has("speed");
  return h("section", { class: "screen settings-screen", dataset: { testid: "settings-page" }, "aria-labelledby": "settings-title" },
    h("header", { class: "screen-bar" },
      button("\u2190 Menu", { class: "quiet", dataset: { testid: "back", focus: "back" }, onclick: intents.showMenu }),
      h("h1", { id: "settings-title" }, "Settings")),
    h("form", { class: "setup-form settings-form", onsubmit: (e) => e.preventDefault() },
      h("fieldset", {}, h("legend", {}, "Play"),
        h("div", { class: "field" },
          h("label", { for: "set-speed" }, "Animation and computer speed"),
          h("select", { id: "set-speed", dataset: { testid: "setting-speed", focus: "set-speed" },
            onchange: (e) => change("speed", e.target.value) },
          Object.keys(SPEEDS).map((k) => h("option", { value: k, selected: k === s.speed }, SPEED_WORDS[k]))),
          h("p", { class: "field-note" }, forced ? "The page address sets the speed for now (?speed=)."
            : "How fast cards move and how long the computer players pause before they play."))),
      h("fieldset", {}, h("legend", {}, "Look and sound"),
        checkbox("set-four-colour", "setting-four-colour", "Four-colour suits",
          "Diamonds blue and clubs green, so every suit has its own colour.", s.fourColour,
          (v) => change("fourColour", v)),
        checkbox("set-sound", "setting-sound", "Sound",
          "Short sounds when a card is played, when it is your turn and when you win a round.", s.sound,
          (v) => change("sound", v))),
      h("p", { class: "field-note" }, "Settings are kept in this browser and remembered between visits.")));
}

function checkbox(id, testid, label, description, checked, onChange) {
  return h("div", { class: "field option-field" },
    h("input", { type: "checkbox", id, checked, dataset: { testid, focus: id }, onchange: (e) => onChange(e.target.checked) }),
    h("label", { for: id }, h("span", { class: "option-label" }, label),
      h("span", { class: "option-description" }, description)));
}

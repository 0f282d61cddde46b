// The Settings screen: animation speed, four-colour suits, card backs, sound and its volume
// (kept by preferences.js), and where the person's data lives, with the profile file (profile.js).
import { h, button } from "../ui/dom.js";
import { BACKS, SPEEDS, EXAMPLE_STUN, applySettings, getSettings, isIceServer, setSetting } from "./preferences.js";
import * as sound from "./sound.js";
import { dataSection } from "./profile.js";

const SPEED_WORDS = { instant: "Instant", fast: "Fast", normal: "Normal", slow: "Slow" };

/** The Settings screen (state.screen === "settings"). */
function renderSettings(state, intents) {
  const s = getSettings();
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
          "Diamonds blue and clubs green, each suit's letter under its corner: every suit has its own colour, shape and letter.", s.fourColour,
          (v) => change("fourColour", v)),
        backChoice(s.back, (v) => change("back", v)),
        checkbox("set-sound", "setting-sound", "Sound",
          "Card sounds as cards are dealt, drawn and played, a chime when it is your turn, and the end of each round. While this tab is hidden, only your turn is sounded.", s.sound,
          (v) => change("sound", v)),
        h("div", { class: "field" },
          h("label", { for: "set-volume" }, `Volume: ${Math.round(s.volume * 100)}%`),
          h("input", { type: "range", id: "set-volume", min: 0, max: 100, step: 5, value: Math.round(s.volume * 100),
            dataset: { testid: "setting-volume", focus: "set-volume" }, "aria-valuetext": `${Math.round(s.volume * 100)}%`,
            onchange: (e) => change("volume", Number(e.target.value) / 100) }))),
      h("fieldset", {}, h("legend", {}, "Friends on another network"),
        h("p", { class: "field-note" }, "Friends on the same network connect directly and need none of this. For friends elsewhere, "
          + "the invite screen can use this STUN server to find a way between the devices (no game data passes through it)."),
        textField("set-stun", "setting-stun", "STUN server", s.stun, `For example ${EXAMPLE_STUN}`, (v) => change("stun", v)),
        textField("set-turn", "setting-turn", "TURN server (optional)", s.turn, "turn:host:port, for networks where STUN is not enough: it relays the (encrypted) traffic.", (v) => change("turn", v)),
        textField("set-turn-user", "setting-turn-user", "TURN user name", s.turnUser, "", (v) => change("turnUser", v)),
        textField("set-turn-password", "setting-turn-password", "TURN password", s.turnPassword, "", (v) => change("turnPassword", v), "password")),
      dataSection(state, intents),
      h("p", { class: "field-note" }, "Settings are kept in this browser and remembered between visits.")));
}

function textField(id, testid, label, value, note, onChange, type = "text") {
  const problem = id === "set-stun" || id === "set-turn" ? value && !isIceServer(value) : false;
  return h("div", { class: "field" },
    h("label", { for: id }, label),
    h("input", { type, id, value, autocomplete: "off", spellcheck: "false", maxlength: 200, dataset: { testid, focus: id },
      onchange: (e) => onChange(e.target.value.trim()) }),
    problem ? h("p", { class: "notice" }, "This does not read as a server address (stun:host:port or turn:host:port).") : null,
    note ? h("p", { class: "field-note" }, note) : null);
}

/** The card backs, each a radio button showing the back itself. */
function backChoice(chosen, onChange) {
  return h("fieldset", { class: "field back-choice", dataset: { testid: "setting-back" } },
    h("legend", {}, "Card backs"),
    Object.entries(BACKS).map(([value, name]) => h("label", { class: "back-option" },
      h("input", { type: "radio", name: "set-back", value, checked: value === chosen,
        dataset: { testid: "setting-back-" + value, focus: "set-back-" + value }, onchange: () => onChange(value) }),
      h("span", { class: "card card-back card-small", "data-back": value, "aria-hidden": "true" }),
      h("span", { class: "option-label" }, name))));
}

function checkbox(id, testid, label, description, checked, onChange) {
  return h("div", { class: "field option-field" },
    h("input", { type: "checkbox", id, checked, dataset: { testid, focus: id }, onchange: (e) => onChange(e.target.checked) }),
    h("label", { for: id }, h("span", { class: "option-label" }, label),
      h("span", { class: "option-description" }, description)));
}

export const feature = {
  intents: ({ state, render }) => ({
    openSettings() {
      state.screen = "settings";
      state.profile = null;
      state.error = null;
      render();
    },
    settingsChanged(name, value) {
      if (name === "sound" && value) sound.unlock();
      if (name === "volume") sound.sample();
      render();
    },
  }),
  screens: { settings: renderSettings },
  start() {
    applySettings();
  },
};

// The set-up screen: players, who sits where, opponents' levels and the game's options, with
// Start, in one screen (a seat is one line; how the levels compare is a fold, setup-levels.js).
import { h, button } from "./dom.js";
import { hasFriends, ordinal, seatNames } from "./setup-model.js";
import { LEVEL_WORDS, levelsFold } from "./setup-levels.js";
import { MAX_NAME, humanSeats } from "../read-snapshot.js";

export function renderSetup(state, intents) {
  const spec = state.games.find((g) => g.id === state.setupGame);
  const setup = state.setup;
  const levels = state.levels;
  const variants = new Set(spec.variant_players || []);
  const update = (change) => intents.updateSetup(change);

  const playerField = spec.min_players === spec.max_players
    ? h("p", { class: "field-note" }, `${spec.title} is for ${spec.min_players} players.`)
    : field("Players", h("select", {
      id: "setup-players", dataset: { testid: "players", focus: "players" },
      onchange: (e) => intents.setPlayers(Number(e.target.value)),
    }, spec_counts(spec).map((n) => h("option", { value: n, selected: n === setup.players },
      `${n} players${variants.has(n) ? " (variant)" : ""}`))), "setup-players");

  const defaultNames = seatNames(setup.seats);
  const seatRows = setup.seats.map((seat, i) => {
    const id = `seat-${i}`;
    const nameId = `seat-name-${i}`;
    const value = seat.type === "bot" ? "bot:" + seat.level : seat.type;
    return h("li", { class: "seat-row" },
      h("label", { for: id, class: "visually-hidden" }, `Seat ${i + 1}`),
      h("select", {
        id, dataset: { testid: `seat-${i}`, focus: id },
        onchange: (e) => {
          const v = e.target.value;
          const seats = setup.seats.map((s) => ({ ...s }));
          seats[i] = v === "human" || v === "friend" ? { type: v, level: seat.level } : { type: "bot", level: v.slice(4) };
          update({ seats });
        },
      },
      h("option", { value: "human", selected: value === "human" }, i === 0 ? "You" : "A person (pass and play)"),
      i === 0 ? null : h("option", { value: "friend", selected: value === "friend" }, "A friend on their own device"),
      levels.map((level) => h("option", { value: "bot:" + level, selected: value === "bot:" + level },
        `Computer: ${LEVEL_WORDS[level] || level}`))),
      h("input", {
        type: "text", id: nameId, class: "seat-name-input", maxlength: MAX_NAME, autocomplete: "off", spellcheck: "false",
        value: seat.name || "", placeholder: defaultNames[i] || `Seat ${i + 1}`, "aria-label": `Name for seat ${i + 1}`,
        dataset: { testid: `seat-name-${i}`, focus: nameId },
        // Kept as typed, without a re-render (that would swallow a click on Start).
        oninput: (e) => intents.renameSeat(i, e.target.value),
      }));
  });

  const humans = humanSeats(setup);
  let orderField = null;
  if (humans.length === 1 && !hasFriends(setup)) {
    const id = "setup-order";
    orderField = field("Turn order", h("select", {
      id, dataset: { testid: "order", focus: id }, onchange: (e) => update({ order: e.target.value }),
    },
    setup.seats.map((_, k) => h("option", { value: String(k), selected: setup.order === String(k) }, `You play ${ordinal(k)}`)),
    h("option", { value: "random", selected: setup.order === "random" }, "Random")), id);
  }

  const optionFields = (spec.options || []).map((opt) => optionField(opt, setup.options[opt.name], (v) => update({ options: { ...setup.options, [opt.name]: v } })));

  return h("section", { class: "screen setup-screen", dataset: { testid: "setup" }, "aria-labelledby": "setup-title" },
    h("header", { class: "screen-bar" },
      button("\u2190 Menu", { class: "quiet", dataset: { testid: "back", focus: "back" }, onclick: intents.showMenu }),
      h("h1", { id: "setup-title" }, `New game of ${spec.title}`),
      button("Rules", { class: "quiet", dataset: { testid: "rules", focus: "rules" }, onclick: () => intents.openRules(spec.id) })),
    h("form", { class: "setup-form", onsubmit: (e) => { e.preventDefault(); intents.startMatch(); } },
      replacing(state, intents),
      spec.summary ? h("p", { class: "setup-summary" }, spec.summary) : null,
      h("fieldset", {}, h("legend", {}, "Who plays"),
        h("div", { class: "setup-row" }, playerField, orderField),
        h("ol", { class: "seat-list" }, seatRows),
        levelsFold(state.ladder, spec.id, setup.players, levels)),
      optionFields.length ? h("fieldset", { class: "setup-options" }, h("legend", { class: "visually-hidden" }, "Options"), optionFields) : null,
      h("div", { class: "field option-field" },
        h("input", { type: "checkbox", id: "setup-practice", checked: setup.practice === true, dataset: { testid: "practice-option", focus: "setup-practice" },
          onchange: (e) => update({ practice: e.target.checked }) }),
        h("label", { for: "setup-practice" }, h("span", { class: "option-label" }, "Practice match"),
          h("span", { class: "option-description" }, "Take back any move, as often as you like; the match is marked as practice."))),
      hasFriends(setup) ? h("p", { class: "field-note", dataset: { testid: "friends-note" } },
        "Your device deals and runs the computer players; next you get an invitation link for each friend. "
        + "Each friend's device receives only their own cards.") : null,
      errorArea(state.error),
      h("div", { class: "form-actions" },
        h("button", { type: "submit", class: "primary big", dataset: { testid: "start", focus: "start" }, disabled: state.busy },
          state.busy ? "Dealing\u2026" : hasFriends(setup) ? "Deal and invite" : state.save ? "Abandon it and start" : "Start the match"))),
  );
}

function spec_counts(spec) {
  const out = [];
  for (let n = spec.min_players; n <= spec.max_players; n++) out.push(n);
  return out;
}

function field(labelText, control, id, note) {
  return h("div", { class: "field" }, h("label", { for: id }, labelText), control,
    note ? h("p", { class: "field-note" }, note) : null);
}

function optionField(opt, value, onChange) {
  const id = `opt-${opt.name}`;
  const isBool = opt.choices.length === 2 && opt.choices.every((c) => typeof c === "boolean");
  if (isBool) {
    return h("div", { class: "field option-field" },
      h("input", { type: "checkbox", id, checked: value === true, dataset: { option: opt.name, focus: id },
        onchange: (e) => onChange(e.target.checked) }),
      h("label", { for: id }, h("span", { class: "option-label" }, opt.label || opt.name),
        opt.description ? h("span", { class: "option-description" }, opt.description) : null));
  }
  return h("div", { class: "field" },
    h("label", { for: id }, opt.label || opt.name),
    h("select", { id, dataset: { option: opt.name, focus: id }, onchange: (e) => onChange(opt.choices[Number(e.target.value)]) },
      opt.choices.map((c, i) => h("option", { value: i, selected: c === value }, String(c)))),
    opt.description ? h("p", { class: "field-note" }, opt.description) : null);
}

/** A match in progress is saved: starting this one would end it. Said at the top of the
 * set-up (the Start button then reads "Abandon it and start"), with the way back to it. */
function replacing(state, intents) {
  const save = state.save;
  if (!save) return null;
  const title = save.title || save.game;
  return h("div", { class: "resume", dataset: { testid: "replace-warning" } },
    h("p", {}, `You have a ${title} match in progress. Starting a new match ends it: it cannot be resumed afterwards.`),
    h("button", { type: "button", class: "primary", dataset: { testid: "keep-playing", focus: "keep-playing" }, disabled: state.busy, onclick: intents.resume },
      `Keep playing your ${title} match`));
}

export function errorArea(message) {
  return h("div", { class: "error-area", role: "alert", dataset: { testid: "error" }, hidden: !message }, message || "");
}

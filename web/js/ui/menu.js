// The menu: one tile per registered game, in the bridge's order, plus each match in progress
// (resume or discard it; `saveName` names one) and the features' panels (`panels`: nodes from
// app.js, e.g. opening a match file).
import { h, button } from "./dom.js";

export function renderMenu(state, intents, panels, saveName) {
  const tiles = state.games.map((spec) => h("li", { class: "game-tile" },
    button([
      h("span", { class: "tile-title" }, spec.title),
      h("span", { class: "tile-summary" }, spec.summary || ""),
      h("span", { class: "tile-players" }, playersText(spec)),
    ], { class: "tile-play", dataset: { game: spec.id }, "aria-label": `Play ${spec.title}`, onclick: () => intents.openSetup(spec.id) }),
    button("Rules", { class: "tile-rules link-button", dataset: { testid: "rules", rulesGame: spec.id },
      "aria-label": `Rules of ${spec.title}`, onclick: () => intents.openRules(spec.id) }),
    button("Learn to play", { class: "tile-learn link-button", dataset: { testid: "learn", learnGame: spec.id },
      "aria-label": `Learn to play ${spec.title}`, onclick: () => intents.learn(spec.id) }),
  ));
  const saves = state.saves || [];
  return h("section", { class: "screen menu-screen", dataset: { testid: "menu" }, "aria-labelledby": "menu-title" },
    h("header", { class: "menu-header" },
      h("h1", { id: "menu-title", class: "brand" }, "Parlour"),
      h("p", { class: "tagline" }, "Card games against the computer. No account, no server, works offline.")),
    state.notice ? h("div", { class: "notice", role: "status", dataset: { testid: "notice" } },
      h("p", {}, state.notice),
      state.noticeMatch ? button("Save it as a file", { class: "quiet", dataset: { testid: "notice-export" },
        onclick: () => intents.exportMatch(state.noticeMatch.data, state.noticeMatch.title) }) : null) : null,
    saves.length ? h("section", { class: "resume saves", "aria-labelledby": "saves-title", dataset: { testid: "saves" } },
      h("h2", { id: "saves-title", class: "saves-title" }, saves.length > 1 ? "Your matches in progress" : "Your match in progress"),
      h("ul", { class: "saves-list" }, saves.map((save) => resumeRow(save, intents, saveName)))) : null,
    panels,
    h("ul", { class: "game-list", "aria-label": "Games" }, tiles),
    h("nav", { class: "menu-links", "aria-label": "More" },
      button("Statistics", { class: "quiet", dataset: { testid: "stats", focus: "stats" }, onclick: intents.openStats }),
      button("Settings", { class: "quiet", dataset: { testid: "settings", focus: "settings" }, onclick: intents.openSettings })),
    h("footer", { class: "menu-footer" }, h("p", {}, "Everything runs in your browser.")),
  );
}

/** A match in progress (one a game, and a coached round a game): its game, resume or discard it. */
function resumeRow(save, intents, saveName) {
  const name = saveName(save);
  const title = save.title || save.game;
  return h("li", { class: "save-row", dataset: { testid: "save", slot: save.slot } },
    h("span", { class: "save-name" }, title, save.slot !== save.game ? h("span", { class: "save-kind" }, ", coached round") : null),
    button("Resume", { class: "primary", dataset: { testid: "resume", focus: `resume-${save.slot}`, slot: save.slot },
      "aria-label": `Resume your ${name}`, onclick: () => intents.resume(save.slot) }),
    button("Discard", { class: "quiet", dataset: { testid: "discard-save", focus: `discard-${save.slot}`, slot: save.slot },
      "aria-label": `Discard your ${name}`, onclick: () => intents.discardSave(save.slot) }));
}

function playersText(spec) {
  if (spec.min_players === spec.max_players) return `${spec.min_players} players`;
  return `${spec.min_players}\u2013${spec.max_players} players`;
}

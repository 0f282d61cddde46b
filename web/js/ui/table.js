// The table frame every game shares: title bar, scores, whose turn, messages, the side
// panel of legal actions, and the dialogs for a hand-over, a round's end and the match's end.
// The game's own layout goes into `.game-root`; the features' panels (tools, the log,
// sharing, their dialogs) come in ready-made from app.js.
import { h, button } from "./dom.js";
import { errorArea } from "./setup.js";
import { humanSeats, seatName, winnerNames, youWon } from "../read-snapshot.js";

// Levels that search before they move (a bar shows their progress from the start); the
// others answer at once and get a bar only if progress arrives.
const SEARCHING = new Set(["hard", "expert"]);

// The message the person opened whole with a tap (the status line keeps one or two lines of
// it, so that the table never moves); it stays open across redraws while it is the same.
let openMessage = null;

/** The message in full over its line; a tap closes it. */
function wholeMessage(text, lastMove) {
  return h("p", { class: "message-whole", dataset: { testid: "message-whole" },
    onclick: (e) => toggleWhole(e.currentTarget, text) },
  lastMove ? h("span", { class: "status-last-label" }, "Last move: ") : null, text);
}

/** Open the message whole (or close it) in place, without a redraw of the table. */
function toggleWhole(el, text) {
  const holder = el.closest(".status-message");
  const open = holder.querySelector("[data-testid=message-whole]");
  if (open) {
    open.remove();
    openMessage = null;
    return;
  }
  openMessage = text;
  const line = holder.querySelector("[data-testid=message]");
  line.after(wholeMessage(text, Boolean(line.querySelector(".status-last-label"))));
}

function turnText(state) {
  const snap = state.snapshot;
  if (snap.is_over) return "The match is over";
  if (state.roundOver) return "The round is over";
  const cur = snap.current_player;
  if (cur === null || cur === undefined) return "";
  const name = seatName(snap, cur);
  if (snap.human_turn) {
    return humanSeats(snap).length > 1 ? `${name}'s turn` : "Your turn";
  }
  return state.thinking === cur ? `${name} is thinking\u2026` : `${name} to play`;
}

/** The thinking bot's progress bar (data-testid=thinking), or null. */
function thinkingBar(state) {
  const snap = state.snapshot;
  const seat = snap.current_player;
  if (state.thinking !== seat || snap.is_over || state.roundOver) return null;
  const fraction = state.thinkingFraction;
  if (fraction === null && !SEARCHING.has((snap.seats[seat] || {}).level)) return null;
  return h("progress", {
    class: "think-bar", max: 1, value: fraction || 0, dataset: { testid: "thinking" },
    "aria-label": `${seatName(snap, seat)} is thinking`,
  });
}

/** Move the thinking bar in place; false when there is none to move. */
export function setThinking(root, fraction) {
  const bar = root.querySelector("progress[data-testid=thinking]");
  if (bar) bar.value = fraction;
  return Boolean(bar);
}

/** The table screen around `gameRoot`; panels = {side: [Node], table: [Node], status: [Node]}
 * from the features (status: under the status line's messages). */
export function renderTable(state, intents, gameRoot, panels) {
  const snap = state.snapshot;
  const scores = (snap.result && snap.result.scores) || [];
  const scoreItems = snap.seats.map((seat, i) => h("li", {
    class: ["score", i === snap.current_player && !snap.is_over && "is-current", i === snap.viewer && "is-viewer"],
  }, h("span", { class: "score-name" }, seatName(snap, i)), " ", h("span", { class: "score-value" }, scores[i] ?? "")));
  const busy = state.busy;
  const actions = (snap.legal || []).filter((a) => a.player === snap.viewer || snap.human_turn);
  const hidden = Boolean(state.handoffTo !== null && state.handoffTo !== undefined);
  const lastText = state.lastMove ? state.lastMove.text : null;
  const shownMessage = state.message || lastText;
  const lastMoveShown = Boolean(lastText && shownMessage === lastText);

  return h("section", {
    class: ["screen", "table-screen", busy && "is-busy"], dataset: { testid: "table", tableGame: snap.game, source: state.source.kind, busy: busy ? "true" : "false", botTurn: snap.bot_turn ? "true" : "false" },
    "aria-labelledby": "table-title",
  },
  h("header", { class: "table-bar" },
    button("\u2190 Menu", { class: "quiet", dataset: { testid: "menu-button", focus: "menu-button" }, onclick: intents.showMenu }),
    h("h1", { id: "table-title" }, snap.title),
    h("div", { class: "bar-actions" },
      button("Rules", { class: "quiet", dataset: { testid: "rules", focus: "rules" }, onclick: () => intents.openRules(snap.game) }),
      button("New game", { class: "quiet", dataset: { testid: "new-game", focus: "new-game" }, onclick: () => intents.openSetup(snap.game) }))),
  h("div", { class: "status-line" },
    h("ul", { class: "scores", "aria-label": "Score" }, scoreItems),
    h("div", { class: "turn-line" },
      h("p", { class: ["turn", snap.human_turn && !state.roundOver && "is-you"], dataset: { testid: "turn" }, "aria-live": "polite" }, turnText(state)),
      thinkingBar(state)),
    // The latest move in words (or another message), in the bar that stays on screen; a
    // refusal shows over it, so that neither moves the table.
    h("div", { class: "status-message" },
      h("p", { class: "message-area", dataset: { testid: "message" }, "aria-live": "polite", hidden: !shownMessage,
        onclick: (e) => toggleWhole(e.currentTarget, shownMessage) },
        lastMoveShown ? h("span", { class: "status-last-label" }, "Last move: ") : null, shownMessage || ""),
      shownMessage && openMessage === shownMessage ? wholeMessage(shownMessage, lastMoveShown) : null,
      errorArea(state.error)),
    panels.status),
  state.unsaved && !snap.is_over ? unsavedNotice(busy, intents) : null,
  h("div", { class: "table-main" },
    hidden ? h("div", { class: "game-root is-hidden" }) : gameRoot,
    h("aside", { class: "side-panel", "aria-label": "Moves and log" },
      h("h2", {}, snap.human_turn && !hidden ? "Your moves" : "Moves"),
      movesDrawer(actions.length, !hidden && !state.roundOver, h("div", { class: "action-list", dataset: { testid: "actions" } },
        hidden || state.roundOver ? null : actions.map((a) => sideAction(a, busy, intents, panels.confirm && panels.confirm(a, snap))),
        !actions.length || hidden ? h("p", { class: "field-note" }, snap.is_over ? "The match is over."
          : state.roundOver ? "The round is over." : `Waiting for ${seatName(snap, snap.current_player) || "the other players"}\u2026`) : null)),
      panels.side)),
  state.handoffTo !== null && state.handoffTo !== undefined ? handoff(state, intents) : null,
  state.roundOver && !snap.is_over
    ? (state.roundTable ? roundOverBar(state.roundOver, intents) : roundOverDialog(snap, state.roundOver, intents, Boolean(state.roundEnd), panels.over))
    : null,
  snap.is_over ? matchOver(state, intents, panels.over) : null,
  // The features' dialogs last: one opened from the match-over dialog shows over it.
  panels.table,
  );
}

/** The last save failed (storage full or turned off): say so, offer the match as a file. Play
 * goes on; the page tries again after every move and takes this down when a save works. */
function unsavedNotice(busy, intents) {
  return h("div", { class: "save-warning", role: "status", dataset: { testid: "unsaved" } },
    h("p", {}, "This device cannot keep this match: its storage is full or turned off."),
    button("Save as a file", { class: "quiet-ink", dataset: { testid: "unsaved-export", focus: "unsaved-export" }, disabled: busy, onclick: () => intents.exportMatch(null, null, { unsaved: true }) }));
}

/**
 * One move of the side panel. A move that gives something up (the game's renderer says which,
 * with the question to ask: `confirm(action, snapshot)`) is a fold to open and confirm, as on
 * the table, so that it is never made by one stray click.
 */
function sideAction(a, busy, intents, question) {
  const play = (text, focus) => button(text, {
    class: ["action-button", a.kind === "pass" && "is-pass"], dataset: { action: a.id, focus },
    disabled: busy, onclick: () => intents.send(a.id),
  });
  if (!question) return play(a.label, "side:" + a.id);
  return h("details", { class: "action-confirm", dataset: { testid: "confirm-" + a.id } },
    h("summary", { class: "action-button is-pass", dataset: { focus: "side-open:" + a.id } }, `${a.label}\u2026`),
    h("p", { class: "field-note" }, question),
    play(`Yes: ${a.label.charAt(0).toLowerCase()}${a.label.slice(1)}`, "side:" + a.id));
}

// On a narrow screen a long list of moves folds into a drawer (the table's own controls
// play them too); the person's opening or closing it is kept while the page is open.
const NARROW = "(max-width: 860px)";
const DRAWER_AFTER = 6;
let drawerOpen = false;

/** True on a screen narrow enough that the side panel sits below the table. */
export function isNarrow() {
  return Boolean(window.matchMedia && window.matchMedia(NARROW).matches);
}

function movesDrawer(count, live, list) {
  if (!live || count <= DRAWER_AFTER || !isNarrow()) return list;
  return h("details", {
    class: "moves-drawer", open: drawerOpen, dataset: { testid: "moves-drawer" },
    ontoggle: (event) => { drawerOpen = event.target.open; },
  }, h("summary", {}, `All ${count} moves`), list);
}

function handoff(state, intents) {
  const name = seatName(state.snapshot, state.handoffTo);
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "handoff-title", dataset: { testid: "handoff" } },
    h("div", { class: "overlay-card" },
      h("h2", { id: "handoff-title" }, `Pass the device to ${name}`),
      h("p", {}, "The cards stay hidden until they are ready."),
      h("div", { class: "form-actions" },
        button(`I am ${name}: show my cards`, { class: "primary", dataset: { testid: "handoff-ready", focus: "handoff-ready" }, onclick: intents.handoffReady }),
        button("Menu", { class: "quiet", onclick: intents.showMenu }))));
}

/** The round-over dialog; summary = {title, lines, detail?} (from the game's renderer or the
 * scores; detail is a Node that shows the scoring with cards). With `canView`, the table
 * behind it is the round's final position and a toggle shows it. `extra`: what the features
 * add to its buttons. */
function roundOverDialog(snapshot, summary, intents, canView, extra = null) {
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "round-title", dataset: { testid: "round-over" } },
    h("div", { class: ["overlay-card", summary.detail && "is-wide"] },
      h("h2", { id: "round-title" }, summary.title),
      (summary.lines || []).map((line) => h("p", {}, line)),
      summary.detail || null,
      scoreTable(snapshot),
      h("div", { class: "form-actions" },
        button("Continue", { class: "primary big", dataset: { testid: "continue", focus: "continue" }, onclick: intents.continueRound }),
        canView ? button("View table", {
          class: "quiet", dataset: { testid: "view-table", focus: "view-table" }, "aria-pressed": "false", onclick: intents.toggleRoundTable,
        }) : null,
        extra)));
}

/** The round's result put aside: a bar over the table as the round ended. */
function roundOverBar(summary, intents) {
  return h("div", { class: "round-bar", role: "region", "aria-label": "Round over", dataset: { testid: "round-bar" } },
    h("p", { class: "round-bar-title" }, `${summary.title}: the table as it ended`),
    h("div", { class: "round-bar-buttons" },
      button("Show the result", {
        class: "quiet", dataset: { testid: "view-table", focus: "view-table" }, "aria-pressed": "true", onclick: intents.toggleRoundTable,
      }),
      button("Continue", { class: "primary", dataset: { testid: "continue", focus: "continue" }, onclick: intents.continueRound })));
}

function scoreTable(snapshot) {
  const scores = snapshot.result.scores || [];
  return h("ul", { class: "final-scores" }, snapshot.seats.map((_, i) => h("li", {},
    h("span", {}, seatName(snapshot, i)), h("strong", {}, String(scores[i] ?? "")))));
}

/** The game module's optional matchSummary(snapshot, seatName) -> Node for the match-over dialog. */
function gameMatchSummary(state) {
  const mod = state.renderer;
  if (!mod || typeof mod.matchSummary !== "function") return null;
  try { return mod.matchSummary(state.snapshot, (seat) => seatName(state.snapshot, seat)) || null; } catch { return null; }
}

function matchOver(state, intents, extra = null) {
  const snap = state.snapshot;
  const names = winnerNames(snap);
  let title = "The match is over";
  if (names.length === 1) title = youWon(snap) ? "You win the match!" : `${names[0]} wins the match`;
  else if (names.length > 1) title = `${names.join(" and ")} share the win`;
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "match-title", dataset: { testid: "match-over" } },
    h("div", { class: "overlay-card" },
      h("h2", { id: "match-title", dataset: { testid: "winner" } }, title),
      h("p", { class: "field-note" }, "Final score"),
      scoreTable(snap),
      gameMatchSummary(state),
      h("div", { class: "form-actions" },
        // A match of another device's (a friend's page: the host deals a rematch, `extra` says so).
        !state.source.local ? null : [
          button("Play again", { class: "primary big", dataset: { testid: "play-again", focus: "play-again" }, disabled: state.busy, onclick: intents.playAgain }),
          button("Watch the replay", { class: "quiet-ink", dataset: { testid: "replay-open", focus: "replay-open" }, disabled: state.busy, onclick: intents.openFinishedReplay }),
          button("Export match", { class: "quiet-ink", dataset: { testid: "export-over", focus: "export-over" }, disabled: state.busy, onclick: () => intents.exportMatch() }),
          intents.openReview ? button("Review my moves", { class: "quiet-ink", dataset: { testid: "review-open", focus: "review-open" }, disabled: state.busy, onclick: intents.openReview }) : null,
        ],
        extra,
        button("Back to the menu", { class: "quiet", dataset: { focus: "over-menu" }, onclick: intents.showMenu }))));
}

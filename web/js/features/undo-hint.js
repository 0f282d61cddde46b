// Take back and "suggest a move": the side panel's tools for the human seat's turn.
// The undo policy is the engine's (engine/bridge/session.py, undo_count); the suggestion is the analysis's best
// move from the person's seat (bridge.hint), with its reason in plain words. The page only
// shows the result: a suggestion is
// highlighted on its side-panel button and on its cards where the table draws them, never
// played; it replaces the person's selection.
import { h, button } from "../ui/dom.js";
import { isNarrow } from "../ui/table.js";
import { hasFriends } from "../ui/setup-model.js";
import { forTheRecord } from "./daily.js";

/** The side panel's tools: Undo (when the engine allows one), Suggest a move, practice. */
function playTools(state, intents) {
  const snap = state.snapshot;
  const hidden = state.handoffTo !== null && state.handoffTo !== undefined;
  if (!snap || hidden) return null;
  const busy = state.busy;
  if (forTheRecord(state)) {
    return h("p", { class: "practice-badge", dataset: { testid: "for-the-record" } },
      h("strong", {}, "For the record"), " \u00b7 no hint, undo or analysis until it ends");
  }
  const canHint = snap.human_turn && !snap.is_over && !state.roundOver;
  const tools = [];
  if (snap.can_undo) {
    let title = "Take back your moves this turn (not past a card that was revealed)";
    if (snap.practice) title = "Take back your last move (practice: anything may be taken back)";
    else if (hasFriends(snap)) title = "Take back your last move (only until the next player acts)";
    tools.push(button("Undo", {
      class: "quiet", dataset: { testid: "undo", focus: "undo" }, disabled: busy, onclick: intents.undo, title,
    }));
  }
  if (canHint) {
    tools.push(button("Suggest a move", {
      class: "quiet", dataset: { testid: "hint", focus: "hint" }, disabled: busy, onclick: intents.hint,
    }));
  }
  return h("div", { class: "play-tools" },
    snap.practice ? h("p", { class: "practice-badge", dataset: { testid: "practice" } },
      h("strong", {}, "Practice"), " \u00b7 unlimited undo") : null,
    tools.length ? h("div", { class: "play-tools-buttons" }, tools) : null);
}

/** The hint for the current position, or null once anything has moved on. */
function currentHint(state) {
  const hint = state.hint;
  const snap = state.snapshot;
  if (!hint || !snap || hint.snapshot !== snap || !snap.human_turn) return null;
  return hint;
}

/** After a render: light up the suggested action's buttons and its cards on the table. */
function decorateHint(root, state) {
  const hint = currentHint(state);
  if (!hint) return;
  const table = root.querySelector("[data-testid=table]");
  if (!table) return;
  for (const el of table.querySelectorAll(`[data-action="${CSS.escape(hint.id)}"]`)) {
    el.classList.add("is-hinted");
    el.setAttribute("aria-description", "suggested move");
    // A move to confirm sits in a fold (Spite and Malice's end of turn with a build left),
    // and a long list of moves in a drawer: open what holds it, so the lit control shows.
    for (let fold = el.closest("details"); fold; fold = fold.parentElement && fold.parentElement.closest("details")) fold.open = true;
  }
  const game = table.querySelector(".game-root");
  if (!game) return;
  // Only cards the person can act with (their own, or the ones the move names on the table).
  for (const card of hint.cards || []) {
    for (const el of game.querySelectorAll(`[data-card="${CSS.escape(card)}"]`)) {
      el.classList.add("is-hinted");
      el.setAttribute("aria-description", "part of the suggested move");
    }
  }
}

/** hint(): ask the table's source (the engine, or the host's) for the Hard search's move in the person's place, and why. */
function intents({ state, render, token }) {
  return {
    async hint() {
      const snap = state.snapshot;
      if (state.busy || !snap || !snap.human_turn || forTheRecord(state)) return;
      const moves = snap.moves;
      const asked = token();
      state.message = "Thinking of a move for you\u2026";
      render();
      const asking = {
        current: () => asked === token() && state.snapshot && state.snapshot.moves === moves,
        refused: (error) => {
          state.hint = null;
          state.message = null;
          state.error = error.message;
          render();
        },
      };
      // The table's source thinks (on a friend's page, the host's engine, for the friend's seat alone).
      const reply = await state.source.hint(asking);
      if (!reply) return;
      const action = reply.action;
      state.hint = { id: action.id, label: action.label, cards: action.cards || [], snapshot: state.snapshot };
      // The suggestion takes the place of what was selected: its own cards that the table
      // lets the person pick become the selection, so one move is lit, not two.
      const pickable = new Set([...document.querySelectorAll(".game-root button[data-card]")].map((el) => el.dataset.card));
      state.selection = new Set(state.hint.cards.filter((card) => pickable.has(card)));
      state.error = null;
      state.message = `Suggested move \u2014 ${reply.reason}`;
      render();
      const target = document.querySelector(`[data-testid=actions] [data-action="${CSS.escape(action.id)}"]`);
      // On a phone the list of moves is below the table: the page stays on the table, where
      // the suggested move is lit.
      if (target && !isNarrow()) target.scrollIntoView({ block: "nearest" });
    },
  };
}

export const feature = {
  state: {
    hint: null,  // {id, label, cards, snapshot}: the suggested move for that snapshot
  },
  intents,
  panels: { side: playTools },
  afterRender: decorateHint,
};

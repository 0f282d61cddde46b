// The helpers every game renderer receives as `ui` in render(root, snapshot, ui).
// Renderers only draw and call ui.send / ui.why / ui.setSelection: they never decide a rule.
//
// A game module web/js/games/<id>.js exports:
//   render(root, snapshot, ui)                      required: append the game's layout to root
//   describeMove(move, snapshot, seatName) -> text  optional: "North plays 7♥ 7♠"
//   roundSummary(prev, snapshot, seatName)          optional: {title, lines[]} for round-over
//   matchSummary(snapshot, seatName) -> Node|null   optional: extra content for match-over
// The frame around it (scores, turn, error area, side panel of every legal action, log,
// round-over / match-over dialogs) is drawn by ui/table.js for every game.
import { h, button, listen } from "./dom.js";
import { cardElement, cardBack, cardText, cardName } from "./cards.js";
import { matchingActions, extendableCards, actionsExtending, wouldBeId } from "./selection.js";
import { seatName } from "../read-snapshot.js";

const FRESH_MS = 500;

/** The helpers for drawing `snapshot` (the match's, or the table as a round ended). */
export function createUi(state, intents, snapshot = state.snapshot) {
  const selection = state.selection;
  const legal = snapshot.legal || [];
  // A move's animation runs once: later re-renders continue it where it is (negative delay).
  const sinceMove = performance.now() - (state.freshAt || 0);
  const fresh = state.freshAt > 0 && sinceMove < FRESH_MS;
  const ui = {
    h, button, cardText, cardName,
    selection,
    busy: state.busy,
    fresh,                         // true just after a move: animate what it changed
    freshDelay: fresh ? sinceMove : 0,
    lastMove: state.lastMove,      // {player, id, label, cards} of the latest move or null
    thinking: state.thinking,      // the seat a bot is thinking for, or null
    seatName: (seat) => seatName(snapshot, seat),
    send: (actionId) => intents.send(actionId),
    why: (actionId) => intents.why(actionId),
    clearSelection: () => intents.setSelection([]),
    setSelection: (cards) => intents.setSelection(cards),

    /** A face-up card; selectable cards toggle the hand selection when clicked. */
    card(cardId, opts = {}) {
      const selectable = Boolean(opts.selectable);
      return cardElement(cardId, {
        ...opts,
        freshDelay: opts.fresh ? sinceMove : 0,
        selected: opts.selected ?? (selectable && selection.has(cardId)),
        onclick: selectable ? () => (opts.onclick ? opts.onclick(cardId) : intents.toggleCard(cardId)) : undefined,
      });
    },
    cardBack,

    /** A card that cannot be used now but answers a click (or Enter, Space) with `refuse()`,
     * which asks the engine why. Not a selectable button: it never joins a selection. */
    refusedCard(cardId, refuse, opts = {}) {
      const el = cardElement(cardId, {
        ...opts, dim: true, freshDelay: opts.fresh ? sinceMove : 0,
        extraLabel: [opts.extraLabel, "cannot be used now"].filter(Boolean).join(", "),
      });
      el.setAttribute("role", "button");
      el.tabIndex = 0;
      el.classList.add("is-refused");
      el.dataset.focus = "card:" + cardId;
      listen(el, "click", refuse);
      listen(el, "keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); refuse(); }
      });
      return el;
    },

    /** A button that takes a legal action (carries data-action). */
    actionButton(action, text, opts = {}) {
      return button(text ?? action.label, {
        class: ["action-button", opts.class], dataset: { action: action.id, focus: (opts.focusPrefix || "table:") + action.id },
        disabled: state.busy, onclick: () => intents.send(action.id),
      });
    },

    /** The legal actions whose cards are exactly the current selection. */
    matching: (actions = legal) => matchingActions(actions, selection),
    /** Hand cards that bring the selection closer to some legal action. */
    extendable: (actions = legal) => extendableCards(actions, selection),
    /** Legal actions that contain every selected card. */
    extending: (actions = legal) => actionsExtending(actions, selection),
    wouldBeId: (prefix, compare) => wouldBeId(prefix, selection, compare),
    legal,
    actionsOfKind: (kind) => legal.filter((a) => a.kind === kind),
  };
  return ui;
}

// Playing with the keyboard alone: the arrow keys move through the cards of a hand (Home/End
// to its ends), Enter/Space select a card (they are real buttons), Escape clears the selection,
// Tab from a selected card goes on to the button that plays the selection (the cards are
// walked with the arrows), Tab stays inside an open dialog, and after a move the focus comes back to the hand instead
// of being lost on <body>.
const CARD = "button[data-card]:not(:disabled)";
const GROUPS = "[data-testid=hand], .hand, [role=group], [role=listbox]";

let keyboardMode = false;

function visible(el) {
  return el && el.isConnected && el.getClientRects().length > 0;
}

function cardsAround(card) {
  const group = card.closest(GROUPS) || card.parentElement;
  return group ? [...group.querySelectorAll(CARD)].filter(visible) : [];
}

function moveInHand(event) {
  const active = document.activeElement;
  if (!active || !active.matches || !active.matches(CARD)) return false;
  const cards = cardsAround(active);
  const at = cards.indexOf(active);
  if (at < 0 || cards.length < 2) return false;
  let next;
  switch (event.key) {
    case "ArrowLeft": case "ArrowUp": next = cards[(at - 1 + cards.length) % cards.length]; break;
    case "ArrowRight": case "ArrowDown": next = cards[(at + 1) % cards.length]; break;
    case "Home": next = cards[0]; break;
    case "End": next = cards[cards.length - 1]; break;
    default: return false;
  }
  next.focus();
  next.scrollIntoView({ block: "nearest", inline: "nearest" });
  return true;
}

function focusables(container) {
  return [...container.querySelectorAll("button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])")]
    .filter((el) => !el.disabled && visible(el));
}

/** Keep Tab inside the top-most open dialog. */
function trapTab(event, root) {
  const dialogs = root.querySelectorAll(".overlay[role=dialog], [role=dialog][aria-modal=true]");
  const dialog = dialogs[dialogs.length - 1];
  if (!dialog) return false;
  const items = focusables(dialog);
  if (!items.length) return false;
  const first = items[0];
  const last = items[items.length - 1];
  const inside = dialog.contains(document.activeElement);
  if (!inside) { (event.shiftKey ? last : first).focus(); return true; }
  if (event.shiftKey && document.activeElement === first) { last.focus(); return true; }
  if (!event.shiftKey && document.activeElement === last) { first.focus(); return true; }
  return false;
}

/** Tab from a card of a hand while cards are selected: on to the table's button that plays
 * them (the controls below the hand, a confirm button first), past the rest of the hand. */
function tabToConfirm(event, state) {
  if (event.shiftKey || state.screen !== "table" || !state.selection || !state.selection.size) return false;
  const active = document.activeElement;
  if (!active || !active.matches || !active.matches(CARD) || !active.closest(".game-root")) return false;
  const controls = document.querySelector(".game-root [data-testid=controls]");
  if (!controls) return false;
  const buttons = focusables(controls);
  const target = buttons.find((el) => el.matches(".confirm-play:not(.is-illegal), .primary")) || buttons[0];
  if (!target) return false;
  target.focus();
  return true;
}

/** Where the keyboard goes on the table when the focus was lost (after a move, a bot's turn). */
function focusTarget(root) {
  const table = root.querySelector("[data-testid=table]");
  if (!table || table.dataset.busy === "true") return null;
  if (root.querySelector(".overlay")) return null;   // app.js focuses the dialog itself
  const selectors = [
    ".game-root [data-testid=hand] " + CARD,
    ".game-root " + CARD,
    ".game-root [data-action]:not(:disabled)",
    "[data-testid=actions] [data-action]:not(:disabled)",
  ];
  for (const sel of selectors) {
    const found = [...root.querySelectorAll(sel)].find(visible);
    if (found) return found;
  }
  return null;
}

function lostFocus() {
  const active = document.activeElement;
  return !active || active === document.body || active === document.documentElement || !active.isConnected;
}

function start({ root, intents, state }) {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Tab" || event.key.startsWith("Arrow") || event.key === "Enter" || event.key === " ") keyboardMode = true;
    if (event.key === "Tab") {
      if (trapTab(event, root) || tabToConfirm(event, state)) event.preventDefault();
      return;
    }
    if (moveInHand(event)) { event.preventDefault(); return; }
    if (event.key === "Escape") {
      if (state.screen === "table" && state.selection && state.selection.size && !root.querySelector(".overlay")) {
        intents.setSelection([]);
        event.preventDefault();
      }
    }
  }, true);
  document.addEventListener("pointerdown", () => { keyboardMode = false; }, true);

  const observer = new MutationObserver(() => {
    if (!keyboardMode || !lostFocus()) return;
    const target = focusTarget(root);
    if (target) target.focus();
  });
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-busy"] });
}

export const feature = { start };

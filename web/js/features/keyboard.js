// Playing with the keyboard alone. On the table each hand is one Tab stop (a roving tabindex:
// the card last visited holds it) and the arrow keys move through its cards (Home/End to its
// ends); Enter/Space select a card (they are real buttons), Escape clears the selection. Tab
// goes the hand first, then the table's targets (piles, stacks, melds), then the buttons that
// confirm a play, then the side panel, whatever order the game's drawing puts them in; Tab
// stays inside an open dialog. The key R reads the table aloud through the live region (whose
// turn, the scores, what happened since the person's last move). After a move the focus comes
// back to the hand instead of being lost on <body>.
import { seatName } from "../read-snapshot.js";
import { announce } from "./announce.js";

// A card is a button; one that cannot be used now is a span with the button role (a press
// says why), in the hand's one Tab stop all the same.
const CARD = ":is(button[data-card]:not(:disabled), [role=button][data-card])";
const GROUPS = "[data-testid=hand], .hand, [role=group], [role=listbox]";
const HANDS = ".game-root [data-testid=hand], .game-root .hand";
const TABBABLE = "button, [href], input, select, textarea, summary, [tabindex]";
/** The key that reads the table aloud. */
export const READ_KEY = "r";

let keyboardMode = false;
// The card of each hand that holds its Tab stop: the one last visited (by card id).
const visited = new Map();

function visible(el) {
  return el && el.isConnected && el.getClientRects().length > 0
    && (typeof el.checkVisibility !== "function" || el.checkVisibility({ visibilityProperty: true }));
}

function cardsAround(card) {
  const group = card.closest(GROUPS) || card.parentElement;
  return group ? [...group.querySelectorAll(CARD)].filter(visible) : [];
}

function handKey(hand) {
  return hand.dataset.testid || hand.className;
}

/** One Tab stop a hand: the card visited last (else a selected one, else the first usable) keeps
 * tabindex 0, the others -1. */
function rove(root) {
  for (const hand of root.querySelectorAll(HANDS)) {
    if (hand.parentElement && hand.parentElement.closest(HANDS)) continue;
    const cards = [...hand.querySelectorAll(CARD)];
    if (!cards.length) continue;
    const last = visited.get(handKey(hand));
    const holder = cards.find((c) => c === document.activeElement) || cards.find((c) => c.dataset.card === last)
      || cards.find((c) => c.getAttribute("aria-pressed") === "true") || cards.find((c) => c.matches("button")) || cards[0];
    for (const card of cards) card.tabIndex = card === holder ? 0 : -1;
  }
}

/** A card of a hand has the focus (arrow keys, a click): it holds the hand's Tab stop. */
function noteVisit(card) {
  const hand = card.closest(HANDS);
  if (!hand) return;
  visited.set(handKey(hand), card.dataset.card);
  for (const other of hand.querySelectorAll(CARD)) other.tabIndex = other === card ? 0 : -1;
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
  return [...container.querySelectorAll(TABBABLE)]
    .filter((el) => !el.disabled && el.tabIndex >= 0 && visible(el));
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

/** The page's Tab stops in the table's order: those before the game's drawing, then its
 * hands, its targets, its confirm buttons (data-testid=controls), then those after it (the
 * side panel). Null off the table. */
export function tableOrder(root) {
  const game = root.querySelector("[data-testid=table] .game-root");
  if (!game) return null;
  const all = focusables(document.body);
  const inGame = all.filter((el) => game.contains(el));
  const hands = inGame.filter((el) => el.closest(HANDS));
  const controls = inGame.filter((el) => !el.closest(HANDS) && el.closest("[data-testid=controls]"));
  const targets = inGame.filter((el) => !hands.includes(el) && !controls.includes(el));
  const before = all.filter((el) => !inGame.includes(el) && (el.compareDocumentPosition(game) & Node.DOCUMENT_POSITION_FOLLOWING));
  const after = all.filter((el) => !inGame.includes(el) && !before.includes(el));
  return [...before, ...hands, ...targets, ...controls, ...after];
}

/** Tab on the table: the next stop in tableOrder (the browser's own past either end). */
function tabOnTable(event, root, state) {
  if (state.screen !== "table") return false;
  const order = tableOrder(root);
  if (!order) return false;
  const at = order.indexOf(document.activeElement);
  if (at < 0) return false;
  const step = event.shiftKey ? -1 : 1;
  // The next one that takes the focus (one hidden by its styles does not).
  for (let i = at + step; i >= 0 && i < order.length; i += step) {
    order[i].focus();
    if (document.activeElement === order[i]) return true;
  }
  return false;
}

/** The table in words: whose turn, the scores, and what happened since the person's last
 * move (or the latest move). */
export function tableWords(state) {
  const snap = state.snapshot;
  if (!snap) return "";
  const words = [];
  const turn = document.querySelector("[data-testid=turn]");
  if (turn && turn.textContent.trim()) words.push(turn.textContent.trim().replace(/\u2026$/, "") + ".");
  const scores = (snap.result && snap.result.scores) || [];
  if (scores.length) words.push(`Scores: ${snap.seats.map((_, i) => `${seatName(snap, i)} ${scores[i] ?? 0}`).join(", ")}.`);
  const log = Array.isArray(snap.log) ? snap.log : [];
  const since = [];
  for (let i = log.length - 1; i >= 0 && since.length < 6; i--) {
    if (log[i].player === snap.viewer && since.length) break;
    since.unshift(log[i]);
    if (log[i].player === snap.viewer) break;
  }
  if (since.length) {
    const told = since.map((e) => (e.player === null || e.player === undefined ? e.text : `${seatName(snap, e.player)}: ${e.text}`));
    words.push(`Just now: ${told.join("; ")}.`);
  } else if (state.message) {
    words.push(state.message);
  }
  return words.join(" ").replace(/\.\./g, ".");
}

function typing(el) {
  return el && el.matches && el.matches("input, textarea, select, [contenteditable]");
}

/** Where the keyboard goes on the table when the focus was lost (after a move, a bot's turn). */
function focusTarget(root) {
  const table = root.querySelector("[data-testid=table]");
  if (!table || table.dataset.busy === "true") return null;
  if (root.querySelector(".overlay")) return null;   // app.js focuses the dialog itself
  const selectors = [
    ".game-root [data-testid=hand] " + CARD + "[tabindex='0']",
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
      if (trapTab(event, root) || (!root.querySelector(".overlay") && tabOnTable(event, root, state))) event.preventDefault();
      return;
    }
    if (moveInHand(event)) { event.preventDefault(); return; }
    if (event.key.toLowerCase() === READ_KEY && state.screen === "table" && !typing(event.target)) {
      announce(tableWords(state));
      event.preventDefault();
      return;
    }
    if (event.key === "Escape") {
      if (state.screen === "table" && state.selection && state.selection.size && !root.querySelector(".overlay")) {
        intents.setSelection([]);
        event.preventDefault();
      }
    }
  }, true);
  document.addEventListener("pointerdown", () => { keyboardMode = false; }, true);
  root.addEventListener("focusin", (event) => {
    if (event.target.matches && event.target.matches(CARD)) noteVisit(event.target);
  });

  const observer = new MutationObserver(() => {
    if (!keyboardMode || !lostFocus()) return;
    const target = focusTarget(root);
    if (target) target.focus();
  });
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-busy"] });
}

export const feature = {
  start,
  afterRender(root) { rove(root); },
  /** A new match: no card of its hands visited yet. */
  afterSnapshot(prev, snap) { if (!prev || prev.game !== snap.game) visited.clear(); },
};

// Cards drawn with CSS: rank + suit symbol. Card ids follow engine/cards.py:
// "10H", "QS", "7H#2" (a second deck: drawn as 7♥), "JK1" (a joker).
import { h } from "./dom.js";

export const SUIT_SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };

/** {rank, suit, joker, base} of a card id; unknown ids come back with joker false, suit "". */
export function parseCard(cardId) {
  const base = String(cardId).split("#", 1)[0];
  if (base.startsWith("JK")) return { base, rank: "JK", suit: "", joker: true };
  const suit = base.slice(-1);
  if (!(suit in SUIT_SYMBOLS)) return { base, rank: base, suit: "", joker: false };
  return { base, rank: base.slice(0, -1), suit, joker: false };
}

/** "10♥", "Q♠", "Joker". */
export function cardText(cardId) {
  const c = parseCard(cardId);
  if (c.joker) return "Joker";
  return c.rank + (SUIT_SYMBOLS[c.suit] || "");
}

/** "10 of hearts", "Queen of spades", "Joker". */
export function cardName(cardId) {
  const c = parseCard(cardId);
  if (c.joker) return "Joker";
  const rank = RANK_NAMES[c.rank] || c.rank;
  return c.suit ? `${rank} of ${SUIT_NAMES[c.suit]}` : rank;
}

export function cardsText(cards) {
  return (cards || []).map(cardText).join(" ");
}

export function isRed(cardId) {
  const c = parseCard(cardId);
  return c.suit === "H" || c.suit === "D";
}

/**
 * A face-up card. opts: selectable (a button that toggles selection, via opts.onclick),
 * selected, playable (can extend the selection toward a legal play), dim, small, fresh
 * (animate in), extraLabel (appended to the spoken name).
 */
export function cardElement(cardId, opts = {}) {
  const c = parseCard(cardId);
  const classes = ["card", c.joker ? "card-joker" : isRed(cardId) ? "card-red" : "card-black",
    opts.small && "card-small", opts.tiny && "card-tiny", opts.selected && "is-selected",
    opts.playable && "is-playable", opts.dim && "is-dim", opts.fresh && "is-fresh",
    opts.selectable && "is-selectable"];
  const symbol = c.joker ? "\u2605" : SUIT_SYMBOLS[c.suit] || "";
  const rank = c.joker ? "JK" : c.rank;
  let label = cardName(cardId);
  if (opts.selectable) label += opts.selected ? ", selected" : opts.playable ? ", can be added" : "";
  if (opts.extraLabel) label += ", " + opts.extraLabel;
  const face = [
    h("span", { class: "card-corner card-corner-top", "aria-hidden": "true" },
      h("span", { class: "card-rank" }, rank), h("span", { class: "card-suit" }, symbol)),
    h("span", { class: "card-pip", "aria-hidden": "true" }, c.joker ? "\u2605" : symbol),
    h("span", { class: "card-corner card-corner-bottom", "aria-hidden": "true" },
      h("span", { class: "card-rank" }, rank), h("span", { class: "card-suit" }, symbol)),
  ];
  const style = opts.fresh && opts.freshDelay ? { animationDelay: `-${Math.round(opts.freshDelay)}ms` } : null;
  if (opts.selectable) {
    return h("button", {
      type: "button", class: classes, "aria-label": label, "aria-pressed": opts.selected ? "true" : "false",
      dataset: { card: cardId, focus: "card:" + cardId }, onclick: opts.onclick, style,
    }, face);
  }
  return h("span", { class: classes, role: "img", "aria-label": label, dataset: { card: cardId }, style }, face);
}

/** A face-down card (an opponent's hand, the draw pile). */
export function cardBack(opts = {}) {
  return h("span", {
    class: ["card", "card-back", opts.small && "card-small", opts.tiny && "card-tiny"],
    "aria-hidden": opts.label ? false : "true", role: opts.label ? "img" : false,
    "aria-label": opts.label || false,
  });
}

// Cards: a face is its corner indices (rank + suit, drawn as text: cards.css) over its art
// (pips, court figure or joker from card-art.js) once that has loaded, or a big suit symbol
// until then; a back is drawn with CSS in the pattern the Card backs setting chose. Card ids
// follow engine/cards.py: "10H", "QS", "7H#2" (a second deck: drawn as 7♥), "JK1" (a joker).
import { artFor, noteCardsDrawn } from "./card-art.js";
import { h } from "./dom.js";

export const SUIT_SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
/** The ranks from Ace to King: RANKS[n - 1] is the rank worth n (1 to 13). */
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };

/** {rank, suit, joker, base} of a card id; unknown ids come back with joker false, suit "". */
function parseCard(cardId) {
  const base = String(cardId).split("#", 1)[0];
  if (base.startsWith("JK")) return { base, rank: "JK", suit: "", joker: true };
  const suit = base.slice(-1);
  if (!(suit in SUIT_SYMBOLS)) return { base, rank: base, suit: "", joker: false };
  return { base, rank: base.slice(0, -1), suit, joker: false };
}

/** The rank of a card id ("10" of "10H", "Q" of "QS#2", "JK" of a joker). */
export function rankOf(cardId) {
  return parseCard(cardId).rank;
}

/** The suit letter of a card id ("H" of "10H"; "" for a joker). */
export function suitOf(cardId) {
  return parseCard(cardId).suit;
}

/** An order of card ids: by the number `first(card)`, then by `second(card)` (a hand's
 * order on the table, the order a selection is named in a "why" request). */
export function cardOrder(first, second) {
  return (a, b) => first(a) - first(b) || second(a) - second(b);
}

export function isJoker(cardId) {
  return parseCard(cardId).joker;
}

/** "Ace", "Jack", "10": a rank in words. */
export function rankName(rank) {
  return RANK_NAMES[rank] || rank;
}

/** "1 card", "3 cards". */
export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function isRedSuit(suit) {
  return suit === "H" || suit === "D";
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
  const rank = rankName(c.rank);
  return c.suit ? `${rank} of ${SUIT_NAMES[c.suit]}` : rank;
}

function isRed(cardId) {
  return isRedSuit(parseCard(cardId).suit);
}

/**
 * A face-up card. opts: selectable (a button that toggles selection, via opts.onclick),
 * selected, playable (can extend the selection toward a legal play), dim, small, fresh
 * (animate in), extraLabel (appended to the spoken name).
 */
export function cardElement(cardId, opts = {}) {
  const c = parseCard(cardId);
  const art = opts.tiny ? null : artFor(c.base);
  const classes = ["card", c.joker ? "card-joker" : isRed(cardId) ? "card-red" : "card-black",
    c.suit && "suit-" + c.suit, art && "has-art",
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
    art,
  ];
  if (!opts.tiny) noteCardsDrawn();
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

// Multi-card selection against the legal actions' `cards` lists. Pure functions: they
// decide nothing about the rules, they only compare the selection with what the engine
// says is legal.

function sortedKey(cards) {
  return [...cards].map(String).sort().join(",");
}

/** Legal actions whose cards are exactly the selected cards (order does not matter). */
export function matchingActions(legal, selection) {
  if (!selection || selection.size === 0) return [];
  const key = sortedKey(selection);
  return (legal || []).filter((a) => a.cards && a.cards.length === selection.size && sortedKey(a.cards) === key);
}

/** Legal actions whose cards include every selected card (the empty selection: all with cards). */
export function actionsExtending(legal, selection) {
  const chosen = [...(selection || [])];
  return (legal || []).filter((a) => a.cards && a.cards.length > 0 && chosen.every((c) => a.cards.includes(c)));
}

/** Cards (not yet selected) that take the selection a step closer to some legal action. */
export function extendableCards(legal, selection) {
  const out = new Set();
  for (const action of actionsExtending(legal, selection)) {
    for (const card of action.cards) if (!selection.has(card)) out.add(card);
  }
  return out;
}

/** Drop selected cards that are no longer in the hand. */
export function pruneSelection(selection, hand) {
  const inHand = new Set(hand || []);
  return new Set([...selection].filter((c) => inHand.has(c)));
}

/** The action id a selection would be, e.g. wouldBeId("play", sel, cmp) -> "play:5S,5D". */
export function wouldBeId(prefix, selection, compare) {
  const cards = [...selection];
  cards.sort(compare);
  return `${prefix}:${cards.join(",")}`;
}

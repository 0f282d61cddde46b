// A plain table for a game whose own renderer is not written yet: the visible cards of the
// view and the legal actions. Good enough to play; each game replaces it with its own layout.
export function render(root, snapshot, ui) {
  const { h } = ui;
  const view = snapshot.view || {};
  const hand = Array.isArray(view.hand) ? view.hand : [];
  const withCards = ui.legal.filter((a) => a.cards && a.cards.length);
  const playable = ui.extendable(withCards);
  const matching = ui.matching(withCards);
  root.append(h("section", { class: "generic-table" },
    h("h2", { class: "zone-title" }, "Your hand"),
    h("div", { class: "hand" }, hand.map((c) => ui.card(c, { selectable: snapshot.human_turn, playable: playable.has(c) }))),
    matching.length ? h("div", { class: "confirm-row" }, matching.map((a) => ui.actionButton(a, `Play ${a.label}`, { class: "primary" }))) : null));
}

// The Crisps table: the opponent's hand (backs), the trick, the face-up card and draw pile,
// the cards played this round by rank, both scores, and your hand to select plays from.
// View keys: engine/games/crisps/state.py (CrispsState.view). Action ids: "play:5D,5S" (cards by
// rank, then suit C D H S), "pass", "take:faceup", "take:blind".
import { dragSource } from "../ui/drag.js";
import { matchingActions } from "../ui/selection.js";
import { cardOrder, cardText, plural, rankOf, suitOf } from "../ui/cards.js";
import { inSentence, verb } from "../read-snapshot.js";

const SUIT_ORDER = ["C", "D", "H", "S"];
const NUMBER_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10"];
const SPECIAL_VALUE = 11;

function rankValue(cardId) {
  const r = rankOf(cardId);
  return r === "Q" || r === "J" ? SPECIAL_VALUE : Number(r);
}

/** The engine's card order: rank value, then suit in C D H S order. */
const compareCards = cardOrder(rankValue, (c) => SUIT_ORDER.indexOf(suitOf(c)));

function rankWord(rank) {
  return { Q: "Queens", J: "Jacks" }[rank] || `${rank}s`;
}

/** A selection's cards by rank ("5,5,7"): the engine lists each play once, by its lowest
 * card ids, and accepts any copies of the same ranks as that play. */
function rankKey(cards) {
  return [...cards].map((c) => rankValue(c)).sort((a, b) => a - b).join(",");
}

/** Whether the ranks of `cards` are all found in the ranks of `play` (as a multiset). */
function ranksWithin(cards, play) {
  const left = play.map(rankValue);
  for (const c of cards) {
    const i = left.indexOf(rankValue(c));
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/** The plays the selection makes, or could make with more cards, and the hand cards that
 * bring it closer to one: compared by rank, as suits do not matter in Crisps. */
function byRank(plays, selection, hand) {
  const chosen = [...selection];
  const extending = plays.filter((a) => ranksWithin(chosen, a.cards));
  const key = rankKey(chosen);
  const matching = chosen.length ? extending.filter((a) => a.cards.length === chosen.length && rankKey(a.cards) === key) : [];
  const addable = new Set(hand.filter((c) => !selection.has(c) && extending.some((a) => ranksWithin([...chosen, c], a.cards))));
  return { matching, extending, addable };
}

/** Toggle a hand card; a selection that can no longer become a play is refused at once,
 * with the engine's reason. */
function toggle(ui, plays, hand, cardId) {
  const next = new Set(ui.selection);
  if (next.has(cardId)) next.delete(cardId); else next.add(cardId);
  ui.setSelection([...next]);
  if (next.size && !byRank(plays, next, hand).extending.length) {
    ui.why(`play:${[...next].sort(compareCards).join(",")}`);
  }
}

export function render(root, snapshot, ui) {
  const { h } = ui;
  const view = snapshot.view || {};
  const me = view.player ?? snapshot.viewer ?? 0;
  const opp = 1 - me;
  const hand = [...(view.hand || [])].sort(compareCards);
  const myTurn = snapshot.human_turn && view.current_player === me && !ui.busy;
  const playPhase = view.phase === "play";
  const plays = ui.legal.filter((a) => a.kind === "play");

  root.append(h("div", { class: "crisps" },
    seatPanel(ui, snapshot, view, opp, false),
    h("div", { class: "crisps-middle" },
      piles(ui, view),
      trickPanel(ui, snapshot, view)),
    playedPanel(ui, view),
    h("section", { class: ["crisps-seat", "crisps-you", view.current_player === me && !snapshot.round_over && "is-turn"], "aria-label": "Your hand" },
      seatHeader(ui, snapshot, view, me),
      h("div", { class: "hand", dataset: { testid: "hand" } },
        hand.map((c) => {
          const selectable = myTurn && playPhase;
          const playable = selectable && byRank(plays, ui.selection, hand).addable.has(c);
          const known = (view.known_cards && view.known_cards[me] || []).includes(c);
          const el = ui.card(c, {
            selectable, playable, dim: selectable && !playable && !ui.selection.has(c), extraLabel: known ? "seen by your opponent" : null,
            onclick: (id) => toggle(ui, plays, hand, id),
          });
          if (!selectable) return el;
          // Dragged onto the trick: the selection with this card, played as its button plays
          // it; a set that is no play is left selected, for its button to say why.
          const withIt = () => new Set([...ui.selection, c]);
          const play = () => matchingActions(plays, withIt())[0] || null;
          return dragSource(el, c, {
            accepts: (key) => (key === "trick" ? (play() ? "legal" : "refused") : null),
            drop: () => { const a = play(); if (a) ui.send(a.id); else ui.setSelection([...withIt()]); },
          });
        })),
      // After the hand: a Tab from the selected cards reaches the button that plays them.
      myTurn ? controls(ui, view, plays, hand) : waitingLine(ui, snapshot, view, me))));
}

function seatHeader(ui, snapshot, view, seat) {
  const { h } = ui;
  const score = (view.scores || [])[seat] || 0;
  const target = view.target || 3;
  const pips = [];
  for (let i = 0; i < target; i++) pips.push(h("span", { class: ["pip", i < score && "is-won"], "aria-hidden": "true" }));
  return h("header", { class: "seat-header" },
    h("span", { class: "seat-name" }, ui.seatName(seat)),
    h("span", { class: "round-wins", "aria-label": `${score} of ${target} rounds won` }, pips, h("span", { class: "round-wins-text" }, `${score}/${target}`)),
    view.current_player === seat && snapshot.bot_turn && ui.thinking === seat
      ? h("span", { class: "thinking", dataset: { testid: "seat-thinking" } }, "thinking\u2026") : null,
    view.current_player === seat && !snapshot.is_over && !snapshot.round_over ? h("span", { class: "turn-badge" }, view.phase === "draw" ? "choosing a card" : "to play") : null);
}

function seatPanel(ui, snapshot, view, seat) {
  const { h } = ui;
  const count = (view.hand_sizes || [])[seat] || 0;
  const known = (view.known_cards || [])[seat] || [];
  const backs = [];
  for (let i = 0; i < Math.max(0, count - known.length); i++) backs.push(ui.cardBack({ small: true }));
  return h("section", { class: ["crisps-seat", "crisps-opponent", view.current_player === seat && !snapshot.round_over && "is-turn"], "aria-label": `${ui.seatName(seat)}'s hand`, dataset: { seat: String(seat) } },
    seatHeader(ui, snapshot, view, seat),
    h("div", { class: "opponent-hand", "aria-label": `${count} cards` },
      h("div", { class: "fan" }, backs, known.map((c) => ui.card(c, { small: true, extraLabel: "taken face up" }))),
      h("span", { class: "count", dataset: { testid: "opponent-count" } }, plural(count, "card"))));
}

function piles(ui, view) {
  const { h } = ui;
  const noFaceUp = view.options && view.options.no_faceup_draw;
  return h("section", { class: "crisps-piles", "aria-label": "Draw pile and face-up card" },
    h("figure", { class: "pile" },
      view.draw_pile > 0 ? ui.cardBack({ small: true, label: `Draw pile, ${view.draw_pile} cards` }) : h("span", { class: "card card-small card-empty", "aria-hidden": "true" }),
      h("figcaption", {}, `Draw pile: ${view.draw_pile}`)),
    noFaceUp ? null : h("figure", { class: "pile", dataset: { testid: "face-up" } },
      view.face_up ? ui.card(view.face_up, { small: true, extraLabel: "face up" }) : h("span", { class: "card card-small card-empty", "aria-hidden": "true" }),
      h("figcaption", {}, view.face_up ? "Face up" : "No face-up card")),
    h("p", { class: "pile-note" }, `${view.removed || 0} set aside unseen \u00b7 Round ${view.round || 1}`));
}

function trickPanel(ui, snapshot, view) {
  const { h } = ui;
  const trick = view.trick || [];
  const last = ui.lastMove;
  let heading = "The trick";
  if (view.phase === "draw") heading = `${ui.seatName(view.trick_winner)} won the trick`;
  else if (!trick.length) heading = view.current_player === view.player ? "Your lead" : `${ui.seatName(view.current_player)} to lead`;
  const entries = trick.map((entry, i) => {
    const fresh = ui.fresh && i === trick.length - 1 && last && last.player === entry.player;
    if (entry.pass) {
      return h("li", { class: ["trick-entry", "is-pass", fresh && "is-fresh"], style: fresh ? { animationDelay: `-${Math.round(ui.freshDelay)}ms` } : null },
        h("span", { class: "trick-who" }, ui.seatName(entry.player)),
        h("span", { class: "trick-pass" }, entry.auto ? "skipped automatically (cannot beat it)" : "passed"));
    }
    return h("li", { class: ["trick-entry", i === trick.length - 1 && "is-top"] },
      h("span", { class: "trick-who" }, ui.seatName(entry.player)),
      h("span", { class: "trick-cards" }, entry.cards.map((c) => ui.card(c, { small: true, fresh }))),
      h("span", { class: "trick-combo" }, entry.combination || ""));
  });
  let note = null;
  if (view.phase === "play" && view.to_beat) note = `To beat: ${view.to_beat.combination}`;
  else if (view.phase === "play" && !trick.length) note = "Any combination may lead.";
  else if (view.phase === "draw") note = view.trick_winner === view.player ? "Choose a card: the passer gets the other." : "They choose a card; you get the other.";
  const lastDraw = view.last_draw && !trick.length && view.phase === "play" ? drawText(ui, view) : null;
  return h("section", { class: "crisps-trick", dataset: { testid: "trick", drop: "trick" }, "aria-label": "Current trick" },
    h("h2", { class: "zone-title" }, heading),
    entries.length ? h("ol", { class: "trick-list" }, entries) : h("p", { class: "trick-empty" }, lastDraw || "No cards on the table yet."),
    note ? h("p", { class: "trick-note" }, note) : null);
}

function drawText(ui, view) {
  const d = view.last_draw;
  const chooser = ui.seatName(d.chooser);
  const you = d.chooser === view.player;
  const took = d.chooser_took === "faceup" ? `the face-up ${ui.cardText(d.face_up_card)}`
    : d.chooser_took === "blind" ? "a blind card" : "nothing";
  return `Last trick: ${chooser} ${you ? "took" : "took"} ${took}.`;
}

function playedPanel(ui, view) {
  const { h } = ui;
  const played = view.played || [];
  const special = view.special_rank || "Q";
  const ranks = [...NUMBER_RANKS, special];
  const counts = Object.fromEntries(ranks.map((r) => [r, 0]));
  for (const c of played) { const r = rankOf(c); if (r in counts) counts[r] += 1; }
  return h("section", { class: "crisps-played", "aria-label": "Cards played this round" },
    h("h2", { class: "zone-title" }, `Played this round (${played.length})`),
    h("ul", { class: "rank-tally" }, ranks.map((r) => h("li", { class: ["tally", counts[r] === 4 && "is-gone", counts[r] === 0 && "is-none"], "aria-label": `${counts[r]} of 4 ${rankWord(r)} played` },
      h("span", { class: "tally-rank", "aria-hidden": "true" }, r),
      h("span", { class: "tally-dots", "aria-hidden": "true" }, [0, 1, 2, 3].map((i) => h("span", { class: ["dot", i < counts[r] && "is-on"] })))))));
}

function controls(ui, view, plays, hand) {
  const { h } = ui;
  if (view.phase === "draw") {
    return h("div", { class: "controls" },
      h("p", { class: "controls-note" }, "You won the trick: pick your card."),
      ui.actionsOfKind("take").map((a) => ui.actionButton(a, a.id === "take:faceup" ? `Take the face-up ${ui.cardText(view.face_up)}` : "Take a blind card", { class: "primary" })));
  }
  const selection = ui.selection;
  const { matching, extending } = byRank(plays, selection, hand);
  const pass = ui.legal.find((a) => a.id === "pass");
  const buttons = [];
  let note;
  if (matching.length) {
    // The selected cards themselves are played: the engine takes them as the listed play.
    const chosen = [...selection].sort(compareCards);
    buttons.push(ui.button(`Play ${chosen.map(ui.cardText).join(" ")}`, {
      class: "action-button primary confirm-play", dataset: { action: `play:${chosen.join(",")}`, focus: "confirm:play" },
      disabled: ui.busy, onclick: () => ui.send(`play:${chosen.join(",")}`),
    }));
    note = "Ready to play.";
  } else if (selection.size) {
    note = extending.length ? "Add cards to make a legal play (highlighted)." : "These cards are not a legal play now.";
    buttons.push(ui.button(`Play ${[...selection].sort(compareCards).map(ui.cardText).join(" ")}`, {
      class: "confirm-play is-illegal", dataset: { testid: "why-play", focus: "why-play" },
      onclick: () => ui.why(ui.wouldBeId("play", compareCards)),
    }));
  } else {
    note = view.to_beat ? `Select cards that beat ${view.to_beat.combination}, or pass.` : "Select the cards you want to lead with.";
  }
  if (selection.size) buttons.push(ui.button("Clear", { class: "quiet-dark", dataset: { testid: "clear-selection", focus: "clear" }, onclick: ui.clearSelection }));
  if (pass) buttons.push(ui.actionButton(pass, "Pass", { class: "pass-button" }));
  return h("div", { class: "controls", dataset: { testid: "controls" } },
    h("p", { class: "controls-note", "aria-live": "polite" }, note),
    h("div", { class: "controls-buttons" }, buttons));
}

function waitingLine(ui, snapshot, view, me) {
  const { h } = ui;
  if (snapshot.is_over) return h("p", { class: "controls-note" }, "The match is over.");
  const who = ui.seatName(view.current_player);
  return h("p", { class: "controls-note" }, view.current_player === me ? "" : `Waiting for ${who}\u2026`);
}

/** The message shown after a move, e.g. "North plays 7♥ 7♠". */
export function describeMove(move, snapshot, seatName) {
  const who = seatName(move.player);
  const text = (cards) => cards.map(cardText).join(" ");
  if (move.kind === "play" || String(move.id).startsWith("play:")) {
    const cards = move.cards && move.cards.length ? move.cards : String(move.id).slice(5).split(",");
    return `${verb(who, "play")} ${text(cards)}`;
  }
  if (move.id === "pass") return verb(who, "pass", "passes");
  if (move.id === "take:faceup") return `${verb(who, "take")} the face-up card`;
  if (move.id === "take:blind") return `${verb(who, "take")} a blind card`;
  return `${who}: ${move.label}`;
}

/** The round-over dialog's words. */
export function roundSummary(prev, snapshot, seatName) {
  const view = snapshot.view || {};
  const last = view.last_round;
  if (!last) return null;
  const winner = seatName(last.winner);
  const scores = last.scores || snapshot.result.scores;
  const loser = 1 - last.winner;
  const left = (last.cards_left || [])[loser];
  return {
    title: winner === "You" ? `You win round ${last.round}!` : `${winner} wins round ${last.round}`,
    lines: [
      `${winner} played every card${left !== undefined ? `; ${inSentence(seatName(loser))} still had ${plural(left, "card")}` : ""}.`,
      `Rounds won: ${seatName(0)} ${scores[0]} \u2013 ${scores[1]} ${seatName(1)} (first to ${view.target || 3}).`,
    ],
  };
}

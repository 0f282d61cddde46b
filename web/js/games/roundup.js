// The Roundup table: the other seats (bid suit, face-up hand, face-down count, score), the
// four suit stacks with their tops and closing order, the discard pile, what the latest face
// card or pass did, your own face-up and face-down hands with the playable cards lit, and the
// score sheet of the rounds so far.
// View keys and action ids: engine/games/roundup/state.py (module docstring). Ids used here:
// "bid:7H", "tiebreak:3S", "play:7H", "end", "jack:JS:2", "queen:QS:2:H", "king:KS:2:7",
// "reveal:7H", "discard:QH", "pass:7H" / "pass:JS" / "pass".
//
// Choosing a move on the table: click a card of your hand (it is selected), then the button
// that names the move. A Queen or King also needs a target (click "Target" on a seat or a
// name in the controls) and then a suit or number; a Jack only needs a target.

import { dragSource } from "../ui/drag.js";
import { h } from "../ui/dom.js";
import { possessive, verb } from "../read-snapshot.js";
import { RANKS, SUIT_NAMES as SUIT_WORDS, SUIT_SYMBOLS, cardElement, cardOrder, cardText, isRedSuit, plural, rankOf, suitOf } from "../ui/cards.js";

const SUITS = ["S", "H", "D", "C"];
const FACE_KINDS = { J: "jack", Q: "queen", K: "king" };
const FACE_WORDS = { jack: "Jack", queen: "Queen", king: "King" };
const FACE_WORDS_BY_KIND = { jack: true, queen: true, king: true };
const TARGET_PREFIX = "target:";
const ORDINALS = ["1st", "2nd", "3rd", "4th"];

function isFace(cardId) { return rankOf(cardId) in FACE_KINDS; }

/** Suit order S H D C, then rank A..K: the hand reads as four runs. */
const compareCards = cardOrder((c) => SUITS.indexOf(suitOf(c)), (c) => RANKS.indexOf(rankOf(c)));

function short(cardId) {
  return cardId ? cardText(cardId) : "";
}

/** Seats from the viewer's left, round the table (the viewer last); all seats for a spectator. */
function seatOrder(n, me) {
  if (me === null || me === undefined) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: n - 1 }, (_, i) => (me + 1 + i) % n);
}

function parseSelection(selection) {
  let card = null;
  let target = null;
  for (const item of selection) {
    if (String(item).startsWith(TARGET_PREFIX)) target = Number(String(item).slice(TARGET_PREFIX.length));
    else card = item;
  }
  return { card, target };
}

/** The face-card action's target seat: "queen:QS:2:H" -> 2. */
function targetOf(action) {
  return Number(String(action.id).split(":")[2]);
}

function namedOf(action) {
  return String(action.id).split(":")[3];
}

export function render(root, snapshot, ui) {
  const { h } = ui;
  const view = snapshot.view || {};
  const n = view.players || snapshot.players;
  const me = snapshot.viewer ?? null;
  const myTurn = Boolean(snapshot.human_turn) && view.current_player === me && !ui.busy && !snapshot.is_over;
  const legal = myTurn ? ui.legal.filter((a) => a.player === me) : [];
  const sel = parseSelection(ui.selection);
  const cardActions = sel.card ? legal.filter((a) => a.cards && a.cards[0] === sel.card) : [];
  const faceKind = sel.card && isFace(sel.card) && cardActions.some((a) => a.kind in FACE_WORDS_BY_KIND) ? FACE_KINDS[rankOf(sel.card)] : null;
  const ctx = { h, ui, snapshot, view, n, me, myTurn, legal, sel, cardActions, faceKind };

  root.append(h("div", { class: ["roundup", `roundup-${n}`], dataset: { testid: "roundup", phase: view.phase || "" } },
    infoBar(ctx),
    h("section", { class: "ru-seats", "aria-label": "The other players", dataset: { testid: "seats" } },
      seatOrder(n, me).map((p) => seatPanel(ctx, p))),
    centre(ctx),
    me === null ? null : myPanel(ctx),
    scoreSheet(ctx)));
}

// ----- the strip above the table --------------------------------------------------------------

function infoBar(ctx) {
  const { h, ui, view } = ctx;
  const parts = [
    h("span", { class: "ru-chip" }, `Round ${view.round || 1}`),
    h("span", { class: "ru-chip" }, `First to ${view.target_score || 10} points`),
    view.dealer !== null && view.dealer !== undefined ? h("span", { class: "ru-chip" }, `Dealer: ${ui.seatName(view.dealer)}`) : null,
    view.first_player !== null && view.first_player !== undefined && view.phase !== "bid"
      ? h("span", { class: "ru-chip" }, `Started: ${ui.seatName(view.first_player)}`) : null,
  ];
  return h("div", { class: "ru-info", dataset: { testid: "round-info" } }, parts, h("p", { class: "ru-phase" }, phaseText(ctx)));
}

function phaseText(ctx) {
  const { ui, view, me } = ctx;
  const cur = view.current_player;
  const name = ui.seatName(cur);
  switch (view.phase) {
    case "bid": {
      const placed = (view.bid_placed || []).filter(Boolean).length;
      const able = (view.cannot_bid || []).filter((c) => !c).length;
      return `Bidding: ${placed} of ${able} secret bid${able === 1 ? "" : "s"} placed. ${cur === me ? "Your turn to bid." : `${name} is choosing.`}`;
    }
    case "tiebreak": {
      const tied = (view.tiebreak && view.tiebreak.tied) || [];
      return `Tie for first player between ${tied.map((p) => ui.seatName(p)).join(" and ")}: each turns up a face-down number card, lowest starts.`;
    }
    case "answer": {
      const a = view.attack || {};
      const who = ui.seatName(a.target);
      return `${who} must answer ${possessive(ui.seatName(a.by))} ${FACE_WORDS[a.kind] || "card"} naming ${namedWord(a.kind, a.named)}.`;
    }
    case "play": {
      const open = 4 - (view.closed || []).length;
      return `${open} stack${open === 1 ? "" : "s"} still open. ${view.turn === me ? "Your turn." : `${ui.seatName(view.turn)}'s turn.`}`;
    }
    case "over": return "The match is over.";
    default: return "";
  }
}

// ----- the other seats ------------------------------------------------------------------------

function seatPanel(ctx, p) {
  const { h, ui, view, snapshot, myTurn, sel, faceKind } = ctx;
  const faceUp = (view.face_up || [])[p] || [];
  const downCount = (view.face_down_counts || [])[p] || 0;
  const score = (view.scores || [])[p] || 0;
  const isTurn = !snapshot.is_over && !snapshot.round_over && (view.phase === "play" || view.phase === "answer" ? view.turn === p : view.current_player === p);
  const answering = view.phase === "answer" && view.attack && view.attack.target === p;
  const bid = (view.bids || [])[p];
  const targeted = myTurn && faceKind && sel.target === p;
  const canTarget = myTurn && faceKind;
  const attack = view.attack;
  return h("article", {
    class: ["ru-seat", isTurn && "is-turn", answering && "is-answering", targeted && "is-targeted"],
    dataset: { seat: String(p), testid: `seat-${p}`, drop: `seat:${p}` }, "aria-label": ui.seatName(p),
  },
  h("header", { class: "ru-seat-head" },
    h("span", { class: "ru-seat-name" }, ui.seatName(p)),
    view.dealer === p
      ? h("span", { class: "ru-badge ru-dealer", title: "Dealer this round" },
        h("span", { class: "ru-dealer-word" }, "Dealer"),
        h("span", { class: "ru-dealer-mark", "aria-hidden": "true" }, "D"))
      : null,
    h("span", { class: "ru-seat-score", "aria-label": `${plural(score, "point")}` }, `${score} pt${score === 1 ? "" : "s"}`)),
  h("div", { class: "ru-seat-status" },
    bidBadge(ctx, p, bid),
    isTurn && ui.thinking === p ? h("span", { class: "thinking", dataset: { testid: "seat-thinking" } }, "thinking\u2026") : null,
    isTurn && !(ui.thinking === p) ? h("span", { class: "turn-badge" }, turnWord(view)) : null,
    answering && attack ? h("span", { class: "ru-badge ru-warn" }, `answering ${short(attack.card)}`) : null,
    view.first_empty === p ? h("span", { class: "ru-badge ru-star", title: "Emptied both hands first: 1 point" }, "\u2605 empty first") : null),
  h("div", { class: "ru-seat-cards" },
    h("div", { class: "ru-down", "aria-label": `${plural(downCount, "face-down card")}` },
      downCount ? ui.cardBack({ tiny: true }) : h("span", { class: "card card-tiny card-empty", "aria-hidden": "true" }),
      h("span", { class: "ru-count", dataset: { testid: "face-down-count" } }, `\u00d7${downCount}`)),
    h("div", { class: "ru-up", "aria-label": faceUp.length ? `Face-up hand: ${faceUp.map(short).join(" ")}` : "No face-up cards", dataset: { testid: "face-up" } },
      faceUp.length ? faceUp.map((c) => ui.card(c, { tiny: true, fresh: freshCard(ctx, p, c), extraLabel: c === bid ? "bid card" : null }))
        : h("span", { class: "ru-none" }, "no face-up cards"))),
  canTarget ? targetButton(ctx, p) : null);
}

function turnWord(view) {
  if (view.phase === "bid") return "bidding";
  if (view.phase === "tiebreak") return "tie-break";
  if (view.phase === "answer") return "played a face card";
  return "to play";
}

function bidBadge(ctx, p, bid) {
  const { h, view } = ctx;
  if (bid) {
    const s = suitOf(bid);
    return h("span", { class: ["ru-bid", isRedSuit(s) && "is-red"], title: `Bid on ${SUIT_WORDS[s]}`, dataset: { testid: "bid" } },
      "Bid ", h("span", { class: "ru-bid-suit" }, SUIT_SYMBOLS[s]), h("span", { class: "ru-sr" }, ` ${SUIT_WORDS[s]}`));
  }
  if ((view.cannot_bid || [])[p]) return h("span", { class: "ru-bid is-none", title: "No number card, so no bid this round" }, "No bid");
  if (view.phase === "bid") {
    return (view.bid_placed || [])[p] ? h("span", { class: "ru-bid is-secret" }, "Bid placed") : h("span", { class: "ru-bid is-waiting" }, "No bid yet");
  }
  return null;
}

/** A card that just arrived in a face-up hand (the latest move put it there). */
function freshCard(ctx, p, c) {
  const { ui, view } = ctx;
  if (!ui.fresh) return false;
  const e = view.last_effect;
  if (e && e.moved === c && e.result === "face_up") return true;
  return Boolean(ui.lastMove && ui.lastMove.player === p && (ui.lastMove.cards || []).includes(c) && ui.lastMove.kind !== "play");
}

function targetButton(ctx, p) {
  const { ui, legal, sel, faceKind } = ctx;
  if (faceKind === "jack") {
    const action = legal.find((a) => a.kind === "jack" && a.cards[0] === sel.card && targetOf(a) === p);
    return action ? ui.actionButton(action, `${short(sel.card)} on ${ui.seatName(p)}`, { class: "ru-target primary" }) : null;
  }
  const chosen = sel.target === p;
  return ui.button(chosen ? "Target \u2713" : `Target ${ui.seatName(p)}`, {
    class: ["ru-target", chosen && "is-chosen"], "aria-pressed": chosen ? "true" : "false",
    dataset: { testid: "target", target: String(p), focus: `target:${p}` },
    onclick: () => ui.setSelection([sel.card, TARGET_PREFIX + p]),
  });
}

// ----- the stacks, the discard pile and the latest effect ---------------------------------------

function centre(ctx) {
  const { h, view } = ctx;
  return h("section", { class: "ru-centre", "aria-label": "Stacks and discard pile" },
    h("div", { class: "ru-stacks", dataset: { testid: "stacks" } }, SUITS.map((s) => stackPanel(ctx, s))),
    h("div", { class: "ru-centre-foot" },
      discardPile(ctx),
      recapNote(ctx) || effectNote(ctx) || h("p", { class: "ru-effect is-quiet" }, view.phase === "bid" ? "The stacks fill from Ace to 10 once every bid is in." : "")));
}

function stackPanel(ctx, s) {
  const { h, ui, view, sel } = ctx;
  const top = (view.stacks || {})[s] || 0;
  const closedAt = (view.closed || []).indexOf(s);
  const needed = (view.needed || {})[s];
  const bidders = (view.bids || []).map((b, p) => (b && suitOf(b) === s ? p : -1)).filter((p) => p >= 0);
  const mine = view.my_suit === s;
  const aimed = sel.card && needed === sel.card;
  const openCount = 4 - (view.closed || []).length;
  const lastOpen = closedAt < 0 && openCount === 1;
  const topCard = top > 0 ? RANKS[top - 1] + s : null;
  const fresh = ui.fresh && ui.lastMove && ui.lastMove.kind === "play" && (ui.lastMove.cards || [])[0] === topCard;
  const pips = [];
  for (let i = 1; i <= 10; i++) pips.push(h("span", { class: ["ru-pip", i <= top && "is-on"] }));
  let state;
  if (closedAt >= 0) state = `Closed ${ORDINALS[closedAt]}`;
  else if (needed) state = `Needs ${short(needed)}`;
  else state = "";
  return h("figure", {
    class: ["ru-stack", isRedSuit(s) && "is-red", closedAt >= 0 && "is-closed", mine && "is-mine", aimed && "is-aimed", lastOpen && "is-last-open"],
    dataset: { suit: s, testid: `stack-${s}`, top: String(top), drop: `stack:${s}` },
    "aria-label": `${SUIT_WORDS[s]} stack: ${top ? `up to ${RANKS[top - 1]}` : "empty"}${closedAt >= 0 ? ", closed" : ""}`,
  },
  h("figcaption", { class: "ru-stack-title" }, h("span", { class: "ru-suit" }, SUIT_SYMBOLS[s]), h("span", { class: "ru-suit-word" }, ` ${SUIT_WORDS[s]}`)),
  h("div", { class: "ru-stack-card" },
    topCard ? ui.card(topCard, { small: true, fresh }) : h("span", { class: "card card-small card-empty ru-slot", "aria-hidden": "true" }, SUIT_SYMBOLS[s])),
  h("div", { class: "ru-pips", "aria-hidden": "true" }, pips),
  h("p", { class: "ru-stack-state" }, state),
  bidders.length ? h("p", { class: "ru-stack-bids" }, bidders.map((p) => h("span", { class: ["ru-name-chip", p === ctx.me && "is-me"] }, ui.seatName(p)))) : null,
  mine && !bidders.length ? h("p", { class: "ru-stack-bids" }, h("span", { class: "ru-name-chip is-me" }, "your bid")) : null);
}

function discardPile(ctx) {
  const { h, ui, view } = ctx;
  const pile = view.discard || [];
  // One overlapping row that tightens to its slot as the pile grows (web/css/scale.css).
  const cards = h("div", { class: "ru-discard-cards" },
    pile.length ? pile.map((c, i) => ui.card(c, { tiny: true, fresh: ui.fresh && i >= pile.length - 2 && justDiscarded(ctx, c) }))
      : h("span", { class: "ru-none" }, "No face cards used yet"));
  cards.style.setProperty("--n", String(Math.max(1, pile.length)));
  return h("div", { class: "ru-discard", dataset: { testid: "discard" }, "aria-label": `Discard pile: ${pile.length ? pile.map(short).join(" ") : "empty"}` },
    h("h2", { class: "zone-title" }, `Discard pile (${pile.length})`), cards);
}

function justDiscarded(ctx, c) {
  const e = ctx.view.last_effect;
  return Boolean(e && (e.card === c || e.moved === c));
}

/** What the latest face card or pass did, in words. */
function effectText(view, seatName) {
  const e = view.last_effect;
  if (!e) return "";
  const by = seatName(e.by);
  if (e.kind === "pass") {
    if (e.result === "face_up") return `${verb(by, "pass", "passes")} and ${by === "You" ? "turn" : "turns"} up ${short(e.moved)}.`;
    if (e.result === "discarded") return `${verb(by, "pass", "passes")} and ${by === "You" ? "discard" : "discards"} ${short(e.moved)}.`;
    return `${verb(by, "pass", "passes")} (nothing left face-down to pay with).`;
  }
  const target = seatName(e.target);
  const card = short(e.card);
  let head = `${by} played ${card} on ${target === "You" ? "you" : target}`;
  if (e.kind !== "jack") head += `, naming ${namedWord(e.kind, e.named)}`;
  const targetYou = target === "You";
  if (e.result === "face_up") return `${head}: ${targetYou ? "your" : `${target}'s`} ${short(e.moved)} ${e.kind === "jack" ? "was picked and " : ""}went face up.`;
  if (e.result === "discarded") return `${head}: ${targetYou ? "your" : `${target}'s`} ${short(e.moved)} went to the discard pile.`;
  const pending = view.attack && view.attack.card === e.card && view.phase === "answer";
  if (pending) return `${head}: ${targetYou ? "you choose" : `${target} chooses`} which card to give up\u2026`;
  if (e.kind === "jack") return `${head}: ${targetYou ? "you had" : `${target} had`} no face-down card, so nothing happened.`;
  return `${head}: ${targetYou ? "you had" : `${target} had`} no such card face-down.`;
}

/** Between rounds and at the end: what the previous round scored. */
function recapNote(ctx) {
  const { h, ui, view } = ctx;
  const last = view.last_round;
  if (!last || !(view.phase === "bid" || view.phase === "tiebreak" || view.phase === "over")) return null;
  const lines = roundLines(last, ui.seatName).filter((line) => !line.startsWith("Bids:"));
  return h("div", { class: "ru-effect ru-recap", dataset: { testid: "last-round" } },
    h("strong", {}, `Round ${last.round}: ${SUIT_SYMBOLS[last.closing_suit]} ${SUIT_WORDS[last.closing_suit]} closed last. `),
    lines.join(" "));
}

/** "hearts" for a Queen, "3s" / "Aces" for a King. */
function namedWord(kind, named) {
  if (kind === "queen") return SUIT_WORDS[named] || named;
  if (named === "A") return "Aces";
  return `${named}s`;
}

function effectNote(ctx) {
  const { h, ui, view } = ctx;
  if (view.phase === "bid" || view.phase === "tiebreak") return null;
  const text = effectText(view, ui.seatName);
  return text ? h("p", { class: ["ru-effect", ui.fresh && "is-fresh"], dataset: { testid: "effect" } }, text) : null;
}

// ----- your own hands and controls ----------------------------------------------------------------

/** The width of a hand's tightest fan, in card widths: its first card whole and a corner
 * (28%, web/css/fit.css) of each other; an empty hand keeps its title's width. */
const fanSpan = (cards) => (cards ? 1 + 0.28 * (cards - 1) : 1.05);
const handsSpan = (up, down) => fanSpan(up) + fanSpan(down);
/** How many card widths a phone's row has room for (a 360 px phone: 316 px of row, cards of at
 * least 56 px, web/css/scale.css): wider hands go one above the other. */
const PHONE_SPAN = 5.2;

function myPanel(ctx) {
  const { h, ui, view, snapshot, me, myTurn, legal, sel } = ctx;
  const faceUp = [...((view.face_up || [])[me] || [])].sort(compareCards);
  const faceDown = [...(view.face_down || [])].sort(compareCards);
  const score = (view.scores || [])[me] || 0;
  const usable = new Set();
  const lit = new Set();
  for (const a of legal) {
    const c = a.cards && a.cards[0];
    if (!c) continue;
    usable.add(c);
    if (a.kind !== "pass") lit.add(c);
  }
  const isTurn = !snapshot.is_over && !snapshot.round_over && (view.phase === "play" || view.phase === "answer" ? view.turn === me : view.current_player === me);
  const attackOnMe = view.phase === "answer" && view.attack && view.attack.target === me;
  const cardOf = (c, where) => {
    const selectable = myTurn && usable.has(c);
    const extraLabel = c === view.my_bid && where === "up" ? "your bid card" : null;
    // On your turn a card that cannot be used says why at once (the engine's reason for
    // the move it would be).
    if (myTurn && !selectable) return ui.refusedCard(c, () => ui.why(wouldBeId(view, c)), { fresh: freshCard(ctx, me, c), extraLabel });
    const el = ui.card(c, {
      selectable, playable: selectable && lit.has(c), dim: myTurn && !selectable,
      selected: sel.card === c,
      onclick: () => ui.setSelection(sel.card === c ? [] : [c]),
      fresh: freshCard(ctx, me, c),
      extraLabel,
    });
    // A number card dragged onto its suit's stack plays it, as its confirm button does.
    const play = legal.find((a) => a.kind === "play" && a.cards && a.cards[0] === c);
    if (play) {
      return dragSource(el, c, {
        accepts: (key) => (key === `stack:${suitOf(c)}` ? "legal" : null),
        drop: () => ui.send(play.id),
      });
    }
    // A face card dragged onto a seat it may attack does what that seat's button does: a
    // Jack's attack is made; a Queen or King takes the seat as its target (a suit or a
    // number is then named in the controls).
    const attacks = legal.filter((a) => a.kind in FACE_WORDS_BY_KIND && a.cards && a.cards[0] === c);
    if (!attacks.length) return el;
    const attackOn = (key) => attacks.find((a) => key === `seat:${targetOf(a)}`);
    return dragSource(el, c, {
      accepts: (key) => (attackOn(key) ? "legal" : null),
      drop: (key) => {
        const attack = attackOn(key);
        if (attack.kind === "jack") ui.send(attack.id);
        else ui.setSelection([c, TARGET_PREFIX + targetOf(attack)]);
      },
    });
  };
  return h("section", { class: ["ru-you", isTurn && "is-turn", attackOnMe && "is-answering"], "aria-label": "Your hands", dataset: { testid: "you" } },
    h("header", { class: "ru-seat-head" },
      h("span", { class: "ru-seat-name" }, ui.seatName(me)),
      view.dealer === me ? h("span", { class: "ru-badge ru-dealer" }, "Dealer") : null,
      myBid(ctx),
      view.first_empty === me ? h("span", { class: "ru-badge ru-star" }, "\u2605 empty first") : null,
      h("span", { class: "ru-seat-score" }, `${score} pt${score === 1 ? "" : "s"}`)),
    h("div", { class: ["ru-hands", handsSpan(faceUp.length, faceDown.length) > PHONE_SPAN && "is-long"] },
      // Side by side, each as wide as its share of the cards (web/css/scale.css); on a phone
      // one above the other when the two fans side by side would be wider than the screen.
      h("div", { class: "ru-hand ru-hand-up", style: { "--cards": String(faceUp.length) } },
        h("h2", { class: "zone-title", title: "Everyone sees these" }, `Face-up hand (${faceUp.length})`),
        h("div", { class: "hand", dataset: { testid: "my-face-up" } },
          faceUp.length ? faceUp.map((c) => cardOf(c, "up")) : h("span", { class: "ru-none" }, "Empty"))),
      h("div", { class: "ru-hand ru-hand-down", style: { "--cards": String(faceDown.length) } },
        h("h2", { class: "zone-title", title: "Only you see these" }, `Face-down hand (${faceDown.length}), yours alone`),
        h("div", { class: "hand", dataset: { testid: "my-face-down" } },
          faceDown.length ? faceDown.map((c) => cardOf(c, "down")) : h("span", { class: "ru-none" }, "Empty")))),
    // After the hands: a Tab from the selected card reaches the buttons that play it.
    controls(ctx));
}

/** The action id a click on `c` asks for in this phase (to ask the engine why it is refused). */
function wouldBeId(view, c) {
  const face = FACE_KINDS[rankOf(c)];
  switch (view.phase) {
    case "bid": return `bid:${c}`;
    case "tiebreak": return `tiebreak:${c}`;
    case "answer": return `${face ? "discard" : "reveal"}:${c}`;
    default: return `${face || "play"}:${c}`;
  }
}

function myBid(ctx) {
  const { h, view } = ctx;
  const bid = view.my_bid;
  if (!bid) {
    if ((view.cannot_bid || [])[ctx.me]) return h("span", { class: "ru-bid is-none" }, "No bid this round");
    return null;
  }
  const s = suitOf(bid);
  const secret = view.phase === "bid";
  return h("span", { class: ["ru-bid", isRedSuit(s) && "is-red"], dataset: { testid: "my-bid" } },
    `Your bid: `, h("span", { class: "ru-bid-suit" }, SUIT_SYMBOLS[s]), ` ${SUIT_WORDS[s]}${secret ? ` (${short(bid)}, secret until all have bid)` : ""}`);
}

function controls(ctx) {
  const { h, ui, view, snapshot, me, myTurn, legal, sel, cardActions, faceKind } = ctx;
  if (!myTurn) {
    let text = "";
    if (snapshot.is_over) text = "The match is over.";
    else if (view.current_player !== null && view.current_player !== undefined && view.current_player !== me) {
      text = `Waiting for ${ui.seatName(view.current_player)}\u2026`;
    }
    return h("div", { class: "ru-controls", dataset: { testid: "controls" } }, h("p", { class: "controls-note" }, text));
  }
  const buttons = [];
  let note;
  const attack = view.attack;
  const endTurn = legal.find((a) => a.id === "end");
  const plainPass = legal.find((a) => a.id === "pass");
  let banner = null;

  if (view.phase === "answer" && attack) {
    banner = h("p", { class: "ru-banner", dataset: { testid: "attack" } },
      `${ui.seatName(attack.by)} played ${short(attack.card)} on you, naming ${namedWord(attack.kind, attack.named)}. `
      + (attack.kind === "queen" ? "Choose which card of that suit to give up." : "Choose which of them turns face up."));
  }

  if (sel.card && cardActions.length) {
    if (faceKind) {
      faceCardControls(ctx, buttons);
      note = faceKind === "jack" ? `Play ${short(sel.card)} on whom? A random card of their face-down hand turns up.`
        : sel.target === null || !cardActions.some((a) => targetOf(a) === sel.target)
          ? `Play ${short(sel.card)} on whom? Choose a target.`
          : `Name ${faceKind === "queen" ? "a suit" : "a number"} for ${ui.seatName(sel.target)}.`;
    } else {
      for (const a of cardActions) buttons.push(ui.actionButton(a, a.label, { class: a.kind === "pass" ? "pass-button" : "primary", focusPrefix: "confirm:" }));
      note = view.phase === "bid" ? "Its suit is your guess for the last stack to close." : "Confirm the move.";
    }
    buttons.push(ui.button("Clear", { class: "quiet-dark", dataset: { testid: "clear-selection", focus: "clear" }, onclick: ui.clearSelection }));
  } else if (sel.card) {
    note = `${short(sel.card)} cannot be used now.`;
    buttons.push(ui.button("Clear", { class: "quiet-dark", dataset: { testid: "clear-selection", focus: "clear" }, onclick: ui.clearSelection }));
  } else {
    note = promptFor(ctx);
  }
  if (endTurn && !(sel.card && cardActions.length)) buttons.push(ui.actionButton(endTurn, "End turn", { class: "pass-button" }));
  if (plainPass) buttons.push(ui.actionButton(plainPass, "Pass (nothing to pay)", { class: "pass-button" }));
  return h("div", { class: "ru-controls", dataset: { testid: "controls" } },
    banner,
    h("p", { class: "controls-note", "aria-live": "polite" }, note),
    buttons.length ? h("div", { class: "controls-buttons" }, buttons) : null);
}

function promptFor(ctx) {
  const { view, legal } = ctx;
  switch (view.phase) {
    case "bid": return "Bid: pick a number card from your face-down hand. Its suit is your guess for the last stack to close.";
    case "tiebreak": return "You are tied to start: pick a face-down number card to turn up. The lowest new card starts.";
    case "answer": return "Pick the lit card to give up.";
    default: break;
  }
  if (view.played_this_turn && view.played_this_turn.length) return "Play another lit face-up card, or end your turn.";
  if (legal.some((a) => a.kind === "play" && (view.face_up[view.viewer] || []).includes(a.cards[0]))) {
    return "Play a lit card from your face-up hand (you must while you can).";
  }
  const hasPass = legal.some((a) => a.kind === "pass" && a.cards && a.cards.length);
  return `Nothing face-up fits. Pick a lit face-down card to play or a face card to aim at someone${hasPass ? ", or any face-down card to pass with" : ""}.`;
}

function faceCardControls(ctx, buttons) {
  const { h, ui, n, me, sel, cardActions, faceKind } = ctx;
  const targets = seatOrder(n, me).filter((p) => cardActions.some((a) => targetOf(a) === p));
  if (faceKind === "jack") {
    for (const p of targets) {
      const a = cardActions.find((x) => x.kind === "jack" && targetOf(x) === p);
      buttons.push(ui.actionButton(a, `${short(sel.card)} on ${ui.seatName(p)}`, { class: "primary", focusPrefix: "confirm:" }));
    }
    addPassOption(ctx, buttons);
    return;
  }
  const target = targets.length === 1 ? targets[0] : sel.target;
  if (target === null || !targets.includes(target)) {
    for (const p of targets) {
      buttons.push(ui.button(ui.seatName(p), {
        class: "ru-pick", dataset: { testid: "target", target: String(p), focus: `pick-target:${p}` },
        onclick: () => ui.setSelection([sel.card, TARGET_PREFIX + p]),
      }));
    }
    addPassOption(ctx, buttons);
    return;
  }
  const options = cardActions.filter((a) => a.kind === faceKind && targetOf(a) === target);
  const row = options.map((a) => {
    const named = namedOf(a);
    const text = faceKind === "queen" ? `${SUIT_SYMBOLS[named]} ${SUIT_WORDS[named]}` : named;
    return ui.actionButton(a, text, { class: ["ru-name", faceKind === "queen" && (named === "H" || named === "D") && "is-red"].filter(Boolean).join(" "), focusPrefix: "confirm:" });
  });
  buttons.push(h("div", { class: ["ru-name-row", `ru-name-${faceKind}`], role: "group", "aria-label": faceKind === "queen" ? "Name a suit" : "Name a number" }, row));
  if (targets.length > 1) {
    buttons.push(ui.button("Other target", { class: "quiet-dark", dataset: { focus: "other-target" }, onclick: () => ui.setSelection([sel.card]) }));
  }
  addPassOption(ctx, buttons);
}

/** A face card held with no number card face-down can also pay for a pass. */
function addPassOption(ctx, buttons) {
  const { ui, cardActions } = ctx;
  const pass = cardActions.find((a) => a.kind === "pass");
  if (pass) buttons.push(ui.actionButton(pass, pass.label, { class: "pass-button", focusPrefix: "confirm:" }));
}

// ----- the score sheet ---------------------------------------------------------------------

function scoreSheet(ctx) {
  const { h, ui, view, n } = ctx;
  const rounds = view.rounds || [];
  if (!rounds.length) return null;
  const seats = Array.from({ length: n }, (_, i) => i);
  return h("section", { class: "ru-sheet", "aria-label": "Score sheet", dataset: { testid: "score-sheet" } },
    h("h2", { class: "zone-title" }, "Score sheet"),
    h("div", { class: "ru-sheet-scroll" },
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Round"), h("th", { scope: "col" }, "Last"), seats.map((p) => h("th", { scope: "col" }, ui.seatName(p))))),
        h("tbody", {}, rounds.map((r) => h("tr", {},
          h("th", { scope: "row" }, String(r.round)),
          h("td", { class: ["ru-sheet-suit", isRedSuit(r.closing_suit) && "is-red"], title: SUIT_WORDS[r.closing_suit] }, SUIT_SYMBOLS[r.closing_suit] || ""),
          seats.map((p) => h("td", {},
            h("span", { class: "ru-sheet-total" }, String((r.scores || [])[p] ?? "")),
            (r.points || [])[p] ? h("span", { class: "ru-sheet-gain" }, ` +${r.points[p]}`) : null))))))));
}

// ----- words for the frame --------------------------------------------------------------------

/** The message shown after a move, e.g. "North plays 7♥". */
export function describeMove(move, snapshot, seatName) {
  const who = seatName(move.player);
  const id = String(move.id || "");
  // Another seat's bid comes without its id (it is secret): its words say what it was.
  const [kind, card] = !id && /bid/i.test(String(move.label || "")) ? ["bid", null] : id.split(":");
  const view = (snapshot && snapshot.view) || {};
  switch (kind) {
    // Another seat's bid is secret: never name its card, whatever the move carries.
    case "bid": {
      const text = who === "You" && card ? `You bid ${short(card)}: ${SUIT_WORDS[suitOf(card)]}` : `${who} places a secret bid`;
      return view.phase && view.phase !== "bid" ? `${text}. ${bidsShown(view, seatName)}` : text;
    }
    case "tiebreak": return who === "You" ? `You turn up ${short(card)} for the tie-break` : `${who} picks a card for the tie-break`;
    case "play": {
      const downward = String(move.label || "").endsWith("face-down");
      return `${verb(who, "play", "plays")} ${short(card)}${downward ? " from the face-down hand" : ""}${closes(card) ? `, closing ${SUIT_WORDS[suitOf(card)]}` : ""}`;
    }
    case "end": return `${verb(who, "end", "ends")} the turn`;
    case "jack": case "queen": case "king": case "pass": case "reveal": case "discard": {
      const text = effectText(view, seatName);
      if (text && view.last_effect && view.last_effect.by !== undefined) return text.replace(/\.$/, "");
      return `${who}: ${move.label}`;
    }
    default: return `${who}: ${move.label}`;
  }
}

/** The log's note on the move that turned the bids up (the last bid, whoever placed it):
 * every bid and who plays first, which the move's own words do not tell. */
export function logNote(move, snapshot, prev, seatName) {
  const before = (prev && prev.view) || {};
  const view = (snapshot && snapshot.view) || {};
  if (before.phase !== "bid" || !view.phase || view.phase === "bid") return null;
  if (view.round !== undefined && view.round !== before.round) return null;
  return bidsShown(view, seatName);
}

/** Once the last bid is in: every bid, face up, and who plays first. */
function bidsShown(view, seatName) {
  const bids = (view.bids || []).map((b, p) => (b ? `${seatName(p)} ${SUIT_SYMBOLS[suitOf(b)]}` : null)).filter(Boolean);
  const first = view.turn ?? view.current_player;
  const starts = first === null || first === undefined ? "" : `; ${seatName(first)} ${seatName(first) === "You" ? "start" : "starts"}`;
  return `All bids are now shown${bids.length ? `: ${bids.join(", ")}` : ""}${starts}`;
}

function closes(card) {
  return rankOf(card) === "10";
}

/** The round-over dialog's words: the last suit closed, who guessed it, the points. */
export function roundSummary(prev, snapshot, seatName) {
  const view = snapshot.view || {};
  const last = view.last_round;
  if (!last) return null;
  return {
    title: `Round ${last.round}: ${SUIT_SYMBOLS[last.closing_suit]} ${SUIT_WORDS[last.closing_suit]} closed last`,
    lines: roundLines(last, seatName),
    detail: bidCards(last, seatName),
  };
}

/** Every seat's bid drawn as a card beside the suit that closed last; the right ones ringed. */
function bidCards(last, seatName) {
  const suit = last.closing_suit;
  return h("div", { class: "round-detail", dataset: { testid: "round-detail" } },
    h("div", { class: "round-cards" },
      h("div", { class: "round-group is-closing", dataset: { testid: "closing-suit" } },
        h("span", { class: "round-group-cards" }, h("span", {
          class: ["card", "card-small", "ru-suit-tile", isRedSuit(suit) ? "card-red" : "card-black"], role: "img",
          "aria-label": `${SUIT_WORDS[suit]} closed last`, dataset: { testid: "closing-suit-tile", suit },
        }, h("span", { class: "card-pip", "aria-hidden": "true" }, SUIT_SYMBOLS[suit]))),
        h("span", { class: "round-group-note" }, "closed last")),
      (last.bids || []).map((bid, p) => {
        const right = Boolean(bid) && suitOf(bid) === suit;
        const card = bid ? cardElement(bid, { small: true, extraLabel: `${possessive(seatName(p))} bid${right ? ", right" : ""}` }) : null;
        if (card) card.classList.toggle("is-match", right);
        return h("div", { class: "round-group", dataset: { testid: "round-bid", right: right ? "true" : "false" } },
          h("span", { class: "round-group-cards" }, card || h("span", { class: "card card-small card-empty", "aria-hidden": "true" })),
          h("span", { class: "round-group-note" }, bid ? seatName(p) : `${seatName(p)}: no bid`));
      })));
}

function roundLines(last, seatName) {
  const suit = last.closing_suit;
  const lines = [];
  const bids = (last.bids || []).map((b, p) => (b ? `${seatName(p)} ${SUIT_SYMBOLS[suitOf(b)]}` : `${seatName(p)} no bid`));
  lines.push(`Bids: ${bids.join(", ")}.`);
  const correct = last.correct || [];
  if (!correct.length) lines.push(`Nobody bid on ${SUIT_WORDS[suit]}, so no bid points.`);
  else {
    const names = joinNames(correct.map(seatName));
    const each = last.bid_points;
    if (correct.length === 1) lines.push(`${names} guessed it: ${plural(each, "point")}.`);
    else lines.push(`${names} guessed it: ${each ? `${plural(each, "point")} each` : "no points, the suit was too crowded"}.`);
  }
  if (last.first_empty !== null && last.first_empty !== undefined) {
    const who = seatName(last.first_empty);
    lines.push(`${who} ${who === "You" ? "were" : "was"} first to empty both hands: 1 point.`);
  } else {
    lines.push("Nobody emptied both hands before the last stack closed.");
  }
  return lines;
}

function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}


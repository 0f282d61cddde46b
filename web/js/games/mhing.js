// The General Mhing table: every seat's laid sequences (a wild Ace shows the rank it stands
// for), hand counts and the cards everyone knows, the draw pile and the discard pile, and your
// hand to select sequences from. The engine decides everything: hand cards light up when they
// belong to a legal action's `cards`, and every button carries a legal action's id.
// View keys and action ids: engine/games/mhing/state.py (module docstring). Action ids list cards low
// to high with an Ace at the position of the rank it stands for: "lay:7H,AH,9H",
// "take:7H,8H,9H", "swap:8H", "discard:7H", "draw:stock".

import { dragSource } from "../ui/drag.js";
import { RANKS, SUIT_SYMBOLS, cardElement, cardOrder, cardText, isRedSuit, plural, rankOf, suitOf } from "../ui/cards.js";
import { h } from "../ui/dom.js";

const RANK_TEXT = ["", ...RANKS];
const RANK_VALUE = Object.fromEntries(RANK_TEXT.map((r, i) => [r, i]).filter(([r]) => r));
const SUIT_ORDER = ["S", "H", "D", "C"]; // engine/cards.py standard_deck order
const MATCH_WORDS = { suit: "same suit", ranks: "same ranks", order: "in order", high: "high bonus", low: "low bonus" };
const REASONS = {
  fourth_sequence: (who) => `${who} laid a fourth sequence.`,
  draw_pile_empty: () => "The draw pile ran out with nothing left to rebuild it.",
  no_progress: () => "The draw pile ran out again with no sequence laid since it was rebuilt.",
};
const MAX_SEQUENCES = 4;
const CIRCLED = ["\u2460", "\u2461", "\u2462", "\u2463"];

function isAce(cardId) { return rankOf(cardId) === "A"; }

/** Low to high by rank, then suit: the order a selection is named in a "why" request. */
const compareCards = cardOrder((c) => RANK_VALUE[rankOf(c)], (c) => SUIT_ORDER.indexOf(suitOf(c)));

/**
 * The ranks (1-13) an action's sequence stands for, read from its id: the engine lists the
 * cards low to high with the Ace at its rank's position (engine/games/mhing/rules.py, sequence_ranks).
 * Display only: the engine has already decided the sequence is legal.
 */
function idRanks(cards) {
  for (let i = 0; i < cards.length; i++) {
    const c = cards[i];
    const aceAsOne = i === 0 && cards.length > 1 && rankOf(cards[1]) === "2";
    if (!isAce(c) || aceAsOne) {
      const low = (isAce(c) ? 1 : RANK_VALUE[rankOf(c)]) - i;
      return cards.map((_, k) => low + k);
    }
  }
  return cards.map(() => 0);
}

function idCards(actionId) {
  const arg = String(actionId).split(":")[1] || "";
  return arg ? arg.split(",") : [];
}

/** "7♥ A♥(8) 9♥" */
function seqText(cards, ranks) {
  return cards.map((c, i) => {
    const name = cardText(c);
    return isAce(c) && ranks[i] !== 1 ? `${name}(${RANK_TEXT[ranks[i]]})` : name;
  }).join(" ");
}

function youVerb(who, verb, s = "s") { return `${who} ${who === "You" ? verb : verb + s}`; }

// ----- the table ------------------------------------------------------------------------------

export function render(root, snapshot, ui) {
  const { h } = ui;
  const view = snapshot.view || {};
  const players = view.players || snapshot.players || 2;
  const me = view.viewer ?? snapshot.viewer ?? 0;
  const others = [];
  for (let k = 1; k < players; k++) others.push((me + k) % players);
  const myTurn = Boolean(snapshot.human_turn && view.current_player === me && !snapshot.is_over);

  root.append(h("div", { class: ["mhing", `mhing-p${players}`] },
    h("div", { class: "mhing-opponents" }, others.map((seat) => opponentPanel(ui, snapshot, view, seat))),
    centre(ui, snapshot, view, myTurn),
    yourPanel(ui, snapshot, view, me, myTurn),
    lastRoundPanel(ui, view)));
}

function seatHeader(ui, snapshot, view, seat) {
  const { h } = ui;
  const count = (view.sequence_counts || [])[seat] || 0;
  const points = (view.round_points || [])[seat] || 0;
  const current = view.current_player === seat && !snapshot.is_over && !snapshot.round_over;
  return h("header", { class: "seat-header" },
    h("span", { class: "seat-name" }, ui.seatName(seat)),
    h("span", { class: "mhing-tally", "aria-label": `${count} of ${MAX_SEQUENCES} sequences laid` },
      [0, 1, 2, 3].map((i) => h("span", { class: ["pip", i < count && "is-won"], "aria-hidden": "true" })),
      h("span", { class: "round-wins-text", "aria-hidden": "true" }, `${count}/${MAX_SEQUENCES}`)),
    h("span", { class: "mhing-points", dataset: { testid: "round-points" } }, `${plural(points, "point")} this round`),
    current && ui.thinking === seat ? h("span", { class: "thinking", dataset: { testid: "seat-thinking" } }, "thinking\u2026") : null,
    current ? h("span", { class: "turn-badge" }, view.phase === "draw" ? "to draw" : "to play") : null);
}

function opponentPanel(ui, snapshot, view, seat) {
  const { h } = ui;
  const count = (view.hand_counts || [])[seat] || 0;
  const known = (view.known_hand_cards || [])[seat] || [];
  const backs = [];
  for (let i = 0; i < Math.max(0, count - known.length); i++) backs.push(ui.cardBack({ small: true }));
  return h("section", {
    class: ["mhing-seat", "mhing-opponent", view.current_player === seat && !snapshot.is_over && !snapshot.round_over && "is-turn"],
    dataset: { seat: String(seat) }, "aria-label": `${ui.seatName(seat)}: ${plural(count, "card")} in hand`,
  },
  seatHeader(ui, snapshot, view, seat),
  h("div", { class: "opponent-body" },
    h("div", { class: "opponent-hand" },
      h("div", { class: "fan" }, backs, known.map((c) => ui.card(c, { small: true, extraLabel: "known: an Ace swapped back" }))),
      h("span", { class: "count", dataset: { testid: "hand-count" } }, plural(count, "card"))),
    sequencesRow(ui, view, seat, { small: true })));
}

/** A seat's laid sequences, numbered, each Ace marked with the rank it stands for. */
function sequencesRow(ui, view, seat, opts = {}) {
  const { h } = ui;
  const seqs = (view.sequences || [])[seat] || [];
  const ranks = (view.sequence_ranks || [])[seat] || [];
  const matches = (view.matches || [])[seat] || [];
  const swaps = opts.swaps || [];
  if (!seqs.length) {
    return h("div", { class: "mhing-sequences is-empty", dataset: { testid: `sequences-${seat}` } },
      h("p", { class: "mhing-none" }, opts.mine ? "No sequences laid yet: three cards of one suit in a row." : "No sequences laid yet."));
  }
  return h("div", { class: "mhing-sequences-wrap" },
    h("ol", { class: "mhing-sequences", dataset: { testid: `sequences-${seat}` } },
      seqs.map((seq, i) => {
        const r = ranks[i] || idRanks(seq);
        const aceAt = seq.findIndex((c, k) => isAce(c) && r[k] !== 1);
        const swap = aceAt >= 0 ? swaps.find((a) => a.cards && a.cards[0] === `${RANK_TEXT[r[aceAt]]}${suitOf(seq[aceAt])}`) : null;
        const freshSeq = ui.fresh && ui.lastMove && ui.lastMove.player === seat && /^(lay|take):/.test(ui.lastMove.id)
          && i === seqs.length - 1;
        return h("li", { class: "mhing-seq", "aria-label": `Sequence ${i + 1}: ${seqText(seq, r)}` },
          h("span", { class: "seq-number", "aria-hidden": "true" }, String(i + 1)),
          h("span", { class: "seq-cards" }, seq.map((c, k) => sequenceCard(ui, c, r[k], opts, freshSeq))),
          swap ? ui.actionButton(swap, `Swap in ${cardText(swap.cards[0])}`, { class: "swap-button" }) : null);
      })),
    matchList(ui, matches, seqs));
}

function sequenceCard(ui, cardId, rank, opts, fresh) {
  const { h } = ui;
  const wild = isAce(cardId) && rank !== 1;
  const card = ui.card(cardId, { small: !opts.tiny, tiny: opts.tiny, fresh, extraLabel: wild ? `standing for the ${RANK_TEXT[rank]}` : null });
  if (!wild) return card;
  return h("span", { class: "seq-ace" }, card,
    h("span", { class: "ace-badge", "aria-hidden": "true", title: `The Ace stands for the ${RANK_TEXT[rank]}` }, `=${RANK_TEXT[rank]}`));
}

/** "1+2 same suit · 1+2 in order · high bonus": every point the sequences score now. */
function matchList(ui, matches, seqs) {
  const { h } = ui;
  if (!matches.length) return h("p", { class: "mhing-matches is-none" }, seqs.length > 1 ? "No matches yet." : "");
  return h("ul", { class: "mhing-matches", "aria-label": "Points scored" }, matches.map((m) => h("li", { class: `match-${m.kind}` },
    m.between && m.between.length ? h("span", { class: "match-pair" }, `${m.between[0] + 1}+${m.between[1] + 1}`) : null,
    MATCH_WORDS[m.kind] || m.kind)));
}

function centre(ui, snapshot, view, myTurn) {
  const { h } = ui;
  const count = view.draw_pile_count || 0;
  const pile = view.discard_pile || [];
  const top = view.discard_top;
  const takes = myTurn ? ui.actionsOfKind("take") : [];
  let drawNote = null;
  if (!count) drawNote = pile.length > 1 && !view.rebuilt_since_sequence ? "Empty: the next draw turns the discards over." : "Empty: the next draw ends the round.";
  else if (view.rebuilt_since_sequence) drawNote = "Rebuilt once: if it runs out again before a sequence is laid, the round ends.";
  const under = pile.slice(Math.max(0, pile.length - 5), -1);
  const drawAction = myTurn ? ui.legal.find((a) => a.id === "draw:stock") : null;
  const drawPile = count > 0 ? ui.cardBack({ small: true, label: `Draw pile, ${plural(count, "card")}` }) : h("span", { class: "card card-small card-empty", "aria-hidden": "true" });
  return h("section", { class: "mhing-centre", "aria-label": "Draw pile and discard pile" },
    h("figure", { class: "pile", dataset: { testid: "draw-pile" } },
      drawAction ? ui.h("button", {
        type: "button", class: "pile-button", dataset: { action: drawAction.id, focus: "pile:draw" }, disabled: ui.busy,
        "aria-label": `Draw a card (${plural(count, "card")} left)`, onclick: () => ui.send(drawAction.id),
      }, drawPile) : drawPile,
      h("figcaption", {}, `Draw pile: ${count}`)),
    h("figure", { class: ["pile", "discard-pile", takes.length && "can-take"], dataset: { testid: "discard-pile", drop: "discard" } },
      h("span", { class: "discard-stack" },
        under.map((c) => ui.card(c, { tiny: true, extraLabel: "under the top discard" })),
        top ? ui.card(top, { small: true, playable: takes.length > 0, fresh: ui.fresh && ui.lastMove && /^discard:/.test(ui.lastMove.id), extraLabel: "top of the discard pile" })
          : h("span", { class: "card card-small card-empty", "aria-hidden": "true" })),
      h("figcaption", {}, top ? `Discards: ${pile.length}` : "No discards yet")),
    h("div", { class: "mhing-round-info" },
      h("p", {}, h("strong", {}, `Round ${view.round || 1}`), ` \u00b7 first to ${view.target || 14} points`),
      drawNote ? h("p", { class: "pile-warning" }, drawNote) : null,
      takes.length ? h("p", { class: "take-hint" }, `The ${cardText(top)} fits a sequence of yours: select the two cards that go with it.`) : null));
}

function yourPanel(ui, snapshot, view, me, myTurn) {
  const { h } = ui;
  const hand = view.hand || [];
  const swaps = myTurn ? ui.actionsOfKind("swap") : [];
  const cardActions = myTurn ? ui.legal.filter((a) => a.kind === "lay" || a.kind === "take") : [];
  const lit = myTurn ? ui.extendable(cardActions) : new Set();
  const swapCards = new Set(swaps.map((a) => a.cards[0]));
  const discards = myTurn && view.phase === "play";
  let prevSuit = null;
  // The gaps between suits, which the hand's fan leaves room for (web/css/scale.css).
  const breaks = hand.filter((c, i) => i > 0 && suitOf(c) !== suitOf(hand[i - 1])).length;
  return h("section", { class: ["mhing-seat", "mhing-you", view.current_player === me && !snapshot.is_over && !snapshot.round_over && "is-turn"], "aria-label": "Your sequences and hand" },
    seatHeader(ui, snapshot, view, me),
    sequencesRow(ui, view, me, { mine: true, swaps }),
    h("div", { class: "hand mhing-hand", "aria-label": "Your hand", dataset: { testid: "hand", breaks: String(breaks) } },
      hand.map((c) => {
        const selectable = myTurn && (discards || lit.has(c) || swapCards.has(c) || ui.selection.has(c));
        const newSuit = prevSuit !== null && suitOf(c) !== prevSuit;
        prevSuit = suitOf(c);
        const el = ui.card(c, {
          selectable: myTurn,
          onclick: (id) => pick(ui, view, cardActions, id),
          playable: lit.has(c) || swapCards.has(c),
          dim: myTurn && !discards && ui.selection.size > 0 && !selectable,
          fresh: ui.fresh && c === view.drawn,
          extraLabel: [c === view.drawn ? "just drawn" : null, swapCards.has(c) ? "can replace your Ace" : null].filter(Boolean).join(", ") || null,
        });
        el.classList.toggle("is-drawn", c === view.drawn);
        el.classList.toggle("suit-break", newSuit);
        // In the play phase a card dragged onto the discard pile is discarded, as its button does.
        if (!discards) return el;
        return dragSource(el, c, {
          accepts: (key) => (key === "discard" ? (ui.legal.some((a) => a.id === `discard:${c}`) ? "legal" : "refused") : null),
          drop: () => (ui.legal.some((a) => a.id === `discard:${c}`) ? ui.send(`discard:${c}`) : ui.why(`discard:${c}`)),
        });
      })),
    // After the hand: a Tab from the selected cards reaches the button that plays them.
    myTurn ? controls(ui, view) : waitingLine(ui, snapshot, view),
    myTurn ? possibleSequences(ui, view) : null);
}

/** The sequences the engine offers right now, as chips: clicking one selects its cards. */
function possibleSequences(ui, view) {
  const { h } = ui;
  const actions = ui.legal.filter((a) => a.kind === (view.phase === "draw" ? "take" : "lay"));
  if (!actions.length) return null;
  const selected = ui.selection;
  return h("div", { class: "mhing-possible" },
    h("h3", { class: "zone-title" }, view.phase === "draw" ? `Sequences with the ${cardText(view.discard_top)}` : "Sequences you can lay"),
    h("ul", { class: "possible-list" }, actions.map((a) => {
      const cards = idCards(a.id);
      const ranks = idRanks(cards);
      const on = a.cards.length === selected.size && a.cards.every((c) => selected.has(c));
      const red = isRedSuit(suitOf(cards[0]));
      return h("li", {}, ui.button([
        cards.map((c, k) => h("span", { class: ["chip-card", isAce(c) && ranks[k] !== 1 && "is-wild", !a.cards.includes(c) && "is-discard"] },
          isAce(c) && ranks[k] !== 1 ? `A=${RANK_TEXT[ranks[k]]}` : RANK_TEXT[ranks[k]])),
        h("span", { class: "chip-suit", "aria-hidden": "true" }, SUIT_SYMBOLS[suitOf(cards[0])])],
        {
          class: ["sequence-chip", on && "is-on", red && "is-red"], "aria-pressed": on ? "true" : "false",
          "aria-label": `Select ${seqText(cards, ranks)}`, dataset: { testid: "sequence-chip", sequence: a.id, focus: "chip:" + a.id },
          disabled: ui.busy, onclick: () => ui.setSelection(a.cards),
        }));
    })));
}

/** Toggle a hand card; a selection that no longer leads to any move is refused at once,
 * with the engine's reason for the sequence it would be. */
function pick(ui, view, cardActions, cardId) {
  const next = new Set(ui.selection);
  if (next.has(cardId)) next.delete(cardId); else next.add(cardId);
  ui.setSelection([...next]);
  if (!next.size) return;
  const chosen = [...next];
  const within = (a) => chosen.every((c) => a.cards.includes(c));
  const seqKind = view.phase === "draw" ? "take" : "lay";
  const other = ui.legal.some((a) => a.kind !== seqKind && a.cards && a.cards.length === chosen.length && within(a));
  if (!other && !cardActions.some(within)) ui.why(`${seqKind}:${chosen.sort(compareCards).join(",")}`);
}

function controls(ui, view) {
  const { h } = ui;
  const selection = ui.selection;
  const phase = view.phase;
  const buttons = [];
  let note;
  const seqKind = phase === "draw" ? "take" : "lay";
  const seqActions = ui.actionsOfKind(seqKind);
  const matching = ui.matching(ui.legal);
  const seqMatches = matching.filter((a) => a.kind === seqKind);
  const others = matching.filter((a) => a.kind !== seqKind);
  if (seqMatches.length > 1) {
    // Same cards, different sequences: the Ace may stand for more than one rank.
    note = "Your Ace can stand for more than one card here. Choose:";
    for (const a of seqMatches) {
      const cards = idCards(a.id);
      const ranks = idRanks(cards);
      const k = cards.findIndex((c, i) => isAce(c) && ranks[i] !== 1);
      const text = k >= 0 ? `Ace as the ${RANK_TEXT[ranks[k]]}` : "Ace as itself (1)";
      buttons.push(ui.actionButton(a, `${text}: ${seqText(cards, ranks)}`, { class: "primary confirm-play ace-choice", focusPrefix: "confirm:" }));
    }
  } else if (seqMatches.length === 1) {
    const a = seqMatches[0];
    const cards = idCards(a.id);
    const text = seqText(cards, idRanks(cards));
    note = "Ready.";
    buttons.push(ui.actionButton(a, phase === "draw" ? `Take ${cardText(view.discard_top)}, lay ${text}` : `Lay ${text}`, { class: "primary confirm-play", focusPrefix: "confirm:" }));
  }
  for (const a of others) {
    if (a.kind === "discard") buttons.push(ui.actionButton(a, `Discard ${cardText(a.cards[0])}`, { class: "confirm-play discard-button", focusPrefix: "confirm:" }));
    else if (a.kind === "swap") buttons.push(ui.actionButton(a, `Swap ${cardText(a.cards[0])} for the Ace`, { class: "confirm-play", focusPrefix: "confirm:" }));
  }
  if (!note) {
    const need = phase === "draw" ? 2 : 3;
    if (!selection.size) {
      if (phase === "draw") {
        note = seqActions.length ? `Draw a card, or select two cards to lay with the ${cardText(view.discard_top)}.` : "Draw a card to start your turn.";
        const swaps = ui.actionsOfKind("swap");
        if (swaps.length) note += ` You may first swap ${swaps.map((a) => cardText(a.cards[0])).join(" or ")} in for your Ace.`;
      } else {
        const drawn = view.drawn ? `You drew the ${cardText(view.drawn)}. ` : "";
        note = `${drawn}${seqActions.length ? "Select three cards to lay (the lit ones make sequences), or one card to discard." : "Select a card to discard."}`;
      }
    } else if (matching.length) {
      note = "Ready.";
    } else if (selection.size < need && ui.extending(seqActions).length) {
      note = `Select ${plural(need - selection.size, "more card")} to make a sequence.`;
    } else {
      note = "These cards do not make a sequence now.";
      buttons.push(ui.button(`Why not?`, {
        class: "confirm-play is-illegal", dataset: { testid: "why-lay", focus: "why-lay" },
        onclick: () => ui.why(ui.wouldBeId(seqKind, compareCards)),
      }));
    }
  }
  if (phase === "draw") {
    const draw = ui.legal.find((a) => a.id === "draw:stock");
    if (draw) buttons.push(ui.actionButton(draw, draw.label, { class: ["draw-button", !matching.length && "primary"].filter(Boolean).join(" ") }));
  }
  if (selection.size) buttons.push(ui.button("Clear", { class: "quiet-dark", dataset: { testid: "clear-selection", focus: "clear" }, onclick: ui.clearSelection }));
  return h("div", { class: "controls", dataset: { testid: "controls" } },
    h("p", { class: "controls-note", "aria-live": "polite" }, note),
    h("div", { class: "controls-buttons" }, buttons));
}

function waitingLine(ui, snapshot, view) {
  const { h } = ui;
  if (snapshot.is_over) return h("p", { class: "controls-note" }, "The match is over.");
  if (view.current_player === null || view.current_player === undefined) return null;
  return h("p", { class: "controls-note" }, `Waiting for ${ui.seatName(view.current_player)}\u2026`);
}

/** The latest round's result, kept on the table: every seat's sequences and every match. */
function lastRoundPanel(ui, view) {
  const { h } = ui;
  const last = view.last_round;
  if (!last) return null;
  const seats = (last.sequences || []).map((_, i) => i);
  return h("details", { class: "mhing-last-round", dataset: { testid: "last-round" } },
    h("summary", {}, `Round ${last.round}: ${roundTitle(last, ui.seatName)}`),
    h("p", { class: "field-note" }, (REASONS[last.reason] || (() => ""))(ui.seatName(last.ended_by))),
    h("ul", { class: "last-round-seats" }, seats.map((seat) => {
      const seqs = last.sequences[seat] || [];
      const ranks = (last.sequence_ranks || [])[seat] || [];
      return h("li", { class: (last.winners || []).includes(seat) && "is-winner" },
        h("p", { class: "last-round-who" }, h("strong", {}, ui.seatName(seat)),
          ` \u2014 ${plural((last.points || [])[seat] || 0, "point")}, ${plural(seqs.length, "sequence")}`,
          (last.awarded || [])[seat] ? ` \u00b7 +${last.awarded[seat]} to the match` : ""),
        seqs.length ? h("ol", { class: "mhing-sequences is-tiny" }, seqs.map((seq, i) => h("li", { class: "mhing-seq" },
          h("span", { class: "seq-number", "aria-hidden": "true" }, String(i + 1)),
          h("span", { class: "seq-cards" }, seq.map((c, k) => sequenceCard(ui, c, (ranks[i] || idRanks(seq))[k], { tiny: true }, false)))))) : null,
        matchList(ui, (last.matches || [])[seat] || [], seqs));
    })));
}

function roundTitle(last, seatName) {
  const winners = last.winners || [];
  const names = winners.map(seatName);
  const pts = (last.points || [])[winners[0]] || 0;
  if (!names.length) return "nobody scored";
  if (names.length > 1) return `${names.join(" and ")} tie on ${plural(pts, "point")} and each score them`;
  return `${youVerb(names[0], "score")} ${plural(pts, "point")}`;
}

// ----- words for the frame ---------------------------------------------------------------------

/** The message shown after a move: "West lays 7♥ A♥(8) 9♥". */
export function describeMove(move, snapshot, seatName) {
  const who = seatName(move.player);
  const id = String(move.id);
  const kind = id.split(":")[0];
  const cards = idCards(id);
  const view = (snapshot && snapshot.view) || {};
  if (kind === "draw") {
    if (who === "You" && view.drawn) return `You draw the ${cardText(view.drawn)}`;
    return `${youVerb(who, "draw")} a card`;
  }
  if (kind === "take") {
    const text = seqText(cards, idRanks(cards));
    return `${youVerb(who, "take")} the discard and ${who === "You" ? "lay" : "lays"} ${text}`;
  }
  if (kind === "lay") return `${youVerb(who, "lay")} ${seqText(cards, idRanks(cards))}`;
  if (kind === "swap") return `${youVerb(who, "swap")} the ${cardText(cards[0])} in for the Ace, which goes back to ${who === "You" ? "your" : "their"} hand`;
  if (kind === "discard") return `${youVerb(who, "discard")} the ${cardText(cards[0])}`;
  return `${who}: ${move.label}`;
}

/** The round-over dialog: who won, why the round ended, and every match each seat found. */
export function roundSummary(prev, snapshot, seatName) {
  const view = snapshot.view || {};
  const last = view.last_round;
  if (!last) return null;
  const winners = last.winners || [];
  let title;
  if (winners.length === 1) title = seatName(winners[0]) === "You" ? `You win round ${last.round}!` : `${seatName(winners[0])} wins round ${last.round}`;
  else title = `Round ${last.round} is shared`;
  const lines = [(REASONS[last.reason] || (() => ""))(seatName(last.ended_by))];
  const detail = h("div", { class: "round-detail", dataset: { testid: "round-detail" } },
    (last.sequences || []).map((seqs, seat) => seatScoring(last, seat, seqs, winners, seatName)));
  return { title, lines: [...lines, `The first to ${view.target || 14} points wins the match.`], detail };
}

/** A seat's round in the round-over dialog: its sequences drawn as cards, numbered, those in
 * a match ringed, and each match naming the pair it joins. */
function seatScoring(last, seat, seqs, winners, seatName) {
  const ranks = (last.sequence_ranks || [])[seat] || [];
  const points = (last.points || [])[seat] || 0;
  const awarded = (last.awarded || [])[seat] || 0;
  const found = (last.matches || [])[seat] || [];
  const paired = new Set(found.flatMap((m) => m.between || []));
  const matches = found.map((m) => (m.between && m.between.length
    ? `${CIRCLED[m.between[0]] || m.between[0] + 1}+${CIRCLED[m.between[1]] || m.between[1] + 1} ${MATCH_WORDS[m.kind]}`
    : MATCH_WORDS[m.kind] || m.kind));
  return h("section", { dataset: { testid: `round-seat-${seat}` } },
    h("h3", {}, `${seatName(seat)}: ${plural(points, "point")}`
      + (awarded ? `, +${awarded} to the match` : winners.includes(seat) ? "" : ", nothing added")),
    seqs.length
      ? h("div", { class: "round-cards" }, seqs.map((seq, i) => {
        const seqRanks = ranks[i] || idRanks(seq);
        const cards = seq.map((c) => cardElement(c, { tiny: true }));
        for (const card of cards) card.classList.toggle("is-match", paired.has(i));
        return h("div", { class: "round-group", dataset: { testid: "round-sequence", matched: paired.has(i) ? "true" : "false" } },
          h("span", { class: "round-group-cards", "aria-label": `Sequence ${i + 1}: ${seqText(seq, seqRanks)}` }, cards),
          h("span", { class: "round-group-note" }, CIRCLED[i] || String(i + 1)));
      }))
      : h("p", { class: "round-group-note" }, "no sequences laid"),
    matches.length ? h("p", { class: "round-group-note", dataset: { testid: "round-matches" } }, `Matches: ${matches.join(" \u00b7 ")}`) : null);
}

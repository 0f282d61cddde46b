// The Progression table: every seat's four private stacks fanned with their running value
// and score, the four public stacks and the draw pile in the middle, your hand, and a
// two-step turn (play a card, then draw one) with a prompt for each step.
// View keys: engine/games/progression/state.py (module docstring). Action ids: "play:7H" (to your
// private stack), "public:7H" (to the public stack), "draw:stock", "draw:7H" (a public top).
// Card values, face cards and scores all come from the view: nothing here knows a rule.
import { h } from "../ui/dom.js";
import { SUIT_SYMBOLS, SUIT_NAMES, cardElement, cardText, isRedSuit, plural, suitOf } from "../ui/cards.js";
import { dragSource } from "../ui/drag.js";
import { verb } from "../read-snapshot.js";

const SUITS = ["S", "H", "D", "C"];
const LONG_FAN = 7;
const VERY_LONG_FAN = 12;

function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return "0";
}

/** A total with a real minus sign: "-13" reads as a hyphen. */
function plain(n) {
  return n < 0 ? `\u2212${-n}` : String(n);
}

function scoreClass(n) {
  return n > 0 ? "is-plus" : n < 0 ? "is-minus" : "is-zero";
}

function suitMark(suit, extra) {
  return h("span", { class: ["prog-suit", isRedSuit(suit) ? "is-red" : "is-black", extra], "aria-hidden": "true" }, SUIT_SYMBOLS[suit]);
}

/** Seats after `me`, clockwise: the order the turn passes in. */
function othersOf(me, players) {
  const out = [];
  for (let k = 1; k < players; k++) out.push((me + k) % players);
  return out;
}

export function render(root, snapshot, ui) {
  const view = snapshot.view || {};
  const players = view.players || snapshot.players || 3;
  const me = view.you ?? snapshot.viewer ?? 0;
  const myTurn = Boolean(snapshot.human_turn) && view.current_player === me && !snapshot.is_over;
  const canAct = myTurn && !ui.busy;
  const hand = Array.isArray(view.hand) ? view.hand : [];
  const selected = canAct && view.phase === "play" ? hand.find((c) => ui.selection.has(c)) || null : null;
  const legal = new Map(ui.legal.map((a) => [a.id, a]));
  const ctx = { ui, snapshot, view, me, myTurn, canAct, selected, legal, fresh: freshCard(ui) };

  root.append(h("div", { class: ["prog", `prog-${players}p`] },
    h("div", { class: "prog-opponents" }, othersOf(me, players).map((seat) => opponentPanel(ctx, seat))),
    centre(ctx),
    yourPanel(ctx, hand),
    roundsPanel(ctx)));
}

/** The card the latest move put somewhere, to animate it in. */
function freshCard(ui) {
  if (!ui.fresh || !ui.lastMove) return null;
  const [, arg] = String(ui.lastMove.id).split(":");
  return arg && arg !== "stock" ? arg : null;
}

function justCard(view) {
  return view.just_played ? view.just_played.card : null;
}

function drawCard(ctx, cardId, opts = {}) {
  const el = ctx.ui.card(cardId, { ...opts, fresh: ctx.fresh === cardId });
  if (justCard(ctx.view) === cardId) el.classList.add("is-just");
  return el;
}

// ----- a seat's private stacks -------------------------------------------------------------

function stackHead(ctx, seat, suit, size) {
  const view = ctx.view;
  const score = ((view.stack_scores || [])[seat] || {})[suit] ?? 0;
  const value = ((view.stack_values || [])[seat] || {})[suit] ?? 0;
  const faces = ((view.stack_faces || [])[seat] || {})[suit] ?? 0;
  const count = (((view.private_stacks || [])[seat] || {})[suit] || []).length;
  const spoken = count
    ? `${SUIT_NAMES[suit]}: ${plural(count, "card")}, value ${value}${faces ? `, ${plural(faces, "face card")} (times ${faces + 1})` : ""}, scores ${score}`
    : `${SUIT_NAMES[suit]}: empty`;
  return h("div", { class: "pstack-head", title: spoken },
    h("span", { class: "prog-sr" }, spoken),
    h("span", { class: "pstack-line", "aria-hidden": "true" },
      suitMark(suit),
      h("span", { class: "pstack-value", dataset: { testid: "stack-value" } }, count ? [h("span", { class: "pstack-value-word" }, "value "), String(value)] : "\u2013"),
      faces ? h("span", { class: "pstack-mult" }, `\u00d7${faces + 1}`) : null),
    size === "tiny" && !count ? null : h("span", { class: ["pstack-score", scoreClass(score)], "aria-hidden": "true", dataset: { testid: "stack-score" } }, count ? signed(score) : ""));
}

function fan(ctx, cards, size, emptyText) {
  const { ui } = ctx;
  const classes = ["prog-fan", `is-${size}`, cards.length > LONG_FAN && "is-long", cards.length > VERY_LONG_FAN && "is-very-long"];
  if (!cards.length) {
    return h("div", { class: classes }, h("span", { class: ["card", `card-${size}`, "card-empty"], "aria-hidden": "true" }, emptyText ? h("span", { class: "empty-text" }, emptyText) : null));
  }
  return h("div", { class: classes, role: "list" }, cards.map((c) => {
    const el = drawCard(ctx, c, { [size]: true });
    el.setAttribute("role", "listitem");
    el.setAttribute("aria-label", ui.cardName(c));
    return el;
  }));
}

function privateStacks(ctx, seat, size) {
  const { view, ui } = ctx;
  const stacks = (view.private_stacks || [])[seat] || {};
  const mine = seat === ctx.me;
  const sel = mine ? ctx.selected : null;
  return h("div", { class: ["prog-stacks", mine && "is-mine"], dataset: { testid: mine ? "my-stacks" : "stacks" } }, SUITS.map((suit) => {
    const cards = stacks[suit] || [];
    const body = [stackHead(ctx, seat, suit, size), fan(ctx, cards, size)];
    if (sel && suitOf(sel) === suit) {
      const action = ctx.legal.get(`play:${sel}`);
      if (action) {
        return h("button", {
          type: "button", class: ["pstack", "is-target"], disabled: ui.busy,
          dataset: { action: action.id, focus: "stack:" + action.id, testid: "private-target", drop: `private:${suit}` },
          "aria-label": `Play ${ui.cardName(sel)} to your ${SUIT_NAMES[suit]} stack`,
          onclick: () => ui.send(action.id),
        }, body, h("span", { class: "target-tag" }, "Play here"));
      }
      return h("button", {
        type: "button", class: ["pstack", "is-blocked"], dataset: { testid: "why-private", focus: "why:" + sel, drop: `private:${suit}` },
        "aria-label": `Why can't ${ui.cardName(sel)} go on your ${SUIT_NAMES[suit]} stack?`,
        onclick: () => ui.why(`play:${sel}`),
      }, body, h("span", { class: "target-tag" }, "Too low"));
    }
    return h("div", { class: "pstack", dataset: mine ? { suit, drop: `private:${suit}` } : { suit } }, body);
  }));
}

function seatBadges(ctx, seat) {
  const { view, snapshot, ui } = ctx;
  const badges = [];
  if (view.dealer === seat) badges.push(h("span", { class: "prog-badge is-dealer", title: "Dealt this round" }, "dealer"));
  if (view.current_player === seat && !snapshot.is_over && !snapshot.round_over) {
    if (ui.thinking === seat && snapshot.bot_turn) badges.push(h("span", { class: "thinking", dataset: { testid: "seat-thinking" } }, "thinking\u2026"));
    badges.push(h("span", { class: "turn-badge" }, view.phase === "draw" ? "drawing" : "playing"));
  }
  return badges;
}

function roundScore(view, seat) {
  return (view.round_scores || [])[seat] ?? 0;
}

function opponentPanel(ctx, seat) {
  const { view, ui } = ctx;
  const count = (view.hand_counts || [])[seat] || 0;
  const known = ((view.known_hands || [])[seat] || []).slice(0, count);
  const backs = [];
  for (let i = 0; i < Math.max(0, count - known.length); i++) backs.push(ui.cardBack({ tiny: true }));
  const rs = roundScore(view, seat);
  return h("section", { class: ["prog-seat", "prog-opponent", view.current_player === seat && !ctx.snapshot.is_over && !ctx.snapshot.round_over && "is-turn"], "aria-label": `${ui.seatName(seat)}'s stacks`, dataset: { seat: String(seat) } },
    h("header", { class: "prog-seat-head" },
      h("span", { class: "seat-name" }, ui.seatName(seat)),
      h("span", { class: "prog-opp-hand", dataset: { testid: "opponent-hand" }, role: "img",
        title: known.length ? "Face-up cards were taken from public stacks, so everyone knows them" : null,
        "aria-label": `${plural(count, "card")} in hand${known.length ? `, known to all: ${known.map(ui.cardName).join(", ")}` : ""}` },
      h("span", { class: "prog-mini-fan", "aria-hidden": "true" }, backs, known.map((c) => ui.card(c, { tiny: true }))),
      h("span", { class: "count", "aria-hidden": "true" }, String(count))),
      seatBadges(ctx, seat),
      h("span", { class: ["prog-round-score", scoreClass(rs)], title: "Score of the stacks as they stand this round" }, `this round ${signed(rs)}`)),
    privateStacks(ctx, seat, "tiny"));
}

// ----- the middle: draw pile and public stacks -------------------------------------------------

function centre(ctx) {
  const { view, ui } = ctx;
  const drawing = ctx.canAct && view.phase === "draw";
  const stock = ctx.legal.get("draw:stock");
  const pileCount = view.draw_pile ?? 0;
  const pileFace = pileCount > 0 ? ui.cardBack({ small: true, label: `Draw pile, ${pileCount} cards` })
    : h("span", { class: "card card-small card-empty", "aria-hidden": "true" });
  const pile = drawing && stock
    ? h("button", { type: "button", class: ["prog-pile", "is-drawable"], disabled: ui.busy, dataset: { action: stock.id, focus: "pile", testid: "draw-pile" },
      "aria-label": `Draw the top card of the draw pile (${pileCount} left)`, onclick: () => ui.send(stock.id) },
      pileFace, h("span", { class: "prog-pile-count" }, `${pileCount} left`), h("span", { class: "target-tag" }, "Draw"))
    : h("div", { class: "prog-pile", dataset: { testid: "draw-pile" } }, pileFace, h("span", { class: "prog-pile-count" }, `${pileCount} left`));
  const stall = view.stall_count || 0;
  const limit = view.stall_limit || 30;
  const round = view.rounds_total ? `Round ${view.round} of ${view.rounds_total}` : `Round ${view.round} \u00b7 playing to ${view.target}`;
  return h("section", { class: "prog-centre", "aria-label": "Draw pile and public stacks" },
    h("div", { class: "prog-centre-head" },
      h("h2", { class: "zone-title" }, "Public stacks"),
      h("span", { class: "prog-round", dataset: { testid: "round" } }, round),
      stall >= limit / 2 ? h("span", { class: "prog-stall", title: "The round also ends when nobody draws from the pile for this many turns in a row" },
        `${plural(limit - stall, "turn")} left without a pile draw`) : null),
    h("div", { class: "prog-centre-row" },
      pile,
      h("div", { class: "prog-stacks is-public", dataset: { testid: "public-stacks" } }, SUITS.map((suit) => publicStack(ctx, suit)))));
}

function publicStack(ctx, suit) {
  const { view, ui } = ctx;
  const cards = (view.public_stacks || {})[suit] || [];
  const top = cards.length ? cards[cards.length - 1] : null;
  const head = h("div", { class: "pstack-head" },
    h("span", { class: "pstack-line" }, suitMark(suit),
      h("span", { class: "pstack-count", dataset: { testid: "stack-count" } }, cards.length ? plural(cards.length, "card") : "empty")));
  const body = [head, fan(ctx, cards, "small")];
  const label = `Public ${SUIT_NAMES[suit]} stack${cards.length ? `, top card ${ui.cardName(top)}` : ", empty"}`;
  if (ctx.selected && suitOf(ctx.selected) === suit) {
    const action = ctx.legal.get(`public:${ctx.selected}`);
    if (action) {
      return h("button", {
        type: "button", class: ["pstack", "is-target", "is-public-target"], disabled: ui.busy,
        dataset: { action: action.id, focus: "stack:" + action.id, testid: "public-target", drop: `public:${suit}` },
        "aria-label": `Put ${ui.cardName(ctx.selected)} on the public ${SUIT_NAMES[suit]} stack`, onclick: () => ui.send(action.id),
      }, body, h("span", { class: "target-tag" }, "Put here"));
    }
  }
  if (ctx.canAct && view.phase === "draw" && top) {
    const action = ctx.legal.get(`draw:${top}`);
    if (action) {
      return h("button", {
        type: "button", class: ["pstack", "is-drawable"], disabled: ui.busy,
        dataset: { action: action.id, focus: "stack:" + action.id, testid: "public-draw" },
        "aria-label": `Take ${ui.cardName(top)} from the public ${SUIT_NAMES[suit]} stack`, onclick: () => ui.send(action.id),
      }, body, h("span", { class: "target-tag" }, "Take", h("span", { class: "tag-card" }, ` ${cardText(top)}`)));
    }
    if (justCard(view) === top) {
      return h("button", {
        type: "button", class: ["pstack", "is-locked"], dataset: { testid: "why-public", focus: "why:" + top },
        "aria-label": `${label}; you cannot take back the card you just played`, onclick: () => ui.why(`draw:${top}`),
      }, body, h("span", { class: "target-tag" }, h("span", { class: "tag-just" }, "Just "), "played"));
    }
  }
  return h("div", { class: "pstack", "aria-label": label, dataset: { drop: `public:${suit}` } }, body);
}

// ----- your side: stacks, prompt, hand --------------------------------------------------------

function yourPanel(ctx, hand) {
  const { view, ui, me } = ctx;
  const rs = roundScore(view, me);
  return h("section", { class: ["prog-seat", "prog-you", ctx.myTurn && "is-turn"], "aria-label": "Your stacks and hand" },
    h("header", { class: "prog-seat-head" },
      h("span", { class: "seat-name" }, ui.seatName(me)),
      seatBadges(ctx, me),
      h("span", { class: ["prog-round-score", scoreClass(rs)], title: "Score of your stacks as they stand this round", dataset: { testid: "my-round-score" } }, `this round ${signed(rs)}`)),
    privateStacks(ctx, me, "small"),
    h("div", { class: "prog-you-main" },
      h("div", { class: "hand prog-hand", dataset: { testid: "hand" }, "aria-label": "Your hand" }, hand.map((c) => handCard(ctx, c))),
      // After the hand: a Tab from the selected card reaches the buttons that play it.
      prompt(ctx)));
}

function handCard(ctx, cardId) {
  const { ui, view } = ctx;
  const selectable = ctx.canAct && view.phase === "play";
  const toPrivate = ctx.legal.has(`play:${cardId}`);
  const known = ((view.known_hands || [])[ctx.me] || []).includes(cardId);
  const notes = [];
  if (selectable && !toPrivate) notes.push("public stack only");
  if (known) notes.push("everyone saw you take it");
  const extraLabel = notes.join(", ") || null;
  // Out of the play phase a hand card still answers a click: the engine says why not.
  const el = ctx.canAct && !selectable ? ui.refusedCard(cardId, () => ui.why(`play:${cardId}`), { fresh: ctx.fresh === cardId, extraLabel }) : ui.card(cardId, {
    selectable,
    selected: selectable && ctx.selected === cardId,
    playable: selectable && toPrivate,
    fresh: ctx.fresh === cardId,
    extraLabel,
    onclick: (id) => (ctx.selected === id ? ui.clearSelection() : ui.setSelection([id])),
  });
  if (selectable && !toPrivate) el.classList.add("is-public-only");
  if (known) el.classList.add("is-known");
  if (!selectable) return el;
  // Dragged onto a stack of its suit (data-drop "private:H" or "public:H"): the move a tap
  // on that lit stack makes, or the engine's reason why not.
  const idFor = (key) => {
    const [where, suit] = key.split(":");
    if (suit !== suitOf(cardId)) return null;
    return where === "private" ? `play:${cardId}` : where === "public" ? `public:${cardId}` : null;
  };
  return dragSource(el, cardId, {
    accepts: (key) => { const id = idFor(key); return id ? (ctx.legal.has(id) ? "legal" : "refused") : null; },
    drop: (key) => { const id = idFor(key); if (ctx.legal.has(id)) ui.send(id); else ui.why(id); },
  });
}

function stepPill(n, text, state) {
  return h("li", { class: ["prog-step", state && `is-${state}`] }, h("span", { class: "prog-step-n" }, String(n)), text);
}

function prompt(ctx) {
  const { view, ui, snapshot } = ctx;
  if (snapshot.is_over) return h("div", { class: "prog-prompt" }, h("p", { class: "controls-note" }, "The match is over."));
  const playing = view.phase === "play";
  const steps = h("ol", { class: "prog-steps", "aria-label": "Your turn has two steps" },
    stepPill(1, "Play a card", ctx.myTurn ? (playing ? "now" : "done") : null),
    stepPill(2, "Draw a card", ctx.myTurn && !playing ? "now" : null));
  if (!ctx.myTurn) {
    const who = ui.seatName(view.current_player);
    const doing = view.phase === "draw" ? "drawing" : "playing";
    return h("div", { class: "prog-prompt is-waiting", dataset: { testid: "controls" } }, steps,
      h("p", { class: "controls-note" }, `Waiting for ${who} (${doing})\u2026`));
  }
  const buttons = [];
  let note;
  if (playing) {
    const sel = ctx.selected;
    if (sel) {
      const suitSym = SUIT_SYMBOLS[suitOf(sel)];
      const toPrivate = ctx.legal.get(`play:${sel}`);
      const toPublic = ctx.legal.get(`public:${sel}`);
      note = `Where does ${cardText(sel)} go? Click a highlighted stack or a button.`;
      if (toPrivate) buttons.push(ui.actionButton(toPrivate, `To your ${suitSym} stack`, { class: "primary confirm-play", focusPrefix: "confirm:" }));
      else {
        buttons.push(ui.button(`To your ${suitSym} stack`, {
          class: "confirm-play is-illegal", dataset: { testid: "why-play", focus: "why-play" }, onclick: () => ui.why(`play:${sel}`),
        }));
      }
      if (toPublic) buttons.push(ui.actionButton(toPublic, `To the public ${suitSym} stack`, { class: "confirm-public", focusPrefix: "confirm:" }));
      buttons.push(ui.button("Cancel", { class: "quiet-dark", dataset: { testid: "clear-selection", focus: "clear" }, onclick: ui.clearSelection }));
    } else {
      note = "Step 1: choose a card from your hand, then play it to your own stack of its suit (it must be at least as high as what is there) or onto the public stack.";
    }
  } else {
    const played = view.just_played;
    const what = played ? `${played.to === "private" ? "You played" : "You put"} ${cardText(played.card)} ${played.to === "private" ? "to your stack" : "on the public stack"}. ` : "";
    note = `${what}Step 2: draw from the pile, or take a public stack's top card.`;
    const stock = ctx.legal.get("draw:stock");
    if (stock) buttons.push(ui.actionButton(stock, `Draw from the pile (${view.draw_pile} left)`, { class: "primary", focusPrefix: "confirm:" }));
    for (const a of ui.legal) {
      if (a.id.startsWith("draw:") && a.id !== "draw:stock") buttons.push(ui.actionButton(a, `Take ${cardText(a.id.slice(5))}`, { focusPrefix: "confirm:" }));
    }
  }
  return h("div", { class: "prog-prompt", dataset: { testid: "controls" } }, steps,
    h("p", { class: "controls-note", "aria-live": "polite" }, note),
    buttons.length ? h("div", { class: "controls-buttons" }, buttons) : null);
}

// ----- the match table ---------------------------------------------------------------------------

function roundsTable(view, seatName, opts = {}) {
  const players = view.players || 0;
  const seats = [...Array(players).keys()];
  const history = view.round_history || [];
  const totals = view.scores || [];
  const live = opts.live && !view.winners?.length && view.phase !== "over";
  const rows = history.map((scores, i) => h("tr", {},
    h("th", { scope: "row" }, String(i + 1)),
    seats.map((p) => h("td", { class: scoreClass(scores[p]) }, signed(scores[p])))));
  if (live) {
    rows.push(h("tr", { class: "is-live" },
      h("th", { scope: "row", title: "The current round, as the stacks stand" }, `${view.round} (now)`),
      seats.map((p) => h("td", { class: scoreClass(roundScore(view, p)) }, signed(roundScore(view, p))))));
  }
  const best = Math.max(...seats.map((p) => totals[p] ?? 0));
  return h("table", { class: "prog-rounds-table", dataset: { testid: "rounds-table" } },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Round"), seats.map((p) => h("th", { scope: "col" }, seatName(p))))),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: players + 1, class: "is-empty" }, "No round finished yet"))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, "Total"),
      seats.map((p) => h("td", { class: history.length && (totals[p] ?? 0) === best ? "is-best" : null }, plain(totals[p] ?? 0))))));
}

function roundsPanel(ctx) {
  const { view, ui } = ctx;
  const length = view.rounds_total ? `${view.rounds_total} rounds` : `first to ${view.target}`;
  return h("section", { class: "prog-match", "aria-label": "Scores round by round" },
    h("h2", { class: "zone-title" }, `The match (${length})`),
    roundsTable(view, ui.seatName, { live: true }),
    h("p", { class: "prog-hint" }, "Over each player's stack: its value (number cards count their number, A J Q K count 0), "
      + "its multiplier (one more than its face cards) and, below, what it scores now: the value above 12 times the multiplier, "
      + "or a penalty if it holds only face cards. Over a public stack: how many cards it holds."));
}

/** Each seat's four stacks at the end of a round: score, with value and multiplier beneath. */
function stacksTable(last, seatName) {
  const seats = (last.scores || []).map((_, p) => p);
  return h("table", { class: "prog-summary-table", dataset: { testid: "round-stacks" } },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, h("span", { class: "prog-sr" }, "Player")),
      SUITS.map((s) => h("th", { scope: "col", "aria-label": SUIT_NAMES[s] }, suitMark(s))),
      h("th", { scope: "col" }, "Round"))),
    h("tbody", {}, seats.map((p) => h("tr", { class: (last.winners || []).includes(p) ? "is-winner" : null },
      h("th", { scope: "row" }, seatName(p)),
      SUITS.map((s) => {
        const score = last.stack_scores[p][s];
        const cards = (last.stacks[p] || {})[s] || [];
        const value = ((last.stack_values || [])[p] || {})[s] ?? 0;
        const faces = ((last.stack_faces || [])[p] || {})[s] ?? 0;
        return h("td", { class: scoreClass(score), title: cards.map(cardText).join(" ") || "empty" },
          h("span", { class: "sum-score" }, cards.length ? signed(score) : "\u2013"),
          cards.length ? h("span", { class: "sum-detail" }, `value ${value}${faces ? ` \u00d7${faces + 1}` : ""}`) : null,
          cards.length ? h("span", { class: "sum-cards", dataset: { testid: "round-stack-cards" } }, cards.map((c) => cardElement(c, { tiny: true }))) : null);
      }),
      h("td", { class: ["sum-total", scoreClass(last.scores[p])] }, signed(last.scores[p]))))));
}

function summaryBlock(view, last, seatName) {
  return h("div", { class: "prog-summary" },
    h("p", { class: "prog-summary-note" }, last.reason === "stall"
      ? `${view.stall_limit || 30} turns went by without a draw from the pile, so the round ended.`
      : "The last card of the draw pile was drawn, so the round ended."),
    stacksTable(last, seatName),
    h("p", { class: "prog-summary-legend" }, "Each stack: its score, and below it the stack's value and multiplier."),
    h("h3", { class: "prog-summary-title" }, "Round by round"),
    roundsTable(view, seatName));
}

function roundTitle(last, seatName, total) {
  const of = total ? ` of ${total}` : "";
  const winners = last.winners || [];
  if (winners.length === 1) {
    const name = seatName(winners[0]);
    return name === "You" ? `You win round ${last.round}${of}` : `${name} wins round ${last.round}${of}`;
  }
  return `Round ${last.round}${of}: ${winners.map(seatName).join(" and ")} tie`;
}

/** The round-over dialog: why it ended, every stack's score and the match so far. */
export function roundSummary(prev, snapshot, seatName) {
  const view = snapshot.view || {};
  const last = view.last_round;
  if (!last) return null;
  return { title: roundTitle(last, seatName, view.rounds_total), lines: [], detail: summaryBlock(view, last, seatName) };
}

/** Extra content for the match-over dialog: the last round's stacks and every round. */
export function matchSummary(snapshot, seatName) {
  const view = snapshot.view || {};
  const last = view.last_round;
  if (!last) return null;
  return h("div", { class: "prog-final" },
    h("h3", { class: "prog-summary-title" }, `Last round (${last.round})`),
    summaryBlock(view, last, seatName));
}

/** The message line after a move, e.g. "West puts 7♥ on the public stack". */
export function describeMove(move, snapshot, seatName) {
  const who = seatName(move.player);
  const you = who === "You";
  const [kind, arg] = String(move.id).split(":");
  if (kind === "play") return `${verb(who, "play")} ${cardText(arg)} to ${you ? "your" : "their"} own stack`;
  if (kind === "public") return `${verb(who, "put")} ${cardText(arg)} on the public stack`;
  if (kind === "draw" && arg === "stock") return `${verb(who, "draw")} from the draw pile`;
  if (kind === "draw") return `${verb(who, "take")} ${cardText(arg)} from the public stack`;
  return `${who}: ${move.label}`;
}

// The Spite and Malice table: the opponent's pay-off pile, hand and four discard piles on
// top; the stock and the centre stacks (with the rank each shows) in the middle; your pay-off
// pile, discard piles and hand below, with the turn's controls.
// View keys and action ids: engine/games/spite/state.py (module docstring). Action ids:
// "build:<card>:<n>" / "build:<card>:new" (centre stack n, or a new one), "discard:<card>:<p>"
// (ends the turn), "end". Nothing here decides a rule: a target lights up only when the
// engine lists the action, and any other target asks the engine why not.
//
// Building works two ways: click a source card (upcard, a discard-pile top or a hand card),
// then a lit target; or drag the source card onto a target (ui/drag.js).
import { h } from "../ui/dom.js";
import { inSentence } from "../read-snapshot.js";
import { RANKS, cardName, cardText, isJoker, plural, rankName, rankOf } from "../ui/cards.js";
import { dragSource } from "../ui/drag.js";

const RANK_SHORT = ["", ...RANKS];
const RANK_WORD = RANK_SHORT.map(rankName);
const KING = 13;
const FAN_SHOWN = 3;          // a discard pile shows at most this many cards (their whole index)
const FAN_SHOWN_OPPONENT = 2; // the opponent's, which share the top of the table with the centre
const FAN_TIGHT = 6;          // longer piles are fanned tighter

/** The action id that putting `card` on the target `key` ("stack:3", "stack:new", "pile:2") would be. */
function actionFor(card, key) {
  const [zone, where] = String(key).split(":");
  if (zone === "stack") return `build:${card}:${where}`;
  if (zone === "pile") return `discard:${card}:${where}`;
  return null;
}

/**
 * The legal actions plus the same moves made with the other hand cards of each rank: the
 * engine lists one card of a rank (suits do not matter, nor which joker) and takes any
 * copy as that move, so a person plays the very card they picked.
 */
function withCopies(actions, hand) {
  const out = [...actions];
  for (const a of actions) {
    const card = a.cards && a.cards[0];
    if (!card || !hand.includes(card) || (a.kind !== "build" && a.kind !== "discard")) continue;
    const [, , where] = a.id.split(":");
    for (const other of hand) {
      if (other === card || rankOf(other) !== rankOf(card)) continue;
      out.push({ ...a, id: `${a.kind}:${other}:${where}`, cards: [other], label: a.label.replace(cardName(card), cardName(other)) });
    }
  }
  return out;
}

export function render(root, snapshot, ui) {
  const view = snapshot.view || {};
  const me = view.you ?? snapshot.viewer ?? 0;
  const opp = 1 - me;
  const myTurn = Boolean(snapshot.human_turn) && view.current_player === me && !snapshot.is_over;
  const canAct = myTurn && !ui.busy;
  const hand = Array.isArray(view.hand) ? view.hand : [];
  const legal = new Map(withCopies(ui.legal, hand).map((a) => [a.id, a]));
  const myPiles = (view.discard_piles || [])[me] || [[], [], [], []];
  const upcard = (view.upcards || [])[me] || null;
  // Every card this seat may move from, and whether the engine lists a move for it.
  const sources = new Map();
  if (upcard) sources.set(upcard, "upcard");
  myPiles.forEach((pile, i) => { if (pile.length) sources.set(pile[pile.length - 1], `pile ${i + 1}`); });
  for (const c of hand) sources.set(c, "hand");
  const movable = new Set([...legal.values()].filter((a) => a.cards && a.cards.length).map((a) => a.cards[0]));
  const chosen = canAct ? [...ui.selection].find((c) => sources.has(c)) || null : null;
  const ctx = { ui, snapshot, view, me, opp, myTurn, canAct, legal, sources, movable, selected: chosen, fresh: freshCard(ui) };

  root.append(h("div", { class: "spite", dataset: { testid: "spite" } },
    opponentZone(ctx),
    centreZone(ctx),
    myZone(ctx, hand)));
}

/** The card the latest move put on the table, to animate it in. */
function freshCard(ui) {
  if (!ui.fresh || !ui.lastMove) return null;
  const [kind, card] = String(ui.lastMove.id).split(":");
  return kind === "build" || kind === "discard" ? card : null;
}

function tableCard(ctx, cardId, opts = {}) {
  return ctx.ui.card(cardId, { ...opts, fresh: ctx.fresh === cardId });
}

// ----- sources: cards you may move, by click or by drag -----------------------------------

function sourceCard(ctx, cardId, opts = {}) {
  const { ui } = ctx;
  if (!ctx.canAct) return tableCard(ctx, cardId, opts);
  const selected = ctx.selected === cardId;
  const playable = ctx.movable.has(cardId);
  const el = tableCard(ctx, cardId, {
    ...opts, selectable: true, selected, playable: playable && !selected,
    extraLabel: [opts.extraLabel, playable ? null : "no move for it now"].filter(Boolean).join(", ") || null,
    onclick: () => {
      if (selected) ui.clearSelection(); else ui.setSelection([cardId]);
    },
  });
  el.classList.add("spite-source");
  return dragSource(el, cardId, {
    accepts: (key) => {
      const id = actionFor(cardId, key);
      return id ? (ctx.legal.has(id) ? "legal" : "refused") : null;
    },
    drop: (key) => {
      const id = actionFor(cardId, key);
      if (ctx.legal.has(id)) ui.send(id); else ui.why(id);
    },
  });
}

/** A hand card is selected: your discard piles are targets, so their tops are not sources. */
function handSelected(ctx) {
  return Boolean(ctx.selected) && ctx.sources.get(ctx.selected) === "hand";
}

// ----- targets: centre stacks, the new-stack slot, your discard piles ------------------------

/**
 * A place a card can go. With a card selected it is a button: a legal target carries the
 * action's data-action, any other asks the engine why not. data-target names it for dragging.
 */
function target(ctx, key, attrs, body, words) {
  const { ui, selected } = ctx;
  const id = selected ? actionFor(selected, key) : null;
  const applies = id && !(key.startsWith("pile:") && !handSelected(ctx));
  const classes = [attrs.class].flat();
  const base = { ...attrs, class: classes, dataset: { ...(attrs.dataset || {}), target: key, drop: key } };
  if (!applies) return h("div", base, body);
  const action = ctx.legal.get(id);
  if (action) {
    return h("button", {
      ...base, type: "button", class: [...classes, "spite-target", "is-legal"], disabled: ui.busy,
      dataset: { ...base.dataset, action: action.id, focus: "target:" + key }, "aria-label": action.label,
      onclick: () => ui.send(action.id),
    }, body, h("span", { class: "spite-tag" }, words.legal));
  }
  return h("button", {
    ...base, type: "button", class: [...classes, "spite-target", "is-blocked"],
    dataset: { ...base.dataset, why: "true", focus: "why:" + key },
    "aria-label": `Why can't ${ui.cardName(selected)} go ${words.where}?`,
    onclick: () => ui.why(id),
  }, body);
}

// ----- the opponent ----------------------------------------------------------------------

function opponentZone(ctx) {
  const { ui, view, opp, snapshot } = ctx;
  const count = (view.hand_counts || [])[opp] || 0;
  const backs = [];
  for (let i = 0; i < count; i++) backs.push(ui.cardBack({ tiny: true }));
  const thinking = snapshot.bot_turn && ui.thinking === opp;
  return h("section", { class: ["spite-zone", "spite-opponent", view.current_player === opp && !snapshot.is_over && !snapshot.round_over && "is-turn"],
    dataset: { testid: "opponent", seat: String(opp) }, "aria-label": `${ui.seatName(opp)}'s side` },
  h("header", { class: "spite-head" },
    h("span", { class: "seat-name" }, ui.seatName(opp)),
    h("span", { class: "spite-opp-hand", "aria-label": `${plural(count, "card")} in hand` },
      h("span", { class: "spite-mini-fan", "aria-hidden": "true" }, backs),
      h("span", { class: "count" }, plural(count, "card"))),
    view.current_player === opp && !snapshot.is_over && !snapshot.round_over
      ? h("span", { class: ["turn-badge", thinking && "is-thinking"], dataset: thinking ? { testid: "seat-thinking" } : {} }, thinking ? "thinking\u2026" : "to play") : null),
  h("div", { class: "spite-row" },
    payoffPile(ctx, opp, "small"),
    discardPiles(ctx, opp, "small")),
  lastTurnLine(ctx));
}

function lastTurnLine(ctx) {
  const { ui, view, opp } = ctx;
  const last = view.last_turn;
  if (!last || last.player !== opp) return null;
  const who = ui.seatName(opp);
  const parts = [];
  if (last.played && last.played.length) parts.push(`played ${last.played.map(cardText).join(" ")}`);
  if (last.discarded) parts.push(`discarded ${cardText(last.discarded)} on pile ${last.pile + 1}`);
  const text = parts.length ? parts.join(", then ") : "moved no card";
  return h("p", { class: "spite-note", dataset: { testid: "last-turn" } }, `Last turn ${who} ${text}.`);
}

// ----- pay-off piles and discard piles --------------------------------------------------

function payoffPile(ctx, seat, size) {
  const { ui, view } = ctx;
  const mine = seat === ctx.me;
  const count = (view.payoff_counts || [])[seat] || 0;
  const upcard = (view.upcards || [])[seat];
  const depth = count > 12 ? "is-deep" : count > 4 ? "is-mid" : count > 1 ? "is-shallow" : null;
  const opts = { [size]: size !== "normal", extraLabel: `upcard of ${mine ? "your" : ui.seatName(seat) + "'s"} pay-off pile` };
  let card;
  if (!upcard) card = h("span", { class: ["card", size !== "normal" && `card-${size}`, "card-empty"], "aria-hidden": "true" });
  else if (mine) card = sourceCard(ctx, upcard, opts);
  else card = tableCard(ctx, upcard, opts);
  if (mine && upcard) card.dataset.testid = "upcard";
  return h("figure", { class: ["spite-payoff", depth], dataset: { testid: mine ? "my-payoff" : "opp-payoff" } },
    h("div", { class: "spite-payoff-stack" }, card),
    h("figcaption", {}, h("span", { class: "spite-cap-main" }, "Pay-off"),
      h("strong", { class: "spite-count", dataset: { testid: "payoff-count" }, "aria-label": `${plural(count, "card")} left` }, String(count))));
}

function discardPiles(ctx, seat, size) {
  const { view } = ctx;
  const mine = seat === ctx.me;
  const piles = (view.discard_piles || [])[seat] || [[], [], [], []];
  const ranks = (view.discard_ranks || [])[seat] || [];
  return h("div", { class: ["spite-piles", `is-${size}`], dataset: { testid: mine ? "my-piles" : "opp-piles" }, role: "group",
    "aria-label": mine ? "Your discard piles" : `${ctx.ui.seatName(seat)}'s discard piles` },
  piles.map((pile, i) => {
    const body = [pileFan(ctx, pile, mine, size), pileCaption(pile, ranks[i], i)];
    if (!mine) return h("div", { class: "spite-pile" }, body);
    return target(ctx, `pile:${i}`, { class: "spite-pile" }, body,
      { legal: "Discard", where: `on your discard pile ${i + 1}` });
  }));
}

function pileCaption(pile, rank, index) {
  const accepts = pile.length && rank ? `takes ${RANK_SHORT[rank]} or lower` : "takes any card";
  return h("span", { class: "spite-cap", title: `Pile ${index + 1}: ${pile.length ? accepts : "empty, " + accepts}` },
    h("span", { class: "spite-cap-main" }, `Pile ${index + 1}`),
    h("span", { class: "spite-cap-sub" }, !pile.length ? "empty" : rank ? `\u2264\u202f${RANK_SHORT[rank]}` : "any"));
}

function pileFan(ctx, pile, mine, size) {
  const shown = pile.slice(-(mine ? FAN_SHOWN : FAN_SHOWN_OPPONENT));
  const hiddenCount = pile.length - shown.length;
  const cls = ["spite-fan", pile.length > FAN_TIGHT && "is-tight"];
  if (!pile.length) return h("div", { class: cls }, h("span", { class: ["card", size !== "normal" && `card-${size}`, "card-empty"], "aria-hidden": "true" }));
  return h("div", { class: cls },
    hiddenCount ? h("span", { class: "spite-more" }, `+${hiddenCount}`) : null,
    shown.map((c, i) => {
      const top = i === shown.length - 1;
      const opts = { [size]: size !== "normal", extraLabel: top ? "top of the pile" : null };
      const el = top && mine && !handSelected(ctx) ? sourceCard(ctx, c, opts) : tableCard(ctx, c, opts);
      if (isJoker(c)) el.append(h("span", { class: "spite-joker-as", "aria-hidden": "true" }, jokerPileRank(pile, pile.length - shown.length + i)));
      return el;
    }));
}

/** What a joker on a discard pile counts as: the real card beneath it ("any" at the bottom). */
function jokerPileRank(pile, index) {
  for (let k = index - 1; k >= 0; k--) {
    if (!isJoker(pile[k])) return `=${rankOf(pile[k])}`;
  }
  return "any";
}

// ----- the centre --------------------------------------------------------------------------

function centreZone(ctx) {
  const { ui, view } = ctx;
  const stacks = view.centre || [];
  const ranks = view.stack_ranks || stacks.map((s) => s.length);
  const max = view.max_stacks || 8;
  const stock = view.stock_count || 0;
  return h("section", { class: ["spite-zone", "spite-centre"], dataset: { testid: "centre" }, "aria-label": "Centre stacks and stock" },
    h("div", { class: "spite-centre-row" },
      h("figure", { class: "spite-stock", dataset: { testid: "stock" } },
        stock ? ui.cardBack({ small: true, label: `Stock, ${plural(stock, "card")}` }) : h("span", { class: "card card-small card-empty", "aria-hidden": "true" }),
        h("figcaption", {}, h("span", { class: "spite-cap-main" }, "Stock"), h("strong", { class: "spite-count" }, String(stock)))),
      // The stacks go back into the stock when it is rebuilt (a card's travel there: ui/motion.js).
      h("div", { class: "spite-stacks", role: "group", "aria-label": `Centre stacks: ${stacks.length} of ${max}`,
        dataset: { leavesTo: "stock", cleared: String(view.stock_rebuilds || 0) } },
        stacks.map((stack, i) => centreStack(ctx, stack, ranks[i] ?? stack.length, i)),
        stacks.length < max ? newStackSlot(ctx) : null)),
    centreNote(ctx, stacks.length, max));
}

function centreStack(ctx, stack, rank, index) {
  const top = stack[stack.length - 1];
  const complete = rank >= KING;
  const topEl = tableCard(ctx, top, { small: true, extraLabel: isJoker(top) ? `standing for ${RANK_WORD[rank]}` : null });
  if (isJoker(top)) topEl.append(h("span", { class: "spite-joker-as", "aria-hidden": "true" }, `=${RANK_SHORT[rank]}`));
  const depth = stack.length > 8 ? "is-deep" : stack.length > 3 ? "is-mid" : stack.length > 1 ? "is-shallow" : null;
  const spoken = `Stack ${index + 1}: ${complete ? "complete up to the King" : `up to ${RANK_WORD[rank]}, needs ${RANK_WORD[rank + 1] === "Ace" ? "an Ace" : `a ${RANK_WORD[rank + 1]}`}`}`;
  const body = [
    h("span", { class: "spite-stack-no", "aria-hidden": "true" }, String(index + 1)),
    h("span", { class: ["spite-stack-cards", depth] }, topEl),
    h("span", { class: "spite-cap", title: spoken },
      h("span", { class: "spite-cap-main" }, rank > 1 ? `A\u2013${RANK_SHORT[rank]}` : "A"),
      h("span", { class: "spite-cap-sub" }, complete ? "complete" : `next ${RANK_SHORT[rank + 1]}`)),
  ];
  return target(ctx, `stack:${index}`, { class: ["spite-stack", complete && "is-complete"],
    dataset: { testid: "stack", rank: String(rank) }, title: spoken }, body,
  { legal: "Build", where: `on stack ${index + 1}` });
}

function newStackSlot(ctx) {
  const body = [
    h("span", { class: "card card-small card-empty spite-new-card", "aria-hidden": "true" }, h("span", { class: "spite-new-plus" }, "+")),
    h("span", { class: "spite-cap" }, h("span", { class: "spite-cap-main" }, "New"), h("span", { class: "spite-cap-sub" }, "Ace starts")),
  ];
  return target(ctx, "stack:new", { class: ["spite-stack", "spite-new"], dataset: { testid: "new-stack" },
    "aria-label": "Start a new centre stack" }, body, { legal: "Start", where: "on a new stack" });
}

function centreNote(ctx, count, max) {
  const { view } = ctx;
  const bits = [`${count} of ${max} stacks`];
  if (view.target) bits.push(`game ${view.round} \u00b7 first to ${view.target} points`);
  if (view.stall_turns > 0 && !ctx.snapshot.is_over) bits.push("last turn was frozen (no centre play was possible): another frozen turn draws the game");
  return h("p", { class: "spite-note" }, bits.join(" \u00b7 "));
}

// ----- your side ---------------------------------------------------------------------------

function myZone(ctx, hand) {
  const { ui, view, me, snapshot } = ctx;
  return h("section", { class: ["spite-zone", "spite-you", view.current_player === me && !snapshot.is_over && !snapshot.round_over && "is-turn"],
    "aria-label": "Your side" },
  h("header", { class: "spite-head" },
    h("span", { class: "seat-name" }, ui.seatName(me)),
    view.current_player === me && !snapshot.is_over && !snapshot.round_over ? h("span", { class: "turn-badge" }, "your turn") : null),
  h("div", { class: "spite-mine" },
    h("div", { class: "spite-row" },
      payoffPile(ctx, me, "normal"),
      discardPiles(ctx, me, "normal")),
    // The turn's words and buttons under the hand, beside the piles where there is room.
    h("div", { class: "spite-hand-box" },
      h("h2", { class: "zone-title" }, `Your hand (${hand.length})`),
      h("div", { class: "hand spite-hand", dataset: { testid: "hand" } },
        hand.map((c) => sourceCard(ctx, c))),
      // After the hand: a Tab from the selected card reaches the buttons that play it.
      controls(ctx))));
}

function controls(ctx) {
  const { ui, view, selected, canAct, snapshot } = ctx;
  if (!ctx.myTurn) {
    const text = snapshot.is_over ? "The match is over." : `Waiting for ${ui.seatName(view.current_player)}\u2026`;
    return h("div", { class: "spite-controls", dataset: { testid: "controls" } }, h("p", { class: "controls-note" }, text));
  }
  const end = ctx.legal.get("end");
  const played = (view.played_this_turn || []).length;
  let note;
  if (selected) {
    const where = ctx.sources.get(selected);
    const lit = [...ctx.legal.values()].filter((a) => a.cards && a.cards[0] === selected);
    const name = cardText(selected);
    if (!lit.length) note = `${name} has no move now: pick another card.`;
    else if (where === "hand") note = `Put ${name} on a lit stack to build, or on a discard pile to end your turn.`;
    else note = `Put ${name} on a lit centre stack.`;
  } else if (view.must_play_ace) {
    note = "An Ace is showing on your pay-off pile or a discard pile: play it to the centre first.";
  } else {
    note = played ? `${plural(played, "card")} built this turn. Build more, or discard a hand card to end your turn.`
      : "Pick a card (your upcard, a discard-pile top or a hand card), then where it goes \u2014 or drag it there. Discarding ends your turn.";
  }
  // Where the turn stands: building while any build is open, else discarding (or ending).
  const building = canBuild(ui.legal);
  return h("div", { class: "spite-controls", dataset: { testid: "controls" } },
    h("ol", { class: "spite-steps", "aria-label": "Turn steps" },
      h("li", { class: ["spite-step", building && "is-now"], "aria-current": building ? "step" : false }, "Build on the centre stacks"),
      h("li", { class: ["spite-step", !building && "is-now"], "aria-current": building ? false : "step" }, "Discard a card to end the turn")),
    h("p", { class: "controls-note", "aria-live": "polite" }, note),
    h("div", { class: "controls-buttons" },
      selected ? ui.button("Clear", { class: "quiet-dark", dataset: { testid: "clear-selection", focus: "clear" }, onclick: ui.clearSelection }) : null,
      end ? endControl(ui, end, building)
        : canAct ? ui.button("End turn", { class: "pass-button is-illegal", dataset: { testid: "why-end", focus: "why-end" }, onclick: () => ui.why("end") }) : null));
}

const END_WITH_A_BUILD_LEFT = "You can still build on the centre. End the turn anyway?";

const canBuild = (legal) => legal.some((a) => a.kind === "build");

/** The side panel asks the same before a turn is ended with a build still open. */
export function confirm(action, snapshot) {
  return action.id === "end" && canBuild(snapshot.legal || []) ? END_WITH_A_BUILD_LEFT : null;
}

/**
 * Ending the turn without discarding. While a build is still open it is a small fold that
 * asks to be opened and confirmed, so the turn is never given away by one stray click.
 */
function endControl(ui, end, building) {
  if (!building) return ui.actionButton(end, "End turn without discarding", { class: "pass-button", focusPrefix: "controls:" });
  return h("details", { class: "spite-end", dataset: { testid: "end-turn" } },
    h("summary", { class: "quiet-dark", dataset: { focus: "end-open" } }, "End turn without discarding…"),
    h("p", { class: "controls-note" }, END_WITH_A_BUILD_LEFT),
    ui.actionButton(end, "Yes, end my turn", { class: "pass-button", focusPrefix: "controls:" }));
}

// ----- words for the frame: moves, games, the match ----------------------------------------

const THIRD_PERSON = { Play: "plays", Start: "starts", Discard: "discards" };

/** "West plays upcard 7 of hearts on stack 2", from the engine's own label. */
export function describeMove(move, snapshot, seatName) {
  const who = seatName(move.player);
  const you = who === "You";
  if (move.id === "end") return `${who} ${you ? "end your" : "ends the"} turn without discarding`;
  const label = String(move.label || move.id);
  const [verb, ...rest] = label.split(" ");
  const said = THIRD_PERSON[verb] ? `${you ? verb.toLowerCase() : THIRD_PERSON[verb]} ${rest.join(" ")}` : label;
  const ends = String(move.id).startsWith("discard:") ? (you ? ", ending your turn" : ", ending the turn") : "";
  return `${who} ${said}${ends}`;
}

function gameLine(game, seatName) {
  if (game.winner === null || game.winner === undefined) {
    const why = game.reason === "drought" ? "no pay-off card was played for 200 turns" : "two frozen turns in a row: neither player could play to the centre";
    return `Game ${game.round}: drawn (${why}).`;
  }
  const winner = seatName(game.winner);
  const loser = seatName(1 - game.winner);
  const left = (game.payoff_left || [])[1 - game.winner] ?? 0;
  const points = (game.points || [])[game.winner] ?? left;
  return `Game ${game.round}: ${winner} emptied ${winner === "You" ? "your" : "their"} pay-off pile first; `
    + `${inSentence(loser)} still had ${plural(left, "card")}, so ${inSentence(winner)} ${winner === "You" ? "score" : "scores"} ${plural(points, "point")}.`;
}

/** The round-over dialog between games of a match to N points. */
export function roundSummary(prev, snapshot, seatName) {
  const view = snapshot.view || {};
  const last = view.last_round;
  if (!last) return null;
  const winner = last.winner === null || last.winner === undefined ? null : seatName(last.winner);
  const scores = snapshot.result.scores || [];
  return {
    title: winner === null ? `Game ${last.round} is a draw` : winner === "You" ? `You win game ${last.round}!` : `${winner} wins game ${last.round}`,
    lines: [gameLine(last, seatName), `First to ${view.target} points wins the match: ${seatName(0)} ${scores[0]}, ${seatName(1)} ${scores[1]}.`],
  };
}

/** Extra lines for the match-over dialog: how each game went. */
export function matchSummary(snapshot, seatName) {
  const games = (snapshot.result && snapshot.result.rounds) || [];
  if (!games.length) return null;
  return h("ul", { class: "spite-games", dataset: { testid: "games" } }, games.map((g) => h("li", {}, gameLine(g, seatName))));
}

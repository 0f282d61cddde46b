// Cards that travel. The table is rebuilt from the snapshot at every render, so a card that
// moved (hand -> stack, seat -> trick, pile -> hand) would only appear where it lands. Before
// a render the page notes where every card was (by card id); after it, each card that is now
// somewhere else is drawn sliding from its old place to its new one (FLIP: first, last,
// invert, play). A card that was hidden before (an opponent's hand, the draw pile) starts
// from the seat that played it or from the pile.
//
// A place the table clears (Spite and Malice's centre stacks, which go back into the stock)
// says where its cards go and how many times it has been cleared: data-leaves-to (the testid
// of the place they go to) and data-cleared (a count). When the count has changed since the
// last render, each card it showed travels, as a copy of itself, to that place and is gone.
//
// While a card travels it carries data-moving="true" (the tests watch for it); speed 0 (the
// "Instant" setting) and a reduced-motion preference turn the travelling off. This module
// asks the preference itself, so that no travel of any kind (a move, a deal, a cleared place)
// starts while it is set whatever duration it is given, a deal under way stops, and a
// preference set while cards are in flight puts them where they land at once. The page waits
// for the cards to land (`landed`) before it says it is the person's turn, so nothing in
// flight covers a card or a label the person reads then.

const TRAVEL_MS = 380;
const MIN_DISTANCE = 24;   // pixels: a selected card's lift or a hover is not a move
// Where a card that was hidden comes from when its mover has no seat on the table.
const PILES = ["[data-testid=draw-pile]", "[data-testid=stock]", "[data-testid=face-up]", "[data-testid=draw]"];

// Asked each time: the preference can change while the page is open.
const reduceQuery = typeof window.matchMedia === "function" ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

/** Whether the person asked for reduced motion (their system's or browser's setting). */
export function prefersReducedMotion() {
  return Boolean(reduceQuery && reduceQuery.matches);
}

function pageRect(el) {
  const r = el.getBoundingClientRect();
  return { left: r.left + window.scrollX, top: r.top + window.scrollY, width: r.width, height: r.height };
}

function visible(rect) {
  return rect.width > 0 && rect.height > 0;
}

/** Where the table's cards, seats and piles are now: {cards: Map(id -> rect), seats, piles}. */
export function notePlaces(root) {
  const cards = new Map();
  for (const el of root.querySelectorAll(".game-root [data-card]")) {
    const id = el.dataset.card;
    if (cards.has(id)) continue;
    const rect = pageRect(el);
    if (visible(rect)) cards.set(id, rect);
  }
  const seats = new Map();
  for (const el of root.querySelectorAll(".game-root [data-seat]")) {
    const rect = pageRect(el);
    if (visible(rect) && !seats.has(el.dataset.seat)) seats.set(el.dataset.seat, rect);
  }
  let pile = null;
  for (const selector of PILES) {
    const el = root.querySelector(`.game-root ${selector}`);
    if (el) { const rect = pageRect(el); if (visible(rect)) { pile = rect; break; } }
  }
  // The places the table may clear: their count and a copy of each card they show, where it is
  // (a copy taken now: the render that follows may change the very element in place).
  const clearing = new Map();
  for (const place of root.querySelectorAll(".game-root [data-leaves-to]")) {
    const shown = [...place.querySelectorAll("[data-card]")].map((el) => ({ el, rect: pageRect(el) })).filter((c) => visible(c.rect))
      .map((c) => ({ el: c.el.cloneNode(true), rect: c.rect }));
    clearing.set(place.dataset.leavesTo, { cleared: place.dataset.cleared, cards: shown });
  }
  return { cards, seats, pile, clearing };
}

/** The cards of the places `before` saw that have been cleared since: each one's copy travels
 * from where it was to the place its cards go, and is removed when it gets there. */
function playCleared(root, before, duration) {
  let count = 0;
  for (const [to, was] of before.clearing || []) {
    const place = root.querySelector(`.game-root [data-leaves-to="${CSS.escape(to)}"]`);
    const target = root.querySelector(`.game-root [data-testid="${CSS.escape(to)}"]`);
    if (!target || (place && place.dataset.cleared === was.cleared)) continue;
    const end = pageRect(target);
    for (const { el, rect } of was.cards) {
      if (root.querySelector(`.game-root [data-card="${CSS.escape(el.dataset.card)}"]`)) continue;
      const ghost = el.cloneNode(true);
      ghost.classList.add("card-leaving");
      ghost.setAttribute("aria-hidden", "true");
      ghost.removeAttribute("data-action");
      Object.assign(ghost.style, {
        position: "absolute", left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`,
        height: `${rect.height}px`, margin: "0", pointerEvents: "none", zIndex: "30",
      });
      ghost.style.setProperty("--w", `${rect.width}px`);
      root.append(ghost);
      const dx = end.left + end.width / 2 - (rect.left + rect.width / 2);
      const dy = end.top + end.height / 2 - (rect.top + rect.height / 2);
      travel(ghost, 0, 0, 1, duration, 0, 0, { dx, dy, scale: end.width / rect.width, leave: true });
      count += 1;
    }
  }
  return count;
}

/**
 * Slide the cards of `root` from where `before` (notePlaces) saw them. `move` is the latest
 * move ({player, cards}) when this render shows it for the first time: its cards that were
 * hidden come from the mover's seat, or from the pile. `duration` 0 draws them in place.
 */
export function playMoves(root, before, move, duration, skip = null) {
  if (!before || !(duration > 0) || prefersReducedMotion()) return 0;
  const moved = new Set(move ? move.cards || [] : []);
  let count = playCleared(root, before, duration);
  const fromSeat = move && move.player !== null && move.player !== undefined ? before.seats.get(String(move.player)) : null;
  const seen = new Set();
  for (const el of root.querySelectorAll(".game-root [data-card]")) {
    const id = el.dataset.card;
    if (seen.has(id)) continue;
    seen.add(id);
    if (skip && skip.has(el)) continue;
    let from = before.cards.get(id);
    if (!from && move) {
      // A card nobody saw before this move: it came out of a hand or off the pile.
      if (moved.has(id) && fromSeat) from = fromSeat;
      else if (before.pile && (moved.has(id) || el.closest("[data-testid=hand]"))) from = before.pile;
    }
    if (!from) continue;
    const to = pageRect(el);
    if (!visible(to)) continue;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    if (Math.hypot(dx, dy) < MIN_DISTANCE) continue;
    travel(el, dx, dy, from.width / to.width, duration);
    count += 1;
  }
  return count;
}

// The travels under way.
const flying = new Set();

/** Resolves once every card now travelling has landed (at once when none is). */
export function landed() {
  return Promise.all([...flying].map((a) => a.finished.catch(() => null))).then(() => undefined);
}

// A deal under way: {start, duration, stagger} (ms), from the first table of a round.
let deal = null;

// Reduced motion asked for while cards travel: each lands at once.
if (reduceQuery && typeof reduceQuery.addEventListener === "function") {
  reduceQuery.addEventListener("change", () => {
    if (!reduceQuery.matches) return;
    deal = null;
    for (const animation of [...flying]) animation.finish();
  });
}

/**
 * Deal the person's hand: each card of the table's hands travels from the draw pile (or the
 * table's middle), one after the other. `fresh` starts a deal (a new match or round drawn
 * for the first time); a table redrawn while a deal is under way carries it on where it is.
 * Returns the cards dealt (a Set of elements), or null when no deal is under way.
 */
export function dealCards(root, duration, fresh) {
  const now = performance.now();
  // Travelling off (the "Instant" speed, reduced motion): no deal starts, and one under way
  // stops where it is (its cards are drawn in their places).
  if (!(duration > 0) || prefersReducedMotion()) { deal = null; return null; }
  if (fresh) deal = { start: now, duration, stagger: dealStagger(duration) };
  if (!deal) return null;
  const cards = [...root.querySelectorAll(".game-root .hand > .card")];
  const elapsed = now - deal.start;
  if (elapsed >= deal.duration + deal.stagger * cards.length) { deal = null; return null; }
  let source = null;
  for (const selector of PILES) {
    const el = root.querySelector(`.game-root ${selector}`);
    if (el && visible(pageRect(el))) { source = pageRect(el); break; }
  }
  const table = root.querySelector(".game-root");
  if (!source && table) {
    const r = pageRect(table);
    source = { left: r.left + r.width / 2, top: r.top + r.height / 3, width: 0, height: 0 };
  }
  if (!source) return null;
  const dealt = new Set();
  cards.forEach((el, i) => {
    const to = pageRect(el);
    if (!visible(to)) return;
    const dx = source.left + source.width / 2 - (to.left + to.width / 2);
    const dy = source.top + source.height / 2 - (to.top + to.height / 2);
    travel(el, dx, dy, 1, deal.duration, i * deal.stagger, elapsed);
    dealt.add(el);
  });
  return dealt;
}

/** How long after the one before each card of a deal sets off, for a deal whose cards each
 * travel for `duration` ms. */
function dealStagger(duration) {
  return Math.min(70, duration / 6);
}

/** A card drawn where it lands, travelling there from (dx, dy) away at `scale`; or, with
 * `away` ({dx, dy, scale, leave}), travelling from where it is to there (and removed then).
 * With reduced motion it is drawn where it lands (a leaving copy is gone) at once. */
function travel(el, dx, dy, scale, duration, delay = 0, elapsed = 0, away = null) {
  if (typeof el.animate !== "function" || prefersReducedMotion()) { if (away) el.remove(); return; }
  const end = getComputedStyle(el).transform;
  const rest = end && end !== "none" ? end : "";
  const clamp = (v) => (Number.isFinite(v) && v > 0 ? Math.min(2, Math.max(0.5, v)) : 1);
  el.dataset.moving = "true";
  el.classList.add("is-travelling");
  const there = { transform: `translate(${dx}px, ${dy}px) scale(${clamp(scale)}) ${rest}` };
  const here = { transform: rest || "none" };
  const frames = away
    ? [here, { transform: `translate(${away.dx}px, ${away.dy}px) scale(${clamp(away.scale)}) ${rest}`, opacity: 0.6 }]
    : [there, here];
  const animation = el.animate(frames, { duration, delay, fill: away ? "forwards" : "backwards", easing: "cubic-bezier(.2, .7, .2, 1)" });
  if (elapsed > 0) animation.currentTime = elapsed;
  flying.add(animation);
  const done = () => {
    flying.delete(animation);
    if (away && away.leave) { el.remove(); return; }
    delete el.dataset.moving;
    el.classList.remove("is-travelling");
  };
  animation.onfinish = done;
  animation.oncancel = done;
}

/** How long a card travels at `speed` (0: not at all), with reduced motion respected. */
export function travelTime(speed, reducedMotion) {
  if (!(speed > 0) || reducedMotion) return 0;
  return Math.round(TRAVEL_MS / speed);
}

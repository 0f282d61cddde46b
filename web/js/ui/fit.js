// The table sized to the window it is in. Each game's cards are drawn at a size times the
// table's --fit (web/css/scale.css gives each zone its size and the game its bounds, --fit-min
// and --fit-max); after every render, and again on a resize or a rotation, the fitter looks
// for the largest --fit at which the table's foot (the person's own zone) is inside the window and nothing in it is
// wider than the table: the cards grow into the room there is, and shrink when it is short.
//
// A table redrawn at the same window keeps its size while it still fits and leaves less than
// a few per cent of the window unused, or while a size a search step larger would not fit,
// so cards do not change size from move to move. A new window size or a new input (a touch
// screen's larger controls, web/css/touch.css) forgets the kept size: the table is measured
// afresh under the rules now in force, never kept at a size chosen under the others.
//
// The search finds the largest size on a grid of 2**STEPS steps between the bounds that fits
// (the fit only gets harder as the cards grow), the size a halving search of STEPS halvings
// finds. Each size tried restyles and lays out the whole table, so it tries few: first the
// sizes it found lately at this window (a hand one card longer or shorter than a move ago, a
// window size walked back to), each proven by the size a step up not fitting; then the size at
// which the foot's line through the two nearest sizes tried meets the window's foot, halving
// instead where the line does not narrow the search (the table too wide rather than too tall).

const FOOT_MARGIN = 6;        // px kept free under the table
const SLACK = 0.05;           // of the window's height: room left unused that asks for a refit
const STEPS = 7;              // the grid's precision: 2**STEPS steps (about 1% of the range)
const GRID = 2 ** STEPS;
const RECENT = 3;             // sizes remembered per window and input

let kept = { key: "", k: 0, tight: false };
const found = new Map();      // key -> the grid steps found lately, newest first

// A touch screen's input (web/css/touch.css gives its controls more room).
const COARSE = "(pointer: coarse)";

function bound(style, name, fallback) {
  const value = parseFloat(style.getPropertyValue(name));
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

// The table's foot: the person's own zone (their hand and its buttons). What a game draws
// under it (the match's table of rounds, the last round's summary) may be scrolled to.
const FOOT = ":is(.crisps-you, .mhing-you, .prog-you, .ru-you, .spite-you)";

// On a laptop a hand's fan keeps at least half of each card showing (its middle can be
// clicked) while its cards are larger than this --fit; below it the fan tightens instead.
const HALF_FAN_FIT = 0.92;
const LAPTOP = 861;

/** Whether the cards of `hand` overlap by more than half a card. */
function overHalf(hand) {
  const second = hand.querySelector(":scope > .card + .card");
  if (!second) return false;
  return parseFloat(getComputedStyle(second).marginLeft) < -0.5 * second.getBoundingClientRect().width;
}

/** The table at `fit`: how far its foot is from the page's top, and whether it overflows. */
function measure(table, fit) {
  table.style.setProperty("--fit", fit.toFixed(3));
  const rect = (table.querySelector(FOOT) || table).getBoundingClientRect();
  // Wider than the table, or a hand's fan, already as tight as it goes, wider than its zone
  // (or, on a laptop with large cards, tighter than half a card).
  const hands = [...table.querySelectorAll(".hand")];
  const halfFan = window.innerWidth >= LAPTOP && fit > HALF_FAN_FIT;
  const wide = table.scrollWidth > table.clientWidth + 1
    || hands.some((hand) => hand.scrollWidth > hand.clientWidth + 1 || (halfFan && overHalf(hand)));
  return { foot: rect.bottom + window.scrollY, wide };
}

/**
 * Fit the table of the page `root` to the window. Returns the --fit chosen, or null when no
 * table is on the page (the menu, a replay, a hidden hand in pass and play).
 */
export function fitTable(root) {
  const table = root.querySelector(".table-screen .game-root:not(.is-hidden)");
  if (!table) return null;
  const style = getComputedStyle(table);
  const low = bound(style, "--fit-min", 0.6);
  const high = Math.max(low, bound(style, "--fit-max", 1));
  const room = window.innerHeight - FOOT_MARGIN;
  // The height from the table's top to the window's foot, for a table that fills it
  // (web/css/scale.css): its zones take the room the largest cards leave.
  const top = table.getBoundingClientRect().top + window.scrollY;
  table.style.setProperty("--room", `${Math.max(0, Math.floor(room - top))}px`);
  const fits = (m) => m.foot <= room && !m.wide;
  const touch = window.matchMedia(COARSE).matches ? "touch" : "mouse";
  const key = `${table.className}|${window.innerWidth}x${window.innerHeight}|${touch}|${low}-${high}`;
  // Grid step k is the size low + k steps (GRID: high). What is known: every step up to `yes`
  // fits, none from `no` on; the table's --fit is step `shown`'s.
  const size = (k) => (k >= GRID ? high : low + (k * (high - low)) / GRID);
  const tried = new Map();
  let yes = -1;
  let no = GRID + 1;
  let shown = -1;
  const probe = (k) => {
    const m = measure(table, size(k));
    tried.set(k, m);
    shown = k;
    if (fits(m)) yes = Math.max(yes, k); else no = Math.min(no, k);
    return fits(m);
  };
  const recent = found.get(key) || [];
  const settle = (k, tight = false) => {
    if (shown !== k) measure(table, size(k));
    found.set(key, [k, ...recent.filter((r) => r !== k)].slice(0, RECENT));
    kept = { key, k, tight };
    return size(k);
  };
  if (kept.key === key) {
    // Kept while it fits and leaves little room, or while a step up does not fit ("tight":
    // then the step up is tried first next time, which leaves the table at the kept size).
    const k = kept.k;
    const little = () => k >= GRID || room - tried.get(k).foot <= SLACK * window.innerHeight;
    if (kept.tight && k < GRID) {
      if (!probe(k + 1)) {
        if (probe(k)) return settle(k, true);
      } else if (probe(k) && little()) return settle(k);
    } else if (probe(k)) {
      if (little()) return settle(k);
      if (!probe(k + 1)) return settle(k, true);
    }
  }
  for (const k of recent) {
    if (k < yes || k >= no) continue;
    if (k < GRID && k + 1 < no && probe(k + 1)) continue;
    if (k > yes) probe(k);
    if (yes + 1 >= no) return settle(yes);
  }
  if (no > GRID && yes < GRID) probe(GRID);
  let halve = false;
  while (yes + 1 < no && no > 0) {
    const span = no - yes;
    let k = halve ? -1 : lineMeets(tried, yes, no, room, top, low, high);
    if (!(k > yes && k < no)) k = Math.floor((yes + no) / 2);   // and where there is no line
    probe(k);
    halve = !halve && no - yes > span / 2;
  }
  return settle(Math.max(0, yes));
}

/** Where the line through the foot at the nearest steps tried that fit (`yes`) and that do not
 * (`no`, too tall rather than too wide) meets the window's foot (`room`): the step under it,
 * or -1 where there is no such line. With no step tried that fits, the line is drawn through
 * the table's `top` instead, as if the table's height were in proportion to its size. */
function lineMeets(tried, yes, no, room, top, low, high) {
  const over = tried.get(no);
  if (!over || over.wide) return -1;
  const under = tried.get(yes);
  if (!under) {
    // Nothing that fits tried yet: the line through the table's top (at no size).
    if (over.foot <= top) return -1;
    return Math.floor(((room - top) * (low + ((high - low) * Math.min(no, GRID)) / GRID) / (over.foot - top) - low) / ((high - low) / GRID));
  }
  if (over.foot <= under.foot) return -1;
  return yes + Math.floor(((room - under.foot) * (no - yes)) / (over.foot - under.foot));
}

/** Refit the table, measured afresh, whenever the window changes size (a resize, a phone
 * turned) or its input does (a touch screen's rules on or off). */
export function fitOnResize(root) {
  const refit = () => { kept = { key: "", k: 0, tight: false }; fitTable(root); };
  window.addEventListener("resize", refit);
  window.addEventListener("orientationchange", refit);
  window.matchMedia(COARSE).addEventListener("change", refit);
}

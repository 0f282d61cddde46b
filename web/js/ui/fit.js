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

const FOOT_MARGIN = 6;        // px kept free under the table
const SLACK = 0.05;           // of the window's height: room left unused that asks for a refit
const STEPS = 7;              // halvings of the search (a precision of about 1% of the range)

let kept = { key: "", fit: 0 };

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
  table.style.setProperty("--room", `${Math.max(0, Math.floor(room - table.getBoundingClientRect().top - window.scrollY))}px`);
  const fits = (m) => m.foot <= room && !m.wide;
  const touch = window.matchMedia(COARSE).matches ? "touch" : "mouse";
  const key = `${table.className}|${window.innerWidth}x${window.innerHeight}|${touch}`;
  if (kept.key === key && kept.fit >= low && kept.fit <= high) {
    const m = measure(table, kept.fit);
    if (fits(m) && (kept.fit >= high || room - m.foot <= SLACK * window.innerHeight)) return kept.fit;
    // Still the largest that fits, to the search's precision (a step up does not): kept without
    // the search's other measurements, each of which restyles and lays out the whole table.
    if (fits(m)) {
      const up = Math.min(high, kept.fit + (high - low) / 2 ** STEPS);
      if (!fits(measure(table, up))) { measure(table, kept.fit); return kept.fit; }
    }
  }
  let best;
  if (fits(measure(table, high))) best = high;
  else {
    let lo = low;
    let hi = high;
    for (let i = 0; i < STEPS; i++) {
      const mid = (lo + hi) / 2;
      if (fits(measure(table, mid))) lo = mid; else hi = mid;
    }
    best = lo;
  }
  measure(table, best);
  kept = { key, fit: best };
  return best;
}

/** Refit the table, measured afresh, whenever the window changes size (a resize, a phone
 * turned) or its input does (a touch screen's rules on or off). */
export function fitOnResize(root) {
  const refit = () => { kept = { key: "", fit: 0 }; fitTable(root); };
  window.addEventListener("resize", refit);
  window.addEventListener("orientationchange", refit);
  window.matchMedia(COARSE).addEventListener("change", refit);
}

"""What a table looks like, in numbers, read from the page (used by tools/screenshots.py and
e2e/test_fit.py): the width of the person's hand cards and of the shared places' cards, how
much of each card in a fanned hand shows and how tall its index is, the tallest band of empty
felt in the window, sideways overflow, and the card indices and labels that something else
covers.

A card's index is the top-left corner the faces keep it in: the left 24% of the card's width
and the top 30% of its height (web/js/ui/cards.js, web/css/cards.css). It is covered when a
point of that corner hits anything but the card itself. A label is a visible element of the
table with words of its own; it is covered when its middle hits something
else. Cards a pile shows only the edge of, for its depth, are not read and not checked
(``EDGE_ONLY``).
"""

from __future__ import annotations

# Where each game puts the cards everyone reads: its shared places (piles, stacks, the trick).
PLACES = {
    "crisps": ".crisps-piles .card:not(.card-empty), .trick-cards .card",
    "mhing": ".mhing-centre .card-small:not(.card-empty)",
    "roundup": ".ru-stack-card .card, .ru-stack-card .card-empty",
    "progression": ".prog-centre .card-small, .prog-you .prog-stacks .card-small",
    "spite": ".spite-centre .card:not(.card-tiny), .spite-you .spite-piles .card",
}

EDGE_ONLY = ".prog-fan > .card:not(:last-child)"
"""Progression's stacks show the cards under the top one as a strip, their order only."""

FIGURES = r"""([places, edgeOnly]) => {
  const root = document.querySelector('.table-screen .game-root');
  if (!root) return null;
  const shown = (e) => e.checkVisibility() && e.getBoundingClientRect().width > 0;
  const name = (e) => (e.dataset && (e.dataset.card || e.dataset.testid))
    || String(e.className).split(' ').filter(Boolean).slice(0, 2).join('.') || e.tagName;
  const inside = (r) => r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
  const hand = [...root.querySelectorAll('.hand > .card')].filter(shown);
  const widths = (list) => list.map((e) => Math.round(e.getBoundingClientRect().width * 10) / 10);
  const place = [...root.querySelectorAll(places)].filter(shown);
  // A fanned hand: each card's part left showing (to the next card's left edge).
  let fanShown = null;
  let indexTall = null;
  for (const row of [...new Set(hand.map((c) => c.parentElement))]) {
    const cards = [...row.children].filter((c) => c.classList.contains('card') && shown(c));
    cards.forEach((c, i) => {
      const r = c.getBoundingClientRect();
      const next = cards[i + 1] && cards[i + 1].getBoundingClientRect();
      const part = next && Math.abs(next.top - r.top) < r.height / 2 && next.left < r.right
        ? (next.left - r.left) / r.width : 1;
      fanShown = fanShown === null ? part : Math.min(fanShown, part);
      const rank = c.querySelector('.card-corner-top > :first-child')
        || c.querySelector('.card-corner-top');
      const tall = rank ? rank.getBoundingClientRect().height : r.height * 0.3;
      indexTall = indexTall === null ? tall : Math.min(indexTall, tall);
    });
  }
  // Indices covered: points of each read card's top-left corner that hit something else.
  const covered = [];
  for (const c of root.querySelectorAll('.card[data-card]')) {
    if (!shown(c) || c.matches(edgeOnly) || c.classList.contains('card-back')) continue;
    const r = c.getBoundingClientRect();
    if (!inside(r)) continue;
    let hit = null;
    for (const fx of [0.05, 0.13, 0.21]) {
      for (const fy of [0.04, 0.15, 0.26]) {
        const e = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
        if (e && !(e === c || c.contains(e))) hit = hit || e;
      }
    }
    if (hit) covered.push(`${name(c)} under ${name(hit)}`);
  }
  // Labels covered: words of the table whose middle hits something else.
  const labels = [];
  const range = document.createRange();
  for (const box of [root]) {
    for (const e of box.querySelectorAll('*')) {
      if (e.closest('.card') || !shown(e)) continue;
      const text = [...e.childNodes].find((n) => n.nodeType === 3 && n.data.trim());
      if (!text) continue;
      // Not the words only a screen reader is given (a box of a pixel or so).
      const box = e.getBoundingClientRect();
      if (box.width < 3 || box.height < 3 || getComputedStyle(e).visibility === 'hidden') continue;
      // Its first word's line (what a clipped paragraph still shows).
      const start = text.data.search(/\S/);
      range.setStart(text, start);
      range.setEnd(text, text.data.trimEnd().length);
      const r = range.getClientRects()[0];
      if (!r || r.width < 3 || !inside(r)) continue;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      // A refusal is shown over the top of the table on purpose, until the next move.
      const own = !hit || hit === e || e.contains(hit) || hit.contains(e);
      if (!own && !hit.closest('.status-line')) {
        labels.push(`"${e.textContent.trim().slice(0, 24)}" under ${name(hit)}`);
      }
    }
  }
  // The tallest band of the window's rows that nothing of the table reaches (its bar, status
  // line, zones, cards, words and controls; not the side panel beside it on a laptop).
  const used = new Uint8Array(innerHeight);
  const marks = document.querySelectorAll(
    '.table-screen .table-bar, .table-screen .status-line, .game-root *, .overlay-card'
    + (innerWidth <= 860 ? ', .side-panel' : ''));
  for (const e of marks) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    const last = Math.min(innerHeight, Math.ceil(r.bottom));
    for (let y = Math.max(0, Math.floor(r.top)); y < last; y++) used[y] = 1;
  }
  let band = 0;
  let run = 0;
  for (let y = 0; y < innerHeight; y++) { run = used[y] ? 0 : run + 1; band = Math.max(band, run); }
  return {
    hand: widths(hand), place: widths(place), fanShown, indexTall, covered, labels,
    emptyBand: band, window: [innerWidth, innerHeight],
    overflow: Math.max(document.documentElement.scrollWidth - innerWidth,
      root.scrollWidth - root.clientWidth),
    fit: Number(root.style.getPropertyValue('--fit')) || null,
  };
}"""


def figures(page, game: str) -> dict | None:
    """The figures of the table on ``page`` (None when no table is shown)."""
    return page.evaluate(FIGURES, [PLACES[game], EDGE_ONLY])

// The card faces' art: web/cards/deck.svg (tools/draw_cards.py), one sprite of SVG symbols
// (pips laid out as on a real deck, court figures, jokers, the four-colour deck's suit
// letters). Nothing waits for it: faces are drawn with CSS alone (cards.css) until it has
// arrived, and it is asked for only once the page has drawn its first cards and the table
// waits for the person (or at once on a visit the service worker answers from its cache), so
// the menu and the first decision of a first visit never share the line with it. Once it is in, every face drawn shows its art
// and the faces already on the page are given theirs.

const SVG = "http://www.w3.org/2000/svg";
// Beside the page (index.html), wherever this module is: bundled into js/ or as web/js/ui/.
const artUrl = () => new URL("cards/deck.svg", document.baseURI).href;
// After the first cards are drawn, this long before the art is asked for, and then only once
// the table waits for the person (not busy with a deal, the engine or a computer's turn): the
// first decision is on the screen by then, on a slow device too. A table still busy is looked
// at again after BUSY_RETRY_MS, and the art is asked for anyway after BUSY_RETRIES looks.
const AFTER_FIRST_CARDS_MS = 800;
const BUSY_RETRY_MS = 300;
const BUSY_RETRIES = 20;

let state = "none";  // "none", "asked" (fetching), "ready", "failed"
let scheduled = false;

/** Whether the art is in the page (faces drawn from now on show it). */
export function hasArt() {
  return state === "ready";
}

/** The sprite's symbol of a card: its own, but two designs for the four jokers (JK1..JK4). */
export function faceSymbol(base) {
  const joker = /^JK(\d)$/.exec(base);
  return "f" + (joker ? `JK${((Number(joker[1]) + 1) % 2) + 1}` : base);
}

/** The art of a face (an <svg> using the sprite's symbol), or null while there is none. */
export function artFor(base) {
  const symbol = faceSymbol(base);
  if (state !== "ready" || !document.getElementById(symbol)) return null;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "card-art");
  svg.setAttribute("viewBox", "0 0 240 336");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", "#" + symbol);
  svg.append(use);
  return svg;
}

/** Called as faces are drawn: the first time, the art is asked for a moment later. */
export function noteCardsDrawn() {
  if (scheduled || state !== "none") return;
  scheduled = true;
  let looks = 0;
  const whenIdle = () => {
    const busy = document.querySelector("[data-testid=table][data-busy=true]");
    if (busy && ++looks < BUSY_RETRIES) setTimeout(whenIdle, BUSY_RETRY_MS);
    else loadCardArt();
  };
  setTimeout(whenIdle, AFTER_FIRST_CARDS_MS);
}

/** Fetch the sprite (once), put it into the page and give the faces on the page their art. */
export async function loadCardArt() {
  if (state !== "none") return;
  state = "asked";
  try {
    const response = await fetch(artUrl());
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const text = await response.text();
    const sprite = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    if (sprite.namespaceURI !== SVG) throw new Error("not an SVG document");
    sprite.setAttribute("id", "card-art-sprite");
    sprite.setAttribute("aria-hidden", "true");
    document.body.prepend(document.importNode(sprite, true));
    state = "ready";
  } catch {
    state = "failed";  // the CSS faces stay: a card game without pictures, not a broken one
    return;
  }
  for (const card of document.querySelectorAll(".card[data-card]:not(.has-art):not(.card-tiny)")) {
    const art = artFor(card.dataset.card.split("#", 1)[0]);
    if (art) { card.classList.add("has-art"); card.append(art); }
  }
}

// A visit the service worker answers (the site is in its cache): the art costs no download,
// so it comes in as soon as the first frame is painted, before any card is drawn.
if (typeof navigator !== "undefined" && navigator.serviceWorker && navigator.serviceWorker.controller) {
  requestAnimationFrame(() => setTimeout(loadCardArt, 0));
}

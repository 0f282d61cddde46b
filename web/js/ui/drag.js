// Dragging a card onto the place it goes, with a mouse or a finger (pointer events). The
// renderers still draw the buttons that tapping uses; a drop makes the very move the tap on
// its target would make (the same action id), or asks the engine why not.
//
// A source card: `dragSource(el, card, spec)`, where spec = {
//   accepts(key) -> "legal" | "refused" | null: what a drop on the place `key` would be,
//   drop(key): make that move (called for a "legal" or "refused" place) }.
// A place: any element with data-drop="<key>" (a stack, a pile, the trick, a seat).
//
// One drag at a time. The listeners sit on window and places are found by data-drop under
// the pointer, so a re-render in the middle of a drag cannot strand it.
import { listen } from "./dom.js";

const THRESHOLD_PX = 6;
const EDGE_PX = 56;        // dragging this close to the window's edge scrolls the page

/** Let `el` (a card that can be moved) be dragged onto the places that take it. */
export function dragSource(el, card, spec) {
  el.classList.add("is-draggable");
  listen(el, "pointerdown", (event) => drag.begin(event, card, spec));
  // The click that follows a drag belongs to the drag, not to a selection.
  listen(el, "click", (event) => {
    if (!drag.swallowClick) return;
    event.stopImmediatePropagation();
    event.preventDefault();
  }, { capture: true });
  return el;
}

const drag = {
  state: null,
  swallowClick: false,

  begin(event, card, spec) {
    if (event.button !== 0 || !event.isPrimary || this.state) return;
    const x = event.clientX;
    const y = event.clientY;
    this.state = { card, spec, source: event.currentTarget, x0: x, y0: y, x, y, ghost: null, over: null, frame: 0, pointerId: event.pointerId };
    window.addEventListener("pointermove", this.move);
    window.addEventListener("pointerup", this.up);
    window.addEventListener("pointercancel", this.cancel);
    window.addEventListener("keydown", this.key);
  },

  move: (event) => {
    const s = drag.state;
    if (!s || event.pointerId !== s.pointerId) return;
    if (!s.ghost) {
      if (Math.hypot(event.clientX - s.x0, event.clientY - s.y0) < THRESHOLD_PX) return;
      drag.start(s);
    }
    event.preventDefault();
    s.x = event.clientX;
    s.y = event.clientY;
    s.ghost.style.transform = `translate(${s.x - s.dx}px, ${s.y - s.dy}px) rotate(-4deg)`;
    drag.track(s);
  },

  /** Mark the place under the pointer. */
  track(s) {
    const under = document.elementFromPoint(s.x, s.y);
    const over = under ? under.closest("[data-drop]") : null;
    if (over !== s.over) {
      if (s.over) s.over.classList.remove("is-drop-over");
      s.over = over;
      if (over) over.classList.add("is-drop-over");
    }
  },

  /** Near the top or bottom edge the page scrolls, so that a far place can be reached. */
  scroll: () => {
    const s = drag.state;
    if (!s || !s.ghost) return;
    const edge = Math.min(EDGE_PX, window.innerHeight / 6);
    const step = s.y < edge ? -(edge - s.y) : s.y > window.innerHeight - edge ? s.y - (window.innerHeight - edge) : 0;
    if (step) {
      window.scrollBy(0, Math.round(step / 3));
      drag.track(s);
    }
    s.frame = requestAnimationFrame(drag.scroll);
  },

  start(s) {
    const rect = s.source.getBoundingClientRect();
    s.dx = s.x0 - rect.left;
    s.dy = s.y0 - rect.top;
    const ghost = s.source.cloneNode(true);
    ghost.removeAttribute("data-card");
    ghost.removeAttribute("data-testid");
    ghost.removeAttribute("data-focus");
    ghost.classList.remove("is-selected", "is-playable", "is-dim");
    ghost.classList.add("drag-ghost");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.width = `${rect.width}px`;
    ghost.style.height = `${rect.height}px`;
    ghost.style.transform = `translate(${rect.left}px, ${rect.top}px)`;
    document.body.append(ghost);
    s.ghost = ghost;
    s.frame = requestAnimationFrame(drag.scroll);
    s.source.classList.add("is-dragging");
    document.documentElement.classList.add("is-card-dragging");
    for (const el of document.querySelectorAll("[data-drop]")) {
      if (s.spec.accepts(el.dataset.drop) === "legal") el.classList.add("is-drop-ok");
    }
  },

  up: (event) => {
    const s = drag.state;
    if (!s || event.pointerId !== s.pointerId) return;
    const over = s.over;
    const dragged = Boolean(s.ghost);
    drag.finish();
    if (!dragged) return;
    drag.swallowClick = true;
    setTimeout(() => { drag.swallowClick = false; }, 0);
    if (!over) return;
    const key = over.dataset.drop;
    if (s.spec.accepts(key)) s.spec.drop(key);
  },

  cancel: () => drag.finish(),

  key: (event) => {
    if (event.key === "Escape" && drag.state) drag.finish();
  },

  finish() {
    const s = this.state;
    this.state = null;
    window.removeEventListener("pointermove", this.move);
    window.removeEventListener("pointerup", this.up);
    window.removeEventListener("pointercancel", this.cancel);
    window.removeEventListener("keydown", this.key);
    if (!s) return;
    if (s.frame) cancelAnimationFrame(s.frame);
    if (s.ghost) s.ghost.remove();
    s.source.classList.remove("is-dragging");
    document.documentElement.classList.remove("is-card-dragging");
    for (const el of document.querySelectorAll(".is-drop-ok, .is-drop-over")) el.classList.remove("is-drop-ok", "is-drop-over");
  },
};

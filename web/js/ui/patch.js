// Updating a drawn screen in place: the page draws each screen afresh from the state (a tree
// of new elements, off the page), and patch() makes the screen on the page look like it while
// keeping every element whose place and tag are the same. Only what changed is touched: an
// attribute, a text, a child that is new or gone. The browser then restyles and lays out only
// those parts instead of a whole new screen, and what the person was on (the focus, a
// scrolled list, a card being dragged) stays where it is.
//
// An element kept takes the new one's listeners (ui/dom.js records those h() adds), so what
// a button does is always what the latest drawing says. Custom properties (--fit, --room)
// that the page sets on the drawn screen after a render (ui/fit.js) stay until the next fit
// rather than being taken off and put back. Fields (input, select, textarea) and canvases
// are replaced, not patched: their live value or drawing is not in their attributes.
import { listenersOf, listen, unlistenAll } from "./dom.js";

const REPLACED = new Set(["INPUT", "SELECT", "TEXTAREA", "CANVAS"]);

/** Make `live` (on the page) look like `next` (just drawn); returns the node now on the
 * page in its place: `live` itself when kept, else `next`. */
export function patch(live, next) {
  if (!sameKind(live, next)) {
    live.replaceWith(next);
    return next;
  }
  if (live.nodeType === Node.TEXT_NODE || live.nodeType === Node.COMMENT_NODE) {
    if (live.data !== next.data) live.data = next.data;
    return live;
  }
  syncAttributes(live, next);
  syncListeners(live, next);
  patchChildren(live, next);
  return live;
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  return a.tagName === b.tagName && a.namespaceURI === b.namespaceURI && !REPLACED.has(a.tagName)
    && a.id === b.id;
}

function patchChildren(live, next) {
  const wanted = [...next.childNodes];
  let at = live.firstChild;
  for (const child of wanted) {
    if (at) {
      const following = at.nextSibling;
      patch(at, child);
      at = following;
    } else {
      live.append(child);
    }
  }
  while (at) {
    const following = at.nextSibling;
    at.remove();
    at = following;
  }
}

function syncAttributes(live, next) {
  for (const { name } of [...live.attributes]) {
    if (!next.hasAttribute(name) && name !== "style") live.removeAttribute(name);
  }
  for (const { name, value } of next.attributes) {
    if (name === "style") continue;
    if (live.getAttribute(name) !== value) live.setAttribute(name, value);
  }
  syncStyle(live, next);
}

/** The new inline style, property by property (the page's policy allows no style attribute
 * to be written), keeping the custom properties the live one has and the new one does not set. */
function syncStyle(live, next) {
  const have = live.style;
  const want = next.style;
  if (!have.length && !want.length) return;
  for (let i = have.length - 1; i >= 0; i--) {
    const name = have[i];
    if (!name.startsWith("--") && !want.getPropertyValue(name)) have.removeProperty(name);
  }
  for (let i = 0; i < want.length; i++) {
    const name = want[i];
    const value = want.getPropertyValue(name);
    const priority = want.getPropertyPriority(name);
    if (have.getPropertyValue(name) !== value || have.getPropertyPriority(name) !== priority) have.setProperty(name, value, priority);
  }
}

function syncListeners(live, next) {
  const wants = listenersOf(next);
  if (!listenersOf(live) && !wants) return;
  unlistenAll(live);
  for (const [type, fn, options] of wants || []) listen(live, type, fn, options);
}

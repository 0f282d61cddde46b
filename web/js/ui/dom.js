// Tiny DOM helpers: build elements from plain data, never from HTML strings.

/**
 * h("button", {class: "x", dataset: {action: "pass"}, onclick: fn}, "Pass")
 * Attributes: class, dataset, style (object; "--name" keys are custom properties), on<event>
 * (functions), aria-*, anything else
 * via setAttribute. `false`/`null`/`undefined` attributes and children are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style") setStyle(el, value);
    else if (key.startsWith("on") && typeof value === "function") listen(el, key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function setStyle(el, styles) {
  for (const [name, value] of Object.entries(styles)) {
    if (name.startsWith("--")) el.style.setProperty(name, value);
    else el.style[name] = value;
  }
}

// The listeners added through listen() (and so by h()), by element: an element that a
// render keeps in place takes the new drawing's listeners instead (ui/patch.js).
const LISTENERS = new WeakMap();

/** el.addEventListener, remembered for ui/patch.js. */
export function listen(el, type, fn, options = undefined) {
  el.addEventListener(type, fn, options);
  const list = LISTENERS.get(el);
  if (list) list.push([type, fn, options]); else LISTENERS.set(el, [[type, fn, options]]);
}

/** The listeners listen() added to `el` ([type, fn, options]), or null. */
export function listenersOf(el) {
  return LISTENERS.get(el) || null;
}

/** Take every listener listen() added to `el` off it. */
export function unlistenAll(el) {
  for (const [type, fn, options] of LISTENERS.get(el) || []) el.removeEventListener(type, fn, options);
  LISTENERS.delete(el);
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * What the person has typed into the text fields under `root` (by id) and which of them has
 * the focus, so a redraw that builds the fields anew keeps it: see keepTyped.
 */
export function noteTyped(root) {
  const typed = new Map();
  for (const field of root.querySelectorAll("input[id]:not([readonly]):not([type=checkbox]):not([type=radio]), textarea[id]")) {
    if (field.value !== field.defaultValue) {
      typed.set(field.id, { value: field.value, was: field.defaultValue, focused: field === document.activeElement, start: field.selectionStart, end: field.selectionEnd });
    }
  }
  return typed;
}

/**
 * Puts back what noteTyped saw into the fields of the same id drawn again, where the page did not
 * change a field's own value in the meantime (then the page's value stands), with the caret.
 */
export function keepTyped(root, typed) {
  for (const [id, note] of typed) {
    const field = root.querySelector(`#${CSS.escape(id)}`);
    if (!field || field.readOnly || field.defaultValue !== note.was) continue;
    field.value = note.value;
    if (note.focused) {
      field.focus({ preventScroll: true });
      if (note.start !== null) field.setSelectionRange(note.start, note.end);
    }
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** A real <button> with type=button. */
export function button(text, attrs = {}) {
  return h("button", { type: "button", ...attrs }, text);
}

// The engine's loading, drawn three ways: the small status line the page shows while the
// engine loads in the background (outside the screens, updated in place); the table's frame
// with the engine's progress, for a match asked for before the engine is ready; the screen of
// an engine restarting after it stopped. Also the screen for an engine that has stopped.
//
// `engine` is the page's state.engine: {status: "loading" | "ready" | "failed", fraction,
// message, problem: {title, message, detail} once failed}.
import { h, button } from "./dom.js";
import { errorArea } from "./setup.js";

function progressBar(label) {
  return h("div", { class: "progress", role: "progressbar", "aria-label": label, "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0" },
    h("div", { class: "progress-bar" }));
}

function problemDetail(problem) {
  return problem.detail ? h("details", { class: "fatal-detail" }, h("summary", {}, "Technical details"), h("p", {}, problem.detail)) : null;
}

/** The screen of an engine restarting after it stopped (state.screen === "loading"). */
export function renderLoading(state) {
  return h("section", { class: "screen loading-screen", dataset: { testid: "loading" }, "aria-busy": "true", "aria-labelledby": "loading-title" },
    h("div", { class: "loading-card" },
      h("h1", { id: "loading-title", class: "brand" }, "Parlour"),
      h("p", { class: "tagline" }, "Five card games, played at your own table."),
      progressBar("Loading the game"),
      h("p", { class: "loading-message" }, state.engine.message)));
}

/** The table's frame while the engine loads (state.screen === "waiting"): state.waiting =
 * {title, message} says what starts once it is ready; a failure offers to try again. */
export function renderWaiting(state, intents) {
  const engine = state.engine;
  const waiting = state.waiting || { title: "Parlour", message: "" };
  const failed = engine.status === "failed";
  const problem = engine.problem || { title: "", message: "" };
  return h("section", {
    class: "screen table-screen waiting-screen", dataset: { testid: "table-waiting", engine: engine.status },
    "aria-busy": failed ? "false" : "true", "aria-labelledby": "table-title",
  },
  h("header", { class: "table-bar" },
    button("\u2190 Menu", { class: "quiet", dataset: { testid: "menu-button", focus: "menu-button" }, onclick: intents.showMenu }),
    h("h1", { id: "table-title" }, waiting.title),
    h("div", { class: "bar-actions" })),
  errorArea(state.error),
  h("div", { class: "waiting-card" },
    failed
      ? [
        h("h2", {}, problem.title),
        h("p", { class: "error-area", role: "alert", dataset: { testid: "engine-error" } }, problem.message),
        problemDetail(problem),
        button("Try again", { class: "primary", dataset: { testid: "retry-engine", focus: "retry-engine" }, onclick: intents.retryEngine }),
      ]
      : [
        h("p", { class: "waiting-message" }, waiting.message),
        progressBar("Loading the game engine"),
        h("p", { class: "loading-message", role: "status", "aria-live": "polite" }, engine.message),
      ]));
}

/** Update a drawn progress bar and its message in place (a render would rebuild the screen). */
export function setProgress(root, engine) {
  const fraction = Math.max(0, Math.min(1, Number(engine.fraction) || 0));
  const bar = root.querySelector(".progress-bar");
  const meter = root.querySelector(".progress");
  const message = root.querySelector(".loading-message");
  if (bar) bar.style.width = `${Math.round(fraction * 100)}%`;
  if (meter) meter.setAttribute("aria-valuenow", String(Math.round(fraction * 100)));
  if (message && engine.message) message.textContent = engine.message;
}

/** The status line: `el` is its element (made once by engineStatusLine()); `shown` false
 * hides it (a screen that shows the progress itself, or some time after the engine is ready). */
export function showEngineStatus(el, engine, intents, shown) {
  el.hidden = !shown;
  el.dataset.engine = engine.status;
  const text = el.querySelector("[role=status]");
  const retry = el.querySelector("button");
  const fraction = Math.round(Math.max(0, Math.min(1, Number(engine.fraction) || 0)) * 100);
  let words;
  if (engine.status === "failed") words = `${engine.problem.title}. ${engine.problem.message}`;
  else if (engine.status === "ready") words = "The game engine is ready.";
  else words = `Game engine: ${engine.message || "loading"}\u2026`;
  if (text.textContent !== words) text.textContent = words;
  el.querySelector(".engine-meter").style.width = `${engine.status === "loading" ? fraction : 100}%`;
  retry.hidden = engine.status !== "failed";
  retry.onclick = intents.retryEngine;
}

/** The status line's element, empty and hidden; the page puts it after its screens. */
export function engineStatusLine() {
  return h("div", { class: "engine-status", dataset: { testid: "engine-status" }, hidden: true },
    h("span", { class: "engine-track", "aria-hidden": "true" }, h("span", { class: "engine-meter" })),
    h("p", { role: "status", "aria-live": "polite" }),
    button("Try again", { class: "quiet", dataset: { testid: "status-retry" }, hidden: true }));
}

export function renderFatal(state, intents) {
  const fatal = state.fatal || { title: "Something went wrong", message: "" };
  return h("section", { class: "screen fatal-screen", dataset: { testid: "fatal" }, "aria-labelledby": "fatal-title" },
    h("div", { class: "loading-card" },
      h("h1", { id: "fatal-title" }, fatal.title),
      h("p", { class: "error-area", role: "alert", dataset: { testid: "error" } }, fatal.message),
      problemDetail(fatal),
      button("Reload the page", { class: "primary", dataset: { testid: "reload", focus: "reload" }, onclick: intents.reload })));
}

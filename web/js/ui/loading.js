// The loading screen (also written statically in index.html so it shows before any script)
// and the screen for an engine that cannot start or has stopped.
import { h, button } from "./dom.js";

export function renderLoading() {
  return h("section", { class: "screen loading-screen", dataset: { testid: "loading" }, "aria-busy": "true", "aria-labelledby": "loading-title" },
    h("div", { class: "loading-card" },
      h("h1", { id: "loading-title", class: "brand" }, "Parlour"),
      h("p", { class: "tagline" }, "Five card games, played at your own table."),
      h("div", { class: "progress", role: "progressbar", "aria-label": "Loading the game", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0" },
        h("div", { class: "progress-bar" })),
      h("p", { class: "loading-message" }, "Setting the table\u2026")));
}

/** Update the bar in place (the loading screen is never rebuilt, so it animates smoothly). */
export function setProgress(root, loading) {
  const fraction = Math.max(0, Math.min(1, Number(loading.fraction) || 0));
  const bar = root.querySelector(".progress-bar");
  const meter = root.querySelector(".progress");
  const message = root.querySelector(".loading-message");
  if (bar) bar.style.width = `${Math.round(fraction * 100)}%`;
  if (meter) meter.setAttribute("aria-valuenow", String(Math.round(fraction * 100)));
  if (message && loading.message) message.textContent = loading.message;
}

export function renderFatal(state, intents) {
  const fatal = state.fatal || { title: "Something went wrong", message: "" };
  return h("section", { class: "screen fatal-screen", dataset: { testid: "fatal" }, "aria-labelledby": "fatal-title" },
    h("div", { class: "loading-card" },
      h("h1", { id: "fatal-title" }, fatal.title),
      h("p", { class: "error-area", role: "alert", dataset: { testid: "error" } }, fatal.message),
      fatal.detail ? h("details", { class: "fatal-detail" }, h("summary", {}, "Technical details"), h("p", {}, fatal.detail)) : null,
      button("Reload the page", { class: "primary", dataset: { testid: "reload", focus: "reload" }, onclick: intents.reload })));
}

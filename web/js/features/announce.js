// One polite live region for screen readers, outside the re-rendered #app so it survives
// every render: opponents' moves, "your turn", round and match results are read out.
const KEEP = 4;
let region = null;

function ensureRegion() {
  if (region && region.isConnected) return region;
  region = document.createElement("div");
  region.className = "visually-hidden";
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "false");
  region.setAttribute("role", "log");
  region.dataset.testid = "announcer";
  document.body.append(region);
  return region;
}

/** Say `text` (appended as a new line so the same words twice are read twice). */
export function announce(text) {
  const words = String(text || "").trim();
  if (!words || !document.body) return;
  const el = ensureRegion();
  const line = document.createElement("p");
  line.textContent = words;
  el.append(line);
  while (el.childElementCount > KEEP) el.firstElementChild.remove();
}

export function clearAnnouncements() {
  if (region) region.textContent = "";
}

export function install() {
  if (document.body) ensureRegion();
  else document.addEventListener("DOMContentLoaded", ensureRegion, { once: true });
}

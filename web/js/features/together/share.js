// Playing together: how the links between the devices travel. The share box (a link to copy
// or share), its QR code for a camera in the same room (js/features/together/qr.js, loaded
// when a link to scan is first on screen), what the page's own link asks for, and the reply
// tab, which hands a reply opened on the host's device to the inviting tab over a
// BroadcastChannel.
import { h, button } from "../../ui/dom.js";

/** The BroadcastChannel between a reply tab and the inviting tab on the same device. */
export const CHANNEL_NAME = "parlour-together";

/** What to tell a person whose connection did not come up. */
export const ADVICE = "Check that both devices are on the same Wi-Fi network (a guest network often keeps devices apart), "
  + "then invite again with a fresh link. For a friend on another network, choose Anywhere on the invite screen; "
  + "where even that fails, a TURN server (in Settings) relays the connection.";

/** What the page's fragment asks for: {kind: "join"|"reply", text} or null. */
export function sharedLink() {
  const hash = window.location.hash || "";
  if (hash.startsWith("#join=")) return { kind: "join", text: hash };
  if (hash.startsWith("#reply=")) return { kind: "reply", text: hash };
  return null;
}

// QR codes of links, by link: an <svg> once drawn, "waiting" while qr.js (with its library)
// loads, the first time a link to scan is on screen, or "failed". Each render shows a copy.
const qrCodes = new Map();
const QR_KEPT = 12;

function qrCode(link, label, redraw) {
  const made = qrCodes.get(link);
  if (made === undefined) {
    qrCodes.set(link, "waiting");
    if (qrCodes.size > QR_KEPT) qrCodes.delete(qrCodes.keys().next().value);
    import("./qr.js").then(
      (qr) => { qrCodes.set(link, qr.qrSvg(link, label)); },
      (error) => { qrCodes.set(link, "failed"); console.warn("Parlour: the QR code could not be drawn:", error); },
    ).then(() => redraw());
  }
  if (made instanceof Element) return made.cloneNode(true);
  if (made === "failed") return h("p", { class: "field-note" }, "The QR code could not be drawn here: share the link instead.");
  return h("div", { class: "qr-code is-waiting", "aria-hidden": "true" });
}

/** The link as a QR code for a camera in the same room, with what it is for; `redraw` once
 * the code is drawn (the first one loads its module). */
export function qrFigure(link, what, caption, redraw) {
  return h("figure", { class: "qr", dataset: { testid: `${what}-qr` } },
    qrCode(link, what === "reply" ? "QR code of your reply link" : "QR code of this invitation link", redraw),
    h("figcaption", { class: "field-note" }, caption));
}

/** The link to copy or share, and what it is for ("invite" or "reply"). */
export function shareBox(link, what, onShared = () => {}) {
  const canShare = typeof navigator.share === "function";
  return h("div", { class: "share-link" },
    h("input", { type: "text", readonly: true, value: link, class: "link-text", "aria-label": what === "reply" ? "Your reply link" : "Invitation link", dataset: { testid: `${what}-link` },
      onfocus: (e) => e.target.select() }),
    h("div", { class: "form-actions" },
      button("Copy", { class: "quiet", dataset: { testid: `copy-${what}` }, onclick: async (e) => {
        onShared();
        try { await navigator.clipboard.writeText(link); e.target.textContent = "Copied"; } catch { e.target.textContent = "Select the link and copy it"; }
      } }),
      canShare ? button("Share\u2026", { class: "quiet", dataset: { testid: `share-${what}` }, onclick: () => {
        onShared();
        navigator.share({ title: "Parlour", text: what === "reply" ? "My reply to your Parlour table" : "Take a seat at my Parlour table", url: link }).catch(() => undefined);
      } }) : null),
  );
}

/** The reply tab: hand the reply to the inviting tab on this device, and say so. */
export function handOver(state, render) {
  const text = window.location.hash;
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  state.together = { role: "relay", status: "handing", code: text.slice("#reply=".length) };
  state.screen = "handover";
  render();
  const finish = (status, problem = null) => {
    if (state.together.status !== "handing") return;
    Object.assign(state.together, { status, problem });
    render();
  };
  if (typeof BroadcastChannel !== "function") { finish("alone"); return; }
  const channel = new BroadcastChannel(CHANNEL_NAME);
  channel.onmessage = (event) => {
    const data = event.data || {};
    if (typeof data.taken === "boolean") finish(data.taken ? "taken" : "refused", data.problem || null);
  };
  channel.postMessage({ reply: text });
  setTimeout(() => finish("alone"), 3000);
}

export function renderHandover(state, intents) {
  const t = state.together;
  const words = {
    handing: "Handing the reply to your inviting tab\u2026",
    taken: "Your other tab has the reply: your friend is connecting there. You can close this tab.",
    refused: t.problem || "Your other tab could not use this reply.",
    alone: "No Parlour tab on this device is waiting for this reply. If you are the host, paste this code in your invite screen:",
  };
  return h("section", { class: "screen together-screen", dataset: { testid: "handover", status: t.status } },
    h("header", { class: "screen-bar" },
      button("\u2190 Menu", { class: "quiet", onclick: intents.showMenu }), h("h1", {}, "A reply to an invitation")),
    h("p", { role: "status" }, words[t.status]),
    t.status === "alone" ? h("code", { class: "link-code" }, t.code) : null);
}

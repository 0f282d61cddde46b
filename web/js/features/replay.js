// Replay: step through a recorded match (start, back, forward, end, autoplay), drawn with
// the game's own renderer, read-only. The engine replays the record (bridge.replay) and
// returns a snapshot-shaped view at each step; once the recorded match is over the person
// may reveal every seat's hidden cards (the engine refuses that for an unfinished match).
import { h, button } from "../ui/dom.js";
import { createUi } from "../ui/kit.js";
import { cardElement } from "../ui/cards.js";
import { seatName } from "../read-snapshot.js";
import { renderLog } from "./log.js";
import { motionSpeed } from "./preferences.js";
import { checkButton, checkDialog } from "./check-deal.js";

const CARD_ID = /^(10|[2-9AJQK])[SHDC](#\d+)?$|^JK\d*$/;

const NOOP_INTENTS = {
  send() {}, why() {}, toggleCard() {}, setSelection() {},
};

/** Keys of a seat's private view in words: "hand" -> "Hand", "my_bid" -> "Bid". */
function keyWords(key) {
  const words = String(key).replace(/^my_/, "").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function valueNode(value) {
  if (Array.isArray(value) && value.length && value.every((v) => typeof v === "string" && CARD_ID.test(v))) {
    return h("span", { class: "replay-cards" }, value.map((c) => cardElement(c, { small: true })));
  }
  if (Array.isArray(value) && !value.length) return h("span", { class: "field-note" }, "none");
  if (typeof value === "string" && CARD_ID.test(value)) return cardElement(value, { small: true });
  if (value === null || value === undefined) return h("span", { class: "field-note" }, "none");
  if (typeof value === "object") return h("code", {}, JSON.stringify(value));
  return String(value);
}

function handsPanel(snapshot) {
  const hands = snapshot.replay.hands || [];
  return h("section", { class: "replay-hands", dataset: { testid: "replay-hands" }, "aria-label": "Every seat's hidden cards" },
    h("h2", {}, "All hands"),
    hands.map((seat) => {
      const entries = Object.entries(seat.private || {});
      return h("div", { class: "replay-hand", dataset: { seat: String(seat.seat) } },
        h("h3", {}, seat.name || seatName(snapshot, seat.seat)),
        entries.length ? h("dl", {}, entries.map(([key, value]) => [h("dt", {}, keyWords(key)), h("dd", {}, valueNode(value))]))
          : h("p", { class: "field-note" }, "Nothing hidden."));
    }));
}

function lastMoveText(snapshot) {
  const last = snapshot.replay.last;
  if (!last) return "The deal, before anyone moves.";
  const who = last.player === null || last.player === undefined ? "" : `${seatName(snapshot, last.player)}: `;
  return who + last.label;
}

/** The replay screen; `rs` = state.replay. */
function renderReplay(state, intents) {
  const rs = state.replay;
  const snap = rs.snapshot;
  const info = snap.replay;
  const atStart = info.step <= 0;
  const atEnd = info.step >= info.steps;
  const busy = state.busy && !rs.auto;
  const gameRoot = h("div", { class: `game-root game-${snap.game} is-replay`, dataset: { testid: "replay-table" } });
  try {
    const fake = {
      snapshot: snap, selection: new Set(), busy: true, freshAt: 0, thinking: null,
      lastMove: info.last ? { player: info.last.player, id: info.last.id, label: info.last.label, cards: info.last.cards || [], kind: info.last.kind } : null,
    };
    rs.renderer.render(gameRoot, snap, createUi(fake, NOOP_INTENTS));
  } catch (err) {
    gameRoot.append(h("p", { class: "notice" }, "This position could not be drawn; the log beside it tells the story."));
    console.warn("replay renderer failed", err);
  }
  makeReadOnly(gameRoot);
  const scores = (snap.result && snap.result.scores) || [];
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": "Replay controls" },
    button("\u00ab Start", { class: "quiet", dataset: { testid: "replay-start", focus: "replay-start" }, disabled: atStart || busy, "aria-label": "Go to the start", onclick: () => intents.replayGo(0) }),
    button("\u25c0 Back", { class: "quiet", dataset: { testid: "replay-back", focus: "replay-back" }, disabled: atStart || busy, "aria-label": "One move back", onclick: () => intents.replayGo(info.step - 1) }),
    button(rs.auto ? "Pause" : "Play \u25b6\u25b6", { class: "primary", dataset: { testid: "replay-play", focus: "replay-play" }, disabled: atEnd && !rs.auto, "aria-pressed": rs.auto ? "true" : "false", onclick: intents.replayToggleAuto }),
    button("Forward \u25b6", { class: "quiet", dataset: { testid: "replay-forward", focus: "replay-forward" }, disabled: atEnd || busy, "aria-label": "One move forward", onclick: () => intents.replayGo(info.step + 1) }),
    button("End \u00bb", { class: "quiet", dataset: { testid: "replay-end", focus: "replay-end" }, disabled: atEnd || busy, "aria-label": "Go to the end", onclick: () => intents.replayGo(info.steps) }));
  const reveal = info.finished
    ? h("label", { class: "replay-reveal" },
      h("input", { type: "checkbox", checked: info.reveal, dataset: { testid: "replay-reveal", focus: "replay-reveal" }, disabled: busy,
        onchange: (e) => intents.replayReveal(e.target.checked) }),
      " Show every hand")
    : h("p", { class: "field-note" }, "Hands stay hidden: this match is not finished.");
  return h("section", { class: "screen replay-screen table-screen", dataset: { testid: "replay", busy: state.busy ? "true" : "false" }, "aria-labelledby": "replay-title" },
    h("header", { class: "table-bar" },
      button("\u2190 Back", { class: "quiet", dataset: { testid: "replay-close", focus: "replay-close" }, onclick: intents.closeReplay }),
      h("h1", { id: "replay-title" }, `Replay: ${snap.title}`),
      h("div", { class: "bar-actions" }, info.finished ? button("Export", { class: "quiet", dataset: { testid: "replay-export" }, onclick: () => intents.exportMatch(rs.data) }) : null,
        info.finished && snap.deal ? checkButton(state, () => intents.checkDealRecord(rs.data.record), "replay-check-deal") : null)),
    h("div", { class: "status-line" },
      h("ul", { class: "scores", "aria-label": "Score at this point" }, snap.seats.map((_, i) => h("li", { class: "score" },
        h("span", { class: "score-name" }, seatName(snap, i)), " ", h("span", { class: "score-value" }, scores[i] ?? "")))),
      h("p", { class: "turn", dataset: { testid: "replay-step" }, "aria-live": "polite" },
        `Move ${info.step} of ${info.steps}`, info.step ? ` \u00b7 round ${info.round}` : "")),
    rs.error ? h("div", { class: "error-area", role: "alert", dataset: { testid: "error" } }, rs.error) : null,
    h("p", { class: "message-area", dataset: { testid: "replay-last" } }, lastMoveText(snap)),
    controls,
    h("div", { class: "table-main" },
      gameRoot,
      h("aside", { class: "side-panel", "aria-label": "Replay log" },
        reveal,
        info.reveal ? handsPanel(snap) : null,
        renderLog(snap, { highlight: info.step - 1 }))),
    checkDialog(state, intents),
  );
}

/** A replay is read-only: nothing in the game's drawing may take an action. */
function makeReadOnly(root) {
  for (const el of root.querySelectorAll("button, input, select, textarea")) {
    el.disabled = true;
  }
  for (const el of root.querySelectorAll("[data-action]")) {
    el.dataset.replayAction = el.dataset.action;
    delete el.dataset.action;
  }
  for (const el of root.querySelectorAll("[draggable]")) el.setAttribute("draggable", "false");
  const stop = (e) => { e.stopPropagation(); e.preventDefault(); };
  for (const type of ["click", "pointerdown", "dragstart", "keydown"]) root.addEventListener(type, stop, true);
}

/** The replay intents; openReplay(data, opts) answers {ok, message?} (the share feature uses it). */
function intents({ state, intents: all, engineCall, render, loadRenderer }) {
  let autoTimer = null;

  function stopAuto() {
    if (autoTimer) { clearTimeout(autoTimer); autoTimer = null; }
    if (state.replay) state.replay.auto = false;
  }

  async function fetchStep(step, reveal) {
    const rs = state.replay;
    const params = { record: rs.data.record, seats: rs.data.seats || undefined, step, reveal };
    const reply = await engineCall("replay", params, {
      current: () => state.replay === rs,
      refused: (error) => { rs.error = error.message; render(); },
    });
    if (!reply) return null;
    rs.error = null;
    rs.snapshot = reply;
    return reply;
  }

  function autoDelay() {
    const speed = motionSpeed();
    if (!(speed > 0)) return 30;
    return Math.round(700 / speed);
  }

  function scheduleAuto() {
    const rs = state.replay;
    if (!rs || !rs.auto || state.screen !== "replay") return;
    autoTimer = setTimeout(async () => {
      autoTimer = null;
      const now = state.replay;
      if (!now || !now.auto || state.screen !== "replay") return;
      const info = now.snapshot.replay;
      if (info.step >= info.steps) { stopAuto(); render(); return; }
      const reply = await fetchStep(info.step + 1, info.reveal);
      if (!reply) { stopAuto(); render(); return; }
      if (reply.replay.step >= reply.replay.steps) now.auto = false;
      render();
      scheduleAuto();
    }, autoDelay());
  }

  /** Open the replay of `data` = {record, seats?, practice?}; {ok: false, message} on a bad record. */
  async function openReplay(data, opts = {}) {
    stopAuto();
    const gameId = data && data.record && data.record.game;
    const previous = state.replay;
    state.replay = { data, snapshot: null, auto: false, error: null, renderer: null, returnTo: opts.returnTo || state.screen };
    const reply = await fetchStep(opts.step ?? 0, false);
    if (!reply) {
      const message = state.replay && state.replay.error;
      state.replay = previous;
      return { ok: false, message: message || "The match could not be replayed." };
    }
    state.replay.renderer = await loadRenderer(gameId);
    state.screen = "replay";
    render();
    return { ok: true };
  }

  return {
    openReplay,
    /** The replay of the match on the table (offered once it is over). */
    async openFinishedReplay() {
      if (state.busy || !state.snapshot) return;
      const reply = await engineCall("record");
      if (!reply) return;
      const opened = await openReplay(reply, { returnTo: "table", step: 0 });
      if (!opened.ok) { state.error = opened.message; render(); }
    },
    async replayGo(step) {
      const rs = state.replay;
      if (!rs || !rs.snapshot) return;
      stopAuto();
      const info = rs.snapshot.replay;
      await fetchStep(Math.max(0, Math.min(info.steps, step)), info.reveal);
      render();
    },
    replayToggleAuto() {
      const rs = state.replay;
      if (!rs || !rs.snapshot) return;
      if (rs.auto) { stopAuto(); render(); return; }
      const info = rs.snapshot.replay;
      if (info.step >= info.steps) return;
      rs.auto = true;
      render();
      scheduleAuto();
    },
    async replayReveal(on) {
      const rs = state.replay;
      if (!rs || !rs.snapshot) return;
      await fetchStep(rs.snapshot.replay.step, Boolean(on));
      render();
    },
    closeReplay() {
      stopAuto();
      const back = state.replay ? state.replay.returnTo : "menu";
      state.replay = null;
      if (back === "table" && state.snapshot) {
        state.screen = "table";
        render();
      } else if (back === "history") {
        state.screen = "history";
        render();
      } else {
        all.showMenu();
      }
    },
  };
}

/** Keyboard on the replay screen: arrows step, Home/End jump. */
function replayKey(state, intents, event) {
  const rs = state.replay;
  if (state.screen !== "replay" || !rs || !rs.snapshot) return;
  const target = event.target;
  if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) && target.type !== "checkbox") return;
  const info = rs.snapshot.replay;
  const steps = { ArrowLeft: info.step - 1, ArrowRight: info.step + 1, Home: 0, End: info.steps };
  if (event.key in steps) {
    event.preventDefault();
    intents.replayGo(steps[event.key]);
  }
}

export const feature = {
  state: {
    replay: null,  // {data, snapshot, auto, error, renderer, returnTo} while a replay is open
  },
  intents,
  screens: { replay: renderReplay },
  start({ state, intents: all }) {
    document.addEventListener("keydown", (event) => replayKey(state, all, event));
  },
};

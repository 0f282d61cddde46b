// Parlour's page: wires the page's state (js/app/page-state.js), the match controller and
// its engine session (js/app/match.js, js/app/engine-session.js), the screens and the
// features together. Screens are drawn from `state` alone (render() draws them afresh and
// updates the page's screen in place, ui/patch.js); input only calls intents.
//
// A feature (web/js/features/) is declared in one way: its module exports
//   feature = {
//     state:   {field: default}                    its fields of the page state
//     kept:    [field]                             those saved with the match (see match.js, keptState)
//     intents: (ctx) => ({name: fn})                what the person can ask of it
//     screens: {name: (state, intents) => Node}     the screens it draws (state.screen)
//     panels:  {slot: (state, intents) => Node}     what it adds to another screen: "side"
//                                                   (the table's side panel), "table" (the
//                                                   table's dialogs), "over" (the buttons of
//                                                   the round-over and match-over dialogs),
//                                                   "status" (a line under the table's status
//                                                   line), "menu"
//     start(ctx)                                    once, at start-up (page-wide listeners)
//     afterSnapshot(prev, snapshot, move, state)    after each new snapshot
//     afterResume(state)                            its kept fields back with a resumed match
//     afterRender(root, state)                      after each render
//   }
// (every part optional), and FEATURES below lists them. ctx = {root, state, intents, render,
// renderSoon (a render at the next frame, for engine replies), engineCall, engineReady,
// enterTable, applyRemote, loadRenderer, token, save, savedMatch, holdingBusy, mayReplaceSave,
// saveName}. A state field, intent or screen has one owner.
//
// The page first, the engine in the background: the menu, set-up, rules, statistics and
// settings are drawn at once from js/catalog.js (the engine's game listing, written by the
// build), while the worker loads the engine. Whatever needs the engine before it is ready
// (starting or resuming a match, opening a match file, a challenge link) goes through
// engineReady(): the table's frame shows the progress, and the step goes on by itself once
// the engine answers.
//
// The table has one drawing and several sources of its snapshots, behind one interface
// chosen when the table opens (state.source, js/app/table-source.js): the engine in the
// worker; before it has loaded, a prepared opening (js/openings.js: a default table's deal
// and first decision, computed by the engine at build time), which goes over to the engine
// once it has loaded; on a friend's page, the host's device (features/together/).
import { matchController, reducedMotion } from "./app/match.js";
import catalog from "./catalog.js";
import { pageState, declare } from "./app/page-state.js";
import { gameModule, rendererFor } from "./app/game-modules.js";
import { preloadAfterMenu } from "./after-menu.js";
import { fetchOpenings } from "./openings.js";
import * as storage from "./storage.js";
import { MAX_NAME } from "./read-snapshot.js";
import { h, button, clear, noteTyped, keepTyped } from "./ui/dom.js";
import { patch } from "./ui/patch.js";
import { renderMenu } from "./ui/menu.js";
import { renderSetup } from "./ui/setup.js";
import { renderRules, fetchRules } from "./ui/rules.js";
import { renderTable } from "./ui/table.js";
import { renderLoading, renderWaiting, renderFatal, setProgress } from "./ui/loading.js";
import { createUi } from "./ui/kit.js";
import { dealCards, notePlaces, playMoves, travelTime } from "./ui/motion.js";
import { fitTable, fitOnResize } from "./ui/fit.js";
import { normalizeSetup, withPlayers } from "./ui/setup-model.js";
import { motionSpeed } from "./features/preferences.js";
import { feature as settings } from "./features/settings.js";
import { feature as stats } from "./features/stats.js";
import { feature as checkDeal } from "./features/check-deal.js";
import { feature as announcer } from "./features/announce.js";
import { feature as keyboard } from "./features/keyboard.js";
import { feature as hints } from "./features/undo-hint.js";
import { feature as analysis } from "./features/analysis.js";
import { feature as log } from "./features/log.js";
import { feature as replay } from "./features/replay.js";
import { feature as share } from "./features/share.js";
import { feature as coach } from "./features/coach.js";
import { feature as together, sharedLink } from "./features/together/index.js";
import { feature as matchHistory } from "./features/history.js";
import { feature as profile } from "./features/profile.js";
import { feature as daily, forTheRecord } from "./features/daily.js";

// In this order their panels are drawn (the side panel: the coach, hints, the analysis, the
// log, then sharing).
const FEATURES = [settings, stats, announcer, keyboard, coach, hints, analysis, log, replay, share, checkDeal, together, matchHistory, profile, daily];
// What a table of another device's match shows of them (a friend's page at a shared table,
// whose source is the host: it has no engine of its own, so no analysis, no sharing of the
// host's match; its Undo and Suggest a move are answered by the host's engine).
const FRIEND_FEATURES = new Set([settings, announcer, keyboard, hints, log, checkDeal, together]);

const query = new URLSearchParams(window.location.search);
// An invitation to a shared table, or a reply to one (read before the features take it off
// the address bar): such a page needs no engine of its own.
const sharedOpening = sharedLink();
const root = document.getElementById("app");
fitOnResize(root);
// More cards than this in a hand and it is drawn in two rows (see render); on a phone more
// than PHONE_ROW (a 360 px phone's row holds 17 cards of 56 px, each after the first showing
// its corner, web/css/fit.css).
const LONG_HAND = 20;
const PHONE_ROW = 16;

const state = pageState(FEATURES, catalog);

// ----- the match on the table (js/app/match.js) and the engine (js/app/engine-session.js) -----

const { run } = state;
const match = matchController({
  state, root, features: FEATURES, render, renderSoon, refreshSave, intents: () => intents, loadRenderer: rendererFor,
});
const { engine, engineReady, enterTable } = match;
const { engineCall } = engine;

// ----- rendering ---------------------------------------------------------------------------

/** What the features add to a screen's `slot` ("side", "table", "status", "menu"), in FEATURES order. */
function panels(slot) {
  const shown = state.source && !state.source.local ? FEATURES.filter((f) => FRIEND_FEATURES.has(f)) : FEATURES;
  return shown.map((f) => (f.panels && f.panels[slot] ? f.panels[slot](state, intents) : null));
}

const screens = {
  fatal: renderFatal,
  waiting: renderWaiting,
  menu: () => renderMenu(state, intents, panels("menu"), saveName),
  setup: renderSetup,
  rules: renderRules,
  table: renderTableScreen,
};

/** Draw at the next frame, once for whatever asked meanwhile: for the redraws that engine
 * replies bring (the person's move, the computers' answers, the coach's advice, the table
 * going idle), which come several to a move.
 * What is drawn only shows at the next frame anyway; a render() before it draws the latest
 * state and this one is dropped. A table going busy is drawn at once: its buttons must be off
 * as soon as a move is sent. */
function renderSoon() {
  if (!run.frameRender) run.frameRender = requestAnimationFrame(() => { run.frameRender = 0; render(); });
}

function render() {
  if (run.frameRender) { cancelAnimationFrame(run.frameRender); run.frameRender = 0; }
  engine.showEngine();
  if (state.screen === "loading") {
    if (!root.querySelector("[data-testid=loading]")) { clear(root); root.append(renderLoading(state)); }
    setProgress(root, state.engine);
    return;
  }
  const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focus : null;
  const draw = screens[state.screen];
  const screen = draw ? draw(state, intents) : h("p", {}, "Unknown screen");
  const onTable = state.screen === "table" && run.lastScreen === "table" && !run.newDeal;
  // Where the cards were, for those that travel; with travelling off (the "Instant" speed,
  // reduced motion) nothing is measured, which spares the browser a layout per render.
  const travel = travelTime(motionSpeed(), reducedMotion());
  const places = onTable && travel > 0 ? notePlaces(root) : null;
  // A new match or round drawn for the first time deals the hands from the pile.
  const dealing = state.screen === "table" && run.newDeal && (run.lastScreen === "table" || run.freshMatch);
  if (state.screen === "table") { run.newDeal = false; run.freshMatch = false; }
  // What the person was typing survives a redraw of the same screen (a friend's reply half
  // pasted when the lobby redraws for another seat).
  const typed = state.screen === run.lastScreen ? noteTyped(root) : null;
  if (state.screen === "table") markLastMove(screen, state.lastMove);
  if (state.screen === "table" || state.screen === "replay") layHands(screen);
  // The same screen again is updated in place (ui/patch.js: only what changed is touched, the
  // focus and the scrolled lists stay); another screen, or a new match or round on the
  // table, whose hands are dealt from the pile, is put in afresh.
  const shown = root.firstElementChild;
  if (shown && state.screen === run.lastScreen && !dealing && !(state.screen === "table" && !onTable)) {
    patch(shown, screen);
    while (root.children.length > 1) root.lastElementChild.remove();
  } else {
    clear(root);
    root.append(screen);
  }
  if (typed) keepTyped(root, typed);
  if (state.screen === "table" || state.screen === "replay") fitTable(root);   // the cards sized to the window (web/js/ui/fit.js)
  const dealt = state.screen === "table" ? dealCards(root, travel, dealing) : null;
  if (places) {
    const fresh = state.moveCount !== run.shownMoves;
    playMoves(root, places, fresh ? state.lastMove : null, travel, dealt);
  }
  run.shownMoves = state.moveCount;
  if (state.screen !== run.lastScreen) {
    run.lastScreen = state.screen;
    window.scrollTo(0, 0);
    const heading = root.querySelector("h1");
    if (heading) { heading.tabIndex = -1; heading.focus({ preventScroll: true }); }
  } else if (focusKey) {
    const target = root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
    if (target && !target.disabled) target.focus({ preventScroll: true });
  }
  // The dialog on top (the last drawn) holds the focus.
  const overlays = root.querySelectorAll(".overlay");
  const top = overlays[overlays.length - 1];
  const dialog = top && top.querySelector("[data-focus]");
  if (dialog && !top.contains(document.activeElement)) dialog.focus({ preventScroll: true });
  if (state.replacing) {
    root.append(replacingDialog(state.replacing));
    root.querySelector("[data-testid=replace-dialog] [data-focus]").focus({ preventScroll: true });
  }
  if (state.screen === "waiting") setProgress(root, state.engine);
  for (const f of FEATURES) if (f.afterRender) f.afterRender(root, state);
}

/** Each hand is one overlapping fan: its card count sets the overlap (web/css/fit.css). A hand
 * too long for one row on a phone (Roundup's 26 cards at two players) is two fans, one above
 * the other, split by a line break. */
function layHands(screen) {
  for (const hand of screen.querySelectorAll(".game-root .hand")) {
    const count = hand.childElementCount;
    const perRow = count > LONG_HAND ? Math.ceil(count / 2) : count;
    // A hand of PHONE_ROW to LONG_HAND cards has its break for a phone only (web/css/fit.css).
    const phoneRow = count > PHONE_ROW ? Math.ceil(count / 2) : perRow;
    hand.style.setProperty("--n-all", String(perRow));
    hand.style.setProperty("--n-phone", String(phoneRow));
    if (perRow < count) hand.children[perRow].before(Object.assign(document.createElement("span"), { className: "hand-break" }));
    else if (phoneRow < count) hand.children[phoneRow].before(Object.assign(document.createElement("span"), { className: "hand-break is-phone-only" }));
  }
}

function renderTableScreen() {
  const gameRoot = h("div", { class: `game-root game-${state.snapshot.game}` });
  // While a round's result is up, the table stays as that round ended.
  const shown = state.roundOver && state.roundEnd ? state.roundEnd : state.snapshot;
  const ui = createUi(state, intents, shown);
  try {
    state.renderer.render(gameRoot, shown, ui);
  } catch (err) {
    // A drawing bug must not take the table down: the side panel still plays the game.
    clear(gameRoot);
    gameRoot.append(h("p", { class: "notice" }, "This table could not be drawn; use the moves listed beside it."));
    console.warn("renderer failed", err);
  }
  const confirm = typeof state.renderer.confirm === "function" ? state.renderer.confirm : null;
  return renderTable(state, intents, gameRoot, { side: panels("side"), table: panels("table"), over: panels("over"), status: panels("status"), confirm });
}

/** The latest move stays marked on the table (its cards) until the next one. */
function markLastMove(where, move) {
  const cards = new Set(move ? move.cards || [] : []);
  if (!cards.size) return;
  for (const el of where.querySelectorAll(".game-root [data-card]")) {
    if (cards.has(el.dataset.card) && !el.closest("[data-testid=hand]")) {
      el.classList.add("is-last-move");
      el.dataset.lastMove = "true";
    }
  }
}

/**
 * Resolves true when nothing saved in `slot` stands in the way of a new match there (`what`:
 * "a coached round of Roundup"), or when the person chose to abandon the saved one; false
 * when they chose to keep playing it (it is then resumed). Asked in a dialog over the screen.
 */
function mayReplaceSave(slot, what) {
  refreshSave(slot);
  if (!state.save) return Promise.resolve(true);
  return new Promise((resolve) => {
    state.replacing = {
      what,
      answer: (abandon) => {
        state.replacing = null;
        resolve(abandon);
        if (abandon) render(); else intents.resume(slot);
      },
    };
    render();
  });
}

function replacingDialog(asked) {
  const name = state.save ? saveName(state.save) : "";
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "replace-title", dataset: { testid: "replace-dialog" } },
    h("div", { class: "overlay-card" },
      h("h2", { id: "replace-title" }, `Your ${name} is in progress`),
      h("p", {}, `Starting ${asked.what} ends it: it cannot be resumed afterwards.`),
      h("div", { class: "form-actions" },
        button(`Keep playing your ${name}`, { class: "primary", dataset: { testid: "keep-playing", focus: "keep-playing" }, onclick: () => asked.answer(false) }),
        button("Abandon it", { class: "quiet-ink", dataset: { testid: "abandon-save", focus: "abandon-save" }, onclick: () => asked.answer(true) }))));
}

/** Close the rules page: back to the screen it was opened from. */
function leaveRules() {
  if (state.screen !== "rules") return;
  state.screen = state.rulesReturn === "rules" ? "menu" : state.rulesReturn || "menu";
  if (state.screen === "table" && !state.snapshot) state.screen = "menu";
  if (state.screen === "menu") refreshSave();
  render();
  if (state.screen === "table") match.runBots();
}

/** The saved matches again (state.saves), and state.save: the one in `slot` (a new match's),
 * if any. A save that could not be read is said on the menu. */
function refreshSave(slot = null) {
  const loaded = storage.loadMatches();
  if (loaded.problems.length) { state.notice = loaded.problems.join(" "); state.noticeMatch = null; }
  state.saves = loaded.saves.filter((save) => state.games.some((g) => g.id === save.game));
  state.save = (slot && state.saves.find((save) => save.slot === slot)) || null;
}

/** How a save is named to the person: "Crisps match", "coached round of Crisps". */
function saveName(save) {
  const title = save.title || save.game;
  return save.slot === storage.matchSlot(save.game, true) ? `coached round of ${title}` : `${title} match`;
}

// ----- intents: what the person asked for ---------------------------------------------------

const intents = {
  showMenu() {
    run.matchToken += 1;
    state.screen = "menu";
    state.error = null;
    refreshSave();
    render();
  },
  openSetup(gameId) {
    const spec = state.games.find((g) => g.id === gameId);
    if (!spec) return;
    run.matchToken += 1;
    state.setupGame = gameId;
    state.setup = normalizeSetup(spec, state.levels, storage.loadSetup(gameId));
    state.screen = "setup";
    refreshSave(storage.matchSlot(gameId));   // this game's match in progress is named before a new one would replace it
    state.error = null;
    render();
    // The table's drawing for this game is fetched now, while the person sets up the match,
    // not after the start (a round trip less before the first move).
    gameModule(gameId).catch(() => { /* rendererFor() falls back when it starts */ });
  },
  updateSetup(change) {
    const spec = state.games.find((g) => g.id === state.setupGame);
    state.setup = normalizeSetup(spec, state.levels, { ...state.setup, ...change });
    storage.saveSetup(state.setupGame, state.setup);
    render();
  },
  /** A seat's name typed on the set-up screen: kept and remembered, no re-render. */
  renameSeat(seat, name) {
    if (!state.setup || !state.setup.seats[seat]) return;
    state.setup.seats[seat].name = String(name).slice(0, MAX_NAME);
    storage.saveSetup(state.setupGame, state.setup);
  },
  setPlayers(n) {
    const spec = state.games.find((g) => g.id === state.setupGame);
    state.setup = withPlayers(spec, state.levels, state.setup, n);
    storage.saveSetup(state.setupGame, state.setup);
    render();
  },
  async startMatch() {
    await match.startNew(state.setupGame, state.setup);
  },
  async playAgain() {
    const ms = state.matchSetup;
    if (!ms || !state.source.local) return;
    // After a coached round the new match goes to the game's own slot: a match saved there is not ended unasked.
    const slot = storage.matchSlot(ms.game);
    if (state.saveSlot !== slot && !(await mayReplaceSave(slot, `a new ${state.snapshot ? state.snapshot.title : ms.game} match`))) return;
    await match.startNew(ms.game, ms.setup || match.setupFromSnapshot(state.snapshot));
  },
  async openRules(gameId) {
    if (state.screen !== "rules") {
      state.rulesReturn = state.screen;
      // The browser's Back button closes the rules page (see the popstate listener below)
      // instead of leaving the site.
      try { history.pushState({ parlour: "rules" }, ""); } catch { /* Back then leaves, as before */ }
    }
    state.screen = "rules";
    state.rulesGame = gameId;
    state.rulesContent = run.rules.get(gameId);
    render();
    if (!run.rules.has(gameId)) {
      let content;
      try { content = await fetchRules(gameId); } catch { content = null; }
      run.rules.set(gameId, content);
      if (state.screen === "rules" && state.rulesGame === gameId) { state.rulesContent = content; render(); }
    }
  },
  closeRules() {
    // Opened with a history entry: going back through it closes the page (popstate).
    if (history.state && history.state.parlour === "rules") { history.back(); return; }
    leaveRules();
  },
  async send(actionId) {
    if (state.busy || !state.snapshot) return;
    await state.source.act(actionId);
  },
  async why(actionId) {
    await state.source.why(actionId);
  },
  async undo() {
    if (state.busy || forTheRecord(state)) return;
    await state.source.undo();
  },
  toggleCard(cardId) {
    const next = new Set(state.selection);
    if (next.has(cardId)) next.delete(cardId); else next.add(cardId);
    state.selection = next;
    state.error = null;
    render();
  },
  setSelection(cards) {
    state.selection = new Set(cards);
    state.error = null;
    render();
  },
  continueRound() {
    match.continueRound();
  },
  /** Put the round-over dialog aside to look at the table as the round ended, or bring it back. */
  toggleRoundTable() {
    state.roundTable = !state.roundTable;
    render();
  },
  handoffReady() {
    state.shownViewer = state.handoffTo;
    state.handoffTo = null;
    render();
  },
  /** Resume the match saved in `slot` (the set-up's game's when not given). */
  async resume(slot) {
    const save = typeof slot === "string" ? state.saves.find((s) => s.slot === slot) : state.save;
    if (!save || state.busy) return;
    const waiting = { title: save.title || save.game, message: "Your match comes back as soon as the game engine is ready." };
    if (!(await engineReady(waiting))) return;
    const reply = await engineCall("load", save.data, {
      refused: (error) => {
        match.leaveWaiting();
        storage.setAsideMatch(save.slot);
        refreshSave();
        state.notice = `Your saved ${saveName(save)} could not be resumed by this version of Parlour (${error.message}), so it was set aside. You can keep it as a file.`;
        state.noticeMatch = { data: save.data, title: save.title || null };
        render();
      },
    });
    if (!reply) return;
    await enterTable(reply, reply.game, save.setup || match.setupFromSnapshot(reply), save.page, null, save.slot);
    state.message = "Welcome back: your match is where you left it.";
    render();
  },
  /** Discard the match saved in `slot`. */
  discardSave(slot) {
    storage.clearMatch(slot);
    refreshSave();
    state.notice = null;
    state.noticeMatch = null;
    render();
  },
  reload() {
    window.location.reload();
  },
  /** Load the engine again, in a new worker, after it failed to load. */
  retryEngine() {
    if (state.engine.status === "failed") engine.loadEngine();
  },
};

const context = {
  root, state, intents, render, renderSoon, engineCall, engineReady, startEngine: () => engine.whenReady(), enterTable,
  applyRemote: match.applyRemote, loadRenderer: rendererFor, token: () => run.matchToken, mayReplaceSave, saveName,
  savedMatch: match.savedMatch, save: match.save, holdingBusy: match.holdingBusy,
};
for (const f of FEATURES) {
  if (f.intents) declare(intents, "intent", f.intents(context));
  declare(screens, "screen", f.screens);
}
for (const f of FEATURES) if (f.start) f.start(context);

// ----- start-up ------------------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && state.screen === "rules") intents.closeRules();
});
// The browser's Back button on the rules page returns to the screen it was opened from.
window.addEventListener("popstate", () => {
  if (state.screen === "rules") leaveRules();
});

function boot() {
  if (query.get("test") === "1") window.__parlourTest = engine.testHooks();
  // The worker starts now; the menu does not wait for it. A page opened from an invitation to
  // a shared table (or a reply to one) needs none: the host's engine deals.
  if (!sharedOpening) {
    engine.loadEngine();
    fetchOpenings();  // a first decision before the engine has loaded (js/openings.js)
  }
  refreshSave();
  render();
  preloadAfterMenu();
  intents.checkChallenge();
}

boot();

// Parlour's page: wires the engine client, the storage manager, the screens and the features
// together. Screens are drawn from `state` alone (render() rebuilds them); input only calls
// intents.
//
// A feature (web/js/features/) is declared in one way: its module exports
//   feature = {
//     state:   {field: default}                    its fields of the page state
//     kept:    [field]                             those saved with the match (see keptState)
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
// enterTable, loadRenderer, token, save, mayReplaceSave, saveName}. A state field, intent or screen has one owner.
//
// The page first, the engine in the background: the menu, set-up, rules, statistics and
// settings are drawn at once from js/catalog.js (the engine's game listing, written by the
// build), while the worker loads the engine. Whatever needs the engine before it is ready
// (starting or resuming a match, opening a match file, a challenge link) goes through
// engineReady(): the table's frame shows the progress, and the step goes on by itself once
// the engine answers.
//
// The table has one drawing and several sources of its snapshots (state.source): the
// engine in the worker, and before it has loaded, a prepared opening (js/openings.js: a
// default table's deal and first decision, computed by the engine at build time), which
// goes over to the engine once it has loaded (handOver).
import catalog from "./catalog.js";
import { engineSession } from "./app/engine-session.js";
import { preloadAfterMenu } from "./after-menu.js";
import { fetchOpenings, openingsFor, pickOpening, recordWith } from "./openings.js";
import * as storage from "./storage.js";
import { MAX_NAME, cardsReceived, humanSeats, roundLeaders, roundsOf, seatName, sentence } from "./read-snapshot.js";
import { h, button, clear, noteTyped, keepTyped } from "./ui/dom.js";
import { cardText } from "./ui/cards.js";
import { renderMenu } from "./ui/menu.js";
import { renderSetup } from "./ui/setup.js";
import { renderRules, fetchRules } from "./ui/rules.js";
import { renderTable, setThinking } from "./ui/table.js";
import { renderLoading, renderWaiting, renderFatal, setProgress } from "./ui/loading.js";
import { createUi } from "./ui/kit.js";
import { pruneSelection } from "./ui/selection.js";
import { dealCards, landed, notePlaces, playMoves, travelTime } from "./ui/motion.js";
import { fitTable, fitOnResize } from "./ui/fit.js";
import { normalizeSetup, withPlayers, startParams, rotationFor, randomSeed, hasFriends } from "./ui/setup-model.js";
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
import { feature as together, isFriend, sharedLink } from "./features/together/index.js";
import { feature as matchHistory } from "./features/history.js";
import { feature as profile } from "./features/profile.js";
import { feature as daily, forTheRecord } from "./features/daily.js";

// In this order their panels are drawn (the side panel: the coach, hints, the analysis, the
// log, then sharing).
const FEATURES = [settings, stats, announcer, keyboard, coach, hints, analysis, log, replay, share, checkDeal, together, matchHistory, profile, daily];
// What a friend's page shows of them (it has no engine of its own: no analysis, no sharing of
// the host's match; its Undo and Suggest a move are answered by the host's engine).
const FRIEND_FEATURES = new Set([settings, announcer, keyboard, hints, log, checkDeal, together]);

const query = new URLSearchParams(window.location.search);
// An invitation to a shared table, or a reply to one (read before the features take it off
// the address bar): such a page needs no engine of its own.
const sharedOpening = sharedLink();
// Asked each time: the preference can change while the page is open.
const reduceMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
const reducedMotion = () => Boolean(reduceMotion && reduceMotion.matches);

/** Pause before a bot moves so a person can follow the play (?speed= or the Speed setting). */
function botDelay() {
  const speed = motionSpeed();
  if (!(speed > 0)) return 0;
  return Math.round((reducedMotion() ? 150 : 600) / speed);
}

/** Draw a move now and wait for its cards to land (at once at "Instant" or with reduced
 * motion): the table goes idle, or the next computer moves, only after that. */
async function drawLanded() {
  if (!(travelTime(motionSpeed(), reducedMotion()) > 0)) { renderSoon(); return; }
  render();
  await landed();
}

const root = document.getElementById("app");
fitOnResize(root);
// More cards than this in a hand and it is drawn in two rows (see render).
const LONG_HAND = 20;

/** The page's state: these fields, and those the features declare (see `declare`). */
const state = {
  screen: "menu",         // menu | setup | rules | waiting | table | loading | fatal, or a feature's screen
  // The engine: loading in the background from the start, then ready, or failed to load
  // (problem: {title, message, detail}); fraction and message follow its loading.
  engine: { status: "loading", fraction: 0, message: "Loading the game engine", problem: null },
  waiting: null,          // {title, message}: what the waiting table starts once the engine is ready
  fatal: null,            // {title, message, detail}
  games: catalog.games,   // the engine's games and bot levels (bridge.games(), via js/catalog.js)
  levels: catalog.levels,
  ladder: catalog.ladder, // what the arena measured of each level (benchmarks/ladder.json)
  notice: null,           // a message on the menu (e.g. a save set aside)
  noticeMatch: null,      // {data, title}: the match the notice is about, offered as a file
  saves: [],             // the saved matches offered for resuming (one a slot, see storage.js), the latest first
  save: null,             // of those, the one a new match would replace: the set-up's game's
  saveSlot: null,         // the slot the match on the table is saved in (storage.matchSlot)
  unsaved: false,         // the match on the table could not be saved (storage full or off)
  setupGame: null, setup: null,                         // the set-up screen's game and choices
  rulesGame: null, rulesContent: undefined, rulesReturn: "menu",
  snapshot: null,         // the bridge's snapshot of the match on the table
  source: "engine",       // where it came from: "engine", "opening" (a prepared opening, see js/openings.js)
                          // or "host" (a friend's seat at a shared table, see features/together/)
  matchSetup: null,       // {game, setup}: how that match was set up (for "Play again")
  renderer: null,         // its game module (web/js/games/<id>.js)
  selection: new Set(),   // the cards the person has selected
  error: null,            // the engine's refusal or a problem, in the error area
  message: null,          // the latest move in words, or another message on the table
  lastMove: null, freshAt: 0,                           // the latest move and when it came
  moveCount: 0,           // moves drawn since the page opened (a card travels once per move)
  thinking: null,         // the seat a bot is thinking for
  thinkingFraction: null, // how far the thinking bot's search is (0..1), once it reports
  roundOver: null,        // {title, lines} while the round-over dialog shows
  roundEnd: null,         // the snapshot of the table as that round left it (shown until Continue)
  roundTable: false,      // the person put the round-over dialog aside to look at the table
  received: [],           // cards that came into the person's hand since their last move
  handoffTo: null,        // pass and play: the seat the device goes to next
  shownViewer: null,      // pass and play: the seat whose cards are showing
  busy: false,            // a request or the bots' turns are under way
  replacing: null,        // {what, answer}: asking whether to abandon the saved match for `what`
};

/** Add each feature's part of `target` (state fields, intents, screens); one owner each. */
function declare(target, what, part) {
  for (const [name, value] of Object.entries(part || {})) {
    if (Object.hasOwn(target, name)) throw new Error(`${what} "${name}" is declared twice`);
    target[name] = value;
  }
}
for (const f of FEATURES) declare(state, "state field", f.state);

let botLoopRunning = false;
let matchToken = 0;
let lastScreen = null;
let shownMoves = 0;     // state.moveCount when the table was last drawn
let newDeal = false;    // the next table drawn is a new match or round: no card travels into it
let freshMatch = false; // ...and it is a match at its first move, from the engine: its hands are dealt
let heldOpening = null; // the prepared opening on the table, until the engine has it: {record, token}
const rulesCache = new Map();
const renderers = new Map();

// ----- talking to the engine (js/app/engine-session.js) -----------------------------------

const engine = engineSession({
  state, root, render, intents: () => intents, busyChanged: () => updateBusy(),
  stopMatch: () => { matchToken += 1; }, restore: restoreAfterRestart, started: (current) => handOver(current),
});
const { call, engineCall } = engine;

/** Steps under way that span several requests (a move, its save, handing over to the bots). */
let holds = 0;

/** Keep the table busy through the whole of ``work``: between its requests the person could
 * otherwise act on a table that is about to change (a reply drawn before the bots start). */
async function holdingBusy(work) {
  holds += 1;
  updateBusy();
  try { return await work(); } finally { holds -= 1; updateBusy(); }
}

/**
 * Resolves true once the engine is ready, at once if it is. Before that the table's frame
 * shows the engine's progress (`waiting` = {title, message}: what is coming), or its failure
 * with a retry, until the engine answers. False when the person went elsewhere meanwhile.
 */
function engineReady(waiting) {
  if (engine.client) return Promise.resolve(true);
  const ready = engine.whenReady();
  matchToken += 1;
  const token = matchToken;
  Object.assign(state, { screen: "waiting", waiting, error: null });
  render();
  return ready.then(() => token === matchToken && state.screen === "waiting");
}

/** A waiting table whose request the engine refused: back to the menu, which says why. */
function leaveWaiting() {
  if (state.screen === "waiting") state.screen = "menu";
}

/** Draw the table busy (at once) or idle (at the next frame, with whatever else the replies
 * bring) when that changed; true if it did or will. */
function updateBusy() {
  const busy = engine.pending > 0 || holds > 0 || botLoopRunning;
  if (busy === state.busy) return false;
  state.busy = busy;
  if (busy) render(); else renderSoon();
  return true;
}

/** After the engine was restarted: the match on the table back from its save when
 * `resumeMatch`, else the menu, saying what happened. */
async function restoreAfterRestart(resumeMatch) {
  const saved = resumeMatch && state.saveSlot ? storage.loadMatch(state.saveSlot) : null;
  const save = saved && saved.ok ? saved.save : null;
  if (save) {
    const reply = await call("load", save.data);
    if (reply && !reply.error) {
      await enterTable(reply, reply.game, save.setup || setupFromSnapshot(reply), save.page, null, save.slot);
      state.message = "The game engine stopped and was restarted: your match is exactly where it was.";
      render();
      return;
    }
  }
  state.screen = "menu";
  refreshSave();
  state.notice = "The game engine stopped and was restarted.";
  state.noticeMatch = null;
  render();
}

// ----- rendering ---------------------------------------------------------------------------

/** What the features add to a screen's `slot` ("side", "table", "status", "menu"), in FEATURES order. */
function panels(slot) {
  const shown = isFriend(state) ? FEATURES.filter((f) => FRIEND_FEATURES.has(f)) : FEATURES;
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
let frameRender = 0;
function renderSoon() {
  if (!frameRender) frameRender = requestAnimationFrame(() => { frameRender = 0; render(); });
}

function render() {
  if (frameRender) { cancelAnimationFrame(frameRender); frameRender = 0; }
  engine.showEngine();
  if (state.screen === "loading") {
    if (!root.querySelector("[data-testid=loading]")) { clear(root); root.append(renderLoading(state)); }
    setProgress(root, state.engine);
    return;
  }
  const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focus : null;
  const draw = screens[state.screen];
  const screen = draw ? draw(state, intents) : h("p", {}, "Unknown screen");
  const onTable = state.screen === "table" && lastScreen === "table" && !newDeal;
  // Where the cards were, for those that travel; with travelling off (the "Instant" speed,
  // reduced motion) nothing is measured, which spares the browser a layout per render.
  const travel = travelTime(motionSpeed(), reducedMotion());
  const places = onTable && travel > 0 ? notePlaces(root) : null;
  // A new match or round drawn for the first time deals the hands from the pile.
  const dealing = state.screen === "table" && newDeal && (lastScreen === "table" || freshMatch);
  if (state.screen === "table") { newDeal = false; freshMatch = false; }
  // What the person was typing survives a redraw of the same screen (a friend's reply half
  // pasted when the lobby redraws for another seat).
  const typed = state.screen === lastScreen ? noteTyped(root) : null;
  clear(root);
  root.append(screen);
  if (typed) keepTyped(root, typed);
  if (state.screen === "table") markLastMove(root, state.lastMove);
  if (state.screen === "table" || state.screen === "replay") {
    // Each hand is one overlapping fan: its card count sets the overlap (web/css/fit.css). A hand
    // too long for one row on a phone (Roundup's 26 cards at two players) is two fans, one above the
    // other, split by a line break.
    for (const hand of root.querySelectorAll(".game-root .hand")) {
      const count = hand.childElementCount;
      const perRow = count > LONG_HAND ? Math.ceil(count / 2) : count;
      hand.style.setProperty("--n", String(perRow));
      if (perRow < count) hand.children[perRow].before(Object.assign(document.createElement("span"), { className: "hand-break" }));
    }
    fitTable(root);   // the cards sized to the window (web/js/ui/fit.js)
  }
  const dealt = state.screen === "table" ? dealCards(root, travel, dealing) : null;
  if (places) {
    const fresh = state.moveCount !== shownMoves;
    playMoves(root, places, fresh ? state.lastMove : null, travel, dealt);
  }
  shownMoves = state.moveCount;
  if (state.screen !== lastScreen) {
    lastScreen = state.screen;
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

/** The game's own module, web/js/games/<id>.js (a promise; it rejects for a game without one).
 * Named one by one: a template import() makes esbuild ship its lookup helper as a chunk of its
 * own, one more file before the menu. */
const GAME_MODULES = {
  roundup: () => import("./games/roundup.js"),
  progression: () => import("./games/progression.js"),
  mhing: () => import("./games/mhing.js"),
  crisps: () => import("./games/crisps.js"),
  spite: () => import("./games/spite.js"),
};
const gameModule = (gameId) => (GAME_MODULES[gameId] ? GAME_MODULES[gameId]() : Promise.reject(new Error(`no module for ${gameId}`)));

/** The game's module (web/js/games/<id>.js), or the plain table of games/generic.js. */
async function rendererFor(gameId) {
  if (renderers.has(gameId)) return renderers.get(gameId);
  let mod;
  try {
    mod = await gameModule(gameId);
  } catch {
    mod = await import("./games/generic.js");
  }
  renderers.set(gameId, mod);
  return mod;
}

// ----- snapshots, moves, bots ---------------------------------------------------------------

function applySnapshot(snap, move) {
  const prev = state.snapshot;
  state.snapshot = snap;
  const hand = snap.view && Array.isArray(snap.view.hand) ? snap.view.hand : [];
  state.selection = pruneSelection(state.selection, hand);
  if (move) {
    state.lastMove = { player: move.player, id: move.id, label: move.label, cards: move.cards || [], kind: move.kind };
    state.message = moveMessage(snap, move, prev);
    state.lastMove.text = state.message;
    state.freshAt = performance.now();
    state.moveCount += 1;
  }
  if (prev && prev.game === snap.game && roundsOf(snap) > roundsOf(prev) && !snap.is_over) {
    state.roundOver = roundSummary(prev, snap);
    state.roundEnd = snap.round_end ? roundEndSnapshot(snap) : null;
    state.roundTable = false;
  }
  const humans = humanSeats(snap).length;
  if (humans > 1 && snap.human_turn && snap.viewer !== state.shownViewer && !snap.is_over) state.handoffTo = snap.viewer;
  else if (humans <= 1) state.shownViewer = snap.viewer;
  for (const f of FEATURES) if (f.afterSnapshot) f.afterSnapshot(prev, snap, move, state);
}

/** The table as the round left it: the engine's round_end view, nobody to move. */
function roundEndSnapshot(snap) {
  return {
    ...snap, view: snap.round_end.view, legal: [], current_player: null, human_turn: false, bot_turn: false,
    round_over: true,   // nobody is to play on it: the renderers show no turn
  };
}

function moveMessage(snap, move, prev) {
  const mod = state.renderer;
  let text = null;
  if (mod && typeof mod.describeMove === "function") {
    try { text = mod.describeMove(move, snap, (seat) => seatName(snap, seat)); } catch { /* fall through */ }
  }
  text = text || `${seatName(snap, move.player)}: ${move.label}`;
  // What came into the person's hand since their last move stays told until they move again.
  if (move.player === snap.viewer || !prev || roundsOf(prev) !== roundsOf(snap)) state.received = [];
  const hand = new Set(snap.view && Array.isArray(snap.view.hand) ? snap.view.hand : []);
  const received = [...new Set([...state.received, ...cardsReceived(prev, snap)])].filter((c) => hand.has(c));
  state.received = received;
  const named = received.filter((c) => !text.includes(cardText(c)));
  if (!named.length) return text;
  // Another seat's move did not give them: they are only new since it (a refill, a deal).
  return `${text}. ${move.player === snap.viewer ? "You receive" : "New in your hand:"} ${named.map(cardText).join(" ")}`;
}

function roundSummary(prev, snap) {
  const mod = state.renderer;
  if (mod && typeof mod.roundSummary === "function") {
    try { const s = mod.roundSummary(prev, snap, (seat) => seatName(snap, seat)); if (s) return s; } catch { /* fall through */ }
  }
  const names = roundLeaders(prev, snap).map((i) => seatName(snap, i));
  return {
    title: `Round ${roundsOf(snap)} is over`,
    lines: names.length ? [`${names.join(" and ")} scored the most this round.`] : [],
  };
}

/** What the page keeps with a saved match beside the engine's record: the features' `kept`
 * state fields, and whether the round-over dialog is up. */
function keptState() {
  const kept = { roundOver: Boolean(state.roundOver) };
  for (const f of FEATURES) for (const name of f.kept || []) kept[name] = state[name];
  return kept;
}

/** A resumed match's page state (keptState) back: the features' fields, and the round-over
 * dialog over the table as that round ended when it was up at the save. */
async function restoreKept(kept, token) {
  for (const f of FEATURES) {
    for (const name of f.kept || []) {
      const value = kept[name];
      if (value !== undefined && typeof value === typeof state[name] && Array.isArray(value) === Array.isArray(state[name])) state[name] = value;
    }
  }
  for (const f of FEATURES) if (f.afterResume) f.afterResume(state);
  const snap = state.snapshot;
  if (kept.roundOver !== true || !snap || snap.is_over) return;
  const reply = await engineCall("round_end", {}, { current: () => token === matchToken, refused: () => {} });
  if (!reply || !reply.view) return;
  snap.round_end = reply;
  state.roundOver = roundSummary(snap, snap);
  state.roundEnd = roundEndSnapshot(snap);
  state.roundTable = false;
}

/** Save the match on the table after a move (a refusal only means no save this time):
 * `saved`, the save a move's reply brought (bridge: {save: true}), or savedMatch(). */
async function persist(token, saved = null) {
  const snap = state.snapshot;
  if (!snap || isFriend(state)) return;
  if (snap.is_over) { storage.clearMatch(state.saveSlot); noteSaved(true); return; }
  const reply = saved || await savedMatch(() => token === matchToken);
  if (!reply) return;
  noteSaved(storage.saveMatch(state.saveSlot, snap.game, snap.title, reply, state.matchSetup ? state.matchSetup.setup : null, keptState()));
}

/** The latest move's save, {snap, saved}: what record() answers while `snap` is on the table. */
let latestSave = null;

/** The save a move's reply brought (`snap`: its snapshot, the reply itself for act and undo),
 * taken off the reply and kept as the latest. */
function takeSave(reply, snap = reply) {
  const saved = reply.save || null;
  delete reply.save;
  latestSave = saved ? { snap, saved } : null;
  return saved;
}

/** The saved form of the match on the table ({record, seats, practice}, or null): the
 * latest move's save when it is of the snapshot shown, else the engine's record (dropped
 * once `current()` is false). */
function savedMatch(current) {
  const snap = state.snapshot;
  if (latestSave && snap && latestSave.snap === snap) return Promise.resolve(latestSave.saved);
  return engineCall("record", {}, { current, refused: () => {} });
}

/** Whether the latest save worked: a failed one (storage full or turned off) puts the table's
 * notice up, the next one that works takes it down; each move tries again. */
function noteSaved(saved) {
  if (state.unsaved === !saved) return;
  state.unsaved = !saved;
  renderSoon();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const THINKING_SHOWN_AFTER_MS = 150;

async function runBots() {
  if (botLoopRunning) return;
  botLoopRunning = true;
  updateBusy();
  const token = matchToken;
  const going = () => token === matchToken && state.screen === "table" && state.snapshot
    && state.snapshot.bot_turn && !state.roundOver;
  try {
    while (going()) {
      state.thinking = state.snapshot.current_player;
      state.thinkingFraction = null;
      // Who is thinking shows at once when the computer takes its time on purpose (the speed
      // setting); at "Instant" only if it has not moved within a moment, so a quick move is
      // drawn once, not twice.
      const delay = botDelay();
      const shown = delay > 0 ? (render(), null)
        : setTimeout(() => { if (state.thinking !== null && token === matchToken) render(); }, THINKING_SHOWN_AFTER_MS);
      await sleep(delay);
      if (!going()) { clearTimeout(shown); break; }
      // One request a move: the reply brings the round's end and the save with it.
      const reply = await engineCall("bot_move", { save: true }, {
        current: () => token === matchToken,
        onProgress: (fraction) => showThinking(token, fraction),
      });
      clearTimeout(shown);
      if (!reply) break;
      state.thinking = null;
      state.thinkingFraction = null;
      const saved = takeSave(reply, reply.snapshot);
      applySnapshot(reply.snapshot, reply.action);
      await persist(token, saved);
      // At "Instant" a computer's move that another computer's follows at once is drawn with
      // that one (it would show for a few milliseconds); the log and the announcer have it.
      // Otherwise its cards land before the next move or the person's turn.
      if (delay > 0) await drawLanded();
      else if (!going()) renderSoon();
    }
  } finally {
    botLoopRunning = false;
    state.thinking = null;
    state.thinkingFraction = null;
    if (!updateBusy()) renderSoon();
  }
}

/** A searching bot's progress: the bar is updated in place (a render per report would
 * rebuild the whole table several times a second); drawn by a render the first time. */
function showThinking(token, fraction) {
  if (token !== matchToken || state.thinking === null || state.screen !== "table") return;
  state.thinkingFraction = Math.max(0, Math.min(1, Number(fraction) || 0));
  if (!setThinking(root, state.thinkingFraction)) render();
}

/** Put a match on the table: `snap`, from the engine, or from a prepared opening when
 * `opening` is given (then its record is kept as the save, and the engine gets it later).
 * It is saved in `slot` (storage.matchSlot: the game's own, or its coached round's). */
async function enterTable(snap, gameId, setup, kept = null, opening = null, slot = storage.matchSlot(gameId)) {
  matchToken += 1;
  const token = matchToken;
  state.renderer = await rendererFor(gameId);
  if (token !== matchToken) return;
  newDeal = true;
  freshMatch = !kept && !opening && !(snap.moves > 0);
  heldOpening = opening ? { record: opening.record, token } : null;
  Object.assign(state, {
    source: opening ? "opening" : isFriend(state) ? "host" : "engine", saveSlot: slot,
    screen: "table", snapshot: null, matchSetup: { game: gameId, setup }, selection: new Set(),
    error: null, message: null, lastMove: null, freshAt: 0, roundOver: null, roundEnd: null, roundTable: false, received: [], handoffTo: null, shownViewer: null, notice: null,
    noticeMatch: null, unsaved: false,
  });
  applySnapshot(snap, null);
  if (kept) await restoreKept(kept, token);
  if (token !== matchToken) return;
  render();
  if (opening) {
    noteSaved(storage.saveMatch(slot, snap.game, snap.title, opening.record, setup, keptState()));
    return;
  }
  await holdingBusy(async () => {
    await landed();   // the hands are dealt before anyone moves
    await persist(token);
    runBots();   // the bots' loop holds the table busy from here, before this hold ends
  });
}

function setupFromSnapshot(snap) {
  const spec = state.games.find((g) => g.id === snap.game);
  const raw = { players: snap.players, seats: snap.seats.map((s) => ({ type: s.type, level: s.level })), options: snap.options, order: "random" };
  return spec ? normalizeSetup(spec, state.levels, raw) : raw;
}

/** The person's move: the engine's reply, drawn, saved, then the bots' turns. */
async function sendMove(actionId) {
  const token = matchToken;
  const taken = (state.snapshot.legal || []).find((a) => a.id === actionId);
  if (heldOpening && taken) {
    // The engine is still loading: the move waits for it, kept with the save meanwhile.
    const snap = state.snapshot;
    noteSaved(storage.saveMatch(state.saveSlot, snap.game, snap.title, recordWith(heldOpening.record, actionId), state.matchSetup.setup, keptState()));
    state.message = "Your move is in: the game engine takes it as soon as it has loaded.";
    render();
  }
  const reply = await engineCall("act", { action: actionId, save: true }, {
    current: () => token === matchToken,
    refused: (error) => { state.error = sentence(error.message); render(); },
  });
  if (!reply) return;
  state.error = null;
  state.selection = new Set();
  let move = taken || { player: state.snapshot.viewer, id: actionId, label: actionId, cards: [] };
  if (reply.viewer !== move.player) {
    // Pass-and-play: the next person must not read the previous one's move in that
    // person's own words (a secret bid, a drawn card); show the log's public text instead.
    const entries = reply.log || [];
    const last = entries[entries.length - 1];
    if (!last || last.text !== move.label) {
      move = { player: move.player, id: null, label: last ? last.text : "", cards: [], kind: move.kind };
    }
  }
  const saved = takeSave(reply);
  applySnapshot(reply, move);
  await persist(token, saved);
  await drawLanded();
  runBots();
}

/** Take back the person's last move. */
async function undoMove() {
  const token = matchToken;
  const reply = await engineCall("undo", { save: true }, { current: () => token === matchToken });
  if (!reply) return;
  const saved = takeSave(reply);
  state.error = null;
  state.message = "Move taken back.";
  applySnapshot(reply, null);
  render();
  await persist(token, saved);
  runBots();
}

async function startNew(gameId, setup) {
  if (state.busy) return;
  storage.saveSetup(gameId, setup);
  state.error = null;
  if (await startFromOpening(gameId, setup)) return;
  const spec = state.games.find((g) => g.id === gameId);
  const waiting = { title: spec ? spec.title : gameId, message: "Your match starts as soon as the game engine is ready." };
  if (!(await engineReady(waiting))) return;
  const seed = randomSeed();
  let reply = await engineCall("start", startParams(gameId, setup, seed, 0));
  if (!reply) return;
  const rotation = rotationFor(setup, reply.current_player, 0);
  if (rotation !== 0) {
    reply = await engineCall("start", startParams(gameId, setup, seed, rotation));
    if (!reply) return;
  }
  // With friends' seats the match waits in the lobby until every friend has joined.
  if (hasFriends(reply)) { intents.openLobby(reply, gameId, setup); return; }
  await enterTable(reply, gameId, setup);
}

/** While the engine is loading: the table from one of the game's prepared openings when
 * `setup` is the table they were prepared for (js/openings.js); false when there is none. */
async function startFromOpening(gameId, setup) {
  if (engine.client || state.engine.status !== "loading") return false;
  const opening = pickOpening(await openingsFor(gameId), startParams(gameId, setup, 0, 0));
  if (!opening) return false;
  await rendererFor(gameId);
  if (engine.client) return false;  // the engine came meanwhile: it starts the match
  await enterTable(structuredClone(opening.snapshot), gameId, setup, null, opening);
  return true;
}

/** The engine has loaded: a prepared opening on the table goes over to it. The engine
 * replays its record (and answers with the same snapshot); a first decision the person
 * made meanwhile is a request queued behind this one. */
function handOver(current) {
  const held = heldOpening;
  heldOpening = null;
  if (!held || held.token !== matchToken || state.source !== "opening") return;
  const mine = () => held.token === matchToken && state.source === "opening";
  current.call("load", held.record).then((reply) => {
    if (!mine()) return;
    if (reply.error) {
      matchToken += 1;
      Object.assign(state, { screen: "menu", source: "engine", notice: `That deal could not be carried on (${reply.error.message}): start a new match.` });
      storage.clearMatch(state.saveSlot);
      refreshSave();
      render();
      return;
    }
    state.source = "engine";
    // Drawn unless the person's first decision is on its way: its reply is drawn then.
    if (!engine.pending && !holds) applySnapshot(reply, null);
    renderSoon();
  }, () => { /* a dead worker is dealt with by the engine session (js/app/engine-session.js) */ });
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
  if (state.screen === "table") runBots();
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
    matchToken += 1;
    state.screen = "menu";
    state.error = null;
    refreshSave();
    render();
  },
  openSetup(gameId) {
    const spec = state.games.find((g) => g.id === gameId);
    if (!spec) return;
    matchToken += 1;
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
    await startNew(state.setupGame, state.setup);
  },
  async playAgain() {
    const ms = state.matchSetup;
    if (!ms || isFriend(state)) return;
    // After a coached round the new match goes to the game's own slot: a match saved there is not ended unasked.
    const slot = storage.matchSlot(ms.game);
    if (state.saveSlot !== slot && !(await mayReplaceSave(slot, `a new ${state.snapshot ? state.snapshot.title : ms.game} match`))) return;
    await startNew(ms.game, ms.setup || setupFromSnapshot(state.snapshot));
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
    state.rulesContent = rulesCache.get(gameId);
    render();
    if (!rulesCache.has(gameId)) {
      let content;
      try { content = await fetchRules(gameId); } catch { content = null; }
      rulesCache.set(gameId, content);
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
    if (isFriend(state)) { await holdingBusy(() => intents.remoteAct(actionId)); return; }
    await holdingBusy(() => sendMove(actionId));
  },
  async why(actionId) {
    if (isFriend(state)) { await intents.remoteWhy(actionId); return; }
    const reply = await engineCall("why", { action: actionId });
    if (!reply) return;
    if (reply.legal === false) {
      state.error = sentence(reply.reason || "That move is not allowed now.");
      render();
      return;
    }
    // The engine takes it (another copy of a listed move's card): play those very cards.
    state.error = null;
    await intents.send(actionId);
  },
  async undo() {
    if (state.busy || forTheRecord(state)) return;
    if (isFriend(state)) { await holdingBusy(intents.remoteUndo); return; }
    await holdingBusy(undoMove);
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
    newDeal = true;
    state.roundOver = null;
    state.roundEnd = null;
    state.roundTable = false;
    state.message = null;
    state.lastMove = null;
    // The new hands are dealt before anyone moves: the table is busy until they land.
    holdingBusy(async () => {
      render();
      await landed();
      persist(matchToken);   // the save no longer brings the dialog back
      runBots();
    });
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
        leaveWaiting();
        storage.setAsideMatch(save.slot);
        refreshSave();
        state.notice = `Your saved ${saveName(save)} could not be resumed by this version of Parlour (${error.message}), so it was set aside. You can keep it as a file.`;
        state.noticeMatch = { data: save.data, title: save.title || null };
        render();
      },
    });
    if (!reply) return;
    await enterTable(reply, reply.game, save.setup || setupFromSnapshot(reply), save.page, null, save.slot);
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

/**
 * A new snapshot that came from elsewhere than the person's own move: a friend's move on the
 * host's page, the host's view on a friend's page. `move` is the latest action as this page
 * may know it (snap.last), or null; `roundEnd`: ask the engine for the table as a round
 * ended; `message`: what to say instead of the move.
 */
async function applyRemote(snap, move, { message = null } = {}) {
  const token = matchToken;
  if (!state.snapshot) return;
  applySnapshot(snap, move);
  if (message) state.message = message;
  renderSoon();
  if (isFriend(state)) return;
  await persist(token);
  runBots();
}

const context = {
  root, state, intents, render, renderSoon, engineCall, engineReady, startEngine: () => engine.whenReady(), enterTable, applyRemote, loadRenderer: rendererFor, token: () => matchToken, mayReplaceSave, saveName,
  savedMatch,
  save: () => {
    // What the page keeps is rewritten at once (a reload before the engine's reply keeps it);
    // the record follows.
    const snap = state.snapshot;
    if (snap && !snap.is_over && state.saveSlot && !isFriend(state)) storage.saveMatchPage(state.saveSlot, keptState());
    return persist(matchToken);
  },
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

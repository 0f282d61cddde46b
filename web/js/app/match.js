// The match controller: what starts a match (from the engine, or from a prepared opening
// while the engine loads, handed over to it once it has loaded), puts it on the table
// (enterTable), sends the person's move and takes it back, plays the computers' turns
// (runBots), takes each new snapshot in (applySnapshot: the move in words, the round's end
// and its dialog, the pass-and-play hand-off, the features' afterSnapshot), and saves the
// match after every move (persist). The engine session (js/app/engine-session.js) is made
// here, since a restarted engine puts the match back.
//
// The page gives: its `state` (js/app/page-state.js; the controller's own bookkeeping is
// state.run), `root`, `features` (their afterSnapshot, kept fields and afterResume),
// `render`/`renderSoon`, `refreshSave(slot)` (the menu's list of saves), `intents()` (a
// match with friends' seats goes to the lobby: intents.openLobby) and `loadRenderer(gameId)`
// (the game's table module). Where the table's snapshots come from, and where the person's
// moves go, is the table's source (js/app/table-source.js), chosen in enterTable.
import { engineSession } from "./engine-session.js";
import { openingsFor, pickOpening } from "../openings.js";
import { engineSource, openingSource } from "./table-source.js";
import * as storage from "../storage.js";
import { cardsReceived, humanSeats, roundLeaders, roundsOf, seatName, sentence } from "../read-snapshot.js";
import { cardText } from "../ui/cards.js";
import { setThinking } from "../ui/table.js";
import { pruneSelection } from "../ui/selection.js";
import { landed, travelTime } from "../ui/motion.js";
import { normalizeSetup, startParams, rotationFor, randomSeed, hasFriends } from "../ui/setup-model.js";
import { motionSpeed } from "../features/preferences.js";

// Asked each time: the preference can change while the page is open.
const reduceMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
export const reducedMotion = () => Boolean(reduceMotion && reduceMotion.matches);

export function matchController({ state, root, features, render, renderSoon, refreshSave, intents, loadRenderer }) {
  const { run } = state;
  const engine = engineSession({
    state, root, render, intents, busyChanged: () => updateBusy(),
    stopMatch: () => { run.matchToken += 1; }, restore: restoreAfterRestart,
    started: (current) => { if (state.source) state.source.engineLoaded(current); },
  });
  const { call, engineCall } = engine;
  // The table's source when the engine in the worker makes its snapshots (js/app/table-source.js).
  const fromEngine = engineSource({ state, render, engineCall, holdingBusy, sendMove, undoMove });

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

  /** Keep the table busy through the whole of ``work``: between its requests the person could
   * otherwise act on a table that is about to change (a reply drawn before the bots start). */
  async function holdingBusy(work) {
    run.holds += 1;
    updateBusy();
    try { return await work(); } finally { run.holds -= 1; updateBusy(); }
  }

  /**
   * Resolves true once the engine is ready, at once if it is. Before that the table's frame
   * shows the engine's progress (`waiting` = {title, message}: what is coming), or its failure
   * with a retry, until the engine answers. False when the person went elsewhere meanwhile.
   */
  function engineReady(waiting) {
    if (engine.client) return Promise.resolve(true);
    const ready = engine.whenReady();
    run.matchToken += 1;
    const token = run.matchToken;
    Object.assign(state, { screen: "waiting", waiting, error: null });
    render();
    return ready.then(() => token === run.matchToken && state.screen === "waiting");
  }

  /** A waiting table whose request the engine refused: back to the menu, which says why. */
  function leaveWaiting() {
    if (state.screen === "waiting") state.screen = "menu";
  }

  /** Draw the table busy (at once) or idle (at the next frame, with whatever else the replies
   * bring) when that changed; true if it did or will. */
  function updateBusy() {
    const busy = engine.pending > 0 || run.holds > 0 || run.botLoop;
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
    for (const f of features) if (f.afterSnapshot) f.afterSnapshot(prev, snap, move, state);
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
    for (const f of features) for (const name of f.kept || []) kept[name] = state[name];
    return kept;
  }

  /** A resumed match's page state (keptState) back: the features' fields, and the round-over
   * dialog over the table as that round ended when it was up at the save. */
  async function restoreKept(kept, token) {
    for (const f of features) {
      for (const name of f.kept || []) {
        const value = kept[name];
        if (value !== undefined && typeof value === typeof state[name] && Array.isArray(value) === Array.isArray(state[name])) state[name] = value;
      }
    }
    for (const f of features) if (f.afterResume) f.afterResume(state);
    const snap = state.snapshot;
    if (kept.roundOver !== true || !snap || snap.is_over) return;
    const reply = await engineCall("round_end", {}, { current: () => token === run.matchToken, refused: () => {} });
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
    if (!snap || !state.source.local) return;
    if (snap.is_over) { storage.clearMatch(state.saveSlot); noteSaved(true); return; }
    const reply = saved || await savedMatch(() => token === run.matchToken);
    if (!reply) return;
    noteSaved(storage.saveMatch(state.saveSlot, snap.game, snap.title, reply, state.matchSetup ? state.matchSetup.setup : null, keptState()));
  }

  /** The save a move's reply brought (`snap`: its snapshot, the reply itself for act and undo),
   * taken off the reply and kept as the latest. */
  function takeSave(reply, snap = reply) {
    const saved = reply.save || null;
    delete reply.save;
    run.latestSave = saved ? { snap, saved } : null;
    return saved;
  }

  /** The saved form of the match on the table ({record, seats, practice}, or null): the
   * latest move's save when it is of the snapshot shown, else the engine's record (dropped
   * once `current()` is false). */
  function savedMatch(current) {
    const snap = state.snapshot;
    if (run.latestSave && snap && run.latestSave.snap === snap) return Promise.resolve(run.latestSave.saved);
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
    if (run.botLoop) return;
    run.botLoop = true;
    updateBusy();
    const token = run.matchToken;
    const going = () => token === run.matchToken && state.screen === "table" && state.snapshot
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
          : setTimeout(() => { if (state.thinking !== null && token === run.matchToken) render(); }, THINKING_SHOWN_AFTER_MS);
        await sleep(delay);
        if (!going()) { clearTimeout(shown); break; }
        // One request a move: the reply brings the round's end and the save with it.
        const reply = await engineCall("bot_move", { save: true }, {
          current: () => token === run.matchToken,
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
      run.botLoop = false;
      state.thinking = null;
      state.thinkingFraction = null;
      if (!updateBusy()) renderSoon();
    }
  }

  /** A searching bot's progress: the bar is updated in place (a render per report would
   * rebuild the whole table several times a second); drawn by a render the first time. */
  function showThinking(token, fraction) {
    if (token !== run.matchToken || state.thinking === null || state.screen !== "table") return;
    state.thinkingFraction = Math.max(0, Math.min(1, Number(fraction) || 0));
    if (!setThinking(root, state.thinkingFraction)) render();
  }

  /** Put a match on the table: `snap`, from the engine, or from a prepared opening when
   * `opening` is given (then its record is kept as the save, and the engine gets it later),
   * or from `source` when given (js/app/table-source.js: a host's device on a friend's page).
   * It is saved in `slot` (storage.matchSlot: the game's own, or its coached round's). */
  async function enterTable(snap, gameId, setup, kept = null, opening = null, slot = storage.matchSlot(gameId), source = null) {
    run.matchToken += 1;
    const token = run.matchToken;
    state.renderer = await loadRenderer(gameId);
    if (token !== run.matchToken) return;
    run.newDeal = true;
    run.freshMatch = !kept && !opening && !(snap.moves > 0);
    Object.assign(state, {
      source: opening ? openingSource(fromEngine, { state, render, keptState, noteSaved, handOver }, opening, token) : source || fromEngine,
      saveSlot: slot,
      screen: "table", snapshot: null, matchSetup: { game: gameId, setup }, selection: new Set(),
      error: null, message: null, lastMove: null, freshAt: 0, roundOver: null, roundEnd: null, roundTable: false, received: [], handoffTo: null, shownViewer: null, notice: null,
      noticeMatch: null, unsaved: false,
    });
    applySnapshot(snap, null);
    if (kept) await restoreKept(kept, token);
    if (token !== run.matchToken) return;
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
    const token = run.matchToken;
    const taken = (state.snapshot.legal || []).find((a) => a.id === actionId);
    const reply = await engineCall("act", { action: actionId, save: true }, {
      current: () => token === run.matchToken,
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
    const token = run.matchToken;
    const reply = await engineCall("undo", { save: true }, { current: () => token === run.matchToken });
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
    if (hasFriends(reply)) { intents().openLobby(reply, gameId, setup); return; }
    await enterTable(reply, gameId, setup);
  }

  /** While the engine is loading: the table from one of the game's prepared openings when
   * `setup` is the table they were prepared for (js/openings.js); false when there is none. */
  async function startFromOpening(gameId, setup) {
    if (engine.client || state.engine.status !== "loading") return false;
    const opening = pickOpening(await openingsFor(gameId), startParams(gameId, setup, 0, 0));
    if (!opening) return false;
    await loadRenderer(gameId);
    if (engine.client) return false;  // the engine came meanwhile: it starts the match
    await enterTable(structuredClone(opening.snapshot), gameId, setup, null, opening);
    return true;
  }

  /** The engine has loaded: a prepared opening on the table goes over to it. The engine
   * replays its `record` (and answers with the same snapshot); a first decision the person
   * made meanwhile is a request queued behind this one. `mine()`: the opening is still on
   * the table. */
  function handOver(current, record, mine) {
    if (!mine()) return;
    current.call("load", record).then((reply) => {
      if (!mine()) return;
      if (reply.error) {
        run.matchToken += 1;
        Object.assign(state, { screen: "menu", source: fromEngine, notice: `That deal could not be carried on (${reply.error.message}): start a new match.` });
        storage.clearMatch(state.saveSlot);
        refreshSave();
        render();
        return;
      }
      state.source = fromEngine;
      // Drawn unless the person's first decision is on its way: its reply is drawn then.
      if (!engine.pending && !run.holds) applySnapshot(reply, null);
      renderSoon();
    }, () => { /* a dead worker is dealt with by the engine session (js/app/engine-session.js) */ });
  }

  /**
   * A new snapshot that came from elsewhere than the person's own move: a friend's move on the
   * host's page, the host's view on a friend's page. `move` is the latest action as this page
   * may know it (snap.last), or null; `roundEnd`: ask the engine for the table as a round
   * ended; `message`: what to say instead of the move.
   */
  async function applyRemote(snap, move, { message = null } = {}) {
    const token = run.matchToken;
    if (!state.snapshot) return;
    applySnapshot(snap, move);
    if (message) state.message = message;
    renderSoon();
    if (!state.source.local) return;
    await persist(token);
    runBots();
  }

  /** The next round's hands are dealt before anyone moves: the table is busy until they land. */
  function continueRound() {
    run.newDeal = true;
    state.roundOver = null;
    state.roundEnd = null;
    state.roundTable = false;
    state.message = null;
    state.lastMove = null;
    holdingBusy(async () => {
      render();
      await landed();
      persist(run.matchToken);   // the save no longer brings the dialog back
      runBots();
    });
  }

  /** What the page keeps is rewritten at once (a reload before the engine's reply keeps it);
   * the record follows. */
  function save() {
    const snap = state.snapshot;
    if (snap && !snap.is_over && state.saveSlot && state.source.local) storage.saveMatchPage(state.saveSlot, keptState());
    return persist(run.matchToken);
  }

  return {
    engine, engineReady, leaveWaiting, enterTable, applyRemote, startNew, sendMove, undoMove, holdingBusy,
    continueRound, runBots, save, savedMatch, setupFromSnapshot,
    /** Whatever the table waited for is void: another screen, another match. */
    stop() { run.matchToken += 1; },
  };
}

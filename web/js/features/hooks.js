// Where the player-comfort features meet app.js: settings, statistics, sound, the live
// region for screen readers and keyboard play. app.js calls install() once and
// afterSnapshot() whenever a new snapshot arrives; everything else stays in these modules.
import { applySettings, renderSettings, motionSpeed } from "./settings.js";
import { renderStats, recordResult, resetStats } from "./stats.js";
import * as sound from "./sound.js";
import { announce, install as installAnnouncer } from "./announce.js";
import { install as installKeyboard } from "./keyboard.js";
import * as storage from "../storage.js";

export { renderSettings, renderStats, motionSpeed };

/** Adds the features' intents to `intents` and starts the page-wide listeners. */
export function install({ root, state, intents, render }) {
  applySettings();
  installAnnouncer();
  installKeyboard({ root, intents, getState: () => state });
  document.addEventListener("pointerdown", sound.unlock, true);
  document.addEventListener("keydown", sound.unlock, true);
  Object.assign(intents, {
    openSettings() {
      state.screen = "settings";
      state.error = null;
      render();
    },
    openStats() {
      state.screen = "stats";
      state.statsConfirm = false;
      state.error = null;
      render();
    },
    settingsChanged(name, value) {
      if (name === "sound" && value) sound.unlock();
      render();
    },
    /** A seat's name typed on the set-up screen: kept and remembered, no re-render. */
    renameSeat(seat, name) {
      if (!state.setup || !state.setup.seats[seat]) return;
      state.setup.seats[seat].name = String(name).slice(0, 24);
      storage.saveSetup(state.setupGame, state.setup);
    },
    statsReset() { state.statsConfirm = true; render(); },
    statsResetCancelled() { state.statsConfirm = false; render(); },
    statsResetConfirmed() {
      resetStats();
      state.statsConfirm = false;
      announce("Statistics reset.");
      render();
    },
  });
}

function nameOf(snap, seat) {
  const s = snap.seats[seat];
  return (s && s.name) || `Seat ${seat + 1}`;
}

function humansOf(snap) {
  return snap.seats.map((s, i) => (s.type === "human" ? i : -1)).filter((i) => i >= 0);
}

function roundsOf(snap) {
  return snap && snap.result && Array.isArray(snap.result.rounds) ? snap.result.rounds.length : 0;
}

/** Did a person score the most in the round that just ended (by the change in scores)? */
function personWonRound(prev, snap) {
  const before = (prev.result && prev.result.scores) || [];
  const gained = ((snap.result && snap.result.scores) || []).map((v, i) => v - (before[i] || 0));
  if (!gained.length) return false;
  const best = Math.max(...gained);
  return best > 0 && humansOf(snap).some((i) => gained[i] === best);
}

function matchWords(snap) {
  const winners = (snap.result && snap.result.winners) || [];
  const names = winners.map((w) => nameOf(snap, w));
  if (names.length === 1) return names[0] === "You" ? "The match is over: you win!" : `The match is over: ${names[0]} wins.`;
  if (names.length > 1) return `The match is over: ${names.join(" and ")} share the win.`;
  return "The match is over.";
}

const counted = new WeakSet();

/** Called by app.js after each new snapshot (state.message / state.roundOver already set). */
export function afterSnapshot(prev, snap, move, state) {
  if (!snap) return;
  const sameMatch = Boolean(prev && prev.game === snap.game);
  if (move) {
    sound.cue("card");
    // Opponents' moves are read out; the person's own move is what they just did.
    const own = sameMatch && move.player === prev.viewer && snap.seats[move.player] && snap.seats[move.player].type === "human";
    if (!own && state.message) announce(state.message);
  }
  if (sameMatch && state.roundOver && roundsOf(snap) > roundsOf(prev) && !snap.is_over) {
    announce(`${state.roundOver.title}.`.replace(/([.!?])\.$/, "$1"));
    if (personWonRound(prev, snap)) sound.cue("win");
  }
  if (snap.is_over) {
    if (sameMatch && !prev.is_over) {
      const key = state.matchSetup || snap;
      if (!counted.has(key)) { counted.add(key); recordResult(snap); }
      announce(matchWords(snap));
      if (humansOf(snap).some((i) => (snap.result.winners || []).includes(i))) sound.cue("win");
    }
    return;
  }
  if (snap.human_turn && (!sameMatch || !prev.human_turn || prev.viewer !== snap.viewer)) {
    const humans = humansOf(snap);
    announce(humans.length > 1 ? `${nameOf(snap, snap.viewer)}'s turn.` : "Your turn.");
    sound.cue("turn");
  }
}

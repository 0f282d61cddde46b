// One polite live region for screen readers, outside the re-rendered #app so it survives
// every render: opponents' moves, "your turn", round and match results are read out, with
// a short sound for each (sound.js, when the Sound setting is on).
import { humanSeats, roundLeaders, roundsOf, seatName, winnerNames, youWon } from "../snapshot.js";
import * as sound from "./sound.js";

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

function matchWords(snap) {
  const names = winnerNames(snap);
  if (names.length === 1) return youWon(snap) ? "The match is over: you win!" : `The match is over: ${names[0]} wins.`;
  if (names.length > 1) return `The match is over: ${names.join(" and ")} share the win.`;
  return "The match is over.";
}

export const feature = {
  start() {
    if (document.body) ensureRegion();
    else document.addEventListener("DOMContentLoaded", ensureRegion, { once: true });
    document.addEventListener("pointerdown", sound.unlock, true);
    document.addEventListener("keydown", sound.unlock, true);
  },
  /** Say what changed (state.message / state.roundOver are already set) and sound it. */
  afterSnapshot(prev, snap, move, state) {
    const sameMatch = Boolean(prev && prev.game === snap.game);
    const humans = humanSeats(snap);
    if (move) {
      sound.cue("card");
      // Opponents' moves are read out; the person's own move is what they just did.
      const own = sameMatch && move.player === prev.viewer && snap.seats[move.player] && snap.seats[move.player].type === "human";
      if (!own && state.message) announce(state.message);
    }
    if (sameMatch && state.roundOver && roundsOf(snap) > roundsOf(prev) && !snap.is_over) {
      announce(`${state.roundOver.title}.`.replace(/([.!?])\.$/, "$1"));
      if (roundLeaders(prev, snap).some((i) => humans.includes(i))) sound.cue("win");
    }
    if (snap.is_over) {
      if (sameMatch && !prev.is_over) {
        announce(matchWords(snap));
        if (humans.some((i) => (snap.result.winners || []).includes(i))) sound.cue("win");
      }
      return;
    }
    if (snap.human_turn && (!sameMatch || !prev.human_turn || prev.viewer !== snap.viewer)) {
      announce(humans.length > 1 ? `${seatName(snap, snap.viewer)}'s turn.` : "Your turn.");
      sound.cue("turn");
    }
  },
};

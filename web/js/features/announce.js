// One polite live region for screen readers, outside the re-rendered #app so it survives
// every render: opponents' moves, "your turn", round and match results are read out, with
// a short sound for each (sound.js, when the Sound setting is on).
import { humanSeats, roundLeaders, roundsOf, seatName, winnerNames, youWon } from "../read-snapshot.js";
import * as sound from "./sound.js";

const KEEP = 4;
// The sound of a move by its kind (the part of its id before ":"): cards taken, or cards put
// down; a move that moves no card (a pass, a bid) is silent.
const MOVE_SOUNDS = { draw: "draw", take: "draw", play: "play", discard: "play", build: "play", jack: "play", queen: "play", king: "play", reveal: "play", swap: "play" };
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
    // A match begins with the cards shuffled; each later round with a new deal.
    if (!sameMatch && !snap.is_over) sound.cue("shuffle");
    else if (sameMatch && roundsOf(snap) > roundsOf(prev) && !snap.is_over) sound.cue("deal");
    if (move) {
      const kind = move.kind || String(move.id || "").split(":", 1)[0];
      if (MOVE_SOUNDS[kind]) sound.cue(MOVE_SOUNDS[kind]);
      // Opponents' moves are read out; the person's own move is what they just did.
      const own = sameMatch && move.player === prev.viewer && snap.seats[move.player] && snap.seats[move.player].type === "human";
      if (!own && state.message) announce(state.message);
    }
    if (sameMatch && state.roundOver && roundsOf(snap) > roundsOf(prev) && !snap.is_over) {
      announce(`${state.roundOver.title}.`.replace(/([.!?])\.$/, "$1"));
      sound.cue(roundLeaders(prev, snap).some((i) => humans.includes(i)) ? "won" : "lost");
    }
    if (snap.is_over) {
      if (sameMatch && !prev.is_over) {
        announce(matchWords(snap));
        sound.cue(humans.some((i) => (snap.result.winners || []).includes(i)) ? "won" : "lost");
      }
      return;
    }
    if (snap.human_turn && (!sameMatch || !prev.human_turn || prev.viewer !== snap.viewer)) {
      announce(humans.length > 1 ? `${seatName(snap, snap.viewer)}'s turn.` : "Your turn.");
      sound.cue("turn");
    }
  },
};

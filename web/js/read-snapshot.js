// What the page reads off a bridge snapshot in more than one place: seat names, the seats
// people play, how many rounds are over, what a round scored, who won. Pure functions.

/** The longest seat name, in characters: the bridge's MAX_NAME_CHARS (engine/bridge/session.py). */
export const MAX_NAME = 24;

/** A message as a sentence: its first letter capitalised, a full stop unless it ends in one. */
export function sentence(text) {
  const t = String(text || "").trim();
  return t ? t[0].toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".") : t;
}

/** A seat's name ("You", "North", a typed name), "Seat n" without one, "" for no seat. */
export function seatName(snapshot, seat) {
  if (seat === null || seat === undefined) return "";
  const s = snapshot.seats[seat];
  return (s && s.name) || `Seat ${seat + 1}`;
}

/** A seat's name as an owner, inside a sentence: "your" for the person ("You"), else
 * "North's" (never "You's"). */
export function possessive(name) {
  return name === "You" ? "your" : `${name}'s`;
}

/** A seat's name with its verb: "You play" / "North plays" (`third`: the verb's form for
 * another seat, when not `base` + "s": "passes"). */
export function verb(who, base, third = `${base}s`) {
  return `${who} ${who === "You" ? base : third}`;
}

/** A seat's name inside a sentence: "you" for the person ("You"), else the name. */
export function inSentence(name) {
  return name === "You" ? "you" : name;
}

/** The seats people play, in order; `holder` is a snapshot or a set-up (anything with seats). */
export function humanSeats(holder) {
  return holder.seats.map((s, i) => (s.type === "human" ? i : -1)).filter((i) => i >= 0);
}

/** How many rounds are over. */
export function roundsOf(snapshot) {
  return snapshot && snapshot.result && Array.isArray(snapshot.result.rounds) ? snapshot.result.rounds.length : 0;
}

/** Cards that came into the viewer's hand from `prev` to `snap` (a draw, a pass, a swap), which
 * nothing else on the table tells: none across a new deal or a change of seat. */
export function cardsReceived(prev, snap) {
  if (!prev || prev.viewer !== snap.viewer || roundsOf(prev) !== roundsOf(snap) || snap.round_end) return [];
  const before = prev.view && Array.isArray(prev.view.hand) ? new Set(prev.view.hand) : null;
  const now = snap.view && Array.isArray(snap.view.hand) ? snap.view.hand : null;
  if (!before || !now) return [];
  return now.filter((c) => !before.has(c));
}

/** Each seat's change in score from `prev` to `snapshot`. */
function scoreGains(prev, snapshot) {
  const before = (prev.result && prev.result.scores) || [];
  return ((snapshot.result && snapshot.result.scores) || []).map((v, i) => v - (before[i] || 0));
}

/** The seats that gained the most from `prev` to `snapshot` (none when nobody gained). */
export function roundLeaders(prev, snapshot) {
  const gained = scoreGains(prev, snapshot);
  if (!gained.length) return [];
  const best = Math.max(...gained);
  return best > 0 ? gained.map((g, i) => (g === best ? i : -1)).filter((i) => i >= 0) : [];
}

/** The winners' names, in seat order. */
export function winnerNames(snapshot) {
  return ((snapshot.result && snapshot.result.winners) || []).map((w) => seatName(snapshot, w));
}

/** Whether the one person this page is for won alone: "You", or at a shared table the seat
 * played here under the name its player chose. */
export function youWon(snapshot) {
  const winners = (snapshot.result && snapshot.result.winners) || [];
  const people = humanSeats(snapshot);
  return winners.length === 1 && (seatName(snapshot, winners[0]) === "You" || (people.length === 1 && winners[0] === people[0]));
}

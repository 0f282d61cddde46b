// The set-up of a match as plain data, and how it becomes the bridge's start() parameters.
// setup = {players, seats: [{type: "human"|"bot"|"friend", level}], order: "random"|"<n>", options}
// ("friend": a person on their own device, invited to a shared match; see features/together/)
import { MAX_NAME, humanSeats } from "../read-snapshot.js";

const SEAT_TYPES = ["human", "bot", "friend"];   // engine/bridge/session.py MAX_NAME_CHARS
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth"];
const OPPONENT_NAMES = {
  1: ["North"],
  2: ["West", "East"],
  3: ["West", "North", "East"],
  4: ["West", "North-West", "North-East", "East"],
  5: ["West", "North-West", "North", "North-East", "East"],
};

export function ordinal(n) {
  return ORDINALS[n] || `number ${n + 1}`;
}

/** The computers' level when none is chosen: "normal", or the middle one offered. */
export function defaultLevel(levels) {
  return levels.includes("normal") ? "normal" : levels[Math.floor(levels.length / 2)] || "normal";
}

/** A valid set-up for `spec`, keeping whatever of `saved` still fits. */
export function normalizeSetup(spec, levels, saved) {
  const s = saved && typeof saved === "object" ? saved : {};
  const fallbackLevel = defaultLevel(levels);
  let players = Number.isInteger(s.players) ? s.players : spec.default_players;
  if (players < spec.min_players || players > spec.max_players) players = spec.default_players;
  const seats = [];
  for (let i = 0; i < players; i++) {
    const old = Array.isArray(s.seats) ? s.seats[i] : null;
    const type = old && SEAT_TYPES.includes(old.type) ? old.type : i === 0 ? "human" : "bot";
    const level = old && levels.includes(old.level) ? old.level : fallbackLevel;
    const name = old && typeof old.name === "string" ? old.name.slice(0, MAX_NAME) : "";
    seats.push({ type, level, name });
  }
  const options = {};
  for (const opt of spec.options || []) {
    const value = s.options ? s.options[opt.name] : undefined;
    options[opt.name] = opt.choices.some((c) => c === value) ? value : opt.default;
  }
  let order = typeof s.order === "string" ? s.order : "random";
  if (order !== "random" && !(Number(order) >= 0 && Number(order) < players)) order = "random";
  return { players, seats, order, options, practice: s.practice === true };
}

/** Change the number of players, keeping the seats that remain. */
export function withPlayers(spec, levels, setup, players) {
  return normalizeSetup(spec, levels, { ...setup, players });
}

/** Names: the one person is "You", computers are named by where they sit from that person. */
export function seatNames(seats) {
  const humans = humanSeats({ seats });
  const n = seats.length;
  if (hasFriends({ seats })) {
    // A shared match: everyone reads these names, so nobody is "You"; each friend chooses theirs.
    let friend = 0;
    return seats.map((s) => (s.type === "human" ? "Host" : s.type === "friend" ? `Friend ${++friend}` : null));
  }
  if (humans.length !== 1) return seats.map((s, i) => (s.type === "human" ? `Player ${i + 1}` : null));
  const me = humans[0];
  const others = OPPONENT_NAMES[n - 1] || [];
  return seats.map((s, i) => (i === me ? "You" : others[(i - me - 1 + n) % n] || null));
}

/** The bridge's start() parameters; `arrange` rotates the seats (see app.js startMatch). */
export function startParams(gameId, setup, seed, rotation = 0) {
  const n = setup.seats.length;
  const seats = new Array(n);
  setup.seats.forEach((seat, i) => { seats[(i + rotation + n) % n] = { ...seat }; });
  const names = seatNames(seats);
  return {
    game: gameId,
    players: n,
    seed,
    options: { ...setup.options },
    practice: setup.practice === true,
    seats: seats.map((s, i) => {
      const out = { type: s.type };
      if (s.type === "bot") out.level = s.level;
      const own = typeof s.name === "string" ? s.name.trim() : "";
      if (own) out.name = own;
      else if (names[i]) out.name = names[i];
      return out;
    }),
  };
}

/**
 * How far to rotate the seats so that the one person plays `order`-th, given the seat that
 * starts (the engine picks the first player from the seed alone, whoever sits there).
 */
export function rotationFor(setup, starter, rotation) {
  const humans = humanSeats(setup);
  if (hasFriends(setup) || setup.order === "random" || humans.length !== 1 || starter === null || starter === undefined) return rotation;
  const n = setup.seats.length;
  const want = (starter + Number(setup.order)) % n;
  return (want - humans[0] + n) % n;
}

/** Whether a set-up or snapshot has seats for friends on their own devices. */
export function hasFriends(holder) {
  return holder.seats.some((s) => s.type === "friend");
}

export function randomSeed() {
  const buf = new Uint32Array(1);
  crypto.getRandomValues(buf);
  return buf[0] & 0x7fffffff;
}

// The match history's rules, with no page around them (so Node runs them in the unit tests):
// one finished match as a history entry, the bounds a game's history keeps to, merging two
// histories without duplicates, the figures the history screen draws (results over time, the
// score margin's spread, records, head to head per friend), and the deal of the day's seed.

/** Matches kept per game: older entries are dropped, the oldest first. */
export const HISTORY_LIMIT = 1000;
/** Match files (the record, for replay) kept per game: the latest ones; older entries keep
 * their line in the history without one. */
export const FILES_LIMIT = 20;
/** How many of the latest matches the win rate over time is taken over. */
export const RATE_WINDOW = 10;

/** Whether lower scores won this match (true/false), or null when it cannot be told. */
export function lowerWins(scores, winners) {
  const others = scores.filter((_, i) => !winners.includes(i));
  if (!winners.length || !others.length) return null;
  const won = winners.map((w) => scores[w]);
  if (Math.max(...won) < Math.min(...others)) return true;
  if (Math.min(...won) > Math.max(...others)) return false;
  return null;
}

/** A seat as the history keeps it: "you" (a person at this device), "bot" with its level, or
 * "friend" with the name they chose; at pass and play every person is "person". */
function seatEntry(seat, i, mine, single) {
  if (seat.type === "bot") return { kind: "bot", level: seat.level || "normal", name: seat.name || null };
  if (seat.type === "friend") return { kind: "friend", name: seat.name || `Seat ${i + 1}` };
  return { kind: single && mine.includes(i) ? "you" : "person", name: seat.name || null };
}

/**
 * The history entry of the finished match `snap` (a bridge snapshot), or null for one that is
 * not over, is practice or has nobody playing at this device. `mine` are the seats played here
 * (by default the snapshot's human seats); `aids` = {hint, undo, analysis} used; `startedAt`,
 * `endedAt` in ms since 1970; `seed` the deal's; `daily` the UTC day of a deal of the day.
 */
export function entryFrom(snap, { mine = null, aids = {}, startedAt = null, endedAt = Date.now(), seed = null, daily = null } = {}) {
  if (!snap || !snap.is_over || snap.practice) return null;
  const seats = Array.isArray(snap.seats) ? snap.seats : [];
  const people = mine || seats.map((s, i) => (s.type === "human" ? i : -1)).filter((i) => i >= 0);
  if (!people.length) return null;
  const result = snap.result || {};
  const scores = (result.scores || []).map(Number);
  const winners = (result.winners || []).filter((w) => Number.isInteger(w));
  const low = lowerWins(scores, winners);
  const me = people[0];
  const others = scores.filter((_, i) => !people.includes(i));
  let margin = null;
  if (Number.isFinite(scores[me]) && others.length) {
    margin = low === true ? Math.min(...others) - scores[me] : scores[me] - Math.max(...others);
  }
  const at = Number(endedAt) || 0;
  return {
    id: `${snap.game}-${at.toString(36)}-${seed === null ? "x" : seed}`,
    at,
    game: snap.game,
    title: snap.title || snap.game,
    players: seats.length,
    options: snap.options || {},
    seats: seats.map((s, i) => seatEntry(s, i, people, people.length === 1)),
    mine: people,
    scores,
    winners,
    won: people.some((i) => winners.includes(i)),
    alone: winners.length === 1 && people.includes(winners[0]),
    low,
    margin,
    rounds: Array.isArray(result.rounds) ? result.rounds.length : 0,
    moves: Number(snap.moves) || 0,
    ms: startedAt ? Math.max(0, at - startedAt) : null,
    hint: Boolean(aids.hint),
    undo: Boolean(aids.undo),
    analysis: Boolean(aids.analysis),
    seed,
    daily,
  };
}

/** Whether `e` reads as a history entry (what a file or storage gives back is checked). */
export function isEntry(e) {
  return Boolean(e) && typeof e === "object" && typeof e.id === "string" && e.id.length <= 80
    && Number.isFinite(e.at) && typeof e.game === "string" && Array.isArray(e.scores)
    && e.scores.every((s) => Number.isFinite(s)) && Array.isArray(e.seats) && Array.isArray(e.mine)
    && typeof e.won === "boolean";
}

/**
 * `entries` and `more` as one history, oldest first: one entry per id (the one already kept
 * wins), at most `limit`, the oldest dropped. {entries, dropped: the ids left out}.
 */
export function mergeEntries(entries, more, limit = HISTORY_LIMIT) {
  const byId = new Map();
  for (const e of [...(entries || []), ...(more || [])]) if (isEntry(e) && !byId.has(e.id)) byId.set(e.id, e);
  const all = [...byId.values()].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const cut = Math.max(0, all.length - limit);
  return { entries: all.slice(cut), dropped: all.slice(0, cut).map((e) => e.id) };
}

/** The match files kept beside a history: those of its latest `limit` entries, by entry id. */
export function keepFiles(files, entries, limit = FILES_LIMIT) {
  const wanted = new Set(entries.slice(-limit).map((e) => e.id));
  const out = {};
  for (const [id, data] of Object.entries(files || {})) {
    if (wanted.has(id) && data && typeof data === "object" && data.record && typeof data.record === "object") out[id] = data;
  }
  return out;
}

/** The figures of one game's history (oldest first) for its screen. */
export function summarize(entries, window = RATE_WINDOW) {
  const list = (entries || []).filter(isEntry);
  const low = list.some((e) => e.low === true) && !list.some((e) => e.low === false);
  let streak = 0;
  let longest = 0;
  let best = null;
  let fastest = null;
  const series = [];
  const friends = new Map();
  list.forEach((e, i) => {
    streak = e.won ? streak + 1 : 0;
    longest = Math.max(longest, streak);
    const mine = e.scores[e.mine[0]];
    if (Number.isFinite(mine) && (best === null || (low ? mine < best : mine > best))) best = mine;
    if (e.won && Number.isFinite(e.ms) && e.ms > 0 && (fastest === null || e.ms < fastest)) fastest = e.ms;
    const recent = list.slice(Math.max(0, i + 1 - window), i + 1);
    series.push({
      n: i + 1, at: e.at, won: e.won, score: Number.isFinite(mine) ? mine : null, margin: e.margin,
      rate: recent.filter((r) => r.won).length / recent.length,
    });
    e.seats.forEach((s, seat) => {
      if (s.kind !== "friend") return;
      const f = friends.get(s.name) || { name: s.name, played: 0, won: 0, lost: 0 };
      f.played += 1;
      if (e.won && !e.winners.includes(seat)) f.won += 1;
      else if (!e.won && e.winners.includes(seat)) f.lost += 1;
      friends.set(s.name, f);
    });
  });
  return {
    played: list.length, won: list.filter((e) => e.won).length, low, best, longest, streak, fastest,
    series, margins: marginBins(list.map((e) => e.margin).filter((m) => Number.isFinite(m))),
    friends: [...friends.values()].sort((a, b) => b.played - a.played || (a.name < b.name ? -1 : 1)),
  };
}

/** The score margins in at most eight bins of equal width: [{from, to, count}], from <= m <= to. */
export function marginBins(margins, most = 8) {
  if (!margins.length) return [];
  const lo = Math.min(...margins);
  const hi = Math.max(...margins);
  const span = hi - lo + 1;
  const width = Math.max(1, Math.ceil(span / most));
  const bins = [];
  for (let from = lo; from <= hi; from += width) bins.push({ from, to: Math.min(hi, from + width - 1), count: 0 });
  for (const m of margins) bins[Math.floor((m - lo) / width)].count += 1;
  return bins;
}

// ----- the deal of the day ------------------------------------------------------------------

/** The UTC day of `time` (a Date or ms) as YYYY-MM-DD: the same everywhere at one moment. */
export function utcDay(time = Date.now()) {
  return new Date(time).toISOString().slice(0, 10);
}

/** Whether `text` is a real calendar day written YYYY-MM-DD. */
export function isDay(text) {
  if (typeof text !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const t = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(t) && utcDay(t) === text;
}

/** The deal of the day's seed for `game` on the UTC day `day` (YYYY-MM-DD): FNV-1a over
 * "parlour-daily:<day>:<game>", a whole number 0..2^31-1. */
export function dailySeed(game, day) {
  let hash = 0x811c9dc5;
  for (const ch of `parlour-daily:${day}:${game}`) {
    hash ^= ch.codePointAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & 0x7fffffff;
}

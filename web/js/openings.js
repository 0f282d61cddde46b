// Prepared openings: a source of the table's snapshots before the engine has loaded.
//
// The build's own engine prepares a few openings of each game's default table
// (tools/build/openings.py, openings.json): the deal, the moves of the computers that
// act before the person, and the snapshot of the person's first decision (their view, legal
// actions and labels), with the record that led there. A first visitor who presses Start
// while the engine is still loading gets one of them, drawn by the same table; the engine,
// once it has loaded, is handed the record (the bridge's `load` replays it) and answers with
// that very snapshot, and the person's first decision goes to it as any other move would.
// The page decides nothing here: everything shown is what the engine computed at build time.
//
//   fetchOpenings();                                      // as the page starts
//   const data = await openingsFor("roundup");            // null when there are none
//   const opening = pickOpening(data, params);            // null unless params is the default table
//   opening.snapshot, opening.record                      // what to draw, what to hand over

let fetched = null;  // Promise of {game id: {params, openings}} (or null)

/** Ask for every game's openings (one small file), once: as the page starts, so that they
 * do not wait behind the runtime's downloads for a connection. */
export function fetchOpenings() {
  if (!fetched) {
    fetched = fetch(new URL("../openings.json", import.meta.url))
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null);
  }
  return fetched;
}

/** The game's prepared openings ({params, openings}); null if there are none. */
export async function openingsFor(gameId) {
  const all = await fetchOpenings();
  const data = all && Object.hasOwn(all, gameId) ? all[gameId] : null;
  return data && Array.isArray(data.openings) && data.openings.length ? data : null;
}

/** JSON text of `value` with the keys of every object sorted: equal data, equal text. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** One of `data`'s openings at random when `params` (the bridge's start parameters, its
 * seed aside) are those of the table they were prepared for; else null. */
export function pickOpening(data, params) {
  if (!data) return null;
  const table = { ...params };
  delete table.seed;
  if (canonical(table) !== canonical(data.params)) return null;
  // Math.random, not crypto: which of a few prepared deals is no secret, and the deal's
  // seed (setup-model.js randomSeed) is left the next value from crypto.
  return data.openings[Math.floor(Math.random() * data.openings.length)];
}

/** The opening's record with the person's first decision (an id of its legal actions)
 * added, as the engine records it: what to keep for a reload before the engine answers. */
export function recordWith(saved, actionId) {
  const record = saved.record;
  return { ...saved, record: { ...record, actions: [...record.actions, actionId] } };
}

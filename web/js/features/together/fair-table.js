// A shared table's deal made by every device, on the page: each device's random value and
// its commitment, the seed they make, and a friend's check of the deal once the match is over.
//
// The same texts as the engine's (engine/fairness.py; tests/test_fair_table.py checks that
// both sides agree). Before a shared match is dealt, every device draws a value and sends only
// its commitment (a friend's travels in its hello); once the host has sent every commitment to
// every friend, each friend reveals its value to the host, whose engine checks each one
// against its commitment and deals from the seed made of them all. The host's own value, the
// seed and the deal's salt stay on the host's device until the match is over: then the last
// snapshot reveals them, and the friend's page checks here, with what it kept from the start
// (the commitments, the fingerprint shown), that the host dealt from that seed, and, before the
// engine replays the record the host sent, that the record is of that seed.
import { sha256 } from "./sha256.js";

const VALUE_VERSION = "parlour-value/1";
const SEED_VERSION = "parlour-seed/1";
const DEAL_VERSION = "parlour-deal/1";
const HASH = /^[0-9a-f]{64}$/;
const VALUE = /^[0-9a-f]{32}$/;

/** A device's random contribution to the seed: 128 bits as 32 hex digits. */
export function newValue() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The hash a device sends before it reveals `value`. */
export function commitment(value) {
  return sha256(`${VALUE_VERSION} ${value}`);
}

export const isCommitment = (text) => typeof text === "string" && HASH.test(text);
export const isValue = (text) => typeof text === "string" && VALUE.test(text);

/** The seed every device's value makes (in seat order): the top 31 bits of their hash. */
export function jointSeed(values) {
  return Number.parseInt(sha256(`${SEED_VERSION} ${values.join(" ")}`).slice(0, 8), 16) >>> 1;
}

/** JSON with sorted keys and no spaces, as Python's json.dumps(sort_keys=True, separators=(",", ":")). */
function sortedJson(value) {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The deal's fingerprint: the SHA-256 of the line engine/fairness.py deal_text makes. */
export function fingerprint(game, players, seed, options, salt) {
  return sha256(`${DEAL_VERSION} game=${game} players=${players} options=${sortedJson(options || {})} seed=${seed} salt=${salt}`);
}

/** The host's check of a friend's reveal before the deal: null when `value` is the one
 * `commit` promised, else why the match is not dealt (`who` names the friend; a missing value
 * is one not sent within `waitedMs`). */
export function revealProblem(who, value, commit, waitedMs) {
  if (value === null || value === undefined) {
    return `${who}'s device did not send its share of the deal within ${waitedMs / 1000} seconds: the match was not dealt. Press Start again, or invite them again.`;
  }
  if (!isValue(value) || commitment(value) !== commit) return `${who}'s device revealed a value that does not match the commitment it sent: the match was not dealt.`;
  return null;
}

const short = (fp) => [0, 4, 8].map((i) => String(fp).slice(i, i + 4)).join(" ");

/**
 * A friend's check of a finished shared match: `kept` is what the page kept when the deal was
 * made ({seats, commits, names, fingerprint}: the devices' seats and commitments in seat order,
 * the fingerprint the table showed), `snap` the host's last snapshot (its `deal` with the seed,
 * the salt and the devices' values; its `options`). {ok, lines, problems}, in plain words;
 * `unknown` too when the page kept nothing to check against (it joined after the deal).
 */
export function checkShared(kept, snap) {
  const lines = [];
  const problems = [];
  const deal = snap && snap.deal;
  if (!deal || deal.seed === undefined) return { ok: false, lines, problems: ["the host's device revealed no seed at the end of the match"] };
  if (!kept || !Array.isArray(kept.commits)) {
    return { ok: false, unknown: true, lines, problems: ["this page did not see this match dealt (it joined the table after the deal), so it kept no commitments to check the deal against"] };
  }
  const values = Array.isArray(deal.values) ? deal.values : [];
  const named = (i) => (kept.names && kept.names[i]) || `seat ${kept.seats[i] + 1}`;
  if (!values.length) {
    problems.push(`the host's device dealt this match from a seed of its own (${deal.seed}), not from the devices' values: it could have chosen the deal`);
  } else if (values.length !== kept.commits.length) {
    problems.push(`the host's device revealed ${values.length} values, but ${kept.commits.length} devices committed to one before the deal`);
  } else {
    values.forEach((value, i) => {
      if (!isValue(value) || commitment(value) !== kept.commits[i]) {
        problems.push(`the value revealed for ${named(i)}'s device does not match the commitment it sent before the deal`);
      }
    });
    const made = jointSeed(values.filter(isValue));
    if (!problems.length && made !== deal.seed) {
      problems.push(`the host dealt from the seed ${deal.seed}, not from the seed ${made} that every device's value makes: the host's device chose this deal`);
    }
    if (!problems.length) {
      lines.push(`The seed ${deal.seed} is the one made of all ${values.length} devices' values, each revealed as committed before the deal: no device, the host's included, chose it or knew it in advance.`);
    }
  }
  const made = fingerprint(snap.game, snap.seats.length, deal.seed, snap.options, deal.salt);
  if (kept.fingerprint && made !== kept.fingerprint) {
    problems.push(`the fingerprint shown at the start was ${short(kept.fingerprint)}, but the revealed seed and salt make ${short(made)}: the deal was changed after it was fixed`);
  } else if (kept.fingerprint && !problems.length) {
    lines.push(`The fingerprint ${short(made)} shown when the match was dealt is that of this seed (salt ${deal.salt}): every card dealt and drawn was fixed before the first move.`);
  }
  return { ok: problems.length === 0, lines, problems };
}

/**
 * What the record the host's device sent at the end of the match (`record`, the engine's) must
 * agree with on this page before the engine replays it: the game on the table and the seed
 * every device's value makes (or, for a match dealt without them, the seed revealed at the
 * end). The problems, in plain words (none when it agrees).
 */
export function recordProblems(record, snap) {
  if (!record || typeof record !== "object") return ["the host's device sent no record of the match, so its moves could not be replayed"];
  const deal = (snap && snap.deal) || {};
  const values = Array.isArray(deal.values) && deal.values.length && deal.values.every(isValue) ? deal.values : [];
  const seed = values.length ? jointSeed(values) : deal.seed;
  if (record.game !== snap.game) return [`the host's device sent the record of another game (${String(record.game).slice(0, 40)}), not of this match`];
  if (record.seed !== seed) {
    return [`the record the host's device sent deals from the seed ${String(record.seed).slice(0, 40)}, not from the seed ${seed} ${values.length ? "every device's value makes" : "it revealed"}`];
  }
  return [];
}

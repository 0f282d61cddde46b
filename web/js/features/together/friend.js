// Playing together: the friend's page. It loads no Python: an invitation link (read and
// checked here) carries the host's half of the connection, the friend chooses a name and
// sends back a reply; once the data channel is open the table draws the snapshots of their
// seat that the host's engine sends, and their moves, undos, hints and "why not" questions go
// to the host as requests (see index.js for the messages). Only Check this deal, once a match
// is over, loads the engine here, to replay the record the host sent at its end.
import { h, button } from "../../ui/dom.js";
import { LinkError, decode, encode, linkFor } from "./signal-links.js";
import { MAX_HOST_MESSAGE_CHARS, answer, messenger, opened } from "./peer.js";
import { ADVICE, qrFigure, shareBox, sharedLink } from "./share.js";
import { logReceiver } from "../../held-logs.js";
import { MAX_NAME, sentence } from "../../read-snapshot.js";
import { checkShared, commitment, isCommitment, newValue, recordProblems } from "./fair-table.js";
import { checkButton } from "../check-deal.js";

const JOINED_KEY = "parlour-joined";
const REQUEST_MS = 60_000;
// The commitments of the shared match dealt last, kept for its check (a friend who comes back
// through a new invitation, in a new tab, still has them).
const KEPT_KEY = "parlour-fair-kept";

let ctx = null;

let friendTalk = null;
// On a friend's page: the log of the host's last snapshot, which the next one builds on.
let fromHost = logReceiver();
let nextRequest = 1;
const waiting = new Map();   // request id -> {resolve, timer}
// The page's value for the next deal (only its commitment has left the page), the
// commitments of the deal being made, and those of the match on the table with its fingerprint.
let myValue = null;
let dealing = null;
let kept = null;
// The finished match's record, sent by the host's device once the match is over.
let finalRecord = null;

function storedKept() {
  try { return JSON.parse(localStorage.getItem(KEPT_KEY) || "null"); } catch { return null; }
}

/** The host sent every device's commitment: reveal this device's value (fair-table.js). */
function revealValue(state, message) {
  const t = state.together;
  const { seats, commits, names } = message;
  const fine = Array.isArray(seats) && Array.isArray(commits) && seats.length === commits.length && seats.length <= 12
    && commits.every(isCommitment) && seats.every(Number.isInteger) && (names === undefined || Array.isArray(names));
  if (!fine || !myValue) return;
  const mine = seats.indexOf(t.seat);
  if (mine < 0 || commits[mine] !== commitment(myValue)) {
    state.error = "The host's page listed another commitment for your seat than the one your device sent: your value was not revealed.";
    ctx.render();
    return;
  }
  dealing = { seats, commits, names: (names || []).map((n) => String(n).slice(0, MAX_NAME)) };
  friendTalk.send({ t: "reveal", value: myValue });
  myValue = newValue();
  friendTalk.send({ t: "commit", hash: commitment(myValue) });
}

/** The commitments for the match `snap` starts or goes on with, and what this seat was shown
 * first of it (its view after `moves` moves), for the replay to deal again. */
function keepFor(snap) {
  const fp = snap.deal && snap.deal.fingerprint;
  const seen = { seat: snap.viewer, moves: snap.moves, view: JSON.parse(JSON.stringify(snap.view)) };
  finalRecord = null;
  if (dealing) {
    kept = { ...dealing, fingerprint: fp, seen };
    dealing = null;
    try { localStorage.setItem(KEPT_KEY, JSON.stringify(kept)); } catch { /* private mode: this tab keeps them */ }
  } else if (!kept || kept.fingerprint !== fp) {
    const stored = storedKept();
    kept = stored && fp && stored.fingerprint === fp ? stored : null;
    // A match that starts here, at its deal, without this device's value asked for: the host's
    // device dealt it alone (the check says so at the end).
    if (!kept && fp && snap.moves === 0) kept = { seats: [], commits: [], names: [], fingerprint: fp, seen };
  }
}

/** This page's check of the finished match `snap` against what it kept from the deal. */
export function checkDeal(snap) {
  return checkShared(kept, snap);
}

/** Resolves true once the engine has loaded on this page (started now), false if it failed. */
function engineLoaded(state) {
  return new Promise((resolve) => {
    const timer = setInterval(() => { if (state.engine.status === "failed") { clearInterval(timer); resolve(false); } }, 250);
    ctx.startEngine().then(() => { clearInterval(timer); resolve(true); });
  });
}

/** Check this deal on a friend's page: the check of the values and the fingerprint (`c`), and
 * the engine's replay of the record the host sent, loaded here for that: every move legal, the
 * deal the fingerprint's, the values the ones committed, the scores the table's, and this seat's
 * first view of the match the one the replay deals it. */
async function replayCheck(state, c) {
  const snap = state.snapshot;
  const record = finalRecord;
  state.dealCheck = { status: "checking" };
  ctx.render();
  const problems = recordProblems(record, snap);
  let replay = { ok: false, lines: [], problems: [] };
  if (!problems.length) {
    if (await engineLoaded(state)) {
      let refusal = null;
      const params = {
        record, scores: snap.result && snap.result.scores, expected: kept && kept.fingerprint ? kept.fingerprint : undefined,
        commitments: kept ? kept.commits : undefined, seen: kept && kept.seen ? kept.seen : undefined,
      };
      replay = await ctx.engineCall("check_deal", params, { refused: (error) => { refusal = error; } })
        || { ok: false, lines: [], problems: [`the engine could not replay the record (${refusal ? refusal.message : "it did not answer"})`] };
    } else {
      problems.push("the game engine could not be loaded on this device, so the moves were not replayed");
    }
  }
  // A replay that checks out says again, from the record, all that the page's own lines say.
  const replayed = replay.ok === true;
  state.dealCheck = {
    status: "done", ok: c.ok && !problems.length && replayed,
    lines: replayed ? replay.lines || [] : [...c.lines, ...(replay.lines || [])],
    problems: [...c.problems, ...problems, ...(replay.problems || [])],
  };
  ctx.render();
}

/** On the match-over dialog: what this device's own check of the deal found, in a sentence,
 * and Check this deal, which replays the match with the engine too. */
export function fairVerdict(state) {
  const c = state.fairCheck;
  if (!c) return null;
  if (c.unknown) {
    return h("p", { class: "field-note", dataset: { testid: "fair-verdict", ok: "unknown" } },
      "This page joined the table after this match was dealt, so it cannot check whether the host chose the deal; it checks every match dealt while it is at the table.");
  }
  const said = c.ok
    ? "Checked on this device: the host dealt this match from the seed every device's value made, fixed before the first move."
    : `Checked on this device: this deal does not check out. ${sentence(c.problems[0])}`;
  return h("div", { class: "fair-verdict" },
    h("p", { class: c.ok ? "deal-ok" : "notice", role: c.ok ? "status" : "alert", dataset: { testid: "fair-verdict", ok: c.ok ? "true" : "false" } }, said),
    checkButton(state, () => replayCheck(state, c)));
}

/** True on a friend's page: the table's snapshots come from the host. */
export function isFriend(state) {
  return Boolean(state.together && state.together.role === "friend");
}

function request(message) {
  const id = nextRequest++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => { waiting.delete(id); resolve({ error: { message: "the host did not answer" } }); }, REQUEST_MS);
    waiting.set(id, { resolve, timer });
    if (!friendTalk || !friendTalk.send({ ...message, id })) {
      clearTimeout(timer);
      waiting.delete(id);
      resolve({ error: { message: "you are not connected to the host" } });
    }
  });
}

export async function readInvitation(state) {
  const link = sharedLink();
  // The code leaves the address bar at once: a reload must not reuse a used invitation.
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  try {
    const invitation = await decode(link.text, "join", state.games.map((g) => g.id));
    state.together = {
      role: "friend", status: "name", seat: invitation.seat, game: invitation.game,
      title: invitation.title || (state.games.find((g) => g.id === invitation.game) || {}).title || invitation.game,
      host: invitation.host, invitation, reply: null, code: null, problem: null,
    };
    ctx.loadRenderer(invitation.game).catch(() => undefined);   // the table's drawing, fetched meanwhile
  } catch (error) {
    state.together = { role: "friend", status: "bad", problem: `This invitation cannot be used: ${error instanceof LinkError ? error.message : "it is damaged"}. Ask the host for a new link.` };
  }
  state.screen = "join";
  ctx.render();
}

/** Enough of a snapshot's shape to draw it (the host is another device: checked, not trusted). */
function looksLikeSnapshot(snap) {
  return Boolean(snap) && typeof snap === "object" && Array.isArray(snap.seats) && typeof snap.game === "string"
    && snap.view && typeof snap.view === "object" && Array.isArray(snap.legal);
}

/** A snapshot from the host with its whole log, or null (then the whole log is asked for). */
function hostSnap(snap) {
  const whole = fromHost.unpack(snap);
  if (whole === null && friendTalk) friendTalk.send({ t: "resync" });
  return whole;
}

function onHostMessage(state, message) {
  const t = state.together;
  switch (message.t) {
    case "welcome":
      t.status = "connected";
      ctx.render();
      break;
    case "start":
    case "snap": {
      const snap = hostSnap(message.snap);
      if (!looksLikeSnapshot(snap)) return;
      const fresh = message.t === "start" || state.screen !== "table" || !state.snapshot || snap.game !== state.snapshot.game;
      t.status = "playing";
      if (fresh) keepFor(snap);
      if (fresh) ctx.enterTable(snap, snap.game, null, null, null, undefined, hostSource(state));
      else ctx.applyRemote(snap, snap.moves > state.snapshot.moves ? snap.last : null);
      break;
    }
    case "reply": {
      const pending = waiting.get(message.id);
      if (!pending) return;
      waiting.delete(message.id);
      clearTimeout(pending.timer);
      pending.resolve("snap" in message ? { ...message, snap: hostSnap(message.snap) } : message);
      break;
    }
    case "record":
      // Only a finished match's record: before the end it would show every hand.
      if (message.record && typeof message.record === "object" && state.snapshot && state.snapshot.is_over) finalRecord = message.record;
      break;
    case "note":
      if (typeof message.text === "string") { state.message = message.text.slice(0, 200); ctx.render(); }
      break;
    case "commits":
      revealValue(state, message);
      break;
    case "bye":
      t.status = "gone";
      t.problem = sentence(typeof message.reason === "string" ? message.reason.slice(0, 200) : "the host closed your seat");
      state.error = t.problem;
      ctx.render();
      break;
    default:
      break;
  }
}

/** On a friend's page: what the host's engine answers to `message` ({t: "hint"}) for this
 * seat, or null (a refusal goes to `refused`; an answer once `current()` is false is dropped). */
export async function askHost(message, { refused, current } = {}) {
  const answer = await request(message);
  if (current && !current()) return null;
  if (answer.error || !answer.result || typeof answer.result !== "object") {
    refused({ message: String((answer.error && answer.error.message) || "the host's answer could not be read").slice(0, 300) });
    return null;
  }
  return answer.result;
}

/** The snapshot in the host's answer to the friend's own move or undo. */
function fromHostReply(state, answer, message = null) {
  const snap = answer.snap;
  if (!looksLikeSnapshot(snap) || !state.snapshot) return;
  const moved = snap.moves > state.snapshot.moves;
  ctx.applyRemote(snap, moved ? snap.last : null, { message });
}

async function join(state, name) {
  const t = state.together;
  t.name = String(name || "").trim().slice(0, MAX_NAME) || "Friend";
  t.status = "answering";
  ctx.render();
  let made;
  try {
    made = await answer(t.invitation.signal, t.invitation.stun.map((urls) => ({ urls })));
    t.code = await encode({ k: "reply", s: t.seat, o: t.invitation.signal.u, ...made.signal });
  } catch (error) {
    t.status = "bad";
    t.problem = `Your reply could not be made (${(error && error.message) || error}).`;
    ctx.render();
    return;
  }
  t.reply = linkFor("reply", t.code);
  t.status = "reply";
  ctx.render();
  const channel = await made.channel;
  try {
    await opened(made.pc, channel, 10 * 60_000);
  } catch {
    t.status = "bad";
    t.problem = `The connection to the host did not come up. ${ADVICE}`;
    ctx.render();
    return;
  }
  let held = null;   // the test hook's messages kept back, as a slow network would
  fromHost = logReceiver();
  friendTalk = messenger(made.pc, channel, {
    maxChars: MAX_HOST_MESSAGE_CHARS,
    onMessage: (message) => { if (held) held.push(message); else onHostMessage(state, message); },
    onRefused: (why) => console.warn("Parlour: refused from the host:", why),
    onClose: () => {
      if (t.status === "gone") return;
      t.status = "lost";
      t.problem = "The connection to the host was lost. Your seat waits for you: ask the host for a new invitation link.";
      state.error = t.problem;
      ctx.render();
    },
  });
  try { sessionStorage.setItem(JOINED_KEY, t.title || ""); } catch { /* private mode */ }
  // Test-only hooks (?test=1): send the host anything, as a tampered page could; keep the
  // host's messages back for a while (hold, then release), as a slow network does.
  if (new URLSearchParams(window.location.search).get("test") === "1") {
    window.__parlourFriend = {
      sendRaw: (text) => friendTalk.sendRaw(text),
      hold: () => { held = held || []; },
      held: () => (held ? held.length : 0),
      logs: () => fromHost.counts,
      release: () => { const kept = held || []; held = null; for (const message of kept) onHostMessage(state, message); },
    };
  }
  myValue = newValue();
  friendTalk.send({ t: "hello", name: t.name, parts: 1, commit: commitment(myValue) });
}

export function renderJoin(state, intents) {
  const t = state.together || {};
  const body = [];
  if (t.status === "bad") {
    body.push(h("p", { class: "notice", dataset: { testid: "join-problem" }, role: "alert" }, t.problem));
  } else if (t.status === "name") {
    body.push(
      h("p", {}, `${t.host || "A friend"} invites you to a game of ${t.title}. Your device gets only your own cards: the host's device holds the deal, as a dealer at a real table does.`),
      h("form", { class: "setup-form", onsubmit: (e) => { e.preventDefault(); intents.joinTable(e.target.elements.name.value); } },
        h("div", { class: "field" }, h("label", { for: "join-name" }, "Your name"),
          h("input", { id: "join-name", name: "name", maxlength: MAX_NAME, autocomplete: "nickname", dataset: { testid: "join-name" } })),
        h("div", { class: "form-actions" }, h("button", { type: "submit", class: "primary big", dataset: { testid: "join" } }, "Take my seat"))));
  } else if (t.status === "answering") {
    body.push(h("p", {}, "Making your reply\u2026"));
  } else if (t.status === "reply") {
    body.push(
      h("p", {}, "Send this reply back to the host (the same way the invitation came). The table opens once they take it."),
      shareBox(t.reply, "reply"),
      qrFigure(t.reply, "reply", "Is the host's table open on a phone or tablet? They can scan this code with its camera: "
        + "the reply opens there and goes to their table.", ctx.render),
      h("p", { class: "field-note" }, "Or read them this short code to paste: ", h("code", { class: "link-code", dataset: { testid: "reply-code" } }, t.code)));
  } else if (t.status === "connected") {
    body.push(h("p", { dataset: { testid: "join-waiting" } }, `Connected. Waiting for ${t.host || "the host"} to start the match\u2026`));
  } else {
    body.push(h("p", { class: "notice", role: "alert" }, t.problem || ""));
  }
  return h("section", { class: "screen together-screen", dataset: { testid: "join-screen", status: t.status || "" }, "aria-labelledby": "join-title" },
    h("header", { class: "screen-bar" },
      button("\u2190 Menu", { class: "quiet", dataset: { testid: "back" }, onclick: intents.showMenu }),
      h("h1", { id: "join-title" }, t.title ? `Join a game of ${t.title}` : "Join a table")),
    body);
}

/** A friend's page left (reloaded, or another address): the notice of the seat left behind. */
export function leftNotice() {
  let left;
  try { left = sessionStorage.getItem(JOINED_KEY); sessionStorage.removeItem(JOINED_KEY); } catch { left = null; }
  return left === null ? null : `You left the shared table${left ? ` of ${left}` : ""}. To take your seat again, ask the host for a new invitation link.`;
}

/** The page is leaving: close the connection to the host, so that it knows at once. */
export function closeFriend() {
  if (friendTalk) friendTalk.close();
}

/**
 * On a friend's page, the table's source (js/app/table-source.js): the host's device. The
 * friend's move, "why not", undo and hint are sent to the host, whose engine answers; the
 * table changes when the host's view comes. The match is the host's: nothing is saved here.
 */
function hostSource(state) {
  async function act(actionId) {
    const answer = await request({ t: "act", action: actionId });
    if (answer.error) { state.error = sentence(answer.error.message); ctx.render(); return; }
    state.error = null;
    fromHostReply(state, answer);
  }
  return {
    kind: "host",
    local: false,
    act: (actionId) => ctx.holdingBusy(() => act(actionId)),
    async why(actionId) {
      const answer = await request({ t: "why", action: actionId });
      if (answer.error || answer.reason) { state.error = sentence(answer.error ? answer.error.message : answer.reason); ctx.render(); return; }
      await act(actionId);
    },
    undo: () => ctx.holdingBusy(async () => {
      const answer = await request({ t: "undo" });
      if (answer.error) { state.error = sentence(answer.error.message); ctx.render(); return; }
      fromHostReply(state, answer, "Move taken back.");
    }),
    // The host's engine thinks for the friend's seat alone.
    hint: (asking) => askHost({ t: "hint" }, asking),
    engineLoaded: () => {},
  };
}

/** The friend's intents: take the seat. */
export function friendIntents(context) {
  ctx = context;
  const { state } = context;
  return {
    joinTable(name) {
      return join(state, name);
    },
  };
}

// Playing together: the host's page. The host (the person who sets seats to "Friend") runs
// the match in their own engine, with the computer seats; each friend's seat gets an
// invitation, a connection once the friend's reply is taken, and its own view of the table
// after every change. A friend's messages are untrusted: only the kinds index.js lists, small,
// at most RATE_COUNT in RATE_MS; their action ids go to the host's engine for that seat only,
// which refuses any other seat's move. Everything refused is counted on the host's table and
// logged. A lost friend's seat waits, or a computer plays it until they come back.
import { h, button } from "../../ui/dom.js";
import { errorArea } from "../../ui/setup.js";
import { LinkError, decode, encode, linkFor } from "./signal-links.js";
import { CONNECT_MS, complete, invite, messenger, opened } from "./peer.js";
import { ADVICE, CHANNEL_NAME, qrFigure, shareBox } from "./share.js";
import { isFriend } from "./friend.js";
import { getSettings, isIceServer } from "../preferences.js";
import { logSender } from "../../held-logs.js";
import { MAX_NAME } from "../../read-snapshot.js";
import { startParams } from "../../ui/setup-model.js";
import { commitment, isCommitment, isValue, newValue, revealProblem } from "./fair-table.js";

const RATE_COUNT = 40;
const RATE_MS = 10_000;
const MAX_ACTION_CHARS = 200;
// How long the host waits for each friend's value before a deal (then it says who did not send it).
const REVEAL_MS = 20_000;
// How long a lost friend's seat waits before a computer plays it (the host chooses).
const STAND_IN_WAITS = [[0, "Never"], [30_000, "After 30 seconds"], [120_000, "After 2 minutes"]];
const STAND_IN_DEFAULT = 30_000;
let standInTestMs = null;   // the test hook's shorter wait (?test=1 on the host's page)
let connectTestMs = null;   // the test hook's shorter wait for a connection to come up
let answerTestMs = 0;       // and how long it holds a friend's answer back, as a slow network
let dealFromTest = null;    // the test hook's tampered host: the match it loads instead of the joint deal

/** The servers the host chose for friends on another network: none unless `internet`. */
function iceServers(internet) {
  if (!internet) return [];
  const s = getSettings();
  const servers = [];
  if (isIceServer(s.stun)) servers.push({ urls: s.stun });
  if (isIceServer(s.turn) && s.turn.startsWith("turn")) servers.push({ urls: s.turn, username: s.turnUser, credential: s.turnPassword });
  return servers;
}

const STATUS_WORDS = {
  making: "Making the invitation\u2026",
  ready: "Link not shared yet",
  shared: "Waiting for the reply",
  connecting: "Connecting\u2026",
  connected: "Connected",
  lost: "Lost: the seat waits",
  standin: "Lost: a computer plays the seat until they come back",  // a lost seat with `standin`
  failed: "Did not connect",
};

// The host's connections, by seat: {pc, channel, signal, link, talk (messenger), times}.
const links = new Map();
let ctx = null;
let handoff = null;   // the BroadcastChannel the inviting tab listens on

function hostSeats(state) {
  return (state.together && state.together.role === "host" && state.together.seats) || [];
}

function seatState(state, seat) {
  return hostSeats(state).find((s) => s.seat === seat);
}

function friendSeatsOf(seats) {
  return seats.map((s, i) => (s.type === "friend" || s.stand_in ? i : -1)).filter((i) => i >= 0);
}

function drop(seat, reason = null) {
  const link = links.get(seat);
  if (!link) return;
  links.delete(seat);
  if (link.talk) {
    if (reason) link.talk.send({ t: "bye", reason });
    link.talk.close();
  } else {
    try { link.pc.close(); } catch { /* closed */ }
  }
}

async function makeInvitation(state, seat) {
  drop(seat);
  const entry = seatState(state, seat);
  Object.assign(entry, { status: "making", link: null, problem: null });
  ctx.render();
  const t = state.together;
  let made;
  try {
    made = await invite(iceServers(t.internet));
  } catch (error) {
    Object.assign(entry, { status: "failed", problem: `The invitation could not be made (${(error && error.message) || error}).` });
    ctx.render();
    return;
  }
  if (state.together !== t) { made.pc.close(); return; }
  // With the internet option the friend's page uses the same STUN server (never TURN
  // credentials: those stay on the host's device, and one side relaying is enough).
  const stun = t.internet ? iceServers(true).filter((server) => String(server.urls).startsWith("stun")).map((server) => server.urls) : [];
  const code = await encode({ k: "join", g: t.game, h: t.hostName, s: seat, ...(stun.length ? { i: stun } : {}), ...made.signal });
  links.set(seat, { pc: made.pc, channel: made.channel, signal: made.signal, talk: null, times: [], parts: false, logs: logSender() });
  Object.assign(entry, { status: made.signal.c.length ? "ready" : "failed", link: linkFor("join", code) });
  if (!made.signal.c.length) entry.problem = "This device has no network address to offer: connect it to a Wi-Fi network, then invite again.";
  ctx.render();
}

async function takeReply(state, text) {
  let reply;
  try {
    reply = await decode(text, "reply");
  } catch (error) {
    return `This reply cannot be used: ${error instanceof LinkError ? error.message : "it is damaged"}.`;
  }
  const entry = seatState(state, reply.seat);
  const link = links.get(reply.seat);
  if (!entry || !link || link.signal.u !== reply.offer) {
    return "This reply answers an older invitation or another table: ask your friend to open the newest link.";
  }
  if (link.talk) return "That seat is connected already.";
  Object.assign(entry, { status: "connecting", problem: null });
  ctx.render();
  // A seat whose wait runs out says so and is offered "Invite again", yet keeps listening: a
  // channel that opens later still gets its messenger (the friend's hello then says
  // "Connected"). Meanwhile it waits as a lost seat does.
  let missed = false;
  const miss = () => {
    const now = seatState(state, reply.seat);
    if (missed || links.get(reply.seat) !== link || link.talk || !now) return;
    missed = true;
    link.channel.addEventListener("open", () => {
      if (links.get(reply.seat) === link && !link.talk) listenTo(state, reply.seat, link);
    }, { once: true });
    Object.assign(now, { status: "failed", problem: `The connection did not come up within ${CONNECT_MS / 1000} seconds. ${ADVICE}` });
    awaitStandIn(state, now);
    ctx.render();
  };
  try {
    // The wait counts from the paste; the test hook can hold the answer back past it, as a
    // slow network does. A wait that ran out while the answer was held is shown before the
    // answer is taken, so the channel that then opens finds the seat failed and listening.
    const open = opened(link.pc, link.channel, connectTestMs ?? CONNECT_MS);
    let ranOut = false;
    open.catch(() => { ranOut = true; });   // awaited below, after the answer is taken
    if (answerTestMs) {
      await new Promise((resolve) => setTimeout(resolve, answerTestMs));
      if (ranOut) miss();
    }
    await complete(link.pc, reply.signal);
    await open;
  } catch {
    if (missed || links.get(reply.seat) !== link || link.talk || !seatState(state, reply.seat)) return null;
    // The wait ran out while the answer was still being taken, and the channel opened
    // meanwhile (its "open" came before anyone listened for it again): the seat is connected.
    if (link.channel.readyState === "open") { listenTo(state, reply.seat, link); return null; }
    miss();
    return null;
  }
  listenTo(state, reply.seat, link);
  // The seat reads "Connected" once the friend's page has said hello with their name (its
  // first message), so a match started at once already has every friend's name.
  return null;
}

/** Seat `seat`'s connection is open: its messages go to fromFriend, its end makes it lost. */
function listenTo(state, seat, link) {
  const entry = seatState(state, seat);
  if (entry && entry.status === "failed") { Object.assign(entry, { status: "connecting", problem: null }); ctx.render(); }
  link.talk = messenger(link.pc, link.channel, {
    onMessage: (message) => fromFriend(state, seat, link, message),
    onRefused: (why) => refuse(state, seat, why),
    onClose: () => {
      if (links.get(seat) !== link) return;
      links.delete(seat);
      const now = seatState(state, seat);
      if (now) { now.status = "lost"; now.link = null; awaitStandIn(state, now); }
      ctx.render();
    },
  });
}

/** The host's side of a shared deal: every device's commitment to every friend, then each
 * friend's value, checked against its commitment; the engine deals from the seed they all
 * make (the host's value, and so the seed, stays here until the match is over). The match's
 * snapshot, or null with `problem` saying why it was not dealt. */
async function jointDeal(state, snap, gameId, setup) {
  const t = state.together;
  const friends = t.seats.map((entry) => entry.seat);
  const silent = t.seats.find((entry) => !links.get(entry.seat) || !links.get(entry.seat).commit);
  if (silent) {
    t.problem = `${silent.name}'s page sent no commitment for the deal: ask them to open a new invitation link.`;
    return null;
  }
  const value = newValue();
  const seats = [snap.viewer, ...friends].sort((a, b) => a - b);
  const commits = seats.map((seat) => (seat === snap.viewer ? commitment(value) : links.get(seat).commit));
  const names = seats.map((seat) => (seat === snap.viewer ? t.hostName : seatState(state, seat).name));
  const revealed = await Promise.all(friends.map((seat) => revealOf(links.get(seat), { t: "commits", seats, commits, names })));
  const values = [];
  for (const seat of seats) {
    if (seat === snap.viewer) { values.push(value); continue; }
    const got = revealed[friends.indexOf(seat)];
    const who = seatState(state, seat).name;
    const problem = revealProblem(who, got, links.get(seat).commitUsed, REVEAL_MS);
    if (problem) { t.problem = problem; return null; }
    values.push(got);
  }
  let refusal = null;
  const refused = (error) => { refusal = error; };
  const dealt = dealFromTest
    ? await ctx.engineCall("load", dealFromTest, { refused })
    : await ctx.engineCall("start", { ...startParams(gameId, setup, 0, 0), values, commitments: commits }, { refused });
  if (!dealt) { t.problem = `The match was not dealt: ${refusal ? refusal.message : "the engine did not answer"}.`; return null; }
  state.sharedDeal = { fingerprint: dealt.deal && dealt.deal.fingerprint, commits };
  return dealt;
}

/** Send `message` (every commitment) to a friend's page; its value, or null after REVEAL_MS. */
function revealOf(link, message) {
  return new Promise((resolve) => {
    if (!link || !link.talk) { resolve(null); return; }
    const timer = setTimeout(() => { link.onReveal = null; resolve(null); }, REVEAL_MS);
    link.commitUsed = link.commit;
    link.onReveal = (value) => { clearTimeout(timer); link.onReveal = null; resolve(value); };
    if (!link.talk.send(message)) { clearTimeout(timer); link.onReveal = null; resolve(null); }
  });
}

/** A lost friend's seat: a computer plays it once the host's chosen wait is over. */
function awaitStandIn(state, entry) {
  const t = state.together;
  clearTimeout(entry.standInTimer);
  const wait = standInTestMs ?? (t.standIn ? t.standIn.wait : STAND_IN_DEFAULT);
  if (!wait || t.lobby) return;
  entry.standInTimer = setTimeout(() => standIn(state, entry.seat), wait);
}

/** Tell every connected friend's page `text` (the host's own table says it too). */
function tellTable(text) {
  for (const link of links.values()) if (link.talk) link.talk.send({ t: "note", text });
}

async function standIn(state, seat) {
  const entry = seatState(state, seat);
  const t = state.together;
  if (!entry || entry.standin || ["connected", "connecting"].includes(entry.status) || t.lobby || !state.snapshot || state.snapshot.is_over) return;
  const level = (t.standIn && state.levels.includes(t.standIn.level)) ? t.standIn.level : (state.levels.includes("normal") ? "normal" : state.levels[0]);
  const snap = await ctx.engineCall("set_seat", { seat, level, stand_in: true }, { refused: () => {} });
  if (!snap || entry.status === "connected") return;
  entry.standin = true;
  const text = `${snap.seats[seat].name}'s connection was lost: a computer (${level}) plays their seat until they come back.`;
  tellTable(text);
  await ctx.applyRemote(snap, null, { message: text });
}

/** A friend back at a seat a computer played: it is theirs again from their next turn. */
async function standInBack(seat) {
  const snap = await ctx.engineCall("set_seat", { seat, back: true }, { refused: () => {} });
  if (!snap) return;
  const text = `${snap.seats[seat].name} is back and plays their own seat again.`;
  tellTable(text);
  await ctx.applyRemote(snap, null, { message: text });
}

function refuse(state, seat, why) {
  const entry = seatState(state, seat);
  if (entry) entry.refused = (entry.refused || 0) + 1;
  console.warn(`Parlour: refused from seat ${seat + 1}: ${why}`);
  ctx.renderSoon();
}

function reply(link, id, body) {
  link.talk.send({ t: "reply", id, ...body });
}

/** `snap` as sent to the friend of `link`: the log in parts if their page takes them. */
function packed(link, snap) {
  return link.parts ? link.logs.pack(snap) : snap;
}

/** A friend's message (already a JSON object with a kind), on the host's page. */
async function fromFriend(state, seat, link, message) {
  const now = Date.now();
  link.times = link.times.filter((at) => now - at < RATE_MS);
  if (link.times.length >= RATE_COUNT) { refuse(state, seat, "too many messages"); return; }
  link.times.push(now);
  const id = message.id;
  const validId = Number.isInteger(id) && id > 0;
  const entry = seatState(state, seat);
  switch (message.t) {
    case "hello": {
      if (typeof message.name !== "string") { refuse(state, seat, "a hello without a name"); return; }
      const name = message.name.trim().slice(0, MAX_NAME) || `Friend ${seat + 1}`;
      entry.name = name;
      const wasStandIn = Boolean(entry.standin);
      entry.standin = false;
      clearTimeout(entry.standInTimer);
      entry.status = "connected";
      link.parts = message.parts === 1;
      link.commit = isCommitment(message.commit) ? message.commit : null;
      link.talk.send({ t: "welcome", seat, title: state.together.title });
      if (state.together.lobby) {
        state.together.pending.snap.seats[seat].name = name;
        ctx.render();
        return;
      }
      ctx.renderSoon();
      if (wasStandIn) await standInBack(seat);
      const renamed = await ctx.engineCall("set_seat", { seat, name }, { refused: () => {} });
      if (renamed) ctx.applyRemote(renamed, null);
      await sendSeat(seat, "start");
      return;
    }
    case "act":
    case "why": {
      if (!validId || typeof message.action !== "string" || message.action.length > MAX_ACTION_CHARS) {
        refuse(state, seat, `a malformed ${message.t}`);
        return;
      }
      if (state.together.lobby || !state.snapshot) { reply(link, id, { error: { message: "the match has not started" } }); return; }
      if (message.t === "why") {
        const answerWhy = await ctx.engineCall("why", { action: message.action, seat }, { refused: (error) => reply(link, id, { error }) });
        if (answerWhy) reply(link, id, { reason: answerWhy.legal ? null : answerWhy.reason });
        return;
      }
      await friendMove(state, seat, link, id, "act", { action: message.action, seat });
      return;
    }
    case "hint": {
      if (!validId) { refuse(state, seat, "a malformed hint"); return; }
      if (state.together.lobby || !state.snapshot) { reply(link, id, { error: { message: "the match has not started" } }); return; }
      // The host's engine thinks for that seat alone: its search sees what that seat may know.
      const suggestion = await ctx.engineCall("hint", { seat }, { refused: (error) => reply(link, id, { error }) });
      if (suggestion) reply(link, id, { result: suggestion });
      return;
    }
    case "undo":
      if (!validId) { refuse(state, seat, "a malformed undo"); return; }
      await friendMove(state, seat, link, id, "undo", { seat });
      return;
    case "commit":
      if (!isCommitment(message.hash)) { refuse(state, seat, "a malformed commitment"); return; }
      link.commit = message.hash;
      return;
    case "reveal":
      if (!isValue(message.value) || !link.onReveal) { refuse(state, seat, "a value nobody asked for"); return; }
      link.onReveal(message.value);
      return;
    case "resync":
      if (!link.parts) { refuse(state, seat, "a resync without parts"); return; }
      link.logs.reset();
      if (!state.together.lobby && state.snapshot) await sendSeat(seat);
      return;
    default:
      refuse(state, seat, `a message of unknown kind "${String(message.t).slice(0, 20)}"`);
  }
}

/** A friend's move (or undo) through the host's engine, then the host's own table. */
async function friendMove(state, seat, link, id, method, params) {
  let refusal = null;
  const done = await ctx.engineCall(method, params, { refused: (error) => { refusal = error; } });
  if (!done) {
    const error = refusal || { code: "failed", message: "the host's engine could not take it" };
    reply(link, id, { error: { code: String(error.code), message: String(error.message) } });
    if (refusal) console.warn(`Parlour: seat ${seat + 1}'s ${method} refused: ${refusal.message}`);
    return;
  }
  // The answer carries the friend's own view after it: their table changes at once.
  reply(link, id, { snap: packed(link, method === "act" ? done.seat_view : done) });
  // A friend's move reads on the host's table as a computer's does: in the host's own words.
  if (method === "undo") {
    const now = await ctx.engineCall("snapshot", {}, { refused: () => {} });
    if (now) await ctx.applyRemote(now, null, { message: `${now.seats[seat].name} took back a move.` });
    return;
  }
  await ctx.applyRemote(done.snapshot, { ...done.action, player: seat });
}

/** Send seat `seat` its view (`kind` "snap" or "start"); once the match is over, its record
 * too (seed and salt revealed), for the friend's page to replay. */
async function sendSeat(seat, kind = "snap") {
  const link = links.get(seat);
  if (!link || !link.talk) return;
  const snap = await ctx.engineCall("seat_view", { seat }, { refused: () => {} });
  if (!snap || links.get(seat) !== link) return;
  link.talk.send({ t: kind, snap: packed(link, snap) });
  if (!snap.is_over) return;
  const saved = await ctx.engineCall("record", {}, { refused: () => {} });
  // The same finished match (its salt is the one revealed), never one dealt since.
  const same = saved && saved.record.deal && saved.record.deal.salt === snap.deal.salt && saved.record.actions.length === snap.moves;
  if (same && links.get(seat) === link) link.talk.send({ t: "record", record: saved.record });
}

export function forwardAll(state) {
  const t = state.together;
  if (!t || t.role !== "host" || t.lobby) return;
  // A match just dealt (a rematch too) starts afresh on the friends' tables.
  const kind = t.fresh ? "start" : "snap";
  t.fresh = false;
  for (const seat of links.keys()) sendSeat(seat, kind);
}

function listenForReplies(state) {
  // Test-only hook (?test=1): a shorter wait before a computer takes a lost friend's seat.
  if (new URLSearchParams(window.location.search).get("test") === "1") {
    window.__parlourHost = {
      standInWait: (ms) => { standInTestMs = ms; },
      connectWait: (ms, answerMs = 0) => { connectTestMs = ms; answerTestMs = answerMs; },
      // Each seat's connection as WebRTC reports it, for a test that fails to say what it saw.
      connections: () => Object.fromEntries([...links].map(([seat, link]) => [seat, {
        connection: link.pc.connectionState, ice: link.pc.iceConnectionState,
        channel: link.channel.readyState, messenger: link.talk ? (link.talk.closed ? "closed" : "open") : "none",
      }])),
      // A tampered host: the next shared match is this saved one ({record, seats}), not the deal
      // every device's value makes (the friends still send their values, as to an honest host).
      dealFrom: (data) => { dealFromTest = data; },
    };
  }
  if (handoff || typeof BroadcastChannel !== "function") return;
  handoff = new BroadcastChannel(CHANNEL_NAME);
  handoff.onmessage = async (event) => {
    const data = event.data || {};
    if (typeof data.reply !== "string" || !hostSeats(state).length) return;
    const problem = await takeReply(state, data.reply);
    handoff.postMessage({ taken: !problem, problem });
    if (problem) { state.together.problem = problem; ctx.render(); }
  };
}

function seatRow(state, intents, entry, inTable) {
  const status = entry.status;
  const pasteId = `reply-${entry.seat}`;
  const needsLink = ["ready", "shared", "failed"].includes(status) && entry.link;
  const words = entry.standin && (status === "lost" || status === "failed") ? STATUS_WORDS.standin : STATUS_WORDS[status] || status;
  return h("li", { class: "friend-seat", dataset: { testid: `friend-${entry.seat}`, status, standin: entry.standin ? "true" : "false" } },
    h("p", {}, h("strong", {}, entry.name || `Seat ${entry.seat + 1}`), ` \u2014 `, h("span", { dataset: { testid: "friend-status" } }, words),
      entry.refused ? h("span", { class: "field-note" }, ` (${entry.refused} message${entry.refused > 1 ? "s" : ""} refused)`) : null),
    entry.problem ? h("p", { class: "notice", role: "alert" }, entry.problem) : null,
    entry.problem ? tryAnywhere(state, intents, entry) : null,
    needsLink ? [
      h("p", { class: "field-note" }, "Send this invitation to your friend; it is theirs alone and works once."),
      shareBox(entry.link, "invite", () => intents.inviteShared(entry.seat)),
      qrFigure(entry.link, "invite", "A friend in the room can scan this code with their phone's camera instead.", ctx.render),
      h("form", { class: "paste-reply", onsubmit: (e) => { e.preventDefault(); intents.pasteReply(e.target.elements.reply.value); } },
        h("label", { for: pasteId }, "Their reply (link or code)"),
        h("input", { id: pasteId, name: "reply", autocomplete: "off", spellcheck: "false", dataset: { testid: `paste-${entry.seat}` } }),
        button("Connect", { type: "submit", class: "primary", dataset: { testid: `connect-${entry.seat}` } })),
    ] : null,
    (status === "failed" || (inTable && ["lost", "ready", "shared"].includes(status))) ? h("div", { class: "form-actions" },
      status === "lost" || status === "failed" ? button("Invite again", { class: "quiet", dataset: { testid: `reinvite-${entry.seat}` }, onclick: () => intents.reinvite(entry.seat) }) : null,
      !inTable || entry.standin ? null : button("Let a computer play this seat", { class: "quiet", dataset: { testid: `to-computer-${entry.seat}` }, onclick: () => intents.toComputer(entry.seat) })) : null);
}

export function renderLobby(state, intents) {
  const t = state.together;
  const seats = hostSeats(state);
  const ready = seats.every((s) => s.status === "connected");
  return h("section", { class: "screen together-screen", dataset: { testid: "lobby" }, "aria-labelledby": "lobby-title" },
    h("header", { class: "screen-bar" },
      button("\u2190 Menu", { class: "quiet", dataset: { testid: "back" }, onclick: intents.showMenu }),
      h("h1", { id: "lobby-title" }, `Invite your friends to ${t.title}`)),
    h("p", {}, "Each friend gets their own link. They open it on their phone or computer, choose a name and send you back a reply. "
      + "Your device holds the deal, as a dealer does: each friend's device receives only their own cards. "
      + "The devices talk directly to each other, with no server in between."),
    reachChoice(state, intents),
    h("ol", { class: "friend-seats" }, seats.map((entry) => seatRow(state, intents, entry, false))),
    standInOption(state, intents),
    errorArea(t.problem),
    h("div", { class: "form-actions" },
      button(t.dealing ? "Dealing from every device's value\u2026" : ready ? "Start the match" : "Waiting for every friend to join\u2026",
        { class: "primary big", disabled: !ready || Boolean(t.dealing), dataset: { testid: "start-shared" }, onclick: intents.startShared })));
}

/** The invite screen's choice of what happens to a lost friend's seat: a computer plays it
 * after a wait (or never), at a level; the friend takes it back when they come back. */
function standInOption(state, intents) {
  const choice = state.together.standIn || { wait: STAND_IN_DEFAULT, level: "normal" };
  const levels = state.levels.length ? state.levels : ["normal"];
  return h("div", { class: "field stand-in-field" },
    h("label", { for: "stand-in-wait" }, "If a friend's connection is lost, a computer plays their seat"),
    h("select", { id: "stand-in-wait", dataset: { testid: "stand-in-wait" }, onchange: (e) => intents.chooseStandIn({ wait: Number(e.target.value) }) },
      STAND_IN_WAITS.map(([ms, words]) => h("option", { value: String(ms), selected: ms === choice.wait }, words))),
    h("label", { for: "stand-in-level" }, "at the level"),
    h("select", { id: "stand-in-level", dataset: { testid: "stand-in-level" }, disabled: !choice.wait, onchange: (e) => intents.chooseStandIn({ level: e.target.value }) },
      levels.map((level) => h("option", { value: level, selected: level === choice.level }, level[0].toUpperCase() + level.slice(1)))),
    h("p", { class: "field-note" }, "Every device is told; a friend who comes back through a new invitation takes their seat back at their next turn."));
}

/** The invite screen's one choice: friends in this room (the devices reach each other on
 * their own network, nothing else is contacted) or anywhere (the STUN server named in
 * Settings is asked the way). In this room unless chosen. */
function reachChoice(state, intents) {
  const t = state.together;
  const stun = getSettings().stun;
  const usable = isIceServer(stun);
  const anywhere = t.internet === true;
  const choice = (value, label, words) => h("div", { class: "field option-field" },
    h("input", { type: "radio", name: "together-reach", id: `reach-${value}`, value,
      checked: anywhere === (value === "anywhere"), disabled: value === "anywhere" && !usable,
      dataset: { testid: `reach-${value}` }, onchange: () => intents.useInternet(value === "anywhere") }),
    h("label", { for: `reach-${value}` }, h("span", { class: "option-label" }, label), h("span", { class: "option-description" }, words)));
  return h("fieldset", { class: "reach-choice", dataset: { testid: "reach" } },
    h("legend", {}, "Where are your friends?"),
    choice("room", "In this room", "Their devices must be on your Wi-Fi; nothing but the devices themselves is contacted."),
    choice("anywhere", "Anywhere", usable
      ? `Friends on any network can join, but this page then asks the STUN server ${stun} (named in Settings) the way; no game data passes through it.`
      : "Name a STUN server in Settings first: friends on another network are reached through it."));
}

/** A seat whose connection did not come up while only this room was tried: the way to try anywhere. */
function tryAnywhere(state, intents, entry) {
  const t = state.together;
  if (entry.status !== "failed" || t.internet === true || !isIceServer(getSettings().stun)) return null;
  return button("Try again, reaching anywhere", { class: "quiet", dataset: { testid: `anywhere-${entry.seat}` }, onclick: () => intents.useInternet(true) });
}

export function renderPlayersPanel(state, intents) {
  const seats = hostSeats(state);
  if (!seats.length || state.together.lobby) return null;
  return h("section", { class: "panel players-panel", "aria-label": "Friends at the table", dataset: { testid: "players-panel" } },
    h("h2", {}, "Friends"),
    h("ul", { class: "friend-seats" }, seats.map((entry) => seatRow(state, intents, entry, true))),
    seats.some((entry) => entry.status !== "connected") ? reachChoice(state, intents) : null,
    state.together.problem ? h("p", { class: "notice" }, state.together.problem) : null);
}

/** The host's page after a reload or a resumed save: the friends' seats wait, unconnected. */
export function adoptSavedMatch(state) {
  const snap = state.snapshot;
  if (!snap || isFriend(state)) return;
  const friends = friendSeatsOf(snap.seats);
  if (!friends.length) { if (state.together && state.together.role === "host") closeHost(state); return; }
  if (state.together && state.together.role === "host" && !state.together.lobby && state.together.game === snap.game) return;
  state.together = {
    role: "host", game: snap.game, title: snap.title, hostName: (snap.seats[snap.viewer] || {}).name || "Host", lobby: false, problem: null,
    seats: friends.map((seat) => ({ seat, name: snap.seats[seat].name, status: links.get(seat) && links.get(seat).talk ? "connected" : "lost", standin: Boolean(snap.seats[seat].stand_in), link: null, refused: 0 })),
    standIn: (state.together && state.together.standIn) || null,
  };
  for (const entry of state.together.seats) if (entry.status === "lost" && !entry.standin) awaitStandIn(state, entry);
  listenForReplies(state);
}

function closeHost(state) {
  for (const seat of [...links.keys()]) drop(seat, "The host closed the table.");
  state.together = null;
}

/** The page is leaving: close every friend's connection, so that their pages know at once. */
export function closeLinks() {
  for (const link of links.values()) if (link.talk) link.talk.close();
}

/** The host's intents: the lobby, its invitations and choices, the match started, a seat
 * invited again or given to a computer. */
export function hostIntents(context) {
  ctx = context;
  const { state } = context;
  return {
    /** The host: the match is dealt and waits in the lobby until every friend has joined. */
    openLobby(snap, gameId, setup) {
      const friends = friendSeatsOf(snap.seats);
      const old = state.together && state.together.role === "host" ? state.together.seats : [];
      for (const seat of [...links.keys()]) if (!friends.includes(seat)) drop(seat, "The host set up a new table without your seat.");
      state.together = {
        role: "host", game: gameId, title: snap.title, hostName: (snap.seats[snap.viewer] || {}).name || "Host", lobby: true,
        pending: { snap, gameId, setup }, problem: null, internet: Boolean(state.together && state.together.internet),
        standIn: (state.together && state.together.standIn) || { wait: STAND_IN_DEFAULT, level: state.levels.includes("normal") ? "normal" : state.levels[0] },
        seats: friends.map((seat) => {
          const before = old.find((s) => s.seat === seat);
          const connected = links.get(seat) && links.get(seat).talk && !links.get(seat).talk.closed;
          return { seat, name: connected && before ? before.name : snap.seats[seat].name, status: connected ? "connected" : "making", link: null, refused: 0 };
        }),
      };
      for (const entry of state.together.seats) {
        if (entry.status === "connected") snap.seats[entry.seat].name = entry.name;
      }
      state.screen = "lobby";
      state.error = null;
      listenForReplies(state);
      context.render();
      for (const entry of state.together.seats) if (entry.status !== "connected") makeInvitation(state, entry.seat);
    },
    /** Friends on another network, or not: the invitations not yet answered are made again. */
    useInternet(on) {
      const t = state.together;
      t.internet = on === true;
      for (const entry of t.seats) if (["ready", "shared", "failed"].includes(entry.status)) makeInvitation(state, entry.seat);
    },
    chooseStandIn(change) {
      const t = state.together;
      t.standIn = { ...(t.standIn || { wait: STAND_IN_DEFAULT, level: "normal" }), ...change };
      context.render();
    },
    inviteShared(seat) {
      const entry = seatState(state, seat);
      if (entry && entry.status === "ready") { entry.status = "shared"; context.render(); }
    },
    async pasteReply(text) {
      const problem = await takeReply(state, text);
      state.together.problem = problem;
      context.render();
    },
    async startShared() {
      const t = state.together;
      if (!t || !t.lobby || !t.seats.every((s) => s.status === "connected")) return;
      if (t.dealing) return;
      const { snap, gameId, setup } = t.pending;
      t.dealing = true;
      t.problem = null;
      context.render();
      const dealt = await jointDeal(state, snap, gameId, setup);
      t.dealing = false;
      if (!dealt || state.together !== t || !t.lobby) { context.render(); return; }
      const renames = t.seats.map((s) => ({ seat: s.seat, name: s.name }));
      t.lobby = false;
      t.pending = null;
      t.fresh = true;
      let start = dealt;
      for (const r of renames) {
        const renamed = await context.engineCall("set_seat", r, { refused: () => {} });
        if (renamed) start = renamed;
      }
      // Entering the table sends each friend their view (see afterSnapshot).
      await context.enterTable(start, gameId, setup);
    },
    async reinvite(seat) {
      await makeInvitation(state, seat);
    },
    async toComputer(seat) {
      const level = state.levels.includes("normal") ? "normal" : state.levels[0];
      drop(seat, "The host gave your seat to a computer player.");
      const snap = await context.engineCall("set_seat", { seat, level });
      if (!snap) return;
      state.together.seats = state.together.seats.filter((s) => s.seat !== seat);
      if (!state.together.seats.length) state.together = null;
      await context.applyRemote(snap, null, { message: `${snap.seats[seat].name} is now played by the computer.` });
    },
  };
}

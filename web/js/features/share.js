// Sharing a match: export it as a file, import one, and "challenge" links.
//
// The file is the saved form of the match, as JSON:
//   {"parlour": "match", "v": 1, "title", "exported_at", "record": {engine record},
//    "seats": [{type, level, name}], "practice": bool}
// (a bare engine record {"game", "players", "seed", "options", "actions"} imports too).
//
// A challenge link starts the same deal for someone else:
//   <page>#game=crisps&seed=123456&players=human,normal&options=no_faceup_draw:true,auto_skip:false
// - game: a game id (the menu's data-game).
// - seed: a whole number 0..2147483647 (the deal).
// - players: the seats in order, comma-separated: "human" or a computer level
//   (random, easy, normal, hard, expert: whatever the engine offers); or just a number of
//   players (one person in the first seat, the rest "normal" computers). Optional: the
//   game's default number, one person against "normal" computers.
// - options: optional, either key:value pairs separated by commas (true/false and numbers
//   are read as such) or a URL-encoded JSON object, e.g. %7B%22auto_skip%22%3Atrue%7D.
// A link that cannot be used says why on the menu; nothing is started and nothing is lost.
import { h, button } from "../ui/dom.js";
import { matchSlot } from "../storage.js";
import { defaultLevel, seatNames } from "../ui/setup-model.js";

const MAX_SEED = 2 ** 31 - 1;
const MAX_FILE_BYTES = 2_000_000;

// ----- challenge links ---------------------------------------------------------------------

function parseValue(text) {
  if (text === "true") return true;
  if (text === "false") return false;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/** Options from a link: JSON object text or "key:value,key:value". Throws Error(words). */
function parseOptions(text) {
  const raw = String(text || "").trim();
  if (!raw) return {};
  if (raw.startsWith("{")) {
    let value;
    try { value = JSON.parse(raw); } catch { throw new Error("the options are not readable (neither JSON nor key:value pairs)"); }
    if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("the options must be an object of names and values");
    return value;
  }
  const out = {};
  for (const pair of raw.split(",")) {
    const at = pair.indexOf(":");
    if (at <= 0) throw new Error(`the option "${pair.slice(0, 30)}" is not written as name:value`);
    out[pair.slice(0, at).trim()] = parseValue(pair.slice(at + 1).trim());
  }
  return out;
}

/** Options as key:value pairs (the readable form), or JSON when a value needs it. */
function formatOptions(options) {
  const entries = Object.entries(options || {});
  const simple = entries.every(([k, v]) => /^[\w-]+$/.test(k)
    && (typeof v === "boolean" || typeof v === "number" || (typeof v === "string" && /^[\w .-]+$/.test(v) && v !== "true" && v !== "false" && !/^-?\d/.test(v))));
  if (simple) return entries.map(([k, v]) => `${k}:${v}`).join(",");
  return JSON.stringify(options);
}

/**
 * Read a challenge from a location hash. Returns null when the hash is not a challenge,
 * {ok: true, params, summary} for a usable one, {ok: false, message} otherwise.
 * `games` and `levels` are the engine's (bridge.games()).
 */
function parseChallenge(hash, games, levels) {
  const text = String(hash || "").replace(/^#/, "");
  if (!text) return null;
  const q = new URLSearchParams(text);
  if (!q.has("game") && !q.has("seed")) return null;
  const fail = (why) => ({ ok: false, message: `This challenge link cannot be used: ${why}.` });
  const gameId = q.get("game") || "";
  const spec = games.find((g) => g.id === gameId);
  if (!gameId) return fail("it does not say which game");
  if (!spec) return fail(`there is no game called "${gameId.slice(0, 40)}"`);
  const seedText = (q.get("seed") || "").trim();
  if (!/^\d{1,10}$/.test(seedText) || Number(seedText) > MAX_SEED) {
    return fail(seedText ? `the deal number "${seedText.slice(0, 20)}" is not a whole number from 0 to ${MAX_SEED}` : "it has no deal number (seed)");
  }
  const seed = Number(seedText);

  let seats;
  const playersText = (q.get("players") || "").trim();
  if (!playersText) {
    seats = [{ type: "human" }];
    for (let i = 1; i < spec.default_players; i++) seats.push({ type: "bot", level: defaultLevel(levels) });
  } else if (/^\d+$/.test(playersText)) {
    const n = Number(playersText);
    if (n < spec.min_players || n > spec.max_players) return fail(`${spec.title} is for ${playersRange(spec)}, not ${n}`);
    seats = [{ type: "human" }];
    for (let i = 1; i < n; i++) seats.push({ type: "bot", level: defaultLevel(levels) });
  } else {
    const parts = playersText.split(",").map((p) => p.trim().toLowerCase());
    seats = [];
    for (const part of parts) {
      if (part === "human" || part === "you" || part === "person") seats.push({ type: "human" });
      else if (levels.includes(part)) seats.push({ type: "bot", level: part });
      else if (part === "greedy" && levels.includes("normal")) seats.push({ type: "bot", level: "normal" });
      else return fail(`"${part.slice(0, 20)}" is not a player: use "human" or one of ${levels.join(", ")}`);
    }
    if (seats.length < spec.min_players || seats.length > spec.max_players) {
      return fail(`${spec.title} is for ${playersRange(spec)}, not ${seats.length}`);
    }
    if (!seats.some((s) => s.type === "human")) return fail("nobody in it is a person (\"human\")");
  }

  let options;
  try { options = parseOptions(q.get("options")); } catch (err) { return fail(err.message); }
  for (const [name, value] of Object.entries(options)) {
    const opt = (spec.options || []).find((o) => o.name === name);
    if (!opt) return fail(`${spec.title} has no option "${name.slice(0, 30)}"`);
    if (!opt.choices.some((c) => c === value)) {
      return fail(`the option "${name}" cannot be ${JSON.stringify(value).slice(0, 30)} (choose ${opt.choices.map((c) => JSON.stringify(c)).join(" or ")})`);
    }
  }
  const names = seatNames(seats);
  const params = {
    game: spec.id, players: seats.length, seed, options,
    seats: seats.map((s, i) => ({ ...s, ...(names[i] ? { name: names[i] } : {}) })),
  };
  const bots = seats.filter((s) => s.type === "bot").map((s) => s.level);
  const summary = `${spec.title}, deal ${seed}: ${seats.length} players`
    + (bots.length ? `, computer${bots.length > 1 ? "s" : ""} at ${[...new Set(bots)].join(" and ")} level` : "");
  return { ok: true, params, summary, spec };
}

function playersRange(spec) {
  return spec.min_players === spec.max_players ? `${spec.min_players} players` : `${spec.min_players} to ${spec.max_players} players`;
}

/** The link that starts this match's deal for someone else. */
function challengeLink(snapshot, record, base = window.location.origin + window.location.pathname) {
  const url = new URL(base);
  url.search = "";
  const players = snapshot.seats.map((s) => (s.type === "human" ? "human" : s.level || "normal")).join(",");
  const parts = [
    `game=${encodeURIComponent(snapshot.game)}`,
    `seed=${encodeURIComponent(String(record.seed))}`,
    `players=${encodeURIComponent(players)}`,
  ];
  const options = formatOptions(record.options || snapshot.options || {});
  if (options) parts.push(`options=${encodeURIComponent(options)}`);
  url.hash = parts.join("&");
  return url.toString();
}

// ----- files -------------------------------------------------------------------------------

/** The file's text for a saved match {record, seats, practice}. */
function matchFile(data, title) {
  return JSON.stringify({
    parlour: "match", v: 1, title: title || null, exported_at: new Date().toISOString(),
    record: data.record, seats: data.seats || null, practice: Boolean(data.practice),
  }, null, 1);
}

function fileName(data, now = new Date()) {
  const game = (data.record && data.record.game) || "match";
  const pad = (n) => String(n).padStart(2, "0");
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  return `parlour-${game}-${stamp}.json`;
}

/** Read an imported file's text: {ok: true, data: {record, seats?, practice}} or {ok: false, message}. */
function readMatchFile(text) {
  const fail = (why) => ({ ok: false, message: `That file is not a Parlour match: ${why}. Nothing was changed.` });
  if (typeof text !== "string" || !text.trim()) return fail("it is empty");
  if (text.length > MAX_FILE_BYTES) return fail("it is too large");
  let value;
  try { value = JSON.parse(text); } catch { return fail("it is not readable (not JSON)"); }
  if (!value || typeof value !== "object" || Array.isArray(value)) return fail("it holds no match");
  let data;
  if (value.record && typeof value.record === "object" && !Array.isArray(value.record)) {
    data = { record: value.record, practice: value.practice === true };
    if (Array.isArray(value.seats)) data.seats = value.seats;
  } else if (typeof value.game === "string" && Array.isArray(value.actions)) {
    data = { record: value, practice: false };
  } else {
    return fail("it holds no record of a match");
  }
  return { ok: true, data };
}

export function download(text, name) {
  const blob = new Blob([text], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name, class: "visually-hidden" }, name);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ----- what the page shows -------------------------------------------------------------------

/** Why a match in progress has no link and no file: both carry the deal, and a deal opened
 * again from another seat shows that seat's hidden cards (in pass and play, the others'). */
const SHARED_AT_THE_END = "The challenge link and the match file are offered when the match ends, "
  + "so that nobody can use them to see hidden cards.";

/** Export and Challenge buttons for the table's side panel, once the match is over; before
 * that, a line saying when they come. */
function shareTools(state, intents) {
  const snap = state.snapshot;
  if (!snap || (state.handoffTo !== null && state.handoffTo !== undefined)) return null;
  if (!snap.is_over) {
    return h("div", { class: "share-tools" },
      h("p", { class: "field-note", dataset: { testid: "share-later" } }, SHARED_AT_THE_END));
  }
  return h("div", { class: "share-tools" },
    button("Export match", { class: "quiet", dataset: { testid: "export", focus: "export" }, disabled: state.busy, onclick: () => intents.exportMatch() }),
    button("Challenge a friend", { class: "quiet", dataset: { testid: "challenge", focus: "challenge" }, disabled: state.busy, onclick: intents.showChallenge }));
}

/** The match-over dialog's challenge button (the dialog has its own export button). */
function overChallenge(state, intents) {
  const snap = state.snapshot;
  if (!snap || !snap.is_over) return null;
  return button("Challenge a friend", { class: "quiet-ink", dataset: { testid: "challenge-over", focus: "challenge-over" }, disabled: state.busy, onclick: intents.showChallenge });
}

/** The dialog that shows (and copies) the challenge link. */
function challengeDialog(state, intents) {
  const c = state.challengeShown;
  if (!c) return null;
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "challenge-title", dataset: { testid: "challenge-dialog" } },
    h("div", { class: "overlay-card" },
      h("h2", { id: "challenge-title" }, "Challenge a friend"),
      h("p", {}, "Send this link: it deals the same cards, with the same seats and options, to whoever opens it. "
        + "It is offered once a match is over, so that nobody can use it to see the hidden cards of a match still being played."),
      h("input", { type: "text", readonly: true, value: c.link, class: "challenge-link", "aria-label": "Challenge link", dataset: { testid: "challenge-link", focus: "challenge-link" },
        onfocus: (e) => e.target.select() }),
      c.copied ? h("p", { class: "field-note", role: "status" }, c.copied) : null,
      h("div", { class: "form-actions" },
        button("Copy the link", { class: "primary", dataset: { testid: "copy-challenge", focus: "copy-challenge" }, onclick: intents.copyChallenge }),
        button("Close", { class: "quiet-ink", dataset: { testid: "close-challenge", focus: "close-challenge" }, onclick: intents.closeChallenge }))));
}

/** The menu's part: open a match file, the challenge offer, and any sharing problem. */
function menuShare(state, intents) {
  const offer = state.challengeOffer;
  return h("div", { class: "menu-share" },
    state.shareError ? h("div", { class: "error-area", role: "alert", dataset: { testid: "error" } }, state.shareError) : null,
    offer ? h("div", { class: "resume challenge-offer", dataset: { testid: "challenge-offer" } },
      h("p", {}, `A challenge: ${offer.summary}.`),
      savedIn(state, offer) ? h("p", { class: "field-note" }, `Playing it replaces your ${offer.spec.title} match in progress.`) : null,
      button("Play this deal", { class: "primary", dataset: { testid: "accept-challenge", focus: "accept-challenge" }, onclick: intents.acceptChallenge }),
      button("No thanks", { class: "quiet", dataset: { testid: "dismiss-challenge" }, onclick: intents.dismissChallenge })) : null,
    h("div", { class: "import-row" },
      h("label", { class: "file-button quiet", for: "import-file" }, "Open a match file\u2026"),
      h("input", { type: "file", id: "import-file", accept: ".json,application/json", class: "visually-hidden",
        dataset: { testid: "import" }, onchange: (e) => { const f = e.target.files && e.target.files[0]; e.target.value = ""; if (f) intents.importMatch(f); } })));
}

/** Whether a match of the challenge's game is in progress (playing the challenge replaces it). */
function savedIn(state, offer) {
  return (state.saves || []).some((save) => save.slot === matchSlot(offer.spec.id));
}

// ----- intents -------------------------------------------------------------------------------

function intents({ state, intents: all, engineCall, engineReady, enterTable, render, mayReplaceSave }) {
  const showMenu = () => all.showMenu();
  // A problem with a file or a link, said on the menu (the table may be waiting for the engine).
  const sayOnMenu = (message) => {
    state.shareError = message;
    if (state.screen === "waiting") showMenu(); else render();
  };
  return {
    /** The match on the table as a file; or `data` (a saved match {record, seats, practice})
     * with its `title`, or the replay's. The match on the table only once it is over, but for
     * `{unsaved: true}`: this device cannot keep it (see state.unsaved), and the file is then
     * the only way not to lose it. */
    async exportMatch(data, dataTitle, { unsaved = false } = {}) {
      let saved = data;
      let title = state.snapshot && state.snapshot.title;
      if (!saved && !(state.snapshot && state.snapshot.is_over) && !(unsaved && state.unsaved)) {
        state.error = SHARED_AT_THE_END;
        render();
        return;
      }
      if (!saved) {
        saved = await engineCall("record");
        if (!saved) return;
      } else if (dataTitle) {
        title = dataTitle;
      } else if (state.replay && state.replay.snapshot) {
        title = state.replay.snapshot.title;
      }
      download(matchFile(saved, title), fileName(saved));
      state.message = "The match was saved as a file in your downloads.";
      render();
    },
    async importMatch(file) {
      state.shareError = null;
      let text;
      try {
        if (file.size > MAX_FILE_BYTES) throw new Error("too large");
        text = await file.text();
      } catch {
        state.shareError = "That file could not be read. Nothing was changed.";
        render();
        return;
      }
      const parsed = readMatchFile(text);
      if (!parsed.ok) { state.shareError = parsed.message; render(); return; }
      const data = parsed.data;
      const game = state.games.find((g) => g.id === data.record.game);
      const waiting = { title: game ? game.title : "A match from a file", message: "The match from your file opens as soon as the game engine is ready." };
      if (!(await engineReady(waiting))) return;
      // Check the whole record without touching the match in progress.
      const probe = await engineCall("replay", { record: data.record, seats: data.seats || undefined }, {
        refused: (error) => sayOnMenu(`That file's match cannot be used (${error.message}). Nothing was changed.`),
      });
      if (!probe) return;
      if (probe.replay.finished) {
        const opened = await all.openReplay(data, { returnTo: "menu" });
        if (!opened.ok) sayOnMenu(opened.message);
        return;
      }
      // An unfinished match goes on the table in the place of the saved one: ask first.
      if (!(await mayReplaceSave(matchSlot(data.record.game), "the match from your file"))) return;
      const reply = await engineCall("load", data, {
        refused: (error) => sayOnMenu(`That file's match cannot be resumed (${error.message}). Nothing was changed.`),
      });
      if (!reply) return;
      await enterTable(reply, reply.game, null);
      state.message = "The match from the file is on the table.";
      render();
    },
    async showChallenge() {
      const snap = state.snapshot;
      if (!snap) return;
      if (!snap.is_over) {
        state.error = SHARED_AT_THE_END;
        render();
        return;
      }
      const reply = await engineCall("record");
      if (!reply) return;
      state.challengeShown = { link: challengeLink(snap, reply.record), copied: null };
      render();
    },
    async copyChallenge() {
      const c = state.challengeShown;
      if (!c) return;
      try {
        await navigator.clipboard.writeText(c.link);
        c.copied = "Copied.";
      } catch {
        c.copied = "Your browser did not allow copying: select the link and copy it yourself.";
      }
      render();
    },
    closeChallenge() {
      state.challengeShown = null;
      render();
    },
    /** Look at the page's #hash for a challenge (at start-up and when it changes). */
    async checkChallenge() {
      const found = parseChallenge(window.location.hash, state.games, state.levels);
      if (!found) return;
      // The link has been read: take it off the address so a reload does not ask again.
      try { history.replaceState(null, "", window.location.pathname + window.location.search); } catch { /* fine */ }
      if (!found.ok) {
        state.challengeOffer = null;
        state.shareError = found.message;
        if (state.screen !== "menu") showMenu(); else render();
        return;
      }
      state.shareError = null;
      state.challengeOffer = found;
      if (!savedIn(state, found) && state.screen === "menu") { await all.acceptChallenge(); return; }
      if (state.screen !== "menu") showMenu(); else render();
    },
    async acceptChallenge() {
      const offer = state.challengeOffer;
      if (!offer || state.busy) return;
      const waiting = { title: offer.spec.title, message: "The challenge's deal is dealt as soon as the game engine is ready." };
      if (!(await engineReady(waiting))) return;
      const reply = await engineCall("start", offer.params, {
        refused: (error) => {
          state.challengeOffer = null;
          sayOnMenu(`This challenge link cannot be used: ${error.message}.`);
        },
      });
      if (!reply) return;
      state.challengeOffer = null;
      state.shareError = null;
      await enterTable(reply, reply.game, null);
      state.message = `Challenge accepted: ${offer.summary}.`;
      render();
    },
    dismissChallenge() {
      state.challengeOffer = null;
      render();
    },
  };
}

export const feature = {
  state: {
    challengeShown: null,  // {link, copied}: the challenge dialog on the table
    challengeOffer: null,  // a challenge from the page's #hash, offered on the menu
    shareError: null,      // why a file or a link could not be used, shown on the menu
  },
  intents,
  panels: { side: shareTools, table: challengeDialog, menu: menuShare, over: overChallenge },
  start({ state, intents: all }) {
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && state.screen !== "replay" && state.challengeShown) all.closeChallenge();
    });
    window.addEventListener("hashchange", () => {
      if (state.games.length) all.checkChallenge();
    });
  },
};

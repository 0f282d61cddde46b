// "Learn to play": a coached first round of a game. The deal is the game's own coached deal
// (the engine's coach file), the person against the computer; beside the table the coach
// panel says what the position calls for, lights up the zones and cards it talks about and
// the move it suggests, and at the end of the round explains its score line by line. What
// the coach says, and when, is decided by the engine (bridge.coach) from the person's view
// alone; this module only asks after each new position and shows the answer. The person may
// follow the suggestion (the panel's button, or the same move anywhere) or play otherwise.
//
// After the coached round come the game's short lessons, if it has any (a position where a
// rule the round could not bring up is about to apply: a stall, an emptied draw pile): the
// panel offers the next one, which is put on the table from its record. The coach's state is
// kept with the saved match (a kept state field), so a reload and "Resume" bring it back.
import { h, button, clear } from "../ui/dom.js";
import { matchSlot } from "../storage.js";

const KEEP_EARLIER = 40;

// The panel's words live in one element kept across renders, so that it is a real live
// region: a screen reader reads each new message once, when its text changes.
let voice = null;

function voiceRegion() {
  if (!voice) {
    voice = h("div", { class: "coach-now", "aria-live": "polite", "aria-atomic": "true", dataset: { testid: "coach-now" } });
  }
  return voice;
}

function speak(messages) {
  const region = voiceRegion();
  clear(region);
  for (const message of messages) {
    region.append(h("p", { class: "coach-text", dataset: { step: message.id } }, message.text));
    if (message.lines && message.lines.length) {
      region.append(h("ul", { class: "coach-lines", dataset: { testid: "coach-score" } },
        message.lines.map((line) => h("li", {}, line))));
    }
  }
}

/** The coach's advice for the position on the table, asked after each new snapshot. */
async function ask(ctx) {
  const { state, engineCall, renderSoon, token } = ctx;
  const coach = state.coach;
  if (!coach) return;
  const asked = token();
  const reply = await engineCall("coach", { shown: coach.shown, deal: coach.deal }, {
    current: () => asked === token() && state.coach === coach,
    refused: (error) => { coach.problem = error.message; renderSoon(); },
  });
  if (!reply) return;
  const fresh = reply.messages;
  for (const m of reply.messages) if (!coach.shown.includes(m.id)) coach.shown.push(m.id);
  const moves = state.snapshot ? state.snapshot.moves : 0;
  if (fresh.length) {
    // What the coach said goes to the earlier tips once the person has had it in front of
    // them at a decision of theirs; said while the computer played (the welcome, before a
    // computer's lead), it stays until then.
    const keep = coach.nowMoves === moves || !coach.nowSeen;
    if (!keep && coach.now.length) {
      coach.earlier = [...coach.now.filter((m) => !m.repeat), ...coach.earlier].slice(0, KEEP_EARLIER);
    }
    coach.now = keep ? [...coach.now.filter((m) => !fresh.some((f) => f.id === m.id)), ...fresh] : fresh;
    coach.nowMoves = moves;
    coach.nowSeen = false;
    speak(coach.now);
  }
  if (state.snapshot && state.snapshot.human_turn) coach.nowSeen = true;
  coach.suggestion = reply.suggestion && state.snapshot && state.snapshot.human_turn && state.snapshot.moves === moves
    ? { ...reply.suggestion, why: reply.why || null } : null;
  coach.suggestionAt = moves;
  coach.done = coach.done || reply.done;
  coach.problem = null;
  renderSoon();
}

/** The lesson after the deal on the table, once it is done: {number, title, record} or null. */
function nextLesson(coach) {
  if (!coach || !coach.done) return null;
  const number = coach.deal + 1;
  const deal = coach.deals[number];
  return deal && deal.record ? { number, title: deal.title, record: deal.record } : null;
}

/** The coach panel (data-testid=coach) for the side panel, while a coached round is on. */
function panel(state, intents) {
  const coach = state.coach;
  const snap = state.snapshot;
  if (!coach || !snap || snap.game !== coach.game) return null;
  const suggestion = currentSuggestion(state);
  return h("section", { class: "coach-panel", dataset: { testid: "coach", done: coach.done ? "true" : "false" }, "aria-labelledby": "coach-title" },
    h("h2", { id: "coach-title" }, coach.done ? `Coach \u00b7 ${coach.deal ? "lesson" : "round"} complete` : "Coach"),
    voiceRegion(),
    coach.problem ? h("p", { class: "field-note" }, coach.problem) : null,
    suggestion ? h("p", { class: "coach-suggest" },
      "Suggested: ",
      button(suggestion.label, {
        class: "primary coach-follow", dataset: { testid: "coach-follow", action: suggestion.id, focus: "coach-follow" },
        disabled: state.busy, onclick: () => intents.send(suggestion.id),
      })) : null,
    suggestion && suggestion.why ? h("p", { class: "coach-why", dataset: { testid: "coach-why" } }, `Why: ${suggestion.why}`) : null,
    coach.done ? h("p", { class: "field-note" }, coach.deal
      ? "That was the lesson. Play on, or go back to the menu."
      : "That was the coached round. Play on to finish the match, or go back to the menu.") : null,
    state.roundOver || snap.is_over ? null : nextLessonButton(state, intents),
    coach.earlier.length ? h("details", { class: "coach-earlier" },
      h("summary", {}, `Earlier tips (${coach.earlier.length})`),
      h("ul", {}, coach.earlier.map((m) => h("li", { dataset: { step: m.id } }, m.text)))) : null,
    button("Stop coaching", { class: "quiet", dataset: { testid: "coach-stop", focus: "coach-stop" }, onclick: intents.stopCoaching }));
}

// On a narrow screen the side panel, and the coach's panel in it, come below the table: the
// coach's advice is then also a line under the status line (two lines of it; a tap opens all
// it says now over the top of the table, and another closes it). Its being open is kept
// while the page is open.
let lineOpen = false;

/** The line's words: what the coach has to teach here, from the first thing it said since
 * the person's last decision (the welcome at the first one; a tap reads the rest), else (on a
 * turn it only says is yours) the move it suggests and why. */
function lineText(messages, suggestion) {
  const taught = messages.filter((m) => !m.repeat);
  if (taught.length) return taught[0].text;
  if (suggestion) return `Suggested: ${suggestion.label}.${suggestion.why ? ` ${suggestion.why}` : ""}`;
  return messages[messages.length - 1].text;
}

/** The coach's line for the status line (data-testid=coach-line), or null. */
function line(state) {
  const coach = state.coach;
  const snap = state.snapshot;
  if (!coach || !snap || snap.game !== coach.game || !coach.now.length || state.roundOver || snap.is_over) return null;
  const suggestion = currentSuggestion(state);
  // Opened and closed here, not by the browser: a render the same click brings about keeps it.
  const toggle = (event) => {
    event.preventDefault();
    lineOpen = !lineOpen;
    event.currentTarget.parentElement.open = lineOpen;
  };
  return h("details", { class: "coach-line", open: lineOpen, dataset: { testid: "coach-line" } },
  h("summary", { class: "coach-line-text", dataset: { testid: "coach-line-text" }, onclick: toggle },
    h("span", { class: "coach-line-label" }, "Coach: "), lineText(coach.now, suggestion)),
  h("div", { class: "coach-line-full", dataset: { testid: "coach-line-full" } },
    coach.now.map((m) => h("p", {}, m.text)),
    suggestion ? h("p", {}, h("strong", {}, "Suggested: "), suggestion.label) : null,
    suggestion && suggestion.why ? h("p", {}, `Why: ${suggestion.why}`) : null));
}

/** "Next lesson: ..." once the deal on the table is done, in the side panel or, while one
 * shows, in the round-over or match-over dialog. */
function nextLessonButton(state, intents) {
  const lesson = nextLesson(state.coach);
  if (!lesson || !state.snapshot || state.snapshot.game !== state.coach.game) return null;
  return button(`Next lesson: ${lesson.title}`, {
    class: "primary", dataset: { testid: "coach-next", focus: "coach-next" },
    disabled: state.busy, onclick: () => intents.nextLesson(),
  });
}

function currentSuggestion(state) {
  const coach = state.coach;
  const snap = state.snapshot;
  if (!coach || !coach.suggestion || !snap || !snap.human_turn || state.roundOver) return null;
  return coach.suggestionAt === snap.moves ? coach.suggestion : null;
}

/** After a render: light up what the coach talks about (zones, the last move's cards, the
 * suggested move's buttons and cards). */
function highlight(root, state) {
  const coach = state.coach;
  const table = root.querySelector("[data-testid=table]");
  if (!coach || !table) return;
  const game = table.querySelector(".game-root");
  if (game) {
    for (const zone of new Set(coach.now.flatMap((m) => m.highlight || []))) {
      for (const el of game.querySelectorAll(`[data-testid="${CSS.escape(zone)}"]`)) el.classList.add("is-coached");
    }
  }
  const suggestion = currentSuggestion(state);
  if (!suggestion) return;
  for (const el of table.querySelectorAll(`[data-testid=actions] [data-action="${CSS.escape(suggestion.id)}"]`)) {
    el.classList.add("is-coach-suggested");
    el.setAttribute("aria-description", "the coach's suggestion");
  }
  if (!game) return;
  for (const card of suggestion.cards || []) {
    for (const el of game.querySelectorAll(`[data-card="${CSS.escape(card)}"]`)) el.classList.add("is-coach-suggested");
  }
}

/** The person at their seat, the computer at the others (the coached deals' line-up). */
function coachedSeats(deal, seat) {
  return Array.from({ length: deal.players }, (_, i) => (i === seat
    ? { type: "human" }
    : { type: "bot", level: "normal", name: deal.players > 2 ? `Computer ${i}` : "Computer" }));
}

function intents(ctx) {
  const { state, engineCall, engineReady, enterTable, render } = ctx;
  return {
    /** Start the coached round of `gameId`: its coached deal, the person against the computer. */
    async learn(gameId) {
      if (state.busy) return;
      const spec = state.games.find((g) => g.id === gameId);
      const title = spec ? spec.title : gameId;
      // Its own slot: a match of the game in progress is not ended by a coached round.
      if (!(await ctx.mayReplaceSave(matchSlot(gameId, true), `a coached round of ${title}`))) return;
      if (!(await engineReady({ title, message: "Your coached round starts as soon as the game engine is ready." }))) return;
      const info = await engineCall("coach", { game: gameId });
      if (!info) return;
      const deal = info.deals[0];
      const reply = await engineCall("start", { game: gameId, seed: deal.seed, options: deal.options, seats: coachedSeats(deal, info.seat) });
      if (!reply) return;
      state.coach = {
        game: gameId, deal: 0, deals: info.deals, seat: info.seat, starting: true, shown: [], now: [],
        nowMoves: -1, nowSeen: false, earlier: [], suggestion: null, suggestionAt: -1, done: false, problem: null,
      };
      speak([]);
      await enterTable(reply, gameId, null, null, null, matchSlot(gameId, true));
    },
    /** Put the next lesson's position on the table; what the coach said so far stays said. */
    async nextLesson() {
      const coach = state.coach;
      const lesson = nextLesson(coach);
      if (!lesson || state.busy) return;
      const deal = coach.deals[lesson.number];
      const reply = await engineCall("load", { record: lesson.record, seats: coachedSeats(deal, coach.seat || 0) });
      if (!reply) return;
      state.coach = {
        ...coach, deal: lesson.number, starting: true,
        now: [], nowMoves: -1, nowSeen: false, earlier: [...coach.now, ...coach.earlier].slice(0, KEEP_EARLIER),
        suggestion: null, suggestionAt: -1, done: false, problem: null,
      };
      speak([]);
      await enterTable(reply, coach.game, null, null, null, matchSlot(coach.game, true));
    },
    stopCoaching() {
      state.coach = null;
      render();
      ctx.save();  // a reload then resumes the match without the coach
    },
  };
}

let context = null;

export const feature = {
  kept: ["coach"],
  state: {
    coach: null,  // the coached round on the table: {game, deal, deals, seat, shown, now, earlier, suggestion, done, ...}
  },
  intents,
  start(ctx) { context = ctx; },
  panels: { side: panel, over: nextLessonButton, status: line },
  afterSnapshot(prev, snap, move, state) {
    const coach = state.coach;
    if (!coach) return;
    if (!prev) {
      // A match put on the table: the coached one just started, or another one (coaching ends).
      if (!coach.starting || snap.game !== coach.game) { state.coach = null; return; }
      coach.starting = false;
    }
    ask(context);
  },
  /** The coached match resumed (after a reload): its coach, as saved, goes on from here. */
  afterResume(state) {
    const coach = state.coach;
    if (!coach) return;
    if (!Array.isArray(coach.shown) || !Array.isArray(coach.deals) || !coach.deals[coach.deal]
      || !state.snapshot || state.snapshot.game !== coach.game) {
      state.coach = null;
      return;
    }
    Object.assign(coach, { starting: false, nowMoves: -1, suggestion: null, suggestionAt: -1, problem: null });
    coach.now = Array.isArray(coach.now) ? coach.now : [];
    coach.earlier = Array.isArray(coach.earlier) ? coach.earlier : [];
    speak(coach.now);
    ask(context);
  },
  afterRender: highlight,
};

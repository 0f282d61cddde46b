// What the computer sees: on the person's turn, "Analyse" runs the Hard search from their
// own seat (bridge.analyse: deals dealt from what they can see, never the hidden cards) and
// lists every legal move in order of its chance of winning or its points, in groups of moves
// the search cannot tell apart (one place, marked "="), with the number of deals played out
// behind each, a progress bar while it thinks, and the reason in plain words.
// After the match, "Review my moves" ranks each of the person's moves in the same way, one
// move after the other with progress (a shorter search a move than the Hard opponent's; a
// move that was the only legal one is marked at once, with no search), and marks them in the
// log (the review screen), where a ranked move opens to the table of the moves it was ranked
// among. A move's search is asked for in slices of REVIEW_SLICE_MS (bridge.analyse's
// slice_ms, then {more: true}): the worker answers the page's other requests between two,
// and Stop (or Back) ends the review within a slice, the moves ranked so far kept and the
// move under way dropped.
import { h, button } from "../ui/dom.js";
import { humanSeats } from "../read-snapshot.js";
import { renderLog } from "./log.js";
import { forTheRecord } from "./daily.js";

/** The longest the review's search of a move runs before the worker is free again. */
const REVIEW_SLICE_MS = 100;

/** "58%" or "+1.2" (points), or a dash where no world went through the move. */
function percent(x) {
  return x === null || x === undefined ? "\u2013" : `${Math.round(x * 100)}%`;
}
function points(x) {
  if (x === null || x === undefined) return "\u2013";
  return `${x >= 0 ? "+" : "\u2212"}${Math.abs(x).toFixed(1)}`;
}

/** The analysis of the position on the table, or null once anything has moved on. */
function currentAnalysis(state) {
  const a = state.analysis;
  const snap = state.snapshot;
  if (!a || !snap || a.moves !== snap.moves || a.game !== snap.game || !snap.human_turn) return null;
  return a;
}

/** A move's place: its group's ("3"), with "=" when the group holds several moves. */
function placeText(m, sizes) {
  const place = m.placed || m.rank;
  return (sizes.get(m.group) || 1) > 1 ? `${place}=` : String(place);
}

/** The table of `result`'s moves; `taken`: the id of the move the person made (the review's). */
function analysisTable(result, taken = null) {
  const withPoints = result.moves.some((m) => m.points !== null && m.points !== undefined);
  const winHead = result.estimated ? "Chance of winning" : "Wins";
  const sizes = new Map();
  for (const m of result.moves) sizes.set(m.group, (sizes.get(m.group) || 0) + 1);
  // A move played out too seldom to have an interval shows no figure: one or two deals say
  // nothing, and a figure would sit out of order among the others'.
  const shown = (m) => m.low !== null && m.low !== undefined;
  return h("table", { class: "analysis-table", dataset: { testid: "analysis-table" } },
    h("caption", { class: "visually-hidden" }, "Your legal moves, best first, as the computer sees them; moves with the same place cannot be told apart"),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Move"),
      h("th", { scope: "col", class: result.measure === "win" ? "is-measure" : null }, winHead),
      withPoints ? h("th", { scope: "col", class: result.measure === "points" ? "is-measure" : null, title: "Points ahead of the others' average" }, "Points") : null,
      h("th", { scope: "col", title: "Deals played out from here after this move" }, "Deals"))),
    h("tbody", {}, result.moves.map((m, i) => h("tr", {
      class: ["analysis-row", m.rank === 1 && "is-best", m.group === 1 && m.rank > 1 && "is-tied",
        i > 0 && result.moves[i - 1].group !== m.group && "is-group-start", m.id === taken && "is-taken"],
      dataset: { testid: "analysis-row", move: m.id, rank: String(m.rank), group: String(m.group) },
    },
    h("td", {}, placeText(m, sizes)), h("th", { scope: "row" }, m.label, m.id === taken ? h("span", { class: "taken-note" }, " (your move)") : null),
    h("td", {}, shown(m) ? percent(m.win) : "\u2013"),
    withPoints ? h("td", {}, shown(m) ? points(m.points) : "\u2013") : null,
    h("td", {}, String(m.worlds))))));
}

/** The side panel's part: the Analyse button on the person's turn, its progress, its table. */
function analysisPanel(state, intents) {
  const snap = state.snapshot;
  const hidden = state.handoffTo !== null && state.handoffTo !== undefined;
  if (!snap || hidden || !snap.human_turn || snap.is_over || state.roundOver || forTheRecord(state)) return null;
  const current = currentAnalysis(state);
  const running = current && current.running;
  return h("section", { class: "analysis", "aria-label": "What the computer sees" },
    current && current.result ? null : button("Analyse", {
      class: "quiet", dataset: { testid: "analyse", focus: "analyse" }, disabled: state.busy || running, onclick: intents.analyse,
      title: "Rank your moves by the Hard opponent's search, from what you can see",
    }),
    running ? h("progress", {
      class: "analysis-bar", max: 1, value: current.fraction || 0, dataset: { testid: "analysis-progress" },
      "aria-label": "Analysing your moves",
    }) : null,
    current && current.result ? h("div", {
      class: "analysis-result",
      dataset: { testid: "analysis", best: current.result.best, iterations: String(current.result.iterations), budget: String(current.result.budget) },
    },
      h("p", { class: "analysis-reason", role: "status", tabindex: "-1", dataset: { testid: "analysis-reason" } }, current.result.reason),
      analysisTable(current.result),
      h("p", { class: "field-note" },
        `${current.result.iterations} deals played out, each dealt from what you can see (never from the hidden cards). `
        + "Moves with the same place (marked =) cannot be told apart by the search; a dash: too few deals to say.")) : null);
}

// ----- the review of a finished match ---------------------------------------------------------

/** The log indexes of the people's own moves in a finished match. */
function peoplesSteps(snap) {
  const people = new Set(humanSeats(snap));
  return (snap.log || []).map((e, i) => (people.has(e.player) ? i : -1)).filter((i) => i >= 0);
}

/** A review with nothing ranked yet; `file` {record, seats} when it is of a match file. */
function freshReview(key, snap, file) {
  const steps = peoplesSteps(snap);
  return {
    key, steps, total: steps.length, done: {}, running: false, stopping: false, fraction: 0,
    file, snapshot: file ? snap : null, returnTo: null, open: null,
  };
}

/** The steps the engine named as a person's only legal move: ranked at once, no search. */
function markForced(review, steps) {
  review.forced = new Set([...(review.forced || []), ...(steps || [])]);
  for (const step of review.forced) {
    if (!review.steps.includes(step) || review.done[step]) continue;
    review.done[step] = { rank: 1, group: 1, placed: 1, of: 1, bestLabel: "", reason: "The only legal move." };
  }
}

function reviewSummary(review) {
  const ranks = Object.values(review.done);
  if (!ranks.length) return null;
  const best = ranks.filter((r) => r.rank === 1 || r.group === 1).length;
  const off = ranks.length - best;
  return h("p", { class: "review-summary", dataset: { testid: "review-summary" } },
    `${ranks.length} of ${review.total} moves ranked: ${best} as good as the computer's choice, ${off} not.`
    + (review.deals ? ` Each move with a choice was ranked from up to ${review.deals} deals played out, `
      + "a shorter search than the Hard opponent's own, so more moves share a place." : ""));
}

function renderReview(state, intents) {
  const review = state.review;
  const snap = review.snapshot || state.snapshot;
  const done = Object.keys(review.done).length;
  return h("section", { class: "screen review-screen", dataset: { testid: "review" }, "aria-labelledby": "review-title" },
    h("header", { class: "table-bar" },
      button("\u2190 Back", { class: "quiet", dataset: { testid: "review-back", focus: "review-back" }, onclick: intents.closeReview }),
      h("h1", { id: "review-title" }, `Your moves in ${snap.title}`)),
    h("p", {}, "Each of your moves, ranked among the moves you had by the Hard opponent's search, "
      + "from what you could see at the time. A move that was not the first choice may have been a turning point."),
    h("div", { class: "review-tools" },
      review.running
        ? button("Stop", { class: "quiet", dataset: { testid: "review-stop", focus: "review-stop" }, onclick: intents.stopReview })
        : button(done >= review.total ? "All your moves are ranked" : done ? "Rank the rest" : "Rank my moves", {
          class: "primary", dataset: { testid: "review-run", focus: "review-run" }, disabled: done >= review.total || state.busy, onclick: intents.reviewMoves,
        }),
      review.running ? h("progress", {
        class: "analysis-bar", max: 1, value: review.fraction, dataset: { testid: "review-progress" },
        "aria-label": `Ranking move ${Math.min(done + 1, review.total)} of ${review.total}`,
      }) : null,
      h("p", { class: "field-note", "aria-live": "polite" }, review.running
        ? `Ranking move ${Math.min(done + 1, review.total)} of ${review.total}\u2026` : ""),
      reviewSummary(review)),
    markedLog(renderLog(snap), review, intents));
}

/** The review's log: each ranked move's place beside its log entry (drawn with the screen, so
 * that a redraw while the review goes on keeps the focus and the open move where they are),
 * and under the open one the moves it was ranked among. */
function markedLog(log, review, intents) {
  const entries = log.querySelectorAll(".log-entry");
  for (const [step, r] of Object.entries(review.done)) {
    const entry = entries[Number(step)];
    if (!entry) continue;
    // A move the search cannot tell from its choice counts as one of the best.
    const good = r.rank === 1 || r.group === 1;
    entry.classList.add(good ? "is-best-move" : "is-off-move");
    const text = r.of === 1 ? "only move" : r.rank === 1 ? "best" : good ? "as good as the best" : `#${r.placed || r.rank} of ${r.of}`;
    // The computer's choice is written out (a tooltip is out of reach on a touch screen).
    const rank = { class: "move-rank", dataset: { testid: "move-rank", step, rank: String(r.rank), group: String(r.group || r.rank) }, title: r.reason };
    const open = review.open === step && r.moves;
    entry.append(r.moves
      ? button(text, {
        ...rank, dataset: { ...rank.dataset, focus: `review-move-${step}` }, "aria-expanded": open ? "true" : "false",
        "aria-label": `${text}: the moves you had`, onclick: () => intents.openReviewMove(step),
      })
      : h("span", rank, text));
    if (!good && r.of !== 1) {
      entry.append(h("span", { class: "move-best", dataset: { testid: "move-best" } }, ` \u2014 the computer's choice: ${r.bestLabel}`));
    }
    if (open) {
      entry.append(h("div", { class: "review-move", dataset: { testid: "review-move", step } },
        h("p", { class: "analysis-reason" }, r.reason),
        analysisTable(r, r.taken)));
    }
  }
  return log;
}

// ----- intents ---------------------------------------------------------------------------------

function intents({ state, engineCall, render, token, root, holdingBusy }) {
  const setBar = (testid, fraction) => {
    const bar = root.querySelector(`progress[data-testid=${testid}]`);
    if (bar) bar.value = fraction;
  };
  return {
    async analyse() {
      const snap = state.snapshot;
      if (state.busy || !snap || !snap.human_turn || forTheRecord(state)) return;
      const asked = token();
      const { moves, game } = snap;
      const still = () => asked === token() && state.snapshot && state.snapshot.moves === moves && state.snapshot.game === game;
      state.analysis = { game, moves, running: true, fraction: 0, result: null };
      render();
      const reply = await engineCall("analyse", {}, {
        current: still,
        onProgress: (fraction) => {
          if (!still() || !state.analysis) return;
          state.analysis.fraction = fraction;
          setBar("analysis-progress", fraction);
        },
        refused: (error) => { state.analysis = null; state.error = error.message; render(); },
      });
      if (!reply) {
        if (state.analysis && state.analysis.running) state.analysis = null;
        render();
        return;
      }
      state.analysis = { game, moves, running: false, fraction: 1, result: reply };
      state.error = null;
      render();
      // The button gave way to the result: a keyboard user goes on from its first line.
      const reason = root.querySelector("[data-testid=analysis-reason]");
      if (reason && (!document.activeElement || document.activeElement === document.body)) reason.focus({ preventScroll: true });
    },
    openReview() {
      const snap = state.snapshot;
      if (!snap || !snap.is_over) return;
      const key = `${snap.game}:${snap.moves}:${JSON.stringify(snap.result.scores)}`;
      if (!state.review || state.review.key !== key) state.review = freshReview(key, snap, null);
      state.screen = "review";
      render();
    },
    /**
     * The review of a finished match file `data` = {record, seats?} (a match kept in the
     * history): the engine reads it beside the table's match, which stays as it was; Back
     * goes to `returnTo`. Answers {ok, message?}.
     */
    async openFileReview(data, returnTo) {
      const file = { record: data.record, seats: data.seats || undefined };
      let why = null;
      const snap = await engineCall("replay", file, { refused: (error) => { why = error.message; } });
      if (!snap || !snap.replay.finished) return { ok: false, message: why || "Only a finished match can be reviewed." };
      const key = `file:${JSON.stringify(file.record.actions)}:${file.record.seed}`;
      if (!state.review || state.review.key !== key) state.review = freshReview(key, { ...snap, is_over: true }, file);
      state.review.returnTo = returnTo;
      state.screen = "review";
      render();
      return { ok: true };
    },
    closeReview() {
      if (state.review) state.review.stopping = true;
      state.screen = (state.review && state.review.returnTo) || "table";
      render();
    },
    stopReview() {
      if (state.review) state.review.stopping = true;
      render();
    },
    /** Open a ranked move of the review to the table of its moves (again: close it). */
    openReviewMove(step) {
      const review = state.review;
      if (!review || !review.done[step] || !review.done[step].moves) return;
      review.open = review.open === String(step) ? null : String(step);
      render();
    },
    async reviewMoves() {
      const review = state.review;
      if (!review || review.running || state.busy) return;
      const asked = token();
      review.running = true;
      review.stopping = false;
      render();
      const still = () => asked === token() && state.review === review && !review.stopping && state.screen === "review";
      const progress = (fraction) => {
        review.fraction = Math.max(review.fraction, fraction);
        setBar("review-progress", review.fraction);
      };
      const options = { current: still, onProgress: progress, refused: (error) => { state.error = error.message; } };
      // One move's search, slice after slice while the review goes on: null once stopped.
      const rankMove = async (step) => {
        let reply = await engineCall("analyse", { step, ...(review.file || {}), slice_ms: REVIEW_SLICE_MS }, options);
        while (reply && reply.unfinished) {
          progress(reply.fraction);
          reply = await engineCall("analyse", { more: true, slice_ms: REVIEW_SLICE_MS }, options);
        }
        return reply;
      };
      for (const step of review.steps) {
        if (!still()) break;
        if (review.done[step]) continue;
        if (review.forced && review.forced.has(step)) { markForced(review, [step]); render(); continue; }
        review.fraction = 0;
        const reply = await holdingBusy(() => rankMove(step));
        if (!reply) break;
        markForced(review, reply.forced);
        if (reply.iterations) review.deals = Math.max(review.deals || 0, reply.iterations);
        const best = reply.moves[0];
        review.done[step] = {
          rank: reply.taken.rank, group: reply.taken.group, placed: reply.taken.placed,
          of: reply.moves.length, bestLabel: best.label, reason: reply.reason,
          moves: reply.moves, measure: reply.measure, estimated: reply.estimated, taken: reply.taken.id,
        };
        render();
      }
      review.running = false;
      review.stopping = false;
      render();
    },
  };
}

function afterSnapshot(prev, snapshot, move, state) {
  if (state.analysis && (!snapshot || state.analysis.moves !== snapshot.moves)) state.analysis = null;
}

export const feature = {
  state: {
    analysis: null,  // {game, moves, running, fraction, result}: the analysis of that position
    review: null,    // {key, steps, total, done: {step: {rank, of, bestLabel, reason, moves?, measure?, estimated?, taken?}},
                     //  running, stopping, fraction, open: the step opened to its moves (text) or null,
                     //  forced: Set of steps with one legal move, deals: the most deals a move rested on,
                     //  file: {record, seats} and snapshot when of a match file, returnTo}
  },
  intents,
  screens: { review: renderReview },
  panels: { side: analysisPanel },
  afterSnapshot,
};

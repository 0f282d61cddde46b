// Check this deal: the deal's fingerprint, shown from the start, and the proof once the
// match is over.
//
// When a match starts the engine fixes its deal (engine/fairness.py): the snapshot's `deal`
// carries the fingerprint (SHA-256 of the game, the players, the options, the seed and a
// random salt), never the seed or the salt while the match is played. The page keeps the
// fingerprint it was shown first (`dealShown`, kept with the saved match). Once the match is
// over the snapshot brings the seed and the salt too, and "Check this deal" (on the
// match-over dialog, and on the replay of a finished match file) has the engine recompute
// the fingerprint and replay every move (bridge check_deal): the answer says in words that
// the deal was fixed before the first move and every move was legal, or exactly what does not
// match. A friend's page at a shared table, which has no engine, checks the seed, the
// values and the fingerprint itself (together/fair-table.js); its Check this deal then loads
// the engine, only then, to replay the record the host sent at the end (together/friend.js),
// and shows the lines in the same dialog.
import { h, button } from "../ui/dom.js";

/** The table's side panel: the fingerprint, folded away in the match's details. */
function fingerprintPanel(state) {
  const snap = state.snapshot;
  if (!snap || !snap.deal) return null;
  const deal = snap.deal;
  return h("details", { class: "deal-details", dataset: { testid: "deal-details" } },
    h("summary", {}, "Deal fingerprint ", h("code", { dataset: { testid: "deal-fingerprint" } }, deal.short)),
    h("p", { class: "field-note" }, deal.at
      ? `This deal was fixed after move ${deal.at} (the match was saved without a fingerprint before).`
      : "Every card of this match, dealt and drawn, was fixed before the first move: this is its fingerprint."),
    snap.is_over
      ? h("p", { class: "field-note" }, "Seed ", h("code", { dataset: { testid: "deal-seed" } }, String(deal.seed)),
        ", salt ", h("code", { class: "deal-salt" }, deal.salt), ". Check this deal proves the fingerprint was made of them.")
      : h("p", { class: "field-note" }, "When the match is over, the seed and the salt it was made of are shown, and Check this deal proves it."));
}

/** What a check found, in words, with a way to close it. */
function checkDialog(state, intents) {
  const c = state.dealCheck;
  if (!c) return null;
  const body = c.status === "checking"
    ? [h("p", { role: "status" }, "Checking the deal and replaying every move\u2026")]
    : [
      h("p", { class: c.ok ? "deal-ok" : "notice", role: c.ok ? "status" : "alert", dataset: { testid: "deal-verdict", ok: c.ok ? "true" : "false" } },
        c.ok ? "This deal is fair." : "This deal does not check out."),
      h("ul", { class: "deal-lines", dataset: { testid: "deal-lines" } },
        [...c.lines, ...c.problems.map((p) => `${p[0].toUpperCase()}${p.slice(1)}.`)].map((line) => h("li", {}, line))),
      c.ok ? h("p", { class: "field-note" }, "It proves the cards were not arranged during play; it cannot prove that no device looked at its own memory. The rules' help says more.") : null,
    ];
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "deal-check-title", dataset: { testid: "deal-check" } },
    h("div", { class: "overlay-card deal-check-card" },
      h("h2", { id: "deal-check-title" }, "Check this deal"),
      body,
      h("div", { class: "form-actions" },
        button("Close", { class: "quiet-ink", dataset: { testid: "close-deal-check", focus: "close-deal-check" }, onclick: intents.closeDealCheck }))));
}

/** The "Check this deal" button, for `onclick`. */
export function checkButton(state, onclick, testid = "check-deal") {
  return button("Check this deal", { class: "quiet-ink", dataset: { testid, focus: testid }, disabled: state.busy || Boolean(state.dealCheck), onclick });
}

function overButton(state, intents) {
  const snap = state.snapshot;
  if (!snap || !snap.is_over || !snap.deal || !state.source.local) return null;
  return checkButton(state, intents.checkDeal);
}

function intents({ state, engineCall, render }) {
  /** Check `record` with the engine; `expected` (the fingerprint shown at the start) and
   * `scores` (what the table showed) are checked too when given. */
  async function check(record, extra = {}) {
    state.dealCheck = { status: "checking" };
    render();
    const result = await engineCall("check_deal", { record, ...extra });
    state.dealCheck = result ? { status: "done", ok: result.ok === true, lines: result.lines || [], problems: result.problems || [] } : null;
    render();
  }
  return {
    checkDealRecord: check,
    async checkDeal() {
      const snap = state.snapshot;
      if (!snap || !snap.is_over || state.dealCheck) return;
      const saved = await engineCall("record");
      if (!saved) return;
      // A shared table's host checks the values against the commitments it sent (together/host.js).
      const shared = state.sharedDeal && state.sharedDeal.fingerprint === snap.deal.fingerprint ? state.sharedDeal.commits : undefined;
      await check(saved.record, { expected: state.dealShown || undefined, scores: snap.result.scores, commitments: shared });
    },
    closeDealCheck() {
      state.dealCheck = null;
      render();
    },
  };
}

/** The fingerprint the page was shown first for this match: a new table (no previous
 * snapshot) or a match back at the fixing of its deal starts it afresh; later snapshots
 * of the same match never replace it. */
function afterSnapshot(prev, snap, move, state) {
  if (!snap.deal || !state.source.local) return;
  if (!prev || !state.dealShown || snap.moves <= snap.deal.at) state.dealShown = snap.deal.fingerprint;
  if (!snap.is_over) state.dealCheck = null;
}

export const feature = {
  state: {
    dealShown: null,   // the fingerprint shown when this match started
    dealCheck: null,   // {status: "checking"} or {status: "done", ok, lines, problems}
  },
  kept: ["dealShown"],
  intents,
  panels: { side: fingerprintPanel, over: overButton, table: checkDialog },
  afterSnapshot,
};

export { checkDialog };

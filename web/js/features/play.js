// Where undo/hint, the log, replays and sharing meet app.js (issue 8a). app.js calls
// installPlay() once with what these features need, renderReplay() for the "replay"
// screen, afterRenderPlay() after every render and checkChallenge() once the menu is up.
import { hintIntents, decorateHint, playTools } from "./undo-hint.js";
import { replayIntents, renderReplay } from "./replay.js";
import { shareIntents, shareTools, challengeDialog, menuShare } from "./share.js";
import { renderLog, afterRender as afterRenderLog } from "./log.js";

export { renderReplay, playTools, shareTools, challengeDialog, menuShare, renderLog };

/**
 * ctx: {state, intents, call, render, enterTable(snap, gameId, setup), loadRenderer(gameId),
 *       speed() -> number, token() -> number}
 * Adds the intents: hint, openReplay, replayGo, replayToggleAuto, replayReveal, closeReplay,
 * exportMatch, importMatch, showChallenge, copyChallenge, closeChallenge, checkChallenge,
 * acceptChallenge, dismissChallenge, openFinishedReplay.
 */
export function installPlay(ctx) {
  const { state, intents } = ctx;
  Object.assign(state, { hint: null, replay: null, challengeShown: null, challengeOffer: null, shareError: null });
  const full = { ...ctx, showMenu: () => intents.showMenu() };
  const replay = replayIntents(full);
  Object.assign(intents, hintIntents(full), replay);
  Object.assign(intents, shareIntents({ ...full, openReplay: (data, opts) => replay.openReplay(data, opts) }));
  /** The replay of the match on the table (offered once it is over). */
  intents.openFinishedReplay = async () => {
    if (state.busy || !state.snapshot) return;
    let reply;
    try { reply = await ctx.call("record"); } catch { return; }
    if (reply.error) { state.error = reply.error.message; ctx.render(); return; }
    const opened = await replay.openReplay(reply, { returnTo: "table", step: 0 });
    if (!opened.ok) { state.error = opened.message; ctx.render(); }
  };
  document.addEventListener("keydown", (event) => {
    if (state.screen === "replay") replay.replayKey.call(intents, event);
    else if (event.key === "Escape" && state.challengeShown) intents.closeChallenge();
  });
  window.addEventListener("hashchange", () => {
    if (state.games.length) intents.checkChallenge();
  });
}

export function afterRenderPlay(root, state) {
  decorateHint(root, state);
  afterRenderLog(root);
}

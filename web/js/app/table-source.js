// Where the table's snapshots come from, behind one interface chosen when the table opens
// (js/app/match.js, enterTable) and kept in state.source. The table, the match controller
// and the features ask the source; none of them asks which one it is.
//
// A source is
//   {
//     kind        "engine" | "opening" | "host": said on the table (data-source) for tests
//                 and styles only
//     local       true when the match is this page's own: it is saved here after every move,
//                 kept in this page's history, dealt again (Play again), replayed, exported,
//                 checked and reviewed here, and the computers' turns are played here
//     act(id)     the person's move (one of the snapshot's action ids)
//     why(id)     a card that is not listed: why it cannot be played, or the move if it can
//     undo()      take back the person's last move
//     hint(asking)  a suggested move for the person's seat ({action, reason}) or null;
//                 `asking`: {current, refused} as for engineCall
//     engineLoaded(client)  the page's engine has just answered for the first time
//   }
// Three make the table's snapshots: the engine in the worker (engineSource), a prepared
// opening while the engine loads (openingSource, js/openings.js: it goes over to the engine
// once it has loaded), and on a friend's page the host's device
// (features/together/friend.js, hostSource).
import * as storage from "../storage.js";
import { recordWith } from "../openings.js";
import { sentence } from "../read-snapshot.js";

/** The engine in the page's worker: `match` gives what the requests go through. */
export function engineSource({ state, render, engineCall, holdingBusy, sendMove, undoMove }) {
  const source = {
    kind: "engine",
    local: true,
    act: (actionId) => holdingBusy(() => sendMove(actionId)),
    async why(actionId) {
      const reply = await engineCall("why", { action: actionId });
      if (!reply) return;
      if (reply.legal === false) {
        state.error = sentence(reply.reason || "That move is not allowed now.");
        render();
        return;
      }
      // The engine takes it (another copy of a listed move's card): play those very cards.
      state.error = null;
      if (!state.busy && state.snapshot) await state.source.act(actionId);
    },
    undo: () => holdingBusy(undoMove),
    hint: (asking) => engineCall("hint", {}, asking),
    engineLoaded: () => {},
  };
  return source;
}

/**
 * A prepared opening on the table while the engine loads: moves go to the engine as the
 * engine source's do (a request made before the engine is ready waits for it), and the
 * person's first decision is kept with the save meanwhile. Once the engine has loaded it
 * replays `opening.record` (`handOver(client, record, mine)` in match.js), and the engine's
 * source takes over; not once the match's `token` is void (the person went elsewhere).
 */
export function openingSource(engine, { state, render, keptState, noteSaved, handOver }, opening, token) {
  const source = {
    ...engine,
    kind: "opening",
    act(actionId) {
      const snap = state.snapshot;
      if ((snap.legal || []).some((a) => a.id === actionId)) {
        // The engine is still loading: the move waits for it, kept with the save meanwhile.
        noteSaved(storage.saveMatch(state.saveSlot, snap.game, snap.title, recordWith(opening.record, actionId), state.matchSetup.setup, keptState()));
        state.message = "Your move is in: the game engine takes it as soon as it has loaded.";
        render();
      }
      return engine.act(actionId);
    },
    engineLoaded(client) {
      handOver(client, opening.record, () => state.source === source && state.run.matchToken === token);
    },
  };
  return source;
}

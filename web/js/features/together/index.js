// Playing together from your own devices, with no server: the host's browser deals.
//
// The host (host.js) runs the match in their own engine, with the computer seats. Each
// friend's seat gets an invitation link (signal-links.js) whose fragment carries the host's
// half of a WebRTC connection; the friend's page (friend.js, which loads no Python) answers
// with a reply link or code that the host pastes, or opens on the same device: that tab hands
// the reply to the inviting tab (share.js). Then a data channel joins the two pages (peer.js)
// and:
//   host -> friend  {t: "welcome", seat, title}     the seat is theirs; the match starts soon
//                   {t: "start", snap}              a match starts (or goes on, after a rejoin)
//                   {t: "snap", snap}               the table changed (bridge seat_view(seat))
//                   {t: "reply", id, error?, reason?, snap?}  the answer to a request
//                   {t: "bye", reason}              the seat is no longer theirs
//                   {t: "record", record}          once the match is over: its record (the
//                                                   engine's, seed and salt revealed), which the
//                                                   friend's Check this deal replays
//                   {t: "note", text}               words for the table (a computer took a
//                                                   lost friend's seat, or gave it back)
//                   {t: "commits", seats, commits, names}  before a deal: every device's
//                                                   commitment, in seat order (fair-table.js)
//   friend -> host  {t: "hello", name, parts, commit}  the name they chose; parts: 1, send
//                                                   logs in parts (a snap's log then holds only
//                                                   the entries not sent before: held-logs.js);
//                                                   commit: their commitment for the next deal
//                   {t: "reveal", value}            their value, once every commitment is in
//                   {t: "commit", hash}             their commitment for the deal after that
//                   {t: "resync"}                   send my seat's whole log again
//                   {t: "act", id, action}          a move: one of their seat's action ids
//                   {t: "why", id, action}          why a move cannot be made
//                   {t: "undo", id}                 take back their own last move
//                   {t: "hint", id}                 suggest a move, thought out for their seat
// This module is the feature the page knows: the screens, panels and intents of both sides.
import { h } from "../../ui/dom.js";
import { adoptSavedMatch, closeLinks, forwardAll, hostIntents, renderLobby, renderPlayersPanel } from "./host.js";
import { checkDeal, closeFriend, fairVerdict, friendIntents, isFriend, leftNotice, readInvitation, renderJoin } from "./friend.js";
import { handOver, renderHandover, sharedLink } from "./share.js";

export { sharedLink };

export const feature = {
  state: { together: null, fairCheck: null, sharedDeal: null },
  screens: { lobby: renderLobby, join: renderJoin, handover: renderHandover },
  panels: {
    side: (state, intents) => (state.together && state.together.role === "host" ? renderPlayersPanel(state, intents) : null),
    over: (state) => (isFriend(state) ? [h("p", { class: "field-note" }, "The host can deal the next match for the same table."), fairVerdict(state)] : null),
  },
  intents: (context) => ({ ...hostIntents(context), ...friendIntents(context) }),
  start(context) {
    const { state } = context;
    const link = sharedLink();
    if (link && link.kind === "join") readInvitation(state);
    else if (link && link.kind === "reply") handOver(state, context.render);
    else {
      const left = leftNotice();
      if (left) state.notice = left;
    }
    // A link opened in a tab that shows Parlour already changes only the fragment: start over.
    window.addEventListener("hashchange", () => { if (sharedLink()) window.location.reload(); });
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && document.title.startsWith("Your turn")) document.title = "Parlour";
    });
    // Leaving the page (closed, reloaded, another address) closes its connections, so that the
    // other devices know at once; without this they would wait for it to stop answering.
    window.addEventListener("pagehide", (event) => {
      if (event.persisted) return;
      closeFriend();
      closeLinks();
    });
  },
  afterSnapshot(prev, snap, move, state) {
    if (isFriend(state)) {
      if (snap.human_turn && document.hidden) document.title = "Your turn \u2014 Parlour";
      // The match over: the host's device has revealed the seed, the salt and every value.
      state.fairCheck = snap.is_over && snap.deal ? state.fairCheck || checkDeal(snap) : null;
      return;
    }
    adoptSavedMatch(state);
    forwardAll(state);
  },
};

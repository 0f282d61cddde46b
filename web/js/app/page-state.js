// The page's state, in one object owned by this module: what the screens are drawn from
// (the fields below, and those the features declare), and under `run` what the page's own
// machinery keeps between renders and requests (the match's token, the bots' loop, the
// render's memory of the screen last drawn). app.js makes it once (pageState) and hands it
// to the modules that read or write it (js/app/match.js, js/app/engine-session.js, the
// features through their context); no module keeps a part of it in variables of its own.

/** Add each feature's part of `target` (state fields, intents, screens); one owner each. */
export function declare(target, what, part) {
  for (const [name, value] of Object.entries(part || {})) {
    if (Object.hasOwn(target, name)) throw new Error(`${what} "${name}" is declared twice`);
    target[name] = value;
  }
}

/** The page's state: these fields, and those `features` declare (their `state`); `catalog` is
 * js/catalog.js's listing, which app.js imports (the build keeps it a module of its own only as
 * app.js's import, tools/build/site.py). */
export function pageState(features, catalog) {
  const state = {
    screen: "menu",         // menu | setup | rules | waiting | table | loading | fatal, or a feature's screen
    // The engine: loading in the background from the start, then ready, or failed to load
    // (problem: {title, message, detail}); fraction and message follow its loading.
    engine: { status: "loading", fraction: 0, message: "Loading the game engine", problem: null },
    waiting: null,          // {title, message}: what the waiting table starts once the engine is ready
    fatal: null,            // {title, message, detail}
    games: catalog.games,   // the engine's games and bot levels (bridge.games(), via js/catalog.js)
    levels: catalog.levels,
    ladder: catalog.ladder, // what the arena measured of each level (benchmarks/ladder.json)
    notice: null,           // a message on the menu (e.g. a save set aside)
    noticeMatch: null,      // {data, title}: the match the notice is about, offered as a file
    saves: [],             // the saved matches offered for resuming (one a slot, see storage.js), the latest first
    save: null,             // of those, the one a new match would replace: the set-up's game's
    saveSlot: null,         // the slot the match on the table is saved in (storage.matchSlot)
    unsaved: false,         // the match on the table could not be saved (storage full or off)
    setupGame: null, setup: null,                         // the set-up screen's game and choices
    rulesGame: null, rulesContent: undefined, rulesReturn: "menu",
    snapshot: null,         // the bridge's snapshot of the match on the table
    source: null,           // where it comes from and where moves go (js/app/table-source.js), from the table's opening
    matchSetup: null,       // {game, setup}: how that match was set up (for "Play again")
    renderer: null,         // its game module (web/js/games/<id>.js)
    selection: new Set(),   // the cards the person has selected
    error: null,            // the engine's refusal or a problem, in the error area
    message: null,          // the latest move in words, or another message on the table
    lastMove: null, freshAt: 0,                           // the latest move and when it came
    moveCount: 0,           // moves drawn since the page opened (a card travels once per move)
    thinking: null,         // the seat a bot is thinking for
    thinkingFraction: null, // how far the thinking bot's search is (0..1), once it reports
    roundOver: null,        // {title, lines} while the round-over dialog shows
    roundEnd: null,         // the snapshot of the table as that round left it (shown until Continue)
    roundTable: false,      // the person put the round-over dialog aside to look at the table
    received: [],           // cards that came into the person's hand since their last move
    handoffTo: null,        // pass and play: the seat the device goes to next
    shownViewer: null,      // pass and play: the seat whose cards are showing
    busy: false,            // a request or the bots' turns are under way
    replacing: null,        // {what, answer}: asking whether to abandon the saved match for `what`
    run: {
      matchToken: 0,      // the match on the table; a step of another match's is void (see match.js)
      botLoop: false,     // the computers' turns are under way
      holds: 0,           // steps under way that span several requests (match.js, holdingBusy)
      latestSave: null,   // the latest move's save, {snap, saved}: what record() answers while snap is shown
      lastScreen: null,   // the screen last drawn
      shownMoves: 0,      // state.moveCount when the table was last drawn
      newDeal: false,     // the next table drawn is a new match or round: no card travels into it
      freshMatch: false,  // ...and it is a match at its first move, from the engine: its hands are dealt
      frameRender: 0,     // a render asked for the next frame (renderSoon)
      rules: new Map(),   // the rules pages fetched, by game
      renderers: new Map(), // the games' table modules loaded, by game
    },
  };
  for (const f of features) declare(state, "state field", f.state);
  return state;
}

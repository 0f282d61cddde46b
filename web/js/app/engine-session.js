// The page's session with its engine: the worker started in the background (loadEngine), its
// loading shown on the status line and the screens that show it, requests sent one at a time
// in order (call, engineCall), whatever waits for the engine woken once it answers
// (engineReady), and a dead or silent worker replaced by a new one (at most three times a
// minute) after which the match on the table is put back (the page's `restore`).
//
// The page gives: its `state` (state.engine, state.screen, state.fatal, state.error are
// written here), `root` (a waiting table's progress bar), `render`, `intents()` (the
// status line's retry), `busyChanged()` (a request began or ended), `stopMatch()` (what the table
// waited for is void), `restore(resumeMatch)` (after a restart: the match back, or the menu)
// and `started(client)` (the engine first answered).
import { startEngine } from "../engine-client.js";
import { engineStatusLine, setProgress, showEngineStatus } from "../ui/loading.js";
import { withTestBudget } from "./test-budget.js";

// How long "ready" stays on the status line once the engine has loaded.
const READY_SHOWN_MS = 4000;
// How long after the engine is ready the memory image for the next visit starts being made.
const MEMORY_IMAGE_DELAY_MS = 1000;
// A worker that dies this often within a minute is not restarted again.
const RESTARTS_A_MINUTE = 3;

export function engineSession({ state, root, render, intents, busyChanged, stopMatch, restore, started }) {
  const session = {
    client: null,        // the engine's client, once it has answered for the first time
    started: false,      // a friend's page (a shared table) loads the engine only if asked
    waiters: [],         // called once the engine first answers (see engineClient, engineReady)
    chain: Promise.resolve(),
    pending: 0,          // requests sent and not answered
    recovering: false,
    restarts: [],        // when the worker was last restarted
    readyShownUntil: 0,
  };
  // The engine's status line, after the screens (see showEngine); "ready" stays a moment.
  const statusLine = engineStatusLine();
  root.after(statusLine);

  /** The engine's client, once the engine has answered for the first time. */
  function engineClient() {
    if (session.client) return Promise.resolve(session.client);
    return new Promise((resolve) => session.waiters.push(() => resolve(session.client)));
  }

  /** One request at a time, in order; resolves to the bridge's parsed reply. A request made
   * before the engine is ready waits for it. */
  function call(method, params = {}, options = {}) {
    session.pending += 1;
    busyChanged();
    const asked = withTestBudget(method, params);  // unchanged but in a browser test
    const run = session.chain.then(engineClient).then((current) => current.call(method, asked, options));
    session.chain = run.catch(() => undefined);
    return run.then(
      (reply) => reply,
      // A dead worker is dealt with by recoverEngine (the client's crash callback).
      (err) => { if (!session.client || !session.client.dead) engineFailed(err); throw err; },
    ).finally(() => { session.pending -= 1; busyChanged(); });
  }

  /**
   * Ask the engine for something the person wants: the reply, or null when there is nothing
   * to act on. A refusal ({error: {code, message}}) is shown to the person: by `refused(error)`
   * when given, else in the error area. An engine that stopped is shown by engineFailed or
   * recovered by recoverEngine. With `current`, a reply that arrives once `current()` is false
   * (the match or the position moved on) is dropped, refusal or not. `onProgress` follows a
   * searching bot.
   */
  async function engineCall(method, params = {}, { refused, current, onProgress } = {}) {
    let reply;
    try { reply = await call(method, params, { onProgress }); } catch { return null; }
    if (current && !current()) return null;
    if (reply.error) {
      if (refused) refused(reply.error);
      else { state.error = reply.error.message; render(); }
      return null;
    }
    return reply;
  }

  /** Resolves once the engine has answered (at once if it has), starting it if need be;
   * meanwhile the waiting table shows its progress. */
  function whenReady() {
    if (session.client) return Promise.resolve();
    if (!session.started) loadEngine();
    return new Promise((resolve) => session.waiters.push(resolve));
  }

  function engineFailed(err) {
    state.screen = "fatal";
    state.fatal = {
      title: "The game engine stopped",
      message: "The game engine stopped unexpectedly. Reload the page to carry on: your match is saved after every move.",
      detail: (err && err.message) || "it stopped answering",
    };
    stopMatch();
    render();
  }

  function onLoadingProgress(progress) {
    Object.assign(state.engine, {
      status: "loading", fraction: Number(progress.fraction) || 0, message: progress.message || state.engine.message, problem: null,
    });
    showEngine();
  }

  function watchEngine(current) {
    current.onCrash((err) => {
      if (current === session.client) recoverEngine(err);
    });
  }

  /** The worker died or stopped answering: say so, start a new one, restore the saved match. */
  async function recoverEngine(err) {
    if (session.recovering) return;
    const now = Date.now();
    const times = session.restarts;
    while (times.length && now - times[0] > 60_000) times.shift();
    if (times.length >= RESTARTS_A_MINUTE) { engineFailed(err); return; }
    times.push(now);
    session.recovering = true;
    const snap = state.snapshot;
    const resumeMatch = Boolean(snap && !snap.is_over && !["menu", "setup", "fatal", "loading"].includes(state.screen));
    console.warn("Parlour: the game engine stopped; restarting it:", (err && err.message) || err);
    stopMatch();
    session.chain = Promise.resolve();
    Object.assign(state, { screen: "loading", thinking: null, thinkingFraction: null, roundOver: null, roundEnd: null });
    state.engine = { status: "loading", fraction: 0, message: "The game engine stopped. Restarting it\u2026", problem: null };
    render();
    try {
      session.client = await startEngine(onLoadingProgress);
      watchEngine(session.client);
      engineAnswered();
      await restore(resumeMatch);
    } catch (error) {
      engineFailed(error);
    } finally {
      session.recovering = false;
    }
  }

  /** Show the engine's loading where it is drawn: the status line (not on the screens that
   * show it themselves), a waiting table's bar, the page's data-engine attribute. */
  function showEngine() {
    const engine = state.engine;
    document.documentElement.dataset.engine = engine.status;
    const own = state.screen === "waiting" || state.screen === "loading" || state.screen === "fatal";
    // On the table, the cards answering says the engine is ready: no notice over its buttons.
    // A friend's page at a shared table has no engine of its own to speak of.
    const shown = !own && session.started
      && (engine.status !== "ready" || (state.screen !== "table" && performance.now() < session.readyShownUntil));
    showEngineStatus(statusLine, engine, intents(), shown);
    if (state.screen === "waiting" || state.screen === "loading") setProgress(root, engine);
  }

  /** The engine answered (the first time, or again after a restart): wake whatever waits. */
  function engineAnswered() {
    const wasLoading = state.engine.status !== "ready";
    state.engine = { status: "ready", fraction: 1, message: "Ready", problem: null };
    if (wasLoading) {
      session.readyShownUntil = performance.now() + READY_SHOWN_MS;
      setTimeout(showEngine, READY_SHOWN_MS + 50);
    }
    showEngine();
    const waiters = session.waiters;
    session.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Start the engine's worker; the page goes on meanwhile. A failure is shown with a retry. */
  async function loadEngine() {
    session.started = true;
    state.engine = { status: "loading", fraction: 0, message: "Loading the game engine", problem: null };
    render();
    let current;
    try {
      current = await startEngine(onLoadingProgress);
    } catch (err) {
      const offline = navigator.onLine === false;
      state.engine = {
        status: "failed", fraction: 0, message: "",
        problem: {
          title: offline ? "You are offline" : "The game engine could not load",
          message: "Parlour needs a network connection once to download the game; after that it works offline. "
            + (offline ? "Connect to the internet and try again." : "Check your connection and try again."),
          detail: (err && err.message) || "unknown error",
        },
      };
      render();
      return;
    }
    session.client = current;
    watchEngine(current);
    started(current);
    engineAnswered();
    registerServiceWorker();
    keepMemoryImageWhenIdle(current);
  }

  /** The next visit's memory image is made in the background (see js/engine-client.js),
   * never while the first visit is still downloading: a moment after the engine is ready, when
   * the page is idle and no request waits for the engine. */
  function keepMemoryImageWhenIdle(current) {
    const start = () => { if (current === session.client && !current.dead) current.keepMemoryImage(); };
    setTimeout(() => {
      if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(start, { timeout: 2000 });
      else start();
    }, MEMORY_IMAGE_DELAY_MS);
  }

  /** Test-only hooks (?test=1): kill the worker as if it had crashed, and so on; each waits
   * for the engine to be ready. */
  function testHooks() {
    return {
      killWorker: async () => (await engineClient()).kill("The game engine's worker was killed (test)"),
      call: async (method, params, timeoutMs) => (await engineClient()).call(method, params, { timeoutMs }).catch((err) => err.message),
      // How this engine started (memoryImage: from a stored memory image) and the requests it
      // was sent, by method; the next visit's memory image ({stored, reason}, once made).
      engine: async () => {
        const current = await engineClient();
        return { ...current.info, memoryImage: current.fromMemoryImage, logs: current.logCounts, calls: current.sentCounts };
      },
      memoryImage: async () => (await engineClient()).keepMemoryImage(),
    };
  }

  return {
    call, engineCall, whenReady, loadEngine, showEngine, testHooks,
    /** The engine's client once it has answered, else null. */
    get client() { return session.client; },
    /** Requests sent and not answered yet. */
    get pending() { return session.pending; },
  };
}

function registerServiceWorker() {
  // Registered once the engine is ready, so its precache does not compete with the
  // runtime's own download on a first visit.
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("./sw.js").catch(() => { /* offline play is a bonus, not a requirement */ });
  }
}

// The page's side of the engine worker: start it, follow its loading, call the bridge.
//
//   const client = await startEngine(({stage, fraction, message}) => ...);
//   const reply = await client.call("start", {game: "crisps", seed: 1});
//   if (reply.error) ...            // the engine refused: {error: {code, message}}
//   client.onCrash((error) => ...)  // the worker died; every later call rejects
//   client.call("bot_move", {}, {onProgress: (fraction) => ...})  // a searching bot's progress
//
// Every request says which log entries the page holds, and every snapshot in a reply gets
// its whole log back (held-logs.js): the worker sends only a log's new entries.
//
// call() rejects only when the worker itself fails (Python could not start, the worker
// crashed, a request broke the worker); its Error has the worker's readable `message` and
// `code` (worker.js). Replies from the engine, its refusals included, resolve.
//
// A watchdog guards every call: a worker that does not answer in time (QUICK_MS for the
// calls that should be instant, SLOW_MS for the ones that think or replay a whole match;
// call(method, params, {timeoutMs}) overrides it) is treated as dead: it is terminated and
// the crash callbacks run, so the page can start a new engine and restore the match.
// A progress report for the request being timed (a searching bot's, see worker.js) proves
// the worker alive, so it restarts that request's watchdog: the limit is then the longest
// silence allowed, and a long search that keeps reporting is never taken for a hang.
// client.kill() does the same on purpose (the page's test hook uses it).
//
// client.keepMemoryImage() (the page calls it once the menu is shown and idle) makes the
// memory image for the next visit's start (Pyodide's memory snapshot of the loaded engine)
// in a second, short-lived worker (worker.js again, named "parlour-memory-image"), off the
// first visit's critical path and once no request is waiting for the engine; see worker.js.
// It resolves to {stored, reason} and never rejects: an image that cannot be made is a
// console warning at most. Not after a start from an image, not with ?snapshot=0 (the
// address's switch keeps the name Pyodide gives the thing), and at most once per page.
// ("Snapshot" alone, in the page's code, is the bridge's reply.)

import { heldLogs } from "./held-logs.js";

const WORKER_SCRIPT = new URL("../worker.js", import.meta.url);
// The build this page's first engine reported: a later worker (a restart, the image maker)
// names it in its URL, so that the service worker answers it from this build's files even
// after a newer release took over (see sw.js). The worker itself ignores it.
let pageBuild = null;
const workerUrl = () => {
  const url = new URL(WORKER_SCRIPT);
  if (pageBuild) url.searchParams.set("build", pageBuild);
  return url;
};
const QUICK_MS = 30_000;
const SLOW_MS = 180_000;
const SLOW_METHODS = new Set(["bot_move", "hint", "analyse", "load", "start", "replay", "undo"]);
// An image maker still busy after this long is given up (and stopped).
const MEMORY_IMAGE_MS = 300_000;
// ?snapshot=0 on the page: no memory image is read or made (see worker.js).
const MEMORY_IMAGES_OFF = new URLSearchParams(self.location.search).get("snapshot") === "0";
let imageMaking = null;  // one image maker per page at most

// The worker learns what it is from its name (see worker.js), not from its URL's query.
function workerName(kind) {
  return MEMORY_IMAGES_OFF ? `${kind}?snapshot=0` : kind;
}

/** Run worker.js as "parlour-memory-image" until it reports; {stored, reason}. */
function makeMemoryImage() {
  return new Promise((resolve) => {
    let worker;
    let timer = null;
    const finish = (outcome) => {
      clearTimeout(timer);
      if (worker) worker.terminate();
      resolve(outcome);
    };
    const fail = (reason) => {
      console.warn("Parlour: no memory image for the next visit:", reason);
      finish({ stored: false, reason });
    };
    try {
      worker = new Worker(workerUrl(), { type: "module", name: workerName("parlour-memory-image") });
    } catch (error) {
      fail((error && error.message) || String(error));
      return;
    }
    timer = setTimeout(() => fail(`not made in ${MEMORY_IMAGE_MS / 1000} s`), MEMORY_IMAGE_MS);
    worker.addEventListener("message", (event) => {
      const data = event.data || {};
      if (data.type === "memory-image") finish({ stored: Boolean(data.stored), reason: String(data.reason || "") });
    });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      fail(event.message || "the image maker could not be loaded");
    });
  });
}

export async function startEngine(onProgress = () => {}) {
  const worker = new Worker(workerUrl(), { type: "module", name: workerName("parlour-engine") });
  const pending = new Map();
  const crashCallbacks = [];
  let nextId = 1;
  let dead = null;
  let info = null;
  let fromMemoryImage = false;
  let idleWaiters = [];
  let settleStart;
  // What this engine's snapshots already told the page of each log (see held-logs.js): a new
  // engine (a restart) starts with none, as its bridge does.
  const logs = heldLogs();
  const sent = {};  // requests sent, by method (the page's test hook reads them)
  const started = new Promise((resolve, reject) => { settleStart = { resolve, reject }; });

  function report(update) {
    try {
      onProgress(update);
    } catch (error) {
      console.error("progress callback failed:", error);
    }
  }

  function wakeIdle() {
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once no request is waiting for the worker (at once if none is). */
  function whenIdle() {
    if (!pending.size || dead) return Promise.resolve();
    return new Promise((resolve) => idleWaiters.push(resolve));
  }

  function die(message, notify = true) {
    if (dead) return;
    dead = new Error(message);
    wakeIdle();
    settleStart.reject(dead);
    for (const { reject, timer } of pending.values()) { clearTimeout(timer); reject(dead); }
    pending.clear();
    worker.terminate();
    if (!notify) return;
    for (const callback of crashCallbacks) {
      try {
        callback(dead);
      } catch (error) {
        console.error("crash callback failed:", error);
      }
    }
  }

  // The worker answers in order, one request at a time, so only the oldest request waiting
  // is timed: a quick call queued behind a bot's long think is not mistaken for a hang.
  function armWatchdog() {
    const oldest = pending.values().next();
    if (oldest.done || oldest.value.timer !== null) return;
    const waiter = oldest.value;
    waiter.timer = setTimeout(() => {
      die(`The game engine stopped answering (no reply to ${waiter.method} in ${Math.round(waiter.limit / 1000)} s)`);
    }, waiter.limit);
  }

  worker.addEventListener("message", (event) => {
    const data = event.data || {};
    switch (data.type) {
      case "progress":
        report({ stage: data.stage, fraction: data.fraction, message: data.message });
        break;
      case "ready":
        info = { build_id: data.build_id, pyodide_version: data.pyodide_version };
        if (!pageBuild && typeof data.build_id === "string") pageBuild = data.build_id;
        fromMemoryImage = Boolean(data.memory_image);
        settleStart.resolve();
        break;
      case "failed":
        die(`The game engine could not start: ${data.message}`);
        break;
      case "crash":
        die(`The game engine stopped: ${data.message}`);
        break;
      case "thinking": {
        const waiter = pending.get(data.id);
        if (!waiter) break;
        if (waiter.timer !== null) {
          clearTimeout(waiter.timer);
          waiter.timer = null;
          armWatchdog();
        }
        if (waiter.onProgress) {
          try {
            waiter.onProgress(Number(data.fraction));
          } catch (error) {
            console.error("thinking callback failed:", error);
          }
        }
        break;
      }
      case "reply": {
        const waiter = pending.get(data.id);
        if (!waiter) break;
        pending.delete(data.id);
        clearTimeout(waiter.timer);
        armWatchdog();
        if (!pending.size) wakeIdle();
        if ("error" in data) {
          const { code, message } = data.error || {};
          waiter.reject(Object.assign(new Error(String(message)), { code: String(code) }));
        } else {
          let result;
          try {
            result = logs.take(data.result);
          } catch (error) {
            waiter.reject(error);
            break;
          }
          waiter.resolve(result);
        }
        break;
      }
      default:
        break;
    }
  });
  worker.addEventListener("error", (event) => {
    // The script failed to load or threw outside any request.
    event.preventDefault();
    const detail = event.message || "the engine worker could not be loaded";
    die(`The game engine stopped: ${detail}`);
  });
  worker.addEventListener("messageerror", () => die("The game engine sent an unreadable reply"));

  await started;

  return {
    get info() { return info; },
    /** True when the worker started from a stored memory image. */
    get fromMemoryImage() { return fromMemoryImage; },
    call(method, params = {}, { timeoutMs, onProgress } = {}) {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      sent[method] = (sent[method] || 0) + 1;
      const limit = timeoutMs || (SLOW_METHODS.has(method) ? SLOW_MS : QUICK_MS);
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, timer: null, method, limit, onProgress });
        const plain = params && typeof params === "object" && !Array.isArray(params);
        worker.postMessage({ id, method, params: plain ? { ...params, log_have: logs.have() } : params });
        armWatchdog();
      });
    },
    get dead() { return dead; },
    /** How many snapshots brought part of their log, and all of it (see held-logs.js). */
    get logCounts() { return logs.counts; },
    /** How many requests this engine was sent, by method. */
    get sentCounts() { return { ...sent }; },
    /** Make the next visit's memory image in a second worker, once this one is idle. */
    keepMemoryImage() {
      if (MEMORY_IMAGES_OFF) return Promise.resolve({ stored: false, reason: "memory images are off" });
      if (fromMemoryImage) return Promise.resolve({ stored: false, reason: "this start used one" });
      if (!imageMaking) imageMaking = whenIdle().then(makeMemoryImage);
      return imageMaking;
    },
    /** Terminate the worker as if it had died: pending calls reject, crash callbacks run. */
    kill(message = "The game engine's worker was stopped") {
      die(message);
    },
    onCrash(callback) {
      crashCallbacks.push(callback);
      if (dead) queueMicrotask(() => callback(dead));
    },
    terminate() {
      die("The game engine was stopped", false);
    },
  };
}

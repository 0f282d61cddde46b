// The page's side of the engine worker: start it, follow its loading, call the bridge.
//
//   const client = await startEngine(({stage, fraction, message}) => ...);
//   const reply = await client.call("start", {game: "crisps", seed: 1});
//   if (reply.error) ...            // the engine refused: {error: {code, message}}
//   client.onCrash((error) => ...)  // the worker died; every later call rejects
//
// call() rejects only when the worker itself fails (Python could not start, the worker
// crashed); its Error message is readable. Replies from the engine, errors included, resolve.

const WORKER_URL = new URL("../worker.js", import.meta.url);

export async function startEngine(onProgress = () => {}) {
  const worker = new Worker(WORKER_URL, { type: "module", name: "parlour-engine" });
  const pending = new Map();
  const crashCallbacks = [];
  let nextId = 1;
  let dead = null;
  let info = null;
  let settleStart;
  const started = new Promise((resolve, reject) => { settleStart = { resolve, reject }; });

  function report(update) {
    try {
      onProgress(update);
    } catch (error) {
      console.error("progress callback failed:", error);
    }
  }

  function die(message, notify = true) {
    if (dead) return;
    dead = new Error(message);
    settleStart.reject(dead);
    for (const { reject } of pending.values()) reject(dead);
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

  worker.addEventListener("message", (event) => {
    const data = event.data || {};
    switch (data.type) {
      case "progress":
        report({ stage: data.stage, fraction: data.fraction, message: data.message });
        break;
      case "ready":
        info = { build_id: data.build_id, pyodide_version: data.pyodide_version };
        settleStart.resolve();
        break;
      case "failed":
        die(`The game engine could not start: ${data.message}`);
        break;
      case "crash":
        die(`The game engine stopped: ${data.message}`);
        break;
      case "reply": {
        const waiter = pending.get(data.id);
        if (!waiter) break;
        pending.delete(data.id);
        if ("error" in data) waiter.reject(new Error(String(data.error)));
        else waiter.resolve(data.result);
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
    call(method, params = {}) {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, method, params });
      });
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

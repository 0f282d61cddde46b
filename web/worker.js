// The engine worker (a module worker): runs Pyodide and the Parlour engine off the main
// thread and answers requests from js/engine-client.js.
//
// Messages to the page:
//   {type: "progress", stage, fraction, message}   while loading ("runtime", "engine", "ready")
//   {type: "ready", build_id, pyodide_version}     once engine.bridge is imported
//   {type: "failed", message}                      loading failed (readable text)
//   {type: "reply", id, result} / {type: "reply", id, error}
//                                                  one per request {id, method, params}
//   {type: "crash", message}                       the Python runtime died; nothing will answer
//
// Start-up does not use micropip: the engine wheel is pure Python with no dependencies, so it
// is fetched (in parallel with loadPyodide) and unpacked straight into site-packages with
// pyodide.unpackArchive. That saves loading micropip itself and its extra round trips.
// All URLs are relative to this file, so the site works under any sub-path.

const BRIDGE_METHODS = new Set([
  "games", "start", "snapshot", "act", "why", "bot_move", "hint", "undo", "record", "load", "replay",
]);

let crashed = null;

function post(message) {
  self.postMessage(message);
}

function progress(stage, fraction, message) {
  post({ type: "progress", stage, fraction, message });
}

function describe(error) {
  if (error && typeof error.message === "string" && error.message) return error.message;
  return String(error);
}

// The last line of a Python traceback says what went wrong; the rest is for the console.
function pythonMessage(error) {
  const lines = describe(error).trim().split("\n").filter((line) => line.trim());
  return lines.length ? lines[lines.length - 1].trim() : "the engine failed";
}

function isPythonError(error) {
  return Boolean(error) && error.constructor && error.constructor.name === "PythonError";
}

function isFatal(error) {
  return /fatal error/i.test(describe(error)) || (error && error.pyodide_fatal_error);
}

async function fetchOk(url, what) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new Error(`could not download ${what} (${describe(error)})`);
  }
  if (!response.ok) throw new Error(`could not download ${what} (HTTP ${response.status})`);
  return response;
}

// ----- the memory snapshot (repeat visits) ------------------------------------------------
// A normal start loads the runtime with loadPyodide({_makeSnapshot: true}), imports the
// whole engine and takes pyodide.makeMemorySnapshot() before the first bridge call; it is
// saved in IndexedDB keyed by the build id once the engine is ready. The next start restores
// it (loadPyodide({_loadSnapshot})), which skips Python's own start-up and the engine's
// imports. Anything wrong with it (no IndexedDB,
// quota, a snapshot that does not restore or whose engine does not answer) means a normal
// start, and the bad snapshot is deleted. ?snapshot=0 on the page turns snapshots off.

const SNAPSHOT_DB = "parlour-runtime";
const SNAPSHOT_STORE = "snapshots";
const useSnapshots = typeof indexedDB !== "undefined" &&
  new URLSearchParams(self.location.search).get("snapshot") !== "0";

function openSnapshots() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(SNAPSHOT_DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(SNAPSHOT_STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("the snapshot database is blocked"));
  });
}

async function snapshotStore(mode, work) {
  const db = await openSnapshots();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(SNAPSHOT_STORE, mode);
      const result = work(tx.objectStore(SNAPSHOT_STORE));
      tx.oncomplete = () => resolve(result.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error || new Error("aborted"));
    });
  } finally {
    db.close();
  }
}

async function readSnapshot(buildId) {
  if (!useSnapshots) return null;
  try {
    const found = await snapshotStore("readonly", (store) => store.get(buildId));
    return found instanceof Uint8Array || found instanceof ArrayBuffer ? found : null;
  } catch {
    return null;
  }
}

async function writeSnapshot(buildId, bytes) {
  try {
    await snapshotStore("readwrite", (store) => {
      store.clear();  // one build's snapshot at a time
      return store.put(bytes, buildId);
    });
  } catch (error) {
    console.warn("Parlour: could not keep a start-up snapshot:", describe(error));
  }
}

async function deleteSnapshots() {
  try { await snapshotStore("readwrite", (store) => store.clear()); } catch { /* nothing kept */ }
}

// Python run once the engine's files are in place: import the whole engine (so a snapshot
// holds all of it), or, after a restore, refresh the import caches and reseed `random`
// (a snapshot would otherwise hand every visit the same random state).
const IMPORT_ENGINE = `
import importlib, pkgutil
importlib.invalidate_caches()
import engine, engine.bridge
for _module in pkgutil.walk_packages(engine.__path__, "engine."):
    if _module.name != "engine.__main__":
        importlib.import_module(_module.name)
del _module
`;
const AFTER_RESTORE = "import importlib, random\nimportlib.invalidate_caches()\nrandom.seed()\n";

async function boot() {
  progress("runtime", 0, "Loading the Python runtime");
  const here = new URL("./", import.meta.url);
  const buildInfo = fetchOk(new URL("build-info.json", here), "build-info.json")
    .then((response) => response.json());
  const wheel = buildInfo.then((info) =>
    fetchOk(new URL(`wheels/${info.engine_wheel}`, here), "the engine")
      .then((response) => response.arrayBuffer()));
  const snapshot = buildInfo.then((info) => readSnapshot(info.build_id), () => null);
  // Loading failures surface in the awaits below; don't let them be "unhandled" meanwhile.
  buildInfo.catch(() => {});
  wheel.catch(() => {});

  const indexURL = new URL("pyodide/", here).href;
  let loadPyodide;
  try {
    ({ loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href));
  } catch (error) {
    throw new Error(`could not load the Python runtime (${describe(error)})`);
  }
  const options = {
    indexURL,
    stdout: (text) => console.log(text),
    stderr: (text) => console.warn(text),
  };

  function install(pyodide, wheelBytes) {
    const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
    pyodide.unpackArchive(wheelBytes, "wheel", { extractDir: sitePackages });
  }

  function startBridge(pyodide) {
    const bridge = pyodide.pyimport("engine.bridge");
    // Fail now, readably, if the engine is broken, rather than on the first request.
    const games = JSON.parse(bridge.games("{}"));
    if (games.error) throw new Error(`the engine did not start: ${games.error.message}`);
    return bridge;
  }

  const saved = await snapshot;
  if (saved) {
    progress("runtime", 0.1, "Starting Python");
    try {
      const pyodide = await loadPyodide({ ...options, _loadSnapshot: saved });
      progress("engine", 0.8, "Starting the rules engine");
      install(pyodide, await wheel);  // the files, for anything imported later
      pyodide.runPython(AFTER_RESTORE);
      const bridge = startBridge(pyodide);
      const info = await buildInfo;
      progress("ready", 1, "Ready");
      post({ type: "ready", build_id: info.build_id, pyodide_version: pyodide.version, snapshot: true });
      return bridge;
    } catch (error) {
      if (!isPythonError(error) && /could not download/.test(describe(error))) throw error;
      console.warn("Parlour: the start-up snapshot did not work; starting normally:", describe(error));
      await deleteSnapshots();
    }
  }

  progress("runtime", 0.1, "Starting Python");
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: useSnapshots });
  progress("engine", 0.8, "Installing the rules engine");
  const info = await buildInfo;
  install(pyodide, await wheel);
  progress("engine", 0.9, "Starting the rules engine");
  pyodide.runPython(IMPORT_ENGINE);
  let bytes = null;
  if (useSnapshots) {
    // Before the first bridge call, so the snapshot holds no match and no JS references.
    try { bytes = pyodide.makeMemorySnapshot(); } catch (error) {
      console.warn("Parlour: no start-up snapshot:", describe(error));
    }
  }
  const bridge = startBridge(pyodide);
  progress("ready", 1, "Ready");
  post({ type: "ready", build_id: info.build_id, pyodide_version: pyodide.version, snapshot: false });
  if (bytes) writeSnapshot(info.build_id, bytes);
  return bridge;
}

const ready = boot();
ready.catch((error) => {
  const message = isPythonError(error) ? pythonMessage(error) : describe(error);
  console.error("Parlour engine failed to load:", describe(error));
  post({ type: "failed", message });
});

function call(bridge, method, params) {
  if (!BRIDGE_METHODS.has(method)) {
    return { error: { code: "unknown_method", message: `there is no engine method ${String(method)}` } };
  }
  let text;
  try {
    text = JSON.stringify(params === undefined || params === null ? {} : params);
  } catch (error) {
    return { error: { code: "bad_request", message: `the request is not JSON (${describe(error)})` } };
  }
  try {
    return JSON.parse(bridge[method](text));
  } catch (error) {
    if (isPythonError(error)) {
      // The bridge turns every engine failure into an error object; this is the rare
      // escape (e.g. RecursionError while formatting). Readable, never a hang.
      console.warn(`engine.bridge.${method} raised:`, describe(error));
      return { error: { code: "internal_error", message: pythonMessage(error) } };
    }
    throw error;
  }
}

self.addEventListener("message", async (event) => {
  const { id, method, params } = event.data || {};
  if (crashed) {
    post({ type: "reply", id, error: crashed });
    return;
  }
  let bridge;
  try {
    bridge = await ready;
  } catch (error) {
    post({ type: "reply", id, error: `the engine did not load: ${describe(error)}` });
    return;
  }
  try {
    post({ type: "reply", id, result: call(bridge, method, params) });
  } catch (error) {
    const message = describe(error);
    if (isFatal(error)) {
      crashed = `the engine stopped working: ${message}`;
      post({ type: "reply", id, error: crashed });
      post({ type: "crash", message: crashed });
      return;
    }
    post({ type: "reply", id, error: `engine.bridge.${method} failed: ${message}` });
  }
});

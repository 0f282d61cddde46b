// The engine worker (a module worker): runs Pyodide and the Parlour engine off the main
// thread and answers requests from js/engine-client.js.
//
// The same file has a second role, a worker named "parlour-memory-image" (see "the memory
// image" below): a short-lived worker that makes the memory image for the next visit's start
// (Pyodide calls it a memory snapshot; in Parlour's code a snapshot is the bridge's reply).
//
// Messages to the page (the engine):
//   {type: "progress", stage, fraction, message}   while loading ("runtime", "engine", "ready")
//   {type: "ready", build_id, pyodide_version, memory_image, steps}
//                                                  once engine.bridge is imported; memory_image:
//                                                  true when it started from a stored image;
//                                                  steps: when each step of the start ended,
//                                                  [name, ms since the epoch] (see step())
//   {type: "failed", message}                      loading failed (readable text)
//   {type: "reply", id, result} / {type: "reply", id, error: {code, message}}
//                                                  one per request {id, method, params}; a
//                                                  result is the bridge's reply (its refusals
//                                                  included), an error is the worker's own:
//                                                  "engine_stopped", "engine_not_loaded" or
//                                                  "request_failed" (the same shape as the
//                                                  bridge's {error: {code, message}})
//   {type: "thinking", id, fraction}               while request `id` (bot_move, hint, analyse) searches:
//                                                  its progress, 0..1, at most every ~80 ms
//   {type: "crash", message}                       the Python runtime died; nothing will answer
// Messages to the page (the image maker), exactly one, then the worker closes itself:
//   {type: "memory-image", stored, reason}         stored: this worker kept a new image
//
// A first visit installs the engine wheel with micropip, vendored in wheels/ (never from
// another host): the engine wheel and micropip are fetched while the runtime downloads, then
// micropip's wheel is unpacked from those bytes into site-packages (no second request, not
// even a revalidation) and installs the engine wheel from its bytes, written into Pyodide's
// file system (an emfs: URL). A repeat visit restores the memory image instead and pays
// none of it: the wheel, unzipped here (DecompressionStream) while the runtime starts, is
// written into a directory on sys.path, as the image expects.
// All URLs are relative to this file, so the site works under any sub-path. The Python it runs
// to install the engine, make its memory image and restore one is in js/worker-python.mjs.

import {
  AFTER_RESTORE, ENGINE_DIR, ENGINE_ON_PATH, IMPORT_ENGINE, SITE_PACKAGES, forgetDirectory,
} from "./js/worker-python.mjs";

const BRIDGE_METHODS = new Set([
  "games", "start", "snapshot", "act", "why", "bot_move", "hint", "analyse", "undo", "record", "load",
  "replay", "round_end", "coach", "seat_view", "set_seat", "check_deal",
]);

// What the page started this worker as: its name (new Worker(url, {name})) is
// "parlour-engine" or "parlour-memory-image", followed by "?snapshot=0" when the page has
// memory images off. The name, not the URL's query: a worker script that the service worker
// serves from its cache runs under the cached URL, which has no query.
const [workerKind, workerFlags = ""] = String(self.name || "").split("?");
const flags = new URLSearchParams(workerFlags);
const ROLE = workerKind === "parlour-memory-image" ? "memory-image" : "engine";
const HERE = new URL("./", import.meta.url);
// Where the engine wheel is written for micropip to install it from (then removed).
const WHEEL_DIR = "/parlour/wheels";

let crashed = null;  // the engine_stopped error once the runtime has died
let serving = null;  // the id of the request the bridge is working on

function post(message) {
  self.postMessage(message);
}

function progress(stage, fraction, message) {
  post({ type: "progress", stage, fraction, message });
}

// The start's steps as they end, for the benchmark's trace (benchmarks/bench.py --trace):
// [name, ms since the epoch], sent with "ready".
const steps = [];
function step(name) {
  steps.push([name, performance.timeOrigin + performance.now()]);
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
    throw new Error(`could not download ${what} (${describe(error)})`, { cause: error });
  }
  if (!response.ok) throw new Error(`could not download ${what} (HTTP ${response.status})`);
  return response;
}

// ----- the memory image (repeat visits) ---------------------------------------------------
// A first visit starts like bare Pyodide: loadPyodide(), the wheel, `import engine.bridge`
// (what the menu needs), ready. Nothing else is on its critical path. Once the menu is shown
// and the page is idle, js/engine-client.js starts this file again as "parlour-memory-image": a
// second worker that loads the runtime with loadPyodide({_makeSnapshot: true}), imports the
// whole engine, takes pyodide.makeMemorySnapshot() (before any bridge call, so it holds no
// match and no JS references), stores it in IndexedDB keyed by the build id (only if none is
// stored for this build by then) and closes. The next start restores it
// (loadPyodide({_loadSnapshot})), which skips Python's own start-up and the engine's imports.
// Anything wrong with it (no IndexedDB, quota, an image that does not restore or whose
// engine does not answer) means a normal start, and the bad image is deleted; an image that
// cannot be made is a console warning, nothing more. ?snapshot=0 on the page (the address
// keeps Pyodide's word) turns memory images off (neither read nor made): the page passes it
// on in the worker's name. The database and its store keep their first names, so that an
// image stored by an earlier release is still found (and replaced).

const IMAGE_DB = "parlour-runtime";
const IMAGE_STORE = "snapshots";
const useImages = typeof indexedDB !== "undefined" && flags.get("snapshot") !== "0";

function openImages() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(IMAGE_DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(IMAGE_STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("the memory image database is blocked"));
  });
}

/** Open the database for `use(db)` and close it afterwards. */
async function withImages(use) {
  const db = await openImages();
  try {
    return await use(db);
  } finally {
    db.close();
  }
}

/** Run `work(store, done)` in one transaction; resolves to what `done(value)` was given. */
function inTransaction(db, mode, work) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(IMAGE_STORE, mode);
    let result;
    work(tx.objectStore(IMAGE_STORE), (value) => { result = value; });
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("aborted"));
  });
}

function isImage(value) {
  return (value instanceof Uint8Array || value instanceof ArrayBuffer) && value.byteLength > 0;
}

function storedKeys(db) {
  return inTransaction(db, "readonly", (store, done) => {
    const request = store.getAllKeys();
    request.onsuccess = () => done(request.result || []);
  });
}

/** This build's memory image, or null. `buildInfo` is a promise: when nothing is stored at all
 * (a first visit) the answer comes without waiting for it. */
async function readImage(buildInfo) {
  if (!useImages) return null;
  try {
    return await withImages(async (db) => {
      const keys = await storedKeys(db);
      if (!keys.length) return null;
      const { build_id: buildId } = await buildInfo;
      if (!keys.includes(buildId)) return null;
      const found = await inTransaction(db, "readonly", (store, done) => {
        const request = store.get(buildId);
        request.onsuccess = () => done(request.result);
      });
      return isImage(found) ? found : null;
    });
  } catch {
    return null;
  }
}

/** Keep `bytes` as this build's memory image unless one is there already; true if kept. */
function keepImage(buildId, bytes) {
  return withImages((db) => inTransaction(db, "readwrite", (store, done) => {
    const request = store.get(buildId);
    request.onsuccess = () => {
      if (isImage(request.result)) { done(false); return; }
      store.clear();  // one build's image at a time
      store.put(bytes, buildId).onsuccess = () => done(true);
    };
  }));
}

async function deleteImages() {
  try {
    await withImages((db) => inTransaction(db, "readwrite", (store) => store.clear()));
  } catch { /* nothing kept */ }
}

// ----- loading -------------------------------------------------------------------------------

/** Download micropip's wheel; resolves to its bytes. */
function fetchMicropip(buildInfo) {
  const fetched = buildInfo
    .then((info) => fetchOk(new URL(`wheels/${info.micropip_wheel}`, HERE), "micropip"))
    .then((response) => response.arrayBuffer());
  fetched.catch(() => {});
  return fetched;
}

/** Start every download at once; the wheel resolves to {bytes, files} (files: null when
 * it could not be unzipped here, see unzip()). */
function startDownloads() {
  const buildInfo = fetchOk(new URL("build-info.json", HERE), "build-info.json")
    .then((response) => response.json());
  const wheel = buildInfo.then((info) =>
    fetchOk(new URL(`wheels/${info.engine_wheel}`, HERE), "the engine")
      .then((response) => response.arrayBuffer())
      .then(async (bytes) => ({ bytes, files: await unzip(bytes) })));
  // Loading failures surface where these are awaited; don't let them be "unhandled" meanwhile.
  buildInfo.catch(() => {});
  wheel.catch(() => {});
  const indexURL = new URL("pyodide/", HERE).href;
  const runtime = import(new URL("pyodide.mjs", indexURL).href).then(
    ({ loadPyodide }) => loadPyodide,
    (error) => { throw new Error(`could not load the Python runtime (${describe(error)})`); });
  runtime.catch(() => {});
  const options = {
    indexURL,
    stdout: (text) => console.log(text),
    stderr: (text) => console.warn(text),
  };
  return { buildInfo, wheel, runtime, options };
}

/** The files of a zip archive (the wheel) as [name, bytes] pairs, or null if this browser
 * cannot unzip it here (then Pyodide unpacks it, a little later on the way to the menu). */
async function unzip(buffer) {
  try {
    if (typeof DecompressionStream !== "function") return null;
    const bytes = new Uint8Array(buffer);
    const view = new DataView(buffer);
    let end = bytes.length - 22;  // the end-of-central-directory record, after any comment
    while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
    if (end < 0) return null;
    const count = view.getUint16(end + 10, true);
    let at = view.getUint32(end + 16, true);
    const names = new TextDecoder();
    const entries = [];
    for (let i = 0; i < count; i += 1) {
      if (view.getUint32(at, true) !== 0x02014b50) return null;
      const method = view.getUint16(at + 10, true);
      const packed = view.getUint32(at + 20, true);
      const nameLength = view.getUint16(at + 28, true);
      const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
      const local = view.getUint32(at + 42, true);
      const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
      at += 46 + skip;
      if (view.getUint32(local, true) !== 0x04034b50 || (method !== 0 && method !== 8)) return null;
      if (name.endsWith("/")) continue;
      if (name.startsWith("/") || name.split("/").includes("..")) return null;
      const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
      entries.push({ name, method, data: bytes.subarray(start, start + packed) });
    }
    return await Promise.all(entries.map(async ({ name, method, data }) => {
      if (method === 0) return [name, data];
      const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
      return [name, new Uint8Array(await new Response(stream).arrayBuffer())];
    }));
  } catch {
    return null;
  }
}

/** Put the engine's files into ENGINE_DIR and ENGINE_DIR on sys.path. */
function install(pyodide, wheel) {
  const { FS } = pyodide;
  FS.mkdirTree(ENGINE_DIR);
  if (wheel.files) {
    for (const [name, data] of wheel.files) {
      const slash = name.lastIndexOf("/");
      if (slash > 0) FS.mkdirTree(`${ENGINE_DIR}/${name.slice(0, slash)}`);
      FS.writeFile(`${ENGINE_DIR}/${name}`, data);
    }
  } else {
    pyodide.unpackArchive(wheel.bytes, "wheel", { extractDir: ENGINE_DIR });
  }
  pyodide.runPython(ENGINE_ON_PATH);
}

/** Install the engine wheel with micropip (a first visit): micropip's pure-Python wheel is
 * unpacked into site-packages from `micropipBytes`, as loadPackage would from its URL. */
async function installWithMicropip(pyodide, wheelName, wheel, micropipBytes) {
  let micropip;
  try {
    const site = pyodide.runPython(SITE_PACKAGES);
    pyodide.unpackArchive(micropipBytes, "wheel", { extractDir: site });
    // The import system looks at the directory afresh (not importlib.invalidate_caches(),
    // which imports importlib.metadata).
    pyodide.runPython(forgetDirectory(site));
    micropip = pyodide.pyimport("micropip");
    step("micropip imported");
  } catch (error) {
    throw new Error(`could not load micropip (${pythonMessage(error)})`, { cause: error });
  }
  const path = `${WHEEL_DIR}/${wheelName}`;
  try {
    pyodide.FS.mkdirTree(WHEEL_DIR);
    pyodide.FS.writeFile(path, new Uint8Array(wheel.bytes));
    await micropip.install.callKwargs(`emfs:${path}`, { deps: false });
  } finally {
    micropip.destroy();
    try { pyodide.FS.unlink(path); } catch { /* not written */ }
  }
}

function startBridge(pyodide) {
  const bridge = pyodide.pyimport("engine.bridge");
  // Fail now, readably, if the engine is broken, rather than on the first request.
  const games = JSON.parse(bridge.games("{}"));
  if (games.error) throw new Error(`the engine did not start: ${games.error.message}`);
  // A searching bot's progress goes to the page while it thinks. Installed here, on every
  // start: a memory image is made before any of this, so it never holds the callback.
  bridge.on_progress((fraction) => {
    if (serving !== null) post({ type: "thinking", id: serving, fraction });
  });
  return bridge;
}

async function boot() {
  step("worker started");
  progress("runtime", 0, "Loading the Python runtime");
  const { buildInfo, wheel, runtime, options } = startDownloads();
  runtime.then(() => step("pyodide.mjs imported"), () => {});
  wheel.then(() => step("engine wheel fetched and unzipped"), () => {});
  const image = useImages ? readImage(buildInfo) : Promise.resolve(null);
  // micropip only for a start without an image: it downloads as soon as that is known.
  let micropip = image.then((found) => (found ? null : fetchMicropip(buildInfo)));
  micropip.catch(() => {});
  const loadPyodide = await runtime;

  const saved = await image;
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
      post({ type: "ready", build_id: info.build_id, pyodide_version: pyodide.version, memory_image: true });
      return bridge;
    } catch (error) {
      if (!isPythonError(error) && /could not download/.test(describe(error))) throw error;
      console.warn("Parlour: the memory image did not work; starting normally:", describe(error));
      micropip = fetchMicropip(buildInfo);
      await deleteImages();
    }
  }

  progress("runtime", 0.1, "Starting Python");
  const pyodide = await loadPyodide(options);
  step("loadPyodide() resolved");
  progress("engine", 0.8, "Installing the rules engine");
  const info = await buildInfo;
  await installWithMicropip(pyodide, info.engine_wheel, await wheel, await micropip);
  step("engine wheel installed by micropip");
  progress("engine", 0.9, "Starting the rules engine");
  // Only what the menu needs: engine.bridge (the game registry and the bots' levels).
  const bridge = startBridge(pyodide);
  step("engine.bridge imported");
  progress("ready", 1, "Ready");
  post({ type: "ready", build_id: info.build_id, pyodide_version: pyodide.version, memory_image: false, steps });
  return bridge;
}

/** The image maker: make and keep this build's memory image; {stored, reason}. */
async function makeImage() {
  if (!useImages) return { stored: false, reason: "memory images are off" };
  const { buildInfo, wheel, runtime, options } = startDownloads();
  let keys;
  try {
    keys = await withImages(storedKeys);
  } catch (error) {
    throw new Error(`there is nowhere to keep it (${describe(error)})`, { cause: error });
  }
  const info = await buildInfo;
  if (keys.includes(info.build_id)) return { stored: false, reason: "one is kept already" };
  const loadPyodide = await runtime;
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  install(pyodide, await wheel);
  pyodide.runPython(IMPORT_ENGINE);
  const bytes = pyodide.makeMemorySnapshot();
  const stored = await keepImage(info.build_id, bytes);
  return { stored, reason: stored ? "kept" : "one is kept already" };
}

// ----- requests ------------------------------------------------------------------------------

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

function serve() {
  const ready = boot();
  ready.catch((error) => {
    const message = isPythonError(error) ? pythonMessage(error) : describe(error);
    console.error("Parlour engine failed to load:", describe(error));
    post({ type: "failed", message });
  });

  self.addEventListener("message", async (event) => {
    const { id, method, params } = event.data || {};
    const fail = (code, message) => post({ type: "reply", id, error: { code, message } });
    if (crashed) {
      post({ type: "reply", id, error: crashed });
      return;
    }
    let bridge;
    try {
      bridge = await ready;
    } catch (error) {
      fail("engine_not_loaded", `the engine did not load: ${describe(error)}`);
      return;
    }
    serving = id;
    try {
      post({ type: "reply", id, result: call(bridge, method, params) });
    } catch (error) {
      const message = describe(error);
      if (isFatal(error)) {
        crashed = { code: "engine_stopped", message: `the engine stopped working: ${message}` };
        post({ type: "reply", id, error: crashed });
        post({ type: "crash", message: crashed.message });
        return;
      }
      fail("request_failed", `engine.bridge.${method} failed: ${message}`);
    } finally {
      serving = null;
    }
  });
}

if (ROLE === "memory-image") {
  makeImage().then(
    (outcome) => post({ type: "memory-image", ...outcome }),
    (error) => {
      const message = isPythonError(error) ? pythonMessage(error) : describe(error);
      console.warn("Parlour: no memory image for the next visit:", message);
      post({ type: "memory-image", stored: false, reason: message });
    },
  ).finally(() => self.close());
} else {
  serve();
}

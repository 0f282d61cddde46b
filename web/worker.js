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
  "games", "start", "snapshot", "act", "why", "bot_move", "hint", "undo", "record", "load",
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

async function boot() {
  progress("runtime", 0, "Loading the Python runtime");
  const here = new URL("./", import.meta.url);
  const buildInfo = fetchOk(new URL("build-info.json", here), "build-info.json")
    .then((response) => response.json());
  const wheel = buildInfo.then((info) =>
    fetchOk(new URL(`wheels/${info.engine_wheel}`, here), "the engine")
      .then((response) => response.arrayBuffer()));
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
  progress("runtime", 0.1, "Starting Python");
  const pyodide = await loadPyodide({
    indexURL,
    stdout: (text) => console.log(text),
    stderr: (text) => console.warn(text),
  });

  progress("engine", 0.8, "Installing the rules engine");
  const info = await buildInfo;
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
  progress("engine", 0.9, "Starting the rules engine");
  const bridge = pyodide.runPython(
    "import importlib, json\nimportlib.invalidate_caches()\n" +
    "import engine.bridge\nengine.bridge");
  // Fail now, readably, if the engine is broken, rather than on the first request.
  const games = JSON.parse(bridge.games("{}"));
  if (games.error) throw new Error(`the engine did not start: ${games.error.message}`);
  progress("ready", 1, "Ready");
  post({ type: "ready", build_id: info.build_id, pyodide_version: pyodide.version });
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

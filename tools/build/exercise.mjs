// Start the real Pyodide runtime under Node.js the way the page's worker does, install the
// engine wheel, run tools/build/exercise.py (every game, level, hint, undo, replay, record
// load and bad request) and print, as one JSON line on stdout, what Python imported and
// which files of the standard library it read.
//
//   node tools/build/exercise.mjs --pyodide DIR --base URL --wheel NAME
//        [--stdlib ZIP] [--install unpack|micropip] [--micropip NAME] [--memory-image]
//        [--iterations N] [--steps N] [--no-exercise] [--try-imports JSON]
//
// --pyodide  the directory of the runtime's files (pyodide.mjs and the rest)
// --base     an HTTP URL (tools/build/netserver.py) that serves the wheels; nothing else
//            is fetched: a request anywhere else fails the run
// --wheel    the engine wheel's file name under --base
// --stdlib   a python_stdlib.zip to use instead of the runtime's own (a trimmed one)
// --install  unpack: the worker's way today (pyodide.unpackArchive into a directory put on
//            sys.path); micropip: --micropip unpacked into site-packages, then micropip.install
//            of the wheel's bytes (an emfs: URL), as the worker does
// --memory-image make a memory image first, as the page's memory-image worker does (whole engine
//            imported), and run the exercise in a runtime restored from it
// --no-exercise  stop once engine.bridge answers (timing the start-up alone)
// --try-imports  a JSON file listing module names: after everything else (and after what
//            was imported has been recorded), import each and report what failed
//            (import_errors) and every module imported by then (modules_after_imports)
//
// Exit status 0 only if every step worked; a missing module anywhere (an ImportError raised
// or reported by the bridge as an internal error) fails the run.
import { readFile } from "node:fs/promises";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  AFTER_RESTORE, ENGINE_DIR, ENGINE_ON_PATH, IMPORT_ENGINE, SITE_PACKAGES, forgetDirectory,
} from "../../web/js/worker-python.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TOOLS_DIR = "/parlour/tools";

function parseArgs(argv) {
  const args = { install: "unpack", memoryImage: false, exercise: true, iterations: "4",
    steps: "10" };
  for (let i = 0; i < argv.length; i += 1) {
    const key = argv[i].replace(/^--/, "");
    if (key === "memory-image") args.memoryImage = true;
    else if (key === "no-exercise") args.exercise = false;
    else args[key] = argv[(i += 1)];
  }
  for (const needed of ["pyodide", "base", "wheel"]) {
    if (!args[needed]) throw new Error(`--${needed} is required`);
  }
  if (args.install === "micropip" && !args.micropip) throw new Error("--micropip is required");
  return args;
}

const args = parseArgs(process.argv.slice(2));
const base = new URL(args.base);
const fetched = [];
const realFetch = globalThis.fetch;
globalThis.fetch = (resource, init) => {
  const url = String(resource instanceof Request ? resource.url : resource);
  fetched.push(url);
  if (!url.startsWith(base.href)) {
    return Promise.reject(new Error(`the exercise may fetch only from ${base.href}, not ${url}`));
  }
  return realFetch(resource, init);
};

const indexURL = path.resolve(args.pyodide) + path.sep;
const { loadPyodide } = await import(path.join(indexURL, "pyodide.mjs"));
const options = {
  indexURL,
  stdout: (text) => process.stderr.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
};
if (args.stdlib) options.stdLibURL = path.resolve(args.stdlib);

const timings = {};
let clock = performance.now();
function lap(name) {
  const now = performance.now();
  timings[name] = Math.round(now - clock);
  clock = now;
}

// Which files of the standard library zip Python reads: zipimport reads every module's
// source through _get_data, and so does a loader's get_data (importlib.resources).
const TRACK = `
import sys, zipimport
_parlour_reads = []
_parlour_get_data = zipimport._get_data
def _parlour_track(archive, toc_entry):
    _parlour_reads.append(toc_entry[0][len(archive) + 1:] if toc_entry[0].startswith(archive)
                          else toc_entry[0])
    return _parlour_get_data(archive, toc_entry)
zipimport._get_data = _parlour_track
`;

const REPORT = `
import json, sys
_out = {}
for _name, _module in sorted(sys.modules.items()):
    _spec = getattr(_module, "__spec__", None)
    _out[_name] = getattr(_spec, "origin", None) if _spec is not None else None
json.dumps({"modules": _out, "reads": sorted(set(_parlour_reads)),
            "path": sys.path, "version": sys.version})
`;

async function fetchBytes(name) {
  const response = await fetch(new URL(name, base));
  if (!response.ok) throw new Error(`could not download ${name} (HTTP ${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}

function unpack(pyodide, bytes) {
  pyodide.FS.mkdirTree(ENGINE_DIR);
  pyodide.unpackArchive(bytes, "wheel", { extractDir: ENGINE_DIR });
  pyodide.runPython(ENGINE_ON_PATH);
}

// As web/worker.js does: micropip's wheel unpacked into site-packages from its bytes, then
// the engine wheel installed by micropip from its bytes in Pyodide's file system.
async function installWithMicropip(pyodide) {
  const site = pyodide.runPython(SITE_PACKAGES);
  pyodide.unpackArchive(await fetchBytes(args.micropip), "wheel", { extractDir: site });
  pyodide.runPython(forgetDirectory(site));
  lap("micropip_load");
  const micropip = pyodide.pyimport("micropip");
  lap("micropip_import");
  const wheel = `/parlour/wheels/${path.basename(args.wheel)}`;
  pyodide.FS.mkdirTree("/parlour/wheels");
  pyodide.FS.writeFile(wheel, await fetchBytes(args.wheel));
  await micropip.install.callKwargs(`emfs:${wheel}`, { deps: false });
  micropip.destroy();
  pyodide.FS.unlink(wheel);
  lap("wheel_install");
}

async function install(pyodide) {
  if (args.install === "micropip") {
    await installWithMicropip(pyodide);
  } else if (args.install === "unpack") {
    const bytes = await fetchBytes(args.wheel);
    lap("wheel_download");
    unpack(pyodide, bytes);
    lap("wheel_install");
  } else {
    throw new Error(`--install must be unpack or micropip, not ${args.install}`);
  }
}

async function main() {
  let pyodide;
  if (args.memoryImage) {
    const maker = await loadPyodide({ ...options, _makeSnapshot: true });
    lap("runtime_loaded");
    maker.runPython(TRACK);
    await install(maker);
    maker.runPython(IMPORT_ENGINE);
    const makerReads = maker.runPython("list(_parlour_reads)").toJs();
    const image = maker.makeMemorySnapshot();
    lap("memory_image_made");
    pyodide = await loadPyodide({ ...options, _loadSnapshot: image });
    lap("runtime_restored");
    pyodide.runPython(TRACK);
    pyodide.globals.get("_parlour_reads").extend(makerReads);
    unpack(pyodide, await fetchBytes(args.wheel));
    pyodide.runPython(AFTER_RESTORE);
  } else {
    pyodide = await loadPyodide(options);
    lap("runtime_loaded");
    pyodide.runPython(TRACK);
    await install(pyodide);
  }
  pyodide.runPython("import engine.bridge\nengine.bridge.games()");
  lap("bridge_imported");
  let summary = "null";
  if (args.exercise) summary = await exercise(pyodide);
  const report = JSON.parse(pyodide.runPython(REPORT));
  if (args["try-imports"]) {
    const names = await readFile(args["try-imports"], "utf8");
    report.import_errors = JSON.parse(pyodide.runPython(`
import importlib, json
_failed = {}
for _name in json.loads(${JSON.stringify(names)}):
    try:
        importlib.import_module(_name)
    except BaseException as _error:
        _failed[_name] = f"{type(_error).__name__}: {_error}"
json.dumps(_failed)
`));
    report.modules_after_imports = pyodide.runPython("import sys; sorted(sys.modules)").toJs();
  }
  const foreign = fetched.filter((url) => !url.startsWith(base.href));
  process.stdout.write(`${JSON.stringify({
    ...report, exercise: JSON.parse(summary), timings, fetched, foreign,
    install: args.install, memory_image: args.memoryImage, stdlib: args.stdlib || null,
  })}\n`);
}

async function exercise(pyodide) {
  pyodide.runPython(IMPORT_ENGINE);
  pyodide.FS.mkdirTree(TOOLS_DIR);
  pyodide.FS.writeFile(`${TOOLS_DIR}/exercise.py`, await readFile(path.join(HERE, "exercise.py")));
  const summary = pyodide.runPython(`
import json, sys
sys.path.insert(0, ${JSON.stringify(TOOLS_DIR)})
import exercise
json.dumps(exercise.run(iterations=${Number(args.iterations)}, steps=${Number(args.steps)}))
`);
  lap("exercise");
  return summary;
}

main().then(() => process.exit(0), (error) => {
  process.stderr.write(`exercise failed: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});

// The Python that the engine worker (web/worker.js) runs in Pyodide to put the engine in place,
// make a memory image (Pyodide's memory snapshot) and come back from one. The build's check of the page's start-up
// (tools/build/exercise.mjs, under Node.js) imports the same text, so that the standard library
// it trims to (tools/build/stdlib.py) is measured on exactly what the page runs.
// The build bundles this module into the worker; `build.py --no-minify` serves it as it is.

// Where the engine's files live in Pyodide's file system (on sys.path). A memory image refers to
// it, so it must be the same in every worker that makes or restores one.
export const ENGINE_DIR = "/parlour/lib";

const DIR = JSON.stringify(ENGINE_DIR);

// ENGINE_DIR on sys.path, once the engine's files are in it.
export const ENGINE_ON_PATH = `import sys\nif ${DIR} not in sys.path: sys.path.insert(0, ${DIR})`;

// Where wheels are installed (micropip's own is unpacked there): evaluates to the path.
export const SITE_PACKAGES = "import sys\nnext(p for p in sys.path if p.endswith('site-packages'))";

/** Python that makes the import system look at `directory` afresh (files were just put there). */
export function forgetDirectory(directory) {
  return `import sys\nsys.path_importer_cache.pop(${JSON.stringify(directory)}, None)`;
}

// Run once the engine's files are in place (the image maker): import the whole engine,
// every module, so that the image holds all of it.
export const IMPORT_ENGINE = `
import importlib, pkgutil
import engine, engine.bridge
for _module in pkgutil.walk_packages(engine.__path__, "engine."):
    if _module.name != "engine.__main__":
        importlib.import_module(_module.name)
del _module
`;

// After a restore: reseed `random` (an image would otherwise hand every visit the same
// random state) and forget the import system's view of the engine's directory (written
// anew). Not importlib.invalidate_caches(): it imports importlib.metadata, a few hundred ms.
export const AFTER_RESTORE = `
import random, sys
[sys.path_importer_cache.pop(p) for p in list(sys.path_importer_cache) if p.startswith(${DIR})]
random.seed()
`;

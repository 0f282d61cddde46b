// Compile a standard-library zip to bytecode with the runtime's own Python (Pyodide under
// Node.js), so that the page imports it without compiling: a sourceless .pyc in place of each
// .py, every other member as it was.
//
//   node tools/build/compile_stdlib.mjs --pyodide DIR --src ZIP --dest ZIP
//
// The bytecode is what `python -OO` with PYTHONNODEBUGRANGES=1 makes (no docstrings, no
// asserts, no column positions in tracebacks: the smallest files) in unchecked hash-based
// .pyc files (PEP 552), so the output depends on the sources alone: the same zip every time.
// Members are written sorted, with a fixed date, DEFLATE at zlib's level 9.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import process from "node:process";

const args = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) args[argv[i].replace(/^--/, "")] = argv[i + 1];
for (const needed of ["pyodide", "src", "dest"]) {
  if (!args[needed]) throw new Error(`--${needed} is required`);
}

const indexURL = path.resolve(args.pyodide) + path.sep;
const { loadPyodide } = await import(path.join(indexURL, "pyodide.mjs"));
const pyodide = await loadPyodide({
  indexURL,
  env: { PYTHONNODEBUGRANGES: "1" },
  stdout: (text) => process.stderr.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
});
pyodide.FS.writeFile("/tmp/src.zip", new Uint8Array(await readFile(args.src)));
const COMPILE = `
import importlib.util, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

with zipfile.ZipFile("/tmp/src.zip") as src, zipfile.ZipFile("/tmp/dest.zip", "w") as dest:
    for info in sorted(src.infolist(), key=lambda i: i.filename):
        if info.is_dir():
            continue
        name, data = info.filename, src.read(info)
        if name.endswith(".py"):
            code = compile(data, name, "exec", dont_inherit=True, optimize=2)
            name = name + "c"
            data = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))
        out = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        out.compress_type = zipfile.ZIP_DEFLATED
        out.external_attr = 0o644 << 16
        out.create_system = 3
        dest.writestr(out, data, compresslevel=9)
`;
try {
  pyodide.runPython(COMPILE);
} catch (error) {
  // A Python error's message is its traceback; that is all a failed build needs to say.
  process.stderr.write(`${error && error.message ? error.message : error}\n`);
  process.exit(1);
}
await writeFile(args.dest, pyodide.FS.readFile("/tmp/dest.zip"));

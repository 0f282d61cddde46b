"""The standard library shipped to the page, trimmed to what the runtime and the engine use.

The keep list (``stdlib_keep.txt``, next to this file) is derived by measurement:
``python3 -m tools.build.stdlib measure`` runs the real Pyodide runtime under Node.js
(``exercise.mjs``) in three ways the page starts it (the engine wheel unpacked as the worker
does today; installed with micropip; a memory image made and restored), each time playing
every game at every player count against every level with hints, undo, record load, replays
and bad requests (``exercise.py``), and records every module in ``sys.modules`` and every
file Python read from the library's zip. The rule that turns that into the list, with its
safety margin:

- a touched top-level module is kept; a touched package is kept whole (every submodule
  and data file), so that a code path the exercise missed inside a package the runtime
  uses still finds its modules;
- except ``encodings``, most of which is codecs for other alphabets: only its touched
  modules plus the few codecs ``ALWAYS_KEEP`` names (UTF-8/16/32, Latin-1, ASCII, the
  escapes, zip's cp437);
- and ``ALWAYS_KEEP`` (modules the runtime may need on paths no exercise reaches: the
  source lines of a traceback, warnings, copies and weak references);
- then closed under imports: every module kept is imported with the full library, and
  what that imports is kept by the same rule, until nothing new comes in; so every module
  shipped imports as it would with the whole library;
- less every ``__main__`` and ``NEVER_KEEP`` (modules of kept packages whose imports would
  pull in large parts of the library for what no page does), unless touched.

``python3 -m tools.build.stdlib prove`` runs the same exercise with the trimmed zip swapped
in and fails on any ImportError, if any module the full library's run imported is not
imported under the trimmed one (a silent fallback), or if any module the trimmed library
keeps imports differently from the full library's (a kept module needing a dropped one).
It prints the bytes before and after.

``trim_stdlib(src_zip, dest_zip, keep)`` writes the trimmed zip, deterministically (sorted
entries, fixed timestamps, DEFLATE at zlib's level 9).

``compile_stdlib(pyodide, src_zip, dest_zip)`` then turns its sources into bytecode with the
runtime's own Python (``compile_stdlib.mjs`` under Node.js): the page imports the library
without compiling it, which is most of Python's start-up in the browser (under Node.js,
loadPyodide() takes 0.75 s instead of 2.15 s). The bytecode leaves out docstrings, asserts
and column positions (``-OO``, PYTHONNODEBUGRANGES): the zip grows by a quarter instead of
doubling. The page never reads a docstring of the library.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

from . import micropip
from .exercise_node import DEFAULT_PYODIDE, ExerciseError, default_wheel, run_exercise
from .server import GZIP_LEVEL

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
KEEP_FILE = HERE / "stdlib_keep.txt"
COMPILE_SCRIPT = HERE / "compile_stdlib.mjs"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
# Packages kept module by module instead of whole.
SPLIT_PACKAGES = ("encodings",)
# The margin: modules kept whatever the measurement says (see the module's docstring).
ALWAYS_KEEP = (
    "encodings.aliases",
    "encodings.ascii",
    "encodings.charmap",
    "encodings.cp437",
    "encodings.latin_1",
    "encodings.raw_unicode_escape",
    "encodings.unicode_escape",
    "encodings.utf_16",
    "encodings.utf_16_be",
    "encodings.utf_16_le",
    "encodings.utf_32",
    "encodings.utf_32_be",
    "encodings.utf_32_le",
    "encodings.utf_8",
    "encodings.utf_8_sig",
    "linecache",
    "tokenize",
    "token",
    "traceback",
    "warnings",
    "_py_warnings",
    "textwrap",
    "weakref",
    "_weakrefset",
    "copy",
    "copyreg",
    "contextlib",
)
# Modules of packages kept whole that are dropped all the same (besides every __main__, a
# command-line entry point): each pulls in big parts of the library for what no page does
# (a process pool, a log file, URL opening, an interactive console, a command-line tool).
NEVER_KEEP = (
    "concurrent.futures.process",
    "logging.config",
    "logging.handlers",
    "pyodide.console",
    "json.tool",
    "urllib.request",
    "urllib.robotparser",
    "compression.gzip",
)
# What the exercise runs as: the worker's way today, micropip, and a memory image round trip.
SCENARIOS: tuple[tuple[str, ...], ...] = (
    ("--install", "unpack"),
    ("--install", "micropip"),
    ("--install", "unpack", "--memory-image"),
)


class StdlibError(Exception):
    pass


# ----- the keep list -------------------------------------------------------------------------


def load_keep(path: Path = KEEP_FILE) -> list[str]:
    """The entries of a keep file: one dotted module or package name a line (``-name``:
    drop it from a package kept whole); ``#`` starts a comment."""
    entries = []
    for line in path.read_text().splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            entries.append(entry)
    return entries


def write_keep(path: Path, entries: Iterable[str], note: str) -> None:
    lines = [
        "# The standard library the page ships: what tools/build/stdlib.py keeps of",
        "# Pyodide's python_stdlib.zip. One module or package (kept whole) a line;",
        "# -name drops that module of a package kept whole.",
        "# Made by `python3 -m tools.build.stdlib measure`; see stdlib.py for the rule.",
        *(f"# {line}" for line in note.splitlines()),
        "",
    ]
    path.write_text("\n".join(lines + sorted(set(entries))) + "\n")


def _selects(entry: str, member: str) -> bool:
    base = entry.replace(".", "/")
    return member == base + ".py" or member.startswith(base + "/")


def selected_members(names: Iterable[str], keep: Iterable[str]) -> list[str]:
    """The zip members ``keep`` selects, with the ``__init__.py`` of every package on the
    way to a kept submodule, less what its ``-name`` entries drop; raises StdlibError for an
    entry that selects nothing."""
    names = sorted(set(names))
    keep = sorted(set(keep))
    chosen: set[str] = set()
    dropped: set[str] = set()
    for entry in keep:
        drop = entry.startswith("-")
        entry = entry.removeprefix("-")
        found = [n for n in names if _selects(entry, n)]
        if not found:
            raise StdlibError(f"the keep list names {entry!r}, which the library lacks")
        (dropped if drop else chosen).update(found)
        parts = entry.split(".")
        for depth in range(1, len(parts)):
            init = "/".join(parts[:depth]) + "/__init__.py"
            if init in names and not drop:
                chosen.add(init)
    return sorted(chosen - dropped)


def trim_stdlib(src_zip: Path, dest_zip: Path, keep: Iterable[str]) -> list[str]:
    """Write to ``dest_zip`` the members of ``src_zip`` that ``keep`` selects (see
    :func:`selected_members`); returns their names. Directory entries go (zipimport needs
    none); each file keeps its compression method, DEFLATE recompressed at level 9."""
    with zipfile.ZipFile(src_zip) as source:
        infos = {info.filename: info for info in source.infolist()}
        files = [n for n in infos if not n.endswith("/")]
        members = selected_members(files, keep)
        dest_zip.parent.mkdir(parents=True, exist_ok=True)
        partial = dest_zip.with_name(f".{dest_zip.name}.{os.getpid()}.part")
        with zipfile.ZipFile(partial, "w") as out:
            for name in members:
                info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
                info.compress_type = infos[name].compress_type
                info.external_attr = 0o644 << 16
                info.create_system = 3
                out.writestr(info, source.read(name), compresslevel=9)
    os.replace(partial, dest_zip)
    return members


def compile_stdlib(pyodide: Path, src_zip: Path, dest_zip: Path, node: str = "node") -> None:
    """Write to ``dest_zip`` the library ``src_zip`` compiled by the runtime in ``pyodide``:
    each ``x.py`` becomes a sourceless ``x.pyc`` (unchecked hash-based, so the same sources
    always give the same zip), every other member is copied. Raises StdlibError if Node.js
    or the runtime fails."""
    command = [node, str(COMPILE_SCRIPT), "--pyodide", str(pyodide)]
    command += ["--src", str(src_zip), "--dest", str(dest_zip)]
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    except OSError as exc:
        raise StdlibError(f"compiling the standard library needs Node.js ({exc})") from exc
    if done.returncode != 0 or not dest_zip.is_file():
        raise StdlibError(f"compiling the standard library failed:\n{done.stderr[-4000:]}")


def derive_keep(modules: Iterable[str], reads: Iterable[str], names: Iterable[str]) -> list[str]:
    """The keep list for a run that imported ``modules`` and read the zip members ``reads``
    of a library whose members are ``names`` (the rule in the module's docstring)."""
    names = set(names)
    tops = {n.split("/")[0].removesuffix(".py") for n in names}
    packages = {n.split("/")[0] for n in names if "/" in n}
    touched = set(modules) | {
        r.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for r in reads
    }
    keep: set[str] = set()
    for module in touched:
        top = module.split(".")[0]
        if top not in tops:
            continue  # built in, compiled, or not from the library (the engine, micropip)
        if top in SPLIT_PACKAGES:
            if module == top:
                keep.add(f"{top}.__init__")  # the package itself, not all of it
            elif any(_selects(module, n) for n in names):
                keep.add(module)
        elif top in packages or any(_selects(top, n) for n in names):
            keep.add(top)
    keep.update(ALWAYS_KEEP)
    whole = {entry for entry in keep if entry in packages}
    for module in sorted(NEVER_KEEP) + sorted(
        n[: -len(".py")].replace("/", ".") for n in names if n.endswith("/__main__.py")
    ):
        if module.split(".")[0] in whole and module not in touched:
            keep.add(f"-{module}")
    return sorted(keep)


# ----- running the exercise ------------------------------------------------------------------


def sizes(path: Path) -> tuple[int, int]:
    """(bytes, gzipped bytes) of a file as a static host would send it."""
    data = path.read_bytes()
    return len(data), len(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0))


def _zip_names(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as archive:
        return [n for n in archive.namelist() if not n.endswith("/")]


def measure(
    pyodide: Path, wheel: Path, micropip_wheel: Path, work: Path, **kwargs
) -> tuple[list[str], list[dict]]:
    """The keep list the exercise calls for, and the reports it came from. The rule's
    whole packages are then closed under what importing them imports: every module they
    keep is imported with the full library (``work`` holds the list), until nothing new
    comes in."""
    reports = [run_exercise(pyodide, wheel, micropip_wheel, s, **kwargs) for s in SCENARIOS]
    modules = set().union(*(r["modules"] for r in reports))
    reads = set().union(*(r["reads"] for r in reports))
    names = _zip_names(pyodide / "python_stdlib.zip")
    keep = derive_keep(modules, reads, names)
    trial = work / "modules.json"
    while True:
        trial.write_text(json.dumps(module_names(selected_members(names, keep))))
        closure = run_exercise(
            pyodide,
            wheel,
            micropip_wheel,
            ("--install", "unpack", "--no-exercise"),
            try_imports=trial,
        )
        reports.append(closure)
        modules |= set(closure["modules_after_imports"])
        wider = derive_keep(modules, reads, names)
        if wider == keep:
            return keep, reports
        keep = wider


def module_names(members: Iterable[str]) -> list[str]:
    """The importable modules among a library's zip members."""
    names = set()
    for member in members:
        if member.endswith(".py"):
            module = member[: -len(".py")].removesuffix("/__init__").replace("/", ".")
            if all(part.isidentifier() for part in module.split(".")):
                names.add(module)
    return sorted(names)


def prove(
    pyodide: Path, wheel: Path, micropip_wheel: Path, keep: Iterable[str], trimmed: Path, **kwargs
) -> list[dict]:
    """Trim into ``trimmed`` and run every scenario with it and with the full library;
    raises StdlibError if a run fails, imports less than with the full library, or if a
    module the trimmed library keeps does not import with it the way it does with the full
    one (a kept module that needs a dropped one)."""
    kept = trim_stdlib(pyodide / "python_stdlib.zip", trimmed, keep)
    names = trimmed.with_name(trimmed.name + ".modules.json")
    names.write_text(json.dumps(module_names(kept)))
    reports = []
    for scenario in SCENARIOS:
        full = run_exercise(pyodide, wheel, micropip_wheel, scenario, try_imports=names, **kwargs)
        cut = run_exercise(
            pyodide, wheel, micropip_wheel, scenario, stdlib=trimmed, try_imports=names, **kwargs
        )
        missing = sorted(set(full["modules"]) - set(cut["modules"]))
        if missing:
            raise StdlibError(
                f"with the trimmed library ({' '.join(scenario)}) these "
                f"modules were not imported: {', '.join(missing)}"
            )
        broken = {
            name: error
            for name, error in cut["import_errors"].items()
            if full["import_errors"].get(name) != error
        }
        if broken:
            raise StdlibError(
                "kept modules that do not import with the trimmed library: "
                + "; ".join(f"{k} ({v})" for k, v in sorted(broken.items()))
            )
        reports.append(cut)
    return reports


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m tools.build.stdlib", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("command", choices=("measure", "prove"))
    parser.add_argument("--pyodide", type=Path, default=DEFAULT_PYODIDE)
    parser.add_argument(
        "--wheel",
        type=Path,
        help="the engine wheel the page ships (default: the one in dist/wheels/)",
    )
    parser.add_argument(
        "--cache", type=Path, default=ROOT / ".cache", help="where the micropip wheel is kept"
    )
    parser.add_argument("--keep", type=Path, default=KEEP_FILE)
    args = parser.parse_args(argv)
    try:
        wheel = args.wheel or default_wheel()
        micropip_wheel = micropip.fetch_micropip(args.cache)
        source = args.pyodide / "python_stdlib.zip"
        if args.command == "measure":
            with tempfile.TemporaryDirectory() as tmp:
                keep, reports = measure(args.pyodide, wheel, micropip_wheel, Path(tmp))
            modules = set().union(*(r["modules"] for r in reports))
            write_keep(
                args.keep,
                keep,
                f"Measured: {len(modules)} modules imported in "
                f"{len(SCENARIOS)} runs of tools/build/exercise.mjs, closed under "
                f"imports in {len(reports) - len(SCENARIOS)} more.",
            )
            print(f"{args.keep}: {len(keep)} entries")
        else:
            with tempfile.TemporaryDirectory() as tmp:
                trimmed = Path(tmp) / "python_stdlib.zip"
                reports = prove(args.pyodide, wheel, micropip_wheel, load_keep(args.keep), trimmed)
                before, after = sizes(source), sizes(trimmed)
                kept = len(_zip_names(trimmed))
            for report in reports:
                print(
                    f"ok: {report['install']}{' + memory image' if report['memory_image'] else ''}"
                    f" with the trimmed library: {report['exercise']['matches']} matches, "
                    f"{report['exercise']['finished']} finished, timings {report['timings']}"
                )
            print(
                f"python_stdlib.zip: {before[0]} bytes ({before[1]} gzipped), "
                f"{len(_zip_names(source))} files -> {after[0]} bytes ({after[1]} gzipped), "
                f"{kept} files"
            )
    except (StdlibError, ExerciseError, micropip.MicropipError) as exc:
        print(f"stdlib: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""micropip, vendored: the wheel from PyPI, pinned and checked like the runtime.

``fetch_micropip(cache)`` returns the wheel, downloading it once with pip into ``cache``.
The runtime's pyodide-lock.json lists micropip 0.11.1 with the hash of Pyodide's own build
of it, which differs from PyPI's: the page loads our copy by URL, not by name, and checks
the import afterwards because ``loadPackage`` reports a failure without throwing:

    await pyodide.loadPackage(new URL("wheels/micropip-0.11.1-py3-none-any.whl", HERE).href);
    const micropip = pyodide.pyimport("micropip");  // throws if it did not load
    await micropip.install.callKwargs(wheelURL, { deps: false });
    micropip.destroy();

``python3 -m tools.build.micropip compare`` times that against unpacking the wheel
(``pyodide.unpackArchive``) under Node.js.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import sha256_file
from .exercise_node import DEFAULT_PYODIDE, ROOT, ExerciseError, default_wheel, run_exercise

MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
# sha256 of the wheel on PyPI (https://pypi.org/simple/micropip/): a changed download is
# refused. Not the hash in pyodide-lock.json, which is Pyodide's own build of the wheel.
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
# The Python of the runtime (pyodide-lock.json: "python": "3.14.2"), for pip's choice.
PYTHON_VERSION = "3.14"


class MicropipError(Exception):
    pass


def pip_download_command(dest: Path, python: str = sys.executable) -> list[str]:
    return [
        python,
        "-m",
        "pip",
        "download",
        f"micropip=={MICROPIP_VERSION}",
        "--no-deps",
        "--only-binary=:all:",
        "--python-version",
        PYTHON_VERSION,
        "--dest",
        str(dest),
        "--quiet",
    ]


def fetch_micropip(cache: Path, python: str = sys.executable) -> Path:
    """The pinned micropip wheel in ``cache`` (``cache/micropip-0.11.1-py3-none-any.whl``),
    downloaded with pip when missing or not the pinned file; raises MicropipError if pip
    fails or PyPI's file is not the pinned one."""
    target = cache / MICROPIP_WHEEL
    if target.is_file() and sha256_file(target) == MICROPIP_SHA256:
        return target
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
        done = subprocess.run(
            pip_download_command(Path(tmp), python),
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
        )
        got = Path(tmp) / MICROPIP_WHEEL
        if done.returncode != 0 or not got.is_file():
            raise MicropipError(
                f"pip download micropip=={MICROPIP_VERSION} failed:\n{done.stdout}{done.stderr}"
            )
        actual = sha256_file(got)
        if actual != MICROPIP_SHA256:
            raise MicropipError(
                f"{MICROPIP_WHEEL} has sha256 {actual}, expected {MICROPIP_SHA256}; refusing it"
            )
        partial = target.with_name(f".{target.name}.{os.getpid()}.part")
        shutil.copyfile(got, partial)
        os.replace(partial, target)
    return target


# ----- what installing with micropip costs ------------------------------------------------------

# The steps of each way to the engine, as exercise.mjs times them (ms).
UNPACK_STEPS = ("wheel_download", "wheel_install", "bridge_imported")
MICROPIP_STEPS = ("micropip_load", "micropip_import", "wheel_install", "bridge_imported")


def compare(
    pyodide: Path, wheel: Path, micropip_wheel: Path, runs: int = 5
) -> dict[str, list[dict[str, int]]]:
    """Start the runtime ``runs`` times each way, alternately, under Node.js: the wheel
    fetched and unpacked (``pyodide.unpackArchive``, the worker's way today) or installed
    with micropip (micropip loaded by URL, then ``micropip.install(url, deps=False)``), up to
    ``engine.bridge`` answering; the timings of each run, by way."""
    out: dict[str, list[dict[str, int]]] = {"unpack": [], "micropip": []}
    for _ in range(runs):
        for way in out:
            report = run_exercise(
                pyodide, wheel, micropip_wheel, ("--install", way, "--no-exercise")
            )
            out[way].append(report["timings"])
    return out


def _median(values: list[int]) -> float:
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m tools.build.micropip",
        description="Fetch the pinned micropip wheel, or time "
        "installing the engine with it against unpacking it.",
    )
    parser.add_argument("command", choices=("fetch", "compare"))
    parser.add_argument("--cache", type=Path, default=ROOT / ".cache")
    parser.add_argument("--pyodide", type=Path, default=DEFAULT_PYODIDE)
    parser.add_argument("--wheel", type=Path, help="the engine wheel (default: dist/wheels/)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        found = fetch_micropip(args.cache)
        if args.command == "fetch":
            print(found)
            return 0
        timings = compare(args.pyodide, args.wheel or default_wheel(), found, args.runs)
    except (MicropipError, ExerciseError) as exc:
        print(f"micropip: {exc}", file=sys.stderr)
        return 1
    for way, steps in (("unpack", UNPACK_STEPS), ("micropip", MICROPIP_STEPS)):
        runs = timings[way]
        parts = {step: _median([t[step] for t in runs]) for step in steps}
        total = _median([sum(t[step] for step in steps) for t in runs])
        start = _median([t["runtime_loaded"] for t in runs])
        print(
            f"{way}: wheel to engine.bridge answering {total:.0f} ms (median of {len(runs)}; "
            + ", ".join(f"{k} {v:.0f}" for k, v in parts.items())
            + f"), after loadPyodide {start:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

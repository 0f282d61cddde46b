"""build.py bench: builds dist/, then runs benchmarks/bench.py (start-up in Chromium, engine
speed in CPython) in the test environment."""

from __future__ import annotations

import subprocess

from . import ROOT
from .site import build
from .testing import ensure_chromium, ensure_venv


def run_bench(args: list[str]) -> int:
    python = ensure_venv()
    ensure_chromium()
    build()
    return subprocess.run(
        [str(python), str(ROOT / "benchmarks" / "bench.py"), *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    ).returncode

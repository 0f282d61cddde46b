"""The parts of build.py, one concern a module (standard library only):

- runtime: the pinned Pyodide runtime, fetched once into .cache/
- wheel: the engine wheel, and the smaller copy of it the page loads
- node: the pinned npm tools of tools/ (esbuild, ESLint), installed once into .cache/
- site: dist/, from web/, the runtime and the wheel
- server: the HTTP server of build.py serve and of the tests
- testing: .venv, Chromium, and the steps of build.py test
- bench: build.py bench

This module holds what they share: the repository's paths, messages and the error a step
raises when it cannot go on.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
WEB = ROOT / "web"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"
TOOLS = ROOT / "tools"


class BuildError(Exception):
    """A step cannot go on; build.py prints the message and exits with status 1."""


def say(message: str) -> None:
    print(f"[build] {message}", flush=True)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()

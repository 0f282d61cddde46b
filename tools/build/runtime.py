"""The Pyodide runtime: the five files of the pinned npm package the page needs, its standard
library trimmed to what the page uses (stdlib.py), and micropip (micropip.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from . import CACHE, BuildError, say, sha256_file
from .micropip import MicropipError, fetch_micropip
from .node import node
from .stdlib import COMPILE_SCRIPT, KEEP_FILE, StdlibError, compile_stdlib, load_keep, trim_stdlib

PYODIDE_VERSION = "314.0.7"
# sha256 of the npm tarball pyodide-314.0.7.tgz: a changed download is refused.
PYODIDE_TARBALL_SHA256 = "66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0"
# The only files of the package the page needs (the engine is pure Python, no packages).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


def fetch_pyodide() -> Path:
    """The directory holding the five pinned runtime files, downloading them once."""
    target = CACHE / f"pyodide-{PYODIDE_VERSION}"
    if all((target / name).is_file() for name in PYODIDE_FILES):
        return target
    CACHE.mkdir(exist_ok=True)
    tarball = CACHE / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.is_file() or sha256_file(tarball) != PYODIDE_TARBALL_SHA256:
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError(
                "npm is needed once to fetch the Pyodide runtime "
                f"(npm pack pyodide@{PYODIDE_VERSION}); install Node.js and npm"
            )
        say(f"fetching pyodide@{PYODIDE_VERSION} from the npm registry")
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            done = subprocess.run(
                [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent", "--pack-destination", tmp],
                cwd=tmp,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
            )
            packed = list(Path(tmp).glob("pyodide-*.tgz"))
            if done.returncode != 0 or len(packed) != 1:
                raise BuildError(
                    f"npm pack pyodide@{PYODIDE_VERSION} failed:\n{done.stdout}{done.stderr}"
                )
            os.replace(packed[0], tarball)
    actual = sha256_file(tarball)
    if actual != PYODIDE_TARBALL_SHA256:
        tarball.unlink()
        raise BuildError(
            f"pyodide-{PYODIDE_VERSION}.tgz has sha256 {actual}, "
            f"expected {PYODIDE_TARBALL_SHA256}; refusing it"
        )
    partial = Path(tempfile.mkdtemp(dir=CACHE))
    with tarfile.open(tarball, "r:gz") as archive:
        for name in PYODIDE_FILES:
            member = archive.getmember(f"package/{name}")
            source = archive.extractfile(member)
            if source is None:
                raise BuildError(f"{name} is not a file in the Pyodide package")
            with source, (partial / name).open("wb") as out:
                shutil.copyfileobj(source, out)
    shutil.rmtree(target, ignore_errors=True)
    os.replace(partial, target)
    return target


def trimmed_stdlib(runtime: Path) -> Path:
    """The runtime's python_stdlib.zip trimmed to tools/build/stdlib_keep.txt and compiled to
    bytecode by the runtime itself (stdlib.py), made once into .cache/ (keyed by the
    runtime's version, the keep list and the compiling script)."""
    key = sha256_file(KEEP_FILE)[:8] + sha256_file(COMPILE_SCRIPT)[:8]
    target = CACHE / f"stdlib-{PYODIDE_VERSION}-{key}" / "python_stdlib.zip"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    sources = target.with_name(f".sources.{os.getpid()}.zip")
    partial = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        trim_stdlib(runtime / "python_stdlib.zip", sources, load_keep())
        say("compiling the standard library to bytecode (once)")
        compile_stdlib(runtime, sources, partial, node=node())
    except StdlibError as exc:
        partial.unlink(missing_ok=True)
        raise BuildError(f"trimming the standard library: {exc}") from exc
    finally:
        sources.unlink(missing_ok=True)
    os.replace(partial, target)
    return target


def micropip_wheel() -> Path:
    """The pinned micropip wheel, downloaded once into .cache/ (see micropip.py)."""
    try:
        return fetch_micropip(CACHE)
    except MicropipError as exc:
        raise BuildError(str(exc)) from exc


def compiled_micropip(runtime: Path) -> Path:
    """The pinned micropip wheel compiled to bytecode by the runtime, as the standard library
    is (stdlib.compile_stdlib: each ``x.py`` a sourceless ``x.pyc``, every other member as it
    was), made once into .cache/ under the same file name. The page unpacks it into
    site-packages and imports micropip without compiling its sources: under Node.js on the
    loaded 2-core box 0.46-0.58 s instead of 1.2-3.3 s, for 38 kB more (153 kB)."""
    pinned = micropip_wheel()
    key = sha256_file(pinned)[:8] + sha256_file(COMPILE_SCRIPT)[:8]
    target = CACHE / f"micropip-compiled-{PYODIDE_VERSION}-{key}" / pinned.name
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        say("compiling micropip to bytecode (once)")
        compile_stdlib(runtime, pinned, partial, node=node())
    except StdlibError as exc:
        partial.unlink(missing_ok=True)
        raise BuildError(f"compiling micropip: {exc}") from exc
    os.replace(partial, target)
    return target

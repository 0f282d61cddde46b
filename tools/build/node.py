"""The pinned npm tools of tools/ (esbuild bundles and minifies, ESLint checks the page's
JavaScript), installed once per lockfile with `npm ci` into .cache/."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import CACHE, TOOLS, BuildError, say


def ensure_tools() -> Path:
    """node_modules/ with the pinned tools of tools/, installed once per lockfile."""
    manifest, lock = TOOLS / "package.json", TOOLS / "package-lock.json"
    key = hashlib.sha256(manifest.read_bytes() + b"\0" + lock.read_bytes()).hexdigest()[:16]
    target = CACHE / f"tools-{key}"
    stamp = target / ".installed"
    if stamp.is_file():
        return target / "node_modules"
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError(
            "npm is needed once to install the build tools (npm ci in tools/); "
            "install Node.js and npm, or build with --no-minify"
        )
    say("installing the build tools (npm ci, tools/package-lock.json)")
    CACHE.mkdir(exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=".tools-", dir=CACHE))
    try:
        shutil.copy2(manifest, partial / manifest.name)
        shutil.copy2(lock, partial / lock.name)
        # --ignore-scripts: esbuild's install script only checks its binary, which comes in
        # a package of its own (@esbuild/<platform>), and the --version run below does too.
        done = subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=partial,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise BuildError(f"npm ci in tools/ failed:\n{done.stdout}{done.stderr}")
        (partial / ".installed").write_text(key + "\n")
        if target.exists() and not stamp.is_file():
            shutil.rmtree(target, ignore_errors=True)  # a broken earlier install
        try:
            os.replace(partial, target)
        except OSError:
            if not stamp.is_file():  # not another build that finished first: a real error
                raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    run_esbuild(target / "node_modules", ["--version"])
    return target / "node_modules"


def node() -> str:
    found = shutil.which("node")
    if found is None:
        raise BuildError(
            "node is needed to run the npm tools of tools/; install Node.js, or "
            "build with --no-minify"
        )
    return found


def run_esbuild(
    modules: Path, args: list[str], stdin: str | None = None, cwd: Path | None = None
) -> str:
    """Run the pinned esbuild with ``args`` (in ``cwd``); returns what it wrote to stdout."""
    launcher = modules / "esbuild" / "bin" / "esbuild"
    command = [str(launcher)]
    if launcher.read_bytes()[:2] == b"#!":  # the JavaScript launcher: run it with node
        command = [node(), str(launcher)]
    done = subprocess.run(
        command + args + ["--log-level=warning"],
        input=stdin,
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )
    if done.returncode != 0:
        raise BuildError(f"esbuild {' '.join(args)} failed:\n{done.stderr}")
    if done.stderr.strip():
        say(f"esbuild: {done.stderr.strip()}")
    return done.stdout


def eslint_command(modules: Path) -> list[str]:
    """The pinned ESLint over web/ with tools/eslint.config.mjs, run from the repository.

    The configuration imports its plugins as ES modules, which Node.js looks for next to the
    file (NODE_PATH does not apply), so a copy of it is put beside ``modules`` first.
    """
    config = modules.parent / "eslint.config.mjs"
    shutil.copy2(TOOLS / "eslint.config.mjs", config)
    return [node(), str(modules / "eslint" / "bin" / "eslint.js"), "--config", str(config), "web"]

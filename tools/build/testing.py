"""build.py test: .venv with the pinned test dependencies, Chromium for the browser tests,
and the steps of the test command.

    build.py test [ARGS]         ruff check, ruff format --check, mypy (engine/), ESLint (web/),
                                 then pytest over tests/ and e2e/ (dist/ is built in a
                                 thread while the .venv and the checks are seen to)
    build.py test --fast [ARGS]  ruff check, then the unit tests alone: no browser, no dist/

pytest runs in one worker per core and one more (pytest-xdist; PARLOUR_TEST_WORKERS=0 for one
process).

Every step runs even when one before it failed, and the summary names the steps that failed
with the command that fixes or shows the problem. ARGS go to pytest.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import ROOT, VENV, BuildError, say
from .node import ensure_tools, eslint_command
from .server import SiteServer, start_server
from .site import build

REQUIREMENTS = ROOT / "requirements-test.txt"

# Headless Chromium for the browser tests and benchmarks. Without the background-networking
# flags Chromium contacts other hosts by itself, which the tests forbid.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# The browser tests' Chromium adds what only a test run wants. Liftoff only: V8 runs the
# engine's WebAssembly with its baseline compiler alone, without recompiling the hot functions
# with its optimising one in the background. A test's page lives for seconds and its engine
# thinks at a test's budget, so that recompiling costs more processor time than it saves:
# e2e/test_coach.py took 45-54 s of processor time instead of 61 s, e2e/test_hardening.py 53 s
# instead of 62 s, e2e/test_thinking.py 14 s instead of 16 s (tables drawn and measured gain
# nothing). The benchmarks and pictures keep ``CHROMIUM_ARGS``: they measure what a visitor's
# browser does.
TEST_CHROMIUM_ARGS = [*CHROMIUM_ARGS, "--js-flags=--liftoff-only"]

# The unit tests of --fast: no browser (e2e/ is not collected) and no build of the site.
FAST_MARKERS = "not slow and not build"


def parallel_args() -> list[str]:
    """pytest-xdist's options: one worker per core and one more, at most 4 (a browser test's
    worker waits on its page for part of the time, so on two cores three workers finish the
    suite sooner than two); PARLOUR_TEST_WORKERS overrides, 0 runs in one process.
    ``loadgroup`` keeps together the tests that share a browser page or a build (see the two
    conftest.py files) and hands out the rest one at a time."""
    workers = os.environ.get("PARLOUR_TEST_WORKERS", str(min(4, (os.cpu_count() or 1) + 1)))
    return ["-n", workers, "--dist", "loadgroup"]


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv() -> Path:
    """.venv with the pinned test dependencies, reinstalled when the requirements change."""
    python = venv_python()
    if not python.exists():
        say("creating .venv")
        subprocess.run(
            [sys.executable, "-m", "venv", str(VENV)], check=True, stdin=subprocess.DEVNULL
        )
    wanted = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    stamp = VENV / ".requirements-sha256"
    if not stamp.is_file() or stamp.read_text().strip() != wanted:
        say(f"installing the test dependencies ({REQUIREMENTS.name})")
        done = subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "-r",
                str(REQUIREMENTS),
            ],
            stdin=subprocess.DEVNULL,
        )
        if done.returncode != 0:
            raise BuildError(f"could not install {REQUIREMENTS.name} into .venv")
        stamp.write_text(wanted + "\n")
    return python


# Debian's Chromium, headless shell first: the same Blink and V8 without the browser's own
# interface, which is what Playwright itself runs for headless Chromium. The full browser in
# headless mode keeps its address bar's pop-up (a web page of its own) in a renderer that
# works on every new tab: about a sixth of the CPU time of opening a page and starting the
# engine from its memory image, which the browser tests do over a hundred times.
HEADLESS_SHELL_PACKAGE = "chromium-headless-shell"
CHROMIUM_NAMES = (HEADLESS_SHELL_PACKAGE, "chromium", "chromium-browser")


def find_chromium() -> str | None:
    """$PARLOUR_CHROMIUM, else the first of ``CHROMIUM_NAMES`` on the PATH (None: Playwright's
    own browser)."""
    explicit = os.environ.get("PARLOUR_CHROMIUM")
    if explicit:
        return explicit
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return headless_shell_binary(found)
    return None


def headless_shell_binary(found: str) -> str:
    """Debian's /usr/bin/chromium-headless-shell is a shell script that runs the binary
    without exec: launch the binary itself, so that closing the browser ends it."""
    if Path(found).name != HEADLESS_SHELL_PACKAGE:
        return found
    binary = Path("/usr/lib/chromium") / HEADLESS_SHELL_PACKAGE
    return str(binary) if binary.is_file() else found


@contextmanager
def served_chromium(mounts: list[tuple[str, Path]]) -> Iterator[tuple[Any, str, SiteServer]]:
    """For the benchmarks: serve ``mounts`` (``start_server``) and launch headless Chromium as
    the browser tests do; yields the browser, the site's base URL and the server (to set its
    network profile), and closes them after."""
    from playwright.sync_api import sync_playwright

    server, base = start_server(mounts)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=find_chromium(), args=CHROMIUM_ARGS
            )
            try:
                yield browser, base, server
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()


def ensure_chromium() -> None:
    """Install Debian's Chromium headless shell when it is missing (Playwright's own download
    is not used); a full ``chromium`` already there does when the shell cannot be installed."""
    explicit = os.environ.get("PARLOUR_CHROMIUM")
    if explicit:
        if not Path(explicit).exists():
            raise BuildError(f"PARLOUR_CHROMIUM={explicit} does not exist")
        return
    if shutil.which(HEADLESS_SHELL_PACKAGE):
        return
    apt = shutil.which("apt-get")
    if apt is None:
        if find_chromium():
            return
        say(
            "no 'chromium' on PATH and no apt-get: the browser tests will use Playwright's "
            "own browser if it is installed (python -m playwright install chromium), or set "
            "PARLOUR_CHROMIUM=/path/to/chromium"
        )
        return
    try:
        install_chromium()
    except BuildError as problem:
        fallback = find_chromium()
        if not fallback:
            raise
        say(f"{problem}\nthe browser tests use {fallback} instead")


def install_chromium() -> None:
    """apt-get install Debian's Chromium headless shell."""
    prefix: list[str] = []
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        if shutil.which("sudo") is None:
            raise BuildError(
                f"Chromium is missing; install it with 'apt-get install {HEADLESS_SHELL_PACKAGE}' "
                "as root, or set PARLOUR_CHROMIUM=/path/to/chromium"
            )
        prefix = ["sudo", "-n"]
    say(f"installing Chromium's headless shell with apt-get (Debian's {HEADLESS_SHELL_PACKAGE})")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "--no-install-recommends", HEADLESS_SHELL_PACKAGE],
    ):
        done = subprocess.run(
            prefix + command, stdin=subprocess.DEVNULL, env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            raise BuildError(
                f"could not install Chromium: '{' '.join(prefix + command)}' "
                f"failed (exit {done.returncode}):\n{tail}\n"
                "Install Chromium yourself, or set PARLOUR_CHROMIUM to a "
                "Chromium/Chrome executable, then run the tests again."
            )
    if not shutil.which(HEADLESS_SHELL_PACKAGE):
        raise BuildError(
            f"apt-get installed {HEADLESS_SHELL_PACKAGE} but it is not on the PATH; "
            "set PARLOUR_CHROMIUM=/path/to/chromium"
        )


def shown(command: list[str]) -> str:
    """``command`` as one line, with the repository's paths relative to it."""
    root = str(ROOT) + os.sep
    return shlex.join(part.removeprefix(root) for part in command)


@dataclass(frozen=True)
class Step:
    """One step of the test command: a command run from the repository, and what to do when
    it fails."""

    name: str
    command: list[str]
    fix: str
    env: dict[str, str] = field(default_factory=dict)

    def run(self) -> bool:
        say(f"{self.name}: {shown(self.command)}")
        done = subprocess.run(
            self.command, cwd=ROOT, stdin=subprocess.DEVNULL, env={**os.environ, **self.env}
        )
        return done.returncode == 0


def lint_steps(python: Path, fast: bool) -> list[Step]:
    """ruff check; unless ``fast``, also ruff format --check, mypy and ESLint."""
    ruff = [str(python), "-m", "ruff"]
    steps = [
        Step(
            "lint (ruff check)",
            [*ruff, "check", "."],
            "run `.venv/bin/ruff check --fix .` and fix what is left by hand",
        )
    ]
    if fast:
        return steps
    eslint = eslint_command(ensure_tools())
    return steps + [
        Step(
            "format (ruff format --check)",
            [*ruff, "format", "--check", "--output-format=concise", "."],
            "run `.venv/bin/ruff format .` (`--diff` shows the changes first)",
        ),
        Step(
            "types (mypy, engine/)",
            [str(python), "-m", "mypy"],
            "fix the errors listed by `.venv/bin/mypy`",
        ),
        Step(
            "JavaScript lint (ESLint, web/)",
            eslint,
            f"run `{shown(eslint)} --fix` and fix what is left by hand",
        ),
    ]


def run_tests(pytest_args: list[str], fast: bool = False) -> int:
    """build.py test: the lint steps, then pytest; returns the exit status. Without ``fast``
    the site is built meanwhile, in a thread of its own: on a fresh clone the build (the
    library compiled in Node, the wheel, the bundle) and the .venv's pip install each keep one
    core busy for a quarter of a minute."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        if not fast:
            ensure_tools()  # once, before the build and ESLint both want it
        site = None if fast else pool.submit(build)
        python = ensure_venv()
        steps = lint_steps(python, fast)
        failed = [step for step in steps if not step.run()]
        if site is not None:
            ensure_chromium()
            site.result()  # the build's BuildError, if any, is raised here
    env = {"PYTHONDONTWRITEBYTECODE": "1"}
    if fast:
        pytest = [
            str(python),
            "-m",
            "pytest",
            "tests",
            "-m",
            FAST_MARKERS,
            *parallel_args(),
            *pytest_args,
        ]
    else:
        env["PARLOUR_DIST_READY"] = "1"  # e2e/ serves this dist/ rather than building one
        # testpaths: tests/ and e2e/
        pytest = [str(python), "-m", "pytest", *parallel_args(), *pytest_args]
    tests = Step("tests (pytest)", pytest, "see the failures pytest reports above", env)
    steps.append(tests)
    if not tests.run():
        failed.append(tests)
    for step in failed:
        say(f"FAILED {step.name}: {step.fix}")
    if not failed:
        say("passed: " + ", ".join(step.name for step in steps))
    return 1 if failed else 0

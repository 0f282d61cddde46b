#!/usr/bin/env python3
"""Build, serve, test and benchmark Parlour's static site.

    python3 build.py [build] [--no-minify]
                                     build dist/ (engine wheel + Pyodide runtime + web/,
                                     bundled and minified unless --no-minify)
    python3 build.py serve [--port 8000] [--host 127.0.0.1] [--no-minify]
                                     build, then serve dist/ over HTTP
    python3 build.py test [ARGS...]  lint and type checks (ruff check, ruff format --check,
                                     mypy, ESLint), then every test, unit and browser (sets
                                     up .venv and Chromium); ARGS go to pytest
    python3 build.py test --fast [ARGS...]
                                     ruff check and the unit tests alone (no browser, no
                                     dist/ build): pytest tests -m "not slow and not build"
    python3 build.py bench [ARGS...] start-up and engine benchmarks (prints figures);
                                     ARGS go to benchmarks/bench.py

Standard library only, so it runs with the system python3 on a fresh machine. What it
downloads (the pinned Pyodide npm package, the pinned npm tools of tools/package-lock.json,
the test dependencies) is cached in .cache/ and .venv/, so a rebuild with everything cached
takes seconds. The work is done by the modules of tools/build/, one concern each.
"""

from __future__ import annotations

import argparse
import sys

from tools.build import DIST, WEB, BuildError
from tools.build.bench import run_bench
from tools.build.server import CONTENT_SECURITY_POLICY, serve, start_server
from tools.build.site import build, dist_files
from tools.build.testing import (
    CHROMIUM_ARGS,
    TEST_CHROMIUM_ARGS,
    find_chromium,
    run_tests,
    served_chromium,
)

# What the browser tests (e2e/) and benchmarks/ use as build.<name>.
__all__ = [
    "CHROMIUM_ARGS",
    "CONTENT_SECURITY_POLICY",
    "DIST",
    "TEST_CHROMIUM_ARGS",
    "WEB",
    "build",
    "dist_files",
    "find_chromium",
    "main",
    "served_chromium",
    "start_server",
]


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="build.py", description=__doc__.splitlines()[0], allow_abbrev=False
    )
    no_minify = {
        "action": "store_true",
        "help": "copy web/ as it is (readable, for debugging) and ship the full wheel",
    }
    top.add_argument("--no-minify", **no_minify)
    commands = top.add_subparsers(dest="command")
    build_cmd = commands.add_parser("build", help="build dist/ (the default)")
    build_cmd.add_argument("--no-minify", **no_minify)
    serve_cmd = commands.add_parser("serve", help="build, then serve dist/")
    serve_cmd.add_argument("--port", type=int, default=8000)
    serve_cmd.add_argument("--host", default="127.0.0.1")
    serve_cmd.add_argument("--no-minify", **no_minify)
    # test and bench pass what they do not know on (to pytest, to benchmarks/bench.py), so
    # they take no -h of their own: `build.py test -h` is pytest's help.
    test_cmd = commands.add_parser(
        "test",
        add_help=False,
        allow_abbrev=False,
        help="lint and type checks, then all tests (extra arguments go to pytest)",
    )
    test_cmd.add_argument(
        "--fast",
        action="store_true",
        help="ruff check and the unit tests alone: no browser, no dist/",
    )
    commands.add_parser(
        "bench", add_help=False, help="benchmarks (extra arguments go to benchmarks/bench.py)"
    )
    return top


def main(argv: list[str]) -> int:
    command_line = parser()
    args, rest = command_line.parse_known_args(argv)
    try:
        if args.command == "test":
            return run_tests(rest, fast=args.fast)
        if args.command == "bench":
            return run_bench(rest)
        if rest:
            command_line.error(f"unrecognized arguments: {' '.join(rest)}")
        build(minify=not args.no_minify)
        if args.command == "serve":
            serve(DIST, args.host, args.port)
        return 0
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Running ``exercise.mjs``: the real Pyodide runtime under Node.js, the wheels it installs
served over HTTP by ``netserver``. Used by ``stdlib`` (the keep list and its proof) and
``micropip`` (the cost of installing with it)."""
from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable
from pathlib import Path

from . import netserver

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
EXERCISE = HERE / "exercise.mjs"
DEFAULT_PYODIDE = ROOT / ".cache" / "pyodide-314.0.7"


class ExerciseError(Exception):
    pass


def run_exercise(pyodide: Path, wheel: Path, micropip_wheel: Path, scenario: Iterable[str],
                 stdlib: Path | None = None, iterations: int = 4, steps: int = 10,
                 try_imports: Path | None = None, node: str = "node") -> dict:
    """Run ``exercise.mjs`` once with the options ``scenario`` (e.g. ``("--install",
    "micropip")``); returns its report: ``modules`` (name: origin), ``reads`` (files of the
    library's zip), ``timings`` (ms), ``exercise`` (what was played), ``fetched`` (URLs).
    With ``try_imports`` (a JSON list of module names), also ``import_errors``: those that
    did not import, with the error. Raises ExerciseError if the run fails or fetched
    anything the server does not serve."""
    scenario = tuple(scenario)
    server, base = netserver.start_server([("/engine/", wheel.parent),
                                           ("/micropip/", micropip_wheel.parent)])
    try:
        command = [node, str(EXERCISE), "--pyodide", str(pyodide), "--base", base,
                   "--wheel", f"engine/{wheel.name}",
                   "--micropip", f"micropip/{micropip_wheel.name}",
                   "--iterations", str(iterations), "--steps", str(steps), *scenario]
        if stdlib is not None:
            command += ["--stdlib", str(stdlib)]
        if try_imports is not None:
            command += ["--try-imports", str(try_imports)]
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True)
    finally:
        server.shutdown()
        server.server_close()
    if done.returncode != 0:
        raise ExerciseError(f"the exercise failed ({' '.join(scenario)}"
                            f"{', trimmed library' if stdlib else ''}):\n{done.stderr[-4000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if report["foreign"]:
        raise ExerciseError(f"the exercise fetched from elsewhere: {report['foreign']}")
    return report


def default_wheel() -> Path:
    """The engine wheel of the last build (dist/wheels/)."""
    found = sorted((ROOT / "dist" / "wheels").glob("parlour_engine-*.whl"))
    if len(found) != 1:
        raise ExerciseError("give --wheel (no single engine wheel in dist/wheels/: build first)")
    return found[0]

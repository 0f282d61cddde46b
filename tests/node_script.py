"""Running one of the page's modules under Node.js, for the tests of code that needs no page."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest


def run_script(module: Path, script: str, argument: str) -> Any:
    """Run ``script`` (its ``%s``: ``module``'s URL, to import) under Node.js with
    ``argument``; what it printed, parsed as JSON."""
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"needs Node.js to run {module.name}")
    done = subprocess.run(
        [node, "--input-type=module", "-e", script % json.dumps(module.as_uri()), argument],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)

"""The repository's benchmark scripts (``benchmarks/``, run by path, not packages) loaded as
modules, so that a test can call their functions."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def benchmark(relative: str) -> ModuleType:
    """``benchmark("web/engine_bench.py")``: that script, executed as a fresh module."""
    path = BENCHMARKS / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

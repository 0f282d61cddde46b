"""No import circle in engine/, type-only ones included.

Every import statement of an engine module counts: at module level, under
``if TYPE_CHECKING:``, and inside functions (an import deferred to call time still ties the
two modules together). The rules of a game are pure functions over plain data, the core
names no module of the bots, and each layer imports only the layers below it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_web_layers import find_cycle
from tools.build.wheel import import_base

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path, root: Path = ROOT) -> tuple[str, bool]:
    """A file's dotted module name, and whether it is a package's ``__init__``."""
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def imports_of(source: str, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``source`` imports, wherever the import statement stands.
    ``from a import b`` names ``a.b`` when that is a module, else ``a``."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = import_base(node, package)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in known else base)
    return {m for m in found if m in known and m != module}


def import_graph(root: Path = ROOT, package: str = "engine") -> dict[str, set[str]]:
    """Each module of ``package`` (a folder under ``root``) and the modules of it it imports."""
    files = {module_name(p, root): p for p in sorted((root / package).rglob("*.py"))}
    known = {name for name, _ in files}
    return {
        name: imports_of(path.read_text(encoding="utf-8"), name, is_package, known)
        for (name, is_package), path in files.items()
    }


def test_the_graph_reads_type_only_relative_and_deferred_imports(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pkg.a import thing\n")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from pkg.sub.b import B\n"
        "thing = 1\n"
    )
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("from .. import a\n\ndef f():\n    import pkg.sub\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.sub.b"},
        "pkg.sub": set(),
        "pkg.sub.b": {"pkg.a", "pkg.sub"},
    }
    assert find_cycle(graph) == ["pkg.a", "pkg.sub.b", "pkg.a"]


def test_no_import_circle_in_the_engine():
    graph = import_graph()
    assert "engine.core" in graph and "engine.games.roundup.rules" in graph
    assert find_cycle(graph) is None


def test_the_core_names_no_module_of_the_bots_or_the_games():
    graph = import_graph()
    assert graph["engine.core"] <= {"engine.cards"}, graph["engine.core"]


def test_a_games_rules_are_pure_functions_over_plain_data():
    """A game's ``rules.py`` imports only ``engine.cards`` and ``engine.core``: never its
    state, its bot or the bots (docs/engine.md)."""
    graph = import_graph()
    rules = [name for name in graph if name.startswith("engine.games.") and name.endswith(".rules")]
    assert rules
    for name in rules:
        assert graph[name] <= {"engine.cards", "engine.core"}, name

"""The page's lists of the bridge's endpoints are the bridge's: the worker's BRIDGE_METHODS
(web/worker.js, the calls it passes on to Python) is exactly the set of functions the
engine/bridge/ package serves (those decorated ``@endpoint``, each exported by the package),
and the engine client's
SLOW_METHODS (web/js/engine-client.js, the calls given the long watchdog) are among them and
include every endpoint that lets a bot think or replays a record."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def served() -> dict[str, ast.FunctionDef]:
    """engine/bridge/'s endpoints: name -> its definition."""
    found: dict[str, ast.FunctionDef] = {}
    for path in sorted((ROOT / "engine" / "bridge").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Name) and d.id == "endpoint" for d in node.decorator_list
            ):
                assert node.name not in found, f"two endpoints called {node.name}"
                found[node.name] = node
    return found


def js_set(path: str, name: str) -> set[str]:
    source = (ROOT / path).read_text(encoding="utf-8")
    found = re.search(rf"const {name} = new Set\(\[(.*?)\]\);", source, re.DOTALL)
    assert found, f"{path} defines {name} as a Set of names"
    return set(re.findall(r'"(\w+)"', found.group(1)))


def calls(node: ast.FunctionDef) -> set[str]:
    return {
        n.func.id
        for n in ast.walk(node)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }


def test_the_workers_methods_are_the_bridges_endpoints():
    endpoints = served()
    assert len(endpoints) > 10 and {"start", "act", "bot_move"} <= set(endpoints)
    assert js_set("web/worker.js", "BRIDGE_METHODS") == set(endpoints)
    from engine import bridge

    assert all(callable(getattr(bridge, name, None)) for name in endpoints)


def test_the_clients_slow_methods_are_endpoints_and_cover_the_thinking_ones():
    endpoints = served()
    slow = js_set("web/js/engine-client.js", "SLOW_METHODS")
    assert slow <= set(endpoints), slow - set(endpoints)
    thinking = {name for name, node in endpoints.items() if calls(node) & {"think", "replayed"}}
    assert thinking and thinking <= slow, thinking - slow


def test_the_pages_name_limit_is_the_bridges_and_written_once():
    from engine import bridge

    source = (ROOT / "web/js/read-snapshot.js").read_text(encoding="utf-8")
    found = re.search(r"export const MAX_NAME = (\d+);", source)
    assert found and int(found.group(1)) == bridge.MAX_NAME_CHARS
    for path in (ROOT / "web" / "js").rglob("*.js"):
        if "vendor" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        literal = re.search(
            rf"slice\(0, {bridge.MAX_NAME_CHARS}\)|maxlength: {bridge.MAX_NAME_CHARS}\b", text
        )
        assert not literal, f"{path.name} writes the name limit out instead of using MAX_NAME"

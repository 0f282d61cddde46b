"""The page's JavaScript modules import one way (no browser needed).

web/js/ has five layers, each importing only from the layers below it:

    app.js      wires everything together (the only module that knows the features), with
                app/ beside it: the page's own parts (its state, the match controller, its
                session with the engine, the table's sources)
    features/   what the person can do beyond playing: settings, replays, sharing, hints...
    games/      each game's layout on the table (features/ and games/ never import each other)
    ui/         drawing: the screens, the table frame, the cards, the DOM helpers
    the rest    web/js/*.js below them all: storage, the engine client, snapshot facts
    vendor/     libraries of others kept as published (qrcode-generator), importing nothing of ours

A module imports only from its own folder or a layer below, and no import circle exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parent.parent / "web" / "js"

# `import ... from "x"`, `import "x"`, `export ... from "x"` and `import("x")` with a literal.
IMPORT = re.compile(
    r"""(?:^|;)\s*(?:import|export)\s+(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']"""
    r"""|\bimport\(\s*["']([^"']+)["']\s*\)""",
    re.MULTILINE,
)

LAYERS = {"app": 3, "features": 2, "games": 2, "ui": 1, "base": 0, "vendor": -1}


def layer_of(module: str) -> str:
    if module == "app.js":
        return "app"
    top = module.split("/", 1)[0]
    return top if "/" in module else "base"


def imports_of(text: str) -> list[str]:
    return [a or b for a, b in IMPORT.findall(text)]


def module_graph() -> dict[str, set[str]]:
    """Each module (path under web/js/) and the web/js modules it imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted([*JS.rglob("*.js"), *JS.rglob("*.mjs")]):
        name = path.relative_to(JS).as_posix()
        targets = set()
        for spec in imports_of(path.read_text(encoding="utf-8")):
            if not spec.startswith("."):
                continue
            target = (path.parent / spec).resolve()
            if target.is_relative_to(JS):
                targets.add(target.relative_to(JS).as_posix())
        graph[name] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as [a, b, ..., a], or None."""
    colour: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if colour.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if colour.get(nxt) is None:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        colour[node] = 2
        return None

    for node in sorted(graph):
        if colour.get(node) is None:
            found = visit(node)
            if found:
                return found
    return None


def test_the_import_parser_reads_every_form():
    text = (
        'import { a, b } from "./x.js";\n'
        "import * as y from '../y.js';\n"
        'import "./side.js";\n'
        'export { c } from "./c.js";\n'
        "const m = await import(`./games/${id}.js`);\n"
        'const g = await import("./games/generic.js");\n'
        "// import nothing from here\n"
    )
    assert imports_of(text) == ["./x.js", "../y.js", "./side.js", "./c.js", "./games/generic.js"]


def test_the_cycle_finder_finds_a_circle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


# Modules the build writes into the site, not in web/js/: js/catalog.js (tools/build/catalog.py).
BUILT = {"catalog.js"}


def test_every_import_names_an_existing_module():
    graph = module_graph()
    missing = sorted(
        f"{m} -> {t}" for m, ts in graph.items() for t in ts if t not in graph and t not in BUILT
    )
    assert not missing


def test_no_import_circle():
    assert find_cycle(module_graph()) is None


@pytest.mark.parametrize("module", sorted(module_graph()))
def test_imports_point_down_the_layers(module):
    mine = layer_of(module)
    for target in module_graph()[module]:
        theirs = layer_of(target)
        assert LAYERS[theirs] < LAYERS[mine] or theirs == mine, (
            f"{module} ({mine}) imports {target} ({theirs})"
        )


def test_ui_never_imports_features():
    graph = module_graph()
    wrong = sorted(
        f"{m} -> {t}"
        for m, ts in graph.items()
        for t in ts
        if layer_of(m) in ("ui", "games") and layer_of(t) == "features"
    )
    assert not wrong

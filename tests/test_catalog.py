"""js/catalog.js, the page's copy of the engine's game listing, agrees with the engine."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import bridge  # noqa: E402
from tools.build.catalog import CATALOG, catalog_source, write_catalog  # noqa: E402

MODULE = re.compile(r"\A(?://[^\n]*\n)*export default (\{.*\});\n\Z", re.DOTALL)


def module_data(text: str) -> dict:
    """The object an ``export default {...};`` module exports (it must be JSON)."""
    found = MODULE.match(text)
    assert found, "js/catalog.js must be comment lines and one `export default {...};`"
    return json.loads(found.group(1))


def test_the_catalog_is_the_bridges_game_listing():
    assert module_data(catalog_source()) == json.loads(bridge.games())


def test_the_catalog_lists_every_registered_game_with_its_options_and_the_levels():
    data = module_data(catalog_source())
    assert [g["id"] for g in data["games"]] == list(engine.GAMES)
    for game in data["games"]:
        spec = engine.GAMES[game["id"]]
        assert (game["title"], game["min_players"], game["max_players"]) == (
            spec.title,
            spec.min_players,
            spec.max_players,
        )
        assert {o["name"]: o["default"] for o in game["options"]} == {
            name: option.default for name, option in spec.options.items()
        }
        assert game["clarifications"] == list(spec.clarifications)
    assert data["levels"] == bridge.available_levels()
    assert "normal" in data["levels"]


def test_write_catalog_puts_the_module_where_the_page_imports_it(tmp_path):
    path = write_catalog(tmp_path)
    assert path == tmp_path / CATALOG == tmp_path / "js" / "catalog.js"
    assert path.read_text(encoding="utf-8") == catalog_source()
    app = (ROOT / "web" / "js" / "app.js").read_text(encoding="utf-8")
    assert re.search(r"""^import \w+ from "\./catalog\.js";$""", app, re.MULTILINE)


def test_the_source_tree_has_no_catalog_only_the_build_writes_it():
    tracked = subprocess.run(
        ["git", "ls-files", "web/js/catalog.js"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert tracked == ""
    ignored = subprocess.run(["git", "check-ignore", "-q", "web/js/catalog.js"], cwd=ROOT)
    assert ignored.returncode == 0, "web/js/catalog.js should be in .gitignore"

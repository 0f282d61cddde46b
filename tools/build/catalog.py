"""js/catalog.js: what the page needs from the engine before Python runs in the browser.

The menu, the set-up screens, the rules pages, statistics and settings show at first paint,
while the worker is still loading the runtime. They need the games (titles, player counts,
options with their labels, choices and defaults, house clarifications) and the bots' levels:
exactly what the bridge's game listing (``engine.bridge.games``) answers. The build writes
that answer into the site as an ES module, from the engine in this repository, so the page
and the engine have one source of truth (tests/test_catalog.py checks they agree).

With it goes ``ladder``: what the arena measured of each level, the figures of the ladder
table (``benchmarks/ladder.json``, written by the arena from its logs; see
``tools/ladder.py``). The set-up screen shows them, and only them: a level with no logged
run has no figure.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from . import ROOT

CATALOG = "js/catalog.js"
"""Where the module goes, relative to the site (and to the staging copy of web/)."""

HEADER = (
    "// Written by the build (tools/build/catalog.py) from engine.GAMES: the bridge's "
    "game listing, and the arena's figures (benchmarks/ladder.json).\n"
)


def catalog() -> dict[str, Any]:
    """The bridge's game listing, from the engine of this repository, and the ladder's
    figures (``ladder``)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from engine import bridge
    from tools import ladder

    reply = json.loads(bridge.games())
    if "error" in reply:
        raise RuntimeError(f"the engine did not list its games: {reply['error']['message']}")
    reply["ladder"] = ladder.figures(ladder.read_table(ladder.TABLE))
    return reply


def catalog_source() -> str:
    """The text of js/catalog.js: ``export default {games, levels, ladder};``."""
    data = json.dumps(catalog(), ensure_ascii=False, separators=(",", ":"))
    return f"{HEADER}export default {data};\n"


def write_catalog(web: Path) -> Path:
    """Write js/catalog.js into ``web`` (a copy of web/ or a built site); its path."""
    path = web / CATALOG
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(catalog_source(), encoding="utf-8")
    return path

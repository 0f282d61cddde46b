"""js/catalog.js, the page's copy of the engine's game listing, agrees with the engine: the
file the built site ships (dist/js/catalog.js), read back, not the build's computation run
again."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import bridge  # noqa: E402
from tools import ladder  # noqa: E402
from tools.build import DIST  # noqa: E402
from tools.build.catalog import CATALOG, catalog_source, write_catalog  # noqa: E402
from tools.build.site import build as build_site  # noqa: E402

MODULE = re.compile(r"\A(?://[^\n]*\n)*export default (\{.*\});\n\Z", re.DOTALL)


def module_data(text: str) -> dict:
    """The object an ``export default {...};`` module exports (it must be JSON)."""
    found = MODULE.match(text)
    assert found, "js/catalog.js must be comment lines and one `export default {...};`"
    return json.loads(found.group(1))


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """What the built site's js/catalog.js exports: build.py test's dist/ (built before the
    tests run), else a site built here."""
    dist = DIST
    if not os.environ.get("PARLOUR_DIST_READY"):
        dist = tmp_path_factory.mktemp("site") / "dist"
        build_site(dist, quiet=True)
    return module_data((dist / CATALOG).read_text(encoding="utf-8"))


@pytest.mark.build
def test_the_catalog_is_the_bridges_game_listing_and_the_ladder(shipped):
    data = dict(shipped)
    assert data.pop("ladder") == ladder.figures(ladder.read_table())
    assert data == json.loads(bridge.games())


@pytest.mark.build
def test_the_catalogs_figures_are_the_ladder_tables(shipped):
    """Every figure the page can show is a logged run of the table, with its numbers."""
    table = json.loads((ROOT / "benchmarks" / "ladder.json").read_text(encoding="utf-8"))
    shown = shipped["ladder"]
    assert len(shown) == len(table["runs"]) > 0
    for figure, run in zip(shown, table["runs"], strict=True):
        level = run["seats"][0]
        row = run["levels"][level]
        assert (figure["game"], figure["players"], figure["level"]) == (
            run["game"],
            run["players"],
            level,
        )
        assert figure["against"] == sorted(set(run["seats"]) - {level}, key=run["seats"].index)
        assert (figure["matches"], figure["rounds"], figure["par"]) == (
            run["matches"],
            run["rounds"],
            run["par"],
        )
        assert (figure["win_rate"], figure["ci"], figure["over_par"]) == (
            row["win_rate"],
            row["ci"],
            row["over_par"],
        )


def test_every_ladder_run_is_logged_and_describes_todays_bots():
    """A figure only where a logged run exists, of the bots the page plays today: each run
    of the table is the summary of its log, and the bots' settings the log recorded are
    today's (a bot changed since must be measured again before the page shows it)."""

    for run in ladder.read_table():
        log = ROOT / run["log"]
        assert log.exists(), run["log"]
        assert run in ladder.entries_from_log(log)
        assert run["command"].startswith(f"python -m engine arena {run['game']} ")
        assert run["matches"] > 0 and 0.0 <= run["levels"][run["seats"][0]]["win_rate"] <= 1.0
        assert ladder.describes_todays_bots(run), f"{run['log']}: its bots have changed since"


@pytest.mark.build
def test_the_catalog_lists_every_registered_game_with_its_options_and_the_levels(shipped):
    data = shipped
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
    # app.js imports it, as the one module the build keeps apart (tools/build/site.py), and hands
    # it to the page's state (js/app/page-state.js).
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


def test_the_ladder_table_the_docs_and_the_index_are_what_the_logs_give():
    """benchmarks/ladder.json, the tables of docs/bots.md and benchmarks/arena/INDEX.md are
    written from the arena's logs alone (``python tools/update_docs_ladder.py``): written
    again, each is the file as it stands."""
    from tools.update_docs_ladder import outputs

    for path, text in outputs().items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.relative_to(ROOT)} differs from what the arena's logs give: run "
            "python tools/update_docs_ladder.py"
        )


def test_the_ladders_runs_are_those_of_the_logs_and_no_other():
    """Every ladder run comes from a log in benchmarks/arena/, and every log there gives
    ladder runs: a log of former bots or of a screen belongs in tried/."""
    from tools.update_docs_ladder import ladder_logs

    logs = {e["log"] for e in ladder.read_table()}
    assert logs == {p.relative_to(ROOT).as_posix() for p in ladder_logs()}


def test_docs_cite_every_log_kept_in_tried_and_only_those():
    """benchmarks/arena/tried/ keeps the logs docs/bots.md cites (``{a,b}`` in a cited name
    stands for each of its choices, as in a shell), and every log it cites is there (kept
    gzipped: ``name.jsonl`` is cited, ``name.jsonl.gz`` kept)."""
    from tools.update_docs_ladder import DOCS, TRIED

    cited = set()
    for name in re.findall(r"`([\w.{},-]+\.jsonl)`", DOCS.read_text(encoding="utf-8")):
        cited.update(expand_braces(name))
    cited = {ladder.log_stem(name) for name in cited}
    kept = {ladder.log_stem(p) for p in TRIED.iterdir()}
    ladder_logs = {ladder.log_stem(e["log"]) for e in ladder.read_table()}
    assert kept - cited == set(), "logs in tried/ that docs/bots.md does not cite"
    assert cited - kept - ladder_logs == set(), "logs docs/bots.md cites that are not kept"


def expand_braces(name: str) -> list[str]:
    """``a{b,c}d{e,f}`` -> ``abde``, ``abdf``, ``acde``, ``acdf``.

    >>> expand_braces("x-{1,2}p-{a,b}.jsonl")
    ['x-1p-a.jsonl', 'x-1p-b.jsonl', 'x-2p-a.jsonl', 'x-2p-b.jsonl']
    """
    found = re.search(r"\{([^{}]*)\}", name)
    if not found:
        return [name]
    head, tail = name[: found.start()], name[found.end() :]
    return [
        out for choice in found.group(1).split(",") for out in expand_braces(head + choice + tail)
    ]

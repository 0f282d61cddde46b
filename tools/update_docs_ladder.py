"""Write everything the arena's logs give, from the logs alone (run it after recording or
moving arena runs; ``tests/test_catalog.py`` fails when a file differs from what it writes):

- ``benchmarks/ladder.json``, the ladder table the build ships to the set-up screen: every
  run of today's bots in ``benchmarks/arena/*.jsonl.gz`` (the arena's logs, kept gzipped);
- the ladder's steps and the goal against the plain search in ``docs/bots.md``, between its
  markers, as ``python tools/ladder.py --markdown`` prints them;
- ``benchmarks/arena/INDEX.md``: every run of the ladder, then every other log (the screens
  and former bots of ``benchmarks/arena/tried/``) with what its bots' recorded settings say
  that today's do not.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import bots  # noqa: E402
from tools import ladder as arena  # noqa: E402

ARENA = ROOT / "benchmarks" / "arena"
TRIED = ARENA / "tried"
INDEX = ARENA / "INDEX.md"
DOCS = ROOT / "docs" / "bots.md"
START = "<!-- ladder: python tools/ladder.py --markdown (its steps and the plain search) -->\n"
END = "<!-- end of ladder -->"
SETTINGS_START = "<!-- settings: python tools/update_docs_ladder.py, from the bots' settings -->\n"
SETTINGS_END = "<!-- end of settings -->"
DOC_PARTS = ("steps", "plain")
"""The tables of the ladder's Markdown that docs/bots.md shows (INDEX.md shows every run)."""


def ladder_logs() -> list[Path]:
    """The logs of the ladder's runs: the arena's folder, not its ``tried/``."""
    return logs_in(ARENA)


def tried_logs() -> list[Path]:
    return logs_in(TRIED)


def logs_in(folder: Path) -> list[Path]:
    """The arena logs of ``folder``, plain (``.jsonl``) or gzipped (``.jsonl.gz``)."""
    return sorted([*folder.glob("*.jsonl"), *folder.glob("*.jsonl.gz")])


def block(text: str, start: str = START, end: str = END) -> tuple[str, str, str]:
    """``text`` before the table between ``start`` and ``end``, the table, and the text after."""
    head, rest = text.split(start, 1)
    table, tail = rest.split(end, 1)
    return head + start, table, end + tail


def _rollouts(search: dict[str, Any]) -> str:
    steps = search["max_rollout_steps"]
    if steps == 0:
        return "none: the position's value at the leaf"
    policy = search.get("rollout_policy") or search["rollout"]
    turns = search["evaluator"].get("turns")
    if turns:
        return f"{policy}, {turns} turns, then the evaluator"
    return f"{policy}, to the round's end"


def _evaluator(search: dict[str, Any]) -> str:
    evaluator = search["evaluator"]
    if evaluator["type"] != "Evaluator":
        return f"`{evaluator['type']}`"
    rank = evaluator["rank_weight"]
    text = f"rank {rank:g}, margin {1 - rank:g} (scale {evaluator['scale']:g})"
    if search["max_rollout_steps"] == 0 and evaluator["heuristic"]:
        text += f" from `{evaluator['heuristic']}` at the leaf"
    return text


def _trust(search: dict[str, Any]) -> str:
    trust = search["greedy_trust"]
    if trust is None:
        return "never kept"
    spread = "" if search["trust_spread"] is not None else " (of the sample's own spread)"
    return f"{trust:g} standard error{'' if trust == 1 else 's'}{spread}"


def settings_markdown() -> str:
    """Hard's and Expert's settings at every game and table size, as the bots report them
    (``Bot.settings``, what an arena log records)."""
    lines = [
        "| game | players | Hard / Expert iterations | search | rollouts | exploration "
        "| greedy move kept unless beaten by | evaluator |",
        "|---|--:|--:|---|---|--:|---|---|",
    ]
    for game_id, spec in engine.GAMES.items():
        for players in spec.player_counts():
            hard = bots.make("hard").settings(game_id, players)
            expert = bots.make("expert").settings(game_id, players)
            search = hard["search"]
            lines.append(
                f"| {spec.title} | {players} | {hard['iterations']:,} / {expert['iterations']:,} "
                f"| {'paired' if search['paired'] else 'tree'} | {_rollouts(search)} "
                f"| {search['exploration']:g} "
                f"| {_trust(search)} | {_evaluator(search)} |"
            )
    return "\n".join(lines) + "\n"


def _flat(settings: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in settings.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


def _short(value: Any, width: int = 40) -> str:
    text = json.dumps(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def differences(entry: dict[str, Any]) -> str:
    """The settings a log recorded that today's bots at its game and size do not have, as
    ``level key=value`` (search settings without their ``search.`` prefix)."""
    found = []
    for level, recorded in entry["bots"].items():
        today = _flat(
            json.loads(json.dumps(bots.make(level).settings(entry["game"], entry["players"])))
        )
        for key, value in _flat(recorded).items():
            if key not in today or today[key] != value:
                found.append(f"{level} {key.removeprefix('search.')}={_short(value)}")
    return "; ".join(found) or "none (the log's name says what the screen changed)"


def index_text(ladder: list[dict[str, Any]]) -> str:
    """benchmarks/arena/INDEX.md: the ladder's runs, then every other log."""
    lines = [
        "# Arena logs",
        "",
        "Written by `python tools/update_docs_ladder.py` from the logs in this folder (do not",
        "edit: a test fails when it differs). `docs/bots.md` says how runs are measured and read,",
        "and what each screen was for. Each log resumes, or is read back, with the arena's command",
        "(`benchmarks/ladder.json` keeps it for the ladder's runs). Win rates share ties; margins",
        "over par are points a match (a round, with one round a match), ± one standard error;",
        "decision times are the run's own wall clock on a shared machine.",
        "",
        f"## The ladder's runs ({len(ladder)}: `benchmarks/arena/*.jsonl.gz`)",
        "",
        arena.markdown(ladder, parts=("runs",)).rstrip("\n"),
        "",
        "## Every other log (`tried/`: screens, measurements and former bots)",
        "",
        "| log | game | players | line-up | matches | first seat's wins [95%] | over par "
        "| its recorded settings that today's bots do not have |",
        "|---|---|--:|---|--:|---|---|---|",
    ]
    in_ladder = {entry["log"] for entry in ladder}
    titles = {game_id: spec.title for game_id, spec in engine.GAMES.items()}
    for log in [*ladder_logs(), *tried_logs()]:
        name = log.relative_to(ARENA).as_posix()
        try:
            entries = arena.entries_from_log(log)
        except (KeyError, ValueError):
            lines.append(f"| {name} | | | | | | | not an arena log (see docs/bots.md) |")
            continue
        for entry in entries:
            if entry["log"] in in_ladder and arena.describes_todays_bots(entry):
                continue
            row = entry["levels"][entry["seats"][0]]
            over = row["over_par"]
            par = f"{over['mean']:+.2f} ± {over['error']:.2f} ({entry['par']})" if over else ""
            lines.append(
                f"| {name} | {titles.get(entry['game'], entry['game'])} | {entry['players']} "
                f"| {arena.lineup_text(entry)} | {entry['matches']} "
                f"| {row['win_rate']:.3f} [{row['ci'][0]:.3f}, {row['ci'][1]:.3f}] | {par} "
                f"| {differences(entry)} |"
            )
    return "\n".join(lines) + "\n"


def outputs() -> dict[Path, str]:
    """Every file this script writes, with the text it writes there."""
    ladder = arena.table_from_logs(ladder_logs())
    head, _, tail = block(DOCS.read_text(encoding="utf-8"), SETTINGS_START, SETTINGS_END)
    head, _, tail = block(head + settings_markdown() + tail)
    return {
        arena.TABLE: arena.table_json(ladder),
        DOCS: head + arena.markdown(ladder, parts=DOC_PARTS) + tail,
        INDEX: index_text(ladder),
    }


def main() -> int:
    for path, text in outputs().items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

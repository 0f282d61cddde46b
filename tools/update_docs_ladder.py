"""Write the ladder table (benchmarks/ladder.json) into docs/bots.md, and its steps into the
README, between their markers, as ``python -m engine ladder --markdown`` prints it. Run it
after recording arena runs."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bots import arena  # noqa: E402

START = "<!-- ladder: python -m engine ladder --markdown -->\n"
STEPS = "<!-- ladder steps: python -m engine ladder --markdown (its first table) -->\n"
END = "<!-- end of ladder -->"
PLACES = {"docs/bots.md": (START, True), "README.md": (STEPS, False)}
"""Where the table goes: file, its opening marker and whether every run is listed."""


def block(path: Path) -> tuple[str, str, str]:
    """The text of ``path`` before its table, the table, and the text after."""
    start, _ = PLACES[path.relative_to(ROOT).as_posix()]
    text = path.read_text(encoding="utf-8")
    head, rest = text.split(start, 1)
    table, tail = rest.split(END, 1)
    return head + start, table, END + tail


def main() -> int:
    entries = arena.read_table()
    for name, (_, runs) in PLACES.items():
        path = ROOT / name
        head, _, tail = block(path)
        path.write_text(head + arena.markdown(entries, runs=runs) + tail, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

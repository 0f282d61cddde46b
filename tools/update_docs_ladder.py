"""Write the ladder table (benchmarks/ladder.json) into docs/bots.md, between its markers, as
``python -m engine ladder --markdown`` prints it. Run it after recording arena runs."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bots import arena  # noqa: E402

START = "<!-- ladder: python -m engine ladder --markdown -->\n"
END = "<!-- end of ladder -->"


def main() -> int:
    path = ROOT / "docs" / "bots.md"
    text = path.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    path.write_text(
        head + START + arena.markdown(arena.read_table()) + END + tail, encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What a move's snapshot carries from the engine to the page, with the log sent whole and
with only its new entries (``log_have``, web/js/held-logs.js).

    .venv/bin/python benchmarks/log_parts.py [--seed 5]

For each game at its default table, one whole match between computers at the Random level,
its every move asked for twice from the bridge in CPython (``bot_move``: once as a page that
holds no log, once as one that holds the log so far, the way the page asks): the bytes of
the JSON replies, in all and for the match's last tenth, and the time the bridge took to
write them. Prints figures only; nothing here asserts a size or a time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import engine  # noqa: E402
from engine import bridge  # noqa: E402
from tests.bridge_calls import PageCalls  # noqa: E402


def match(game: str, seed: int, parts: bool) -> tuple[list[int], float]:
    """The reply sizes of every move of one match, and the seconds the bridge took."""
    spec = engine.GAMES[game]
    seats = [{"type": "bot", "level": "random"}] * spec.default_players
    page = PageCalls()
    sizes = []
    spent = 0.0
    page("start", {"game": game, "seed": seed, "seats": seats})
    while bridge._session is not None and not bridge._session.state.is_over:
        have = {v: [g, len(e)] for v, (g, e) in page.logs.items()} if parts else {}
        started = time.perf_counter()
        text = bridge.bot_move(json.dumps({"log_have": have}))
        spent += time.perf_counter() - started
        sizes.append(len(text))
        reply = json.loads(text)
        assert "error" not in reply, reply
        page.merge(reply["snapshot"])
    return sizes, spent


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    print(
        f"{'game':<12} {'moves':>6}  {'whole log: kB':>14} {'last tenth':>11} {'ms':>7}"
        f"  {'new entries: kB':>16} {'last tenth':>11} {'ms':>7}"
    )
    for game in engine.GAMES:
        whole, whole_s = match(game, args.seed, parts=False)
        part, part_s = match(game, args.seed, parts=True)
        assert len(whole) == len(part)
        tail = max(1, len(whole) // 10)
        print(
            f"{game:<12} {len(whole):>6}  {sum(whole) / 1000:>14.0f} "
            f"{sum(whole[-tail:]) / tail / 1000:>9.1f}/m {whole_s * 1000:>7.0f}"
            f"  {sum(part) / 1000:>16.0f} {sum(part[-tail:]) / tail / 1000:>9.1f}/m"
            f" {part_s * 1000:>7.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

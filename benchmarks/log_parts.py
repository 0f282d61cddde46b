"""What a move's snapshot carries from the engine to the page, with the log sent whole and
with only its new entries (``log_have``, web/js/held-logs.js).

    .venv/bin/python benchmarks/log_parts.py [--seed 5] [--friend-seed 14]

For each game at its default table, one whole match between computers at the Random level,
its every move asked for twice from the bridge in CPython (``bot_move``: once as a page that
holds no log, once as one that holds the log so far, the way the page asks): the bytes of
the JSON replies, in all and for the match's last tenth, and the time the bridge took to
write them. Then what a friend's device is sent over a six-round Progression match, the
same two ways (web/js/held-logs.js sends it in parts over the data channel too). Prints
figures only; nothing here asserts a size or a time.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import engine  # noqa: E402
from engine import bridge  # noqa: E402
from tests.bridge_calls import PageCalls, call  # noqa: E402


def match(game: str, seed: int, parts: bool) -> tuple[list[int], float]:
    """The reply sizes of every move of one match, and the seconds the bridge took."""
    spec = engine.GAMES[game]
    seats = [{"type": "bot", "level": "random"}] * spec.default_players
    page = PageCalls()
    sizes = []
    spent = 0.0
    page("start", {"game": game, "seed": seed, "seats": seats})
    while bridge.DESK.session is not None and not bridge.DESK.session.state.is_over:
        have = page.have() if parts else {}
        started = time.perf_counter()
        text = bridge.bot_move(json.dumps({"log_have": have}))
        spent += time.perf_counter() - started
        sizes.append(len(text))
        reply = json.loads(text)
        assert "error" not in reply, reply
        page.merge(reply["snapshot"])
    return sizes, spent


def friend_match(seed: int) -> tuple[list[int], list[int]]:
    """A six-round Progression match (a friend, the host and a computer at Random, their moves
    chosen at random): the size of the friend's seat's view after each move, with its whole
    log and with only the entries the friend's page did not have."""
    page = PageCalls()
    seats = [{"type": "friend"}, {"type": "human"}, {"type": "bot", "level": "random"}]
    options = {"length": "six-rounds"}
    page("start", {"game": "progression", "seed": seed, "options": options, "seats": seats})
    page("seat_view", {"seat": 0})
    rng = random.Random(seed)
    whole, parts = [], []
    while bridge.DESK.session is not None and bridge.DESK.session.state.current_player is not None:
        held = {"log_have": {"0": page.have()["0"]}}
        seat = bridge.DESK.session.state.current_player
        if seat == 2:
            call("bot_move")
        elif seat == 1:
            call("act", {"action": rng.choice(call("snapshot")["legal"])["id"]})
        else:
            legal = call("seat_view", {"seat": 0})["legal"]
            call("act", {"action": rng.choice(legal)["id"], "seat": 0})
        whole.append(len(json.dumps(call("seat_view", {"seat": 0}))))
        parts.append(len(json.dumps(call("seat_view", {"seat": 0, **held}))))
        page("seat_view", {"seat": 0})
    return whole, parts


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--friend-seed", type=int, default=14)
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
    whole, parts = friend_match(args.friend_seed)
    tail = max(1, len(whole) // 10)
    print(
        f"\na friend's seat, six-round Progression (seed {args.friend_seed}), {len(whole)} moves:"
    )
    for name, sizes in (("whole log", whole), ("new entries", parts)):
        print(
            f"  {name:<12} mean {sum(sizes) / len(sizes) / 1000:5.1f} kB, "
            f"most {max(sizes) / 1000:5.1f} kB, "
            f"last tenth {sum(sizes[-tail:]) / tail / 1000:5.1f} kB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

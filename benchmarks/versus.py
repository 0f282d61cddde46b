"""Two engine checkouts' Hard decisions side by side: processor time and the same choices.

    .venv/bin/python benchmarks/versus.py GAME --base /path/to/old/checkout [--new PATH]
        [--players N] [--seed S] [--decisions K] [--rounds R] [--repeat N] [--level hard]

Each checkout runs in a subprocess of its own whose working directory is that checkout, so
``import engine`` there is that checkout's engine (``--new`` defaults to the checkout this
file is in). Normal plays ``GAME`` at every seat from ``--seed`` (then ``seed + 1``, ... for
``--rounds`` more rounds) as :mod:`benchmarks.search_cost` does; the first ``--decisions``
positions with more than one legal move are the positions timed. Each side rebuilds every
position from the same seed and action ids, and both sides' Normal play is checked to reach
the same positions. At each position the level (``bots.make(level, safety_clock=False)``:
its default iterations, no clock) chooses with the same rng on both sides, base first at even
positions and new first at odd ones, ``--repeat`` times each (the least processor time,
``time.process_time``, counts). Prints every position's times and ratio, whether the two
chose the same action and whether the root's visits, mean values, iterations and rollout
steps agree (a digest of them), then each side's median and mean and their ratio.

Works against older checkouts: a worker needs only ``engine.new_game``, ``State.apply`` of
an action id, ``engine.bots.make`` and ``engine.bots.ismcts.Search`` with ``visits()``,
``values()`` and ``best()``. The exit status is 1 when any choice or digest differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


# ----- the worker (runs inside a checkout) --------------------------------------------------
def _worker() -> int:
    """Answer one JSON request a line on stdin with one JSON line on stdout."""
    sys.path.insert(0, os.getcwd())
    import random
    import time

    import engine
    from engine import bots
    from engine.bots import ismcts

    where = Path(engine.__file__).resolve()
    if Path(os.getcwd()).resolve() not in where.parents:
        raise SystemExit(f"imported {where}, not the checkout in {os.getcwd()}")

    searches: list[Any] = []
    best = ismcts.Search.best

    def kept_best(self: Any) -> Any:
        searches.append(self)
        return best(self)

    ismcts.Search.best = kept_best  # type: ignore[method-assign]
    made: dict[str, Any] = {}

    def rebuild(req: dict[str, Any], round_: int, path: list[str]) -> Any:
        state = engine.new_game(req["game"], players=req["players"], seed=req["seed"] + round_)
        for action_id in path:
            state.apply(action_id)
        return state

    out = sys.stdout
    for line in sys.stdin:
        req = json.loads(line)
        if req["cmd"] == "positions":
            normal = bots.make("normal")
            found: list[tuple[int, list[str]]] = []
            for r in range(req["rounds"]):
                if len(found) >= req["decisions"]:
                    break
                seed = req["seed"] + r
                state = engine.new_game(req["game"], players=req["players"], seed=seed)
                rng = random.Random(seed)
                path: list[str] = []
                while not state.is_over and not state.result()["rounds"]:
                    seat = state.current_player
                    if len(state.legal_actions()) > 1:
                        found.append((r, list(path)))
                        if len(found) >= req["decisions"]:
                            break
                    action = normal.choose(state, seat, rng)
                    state.apply(action)
                    path.append(action.id)
            reply: Any = {"positions": found, "engine": str(where.parent)}
        elif req["cmd"] == "decide":
            level = req["level"]
            bot = made.get(level) or made.setdefault(level, bots.make(level, safety_clock=False))
            state = rebuild(req, req["round"], req["path"])
            seat = state.current_player
            times = []
            for _ in range(req["repeat"]):
                searches.clear()
                start = time.process_time()
                action = bot.choose(state, seat, random.Random(req["rng"]))
                times.append(time.process_time() - start)
            search = searches[-1] if searches else None
            root: Any = None
            if search is not None:
                visits = search.visits()
                values = search.values()
                root = {
                    "visits": visits,
                    "values": {k: repr(v) for k, v in values.items()},
                    "iterations": search.iterations,
                    "rollout_steps": getattr(search, "rollout_steps", None),
                }
            reply = {"action": action.id, "seconds": min(times), "runs": times, "root": root}
        else:
            reply = {"error": f"unknown request {req['cmd']!r}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


# ----- the parent ---------------------------------------------------------------------------
class Side:
    """One checkout's worker process."""

    def __init__(self, name: str, checkout: Path) -> None:
        self.name = name
        self.checkout = checkout
        python = HERE / ".venv" / "bin" / "python"
        self.proc = subprocess.Popen(
            [
                str(python if python.exists() else sys.executable),
                str(Path(__file__).resolve()),
                "--worker",
            ],
            cwd=checkout,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )

    def ask(self, **request: Any) -> Any:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"{self.name} ({self.checkout}): the worker stopped")
        reply = json.loads(line)
        if "error" in reply:
            raise SystemExit(f"{self.name}: {reply['error']}")
        return reply

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def digest(root: Any) -> str:
    """A short hash of the root's visits, values, iterations and rollout steps."""
    text = json.dumps(root, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def main(argv: list[str] | None = None) -> int:
    if argv is None and sys.argv[1:] == ["--worker"]:
        return _worker()
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("game")
    p.add_argument("--base", required=True, type=Path, help="the checkout to compare against")
    p.add_argument("--new", type=Path, default=HERE, help="the checkout measured (this one)")
    p.add_argument("--players", type=int)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--decisions", type=int, default=4)
    p.add_argument("--rounds", type=int, default=3, help="rounds to look for positions in")
    p.add_argument("--repeat", type=int, default=1, help="runs a side a position (least)")
    p.add_argument("--level", default="hard")
    args = p.parse_args(argv)

    base, new = Side("base", args.base.resolve()), Side("new", args.new.resolve())
    try:
        players = args.players
        if players is None:
            sys.path.insert(0, str(args.new.resolve()))
            import engine

            players = engine.GAMES[args.game].default_players
        want = dict(
            game=args.game,
            players=players,
            seed=args.seed,
            decisions=args.decisions,
            rounds=args.rounds,
        )
        found = {side.name: side.ask(cmd="positions", **want) for side in (base, new)}
        positions = found["new"]["positions"]
        same_positions = found["base"]["positions"] == positions
        load = os.getloadavg()
        print(
            f"{args.game}, {players} players, seed {args.seed}: {len(positions)} positions, "
            f"level {args.level}, {args.repeat} run(s) a side; load {load[0]:.2f}"
        )
        print(f"  base {found['base']['engine']}\n  new  {found['new']['engine']}")
        if not same_positions:
            print("  Normal play differs between the checkouts: positions are the new one's")
        print(f"{'#':>3} {'base ms':>9} {'new ms':>9} {'ratio':>6}  action  root")
        spent: dict[str, list[float]] = {"base": [], "new": []}
        differ = 0
        for i, (round_, path) in enumerate(positions):
            order = (base, new) if i % 2 == 0 else (new, base)
            replies = {}
            for side in order:
                replies[side.name] = side.ask(
                    cmd="decide",
                    game=args.game,
                    players=players,
                    seed=args.seed,
                    round=round_,
                    path=path,
                    rng=1000 * args.seed + i,
                    repeat=args.repeat,
                    level=args.level,
                )
            b, n = replies["base"], replies["new"]
            spent["base"].append(b["seconds"])
            spent["new"].append(n["seconds"])
            same_action = b["action"] == n["action"]
            same_root = digest(b["root"]) == digest(n["root"])
            differ += not (same_action and same_root)
            print(
                f"{i:>3} {b['seconds'] * 1000:9.0f} {n['seconds'] * 1000:9.0f} "
                f"{n['seconds'] / b['seconds']:6.3f}  {'same' if same_action else 'DIFF':>6}  "
                + (
                    f"same {digest(n['root'])}"
                    if same_root
                    else f"DIFF {digest(b['root'])} / {digest(n['root'])}"
                )
            )
            if not same_action:
                print(f"      base chose {b['action']!r}, new chose {n['action']!r}")
        if not positions:
            print("no positions with a choice")
            return 1
        mb, mn = statistics.median(spent["base"]), statistics.median(spent["new"])
        ab, an = statistics.mean(spent["base"]), statistics.mean(spent["new"])
        load = os.getloadavg()
        print(f"median ms: base {mb * 1000:.0f}, new {mn * 1000:.0f}, new / base {mn / mb:.3f}")
        print(f"mean ms:   base {ab * 1000:.0f}, new {an * 1000:.0f}, new / base {an / ab:.3f}")
        print(
            f"choices and root digests: {'all the same' if not differ else f'{differ} differ'}"
            f" (load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})"
        )
        return 1 if differ or not same_positions else 0
    finally:
        base.close()
        new.close()


if __name__ == "__main__":
    raise SystemExit(main())

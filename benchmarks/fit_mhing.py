"""Fit the weights of General Mhing's search evaluator (``engine.bots.evaluation``).

Plays ``--matches`` two-seat matches of the greedy policy against itself (game seeds 20000
onwards), takes about half of the turn starts (a draw to come), and records each seat's
facts (:func:`mhing_world_facts`) with who won that round. A logistic model of "seat 0 wins
the round" on the difference of the two seats' :func:`mhing_features` (so the model is the
same from either seat) is fitted by Newton's method with a small ridge, on four rows in
five; the fifth row is held out for the log loss. Prints the weights in the order of
``MHING_FEATURES``, ready to paste as ``MHING_WEIGHTS``, and the held-out log losses of the
model, of a coin, and of sequences and points alone.

    python3 benchmarks/fit_mhing.py [--matches 3100]

Pure Python (a few minutes): nothing to install.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import engine  # noqa: E402
from engine.bots.evaluation import MHING_FEATURES, mhing_features, mhing_world_facts  # noqa: E402

Row = tuple[list[float], float]


def rows_of_match(m: int) -> list[Row]:
    state = engine.new_game("mhing", players=2, seed=20000 + m)
    greedy = engine.GAMES["mhing"].greedy
    rng = random.Random(m)
    pending: list[list[float]] = []
    out: list[Row] = []
    round_no = state.round_no

    def settle() -> None:
        winners = state.rounds[-1]["winners"]  # type: ignore[attr-defined]
        y = 1.0 if winners == [0] else 0.0 if winners == [1] else 0.5
        out.extend((x, y) for x in pending)
        pending.clear()

    while not state.is_over:
        if state.round_no != round_no:  # type: ignore[attr-defined]
            settle()
            round_no = state.round_no  # type: ignore[attr-defined]
        seat = state.current_player
        if state.phase == "draw" and rng.random() < 0.5:  # type: ignore[attr-defined]
            f0, f1 = mhing_world_facts(state)
            a = mhing_features(f0, f1, seat == 0)
            b = mhing_features(f1, f0, seat == 1)
            pending.append([u - v for u, v in zip(a, b)])
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else greedy(state.view(seat), legal, rng)
        state.apply(action)
    settle()
    return out


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


def fit(rows: list[Row], columns: list[int], ridge: float = 1e-3,
        rounds: int = 12) -> list[float]:
    k = len(columns)
    w = [0.0] * k
    for _ in range(rounds):
        grad = [ridge * wi for wi in w]
        hess = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in rows:
            xs = [x[c] for c in columns]
            p = sigmoid(sum(wi * xi for wi, xi in zip(w, xs)))
            g, h = p - y, p * (1.0 - p)
            for i in range(k):
                if xs[i]:
                    grad[i] += g * xs[i]
                    hi = h * xs[i]
                    row = hess[i]
                    for j in range(i, k):
                        row[j] += hi * xs[j]
        for i in range(k):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def log_loss(rows: list[Row], columns: list[int], w: list[float]) -> float:
    total = 0.0
    for x, y in rows:
        p = min(1 - 1e-9, max(1e-9, sigmoid(sum(wi * x[c] for wi, c in zip(w, columns)))))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3100)
    args = parser.parse_args()
    rows = [row for m in range(args.matches) for row in rows_of_match(m)]
    train = [r for i, r in enumerate(rows) if i % 5]
    test = [r for i, r in enumerate(rows) if not i % 5]
    every = list(range(len(MHING_FEATURES)))
    w = fit(train, every)
    print(f"{len(rows)} turn starts from {args.matches} matches")
    for name, wi in zip(MHING_FEATURES, w):
        print(f"  {name:28s} {wi:+.3f}")
    print("MHING_WEIGHTS = (" + ", ".join(f"{wi:.3f}" for wi in w) + ")")
    simple = [0, 1, 2, 3]  # sequences laid and points only
    print(f"held-out log loss: model {log_loss(test, every, w):.3f}, "
          f"coin {math.log(2):.3f}, sequences and points "
          f"{log_loss(test, simple, fit(train, simple)):.3f}")


if __name__ == "__main__":
    main()

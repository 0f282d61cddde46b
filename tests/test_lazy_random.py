"""``LazyRandom``: seeded on first use, it draws exactly what ``random.Random(seed)`` does."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from engine.core import LazyRandom

USES = {
    "random": lambda r: [r.random() for _ in range(5)],
    "randrange": lambda r: [r.randrange(7) for _ in range(5)],
    "shuffle": lambda r: r.sample(range(30), 30),
    "gauss": lambda r: [r.gauss(0, 1) for _ in range(3)],
    "getstate": lambda r: r.getstate(),
    "getrandbits": lambda r: [r.getrandbits(64) for _ in range(3)],
    "choice": lambda r: [r.choice("abcdef") for _ in range(5)],
    "deepcopy": lambda r: [copy.deepcopy(r).random(), r.random()],
    "pickle": lambda r: [pickle.loads(pickle.dumps(r)).random(), r.random()],
    "setstate": lambda r: (r.setstate(random.Random(3).getstate()), r.random()),
    "seed": lambda r: (r.seed(11), r.random()),
}


@pytest.mark.parametrize("use", sorted(USES))
@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 + 5])
def test_lazy_random_draws_what_random_draws(use, seed):
    lazy, plain = LazyRandom(seed), random.Random(seed)
    assert USES[use](lazy) == USES[use](plain)
    # Awake, it is a plain generator at the same point of the same sequence.
    assert type(lazy) is random.Random
    assert [lazy.random() for _ in range(3)] == [plain.random() for _ in range(3)]


def test_lazy_random_does_not_seed_before_use():
    lazy = LazyRandom(5)
    assert type(lazy) is LazyRandom
    lazy.random()
    assert type(lazy) is random.Random

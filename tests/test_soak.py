"""A short slice of the soak run, and its report of a failure with the seed to reproduce."""

from __future__ import annotations

import io

import pytest

import engine
from engine import __main__ as cli
from engine import checks


def test_soak_slice_covers_every_game_and_reports_counts():
    cases = cli.soak_cases()
    assert {game for game, _, _ in cases} == set(engine.GAMES)
    out = io.StringIO()
    # One quick match; the full sweep is the soak command's job, not the test suite's.
    assert cli.main(["soak", "--minutes", "0", "--seed", "11"], out=out) == 0
    last = out.getvalue().strip().splitlines()[-1]
    assert last.startswith("soak done: 1 matches, ") and last.endswith(" 0 failures")


def test_soak_reports_a_failure_with_its_seed(monkeypatch):
    def broken(game, players, options, seed, policy="random"):
        raise AssertionError("cards not conserved")

    monkeypatch.setattr(checks, "play_checked_match", broken)
    out = io.StringIO()
    assert cli.main(["soak", "--minutes", "0", "--seed", "42"], out=out) == 1
    text = out.getvalue()
    assert "FAIL" in text and "seed=42" in text and "cards not conserved" in text
    assert text.strip().endswith("1 failures")


@pytest.mark.slow
def test_greedy_matches_keep_every_invariant():
    for game, spec in engine.GAMES.items():
        checks.play_checked_match(game, spec.default_players, {}, seed=3, policy="greedy")

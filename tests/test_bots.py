"""The bots, on every registered game: they never peek, they are deterministic, they keep
to their budget, they leave the state alone, and the search beats random play."""

from __future__ import annotations

import json
import math
import random
import re
from dataclasses import replace

import pytest

import engine
from engine import bots
from engine.bots import analysis, ismcts
from engine.bots.arena import lineup, play_match, run_arena, wilson
from engine.bots.evaluation import Evaluator
from engine.bots.ismcts import Search, SearchConfig
from engine.checks import observable

GAMES = list(engine.GAMES)
SEARCH_ITERATIONS = 12
REFERENCE = "plain-12"
"""The arena's reference level, a plain ISMCTS, at a budget that keeps the suite fast."""
ARENA_LEVELS = (*bots.LEVELS, REFERENCE)


def make(level: str) -> bots.Bot:
    """Bots with small budgets so the suite stays fast."""
    if level in ("hard", "expert"):
        return bots.make(level, iterations=SEARCH_ITERATIONS)
    return bots.make(level)


def positions(game: str, players: int, seed: int, count: int = 3) -> list[engine.State]:
    """States taken along a seeded random match, each with a real choice to make."""
    state = engine.new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    found = []
    step = 0
    while not state.is_over and len(found) < count:
        legal = state.legal_actions()
        if len(legal) > 1 and step % 9 == 4:
            found.append(state.clone())
        state.apply(legal[rng.randrange(len(legal))])
        step += 1
    return found


def player_counts(game: str) -> list[int]:
    spec = engine.GAMES[game]
    return sorted({spec.min_players, spec.default_players, spec.max_players})


@pytest.mark.slow
@pytest.mark.parametrize("level", ARENA_LEVELS)
@pytest.mark.parametrize("game", GAMES)
def test_bots_never_peek(game, level):
    """The choice is the same in the true state and in any world the seat cannot tell
    apart from it: the bot reads nothing but what its seat knows."""
    bot = make(level)
    for players in player_counts(game):
        for state in positions(game, players, seed=11 + players, count=2):
            p = state.current_player
            for s, k in ((1, 100), (2, 200)):
                truth = bot.choose(state, p, random.Random(s)).id
                world = state.determinize(p, random.Random(k))
                assert bot.choose(world, p, random.Random(s)).id == truth, (
                    f"{level} in {game} ({players}p) chose differently in a re-dealt world"
                )


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_analysis_never_peeks(game):
    """The person's analysis (every move ranked, every figure) is the same in the true state
    and in a world that seat cannot tell apart from it, under the same rng."""
    for players in player_counts(game):
        for state in positions(game, players, seed=11 + players, count=2):
            p = state.current_player
            for s, k in ((1, 100), (2, 200)):
                truth = analysis.run(state, p, random.Random(s), SEARCH_ITERATIONS * 4)
                world = state.determinize(p, random.Random(k))
                assert analysis.run(world, p, random.Random(s), SEARCH_ITERATIONS * 4) == truth, (
                    f"the analysis in {game} ({players}p) differs in a re-dealt world"
                )


@pytest.mark.parametrize("level", ARENA_LEVELS)
@pytest.mark.parametrize("game", GAMES)
def test_bots_are_deterministic_legal_and_leave_the_state_alone(game, level):
    bot = make(level)
    for state in positions(game, engine.GAMES[game].default_players, seed=5):
        p = state.current_player
        before = observable(state)
        first = bot.choose(state, p, random.Random(9))
        second = bot.choose(state, p, random.Random(9))
        assert first.id == second.id
        assert first.id in {a.id for a in state.legal_actions()}
        assert observable(state) == before, "the bot changed the state it was shown"


def single_choice_position(game: str) -> engine.State:
    """A position of a random playout of ``game`` where the seat to move has one legal action."""
    for seed in range(3, 40):
        state = engine.new_game(game, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            if len(legal) == 1:
                return state
            state.apply(legal[rng.randrange(len(legal))])
    raise AssertionError(f"no playout of {game} reaches a position with one legal action")


@pytest.mark.parametrize("level", ARENA_LEVELS)
def test_a_single_legal_action_is_returned_at_once(level):
    for game in GAMES:  # every game has such positions: a failure here is a lost check
        state = single_choice_position(game)
        (only,) = state.legal_actions()
        bot = bots.make(level, iterations=10**9)  # would never finish if it searched
        assert bot.choose(state, state.current_player, random.Random(3)).id == only.id


def test_bots_refuse_to_move_for_the_wrong_seat():
    state = engine.new_game(GAMES[0], seed=1)
    other = (state.current_player + 1) % state.players
    for level in ARENA_LEVELS:
        with pytest.raises(ValueError):
            make(level).choose(state, other, random.Random(0))


def test_make_knows_every_level_and_the_alias():
    for level in bots.LEVELS:
        assert bots.make(level).level == level
    assert bots.make("greedy").level == "normal"
    with pytest.raises(ValueError):
        bots.make("grandmaster")


@pytest.mark.parametrize("game", GAMES)
def test_a_time_budget_is_kept(game, monkeypatch):
    """The search stops as soon as its clock says the budget is spent: with a clock that moves
    10 ms at each reading (one reading per iteration), 60 ms are 6 iterations."""
    readings = iter(range(10**6))
    monkeypatch.setattr(ismcts, "perf_counter", lambda: next(readings) * 0.010)
    state = positions(game, engine.GAMES[game].default_players, seed=2, count=1)[0]
    bot = bots.make("hard", time_ms=60)
    bot.choose(state, state.current_player, random.Random(1))
    assert bot.last["iterations"] == 6


def test_search_runs_in_chunks_and_reports_progress():
    game = GAMES[0]
    state = positions(game, engine.GAMES[game].default_players, seed=4, count=1)[0]
    p = state.current_player
    thinking = bots.make("hard", iterations=20).think(state, p, random.Random(5))
    fractions = []
    while True:
        try:
            fractions.append(next(thinking))
        except StopIteration as done:
            chosen = done.value
            break
    assert fractions and fractions[-1] == 1.0 and fractions == sorted(fractions)
    # The same search run in one go chooses the same.
    assert chosen.id == bots.make("hard", iterations=20).choose(state, p, random.Random(5)).id
    search = Search(state, p, random.Random(5), SearchConfig())
    assert search.step(7) == 7 and search.step(3) == 10
    assert sum(search.visits().values()) == 10


def test_evaluator_values_are_per_seat_and_in_range():
    ev = Evaluator(rank_weight=0.5, scale=3.0)
    for gains in ([0, 0], [5, 1], [3, 0, -2], [1, 1, 1, 4], [0, 2, 2, 2, 9, -1]):
        values = ev.from_gains(gains)
        assert len(values) == len(gains) and all(0.0 <= v <= 1.0 for v in values)
        best = max(range(len(gains)), key=gains.__getitem__)
        assert values[best] == max(values)
    assert ev.from_gains([0, 0]) == [0.5, 0.5]


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_a_states_sampler_draws_determinizes_worlds(game_id):
    """State.sampler(player) is determinize(player, rng) as a function of rng (the search
    samples through it): at positions of a match, each world it draws from an rng is the
    world determinize draws from the same rng, card for card, with the same chance to come
    and the rng left in the same state."""
    spec = engine.GAMES[game_id]
    for players in sorted({spec.min_players, spec.max_players}):
        state = engine.new_game(game_id, players=players, seed=5)
        rng = random.Random(5)
        for step in range(60):
            if state.is_over:
                break
            player = state.current_player
            sample = state.sampler(player)
            for k in range(2):
                one, two = random.Random(step * 2 + k), random.Random(step * 2 + k)
                world, former = sample(one), state.determinize(player, two)
                assert world.zones() == former.zones()
                assert world.view(player) == former.view(player)
                assert world.rng.getrandbits(32) == former.rng.getrandbits(32)
                assert one.getstate() == two.getstate()
            state.apply(rng.choice(state.legal_actions()))


def _formula(ev: Evaluator, gains: list[float]) -> list[float]:
    """The evaluator's value of gains as its module text defines it, term by term."""
    gains = [-g for g in gains] if ev.lower_is_better else gains
    out = []
    for i, g in enumerate(gains):
        others = [gains[j] for j in range(len(gains)) if j != i]
        beaten = sum(1.0 if g > o else 0.5 if g == o else 0.0 for o in others)
        rank = beaten / len(others) if others else 0.5
        mean = sum(others) / len(others) if others else g
        margin = 0.5 + 0.5 * math.tanh((g - mean) / ev.scale)
        out.append(ev.rank_weight * rank + (1.0 - ev.rank_weight) * margin)
    return out


def test_evaluator_values_are_the_formulas_floats():
    """from_gains (which skips the rank where its weight is 0) gives the formula's floats, and
    evaluate() with a heuristic (which reads rounds_played() instead of result()) gives
    from_gains of gains()."""
    rng = random.Random(3)
    for weight, scale, lower in ((0.0, 30.0, False), (0.3, 2.0, True), (1.0, 1.0, False)):
        ev = Evaluator(rank_weight=weight, scale=scale, lower_is_better=lower)
        for n in (1, 2, 3, 4, 6):
            for _ in range(200):
                gains = [rng.choice((0.0, 1.5, -2.0, rng.uniform(-40, 40))) for _ in range(n)]
                assert ev.from_gains(gains) == _formula(ev, gains)
    for game_id, players in (("progression", 3), ("progression", 2), ("crisps", 2)):
        ev = ismcts.settings_of(game_id, players).evaluator or Evaluator()
        state = engine.new_game(game_id, players=players, seed=4)
        baseline = ev.baseline(state)
        while not state.is_over:
            assert ev.evaluate(state, baseline) == ev.from_gains(ev.gains(state, baseline))
            state.apply(rng.choice(state.legal_actions()))
        assert ev.evaluate(state, baseline) == Evaluator.evaluate(ev, state, baseline)


def test_arena_helpers():
    assert lineup(["hard", "normal"], 4) == ["hard", "normal", "normal", "normal"]
    low, high = wilson(30, 100)
    assert 0.2 < low < 0.3 < high < 0.4
    out = play_match(
        GAMES[0],
        engine.GAMES[GAMES[0]].default_players,
        ["random"] * engine.GAMES[GAMES[0]].default_players,
        seed=3,
    )
    assert out["finished"] and out["winners"]
    json.dumps(out)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_hard_beats_random(game):
    """A few short matches (seeded, so never flaky): one Hard seat against Random seats
    takes well over its fair share of the wins. Four rounds (a good player still loses one
    round in ten to luck in some games), two in Spite and Malice, whose round is a whole
    game."""
    players = engine.GAMES[game].min_players
    matches = 2 if game == "spite" else 4
    summary = run_arena(
        game, players, ["hard", "random"], matches=matches, seed=4, iterations=25, max_rounds=1
    )
    hard = summary["levels"]["hard"]
    assert hard["win_rate"] >= min(1.0, 1.5 / players), summary


@pytest.mark.parametrize("name", ["crisps.jsonl", "crisps.jsonl.gz"])
def test_arena_log_resumes_a_stopped_run(tmp_path, monkeypatch, name):
    """Matches already in the log are read back, not played again, and the figures are the
    same as one uninterrupted run; lines of other settings are left alone. A log whose name
    ends .gz is kept compressed, and resumes the same way."""
    from engine.bots import arena

    log = tmp_path / name
    kwargs = {"matches": 3, "seed": 5, "jobs": 1}
    fresh = run_arena("crisps", 2, ["normal", "random"], **kwargs)
    run_arena("crisps", 2, ["normal", "random"], matches=2, seed=5, jobs=1, log=log)
    run_arena("crisps", 2, ["normal", "random"], matches=1, seed=6, jobs=1, log=log)
    assert len(arena.log_lines(log)) == 3
    assert (log.read_bytes()[:2] == b"\x1f\x8b") == name.endswith(".gz")
    played = []
    real_job = arena._match_job
    monkeypatch.setattr(arena, "_match_job", lambda job: played.append(job[3]) or real_job(job))
    resumed = run_arena("crisps", 2, ["normal", "random"], log=log, **kwargs)
    assert played == [2]
    assert len(arena.log_lines(log)) == 4
    for level in ("normal", "random"):
        for key in ("seats", "wins", "win_rate", "avg_score"):
            assert resumed["levels"][level][key] == fresh["levels"][level][key]
    arena.append_log_line(log, "not json\n")
    with pytest.raises(ValueError, match="line 5 is not JSON"):
        run_arena("crisps", 2, ["normal", "random"], log=log, **kwargs)


def test_arena_log_is_not_resumed_for_another_bot_budget(tmp_path):
    """The bots' settings are part of a log's settings: a log made with another budget
    or search is not mixed into a new run."""
    log = tmp_path / "new" / "folder" / "crisps.jsonl"  # made by the arena
    run_arena(
        "crisps", 2, ["hard", "random"], matches=1, seed=3, iterations=4, max_rounds=1, log=log
    )
    run_arena(
        "crisps", 2, ["hard", "random"], matches=1, seed=3, iterations=5, max_rounds=1, log=log
    )
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines) == 2
    assert [line["settings"]["bots"]["hard"]["iterations"] for line in lines] == [4, 5]
    assert lines[0]["settings"]["bots"]["random"] == {"level": "random"}
    hard = bots.make("hard").settings("spite", 2)
    assert hard["iterations"] == engine.GAMES["spite"].bot.hard_iterations
    assert hard["search"]["paired"] is True
    assert hard["search"]["evaluator"]["type"] == "SpiteEvaluator"
    assert bots.make("expert").settings("spite", 2)["iterations"] == int(
        engine.GAMES["spite"].bot.hard_iterations * bots.EXPERT_FACTOR
    )
    json.dumps(
        {game: bots.make("hard").settings(game, engine.GAMES[game].min_players) for game in GAMES}
    )


def spite_position(seed: int = 7) -> engine.State:
    """A Spite and Malice position, mid-game, with several moves to choose from."""
    return next(s for s in positions("spite", 2, seed=seed, count=6) if len(s.legal_actions()) >= 4)


def test_paired_search_plays_every_move_in_the_same_worlds():
    """Spite's search: one sampled world per round of iterations, every root move played out
    in it; the greedy move goes first and every other move is compared with it world by
    world."""
    state = spite_position()
    p = state.current_player
    config = engine.GAMES["spite"].bot.search
    assert config.paired
    search = Search(state, p, random.Random(3), config)
    legal = [a.id for a in state.legal_actions()]
    assert search.prior is not None and search._order[0] == search.prior
    assert sorted(search._order) == sorted(legal)
    worlds = 3
    search.step(worlds * len(legal))
    assert search.iterations == worlds * len(legal)
    # The moves in hand, on the stacks and the discards are public or the seat's own: every
    # root move is legal in every sampled world.
    assert all(sorted(values) == list(range(worlds)) for values in search._paired.values())
    diffs = search.paired_differences()
    assert set(diffs) == set(legal) - {search.prior}
    for action_id, (n, mean, error) in diffs.items():
        values, base = search._paired[action_id], search._paired[search.prior]
        assert n == worlds
        assert mean == pytest.approx(sum(values[w] - base[w] for w in range(worlds)) / worlds)
        assert error >= 0.0
    assert sum(search.visits().values()) == worlds * len(legal)
    # A second search with the same rng is the same search.
    again = Search(state, p, random.Random(3), config)
    again.step(worlds * len(legal))
    assert again._paired == search._paired and again.best().id == search.best().id


def test_paired_search_keeps_the_greedy_move_unless_another_clearly_beats_it():
    state = spite_position()
    p = state.current_player
    search = Search(state, p, random.Random(3), engine.GAMES["spite"].bot.search)
    prior, other, third = search._order[:3]
    worlds = range(8)
    search._paired = {action_id: {} for action_id in search._order}

    def fill(gains_other: list[float], gains_third: list[float]) -> str:
        search._paired[prior] = {w: 0.5 for w in worlds}
        search._paired[other] = {w: 0.5 + g for w, g in zip(worlds, gains_other, strict=False)}
        search._paired[third] = {w: 0.5 + g for w, g in zip(worlds, gains_third, strict=False)}
        return search.best().id

    flat = [0.0] * 8
    assert fill(flat, flat) == prior
    # Better on average but by less than 1.5 standard errors: noise, the greedy move stays.
    assert fill([0.4, -0.3, 0.3, -0.2, 0.1, -0.1, 0.2, -0.3], flat) == prior
    # Better in every world: taken; of two such moves, the better one.
    assert fill([0.1] * 8, flat) == other
    assert fill([0.1] * 8, [0.2, 0.25] * 4) == third
    # Worse in every world: never taken.
    assert fill([-0.1] * 8, [-0.2] * 8) == prior


def test_spite_evaluator_values_the_race_between_the_payoff_piles():
    from engine.games.spite.bot import SpiteEvaluator

    ev = SpiteEvaluator()
    state = spite_position()
    base = ev.baseline(state)
    assert not ev.stop(state, base)
    mover = state.current_player
    world = state.clone()

    def value(left: list[int]) -> list[float]:
        for seat, count in enumerate(left):
            world.payoff[seat] = world.payoff[seat][:1] * count
        return ev.evaluate(world, base)

    even = value([10, 10])
    assert sum(even) == pytest.approx(1.0)
    assert even[mover] > 0.5 > even[1 - mover], "the seat to move is a little ahead"
    ahead = [10, 10]
    ahead[mover] = 6
    assert value(ahead)[mover] > even[mover]
    # One card matters more near the end of the race than at its start.
    near, far = [2, 2], [19, 19]
    near[mover], far[mover] = 1, 18
    assert value(near)[mover] - value([2, 2])[mover] > value(far)[mover] - value([19, 19])[mover]
    # Six turns on (the one live when the search started counts), rollouts stop.
    world.turn = state.turn + 5
    assert not ev.stop(world, base)
    world.turn = state.turn + 6
    assert ev.stop(world, base)


def test_spite_evaluator_scores_a_finished_game_by_its_winner():
    from engine.games.spite.bot import SpiteEvaluator

    ev = SpiteEvaluator()
    state = engine.new_game("spite", players=2, seed=4)
    base = ev.baseline(state)
    rng = random.Random(4)
    greedy = engine.GAMES["spite"].bot.greedy
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(greedy(state.view(state.current_player), legal, rng))
    winners = state.result()["winners"]
    values = ev.evaluate(state, base)
    if len(winners) == 1:
        assert values[winners[0]] == 1.0 and values[1 - winners[0]] == 0.0
    else:
        assert values == [0.5, 0.5]


@pytest.mark.slow
def test_arena_par_pairs_each_seat_with_the_same_deal(tmp_path):
    """With every seat at the par level the match is played again exactly (same deal, same
    bots' random numbers), so every margin over par is zero; a stronger level is above par,
    the par outcome is kept in the log, and a run with another par is not mixed in."""
    from engine.bots.arena import margins

    assert margins([6, 2, 1]) == [4.5, -1.5, -3.0]
    same = run_arena("roundup", 3, ["random"], matches=3, seed=8, max_rounds=1, par="random")
    assert same["levels"]["random"]["over_par"] == (0.0, 0.0, 9)

    log = tmp_path / "par.jsonl"
    kwargs = {"matches": 4, "seed": 2, "iterations": 30, "max_rounds": 1, "log": log}
    summary = run_arena("crisps", 2, ["hard", "random"], par="random", **kwargs)
    mean, error, seats = summary["levels"]["hard"]["over_par"]
    assert seats == 4 and mean > 0
    assert summary["levels"]["random"]["over_par"][0] < 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert all(len(line["outcome"]["par_scores"]) == 2 for line in lines)
    assert lines[0]["settings"]["par"] == "random"
    run_arena("crisps", 2, ["hard", "random"], par="normal", **kwargs)
    assert len(log.read_text().splitlines()) == 8


def test_arena_command_prints_the_margin_over_par(capsys):
    import io

    from engine.__main__ import main

    out = io.StringIO()
    assert (
        main(
            [
                "arena",
                "roundup",
                "--players",
                "3",
                "--bots",
                "normal,random",
                "--matches",
                "3",
                "--seed",
                "4",
                "--rounds",
                "1",
                "--par",
                "random",
            ],
            out=out,
        )
        == 0
    )
    text = out.getvalue()
    assert "margin over par" in text and "less random's in the same seat" in text
    assert re.search(r"normal [+-]\d+\.\d\d \u00b1 \d+\.\d\d over 3 seats", text), text
    assert re.search(r"random [+-]\d+\.\d\d \u00b1 \d+\.\d\d over 6 seats", text), text
    assert main(["arena", "crisps", "--matches", "1", "--par", "hard,normal"]) != 0
    assert "--par takes one bot level" in capsys.readouterr().err


def test_greedy_trust_uses_the_sample_spread_when_asked():
    """The tree keeps the greedy move unless the most visited move's mean beats it by
    ``greedy_trust`` standard errors: with ``trust_spread=0.5`` those assume the widest
    spread a value can have, with ``None`` the two moves' own sample spreads."""
    state = engine.new_game("progression", players=3, seed=2)
    player = state.current_player
    searches = {}
    for spread in (0.5, None):
        search = Search(
            state,
            player,
            random.Random(0),
            SearchConfig(rollout="random", max_rollout_steps=0, trust_spread=spread),
        )
        search.step(1)
        legal = [a.id for a in search.legal]
        prior = search.prior
        other = next(a for a in legal if a != prior)
        # Hand-made statistics: the other move is visited more and is 0.02 better, and
        # each move's values spread by 0.05 about their means.
        search.root.children.clear()
        for action_id, mean, visits in ((prior, 0.50, 300), (other, 0.52, 400)):
            child = search.root.children[action_id] = bots.ismcts._Child(3)
            child.visits = child.available = visits
            child.totals[player] = mean * visits
            child.squares = visits * (mean * mean + 0.05 * 0.05 * (visits - 1) / visits)
        searches[spread] = (search.best().id, prior, other)
    assert searches[0.5][0] == searches[0.5][1], "0.02 is within 0.5 * sqrt(1/300 + 1/400)"
    assert searches[None][0] == searches[None][2], "0.02 is 5 sample standard errors"


def test_a_table_size_with_settings_of_its_own_is_searched_with_them():
    """``BotSettings.at(players)``: Roundup at two players has a search of its own (random
    rollouts, no greedy move kept, its own budget); every other size keeps the game's. The
    bots play, and the arena logs, the settings of the table in front of them."""
    from engine.games.roundup.bot import SETTINGS, TWO_PLAYER_SEARCH

    two = SETTINGS.at(2)
    assert (two.search, two.hard_iterations) == (TWO_PLAYER_SEARCH, 1500)
    assert (two.greedy, two.evaluator, two.sizes) == (SETTINGS.greedy, SETTINGS.evaluator, {})
    for players in (3, 4, 5, 6):
        assert SETTINGS.at(players) is SETTINGS and SETTINGS.search.rollout == "greedy"
    assert engine.GAMES["roundup"].bot is SETTINGS
    logged = bots.make("hard").settings("roundup", 2)
    assert (logged["iterations"], logged["search"]["rollout"]) == (1500, "random")
    assert logged["search"]["greedy_trust"] is None
    assert bots.make("expert").settings("roundup", 2)["iterations"] == 1500 * bots.EXPERT_FACTOR
    assert bots.make("hard").settings("roundup", 3)["search"]["rollout"] == "greedy"
    for players, budget in ((2, 1500), (3, 550)):
        state = engine.new_game("roundup", players, 5)
        hard = bots.make("hard", safety_clock=False)
        hard.choose(state, state.current_player, random.Random(1))
        assert hard.last["iterations"] == budget


def test_general_mhing_searches_three_player_tables_with_the_paired_search():
    """General Mhing at 3 players plays the paired flat search (its tree search was not told
    apart from Normal there); at 2 and 4 players it keeps the tree. Only ``paired`` differs:
    the rollouts, evaluator and budget are the game's at every size, and the logged settings
    say which search a run measured."""
    from engine.games.mhing.bot import SEARCH, SETTINGS, THREE_PLAYER_SEARCH

    assert THREE_PLAYER_SEARCH == replace(SEARCH, paired=True)
    three = SETTINGS.at(3)
    assert three.search.paired and three.search.rollout == "greedy"
    assert (three.evaluator, three.hard_iterations) == (SETTINGS.evaluator, 450)
    assert not SETTINGS.search.paired
    assert SETTINGS.at(2) is SETTINGS and SETTINGS.at(4) is SETTINGS
    for level in ("hard", "expert"):
        for players, paired in ((2, False), (3, True), (4, False)):
            assert bots.make(level).settings("mhing", players)["search"]["paired"] is paired
    state = engine.new_game("mhing", 3, 5)
    while len(state.legal_actions()) < 2:  # the opening draw is forced
        state.apply(state.legal_actions()[0].id)
    hard = bots.make("hard", safety_clock=False)
    hard.choose(state, state.current_player, random.Random(1))
    assert hard.last["iterations"] == 450


def test_the_arena_plays_default_budgets_in_full_without_a_clock(monkeypatch):
    # A safety clock that has always run out: the page's bots stop after one iteration,
    # the arena's play every iteration of the game's budget.
    monkeypatch.setattr(bots, "SAFETY_MS", 0.0)
    state = engine.new_game("crisps", players=2, seed=3)
    seat = state.current_player
    budget = engine.GAMES["crisps"].bot.hard_iterations
    paged = bots.make("hard")
    paged.choose(state, seat, random.Random(0))
    assert paged.last["iterations"] < budget
    assert bots.make("hard", safety_clock=False).budget("crisps", 2) == (budget, None)
    outcome = play_match("crisps", 2, ["hard", "normal"], seed=3, max_rounds=1)
    hard_seat = 0
    assert outcome["decisions"][hard_seat] > 0
    searched = outcome["iterations"][hard_seat]
    assert searched > 0 and searched % budget == 0


# ----- Spite and Malice: holding a playable pay-off card --------------------------------------

HOLD_MOVES = """
discard:2S#2:3 discard:10H#2:0 discard:JK2:1 discard:9H#2:0 discard:8C#2:1 discard:6H#2:0
discard:10S#2:0 build:AS#2:new discard:6S#2:0 discard:KS#2:2 discard:JK1:1 discard:7S#2:1
discard:4D#2:2 discard:9D#2:2 discard:4H#2:2 build:2D#2:0 build:AC#2:new build:2S#2:1
discard:KD#2:3 discard:3C#2:0 discard:9C#2:2 discard:3S#2:2 discard:2C#2:2 discard:4S#2:3
end end discard:10D#2:3 end discard:10C#2:0 end end end end end end end discard:7D#2:0
build:3C#2:0 build:4D:0 end build:JK4:new discard:6C#2:1 end discard:2H#2:0 build:JK1:0
build:6D:0 build:2C:2 build:7S:0 discard:8D#2:1 discard:5D#2:3 discard:5C#2:1 build:AD#2:new
end
""".split()


def spite_hold_position() -> engine.State:
    """Spite and Malice, seed 1001, after 53 moves: seat 0 shows upcard 3C, which fits on a
    stack at 2, and holds 8, 8, Q, Q, Q, none of which it may discard (its discard piles show
    6, 5, 3 and 4). Played out by the greedy policy to the end of the game from 700 sampled
    worlds, ending the turn here wins 0.006 ± 0.024 more than playing the 3C: no measurable
    difference; a rollout cut after three turns made holding look 0.046 ± 0.004 better."""
    state = engine.new_game("spite", 2, 1001)
    for move in HOLD_MOVES:
        state.apply(move)
    return state


@pytest.mark.slow
def test_spite_search_does_not_hold_a_playable_upcard_for_an_artefact_of_its_horizon():
    """Hard and Expert used to end the turn here where Normal plays the upcard: a rollout
    cut at the start of the opponent's turn after our next one never saw the opponent use the
    stacks we built up after holding. Six turns (each seat's reply seen twice) bring the
    difference within the search's noise, so the greedy move stands."""
    state = spite_hold_position()
    assert state.current_player == 0 and not any(a.kind == "discard" for a in state.legal_actions())
    assert bots.make("normal").choose(state, 0, random.Random(0)).id == "build:3C:1"
    assert bots.make("hard", safety_clock=False).choose(state, 0, random.Random(0)).id == (
        "build:3C:1"
    )
    assert bots.make("expert", safety_clock=False).choose(state, 0, random.Random(0)).id == (
        "build:3C:1"
    )


def test_spite_search_models_an_opponent_that_holds_cards_back():
    """The search's rollouts play ``holding_greedy``: like Normal, except that a seat which
    cannot discard ends its turn rather than build towards the other's upcard. Ending there
    declines a centre play, so the turn is not frozen (the stall rule counts only turns with
    no centre play available), and the rollouts run the engine's own stall and drought
    rules."""
    from engine.games.spite.bot import greedy, holding_greedy

    config = engine.GAMES["spite"].bot.search
    assert config.rollout_policy is holding_greedy and config.rollout == "greedy"
    assert bots.make("hard").settings("spite", 2)["search"]["rollout_policy"] == "holding_greedy"
    state = engine.new_game("spite", 2, 1)
    while True:
        legal = state.legal_actions()
        view = state.view(state.current_player)
        played = greedy(view, legal, random.Random(0))
        held = holding_greedy(view, legal, random.Random(0))
        if played.id != held.id:
            break
        state.apply(played)
    assert held.id == "end" and played.kind == "build"
    assert not any(a.kind == "discard" for a in legal), "only a seat that cannot discard holds"
    stalls = state.stall_turns
    state.apply(held)
    assert state.stall_turns == 0 <= stalls and not state.is_over


def test_a_rollout_mix_gives_each_seat_one_model_for_the_whole_rollout():
    """``SearchConfig.rollout_mix``: every rollout draws, per opponent seat, the greedy
    policy or one of the mix, and that seat keeps it to the end of the rollout; the
    searching seat always plays the greedy policy; the log names the mix."""
    from engine.bots.ismcts import describe
    from engine.games.roundup import bot as roundup_bot

    calls: list[tuple[int, str]] = []

    def watched(name, policy):
        def play(view, legal, rng):
            calls.append((view["viewer"], name))
            return policy(view, legal, rng)

        play.__qualname__ = name
        return play

    greedy = watched("greedy", roundup_bot.greedy)
    spoiler = watched("spoiler", roundup_bot.spoiler)
    config = SearchConfig(
        rollout="greedy", rollout_policy=greedy, rollout_mix=(spoiler,), greedy_trust=None
    )
    state = engine.new_game("roundup", 2, 3)
    while state.phase != "play" or len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    search = Search(state, state.current_player, random.Random(5), config)
    models = []
    for _ in range(40):
        calls.clear()
        search.step(1)
        per_seat = {seat: {name for s, name in calls if s == seat} for seat, _ in calls}
        assert all(len(names) == 1 for names in per_seat.values()), per_seat
        models.append(tuple(sorted((s, n.pop()) for s, n in per_seat.items())))
    me = search.player
    assert {name for row in models for seat, name in row if seat != me} == {"greedy", "spoiler"}
    assert {name for row in models for seat, name in row if seat == me} == {"greedy"}
    named = describe(config, None)
    assert named["rollout_mix"] == ["spoiler"] and named["rollout_policy"] == "greedy"
    assert "rollout_mix" not in describe(SearchConfig(), None)  # old logs still resume


def test_spite_rollouts_see_each_seat_reply_twice():
    from engine.games.spite.bot import SpiteEvaluator

    assert engine.GAMES["spite"].bot.evaluator == SpiteEvaluator(turns=6)


# ----- the arena's reference: a plain ISMCTS -----------------------------------------------------


def test_the_plain_reference_is_a_plain_ismcts_of_its_own_iterations():
    """``plain-N``: random rollouts to the end of the round, the round's outcome in [0, 1]
    (win 1, tie 1/2, loss 0), UCB1 exploration 1, the most visited move, worlds from
    determinize; ``N`` iterations whatever budget the arena gives the other searches."""
    for level, count in (("plain", 1000), ("plain-200", 200), ("plain-1000", 1000)):
        bot = bots.make(level, iterations=5, time_ms=10.0, safety_clock=True)
        assert bot.level == level
        for game in GAMES:
            settings = bot.settings(game, engine.GAMES[game].min_players)
            assert settings["iterations"] == count and settings["time_ms"] is None
            search = settings["search"]
            assert search["rollout"] == "random" and search["max_rollout_steps"] >= 10**6
            assert search["exploration"] == 1.0 and search["greedy_trust"] is None
            assert search["paired"] is False and "rollout_policy" not in search
            assert search["evaluator"] == {
                "type": "Evaluator",
                "rank_weight": 1.0,
                "scale": 1.0,
                "lower_is_better": False,
                "heuristic": None,
                "stop_at_round_end": True,
            }
    assert bots.PLAIN_SEARCH.evaluator is not None
    assert bots.PLAIN_SEARCH.evaluator.from_gains([3, 1]) == [1.0, 0.0]
    assert bots.PLAIN_SEARCH.evaluator.from_gains([2, 2]) == [0.5, 0.5]
    for wrong in ("plain-0", "plain-", "plain-x", "plainer"):
        with pytest.raises(ValueError):
            bots.make(wrong)


def test_the_plain_reference_is_never_offered_to_a_player():
    from engine import bridge

    assert not any(level.startswith("plain") for level in bots.LEVELS)
    assert bridge.available_levels() == list(bots.LEVELS)
    reply = json.loads(
        bridge.start(
            json.dumps(
                {
                    "game": "crisps",
                    "players": 2,
                    "seed": 1,
                    "seats": [{"type": "human"}, {"type": "bot", "level": "plain-200"}],
                }
            )
        )
    )
    assert reply["error"]["code"] == "bad_seats"


def test_a_plain_search_plays_its_iterations_and_the_most_visited_move():
    state = positions("roundup", 2, seed=3, count=1)[0]
    seat = state.current_player
    bot = bots.make("plain-40")
    chosen = bot.choose(state, seat, random.Random(2)).id
    assert bot.last["iterations"] == 40
    # The same search run by hand: the bot's move is its most visited one.
    search = Search(state, seat, random.Random(2), bots.PLAIN_SEARCH)
    search.step(40)
    visits = search.visits()
    assert chosen == search.best().id and visits[chosen] == max(visits.values())

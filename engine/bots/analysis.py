"""What the Hard search sees from one seat: every legal move ranked, with its figures.

:func:`analyse` runs the very search the Hard level runs (the game's search settings and
evaluator, the game's Hard iteration budget unless told otherwise, the same use of the rng),
from ``state.determinize(player, rng)`` worlds only, so it reads nothing the seat cannot see.
With the same rng and budget its first move is the Hard bot's choice. Per root move it
counts, from the same rollouts that the search scores:

- ``worlds``: the simulated worlds (rollouts) that went through the move;
- ``value``: the search's own mean value in [0, 1] (what ranks the moves);
- ``win``: the seat's share of first place at the end of those rollouts, ties split (the
  deal's points, projected by the game's heuristic where a rollout stops early; the match's
  winners where it ends). A game whose evaluator is its own, not the generic formula of
  :mod:`engine.bots.evaluation`, values a position as the seat's chance of winning (Spite and
  Malice's does), so there ``win`` is that value;
- ``points``: the seat's points minus the mean of the other seats' over the same rollouts
  (positive: ahead; for a game where fewer points are better, the sign is turned so that
  ahead is still positive); ``None`` with an evaluator of the game's own.

``measure`` says which figure tells the moves apart for that game's evaluator: ``"win"``
when it values winning alone (rank weight 1, or an evaluator of its own), else ``"points"``.
Each move's figure comes with its 95% interval (``low``, ``high``: the mean of its rollouts
plus or minus 1.96 standard errors), from three rollouts on.

The budget: the Hard search's own iterations first (its choice is the Hard bot's: the same
rng, the same budget), then half as many again where they separate the best candidates
(successive halving): the leading moves by their figures, the search's choice among them,
are played out from the same sampled worlds, and each round keeps the better half. The
review of a finished match asks for less a move (:func:`review_budget`), so that a whole
match's moves are ranked in well under a minute.

The ranking follows the figures: the moves in order of their figure (the search's choice
first among equal ones), in groups of moves that cannot be told apart
(:func:`rank_by_figures`), and the first is the best move. With the refinement's rollouts on
the leading moves, it is the Hard bot's choice or one the figures cannot tell from it, as a
rule; where they can, the figures decide. :meth:`Analysis.reason` says in plain words what the
best move does (the game's ``purpose``), how it fares against the next best, and, when several
moves share the first group, that they are equally good as far as the search can tell.

>>> import random, engine
>>> state = engine.new_game("crisps", players=2, seed=4)
>>> result = run(state, state.current_player, random.Random(1), iterations=40)
>>> result.moves[0].action.id == result.best.id
True
>>> sum(m.worlds for m in result.moves) == result.iterations, 40 < result.iterations <= 60
(True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Generator, Hashable, Sequence
from dataclasses import dataclass, field, replace
from time import perf_counter
from typing import Any

import engine
from engine.bots.evaluation import Baseline, Evaluator
from engine.bots.ismcts import Search, SearchConfig, settings_of
from engine.core import Action, State


@dataclass
class _Tally:
    worlds: int = 0
    value: float = 0.0
    win: float = 0.0
    win_squares: float = 0.0
    points: float = 0.0
    points_squares: float = 0.0

    def add(self, value: float, win: float, points: float = 0.0) -> None:
        self.worlds += 1
        self.value += value
        self.win += win
        self.win_squares += win * win
        self.points += points
        self.points_squares += points * points


@dataclass(frozen=True)
class _Recorder(Evaluator):
    """The game's evaluator, unchanged in what it returns, that also tallies each rollout's
    outcome under the root move it went through (the action at index ``root`` of the
    world's history)."""

    inner: Evaluator = field(default_factory=Evaluator)
    player: int = 0
    root: int = 0
    tallies: dict[str, _Tally] = field(default_factory=dict)

    @property
    def generic(self) -> bool:
        """True when the inner evaluator uses the generic formula (gains are meaningful)."""
        return type(self.inner).evaluate is Evaluator.evaluate

    def baseline(self, world: State) -> Baseline:
        return self.inner.baseline(world)

    def stop(self, world: State, baseline: Baseline) -> bool:
        return self.inner.stop(world, baseline)

    def evaluate(self, world: State, baseline: Baseline) -> list[float]:
        values = self.inner.evaluate(world, baseline)
        me = self.player
        tally = self.tallies.setdefault(world.history[self.root].id, _Tally())
        if not self.generic:
            tally.add(values[me], values[me])
            return values
        result = world.result()
        gains = self.inner.gains(world, baseline, result)
        if self.inner.lower_is_better:
            gains = [-g for g in gains]
        others = [g for seat, g in enumerate(gains) if seat != me]
        points = gains[me] - sum(others) / len(others) if others else 0.0
        if world.is_over:
            winners = result["winners"]
            win = 1.0 / len(winners) if me in winners else 0.0
        else:
            top = max(gains)
            win = 1.0 / gains.count(top) if gains[me] == top else 0.0
        tally.add(values[me], win, points)
        return values


@dataclass(frozen=True)
class Move:
    """One legal move's place and figures (``None`` where no world went through it).

    ``rank``: its place (1 to n); ``group``: the group of moves it cannot be told apart from
    (1: the best ones), ``placed``: the place that group starts at (the rank the table shows);
    ``low``, ``high``: the 95% interval of its figure (``None`` below three rollouts)."""

    action: Action
    rank: int
    worlds: int
    value: float | None
    win: float | None
    points: float | None
    low: float | None = None
    high: float | None = None
    group: int = 0
    placed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.action.id,
            "rank": self.rank,
            "group": self.group,
            "placed": self.placed,
            "worlds": self.worlds,
            "value": _round(self.value),
            "win": _round(self.win),
            "points": _round(self.points, 2),
            "low": _round(self.low),
            "high": _round(self.high),
        }


def _round(x: float | None, places: int = 4) -> float | None:
    return None if x is None else round(x, places)


Z95 = 1.96
"""Standard errors each side of a mean in its 95% interval."""
MIN_WORLDS = 3
"""Rollouts a move needs before its figure has an interval (and a group with others)."""
REFINE_SHARE = 0.5
"""The refinement's rollouts, as a share of the search's budget."""
REFINE_CANDIDATES = 8
"""The most moves the refinement starts with."""
LISTED = 4
"""The most moves the reason names when several are equally good (then "and N more")."""
REVIEW_SHARE = 0.3
""""Review my moves" searches each past move with this share of the Hard budget (and its
refinement half as many again): a whole match's moves in well under a minute in the page,
where one Hard decision costs about 0.75 s. The figures rest on fewer rollouts than a hint's,
so their intervals are wider and more moves share a group; the review says how many."""


def review_budget(game_id: str, players: int) -> int:
    """The search's iterations for one move of a review: :data:`REVIEW_SHARE` of the game's
    Hard budget at that table.

    >>> review_budget("crisps", 2)
    195
    """
    return max(MIN_WORLDS * 10, round(settings_of(game_id, players).hard_iterations * REVIEW_SHARE))


def interval(n: int, total: float, squares: float) -> tuple[float | None, float | None]:
    """The 95% interval of the mean of ``n`` values of this ``total`` and sum of squares
    (``(None, None)`` below :data:`MIN_WORLDS` values).

    >>> interval(4, 2.0, 2.0)   # 1, 1, 0, 0: mean 0.5, sample deviation 0.577
    (-0.0658, 1.0658)
    """
    if n < MIN_WORLDS:
        return None, None
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = Z95 * math.sqrt(variance / n)
    return round(mean - half, 4), round(mean + half, 4)


def rank_by_figures(
    figures: Sequence[tuple[Hashable, float | None, float | None, float | None]],
    choice: Hashable | None = None,
) -> list[tuple[Hashable, int, int]]:
    """Order moves by their figures: ``figures`` = ``[(key, mean, low, high)]``; returns
    ``[(key, group, placed)]`` best first.

    The moves with an interval come first, by mean (ties in the order given), in groups: a
    group is a move and every next one that the figures cannot tell from it, the difference
    of their means within 1.96 standard errors of that difference (each move's standard error
    read off its interval). ``choice`` (the search's own) goes first among equal means. The
    moves without an interval (too few rollouts) follow, in the order given, each a group of
    its own. ``placed`` is the place the move's group starts at.

    >>> rank_by_figures([("a", 0.45, 0.25, 0.65), ("b", 0.50, 0.45, 0.55),
    ...                  ("c", 0.20, 0.18, 0.22), ("d", None, None, None)], choice="a")
    [('b', 1, 1), ('a', 1, 1), ('c', 2, 3), ('d', 3, 4)]
    """
    known = [f for f in figures if f[1] is not None and f[2] is not None and f[3] is not None]
    known.sort(key=lambda f: (-(f[1] or 0.0), f[0] != choice))
    unknown = [f for f in figures if f not in known]
    groups: list[list[Hashable]] = []
    i = 0

    def error(f: tuple[Hashable, float | None, float | None, float | None]) -> float:
        return ((f[3] or 0.0) - (f[2] or 0.0)) / (2 * Z95)

    while i < len(known):
        leader = known[i]
        members = [leader[0]]
        i += 1
        while i < len(known):
            gap = (leader[1] or 0.0) - (known[i][1] or 0.0)
            if gap > Z95 * math.hypot(error(leader), error(known[i])):
                break
            members.append(known[i][0])
            i += 1
        groups.append(members)
    groups.extend([f[0]] for f in unknown)
    out: list[tuple[Hashable, int, int]] = []
    placed = 1
    for number, members in enumerate(groups, start=1):
        out.extend((key, number, placed) for key in members)
        placed += len(members)
    return out


@dataclass(frozen=True)
class Analysis:
    """The moves ranked (``moves[0]`` is ``best``), the figure that tells them apart
    (``measure``), the rollouts run (``iterations``: the search's and the refinement's) and
    the search's budget asked."""

    player: int
    moves: list[Move]
    measure: str
    iterations: int
    budget: int
    usual: str | None = None
    """The game's usual (greedy) move that the search keeps unless another is clearly
    better (``None`` when the search has none)."""
    estimated: bool = False
    """``win`` is the evaluator's estimate of the chance of winning, not counted wins."""
    purpose: str | None = None
    """What the best move does, in a player's words (the game's ``purpose``)."""

    @property
    def best(self) -> Action:
        return self.moves[0].action

    def rank_of(self, action_id: str) -> int | None:
        """The 1-based rank of a legal move's id (``None`` for any other id)."""
        return next((m.rank for m in self.moves if m.action.id == action_id), None)

    def figure_of(self, move: Move) -> float | None:
        """The move's figure: its share of wins, or its points."""
        return move.win if self.measure == "win" else move.points

    def tied(self) -> list[Move]:
        """The moves the figures cannot tell from the best one (the first group)."""
        return [m for m in self.moves if m.group == self.moves[0].group]

    def figure(self, move: Move) -> str:
        """A move's figure in words (without its name)."""
        if self.measure == "win" and move.win is not None:
            if self.estimated:
                return f"gives you an estimated {move.win:.0%} chance of winning"
            return f"wins {move.win:.0%} of the deals played out from here"
        if move.points is not None:
            if abs(move.points) < 0.05:
                return "ends level with the others on average"
            ahead = "ahead of" if move.points >= 0 else "behind"
            return f"ends {abs(move.points):.1f} points {ahead} the others on average"
        return "was not played out"

    def reason(self, label: Any = None) -> str:
        """Why the first move is suggested, in plain words: what it does, how it fares against
        the next best, and the moves the search cannot tell from it. ``label(action)``: a
        move's words (default: the action's label)."""
        name = label or (lambda action: action.label)
        first = self.moves[0]
        does = f" It {self.purpose}." if self.purpose else ""
        if len(self.moves) == 1:
            return f"{name(first.action)}: the only legal move.{does}"
        head = f"{name(first.action)}.{does} It {self.figure(first)}"
        tied = self.tied()
        if len(tied) > 1:
            span = _span(self, tied)
            names = [name(m.action) for m in tied]
            if len(names) > LISTED:
                names = [*names[: LISTED - 1], f"{len(names) - LISTED + 1} more"]
            return (
                f"{head}. These {len(tied)} moves are equally good as far as the search can "
                f"tell ({span}): {_listed(names)}."
            )
        second = self.moves[1]
        return f"{head}; the next best, {name(second.action)}, {_short(self, second)}."


def _span(analysis: Analysis, moves: list[Move]) -> str:
    """The range their intervals cover: "45% to 58% of wins" or "-1.0 to +2.3 points"."""
    lows = [m.low for m in moves if m.low is not None]
    highs = [m.high for m in moves if m.high is not None]
    if not lows or not highs:
        return "too few deals played out to say more"
    low, high = max(min(lows), -1e9), min(max(highs), 1e9)
    if analysis.measure == "win":
        low, high = max(0.0, low), min(1.0, high)
        what = "chance of winning" if analysis.estimated else "of the deals won"
        return f"{low:.0%} to {high:.0%} {what}"
    return f"{low:+.1f} to {high:+.1f} points"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _short(analysis: Analysis, move: Move) -> str:
    """A move's figure, short: "41%" or "+1.2 points"."""
    if analysis.measure == "win" and move.win is not None:
        return f"{move.win:.0%}"
    if move.points is not None:
        return f"{move.points:+.1f} points"
    return "not played out"


def _purpose(state: State, view: dict[str, Any], action: Action) -> str | None:
    """What ``action`` does for the seat whose ``view`` it is, in the game's own words."""
    return engine.GAMES[state.game_id].purpose(view, action)


def measure_of(evaluator: Evaluator) -> str:
    """``"win"`` when ``evaluator`` values winning alone, else ``"points"``."""
    if type(evaluator).evaluate is not Evaluator.evaluate or evaluator.rank_weight == 1.0:
        return "win"
    return "points"


def analyse(
    state: State,
    player: int,
    rng: random.Random,
    iterations: int | None = None,
    time_ms: float | None = None,
) -> Generator[float, None, Analysis]:
    """Search in chunks, yielding the fraction done; the generator returns the analysis.

    ``iterations``: the search's budget (default: the game's Hard budget), after which the
    refinement plays half as many rollouts again; ``time_ms``: also stop after that long (a
    slow device: the search gets two thirds of it, the refinement the rest), so the figures
    may then rest on fewer rollouts. A seat with one legal move gets it at once, with no
    search and no use of ``rng`` (as the Hard bot).
    """
    legal = state.legal_actions()
    if not legal or state.current_player != player:
        raise ValueError(f"seat {player} has no move to make now")
    settings = settings_of(state.game_id, state.players)
    budget = settings.hard_iterations if iterations is None else iterations
    config = settings.search or SearchConfig()
    inner = config.evaluator or settings.evaluator or Evaluator()
    measure = measure_of(inner)
    view = state.view(player)
    if len(legal) == 1:
        only = Move(legal[0], 1, 0, None, None, None, group=1, placed=1)
        return Analysis(player, [only], measure, 0, budget, purpose=_purpose(state, view, legal[0]))
    recorder = _Recorder(inner=inner, player=player, root=len(state.history))
    search = Search(state, player, rng, replace(config, evaluator=recorder))
    share = 1.0 / (1.0 + REFINE_SHARE)
    main_ms = None if time_ms is None else time_ms * share
    for fraction in search.chunks(budget, main_ms):
        yield fraction * share
    choice = search.best()

    def figures(action: Action) -> tuple[int, float | None, float | None, float | None]:
        tally = recorder.tallies.get(action.id)
        if tally is None or not tally.worlds:
            return 0, None, None, None
        n = tally.worlds
        points = tally.points / n if recorder.generic else None
        return n, tally.value / n, tally.win / n, points

    def measured(action: Action) -> tuple[float | None, float | None, float | None]:
        tally = recorder.tallies.get(action.id)
        if tally is None or not tally.worlds:
            return None, None, None
        if measure == "win" or not recorder.generic:
            total, squares = tally.win, tally.win_squares
        else:
            total, squares = tally.points, tally.points_squares
        low, high = interval(tally.worlds, total, squares)
        return total / tally.worlds, low, high

    refine_ms = None if time_ms is None else time_ms - (main_ms or 0.0)
    refined = yield from _refine(
        search, state, player, legal, choice, measured, int(budget * REFINE_SHARE), refine_ms
    )
    yield 1.0
    ranked = rank_by_figures([(a.id, *measured(a)) for a in legal], choice.id)
    by_id = {a.id: a for a in legal}
    moves = []
    for place, (action_id, group, placed) in enumerate(ranked, start=1):
        action = by_id[str(action_id)]
        _, low, high = measured(action)
        moves.append(Move(action, place, *figures(action), low, high, group, placed))
    return Analysis(
        player,
        moves,
        measure,
        search.iterations + refined,
        budget,
        search.prior,
        not recorder.generic,
        _purpose(state, view, moves[0].action),
    )


def _refine(
    search: Search,
    state: State,
    player: int,
    legal: list[Action],
    choice: Action,
    measured: Any,
    rollouts: int,
    time_ms: float | None,
) -> Generator[float, None, int]:
    """Successive halving over the leading moves: each round plays every candidate out from
    the same sampled worlds (``state.determinize``: what ``player`` can see, nothing more),
    then keeps the better half by the figures, until one is left or the ``rollouts`` (or
    ``time_ms``) are spent. Rollouts go to the same tallies as the search's. Returns the
    rollouts played (a candidate not legal in a sampled world is not played there)."""

    def mean(action: Action) -> float:
        value = measured(action)[0]
        return -math.inf if value is None else value

    candidates = sorted(legal, key=mean, reverse=True)[:REFINE_CANDIDATES]
    if choice not in candidates:
        candidates[-1] = choice
    if rollouts < 2 or len(candidates) < 2:
        return 0
    rounds = max(1, math.ceil(math.log2(len(candidates))))
    rng = random.Random(search.rng.getrandbits(64))
    deadline = None if time_ms is None else perf_counter() + time_ms / 1000.0
    played = tried = 0
    share = 1.0 / (1.0 + REFINE_SHARE)
    for round_number in range(rounds):
        worlds = max(1, (rollouts // rounds) // len(candidates))
        for _ in range(worlds):
            if tried + len(candidates) > rollouts:
                break
            if deadline is not None and perf_counter() >= deadline:
                return played
            sampled = state.determinize(player, rng)
            chance = rng.getrandbits(64)
            for action in candidates:
                world = sampled._copy(random.Random(chance))
                move = next((a for a in world.legal_actions() if a.id == action.id), None)
                tried += 1
                if move is not None:  # not legal in this world: no rollout for it here
                    world.push(move)
                    search._rollout(world)  # its evaluator tallies the rollout
                    played += 1
            yield share + (1.0 - share) * min(1.0, tried / rollouts)
        if round_number < rounds - 1:
            candidates = sorted(candidates, key=mean, reverse=True)[
                : max(2, math.ceil(len(candidates) / 2))
            ]
    return played


def run(state: State, player: int, rng: random.Random, iterations: int | None = None) -> Analysis:
    """:func:`analyse` to the end, without progress."""
    thinking = analyse(state, player, rng, iterations)
    while True:
        try:
            next(thinking)
        except StopIteration as done:
            return done.value

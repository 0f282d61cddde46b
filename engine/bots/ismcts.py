"""Information Set Monte Carlo Tree Search, generic over every registered game.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012, "Information Set Monte Carlo
Tree Search"): one tree for the searching seat. Every iteration

1. samples a world with ``state.determinize(player, rng)`` (hidden cards and the future
   re-sampled from what ``player`` knows; the true hidden cards are never read),
2. descends the tree: a node is reached by a sequence of action ids from the root (so an
   opponent's node stands for every world in which that sequence happened) and its children
   are keyed by action id. Different worlds allow different actions, so each child counts its
   *availability* (how often it was legal when its parent was visited) and UCB1 uses that
   count in place of the parent's visits,
3. expands one untried action, then plays a rollout with a cheap policy (see
   :class:`SearchConfig`) and scores it with the game's evaluator
   (:mod:`engine.bots.evaluation`): a value in [0, 1] *per seat*, so the backed-up value
   is a vector and every seat maximises its own share, which is right for 3 to 6 players,
4. backs the vector up the path; each node's UCB uses the value of the seat acting there.

The final choice is the root action with the most visits. Forced moves (a single legal
action) are stepped through without spending the iteration's one expansion.

``SearchConfig(paired=True)`` replaces the tree by a flat search with common random
numbers: each sampled world is played out after every root action with the same chance, and
a root action is judged by its value minus the greedy move's in the same worlds (see
:class:`SearchConfig`). An iteration is then one rollout.

The search runs in chunks: :meth:`Search.step` runs ``n`` iterations and returns, so a worker
can report progress between chunks. Randomness comes only from the injected rng; with an
iteration budget the clock is never read and the same state and rng give the same choice.

>>> import random, engine
>>> state = engine.new_game("crisps", players=2, seed=4)
>>> search = Search(state, state.current_player, random.Random(1), SearchConfig())
>>> search.step(20)
20
>>> search.best().id in {a.id for a in state.legal_actions()}
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from time import perf_counter  # read as ismcts.perf_counter, so tests can set the clock
from typing import Any

from engine.bots.evaluation import Evaluator
from engine.core import Action, BotSettings, LazyRandom, Policy, State


@dataclass(frozen=True)
class SearchConfig:
    """How one search behaves.

    ``rollout``: ``"greedy"`` (the game's heuristic, fed the acting seat's view of the
    sampled world), ``"random"``, or ``"mixed"`` (greedy for the first ``greedy_steps``
    rollout steps, then random). ``max_rollout_steps`` cuts a rollout short; the evaluator
    then scores the position as it stands. ``exploration`` is the UCB1 constant.
    ``greedy_trust``: when the search has no clear signal (a flat evaluation, a small
    budget) the seat plays the game's greedy move, computed from its own view.
    """

    rollout: str = "mixed"
    rollout_policy: Policy | None = None
    """The policy the greedy steps of a rollout play, for every seat (None: the game's greedy
    policy, Normal's own). The choice the search keeps against evidence (``greedy_trust``)
    is always the game's greedy move."""
    rollout_mix: tuple[Policy, ...] = ()
    """Other models of how an opponent plays: each rollout, every seat but the searching
    one plays a policy drawn uniformly from the rollout policy and these (empty: the
    rollout policy alone); the searching seat keeps the rollout policy, its own plan. A mix
    lets the search allow for a plan the greedy policy never follows, such as an opponent
    who spoils the bids instead of backing its own."""
    greedy_steps: int = 12
    max_rollout_steps: int = 400
    exploration: float = 0.7
    evaluator: Evaluator | None = None
    greedy_trust: float | None = 1.0
    """Keep the greedy policy's move unless the most visited one beats its mean value by
    more than ``greedy_trust`` standard errors (None: always the most visited)."""
    trust_spread: float | None = 0.5
    """The standard deviation of one iteration's value that those standard errors assume
    (0.5, the most a value in [0, 1] can have); None: the two moves' sample deviations. A
    game whose values stay close to one half (margins of a few points) needs the sample's,
    or the greedy move is kept against any evidence the budget can gather."""
    greedy_rollout: Callable[[Any, random.Random, int, int], int] | None = None
    """The game's own loop for a greedy rollout, where it has one:
    ``greedy_rollout(world, rng, round_end, max_steps)`` plays the game's greedy policy (``rng``
    its chance) at every seat of ``world`` until more than ``round_end`` rounds are played
    (``world.rounds_played() > round_end``; ``-1``: no such stop), the match ends or
    ``max_steps`` steps are taken, and returns the steps it took. It takes the very moves the
    generic loop takes (the game's tests hold it to that), only faster, and may leave the
    world as only the evaluator reads it (the next round undealt, say). Used for
    ``rollout="greedy"`` with no ``rollout_policy`` or ``rollout_mix`` and the generic
    evaluator's stop; a speed path, so :func:`describe` does not name it."""
    rollout_loop: Callable[[Any, random.Random, Any, int], int] | None = None
    """A game's own loop for its whole rollout, where it has one: ``rollout_loop(world, rng,
    baseline, max_steps)`` plays this config's rollout from ``world`` (``rng`` its chance) until
    the game's evaluator would stop it (``baseline``: that evaluator's baseline of the search)
    or ``max_steps`` steps are taken, and returns the steps it took: the very moves of the
    generic loop (the game's tests hold it to that), only faster. Used when the config names
    no evaluator of its own and no ``rollout_mix``; a speed path, so :func:`describe` does
    not name it."""
    paired: bool = False
    """Flat search with common random numbers instead of a tree: each sampled world is
    played out once after every root action, from the same world with the same chance (one
    iteration is one such rollout), and a root action is judged by its value *minus the
    greedy move's in the same worlds*. The choice is the greedy move unless another beats it
    on those paired differences by more than ``greedy_trust`` standard errors (their sample
    standard error); without a greedy move, the best mean. Below the root every seat plays
    the rollout policy: for a game with many legal moves per step a tree of a few hundred
    iterations plays near-random moves there, which misjudges the moves that hand the turn
    to an opponent."""


def settings_of(game_id: str, players: int) -> BotSettings[SearchConfig, Evaluator]:
    """The bot settings of a registered game (``SPEC.bot``) at a table of ``players``, with
    the search's settings and evaluator checked to be this module's types (the core holds
    them without knowing their types)."""
    import engine  # the registry imports the games, whose settings import this module

    settings: BotSettings[Any, Any] = engine.GAMES[game_id].bot.at(players)
    if not isinstance(settings.search, SearchConfig | None) or not isinstance(
        settings.evaluator, Evaluator | None
    ):
        raise TypeError(f"{game_id}: its bot settings need a SearchConfig and an Evaluator")
    return settings


def describe(config: SearchConfig, game_evaluator: Evaluator | None) -> dict[str, Any]:
    """``config`` and the evaluator it uses (its own, else the game's, else the generic one)
    as plain JSON data (functions by name), the same in every process: what an arena log
    records of a search."""

    def plain(value: Any) -> Any:
        if callable(value):
            return getattr(value, "__qualname__", type(value).__name__)
        if isinstance(value, tuple):
            return [plain(v) for v in value]
        return value

    evaluator = config.evaluator or game_evaluator or Evaluator()
    # A rollout policy left to the game's greedy one is not named, so a log made before the
    # setting existed still resumes.
    unnamed = {"evaluator", "greedy_rollout", "rollout_loop"}
    unnamed |= {"rollout_policy"} if config.rollout_policy is None else set()
    unnamed |= set() if config.rollout_mix else {"rollout_mix"}
    out: dict[str, Any] = {
        f.name: plain(getattr(config, f.name)) for f in fields(config) if f.name not in unnamed
    }
    out["evaluator"] = {
        "type": type(evaluator).__name__,
        **{f.name: plain(getattr(evaluator, f.name)) for f in fields(evaluator)},
    }
    return out


_LOGS: list[float] = [0.0]
"""``math.log(i)`` at index ``i`` (1 on), for UCB1's log of a child's availability."""


def _grow_logs(size: int) -> None:
    _LOGS.extend(math.log(i) for i in range(max(1, len(_LOGS)), size))


class _Child:
    """The edge to one action: visits, availability and the per-seat value sums."""

    __slots__ = ("visits", "available", "totals", "squares", "node")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * players
        self.squares = 0.0
        """Sum of the squared values of the searching seat (kept for the root's moves)."""
        self.node: _Node | None = None


class _Node:
    __slots__ = ("children",)

    def __init__(self) -> None:
        self.children: dict[str, _Child] = {}


class Search:
    """One ISMCTS search for ``player`` from ``state``; run it with :meth:`step`."""

    def __init__(
        self, state: State, player: int, rng: random.Random, config: SearchConfig | None = None
    ) -> None:
        if state.current_player != player:
            raise ValueError(f"seat {player} has no move to make now")
        self.config = config or SearchConfig()
        self.player = player
        self.players = state.players
        self.state = state
        self.legal = state.legal_actions()
        self._sample = state.sampler(player)
        self.rng = random.Random(rng.getrandbits(64))
        self.root = _Node()
        self.iterations = 0
        self.rollout_steps = 0
        settings = settings_of(state.game_id, state.players)
        self.greedy = settings.greedy
        self.evaluator = self.config.evaluator or settings.evaluator or Evaluator()
        self._baseline: Any = None
        self.prior: str | None = None
        if self.config.greedy_trust is not None and len(self.legal) > 1:
            prior_rng = random.Random(self.rng.getrandbits(64))
            self.prior = self.greedy(state.view(player), self.legal, prior_rng).id
        if self.config.paired:
            # The root actions in a fixed order, the greedy move first (a partly played world
            # still pairs it with the others); per action, its value in each world.
            ids = [a.id for a in self.legal]
            if self.prior is not None:
                ids.remove(self.prior)
                ids.insert(0, self.prior)
            self._order = ids
            self._paired: dict[str, dict[int, float]] = {i: {} for i in ids}
            self._world: State | None = None
            self._chance = 0

    # ----- the public face ---------------------------------------------------------------
    def step(self, n: int = 1) -> int:
        """Run ``n`` more iterations; returns the total run so far."""
        for _ in range(n):
            self._iterate()
        return self.iterations

    def chunks(
        self, iterations: int | None = None, time_ms: float | None = None, chunk: int = 16
    ) -> Iterator[float]:
        """Run to a budget in chunks, yielding the fraction done after each chunk.

        ``iterations`` alone: exactly that many, the clock never read. ``time_ms`` alone:
        until that much time has passed (at least one iteration). Both: whichever comes
        first. Neither: 500 ms.
        """
        if iterations is not None and time_ms is None:
            while self.iterations < iterations:
                self.step(min(chunk, iterations - self.iterations))
                yield self.iterations / iterations
            return
        budget = (time_ms if time_ms is not None else 500.0) / 1000.0
        start = perf_counter()
        self.step(1)  # at least one iteration, whatever the budget
        while True:
            elapsed = perf_counter() - start
            if elapsed >= budget or (iterations is not None and self.iterations >= iterations):
                break
            yield max(elapsed / budget, self.iterations / iterations if iterations else 0.0)
            # The clock is read every iteration so the budget is kept within one iteration.
            for _ in range(chunk):
                if iterations is not None and self.iterations >= iterations:
                    break
                self.step(1)
                if perf_counter() - start >= budget:
                    break
        yield 1.0

    def visits(self) -> dict[str, int]:
        """Visits per root action id."""
        out = {}
        for action in self.legal:
            child = self.root.children.get(action.id)
            out[action.id] = child.visits if child else 0
        return out

    def values(self) -> dict[str, float]:
        """Mean value for the searching seat per root action id (0.0 when unvisited)."""
        out = {}
        for action in self.legal:
            child = self.root.children.get(action.id)
            out[action.id] = (
                child.totals[self.player] / child.visits if child and child.visits else 0.0
            )
        return out

    def best(self) -> Action:
        """The most visited root action (ties: the better mean value, then legal order),
        unless the greedy move holds up (see ``SearchConfig.greedy_trust``)."""
        if self.config.paired:
            return self._best_paired()
        best_action = self.legal[0]
        best_key = (-1, -1.0)
        for action in self.legal:
            child = self.root.children.get(action.id)
            if child is None or child.visits == 0:
                key = (0, 0.0)
            else:
                key = (child.visits, child.totals[self.player] / child.visits)
            if key > best_key:
                best_key, best_action = key, action
        prior = self.root.children.get(self.prior) if self.prior else None
        if prior is not None and prior.visits and best_action.id != self.prior:
            trust = self.config.greedy_trust or 0.0
            best_visits, best_mean = best_key
            prior_mean = prior.totals[self.player] / prior.visits
            error = self._error(self.root.children[best_action.id], prior)
            if best_mean - prior_mean <= trust * error:
                return next(a for a in self.legal if a.id == self.prior)
        return best_action

    def _error(self, a: _Child, b: _Child) -> float:
        """The standard error of the difference of two root moves' mean values that the
        greedy-trust test uses (see ``SearchConfig.trust_spread``)."""
        spread = self.config.trust_spread
        if spread is not None:
            return spread * math.sqrt(1.0 / a.visits + 1.0 / b.visits)

        def variance(child: _Child) -> float:
            n = child.visits
            if n < 2:
                return 0.25  # no sample yet: the most a value in [0, 1] can vary
            mean = child.totals[self.player] / n
            return max(0.0, (child.squares - n * mean * mean) / (n - 1))

        return math.sqrt(variance(a) / a.visits + variance(b) / b.visits)

    def paired_differences(self) -> dict[str, tuple[int, float, float]]:
        """Paired search: per root action other than the greedy move, ``(worlds, mean, standard
        error)`` of its value minus the greedy move's in the same worlds."""
        out: dict[str, tuple[int, float, float]] = {}
        if not self.config.paired or self.prior is None:
            return out
        base = self._paired[self.prior]
        for action_id in self._order[1:]:
            diffs = [v - base[w] for w, v in self._paired[action_id].items() if w in base]
            n = len(diffs)
            if n < 2:
                continue
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            out[action_id] = (n, mean, math.sqrt(var / n))
        return out

    def _best_paired(self) -> Action:
        by_id = {a.id: a for a in self.legal}
        if self.prior is None:
            means, visits = self.values(), self.visits()
            return max(self.legal, key=lambda a: (visits[a.id] > 0, means[a.id]))
        trust = self.config.greedy_trust or 0.0
        best_id, best_mean = self.prior, 0.0
        for action_id, (_, mean, error) in self.paired_differences().items():
            if mean > best_mean and mean > trust * error:
                best_id, best_mean = action_id, mean
        return by_id[best_id]

    def _iterate_paired(self) -> None:
        order = self._order
        index, slot = divmod(self.iterations, len(order))
        if slot == 0 or self._world is None:
            self._world = self._sample(self.rng)
            self._chance = self.rng.getrandbits(64)
            if self._baseline is None:
                self._baseline = self.evaluator.baseline(self._world)
        world = self._world._copy(LazyRandom(self._chance))
        action_id = order[slot]
        action = next((a for a in world.legal_actions() if a.id == action_id), None)
        self.iterations += 1
        if action is None:
            return  # not legal in this world: no pair for it here
        world.push(action)
        values = self._rollout(world)
        child = self.root.children.get(action_id)
        if child is None:
            child = self.root.children[action_id] = _Child(self.players)
        child.visits += 1
        child.available += 1
        for seat in range(self.players):
            child.totals[seat] += values[seat]
        self._paired[action_id][index] = values[self.player]

    # ----- one iteration -----------------------------------------------------------------
    def _iterate(self) -> None:
        if self.config.paired:
            self._iterate_paired()
            return
        rng = self.rng
        world = self._sample(rng)
        if self._baseline is None:
            # Computed from a world, never from the true state: the baseline is public
            # (scores so far), and this keeps the search a function of what the seat knows.
            self._baseline = self.evaluator.baseline(world)
        node = self.root
        path: list[_Child] = []
        expanded = False
        c = self.config.exploration
        sqrt = math.sqrt
        logs = _LOGS
        if len(logs) <= self.iterations + 1:  # no child is available more often than this
            _grow_logs(2 * self.iterations + 64)
        while not world.is_over:
            legal = world._legal_actions()  # legal_actions() without its over test
            actor = world.current_player
            assert actor is not None
            children = node.children
            if len(legal) == 1:
                action = legal[0]
                child = children.get(action.id)
                if child is None:
                    child = children[action.id] = _Child(self.players)
                child.available += 1
            else:
                # One pass: count each tried child's availability and score it by UCB1 (the
                # scores are thrown away when an untried action is left to expand).
                untried = []
                action = legal[0]
                child = None
                best = -1.0
                for a in legal:
                    ch = children.get(a.id)
                    if ch is None:
                        untried.append(a)
                        continue
                    available = ch.available = ch.available + 1
                    n = ch.visits
                    score = ch.totals[actor] / n + c * sqrt(logs[available] / n) if n else 1e9
                    if score > best:
                        best, action, child = score, a, ch
                if untried:
                    if expanded:
                        break  # one expansion per iteration; the rollout starts here
                    action = untried[rng.randrange(len(untried))]
                    child = children[action.id] = _Child(self.players)
                    child.available += 1
                    expanded = True
                elif child is None:  # no score above -1 (a value below 0): the first
                    child = children[action.id]
            # Legal by construction: apply()'s id lookup skipped, and push()'s note of which
            # moves showed a hidden card too, as in the rollouts (a tree's world never stops
            # at the round's end: that is set for its rollout, after the walk).
            world._rollout_step(action)
            path.append(child)
            if child.node is None:
                child.node = _Node()
            node = child.node
            if expanded:
                break
        values = self._rollout(world)
        if path:
            path[0].squares += values[self.player] ** 2
        for child in path:
            child.visits += 1
            totals = child.totals
            for seat in range(self.players):
                totals[seat] += values[seat]
        self.iterations += 1

    def _rollout(self, world: State) -> list[float]:
        config = self.config
        rng = self.rng
        evaluator = self.evaluator
        policy = config.rollout_policy or self.greedy
        greedy = policy if config.rollout in ("greedy", "mixed") else None
        greedy_steps = (
            config.max_rollout_steps if config.rollout == "greedy" else config.greedy_steps
        )
        baseline = self._baseline
        loop = config.rollout_loop
        if loop is not None and config.evaluator is None and not config.rollout_mix:
            steps = loop(world, rng, baseline, config.max_rollout_steps)
            self.rollout_steps += steps
            return evaluator.evaluate(world, baseline)
        seat_policies = None
        if greedy is not None and config.rollout_mix:
            models = (greedy, *config.rollout_mix)
            seat_policies = [
                greedy if seat == self.player else models[rng.randrange(len(models))]
                for seat in range(self.players)
            ]
        if config.max_rollout_steps <= 0:
            return evaluator.evaluate(world, baseline)  # no rollout: the leaf's value
        steps = 0
        max_steps = config.max_rollout_steps
        stop: Callable[[State, Any], bool] | None = evaluator.stop
        # The generic evaluator's test, inlined (a rollout asks it every step): stop once
        # the round live at the search's start has ended.
        round_end = -1
        if type(evaluator).stop is Evaluator.stop:
            stop = None
            round_end = baseline.rounds if evaluator.stop_at_round_end else -1
        fast = config.greedy_rollout
        if (
            fast is not None
            and stop is None
            and config.rollout == "greedy"
            and config.rollout_policy is None
            and seat_policies is None
        ):
            steps = fast(world, rng, round_end, max_steps)
            self.rollout_steps += steps
            return evaluator.evaluate(world, baseline)
        rounds_played = world.rounds_played
        if round_end >= 0:
            if rounds_played() > round_end:
                max_steps = 0  # the tree's walk ended the round already
            else:
                # The rollout stops at the round's end: stop the world's move there, before
                # the next deal (whose shuffle only the world's own chance pays for, and
                # which no value reads: every game scores the round before its round-end
                # hook), so no step needs to ask whether the round is over.
                world._stop_at_round_end = True
        while steps < max_steps and not world.is_over:
            if stop is not None and stop(world, baseline):
                break
            # The match is not over: legal_actions() without its test (nor a listing cache:
            # a rollout lists each position once).
            legal = world._fresh_actions()
            if len(legal) == 1:
                action = legal[0]
            elif greedy is not None and steps < greedy_steps:
                actor = world.current_player
                assert actor is not None
                play = greedy if seat_policies is None else seat_policies[actor]
                action = play(world.policy_view(actor), legal, rng)
            else:
                action = legal[rng.randrange(len(legal))]
            steps += 1
            if not world._rollout_step(action):
                break  # the round is over and scored, the next one not dealt
        self.rollout_steps += steps
        return evaluator.evaluate(world, baseline)

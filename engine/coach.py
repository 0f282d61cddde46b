"""The coach of a game's first round: what to say, when, and which move to suggest.

Each game has its coach in ``engine/games/<id>/coach.json``: the deals of its coached round,
a checklist (one item per ruling of the game, in the project's own words) and the steps.

The first deal is the coached round: a seed (``{"seed", "players", "options"}``) played from
its start to the end of the first round. Further deals are short lessons for rules that
round cannot bring up (a stall, an emptied draw pile): each also names ``moves``, the action
ids played from its seed to reach the position where the person takes over, a ``title``, and
``until``: the ids of the steps that, once said, complete the lesson (so does the end of a
round). ``tools/find_coach_deals.py --lesson`` finds such positions.
A step is::

    {"id": "queen-special", "rules": ["specials"], "when": {...}, "say": "...",
     "highlight": ["trick"], "suggest": ["play"], "repeat": false, "scoring": false}

``when`` is a condition on what the person may know, every part of it must hold:

- ``turn``: ``"you"`` (the person is to act) or ``"other"``
- ``phase``: a list; the view's ``phase`` is one of them
- ``can``: a list of action kinds; the person may take one of them now
- ``last``: the latest move as the person saw it: ``kind`` (a list), ``by`` (``"you"`` or
  ``"other"``), ``rank`` (a list: one of its cards has such a rank)
- ``view``: a list of tests ``{"path": "a.*.b", <test>}`` on the person's view; ``*`` goes
  through every item of a list or value of an object, ``you`` is the person's seat and
  ``other`` every other seat. The test holds when some value found there passes it:
  ``eq``/``ne`` (``"@you"`` stands for the person's seat), ``in`` (one of a list), ``rank``
  (a card of one of these ranks), ``at_least``/``at_most`` (a number, or the length of a
  list, text or object), ``truthy``
- ``rounds_done``: at least this many rounds are over

A step is said once (unless ``repeat``), the first time its condition holds. ``suggest``
names the kinds of move it recommends: the game's own greedy policy chooses among the
person's legal moves of those kinds, so a suggestion is always legal. On the person's turn a
move is always suggested (the greedy choice among all legal moves when no step names one), so
the coach never leaves the person without a way on. ``scoring`` adds the lines that explain
the score of the round just over (:func:`scoring_lines`).

Everything here reads the person's view, their legal moves and the public words of the
latest move: never a hidden card.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from importlib import resources
from typing import Any

import engine
from engine.core import Action, State

PERSON = 0
"""The person's seat in a coached round; every other seat is the computer."""
BOT_LEVEL = "normal"
BOT_SEED_MASK = 0x5EED
"""The computer's moves draw on ``Random(seed ^ BOT_SEED_MASK)``, as the bridge's do."""

CONDITION_KEYS = {"turn", "phase", "can", "last", "view", "rounds_done"}
LAST_KEYS = {"kind", "by", "rank"}
TEST_KEYS = {"eq", "ne", "in", "rank", "at_least", "at_most", "truthy"}
STEP_KEYS = {"id", "rules", "when", "say", "highlight", "suggest", "repeat", "scoring"}
DEAL_KEYS = {"seed", "players", "options", "moves", "title", "until"}


class CoachError(ValueError):
    """A coach file that does not follow the format above."""


@dataclass(frozen=True)
class Moment:
    """What the person knows at one point: all a trigger may look at."""

    view: dict[str, Any]
    seat: int
    legal: list[Action]
    last: dict[str, Any] | None
    rounds_done: int
    moves: int


@dataclass(frozen=True)
class Coach:
    game: str
    deals: list[dict[str, Any]]
    checklist: dict[str, str]
    steps: list[dict[str, Any]]


_cache: dict[str, Coach] = {}


def load(game: str) -> Coach:
    """The coach of ``game``, read and checked once."""
    if game not in _cache:
        if game not in engine.GAMES:
            raise CoachError(f"unknown game {game!r}")
        path = resources.files(f"engine.games.{game}") / "coach.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        _cache[game] = _check(game, data)
    return _cache[game]


def _check(game: str, data: dict[str, Any]) -> Coach:
    checklist = {item["id"]: item["rule"] for item in data["checklist"]}
    steps = data["steps"]
    seen = set()
    for step in steps:
        where = f"{game} step {step.get('id')!r}"
        if set(step) - STEP_KEYS or not {"id", "rules", "when", "say"} <= set(step):
            raise CoachError(f"{where}: keys must be among {sorted(STEP_KEYS)}")
        if step["id"] in seen:
            raise CoachError(f"{where}: the id is used twice")
        seen.add(step["id"])
        unknown = set(step["rules"]) - set(checklist)
        if unknown:
            raise CoachError(f"{where}: rules not on the checklist: {sorted(unknown)}")
        when = step["when"]
        if set(when) - CONDITION_KEYS:
            raise CoachError(f"{where}: unknown condition {sorted(set(when) - CONDITION_KEYS)}")
        if set(when.get("last", {})) - LAST_KEYS:
            raise CoachError(f"{where}: unknown part of 'last'")
        for test in when.get("view", []):
            if "path" not in test or len(set(test) & TEST_KEYS) != 1 or len(test) != 2:
                raise CoachError(f"{where}: a view test is a path and one of {sorted(TEST_KEYS)}")
    deals = data["deals"]
    for number, deal in enumerate(deals):
        where = f"{game} deal {number}"
        if set(deal) - DEAL_KEYS or not {"seed", "players"} <= set(deal):
            raise CoachError(f"{where}: keys must be among {sorted(DEAL_KEYS)}")
        lesson = {"moves", "title", "until"} & set(deal)
        if number == 0 and lesson:
            raise CoachError(f"{where}: the coached round starts at its deal, not {sorted(lesson)}")
        if number > 0 and lesson != {"moves", "title", "until"}:
            raise CoachError(f"{where}: a lesson names its moves, title and until")
        if set(deal.get("until", [])) - seen:
            raise CoachError(f"{where}: 'until' names unknown steps")
    return Coach(game, deals, checklist, steps)


# ----- the moment, from the person's knowledge only ------------------------------------------


def rounds_done(state: State) -> int:
    """Rounds already scored (public: every score sheet shows them)."""
    return len(state.result().get("rounds") or [])


def moment(state: State, seat: int = PERSON) -> Moment:
    """What ``seat`` knows now: its view, its legal moves when it is to act, the latest move
    as its log shows it (its cards only when the words are not redacted for ``seat``)."""
    last = None
    if state.history:
        action = state.history[-1]
        public = state.public_label(action, seat)
        redacted = public != action.label
        last = {
            "kind": action.kind,
            "by": "you" if action.player == seat else "other",
            "player": action.player,
            "label": public,
            "cards": [] if redacted else list(action.cards),
        }
    legal = state.legal_actions() if state.current_player == seat else []
    return Moment(state.view(seat), seat, legal, last, rounds_done(state), len(state.history))


# ----- the trigger language, evaluated here and nowhere else ---------------------------------


def card_rank(card: Any) -> str | None:
    """The rank of a card id (``"10S"`` -> ``"10"``, ``"2S#2"`` -> ``"2"``, ``"JK3"`` ->
    ``"JK"``); ``None`` for anything that is not a card id.

    >>> [card_rank(c) for c in ("10S", "QH", "2S#2", "JK3", "stock", 4)]
    ['10', 'Q', '2', 'JK', None, None]
    """
    if not isinstance(card, str):
        return None
    card = card.split("#", 1)[0]
    if card.startswith("JK") and card[2:].isdigit():
        return "JK"
    rank, suit = card[:-1], card[-1:]
    if suit in ("S", "H", "D", "C") and (rank in ("A", "J", "Q", "K") or rank.isdigit()):
        return rank
    return None


def _walk(value: Any, parts: list[str], seat: int) -> list[Any]:
    if not parts:
        return [value]
    head, rest = parts[0], parts[1:]
    out: list[Any] = []
    if head == "*":
        items = value.values() if isinstance(value, dict) else value
        if isinstance(items, (list, tuple)) or isinstance(value, dict):
            for item in items:
                out += _walk(item, rest, seat)
        return out
    if isinstance(value, dict):
        return _walk(value[head], rest, seat) if head in value else []
    if isinstance(value, list):
        if head == "you":
            indexes = [seat]
        elif head == "other":
            indexes = [i for i in range(len(value)) if i != seat]
        elif head.isdigit():
            indexes = [int(head)]
        else:
            return []
        for i in indexes:
            if i < len(value):
                out += _walk(value[i], rest, seat)
    return out


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def _passes(value: Any, test: dict[str, Any], seat: int) -> bool:
    if "eq" in test or "ne" in test:
        want = test.get("eq", test.get("ne"))
        want = seat if want == "@you" else want
        return (value == want) == ("eq" in test)
    if "in" in test:
        return value in test["in"]
    if "rank" in test:
        return any(card_rank(leaf) in test["rank"] for leaf in _leaves(value))
    if "at_least" in test or "at_most" in test:
        size = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
        if isinstance(value, (list, str, dict)):
            size = len(value)
        if size is None:
            return False
        return size >= test["at_least"] if "at_least" in test else size <= test["at_most"]
    return bool(value) == bool(test["truthy"])


def holds(when: dict[str, Any], m: Moment) -> bool:
    """Whether the condition ``when`` holds at the moment ``m``."""
    turn = when.get("turn")
    if turn is not None and (bool(m.legal) != (turn == "you")):
        return False
    if "phase" in when and m.view.get("phase") not in when["phase"]:
        return False
    if "can" in when and not any(a.kind in when["can"] for a in m.legal):
        return False
    if "rounds_done" in when and m.rounds_done < when["rounds_done"]:
        return False
    last = when.get("last")
    if last is not None:
        if m.last is None:
            return False
        if "kind" in last and m.last["kind"] not in last["kind"]:
            return False
        if "by" in last and m.last["by"] != last["by"]:
            return False
        if "rank" in last and not any(card_rank(c) in last["rank"] for c in m.last["cards"]):
            return False
    for test in when.get("view", []):
        found = _walk(m.view, test["path"].split("."), m.seat)
        if not any(_passes(value, test, m.seat) for value in found):
            return False
    return True


# ----- advice --------------------------------------------------------------------------------


def suggestion(game: str, m: Moment, kinds: list[str] | None) -> Action | None:
    """The move suggested among the person's legal moves of ``kinds`` (any kind when
    ``None``): the game's greedy choice when it is of one of those kinds, else the first legal
    move of them; ``None`` when there is no such move."""
    if not m.legal:
        return None
    policy = engine.GAMES[game].bot.greedy
    best = policy(m.view, m.legal, random.Random(m.moves))
    if kinds is None or best.kind in kinds:
        return best
    return next((a for a in m.legal if a.kind in kinds), None)


def why(game: str, view: dict[str, Any], action: Action | None) -> str | None:
    """The suggested move's reason in a player's words ("It closes the hearts stack."), read
    off the person's own view by the game's words (its ``purpose``), or ``None``."""
    if action is None:
        return None
    text = engine.GAMES[game].purpose(view, action)
    return f"It {text}." if text else None


def advise(
    state: State,
    shown: set[str] | list[str],
    seat: int = PERSON,
    deal: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The coach at this point: the steps that speak now (those not yet ``shown``, and the
    repeating ones when nothing new speaks), the move suggested, and whether the coached
    round (or the lesson ``deal``) is over. Texts keep seat tokens (``{seat1}``) for the
    caller to name."""
    coach = load(state.game_id)
    m = moment(state, seat)
    fresh, again = [], []
    for step in coach.steps:
        if not holds(step["when"], m):
            continue
        if step["id"] not in shown:
            fresh.append(step)
        elif step.get("repeat"):
            again.append(step)
    speaking = fresh or again[:1]
    suggested = None
    for step in speaking:
        if step.get("suggest"):
            suggested = suggestion(state.game_id, m, step["suggest"])
            if suggested is not None:
                break
    if suggested is None and m.legal:
        suggested = suggestion(state.game_id, m, None)
    messages = []
    for step in speaking:
        message = {
            "id": step["id"],
            "rules": list(step["rules"]),
            "text": step["say"],
            "repeat": bool(step.get("repeat")),
            "highlight": list(step.get("highlight", [])),
            "lines": scoring_lines(state.game_id, m.view, seat) if step.get("scoring") else [],
        }
        messages.append(message)
    said = set(shown) | {step["id"] for step in speaking}
    until = set(deal.get("until", [])) if deal else set()
    done = m.rounds_done >= 1 or bool(until and until <= said)
    return {
        "messages": messages,
        "suggestion": suggested,
        "why": why(state.game_id, m.view, suggested),
        "done": done,
        "last_cards": m.last["cards"] if m.last else [],
    }


# ----- the round's score, line by line -------------------------------------------------------


def scoring_lines(game: str, view: dict[str, Any], viewer: int) -> list[str]:
    """The score of the round just over, explained line by line from the engine's own
    breakdown (``view["last_round"]``) by the game's words (its ``score_lines``)."""
    last = view.get("last_round")
    if not last:
        return []
    return engine.GAMES[game].score_lines(last, viewer)


# ----- a coached round, played out by following the coach ------------------------------------


def start(game: str, deal: dict[str, Any]) -> State:
    """A coached deal's first state: its seed's, after the lesson's ``moves``."""
    state = engine.new_game(game, deal["players"], deal["seed"], deal.get("options"))
    for move in deal.get("moves", []):
        state.apply(move)
    return state


def follow(game: str, deal: dict[str, Any], max_moves: int = 5000) -> dict[str, Any]:
    """Play a coached deal out: the person takes every suggestion, the computer seats play
    the ``normal`` bot as in the page. Stops once the first round is scored (or the lesson is
    complete). Returns the steps said (in order), the checklist rules covered and the number
    of moves."""
    from engine import bots

    state = start(game, deal)
    bot = bots.make(BOT_LEVEL)
    bot_rng = random.Random(deal["seed"] ^ BOT_SEED_MASK)
    said: list[str] = []
    rules: set[str] = set()
    suggestions = 0
    coach = load(game)
    steps = {s["id"]: s for s in coach.steps}
    for _ in range(max_moves):
        advice = advise(state, set(said), deal=deal)
        for message in advice["messages"]:
            if message["id"] not in said:
                said.append(message["id"])
            rules.update(steps[message["id"]]["rules"])
        if advice["done"] or state.is_over:
            break
        current = state.current_player
        if current == PERSON:
            action = advice["suggestion"]
            state.apply(action.id)  # raises if the suggestion were not legal
            suggestions += 1
        elif current is not None:
            state.apply(bot.choose(state, current, bot_rng))
    return {"said": said, "rules": rules, "moves": len(state.history), "turns": suggestions}

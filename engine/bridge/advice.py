"""Advice to a person: the Hard search's analysis of a position (``analyse``), its best move
as a hint (``hint``), and the coach of a coached round (``coach``).

>>> iterations_of({"iterations": 200}), iterations_of({})
(200, None)
>>> iterations_of({"iterations": 0})
Traceback (most recent call last):
...
engine.bridge.plumbing.BridgeError: 'iterations' must be between 1 and 20000
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import engine
from engine import coach as coaching
from engine.bots import analysis as analysing
from engine.bots.ismcts import settings_of
from engine.bridge.desk import DESK
from engine.bridge.plumbing import BridgeError, endpoint, text
from engine.bridge.progress import drive, drive_for
from engine.bridge.session import Session, friend_seat, seats_from
from engine.bridge.tape import ReplayTape
from engine.core import State

HINT_TIME_MS = 10_000
"""The most time a hint or an analysis at its default budget (the Hard level's iterations,
about 0.75 s in the page) may think: a slow device stops there, on fewer worlds."""
REVIEW_TIME_MS = 2_000
"""The most time the review's search of one past move may think at its default budget (about
0.2 s in the page): a slow device stops there, on fewer worlds."""
MAX_ANALYSIS_ITERATIONS = 20_000
MAX_SLICE_MS = 10_000
"""The longest slice of a search that ``analyse`` may be asked for (``slice_ms``)."""


def analysis_of(
    session: Session, state: State, player: int, iterations: int | None, review: bool = False
) -> analysing.Analysis:
    """The Hard search's analysis of ``state`` from ``player``'s seat, with the rng seeded by
    the number of moves made (public) and the given budget (default: the game's Hard budget,
    stopped after :data:`HINT_TIME_MS`; for a ``review``, the review's smaller budget,
    :func:`engine.bots.analysis.review_budget`, stopped after :data:`REVIEW_TIME_MS`); the
    latest one is kept for the same position."""
    result: analysing.Analysis = drive(thinking_of(session, state, player, iterations, review))
    return result


def thinking_of(
    session: Session, state: State, player: int, iterations: int | None, review: bool = False
) -> Generator[float, None, analysing.Analysis]:
    """:func:`analysis_of` as a generator of the fractions done (none for an analysis kept),
    returning the analysis: what :func:`analyse` drives in slices."""
    wanted: int | str | None = "review" if review and iterations is None else iterations
    key = (tuple(a.id for a in state.history), player, wanted)
    cached = session.analysis
    if cached is not None and cached[0][:2] == key[:2]:
        # The default budget asked for as a number is searched without a clock: what a
        # request for the default gives when its clock does not stop it first. Reused.
        asked = cached[0][2]
        if asked == wanted or (iterations is None and asked == default_budget(state)):
            return cached[1]
    budget, clock = iterations, HINT_TIME_MS if iterations is None else None
    if wanted == "review":
        budget = analysing.review_budget(state.game_id, state.players)
        clock = REVIEW_TIME_MS
    rng = random.Random(len(state.history))
    result = yield from analysing.analyse(state, player, rng, budget, clock)
    session.analysis = (key, result)
    return result


def forced_steps(session: Session, tape: ReplayTape) -> list[int]:
    """The steps of a finished match at which a person's seat had one legal move: the review
    marks them at once, with no search and no request of their own."""
    state = tape.state_at(0)
    out = []
    for step, action_id in enumerate(tape.actions):
        seat = state.current_player
        if seat is not None and session.seats[seat].type == "human":
            if len(state.legal_actions()) == 1:
                out.append(step)
        state.apply(action_id)
    return out


def default_budget(state: State) -> int:
    return settings_of(state.game_id, state.players).hard_iterations


def analysis_json(session: Session, result: analysing.Analysis) -> dict[str, Any]:
    moves = []
    for move in result.moves:
        out = session.action_json(move.action)
        out.update(move.to_json())
        moves.append(out)
    return {
        "player": result.player,
        "measure": result.measure,
        "estimated": result.estimated,
        "iterations": result.iterations,
        "budget": result.budget,
        "best": result.best.id,
        "tied": len(result.tied()),
        "reason": session.names(result.reason(lambda action: action.label)),
        "moves": moves,
    }


def iterations_of(params: dict[str, Any]) -> int | None:
    value = params.get("iterations")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BridgeError("'iterations' must be a whole number", "bad_request")
    if not 1 <= value <= MAX_ANALYSIS_ITERATIONS:
        raise BridgeError(
            f"'iterations' must be between 1 and {MAX_ANALYSIS_ITERATIONS}", "bad_request"
        )
    return value


@endpoint
def hint(params: dict[str, Any]) -> dict[str, Any]:
    """The best move for the human seat to act, with its reason in plain words: the first
    move of :func:`analyse` for the same position and ``{iterations?}``. With ``seat``, for
    that friend's seat on its turn (the search sees only what that seat may know)."""
    session = DESK.need_session()
    state = session.state
    current = state.current_player
    seat = friend_seat(session, params)
    kind = "human" if seat is None else "friend"
    if current is None or session.seats[current].type != kind or seat not in (None, current):
        raise BridgeError("there is no move of yours to suggest", "not_your_turn")
    result = analysis_of(session, state, current, iterations_of(params))
    first = result.moves[0]
    return {
        "action": session.action_json(first.action),
        "level": "hard",
        "reason": session.names(result.reason(lambda action: action.label)),
        "worlds": first.worlds,
    }


@dataclass
class KeptSearch:
    """A search that ``analyse`` in slices left unfinished, and what makes its reply."""

    thinking: Generator[float, None, analysing.Analysis]
    reply: Callable[[analysing.Analysis], dict[str, Any]]


def slice_of(params: dict[str, Any]) -> float | None:
    """A request's ``slice_ms`` in seconds; None when absent (search to the end)."""
    value = params.get("slice_ms")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SLICE_MS:
        raise BridgeError(
            f"'slice_ms' must be a whole number of milliseconds from 1 to {MAX_SLICE_MS}",
            "bad_request",
        )
    return value / 1000.0


def go_on(kept: KeptSearch, seconds: float | None) -> dict[str, Any]:
    """Drive ``kept`` for a slice of ``seconds`` (None: to the end): its reply once it is
    done, else ``{unfinished, fraction}`` with the search kept on the desk."""
    DESK.search = None
    done, value = drive_for(kept.thinking, seconds)
    if not done:
        DESK.search = kept
        return {"unfinished": True, "fraction": round(float(value), 4)}
    return kept.reply(value)


@endpoint
def analyse(params: dict[str, Any]) -> dict[str, Any]:
    """What the Hard search sees from a person's seat: ``{step?, iterations?, slice_ms?}``.

    Without ``step``: the position now, on a human seat's turn. With ``step`` (once the
    match is over): the position before the match's ``step``-th action (0-based), which a
    human seat took; the reply then names the move taken and its rank (``taken``). The
    search works from worlds that seat could not tell apart (``determinize``); progress goes
    to the ``on_progress`` sink. Reply: ``{player, measure, estimated, iterations,
    budget, best, reason, moves: [{id, label, cards, rank, worlds, value, win, points}],
    taken?, forced?}``; see :mod:`engine.bots.analysis` for the figures. A past move is
    searched with the review's budget unless ``iterations`` says otherwise, and the reply
    names every ``forced`` step (a person's only legal move, ranked without a search). With
    ``record`` (and
    ``seats``), a finished match file's ``step`` is analysed instead of the table's match,
    which is left untouched (the review of a match kept in the history).

    In slices: with ``slice_ms``, the search stops after about that long (a chunk of its
    iterations at least) and, if it is not done, the reply is ``{unfinished: true,
    fraction}``: the search is kept, and ``{more: true, slice_ms?}`` goes on with it from
    where it stopped (its other parameters are the first request's), to the reply that one
    request without ``slice_ms`` gives. Any other ``analyse`` drops a kept search. The
    worker answers other requests between slices, and a search the page stops asking more
    of (the review's Stop) stops within a slice.
    """
    seconds = slice_of(params)
    more = params.get("more", False)
    if not isinstance(more, bool):
        raise BridgeError("'more' must be true or false", "bad_request")
    if more:
        if DESK.search is None:
            raise BridgeError("there is no unfinished analysis to go on with", "nothing_kept")
        return go_on(DESK.search, seconds)
    DESK.search = None
    return go_on(analysis_request(params), seconds)


def analysis_request(params: dict[str, Any]) -> KeptSearch:
    """The search an ``analyse`` request asks for, not yet begun, and its reply's maker."""
    if params.get("record") is not None:
        tape = DESK.tape_for(params.get("record"))
        session = Session(tape.final, seats_from(params, tape.final.players))
    else:
        session = DESK.need_session()
    iterations = iterations_of(params)
    step = params.get("step")
    if step is None:
        state = session.state
        current = state.current_player
        if current is None or session.seats[current].type != "human":
            raise BridgeError("there is no move of yours to analyse now", "not_your_turn")
        return KeptSearch(
            thinking_of(session, state, current, iterations),
            lambda result: analysis_json(session, result),
        )
    if isinstance(step, bool) or not isinstance(step, int):
        raise BridgeError("'step' must be a whole number of moves", "bad_step")
    history = session.state.history
    if not session.state.is_over:
        raise BridgeError("past moves can be analysed once the match is over", "not_finished")
    if not 0 <= step < len(history):
        raise BridgeError(f"'step' must be from 0 to {len(history) - 1}", "bad_step")
    taken = history[step]
    if session.seats[taken.player].type != "human":
        raise BridgeError("that move was not made by a person", "bad_step")
    tape = DESK.tape_for(session.state.to_record())
    state = tape.state_at(step)

    def reply(result: analysing.Analysis) -> dict[str, Any]:
        out = analysis_json(session, result)
        out["forced"] = forced_steps(session, tape)
        mine = next(m for m in out["moves"] if m["id"] == taken.id)
        out["taken"] = {
            "id": taken.id,
            "rank": mine["rank"],
            "group": mine["group"],
            "placed": mine["placed"],
        }
        return out

    return KeptSearch(thinking_of(session, state, taken.player, iterations, True), reply)


@endpoint
def coach(params: dict[str, Any]) -> dict[str, Any]:
    """The coach of a coached round at this point: ``{shown?: [step ids], deal?: n}`` ->
    ``{messages, suggestion, done, last_cards}`` (see :mod:`engine.coach`), for the human seat;
    ``deal`` is the number of the game's deal on the table (0, the coached round, by default:
    a lesson is done once its ``until`` steps are said).

    ``{game}`` alone (no ``shown``) gives the game's coached deals instead: ``{deals}``, each
    lesson with the ``record`` that puts its position on the table (for ``load``)."""
    if "game" in params:
        game = text(params, "game")
        if game not in engine.GAMES:
            raise BridgeError(f"there is no game called {game[:40]!r}", "unknown_game")
        deals = [dict(deal) for deal in coaching.load(game).deals]
        for deal in deals[1:]:
            deal["record"] = coaching.start(game, deal).to_record()
        return {"deals": deals, "seat": coaching.PERSON}
    session = DESK.need_session()
    shown = params.get("shown", [])
    if not isinstance(shown, list) or not all(isinstance(s, str) for s in shown):
        raise BridgeError("'shown' must be a list of step ids", "bad_request")
    number = params.get("deal", 0)
    deals = coaching.load(session.state.game_id).deals
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(deals):
        raise BridgeError(f"'deal' must be a number from 0 to {len(deals) - 1}", "bad_request")
    humans = session.humans()
    if not humans:
        raise BridgeError("the coach needs a person at the table", "no_person")
    advice = coaching.advise(session.state, set(shown), humans[0], deals[number])
    action = advice["suggestion"]
    for message in advice["messages"]:
        message["text"] = session.names(message["text"])
        message["lines"] = [session.names(line) for line in message["lines"]]
    return {
        "messages": advice["messages"],
        "suggestion": session.action_json(action) if action is not None else None,
        "why": session.names(advice["why"]) if advice["why"] else None,
        "done": advice["done"],
        "last_cards": advice["last_cards"],
    }

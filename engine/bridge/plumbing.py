"""The bridge's plumbing: a request's JSON text in, the reply's JSON text out, and every
failure turned into an error object (the page never sees a traceback).

>>> echo = endpoint(lambda params: {"got": params})
>>> echo('{"a": 1}')
'{"got": {"a": 1}}'
>>> json.loads(echo("[1]"))["error"]
{'code': 'bad_request', 'message': 'parameters must be a JSON object'}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engine.bridge.logs import send_held
from engine.core import EngineError

MAX_INPUT_CHARS = 2_000_000


class BridgeError(EngineError):
    """A request the bridge refuses (bad JSON, no session, an unknown seat...); its
    arguments in the order of :class:`EngineError`'s: the message, then the code."""


def parse(params: str | None) -> dict[str, Any]:
    if params is None or params == "":
        return {}
    if not isinstance(params, str):
        raise BridgeError("parameters must be JSON text", "bad_request")
    if len(params) > MAX_INPUT_CHARS:
        raise BridgeError("the request is too large", "too_large")
    try:
        value = json.loads(params)
    except (ValueError, RecursionError) as exc:
        raise BridgeError(
            f"the request is not valid JSON ({exc.__class__.__name__})", "bad_json"
        ) from exc
    if not isinstance(value, dict):
        raise BridgeError("parameters must be a JSON object", "bad_request")
    return value


def held_logs(value: Any) -> dict[str, tuple[str, int]]:
    """A request's ``log_have``: ``{viewer: [generation, count]}``, the viewer as text
    ("0", "1"... or "null"); none when absent."""
    if value is None:
        return {}
    problem = BridgeError(
        "'log_have' must map each viewer to the [generation, count] of the log entries held",
        "bad_request",
    )
    if not isinstance(value, dict) or len(value) > 16:
        raise problem
    held = {}
    for viewer, pair in value.items():
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and isinstance(pair[0], str)
            and type(pair[1]) is int
            and pair[1] >= 0
        ):
            raise problem
        held[viewer] = (pair[0], pair[1])
    return held


def endpoint(fn: Callable[[dict[str, Any]], Any]) -> Callable[..., str]:
    """Wrap a handler: parse, run, and turn every failure into an error object. The
    request's ``log_have`` is taken off the parameters and cuts the reply's logs."""

    def wrapper(params: str | None = None) -> str:
        try:
            parsed = parse(params)
            held = held_logs(parsed.pop("log_have", None))
            result = fn(parsed)
            send_held(result, held)
        except EngineError as exc:
            result = {"error": {"code": exc.code, "message": exc.message}}
        except Exception as exc:  # the page must never see a traceback
            message = f"the engine failed: {exc.__class__.__name__}: {exc}"
            result = {"error": {"code": "internal_error", "message": message[:500]}}
        return json.dumps(result)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def text(params: dict[str, Any], key: str, default: str | None = None) -> str:
    value = params.get(key, default)
    if not isinstance(value, str):
        raise BridgeError(f"{key!r} must be text", "bad_request")
    return value

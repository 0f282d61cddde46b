"""Calling the bridge the way the page's worker does: JSON text in, parsed JSON out."""

from __future__ import annotations

import json
from typing import Any

from engine import bridge


def call(method: str, params: Any = None) -> Any:
    """Call an endpoint with ``params`` encoded as JSON and parse the reply."""
    text = getattr(bridge, method)(None if params is None else json.dumps(params))
    assert isinstance(text, str)
    return json.loads(text)

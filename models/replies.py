"""The one parser for structured LLM replies: the JSON value a model wrote, wherever it wrote it.

Models wrap JSON in prose, code fences or a second attempt; guided decoding returns it bare. The
first complete JSON value of the wanted type wins.
"""

from __future__ import annotations

import json
from typing import Any

_DECODER = json.JSONDecoder()


def find_json(text: str, kind: type = dict) -> Any | None:
    """The first JSON value of type `kind` (dict or list) in `text`, or None when there is none."""
    opener = "{" if kind is dict else "["
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, kind):
        return whole
    start = text.find(opener)
    while start >= 0:
        try:
            value, _ = _DECODER.raw_decode(text, start)
        except ValueError:
            value = None
        if isinstance(value, kind):
            return value
        start = text.find(opener, start + 1)
    return None

"""Does a question ask for several things (a set, a list, an aggregate)? Then it needs more evidence units.

Lexical cues, checked against CRAG's labelled validation questions (set and aggregation types):
"name …", "list …", "what are the …", "who were …", a count word ("three", "top 5"), "all" / "every",
"how many", or a plural noun right after "what" / "which".
"""

from __future__ import annotations

import re

_COUNT = r"(?:two|three|four|five|six|seven|eight|nine|ten|\d+)"
_LIST_CUES = re.compile(
    rf"^(?:name|list)\b|\b(?:what|which|who) (?:are|were|have been)\b|\b(?:all|every|members|names)\b"
    rf"|\btop {_COUNT}\b|\b(?:first|last) {_COUNT}\b|\b{_COUNT} (?:\w+ )?(?:\w+s)\b|\bhow many\b",
    re.IGNORECASE,
)
_PLURAL_AFTER_WH = re.compile(r"\b(?:what|which)(?: [\w-]+)?? ([\w-]+s)\b", re.IGNORECASE)
_NOT_PLURAL = frozenset("is was has does this his its us yes as thus less always perhaps".split())


def asks_for_several(query: str) -> bool:
    if _LIST_CUES.search(query):
        return True
    return any(
        word.lower() not in _NOT_PLURAL and not word.lower().endswith("ss")
        for word in _PLURAL_AFTER_WH.findall(query)
    )

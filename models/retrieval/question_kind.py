"""Does a question ask for several things (a set, a list, an aggregate)? Then it needs more evidence units.

Lexical cues, checked against CRAG's labelled validation questions (set and aggregation types):
"name …", "list …", "what are the …", "who were …", a count word ("three", "top 5"), "all" / "every",
"how many", or a plural noun right after "what" / "which".

What kind of value does it ask for? A date ("when", "what year", "date of birth") or a number ("how
many", "how tall", "price", "population"): a sentence holding one is more likely to state the answer.
"""

from __future__ import annotations

import re
from typing import Literal

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


AnswerType = Literal["date", "number"]

# What a question asks for, when its words say so (dates before numbers: "how old" is a number,
# "what year" a date).
_DATE_CUES = re.compile(
    r"\bwhen\b|\b(?:what|which) (?:year|date|day|month|decade|century)\b|\bdate of\b|\bbirthday\b",
    re.IGNORECASE,
)
_NUMBER_CUES = re.compile(
    r"\bhow (?:many|much|long|big|large|tall|old|far|high|heavy|fast|deep|wide|often)\b"
    r"|\b(?:number|amount|price|cost|population|percentage|size|height|length|weight|revenue|salary|worth|age)\b",
    re.IGNORECASE,
)
# "may" is left out: as a verb it is far more common than the month.
_MONTHS = "january february march april june july august september october november december"
_DATE = re.compile(rf"\b(?:1\d{{3}}|20\d{{2}}|{'|'.join(_MONTHS.split())})\b", re.IGNORECASE)
_NUMBER_WORDS = "one two three four five six seven eight nine ten eleven twelve dozen hundred thousand million billion"
_NUMBER = re.compile(rf"\d|\b(?:{'|'.join(_NUMBER_WORDS.split())})\b", re.IGNORECASE)


def expected_answer(query: str) -> AnswerType | None:
    """The kind of value the question asks for, when its words say so."""
    if _DATE_CUES.search(query):
        return "date"
    if _NUMBER_CUES.search(query):
        return "number"
    return None


def holds_answer(kind: AnswerType, text: str) -> bool:
    """Whether `text` holds a value of that kind (a year or a month name; a digit or a number word)."""
    return bool((_DATE if kind == "date" else _NUMBER).search(text))

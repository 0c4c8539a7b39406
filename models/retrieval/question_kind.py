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

from models import vocabulary

_LIST_CUES = re.compile(vocabulary.LIST_CUES, re.IGNORECASE)
_PLURAL_AFTER_WH = re.compile(vocabulary.PLURAL_AFTER_WH, re.IGNORECASE)


def asks_for_several(query: str) -> bool:
    if _LIST_CUES.search(query):
        return True
    return any(
        word.lower() not in vocabulary.NOT_PLURAL and not word.lower().endswith("ss")
        for word in _PLURAL_AFTER_WH.findall(query)
    )


AnswerType = Literal["date", "number"]

_DATE_CUES = re.compile(vocabulary.DATE_CUES, re.IGNORECASE)
_NUMBER_CUES = re.compile(vocabulary.NUMBER_CUES, re.IGNORECASE)
_DATE = re.compile(vocabulary.DATE_IN_TEXT, re.IGNORECASE)
_NUMBER = re.compile(vocabulary.NUMBER_IN_TEXT, re.IGNORECASE)


def expected_answer(query: str) -> AnswerType | None:
    """The kind of value the question asks for, when its words say so (dates before numbers: "how
    old" is a number, "what year" a date)."""
    if _DATE_CUES.search(query):
        return "date"
    if _NUMBER_CUES.search(query):
        return "number"
    return None


def holds_answer(kind: AnswerType, text: str) -> bool:
    """Whether `text` holds a value of that kind (a year or a month name; a digit or a number word)."""
    return bool((_DATE if kind == "date" else _NUMBER).search(text))

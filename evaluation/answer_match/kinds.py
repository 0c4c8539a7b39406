"""The kind of a gold answer, which decides the rules that read it."""

from __future__ import annotations

import enum

from evaluation.answer_match.cues import INVALID, PHRASE_MAX_WORDS
from evaluation.answer_match.lists import list_items, reads_as_list
from evaluation.answer_match.polarity import polarity_of
from evaluation.answer_match.reading import tokens, words
from evaluation.answer_match.values import qualified, single_value
from evaluation.answer_match.verdicts import is_refusal


class Kind(enum.Enum):
    """The kind of a gold answer, which decides the rule that reads it."""

    NONE = "none"  # nothing to match: empty, "nan", "i don't know"
    INVALID = "invalid question"
    POLARITY = "yes/no"
    VALUE = "value"  # one number or date, with at most a few words: "5 times", "$45 million"
    LIST = "list"  # comma-separated short items: "solid, liquid and gas"
    PHRASE = "phrase"  # a name, a title, a few words (also read as a list and a sentence when it fits)
    SENTENCE = "sentence"


def answer_kind(gold: str, question: str = "") -> Kind:
    """The kind of `gold`; the question tells a list of titles ("what are his last three movies?")."""
    gold_words = words(gold)
    if not gold_words or gold.strip().lower() == "nan" or is_refusal(gold):
        return Kind.NONE
    if gold_words == INVALID:
        return Kind.INVALID
    if polarity_of(tokens(gold)):
        return Kind.POLARITY
    if single_value(gold_words) is not None and not qualified(tokens(gold)):
        return Kind.VALUE
    if reads_as_list(list_items(tokens(gold), at=frozenset()), question):
        return Kind.LIST
    return Kind.PHRASE if len(gold_words) <= PHRASE_MAX_WORDS else Kind.SENTENCE

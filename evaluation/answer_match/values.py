"""A gold answer that is one value ("1973-07-17", "5 times", "$45 million").

A value of the prediction equals it: correct. A rounded or less specific value ("$35.8" for "$35.78",
"2013" for "October 17, 2013"), another unit of the same kind ("1,201 feet" for "366 m"), other words for
its unit or other values beside it are unsure; only other values, or the same number in another unit of
its kind ("366 feet", "39.3 cubic meters" for "39.3 cubic feet"): wrong. A change the other way is wrong
("rose by $1.15" for "-$1.15"; "lost $9 billion", asked how much it gained).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from evaluation.answer_match.cues import (
    COUNT_WORDS,
    COUNTED_SYNONYMS,
    DOWN_WORDS,
    FILLERS,
    FUNCTION_WORDS,
    QUALIFIERS,
    UP_WORDS,
)
from evaluation.answer_match.entities import Prediction, says_more
from evaluation.answer_match.reading import (
    BREAKS,
    STOP,
    Agreement,
    Date,
    Quantity,
    Token,
    agree,
    is_year,
    magnitude,
    stated_in,
    stem,
    words,
)
from evaluation.answer_match.verdicts import Verdict, capped, unsure_if


def value_alternatives(gold: str) -> list[str]:
    """The two parts of a gold answer that gives one value two ways ("78.7 million less or a -66.7%
    decrease"); empty when it does not."""
    parts = re.split(r"\s+or\s+", gold.strip())
    if len(parts) != 2 or "," in gold:
        return []
    if all(any(isinstance(t, (Quantity, Date)) for t in words(part)) for part in parts):
        return parts
    return []


def single_value(gold_words: Sequence[Token]) -> Quantity | Date | None:
    """The value of an answer that is one value with a few words after it ("5 times", "over 1 year"),
    not a name with a number in it ("dune: part two")."""
    values = [i for i, t in enumerate(gold_words) if isinstance(t, (Quantity, Date))]
    if len(values) != 1:
        return None
    before, after = gold_words[: values[0]], gold_words[values[0] + 1 :]
    if any(t not in FUNCTION_WORDS | FILLERS | QUALIFIERS for t in before):
        return None
    if any(t in FUNCTION_WORDS and t not in ("of", "per") for t in after):
        return None  # "13 years at oracle" is about oracle
    return gold_words[values[0]] if len(after) <= 3 else None


def qualified(wanted: Sequence[Token]) -> bool:
    """Whether words follow a phrase break after the gold's value: a title with a qualifier ("1989
    (taylor's version)"), not a value with its unit ("5 times")."""
    at = next(i for i, t in enumerate(wanted) if isinstance(t, (Quantity, Date)))
    rest = wanted[at + 1 :]
    return STOP in rest and any(isinstance(t, str) and t not in BREAKS for t in rest[rest.index(STOP) :])


def value_verdict(
    said: Prediction, gold_words: Sequence[Token], question: str, value: Token | None = None
) -> Verdict:
    """The verdict on a prediction for the gold's one value (or `value`, a sentence's key value, with the
    sentence's words as `gold_words`: what the prediction may say besides it)."""
    value = single_value(gold_words) if value is None else value
    asked = words(question)
    stated = [t for t in said.words if isinstance(t, (Quantity, Date))]
    own = [t for t in stated if not stated_in(t, asked)]
    # "36 Masters 1000 titles": the question's 1000 is no answer, where the prediction gives another value
    if own and value is not None and not stated_in(value, asked):
        stated = own
    if _direction(said.words) == _direction(gold_words) == "down":  # "a loss of $3.26" for "-$3.26"
        value, stated = magnitude(value), [magnitude(t) for t in stated]
    agreements = {agree(t, value) for t in stated}
    if Agreement.SAME in agreements:
        if isinstance(value, Quantity) and not is_year(value):
            stated = [
                t for t in stated if not is_year(t)
            ]  # "7 titles since 2019" states 7 and no other count
        if {agree(t, value) for t in stated} & {Agreement.CONFLICT, Agreement.NEAR}:  # "5 or 7"; "7 to his 2"
            return unsure_if(not said.hedged)
        changed = direction_verdict(said, gold_words, question)
        if changed is not None:  # "it lost $926 billion", asked how much it gained
            return changed
        if says_more(said, [*gold_words, magnitude(value)], question) or _other_unit(
            said, gold_words, value, question
        ):
            return Verdict.UNSURE  # "1122 cubic meters" for "1122 square meters"
        return capped(said)
    if Agreement.NEAR in agreements:
        return Verdict.UNSURE
    if _direction(words(question)) == "down" and any(
        agree(magnitude(t), value) is Agreement.SAME for t in stated
    ):
        return Verdict.UNSURE  # "-$5" for "$5", asked how much it fell
    if not stated and said.says_zero and isinstance(value, Quantity) and value.value != 0:
        return Verdict.WRONG  # "none" for "1", "he has never won it" for "once"
    return unsure_if(not stated)  # another value, or another kind of value ("5%" for "$5")


def _direction(text: Sequence[Token]) -> str | None:
    """Which way a text says a value changed: "down" (a fall, a loss, a negative value), "up", "mixed"
    (both) or None."""
    down = any(t in DOWN_WORDS or (isinstance(t, Quantity) and t.value < 0) for t in text)
    up = any(t in UP_WORDS and not (t == "up" and "to" in text[i + 1 : i + 2]) for i, t in enumerate(text))
    return "mixed" if up and down else "down" if down else "up" if up else None


def direction_verdict(said: Prediction, gold_words: Sequence[Token], question: str) -> Verdict | None:
    """Wrong when the prediction says the value changed the other way than the gold says (or, when the
    gold does not say, the question: "how much has it gained"); unsure when neither tells and the
    prediction says it fell; None when nothing is against it."""
    said_way = _direction(said.words)
    if said_way is None:
        return None
    wanted = _direction(gold_words)
    if wanted is None:
        asked = _direction(words(question))
        wanted = None if asked == "mixed" else asked
    if wanted is None:
        return None if said_way == "up" else Verdict.UNSURE  # a gold without a sign is not a fall
    if "mixed" in (said_way, wanted):
        return Verdict.UNSURE
    return None if said_way == wanted else Verdict.WRONG


def _other_unit(said: Prediction, gold_words: Sequence[Token], value: Token, question: str) -> bool:
    """Whether the prediction writes the gold's value with words the gold's own unit words ("square
    meters") and the question do not have ("cubic meters", "square feet"): units the rules do not know."""
    at = next(i for i, t in enumerate(gold_words) if magnitude(t) == magnitude(value))
    if not any(isinstance(t, str) for t in gold_words[at + 1 :]):
        return False
    known = [*gold_words, *words(question)]
    for i, token in enumerate(said.tokens):
        if agree(magnitude(token), magnitude(value)) is not Agreement.SAME:
            continue
        for following in said.tokens[i + 1 : i + 4]:
            if not isinstance(following, str) or following in BREAKS or following in FUNCTION_WORDS:
                break
            if following not in FILLERS | COUNT_WORDS | DOWN_WORDS | UP_WORDS and not (
                stated_in(following, known) or counts_alike(following, known)
            ):
                return True
    return False


def counts_alike(noun: Token, nouns: Sequence[Token]) -> bool:
    """Whether a noun is another word for one of `nouns` that counts the same things ("films" for
    "movies", "titles" for "championships": cues.py, COUNTED_SYNONYMS)."""
    found = {stem(t) for t in nouns if isinstance(t, str)}
    return any(stem(noun) in group and found & group for group in _COUNTED_STEMS)


_COUNTED_STEMS = tuple(frozenset(stem(word) for word in group) for group in COUNTED_SYNONYMS)


def values_conflict(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether the gold's values all have a stated counterpart of their kind, and some differ."""
    pairs = [[agree(s, w) for s in said] for w in wanted if isinstance(w, (Quantity, Date))]
    return any(Agreement.CONFLICT in p and Agreement.SAME not in p for p in pairs)


def stray_value(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether the prediction states a value that only contradicts the gold's ("8 songs" where it says 6
    and 4)."""
    gold_values = [t for t in wanted if isinstance(t, (Quantity, Date))]
    for token in said:
        if isinstance(token, (Quantity, Date)):
            agreements = {agree(token, w) for w in gold_values}
            if Agreement.CONFLICT in agreements and not agreements & {Agreement.SAME, Agreement.NEAR}:
                return True
    return False

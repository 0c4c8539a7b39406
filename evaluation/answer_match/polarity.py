"""Short answers of their own kind: yes or no, there is none, match results.

- yes/no ("yes", "no, ..."): the prediction's leading yes or no.
- none ("0", "none", "never"): stated by a prediction that says so ("none", "never won", "they didn't
  score", "0") and adds little.
- a match result "w", "d" or "l": a short answer with one result ("Marseille won 2-1", "a draw").
"""

from __future__ import annotations

from collections.abc import Sequence

from evaluation.answer_match.cues import (
    ASKS_YES_OR_NO,
    MAX_EXTRA_WORDS,
    NEGATION,
    NEGATION_WORDS,
    OPPOSITE_COMPARATIVES,
    POLARITY,
    SHORT_ITEM_WORDS,
    ZERO_EXTRA_WORDS,
)
from evaluation.answer_match.entities import Prediction
from evaluation.answer_match.reading import BREAKS, Date, Quantity, Token, is_content, stated_in, words
from evaluation.answer_match.verdicts import Verdict, capped, unsure_if
from models import vocabulary


def says_none(gold_words: Sequence[Token]) -> bool:
    """A gold answer that says there is none: "none", "0", "none of the days", "never"."""
    first = gold_words[0]
    zero = isinstance(first, Quantity) and first.value == 0
    return len(gold_words) <= SHORT_ITEM_WORDS and (first in vocabulary.ZERO_WORDS or zero)


def zero_verdict(said: Prediction, gold_words: Sequence[Token], question: str) -> Verdict | None:
    """For a gold answer that says there is none ("0", "none", "never"): correct when the prediction says
    so and states no other value and little besides the gold and the question ("He didn't make any free
    throws", "PMCB has never paid dividends"); None when it does not say so (the other rules read it)."""
    if not said.says_zero:
        return None
    asked = words(question)
    values = [t for t in said.words if isinstance(t, (Quantity, Date)) and not stated_in(t, asked)]
    if any(not (isinstance(t, Quantity) and t.value == 0) for t in values):
        return Verdict.UNSURE  # "none of her 3 nominations": which number answers?
    negations = {t for t, after in zip(said.words, said.words[1:]) if after == "t" and str(t).endswith("n")}
    extra = [
        t for t in said.words
        if is_content(t) and t not in vocabulary.ZERO_WORDS | negations and not NEGATION.fullmatch(str(t))
        and not stated_in(t, [*gold_words, *asked])
    ]  # fmt: skip  # "didn" of "didn't" is a negation
    return Verdict.UNSURE if said.hedged or len(extra) > ZERO_EXTRA_WORDS else Verdict.CORRECT


def match_result(gold_words: Sequence[Token]) -> str | None:
    """The match result a gold answer gives as a one-letter code or one word ("w", "draw"), or None."""
    if len(gold_words) != 1 or not isinstance(gold_words[0], str):
        return None
    return vocabulary.RESULT_CODES.get(gold_words[0]) or vocabulary.RESULT_WORDS.get(gold_words[0])


def result_verdict(said: Prediction, result: str, question: str) -> Verdict:
    """A match result: the prediction's one result ("Marseille won 2-1", "a draw", "L") is correct when it
    is the gold's, wrong when it is another; unsure when it gives none or several, negates, or says more
    than a little besides the question ("Chelsea have won five titles")."""
    asked = words(question)
    extra = [
        t for t in said.words
        if isinstance(t, str) and is_content(t) and t not in vocabulary.RESULT_WORDS
        and not stated_in(t, asked)
    ]  # fmt: skip
    values = [t for t in said.words if isinstance(t, (Quantity, Date))]
    if len(extra) > MAX_EXTRA_WORDS or len(values) not in (0, 2):  # a score is two numbers
        return Verdict.UNSURE
    if len(said.words) == 1 and said.words[0] in vocabulary.RESULT_CODES:
        stated = {vocabulary.RESULT_CODES[str(said.words[0])]}
    else:
        stated = {
            vocabulary.RESULT_WORDS[t]
            for t in said.words
            if isinstance(t, str) and t in vocabulary.RESULT_WORDS
        }
    if len(stated) != 1 or said.negated:
        return Verdict.UNSURE
    return capped(said) if stated == {result} else Verdict.WRONG


def polarity_of(wanted: Sequence[Token]) -> str | None:
    if wanted and wanted[0] in POLARITY and (len(wanted) == 1 or wanted[1] in BREAKS):
        return POLARITY[wanted[0]]
    return None


def polarity_verdict(said: Prediction, polarity: str) -> Verdict:
    stated = POLARITY.get(said.words[0]) if said.words and isinstance(said.words[0], str) else None
    if stated is None:
        return Verdict.UNSURE
    return Verdict.CORRECT if stated == polarity and not said.hedged else unsure_if(stated == polarity)


def compared_polarity(wanted: Sequence[Token], question: str) -> str | None:
    """The yes or no a gold sentence gives a question asking whether A is more than B ("is tesla
    closing price today higher than yesterday?"): the sentence compares them with the question's
    comparative or its opposite ("... lower than yesterday closing price"), the same way round (the
    first word after its "than" is one of the question's after "than") or the other (one of the
    question's before it); None when it does not, or negates the comparison."""
    asked = words(question)
    if not ASKS_YES_OR_NO.search(question.lower()) or any(t in NEGATION_WORDS for t in wanted):
        return None
    at = [i for i, t in enumerate(asked[:-1]) if t in OPPOSITE_COMPARATIVES and asked[i + 1] == "than"]
    if len(at) != 1:
        return None
    comparative, before, after = asked[at[0]], set(asked[1 : at[0]]), set(asked[at[0] + 2 :])
    found = [
        i
        for i, t in enumerate(wanted[:-1])
        if (t == comparative or t in OPPOSITE_COMPARATIVES[comparative]) and wanted[i + 1] == "than"
    ]
    if len(found) != 1:
        return None
    first = next((t for t in wanted[found[0] + 2 :] if is_content(t)), None)
    if first is None or (first in before) == (first in after):
        return None
    same_way = (wanted[found[0]] == comparative) == (first in after)
    return "yes" if same_way else "no"

"""A question offering two options ("which is brighter, sirius or alpha centauri?", "between X and Y",
"X compared to Y").

The option the gold names, or, naming both, the one before "than" or else the one it names first, is
correct, the other wrong; a prediction naming both is read the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from evaluation.answer_match.cues import (
    CLAUSE_OPENERS,
    COMPARISON_WORDS,
    CONTRASTS,
    FUNCTION_WORDS,
    LESSER_WORDS,
    OPTION_JOINTS,
    TITLE_WORDS,
)
from evaluation.answer_match.entities import Prediction, names_part, says_more, shared_by_others
from evaluation.answer_match.phrases import qualifies
from evaluation.answer_match.reading import (
    BREAKS,
    Agreement,
    Date,
    Quantity,
    Token,
    agree,
    distinctive,
    find_run,
    stated_in,
    tokens,
    words,
)
from evaluation.answer_match.values import stray_value
from evaluation.answer_match.verdicts import Verdict, capped


def option_verdict(
    said: Prediction,
    wanted: Sequence[Token],
    question: str,
    gold_option: Sequence[Token],
    other_option: Sequence[Token],
) -> Verdict | None:
    """The verdict on a prediction for a question offering two options, or None when it names neither."""
    gold_at = _position(said.tokens, gold_option, other_option)
    names_gold = gold_at is not None
    names_other = _position(said.tokens, other_option, gold_option) is not None
    if names_gold and names_other:  # "X has more followers than Y": the one it puts first
        chooses_gold = _chooses(said.tokens, gold_option, other_option, question)
        if chooses_gold is None or _concludes_otherwise(said.tokens, gold_option, other_option):
            return Verdict.UNSURE
        names_gold, names_other = chooses_gold, not chooses_gold
    if names_other:
        return Verdict.WRONG
    if not names_gold:
        return None
    if qualifies(said.tokens, gold_at):
        return Verdict.UNSURE  # "los angeles, usa", asked "usa or japan?": its answer is los angeles
    if stray_value(said.words, wanted):
        return Verdict.WRONG  # "La La Land, with 8 original songs" where the gold says 6
    if _gives_the_others_value(said.tokens, wanted, gold_option, other_option):
        return Verdict.WRONG  # "One Love, at $35 million" where $35 million is the other film's budget
    gold_words = [t for t in wanted if t not in BREAKS]
    return Verdict.UNSURE if says_more(said, gold_words, question) else capped(said)


def _gives_the_others_value(
    said: Sequence[Token], wanted: Sequence[Token], option: Sequence[Token], other: Sequence[Token]
) -> bool:
    """Whether the prediction gives the chosen option a value (the first after it, with no comparison
    word nor the other option between: "One Love, at $35 million", not "at 2.81% against 2.58%") that the
    gold gives only in clauses naming the other option and not the chosen one ("while poor things had a
    budget of $35 million", "compared to intel's 1.24%")."""
    at = _position(said, option, other)
    if at is None:
        return False
    for token in said[at + len(option) :]:
        if token in COMPARISON_WORDS or _position([token], other, option) is not None:
            return False
        if isinstance(token, (Quantity, Date)):
            places = [j for j, t in enumerate(wanted) if agree(token, t) is Agreement.SAME]
            return bool(places) and all(
                _position(_clause(wanted, j), other, option) is not None
                and _position(_clause(wanted, j), option, other) is None
                for j in places
            )
    return False


def _concludes_otherwise(said: Sequence[Token], option: Sequence[Token], other: Sequence[Token]) -> bool:
    """Whether a prediction naming both options names again, last, the one it does not name first ("X
    had 11 and Y 15, so Y"): the option it names first is then not plainly its answer."""

    def mentions(this: Sequence[Token], that: Sequence[Token]) -> list[int]:
        starts = {i for i in range(len(said)) if _position(said[i:], this, that) == 0}
        return sorted(i for i in starts if i - 1 not in starts)

    first, second = mentions(option, other), mentions(other, option)
    if not first or not second:
        return False
    named_first, named_last = (first, second) if first[0] < second[0] else (second, first)
    return named_last[-1] > named_first[-1] and len(named_last) > 1


def _clause(text: Sequence[Token], at: int) -> Sequence[Token]:
    """The clause of `text` around `at`: from the phrase break, contrast or comparison word before it
    to the one after; a value after "with" belongs to the sentence's subject, not to the option just
    before it ("X has more than Y with a total of 27": not Y's 27)."""
    ends = BREAKS | CONTRASTS | COMPARISON_WORDS
    starts = [i for i, t in enumerate(text[:at]) if t in ends or t in CLAUSE_OPENERS]
    stops = [i for i, t in enumerate(text) if i > at and t in ends]
    return text[(starts[-1] + 1 if starts else 0) : min(stops, default=len(text))]


def _chooses(
    text: Sequence[Token], option: Sequence[Token], other: Sequence[Token], question: str
) -> bool | None:
    """Whether a text naming both options chooses `option`: the one before "than", else the one named
    first; None when it cannot tell (both on one side of "than", or a "less" the question does not say)."""
    asked = words(question)
    if any(t in LESSER_WORDS and t not in asked for t in text):
        return None
    first, second = _position(text, option, other), _position(text, other, option)
    if first is None or second is None:
        return None
    if "than" in text:
        than = text.index("than")
        return first < than if (first < than) != (second < than) else None
    return first < second


def _position(text: Sequence[Token], option: Sequence[Token], other: Sequence[Token]) -> int | None:
    """Where `text` first names `option`: all of its distinctive words and values, or a distinctive end or
    start of it that the other option does not share ("Brady" for "tom brady"; not "Bieber" for "justin
    bieber" beside "hailey bieber"); None when it does not."""
    key = [t for t in option if distinctive(t) or isinstance(t, (Quantity, Date))]
    if key and all(stated_in(t, text) for t in key):
        return min(i for i, t in enumerate(text) if stated_in(t, key))
    for n in range(1, len(option)):
        for part in (option[:n], option[-n:]):
            if names_part(part, option) and not shared_by_others(part, [other]):
                found, start = find_run(text, part)
                beside = [text[i] for i in (start - 1, start + n) if 0 <= i < len(text)]
                if found is Agreement.SAME and not any(map(distinctive, beside)):  # not "Del Harris"
                    return start
    return None


def chosen_option(
    wanted: Sequence[Token], question: str
) -> tuple[tuple[Token, ...], tuple[Token, ...]] | None:
    """For a question offering two options ("which is brighter, X or Y?", "does X or Y have more ...?",
    "the price of X compared to Y"):
    the option the gold answer chooses and the other one. It chooses the one it names, or, naming both,
    the one before "than" ("X has more followers than Y") or else the one it names first ("X has 6
    songs, while Y has 4")."""
    asked = tokens(question)
    joints = [
        (i, i + (t == "compared"))
        for i, t in enumerate(asked)
        if t in OPTION_JOINTS
        or (t == "and" and "between" in asked[:i])
        or (t == "compared" and asked[i + 1 : i + 2] in (("to",), ("with",)))
    ]  # "x or y", "between x and y", "x versus y", "x compared to y"
    if not joints:
        return None
    at, right_at = joints[-1]
    # a title's "of" stays in an option ("lord of the rings or ..."), not in "the price of x compared to y"
    stops = FUNCTION_WORDS if right_at > at else FUNCTION_WORDS - TITLE_WORDS
    ends = [i for i, t in enumerate(asked[:at]) if t in BREAKS or t in stops]
    left = asked[max(ends, default=-1) + 1 : at]
    right = asked[right_at + 1 :]
    ends = [i for i, t in enumerate(right) if t in BREAKS or t in stops]
    right = right[: min(ends, default=len(right))]
    gold_words = [t for t in wanted if t not in BREAKS]
    options = [o for o in (left, right) if o and (_states_all(wanted, o) or names_part(gold_words, o))]
    if len(options) == 2:
        chooses_left = _chooses(gold_words, left, right, question)
        options = [] if chooses_left is None else [left if chooses_left else right]
    if len(options) != 1:
        return None
    return options[0], right if options[0] == left else left


def _states_all(text: Sequence[Token], option: Sequence[Token]) -> bool:
    """Whether `text` states every distinctive word and value of `option` (and it has some)."""
    key = [t for t in option if distinctive(t) or isinstance(t, (Quantity, Date))]
    return bool(key) and all(stated_in(t, text) for t in key)

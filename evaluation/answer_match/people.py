"""Lists of people by their relations, and dates labelled by quarter.

- People a sentence lists by their relations ("the brothers kevin, joe and nick", "two daughters, malia
  and sasha, with michelle obama"), against a list of them, or the reverse, for a question asking who:
  the same people, by given name, full name or a shared surname ("Kevin Jonas, Joe Jonas and Nick
  Jonas"), are correct; someone left out or added, or named beside the list ("Michelle"), is wrong;
  words beside the names that the question and the relations do not explain leave it unsure.
- Dates labelled by quarter ("q1: may 24, 2023; q2: ...") against the same dates without the labels, or
  the reverse: the same dates in any order are correct; a date more, less or another is wrong, and so
  are quarters out of their dates' order; a date without its year is unsure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from evaluation.answer_match.cues import AND, FUNCTION_WORDS, RELATIVES, SHORT_NAME_WORDS
from evaluation.answer_match.entities import Prediction, spelled_alike
from evaluation.answer_match.reading import (
    BREAKS,
    LIST_JOINTS,
    STOP,
    Agreement,
    Date,
    Quantity,
    Token,
    agree,
    date_fields,
    stem,
    stems,
    tokens,
)
from evaluation.answer_match.verdicts import Verdict, unsure_if
from models import vocabulary


@dataclass(frozen=True)
class Person:
    """A person a list names: their name's words, the surname a shared one gives ("kevin, joe and nick
    jonas": "kevin" with "jonas"), and whether the name stands alone or after a relation ("his son trey"),
    not after other words ("..., all grammy nominees": perhaps no name)."""

    name: tuple[str, ...]
    surname: str | None
    plain: bool


@dataclass(frozen=True)
class People:
    """The people a text lists, the words of those it names beside them ("with michelle obama": the
    mother, not one of the children), and whether some words are neither (a fact the rules cannot read)."""

    listed: tuple[Person, ...]
    beside: frozenset[str]
    unread: bool


def read_people(text: Sequence[Token], asked: frozenset[Token]) -> People | None:
    """The people `text` lists, split at commas, "and" and "with"; each item's last words (at most
    SHORT_NAME_WORDS) are a name, the words before it relations ("their cousin"), words of PEOPLE_LIST_WORDS
    or of the question; a relative clause ("the brothers who flew ...") is left out. None when an item is
    no name (a date, a longer run of words)."""
    items: list[tuple[list[Token], bool]] = []
    item: list[Token] = []
    beside = skipping = False
    for i, token in enumerate([*text, STOP]):
        if token in BREAKS or token in AND or token == "with":
            if not skipping or token in BREAKS:
                items.append((item, beside))
                item, skipping = [], False
                following = text[i + 1 : i + 3]
                beside = token == "with" and not any(t in vocabulary.RELATION_WORDS for t in following)
        elif token in RELATIVES:
            skipping = True
        elif not skipping:
            item.append(token)
    listed: list[tuple[tuple[str, ...], bool, bool]] = []  # a name, whether words stood before it, plain
    named_beside: set[str] = set()
    unread = False
    for words_, is_beside in items:
        if any(isinstance(t, Date) for t in words_):
            return None
        at = len(words_)
        while at and isinstance(words_[at - 1], str) and _person_word(words_[at - 1]):
            at -= 1
        name = tuple(str(t) for t in words_[at:])
        if len(name) > SHORT_NAME_WORDS:
            return None
        unread = unread or not all(_explained(t, asked) for t in words_[:at])
        if is_beside:
            named_beside.update(name)
        elif name:
            related = any(t in vocabulary.RELATION_WORDS for t in words_[:at])
            listed.append((name, at > 0, at == 0 or related))
    people: list[Person] = []
    shared: str | None = None
    for name, after_words, plain in reversed(listed):  # "brian, dennis and carl wilson": all three wilsons
        if len(name) > 1:
            people.append(Person(name, name[-1], plain))
            shared = None if after_words else name[-1]
        else:
            people.append(Person(name, shared, plain))
            shared = None if after_words else shared
    return People(tuple(reversed(people)), frozenset(named_beside), unread)


def _person_word(word: str) -> bool:
    return not (
        word in FUNCTION_WORDS or word in vocabulary.RELATION_WORDS or word in vocabulary.PEOPLE_LIST_WORDS
    )


def _explained(token: Token, asked: frozenset[Token]) -> bool:
    """Whether a word beside a list's names states nothing of its own: a relation, a count, the question's."""
    if isinstance(token, Quantity):
        return not token.unit
    return not _person_word(str(token)) or stem(token) in asked


def people_verdict(said: Prediction, wanted: Sequence[Token], question: str) -> Verdict | None:
    """A list of people against another, when one of them (or the question) names them by their relations
    ("the brothers kevin, joe and nick" for "Kevin Jonas, Joe Jonas and Nick Jonas"): correct when the
    same people are named, given names and surnames alike; wrong when one names someone the other does not
    (or names beside the list: "with michelle obama") or another surname; unsure when words beside the
    names are not read, a name differs by its spelling or a middle name, or one of the names that differ
    stands after words that are no relation (perhaps no name), unless the prediction never says a name
    the gold lists plainly. None when it is no such pair."""
    asked = stems(tokens(question))
    texts = (said.tokens, tuple(wanted), tokens(question))
    if said.hedged or not (
        (not question or re.search(vocabulary.ASKS_FOR_PEOPLE, question.lower()))
        and any(t in vocabulary.RELATION_WORDS for text in texts for t in text)
    ):
        return None
    given, gold = read_people(said.tokens, asked), read_people(wanted, asked)
    if given is None or gold is None or not given.listed or len(gold.listed) < 2:
        return None
    said_names = sorted(p.name[0] for p in given.listed)
    gold_names = sorted(p.name[0] for p in gold.listed)
    extra = [n for n in said_names if n not in gold_names]
    missing = [n for n in gold_names if n not in said_names]
    if extra or missing or len(said_names) != len(gold_names):
        if any(n in gold.beside for n in extra):
            return Verdict.WRONG  # names someone the gold names beside the list
        alike = any(spelled_alike(a, b) for a in extra for b in missing)
        if not alike and any(
            p.plain and p.name[0] in missing and p.name[0] not in said.tokens for p in gold.listed
        ):
            return Verdict.WRONG  # someone the gold lists plainly goes unnamed
        differing = [p for p in (*given.listed, *gold.listed) if p.name[0] in (*extra, *missing)]
        return unsure_if(alike or gold.unread or given.unread or not all(p.plain for p in differing))
    gold_by_name = {p.name[0]: p for p in gold.listed}
    for person in given.listed:
        other = gold_by_name[person.name[0]]
        if person.surname and other.surname and person.surname != other.surname:
            return Verdict.WRONG
        if person.name[1:] and other.name[1:] and person.name[1:] != other.name[1:]:
            return Verdict.UNSURE  # a middle name, a name of two words
        if (
            person.surname
            and not other.surname
            and person.surname not in wanted
            and stem(person.surname) not in asked
        ):
            return Verdict.UNSURE  # a surname the gold never says
    return Verdict.UNSURE if gold.unread or given.unread else Verdict.CORRECT


def dates_verdict(said: Prediction, wanted: Sequence[Token], question: str) -> Verdict | None:
    """A list of dates against the same list labelled by quarter ("q1 2024: april 24, 2024; ...") or the
    reverse: correct when they are the same dates, in any order; wrong when a date differs or is missing
    or added, or the quarters' dates are out of order; unsure when a date leaves out its year. None when it
    is no such pair (both or neither side labels them, other words stand beside the dates, one date)."""
    sides = (said.tokens, tuple(wanted))
    labelled = ["quarter" in side for side in sides]
    if said.hedged or labelled[0] == labelled[1]:
        return None
    asked = stems(tokens(question))
    dates: list[list[Date]] = []
    for side, with_quarters in zip(sides, labelled):
        found = _dated_list(side, asked, with_quarters)
        if found is None:
            return None
        dates.append(found)
    said_dates, gold_dates = dates
    if len(said_dates) < 2 or len(gold_dates) < 2:
        return None
    complete = [d for d in dates[labelled.index(True)] if None not in date_fields(d)]
    if len(said_dates) != len(gold_dates) or complete != sorted(complete, key=date_fields):  # type: ignore[arg-type]
        return Verdict.WRONG  # a date more or less, or the quarters out of the dates' order
    agreements = []
    left = list(gold_dates)
    for date in said_dates:  # in any order: each said date against the gold's it agrees with best
        agreement, matched = min(((agree(date, d), d) for d in left), key=lambda pair: pair[0].value)
        if agreement not in (Agreement.SAME, Agreement.NEAR):
            return Verdict.WRONG
        agreements.append(agreement)
        left.remove(matched)
    return Verdict.CORRECT if set(agreements) == {Agreement.SAME} else Verdict.UNSURE  # a year left out


def _dated_list(side: Sequence[Token], asked: frozenset[Token], with_quarters: bool) -> list[Date] | None:
    """The dates of a list, as written; with quarters (one a date, each once), in the quarters' order.
    None when other words stand in it."""
    dates: list[Date] = []
    quarters: list[Decimal] = []
    for token, after in zip(side, [*side[1:], STOP]):
        if isinstance(token, Date):
            dates.append(token)
        elif token == "quarter" and with_quarters and isinstance(after, Quantity):
            quarters.append(after.value)
        elif not (
            token in BREAKS or token in LIST_JOINTS or token in FUNCTION_WORDS or stem(token) in asked
            or (isinstance(token, Quantity) and not token.unit) or token in vocabulary.FISCAL_WORDS
        ):  # fmt: skip
            return None
    if not with_quarters:
        return dates
    if len(quarters) != len(dates) or len(set(quarters)) != len(quarters):
        return None
    return [date for _, date in sorted(zip(quarters, dates), key=lambda pair: pair[0])]

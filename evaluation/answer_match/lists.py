"""A gold list ("solid, liquid and gas"; titles with joining words when the question asks for several
things; a gold with one comma only when its two parts are parallel: "lenny kravitz, lisa bonet", not
"melbourne, australia").

Every item and nothing else, in any order: an item left out or one added is wrong. Items match whole or
by a distinctive part ("Browns" for "Cleveland Browns"), not without their number ("Shrek" for "shrek
2") nor inside a longer name ("West Berlin" for "berlin") unless every item is expanded alike; a part two
items share names neither ("Williams" beside "venus williams" and "serena williams": unsure).
"""

from __future__ import annotations

from collections.abc import Sequence

from evaluation.answer_match.cues import (
    AND,
    ASKS_FOR_SEVERAL,
    CLAUSE_VERBS,
    COMPANY_SUFFIXES,
    FUNCTION_WORDS,
    LIST_ITEM_MAX_WORDS,
    NEGATION_WORDS,
    PARTICIPLE_PREPOSITIONS,
    SEPARATORS,
    SHORT_ITEM_WORDS,
    TITLE_ITEM_MAX_WORDS,
    TITLE_WORDS,
)
from evaluation.answer_match.entities import Prediction, names_part, one_edit, shared_by_others, spelled_alike
from evaluation.answer_match.reading import (
    COMMA,
    STOP,
    Agreement,
    Date,
    Quantity,
    Token,
    distinctive,
    find,
    find_run,
    is_content,
    stated_in,
    title_number,
    words,
)
from evaluation.answer_match.verdicts import Verdict, capped, unsure_if


def list_items(
    text_tokens: Sequence[Token], at: frozenset[str] = SEPARATORS
) -> tuple[tuple[Token, ...], ...]:
    """The items of a list: split at commas and at the words `at` ("and", "or", "either", ...); a company
    suffix after a comma stays with its name ("salesforce, inc.")."""
    items: list[tuple[Token, ...]] = []
    current: list[Token] = []
    for token in [*text_tokens, COMMA]:
        if token == COMMA or token in at:
            if current and items and all(t in COMPANY_SUFFIXES for t in current):
                items[-1] += tuple(current)
            elif current:
                items.append(tuple(current))
            current = []
        elif token != STOP and not (token in SEPARATORS and not current):  # a leading "and", "either"
            current.append(token)
    return tuple(items)


def is_list(items: Sequence[Sequence[Token]]) -> bool:
    """Whether these items read as a list: two or more, each a few words with at most one function word,
    which in an item of four or five words is one of a title's ("lord of the rings", "good will hunting";
    not "plays for the otters"), and none after the first says what the answer is not ("canberra, not
    sydney")."""
    return len(items) > 1 and all(
        len(item) <= LIST_ITEM_MAX_WORDS
        and sum(t in FUNCTION_WORDS for t in item) <= 1
        and (len(item) <= 3 or all(t in TITLE_WORDS for t in item if t in FUNCTION_WORDS))
        and not (i and item[0] in NEGATION_WORDS)
        for i, item in enumerate(items)
    )


def reads_as_list(items: Sequence[Sequence[Token]], question: str) -> bool:
    """Whether a gold answer's comma-separated parts are a list: two parts only when they are parallel
    ("lenny kravitz, lisa bonet"; not "melbourne, australia"); three or more short ones, or, when the
    question asks for several things, titles ("everything i thought it was, man of the woods, ..."); not
    parts of which some are a bare value and others have none ("the united states won the most medals,
    113, ahead of china's 88": a sentence), nor parts of which one after the first is a participle
    clause ("drake's most popular album, take care, released in 2011.": a sentence)."""
    if any(participle_clause(item) for item in items[1:]):
        return False
    if two_parts(items):
        return is_list(items) and parallel(*items)
    bare = [all(isinstance(t, (Quantity, Date)) for t in item) for item in items]
    valueless = [not any(isinstance(t, (Quantity, Date)) for t in item) for item in items]
    if any(bare) and any(valueless):
        return False
    if is_list(items):
        return True
    return len(items) > 2 and bool(ASKS_FOR_SEVERAL.search(question.lower())) and all(map(_is_title, items))


def participle_clause(item: Sequence[Token]) -> bool:
    """An item that opens with a past participle and a preposition ("released in 2011")."""
    return (
        len(item) >= 2
        and isinstance(item[0], str)
        and item[0].endswith("ed")
        and len(item[0]) > 4
        and item[1] in PARTICIPLE_PREPOSITIONS
    )


def two_parts(items: Sequence[Sequence[Token]]) -> bool:
    """Two comma-separated parts, with no "and" making a third ("solid, liquid and gas")."""
    return len(items) == 2 and not any(t in AND for item in items for t in item)


def parallel(first: Sequence[Token], second: Sequence[Token]) -> bool:
    """Two parts of one kind: values of one kind ("$246.46, $250"), or names of two words or more."""
    kinds = [{type(t) for t in part if isinstance(t, (Quantity, Date))} for part in (first, second)]
    if any(kinds):
        return kinds[0] == kinds[1]
    return min(len(first), len(second)) >= 2


def _is_title(item: Sequence[Token]) -> bool:
    """A short item that is no clause: not "is about 3,365 miles long" nor "original members were mick
    jagger"; "this is the end" and "everything i thought it was" are titles."""
    return (
        len(item) <= TITLE_ITEM_MAX_WORDS
        and item[0] not in CLAUSE_VERBS
        and not any(t in CLAUSE_VERBS for t in item[2:-1])
    )


def is_candidate(item: Sequence[Token]) -> bool:
    """An item that reads as an answer of its own (a bare name or value), not part of a sentence."""
    return len(item) <= SHORT_ITEM_WORDS and not any(t in FUNCTION_WORDS for t in item)


def item_agreement(
    said: Sequence[Token],
    wanted: Sequence[Token],
    asked: Sequence[Token] = (),
    others: Sequence[Sequence[Token]] = (),
) -> Agreement:
    """How a prediction's list item names a gold item: SAME, NEAR (inside a longer name: "West Berlin"
    for "berlin", "Cleveland Browns" for "browns"; by a part one of the `others` shares: "Williams" for
    "venus williams" beside "serena williams"; or a rounded value) or UNRELATED. Words of the question
    beside it are no part of a name ("low $246.46", asked for the low and high prices)."""
    found, start = find_run(said, wanted)
    if found is Agreement.SAME:
        beside = [said[i] for i in (start - 1, start + len(wanted)) if 0 <= i < len(said)]
        longer = any((distinctive(t) or title_number(t)) and not stated_in(t, asked) for t in beside)
        return Agreement.NEAR if longer else Agreement.SAME
    if names_part(said, wanted, either_end=True):
        return Agreement.NEAR if shared_by_others(said, others) else Agreement.SAME
    spelled = len(said) == len(wanted) and all(
        s == w or (isinstance(s, str) and isinstance(w, str) and spelled_alike(s, w))
        for s, w in zip(said, wanted)
    )  # "san franciso 49ers"
    return Agreement.NEAR if found is Agreement.NEAR or spelled else Agreement.UNRELATED


def list_verdict(said: Prediction, gold_items: Sequence[Sequence[Token]], question: str = "") -> Verdict:
    said_items = list_items(said.tokens)
    asked = words(question)
    agreements = [
        {item_agreement(s, g, asked, [o for o in gold_items if o != g]) for s in said_items}
        for g in gold_items
    ]
    if all(Agreement.NEAR in a and Agreement.SAME not in a for a in agreements) and all(
        any(find(s, g) is Agreement.SAME and s[-len(g) :] == tuple(g) for s in said_items) for g in gold_items
    ):  # every item with a word before it: "cleveland browns, detroit lions" for "browns, lions"
        agreements = [{Agreement.SAME} for _ in gold_items]
    named = [Agreement.SAME in a for a in agreements]
    near = [bool(a & {Agreement.SAME, Agreement.NEAR}) for a in agreements]
    extra = [
        s for s in said_items
        if is_candidate(s) and all(item_agreement(s, g) is Agreement.UNRELATED for g in gold_items)
    ]  # fmt: skip
    if all(named) and not extra:
        return capped(said)
    if extra or (any(near) and not all(near) and all(is_candidate(s) for s in said_items)):
        return Verdict.WRONG  # something else named, or an item left out
    if all(near):
        return Verdict.UNSURE
    return unsure_if(not any(near) and any(is_candidate(s) for s in said_items))


def in_gold(item: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether the gold states a prediction's list item: its values when it has some ("$89 million
    international"), else its words, perhaps spelled one letter otherwise ("shearer" for "sheare")."""
    values = [t for t in item if isinstance(t, (Quantity, Date))]
    return all(
        stated_in(t, wanted)
        or (distinctive(t) and any(one_edit(str(t), str(w)) is not None for w in wanted if distinctive(w)))
        for t in values or [t for t in item if is_content(t)]
    )

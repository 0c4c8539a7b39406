"""A gold phrase: a name, a title.

The prediction contains it ("He played for the Denver Broncos") or names it by a distinctive part
("Djokovic", "Mayon" for "Mayon Volcano"); a gold that names a thing, then where it is ("los angeles,
usa", "ps 41 in greenwich village") is named by its head. Naming other candidates beside it ("Inception
and Interstellar", "either X or Y"), leaving out its number ("Spider-Man" for "spider-man 2") or ending
another way ("Tom Cruise" for "tom hanks") is wrong; containing it inside a longer name ("West
Germany", "Talons of the Eagle" for "the eagle"), or with more than a little besides, is unsure; sharing
a word, initials, an abbreviation, a code or another spelling ("MSFT", "United States" for "us",
"Ferrell" for "Farrell") is unsure; sharing nothing is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

from evaluation.answer_match.cues import LOCATIVES, SEPARATORS
from evaluation.answer_match.entities import Prediction, names_part, other_ending, related_to, says_more
from evaluation.answer_match.lists import is_candidate, item_agreement, list_items
from evaluation.answer_match.reading import (
    BREAKS,
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
from evaluation.answer_match.values import values_conflict
from evaluation.answer_match.verdicts import Verdict, capped, unsure_if


def phrase_verdict(
    said: Prediction, gold_words: Sequence[Token], question: str, by_part: bool = True
) -> Verdict:
    """The verdict for a name or short phrase; `by_part` lets a distinctive part of it name it ("Djokovic"),
    which a gold with a qualifier after a comma does not ("australia" for "melbourne, australia")."""
    found = find(said.words, gold_words)
    if found is Agreement.SAME:
        if _names_others(said, gold_words):
            return Verdict.WRONG  # "Inception and Interstellar", "either X or Y"
        if (
            _inside_longer_name(said.tokens, gold_words, question)
            or says_more(said, gold_words, question)
            or qualifies(said.tokens, find_run(said.tokens, gold_words)[1])
        ):
            return (
                Verdict.UNSURE
            )  # "Talons of the Eagle" for "the eagle"; "Melbourne, Australia" for "australia"
        return capped(said)
    if found is Agreement.NEAR:
        return Verdict.UNSURE
    if (by_part and names_part(said.words, gold_words)) or _same_words(said.words, gold_words):
        return capped(said)
    if _without_middle_initials(gold_words) == tuple(said.words):
        return capped(said)  # "john clauser" for "john f clauser"
    if said.words == tuple(t for t in gold_words if not title_number(t)) or other_ending(
        said.words, gold_words
    ):
        return Verdict.WRONG  # "Spider-Man" for "spider-man 2"; "Tom Cruise" for "tom hanks"
    asked = words(question)
    if values_conflict(said.words, [t for t in gold_words if not stated_in(t, asked)]):
        return Verdict.WRONG  # "part 1" for "part 2" (a value the question names is not the answer's)
    return unsure_if(related_to(said.words, gold_words))


def qualifies(said: Sequence[Token], start: int | None) -> bool:
    """Whether the prediction's last word, at `start`, only qualifies a name before it ("Melbourne,
    Australia": its answer is Melbourne)."""
    return (
        start is not None
        and start == len(said) - 1
        and start >= 2
        and said[start - 1] == COMMA
        and distinctive(said[start - 2])
    )


def head_verdict(said: Prediction, wanted: Sequence[Token], question: str) -> Verdict | None:
    """For a gold answer that names something, then where or what it is ("los angeles, usa", "ps 41 in
    greenwich village, manhattan"): naming its head is correct when the head has two words or more and
    the prediction adds nothing of its own, unsure otherwise ("paris" for "paris, texas"); another head
    with the same tail is wrong ("sydney, australia" for "melbourne, australia"); None otherwise."""
    head: list[Token] = []
    for i, token in enumerate(wanted):
        after = wanted[i + 1] if i + 1 < len(wanted) else STOP
        if token == COMMA or (token in LOCATIVES and head and distinctive(after)):
            break
        if token != STOP:
            head.append(token)
    gold_words = [t for t in wanted if t not in BREAKS]
    if len(head) == len(gold_words) or not any(distinctive(t) or title_number(t) for t in head):
        return None
    if phrase_verdict(said, head, question) is not Verdict.CORRECT:
        tail = gold_words[len(head) :]
        said_head = said.words[: len(said.words) - len(tail)]
        other_head = (
            said.words[len(said_head) :] == tuple(tail) and said_head and not related_to(said_head, head)
        )
        return Verdict.WRONG if other_head and COMMA in said.tokens else None
    asked = words(question)
    own = [
        t for t in said.words if is_content(t) and not stated_in(t, gold_words) and not stated_in(t, asked)
    ]
    return Verdict.UNSURE if own or len(head) < 2 else Verdict.CORRECT


def _names_others(said: Prediction, gold_words: Sequence[Token]) -> bool:
    """Whether the prediction offers other candidates beside the gold: "X and Y", "X or Y", "X, Y, Z"."""
    items = list_items(said.tokens)
    joined = any(t in SEPARATORS for t in said.words) or len(list_items(said.tokens, at=frozenset())) > 2
    return (
        joined
        and all(map(is_candidate, items))
        and not all(item_agreement(i, gold_words) is Agreement.SAME for i in items)
    )


def _same_words(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """The same words with the values elsewhere ("the 2021 Dune" for "Dune (2021)"; not "Jahan Shah" for
    "Shah Jahan")."""
    in_order = [t for t in said if isinstance(t, str)] == [t for t in wanted if isinstance(t, str)]
    return (
        in_order
        and any(isinstance(t, str) for t in wanted)
        and sorted(map(repr, said)) == sorted(map(repr, wanted))
    )


def _without_middle_initials(wanted: Sequence[Token]) -> tuple[Token, ...] | None:
    """A person's name without the initials between a given name and a surname ("john f clauser": "john
    clauser"); None when it has none."""
    kept = tuple(
        t
        for i, t in enumerate(wanted)
        if not (
            isinstance(t, str) and len(t.rstrip(".")) == 1 and 0 < i < len(wanted) - 1
            and distinctive(wanted[i - 1]) and distinctive(wanted[i + 1])
        )
    )  # fmt: skip
    return kept if len(kept) < len(wanted) else None


def _inside_longer_name(said: Sequence[Token], gold_words: Sequence[Token], question: str) -> bool:
    """Whether the gold is only part of a longer name in the prediction: a distinctive word right after
    it ("New York Yankees" for "new york"; not one of the question's: "Gary Oldman won", asked who won)
    or right before it ("West Germany" for "germany"), or a joining word right before ("Talons of the
    Eagle")."""
    found, start = find_run(said, gold_words)
    if found is not Agreement.SAME:
        return False  # the gold runs across a phrase break: not one name
    end = start + len(gold_words)
    after = said[end] if end < len(said) else STOP
    before = said[start - 1] if start > 0 else STOP
    asked = words(question)
    if not any(isinstance(t, str) for t in gold_words):
        return isinstance(after, (Quantity, Date))  # values ("56-26"): no name a word makes longer
    return (
        (distinctive(after) and not stated_in(after, asked))
        or isinstance(after, (Quantity, Date))
        or (distinctive(before) and not stated_in(before, asked))
        or (start > 1 and before in ("of", "and"))
    )

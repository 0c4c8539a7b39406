"""A gold sentence ("the rolling stones have released a total of 31 studio albums.").

A prediction that says nothing the sentence and the question do not (but the surname of a list of given
names: "Barry Gibb" for "the brothers barry, robin and maurice gibb") is correct when it gives the key
fact, one the question does not already contain: for a question asking for a value, the sentence's
value of the kind asked for (a count, a date, money), the one counting what the question asks about
when there are several ("76" of "76 victories out of 114 matches"), not every number in it; for any
other question, the name the sentence gives as its answer (its subject, "ederson, who plays for
manchester city, was the goalkeeper ...", or the complement that ends it, "... is claire foy"), or else
every name it adds, a list inside it whole. Another value where the sentence's answer is one is wrong;
so are a prediction naming only another name of the sentence than its answer, and part of a list the
question asks for. Without the question, agreeing with a sentence is unsure.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from evaluation.answer_match.cues import (
    AND,
    ASKS_FOR_NAME_KIND,
    ASKS_FOR_TIME_SPAN,
    NAME_KINDS,
    ASKED_KINDS,
    ASKS_ALSO_FOR_VALUE,
    ASKS_ALSO_KINDS,
    ASKS_FOR_AMOUNT,
    ASKS_FOR_SEVERAL,
    ASKS_FOR_THING,
    ASKS_FOR_VALUE,
    ASKS_WHAT_THING,
    ASKS_WHO,
    AUXILIARIES,
    CLAUSE_VERBS,
    COMPANY_SUFFIXES,
    COMPANY_WORDS,
    COMPLEMENT_ENDS,
    CONTRASTS,
    COUNT_WORDS,
    COPULAS,
    DIRECTION_WORDS,
    FILLERS,
    FUNCTION_WORDS,
    IDENTIFIED_MAX_WORDS,
    LIST_ITEM_MAX_WORDS,
    NEGATED_WITHIN,
    NEGATION,
    NEGATION_QUALIFIERS,
    NEGATION_WORDS,
    ONE_AS_PRONOUN,
    PRONOUNS,
    QUOTED,
    RELATIVES,
    RESTATES_SHARE,
    SENTENCE_MIN_WORDS,
    SEPARATORS,
    SHORT_ITEM_WORDS,
    SHORT_NAME_WORDS,
    TITLE_ITEM_MAX_WORDS,
    TITLE_WORDS,
    ZERO_EXTRA_WORDS,
)
from evaluation.answer_match.entities import (
    Prediction,
    gold_compounds,
    names_in,
    other_name,
    names_alike,
    names_part,
    says_more,
    shared_by_others,
)
from evaluation.answer_match.lists import in_gold, is_list, list_items, list_verdict
from evaluation.answer_match.phrases import phrase_verdict
from evaluation.answer_match.reading import (
    BREAKS,
    COMMA,
    STOP,
    UNIT_KINDS,
    Agreement,
    Date,
    Quantity,
    Token,
    agree,
    distinctive,
    find,
    find_run,
    is_content,
    is_year,
    stated_in,
    stem,
    title_number,
    words,
)
from evaluation.answer_match.values import counts_alike, direction_verdict, stray_value, value_verdict
from evaluation.answer_match.verdicts import Verdict, capped, unsure_if
from models import vocabulary


def _key_spans(wanted: Sequence[Token], asked: Sequence[Token]) -> list[list[tuple[Token, ...]]]:
    """The gold sentence's runs of content the question does not contain, grouped into lists: spans
    joined only by commas, "and" or "or" ("dan auerbach and patrick carney"), perhaps after one word of
    the question each ("the colorado river and the humboldt river", asked for rivers), form one group.
    A number keeps the name before it ("shrek 2", asked for the shrek movies)."""
    groups: list[list[tuple[Token, ...]]] = []
    span: list[Token] = []
    pending: list[Token] = []  # function words inside a span ("voyage of dawn treader")
    joined = False  # only separators since the last span (and one word of the question: "river")
    for i, token in enumerate([*wanted, STOP]):
        if is_content(token) and token not in DIRECTION_WORDS and not stated_in(token, asked):
            if not span and not (joined and groups and token not in NEGATION_WORDS):  # ", not sydney"
                groups.append([])
            if (
                not span
                and title_number(token)
                and i
                and isinstance(wanted[i - 1], str)
                and is_content(wanted[i - 1])
            ):
                span.append(
                    wanted[i - 1]
                )  # the name a number belongs to, though the question says it: "shrek 2"
            span += pending + [token]
            pending = []
            continue
        if span and token in FUNCTION_WORDS and token not in SEPARATORS | CLAUSE_VERBS:
            pending.append(token)
            continue
        if span:
            groups[-1].append(tuple(span))
            span, pending, joined = [], [], True
            if isinstance(token, str) and is_content(token) and stated_in(token, asked):
                continue  # "colorado river and humboldt river", asked for rivers: one list
        joined = joined and (token == COMMA or token in SEPARATORS)
    return groups


def _counts_otherwise(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether the prediction counts a thing the gold sentence counts ("50 hat tricks", "39 hat tricks")
    with another number, and never with the sentence's."""
    gold_counts = _counted_nouns(wanted)
    for value, noun in _counted_nouns(said):
        same_noun = [gold for gold, gold_noun in gold_counts if stem(gold_noun) == stem(noun)]
        agreements = {agree(value, gold) for gold in same_noun}
        if Agreement.CONFLICT in agreements and Agreement.SAME not in agreements:
            return True
    return False


def _with_aliases(wanted: Sequence[Token], said: Sequence[Token], asked: Sequence[Token]) -> Sequence[Token]:
    """A sentence with a name's alias in brackets before a list's comma or the sentence's end ("foreign
    exchange market (forex), money market": a phrase break, one word, the comma), read with the alias in
    place of the name when the prediction says the alias and no distinctive word of the name the
    question does not say ("market"), else without it."""
    result = list(wanted)
    for i in reversed(range(1, len(result) - 1)):
        if i + 1 >= len(result):
            continue  # inside a name read just after it
        alias = result[i + 1]
        if not (
            result[i] == STOP
            and (result[i + 2] in (COMMA, STOP) if i + 2 < len(result) else True)  # or the sentence's end
            and is_content(result[i - 1])
            and isinstance(alias, str)
            and is_content(alias)
        ):
            continue
        start = 1 + max((j for j in range(i) if result[j] in BREAKS or result[j] in SEPARATORS), default=-1)
        name = result[start:i]
        if stated_in(alias, said) and not any(
            distinctive(t) and stated_in(t, said) and not stated_in(t, asked) for t in name
        ):
            result[start : i + 2] = [alias]
        else:
            del result[i : i + 2]
    return result


def sentence_verdict(said: Prediction, wanted: Sequence[Token], gold: str, question: str) -> Verdict:
    wanted = _with_aliases(wanted, said.words, words(question))
    asked = gold_compounds(words(question), wanted)  # "spider man" asked, "spiderman" answered
    groups = _key_spans(wanted, asked)
    said_content = [t for t in said.words if is_content(t)]
    if _counts_otherwise(said.words, wanted):
        return Verdict.WRONG  # "mike bossy, with 50 hat tricks" where the sentence says 39 hat tricks
    covered = [group for group in groups if any(_covers(said, span, wanted) for span in group)]
    wants_value = asks_for_value(question) and bool(_key_values(wanted, question)[0])
    if wants_value:
        kind = _asked_kind(question)
        own = [t for t in said.words if _of_kind(t, kind) and not stated_in(t, [*wanted, *asked])]
        if stray_value(own, _key_values(wanted, question)[0]):
            return Verdict.WRONG  # another value where the sentence's answer is one
    if all(stated_in(t, wanted) or stated_in(t, asked) for t in said_content):  # nothing beyond the gold
        if not asked:
            return Verdict.UNSURE  # no question to tell the key fact by
        lists_asked = ASKS_FOR_SEVERAL.search(question.lower()) and any(map(_is_gold_list, groups))
        # "the names of the 3 main characters are: ...", asked who they are: the list, not "names"
        answer = None if wants_value or lists_asked else _answer_name(wanted, asked)
        one_name = answer is not None and len(list_items(answer)) == 1
        if one_name and not any(stated_in(t, said.words) for t in answer if distinctive(t)):
            # another name of the sentence than its answer ("goran ivanisevic" for "novak djokovic, who is
            # coached by goran ivanisevic, won ..."), or no name
            return unsure_if(not any(distinctive(t) and not stated_in(t, asked) for t in said.words))
        if not covered:
            return Verdict.UNSURE  # only what the question says
        if any(
            _is_gold_list(group)
            and not all(
                _covers(said, span, wanted, in_list=True) or _said_alike(said, span)
                for span in named_spans(group)
            )
            for group in covered
        ):
            # part of a list: of the answer when the question asks for several things
            return unsure_if(not ASKS_FOR_SEVERAL.search(question.lower()))
        if not wants_value and any(
            _names_span(said.tokens, span)
            and not _names_span(said.tokens, span, [o for o in group if o != span])
            for group in covered
            for span in group
        ):  # "Williams" for "venus williams and serena williams are ...": which one?
            return Verdict.UNSURE
        if not _gives_what_is_asked(said, wanted, groups, covered, question):
            return Verdict.UNSURE  # one fact of several, maybe not the one asked for
        if direction_verdict(said, wanted, question) is not None:
            return Verdict.UNSURE
        return capped(said, bool(NEGATION.search(gold.lower())))
    said_items = list_items(said.tokens)
    gold_lists = [group for group in groups if _is_gold_list(group)]
    if gold_lists and is_list(said_items) and _names_others(said, said_items, gold_lists, wanted):
        return Verdict.WRONG  # a list naming someone the gold's list does not
    return unsure_if(bool(covered) or names_alike(said.words, wanted))  # the judge must read it


def _names_others(
    said: Prediction,
    items: Sequence[Sequence[Token]],
    gold_lists: Sequence[Sequence[Sequence[Token]]],
    wanted: Sequence[Token],
) -> bool:
    """Whether a prediction's list names one the gold's list does not have: an item the gold does not
    state, unless it says an item of the gold's list whole, with more words, that no other item of the
    prediction says ("Pacer ETFs" for "pacer", "Dimensional Fund Advisors" for "dimensional": the same
    one, written at more length; not "E. Lind" for "bo lind")."""
    spans = [span for group in gold_lists for span in named_spans(group)]

    def sharing(item: Sequence[Token]) -> list[Sequence[Token]]:
        """The gold items this one says whole, with more words ("pacer etfs": "pacer"; not "e lind" for
        "bo lind", another given name)."""
        return [
            span
            for span in spans
            if any(map(distinctive, span)) and all(stated_in(t, item) for t in span if is_content(t))
        ]

    for item in items:
        if in_gold(item, wanted):
            continue
        shared = sharing(item)
        if not shared or any(span in sharing(other) for span in shared for other in items if other != item):
            return True
    return False


def _said_alike(said: Prediction, span: Sequence[Token]) -> bool:
    """Whether the prediction says every distinctive word and value of a span, perhaps in another form
    ("stocks" for "stock"): enough that an item is not left out, not that it is named."""
    key = [t for t in span if distinctive(t) or isinstance(t, (Quantity, Date))]  # "toy story 3"
    return bool(key) and all(stated_in(t, said.words) for t in key)


def named_spans(group: Sequence[Sequence[Token]]) -> list[Sequence[Token]]:
    """The spans of a group that name something: not "pg" beside "point guard"."""
    return [span for span in group if any(map(distinctive, span))]


def _is_gold_list(group: Sequence[Sequence[Token]]) -> bool:
    """Spans of a sentence joined as a list ("dan auerbach and patrick carney", "once upon a time in
    hollywood, don't look up, and killers of the flower moon")."""
    return len(group) > 1 and (is_list(group) or all(len(span) <= TITLE_ITEM_MAX_WORDS for span in group))


def _covers(
    said: Prediction, span: Sequence[Token], wanted: Sequence[Token] = (), in_list: bool = False
) -> bool:
    """Whether the prediction states a span of the gold sentence: one of its values; a short name whole
    or by a distinctive part ("Foy" for "claire foy"; not "The Fame" for "the fame monster"), perhaps
    followed by a surname the gold sentence writes elsewhere ("Barry Gibb" for "barry" of "the brothers
    barry, robin and maurice gibb"); a distinctive word of a longer run, or, for an item of a list, of
    one joined by a word no name has inside ("announced investments into nuvei and ..."); or all of a
    span without any ("m.a.a.d city")."""
    values = [t for t in span if isinstance(t, (Quantity, Date))]
    if any(stated_in(t, said.words) for t in values):
        return True
    key = [t for t in span if distinctive(t)]
    if not key:
        return not values and all(stated_in(t, said.words) for t in span if is_content(t))
    joined = in_list and any(t in FUNCTION_WORDS - TITLE_WORDS for t in span)  # "announced investments into"
    if sum(map(is_content, span)) <= SHORT_NAME_WORDS and not joined:
        return _names_span(said.tokens, span, family=wanted)
    return any(stated_in(t, said.words) for t in key)


def _names_span(
    said: Sequence[Token],
    span: Sequence[Token],
    others: Sequence[Sequence[Token]] = (),
    family: Sequence[Token] = (),
) -> bool:
    """Whether `said` names `span` whole, or by a distinctive part of it (`names_part`) that is no part
    of a longer name there ("forward" of "small forward" does not name "power forward"; a word of the
    `family` after it may be: a surname its list shares) and that none of the `others` shares
    ("Williams" beside "venus williams" and "serena williams")."""
    if find(said, span) is Agreement.SAME:
        return True
    for n in range(1, len(span)):
        first, last = tuple(span[:n]), tuple(span[-n:])
        runs = {first: find_run(said, first), last: find_run(said, last)}
        found, start = runs[first]
        if (
            found is Agreement.SAME
            and _surname_follows(said, start + n, span[n:])
            and not shared_by_others(first, others)
        ):
            return True  # "Jared" of "Jared and Matthew Followill" for "jared followill"
        for part in (first, last):
            found, start = runs[part]
            if found is not Agreement.SAME or not names_part(part, span) or shared_by_others(part, others):
                continue
            before = said[start - 1] if start > 0 else STOP
            after = said[start + n] if start + n < len(said) else STOP
            if not distinctive(before) and not (distinctive(after) and not stated_in(after, family)):
                return True
    return False


def _surname_follows(said: Sequence[Token], at: int, surname: Sequence[Token]) -> bool:
    """Whether the given names of a list starting at `at` end with `surname` ("and Matthew Followill"
    after "Jared"): only list joints and one-word names stand between."""
    for i in range(at, min(len(said), at + LIST_ITEM_MAX_WORDS * 2)):
        if tuple(said[i : i + len(surname)]) == tuple(surname) and i > at:
            return any(distinctive(t) for t in surname)
        token = said[i]
        if not (token == COMMA or token in SEPARATORS or distinctive(token)):
            return False
        if (
            distinctive(token)
            and i + 1 < len(said)
            and distinctive(said[i + 1])
            and (tuple(said[i + 1 : i + 1 + len(surname)]) != tuple(surname))
        ):
            return False  # a two-word name of its own between
    return False


def _gives_what_is_asked(
    said: Prediction,
    wanted: Sequence[Token],
    groups: list[list[tuple[Token, ...]]],
    covered: list[list[tuple[Token, ...]]],
    question: str,
) -> bool:
    """A question asking for a value wants the sentence's value of the kind asked for ("how many" a
    count, "when" a date, "price" money): the one beside a word of the question when there are several
    ("76 victories out of 114 matches", asked for victories), or all of them when that does not tell.
    Any other question wants the name the sentence gives as its answer (`_answer_name`), or else all of
    its names ("sam howell" is not the answer to "what team does he play for?" when it names both)."""
    keys, unique = _key_values(wanted, question)
    if asks_for_value(question) and keys:
        stated = [key for key in keys if stated_in(key, said.words)]
        return bool(stated) and (unique or len(stated) == len(keys))
    answer = _answer_name(wanted, words(question))
    if answer is not None and all(
        _names_span(said.tokens, item) or _names_span(said.tokens, _without_suffix(item))
        for item in list_items(answer)
    ):
        return True  # the name, or every name of a list in any order
    return all(group in covered for group in groups if named_spans(group))


def _without_suffix(name: Sequence[Token]) -> tuple[Token, ...]:
    """A company's name without the words that say it is one ("estee lauder companies inc": "estee
    lauder"), kept whole when nothing else is left."""
    kept = list(name)
    while len(kept) > 1 and kept[-1] in COMPANY_SUFFIXES | COMPANY_WORDS:
        kept.pop()
    return tuple(kept)


def asks_for_value(question: str) -> bool:
    """Whether a question asks for a value: it names one ("how many", "when", "price", ...) and does not
    ask for a thing ("which company has the highest market cap?", "what energy stocks ...")."""
    lowered = question.lower()
    return bool(ASKS_FOR_VALUE.search(lowered)) and not ASKS_FOR_THING.search(lowered)


def _asked_kind(question: str) -> str | None:
    """The kind of value a question asks for ("date", "money", "percent", "count"), or None."""
    found = [
        (match.start(), kind) for kind, pattern in ASKED_KINDS if (match := pattern.search(question.lower()))
    ]
    return min(found)[1] if found else None


def _of_kind(token: Token, kind: str | None) -> bool:
    """Whether a token is a value of the kind a question asks for (any value when None)."""
    if not isinstance(token, (Quantity, Date)):
        return False
    if kind == "date":
        return isinstance(token, Date) or is_year(token)
    if not isinstance(token, Quantity):
        return kind is None
    money, year = UNIT_KINDS.get(token.unit) == "money", is_year(token)
    return {
        "money": money or (not token.unit and not year),
        "percent": token.unit in ("%", "") and not year,
        "count": not money and token.unit != "%" and not year,
    }.get(kind, True)


def _key_values(wanted: Sequence[Token], question: str) -> tuple[list[Token], bool]:
    """The values of a gold sentence that may answer a question asking for a value, and whether that is
    one value for sure."""
    asked = words(question)
    kind = _asked_kind(question)
    values = _own_values(wanted, asked)
    values = [(i, t) for i, t in values if _of_kind(t, kind)] or values
    distinct = list(dict.fromkeys(t for _, t in values))
    if len(distinct) > 1:  # the value that counts what the question asks about ("76 victories")
        counting = list(dict.fromkeys(t for i, t in values if _counts_asked(wanted, i, asked)))
        if len(counting) == 1:
            return counting, True
    return distinct, len(distinct) == 1


def _own_values(wanted: Sequence[Token], asked: Sequence[Token]) -> list[tuple[int, Token]]:
    """The values of a gold sentence, with their places, that the question does not give. A small count
    is the question's only where the question has it beside the same word ("as one of", "number one
    hits"): "once" (1) answers "named as one of the most influential people ... once, in 2011", asked
    "how many times ... named as one of ..."; any other value the question gives is none of the
    sentence's."""
    beside = {
        (t, stem(side))
        for i, t in enumerate(asked)
        if isinstance(t, Quantity) and _small_count(t)
        for side in (asked[i - 1] if i else None, asked[i + 1] if i + 1 < len(asked) else None)
        if side is not None
    }
    values = []
    for i, token in enumerate(wanted):
        if not isinstance(token, (Quantity, Date)):
            continue
        if isinstance(token, Quantity) and _small_count(token):
            sides = (wanted[i - 1] if i else None, wanted[i + 1] if i + 1 < len(wanted) else None)
            if not any((token, stem(side)) in beside for side in sides if side is not None):
                values.append((i, token))
        elif not stated_in(token, asked):
            values.append((i, token))
    return values


def _small_count(token: Quantity) -> bool:
    """A whole number without a unit that is no year: what "one of", "once" and "two of" are read as."""
    return not token.unit and token.precision >= 1 and not is_year(token)


def _counts_asked(text: Sequence[Token], at: int, asked: Sequence[Token]) -> bool:
    """Whether the value at `at` counts something the question asks about: the last word of the noun
    after it is the question's ("76 victories", "two times"; not "22 world cup tournaments"), or, with no
    noun ("two with rita wilson"), the next word is."""
    noun: list[Token] = []
    for token in text[at + 1 :]:
        if token in BREAKS or not isinstance(token, str) or token in FUNCTION_WORDS:
            break
        if token not in FILLERS:
            noun.append(token)
    if noun:
        return stated_in(noun[-1], asked)
    following = [t for t in text[at + 1 :] if t not in FUNCTION_WORDS]
    return (
        bool(following)
        and isinstance(following[0], str)
        and following[0] not in BREAKS
        and (stated_in(following[0], asked))
    )


def _answer_name(wanted: Sequence[Token], asked: Sequence[Token]) -> tuple[Token, ...] | None:
    """The name (or list of names) a gold sentence gives as its answer: its subject, when a copula or the
    question's words follow it (perhaps after a clause between commas: "ederson, who plays for manchester
    city, was the goalkeeper ...", "taylor swift was the top artist ...", "as of 2022, barry bonds, hank
    aaron, and babe ruth are the top three ..."), or the words after its last copula, when they end it
    ("the actress who played ... is claire foy", not "is at the top ..."); only words the question does not
    contain, but a title's start before its colon ("spiderman: no way home is ...")."""
    start = 0
    if COMMA in wanted and all(
        not is_content(t) or stated_in(t, asked) for t in wanted[: wanted.index(COMMA)]
    ):
        start = wanted.index(COMMA) + 1  # an opening the question already says: "as of 2022, ..."
    prefix: list[Token] = []  # a title's start the question says: "spiderman" of "spiderman: no way home"
    if STOP in wanted[start:]:
        colon = wanted.index(STOP, start)
        opening = wanted[start:colon]
        if opening and all(stated_in(t, asked) for t in opening) and _title_goes_on(wanted, colon):
            prefix, start = [*opening, STOP], colon + 1
    subject: list[Token] = []
    for i, token in enumerate(wanted[start:], start):
        clause = token == COMMA and i + 1 < len(wanted) and wanted[i + 1] in FUNCTION_WORDS - SEPARATORS
        if token == STOP and subject and _title_goes_on(wanted, i):
            subject.append(token)  # "spiderman: no way home is at the top ..."
            continue
        if (
            token == STOP
            or token in COPULAS
            or not isinstance(token, str)
            or stated_in(token, asked)
            or clause
        ):
            break
        subject.append(token)
    rest = wanted[start + len(subject) :]
    if rest and rest[0] == COMMA and COMMA in rest[1:]:
        rest = rest[rest.index(COMMA, 1) + 1 :]  # the clause between commas
    if _answer_words(subject, asked) and rest and _restates(rest, asked):
        return (*prefix, *subject)
    copulas = [i for i, t in enumerate(wanted) if t in COPULAS]
    complement = list(wanted[copulas[-1] + 1 :] if copulas else ())
    ends = [
        i
        for i, t in enumerate(complement[:-1])
        if t == STOP and (complement[i + 1] in PRONOUNS or _new_sentence(complement[i + 1 :]))
    ]
    if ends:  # "is carrie-anne moss. she portrayed ...": the answer ends with its sentence
        complement = complement[: ends[0]]
    while complement and complement[-1] in BREAKS:
        complement.pop()
    clauses = [
        i
        for i, t in enumerate(complement[:-1])
        if t == COMMA and complement[i + 1] in FUNCTION_WORDS | NEGATION_WORDS
    ]
    if clauses:  # "is b. riley financial, with a yield of ...", "is canberra, not sydney"
        complement = complement[: clauses[0]]
    if complement and complement[0] in FUNCTION_WORDS:
        return None  # "is at the top with ...": no name
    name = complement if len(list_items(complement)) > 1 else [t for t in complement if t not in BREAKS]
    if _answer_words(complement, asked) and (
        len(list_items(complement)) > 1 or BREAKS.isdisjoint(complement)
    ):
        return tuple(name)
    return None


def _new_sentence(rest: Sequence[Token]) -> bool:
    """Whether the words after a phrase break are a sentence of their own, not a title's rest after its
    colon ("for her portrayal of queen elizabeth ii, she received ...": a clause of a few words, with a
    pronoun or a verb of a clause; not "no way home")."""
    run = [t for t in rest if t not in BREAKS]
    return len(run) > SENTENCE_MIN_WORDS + SHORT_ITEM_WORDS and any(
        t in PRONOUNS or t in CLAUSE_VERBS for t in run
    )


def quoted_title(gold: str, question: str) -> tuple[Token, ...] | None:
    """The title a gold sentence gives in quotes as its answer to a question asking what or which thing
    ("what movie earned leonardo dicaprio his first academy award?": "... for his role in "the revenant"
    in 2016"): its one quoted title the question does not contain; None for a question asking who or for
    a value, and for a sentence quoting no such title or several."""
    lowered = question.lower()
    if asks_for_value(question) or not ASKS_WHAT_THING.search(lowered) or ASKS_WHO.search(lowered):
        return None
    asked = words(question)
    titles = {
        title
        for quoted in QUOTED.findall(gold.replace("“", '"').replace("”", '"'))
        if (title := words(quoted)) and not all(stated_in(t, asked) for t in title if is_content(t))
    }
    return titles.pop() if len(titles) == 1 else None


def _title_goes_on(wanted: Sequence[Token], at: int) -> bool:
    """Whether the phrase break at `at` is a title's colon: a few words follow it, then a copula."""
    for token in wanted[at + 1 : at + 2 + SHORT_ITEM_WORDS]:
        if token in COPULAS:
            return True
        if token in BREAKS or not isinstance(token, str):
            return False
    return False


def _restates(rest: Sequence[Token], asked: Sequence[Token]) -> bool:
    """Whether what follows a sentence's subject is its copula, or the question's words ("won the most
    matches", asked who won the most matches): two of them before any other word or break; not a
    clause that says which one the subject is ("the player who scored ...")."""
    if rest[0] in COPULAS:
        return True
    if rest[0] in RELATIVES:
        return False
    content = []
    for token in rest:
        if token in BREAKS or len(content) == 2:
            break
        if is_content(token):
            content.append(token)
    return len(content) == 2 and all(stated_in(t, asked) for t in content)


def _answer_words(run: Sequence[Token], asked: Sequence[Token]) -> bool:
    """A name of a few words, or a list of short names, none of whose words the question says."""
    content = [t for t in run if is_content(t)]
    items = list_items(run)
    longest = SHORT_ITEM_WORDS + 2 if len(items) == 1 else SHORT_ITEM_WORDS
    return (
        bool(content)
        and all(len(item) <= longest for item in items)
        and not any(stated_in(t, asked) for t in content)
    )


# --- a sentence's key fact, read into the typed value a short gold answer would be


def says_there_is_none(wanted: Sequence[Token], question: str) -> bool:
    """Whether a sentence answers a question asking how many or how much by saying there is none: its
    main clause (up to a phrase break or a contrast: "..., though she has been nominated four times")
    negates one of the question's words ("lady gaga has never won ...", "harry kane did not score ...",
    "he has no children") and counts nothing the question does not; not when the negation is qualified
    ("did not win until 2010", "never won except ..."), nor when a later clause counts what it negates
    ("did not release any albums in 2020, but released 2 in 2021")."""
    if not ASKS_FOR_AMOUNT.search(question.lower()) or any(t in NEGATION_QUALIFIERS for t in wanted):
        return False
    asked = words(question)
    clause = _main_clause(wanted)
    if any(_count(t, asked) for t in clause):
        return False
    negated = {
        word for i in range(len(clause)) if _is_negation(clause, i) for word in _negated(clause, i, asked)
    }
    later = wanted[len(clause) :]  # "did not release any albums in 2020, but released 2 in 2021"
    return bool(negated) and not (
        any(stated_in(w, later) for w in negated) and any(_count(t, asked) for t in later)
    )


def _count(token: Token, asked: Sequence[Token]) -> bool:
    """A number that may count something: no year, none the question gives."""
    return isinstance(token, Quantity) and not is_year(token) and not stated_in(token, asked)


def _main_clause(wanted: Sequence[Token]) -> Sequence[Token]:
    ends = [i for i, t in enumerate(wanted) if t in BREAKS or t in CONTRASTS]
    return wanted[: min(ends, default=len(wanted))]


def _is_negation(text: Sequence[Token], at: int) -> bool:
    """A negation word, or the "t" of "didn't" (read as "didn", "t")."""
    token = text[at]
    return token in NEGATION_WORDS or (token == "t" and at > 0 and str(text[at - 1]).endswith("n"))


def _negated(text: Sequence[Token], at: int, asked: Sequence[Token]) -> list[str]:
    """The question's words among the first content words after a negation ("never won": "won")."""
    following = [t for t in text[at + 1 :] if is_content(t) and t not in NEGATION_WORDS]
    return [t for t in following[:NEGATED_WITHIN] if isinstance(t, str) and stated_in(t, asked)]


def key_value(wanted: Sequence[Token], question: str) -> tuple[Quantity | Date, list[Token]] | None:
    """The one value a sentence gives as its answer to a question asking for a value, or None when it
    does not tell one: of the kind asked for and not one the question gives, nor "one of" beside
    another value ("one of the oldest actors ... is 76"); a year beside another value is context
    unless a date is asked for ("active for 39 years, since 1985"); of several, the one counting what
    the question asks about ("76 victories out of 114 matches"), or else the one whose clause says more
    of the question's words than any other's ("there are 102 companies in qqq but only two has market
    cap higher than 15 billion", asked how many have a market cap higher than 15 billion); with the
    values it was chosen over that way, which a prediction may still mean."""
    if not asks_for_value(question):
        return None
    asked = words(question)
    kind = _asked_kind(question)
    values = _own_values(wanted, asked)
    values = [(i, t) for i, t in values if not _one_of(wanted, i)] or values
    values = [(i, t) for i, t in values if _of_kind(t, kind)] or values
    if kind != "date":
        values = [(i, t) for i, t in values if not is_year(t)] or values
    for candidates in (values, [(i, t) for i, t in values if _counts_asked(wanted, i, asked)]):
        if len({t for _, t in candidates}) == 1:
            return candidates[0][1], []
    scores = {t: max(_clause_overlap(wanted, j, asked) for j, u in values if u == t) for _, t in values}
    ranked = sorted(scores.values(), reverse=True)
    if len(ranked) > 1 and ranked[0] > ranked[1]:
        key = next(t for t, score in scores.items() if score == ranked[0])
        return key, [t for t in scores if t != key]
    return None


def _one_of(text: Sequence[Token], at: int) -> bool:
    """Whether the value at `at` is "one of" ("one of the oldest working actors, arnold schwarzenegger,
    is 76"): a pronoun beside another value, not a count."""
    return text[at] == Quantity(Decimal(1)) and text[at + 1 : at + 2] == ("of",)


def _clause_overlap(text: Sequence[Token], at: int, asked: Sequence[Token]) -> tuple[int, int]:
    """How many of the question's words (and values) the value at `at` has after it in its clause (up
    to a phrase break or a contrast: "two with rita wilson"), then in the whole clause ("where amazon
    stock costs around $173.54")."""
    starts = [i for i, t in enumerate(text[:at]) if t in BREAKS or t in CONTRASTS]
    ends = [i for i, t in enumerate(text) if i > at and (t in BREAKS or t in CONTRASTS)]
    start, end = (starts[-1] + 1 if starts else 0), min(ends, default=len(text))

    def said(run: Sequence[Token]) -> int:
        return len({t for t in run if is_content(t) and stated_in(t, asked)})

    return said(text[at + 1 : end]), said(text[start:end])


def value_fact_verdict(
    said: Prediction, wanted: Sequence[Token], key: Token, question: str, rivals: Sequence[Token] = ()
) -> Verdict | None:
    """A prediction against a sentence's key value, read as a short gold answer is (values.py), the
    sentence's other words being what the prediction may also say; its other values must be the
    sentence's: one that only contradicts them is wrong ("twice, in 2016 and 2018" where the sentence
    says 2016 and 2019), one it does not have leaves it unsure, and so does the key value counting
    another thing than the sentence's ("4 movies" for "shot in 4 locations"); one of the `rivals` the
    key was chosen over by the question's words leaves it unsure too. None for a prediction
    that states no value and does not say there is none: the sentence's other rules read it."""
    values = [t for t in said.words if isinstance(t, (Quantity, Date))]
    if not said.says_zero and not values:
        return None
    states_key = any(agree(t, key) is Agreement.SAME for t in values)
    if not states_key and any(agree(t, rival) is Agreement.SAME for t in values for rival in rivals):
        return Verdict.UNSURE  # the value the key was chosen over by the question's words alone
    asked = words(question)
    sentence_words = [t for t in wanted if t not in BREAKS]
    kind = _asked_kind(question)

    dated = any(is_year(t) or isinstance(t, Date) for t in sentence_words)

    def context(token: Token) -> bool:
        """A year beside a count or an amount in a prediction against a sentence without one, read as
        the sentence's own years are (key_value): "15 studio albums between 1973 and 1995" dates the
        count, it does not give another; against a sentence's years it is checked as they are."""
        return kind != "date" and not dated and is_year(token) and not (is_year(key) or isinstance(key, Date))

    if kind is not None and _of_kind(key, kind):
        of_kind = [t for t in values if _of_kind(t, kind)]
        if values and not of_kind and not said.says_zero:
            return Verdict.WRONG  # "the eps is $5.33", asked how many titles
        own = [t for t in of_kind if not stated_in(t, [*sentence_words, *asked]) and not context(t)]
        if stray_value(own, [key]):
            return Verdict.WRONG  # another value where the sentence's answer is one
    verdict = value_verdict(said, sentence_words, question, value=key)
    if verdict is Verdict.UNSURE and says_more(said, sentence_words, question):
        if not any(agree(t, key) in (Agreement.SAME, Agreement.NEAR) for t in values):
            return Verdict.WRONG  # another fact: "tom brady won 5 super bowl mvp awards" for "eps is $5.33"
    if verdict is not Verdict.CORRECT:
        return verdict
    others = [
        t for t in said.words if isinstance(t, (Quantity, Date)) and agree(t, key) is not Agreement.SAME
    ]
    if stray_value([t for t in others if not context(t)], sentence_words):
        return Verdict.WRONG
    if any(not stated_in(t, [*sentence_words, *asked]) for t in others):
        return Verdict.UNSURE
    counted, gold_counted = _counted(said.tokens, key), _counted(wanted, key)
    unit_kind = UNIT_KINDS.get(counted or "")
    asked_unit = (kind == "money" and unit_kind == "money") or (  # "$0.13" for a price of "0.13"
        unit_kind == "time" and bool(ASKS_FOR_TIME_SPAN.search(question.lower()))  # "35 years old"
    )
    if (
        counted is not None
        and counted not in COUNT_WORDS
        and not asked_unit
        and not stated_in(counted, [*filter(None, [gold_counted]), *asked])
        and not counts_alike(counted, _noun_words(wanted, key))
    ):
        return Verdict.UNSURE  # "4 movies" for "shot in 4 locations"; not "3 titles" for "3 championships"
    return verdict


def lists_another(said: Prediction, wanted: Sequence[Token], question: str) -> bool:
    """Whether the gold sentence lists names and the prediction lists some of them with one, without a
    value, that the sentence and the question do not have ("4 times: ojani noa, ..., and alex rodriguez"
    where the sentence lists ojani noa, ..., and ben affleck)."""
    asked = words(question)
    groups = _key_spans(wanted, gold_compounds(asked, wanted))
    if not any(_is_gold_list(group) and len(named_spans(group)) > 1 for group in groups):
        return False
    items = list_items(said.tokens)
    names = [
        item
        for item in items
        if any(map(distinctive, item)) and not any(isinstance(t, (Quantity, Date)) for t in item)
    ]
    found = [in_gold(item, [*wanted, *asked]) for item in names]
    return is_list(items) and any(found) and not all(found)  # it lists from the sentence's list


def _noun_words(text: Sequence[Token], value: Token) -> list[str]:
    """The words of the noun after the first value of `text` that is `value`, numbers in a name passed
    over ("3 formula one world championships": formula, world, championships)."""
    at = next((i for i, t in enumerate(text) if agree(t, value) is Agreement.SAME), len(text))
    noun: list[str] = []
    for token in text[at + 1 :]:
        if token in BREAKS or token in FUNCTION_WORDS:
            break
        if isinstance(token, str):
            noun.append(token)
    return noun


def _counted(text: Sequence[Token], value: Token) -> str | None:
    """What the first value of `text` that is `value` counts: its unit ("1 day": "day"), or else the last
    word of the noun right after it ("4 locations": "locations"); None when nothing follows it."""
    at = next((i for i, t in enumerate(text) if agree(t, value) is Agreement.SAME), None)
    found = text[at] if at is not None else None
    if isinstance(found, Quantity) and found.unit:
        return found.unit
    noun: list[str] = []
    for token in text[at + 1 :] if at is not None else ():
        if not isinstance(token, str) or token in BREAKS or token in FUNCTION_WORDS:
            break
        if token not in FILLERS:
            noun.append(token)
    return noun[-1] if noun else None


def none_fact_verdict(said: Prediction, wanted: Sequence[Token], question: str) -> Verdict | None:
    """A prediction against a sentence that says there is none: correct when it says so too ("0",
    "none", "she has never won it") with no value the sentence does not have ("never won, despite seven
    nominations") and little besides the sentence and the question (unsure when it hedges); wrong when it
    gives a count instead ("4", "she has won it four times", though the sentence says four nominations);
    None, for the sentence's other rules, when it neither says there is none nor gives a count, or says
    so with a number the sentence lacks or more than a little besides."""
    asked = words(question)
    known = [*wanted, *asked]
    values = [t for t in said.words if isinstance(t, (Quantity, Date)) and not stated_in(t, asked)]
    if said.negated and ONE_AS_PRONOUN.search(said.text.lower()):
        values = [t for t in values if t != Quantity(Decimal(1))]  # "he has never won one"
    if not said.says_zero:
        bare = len(said.words) == 1  # "2016" alone answers how many, whatever it looks like
        counts = [t for t in values if isinstance(t, Quantity) and t.value != 0 and (bare or not is_year(t))]
        return Verdict.WRONG if counts else None
    if any(not (isinstance(t, Quantity) and t.value == 0) and not stated_in(t, wanted) for t in values):
        return None  # a number the sentence does not have: which one answers?
    negations = {t for i, t in enumerate(said.words[:-1]) if _is_negation(said.words, i + 1)}  # "didn"
    said_none = vocabulary.ZERO_WORDS | NEGATION_WORDS | negations
    extra = [
        t
        for t in said.words
        if isinstance(t, str) and is_content(t) and t not in said_none and not stated_in(t, known)
    ]
    if len(extra) > ZERO_EXTRA_WORDS:
        return None  # more than a little besides: perhaps another fact
    return Verdict.UNSURE if said.hedged else Verdict.CORRECT


def is_clause(gold_words: Sequence[Token]) -> bool:
    """Whether a short answer reads as a clause: a verb of a clause after its first word ("tesla has
    never paid a dividend", "harry kane did not score"; a title may be one too, "this is the end", which
    the rules that read clauses take only for a question asking for a value)."""
    return len(gold_words) >= SENTENCE_MIN_WORDS and any(
        t in CLAUSE_VERBS or t in AUXILIARIES for t in gold_words[1:]
    )


def asked_name_kind(question: str) -> tuple[str, bool] | None:
    """The kind of name a question asks for ("which country", "what team", "which clubs": "country",
    "team") and whether it asks for several; None for other questions."""
    found = ASKS_FOR_NAME_KIND.search(question.lower())
    if found is None:
        return None
    word = found["kind"]
    return NAME_KINDS[word.removesuffix("s").removesuffix("ie") + ("y" if word.endswith("ies") else "")], (
        word.endswith("s")
    )


def key_names(wanted: Sequence[Token], question: str) -> tuple[tuple[Token, ...], ...] | None:
    """The teams or countries a sentence gives as its answer to a question asking for one or several of
    them: the name or list of names the sentence gives as its answer (its subject or complement) when
    each is a known name of that kind the question does not name ("france won the 2018 world cup,
    beating croatia"); else a list of such names inside it ("zlatan played for juventus, inter milan and
    ac milan"), or, for a question asking for one, its one such name ("the golden state warriors beat
    the boston celtics", asked whom the warriors beat); None when it does not tell (a list with a name
    the tables do not know: "real madrid, ..., and al nassr")."""
    asked_kind = asked_name_kind(question)
    if asked_kind is None:
        return None
    kind, several = asked_kind
    asked = words(question)
    asked_names = {name.key for name in names_in(asked)}

    def known(span: Sequence[Token]) -> bool:
        names = names_in(span)
        return (
            len(names) == 1
            and (names[0].start, names[0].end) == (0, len(span))
            and names[0].kind == kind
            and names[0].key not in asked_names
        )

    answer = _answer_name(wanted, asked)
    candidates = [
        list_items(answer) if answer is not None else (),
        *(group for group in _key_spans(wanted, asked) if len(group) > 1),
        []
        if several
        else [tuple(wanted[n.start : n.end]) for n in names_in(wanted) if known(wanted[n.start : n.end])],
    ]
    for names in candidates:
        if names and all(map(known, names)) and (several or len(set(names)) == 1):
            return tuple(dict.fromkeys(tuple(name) for name in names))
    return None


def names_fact_verdict(
    said_text: str, wanted: Sequence[Token], names: Sequence[Sequence[Token]], question: str
) -> Verdict:
    """A prediction against the teams or countries a sentence gives as its answer, read as a short gold
    answer naming them is (phrases.py, lists.py: by any of their names), the sentence's other words
    being what the prediction may also say; a value it gives must be the sentence's."""
    gold_tokens: list[Token] = []
    for span in names:
        gold_tokens += [*([COMMA] if gold_tokens else []), *span]
    said = Prediction.read(said_text, tuple(gold_tokens))
    context = f"{question} " + " ".join(str(t) for t in wanted if isinstance(t, str))
    if len(names) == 1:
        verdict = phrase_verdict(said, names[0], context)
        if verdict is Verdict.UNSURE and other_name(said, names[0]):
            return Verdict.WRONG  # "Man Utd" for "manchester city"
    else:
        verdict = list_verdict(said, names, context)
    if verdict is not Verdict.CORRECT:
        return verdict
    values = [t for t in said.words if isinstance(t, (Quantity, Date))]
    if stray_value(values, wanted):
        return Verdict.WRONG
    return Verdict.UNSURE if any(not stated_in(t, wanted) for t in values) else verdict


def has_value(gold_words: Sequence[Token]) -> bool:
    return any(isinstance(t, (Quantity, Date)) for t in gold_words)


# --- several counts asked at once ("how many books and movies are there?")


def key_counts(wanted: Sequence[Token], question: str) -> tuple[tuple[Quantity, str], ...] | None:
    """The counts a gold gives as its answer to a question asking how many of two or more things, their
    nouns joined by "and" in the question ("7 books and 8 movies", asked "how many books and movies
    ..."): each a number with a noun of those after it, the nouns all different; None when it gives
    fewer than two such counts."""
    if not ASKS_FOR_AMOUNT.search(question.lower()):
        return None
    asked = words(question)
    joined = {
        stem(t)
        for i, t in enumerate(asked)
        if isinstance(t, str)
        and is_content(t)
        and ("and" in asked[i + 1 : i + 2] or "and" in asked[max(i - 1, 0) : i])
    }  # "books and movies"
    counts = [(value, noun) for value, noun in _counted_nouns(wanted) if stem(noun) in joined]
    nouns = [stem(noun) for _, noun in counts]
    if len(counts) < 2 or len(set(nouns)) != len(nouns):
        return None
    return tuple(counts)


def _counted_nouns(text: Sequence[Token]) -> list[tuple[Quantity, str]]:
    """Each count of `text` with the noun right after it ("8 movies": 8, "movies")."""
    return [
        (token, following)
        for token, following in zip(text, text[1:])
        if isinstance(token, Quantity) and _small_count(token) and isinstance(following, str)
        and is_content(following)
    ]  # fmt: skip


def counts_verdict(said: Prediction, counts: Sequence[tuple[Quantity, str]], question: str) -> Verdict | None:
    """A prediction against the counts a gold gives for the things a question asks how many of: wrong
    when it gives one of the things another count ("7 movies" for "8 movies"), only other counts, or
    fewer counts than asked for, all of them the gold's ("7 books" for "7 books and 8 movies": an asked
    count left out); correct when it gives every count, in the gold's order, each noun it writes the
    gold's or another word for it ("8 films"); None when it gives no count (the phrase's rules read
    it); else unsure."""
    asked = words(question)
    values = [t for t in said.words if isinstance(t, (Quantity, Date)) and not stated_in(t, asked)]
    for value, noun in _counted_nouns(said.words):
        for gold_value, gold_noun in counts:
            if stem(noun) == stem(gold_noun) and agree(value, gold_value) is not Agreement.SAME:
                return Verdict.WRONG  # "7 movies" for "8 movies"
    if not values:
        return None
    stated = [any(agree(t, value) is Agreement.SAME for value, _ in counts) for t in values]
    if not any(stated) or (len(values) < len(counts) and all(stated)):
        return Verdict.WRONG  # other counts, or an asked count left out
    in_order = len(values) == len(counts) and all(
        agree(t, value) is Agreement.SAME for t, (value, _) in zip(values, counts)
    )
    gold_nouns = {stem(noun) for _, noun in counts}
    own_nouns = [noun for _, noun in _counted_nouns(said.words) if stem(noun) not in gold_nouns]
    if in_order and all(counts_alike(noun, [gold for _, gold in counts]) for noun in own_nouns):
        return capped(said)
    return Verdict.UNSURE


# --- a name and a value asked at once ("who was the first actress and what year ...?")


def second_value(wanted: Sequence[Token], question: str) -> Quantity | Date | None:
    """The value a gold sentence gives for the second thing a question asks, after a name ("who was the
    first actress and what year ...": the year): the sentence's one value of that kind the question does
    not give; None when the question asks for one thing or the sentence has not one such value."""
    found = ASKS_ALSO_FOR_VALUE.search(question.lower())
    if found is None:
        return None
    kind = next(kind for kind, name in ASKS_ALSO_KINDS.items() if found[name])
    values = {t for _, t in _own_values(wanted, words(question)) if _of_kind(t, kind)}
    return values.pop() if len(values) == 1 else None


def second_value_verdict(said: Prediction, value: Quantity | Date, question: str) -> Verdict | None:
    """Wrong when the prediction gives no value of the second thing asked (it leaves it out) or only
    another one ("1992" for "1966"); None when it gives the sentence's value: the name is the sentence's
    other rules' to judge."""
    kind = "date" if isinstance(value, Date) or is_year(value) else "count"
    asked = words(question)
    given = [t for t in said.words if _of_kind(t, kind) and not stated_in(t, asked)]
    if any(agree(t, value) is Agreement.SAME for t in given):
        return None
    return Verdict.UNSURE if any(agree(t, value) is Agreement.NEAR for t in given) else Verdict.WRONG


def identified_answer(wanted: Sequence[Token], question: str) -> tuple[Token, ...] | None:
    """The answer an identifying sentence gives, "<one side> is <the other>", where one side restates
    the question and the other does not: "the actor who played the role ... is gabriel macht." (asked
    the actor's name: "gabriel macht"), "the seven summits, ..., are the highest peaks on each of the
    seven continents" (asked the term: "seven summits"). The complement ends at a break or a word that
    goes on about it ("is 3m, with a dividend yield ..."); a subject, at its first break. None when no
    copula joins two such sides, the answer side is long, or the sentence names several ("and").
    """
    at = next((i for i, t in enumerate(wanted) if t in COPULAS), None)
    if at is None or at == 0 or ASKS_FOR_SEVERAL.search(question.lower()):
        return None
    sentence_end = next((i for i, t in enumerate(wanted) if t == STOP and i > at), len(wanted))
    if any(t in AND for t in wanted[:sentence_end]):
        return None  # "jo lind, eva lind and cy tan were the winners": several answers
    asked = words(question)
    subject = tuple(t for t in wanted[:at] if t not in BREAKS)
    rest = wanted[at + 1 :]
    end = next((i for i, t in enumerate(rest) if t in BREAKS or t in COMPLEMENT_ENDS), len(rest))
    complement = tuple(rest[:end])

    def restates(side: Sequence[Token]) -> bool:
        content = [t for t in side if is_content(t)]
        return bool(content) and sum(stated_in(t, asked) for t in content) >= RESTATES_SHARE * len(content)

    if restates(subject) and not restates(complement):
        answer = complement
    elif restates(complement) and not restates(subject):
        first_break = next((i for i, t in enumerate(wanted) if t in BREAKS), at)
        answer = tuple(wanted[: min(first_break, at)])
    else:
        return None
    answer = tuple(t for t in answer if t not in FUNCTION_WORDS or t in TITLE_WORDS)
    if not any(distinctive(t) for t in answer) or len(answer) > IDENTIFIED_MAX_WORDS:
        return None
    return answer


def identified_list(wanted: Sequence[Token], question: str) -> tuple[tuple[Token, ...], ...] | None:
    """The list an identifying sentence gives, "<the question restated> are <a list>" ("the original
    members of fleetwood mac were mick fleetwood, john mcvie, peter green, and jeremy spencer."), as the
    items of a gold list; None when the question does not ask for several, its subject does not restate
    the question (or has a break or a negation: another clause) or what follows the copula, up to the
    sentence's end or a word that goes on about it ("..., with 139%"), is no list."""
    at = next((i for i, t in enumerate(wanted) if t in COPULAS), None)
    if not ASKS_FOR_SEVERAL.search(question.lower()):
        return None  # "who founded the band first?": perhaps not all of them
    if at is None or at == 0 or any(t in BREAKS or t in NEGATION_WORDS for t in wanted[:at]):
        return None  # the copula of a later clause ("...; they were runners-up in 2020 and 2024")
    asked = words(question)
    content = [t for t in wanted[:at] if is_content(t)]
    if not content or sum(stated_in(t, asked) for t in content) < RESTATES_SHARE * len(content):
        return None
    rest = wanted[at + 1 :]
    end = next((i for i, t in enumerate(rest) if t == STOP or t in COMPLEMENT_ENDS), len(rest))
    items = list_items(rest[:end])
    return items if is_list(items) else None

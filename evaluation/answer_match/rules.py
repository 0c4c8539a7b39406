"""The ordered table of named rules that judges a prediction against one gold answer.

`RULES` is read top to bottom: the first rule that applies to a case and decides it gives the verdict,
and its name goes with it (a `Judgement`); a rule that applies but cannot decide (None) leaves the case
to the rules after it. Each rule's documentation is its `decide` function's docstring (`Rule.doc`);
`python -m evaluation.answer_match` prints the table.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from evaluation.answer_match.cues import (
    AND,
    ASKS_FOR_SEVERAL,
    DECLINE,
    SHORT_ITEM_WORDS,
    INVALID,
    LANGUAGE_CODES,
    NEGATION,
    PARTIAL_LIST,
    SENTENCE_MIN_WORDS,
)
from evaluation.answer_match.entities import Prediction, names_another_subject, other_name
from evaluation.answer_match.kinds import Kind, answer_kind
from evaluation.answer_match.lists import (
    in_gold,
    is_candidate,
    is_list,
    list_items,
    list_verdict,
    parallel,
    two_parts,
)
from evaluation.answer_match.options import chosen_option, option_verdict
from evaluation.answer_match.people import dates_verdict, people_verdict
from evaluation.answer_match.phrases import head_verdict, phrase_verdict
from evaluation.answer_match.polarity import (
    compared_polarity,
    match_result,
    polarity_of,
    polarity_verdict,
    result_verdict,
    says_none,
    zero_verdict,
)
from evaluation.answer_match.reading import Date, Quantity, Token, distinctive, stated_in, tokens, words
from evaluation.answer_match.sentences import (
    asked_name_kind,
    asks_for_value,
    counts_verdict,
    has_value,
    identified_answer,
    identified_list,
    is_clause,
    key_counts,
    key_names,
    key_value,
    lists_another,
    names_fact_verdict,
    quoted_title,
    none_fact_verdict,
    says_there_is_none,
    second_value,
    second_value_verdict,
    sentence_verdict,
    value_fact_verdict,
)
from evaluation.answer_match.values import value_alternatives, value_verdict
from evaluation.names import in_country_names
from evaluation.answer_match.verdicts import Judgement, Verdict, best, is_refusal, unsure_if

REFUSAL = "i don't know"  # the leaderboard's own rule, before the table
NO_ANSWER = "no gold answer"
# The readings of a phrase gold (`_phrase`), each named in the verdicts it decides.
BY_CODE, AS_LIST, BY_HEAD = "phrase: code", "phrase: list", "phrase: head"
AS_SENTENCE, ANOTHER_NAME = "phrase: sentence", "phrase: another name"
PARTIAL_LIST_RULE = "partial list"
COPULA_THEN = re.compile(r"\b(?:is|are|was|were)\b:?", re.IGNORECASE)  # where a sentence's list begins


class Case:
    """One prediction against one gold answer, with the question: each read once, when a rule asks."""

    def __init__(self, prediction: str, gold: str, question: str):
        # A country or team asked for may be answered by its people's adjective ("the French team").
        self.prediction = in_country_names(prediction) if asked_name_kind(question) else prediction
        self.gold = gold
        self.question = question

    @cached_property
    def wanted(self) -> tuple[Token, ...]:
        """The gold's tokens: words, values and phrase breaks."""
        return tokens(self.gold)

    @cached_property
    def gold_words(self) -> tuple[Token, ...]:
        return words(self.gold)

    @cached_property
    def said(self) -> Prediction:
        return Prediction.read(self.prediction, self.wanted)

    @cached_property
    def kind(self) -> Kind:
        return answer_kind(self.gold, self.question)

    @cached_property
    def reads_as_sentence(self) -> bool:
        """A gold sentence, or a phrase that is a clause ("apple has 161,000 employees as of 2023.") or,
        for a question asking for a value, one with a value ("earned 116,609 million usd in 2023")."""
        return self.kind is Kind.SENTENCE or (
            self.kind is Kind.PHRASE
            and (is_clause(self.gold_words) or (asks_for_value(self.question) and has_value(self.gold_words)))
        )

    @cached_property
    def options(self) -> tuple[tuple[Token, ...], tuple[Token, ...]] | None:
        """For a question offering two options: the one the gold chooses and the other."""
        return chosen_option(self.wanted, self.question)


Decision = Verdict | Judgement | None


@dataclass(frozen=True)
class Rule:
    """A named rule: when it `applies`, its `decide` gives the verdict (a Judgement when it says which
    of its readings decided), or None when it cannot, and the next rule reads the case."""

    name: str
    applies: Callable[[Case], bool]
    decide: Callable[[Case], Decision]

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.decide) or ""


def _invalid_question(case: Case) -> Verdict:
    """A gold "invalid question" is stated only by the prediction "invalid question"; a prediction that
    starts with it and says more is unsure, any other wrong."""
    if case.said.words == INVALID:
        return Verdict.CORRECT
    return unsure_if(case.said.words[:2] == INVALID)


def _says_invalid(case: Case) -> Verdict:
    """A prediction "invalid question" against a gold answer that is not: unsure when the gold denies the
    question's premise (it says "no", "not", ...), wrong otherwise."""
    return unsure_if(bool(NEGATION.search(case.gold.lower())))


def _same_words(case: Case) -> Verdict:
    """The prediction is the gold answer, word for word and value for value: correct."""
    return Verdict.CORRECT


def _no_gold_answer(case: Case) -> Verdict:
    """An empty gold, "nan" or "i don't know": a gold "i don't know" has no answer to give (wrong),
    nothing else can be matched (unsure)."""
    return Verdict.WRONG if is_refusal(case.gold) else Verdict.UNSURE


def _declines(case: Case) -> Verdict:
    """A prediction that declines ("not enough information", "cannot determine") or says nothing is no
    answer: wrong, as the judge's rules say."""
    return Verdict.WRONG


def _people(case: Case) -> Verdict | None:
    """People a sentence lists by their relations against a list of them (people.py)."""
    return people_verdict(case.said, case.wanted, case.question)


def _quarter_dates(case: Case) -> Verdict | None:
    """Dates labelled by quarter against the same dates without the labels (people.py)."""
    return dates_verdict(case.said, case.wanted, case.question)


def _yes_or_no(case: Case) -> Verdict:
    """A gold "yes" or "no" (with or without more after it): the prediction's leading yes or no."""
    return polarity_verdict(case.said, polarity_of(case.wanted) or "")


def _none(case: Case) -> Verdict | None:
    """A gold that says there is none ("0", "none", "never"), against a prediction that says so
    (polarity.py); other predictions are left to the rules after it."""
    return zero_verdict(case.said, case.gold_words, case.question)


def _one_value(case: Case) -> Verdict:
    """A gold that is one number or date with at most a few words (values.py)."""
    return value_verdict(case.said, case.gold_words, case.question)


def _match_result(case: Case) -> Verdict:
    """A gold match result "w", "d", "l" or a result word (polarity.py)."""
    return result_verdict(case.said, match_result(case.gold_words) or "", case.question)


def _two_ways(case: Case) -> Verdict:
    """A gold that gives one value two ways ("78.7 million less or a -66.7% decrease"): the best verdict
    on either part."""
    parts = value_alternatives(case.gold)
    return best(judge(Case(case.prediction, part, case.question)).verdict for part in parts)


def _list(case: Case) -> Verdict:
    """A gold list (lists.py): every item and nothing else; a gold of two comma-separated parts may also
    be one title ("crouching tiger, hidden dragon"), named whole; a part of it may be that title cut
    short or one item of two ("Toshio Kai" for "shigeichi ishimura, toshio kai"): unsure."""
    items = list_items(case.wanted, at=frozenset())
    verdict = best(
        list_verdict(case.said, i, case.question) for i in {items, list_items(case.wanted, at=AND)}
    )
    if two_parts(items) and verdict is not Verdict.CORRECT:
        if phrase_verdict(case.said, case.gold_words, case.question, by_part=False) is Verdict.CORRECT:
            return Verdict.CORRECT
        if phrase_verdict(case.said, case.gold_words, case.question) is Verdict.CORRECT:
            return Verdict.UNSURE  # a part of one title, or one item of two
    return verdict


def _partial_list(case: Case) -> Decision:
    """A prediction that says its list is part of the whole ("Positions and 7 Rings, among others")
    against a gold list or sentence: the rules after it decide, but one they judge wrong for leaving
    items out is unsure when every item it names is the gold's (a judge may take a part the
    prediction calls a part); an item the gold lacks keeps it wrong. A hypothesis from batch 9's
    labels, which call such parts right: unsure, not correct, until labels say more."""
    rest = judge(case, after=PARTIAL_LIST_RULE)
    if rest.verdict is not Verdict.WRONG:
        return rest
    listed = PARTIAL_LIST.sub(",", case.prediction.lower())
    items = [item for item in list_items(tokens(listed)) if _names_something(item)]
    if items and all(is_candidate(item) and in_gold(item, case.wanted) for item in items):
        return Verdict.UNSURE
    return rest


def _names_something(item: Sequence[Token]) -> bool:
    return any(distinctive(t) for t in item)


def _name_and_value(case: Case) -> Verdict | None:
    """A question asking for a name and then a value ("who was the first actress and what year ...?")
    against a gold sentence giving both: a prediction that leaves the value out or gives another one is
    wrong (sentences.py); one that gives it is left to the sentence's rules for the name (None), and so
    is a sentence without one such value."""
    value = second_value(case.wanted, case.question)
    if value is None:
        return None
    return second_value_verdict(case.said, value, case.question)


def _sentence_comparison(case: Case) -> Verdict | None:
    """A gold sentence answering a question that asks whether A is more than B by saying which is
    (polarity.py: "today ... 184.02, which is lower than yesterday closing price at 188.13", asked
    whether today's is higher): the prediction's leading yes or no against the one it gives; None when
    the sentence does not say, or the prediction gives neither. A hypothesis from one labelled question
    of batch 9."""
    polarity = compared_polarity(case.wanted, case.question)
    if polarity is None or polarity_of(case.said.tokens) is None:
        return None
    return polarity_verdict(case.said, polarity)


def _sentence_none(case: Case) -> Verdict | None:
    """A gold sentence that answers how many or how much by saying there is none ("lady gaga has never
    won a grammy award for album of the year, though she has been nominated four times"), read as the
    gold "0" is, its other numbers context (sentences.py); None when it does not say so."""
    if not says_there_is_none(case.wanted, case.question):
        return None
    return none_fact_verdict(case.said, case.wanted, case.question)


def _sentence_counts(case: Case) -> Verdict | None:
    """A gold that counts two or more things a question asks how many of ("7 books and 8 movies", asked
    how many books and movies there are): every count, each of its thing (sentences.py); None when the
    gold does not give such counts."""
    counts = key_counts(case.wanted, case.question)
    if counts is None:
        return None
    return counts_verdict(case.said, counts, case.question)


def _sentence_another_name(case: Case) -> Verdict | None:
    """A gold sentence answering a question asking for a value, against a prediction that names a team
    or country of the kind the sentence or the question names but neither of them ("Manchester City
    have won 20." for "manchester united have won twenty premier league titles.") or lists a name the
    sentence's list does not ("4 times: ..., and Alex Rodriguez" where it lists "..., and ben affleck"):
    wrong, whatever its value; None otherwise."""
    if names_another_subject(case.said, case.wanted, case.question):
        return Verdict.WRONG
    return Verdict.WRONG if lists_another(case.said, case.wanted, case.question) else None


def _sentence_value(case: Case) -> Verdict | None:
    """A gold sentence whose key value answers a question asking for a value ("radiohead has been
    active for 39 years, since 1985.", asked how long), read as that one value is (values.py: scales,
    units, dates at their precision), the sentence's other words and values context; None when the
    sentence does not tell one value."""
    found = key_value(case.wanted, case.question)
    if found is None:
        return None
    key, rivals = found
    return value_fact_verdict(case.said, case.wanted, key, case.question, rivals)


def _sentence_names(case: Case) -> Verdict | None:
    """A gold sentence naming the teams or countries a question asks for ("the golden state warriors
    beat the boston celtics in the 2022 nba finals", asked which team the warriors beat), read as a short
    gold naming them is, by any of their names ("Boston", "the Celtics"); None when the sentence does not
    tell which of its names answer."""
    names = key_names(case.wanted, case.question)
    if names is None:
        return None
    return names_fact_verdict(case.prediction, case.wanted, names, case.question)


def _two_options(case: Case) -> Verdict | None:
    """A question offering two options (options.py): the option the gold chooses; None when the
    prediction names neither."""
    assert case.options is not None
    return option_verdict(case.said, case.wanted, case.question, *case.options)


def _sentence_title(case: Case) -> Verdict | None:
    """A gold sentence quoting one title the question does not contain, asked what or which thing
    ("leonardo dicaprio won his first academy award for best actor for his role in "the revenant" in
    2016", asked what movie earned it): read as a short gold naming that title is, the sentence's other
    words being what the prediction may also say and its values having to be the sentence's
    ("The Revenant, in 2014" is wrong, and so is a short answer sharing no distinctive word with the
    sentence and the question: "overexposed"); None when the sentence quotes no such title."""
    title = quoted_title(case.gold, case.question)
    if title is None:
        return None
    verdict = names_fact_verdict(case.prediction, case.wanted, (title,), case.question)
    known = [*case.wanted, *words(case.question)]
    said = [t for t in case.said.words if distinctive(t)]
    if verdict is Verdict.UNSURE and said and len(case.said.words) <= SHORT_ITEM_WORDS:
        return unsure_if(any(stated_in(t, known) for t in said))  # "overexposed": another title
    return verdict


def _sentence_identified(case: Case) -> Verdict | None:
    """A gold sentence that identifies its answer, "<one side> is <the other>", one side restating the
    question (sentences.py: "the actor who played the role ... is gabriel macht."), against a
    prediction that names that answer as a short gold is named ("Gabriel Macht", "Macht") with no value
    the sentence lacks: correct; None otherwise, for the sentence's rules (this rule never says wrong).
    A hypothesis from batches 7-9's tune labels."""
    answer = identified_answer(case.wanted, case.question)
    if answer is None or len(case.said.words) > SHORT_ITEM_WORDS + 2:
        return None
    if any(not stated_in(t, case.wanted) for t in case.said.words if isinstance(t, (Quantity, Date))):
        return None  # "The Shard, 390.6 meters tall" for "... a height of 309.6 meters": not this rule's

    verdict = phrase_verdict(case.said, answer, case.question)
    return Verdict.CORRECT if verdict is Verdict.CORRECT else None


def _sentence_list(case: Case) -> Verdict | None:
    """A gold sentence whose subject restates the question and whose copula gives a list ("the original
    members of fleetwood mac were mick fleetwood, john mcvie, peter green, and jeremy spencer."), read
    as that gold list is (lists.py: every item and nothing else); None when the sentence gives no such
    list or the list's reading is unsure. A prediction that is a sentence too is read from its copula
    on. A hypothesis from batches 7-9's tune labels."""
    items = identified_list(case.wanted, case.question)
    if items is None:
        return None
    said = case.said
    if listed := COPULA_THEN.split(case.prediction, maxsplit=1)[1:]:
        said = Prediction.read(listed[0], case.wanted)  # "The original lineup was Fleetwood, ..."
    verdict = list_verdict(said, items, case.question)
    return None if verdict is Verdict.UNSURE else verdict


def _sentence(case: Case) -> Verdict:
    """A gold sentence (sentences.py): the key fact the question asks for."""
    return sentence_verdict(case.said, case.wanted, case.gold, case.question)


def _phrase(case: Case) -> Judgement:
    """A gold phrase, a name or a title (phrases.py), read several ways, the best reading deciding:
    - "phrase": the name, whole or by a distinctive part;
    - "phrase: code": a two-letter code ("en" is English when the question asks for a language; other
      codes leave it unsure);
    - "phrase: list": a name with "and" in it read as a list ("ella and alexander clooney"; "Ella"
      leaves an item out), the only reading when the question asks for several ("who are the highest
      paid players?": "Lewandowski" for "frenkie de jong and robert lewandowski" is part of the list);
    - "phrase: head": a name, then where it is ("los angeles, usa");
    - "phrase: sentence": a phrase of 4 words or more the phrase readings are unsure of, read as a
      sentence;
    - "phrase: another name": unsure so far, and the prediction names another team or country than
      the gold's one: wrong."""
    said, wanted, gold_words, question = case.said, case.wanted, case.gold_words, case.question
    reading = "phrase"
    verdict = phrase_verdict(said, gold_words, question, by_part=len(list_items(wanted, at=frozenset())) == 1)
    if len(gold_words) == 1 and len(case.gold.strip()) == 2 and len(said.words) <= 2 and case.options is None:
        code = gold_words[0]
        if code in LANGUAGE_CODES and ("language" in question.lower() or not question):
            read_as_code = phrase_verdict(said, (LANGUAGE_CODES[str(code)],), question)
        else:
            read_as_code = Verdict.UNSURE  # "spain" for "es": a code the rules cannot read
        if best([verdict, read_as_code]) is not verdict:
            reading, verdict = BY_CODE, best([verdict, read_as_code])
    parts = list_items(wanted, at=frozenset())
    if is_list(list_items(wanted, at=AND)) and not (two_parts(parts) and not parallel(*parts)):
        as_list = list_verdict(said, list_items(wanted, at=AND), question)
        several = bool(ASKS_FOR_SEVERAL.search(question.lower()))  # "who are ...": the list decides
        combined = (
            Verdict.WRONG
            if (as_list, verdict) == (Verdict.WRONG, Verdict.UNSURE)
            else as_list
            if several
            else best([as_list, verdict])
        )
        if combined is not verdict:
            reading, verdict = AS_LIST, combined
    head = head_verdict(said, wanted, question) if verdict is not Verdict.CORRECT else None
    if head is not None:
        combined = head if head is Verdict.WRONG else best([verdict, head])
        if combined is not verdict:
            reading, verdict = BY_HEAD, combined
    if verdict is Verdict.UNSURE and len(gold_words) >= SENTENCE_MIN_WORDS:
        return Judgement(sentence_verdict(said, wanted, case.gold, question), AS_SENTENCE)
    if verdict is Verdict.UNSURE and other_name(said, wanted):
        return Judgement(Verdict.WRONG, ANOTHER_NAME)
    return Judgement(verdict, reading)


def _always(case: Case) -> bool:
    return True


RULES: tuple[Rule, ...] = (
    Rule("invalid question", lambda c: c.kind is Kind.INVALID, _invalid_question),
    Rule("prediction says invalid question", lambda c: c.said.words[:2] == INVALID, _says_invalid),
    Rule("same words", lambda c: c.said.words == c.gold_words, _same_words),
    Rule(NO_ANSWER, lambda c: c.kind is Kind.NONE, _no_gold_answer),
    Rule(
        "declines",
        lambda c: not c.said.words or bool(DECLINE.search(c.prediction.lower().replace("’", "'"))),
        _declines,
    ),
    Rule("people by relations", _always, _people),
    Rule("dates by quarter", _always, _quarter_dates),
    Rule("yes or no", lambda c: c.kind is Kind.POLARITY, _yes_or_no),
    Rule("none", lambda c: says_none(c.gold_words), _none),
    Rule("one value", lambda c: c.kind is Kind.VALUE, _one_value),
    Rule("match result", lambda c: match_result(c.gold_words) is not None, _match_result),
    Rule("one value two ways", lambda c: bool(value_alternatives(c.gold)), _two_ways),
    Rule(
        PARTIAL_LIST_RULE,
        lambda c: c.kind in (Kind.LIST, Kind.SENTENCE) and bool(PARTIAL_LIST.search(c.prediction.lower())),
        _partial_list,
    ),
    Rule("list", lambda c: c.kind is Kind.LIST, _list),
    Rule("sentence: name and value", lambda c: c.reads_as_sentence, _name_and_value),
    Rule("sentence: comparison", lambda c: c.reads_as_sentence, _sentence_comparison),
    Rule("sentence: none", lambda c: c.reads_as_sentence, _sentence_none),
    Rule("sentence: counts", lambda c: c.reads_as_sentence, _sentence_counts),
    Rule(
        "sentence: another name",
        lambda c: c.reads_as_sentence and asks_for_value(c.question),
        _sentence_another_name,
    ),
    Rule("sentence: value", lambda c: c.reads_as_sentence, _sentence_value),
    Rule("sentence: names", lambda c: c.reads_as_sentence, _sentence_names),
    Rule("two options", lambda c: c.options is not None, _two_options),
    Rule("sentence: quoted title", lambda c: c.kind is Kind.SENTENCE, _sentence_title),
    Rule(
        "sentence: identified",
        lambda c: c.kind is Kind.SENTENCE and not asks_for_value(c.question),
        _sentence_identified,
    ),
    Rule("sentence: list", lambda c: c.kind is Kind.SENTENCE, _sentence_list),
    Rule("sentence", lambda c: c.kind is Kind.SENTENCE, _sentence),
    Rule("phrase", _always, _phrase),
)


# Every name a verdict may carry.
RULE_NAMES = frozenset(
    {REFUSAL, NO_ANSWER, BY_CODE, AS_LIST, BY_HEAD, AS_SENTENCE, ANOTHER_NAME, *(rule.name for rule in RULES)}
)


def judge(case: Case, after: str | None = None) -> Judgement:
    """The first decision of the rules that apply to `case` (those after the rule named `after`, when
    one is), with the deciding rule's name."""
    rules = RULES[[rule.name for rule in RULES].index(after) + 1 :] if after else RULES
    for rule in rules:
        if not rule.applies(case):
            continue
        decision = rule.decide(case)
        if isinstance(decision, Judgement):
            return decision
        if decision is not None:
            return Judgement(decision, rule.name)
    raise AssertionError("the last rule decides every case")


def judge_answer(
    prediction: str, gold: str, alternatives: Sequence[str] = (), *, question: str = ""
) -> Judgement:
    """The verdict on `prediction` against `gold` and its `alternatives`, with the rule that decided it.
    A prediction with "i don't know" in it is missing (the leaderboard's rule). The answers state one
    fact: agreeing with one is correct, else contradicting one is wrong, else it is unsure. `question`
    tells a sentence answer's key facts from what the question already says."""
    if is_refusal(prediction):
        return Judgement(Verdict.MISSING, REFUSAL)
    answers = [answer for answer in dict.fromkeys([gold, *alternatives]) if answer.strip()]
    judgements = [judge(Case(prediction, answer, question)) for answer in answers]
    for verdict in (Verdict.CORRECT, Verdict.WRONG, Verdict.UNSURE):
        for judgement in judgements:
            if judgement.verdict is verdict:
                return judgement
    return Judgement(Verdict.UNSURE, NO_ANSWER)


def check_answer(
    prediction: str, gold: str, alternatives: Sequence[str] = (), *, question: str = ""
) -> Verdict:
    """`judge_answer`'s verdict alone."""
    return judge_answer(prediction, gold, alternatives, question=question).verdict

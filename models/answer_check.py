"""The form an answer must take, read from the question itself, and checked after the reasoning.

A question that names its options ("which is taller, a or b?", "which of the two stars, a or b,
...", "...? was it home or away?") must get one of them; a yes/no question (opening with an
auxiliary verb, not a polite "can you tell me ...", with no "or" in it) a yes/no answer; one that
asks "is x a or b?" (kind `either`) one of its two options, the first taken as long as the second
(the words before its "or" do not say where it starts); "what year"
a year, "what date" / "when was x born" a date, "how many" / "how much" / "what percentage" a
number. Any other shape imposes nothing, and so does a question that asks more than one thing.

Options are matched leniently on form: case, articles and punctuation aside, an option is named
when the answer holds its words in order or one of its distinctive words (those no other option
has: "bieber" names neither "justin bieber" nor "hailey bieber", "justin" does). An answer naming
none of them violates, unless it answers the choice otherwise (a tie, both, neither); one naming
several violates only when it is nothing but the options (an answer that repeats the question's
"a or b"), since a sentence comparing them ("a is older than b") answers the choice. "I don't know"
and "invalid question" never violate. The reasoning prompt is not told any of this (stating the
constraints there made the small model worse): a violating answer is asked again in one short
prompt, or refused, or kept, as the answer policy says (models/policy.py, models/stages.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from models import vocabulary as v
from models.answers import I_DONT_KNOW, INVALID_QUESTION, normalize_answer, parse_structured_reply
from models.config import AnswerCheckConfig
from models.llm.base import Conversation, GenerationParams, LLMBackend
from models.prompts import PromptLibrary
from models.reasoning import NONE_GIVEN
from models.schema import Question, StageResult

ConstraintKind = Literal["options", "either", "yes_no", "year", "date", "number"]
CONSTRAINT_KINDS: tuple[ConstraintKind, ...] = ("options", "either", "yes_no", "year", "date", "number")

_POLITE = re.compile(v.POLITE_REQUEST)
_AUXILIARY = re.compile(v.AUXILIARY_OPENING)
_WH = re.compile(v.WH_WORD)
_WHICH_OF_GROUP = re.compile(v.WHICH_OF_GROUP)
_OPTIONS_LEAD = re.compile(v.OPTIONS_LEAD)
_OR = re.compile(v.OPTIONS_OR)
_EITHER_NO_OPTION = re.compile(v.EITHER_NO_OPTION)
_EITHER_YES_NO = re.compile(v.EITHER_YES_NO)
_TIE = re.compile(v.TIE_ANSWER)
_YES_NO = re.compile(v.YES_NO_ANSWER)
_EXISTENTIAL = re.compile(v.EXISTENTIAL_OPENING)
_COMPARISON_ASKED = re.compile(v.COMPARISON_ASKED)
_COMPARATIVE = v.word_pattern(v.COMPARATIVES)
_NO_EVENT = re.compile(v.NO_EVENT_ANSWER)
_ASKED: dict[ConstraintKind, re.Pattern[str]] = {
    "year": re.compile(v.YEAR_ASKED),
    "date": re.compile(v.DATE_ASKED),
    "number": re.compile(v.NUMBER_ASKED),
}
_WRITTEN: dict[ConstraintKind, re.Pattern[str]] = {
    "year": re.compile(v.YEAR_IN_ANSWER),
    "date": re.compile(v.DATE_IN_ANSWER),
    "number": re.compile(v.NUMBER_IN_ANSWER),
}
_CLAUSE_END = re.compile(r"[,:;?]")
_SEGMENT_END = re.compile(r"[,;?]")


@dataclass(frozen=True)
class AnswerConstraint:
    kind: ConstraintKind
    options: tuple[str, ...] = ()
    comparison: bool = False  # a yes/no question that compares: "lower" answers "is it higher than ...?"


def read_constraint(query: str) -> AnswerConstraint | None:
    """The form the question's own wording asks its answer to take; None when it is not clear."""
    text = " ".join(query.lower().replace("\u2019", "'").split())
    options = _options(text)
    if options is not None:
        return AnswerConstraint("options", options)
    if "?" in text.rstrip("? "):  # more than one question
        return None
    if _AUXILIARY.match(text) and not (_POLITE.match(text) or _EXISTENTIAL.match(text)):
        if not _OR.search(text):
            return AnswerConstraint("yes_no", comparison=bool(_COMPARISON_ASKED.search(text)))
        either = _either(text)
        return AnswerConstraint("either", either) if either else None
    opening = _opening(text)
    for kind, asked in _ASKED.items():
        if asked.search(opening):
            return AnswerConstraint(kind)
    return None


def violates(constraint: AnswerConstraint, answer: str) -> str | None:
    """Why `answer` does not take the form `constraint` asks for; None when it does."""
    if answer in (I_DONT_KNOW, INVALID_QUESTION):
        return None
    text = answer.lower()
    if constraint.kind in ("options", "either"):
        return _violates_options(constraint.options, text)
    if constraint.kind == "yes_no":
        compared = constraint.comparison and _COMPARATIVE is not None and _COMPARATIVE.search(text)
        return None if _YES_NO.search(text) or compared else "no yes or no"
    if _WRITTEN[constraint.kind].search(text) or (constraint.kind != "number" and _NO_EVENT.search(text)):
        return None
    return f"no {constraint.kind}"


def _opening(text: str) -> str:
    """The question's own words: a polite request and a leading clause ("in 2022, ...") left out."""
    text = _POLITE.sub("", text).lstrip(" ,")
    first, comma, rest = text.partition(", ")
    return rest if comma and not _WH.search(first) and not _AUXILIARY.match(first) else text


def _options(text: str) -> tuple[str, ...] | None:
    """The options a wh-question lists after its clause: "<clause>, a(, b) or c" ending the question,
    or "which of the two <things>, a or b, <rest>"."""
    wh = _WH.search(text)
    if wh is None:
        return None
    end = _CLAUSE_END.search(text, wh.end())
    if end is None:
        return None
    clause = text[: end.start()]
    segments = [segment.strip() for segment in _SEGMENT_END.split(text[end.end() :])]
    while segments and not segments[-1]:
        segments.pop()
    listed = [index for index, segment in enumerate(segments) if _OR.search(segment)]
    if not listed:
        return None
    last = listed[-1]
    if last != len(segments) - 1 and not _WHICH_OF_GROUP.search(clause):
        return None
    items = [*segments[:last], *_OR.split(segments[last])]
    options = tuple(_OPTIONS_LEAD.sub("", item.strip(" \"'")).strip(" \"'") for item in items if item.strip())
    if len(options) < 2 or any(_AUXILIARY.match(option) or _WH.match(option) for option in options):
        return None
    return options


def _either(text: str) -> tuple[str, str] | None:
    """The two options of "<auxiliary> ... a or b?" (one "or", no list): b is everything after the
    "or", a the as many words before it (at least one), the auxiliary verb left out."""
    body = _AUXILIARY.sub("", text.rstrip("?. ")).strip()
    parts = _OR.split(body)
    if len(parts) != 2 or "," in body or _EITHER_NO_OPTION.match(parts[1]) or _EITHER_YES_NO.search(parts[0]):
        return None
    first, second = parts[0].split(), parts[1].split()
    if not first or not second:
        return None
    return " ".join(first[-len(second) :]), " ".join(second)


def _words(text: str) -> list[str]:
    """The words of `text` that may name something (articles and joining words left out)."""
    return [word for word in re.findall(r"[^\W_]+", text.lower()) if word not in v.OPTION_FILLERS]


def _violates_options(options: tuple[str, ...], answer: str) -> str | None:
    words = _words(answer)
    named = [option for option in options if _names(option, options, words)]
    if len(named) == 1:
        return None
    if not named:
        return None if _TIE.search(answer) else "names none of the options"
    own = {word for option in named for word in _words(option)}
    if _TIE.search(answer) or any(word not in own for word in words):
        return None
    return "only repeats the options"


def _names(option: str, options: tuple[str, ...], answer: list[str]) -> bool:
    """Whether the answer's words name `option`: all its words in order, or one no other option has."""
    own = _words(option)
    if own and any(answer[start : start + len(own)] == own for start in range(len(answer) - len(own) + 1)):
        return True
    others = {word for other in options if other != option for word in _words(other)}
    distinctive = {word for word in own if word not in others and (len(word) > 1 or word.isdigit())}
    return not distinctive.isdisjoint(answer)


@dataclass
class RetriedAnswer(StageResult):
    answer: str = I_DONT_KNOW


@dataclass
class Violation:
    """A question whose answer broke its constraint (`why`), with what the retry prompt restates."""

    question: Question
    constraint: AnswerConstraint
    why: str
    answer: str
    references: list[str]
    reasoning: str


class AnswerChecker:
    """The check of a batch's answers (no LLM call) and, when there is an LLM, one short call for
    the violating answers the answer policy asks again: the question, the form asked, the
    references and reasoning already given, and the answer that did not take that form."""

    def __init__(self, config: AnswerCheckConfig, llm: LLMBackend | None, prompts: PromptLibrary):
        self.config = config
        self.llm = llm
        self.prompts = prompts
        self.kinds = frozenset(config.kinds)
        unknown = sorted(self.kinds - set(CONSTRAINT_KINDS))
        if unknown:
            raise ValueError(
                f"answer_check.kinds names unknown kinds {unknown}; the kinds are {list(CONSTRAINT_KINDS)}"
            )

    @property
    def retries(self) -> bool:
        """Whether it can ask again (it has an LLM); where it does is the answer policy's choice."""
        return self.llm is not None

    def check(self, query: str, answer: str) -> tuple[AnswerConstraint, str] | None:
        """The question's constraint and why `answer` breaks it; None when it keeps it (or has none)."""
        constraint = read_constraint(query)
        if constraint is None or constraint.kind not in self.kinds:
            return None
        why = violates(constraint, answer)
        return (constraint, why) if why else None

    def conversations(self, violations: list[Violation]) -> list[Conversation]:
        return [self._conversation(violation) for violation in violations]

    def prompt_tokens(self, conversations: list[Conversation]) -> list[int]:
        assert self.llm is not None
        return [self.llm.conversation_tokens(c) for c in conversations]

    def run(self, conversations: list[Conversation]) -> list[RetriedAnswer]:
        assert self.llm is not None
        params = GenerationParams(
            max_tokens=self.config.max_tokens,
            json_schema=self._schema() if self.config.constrained_output else None,
        )
        results = []
        for completion in self.llm.generate(conversations, params):
            fields = parse_structured_reply(completion.text, ("answer",))
            result = RetriedAnswer(
                answer=normalize_answer(fields.get("answer", completion.text)), error=completion.error
            )
            result.usage.add(completion)
            results.append(result)
        return results

    def json_schemas(self) -> list[dict[str, Any]]:
        """The output schemas this stage sends (for the backend's warm-up)."""
        return [self._schema()] if self.retries and self.config.constrained_output else []

    def _conversation(self, violation: Violation) -> Conversation:
        """The template names the form asked in its own words: one `[if <kind>]` block per kind."""
        assert self.llm is not None
        constraint, question = violation.constraint, violation.question
        return self.prompts.conversation(
            "answer_check",
            query=question.query,
            query_time=question.query_time or "unknown",
            options="; ".join(constraint.options) if constraint.options else None,
            **({} if constraint.options else {constraint.kind: ""}),
            references=self.llm.truncate_to_tokens(
                "\n".join(violation.references), self.config.max_reference_tokens
            )
            or NONE_GIVEN,
            reasoning=self.llm.truncate_to_tokens(violation.reasoning, self.config.max_reasoning_tokens)
            or NONE_GIVEN,
            answer=violation.answer,
        )

    def _schema(self) -> dict[str, Any]:
        answer = {"type": "string", "maxLength": self.config.answer_max_chars}
        return {"type": "object", "properties": {"answer": answer}, "required": ["answer"]}

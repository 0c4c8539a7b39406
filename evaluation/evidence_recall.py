"""Evidence recall: does a question's evidence hold its whole gold answer, word for word?

One metric for `local_evaluation.py --references-only` and `benchmarks/retrieval.py`.

- Text is normalised alike on both sides: accents dropped, lower case, thousands separators
  removed ("3,696" = "3696"), every other non-alphanumeric character a word break.
- Matching is word-bounded: "en" does not match inside "often".
- An answer is a set of key spans, and it is found only when every span is present:
  a short answer is found whole, or as all the items of its list ("A, B and C" -> A, B, C);
  a sentence answer's spans are its runs of content words that the question does not already
  contain ("the shortest highway in the us, i-878 in new york, is ..." -> "i 878", "new york", ...).
- A question counts when its gold answer or any alternative answer is found.
- A question with hand-verified evidence spans (`evidence_spans`, phrases that prove the answer)
  counts when every span is found (`spans_key`); they replace the spans drawn from the answer.
- Answers that cannot be matched as strings are excluded from the count, with the reason:
  yes/no and other stock replies, false-premise questions (the answer rejects the question),
  numbers computed by aggregation or post-processing, and sentences that add nothing to the question.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# More words than this and an answer reads as a sentence, whose key spans are its content words.
SHORT_ANSWER_MAX_WORDS = 8
STOCK_REPLIES = frozenset(
    {"yes", "no", "true", "false", "invalid question", "i don t know", "nan", "n a", "none", "unknown"}
)
COMPUTED_QUESTION_TYPES = frozenset({"aggregation", "post-processing"})
STOP_WORDS = frozenset(
    "a an the and or of in on at to for from by with as is are was were be been being has have had it its "
    "this that these those who whom which what when where why how than then there their they he she his "
    "her them we you i not do does did can could would should will may might over under into about each "
    "only also other some such very more most less least all any both s".split()
)
_ARTICLE = re.compile(r"^(?:the|a|an) ")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_NON_WORD = re.compile(r"[\W_]+")
_LIST_BREAK = re.compile(r"\s*(?:[,;/]|\s&\s|\band\b)\s*", re.IGNORECASE)
# Punctuation that ends a phrase in a sentence answer (a period only before a space or the end,
# so "i-878" and "1.5" stay whole).
_PHRASE_BREAK = re.compile(r"[,;:!?()\[\]\"“”]|\.(?=\s|$)")


def normalize(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(_NON_WORD.sub(" ", _THOUSANDS.sub("", plain.lower())).split())


@dataclass(frozen=True)
class AnswerKey:
    """What must be in the evidence: one tuple of key spans per acceptable answer (any one will do)."""

    query: str
    options: tuple[tuple[str, ...], ...]
    excluded: str | None = None  # why the question cannot be scored by string matching


@dataclass(frozen=True)
class Match:
    found: bool
    missing: tuple[str, ...]  # spans of the closest answer that the evidence lacks


def answer_key(
    query: str, answer: str, alternatives: Iterable[str] = (), question_type: str | None = None
) -> AnswerKey:
    answers = [a for a in dict.fromkeys([answer, *alternatives]) if normalize(a)]
    if not answers:
        return AnswerKey(query, (), "no answer")
    if question_type == "false_premise" or normalize(answer) == "invalid question":
        return AnswerKey(query, (), "false premise: the answer rejects the question")
    if normalize(answer) in STOCK_REPLIES:
        return AnswerKey(query, (), f"stock reply {normalize(answer)!r}")
    if question_type in COMPUTED_QUESTION_TYPES and re.search(r"\d", answer):
        return AnswerKey(query, (), f"computed number ({question_type})")
    query_words = set(normalize(query).split())
    options: list[tuple[str, ...]] = []
    for text in answers:
        if normalize(text) in STOCK_REPLIES:
            continue
        options.extend(span_options(text, query_words))
    options = [option for option in dict.fromkeys(options) if option]
    if not options:
        return AnswerKey(query, (), "the answer adds no word to the question")
    return AnswerKey(query, tuple(options))


def spans_key(query: str, spans: Iterable[str]) -> AnswerKey:
    """The key of a question whose proving phrases were verified by hand: all of them must be found."""
    normalized = tuple(dict.fromkeys(normalize(span) for span in spans))
    normalized = tuple(span for span in normalized if span)
    if not normalized:
        return AnswerKey(query, (), "no evidence span")
    return AnswerKey(query, (normalized,))


def span_options(answer: str, query_words: set[str]) -> list[tuple[str, ...]]:
    """The ways `answer` can be found: whole or item by item when short; by its key phrases when long."""
    whole = normalize(answer)
    if len(whole.split()) > SHORT_ANSWER_MAX_WORDS:
        return [sentence_spans(answer, query_words)]
    items = tuple(dict.fromkeys(_without_article(normalize(item)) for item in _LIST_BREAK.split(answer)))
    items = tuple(item for item in items if item)
    return [(_without_article(whole),), items] if len(items) > 1 else [(_without_article(whole),)]


def sentence_spans(answer: str, query_words: set[str]) -> tuple[str, ...]:
    """Maximal runs of content words not in the question, within each phrase of the sentence.

    A word is taken as written ("i-878", "at&t"): it is content when any of its parts is.
    """
    spans: list[str] = []
    for phrase in _PHRASE_BREAK.split(_THOUSANDS.sub("", answer)):
        run: list[str] = []
        for word in [*phrase.split(), ""]:
            parts = normalize(word).split()
            if any(part not in STOP_WORDS and part not in query_words for part in parts):
                run.append(word)
            elif run:
                spans.append(normalize(" ".join(run)))
                run = []
    return tuple(dict.fromkeys(spans))


def match(key: AnswerKey, evidence: Sequence[str]) -> Match | None:
    """Whether `evidence` holds every span of some acceptable answer; None for an excluded question."""
    if key.excluded is not None:
        return None
    text = f" {normalize(' '.join(evidence))} "
    closest: tuple[float, tuple[str, ...]] | None = None
    for spans in key.options:
        missing = _missing(spans, text)
        if not missing:
            return Match(True, ())
        if closest is None or len(missing) / len(spans) < closest[0]:
            closest = (len(missing) / len(spans), missing)
    return Match(False, closest[1] if closest else ())


def found_in(key: AnswerKey, normalized: str) -> bool:
    """`match(...).found` for text already normalized (`normalize`): the check for a long text
    asked about many questions."""
    text = f" {normalized} "
    return key.excluded is None and any(not _missing(spans, text) for spans in key.options)


def _missing(spans: tuple[str, ...], padded: str) -> tuple[str, ...]:
    return tuple(span for span in spans if f" {span} " not in padded)


def _without_article(text: str) -> str:
    return _ARTICLE.sub("", text)

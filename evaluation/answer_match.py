"""The answer checker: does a prediction state a CRAG gold answer, the way the CRAG judge reads it?

`check_answer(prediction, gold, alternatives, question=...)` returns one of four verdicts:

- MISSING: the prediction contains "i don't know" (the leaderboard's rule, lower-cased);
- CORRECT or WRONG, when the rules below decide;
- UNSURE, when they cannot: the caller asks an LLM judge (local_evaluation.py) or counts it as wrong.

A prediction is correct when it agrees with the gold answer or an alternative, and wrong when it
contradicts one of them (they state one fact). Both texts are read alike into words, values and phrase
breaks: accents and articles dropped, lower case; numbers as values with their unit ("$61.8 billion" =
"61,800,000,000 dollars", "82.61%" = "82.61 percent"; a unit on one side only is fine); dates in any
written form, partial ones too ("1973-07-17" = "July 17, 1973" = "17 Jul 1973"; "March 1993" states
"1993", "1993" does not state "March 1993"). The kind of gold answer decides the rule:

- "invalid question": only the prediction "invalid question" (which is unsure against a free-text
  gold that denies the question's premise).
- yes/no ("yes", "no, ..."): the prediction's leading yes or no.
- one value ("1973-07-17", "5 times", "$45 million"): a value of the prediction equals it. A rounded or
  less specific value ("$35.8" for "$35.78", "2013" for "October 17, 2013"), another unit of the same
  kind ("1,201 feet" for "366 m") or other values beside it are unsure; only other values: wrong.
- a list ("solid, liquid and gas"): every item and nothing else, in any order; an item left out or
  one added is wrong. Items match whole or by a distinctive part ("Browns" for "Cleveland Browns").
- a phrase (a name, a title): the prediction contains it ("He played for the Denver Broncos") or names
  it by a distinctive part ("Djokovic", "Mayon" for "Mayon Volcano"). Naming other candidates beside it
  ("Inception and Interstellar", "either X or Y") is wrong; containing it inside a longer name ("Talons
  of the Eagle" for "the eagle"), or with more than a little besides, is unsure; sharing a word or an
  abbreviation is unsure; sharing nothing is wrong.
- a sentence ("the rolling stones have released a total of 31 studio albums."): a prediction that says
  nothing the sentence and the question do not is correct when it gives a key fact, one the question
  does not already contain ("31"): a value when a value is asked for, every name the sentence adds
  otherwise, a list inside the sentence whole. A different value where the sentence has one is wrong,
  and so is a prediction of other facts, none of them the sentence's key facts.
- for a question offering two options ("which is brighter, sirius or alpha centauri?"): the option the
  gold names (or names before "than") is correct, the other wrong.

The question tells a sentence's key facts from what the question already says; without it, agreeing
with a sentence is unsure. A prediction that hedges ("probably", "either ... or") or negates when the
gold does not is at best unsure; one that declines ("not enough information") is wrong, as the
judge's rules say.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache


class Verdict(enum.Enum):
    CORRECT = "correct"
    WRONG = "wrong"
    MISSING = "missing"
    UNSURE = "unsure"


def is_refusal(prediction: str) -> bool:
    """The leaderboard's "missing" rule: the lower-cased prediction contains "i don't know"."""
    return "i don't know" in prediction.lower()


def check_answer(
    prediction: str, gold: str, alternatives: Sequence[str] = (), *, question: str = ""
) -> Verdict:
    """The verdict on `prediction` against `gold` and its `alternatives` (see the module docstring).
    `question` tells a sentence answer's key facts from what the question already says."""
    if is_refusal(prediction):
        return Verdict.MISSING
    answers = [answer for answer in dict.fromkeys([gold, *alternatives]) if answer.strip()]
    verdicts = {_check(prediction, answer, question) for answer in answers}
    for verdict in (Verdict.CORRECT, Verdict.WRONG):  # the answers state one fact: contradicting one is wrong
        if verdict in verdicts:
            return verdict
    return Verdict.UNSURE


def states(text: str, answer: str) -> bool:
    """Whether `text` contains `answer`: the same words in order, numbers as values, dates as dates."""
    return _find(words(text), words(answer)) is Agreement.SAME


def best(verdicts) -> Verdict:
    """The best of the verdicts of several readings of one gold answer: correct, unsure, wrong."""
    found = set(verdicts)
    for verdict in (Verdict.CORRECT, Verdict.UNSURE):
        if verdict in found:
            return verdict
    return Verdict.WRONG


# ---------------------------------------------------------------------------------------------
# Reading text into tokens: words (str), values (Quantity, Date) and phrase breaks (COMMA, STOP).


@dataclass(frozen=True)
class Quantity:
    value: Decimal
    unit: str = ""  # a canonical unit ("usd", "%", "m", "year", ...) or "" when none is written
    precision: Decimal = Decimal(1)  # the place of the last written digit, scaled ("35.8" -> 0.1)


@dataclass(frozen=True)
class Date:
    year: int | None
    month: int | None = None
    day: int | None = None


Token = str | Quantity | Date
COMMA = ","  # commas and semicolons: where list items and phrases break
STOP = "."  # sentence ends, colons and brackets: where phrases break, but not list items
BREAKS = frozenset({COMMA, STOP})

MONTHS = {
    name: number
    for number, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
         ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
         ("october", "oct"), ("november", "nov"), ("december", "dec")],
        start=1,
    )
    for name in names
}  # fmt: skip
NUMBER_WORDS = {
    word: number
    for number, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen twenty".split()
    )
} | {"once": 1, "twice": 2, "thrice": 3, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100}
SCALES = {"thousand": 10**3, "k": 10**3, "million": 10**6, "mn": 10**6, "mln": 10**6, "billion": 10**9,
          "bn": 10**9, "b": 10**9, "trillion": 10**12, "tn": 10**12}  # fmt: skip
LETTERS = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "ß": "ss",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "þ": "th",
        "ı": "i",
    }
)  # letters that Unicode does not decompose
CURRENCY_SYMBOLS = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy"}
# unit word -> (canonical unit, kind); units of one kind may be conversions of each other
UNITS = {
    "%": ("%", "percent"), "percent": ("%", "percent"), "pct": ("%", "percent"),
    "usd": ("usd", "money"), "dollar": ("usd", "money"), "dollars": ("usd", "money"),
    "eur": ("eur", "money"), "euro": ("eur", "money"), "euros": ("eur", "money"),
    "gbp": ("gbp", "money"), "jpy": ("jpy", "money"), "yen": ("jpy", "money"),
    "ft": ("ft", "length"), "foot": ("ft", "length"), "feet": ("ft", "length"),
    "m": ("m", "length"), "meter": ("m", "length"), "meters": ("m", "length"), "metre": ("m", "length"),
    "metres": ("m", "length"), "km": ("km", "length"), "kilometers": ("km", "length"),
    "kilometres": ("km", "length"), "mi": ("mi", "length"), "mile": ("mi", "length"),
    "miles": ("mi", "length"), "cm": ("cm", "length"), "inches": ("in", "length"),
    "kg": ("kg", "weight"), "kilograms": ("kg", "weight"), "lb": ("lb", "weight"), "lbs": ("lb", "weight"),
    "pound": ("lb", "weight"), "pounds": ("lb", "weight"), "tons": ("t", "weight"),
    "year": ("year", "time"), "years": ("year", "time"), "yrs": ("year", "time"),
    "month": ("month", "time"), "months": ("month", "time"), "week": ("week", "time"),
    "weeks": ("week", "time"), "day": ("day", "time"), "days": ("day", "time"),
    "hour": ("hour", "time"), "hours": ("hour", "time"), "minute": ("minute", "time"),
    "minutes": ("minute", "time"),
}  # fmt: skip
UNIT_KINDS = {unit: kind for unit, kind in UNITS.values()} | {
    code: "money" for code in CURRENCY_SYMBOLS.values()
}
ARTICLES = frozenset({"the", "a", "an"})
# Comparison phrases written several ways ("more than one year" = "over one year").
PHRASES = [(re.compile(rf"\b(?:{pattern})\b"), word) for pattern, word in [
    ("more than|longer than|greater than|in excess of", "over"),
    ("less than|fewer than|shorter than", "under"),
]]  # fmt: skip

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_PIECE = re.compile(
    rf"""
      (?P<iso>(?<![\d.])\d{{4}}-\d{{1,2}}-\d{{1,2}}(?!\d))
    | (?P<us>(?<![\d.])\d{{1,2}}/\d{{1,2}}/\d{{4}}(?!\d))
    | (?P<mdy>\b(?:{_MONTH})\.?\s+{_DAY}(?:,?\s+\d{{4}})?(?!\d))
    | (?P<dmy>(?<![\d.]){_DAY}\s+(?:of\s+)?(?:{_MONTH})\b\.?(?:,?\s+\d{{4}}(?!\d))?)
    | (?P<my>\b(?:{_MONTH})\.?,?\s+\d{{4}}(?!\d))
    | (?P<ym>(?<![\d.])\d{{4}}-\d{{2}}(?![\d-]))
    | (?P<number>(?:(?<![\w.])-)?\d+(?:\.\d+)?)(?:st|nd|rd|th)?
    | (?P<symbol>[$€£¥%])
    | (?P<word>[^\W\d_]+(?:&[^\W\d_]+)*)
    | (?P<comma>[,;])
    | (?P<stop>[:()\[\]!?]|(?<!\b\w)(?<!\bmr)(?<!\bmrs)(?<!\bdr)(?<!\bst)(?<!\bjr)(?<!\bsr)(?<!\bvs)\.(?!\w))
    """,
    re.VERBOSE,
)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_POSSESSIVE = re.compile(r"(?<=[^\W\d_])'s\b")


@lru_cache(maxsize=65536)
def tokens(text: str) -> tuple[Token, ...]:
    """`text` as words, values and phrase breaks (articles dropped)."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    plain = plain.translate(LETTERS)
    plain = _THOUSANDS.sub("", _POSSESSIVE.sub("", plain.lower().replace("’", "'").replace(" & ", " and ")))
    for pattern, word in PHRASES:
        plain = pattern.sub(word, plain)
    result: list[Token] = []
    currency = ""
    for piece in _PIECE.finditer(plain):
        kind, raw = piece.lastgroup, piece.group(piece.lastgroup)
        if kind == "symbol":
            if raw == "%" and result and isinstance(result[-1], Quantity):
                result[-1] = _with_unit(result[-1], "%")
            currency = CURRENCY_SYMBOLS.get(raw, "")
            continue
        if kind == "number":
            result.append(_quantity(raw, currency))
        elif kind == "word":
            _add_word(result, raw, currency)
        elif kind in ("comma", "stop"):
            mark = COMMA if kind == "comma" else STOP
            if result and result[-1] in BREAKS:
                result[-1] = COMMA if COMMA in (mark, result[-1]) else STOP  # '", "' is a comma
            elif result:
                result.append(mark)
        else:
            result.append(_date(kind, raw))
        currency = ""
    while result and result[-1] in BREAKS:
        result.pop()
    return tuple(result)


def _quantity(raw: str, currency: str) -> Quantity:
    value = Decimal(raw)
    return Quantity(value, currency, Decimal(1).scaleb(value.as_tuple().exponent))


def _with_unit(quantity: Quantity, unit: str) -> Quantity:
    return Quantity(quantity.value, unit, quantity.precision)


def _add_word(result: list[Token], word: str, currency: str) -> None:
    previous = result[-1] if result else None
    if isinstance(previous, Quantity):
        if word in SCALES or (word == "m" and previous.unit in CURRENCY_SYMBOLS.values()):
            scale = SCALES.get(word, 10**6)
            result[-1] = Quantity(previous.value * scale, previous.unit, previous.precision * scale)
            return
        if word in UNITS and (not previous.unit or UNIT_KINDS[previous.unit] == "money" == UNITS[word][1]):
            result[-1] = _with_unit(previous, UNITS[word][0])
            return
    if word in NUMBER_WORDS:
        result.append(Quantity(Decimal(NUMBER_WORDS[word]), currency))
    elif word not in ARTICLES:
        result.append(word)


def _date(kind: str, raw: str) -> Date | str:
    numbers = [int(n) for n in re.findall(r"\d+", raw)]
    month_name = re.search(_MONTH, raw)
    month = MONTHS[month_name.group()] if month_name else None
    if kind == "iso":
        year, month, day = numbers
    elif kind == "us":
        month, day, year = numbers
    elif kind == "ym":
        (year, month), day = numbers, None
    elif kind == "my":
        (year,), day = numbers, None
    else:  # month and day, with or without a year
        day, year = numbers[0], (numbers[1] if len(numbers) > 1 else None)
    if not (month and 1 <= month <= 12 and (day is None or 1 <= day <= 31)):
        return raw  # "2019-20" is a season, not a month
    return Date(year, month, day)


# ---------------------------------------------------------------------------------------------
# Comparing tokens and runs of tokens.


class Agreement(enum.Enum):
    SAME = 0  # the same word or value (a more specific date states a less specific one)
    NEAR = 1  # a rounded number, a less specific date, a value in another unit of the same kind
    CONFLICT = 2  # a different value of the same kind
    UNRELATED = 3


def agree(said: Token, wanted: Token) -> Agreement:
    said, wanted = _as_date(said, wanted), _as_date(wanted, said)
    if isinstance(said, Quantity) and isinstance(wanted, Quantity):
        return _agree_quantities(said, wanted)
    if isinstance(said, Date) and isinstance(wanted, Date):
        fields = [(s, w) for s, w in zip(_fields(said), _fields(wanted)) if s is not None and w is not None]
        if any(s != w for s, w in fields):
            return Agreement.CONFLICT
        missing = any(s is None and w is not None for s, w in zip(_fields(said), _fields(wanted)))
        return Agreement.NEAR if missing else Agreement.SAME
    return Agreement.SAME if said == wanted else Agreement.UNRELATED


def _agree_quantities(said: Quantity, wanted: Quantity) -> Agreement:
    if said.unit and wanted.unit and said.unit != wanted.unit:
        if UNIT_KINDS.get(said.unit) != UNIT_KINDS.get(wanted.unit):
            return Agreement.UNRELATED
        return Agreement.CONFLICT if said.value == wanted.value else Agreement.NEAR  # maybe a conversion
    if said.value == wanted.value:
        return Agreement.SAME
    if abs(said.value - wanted.value) <= max(said.precision, wanted.precision) / 2:
        return Agreement.NEAR  # one is the other rounded
    return Agreement.CONFLICT


def _as_date(token: Token, other: Token) -> Token:
    """A bare whole number from 1000 to 2100 is a year when compared with a date."""
    if isinstance(token, Quantity) and isinstance(other, Date) and _is_year(token):
        return Date(int(token.value))
    return token


def _is_year(token: Token) -> bool:
    return (
        isinstance(token, Quantity) and not token.unit and token.precision == 1
        and token.value == token.value.to_integral_value() and 1000 <= token.value <= 2100
    )  # fmt: skip


def _fields(date: Date) -> tuple[int | None, int | None, int | None]:
    return date.year, date.month, date.day


def _find(said: Sequence[Token], wanted: Sequence[Token]) -> Agreement:
    """How well some run of `said` agrees with all of `wanted`, word for word (SAME, NEAR or UNRELATED)."""
    return _find_run(said, wanted)[0]


def _find_run(said: Sequence[Token], wanted: Sequence[Token]) -> tuple[Agreement, int]:
    """`_find`, and where the first run that states `wanted` starts (-1 when none does)."""
    found = Agreement.UNRELATED
    for start in range(len(said) - len(wanted) + 1 if wanted else 0):
        worst = max((agree(s, w) for s, w in zip(said[start:], wanted)), key=lambda a: a.value)
        if worst is Agreement.SAME:
            return worst, start
        if worst is Agreement.NEAR:
            found = worst
    return found, -1


@lru_cache(maxsize=65536)
def words(text: str) -> tuple[Token, ...]:
    """The tokens of `text` without phrase breaks."""
    return tuple(t for t in tokens(text) if t not in BREAKS)


# ---------------------------------------------------------------------------------------------
# The rules, one per kind of gold answer.

# Words that carry no fact of their own (articles are already dropped).
FUNCTION_WORDS = frozenset(
    "and or nor but of in on at to for from by with as into about than then there here this that these those "
    "it its is are was were be been being has have had do does did done will would can could should shall "
    "who whom whose which what when where why how he she his her him they them their we us our you your i me "
    "my s t also just very so such both each either neither all any some only before after during since "
    "until while because despite among between through within against including like".split()
)
SEPARATORS = frozenset({"and", "or", "&", "either", "both", "neither", "nor"})
AND = frozenset({"and", "&"})  # what joins the items of a gold list ("or" offers alternatives)
TITLE_WORDS = frozenset({"of", "and", "in", "on"})  # function words inside names and titles
# Words a prediction may add to a sentence's fact without stating anything new.
FILLERS = frozenset("approximately approx about around roughly nearly almost estimated total overall".split())
QUALIFIERS = frozenset({"over", "under", "exactly", "only", "just"})  # may stand before a value
# Words a name may drop and still name the same thing ("Mayon" for "Mayon Volcano").
GENERIC_WORDS = frozenset(
    "inc incorporated corp corporation company co ltd llc plc group holdings pictures studios studio records "
    "entertainment volcano mount mountain river lake island city county state band club fc team stadium "
    "university film movie album song series show season".split()
)
POLARITY = {"yes": "yes", "true": "yes", "no": "no", "false": "no"}
LANGUAGE_CODES = {
    "en": "english", "fr": "french", "es": "spanish", "de": "german", "it": "italian", "ja": "japanese",
    "ko": "korean", "zh": "chinese", "hi": "hindi", "ru": "russian", "pt": "portuguese", "sv": "swedish",
    "da": "danish", "nl": "dutch", "ar": "arabic", "tr": "turkish", "pl": "polish", "ta": "tamil",
    "te": "telugu", "th": "thai", "cn": "chinese", "fi": "finnish", "el": "greek", "he": "hebrew",
}  # fmt: skip
INVALID = ("invalid", "question")
MAX_EXTRA_WORDS = 2  # content words a correct prediction may add to the gold and the question
SHORT_ITEM_WORDS = 4  # a candidate answer in a prediction has at most this many words
LIST_ITEM_MAX_WORDS = 5  # an item of a gold list too
PHRASE_MAX_WORDS = 8  # longer gold answers are read as sentences only
SENTENCE_MIN_WORDS = 4  # shorter ones as phrases only
_HEDGE = re.compile(
    r"\b(?:either|or|maybe|perhaps|possibly|probably|likely|might|i think|i believe|not sure|unclear"
    r"|uncertain)\b"
)
_ASKS_FOR_VALUE = re.compile(
    r"\b(?:how (?:many|much|old|long|tall|big|far|often|high|large)|when|what (?:year|date)|number of"
    r"|total|average|percent(?:age)?|price|ratio|rate|volume|eps|earnings|revenue|market cap\w*|worth|score"
    r"|points)\b"
)
_NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|none|nobody|nothing|without)\b|n't\b")
_DECLINE = re.compile(
    r"\b(?:not enough (?:information|data|context)|no (?:information|data|answer|record)s?\b|insufficient"
    r"|(?:cannot|can't|could not|couldn't|unable to) (?:be )?"
    r"(?:answer|determine|find|say|tell|provide|confirm)"
    r"|(?:is|are) not (?:available|provided|mentioned|specified|stated|given|known)|i do not know|i dont know"
    r"|i don't know|unknown|n/a)"
)


@dataclass(frozen=True)
class Prediction:
    text: str
    tokens: tuple[Token, ...]
    hedged: bool  # hedges or offers alternatives: at best unsure
    negated: bool

    @classmethod
    def read(cls, text: str) -> Prediction:
        lowered = text.lower().replace("’", "'")
        return cls(text, tokens(text), bool(_HEDGE.search(lowered)), bool(_NEGATION.search(lowered)))

    @property
    def words(self) -> tuple[Token, ...]:
        return words(self.text)


class Kind(enum.Enum):
    """The kind of a gold answer, which decides the rule that reads it."""

    NONE = "none"  # nothing to match: empty, "nan", "i don't know"
    INVALID = "invalid question"
    POLARITY = "yes/no"
    VALUE = "value"  # one number or date, with at most a few words: "5 times", "$45 million"
    LIST = "list"  # comma-separated short items: "solid, liquid and gas"
    PHRASE = "phrase"  # a name, a title, a few words (also read as a list and a sentence when it fits)
    SENTENCE = "sentence"


def answer_kind(gold: str) -> Kind:
    gold_words = words(gold)
    if not gold_words or gold.strip().lower() == "nan" or is_refusal(gold):
        return Kind.NONE
    if gold_words == INVALID:
        return Kind.INVALID
    if _polarity(tokens(gold)):
        return Kind.POLARITY
    if _single_value(gold_words) is not None:
        return Kind.VALUE
    if _is_list(_items(tokens(gold), at=frozenset())):
        return Kind.LIST
    return Kind.PHRASE if len(gold_words) <= PHRASE_MAX_WORDS else Kind.SENTENCE


def _check(prediction: str, gold: str, question: str) -> Verdict:
    said, wanted, gold_words, kind = Prediction.read(prediction), tokens(gold), words(gold), answer_kind(gold)
    if kind is Kind.INVALID:
        return Verdict.CORRECT if said.words == INVALID else _unsure_if(said.words[:2] == INVALID)
    if said.words[:2] == INVALID:  # unsure when a free-text gold denies the premise
        return _unsure_if(bool(_NEGATION.search(gold.lower())))
    if said.words == gold_words:
        return Verdict.CORRECT
    if kind is Kind.NONE:  # a gold "i don't know" has no answer to give
        return Verdict.WRONG if is_refusal(gold) else Verdict.UNSURE
    if not said.words or _DECLINE.search(prediction.lower().replace("’", "'")):
        return Verdict.WRONG  # declining is not an answer
    if kind is Kind.POLARITY:
        return _polarity_verdict(said, _polarity(wanted))
    if kind is Kind.VALUE:
        return _value_verdict(said, gold_words, question)
    if kind is Kind.LIST:
        return best(
            _list_verdict(said, items) for items in {_items(wanted, at=frozenset()), _items(wanted, at=AND)}
        )
    chosen = _chosen_option(wanted, question)
    if chosen is not None:  # "which is brighter, sirius or alpha centauri?"
        gold_option, other_option = chosen
        if _states_all(said.words, other_option) and not _states_all(said.words, gold_option):
            return Verdict.WRONG
        if _states_all(said.words, gold_option) and not _states_all(said.words, other_option):
            return Verdict.UNSURE if _says_more(said, gold_words, question) else _capped(said)
    if kind is Kind.SENTENCE:
        return _sentence_verdict(said, wanted, gold, question)
    verdict = _phrase_verdict(said, gold_words, question)
    if len(gold_words) == 1 and gold_words[0] in LANGUAGE_CODES and len(said.words) <= 2:  # "en" is English
        verdict = best([verdict, _phrase_verdict(said, (LANGUAGE_CODES[gold_words[0]],), question)])
    if _is_list(_items(wanted, at=AND)):  # "ella and alexander clooney", or a title with "and" in it
        as_list = _list_verdict(said, _items(wanted, at=AND))
        # "Ella" leaves an item out of the list; it is not a part of a name
        verdict = (
            Verdict.WRONG
            if (as_list, verdict) == (Verdict.WRONG, Verdict.UNSURE)
            else best([as_list, verdict])
        )
    if verdict is Verdict.UNSURE and len(gold_words) >= SENTENCE_MIN_WORDS:  # "played for the barons in 1993"
        return _sentence_verdict(said, wanted, gold, question)
    return verdict


def _unsure_if(condition: bool) -> Verdict:
    return Verdict.UNSURE if condition else Verdict.WRONG


def _capped(said: Prediction, negation_in_gold: bool = False) -> Verdict:
    """Correct, unless the prediction hedges or negates (and the gold does not): then unsure."""
    return Verdict.UNSURE if said.hedged or (said.negated and not negation_in_gold) else Verdict.CORRECT


def _polarity(wanted: Sequence[Token]) -> str | None:
    if wanted and wanted[0] in POLARITY and (len(wanted) == 1 or wanted[1] in BREAKS):
        return POLARITY[wanted[0]]
    return None


def _polarity_verdict(said: Prediction, polarity: str) -> Verdict:
    stated = POLARITY.get(said.words[0]) if said.words and isinstance(said.words[0], str) else None
    if stated is None:
        return Verdict.UNSURE
    return Verdict.CORRECT if stated == polarity and not said.hedged else _unsure_if(stated == polarity)


# --- one value


def _single_value(gold_words: Sequence[Token]) -> Quantity | Date | None:
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


def _value_verdict(said: Prediction, gold_words: Sequence[Token], question: str) -> Verdict:
    value = _single_value(gold_words)
    stated = [t for t in said.words if isinstance(t, (Quantity, Date))]
    agreements = {agree(t, value) for t in stated}
    if Agreement.SAME in agreements:
        if isinstance(value, Quantity) and not _is_year(value):
            stated = [
                t for t in stated if not _is_year(t)
            ]  # "7 titles since 2019" states 7 and no other count
        if {agree(t, value) for t in stated} & {
            Agreement.CONFLICT,
            Agreement.NEAR,
        }:  # "5 or 7"; "7 to Manning's 2"
            return _unsure_if(not said.hedged)
        return Verdict.UNSURE if _says_more(said, gold_words, question) else _capped(said)
    if Agreement.NEAR in agreements:
        return Verdict.UNSURE
    return _unsure_if(not stated)  # another value, or another kind of value ("5%" for "$5")


# --- lists and short phrases


def _items(text_tokens: Sequence[Token], at: frozenset[str] = SEPARATORS) -> tuple[tuple[Token, ...], ...]:
    """The items of a list: split at commas and at the words `at` ("and", "or", "either", ...)."""
    items: list[tuple[Token, ...]] = []
    current: list[Token] = []
    for token in [*text_tokens, COMMA]:
        if token == COMMA or token in at:
            if current:
                items.append(tuple(current))
            current = []
        elif token != STOP and not (token in SEPARATORS and not current):  # a leading "and", "either"
            current.append(token)
    return tuple(items)


def _is_list(items: Sequence[Sequence[Token]]) -> bool:
    """Whether these items read as a list: two or more, each a few words with at most one function word,
    which in an item of four or five words is one of a title's ("lord of the rings", "good will hunting";
    not "plays for the otters")."""
    return len(items) > 1 and all(
        len(item) <= LIST_ITEM_MAX_WORDS
        and sum(t in FUNCTION_WORDS for t in item) <= 1
        and (len(item) <= 3 or all(t in TITLE_WORDS for t in item if t in FUNCTION_WORDS))
        for item in items
    )


def _is_candidate(item: Sequence[Token]) -> bool:
    """An item that reads as an answer of its own (a bare name or value), not part of a sentence."""
    return len(item) <= SHORT_ITEM_WORDS and not any(t in FUNCTION_WORDS for t in item)


def _distinctive(token: Token) -> bool:
    return isinstance(token, str) and len(token) >= 3 and token not in FUNCTION_WORDS | GENERIC_WORDS


def _names_part(said: Sequence[Token], wanted: Sequence[Token], either_end: bool = False) -> bool:
    """Whether `said` names `wanted` by a distinctive part of it: its end ("Djokovic", "Deathly Hallows
    Part 2"), a start followed only by generic words ("Mayon" for "Mayon Volcano"), or, in a list,
    any start ("Ella" for "Ella Clooney")."""
    n = len(said)
    if not 0 < n < len(wanted) or not any(_distinctive(t) for t in said):
        return False
    if tuple(wanted[-n:]) == tuple(said):  # a first name, a series' name ("Harry Potter and"), "13 years at"
        dropped = wanted[:-n]
        return len(dropped) == 1 or sum(map(_distinctive, said)) >= 2 or not any(map(_distinctive, dropped))
    if tuple(wanted[:n]) == tuple(said):  # not "Lisa" for "lisa and maggie"
        dropped = wanted[n:]
        return not any(t in SEPARATORS for t in dropped) and (
            either_end or not any(map(_distinctive, dropped))
        )
    return False


def _item_matches(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    return _find(said, wanted) is Agreement.SAME or _names_part(said, wanted, either_end=True)


def _list_verdict(said: Prediction, gold_items: Sequence[Sequence[Token]]) -> Verdict:
    said_items = _items(said.tokens)
    found = [any(_item_matches(s, g) for s in said_items) for g in gold_items]
    extra = [s for s in said_items if _is_candidate(s) and not any(_item_matches(s, g) for g in gold_items)]
    if all(found) and not extra:
        return _capped(said)
    if extra or (any(found) and all(_is_candidate(s) for s in said_items)):
        return Verdict.WRONG  # something else named, or an item left out
    return _unsure_if(not any(found) and any(_is_candidate(s) for s in said_items))


def _phrase_verdict(said: Prediction, gold_words: Sequence[Token], question: str) -> Verdict:
    found = _find(said.words, gold_words)
    if found is Agreement.SAME:
        if _names_others(said, gold_words):
            return Verdict.WRONG  # "Inception and Interstellar", "either X or Y"
        if _inside_longer_name(said.tokens, gold_words) or _says_more(said, gold_words, question):
            return Verdict.UNSURE  # "Talons of the Eagle" for "the eagle"; a sentence about something else
        return _capped(said)
    if found is Agreement.NEAR:
        return Verdict.UNSURE
    if _names_part(said.words, gold_words) or _same_words(said.words, gold_words):
        return _capped(said)
    asked = words(question)
    if _values_conflict(said.words, [t for t in gold_words if not _stated_in(t, asked)]):
        return Verdict.WRONG  # "part 1" for "part 2" (a value the question names is not the answer's)
    return _unsure_if(_related(said.words, gold_words))


def _names_others(said: Prediction, gold_words: Sequence[Token]) -> bool:
    """Whether the prediction offers other candidates beside the gold: "X and Y", "X or Y", "X, Y, Z"."""
    items = _items(said.tokens)
    joined = any(t in SEPARATORS for t in said.words) or len(_items(said.tokens, at=frozenset())) > 2
    return joined and all(map(_is_candidate, items)) and not all(_item_matches(i, gold_words) for i in items)


def _same_words(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """The same words with the values elsewhere ("the 2021 Dune" for "Dune (2021)"; not "Jahan Shah" for
    "Shah Jahan")."""
    in_order = [t for t in said if isinstance(t, str)] == [t for t in wanted if isinstance(t, str)]
    return (
        in_order
        and any(isinstance(t, str) for t in wanted)
        and sorted(map(repr, said)) == sorted(map(repr, wanted))
    )


def _inside_longer_name(said: Sequence[Token], gold_words: Sequence[Token]) -> bool:
    """Whether the gold is only part of a longer name in the prediction: a distinctive word right after
    it ("New York Yankees" for "new york") or a joining word right before ("Talons of the Eagle")."""
    found, start = _find_run(said, gold_words)
    if found is not Agreement.SAME:
        return False  # the gold runs across a phrase break: not one name
    end = start + len(gold_words)
    after = said[end] if end < len(said) else STOP
    return (
        _distinctive(after)
        or isinstance(after, (Quantity, Date))
        or (start > 1 and said[start - 1] in ("of", "and"))
    )


def _says_more(said: Prediction, gold_words: Sequence[Token], question: str) -> bool:
    """Whether the prediction states more than a little beside the gold and the question: a sentence
    about something else that happens to name the gold ("Germany has won four FIFA World Cup titles"
    for "germany", asked where the 2006 World Cup was held)."""
    asked = words(question)
    extra = [
        t for t in said.words if _content(t) and not _stated_in(t, gold_words) and not _stated_in(t, asked)
    ]
    return len(extra) > MAX_EXTRA_WORDS


def _values_conflict(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether the gold's values all have a stated counterpart of their kind, and some differ."""
    pairs = [[agree(s, w) for s in said] for w in wanted if isinstance(w, (Quantity, Date))]
    return any(Agreement.CONFLICT in p and Agreement.SAME not in p for p in pairs)


def _related(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether the prediction may name the gold another way: a shared distinctive word, an abbreviation
    ("man city", "rdj"), or only the gold's values."""
    if all(_stated_in(t, wanted) for t in said):
        return True  # a part of the gold, which the phrase rules do not accept as a name
    said_words = [t for t in said if isinstance(t, str)]
    gold_words = [t for t in wanted if isinstance(t, str) and t not in FUNCTION_WORDS]
    for s in filter(_distinctive, said_words):
        if any(w.startswith(s) or s.startswith(w) for w in filter(_distinctive, gold_words)):
            return True
    initials = "".join(w[0] for w in gold_words)
    if any(len(s) >= 2 and s == initials for s in said_words):
        return True
    values = [t for t in said if isinstance(t, (Quantity, Date))]
    return bool(values) and all(any(agree(v, w) is Agreement.SAME for w in wanted) for v in values)


# --- sentences


def _stem(token: Token) -> Token:
    """A crude stem, enough to match "released" with "release" and "plays" with "play"."""
    if not isinstance(token, str) or len(token) <= 4:
        return token
    for suffix in ("ing", "ed", "es", "s"):
        if token.endswith(suffix) and not token.endswith("ss"):
            token = token[: -len(suffix)]
            break
    return token.removesuffix("e")


def _content(token: Token) -> bool:
    return token not in BREAKS and token not in FUNCTION_WORDS and token not in FILLERS


def _stated_in(token: Token, text: Sequence[Token]) -> bool:
    if isinstance(token, str):
        return _stem(token) in {_stem(t) for t in text if isinstance(t, str)}
    return any(agree(token, t) is Agreement.SAME for t in text)


def _key_spans(wanted: Sequence[Token], asked: Sequence[Token]) -> list[list[tuple[Token, ...]]]:
    """The gold sentence's runs of content the question does not contain, grouped into lists: spans
    joined only by commas, "and" or "or" ("dan auerbach and patrick carney") form one group."""
    groups: list[list[tuple[Token, ...]]] = []
    span: list[Token] = []
    pending: list[Token] = []  # function words inside a span ("voyage of dawn treader")
    joined = False  # only separators since the last span
    for token in [*wanted, STOP]:
        if _content(token) and not _stated_in(token, asked):
            if not span and not (joined and groups):
                groups.append([])
            span += pending + [token]
            pending = []
            continue
        if span and token in FUNCTION_WORDS and token not in SEPARATORS:
            pending.append(token)
            continue
        if span:
            groups[-1].append(tuple(span))
            span, pending, joined = [], [], True
        joined = joined and (token == COMMA or token in SEPARATORS)
    return groups


def _sentence_verdict(said: Prediction, wanted: Sequence[Token], gold: str, question: str) -> Verdict:
    asked = words(question)
    groups = _key_spans(wanted, asked)
    said_content = [t for t in said.words if _content(t)]
    covered = [group for group in groups if any(_covers(said, span) for span in group)]
    if all(_stated_in(t, wanted) or _stated_in(t, asked) for t in said_content):  # nothing beyond the gold
        if not covered or not asked:
            return Verdict.UNSURE  # only what the question says, or no question to tell the key fact by
        if any(_is_list(group) and not all(_covers(said, span) for span in group) for group in covered):
            return Verdict.UNSURE  # part of a list
        if not _gives_what_is_asked(said, groups, covered, question):
            return Verdict.UNSURE  # one fact of several, maybe not the one asked for
        return _capped(said, bool(_NEGATION.search(gold.lower())))
    said_items = _items(said.tokens)
    gold_has_list = any(_is_list(group) for group in groups)
    if gold_has_list and _is_list(said_items) and not all(_in_gold(item, wanted) for item in said_items):
        return Verdict.WRONG  # a list naming someone the gold's list does not
    key_values = [t for group in groups for span in group for t in span if isinstance(t, (Quantity, Date))]
    if _values_conflict([t for t in said.words if isinstance(t, (Quantity, Date))], key_values):
        return Verdict.WRONG
    return _unsure_if(bool(covered))  # says some of the key facts, and more: the judge must read it


def _chosen_option(
    wanted: Sequence[Token], question: str
) -> tuple[tuple[Token, ...], tuple[Token, ...]] | None:
    """For a question offering two options ("which is brighter, X or Y?", "does X or Y have more ...?"):
    the option the gold answer chooses and the other one. It chooses the one it names, or, naming
    both, the one before "than" ("X has more followers than Y")."""
    asked = tokens(question)
    if "or" not in asked:
        return None
    at = len(asked) - 1 - asked[::-1].index("or")
    ends = [i for i, t in enumerate(asked[:at]) if t in BREAKS or t in FUNCTION_WORDS - TITLE_WORDS]
    left = asked[max(ends, default=-1) + 1 : at]
    right = asked[at + 1 :]
    ends = [i for i, t in enumerate(right) if t in BREAKS or t in FUNCTION_WORDS - TITLE_WORDS]
    right = right[: min(ends, default=len(right))]
    gold_words = [t for t in wanted if t not in BREAKS]
    options = [o for o in (left, right) if o and (_states_all(wanted, o) or _names_part(gold_words, o))]
    if len(options) == 2 and "than" in wanted:
        before = wanted[: wanted.index("than")]
        options = [option for option in options if _states_all(before, option)]
    if len(options) != 1:
        return None
    return options[0], right if options[0] == left else left


def _states_all(text: Sequence[Token], option: Sequence[Token]) -> bool:
    """Whether `text` states every distinctive word and value of `option` (and it has some)."""
    key = [t for t in option if _distinctive(t) or isinstance(t, (Quantity, Date))]
    return bool(key) and all(_stated_in(t, text) for t in key)


def _in_gold(item: Sequence[Token], wanted: Sequence[Token]) -> bool:
    return all(_stated_in(t, wanted) for t in item if _content(t))


def _covers(said: Prediction, span: Sequence[Token]) -> bool:
    """Whether the prediction states a distinctive word or a value of the span, or, when it has none
    ("m.a.a.d city"), all of it."""
    key = [t for t in span if _distinctive(t) or isinstance(t, (Quantity, Date))]
    if key:
        return any(_stated_in(t, said.words) for t in key)
    return all(_stated_in(t, said.words) for t in span if _content(t))


def _gives_what_is_asked(
    said: Prediction,
    groups: list[list[tuple[Token, ...]]],
    covered: list[list[tuple[Token, ...]]],
    question: str,
) -> bool:
    """A question asking for a value wants one of the sentence's values; any other wants all of its
    names ("sam howell" is not the answer to "what team does he play for?" when the sentence names both)."""
    if _ASKS_FOR_VALUE.search(question.lower()):
        return any(
            isinstance(t, (Quantity, Date)) and _stated_in(t, said.words)
            for group in covered for span in group for t in span
        )  # fmt: skip
    named = [group for group in groups if any(_distinctive(t) for span in group for t in span)]
    return all(group in covered for group in named)

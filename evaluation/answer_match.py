"""The answer checker: does a prediction state a CRAG gold answer, the way the CRAG judge reads it?

`check_answer(prediction, gold, alternatives, question=...)` returns one of four verdicts:

- MISSING: the prediction contains "i don't know" (the leaderboard's rule, lower-cased);
- CORRECT or WRONG, when the rules below decide;
- UNSURE, when they cannot: the caller asks an LLM judge (local_evaluation.py) or counts it as wrong.

It is never to call a wrong prediction correct: where it cannot know, it says unsure. A prediction is
correct when it agrees with the gold answer or an alternative, and wrong when it contradicts one of
them (they state one fact). Both texts are read alike into words, values and phrase breaks: accents and
articles dropped, lower case; numbers as values with their unit and sign ("$61.8 billion" =
"61,800,000,000 dollars", "82.61%" = "82.61 percent", "-$1.15" = "negative 1.15", "83 cents" = "$0.83",
"part ii" = "part 2", "2.1M" = "2.1 million"; a unit on one side only is fine; units written other
ways are one unit: "ft³" = "cu ft" = "cubic feet", "litres" = "L", "°C"; a quarter "Q4" = "fourth
quarter"; a record "56 wins and 26 losses" = "56-26"); dates in any written form, partial ones too
("1973-07-17" = "July 17, 1973" = "17 Jul 1973" = "17/07/1973" = "17.07.1973"; "10/03/2024", month or
day first, is near March 10; "March 1993" states "1993", "1993" does not state "March 1993"; "March 3
and March 4, 2024" gives both days the year). A more precise number states a rounded gold of 3 digits
or more ("$191.67 million" for "$191.7 million"), and so does a sum with a scale word that rounds the
gold to 3 digits or more ("$55.1 billion" for "$55,098,173,903"); other roundings are near. Teams and
countries are read by their other names (evaluation/names.py: "Cavs" and "Cleveland" = "cleveland
cavaliers", "PSG" = "paris s-g", "USA" = "united states", "Great Britain" = "the united kingdom"), and
naming another one of the gold's kind is wrong ("the Hawks" for "denver nuggets", "Austria" for
"australia"). The prediction's initial before a surname is the gold's given name before it when that
is the only one starting with it ("L. Messi" = "lionel messi"; not "K. Messi", nor "J. Smith" beside
"john smith" and "jane smith"); a word the gold spells one letter otherwise, beside the gold's own word,
is the gold's word ("Washington Redskins" for "washinton redskins"; a surname's last letter too, not a
given name's). A gold that says there is none ("0", "none", "never") is stated by a prediction that
says so ("none", "never won", "they didn't score", "0") and adds little; a gold match result "w", "d"
or "l" by a short answer with one result ("Marseille won 2-1", "a draw"). The kind of gold answer
decides the rule:

- "invalid question": only the prediction "invalid question" (which is unsure against a free-text
  gold that denies the question's premise).
- yes/no ("yes", "no, ..."): the prediction's leading yes or no.
- one value ("1973-07-17", "5 times", "$45 million"): a value of the prediction equals it. A rounded or
  less specific value ("$35.8" for "$35.78", "2013" for "October 17, 2013"), another unit of the same
  kind ("1,201 feet" for "366 m"), other words for its unit or other values beside it are unsure; only
  other values, or the same number in another unit of its kind ("366 feet", "39.3 cubic meters" for
  "39.3 cubic feet"): wrong. A change the other way is wrong ("rose by $1.15" for "-$1.15"; "lost $9
  billion", asked how much it gained).
- a list ("solid, liquid and gas"; titles with joining words when the question asks for several
  things; a gold with one comma only when its two parts are parallel: "lenny kravitz, lisa bonet", not
  "melbourne, australia"): every item and nothing else, in any order; an item left out or one added is
  wrong. Items match whole or by a distinctive part ("Browns" for "Cleveland Browns"), not without
  their number ("Shrek" for "shrek 2") nor inside a longer name ("West Berlin" for "berlin") unless
  every item is expanded alike; a part two items share names neither ("Williams" beside "venus
  williams" and "serena williams": unsure; in a sentence's list too).
- a phrase (a name, a title): the prediction contains it ("He played for the Denver Broncos") or names
  it by a distinctive part ("Djokovic", "Mayon" for "Mayon Volcano"); a gold that names a thing, then
  where it is ("los angeles, usa", "ps 41 in greenwich village") is named by its head. Naming other
  candidates beside it ("Inception and Interstellar", "either X or Y"), leaving out its number
  ("Spider-Man" for "spider-man 2") or ending another way ("Tom Cruise" for "tom hanks") is wrong;
  containing it inside a longer name ("West Germany", "Talons of the Eagle" for "the eagle"), or with
  more than a little besides, is unsure; sharing a word, initials, an abbreviation, a code or another
  spelling ("MSFT", "United States" for "us", "Ferrell" for "Farrell") is unsure; sharing nothing is
  wrong.
- a sentence ("the rolling stones have released a total of 31 studio albums."): a prediction that says
  nothing the sentence and the question do not (but the surname of a list of given names: "Barry Gibb"
  for "the brothers barry, robin and maurice gibb") is correct when it gives the key fact, one the question
  does not already contain: for a question asking for a value, the sentence's value of the kind asked
  for (a count, a date, money), the one counting what the question asks about when there are several
  ("76" of "76 victories out of 114 matches"), not every number in it; for any other question, the
  name the sentence gives as its answer (its subject, "ederson, who plays for manchester city, was the
  goalkeeper ...", or the complement that ends it, "... is claire foy"), or else every name it adds, a
  list inside it whole. Another value where the sentence's answer is one is wrong; so are a prediction
  naming only another name of the sentence than its answer, and part of a list the question asks for.
- people a sentence lists by their relations ("the brothers kevin, joe and nick", "two daughters, malia
  and sasha, with michelle obama"), against a list of them, or the reverse, for a question asking who:
  the same people, by given name, full name or a shared surname ("Kevin Jonas, Joe Jonas and Nick
  Jonas"), are correct; someone left out or added, or named beside the list ("Michelle"), is wrong;
  words beside the names that the question and the relations do not explain leave it unsure.
- dates labelled by quarter ("q1: may 24, 2023; q2: ...") against the same dates without the labels,
  or the reverse: the same dates in any order are correct; a date more, less or another is wrong, and
  so are quarters out of their dates' order; a date without its year is unsure.
- for a question offering two options ("which is brighter, sirius or alpha centauri?", "between X and
  Y", "X compared to Y"): the option the gold names, or, naming both, the one before "than" or else
  the one it names first, is correct, the other wrong; a prediction naming both is read the same way.

The question tells a sentence's key facts from what the question already says; without it, agreeing
with a sentence is unsure. A prediction that hedges ("probably", "either ... or") or negates when the
gold does not is at best unsure; one that declines ("not enough information") is wrong, as the
judge's rules say. benchmarks/answer_checker.py measures all of this on the CRAG gold answers and on
hand-labelled predictions.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from difflib import SequenceMatcher
from functools import cached_property, lru_cache

from evaluation.names import Name, NameIndex
from models import vocabulary


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
    scaled: bool = field(default=False, compare=False)  # written with a scale word ("1.4 billion")

    @property
    def rounded(self) -> bool:
        """Whether the number is written rounded: with decimals or a scale word ("191.7", "1.4 billion")."""
        return self.scaled or self.precision < 1

    @property
    def digits(self) -> int:
        """Its significant digits as written ("55.1 billion": 3)."""
        return (abs(self.value) / self.precision).adjusted() + 1 if self.value else 1


@dataclass(frozen=True)
class Date:
    year: int | None
    month: int | None = None
    day: int | None = None
    swappable: bool = field(default=False, compare=False)  # "03/10/2024": may be day first as well


Token = str | Quantity | Date
COMMA = ","  # commas and semicolons: where list items and phrases break
STOP = "."  # sentence ends, colons and brackets: where phrases break, but not list items
BREAKS = frozenset({COMMA, STOP})

# Months, number words, scale words and "more than" are read as models/vocabulary.py writes them for the
# stages, and so are what only the checker reads in answers: units, zero words, match results, quarters
# and win-loss records. The other lists here are the checker's own: no stage reads signs, hedges or
# directions of change in an answer; and its question cues (_ASKED_KINDS, _ASKS_FOR_SEVERAL) were set on the
# labelled predictions of benchmarks/answer_checker.py, the stages' alike cues (DATE_CUES, LIST_CUES)
# on their own benchmarks: one list for both would move one side's measured figures.
VALUE_WORDS = vocabulary.NUMBER_WORDS | vocabulary.TIMES_WORDS  # words read as a number: "three", "twice"
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
CENTS = frozenset({"cent", "cents"})  # "83 cents" = $0.83
SIGN_WORDS = ("negative", "minus")  # "negative 4.55" = -4.55
# Roman numerals read as numbers after a word ("part ii", "rocky iv"); not "i", "v" or "x", which are
# words and names far more often than numbers.
ROMAN_NUMERALS = {
    numeral: number
    for number, numeral in enumerate(
        "_ _ ii iii iv _ vi vii viii ix _ xi xii xiii xiv xv xvi xvii xviii xix xx".split()
    )
    if numeral != "_"
}
UNITS = vocabulary.UNITS
UNIT_KINDS = {unit: kind for unit, kind in UNITS.values()} | {
    code: "money" for code in CURRENCY_SYMBOLS.values()
}
ARTICLES = frozenset({"the", "a", "an"})
LIST_JOINTS = frozenset({"and", "&", "or", "to"})  # what may stand between the dates of a list or range
# Phrases written several ways, each read as one: comparisons ("more than one year" = "over one
# year"), units ("ft³" = "cu ft" = "cubic feet"), quarters ("Q4" = "fourth quarter" = "quarter 4") and
# win-loss records ("56 wins and 26 losses" = "56-26").
PHRASES: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (re.compile(rf"\b(?:{vocabulary.MORE_THAN})\b"), "over"),
    (re.compile(rf"\b(?:{vocabulary.LESS_THAN})\b"), "under"),
    *((re.compile(pattern), f" {word}") for pattern, word in vocabulary.UNIT_SPELLINGS.items()),
    (
        re.compile(vocabulary.QUARTER),
        lambda m: f"quarter {m['q'] or vocabulary.ORDINAL_WORDS[m['n']]}",
    ),
    (re.compile(vocabulary.WIN_LOSS), lambda m: f"{m['w'] or m['w2']}-{m['l'] or m['l2']}"),
]

# Words whose period is no sentence stop ("mr. smith", "warner bros. discovery").
ABBREVIATIONS = ("mr", "mrs", "dr", "st", "jr", "sr", "vs", "bros", "inc", "corp", "ltd")

_NOT_AFTER_ABBREVIATION = "".join(rf"(?<!\b{word})" for word in ABBREVIATIONS)
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_PIECE = re.compile(
    rf"""
      (?P<iso>(?<![\d.])\d{{4}}[-/]\d{{1,2}}[-/]\d{{1,2}}(?!\d))
    | (?P<us>(?<![\d.])\d{{1,2}}/\d{{1,2}}/\d{{4}}(?!\d))
    | (?P<dotted>(?<![\d.])\d{{1,2}}\.\d{{1,2}}\.\d{{4}}(?![\d.]\d))
    | (?P<mdy>\b{vocabulary.MONTH}\.?\s+{_DAY}(?:,?\s+\d{{4}})?(?!\d))
    | (?P<dmy>(?<![\d.])(?<!quarter\s){_DAY}\s+(?:of\s+)?{vocabulary.MONTH}\b\.?(?:,?\s+\d{{4}}(?!\d))?)
    | (?P<my>\b{vocabulary.MONTH}\.?,?\s+\d{{4}}(?!\d))
    | (?P<ym>(?<![\d.])\d{{4}}-\d{{2}}(?![\d-]))
    | (?P<number>(?:(?<![\w.])-)?\d+(?:\.\d+)?)(?:st|nd|rd|th)?
    | (?P<symbol>[$€£¥%])
    | (?P<word>[^\W\d_]+(?:&[^\W\d_]+)*)
    | (?P<comma>[,;])
    | (?P<stop>[:()\[\]!?]|(?<!\b\w){_NOT_AFTER_ABBREVIATION}\.(?!\w))
    """,
    re.VERBOSE,
)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_SCALE_LETTER = re.compile(vocabulary.SCALE_LETTER)
_NUMBER_DASH = re.compile(r"(?<=\d)[\u2012\u2013\u2014](?=\d)")
# A minus written as a word or before the currency symbol: "negative 4.55" -> "-4.55", "-$1.15" -> "$-1.15".
_SIGN_WORD = re.compile(rf"\b(?:{'|'.join(SIGN_WORDS)})\s+(?=[$€£¥]?\d)")
_SIGN_BEFORE_SYMBOL = re.compile(r"(?<![\w.])-([$€£¥])(?=\d)")
_POSSESSIVE = re.compile(r"(?<=[^\W\d_])'(?:s|re|ve|ll|m|d)\b")  # "bob's", "they're": the word alone


@lru_cache(maxsize=65536)
def tokens(text: str) -> tuple[Token, ...]:
    """`text` as words, values and phrase breaks (articles dropped)."""
    plain = _SCALE_LETTER.sub(lambda m: " " + vocabulary.SCALE_LETTERS[m[1]], text)  # "2.1M": not metres
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", plain) if not unicodedata.combining(ch))
    plain = plain.translate(LETTERS)
    plain = plain.lower().replace("’", "'").replace("\u2212", "-").replace(" & ", " and ")
    plain = _NUMBER_DASH.sub("-", plain)  # "56–26"
    plain = _THOUSANDS.sub("", _POSSESSIVE.sub("", plain))
    plain = _SIGN_BEFORE_SYMBOL.sub(r"\1-", _SIGN_WORD.sub("-", plain))
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
    return tuple(_shared_years(result))


def _shared_years(result: list[Token]) -> list[Token]:
    """A day without a year takes the year of the next date when only list joints stand between them
    ("February 13 and February 14, 2024"; "April 24, July 31 and October 30, 2024": from the last back)."""
    for i in reversed(range(len(result))):
        token = result[i]
        if not (isinstance(token, Date) and token.year is None and token.day is not None):
            continue
        for later in result[i + 1 : i + 4]:
            if isinstance(later, Date):
                if later.year is not None:
                    result[i] = Date(later.year, token.month, token.day)
                break
            if later != COMMA and later not in LIST_JOINTS:
                break
    return result


def _quantity(raw: str, currency: str) -> Quantity:
    value = Decimal(raw)
    return Quantity(value, currency, Decimal(1).scaleb(value.as_tuple().exponent))


def _with_unit(quantity: Quantity, unit: str) -> Quantity:
    return Quantity(quantity.value, unit, quantity.precision, quantity.scaled)


def _add_word(result: list[Token], word: str, currency: str) -> None:
    previous = result[-1] if result else None
    if isinstance(previous, Quantity):
        if word in vocabulary.SCALES or (word == "m" and previous.unit in CURRENCY_SYMBOLS.values()):
            scale = vocabulary.SCALES.get(word, 10**6)
            result[-1] = Quantity(previous.value * scale, previous.unit, previous.precision * scale, True)
            return
        if word in UNITS and (not previous.unit or UNIT_KINDS[previous.unit] == "money" == UNITS[word][1]):
            result[-1] = _with_unit(previous, UNITS[word][0])
            return
        if word in CENTS and not previous.unit:
            hundredth = Decimal("0.01")
            result[-1] = Quantity(previous.value * hundredth, "usd", previous.precision * hundredth)
            return
    if word in ROMAN_NUMERALS and isinstance(previous, str) and previous not in BREAKS:
        result.append(Quantity(Decimal(ROMAN_NUMERALS[word])))
    elif word in VALUE_WORDS and not (word == "one" and previous in vocabulary.ONE_AS_PRONOUN_AFTER):
        result.append(Quantity(Decimal(VALUE_WORDS[word]), currency))
    elif word not in ARTICLES:
        result.append(word)


def _date(kind: str, raw: str) -> Date | str:
    numbers = [int(n) for n in re.findall(r"\d+", raw)]
    month_name = re.search(vocabulary.MONTH, raw)
    month = vocabulary.MONTH_NUMBERS[month_name.group()] if month_name else None
    swappable = False
    if kind == "iso":
        year, month, day = numbers
    elif kind == "us":  # month first, unless it cannot be ("19/12/2023"); both may be the month
        month, day, year = numbers if numbers[0] <= 12 else (numbers[1], numbers[0], numbers[2])
        swappable = month != day and max(month, day) <= 12
    elif kind == "dotted":  # day first ("21.11.1944")
        day, month, year = numbers
    elif kind == "ym":
        (year, month), day = numbers, None
    elif kind == "my":
        (year,), day = numbers, None
    else:  # month and day, with or without a year
        day, year = numbers[0], (numbers[1] if len(numbers) > 1 else None)
    if not (month and 1 <= month <= 12 and (day is None or 1 <= day <= 31)):
        return raw  # "2019-20" is a season, not a month
    return Date(year, month, day, swappable)


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
            if (said.swappable and agree(_swapped(said), wanted) is Agreement.SAME) or (
                wanted.swappable and agree(said, _swapped(wanted)) is Agreement.SAME
            ):
                return Agreement.NEAR  # "10/03/2024" for March 10: day first, perhaps
            return Agreement.CONFLICT
        missing = any(s is None and w is not None for s, w in zip(_fields(said), _fields(wanted)))
        return Agreement.NEAR if missing else Agreement.SAME
    return Agreement.SAME if said == wanted else Agreement.UNRELATED


def _swapped(date: Date) -> Date:
    return Date(date.year, date.day, date.month)


def _agree_quantities(said: Quantity, wanted: Quantity) -> Agreement:
    if said.unit and wanted.unit and said.unit != wanted.unit:
        if UNIT_KINDS.get(said.unit) != UNIT_KINDS.get(wanted.unit):
            return Agreement.UNRELATED
        return Agreement.CONFLICT if said.value == wanted.value else Agreement.NEAR  # maybe a conversion
    if said.value == wanted.value:
        return Agreement.SAME
    if abs(said.value - wanted.value) <= max(said.precision, wanted.precision) / 2:
        if said.precision < wanted.precision and wanted.rounded and wanted.digits >= ROUNDED_DIGITS:
            return Agreement.SAME  # "$191.67 million" for "$191.7 million": the gold rounds it
        if said.precision > wanted.precision and said.scaled and said.digits >= ROUNDED_DIGITS:
            return Agreement.SAME  # "$55.1 billion" for "$55,098,173,903.27": rounded as large sums are
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
    "until while because despite among between through within against including like out per".split()
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
    "entertainment volcano mount mountain river lake ocean sea island city county state band club fc team "
    "stadium university film movie album song series show season".split()
)
# A company's legal suffix after a comma ends its name; it does not start a list item ("salesforce, inc.").
COMPANY_SUFFIXES = frozenset("inc incorporated corp co ltd llc plc lp sa ag nv jr sr".split())
# Words that tell which way a value changed: a fall is a negative change ("fell by $1.15" = "-$1.15").
DOWN_WORDS = frozenset(
    "decrease decreased decreases decline declined declines drop dropped drops fell fall falls fallen lost "
    "lose loses losing loss losses fewer less lower down deficit shrank shrunk reduced reduction".split()
)
UP_WORDS = frozenset(
    "increase increased increases rise rose risen rises gain gained gains grew grow grows grown growth more "
    "higher up profit surplus".split()
)
# Comparatives that turn "X has more ... than Y" around ("X has fewer ... than Y").
LESSER_WORDS = frozenset(
    "less fewer lower smaller shorter younger cheaper worse under fewest lowest smallest shortest "
    "youngest cheapest worst".split()
)
DIRECTION_WORDS = UP_WORDS | DOWN_WORDS | LESSER_WORDS  # in a sentence gold, no fact of their own
COPULAS = frozenset({"is", "are", "was", "were"})
OPTION_JOINTS = frozenset({"or", "versus", "vs"})  # between the two options a question offers
RELATIVES = frozenset({"who", "whom", "whose", "which", "that"})
CLAUSE_VERBS = COPULAS | {"has", "have", "had", "been", "will", "would"}
LOCATIVES = frozenset({"in", "at"})  # "ps 41 in greenwich village": the name, then where it is
POLARITY = {"yes": "yes", "true": "yes", "no": "no", "false": "no"}
LANGUAGE_CODES = {
    "en": "english", "fr": "french", "es": "spanish", "de": "german", "it": "italian", "ja": "japanese",
    "ko": "korean", "zh": "chinese", "hi": "hindi", "ru": "russian", "pt": "portuguese", "sv": "swedish",
    "da": "danish", "nl": "dutch", "ar": "arabic", "tr": "turkish", "pl": "polish", "ta": "tamil",
    "te": "telugu", "th": "thai", "cn": "chinese", "fi": "finnish", "el": "greek", "he": "hebrew",
}  # fmt: skip
INVALID = ("invalid", "question")
MISSPELT_MIN_LETTERS = 5  # a word this long that the gold spells one letter otherwise may be misspelt there
ROUNDED_DIGITS = 3  # digits of a rounded number that another may round to ("191.7"; not "0.4")
MAX_EXTRA_WORDS = 2  # content words a correct prediction may add to the gold and the question
ZERO_EXTRA_WORDS = 1  # ... when it says there is none ("they didn't score"; not "no, it was levi morton")
SHORT_ITEM_WORDS = 4  # a candidate answer in a prediction has at most this many words
SHORT_NAME_WORDS = 3  # a span of a gold sentence this short is a name: stated whole or by a distinctive part
LIST_ITEM_MAX_WORDS = 5  # an item of a gold list too
TITLE_ITEM_MAX_WORDS = 6  # an item of a gold list of titles, when the question asks for several things
PHRASE_MAX_WORDS = 8  # longer gold answers are read as sentences only
SENTENCE_MIN_WORDS = 4  # shorter ones as phrases only
ABBREVIATION_MAX_LETTERS = 5  # "msft", "utd", "us": a word this short may abbreviate a longer name
VOWELS = "aeiouy"
SPELLING_SIMILARITY = 0.8  # difflib ratio above which two words may be one name spelled two ways
_HEDGE = re.compile(
    r"\b(?:either|or|maybe|perhaps|possibly|probably|likely|might|i think|i believe|not sure|unclear"
    r"|uncertain)\b"
)
_ASKS_FOR_VALUE = re.compile(
    r"\b(?:how (?:many|much|old|long|tall|big|far|often|high|large)|when|what (?:year|date)|number of"
    r"|total|average|percent(?:age)?|price|ratio|rate|volume|eps|earnings|revenue|market cap\w*|worth|score"
    r"|budget|cost|salary"
    r"|points|date|count)\b"
)
# The kind of value a question asks for; the first of them in the question decides.
_ASKED_KINDS = [
    ("date", re.compile(r"\b(?:when|what (?:year|date|day)|which (?:year|date|day)|date)\b")),
    ("money", re.compile(r"\b(?:price|cost|costs|worth|revenue|salary|budget|gross|earn|earned|paid|pay)\b")),
    ("percent", re.compile(r"\bpercent(?:age)?\b|%")),
    ("count", re.compile(r"\bhow (?:many|often|old)\b|\b(?:number|count) of\b")),
]
# A question asking for a thing, not a value: "who ...", "which company ...", "what team ..." (not "what
# is", "what year", "which date", "what percentage").
_ASKS_FOR_THING = re.compile(
    r"^(?:(?!\b(?:how|when|what|which|who|whom|whose)\b).)*\b(?:who|whom|whose|(?:which|what) "
    r"(?!(?:is|was|are|were|does|do|did|has|have|had|year|date|day|time|month|percent\w*|price|number"
    r"|amount|total|ratio|rate|value|age)\b)[a-z]+)\b"
)
# A question asking for several things: "what are ...", "who were ...", "list ...", "which movies ...".
_ASKS_FOR_SEVERAL = re.compile(
    r"\b(?:what|who|which) (?:are|were)\b|\blist\b|\bname (?:all|the)\b|\ball (?:of )?(?:the )?\w+s\b"
    r"|\b(?:which|what) (?:\w+ )?(?!(?:is|was|has|does|this|its)\b)\w{3,}(?<![su])s\b"
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
    tokens: tuple[Token, ...]  # initials read as the gold's given names (`_given_names`)
    hedged: bool  # hedges or offers alternatives: at best unsure
    negated: bool

    @classmethod
    def read(cls, text: str, gold: Sequence[Token] = ()) -> Prediction:
        lowered = text.lower().replace("’", "'")
        said = _known_names(_given_names(tokens(text), gold), text, tuple(gold))
        said = _gold_spellings(said, gold)
        return cls(text, said, bool(_HEDGE.search(lowered)), bool(_NEGATION.search(lowered)))

    @cached_property
    def words(self) -> tuple[Token, ...]:
        return tuple(t for t in self.tokens if t not in BREAKS)


def _given_names(said: tuple[Token, ...], wanted: Sequence[Token]) -> tuple[Token, ...]:
    """The prediction with an initial before a surname read as the gold's given name before that surname
    ("L. Messi" for "lionel messi") when exactly one of the gold's given names before it starts with the
    initial. An initial that none of them fits names someone else ("K. Messi", "S. Messi") and stays a word
    the gold lacks (written "s.", so that it is no function word such as "s" or "t"); one that several
    fit ("J. Smith" beside "john smith" and "jane smith") stays as written."""
    result = list(said)
    for i, (initial, surname) in enumerate(zip(said, said[1:])):
        if not (
            isinstance(initial, str) and len(initial) == 1 and initial.isalpha() and _distinctive(surname)
        ):
            continue
        given = {
            name
            for name, after in zip(wanted, wanted[1:])
            if after == surname and isinstance(name, str) and name not in FUNCTION_WORDS
        }
        fits = {name for name in given if name[0] == initial}
        if len(fits) == 1:
            result[i] = fits.pop()
        elif given and not fits:
            result[i] = initial + "."
    return tuple(result)


def _gold_spellings(said: tuple[Token, ...], wanted: Sequence[Token]) -> tuple[Token, ...]:
    """The prediction with a name's word that the gold spells one letter otherwise written as the gold
    writes it, when a word beside it is the gold's word beside it: "Washington Redskins" for "washinton
    redskins", "The Bourne Supremacy" for "the bourne supremecy", a surname's last letter ("Alan
    Shearer" for "alan sheare"); not a given name's last letter ("Daniela Smith" for "daniel smith")."""
    result = list(said)
    gold_words = _by_first_letter(tuple(wanted))
    for i, word in enumerate(said):
        if not isinstance(word, str) or len(word) < MISSPELT_MIN_LETTERS or not _distinctive(word):
            continue
        if word in wanted:
            continue
        for j, gold_word in gold_words.get(word[0], ()):
            edit = _one_edit(word, gold_word)
            if edit is None:
                continue
            before = i > 0 and j > 0 and said[i - 1] == wanted[j - 1] and _distinctive(said[i - 1])
            after = (
                i + 1 < len(said) and j + 1 < len(wanted) and said[i + 1] == wanted[j + 1] and _distinctive(said[i + 1])
            )
            at_end = edit >= min(len(str(word)), len(str(gold_word))) - 1
            if (before or after) and (before or not at_end):
                result[i] = gold_word
                break
    return tuple(result)


@lru_cache(maxsize=65536)
def _by_first_letter(wanted: tuple[Token, ...]) -> dict[str, list[tuple[int, str]]]:
    """The gold's distinctive words, by their first letter, with where they stand."""
    found: dict[str, list[tuple[int, str]]] = {}
    for j, word in enumerate(wanted):
        if isinstance(word, str) and _distinctive(word):
            found.setdefault(word[0], []).append((j, word))
    return found


def _one_edit(a: str, b: str) -> int | None:
    """Where two words differ by one letter added, dropped or changed, after the same first letter; None
    when they do not."""
    if a == b or a[0] != b[0] or abs(len(a) - len(b)) > 1:
        return None
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    if len(a) == len(b):
        return at if a[at + 1 :] == b[at + 1 :] else None
    shorter, longer = (a, b) if len(a) < len(b) else (b, a)
    return at if shorter[at:] == longer[at + 1 :] else None


@lru_cache(maxsize=1)
def _name_index() -> NameIndex:
    return NameIndex(words)


@lru_cache(maxsize=65536)
def _gold_names(wanted: tuple[Token, ...]) -> tuple[Name, ...]:
    """The known names of a gold answer; a country code counts only as the whole answer ("us")."""
    whole = "".join(t for t in wanted if isinstance(t, str) and t not in BREAKS)
    return tuple(_name_index().find(wanted, _distinctive, lambda code: code == whole))


def _known_names(said: tuple[Token, ...], text: str, wanted: tuple[Token, ...]) -> tuple[Token, ...]:
    """The prediction with each name it gives of a team or country the gold names, written as the gold
    writes it ("Cavs" and "Cleveland" for "cleveland cavaliers", "USA" for "united states", "Great
    Britain" for "the united kingdom"). A country code counts written in capitals ("US", "U.S.")."""
    gold_names = {name.key: wanted[name.start : name.end] for name in reversed(_gold_names(wanted))}
    if not gold_names:
        return said

    result = list(said)
    for name in reversed(_prediction_names(said, text)):
        if name.key in gold_names:
            result[name.start : name.end] = gold_names[name.key]
    return tuple(result)


@lru_cache(maxsize=65536)
def _prediction_names(said: tuple[Token, ...], text: str) -> tuple[Name, ...]:
    """The known names of a prediction; a country code counts written in capitals ("US", "U.S.")."""

    def written_in_capitals(code: str) -> bool:
        return bool(re.search(r"\b" + r"\.?".join(code.upper()) + r"\b", text))

    return tuple(_name_index().find(said, _distinctive, written_in_capitals))


def _other_name(said: Prediction, wanted: Sequence[Token]) -> bool:
    """Whether the gold is one known name and the prediction names another of its kind, not it ("the
    Hawks" for "denver nuggets", "Austria" for "australia", "AC Milan" for "inter")."""
    gold_names = _gold_names(tuple(wanted))
    if len(gold_names) != 1:
        return False
    gold = gold_names[0]
    if any(_distinctive(t) for t in [*wanted[: gold.start], *wanted[gold.end :]]):
        return False
    named = {name.key for name in _name_index().find(said.tokens, _distinctive, lambda code: False)}
    return gold.key not in named and any(other.kind == gold.kind for other in map(Name.of, named))


class Kind(enum.Enum):
    """The kind of a gold answer, which decides the rule that reads it."""

    NONE = "none"  # nothing to match: empty, "nan", "i don't know"
    INVALID = "invalid question"
    POLARITY = "yes/no"
    VALUE = "value"  # one number or date, with at most a few words: "5 times", "$45 million"
    LIST = "list"  # comma-separated short items: "solid, liquid and gas"
    PHRASE = "phrase"  # a name, a title, a few words (also read as a list and a sentence when it fits)
    SENTENCE = "sentence"


def answer_kind(gold: str, question: str = "") -> Kind:
    """The kind of `gold`; the question tells a list of titles ("what are his last three movies?")."""
    gold_words = words(gold)
    if not gold_words or gold.strip().lower() == "nan" or is_refusal(gold):
        return Kind.NONE
    if gold_words == INVALID:
        return Kind.INVALID
    if _polarity(tokens(gold)):
        return Kind.POLARITY
    if _single_value(gold_words) is not None and not _qualified(tokens(gold)):
        return Kind.VALUE
    if _reads_as_list(_items(tokens(gold), at=frozenset()), question):
        return Kind.LIST
    return Kind.PHRASE if len(gold_words) <= PHRASE_MAX_WORDS else Kind.SENTENCE


def _check(prediction: str, gold: str, question: str) -> Verdict:
    wanted, gold_words = tokens(gold), words(gold)
    said = Prediction.read(prediction, wanted)
    kind = answer_kind(gold, question)
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
    listed = _people_verdict(said, wanted, question) or _dates_verdict(said, wanted, question)
    if listed is not None:  # people named by their relations, dates labelled by quarter
        return listed
    if kind is Kind.POLARITY:
        return _polarity_verdict(said, _polarity(wanted))
    if _says_none(gold_words):
        zero = _zero_verdict(said, gold_words, question)
        if zero is not None:
            return zero
    if kind is Kind.VALUE:
        return _value_verdict(said, gold_words, question)
    result = _result(gold_words)
    if result is not None:
        return _result_verdict(said, result, question)
    alternatives = _value_alternatives(gold)
    if alternatives:  # "78.7 million less or a -66.7% decrease"
        return best(_check(prediction, alternative, question) for alternative in alternatives)
    if kind is Kind.LIST:
        items = _items(wanted, at=frozenset())
        verdict = best(_list_verdict(said, i, question) for i in {items, _items(wanted, at=AND)})
        if _two_parts(items) and _phrase_verdict(said, gold_words, question) is Verdict.CORRECT:
            return Verdict.CORRECT  # "crouching tiger, hidden dragon" may be one title
        return verdict
    chosen = _chosen_option(wanted, question)
    if chosen is not None:  # "which is brighter, sirius or alpha centauri?"
        verdict = _option_verdict(said, wanted, question, *chosen)
        if verdict is not None:
            return verdict
    if kind is Kind.SENTENCE:
        return _sentence_verdict(said, wanted, gold, question)
    verdict = _phrase_verdict(said, gold_words, question, by_part=len(_items(wanted, at=frozenset())) == 1)
    if len(gold_words) == 1 and len(gold.strip()) == 2 and len(said.words) <= 2 and chosen is None:
        # a code: "en" is English
        if gold_words[0] in LANGUAGE_CODES and ("language" in question.lower() or not question):
            verdict = best([verdict, _phrase_verdict(said, (LANGUAGE_CODES[gold_words[0]],), question)])
        else:
            verdict = best([verdict, Verdict.UNSURE])  # "spain" for "es": a code the rules cannot read
    parts = _items(wanted, at=frozenset())
    if _is_list(_items(wanted, at=AND)) and not (_two_parts(parts) and not _parallel(*parts)):
        # "ella and alexander clooney", or a title with "and" in it
        as_list = _list_verdict(said, _items(wanted, at=AND), question)
        # "Ella" leaves an item out of the list; it is not a part of a name
        verdict = (
            Verdict.WRONG
            if (as_list, verdict) == (Verdict.WRONG, Verdict.UNSURE)
            else best([as_list, verdict])
        )
    head = _head_verdict(said, wanted, question) if verdict is not Verdict.CORRECT else None
    if head is not None:
        verdict = head if head is Verdict.WRONG else best([verdict, head])
    if verdict is Verdict.UNSURE and len(gold_words) >= SENTENCE_MIN_WORDS:  # "played for the barons in 1993"
        return _sentence_verdict(said, wanted, gold, question)
    if verdict is Verdict.UNSURE and _other_name(said, wanted):
        return Verdict.WRONG
    return verdict


def _unsure_if(condition: bool) -> Verdict:
    return Verdict.UNSURE if condition else Verdict.WRONG


def _capped(said: Prediction, negation_in_gold: bool = False) -> Verdict:
    """Correct, unless the prediction hedges or negates (and the gold does not): then unsure."""
    return Verdict.UNSURE if said.hedged or (said.negated and not negation_in_gold) else Verdict.CORRECT


def _says_none(gold_words: Sequence[Token]) -> bool:
    """A gold answer that says there is none: "none", "0", "none of the days", "never"."""
    first = gold_words[0]
    zero = isinstance(first, Quantity) and first.value == 0
    return len(gold_words) <= SHORT_ITEM_WORDS and (first in vocabulary.ZERO_WORDS or zero)


def _says_zero(said: Prediction) -> bool:
    """Whether a prediction says there is none: a zero word ("none", "never", "nil"), 0, or a negation
    ("they didn't score", "Tesla does not pay a dividend")."""
    return said.negated or any(
        t in vocabulary.ZERO_WORDS or (isinstance(t, Quantity) and t.value == 0) for t in said.words
    )


def _zero_verdict(said: Prediction, gold_words: Sequence[Token], question: str) -> Verdict | None:
    """For a gold answer that says there is none ("0", "none", "never"): correct when the prediction says
    so and states no other value and little besides the gold and the question ("He didn't make any free
    throws", "PMCB has never paid dividends"); None when it does not say so (the other rules read it)."""
    if not _says_zero(said):
        return None
    asked = words(question)
    values = [t for t in said.words if isinstance(t, (Quantity, Date)) and not _stated_in(t, asked)]
    if any(not (isinstance(t, Quantity) and t.value == 0) for t in values):
        return Verdict.UNSURE  # "none of her 3 nominations": which number answers?
    negations = {t for t, after in zip(said.words, said.words[1:]) if after == "t" and str(t).endswith("n")}
    extra = [
        t for t in said.words
        if _content(t) and t not in vocabulary.ZERO_WORDS | negations and not _NEGATION.fullmatch(str(t))
        and not _stated_in(t, [*gold_words, *asked])
    ]  # fmt: skip  # "didn" of "didn't" is a negation
    return Verdict.UNSURE if said.hedged or len(extra) > ZERO_EXTRA_WORDS else Verdict.CORRECT


def _result(gold_words: Sequence[Token]) -> str | None:
    """The match result a gold answer gives as a one-letter code or one word ("w", "draw"), or None."""
    if len(gold_words) != 1 or not isinstance(gold_words[0], str):
        return None
    return vocabulary.RESULT_CODES.get(gold_words[0]) or vocabulary.RESULT_WORDS.get(gold_words[0])


def _result_verdict(said: Prediction, result: str, question: str) -> Verdict:
    """A match result: the prediction's one result ("Marseille won 2-1", "a draw", "L") is correct when it
    is the gold's, wrong when it is another; unsure when it gives none or several, negates, or says more
    than a little besides the question ("Chelsea have won five titles")."""
    asked = words(question)
    extra = [
        t for t in said.words
        if isinstance(t, str) and _content(t) and t not in vocabulary.RESULT_WORDS and not _stated_in(t, asked)
    ]  # fmt: skip
    values = [t for t in said.words if isinstance(t, (Quantity, Date))]
    if len(extra) > MAX_EXTRA_WORDS or len(values) not in (0, 2):  # a score is two numbers
        return Verdict.UNSURE
    if len(said.words) == 1 and said.words[0] in vocabulary.RESULT_CODES:
        stated = {vocabulary.RESULT_CODES[str(said.words[0])]}
    else:
        stated = {vocabulary.RESULT_WORDS[t] for t in said.words if isinstance(t, str) and t in vocabulary.RESULT_WORDS}
    if len(stated) != 1 or said.negated:
        return Verdict.UNSURE
    return _capped(said) if stated == {result} else Verdict.WRONG


def _value_alternatives(gold: str) -> list[str]:
    """The two parts of a gold answer that gives one value two ways ("78.7 million less or a -66.7%
    decrease"); empty when it does not."""
    parts = re.split(r"\s+or\s+", gold.strip())
    if len(parts) != 2 or "," in gold:
        return []
    if all(any(isinstance(t, (Quantity, Date)) for t in words(part)) for part in parts):
        return parts
    return []


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


def _qualified(wanted: Sequence[Token]) -> bool:
    """Whether words follow a phrase break after the gold's value: a title with a qualifier ("1989
    (taylor's version)"), not a value with its unit ("5 times")."""
    at = next(i for i, t in enumerate(wanted) if isinstance(t, (Quantity, Date)))
    rest = wanted[at + 1 :]
    return STOP in rest and any(isinstance(t, str) and t not in BREAKS for t in rest[rest.index(STOP) :])


def _value_verdict(said: Prediction, gold_words: Sequence[Token], question: str) -> Verdict:
    value = _single_value(gold_words)
    stated = [t for t in said.words if isinstance(t, (Quantity, Date))]
    if _direction(said.words) == _direction(gold_words) == "down":  # "a loss of $3.26" for "-$3.26"
        value, stated = _magnitude(value), [_magnitude(t) for t in stated]
    agreements = {agree(t, value) for t in stated}
    if Agreement.SAME in agreements:
        if isinstance(value, Quantity) and not _is_year(value):
            stated = [
                t for t in stated if not _is_year(t)
            ]  # "7 titles since 2019" states 7 and no other count
        if {agree(t, value) for t in stated} & {Agreement.CONFLICT, Agreement.NEAR}:  # "5 or 7"; "7 to his 2"
            return _unsure_if(not said.hedged)
        changed = _direction_verdict(said, gold_words, question)
        if changed is not None:  # "it lost $926 billion", asked how much it gained
            return changed
        if _says_more(said, [*gold_words, _magnitude(value)], question) or _other_unit(
            said, gold_words, value, question
        ):
            return Verdict.UNSURE  # "1122 cubic meters" for "1122 square meters"
        return _capped(said)
    if Agreement.NEAR in agreements:
        return Verdict.UNSURE
    if _direction(words(question)) == "down" and any(
        agree(_magnitude(t), value) is Agreement.SAME for t in stated
    ):
        return Verdict.UNSURE  # "-$5" for "$5", asked how much it fell
    if not stated and said.words[0] in vocabulary.ZERO_WORDS and value != Quantity(Decimal(0)):
        return Verdict.WRONG  # "none" for "1"
    return _unsure_if(not stated)  # another value, or another kind of value ("5%" for "$5")


def _magnitude(token: Token) -> Token:
    if isinstance(token, Quantity):
        return Quantity(abs(token.value), token.unit, token.precision, token.scaled)
    return token


def _direction(text: Sequence[Token]) -> str | None:
    """Which way a text says a value changed: "down" (a fall, a loss, a negative value), "up", "mixed"
    (both) or None."""
    down = any(t in DOWN_WORDS or (isinstance(t, Quantity) and t.value < 0) for t in text)
    up = any(t in UP_WORDS and not (t == "up" and "to" in text[i + 1 : i + 2]) for i, t in enumerate(text))
    return "mixed" if up and down else "down" if down else "up" if up else None


def _direction_verdict(said: Prediction, gold_words: Sequence[Token], question: str) -> Verdict | None:
    """Wrong when the prediction says the value changed the other way than the gold says (or, when the
    gold does not say, the question: "how much has it gained"); unsure when neither tells and the
    prediction says it fell; None when nothing is against it."""
    said_way = _direction(said.words)
    if said_way is None:
        return None
    wanted = _direction(gold_words)
    if wanted is None:
        asked = _direction(words(question))
        wanted = None if asked == "mixed" else asked
    if wanted is None:
        return None if said_way == "up" else Verdict.UNSURE  # a gold without a sign is not a fall
    if "mixed" in (said_way, wanted):
        return Verdict.UNSURE
    return None if said_way == wanted else Verdict.WRONG


def _other_unit(said: Prediction, gold_words: Sequence[Token], value: Token, question: str) -> bool:
    """Whether the prediction writes the gold's value with words the gold's own unit words ("square
    meters") and the question do not have ("cubic meters", "square feet"): units the rules do not know."""
    at = next(i for i, t in enumerate(gold_words) if _magnitude(t) == _magnitude(value))
    if not any(isinstance(t, str) for t in gold_words[at + 1 :]):
        return False
    known = [*gold_words, *words(question)]
    for i, token in enumerate(said.tokens):
        if agree(_magnitude(token), _magnitude(value)) is not Agreement.SAME:
            continue
        for following in said.tokens[i + 1 : i + 4]:
            if not isinstance(following, str) or following in BREAKS or following in FUNCTION_WORDS:
                break
            if following not in FILLERS | DOWN_WORDS | UP_WORDS and not _stated_in(following, known):
                return True
    return False


# --- lists and short phrases


def _items(text_tokens: Sequence[Token], at: frozenset[str] = SEPARATORS) -> tuple[tuple[Token, ...], ...]:
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


def _reads_as_list(items: Sequence[Sequence[Token]], question: str) -> bool:
    """Whether a gold answer's comma-separated parts are a list: two parts only when they are parallel
    ("lenny kravitz, lisa bonet"; not "melbourne, australia"); three or more short ones, or, when the
    question asks for several things, titles ("everything i thought it was, man of the woods, ...")."""
    if _two_parts(items):
        return _is_list(items) and _parallel(*items)
    if _is_list(items):
        return True
    return len(items) > 2 and bool(_ASKS_FOR_SEVERAL.search(question.lower())) and all(map(_is_title, items))


def _two_parts(items: Sequence[Sequence[Token]]) -> bool:
    """Two comma-separated parts, with no "and" making a third ("solid, liquid and gas")."""
    return len(items) == 2 and not any(t in AND for item in items for t in item)


def _parallel(first: Sequence[Token], second: Sequence[Token]) -> bool:
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


def _is_candidate(item: Sequence[Token]) -> bool:
    """An item that reads as an answer of its own (a bare name or value), not part of a sentence."""
    return len(item) <= SHORT_ITEM_WORDS and not any(t in FUNCTION_WORDS for t in item)


def _distinctive(token: Token) -> bool:
    return isinstance(token, str) and len(token) >= 3 and token not in FUNCTION_WORDS | GENERIC_WORDS


def _title_number(token: Token) -> bool:
    """A number that may belong to a name ("rocky 2", "part ii"): a whole number without a unit, and no
    year ("hot fuss (2004)")."""
    return isinstance(token, Quantity) and not token.unit and token.precision >= 1 and not _is_year(token)


def _names_part(said: Sequence[Token], wanted: Sequence[Token], either_end: bool = False) -> bool:
    """Whether `said` names `wanted` by a distinctive part of it: its end ("Djokovic", "Deathly Hallows
    Part 2"), a start followed only by generic words ("Mayon" for "Mayon Volcano"), or, in a list,
    any start or end ("Ella" for "Ella Clooney", "Spurs" for "San Antonio Spurs"). A part without the
    name's number does not name it ("Spider-Man" for "Spider-Man 2")."""
    n = len(said)
    if not 0 < n < len(wanted) or not any(_distinctive(t) for t in said):
        return False
    if tuple(wanted[-n:]) == tuple(said):  # a first name, a series' name ("Harry Potter and"), "13 years at"
        dropped = wanted[:-n]
        return not any(map(_title_number, dropped)) and (
            either_end
            or len(dropped) == 1
            or sum(map(_distinctive, said)) >= 2
            or not any(map(_distinctive, dropped))
        )
    if tuple(wanted[:n]) == tuple(said):  # not "Lisa" for "lisa and maggie"
        dropped = wanted[n:]
        return not any(t in SEPARATORS or _title_number(t) for t in dropped) and (
            either_end or not any(map(_distinctive, dropped))
        )
    return False


def _shared(part: Sequence[Token], others: Sequence[Sequence[Token]]) -> bool:
    """Whether another name shares a distinctive word of a part of a name, which then names neither for
    sure ("Williams" beside "venus williams" and "serena williams", "Bieber" beside "justin bieber" and
    "hailey bieber")."""
    return any(_stated_in(t, other) for other in others for t in part if _distinctive(t))


def _item_agreement(
    said: Sequence[Token],
    wanted: Sequence[Token],
    asked: Sequence[Token] = (),
    others: Sequence[Sequence[Token]] = (),
) -> Agreement:
    """How a prediction's list item names a gold item: SAME, NEAR (inside a longer name: "West Berlin"
    for "berlin", "Cleveland Browns" for "browns"; by a part one of the `others` shares: "Williams" for
    "venus williams" beside "serena williams"; or a rounded value) or UNRELATED. Words of the question
    beside it are no part of a name ("low $246.46", asked for the low and high prices)."""
    found, start = _find_run(said, wanted)
    if found is Agreement.SAME:
        beside = [said[i] for i in (start - 1, start + len(wanted)) if 0 <= i < len(said)]
        longer = any((_distinctive(t) or _title_number(t)) and not _stated_in(t, asked) for t in beside)
        return Agreement.NEAR if longer else Agreement.SAME
    if _names_part(said, wanted, either_end=True):
        return Agreement.NEAR if _shared(said, others) else Agreement.SAME
    spelled = len(said) == len(wanted) and all(
        s == w or (isinstance(s, str) and isinstance(w, str) and _spelled_alike(s, w))
        for s, w in zip(said, wanted)
    )  # "san franciso 49ers"
    return Agreement.NEAR if found is Agreement.NEAR or spelled else Agreement.UNRELATED


def _list_verdict(said: Prediction, gold_items: Sequence[Sequence[Token]], question: str = "") -> Verdict:
    said_items = _items(said.tokens)
    asked = words(question)
    agreements = [
        {_item_agreement(s, g, asked, [o for o in gold_items if o != g]) for s in said_items}
        for g in gold_items
    ]
    if all(Agreement.NEAR in a and Agreement.SAME not in a for a in agreements) and all(
        any(_find(s, g) is Agreement.SAME and s[-len(g) :] == tuple(g) for s in said_items)
        for g in gold_items
    ):  # every item with a word before it: "cleveland browns, detroit lions" for "browns, lions"
        agreements = [{Agreement.SAME} for _ in gold_items]
    named = [Agreement.SAME in a for a in agreements]
    near = [bool(a & {Agreement.SAME, Agreement.NEAR}) for a in agreements]
    extra = [
        s for s in said_items
        if _is_candidate(s) and all(_item_agreement(s, g) is Agreement.UNRELATED for g in gold_items)
    ]  # fmt: skip
    if all(named) and not extra:
        return _capped(said)
    if extra or (any(near) and not all(near) and all(_is_candidate(s) for s in said_items)):
        return Verdict.WRONG  # something else named, or an item left out
    if all(near):
        return Verdict.UNSURE
    return _unsure_if(not any(near) and any(_is_candidate(s) for s in said_items))


def _phrase_verdict(
    said: Prediction, gold_words: Sequence[Token], question: str, by_part: bool = True
) -> Verdict:
    """The verdict for a name or short phrase; `by_part` lets a distinctive part of it name it ("Djokovic"),
    which a gold with a qualifier after a comma does not ("australia" for "melbourne, australia")."""
    found = _find(said.words, gold_words)
    if found is Agreement.SAME:
        if _names_others(said, gold_words):
            return Verdict.WRONG  # "Inception and Interstellar", "either X or Y"
        if (
            _inside_longer_name(said.tokens, gold_words, question)
            or _says_more(said, gold_words, question)
            or _qualifies(said.tokens, _find_run(said.tokens, gold_words)[1])
        ):
            return (
                Verdict.UNSURE
            )  # "Talons of the Eagle" for "the eagle"; "Melbourne, Australia" for "australia"
        return _capped(said)
    if found is Agreement.NEAR:
        return Verdict.UNSURE
    if (by_part and _names_part(said.words, gold_words)) or _same_words(said.words, gold_words):
        return _capped(said)
    if said.words == tuple(t for t in gold_words if not _title_number(t)) or _other_ending(
        said.words, gold_words
    ):
        return Verdict.WRONG  # "Spider-Man" for "spider-man 2"; "Tom Cruise" for "tom hanks"
    asked = words(question)
    if _values_conflict(said.words, [t for t in gold_words if not _stated_in(t, asked)]):
        return Verdict.WRONG  # "part 1" for "part 2" (a value the question names is not the answer's)
    return _unsure_if(_related(said.words, gold_words))


def _qualifies(said: Sequence[Token], start: int | None) -> bool:
    """Whether the prediction's last word, at `start`, only qualifies a name before it ("Melbourne,
    Australia": its answer is Melbourne)."""
    return (
        start is not None
        and start == len(said) - 1
        and start >= 2
        and said[start - 1] == COMMA
        and _distinctive(said[start - 2])
    )


def _head_verdict(said: Prediction, wanted: Sequence[Token], question: str) -> Verdict | None:
    """For a gold answer that names something, then where or what it is ("los angeles, usa", "ps 41 in
    greenwich village, manhattan"): naming its head is correct when the head has two words or more and
    the prediction adds nothing of its own, unsure otherwise ("paris" for "paris, texas"); another head
    with the same tail is wrong ("sydney, australia" for "melbourne, australia"); None otherwise."""
    head: list[Token] = []
    for i, token in enumerate(wanted):
        after = wanted[i + 1] if i + 1 < len(wanted) else STOP
        if token == COMMA or (token in LOCATIVES and head and _distinctive(after)):
            break
        if token != STOP:
            head.append(token)
    gold_words = [t for t in wanted if t not in BREAKS]
    if len(head) == len(gold_words) or not any(_distinctive(t) or _title_number(t) for t in head):
        return None
    if _phrase_verdict(said, head, question) is not Verdict.CORRECT:
        tail = gold_words[len(head) :]
        said_head = said.words[: len(said.words) - len(tail)]
        other_head = (
            said.words[len(said_head) :] == tuple(tail) and said_head and not _related(said_head, head)
        )
        return Verdict.WRONG if other_head and COMMA in said.tokens else None
    asked = words(question)
    own = [
        t for t in said.words if _content(t) and not _stated_in(t, gold_words) and not _stated_in(t, asked)
    ]
    return Verdict.UNSURE if own or len(head) < 2 else Verdict.CORRECT


def _other_ending(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """A name that starts as the gold does, then goes on another way ("Tom Cruise" for "tom hanks",
    "Sheffield Wednesday" for "sheffield utd", "Pirates of the Caribbean: At World's End" for its "Dead
    Man's Chest"; not "Sheffield United", which "utd" may abbreviate)."""
    shared = 0
    while shared < min(len(said), len(wanted)) and said[shared] == wanted[shared]:
        shared += 1
    if not shared or shared in (len(said), len(wanted)):
        return False
    rest, gold_rest = said[shared], wanted[shared]
    return _distinctive(rest) and _distinctive(gold_rest) and not _names_alike(said[shared:], wanted[shared:])


def _names_others(said: Prediction, gold_words: Sequence[Token]) -> bool:
    """Whether the prediction offers other candidates beside the gold: "X and Y", "X or Y", "X, Y, Z"."""
    items = _items(said.tokens)
    joined = any(t in SEPARATORS for t in said.words) or len(_items(said.tokens, at=frozenset())) > 2
    return (
        joined
        and all(map(_is_candidate, items))
        and not all(_item_agreement(i, gold_words) is Agreement.SAME for i in items)
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


def _inside_longer_name(said: Sequence[Token], gold_words: Sequence[Token], question: str) -> bool:
    """Whether the gold is only part of a longer name in the prediction: a distinctive word right after
    it ("New York Yankees" for "new york"; not one of the question's: "Gary Oldman won", asked who won)
    or right before it ("West Germany" for "germany"), or a joining word right before ("Talons of the
    Eagle")."""
    found, start = _find_run(said, gold_words)
    if found is not Agreement.SAME:
        return False  # the gold runs across a phrase break: not one name
    end = start + len(gold_words)
    after = said[end] if end < len(said) else STOP
    before = said[start - 1] if start > 0 else STOP
    asked = words(question)
    if not any(isinstance(t, str) for t in gold_words):
        return isinstance(after, (Quantity, Date))  # values ("56-26"): no name a word makes longer
    return (
        (_distinctive(after) and not _stated_in(after, asked))
        or isinstance(after, (Quantity, Date))
        or (_distinctive(before) and not _stated_in(before, asked))
        or (start > 1 and before in ("of", "and"))
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


def _stray_value(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether the prediction states a value that only contradicts the gold's ("8 songs" where it says 6
    and 4)."""
    gold_values = [t for t in wanted if isinstance(t, (Quantity, Date))]
    for token in said:
        if isinstance(token, (Quantity, Date)):
            agreements = {agree(token, w) for w in gold_values}
            if Agreement.CONFLICT in agreements and not agreements & {Agreement.SAME, Agreement.NEAR}:
                return True
    return False


def _related(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether the prediction may name the gold another way: a shared distinctive word, an abbreviation
    ("man city", "rdj"), another spelling, or only the gold's values."""
    if all(_stated_in(t, wanted) for t in said):
        return True  # a part of the gold, which the phrase rules do not accept as a name
    said_words = [t for t in said if isinstance(t, str)]
    gold_words = [t for t in wanted if isinstance(t, str) and t not in FUNCTION_WORDS]
    for s in filter(_distinctive, said_words):
        if any(w.startswith(s) or s.startswith(w) for w in filter(_distinctive, gold_words)):
            return True
    if _names_alike(said, wanted):
        return True
    values = [t for t in said if isinstance(t, (Quantity, Date))]
    return bool(values) and all(any(agree(v, w) is Agreement.SAME for w in wanted) for v in values)


def _names_alike(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether a short prediction may name the gold in a way the rules cannot confirm: initials ("mit",
    "psg", "us" for "united states"), an abbreviation ("msft", "utd") or another spelling ("ferrell" for
    "farrell")."""
    said_words = [t for t in said if isinstance(t, str) and t not in BREAKS]
    gold_words = [t for t in wanted if isinstance(t, str) and t not in BREAKS]
    if len(said_words) > SHORT_ITEM_WORDS:
        return False
    for short, long in ((said_words, gold_words), (gold_words, said_words)):
        initials = {"".join(w[0] for w in long), "".join(w[0] for w in long if w not in FUNCTION_WORDS)}
        for word in short:
            if word in FUNCTION_WORDS or not 2 <= len(word) <= ABBREVIATION_MAX_LETTERS:
                continue
            if (word in initials and len(long) > 1) or any(_abbreviates(word, other) for other in long):
                return True
    return any(
        _spelled_alike(s, g)
        for s in filter(_distinctive, said_words)
        for g in filter(_distinctive, gold_words)
    )


def _abbreviates(short: str, word: str) -> bool:
    """ "msft" for "microsoft", "utd" for "united": the first letter, then consonants of the word in order."""
    if len(short) < 3 or len(word) < len(short) + 2 or short[0] != word[0] or set(short[1:]) & set(VOWELS):
        return False
    letters = iter(word)
    return all(letter in letters for letter in short)


def _spelled_alike(a: str, b: str) -> bool:
    return (
        a != b
        and a[0] == b[0]
        and min(len(a), len(b)) >= 4
        and (SequenceMatcher(None, a, b).ratio() >= SPELLING_SIMILARITY)
    )


# --- lists of people by their relations, and dates labelled by quarter


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


def _people(text: Sequence[Token], asked: frozenset[Token]) -> People | None:
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
    return not _person_word(str(token)) or _stem(token) in asked


def _people_verdict(said: Prediction, wanted: Sequence[Token], question: str) -> Verdict | None:
    """A list of people against another, when one of them (or the question) names them by their relations
    ("the brothers kevin, joe and nick" for "Kevin Jonas, Joe Jonas and Nick Jonas"): correct when the
    same people are named, given names and surnames alike; wrong when one names someone the other does not
    (or names beside the list: "with michelle obama") or another surname; unsure when words beside the
    names are not read, a name differs by its spelling or a middle name, or one of the names that differ
    stands after words that are no relation (perhaps no name), unless the prediction never says a name
    the gold lists plainly. None when it is no such pair."""
    asked = _stems(tokens(question))
    texts = (said.tokens, tuple(wanted), tokens(question))
    if said.hedged or not (
        (not question or re.search(vocabulary.ASKS_FOR_PEOPLE, question.lower()))
        and any(t in vocabulary.RELATION_WORDS for text in texts for t in text)
    ):
        return None
    given, gold = _people(said.tokens, asked), _people(wanted, asked)
    if given is None or gold is None or not given.listed or len(gold.listed) < 2:
        return None
    said_names = sorted(p.name[0] for p in given.listed)
    gold_names = sorted(p.name[0] for p in gold.listed)
    extra = [n for n in said_names if n not in gold_names]
    missing = [n for n in gold_names if n not in said_names]
    if extra or missing or len(said_names) != len(gold_names):
        if any(n in gold.beside for n in extra):
            return Verdict.WRONG  # names someone the gold names beside the list
        alike = any(_spelled_alike(a, b) for a in extra for b in missing)
        if not alike and any(p.plain and p.name[0] in missing and p.name[0] not in said.tokens for p in gold.listed):
            return Verdict.WRONG  # someone the gold lists plainly goes unnamed
        differing = [p for p in (*given.listed, *gold.listed) if p.name[0] in (*extra, *missing)]
        return _unsure_if(alike or gold.unread or given.unread or not all(p.plain for p in differing))
    gold_by_name = {p.name[0]: p for p in gold.listed}
    for person in given.listed:
        other = gold_by_name[person.name[0]]
        if person.surname and other.surname and person.surname != other.surname:
            return Verdict.WRONG
        if person.name[1:] and other.name[1:] and person.name[1:] != other.name[1:]:
            return Verdict.UNSURE  # a middle name, a name of two words
        if person.surname and not other.surname and person.surname not in wanted and _stem(person.surname) not in asked:
            return Verdict.UNSURE  # a surname the gold never says
    return Verdict.UNSURE if gold.unread or given.unread else Verdict.CORRECT


def _dates_verdict(said: Prediction, wanted: Sequence[Token], question: str) -> Verdict | None:
    """A list of dates against the same list labelled by quarter ("q1 2024: april 24, 2024; ...") or the
    reverse: correct when they are the same dates, in any order; wrong when a date differs or is missing
    or added, or the quarters' dates are out of order; unsure when a date leaves out its year. None when it
    is no such pair (both or neither side labels them, other words stand beside the dates, one date)."""
    sides = (said.tokens, tuple(wanted))
    labelled = ["quarter" in side for side in sides]
    if said.hedged or labelled[0] == labelled[1]:
        return None
    asked = _stems(tokens(question))
    dates: list[list[Date]] = []
    for side, with_quarters in zip(sides, labelled):
        found = _dated_list(side, asked, with_quarters)
        if found is None:
            return None
        dates.append(found)
    said_dates, gold_dates = dates
    if len(said_dates) < 2 or len(gold_dates) < 2:
        return None
    complete = [d for d in dates[labelled.index(True)] if None not in _fields(d)]
    if len(said_dates) != len(gold_dates) or complete != sorted(complete, key=_fields):  # type: ignore[arg-type]
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
            token in BREAKS or token in LIST_JOINTS or token in FUNCTION_WORDS or _stem(token) in asked
            or (isinstance(token, Quantity) and not token.unit) or token in vocabulary.FISCAL_WORDS
        ):  # fmt: skip
            return None
    if not with_quarters:
        return dates
    if len(quarters) != len(dates) or len(set(quarters)) != len(quarters):
        return None
    return [date for _, date in sorted(zip(quarters, dates), key=lambda pair: pair[0])]


# --- sentences


@lru_cache(maxsize=65536)
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
    """Whether `text` states `token`: the same word (stemmed) or value, or a more specific date ("feb
    14, 2024" states "2024"; "2024" does not state "feb 14, 2024")."""
    if isinstance(token, str):
        return _stem(token) in _stems(tuple(text))
    return any(agree(t, token) is Agreement.SAME for t in text)


@lru_cache(maxsize=65536)
def _stems(text: tuple[Token, ...]) -> frozenset[Token]:
    return frozenset(_stem(t) for t in text if isinstance(t, str))


def _key_spans(wanted: Sequence[Token], asked: Sequence[Token]) -> list[list[tuple[Token, ...]]]:
    """The gold sentence's runs of content the question does not contain, grouped into lists: spans
    joined only by commas, "and" or "or" ("dan auerbach and patrick carney") form one group. A number
    keeps the name before it ("shrek 2", asked for the shrek movies)."""
    groups: list[list[tuple[Token, ...]]] = []
    span: list[Token] = []
    pending: list[Token] = []  # function words inside a span ("voyage of dawn treader")
    joined = False  # only separators since the last span
    for i, token in enumerate([*wanted, STOP]):
        if _content(token) and token not in DIRECTION_WORDS and not _stated_in(token, asked):
            if not span and not (joined and groups):
                groups.append([])
            if (
                not span
                and _title_number(token)
                and i
                and isinstance(wanted[i - 1], str)
                and _content(wanted[i - 1])
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
        joined = joined and (token == COMMA or token in SEPARATORS)
    return groups


def _sentence_verdict(said: Prediction, wanted: Sequence[Token], gold: str, question: str) -> Verdict:
    asked = words(question)
    groups = _key_spans(wanted, asked)
    said_content = [t for t in said.words if _content(t)]
    covered = [group for group in groups if any(_covers(said, span, wanted) for span in group)]
    wants_value = _asks_for_value(question) and bool(_key_values(wanted, question)[0])
    if wants_value:
        kind = _asked_kind(question)
        own = [t for t in said.words if _of_kind(t, kind) and not _stated_in(t, [*wanted, *asked])]
        if _stray_value(own, _key_values(wanted, question)[0]):
            return Verdict.WRONG  # another value where the sentence's answer is one
    if all(_stated_in(t, wanted) or _stated_in(t, asked) for t in said_content):  # nothing beyond the gold
        if not asked:
            return Verdict.UNSURE  # no question to tell the key fact by
        answer = None if wants_value else _answer_name(wanted, asked)
        one_name = answer is not None and len(_items(answer)) == 1
        if one_name and not any(_stated_in(t, said.words) for t in answer if _distinctive(t)):
            # another name of the sentence than its answer ("goran ivanisevic" for "novak djokovic, who is
            # coached by goran ivanisevic, won ..."), or no name
            return _unsure_if(not any(_distinctive(t) and not _stated_in(t, asked) for t in said.words))
        if not covered:
            return Verdict.UNSURE  # only what the question says
        if any(
            _is_gold_list(group) and not all(_covers(said, span, wanted) for span in _named(group))
            for group in covered
        ):
            # part of a list: of the answer when the question asks for several things
            return _unsure_if(not _ASKS_FOR_SEVERAL.search(question.lower()))
        if not wants_value and any(
            _names_span(said.tokens, span)
            and not _names_span(said.tokens, span, [o for o in group if o != span])
            for group in covered
            for span in group
        ):  # "Williams" for "venus williams and serena williams are ...": which one?
            return Verdict.UNSURE
        if not _gives_what_is_asked(said, wanted, groups, covered, question):
            return Verdict.UNSURE  # one fact of several, maybe not the one asked for
        if _direction_verdict(said, wanted, question) is not None:
            return Verdict.UNSURE
        return _capped(said, bool(_NEGATION.search(gold.lower())))
    said_items = _items(said.tokens)
    gold_has_list = any(_is_gold_list(group) for group in groups)
    if gold_has_list and _is_list(said_items) and not all(_in_gold(item, wanted) for item in said_items):
        return Verdict.WRONG  # a list naming someone the gold's list does not
    return _unsure_if(bool(covered) or _names_alike(said.words, wanted))  # the judge must read it


def _named(group: Sequence[Sequence[Token]]) -> list[Sequence[Token]]:
    """The spans of a group that name something: not "pg" beside "point guard"."""
    return [span for span in group if any(map(_distinctive, span))]


def _is_gold_list(group: Sequence[Sequence[Token]]) -> bool:
    """Spans of a sentence joined as a list ("dan auerbach and patrick carney", "once upon a time in
    hollywood, don't look up, and killers of the flower moon")."""
    return len(group) > 1 and (_is_list(group) or all(len(span) <= TITLE_ITEM_MAX_WORDS for span in group))


def _option_verdict(
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
        if chooses_gold is None:
            return Verdict.UNSURE
        names_gold, names_other = chooses_gold, not chooses_gold
    if names_other:
        return Verdict.WRONG
    if not names_gold:
        return None
    if _qualifies(said.tokens, gold_at):
        return Verdict.UNSURE  # "los angeles, usa", asked "usa or japan?": its answer is los angeles
    if _stray_value(said.words, wanted):
        return Verdict.WRONG  # "La La Land, with 8 original songs" where the gold says 6
    gold_words = [t for t in wanted if t not in BREAKS]
    return Verdict.UNSURE if _says_more(said, gold_words, question) else _capped(said)


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
    key = [t for t in option if _distinctive(t) or isinstance(t, (Quantity, Date))]
    if key and all(_stated_in(t, text) for t in key):
        return min(i for i, t in enumerate(text) if _stated_in(t, key))
    for n in range(1, len(option)):
        for part in (option[:n], option[-n:]):
            if _names_part(part, option) and not _shared(part, [other]):
                found, start = _find_run(text, part)
                beside = [text[i] for i in (start - 1, start + n) if 0 <= i < len(text)]
                if found is Agreement.SAME and not any(map(_distinctive, beside)):  # not "Del Harris"
                    return start
    return None


def _chosen_option(
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
    options = [o for o in (left, right) if o and (_states_all(wanted, o) or _names_part(gold_words, o))]
    if len(options) == 2:
        chooses_left = _chooses(gold_words, left, right, question)
        options = [] if chooses_left is None else [left if chooses_left else right]
    if len(options) != 1:
        return None
    return options[0], right if options[0] == left else left


def _states_all(text: Sequence[Token], option: Sequence[Token]) -> bool:
    """Whether `text` states every distinctive word and value of `option` (and it has some)."""
    key = [t for t in option if _distinctive(t) or isinstance(t, (Quantity, Date))]
    return bool(key) and all(_stated_in(t, text) for t in key)


def _in_gold(item: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether the gold states a prediction's list item: its values when it has some ("$89 million
    international"), else its words, perhaps spelled one letter otherwise ("shearer" for "sheare")."""
    values = [t for t in item if isinstance(t, (Quantity, Date))]
    return all(
        _stated_in(t, wanted)
        or (_distinctive(t) and any(_one_edit(str(t), str(w)) is not None for w in wanted if _distinctive(w)))
        for t in values or [t for t in item if _content(t)]
    )


def _covers(said: Prediction, span: Sequence[Token], wanted: Sequence[Token] = ()) -> bool:
    """Whether the prediction states a span of the gold sentence: one of its values; a short name whole
    or by a distinctive part ("Foy" for "claire foy"; not "The Fame" for "the fame monster"), perhaps
    followed by a surname the gold sentence writes elsewhere ("Barry Gibb" for "barry" of "the brothers
    barry, robin and maurice gibb"); a distinctive word of a longer run; or all of a span without any
    ("m.a.a.d city")."""
    values = [t for t in span if isinstance(t, (Quantity, Date))]
    if any(_stated_in(t, said.words) for t in values):
        return True
    key = [t for t in span if _distinctive(t)]
    if not key:
        return not values and all(_stated_in(t, said.words) for t in span if _content(t))
    if sum(map(_content, span)) <= SHORT_NAME_WORDS:
        return _names_span(said.tokens, span, family=wanted)
    return any(_stated_in(t, said.words) for t in key)


def _names_span(
    said: Sequence[Token],
    span: Sequence[Token],
    others: Sequence[Sequence[Token]] = (),
    family: Sequence[Token] = (),
) -> bool:
    """Whether `said` names `span` whole, or by a distinctive part of it (`_names_part`) that is no part
    of a longer name there ("forward" of "small forward" does not name "power forward"; a word of the
    `family` after it may be: a surname its list shares) and that none of the `others` shares
    ("Williams" beside "venus williams" and "serena williams")."""
    if _find(said, span) is Agreement.SAME:
        return True
    for n in range(1, len(span)):
        first, last = tuple(span[:n]), tuple(span[-n:])
        runs = {first: _find_run(said, first), last: _find_run(said, last)}
        found, start = runs[first]
        if found is Agreement.SAME and _surname_follows(said, start + n, span[n:]) and not _shared(first, others):
            return True  # "Jared" of "Jared and Matthew Followill" for "jared followill"
        for part in (first, last):
            found, start = runs[part]
            if found is not Agreement.SAME or not _names_part(part, span) or _shared(part, others):
                continue
            before = said[start - 1] if start > 0 else STOP
            after = said[start + n] if start + n < len(said) else STOP
            if not _distinctive(before) and not (_distinctive(after) and not _stated_in(after, family)):
                return True
    return False


def _surname_follows(said: Sequence[Token], at: int, surname: Sequence[Token]) -> bool:
    """Whether the given names of a list starting at `at` end with `surname` ("and Matthew Followill"
    after "Jared"): only list joints and one-word names stand between."""
    for i in range(at, min(len(said), at + LIST_ITEM_MAX_WORDS * 2)):
        if tuple(said[i : i + len(surname)]) == tuple(surname) and i > at:
            return any(_distinctive(t) for t in surname)
        token = said[i]
        if not (token == COMMA or token in SEPARATORS or _distinctive(token)):
            return False
        if _distinctive(token) and i + 1 < len(said) and _distinctive(said[i + 1]) and (
            tuple(said[i + 1 : i + 1 + len(surname)]) != tuple(surname)
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
    if _asks_for_value(question) and keys:
        stated = [key for key in keys if _stated_in(key, said.words)]
        return bool(stated) and (unique or len(stated) == len(keys))
    answer = _answer_name(wanted, words(question))
    if answer is not None and all(_names_span(said.tokens, item) for item in _items(answer)):
        return True  # the name, or every name of a list in any order
    return all(group in covered for group in groups if _named(group))


def _asks_for_value(question: str) -> bool:
    """Whether a question asks for a value: it names one ("how many", "when", "price", ...) and does not
    ask for a thing ("which company has the highest market cap?", "what energy stocks ...")."""
    lowered = question.lower()
    return bool(_ASKS_FOR_VALUE.search(lowered)) and not _ASKS_FOR_THING.search(lowered)


def _asked_kind(question: str) -> str | None:
    """The kind of value a question asks for ("date", "money", "percent", "count"), or None."""
    found = [
        (match.start(), kind) for kind, pattern in _ASKED_KINDS if (match := pattern.search(question.lower()))
    ]
    return min(found)[1] if found else None


def _of_kind(token: Token, kind: str | None) -> bool:
    """Whether a token is a value of the kind a question asks for (any value when None)."""
    if not isinstance(token, (Quantity, Date)):
        return False
    if kind == "date":
        return isinstance(token, Date) or _is_year(token)
    if not isinstance(token, Quantity):
        return kind is None
    money, year = UNIT_KINDS.get(token.unit) == "money", _is_year(token)
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
    values = [
        (i, t) for i, t in enumerate(wanted) if isinstance(t, (Quantity, Date)) and not _stated_in(t, asked)
    ]
    values = [(i, t) for i, t in values if _of_kind(t, kind)] or values
    distinct = list(dict.fromkeys(t for _, t in values))
    if len(distinct) > 1:  # the value that counts what the question asks about ("76 victories")
        counting = list(dict.fromkeys(t for i, t in values if _counts_asked(wanted, i, asked)))
        if len(counting) == 1:
            return counting, True
    return distinct, len(distinct) == 1


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
        return _stated_in(noun[-1], asked)
    following = [t for t in text[at + 1 :] if t not in FUNCTION_WORDS]
    return (
        bool(following)
        and isinstance(following[0], str)
        and following[0] not in BREAKS
        and (_stated_in(following[0], asked))
    )


def _answer_name(wanted: Sequence[Token], asked: Sequence[Token]) -> tuple[Token, ...] | None:
    """The name (or list of names) a gold sentence gives as its answer: its subject, when a copula or the
    question's words follow it (perhaps after a clause between commas: "ederson, who plays for manchester
    city, was the goalkeeper ...", "taylor swift was the top artist ...", "as of 2022, barry bonds, hank
    aaron, and babe ruth are the top three ..."), or the words after its last copula, when they end it
    ("the actress who played ... is claire foy"); only words the question does not contain."""
    start = 0
    if COMMA in wanted and all(
        not _content(t) or _stated_in(t, asked) for t in wanted[: wanted.index(COMMA)]
    ):
        start = wanted.index(COMMA) + 1  # an opening the question already says: "as of 2022, ..."
    subject: list[Token] = []
    for i, token in enumerate(wanted[start:], start):
        clause = token == COMMA and i + 1 < len(wanted) and wanted[i + 1] in FUNCTION_WORDS - SEPARATORS
        if (
            token == STOP
            or token in COPULAS
            or not isinstance(token, str)
            or _stated_in(token, asked)
            or clause
        ):
            break
        subject.append(token)
    rest = wanted[start + len(subject) :]
    if rest and rest[0] == COMMA and COMMA in rest[1:]:
        rest = rest[rest.index(COMMA, 1) + 1 :]  # the clause between commas
    if _answer_words(subject, asked) and rest and _restates(rest, asked):
        return tuple(subject)
    copulas = [i for i, t in enumerate(wanted) if t in COPULAS]
    complement = list(wanted[copulas[-1] + 1 :] if copulas else ())
    while complement and complement[-1] in BREAKS:
        complement.pop()
    clauses = [i for i, t in enumerate(complement[:-1]) if t == COMMA and complement[i + 1] in FUNCTION_WORDS]
    if clauses:  # "is b. riley financial, with a yield of ..."
        complement = complement[: clauses[0]]
    name = complement if len(_items(complement)) > 1 else [t for t in complement if t not in BREAKS]
    if _answer_words(complement, asked) and (len(_items(complement)) > 1 or BREAKS.isdisjoint(complement)):
        return tuple(name)
    return None


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
        if _content(token):
            content.append(token)
    return len(content) == 2 and all(_stated_in(t, asked) for t in content)


def _answer_words(run: Sequence[Token], asked: Sequence[Token]) -> bool:
    """A name of a few words, or a list of short names, none of whose words the question says."""
    content = [t for t in run if _content(t)]
    items = _items(run)
    longest = SHORT_ITEM_WORDS + 2 if len(items) == 1 else SHORT_ITEM_WORDS
    return (
        bool(content)
        and all(len(item) <= longest for item in items)
        and not any(_stated_in(t, asked) for t in content)
    )

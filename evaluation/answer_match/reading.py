"""Reading a text into tokens: words (str), values (Quantity, Date) and phrase breaks (COMMA, STOP).

Both sides of a comparison are read alike: accents and articles dropped, lower case; numbers as values
with their unit, scale and sign ("$61.8 billion" = "61,800,000,000 dollars", "82.61%" = "82.61 percent",
"-$1.15" = "negative 1.15", "83 cents" = "$0.83", "part ii" = "part 2", "2.1M" = "2.1 million"; units
written other ways are one unit: "ft³" = "cu ft" = "cubic feet", "litres" = "L"; a quarter "Q4" =
"fourth quarter"; a record "56 wins and 26 losses" = "56-26"); dates at their precision, in any written
form ("1973-07-17" = "July 17, 1973" = "17 Jul 1973" = "17/07/1973" = "17.07.1973"; "10/03/2024", month
or day first, is near March 10; "March 3 and March 4, 2024" gives both days the year, "January 2, 3 and 4,
2024" three days of January 2024).

`agree` compares two tokens: SAME, NEAR (a rounded number, a less specific date, another unit of the
same kind), CONFLICT (another value of the same kind) or UNRELATED. A more specific date states a less
specific one ("March 1993" states "1993"); a more precise number states a rounded gold of 3 digits or
more ("$191.67 million" for "$191.7 million"), and so does a sum with a scale word that rounds the gold
to 3 digits or more ("$55.1 billion" for "$55,098,173,903").
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

from evaluation.answer_match.cues import FILLERS, FUNCTION_WORDS, GENERIC_WORDS, ROUNDED_DIGITS
from models import vocabulary


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
# directions of change in an answer; and its question cues (ASKED_KINDS, ASKS_FOR_SEVERAL) were set on the
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
# year"), units ("ft³" = "cu ft" = "cubic feet"), quarters ("Q4" = "fourth quarter" = "quarter 4"),
# win-loss records ("56 wins and 26 losses" = "56-26") and numbers in words ("thirty-nine").
TENS = range(20, 100, 10)
PHRASES: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (re.compile(rf"\b(?:{vocabulary.MORE_THAN})\b"), "over"),
    (re.compile(rf"\b(?:{vocabulary.LESS_THAN})\b"), "under"),
    *((re.compile(pattern), f" {word}") for pattern, word in vocabulary.UNIT_SPELLINGS.items()),
    (
        re.compile(vocabulary.QUARTER),
        lambda m: f"quarter {m['q'] or vocabulary.ORDINAL_WORDS[m['n']]}",
    ),
    (re.compile(vocabulary.WIN_LOSS), lambda m: f"{m['w'] or m['w2']}-{m['l'] or m['l2']}"),
    (  # "thirty-nine" = 39
        re.compile(
            rf"\b({'|'.join(w for w, n in vocabulary.NUMBER_WORDS.items() if n in TENS)})[- ]"
            rf"({'|'.join(w for w, n in vocabulary.NUMBER_WORDS.items() if 0 < n < 10)})\b"
        ),
        lambda m: str(vocabulary.NUMBER_WORDS[m[1]] + vocabulary.NUMBER_WORDS[m[2]]),
    ),
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
    return tuple(_shared_years(_day_lists(result)))


def _day_lists(result: list[Token]) -> list[Token]:
    """Days listed after a month's date, each a date of that month, and a year after the last one the
    year of all ("January 2, 3 and 4, 2024"): only days in ascending order joined by commas or list
    joints, with that year or ending the text or a phrase (not "on January 5, 3 people died")."""
    out: list[Token] = []
    i = 0
    while i < len(result):
        token = result[i]
        out.append(token)
        i += 1
        if not (isinstance(token, Date) and token.day is not None and token.year is None):
            continue
        days, j, last = [], i, token.day
        while j + 1 < len(result) and (result[j] == COMMA or result[j] in LIST_JOINTS):
            day = result[j + 1]
            if not (isinstance(day, Quantity) and _day_number(day) and int(day.value) > last):
                break
            days.append(int(day.value))
            last, j = int(day.value), j + 2
        after = result[j + 1] if j + 1 < len(result) and result[j] == COMMA else None
        year = int(after.value) if isinstance(after, Quantity) and is_year(after) else None
        end = j + 2 if year is not None else j
        if not days or (year is None and end < len(result) and result[end] not in BREAKS):
            continue
        out[-1] = Date(year, token.month, token.day)
        for day in days:
            out += [COMMA, Date(year, token.month, day)]
        i = end
    return out


def _day_number(token: Quantity) -> bool:
    return not token.unit and token.precision == 1 and 1 <= token.value <= 31


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
        fields = [
            (s, w) for s, w in zip(date_fields(said), date_fields(wanted)) if s is not None and w is not None
        ]
        if any(s != w for s, w in fields):
            if (said.swappable and agree(_swapped(said), wanted) is Agreement.SAME) or (
                wanted.swappable and agree(said, _swapped(wanted)) is Agreement.SAME
            ):
                return Agreement.NEAR  # "10/03/2024" for March 10: day first, perhaps
            return Agreement.CONFLICT
        missing = any(s is None and w is not None for s, w in zip(date_fields(said), date_fields(wanted)))
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
    if isinstance(token, Quantity) and isinstance(other, Date) and is_year(token):
        return Date(int(token.value))
    return token


def is_year(token: Token) -> bool:
    return (
        isinstance(token, Quantity) and not token.unit and token.precision == 1
        and token.value == token.value.to_integral_value() and 1000 <= token.value <= 2100
    )  # fmt: skip


def date_fields(date: Date) -> tuple[int | None, int | None, int | None]:
    return date.year, date.month, date.day


def find(said: Sequence[Token], wanted: Sequence[Token]) -> Agreement:
    """How well some run of `said` agrees with all of `wanted`, word for word (SAME, NEAR or UNRELATED)."""
    return find_run(said, wanted)[0]


def find_run(said: Sequence[Token], wanted: Sequence[Token]) -> tuple[Agreement, int]:
    """`find`, and where the first run that states `wanted` starts (-1 when none does)."""
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


@lru_cache(maxsize=65536)
def stem(token: Token) -> Token:
    """A crude stem, enough to match "released" with "release" and "plays" with "play"."""
    if not isinstance(token, str) or len(token) <= 4:
        return token
    for suffix in ("ing", "ed", "es", "s"):
        if token.endswith(suffix) and not token.endswith("ss"):
            token = token[: -len(suffix)]
            break
    return token.removesuffix("e")


def is_content(token: Token) -> bool:
    return token not in BREAKS and token not in FUNCTION_WORDS and token not in FILLERS


def stated_in(token: Token, text: Sequence[Token]) -> bool:
    """Whether `text` states `token`: the same word (stemmed) or value, or a more specific date ("feb
    14, 2024" states "2024"; "2024" does not state "feb 14, 2024")."""
    if isinstance(token, str):
        return stem(token) in stems(tuple(text))
    return any(agree(t, token) is Agreement.SAME for t in text)


@lru_cache(maxsize=65536)
def stems(text: tuple[Token, ...]) -> frozenset[Token]:
    return frozenset(stem(t) for t in text if isinstance(t, str))


def distinctive(token: Token) -> bool:
    return isinstance(token, str) and len(token) >= 3 and token not in FUNCTION_WORDS | GENERIC_WORDS


def title_number(token: Token) -> bool:
    """A number that may belong to a name ("rocky 2", "part ii"): a whole number without a unit, and no
    year ("hot fuss (2004)")."""
    return isinstance(token, Quantity) and not token.unit and token.precision >= 1 and not is_year(token)


def magnitude(token: Token) -> Token:
    if isinstance(token, Quantity):
        return Quantity(abs(token.value), token.unit, token.precision, token.scaled)
    return token


def states(text: str, answer: str) -> bool:
    """Whether `text` contains `answer`: the same words in order, numbers as values, dates as dates."""
    return find(words(text), words(answer)) is Agreement.SAME

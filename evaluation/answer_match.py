"""Rule-based answer correctness for benchmarks without a judge model (`benchmarks/kg.py --system`).

A prediction is a refusal when it contains "I don't know" (the CRAG scorer counts it as missing).
Otherwise it is correct when the normalised gold answer equals the normalised prediction or occurs in
it as a whole run of tokens ("12" does not match "125"; "lumora foods" matches "Lumora Foods has the
higher P/E ratio."). Normalisation, alike on both sides:
  - accents dropped, lower case; punctuation and "$" are word breaks, except inside numbers and dates;
  - numbers compared as numbers: thousands separators dropped, trailing zeros dropped
    ("$49.31" = "49.31" = "49.310", "1,402,233" = "1402233"), a leading minus kept ("-0.42" != "0.42"),
    scale words multiplied out ("$61.8 billion" = "61.8B" = "61800000000"), number words up to
    twelve read as digits ("three" = "3");
  - dates compared as dates: "2024-03-05", "03/05/2024" (US order), "March 5, 2024" and
    "5 March 2024" are one token 2024-03-05.
Nothing else is forgiven: a gold "$0.36 on 2024-03-05" needs both parts, in that order, in the answer.
(evaluation/evidence_recall.normalize is not reused: it breaks numbers at "." and "-", so it could not
compare them as numbers.)
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

MONTHS = {
    name: number
    for number, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
         ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
         ("november", "nov"), ("december", "dec")],
        start=1,
    )
    for name in names
}
NUMBER_WORDS = {
    word: str(number)
    for number, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
}
SCALES = {"thousand": 10**3, "k": 10**3, "million": 10**6, "m": 10**6, "mn": 10**6,
          "billion": 10**9, "b": 10**9, "bn": 10**9, "trillion": 10**12, "t": 10**12, "tn": 10**12}

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_US_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_MONTH_FIRST = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b")
_DAY_FIRST = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})\.?,?\s+(\d{{4}})\b")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_TOKEN = re.compile(r"\d{4}-\d{2}-\d{2}|(?<![\w.])-?\d+(?:\.\d+)?|\d+(?:\.\d+)?|[^\W\d_]+")
_NUMERIC = re.compile(r"-?\d+(?:\.\d+)?")
_DONT_KNOW = re.compile(r"\bi\s+(?:don'?t|do\s+not)\s+know\b", re.IGNORECASE)


def is_refusal(prediction: str) -> bool:
    return _DONT_KNOW.search(prediction) is not None


def is_correct(prediction: str, gold: str) -> bool:
    """Whether a non-refusing `prediction` states `gold` (see the module docstring for the rule)."""
    wanted, said = tokens(gold), tokens(prediction)
    if not wanted or is_refusal(prediction):
        return False
    return any(said[start : start + len(wanted)] == wanted for start in range(len(said) - len(wanted) + 1))


def tokens(text: str) -> list[str]:
    plain = "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))
    raw = _TOKEN.findall(normalize_dates(_THOUSANDS.sub("", plain.lower())))
    result: list[str] = []
    for token in raw:
        token = NUMBER_WORDS.get(token, token)
        if token in SCALES and result and _NUMERIC.fullmatch(result[-1]):
            result[-1] = _number(Decimal(result[-1]) * SCALES[token])
        elif _NUMERIC.fullmatch(token):
            result.append(_number(Decimal(token)))
        else:
            result.append(token)
    return result


def normalize_dates(text: str) -> str:
    def iso(year: str, month: int | str, day: str) -> str:
        return f"{int(year):04d}-{int(month):02d}-{int(day):02d}"

    text = _ISO_DATE.sub(lambda m: iso(m[1], m[2], m[3]), text)
    text = _US_DATE.sub(lambda m: iso(m[3], m[1], m[2]), text)
    text = _MONTH_FIRST.sub(lambda m: iso(m[3], MONTHS[m[1]], m[2]), text)
    return _DAY_FIRST.sub(lambda m: iso(m[3], MONTHS[m[2]], m[1]), text)


def _number(value: Decimal) -> str:
    return format(value.normalize(), "f")

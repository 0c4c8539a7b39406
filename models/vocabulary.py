"""Cue words and patterns, in one place: how numbers, years and months are written, and what a
question's wording asks for (arithmetic, counting, a comparison, a change, a list, a date or a
number, the KG relations). The stages and the answer checker (evaluation/answer_match.py) compile
them; `tests/test_vocabulary.py` holds each to a table of examples. Patterns are regular-expression sources matched on lower-cased
text; word tables map a word to its value.

Where two lists look alike but mean different things they stay two, named for what they mean
(`YEAR` and `MODERN_YEAR`, `COMPARISON_WORDS` and `OPERAND_WORDS`).
"""

from __future__ import annotations

import re

# --- Months, numbers and years as written ---------------------------------------------------------

MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
MONTH_ABBREVIATIONS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# Every written month (full name, abbreviation, "sept") -> its number.
MONTH_NUMBERS: dict[str, int] = {
    **{name: number for number, name in enumerate(MONTH_NAMES, start=1)},
    **{name: number for number, name in enumerate(MONTH_ABBREVIATIONS, start=1)},
    "sept": 9,
}
# Any written month, the longest spelling first ("september" read whole, not as "sep").
MONTH = rf"(?:{'|'.join(sorted(MONTH_NUMBERS, key=len, reverse=True))})"
# Cardinal numbers written as words -> value; how many times ("twice") and scale words apart.
NUMBER_WORDS: dict[str, int] = {
    word: number
    for number, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "hundred": 100}
TIMES_WORDS: dict[str, int] = {"once": 1, "twice": 2, "thrice": 3}
# Scale words and their abbreviations after a number ("3 bn", "1.2 million") -> factor.
SCALES: dict[str, int] = {
    "thousand": 10**3, "k": 10**3, "million": 10**6, "mn": 10**6, "mln": 10**6,
    "billion": 10**9, "bn": 10**9, "b": 10**9, "trillion": 10**12, "tn": 10**12,
}  # fmt: skip
# A count of things written out ("three songs", "top 5").
COUNT = r"(?:two|three|four|five|six|seven|eight|nine|ten|\d+)"
# Words that write a number in a sentence (a sentence holding one may state a "how many" answer).
NUMBER_IN_WORDS = ("one two three four five six seven eight nine ten eleven twelve dozen hundred thousand million "
                   "billion").split()  # fmt: skip

# A year: 1000-2099 (in a question, not one of its numbers; in a sentence, a date it holds).
YEAR = r"(?:1\d|20)\d\d"
# A year of the last two centuries, 1900-2099: the attribute classifier's year cue (its artifact was
# trained with it: changing it needs a retrain) and a bare year in the KG's reading of a question's time.
MODERN_YEAR = r"(?:19|20)\d\d"
# A date in digits: 02/29/2024, 2022-10.
NUMERIC_DATE = r"(?<![\w/-])\d{1,4}[/-]\d{1,2}(?:[/-]\d{1,4})?(?![\w/-])"
# A number as a question writes it: a currency sign, thousands commas, decimals, a percent sign.
WRITTEN_NUMBER = r"(?<![\w.])\$?\d[\d,]*(?:\.\d+)?%?(?![\w-])"
# A number's value in digits, with thousands commas and decimals (what a calculation may rest on).
NUMBER_VALUE = r"\d+(?:,\d{3})*(?:\.\d+)?"
# Digits with any separators: folded into one placeholder by the attribute classifier's features.
DIGIT_RUN = r"\d+(?:[.,]\d+)*"

# --- What the plan reads in a question (models/plan.py; PlanConfig holds these as its defaults) ----

# Arithmetic and dates over retrieved facts (CRAG's post-processing questions).
ARITHMETIC_WORDS = (
    "average", "averaged", "averages", "on average", "mean", "median", "total", "totals", "sum", "combined",
    "altogether", "difference", "differ", "gap", "percent", "percentage", "per cent", "ratio", "proportion",
    "how old", "what age", "years old", "ago", "how long", "twice", r"times (?:more|less|as|larger|bigger|higher)",
)  # fmt: skip
# Counting and the extremes of a series (aggregation questions).
COUNTING_WORDS = (
    "how many", "number of", "count", "how often", "how frequently", "maximum", "minimum", "overall",
    "cumulative", "cumulatively", "in total",
)  # fmt: skip
# Comparatives and the words that name a comparison: two things weighed against each other.
COMPARATIVES = (
    "more", "less", "fewer", "greater", "higher", "lower", "larger", "smaller", "bigger", "longer", "shorter",
    "older", "younger", "earlier", "later", "taller", "faster", "slower", "better", "worse", "cheaper",
    "richer", "heavier", "compare", "compares", "compared", "comparison", "versus", "vs",
)  # fmt: skip
# A comparison question: a comparative, "X-er than", or a choice between named options ("which star
# is brighter, sirius or alpha centauri?").
COMPARISON_WORDS = (*COMPARATIVES, r"\w+er than", r"^(?:which|who|what)\b[^,]*,[^,]+\bor\b[^,]+$")
# A definition or an explanation asked, which the KG's facts about named things do not hold.
GENERIC_OPENINGS = (
    r"what (?:is|are) (?:a|an)", r"what (?:is|are) the (?:benefits?|advantages?|disadvantages?|differences?|"
    r"types?|kinds?|meaning|definition|purpose)", r"what does .* mean", r"how (?:does|do|can|should|to)",
    "why", "define", "explain",
)  # fmt: skip

# --- What the attribute classifier reads (models/attributes/features.py; trained with these) -------

TEMPORAL_CUES: dict[str, str] = {
    "now": r"\b(now|currently|current|presently|at the moment|at present|live|ongoing|real[- ]time)\b",
    "today": r"\b(today|today's|tonight|this (morning|afternoon|evening))\b",
    "recent_past": r"\b(yesterday|last (night|week|weekend|month|quarter|year|season|game|match|race|"
    r"trading day|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|past (few|\d+) (days|weeks))\b",
    "this_period": r"\bthis (week|weekend|month|quarter|year|season)\b",
    "latest": r"\b(latest|recent|recently|newest|upcoming|next|new|last)\b",
    "so_far": r"\b(so far|to date|as of|still|yet|ever|all[- ]time|career)\b",
    "market": r"\b(price|prices|stock|stocks|shares?|trading|traded|volume|market cap\w*|dividends?|eps|"
    r"p/?e ratio|earnings|open(ing)? price|clos(e|ing) price)\b",
    "present_perfect": r"\b(has|have|hasn't|haven't)\b",
    "past_tense": r"\b(did|was|were|first)\b",
    "year": rf"\b{MODERN_YEAR}\b",
    "date": rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b({'|'.join(MONTH_NAMES)}) \d{{1,2}}\b",
}

# --- What kind of answer a question asks for (models/retrieval/question_kind.py) ------------------

# Several things: "name ...", "list ...", "what are the ...", a count word, "all", "how many".
LIST_CUES = (
    rf"^(?:name|list)\b|\b(?:what|which|who) (?:are|were|have been)\b|\b(?:all|every|members|names)\b"
    rf"|\btop {COUNT}\b|\b(?:first|last) {COUNT}\b|\b{COUNT} (?:\w+ )?(?:\w+s)\b|\bhow many\b"
)
# A plural noun right after "what" / "which" (not one of the words that only end in s).
PLURAL_AFTER_WH = r"\b(?:what|which)(?: [\w-]+)?? ([\w-]+s)\b"
NOT_PLURAL = frozenset("is was has does this his its us yes as thus less always perhaps".split())
# A date asked for ("how old" is a number, "what year" a date: dates are tried first).
DATE_CUES = r"\bwhen\b|\b(?:what|which) (?:year|date|day|month|decade|century)\b|\bdate of\b|\bbirthday\b"
NUMBER_CUES = (
    r"\bhow (?:many|much|long|big|large|tall|old|far|high|heavy|fast|deep|wide|often)\b"
    r"|\b(?:number|amount|price|cost|population|percentage|size|height|length|weight|revenue|salary|worth|age)\b"
)
# A sentence that holds a date: a year or a month's name ("may" left out: as a verb it is far more
# common than the month).
DATE_IN_TEXT = rf"\b(?:{YEAR}|{'|'.join(name for name in MONTH_NAMES if name != 'may')})\b"
# A sentence that holds a number: a digit or a number word.
NUMBER_IN_TEXT = rf"\d|\b(?:{'|'.join(NUMBER_IN_WORDS)})\b"

# --- The KG relations a question asks for (models/kg/) --------------------------------------------

# Changes over time: both sides of the comparison are needed (this week and last week, ...).
CHANGE = (
    r"\b(?:drop(?:s|ped)?|climb(?:s|ed)?|mov(?:e|es|ed) (?:up|down)|f[ae]ll(?:s|en)?|ris(?:e|es|en)|rose|jump(?:s|ed)?|"
    r"slip(?:s|ped)?|slid(?:e|es|ing)?|tumbl(?:e|es|ed)|plung(?:e|es|ed)|s[aiu]nk|sinks|soar(?:s|ed)?|surg(?:e|es|ed)|"
    r"leap(?:s|t|ed)?|dip(?:s|ped)?|gain(?:s|ed)?|los[et]|improv(?:e|es|ed)|declin(?:e|es|ed)|chang(?:e|es|ed)|"
    r"since last week|compared (?:to|with) last week|up or down|higher or lower|lower or higher|how far|"
    r"how many (?:places|spots|positions))\b"
)
# Comparisons and aggregations over several operands: each operand gets its KG calls.
OPERAND_WORDS = rf"\b(?:{'|'.join(COMPARATIVES)}|first|total|combined|sum|average|difference|between|both|each|all|which (?:one|of))\b"
# An award asked about with its nominees ("nominated for", "up for"); otherwise a question about an
# award ("won", "took", "crowned", "went to") asks about its winner.
NOMINEES = r"\b(?:nominat\w*|nominees?|shortlisted|up for|contenders?|in the running)\b"
# Where a person was born or a band comes from.
BIRTH_PLACE = r"where .*born|birth ?place|born in which|countr(?:y|ies)|nationalit(?:y|ies)|hometown|where .* from"
# When a person was born (or how old), asked about a named person.
BIRTH_DATE = r"when .*born|birth ?date|birthdays?|\bages?\b|how old|what year .*born"
# Whether and when a person died.
DEATH = r"\bdie|death|dead|alive|passed away"
# How long an act existed: a person's life, a band's end.
LIFESPAN = rf"{DEATH}|lifespan|disband|split up|broke up"
# Who is in a band.
MEMBERS_ASKED = r"\bmembers?\b|line-?up|bandmates|who(?:'s| is| are| was| were) in\b|(?:people|musicians|players) in\b"
# The chart before this one.
PREVIOUS_WEEK = r"\b(?:(?:last|previous|past|prior) week|week before|a week (?:ago|earlier|before))\b"
# A song's first week on a chart.
DEBUT = r"debut|first (?:entered|charted|appeared)|entered the (?:billboard|chart|hot 100)|new entry"

# --- Phrases the answer checker reads a comparison in ("more than one year" = "over one year") -----

MORE_THAN = r"more than|longer than|greater than|in excess of"
LESS_THAN = r"less than|fewer than|shorter than"


def asked(text: str, vocabulary: dict[str, str]) -> list[str]:
    """The keys of `vocabulary` (key -> pattern) whose words `text` uses, in vocabulary order."""
    return [key for key, pattern in vocabulary.items() if re.search(pattern, text)]


def word_pattern(words: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern matching any of `words` (patterns themselves) between non-word characters."""
    if not words:
        return None
    return re.compile(rf"(?<!\w)(?:{'|'.join(words)})(?!\w)")

"""Cue words and patterns, in one place: how numbers, years and months are written, and what a
question's wording asks for (arithmetic, counting, a comparison, a change, a list, a date or a
number, the KG relations). The stages and the answer checker (evaluation/answer_match.py) compile
them; `tests/test_vocabulary.py` holds each to a table of examples. Patterns are regular-expression
sources matched on lower-cased text; word tables map a word to its value.

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
NUMBER_WORDS: dict[str, int] = (
    {
        word: number
        for number, word in enumerate(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen twenty".split()
        )
    }
    | {tens: 10 * n for n, tens in enumerate("thirty forty fifty sixty seventy eighty ninety".split(), 3)}
    | {"hundred": 100}
)
TIMES_WORDS: dict[str, int] = {"once": 1, "twice": 2, "thrice": 3}
# Ordinals written as words or digits, up to the fifth (weeks of a month, quarters of a year) -> value.
ORDINAL_WORDS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
    "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
}  # fmt: skip
# Scale words and their abbreviations after a number ("3 bn", "1.2 million") -> factor.
SCALES: dict[str, int] = {
    "thousand": 10**3, "k": 10**3, "million": 10**6, "mn": 10**6, "mln": 10**6, "mio": 10**6,
    "billion": 10**9, "bn": 10**9, "bln": 10**9, "b": 10**9, "trillion": 10**12, "tn": 10**12,
}  # fmt: skip
# A capital letter right after a number is a scale ("2.1M", "5.4T"; a small "m" is metres): the
# letter -> its scale word. Matched on the text as written.
SCALE_LETTERS: dict[str, str] = {"K": "thousand", "M": "million", "B": "billion", "T": "trillion"}
SCALE_LETTER = r"(?<=\d) ?([KMBT])\b"
# A count of things written out ("three songs", "top 5").
COUNT = r"(?:two|three|four|five|six|seven|eight|nine|ten|\d+)"
# Words that write a number in a sentence (a sentence holding one may state a "how many" answer).
NUMBER_IN_WORDS = ("one two three four five six seven eight nine ten eleven twelve dozen hundred thousand "
                   "million billion").split()  # fmt: skip

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

# --- Time expressions in a question (models/kg/timeparse.py resolves each against the question's time)

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_T_MONTH = rf"(?P<month>{MONTH})\.?"
_T_WEEKDAY = r"(?P<weekday>" + "|".join(WEEKDAYS) + r")"
_T_COUNT = r"(?P<count>\d{1,3}|a|" + "|".join(NUMBER_WORDS) + r")"
_T_UNIT = r"(?P<unit>day|week|month|year)s?"
_T_ORDINAL = r"(?P<nth>" + "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True)) + r"|last)"
_T_YEAR = rf"(?P<y>{MODERN_YEAR})"
# Between the words of a range: an ordinal and a few words ("from 59th grammy (2016) to 61st grammy (2018)").
_T_ON_THE_WAY = r"(?:the\s+)?(?:\d{1,3}(?:st|nd|rd|th)\s+)?(?:[a-z]+\s+){0,3}?\(?"
# Each kind of time expression, by the resolver that reads it, in the order they are tried (an
# earlier one wins where two overlap).
TIME_EXPRESSIONS: dict[str, str] = {
    "year_range_words": (
        rf"\b(?:from|between)\s+{_T_ON_THE_WAY}{_T_YEAR}\)?\s+(?:to|through|until|till|and)\s+{_T_ON_THE_WAY}"
        rf"(?P<y2>{MODERN_YEAR})\b\)?"
    ),
    "year_range": rf"\b{_T_YEAR}\s*(?:-|to|through|until)\s*(?P<y2>{MODERN_YEAR})\b",
    "iso_day": r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b",
    "us_day": r"\b(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4}|\d{2})\b",
    "explicit_season": r"\b(?P<y>\d{4})[-/](?P<y2>\d{2})\s+season\b",
    "iso_month": r"\b(?P<y>\d{4})[-/](?P<m>\d{1,2})\b(?!-)",
    "month_day_year": r"\b" + _T_MONTH + r"\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s*(?P<y>\d{4})\b)?",
    "day_month_year": r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"
    + _T_MONTH
    + r"(?:,?\s*(?P<y>\d{4})\b)?",
    "week_of_month": r"\b(?:the\s+)?"
    + _T_ORDINAL
    + r"\s+week\s+of\s+"
    + _T_MONTH
    + r"(?:,?\s*(?P<y>\d{4})\b)?",
    "quarter": r"\b(?:q(?P<q>[1-4])|(?:the\s+)?"
    + _T_ORDINAL
    + r"\s+quarter)(?:\s+(?:of\s+)?(?P<y>\d{4}))?\b",
    "month_year": r"\b" + _T_MONTH + r",?\s+(?:of\s+)?(?P<y>\d{4})\b",
    "bare_month": (
        r"\b(?:(?:in|during|for|of|since|throughout|through)\s+(?:the\s+month\s+of\s+)?|(?P<which>last|this|past)\s+)"
        + _T_MONTH
        + r"\b(?!\s*\d)"
    ),
    "named_season": r"\b(?:the\s+)?(?P<y>\d{4})\s+season\b",
    "relative_season": r"\b(?P<which>this|current|last|previous|next)\s+season\b",
    "weekday_of_week": (
        r"\b(?:the\s+)?"
        + _T_WEEKDAY
        + r"\s+(?:of|from|in)\s+(?:the\s+)?(?P<which>this|current|last|past|previous|next)\s+week\b"
    ),
    "relative_day": (
        r"\bthe day before yesterday\b|\btoday\b|\btonight\b|\byesterday\b|\blast night\b|\btomorrow\b"
    ),
    "ago": r"\b" + _T_COUNT + r"\s+" + _T_UNIT + r"\s+ago\b",
    "past_n": r"\b(?:past|last)\s+" + _T_COUNT + r"\s+" + _T_UNIT + r"\b",
    "past_one": (
        r"\b(?:(?:in|over|during|within) the (?:last|past)|the past|past)\s+(?P<unit>week|month|year)\b"
    ),
    "relative_period": r"\b(?P<which>this|current|last|previous|past|next)\s+(?P<unit>week|month|year)\b",
    "weekday": r"\b(?:(?P<which>last|past|previous|this|next|on)\s+)?" + _T_WEEKDAY + r"\b",
    "bare_year": rf"(?<![\d$.,])\b(?P<y>{MODERN_YEAR})\b(?![\d%]|[.,]\d)",
}
# The zone a question's time is written in ("03/10/2024, 23:34:42 PT": " PT"), left out to parse it.
TIME_ZONE_SUFFIX = r"\s+[A-Za-z]{1,5}$"
# Runs of letters and digits, of letters: the words of a text as the KG's readers compare them.
WORD_TOKEN = r"[a-z0-9]+"
LETTER_RUN = r"[a-z]+"
# A word that can start a name a question writes, and the question's words a name search may use.
CAPITALISED_WORD = r"[A-Z][\w&.’'-]*"
NAME_SEARCH_WORD = r"[a-z][a-z0-9&'.-]*"
# The options of "a or b" and the owner before "'s", as a question writes them (up to four words each).
_T_NAME_WORD = r"[\w&.’'-]+"
NAMED_OPTIONS = (
    rf"((?:{_T_NAME_WORD} ){{0,3}}{_T_NAME_WORD}),? (?:or|vs\.?|"
    rf"versus) ((?:{_T_NAME_WORD} ){{0,3}}{_T_NAME_WORD})"
)
NAMED_OWNER = rf"((?:{_T_NAME_WORD} ){{0,3}}{_T_NAME_WORD})(?:'s|’s)(?!\w)"
# Words that name a share class or legal form, not the company ("Apple Inc. Common Stock" is Apple).
COMPANY_NOISE = (
    r"\b(common stock|common shares?|ordinary shares?|class [a-z]|"
    r"american depositary shares?|depositary shares?|"
    r"inc|incorporated|corp|corporation|co|company|ltd|limited|plc|holdings?|group|the|sa|ag|nv|llc|lp)\b"
)
# Words of a football club's name that are not its own ("FC Barcelona" is Barcelona).
SOCCER_CLUB_NOISE = r"\b(fc|cf|afc|sc|ac|club|the|de futbol|calcio)\b"
# A ticker written in a question: after "$", "ticker" or "(" (group 1), or a run of 2-5 capitals (group 2).
WRITTEN_TICKER = r"(?:\$|\bticker\s+|\()([A-Z]{1,5}(?:\.[A-Z])?)\b|\b([A-Z]{2,5})\b"

# --- What the plan reads in a question (models/plan.py; PlanConfig holds these as its defaults) ----

# Arithmetic and dates over retrieved facts (CRAG's post-processing questions).
ARITHMETIC_WORDS = (
    "average", "averaged", "averages", "on average", "mean", "median", "total", "totals", "sum", "combined",
    "altogether", "difference", "differ", "gap", "percent", "percentage", "per cent", "ratio", "proportion",
    "how old", "what age", "years old", "ago", "how long", "twice",
    r"times (?:more|less|as|larger|bigger|higher)",
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
    r"\b(?:drop(?:s|ped)?|climb(?:s|ed)?|mov(?:e|es|ed) (?:up|down)|f[ae]ll(?:s|en)?|"
    r"ris(?:e|es|en)|rose|jump(?:s|ed)?|"
    r"slip(?:s|ped)?|slid(?:e|es|ing)?|tumbl(?:e|es|ed)|plung(?:e|es|ed)|s[aiu]nk|sinks|soar(?:s|ed)?|surg(?:e|es|ed)|"
    r"leap(?:s|t|ed)?|dip(?:s|ped)?|gain(?:s|ed)?|los[et]|improv(?:e|es|ed)|declin(?:e|es|ed)|chang(?:e|es|ed)|"
    r"since last week|compared (?:to|with) last week|up or down|higher or lower|lower or higher|how far|"
    r"how many (?:places|spots|positions))\b"
)
# Comparisons and aggregations over several operands: each operand gets its KG calls.
OPERAND_WORDS = (
    rf"\b(?:{'|'.join(COMPARATIVES)}|first|total|combined|sum|average|difference|between|both|"
    r"each|all|which (?:one|of))\b"
)
# An award asked about with its nominees ("nominated for", "up for"); otherwise a question about an
# award ("won", "took", "crowned", "went to") asks about its winner.
NOMINEES = r"\b(?:nominat\w*|nominees?|shortlisted|up for|contenders?|in the running)\b"
# A film's cast asked about ("the actress who starred in the film that won best picture"): an
# award's winner is the film asked about, not the answer.
CAST_ASKED = (
    r"\b(?:starred|starring|acted|played (?:in|the)|leading (?:lady|man|actor|actress|role)|"
    r"lead (?:actor|actress|role))\b"
)
# A film's leads asked for by billing: its first-billed woman, its first-billed man, or its first N
# billed ("the 3 main characters"; the count is read from the wording, one when none is written).
LEAD_ACTRESS_ASKED = (
    r"\blead(?:ing)? (?:lady|actress)\b|\bfemale lead\b|\bactress (?:(?:who|that) )?star(?:red|s|ring)\b"
)
LEAD_ACTOR_ASKED = r"\blead(?:ing)? (?:man|actor)\b|\bmale lead\b"
MAIN_CAST_ASKED = (
    r"\b(?:(?P<count>\d+|two|three|four|five|six) )?(?:main|lead|leading|principal|top[- ]billed) "
    r"(?:characters?|actors?|stars?|cast(?: members)?|roles?)\b"
)
# Where a person was born or a band comes from.
BIRTH_PLACE = (
    r"where .*born|birth ?place|born in which|countr(?:y|ies)|nationalit(?:y|ies)|hometown|where .* from"
)
# When a person was born (or how old), asked about a named person.
BIRTH_DATE = r"when .*born|birth ?date|birthdays?|\bages?\b|how old|what year .*born"
# A band member asked about by age ("its youngest member"): the members' birth dates.
MEMBER_AGE = rf"{BIRTH_DATE}|oldest|youngest|eldest|older|younger"
# Whether and when a person died.
DEATH = r"\bdie|death|dead|alive|passed away"
# How long an act existed: a person's life, a band's end.
LIFESPAN = rf"{DEATH}|lifespan|disband|split up|broke up"
# Who is in a band.
MEMBERS_ASKED = (
    r"\bmembers?\b|line-?up|bandmates|who(?:'s| is| are| was| were) in\b|(?:people|musicians|players) in\b|"
    r"\bhow many (?:singers|vocalists|musicians)\b"
)
# The chart before this one.
PREVIOUS_WEEK = r"\b(?:(?:last|previous|past|prior) week|week before|a week (?:ago|earlier|before))\b"
# A song's first week on a chart.
DEBUT = r"debut|first (?:entered|charted|appeared)|entered the (?:billboard|chart|hot 100)|new entry"

# Columns of a day's prices a question asks for day by day, by the words that name them (the closing
# price is always listed; a span's highest and lowest price are always stated).
PRICE_COLUMNS: dict[str, str] = {
    "Open": r"\bopen(?:ed|s|ing)?\b(?!-)",
    "High": r"\bhighs?\b|\bmaximum\b|\bmax\b|\bpeak",
    "Low": r"\blows?\b|\bminimum\b|\bmin\b|\bbottom",
    "Volume": (
        r"\bvolumes?\b|trading activity|\btraded\b|shares (?:were )?(?:traded|exchanged)|"
        r"\bturnover\b|liquidity|changed hands"
    ),
}
# The days of a span that closed below (or above) the close before them, asked as a set.
CLOSED_LOWER = r"\bclos\w* (?:at )?(?:a )?(?:lower|down|below)\b|\blower clos\w*|\bdown days\b"
CLOSED_HIGHER = r"\bclos\w* (?:at )?(?:a )?(?:higher|up|above)\b|\bhigher clos\w*|\bup days\b"
# Phrases that name a field of a company's record (finance get_info), not a series to fetch: "the
# dividend yield" asks for no dividend history, "the average volume" for no prices.
# Keys of that record (yfinance's names) that no other route answers: a question writing one in words
# ("debt-to-equity ratio": debtToEquity) asks for the record.
COMPANY_RECORD_KEYS = (
    "debtToEquity", "returnOnEquity", "returnOnAssets", "profitMargins", "grossMargins", "operatingMargins",
    "ebitdaMargins", "revenueGrowth", "earningsGrowth", "totalDebt", "totalCash", "totalRevenue",
    "bookValue", "priceToBook", "currentRatio", "quickRatio", "payoutRatio", "enterpriseValue",
    "freeCashflow", "operatingCashflow", "sharesOutstanding", "floatShares", "shortRatio", "pegRatio",
    "grossProfits", "ebitda", "revenuePerShare", "fiftyDayAverage", "twoHundredDayAverage",
)  # fmt: skip


def record_key_phrase(key: str) -> str:
    """The words a question writes a record key in: "debtToEquity" as "debt to equity" (spaces or
    hyphens between), its last word singular or plural ("profit margin")."""
    words = [w.lower() for w in re.findall(r"[a-z]+|[A-Z][a-z]*|\d+", key)]
    words[-1] = words[-1].removesuffix("s") + "s?"
    return r"\b" + r"[- ]".join(words) + r"\b"


COMPANY_RECORD_FIELDS = (
    r"dividend yield|average (?:daily )?(?:trading )?volume|avg\.? (?:daily )?volume|52[- ]week (?:high|low)|"
    r"\bbeta\b|trailing (?:eps|p/?e)\b|" + "|".join(record_key_phrase(key) for key in COMPANY_RECORD_KEYS)
)

# One of several things picked by its place in time: the first one, the last one.
FIRST_ONE = r"\b(?:first|earliest)\b"
LAST_ONE = r"\b(?:last|latest|most recent)\b"
# What several named things have in common ("actors in both X and Y").
SHARED = r"\bboth\b|\bin common\b|\bshared?\b|\bsame (?:actors?|cast|people|members)\b"

# Made public: a song, an album, a film.
RELEASED = r"\breleas\w*|\bpublish\w*|\bcame out\b|\bcome out\b|\bput out\b|\bdropped\b|\bissued\b"
# A team's next game, not its last one.
NEXT_GAME = (
    r"\bnext (?:game|match|fixture|opponent|outing|contest|league (?:game|match|fixture))|\bupcoming\b|"
    r"\bwill\b.*\b(?:play|face|meet|go head-to-head|take on)\b|"
    # the future tense with "next" asks for the next game, whatever the verb ("when will x next take
    # to the field?"), unless "next" names a span ("will they win next week?")
    r"\bwill\b.*\bnext\b(?! (?:week|month|year|season|weekend|day|time)\b)"
)
# A player's own numbers in a game (the play-by-play holds them): the subject of "did X score",
# "X's points", and the stats asked.
PLAYER_STAT = (
    r"\b(?:did|does|has) (?P<who>[a-z][a-z.' -]{2,40}?) (?:score|make|get|have|grab|record|shoot|hit|sink|"
    r"convert|miss|block|steal)\b|"
    r"\b(?P<owner>[a-z][a-z.' -]{2,40}?)'s (?:points|free throws|rebounds|assists)\b"
)
PLAYER_STATS = (
    r"\bpoints?\b|free throws?|rebounds?|assists?|steals?|blocks?|three[- ]pointers?|dunks?|"
    r"layups?|shots?|\bscored?\b"
)

# --- What a question asks of the KG's rows, for the answer computed from them (models/kg/answer.py) --

# A total over the rows ("how many"/"how much" of an additive figure asks for one too).
TOTAL_ASKED = r"\b(?:total|totals|sum|combined|altogether|in all|overall|cumulative(?:ly)?)\b"
# An average over the rows.
AVERAGE_ASKED = r"\b(?:average|averaged|mean|on average|per (?:day|game|match|week))\b"
# A count of items, or an amount.
COUNT_ASKED = r"\b(?:how many|how much|number of|count)\b"
# The row with the highest or the lowest value ("most" of "most recent" is a time, not an amount).
HIGHEST_ASKED = r"\b(?:highest|most(?! recent)|maximum|max|peak|biggest|largest|greatest|best)\b"
LOWEST_ASKED = r"\b(?:lowest|least|minimum|min|bottom|smallest|fewest|worst)\b"
# The direction of a comparison of amounts.
MORE_ASKED = (
    r"\b(?:more|higher|larger|bigger|greater|longer|taller|better|richer|heavier|faster|costlier|"
    r"pricier|exceed\w*|outperform\w*)\b"
)
LESS_ASKED = r"\b(?:less|fewer|lower|smaller|shorter|cheaper|worse|slower|lighter)\b"
# "first"/"last" naming a span of rows ("the first week of may", "the last 5 days"), not one row of it.
_SPAN_NAMED = (
    r"(?! (?:(?:\d+|few|two|three|four|five|six|seven|ten) )?"
    r"(?:days|weeks?|weekends?|months?|quarters?|half|halves|years?|seasons?|decades?)\b)"
)
# The direction of a comparison of dates, or the row picked by its time: the earliest, the latest.
EARLIER_ASKED = (
    rf"\b(?:first{_SPAN_NAMED}|earliest|earlier|older|oldest|before|sooner|start(?:ed|s|ing)?|"
    r"began|begin(?:s|ning)?|initial(?:ly)?)\b"
)
LATER_ASKED = rf"\b(?:last{_SPAN_NAMED}|latest|later|younger|youngest|newer|newest|recent(?:ly)?|after)\b"
# A sum of money the question spends on shares ("with $1000 ..., which can i buy more shares of?"): the
# whole shares it buys at a price are asked, not the prices.
MONEY_AMOUNT = r"\$\s?(\d[\d,]*(?:\.\d+)?)"
SHARES_BOUGHT = r"\bshares?\b.*\b(?:buy|purchase|afford|get)\b|\b(?:buy|purchase|afford|get)\b.*\bshares?\b"
# A share or a rate, which no row states and no total, count or comparison of rows gives.
SHARE_ASKED = r"\b(?:percent(?:age)?|per ?cent|proportion|fraction|share of)\b"
# An age or a time elapsed until now: arithmetic on dates that no computed answer does (the model
# and the calculator read the facts); the time between two fetched dates is DATE_GAP_ASKED's.
AGE_OR_DURATION_ASKED = r"\bhow old\b|\bages?\b|\byears old\b|\bago\b|\bhow long\b"
# The time between two dates asked for ("the time gap of the release dates", "how many years apart").
DATE_GAP_ASKED = (
    r"\btime (?:gap|difference|between|span)\b|\bgap (?:between|of)\b|\b(?:years?|days?|months?) apart\b|"
    r"\bhow (?:long|many (?:years|months|days)) (?:was it |were there |passed )?between\b"
)
# Two values set side by side with no direction ("the close of a compared to b"): each is given with
# the higher named.
SIDE_BY_SIDE = r"\bcompared? (?:to|with)\b|\bversus\b|\bvs\.?(?=\s)|\bin comparison (?:to|with)\b"
# The difference of two values ("how many more", "how much bigger", "by how much").
DIFFERENCE_ASKED = (
    r"\bhow (?:many|much) (?:more|less|fewer|bigger|smaller|higher|lower|larger|greater)\b|\bdifference\b|"
    r"\bby how (?:much|many)\b|\b(?:points?|games?|goals?|places?) (?:behind|ahead)\b|\bgap (?:to|with)\b"
)
# A yes/no question whether a value differs from the one it names ("is its original title different?",
# "is there a title before x?"): the check of a named value inverted.
DIFFERENT_ASKED = r"\b(?:different|differs?|other|another|else|changed|renamed|before)\b"
# A choice on merit by a figure ("which stock is more attractive by its p/e ratio?"): the figure's
# better direction (models/kg/relations.py: Relation.better) decides, not "more".
MERIT_ASKED = (
    r"\b(?:attractive|appealing|undervalued|bargain|"
    r"(?:better|good|best) (?:value|buy|deal|investment|pick))\b"
)
# The rows themselves counted, not their values added ("how many times did x pay a dividend?", "the
# total number of dividends").
ROWS_COUNTED = (
    r"\b(?:how many|number of) (?:\w+ )?(?:times|payments|payouts|dividends|distributions|days|sessions|"
    r"games|matches|weeks|wins|losses)\b"
)
# A clause before the question proper ("in 2022, did ...?", "in their last game, ...").
LEADING_CLAUSE = r"^(?:in|during|on|at|for|by|as of|over|since|after|before)\b[^,?]{0,60},\s*"
# The day of a row asked for, not its value ("which day did x have the highest price?").
WHEN_ASKED = r"\b(?:when|which day|what day|which date|what date)\b"

# What a question asks of a team's games ("_": the team's name blanked out): the teams that beat it,
# those it beat, a count of its wins or losses, a game's result, its opponent, its day, a field of
# the game's row (soccer), the points or goals it conceded.
BEAT_THE_TEAM = r"\b(?:against|over|beat|beaten|defeat(?:ed)?|topped|overcame)\s+(?:the\s+)?_"
BEATEN_BY_THE_TEAM = r"_\s+(?:beat|defeat(?:ed)?|topped|overcame|won against)\b"
TEAMS_ASKED = r"\b(?:teams|clubs|opponents|sides)\b|\b(?:which|what) (?:team|club|opponent|side)\b|\bwho\b"
WINS_ASKED = r"\b(?:win|won|wins|victor\w*|prevail\w*)\b|\bthe winning side\b"
LOSSES_ASKED = r"\b(?:lose|lost|losses|loss|defeat(?:s|ed)?)\b|\bthe losing (?:side|end)\b"
RESULT_ASKED = (
    r"\bfared?\b|\bresult\b|\boutcome\b|\bwins? (?:and|or) loss\w*|\bvictories and defeats\b|\bwin or lose\b"
)
OPPONENT_ASKED = (
    r"\boppo\w*|\bagainst\b|\bplay(?:ed|s|ing)?\b|\bfac(?:e|ed|es|ing)\b|head[- ]to[- ]head|\bversus\b|"
    r"\bvs\b|\bchallenge\w*|\bmatch(?:ed)? up|\bmeet\b|\bmet\b|\btake on\b"
)
GAME_DAY_ASKED = r"\bwhen\b|\bwhat (?:date|day)\b|\bschedule\w*"
CONCEDED = r"\bconced\w*|\ballow(?:ed|s)?\b|\blet in\b"
# The fields of a soccer game's row (its team's side), by the words that ask for them.
SOCCER_FIELDS: dict[str, str] = {
    "Captain": r"\bcaptain\w*|\bskipper\b|\bleader (?:for|of)\b",
    "Referee": r"\breferee\w*|\bofficiat\w*",
    "Formation": r"\bformation\b",
    "Attendance": r"\battendance\b|\bcrowd\b|\bspectators\b",
    "Poss": r"\bpossession\b",
}
# The first or last score of a game (the play-by-play's first and last scoring events).
FIRST_SCORE = (
    r"\bfirst (?:basket|points|shot|score|bucket|field goal)\b|\bscored first\b|\bopened the scoring\b"
)
LAST_SCORE = r"\b(?:last|final|winning) (?:basket|points|shot|score|bucket)\b|\bscored last\b|\bbuzzer\b"

# --- The KG relations by domain: the words a question asks them with (models/kg/<domain>.py) -------
# The KG stage's own cues, beside the shared ones above. "_" stands for the asked name blanked out.

# Sports. A question about the NBA or about soccer, by its league, teams and stats (entities.py).
NBA_WORDS = (
    r"\b(nba|basketball|lakers|celtics|warriors|knicks|nets|bulls|heat|bucks|nuggets|suns|clippers|mavericks|"
    r"rockets|spurs|jazz|thunder|blazers|kings|pelicans|grizzlies|timberwolves|hawks|hornets|magic|pistons|"
    r"pacers|cavaliers|raptors|76ers|sixers|wizards|rebounds?|assists?|three-pointers?|free throws?)\b"
)
SOCCER_WORDS = (
    r"\b(soccer|premier league|la liga|bundesliga|serie a|ligue 1|champions league|fc|united|city|arsenal|"
    r"chelsea|liverpool|tottenham|everton|brentford|real madrid|barcelona|juventus|"
    r"bayern|goals?|clean sheet)\b"
)
# A part of a game (a time phrase naming one is no span of days).
GAME_PERIOD = r"\b(?:quarter|period|half)\b"
# A game's quarter or period by its ordinal ("the third quarter"): the ordinal is group 1.
PERIOD_ORDINAL = rf"\b({'|'.join(ORDINAL_WORDS)}) (?:quarter|period)\b"
# What only a game's play-by-play answers: its events, its periods, who scored.
PLAY_BY_PLAY_WORDS = (
    r"play[- ]by[- ]play|first (?:basket|points|shot)|scored first|quarter|period|foul|turnover|steal|block|"
    r"last shot|buzzer|who scored"
)
# A team's points (goals) asked for as an amount; "the score of the game" asks for both sides.
POINTS_ASKED = (
    r"\b(?:points|goals)\b|\b(?:point|goal|scoring)s? (?:tally|haul|totals?)\b|\btotal (?:points|goals)\b|"
    r"_'?s? score\b"
)
# The winner of a game asked for.
WINNER_ASKED = r"\bwho won\b|\bwhich (?:team|club|side) won\b|\bwinner\b"
# Two amounts compared, in either direction.
AMOUNTS_COMPARED = rf"{MORE_ASKED}|{LESS_ASKED}"
# A person asked for ("who scored most" asks for a player, not a team's points).
WHO_ASKED = r"\bwho\b"
FREE_THROWS = r"free throws?"
# A team's home games, its away games.
HOME_GAMES = r"\bhome\b"
AWAY_GAMES = r"\baway\b|\bon the road\b"

# Finance (finance.py). Words that ask for prices only when no other figure but the market value is
# named ("the stock", "shares", "worth", "performance"): "the stock's p/e ratio" needs no prices.
GENERIC_PRICE = r"\b(?:stocks?|shares?|worth|perform(?:ed|s|ance)?|doing|valued?)\b"
# "price-to-earnings" names the P/E ratio: its price word asks for no prices.
PRICE_TO_EARNINGS = r"\bprice[- /]?(?:to[- ])?earnings\b"
# A company's ticker symbol asked for.
TICKER_ASKED = r"ticker|symbol"
# A price named: a price, a close, an opening.
PRICE_WORD = r"\bprices?\b|\bclos(?:e|ed|ing)\b|\bopening\b"
# The number of shares traded asked for (a day's volume).
SHARES_TRADED = r"\bshares\b.*\btrad\w*|\btrad\w*\b.*\bshares\b|\bchanged hands\b"
# The days themselves asked for (which days, how many times), not a figure of them.
DAYS_ASKED = r"\bdays?\b|\bdates?\b|\bwhen\b|\bhow many times\b"
# The first or last trading day of a named span ("the last trading day of 2023"): that one day of it.
EDGE_TRADING_DAY = r"\b(?P<edge>first|last|final) (?:trading|business|market) (?:day|session) (?:of|in)\b"
# Several days asked about (a total, an average, "days", "sessions"): their figure is not the latest day's.
MANY_DAYS = rf"{TOTAL_ASKED}|{AVERAGE_ASKED}|\bdays\b|\bsessions\b"

# Movies (movie.py). Films listed by the year they came out ("movies of 2010", "released in 2010").
FILMS_OF_A_YEAR = r"released in|came out in|(?:movies?|films?) (?:of|from|in|released)\b"
# A question about a year's films or Oscars: the year lists them.
FILM_YEAR_WORDS = r"oscar|academy award|" + FILMS_OF_A_YEAR
# Fields of a film record a question may ask for (shown in a film's compact line when asked).
FILM_FIELDS: dict[str, str] = {
    # the original title first: "the name it was initially released under" asks for no release date
    "original_title": (
        r"original(?:ly)? (?:title|name|called|named|titled|chosen)|"
        r"\b(?:title|name|named|called|titled|released under)\b.*\b(?:originally|initially|at first)\b|"
        r"\b(?:originally|initially|at first)\b.*\b(?:title|name|named|called|titled|released under)\b"
    ),
    "release_date": (
        r"releas|came out|come out|premiere|what year|when was|how old|older|newer|earliest|latest|first"
    ),
    "rating": r"rating|rated|\bscore[sd]? (?:on|of) \d|how good|best[- ]rated|highest[- ]rated",
    "budget": r"budget|cost|spent|spend",
    "revenue": (
        r"revenue|gross|box office|earn|takings|profit|commercial|(?:how much|money)\b.*\bma(?:de|ke)\b"
    ),
    "genres": r"genre|kind of (?:film|movie)|type of (?:film|movie)",
    "original_language": r"language",
}
# Crew jobs by the words that ask for them.
CREW_ROLES: dict[str, str] = {
    "Director": r"direct|helm|filmmaker|who made",
    "Original Music Composer": r"compos|\bscore\b|soundtrack|music",
    "Screenplay": r"screenplay|screenwriter|wr[io]te|writer|written",
    "Writer": r"screenplay|screenwriter|wr[io]te|writer|written",
    "Producer": r"produc",
}
# "the director of X", "the man who directed X": a crew role naming the person asked about.
CREW_PERSON = (
    r"\b(director|composer|screenwriter|writer|producer)s? of\b|\bwho (directed|composed|wrote|produced)\b"
)
# The crew jobs a word of CREW_PERSON names ("the director of X", "who wrote X").
CREW_PERSON_JOBS: dict[str, tuple[str, ...]] = {
    "director": ("Director",), "directed": ("Director",),
    "composer": ("Original Music Composer",), "composed": ("Original Music Composer",),
    "screenwriter": ("Screenplay", "Writer"), "writer": ("Screenplay", "Writer"),
    "wrote": ("Screenplay", "Writer"),
    "producer": ("Producer",), "produced": ("Producer",),
}  # fmt: skip
# A supporting role named ("best supporting actress"): no lead category is meant, those whose stored
# category pattern opens with an acting role.
SUPPORTING = r"supporting"
LEAD_CATEGORY = r"\^ACT"
# A person's own facts: birth, age.
PERSON_FACTS = r"\bborn\b|birth|\bage\b|how old|older|younger|into the world"
# A person's other films asked for; or anything more of them ("also", "else").
OTHER_FILMS = r"other (?:films|movies)"
MORE_OF_THE_PERSON = rf"{OTHER_FILMS}|also|else"
# An award won (not only a nomination).
AWARD_WON = (
    r"\bw[oi]ns?\b|\bwinn(?:ing|ers?)\b|\bhonou?red\b|\bpraised\b|\bawarded\b|\bnamed\b|\btook(?: home)?\b|"
    r"\btak(?:e|es|ing) home\b|\breceived\b|\bearned\b|\bclaimed\b|\bscooped\b|\bbagged\b"
)
# A person's films asked about: their films, what they directed or acted in.
PERSON_FILMS = (
    r"\b(?:films?|movies?|pictures?|features?|filmography|direct(?:ed|s)?|helm(?:ed|s)?|"
    r"act(?:ed|s)?|starred|appeared|roles?)\b"
)
# The films of a person an earlier answer named ("what other films did she direct?").
FILMS_OF_FOLLOWED = r"\bother (?:films|movies)\b|filmography|\b(?:films|movies)\b"
# Directing, acting: the part a person had in a film.
DIRECTED = r"\bdirect|\bhelm"
ACTED = r"\bact(?:ed|s|ing|or|ress)?\b|\bstar|\bplay|appear|\brole|\bcast\b|\bthe lead\b|leading (?:man|lady)"
# What the wording asks of a name filed as both a person and a film.
PERSON_SIGNAL = (
    r"\b(?:born|birth\w*|age|how old|filmography|career|actor|actress)\b|_ ?'?s? (?:films|movies)|"
    r"(?:films?|movies?) (?:did|has|have|had|of|by|with|starring) _|_ (?:direct|star|act|appear|play)\w*"
)
MOVIE_SIGNAL = (
    r"\b(?:budget|revenue|gross\w*|box office|rating|rated|genres?|cast|releas\w*|came out|"
    r"original (?:title|language)|"
    r"who (?:directed|starred|played|acted|composed|wrote|produced))\b|"
    r"(?:director|composer|writer|producer)s? of _|\b(?:the )?(?:film|movie) _"
)
# The size of a film's cast.
CAST_SIZE = r"\bcast\b|\bactors\b|\bcast members\b"
# Nominations counted or set apart from wins (NOMINEES: an award asked about with its nominees).
NOMINATIONS = r"\bnominat\w*"
# A film asked for ("which film won ..."), a person asked for ("who", "which actor").
FILM_ASKED = (
    r"\b(?:which|what) (?:\w+ )?(?:movie|film|picture)s?\b|"
    r"\b(?:name|title)s? of the (?:\w+ )?(?:movie|film|picture)s?\b"
)
FILM_PERSON_ASKED = r"\bwho\b|\bwhich (?:actor|actress|director|person|star|filmmaker)\b"
# Others than those named ("who else", "what other films").
OTHERS_ASKED = r"\bother\b|\balso\b|\belse\b"
OSCARS = r"\boscars?\b|\bacademy awards?\b"

# Music (music.py). A date asked of an artist: "where was X born?" asks for the place only.
# Every form of "begin" (begin, began, begun, begins, beginning).
BEGIN_WORDS = r"\bbeg[aiu]n(?:s|ning)?\b"
ARTIST_DATE_WORDS = (
    r"\b(?:when|year|date|birthday|ages?|old(?:er|est)?|young(?:er|est)?|founded|formed|start(?:ed)?)\b|"
    + BEGIN_WORDS
)
# Words naming the act rather than the song ("the artist of this week's number one song").
ARTIST_NOUNS = r"\b(?:artists?|singers?|bands?|groups?|acts?|performers?|musicians?|rappers?|duos?)\b"
# Facts of a band itself (its founding, its end), not of its members.
BAND_FACTS = r"\b(?:formed|founded|disband\w*|split|broke up|start\w*|active)\b"
# A chart, or a place on it.
BILLBOARD_WORDS = r"billboard|hot 100|chart|number one|no\.? ?1\b|#1|top spot"
# A move on a chart, counted in places.
CHART_MOVES = (
    r"\b(?:places|spots|positions|ranks?|ranked|climb(?:s|ed)?|drop(?:s|ped)?|mov(?:e|es|ed) (?:up|down))\b"
)
THIS_WEEK = r"\b(?:this|current) week\b|\bnow\b|\btoday\b"
# An artist's works: songs, albums, records.
WORK_NOUNS = r"\b(?:songs?|singles?|tracks?|albums?|records?|works?|music)\b"
# What the wording asks of a name filed as both an artist and a song.
ARTIST_SIGNAL = (
    r"\b(?:artist|singer|band|group|rapper|musician|duo|members?|born|birth\w*|age|how old|die[sd]?|death|"
    r"alive|nationality|hometown|discography|albums|songs|works)\b"
)
SONG_SIGNAL = (
    r"\b(?:song|single|track|wr[io]te|written|writer|author|composed|penned|"
    r"who (?:sang|sings|performed|recorded)|by whom|billboard|chart|hot 100|rank\w*|peak\w*|weeks on)\b"
)
# The years of an artist's awards asked for.
AWARD_YEARS = r"\bwhen\b|\byears?\b"
# An end of the span asked about ("until 2010", "before 2010").
UP_TO = r"\b(?:until|till|up to|through|by|before)\b"
# How long an act has performed.
CAREER = r"\bcareer\b|\bactive\b|\bperform\w* for\b|how long"
# The present asked about ("its current members", "still").
AT_PRESENT = r"\b(?:current(?:ly)?|now|present|still|today)\b"
# An act asked for, a song asked for.
ACT_ASKED = r"\bwho\b|\b(?:which|what) (?:artist|singer|band|group|act)\b"
SONG_ASKED = r"\b(?:what|which) (?:\w+ )?(?:song|track|single)\b|\bname of the (?:song|track|single)\b"
# A chart's position as written ("no. 5", "#1", "ranked 3", "3rd place"): the number is group 1 or 2.
CHART_RANK = (
    r"(?:\bno\.?\s*|#|\bnumber\s+|\brank(?:ed)?\s+|\bposition\s+)(\d{1,3})\b|"
    r"\b(\d{1,3})(?:st|nd|rd|th)\s+(?:place|spot|position)"
)
# The top of a chart, as a question names it.
TOP_SPOT = (
    r"\b(top spot|number one|no\.? ?1 spot|#1 spot|first place on the (?:billboard|chart)|"
    r"(?:at )?the top of the (?:billboard|hot 100|charts?)|"
    r"topp(?:ed|ing|s) the (?:billboard|hot 100|charts?)|chart[- ]topp\w*|"
    r"most popular (?:song|single|track) (?:on|of) (?:the )?(?:billboard|hot 100|charts?))\b"
)

# --- The reading of a KG question (models/kg/intent.py) -------------------------------------------

# The tense a question asks in: the present ("who are the members", "what is", "currently") or the past
# ("who were", "did", "won"); a time it names decides first.
PRESENT_TENSE = (
    r"\b(?:is|are|am|has|have|does|do|can|will|isn't|aren't|hasn't|haven't|doesn't|don't|can't|won't)\b|"
    r"'s\b|'re\b|\b(?:now|currently|current|presently|at present|at the moment|still|today|these days)\b"
)
PAST_TENSE = r"\b(?:was|were|did|had|wasn't|weren't|didn't|hadn't|used to|former(?:ly)?)\b"
# A time relative to the question's own with no span to resolve: the latest one, the next one, now.
RELATIVE_TIME = (
    r"\b(?:now|currently|current|today|latest|most recent|(?<!more )recent(?:ly)?|"
    r"(?:last|next) (?:[\w-]+ ){0,3}?(?:game|match|appearance|fixture|outing|contest|trading day)|"
    r"next|upcoming|so far|to date|at the moment|right now)\b"
)
# What the question asks its answer to be, by the noun after its wh-word ("which language", "what
# year", "which team") or the wh-word alone ("who", "when"; "where does it rank" asks no place): the
# noun or word -> the form.
ASKED_NOUN = r"\b(?:what|which)(?: \w+)?? (?P<noun>[a-z]+)\b"
ANSWER_NOUNS: dict[str, str] = {
    "language": "language", "languages": "language",
    "country": "place", "countries": "place", "nationality": "place", "city": "place", "place": "place",
    "year": "year", "decade": "year", "date": "date", "day": "date", "month": "date",
}  # fmt: skip
# "what was _'s debut single?", "what is the original title?": the question ends with the noun it asks
# for (the wording's names blanked, "_"); a singular one asks for one thing.
ASKED_HEAD = r"^(?:what|which)(?:'s| is| was) (?:the |_ ?'s |a |an )(?:[a-z-]+ ){0,2}(?P<noun>[a-z]+)\s*\??$"
# A clause that asks: it opens with a wh-word.
WH_OPENING = r"^(?:what|which|who|whom|whose|where|when|how)\b"
ANSWER_WORDS: dict[str, str] = {"who": "name", "whom": "name", "when": "date"}
# The rows a count or a total is over, as the question names them ("how many albums", "the number of
# dividends"): the noun phrase after the counting words.
COUNTED_ROWS = (
    r"\b(?:how many|number of|count of|total of)\s+(?:(?:the|of|different|distinct|separate|his|her|their|"
    r"its)\s+)*(?P<rows>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3})"
)
# Function words: they end the rows' noun phrase ("how many albums did ...", "how many jump shots
# were ..."), and are no noun asked after a wh-word ("what are the ...").
FUNCTION_WORDS = frozenset(
    "did does do was were is are has have had will would can could the a an of in on for by from "
    "with that which who whom he she it they this these those there".split()
)
# Units of an amount: "how many points" asks for an amount, not a count of rows.
AMOUNT_UNITS = frozenset("points goals shares dollars runs yards votes pts".split())
# A threshold a yes/no question holds a count or an amount against ("more than 3 grammys", "at least 10").
THRESHOLD = (
    r"\b(?P<op>more than|over|above|at least|fewer than|less than|under|below|at most|exactly|"
    r"(?:higher|greater|larger|bigger) than|(?:lower|smaller) than)\s+\$?"
    r"(?P<n>\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty)\b"
    r"(?:\s*(?P<scale>thousand|million|billion|trillion|bn|mn)\b)?"
)
# How each threshold's words hold a value against its number: "above" (>), "at least" (>=), "below"
# (<), "at most" (<=), "exactly" (=).
THRESHOLD_WORDS: dict[str, str] = {
    "more than": "above", "over": "above", "above": "above", "higher than": "above", "greater than": "above",
    "larger than": "above", "bigger than": "above", "at least": "at least", "fewer than": "below",
    "less than": "below", "under": "below", "below": "below", "lower than": "below", "smaller than": "below",
    "at most": "at most", "exactly": "exactly",
}  # fmt: skip

# A Grammy named (the KG's Grammy routes answer it).
GRAMMY = r"grammy"
# The awards themselves, as a name read for a title may hold them ("the 2002 academy awards").
AWARD_NAMES = r"\b(?:oscars?|academy awards?|grammys?|grammy awards?|awards?|ceremony|best)\b"
# The words of a company record's key ("dividendYield": dividend, yield; "fiftyTwoWeekHigh").
RECORD_KEY_PARTS = r"[a-z]+|[A-Z][a-z]*|\d+"
# An open-domain record's fact named by the question: words sharing a stem with a word of its key
# ("headquartered" names "headquarters"), or words that name a common fact without sharing a stem
# with its key ("the mountain X stands on": its location), by a stem of the key.
FACT_KEY_WORDS: dict[str, str] = {
    "locati": r"\b(?:located|stands?|sits?|situated|lies|built (?:on|in))\b",
    "headqu": r"\b(?:based|head office|hq)\b",
    "operat": r"\b(?:runs?|manag(?:es|ed))\b",
    "owner": r"\b(?:owns?|owned)\b",
    "founde": r"\b(?:founded by|set up by|established by)\b",
}
# "which country is X in?": a fact word right after these names the kind of the answer, not a fact to follow.
ASKS_THE_KIND = frozenset({"which", "what", "whose"})
# Words that ask for nothing by themselves: what is left of "who is the director of X?" without them.
BARE_QUESTION_WORDS = frozenset(
    "who whom what which is was are were the a an of s does did do name tell me called currently now that "
    "its it by for in has have".split()
)

# A ticker as the finance routes take it ("BRK.B"); a written word that is probably one ("tsla"); a
# word too long for one ("metlife", "altria": the reader filed a name as a ticker).
TICKER_SPELLING = r"^[A-Za-z][A-Za-z0-9.\-]{0,6}$"
TICKER_WORD = r"^[A-Za-z]{1,5}$"
LONG_WORD = r"^[A-Za-z]{6,}$"

# A day written as the KG writes it ("2024-03-08"): a computed answer that is a date.
ISO_DAY = r"\d{4}-\d{2}-\d{2}\b"
# A letter, a digit: a record's value that reads as a name has letters and no digits.
LETTER = r"[A-Za-z]"
DIGIT = r"\d"

# A player's running total in a play-by-play description ("Jordan 2' Dunk (12 PTS)"): the points are group 1.
RUNNING_POINTS = r"\((\d+) PTS\)"
# Words that stand for a subject without naming it, and an article before a name.
PRONOUNS = frozenset("they he she it we you team".split())
LEADING_ARTICLE = r"^(?:the|an|a)\s+"

# --- Names a question writes itself (models/kg/entities.py) ----------------------------------------

# A title in quotes: "black beatles", “the matrix”, 'hello' (an apostrophe inside a word is no quote).
QUOTED_TITLE = r"\"([^\"]{2,80})\"|\u201c([^\u201d]{2,80})\u201d|(?<!\w)'([^']{2,80})'(?!\w)"
# Words that are no part of a name the question writes: question and function words, the nouns
# that say what kind of thing is asked about, time words. A run of other words next to "or", before
# "'s" or in capitals is a name.
NOT_NAME_WORDS = frozenset(
    """what which who whom whose when where why how is are was were be been being do does did has have had
    will would can could should shall may might must the a an of in on at for to by with from into than then
    and or nor but as if vs versus between about over under after before during since until per each every all
    both either neither any some more most less least this that these those it its he his she her they their
    them we our you your i me my there here not no yes so also just only very much many one
    whats whos hows wheres whens whys thats theres heres lets its
    company companys companies stock stocks share shares ticker firm team teams club player players game games
    match movie movies film films song songs album albums artist artists band bands singer singers
    actor actress director person people record single track chart charts billboard grammy grammys oscar
    oscars award awards actors actresses directors producers members cast none
    year years month months week weeks day days today yesterday tomorrow season seasons time currently now
    larger largest higher highest lower lowest bigger biggest better best older oldest younger youngest
    first last latest recent""".split()
)  # fmt: skip
# A name the reader gave that describes rather than names ("the artist who won best new artist in
# 2015"): its relation, not a search, finds the entity.
DESCRIBED_ENTITY = r"\b(?:who|whom|whose|that|which|where)\b"

# --- The form an answer must take, read from its question (models/answer_check.py) --------------

# A polite wrapper around the question itself ("can you tell me", "do you know"): no yes/no question.
POLITE_REQUEST = (
    r"^(?:(?:(?:can|could|would|will|do) you|are you able to) (?:please |possibly |happen to )*(?:tell|name|"
    r"list|provide|give|identify|"
    r"let|share|show|find|help|say|explain|describe|know|now|recall|remember|suggest|recommend|confirm|clarify|"
    r"inform|mention|point|check|look|get|see)\b(?: (?:me|us))?(?: (?:with|about|know))?"
    r"|i(?:'m| am) (?:curious|wondering)\b|please\b)"
)
# A question opening with an auxiliary verb ("is ...", "did ...", "hasn't ..."): yes or no is asked.
AUXILIARY_OPENING = (
    r"^(?:is|are|was|were|am|do|does|did|has|have|had|can|could|will|would|should|shall|may|might|must|"
    r"isn't|aren't|wasn't|weren't|don't|doesn't|didn't|hasn't|haven't|can't|won't|wouldn't|shouldn't)\b"
)
# "Is there ...": CRAG words some questions that ask for a name so ("was there an original language x
# came in?" -> "en"), so it asks for no yes or no.
EXISTENTIAL_OPENING = r"^(?:is|was|are|were) there\b"
# A question's words that name a thing (options are named after them, not by them).
WH_WORD = r"\b(?:which|who|whom|whose|what|where|when)\b"
# "which of the two stars, procyon or arcturus, is brighter": options named in the middle.
WHICH_OF_GROUP = r"\bwhich (?:one )?of (?:the|these|those) (?:two|three|four|following)\b"
# "..., was it home or away?": the words before the options that are no part of them.
OPTIONS_LEAD = r"^(?:either|(?:is|was|are|were) (?:it|they)) "
# The "or" between options ("a or b", "a, b, or c").
OPTIONS_OR = r"(?:^|\s)or\s+"
# "is x a or b?": the words after its "or" that make no second option ("or more", "or not"), and the
# words before it that make the question a yes/no one ("did it have any mergers or acquisitions?").
EITHER_NO_OPTION = r"^(?:not|no|more|less|fewer|so|else|otherwise|later|earlier|above|below|higher|lower)\b"
EITHER_YES_NO = r"\b(?:any|ever|anything|anyone|anybody)\b"
# Words that join or frame options, and articles: no part of an option's own words.
OPTION_FILLERS = frozenset("a an the and or of in on at to for by with vs versus either".split())
# An answer that names no single option yet answers a choice: a tie, both, neither.
TIE_ANSWER = r"\b(?:both|neither|nor|same|equal|equally|tie|tied|identical|none)\b"
# A yes/no answer: yes, no or their like first.
YES_NO_ANSWER = (
    r"^\W*(?:yes|no|yeah|yep|nope|nah|not|true|false|correct|incorrect|right|wrong|indeed|never|none|"
    r"absolutely|definitely|certainly|of course)\b"
)
# A comparison asked ("is x higher than y?") may be answered by the other comparative ("lower").
COMPARISON_ASKED = r"\bthan\b"
# An answer that nothing happened: the year or date asked for has none.
NO_EVENT_ANSWER = r"^\W*(?:none|never|no|not|nothing)\b"
# A year asked: "what year", "in which year", "the year ..." (a question opening so).
YEAR_ASKED = r"^(?:in |during |by )?(?:what|which|the) (?:birth )?year\b(?!-)"
# A date asked: "what date", "on which date", "when was x born", "what is x's birthday".
DATE_ASKED = (
    r"^(?:on )?(?:what|which|the) (?:exact )?date\b(?!-)|^when (?:was|were|is) .+ born\W*$"
    r"|^(?:what(?:'s| is| was) )?(?:the |[\w .'-]+'s? )?(?:date of birth|birth ?date|birthday)\b"
)
# A number asked: "how many", "how much", "what percentage".
NUMBER_ASKED = r"^how (?:many|much)\b|^what (?:percentage|percent)\b"
# An answer that writes a year (digits: "1990", "the 1990s", "476 ad").
YEAR_IN_ANSWER = r"\d"
# An answer that writes a date: digits or a month ("may" included: an answer names it as a month).
DATE_IN_ANSWER = rf"\d|\b{MONTH}\b"
# An answer that writes a number: digits, a number word, or a count of none or some.
NUMBER_IN_ANSWER = (
    rf"\d|\b(?:{'|'.join([*NUMBER_WORDS, *TIMES_WORDS, *NUMBER_IN_WORDS])}|none|no|never|several|few|dozens|"
    r"hundreds|thousands|millions|billions|half|quarter|single|couple|free)\b"
)

# --- What the answer checker reads in answers (evaluation/answer_match.py) -------------------------

# Phrases of a comparison ("more than one year" = "over one year").
MORE_THAN = r"more than|longer than|greater than|in excess of"
LESS_THAN = r"less than|fewer than|shorter than"
# Words after which "one" is a pronoun, not a number ("the last one", "this one", "no one").
ONE_AS_PRONOUN_AFTER = frozenset(
    "last first next this that which each every no any another other only same".split()
)
# Words that say there is none: "none", "never won", "nil" (a zero answer said in words).
ZERO_WORDS = frozenset({"none", "nobody", "nothing", "never", "zero", "nil", "neither", "no"})
# A match result written as a one-letter code (a gold "w", "d" or "l") -> the result.
RESULT_CODES: dict[str, str] = {"w": "win", "d": "draw", "l": "loss"}
# Words that tell a match's result -> the result ("beat" and "defeated" left out: "X beat Y" is a win
# for X and a loss for Y, and "were defeated" a loss).
RESULT_WORDS: dict[str, str] = {
    "win": "win", "wins": "win", "won": "win", "victory": "win", "victorious": "win",
    "draw": "draw", "draws": "draw", "drew": "draw", "drawn": "draw", "tie": "draw", "tied": "draw",
    "loss": "loss", "lost": "loss", "lose": "loss", "defeat": "loss", "beaten": "loss",
}  # fmt: skip
# A quarter of a year written "Q4", "4th quarter" or "fourth (fiscal) quarter": the quarter's number
# (a digit, or an ordinal of ORDINAL_WORDS) is the group named "n".
QUARTER = r"\bq(?P<q>[1-4])\b|\b(?P<n>first|second|third|fourth|1st|2nd|3rd|4th)(?: fiscal)? quarter\b"
# A win-loss record written out ("56 wins and 26 losses", "won 73 games and lost 9"): wins, losses.
WIN_LOSS = (
    r"\b(?P<w>\d+) (?:wins?|victories),? (?:and )?(?P<l>\d+) (?:losses|defeats)\b"
    r"|\bwon (?P<w2>\d+)(?: games| matches)?,? and lost (?P<l2>\d+)\b"
)
# Words that name people by their relation in a sentence answer ("the brothers kevin, joe and nick",
# "their cousin mike love", "two daughters, malia and sasha"): the names after them are the answer's people.
RELATION_WORDS = frozenset(
    "brother brothers sister sisters sibling siblings son sons daughter daughters child children twin twins "
    "cousin cousins friend friends".split()
)
# Words that may stand beside the people a sentence answer lists, stating no fact the names do not
# ("hanson is made up of the brothers ...", "his younger brother phil everly").
PEOPLE_LIST_WORDS = frozenset(
    "made up formed founded consist consists consisted comprised composed band group members founders duo "
    "trio quartet younger older elder eldest youngest wife husband father mother parents".split()
)
# Words that label a fiscal period beside a quarter ("Q1 FY24", "fiscal Q2").
FISCAL_WORDS = frozenset({"fy", "fiscal"})
# A question that asks for people by name ("who are the members ...", "name the children ...").
ASKS_FOR_PEOPLE = r"^\W*(?:who|whom|name)\b"
# Units written in several ways (symbols, abbreviations, two words) -> the one word the checker reads
# (matched after Unicode compatibility decomposition, which writes "ft³" as "ft3").
UNIT_SPELLINGS: dict[str, str] = {
    r"\bft[³3]|\bcu\.? ?ft\b\.?|\bcubic f(?:ee|oo)t\b": "cubicfeet",
    r"(?<=\d) ?m[³3]\b|(?<=\d) ?cu\.? ?m\b\.?|\bcubic met(?:er|re)s?\b": "cubicmeters",
    r"\bmi[²2]\b|\bsq\.? ?mi\b\.?|\bsquare miles?\b": "squaremiles",
    r"\bkm[²2]\b|\bsq\.? ?km\b\.?|\bsquare kilomet(?:er|re)s?\b": "squarekilometers",
    r"\bft[²2]\b|\bsq\.? ?ft\b\.?|\bsquare f(?:ee|oo)t\b": "squarefeet",
    r"(?<=\d) ?m[²2]\b|(?<=\d) ?sq\.? ?m\b\.?|\bsquare met(?:er|re)s?\b": "squaremeters",
    r"° ?c\b|\bdegrees? (?:c\b|celsius\b)|\bcelsius\b": "celsius",
    r"° ?f\b|\bdegrees? (?:f\b|fahrenheit\b)|\bfahrenheit\b": "fahrenheit",
    r"(?<=\d) ?l\b|\blit(?:er|re)s?\b": "liters",
    r"\b(?:us )?gal(?:lon)?s?\b\.?": "gallons",
}
# Unit words after a number -> (canonical unit, kind); units of one kind may be conversions of each other.
UNITS: dict[str, tuple[str, str]] = {
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
    "cubicfeet": ("ft3", "volume"), "cubicmeters": ("m3", "volume"), "liters": ("l", "volume"),
    "gallons": ("gal", "volume"), "squaremiles": ("mi2", "area"), "squarekilometers": ("km2", "area"),
    "squarefeet": ("ft2", "area"), "squaremeters": ("m2", "area"), "acres": ("acre", "area"),
    "celsius": ("c", "temperature"), "fahrenheit": ("f", "temperature"),
}  # fmt: skip


def asked(text: str, vocabulary: dict[str, str]) -> list[str]:
    """The keys of `vocabulary` (key -> pattern) whose words `text` uses, in vocabulary order."""
    return [key for key, pattern in vocabulary.items() if re.search(pattern, text)]


def word_pattern(words: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern matching any of `words` (patterns themselves) between non-word characters."""
    if not words:
        return None
    return re.compile(rf"(?<!\w)(?:{'|'.join(words)})(?!\w)")

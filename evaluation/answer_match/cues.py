"""The checker's own cue words, question patterns and limits.

Months, number words, scales, units, zero words, match results, quarters and win-loss records come from
models/vocabulary.py (the stages read them too); these are the checker's alone: no stage reads function
words, hedges or directions of change in an answer. Its question cues (ASKED_KINDS, ASKS_FOR_SEVERAL)
were set on the labelled predictions of benchmarks/answer_checker.py: a hypothesis that benchmark's
held-out labels test.
"""

from __future__ import annotations

import re

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


COUNT_WORDS = frozenset({"times", "time"})  # what any count may count: "has won it 3 times"
# Nouns that count the same things ("8 films" for "8 movies", "3 titles" for "3 championships").
COUNTED_SYNONYMS = (
    frozenset({"movies", "films"}),
    frozenset({"titles", "championships"}),
    frozenset({"kids", "children"}),
    frozenset({"wives", "spouses"}),
    frozenset({"songs", "tracks"}),
    frozenset({"wins", "victories"}),
)
QUALIFIERS = frozenset({"over", "under", "exactly", "only", "just"})  # may stand before a value


# Words a name may drop and still name the same thing ("Mayon" for "Mayon Volcano").
GENERIC_WORDS = frozenset(
    "inc incorporated corp corporation company co ltd llc plc group holdings pictures studios studio records "
    "entertainment volcano mount mountain river lake ocean sea island city county state band club fc team "
    "stadium university film movie album song series show season systems technologies".split()
)


# A company's legal suffix after a comma ends its name; it does not start a list item ("salesforce, inc.").
COMPANY_SUFFIXES = frozenset("inc incorporated corp co ltd llc plc lp sa ag nv jr sr".split())
# Words after a company's name that say it is one ("the estee lauder companies inc.").
COMPANY_WORDS = frozenset({"companies", "company", "corporation", "group", "holdings"})


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


# Words that start a sentence going on about the answer after it ("... is carrie-anne moss. she played").
PRONOUNS = frozenset("he she they it his her their its this these".split())


OPTION_JOINTS = frozenset({"or", "versus", "vs"})  # between the two options a question offers
COMPARISON_WORDS = frozenset({"compared", "against", "versus", "vs", "to", "than"})  # "2.81% against 2.58%"
QUOTED = re.compile(r'"([^"]+)"')  # a title a sentence quotes: "for his role in "the revenant" in 2016"
ASKS_WHAT_THING = re.compile(r"\b(?:what|which)\b")
ASKS_WHO = re.compile(r"\bwho(?:m|se)?\b")
CLAUSE_OPENERS = frozenset({"with"})  # "... than Y with a total of 27": the subject's 27


RELATIVES = frozenset({"who", "whom", "whose", "which", "that"})


AUXILIARIES = frozenset({"do", "does", "did"})  # "he did not score": a clause
CLAUSE_VERBS = COPULAS | {"has", "have", "had", "been", "will", "would"}


LOCATIVES = frozenset({"in", "at"})  # "ps 41 in greenwich village": the name, then where it is

# Comparatives and their opposites: a gold sentence answers "is A higher than B?" by saying which is
# higher or lower ("... 184.02, which is lower than yesterday's closing price at 188.13": no).
_COMPARATIVE_PAIRS = (
    ("higher", "lower"), ("more", "less"), ("more", "fewer"), ("bigger", "smaller"), ("larger", "smaller"),
    ("greater", "less"), ("older", "younger"), ("taller", "shorter"), ("longer", "shorter"),
    ("richer", "poorer"), ("earlier", "later"), ("faster", "slower"), ("heavier", "lighter"),
    ("cheaper", "pricier"), ("better", "worse"),
)  # fmt: skip
OPPOSITE_COMPARATIVES: dict[str, frozenset[str]] = {
    word: frozenset(b if a == word else a for a, b in _COMPARATIVE_PAIRS if word in (a, b))
    for pair in _COMPARATIVE_PAIRS
    for word in pair
}
ASKS_YES_OR_NO = re.compile(r"^\W*(?:is|are|was|were|does|do|did|has|have|had|can|will)\b")

# Words that end the complement of an identifying sentence ("... is 3m, with a dividend yield of 6.86%").
COMPLEMENT_ENDS = frozenset({"with", "who", "which", "that", "as", "since", "from", "after", "before"})
RESTATES_SHARE = 0.4  # of a side's content words that the question has, for it to restate the question
IDENTIFIED_MAX_WORDS = 6  # an identifying sentence's answer side has at most this many words

# A list item that opens with a past participle and a preposition ("released in 2011", "founded by"):
# a clause about the item before it, so the commas are a sentence's, not a list's.
PARTICIPLE_PREPOSITIONS = frozenset({"in", "on", "by", "at", "from"})

# Words that mark a list as a part of the whole ("Positions and 7 Rings, among others"): not the
# whole list, and not a wrong one for leaving items out.
PARTIAL_LIST = re.compile(
    r"\b(?:among others|and others|among them|for example|for instance|such as|including|e\.g\.)"
    r"|\betc\b"
)


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


HEDGE = re.compile(
    r"\b(?:either|or|maybe|perhaps|possibly|probably|likely|might|i think|i believe|not sure|unclear"
    r"|uncertain)\b"
)


ASKS_FOR_VALUE = re.compile(
    r"\b(?:how (?:many|much|old|long|tall|big|far|often|high|large)|when|"
    r"(?:what|which) (?:year|date|day)|number of"
    r"|total|average|percent(?:age)?|price|ratio|rate|volume|eps|earnings|revenue|market cap\w*|worth|score"
    r"|budget|cost|salary"
    r"|points|date|count)\b"
)


# The kind of value a question asks for; the first of them in the question decides.
ASKED_KINDS = [
    ("date", re.compile(r"\b(?:when|what (?:year|date|day)|which (?:year|date|day)|date)\b")),
    ("money", re.compile(r"\b(?:price|cost|costs|worth|revenue|salary|budget|gross|earn|earned|paid|pay)\b")),
    ("percent", re.compile(r"\bpercent(?:age)?\b|%")),
    ("count", re.compile(r"\bhow (?:many|often|old)\b|\b(?:number|count) of\b")),
]


# A question asking for a thing, not a value: "who ...", "which company ...", "what team ..." (not "what
# is", "what year", "which date", "what percentage").
ASKS_FOR_THING = re.compile(
    r"^(?:(?!\b(?:how|when|what|which|who|whom|whose)\b).)*\b(?:who|whom|whose|(?:which|what) "
    r"(?!(?:is|was|are|were|does|do|did|has|have|had|year|date|day|time|month|percent\w*|price|number"
    r"|amount|total|ratio|rate|value|age)\b)[a-z]+)\b"
)


# A question asking for several things: "what are ...", "who were ...", "list ...", "which movies ...",
# "which children ...", "show me the founding members ...".
ASKS_FOR_SEVERAL = re.compile(
    r"\b(?:what|who|which) (?:are|were)\b|\blist\b|\bname (?:all|the)\b|\ball (?:of )?(?:the )?\w+s\b"
    r"|\b(?:which|what) (?:\w+ )?(?!(?:is|was|has|does|this|its)\b)\w{3,}(?<![su])s\b"
    r"|\b(?:which|what) (?:\w+ )?(?:children|people|men|women)\b"
    r"|\b(?:show|tell|give) me (?:all )?(?:the )?(?:\w+ )?\w{3,}(?<![su])s\b"  # "show me the ... members"
)


# A question asking how many or how much, which a sentence may answer by saying there is none.
ASKS_FOR_AMOUNT = re.compile(r"\bhow (?:many|much|often)\b|\b(?:number|count|amount) of\b")
NEGATION_WORDS = frozenset({"not", "never", "no", "none", "nobody", "nothing", "neither", "nor", "without"})
# Words that end a sentence's main clause and start one that qualifies it ("..., though she has been
# nominated four times"), and words that qualify a negation itself ("did not win until 2010").
CONTRASTS = frozenset(
    "though although but while whereas despite however yet after before because unlike".split()
)
NEGATION_QUALIFIERS = frozenset("until except besides apart other only".split())
ONE_AS_PRONOUN = re.compile(r"\b(?:not|never|n't) (?:\w+ ){0,2}(?:a single )?one\b")  # "never won one"
NEGATED_WITHIN = 3  # content words after a negation that it may negate ("has never been named to")
# A question asking for a team or a country, and for one or several.
ASKS_FOR_NAME_KIND = re.compile(
    r"\b(?:which|what) (?:\w+ ){0,2}?(?P<kind>countries|country|nations?|teams?|clubs?|franchises?)\b"
)
# A question asking for a name and then a value ("who was the first actress and what year ...?",
# "which team won and when?"), with the kind of that value by the group that matched.
ASKS_ALSO_FOR_VALUE = re.compile(
    r"^(?:who|which|what)\b.*\band (?:(?P<date>when|(?:in )?(?:what|which) (?:year|date))"
    r"|(?P<count>how many))\b"
)
ASKS_ALSO_KINDS = {"date": "date", "count": "count"}
ASKS_FOR_TIME_SPAN = re.compile(r"\bhow (?:old|long)\b")  # its answer may count years or days
NAME_KINDS = {"country": "country", "nation": "country", "team": "team", "club": "team", "franchise": "team"}
NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|none|nobody|nothing|without)\b|n't\b")


DECLINE = re.compile(
    r"\b(?:not enough (?:information|data|context)|no (?:information|data|answer|record)s?\b|insufficient"
    r"|(?:do not|don't|does not|doesn't|did not|didn't) have enough (?:information|data|context|details)"
    r"|(?:cannot|can't|could not|couldn't|unable to) (?:be )?"
    r"(?:answer|determine|find|say|tell|provide|confirm)"
    r"|(?:is|are) not (?:available|provided|mentioned|specified|stated|given|known)|i do not know|i dont know"
    r"|i don't know|unknown|n/a)"
)

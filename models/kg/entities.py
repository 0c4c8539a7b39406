"""What a question asks the knowledge graph about: names per domain, read by the LLM as JSON.

The LLM output is constrained by `ENTITY_SCHEMA`; `parse_entities` still treats it as untrusted
(a reply that is not the expected JSON yields empty entities, never an exception). Cheap rules add
what needs no model: tickers written in the question, a chart rank, the sport.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from models import vocabulary
from models.kg.matching import loose_key, name_score, nba_full_names
from models.kg.relations import TABLES
from models.kg.timeparse import find_time_spans
from models.replies import find_json
from models.schema import Event

_LIST_FIELDS = ("companies", "tickers", "movies", "people", "artists", "songs", "teams", "entities")

NBA_WORDS = re.compile(vocabulary.NBA_WORDS)
SOCCER_WORDS = re.compile(vocabulary.SOCCER_WORDS)
_TICKER = re.compile(vocabulary.WRITTEN_TICKER)
_RANK = re.compile(vocabulary.CHART_RANK)
# Capitalised words that are also ticker symbols but almost never mean the stock in a question.
_NOT_TICKERS = {
    "USA",
    "UK",
    "EU",
    "AI",
    "ROI",
    "TV",
    "FC",
    "CEO",
    "CFO",
    "EPS",
    "ETF",
    "IPO",
    "GDP",
    "NBA",
    "NFL",
    "MVP",
}
_QUOTED = re.compile(vocabulary.QUOTED_TITLE)
_DESCRIBED = re.compile(vocabulary.DESCRIBED_ENTITY)
_OPTIONS = re.compile(vocabulary.NAMED_OPTIONS)
_OWNER = re.compile(vocabulary.NAMED_OWNER)
_CAPITALISED = re.compile(vocabulary.CAPITALISED_WORD)
_WORD_TOKEN = re.compile(vocabulary.WORD_TOKEN)
_NAME_SEARCH_WORD = re.compile(vocabulary.NAME_SEARCH_WORD)
# A name read with this many words and this share of the question's words is the question itself.
MIN_WORDS_OF_A_QUESTION = 5
QUESTION_SHARE = 0.7
# relative phrases resolve against some day: only whether they are a time counts
_ANY_TIME = "01/01/2024, 00:00:00 PT"
# A word of the question this similar to a word of a name writes it, misspelt ("beattles", "beatles").
WORD_SIMILARITY = 0.85
# Domains whose names the KG finds by a fuzzy search (sports teams are matched in game rows instead).
SEARCHED_DOMAINS = ("finance", "movie", "music", "open")
# A name read that the question does not write is replaced by a span of the question at least this
# similar to it (a misspelt or re-worded name), else dropped.
MIN_SPAN_SIMILARITY = 0.5
_TOP_SPOT = re.compile(vocabulary.TOP_SPOT)
# The words of an award's name: the relations named by them ("best documentary feature"), and the
# awards themselves ("the 2002 academy awards").
_AWARD_WORDS = re.compile(
    "|".join([*(r.cues for table in TABLES.values() for r in table if r.a_name), vocabulary.AWARD_NAMES])
)
_AWARD = re.compile(vocabulary.AWARD_NAMES)


@dataclass
class KGEntities:
    companies: list[str] = field(default_factory=list)
    tickers: list[str] = field(default_factory=list)
    movies: list[str] = field(default_factory=list)
    people: list[str] = field(default_factory=list)
    artists: list[str] = field(default_factory=list)
    songs: list[str] = field(default_factory=list)
    teams: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)  # open-domain subjects
    sport: str = ""  # "nba", "soccer" or ""
    rank: int = 0  # a Billboard chart position named in the question, 0 when none
    # the relation and the operation the reader named from the declared lists (kg.relation_reader
    # "llm"); "" when it named none
    relation: str = ""
    operation: str = ""


def entity_schema(
    max_items: int, relations: tuple[str, ...] = (), operations: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The reply's schema; with `relations` (and `operations`) it also names the relation asked and what
    is done with its facts, from those lists ("none" when no relation fits)."""
    names = {"type": "array", "items": {"type": "string"}, "maxItems": max_items}
    properties: dict[str, Any] = {name: names for name in _LIST_FIELDS}
    properties["sport"] = {"type": "string", "enum": ["nba", "soccer", "none"]}
    properties["rank"] = {"type": "integer"}
    required = [*_LIST_FIELDS, "sport", "rank"]
    if relations:
        properties["relation"] = {"type": "string", "enum": [*relations, "none"]}
        properties["operation"] = {"type": "string", "enum": list(operations)}
        required += ["relation", "operation"]
    return {"type": "object", "properties": properties, "required": required}


def parse_entities(
    text: str, max_items: int, relations: tuple[str, ...] = (), operations: tuple[str, ...] = ()
) -> tuple[KGEntities, str | None]:
    """Entities from the LLM's JSON reply, plus an error message when the reply was unusable; the
    relation and the operation it names when they are of the declared lists."""
    raw = find_json(text, dict)
    if raw is None:
        return KGEntities(), "entity reply holds no JSON object"
    entities = KGEntities()
    for name in _LIST_FIELDS:
        values = raw.get(name)
        if isinstance(values, str):
            values = [values]
        if isinstance(values, list):
            cleaned = [v.strip() for v in values if isinstance(v, str) and v.strip()]
            setattr(entities, name, list(dict.fromkeys(cleaned))[:max_items])
    sport = raw.get("sport")
    entities.sport = sport if sport in ("nba", "soccer") else ""
    rank = raw.get("rank")
    entities.rank = rank if isinstance(rank, int) and 0 < rank <= 100 else 0
    relation, operation = raw.get("relation"), raw.get("operation")
    entities.relation = relation if isinstance(relation, str) and relation in relations else ""
    entities.operation = operation if isinstance(operation, str) and operation in operations else ""
    return entities, None


def add_rule_entities(
    entities: KGEntities, query: str, known_tickers: set[str], domain: str = ""
) -> KGEntities:
    """Fill in what rules can read off the question text without the LLM: tickers, a chart rank, the
    sport, and in a sports question the NBA teams it names in full when the reader named no team."""
    for match in _TICKER.finditer(query):
        explicit, bare = match.group(1), match.group(2)
        ticker = explicit or (bare if bare in known_tickers and bare not in _NOT_TICKERS else None)
        if ticker and ticker not in entities.tickers:
            entities.tickers.append(ticker)
    lowered = query.lower()
    if not entities.rank:
        rank = _RANK.search(lowered)
        if rank:
            entities.rank = int(rank.group(1) or rank.group(2))
        elif _TOP_SPOT.search(lowered):
            entities.rank = 1
    if not entities.sport:
        if NBA_WORDS.search(lowered):
            entities.sport = "nba"
        elif SOCCER_WORDS.search(lowered):
            entities.sport = "soccer"
    if domain == "sports" and not entities.teams:
        entities.teams = nba_full_names(query)
    return entities


# The kinds each domain's routes look names up by.
_DOMAIN_KINDS = {
    "finance": ("companies",),
    "movie": ("movies", "people"),
    "music": ("artists", "songs"),
    "sports": ("teams",),
    "open": ("entities",),
}


def refile_for_domain(entities: KGEntities, domain: str) -> KGEntities:
    """A small extractor files names under the wrong kind (a band as a company, a film as a person)
    and fills kinds the question never asks about. When the predicted domain's own kinds hold names,
    the other kinds are dropped (a name of one of the domain's two kinds is looked up as the other
    only when its own search misses: `QuestionState.other_kind_on_miss`); when they are empty,
    every other name is filed under the domain's first kind, and taken out of the open-domain kind."""
    kinds = _DOMAIN_KINDS.get(domain, ())
    own = kinds + (("tickers",) if domain == "finance" else ())
    if not kinds:
        return entities
    if any(getattr(entities, kind) for kind in own):
        for kind in _LIST_FIELDS:
            if kind not in own:
                setattr(entities, kind, [])
        return entities
    others = [
        name
        for kind in _LIST_FIELDS
        if kind not in kinds and kind != "tickers"
        for name in getattr(entities, kind)
    ]
    setattr(entities, kinds[0], list(dict.fromkeys(others)))
    # The open-domain kind is the reader's catch-all: its names, filed under the domain's kind now, are
    # not also looked up in the open KG, whose look-alike entries would be near misses. The other
    # domains' kinds stay, in case the predicted domain is the wrong one.
    if domain != "open":
        entities.entities = []
    return entities


def _written(name: str, kind: str, query: str) -> bool:
    """The question writes `name`: a ticker as one of its words, any other name with half of its words
    that can be part of a name (not "the" of "The Godfather") or one long one in it, a misspelt word
    standing for its spelling ("the beattles" writes The Beatles); every number of the name written
    ("toy story 3" is another film than the "toy story" asked), and a name of words that are no part
    of a name ("the one") written whole."""
    words = set(_WORD_TOKEN.findall(query.lower()))
    tokens = _WORD_TOKEN.findall(name.lower())
    if kind == "tickers":
        return len(tokens) == 1 and tokens[0] in words
    if any(t.isdigit() and t not in words for t in tokens):
        return False
    named = [t for t in tokens if t not in vocabulary.NOT_NAME_WORDS]
    if not named:
        return bool(tokens) and all(t in words for t in tokens)
    found = [
        t
        for t in named
        if t in words or (len(t) >= 4 and difflib.get_close_matches(t, words, n=1, cutoff=WORD_SIMILARITY))
    ]
    return len(found) * 2 >= len(named) or any(len(t) >= 4 for t in found)


def _an_award(name: str) -> bool:
    """The name is an award's ("best documentary feature film", "the 2002 academy awards"): it names an
    award or a "best" one, and its words once the award's are taken out can be part of no name."""
    lowered = name.lower()
    if not _AWARD.search(lowered):
        return False
    return _only_cue_words(_AWARD.sub(" ", _AWARD_WORDS.sub(" ", lowered)))


def _owner_holding(name: str, query: str) -> str | None:
    """The owner the question writes before "'s" that holds the read name as its first words and more
    ("abacus" of "abacus life's price"): the whole name; None when there is none. (Words before the
    read name may be the question's own: "who refereed man utd's last game?")"""
    key = loose_key(name).split()
    for match in _OWNER.finditer(" ".join(query.lower().split())):
        owner = _name_part(match[1], from_end=True)
        words = loose_key(owner).split()
        if key and len(words) > len(key) and words[: len(key)] == key:
            return owner
    return None


def _a_time(name: str) -> bool:
    """The name is a time expression ("2000-11-11", "last week"): the question's time, no name (a bare
    year may be a title: "1999", "1917")."""
    spans = [
        s for s in find_time_spans(name, _ANY_TIME) if s.relative or s.granularity in ("day", "week", "month")
    ]
    left = name.lower()
    for span in spans:
        left = left.replace(span.phrase, " ")
    return bool(spans) and not [
        w for w in _WORD_TOKEN.findall(left) if w not in vocabulary.NOT_NAME_WORDS and not w.isdigit()
    ]


def _the_question(name: str, query: str) -> bool:
    """The name holds most of the question's words (at least MIN_WORDS_OF_A_QUESTION): the question
    read as a name, not a name it writes."""
    words, own = _WORD_TOKEN.findall(query.lower()), set(_WORD_TOKEN.findall(name.lower()))
    return len(own) >= MIN_WORDS_OF_A_QUESTION and sum(w in own for w in words) >= QUESTION_SHARE * len(words)


def question_spans(query: str) -> list[str]:
    """The names a question writes itself, strongest first: quoted titles, runs of capitalised words,
    the options of "A or B", the owners before "'s" (each cut to its words that can be part of a name:
    `vocabulary.NOT_NAME_WORDS`)."""
    spans = [next(group for group in match.groups() if group) for match in _QUOTED.finditer(query)]
    spans += _capitalised_runs(query)
    lowered = " ".join(query.lower().split())
    for match in _OPTIONS.finditer(lowered):
        spans += [_name_part(match[1], from_end=True), _name_part(match[2], from_end=False)]
    spans += [_name_part(match[1], from_end=True) for match in _OWNER.finditer(lowered)]
    unique: dict[str, str] = {}
    for span in (s.strip(" ,.?!:;") for s in spans):
        if span and not _only_cue_words(span):
            unique.setdefault(loose_key(span), span)
    return list(unique.values())


def _only_cue_words(span: str) -> bool:
    return all(word in vocabulary.NOT_NAME_WORDS or word.isdigit() for word in loose_key(span).split())


def _name_part(run: str, from_end: bool) -> str:
    """The words of `run` next to the operator ("or", "'s") up to the first that is no part of a name."""
    words = run.split()
    kept: list[str] = []
    for word in reversed(words) if from_end else words:
        if loose_key(word) in vocabulary.NOT_NAME_WORDS or not loose_key(word):
            break
        kept.append(word)
    return " ".join(reversed(kept) if from_end else kept)


def _capitalised_runs(query: str) -> list[str]:
    """Runs of capitalised words, joined by the small words titles hold ("Pirates of the Caribbean");
    the question's capitalised first word and cue words at either end are left out."""
    runs: list[list[str]] = []
    current: list[str] = []
    for index, token in enumerate(query.split()):
        word = token.strip(',.?!:;()"')
        capital = (
            bool(_CAPITALISED.fullmatch(word)) or (bool(current) and word.isdigit())
        ) and word.lower() not in vocabulary.NOT_NAME_WORDS
        if capital and not (index == 0 and word.lower() in vocabulary.NOT_NAME_WORDS):
            current.append(word)
        elif current and word.lower() in ("of", "the", "and", "de", "la", "in", "on", "&") and token == word:
            current.append(word)
        else:
            runs.append(current)
            current = []
        if token != word and current:  # punctuation after the word ends the run
            runs.append(current)
            current = []
    runs.append(current)
    spans = []
    for run in runs:
        while run and run[-1].lower() in vocabulary.NOT_NAME_WORDS:
            run = run[:-1]
        if run:
            spans.append(" ".join(run))
    return spans


def ground_in_question(entities: KGEntities, query: str) -> tuple[KGEntities, list[Event]]:
    """The names the question writes (`_written`), with what a weak reader gets wrong repaired from the
    question itself: a name that describes ("the artist who won ...") is left to the relation that
    describes it, and a name the question does not write is replaced by the question's most similar
    span (`question_spans`), else dropped. The events say what was replaced or dropped."""
    events: list[Event] = []
    spans = question_spans(query)
    for kind in _LIST_FIELDS:
        names = []
        for name in getattr(entities, kind):
            if kind != "tickers" and _DESCRIBED.search(name.lower()):
                events.append(Event("fallback", "described entity left to its relation", repr(name)))
                continue
            if kind != "tickers" and (_a_time(name) or _the_question(name, query)):
                events.append(
                    Event("fallback", "a time or the question itself read as a name, dropped", repr(name))
                )
                continue
            if len(name.split()) == 1 and _only_cue_words(
                name
            ):  # "actors", "none": a kind of thing, not a name
                continue
            if kind != "tickers" and _an_award(name):
                events.append(Event("fallback", "an award read as a name, left to its relation", repr(name)))
                continue
            owner = _owner_holding(name, query)
            if owner is not None:
                names.append(owner)
                events.append(
                    Event("fallback", "name read extended to the question's own", f"{name!r} -> {owner!r}")
                )
                continue
            if _written(name, kind, query):
                names.append(name)
                continue
            similar = (
                max(spans, key=lambda span: name_score(name, span), default=None)
                if kind != "tickers"
                else None
            )
            if similar is not None and name_score(name, similar) >= MIN_SPAN_SIMILARITY:
                names.append(similar)
                events.append(
                    Event("fallback", "name read replaced by the question's own", f"{name!r} -> {similar!r}")
                )
            else:
                events.append(Event("fallback", "name read not in the question, dropped", repr(name)))
        setattr(entities, kind, list(dict.fromkeys(names)))
    return entities, events


def fill_from_question(entities: KGEntities, query: str, domain: str, max_items: int) -> list[Event]:
    """When the reader left the domain's own kinds empty (and named no chart rank), the question's own
    spans (`question_spans`) are filed under the domain's first kind; the event says so."""
    if _names_read(entities, query, domain):
        return []
    spans = question_spans(query)[:max_items]
    if not spans:
        return []
    setattr(entities, _DOMAIN_KINDS.get(domain, ("entities",))[0], spans)
    return [Event("fallback", "names taken from the question's own spans", ", ".join(map(repr, spans)))]


def search_question_words(entities: KGEntities, query: str, domain: str) -> list[Event]:
    """For a question that still names nothing and whose relation alone plans no call, in a domain whose
    names are searched: the question's words that can be part of a name, as one search (the KG's search
    is fuzzy; only a hit the question writes in full is taken: `matching.written_match`)."""
    if domain not in SEARCHED_DOMAINS or _names_read(entities, query, domain):
        return []
    words = name_words(query)
    if not words:
        return []
    setattr(entities, _DOMAIN_KINDS[domain][0], [words])
    return [Event("fallback", "the question's words searched as a name", repr(words))]


def written_whole(name: str, query: str) -> bool:
    """Every word of `name` that can be part of a name is a word of the question, or one misspelt
    ("copper meridan" writes Copper Meridian); at least four letters of them."""
    words = set(_WORD_TOKEN.findall(query.lower()))
    tokens = [t for t in _WORD_TOKEN.findall(name.lower()) if t not in vocabulary.NOT_NAME_WORDS]
    return sum(map(len, tokens)) >= 4 and all(
        t in words or (len(t) >= 4 and difflib.get_close_matches(t, words, n=1, cutoff=WORD_SIMILARITY))
        for t in tokens
    )


def name_words(query: str) -> str:
    """The question's words that can be part of a name (no cue words, months or number words), as one
    search query ("" when none is left)."""
    words = [
        w
        for w in _NAME_SEARCH_WORD.findall(query.lower())
        if loose_key(w) not in vocabulary.NOT_NAME_WORDS
        and w not in vocabulary.MONTH_NUMBERS
        and w not in vocabulary.NUMBER_WORDS
    ]
    return " ".join(words)


def _names_read(entities: KGEntities, query: str, domain: str) -> bool:
    """The domain's own kinds hold a name, or the question names a chart rank."""
    own = _DOMAIN_KINDS.get(domain, ("entities",)) + (("tickers",) if domain == "finance" else ())
    lowered = query.lower()
    return any(getattr(entities, kind) for kind in own) or bool(
        entities.rank or _RANK.search(lowered) or _TOP_SPOT.search(lowered)
    )

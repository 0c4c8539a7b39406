"""What a question asks the knowledge graph about: names per domain, read by the LLM as JSON.

The LLM output is constrained by `ENTITY_SCHEMA`; `parse_entities` still treats it as untrusted
(a reply that is not the expected JSON yields empty entities, never an exception). Cheap rules add
what needs no model: tickers written in the question, a chart rank, the sport.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from models.replies import find_json

_LIST_FIELDS = ("companies", "tickers", "movies", "people", "artists", "songs", "teams", "entities")

NBA_WORDS = re.compile(
    r"\b(nba|basketball|lakers|celtics|warriors|knicks|nets|bulls|heat|bucks|nuggets|suns|clippers|mavericks|"
    r"rockets|spurs|jazz|thunder|blazers|kings|pelicans|grizzlies|timberwolves|hawks|hornets|magic|pistons|"
    r"pacers|cavaliers|raptors|76ers|sixers|wizards|rebounds?|assists?|three-pointers?|free throws?)\b"
)
SOCCER_WORDS = re.compile(
    r"\b(soccer|premier league|la liga|bundesliga|serie a|ligue 1|champions league|fc|united|city|arsenal|"
    r"chelsea|liverpool|tottenham|everton|brentford|real madrid|barcelona|juventus|bayern|goals?|clean sheet)\b"
)
_TICKER = re.compile(r"(?:\$|\bticker\s+|\()([A-Z]{1,5}(?:\.[A-Z])?)\b|\b([A-Z]{2,5})\b")
_RANK = re.compile(r"(?:\bno\.?\s*|#|\bnumber\s+|\brank(?:ed)?\s+|\bposition\s+)(\d{1,3})\b|\b(\d{1,3})(?:st|nd|rd|th)\s+(?:place|spot|position)")
# Capitalised words that are also ticker symbols but almost never mean the stock in a question.
_NOT_TICKERS = {"USA", "UK", "EU", "AI", "ROI", "TV", "FC", "CEO", "CFO", "EPS", "ETF", "IPO", "GDP", "NBA", "NFL", "MVP"}
_TOP_SPOT = re.compile(
    r"\b(top spot|number one|no\.? ?1 spot|#1 spot|first place on the (?:billboard|chart)|"
    r"(?:at )?the top of the (?:billboard|hot 100|charts?)|topp(?:ed|ing|s) the (?:billboard|hot 100|charts?)|chart[- ]topp\w*)\b"
)


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


def entity_schema(max_items: int) -> dict[str, Any]:
    names = {"type": "array", "items": {"type": "string"}, "maxItems": max_items}
    properties: dict[str, Any] = {name: names for name in _LIST_FIELDS}
    properties["sport"] = {"type": "string", "enum": ["nba", "soccer", "none"]}
    properties["rank"] = {"type": "integer"}
    return {"type": "object", "properties": properties, "required": [*_LIST_FIELDS, "sport", "rank"]}


def parse_entities(text: str, max_items: int) -> tuple[KGEntities, str | None]:
    """Entities from the LLM's JSON reply, plus an error message when the reply was unusable."""
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
    return entities, None


def add_rule_entities(entities: KGEntities, query: str, known_tickers: set[str]) -> KGEntities:
    """Fill in what rules can read off the question text without the LLM."""
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
    others = [name for kind in _LIST_FIELDS if kind not in kinds and kind != "tickers" for name in getattr(entities, kind)]
    setattr(entities, kinds[0], list(dict.fromkeys(others)))
    # The open-domain kind is the reader's catch-all: its names, filed under the domain's kind now, are
    # not also looked up in the open KG, whose look-alike entries would be near misses. The other
    # domains' kinds stay, in case the predicted domain is the wrong one.
    if domain != "open":
        entities.entities = []
    return entities


def keep_grounded(entities: KGEntities, query: str) -> KGEntities:
    """Names the question actually writes: a ticker as a word of it, any other name with half of its
    words or one long word in it ("Los Angeles Lakers" for "the lakers" passes, a name the model
    invented does not)."""
    words = set(re.findall(r"[a-z0-9]+", query.lower()))
    for kind in _LIST_FIELDS:
        kept = []
        for name in getattr(entities, kind):
            tokens = re.findall(r"[a-z0-9]+", name.lower())
            if kind == "tickers":
                grounded = len(tokens) == 1 and tokens[0] in words
            else:
                grounded = bool(tokens) and (
                    sum(t in words for t in tokens) * 2 >= len(tokens) or any(len(t) >= 4 and t in words for t in tokens)
                )
            if grounded:
                kept.append(name)
        setattr(entities, kind, kept)
    return entities

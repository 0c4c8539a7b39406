"""One question's view of the knowledge graph while the stage runs: what it asks (its names and its
reading, models/kg/intent.py) and what the API has answered so far. Every domain plans from it and
renders from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from models.config import KGConfig
from models.kg.client import CallResult
from models.kg.entities import KGEntities
from models.kg.intent import Intent
from models.kg.matching import CompanyDirectory, best_match, name_score
from models.kg.routes import ApiCall
from models.kg.timeparse import parse_query_time
from models.schema import Event

NAME_KINDS = ("companies", "movies", "people", "artists", "songs", "teams", "entities")


@dataclass
class QuestionState:
    query: str
    query_time: str
    domain: str
    entities: KGEntities = field(default_factory=KGEntities)
    results: dict[tuple[str, str], CallResult] = field(default_factory=dict)
    issued: set[tuple[str, str]] = field(default_factory=set)
    events: list[Event] = field(default_factory=list)  # names the KG lacks, calls left out
    problems: list[str] = field(default_factory=list)  # failures: unreadable LLM reply, failed API calls
    # Names the LLM read may be filed under the wrong kind of their domain (a film as a person, a
    # song as an artist): such a name is looked up as the other kind when its own search misses.
    other_kind_on_miss: bool = False
    intent: Intent | None = None  # the one reading of the question (models/kg/intent.py)
    meaning: dict[str, float] = field(default_factory=dict)  # relation -> cosine with its descriptions
    named: dict[str, str] = field(default_factory=dict)  # the relation and the operation the LLM named
    # each asked name the KG matched: (its KG spelling, how alike the two are, 0-1)
    matched: dict[str, tuple[str, float]] = field(default_factory=dict)
    # call units a planner needs beyond the question's cap (the works it dates), within its own cap
    allowance: int = 0

    @property
    def reading(self) -> Intent:
        """The question's Intent (read before any domain plans)."""
        if self.intent is None:
            raise RuntimeError("the KG question was not read into an Intent before planning")
        return self.intent

    @property
    def today(self) -> date | None:
        moment = parse_query_time(self.query_time)
        return moment.date() if moment else None

    def record(self, outcome: CallResult) -> None:
        self.results[outcome.call.key] = outcome

    def answer(self, route: str, **body: Any) -> tuple[bool, Any]:
        """(answered, result) of `route(**body)`: answered is False until the call came back ok."""
        outcome = self.results.get(ApiCall(route, body).key)
        return (True, outcome.result) if outcome is not None and outcome.ok else (False, None)

    def done(self, route: str, **body: Any) -> bool:
        """True once `route(**body)` was sent and has come back, whatever the outcome."""
        return ApiCall(route, body).key in self.results

    def answered(self, route: str) -> list[CallResult]:
        """Every call of `route` that came back ok, in the order they were made."""
        return [r for r in self.results.values() if r.call.route == route and r.ok]

    def spelling(self, search_route: str, name: str, min_similarity: float) -> tuple[bool, str | None]:
        """(the search was made, the KG's own spelling of `name` among its hits: the most similar, else
        one the question writes in full)."""
        answered, hits = self.answer(search_route, query=name)
        if not answered or not isinstance(hits, list):
            return self.done(search_route, query=name), None
        names = [h for h in hits if isinstance(h, str)]
        similar = best_match(name, names, min_similarity)
        if similar is not None:
            self.note_match(name, similar)
            return True, similar
        written = self.reading.written_among(name, names)
        if written is not None:
            self.note_match(name, written, 1.0)  # the question writes the KG's name in full
        return True, written

    def note_match(self, asked: str, found: str, score: float | None = None) -> None:
        """`asked` was matched to the KG's `found` (by their similarity unless `score` says otherwise)."""
        self.matched[asked] = (found, name_score(asked, found) if score is None else score)

    def keep_asked_kind(self, kinds: tuple[str, str], wants: tuple[bool, bool]) -> None:
        """A name the reader filed under both kinds of a domain (an artist and a song, a person and a
        film) stays under the kind the reading asks about (`wants`: its signals of either kind), so
        that one search is made, not two (`other_kind_on_miss` still tries the other kind if that
        search misses); under both when the reading points at neither or at both."""
        first, second = (getattr(self.entities, kind) for kind in kinds)
        if wants[0] == wants[1]:
            return
        keep, drop = (first, second) if wants[0] else (second, first)
        drop[:] = [name for name in drop if name not in keep]

    def absent(self, search_route: str, name: str, min_similarity: float) -> bool:
        """True when a search answered and none of its hits is `name` (not when the call failed)."""
        answered, _ = self.answer(search_route, query=name)
        return answered and self.spelling(search_route, name, min_similarity)[1] is None


@dataclass
class PlanContext:
    config: KGConfig
    directory: CompanyDirectory


@dataclass
class Evidence:
    """A domain's rendered references for one question; whether any of them is about the asked
    entity and time (a "no game on that date" line counts; an unresolved name does not); whether one
    says that what the question assumes did not happen (no game of the team that day, no trading
    that day, the song not on that chart); and the asked names the KG has no record of."""

    blocks: list[str] = field(default_factory=list)
    found: bool = False
    contradicts: bool = False
    unmatched: list[str] = field(default_factory=list)

    def add(self, block: str, found: bool = True, contradicts: bool = False) -> None:
        if block and block not in self.blocks:
            self.blocks.append(block)
            self.found = self.found or found
            self.contradicts = self.contradicts or (contradicts and found)

    def miss(self, name: str, block: str) -> None:
        """`name` was searched and the KG holds no record of it; `block` says so."""
        self.add(block, found=False)
        if name not in self.unmatched:
            self.unmatched.append(name)

    def extend(self, other: "Evidence") -> None:
        for block in other.blocks:
            if block not in self.blocks:
                self.blocks.append(block)
        self.found = self.found or other.found
        self.contradicts = self.contradicts or other.contradicts
        self.unmatched += [name for name in other.unmatched if name not in self.unmatched]

"""Data passed between stages: what a question is, and what each stage hands the next."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from models.llm.base import TokenUsage

# What a stage did short of its normal work: "routed" (a question answered or held by a rule),
# "skipped" (the stage did not run for it), "degraded" (it ran with less: capped, cut, shortened),
# "fallback" (a second way was taken) or "failed" (it produced nothing usable for the question).
EventKind = Literal["routed", "skipped", "degraded", "fallback", "failed"]
EVENT_KINDS: tuple[EventKind, ...] = ("routed", "skipped", "degraded", "fallback", "failed")


@dataclass(frozen=True)
class Event:
    """One such thing, as a stage reports it: `what` is a fixed label (counted by the report),
    `detail` the particulars (a page name, a count, an error message)."""

    kind: EventKind
    what: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.what}: {self.detail}" if self.detail else self.what


@dataclass(frozen=True)
class TraceEvent:
    """An event in a question's trace: the stage it happened in, and the event."""

    stage: str
    kind: EventKind
    what: str
    detail: str = ""

    @classmethod
    def of(cls, stage: str, event: Event) -> "TraceEvent":
        return cls(stage, event.kind, event.what, event.detail)

    @property
    def label(self) -> str:
        """What the report counts: "<stage> <what>"."""
        return f"{self.stage} {self.what}"


@dataclass(kw_only=True)
class StageResult:
    """What every stage hands back for each question besides its own output: the LLM tokens it
    spent on it, why it failed for it (None: it did not), and its events."""

    usage: TokenUsage = field(default_factory=TokenUsage)
    error: str | None = None
    events: list[Event] = field(default_factory=list)


@dataclass
class SearchResult:
    page_name: str = ""
    page_url: str = ""
    page_snippet: str = ""
    page_result: str = ""
    page_last_modified: str = ""

    @classmethod
    def from_dict(cls, raw: Any) -> "SearchResult":
        if not isinstance(raw, dict):
            return cls()
        return cls(**{name: _as_text(raw.get(name)) for name in cls.__dataclass_fields__})


@dataclass
class Question:
    interaction_id: str
    query: str
    query_time: str
    search_results: list[SearchResult] = field(default_factory=list)

    @classmethod
    def from_batch(cls, batch: dict[str, list[Any]]) -> list["Question"]:
        """The official batch (a dict of equal-length lists) as a list of questions."""
        queries = batch.get("query") or []
        count = len(queries)
        ids = batch.get("interaction_id") or [str(i) for i in range(count)]
        times = batch.get("query_time") or [""] * count
        pages = batch.get("search_results") or [[] for _ in range(count)]
        return [
            cls(
                interaction_id=_as_text(ids[i]),
                query=_as_text(queries[i]),
                query_time=_as_text(times[i]),
                search_results=[SearchResult.from_dict(p) for p in (pages[i] or [])],
            )
            for i in range(count)
        ]


@dataclass
class QuestionAttributes(StageResult):
    """`error`: why these are defaults rather than a prediction."""

    domain: str = "open"
    domain_probabilities: dict[str, float] = field(default_factory=dict)
    dynamism: str = "static"  # static, slow-changing, fast-changing, real-time
    dynamic_probability: float = 0.0  # P(not static)
    dynamism_probabilities: dict[str, float] = field(default_factory=dict)  # the 4-class estimate


@dataclass
class PageUse:
    """One page of a question, as its trace shows it: parsed in full (`read`) or not, and what it
    gave retrieval: candidates pooled, candidates shortlisted for dense scoring, units kept in the
    references (a sentence with its context, a table row, a table)."""

    name: str
    read: bool = True
    candidates: int = 0
    shortlisted: int = 0
    kept: int = 0


@dataclass
class Evidence(StageResult):
    """What retrieval hands the reasoning prompt for one question (`usage`: the LLM relevance
    estimator's; `events`: work left out for time)."""

    chunks: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    # Relevance of the best candidate (estimator probability, else cosine); None when nothing was scored.
    # A low value flags a question the pages probably cannot answer (RE-RAG).
    top_relevance: float | None = None
    # Per page of the question, in order: what it gave (empty when retrieval did not run on pages).
    pages: list[PageUse] = field(default_factory=list)

    @property
    def references(self) -> list[str]:
        return self.chunks + self.tables


@dataclass
class QuestionPlan(StageResult):
    """Which optional stages run for one question (models/plan.py), and the signals that decided it."""

    kg: bool = True
    calculator: bool = True
    knowledge: bool = True
    signals: list[str] = field(default_factory=list)  # "calculator: counting (how many)", "plan off", ...


@dataclass
class QuestionTrace:
    """What `CragSystem` records per question after each batch (`CragSystem.last_traces`)."""

    interaction_id: str
    prediction: str = ""
    references: list[str] = field(default_factory=list)  # exact texts given to the reasoning prompt
    timings: dict[str, float] = field(default_factory=dict)  # stage -> seconds (stage share of the batch)
    tokens: dict[str, TokenUsage] = field(default_factory=dict)  # stage -> LLM usage for this question
    attributes: QuestionAttributes | None = None
    plan: QuestionPlan | None = None  # None: the question was answered before the plan was made
    # Why the question was answered or refused: "answered", "empty query", "refused: dynamic",
    # "refused: dynamic, no KG evidence", "answered: dynamic, from KG evidence", "refused: out of time".
    route: str = ""
    routing: str = ""  # the routing policy's reckoning: expected score, the class that decided, its P
    events: list[TraceEvent] = field(default_factory=list)  # routing, skipped stages, degradations, failures
    pages: list[PageUse] = field(default_factory=list)  # each page: read or not, what it gave retrieval
    reasoning: str = ""  # the reasoning reply's own words (why it answered so), "" when it did not run

    @property
    def failures(self) -> dict[str, str]:
        """Stage -> why it failed for this question (its first failure)."""
        failed: dict[str, str] = {}
        for event in self.events:
            if event.kind == "failed":
                failed.setdefault(event.stage, event.detail)
        return failed

    def as_dict(self) -> dict[str, Any]:
        """The trace as predictions.jsonl holds it (the prediction aside)."""
        return {
            "references": list(self.references),
            "timings": dict(self.timings),
            "tokens": {stage: asdict(usage) for stage, usage in self.tokens.items()},
            "attributes": asdict(self.attributes) if self.attributes is not None else None,
            "plan": asdict(self.plan) if self.plan is not None else None,
            "failures": self.failures,
            "route": self.route,
            "routing": self.routing,
            "events": [asdict(event) for event in self.events],
            "pages": [asdict(page) for page in self.pages],
            "reasoning": self.reasoning,
        }


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)

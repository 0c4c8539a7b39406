"""Data passed between stages: what a question is, and what each stage hands the next."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from models.llm.base import TokenUsage


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
class QuestionAttributes:
    domain: str = "open"
    domain_probabilities: dict[str, float] = field(default_factory=dict)
    dynamism: str = "static"  # static, slow-changing, fast-changing, real-time
    dynamic_probability: float = 0.0  # P(not static)
    error: str | None = None  # why these are defaults rather than a prediction


@dataclass
class Evidence:
    """What retrieval hands the reasoning prompt for one question."""

    chunks: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    # Relevance of the best candidate (estimator probability, else cosine); None when nothing was scored.
    # A low value flags a question the pages probably cannot answer (RE-RAG).
    top_relevance: float | None = None
    usage: TokenUsage = field(default_factory=TokenUsage)  # the LLM relevance estimator's cost
    notes: list[str] = field(default_factory=list)  # work left out for time (fallbacks short of a failure)

    @property
    def references(self) -> list[str]:
        return self.chunks + self.tables


@dataclass
class QuestionPlan:
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
    failures: dict[str, str] = field(default_factory=dict)  # stage -> why it failed for this question
    # Why the question was answered or refused: "answered", "empty query", "refused: dynamic",
    # "refused: dynamic, no KG evidence", "answered: dynamic, from KG evidence".
    route: str = ""
    notes: list[str] = field(default_factory=list)  # routing decisions and deadline degradations


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)

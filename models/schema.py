"""Data passed between stages: what a question is, and what each stage hands the next."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any, Literal

from models.llm.base import TokenUsage

# What a stage did short of its normal work: "routed" (a question answered or held by a rule),
# "skipped" (the stage did not run for it), "degraded" (it ran with less: capped, cut, shortened),
# "fallback" (a second way was taken) or "failed" (it produced nothing usable for the question).
EventKind = Literal["routed", "skipped", "degraded", "fallback", "failed"]
EVENT_KINDS: tuple[EventKind, ...] = ("routed", "skipped", "degraded", "fallback", "failed")


class Route(StrEnum):
    """Why a question got its final answer: the answer policy's decision (models/policy.py), one per
    question, in its trace and counted by the reports. The values are the trace's words."""

    ANSWERED = "answered"
    FROM_KG = "answered: dynamic, from KG evidence"
    RETRIED = "answered: asked again for the form its question asks"
    COMPUTED_KEPT = "answered: the KG's computed answer over the model's"
    COMPUTED_OVER_DECLINE = "answered: the KG's computed answer where the model declined"
    COMPUTED_NO_REPLY = "answered: the KG's computed answer, no reasoning reply"
    KNOWLEDGE_OVER_DECLINE = "answered: the model's own answer where the reasoning declined"
    INVALID_PREMISE = "invalid question: the KG's facts contradict the question"
    PREMISE_OVERRULED = "refused: a false premise the KG's facts do not show"
    EMPTY_QUERY = "empty query"
    REFUSED_DYNAMIC = "refused: dynamic"
    NO_KG_EVIDENCE = "refused: dynamic, no KG evidence"
    NOT_IN_KG = "refused: asked entity not in the KG, no other evidence"
    WRONG_FORM = "refused: answer of the wrong form"
    REFUSED_WORTH = "refused: answers of its kind are worth less than a refusal"
    OUT_OF_TIME = "refused: out of time"
    FAILED = "refused: the reasoning failed"


# How the reasoning stage left a question: not reached ("none"), answered (a parsed reply, a brief
# reply after a cut, a backup answer, or a reply without an answer), cut by the deadline before its
# answer, not asked for want of time, or failed (the stage raised or was skipped for it).
ReplyState = Literal["none", "answered", "cut", "no time", "failed"]


@dataclass
class Findings:
    """What the answer policy decides on (models/policy.py), read from a question's record
    (models/pipeline.py:QuestionRecord.findings): what each stage found, nothing decided. The trace
    keeps it, so that `python -m tools.fit` replays the policy under other parameters."""

    query: str = ""
    domain: str | None = None  # the predicted domain; None: no attributes predicted
    classes: dict[str, float] = field(default_factory=dict)  # P(class) of the four dynamism classes
    kg_evidence: bool = False  # the KG returned facts about the asked entity and time
    kg_computed: str | None = None  # the answer the KG's facts decide (models/kg/answer.py)
    kg_contradicts: bool = False  # the KG's facts say what the question assumes did not happen
    kg_unmatched: list[str] = field(default_factory=list)  # asked names the KG has no record of
    web_evidence: bool = False  # retrieval kept web references for the reasoning prompt
    knowledge_shown: bool = False  # the reasoning prompt showed the knowledge extractor's answer
    knowledge_answer: str | None = None  # the extractor's own answer, where it was asked
    reply_state: ReplyState = "none"
    reply: str | None = None  # the reasoning's answer (reply_state "answered")
    checked: str | None = None  # the answer the answer check read
    form: str | None = None  # the constraint kind it broke (models/answer_check.py), None: it kept it
    violation: str | None = None  # how it broke it
    retried: str | None = None  # the answer asked again, when the check asked
    retry_problem: str | None = None  # why no retried answer stands (failed, broke the form again, no time)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Findings":
        """The findings of a trace's JSON (`as_dict`); unknown keys are an error."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"findings name unknown fields {unknown}; known: {sorted(known)}")
        return cls(**data)


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
    route: Route | None = None  # why the question got its answer (the answer policy's decision)
    routing: str = ""  # the routing's reckoning: expected worth, the class that decided, its P
    findings: Findings | None = None  # what the answer policy decided on
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
            "route": self.route.value if self.route is not None else "",
            "routing": self.routing,
            "findings": asdict(self.findings) if self.findings is not None else None,
            "events": [asdict(event) for event in self.events],
            "pages": [asdict(page) for page in self.pages],
            "reasoning": self.reasoning,
        }


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)

"""The machinery that runs a declared list of stages over one batch.

A batch is a list of `QuestionRecord`s, one per question: each stage reads the fields it needs and
writes its own. A stage is an entry of the list (`Stage`, models/stages.py declares them): its name,
when it runs for a question (`runs_for`, the plan's rule), how it calls the LLM (`shapes`), what a
question gets when it fails or is skipped (`fallback`), and the time it needs when it comes later
(`reserve`). `BatchRun` takes the stages in order; for each it picks the open questions its rule
selects, derives the time to keep free for the stages after it from their entries, skips an
optional stage that does not fit, runs it under that time limit, and records its timing, tokens
and events in each question's trace. Stages raise on failure; `BatchRun.call` is the one place
failures are contained: the stage's questions get its fallback and the batch goes on. Stages only
record what they found: after each stage's turn the answer policy (models/policy.py) closes the
questions its rules decide there, and after the last it answers the rest.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Any, Callable, ClassVar, Generic, Sequence, TypeVar

from loguru import logger

from models.answers import I_DONT_KNOW
from models.attributes.policy import class_probabilities
from models.calculator import CalculationResult
from models.config import CragConfig
from models.deadline import BatchDeadline, LLMStageShape, Planned
from models.kg import KGResult
from models.knowledge import KnowledgeAnswer
from models.llm import LLMBackend, TokenUsage
from models.llm.base import TimeLimit
from models.reasoning import ReasoningResult
from models.embeddings import SentenceEncoder
from models.plan import Planner
from models.policy import AnswerPolicy, Decision
from models.prompts import PromptLibrary
from models.schema import (
    EventKind,
    Evidence,
    Findings,
    PageUse,
    Question,
    QuestionAttributes,
    QuestionPlan,
    QuestionTrace,
    ReplyState,
    StageResult,
    TraceEvent,
)
from models.web import Page

R = TypeVar("R", bound=StageResult)
C = TypeVar("C")

STAGE_FAILED = "failed"  # the `what` of a stage's failure (it raised, or its result has an error)


@dataclass
class FormCheck:
    """The answer check's reading of one answer that broke the form its question asks for."""

    answer: str  # the answer checked (the one the policy proposed)
    form: str  # the constraint kind it broke
    violation: str  # how
    retried: str | None = None  # the answer asked again, when it was asked
    # why no retried answer stands (no retry, no time, the retry failed, it broke the form again)
    retry_problem: str | None = None


@dataclass
class QuestionRecord:
    """One question on its way through the stages: what each stage found. `answer` stays None while
    the question is open; the answer policy alone sets it (`conclude`)."""

    question: Question
    attributes: QuestionAttributes | None = None
    # Held for the KG by the policy: likely dynamic, answered only from KG facts (policy.kg_answers_dynamic).
    waits_for_kg: bool = False
    kg: KGResult | None = None
    pages: list[Page] = field(default_factory=list)
    evidence: Evidence = field(default_factory=Evidence)  # the web evidence the reasoning prompt shows
    kg_lines: list[str] = field(default_factory=list)  # KG facts shown in their own section of the prompt
    plan: QuestionPlan | None = None
    calculation: CalculationResult | None = None
    knowledge: KnowledgeAnswer | None = None  # the extractor's answer shown to the reasoning
    unshown_knowledge: KnowledgeAnswer | None = None  # its answer asked while observing, not shown
    reasoning: ReasoningResult | None = None
    reply_state: ReplyState = "none"
    check: FormCheck | None = None
    answer: str | None = None
    trace: QuestionTrace = field(init=False)

    def __post_init__(self) -> None:
        self.trace = QuestionTrace(interaction_id=self.question.interaction_id)

    @property
    def is_open(self) -> bool:
        return self.answer is None

    @property
    def shown_evidence(self) -> Evidence:
        """The evidence with the KG lines first, as the plan and the calculator read them."""
        return replace(self.evidence, chunks=self.kg_lines + self.evidence.chunks)

    def findings(self) -> Findings:
        """What the stages found so far, as the answer policy reads it."""
        attributes, kg, check = self.attributes, self.kg, self.check
        known = self.knowledge or self.unshown_knowledge
        answered = self.reasoning is not None and self.reply_state == "answered"
        return Findings(
            query=self.question.query,
            domain=attributes.domain if attributes is not None else None,
            classes=class_probabilities(attributes) if attributes is not None else {},
            kg_evidence=kg is not None and kg.has_evidence,
            kg_computed=kg.computed.value if kg is not None and kg.computed is not None else None,
            kg_contradicts=kg is not None and kg.contradicts,
            kg_unmatched=list(kg.unmatched) if kg is not None else [],
            web_evidence=bool(self.evidence.references),
            knowledge_shown=self.knowledge is not None,
            knowledge_answer=known.answer if known is not None and known.error is None else None,
            reply_state=self.reply_state,
            reply=self.reasoning.answer if answered and self.reasoning is not None else None,
            checked=check.answer if check is not None else None,
            form=check.form if check is not None else None,
            violation=check.violation if check is not None else None,
            retried=check.retried if check is not None else None,
            retry_problem=check.retry_problem if check is not None else None,
        )

    def conclude(self, decision: Decision, stage: str) -> None:
        """The answer policy's decision, made after `stage`'s turn: the question is closed."""
        self.answer = decision.answer
        self.trace.route = decision.route
        if decision.what:
            self.note(stage, decision.kind, decision.what, decision.detail)

    def note(self, stage: str, kind: EventKind, what: str, detail: str = "") -> None:
        self.trace.events.append(TraceEvent(stage, kind, what, detail))

    def finished_trace(self) -> QuestionTrace:
        trace = self.trace
        trace.prediction = self.answer if self.answer is not None else I_DONT_KNOW
        trace.attributes, trace.plan = self.attributes, self.plan
        trace.findings = self.findings()
        trace.pages = self.evidence.pages or [PageUse(page.page_name, page.read) for page in self.pages]
        if self.reasoning is not None:
            trace.references = list(self.reasoning.prompt_references)
            trace.reasoning = self.reasoning.reasoning
        return trace


@dataclass
class Parts:
    """What the stages are built from: the configuration and the pieces they share (the answer
    policy is the configuration's)."""

    config: CragConfig
    llm: LLMBackend | None
    prompts: PromptLibrary
    encoder: SentenceEncoder
    planner: Planner
    policy: AnswerPolicy = field(init=False)

    def __post_init__(self) -> None:
        self.policy = AnswerPolicy.from_config(self.config)

    def with_llm(self, enabled: bool, build: Callable[[LLMBackend], C]) -> C | None:
        """`build(llm)` for a stage that is on and has an LLM to call; None otherwise."""
        return build(self.llm) if enabled and self.llm is not None else None


@dataclass
class StageCall:
    """One stage's call for a batch: under `name` (timings, tokens, costs), for `records`, doing `work`
    under the time limit it is given."""

    name: str
    records: list[QuestionRecord]
    work: Callable[[TimeLimit], Sequence[StageResult]]


class Stage(ABC, Generic[R]):
    """An entry of the pipeline. Building it builds its component from `Parts` (None when the
    configuration turns the stage off: the entry then only routes, in `finish`)."""

    name: ClassVar[str]
    # Optional stages are skipped, for all their questions, when they and the later stages' reserve
    # do not fit the time left; a required stage keeps the least form of the later stages free.
    optional: ClassVar[bool] = False
    # Seconds per question outside the LLM, and prompt tokens per question of an LLM stage, until
    # measured (None: no seed, the first measurement stands); `budget.initial_*` override them.
    seed_seconds: ClassVar[float | None] = None
    seed_prompt_tokens: ClassVar[float | None] = None

    component: Any = None

    def __init__(self, parts: Parts) -> None:
        self.config = parts.config

    @classmethod
    def shapes(cls, config: CragConfig) -> dict[str, LLMStageShape]:
        """How the stage calls the LLM under `config`, by call name (none: no LLM call)."""
        return {}

    def runs_for(self, record: QuestionRecord) -> bool | None:
        """Whether the stage runs for this open question; None: not known yet (its rule reads what
        an earlier stage has still to write)."""
        return True

    def select(self, records: list[QuestionRecord]) -> list[QuestionRecord]:
        """The questions of the batch the stage runs for: the open ones its rule picks. (A stage
        after the reasoning, checking or retrying answers, would pick answered ones.)"""
        return [record for record in records if record.is_open and self.runs_for(record)]

    def reserve(self, records: list[QuestionRecord], least: bool) -> list[Planned]:
        """The time to keep free for this stage while an earlier one runs, for the `records` it will
        run for; `least`: only what the batch cannot do without (an optional stage: nothing)."""
        if least and self.optional:
            return []
        return [Planned(self.name, len(records))]

    def plan_call(
        self, records: list[QuestionRecord], deadline: BatchDeadline, later: list[Planned]
    ) -> StageCall | None:
        """The call for `records`, given the reserve of the stages after it (None: no call)."""
        return StageCall(self.name, records, lambda limit: self.run(records, limit))

    def run(self, records: list[QuestionRecord], limit: TimeLimit) -> Sequence[R]:
        """One result per record, in order, within `limit`; raises on failure. (A stage that plans
        its own call in `plan_call` need not have it.)"""
        raise NotImplementedError(f"stage {self.name} plans its own call")

    def fallback(self) -> R | None:
        """What a question gets when the stage failed or was skipped for it."""
        return None

    @abstractmethod
    def write(self, record: QuestionRecord, result: R | None) -> None:
        """Write the stage's result (or its fallback) into the record."""

    def finish(self, records: list[QuestionRecord]) -> None:
        """What the stage notes once it has had its turn, over the questions still open."""


class BatchRun:
    """One batch: the records, the deadline, the stages taken in order and the answer policy
    consulted after each."""

    def __init__(
        self,
        records: list[QuestionRecord],
        stages: Sequence[Stage[Any]],
        deadline: BatchDeadline,
        llm: LLMBackend | None,
        clock: Callable[[], float],
        policy: AnswerPolicy,
    ):
        self.records = records
        self.stages = list(stages)
        self.deadline = deadline
        self.llm = llm
        self.clock = clock
        self.policy = policy

    def run(self) -> list[QuestionTrace]:
        for stage in self.stages:
            self.turn(stage)
        self.policy.finish(self.records)
        return [record.finished_trace() for record in self.records]

    def open_records(self) -> list[QuestionRecord]:
        return [record for record in self.records if record.is_open]

    def turn(self, stage: Stage[Any]) -> None:
        records = stage.select(self.records)
        if stage.component is not None and records:
            later = self.reserve_after(stage)
            if stage.optional and not self.deadline.fits(stage.name, len(records), later):
                for record in records:
                    record.note(stage.name, "skipped", "skipped to meet the deadline")
                    stage.write(record, stage.fallback())
            else:
                call = stage.plan_call(records, self.deadline, later)
                if call is not None and call.records:
                    results = self.call(call, later)
                    for i, record in enumerate(call.records):
                        stage.write(record, results[i] if results is not None else stage.fallback())
        stage.finish(self.open_records())
        self.policy.settle(self.open_records(), after=stage.name)

    def reserve_after(self, stage: Stage[Any]) -> list[Planned]:
        """The reserve of the stages after `stage`, each for the open questions it will run for (an
        optional stage whose rule cannot be read yet reserves nothing): their full time while an
        optional stage runs, their least while a required one does."""
        later = self.stages[self.stages.index(stage) + 1 :]
        reserve: list[Planned] = []
        for after in later:
            if after.component is None:
                continue
            reaching = after.select(self.records)
            if reaching:
                reserve += after.reserve(reaching, least=not stage.optional)
        return reserve

    def call(self, call: StageCall, later: Sequence[Planned]) -> list[StageResult] | None:
        """Run `call` under the time limit the `later` stages leave, and record it. A stage that
        raises is recorded as failed for all its questions (None: they get its fallback); a result
        carrying an `error` marks its own question only."""
        limit = self.deadline.limit(later)
        started, engine_before = self.clock(), self.deadline.speed.engine_seconds
        try:
            with self.llm.limited(limit) if self.llm is not None else nullcontext():
                results = list(call.work(limit))
            if len(results) != len(call.records):
                raise RuntimeError(f"returned {len(results)} results for {len(call.records)} questions")
        except Exception as error:  # the one place failures are contained: never lose the batch
            logger.exception(
                f"Stage {call.name} failed for {len(call.records)} questions; they go on without it"
            )
            for record in call.records:
                record.note(call.name, "failed", STAGE_FAILED, f"{type(error).__name__}: {error}")
            self._timed(call.name, call.records, started, [None] * len(call.records), engine_before)
            return None
        self._timed(call.name, call.records, started, [result.usage for result in results], engine_before)
        for record, result in zip(call.records, results):
            if result.usage.calls:
                record.trace.tokens[call.name] = result.usage
            record.trace.events += [TraceEvent.of(call.name, event) for event in result.events]
            if result.error:
                logger.warning(
                    f"Stage {call.name} failed for question {record.trace.interaction_id}: {result.error}"
                )
                record.note(call.name, "failed", STAGE_FAILED, result.error)
        return results

    def _timed(
        self,
        name: str,
        records: list[QuestionRecord],
        started: float,
        usages: list[TokenUsage | None],
        engine_before: float,
    ) -> None:
        seconds = self.clock() - started
        engine = (
            self.deadline.speed.engine_seconds - engine_before
        )  # what the engine's steps took in the call
        self.deadline.costs.observe(self.deadline.speed, name, seconds, usages, engine)
        for record in records:
            record.trace.timings[name] = seconds / len(records)

"""The declared list of stages (`STAGES`), in the order a question meets them.

Each entry binds one component (a module with typed inputs and outputs) to the fields of the
question's record it reads and writes, and declares when it runs for a question, how it calls the
LLM, its fallback, and its seeds in the deadline's cost model. `models/pipeline.py` runs the list.
Adding a stage is adding an entry here (and its module); its reserve in the deadline, its costs,
its place in `--budget-report` and `tools/validate.py` follow from the entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from loguru import logger

from models.answer_check import AnswerChecker, RetriedAnswer, Violation, violates
from models.attributes import AttributePredictor
from models.calculator import CalculationResult, Calculator
from models.config import CragConfig
from models.deadline import (
    BRIEF_REASONING,
    BatchDeadline,
    LLMStageShape,
    Planned,
    ReasoningForm,
    ReasoningPlan,
    StageCosts,
)
from models.kg import KGResult, KnowledgeGraphStage, sources_for
from models.knowledge import KnowledgeAnswer, KnowledgeExtractor
from models.llm.base import TimeLimit
from models.pipeline import FormCheck, Parts, QuestionRecord, Stage, StageCall
from models.policy import COMPUTED_KEPT, COMPUTED_OVER_DECLINE, FALSE_PREMISE_OVERRULED, AnswerPolicy
from models.reasoning import BACKUP_CALL, Affordable, Reasoner, ReasoningResult
from models.retrieval import Retriever
from models.retrieval.pages import PageTriage
from models.schema import Evidence, QuestionAttributes, QuestionPlan, Route
from models.web import PageExtractor
from models.web.page import WebPages

REPLY_CUT = "reply cut by the deadline"
WRONG_FORM_ASKED_AGAIN = "answer of the wrong form asked again"
NO_TIME_LEFT = "no time left"
# benchmarks/kg_system.py reads the policy's event labels and this route from here.
__all__ = ["COMPUTED_KEPT", "COMPUTED_OVER_DECLINE", "FALSE_PREMISE_OVERRULED", "NOT_IN_KG_ROUTE", "STAGES"]
NOT_IN_KG_ROUTE = Route.NOT_IN_KG


class AttributeStage(Stage[QuestionAttributes]):
    """Domain and dynamism; the answer policy then refuses at once an empty query and a question
    whose expected answer worth is too low, or holds it for the KG in the domains the KG answers."""

    name = "attributes"
    seed_seconds = 0.05

    @classmethod
    def shapes(cls, config: CragConfig) -> dict[str, LLMStageShape]:
        attributes = config.attributes
        if not attributes.enabled or attributes.method != "llm":
            return {}
        return {
            cls.name: LLMStageShape(attributes.llm_samples, attributes.llm_max_tokens, True, "attributes")
        }

    def __init__(self, parts: Parts) -> None:
        super().__init__(parts)
        attributes = parts.config.attributes
        # The retrieval encoder when the classifier was trained on the same one; else the predictor
        # loads its own (t4x4 retrieves with sentence-t5-large, the classifier reads MiniLM).
        shared = (
            parts.encoder if attributes.embedding_model == parts.config.retrieval.embedding_model else None
        )
        self.component: AttributePredictor | None = (
            AttributePredictor(attributes, shared, parts.llm, parts.prompts) if attributes.enabled else None
        )

    def run(self, records: list[QuestionRecord], limit: TimeLimit) -> Sequence[QuestionAttributes]:
        assert self.component is not None
        return self.component.run([record.question for record in records])

    def write(self, record: QuestionRecord, result: QuestionAttributes | None) -> None:
        record.attributes = result


class KGStage(Stage[KGResult]):
    """Tasks 2-3: the KG's facts for the questions the plan asks it about; the answer policy then
    refuses the questions held for them that got no facts about the asked entity and time."""

    name = "kg"
    optional = True
    seed_seconds = 1.0
    seed_prompt_tokens = 410.0

    @classmethod
    def shapes(cls, config: CragConfig) -> dict[str, LLMStageShape]:
        if not config.kg.enabled:
            return {}
        return {cls.name: LLMStageShape(1, config.kg.extraction_max_tokens, True, "kg_entities")}

    def __init__(self, parts: Parts) -> None:
        super().__init__(parts)
        self.planner = parts.planner
        kg = parts.config.kg
        self.component = parts.with_llm(kg.enabled, lambda llm: KnowledgeGraphStage(kg, llm, parts.prompts))

    def runs_for(self, record: QuestionRecord) -> bool | None:
        return self.planner.kg(record.question.query, record.attributes, record.waits_for_kg).run

    def run(self, records: list[QuestionRecord], limit: TimeLimit) -> Sequence[KGResult]:
        assert self.component is not None
        attributes = [record.attributes or QuestionAttributes() for record in records]
        questions = [record.question for record in records]
        return self.component.run(questions, attributes, seconds_available=max(0.0, limit.remaining()))

    def write(self, record: QuestionRecord, result: KGResult | None) -> None:
        record.kg = result


class WebStage(Stage[WebPages]):
    """Raw HTML -> text chunks and Markdown tables, within the time the later stages leave."""

    name = "web"
    seed_seconds = 0.5

    def __init__(self, parts: Parts) -> None:
        super().__init__(parts)
        self.component: PageExtractor | None = PageExtractor(parts.config.web)
        self.triage = PageTriage(parts.config.web, parts.config.retrieval)

    def run(self, records: list[QuestionRecord], limit: TimeLimit) -> Sequence[WebPages]:
        assert self.component is not None
        questions = [record.question for record in records]
        choices = self.triage.choose(questions)
        pages = self.component.run(questions, seconds=limit.remaining(), choices=choices)
        return [WebPages.of(question_pages) for question_pages in pages]

    def fallback(self) -> WebPages:
        return WebPages()

    def write(self, record: QuestionRecord, result: WebPages | None) -> None:
        record.pages = result.pages if result is not None else []


class RetrievalStage(Stage[Evidence]):
    """The evidence each question's prompt shows, within the time the least reasoning leaves; a
    question answered from the KG alone (`kg.domain_sources`, `kg.dynamic_sources`) drops its web
    evidence when the KG has facts. The answer policy then refuses a question about a name the KG
    lacks that has nothing else to go on."""

    name = "retrieval"
    seed_seconds = 1.0

    @classmethod
    def shapes(cls, config: CragConfig) -> dict[str, LLMStageShape]:
        retrieval = config.retrieval
        if retrieval.relevance_estimator != "llm":
            return {}
        return {
            cls.name: LLMStageShape(1, 1, False, "retrieval_relevance", requests=retrieval.rerank_candidates)
        }

    def __init__(self, parts: Parts) -> None:
        super().__init__(parts)
        self.component: Retriever | None = Retriever(
            parts.config.retrieval, parts.encoder, parts.llm, parts.prompts
        )

    def run(self, records: list[QuestionRecord], limit: TimeLimit) -> Sequence[Evidence]:
        assert self.component is not None
        questions = [record.question for record in records]
        pages = [record.pages for record in records]
        pooled = (
            [_kg_references(record) for record in records]
            if self.config.retrieval.pool_kg_references
            else None
        )
        return self.component.run(questions, pages, pooled, seconds=limit.remaining(), clock=limit.clock)

    def fallback(self) -> Evidence:
        return Evidence()

    def write(self, record: QuestionRecord, result: Evidence | None) -> None:
        kg_only = (
            record.kg is not None
            and record.kg.has_evidence
            and sources_for(_domain(record), self.config.kg, dynamic=record.waits_for_kg) == "kg"
        )
        record.evidence = Evidence() if kg_only or result is None else result
        # Pooled KG lines live in the evidence, ranked with the web's; else they keep their own section.
        pooled = self.config.retrieval.pool_kg_references
        record.kg_lines = _kg_references(record) if kg_only or not pooled else []


class PlanStage(Stage[QuestionPlan]):
    """Which optional stages each question runs (models/plan.py: a rule, no LLM call)."""

    name = "plan"

    def __init__(self, parts: Parts) -> None:
        super().__init__(parts)
        self.component = parts.planner

    def reserve(self, records: list[QuestionRecord], least: bool) -> list[Planned]:
        return []  # a few regular expressions per question

    def run(self, records: list[QuestionRecord], limit: TimeLimit) -> Sequence[QuestionPlan]:
        return self.component.run(
            [record.question.query for record in records],
            [record.attributes for record in records],
            [record.shown_evidence for record in records],
            [record.waits_for_kg for record in records],
        )

    def write(self, record: QuestionRecord, result: QuestionPlan | None) -> None:
        record.plan = result or QuestionPlan(signals=["plan failed: every stage runs"])


class CalculatorStage(Stage[CalculationResult]):
    """Expressions over the references and KG facts, computed safely, where the plan asks for them."""

    name = "calculator"
    optional = True
    seed_seconds = 0.0
    seed_prompt_tokens = 430.0

    @classmethod
    def shapes(cls, config: CragConfig) -> dict[str, LLMStageShape]:
        calculator = config.calculator
        if not calculator.enabled:
            return {}
        samples = calculator.samples if calculator.temperature > 0 else 1
        return {
            cls.name: LLMStageShape(
                samples, calculator.max_tokens, calculator.constrained_output, "calculator"
            )
        }

    def __init__(self, parts: Parts) -> None:
        super().__init__(parts)
        calculator = parts.config.calculator
        self.component = parts.with_llm(
            calculator.enabled, lambda llm: Calculator(calculator, llm, parts.prompts)
        )

    def runs_for(self, record: QuestionRecord) -> bool | None:
        return record.plan.calculator if record.plan is not None else None

    def run(self, records: list[QuestionRecord], limit: TimeLimit) -> Sequence[CalculationResult]:
        assert self.component is not None
        return self.component.run(
            [record.question for record in records], [record.shown_evidence for record in records]
        )

    def write(self, record: QuestionRecord, result: CalculationResult | None) -> None:
        record.calculation = result


class KnowledgeStage(Stage[KnowledgeAnswer]):
    """The model's own answer, one more opinion for the reasoning prompt, where the plan asks for it.
    A question held for the KG is not asked, since a fact that changes is not in the model's memory,
    unless `policy.knowledge_for_dynamic`. While the policy observes, every question is asked and the
    answers the rule would not show are kept aside (the policy may give one over a decline)."""

    name = "knowledge"
    optional = True
    seed_seconds = 0.0
    seed_prompt_tokens = 200.0

    @classmethod
    def shapes(cls, config: CragConfig) -> dict[str, LLMStageShape]:
        knowledge = config.knowledge
        if not knowledge.enabled:
            return {}
        return {cls.name: LLMStageShape(1, knowledge.max_tokens, knowledge.constrained_output, "knowledge")}

    def __init__(self, parts: Parts) -> None:
        super().__init__(parts)
        knowledge = parts.config.knowledge
        self.policy = parts.policy
        self.component = parts.with_llm(
            knowledge.enabled, lambda llm: KnowledgeExtractor(knowledge, llm, parts.prompts)
        )

    def shown(self, record: QuestionRecord) -> bool | None:
        """Whether the reasoning prompt shows its answer (None: no plan yet)."""
        if record.plan is None:
            return None
        return record.plan.knowledge and (not record.waits_for_kg or self.config.policy.knowledge_for_dynamic)

    def runs_for(self, record: QuestionRecord) -> bool | None:
        shown = self.shown(record)
        return shown if shown is None or not self.policy.observing else True

    def run(self, records: list[QuestionRecord], limit: TimeLimit) -> Sequence[KnowledgeAnswer]:
        assert self.component is not None
        return self.component.run([record.question for record in records])

    def write(self, record: QuestionRecord, result: KnowledgeAnswer | None) -> None:
        if self.shown(record):
            record.knowledge = result
        else:
            record.unshown_knowledge = result

    def finish(self, records: list[QuestionRecord]) -> None:
        for record in records:
            if record.plan is not None and record.plan.knowledge and not self.runs_for(record):
                record.note(self.name, "skipped", "not asked", "a dynamic fact is not in the model's memory")


class ReasoningStage(Stage[ReasoningResult]):
    """The final answers, in the richest form that fits the time left: full replies, shorter
    references, brief replies; the questions that fit in no form answer `I don't know`. A full
    reply the deadline cuts before its answer is asked again for a brief reply (the same prompt,
    whose tokens the engine's prefix cache still holds), in one call for all such questions: the
    plan keeps room for it when there is some, and it runs for as many as the time left affords."""

    name = "reasoning"
    seed_seconds = 0.0
    seed_prompt_tokens = 1800.0

    @classmethod
    def shapes(cls, config: CragConfig) -> dict[str, LLMStageShape]:
        reasoning = config.reasoning
        guided = reasoning.constrained_output
        return {
            cls.name: LLMStageShape(1, reasoning.max_tokens, guided, "reasoning"),
            BRIEF_REASONING: LLMStageShape(1, reasoning.brief_max_tokens, guided, "reasoning", base=cls.name),
            BACKUP_CALL: LLMStageShape(
                1, reasoning.backup_max_tokens, False, "reasoning_backup", base=cls.name
            ),
        }

    def __init__(self, parts: Parts) -> None:
        super().__init__(parts)
        self.component = parts.with_llm(
            True, lambda llm: Reasoner(parts.config.reasoning, llm, parts.prompts)
        )

    def reserve(self, records: list[QuestionRecord], least: bool) -> list[Planned]:
        """Least: brief replies over prompts without references. Else the full call: its prompts as
        they stand once the plan is made (the evidence is retrieved by then; before, the seeds),
        plus room for the helpers' lines."""
        if least:
            return [
                Planned(
                    BRIEF_REASONING,
                    len(records),
                    self._prompt_tokens(records, 1.0, evidence=False, helpers=False),
                )
            ]
        if any(record.plan is None for record in records):
            return [Planned(self.name, len(records))]
        extra = self.config.budget.reasoning_helper_tokens
        prompts = self._prompt_tokens(records, 1.0, helpers=False)
        return [Planned(self.name, len(records), [tokens + extra for tokens in prompts])]

    def plan_call(
        self, records: list[QuestionRecord], deadline: BatchDeadline, later: list[Planned]
    ) -> StageCall:
        budget = self.config.budget
        choices = [(False, share) for share in budget.reasoning_reference_shares]
        choices += [(True, share) for share in budget.brief_reference_shares]
        tokens_by_share: dict[float, tuple[int, ...]] = {}
        for _, share in choices:
            if share not in tokens_by_share:
                tokens_by_share[share] = tuple(self._prompt_tokens(records, share))
        forms = [ReasoningForm(brief, share, tokens_by_share[share]) for brief, share in choices]
        plan = deadline.reasoning_form(forms, later, recovery=self._recovery)
        form, kept = plan.form, records[: plan.answerable]
        if form != forms[0]:
            for record in kept:
                record.note(self.name, "degraded", "reduced to meet the deadline", form.describe())
        for record in records[plan.answerable :]:
            record.reply_state = "no time"
            record.note(self.name, "skipped", NO_TIME_LEFT)
        return StageCall(form.stage, kept, lambda limit: self._reason(kept, plan, limit, deadline))

    def write(self, record: QuestionRecord, result: ReasoningResult | None) -> None:
        record.reasoning = result
        if result is None:
            record.reply_state = "failed"
        elif result.cut and not result.parsed:
            record.reply_state = "cut"
            record.note(self.name, "degraded", REPLY_CUT, "no answer in it")
        else:
            record.reply_state = "answered"
            if result.recovered:
                record.note(self.name, "fallback", REPLY_CUT, "answered by a brief reply")
            if result.used_backup:
                record.note(self.name, "fallback", "backup answer prompt used")

    def _recovery(self, form: ReasoningForm) -> Planned | None:
        """The brief pass over the questions of a full `form` (None for a brief one): their prompts
        again, of which the engine computes only what its prefix cache no longer holds."""
        if form.brief:
            return None
        assert self.component is not None
        llm = self.component.llm
        return Planned(
            BRIEF_REASONING,
            len(form.prompt_tokens),
            [llm.recomputed_prompt_tokens(t) for t in form.prompt_tokens],
        )

    def _reason(
        self, records: list[QuestionRecord], plan: ReasoningPlan, limit: TimeLimit, deadline: BatchDeadline
    ) -> list[ReasoningResult]:
        """The planned call, ending early enough for the reserved brief pass; then that pass for the
        replies the limit cut before their answer, for as many as the time left affords."""
        assert self.component is not None
        llm, form = self.component.llm, plan.form
        early = (
            TimeLimit(limit.at - deadline.reserve([plan.recovery]), limit.clock) if plan.recovery else limit
        )

        def affordable(stage: str, prompt_tokens: list[int]) -> int:
            return deadline.affordable(stage, prompt_tokens, llm.seconds_left())

        with llm.limited(early):
            results = self._run(records, form, form.brief, affordable)
        cut = [index for index, result in enumerate(results) if result.cut and not result.parsed]
        if form.brief or not cut:
            return results
        again = [records[index] for index in cut]
        prompts = [llm.recomputed_prompt_tokens(form.prompt_tokens[index]) for index in cut]
        seconds = limit.remaining()
        if plan.recovery is not None and limit.clock() <= early.at + self.config.budget.end_margin_s:
            seconds = max(
                seconds, deadline.reserve([plan.recovery])
            )  # the call kept to its limit: the room is there
        count = deadline.affordable(BRIEF_REASONING, prompts, seconds)
        logger.warning(
            f"reasoning: {len(cut)} of {len(records)} replies cut by the deadline; "
            f"{count} asked again briefly"
        )
        if count:
            for index, brief in zip(cut, self._run(again[:count], form, True, affordable)):
                brief.usage.merge(results[index].usage)
                brief.cut = True
                brief.recovered = brief.parsed
                results[index] = brief
        return results

    def _run(
        self, records: list[QuestionRecord], form: ReasoningForm, brief: bool, affordable: Affordable
    ) -> list[ReasoningResult]:
        assert self.component is not None
        return self.component.run(
            [record.question for record in records],
            [_shorten(record.evidence, form.share) for record in records],
            [record.kg_lines for record in records],
            [record.calculation for record in records],
            [record.knowledge for record in records],
            brief=brief,
            affordable=affordable,
            changing=[_changing(record) for record in records],
        )

    def _prompt_tokens(
        self, records: list[QuestionRecord], share: float, evidence: bool = True, helpers: bool = True
    ) -> list[int]:
        """Each question's reasoning prompt in tokens over `share` of its references; without the
        evidence (web and KG) or the helpers' lines (calculations, knowledge) when asked."""
        assert self.component is not None
        conversations = self.component.conversations(
            [record.question for record in records],
            [_shorten(record.evidence, share) if evidence else Evidence() for record in records],
            [record.kg_lines if evidence else [] for record in records],
            [record.calculation if helpers else None for record in records],
            [record.knowledge if helpers else None for record in records],
            [_changing(record) for record in records],
        )
        return self.component.prompt_tokens(conversations)


class AnswerCheckStage(Stage[RetriedAnswer]):
    """The form each answer the policy proposes must take, read from its question
    (models/answer_check.py) and checked without the LLM, whose reasoning prompt never states it.
    The answers that break it are asked again in one short call for the batch, for as many as the
    time left affords, where the policy asks again (`policy.wrong_form`); the policy then gives the
    answer asked again if it keeps the form, or refuses, or keeps the first answer."""

    name = "answer check"
    seed_seconds = 0.0
    seed_prompt_tokens = 600.0

    @classmethod
    def shapes(cls, config: CragConfig) -> dict[str, LLMStageShape]:
        check = config.answer_check
        asks = config.policy.observe or any(then == "retry" for then in _wrong_form_choices(config))
        if not (check.enabled and asks):
            return {}
        return {cls.name: LLMStageShape(1, check.max_tokens, check.constrained_output, "answer_check")}

    def __init__(self, parts: Parts) -> None:
        super().__init__(parts)
        check = parts.config.answer_check
        self.policy: AnswerPolicy = parts.policy
        self.component: AnswerChecker | None = (
            AnswerChecker(check, parts.llm, parts.prompts) if check.enabled else None
        )

    def select(self, records: list[QuestionRecord]) -> list[QuestionRecord]:
        """The open questions whose proposed answer breaks their constraint."""
        return [record for record in records if record.is_open and self._violation(record) is not None]

    def plan_call(
        self, records: list[QuestionRecord], deadline: BatchDeadline, later: list[Planned]
    ) -> StageCall | None:
        assert self.component is not None
        checker = self.component
        violations = [violation for record in records if (violation := self._violation(record)) is not None]
        checks = [FormCheck(broken.answer, broken.constraint.kind, broken.why) for broken in violations]
        for record, check in zip(records, checks):
            record.check = check
        asked = [i for i, broken in enumerate(violations) if self.policy.asks_again(broken.constraint.kind)]
        conversations = checker.conversations([violations[i] for i in asked]) if checker.retries else []
        count = 0
        if conversations:
            seconds = deadline.seconds_left() - deadline.reserve(later)
            count = deadline.affordable(self.name, checker.prompt_tokens(conversations), seconds)
        for index, check in enumerate(checks):
            if index not in asked[:count]:
                check.retry_problem = NO_TIME_LEFT if index in asked and checker.retries else "no retry"
        kept, sent = [records[i] for i in asked[:count]], conversations[:count]
        return StageCall(self.name, kept, lambda limit: checker.run(sent)) if kept else None

    def write(self, record: QuestionRecord, result: RetriedAnswer | None) -> None:
        check = record.check
        assert check is not None and self.component is not None
        record.note(self.name, "fallback", WRONG_FORM_ASKED_AGAIN, check.violation)
        if result is None or result.error:
            check.retry_problem = "the retry failed"
            return
        check.retried = result.answer
        constraint = self.component.check(record.question.query, check.answer)
        if constraint is not None and (why := violates(constraint[0], result.answer)) is not None:
            check.retry_problem = f"asked again: {why}"

    def _violation(self, record: QuestionRecord) -> Violation | None:
        if self.component is None or record.reply_state != "answered":
            return None
        proposed = self.policy.proposal(record.findings()).answer
        broken = self.component.check(record.question.query, proposed)
        if broken is None:
            return None
        reasoning = record.reasoning
        references = reasoning.prompt_references if reasoning is not None else []
        reasoned = reasoning.reasoning if reasoning else ""
        return Violation(record.question, *broken, proposed, references, reasoned)


def _wrong_form_choices(config: CragConfig) -> list[str]:
    """What `policy.wrong_form` does for each constraint kind checked (a kind not named retries)."""
    return [config.policy.wrong_form.get(kind, "retry") for kind in config.answer_check.kinds]


def _changing(record: QuestionRecord) -> bool:
    return record.attributes is not None and record.attributes.dynamism != "static"


STAGES: tuple[type[Stage[Any]], ...] = (
    AttributeStage,
    KGStage,
    WebStage,
    RetrievalStage,
    PlanStage,
    CalculatorStage,
    KnowledgeStage,
    ReasoningStage,
    AnswerCheckStage,
)


def declared() -> tuple[type[Stage[Any]], ...]:
    """`STAGES` as it stands now (a test may add an entry)."""
    return STAGES


def llm_shapes(
    config: CragConfig, stages: Sequence[type[Stage[Any]]] | None = None
) -> dict[str, LLMStageShape]:
    """The one table of how each stage calls the LLM under `config`: the deadline's cost model,
    `evaluation/time_model.py` and `tools/validate.py` read it."""
    return {name: shape for stage in stages or declared() for name, shape in stage.shapes(config).items()}


def stage_costs(config: CragConfig, stages: Sequence[type[Stage[Any]]] | None = None) -> StageCosts:
    """The deadline's cost model, seeded by the stages' declarations and `budget.initial_*`."""
    stages = stages or declared()
    budget = config.budget
    names = {stage.name for stage in stages}
    unknown = sorted((set(budget.initial_stage_seconds) | set(budget.initial_prompt_tokens)) - names)
    if unknown:
        raise ValueError(f"budget.initial_* name unknown stages {unknown}; the stages are {sorted(names)}")
    seconds = {stage.name: stage.seed_seconds for stage in stages if stage.seed_seconds is not None}
    tokens = {
        stage.name: stage.seed_prompt_tokens for stage in stages if stage.seed_prompt_tokens is not None
    }
    return StageCosts(
        shapes=llm_shapes(config, stages),
        smoothing=budget.cost_smoothing,
        other_seconds=seconds | budget.initial_stage_seconds,
        prompt_tokens=tokens | budget.initial_prompt_tokens,
        reply_coverage=budget.reply_coverage,
        reply_window=budget.reply_window,
    )


def _kg_references(record: QuestionRecord) -> list[str]:
    return record.kg.references if record.kg is not None else []


def _domain(record: QuestionRecord) -> str:
    return record.attributes.domain if record.attributes is not None else "open"


def _shorten(evidence: Evidence, share: float) -> Evidence:
    def keep(items: list[str]) -> list[str]:
        return items[: max(1, int(len(items) * share))] if items else items

    return replace(evidence, chunks=keep(evidence.chunks), tables=keep(evidence.tables))

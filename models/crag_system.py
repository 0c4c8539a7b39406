"""CragSystem: the submission's orchestrator, read top to bottom like the architecture figure.

    query ─► attribute predictor ─► (dynamic? → "I don't know", unless the KG may answer it)
      │
      ├─► knowledge-graph API ─► (dynamic and no KG facts? → "I don't know") ─┐
      ├─► web pages → chunks + tables ─► retrieval & relevance ──────────────┤
      ├─► numerical calculator ───────────────────────────────────────────────┼─► reasoning ─► answer
      └─► LLM knowledge extractor ────────────────────────────────────────────┘

Each stage runs once per batch over all questions that still need it. A cheap plan
(`models/plan.py`, no LLM call) decides which questions the KG, the calculator and the knowledge
extractor run for. The batch shares one deadline (`models/deadline.py`): a stage runs when it fits
with the time the stages after it need, each LLM call is stopped at the time those later stages
need, and the reasoning call takes the richest form that fits what is left; the batch never runs
past n x budget.seconds_per_question.
"""

from __future__ import annotations

import json
import time
from contextlib import nullcontext
from dataclasses import replace
from typing import Any, Callable, Protocol, Sequence, TypeVar, runtime_checkable

from loguru import logger

from models.answers import I_DONT_KNOW
from models.attributes import AttributePredictor, should_refuse
from models.calculator import CalculationResult, Calculator
from models.config import CragConfig, load_config
from models.deadline import (
    BRIEF_REASONING,
    CALIBRATION_SCHEMA,
    BatchDeadline,
    EngineSpeed,
    Planned,
    ReasoningForm,
    StageCosts,
    calibrate,
)
from models.embeddings import SentenceEncoder
from models.kg import KGResult, KnowledgeGraphStage, sources_for
from models.knowledge import KnowledgeAnswer, KnowledgeExtractor
from models.llm import LLMBackend, TokenUsage, create_backend
from models.plan import Planner
from models.prompts import PromptLibrary
from models.reasoning import Reasoner
from models.retrieval import Retriever
from models.schema import Evidence, Question, QuestionAttributes, QuestionPlan, QuestionTrace
from models.web import Page, PageExtractor

T = TypeVar("T")


class CragSystem:
    """Building is cheap (nothing heavy loads); `warm_up()` loads the models, starts the page
    workers and prepares guided decoding. `UserModel` (models/user_config.py) does both; tests and
    `tools.validate` may build the whole system without loading it."""

    def __init__(
        self,
        config: CragConfig | None = None,
        llm: LLMBackend | None = None,
        load_llm: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ):
        """`clock` times the batches and the LLM's steps (a simulated engine brings its own)."""
        self.config = config = config or load_config()
        logger.info(f"CragSystem: preset {config.preset!r}")
        self.prompts = PromptLibrary()
        self.llm = llm if llm is not None else (create_backend(config.llm) if load_llm else None)
        self._owns_llm = llm is None  # a backend passed in stays open for its owner
        retrieval = config.retrieval
        self.encoder = SentenceEncoder(
            retrieval.embedding_model, retrieval.embedding_device, retrieval.embedding_batch_size
        )
        self.pages = PageExtractor(config.web)
        self.retriever = Retriever(retrieval, self.encoder, self.llm, self.prompts)
        self.attributes = (
            AttributePredictor(config.attributes, self._attribute_encoder(), self.llm, self.prompts)
            if config.attributes.enabled
            else None
        )
        self.planner = Planner(config.plan)
        self.clock = clock
        self.speed = EngineSpeed.initial(config.budget)
        self.calibration_error: str | None = "not calibrated yet (warm_up() measures the engine)"
        self.stage_costs = StageCosts.from_config(config)
        self.last_traces: list[QuestionTrace] = []
        # Without an LLM (load_llm=False) the system only retrieves references.
        self.kg: KnowledgeGraphStage | None = None
        self.calculator: Calculator | None = None
        self.knowledge: KnowledgeExtractor | None = None
        self.reasoner: Reasoner | None = None
        if self.llm is None:
            return
        self.llm.clock = clock
        self.llm.step_observer = lambda step: self.speed.observe(step)
        if config.kg.enabled:
            self.kg = KnowledgeGraphStage(config.kg, self.llm, self.prompts)
        if config.calculator.enabled:
            self.calculator = Calculator(config.calculator, self.llm, self.prompts)
        if config.knowledge.enabled:
            self.knowledge = KnowledgeExtractor(config.knowledge, self.llm, self.prompts)
        self.reasoner = Reasoner(config.reasoning, self.llm, self.prompts)

    def warm_up(self) -> None:
        """Load everything heavy once, before the first batch, and measure the LLM's speed. The LLM
        goes first: vLLM sizes its KV cache from the GPU memory it finds free, so the sentence
        encoder loads after it."""
        self.pages.warm_up()  # worker processes start in the background
        if self.llm is not None:
            self.llm.warm_up(self.json_schemas())
            self.calibrate()
        self.encoder.warm_up()
        for stage in self._stages():
            if isinstance(stage, _Loads):
                stage.warm_up()

    def calibrate(self) -> None:
        """Measure the LLM where it runs (outside any batch's time); the deadline plans with it.
        When the measurement fails, the preset's guess stays, and `calibration_error` says why."""
        try:
            self.speed = calibrate(self.llm, self.config.budget)
            self.calibration_error = None
        except Exception as error:
            self.calibration_error = f"{type(error).__name__}: {error}"
            logger.warning(f"Engine calibration failed ({self.calibration_error}); planning with the preset's speeds")

    def json_schemas(self) -> list[dict[str, Any]]:
        """Every JSON schema the stages (and the calibration) send for guided decoding, each once."""
        unique: dict[str, dict[str, Any]] = {json.dumps(CALIBRATION_SCHEMA, sort_keys=True): CALIBRATION_SCHEMA}
        for stage in self._stages():
            for schema in stage.json_schemas() if isinstance(stage, _SendsSchemas) else []:
                unique.setdefault(json.dumps(schema, sort_keys=True), schema)
        return list(unique.values())

    def get_batch_size(self) -> int:
        return self.config.batch_size

    def batch_generate_answer(self, batch: dict[str, list[Any]]) -> list[str]:
        if self.llm is None:
            raise RuntimeError(
                "This CragSystem was built with load_llm=False; it can only retrieve references"
            )
        questions = Question.from_batch(batch)
        deadline = BatchDeadline(len(questions), self.config.budget, self.stage_costs, self.speed, self.clock)
        run = _BatchRun(questions, deadline, self.llm, self.clock)
        attributes = self._predict_attributes(run, questions)
        waiting_for_kg = self._refuse(run, questions, attributes)
        asks_kg = [
            i for i in run.unanswered() if self.planner.kg(questions[i].query, attributes[i], i in waiting_for_kg).run
        ]
        kg_results = self._knowledge_graph(run, questions, attributes, asks_kg)
        self._refuse_without_kg_evidence(run, waiting_for_kg, kg_results)
        todo = run.unanswered()
        least_reasoning = self._least_reasoning(_pick(questions, todo))
        after_pages = [Planned("retrieval", len(todo)), least_reasoning]
        pages = run.stage(
            "web",
            todo,
            lambda: self.pages.run(_pick(questions, todo), seconds=deadline.limit(after_pages).remaining()),
            fallback=[],
            later=after_pages,
        )
        run.note_pages(todo, pages)
        evidence, kg = self._evidence(
            run, questions, attributes, todo, pages, _pick(kg_results, todo), waiting_for_kg, least_reasoning
        )
        with_kg = [replace(item, chunks=lines + item.chunks) for item, lines in zip(evidence, kg)]
        plans = self._plan(run, questions, attributes, todo, with_kg, waiting_for_kg)
        reasoning = self._reasoning_reserve(questions, todo, evidence, kg)
        calculating = [i for i, plan in zip(todo, plans) if plan.calculator]
        shown = [item for item, plan in zip(with_kg, plans) if plan.calculator]
        recalling = sum(plan.knowledge for plan in plans)
        calculations = _spread(
            todo,
            calculating,
            run.optional_stage(
                "calculator",
                calculating,
                self.calculator,
                lambda: self.calculator.run(_pick(questions, calculating), shown),
                later=[Planned("knowledge", recalling), reasoning],
            ),
        )
        knowledge = self._recall(run, questions, todo, waiting_for_kg, plans, reasoning)
        self._reason(run, questions, todo, evidence, kg, calculations, knowledge)
        self.last_traces = run.traces
        return [trace.prediction for trace in run.traces]

    def retrieve_references(self, batch: dict[str, list[Any]]) -> list[list[str]]:
        """The web references each question would get, without any LLM (for studying retrieval)."""
        questions = Question.from_batch(batch)
        evidence = self.retriever.run(questions, self.pages.run(questions))
        return [e.references for e in evidence]

    def close(self) -> None:
        self.pages.close()
        if self.llm is not None and self._owns_llm:
            self.llm.close()

    def _stages(self) -> list[Any]:
        stages = [self.attributes, self.retriever, self.kg, self.calculator, self.knowledge, self.reasoner]
        return [stage for stage in stages if stage is not None]

    def _attribute_encoder(self) -> SentenceEncoder | None:
        """The retrieval encoder when the attribute classifier was trained on the same one; else the
        predictor loads its own (t4x4 retrieves with sentence-t5-large, the classifier reads MiniLM)."""
        if self.config.attributes.embedding_model == self.config.retrieval.embedding_model:
            return self.encoder
        return None

    def _predict_attributes(
        self, run: "_BatchRun", questions: list[Question]
    ) -> list[QuestionAttributes | None]:
        everyone = list(range(len(questions)))
        if self.attributes is None:
            return [None] * len(questions)
        return run.stage("attributes", everyone, lambda: self.attributes.run(questions), fallback=None)

    def _refuse(
        self, run: "_BatchRun", questions: list[Question], attributes: list[QuestionAttributes | None]
    ) -> set[int]:
        """`I don't know` at once for empty queries and for questions the routing policy refuses; the
        likely-dynamic questions of the domains the KG can answer wait for its evidence instead."""
        waiting: set[int] = set()
        kg_can_answer = self.kg is not None and set(self.config.attributes.kg_answers_dynamic)
        for i, attribute in enumerate(attributes):
            run.traces[i].attributes = attribute
            if not questions[i].query.strip():
                run.answer(i, I_DONT_KNOW, route="empty query")
            elif attribute is not None and should_refuse(attribute, self.config.attributes):
                why = f"P(dynamic)={attribute.dynamic_probability:.2f} in {attribute.domain}"
                if kg_can_answer and attribute.domain in kg_can_answer:
                    waiting.add(i)
                    run.traces[i].notes.append(f"{why}: waits for the KG")
                else:
                    run.answer(i, I_DONT_KNOW, f"refused: {why}", route="refused: dynamic")
        return waiting

    def _knowledge_graph(
        self,
        run: "_BatchRun",
        questions: list[Question],
        attributes: list[QuestionAttributes | None],
        todo: list[int],
    ) -> list[KGResult | None]:
        """One KG result per question of the batch (None where the stage did not run)."""
        reaching = len(run.unanswered())  # every question still open goes on to the pages and reasoning
        later = [Planned("web", reaching), Planned("retrieval", reaching), Planned("reasoning", reaching)]

        def read_kg() -> list[KGResult]:
            kg_attributes = [attributes[i] or QuestionAttributes() for i in todo]
            seconds = max(0.0, run.deadline.limit(later).remaining())
            return self.kg.run(_pick(questions, todo), kg_attributes, seconds_available=seconds)

        results = run.optional_stage("kg", todo, self.kg, read_kg, later=later)
        by_question: list[KGResult | None] = [None] * len(questions)
        for i, result in zip(todo, results):
            by_question[i] = result
        return by_question

    def _refuse_without_kg_evidence(
        self, run: "_BatchRun", waiting: set[int], kg_results: list[KGResult | None]
    ) -> None:
        """Likely-dynamic questions are answered only from KG facts about the asked entity and time."""
        for i in sorted(waiting):
            result = kg_results[i]
            if result is not None and result.has_evidence:
                run.traces[i].route = "answered: dynamic, from KG evidence"
            else:
                run.answer(i, I_DONT_KNOW, "refused: the KG had no evidence", route="refused: dynamic, no KG evidence")

    def _plan(
        self,
        run: "_BatchRun",
        questions: list[Question],
        attributes: list[QuestionAttributes | None],
        todo: list[int],
        evidence: list[Evidence],
        waiting_for_kg: set[int],
    ) -> list[QuestionPlan]:
        """Which optional stages each question runs (models/plan.py), recorded in its trace."""
        plans = self.planner.run(
            [questions[i].query for i in todo], _pick(attributes, todo), evidence, [i in waiting_for_kg for i in todo]
        )
        for i, plan in zip(todo, plans):
            run.traces[i].plan = plan
        return plans

    def _recall(
        self,
        run: "_BatchRun",
        questions: list[Question],
        todo: list[int],
        dynamic: set[int],
        plans: list[QuestionPlan],
        reasoning: Planned,
    ) -> list[KnowledgeAnswer | None]:
        """The memory agent's answers for the questions the plan asks it about; a likely-dynamic
        question (answered from the KG) is not asked, since a fact that changes is not in the
        model's memory, unless `knowledge.answer_dynamic`."""
        planned = [i for i, plan in zip(todo, plans) if plan.knowledge]
        asked = [i for i in planned if i not in dynamic or self.config.knowledge.answer_dynamic]
        for i in set(planned) - set(asked):
            run.traces[i].notes.append("knowledge not asked: a dynamic fact is not in the model's memory")
        answers = run.optional_stage(
            "knowledge", asked, self.knowledge, lambda: self.knowledge.run(_pick(questions, asked)), later=[reasoning]
        )
        return _spread(todo, asked, answers)

    def _evidence(
        self,
        run: "_BatchRun",
        questions: list[Question],
        attributes: list[QuestionAttributes | None],
        todo: list[int],
        pages: list[list[Page]],
        kg_results: list[KGResult | None],
        dynamic: set[int],
        least_reasoning: Planned,
    ) -> tuple[list[Evidence], list[list[str]]]:
        """Retrieved web evidence, and the KG lines that still go to the prompt in their own section."""
        kg = [result.references if result is not None else [] for result in kg_results]
        # Questions configured to answer from the KG alone drop the web evidence when the KG has facts.
        kg_only = [
            result is not None
            and result.has_evidence
            and sources_for(_domain(attributes[i]), self.config.kg, dynamic=i in dynamic) == "kg"
            for result, i in zip(kg_results, todo)
        ]
        pooled = self.config.retrieval.pool_kg_references
        evidence = run.stage(
            "retrieval",
            todo,
            lambda: self.retriever.run(
                _pick(questions, todo), pages, kg if pooled else None, seconds=run.deadline.limit([least_reasoning]).remaining()
            ),
            fallback=Evidence(),
            later=[least_reasoning],
        )
        evidence = [Evidence() if only else item for item, only in zip(evidence, kg_only)]
        if pooled:  # the KG lines now live in the evidence, ranked with the web
            kg = [lines if only else [] for lines, only in zip(kg, kg_only)]
        return evidence, kg

    def _least_reasoning(self, questions: list[Question]) -> Planned:
        """The least reasoning call the pages and retrieval must leave time for: brief replies
        over prompts without references."""
        if self.reasoner is None or not questions:
            return Planned(BRIEF_REASONING, len(questions))
        nothing = [None] * len(questions)
        empty = [Evidence() for _ in questions]
        conversations = self.reasoner.conversations(questions, empty, [[] for _ in questions], nothing, nothing)
        return Planned(BRIEF_REASONING, len(questions), self.reasoner.prompt_tokens(conversations))

    def _reasoning_reserve(
        self, questions: list[Question], todo: list[int], evidence: list[Evidence], kg: list[list[str]]
    ) -> Planned:
        """The full reasoning call as the optional stages must leave time for it: its prompts as
        they stand, plus room for the helpers' lines."""
        if self.reasoner is None or not todo:
            return Planned("reasoning", len(todo))
        nothing = [None] * len(todo)
        conversations = self.reasoner.conversations(_pick(questions, todo), evidence, kg, nothing, nothing)
        extra = self.config.budget.reasoning_helper_tokens
        return Planned("reasoning", len(todo), [t + extra for t in self.reasoner.prompt_tokens(conversations)])

    def _reason(
        self,
        run: "_BatchRun",
        questions: list[Question],
        todo: list[int],
        evidence: list[Evidence],
        kg: list[list[str]],
        calculations: list[CalculationResult | None],
        knowledge: list[KnowledgeAnswer | None],
    ) -> None:
        """The final answers, in the richest form that fits the time left: full replies, shorter
        references, brief replies; the questions that fit in no form answer `I don't know`."""
        if not todo:
            return
        budget = self.config.budget
        choices = [(False, share) for share in budget.reasoning_reference_shares]
        choices += [(True, share) for share in budget.brief_reference_shares]
        asked = _pick(questions, todo)
        tokens_by_share: dict[float, tuple[int, ...]] = {}
        for _, share in choices:
            if share not in tokens_by_share:
                shortened = [_shorten(item, share) for item in evidence]
                conversations = self.reasoner.conversations(asked, shortened, kg, calculations, knowledge)
                tokens_by_share[share] = tuple(self.reasoner.prompt_tokens(conversations))
        forms = [ReasoningForm(brief, share, tokens_by_share[share]) for brief, share in choices]
        form, answerable = run.deadline.reasoning_form(forms)
        if form != forms[0]:
            for i in todo[:answerable]:
                run.traces[i].notes.append(f"reasoning: {form.describe()}, to meet the deadline")
        for i in todo[answerable:]:
            run.answer(i, I_DONT_KNOW, "no time left for reasoning", route=OUT_OF_TIME)
        todo, keep = todo[:answerable], slice(0, answerable)
        shortened = [_shorten(item, form.share) for item in evidence[keep]]
        results = run.stage(
            form.stage,
            todo,
            lambda: self.reasoner.run(
                _pick(questions, todo), shortened, kg[keep], calculations[keep], knowledge[keep], brief=form.brief
            ),
            fallback=None,
        )
        for i, result in zip(todo, results):
            if result is None:
                run.answer(i, I_DONT_KNOW)
                continue
            run.traces[i].references = list(result.prompt_references)
            if result.cut and not result.parsed:
                run.answer(i, I_DONT_KNOW, "the reasoning reply was cut by the deadline", route=OUT_OF_TIME)
                continue
            run.answer(i, result.answer, "backup answer prompt used" if result.used_backup else None)


OUT_OF_TIME = "refused: out of time"


class _BatchRun:
    """Bookkeeping for one batch: traces, per-stage timing and token usage, failures contained, and
    each stage's LLM calls held to the time the later stages need."""

    def __init__(
        self, questions: list[Question], deadline: BatchDeadline, llm: LLMBackend | None, clock: Callable[[], float]
    ):
        self.deadline = deadline
        self.llm = llm
        self.clock = clock
        self.traces = [QuestionTrace(interaction_id=q.interaction_id) for q in questions]
        self._answered: set[int] = set()

    def answer(self, index: int, text: str, note: str | None = None, route: str | None = None) -> None:
        trace = self.traces[index]
        trace.prediction = text
        trace.route = route or trace.route or "answered"
        self._answered.add(index)
        if note:
            trace.notes.append(note)

    def unanswered(self) -> list[int]:
        return [i for i in range(len(self.traces)) if i not in self._answered]

    def stage(
        self,
        name: str,
        indices: list[int],
        work: Callable[[], Sequence[T]],
        fallback: T,
        later: Sequence[Planned] = (),
    ) -> list[T]:
        """Run `work` for the questions at `indices`, its LLM calls stopped at the time `later`
        stages need. A stage that raises gives every one of them `fallback`; a result carrying an
        `error` marks its own question only. Both are recorded in the trace (`failures`) and the
        batch goes on; a result's `notes` (fallbacks short of a failure) go to the trace's notes."""
        if not indices:
            return []
        limit = self.deadline.limit(later)
        started = self.clock()
        try:
            with self.llm.limited(limit) if self.llm is not None else nullcontext():
                results = list(work())
            if len(results) != len(indices):
                raise RuntimeError(f"returned {len(results)} results for {len(indices)} questions")
        except Exception as error:  # the one place failures are contained: never lose the batch
            logger.exception(f"Stage {name} failed for {len(indices)} questions; they go on without it")
            for i in indices:
                self.traces[i].failures[name] = f"{type(error).__name__}: {error}"
            self._timed(name, indices, started, [None] * len(indices))
            return [fallback] * len(indices)
        usages = [_usage(result) for result in results]
        self._timed(name, indices, started, usages)
        for i, result, usage in zip(indices, results, usages):
            if usage is not None and usage.calls:
                self.traces[i].tokens[name] = usage
            self.traces[i].notes.extend(f"{name} {note}" for note in getattr(result, "notes", ()))
            error = getattr(result, "error", None)
            if error:
                logger.warning(f"Stage {name} failed for question {self.traces[i].interaction_id}: {error}")
                self.traces[i].failures[name] = error
        return results

    def note_pages(self, indices: list[int], pages_per_question: list[list[Page]]) -> None:
        """Each page's error and fallbacks (caps, extractor fallbacks, timeouts) into its question's trace."""
        for i, pages in zip(indices, pages_per_question):
            for page in pages:
                where = f" [{page.page_name[:80]}]" if page.page_name else ""
                if page.error:
                    self.traces[i].notes.append(f"web page error: {page.error}{where}")
                self.traces[i].notes.extend(f"web page {note}{where}" for note in page.notes)

    def optional_stage(
        self,
        name: str,
        indices: list[int],
        component: Any,
        work: Callable[[], Sequence[T]],
        later: Sequence[Planned],
    ) -> list[T | None]:
        if component is None or not indices:
            return [None] * len(indices)
        if not self.deadline.fits(name, len(indices), later):
            for i in indices:
                self.traces[i].notes.append(f"{name} skipped to meet the deadline")
            return [None] * len(indices)
        return self.stage(name, indices, work, fallback=None, later=later)

    def _timed(self, name: str, indices: list[int], started: float, usages: list[TokenUsage | None]) -> None:
        seconds = self.clock() - started
        self.deadline.costs.observe(self.deadline.speed, name, seconds, usages)
        for i in indices:
            self.traces[i].timings[name] = seconds / len(indices)


def _usage(result: Any) -> TokenUsage | None:
    usage = getattr(result, "usage", None)
    return usage if isinstance(usage, TokenUsage) else None


@runtime_checkable
class _Loads(Protocol):
    def warm_up(self) -> None: ...


@runtime_checkable
class _SendsSchemas(Protocol):
    def json_schemas(self) -> list[dict[str, Any]]: ...


def _domain(attributes: QuestionAttributes | None) -> str:
    return attributes.domain if attributes is not None else "open"


def _pick(items: Sequence[T], indices: list[int]) -> list[T]:
    return [items[i] for i in indices]


def _spread(todo: list[int], asked: list[int], results: Sequence[T | None]) -> list[T | None]:
    """`results` of the `asked` questions laid out over `todo`, None for the others."""
    by_question = dict(zip(asked, results))
    return [by_question.get(i) for i in todo]


def _shorten(evidence: Evidence, share: float) -> Evidence:
    def keep(items: list[str]) -> list[str]:
        return items[: max(1, int(len(items) * share))] if items else items

    return replace(evidence, chunks=keep(evidence.chunks), tables=keep(evidence.tables))

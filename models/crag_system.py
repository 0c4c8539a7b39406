"""CragSystem: the submission's orchestrator, read top to bottom like the architecture figure.

    query ─► attribute predictor ─► (dynamic? → "I don't know", unless the KG may answer it)
      │
      ├─► knowledge-graph API ─► (dynamic and no KG facts? → "I don't know") ─┐
      ├─► web pages → chunks + tables ─► retrieval & relevance ──────────────┤
      ├─► numerical calculator ───────────────────────────────────────────────┼─► reasoning ─► answer
      └─► LLM knowledge extractor ────────────────────────────────────────────┘

Each stage runs once per batch over all questions that still need it. A cheap plan
(`models/plan.py`, no LLM call) decides which questions the KG, the calculator and the knowledge
extractor run for. The batch shares one deadline (`models/deadline.py`); optional stages are
skipped when time is short.
"""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Callable, Iterator, Protocol, Sequence, TypeVar, runtime_checkable

from loguru import logger

from models.answers import I_DONT_KNOW
from models.attributes import AttributePredictor, should_refuse
from models.calculator import CalculationResult, Calculator
from models.config import CragConfig, load_config
from models.deadline import BatchDeadline, StageCostModel
from models.embeddings import SentenceEncoder
from models.kg import KGResult, KnowledgeGraphStage, sources_for
from models.knowledge import KnowledgeAnswer, KnowledgeExtractor
from models.llm import LLMBackend, create_backend
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
        self, config: CragConfig | None = None, llm: LLMBackend | None = None, load_llm: bool = True
    ):
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
        self.stage_costs = StageCostModel(config.budget)
        self.last_traces: list[QuestionTrace] = []
        # Without an LLM (load_llm=False) the system only retrieves references.
        self.kg: KnowledgeGraphStage | None = None
        self.calculator: Calculator | None = None
        self.knowledge: KnowledgeExtractor | None = None
        self.reasoner: Reasoner | None = None
        if self.llm is None:
            return
        if config.kg.enabled:
            self.kg = KnowledgeGraphStage(config.kg, self.llm, self.prompts)
        if config.calculator.enabled:
            self.calculator = Calculator(config.calculator, self.llm, self.prompts)
        if config.knowledge.enabled:
            self.knowledge = KnowledgeExtractor(config.knowledge, self.llm, self.prompts)
        self.reasoner = Reasoner(config.reasoning, self.llm, self.prompts)

    def warm_up(self) -> None:
        """Load everything heavy once, before the first batch. The LLM goes first: vLLM sizes its
        KV cache from the GPU memory it finds free, so the sentence encoder loads after it."""
        self.pages.warm_up()  # worker processes start in the background
        if self.llm is not None:
            self.llm.warm_up(self.json_schemas())
        self.encoder.warm_up()
        for stage in self._stages():
            if isinstance(stage, _Loads):
                stage.warm_up()

    def json_schemas(self) -> list[dict[str, Any]]:
        """Every JSON schema the stages send for guided decoding, each once."""
        unique: dict[str, dict[str, Any]] = {}
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
        run = _BatchRun(
            questions, BatchDeadline(len(questions), self.config.budget, self.stage_costs), self.stage_costs
        )
        attributes = self._predict_attributes(run, questions)
        waiting_for_kg = self._refuse(run, questions, attributes)
        asks_kg = [
            i for i in run.unanswered() if self.planner.kg(questions[i].query, attributes[i], i in waiting_for_kg).run
        ]
        kg_results = self._knowledge_graph(run, questions, attributes, asks_kg)
        self._refuse_without_kg_evidence(run, waiting_for_kg, kg_results)
        todo = run.unanswered()
        pages = run.stage("web", todo, lambda: self.pages.run(_pick(questions, todo)), fallback=[])
        run.note_pages(todo, pages)
        evidence, kg = self._evidence(
            run, questions, attributes, todo, pages, _pick(kg_results, todo), waiting_for_kg
        )
        with_kg = [replace(item, chunks=lines + item.chunks) for item, lines in zip(evidence, kg)]
        plans = self._plan(run, questions, attributes, todo, with_kg, waiting_for_kg)
        calculating = [i for i, plan in zip(todo, plans) if plan.calculator]
        shown = [item for item, plan in zip(with_kg, plans) if plan.calculator]
        calculations = _spread(
            todo,
            calculating,
            run.optional_stage(
                "calculator", calculating, self.calculator,
                lambda: self.calculator.run(_pick(questions, calculating), shown),
            ),
        )
        knowledge = self._recall(run, questions, todo, waiting_for_kg, plans)
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
        results = run.optional_stage(
            "kg",
            todo,
            self.kg,
            lambda: self.kg.run(_pick(questions, todo), [attributes[i] or QuestionAttributes() for i in todo]),
        )
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
    ) -> list[KnowledgeAnswer | None]:
        """The memory agent's answers for the questions the plan asks it about; a likely-dynamic
        question (answered from the KG) is not asked, since a fact that changes is not in the
        model's memory, unless `knowledge.answer_dynamic`."""
        planned = [i for i, plan in zip(todo, plans) if plan.knowledge]
        asked = [i for i in planned if i not in dynamic or self.config.knowledge.answer_dynamic]
        for i in set(planned) - set(asked):
            run.traces[i].notes.append("knowledge not asked: a dynamic fact is not in the model's memory")
        answers = run.optional_stage(
            "knowledge", asked, self.knowledge, lambda: self.knowledge.run(_pick(questions, asked))
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
            lambda: self.retriever.run(_pick(questions, todo), pages, kg if pooled else None),
            fallback=Evidence(),
        )
        evidence = [Evidence() if only else item for item, only in zip(evidence, kg_only)]
        if pooled:  # the KG lines now live in the evidence, ranked with the web
            kg = [lines if only else [] for lines, only in zip(kg, kg_only)]
        return evidence, kg

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
        """The final answers, within the deadline: shorter references, or `I don't know` for the
        questions that no longer fit."""
        answerable, share = run.deadline.reasoning_fit(len(todo))
        if share < 1.0:
            evidence = [_shorten(e, share) for e in evidence]
            for i in todo:
                run.traces[i].notes.append(f"references shortened to {share:.0%} to meet the deadline")
        for i in todo[answerable:]:
            run.answer(i, I_DONT_KNOW, "no time left for reasoning", route="refused: out of time")
        todo, keep = todo[:answerable], slice(0, answerable)
        results = run.stage(
            "reasoning",
            todo,
            lambda: self.reasoner.run(
                _pick(questions, todo), evidence[keep], kg[keep], calculations[keep], knowledge[keep]
            ),
            fallback=None,
        )
        for i, result in zip(todo, results):
            if result is None:
                run.answer(i, I_DONT_KNOW)
                continue
            run.traces[i].references = list(result.prompt_references)
            run.answer(i, result.answer, "backup answer prompt used" if result.used_backup else None)


class _BatchRun:
    """Bookkeeping for one batch: traces, per-stage timing and token usage, failures contained."""

    def __init__(self, questions: list[Question], deadline: BatchDeadline, costs: StageCostModel):
        self.deadline = deadline
        self.costs = costs
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

    def stage(self, name: str, indices: list[int], work: Callable[[], Sequence[T]], fallback: T) -> list[T]:
        """Run `work` for the questions at `indices`. A stage that raises gives every one of them
        `fallback`; a result carrying an `error` marks its own question only. Both are recorded in
        the trace (`failures`) and the batch goes on; a result's `notes` (fallbacks short of a
        failure) go to the trace's notes."""
        if not indices:
            return []
        with self._timed(name, indices):
            try:
                results = list(work())
                if len(results) != len(indices):
                    raise RuntimeError(f"returned {len(results)} results for {len(indices)} questions")
            except Exception as error:  # the one place failures are contained: never lose the batch
                logger.exception(f"Stage {name} failed for {len(indices)} questions; they go on without it")
                for i in indices:
                    self.traces[i].failures[name] = f"{type(error).__name__}: {error}"
                return [fallback] * len(indices)
        for i, result in zip(indices, results):
            usage = getattr(result, "usage", None)
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
        self, name: str, indices: list[int], component: Any, work: Callable[[], Sequence[T]]
    ) -> list[T | None]:
        if component is None or not indices:
            return [None] * len(indices)
        if not self.deadline.can_run_optional(name, len(indices)):
            for i in indices:
                self.traces[i].notes.append(f"{name} skipped to meet the deadline")
            return [None] * len(indices)
        return self.stage(name, indices, work, fallback=None)

    @contextmanager
    def _timed(self, name: str, indices: list[int]) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            seconds = time.perf_counter() - start
            self.costs.observe(name, seconds, len(indices))
            for i in indices:
                self.traces[i].timings[name] = seconds / len(indices)


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

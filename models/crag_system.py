"""CragSystem: the submission's orchestrator, read top to bottom like the architecture figure.

    query ─► attribute predictor ─► (dynamic? → "I don't know", unless the KG may answer it)
      │
      ├─► knowledge-graph API ─► (dynamic and no KG facts? → "I don't know") ─┐
      ├─► web pages → chunks + tables ─► retrieval & relevance ──────────────┤
      ├─► numerical calculator ───────────────────────────────────────────────┼─► reasoning ─► answer
      └─► LLM knowledge extractor ────────────────────────────────────────────┘

The stages are the entries of `models/stages.py:STAGES`, in this order; each runs once per batch over
the questions still open that its rule picks (a cheap plan, `models/plan.py`, decides the optional
ones). Each question is one record (`models/pipeline.py:QuestionRecord`) that the stages fill in;
the answer policy (`models/policy.py`) alone answers it, after the stage whose findings decide.
The batch shares one deadline (`models/deadline.py`): a stage runs when it fits with the time the
stages after it need, each LLM call is stopped at the time those later stages need, and the
reasoning call takes the richest form that fits what is left; the batch never runs past
n x budget.seconds_per_question.
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

from loguru import logger

from models.config import CragConfig, finalize, load_config, read_fitted
from models.deadline import CALIBRATION_SCHEMA, BatchDeadline, EngineSpeed, calibrate
from models.embeddings import SentenceEncoder
from models.llm import LLMBackend, create_backend
from models.pipeline import BatchRun, Parts, QuestionRecord, Stage
from models.plan import Planner
from models.prompts import PromptLibrary
from models.retrieval import Retriever
from models.schema import Question, QuestionTrace
from models.stages import declared, stage_costs
from models.web import PageExtractor


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
        stages: Sequence[type[Stage[Any]]] | None = None,
    ):
        """`clock` times the batches and the LLM's steps (a simulated engine brings its own);
        `stages`: the pipeline's entries, in order (default: models/stages.py:STAGES)."""
        self.config = config = finalize(config or load_config())
        logger.info(f"CragSystem: preset {config.preset!r}")
        self.llm = llm if llm is not None else (create_backend(config.llm) if load_llm else None)
        self._owns_llm = llm is None  # a backend passed in stays open for its owner
        retrieval = config.retrieval
        self.encoder = SentenceEncoder(
            retrieval.embedding_model, retrieval.embedding_device, retrieval.embedding_batch_size
        )
        parts = Parts(config, self.llm, PromptLibrary(), self.encoder, Planner(config.plan))
        self.policy = parts.policy
        # Without an LLM (load_llm=False) the LLM stages are off and the system only retrieves references.
        entries = stages or declared()
        self.stages = [stage(parts) for stage in entries]
        self.clock = clock
        self.speed = EngineSpeed.initial(config.budget)
        self.calibration_error: str | None = "not calibrated yet (warm_up() measures the engine)"
        self.stage_costs = stage_costs(config, entries)
        self.last_traces: list[QuestionTrace] = []
        if self.llm is not None:
            self.llm.clock = clock
            self.llm.step_observer = lambda step: self.speed.observe(step)
            self.llm.step_predictor = lambda prompt, sequences, context: self.speed.predict_step(
                prompt, sequences, context
            )

    def stage(self, name: str) -> Stage[Any]:
        """The entry called `name`."""
        for stage in self.stages:
            if stage.name == name:
                return stage
        raise KeyError(f"no stage {name!r}; the stages are {[stage.name for stage in self.stages]}")

    @property
    def pages(self) -> PageExtractor:
        return self.stage("web").component

    @property
    def retriever(self) -> Retriever:
        return self.stage("retrieval").component

    def warm_up(self, measure: bool = True) -> None:
        """Load everything heavy once, before the first batch, and measure the LLM's speed (`measure`
        off: the deadline plans with the preset's speeds, for a run that leaves the deadline out and
        asks the model nothing its reply cache holds, as `tools.fit`'s). The page workers start first
        (in the background); the LLM goes next: vLLM sizes its KV cache from the GPU memory it finds
        free, so the sentence encoder and the stages' models load after it."""
        self.pages.warm_up()
        if self.llm is not None:
            self.llm.warm_up(self.json_schemas())
            self._check_fitted(self.llm)
            if measure:
                self.calibrate()
        self.encoder.warm_up()
        for component in self._components():
            if isinstance(component, _Loads) and component is not self.pages:
                component.warm_up()

    def _check_fitted(self, llm: LLMBackend) -> None:
        """Warn when the answer policy's fitted file was fitted to another model than this one
        (`python -m tools.validate` fails on it); its values stand."""
        path = self.config.policy.fitted
        if path is None:
            return
        fitted_model = read_fitted(path)["model"]
        try:
            model = llm.model_identity()
        except Exception as error:  # a backend that cannot name its model: say so, answer on
            model = f"unknown ({type(error).__name__}: {error})"
        if model != fitted_model:
            logger.warning(
                f"policy.fitted {path} was fitted to {fitted_model!r}, not to this "
                f"model ({model!r}); its values stand: refit with python -m tools.fit"
            )

    def calibrate(self) -> None:
        """Measure the LLM where it runs (outside any batch's time); the deadline plans with it.
        When the measurement fails, the preset's guess stays, and `calibration_error` says why."""
        if self.llm is None:
            return
        try:
            # The engine itself: a reply cache in front would answer the calibration in no time.
            self.speed = calibrate(self.llm.engine, self.config.budget)
            self.calibration_error = None
        except Exception as error:
            self.calibration_error = f"{type(error).__name__}: {error}"
            logger.warning(
                f"Engine calibration failed ({self.calibration_error}); planning with the preset's speeds"
            )

    def json_schemas(self) -> list[dict[str, Any]]:
        """Every JSON schema the stages (and the calibration) send for guided decoding, each once."""
        unique: dict[str, dict[str, Any]] = {
            json.dumps(CALIBRATION_SCHEMA, sort_keys=True): CALIBRATION_SCHEMA
        }
        for component in self._components():
            for schema in component.json_schemas() if isinstance(component, _SendsSchemas) else []:
                unique.setdefault(json.dumps(schema, sort_keys=True), schema)
        return list(unique.values())

    def get_batch_size(self) -> int:
        return self.config.batch_size

    def batch_generate_answer(self, batch: dict[str, list[Any]]) -> list[str]:
        if self.llm is None:
            raise RuntimeError(
                "This CragSystem was built with load_llm=False; it can only retrieve references"
            )
        records = [QuestionRecord(question) for question in Question.from_batch(batch)]
        deadline = BatchDeadline(len(records), self.config.budget, self.stage_costs, self.speed, self.clock)
        self.last_traces = BatchRun(records, self.stages, deadline, self.llm, self.clock, self.policy).run()
        return [trace.prediction for trace in self.last_traces]

    def retrieve_references(self, batch: dict[str, list[Any]]) -> list[list[str]]:
        """The web references each question would get, without any LLM (for studying retrieval)."""
        questions = Question.from_batch(batch)
        evidence = self.retriever.run(questions, self.pages.run(questions))
        return [item.references for item in evidence]

    def close(self) -> None:
        self.pages.close()
        if self.llm is not None and self._owns_llm:
            self.llm.close()

    def _components(self) -> list[Any]:
        return [stage.component for stage in self.stages if stage.component is not None]


@runtime_checkable
class _Loads(Protocol):
    def warm_up(self) -> None: ...


@runtime_checkable
class _SendsSchemas(Protocol):
    def json_schemas(self) -> list[dict[str, Any]]: ...

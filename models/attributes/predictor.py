"""The attributes stage: each question's domain and how fast its answer changes."""

from __future__ import annotations

from typing import Any

from loguru import logger

from models.attributes.classifier import AttributeClassifier
from models.attributes.llm_predictor import LLMAttributePredictor
from models.config import AttributesConfig
from models.embeddings import WARM_UP_QUERY, SentenceEncoder
from models.llm.base import LLMBackend
from models.prompts import PromptLibrary
from models.schema import Question, QuestionAttributes


class AttributePredictor:
    """method "classifier": the shipped artifact over the shared sentence encoder (the artifact's
    own encoder is loaded when none, or one of another size, is given); method "llm": in-context
    labelling with the LLM. Building is cheap; `warm_up()` loads the artifact and the encoder and
    classifies one question (a missing or broken artifact raises there, at start-up). A failure in
    `run` raises."""

    def __init__(
        self,
        config: AttributesConfig,
        encoder: SentenceEncoder | None,
        llm: LLMBackend | None = None,
        prompts: PromptLibrary | None = None,
    ):
        if config.method not in ("classifier", "llm"):
            raise ValueError(f"Unknown attributes.method {config.method!r}; choose 'classifier' or 'llm'")
        self.llm_predictor: LLMAttributePredictor | None = None
        if config.method == "llm":
            if llm is None:
                raise ValueError("attributes.method='llm' needs an LLM backend")
            self.llm_predictor = LLMAttributePredictor(config, llm, prompts or PromptLibrary())
        self.config = config
        self.encoder = encoder
        self.classifier: AttributeClassifier | None = None

    def warm_up(self) -> None:
        if self.llm_predictor is not None or self.classifier is not None:
            return
        self.classifier = AttributeClassifier.load(self.config.artifact_path)
        # Reading a shared encoder's dimension loads it.
        if self.encoder is None or self.encoder.dimension != self.classifier.embedding_dimension:
            logger.info(f"Attribute classifier loads its own encoder {self.config.embedding_model}")
            self.encoder = SentenceEncoder(self.config.embedding_model)
            self.encoder.warm_up()
        self.classifier.predict([WARM_UP_QUERY], [""], self.encoder.encode([WARM_UP_QUERY]))  # the first call

    def json_schemas(self) -> list[dict[str, Any]]:
        return self.llm_predictor.json_schemas() if self.llm_predictor is not None else []

    def run(self, questions: list[Question]) -> list[QuestionAttributes]:
        if not self.config.enabled or not questions:
            return [QuestionAttributes() for _ in questions]
        queries = [q.query for q in questions]
        if self.llm_predictor is not None:
            return self.llm_predictor.run(queries)
        self.warm_up()
        assert self.encoder is not None and self.classifier is not None  # warm_up() loaded them
        embeddings = self.encoder.encode(queries)
        return self.classifier.predict(queries, [q.query_time for q in questions], embeddings)

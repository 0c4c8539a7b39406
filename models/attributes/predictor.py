"""The attributes stage: each question's domain and how fast its answer changes."""

from __future__ import annotations

from loguru import logger

from models.attributes.classifier import AttributeClassifier
from models.attributes.llm_predictor import LLMAttributePredictor
from models.config import AttributesConfig
from models.embeddings import SentenceEncoder
from models.llm.base import LLMBackend
from models.prompts import PromptLibrary
from models.schema import Question, QuestionAttributes


class AttributePredictor:
    """method "classifier": the shipped artifact over the shared sentence encoder (the artifact's
    own encoder is loaded when none, or one of another size, is given); method "llm": in-context
    labelling with the LLM. A failure yields default attributes (open, static, P(dynamic)=0),
    which the routing policy never refuses."""

    def __init__(
        self,
        config: AttributesConfig,
        encoder: SentenceEncoder | None,
        llm: LLMBackend | None = None,
        prompts: PromptLibrary | None = None,
    ):
        self.config = config
        self.classifier: AttributeClassifier | None = None
        self.llm_predictor: LLMAttributePredictor | None = None
        self.encoder = encoder
        if not config.enabled:
            return
        if config.method == "classifier":
            self.classifier = AttributeClassifier.load(config.artifact_path)
            if encoder is None or encoder.dimension != self.classifier.embedding_dimension:
                logger.info(f"Attribute classifier loads its own encoder {config.embedding_model}")
                self.encoder = SentenceEncoder(config.embedding_model)
        elif config.method == "llm":
            if llm is None:
                raise ValueError("attributes.method='llm' needs an LLM backend")
            self.llm_predictor = LLMAttributePredictor(config, llm, prompts or PromptLibrary())
        else:
            raise ValueError(f"Unknown attributes.method {config.method!r}; choose 'classifier' or 'llm'")

    def run(self, questions: list[Question]) -> list[QuestionAttributes]:
        if not self.config.enabled or not questions:
            return [QuestionAttributes() for _ in questions]
        queries = [q.query for q in questions]
        try:
            if self.classifier is not None:
                embeddings = self.encoder.encode(queries)
                results = self.classifier.predict(queries, [q.query_time for q in questions], embeddings)
            else:
                results = self.llm_predictor.run(queries)
            if len(results) != len(questions):
                raise RuntimeError(f"{len(results)} attribute results for {len(questions)} questions")
            return results
        except Exception as error:  # noqa: BLE001 - one bad batch must not stop the system
            logger.exception(f"Attribute prediction failed for the batch ({error}); using defaults")
            return [QuestionAttributes() for _ in questions]

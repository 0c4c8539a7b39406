"""A dummy optional stage, for tests/test_pipeline.py to add to the pipeline as one entry: a second
opinion from the LLM's memory for the questions that ask "how many", given to the reasoning prompt
as the knowledge answer when the knowledge extractor gave none."""

from __future__ import annotations

from collections.abc import Sequence

from models.config import CragConfig
from models.deadline import LLMStageShape
from models.knowledge import KnowledgeAnswer
from models.llm.base import GenerationParams, TimeLimit, TokenUsage
from models.pipeline import Parts, QuestionRecord, Stage

MAX_TOKENS = 32


class SecondOpinionStage(Stage[KnowledgeAnswer]):
    name = "second opinion"
    optional = True
    seed_seconds = 0.0
    seed_prompt_tokens = 150.0

    @classmethod
    def shapes(cls, config: CragConfig) -> dict[str, LLMStageShape]:
        return {cls.name: LLMStageShape(1, MAX_TOKENS, False, "knowledge")}

    def __init__(self, parts: Parts) -> None:
        super().__init__(parts)
        self.component = parts.llm
        self.prompts = parts.prompts

    def runs_for(self, record: QuestionRecord) -> bool | None:
        return "how many" in record.question.query.lower()

    def run(self, records: list[QuestionRecord], limit: TimeLimit) -> Sequence[KnowledgeAnswer]:
        conversations = [
            self.prompts.conversation(
                "knowledge", query=record.question.query, query_time=record.question.query_time
            )
            for record in records
        ]
        answers = []
        for completion in self.component.generate(conversations, GenerationParams(max_tokens=MAX_TOKENS)):
            usage = TokenUsage()
            usage.add(completion)
            answers.append(KnowledgeAnswer(answer=completion.text, usage=usage, error=completion.error))
        return answers

    def write(self, record: QuestionRecord, result: KnowledgeAnswer | None) -> None:
        if record.knowledge is None:
            record.knowledge = result

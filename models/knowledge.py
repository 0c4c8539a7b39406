"""LLM knowledge extractor: the model answers from memory, with no references.

Its answer reaches the reasoning prompt as the opinion of another agent that may be wrong, which
helps on static questions whose pages miss the fact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from models.answers import I_DONT_KNOW, normalize_answer, parse_structured_reply
from models.config import KnowledgeConfig
from models.llm.base import GenerationParams, LLMBackend, TokenUsage
from models.prompts import PromptLibrary
from models.schema import Question, StageResult


@dataclass
class KnowledgeAnswer(StageResult):
    """`error`: the LLM gave no reply for this question."""

    answer: str = I_DONT_KNOW


class KnowledgeExtractor:
    def __init__(self, config: KnowledgeConfig, llm: LLMBackend, prompts: PromptLibrary):
        self.config = config
        self.llm = llm
        self.prompts = prompts

    def run(self, questions: list[Question]) -> list[KnowledgeAnswer]:
        if not questions:
            return []
        conversations = [
            self.prompts.conversation(
                "knowledge", query=question.query, query_time=question.query_time or "unknown"
            )
            for question in questions
        ]
        params = GenerationParams(
            max_tokens=self.config.max_tokens,
            json_schema=self._schema() if self.config.constrained_output else None,
        )
        answers = []
        for completion in self.llm.generate(conversations, params):
            usage = TokenUsage()
            usage.add(completion)
            answer = parse_structured_reply(completion.text, ("answer",)).get("answer", "")
            answer = normalize_answer(answer)
            answers.append(KnowledgeAnswer(answer=answer, usage=usage, error=completion.error))
        return answers

    def json_schemas(self) -> list[dict[str, Any]]:
        """The output schemas this stage sends (for the backend's warm-up)."""
        return [self._schema()] if self.config.constrained_output else []

    def _schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "reasoning": {"type": "string", "maxLength": self.config.reasoning_max_chars},
                "answer": {"type": "string", "maxLength": self.config.answer_max_chars},
            },
            "required": ["reasoning", "answer"],
        }

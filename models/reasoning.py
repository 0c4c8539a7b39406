"""Reasoning module: one prompt over all evidence, a structured reply, and robust parsing.

The reply carries the reasoning, a false-premise flag and a short answer. A raised flag becomes
exactly `invalid question`; any "I don't know" becomes exactly `I don't know`. Replies that cannot
be parsed get one batched backup call that pulls a short answer out of the reasoning.

When the deadline leaves no time for full replies, the orchestrator asks for brief ones: the same
prompt, with a schema that has no reasoning field. A reply the deadline cut is an error for its
question; its answer counts only when the reply had already finished the answer field (the stage
may then ask again for a brief reply, models/stages.py). The backup call runs only for the
replies whose call the time left affords (`affordable`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from loguru import logger

from models.answers import (
    I_DONT_KNOW,
    INVALID_QUESTION,
    cap_answer_tokens,
    is_yes,
    normalize_answer,
    parse_structured_reply,
)
from models.calculator import CalculationResult
from models.config import ReasoningConfig
from models.knowledge import KnowledgeAnswer
from models.llm.base import Completion, GenerationParams, LLMBackend
from models.prompts import PromptLibrary
from models.replies import find_json
from models.schema import Event, Evidence, Question, StageResult

NONE_GIVEN = "(none)"
_FIELDS = ("reasoning", "false_premise", "answer")
BACKUP_CALL = "reasoning (backup)"

# How many of the first calls of a named kind, with these prompt tokens, the time left affords.
Affordable = Callable[[str, list[int]], int]


@dataclass
class ReasoningResult(StageResult):
    """`error`: the LLM gave no reply for this question."""

    answer: str = I_DONT_KNOW
    reasoning: str = ""
    false_premise: bool = False
    parsed: bool = False
    used_backup: bool = False
    prompt_references: list[str] = field(default_factory=list)  # exact reference texts in the prompt
    cut: bool = False  # the deadline stopped the reply
    recovered: bool = False  # ...and a brief reply asked again gave the answer


class Reasoner:
    def __init__(self, config: ReasoningConfig, llm: LLMBackend, prompts: PromptLibrary):
        self.config = config
        self.llm = llm
        self.prompts = prompts

    def run(
        self,
        questions: list[Question],
        evidence: list[Evidence],
        kg_references: list[list[str]],
        calculations: list[CalculationResult | None],
        knowledge: list[KnowledgeAnswer | None],
        brief: bool = False,
        affordable: Affordable | None = None,
        changing: list[bool] | None = None,
    ) -> list[ReasoningResult]:
        """One reply per question; `brief` asks for the answer without the reasoning text;
        `affordable` (None: no limit) tells how many backup calls the time left allows; `changing`
        marks the questions predicted to ask a fact that changes (told to weigh the dates)."""
        count = len(questions)
        lengths = {len(evidence), len(kg_references), len(calculations), len(knowledge)}
        if lengths != {count}:
            raise ValueError(
                f"Reasoner.run needs one item per question ({count}), got lengths {sorted(lengths)}"
            )
        if not questions:
            return []
        results = [
            ReasoningResult(prompt_references=[*item.references, *kg_lines])
            for item, kg_lines in zip(evidence, kg_references)
        ]
        conversations = self.conversations(
            questions, evidence, kg_references, calculations, knowledge, changing
        )
        params = GenerationParams(
            max_tokens=self.config.brief_max_tokens if brief else self.config.max_tokens,
            json_schema=self._schema(brief) if self.config.constrained_output else None,
        )
        completions = self.llm.generate(conversations, params)
        unparsed = []
        for index, completion in enumerate(completions):
            results[index].usage.add(completion)
            results[index].error = completion.error
            results[index].cut = completion.cut
            if completion.cut:
                self._read_cut_reply(completion, results[index])
            elif not self._read_reply(completion, results[index]) and completion.text.strip():
                unparsed.append(index)
        if unparsed:
            self._backup(questions, completions, results, unparsed, affordable)
        for result in results:
            result.answer = cap_answer_tokens(result.answer, self.llm, self.config.answer_max_tokens)
        return results

    def conversations(
        self,
        questions: list[Question],
        evidence: list[Evidence],
        kg_references: list[list[str]],
        calculations: list[CalculationResult | None],
        knowledge: list[KnowledgeAnswer | None],
        changing: list[bool] | None = None,
    ) -> list[list[dict[str, str]]]:
        marks = changing if changing is not None else [False] * len(questions)
        return [
            self._conversation(*inputs)
            for inputs in zip(questions, evidence, kg_references, calculations, knowledge, marks, strict=True)
        ]

    def prompt_tokens(self, conversations: list[list[dict[str, str]]]) -> list[int]:
        """Each conversation's prompt tokens."""
        return [self.llm.conversation_tokens(c) for c in conversations]

    def _conversation(
        self,
        question: Question,
        evidence: Evidence,
        kg_lines: list[str],
        calculation: CalculationResult | None,
        knowledge: KnowledgeAnswer | None,
        changing: bool,
    ) -> list[dict[str, str]]:
        """The prompt names a helper only when it ran for the question (the plan or the deadline may
        skip the calculator and the knowledge extractor), the KG only when it has facts, and the
        dates only for a question predicted to change (`reasoning.state_change`)."""
        other_answer = knowledge.answer if knowledge is not None and knowledge.answer != I_DONT_KNOW else ""
        return self.prompts.conversation(
            "reasoning",
            query=question.query,
            query_time=question.query_time or "unknown",
            references=_block([f"[{n}] {text}" for n, text in enumerate(evidence.references, 1)], "\n\n"),
            kg=_block(kg_lines) if kg_lines else None,
            calculations=_block(calculation.lines) if calculation is not None else None,
            knowledge=(other_answer or NONE_GIVEN) if knowledge is not None else None,
            changes="" if changing and self.config.state_change else None,
        )

    def _read_reply(self, completion: Completion, result: ReasoningResult) -> bool:
        """Fill `result` from the structured reply; False when no answer could be found in it."""
        fields = parse_structured_reply(completion.text, _FIELDS)
        result.reasoning = fields.get("reasoning", completion.text.strip())
        if "answer" not in fields:
            return False
        result.parsed = True
        result.false_premise = self.config.false_premise_detection and is_yes(fields.get("false_premise"))
        result.answer = self._final_answer(fields["answer"], result.false_premise)
        return True

    def _read_cut_reply(self, completion: Completion, result: ReasoningResult) -> None:
        """A reply stopped by the deadline: its answer, only when the reply got past it (the JSON
        object lacks at most its closing brace)."""
        text = completion.text.strip()
        for candidate in (text, text + "}"):
            if find_json(candidate) is not None and candidate.startswith("{"):
                self._read_reply(Completion(texts=[candidate]), result)
                return

    def _final_answer(self, raw_answer: str, false_premise: bool) -> str:
        answer = normalize_answer(raw_answer)
        if false_premise:
            # A reply that flags a false premise yet answers "I don't know" is unsure of both.
            return I_DONT_KNOW if answer == I_DONT_KNOW else INVALID_QUESTION
        if answer == INVALID_QUESTION and not self.config.false_premise_detection:
            return I_DONT_KNOW
        return answer

    def _backup(
        self,
        questions: list[Question],
        completions: list[Completion],
        results: list[ReasoningResult],
        indices: list[int],
        affordable: Affordable | None,
    ) -> None:
        """One batched call that extracts a short answer from each unparsed reasoning reply, for as
        many of them as the time left affords (the others keep `I don't know`)."""
        conversations = [
            self.prompts.conversation(
                "reasoning_backup",
                query=questions[i].query,
                reasoning=self.llm.truncate_to_tokens(
                    completions[i].text.strip(), self.config.backup_input_max_tokens
                ),
            )
            for i in indices
        ]
        if affordable is not None:
            count = affordable(BACKUP_CALL, self.prompt_tokens(conversations))
            for index in indices[count:]:
                results[index].events.append(BACKUP_SKIPPED)
            indices, conversations = indices[:count], conversations[:count]
            if not indices:
                return
        logger.info("reasoning: backup summarization for {} of {} questions", len(indices), len(questions))
        backups = self.llm.generate(conversations, GenerationParams(max_tokens=self.config.backup_max_tokens))
        for index, completion in zip(indices, backups):
            result = results[index]
            result.usage.add(completion)
            result.error = completion.error
            result.used_backup = True
            result.answer = self._final_answer(completion.text, false_premise=False)
            result.false_premise = result.answer == INVALID_QUESTION

    def json_schemas(self) -> list[dict[str, Any]]:
        """The output schemas this stage sends (for the backend's warm-up)."""
        return [self._schema(False), self._schema(True)] if self.config.constrained_output else []

    def _schema(self, brief: bool) -> dict[str, Any]:
        properties: dict[str, Any] = {
            "reasoning": {"type": "string", "maxLength": self.config.reasoning_max_chars},
            "false_premise": {"type": "boolean"},
            "answer": {"type": "string", "maxLength": self.config.answer_max_chars},
        }
        if brief:
            del properties["reasoning"]
        if not self.config.false_premise_detection:
            del properties["false_premise"]
        return {"type": "object", "properties": properties, "required": list(properties)}


BACKUP_SKIPPED = Event("skipped", "backup answer prompt skipped to meet the deadline", I_DONT_KNOW)


def _block(lines: list[str], separator: str = "\n") -> str:
    return separator.join(lines) if lines else NONE_GIVEN

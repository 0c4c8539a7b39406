"""The calculator, knowledge extractor and reasoner on the real embedded model (format, not accuracy)."""

from __future__ import annotations

import bz2
import json

import pytest

from models.answers import I_DONT_KNOW, INVALID_QUESTION
from models.calculator import Calculator, format_value, safe_eval
from models.config import load_config
from models.knowledge import KnowledgeExtractor
from models.prompts import PromptLibrary
from models.reasoning import Reasoner
from models.schema import Evidence, Question

# A yes/no comparison and a false-premise question from the public example set.
PICKED = (0, 4)
SNIPPETS_PER_QUESTION = 3
SNIPPET_TOKENS = 120


def _well_formed(answer: str) -> bool:
    lowered = answer.lower()
    if "i don't know" in lowered:
        return answer == I_DONT_KNOW
    if "invalid question" in lowered:
        return answer == INVALID_QUESTION
    return bool(answer.strip())


@pytest.mark.model
def test_stages_on_real_questions(embedded_llm, shared_data):
    rows = [
        json.loads(line) for line in bz2.open(shared_data / "crag_dev_10.jsonl.bz2", "rt", encoding="utf-8")
    ]
    rows = [rows[index] for index in PICKED]
    questions = [Question(row["interaction_id"], row["query"], row["query_time"]) for row in rows]
    evidence = [
        Evidence(
            chunks=[
                embedded_llm.truncate_to_tokens(" ".join(page["page_snippet"].split()), SNIPPET_TOKENS)
                for page in row["search_results"]
                if page["page_snippet"].strip()
            ][:SNIPPETS_PER_QUESTION]
        )
        for row in rows
    ]
    config = load_config("cpu")
    prompts = PromptLibrary()

    calculations = Calculator(config.calculator, embedded_llm, prompts).run(questions, evidence)
    knowledge = KnowledgeExtractor(config.knowledge, embedded_llm, prompts).run(questions)
    results = Reasoner(config.reasoning, embedded_llm, prompts).run(
        questions, evidence, [[] for _ in questions], calculations, knowledge
    )

    for calculation in calculations:
        assert calculation.usage.calls == 1 and calculation.usage.completion_tokens > 0
        assert len(calculation.lines) <= config.calculator.max_results
        for line in calculation.lines:
            expression, _, value = line.rpartition(" = ")
            assert format_value(safe_eval(expression)) == value
    for answer in knowledge:
        assert answer.usage.calls == 1
        assert _well_formed(answer.answer)
    for result, item in zip(results, evidence):
        assert _well_formed(result.answer)
        assert embedded_llm.count_tokens(result.answer) <= config.reasoning.answer_max_tokens
        assert result.parsed or result.used_backup
        assert result.usage.calls == 1 + int(result.used_backup)
        assert result.prompt_references == item.chunks
        assert not result.false_premise or result.answer == INVALID_QUESTION

from __future__ import annotations

from models.answers import I_DONT_KNOW, INVALID_QUESTION
from models.config import KnowledgeConfig
from models.knowledge import KnowledgeAnswer, KnowledgeExtractor
from models.prompts import PromptLibrary
from models.schema import Question
from tests.doubles import ScriptedLLM


def make_questions(count: int) -> list[Question]:
    return [Question(f"q{i}", f"who wrote book {i}?", "03/10/2024, 23:34:42 PT") for i in range(count)]


def test_one_call_for_the_batch_and_answers_in_order():
    replies = [
        '{"reasoning": "I remember it.", "answer": "Jane Austen"}',
        '{"reasoning": "Not sure.", "answer": "i don\'t know"}',
        '{"reasoning": "No such book.", "answer": "Invalid question."}',
        "Reasoning: well known.\nAnswer: Leo Tolstoy",
        "I cannot structure this",
    ]
    llm = ScriptedLLM(replies)
    answers = KnowledgeExtractor(KnowledgeConfig(), llm, PromptLibrary()).run(make_questions(5))

    assert len(llm.calls) == 1
    conversations, params = llm.calls[0]
    assert len(conversations) == 5 and params.n == 1
    assert params.json_schema["required"] == ["reasoning", "answer"]
    prompt = " ".join(message["content"] for message in conversations[0])
    assert "who wrote book 0?" in prompt and "03/10/2024" in prompt
    expected = ["Jane Austen", I_DONT_KNOW, INVALID_QUESTION, "Leo Tolstoy", I_DONT_KNOW]
    assert [a.answer for a in answers] == expected
    assert all(isinstance(a, KnowledgeAnswer) and a.usage.calls == 1 for a in answers)


def test_unconstrained_config_sends_no_schema():
    llm = ScriptedLLM(['{"answer": "x"}'])
    KnowledgeExtractor(KnowledgeConfig(constrained_output=False), llm, PromptLibrary()).run(make_questions(1))
    assert llm.calls[0][1].json_schema is None


def test_a_failed_completion_means_i_dont_know():
    class Failing(ScriptedLLM):
        def generate(self, conversations, params):
            completions = super().generate(conversations, params)
            completions[0].texts, completions[0].error = [], "boom"
            return completions

    answers = KnowledgeExtractor(KnowledgeConfig(), Failing(['{"answer": "x"}']), PromptLibrary()).run(
        make_questions(1)
    )
    assert answers[0].answer == I_DONT_KNOW


def test_empty_batch_makes_no_call():
    llm = ScriptedLLM([])
    assert KnowledgeExtractor(KnowledgeConfig(), llm, PromptLibrary()).run([]) == []
    assert llm.calls == []

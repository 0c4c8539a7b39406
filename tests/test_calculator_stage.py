"""The calculator stage with a scripted LLM: batching, parsing of replies, filtering of results."""

from __future__ import annotations

from models.calculator import Calculator, CalculationResult, candidate_expressions
from models.config import CalculatorConfig
from models.prompts import PromptLibrary
from models.schema import Evidence, Question
from tests.doubles import ScriptedLLM


def make_questions(count: int) -> list[Question]:
    return [Question(f"q{i}", f"question {i}?", "03/10/2024, 23:34:42 PT") for i in range(count)]


def test_one_call_per_batch_with_n_samples_and_a_schema():
    config = CalculatorConfig(samples=3)
    llm = ScriptedLLM([['{"expression": "1 + 1"}'] * 3, ['{"expression": "2 * 3"}'] * 3])
    evidence = [Evidence(chunks=["revenue was 10"], tables=["| a |\n|---|\n| 1 |"]), Evidence()]
    results = Calculator(config, llm, PromptLibrary()).run(make_questions(2), evidence)

    assert len(llm.calls) == 1
    conversations, params = llm.calls[0]
    assert len(conversations) == 2
    assert params.n == 3
    assert params.temperature == config.temperature and params.max_tokens == config.max_tokens
    assert params.json_schema["required"] == ["expression"]
    prompt = conversations[0][-1]["content"]
    assert "question 0?" in prompt and "revenue was 10" in prompt and "03/10/2024" in prompt
    assert [r.lines for r in results] == [["1 + 1 = 2"], ["2 * 3 = 6"]]
    assert all(r.usage.calls == 1 and r.usage.prompt_tokens > 0 for r in results)


def test_unconstrained_config_sends_no_schema():
    llm = ScriptedLLM(["1 + 1"])
    Calculator(CalculatorConfig(samples=1, constrained_output=False), llm, PromptLibrary()).run(
        make_questions(1), [Evidence()]
    )
    assert llm.calls[0][1].json_schema is None


def test_references_are_cut_to_the_token_budget():
    llm = ScriptedLLM(["none"])
    config = CalculatorConfig(samples=1, max_reference_tokens=5)
    Calculator(config, llm, PromptLibrary()).run(make_questions(1), [Evidence(chunks=["w " * 50 + "TAIL"])])
    assert "TAIL" not in llm.calls[0][0][0][-1]["content"]


def test_invalid_refused_and_duplicate_results_are_dropped():
    evidence = Evidence(chunks=["sales rose from 120 to 150; 30 more; about 1,234 units"])
    samples = [
        '{"expression": "(150 - 120) / 120 * 100"}',
        '{"expression": "30 / 120 * 100"}',  # same value: dropped
        '{"expression": "__import__(\'os\').getcwd()"}',  # refused
        '{"expression": "not python at all"}',  # unparseable
        '{"expression": "42"}',  # a bare literal computes nothing
        '{"expression": "-5"}',
        '{"expression": "1,234 + 5"}',  # a tuple is a misread number, not a result
        '{"expression": ""}',  # the model found nothing to compute
    ]
    llm = ScriptedLLM([samples])
    results = Calculator(CalculatorConfig(samples=len(samples)), llm, PromptLibrary()).run(
        make_questions(1), [evidence]
    )
    assert results[0].lines == ["(150 - 120) / 120 * 100 = 25"]


def test_only_numbers_the_prompt_holds_are_used():
    samples = [
        # the prompt's example: 2023 unwritten
        '{"expression": "(date(2024, 3, 1) - date(2023, 1, 1)).days"}',
        '{"expression": "(2024 - 2023) * 3"}',
        '{"expression": "117 - 109"}',
        '{"expression": "round(1402233 / 1e6, 2)"}',  # 1e6 is a unit factor
        '{"expression": "49.31 * 0.0514"}',  # 0.0514 is 5.14 %
        '{"expression": "(date(2024, 3, 10) - date(2024, 3, 7)).days"}',  # dates of the time and the facts
    ]
    evidence = Evidence(chunks=["2024-03-07: 117 - 109; volume 1,402,233; close 49.31, +5.14%"])
    llm = ScriptedLLM([samples])
    result = Calculator(CalculatorConfig(samples=len(samples)), llm, PromptLibrary()).run(
        make_questions(1), [evidence]
    )[0]
    assert result.lines == [
        "117 - 109 = 8",
        "round(1402233 / 1e6, 2) = 1.4",
        "49.31 * 0.0514 = 2.534534",
        "(date(2024, 3, 10) - date(2024, 3, 7)).days = 3",
    ]
    assert Calculator(
        CalculatorConfig(samples=1, grounded_numbers_only=False), ScriptedLLM([samples[1]]), PromptLibrary()
    ).run(make_questions(1), [Evidence()])[0].lines == ["(2024 - 2023) * 3 = 3"]


def test_results_are_capped_at_max_results():
    samples = [f'{{"expression": "{i} * 2"}}' for i in range(1, 6)]  # small integers need no reference
    llm = ScriptedLLM([samples])
    results = Calculator(CalculatorConfig(samples=5, max_results=2), llm, PromptLibrary()).run(
        make_questions(1), [Evidence()]
    )
    assert results[0].lines == ["1 * 2 = 2", "2 * 2 = 4"]


def test_a_failed_completion_gives_no_lines_and_spares_the_batch():
    class FailingFirst(ScriptedLLM):
        def generate(self, conversations, params):
            completions = super().generate(conversations, params)
            completions[0].texts, completions[0].error = [], "boom"
            return completions

    llm = FailingFirst(['{"expression": "1 + 2"}', '{"expression": "2 + 2"}'])
    calculator = Calculator(CalculatorConfig(samples=1), llm, PromptLibrary())
    results = calculator.run(make_questions(2), [Evidence()] * 2)
    assert [r.lines for r in results] == [[], ["2 + 2 = 4"]]


def test_empty_batch_makes_no_call():
    llm = ScriptedLLM([])
    assert Calculator(CalculatorConfig(), llm, PromptLibrary()).run([], []) == []
    assert llm.calls == []


def test_candidate_expressions_from_free_text_replies():
    fenced = "```python\n(date(2024, 3, 10) - date(2020, 1, 1)).days\n```"
    assert candidate_expressions(fenced) == ["(date(2024, 3, 10) - date(2020, 1, 1)).days"]
    assert candidate_expressions("- 1 + 1\n2. 3 * 3\n# a comment") == ["1 + 1", "3 * 3"]
    assert candidate_expressions('{"expression": "2 + 2", "note": "trunc') == ["2 + 2"]
    assert candidate_expressions('{"expression": ["1 + 1", "2 + 2"]}') == ["1 + 1", "2 + 2"]


def test_assignment_and_equation_forms_keep_the_computing_side():
    llm = ScriptedLLM([["growth = (110 - 100) / 100 * 100", "2 + 3 = 5"]])
    calculator = Calculator(CalculatorConfig(samples=2), llm, PromptLibrary())
    result = calculator.run(make_questions(1), [Evidence(chunks=["it grew from 100 to 110"])])[0]
    assert isinstance(result, CalculationResult)
    assert result.lines == ["(110 - 100) / 100 * 100 = 10", "2 + 3 = 5"]

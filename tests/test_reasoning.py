"""The reasoning stage with a scripted LLM: prompt contents, each parse branch and each fallback."""

from __future__ import annotations

import pytest

from models.answers import I_DONT_KNOW, INVALID_QUESTION
from models.calculator import CalculationResult
from models.config import ReasoningConfig
from models.knowledge import KnowledgeAnswer
from models.prompts import PromptLibrary
from models.reasoning import BACKUP_CALL, Reasoner, ReasoningResult
from models.schema import Evidence, Question
from tests.doubles import ScriptedLLM

QUERY_TIME = "03/10/2024, 23:34:42 PT"


def run(replies, count=None, config=None, evidence=None, kg=None, calculations=None, knowledge=None):
    count = count if count is not None else len(replies)
    llm = ScriptedLLM(replies)
    questions = [Question(f"q{i}", f"question {i}?", QUERY_TIME) for i in range(count)]
    results = Reasoner(config or ReasoningConfig(), llm, PromptLibrary()).run(
        questions,
        evidence or [Evidence(chunks=[f"chunk {i}"]) for i in range(count)],
        kg or [[] for _ in range(count)],
        calculations or [None] * count,
        knowledge or [None] * count,
    )
    return results, llm


def reply(answer, false_premise=False, reasoning="because"):
    premise = "true" if false_premise else "false"
    return f'{{"reasoning": "{reasoning}", "false_premise": {premise}, "answer": "{answer}"}}'


def test_prompt_carries_every_input_and_the_query_time():
    evidence = [Evidence(chunks=["Paris is the capital."], tables=["| city |\n|---|\n| Paris |"])]
    results, llm = run(
        [reply("Paris")],
        evidence=evidence,
        kg=[["capital(France) = Paris"]],
        calculations=[CalculationResult(lines=["2 + 2 = 4"])],
        knowledge=[KnowledgeAnswer(answer="Lyon")],
    )
    assert len(llm.calls) == 1
    conversation, params = llm.calls[0][0][0], llm.calls[0][1]
    prompt = conversation[-1]["content"]
    expected_parts = [QUERY_TIME, "question 0?", "Paris is the capital.", "| Paris |"]
    expected_parts += ["capital(France) = Paris", "2 + 2 = 4", "Lyon"]
    for expected in expected_parts:
        assert expected in prompt
    assert set(params.json_schema["required"]) == {"reasoning", "false_premise", "answer"}
    references = ["Paris is the capital.", "| city |\n|---|\n| Paris |", "capital(France) = Paris"]
    assert results[0].prompt_references == references
    assert results[0] == ReasoningResult(
        answer="Paris",
        reasoning="because",
        parsed=True,
        prompt_references=results[0].prompt_references,
        usage=results[0].usage,
    )


def test_helpers_that_ran_empty_are_shown_as_none_and_helpers_that_did_not_run_are_not_named():
    _, llm = run(
        [reply("x")] * 2,
        evidence=[Evidence(), Evidence()],
        calculations=[CalculationResult(lines=[]), None],
        knowledge=[KnowledgeAnswer(answer=I_DONT_KNOW), None],
    )
    ran, skipped = ([message["content"] for message in conversation] for conversation in llm.calls[0][0])
    assert ran[1].count("(none)") == 3  # references, calculations, other agent
    assert "## Calculations" in ran[1] and "calculation results" in ran[0] and "from memory" in ran[0]
    assert skipped[1].count("(none)") == 1  # references only
    for helper in ("Calculations", "Another agent", "Knowledge graph"):
        assert helper not in skipped[1]
    assert "calculation results" not in skipped[0] and "from memory" not in skipped[0]
    assert "knowledge graph holds" not in ran[0]  # no KG facts for either


@pytest.mark.parametrize(
    ("raw", "expected", "false_premise"),
    [
        (reply("Paris"), "Paris", False),
        (reply("Paris", false_premise=True), INVALID_QUESTION, True),
        (reply("I don't know", false_premise=True), I_DONT_KNOW, True),  # unsure of both: abstain
        (reply("invalid question"), INVALID_QUESTION, False),
        (reply("I don't know"), I_DONT_KNOW, False),
        (reply("Probably Paris, but I don't know for sure"), I_DONT_KNOW, False),
        ('{"reasoning": "r", "false_premise": "yes", "answer": "x"}', INVALID_QUESTION, True),
        ('```json\n{"answer": "42", "false_premise": false}\n```', "42", False),
        # unconstrained large-model styles
        ("Reasoning: the page says so.\nFalse premise: no\nFinal answer: Tokyo", "Tokyo", False),
        ("Reasoning: no such award.\nFalse premise: yes\nAnswer: none", INVALID_QUESTION, True),
        # output cut off after the answer field
        ('{"reasoning": "r", "false_premise": false, "answer": "Rome', "Rome", False),
        ('{"reasoning": "r", "false_premise": false, "answer": ""}', I_DONT_KNOW, False),
        ('{"reasoning": "Bolt ran it.", "false_premise": false, "answer": ","}', I_DONT_KNOW, False),
    ],
)
def test_parse_branches(raw, expected, false_premise):
    results, llm = run([raw])
    assert len(llm.calls) == 1  # no backup call
    assert results[0].parsed and not results[0].used_backup
    assert results[0].answer == expected
    assert results[0].false_premise is false_premise


def test_unparsed_replies_get_one_batched_backup_call():
    replies = [
        reply("Paris"),
        '{"reasoning": "The pages list three albums, so the count is',  # cut off before the answer
        "Some prose without any structure, concluding it was 1998.",
        # backup replies, in order of the unparsed questions
        "Answer: 3",
        "1998.",
    ]
    results, llm = run(replies, count=3)
    assert len(llm.calls) == 2
    backup_conversations, backup_params = llm.calls[1]
    assert len(backup_conversations) == 2
    assert backup_params.max_tokens == ReasoningConfig().backup_max_tokens
    assert "question 1?" in backup_conversations[0][-1]["content"]
    assert "the count is" in backup_conversations[0][-1]["content"]
    assert [r.answer for r in results] == ["Paris", "3", "1998"]
    assert [r.used_backup for r in results] == [False, True, True]
    assert [r.parsed for r in results] == [True, False, False]
    assert results[1].reasoning == "The pages list three albums, so the count is"
    assert [r.usage.calls for r in results] == [1, 2, 2]


def test_the_backup_call_runs_for_as_many_replies_as_the_time_left_affords():
    replies = [
        '{"reasoning": "The pages list three albums, so the count is',
        "Some prose without any structure, concluding it was 1998.",
        "Answer: 3",
    ]
    llm = ScriptedLLM(replies)
    asked = []

    def affordable(stage, prompt_tokens):
        asked.append((stage, len(prompt_tokens)))
        return 1

    questions = [Question(f"q{i}", f"question {i}?", QUERY_TIME) for i in range(2)]
    results = Reasoner(ReasoningConfig(), llm, PromptLibrary()).run(
        questions, [Evidence(chunks=["c"])] * 2, [[], []], [None, None], [None, None], affordable=affordable
    )
    assert asked == [(BACKUP_CALL, 2)]
    assert len(llm.calls) == 2 and len(llm.calls[1][0]) == 1  # the backup call for the first only
    assert [r.answer for r in results] == ["3", I_DONT_KNOW]
    assert results[1].events and "skipped to meet the deadline" in results[1].events[-1].what


@pytest.mark.parametrize(
    ("backup_reply", "expected"),
    [("I don't know.", I_DONT_KNOW), ("Invalid question", INVALID_QUESTION), ("", I_DONT_KNOW)],
)
def test_backup_answers_are_normalized(backup_reply, expected):
    results, _ = run(["unstructured text", backup_reply], count=1)
    assert results[0].used_backup and results[0].answer == expected


def test_failed_reasoning_call_gives_i_dont_know_without_backup():
    class Failing(ScriptedLLM):
        def generate(self, conversations, params):
            completions = super().generate(conversations, params)
            completions[0].texts, completions[0].error = [], "prompt too long"
            return completions

    llm = Failing([reply("x")])
    results = Reasoner(ReasoningConfig(), llm, PromptLibrary()).run(
        [Question("q", "question?", QUERY_TIME)], [Evidence()], [[]], [None], [None]
    )
    assert len(llm.calls) == 1
    assert results[0].answer == I_DONT_KNOW and not results[0].parsed and not results[0].used_backup


def test_false_premise_detection_off_ignores_the_flag():
    config = ReasoningConfig(false_premise_detection=False)
    results, llm = run([reply("Paris", false_premise=True), reply("invalid question")], config=config)
    assert "false_premise" not in llm.calls[0][1].json_schema["properties"]
    assert [r.answer for r in results] == ["Paris", I_DONT_KNOW]
    assert not any(r.false_premise for r in results)


def test_unconstrained_config_sends_no_schema():
    _, llm = run([reply("x")], config=ReasoningConfig(constrained_output=False))
    assert llm.calls[0][1].json_schema is None


def test_answers_are_capped_in_tokens():
    results, _ = run([reply(" ".join(["word"] * 100))], config=ReasoningConfig(answer_max_tokens=75))
    assert results[0].answer.split() == ["word"] * 75


def test_mismatched_inputs_are_a_clear_error():
    llm = ScriptedLLM([])
    with pytest.raises(ValueError, match="one item per question"):
        Reasoner(ReasoningConfig(), llm, PromptLibrary()).run(
            [Question("q", "question?", QUERY_TIME)], [Evidence()], [], [None], [None]
        )
    assert llm.calls == []


def test_empty_batch_makes_no_call():
    results, llm = run([], count=0)
    assert results == [] and llm.calls == []


class CutAt(ScriptedLLM):
    """Replies as scripted, but stopped by the deadline: each text cut to its first `keep` characters."""

    def __init__(self, replies, keep):
        super().__init__(replies)
        self.keep = keep

    def generate(self, conversations, params):
        completions = super().generate(conversations, params)
        for completion in completions:
            completion.texts = [text[: self.keep] for text in completion.texts]
            completion.cut, completion.error = True, "stopped at the batch deadline after 30 generated tokens"
        return completions


def run_cut(reply_text, keep):
    llm = CutAt([reply_text], keep)
    results = Reasoner(ReasoningConfig(), llm, PromptLibrary()).run(
        [Question("q0", "question 0?", QUERY_TIME)], [Evidence(chunks=["chunk"])], [[]], [None], [None]
    )
    return results[0], llm


def test_a_cut_reply_keeps_an_answer_it_had_finished():
    text = reply("Paris")
    result, llm = run_cut(text, len(text) - 1)  # only the closing brace is missing
    assert result.answer == "Paris" and result.cut and "batch deadline" in result.error
    assert len(llm.calls) == 1  # no backup call: there is no time for one


@pytest.mark.parametrize("missing", [3, 12, 40])
def test_a_cut_reply_without_a_finished_answer_is_i_dont_know(missing):
    text = reply("Paris, the capital")
    result, llm = run_cut(text, len(text) - missing)
    assert result.answer == I_DONT_KNOW and not result.parsed and result.cut
    assert len(llm.calls) == 1


def test_brief_replies_are_asked_without_the_reasoning_field_and_fewer_tokens():
    llm = ScriptedLLM(['{"false_premise": false, "answer": "Paris"}'])
    config = ReasoningConfig()
    results = Reasoner(config, llm, PromptLibrary()).run(
        [Question("q0", "question 0?", QUERY_TIME)],
        [Evidence(chunks=["chunk"])],
        [[]],
        [None],
        [None],
        brief=True,
    )
    params = llm.calls[0][1]
    assert params.json_schema["required"] == ["false_premise", "answer"]
    assert params.max_tokens == config.brief_max_tokens < config.max_tokens
    assert results[0].answer == "Paris" and results[0].parsed


def test_both_reply_schemas_are_prepared_at_warm_up():
    schemas = Reasoner(ReasoningConfig(), ScriptedLLM([]), PromptLibrary()).json_schemas()
    assert [schema["required"] for schema in schemas] == [
        ["reasoning", "false_premise", "answer"],
        ["false_premise", "answer"],
    ]


def _system_prompts(changing, config=None):
    reasoner = Reasoner(config or ReasoningConfig(), ScriptedLLM([]), PromptLibrary())
    questions = [Question(f"q{i}", "who holds the record?", QUERY_TIME) for i in range(len(changing))]
    conversations = reasoner.conversations(
        questions,
        [Evidence(chunks=["a"])] * len(changing),
        [[]] * len(changing),
        [None] * len(changing),
        [None] * len(changing),
        changing,
    )
    return [conversation[0]["content"] for conversation in conversations]


def test_only_a_question_predicted_to_change_is_told_to_weigh_the_dates():
    static, changing = _system_prompts([False, True], ReasoningConfig(state_change=True))
    added = [line for line in changing.splitlines() if line not in static.splitlines()]
    assert len(added) == 1 and added[0].startswith("- The asked fact changes over time")
    assert changing.replace(added[0] + "\n", "") == static


def test_the_date_line_can_be_turned_off_and_a_static_prompt_never_changes():
    off = ReasoningConfig(state_change=False)
    on = ReasoningConfig(state_change=True)
    assert _system_prompts([True], off) == _system_prompts([False], off) == _system_prompts([False], on)

"""The declared list of stages (models/stages.py) run by models/pipeline.py: a stage added as one
entry runs for the questions its rule picks, has its reserve in the deadline, is skipped when time
is short, and shows in the report, the time model and the token budget."""

from __future__ import annotations

import json

import pytest

from evaluation.data import parse_record
from evaluation.reports import degradation_counts, stage_summary, token_summary
from evaluation.runner import answers_from_system
from evaluation.time_model import estimate_budget
from models import stages
from models.config import load_config
from models.crag_system import CragSystem
from models.deadline import BatchDeadline, Planned
from models.pipeline import BatchRun, QuestionRecord
from models.schema import Question, TraceEvent
from tests.doubles import ScriptedLLM
from tests.second_opinion_stage import MAX_TOKENS, SecondOpinionStage
from tests.test_crag_system import reply_by_output_shape, sample_batch
from tools.validate import token_budget

OPINION = SecondOpinionStage.name


@pytest.fixture
def second_opinion(monkeypatch):
    """The pipeline with the dummy stage as one more entry, just before the reasoning."""
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    entries = list(stages.STAGES)
    entries.insert(entries.index(stages.ReasoningStage), SecondOpinionStage)
    monkeypatch.setattr(stages, "STAGES", tuple(entries))


@pytest.fixture
def make_system():
    built = []

    def make(llm, **overrides):
        overrides = {
            "attributes.enabled": "false",
            "answer_check.enabled": "false",
            **overrides,
        }  # as test_crag_system
        system = CragSystem(load_config("cpu", overrides), llm=llm)
        built.append(system)
        return system

    yield make
    for system in built:
        system.close()


def opinion_calls(llm):
    return [conversations for conversations, params in llm.calls if params.max_tokens == MAX_TOKENS]


def test_the_added_stage_runs_for_the_questions_its_rule_picks(second_opinion, make_system):
    llm = ScriptedLLM(reply_by_output_shape())
    system = make_system(llm, **{"knowledge.enabled": "false"})

    assert system.batch_generate_answer(sample_batch(3)) == ["canberra"] * 3

    [asked] = opinion_calls(llm)  # one call for the batch, with the one "how many" question
    assert len(asked) == 1 and "how many gold medals" in asked[0][-1]["content"]
    capital, medals, eiffel = system.last_traces
    assert OPINION in medals.timings and medals.tokens[OPINION].calls == 1
    assert OPINION not in capital.timings and OPINION not in eiffel.timings
    # Its answer reached the reasoning prompt of its question, as the knowledge answer.
    reasoning_prompts = [c[-1]["content"] for c in llm.calls[-1][0]]
    assert "I recall it" in reasoning_prompts[1] and "I recall it" not in reasoning_prompts[0]


def test_the_stages_before_it_keep_its_time_free(second_opinion, make_system):
    system = make_system(ScriptedLLM(reply_by_output_shape()))
    records = [QuestionRecord(question) for question in Question.from_batch(sample_batch(3))]
    deadline = BatchDeadline(3, system.config.budget, system.stage_costs, system.speed, system.clock)
    run = BatchRun(records, system.stages, deadline, system.llm, system.clock, system.policy)

    # An optional stage before it (the calculator) keeps its full time; a required one (the web
    # pages) only the least the batch needs, which an optional stage is not.
    assert Planned(OPINION, 1) in run.reserve_after(system.stage("calculator"))
    assert all(planned.stage != OPINION for planned in run.reserve_after(system.stage("web")))
    assert run.reserve_after(system.stage("reasoning")) == []
    # Its reserve is priced from its entry: the seed prompt and its replies of MAX_TOKENS tokens.
    shape = system.stage_costs.shapes[OPINION]
    assert (shape.max_tokens, system.stage_costs.prompt_tokens[OPINION]) == (MAX_TOKENS, 150.0)
    alone = deadline.reserve([Planned(OPINION, 1)])
    assert alone == pytest.approx(system.speed.call_seconds(150, 1, MAX_TOKENS))


def test_the_added_stage_is_skipped_when_time_is_short(second_opinion, make_system):
    llm = ScriptedLLM(reply_by_output_shape())
    system = make_system(llm, **{"budget.seconds_per_question": "0.001"})

    system.batch_generate_answer(sample_batch(3))

    assert opinion_calls(llm) == []
    _, medals, _ = system.last_traces
    assert TraceEvent(OPINION, "skipped", "skipped to meet the deadline") in medals.events


def test_the_added_stage_shows_in_the_report_the_time_model_and_the_token_budget(second_opinion, make_system):
    records = [parse_record(json.loads(line), str(i)) for i, line in enumerate(open("data/sample.jsonl"))][:3]
    lines = answers_from_system(make_system(ScriptedLLM(reply_by_output_shape())))(records)
    lines = [json.loads(json.dumps(line)) for line in lines]  # as predictions.jsonl holds them

    assert stage_summary(lines)[OPINION] == {"ran": 1}
    assert token_summary(lines)[OPINION]["calls"] == 1
    short = answers_from_system(
        make_system(ScriptedLLM(reply_by_output_shape()), **{"budget.seconds_per_question": "0.001"})
    )(records)
    assert degradation_counts(short)[f"{OPINION} skipped to meet the deadline"] == 1

    estimate = estimate_budget(lines, load_config("t4x4"))
    assert estimate["batches"][0]["stages"][OPINION]["decode_s"] > 0
    assert OPINION in [row.stage for row in token_budget(load_config("cpu"))]

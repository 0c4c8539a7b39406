"""The whole system with the real embedded model on real CRAG questions (slow: marked `model`)."""

import bz2
import json

import pytest

from models.config import load_config
from models.user_config import UserModel


def batch_of(records):
    keys = ["interaction_id", "query", "search_results", "query_time"]
    return {key: [record[key] for record in records] for key in keys}


@pytest.fixture(scope="module")
def system(embedded_llm):
    # Plumbing, not speed: a loaded machine must not push reasoning past the deadline.
    model = UserModel(load_config("cpu", {"budget.seconds_per_question": 3600}), llm=embedded_llm)
    yield model
    model.close()  # the page workers; the shared embedded_llm stays open


@pytest.mark.model
def test_answers_one_real_dev_question(system, shared_data):
    with bz2.open(shared_data / "crag_dev_10.jsonl.bz2", "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    static = [r for r in records if r["static_or_dynamic"] == "static"][:1]

    answers = system.batch_generate_answer(batch_of(static))

    assert len(answers) == 1 and isinstance(answers[0], str) and answers[0].strip()
    trace = system.last_traces[0]
    assert trace.interaction_id == static[0]["interaction_id"]
    assert trace.prediction == answers[0]
    assert {"web", "retrieval", "reasoning"} <= set(trace.timings)
    assert trace.tokens["reasoning"].prompt_tokens > 0
    assert trace.references, "the reasoning prompt got no references from five real pages"
    assert trace.failures == {}, "no stage may fail on a real question"


@pytest.mark.model
def test_bundled_sample_batch_survives_a_broken_page(system):
    from pathlib import Path

    sample = Path(__file__).resolve().parents[1] / "data" / "sample.jsonl"
    records = [json.loads(line) for line in sample.read_text(encoding="utf-8").splitlines()][:2]
    records[0]["search_results"].append({"page_name": None, "page_result": b"\xff\xfe".decode("latin-1") * 3})
    records[1]["search_results"] = None

    answers = system.batch_generate_answer(batch_of(records))

    assert len(answers) == 2
    assert all(isinstance(answer, str) and answer for answer in answers)

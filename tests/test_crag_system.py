"""The orchestrator with a scripted LLM: routing, batching, traces, failures and the deadline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.reports import degradation_counts, event_kind_counts, failure_counts, page_summary
from models.config import load_config
from models.crag_system import CragSystem
from models.schema import QuestionAttributes, TraceEvent
from models.web import Page
from tests.doubles import ScriptedLLM

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample.jsonl"


def sample_batch(count: int) -> dict[str, list]:
    records = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()][:count]
    keys = ["interaction_id", "query", "search_results", "query_time"]
    return {key: [record[key] for record in records] for key in keys}


def reply_by_output_shape(answer: str = "canberra", false_premise: bool = False):
    """Answers each stage by the JSON shape its prompt asks for."""

    def reply(conversation, params):
        properties = (params.json_schema or {}).get("properties", {})
        if "expression" in properties:
            return json.dumps({"expression": "2024 - 2014"})
        if "false_premise" in properties:
            return json.dumps(
                {
                    "reasoning": "The first reference says so.",
                    "false_premise": false_premise,
                    "answer": answer,
                }
            )
        return json.dumps({"reasoning": "I recall it.", "answer": answer})

    return reply


class FixedAttributes:
    def __init__(self, dynamic_probability: float, domain: str = "open"):
        self.dynamic_probability = dynamic_probability
        self.domain = domain

    def run(self, questions):
        return [
            QuestionAttributes(
                domain=self.domain, dynamism="static", dynamic_probability=self.dynamic_probability
            )
            for _ in questions
        ]


@pytest.fixture
def make_system(monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    built = []

    def make(llm, dynamic_probability=0.0, **overrides):
        # The scripted answer ("canberra") takes no form a "how many" question asks for: the answer
        # check would ask again (tests/test_answer_check.py).
        system = CragSystem(load_config("cpu", {"answer_check.enabled": "false", **overrides}), llm=llm)
        system.stage("attributes").component = FixedAttributes(dynamic_probability)
        built.append(system)
        return system

    yield make
    for system in built:
        system.pages.close()


def test_one_llm_call_per_stage_per_batch(make_system):
    llm = ScriptedLLM(reply_by_output_shape())
    system = make_system(llm, **{"plan.enabled": "false"})  # every stage for every question

    answers = system.batch_generate_answer(sample_batch(3))

    assert answers == ["canberra"] * 3
    # calculator, knowledge extractor and reasoning: each one generate call for all three questions
    assert [len(conversations) for conversations, _ in llm.calls] == [3, 3, 3]
    trace = system.last_traces[0]
    assert trace.interaction_id == "sample-01-capital"
    assert {"web", "retrieval", "calculator", "knowledge", "reasoning"} <= set(trace.timings)
    assert trace.tokens["reasoning"].prompt_tokens > 0
    assert any("Canberra" in reference for reference in trace.references)


def test_false_premise_becomes_invalid_question(make_system):
    system = make_system(ScriptedLLM(reply_by_output_shape("it never moved", false_premise=True)))
    assert system.batch_generate_answer(sample_batch(1)) == ["invalid question"]


def test_dynamic_questions_are_refused_without_llm_calls(make_system):
    llm = ScriptedLLM(reply_by_output_shape())
    system = make_system(llm, dynamic_probability=0.99)

    assert system.batch_generate_answer(sample_batch(2)) == ["I don't know", "I don't know"]
    assert llm.calls == []
    assert (system.last_traces[0].events[0].kind, system.last_traces[0].events[0].what) == (
        "routed",
        "refused",
    )


def test_disabled_stages_are_not_called(make_system):
    llm = ScriptedLLM(reply_by_output_shape())
    system = make_system(llm, **{"calculator.enabled": "false", "knowledge.enabled": "false"})

    system.batch_generate_answer(sample_batch(2))

    assert len(llm.calls) == 1  # reasoning only
    assert "calculator" not in system.last_traces[0].timings


def test_broken_stage_and_bad_pages_do_not_cost_the_batch(make_system):
    system = make_system(ScriptedLLM(reply_by_output_shape()))

    def explode(*args):
        raise RuntimeError("calculator exploded")

    system.stage("calculator").component.run = explode
    batch = sample_batch(3)
    batch["search_results"][1] = None
    batch["search_results"][2] = [{"page_name": 7, "page_result": "\udcff<table><tr><td>x"}]
    batch["query"][0] = "   "

    answers = system.batch_generate_answer(batch)

    assert answers == ["I don't know", "canberra", "canberra"]
    assert system.last_traces[1].failures == {"calculator": "RuntimeError: calculator exploded"}
    assert system.last_traces[0].failures == {}  # the empty query never reached the calculator


def test_page_errors_and_fallbacks_are_in_the_trace_and_counted_in_the_report(make_system):
    """A page that could not be read is a failure of the web stage for its question; a cap is a
    degradation."""
    system = make_system(ScriptedLLM(reply_by_output_shape()), **{"web.max_page_chars": 2_000})
    extract = system.pages.run

    def with_a_timed_out_page(questions, seconds=None, choices=None):
        return [
            pages + [Page("a slow page", error="timed out after 3 s; kept the fulltext result")]
            for pages in extract(questions, seconds, choices)
        ]

    system.pages.run = with_a_timed_out_page
    batch = sample_batch(1)
    batch["search_results"][0] = [
        {
            "page_name": "a long page",
            "page_result": "<html><body><p>" + "word " * 1_000 + "</p></body></html>",
        },
    ]

    assert system.batch_generate_answer(batch) == ["canberra"]

    trace = system.last_traces[0]
    failed = TraceEvent(
        "web", "failed", "page error", "timed out after 3 s; kept the fulltext result [a slow page]"
    )
    assert failed in trace.events and trace.failures == {"web": failed.detail}
    [cut] = [event for event in trace.events if event.what == "page html cut"]
    assert (
        cut.kind == "degraded"
        and cut.detail.startswith("first 2000 of ")
        and cut.detail.endswith("[a long page]")
    )
    line = trace.as_dict()
    assert degradation_counts([line]) == {"web page html cut": 1}
    assert failure_counts([line]) == {"web": 1}
    assert event_kind_counts([line]) == {"degraded": 1, "failed": 1}


def test_with_many_pages_the_trace_shows_each_page_read_or_skipped_and_what_it_gave(make_system):
    """Task 3's shape in small: more pages than `web.read_all_up_to`, only the `web.read_pages`
    most promising parsed; every page has its line in the trace and the report counts them."""
    system = make_system(ScriptedLLM(reply_by_output_shape()), **{"web.read_pages": "2"})
    batch = sample_batch(1)
    off_topic = [
        {
            "page_name": f"Gardening tips {i}",
            "page_url": f"https://garden.example.com/{i}",
            "page_snippet": "",
            "page_result": f"<html><body><p>Water the tomatoes {i} times a week in summer.</p></body></html>",
        }
        for i in range(6)
    ]
    about = {
        "page_name": "Canberra, capital city of Australia",
        "page_url": "https://example.com/canberra",
        "page_snippet": "",
        "page_result": "<html><body><p>Canberra is the capital city of Australia.</p></body></html>",
    }
    batch["search_results"][0] = off_topic[:3] + [about] + off_topic[3:]

    system.batch_generate_answer(batch)

    trace = system.last_traces[0]
    assert [page.name for page in trace.pages] == [page["page_name"] for page in batch["search_results"][0]]
    assert sum(page.read for page in trace.pages) == 2 and trace.pages[3].read
    assert all(page.candidates == 0 for page in trace.pages if not page.read)
    assert trace.pages[3].kept >= 1 and trace.pages[3].shortlisted >= trace.pages[3].kept
    assert TraceEvent("web", "skipped", "pages not read", "5 of 7, ranked below those read") in trace.events
    counts = page_summary([trace.as_dict()])
    assert (counts["pages"], counts["read"], counts["not read"]) == (7, 2, 5)
    assert 1 <= counts["in references"] <= counts["shortlisted"] <= 2


def test_tiny_budget_answers_i_dont_know_in_time(make_system):
    llm = ScriptedLLM(reply_by_output_shape())
    system = make_system(llm, **{"budget.seconds_per_question": "0.001"})

    answers = system.batch_generate_answer(sample_batch(2))

    assert answers == ["I don't know", "I don't know"]
    assert llm.calls == []  # optional stages skipped, no time left for reasoning
    labels = {event.label for trace in system.last_traces for event in trace.events}
    assert {
        "kg skipped to meet the deadline",
        "calculator skipped to meet the deadline",
        "reasoning no time left",
    } <= labels


def test_answers_are_capped_and_normalized(make_system):
    long_answer = "word " * 200
    system = make_system(ScriptedLLM(reply_by_output_shape(long_answer)))
    [answer] = system.batch_generate_answer(sample_batch(1))
    assert system.llm.count_tokens(answer) <= 75

    system = make_system(ScriptedLLM(reply_by_output_shape("Sorry, I don't know that.")))
    assert system.batch_generate_answer(sample_batch(1)) == ["I don't know"]


class FixedKG:
    """A KG stage that finds `line` for every question (no facts when `line` is empty)."""

    def __init__(self, line: str):
        self.line = line
        self.asked: list[str] = []

    def run(self, questions, attributes, seconds_available=None):
        from models.kg import KGResult

        self.asked += [q.query for q in questions]
        return [
            KGResult(references=[self.line] if self.line else [], has_evidence=bool(self.line))
            for _ in questions
        ]


def test_a_dynamic_finance_question_is_answered_when_the_kg_has_facts_for_it(make_system):
    llm = ScriptedLLM(reply_by_output_shape(answer="412.50"))
    system = make_system(llm, **{"plan.enabled": "false"})  # the calculator runs whatever the wording
    system.stage("attributes").component = FixedAttributes(0.99, domain="finance")
    system.stage("kg").component = FixedKG("ACME close on 2024-03-08 (Friday): 412.50")

    assert system.batch_generate_answer(sample_batch(1)) == ["412.50"]
    assert system.last_traces[0].route == "answered: dynamic, from KG evidence"
    # The calculator reads the KG facts; the memory agent is not asked about a fact that changes.
    asked = [params.json_schema["properties"] for _, params in llm.calls]
    assert ["expression" in p for p in asked] == [True, False] and "false_premise" in asked[1]
    assert "412.50" in llm.calls[0][0][0][-1]["content"]
    not_asked = TraceEvent("knowledge", "skipped", "not asked", "a dynamic fact is not in the model's memory")
    assert not_asked in system.last_traces[0].events


def test_a_dynamic_finance_question_without_kg_facts_is_refused_after_the_kg_stage(make_system):
    llm = ScriptedLLM(reply_by_output_shape())
    system = make_system(llm)
    system.stage("attributes").component = FixedAttributes(0.99, domain="finance")
    system.stage("kg").component = kg = FixedKG("")

    assert system.batch_generate_answer(sample_batch(2)) == ["I don't know", "I don't know"]
    assert len(kg.asked) == 2 and llm.calls == []
    assert system.last_traces[1].route == "refused: dynamic, no KG evidence"


def test_without_a_kg_or_outside_its_domains_dynamic_questions_are_refused_before_any_stage(make_system):
    llm = ScriptedLLM(reply_by_output_shape())
    system = make_system(llm)
    system.stage("attributes").component = FixedAttributes(0.99, domain="open")
    system.stage("kg").component = kg = FixedKG("a fact")
    assert system.batch_generate_answer(sample_batch(1)) == ["I don't know"]
    assert kg.asked == [] and llm.calls == []
    assert system.last_traces[0].route == "refused: dynamic"

    system = make_system(llm, **{"kg.enabled": "false"})  # no KG stage
    system.stage("attributes").component = FixedAttributes(0.99, domain="finance")
    assert system.batch_generate_answer(sample_batch(1)) == ["I don't know"]
    assert llm.calls == [] and system.last_traces[0].route == "refused: dynamic"


@pytest.mark.parametrize("pooled", [False, True])
def test_kg_lines_reach_the_reasoning_prompt_whole_or_pooled(make_system, pooled):
    llm = ScriptedLLM(reply_by_output_shape())
    system = make_system(llm, **{"retrieval.pool_kg_references": str(pooled)})
    system.stage("kg").component = FixedKG("Canberra / population: 460,000 (KG)")

    system.batch_generate_answer(sample_batch(1))

    reasoning_prompt = llm.calls[-1][0][0][-1]["content"]
    assert "Canberra / population: 460,000 (KG)" in reasoning_prompt
    assert "Canberra / population: 460,000 (KG)" in system.last_traces[0].references


def test_kg_only_domain_drops_web_evidence_when_the_kg_answered(make_system):
    llm = ScriptedLLM(reply_by_output_shape())
    system = make_system(llm)
    system.config.kg.domain_sources["open"] = "kg"
    system.stage("kg").component = FixedKG("Australia / capital: Canberra")

    system.batch_generate_answer(sample_batch(1))

    assert system.last_traces[0].references == ["Australia / capital: Canberra"]


@pytest.mark.parametrize("dynamic_sources, keeps_web", [("kg", False), ("both", True)])
def test_a_dynamic_question_answered_from_the_kg_keeps_its_web_pages_only_if_configured(
    make_system, dynamic_sources, keeps_web
):
    llm = ScriptedLLM(reply_by_output_shape(answer="412.50"))
    system = make_system(llm, **{"kg.dynamic_sources": dynamic_sources})
    system.stage("attributes").component = FixedAttributes(
        0.99, domain="finance"
    )  # finance keeps "both" for static questions
    system.stage("kg").component = FixedKG("ACME close on 2024-03-08 (Friday): 412.50")

    system.batch_generate_answer(sample_batch(1))

    references = system.last_traces[0].references
    assert "ACME close on 2024-03-08 (Friday): 412.50" in references
    assert (len(references) > 1) == keeps_web


class WarmUpRecorder(ScriptedLLM):
    def __init__(self, replies):
        super().__init__(replies)
        self.warmed_schemas: list[dict] | None = None

    def warm_up(self, json_schemas):
        self.warmed_schemas = list(json_schemas)


def test_building_loads_nothing_and_warm_up_prepares_every_schema_the_stages_send(monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    llm = WarmUpRecorder(reply_by_output_shape())
    system = CragSystem(
        load_config("cpu", {"plan.enabled": "false"}), llm=llm
    )  # every stage sends its schema
    try:
        attributes = system.stage("attributes").component
        assert system.encoder._model is None and attributes.classifier is None
        assert system.pages._pool is None and llm.warmed_schemas is None

        system.warm_up()

        assert system.encoder._model is not None and attributes.classifier is not None
        assert system.pages._pool is not None
        calibration_calls = len(llm.calls)
        assert calibration_calls > 0  # warm-up measured the engine's speed
        system.batch_generate_answer(sample_batch(2))
        schemas = [params.json_schema for _, params in llm.calls[calibration_calls:] if params.json_schema]
        sent = {json.dumps(schema, sort_keys=True) for schema in schemas}
        warmed = {json.dumps(schema, sort_keys=True) for schema in llm.warmed_schemas}
        # calculator, knowledge, reasoning, and the answer check's retry ("canberra" is no number)
        assert len(sent) == 4 and sent <= warmed
    finally:
        system.close()

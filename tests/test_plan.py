"""The plan (models/plan.py): which optional stages a question runs, alone and inside CragSystem."""

from __future__ import annotations

import json

import pytest

from benchmarks import plan as plan_benchmark
from evaluation.reports import plan_summary
from evaluation.runner import answers_from_system
from evaluation.data import parse_record
from models.config import load_config
from models.crag_system import CragSystem
from models.plan import Planner, signal_kind
from models.schema import Evidence, QuestionAttributes
from tests.doubles import ScriptedLLM
from tests.test_crag_system import FixedAttributes, reply_by_output_shape

STATIC = QuestionAttributes(domain="movie", dynamism="static", dynamic_probability=0.1)
STRONG = Evidence(chunks=["The Quiet Harbor (2019) is a drama directed by Jane Doe."], top_relevance=0.8)


@pytest.fixture
def planner() -> Planner:
    return Planner(load_config("cpu").plan)


@pytest.mark.parametrize(
    "query, signal",
    [
        ("what was the average gross of the first three pixar movies?", "calculator: arithmetic"),
        ("how old was the director when the film came out?", "calculator: arithmetic"),
        ("how many years passed between the two releases?", "calculator: counting"),
        ("what was the minimum stock price of acme over the past month?", "calculator: counting"),
        (
            "what is the area of a room that is 17 meters by 66 meters?",
            "calculator: the question writes 2 numbers",
        ),
        ("which film had the larger opening weekend, heat or ronin?", "calculator: comparison"),
        ("which star is brighter, sirius or alpha centauri?", "calculator: comparison"),
    ],
)
def test_arithmetic_counting_and_comparisons_with_numbers_go_to_the_calculator(planner, query, signal):
    decision = planner.calculator(
        query, ["Heat opened to $8.4 million, Ronin to $12.7 million; magnitude -1.46 and -0.27."]
    )
    assert decision.run and signal_kind(decision.signal) == signal


@pytest.mark.parametrize(
    "query",
    [
        "who directed the quiet harbor?",
        "when was harold ramis born?",
        "what was the closing price of acme on 02/29/2024?",  # a date is not two numbers to compute with
        "what album did the killers release in 2004?",
    ],
)
def test_lookups_do_not_go_to_the_calculator(planner, query):
    decision = planner.calculator(query, ["It opened on 2019-05-03 and grossed $8.4 million in 12 days."])
    assert not decision.run and decision.signal.startswith("calculator skipped")


def test_a_comparison_goes_to_the_calculator_only_when_its_references_hold_numbers(planner):
    query = "which film had the larger opening weekend, heat or ronin?"
    assert not planner.calculator(query, ["Both films were made by the same studio."]).run
    assert not planner.calculator(
        query, ["Heat opened well."] * 3 + ["x" * 800 + " 8.4 and 12.7"]
    ).run  # beyond what it is shown
    assert planner.calculator(query, ["Heat opened to $8.4 million, Ronin to $12.7 million."]).run


def test_the_knowledge_extractor_runs_for_static_questions_with_weak_references(planner):
    assert not planner.knowledge(STATIC, STRONG).run
    assert planner.knowledge(STATIC, Evidence(chunks=["unrelated"], top_relevance=0.3)).run
    assert planner.knowledge(STATIC, Evidence(chunks=["unscored"], top_relevance=None)).run
    assert planner.knowledge(STATIC, Evidence()).signal == "knowledge: no references"
    dynamic = QuestionAttributes(domain="movie", dynamism="fast-changing", dynamic_probability=0.8)
    assert not planner.knowledge(dynamic, Evidence()).run


def test_the_kg_is_not_asked_for_definitions_or_outside_its_domains(planner):
    assert planner.kg("who directed the quiet harbor?", STATIC).run
    assert not planner.kg("what is a roth ira?", QuestionAttributes(domain="finance")).run
    assert not planner.kg("why do cats purr?", None).run
    assert planner.kg("what is a roth ira?", QuestionAttributes(domain="finance"), waiting=True).run
    narrow = Planner(load_config("cpu", {"plan.kg_domains": "finance,sports"}).plan)
    assert not narrow.kg("who directed the quiet harbor?", STATIC).run


def test_every_word_list_and_threshold_is_a_config_knob():
    config = load_config("cpu", {"plan.counting_words": "tally", "plan.weak_relevance": "0.9"}).plan
    planner = Planner(config)
    assert config.counting_words == ("tally",)
    assert not planner.calculator("how many films did she make?", []).run
    assert planner.calculator("what is the tally of her films?", []).run
    assert planner.knowledge(STATIC, STRONG).run  # 0.8 is weak below 0.9


def test_the_plan_off_runs_every_stage(planner):
    off = Planner(load_config("cpu", {"plan.enabled": "false"}).plan)
    plans = off.run(["who directed the quiet harbor?"], [STATIC], [STRONG], [False])
    assert (plans[0].kg, plans[0].calculator, plans[0].knowledge, plans[0].signals) == (
        True,
        True,
        True,
        ["plan off"],
    )
    plans = planner.run(["who directed the quiet harbor?"], [STATIC], [STRONG], [False])
    assert (plans[0].calculator, plans[0].knowledge) == (False, False)
    assert [signal_kind(s) for s in plans[0].signals] == [
        "kg: a movie question",
        "calculator skipped: no arithmetic",
        "knowledge skipped: strong references",
    ]


def test_the_calculator_rule_finds_most_questions_of_the_arithmetic_types_it_was_not_tuned_on(
    shared_data, capsys
):
    plan_benchmark.main(["--data", str(shared_data / "crag_questions_validation.jsonl")])
    held_out = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| held-out"))
    precision, recall = (float(cell) for cell in held_out.strip("| ").split(" | ")[-2:])
    assert recall >= 0.85 and precision >= 0.6


def page(name: str, text: str) -> dict:
    return {
        "page_name": name,
        "page_url": "",
        "page_snippet": "",
        "page_last_modified": "",
        "page_result": f"<html><body><p>{text}</p></body></html>",
    }


FILM_PAGE = page(
    "The Quiet Harbor",
    "The Quiet Harbor is a 2019 drama film directed by Jane Doe. It was released on 3 May 2019. "
    "Its sequel, The Quiet Harbor II, was released in 2023, four years later. "
    "Jane Doe also wrote both films.",
)


@pytest.fixture
def system(monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    # The answer check off: "jane doe" answers no "how many years" (tests/test_answer_check.py).
    built = CragSystem(
        load_config("cpu", {"answer_check.enabled": "false"}),
        llm=ScriptedLLM(reply_by_output_shape("jane doe")),
    )
    built.stage("attributes").component = FixedAttributes(0.0, domain="movie")
    yield built
    built.pages.close()


def test_a_lookup_its_references_answer_skips_calculator_and_knowledge_but_years_between_runs_the_calculator(
    system,
):
    records = [
        parse_record(
            {
                "interaction_id": "who",
                "query": "who directed the quiet harbor?",
                "query_time": "",
                "search_results": [FILM_PAGE],
                "answer": "jane doe",
            },
            "who",
        ),
        parse_record(
            {
                "interaction_id": "years",
                "query": "how many years between the quiet harbor and its sequel?",
                "query_time": "",
                "search_results": [FILM_PAGE],
                "answer": "4",
            },
            "years",
        ),
    ]
    lines = answers_from_system(system)(records)

    calls = [
        (len(conversations), set(params.json_schema["properties"]))
        for conversations, params in system.llm.calls
    ]
    assert calls == [(1, {"expression"}), (2, {"reasoning", "false_premise", "answer"})]  # no knowledge call
    assert system.llm.calls[0][0][0][-1]["content"].count("how many years between") == 1
    who, years = system.last_traces
    assert (who.plan.calculator, who.plan.knowledge) == (False, False)
    assert (years.plan.calculator, years.plan.knowledge) == (True, False)
    assert (
        "calculator" not in who.timings and "knowledge" not in who.timings and "calculator" in years.timings
    )
    who_prompt = system.llm.calls[1][0][0]
    assert (
        "Calculations" not in who_prompt[-1]["content"]
        and "## Calculations" in system.llm.calls[1][0][1][-1]["content"]
    )

    summary = plan_summary([json.loads(json.dumps(line)) for line in lines])
    assert summary["planned"] == 2 and summary["stages"] == {"kg": 2, "calculator": 1, "knowledge": 0}
    assert summary["signals"]["calculator: counting"] == 1
    assert summary["signals"]["knowledge skipped: strong references"] == 2


def test_the_plan_is_on_in_the_cpu_and_leaderboard_presets():
    assert load_config("cpu").plan.enabled and load_config("t4x4").plan.enabled
    assert not load_config("t4x4", {"plan.enabled": "false"}).plan.enabled

"""The answer policy (models/policy.py): the only place a final answer is set; every route it can
take, each made to happen; its decisions replayed from a trace's findings equal those made online;
an observing run records every answer a policy could give; a fitted file replaces the options."""

from __future__ import annotations

import ast
import json
import time
from pathlib import Path
from typing import Callable

import pytest

from models.answers import I_DONT_KNOW, INVALID_QUESTION
from models.config import REPO_ROOT, load_config
from models.config.presets import PRESETS, cpu_preset
from models.crag_system import CragSystem
from models.deadline import BatchDeadline, EngineSpeed
from models.kg import KGResult
from models.kg.answer import ComputedAnswer
from models.knowledge import KnowledgeAnswer
from models.pipeline import BatchRun, Parts, QuestionRecord
from models.policy import RULES, AnswerPolicy
from models.prompts import PromptLibrary
from models.reasoning import ReasoningResult
from models.schema import Findings, Question, QuestionAttributes, Route
from models.stages import AnswerCheckStage, ReasoningStage, stage_costs
from tests.doubles import ScriptedLLM, scripted_parts
from tests.test_crag_system import FixedAttributes, FixedKG, reply_by_output_shape, sample_batch

CAPITAL = "what is the capital city of australia?"
MEDALS = "how many gold medals did norway win in 2022?"
COMPUTED = ComputedAnswer("lookup", "2021-12-23", "the day of the earliest dividends paid")
POINTS = ("attributes", "kg", "retrieval", "reasoning", "answer check")


def static(domain: str = "open") -> QuestionAttributes:
    return QuestionAttributes(domain=domain, dynamic_probability=0.0)


def dynamic(domain: str) -> QuestionAttributes:
    return QuestionAttributes(domain=domain, dynamism="real-time", dynamic_probability=0.99)


def through(record: QuestionRecord, built: Parts) -> QuestionRecord:
    """The record past every decision point, as the orchestrator consults the policy, then its end."""
    for point in POINTS:
        built.policy.settle([record], after=point)
    built.policy.finish([record])
    return record


def question(
    query: str = CAPITAL,
    attributes: QuestionAttributes | None = None,
    kg: KGResult | None = None,
    reply: str | ReasoningResult | None = "canberra",
    **overrides: str,
) -> QuestionRecord:
    """A question whose stages found these: attributes, KG result, a reasoning reply (None: the
    stage failed for it); the answer check left out unless `overrides` keep it."""
    built = scripted_parts(**{"answer_check.enabled": "false", **overrides})
    record = QuestionRecord(Question("q", query, "03/11/2024, 15:00:00 PT"))
    record.attributes, record.kg = attributes or static(), kg
    result = ReasoningResult(answer=reply, parsed=True) if isinstance(reply, str) else reply
    ReasoningStage(built).write(record, result)
    return through(record, built)


def checked(reply: str, retried: list[str], **overrides: str) -> QuestionRecord:
    """A "how many" question answered `reply`, through the answer check with a scripted retry."""
    config = load_config("cpu", overrides)
    llm = ScriptedLLM([json.dumps({"answer": answer}) for answer in retried])
    built = Parts(config, llm, PromptLibrary(), encoder=None, planner=None)  # type: ignore[arg-type]
    record = QuestionRecord(Question("q", MEDALS, "March 1, 2024"))
    record.attributes = static()
    record.reasoning, record.reply_state = ReasoningResult(answer=reply, parsed=True), "answered"
    deadline = BatchDeadline(
        1, config.budget, stage_costs(config), EngineSpeed.initial(config.budget), time.monotonic
    )
    BatchRun([record], [AnswerCheckStage(built)], deadline, llm, time.monotonic, built.policy).run()
    return record


def with_knowledge(reply: str, own: str, shown: bool, **overrides: str) -> QuestionRecord:
    built = scripted_parts(**{"answer_check.enabled": "false", **overrides})
    record = QuestionRecord(Question("q", CAPITAL, "03/11/2024, 15:00:00 PT"))
    record.attributes = static()
    if shown:
        record.knowledge = KnowledgeAnswer(answer=own)
    else:
        record.unshown_knowledge = KnowledgeAnswer(answer=own)
    ReasoningStage(built).write(record, ReasoningResult(answer=reply, parsed=True))
    return through(record, built)


def no_time() -> QuestionRecord:
    built = scripted_parts()
    record = QuestionRecord(Question("q", CAPITAL, "03/11/2024"))
    record.attributes, record.reply_state = static(), "no time"
    return through(record, built)


FACTS = KGResult(has_evidence=True, computed=COMPUTED)
ROUTES: dict[Route, tuple[Callable[[], QuestionRecord], str]] = {
    Route.ANSWERED: (lambda: question(), "canberra"),
    Route.FROM_KG: (
        lambda: question(attributes=dynamic("finance"), kg=KGResult(has_evidence=True)),
        "canberra",
    ),
    Route.RETRIED: (lambda: checked("Oslo", ["16"]), "16"),
    Route.COMPUTED_KEPT: (lambda: question(kg=FACTS, reply="2022-01-01"), "2021-12-23"),
    Route.COMPUTED_OVER_DECLINE: (lambda: question(kg=FACTS, reply=I_DONT_KNOW), "2021-12-23"),
    Route.COMPUTED_NO_REPLY: (lambda: question(kg=FACTS, reply=ReasoningResult(cut=True)), "2021-12-23"),
    Route.KNOWLEDGE_OVER_DECLINE: (
        lambda: with_knowledge(
            I_DONT_KNOW, "Canberra", shown=False, **{"policy.knowledge_worth": '{"static": 0.5}'}
        ),
        "Canberra",
    ),
    Route.INVALID_PREMISE: (
        lambda: question(kg=KGResult(has_evidence=True, contradicts=True), reply=I_DONT_KNOW),
        INVALID_QUESTION,
    ),
    Route.PREMISE_OVERRULED: (lambda: question(kg=FACTS, reply=INVALID_QUESTION), "2021-12-23"),
    Route.EMPTY_QUERY: (lambda: question(query="  "), I_DONT_KNOW),
    Route.REFUSED_DYNAMIC: (lambda: question(attributes=dynamic("open")), I_DONT_KNOW),
    Route.NO_KG_EVIDENCE: (lambda: question(attributes=dynamic("finance"), kg=KGResult()), I_DONT_KNOW),
    Route.NOT_IN_KG: (lambda: question(kg=KGResult(unmatched=["Northwind"])), I_DONT_KNOW),
    Route.WRONG_FORM: (lambda: checked("Oslo", ["Oslo, Norway"]), I_DONT_KNOW),
    Route.REFUSED_WORTH: (
        lambda: with_knowledge(
            "canberra", "Canberra", shown=True, **{"policy.late_worth": '{"knowledge shown": -0.5}'}
        ),
        I_DONT_KNOW,
    ),
    Route.OUT_OF_TIME: (no_time, I_DONT_KNOW),
    Route.FAILED: (lambda: question(reply=None), I_DONT_KNOW),
}


def test_every_route_has_a_case():
    assert set(ROUTES) == set(Route)


@pytest.mark.parametrize("route", list(Route), ids=[route.name for route in Route])
def test_each_route_happens(route):
    make, answer = ROUTES[route]
    record = make()
    assert (record.answer, record.trace.route) == (answer, route)
    replayed, _ = AnswerPolicy.from_config(load_config("cpu")).decide(record.findings())
    if route not in (Route.KNOWLEDGE_OVER_DECLINE, Route.REFUSED_WORTH):  # decided by options set for them
        assert (replayed.answer, replayed.route) == (answer, route)


def test_a_question_the_worths_refuse_is_answered_where_a_kind_of_answer_or_the_kg_says_so():
    kept = with_knowledge(
        "canberra", "Canberra", shown=False, **{"policy.late_worth": '{"knowledge shown": -0.5}'}
    )
    assert kept.trace.route is Route.ANSWERED  # the extractor's answer was not shown: not of that kind
    declined = with_knowledge(I_DONT_KNOW, "Canberra", shown=False)
    assert declined.answer == I_DONT_KNOW  # no knowledge worth by default: never given
    refused = question(
        attributes=dynamic("finance"), kg=KGResult(has_evidence=True), **{"kg.enabled": "false"}
    )
    assert refused.trace.route is Route.REFUSED_DYNAMIC  # without a KG nothing waits for it


def test_the_rules_are_decided_after_declared_stages_and_end_with_an_answer():
    from models.stages import STAGES

    names = {stage.name for stage in STAGES}
    assert {rule.after for rule in RULES} <= names
    assert [rule.after for rule in RULES] == sorted((rule.after for rule in RULES), key=POINTS.index)
    last, _ = AnswerPolicy.from_config(load_config("cpu")).decide(
        Findings(query="q?", reply_state="answered", reply="x")
    )
    assert (last.answer, last.route) == ("x", Route.ANSWERED)


def test_only_the_policy_sets_a_final_answer():
    """No module under models/ but the policy concludes a question, and nothing but the record's own
    `conclude` assigns a record's answer."""
    for path in sorted((REPO_ROOT / "models").rglob("*.py")):
        name = str(path.relative_to(REPO_ROOT))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "conclude"
        ]
        assert name == "models/policy.py" or calls == [], f"{name}:{calls} concludes a question"
        for function in (node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)):
            assigned = [
                target
                for node in ast.walk(function)
                if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign)
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            ]
            sets_answer = any(
                isinstance(t, ast.Attribute)
                and t.attr == "answer"
                and isinstance(t.value, ast.Name)
                and t.value.id in ("self", "record")
                for t in assigned
            )
            if sets_answer and "Record" in _owner(tree, function):
                assert (name, function.name) == ("models/pipeline.py", "conclude"), (
                    f"{name}: {function.name} sets an answer"
                )
            if sets_answer and function.name != "conclude":
                assert not any(
                    isinstance(t, ast.Attribute) and t.value.id == "record"  # type: ignore[attr-defined]
                    for t in assigned
                    if isinstance(t, ast.Attribute) and t.attr == "answer"
                ), name


def _owner(tree: ast.AST, function: ast.FunctionDef) -> str:
    """The name of the class `function` is a method of ("" for a function)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and function in node.body:
            return node.name
    return ""


@pytest.fixture
def make_system(monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    built = []

    def make(llm, **overrides):
        system = CragSystem(load_config("cpu", overrides), llm=llm)
        built.append(system)
        return system

    yield make
    for system in built:
        system.pages.close()


def test_the_decisions_replayed_from_the_traces_equal_those_made_online(make_system):
    system = make_system(ScriptedLLM(reply_by_output_shape()))
    system.stage("attributes").component = FixedAttributes(0.0)
    batch = sample_batch(4)
    batch["query"][3] = " "
    system.batch_generate_answer(batch)
    traces = list(system.last_traces)
    system.stage("attributes").component = FixedAttributes(0.99, domain="open")
    system.batch_generate_answer(sample_batch(2))
    traces += system.last_traces
    for trace in traces:
        findings = Findings.from_dict(json.loads(json.dumps(trace.as_dict()["findings"])))
        decided, _ = system.policy.decide(findings)
        assert (decided.answer, decided.route) == (trace.prediction, trace.route)
    # "canberra" is no number and no year: asked again, and refused when it is still "canberra"
    assert [trace.route for trace in traces] == [
        Route.ANSWERED,
        Route.WRONG_FORM,
        Route.WRONG_FORM,
        Route.EMPTY_QUERY,
        Route.REFUSED_DYNAMIC,
        Route.REFUSED_DYNAMIC,
    ]


def test_an_observing_run_answers_what_it_would_refuse_and_records_the_refusal(make_system):
    observing = make_system(
        ScriptedLLM(reply_by_output_shape()), **{"policy.observe": "true", "plan.enabled": "false"}
    )
    observing.stage("attributes").component = FixedAttributes(0.99, domain="finance")
    observing.stage("kg").component = FixedKG("")  # no facts: the question waits for them in vain
    predictions = observing.batch_generate_answer(sample_batch(1))
    assert predictions == [I_DONT_KNOW] and observing.last_traces[0].route is Route.NO_KG_EVIDENCE
    findings = observing.last_traces[0].findings
    assert findings is not None and findings.reply == "canberra"  # the reasoning ran all the same
    assert findings.knowledge_answer == "canberra" and not findings.knowledge_shown  # asked, not shown
    opened = AnswerPolicy(
        load_config("cpu", {"policy.answer_worth": '{"real-time": 1, "static": 1}'}).policy, True, None
    )
    assert opened.decide(findings)[0].route is Route.ANSWERED


def test_an_observing_run_asks_again_what_the_options_would_refuse():
    record = checked("Oslo", ["16"], **{"policy.observe": "true", "policy.wrong_form.number": "refuse"})
    assert (
        record.trace.route is Route.WRONG_FORM and record.check is not None and record.check.retried == "16"
    )
    findings = record.findings()
    assert AnswerPolicy.from_config(load_config("cpu")).decide(findings)[0].answer == "16"


def fitted_file(path: Path, values: dict, **extra) -> Path:
    path.write_text(
        json.dumps(
            {
                "format": "crag-policy-fit/1",
                "model": "scripted",
                "values": values,
                "data": {},
                "date": "2026-12-01",
                "held_out": {},
                **extra,
            }
        )
    )
    return path


def test_a_fitted_file_replaces_the_options_it_fitted_and_the_system_answers_by_it(tmp_path, make_system):
    path = fitted_file(
        tmp_path / "fitted.json", {"answer_worth": {"static": -1.0}, "wrong_form": {"number": "keep"}}
    )
    config = load_config("cpu", {"policy.fitted": str(path), "policy.computed_answer_final": "false"})
    assert config.policy.answer_worth == {"static": -1.0} and config.policy.wrong_form == {"number": "keep"}
    assert config.policy.computed_answer_final is False  # an option it did not fit keeps its setting
    system = make_system(ScriptedLLM(reply_by_output_shape()), **{"policy.fitted": str(path)})
    system.stage("attributes").component = FixedAttributes(0.0)
    assert system.batch_generate_answer(sample_batch(1)) == [I_DONT_KNOW]
    assert system.last_traces[0].route is Route.REFUSED_DYNAMIC


def test_a_preset_that_names_a_fitted_file_answers_by_it(tmp_path, monkeypatch):
    path = fitted_file(tmp_path / "fitted.json", {"kg_answers_dynamic": ["finance"]})

    def fitted_preset():
        config = cpu_preset()
        config.policy.fitted = str(path)
        return config

    monkeypatch.setitem(PRESETS, "fitted", fitted_preset)
    assert load_config("fitted").policy.kg_answers_dynamic == ("finance",)
    assert (
        load_config("fitted", {"policy.fitted": "none"}).policy.kg_answers_dynamic
        == cpu_preset().policy.kg_answers_dynamic
    )


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "does not exist"),
        ("not json", "is not JSON"),
        ({"format": "other"}, "is not a fitted file"),
        ({"format": "crag-policy-fit/1", "values": {}}, "lacks model"),
        (
            {
                "format": "crag-policy-fit/1",
                "model": "m",
                "values": {"observe": True},
                "data": {},
                "date": "",
                "held_out": {},
            },
            "a fit may not",
        ),
        (
            {
                "format": "crag-policy-fit/1",
                "model": "m",
                "values": {"answer_worth": {"static": "high"}},
                "data": {},
                "date": "",
                "held_out": {},
            },
            "expects a number",
        ),
    ],
)
def test_a_bad_fitted_file_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "fitted.json"
    if content is not None:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    with pytest.raises(ValueError, match=message):
        load_config("cpu", {"policy.fitted": str(path)})


def test_the_defaults_say_where_they_come_from():
    """Every option of `policy` has its comment (a source, or what a fit would need), or is named in
    the comment of the option before it."""
    source = (REPO_ROOT / "models/config/schema.py").read_text(encoding="utf-8")
    lines = source.splitlines()
    section = next(
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.ClassDef) and node.name == "PolicyConfig"
    )
    options = [
        node for node in section.body if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    ]
    assert len(options) >= 12
    for option in options:
        above = lines[option.lineno - 2].strip()
        comments = " ".join(
            line for line in lines[section.lineno : option.lineno] if line.strip().startswith("#")
        )
        assert above.startswith("#") or f"`{option.target.id}`" in comments, (
            f"policy.{option.target.id} says no source"
        )  # type: ignore[union-attr]
    assert "Yuan et al. 2024" in (REPO_ROOT / "models/config/presets.py").read_text(encoding="utf-8")


def test_a_system_warns_when_its_fitted_file_was_fitted_to_another_model(tmp_path, make_system):
    from loguru import logger

    warnings: list[str] = []
    sink = logger.add(lambda message: warnings.append(str(message)), level="WARNING")
    try:
        path = fitted_file(tmp_path / "fitted.json", {})
        system = make_system(ScriptedLLM([]), **{"policy.fitted": str(path)})
        system._check_fitted(system.llm)  # fitted to "scripted": this model
        assert warnings == []
        fitted_file(path, {}, model="another model")
        system._check_fitted(system.llm)
        assert (
            len(warnings) == 1 and "fitted to 'another model', not to this model ('scripted')" in warnings[0]
        )
    finally:
        logger.remove(sink)

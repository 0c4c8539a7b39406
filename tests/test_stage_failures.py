"""A fault injected into any one stage: the batch is still answered, the failure is recorded in the
question's trace, and report.json counts it under that stage (local_evaluation.py end to end)."""

from __future__ import annotations

import json

import pytest

import local_evaluation
from models.attributes import AttributePredictor
from models.calculator import Calculator
from models.kg import KnowledgeGraphStage
from models.knowledge import KnowledgeExtractor
from models.llm.base import Completion
from models.reasoning import Reasoner
from models.retrieval import Retriever
from models.web import PageExtractor
from tests.doubles import ScriptedLLM
from tests import test_evaluation_cli
from tests.test_evaluation_cli import replies

data_file = test_evaluation_cli.data_file  # the CLI tests' fixture

STAGES = {
    "attributes": AttributePredictor,
    "web": PageExtractor,
    "kg": KnowledgeGraphStage,
    "retrieval": Retriever,
    "calculator": Calculator,
    "knowledge": KnowledgeExtractor,
    "reasoning": Reasoner,
}
ANSWERS = {"q-capital": "Canberra", "q-river": "Danube"}


def evaluate(data_file, out, llm) -> tuple[dict[str, dict], dict]:
    # The plan off: every stage runs for every question, so a fault in any of them reaches both.
    argv = ["--data", str(data_file), "--out", str(out), "--batch-size", "2", "--set", "plan.enabled=false"]
    assert local_evaluation.main(argv, llm=llm) == 0
    lines = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    return {line["interaction_id"]: line for line in lines}, json.loads((out / "report.json").read_text())


@pytest.mark.parametrize("stage", STAGES)
def test_a_stage_that_raises_costs_only_that_stage_and_is_counted(stage, data_file, tmp_path, monkeypatch):
    def broken(self, *args, **kwargs):
        raise RuntimeError(f"injected fault in {stage}")

    monkeypatch.setattr(STAGES[stage], "run", broken)
    lines, report = evaluate(data_file, tmp_path / "out", ScriptedLLM(replies))

    for interaction_id, line in lines.items():
        assert line["failures"] == {stage: f"RuntimeError: injected fault in {stage}"}
        expected = "I don't know" if stage == "reasoning" else ANSWERS[interaction_id]
        assert line["prediction"] == expected
    assert report["failures_by_stage"] == {stage: 2}
    assert report["errors"] == 0  # contained by the system, not by the evaluation loop
    assert "error" not in lines["q-capital"]


class ReasoningFailsFor(ScriptedLLM):
    """The scripted model, except that reasoning requests about `topic` come back with an error."""

    def __init__(self, topic: str):
        super().__init__(replies)
        self.topic = topic

    def generate(self, conversations, params):
        completions = super().generate(conversations, params)
        is_reasoning = "false_premise" in (params.json_schema or {}).get("properties", {})
        return [
            Completion(texts=[], error="server dropped the request")
            if is_reasoning and any(self.topic in m["content"] for m in conversation)
            else completion
            for conversation, completion in zip(conversations, completions)
        ]


def test_a_failure_of_one_question_is_recorded_for_that_question_only(data_file, tmp_path, capsys):
    lines, report = evaluate(data_file, tmp_path / "out", ReasoningFailsFor("vienna"))
    assert "Stage failures (questions answered without the stage): reasoning 1." in capsys.readouterr().out

    assert lines["q-river"]["failures"] == {"reasoning": "server dropped the request"}
    assert lines["q-river"]["prediction"] == "I don't know"
    assert lines["q-capital"]["failures"] == {} and lines["q-capital"]["prediction"] == "Canberra"
    assert report["failures_by_stage"] == {"reasoning": 1}

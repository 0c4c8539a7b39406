"""benchmarks/end_to_end.py with a scripted LLM: the setups side by side, the listing, and resuming."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import end_to_end
from tests.doubles import ScriptedLLM
from tests.test_crag_system import reply_by_output_shape

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample.jsonl"


def bench(out: Path, llm: ScriptedLLM, *extra: str) -> dict:
    argv = ["--data", str(SAMPLE), "--out", str(out), "--limit", "4", "--setups", "cpu-all,cpu-plan", *extra]
    assert end_to_end.main(argv, llm=llm) == 0
    return json.loads((out / "report.json").read_text())


def test_setups_side_by_side_and_a_rerun_reuses_only_answers_of_the_same_config_and_code(tmp_path, monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    first = ScriptedLLM(reply_by_output_shape("canberra"))
    result = bench(tmp_path, first)

    setups = result["setups"]
    assert setups["cpu-all"]["correct"] == setups["cpu-plan"]["correct"] == 1  # only the capital question
    assert setups["cpu-all"]["stage_runs"]["calculator"] == 4 > setups["cpu-plan"]["stage_runs"]["calculator"]
    assert setups["cpu-plan"]["tokens_per_question"] < setups["cpu-all"]["tokens_per_question"]
    assert result["plan_against_all"]["tokens_change"] < 0
    listing = (tmp_path / "report.md").read_text()
    assert "| 1 | what is the capital city of australia? | canberra | canberra [correct] | canberra [correct] |" in listing
    assert result["verdicts"]["sample-04-absent"]["cpu-plan"] == {"prediction": "canberra", "verdict": "unsure"}
    # The answer check refuses "canberra" where a number is asked.
    assert result["verdicts"]["sample-02-medals"]["cpu-plan"] == {"prediction": "I don't know", "verdict": "missing"}
    files = sorted(p.name for p in (tmp_path / "answers").iterdir())
    assert len(files) == 2

    again = ScriptedLLM(reply_by_output_shape("canberra"))
    assert bench(tmp_path, again)["setups"] == setups
    assert again.calls == []  # every answer reused

    changed = ScriptedLLM(reply_by_output_shape("canberra"))
    bench(tmp_path, changed, "--set", "reasoning.max_tokens=100")
    assert changed.calls  # a changed configuration is computed afresh, into files of its own
    assert len(list((tmp_path / "answers").iterdir())) == 4


def test_the_key_follows_config_and_code_and_the_plan_off_leaves_the_rule_out(monkeypatch):
    def key(overrides: dict[str, str], plan_rule: str) -> str:
        code = {(): f"the rest, {plan_rule}", (end_to_end.PLAN_RULE,): "the rest"}
        monkeypatch.setattr(end_to_end, "code_fingerprint", lambda leave_out=(): code[leave_out])
        return end_to_end.setup_key(end_to_end.load_config("cpu", overrides))

    off = {"plan.enabled": "false"}
    assert key({}, "rule a") != key({}, "rule b") != key({"plan.weak_relevance": "0.7"}, "rule b")
    assert key(off, "rule a") == key({**off, "plan.weak_relevance": "0.7"}, "rule b")
    assert key(off, "rule a") != key({**off, "reasoning.max_tokens": "100"}, "rule a")
    monkeypatch.undo()
    assert end_to_end.code_fingerprint() != end_to_end.code_fingerprint((end_to_end.PLAN_RULE,))

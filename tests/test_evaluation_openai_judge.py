"""The openai judge against a real OpenAI-compatible server: llama-cpp-python's own server running
the embedded GGUF (the `llama_server` fixture of tests/conftest.py; no mocks). The retry
test needs no model: nothing listens on its port."""

from __future__ import annotations

import json

import pytest

import local_evaluation
from kg_mock.server import free_port
from evaluation.judges import JudgeRequest, OpenAIJudge, parse_verdict
from models.prompts import PromptLibrary
from tests.doubles import ScriptedLLM
from tests.test_evaluation_cli import QUESTIONS

# llama_cpp.server serves its one model whatever name a request asks for.
SERVED_MODEL = "embedded-judge"


def test_unreachable_endpoint_is_retried_then_counted_wrong():
    judge = OpenAIJudge(
        "any-model",
        PromptLibrary(),
        max_attempts=2,
        retry_max_wait_s=0.01,
        timeout_s=2.0,
        workers=1,
        base_url=f"http://127.0.0.1:{free_port()}/v1",
        api_key="unused",
    )
    (verdict,) = judge.judge([JudgeRequest("q?", ("a",), "b")])
    assert verdict.correct is False
    assert "APIConnectionError" in verdict.error


@pytest.mark.model
def test_openai_judge_scores_a_run_and_rescoring_uses_the_cache(llama_server, tmp_path, monkeypatch):
    data = tmp_path / "two.jsonl"
    data.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    out, cache = tmp_path / "out", tmp_path / "verdicts.jsonl"

    def system_replies(conversation, params):  # hedged answers: the answer checker leaves them to the judge
        text = " ".join(m["content"] for m in conversation)
        return "Probably the Danube." if "vienna" in text else "Canberra, I think."

    monkeypatch.setenv("OPENAI_BASE_URL", llama_server)
    monkeypatch.setenv("OPENAI_API_KEY", "local-server-needs-no-key")
    monkeypatch.setenv("EVALUATION_MODEL_NAME", SERVED_MODEL)
    argv = ["--data", str(data), "--out", str(out), "--limit", "1", "--judge", "openai"]
    argv += ["--verdict-cache", str(cache)]
    assert local_evaluation.main(argv, llm=ScriptedLLM(system_replies)) == 0

    report = json.loads((out / "report.json").read_text())
    assert report["judge"] == f"openai:{SERVED_MODEL}" and report["judge_is_weak"] is False
    assert report["judge_errors"] == 0
    scored = [json.loads(line) for line in (out / "scored.jsonl").read_text().splitlines()]
    judged = [s for s in scored if s["verdict_source"] == f"openai:{SERVED_MODEL}"]
    assert judged, "the answer checker is unsure of the scripted answers, so the judge must have been asked"
    assert all(parse_verdict(s["judge_reply"]) is not None for s in judged)  # JSON mode gave JSON
    assert len(cache.read_text().splitlines()) == len(judged)

    # Re-scoring with the server gone: every verdict comes from the cache.
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")
    assert local_evaluation.main(argv, llm=ScriptedLLM(system_replies)) == 0
    again = json.loads((out / "report.json").read_text())
    assert again["judge_errors"] == 0
    assert (again["correct"], again["hallucination"]) == (report["correct"], report["hallucination"])


def test_openai_judge_without_endpoint_or_key_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    data = tmp_path / "two.jsonl"
    data.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    argv = ["--data", str(data), "--out", str(tmp_path / "out"), "--judge", "openai"]
    assert local_evaluation.main(argv, llm=ScriptedLLM([])) == 2
    assert not (tmp_path / "out" / "predictions.jsonl").exists()

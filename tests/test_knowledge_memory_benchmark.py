"""benchmarks/knowledge_memory.py: the extractor's answers kept as they come, resumed, and tallied."""

from __future__ import annotations

import json

import pytest

from benchmarks import knowledge_memory
from tests.doubles import ScriptedLLM

QUESTIONS = [
    {
        "interaction_id_prefix": f"q{i}",
        "query": f"question {i}?",
        "answer": "paris" if i % 2 else "london",
        "domain": "open" if i < 3 else "movie",
        "static_or_dynamic": "static" if i < 4 else "real-time",
    }
    for i in range(6)
]


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "validation.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    return path


def run(monkeypatch, data, out, llm, *extra):
    monkeypatch.setattr(knowledge_memory, "create_backend", lambda config: llm)
    argv = ["--data", str(data), "--out", str(out), "--batch-size", "2", "--no-reply-cache", *extra]
    return knowledge_memory.main(argv)


def test_each_question_is_answered_once_and_a_rerun_asks_only_the_rest(monkeypatch, data, tmp_path, capsys):
    out = tmp_path / "answers.jsonl"
    first = ScriptedLLM(lambda conversation, params: '{"reasoning": "r", "answer": "Paris"}')
    assert run(monkeypatch, data, out, first, "--limit", "4") == 0
    assert sum(len(conversations) for conversations, _ in first.calls) == 4
    out.write_text(out.read_text() + '{"id": "cut sh')  # a line cut short by a kill is asked again
    second = ScriptedLLM(lambda conversation, params: '{"reasoning": "r", "answer": "I don\'t know"}')
    assert run(monkeypatch, data, out, second) == 0
    assert sum(len(conversations) for conversations, _ in second.calls) == 2
    ids = [
        line["id"]
        for line in map(json.loads, out.read_text().splitlines()[:4] + out.read_text().splitlines()[5:])
    ]
    assert sorted(ids) == [q["interaction_id_prefix"] for q in QUESTIONS]
    table = capsys.readouterr().out
    # 6 questions: the first 4 of the shuffled order said Paris (right for the odd ids), 2 said I don't know
    answers = {line["id"]: line["answer"] for line in knowledge_memory.read_kept(out).values()}
    right = sum(answers[q["interaction_id_prefix"]] == "Paris" and q["answer"] == "paris" for q in QUESTIONS)
    wrong = sum(answers[q["interaction_id_prefix"]] == "Paris" and q["answer"] != "paris" for q in QUESTIONS)
    assert f"| all | 6 | {right} | 2 | {wrong} | 0 |" in table
    assert "on 6 of 6 validation questions" in table


def test_minutes_stop_a_run_between_batches(monkeypatch, data, tmp_path):
    out = tmp_path / "answers.jsonl"
    llm = ScriptedLLM(lambda conversation, params: '{"reasoning": "r", "answer": "x"}')
    assert run(monkeypatch, data, out, llm, "--minutes", "0") == 0
    assert len(llm.calls) == 1  # the first batch, then time is up
    assert len(out.read_text().splitlines()) == 2


def test_the_order_is_a_fixed_shuffle(data):
    order = [q["interaction_id_prefix"] for q in knowledge_memory.read_questions(data)]
    assert sorted(order) == [q["interaction_id_prefix"] for q in QUESTIONS]
    assert order == [q["interaction_id_prefix"] for q in knowledge_memory.read_questions(data)]


def test_a_missing_data_file_says_what_to_pass(tmp_path):
    with pytest.raises(SystemExit, match="--data"):
        knowledge_memory.read_questions(tmp_path / "none.jsonl")

"""local_evaluation.py end to end with the real CragSystem and a scripted LLM (no model needed)."""

from __future__ import annotations

import dataclasses
import json

import pytest

import local_evaluation
from models.config import PRESETS
from tests.doubles import ScriptedLLM

PAGE = (
    "<html><body><nav>Home | About</nav><h1>{title}</h1><p>{text}</p>"
    "<footer>Copyright 2024</footer></body></html>"
)
QUESTIONS = [
    {
        "interaction_id": "q-capital",
        "query": "what is the capital city of australia?",
        "answer": "canberra",
        "alternative_answers": "[]",
        "domain": "open",
        "question_type": "simple",
        "static_or_dynamic": "static",
        "query_time": "03/01/2024, 10:00:00 PT",
        "search_results": [
            {
                "page_name": "Australia",
                "page_url": "https://example.org/australia",
                "page_snippet": "Canberra is the capital of Australia.",
                "page_result": PAGE.format(
                    title="Australia", text="Canberra is the capital city of Australia."
                ),
                "page_last_modified": "",
            }
        ],
    },
    {
        "interaction_id": "q-river",
        "query": "which river flows through vienna?",
        "answer": "the danube",
        "alt_ans": ["danube"],
        "domain": "open",
        "question_type": "simple",
        "static_or_dynamic": "static",
        "query_time": "03/01/2024, 10:00:00 PT",
        "search_results": [
            {
                "page_name": "Vienna",
                "page_url": "https://example.org/vienna",
                "page_snippet": "The Danube flows through Vienna.",
                "page_result": PAGE.format(
                    title="Vienna", text="The Danube river flows through Vienna, Austria."
                ),
                "page_last_modified": "",
            }
        ],
    },
]


def _mentions(conversation, text: str) -> bool:
    return any(text in message["content"] for message in conversation)


def replies(conversation, params):
    """A scripted model that answers both questions and judges everything as correct."""
    if _mentions(conversation, "You grade answers"):
        return '{"accuracy": true}'
    return "Danube" if _mentions(conversation, "vienna") else "Canberra"


@pytest.fixture
def data_file(tmp_path):
    path = tmp_path / "two_questions.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    return path


def _lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_run_writes_predictions_report_and_charts(data_file, tmp_path, capsys):
    out = tmp_path / "out"
    llm = ScriptedLLM(replies)
    assert (
        local_evaluation.main(["--data", str(data_file), "--out", str(out), "--batch-size", "2"], llm=llm)
        == 0
    )

    lines = _lines(out / "predictions.jsonl")
    assert [line["interaction_id"] for line in lines] == ["q-capital", "q-river"]
    for line in lines:
        for key in (
            "query",
            "prediction",
            "references",
            "timings",
            "tokens",
            "attributes",
            "answer",
            "domain",
        ):
            assert key in line
        assert line["batch_size"] == 2 and line["seconds"] > 0
    assert lines[1]["alternative_answers"] == ["danube"]

    report = json.loads((out / "report.json").read_text())
    assert report["n"] == 2 and report["correct"] + report["missing"] + report["hallucination"] == 2
    assert report["judge"] == "rules" and set(report["by_domain"]) == {"open"}
    assert report["seconds_per_question"]["max"] > 0
    assert (out / "chart_by_domain.png").is_file() and len(_lines(out / "scored.jsonl")) == 2
    rules = [line["rule"] for line in _lines(out / "scored.jsonl")]
    assert all(rules) and sum(report["verdicts_by_rule"].values()) == 2  # every verdict names its rule
    assert report["verdicts_by_rule"] == {rule: rules.count(rule) for rule in rules}
    assert "| domain | n | correct |" in capsys.readouterr().out


def test_local_judge_and_budget_report(data_file, tmp_path, capsys):
    out = tmp_path / "out"
    argv = [
        "--data",
        str(data_file),
        "--out",
        str(out),
        "--judge",
        "local",
        "--budget-report",
        "--verdict-cache",
        str(tmp_path / "verdicts.jsonl"),
    ]
    assert local_evaluation.main(argv, llm=ScriptedLLM(replies)) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["judge"].startswith("local:scripted") and report["judge_is_weak"] is True
    assert report["budget_estimate"]["budget_seconds_per_question"] == 30.0
    assert "Estimated time on 4x T4" in capsys.readouterr().out


def test_rerun_skips_finished_questions_without_loading_the_system(data_file, tmp_path, capsys):
    out = tmp_path / "out"
    assert local_evaluation.main(["--data", str(data_file), "--out", str(out)], llm=ScriptedLLM(replies)) == 0
    before = (out / "predictions.jsonl").read_text()
    first = json.loads((out / "report.json").read_text())["run_wall"]
    assert first["questions"] == 2 and first["seconds"] > 0 and first["jobs"] == 1
    assert "This run: 2 questions in " in capsys.readouterr().out
    idle = ScriptedLLM(replies)
    assert local_evaluation.main(["--data", str(data_file), "--out", str(out)], llm=idle) == 0
    assert idle.calls == []
    assert (out / "predictions.jsonl").read_text() == before
    assert json.loads((out / "report.json").read_text())["run_wall"]["questions"] == 0
    assert "This run answered no question" in capsys.readouterr().out


def test_the_run_wall_line_says_what_the_run_took_a_question_and_how_many_jobs():
    two_jobs = local_evaluation.RunWall(questions=8, seconds=128.0, jobs=2)
    assert two_jobs.markdown() == (
        "This run: 8 questions in 128 s of wall time, 16.0 s a question (2 jobs side by side)."
    )
    assert dataclasses.replace(two_jobs, jobs=1).markdown().endswith("(1 job).")


def test_ctrl_c_leaves_valid_files_and_the_rerun_continues(data_file, tmp_path):
    out = tmp_path / "out"

    def interrupt_on_second_question(conversation, params):
        if _mentions(conversation, "vienna"):
            raise KeyboardInterrupt
        return replies(conversation, params)

    argv = ["--data", str(data_file), "--out", str(out), "--batch-size", "1"]
    assert local_evaluation.main(argv, llm=ScriptedLLM(interrupt_on_second_question)) == 130
    first_run = _lines(out / "predictions.jsonl")
    assert [line["interaction_id"] for line in first_run] == ["q-capital"]
    assert not (out / "report.json").exists()

    # A hard kill in the middle of a write leaves half a line; the rerun must cope with that too.
    with (out / "predictions.jsonl").open("a") as stream:
        stream.write('{"interaction_id": "q-riv')

    resumed = ScriptedLLM(replies)
    assert local_evaluation.main(argv, llm=resumed) == 0
    final = _lines(out / "predictions.jsonl")
    assert [line["interaction_id"] for line in final] == ["q-capital", "q-river"]
    assert final[0] == first_run[0]
    assert resumed.calls and not any(_mentions(c, "australia") for call in resumed.calls for c in call[0])
    assert json.loads((out / "report.json").read_text())["n"] == 2


def test_a_failing_question_becomes_an_error_line(data_file, tmp_path, monkeypatch):
    from models.crag_system import CragSystem

    original = CragSystem.batch_generate_answer

    def flaky(self, batch):
        if "which river flows through vienna?" in batch["query"]:
            raise RuntimeError("page parser exploded")
        return original(self, batch)

    monkeypatch.setattr(CragSystem, "batch_generate_answer", flaky)
    out = tmp_path / "out"
    argv = ["--data", str(data_file), "--out", str(out), "--batch-size", "2"]
    assert local_evaluation.main(argv, llm=ScriptedLLM(replies)) == 0
    lines = {line["interaction_id"]: line for line in _lines(out / "predictions.jsonl")}
    assert lines["q-river"]["prediction"] == "I don't know"
    assert "page parser exploded" in lines["q-river"]["error"]
    assert "error" not in lines["q-capital"]
    report = json.loads((out / "report.json").read_text())
    assert report["errors"] == 1 and report["missing"] >= 1


def test_another_configuration_in_the_same_folder_is_refused(data_file, tmp_path):
    out = tmp_path / "out"
    assert (
        local_evaluation.main(
            ["--data", str(data_file), "--out", str(out), "--limit", "1"], llm=ScriptedLLM(replies)
        )
        == 0
    )
    changed = ["--data", str(data_file), "--out", str(out), "--set", "retrieval.top_k_chunks=2"]
    assert local_evaluation.main(changed, llm=ScriptedLLM(replies)) == 2
    assert local_evaluation.main(changed + ["--restart"], llm=ScriptedLLM(replies)) == 0
    assert len(_lines(out / "predictions.jsonl")) == 2


def test_unknown_preset_is_a_clear_error(data_file, tmp_path):
    argv = ["--data", str(data_file), "--out", str(tmp_path / "o"), "--preset", "no-such-preset"]
    assert local_evaluation.main(argv, llm=ScriptedLLM(replies)) == 2


def test_presets_side_by_side(data_file, tmp_path, capsys):
    if "baseline" not in PRESETS:
        pytest.skip("no baseline preset yet")
    out = tmp_path / "out"
    argv = ["--data", str(data_file), "--out", str(out), "--presets", "baseline,cpu"]
    assert local_evaluation.main(argv, llm=ScriptedLLM(replies)) == 0
    assert (out / "baseline" / "report.json").is_file() and (out / "cpu" / "report.json").is_file()
    table = (out / "comparison.md").read_text()
    assert "| baseline | 2 |" in table and "| cpu | 2 |" in table
    assert (out / "comparison.png").is_file() and "## Ablation" in capsys.readouterr().out


def test_references_only(data_file, tmp_path):
    out = tmp_path / "out"
    assert (
        local_evaluation.main(
            ["--data", str(data_file), "--out", str(out), "--references-only", "--jobs", "1"]
        )
        == 0
    )
    lines = _lines(out / "references.jsonl")
    assert len(lines) == 2 and all(isinstance(line["references"], list) for line in lines)
    report = json.loads((out / "report.json").read_text())
    assert report["n"] == 2 and 0 <= report["answer_in_references"] <= 2


def test_a_missing_data_file_is_one_line_saying_what_to_pass(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(local_evaluation.__file__).resolve().parent
    missing = tmp_path / "nowhere.jsonl"
    run = subprocess.run(
        [sys.executable, "local_evaluation.py", "--data", str(missing), "--out", str(tmp_path / "out")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    last = run.stderr.strip().splitlines()[-1]
    assert f"No data file {missing}" in last and "pass --data" in last
    assert not (tmp_path / "out").exists()  # refused before anything was written

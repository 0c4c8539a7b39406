"""benchmarks/end_to_end.py with a scripted LLM: the setups side by side, the listing, and resuming."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from benchmarks import end_to_end
from evaluation.data import read_records
from evaluation.truncation import ApproximateTruncator
from models.llm import with_reply_cache
from tests.doubles import ScriptedLLM
from tests.test_crag_system import reply_by_output_shape

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample.jsonl"


def bench(out: Path, llm: ScriptedLLM, *extra: str) -> dict:
    argv = [
        "--data",
        str(SAMPLE),
        "--out",
        str(out),
        "--limit",
        "4",
        "--setups",
        "cpu-all,cpu-plan",
        "--no-reply-cache",
        *extra,
    ]
    assert end_to_end.main(argv, llm=lambda config: llm) == 0
    return json.loads((out / "report.json").read_text())


def test_setups_side_by_side_and_a_rerun_reuses_only_answers_of_the_same_config_and_code(
    tmp_path, monkeypatch
):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    first = ScriptedLLM(reply_by_output_shape("canberra"))
    result = bench(tmp_path, first)

    setups = result["setups"]
    assert setups["cpu-all"]["correct"] == setups["cpu-plan"]["correct"] == 1  # only the capital question
    assert setups["cpu-all"]["stage_runs"]["calculator"] == 4 > setups["cpu-plan"]["stage_runs"]["calculator"]
    assert setups["cpu-plan"]["tokens_per_question"] < setups["cpu-all"]["tokens_per_question"]
    assert result["plan_against_all"]["tokens_change"] < 0
    listing = (tmp_path / "report.md").read_text()
    assert (
        "| 1 | what is the capital city of australia? | canberra | canberra [correct] | canberra [correct] |"
        in listing
    )
    assert result["verdicts"]["sample-04-absent"]["cpu-plan"] == {
        "prediction": "canberra",
        "verdict": "unsure",
    }
    # The answer check refuses "canberra" where a number is asked.
    assert result["verdicts"]["sample-02-medals"]["cpu-plan"] == {
        "prediction": "I don't know",
        "verdict": "missing",
    }
    files = sorted(p.name for p in (tmp_path / "answers").iterdir())
    assert len(files) == 2

    again = ScriptedLLM(reply_by_output_shape("canberra"))
    assert bench(tmp_path, again)["setups"] == setups
    assert again.calls == []  # every answer reused

    changed = ScriptedLLM(reply_by_output_shape("canberra"))
    compared = bench(
        tmp_path, changed, "--set", "reasoning.max_tokens=100", "--compare", str(tmp_path / "answers")
    )
    assert changed.calls  # a changed configuration is computed afresh, into files of its own
    assert len(list((tmp_path / "answers").iterdir())) == 4
    for name in ("cpu-all", "cpu-plan"):  # each setup against its own earlier file, the same replies
        assert compared["compare"][name]["reference"] == str(
            tmp_path / "answers" / next(f for f in files if f.startswith(name))
        )
        assert (compared["compare"][name]["common"], compared["compare"][name]["changed"]) == (4, [])


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


# Synthetic answers of two runs on data/sample.jsonl. The reference lacks sample-07, the new run
# sample-04; sample-01's prediction changes but not its verdict.
REFERENCE = {
    "sample-01-capital": "canberra",
    "sample-02-medals": "I don't know",
    "sample-03-false-premise": "invalid question",
    "sample-04-absent": "$57.32",
    "sample-05-comparison": "mount kenya",
    "sample-06-calculation": "10 years",
    "sample-08-aggregation": "I don't know",
}
NEW = {
    "sample-01-capital": "Canberra.",
    "sample-02-medals": "16",
    "sample-03-false-premise": "invalid question",
    "sample-05-comparison": "mount kilimanjaro",
    "sample-06-calculation": "12 years",
    "sample-07-songwriter": "freddie mercury",
    "sample-08-aggregation": "3",
}


def write_answers(path: Path, predictions: dict[str, str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "".join(
            json.dumps({"interaction_id": key, "prediction": value}) + "\n"
            for key, value in predictions.items()
        )
    )
    return path


def compare_offline(tmp_path: Path, new: Path, ref: Path, *extra: str) -> dict:
    argv = [
        "--data",
        str(SAMPLE),
        "--out",
        str(tmp_path / "out"),
        "--answers",
        str(new),
        "--compare",
        str(ref),
        *extra,
    ]
    assert end_to_end.main(argv) == 0
    return json.loads((tmp_path / "out" / "compare.json").read_text())


def test_the_tables_by_dynamism_class_and_question_type_tally_each_label(tmp_path):
    records = list(read_records(SAMPLE))
    lines = {
        key: {"interaction_id": key, "prediction": value}
        for key, value in {**NEW, "sample-04-absent": "I don't know"}.items()
    }
    setup = end_to_end.Setup("baseline", end_to_end.load_config("baseline"), "k", tmp_path / "b.jsonl", lines)
    text, result = end_to_end.report([setup], records, ApproximateTruncator())

    summary = result["setups"]["baseline"]
    assert (summary["n"], summary["correct"], summary["missing"], summary["wrong"]) == (8, 6, 1, 1)
    by_class = summary["by_static_or_dynamic"]
    assert list(by_class) == [
        "static",
        "slow-changing",
        "real-time",
    ]  # the classes' order, not the alphabet's
    assert by_class["static"] == {"n": 6, "correct": 5, "wrong": 1, "missing": 0, "unsure": 0, "score": 4 / 6}
    assert by_class["real-time"] == {
        "n": 1,
        "correct": 0,
        "wrong": 0,
        "missing": 1,
        "unsure": 0,
        "score": 0.0,
    }
    by_type = summary["by_question_type"]
    assert list(by_type) == ["simple", "comparison", "aggregation", "post-processing", "false_premise"]
    assert by_type["simple"] == {"n": 4, "correct": 3, "wrong": 0, "missing": 1, "unsure": 0, "score": 0.75}
    assert by_type["post-processing"]["score"] == -1.0
    assert "| static | 6 | 5 | 0 | 1 | 0 | 0.667 |" in text
    assert "| simple | 4 | 3 | 1 | 0 | 0 | 0.750 |" in text


def test_compare_lists_exactly_the_changed_verdicts_and_the_questions_one_side_lacks(tmp_path, capsys):
    new = write_answers(tmp_path / "new" / "cpu-plan-bbbb.jsonl", NEW)
    ref = write_answers(tmp_path / "old" / "cpu-plan-aaaa.jsonl", REFERENCE)
    result = compare_offline(tmp_path, new, ref)

    changes = {
        item["interaction_id"]: (item["old_verdict"], item["new_verdict"]) for item in result["changed"]
    }
    assert changes == {
        "sample-02-medals": ("missing", "correct"),
        "sample-05-comparison": ("wrong", "correct"),
        "sample-06-calculation": ("correct", "wrong"),
        "sample-08-aggregation": ("missing", "correct"),
    }
    assert result["transitions"] == {"missing→correct": 2, "wrong→correct": 1, "correct→wrong": 1}
    assert result["common"] == 6
    assert (result["only_new"], result["only_reference"]) == (["sample-07-songwriter"], ["sample-04-absent"])
    assert result["score_change"] == (5 - 1) / 6 - (3 - 1) / 6
    item = next(item for item in result["changed"] if item["interaction_id"] == "sample-08-aggregation")
    assert (item["static_or_dynamic"], item["question_type"]) == ("slow-changing", "aggregation")
    assert (item["old_prediction"], item["new_prediction"]) == ("I don't know", "3")
    printed = capsys.readouterr().out
    assert (
        "| sample-05-comparison | which is taller, mount kilimanjaro or mount kenya? | static | comparison | "
        "mount kenya → mount kilimanjaro | wrong → correct |" in printed
    )
    assert "4 verdicts changed: missing→correct: 2, wrong→correct: 1, correct→wrong: 1." in printed
    assert "Only in the reference (1): sample-04-absent." in printed
    assert "sample-01-capital" not in printed  # a new wording, the same verdict


def test_questions_restricts_to_ids_and_prefixes_and_rejects_an_id_matching_none(tmp_path):
    new = write_answers(tmp_path / "cpu-plan-bbbb.jsonl", NEW)
    ref = write_answers(tmp_path / "old.jsonl", REFERENCE)
    result = compare_offline(tmp_path, new, ref, "--questions", "sample-02-medals,sample-05")
    assert result["common"] == 2
    assert [item["interaction_id"] for item in result["changed"]] == [
        "sample-02-medals",
        "sample-05-comparison",
    ]
    with pytest.raises(SystemExit, match="no question's interaction id starts with nope"):
        compare_offline(tmp_path, new, ref, "--questions", "sample-02,nope")


def test_a_reference_folder_gives_the_newest_answers_of_the_setup_but_its_own(tmp_path):
    folder = tmp_path / "answers"
    for age, name in enumerate(["cpu-all-cccc", "cpu-plan-dddd", "cpu-plan-bbbb", "cpu-plan-aaaa"]):
        path = write_answers(folder / f"{name}.jsonl", REFERENCE)
        os.utime(path, (1_000_000 - age, 1_000_000 - age))
    own = folder / "cpu-plan-dddd.jsonl"
    assert end_to_end.reference_file(folder, "cpu-plan", own) == folder / "cpu-plan-bbbb.jsonl"
    assert end_to_end.reference_file(folder, "cpu-all", own) == folder / "cpu-all-cccc.jsonl"
    assert compare_offline(tmp_path, own, folder)["reference"] == str(folder / "cpu-plan-bbbb.jsonl")
    with pytest.raises(SystemExit, match="no answers file baseline-<key>.jsonl"):
        end_to_end.reference_file(folder, "baseline", own)


def test_a_bad_reference_is_refused_before_any_llm_call(tmp_path):
    new = write_answers(tmp_path / "cpu-plan-bbbb.jsonl", NEW)
    with pytest.raises(SystemExit, match=r"--compare .*nowhere: no such file or folder"):
        compare_offline(tmp_path, new, tmp_path / "nowhere")
    llm = ScriptedLLM(reply_by_output_shape("canberra"))
    with pytest.raises(SystemExit, match="no such file or folder"):
        bench(tmp_path, llm, "--compare", str(tmp_path / "nowhere"))
    assert llm.calls == []
    with pytest.raises(SystemExit, match="--answers needs --compare"):
        end_to_end.main(["--data", str(SAMPLE), "--answers", str(new)])


def cached_bench(out: Path, llm: ScriptedLLM, cache: Path, *extra: str) -> dict:
    argv = [
        "--data",
        str(SAMPLE),
        "--out",
        str(out),
        "--limit",
        "4",
        "--setups",
        "cpu-all",
        "--reply-cache",
        str(cache),
        "--jobs",
        "1",
        *extra,
    ]
    assert end_to_end.main(argv, llm=lambda config: with_reply_cache(llm, config)) == 0
    return json.loads((out / "report.json").read_text())


def model_calls(llm: ScriptedLLM) -> list:
    """The calls of the stages (the engine's calibration at warm-up is never cached)."""
    return [call for call in llm.calls if not call[0][0][0]["content"].startswith("Calibration")]


def predictions(result: dict) -> dict[str, str]:
    return {key: value["cpu-all"]["prediction"] for key, value in result["verdicts"].items()}


def test_a_rerun_after_an_edit_that_changes_no_request_takes_every_reply_from_the_cache(
    tmp_path, monkeypatch
):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    cache = tmp_path / "replies.sqlite"
    first = ScriptedLLM(reply_by_output_shape("canberra"))
    before = cached_bench(tmp_path, first, cache)
    summary = before["setups"]["cpu-all"]
    assert summary["reply_cache"]["hits"] == 0 and summary["reply_cache"]["misses"] > 0
    assert summary["timings_rest_on"] == {"questions": 4, "uncached_calls": summary["reply_cache"]["misses"]}

    monkeypatch.setattr(end_to_end, "code_fingerprint", lambda leave_out=(): "a comment changed")
    again = ScriptedLLM(reply_by_output_shape("a reply the model would not give again"))
    after = cached_bench(tmp_path, again, cache)
    assert model_calls(again) == []  # a new answers file (the code changed), every reply from the cache
    assert len(list((tmp_path / "answers").iterdir())) == 2
    assert predictions(after) == predictions(before)
    counts = after["setups"]["cpu-all"]["reply_cache"]
    assert (counts["hits"], counts["misses"]) == (summary["reply_cache"]["misses"], 0)
    assert after["setups"]["cpu-all"]["timings_rest_on"] == {"questions": 0, "uncached_calls": 0}
    report = (tmp_path / "report.md").read_text()
    assert "its seconds rest on 0 questions" in report
    assert before["setups"]["cpu-all"]["p50_s"] is not None and after["setups"]["cpu-all"]["p50_s"] is None
    assert "| cached | cached | cached | cached |" in report and "nan" not in report


def test_after_an_edit_of_the_reasoning_prompt_only_reasoning_and_later_calls_are_recomputed(
    tmp_path, monkeypatch
):
    from models.prompts import PromptLibrary

    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    cache = tmp_path / "replies.sqlite"
    cached_bench(tmp_path, ScriptedLLM(reply_by_output_shape("canberra")), cache)

    conversation = PromptLibrary.conversation

    def edited(self, name, **values):
        messages = conversation(self, name, **values)
        if name == "reasoning":
            messages[0] = {**messages[0], "content": messages[0]["content"] + "\nBe careful."}
        return messages

    monkeypatch.setattr(PromptLibrary, "conversation", edited)
    monkeypatch.setattr(end_to_end, "code_fingerprint", lambda leave_out=(): "prompts/reasoning.txt changed")
    again = ScriptedLLM(reply_by_output_shape("canberra"))
    by_stage = cached_bench(tmp_path, again, cache)["setups"]["cpu-all"]["reply_cache"]["by_stage"]
    assert by_stage["reasoning"] == {"hits": 0, "misses": 4}
    before_reasoning = {
        stage: counts for stage, counts in by_stage.items() if stage in ("kg", "calculator", "knowledge")
    }
    assert before_reasoning and all(counts["misses"] == 0 for counts in before_reasoning.values())
    assert all("Be careful." in call[0][0][0]["content"] for call in model_calls(again))  # reasoning alone
    assert "calculator 4 of 4, knowledge 4 of 4, reasoning 0 of 4" in (tmp_path / "report.md").read_text()


def canberra_llm(config):
    """A scripted backend each job builds for itself (it must pickle: a module-level function)."""
    return ScriptedLLM(reply_by_output_shape("canberra"))


def test_two_jobs_answer_like_one_in_one_merged_report(tmp_path, monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        argv = [
            "--data",
            str(SAMPLE),
            "--out",
            str(out),
            "--limit",
            "6",
            "--setups",
            "cpu-all,cpu-plan",
            "--set",
            "batch_size=2",
            "--no-reply-cache",
            "--jobs",
            jobs,
        ]
        assert end_to_end.main(argv, llm=canberra_llm) == 0
        runs[jobs] = json.loads((out / "report.json").read_text())
        files = list((out / "answers").iterdir())
        assert len(files) == 2
        for path in files:  # each question once in its setup's one answers file
            ids = [json.loads(line)["interaction_id"] for line in path.read_text().splitlines()]
            assert sorted(ids) == sorted(runs[jobs]["verdicts"])
    assert runs["2"]["verdicts"] == runs["1"]["verdicts"]


def test_a_timing_target_a_cached_run_cannot_measure_is_not_measured_rather_than_missed():
    assert end_to_end.target_cells(None, -0.30) == ["n/a", "-30%", "not measured (no uncached batch)"]
    assert end_to_end.target_cells(-0.40, -0.30)[2] == "met"
    assert end_to_end.target_cells(-0.20, -0.30)[2] == "MISSED"

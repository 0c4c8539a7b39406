"""evaluation/jobs.py: tasks spread over processes, each ending exactly once, whatever a job does."""

from __future__ import annotations

import functools
import json
import os
import signal
import time
from pathlib import Path

import pytest

from evaluation.jobs import JobsCannotStart, TaskFailed, run_jobs, share_cores


def _answer(marks: Path, deadly: dict[int, int], task: int) -> tuple[int, int]:
    """Task n -> (n * n, pid); dies by SIGKILL on task n the first deadly[n] times it gets it."""
    mark = marks / f"{task}-{os.getpid()}"
    mark.touch()
    if len(list(marks.glob(f"{task}-*"))) <= deadly.get(task, 0):
        os.kill(os.getpid(), signal.SIGKILL)
    if task < 0:
        raise ValueError(f"no square for {task}")
    return task * task, os.getpid()


def _setup(marks: Path, deadly: dict[int, int], job: int):
    return functools.partial(_answer, marks, deadly)


def _answer_when_both_jobs_run(marks: Path, task: int) -> tuple[int, int]:
    """Waits (up to a minute) until two processes have taken a task, so that both jobs answer."""
    (marks / f"{task}-{os.getpid()}").touch()
    for _ in range(600):
        if len({path.name.split("-")[1] for path in marks.iterdir()}) >= 2:
            break
        time.sleep(0.1)
    return task * task, os.getpid()


def _setup_waiting(marks: Path, job: int):
    return functools.partial(_answer_when_both_jobs_run, marks)


def _broken_setup(job: int):
    raise FileNotFoundError("no model here")


def _run(tasks, jobs, setup):
    """Each task's result, by the task's position."""
    results: dict[int, object] = {}
    order: list[int] = []

    def done(task, result):
        order.append(tasks.index(task))
        results[tasks.index(task)] = result

    run_jobs(iter(tasks), jobs, setup, done)
    assert sorted(order) == list(range(len(tasks)))  # each task ended once: none lost, none twice
    return results


def test_every_task_ends_once_with_its_result_from_several_processes(tmp_path):
    results = _run(list(range(8)), 2, functools.partial(_setup_waiting, tmp_path))
    assert [result[0] for _, result in sorted(results.items())] == [n * n for n in range(8)]
    assert len({result[1] for result in results.values()}) == 2  # both jobs answered


def test_a_killed_job_s_task_is_dealt_again_once_and_the_others_are_untouched(tmp_path):
    results = _run(list(range(6)), 2, functools.partial(_setup, tmp_path, {3: 1}))
    assert [result[0] for _, result in sorted(results.items())] == [n * n for n in range(6)]
    assert len(list(tmp_path.glob("3-*"))) == 2  # killed once, then answered by a fresh job


def test_a_task_whose_jobs_die_twice_is_recorded_as_failed(tmp_path):
    results = _run(list(range(5)), 2, functools.partial(_setup, tmp_path, {2: 5}))
    assert results[2] == TaskFailed("its job was killed by SIGKILL, twice")
    assert len(list(tmp_path.glob("2-*"))) == 2  # tried twice, no more
    assert [results[n][0] for n in (0, 1, 3, 4)] == [0, 1, 9, 16]


def test_a_task_that_raises_fails_at_once_without_another_attempt(tmp_path):
    results = _run([1, -2, 3], 1, functools.partial(_setup, tmp_path, {}))
    assert results[1] == TaskFailed("ValueError: no square for -2")
    assert len(list(tmp_path.glob("-2-*"))) == 1
    assert (results[0][0], results[2][0]) == (1, 9)


def test_jobs_that_cannot_set_up_stop_the_run_with_the_reason():
    with pytest.raises(JobsCannotStart, match="no model here"):
        _run([1, 2], 2, _broken_setup)


# local_evaluation.py --jobs: the run's one prediction file, whatever happens to a job.

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample.jsonl"


def _answer_records(marks: Path, deadly: str, times: int, records):
    """Answers each question with its id; the job dies on the batch holding `deadly`, `times` times."""
    if any(record.gold.interaction_id == deadly for record in records):
        (marks / f"death-{os.getpid()}").touch()
        if len(list(marks.glob("death-*"))) <= times:
            os.kill(os.getpid(), signal.SIGKILL)
    return [{"prediction": record.gold.interaction_id} for record in records]


def _records_setup(marks: Path, deadly: str, times: int, job: int):
    from evaluation.runner import answer_lines

    return functools.partial(
        answer_lines, answer_batch=functools.partial(_answer_records, marks, deadly, times)
    )


@pytest.mark.parametrize("deaths", [1, 2])
def test_a_killed_job_loses_and_duplicates_no_question_of_the_evaluation(tmp_path, deaths):
    from evaluation.data import read_records
    from evaluation.runner import PredictionStore, run_questions_in_jobs

    records = list(read_records(SAMPLE))
    deadly = records[3].gold.interaction_id  # in the second batch of 3
    store = PredictionStore(tmp_path / "predictions.jsonl")
    setup = functools.partial(_records_setup, tmp_path, deadly, deaths)
    golds = run_questions_in_jobs(iter(records), store, 3, setup, 2, len(records), "sample")

    assert [gold.interaction_id for gold in golds] == [record.gold.interaction_id for record in records]
    written = [json.loads(line) for line in (tmp_path / "predictions.jsonl").read_text().splitlines()]
    assert sorted(line["interaction_id"] for line in written) == sorted(
        g.interaction_id for g in golds
    )  # once each
    batch = {record.gold.interaction_id for record in records[3:6]}
    for line in written:
        if (
            deaths == 2 and line["interaction_id"] in batch
        ):  # its job died twice: recorded as failed, with why
            assert (line["prediction"], line["error"]) == (
                "I don't know",
                "its job was killed by SIGKILL, twice",
            )
        else:
            assert line["prediction"] == line["interaction_id"] and "error" not in line
            assert line["batch_size"] in (2, 3) and "answer" in line  # the gold fields ride along


def test_each_job_gets_its_share_of_the_cores_and_its_own_first_server(monkeypatch):
    import torch

    from models.config import load_config

    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    threads = torch.get_num_threads()
    try:
        config = load_config("cpu", {"llm.base_url": "http://a/v1,http://b/v1,http://c/v1"})
        share_cores(config, 4, 1)
        assert (config.llm.threads, config.web.workers, torch.get_num_threads()) == (2, 2, 2)
        assert config.llm.base_url == "http://b/v1,http://c/v1,http://a/v1"
        chosen = load_config("cpu", {"llm.threads": "1", "web.workers": "3"})
        share_cores(chosen, 2, 0)
        assert (chosen.llm.threads, chosen.web.workers) == (1, 3)  # what the user set stays
    finally:
        torch.set_num_threads(threads)

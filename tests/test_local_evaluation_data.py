"""local_evaluation.py on the official data layouts (rebuilt from the bundled sample), and on bad input.

Task 3's archive of JSONL shards, its parts and its unpacked folder give the same questions, the
same references and (with the model) the same answers as the same questions in one .jsonl, and a
run resumes from any of them. Each bad input ends the real script with exit status 2 and one line
naming the file and line (or the setting), with no traceback and no model loaded."""

from __future__ import annotations

import bz2
import json
import subprocess
import sys

import pytest

import local_evaluation
from tests.crag_layouts import (
    REPO_ROOT,
    TASK3,
    many_lines,
    sample_lines,
    split_parts,
    task3_archive,
    write_jsonl,
)

# Run as the script (`__main__`), then print the modules that would mean a model was built.
_AS_SCRIPT = """
import json, runpy, sys
sys.argv = ["local_evaluation.py", *json.loads(sys.argv[1])]
try:
    runpy.run_path("local_evaluation.py", run_name="__main__")
    status = 0
except SystemExit as stop:
    status = stop.code
heavy = ("llama_cpp", "torch", "sentence_transformers", "vllm", "models.user_config", "models.crag_system")
print(json.dumps(sorted(m for m in sys.modules if m in heavy or m.split(".")[0] in heavy[:4])))
sys.exit(status)
"""


def _record_without(*fields: str, **changes) -> bytes:
    record = json.loads(sample_lines(1)[0]) | changes
    return json.dumps({k: v for k, v in record.items() if k not in fields}).encode() + b"\n"


def _bad_inputs(tmp):
    """name -> (argv, what the one line must say)."""
    lines = sample_lines()
    compressed = bz2.compress(b"".join(many_lines(150)))
    corrupt = bytearray(compressed)
    corrupt[len(corrupt) // 2] ^= 0xFF
    (tmp / "a_file").write_text("not a folder")
    parts = split_parts(task3_archive(tmp / "whole", lines), 3, into=tmp / "parts")
    parts[1].unlink()
    files = {
        "empty.jsonl": b"",
        "first_line.jsonl": b"{oops\n" + b"".join(lines),
        "late_line.jsonl": b"".join(lines[:7]) + b'{"query": "cut\n',  # after the first batch of 4
        "no_query.jsonl": lines[0] + _record_without("query", interaction_id="x"),
        "no_pages.jsonl": _record_without("search_results"),
        "pages_not_a_list.jsonl": _record_without(search_results="<html><p>a page</p></html>"),
        "truncated.jsonl.bz2": compressed[: len(compressed) * 3 // 4],
        "corrupt.jsonl.bz2": bytes(corrupt),
    }
    for name, content in files.items():
        (tmp / name).write_bytes(content)
    out = ["--out", str(tmp / "out")]
    cases = {name.split(".")[0]: (["--data", str(tmp / name), *out], pattern) for name, pattern in [
        ("empty.jsonl", "empty.jsonl: no questions in it"),
        ("first_line.jsonl", "first_line.jsonl:1: not valid JSON"),
        ("late_line.jsonl", "late_line.jsonl:8: not valid JSON"),
        ("no_query.jsonl", "no_query.jsonl:2: no 'query'"),
        ("no_pages.jsonl", "no_pages.jsonl:1: no 'search_results'"),
        ("pages_not_a_list.jsonl", "pages_not_a_list.jsonl:1: 'search_results' is text, not a list of pages"),
        ("truncated.jsonl.bz2", "truncated.jsonl.bz2: the file is truncated after "),
        ("corrupt.jsonl.bz2", "corrupt.jsonl.bz2:"),
    ]}  # fmt: skip
    cases["out_is_a_file"] = (["--out", str(tmp / "a_file")], "--out " + str(tmp / "a_file") + " is a file")
    cases["setting_out_of_range"] = (
        ["--set", "llm.context_tokens=-5", *out],
        "llm.context_tokens must be at least 256; got -5",
    )
    cases["missing_weights"] = (
        ["--set", "retrieval.embedding_model=/nowhere/sentence-t5-large", *out],
        "The cpu preset's weights are not here: sentence encoder (/nowhere/sentence-t5-large). Fetch them",
    )
    cases["missing_part"] = (["--data", str(parts[0]), *out], "part 2 of the split file is missing")
    cases["no_question_of_the_split"] = (
        ["--split", "1", *out],
        "sample.jsonl: none of its 8 questions is of --split 1 (public test)",
    )
    return cases


@pytest.fixture(scope="module")
def bad_runs(tmp_path_factory):
    """Every bad input, each run as the real script in its own process, side by side."""
    tmp = tmp_path_factory.mktemp("bad_inputs")
    cases = _bad_inputs(tmp)
    started = {
        name: subprocess.Popen(
            [sys.executable, "-c", _AS_SCRIPT, json.dumps(argv)],
            cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for name, (argv, _) in cases.items()
    }  # fmt: skip
    runs = {name: (process, *process.communicate(timeout=300)) for name, process in started.items()}
    return {name: (runs[name], cases[name][1], tmp) for name in cases}


@pytest.mark.parametrize(
    "case",
    ["empty", "first_line", "late_line", "no_query", "no_pages", "pages_not_a_list", "truncated", "corrupt",
     "out_is_a_file", "setting_out_of_range", "missing_weights", "missing_part", "no_question_of_the_split"],
)  # fmt: skip
def test_bad_input_ends_in_one_line_with_status_2_before_any_model_is_built(bad_runs, case):
    (process, stdout, stderr), expected, tmp = bad_runs[case]
    assert process.returncode == 2, stderr
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "ERROR" in lines[0] and expected in lines[0]
    assert json.loads(stdout.strip().splitlines()[-1]) == []  # no backend, encoder or UserModel imported
    assert not (tmp / "out").exists()  # refused before anything was written


# --- the official layouts end to end ------------------------------------------------------------


def _stored(folder, name):
    lines = [json.loads(line) for line in (folder / name).read_text(encoding="utf-8").splitlines()]
    return [{k: v for k, v in line.items() if k != "seconds"} for line in lines]


@pytest.fixture(scope="module")
def task3_files(tmp_path_factory):
    """The first five sample questions as one .jsonl, as the Task 3 archive of three shards, and
    as that archive's four parts."""
    root = tmp_path_factory.mktemp("task3")
    lines = sample_lines(5)
    archive = task3_archive(root / "archive", lines, shards=3)
    return {
        "jsonl": write_jsonl(root / "one.jsonl", lines),
        "archive": archive,
        "parts": split_parts(archive, 4, into=root / "parts"),
    }


def test_the_task3_archive_gives_the_references_of_one_jsonl_and_a_run_resumes_across_shapes(
    task3_files, tmp_path
):
    runs = {}
    for shape in ("jsonl", "archive"):
        out = tmp_path / shape
        argv = ["--data", str(task3_files[shape]), "--out", str(out), "--references-only", "--jobs", "1",
                "--batch-size", "2"]  # fmt: skip
        assert local_evaluation.main(argv) == 0
        runs[shape] = _stored(out, "references.jsonl")
    assert [line["interaction_id"] for line in runs["jsonl"]] == [
        json.loads(line)["interaction_id"] for line in sample_lines(5)
    ]
    assert runs["archive"] == runs["jsonl"]  # same questions, order, batches and references
    assert all(line["references"] for line in runs["jsonl"])

    # the folder answered from the .jsonl resumes from the archive's parts, answering nothing again
    out = tmp_path / "jsonl"
    before = (out / "references.jsonl").read_text()
    argv = ["--data", str(task3_files["parts"][0]), "--out", str(out), "--references-only", "--jobs", "1"]
    assert local_evaluation.main(argv) == 0
    assert (out / "references.jsonl").read_text() == before
    assert json.loads((out / "run.json").read_text())["data"].endswith(f"{TASK3}.tar.bz2.part1..part4")


def test_a_saved_answer_under_the_same_id_to_another_question_is_refused(task3_files, tmp_path, capsys):
    out = tmp_path / "out"
    argv = ["--data", str(task3_files["jsonl"]), "--out", str(out), "--references-only", "--jobs", "1",
            "--limit", "1"]  # fmt: skip
    assert local_evaluation.main(argv) == 0
    first = json.loads(sample_lines(1)[0])
    changed = json.dumps(first | {"query": "another question?"}).encode()
    other = write_jsonl(tmp_path / "other.jsonl", [changed])
    assert local_evaluation.main(["--data", str(other), "--out", str(out), "--references-only"]) == 2
    assert "holds an answer for sample-01-capital to 'what is the capital city" in capsys.readouterr().err


def test_split_and_several_paths_choose_the_questions(tmp_path, capsys):
    records = [json.loads(line) | {"split": index % 2} for index, line in enumerate(sample_lines(4))]
    first = write_jsonl(tmp_path / "a.jsonl.bz2", [json.dumps(r).encode() + b"\n" for r in records[:2]])
    second = write_jsonl(tmp_path / "b.jsonl", [json.dumps(r).encode() + b"\n" for r in records[2:]])
    out = tmp_path / "out"
    argv = ["--data", str(first), str(second), "--split", "0", "--out", str(out), "--references-only",
            "--jobs", "1"]  # fmt: skip
    assert local_evaluation.main(argv) == 0
    ids = [line["interaction_id"] for line in _stored(out, "references.jsonl")]
    assert ids == [records[0]["interaction_id"], records[2]["interaction_id"]]


@pytest.mark.model
def test_the_task3_archive_gives_the_answers_of_one_jsonl(task3_files, tmp_path, embedded_llm):
    """The real model on two questions: the archive's run sends exactly the requests of the .jsonl's
    (each one a hit in the reply cache the first run filled) and gets the same answers."""
    from models.config import LLMConfig
    from models.llm import with_reply_cache

    cached = with_reply_cache(embedded_llm, LLMConfig(reply_cache=str(tmp_path / "replies.sqlite")))
    runs = {}
    for shape in ("jsonl", "archive"):
        out = tmp_path / shape
        argv = [
            "--data",
            str(task3_files[shape]),
            "--out",
            str(out),
            "--limit",
            "2",
            "--batch-size",
            "2",
            "--set",
            "budget.seconds_per_question=100000",
        ]  # no deadline: a busy machine changes nothing
        assert local_evaluation.main(argv, llm=cached) == 0
        runs[shape] = json.loads((out / "report.json").read_text())["reply_cache"]
        runs[shape + " answers"] = [(line["interaction_id"], line["prediction"])
                                    for line in _stored(out, "predictions.jsonl")]  # fmt: skip
    assert runs["archive answers"] == runs["jsonl answers"] and len(runs["jsonl answers"]) == 2
    assert all(prediction.strip() for _, prediction in runs["jsonl answers"])
    assert runs["jsonl"]["misses"] > 0 and runs["jsonl"]["hits"] == 0
    assert (runs["archive"]["hits"], runs["archive"]["misses"]) == (runs["jsonl"]["misses"], 0)

"""local_evaluation.py --jobs on two llama.cpp OpenAI-compatible servers of the embedded model."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import local_evaluation
from kg_mock.server import free_port
from models.config import LLMConfig
from models.llm.embedded import embedded_model_path
from tests.conftest import wait_until_healthy

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "sample.jsonl"


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory):
    """Two servers of the embedded model on localhost, one thread each."""
    config = LLMConfig()
    model = embedded_model_path(config.cache_dir, config)
    logs = tmp_path_factory.mktemp("servers")
    servers, urls = [], []
    try:
        for index in range(2):
            port = free_port("127.0.0.1")
            command = [
                sys.executable,
                "-m",
                "tests.llama_server",
                "--model",
                str(model),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_threads",
                "1",
                "--n_threads_batch",
                "1",
                "--n_ctx",
                str(config.context_tokens),
                "--n_batch",
                str(config.batch_tokens),
                "--verbose",
                "False",
            ]
            with (logs / f"server-{index}.log").open("wb") as log:
                servers.append(subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT))
            urls.append(f"http://127.0.0.1:{port}/v1")
        for index, (server, url) in enumerate(zip(servers, urls)):
            wait_until_healthy(server, url, logs / f"server-{index}.log")
        yield urls
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)


def predictions(folder: Path) -> dict[str, str]:
    lines = [json.loads(line) for line in (folder / "predictions.jsonl").read_text().splitlines()]
    ids = [line["interaction_id"] for line in lines]
    assert len(ids) == len(set(ids))  # each question once
    return {line["interaction_id"]: line["prediction"] for line in lines}


@pytest.mark.model
def test_two_jobs_on_two_servers_answer_like_one_job(two_servers, tmp_path):
    settings = [
        "llm.backend=openai",
        f"llm.base_url={','.join(two_servers)}",
        "llm.json_schema_style=json_object",
        "budget.seconds_per_question=100000",
    ]  # no deadline: a busy machine must not change the answers
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs-{jobs}"
        argv = [
            "--data",
            str(SAMPLE),
            "--out",
            str(out),
            "--limit",
            "3",
            "--batch-size",
            "1",
            "--jobs",
            jobs,
            "--log-level",
            "WARNING",
        ] + [part for setting in settings for part in ("--set", setting)]
        assert local_evaluation.main(argv) == 0
        runs[jobs] = predictions(out)
        report = json.loads((out / "report.json").read_text())
        assert report["errors"] == 0 and report["reply_cache"]["hits"] == 0
    assert len(runs["1"]) == 3
    assert runs["2"] == runs["1"]

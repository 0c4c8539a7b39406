"""create_backend picks the backend by name and imports nothing it does not need."""

from __future__ import annotations

import subprocess
import sys

import pytest

from models.config import LLMConfig
from models.llm import create_backend


def test_importing_the_llm_package_loads_no_backend_library():
    code = (
        "import sys, models.llm; "
        "print(sorted(m for m in ('llama_cpp', 'openai', 'vllm') if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_llamacpp_backend_is_built_without_loading_the_model(tmp_path):
    backend = create_backend(LLMConfig(model_path=str(tmp_path / "absent.gguf")))
    assert backend.name == "llamacpp" and backend.load_seconds == 0.0  # loads in warm_up or on first use
    with pytest.raises(ValueError):
        backend.count_tokens("hello")  # the first use loads, and a missing file fails there
    backend.close()


def test_openai_backend_is_built_without_contacting_a_server():
    backend = create_backend(LLMConfig(backend="openai", base_url="http://127.0.0.1:9/v1"))
    assert backend.name == "openai"
    backend.close()


def test_unknown_backend_is_a_clear_error():
    config = LLMConfig()
    config.backend = "nonsense"  # type: ignore[assignment]
    with pytest.raises(ValueError, match="llamacpp, openai or vllm"):
        create_backend(config)

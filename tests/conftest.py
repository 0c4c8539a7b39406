from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"
SHARED_TOKENIZER = REPO_ROOT.parent / "shared" / "tokenizer"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "model: runs the real embedded LLM (slow on CPU)")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data, or a clean skip when this checkout has none."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"{SHARED_DATA} is absent")
    return SHARED_DATA


@pytest.fixture(scope="session")
def embedded_llm():
    """The embedded default model (llama.cpp + packaged Qwen2.5-Coder-1.5B), loaded once per run."""
    from models.config import LLMConfig
    from models.llm import create_backend

    backend = create_backend(LLMConfig())
    yield backend
    backend.close()

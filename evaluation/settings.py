"""Evaluation knobs that are not part of the system under test (so not in `CragConfig`).

The command line of `local_evaluation.py` overrides the ones it exposes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from models.config import REPO_ROOT, default_cache_dir


@dataclass
class EvaluationSettings:
    # The leaderboard cut every prediction to 75 Llama-2 tokens before judging.
    max_prediction_tokens: int = 75
    tokenizer_dir: Path = REPO_ROOT / "tokenizer"
    # OpenAI-compatible judge: model name from env, like the official script.
    openai_model: str = field(
        default_factory=lambda: os.environ.get("EVALUATION_MODEL_NAME", "gpt-4-0125-preview")
    )
    judge_max_attempts: int = 10
    judge_retry_max_wait_s: float = 30.0
    judge_request_timeout_s: float = 120.0
    judge_workers: int = 4
    # A verdict is one small JSON object.
    judge_max_tokens: int = 32
    verdict_cache: Path = field(default_factory=lambda: default_cache_dir() / "judge_verdicts.jsonl")
    # The user's checkout of the CRAG starter kit, for --judge official (evaluation/starter_kit.py).
    kit_dir: Path | None = None

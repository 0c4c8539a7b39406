"""One typed configuration for the whole system, with named presets.

    schema.py     the sections and their defaults (`CragConfig`)
    presets.py    `cpu` (default), `t4x4` (the leaderboard), `baseline`
    overrides.py  `section.option=value` overrides, parsed by the option's declared type

`load_config()` picks a preset by name (argument, then env `CRAG_PRESET`, then `cpu`), applies the
overrides, then finalises: the derived options are worked out last, so that an override of what they
derive from (`--set budget.target_throughput.…`) reaches them, and the answer policy's fitted file
(`policy.fitted`, models/config/fitted.py) is applied. Then every option is checked against its
declared type and range (`Range` beside the field in schema.py: models/config/ranges.py), so a
preset, an override, a fitted or a derived value outside it is refused, naming the option and its
range. Environment variables are read when the configuration is built (here), never at import.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from models.config.fitted import read_fitted
from models.config.overrides import check_config, parse_overrides, set_option
from models.config.presets import PRESETS, baseline_preset, cpu_preset, t4x4_preset
from models.config.ranges import Range
from models.config.schema import (
    PROMPTS_DIR,
    REPO_ROOT,
    AnswerCheckConfig,
    AttributesConfig,
    BudgetConfig,
    CalculatorConfig,
    CragConfig,
    KGConfig,
    KnowledgeConfig,
    LLMConfig,
    PlanConfig,
    PolicyConfig,
    ReasoningConfig,
    RetrievalConfig,
    ThroughputModelConfig,
    WebConfig,
    WrongForm,
    default_cache_dir,
)

__all__ = [
    "PRESETS", "PROMPTS_DIR", "REPO_ROOT", "AnswerCheckConfig", "AttributesConfig", "BudgetConfig",
    "CalculatorConfig", "CragConfig", "KGConfig", "KnowledgeConfig", "LLMConfig", "PlanConfig",
    "PolicyConfig", "Range", "ReasoningConfig", "RetrievalConfig", "ThroughputModelConfig", "WebConfig",
    "WrongForm", "baseline_preset", "check_config", "cpu_preset", "default_cache_dir", "finalize",
    "load_config", "parse_overrides", "read_fitted", "set_option", "t4x4_preset", "to_dict",
]  # fmt: skip


# Prompt tokens per engine step assumed for the initial prefill speed when llm.max_num_batched_tokens
# is unset (vLLM's chunked-prefill default).
DEFAULT_PREFILL_CHUNK = 512


def load_config(preset: str | None = None, overrides: dict[str, Any] | None = None) -> CragConfig:
    name = preset or os.environ.get("CRAG_PRESET") or "cpu"
    if name not in PRESETS:
        raise ValueError(f"Unknown preset {name!r}; choose one of: {', '.join(sorted(PRESETS))}")
    config = PRESETS[name]()
    for dotted, value in (overrides or {}).items():
        set_option(config, dotted, value)
    finalize(config)
    try:
        check_config(config)
    except ValueError as error:
        raise ValueError(f"The {name} configuration: {error}") from None
    return config


def finalize(config: CragConfig) -> CragConfig:
    """Work out the options derived from others (those still None); what a preset or an override
    set is kept, so finalising twice changes nothing."""
    budget = config.budget
    target = budget.target_throughput
    if budget.initial_prefill_tokens_per_s is None:
        chunk = config.llm.max_num_batched_tokens or DEFAULT_PREFILL_CHUNK
        budget.initial_prefill_tokens_per_s = round(target.prefill_tokens_per_step_second(chunk), 1)
    if budget.initial_decode_step_s is None:
        budget.initial_decode_step_s = {
            n: round(target.step_seconds(0, n, n), 6) for n in budget.calibration_sequences
        }
    if budget.initial_call_overhead_s is None:
        budget.initial_call_overhead_s = target.call_overhead_s
    if budget.initial_context_s_per_token is None:
        budget.initial_context_s_per_token = target.kv_read_s_per_token
    if config.plan.calculator_reference_chars is None:
        shown = config.calculator.max_reference_tokens * config.retrieval.chars_per_token
        config.plan.calculator_reference_chars = int(shown)
    if config.policy.fitted is not None:
        # A fit's values stand over the preset's and any --set (unset `policy.fitted` to use those).
        for name, value in read_fitted(config.policy.fitted)["values"].items():
            set_option(config, f"policy.{name}", value)
    return config


def to_dict(config: CragConfig) -> dict[str, Any]:
    return dataclasses.asdict(config)

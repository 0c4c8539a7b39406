"""The named presets: `cpu` (this machine, the default), `t4x4` (the leaderboard) and `baseline`
(the official RAG baseline on the cpu preset's LLM). Each returns a `CragConfig`; what a preset does
not set keeps the schema's default, and derived options are worked out when the configuration loads."""

from __future__ import annotations

from typing import Callable

from models.config.schema import REPO_ROOT, CragConfig, LLMConfig


def cpu_preset() -> CragConfig:
    """This machine: 2 cores, the embedded 1.5B model; small references so a question fits in ~1 min."""
    config = CragConfig(preset="cpu")
    # The embedded model is far slower than the T4 target (benchmarks/end_to_end.py); the budget scales.
    config.budget.seconds_per_question = 120.0
    # A short calibration (a few seconds of the embedded model); llama.cpp runs one sequence at a
    # time, so decode steps of 1 and 2 sequences tell how a call's steps grow.
    config.budget.calibration_prompt_tokens = 256
    config.budget.calibration_decode_tokens = 12
    config.budget.calibration_sequences = (1, 2)
    # The embedded model on 2 idle cores (DEVELOPERS.md), until calibrated.
    config.budget.initial_prefill_tokens_per_s = 60.0
    config.budget.initial_decode_step_s = {1: 0.05, 2: 0.1}
    config.budget.initial_call_overhead_s = 0.1
    return config


def t4x4_preset() -> CragConfig:
    """The leaderboard: Llama-3-70B-Instruct GPTQ on vLLM over 4x T4 (fp16, no FlashAttention-2)."""
    config = CragConfig(preset="t4x4", batch_size=8)
    # vLLM engine on 4x T4 (15 GiB usable each, compute 7.5); the arithmetic is in models/README.md.
    config.llm = LLMConfig(
        backend="vllm",
        model_path=str(REPO_ROOT / "models" / "weights" / "Meta-Llama-3-70B-Instruct-GPTQ"),
        # ~37 GiB of 4-bit weights need all four GPUs; 4 divides the 64 query and 8 KV heads.
        tensor_parallel_size=4,
        # Turing has no bf16; fp16 is the native half type (attention runs on xformers, no FA2).
        dtype="half",
        # Plain GPTQ (exllama) kernels: vLLM's Marlin kernels need compute >= 8.0, and naming gptq
        # keeps vLLM from switching to gptq_bitblas (whose bitblas package is not in the lock).
        quantization="gptq",
        # 85% of 14.7 GiB = 12.5 GiB per GPU: 9.3 GiB weights, ~1 GiB activations, ~2.2 GiB KV cache
        # (~29k tokens at 80 KiB/token/GPU). The other 2.2 GiB hold the CUDA context, NCCL buffers
        # and, on GPU 0, the sentence encoder (loaded after vLLM, which only measures its own use).
        gpu_memory_utilization=0.85,
        # Llama-3's own context. The longest prompt (reasoning: template, 2,000 tokens of chunks,
        # <=4,000 chars of tables, <=4,000 chars of KG lines, calculations, the knowledge answer)
        # plus 160 output tokens is ~5.8k tokens at worst; `python -m tools.validate` recomputes
        # this from the templates and fails if it ever exceeds max_model_len.
        max_model_len=8192,
        # No CUDA graphs: capturing them costs ~0.5-1 GiB per GPU and a minute of start-up that the
        # KV cache needs more; eager decoding is what the official baselines ran on these machines.
        enforce_eager=True,
        # V0 splits an n-sample request into n single-sequence groups (ParallelSampleSequenceGroup)
        # and preempts single-sequence groups by recomputation; no request here is ever swapped.
        swap_space_gb=0,
        # The prefix-prefill kernel has a Turing path (vllm/attention/ops/prefix_prefill.py), and
        # the xformers backend calls it: the n sample requests of a prompt share its KV blocks, and
        # each stage's instruction prefix stays cached across batches.
        enable_prefix_caching=True,
        # Llama-3-Instruct ends a turn with <|eot_id|>; older checkpoints' configs list only <|end_of_text|>.
        stop_special_tokens=("<|eot_id|>",),
        # Worker processes instead of Ray: Ray tensor parallelism has hung on g4dn.12xlarge.
        distributed_executor_backend="mp",
        # The T4s talk over PCIe without NVLink: skip the custom all-reduce and its start-up probe.
        disable_custom_all_reduce=True,
    )
    config.retrieval.embedding_model = str(REPO_ROOT / "models" / "weights" / "sentence-t5-large")
    config.retrieval.embedding_device = "cuda"
    # A unit is a sentence with only the neighbours it needs (~150 chars): 32 of them (40 for a list
    # question) come to ~5,400 chars, within the token budgets below. benchmarks/retrieval.py (CPU
    # stand-ins for the encoder and the reranker) measures the answers they hold, and with 16 and 28.
    config.retrieval.top_k_chunks = 32
    config.retrieval.list_top_k_chunks = 40
    config.retrieval.max_reference_tokens = 2000
    config.retrieval.list_max_reference_tokens = 2500
    config.retrieval.max_table_chars = 4000
    config.retrieval.dense_candidates = 128
    # bge-reranker-v2-m3 (568M parameters, 1.06 GiB in fp16) rescores the fused top 48 windows:
    # a pair is the query and a <=600-char window (its T4 seconds: `make check-t4x4`). It sits on
    # GPU 1: GPU 0's share beside vLLM (~2.2 GiB) already holds the CUDA context, NCCL buffers and
    # sentence-t5-large in fp32 (1.25 GiB); GPU 1 has ~1.6 GiB free after its worker's context and
    # NCCL, less ~0.35 GiB for this process's own context there.
    config.retrieval.relevance_estimator = "cross_encoder"
    config.retrieval.cross_encoder_model = str(REPO_ROOT / "models" / "weights" / "bge-reranker-v2-m3")
    config.retrieval.cross_encoder_device = "cuda:1"
    config.retrieval.cross_encoder_dtype = "float16"
    config.retrieval.rerank_candidates = 48
    # Its sigmoid scores put unrelated passages near 0, partial evidence above (benchmarks/retrieval.py).
    config.retrieval.min_relevance = 0.05
    # Engine steps of at most 512 tokens: ~1.7 s at the expected prefill speed, ~4.9 s at a third
    # of it, so the deadline can stop the engine within seconds (models/README.md, "The deadline").
    config.llm.enable_chunked_prefill = True
    config.llm.max_num_batched_tokens = 512
    config.budget.initial_stage_seconds.update(attributes=0.2, web=0.1, retrieval=1.2, kg=0.5)
    # A decode step's time rises in stairs of 8 sequences (the exllama kernel reads the weights once per
    # 8 rows, up to 50 rows; above, cuBLAS over dequantized weights): measured on both sides of each
    # stair up to 33, then at 48, 50, 51 and 64, the steps between are interpolated within 15 % of the
    # 4x T4 model at every count from 1 to 64 (tests/test_deadline.py). Each is the median of the
    # engine's reports of its steps that decoded them all, so 12 tokens a sequence suffice.
    config.budget.calibration_sequences = (1, 8, 9, 16, 17, 24, 25, 32, 33, 48, 50, 51, 64)
    config.budget.calibration_decode_tokens = 12
    # V0 runs each of the n samples as its own request with its own prefill: 3 samples still give
    # a majority and cost 3/5 of the paper's 5 (models/README.md, "The 4x T4 time model").
    config.calculator.samples = 3
    # The answer policy's refusal for dynamism: the rule of the hybrid RAG system this package
    # follows (Yuan et al. 2024, arXiv 2408.05141), whose attribute predictor refuses a question it
    # calls dynamic; with its refusals their Llama-3-70B system went from 72.1 % to 13.9 % of
    # answers wrong on CRAG (score -46.6 % to 15.8 %, correct 25.4 % to 29.7 %). Here: refused when
    # P(dynamic) is above 0.5, in every domain; a domain of `policy.kg_answers_dynamic` waits for
    # the KG instead. The other policy options keep the schema's defaults: no public figure of the
    # 70B measures them, and `python -m tools.fit --preset t4x4` fits them to it (README).
    config.policy.answer_worth = {
        "static": 0.5,
        "slow-changing": -0.5,
        "fast-changing": -0.5,
        "real-time": -0.5,
    }
    return config


def baseline_preset() -> CragConfig:
    """The official RAG baseline on the cpu preset's LLM, for ablations: its retrieval (whole-page
    text, top-20 sentences, 4,000 characters) and one answer prompt; no attributes, KG, calculator,
    knowledge extractor or false-premise detection."""
    config = cpu_preset()
    config.preset = "baseline"
    config.retrieval.mode = "baseline"
    # The official baseline reads every page (its retrieval reads the raw HTML itself).
    config.web.read_pages = 0
    config.attributes.enabled = False
    config.kg.enabled = False
    config.calculator.enabled = False
    config.knowledge.enabled = False
    config.reasoning.false_premise_detection = False
    config.answer_check.enabled = False
    return config


PRESETS: dict[str, Callable[[], CragConfig]] = {
    "cpu": cpu_preset,
    "t4x4": t4x4_preset,
    "baseline": baseline_preset,
}

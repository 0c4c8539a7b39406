"""`--budget-report`: seconds per question on the leaderboard machine (4x T4, vLLM 0.8.5 V0).

We cannot run Llama-3-70B here, so the recorded prompt tokens of each LLM stage are replayed
through a model of how vLLM 0.8.5's V0 engine runs one `LLM.generate` call of a batch of B
questions (constants in `ThroughputModelConfig`, their sources and the arithmetic in
models/README.md):

    requests    = questions x n                 V0 fans an n-sample request out into n requests
    prefill s   = ThroughputModelConfig.prefill_seconds of the requests' prompts: steps of
                  llm.max_num_batched_tokens prompt tokens (chunked prefill; the n copies of a prompt
                  are scheduled in the same step, so each is computed), each with its all-reduces,
                  and every prompt token's attention to the tokens before it
    KV demand   = sum over questions of (prompt + n x max_tokens)   (the copies share prompt blocks)
    waves       = ceil(KV demand / kv_cache_tokens_per_gpu)          (the rest waits for free blocks)
    step s      = ThroughputModelConfig.step_seconds of the wave's sequences: the exllama kernel reads
                  the weights once per 8 sequences, plus the all-reduces of its rows, the KV-cache
                  reads of the wave's context (its prompts and half of max_tokens per sequence) and
                  one token mask per guided sequence (the model the simulated T4 of `make check-t4x4` runs)
    decode s    = waves x max_tokens x step s   (every reply runs to the stage's max_tokens: an upper bound)
    guided s    = guided_request_s x guided requests                 (one matcher per request)
    stage s     = call_overhead_s + prefill s + decode s + guided s

Stages without LLM tokens (web pages, retrieval, attributes, KG API calls) keep their measured
seconds, scaled by `non_llm_time_scale`; a GPU cross-encoder adds `cross_encoder_pair_s` for each
of its `rerank_candidates` pairs to every retrieved question. A batch takes the sum of its stages,
shared by its questions; the questions are regrouped into batches of the target preset's batch size.

    python -m evaluation.time_model PREDICTIONS.jsonl [...]   # tables for recorded runs
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from models.config import CragConfig, ThroughputModelConfig, load_config
from models.deadline import LLMStageShape
from models.stages import llm_shapes
from models.markdown import markdown_table


@dataclass
class StageEstimate:
    requests: int = 0
    prefill_s: float = 0.0
    decode_s: float = 0.0
    guided_s: float = 0.0
    overhead_s: float = 0.0
    waves: int = 0
    cpu_s: float = 0.0
    gpu_s: float = 0.0  # modelled non-LLM GPU work: the cross-encoder

    @property
    def total(self) -> float:
        return self.prefill_s + self.decode_s + self.guided_s + self.overhead_s + self.cpu_s + self.gpu_s


def llm_stage_seconds(
    usages: list[dict[str, Any]], shape: LLMStageShape, model: ThroughputModelConfig, chunk: int = 512
) -> StageEstimate:
    """One generate call of a batch: `usages` are the questions' recorded token usage of the stage;
    `chunk` the prompt tokens of an engine step."""
    calls = [max(1, int(u.get("calls", 1))) for u in usages]
    prompts = [int(u.get("prompt_tokens", 0)) for u in usages]
    sequences = sum(calls) * shape.samples
    demand = sum(prompts) + sequences * shape.max_tokens
    waves = max(1, math.ceil(demand / model.kv_cache_tokens_per_gpu))
    per_wave = math.ceil(sequences / waves)
    context = sum(prompts) * shape.samples / waves + per_wave * shape.max_tokens / 2
    step = model.step_seconds(0, per_wave, per_wave if shape.guided else 0, context_tokens=int(context))
    per_request = [
        prompt // count for prompt, count in zip(prompts, calls) for _ in range(count * shape.samples)
    ]
    return StageEstimate(
        requests=sequences,
        prefill_s=model.prefill_seconds(per_request, chunk),
        decode_s=waves * shape.max_tokens * step,
        guided_s=model.guided_request_s * sequences if shape.guided else 0.0,
        overhead_s=model.call_overhead_s * max(calls),
        waves=waves,
    )


def batch_stage_estimates(group: list[dict[str, Any]], config: CragConfig) -> dict[str, StageEstimate]:
    model = config.budget.target_throughput
    known = llm_shapes(config)
    estimates: dict[str, StageEstimate] = {}
    llm_stages = sorted({stage for line in group for stage in (line.get("tokens") or {})})
    for stage in llm_stages:
        usages = [line["tokens"][stage] for line in group if stage in (line.get("tokens") or {})]
        # A stage the target preset does not run: the longest reply recorded, one sample, unguided.
        longest = max(int(u.get("completion_tokens", 0)) for u in usages)
        shape = known.get(stage) or LLMStageShape(1, longest, False, "")
        estimates[stage] = llm_stage_seconds(usages, shape, model, config.llm.max_num_batched_tokens or 512)
    for line in group:
        for stage, measured in (line.get("timings") or {}).items():
            if stage not in (line.get("tokens") or {}):
                estimates.setdefault(stage, StageEstimate()).cpu_s += (
                    float(measured) * model.non_llm_time_scale
                )
        if "retrieval" in (line.get("timings") or {}):
            estimates["retrieval"].gpu_s += reranker_seconds_per_question(config)
    return estimates


def reranker_seconds_per_question(config: CragConfig) -> float:
    retrieval = config.retrieval
    on_gpu = retrieval.cross_encoder_device.startswith("cuda")
    if retrieval.relevance_estimator != "cross_encoder" or not on_gpu:
        return 0.0
    return retrieval.rerank_candidates * config.budget.target_throughput.cross_encoder_pair_s


def estimate_budget(lines: list[dict[str, Any]], config: CragConfig) -> dict[str, Any]:
    """Seconds per question of `lines` (recorded per-question tokens and timings) on `config`'s machine."""
    batch_size = config.batch_size
    per_question: list[float] = []
    batches = []
    for start in range(0, len(lines), batch_size):
        group = lines[start : start + batch_size]
        stages = batch_stage_estimates(group, config)
        seconds = sum(stage.total for stage in stages.values())
        per_question.extend([seconds / len(group)] * len(group))
        batches.append(
            {
                "questions": len(group),
                "seconds": seconds,
                "stages": {k: asdict(v) | {"total": v.total} for k, v in stages.items()},
            }
        )
    values = np.array(per_question) if per_question else np.zeros(1)
    return {
        "target_preset": config.preset,
        "target_batch_size": batch_size,
        "budget_seconds_per_question": config.budget.seconds_per_question,
        "estimated_seconds_per_question": {
            "p50": float(np.percentile(values, 50)),
            "p95": float(np.percentile(values, 95)),
            "max": float(values.max()),
            "mean": float(values.mean()),
        },
        "within_budget": bool(values.max() <= config.budget.seconds_per_question),
        "batches": batches,
        "throughput_model": asdict(config.budget.target_throughput),
    }


def markdown_budget(preset: str, estimate: dict[str, Any]) -> str:
    values = estimate["estimated_seconds_per_question"]
    verdict = "within" if estimate["within_budget"] else "OVER"
    size = estimate["target_batch_size"]
    full = [batch for batch in estimate["batches"] if batch["questions"] == size] or estimate["batches"]
    stages = sorted({stage for batch in full for stage in batch["stages"]})
    columns = (
        "requests",
        "waves",
        "prefill_s",
        "decode_s",
        "guided_s",
        "overhead_s",
        "cpu_s",
        "gpu_s",
        "total",
    )
    rows = []
    for stage in stages:
        mean = {c: float(np.mean([b["stages"].get(stage, {}).get(c, 0.0) for b in full])) for c in columns}
        rows.append(
            [stage, *(f"{mean[c]:.0f}" if c in ("requests", "waves") else f"{mean[c]:.1f}" for c in columns)]
        )
    rows.append(["batch", *[""] * (len(columns) - 1), f"{np.mean([b['seconds'] for b in full]):.1f}"])
    return "\n\n".join(
        [
            f"## Estimated time on 4x T4 ({estimate['target_preset']} preset, vLLM 0.8.5 V0) from the tokens "
            f"of preset `{preset}`",
            f"Seconds per question: p50 {values['p50']:.1f}, p95 {values['p95']:.1f}, max "
            f"{values['max']:.1f} — {verdict} the budget of {estimate['budget_seconds_per_question']:.0f} s.",
            f"Per stage, seconds for a batch of {size} (mean of {len(full)} batch(es)):",
            markdown_table(
                [
                    "stage",
                    "requests",
                    "KV waves",
                    "prefill",
                    "decode",
                    "guided",
                    "overhead",
                    "CPU",
                    "reranker",
                    "total",
                ],
                rows,
            ),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.time_model", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "predictions", nargs="+", type=Path, help="predictions.jsonl of a run (tokens and timings)"
    )
    parser.add_argument("--preset", default="t4x4", help="the target preset (default t4x4)")
    args = parser.parse_args(argv)
    config = load_config(args.preset)
    for path in args.predictions:
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        print(f"# {path} ({len(lines)} questions)\n")
        print(
            markdown_budget(lines[0].get("preset", "?") if lines else "?", estimate_budget(lines, config))
            + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

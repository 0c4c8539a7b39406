"""`--budget-report`: seconds per question on the leaderboard machine, estimated from a local run.

The leaderboard gives a batch of B questions B x 30 s on 4x T4 (Llama-3-70B-Instruct GPTQ 4-bit on
vLLM, tensor parallel 4, fp16, eager mode). We cannot run that here, so we replay the LLM token
counts each stage recorded locally through a simple throughput model, one generate call per stage
per batch (the system's rule):

    stage seconds = call_overhead_s x (most calls any question made in the stage)
                  + (prompt tokens of the whole batch) / prefill_tokens_per_s
                  + (most completion tokens of one question) x decode_step_s
                    x max(1, sequences in the batch / sequences_per_step)

Prefill is compute-bound and shared by the batch; decoding is memory-bound, so one step serves up
to `sequences_per_step` sequences at about the cost of one. Stages without LLM tokens (page
parsing, retrieval, classifiers) keep their measured seconds, scaled by `non_llm_time_scale`.
The questions are regrouped into batches of the target preset's batch size.

Limits: completion tokens of a question include all n samples, counted as one sequence, which
overestimates sampled stages; the token counts come from the preset that was run (run the cpu
preset with the t4x4 reference sizes, e.g. `--set retrieval.max_reference_tokens=2000`, for a
closer estimate); Qwen and Llama-3 tokenizers give similar counts for English.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import numpy as np

from models.config import ThroughputModelConfig
from evaluation.reports import report_cell
from models.markdown import markdown_table


def estimate_budget(
    lines: list[dict[str, Any]],
    batch_size: int,
    seconds_per_question: float,
    model: ThroughputModelConfig,
) -> dict[str, Any]:
    per_question: list[float] = []
    stage_seconds: dict[str, float] = {}
    for start in range(0, len(lines), batch_size):
        group = lines[start : start + batch_size]
        group_seconds = 0.0
        for stage, seconds in _group_stage_seconds(group, model).items():
            stage_seconds[stage] = stage_seconds.get(stage, 0.0) + seconds
            group_seconds += seconds
        per_question.extend([group_seconds / len(group)] * len(group))
    values = np.array(per_question) if per_question else np.zeros(1)
    n = max(len(lines), 1)
    return {
        "target_batch_size": batch_size,
        "budget_seconds_per_question": seconds_per_question,
        "estimated_seconds_per_question": {
            "p50": float(np.percentile(values, 50)),
            "p95": float(np.percentile(values, 95)),
            "max": float(values.max()),
            "mean": float(values.mean()),
        },
        "within_budget": bool(values.max() <= seconds_per_question),
        "mean_seconds_per_question_by_stage": {s: v / n for s, v in sorted(stage_seconds.items())},
        "throughput_model": asdict(model),
    }


def _group_stage_seconds(group: list[dict[str, Any]], model: ThroughputModelConfig) -> dict[str, float]:
    seconds: dict[str, float] = {}
    llm_stages = sorted({stage for line in group for stage in (line.get("tokens") or {})})
    for stage in llm_stages:
        usages = [line["tokens"][stage] for line in group if stage in (line.get("tokens") or {})]
        sequences = sum(int(u.get("calls", 0)) for u in usages)
        seconds[stage] = (
            model.call_overhead_s * max(int(u.get("calls", 0)) for u in usages)
            + sum(int(u.get("prompt_tokens", 0)) for u in usages) / model.prefill_tokens_per_s
            + max(int(u.get("completion_tokens", 0)) for u in usages)
            * model.decode_step_s
            * max(1.0, sequences / model.sequences_per_step)
        )
    for line in group:
        for stage, measured in (line.get("timings") or {}).items():
            if stage not in (line.get("tokens") or {}):
                seconds[stage] = seconds.get(stage, 0.0) + float(measured) * model.non_llm_time_scale
    return seconds


def markdown_budget(preset: str, estimate: dict[str, Any]) -> str:
    values = estimate["estimated_seconds_per_question"]
    verdict = "within" if estimate["within_budget"] else "OVER"
    rows = [[stage, seconds] for stage, seconds in estimate["mean_seconds_per_question_by_stage"].items()]
    return "\n\n".join(
        [
            f"## Estimated time on 4x T4 from the tokens of preset `{preset}` "
            f"(batches of {estimate['target_batch_size']})",
            f"Seconds per question: p50 {values['p50']:.1f}, p95 {values['p95']:.1f}, "
            f"max {values['max']:.1f} "
            f"— {verdict} the budget of {estimate['budget_seconds_per_question']:.0f} s.",
            markdown_table(["stage", "estimated s/q"], rows, cell=report_cell),
        ]
    )

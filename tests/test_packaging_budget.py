"""The 4x T4 time model behind --budget-report (evaluation/time_model.py)."""

from __future__ import annotations

import pytest

from evaluation.time_model import estimate_budget, markdown_budget
from models.config import ThroughputModelConfig, load_config
from models.stages import llm_shapes


def _config(**throughput):
    config = load_config("t4x4")
    config.batch_size = 4
    config.reasoning.max_tokens = 4
    config.budget.target_throughput = ThroughputModelConfig(
        prefill_tokens_per_s=100.0,
        weight_read_s=0.25,
        rows_per_weight_read=2,
        dequantize_s=0.0,
        step_fixed_s=0.25,
        allreduce_latency_s=0.0,
        allreduce_bytes_per_row=0,
        kv_read_s_per_token=throughput.get("kv_read", 0.0),
        prefill_attention_s_per_pair=0.0,
        kv_cache_tokens_per_gpu=throughput.get("kv", 1000),
        guided_request_s=0.1,
        guided_mask_s=0.01,
        call_overhead_s=1.0,
        non_llm_time_scale=2.0,
    )
    return config


LINE = {
    "tokens": {"reasoning": {"calls": 1, "prompt_tokens": 200, "completion_tokens": 4}},
    "timings": {"web": 0.5, "reasoning": 9.0},
}


def test_a_batch_is_prefill_decode_guided_overhead_and_scaled_cpu_stages():
    estimate = estimate_budget([LINE] * 4, _config())
    reasoning = estimate["batches"][0]["stages"]["reasoning"]
    # 4 requests: 800 prompt tokens / 100 per s, in 2 steps of at most 512 tokens, each 0.25 s more;
    # KV 800 + 4 x 4 <= 1000, one wave;
    # a step: 2 weight reads of 0.25 s (2 sequences each) + 0.25 s + 4 guided masks x 0.01 s, 4 steps.
    assert reasoning["prefill_s"] == pytest.approx(8.5)
    assert reasoning["waves"] == 1
    assert reasoning["decode_s"] == pytest.approx(4 * (0.75 + 0.04))
    assert reasoning["guided_s"] == pytest.approx(0.4)
    assert reasoning["overhead_s"] == pytest.approx(1.0)
    web = estimate["batches"][0]["stages"]["web"]
    assert web["cpu_s"] == pytest.approx(4 * 0.5 * 2.0)
    assert estimate["estimated_seconds_per_question"]["max"] == pytest.approx((13.06 + 4.0) / 4)
    assert estimate["within_budget"] is True


def test_a_gpu_cross_encoder_adds_its_pairs_to_each_retrieved_question():
    config = _config()
    config.retrieval.relevance_estimator, config.retrieval.cross_encoder_device = "cross_encoder", "cuda:1"
    config.retrieval.rerank_candidates, config.budget.target_throughput.cross_encoder_pair_s = 48, 0.005
    line = {"tokens": {}, "timings": {"retrieval": 0.2}}
    retrieval = estimate_budget([line] * 4, config)["batches"][0]["stages"]["retrieval"]
    assert retrieval["gpu_s"] == pytest.approx(4 * 48 * 0.005)
    config.retrieval.cross_encoder_device = "cpu"  # then its time is in the measured seconds
    assert estimate_budget([line] * 4, config)["batches"][0]["stages"]["retrieval"]["gpu_s"] == 0.0


def test_decode_steps_read_the_context_of_the_waves_sequences():
    plain = estimate_budget([LINE] * 4, _config())["batches"][0]["stages"]["reasoning"]
    reading = estimate_budget([LINE] * 4, _config(kv_read=1e-4))["batches"][0]["stages"]["reasoning"]
    # 4 steps, each reading the 800 prompt tokens and on average half of the 4 sequences' 4 tokens
    assert reading["decode_s"] - plain["decode_s"] == pytest.approx(4 * (800 + 4 * 4 / 2) * 1e-4)


def test_prompts_beyond_the_kv_cache_decode_in_waves():
    reasoning = estimate_budget([LINE] * 4, _config(kv=500))["batches"][0]["stages"]["reasoning"]
    # 816 tokens of KV demand in a 500-token cache: 2 waves of 2 sequences, each 4 steps of 0.5 + 2 x 0.01 s.
    assert reasoning["waves"] == 2
    assert reasoning["decode_s"] == pytest.approx(2 * 4 * 0.52)


def test_v0_fans_n_samples_out_into_n_requests_with_their_own_prefill():
    config = _config()
    config.calculator.samples, config.calculator.temperature, config.calculator.max_tokens = 5, 0.7, 4
    line = {"tokens": {"calculator": {"calls": 1, "prompt_tokens": 100, "completion_tokens": 20}}}
    calculator = estimate_budget([line] * 4, config)["batches"][0]["stages"]["calculator"]
    assert calculator["requests"] == 20
    # 2,000 prompt tokens in 4 steps of at most 512
    assert calculator["prefill_s"] == pytest.approx(4 * 5 * 100 / 100.0 + 4 * 0.25)
    assert calculator["guided_s"] == pytest.approx(20 * 0.1)


def test_greedy_stages_send_one_request_per_question():
    config = load_config("t4x4")
    config.calculator.temperature = 0.0
    assert llm_shapes(config)["calculator"].samples == 1


def test_the_report_names_the_verdict_and_every_stage():
    config = _config()
    text = markdown_budget("cpu", estimate_budget([LINE] * 4, config))
    assert "within the budget of 30 s" in text and "| reasoning |" in text and "| web |" in text
    config.budget.seconds_per_question = 1.0
    assert "OVER the budget" in markdown_budget("cpu", estimate_budget([LINE], config))

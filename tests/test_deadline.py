"""The batch deadline (models/deadline.py): the engine-speed model, calibration, stage costs and plans."""

from __future__ import annotations

import math

import pytest

from models.config import BudgetConfig, ThroughputModelConfig, load_config
from models.deadline import (
    BRIEF_REASONING,
    BatchDeadline,
    EngineSpeed,
    Planned,
    ReasoningForm,
    ReasoningPlan,
    StageCosts,
    calibrate,
)
from models.llm.base import Completion, StepTiming, TokenUsage
from models.stages import llm_shapes
from tests.doubles import ScriptedLLM


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def speed(prefill_tps=100.0, steps=None, overhead=0.0, kv=None) -> EngineSpeed:
    return EngineSpeed(
        call_overhead_s=overhead,
        prefill_s_per_token=1.0 / prefill_tps,
        decode_step_s=steps or {1: 0.1, 8: 0.1, 24: 0.3},
        kv_cache_tokens=kv,
        smoothing=0.5,
    )


# --- the T4 step model ---------------------------------------------------------------------------


def test_a_t4_step_reads_the_weights_once_per_eight_rows_up_to_fifty_rows():
    model = ThroughputModelConfig(guided_mask_s=0.0, allreduce_bytes_per_row=0)
    one = model.step_seconds(0, 1, 0)
    assert model.step_seconds(0, 8, 0) == one
    assert model.step_seconds(0, 9, 0) == pytest.approx(one + model.weight_read_s)
    assert model.step_seconds(0, 24, 0) == pytest.approx(one + 2 * model.weight_read_s)
    # Beyond 50 rows the weights are dequantized once and the rows are compute bound.
    assert model.step_seconds(512, 0, 0) == pytest.approx(
        model.dequantize_s
        + 512 / model.prefill_tokens_per_s
        + model.step_fixed_s
        + model.allreduces_per_step * model.allreduce_latency_s
    )
    assert model.step_seconds(0, 0, 0) == 0.0


def test_a_steps_all_reduces_move_its_rows_over_pcie():
    model = ThroughputModelConfig()
    without = ThroughputModelConfig(allreduce_bytes_per_row=0)
    moved = model.allreduces_per_step * 512 * model.allreduce_bytes_per_row / model.pcie_bytes_per_s
    assert model.step_seconds(512, 0, 0) - without.step_seconds(512, 0, 0) == pytest.approx(moved)
    # A 512-token prefill chunk moves ~2 GB per GPU: ~0.2 s at 10 GB/s; a decode step of 8 rows ~3 ms.
    assert 0.15 < moved < 0.25
    assert model.step_seconds(0, 8, 0) - without.step_seconds(0, 8, 0) < 0.005


def test_attention_grows_with_the_context_read():
    model = ThroughputModelConfig()
    # 8 sequences of 5k tokens read ~3.3 GB of KV cache per GPU each step.
    assert model.step_seconds(0, 8, 8, context_tokens=40_000) - model.step_seconds(0, 8, 8) == pytest.approx(
        40_000 * model.kv_read_s_per_token
    )
    late = model.step_seconds(512, 0, 0, prefill_context=512 * 4000)
    assert late - model.step_seconds(512, 0, 0) == pytest.approx(
        512 * 4000 * model.prefill_attention_s_per_pair
    )


def test_a_guided_request_builds_its_matcher_on_its_first_token():
    model = ThroughputModelConfig(guided_request_s=0.02, guided_mask_s=0.001)
    assert model.step_seconds(0, 8, 8, new_guided=8) - model.step_seconds(0, 8, 8) == pytest.approx(8 * 0.019)


def test_a_prompt_is_read_in_chunks_each_token_attending_to_those_before():
    model = ThroughputModelConfig()
    pairs = 1000 * 999 // 2 + 300 * 299 // 2
    expected = (
        2 * model.step_seconds(512, 0, 0)
        + model.step_seconds(276, 0, 0)
        + pairs * model.prefill_attention_s_per_pair
    )
    assert model.prefill_seconds([1000, 300], 512) == pytest.approx(expected)
    assert model.prefill_seconds([], 512) == 0.0


def test_each_guided_sequence_adds_a_token_mask_to_the_step():
    model = ThroughputModelConfig(guided_mask_s=0.015)
    assert model.step_seconds(0, 8, 8) - model.step_seconds(0, 8, 0) == pytest.approx(8 * 0.015)


def test_the_t4x4_preset_starts_from_the_t4_model_it_documents():
    config = load_config("t4x4")
    budget, model = config.budget, config.budget.target_throughput
    chunk = config.llm.max_num_batched_tokens
    assert budget.initial_prefill_tokens_per_s == pytest.approx(
        model.prefill_tokens_per_step_second(chunk), abs=0.1
    )
    # a chunk's all-reduces, dequantization and launches make ~290 of the 408 tok/s of its matrix products
    assert 250 < budget.initial_prefill_tokens_per_s < 350
    assert budget.initial_context_s_per_token == model.kv_read_s_per_token
    for sequences, seconds in budget.initial_decode_step_s.items():
        assert seconds == pytest.approx(model.step_seconds(0, sequences, sequences), abs=5e-4)


# --- EngineSpeed ---------------------------------------------------------------------------------


def test_decode_steps_are_interpolated_between_measured_counts_and_extrapolated_beyond():
    fast = speed(steps={1: 0.1, 8: 0.1, 24: 0.3})
    assert fast.step_seconds(1) == 0.1 and fast.step_seconds(4) == pytest.approx(0.1)
    assert fast.step_seconds(16) == pytest.approx(0.2)
    assert fast.step_seconds(40) == pytest.approx(0.5)  # the last slope, 0.0125 s per sequence


def test_a_call_costs_its_overhead_prefill_and_decode_steps():
    model = speed(prefill_tps=100.0, steps={1: 0.1, 8: 0.2}, overhead=0.5)
    assert model.call_seconds(prompt_tokens=1000, sequences=8, steps=50) == pytest.approx(
        0.5 + 10.0 + 50 * 0.2
    )
    assert model.call_seconds(prompt_tokens=1000, sequences=0, steps=50) == 0.0


def test_sequences_beyond_the_kv_cache_decode_in_waves():
    model = speed(prefill_tps=1e9, steps={1: 0.1, 8: 0.1}, kv=1000)
    # 8 x (100 + 100) = 1600 tokens of KV: two waves of 4 sequences, each 100 steps.
    assert model.call_seconds(prompt_tokens=800, sequences=8, steps=100) == pytest.approx(
        2 * 100 * 0.1, rel=1e-6
    )


def test_a_decode_step_grows_with_the_context_its_sequences_read():
    model = speed(steps={1: 0.1, 8: 0.1})
    model.context_s_per_token = 1e-6
    assert model.step_seconds(8, context_tokens=40_000) == pytest.approx(0.14)
    # the next engine step: a prompt chunk's tokens plus the decode of the running sequences
    assert model.predict_step(512, 8, 40_000) == pytest.approx(512 / 100.0 + 0.14)
    assert model.predict_step(512, 0, 0) == pytest.approx(5.12)
    # a call's steps read its prompts and half of its replies
    assert model.call_seconds(prompt_tokens=8000, sequences=8, steps=100) == pytest.approx(
        80.0 + 100 * (0.1 + (8000 + 8 * 50) * 1e-6)
    )


def test_observed_steps_move_the_speeds_toward_what_they_took():
    model = speed(prefill_tps=100.0, steps={1: 0.1, 8: 0.1})
    model.observe(StepTiming(prompt_tokens=100, sequences=0, seconds=2.0))  # 50 tok/s
    assert model.prefill_s_per_token == pytest.approx(0.015)  # half way from 0.01 to 0.02
    model.observe(StepTiming(prompt_tokens=0, sequences=4, seconds=0.2))  # 2x the table
    assert model.step_seconds(4) == pytest.approx(0.15)
    # A step that both prefills and decodes: the decode part is taken from the table.
    before = model.prefill_s_per_token
    model.observe(StepTiming(prompt_tokens=100, sequences=1, seconds=model.step_seconds(1) + 100 * before))
    assert model.prefill_s_per_token == pytest.approx(before)


def test_a_stalled_step_moves_the_speeds_no_more_than_one_outlier_factor_allows():
    model = speed(prefill_tps=100.0, steps={1: 0.1, 8: 0.1})
    model.observe(StepTiming(prompt_tokens=0, sequences=4, seconds=176.0))  # a stall, 1760x the table
    assert model.step_seconds(4) == pytest.approx(0.1 * 1.5)  # counted as 2x, at smoothing 0.5
    model.observe(StepTiming(prompt_tokens=100, sequences=0, seconds=60.0))
    assert model.prefill_s_per_token == pytest.approx(0.015)
    model.observe(StepTiming(prompt_tokens=0, sequences=4, seconds=0.0))  # nor a step of no time
    assert model.step_seconds(4) == pytest.approx(0.15 * 0.75)
    assert model.engine_seconds == pytest.approx(236.0)  # the steps' own seconds, all of them


def test_a_stage_slowed_by_a_stalled_engine_learns_no_other_seconds():
    costs = StageCosts(shapes={"reasoning": llm_shapes(load_config("t4x4"))["reasoning"]}, smoothing=0.5)
    engine = speed(prefill_tps=1000.0, steps={1: 0.1, 8: 0.1})
    usage = [TokenUsage(calls=1, prompt_tokens=2000, completion_tokens=100)] * 8
    costs.observe(engine, "reasoning", 30.0, usage, engine_seconds=29.5)
    assert costs.other_seconds["reasoning"] == pytest.approx(0.5 / 8)
    costs.observe(engine, "reasoning", 200.0, usage, engine_seconds=199.5)  # the engine stalled for 170 s
    assert costs.other_seconds["reasoning"] == pytest.approx(0.5 / 8)
    costs.observe(engine, "reasoning", 200.0, usage)  # an engine that reports no steps: its prediction only
    assert costs.other_seconds["reasoning"] > 10.0


# --- calibration ---------------------------------------------------------------------------------


class TimedLLM(ScriptedLLM):
    """A scripted model on a fake clock: overhead per call, prefill per prompt token, and one
    decode step per round of tokens, `step_s[sequences]` long."""

    def __init__(self, clock: FakeClock, prefill_s: float, step_s: dict[int, float], overhead: float):
        super().__init__(lambda conversation, params: "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20")
        self.clock = clock
        self.prefill_s, self.step_s, self.overhead = prefill_s, step_s, overhead

    def generate(self, conversations, params):
        completions = super().generate(conversations, params)
        for completion in completions:
            completion.completion_tokens = min(completion.completion_tokens, params.max_tokens)
        steps = max(c.completion_tokens for c in completions)
        prompt = sum(c.prompt_tokens for c in completions)
        self.clock.now += self.overhead + prompt * self.prefill_s + steps * self.step_s[len(conversations)]
        return completions


def test_calibration_recovers_the_engine_speed_it_measures():
    clock = FakeClock()
    llm = TimedLLM(clock, prefill_s=0.004, step_s={1: 0.1, 8: 0.12, 24: 0.3}, overhead=0.3)
    budget = BudgetConfig(calibration_prompt_tokens=2000, calibration_decode_tokens=16)
    measured = calibrate(llm, budget)
    assert measured.prefill_s_per_token == pytest.approx(0.004, rel=0.05)
    for sequences, seconds in {1: 0.1, 8: 0.12, 24: 0.3}.items():
        assert measured.decode_step_s[sequences] == pytest.approx(seconds, rel=0.05)
    assert measured.call_overhead_s == pytest.approx(0.3, abs=0.01)


class SteppingLLM(TimedLLM):
    """A TimedLLM that reports its steps as an engine does: the first token's step (the prompts and
    each sequence's guided matcher, `first_step_s`), then one step per round of tokens."""

    def __init__(self, clock: FakeClock, step_s: dict[int, float], first_step_s: float):
        super().__init__(clock, prefill_s=0.001, step_s=step_s, overhead=0.2)
        self.first_step_s = first_step_s

    def generate(self, conversations, params):
        completions = super().generate(conversations, params)
        sequences = len(conversations)
        self.clock.now += self.first_step_s * sequences  # the matchers' set-up, which the steps do not repeat
        self.observe_step(sum(c.prompt_tokens for c in completions), sequences, self.first_step_s * sequences)
        for _ in range(max(c.completion_tokens for c in completions) - 1):
            self.observe_step(0, sequences, self.step_s[sequences], context_tokens=1000)
        return completions


def test_calibration_takes_decode_steps_from_the_engines_own_step_reports():
    clock = FakeClock()
    steps = {1: 0.12, 8: 0.13, 9: 0.2}
    llm = SteppingLLM(clock, steps, first_step_s=0.02)
    budget = BudgetConfig(
        calibration_prompt_tokens=500, calibration_decode_tokens=16, calibration_sequences=(1, 8, 9)
    )
    budget.initial_context_s_per_token = 1e-5
    measured = calibrate(llm, budget)
    for sequences, seconds in steps.items():
        # the context's reads taken off; the first token's matchers not spread over the steps
        assert measured.decode_step_s[sequences] == pytest.approx(seconds - 1000 * 1e-5)
    assert llm.step_observer is None  # the engine's own observer is back


@pytest.mark.parametrize("profile_name", ["nominal", "slow", "very-slow"])
def test_the_t4x4_calibration_predicts_every_decode_step_from_1_to_64_sequences_within_15_percent(
    profile_name,
):
    from tools.check_t4x4 import profile

    config = load_config("t4x4")
    model = profile(profile_name, config.budget.target_throughput)
    measured = {n: model.step_seconds(0, n, n) for n in config.budget.calibration_sequences}
    predicted = EngineSpeed(call_overhead_s=0.1, prefill_s_per_token=0.003, decode_step_s=measured)
    for sequences in range(1, 65):
        assert predicted.step_seconds(sequences) == pytest.approx(
            model.step_seconds(0, sequences, sequences), rel=0.15
        ), sequences


def test_calibration_prompts_are_unique_so_no_prefix_cache_hides_their_cost():
    clock = FakeClock()
    llm = TimedLLM(clock, prefill_s=0.001, step_s={1: 0.1, 2: 0.2}, overhead=0.0)
    budget = BudgetConfig(
        calibration_prompt_tokens=100, calibration_decode_tokens=4, calibration_sequences=(1, 2)
    )
    calibrate(llm, budget)
    calibrate(llm, budget)
    texts = [c[0]["content"] for conversations, _ in llm.calls for c in conversations]
    assert len(texts) == len(set(texts))


def test_a_calibration_that_measures_no_time_is_an_error_not_a_speed():
    clock = FakeClock()
    llm = TimedLLM(clock, prefill_s=0.0, step_s={1: 0.0, 8: 0.0, 24: 0.0}, overhead=0.0)
    with pytest.raises(RuntimeError, match="no usable speed"):
        calibrate(llm, BudgetConfig(calibration_prompt_tokens=200, calibration_decode_tokens=4))


def test_a_failed_calibration_request_is_an_error_not_a_made_up_speed():
    class Failing(ScriptedLLM):
        def generate(self, conversations, params):
            return [Completion(texts=[], error="engine died") for _ in conversations]

    with pytest.raises(RuntimeError, match="engine died"):
        calibrate(Failing(["x"]), BudgetConfig())


# --- stage costs ---------------------------------------------------------------------------------


def costs_for(**overrides) -> StageCosts:
    config = load_config("t4x4")
    for name, value in overrides.items():
        setattr(config.calculator, name, value)
    return StageCosts(
        llm_shapes(config),
        config.budget.cost_smoothing,
        other_seconds={"web": 0.5, "retrieval": 1.0},
        prompt_tokens={"calculator": 400.0, "reasoning": 1000.0},
    )


def test_an_llm_stage_costs_its_samples_prompts_and_decode_steps():
    costs, model = costs_for(samples=3, max_tokens=48), speed(prefill_tps=100.0, steps={1: 0.1, 24: 0.1})
    # 4 questions x 3 samples: 12 prefills of 400 tokens, 48 steps of 12 sequences.
    assert costs.predict(model, "calculator", 4) == pytest.approx(4 * 3 * 400 / 100.0 + 48 * 0.1)
    assert costs.predict(model, "web", 4) == pytest.approx(2.0)
    assert costs.predict(model, "reasoning", 2, prompt_tokens=[500, 700]) == pytest.approx(12.0 + 160 * 0.1)


def test_stage_costs_learn_prompt_sizes_reply_lengths_and_other_seconds():
    costs, model = costs_for(samples=1, max_tokens=48), speed(prefill_tps=100.0, steps={1: 0.1, 24: 0.1})
    usages = [TokenUsage(calls=1, prompt_tokens=200, completion_tokens=12) for _ in range(2)]
    llm_seconds = model.call_seconds(400, 2, 12)
    costs.observe(model, "calculator", llm_seconds + 1.0, usages)
    assert costs.prompt_tokens["calculator"] == pytest.approx(300.0)  # half way from 400 to 200
    assert list(costs.replies["calculator"]) == [0.25, 0.25]
    assert costs.other_seconds["calculator"] == pytest.approx(0.5)
    costs.observe(model, "web", 3.0, [None, None, None])
    assert costs.other_seconds["web"] == pytest.approx(0.75)


def test_cached_replies_count_for_their_sizes_but_take_no_model_time():
    costs, model = costs_for(samples=1, max_tokens=48), speed(prefill_tps=100.0, steps={1: 0.1, 24: 0.1})
    cached = [TokenUsage(calls=1, prompt_tokens=200, completion_tokens=12, cached=1) for _ in range(2)]
    costs.observe(model, "calculator", 1.0, cached)  # the whole second was the stage's own work
    assert costs.prompt_tokens["calculator"] == pytest.approx(300.0)
    assert list(costs.replies["calculator"]) == [0.25, 0.25]
    assert costs.other_seconds["calculator"] == pytest.approx(0.5)
    # one of the two computed: only its call's model time is taken out of the stage's seconds
    mixed = [TokenUsage(calls=1, prompt_tokens=200, completion_tokens=12), cached[0]]
    costs.observe(model, "knowledge", model.call_seconds(200, 1, 12) + 1.0, mixed)
    assert costs.other_seconds["knowledge"] == pytest.approx(0.5)


def test_a_call_is_planned_for_its_longest_reply_at_a_high_quantile_not_the_mean():
    costs, model = costs_for(), speed()
    lengths = [0.3] * 90 + [0.5] * 9 + [0.9]  # tokens / max_tokens of 100 measured replies
    for share in lengths:
        costs.observe(
            model,
            "reasoning",
            1.0,
            [TokenUsage(calls=1, prompt_tokens=1000, completion_tokens=round(share * 160))],
        )
    # one reply: its 95th percentile (the mean would be 0.33)
    assert costs.reply_steps("reasoning", 1) == round(0.5 * 160)
    # the longest of 8 replies: the 99.4th percentile of one, which 100 replies cannot tell yet
    assert costs.reply_steps("reasoning", 8) == 160
    for share in lengths:
        costs.observe(
            model,
            "reasoning",
            1.0,
            [TokenUsage(calls=1, prompt_tokens=1000, completion_tokens=round(share * 160))],
        )
    assert costs.reply_steps("reasoning", 8) == round(0.9 * 160)
    # nothing measured yet: the stage's max_tokens
    assert costs.reply_steps(BRIEF_REASONING, 1) == 48


def test_a_reply_cut_by_a_time_limit_counts_as_long_as_max_tokens():
    costs, model = costs_for(), speed()
    costs.observe(
        model, "reasoning", 1.0, [TokenUsage(calls=1, prompt_tokens=900, completion_tokens=20, cut=1)]
    )
    assert list(costs.replies["reasoning"]) == [1.0]


def test_brief_reasoning_has_its_own_reply_length_and_shares_the_prompt_size():
    costs, model = costs_for(), speed(prefill_tps=1e9, steps={1: 0.1})
    assert costs.predict(model, BRIEF_REASONING, 1, [100]) == pytest.approx(48 * 0.1, rel=1e-3)
    assert costs.predict(model, "reasoning", 1, [100]) == pytest.approx(160 * 0.1, rel=1e-3)


# --- the batch deadline --------------------------------------------------------------------------


def deadline_for(questions, seconds_per_question=30.0, model=None, usable_fraction=1.0, end_margin_s=0.0):
    clock = FakeClock()
    config = load_config("t4x4")
    config.budget.seconds_per_question = seconds_per_question
    config.budget.usable_fraction = usable_fraction
    config.budget.end_margin_s = end_margin_s
    costs = StageCosts(
        llm_shapes(config),
        config.budget.cost_smoothing,
        other_seconds={"web": 1.0, "retrieval": 1.0},
        prompt_tokens={"calculator": 400.0, "knowledge": 200.0, "reasoning": 1000.0},
    )
    return BatchDeadline(questions, config.budget, costs, model or speed(), clock), clock


def test_an_optional_stage_runs_only_when_the_stages_after_it_still_fit():
    deadline, clock = deadline_for(1, model=speed(prefill_tps=200.0, steps={1: 0.05}))
    reasoning = Planned("reasoning", 1, [1000])  # 5 s prefill + 8 s decode
    assert deadline.fits("calculator", 1, [reasoning])  # 3 x 400 tokens (6 s) + 48 steps (2.4 s) + 13 s
    clock.now += 10.0
    assert not deadline.fits("calculator", 1, [reasoning])


def test_a_call_limit_leaves_the_later_stages_their_predicted_time():
    deadline, clock = deadline_for(2, model=speed(prefill_tps=100.0, steps={1: 0.1}), end_margin_s=1.0)
    later = [Planned("reasoning", 2, [500, 500])]  # 10 s + 16 s
    limit = deadline.limit(later)
    assert limit.remaining() == pytest.approx(60.0 - 1.0 - 26.0)
    clock.now += 40.0
    assert limit.remaining() < 0 and deadline.seconds_left() == pytest.approx(19.0)


def forms(tokens_full, tokens_half):
    return [
        ReasoningForm(False, 1.0, tokens_full),
        ReasoningForm(False, 0.5, tokens_half),
        ReasoningForm(True, 1.0, tokens_full),
        ReasoningForm(True, 0.5, tokens_half),
    ]


def test_reasoning_takes_the_richest_form_that_fits():
    model = speed(prefill_tps=100.0, steps={1: 0.1})
    deadline, clock = deadline_for(1, model=model)
    options = forms((1000,), (500,))
    assert deadline.reasoning_form(options).form == options[0]  # 10 + 16 s
    clock.now += 6.0
    assert deadline.reasoning_form(options).form == options[1]  # 5 + 16 s
    clock.now += 4.0
    assert deadline.reasoning_form(options).form == options[2]  # 10 + 4.8 s
    clock.now += 6.0
    assert deadline.reasoning_form(options) == ReasoningPlan(options[3], 1)  # 5 + 4.8 s
    clock.now += 5.0
    assert deadline.reasoning_form(options) == ReasoningPlan(options[3], 0)


def test_when_no_form_fits_every_question_the_last_ones_are_left_out():
    deadline, _ = deadline_for(
        3, seconds_per_question=4.0, model=speed(prefill_tps=100.0, steps={1: 0.1, 8: 0.1})
    )
    options = forms((600, 600, 600), (300, 300, 300))
    plan = deadline.reasoning_form(options)
    # Brief replies over half the references: two questions take 6 s + 4.8 s of the 12 s, three 9 s + 4.8 s.
    assert plan.form == options[-1] and plan.answerable == 2


@pytest.mark.parametrize("questions", [1, 3, 8])
@pytest.mark.parametrize("prefill_tps", [40.0, 120.0, 350.0])
def test_the_chosen_reasoning_form_is_predicted_to_end_before_the_batch_does(questions, prefill_tps):
    model = speed(prefill_tps=prefill_tps, steps={1: 0.12, 8: 0.13, 24: 0.3}, overhead=0.2)
    deadline, clock = deadline_for(questions, model=model, end_margin_s=1.0)
    clock.now += questions * 12.0  # the earlier stages took 12 s a question
    options = forms(tuple([2000] * questions), tuple([1100] * questions))
    plan = deadline.reasoning_form(options)
    form, answerable = plan.form, plan.answerable
    predicted = deadline.predict(form.stage, answerable, form.prompt_tokens[:answerable])
    assert clock.now + predicted <= deadline.end
    assert answerable == questions or not any(
        deadline.predict(f.stage, questions, f.prompt_tokens) <= deadline.seconds_left() for f in options
    )
    assert math.isfinite(predicted)


def test_the_richest_form_keeps_room_for_a_brief_pass_over_cut_replies_when_that_fits():
    model = speed(prefill_tps=100.0, steps={1: 0.1})
    deadline, clock = deadline_for(1, seconds_per_question=32.0, model=model)
    options = forms((1000,), (500,))

    def recovery(form):  # the prompt again, of which a prefix cache keeps all but 16 tokens
        return None if form.brief else Planned(BRIEF_REASONING, 1, [16])

    plan = deadline.reasoning_form(options, recovery=recovery)
    assert plan.form == options[0] and plan.recovery == Planned(
        BRIEF_REASONING, 1, [16]
    )  # 26 s + 4.96 s of 32
    clock.now += 3.0
    plan = deadline.reasoning_form(options, recovery=recovery)
    assert plan.form == options[0] and plan.recovery is None  # 26 s fit, the brief pass no longer
    clock.now += 14.0
    plan = deadline.reasoning_form(options, recovery=recovery)
    assert plan.form == options[2] and plan.recovery is None  # brief replies (14.8 s): nothing to recover


def test_affordable_counts_the_first_questions_a_call_can_serve_in_time():
    deadline, _ = deadline_for(1, model=speed(prefill_tps=100.0, steps={1: 0.1, 8: 0.1}))
    # brief replies: 4.8 s of decoding plus 1 s per 100 prompt tokens
    assert deadline.affordable(BRIEF_REASONING, [100, 100, 100], 7.0) == 2
    assert deadline.affordable(BRIEF_REASONING, [100, 100, 100], 100.0) == 3
    assert deadline.affordable(BRIEF_REASONING, [100], 1.0) == 0

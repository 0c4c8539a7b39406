"""The vLLM backend's engine stop (models/llm/vllm_backend.py), without vllm: what the next step
will run, read from the scheduler, and whether it still fits the time left, on steps that grow."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from models.deadline import EngineSpeed
from models.llm.vllm_backend import EngineStop, StepLoad, next_step_load


def group(prompt_left: int = 0, lengths: tuple[int, ...] = (), finished: tuple[bool, ...] = ()):
    """A V0 sequence group: still reading `prompt_left` prompt tokens, or decoding sequences of these
    lengths."""
    done = finished or (False,) * len(lengths)
    sequences = [
        SimpleNamespace(get_len=lambda n=n: n, is_finished=lambda f=f: f) for n, f in zip(lengths, done)
    ]
    return SimpleNamespace(
        is_prefill=lambda: prompt_left > 0,
        get_num_uncomputed_tokens=lambda: prompt_left,
        get_seqs=lambda: sequences,
    )


def engine(running, waiting=()):
    return SimpleNamespace(scheduler=[SimpleNamespace(running=list(running), waiting=list(waiting))])


def test_the_next_step_decodes_every_running_sequence_and_fills_the_rest_with_prompt_tokens():
    busy = engine(
        [
            group(lengths=(1000, 2000)),
            group(lengths=(500, 9), finished=(False, True)),
            group(prompt_left=300),
        ],
        waiting=[group(prompt_left=800)],
    )
    # 3 decoding sequences read 3,500 tokens; 1,100 prompt tokens wait for the 509 rows left of 512
    assert next_step_load(busy, 512) == StepLoad(509, 3, 3500)
    assert next_step_load(busy, None) == StepLoad(1100, 3, 3500)
    assert next_step_load(engine([group(lengths=(10,))]), 512) == StepLoad(0, 1, 10)


def true_step(load: StepLoad) -> float:
    """The engine: prompt tokens at 300 per s, decode steps growing with their context."""
    return load.prompt_tokens / 300.0 + (0.12 + load.context_tokens * 2e-6 if load.sequences else 0.0)


def run_until_stopped(
    stop: EngineStop, limit: float, model: EngineSpeed | None, steps: list[StepLoad]
) -> float:
    """Steps `steps` while the stop lets them; the seconds they took."""
    now = 0.0
    for load in steps:
        predicted = (
            model.predict_step(load.prompt_tokens, load.sequences, load.context_tokens) if model else None
        )
        if limit - now < stop.predicted_seconds(load, predicted):
            break
        seconds = true_step(load)
        now += seconds
        stop.record(load.prompt_tokens > 0, seconds, predicted)
    return now


def growing_steps() -> list[StepLoad]:
    """8 sequences of 4,000-token prompts decoding (each step reads more), then a prompt chunk joins."""
    decode = [StepLoad(0, 8, 32_000 + 8 * i) for i in range(400)]
    return decode[:200] + [StepLoad(512, 8, 34_000)] + decode[200:]


def model_engine() -> EngineSpeed:
    """The cost model: its context term a third too low, its prefill a fifth too fast."""
    return EngineSpeed(
        call_overhead_s=0.0,
        prefill_s_per_token=1 / 360.0,
        decode_step_s={8: 0.12},
        context_s_per_token=1.5e-6,
    )


@pytest.mark.parametrize("limit", [5.0, 20.0, 38.9, 39.5, 40.0, 45.0, 60.0, 80.0])
def test_steps_that_grow_never_run_past_the_limit(limit):
    taken = run_until_stopped(EngineStop(1.5, 200), limit, model_engine(), growing_steps())
    assert taken <= limit
    # and the stop does not give up much early: at most a few steps' worth is left unused
    assert taken >= min(limit, sum(map(true_step, growing_steps()))) - 3 * 1.5 * true_step(
        StepLoad(512, 8, 34_000)
    )


def test_the_longest_recent_step_alone_overruns_steps_that_grow():
    """Why the stop predicts: comparing the time left with the longest step so far lets a longer one
    through (here the prompt chunk that joins the decoding sequences after ~37 s)."""
    limits = [30.0 + 0.05 * i for i in range(300)]
    overruns = [
        limit
        for limit in limits
        if run_until_stopped(EngineStop(1.0, 200), limit, None, growing_steps()) > limit
    ]
    assert overruns and all(37.0 < limit < 39.5 for limit in overruns)
    assert all(
        run_until_stopped(EngineStop(1.5, 200), limit, model_engine(), growing_steps()) <= limit
        for limit in limits
    )


def test_without_a_model_the_stop_allows_the_longest_recent_step_of_the_kind_with_the_safety_factor():
    stop = EngineStop(1.5, 3)
    assert stop.predicted_seconds(StepLoad(0, 8, 0), None) == 0.0
    for seconds in (0.1, 0.3, 0.2):
        stop.record(False, seconds, None)
    assert stop.predicted_seconds(StepLoad(0, 8, 0), None) == pytest.approx(0.45)
    # no prompt step seen yet: it borrows the decode steps'
    assert stop.predicted_seconds(StepLoad(512, 0, 0), None) == pytest.approx(0.45)
    stop.record(True, 2.0, None)
    assert stop.predicted_seconds(StepLoad(512, 0, 0), None) == pytest.approx(3.0)


def test_the_model_is_corrected_by_how_far_it_was_off_on_recent_steps():
    stop = EngineStop(1.5, 200)
    assert stop.predicted_seconds(StepLoad(0, 8, 0), 0.2) == pytest.approx(0.3)
    for _ in range(5):
        stop.record(False, 0.4, 0.2)  # the engine runs twice as slow as predicted
    assert stop.predicted_seconds(StepLoad(0, 8, 0), 0.2) == pytest.approx(0.6)

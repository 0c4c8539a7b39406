"""The whole system against the clock: on a simulated engine of any speed, no batch runs past its
n x seconds_per_question, and the time goes to reasoning before the optional stages."""

from __future__ import annotations

import json

import pytest

from models.config import load_config
from models.crag_system import CragSystem
from models.schema import Route
from models.llm.base import cut_by_limit
from tests.doubles import ScriptedLLM, SimulatedClock, TimedLLM

from tests.test_crag_system import reply_by_output_shape

SAMPLE = [json.loads(line) for line in open("data/sample.jsonl", encoding="utf-8")]


def batch(questions):
    keys = ("interaction_id", "query", "query_time", "search_results")
    return {key: [question[key] for question in questions] for key in keys}


def answer_all(prefill_tps, decode_step_s, seconds_per_question, monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    config = load_config("cpu")
    config.budget.seconds_per_question = seconds_per_question
    config.attributes.enabled = False
    config.reasoning.max_tokens = 60  # the scripted replies are short: keep the tokens they may take close
    clock = SimulatedClock()
    llm = TimedLLM(reply_by_output_shape(), clock, 1.0 / prefill_tps, decode_step_s)
    system = CragSystem(config, llm=llm, clock=clock)
    try:
        system.calibrate()
        batches = []
        for size in (4, 1):  # a full batch, then a lone question
            started = clock()
            answers = system.batch_generate_answer(batch(SAMPLE[:size]))
            batches.append((size, clock() - started, answers, list(system.last_traces)))
        return batches, llm
    finally:
        system.close()


@pytest.mark.parametrize(
    "prefill_tps, decode_step_s, seconds_per_question",
    [(2000.0, 0.01, 30.0), (300.0, 0.12, 30.0), (60.0, 0.3, 30.0), (30.0, 0.5, 12.0), (10.0, 2.0, 8.0)],
)
def test_no_batch_runs_past_its_time_on_an_engine_of_any_speed(
    prefill_tps, decode_step_s, seconds_per_question, monkeypatch
):
    batches, _ = answer_all(prefill_tps, decode_step_s, seconds_per_question, monkeypatch)
    for size, seconds, answers, traces in batches:
        assert seconds <= size * seconds_per_question
        assert len(answers) == size and all(answers)
        for trace in traces:
            # the answer check refuses the scripted "canberra" where a number or a year is asked
            refused = trace.route in (Route.OUT_OF_TIME, Route.WRONG_FORM)
            assert refused or trace.prediction != "I don't know" or trace.failures


def test_a_fast_engine_runs_every_stage_and_refuses_nothing(monkeypatch):
    batches, llm = answer_all(2000.0, 0.01, 30.0, monkeypatch)
    assert llm.cuts == 0
    for _, _, _, traces in batches:
        for trace in traces:
            assert trace.route != Route.OUT_OF_TIME
            assert not any("deadline" in event.what for event in trace.events)
            assert "reasoning" in trace.tokens


def test_a_slow_engine_gives_up_the_optional_stages_before_the_reasoning(monkeypatch):
    batches, _ = answer_all(60.0, 0.3, 12.0, monkeypatch)
    labels = [event.label for _, _, _, traces in batches for trace in traces for event in trace.events]
    assert "calculator skipped to meet the deadline" in labels
    answered = [trace for _, _, _, traces in batches for trace in traces if trace.route != Route.OUT_OF_TIME]
    assert answered and all(
        "reasoning" in trace.tokens or "reasoning (brief)" in trace.tokens for trace in answered
    )


def test_a_very_slow_engine_degrades_in_order_and_still_ends_on_time(monkeypatch):
    batches, _ = answer_all(10.0, 2.0, 8.0, monkeypatch)
    events = [event for _, _, _, traces in batches for trace in traces for event in trace.events]
    routes = [trace.route for _, _, _, traces in batches for trace in traces]
    degraded = [
        event for event in events if event.stage == "reasoning" and event.kind in ("degraded", "skipped")
    ]
    assert degraded or Route.OUT_OF_TIME in routes


def test_a_failed_calibration_keeps_the_presets_speeds_and_says_why(monkeypatch):
    from models.llm.base import Completion

    class Broken(ScriptedLLM):
        def generate(self, conversations, params):
            return [Completion(texts=[], error="engine died") for _ in conversations]

    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    system = CragSystem(load_config("cpu"), llm=Broken([]))
    try:
        before = system.speed
        system.calibrate()
        assert system.speed is before and "engine died" in system.calibration_error
    finally:
        system.close()


# --- replies the deadline cuts --------------------------------------------------------------------


class CuttingLLM(ScriptedLLM):
    """Full reasoning replies run into the call's time limit (they return at it, cut before their
    answer); every other reply is whole. `reread` is the share of a prompt computed again when it is
    sent a second time."""

    def __init__(self, clock: SimulatedClock, reread: float = 1.0):
        super().__init__(reply_by_output_shape())
        self.clock, self.reread = clock, reread
        self.limits: list[tuple[str, float]] = []

    def generate(self, conversations, params):
        properties = (params.json_schema or {}).get("properties", {})
        kind = "full" if "reasoning" in properties and "false_premise" in properties else "other"
        self.limits.append((kind, self.seconds_left()))
        completions = super().generate(conversations, params)
        if kind == "full":
            self.clock.simulated += max(0.0, self.seconds_left())
            for completion in completions:
                completion.texts = ['{"reasoning": "The first reference']
                completion.cut, completion.error = True, cut_by_limit(5)
        return completions

    def recomputed_prompt_tokens(self, prompt_tokens):
        return int(prompt_tokens * self.reread)


def cut_system(llm, clock, monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    overrides = {
        "attributes.enabled": "false",
        "calculator.enabled": "false",
        "knowledge.enabled": "false",
        "answer_check.enabled": "false",
    }  # the scripted answers take no question's form
    return CragSystem(load_config("cpu", overrides), llm=llm, clock=clock)


def test_replies_cut_before_their_answer_are_answered_by_one_brief_call_in_the_room_kept_for_it(monkeypatch):
    clock = SimulatedClock()
    llm = CuttingLLM(clock)
    system = cut_system(llm, clock, monkeypatch)
    try:
        answers = system.batch_generate_answer(batch(SAMPLE[:3]))
    finally:
        system.close()
    assert answers == ["canberra"] * 3
    calls = [kind for kind, _ in llm.limits]
    assert calls == ["full", "other"]  # the reasoning call, then one brief call for the three cut replies
    (_, full_left), (_, brief_left) = llm.limits
    assert 0 < brief_left < full_left  # the full call ended early enough to leave the brief one its time
    for trace in system.last_traces:
        assert trace.route != Route.OUT_OF_TIME
        assert ("reasoning reply cut by the deadline", "answered by a brief reply") in [
            (event.label, event.detail) for event in trace.events
        ]
        usage = trace.tokens["reasoning"]
        assert (usage.calls, usage.cut) == (2, 1)


def test_a_cut_reply_without_time_for_the_brief_call_answers_i_dont_know_and_says_why(monkeypatch):
    clock = SimulatedClock()
    llm = CuttingLLM(clock, reread=1000.0)  # no prefix cache: sending the prompts again would never fit
    system = cut_system(llm, clock, monkeypatch)
    try:
        answers = system.batch_generate_answer(batch(SAMPLE[:2]))
    finally:
        system.close()
    assert answers == ["I don't know"] * 2
    assert [kind for kind, _ in llm.limits] == ["full"]
    for trace in system.last_traces:
        assert trace.route == Route.OUT_OF_TIME and trace.tokens["reasoning"].cut == 1
        labels = [(e.label, e.detail) for e in trace.events]
        assert ("reasoning reply cut by the deadline", "no answer in it") in labels
        assert ("reasoning no reasoning reply", "cut: I don't know") in labels

"""The parts of tools/check_t4x4.py that need no vllm: scripted replies, schema caps, the model folder.
(`make check-t4x4` runs the check itself, in the GPU image's packages.)"""

from __future__ import annotations

import json

import pytest

from models.kg.entities import entity_schema
from tools.check_t4x4 import LLAMA3_70B_CONFIG, read_questions, schema_label, scripted_reply, uncapped

CAPPED = {
    "type": "object",
    "properties": {
        "reasoning": {"type": "string", "maxLength": 10},
        "answer": {"type": "string", "maxLength": 80},
        "names": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
    },
    "required": ["reasoning", "answer", "names"],
}


def test_scripted_replies_are_compact_json_as_long_as_the_caps_allow():
    reply = scripted_reply(CAPPED)
    value = json.loads(reply)
    assert value["answer"] == "42" and value["names"] == ["n/a"]
    # Free text fills most of its cap, as a model explaining itself would.
    assert 7 <= len(value["reasoning"]) <= 10
    assert ": " not in reply and ", " not in reply  # compact separators
    assert scripted_reply(None) == "I don't know"


def test_the_kg_entity_schema_gets_a_valid_reply():
    schema = entity_schema(3)
    assert set(json.loads(scripted_reply(schema))) == set(schema.get("required", schema["properties"]))


def test_uncapped_drops_every_length_and_count_cap_and_nothing_else():
    plain = uncapped(CAPPED)
    assert "maxLength" not in json.dumps(plain) and "maxItems" not in json.dumps(plain)
    assert plain["required"] == CAPPED["required"] and plain["properties"]["names"]["items"] == {
        "type": "string"
    }
    assert CAPPED["properties"]["answer"]["maxLength"] == 80  # not modified in place


def test_schema_labels_name_the_properties():
    assert schema_label(CAPPED) == "{reasoning, answer, names}"


def test_the_stand_in_model_is_llama_3_70b_in_gptq_4_bit():
    assert (LLAMA3_70B_CONFIG["num_hidden_layers"], LLAMA3_70B_CONFIG["num_key_value_heads"]) == (80, 8)
    assert LLAMA3_70B_CONFIG["vocab_size"] == 128256
    assert LLAMA3_70B_CONFIG["quantization_config"]["bits"] == 4
    assert LLAMA3_70B_CONFIG["quantization_config"]["desc_act"] is False


@pytest.mark.parametrize("compress", [False, True])
def test_question_files_are_read_plain_or_bz2(tmp_path, compress):
    import bz2

    text = json.dumps({"interaction_id": "a", "query": "q"}) + "\n\n"
    path = tmp_path / ("q.jsonl.bz2" if compress else "q.jsonl")
    path.write_bytes(bz2.compress(text.encode()) if compress else text.encode())
    assert read_questions(path) == [{"interaction_id": "a", "query": "q"}]


def test_the_warm_up_check_names_what_a_built_but_not_warmed_system_has_not_loaded(monkeypatch):
    from types import SimpleNamespace

    from models.config import load_config
    from models.crag_system import CragSystem
    from tests.doubles import ScriptedLLM
    from tools.check_t4x4 import unloaded_parts

    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    system = CragSystem(load_config("cpu"), llm=ScriptedLLM(["{}"]))
    try:
        missing = unloaded_parts(system, SimpleNamespace(executor=None))
    finally:
        system.close()
    assert missing[:4] == ["LLM engine", "sentence encoder", "page workers", "attribute classifier"]


# --- the conditions of the 30 s check: each one fails the check on its own ------------------------


def outcome(seconds=5.0, questions=8, answered=6, refused=0, cut=0, batch_seconds=None):
    from tools.check_t4x4 import TaskOutcome

    return TaskOutcome(
        seconds=[seconds] * questions,
        batches=[(questions, batch_seconds if batch_seconds is not None else seconds * questions)],
        answered=answered,
        refused_for_time=refused,
        cut=cut,
    )


def outcomes(**changed):
    """Every profile and task fine, except the (profile, task) entries given as `profile_task=outcome`."""
    from tools.check_t4x4 import PROFILES

    table = {(name, task): outcome() for name in PROFILES for task in ("task1", "task3")}
    for key, value in changed.items():
        name, task = key.rsplit("_", 1)
        table[(name.replace("_", "-"), task)] = value
    return table


def failures(table):
    from tools.check_t4x4 import time_result

    result = time_result([], table)
    return result.passed, [line for line in result.details if not line.endswith("%)")]  # not the shares kept


def test_the_time_check_passes_when_every_condition_holds():
    passed, problems = failures(outcomes())
    assert passed and problems == []


@pytest.mark.parametrize(
    "changed, message",
    [
        ({"slow_task1": outcome(batch_seconds=8 * 30.5)}, "batch(es) over n x 30 s"),
        ({"nominal_task1": outcome(refused=1)}, "lost reasoning for time"),
        ({"nominal_task1": outcome(cut=1)}, "cut by the deadline"),
        ({"slow_task3": outcome(cut=2)}, "cut by the deadline"),
        ({"slow_task1": outcome(answered=3), "slow_task3": outcome(answered=3)}, "slow keeps too few answers"),
        ({"very_slow_task1": outcome(answered=1), "very_slow_task3": outcome(answered=1)}, "very-slow keeps too few"),
        ({"nominal_task1": outcome(answered=0), "nominal_task3": outcome(answered=0)}, "answered nothing"),
    ],
)
def test_each_condition_fails_the_time_check_alone(changed, message):
    passed, problems = failures(outcomes(**changed))
    assert not passed
    assert len(problems) == 1 and message in problems[0]


def test_a_question_whose_own_share_is_over_30_s_is_reported_within_a_batch_on_time():
    within = outcome(batch_seconds=8 * 29.0)
    within.seconds[-1] = 31.0
    passed, problems = failures(outcomes(slow_task3=within))
    assert passed and problems == []
    assert "over 30 s: 1, batches over n x 30 s: 0" in within.line("slow", "task3")


def test_cuts_under_the_very_slow_profile_are_allowed():
    passed, _ = failures(outcomes(very_slow_task1=outcome(cut=3)))
    assert passed


def test_the_slow_profiles_shares_are_of_what_the_nominal_one_answers():
    # nominal answers 12; slow 10 (83 %) passes, very-slow 7 (58 %) fails
    table = outcomes(slow_task1=outcome(answered=4), very_slow_task1=outcome(answered=4), very_slow_task3=outcome(answered=3))
    passed, problems = failures(table)
    assert not passed and problems == ["very-slow keeps too few answers"]


def test_the_profile_line_keeps_its_fields_and_adds_the_cut_replies():
    from tools.check_t4x4 import TaskOutcome

    line = TaskOutcome(seconds=[1.0, 2.0, 31.0], batches=[(3, 34.0)], answered=2, refused_for_time=1, cut=1).line("slow", "task1")
    assert line == (
        "profile slow task1: 3 questions, max 31.0 s, p95 31.0 s, over 30 s: 1, batches over n x 30 s: 0, "
        "answered 2, refused for time 1, cut 1"
    )


def test_a_question_is_charged_its_share_of_the_llm_work_not_the_batch_mean():
    from models.deadline import EngineSpeed
    from models.llm.base import TokenUsage
    from models.schema import QuestionTrace
    from tools.check_t4x4 import question_seconds

    speed = EngineSpeed(call_overhead_s=0.0, prefill_s_per_token=0.01, decode_step_s={1: 0.1, 2: 0.1})
    long, short = QuestionTrace("long"), QuestionTrace("short")
    long.timings = {"web": 1.0, "reasoning": 25.0}
    short.timings = {"web": 1.0, "reasoning": 25.0}
    long.tokens = {"reasoning": TokenUsage(1, 3000, 100)}  # 30 s of prefill + 100 x 0.05 s
    short.tokens = {"reasoning": TokenUsage(1, 500, 100)}  # 5 s + 5 s
    seconds = question_seconds(54.0, [long, short], speed)
    assert seconds == pytest.approx([1.0 + 50.0 * 35 / 45 + 1.0, 1.0 + 50.0 * 10 / 45 + 1.0])
    assert sum(seconds) == pytest.approx(54.0)
    assert max(seconds) > 30.0 > 54.0 / 2  # over 30 s on its own, though the batch's mean is not


def test_a_calibration_outside_the_band_of_the_simulated_t4_fails_the_check():
    from dataclasses import replace

    from models.config import ThroughputModelConfig
    from models.deadline import EngineSpeed
    from tools.check_t4x4 import calibration_result

    model = ThroughputModelConfig()
    steps = {n: model.step_seconds(0, n, n) for n in (1, 8, 24)}
    good = EngineSpeed(call_overhead_s=0.2, prefill_s_per_token=1 / model.prefill_tokens_per_step_second(512), decode_step_s=steps)
    assert calibration_result({"nominal": (good, model)}, 512).passed
    broken = {
        "prefill": replace(good, prefill_s_per_token=good.prefill_s_per_token * 3),
        "decode": replace(good, decode_step_s={**steps, 8: steps[8] / 2}),
        "overhead": replace(good, call_overhead_s=-0.5),
    }
    for what, speed in broken.items():
        result = calibration_result({"nominal": (good, model), "slow": (speed, model)}, 512)
        assert not result.passed, what
        assert result.details[0] == "nominal: within the band" and "outside" in result.details[1]
    assert not calibration_result({}, 512).passed


class StopProbeSession:
    def __init__(self):
        self.now, self.aborted = 0.0, []

    def clock(self):
        return self.now

    def forget_prompts(self):
        pass


class StopProbeLLM:
    """Returns `late` seconds after the call's limit, its replies cut or not, aborting what it cut."""

    def __init__(self, session, late, cuts):
        self.session, self.late, self.cuts = session, late, cuts
        self.time_limit = None

    def limited(self, limit):
        from contextlib import contextmanager

        @contextmanager
        def block():
            self.time_limit = limit
            yield
            self.time_limit = None

        return block()

    def generate(self, conversations, params):
        from models.llm.base import Completion

        self.session.now = self.time_limit.at + self.late
        if self.cuts:
            self.session.aborted += [f"r{i}" for i in range(len(conversations))]
        return [Completion(texts=["{"], cut=self.cuts) for _ in conversations]


@pytest.mark.parametrize("late, cuts, passed", [(-0.5, True, True), (0.9, True, True), (1.5, True, False), (-0.5, False, False)])
def test_the_engine_stop_check_fails_a_call_that_returns_late_or_stops_nothing(late, cuts, passed):
    from types import SimpleNamespace

    from models.config import load_config
    from tools.check_t4x4 import check_engine_stop

    session = StopProbeSession()
    schema = {"type": "object", "properties": {"reasoning": {"type": "string"}}}
    system = SimpleNamespace(
        llm=StopProbeLLM(session, late, cuts), config=load_config("t4x4"), json_schemas=lambda: [schema]
    )
    result = check_engine_stop(session, system)
    assert result.passed is passed
    assert len(result.details) == 2

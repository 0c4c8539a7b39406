"""The parts of tools/check_t4x4.py that need no vllm: scripted replies, schema caps, the model folder.
(`make check-t4x4` runs the check itself, in the GPU image's packages.)"""

from __future__ import annotations

import json

import pytest

from models.kg.entities import entity_schema
from tools.check_t4x4 import (
    LLAMA3_70B_CONFIG,
    TASK3_PAGES,
    TASK3_QUESTIONS,
    page_key,
    read_questions,
    task3_batch,
)
from tools.t4x4_replies import schema_label, scripted_reply, uncapped

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


def outcome(seconds=5.0, questions=8, answered=6, refused=0, cut=0, batch_seconds=None, held=0, kept=0):
    from tools.check_t4x4 import TaskOutcome

    return TaskOutcome(
        seconds=[seconds] * questions,
        batches=[(questions, batch_seconds if batch_seconds is not None else seconds * questions)],
        answered=answered,
        refused_for_time=refused,
        cut=cut,
        held=held,
        kept=kept,
    )


def outcomes(**changed):
    """Every profile and task fine, except the (profile, task) entries given as `profile_task=outcome`."""
    from tools.check_t4x4 import PROFILES

    table = {
        (name, task): outcome(cut=8, held=2, kept=2) if settings.stalls else outcome()
        for name, settings in PROFILES.items()
        for task in settings.tasks
    }
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
        (
            {"slow_task1": outcome(answered=3), "slow_task3": outcome(answered=3)},
            "slow keeps too few answers",
        ),
        (
            {"very_slow_task1": outcome(answered=1), "very_slow_task3": outcome(answered=1)},
            "very-slow keeps too few",
        ),
        (
            {
                "nominal_task1": outcome(answered=0),
                "nominal_task2": outcome(answered=0),
                "nominal_task3": outcome(answered=0),
            },
            "answered nothing",
        ),
        (
            {"slow_kg_task2": outcome(answered=1), "slow_kg_task3": outcome(answered=2)},
            "slow-kg keeps too few",
        ),
        (
            {"small_kv_task1": outcome(answered=3), "small_kv_task3": outcome(answered=3)},
            "small-kv keeps too few",
        ),
        (
            {"long_replies_task1": outcome(answered=2), "long_replies_task3": outcome(answered=2)},
            "long-replies keeps too few",
        ),
        ({"small_kv_task1": outcome(cut=3, held=2, kept=1)}, "1 cut repl(ies) lost the answer they held"),
        ({"stalls_task1": outcome(cut=0)}, "the cut path went unexercised"),
        ({"stalls_task1": outcome(cut=8, held=0)}, "the cut path went unexercised"),
        ({"stalls_task1": outcome(cut=8, held=2, kept=2, answered=3)}, "stalls keeps too few"),
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


@pytest.mark.parametrize("name", ["very_slow", "slow_kg", "small_kv", "long_replies", "stalls"])
def test_cuts_are_allowed_where_the_profile_allows_them_if_every_held_answer_is_kept(name):
    task = "task1" if name in ("stalls",) else "task3"
    passed, _ = failures(outcomes(**{f"{name}_{task}": outcome(cut=3, held=2, kept=2)}))
    assert passed


def test_each_profiles_share_is_of_what_the_nominal_one_answers_on_the_same_tasks():
    # nominal answers 18 on three tasks; slow 16 (89 %) passes, very-slow 10 (56 %) fails
    table = outcomes(
        slow_task1=outcome(answered=4),
        very_slow_task1=outcome(answered=2),
        very_slow_task3=outcome(answered=2),
    )
    passed, problems = failures(table)
    assert not passed and problems == ["very-slow keeps too few answers"]
    # slow-kg answers task2 and task3 only: 8 of the nominal profile's 12 there (67 %) passes
    table = outcomes(slow_kg_task2=outcome(answered=4), slow_kg_task3=outcome(answered=4))
    passed, problems = failures(table)
    assert passed and problems == []
    shares = time_details(table)
    assert (
        "slow-kg answers 8 of the nominal profile's 12 answers on task2, task3 (67%; at least 60%)" in shares
    )


def time_details(table):
    from tools.check_t4x4 import time_result

    return time_result([], table).details


def test_the_profile_line_keeps_its_fields_and_adds_the_cut_replies():
    from tools.check_t4x4 import TaskOutcome

    line = TaskOutcome(
        seconds=[1.0, 2.0, 31.0], batches=[(3, 34.0)], answered=2, refused_for_time=1, cut=1
    ).line("slow", "task1")
    assert line == (
        "profile slow task1: 3 questions, max 31.0 s, p95 31.0 s, over 30 s: 1, batches over n x 30 s: 0, "
        "answered 2, refused for time 1, cut 1, kept 0 of 0 that held an answer, preempted 0"
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
    good = EngineSpeed(
        call_overhead_s=0.2,
        prefill_s_per_token=1 / model.prefill_tokens_per_step_second(512),
        decode_step_s=steps,
    )
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


@pytest.mark.parametrize(
    "late, cuts, passed", [(-0.5, True, True), (0.9, True, True), (1.5, True, False), (-0.5, False, False)]
)
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


# --- the other conditions of the check, each failing alone ------------------------------------------


def engine_report(config, **changed):
    """What the session reports of an engine built as the t4x4 preset asks, with `changed` entries."""
    from tools.check_t4x4 import expected_engine

    report = {
        **expected_engine(config),
        "kv cache": "2255 blocks of 16 tokens per GPU",
        "kv cache tokens": "36080",
    }
    assert report["device"] == "Tesla T4 (compute 7.5)" and report["quantization"] == "gptq"
    return {**report, **changed}


def engine_session(report):
    from types import SimpleNamespace

    gib = 1024**3
    memory = {
        "given": 12 * gib,
        "weights": 9 * gib,
        "activations": gib // 2,
        "nccl": gib // 4,
        "kv cache": 2 * gib,
    }
    return SimpleNamespace(engine_report=lambda: report, memory=memory)


def test_the_engine_check_passes_an_engine_built_as_the_preset_asks():
    from models.config import load_config
    from tools.check_t4x4 import check_engine

    config = load_config("t4x4")
    result = check_engine(engine_session(engine_report(config)), config, 12.0)
    assert result.passed and not any("EXPECTED" in line or "SHORTER" in line for line in result.details)


@pytest.mark.parametrize(
    "key, wrong",
    [
        ("device", "Tesla V100 (compute 7.0)"),
        ("engine", "V1"),
        ("quantization", "gptq_marlin"),
        ("dtype", "torch.bfloat16"),
        ("attention backend", "vllm.attention.backends.flash_attn.FlashAttentionBackend"),
        ("worker", "vllm.v1.worker.gpu_worker.Worker"),
        ("executor the preset asks for", "RayDistributedExecutor"),
        ("tensor parallel", "2"),
        ("max_model_len", "4096"),
        ("enforce_eager", "False"),
        ("chunked prefill", "False"),
        ("tokens per step", "8192"),
        ("prefix caching", "False"),
        ("swap space bytes per GPU", str(4 * 1024**3)),
        ("guided decoding backend", "xgrammar"),
    ],
)
def test_each_engine_setting_fails_the_engine_check_alone(key, wrong):
    from models.config import load_config
    from tools.check_t4x4 import check_engine

    config = load_config("t4x4")
    result = check_engine(engine_session(engine_report(config, **{key: wrong})), config, 12.0)
    assert not result.passed
    flagged = [line for line in result.details if "EXPECTED" in line or "SHORTER" in line]
    assert len(flagged) == 1 and flagged[0].startswith(key)


def test_a_kv_cache_shorter_than_the_longest_prompt_fails_the_engine_check_alone():
    from models.config import load_config
    from tools.check_t4x4 import check_engine

    config = load_config("t4x4")
    short = str(config.llm.max_model_len - 16)
    result = check_engine(engine_session(engine_report(config, **{"kv cache tokens": short})), config, 12.0)
    assert not result.passed
    flagged = [line for line in result.details if "EXPECTED" in line or "SHORTER" in line]
    assert len(flagged) == 1 and "SHORTER than max_model_len" in flagged[0]


class WarmSession:
    def __init__(self, late=()):
        self.late = list(late)

    def compiled_after_warm_up(self):
        return self.late

    def schemas(self):
        return [{"type": "object", "properties": {"answer": {"type": "string"}}}]


@pytest.mark.parametrize(
    "warm, session, passed, problem",
    [
        (dict(error=None, unloaded=[]), WarmSession(), True, None),
        (dict(error="RuntimeError: no GPU", unloaded=[]), WarmSession(), False, "warm-up failed"),
        (dict(error=None, unloaded=["reranker"]), WarmSession(), False, "not loaded by warm-up: reranker"),
        (
            dict(error=None, unloaded=[]),
            WarmSession(late=[{"properties": {"answer": {}}}]),
            False,
            "compiled during answering",
        ),
        (
            dict(error=None, unloaded=[], first_called_later=1),
            WarmSession(),
            False,
            "1 model(s) first called in a batch",
        ),
    ],
)
def test_each_warm_up_condition_fails_the_warm_up_check_alone(warm, session, passed, problem):
    from tools.check_t4x4 import WarmUp, warm_up_result

    result = warm_up_result(WarmUp(seconds=30.0, **warm), session)
    assert result.passed is passed
    problems = result.details[1:]
    assert problems == [] if problem is None else (len(problems) == 1 and problem in problems[0])


@pytest.mark.parametrize(
    "predictions, failures, passed",
    [
        (["42", "I don't know"], [], True),
        (["42"], [], False),  # a question without an answer
        (["42", ""], [], False),  # an empty answer
        (["42", None], [], False),
        (["42", "I don't know"], ["q2: retrieval failed: boom"], False),
    ],
)
def test_a_task_fails_when_a_question_goes_unanswered_or_a_stage_fails(predictions, failures, passed):
    from tools.check_t4x4 import TaskOutcome

    outcome = TaskOutcome(seconds=[5.0, 5.0], batches=[(2, 10.0)], predictions=predictions, failures=failures)
    assert outcome.result("questions answered").passed is passed


def recorded(
    schema="guided", text='{"answer":"42"}', finish="stop", max_tokens=64, scripted=10, stop_ids=(128009,)
):
    from types import SimpleNamespace

    schema = (
        {"type": "object", "properties": {"answer": {"type": "string"}}} if schema == "guided" else schema
    )
    try:
        json.loads(text)
        valid = True
    except ValueError:
        valid = False
    return SimpleNamespace(
        schema=schema,
        n=1,
        max_tokens=max_tokens,
        stop_token_ids=list(stop_ids),
        prompt_tokens=300,
        prompt_start="<|begin_of_text|>",
        text=text,
        finish_reason=finish,
        scripted_tokens=scripted,
        valid_json=valid,
    )


@pytest.mark.parametrize(
    "requests, passed",
    [
        ([recorded(), recorded(schema=None, text="I don't know")], True),
        (
            [recorded(text='{"answer":"4', finish="length", scripted=100)],
            True,
        ),  # scripted past max_tokens: ended by it
        ([recorded(text='{"answer":"4')], False),  # guided yet not JSON
        ([recorded(finish="length")], False),  # not ended by a stop token, not scripted that long
        ([recorded(schema=None, text="I don't", finish="abort")], False),
        ([recorded(max_tokens=1, finish="length", text="{")], False),  # only warm-up requests: nothing served
        ([], False),
    ],
)
def test_each_request_condition_fails_the_requests_check_alone(requests, passed):
    from types import SimpleNamespace

    from tools.check_t4x4 import check_requests

    assert check_requests(SimpleNamespace(requests=requests, aborted=[])).passed is passed


@pytest.mark.parametrize(
    "stop_ids, count, passed",
    [((128009,), 3, True), ((128001,), 1, False), ((), 1, False), ((128009,), 0, False)],
)
def test_every_request_must_stop_at_eot(stop_ids, count, passed):
    from types import SimpleNamespace

    from tools.check_t4x4 import check_stop_ids

    requests = [recorded() for _ in range(2)] + [recorded(stop_ids=stop_ids)] if count else []
    assert check_stop_ids(SimpleNamespace(requests=requests)).passed is passed


class SchemaSession:
    def __init__(self, enforced):
        from types import SimpleNamespace

        self.enforced = enforced
        self.mask_seconds = [0.0004, 0.0003]
        config = SimpleNamespace(
            decoding_config=SimpleNamespace(guided_decoding_backend="guidance:disable-any-whitespace")
        )
        self.executor = SimpleNamespace(vllm_config=config)

    def compile_times(self, schema):
        return [12.0, 0.01, 0.02]

    def measure_backend(self, schema, backend, reply):
        return 0.03, 0.02, 0.0003

    def enforcement(self, schema):
        return dict(self.enforced)


@pytest.mark.parametrize(
    "enforced, schemas, passed",
    [
        ({"refuses prose": True, "keeps caps": True}, 2, True),
        ({"refuses prose": False, "keeps caps": True}, 2, False),
        ({"refuses prose": True, "keeps caps": False}, 2, False),
        ({"refuses prose": True, "keeps caps": True}, 0, False),  # no schema seen: nothing was checked
    ],
)
def test_each_schema_condition_fails_the_schema_check_alone(enforced, schemas, passed):
    from tools.check_t4x4 import check_schemas

    sent = [
        {"type": "object", "properties": {"answer": {"type": "string", "maxLength": 20 + i}}}
        for i in range(schemas)
    ]
    (result,) = check_schemas(SchemaSession(enforced), system_schemas=sent)
    assert result.passed is passed


def warm_outcomes(first, again, later=1.5, name="nominal"):
    from tools.check_t4x4 import TaskOutcome

    batches = [(8, first * 8), (8, later * 8), (8, later * 8), (1, later)]
    return {(name, "task1"): TaskOutcome(non_llm=batches, first_again=again)}


@pytest.mark.parametrize(
    "first, passed", [(1.0, True), (1.19, True), (0.81, True), (1.25, False), (0.75, False)]
)
def test_the_nominal_first_batch_must_be_within_a_fifth_of_its_questions_answered_again(first, passed):
    from tools.check_t4x4 import warm_batches_result

    result = warm_batches_result(warm_outcomes(first, 1.0))
    assert result.passed is passed
    assert result.details == [
        f"nominal task1: first batch {first:.2f} s per question outside the LLM; later batches' mean 1.50 s; "
        f"the first batch's questions again 1.00 s ({first - 1:+.0%}; within 20%)"
    ]


def test_the_warm_check_fails_when_nothing_was_timed_twice():
    from tools.check_t4x4 import TaskOutcome, warm_batches_result

    assert not warm_batches_result({}).passed
    assert not warm_batches_result({("nominal", "task1"): TaskOutcome(non_llm=[(8, 8.0)])}).passed
    assert not warm_batches_result(
        warm_outcomes(1.0, 1.0, name="slow")
    ).passed  # only the nominal profile counts


def test_a_cut_reply_holds_its_answer_only_when_the_answer_is_complete():
    from tools.check_t4x4 import held_answer

    assert held_answer('{"reasoning":"x","false_premise":false,"answer":"42"}') == "42"
    assert (
        held_answer('{"reasoning":"x","false_premise":false,"answer":"42"') == "42"
    )  # the brace still to come
    assert held_answer('{"reasoning":"x","false_premise":false,"answer":"4') is None
    assert held_answer('{"reasoning":"the figure for') is None
    assert held_answer("") is None


def test_cut_answers_come_from_the_answer_calls_and_name_the_question_they_quote():
    from models.llm.base import Completion, GenerationParams
    from tools.check_t4x4 import LLMCall, cut_answers

    answer_schema = {"type": "object", "properties": {"answer": {"type": "string"}}}
    other_schema = {"type": "object", "properties": {"expression": {"type": "string"}}}
    queries = ["who won", "who won the cup in 2010"]

    def conversation(query):
        return [
            {"role": "system", "content": "Answer."},
            {"role": "user", "content": f"Question: {query}\nReferences: ..."},
        ]

    held = Completion(texts=['{"answer":"Spain"'], cut=True)
    lost = Completion(texts=['{"answer":"Sp'], cut=True)
    whole = Completion(texts=['{"answer":"Italy"}'])
    calls = [
        LLMCall(
            [conversation(queries[1]), conversation(queries[0]), conversation(queries[0])],
            GenerationParams(json_schema=answer_schema),
            [held, lost, whole],
            3.0,
        ),
        LLMCall(
            [conversation(queries[0])],
            GenerationParams(json_schema=other_schema),
            [Completion(texts=['{"answer":"x"}'], cut=True)],
            1.0,
        ),
    ]
    assert cut_answers(calls, queries, [answer_schema]) == [(1, "Spain")]


def test_scripted_replies_can_be_written_in_other_words_to_a_token_count():
    def count(text):
        return len(text.split())

    dense = "one 2 three 4 "
    roomy = {
        "type": "object",
        "properties": {
            "reasoning": {"type": "string", "maxLength": 400},
            "answer": {"type": "string", "maxLength": 80},
        },
    }
    short = scripted_reply(roomy, tokens=20, count_tokens=count, words=dense)
    longer = scripted_reply(roomy, tokens=40, count_tokens=count, words=dense)
    assert (dense * 40).startswith(json.loads(short)["reasoning"])
    assert json.loads(longer)["answer"] == "42"
    assert count(short) == pytest.approx(20, abs=2) and count(longer) == pytest.approx(40, abs=2)


def test_the_profiles_change_only_what_they_name():
    from models.config import ThroughputModelConfig
    from tools.check_t4x4 import KG_REQUEST_S, PROFILES, profile

    nominal = ThroughputModelConfig()
    assert profile("slow", nominal).prefill_tokens_per_s == nominal.prefill_tokens_per_s / 2
    assert profile("very-slow", nominal).guided_mask_s == 0.015
    for name in ("slow-kg", "small-kv", "long-replies"):
        assert profile(name, nominal) == nominal  # the KG, the cache or the replies differ, not the T4
    assert PROFILES["slow-kg"].kg_request_s == 1.0 and PROFILES["small-kv"].kv_cache_tokens == 8192
    # every other profile's KG: the real KG's size and a network on top of the mock's own handling
    assert {settings.kg_request_s for name, settings in PROFILES.items() if name != "slow-kg"} == {
        KG_REQUEST_S
    }
    assert KG_REQUEST_S == pytest.approx(0.05)
    assert PROFILES["long-replies"].reply_factor == 1.5
    assert all(
        settings.least_share == 0.6 for name, settings in PROFILES.items() if name not in ("nominal", "slow")
    )
    assert [name for name, settings in PROFILES.items() if settings.stalls] == ["stalls"]
    assert [name for name, settings in PROFILES.items() if not settings.cuts_allowed] == ["nominal", "slow"]


def test_the_task3_batch_gives_each_question_50_pages_of_its_own():
    questions = [
        {
            "query": f"q{q}",
            "search_results": [
                {"page_name": f"p{q}.{i}", "page_result": f"<p>{q} {i}</p>"} for i in range(5)
            ],
        }
        for q in range(12)
    ]
    questions[0]["search_results"].append({"page_name": "not fetched", "page_result": ""})
    questions[1]["search_results"].append(
        dict(questions[0]["search_results"][0])
    )  # a page two questions found
    batch = task3_batch(questions)
    assert len(batch) == TASK3_QUESTIONS
    keys = [[page_key(page) for page in question["search_results"]] for question in batch]
    for question, own, pages in zip(batch, questions, keys):
        assert len(pages) == len(set(pages)) == TASK3_PAGES
        # Its own search results first, the same text; an empty page stays empty.
        names = [page["page_name"] for page in question["search_results"]]
        assert names[: len(own["search_results"])] == [page["page_name"] for page in own["search_results"]]
        assert all(
            page["page_result"].startswith(source["page_result"])
            for page, source in zip(question["search_results"], own["search_results"])
        )
    assert batch[0]["search_results"][5]["page_result"] == ""
    shared = [key for key in set(keys[0]) & set(keys[1]) if key[1]]
    assert not shared  # no page of one question is another's
    # The questions draw the others' pages from different places.
    assert keys[2][5][0] != keys[3][5][0]


def test_the_recorder_and_the_check_share_the_scripted_replies_without_importing_each_other():
    import ast
    from pathlib import Path

    tools = Path(__file__).resolve().parents[1] / "tools"

    def imported(name: str) -> set[str]:
        tree = ast.parse((tools / name).read_text(encoding="utf-8"))
        return {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}

    assert "tools.t4x4_replies" in imported("t4x4_recorder.py")
    assert "tools.t4x4_replies" in imported("check_t4x4.py")
    assert "tools.check_t4x4" not in imported("t4x4_recorder.py")
    assert not {module for module in imported("t4x4_replies.py") if module.startswith("tools")}

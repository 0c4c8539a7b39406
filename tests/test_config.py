import pytest

from models.config import (
    PRESETS,
    BudgetConfig,
    PlanConfig,
    finalize,
    load_config,
    parse_overrides,
    set_option,
)
from models.deadline import EngineSpeed
from models.plan import Planner
from models.stages import stage_costs


def test_default_preset_is_cpu(monkeypatch):
    monkeypatch.delenv("CRAG_PRESET", raising=False)
    config = load_config()
    assert config.preset == "cpu"
    assert config.llm.backend == "llamacpp"


def test_env_selects_preset(monkeypatch):
    monkeypatch.setenv("CRAG_PRESET", "t4x4")
    config = load_config()
    assert config.preset == "t4x4"
    assert config.llm.backend == "vllm"
    assert config.llm.tensor_parallel_size == 4
    assert config.llm.dtype == "half"


def test_every_preset_builds():
    for name in PRESETS:
        assert load_config(name).preset == name


def test_overrides_are_typed():
    config = load_config(
        "cpu",
        parse_overrides(
            [
                "calculator.enabled=false",
                "retrieval.top_k_chunks=3",
                "budget.seconds_per_question=12.5",
                "batch_size=2",
            ]
        ),
    )
    assert config.calculator.enabled is False
    assert config.retrieval.top_k_chunks == 3
    assert config.budget.seconds_per_question == 12.5
    assert config.batch_size == 2


def test_bad_options_fail_clearly():
    config = load_config("cpu")
    with pytest.raises(ValueError, match="Unknown config option"):
        set_option(config, "retrieval.no_such_thing", "1")
    with pytest.raises(ValueError, match="Unknown preset"):
        load_config("gpu9000")
    with pytest.raises(ValueError, match="section.option=value"):
        parse_overrides(["oops"])
    with pytest.raises(ValueError, match="boolean"):
        set_option(config, "calculator.enabled", "maybe")


def test_overrides_follow_the_declared_types():
    config = load_config(
        "cpu",
        parse_overrides(
            [
                "llm.threads=1",
                "llm.model_path=none",
                "retrieval.mode=baseline",
                "policy.answer_worth.static=0.6",
                'kg.domain_sources={"open": "kg"}',
                "budget.target_throughput.weight_read_s=0.2",
            ]
        ),
    )
    assert config.llm.threads == 1 and isinstance(config.llm.threads, int)
    assert config.llm.model_path is None
    assert config.retrieval.mode == "baseline"
    assert config.policy.answer_worth["static"] == 0.6
    default_scores = load_config("cpu").policy.answer_worth
    assert config.policy.answer_worth["real-time"] == default_scores["real-time"]  # other keys untouched
    assert config.kg.domain_sources == {"open": "kg"}
    assert config.budget.target_throughput.weight_read_s == 0.2


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("retrieval.mode=nonsense", "must be one of hybrid, baseline"),
        ("retrieval.relevance_estimator=bert", "must be one of none, llm, cross_encoder"),
        ("llm.threads=two", "expects an integer"),
        ("llm.threads=1.5", "expects an integer"),
        ("retrieval.top_k_chunks=", "expects an integer"),
        ("budget.seconds_per_question=soon", "expects a number"),
        ("calculator.enabled=maybe", "expects a boolean"),
        ("policy.answer_worth.static=high", "expects a number"),
        ("policy.answer_worth=0.5", "expects a JSON object"),
        ('kg.domain_sources={"open": 1}', "expects text"),
        ("nosuch.option=1", "Unknown config section 'nosuch'.*known: answer_check, attributes, budget"),
        ("retrieval.nosuch=1", "Unknown config option 'retrieval.nosuch'.*top_k_chunks"),
        ("budget.target_throughput=1", "is a section"),
        ("llm.threads.x=1", "is an option, not a section"),
    ],
)
def test_invalid_overrides_are_rejected_with_the_allowed_choices(override, message):
    with pytest.raises(ValueError, match=message):
        load_config("cpu", parse_overrides([override]))


def test_derived_options_follow_the_overrides_they_derive_from():
    config = load_config(
        "t4x4",
        parse_overrides(
            [
                "budget.target_throughput.prefill_tokens_per_s=200",
                "budget.target_throughput.weight_read_s=0.14",
                "calculator.max_reference_tokens=400",
            ]
        ),
    )
    budget, target = config.budget, config.budget.target_throughput
    # steps of 512 prompt tokens at the overridden speed, each also paying its all-reduces and fixed work
    assert budget.initial_prefill_tokens_per_s == pytest.approx(
        target.prefill_tokens_per_step_second(512), abs=0.1
    )
    assert (
        budget.initial_prefill_tokens_per_s < 200.0
        and budget.initial_call_overhead_s == target.call_overhead_s
    )
    assert budget.initial_decode_step_s == {
        n: pytest.approx(target.step_seconds(0, n, n), abs=1e-6) for n in budget.calibration_sequences
    }
    allreduce = target.allreduces_per_step * (
        target.allreduce_latency_s + target.allreduce_bytes_per_row / target.pcie_bytes_per_s
    )
    assert budget.initial_decode_step_s[1] == pytest.approx(
        0.14 + allreduce + target.step_fixed_s + target.guided_mask_s, abs=1e-6
    )
    assert config.plan.calculator_reference_chars == 400 * config.retrieval.chars_per_token


def test_what_a_preset_or_an_override_sets_is_not_derived_again():
    config = load_config(
        "cpu",
        parse_overrides(
            ["budget.target_throughput.prefill_tokens_per_s=200", "plan.calculator_reference_chars=123"]
        ),
    )
    assert config.budget.initial_prefill_tokens_per_s == 60.0  # the cpu preset's embedded model
    assert config.plan.calculator_reference_chars == 123
    assert finalize(config) == config  # finalising twice changes nothing


def test_environment_variables_are_read_when_the_configuration_is_built(monkeypatch, tmp_path):
    monkeypatch.setenv("CRAG_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("OPENAI_BASE_URL", "http://judge.invalid/v1")
    config = load_config("cpu")
    assert config.llm.cache_dir == str(tmp_path) and config.llm.base_url == "http://judge.invalid/v1"
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert load_config("cpu").llm.base_url == "http://127.0.0.1:8080/v1"


def test_an_unfinalised_budget_is_refused_by_its_readers():
    with pytest.raises(ValueError, match="load_config"):
        EngineSpeed.initial(BudgetConfig())
    with pytest.raises(ValueError, match="load_config"):
        Planner(PlanConfig())


def test_seeds_are_the_stages_own_unless_the_budget_overrides_them():
    config = load_config("t4x4")
    costs = stage_costs(config)
    assert costs.other_seconds["kg"] == 0.5 and costs.other_seconds["calculator"] == 0.0  # preset, then stage
    assert costs.prompt_tokens == {
        "kg": 410.0,
        "calculator": 430.0,
        "knowledge": 200.0,
        "reasoning": 1800.0,
        "answer check": 600.0,
    }
    config.budget.initial_stage_seconds["rerank"] = 1.0
    with pytest.raises(ValueError, match="unknown stages \\['rerank'\\]"):
        stage_costs(config)


def _numeric_options(declared, dotted, ranged=False):
    """(option, has a declared Range) for every number the declared type holds, containers included."""
    import dataclasses
    import types
    import typing

    from models.config import Range

    origin, arguments = typing.get_origin(declared), typing.get_args(declared)
    if origin is typing.Annotated:
        has_range = any(isinstance(a, Range) for a in arguments[1:])
        yield from _numeric_options(arguments[0], dotted, ranged or has_range)
    elif dataclasses.is_dataclass(declared):
        hints = typing.get_type_hints(declared, include_extras=True)
        for each in dataclasses.fields(declared):
            yield from _numeric_options(hints[each.name], f"{dotted}{each.name}.")
    elif origin in (types.UnionType, typing.Union, dict, list, tuple):
        for argument in arguments:
            yield from _numeric_options(argument, dotted, ranged)
    elif declared in (int, float):
        yield dotted.rstrip("."), ranged


def test_every_numeric_option_declares_its_range():
    from models.config import CragConfig

    options = dict(_numeric_options(CragConfig, ""))
    assert len(options) > 200  # the walk reaches every section, nested ones and containers included
    nested = {"batch_size", "budget.target_throughput.weight_read_s", "budget.calibration_sequences"}
    assert nested <= set(options)
    assert [name for name, ranged in options.items() if not ranged] == []


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("llm.context_tokens=-5", "llm.context_tokens must be at least 256; got -5$"),
        ("budget.seconds_per_question=-3", "budget.seconds_per_question must be above 0; got -3.0$"),
        ("budget.seconds_per_question=0", "must be above 0; got 0.0$"),
        ("budget.seconds_per_question=nan", "must be above 0; got nan$"),
        ("budget.usable_fraction=1.5", "usable_fraction must be above 0 and at most 1; got 1.5$"),
        ("batch_size=17", "batch_size must be between 1 and 16; got 17$"),
        ("llm.threads=0", "llm.threads must be at least 1; got 0 \\(none is also allowed\\)$"),
        ("kg.nba_season_start_month=13", "must be between 1 and 12; got 13$"),
        ("budget.calibration_sequences=1,0", "budget.calibration_sequences must be at least 1; got 0$"),
        ('budget.initial_decode_step_s={"1": -1}', "initial_decode_step_s.1 must be above 0; got -1.0"),
        ("policy.answer_worth.static=2", "answer_worth.static must be between -1 and 1; got 2.0$"),
        ("budget.target_throughput.pcie_bytes_per_s=0", "pcie_bytes_per_s must be above 0; got 0.0$"),
    ],
)
def test_an_override_outside_its_range_is_refused_with_the_range(override, message):
    with pytest.raises(ValueError, match=message) as refused:
        load_config("cpu", parse_overrides([override]))
    assert "\n" not in str(refused.value)


def test_the_edges_of_a_range_are_allowed():
    config = load_config(
        "cpu",
        parse_overrides(
            [
                "batch_size=16",
                "llm.context_tokens=256",
                "web.workers=0",
                "budget.usable_fraction=1",
                "retrieval.mmr_lambda=0",
            ]
        ),
    )
    assert (config.batch_size, config.llm.context_tokens, config.web.workers) == (16, 256, 0)


def test_a_preset_or_a_derived_option_outside_its_range_is_refused_when_it_loads(monkeypatch):
    from models.config import cpu_preset

    def broken():
        config = cpu_preset()
        config.retrieval.top_k_chunks = 0
        return config

    monkeypatch.setitem(PRESETS, "broken", broken)
    with pytest.raises(ValueError, match="The broken configuration: retrieval.top_k_chunks must be at least"):
        load_config("broken")
    # derived after the overrides: a 4x T4 model whose steps cost nothing gives decode steps of 0 s
    with pytest.raises(ValueError, match="The cpu configuration: budget.initial_decode_step_s.1 must be"):
        load_config(
            "cpu",
            parse_overrides(
                ["budget.initial_decode_step_s=none"]
                + [
                    f"budget.target_throughput.{name}=0"
                    for name in ("weight_read_s", "step_fixed_s", "allreduces_per_step", "guided_mask_s")
                ]
            ),
        )

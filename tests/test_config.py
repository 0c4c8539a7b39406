import pytest

from models.config import PRESETS, load_config, parse_overrides, set_option


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
    config = load_config("cpu", parse_overrides(["calculator.enabled=false", "retrieval.top_k_chunks=3",
                                                  "budget.seconds_per_question=12.5", "batch_size=2"]))
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

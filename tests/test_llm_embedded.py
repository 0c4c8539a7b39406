"""Assembly of the embedded GGUF from its part packages: fake small parts, plus one check of the real ones."""

from __future__ import annotations

import dataclasses
import hashlib
import sys
import types
from pathlib import Path

import pytest

from models.config import LLMConfig
from models.llm import embedded
from models.llm.embedded import EmbeddedModelError, embedded_model_path

PART_CONTENTS = [b"first chunk|", b"second chunk|", b"third and last chunk"]


def install_fake_parts(monkeypatch: pytest.MonkeyPatch, folder: Path, contents: list[bytes]) -> LLMConfig:
    """Fake part modules `fake_llm_part1..N` whose get_part_path() point at small files."""
    for index, content in enumerate(contents, start=1):
        path = folder / f"part{index:02d}.bin"
        path.write_bytes(content)
        module = types.ModuleType(f"fake_llm_part{index}")
        module.get_part_path = lambda path=path: str(path)
        monkeypatch.setitem(sys.modules, module.__name__, module)
    joined = b"".join(contents)
    return LLMConfig(
        embedded_part_module="fake_llm_part{}",
        embedded_parts=len(contents),
        embedded_file_name="fake.gguf",
        embedded_size_bytes=len(joined),
        embedded_sha256=hashlib.sha256(joined).hexdigest(),
    )


def test_parts_are_joined_in_order_and_verified(tmp_path, monkeypatch):
    config = install_fake_parts(monkeypatch, tmp_path, PART_CONTENTS)
    path = embedded_model_path(tmp_path / "cache", config)
    assert path == tmp_path / "cache" / "fake.gguf"
    assert path.read_bytes() == b"".join(PART_CONTENTS)
    assert not list(path.parent.glob("*.part")), "the temporary file must be renamed away"


def test_a_verified_file_is_not_hashed_again(tmp_path, monkeypatch):
    config = install_fake_parts(monkeypatch, tmp_path, PART_CONTENTS)
    first = embedded_model_path(tmp_path / "cache", config)

    def forbidden(*args, **kwargs):
        raise AssertionError("a verified file must not be hashed or assembled again")

    monkeypatch.setattr(embedded, "_sha256_of", forbidden)
    monkeypatch.setattr(embedded, "_assemble", forbidden)
    assert embedded_model_path(tmp_path / "cache", config) == first


def test_a_file_without_marker_is_hashed_once_and_kept(tmp_path, monkeypatch):
    config = install_fake_parts(monkeypatch, tmp_path, PART_CONTENTS)
    path = embedded_model_path(tmp_path / "cache", config)
    path.with_name(path.name + ".verified").unlink()
    monkeypatch.setattr(
        embedded, "_assemble", lambda *args: pytest.fail("a good file must not be reassembled")
    )
    assert embedded_model_path(tmp_path / "cache", config).read_bytes() == b"".join(PART_CONTENTS)
    assert path.with_name(path.name + ".verified").is_file()


def test_a_changed_file_is_assembled_again(tmp_path, monkeypatch):
    config = install_fake_parts(monkeypatch, tmp_path, PART_CONTENTS)
    path = embedded_model_path(tmp_path / "cache", config)
    path.write_bytes(b"x" * config.embedded_size_bytes)  # same size, new mtime, wrong content
    assert embedded_model_path(tmp_path / "cache", config).read_bytes() == b"".join(PART_CONTENTS)


def test_missing_parts_name_the_packages_to_install(tmp_path, monkeypatch):
    config = install_fake_parts(monkeypatch, tmp_path, PART_CONTENTS)
    monkeypatch.delitem(sys.modules, "fake_llm_part2")
    (tmp_path / "part03.bin").unlink()
    with pytest.raises(EmbeddedModelError) as raised:
        embedded_model_path(tmp_path / "cache", config)
    message = str(raised.value)
    assert "fake-llm-part2" in message and "fake-llm-part3" in message and "fake-llm-part1," not in message
    assert "pip install" in message
    assert not (tmp_path / "cache" / "fake.gguf").exists()


def test_hash_mismatch_leaves_no_file_and_says_what_to_do(tmp_path, monkeypatch):
    config = install_fake_parts(monkeypatch, tmp_path, PART_CONTENTS)
    config = dataclasses.replace(config, embedded_sha256="0" * 64)
    with pytest.raises(EmbeddedModelError, match="reinstall"):
        embedded_model_path(tmp_path / "cache", config)
    assert list((tmp_path / "cache").iterdir()) == []


def test_the_real_packaged_model_is_assembled_and_verified():
    config = LLMConfig()
    path = embedded_model_path(config.cache_dir, config)
    assert path.stat().st_size == config.embedded_size_bytes
    with path.open("rb") as handle:
        assert handle.read(4) == b"GGUF"
    assert path.with_name(path.name + ".verified").is_file()


def test_a_model_file_is_hashed_once_and_again_when_it_changes(tmp_path, monkeypatch):
    model = tmp_path / "model.gguf"
    model.write_bytes(b"weights")
    hashed = []
    real = embedded._sha256_of
    monkeypatch.setattr(embedded, "_sha256_of", lambda path: hashed.append(path) or real(path))
    first = embedded.file_sha256(model, tmp_path / "cache")
    assert first == hashlib.sha256(b"weights").hexdigest()
    assert embedded.file_sha256(model, tmp_path / "cache") == first and len(hashed) == 1  # kept
    model.write_bytes(b"other weights")
    assert embedded.file_sha256(model, tmp_path / "cache") == hashlib.sha256(b"other weights").hexdigest()
    assert len(hashed) == 2

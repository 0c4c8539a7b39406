"""The official CRAG file layouts (facebookresearch/CRAG, docs/dataset.md), rebuilt from the bundled
sample, never from ../shared/data: Tasks 1-2's one `.jsonl.bz2`, and Task 3's `tar.bz2` of a folder
`crag_task_3_dev_v4/` of JSONL shards `crag_task_3_dev_v4_<i>.jsonl`, published split into `.partN`
files that users join with `cat`."""

from __future__ import annotations

import bz2
import io
import json
import tarfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLE = REPO_ROOT / "data" / "sample.jsonl"
TASK3 = "crag_task_3_dev_v4"


def sample_lines(count: int | None = None) -> list[bytes]:
    """The bundled sample's lines (each ending in a newline), the first `count` of them."""
    return SAMPLE.read_bytes().splitlines(keepends=True)[:count]


def many_lines(copies: int) -> list[bytes]:
    """`copies` of the sample under new interaction ids: a file of several bz2 blocks."""
    lines = []
    for copy in range(copies):
        for text in sample_lines():
            record = json.loads(text)
            record["interaction_id"] = f"{record['interaction_id']}-{copy}"
            lines.append(json.dumps(record).encode() + b"\n")
    return lines


def shards_of(lines: list[bytes], shards: int) -> list[list[bytes]]:
    """The lines dealt into `shards` consecutive runs, the first ones one longer."""
    size, extra = divmod(len(lines), shards)
    runs, start = [], 0
    for index in range(shards):
        end = start + size + (index < extra)
        runs.append(lines[start:end])
        start = end
    return runs


def write_jsonl(path: Path, lines: list[bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = b"".join(lines)
    path.write_bytes(bz2.compress(data) if path.suffix == ".bz2" else data)
    return path


def task3_archive(
    folder: Path, lines: list[bytes], shards: int = 3, member_suffix: str = ".jsonl", inner: str = TASK3
) -> Path:
    """`folder/crag_task_3_dev_v4.tar.bz2` holding `inner/crag_task_3_dev_v4_<i><member_suffix>`
    (".jsonl" or ".jsonl.bz2"), the shards in order, as `tar cjf` writes it."""
    folder.mkdir(parents=True, exist_ok=True)
    archive = folder / f"{TASK3}.tar.bz2"
    with tarfile.open(archive, "w:bz2") as tar:
        directory = tarfile.TarInfo(inner)
        directory.type = tarfile.DIRTYPE
        tar.addfile(directory)
        for index, run in enumerate(shards_of(lines, shards)):
            data = b"".join(run)
            if member_suffix.endswith(".bz2"):
                data = bz2.compress(data)
            member = tarfile.TarInfo(f"{inner}/{TASK3}_{index}{member_suffix}")
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    return archive


def unpacked(folder: Path, lines: list[bytes], shards: int = 3) -> Path:
    """The archive's folder as `tar xjf` leaves it."""
    inner = folder / TASK3
    for index, run in enumerate(shards_of(lines, shards)):
        write_jsonl(inner / f"{TASK3}_{index}.jsonl", run)
    return inner


def split_parts(archive: Path, parts: int = 4, into: Path | None = None) -> list[Path]:
    """`archive` cut into `archive.part1` .. `.partN` (in `into`, default beside it), as published."""
    data = archive.read_bytes()
    into = into or archive.parent
    into.mkdir(parents=True, exist_ok=True)
    size = -(-len(data) // parts)
    paths = []
    for index in range(parts):
        path = into / f"{archive.name}.part{index + 1}"
        path.write_bytes(data[index * size : (index + 1) * size])
        paths.append(path)
    return paths

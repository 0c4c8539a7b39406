"""Reading and checking CRAG data (evaluation/data.py:check_questions) against one plain streamed
pass over the same file, in seconds per GB of JSONL, in one run.

    python -m benchmarks.data_reading                       # 2 GB of Task-3-shaped questions
    python -m benchmarks.data_reading --gb 0.5 --shapes jsonl,jsonl.bz2,tar.bz2 --repeats 3

The questions are synthetic but shaped like Task 3's: each has `--pages` pages drawn from real HTML
(../shared/data/crag_dev_10.jsonl.bz2 when present, else the bundled sample), under its own id,
until the JSONL holds `--gb` GB. Each shape is written once into `--work` (kept, and reused by a
later run of the same size): a .jsonl, a .jsonl.bz2, and Task 3's tar.bz2 of JSONL shards.

Per shape, the reference is the plainest streamed pass that sees every line: iterating the file's
lines (`open`, `bz2.open`, `tarfile.open(mode="r|bz2")` member by member); a second one also parses
each line (`json.loads`), the least any check of the records costs. Ours is `check_questions`:
the same one pass, every record parsed and checked against the schema, the questions counted.
Passes take turns (lines, lines + JSON, ours, lines, ...) and the fastest of `--repeats` is kept,
so a change of load on a shared machine hits all three. Printed: seconds per GB of JSONL for each,
and ours over each reference.
"""

from __future__ import annotations

import argparse
import bz2
import itertools
import json
import random
import tarfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from evaluation.data import check_questions
from models.config import REPO_ROOT, default_cache_dir
from models.markdown import markdown_table

DEV_PAGES = REPO_ROOT.parent / "shared" / "data" / "crag_dev_10.jsonl.bz2"
SAMPLE = REPO_ROOT / "data" / "sample.jsonl"
SHAPES = ("jsonl", "jsonl.bz2", "tar.bz2")
TASK3 = "crag_task_3_dev_v4"
GB = 1e9


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--gb", type=float, default=2.0, help="GB of JSONL to read (default 2)")
    parser.add_argument("--shapes", default="jsonl,tar.bz2", help=f"comma-separated, of {', '.join(SHAPES)}")
    parser.add_argument("--pages", type=int, default=50, help="pages per question (Task 3: 50)")
    parser.add_argument("--shards", type=int, default=4, help="JSONL shards in the tar.bz2")
    parser.add_argument("--repeats", type=int, default=2, help="passes of each; the fastest is kept")
    parser.add_argument("--work", type=Path, default=default_cache_dir() / "benchmarks" / "data_reading",
                        help="where the synthetic files are written and kept")  # fmt: skip
    args = parser.parse_args(argv)
    shapes = [shape.strip() for shape in args.shapes.split(",") if shape.strip()]
    if unknown := sorted(set(shapes) - set(SHAPES)):
        parser.error(f"unknown shapes {unknown}; choose from {', '.join(SHAPES)}")

    jsonl = synthetic_jsonl(args.work, args.gb, args.pages)
    size = jsonl.stat().st_size
    rows = []
    for shape in shapes:
        path = written(jsonl, shape, args.shards)
        lines_s, parsed_s, ours_s = fastest([
            lambda: sum(1 for _ in LINES[shape](path)),
            lambda: sum(1 for line in LINES[shape](path) if json.loads(line)),
            lambda: check_questions(path, progress=False),
        ], args.repeats)  # fmt: skip
        gb = size / GB
        rows.append([shape, f"{gb:.2f}", f"{path.stat().st_size / GB:.2f}", f"{lines_s / gb:.1f}",
                     f"{parsed_s / gb:.1f}", f"{ours_s / gb:.1f}", f"{ours_s / lines_s:.2f}",
                     f"{ours_s / parsed_s:.2f}"])  # fmt: skip
        print(f"{shape}: lines {lines_s:.1f} s, lines + JSON {parsed_s:.1f} s, ours {ours_s:.1f} s",
              flush=True)  # fmt: skip
    questions = sum(1 for _ in plain_lines(jsonl))
    pages_from = DEV_PAGES.name if DEV_PAGES.is_file() else SAMPLE.name
    print(
        f"\n{questions} questions of {args.pages} pages, {size / GB:.2f} GB of JSONL (pages from "
        f"{pages_from}); fastest of {args.repeats}:\n"
    )
    headers = ["shape", "JSONL GB", "file GB", "lines s/GB", "lines + JSON s/GB", "ours s/GB", "ours / lines",
               "ours / lines + JSON"]  # fmt: skip
    print(markdown_table(headers, rows))
    return 0


def synthetic_jsonl(work: Path, gb: float, pages_per_question: int) -> Path:
    """Task-3-shaped questions, `gb` GB of them, written once per size."""
    path = work / f"questions-{gb:g}gb-{pages_per_question}p.jsonl"
    if path.is_file():
        return path
    work.mkdir(parents=True, exist_ok=True)
    source = DEV_PAGES if DEV_PAGES.is_file() else SAMPLE
    records = list(_raw_records(source))
    pages = [page for record in records for page in record.get("search_results") or []]
    rng = random.Random(0)
    written_bytes, number = 0, 0
    temporary = path.with_suffix(".partial")
    with temporary.open("w", encoding="utf-8") as out:
        while written_bytes < gb * GB:
            record = dict(records[number % len(records)])
            record["interaction_id"] = f"synthetic-{number}"
            record["search_results"] = [rng.choice(pages) for _ in range(pages_per_question)]
            line = json.dumps(record, ensure_ascii=False) + "\n"
            out.write(line)
            written_bytes += len(line.encode("utf-8"))
            number += 1
    temporary.rename(path)
    return path


def written(jsonl: Path, shape: str, shards: int) -> Path:
    """`jsonl` in `shape`, written once beside it."""
    if shape == "jsonl":
        return jsonl
    path = jsonl.with_name(jsonl.stem + "." + shape)
    if path.is_file():
        return path
    temporary = path.with_name(path.name + ".partial")
    if shape == "jsonl.bz2":
        with jsonl.open("rb") as source, bz2.open(temporary, "wb") as target:
            while chunk := source.read(1 << 24):
                target.write(chunk)
    else:
        per_shard = -(-sum(1 for _ in plain_lines(jsonl)) // shards)
        with jsonl.open("rb") as source, tarfile.open(temporary, "w:bz2") as tar:
            for index in range(shards):
                shard = jsonl.with_name(f"{TASK3}_{index}.jsonl")
                with shard.open("wb") as out:
                    out.writelines(itertools.islice(source, per_shard))
                tar.add(shard, arcname=f"{TASK3}/{shard.name}")
                shard.unlink()
    temporary.rename(path)
    return path


def fastest(works: list[Callable[[], object]], repeats: int) -> list[float]:
    """The fastest of `repeats` turns of each, taking turns."""
    best = [float("inf")] * len(works)
    for _ in range(repeats):
        for index, work in enumerate(works):
            started = time.perf_counter()
            work()
            best[index] = min(best[index], time.perf_counter() - started)
    return best


def plain_lines(path: Path) -> Iterator[bytes]:
    with path.open("rb") as stream:
        yield from stream


def bz2_lines(path: Path) -> Iterator[bytes]:
    with bz2.open(path, "rb") as stream:
        yield from stream


def tar_lines(path: Path) -> Iterator[bytes]:
    with tarfile.open(path, mode="r|bz2") as archive:
        for member in archive:
            content = archive.extractfile(member)
            if content is not None:
                yield from content


LINES: dict[str, Callable[[Path], Iterator[bytes]]] = {
    "jsonl": plain_lines,
    "jsonl.bz2": bz2_lines,
    "tar.bz2": tar_lines,
}


def _raw_records(path: Path) -> Iterator[dict]:
    opener = bz2.open if path.suffix == ".bz2" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


if __name__ == "__main__":
    raise SystemExit(main())

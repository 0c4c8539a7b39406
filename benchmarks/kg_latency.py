"""Per-request latency of the official CRAG mock KG server over localhost: the figure behind the KG
latency `make check-t4x4` charges (tools/check_t4x4.py: `KG_SERVER_S`, plus its network allowance).

    python -m benchmarks.kg_latency --official CRAG/mock_api --python OFFICIAL_VENV/bin/python \
        [--repeats 5] [--open-names 10000 100000]

`--official` is the `mock_api` folder of a checkout of facebookresearch/CRAG and `--python` an
interpreter with its requirements.txt (fastapi 0.103, pydantic 2.5.3, pandas 2.0.3 with numpy < 2,
rank_bm25, sqlitedict 2.1.0, uvicorn, loguru, tqdm, lxml). Its data lives in Git LFS; here both the
official server and this repository's mock (kg_mock/server.py) serve the fixture KG
(kg_mock/fixture.py) in the official formats, with the real company table
(../shared/data/company_name.dict, the official finance corpus: 11,481 names) added when present.

Each request of kg_mock/compare.py's fixed cases that the official server answers with HTTP 200 is
sent `--repeats` times, one at a time on one kept-alive connection (as models/kg/client.py sends
them). Printed: the median and 95th percentile per route, then over all requests, for both servers.
With `--open-names`, the official server again with that many more names in the open KG, and the
open search's latency at each size: rank_bm25 (open, movie and finance searches) scores every name
of its corpus for every query word, so those searches grow with the size of the real KG.
"""

from __future__ import annotations

import argparse
import bz2
import csv
import json
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import httpx

from kg_mock import formats
from kg_mock.compare import Case, cases
from kg_mock.fixture import cached_fixture_dir
from kg_mock.server import free_port, running_server, wait_until_up

REPO_ROOT = Path(__file__).resolve().parents[1]
COMPANY_TABLE = REPO_ROOT.parent / "shared" / "data" / "company_name.dict"
OPEN_SEARCH = "/open/search_entity_by_name"
FILLER_WORDS = (
    "river",
    "north",
    "hall",
    "stone",
    "county",
    "saint",
    "lake",
    "valley",
    "port",
    "castle",
    "mount",
    "bridge",
    "green",
    "old",
    "new",
    "upper",
    "west",
    "east",
    "glen",
    "field",
)


def build_data_dir(target: Path, extra_open_names: int = 0, seed: int = 5) -> Path:
    """The fixture KG copied to `target`, the real company table's rows added to its own, and
    `extra_open_names` invented entities added to the open KG."""
    shutil.copytree(cached_fixture_dir(), target)
    if COMPANY_TABLE.is_file():
        names = _company_rows(target / "finance" / "company_name.dict") + _company_rows(COMPANY_TABLE)
        formats.write_company_names(target, names)
    if extra_open_names:
        entities = _open_entities(target)
        rng = random.Random(seed)
        taken = {name for name, _ in entities}
        wanted = len(entities) + extra_open_names
        while len(entities) < wanted:
            name = (
                " ".join(rng.choice(FILLER_WORDS).title() for _ in range(rng.randint(1, 3)))
                + f" {rng.randint(1, 10**6)}"
            )
            if name not in taken:
                taken.add(name)
                entities.append(
                    (
                        name,
                        {
                            "summary_text": f"{name} is a place.",
                            "summary_structured": {},
                            "raw_mediawiki": "",
                        },
                    )
                )
        formats.write_open_kg(target, entities)
    return target


def _company_rows(path: Path) -> list[tuple[str, str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return [(row["Name"], row["Symbol"]) for row in csv.DictReader(file)]


def _open_entities(root: Path) -> list[tuple[str, dict[str, Any]]]:
    entities = []
    for part in ("kg.0.jsonl.bz2", "kg.1.jsonl.bz2"):
        for line in bz2.decompress((root / "open" / part).read_bytes()).decode("utf-8").splitlines():
            name, entity = json.loads(line)
            entities.append((name, entity))
    return entities


@contextmanager
def official_server(
    mock_api: Path, python: str, data_dir: Path, startup_timeout_s: float = 600.0
) -> Iterator[str]:
    """The official `server:app` under uvicorn in its own interpreter, serving `data_dir`."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [python, "-m", "uvicorn", "server:app", "--port", str(port), "--log-level", "warning"],
            cwd=mock_api,
            env={"KG_BASE_DIRECTORY": str(data_dir), "PATH": "/usr/bin:/bin"},
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        try:
            wait_until_up(process, url, startup_timeout_s, log)
            yield url
        finally:
            process.terminate()
            process.wait(timeout=10)


def answered_cases(url: str) -> list[Case]:
    """The fixed cases with a JSON body that the server at `url` answers with HTTP 200."""
    return [case for case in cases() if not isinstance(case.body, bytes) and case.send(url)[0] == 200]


def latencies(url: str, chosen: list[Case], repeats: int) -> dict[str, list[float]]:
    """Seconds of each request by route, sent one at a time on one kept-alive connection."""
    seconds: dict[str, list[float]] = defaultdict(list)
    with httpx.Client(base_url=url, timeout=60.0, headers={"accept": "application/json"}) as client:
        client.get("/")
        for _ in range(repeats):
            for case in chosen:
                started = time.perf_counter()
                client.post(case.path, json=case.body)
                seconds[case.path].append(time.perf_counter() - started)
    return seconds


def quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[max(0, round(0.95 * len(ordered)) - 1)]


def report(official: dict[str, list[float]], ours: dict[str, list[float]]) -> list[str]:
    lines = [f"{'route':<52} {'requests':>8}  official median / p95 ms   mock median / p95 ms"]
    for path in sorted(official):
        (om, op), (mm, mp) = quantiles(official[path]), quantiles(ours.get(path, [0.0]))
        lines.append(
            f"{path:<52} {len(official[path]):>8}  {om * 1000:8.1f} / {op * 1000:6.1f}        "
            f"{mm * 1000:8.1f} / {mp * 1000:6.1f}"
        )
    every_official = [s for values in official.values() for s in values]
    every_ours = [s for values in ours.values() for s in values]
    (om, op), (mm, mp) = quantiles(every_official), quantiles(every_ours)
    lines.append(
        f"{'all requests':<52} {len(every_official):>8}  {om * 1000:8.1f} / {op * 1000:6.1f}        "
        f"{mm * 1000:8.1f} / {mp * 1000:6.1f}   (official max {max(every_official) * 1000:.1f} ms)"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--official", type=Path, required=True, help="the mock_api folder of facebookresearch/CRAG"
    )
    parser.add_argument("--python", required=True, help="an interpreter with the official requirements.txt")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--open-names", type=int, nargs="*", default=[], help="open KG sizes to time the open search at"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kg-latency-") as work:
        data_dir = build_data_dir(Path(work) / "kg")
        with official_server(args.official, args.python, data_dir) as url:
            chosen = answered_cases(url)
            official = latencies(url, chosen, args.repeats)
        with running_server(data_dir=data_dir) as url:
            ours = latencies(url, chosen, args.repeats)
        print(f"{len(chosen)} requests answered with HTTP 200, each sent {args.repeats} times, one at a time")
        print("\n".join(report(official, ours)))
        searches = [case for case in chosen if case.path == OPEN_SEARCH]
        for extra in args.open_names:
            bigger = build_data_dir(Path(work) / f"kg-{extra}", extra)
            with official_server(args.official, args.python, bigger) as url:
                median, p95 = quantiles(latencies(url, searches, args.repeats)[OPEN_SEARCH])
            print(
                f"official open search over {extra:,} more names: "
                f"median {median * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"
            )
            shutil.rmtree(bigger)


if __name__ == "__main__":
    main()

"""benchmarks/data_reading.py: our check pass beside plain streamed passes, on every shape, in one run."""

from __future__ import annotations

import tarfile

from benchmarks import data_reading
from evaluation.data import check_questions


def test_the_benchmark_times_every_shape_against_plain_passes(tmp_path, capsys):
    argv = ["--gb", "0.002", "--pages", "2", "--shapes", "jsonl,jsonl.bz2,tar.bz2", "--shards", "2",
            "--repeats", "1", "--work", str(tmp_path)]  # fmt: skip
    assert data_reading.main(argv) == 0
    table = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    assert table[0].startswith("| shape | JSONL GB | file GB | lines s/GB | lines + JSON s/GB | ours s/GB")
    rows = {line.split(" | ")[0].strip("| "): line.strip("| ").split(" | ") for line in table[2:]}
    assert set(rows) == {"jsonl", "jsonl.bz2", "tar.bz2"}
    assert all(float(value) > 0 for row in rows.values() for value in row[3:])

    jsonl = next(tmp_path.glob("*.jsonl"))
    archive = next(tmp_path.glob("*.tar.bz2"))
    with tarfile.open(archive) as tar:
        names = [member.name for member in tar.getmembers()]
    assert names == [f"{data_reading.TASK3}/{data_reading.TASK3}_{i}.jsonl" for i in range(2)]
    one, shards = check_questions(jsonl), check_questions(archive)
    assert [g.interaction_id for g in shards.golds] == [g.interaction_id for g in one.golds]
    assert len(one.golds) >= 2

"""Reading CRAG files in both public schemas."""

from __future__ import annotations

import bz2
import json

import pytest

from evaluation.data import count_questions, parse_alternatives, read_records, to_batch


def _write(path, records):
    text = "".join(json.dumps(r) + "\n" for r in records)
    if path.suffix == ".bz2":
        path.write_bytes(bz2.compress(text.encode()))
    else:
        path.write_text(text)


def test_old_and_new_schemas_and_bz2(tmp_path):
    records = [
        {
            "interaction_id": "a",
            "query": "q1",
            "answer": "yes",
            "alternative_answers": '["yep"]',
            "domain": "open",
            "question_type": "simple",
            "static_or_dynamic": "static",
            "query_time": "t",
            "search_results": [{"page_name": "p"}],
        },
        {
            "interaction_id": "b",
            "query": "q2",
            "answer": 42,
            "alt_ans": ["forty-two", ""],
            "popularity": "tail",
        },
    ]
    for name in ("data.jsonl", "data.jsonl.bz2"):
        _write(tmp_path / name, records)
        first, second = read_records(tmp_path / name)
        assert first.gold.answers == ["yes", "yep"]
        assert first.gold.labels == {
            "domain": "open",
            "question_type": "simple",
            "static_or_dynamic": "static",
        }
        assert second.gold.answers == ["42", "forty-two"] and second.gold.labels == {"popularity": "tail"}
        batch = to_batch([first, second])
        assert set(batch) == {"interaction_id", "query", "search_results", "query_time"}
        assert batch["search_results"] == [[{"page_name": "p"}], []]
        assert count_questions(tmp_path / name) == 2 and count_questions(tmp_path / name, limit=1) == 1


def test_alternatives_in_every_shape():
    assert parse_alternatives(None) == [] and parse_alternatives("[]") == [] and parse_alternatives("") == []
    assert parse_alternatives('["a", 3]') == ["a", "3"]
    assert parse_alternatives("plain text") == ["plain text"]


def test_bad_files_give_clear_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        list(read_records(tmp_path / "missing.jsonl"))
    (tmp_path / "broken.jsonl").write_text('{"query": "q"}\nnot json\n')
    with pytest.raises(ValueError, match="broken.jsonl:2"):
        list(read_records(tmp_path / "broken.jsonl"))
    _write(
        tmp_path / "twice.jsonl",
        [{"interaction_id": "x", "query": "a"}, {"interaction_id": "x", "query": "b"}],
    )
    with pytest.raises(ValueError, match="repeats"):
        list(read_records(tmp_path / "twice.jsonl"))


def test_limit_and_validation_file_prefix_ids(shared_data):
    records = list(read_records(shared_data / "crag_questions_validation.jsonl", limit=3))
    assert len(records) == 3
    assert all(r.gold.interaction_id and r.gold.labels.get("domain") for r in records)

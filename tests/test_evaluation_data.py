"""Reading CRAG questions (evaluation/data.py, evaluation/sources.py): every official shape, rebuilt
from the bundled sample, read as one stream that gives the same questions; each bad input refused
in one line naming where."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import tarfile
import zipfile
from pathlib import Path

import pytest

from evaluation import data as data_module
from evaluation.data import (
    DataError,
    check_questions,
    parse_alternatives,
    parse_record,
    read_records,
    to_batch,
)
from evaluation.sources import join_command
from tests.crag_layouts import (
    TASK3,
    many_lines,
    sample_lines,
    split_parts,
    task3_archive,
    unpacked,
    write_jsonl,
)

SAMPLE_IDS = [json.loads(line)["interaction_id"] for line in sample_lines()]


def _write(path, records):
    return write_jsonl(path, [json.dumps(r).encode() + b"\n" for r in records])


def _inputs(data, **options):
    return [record.model_input for record in read_records(data, model_input=True, **options)]


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
        assert len(list(read_records(tmp_path / name, limit=1))) == 1


def test_alternatives_in_every_shape():
    assert parse_alternatives(None) == [] and parse_alternatives("[]") == [] and parse_alternatives("") == []
    assert parse_alternatives('["a", 3]') == ["a", "3"]
    assert parse_alternatives("plain text") == ["plain text"]


# --- every official shape gives the same questions -------------------------------------------------


@pytest.fixture(scope="module")
def layouts(tmp_path_factory):
    """The sample in every shape: one .jsonl, one .jsonl.bz2, the Task 3 archive (JSONL and
    JSONL.bz2 members), its parts, its unpacked folder."""
    root = tmp_path_factory.mktemp("layouts")
    lines = sample_lines()
    archive = task3_archive(root / "archive", lines)
    return {
        "jsonl": write_jsonl(root / "one.jsonl", lines),
        "jsonl.bz2": write_jsonl(root / "crag_task_1_and_2_dev_v4.jsonl.bz2", lines),
        "tar.bz2": archive,
        "tar.bz2 of .jsonl.bz2 shards": task3_archive(root / "bz2", lines, member_suffix=".jsonl.bz2"),
        "tar.bz2 in nested folders": task3_archive(root / "nested", lines, shards=2, inner=f"a/b/{TASK3}"),
        "parts": split_parts(archive, 4, into=root / "parts"),
        "folder": unpacked(root / "unpacked", lines),
    }


@pytest.mark.parametrize(
    "shape",
    ["jsonl.bz2", "tar.bz2", "tar.bz2 of .jsonl.bz2 shards", "tar.bz2 in nested folders", "folder",
     "parts: the first", "parts: a later one", "parts: all, by a glob", "parts: the joined name"],
)  # fmt: skip
def test_every_official_shape_reads_the_same_questions_as_one_jsonl(layouts, shape):
    parts = layouts["parts"]
    data = {
        "parts: the first": parts[0],
        "parts: a later one": parts[2],
        "parts: all, by a glob": str(parts[0].parent / "*.part*"),
        "parts: the joined name": parts[0].parent / f"{TASK3}.tar.bz2",  # only the parts are there
    }.get(shape, layouts.get(shape))
    assert _inputs(data) == _inputs(layouts["jsonl"])
    questions = check_questions(data)
    assert [gold.interaction_id for gold in questions.golds] == SAMPLE_IDS


def test_several_paths_and_globs_are_read_in_order_each_once(tmp_path):
    lines = sample_lines()
    first, second = write_jsonl(tmp_path / "a.jsonl", lines[:3]), write_jsonl(tmp_path / "b.jsonl", lines[3:])
    in_order = [g.interaction_id for g in check_questions([second, first]).golds]
    assert in_order == SAMPLE_IDS[3:] + SAMPLE_IDS[:3]
    assert [g.interaction_id for g in check_questions([str(tmp_path / "*.jsonl")]).golds] == SAMPLE_IDS
    assert len(check_questions([first, str(tmp_path / "*.jsonl")]).golds) == 8  # a.jsonl once
    unpacked(tmp_path / "more", lines[:2], shards=2)
    assert len(check_questions([str(tmp_path / "m*")]).golds) == 2  # a glob matching a folder reads it


def test_the_join_command_quotes_paths_and_lists_parts_past_nine():
    assert join_command(Path("/d/x y.tar.bz2")) == "cat '/d/x y.tar.bz2'.part* > '/d/x y.tar.bz2'"
    listed = join_command(Path("x.tar.bz2"), 11)
    assert listed.startswith("cat x.tar.bz2.part1 x.tar.bz2.part2 ")
    assert listed.endswith(".part10 x.tar.bz2.part11 > x.tar.bz2")


def test_a_folder_is_read_in_name_order_with_numbers_as_numbers(tmp_path):
    lines = sample_lines()
    for index, line in enumerate(lines):
        write_jsonl(tmp_path / "shards" / f"part_{index * 5}.jsonl", [line])  # part_0, part_5, part_10, ...
    (tmp_path / "shards" / "README.md").write_text("not data")
    (tmp_path / "shards" / "._part_0.jsonl").write_bytes(b"\x00\x05\x16\x07")  # a macOS resource fork
    assert [g.interaction_id for g in check_questions(tmp_path / "shards").golds] == SAMPLE_IDS


def test_a_folder_with_the_whole_archive_and_its_parts_reads_the_archive_once(tmp_path):
    archive = task3_archive(tmp_path / "downloads", sample_lines())
    split_parts(archive, 3)
    assert len(check_questions(tmp_path / "downloads").golds) == 8


def test_what_a_file_is_comes_from_its_bytes_not_its_name(tmp_path):
    lines = sample_lines()
    cases = {
        "questions.txt": bz2.compress(b"".join(lines)),
        "questions.jsonl": gzip.compress(b"".join(lines)),
        "questions.data": lzma.compress(b"".join(lines)),
        "plain.jsonl.bz2": b"".join(lines),  # named compressed, written plain
    }
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        assert _inputs(tmp_path / name) == _inputs(write_jsonl(tmp_path / "one.jsonl", lines)), name


def test_other_archives_and_members_are_read_and_other_files_skipped(tmp_path):
    lines = sample_lines()
    tar_gz = tmp_path / "questions.tgz"
    with tarfile.open(tar_gz, "w:gz") as tar:
        members = [("x/README.md", b"# notes"), ("x/q_1.jsonl.gz", gzip.compress(b"".join(lines[:4]))),
                   ("x/q_2.ndjson", b"".join(lines[4:]))]  # fmt: skip
        for name, content in members:
            member = tarfile.TarInfo(name)
            member.size = len(content)
            tar.addfile(member, io.BytesIO(content))
    zipped = tmp_path / "questions.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("__MACOSX/._q.jsonl", b"\x00\x05")
        archive.writestr("q/q.jsonl", b"".join(lines))
    for path in (tar_gz, zipped):
        assert [g.interaction_id for g in check_questions(path).golds] == SAMPLE_IDS


def test_crlf_a_bom_blank_lines_raw_tabs_and_unicode_are_read(tmp_path):
    records = [json.loads(line) for line in sample_lines(3)]
    records[1]["query"] = "wer schrieb „Faust“ — 作者是谁? 🎭"
    records[2]["query"] = "a raw\ttab, as some writers leave it"
    text = "\ufeff" + "\r\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\r\n\r\n  \r\n"
    text = text.replace("raw\\ttab", "raw\ttab")
    path = tmp_path / "windows.jsonl"
    path.write_bytes(text.encode("utf-8"))
    read = list(read_records(path, model_input=True))
    assert [r.gold.query for r in read] == [r["query"] for r in records]
    assert read[1].model_input["search_results"] == records[1]["search_results"]


def test_a_lone_surrogate_becomes_a_replacement_character_that_utf8_can_write(tmp_path):
    record = json.loads(sample_lines(1)[0])
    line = json.dumps(record).replace('"query": "what', '"query": "\\ud83d what', 1)
    page = record["search_results"][0]["page_snippet"]
    line = line.replace(json.dumps(page), json.dumps(page)[:-1] + ' \\udc00"', 1)
    (tmp_path / "broken_emoji.jsonl").write_text(line + "\n")
    (read,) = read_records(tmp_path / "broken_emoji.jsonl", model_input=True)
    assert read.gold.query.startswith("\ufffd what")
    assert read.model_input["search_results"][0]["page_snippet"].endswith(" \ufffd")
    json.dumps(read.model_input, ensure_ascii=False).encode("utf-8")  # no UnicodeEncodeError


def test_a_question_without_an_id_has_the_same_id_in_every_shape(tmp_path):
    lines = [json.dumps({k: v for k, v in json.loads(line).items() if k != "interaction_id"}).encode() + b"\n"
             for line in sample_lines()]  # fmt: skip
    one = [g.interaction_id for g in check_questions(write_jsonl(tmp_path / "one.jsonl", lines)).golds]
    archived = [g.interaction_id for g in check_questions(task3_archive(tmp_path, lines)).golds]
    assert one == archived and len(set(one)) == 8 and all(i.startswith("q-") for i in one)


def test_split_keeps_validation_or_public_test_questions_and_limit_stops_reading(tmp_path):
    records = [json.loads(line) | {"split": index % 2} for index, line in enumerate(sample_lines())]
    lines = [json.dumps(r).encode() + b"\n" for r in records] + [b"not json\n"]
    path = write_jsonl(tmp_path / "splits.jsonl.bz2", lines)
    assert [g.interaction_id for g in check_questions(path, split=1, limit=4).golds] == SAMPLE_IDS[1::2]
    assert [g.interaction_id for g in check_questions(path, split=0, limit=2).golds] == SAMPLE_IDS[0:4:2]
    with pytest.raises(DataError, match=":9: not valid JSON"):  # past the limit: read, refused
        check_questions(path, split=0)
    (tmp_path / "no_split.jsonl").write_bytes(b"".join(sample_lines()))
    with pytest.raises(DataError, match="none of its 8 questions is of --split 0 .validation.; 8 of them"):
        check_questions(tmp_path / "no_split.jsonl", split=0)


def test_the_check_pass_shows_a_progress_bar_on_large_inputs(tmp_path, monkeypatch, capsys):
    path = write_jsonl(tmp_path / "q.jsonl", sample_lines())
    check_questions(path)
    assert "checking the data" not in capsys.readouterr().err
    monkeypatch.setattr(data_module, "PROGRESS_MIN_BYTES", 1)
    check_questions(path)
    assert "checking the data" in capsys.readouterr().err


# --- bad input: one line naming the file, the line and the field ----------------------------------


def _record(**changes):
    record = json.loads(sample_lines(1)[0]) | changes
    return json.dumps({k: v for k, v in record.items() if v is not _DROP}).encode() + b"\n"


_DROP = object()


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], r"bad.jsonl: no questions in it \(the input is empty\)"),
        ([b"\n", b"  \r\n"], r"bad.jsonl: no questions in it"),
        ([b"{not json\n"], r"bad.jsonl:1: not valid JSON \(Expecting property name"),
        ([*sample_lines(), b'{"query": "cut short\n'], r"bad.jsonl:9: not valid JSON"),
        ([b"[1, 2]\n"], r"bad.jsonl:1: a list, not a JSON object"),
        ([b'{"query": ' + b"9" * 5000 + b"}\n"], r"bad.jsonl:1: not JSON this reader takes \(ValueError"),
        ([b"[" * 100_000 + b"]" * 100_000 + b"\n"], r":1: not JSON this reader takes \(RecursionError"),
        ([b"{\"query\": \"caf\xe9\"}\n"], r"bad.jsonl:1: not UTF-8 text \(byte 0xe9 at column 15\)"),
        ([_record(query=_DROP)], r"bad.jsonl:1: no 'query'"),
        ([_record(query=7)], r"bad.jsonl:1: 'query' is a number, not text"),
        ([_record(query="  ")], r"bad.jsonl:1: 'query' is empty"),
        ([_record(search_results=_DROP)], r"bad.jsonl:1: no 'search_results' \(the question's pages"),
        ([_record(search_results="<html>")], r"bad.jsonl:1: 'search_results' is text, not a list of pages"),
        ([_record(search_results=None)], r"bad.jsonl:1: 'search_results' is null, not a list"),
        ([_record(search_results=["<html>"])], r"bad.jsonl:1: 'search_results'\[0\] is text, not a page"),
        ([_record(search_results=[{"url": "x"}])], r"'search_results'\[0\] has none of the page fields"),
        ([_record(search_results=[{"page_result": 5}])], r"'search_results'\[0\].page_result is a number"),
        ([_record(query_time=_DROP)], r"bad.jsonl:1: no 'query_time'"),
        ([_record(query_time="yesterday")], r"bad.jsonl:1: 'query_time' 'yesterday' is not a time"),
        ([_record(answer=["a"])], r"bad.jsonl:1: 'answer' is a list, not text"),
        ([_record(interaction_id={"id": 1})], r"bad.jsonl:1: 'interaction_id' is an object, not text"),
        ([_record(), _record()], r"bad.jsonl:2: interaction_id 'sample-01-capital' is already the id of "
                                 r".*bad.jsonl:1"),
    ],
)  # fmt: skip
def test_a_bad_record_is_refused_in_one_line_naming_the_file_line_and_field(tmp_path, lines, message):
    path = write_jsonl(tmp_path / "bad.jsonl", lines)
    with pytest.raises(DataError, match=message) as refused:
        check_questions(path)
    assert "\n" not in str(refused.value)


def test_bad_pages_inside_a_valid_record_are_left_to_the_web_stage(tmp_path):
    pages = [{"page_name": "none", "page_result": None}, {"page_result": "plain text, no HTML"},
             {"page_name": "big", "page_result": "<p>" + "x" * 3_000_000 + "</p>"},
             {"page_snippet": "only"}]  # fmt: skip
    path = write_jsonl(tmp_path / "pages.jsonl", [_record(search_results=pages), _record(
        interaction_id="no-pages", search_results=[])])  # fmt: skip
    assert [len(r.model_input["search_results"]) for r in read_records(path, model_input=True)] == [4, 0]


def test_a_record_in_an_archive_is_located_by_archive_member_and_line(tmp_path):
    lines = sample_lines()
    lines[5] = _record(interaction_id="x", search_results=_DROP)
    archive = task3_archive(tmp_path, lines)
    with pytest.raises(DataError, match=rf"{TASK3}.tar.bz2:{TASK3}/{TASK3}_1.jsonl:3: no 'search_results'"):
        check_questions(archive)


def test_truncated_and_corrupt_compressed_files_are_refused_after_the_last_line_read(tmp_path):
    compressed = bz2.compress(b"".join(many_lines(150)))  # several bz2 blocks
    (tmp_path / "cut.jsonl.bz2").write_bytes(compressed[: len(compressed) * 3 // 4])
    with pytest.raises(DataError, match=r"cut.jsonl.bz2: the file is truncated after .*cut.jsonl.bz2:\d+ "
                                        r"\(Compressed file ended.*download it again"):  # fmt: skip
        check_questions(tmp_path / "cut.jsonl.bz2")
    corrupt = bytearray(compressed)
    corrupt[len(corrupt) // 2] ^= 0xFF
    (tmp_path / "corrupt.jsonl.bz2").write_bytes(bytes(corrupt))
    # bz2 checks a block at its end: the garbled line before that is named, with the damage found past it
    with pytest.raises(DataError, match=r"corrupt.jsonl.bz2:\d+: not valid JSON .*, and the file is damaged "
                                        r"there \(Invalid data stream\): download it again$"):  # fmt: skip
        check_questions(tmp_path / "corrupt.jsonl.bz2")
    header = bytearray(compressed)
    header[:3] = b"XYZ"
    (tmp_path / "header.jsonl.bz2").write_bytes(bytes(header))
    with pytest.raises(DataError, match=r"header.jsonl.bz2: named like a .bz2 file but neither compressed"):
        check_questions(tmp_path / "header.jsonl.bz2")


def _file(path, content):
    path.write_bytes(content)
    return path


def _folder(path):
    path.mkdir()
    return path


def test_a_missing_part_is_refused_with_the_command_that_joins_them(tmp_path):
    archive = task3_archive(tmp_path / "full", sample_lines())
    parts = split_parts(archive, 4, into=tmp_path / "gap")
    parts[1].unlink()
    with pytest.raises(DataError, match=r"part 2 of the split file is missing.*join them: cat .*"
                                        rf"{TASK3}.tar.bz2.part\* > .*{TASK3}.tar.bz2$"):  # fmt: skip
        check_questions(parts[0])
    last_missing = split_parts(archive, 4, into=tmp_path / "short")
    last_missing[3].unlink()
    with pytest.raises(DataError, match=r"part1..part3:.*the parts end before the file does.*join them: cat"):
        check_questions(last_missing[0])


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda tmp: tmp / "nowhere.jsonl", r"No data file .*nowhere.jsonl: pass --data"),
        (lambda tmp: str(tmp / "*.nothing"), r"No file matches --data .*\*.nothing"),
        (lambda tmp: _folder(tmp / "empty_folder"), r"empty_folder is a folder with no"),
        (lambda tmp: task3_archive(tmp, [], shards=1, member_suffix=".txt"), r"holds no JSONL member"),
        (lambda tmp: _file(tmp / "q.zst", b"\x28\xb5\x2f\xfd" + b"\0" * 600), r"q.zst: zstd-compressed"),
    ],
)  # fmt: skip
def test_data_that_is_not_there_is_refused_saying_what_to_pass(tmp_path, make, message):
    with pytest.raises(DataError, match=message):
        check_questions(make(tmp_path))


def test_questions_alone_are_read_when_no_model_reads_them(tmp_path):
    question = {"interaction_id_prefix": "v1", "query": "q", "answer": "a"}
    path = _write(tmp_path / "questions.jsonl", [question])
    assert [r.gold.interaction_id for r in read_records(path)] == ["v1"]
    with pytest.raises(DataError, match="no 'query_time'"):
        list(read_records(path, model_input=True))
    with pytest.raises(ValueError, match="Record x: no 'query'"):
        parse_record({"answer": "a"}, "x")


def test_limit_and_validation_file_prefix_ids(shared_data):
    records = list(read_records(shared_data / "crag_questions_validation.jsonl", limit=3))
    assert len(records) == 3
    assert all(r.gold.interaction_id and r.gold.labels.get("domain") for r in records)

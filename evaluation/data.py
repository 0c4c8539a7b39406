"""CRAG questions for local evaluation: the records of `--data` (every shape the official files ship
in: evaluation/sources.py), checked against the schema the package relies on.

Both public schemas are accepted: the older dev files (`alternative_answers` as a JSON string) and
the later ones (`alt_ans` as a list). Task 3's files run to gigabytes, so records are streamed, twice:
`check_questions` reads every record the run will use before any model is built (one pass, with a
progress bar on large inputs; the run's question count comes from it) and stops at the first bad
one with one line naming the file, the line and the field; `read_records` streams them again for
the run, and the pages of a question are dropped once the system has seen them.

A question is known by its `interaction_id` (without one: by a digest of its query and time), the
same whichever shape it is read from, so that a run resumes from any of them.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from evaluation.sources import BrokenFile, DataError, Line, Source, find_sources, read_lines
from models.kg.timeparse import parse_query_time

__all__ = [
    "BREAKDOWN_FIELDS", "MODEL_INPUT_FIELDS", "PAGE_FIELDS", "QUESTION_TYPES", "SPLITS", "CragRecord",
    "DataError", "GoldQuestion", "Questions", "check_questions", "parse_alternatives",
    "parse_record", "read_records", "to_batch",
]  # fmt: skip

# What the official evaluator hands the system; everything else in a record is gold data.
MODEL_INPUT_FIELDS = ("interaction_id", "query", "search_results", "query_time")
BREAKDOWN_FIELDS = ("domain", "question_type", "static_or_dynamic", "popularity")
# CRAG's eight question types (the records' `question_type`).
QUESTION_TYPES = (
    "simple",
    "simple_w_condition",
    "set",
    "comparison",
    "aggregation",
    "multi-hop",
    "post-processing",
    "false_premise",
)
PAGE_FIELDS = ("page_name", "page_url", "page_snippet", "page_result", "page_last_modified")
# CRAG's `split` field.
SPLITS = {0: "validation", 1: "public test"}
# Inputs this large get a progress bar of their own while they are checked.
PROGRESS_MIN_BYTES = 64 << 20
# A compressed file damaged in the middle may yield garbled lines before its decompressor notices
# (bz2 checks a block of up to 900 kB at its end): past a bad line, this much more is read to tell.
READ_AHEAD_BYTES = 2 << 20

_BOM = codecs.BOM_UTF8
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

DataPaths = str | Path | Sequence[str | Path] | Sequence[Source]


@dataclass
class GoldQuestion:
    """A question with its gold answers and labels, without the (large) pages."""

    interaction_id: str
    query: str
    answer: str
    alternative_answers: list[str] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)  # domain, question_type, ... when present

    @property
    def answers(self) -> list[str]:
        """The ground truth first, then every distinct alternative."""
        seen = [self.answer]
        for alternative in self.alternative_answers:
            if alternative not in seen:
                seen.append(alternative)
        return seen


@dataclass
class CragRecord:
    gold: GoldQuestion
    model_input: dict[str, Any]  # interaction_id, query, search_results, query_time


@dataclass
class Questions:
    """What the check pass found: the questions the run will use (their gold data, in order), the
    sources they come from, and how many records were read to find them."""

    sources: list[Source]
    golds: list[GoldQuestion]
    records_read: int

    @property
    def label(self) -> str:
        return ", ".join(source.label for source in self.sources)


def check_questions(
    data: DataPaths, *, split: int | None = None, limit: int | None = None, progress: bool = True
) -> Questions:
    """Read and check, before any model is built, every record the run will use (the first `limit`
    of `split`): one streamed pass; the first bad record, or an input without questions, raises
    DataError in one line."""
    sources = _sources(data)
    total = sum(source.size for source in sources)
    golds: list[GoldQuestion] = []
    with tqdm(
        total=total, unit="B", unit_scale=True, desc="checking the data", leave=False,
        disable=not progress or total < PROGRESS_MIN_BYTES,
    ) as bar:  # fmt: skip
        selection = _Selection(sources, split, limit, model_input=True, on_bytes=bar.update)
        for raw, interaction_id in selection:
            golds.append(_gold(raw, interaction_id))
    return Questions(sources, golds, selection.read)


def read_records(
    data: DataPaths, limit: int | None = None, *, split: int | None = None, model_input: bool = False
) -> Iterator[CragRecord]:
    """Yield the first `limit` records (all when None) of `split` (all when None). With
    `model_input`, each is checked as `check_questions` checks it (the run's input); otherwise only
    a `query` is required (files of questions alone, such as the validation questions)."""
    for raw, interaction_id in _Selection(_sources(data), split, limit, model_input):
        yield _record(raw, interaction_id)


def parse_record(raw: dict[str, Any], fallback_id: str | None = None) -> CragRecord:
    """A record as the run uses it; `fallback_id` names a record without an `interaction_id` (by
    default a digest of its query and time)."""
    problem = _lenient_problem(raw)
    if problem:
        raise ValueError(f"Record {fallback_id}: {problem}" if fallback_id else f"Record: {problem}")
    return _record(raw, _interaction_id(raw) or fallback_id or _content_id(raw))


def parse_alternatives(value: Any) -> list[str]:
    """`alt_ans` / `alternative_answers`: a list, a JSON string holding a list, or nothing."""
    if value is None:
        return []
    if isinstance(value, str):
        stripped = value.strip()
        if not stripped:
            return []
        try:
            value = json.loads(stripped)
        except (ValueError, RecursionError):
            return [stripped]
    if not isinstance(value, list):
        value = [value]
    return [_text(item) for item in value if _text(item).strip()]


def to_batch(records: list[CragRecord]) -> dict[str, list[Any]]:
    """The official batch layout: a dict of equal-length lists."""
    return {name: [record.model_input[name] for record in records] for name in MODEL_INPUT_FIELDS}


class _Selection:
    """The records of the sources, parsed and checked, as (record, interaction_id), stopping
    after `limit` of `split`; `read` counts the records read. Raises DataError at the first bad one,
    at a repeated id, and at the end when nothing was selected."""

    def __init__(
        self,
        sources: list[Source],
        split: int | None,
        limit: int | None,
        model_input: bool,
        on_bytes: Any = None,
    ):
        self.sources, self.split, self.limit, self.model_input = sources, split, limit, model_input
        self.on_bytes = on_bytes
        self.read = 0

    def __iter__(self) -> Iterator[tuple[dict[str, Any], str]]:
        lines = read_lines(self.sources, self.on_bytes)
        try:
            yield from self._select(lines)
        finally:
            lines.close()  # closes the files at once when the limit is reached

    def _select(self, lines: Iterator[Line]) -> Iterator[tuple[dict[str, Any], str]]:
        first_seen: dict[str, str] = {}
        selected = without_split = 0
        for line in lines:
            if self.limit is not None and selected >= self.limit:
                return
            where = f"{line.where}:{line.number}"
            try:
                raw = _parse_line(line)
                problem = None if raw is None else _record_problem(raw, self.model_input)
                if problem:
                    raise DataError(f"{where}: {problem}")
            except DataError as bad_line:
                raise _damage_past(lines, bad_line) from None
            if raw is None:
                continue
            self.read += 1
            interaction_id = _interaction_id(raw) or _content_id(raw)
            if interaction_id in first_seen:
                raise DataError(
                    f"{where}: interaction_id {interaction_id!r} is already the id of "
                    f"{first_seen[interaction_id]} (a file named twice, or two shapes of the same data?)"
                )
            first_seen[interaction_id] = where
            if self.split is not None:
                record_split = _split(raw.get("split"), where)
                without_split += record_split is None
                if record_split != self.split:
                    continue
            selected += 1
            yield raw, interaction_id
        if not self.read:
            raise DataError(f"{self._label()}: no questions in it (the input is empty)")
        if not selected:
            missing = f"; {without_split} of them have no 'split' field" if without_split else ""
            raise DataError(
                f"{self._label()}: none of its {self.read} questions is of --split {self.split} "
                f"({SPLITS.get(self.split or 0, '?')}){missing}"
            )

    def _label(self) -> str:
        return ", ".join(source.label for source in self.sources)


def _damage_past(lines: Iterator[Line], bad_line: DataError) -> DataError:
    """`bad_line`, or, when the file turns out damaged just past it, that (the likelier cause)."""
    ahead = 0
    try:
        for line in lines:
            ahead += len(line.text)
            if ahead > READ_AHEAD_BYTES:
                break
    except BrokenFile as broken:
        return DataError(f"{bad_line}, and the file is damaged there ({broken.reason}): download it again")
    return bad_line


def _record_problem(raw: dict[str, Any], model_input: bool) -> str | None:
    return _model_input_problem(raw) if model_input else _lenient_problem(raw)


def _sources(data: DataPaths) -> list[Source]:
    """The sources `data` names: paths as `--data` takes them, or sources found before."""
    items = [data] if isinstance(data, (str, Path)) else list(data)
    sources = [item for item in items if isinstance(item, Source)]
    paths = [item for item in items if not isinstance(item, Source)]
    if sources and paths:
        raise TypeError("pass paths or sources, not both")
    return sources or find_sources(paths)


def _parse_line(line: Line) -> dict[str, Any] | None:
    """The JSON object of a line; None for a blank line. Raises DataError naming the line."""
    text = line.text
    if not text or text.isspace() or (len(text) < 16 and not text.replace(_BOM, b"").strip()):
        return None
    where = f"{line.where}:{line.number}"
    try:
        raw = json.loads(text, strict=False)  # a raw tab or CR inside a string is taken as written
    except json.JSONDecodeError as error:
        raise DataError(f"{where}: not valid JSON ({error.msg} at column {error.colno})") from None
    except UnicodeDecodeError as error:
        raise DataError(f"{where}: not UTF-8 text (byte {error.object[error.start]:#04x} at "
                        f"column {error.start + 1})") from None  # fmt: skip
    except (ValueError, RecursionError) as error:  # a number of 4,300 digits and more; nesting too deep
        raise DataError(f"{where}: not JSON this reader takes ({type(error).__name__}: {error})") from None
    if not isinstance(raw, dict):
        raise DataError(f"{where}: {_kind(raw)}, not a JSON object (one question per line)")
    return raw


def _lenient_problem(raw: Any) -> str | None:
    if not isinstance(raw, dict):
        return f"{_kind(raw)}, not a JSON object"
    if "query" not in raw:
        return "no 'query' (the question)"
    if not isinstance(raw["query"], str):
        return f"'query' is {_kind(raw['query'])}, not text"
    return None


def _model_input_problem(raw: dict[str, Any]) -> str | None:
    """What keeps a record from being the system's input (None: nothing)."""
    problem = _lenient_problem(raw)
    if problem:
        return problem
    if not raw["query"].strip():
        return "'query' is empty"
    identity = raw.get("interaction_id")
    if identity is not None and (isinstance(identity, bool) or not isinstance(identity, (str, int))):
        return f"'interaction_id' is {_kind(identity)}, not text"
    if "query_time" not in raw:
        return "no 'query_time' (when the question was asked, such as '03/10/2024, 23:34:42 PT')"
    if not isinstance(raw["query_time"], str) or parse_query_time(raw["query_time"]) is None:
        return f"'query_time' {raw['query_time']!r} is not a time such as '03/10/2024, 23:34:42 PT'"
    if isinstance(raw.get("answer"), (list, dict)):
        return f"'answer' is {_kind(raw['answer'])}, not text"
    return _pages_problem(raw)


def _pages_problem(raw: dict[str, Any]) -> str | None:
    if "search_results" not in raw:
        return (
            "no 'search_results' (the question's pages; a file of questions alone, such as the "
            "validation questions, cannot be answered)"
        )
    pages = raw["search_results"]
    if not isinstance(pages, list):
        return f"'search_results' is {_kind(pages)}, not a list of pages"
    for index, page in enumerate(pages):
        if not isinstance(page, dict):
            return f"'search_results'[{index}] is {_kind(page)}, not a page (an object with page_ fields)"
        if not any(name in page for name in PAGE_FIELDS):
            return f"'search_results'[{index}] has none of the page fields ({', '.join(PAGE_FIELDS)})"
        for name in PAGE_FIELDS:
            value = page.get(name)
            if value is not None and not isinstance(value, str):
                return f"'search_results'[{index}].{name} is {_kind(value)}, not text"
    return None


def _split(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise DataError(f"{where}: 'split' is {value!r}, not 0 (validation) or 1 (public test)")


def _interaction_id(raw: dict[str, Any]) -> str:
    identity = raw.get("interaction_id") or raw.get("interaction_id_prefix")
    return _clean(str(identity)) if identity not in (None, "") else ""


def _content_id(raw: dict[str, Any]) -> str:
    """The id of a record without one: its query and time, the same whichever file holds it."""
    key = f"{raw.get('query')}\n{raw.get('query_time') or ''}".encode("utf-8", "surrogatepass")
    return "q-" + hashlib.sha256(key).hexdigest()[:16]


def _gold(raw: dict[str, Any], interaction_id: str) -> GoldQuestion:
    return GoldQuestion(
        interaction_id=interaction_id,
        query=_clean(raw["query"]),
        answer=_text(raw.get("answer")),
        alternative_answers=parse_alternatives(raw.get("alt_ans", raw.get("alternative_answers"))),
        labels={name: _text(raw[name]) for name in BREAKDOWN_FIELDS if raw.get(name) not in (None, "")},
    )


def _record(raw: dict[str, Any], interaction_id: str) -> CragRecord:
    gold = _gold(raw, interaction_id)
    pages = raw.get("search_results") or []
    model_input = {
        "interaction_id": interaction_id,
        "query": gold.query,
        "search_results": [_clean_page(page) for page in pages] if isinstance(pages, list) else [],
        "query_time": _clean(_text(raw.get("query_time"))),
    }
    return CragRecord(gold=gold, model_input=model_input)


def _clean_page(page: Any) -> Any:
    if not isinstance(page, dict):
        return page
    return {name: _clean(value) if isinstance(value, str) else value for name, value in page.items()}


def _clean(text: str) -> str:
    """`text` without lone surrogates (a JSON escape of half an emoji), which no UTF-8 writer or
    tokenizer accepts: each becomes U+FFFD."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub("\ufffd", text)
    return text


def _kind(value: Any) -> str:
    """A JSON value's kind, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _text(value: Any) -> str:
    if value is None:
        return ""
    return _clean(value) if isinstance(value, str) else str(value)

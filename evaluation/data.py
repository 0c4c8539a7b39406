"""Reading CRAG question files (jsonl or jsonl.bz2) for local evaluation.

Both public schemas are accepted: the older dev files (`alternative_answers` as a JSON string) and
the later ones (`alt_ans` as a list). Files of the 50-page task run to gigabytes, so records are
streamed and the pages of a question are dropped once the system has seen them.
"""

from __future__ import annotations

import bz2
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

# What the official evaluator hands the system; everything else in a record is gold data.
MODEL_INPUT_FIELDS = ("interaction_id", "query", "search_results", "query_time")
BREAKDOWN_FIELDS = ("domain", "question_type", "static_or_dynamic", "popularity")


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


def open_text(path: str | Path):
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"Data file {path} does not exist")
    if path.suffix == ".bz2":
        return bz2.open(path, "rt", encoding="utf-8")
    return path.open("r", encoding="utf-8")


def read_records(path: str | Path, limit: int | None = None) -> Iterator[CragRecord]:
    """Yield the first `limit` records of a CRAG file (all when `limit` is None)."""
    seen_ids: set[str] = set()
    with open_text(path) as stream:
        count = 0
        for line_number, line in enumerate(stream, start=1):
            if limit is not None and count >= limit:
                return
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}:{line_number} is not valid JSON: {error}") from None
            record = parse_record(raw, fallback_id=f"line-{line_number}")
            if record.gold.interaction_id in seen_ids:
                raise ValueError(
                    f"{path}:{line_number} repeats interaction_id {record.gold.interaction_id!r}"
                )
            seen_ids.add(record.gold.interaction_id)
            count += 1
            yield record


def count_questions(path: str | Path, limit: int | None = None) -> int:
    """Non-empty lines of the file (for the progress bar), without parsing them."""
    with open_text(path) as stream:
        count = sum(1 for line in stream if line.strip())
    return count if limit is None else min(count, limit)


def parse_record(raw: dict[str, Any], fallback_id: str) -> CragRecord:
    if not isinstance(raw, dict) or not isinstance(raw.get("query"), str):
        raise ValueError(f"Record {fallback_id} has no 'query' string")
    interaction_id = str(raw.get("interaction_id") or raw.get("interaction_id_prefix") or fallback_id)
    gold = GoldQuestion(
        interaction_id=interaction_id,
        query=raw["query"],
        answer=_text(raw.get("answer")),
        alternative_answers=parse_alternatives(raw.get("alt_ans", raw.get("alternative_answers"))),
        labels={name: _text(raw[name]) for name in BREAKDOWN_FIELDS if raw.get(name) not in (None, "")},
    )
    model_input = {
        "interaction_id": interaction_id,
        "query": raw["query"],
        "search_results": raw.get("search_results") or [],
        "query_time": _text(raw.get("query_time")),
    }
    return CragRecord(gold=gold, model_input=model_input)


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
        except json.JSONDecodeError:
            return [stripped]
    if not isinstance(value, list):
        value = [value]
    return [_text(item) for item in value if _text(item).strip()]


def to_batch(records: list[CragRecord]) -> dict[str, list[Any]]:
    """The official batch layout: a dict of equal-length lists."""
    return {name: [record.model_input[name] for record in records] for name in MODEL_INPUT_FIELDS}


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)

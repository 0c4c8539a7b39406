"""Labelled questions (the format of the CRAG validation file: one JSON object a line)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

DOMAINS = ("finance", "sports", "music", "movie", "open")
DYNAMISM = ("static", "slow-changing", "fast-changing", "real-time")


def is_dynamic(dynamism: str) -> bool:
    """Binary view of the four dynamism labels: anything but "static" may change over time."""
    return dynamism != "static"


@dataclass(frozen=True)
class LabelledQuestion:
    query: str
    domain: str
    static_or_dynamic: str
    query_time: str = ""


def load_labelled(path: str | Path) -> list[LabelledQuestion]:
    """Every line must hold `query`, `domain` and `static_or_dynamic` with known labels."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"Labelled question file {path} does not exist")
    questions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            question = LabelledQuestion(
                query=str(row["query"]),
                domain=str(row["domain"]).strip().lower(),
                static_or_dynamic=str(row["static_or_dynamic"]).strip().lower(),
                query_time=str(row.get("query_time") or ""),
            )
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise ValueError(
                f"{path}:{number}: expected a JSON object with query, domain, static_or_dynamic ({error})"
            ) from None
        if question.domain not in DOMAINS or question.static_or_dynamic not in DYNAMISM:
            raise ValueError(
                f"{path}:{number}: unknown label domain={question.domain!r} static_or_dynamic="
                f"{question.static_or_dynamic!r}; expected one of {DOMAINS} and {DYNAMISM}"
            )
        questions.append(question)
    if not questions:
        raise ValueError(f"{path} holds no labelled questions")
    return questions

"""The sealed KG set (benchmarks/kg_sealed.py): its selection is the mechanical one it states. Skips
cleanly without ../shared/data. The checks print no question, gold answer or fact of the set."""

from __future__ import annotations

import json

import pytest

from benchmarks import kg_real, kg_sealed

LABELS = kg_real.REPO_ROOT / "benchmarks" / "answer_checker_labels.jsonl"
REAL_KEYS = {question.key for question in kg_real.QUESTIONS}


@pytest.fixture(scope="module")
def records() -> dict[str, dict]:
    if not kg_real.VALIDATION.is_file():
        pytest.skip(f"{kg_real.VALIDATION} is absent")
    return kg_real.read_validation()


def problems(records, taken=None, skipped=None, already_read=None) -> list[str]:
    return kg_sealed.selection_problems(
        records,
        REAL_KEYS,
        kg_sealed.TAKEN if taken is None else taken,
        kg_sealed.SKIPPED if skipped is None else skipped,
        kg_sealed.ALREADY_READ if already_read is None else already_read,
    )


def test_the_selection_is_the_start_of_the_hash_order(records):
    assert problems(records) == []


def test_a_selection_off_the_rule_is_reported(records):
    taken, skipped = kg_sealed.TAKEN, kg_sealed.SKIPPED
    first_skip = next(iter(skipped))
    assert "the questions taken are not in the selection's order" in problems(records, taken=taken[::-1])
    assert f"{first_skip} is neither taken nor passed over" in problems(
        records, skipped={k: v for k, v in skipped.items() if k != first_skip}
    )
    assert f"{taken[0]} is both taken and passed over" in problems(
        records, skipped={**skipped, taken[0]: "x"}
    )
    assert f"{first_skip} has no one-line reason" in problems(records, skipped={**skipped, first_skip: " "})
    assert "39 distinct questions taken, not 40" in problems(
        records, taken=taken[:-1], skipped={**skipped, taken[-1]: "x"}
    )
    real_key = kg_real.QUESTIONS[0].key
    assert f"{real_key} is not a candidate" in problems(records, skipped={**skipped, real_key: "x"})
    later = kg_sealed.selection_order(
        k for k, row in records.items() if row["domain"] in kg_sealed.SELECTION_DOMAINS and k not in REAL_KEYS
    )[-1]
    assert f"{later} comes after the last question taken" in problems(
        records, skipped={**skipped, later: "x"}
    )


def test_the_selection_order_is_fixed_by_the_salted_hash():
    assert kg_sealed.selection_order(["b", "a", "c"]) == kg_sealed.selection_order(["c", "b", "a"])
    assert kg_sealed.selection_order(["2ce829dc", "5c488256"]) == ["5c488256", "2ce829dc"]


def test_no_sealed_question_is_in_the_real_wording_set_or_was_read_before():
    labelled = {
        json.loads(line)["question"] for line in LABELS.read_text(encoding="utf-8").splitlines() if line
    }
    assert not set(kg_sealed.TAKEN) & (REAL_KEYS | labelled)
    assert set(kg_sealed.ALREADY_READ) <= labelled

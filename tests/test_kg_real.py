"""The real-wording KG set (benchmarks/kg_real.py): every gold answer is derivable from the routes of our
mock of the official server on the real-wording KG (kg_mock/real_fixture.py), every answer fact is in
those routes' answers, and the set covers what it claims. Skips cleanly without ../shared/data."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from benchmarks import kg_real
from benchmarks.kg import Case, answered
from kg_mock.real_fixture import cached_real_fixture_dir
from evaluation.data import QUESTION_TYPES
from models.kg import KGResult
from models.kg.entities import KGEntities

DOMAINS = {"finance", "movie", "music", "sports"}


@pytest.fixture(scope="module")
def records() -> dict[str, dict]:
    if not kg_real.VALIDATION.is_file():
        pytest.skip(f"{kg_real.VALIDATION} is absent")
    return kg_real.read_validation()


@pytest.fixture(scope="module")
def post():
    return kg_real.in_process_api(cached_real_fixture_dir())


@pytest.mark.parametrize("question", kg_real.QUESTIONS, ids=lambda q: q.key)
def test_gold_answer_is_derivable_from_the_mock(question, records, post):
    assert question.key in records
    assert kg_real.problems(question, records[question.key], post) == []


def test_a_wrong_derivation_is_reported(records, post):
    question = next(
        q for q in kg_real.QUESTIONS if q.key == "2937d471"
    )  # colm's volume on the last trading day

    def invented(api: kg_real.Api) -> kg_real.Derivation:
        right = question.derive(api)
        return kg_real.Derivation("464801", [[*right.facts[0], "999999"]], ["123456", right.facts[0][0]])

    found = kg_real.problems(
        kg_real.RealQuestion(question.key, question.query_time, {}, invented), records[question.key], post
    )
    assert "fact '999999' is not in the routes' answers" in found
    assert any(problem.endswith("is also a fact") for problem in found)
    assert any(problem.startswith("derived answer '464801' is wrong") for problem in found)


def test_the_set_covers_every_domain_and_question_type_in_both_splits(records):
    assert len(kg_real.QUESTIONS) >= 60
    assert len({q.key for q in kg_real.QUESTIONS}) == len(kg_real.QUESTIONS)
    for split in ("tune", "held-out"):
        picked = [records[q.key] for q in kg_real.QUESTIONS if kg_real.split_of(q.key) == split]
        assert {r["domain"] for r in picked} == DOMAINS
    types = Counter(records[q.key]["question_type"] for q in kg_real.QUESTIONS)
    assert set(types) == set(QUESTION_TYPES)


def test_the_split_is_fixed_by_the_key():
    assert [kg_real.split_of(q.key) for q in kg_real.QUESTIONS] == [
        kg_real.split_of(q.key) for q in kg_real.QUESTIONS
    ]
    shares = Counter(kg_real.split_of(q.key) for q in kg_real.QUESTIONS)
    assert 0.25 <= shares["held-out"] / len(kg_real.QUESTIONS) <= 0.5
    assert kg_real.split_of("2937d471") == kg_real.split_of("2937d471")


def test_entities_are_kg_entity_fields():
    for question in kg_real.QUESTIONS:
        KGEntities(**question.entities)


def test_answered_takes_any_one_alternative_whole():
    case = Case(
        "q",
        "03/10/2024, 12:00:00 PT",
        "finance",
        KGEntities(),
        ["1"],
        alternatives=[["402300", "356800"], ["759100"]],
    )
    assert answered(case, KGResult(references=["volumes 402300 and 356800"]))
    assert answered(case, KGResult(references=["total 759100 shares"]))
    assert not answered(case, KGResult(references=["volumes 402300 and 356801"]))
    assert not answered(case, KGResult(references=[]))


def test_the_benchmark_skips_without_the_validation_file(monkeypatch, capsys):
    from benchmarks import kg

    monkeypatch.setattr(kg_real, "VALIDATION", Path("/nonexistent/crag_questions_validation.jsonl"))
    kg.run_real_benchmark(kg.argparse.Namespace(preset="cpu", set=[]))
    assert "is absent" in capsys.readouterr().out


def test_the_report_counts_per_split_domain_and_question_type(capsys):
    from benchmarks.kg import Run, report_real

    def case(key: str, split: str, domain: str, question_type: str) -> Case:
        return Case(
            key,
            "03/10/2024, 12:00:00 PT",
            domain,
            KGEntities(),
            ["x"],
            alternatives=[["402300"]],
            key=key,
            split=split,
            question_type=question_type,
            near_misses=["512400"],
        )

    cases = [case("a", "tune", "finance", "simple"), case("b", "held-out", "movie", "set")]
    results = [
        KGResult(references=["402300 shares, 512400 the day before"], calls=["one", "two"], seconds=0.5),
        KGResult(references=["nothing"], calls=["one"], seconds=0.25),
    ]
    report_real([(Run("ours", results), cases)], show_misses=True)
    out = capsys.readouterr().out
    assert "1/1" in out and "0/1" in out  # tune found, held-out missed
    assert "finance 1/1, movie 0/1" in out and "set 0/1, simple 1/1" in out
    assert "near misses shown ['512400']" in out and "missing ['402300']" in out

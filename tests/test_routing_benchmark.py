"""benchmarks/routing.py: worths fitted per class, policies scored on a run, held out by folds."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from benchmarks import routing
from evaluation.answer_match import Verdict
from evaluation.data import CragRecord, GoldQuestion
from models.config import load_config
from models.schema import QuestionAttributes


def case(dynamism: str, verdict: Verdict, dynamic: float, source: str = "a", domain: str = "movie") -> routing.Case:
    shares = {"static": 1 - dynamic, dynamism: dynamic} if dynamism != "static" else {"static": 1.0}
    attributes = QuestionAttributes(domain=domain, dynamic_probability=dynamic, dynamism_probabilities=shares)
    record = CragRecord(GoldQuestion("id", "q?", "a"), {})
    return routing.Case(record, source, dynamism, attributes, verdict)


def test_fitted_worths_are_class_means_shrunk_toward_zero():
    cases = [case("static", Verdict.CORRECT, 0.1)] * 3 + [case("real-time", Verdict.WRONG, 0.9)] * 2
    scores = routing.fit_scores(cases, prior=2.0)
    assert scores["static"] == pytest.approx(3 / 5)
    assert scores["real-time"] == pytest.approx(-2 / 4)
    assert scores["slow-changing"] == 0.0
    assert routing.fit_scores(cases, prior=0.0)["static"] == 1.0


def test_a_refused_question_scores_zero_and_an_answered_one_its_verdict():
    cases = [case("static", Verdict.CORRECT, 0.1), case("real-time", Verdict.WRONG, 0.9), case("static", Verdict.UNSURE, 0.1)]
    assert routing.tally(cases, [True, True, True]) == {"correct": 1, "wrong": 1, "refused": 0, "score": 0.0}
    assert routing.tally(cases, [True, False, True])["score"] == pytest.approx(1 / 3)


def test_fitted_worths_refuse_the_class_that_loses():
    cases = [case("static", Verdict.CORRECT, 0.1)] * 4 + [case("real-time", Verdict.WRONG, 0.9)] * 4
    scores = routing.fit_scores(cases, prior=2.0)
    assert routing.answered_by_scores(cases[0], scores)
    assert not routing.answered_by_scores(cases[-1], scores)


def test_held_out_routes_each_question_by_worths_fitted_without_it():
    # A lone real-time question that was answered right: fitted on the others only (nothing
    # real-time), its class is worth 0 and it is answered; fitted on itself it would be worth more.
    cases = [case("static", Verdict.CORRECT, 0.1)] * 3 + [case("real-time", Verdict.CORRECT, 0.9)]
    answered = routing.held_out(cases, [[0], [1], [2], [3]], prior=2.0)
    assert answered == [True, True, True, True]
    losing = [case("real-time", Verdict.WRONG, 0.9)] * 3 + [case("real-time", Verdict.CORRECT, 0.9)]
    assert routing.held_out(losing, [[0], [1], [2], [3]], prior=2.0)[3] is False


def test_the_rule_before_refuses_by_domain_threshold():
    assert not routing.answered_by_rule_before(case("real-time", Verdict.WRONG, 0.6, domain="finance"))
    assert routing.answered_by_rule_before(case("real-time", Verdict.WRONG, 0.6, domain="movie"))


def test_a_run_that_refused_for_dynamism_is_refused_with_the_fix(tmp_path: Path):
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"interaction_id": "x", "prediction": "I don't know", "route": "refused: dynamic"}) + "\n")
    with pytest.raises(SystemExit, match="refuse_below=-1"):
        routing.load_cases(answers, [], tmp_path)


def test_a_missing_answers_file_is_named(tmp_path: Path):
    with pytest.raises(SystemExit, match="does not exist"):
        routing.load_cases(tmp_path / "nope.jsonl", [], tmp_path)


def test_the_shipped_worths_answer_exactly_what_the_rule_before_answered():
    rng = np.random.default_rng(1)
    shipped = load_config("cpu").attributes.answer_score
    for _ in range(2000):
        domain = str(rng.choice(["finance", "sports", "music", "movie", "open"]))
        dynamic = float(rng.uniform())
        shares = dict(zip(["slow-changing", "fast-changing", "real-time"], map(float, rng.dirichlet([1, 1, 1]))))
        attributes = QuestionAttributes(domain=domain, dynamic_probability=dynamic, dynamism_probabilities=shares)
        record = CragRecord(GoldQuestion("id", "q?", "a"), {})
        one = routing.Case(record, "a", "static", attributes, Verdict.CORRECT)
        assert routing.answered_by_scores(one, shipped) == routing.answered_by_rule_before(one), (domain, dynamic)


def test_the_date_line_is_chosen_with_the_worths_on_the_other_folds_ties_to_off():
    # Four slow-changing questions: the date line turns three wrong answers into right ones and a
    # right one wrong. Held out, each question sees the other three, and the run whose fitted worths
    # score best there judges it.
    off = [case("slow-changing", Verdict.WRONG, 0.9)] * 3 + [case("slow-changing", Verdict.CORRECT, 0.9)]
    on = [case("slow-changing", Verdict.CORRECT, 0.9)] * 3 + [case("slow-changing", Verdict.WRONG, 0.9)]
    folds = [[0], [1], [2], [3]]
    result = routing.held_out_date_line({"date line off": off, "date line on": on}, folds, prior=2.0)
    # the first three: the others (two helped, one hurt) favour the date line, which is right for
    # them; the fourth: the others (three helped) favour it too, and it is wrong there.
    assert (result["correct"], result["wrong"], result["refused"]) == (3, 1, 0)
    same = routing.held_out_date_line({"date line off": off, "date line on": off}, folds, prior=2.0)
    assert same == routing.tally(off, routing.held_out(off, folds, prior=2.0))  # a tie keeps the first run

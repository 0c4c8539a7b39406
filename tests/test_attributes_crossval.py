"""Cross-validation and the learning curve on the self-written examples (hash embeddings)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tools.attributes.crossval import cross_validate, learning_curve
from models.attributes.data import load_labelled
from models.config import AttributesConfig
from tests.test_attributes_classifier import EXAMPLES, HashEncoder


@pytest.fixture(scope="module")
def small_study():
    # Four phrasings of each of the 40 examples, so every domain x static/dynamic stratum can be split.
    questions = [
        replace(q, query=f"{prefix}{q.query}")
        for q in load_labelled(EXAMPLES)
        for prefix in ("", "tell me: ", "quick question, ", "i wonder ")
    ]
    embeddings = HashEncoder().encode([q.query for q in questions])
    return questions, embeddings, AttributesConfig(cv_folds=2, calibration_folds=2)


def test_cross_validation_scores_every_question_once_for_both_recipes(small_study):
    questions, embeddings, config = small_study
    report = cross_validate(questions, embeddings, config)
    assert report["folds"] == 2 and report["questions"] == len(questions)
    for recipe in ("ours_pooled", "paper_svm_pooled"):
        confusion = report[recipe]["domain_confusion"]["rows_gold_columns_predicted"]
        assert sum(map(sum, confusion)) == len(questions)
        assert 0.0 <= report[recipe]["dynamic_accuracy"] <= 1.0
    sweep = report["threshold_sweep"]
    # A higher threshold never refuses more questions.
    for rows in sweep.values():
        refused = [row["static_refused"] + row["dynamic_refused"] for row in rows.values()]
        assert refused == sorted(refused, reverse=True)


def test_learning_curve_trains_on_growing_stratified_shares(small_study):
    questions, embeddings, config = small_study
    report = learning_curve(questions, embeddings, config, fractions=(0.5, 1.0))
    sizes = [row["train_questions"] for row in report["curve"]]
    assert [row["train_fraction"] for row in report["curve"]] == [0.5, 1.0]
    assert sizes == [len(questions) // 4, len(questions) // 2]
    assert all(0.0 <= row["domain_accuracy"] <= 1.0 for row in report["curve"])

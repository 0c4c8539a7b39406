"""The committed artifact on the real encoder and the shared validation questions."""

from __future__ import annotations

import pytest

from models.attributes import AttributePredictor
from models.attributes.data import load_labelled
from tools.attributes.metrics import score_attributes
from models.config import AttributesConfig
from models.embeddings import SentenceEncoder
from models.schema import Question


@pytest.fixture(scope="module")
def encoder() -> SentenceEncoder:
    return SentenceEncoder(AttributesConfig().embedding_model)


def test_shipped_classifier_scores_the_validation_questions(shared_data, encoder):
    gold = load_labelled(shared_data / "crag_questions_validation.jsonl")[:200]
    config = AttributesConfig()
    predicted = AttributePredictor(config, encoder).run(
        [Question(str(i), q.query, "") for i, q in enumerate(gold)]
    )
    report = score_attributes(predicted, gold, config)
    # In-sample (the artifact was trained on these): a sanity check of loading and wiring, not of quality.
    assert report["domain_accuracy"] > 0.9 and report["dynamic_accuracy"] > 0.85
    assert {"dynamism4_accuracy", "domain_macro_f1", "dynamic_confusion"} <= report.keys()
    assert report["refusal"]["all"]["static"] + report["refusal"]["all"]["dynamic"] == 200

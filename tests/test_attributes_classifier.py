from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from models.attributes import ArtifactError, AttributeClassifier, AttributePredictor
from models.attributes.classifier import RidgeHead, consistent_dynamism
from models.attributes.data import DOMAINS, DYNAMISM, load_labelled
from models.config import AttributesConfig
from models.schema import Question

EXAMPLES = Path(__file__).resolve().parents[1] / "models" / "attributes" / "examples.jsonl"


class HashEncoder:
    """A stand-in sentence encoder: deterministic unit vectors derived from the text."""

    dimension = 16

    def __init__(self) -> None:
        self.calls = 0

    def encode(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")
            vector = np.random.default_rng(seed).normal(size=self.dimension)
            rows.append(vector / np.linalg.norm(vector))
        return np.array(rows, dtype=np.float32).reshape(len(texts), self.dimension)


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> tuple[AttributesConfig, AttributeClassifier]:
    questions = load_labelled(EXAMPLES)
    path = tmp_path_factory.mktemp("attributes") / "model.joblib"
    config = AttributesConfig(artifact_path=str(path), ridge_alpha=1.0)
    model = AttributeClassifier.fit(questions, HashEncoder().encode([q.query for q in questions]), config)
    model.save(path)
    return config, model


def test_ridge_head_keeps_the_ridge_argmax_and_fits_a_sharpening_temperature():
    rng = np.random.default_rng(0)
    centres = {"a": np.array([3.0, 0.0]), "b": np.array([0.0, 3.0]), "c": np.array([-3.0, -3.0])}
    labels = [label for label in centres for _ in range(40)]
    features = np.array([centres[label] + rng.normal(size=2) for label in labels])
    head = RidgeHead.fit(features, labels, alpha=1.0, folds=5, seed=0)
    probabilities = head.predict_proba(features)
    assert probabilities.sum(axis=1) == pytest.approx(np.ones(len(labels)))
    assert list(head.classes_[probabilities.argmax(axis=1)]) == list(head.ridge.predict(features))
    # Ridge scores of well-separated classes are small (about ±1); a temperature below 1 sharpens them.
    assert head.temperature < 1.0
    assert probabilities.max(axis=1).mean() > 0.9


def test_binary_ridge_head_is_a_sigmoid_of_the_score():
    labels = ["static"] * 30 + ["dynamic"] * 30
    features = np.linspace(-2.0, 2.0, 60).reshape(-1, 1)
    head = RidgeHead.fit(features, labels, alpha=1.0, folds=3, seed=0)
    probabilities = head.predict_proba(np.array([[-2.0], [0.0], [2.0]]))
    scores = head.ridge.decision_function(np.array([[-2.0], [0.0], [2.0]]))
    positive = list(head.classes_).index(head.ridge.classes_[1])
    assert probabilities[:, positive] == pytest.approx(1.0 / (1.0 + np.exp(-scores / head.temperature)))
    assert probabilities[0, list(head.classes_).index("static")] > 0.5
    assert probabilities[2, list(head.classes_).index("dynamic")] > 0.5


def test_predictions_are_consistent_distributions(trained):
    config, model = trained
    queries = ["what is the stock price of apple right now?", "who directed the movie heat in 1995?", ""]
    results = model.predict(queries, ["03/10/2024, 23:34:42 PT", "", ""], HashEncoder().encode(queries))
    assert len(results) == 3
    for attributes in results:
        assert attributes.domain in DOMAINS and attributes.dynamism in DYNAMISM
        assert sum(attributes.domain_probabilities.values()) == pytest.approx(1.0, abs=1e-3)
        assert 0.0 <= attributes.dynamic_probability <= 1.0
        assert (attributes.dynamism != "static") == (attributes.dynamic_probability > 0.5)
    assert results[0].domain == "finance" and results[0].dynamic_probability > 0.5


def test_fits_its_own_training_examples(trained):
    config, model = trained
    questions = load_labelled(EXAMPLES)
    results = model.predict(
        [q.query for q in questions],
        ["" for _ in questions],
        HashEncoder().encode([q.query for q in questions]),
    )
    domain_hits = sum(r.domain == q.domain for r, q in zip(results, questions))
    assert domain_hits / len(questions) > 0.9


def test_saved_artifact_round_trips(trained):
    config, model = trained
    loaded = AttributeClassifier.load(config.artifact_path)
    queries = ["how many grammys has adele won?"]
    embeddings = HashEncoder().encode(queries)
    assert loaded.predict(queries, [""], embeddings) == model.predict(queries, [""], embeddings)


def test_missing_or_corrupt_artifact_names_the_train_command(tmp_path):
    with pytest.raises(ArtifactError, match="python -m tools.attributes train"):
        AttributeClassifier.load(tmp_path / "absent.joblib")
    corrupt = tmp_path / "corrupt.joblib"
    corrupt.write_bytes(b"not a pickle")
    predictor = AttributePredictor(AttributesConfig(artifact_path=str(corrupt)), HashEncoder())  # cheap
    with pytest.raises(ArtifactError, match="python -m tools.attributes train"):
        predictor.warm_up()


def test_wrong_embedding_size_is_a_clear_error(trained):
    _, model = trained
    with pytest.raises(ValueError, match="encoder it was trained with"):
        model.predict(["a question"], [""], np.zeros((1, 7), dtype=np.float32))


def test_predictor_runs_one_encode_per_batch_and_raises_on_failure(trained):
    config, _ = trained
    encoder = HashEncoder()
    predictor = AttributePredictor(config, encoder)
    predictor.warm_up()  # loads the artifact and classifies one question: the first call is made here
    assert encoder.calls == 1
    batch = [
        Question(str(i), query, "")
        for i, query in enumerate(["who won the 2010 world cup?", "price of tesla today?"])
    ]
    results = predictor.run(batch)
    assert len(results) == 2 and encoder.calls == 2

    def broken(texts):
        raise RuntimeError("encoder down")

    encoder.encode = broken
    with pytest.raises(RuntimeError, match="encoder down"):  # CragSystem contains and records it
        predictor.run(batch)


def test_disabled_predictor_loads_nothing(tmp_path):
    config = AttributesConfig(enabled=False, artifact_path=str(tmp_path / "absent.joblib"))
    results = AttributePredictor(config, None).run([Question("1", "anything", "")])
    assert results[0].domain == "open" and results[0].dynamic_probability == 0.0


def test_consistent_dynamism_follows_the_binary_decision():
    probabilities = np.array([0.6, 0.1, 0.25, 0.05])
    assert consistent_dynamism(probabilities, 0.4) == "static"
    assert consistent_dynamism(probabilities, 0.7) == "fast-changing"

"""The shipped attribute classifier: temperature-scaled ridge classifiers over n-grams, temporal cues
and MiniLM embeddings.

Three heads share one feature matrix: domain (5 classes), dynamism (4 classes) and static vs
dynamic (binary). P(dynamic) averages the binary head with 1 - P(static) of the 4-class head.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import joblib
import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import log_softmax, softmax
from sklearn.linear_model import RidgeClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_predict

from models.attributes.data import DOMAINS, DYNAMISM, LabelledQuestion, is_dynamic
from models.attributes.features import QuestionFeaturizer, reference_year
from models.config import AttributesConfig
from models.schema import QuestionAttributes

ARTIFACT_FORMAT = 2
TRAIN_COMMAND = "python -m tools.attributes train --data ../shared/data/crag_questions_validation.jsonl"


class ArtifactError(RuntimeError):
    """The classifier artifact is missing, unreadable or from another format."""


@dataclass
class RidgeHead:
    """A ridge classifier whose scores become probabilities through one temperature (a softmax of
    score / temperature), fitted on out-of-fold scores. Unlike one-vs-rest Platt scaling this keeps
    the ridge's own argmax, which was the more accurate label in cross-validation."""

    ridge: RidgeClassifier
    temperature: float

    @classmethod
    def fit(cls, features, labels: list[str], alpha: float, folds: int, seed: int) -> RidgeHead:
        ridge = RidgeClassifier(alpha=alpha).fit(features, labels)
        out_of_fold = cross_val_predict(
            RidgeClassifier(alpha=alpha),
            features,
            labels,
            cv=StratifiedKFold(folds, shuffle=True, random_state=seed),
            method="decision_function",
        )
        gold = np.searchsorted(ridge.classes_, labels)
        scores = _score_columns(out_of_fold)

        def negative_log_likelihood(log_temperature: float) -> float:
            log_probabilities = log_softmax(scores / np.exp(log_temperature), axis=1)
            return -float(log_probabilities[np.arange(len(gold)), gold].mean())

        best = minimize_scalar(negative_log_likelihood, bounds=(-6.0, 3.0), method="bounded")
        # float32 weights halve the shipped artifact; predictions move by well under 1e-4.
        ridge.coef_ = ridge.coef_.astype(np.float32)
        ridge.intercept_ = np.asarray(ridge.intercept_, dtype=np.float32)
        return cls(ridge, float(np.exp(best.x)))

    @property
    def classes_(self) -> np.ndarray:
        return self.ridge.classes_

    def predict_proba(self, features) -> np.ndarray:
        return softmax(_score_columns(self.ridge.decision_function(features)) / self.temperature, axis=1)


def _score_columns(scores: np.ndarray) -> np.ndarray:
    """Ridge scores with one column per class; a binary ridge gives one signed score per row."""
    scores = np.asarray(scores, dtype=np.float64)
    return np.column_stack([-scores / 2, scores / 2]) if scores.ndim == 1 else scores


@dataclass
class AttributeClassifier:
    featurizer: QuestionFeaturizer
    domain_head: RidgeHead
    dynamism_head: RidgeHead
    dynamic_head: RidgeHead
    embedding_dimension: int
    default_year: int
    training_data_sha256: str = ""
    format: int = ARTIFACT_FORMAT

    @classmethod
    def fit(
        cls, questions: list[LabelledQuestion], embeddings: np.ndarray, config: AttributesConfig
    ) -> AttributeClassifier:
        queries = [q.query for q in questions]
        featurizer = QuestionFeaturizer(config).fit(queries)
        years = [reference_year(q.query_time, config.default_year) for q in questions]
        features = featurizer.transform(queries, years, embeddings)

        def head(labels: list[str]) -> RidgeHead:
            return RidgeHead.fit(features, labels, config.ridge_alpha, config.calibration_folds, config.seed)

        return cls(
            featurizer=featurizer,
            domain_head=head([q.domain for q in questions]),
            dynamism_head=head([q.static_or_dynamic for q in questions]),
            dynamic_head=head(
                ["dynamic" if is_dynamic(q.static_or_dynamic) else "static" for q in questions]
            ),
            embedding_dimension=int(embeddings.shape[1]),
            default_year=config.default_year,
        )

    def predict(
        self, queries: list[str], query_times: list[str], embeddings: np.ndarray
    ) -> list[QuestionAttributes]:
        if not queries:
            return []
        if embeddings.shape != (len(queries), self.embedding_dimension):
            raise ValueError(
                f"Embeddings of shape {embeddings.shape} do not fit this classifier "
                f"(trained on {self.embedding_dimension}-dimensional embeddings); use the "
                "encoder it was trained with"
            )
        years = [reference_year(t, self.default_year) for t in query_times]
        features = self.featurizer.transform(queries, years, embeddings)
        domain_probabilities = _probabilities(self.domain_head, features, DOMAINS)
        dynamism_probabilities = _probabilities(self.dynamism_head, features, DYNAMISM)
        binary = _probabilities(self.dynamic_head, features, ("static", "dynamic"))
        dynamic_probability = (binary[:, 1] + 1.0 - dynamism_probabilities[:, 0]) / 2.0
        return [
            QuestionAttributes(
                domain=DOMAINS[int(np.argmax(domain_row))],
                domain_probabilities={d: round(float(p), 4) for d, p in zip(DOMAINS, domain_row)},
                dynamism=consistent_dynamism(dynamism_row, float(p_dynamic)),
                dynamic_probability=float(p_dynamic),
                dynamism_probabilities={d: round(float(p), 4) for d, p in zip(DYNAMISM, dynamism_row)},
            )
            for domain_row, dynamism_row, p_dynamic in zip(
                domain_probabilities, dynamism_probabilities, dynamic_probability
            )
        ]

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.featurizer.drop_caches()
        joblib.dump(self, path, compress=("zlib", 9))

    @classmethod
    def load(cls, path: str | Path) -> AttributeClassifier:
        path = Path(path)
        if not path.is_file():
            raise ArtifactError(f"Attribute classifier {path} is missing; build it with `{TRAIN_COMMAND}`")
        try:
            model = joblib.load(path)
        except Exception as error:
            raise ArtifactError(
                f"Attribute classifier {path} is unreadable ({error}); rebuild it with `{TRAIN_COMMAND}`"
            ) from error
        if not isinstance(model, cls) or model.format != ARTIFACT_FORMAT:
            raise ArtifactError(
                f"{path} is not an attribute classifier of format {ARTIFACT_FORMAT}; rebuild "
                f"it with `{TRAIN_COMMAND}`"
            )
        return model


def consistent_dynamism(dynamism_probabilities: np.ndarray, dynamic_probability: float) -> str:
    """The 4-way label agreeing with the binary decision: "static" unless P(dynamic) > 0.5,
    otherwise the likeliest of the three changing labels. Rows are ordered as DYNAMISM."""
    if dynamic_probability <= 0.5:
        return "static"
    return DYNAMISM[1 + int(np.argmax(dynamism_probabilities[1:]))]


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _probabilities(model: RidgeHead, features, order: tuple[str, ...]) -> np.ndarray:
    """Class probabilities with columns in `order` (classes absent from training get 0)."""
    raw = model.predict_proba(features)
    columns = {label: i for i, label in enumerate(model.classes_)}
    result = np.zeros((raw.shape[0], len(order)))
    for j, label in enumerate(order):
        if label in columns:
            result[:, j] = raw[:, columns[label]]
    return result

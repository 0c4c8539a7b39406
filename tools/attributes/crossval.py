"""K-fold cross-validation of our classifier, side by side with the paper's recipe (an SVM on
MiniLM sentence embeddings), on the same folds and the same embeddings; and a learning curve
(the same folds, each training on only a share of its questions).

Not a script: `python -m tools.attributes cv|curve` runs it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from loguru import logger
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.svm import SVC
from tqdm import tqdm

from models.attributes.classifier import AttributeClassifier
from models.attributes.data import DOMAINS, LabelledQuestion, is_dynamic
from tools.attributes.metrics import score_attributes
from models.config import AttributesConfig
from models.schema import QuestionAttributes

HEADLINE = (
    "domain_accuracy",
    "domain_macro_f1",
    "dynamic_accuracy",
    "dynamic_macro_f1",
    "dynamism4_accuracy",
    "dynamism4_macro_f1",
)
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
CURVE_FRACTIONS = (0.25, 0.5, 0.75, 1.0)


def paper_recipe(
    train: list[LabelledQuestion], train_embeddings: np.ndarray, test_embeddings: np.ndarray
) -> list[QuestionAttributes]:
    """Default RBF SVMs on the embeddings: one for domain, one for static vs dynamic, one for the four
    labels."""
    domain = SVC().fit(train_embeddings, [q.domain for q in train]).predict(test_embeddings)
    dynamic = (
        SVC().fit(train_embeddings, [is_dynamic(q.static_or_dynamic) for q in train]).predict(test_embeddings)
    )
    dynamism = SVC().fit(train_embeddings, [q.static_or_dynamic for q in train]).predict(test_embeddings)
    return [
        QuestionAttributes(domain=str(d), dynamism=str(s), dynamic_probability=float(b))
        for d, b, s in zip(domain, dynamic, dynamism)
    ]


def _fit_and_predict(
    questions: list[LabelledQuestion],
    embeddings: np.ndarray,
    train_index: np.ndarray,
    test_index: np.ndarray,
    config: AttributesConfig,
) -> list[QuestionAttributes]:
    """Our classifier trained on the `train_index` questions, predicting the `test_index` ones."""
    model = AttributeClassifier.fit([questions[i] for i in train_index], embeddings[train_index], config)
    test = [questions[i] for i in test_index]
    return model.predict([q.query for q in test], [q.query_time for q in test], embeddings[test_index])


def _strata(questions: list[LabelledQuestion]) -> list[str]:
    return [f"{q.domain}/{is_dynamic(q.static_or_dynamic)}" for q in questions]


def cross_validate(
    questions: list[LabelledQuestion], embeddings: np.ndarray, config: AttributesConfig
) -> dict[str, Any]:
    strata = _strata(questions)
    folds = StratifiedKFold(n_splits=config.cv_folds, shuffle=True, random_state=config.seed)
    ours: list[QuestionAttributes | None] = [None] * len(questions)
    paper: list[QuestionAttributes | None] = [None] * len(questions)
    per_fold: dict[str, list[dict[str, float]]] = {"ours": [], "paper_svm": []}
    for train_index, test_index in tqdm(list(folds.split(questions, strata)), desc="cv folds"):
        train = [questions[i] for i in train_index]
        test = [questions[i] for i in test_index]
        fold_ours = _fit_and_predict(questions, embeddings, train_index, test_index, config)
        fold_paper = paper_recipe(train, embeddings[train_index], embeddings[test_index])
        for name, fold_predictions, pooled in (("ours", fold_ours, ours), ("paper_svm", fold_paper, paper)):
            for i, prediction in zip(test_index, fold_predictions):
                pooled[i] = prediction
            scores = score_attributes(fold_predictions, test, config)
            per_fold[name].append({key: scores[key] for key in HEADLINE})
        logger.info(f"fold done: ours {per_fold['ours'][-1]} paper {per_fold['paper_svm'][-1]}")
    return {
        "folds": config.cv_folds,
        "seed": config.seed,
        "questions": len(questions),
        "mean_over_folds": {name: _mean_std(rows) for name, rows in per_fold.items()},
        "ours_pooled": score_attributes(ours, questions, config),
        "paper_svm_pooled": score_attributes(paper, questions, config),
        "threshold_sweep": threshold_sweep(ours, questions),
    }


def learning_curve(
    questions: list[LabelledQuestion],
    embeddings: np.ndarray,
    config: AttributesConfig,
    fractions: tuple[float, ...] = CURVE_FRACTIONS,
) -> dict[str, Any]:
    """Pooled out-of-fold scores when every fold trains on a stratified, seeded share of its
    training questions: a curve still rising at 1.0 says more labelled questions would help."""
    strata = _strata(questions)
    folds = list(
        StratifiedKFold(n_splits=config.cv_folds, shuffle=True, random_state=config.seed).split(
            questions, strata
        )
    )
    rows = []
    for fraction in tqdm(fractions, desc="learning curve"):
        pooled: list[QuestionAttributes | None] = [None] * len(questions)
        train_sizes = []
        for train_index, test_index in folds:
            if fraction < 1.0:
                train_index, _ = train_test_split(
                    train_index,
                    train_size=fraction,
                    stratify=[strata[i] for i in train_index],
                    random_state=config.seed,
                )
            train_sizes.append(len(train_index))
            for i, prediction in zip(
                test_index, _fit_and_predict(questions, embeddings, train_index, test_index, config)
            ):
                pooled[i] = prediction
        scores = score_attributes(pooled, questions, config)
        rows.append(
            {"train_fraction": fraction, "train_questions": int(np.mean(train_sizes))}
            | {key: scores[key] for key in HEADLINE}
        )
    return {"folds": config.cv_folds, "seed": config.seed, "questions": len(questions), "curve": rows}


def threshold_sweep(
    predicted: list[QuestionAttributes], gold: list[LabelledQuestion]
) -> dict[str, dict[str, dict[str, int]]]:
    """For each predicted domain and threshold: refused questions that are truly static
    (answers put at risk) and truly dynamic (likely hallucinations avoided), out of the totals."""
    sweep: dict[str, dict[str, dict[str, int]]] = {}
    for domain in DOMAINS:
        rows = [(p, q) for p, q in zip(predicted, gold) if p.domain == domain]
        static = [p for p, q in rows if not is_dynamic(q.static_or_dynamic)]
        dynamic = [p for p, q in rows if is_dynamic(q.static_or_dynamic)]
        sweep[domain] = {
            f"{threshold:.1f}": {
                "static_refused": sum(p.dynamic_probability > threshold for p in static),
                "static": len(static),
                "dynamic_refused": sum(p.dynamic_probability > threshold for p in dynamic),
                "dynamic": len(dynamic),
            }
            for threshold in THRESHOLDS
        }
    return sweep


def _mean_std(rows: list[dict[str, float]]) -> dict[str, dict[str, float]]:
    return {
        key: {
            "mean": round(float(np.mean([r[key] for r in rows])), 4),
            "std": round(float(np.std([r[key] for r in rows])), 4),
        }
        for key in HEADLINE
    }

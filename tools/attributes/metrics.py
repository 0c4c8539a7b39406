"""Scores of predicted attributes against labelled questions, as one JSON-ready dict.

Not a script: `python -m tools.attributes` imports it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.metrics import accuracy_score, brier_score_loss, confusion_matrix, f1_score

from models.attributes.data import DOMAINS, DYNAMISM, LabelledQuestion, is_dynamic
from models.attributes.policy import class_probabilities, route
from models.config import AttributesConfig, PolicyConfig
from models.schema import QuestionAttributes

BINARY_LABELS = ("static", "dynamic")


def score_attributes(
    predicted: list[QuestionAttributes], gold: list[LabelledQuestion], config: AttributesConfig
) -> dict[str, Any]:
    if len(predicted) != len(gold):
        raise ValueError(f"{len(predicted)} predictions for {len(gold)} labelled questions")
    report: dict[str, Any] = {"questions": len(gold)}
    report.update(_label_scores("domain", [q.domain for q in gold], [p.domain for p in predicted], DOMAINS))
    binary_gold = [_binary(q.static_or_dynamic) for q in gold]
    binary_predicted = ["dynamic" if p.dynamic_probability > 0.5 else "static" for p in predicted]
    report.update(_label_scores("dynamic", binary_gold, binary_predicted, BINARY_LABELS))
    report.update(
        _label_scores(
            "dynamism4", [q.static_or_dynamic for q in gold], [p.dynamism for p in predicted], DYNAMISM
        )
    )
    truly_dynamic = np.array([label == "dynamic" for label in binary_gold])
    report["dynamic_brier"] = round(
        float(brier_score_loss(truly_dynamic, [p.dynamic_probability for p in predicted])), 4
    )
    report["refusal"] = refusal_counts(predicted, gold, config)
    return report


def refusal_counts(
    predicted: list[QuestionAttributes], gold: list[LabelledQuestion], config: AttributesConfig
) -> dict[str, dict[str, int]]:
    """Per domain (and overall): how many static and dynamic questions the answer policy's worths
    (the schema's `policy.answer_worth`, the cpu preset's) refuse for dynamism.

    A refused static question can cost a correct answer; a refused dynamic one avoids a likely
    hallucination. Grouped by the gold domain.
    """
    policy = PolicyConfig()
    counts: dict[str, dict[str, int]] = {}
    for attributes, question in zip(predicted, gold):
        kind = "dynamic" if is_dynamic(question.static_or_dynamic) else "static"
        probabilities = class_probabilities(attributes)
        decision = route(probabilities, attributes.domain, policy.answer_worth, policy.refuse_below)
        refused = config.enabled and decision.refuse
        for group in (question.domain, "all"):
            row = counts.setdefault(
                group, {"static": 0, "static_refused": 0, "dynamic": 0, "dynamic_refused": 0}
            )
            row[kind] += 1
            row[f"{kind}_refused"] += int(refused)
    return {group: counts[group] for group in (*DOMAINS, "all") if group in counts}


def _binary(dynamism: str) -> str:
    return "dynamic" if is_dynamic(dynamism) else "static"


def _label_scores(
    name: str, gold: list[str], predicted: list[str], labels: tuple[str, ...]
) -> dict[str, Any]:
    present = [label for label in labels if label in gold]
    return {
        f"{name}_accuracy": round(float(accuracy_score(gold, predicted)), 4),
        f"{name}_macro_f1": round(
            float(f1_score(gold, predicted, labels=present, average="macro", zero_division=0)), 4
        ),
        f"{name}_confusion": {
            "labels": list(labels),
            "rows_gold_columns_predicted": confusion_matrix(gold, predicted, labels=list(labels)).tolist(),
        },
    }

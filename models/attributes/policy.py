"""The routing's reckoning: the expected worth of answering a question, from its dynamism classes.

With +1 / 0 / -1 scoring, an answer is worth P(correct) - P(wrong), and how much depends on how fast
the asked fact changes (pages and model memory go stale). A worth table holds that per dynamism
class, optionally per "domain/class"; a question's expected worth is the sum over the four classes
of P(class) times the class's worth. The answer policy (models/policy.py) refuses a question whose
expected worth falls below its bar, and reads the same reckoning for the extractor's own answers.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.attributes.data import DYNAMISM
from models.schema import QuestionAttributes


@dataclass(frozen=True)
class RoutingDecision:
    refuse: bool
    expected_score: float
    deciding_class: str  # the class whose term weighs most in the expected score
    why: str  # for the trace: the expected score, the class that decided and its probability


def class_probabilities(attributes: QuestionAttributes) -> dict[str, float]:
    """P(class) for the four classes, consistent with P(dynamic): P(static) = 1 - P(dynamic), and
    P(dynamic) is shared among the changing classes as the 4-class estimate shares it (by the
    predicted changing label when no 4-class estimate is given, evenly when there is neither)."""
    changing = {label: attributes.dynamism_probabilities.get(label, 0.0) for label in DYNAMISM[1:]}
    if sum(changing.values()) <= 0.0:
        changing = {label: float(attributes.dynamism in (label, "static")) for label in changing}
    total = sum(changing.values())
    dynamic = attributes.dynamic_probability
    return {"static": 1.0 - dynamic} | {label: dynamic * share / total for label, share in changing.items()}


def worth(table: dict[str, float], domain: str, dynamism: str) -> float:
    """The worth of an answer to a question of this class ("domain/class" first; missing: 0)."""
    return table.get(f"{domain}/{dynamism}", table.get(dynamism, 0.0))


def route(
    probabilities: dict[str, float], domain: str, table: dict[str, float], refuse_below: float
) -> RoutingDecision:
    """Answer or refuse by the expected worth over the classes' `probabilities`."""
    terms = {label: p * worth(table, domain, label) for label, p in probabilities.items()}
    expected = sum(terms.values())
    refuse = expected < refuse_below
    # A refusal is decided by the class pulling the score down most; an answer by the one lifting it.
    deciding = min(terms, key=terms.__getitem__) if refuse else max(terms, key=terms.__getitem__)
    why = (
        f"E[score]={expected:+.2f} ({'<' if refuse else '>='} {refuse_below:+.2f}) in {domain}, decided by "
        f"{deciding} (P={probabilities[deciding]:.2f}, worth {worth(table, domain, deciding):+.2f})"
    )
    return RoutingDecision(refuse, expected, deciding, why)

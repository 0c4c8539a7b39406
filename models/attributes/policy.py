"""Routing policy: refuse ("I don't know") a question when answering it is expected to lose points.

With +1 / 0 / -1 scoring, an answer is worth P(correct) - P(wrong). How much depends on how fast
the asked fact changes: pages and model memory go stale. `attributes.answer_score` holds that
worth per dynamism class (measured end to end, `benchmarks/routing.py`), optionally per
"domain/class". A question's expected worth is the sum over the four classes of P(class) times
the class's worth; it is refused when that falls below `attributes.refuse_below`.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.attributes.data import DYNAMISM
from models.config import AttributesConfig
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


def answer_score(config: AttributesConfig, domain: str, dynamism: str) -> float:
    """The configured worth of an answer to a question of this class ("domain/class" first)."""
    table = config.answer_score
    return table.get(f"{domain}/{dynamism}", table.get(dynamism, 0.0))


def route(attributes: QuestionAttributes, config: AttributesConfig) -> RoutingDecision:
    """Answer or refuse; never refuses when prediction is disabled."""
    if not config.enabled:
        return RoutingDecision(False, 0.0, "", "attribute prediction disabled")
    probabilities = class_probabilities(attributes)
    terms = {label: p * answer_score(config, attributes.domain, label) for label, p in probabilities.items()}
    expected = sum(terms.values())
    refuse = expected < config.refuse_below
    # A refusal is decided by the class pulling the score down most; an answer by the one lifting it.
    deciding = min(terms, key=terms.__getitem__) if refuse else max(terms, key=terms.__getitem__)
    why = (
        f"E[score]={expected:+.2f} ({'<' if refuse else '>='} {config.refuse_below:+.2f}) in {attributes.domain}, "
        f"decided by {deciding} (P={probabilities[deciding]:.2f}, worth {answer_score(config, attributes.domain, deciding):+.2f})"
    )
    return RoutingDecision(refuse, expected, deciding, why)


def should_refuse(attributes: QuestionAttributes, config: AttributesConfig) -> bool:
    return route(attributes, config).refuse

"""The routing's reckoning (models/attributes/policy.py): the expected worth of an answer over the
four dynamism classes, against the bar below which the answer policy refuses."""

from __future__ import annotations

import pytest

from models.attributes import class_probabilities, route
from models.schema import QuestionAttributes

SCORES = {"static": 0.4, "slow-changing": 0.1, "fast-changing": -0.5, "real-time": -0.8}


def attributes(
    dynamic: float, shares: dict[str, float] | None = None, domain: str = "movie", label: str = "static"
) -> QuestionAttributes:
    return QuestionAttributes(
        domain=domain, dynamism=label, dynamic_probability=dynamic, dynamism_probabilities=shares or {}
    )


def routed(question: QuestionAttributes, table: dict[str, float] = SCORES, bar: float = 0.0):
    return route(class_probabilities(question), question.domain, table, bar)


def test_class_probabilities_keep_p_dynamic_and_the_4_class_shares():
    probabilities = class_probabilities(
        attributes(0.8, {"static": 0.5, "slow-changing": 0.3, "fast-changing": 0.1, "real-time": 0.1})
    )
    assert probabilities["static"] == pytest.approx(0.2)
    assert probabilities["slow-changing"] == pytest.approx(0.8 * 0.6)
    assert probabilities["fast-changing"] == pytest.approx(0.8 * 0.2)
    assert sum(probabilities.values()) == pytest.approx(1.0)


def test_class_probabilities_without_a_4_class_estimate():
    assert class_probabilities(attributes(0.9, label="real-time"))["real-time"] == pytest.approx(0.9)
    even = class_probabilities(attributes(0.9))
    assert even["slow-changing"] == pytest.approx(0.3) and even["real-time"] == pytest.approx(0.3)


def test_a_likely_slow_changing_question_is_answered_when_that_class_pays():
    slow = attributes(0.95, {"static": 0.05, "slow-changing": 0.9, "fast-changing": 0.05, "real-time": 0.0})
    decision = routed(slow)
    assert not decision.refuse and decision.deciding_class == "slow-changing"
    assert decision.expected_score == pytest.approx(0.05 * 0.4 + 0.95 * (0.9 * 0.1 + 0.05 * -0.5) / 0.95)


def test_a_likely_real_time_question_is_refused_and_the_trace_says_why():
    decision = routed(attributes(0.9, {"static": 0.1, "real-time": 0.9}, domain="finance"))
    assert decision.refuse and decision.deciding_class == "real-time"
    assert "real-time" in decision.why and "P=0.90" in decision.why and "finance" in decision.why


def test_the_threshold_moves_the_decision():
    static = attributes(0.1)
    assert not routed(static).refuse
    assert routed(static, bar=0.5).refuse


def test_a_domain_key_overrides_its_class_and_a_missing_class_counts_zero():
    table = SCORES | {"sports/slow-changing": -0.6}
    slow = {"slow-changing": 1.0}
    assert not routed(attributes(0.9, slow, domain="movie"), table).refuse
    assert routed(attributes(0.9, slow, domain="sports"), table).refuse
    assert routed(attributes(0.5, {"real-time": 1.0}), {"static": 0.2}).expected_score == pytest.approx(0.1)


def test_default_attributes_are_answered_by_the_shipped_worths():
    from models.config import load_config

    for preset in ("cpu", "t4x4"):
        policy = load_config(preset).policy
        assert not routed(QuestionAttributes(), policy.answer_worth, policy.refuse_below).refuse


# The thresholds before the worths: a question refused above this P(dynamic) in its domain.
RULE_BEFORE = {"finance": 0.5, "sports": 0.5, "music": 0.7, "movie": 0.7, "open": 0.7}


def test_the_cpu_worths_answer_exactly_what_the_thresholds_before_them_answered():
    import numpy as np

    from models.config import load_config

    policy = load_config("cpu").policy
    rng = np.random.default_rng(1)
    for _ in range(2000):
        domain = str(rng.choice(list(RULE_BEFORE)))
        dynamic = float(rng.uniform())
        shares = dict(
            zip(["slow-changing", "fast-changing", "real-time"], map(float, rng.dirichlet([1] * 3)))
        )
        question = QuestionAttributes(
            domain=domain, dynamic_probability=dynamic, dynamism_probabilities=shares
        )
        refused = routed(question, policy.answer_worth, policy.refuse_below).refuse
        assert refused == (dynamic > RULE_BEFORE[domain]), (domain, dynamic)

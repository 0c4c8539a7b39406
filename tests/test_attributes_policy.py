"""The routing policy: refuse when the expected worth of an answer, over the four dynamism
classes, falls below `refuse_below`."""

from __future__ import annotations

import pytest

from models.attributes import route, should_refuse
from models.attributes.policy import class_probabilities
from models.config import AttributesConfig
from models.schema import QuestionAttributes

SCORES = {"static": 0.4, "slow-changing": 0.1, "fast-changing": -0.5, "real-time": -0.8}


def attributes(dynamic: float, shares: dict[str, float] | None = None, domain: str = "movie", label: str = "static") -> QuestionAttributes:
    return QuestionAttributes(domain=domain, dynamism=label, dynamic_probability=dynamic, dynamism_probabilities=shares or {})


def test_class_probabilities_keep_p_dynamic_and_the_4_class_shares():
    probabilities = class_probabilities(attributes(0.8, {"static": 0.5, "slow-changing": 0.3, "fast-changing": 0.1, "real-time": 0.1}))
    assert probabilities["static"] == pytest.approx(0.2)
    assert probabilities["slow-changing"] == pytest.approx(0.8 * 0.6)
    assert probabilities["fast-changing"] == pytest.approx(0.8 * 0.2)
    assert sum(probabilities.values()) == pytest.approx(1.0)


def test_class_probabilities_without_a_4_class_estimate():
    assert class_probabilities(attributes(0.9, label="real-time"))["real-time"] == pytest.approx(0.9)
    even = class_probabilities(attributes(0.9))
    assert even["slow-changing"] == pytest.approx(0.3) and even["real-time"] == pytest.approx(0.3)


def test_a_likely_slow_changing_question_is_answered_when_that_class_pays():
    config = AttributesConfig(answer_score=SCORES)
    slow = attributes(0.95, {"static": 0.05, "slow-changing": 0.9, "fast-changing": 0.05, "real-time": 0.0})
    decision = route(slow, config)
    assert not decision.refuse and decision.deciding_class == "slow-changing"
    assert decision.expected_score == pytest.approx(0.05 * 0.4 + 0.95 * (0.9 * 0.1 + 0.05 * -0.5) / 0.95)


def test_a_likely_real_time_question_is_refused_and_the_trace_says_why():
    config = AttributesConfig(answer_score=SCORES)
    decision = route(attributes(0.9, {"static": 0.1, "real-time": 0.9}, domain="finance"), config)
    assert decision.refuse and decision.deciding_class == "real-time"
    assert "real-time" in decision.why and "P=0.90" in decision.why and "finance" in decision.why


def test_the_threshold_moves_the_decision():
    config = AttributesConfig(answer_score=SCORES)
    static = attributes(0.1)
    assert not should_refuse(static, config)
    config.refuse_below = 0.5
    assert should_refuse(static, config)


def test_a_domain_key_overrides_its_class():
    config = AttributesConfig(answer_score=SCORES | {"sports/slow-changing": -0.6})
    slow = {"slow-changing": 1.0}
    assert not should_refuse(attributes(0.9, slow, domain="movie"), config)
    assert should_refuse(attributes(0.9, slow, domain="sports"), config)


def test_never_refuses_when_disabled():
    config = AttributesConfig(answer_score=SCORES, enabled=False)
    assert not should_refuse(attributes(0.99, {"real-time": 1.0}), config)


def test_default_attributes_are_never_refused():
    assert not should_refuse(QuestionAttributes(), AttributesConfig())

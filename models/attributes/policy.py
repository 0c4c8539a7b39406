"""Routing policy: refuse ("I don't know") questions whose answer probably changes over time.

With +1 / 0 / -1 scoring, answering a question pays only when the chance of a correct answer
beats the chance of a wrong one. Answers to dynamic questions are much more often wrong
(stale pages, stale model knowledge), so a question is refused when its predicted P(dynamic)
exceeds its predicted domain's threshold (see the README beside this file for how the default
thresholds were chosen).
"""

from __future__ import annotations

from models.config import AttributesConfig
from models.schema import QuestionAttributes


def should_refuse(attributes: QuestionAttributes, config: AttributesConfig) -> bool:
    """True when P(dynamic) exceeds the threshold of the predicted domain.

    Never refuses when prediction is disabled or the domain has no threshold in the config.
    """
    if not config.enabled:
        return False
    threshold = config.dynamic_threshold.get(attributes.domain)
    return threshold is not None and attributes.dynamic_probability > threshold

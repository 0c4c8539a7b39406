from __future__ import annotations

from models.attributes import should_refuse
from models.config import AttributesConfig
from models.schema import QuestionAttributes


def test_refuses_above_the_domain_threshold():
    config = AttributesConfig(dynamic_threshold={"finance": 0.5, "movie": 0.9})
    assert should_refuse(QuestionAttributes(domain="finance", dynamic_probability=0.6), config)
    assert not should_refuse(QuestionAttributes(domain="finance", dynamic_probability=0.5), config)
    assert not should_refuse(QuestionAttributes(domain="movie", dynamic_probability=0.8), config)


def test_never_refuses_unlisted_domains_or_when_disabled():
    config = AttributesConfig(dynamic_threshold={"finance": 0.5})
    assert not should_refuse(QuestionAttributes(domain="sports", dynamic_probability=0.99), config)
    config.enabled = False
    assert not should_refuse(QuestionAttributes(domain="finance", dynamic_probability=0.99), config)


def test_default_attributes_are_never_refused():
    assert not should_refuse(QuestionAttributes(), AttributesConfig())

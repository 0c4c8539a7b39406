"""Question attributes (domain, dynamism, P(dynamic)) and the refusal policy built on them."""

from models.attributes.classifier import ArtifactError, AttributeClassifier
from models.attributes.policy import RoutingDecision, route, should_refuse
from models.attributes.predictor import AttributePredictor

__all__ = ["ArtifactError", "AttributeClassifier", "AttributePredictor", "RoutingDecision", "route", "should_refuse"]

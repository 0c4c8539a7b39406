"""Question attributes (domain, dynamism, P(dynamic)) and the routing's reckoning built on them."""

from models.attributes.classifier import ArtifactError, AttributeClassifier
from models.attributes.policy import RoutingDecision, class_probabilities, route
from models.attributes.predictor import AttributePredictor

__all__ = [
    "ArtifactError",
    "AttributeClassifier",
    "AttributePredictor",
    "RoutingDecision",
    "class_probabilities",
    "route",
]

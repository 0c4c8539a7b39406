"""The four verdicts, the judgement that names the rule behind one, and how readings' verdicts combine."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evaluation.answer_match.entities import Prediction


class Verdict(enum.Enum):
    CORRECT = "correct"
    WRONG = "wrong"
    MISSING = "missing"
    UNSURE = "unsure"


@dataclass(frozen=True)
class Judgement:
    """A verdict and the name of the rule that decided it (evaluation/answer_match/rules.py: RULES)."""

    verdict: Verdict
    rule: str


def is_refusal(prediction: str) -> bool:
    """The leaderboard's "missing" rule: the lower-cased prediction contains "i don't know"."""
    return "i don't know" in prediction.lower()


def best(verdicts: Iterable[Verdict]) -> Verdict:
    """The best of the verdicts of several readings of one gold answer: correct, unsure, wrong."""
    found = set(verdicts)
    for verdict in (Verdict.CORRECT, Verdict.UNSURE):
        if verdict in found:
            return verdict
    return Verdict.WRONG


def unsure_if(condition: bool) -> Verdict:
    return Verdict.UNSURE if condition else Verdict.WRONG


def capped(said: Prediction, negation_in_gold: bool = False) -> Verdict:
    """Correct, unless the prediction hedges or negates (and the gold does not): then unsure."""
    return Verdict.UNSURE if said.hedged or (said.negated and not negation_in_gold) else Verdict.CORRECT

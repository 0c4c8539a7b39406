"""The per-batch time budget: a batch of n questions gets n x seconds_per_question.

Every stage asks the budget before it runs. The budget predicts a stage's cost as a fixed part per
call (from the config: on vLLM a call's decode steps do not grow with the batch) plus what that
stage took per question earlier in this process (an exponential moving average, seeded from the
config), and always keeps enough time in reserve for the reasoning stage. When time runs short the
system degrades in this order: skip optional stages, shorten the references, then answer
`I don't know` for the questions that no longer fit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from models.config import BudgetConfig


@dataclass
class StageCostModel:
    """Seconds per call (fixed, from the config) plus seconds per question (learned while the system
    runs) for each stage."""

    config: BudgetConfig
    seconds_per_question: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.seconds_per_question = dict(self.config.initial_stage_seconds)

    def predict(self, stage: str, questions: int) -> float:
        if questions <= 0:
            return 0.0
        return self.call_seconds(stage) + self.seconds_per_question.get(stage, 0.0) * questions

    def call_seconds(self, stage: str) -> float:
        return self.config.stage_call_seconds.get(stage, 0.0)

    def observe(self, stage: str, seconds: float, questions: int) -> None:
        if questions <= 0:
            return
        measured = max(0.0, seconds - self.call_seconds(stage)) / questions
        previous = self.seconds_per_question.get(stage)
        weight = self.config.cost_smoothing
        self.seconds_per_question[stage] = (
            measured if previous is None else weight * measured + (1 - weight) * previous
        )


class BatchDeadline:
    def __init__(self, questions: int, config: BudgetConfig, costs: StageCostModel):
        self.config = config
        self.costs = costs
        self.start = time.monotonic()
        self.end = self.start + questions * config.seconds_per_question * config.usable_fraction

    def remaining(self) -> float:
        return self.end - time.monotonic()

    def can_run_optional(self, stage: str, questions: int) -> bool:
        """True when `stage` and the reasoning that must follow both fit in the remaining time."""
        needed = self.costs.predict(stage, questions) + self.costs.predict("reasoning", questions)
        return needed <= self.remaining()

    def reasoning_fit(self, questions: int) -> tuple[int, float]:
        """How many questions the reasoning stage can still answer, and the share of their reference
        budget to keep (1.0 = untouched) so that they fit in the remaining time."""
        per_question = max(self.costs.seconds_per_question.get("reasoning", 0.0), 1e-6)
        remaining = self.remaining() - self.costs.call_seconds("reasoning")
        if per_question * questions <= remaining:
            return questions, 1.0
        shortened = per_question * self.config.shortened_reference_cost
        if shortened * questions <= remaining:
            return questions, self.config.shortened_reference_share
        return max(0, min(questions, int(remaining // shortened))), self.config.shortened_reference_share

"""The leaderboard's scoring rules (docs: CRAG contract §2), applied to a list of predictions.

Per question, after cutting the prediction to 75 Llama-2 tokens and stripping it (lower case for
the comparisons): containing "i don't know" → missing (0); equal to the ground truth or an
alternative answer (the ground truth alone for a judge that, like the starter kit's, judges only it)
→ correct (+1); otherwise the judge decides → correct (+1) or hallucination (−1).
Our judges read the prediction with the answer checker first and ask an LLM only about what it is
unsure of (evaluation/judges.py). score = (correct − hallucination) / n.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from evaluation.answer_match import is_refusal
from evaluation.data import GoldQuestion
from evaluation.judges import Judge, JudgeRequest
from evaluation.truncation import Truncator

CORRECT, MISSING, HALLUCINATION = "correct", "missing", "hallucination"
IDK, EXACT = "idk", "exact"  # verdict sources of the leaderboard's own two rules
IDK_RULE, EXACT_RULE = "i don't know", "exact match"  # and their rules' names


@dataclass
class ScoredQuestion:
    interaction_id: str
    outcome: str  # correct, missing or hallucination
    verdict_source: str  # IDK, EXACT, or the judge's: RULES, UNSURE_COUNTED_WRONG, an LLM judge's identity
    prediction: str  # as judged: truncated and stripped
    rule: str = ""  # the rule behind the verdict: IDK_RULE, EXACT_RULE or the judge's (JudgeVerdict.rule)
    judge_reply: str = ""
    judge_error: str | None = None
    labels: dict[str, str] = field(default_factory=dict)


@dataclass
class Tally:
    n: int = 0
    correct: int = 0
    exact_correct: int = 0
    missing: int = 0
    hallucination: int = 0

    def add(self, scored: ScoredQuestion) -> None:
        self.n += 1
        if scored.outcome == CORRECT:
            self.correct += 1
            self.exact_correct += scored.verdict_source == EXACT
        elif scored.outcome == MISSING:
            self.missing += 1
        else:
            self.hallucination += 1

    def as_dict(self) -> dict[str, float | int]:
        n = max(self.n, 1)
        return {
            "n": self.n,
            "correct": self.correct,
            "exact_correct": self.exact_correct,
            "missing": self.missing,
            "hallucination": self.hallucination,
            "score": (self.correct - self.hallucination) / n,
            "accuracy": self.correct / n,
            "exact_accuracy": self.exact_correct / n,
            "hallucination_rate": self.hallucination / n,
            "missing_rate": self.missing / n,
        }


def score_predictions(
    golds: list[GoldQuestion], predictions: list[str], truncator: Truncator, judge: Judge
) -> list[ScoredQuestion]:
    if len(golds) != len(predictions):
        raise ValueError(f"{len(golds)} questions but {len(predictions)} predictions")
    scored: list[ScoredQuestion | None] = [None] * len(golds)
    to_judge: list[int] = []
    requests: list[JudgeRequest] = []
    for i, (gold, raw_prediction) in enumerate(zip(golds, predictions)):
        prediction = truncator.truncate(raw_prediction or "").strip()
        answers = [gold.answer] if judge.ground_truth_only else gold.answers
        if is_refusal(prediction):
            scored[i] = ScoredQuestion(
                gold.interaction_id, MISSING, IDK, prediction, IDK_RULE, labels=gold.labels
            )
        elif any(prediction.lower() == answer.strip().lower() for answer in answers):
            scored[i] = ScoredQuestion(
                gold.interaction_id, CORRECT, EXACT, prediction, EXACT_RULE, labels=gold.labels
            )
        else:
            to_judge.append(i)
            requests.append(JudgeRequest(gold.query, tuple(a.strip() for a in answers), prediction))
    verdicts = judge.judge(requests) if requests else []
    if len(verdicts) != len(requests):
        raise RuntimeError(
            f"Judge {judge.identity} returned {len(verdicts)} verdicts for {len(requests)} predictions"
        )
    for i, request, verdict in zip(to_judge, requests, verdicts):
        scored[i] = ScoredQuestion(
            golds[i].interaction_id,
            CORRECT if verdict.correct else HALLUCINATION,
            verdict.source,
            request.prediction,
            verdict.rule,
            judge_reply=verdict.raw,
            judge_error=verdict.error,
            labels=golds[i].labels,
        )
    return [s for s in scored if s is not None]

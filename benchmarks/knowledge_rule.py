"""The plan's knowledge-extractor rule, chosen by the end-to-end score and reported held out.

    python -m benchmarks.knowledge_rule --plan answers/cpu-plan-<key>.jsonl
                                        --forced answers/cpu-plan-<key2>.jsonl

Inputs, two end-to-end runs (benchmarks/end_to_end.py) of the cpu preset on the same questions:
  --plan    the preset as it is (the extractor runs for a likely-static question whose best reference
            scores below `plan.weak_relevance`, or that has none)
  --forced  the same with `--set plan.weak_relevance=1.01 --set plan.knowledge_max_dynamic_probability=1.0`:
            the extractor runs for every question the reasoning answers
Each question then has a verdict with the extractor and, where the plan skipped it, one without.
Every candidate rule below runs the extractor for at least the questions the plan gives it, so each
question's verdict under a rule is one of the two runs': no rule needs a new run.

Candidate rules: run the extractor when P(dynamic) <= a and the best reference's relevance < t (or
there is no reference), over a grid of a and t; (0.5, 0.5) is the preset's rule. Printed: every
rule's score on the run (+1 correct, -1 wrong, 0 missing or unsure; n = every question, refused
ones included), extractor runs and wrong answers; the rule chosen on all questions (in-sample)
beside the rule chosen on the other folds and applied to each held-out question (5 folds repeated
--repeats times, and leave one data file out); the questions whose verdict the extractor changes.
Ties in the choice go to the rule that runs the extractor least (the cheaper plan).

The relevance and P(dynamic) are the ones the plan saw in the forced run: its knowledge signal
("knowledge: weak references (best 0.81)") and the attribute predictor's probability.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.end_to_end import DATA, SHARED, judge, read_answers
from evaluation.answer_match import Verdict
from evaluation.data import CragRecord, read_records
from evaluation.truncation import load_truncator
from models.attributes import AttributePredictor
from models.config import load_config
from models.markdown import markdown_table
from models.schema import Question
from tools.fit import VALUE

REPO_ROOT = Path(__file__).resolve().parents[1]
DYNAMIC_CAPS = (0.5, 0.7, 1.0)
RELEVANCE_BELOW = (0.5, 0.6, 0.7, 0.8, 0.9, 1.01)
PRESET_RULE = (0.5, 0.5)
_RELEVANCE = re.compile(r"^knowledge: (?:weak references \(best (?P<best>[0-9.]+|unscored)\)|no references)")


@dataclass(frozen=True)
class Case:
    record: CragRecord
    source: str
    dynamic_probability: float
    relevance: float | None  # None: no reference (or unscored), which every rule gives the extractor
    answered: bool  # it reached the plan (not refused before any stage ran)
    with_knowledge: Verdict
    without_knowledge: Verdict | None  # None: the plan ran the extractor too

    def verdict(self, rule: tuple[float, float]) -> Verdict:
        if self.runs_extractor(rule) or self.without_knowledge is None:
            return self.with_knowledge
        return self.without_knowledge

    def runs_extractor(self, rule: tuple[float, float]) -> bool:
        cap, below = rule
        return (
            self.answered
            and self.dynamic_probability <= cap
            and (self.relevance is None or self.relevance < below)
        )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--plan", type=Path, required=True, help="answers .jsonl of the preset's run")
    parser.add_argument(
        "--forced",
        type=Path,
        required=True,
        help="answers .jsonl of the run with the extractor for every question",
    )
    parser.add_argument("--data", nargs="+", type=Path, default=DATA, help="the CRAG files the runs answered")
    parser.add_argument("--repeats", type=int, default=20, help="repeats of the 5-fold split")
    parser.add_argument("--tokenizer-dir", type=Path, default=SHARED / "tokenizer")
    return parser.parse_args(argv)


def knowledge_signal(line: dict) -> str:
    return next((s for s in (line.get("plan") or {}).get("signals", []) if s.startswith("knowledge")), "")


def relevance_of(line: dict, question_id: str) -> float | None:
    signal = knowledge_signal(line)
    match = _RELEVANCE.match(signal)
    if match is None:
        raise SystemExit(
            f"{question_id}: the forced run's knowledge signal is {signal!r}, not a run of the extractor: "
            "was it run with plan.weak_relevance=1.01 and plan.knowledge_max_dynamic_probability=1.0?"
        )
    best = match.group("best")
    return None if best in (None, "unscored") else float(best)


def load_cases(args: argparse.Namespace) -> list[Case]:
    for path in (args.plan, args.forced):
        if not path.is_file():
            raise SystemExit(
                f"{path} does not exist: pass an answers file of "
                "benchmarks/end_to_end.py (its answers/ folder)"
            )
    planned, forced = read_answers(args.plan), read_answers(args.forced)
    sourced = [(record, path.name) for path in args.data for record in read_records(path)]
    sourced = [
        (r, s) for r, s in sourced if r.gold.interaction_id in planned and r.gold.interaction_id in forced
    ]
    if not sourced:
        raise SystemExit(
            f"{args.plan.name} and {args.forced.name} share no question of {', '.join(map(str, args.data))}"
        )
    records = [record for record, _ in sourced]
    truncator = load_truncator(args.tokenizer_dir)
    planned_verdicts, forced_verdicts = judge(planned, records, truncator), judge(forced, records, truncator)
    predictor = AttributePredictor(load_config("cpu").attributes, None)
    attributes = predictor.run(
        [
            Question(r.gold.interaction_id, r.gold.query, str(r.model_input.get("query_time", "")))
            for r in records
        ]
    )
    cases = []
    for (record, source), attribute in zip(sourced, attributes):
        question_id = record.gold.interaction_id
        answered = bool(knowledge_signal(forced[question_id]))  # refused before the plan: no signal
        plan_ran = (planned[question_id].get("plan") or {}).get("knowledge", False)
        cases.append(
            Case(
                record,
                source,
                attribute.dynamic_probability,
                relevance_of(forced[question_id], question_id) if answered else None,
                answered,
                forced_verdicts[question_id],
                None if plan_ran else planned_verdicts[question_id],
            )
        )
    return cases


def score(cases: list[Case], rule: tuple[float, float]) -> dict[str, float]:
    verdicts = [c.verdict(rule) for c in cases]
    correct, wrong = verdicts.count(Verdict.CORRECT), verdicts.count(Verdict.WRONG)
    return {
        "correct": correct,
        "wrong": wrong,
        "extractor runs": sum(c.runs_extractor(rule) for c in cases),
        "score": (correct - wrong) / len(cases),
    }


def choose(cases: list[Case]) -> tuple[float, float]:
    """The rule of the best score on `cases`; ties to the fewest extractor runs, then the preset's."""
    rules = [(cap, below) for cap in DYNAMIC_CAPS for below in RELEVANCE_BELOW]
    return max(
        rules,
        key=lambda r: (
            sum(VALUE[c.verdict(r)] for c in cases),
            -sum(c.runs_extractor(r) for c in cases),
            r == PRESET_RULE,
        ),
    )


def held_out(cases: list[Case], folds: list[list[int]]) -> dict[str, float]:
    verdicts: list[Verdict] = [Verdict.MISSING] * len(cases)
    runs = 0
    for fold in folds:
        inside = set(fold)
        rule = choose([c for i, c in enumerate(cases) if i not in inside])
        for i in fold:
            verdicts[i] = cases[i].verdict(rule)
            runs += cases[i].runs_extractor(rule)
    correct, wrong = verdicts.count(Verdict.CORRECT), verdicts.count(Verdict.WRONG)
    return {
        "correct": correct,
        "wrong": wrong,
        "extractor runs": runs,
        "score": (correct - wrong) / len(cases),
    }


def repeated_k_fold(n: int, k: int, repeats: int) -> list[list[list[int]]]:
    rng = np.random.default_rng(0)
    return [[list(map(int, part)) for part in np.array_split(rng.permutation(n), k)] for _ in range(repeats)]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    cases = load_cases(args)
    print(
        f"# The knowledge extractor's rule on {len(cases)} questions ({sum(c.answered for c in cases)} "
        "answered by the reasoning)\n"
    )
    rows = [
        [
            f"P(dynamic) <= {cap}, relevance < {below}"
            + (" (preset)" if (cap, below) == PRESET_RULE else ""),
            *score(cases, (cap, below)).values(),
        ]
        for cap in DYNAMIC_CAPS
        for below in RELEVANCE_BELOW
    ]
    print(
        markdown_table(
            ["rule", "correct", "wrong", "extractor runs", "score"], [[r[0], *map(_fmt, r[1:])] for r in rows]
        )
    )
    chosen = choose(cases)
    repeated = [held_out(cases, folds) for folds in repeated_k_fold(len(cases), 5, args.repeats)]
    sources = sorted({c.source for c in cases})
    by_file = held_out(cases, [[i for i, c in enumerate(cases) if c.source == s] for s in sources])
    summary = [
        ["preset rule, in-sample", *score(cases, PRESET_RULE).values()],
        [
            f"chosen on all (P(dynamic) <= {chosen[0]}, relevance < {chosen[1]}), in-sample",
            *score(cases, chosen).values(),
        ],
        [
            f"chosen on the other folds, held out (5-fold x {args.repeats}, mean)",
            *(
                round(float(np.mean([r[k] for r in repeated])), 3)
                for k in ("correct", "wrong", "extractor runs", "score")
            ),
        ],
        ["chosen on the other files, held out (leave one data file out)", *by_file.values()],
    ]
    print(
        "\n"
        + markdown_table(
            ["rule", "correct", "wrong", "extractor runs", "score"],
            [[r[0], *map(_fmt, r[1:])] for r in summary],
        )
    )
    changed = [
        c for c in cases if c.without_knowledge is not None and c.without_knowledge is not c.with_knowledge
    ]
    print(
        f"\nQuestions whose verdict the extractor changes ({len(changed)} of the "
        f"{sum(c.without_knowledge is not None and c.answered for c in cases)} answered that "
        "the plan runs without it):\n"
    )
    print(
        markdown_table(
            ["question", "gold class", "P(dynamic)", "best relevance", "without", "with"],
            [
                [
                    c.record.gold.query[:70],
                    c.record.gold.labels.get("static_or_dynamic", ""),
                    f"{c.dynamic_probability:.2f}",
                    "none" if c.relevance is None else f"{c.relevance:.2f}",
                    c.without_knowledge.value if c.without_knowledge else "",
                    c.with_knowledge.value,
                ]
                for c in changed
            ],
        )
    )
    return 0


def _fmt(value: float) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


if __name__ == "__main__":
    sys.exit(main())

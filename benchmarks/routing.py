"""The routing policy's answer worths, measured end to end and reported held out.

    python -m benchmarks.routing --answers outputs/end_to_end/answers/cpu-plan-<key>.jsonl

Input: the answers of an end-to-end run that refused nothing for dynamism, e.g.
`benchmarks/end_to_end.py --setups cpu-plan --set attributes.refuse_below=-1`. Every question then
has a verdict (the benchmark's checker, on the prediction cut to 75 tokens): +1 correct, -1 wrong,
0 missing or unsure. Refusing a question turns its value into 0, so any routing policy can be scored
on the run without rerunning it.

The worth of an answer per gold dynamism class (`attributes.answer_score`) is the mean value of the
class's questions, shrunk toward 0 by `--prior` pseudo-questions worth 0 (a class of 3 questions
says little). The policy (models/attributes/policy.py) answers when the expected worth over the
predicted classes is at least `attributes.refuse_below` (0 here: refusing is worth 0).

Printed: the score of each policy on the run (refuse nothing; the rule before the four classes,
P(dynamic) above 0.5 in finance and sports, 0.7 elsewhere; the configured worths; the worths fitted
on all questions), then the fitted worths held out: fitted on the other folds and applied to each
held-out question (5 folds repeated --repeats times, and leave one data file out), so the in-sample
and held-out scores stand side by side; last, the questions the fitted policy routes differently
from the rule before it.

With --date-line, the answers of the same run with `reasoning.state_change=true` (the reasoning
prompt tells a question predicted to change to take the most recent dated reference): the same
tables for it, then the date line chosen together with the worths, held out (on each fold's other
questions, the value whose fitted worths score best there; ties to the date line off, as shipped).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.end_to_end import judge, read_answers
from evaluation.answer_match import Verdict
from evaluation.data import CragRecord, read_records
from evaluation.truncation import load_truncator
from models.attributes import AttributePredictor
from models.attributes.data import DYNAMISM
from models.attributes.policy import class_probabilities, route
from models.config import AttributesConfig, load_config
from models.markdown import markdown_table
from models.schema import Question, QuestionAttributes

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
DATA = [SHARED / "data" / f"{name}.jsonl.bz2" for name in ("crag_dev_10", "crag_dev_pages_15", "crag_dev_pages_24")]
# The rule this policy replaced: refuse when P(dynamic) exceeds the domain's threshold.
RULE_BEFORE = {"finance": 0.5, "sports": 0.5, "music": 0.7, "movie": 0.7, "open": 0.7}
VALUE = {Verdict.CORRECT: 1, Verdict.WRONG: -1, Verdict.MISSING: 0, Verdict.UNSURE: 0}


@dataclass(frozen=True)
class Case:
    record: CragRecord
    source: str  # the data file, for leave-one-file-out
    dynamism: str  # gold class
    attributes: QuestionAttributes
    verdict: Verdict

    @property
    def value(self) -> int:
        return VALUE[self.verdict]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", type=Path, required=True, help="answers .jsonl of an end-to-end run that refused nothing")
    parser.add_argument("--date-line", type=Path, metavar="ANSWERS",
                        help="answers .jsonl of the same run with --set reasoning.state_change=true")
    parser.add_argument("--data", nargs="+", type=Path, default=DATA, help="the CRAG files the run answered")
    parser.add_argument("--prior", type=float, default=2.0, help="pseudo-questions worth 0 added to each class")
    parser.add_argument("--repeats", type=int, default=20, help="repeats of the 5-fold split")
    parser.add_argument("--tokenizer-dir", type=Path, default=SHARED / "tokenizer")
    return parser.parse_args(argv)


def load_cases(answers: Path, data: list[Path], tokenizer_dir: Path) -> list[Case]:
    if not answers.is_file():
        raise SystemExit(f"{answers} does not exist: pass the answers file of an end-to-end run (its answers/ folder)")
    lines = read_answers(answers)
    refused = sorted(i for i, line in lines.items() if str(line.get("route", "")).startswith("refused: dynamic"))
    if refused:
        raise SystemExit(
            f"{len(refused)} questions of {answers} were refused for dynamism ({', '.join(refused[:3])}, ...): "
            "rerun the benchmark with --set attributes.refuse_below=-1 so that every question has a verdict"
        )
    sourced = [(record, path.name) for path in data for record in read_records(path)]
    sourced = [(record, source) for record, source in sourced if record.gold.interaction_id in lines]
    if not sourced:
        raise SystemExit(f"none of the questions of {answers} is in {', '.join(map(str, data))}")
    verdicts = judge(lines, [record for record, _ in sourced], load_truncator(tokenizer_dir))
    predictor = AttributePredictor(load_config("cpu").attributes, None)
    questions = [Question(r.gold.interaction_id, r.gold.query, str(r.model_input.get("query_time", ""))) for r, _ in sourced]
    return [
        Case(record, source, record.gold.labels.get("static_or_dynamic", "static"), attributes, verdicts[record.gold.interaction_id])
        for (record, source), attributes in zip(sourced, predictor.run(questions))
    ]


def fit_scores(cases: list[Case], prior: float) -> dict[str, float]:
    """Per gold class: the mean value of its answers, shrunk toward 0 by `prior` pseudo-questions
    (0 for a class without questions)."""
    scores = {}
    for label in DYNAMISM:
        values = [c.value for c in cases if c.dynamism == label]
        scores[label] = round(sum(values) / (len(values) + prior), 3) if values else 0.0
    return scores


def answered_by_scores(case: Case, scores: dict[str, float]) -> bool:
    return not route(case.attributes, AttributesConfig(answer_score=scores)).refuse


def answered_by_rule_before(case: Case) -> bool:
    threshold = RULE_BEFORE.get(case.attributes.domain)
    return threshold is None or case.attributes.dynamic_probability <= threshold


def tally(cases: list[Case], answered: list[bool]) -> dict[str, float]:
    kept = [c for c, a in zip(cases, answered) if a]
    correct = sum(c.verdict is Verdict.CORRECT for c in kept)
    wrong = sum(c.verdict is Verdict.WRONG for c in kept)
    return {"correct": correct, "wrong": wrong, "refused": len(cases) - len(kept), "score": (correct - wrong) / len(cases)}


def held_out(cases: list[Case], folds: list[list[int]], prior: float) -> list[bool]:
    """Each question routed by worths fitted on the questions outside its fold."""
    answered = [True] * len(cases)
    for fold in folds:
        inside = set(fold)
        scores = fit_scores([c for i, c in enumerate(cases) if i not in inside], prior)
        for i in fold:
            answered[i] = answered_by_scores(cases[i], scores)
    return answered


def held_out_date_line(runs: dict[str, list[Case]], folds: list[list[int]], prior: float) -> dict[str, float]:
    """Each question answered (or refused) and judged as the run chosen on the other folds gives it:
    per run, worths fitted on the other folds; the run whose fitted policy scores best there (ties to
    the first, the shipped one)."""
    values = list(runs)
    first = runs[values[0]]
    answered, chosen = [True] * len(first), [values[0]] * len(first)
    for fold in folds:
        inside = set(fold)
        fits = {}
        for value, cases in runs.items():
            training = [c for i, c in enumerate(cases) if i not in inside]
            scores = fit_scores(training, prior)
            fits[value] = (tally(training, [answered_by_scores(c, scores) for c in training])["score"], scores)
        best = max(values, key=lambda value: (fits[value][0], -values.index(value)))
        for i in fold:
            chosen[i] = best
            answered[i] = answered_by_scores(runs[best][i], fits[best][1])
    return tally([runs[value][i] for i, value in enumerate(chosen)], answered)


def repeated_k_fold(n: int, k: int, repeats: int) -> list[list[list[int]]]:
    rng = np.random.default_rng(0)
    return [[list(map(int, part)) for part in np.array_split(rng.permutation(n), k)] for _ in range(repeats)]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    cases = load_cases(args.answers, args.data, args.tokenizer_dir)
    report(cases, args.answers.name, args)
    if args.date_line is None:
        return 0
    line_cases = load_cases(args.date_line, args.data, args.tokenizer_dir)
    shared = {c.record.gold.interaction_id for c in cases} & {c.record.gold.interaction_id for c in line_cases}
    runs = {name: sorted((c for c in run if c.record.gold.interaction_id in shared), key=lambda c: c.record.gold.interaction_id)
            for name, run in (("date line off", cases), ("date line on", line_cases))}
    print()
    report(runs["date line on"], args.date_line.name, args)
    n = len(shared)
    rows = []
    for name, run in runs.items():
        configured = load_config("cpu").attributes.answer_score
        rows.append([f"{name}, configured worths, in-sample", *tally(run, [answered_by_scores(c, configured) for c in run]).values()])
        fitted = fit_scores(run, args.prior)
        rows.append([f"{name}, fitted worths, in-sample", *tally(run, [answered_by_scores(c, fitted) for c in run]).values()])
    repeated = [held_out_date_line(runs, folds, args.prior) for folds in repeated_k_fold(n, 5, args.repeats)]
    rows.append([f"date line and worths chosen together, held out (5-fold x {args.repeats}, mean)",
                 *(round(float(np.mean([r[key] for r in repeated])), 3) for key in ("correct", "wrong", "refused", "score"))])
    first = runs["date line off"]
    by_file = [[i for i, c in enumerate(first) if c.source == source] for source in sorted({c.source for c in first})]
    rows.append(["date line and worths chosen together, held out (leave one data file out)",
                 *held_out_date_line(runs, by_file, args.prior).values()])
    print(f"\n# The date line with the routing, on the {n} questions both runs answered\n")
    print(markdown_table(["policy", "correct", "wrong", "refused", "score"], [[name, *map(_fmt, rest)] for name, *rest in rows]))
    off, on = runs["date line off"], runs["date line on"]
    changed = [(a, b) for a, b in zip(off, on) if a.verdict is not b.verdict]
    print(f"\nQuestions whose verdict the date line changes, every question answered ({len(changed)}):\n")
    print(markdown_table(["question", "gold class", "type", "P(dynamic)", "off", "on"],
                         [[a.record.gold.query[:70], a.dynamism, a.record.gold.labels.get("question_type", ""),
                           f"{a.attributes.dynamic_probability:.2f}", a.verdict.value, b.verdict.value] for a, b in changed]))
    return 0


def report(cases: list[Case], name: str, args: argparse.Namespace) -> None:
    """The policies' scores on one run, the fitted worths held out, the tallies by class and the
    questions the fitted worths route unlike the rule before."""
    fitted = fit_scores(cases, args.prior)
    configured = load_config("cpu").attributes.answer_score
    policies = {
        "refuse nothing": [True] * len(cases),
        "rule before (P(dynamic) > 0.5 finance/sports, 0.7 elsewhere)": [answered_by_rule_before(c) for c in cases],
        f"configured worths {configured}": [answered_by_scores(c, configured) for c in cases],
        f"fitted worths {fitted}, in-sample": [answered_by_scores(c, fitted) for c in cases],
    }
    rows = [[name, *tally(cases, answered).values()] for name, answered in policies.items()]
    runs = [tally(cases, held_out(cases, folds, args.prior)) for folds in repeated_k_fold(len(cases), 5, args.repeats)]
    rows.append([f"fitted worths, held out (5-fold x {args.repeats}, mean)",
                 *(round(float(np.mean([r[key] for r in runs])), 3) for key in ("correct", "wrong", "refused", "score"))])
    sources = sorted({c.source for c in cases})
    by_file = [[i for i, c in enumerate(cases) if c.source == source] for source in sources]
    rows.append(["fitted worths, held out (leave one data file out)", *tally(cases, held_out(cases, by_file, args.prior)).values()])
    print(f"# Routing on {len(cases)} questions of {name}\n")
    print(markdown_table(["policy", "correct", "wrong", "refused", "score"], [[name, *map(_fmt, rest)] for name, *rest in rows]))
    by_class = [[label, sum(c.dynamism == label for c in cases),
                 *(sum(c.dynamism == label and c.verdict is v for c in cases) for v in (Verdict.CORRECT, Verdict.MISSING, Verdict.WRONG, Verdict.UNSURE)),
                 fitted[label]] for label in DYNAMISM]
    print("\nEvery question answered, by gold class:\n")
    print(markdown_table(["class", "n", "correct", "missing", "wrong", "unsure", "fitted worth"], by_class))
    changed = [c for c in cases if answered_by_scores(c, fitted) != answered_by_rule_before(c)]
    print("\nQuestions the fitted worths route unlike the rule before:\n")
    print(markdown_table(
        ["question", "gold class", "P(dynamic)", "P(classes)", "verdict if answered", "fitted policy"],
        [[c.record.gold.query[:70], c.dynamism, f"{c.attributes.dynamic_probability:.2f}",
          " ".join(f"{p:.2f}" for p in class_probabilities(c.attributes).values()), c.verdict.value,
          "answers" if answered_by_scores(c, fitted) else "refuses"] for c in changed],
    ))


def _fmt(value: float) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


if __name__ == "__main__":
    sys.exit(main())

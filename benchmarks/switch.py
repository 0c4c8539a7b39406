"""A setting with a few values (a switch), chosen by the end-to-end score and reported held out.

    python -m benchmarks.switch off=answers/cpu-plan-<key>.jsonl on=answers/cpu-plan-<key2>.jsonl

Input: end-to-end runs (benchmarks/end_to_end.py) of the same setup on the same questions, one per
value of the setting, each named `value=answers file`; the first is the value shipped now, which wins
ties (no change without a gain). Each question has a verdict under each value (the benchmark's checker
on the prediction cut to 75 tokens): +1 correct, -1 wrong, 0 missing or unsure.

Printed: each value's score on every question (in-sample) beside the value chosen on the other folds
and applied to each held-out question (5 folds repeated --repeats times, and leave one data file
out); each value's tallies by gold dynamism class and by question type; the questions whose verdict
differs between the values.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.end_to_end import TABLES, TALLY_HEADERS, breakdown, judge, read_answers, tally_cells
from benchmarks.routing import DATA, SHARED, VALUE, repeated_k_fold
from evaluation.answer_match import Verdict
from evaluation.data import CragRecord, read_records
from evaluation.truncation import load_truncator
from models.markdown import markdown_table

REPO_ROOT = Path(__file__).resolve().parents[1]

@dataclass(frozen=True)
class Case:
    record: CragRecord
    source: str  # the data file, for leave-one-file-out
    verdicts: dict[str, Verdict]  # value -> verdict


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", metavar="VALUE=ANSWERS", help="a run per value; the first is the shipped one")
    parser.add_argument("--data", nargs="+", type=Path, default=DATA, help="the CRAG files the runs answered")
    parser.add_argument("--repeats", type=int, default=20, help="repeats of the 5-fold split")
    parser.add_argument("--tokenizer-dir", type=Path, default=SHARED / "tokenizer")
    args = parser.parse_args(argv)
    runs = {}
    for run in args.runs:
        value, equals, path = run.partition("=")
        if not equals or not value or not Path(path).is_file():
            parser.error(f"{run!r}: give VALUE=ANSWERS, the answers file of an end-to-end run (its answers/ folder)")
        runs[value] = Path(path)
    if len(runs) < 2:
        parser.error("give at least two values to choose between")
    args.runs = runs
    return args


def load_cases(runs: dict[str, Path], data: list[Path], tokenizer_dir: Path) -> list[Case]:
    lines = {value: read_answers(path) for value, path in runs.items()}
    sourced = [(record, path.name) for path in data for record in read_records(path)]
    sourced = [(r, s) for r, s in sourced if all(r.gold.interaction_id in run for run in lines.values())]
    if not sourced:
        raise SystemExit(f"the runs share no question of {', '.join(map(str, data))}")
    records = [record for record, _ in sourced]
    truncator = load_truncator(tokenizer_dir)
    verdicts = {value: judge(run, records, truncator) for value, run in lines.items()}
    return [Case(r, s, {value: verdicts[value][r.gold.interaction_id] for value in runs}) for r, s in sourced]


def choose(cases: list[Case], values: list[str]) -> str:
    """The value of the best score on `cases`; ties to the earlier value (the shipped one first)."""
    return max(values, key=lambda value: (sum(VALUE[c.verdicts[value]] for c in cases), -values.index(value)))


def score(verdicts: list[Verdict]) -> dict[str, float]:
    correct, wrong = verdicts.count(Verdict.CORRECT), verdicts.count(Verdict.WRONG)
    return {"correct": correct, "wrong": wrong, "score": (correct - wrong) / len(verdicts)}


def held_out(cases: list[Case], values: list[str], folds: list[list[int]]) -> dict[str, float]:
    verdicts: list[Verdict] = [Verdict.MISSING] * len(cases)
    for fold in folds:
        inside = set(fold)
        value = choose([c for i, c in enumerate(cases) if i not in inside], values)
        for i in fold:
            verdicts[i] = cases[i].verdicts[value]
    return score(verdicts)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    values = list(args.runs)
    cases = load_cases(args.runs, args.data, args.tokenizer_dir)
    print(f"# {' / '.join(values)} on {len(cases)} questions\n")
    rows = [[f"{value}{' (shipped)' if value == values[0] else ''}, in-sample",
             *score([c.verdicts[value] for c in cases]).values()] for value in values]
    chosen = choose(cases, values)
    rows.append([f"chosen on all ({chosen}), in-sample", *score([c.verdicts[chosen] for c in cases]).values()])
    repeated = [held_out(cases, values, folds) for folds in repeated_k_fold(len(cases), 5, args.repeats)]
    rows.append([f"chosen on the other folds, held out (5-fold x {args.repeats}, mean)",
                 *(round(float(np.mean([r[k] for r in repeated])), 3) for k in ("correct", "wrong", "score"))])
    sources = sorted({c.source for c in cases})
    by_file = [[i for i, c in enumerate(cases) if c.source == s] for s in sources]
    rows.append(["chosen on the other files, held out (leave one data file out)", *held_out(cases, values, by_file).values()])
    print(markdown_table(["value", "correct", "wrong", "score"], [[r[0], *map(_fmt, r[1:])] for r in rows]))
    records = [c.record for c in cases]
    for label, (title, _) in TABLES.items():
        header = [title, *(f"{value}: {name}" for value in values for name in ("n", "c/m/w/u", "score"))]
        parts = {value: breakdown(records, {c.record.gold.interaction_id: c.verdicts[value] for c in cases}, label)
                 for value in values}
        table = []
        for group in parts[values[0]]:
            cells = []
            for value in values:
                counts = tally_cells(parts[value][group])
                cells += [counts[0], "/".join(map(str, counts[1:5])), counts[5]]
            table.append([group, *cells])
        print(f"\nBy {title} ({', '.join(TALLY_HEADERS[1:5])}):\n")
        print(markdown_table(header, table))
    changed = [c for c in cases if len({c.verdicts[value] for value in values}) > 1]
    print(f"\nQuestions whose verdict differs between the values ({len(changed)}):\n")
    print(markdown_table(
        ["question", "gold class", "type", *values],
        [[c.record.gold.query[:70], c.record.gold.labels.get("static_or_dynamic", ""),
          c.record.gold.labels.get("question_type", ""), *(c.verdicts[value].value for value in values)] for c in changed],
    ))
    return 0


def _fmt(value: float) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


if __name__ == "__main__":
    sys.exit(main())

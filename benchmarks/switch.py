"""A setting with a few values (a switch) that one run cannot observe, chosen by the end-to-end score
and reported held out, the way `python -m tools.fit` chooses the answer policy's options.

    python -m benchmarks.switch off=answers/cpu-plan-<key>.jsonl on=answers/cpu-plan-<key2>.jsonl

Input: end-to-end runs (benchmarks/end_to_end.py) of the same setup on the same questions, one per
value of the setting, each named `value=answers file`; the first is the value shipped now. Each
question has a verdict under each value (the shared checker on the prediction cut to 75 tokens): +1
correct, -1 wrong, 0 missing or unsure.

The choice is tools.fit's: the value of the best score on the other folds (ties to the shipped
value), folds by a fixed hash of the interaction ids (`tools.fit.fold_of`), the held-out gain per
question against the shipped value with its 95 % interval (`tools.fit.interval`); another value
replaces the shipped one only where that interval lies above zero. Printed: each value's score
(in-sample) beside the held-out choice; each value's tallies by gold dynamism class and by question
type; the questions whose verdict differs between the values.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path


from benchmarks.end_to_end import (
    DATA,
    SHARED,
    TABLES,
    TALLY_HEADERS,
    breakdown,
    judge,
    read_answers,
    tally_cells,
)
from evaluation.answer_match import Verdict
from evaluation.data import CragRecord, read_records
from evaluation.truncation import load_truncator
from models.markdown import markdown_table
from tools.fit import VALUE, choose, fold_of, interval

REPO_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Case:
    record: CragRecord
    verdicts: dict[str, Verdict]  # value -> verdict

    def value(self, name: str) -> int:
        return VALUE[self.verdicts[name]]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "runs", nargs="+", metavar="VALUE=ANSWERS", help="a run per value; the first is the shipped one"
    )
    parser.add_argument("--data", nargs="+", type=Path, default=DATA, help="the CRAG files the runs answered")
    parser.add_argument("--folds", type=int, default=5, help="folds by a hash of the interaction ids")
    parser.add_argument("--resamples", type=int, default=2000, help="resamples of the gain's interval")
    parser.add_argument("--tokenizer-dir", type=Path, default=SHARED / "tokenizer")
    args = parser.parse_args(argv)
    runs = {}
    for run in args.runs:
        value, equals, path = run.partition("=")
        if not equals or not value or not Path(path).is_file():
            parser.error(
                f"{run!r}: give VALUE=ANSWERS, the answers file of an end-to-end run (its answers/ folder)"
            )
        runs[value] = Path(path)
    if len(runs) < 2:
        parser.error("give at least two values to choose between")
    args.runs = runs
    return args


def load_cases(runs: dict[str, Path], data: list[Path], tokenizer_dir: Path) -> list[Case]:
    lines = {value: read_answers(path) for value, path in runs.items()}
    records = [
        r
        for path in data
        for r in read_records(path)
        if all(r.gold.interaction_id in run for run in lines.values())
    ]
    if not records:
        raise SystemExit(f"the runs share no question of {', '.join(map(str, data))}")
    truncator = load_truncator(tokenizer_dir)
    verdicts = {value: judge(run, records, truncator) for value, run in lines.items()}
    return [Case(r, {value: verdicts[value][r.gold.interaction_id] for value in runs}) for r in records]


def chosen(cases: list[Case], values: list[str]) -> str:
    """The value of the best score on `cases`; ties to the shipped one (the first)."""
    return values[
        choose([sum(c.value(value) for c in cases) for value in values], [i == 0 for i in range(len(values))])
    ]


def held_out(cases: list[Case], values: list[str], folds: int) -> list[int]:
    """Each question's value under the choice made on the other folds."""
    result = [0] * len(cases)
    for fold in range(folds):
        inside = [i for i, c in enumerate(cases) if fold_of(c.record.gold.interaction_id, folds) == fold]
        choice = chosen([c for i, c in enumerate(cases) if i not in set(inside)], values)
        for i in inside:
            result[i] = cases[i].value(choice)
    return result


def score(values: list[int]) -> list[object]:
    correct, wrong = values.count(1), values.count(-1)
    return [correct, wrong, f"{(correct - wrong) / len(values):.3f}"]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    values = list(args.runs)
    cases = load_cases(args.runs, args.data, args.tokenizer_dir)
    shipped = [c.value(values[0]) for c in cases]
    rows = [
        [
            f"{value}{' (shipped)' if value == values[0] else ''}, in-sample",
            *score([c.value(value) for c in cases]),
        ]
        for value in values
    ]
    out = held_out(cases, values, args.folds)
    mean, low, high = interval([o - s for o, s in zip(out, shipped)], args.resamples)
    rows.append(
        [f"chosen on the other folds, held out ({args.folds} folds by a hash of the ids)", *score(out)]
    )
    best = chosen(cases, values)
    verdict = (
        f"{best} replaces {values[0]}"
        if best != values[0] and low > 0
        else f"{values[0]} stays"
        + ("" if best == values[0] else f" ({best} scores more in-sample, not clear of zero held out)")
    )
    print(f"# {' / '.join(values)} on {len(cases)} questions\n")
    print(markdown_table(["value", "correct", "wrong", "score"], rows))
    print(
        f"\nHeld-out gain against {values[0]}: {mean:+.3f} per question [{low:+.3f}, {high:+.3f}]: {verdict}."
    )
    records = [c.record for c in cases]
    for label, (title, _) in TABLES.items():
        header = [title, *(f"{value}: {name}" for value in values for name in ("n", "c/m/w/u", "score"))]
        parts = {
            value: breakdown(records, {c.record.gold.interaction_id: c.verdicts[value] for c in cases}, label)
            for value in values
        }
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
    print(
        markdown_table(
            ["question", "gold class", "type", *values],
            [
                [
                    c.record.gold.query[:70],
                    c.record.gold.labels.get("static_or_dynamic", ""),
                    c.record.gold.labels.get("question_type", ""),
                    *(c.verdicts[value].value for value in values),
                ]
                for c in changed
            ],
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

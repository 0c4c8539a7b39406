"""The answer check (models/answer_check.py) on real CRAG questions: what it reads and what it refuses.

- golds: every gold answer of the validation questions against its own question's constraint (as
  the system's answers pass through `normalize_answer`: "invalid question", the false-premise
  questions' gold, never violates). Each violating gold is listed; the target is none. Also how
  many questions get each kind of constraint.
- labelled: the hand-labelled predictions of answer_checker_labels.jsonl (see
  benchmarks/answer_checker.py) per part: the correct ones the check would refuse (target: none)
  and the wrong ones it catches.

  python -m benchmarks.answer_check [--data-dir ../shared/data]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from models.answer_check import CONSTRAINT_KINDS, read_constraint, violates
from models.answers import normalize_answer
from models.config import load_config
from models.markdown import markdown_table

REPO_ROOT = Path(__file__).resolve().parents[1]
VALIDATION = "crag_questions_validation.jsonl"
LABELS = Path(__file__).with_name("answer_checker_labels.jsonl")
PARTS = ("tune", "held-out")


def violation(query: str, answer: str) -> str | None:
    constraint = read_constraint(query)
    return violates(constraint, normalize_answer(str(answer))) if constraint is not None else None


def gold_report(questions: list[dict]) -> None:
    kinds = Counter(
        constraint.kind if (constraint := read_constraint(q["query"])) else "none" for q in questions
    )
    golds = [(q, answer) for q in questions for answer in [q["answer"], *q.get("alt_ans", [])]]
    violating = [(q, answer, why) for q, answer in golds if (why := violation(q["query"], answer))]
    by_kind = Counter(read_constraint(q["query"]).kind for q, _, _ in violating)  # type: ignore[union-attr]
    checked = load_config("cpu").answer_check.kinds
    rows = [
        [kind, kinds[kind], by_kind[kind], "yes" if kind in checked else "no"] for kind in CONSTRAINT_KINDS
    ]
    rows.append(["none", kinds["none"], "", ""])
    print(f"## Constraints read from {len(questions)} validation questions\n")
    print(markdown_table(["constraint", "questions", "golds violating", "checked (cpu preset)"], rows))
    print(f"\n## Gold answers violating their own question's constraint: {len(violating)} of {len(golds)}\n")
    for q, answer, why in violating:
        print(f"- [{q['question_type']}] {q['query']!r} -> {answer!r}: {why}")


def label_report(questions: dict[str, dict]) -> None:
    rows = []
    refused, caught = [], []
    for part in PARTS:
        labels = [
            json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines() if line.strip()
        ]
        labels = [label for label in labels if label["part"] == part and label["question"] in questions]
        checked = [
            (label, violation(questions[label["question"]]["query"], label["prediction"])) for label in labels
        ]
        correct = [(label, why) for label, why in checked if label["label"] == "correct"]
        wrong = [(label, why) for label, why in checked if label["label"] == "wrong"]
        constrained = sum(
            read_constraint(questions[label["question"]]["query"]) is not None for label in labels
        )
        refused += [(part, label, why) for label, why in correct if why]
        caught += [(part, label, why) for label, why in wrong if why]
        rows.append(
            [
                part,
                len(labels),
                constrained,
                f"{sum(bool(why) for _, why in correct)} / {len(correct)}",
                f"{sum(bool(why) for _, why in wrong)} / {len(wrong)}",
            ]
        )
    print(f"\n## Labelled predictions ({LABELS.name})\n")
    print(
        markdown_table(["part", "predictions", "with a constraint", "correct refused", "wrong caught"], rows)
    )
    for title, cases in (("Correct predictions refused", refused), ("Wrong predictions caught", caught)):
        print(f"\n{title}: {len(cases)}")
        for part, label, why in cases:
            print(f"- [{part}] {questions[label['question']]['query']!r} -> {label['prediction']!r}: {why}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data-dir", type=Path, default=REPO_ROOT.parent / "shared" / "data")
    args = parser.parse_args()
    path = args.data_dir / VALIDATION
    if not path.is_file():
        print(f"{path} is absent: nothing to measure")
        return
    questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    gold_report(questions)
    label_report({q["interaction_id_prefix"]: q for q in questions})


if __name__ == "__main__":
    main()

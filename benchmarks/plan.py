"""The plan's calculator rule (models/plan.py) against CRAG's question types, on the 1,371 labelled
validation questions (../shared/data/crag_questions_validation.jsonl; no pages).

The questions that need arithmetic, dates or counting are taken to be CRAG's comparison,
aggregation and post-processing types. The rule's wording is scored against them: precision (of
the questions it sends to the calculator, the share of those types) and recall (of those types,
the share it sends), with the fire rate per type. A comparison goes to the calculator only when its
references hold numbers; with no pages here it is counted as sent (recall is an upper bound, as
precision a lower bound, for that branch). The word lists were written from the type definitions
and then revised on the questions of the tuning half only (sha256 of the question id, even); the
held-out half is the honest number. Also printed: how many questions per domain the KG rule skips
as definitions or explanations.

    python -m benchmarks.plan [--data ../shared/data/crag_questions_validation.jsonl]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

from models.config import load_config
from models.markdown import markdown_table
from models.plan import Planner
from models.schema import QuestionAttributes

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA = REPO_ROOT.parent / "shared" / "data" / "crag_questions_validation.jsonl"
NEEDS_ARITHMETIC = {"comparison", "aggregation", "post-processing"}


def half(question: dict) -> str:
    digest = hashlib.sha256(str(question["interaction_id_prefix"]).encode()).hexdigest()
    return "tuning" if int(digest, 16) % 2 == 0 else "held-out"


def sends(planner: Planner, query: str) -> bool:
    cues = planner.cues(query)
    return bool(
        cues.arithmetic or cues.counting or cues.comparison or cues.numbers >= planner.config.question_numbers
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args(argv)
    if not args.data.is_file():
        raise SystemExit(f"{args.data} not found (pass --data)")
    questions = [
        json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    planner = Planner(load_config("cpu").plan)
    types = sorted({q["question_type"] for q in questions})
    rows, per_type = [], {t: [] for t in types}
    for part in ("tuning", "held-out", "all"):
        chosen = [q for q in questions if part == "all" or half(q) == part]
        sent = [q for q in chosen if sends(planner, q["query"])]
        positives = [q for q in chosen if q["question_type"] in NEEDS_ARITHMETIC]
        hits = [q for q in sent if q["question_type"] in NEEDS_ARITHMETIC]
        rows.append(
            [
                part,
                len(chosen),
                len(positives),
                len(sent),
                f"{len(hits) / max(len(sent), 1):.2f}",
                f"{len(hits) / max(len(positives), 1):.2f}",
            ]
        )
        for kind in types:
            of_type = [q for q in chosen if q["question_type"] == kind]
            per_type[kind].append(f"{sum(sends(planner, q['query']) for q in of_type)}/{len(of_type)}")
    print(
        f"# The calculator rule on {len(questions)} validation questions (needs arithmetic: "
        f"{', '.join(sorted(NEEDS_ARITHMETIC))})\n"
    )
    print(
        markdown_table(
            ["half", "questions", "needing arithmetic", "sent to the calculator", "precision", "recall"], rows
        )
    )
    print("\nSent per question type:\n")
    print(
        markdown_table(
            ["type", "tuning", "held-out", "all"], [[kind, *cells] for kind, cells in per_type.items()]
        )
    )
    skipped = Counter(
        q["domain"]
        for q in questions
        if not planner.kg(q["query"], QuestionAttributes(domain=q["domain"])).run
    )
    total = Counter(q["domain"] for q in questions)
    print(
        "\nKG skipped (a definition or an explanation asked), per domain: "
        + ", ".join(f"{domain} {skipped[domain]}/{total[domain]}" for domain in sorted(total))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

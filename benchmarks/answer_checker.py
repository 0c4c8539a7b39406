"""The answer checker (evaluation/answer_match.py) on real CRAG gold answers, against the previous rule.

Pairs, each checked as prediction against gold with the gold question:
  - self: every gold answer against itself (must be correct; "i don't know" golds left out: missing)
  - alternatives: every alternative answer against the gold answer and the gold answer against each
    alternative (must be correct; `crag_dev_*` files, the validation set has none)
  - other questions: every gold answer against the gold answer of every other question of the same
    kind (answer_kind: value, list, phrase, sentence, yes/no, ...), leaving out pairs whose answers
    are the same words (two questions answered "yes" or "3"). A correct verdict here is a false
    correct, unless the two answers happen to agree (both "yes, ..."; "4" and "4 times").
Printed: verdict counts per set and kind, the false-correct rate, the share left unsure, the same for
the previous rules judge (normalised exact match, which never says unsure), the false-correct pairs
themselves, and the checker's speed.

    .venv/bin/python benchmarks/answer_checker.py [--data-dir ../shared/data] [--show 20]
"""

from __future__ import annotations

import argparse
import re
import string
import sys
import time
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from evaluation.answer_match import Kind, Verdict, answer_kind, check_answer, is_refusal  # noqa: E402
from evaluation.data import read_records  # noqa: E402

DEV_FILES = ("crag_dev_10.jsonl.bz2", "crag_dev_pages_15.jsonl.bz2", "crag_dev_pages_24.jsonl.bz2")
VALIDATION = "crag_questions_validation.jsonl"


def previous_rule(prediction: str, gold: str) -> Verdict:
    """The rules judge before the checker: normalised exact match, everything else wrong."""

    def normalise(text: str) -> str:
        text = "".join(ch for ch in text.lower() if ch not in string.punctuation)
        return " ".join(re.sub(r"\b(a|an|the)\b", " ", text).split())

    return Verdict.CORRECT if normalise(prediction) == normalise(gold) else Verdict.WRONG


NUMBER_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()


def answers_agree(a: str, b: str) -> bool:
    """Two answers that say the same thing by a test independent of the checker: the same leading yes
    or no, or the same numbers written ("4" and "four times", "$0.40" and "0.4")."""
    first = [re.match(r"\W*(yes|no)\b", text.lower()) for text in (a, b)]
    if all(first):
        return first[0][1] == first[1][1]

    def numbers(text: str) -> set[Decimal]:
        text = re.sub(r"(?<=\d),(?=\d{3})", "", text.lower())
        found = {Decimal(n) for n in re.findall(r"\d+(?:\.\d+)?", text)}
        return found | {
            Decimal(NUMBER_WORDS.index(w)) for w in re.findall(r"[a-z]+", text) if w in NUMBER_WORDS
        }

    return bool(numbers(a)) and numbers(a) == numbers(b)


def load(path: Path) -> list[dict]:
    return [
        {"query": r.gold.query, "answer": r.gold.answer, "alternatives": r.gold.alternative_answers}
        for r in read_records(path)
    ]


def table(title: str, rows: dict[str, Counter]) -> None:
    print(f"\n{title}")
    print(f"| {'set':<32} | {'pairs':>7} | {'correct':>7} | {'wrong':>7} | {'unsure':>7} | {'unsure %':>8} |")
    print(f"|{'-' * 34}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 10}|")
    for name, counts in rows.items():
        n = sum(counts.values())
        print(
            f"| {name:<32} | {n:>7} | {counts[Verdict.CORRECT]:>7} | {counts[Verdict.WRONG]:>7} | "
            f"{counts[Verdict.UNSURE]:>7} | {counts[Verdict.UNSURE] / max(n, 1):>8.2%} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data-dir", type=Path, default=REPO_ROOT.parent / "shared" / "data")
    parser.add_argument("--show", type=int, default=20, help="false-correct pairs to print")
    args = parser.parse_args()
    validation = load(args.data_dir / VALIDATION)
    questions = validation + [q for name in DEV_FILES for q in load(args.data_dir / name)]

    agreement: dict[str, Counter] = {"self (validation + dev)": Counter(), "alternatives (dev)": Counter()}
    previous: dict[str, Counter] = {"self (validation + dev)": Counter(), "alternatives (dev)": Counter()}
    failures = []
    for q in questions:
        if not is_refusal(q["answer"]):
            agreement["self (validation + dev)"][
                check_answer(q["answer"], q["answer"], question=q["query"])
            ] += 1
            previous["self (validation + dev)"][previous_rule(q["answer"], q["answer"])] += 1
        for alternative in q["alternatives"]:
            for prediction, gold in ((alternative, q["answer"]), (q["answer"], alternative)):
                verdict = check_answer(prediction, gold, question=q["query"])
                agreement["alternatives (dev)"][verdict] += 1
                previous["alternatives (dev)"][previous_rule(prediction, gold)] += 1
                if verdict is not Verdict.CORRECT:
                    failures.append((verdict.value, prediction, gold))
    table("Agreement (must be all correct): checker", agreement)
    table("Agreement: previous rule", previous)
    for failure in failures:
        print(f"  not correct: {failure}")

    by_kind: dict[Kind, list[dict]] = defaultdict(list)
    for q in validation:
        by_kind[answer_kind(q["answer"])].append(q)
    cross: dict[str, Counter] = {}
    cross_previous = Counter()
    agreeing = Counter()
    false_correct = []
    began, pairs = time.perf_counter(), 0
    for kind, group in by_kind.items():
        counts = cross.setdefault(f"{kind.value} ({len(group)} answers)", Counter())
        for q in group:
            for other in group:
                if other is q or other["answer"].strip().lower() == q["answer"].strip().lower():
                    continue
                verdict = check_answer(other["answer"], q["answer"], question=q["query"])
                pairs += 1
                if answers_agree(other["answer"], q["answer"]):
                    agreeing[verdict] += 1
                    continue
                counts[verdict] += 1
                cross_previous[previous_rule(other["answer"], q["answer"])] += 1
                if verdict is Verdict.CORRECT:
                    false_correct.append((kind.value, other["answer"], q["answer"], q["query"]))
    seconds = time.perf_counter() - began
    cross["all kinds"] = sum(cross.values(), Counter())
    cross["answers that agree (left out)"] = agreeing
    table("Another question's gold answer of the same kind (validation): checker", cross)
    table("Another question's gold answer of the same kind: previous rule", {"all kinds": cross_previous})
    total = cross["all kinds"]
    n = sum(total.values())
    print(
        f"\nfalse-correct rate {total[Verdict.CORRECT] / n:.4%} ({total[Verdict.CORRECT]} of {n} pairs); "
        f"unsure {total[Verdict.UNSURE] / n:.2%}; {pairs / seconds:,.0f} pairs per second"
    )
    kinds = Counter(answer_kind(q["answer"]).value for q in validation)
    print("kinds of the validation gold answers: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
    for kind, prediction, gold, query in false_correct[: args.show]:
        print(f"  false correct [{kind}]: {prediction!r} for {gold!r} ({query!r})")


if __name__ == "__main__":
    main()

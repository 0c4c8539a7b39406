"""The knowledge extractor on its own: how often the model's memory answers the validation questions.

    python -m benchmarks.knowledge_memory [--limit N] [--minutes M]

The extractor (models/knowledge.py, the cpu preset's LLM and prompt) answers each of the 1,371 CRAG
validation questions with no references, as it would as the pipeline's second opinion. The questions
have no pages and no query time: the prompt's current time is "unknown". Each answer is judged by
the benchmark's checker (evaluation/answer_match.py) against the gold answer; a table by dynamism
class and by domain (correct / missing / wrong / unsure, score = (correct - wrong) / n, and the
share of the answered ones that are right) says where a second opinion from memory can help.

The questions are taken in a fixed shuffled order (seed 0), so any first N of them are a uniform
sample; the answers are kept in --out as they come (a rerun goes on where the last one stopped), and
--minutes stops a run between batches, for runs split into short turns.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from tqdm import tqdm

from benchmarks.end_to_end import TALLY_HEADERS, tally, tally_cells
from benchmarks.llm_cache import add_reply_cache_options, reply_cache_override
from evaluation.answer_match import Verdict, check_answer
from models.attributes.data import DYNAMISM
from models.config import load_config, parse_overrides
from models.knowledge import KnowledgeExtractor
from models.llm import create_backend
from models.markdown import markdown_table
from models.prompts import PromptLibrary
from models.schema import Question

REPO_ROOT = Path(__file__).resolve().parents[1]
VALIDATION = REPO_ROOT.parent / "shared" / "data" / "crag_questions_validation.jsonl"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=VALIDATION, help="the validation questions (.jsonl)")
    parser.add_argument(
        "--out",
        type=Path,
        default=REPO_ROOT / "outputs" / "knowledge_memory.jsonl",
        help="the answers, one line a question (kept across runs)",
    )
    parser.add_argument(
        "--limit", type=int, default=None, help="only the first N questions of the shuffled order"
    )
    parser.add_argument("--minutes", type=float, default=None, help="start no batch after this many minutes")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.OPTION=VALUE",
        help="config override of the cpu preset (repeatable), e.g. llm.threads=1",
    )
    parser.add_argument(
        "--report-only", action="store_true", help="print the table of the answers kept, running nothing"
    )
    add_reply_cache_options(parser)
    return parser.parse_args(argv)


def read_questions(path: Path) -> list[dict]:
    if not path.is_file():
        raise SystemExit(f"{path} does not exist: pass --data with CRAG's crag_questions_validation.jsonl")
    questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    random.Random(0).shuffle(questions)
    return questions


def read_kept(path: Path) -> dict[str, dict]:
    kept = {}
    if path.is_file():
        for text in path.read_text(encoding="utf-8").splitlines():
            try:
                line = json.loads(text)
            except json.JSONDecodeError:
                continue  # a line cut short by a kill: asked again
            kept[line["id"]] = line
    return kept


def answer(questions: list[dict], args: argparse.Namespace) -> None:
    todo = [q for q in questions if q["interaction_id_prefix"] not in read_kept(args.out)]
    if not todo:
        return
    config = load_config("cpu", {**parse_overrides(args.set), **reply_cache_override(args)})
    llm = create_backend(config.llm)
    extractor = KnowledgeExtractor(config.knowledge, llm, PromptLibrary())
    llm.warm_up(extractor.json_schemas())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.out.is_file() and not args.out.read_text(encoding="utf-8").endswith("\n"):
        with args.out.open("a", encoding="utf-8") as out:
            out.write("\n")  # after a line a kill cut short
    start = time.monotonic()
    try:
        with (
            args.out.open("a", encoding="utf-8") as out,
            tqdm(total=len(todo), desc="questions", unit="q") as bar,
        ):
            for first in range(0, len(todo), args.batch_size):
                batch = todo[first : first + args.batch_size]
                results = extractor.run([Question(q["interaction_id_prefix"], q["query"], "") for q in batch])
                for q, result in zip(batch, results):
                    out.write(
                        json.dumps(
                            {"id": q["interaction_id_prefix"], "answer": result.answer, "error": result.error}
                        )
                        + "\n"
                    )
                out.flush()
                bar.update(len(batch))
                if args.minutes is not None and time.monotonic() - start >= args.minutes * 60:
                    break
    finally:
        llm.close()


def report(questions: list[dict], kept: dict[str, dict]) -> None:
    done = [q for q in questions if q["interaction_id_prefix"] in kept]
    verdicts = {
        q["interaction_id_prefix"]: check_answer(
            kept[q["interaction_id_prefix"]]["answer"],
            str(q["answer"]),
            [str(a) for a in q.get("alt_ans", [])],
            question=q["query"],
        )
        for q in done
    }
    print(f"# The knowledge extractor from memory on {len(done)} of {len(questions)} validation questions\n")
    for label, title, order in (("static_or_dynamic", "dynamism class", DYNAMISM), ("domain", "domain", ())):
        groups: dict[str, list[Verdict]] = {}
        for q in done:
            groups.setdefault(str(q[label]), []).append(verdicts[q["interaction_id_prefix"]])
        names = sorted(groups, key=lambda name: (order.index(name) if name in order else len(order), name))
        rows = [[name, *tally_cells(tally(groups[name])), _right_share(groups[name])] for name in names]
        rows.append(["all", *tally_cells(tally(verdicts.values())), _right_share(list(verdicts.values()))])
        print(f"\nBy {title}:\n")
        print(markdown_table([title, *TALLY_HEADERS, "right of answered"], rows))
    errors = Counter(bool(kept[q["interaction_id_prefix"]].get("error")) for q in done)
    print(f"\nReplies missing (an LLM error): {errors[True]}")


def _right_share(verdicts: list[Verdict]) -> str:
    answered = [v for v in verdicts if v is not Verdict.MISSING]
    return f"{sum(v is Verdict.CORRECT for v in answered) / len(answered):.2f}" if answered else "-"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    questions = read_questions(args.data)[: args.limit]
    if not args.report_only:
        answer(questions, args)
    report(questions, read_kept(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

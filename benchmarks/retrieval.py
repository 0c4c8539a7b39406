"""Retrieval benchmark: our hybrid evidence against the official RAG baseline, side by side in one run.

On ../shared/data/crag_dev_10.jsonl.bz2 (10 questions, 5 pages each), question by question:
  - answer recall: 1 when the gold answer appears in the references, else the share of its key
    words (content words not already in the question) that appear; yes/no/invalid answers are not scored
  - reference tokens per question (Llama-2 tokenizer of ../shared/tokenizer, as in the scoring)
  - seconds per question: page extraction and retrieval for ours; the baseline's own pipeline
  - the pages' ceiling: answer recall of everything our extraction found (all chunks, tables and
    snippets), the most any selection from these pages could reach
Then one 50-page question (all 50 pages of the set behind one query) for the Task-3 timing.

    .venv/bin/python benchmarks/retrieval.py [--preset cpu] [--set retrieval.dense_candidates=60] [--llm]
"""

from __future__ import annotations

import argparse
import bz2
import json
import re
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from statistics import mean

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from models.config import load_config, parse_overrides  # noqa: E402
from models.embeddings import SentenceEncoder  # noqa: E402
from models.prompts import PromptLibrary  # noqa: E402
from models.retrieval import Retriever  # noqa: E402
from models.retrieval.baseline import render_references  # noqa: E402
from models.schema import Evidence, Question  # noqa: E402
from models.web import PageExtractor  # noqa: E402

DATA = REPO_ROOT.parent / "shared" / "data" / "crag_dev_10.jsonl.bz2"
TOKENIZER = REPO_ROOT.parent / "shared" / "tokenizer" / "tokenizer.json"
UNSCORED_ANSWERS = {"yes", "no", "nan", "invalid question", "i don't know"}
STOP_WORDS = set(
    "a an the and or of in on at to for from by with as is are was were be been being has have had it its "
    "this that these those who whom which what when where why how than then there their they he she his her "
    "them we you i not no do does did can could would should will may might over under into about each only "
    "also other some such very more most less least all any both".split()
)


@dataclass
class Row:
    recall: float | None
    tokens: int
    seconds: float
    web_seconds: float = 0.0
    retrieval_cpu_seconds: float = 0.0  # this process's CPU time in retrieval (all threads)
    ceiling: float | None = None  # answer recall of all extracted page text and snippets


def words(text: str) -> list[str]:
    text = re.sub(r"(?<=\d),(?=\d)", "", text.lower())
    return re.findall(r"[a-z0-9]+(?:[.'&-][a-z0-9]+)*", text)


def answer_recall(answer: str, query: str, references: list[str]) -> float | None:
    answer_words = words(answer)
    if not answer_words or " ".join(answer_words) in UNSCORED_ANSWERS:
        return None
    reference_words = words(" ".join(references))
    if f" {' '.join(answer_words)} " in f" {' '.join(reference_words)} ":
        return 1.0
    content = [w for w in dict.fromkeys(answer_words) if w not in STOP_WORDS]
    key_words = [w for w in content if w not in set(words(query))] or content
    if not key_words:
        return None
    present = set(reference_words)
    return sum(w in present for w in key_words) / len(key_words)


def load_questions(path: Path) -> tuple[list[Question], list[dict]]:
    with bz2.open(path, "rt") as lines:
        records = [json.loads(line) for line in lines]
    batch = {
        key: [r[key] for r in records] for key in ("interaction_id", "query", "query_time", "search_results")
    }
    return Question.from_batch(batch), records


def make_counter():
    if TOKENIZER.is_file():
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(TOKENIZER))
        return "Llama-2 tokenizer", lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)
    return "4 chars/token estimate", lambda text: (len(text) + 3) // 4


def run_system(name, retriever, extractor, questions, records, count) -> list[Row]:
    rows = []
    for question, record in zip(questions, records):
        started = time.perf_counter()
        pages = extractor.run([question]) if extractor is not None else [[]]
        web_seconds = time.perf_counter() - started
        cpu_started = time.process_time()
        evidence: Evidence = retriever.run([question], pages)[0]
        cpu_seconds = time.process_time() - cpu_started
        seconds = time.perf_counter() - started
        references = evidence.references
        everything = [text for page in pages[0] for text in (*page.chunks, *page.tables)]
        everything += [result.page_snippet for result in question.search_results]
        row = Row(
            answer_recall(record["answer"], record["query"], references),
            count(render_references(references)),
            seconds,
            web_seconds,
            cpu_seconds,
            answer_recall(record["answer"], record["query"], everything) if extractor is not None else None,
        )
        rows.append(row)
        recall = "  -  " if row.recall is None else f"{row.recall:.2f}"
        usage = evidence.usage
        estimator = (
            f"  estimator: {usage.calls} calls, {usage.prompt_tokens} prompt tokens" if usage.calls else ""
        )
        print(
            f"  {name:8s} {record['query'][:56]:56s} recall {recall}  tokens {row.tokens:5d}  "
            f"{row.seconds:6.2f}s (web {row.web_seconds:5.2f}s, "
            f"retrieval cpu {row.retrieval_cpu_seconds:5.2f}s)  "
            f"refs {len(evidence.chunks)}+{len(evidence.tables)}t{estimator}",
            flush=True,
        )
    return rows


def summarize(name: str, rows: list[Row]) -> dict[str, float]:
    scored = [r.recall for r in rows if r.recall is not None]
    summary = {
        "answer_recall": mean(scored) if scored else 0.0,
        "full_answer_hits": sum(r == 1.0 for r in scored),
        "scored_questions": len(scored),
        "reference_tokens": mean(r.tokens for r in rows),
        "seconds_per_question": mean(r.seconds for r in rows),
        "retrieval_seconds": mean(r.seconds - r.web_seconds for r in rows),
        "retrieval_cpu_seconds": mean(r.retrieval_cpu_seconds for r in rows),
        "max_seconds": max(r.seconds for r in rows),
    }
    ceilings = [r.ceiling for r in rows if r.ceiling is not None]
    print(
        f"{name:8s} answer recall {summary['answer_recall']:.3f} "
        f"({summary['full_answer_hits']}/{len(scored)} full)  "
        f"tokens {summary['reference_tokens']:7.1f}  s/question {summary['seconds_per_question']:6.2f} "
        f"(retrieval {summary['retrieval_seconds']:.2f}, "
        f"retrieval cpu {summary['retrieval_cpu_seconds']:.2f}, "
        f"max {summary['max_seconds']:.2f})"
        + (f"  pages' ceiling {mean(ceilings):.3f}" if ceilings else "")
    )
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--preset", default="cpu")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.OPTION=VALUE")
    parser.add_argument(
        "--llm", action="store_true", help="load the preset's LLM (token counting, LLM estimator)"
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument("--skip-baseline", action="store_true")
    parser.add_argument("--skip-fifty", action="store_true", help="skip the 50-page question")
    parser.add_argument(
        "--baseline-fifty", action="store_true", help="also time the baseline on 50 pages (slow)"
    )
    args = parser.parse_args()
    if not args.data.is_file():
        sys.exit(f"{args.data} is absent: nothing to benchmark")

    config = load_config(args.preset, parse_overrides(args.set))
    questions, records = load_questions(args.data)
    fifty = replace(questions[-1], search_results=[page for q in questions for page in q.search_results])
    fifty_record = records[-1]
    questions, records = questions[: args.limit], records[: args.limit]
    encoder = SentenceEncoder(
        config.retrieval.embedding_model,
        config.retrieval.embedding_device,
        config.retrieval.embedding_batch_size,
    )
    encoder.encode(["warm up the encoder"])
    llm = None
    if args.llm:
        from models.llm import create_backend

        llm = create_backend(config.llm)
    ours = Retriever(config.retrieval, encoder, llm, PromptLibrary() if llm else None)
    baseline = Retriever(replace(config.retrieval, mode="baseline"), encoder)
    extractor = PageExtractor(config.web)
    counter_name, count = make_counter()
    print(
        f"preset {config.preset}; reference tokens by {counter_name}; budget counted by {ours.tokens.method}"
    )
    print(f"ours: {config.retrieval}")

    results = {"ours": run_system("ours", ours, extractor, questions, records, count)}
    if not args.skip_baseline:
        results["baseline"] = run_system("baseline", baseline, None, questions, records, count)
    print()
    summaries = {name: summarize(name, rows) for name, rows in results.items()}
    if "baseline" in summaries:
        a, b = summaries["ours"], summaries["baseline"]
        print(
            f"ours/baseline: recall {a['answer_recall'] - b['answer_recall']:+.3f}, "
            f"tokens x{a['reference_tokens'] / max(b['reference_tokens'], 1e-9):.2f}, "
            f"seconds x{a['seconds_per_question'] / max(b['seconds_per_question'], 1e-9):.2f}"
        )

    if not args.skip_fifty:
        print(f"\n50-page question ({len(fifty.search_results)} pages): {fifty.query}")
        systems = [("ours", ours, extractor)] + (
            [("baseline", baseline, None)] if args.baseline_fifty else []
        )
        for name, retriever, pages_from in systems:
            summarize(name, run_system(name, retriever, pages_from, [fifty], [fifty_record], count))
    extractor.close()
    if llm is not None:
        llm.close()


if __name__ == "__main__":
    main()

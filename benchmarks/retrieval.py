"""Retrieval benchmark: our evidence against the official RAG baseline's, side by side in one run.

On the dev files with real pages (../shared/data/crag_dev_10 and crag_dev_pages_15, 5 pages each),
question by question and in total:
  - evidence recall (evaluation/evidence_recall.py, the metric of `--references-only`): the
    references hold every key span of the gold answer or of an alternative; answers that cannot be
    matched as strings are listed and not counted
  - characters and tokens of the references block as the prompt gets it (Llama-2 tokenizer of
    ../shared/tokenizer, as in the scoring)
  - seconds: page extraction and retrieval for ours; the baseline's own pipeline (it reads raw HTML)
  - the pages' ceiling: recall of everything our extraction found (all chunks, tables, snippets)
Then one 50-page question (all pages of crag_dev_10 behind one query) for the Task-3 timing.

    .venv/bin/python benchmarks/retrieval.py [--preset cpu] [--set retrieval.top_k_chunks=12] [--llm]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from statistics import mean

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from evaluation.data import GoldQuestion, read_records  # noqa: E402
from evaluation.evidence_recall import AnswerKey, answer_key, match  # noqa: E402
from models.config import load_config, parse_overrides  # noqa: E402
from models.embeddings import SentenceEncoder  # noqa: E402
from models.prompts import PromptLibrary  # noqa: E402
from models.retrieval import Retriever  # noqa: E402
from models.retrieval.baseline import render_references  # noqa: E402
from models.schema import Question  # noqa: E402
from models.web import PageExtractor  # noqa: E402

DATA_DIR = REPO_ROOT.parent / "shared" / "data"
DATA = [DATA_DIR / "crag_dev_10.jsonl.bz2", DATA_DIR / "crag_dev_pages_15.jsonl.bz2"]
TOKENIZER = REPO_ROOT.parent / "shared" / "tokenizer" / "tokenizer.json"


@dataclass
class Row:
    found: bool | None  # None: the question is not scored
    chars: int
    tokens: int
    web_seconds: float
    retrieval_seconds: float
    missing: tuple[str, ...] = ()
    ceiling: bool | None = None


def load(path: Path) -> tuple[list[Question], list[GoldQuestion]]:
    records = list(read_records(path))
    batch = {
        key: [record.model_input[key] for record in records]
        for key in ("interaction_id", "query", "query_time", "search_results")
    }
    return Question.from_batch(batch), [record.gold for record in records]


def key_of(gold: GoldQuestion) -> AnswerKey:
    return answer_key(gold.query, gold.answer, gold.alternative_answers, gold.labels.get("question_type"))


def make_counter():
    if TOKENIZER.is_file():
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(TOKENIZER))
        return "Llama-2 tokenizer", lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)
    return "4 chars/token estimate", lambda text: (len(text) + 3) // 4


def run_one(retriever: Retriever, extractor: PageExtractor | None, question: Question, key: AnswerKey, count):
    started = time.perf_counter()
    pages = extractor.run([question]) if extractor is not None else [[]]
    web_seconds = time.perf_counter() - started
    started = time.perf_counter()
    evidence = retriever.run([question], pages)[0]
    retrieval_seconds = time.perf_counter() - started
    block = render_references(evidence.references)
    result = match(key, evidence.references)
    ceiling = None
    if extractor is not None:
        everything = [text for page in pages[0] for text in (*page.chunks, *page.tables)]
        everything += [result.page_snippet for result in question.search_results]
        found_anywhere = match(key, everything)
        ceiling = None if found_anywhere is None else found_anywhere.found
    return Row(
        None if result is None else result.found,
        len(block),
        count(block),
        web_seconds,
        retrieval_seconds,
        () if result is None else result.missing,
        ceiling,
    )


def mark(found: bool | None) -> str:
    return "-" if found is None else ("yes" if found else "NO")


def compare_file(path: Path, ours: Retriever, baseline: Retriever, extractor: PageExtractor, count, limit):
    questions, golds = load(path)
    questions, golds = questions[:limit], golds[:limit]
    print(f"\n## {path.name}: {len(questions)} questions")
    print(
        f"{'#':>2} {'question':48s} | {'ours':>4} {'chars':>5} {'tok':>4} {'web s':>5} {'ret s':>5} "
        f"| {'base':>4} {'chars':>5} {'tok':>4} {'s':>5} | ceiling | ours misses"
    )
    rows: list[tuple[Row, Row]] = []
    excluded = []
    for i, (question, gold) in enumerate(zip(questions, golds)):
        key = key_of(gold)
        a = run_one(ours, extractor, question, key, count)
        b = run_one(baseline, None, question, key, count)
        rows.append((a, b))
        if key.excluded:
            excluded.append(f"{gold.query!r}: {key.excluded}")
        print(
            f"{i:2d} {gold.query[:48]:48s} | {mark(a.found):>4} {a.chars:5d} {a.tokens:4d} "
            f"{a.web_seconds:5.2f} {a.retrieval_seconds:5.2f} | {mark(b.found):>4} {b.chars:5d} "
            f"{b.tokens:4d} {b.retrieval_seconds:5.2f} | {mark(a.ceiling):>7} | {', '.join(a.missing)}",
            flush=True,
        )
    for line in excluded:
        print(f"   not scored: {line}")
    return rows


def total(name: str, rows: list[tuple[Row, Row]]) -> None:
    ours = [a for a, _ in rows]
    base = [b for _, b in rows]
    scored = [a for a in ours if a.found is not None]

    def hits(side: list[Row]) -> int:
        return sum(bool(r.found) for r in side)

    print(
        f"{name}: answer held for ours {hits(ours)}/{len(scored)}, baseline {hits(base)}/{len(scored)}, "
        f"pages' ceiling {sum(bool(a.ceiling) for a in ours)}/{len(scored)} | chars/question ours "
        f"{mean(a.chars for a in ours):.0f}, baseline {mean(b.chars for b in base):.0f} | tokens/question "
        f"ours {mean(a.tokens for a in ours):.0f}, baseline {mean(b.tokens for b in base):.0f}"
    )
    print(
        f"{'':{len(name)}}  seconds/question: ours web {mean(a.web_seconds for a in ours):.2f} + retrieval "
        f"{mean(a.retrieval_seconds for a in ours):.2f} (max web+retrieval "
        f"{max(a.web_seconds + a.retrieval_seconds for a in ours):.2f}), baseline "
        f"{mean(b.retrieval_seconds for b in base):.2f} (max {max(b.retrieval_seconds for b in base):.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, action="append", help="a dev file (repeatable); default: both")
    parser.add_argument("--preset", default="cpu")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.OPTION=VALUE")
    parser.add_argument("--llm", action="store_true", help="load the preset's LLM (token counting, LLM estimator)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions of each file")
    parser.add_argument("--skip-fifty", action="store_true", help="skip the 50-page question")
    parser.add_argument("--baseline-fifty", action="store_true", help="also time the baseline on 50 pages")
    args = parser.parse_args()
    paths = [path for path in (args.data or DATA) if path.is_file()]
    if not paths:
        sys.exit(f"none of {args.data or DATA} is present: nothing to benchmark")

    config = load_config(args.preset, parse_overrides(args.set))
    encoder = SentenceEncoder(
        config.retrieval.embedding_model, config.retrieval.embedding_device, config.retrieval.embedding_batch_size
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
    print(f"preset {config.preset}; tokens by {counter_name}; our budget counted by {ours.tokens.method}")
    print(f"ours: {config.retrieval}")

    everything: list[tuple[Row, Row]] = []
    per_file = {}
    for path in paths:
        per_file[path.name] = compare_file(path, ours, baseline, extractor, count, args.limit)
        everything += per_file[path.name]
    print()
    for name, rows in per_file.items():
        total(name, rows)
    if len(per_file) > 1:
        total("all", everything)

    if not args.skip_fifty:
        questions, golds = load(paths[0])
        fifty = replace(questions[-1], search_results=[page for q in questions for page in q.search_results])
        key = key_of(golds[-1])
        print(f"\n50-page question ({len(fifty.search_results)} pages): {fifty.query}")
        row = run_one(ours, extractor, fifty, key, count)
        print(
            f"ours     answer {mark(row.found)}, {row.chars} chars, {row.tokens} tokens, web "
            f"{row.web_seconds:.2f}s + retrieval {row.retrieval_seconds:.2f}s"
        )
        if args.baseline_fifty:
            row = run_one(baseline, None, fifty, key, count)
            print(f"baseline answer {mark(row.found)}, {row.chars} chars, {row.tokens} tokens, {row.retrieval_seconds:.2f}s")
    extractor.close()
    if llm is not None:
        llm.close()


if __name__ == "__main__":
    main()

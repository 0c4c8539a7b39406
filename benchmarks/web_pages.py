"""Web-page extraction: this project's chain against the published design, side by side.

Two references, both the published design (trafilatura main text with tables left to the table
step, every HTML table as Markdown, blingfire sentences and the same paper chunking):
- "as written": trafilatura parses the raw string, then BeautifulSoup's pure-Python html.parser
  parses it again for the tables;
- "one parse": its fastest faithful variant: lxml parses the page once, the table pass reads that
  tree, then trafilatura extracts from the same tree.
All three run in this process, page after page, rotating which goes first, so machine load hits
them alike; compare the ratios, not absolute times.

    python -m benchmarks.web_pages [--data ../shared/data/crag_dev_10.jsonl.bz2] [--repeats 1]

Quality: snippet recall = share of the words of each page's search snippet found in its chunks and
tables; answer-hit pages = pages where one chunk or table holds every word of the gold answer.
"""

from __future__ import annotations

import argparse
import bz2
import dataclasses
import html as html_lib
import json
import os
import re
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from loguru import logger

from models.config import WebConfig
from models.markdown import markdown_table
from models.schema import Question, SearchResult
from models.web import Page, PageExtractor, extract_page
from models.web.sanitize import to_utf8
from models.web.sentences import ChunkLimits, text_to_chunks

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data" / "crag_dev_10.jsonl.bz2"
_WORD = re.compile(r"\w+")
# Answers that any page "contains" and so say nothing about extraction.
_UNINFORMATIVE_ANSWERS = {"yes", "no", "nan", "invalid question", "i don't know"}


def reference_as_written(html: str, page_name: str, config: WebConfig) -> Page:
    """The published design as written: trafilatura on the raw string, BeautifulSoup tables."""
    import trafilatura
    from bs4 import BeautifulSoup

    started = time.perf_counter()
    if not html.strip():
        return Page(page_name, seconds=time.perf_counter() - started)
    text = trafilatura.extract(html, include_tables=False) or ""
    soup = BeautifulSoup(html, "html.parser")
    rows_per_table = [
        [
            [" ".join(cell.get_text(" ").split()) for cell in row.find_all(["td", "th"])]
            for row in table.find_all("tr")
        ]
        for table in soup.find_all("table")
    ]
    tables = _reference_tables(rows_per_table, page_name)
    chunks = text_to_chunks(text, ChunkLimits.from_config(config))
    return Page(page_name, chunks, tables, "trafilatura+bs4", time.perf_counter() - started)


def reference_one_parse(html: str, page_name: str, config: WebConfig) -> Page:
    """The same design with one lxml parse: the table pass reads the tree first (trafilatura prunes
    the tree it is given), then trafilatura extracts from it."""
    import lxml.html
    import trafilatura

    started = time.perf_counter()
    if not html.strip():
        return Page(page_name, seconds=time.perf_counter() - started)
    tree = lxml.html.document_fromstring(to_utf8(html))
    rows_per_table = [
        [
            [" ".join(" ".join(cell.itertext()).split()) for cell in row.iter("td", "th")]
            for row in table.iter("tr")
        ]
        for table in tree.iter("table")
    ]
    tables = _reference_tables(rows_per_table, page_name)
    text = trafilatura.extract(tree, include_tables=False) or ""
    chunks = text_to_chunks(text, ChunkLimits.from_config(config))
    return Page(page_name, chunks, tables, "lxml+trafilatura", time.perf_counter() - started)


def _reference_tables(rows_per_table: list[list[list[str]]], page_name: str) -> list[str]:
    """Every table with a non-empty row, as Markdown headed by the page name."""
    tables = []
    for rows in rows_per_table:
        rows = [cells for cells in rows if any(cells)]
        if rows:
            width = max(len(cells) for cells in rows)
            header = rows[0] + [""] * (width - len(rows[0]))
            tables.append(f"Page name: {page_name}\n" + markdown_table(header, rows[1:]))
    return tables


@dataclass
class PageRecord:
    name: str
    html: str
    snippet: str
    answers: list[str]


def load_pages(path: Path) -> tuple[list[PageRecord], list[Question]]:
    with bz2.open(path, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    records = []
    for row in rows:
        answers = [str(row.get("answer", ""))] + [str(a) for a in row.get("alternative_answers") or []]
        for result in row["search_results"]:
            records.append(
                PageRecord(result["page_name"], result["page_result"] or "", result["page_snippet"], answers)
            )
    columns = ("interaction_id", "query", "query_time", "search_results")
    questions = Question.from_batch({column: [row[column] for row in rows] for column in columns})
    return records, questions


def words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def snippet_recall(record: PageRecord, page: Page) -> float | None:
    wanted = words(html_lib.unescape(record.snippet))
    if not wanted or not record.html.strip():
        return None
    found = words(" ".join(page.chunks + page.tables))
    return len(wanted & found) / len(wanted)


def answer_hit(record: PageRecord, page: Page) -> bool | None:
    answers = [words(a) for a in record.answers if a.strip().lower() not in _UNINFORMATIVE_ANSWERS]
    answers = [a for a in answers if a]
    if not answers:
        return None
    pieces = [words(piece) for piece in page.chunks + page.tables]
    return any(answer <= piece for answer in answers for piece in pieces)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


@dataclass
class Timed:
    page: Page
    wall: float  # seconds on the clock: what a caller waits, inflated when other work shares the cores
    cpu: float  # seconds of this process's CPU: the work itself, much less sensitive to that load


def timing_line(label: str, values: list[float]) -> str:
    ms = [value * 1000 for value in values]
    return (
        f"{label} p50 {percentile(ms, 0.5):6.1f} ms  p95 {percentile(ms, 0.95):6.1f} ms  "
        f"max {max(ms):7.1f} ms  total {sum(values):6.3f} s"
    )


def summarize(label: str, records: list[PageRecord], runs: list[Timed]) -> dict[str, float]:
    pages = [run.page for run in runs]
    recalls = [r for r in (snippet_recall(rec, page) for rec, page in zip(records, pages)) if r is not None]
    hits = [h for h in (answer_hit(rec, page) for rec, page in zip(records, pages)) if h is not None]
    print(f"{label:<10} {timing_line('wall', [run.wall for run in runs])}")
    print(f"{'':<10} {timing_line('cpu ', [run.cpu for run in runs])}")
    print(
        f"{'':<10} chunks {sum(len(p.chunks) for p in pages)}  tables {sum(len(p.tables) for p in pages)} "
        f"on {sum(bool(p.tables) for p in pages)} pages  snippet recall {statistics.mean(recalls):.3f}  "
        f"answer-hit pages {sum(hits)}/{len(hits)}"
    )
    return {
        "wall": sum(run.wall for run in runs),
        "cpu": sum(run.cpu for run in runs),
        "recall": statistics.mean(recalls),
    }


def timed_min(function, record: PageRecord, config: WebConfig, repeats: int) -> Timed:
    best: Timed | None = None
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        page = function(record.html, record.name, config)
        run = Timed(page, time.perf_counter() - wall, time.process_time() - cpu)
        best = run if best is None or run.wall < best.wall else best
    return best


def compare_single_process(records: list[PageRecord], config: WebConfig, repeats: int) -> None:
    contenders = [
        ("project", extract_page),
        ("as written", reference_as_written),
        ("one parse", reference_one_parse),
    ]
    runs: dict[str, list[Timed]] = {label: [] for label, _ in contenders}
    for index, record in enumerate(records):
        turn = index % len(contenders)
        for label, function in contenders[turn:] + contenders[:turn]:
            runs[label].append(timed_min(function, record, config, repeats))
    print(f"\n== single process, {len(records)} pages, no de-duplication (best of {repeats} per page) ==")
    totals = {label: summarize(label, records, runs[label]) for label, _ in contenders}
    mine = totals["project"]
    print("\nspeed-up of the project (reference time / project time), side by side:")
    print(f"{'reference':<12} {'wall':>6} {'cpu':>6}  snippet recall (project {mine['recall']:.3f})")
    for label in ("as written", "one parse"):
        theirs = totals[label]
        print(
            f"{label:<12} {theirs['wall'] / mine['wall']:5.1f}x {theirs['cpu'] / mine['cpu']:5.1f}x  "
            f"{theirs['recall']:.3f}"
        )
    ours = runs["project"]
    fast = [run for run in ours if run.page.extractor in ("resiliparse", "none")]
    print(
        f"fast-path pages: {len(fast)}/{len(ours)}, slowest {max(run.wall for run in fast) * 1000:.1f} ms "
        f"wall, {max(run.cpu for run in fast) * 1000:.1f} ms cpu; fallbacks used: "
        f"{sorted({run.page.extractor for run in ours} - {'resiliparse', 'none'}) or 'none'}"
    )


def time_page_extractor(questions: list[Question], config: WebConfig, repeats: int) -> None:
    print(f"\n== PageExtractor.run (de-duplicated, {config.workers or 'auto'} workers; best of {repeats}) ==")
    with PageExtractor(config) as extractor:
        extractor.run(questions[:1])  # pool start-up is paid once per process, not per batch
        for label, batch in [("all 10 questions", questions), ("one question", questions[:1])]:
            for limit, mode in [(0, "pool"), (10**9, "in-process")]:
                extractor.config.inprocess_max_total_chars = limit
                best = float("inf")
                for _ in range(repeats):
                    started = time.perf_counter()
                    result = extractor.run(batch)
                    best = min(best, time.perf_counter() - started)
                pages = [page for question_pages in result for page in question_pages]
                print(
                    f"{label:<17} {mode:<11} {best:6.3f} s  pages {len(pages)}  "
                    f"chunks {sum(len(p.chunks) for p in pages)}  tables {sum(len(p.tables) for p in pages)}"
                )


def time_adversarial_pages(config: WebConfig) -> None:
    from tests.test_web_adversarial import ADVERSARIAL_PAGES

    print("\n== adversarial pages (target: each within 5 s): extract_page in-process | PageExtractor pool ==")
    pooled_config = dataclasses.replace(config, inprocess_max_total_chars=0)
    with PageExtractor(pooled_config) as extractor:
        extractor.run([Question("warm-up", "", "", [SearchResult(page_name="w", page_result="<p>w</p>")])])
        for name, make in ADVERSARIAL_PAGES.items():
            raw = make()
            started = time.perf_counter()
            page = extract_page(raw, name, config)  # type: ignore[arg-type]
            local = time.perf_counter() - started
            question = Question(name, "", "", [SearchResult(page_name=name, page_result=raw)])  # type: ignore[arg-type]
            started = time.perf_counter()
            pooled = extractor.run([question])[0]
            remote = time.perf_counter() - started
            size = len(raw) if raw is not None else 0
            print(
                f"{name:<22} {size / 1e6:6.2f} M  {local:6.2f} s | {remote:6.2f} s  "
                f"chunks {len(page.chunks):5d}  "
                f"tables {len(page.tables):3d}  {page.extractor:<12} {'; '.join(map(str, page.events))[:70]}"
                + (f"  [pool: {pooled[0].error}]" if pooled and pooled[0].error else "")
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    if not args.data.exists():
        sys.exit(f"{args.data} not found")
    logger.remove()
    logger.add(sys.stderr, level="WARNING")
    records, questions = load_pages(args.data)
    config = WebConfig()
    print(
        f"{len(records)} pages ({len({r.html for r in records if r.html})} distinct non-empty), "
        f"{sum(len(r.html) for r in records) / 1e6:.1f} M chars"
    )
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    compare_single_process(records, config, args.repeats)
    time_page_extractor(questions, config, max(3, args.repeats))
    time_adversarial_pages(config)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

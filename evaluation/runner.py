"""Running the system over a question file, one JSON line per answered question, resumable.

`PredictionStore` appends each finished question as one complete line and flushes it, so an
interrupted run (Ctrl-C, a crash) leaves a valid file and a rerun skips every question already in
it: a question is known by its `interaction_id` (evaluation/data.py), whichever shape of the data
it was read from, and one saved under the same id with another query is refused. `RunManifest`
refuses to mix predictions of different configurations in one output folder.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from loguru import logger
from tqdm import tqdm

from evaluation.data import CragRecord, GoldQuestion, to_batch
from evaluation.jobs import TaskFailed, run_jobs
from models.schema import QuestionTrace

IDK = "I don't know"
OFFICIAL_MAX_BATCH = 16


class PredictionStore:
    """A jsonl file of finished questions, keyed by `interaction_id`."""

    def __init__(self, path: Path):
        self.path = path
        self.lines: dict[str, dict[str, Any]] = {}
        if path.is_file():
            self._load()

    def _load(self) -> None:
        broken = 0
        for text in self.path.read_text(encoding="utf-8").splitlines():
            try:
                line = json.loads(text)
                self.lines[line["interaction_id"]] = line
            except (json.JSONDecodeError, KeyError, TypeError):
                broken += 1
        if broken:
            # A line cut short by a hard kill: rewrite the file without it before appending again.
            logger.warning(f"{self.path}: dropping {broken} incomplete line(s) left by an interrupted run")
            write_atomically(self.path, "".join(json.dumps(line) + "\n" for line in self.lines.values()))

    def __contains__(self, interaction_id: str) -> bool:
        return interaction_id in self.lines

    def check_questions(self, golds: Iterable[GoldQuestion]) -> None:
        """Refuse (RunMismatch) when a saved answer's id is that of another question here."""
        for gold in golds:
            saved = self.lines.get(gold.interaction_id)
            if saved is not None and saved.get("query") != gold.query:
                raise RunMismatch(
                    f"{self.path} holds an answer for {gold.interaction_id} to {saved.get('query')!r}, not "
                    f"{gold.query!r}: choose another --out or pass --restart to discard it"
                )

    def append(self, lines: list[dict[str, Any]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as stream:
            for line in lines:
                stream.write(json.dumps(line, ensure_ascii=False) + "\n")
                stream.flush()
                self.lines[line["interaction_id"]] = line


class RunMismatch(ValueError):
    """The output folder holds predictions of another configuration."""


@dataclass
class RunManifest:
    """What produced an output folder; a resumed run must match it in all but `data`, the inputs
    last read (the questions themselves are checked by `PredictionStore.check_questions`)."""

    preset: str
    overrides: dict[str, str]
    data: str
    mode: str  # "answers" or "references"

    def check_or_write(self, folder: Path, restart: bool) -> None:
        path = folder / "run.json"
        if path.is_file() and not restart:
            previous = json.loads(path.read_text(encoding="utf-8"))
            ours = asdict(self)
            if any(previous.get(key) != value for key, value in ours.items() if key != "data"):
                raise RunMismatch(
                    f"{folder} holds a run of {previous}, not {ours}; "
                    f"choose another --out or pass --restart to discard it"
                )
        folder.mkdir(parents=True, exist_ok=True)
        if restart:
            for stale in ("predictions.jsonl", "references.jsonl"):
                (folder / stale).unlink(missing_ok=True)
        write_atomically(path, json.dumps(asdict(self), indent=2))


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def gold_fields(gold: GoldQuestion) -> dict[str, Any]:
    return {"answer": gold.answer, "alternative_answers": gold.alternative_answers, **gold.labels}


def run_questions(
    records: Iterable[CragRecord],
    store: PredictionStore,
    batch_size: Callable[[], int],
    answer_batch: Callable[[list[CragRecord]], list[dict[str, Any]]],
    total: int | None,
    description: str,
) -> list[GoldQuestion]:
    """Answer every record not yet in `store`, batch by batch; returns the gold data of all records.

    `answer_batch` turns a batch of records into one result dict per record (same order).
    `batch_size` is asked before every batch, as the official evaluator does.
    """
    golds: list[GoldQuestion] = []
    with tqdm(total=total, desc=description, unit="q") as progress:
        for batch in _pending_batches(records, store, batch_size, golds, progress):
            _answer_and_store(batch, store, answer_batch, progress)
    return golds


def _pending_batches(
    records: Iterable[CragRecord],
    store: PredictionStore,
    batch_size: Callable[[], int],
    golds: list[GoldQuestion],
    progress: tqdm,
) -> Iterator[list[CragRecord]]:
    """The batches of the records not yet in `store` (counted as done on `progress`), each record's
    gold data appended to `golds` as it is read."""
    pending: list[CragRecord] = []
    for record in records:
        golds.append(record.gold)
        if record.gold.interaction_id in store:
            progress.update(1)
            continue
        pending.append(record)
        if len(pending) >= _clamp(batch_size()):
            yield pending
            pending = []
    if pending:
        yield pending


def run_questions_in_jobs(
    records: Iterable[CragRecord],
    store: PredictionStore,
    batch_size: int,
    setup: Callable[[int], Callable[[list[CragRecord]], list[dict[str, Any]]]],
    jobs: int,
    total: int | None,
    description: str,
) -> list[GoldQuestion]:
    """`run_questions` spread over `jobs` processes (evaluation/jobs.py): `setup(job)` builds, in the
    job's process, the function that turns a batch into its lines (`answer_lines`). This process
    stores each batch's lines as it ends; a batch whose jobs died is stored as failed."""
    golds: list[GoldQuestion] = []
    size = _clamp(batch_size)
    if total is not None:  # no more jobs than batches
        jobs = max(1, min(jobs, -(-total // size)))
    with tqdm(total=total, desc=f"{description} ({jobs} jobs)", unit="q") as progress:

        def done(batch: list[CragRecord], lines: list[dict[str, Any]] | TaskFailed) -> None:
            if isinstance(lines, TaskFailed):
                lines = [_line(record, batch, _error_result(lines.error), 0.0) for record in batch]
            store.append(lines)
            progress.update(len(lines))

        run_jobs(_pending_batches(records, store, lambda: size, golds, progress), jobs, setup, done)
    return golds


def answer_lines(
    records: list[CragRecord], answer_batch: Callable[[list[CragRecord]], list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The stored line of each record of the batch: its result, seconds, batch and gold fields."""
    return [
        _line(record, records, result, seconds)
        for record, result, seconds in _answer_isolating_failures(records, answer_batch)
    ]


def _line(
    record: CragRecord, batch: list[CragRecord], result: dict[str, Any], seconds: float
) -> dict[str, Any]:
    return {
        "interaction_id": record.gold.interaction_id,
        "query": record.gold.query,
        **result,
        "seconds": seconds,
        "batch_id": batch[0].gold.interaction_id,
        "batch_size": len(batch),
        **gold_fields(record.gold),
    }


def _error_result(error: str) -> dict[str, Any]:
    return {"prediction": IDK, "references": [], "error": error}


def _answer_and_store(
    records: list[CragRecord],
    store: PredictionStore,
    answer_batch: Callable[[list[CragRecord]], list[dict[str, Any]]],
    progress: tqdm,
) -> None:
    lines = answer_lines(records, answer_batch)
    store.append(lines)
    progress.update(len(lines))


def _answer_isolating_failures(
    records: list[CragRecord], answer_batch: Callable[[list[CragRecord]], list[dict[str, Any]]]
) -> Iterator[tuple[CragRecord, dict[str, Any], float]]:
    """The batch's results; when the batch raises, each question alone, and an error line for any
    question that still raises."""
    start = time.perf_counter()
    try:
        results = answer_batch(records)
        if len(results) != len(records):
            raise RuntimeError(f"the system returned {len(results)} answers for {len(records)} questions")
    except Exception as error:
        logger.exception(
            f"Batch starting at {records[0].gold.interaction_id} failed ({error}); retrying one by one"
        )
    else:
        share = (time.perf_counter() - start) / len(records)
        yield from ((record, result, share) for record, result in zip(records, results))
        return
    for record in records:
        start = time.perf_counter()
        try:
            (result,) = answer_batch([record])
        except Exception as error:
            logger.exception(f"Question {record.gold.interaction_id} failed: {error}")
            result = _error_result(f"{type(error).__name__}: {error}")
        yield record, result, time.perf_counter() - start


def answers_from_system(model: Any) -> Callable[[list[CragRecord]], list[dict[str, Any]]]:
    """`batch_generate_answer` plus what the system traced for each question."""

    def answer_batch(records: list[CragRecord]) -> list[dict[str, Any]]:
        predictions = model.batch_generate_answer(to_batch(records))
        if len(predictions) != len(records):
            return predictions  # the caller reports the mismatch
        traces = list(getattr(model, "last_traces", None) or [])
        if [t.interaction_id for t in traces] != [r.gold.interaction_id for r in records]:
            traces = [None] * len(records)
        return [_prediction_result(prediction, trace) for prediction, trace in zip(predictions, traces)]

    return answer_batch


def references_from_system(model: Any) -> Callable[[list[CragRecord]], list[dict[str, Any]]]:
    def answer_batch(records: list[CragRecord]) -> list[dict[str, Any]]:
        references = model.retrieve_references(to_batch(records))
        return [{"references": list(refs)} for refs in references]

    return answer_batch


def _prediction_result(prediction: Any, trace: QuestionTrace | None) -> dict[str, Any]:
    result: dict[str, Any] = {"prediction": prediction if isinstance(prediction, str) else str(prediction)}
    return result | (trace or QuestionTrace(interaction_id="")).as_dict()


def _clamp(size: int) -> int:
    return max(1, min(OFFICIAL_MAX_BATCH, int(size)))

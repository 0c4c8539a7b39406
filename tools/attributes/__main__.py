"""`python -m tools.attributes train|evaluate|cv|curve --data FILE [--exclude FILE ...]`

FILE: labelled questions, JSON lines. `--exclude` drops every labelled question whose text appears in
another question file (.jsonl or .jsonl.bz2: dev sets, benchmark inputs), so runs on those files
never route their questions in-sample.
"""

from __future__ import annotations

import argparse
import bz2
import json
import time
from pathlib import Path

from loguru import logger

from models.attributes.classifier import AttributeClassifier, file_sha256
from tools.attributes.crossval import cross_validate, learning_curve
from models.attributes.data import LabelledQuestion, load_labelled
from tools.attributes.metrics import score_attributes
from models.attributes.predictor import AttributePredictor
from models.config import CragConfig, load_config, parse_overrides
from models.embeddings import SentenceEncoder
from models.schema import Question


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.attributes", description=__doc__)
    parser.add_argument("command", choices=["train", "evaluate", "cv", "curve"])
    parser.add_argument(
        "--data", required=True, help="labelled questions: query, domain, static_or_dynamic per line"
    )
    parser.add_argument("--preset", default=None, help="config preset (default: env CRAG_PRESET or cpu)")
    parser.add_argument(
        "--set", action="append", default=[], metavar="SECTION.OPTION=VALUE", help="config override"
    )
    parser.add_argument("--limit", type=int, default=None, help="evaluate: only the first N questions")
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="FILE",
        help="leave out labelled questions that appear in this question file (repeatable)",
    )
    args = parser.parse_args(argv)
    config = load_config(args.preset, parse_overrides(args.set))
    questions = without_questions_in(load_labelled(args.data), args.exclude)
    if args.command == "train":
        report = train(config, questions, args.data)
    elif args.command in ("cv", "curve"):
        encoder = SentenceEncoder(config.attributes.embedding_model)
        study = cross_validate if args.command == "cv" else learning_curve
        report = study(questions, encoder.encode([q.query for q in questions]), config.attributes)
    else:
        report = evaluate(config, questions[: args.limit] if args.limit else questions)
    print(json.dumps(report, indent=1))


def without_questions_in(questions: list[LabelledQuestion], files: list[str]) -> list[LabelledQuestion]:
    """`questions` minus those whose text (case and spacing aside) is a `query` in any of `files`."""
    excluded: set[str] = set()
    for path in files:
        opener = bz2.open if path.endswith(".bz2") else open
        with opener(path, "rt", encoding="utf-8") as stream:
            excluded.update(_question_key(json.loads(line)["query"]) for line in stream if line.strip())
    kept = [q for q in questions if _question_key(q.query) not in excluded]
    if files:
        logger.info(f"Left out {len(questions) - len(kept)} labelled questions found in {', '.join(files)}")
    return kept


def _question_key(query: str) -> str:
    return " ".join(query.lower().split())


def train(config: CragConfig, questions: list[LabelledQuestion], data: str) -> dict:
    encoder = SentenceEncoder(config.attributes.embedding_model)
    model = AttributeClassifier.fit(
        questions, encoder.encode([q.query for q in questions]), config.attributes
    )
    model.training_data_sha256 = file_sha256(data)
    model.save(config.attributes.artifact_path)
    path = Path(config.attributes.artifact_path)
    logger.info(f"Saved the attribute classifier to {path}")
    return {
        "artifact": str(path),
        "bytes": path.stat().st_size,
        "sha256": file_sha256(path),
        "questions": len(questions),
    }


def evaluate(config: CragConfig, questions: list[LabelledQuestion]) -> dict:
    llm = None
    if config.attributes.method == "llm":
        from models.llm import create_backend

        llm = create_backend(config.llm)
    encoder = (
        SentenceEncoder(config.attributes.embedding_model)
        if config.attributes.method == "classifier"
        else None
    )
    predictor = AttributePredictor(config.attributes, encoder, llm)
    batch = [
        Question(interaction_id=str(i), query=q.query, query_time=q.query_time)
        for i, q in enumerate(questions)
    ]
    started = time.perf_counter()
    predicted = predictor.run(batch)
    elapsed = time.perf_counter() - started
    report = {"method": config.attributes.method, "seconds": round(elapsed, 2)}
    report.update(score_attributes(predicted, questions, config.attributes))
    return report


if __name__ == "__main__":
    main()

"""Time the attribute classifier on 1,000 questions (target: under 15 s on the 2-core CPU).

Prints, from one run: sentence encoding alone, the classifier alone (features + three heads on
ready embeddings), the whole stage, and the stage's ratio to the target. Questions come from
../shared/data/crag_questions_validation.jsonl when present, else from the shipped examples.

    python -m benchmarks.attributes
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from models.attributes import AttributePredictor
from models.attributes.data import load_labelled
from models.config import AttributesConfig
from models.embeddings import SentenceEncoder
from models.schema import Question

REPO_ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = 1000
TARGET_SECONDS = 15.0
VALIDATION = REPO_ROOT.parent / "shared" / "data" / "crag_questions_validation.jsonl"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.parse_args(argv)
    config = AttributesConfig()
    source = VALIDATION if VALIDATION.is_file() else Path(config.llm_examples_path)
    pool = [q.query for q in load_labelled(source)]
    queries = [pool[i % len(pool)] for i in range(QUESTIONS)]
    batch = [Question(str(i), q, "03/10/2024, 23:34:42 PT") for i, q in enumerate(queries)]

    encoder = SentenceEncoder(config.embedding_model)
    predictor = AttributePredictor(config, encoder)
    predictor.warm_up()  # loads the artifact and the encoder
    predictor.run(batch[:8])  # first-call costs

    started = time.perf_counter()
    embeddings = encoder.encode(queries)
    encode_seconds = time.perf_counter() - started

    started = time.perf_counter()
    predictor.classifier.predict(queries, [q.query_time for q in batch], embeddings)
    classifier_seconds = time.perf_counter() - started

    started = time.perf_counter()
    predictor.run(batch)
    stage_seconds = time.perf_counter() - started

    print(
        json.dumps(
            {
                "questions": QUESTIONS,
                "source": source.name,
                "encode_seconds": round(encode_seconds, 2),
                "stage_seconds": round(stage_seconds, 2),
                "classifier_seconds": round(classifier_seconds, 2),
                "questions_per_second": round(QUESTIONS / stage_seconds, 1),
                "target_seconds": TARGET_SECONDS,
                "stage_over_target": round(stage_seconds / TARGET_SECONDS, 3),
                "artifact_bytes": Path(config.artifact_path).stat().st_size,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()

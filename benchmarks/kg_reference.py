"""The KG stage of another commit (the previous plan) on the benchmark's questions, for benchmarks/kg.py to
set beside ours in the same run, on the same server.

    python benchmarks/kg_reference.py TREE API_URL CASES_JSON OUT_JSON
                                      [--preset cpu] [--batch-size 8] [--read]

TREE is a copy of that commit's `models/` and `prompts/` (benchmarks/kg.py extracts it with `git
archive`); it is put first on the import path, so every `models` import below is that commit's. Cases
are `{"query", "query_time", "domain", "entities", "reply"}` objects: scripted entities, or with --read
the entity reader's JSON reply, answered by a scripted backend of that commit's LLM interface so that the
names take its reading path; the output holds per case the references, calls and has_evidence flag, and
the seconds of every batch.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import fields


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("tree")
    parser.add_argument("api_url")
    parser.add_argument("cases")
    parser.add_argument("out")
    parser.add_argument("--preset", default="cpu")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--read", action="store_true", help="the entities come from the reader's replies")
    args = parser.parse_args()
    sys.path.insert(0, args.tree)

    from models.config import load_config
    from models.kg import KnowledgeGraphStage
    from models.kg.entities import KGEntities
    from models.llm.base import Completion, LLMBackend
    from models.prompts import PromptLibrary
    from models.schema import Question, QuestionAttributes

    config = load_config(args.preset, {})
    config.kg.company_dict_path = "/nonexistent"  # the synthetic KG's companies are resolved through the API
    os.environ[config.kg.api_url_env] = args.api_url
    cases = json.loads(open(args.cases, encoding="utf-8").read())
    replies = {case["query"]: case["reply"] for case in cases}

    class ScriptedReader(LLMBackend):
        name = "scripted-reader"

        def generate(self, conversations, params):
            texts = [
                "\n".join(message["content"] for message in conversation) for conversation in conversations
            ]
            return [
                Completion(texts=[replies[max((q for q in replies if q in text), key=len)]]) for text in texts
            ]

        def count_tokens(self, text: str) -> int:
            return len(text.split())

    # scripted entities: no LLM call; --read: the scripted reader's replies
    stage = KnowledgeGraphStage(config.kg, ScriptedReader() if args.read else None, PromptLibrary())
    names = {f.name for f in fields(KGEntities)}
    results, seconds = [], []
    for start in range(0, len(cases), args.batch_size):
        batch = cases[start : start + args.batch_size]
        began = time.perf_counter()
        answered = stage.run(
            [Question(f"kg-{start + i}", case["query"], case["query_time"]) for i, case in enumerate(batch)],
            [QuestionAttributes(domain=case["domain"]) for case in batch],
            None
            if args.read
            else [KGEntities(**{k: v for k, v in case["entities"].items() if k in names}) for case in batch],
        )
        seconds.append(time.perf_counter() - began)
        results += [
            {
                "references": r.references,
                "calls": r.calls,
                "has_evidence": r.has_evidence,
                "failed_calls": r.failed_calls,
            }
            for r in answered
        ]
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump({"results": results, "batch_seconds": seconds}, handle)


if __name__ == "__main__":
    main()

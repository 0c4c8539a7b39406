"""In-context LLM alternative: few labelled examples in the prompt, n sampled answers, majority vote."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from models.attributes.data import DOMAINS, DYNAMISM, LabelledQuestion, is_dynamic, load_labelled
from models.config import AttributesConfig
from models.llm.base import GenerationParams, LLMBackend
from models.prompts import PromptLibrary
from models.replies import find_json
from models.schema import QuestionAttributes

PROMPT_NAME = "attributes"
ANSWER_SCHEMA = {
    "type": "object",
    "properties": {
        "domain": {"type": "string", "enum": list(DOMAINS)},
        "static_or_dynamic": {"type": "string", "enum": list(DYNAMISM)},
    },
    "required": ["domain", "static_or_dynamic"],
}


def choose_examples(pool: list[LabelledQuestion], per_class: int, seed: int) -> list[LabelledQuestion]:
    """`per_class` examples of every domain and of every dynamism label (seeded, without repeats)."""
    rng = random.Random(seed)
    chosen: list[LabelledQuestion] = []
    for field, labels in (("domain", DOMAINS), ("static_or_dynamic", DYNAMISM)):
        for label in labels:
            candidates = [q for q in pool if getattr(q, field) == label and q not in chosen]
            already = sum(1 for q in chosen if getattr(q, field) == label)
            chosen.extend(rng.sample(candidates, min(max(per_class - already, 0), len(candidates))))
    rng.shuffle(chosen)
    return chosen


def vote(samples: list[str]) -> QuestionAttributes | None:
    """Majority vote over the parsable samples; None when none parses."""
    answers = [answer for answer in (_parse(text) for text in samples) if answer]
    if not answers:
        return None
    domain_votes = Counter(domain for domain, _ in answers)
    dynamism_votes = Counter(dynamism for _, dynamism in answers)
    dynamic_probability = sum(count for label, count in dynamism_votes.items() if is_dynamic(label)) / len(
        answers
    )
    if dynamic_probability > 0.5:
        changing = [label for label in DYNAMISM[1:] if dynamism_votes[label]]
        dynamism = max(changing, key=lambda label: dynamism_votes[label])
    else:
        dynamism = "static"
    return QuestionAttributes(
        domain=max(DOMAINS, key=lambda label: domain_votes[label]),
        domain_probabilities={label: domain_votes[label] / len(answers) for label in DOMAINS},
        dynamism=dynamism,
        dynamic_probability=dynamic_probability,
        dynamism_probabilities={label: dynamism_votes[label] / len(answers) for label in DYNAMISM},
    )


class LLMAttributePredictor:
    def __init__(self, config: AttributesConfig, llm: LLMBackend, prompts: PromptLibrary):
        self.config = config
        self.llm = llm
        self.prompts = prompts
        pool = load_labelled(config.llm_examples_path)
        examples = choose_examples(pool, config.llm_examples_per_class, config.seed)
        self.examples_text = "\n".join(
            json.dumps({"question": q.query, "domain": q.domain, "static_or_dynamic": q.static_or_dynamic})
            for q in examples
        )

    def json_schemas(self) -> list[dict[str, Any]]:
        return [ANSWER_SCHEMA]

    def run(self, queries: list[str]) -> list[QuestionAttributes]:
        if not queries:
            return []
        conversations = [
            self.prompts.conversation(PROMPT_NAME, examples=self.examples_text, question=query)
            for query in queries
        ]
        params = GenerationParams(
            max_tokens=self.config.llm_max_tokens,
            temperature=self.config.llm_temperature if self.config.llm_samples > 1 else 0.0,
            n=self.config.llm_samples,
            seed=self.config.seed,
            json_schema=ANSWER_SCHEMA,
        )
        completions = self.llm.generate(conversations, params)
        # Defaults (never refused) where no sample gives a usable label; CragSystem records the error.
        return [
            vote(completion.texts) or QuestionAttributes(error=completion.error or "no usable label")
            for completion in completions
        ]


def _parse(text: str) -> tuple[str, str] | None:
    row = find_json(text)
    if row is None:
        return None
    domain = str(row.get("domain", "")).strip().lower()
    dynamism = str(row.get("static_or_dynamic", "")).strip().lower()
    return (domain, dynamism) if domain in DOMAINS and dynamism in DYNAMISM else None

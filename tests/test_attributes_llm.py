from __future__ import annotations

import json
from pathlib import Path

from models.attributes import AttributePredictor
from models.attributes.data import DOMAINS, DYNAMISM, load_labelled
from models.attributes.llm_predictor import choose_examples, vote
from models.config import AttributesConfig
from models.schema import Question
from tests.doubles import ScriptedLLM

EXAMPLES = Path(__file__).resolve().parents[1] / "models" / "attributes" / "examples.jsonl"


def answer(domain: str, dynamism: str) -> str:
    return json.dumps({"domain": domain, "static_or_dynamic": dynamism})


def test_one_batched_call_with_samples_schema_and_majority_vote():
    llm = ScriptedLLM(
        [
            [answer("finance", "real-time"), answer("finance", "fast-changing"), answer("open", "real-time")],
            [answer("movie", "static"), "no json here", answer("movie", "slow-changing")],
        ]
    )
    config = AttributesConfig(method="llm", llm_samples=3, llm_examples_per_class=2)
    predictor = AttributePredictor(config, encoder=None, llm=llm)
    results = predictor.run(
        [Question("1", "price of nvidia now?", ""), Question("2", "who directed alien?", "")]
    )

    assert len(llm.calls) == 1
    conversations, params = llm.calls[0]
    assert len(conversations) == 2 and params.n == 3 and params.json_schema is not None
    assert "price of nvidia now?" in conversations[0][-1]["content"]
    assert results[0].domain == "finance" and results[0].dynamism == "real-time"
    assert results[0].dynamic_probability == 1.0
    assert (
        results[1].domain == "movie"
        and results[1].dynamic_probability == 0.5
        and results[1].dynamism == "static"
    )


def test_unusable_replies_fall_back_to_defaults():
    llm = ScriptedLLM([["garbage", '{"domain": "cooking", "static_or_dynamic": "static"}']])
    predictor = AttributePredictor(AttributesConfig(method="llm", llm_samples=2), encoder=None, llm=llm)
    (result,) = predictor.run([Question("1", "anything?", "")])
    assert result.domain == "open" and result.dynamic_probability == 0.0
    assert result.error == "no usable label"


def test_vote_splits_probability_over_domains():
    result = vote(
        [answer("sports", "fast-changing"), answer("music", "fast-changing"), answer("sports", "static")]
    )
    assert result.domain == "sports"
    assert result.domain_probabilities["sports"] == 2 / 3
    assert result.dynamism == "fast-changing"


def test_examples_cover_every_class_and_are_seeded():
    pool = load_labelled(EXAMPLES)
    chosen = choose_examples(pool, per_class=2, seed=0)
    for label in DOMAINS:
        assert sum(q.domain == label for q in chosen) >= 2
    for label in DYNAMISM:
        assert sum(q.static_or_dynamic == label for q in chosen) >= 2
    assert len(set(chosen)) == len(chosen)
    assert chosen == choose_examples(pool, per_class=2, seed=0)

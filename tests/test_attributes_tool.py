"""`python -m tools.attributes --exclude`: questions of dev and benchmark files stay out of training."""

from __future__ import annotations

import bz2
import json

from models.attributes.data import LabelledQuestion
from tools.attributes.__main__ import without_questions_in


def test_questions_found_in_other_files_are_left_out(tmp_path):
    labelled = [
        LabelledQuestion("What is the capital of Australia?", "open", "static"),
        LabelledQuestion("who won the 2010 world cup?", "sports", "static"),
        LabelledQuestion("price of tesla today?", "finance", "real-time"),
    ]
    dev = tmp_path / "dev.jsonl.bz2"
    with bz2.open(dev, "wt", encoding="utf-8") as stream:
        stream.write(json.dumps({"query": "what is the  capital of australia?"}) + "\n")
    sample = tmp_path / "sample.jsonl"
    sample.write_text(json.dumps({"query": "Price of Tesla today?"}) + "\n\n", encoding="utf-8")

    kept = without_questions_in(labelled, [str(dev), str(sample)])

    assert kept == [labelled[1]]
    assert without_questions_in(labelled, []) == labelled

from __future__ import annotations

import pytest

from models.attributes.data import load_labelled
from models.attributes.features import TEMPORAL_CUES, cue_features, normalize_query, reference_year


def test_load_labelled_rejects_unknown_labels_with_the_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"query": "q", "domain": "finance", "static_or_dynamic": "static"}\n'
        '{"query": "q", "domain": "weather", "static_or_dynamic": "static"}\n'
    )
    with pytest.raises(ValueError, match="bad.jsonl:2"):
        load_labelled(path)
    with pytest.raises(FileNotFoundError):
        load_labelled(tmp_path / "absent.jsonl")


def test_numbers_fold_into_placeholders():
    assert normalize_query("In 2004, who scored 3.5 points?") == normalize_query(
        "in 2011, who scored 12 points?"
    )


def test_cues_mark_time_words_and_recent_years():
    names = list(TEMPORAL_CUES) + ["recent_year"]
    cues = dict(zip(names, cue_features("what is the price of amzn today in 2024?", 2024, 2)))
    assert cues["today"] == cues["market"] == cues["year"] == cues["recent_year"] == 1.0
    old = dict(zip(names, cue_features("who won the 1998 world cup?", 2024, 2)))
    assert old["recent_year"] == 0.0 and old["now"] == 0.0


def test_reference_year_reads_query_time():
    assert reference_year("03/10/2024, 23:34:42 PT", 2020) == 2024
    assert reference_year("", 2020) == 2020

"""Evidence recall: normalised, word-bounded, whole answers only, unscorable answers excluded."""

import pytest

from evaluation.evidence_recall import answer_key, match, normalize, spans_key


def found(answer, evidence, query="q", alternatives=(), question_type=None):
    result = match(answer_key(query, answer, alternatives, question_type), evidence)
    return None if result is None else result.found


def test_normalize_drops_case_accents_punctuation_and_thousands_separators():
    assert normalize("Mañana, Café!") == "manana cafe"
    assert normalize("3,696 feet; 1,234,567") == "3696 feet 1234567"
    assert normalize("Deathly Hallows – Part 2") == normalize("Deathly Hallows: Part 2")
    assert normalize("1.5 and 12,34") == "1 5 and 12 34"


def test_match_is_word_bounded():
    assert found("en", ["It was often shown"]) is False
    assert found("en", ["Languages: EN, FR"]) is True
    assert found("Oracle", ["He worked at Oracle."]) is True
    assert found("Oracle", ["Oracles of old"]) is False


def test_a_list_answer_needs_every_item():
    answer = "Barry Bonds, Hank Aaron, and Babe Ruth"
    assert found(answer, ["Barry Bonds leads.", "Hank Aaron is second; Babe Ruth third"]) is True
    assert found(answer, ["Barry Bonds leads.", "Hank Aaron is second"]) is False
    assert found("Ella and Alexander Clooney", ["the twins Alexander Clooney and Ella"]) is True


def test_any_alternative_answer_counts():
    assert found("more than one year", ["held for over one year"], alternatives=["over one year"]) is True
    assert found("more than one year", ["held for a year"], alternatives=["over one year"]) is False


def test_a_sentence_answer_needs_its_key_phrases_not_the_words_of_the_question():
    query = "what is the shortest highway in the us in feet?"
    answer = "the shortest highway in the us, i-878 in new york, is only 3,696 feet long."
    key = answer_key(query, answer)
    assert key.options == (("i 878", "new york", "3696", "long"),)
    assert found(answer, ["I-878 in New York is 3696 feet long"], query) is True
    result = match(key, ["I-878 is 3,696 feet long"])
    assert result is not None and not result.found and result.missing == ("new york",)


@pytest.mark.parametrize(
    ("answer", "question_type", "reason"),
    [
        ("yes", "comparison", "stock reply"),
        ("nan", "comparison", "stock reply"),
        ("invalid question", "false_premise", "false premise"),
        ("rory mcilroy has never won the masters", "false_premise", "false premise"),
        ("42", "aggregation", "computed number"),
        ("12.5%", "post-processing", "computed number"),
    ],
)
def test_answers_that_cannot_be_string_matched_are_excluded_with_a_reason(answer, question_type, reason):
    key = answer_key("q", answer, (), question_type)
    assert key.excluded is not None and reason in key.excluded
    assert match(key, [answer]) is None


def test_an_aggregation_answer_that_is_a_name_is_still_scored():
    assert found("Steve Jobs", ["Steve Jobs resigned"], question_type="aggregation") is True


def test_references_report_counts_with_this_metric_and_lists_what_it_cannot_score():
    from evaluation.data import GoldQuestion
    from evaluation.reports import markdown_references_report, references_report

    golds = [
        GoldQuestion("a", "what language?", "en", [], {"question_type": "simple"}),
        GoldQuestion("b", "is it owned by universal?", "yes", [], {"question_type": "comparison"}),
        GoldQuestion("c", "who?", "Steve Jobs", [], {"question_type": "simple"}),
    ]
    lines = [
        {"interaction_id": "a", "references": ["It is often shown"], "seconds": 1.0},
        {"interaction_id": "b", "references": ["yes"], "seconds": 1.0},
        {"interaction_id": "c", "references": ["Steve Jobs resigned."], "seconds": 1.0},
    ]
    report = references_report(lines, golds, "cpu")
    assert report["n"] == 2 and report["answer_in_references"] == 1  # "en" is not inside "often"
    assert [e["interaction_id"] for e in report["excluded"]] == ["b"]
    assert "Not scored" in markdown_references_report(report)


def test_verified_evidence_spans_all_must_be_found():
    key = spans_key(
        "who are the members of the black keys?", ["Dan Auerbach", "patrick carney", "dan auerbach"]
    )
    assert key.options == (("dan auerbach", "patrick carney"),)
    assert match(key, ["Dan Auerbach and Patrick Carney formed the band."]).found
    missed = match(key, ["Dan Auerbach sings."])
    assert not missed.found and missed.missing == ("patrick carney",)
    assert match(key, ["The price closed at $35.78."]).missing == ("dan auerbach", "patrick carney")
    assert match(spans_key("q", ["35 78"]), ["It closed at $35.78 yesterday."]).found
    assert spans_key("q", ["", "  "]).excluded == "no evidence span"

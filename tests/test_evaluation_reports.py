"""report.json breakdowns, Markdown tables, charts and the 4x T4 budget estimate."""

from __future__ import annotations

from evaluation.charts import breakdown_charts, comparison_chart
from evaluation.data import GoldQuestion
from evaluation.reports import (
    build_report,
    markdown_comparison,
    markdown_report,
    references_report,
)
from evaluation.judges import RULES, UNSURE_COUNTED_WRONG
from evaluation.scoring import CORRECT, HALLUCINATION, MISSING, ScoredQuestion


def _scored(outcome: str, source: str, **labels: str) -> ScoredQuestion:
    return ScoredQuestion("id", outcome, source, "p", labels=labels)


def _report(scored, lines, preset="cpu"):
    return build_report(
        scored,
        lines,
        preset=preset,
        judge_identity="rules",
        judge_is_weak=True,
        truncation="test",
        truncation_exact=False,
    )


SCORED = [
    _scored(CORRECT, "exact", domain="music", question_type="simple", static_or_dynamic="static"),
    _scored(HALLUCINATION, "rules", domain="music", question_type="set", static_or_dynamic="static"),
    _scored(MISSING, "idk", domain="finance", question_type="simple", static_or_dynamic="real-time"),
    _scored(CORRECT, "rules", domain="finance", question_type="simple", static_or_dynamic="static"),
]
LINES = [
    {
        "seconds": 1.0,
        "tokens": {"reasoning": {"calls": 1, "prompt_tokens": 100, "completion_tokens": 10}},
        "timings": {"calculator": 0.0, "reasoning": 1.0},
        "events": [
            {"stage": "calculator", "kind": "skipped", "what": "skipped to meet the deadline", "detail": ""},
            {"stage": "web", "kind": "failed", "what": "page error", "detail": "timed out [a page]"},
            {"stage": "web", "kind": "failed", "what": "page error", "detail": "timed out [another page]"},
        ],
    },
    {
        "seconds": 2.0,
        "tokens": {"reasoning": {"calls": 1, "prompt_tokens": 300, "completion_tokens": 30}},
        "route": "answered",
    },
    {
        "seconds": 3.0,
        "tokens": {},
        "events": [
            {
                "stage": "attributes",
                "kind": "routed",
                "what": "refused",
                "detail": "P(dynamic)=0.91 in finance",
            }
        ],
        "route": "refused: dynamic",
    },
    {"seconds": 10.0, "error": "RuntimeError: boom", "tokens": {}},
]


def test_overall_and_breakdowns():
    report = _report(SCORED, LINES)
    assert (report["n"], report["correct"], report["missing"], report["hallucination"]) == (4, 2, 1, 1)
    assert report["score"] == 0.25
    assert report["by_domain"]["music"]["score"] == 0.0
    assert report["by_domain"]["finance"] == report["by_domain"]["finance"] | {
        "n": 2,
        "correct": 1,
        "missing": 1,
    }
    assert report["by_question_type"]["simple"]["n"] == 3
    assert set(report["by_static_or_dynamic"]) == {"static", "real-time"}
    assert "by_popularity" not in report  # the data had no popularity
    assert (report["verdicts_by_rules"], report["verdicts_by_answer_checker"], report["errors"]) == (4, 2, 1)
    assert (report["verdicts_by_llm_judge"], report["unsure_counted_wrong"]) == (0, 0)
    assert report["seconds_per_question"]["max"] == 10.0 and report["seconds_per_question"]["p50"] == 2.5
    assert report["tokens_per_stage"]["reasoning"]["prompt_tokens"] == 400
    assert report["tokens_per_stage"]["reasoning"]["mean_prompt_tokens"] == 100.0
    assert report["degradations"] == {"calculator skipped to meet the deadline": 1, "attributes refused": 1}
    assert report["failures_by_stage"] == {"web": 1}  # questions: one, with two pages that failed
    assert report["events_by_kind"] == {"routed": 1, "skipped": 1, "failed": 2}
    assert report["stages"]["calculator"] == {"ran": 1, "skipped": 1} and report["stages"]["web"] == {
        "failed": 1
    }
    # by the answer policy's route; a line without one (an old trace, a failed batch) counts as "(none)"
    assert report["routes"] == {"(none)": 2, "answered": 1, "refused: dynamic": 1}


def test_markdown_tables_and_charts(tmp_path):
    report = _report(SCORED, LINES)
    text = markdown_report(report)
    assert "| domain | n | correct | missing | hallucination | score |" in text
    assert "| finance | 2 | 1 | 1 | 0 | 0.500 |" in text
    assert "Verdicts by rules: 4 (answer checker 2); by the LLM judge: 0." in text
    assert "calculator skipped to meet the deadline 1, attributes refused 1." in text
    assert "Answers by route: (none) 2, answered 1, refused: dynamic 1." in text
    assert "| calculator | 1 | 0 | 1 | 0 | 0 | 0 |" in text
    charts = breakdown_charts(report, tmp_path)
    assert [c.name for c in charts] == [
        "chart_by_domain.png",
        "chart_by_question_type.png",
        "chart_by_static_or_dynamic.png",
    ]
    assert all(c.read_bytes().startswith(b"\x89PNG") for c in charts)


def test_verdicts_are_counted_by_where_they_came_from():
    sources = ["idk", "exact", RULES, RULES, "openai:gpt-4", UNSURE_COUNTED_WRONG]
    scored = [_scored(HALLUCINATION, source) for source in sources]
    report = _report(scored, [{"seconds": 1.0, "tokens": {}}] * len(scored))
    assert (report["verdicts_by_rules"], report["verdicts_by_answer_checker"]) == (4, 2)
    assert (report["verdicts_by_llm_judge"], report["unsure_counted_wrong"]) == (1, 1)
    assert "by the LLM judge: 1; unsure, counted wrong: 1" in markdown_report(report)


def test_comparison_table_keeps_preset_order(tmp_path):
    reports = {"baseline": _report(SCORED[:2], LINES[:2], "baseline"), "cpu": _report(SCORED, LINES)}
    table = markdown_comparison(reports)
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[0].startswith("| preset | n | score | accuracy | hallucination | missing")
    assert rows[1].startswith("| baseline | 2 | 0.000 |") and rows[2].startswith("| cpu | 4 | 0.250 |")
    assert comparison_chart(reports, tmp_path / "c.png").read_bytes().startswith(b"\x89PNG")


def test_references_report_counts_answers_found():
    golds = [
        GoldQuestion("a", "q", "Canberra", [], {"domain": "open"}),
        GoldQuestion("b", "q", "1969", ["july 1969"], {"domain": "open"}),
    ]
    lines = [
        {"interaction_id": "a", "references": ["The capital of Australia is Canberra."], "seconds": 1.0},
        {"interaction_id": "b", "references": ["Apollo 11 landed in July."], "seconds": 1.0},
    ]
    report = references_report(lines, golds, "cpu")
    assert (
        report["answer_in_references"] == 1
        and report["by_domain"]["open"]["answer_in_references_rate"] == 0.5
    )


def test_stage_seconds_split_prompt_evaluated_reused_and_decoding_over_uncached_batches():
    measured = {
        "calls": 1,
        "prompt_tokens": 500,
        "completion_tokens": 20,
        "evaluated_prompt_tokens": 200,
        "reused_prompt_tokens": 300,
        "prompt_seconds": 2.0,
        "decode_seconds": 1.5,
    }
    lines = [
        {
            "batch_id": "a",
            "seconds": 4.0,
            "timings": {"web": 0.5, "reasoning": 3.5},
            "tokens": {"reasoning": measured},
        },
        {"batch_id": "b", "seconds": 1.0, "timings": {"web": 1.5}, "tokens": {}},
        # a batch with a cached reply: its seconds say nothing of the work, so it is left out
        {
            "batch_id": "c",
            "seconds": 0.1,
            "timings": {"reasoning": 0.1},
            "tokens": {"reasoning": {**measured, "cached": 1}},
        },
    ]
    report = _report(SCORED[:3], lines)
    seconds = report["seconds_per_stage"]
    assert seconds["web"]["seconds"] == 1.0 and seconds["web"]["calls"] == 0
    assert seconds["reasoning"] == {
        "seconds": 1.75,
        "calls": 0.5,
        "evaluated_prompt_tokens": 100.0,
        "reused_prompt_tokens": 150.0,
        "prompt_seconds": 1.0,
        "completion_tokens": 10.0,
        "decode_seconds": 0.75,
    }
    assert seconds["all"]["seconds"] == 2.75 and seconds["all"]["prompt_seconds"] == 1.0
    text = markdown_report(report)
    assert (
        "Where the seconds go" in text
        and "| reasoning | 1.750 | 0.500 | 100.000 | 150.000 | 1.000 | 10.000 | 0.750 |" in text
    )
    # seconds per question (p50, mean) beside the scores, from the uncached batches: 4.0 and 1.0
    score_row = next(line for line in text.splitlines() if line.startswith("| 3 |"))
    assert score_row.endswith("| 0.333 | 2.500 | 2.500 |")

"""benchmarks/kg_system.py (`benchmarks/kg.py --real --system`): what it counts per question and how it
reports, without running the system."""

from __future__ import annotations

from types import SimpleNamespace

from benchmarks.kg_system import PROMPT_CAUSE, Row, report
from evaluation.answer_match import Verdict
from models.stages import COMPUTED_KEPT, COMPUTED_OVER_DECLINE, FALSE_PREMISE_OVERRULED, NOT_IN_KG_ROUTE


def row(
    prediction: str,
    verdict: Verdict,
    route: str = "answered",
    events: list[dict] | None = None,
    found: bool = True,
    split: str = "tune",
) -> Row:
    case = SimpleNamespace(
        key="k", split=split, domain="finance", question_type="simple", query="q?", query_time="t", gold="g"
    )
    line = {"prediction": prediction, "route": route, "events": events or [], "references": []}
    return Row(case, line, verdict, found, False)


def test_each_i_dont_know_is_traced_to_its_cause():
    assert row("I don't know", Verdict.MISSING, "refused: dynamic").cause == "routing: refused before the KG"
    assert row("I don't know", Verdict.MISSING, "refused: out of time").cause == "deadline"
    assert row("I don't know", Verdict.MISSING, NOT_IN_KG_ROUTE).cause == "asked name not in the KG"
    assert row("I don't know", Verdict.MISSING, "answered: dynamic, from KG evidence").cause == PROMPT_CAUSE
    skipped = row(
        "I don't know",
        Verdict.MISSING,
        events=[{"stage": "kg", "kind": "skipped", "what": "skipped to meet the deadline"}],
    )
    assert skipped.kg_skipped and not row("x", Verdict.CORRECT).kg_skipped


def test_the_false_premise_judgement_counts_whether_kept_or_overruled():
    kept = row("invalid question", Verdict.WRONG)
    overruled = row(
        "2021-12-23",
        Verdict.CORRECT,
        events=[{"stage": "reasoning", "kind": "fallback", "what": FALSE_PREMISE_OVERRULED}],
    )
    assert kept.invalid and kept.premise_judged_false
    assert overruled.premise_judged_false and not overruled.invalid
    assert not row("2021-12-23", Verdict.CORRECT).premise_judged_false


def test_the_report_tallies_the_found_questions_apart_by_split(capsys):
    rows = [
        row("a", Verdict.CORRECT),
        row("invalid question", Verdict.WRONG),
        row("I don't know", Verdict.MISSING, found=False),
        row("b", Verdict.CORRECT, split="held-out"),
    ]
    report(rows, show_misses=False)
    lines = capsys.readouterr().out.splitlines()
    tune = next(line for line in lines if line.startswith("tune "))
    held_out = next(line for line in lines if line.startswith("held-out "))
    assert "2/3   = 67%" in tune and "1 ( 50%)   1 ( 50%)   0 (  0%)" in tune and "1 (1)/2 / 1 (1)/3" in tune
    assert "1/1   = 100%" in held_out


def test_a_computed_answer_in_the_prompt_and_its_replacement_are_counted(capsys):
    replaced = row(
        "good", Verdict.CORRECT, events=[{"stage": "reasoning", "kind": "fallback", "what": COMPUTED_KEPT}]
    )
    replaced.line["references"] = [
        "Computed answer: good (good has the highest P/E ratio)",
        "GOOD / P/E ratio: 28.94",
    ]
    plain = row("x", Verdict.WRONG)
    assert replaced.computed and replaced.noted(COMPUTED_KEPT) and not plain.computed
    given = row(
        "good",
        Verdict.CORRECT,
        events=[{"stage": "reasoning", "kind": "fallback", "what": COMPUTED_OVER_DECLINE}],
    )
    given.line["references"] = replaced.line["references"]
    report([replaced, given, plain], show_misses=False)
    assert (
        "  tune        2 computed,   1 replaced,   1 given over a decline,   0 declined; correct 2"
        in capsys.readouterr().out
    )

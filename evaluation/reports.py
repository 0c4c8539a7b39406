"""report.json contents and the Markdown tables printed after a run."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

import numpy as np

from evaluation.data import GoldQuestion
from evaluation.evidence_recall import answer_key, match
from evaluation.judges import RULES, UNSURE_COUNTED_WRONG
from evaluation.scoring import EXACT, IDK, ScoredQuestion, Tally
from models.markdown import markdown_table
from models.plan import signal_kind
from models.schema import EVENT_KINDS

# question label -> report key; popularity appears only when the data has it
BREAKDOWNS = {
    "domain": "by_domain",
    "question_type": "by_question_type",
    "static_or_dynamic": "by_static_or_dynamic",
    "popularity": "by_popularity",
}
UNLABELLED = "(none)"


def build_report(
    scored: list[ScoredQuestion],
    lines: list[dict[str, Any]],
    *,
    preset: str,
    judge_identity: str,
    judge_is_weak: bool,
    truncation: str,
    truncation_exact: bool,
) -> dict[str, Any]:
    overall = Tally()
    for item in scored:
        overall.add(item)
    sources = Counter(item.verdict_source for item in scored)
    by_rules = sources[IDK] + sources[EXACT] + sources[RULES]
    report: dict[str, Any] = {"preset": preset, **overall.as_dict()}
    for label, key in BREAKDOWNS.items():
        breakdown = _breakdown(scored, label)
        if breakdown is not None:
            report[key] = breakdown
    report |= {
        "judge": judge_identity,
        "judge_is_weak": judge_is_weak,
        # where verdicts came from: the leaderboard's two rules and the answer checker, an LLM judge
        # (only for what the checker was unsure of), or neither (unsure, no LLM judge: counted wrong)
        "verdicts_by_rules": by_rules,
        "verdicts_by_answer_checker": sources[RULES],
        "verdicts_by_llm_judge": len(scored) - by_rules - sources[UNSURE_COUNTED_WRONG],
        "unsure_counted_wrong": sources[UNSURE_COUNTED_WRONG],
        "judge_errors": sum(item.judge_error is not None for item in scored),
        "verdict_sources": dict(sources),
        # the rule behind each verdict (scored.jsonl `rule`), and the answer checker's rules that were
        # unsure of the verdicts an LLM judge gave or that were counted wrong
        "verdicts_by_rule": dict(Counter(item.rule for item in scored).most_common()),
        "unsure_by_rule": dict(
            Counter(
                item.rule for item in scored if item.verdict_source not in (IDK, EXACT, RULES)
            ).most_common()
        ),
        "truncation": truncation,
        "truncation_exact": truncation_exact,
        "errors": sum(bool(line.get("error")) for line in lines),
        "reply_cache": reply_cache_counts(lines),
        # from the batches that took nothing from the reply cache alone
        "seconds_per_question": latency_summary(uncached_lines(lines)),
        "timings_rest_on": timing_basis(uncached_lines(lines)),
        "tokens_per_stage": token_summary(lines),
        "seconds_per_stage": stage_seconds(lines),
        "routes": route_counts(lines),
        "failures_by_stage": failure_counts(lines),
        "degradations": degradation_counts(lines),
        "events_by_kind": event_kind_counts(lines),
        "stages": stage_summary(lines),
        "plan": plan_summary(lines),
        "pages": page_summary(lines),
    }
    return report


def _breakdown(scored: list[ScoredQuestion], label: str) -> dict[str, dict[str, Any]] | None:
    if not any(label in item.labels for item in scored):
        return None
    tallies: dict[str, Tally] = {}
    for item in scored:
        tallies.setdefault(item.labels.get(label, UNLABELLED), Tally()).add(item)
    return {name: tallies[name].as_dict() for name in sorted(tallies)}


def reply_cache_counts(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """LLM calls of the questions served from the reply cache (hits) and run by the model (misses),
    in all and by stage."""
    by_stage: dict[str, Counter] = {}
    for line in lines:
        for stage, usage in (line.get("tokens") or {}).items():
            cached = int(usage.get("cached", 0))
            by_stage.setdefault(stage, Counter()).update(
                {"hits": cached, "misses": int(usage.get("calls", 0)) - cached}
            )
    return {
        "hits": sum(counts["hits"] for counts in by_stage.values()),
        "misses": sum(counts["misses"] for counts in by_stage.values()),
        "by_stage": {
            stage: {"hits": counts["hits"], "misses": counts["misses"]}
            for stage, counts in sorted(by_stage.items())
        },
    }


def describe_reply_cache(counts: dict[str, Any]) -> str:
    stages = ", ".join(
        f"{stage} {c['hits']} of {c['hits'] + c['misses']}" for stage, c in counts["by_stage"].items()
    )
    return f"{counts['hits']} hits, {counts['misses']} misses" + (
        f" (cached by stage: {stages})" if stages else ""
    )


def uncached_lines(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The questions of the batches that took no reply from the reply cache: a cached reply takes no
    model time, so only these batches' seconds say how long the work takes."""

    def batch(line: dict[str, Any]) -> str:
        return str(line.get("batch_id") or (line.get("batch") or [line.get("interaction_id")])[0])

    cached = {batch(line) for line in lines if reply_cache_counts([line])["hits"]}
    return [line for line in lines if batch(line) not in cached]


def timing_basis(lines: list[dict[str, Any]]) -> dict[str, int]:
    """What the timings of `lines` (the uncached ones) rest on: questions and LLM calls."""
    return {"questions": len(lines), "uncached_calls": reply_cache_counts(lines)["misses"]}


def latency_summary(lines: list[dict[str, Any]]) -> dict[str, float]:
    """Seconds per question: each question's share of its batch's wall time."""
    seconds = np.array([float(line.get("seconds", 0.0)) for line in lines])
    if not seconds.size:
        return {"p50": 0.0, "p95": 0.0, "max": 0.0, "mean": 0.0}
    return {
        "p50": float(np.percentile(seconds, 50)),
        "p95": float(np.percentile(seconds, 95)),
        "max": float(seconds.max()),
        "mean": float(seconds.mean()),
    }


def token_summary(lines: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """LLM calls and tokens per stage: totals and means over all questions (not only callers), and
    the replies a time limit cut."""
    totals: dict[str, Counter] = {}
    for line in lines:
        for stage, usage in (line.get("tokens") or {}).items():
            totals.setdefault(stage, Counter()).update(
                {
                    key: int(usage.get(key, 0))
                    for key in ("calls", "prompt_tokens", "completion_tokens", "cut", "cached")
                }
            )
    n = max(len(lines), 1)
    return {
        stage: {
            "calls": counts["calls"],
            "cut": counts["cut"],
            "cached": counts["cached"],
            "prompt_tokens": counts["prompt_tokens"],
            "completion_tokens": counts["completion_tokens"],
            "mean_prompt_tokens": counts["prompt_tokens"] / n,
            "mean_completion_tokens": counts["completion_tokens"] / n,
        }
        for stage, counts in sorted(totals.items())
    }


LLM_MEASURES = (
    "calls",
    "evaluated_prompt_tokens",
    "reused_prompt_tokens",
    "prompt_seconds",
    "completion_tokens",
    "decode_seconds",
)


def stage_seconds(lines: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Where the seconds go, per stage, as means per question over the questions of batches without
    cached replies: the stage's seconds (its share of the batch) and, for its LLM calls, the prompt
    tokens evaluated and those restored from a cached prefix with the seconds until the first token,
    and the decoded tokens with the seconds after the first token (the backend's own measurements;
    llama.cpp alone measures them, other backends count zeros)."""
    timed = uncached_lines(lines)
    totals: dict[str, Counter] = {}
    for line in timed:
        for stage, seconds in (line.get("timings") or {}).items():
            totals.setdefault(stage, Counter())["seconds"] += float(seconds)
        for stage, usage in (line.get("tokens") or {}).items():
            totals.setdefault(stage, Counter()).update(
                {key: float(usage.get(key, 0)) for key in LLM_MEASURES}
            )
    n = max(len(timed), 1)
    summary = {
        stage: {key: counts[key] / n for key in ("seconds", *LLM_MEASURES)}
        for stage, counts in totals.items()
    }
    if summary:
        summary["all"] = {
            key: sum(row[key] for row in summary.values()) for key in ("seconds", *LLM_MEASURES)
        }
    return summary


def markdown_stage_seconds(summary: dict[str, dict[str, float]]) -> str:
    """The table of `stage_seconds`."""
    headers = [
        "stage",
        "s/q",
        "LLM calls/q",
        "prompt tokens evaluated/q",
        "reused/q",
        "prompt s/q",
        "decode tokens/q",
        "decode s/q",
    ]
    rows = [[stage, *(row[key] for key in ("seconds", *LLM_MEASURES))] for stage, row in summary.items()]
    return _table(headers, rows)


def route_counts(lines: list[dict[str, Any]]) -> dict[str, int]:
    """Answers by the answer policy's route (models/schema.py:Route; "(none)": a failed batch's)."""
    return dict(Counter(line.get("route") or UNLABELLED for line in lines).most_common())


def _events(line: dict[str, Any]) -> list[dict[str, str]]:
    return line.get("events") or []


def failure_counts(lines: list[dict[str, Any]]) -> dict[str, int]:
    """Questions each stage failed for (the stage raised for their batch, reported an error for them,
    or, for the web stage, could not read one of their pages): they were answered without it."""
    counts = Counter(
        stage
        for line in lines
        for stage in {event["stage"] for event in _events(line) if event["kind"] == "failed"}
    )
    return dict(sorted(counts.items()))


def degradation_counts(lines: list[dict[str, Any]]) -> dict[str, int]:
    """How often each event short of a failure (routing, skipped stages, shortened references, page
    caps and fallbacks, ...) happened, by "<stage> <what>"."""
    labels = Counter(
        f"{event['stage']} {event['what']}"
        for line in lines
        for event in _events(line)
        if event["kind"] != "failed"
    )
    return dict(labels.most_common())


def event_kind_counts(lines: list[dict[str, Any]]) -> dict[str, int]:
    """Events by kind (models/schema.py:EventKind), failures included."""
    kinds = Counter(event["kind"] for line in lines for event in _events(line))
    return {kind: kinds[kind] for kind in EVENT_KINDS if kinds[kind]}


def stage_summary(lines: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per stage, the questions it ran for (it has a timing for them) and those it was skipped,
    degraded, fell back or failed for (at least one event of that kind)."""
    summary: dict[str, Counter] = {}
    for line in lines:
        for stage in line.get("timings") or {}:
            summary.setdefault(stage, Counter())["ran"] += 1
        for stage, kind in {(event["stage"], event["kind"]) for event in _events(line)}:
            summary.setdefault(stage, Counter())[kind] += 1
    return {stage: dict(counts) for stage, counts in sorted(summary.items())}


def page_summary(lines: list[dict[str, Any]]) -> dict[str, int]:
    """The questions' pages (each question's trace `pages`): read in full or not, and those whose
    candidates reached the shortlist and the references."""
    pages = [page for line in lines for page in line.get("pages") or []]
    return {
        "pages": len(pages),
        "read": sum(bool(page.get("read")) for page in pages),
        "not read": sum(not page.get("read") for page in pages),
        "shortlisted": sum(page.get("shortlisted", 0) > 0 for page in pages),
        "in references": sum(page.get("kept", 0) > 0 for page in pages),
    }


def plan_summary(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """How many planned questions each optional stage was planned for, and the signals behind the
    decisions (models/plan.py; details such as the matched words dropped)."""
    plans = [line["plan"] for line in lines if line.get("plan")]
    signals = Counter(signal_kind(signal) for plan in plans for signal in plan.get("signals") or [])
    decided = [key for key, value in (plans[0] if plans else {}).items() if isinstance(value, bool)]
    return {
        "planned": len(plans),
        "stages": {stage: sum(bool(plan.get(stage)) for plan in plans) for stage in decided},
        "signals": dict(signals.most_common()),
    }


def references_report(lines: list[dict[str, Any]], golds: list[GoldQuestion], preset: str) -> dict[str, Any]:
    """For --references-only: how often the references hold the whole gold answer (evidence recall,
    evaluation/evidence_recall.py); questions it cannot score by string are listed, not counted."""
    by_id = {line["interaction_id"]: line for line in lines}
    found: dict[str, list[bool]] = {}
    per_label: dict[str, dict[str, list[bool]]] = {label: {} for label in BREAKDOWNS}
    reference_counts, reference_chars = [], []
    excluded = []
    for gold in golds:
        references = by_id[gold.interaction_id].get("references") or []
        reference_counts.append(len(references))
        reference_chars.append(sum(len(r) for r in references))
        key = answer_key(gold.query, gold.answer, gold.alternative_answers, gold.labels.get("question_type"))
        result = match(key, references)
        if result is None:
            excluded.append(
                {"interaction_id": gold.interaction_id, "query": gold.query, "reason": key.excluded}
            )
            continue
        hit = result.found
        found.setdefault("all", []).append(hit)
        for label in BREAKDOWNS:
            if label in gold.labels:
                per_label[label].setdefault(gold.labels[label], []).append(hit)
    hits = found.get("all", [])
    report: dict[str, Any] = {
        "preset": preset,
        "n": len(hits),
        "answer_in_references": sum(hits),
        "answer_in_references_rate": sum(hits) / max(len(hits), 1),
        "excluded": excluded,
        "mean_references": float(np.mean(reference_counts)) if reference_counts else 0.0,
        "mean_reference_chars": float(np.mean(reference_chars)) if reference_chars else 0.0,
        "errors": sum(bool(by_id[g.interaction_id].get("error")) for g in golds),
        "seconds_per_question": latency_summary([by_id[g.interaction_id] for g in golds]),
    }
    for label, key in BREAKDOWNS.items():
        if per_label[label]:
            report[key] = {
                name: {"n": len(v), "answer_in_references_rate": sum(v) / len(v)}
                for name, v in sorted(per_label[label].items())
            }
    return report


def report_cell(value: Any) -> str:
    """A table cell of a printed report: floats to three decimals."""
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def _table(headers: list[str], rows: Iterable[list[Any]]) -> str:
    return markdown_table(headers, rows, cell=report_cell)


_SCORE_COLUMNS = [
    "n",
    "correct",
    "missing",
    "hallucination",
    "score",
    "accuracy",
    "hallucination_rate",
    "missing_rate",
]


def markdown_report(report: dict[str, Any]) -> str:
    llm_judge = report["judge"] != RULES
    weak = " (weak judge: a small local model)" if report["judge_is_weak"] and llm_judge else ""
    unsure = report["unsure_counted_wrong"]
    unsure_note = f"; unsure, counted wrong: {unsure} (`--judge local|openai` asks an LLM)" if unsure else ""
    by_rules, by_checker = report["verdicts_by_rules"], report["verdicts_by_answer_checker"]
    verdicts = (
        f"Verdicts by rules: {by_rules} (answer checker {by_checker}); "
        f"by the LLM judge: {report['verdicts_by_llm_judge']}{unsure_note}"
    )
    by_rule = ", ".join(f"{rule} {count}" for rule, count in report.get("verdicts_by_rule", {}).items())
    parts = [
        f"## Preset `{report['preset']}`: score {report['score']:.3f} on {report['n']} questions",
        f"Judge: {report['judge']}{weak}. {verdicts}.  \n"
        f"Verdicts by rule: {by_rule or 'none'}.  \n"
        f"Judge errors: {report['judge_errors']}; failed questions: {report['errors']}; "
        f"truncation: {report['truncation']}.",
        _table(
            [*_SCORE_COLUMNS, "p50 s/q", "mean s/q"],
            [
                [
                    *(report[c] for c in _SCORE_COLUMNS),
                    report["seconds_per_question"]["p50"],
                    report["seconds_per_question"]["mean"],
                ]
            ],
        ),
    ]
    for label, key in BREAKDOWNS.items():
        if key in report:
            rows = [[name] + [tally[c] for c in _SCORE_COLUMNS[:5]] for name, tally in report[key].items()]
            parts.append(_table([label] + _SCORE_COLUMNS[:5], rows))
    if report.get("routes"):
        routes = ", ".join(f"{route} {count}" for route, count in report["routes"].items())
        parts.append(f"Answers by route: {routes}.")
    if report["failures_by_stage"]:
        failures = ", ".join(f"{stage} {count}" for stage, count in report["failures_by_stage"].items())
        parts.append(f"Stage failures (questions answered without the stage): {failures}.")
    if report["degradations"]:
        taken = ", ".join(f"{kind} {count}" for kind, count in report["degradations"].items())
        parts.append(
            f"Fallbacks and degradations taken (routing, skipped stages, page caps and fallbacks): {taken}."
        )
    if report["stages"]:
        columns = ["ran", *EVENT_KINDS]
        rows = [[stage, *(counts.get(c, 0) for c in columns)] for stage, counts in report["stages"].items()]
        parts.append(_table(["stage (questions)", *columns], rows))
    plan = report.get("plan") or {}
    if plan.get("planned"):
        stages = ", ".join(f"{stage} {count}" for stage, count in plan["stages"].items())
        signals = ", ".join(f"{signal} {count}" for signal, count in plan["signals"].items())
        parts.append(f"Plan of {plan['planned']} questions, stages planned: {stages}. Signals: {signals}.")
    pages = report.get("pages") or {}
    if pages.get("pages"):
        parts.append(
            f"Pages: {pages['pages']}, read {pages['read']}, not read {pages['not read']}; with candidates "
            f"shortlisted {pages['shortlisted']}, in the references {pages['in references']}."
        )
    latency, basis = report["seconds_per_question"], report["timings_rest_on"]
    cache = report["reply_cache"]
    parts.append(
        f"Seconds per question: p50 {latency['p50']:.1f}, p95 {latency['p95']:.1f}, max {latency['max']:.1f} "
        f"(on {basis['questions']} questions of batches without cached replies, {basis['uncached_calls']} "
        f"LLM calls). Reply cache: {describe_reply_cache(cache)}."
    )
    if report["tokens_per_stage"]:
        rows = [
            [
                stage,
                usage["calls"],
                usage.get("cut", 0),
                usage["mean_prompt_tokens"],
                usage["mean_completion_tokens"],
            ]
            for stage, usage in report["tokens_per_stage"].items()
        ]
        parts.append(
            _table(["stage", "calls", "cut by the deadline", "prompt tokens/q", "completion tokens/q"], rows)
        )
    if report["seconds_per_stage"]:
        parts.append(
            "Where the seconds go (batches without cached replies):\n\n"
            + markdown_stage_seconds(report["seconds_per_stage"])
        )
    return "\n\n".join(parts)


def markdown_references_report(report: dict[str, Any]) -> str:
    parts = [
        f"## Preset `{report['preset']}` (references only): gold answer found in the references for "
        f"{report['answer_in_references']}/{report['n']} questions "
        f"({report['answer_in_references_rate']:.1%})",
        f"Mean references per question: {report['mean_references']:.1f} "
        f"({report['mean_reference_chars']:.0f} characters); failed questions: {report['errors']}.",
    ]
    if report.get("excluded"):
        parts.append(
            "Not scored (no answer to match as a string): "
            + "; ".join(f"{e['query']!r} ({e['reason']})" for e in report["excluded"])
        )
    for label, key in BREAKDOWNS.items():
        if key in report:
            rows = [[name, v["n"], v["answer_in_references_rate"]] for name, v in report[key].items()]
            parts.append(_table([label, "n", "answer found"], rows))
    return "\n\n".join(parts)


COMPARISON_COLUMNS = ["n", "score", "accuracy", "hallucination_rate", "missing_rate"]


def markdown_comparison(reports: dict[str, dict[str, Any]]) -> str:
    """One row per preset, in the order run, like the paper's incremental ablation table."""
    rows = []
    for preset, report in reports.items():
        latency = report["seconds_per_question"]
        rows.append([preset] + [report[c] for c in COMPARISON_COLUMNS] + [latency["p50"], latency["p95"]])
    headers = ["preset", "n", "score", "accuracy", "hallucination", "missing", "p50 s/q", "p95 s/q"]
    return "## Ablation\n\n" + _table(headers, rows)


def judge_comparison(
    scored_by_judge: dict[str, list[ScoredQuestion]], golds: list[GoldQuestion], reference: str
) -> dict[str, Any]:
    """How far each judge is from the `reference` judge (the official one, when it ran) on the same
    predictions: every judge's scores, and for each other judge the questions where its outcome differs
    from the reference's, listed."""
    queries = {gold.interaction_id: gold.query for gold in golds}
    by_reference = {item.interaction_id: item for item in scored_by_judge[reference]}
    result: dict[str, Any] = {"reference": reference, "scores": {}, "differences": {}}
    for identity, scored in scored_by_judge.items():
        tally = Tally()
        for item in scored:
            tally.add(item)
        result["scores"][identity] = tally.as_dict()
        if identity == reference:
            continue
        differing = [
            {
                "interaction_id": item.interaction_id,
                "query": queries.get(item.interaction_id, ""),
                "prediction": item.prediction,
                "outcome": item.outcome,
                "verdict_source": item.verdict_source,
                "reference_outcome": by_reference[item.interaction_id].outcome,
                "reference_verdict_source": by_reference[item.interaction_id].verdict_source,
                "reference_reply": by_reference[item.interaction_id].judge_reply,
            }
            for item in scored
            if item.outcome != by_reference[item.interaction_id].outcome
        ]
        result["differences"][identity] = {"n": len(scored), "differ": len(differing), "questions": differing}
    return result


def markdown_judge_comparison(comparison: dict[str, Any]) -> str:
    """The judges' scores side by side, then each judge's verdicts that differ from the reference's."""
    reference = comparison["reference"]
    differences = comparison["differences"]
    rows = [
        [identity, scores["n"], scores["score"], scores["accuracy"], scores["hallucination_rate"]]
        + [scores["missing_rate"], "reference" if identity == reference else differences[identity]["differ"]]
        for identity, scores in comparison["scores"].items()
    ]
    headers = ["judge", "n", "score", "accuracy", "hallucination", "missing", "verdicts differing"]
    parts = [f"## Judges on the same predictions (reference: `{reference}`)", _table(headers, rows)]
    for identity, difference in differences.items():
        count = f"{difference['differ']} of {difference['n']} questions"
        parts.append(f"`{identity}` differs from `{reference}` on {count}.")
        if difference["questions"]:
            rows = [
                [q["interaction_id"], q["query"], q["prediction"], q["outcome"], q["verdict_source"]]
                + [q["reference_outcome"], q["reference_verdict_source"]]
                for q in difference["questions"]
            ]
            headers = ["question id", "question", "prediction", identity, "source", reference, "source"]
            parts.append(_table(headers, rows))
    return "\n\n".join(parts)

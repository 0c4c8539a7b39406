"""The sealed KG set (benchmarks/kg_sealed.py): its selection is the mechanical one it states. Skips
cleanly without ../shared/data. The checks print no question, gold answer or fact of the set."""

from __future__ import annotations

import argparse
import json
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from benchmarks import kg_real, kg_sealed
from kg_mock import real_fixture, real_fixture_data, sealed_fixture_data
from kg_mock.real_fixture import cached_real_fixture_dir
from models.config import load_config
from models.kg import KGResult
from models.kg.entities import KGEntities

LABELS = kg_real.REPO_ROOT / "benchmarks" / "answer_checker_labels.jsonl"
REAL_KEYS = {question.key for question in kg_real.QUESTIONS}


@pytest.fixture(scope="module")
def records() -> dict[str, dict]:
    if not kg_real.VALIDATION.is_file():
        pytest.skip(f"{kg_real.VALIDATION} is absent")
    return kg_real.read_validation()


def problems(records, taken=None, skipped=None, already_read=None) -> list[str]:
    return kg_sealed.selection_problems(
        records,
        REAL_KEYS,
        kg_sealed.TAKEN if taken is None else taken,
        kg_sealed.SKIPPED if skipped is None else skipped,
        kg_sealed.ALREADY_READ if already_read is None else already_read,
    )


def test_the_selection_is_the_start_of_the_hash_order(records):
    assert problems(records) == []


def test_a_selection_off_the_rule_is_reported(records):
    taken, skipped = kg_sealed.TAKEN, kg_sealed.SKIPPED
    first_skip = next(iter(skipped))
    assert "the questions taken are not in the selection's order" in problems(records, taken=taken[::-1])
    assert f"{first_skip} is neither taken nor passed over" in problems(
        records, skipped={k: v for k, v in skipped.items() if k != first_skip}
    )
    assert f"{taken[0]} is both taken and passed over" in problems(
        records, skipped={**skipped, taken[0]: "x"}
    )
    assert f"{first_skip} has no one-line reason" in problems(records, skipped={**skipped, first_skip: " "})
    assert "39 distinct questions taken, not 40" in problems(
        records, taken=taken[:-1], skipped={**skipped, taken[-1]: "x"}
    )
    real_key = kg_real.QUESTIONS[0].key
    assert f"{real_key} is not a candidate" in problems(records, skipped={**skipped, real_key: "x"})
    later = kg_sealed.selection_order(
        k for k, row in records.items() if row["domain"] in kg_sealed.SELECTION_DOMAINS and k not in REAL_KEYS
    )[-1]
    assert f"{later} comes after the last question taken" in problems(
        records, skipped={**skipped, later: "x"}
    )


def test_the_selection_order_is_fixed_by_the_salted_hash():
    assert kg_sealed.selection_order(["b", "a", "c"]) == kg_sealed.selection_order(["c", "b", "a"])
    assert kg_sealed.selection_order(["2ce829dc", "5c488256"]) == ["5c488256", "2ce829dc"]


def test_no_sealed_question_is_in_the_real_wording_set_or_was_read_before():
    labelled = {
        json.loads(line)["question"] for line in LABELS.read_text(encoding="utf-8").splitlines() if line
    }
    assert not set(kg_sealed.TAKEN) & (REAL_KEYS | labelled)
    assert set(kg_sealed.ALREADY_READ) <= labelled


# --- the derivations, on the KG that holds both sets -------------------------------------------------


@pytest.fixture(scope="module")
def sealed_post():
    return kg_real.in_process_api(cached_real_fixture_dir(sealed=True))


def sealed_problems(question, records, post) -> list[str]:
    """kg_real.problems, with the gold answers kept out of the message: the set is sealed."""
    found = kg_real.problems(question, records[question.key], post)
    return [problem.split(" for gold ")[0] for problem in found]


@pytest.mark.parametrize("question", kg_sealed.QUESTIONS, ids=lambda q: q.key)
def test_sealed_gold_answer_is_derivable_from_the_mock(question, records, sealed_post):
    assert sealed_problems(question, records, sealed_post) == []


@pytest.mark.parametrize("question", kg_real.QUESTIONS, ids=lambda q: q.key)
def test_the_real_wording_set_still_holds_beside_the_sealed_facts(question, records, sealed_post):
    assert kg_real.problems(question, records[question.key], sealed_post) == []


def test_a_wrong_sealed_derivation_is_reported(records, sealed_post):
    question = kg_sealed.QUESTIONS[0]

    def invented(api: kg_real.Api) -> kg_real.Derivation:
        right = question.derive(api)
        return kg_real.Derivation("nobody", [[*right.facts[0], "no such fact"]], [right.facts[0][0]])

    found = sealed_problems(
        kg_real.RealQuestion(question.key, question.query_time, {}, invented), records, sealed_post
    )
    assert "fact 'no such fact' is not in the routes' answers" in found
    assert any(problem.endswith("is also a fact") for problem in found)
    assert "derived answer 'nobody' is wrong" in found


def test_the_sealed_set_is_the_selection_with_entities_of_the_reader(records):
    assert [question.key for question in kg_sealed.QUESTIONS] == kg_sealed.TAKEN
    for question in kg_sealed.QUESTIONS:
        KGEntities(**question.entities)
    assert {records[key]["domain"] for key in kg_sealed.TAKEN} == set(kg_sealed.SELECTION_DOMAINS)


# --- the gold intents ----------------------------------------------------------------------------------


def official_routes() -> set[str]:
    from fastapi.routing import APIRoute

    from kg_mock.server import create_app
    from kg_mock.store import KnowledgeGraph

    app = create_app(KnowledgeGraph(cached_real_fixture_dir()))
    return {
        route.path.lstrip("/")
        for route in app.routes
        if isinstance(route, APIRoute) and "POST" in route.methods
    }


def intent_problems(intent: kg_sealed.GoldIntent, gold: str, routes: set[str]) -> list[str]:
    found = []
    if intent.operation not in kg_sealed.OPERATIONS:
        found.append(f"operation {intent.operation!r}")
    if intent.time not in kg_sealed.TIMES or intent.tense not in kg_sealed.TENSES:
        found.append(f"time {intent.time!r} or tense {intent.tense!r}")
    if intent.relative and intent.time == "none" and intent.tense != "now":
        found.append("a relative time that is neither a point, a span nor now")
    if not intent.routes or not set(intent.routes) <= routes:
        found.append(f"routes {sorted(set(intent.routes) - routes)} are not official")
    if not intent.fields:
        found.append("no field")
    if intent.false_premise != (gold.strip().lower() == "invalid question"):
        found.append("false_premise does not follow the gold answer")
    if intent.operation == "compare" and len(intent.options) < 2:
        found.append("a comparison without its options")
    return found


def test_every_sealed_question_has_a_well_formed_gold_intent(records):
    routes = official_routes()
    assert len(routes) == 38
    assert set(kg_sealed.INTENTS) == set(kg_sealed.TAKEN)
    for key, intent in kg_sealed.INTENTS.items():
        assert intent_problems(intent, records[key]["answer"], routes) == [], key


def test_an_ill_formed_gold_intent_is_reported():
    routes = official_routes()
    good = kg_sealed.GoldIntent(
        "compare", "none", False, "then", ("movie/get_movie_info",), ("budget",), ("a", "b")
    )
    assert intent_problems(good, "a", routes) == []
    bad = [
        (replace(good, operation="rank"), "operation 'rank'"),
        (replace(good, time="soon"), "time 'soon' or tense 'then'"),
        (replace(good, tense="later"), "time 'none' or tense 'later'"),
        (replace(good, relative=True), "a relative time that is neither a point, a span nor now"),
        (replace(good, routes=("movie/get_film",)), "routes ['movie/get_film'] are not official"),
        (replace(good, fields=()), "no field"),
        (replace(good, false_premise=True), "false_premise does not follow the gold answer"),
        (replace(good, options=("a",)), "a comparison without its options"),
    ]
    for intent, problem in bad:
        assert problem in intent_problems(intent, "a", routes)
    assert "false_premise does not follow the gold answer" in intent_problems(
        good, "invalid question", routes
    )


# --- the KG that holds both sets -------------------------------------------------------------------------


def test_the_sealed_facts_join_the_real_tables_and_leave_the_default_kg_alone(monkeypatch):
    assert real_fixture.fixture_facts() is real_fixture_data
    joined = real_fixture.fixture_facts(sealed=True)
    for name, extra in vars(sealed_fixture_data).items():
        if name.isupper():
            table = getattr(joined, name)
            assert all(item in table for item in extra)
            assert all(item in table for item in getattr(real_fixture_data, name))
    # a real company an entry replaces keeps its name and price level
    for ticker, (name, anchor, _) in sealed_fixture_data.COMPANIES.items():
        if ticker in real_fixture_data.COMPANIES:
            assert real_fixture_data.COMPANIES[ticker][:2] == (name, anchor)
    movies = joined.MOVIES
    assert len({m[0] for m in movies}) == len({m[1] for m in movies}) == len(movies)
    assert cached_real_fixture_dir() != cached_real_fixture_dir(sealed=True)
    monkeypatch.setattr(sealed_fixture_data, "NEW_TABLE", {"x": 1}, raising=False)
    with pytest.raises(TypeError, match="NEW_TABLE"):
        real_fixture.fixture_facts(sealed=True)
    monkeypatch.setattr(sealed_fixture_data, "MOVIES", {"x": 1})
    with pytest.raises(TypeError, match="MOVIES"):
        real_fixture.fixture_facts(sealed=True)


def test_the_default_kg_holds_no_sealed_company():
    post = kg_real.in_process_api(cached_real_fixture_dir())
    sealed_only = set(sealed_fixture_data.COMPANIES) - set(real_fixture_data.COMPANIES)
    assert sealed_only
    assert all(post("finance/get_info", {"query": ticker}) is None for ticker in sealed_only)


def soccer_rows(games: list[tuple[str, str, str, int, int]]) -> tuple[list[tuple], list[dict]]:
    """The index and rows of `games` (date, home, away, home goals, away goals), one row per side."""
    index, rows = [], []
    for date, home, away, home_goals, away_goals in games:
        for team, opponent, scored, conceded in (
            (home, away, home_goals, away_goals),
            (away, home, away_goals, home_goals),
        ):
            index.append(("L", "2324", team, f"{date} {home}-{away}"))
            result = "W" if scored > conceded else "L" if scored < conceded else "D"
            rows.append({"result": result, "GF": str(scored), "GA": str(conceded), "opponent": opponent})
    return index, rows


def table(index: list[tuple], rows: list[dict]) -> dict[str, int]:
    points: dict[str, int] = {}
    for (_, _, team, _), row in zip(index, rows):
        points[team] = points.get(team, 0) + {"W": 3, "D": 1, "L": 0}[row["result"]]
    return points


def test_the_table_gap_moves_seeded_results_only_until_it_holds():
    teams = ["A", "B", "C", "D"]
    games = [
        (f"2024-0{1 + n // 6}-{10 + n % 6:02d}", home, away, 0, 0)
        for n, (home, away) in enumerate((h, a) for h in teams for a in teams if h != a)
    ]
    index, rows = soccer_rows(games)
    hand_written = {("L", f"{games[0][0]} {games[0][1]}-{games[0][2]}")}
    real_fixture._fix_table_gap(index, rows, ("L", "2024-12-31", "C", "B", 4), hand_written)
    points = table(index, rows)
    assert points["C"] - points["B"] == 4
    assert all(points["C"] > value for team, value in points.items() if team != "C")
    first_game = [row for key, row in zip(index, rows) if key[3].startswith(games[0][0])]
    assert [row["result"] for row in first_game] == ["D", "D"]  # the hand-written game kept its result


def test_a_table_gap_that_cannot_hold_is_an_error():
    games = [("2024-01-10", "A", "B", 1, 0), ("2024-01-17", "B", "A", 1, 0)]
    index, rows = soccer_rows(games)
    every_game = {("L", f"{date} {home}-{away}") for date, home, away, *_ in games}
    with pytest.raises(ValueError, match="cannot set B 7 points behind A"):
        real_fixture._fix_table_gap(index, rows, ("L", "2024-12-31", "A", "B", 7), every_game)


# --- the benchmark's option -----------------------------------------------------------------------------


def test_the_benchmark_runs_the_sealed_set_only_when_asked(records):
    from benchmarks.kg import real_cases

    default = real_cases(cached_real_fixture_dir())
    sealed = real_cases(cached_real_fixture_dir(sealed=True), sealed=True)
    assert not {case.key for case in default} & set(kg_sealed.TAKEN)
    assert [case.key for case in sealed] == kg_sealed.TAKEN
    assert {case.split for case in sealed} == {kg_sealed.SPLIT}
    assert all(case.alternatives and case.gold for case in sealed)


def test_sealed_needs_real(monkeypatch, capsys):
    from benchmarks import kg

    monkeypatch.setattr("sys.argv", ["kg.py", "--sealed"])
    with pytest.raises(SystemExit):
        kg.main()
    assert "--sealed goes with --real" in capsys.readouterr().err


class Recorded:
    """What the benchmark hands its stages and reports, with nothing run: no stage, no model."""

    def __init__(self, monkeypatch):
        from benchmarks import kg

        self.cases: list[list[str]] = []
        self.servers: list[Path] = []
        self.reported: list = []

        @contextmanager
        def server(data_dir: Path, delay_s: float):
            self.servers.append(Path(data_dir))
            yield "http://127.0.0.1:9"

        def run_stage(name, stage, cases, batch_size, scripted):
            self.cases.append([case.key for case in cases])
            return kg.Run(name, [KGResult() for _ in cases], [0.0])

        class NoReplies:
            def __init__(self, *args):
                pass

            def close(self) -> None:
                pass

        monkeypatch.setenv(load_config("cpu").kg.api_url_env, "http://127.0.0.1:9")
        monkeypatch.setattr(kg, "running_server", server)
        monkeypatch.setattr(kg, "run_stage", run_stage)
        monkeypatch.setattr(kg, "KnowledgeGraphStage", lambda *args: None)
        monkeypatch.setattr(kg, "_RecordedReplies", NoReplies)
        monkeypatch.setattr(kg, "report_real", lambda runs, show: self.reported.append(runs))
        monkeypatch.setattr(kg.kg_system, "run", lambda *args: self.reported.append(args))


def benchmark_args(out: Path | None, sealed: bool) -> argparse.Namespace:
    return argparse.Namespace(
        preset="cpu", set=[], sealed=sealed, split="all", delay_s=0.0, batch_size=8, no_read=True,
        end_to_end=False, show_misses=False, out=out, keys=[], budget_s=100_000.0, llm_replies=None,
    )  # fmt: skip


@pytest.mark.parametrize("sealed", [False, True])
def test_the_sealed_option_picks_the_set_and_its_kg(sealed, records, monkeypatch, tmp_path):
    from benchmarks import kg

    recorded = Recorded(monkeypatch)
    kg.run_real_benchmark(benchmark_args(None, sealed))
    kg.run_real_system(benchmark_args(tmp_path, sealed))
    wanted = kg_sealed.TAKEN if sealed else [question.key for question in kg_real.QUESTIONS]
    assert recorded.cases == [wanted] * 3  # scripted, unbudgeted, then the system's own stage run
    assert set(recorded.servers) == {cached_real_fixture_dir(sealed)}
    *_, system_cases, _, _, data_dir = recorded.reported[-1]
    assert [case.key for case in system_cases] == wanted and data_dir == cached_real_fixture_dir(sealed)

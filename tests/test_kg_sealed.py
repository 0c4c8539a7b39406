"""The sealed KG sets (benchmarks/kg_sealed.py, benchmarks/kg_sealed2.py, benchmarks/kg_sealed3.py): each
selection is the mechanical one they state, each derivation holds on the KG of its set. Skips cleanly without
../shared/data. The checks print no question, gold answer or fact of a set."""

from __future__ import annotations

import argparse
import json
import random
from contextlib import contextmanager
from dataclasses import asdict, replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from benchmarks import kg_real, kg_sealed
from benchmarks.kg_sealed import FIRST, SealedSet
from benchmarks.kg_sealed2 import SECOND
from benchmarks.kg_sealed3 import THIRD
from benchmarks.kg_sealed_sets import SETS
from kg_mock import real_fixture, real_fixture_data
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


def problems(records, sealed: SealedSet, **changed) -> list[str]:
    return kg_sealed.selection_problems(records, replace(sealed, **changed))


@pytest.mark.parametrize("sealed", SETS.values(), ids=lambda s: s.name)
def test_the_selection_is_the_start_of_the_hash_order(sealed, records):
    assert problems(records, sealed) == []
    assert sealed.split == f"sealed-{sealed.name}"


@pytest.mark.parametrize("sealed", SETS.values(), ids=lambda s: s.name)
def test_a_selection_off_the_rule_is_reported(sealed, records):
    taken, skipped = sealed.taken, sealed.skipped
    first_skip = next(iter(skipped))
    assert "the questions taken are not in the selection's order" in problems(
        records, sealed, taken=taken[::-1]
    )
    assert f"{first_skip} is neither taken nor passed over" in problems(
        records, sealed, skipped={k: v for k, v in skipped.items() if k != first_skip}
    )
    assert f"{taken[0]} is both taken and passed over" in problems(
        records, sealed, skipped={**skipped, taken[0]: "x"}
    )
    assert f"{first_skip} has no one-line reason" in problems(
        records, sealed, skipped={**skipped, first_skip: " "}
    )
    assert "39 distinct questions taken, not 40" in problems(
        records, sealed, taken=taken[:-1], skipped={**skipped, taken[-1]: "x"}
    )
    real_key = kg_real.QUESTIONS[0].key
    assert f"{real_key} is not a candidate" in problems(records, sealed, skipped={**skipped, real_key: "x"})
    later = sealed.candidates(records)[-1]
    assert f"{later} comes after the last question taken" in problems(
        records, sealed, skipped={**skipped, later: "x"}
    )
    # the walk of another salt is not this set's walk
    assert problems(records, replace(sealed, salt=sealed.salt + "x")) != []


def test_the_second_set_walks_none_of_the_first_sets_questions(records):
    assert not SECOND.walked() & FIRST.walked()
    assert FIRST.walked() <= SECOND.excluded and REAL_KEYS <= SECOND.excluded
    spent = FIRST.taken[0]
    assert f"{spent} is not a candidate" in problems(records, SECOND, skipped={**SECOND.skipped, spent: "x"})
    # without the first set's keys excluded, the second set's walk would meet some of them
    unexcluded = replace(SECOND, excluded=frozenset(REAL_KEYS))
    assert set(unexcluded.candidates(records)[: len(SECOND.candidates(records)) // 4]) & FIRST.walked()


def test_the_third_set_walks_none_of_the_earlier_sets_questions(records):
    earlier = FIRST.walked() | SECOND.walked()
    assert not THIRD.walked() & earlier
    assert earlier | REAL_KEYS <= THIRD.excluded
    assert THIRD.excluded == REAL_KEYS | earlier
    for spent in (FIRST.taken[0], SECOND.taken[0], next(iter(SECOND.already_read))):
        assert f"{spent} is not a candidate" in problems(
            records, THIRD, skipped={**THIRD.skipped, spent: "x"}
        )
    # without the second set's keys excluded, the third set's walk would meet some of them
    unexcluded = replace(THIRD, excluded=frozenset(REAL_KEYS | FIRST.walked()))
    assert problems(records, unexcluded) != []
    assert set(unexcluded.candidates(records)[: len(THIRD.walked())]) & SECOND.walked()


def test_the_selection_order_is_fixed_by_the_salted_hash():
    salt = FIRST.salt
    assert kg_sealed.selection_order(["b", "a", "c"], salt) == kg_sealed.selection_order(
        ["c", "b", "a"], salt
    )
    assert kg_sealed.selection_order(["2ce829dc", "5c488256"], salt) == ["5c488256", "2ce829dc"]
    assert kg_sealed.selection_order(FIRST.taken, SECOND.salt) != FIRST.taken
    assert THIRD.salt == "sealed3:"
    assert kg_sealed.selection_order(SECOND.taken, THIRD.salt) != kg_sealed.selection_order(
        SECOND.taken, SECOND.salt
    )


def labels(sealed: SealedSet | None = None) -> list[dict]:
    """The checker's labelled cases; with `sealed`, those written before its selection."""
    rows = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines() if line]
    cut = sealed and sealed.labels_after_selection
    return [row for row in rows if not cut or row.get("batch", 1) < cut]


def repo_files(sealed: SealedSet) -> dict[str, str]:
    """Every tracked text file of the repo, lower-cased, but the sealed sets' own modules, with the
    labels file as it stood when `sealed` was selected."""
    import subprocess

    if not (kg_real.REPO_ROOT / ".git").exists():
        pytest.skip("not a git checkout: the repo's files are not listed")
    listed = subprocess.run(
        ["git", "ls-files"], cwd=kg_real.REPO_ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    own = {
        "benchmarks/kg_sealed.py",
        "benchmarks/kg_sealed2.py",
        "benchmarks/kg_sealed3.py",
        "tests/test_kg_sealed.py",
    }
    texts = {}
    for name in listed:
        path = kg_real.REPO_ROOT / name
        if name in own or not path.is_file():
            continue
        try:
            texts[name] = path.read_text(encoding="utf-8").lower()
        except UnicodeDecodeError:
            continue
    texts[str(LABELS.relative_to(kg_real.REPO_ROOT))] = "\n".join(
        json.dumps(row) for row in labels(sealed)
    ).lower()
    return texts


def read_in(texts: dict[str, str], key: str, query: str) -> list[str]:
    """The files that hold the key or (longer than 15 characters) the wording of a question."""
    wording = query.strip().lower()
    return sorted(
        name for name, text in texts.items() if key in text or (len(wording) > 15 and wording in text)
    )


def test_no_sealed_question_is_in_the_real_wording_set_or_was_read_before():
    labelled = {row["question"] for row in labels()}
    for sealed in SETS.values():
        before = {row["question"] for row in labels(sealed)}
        assert not set(sealed.taken) & (REAL_KEYS | before)
        assert set(sealed.already_read) <= before
        later = [row for row in labels() if row["question"] in sealed.taken]
        assert all(row["part"] == "held-out" for row in later), (
            "a checker rule was fitted on a sealed question"
        )
        assert {row["question"] for row in later} == set(sealed.taken) & labelled


def test_labels_written_after_a_selection_are_cut_from_what_it_read():
    assert labels(replace(SECOND, labels_after_selection=2)) == [
        row for row in labels() if row.get("batch", 1) == 1
    ]
    assert labels(replace(SECOND, labels_after_selection=None)) == labels()


@pytest.mark.parametrize("sealed", [SECOND, THIRD], ids=lambda s: s.name)
def test_the_passed_over_questions_are_exactly_those_read_before(sealed, records):
    """The ALREADY_READ rule, re-run over the repo's files for a set's walk: a question whose id or
    wording a file holds is passed over, naming the files; no other is."""
    texts = repo_files(sealed)
    found = {
        key: ", ".join(where)
        for key in sealed.walked()
        if (where := read_in(texts, key, records[key]["query"]))
    }
    assert found == sealed.already_read
    assert read_in({"x.txt": "a key 1bfdd090 here"}, "1bfdd090", "short") == ["x.txt"]
    query = records[SECOND.taken[0]]["query"]
    assert read_in({"x.txt": "q: " + query.lower()}, "zzzz", query) == ["x.txt"]


# --- the derivations, on the KG that holds both sets -------------------------------------------------


@pytest.fixture(scope="module")
def sealed_posts():
    return {name: kg_real.in_process_api(cached_real_fixture_dir(name)) for name in SETS}


def sealed_problems(question, records, post) -> list[str]:
    """kg_real.problems, with the gold answers kept out of the message: the set is sealed."""
    found = kg_real.problems(question, records[question.key], post)
    return [problem.split(" for gold ")[0] for problem in found]


SET_QUESTIONS = [(sealed.name, question) for sealed in SETS.values() for question in sealed.questions]


@pytest.mark.parametrize(("name", "question"), SET_QUESTIONS, ids=lambda x: getattr(x, "key", x))
def test_sealed_gold_answer_is_derivable_from_the_mock(name, question, records, sealed_posts):
    assert sealed_problems(question, records, sealed_posts[name]) == []


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("question", kg_real.QUESTIONS, ids=lambda q: q.key)
def test_the_real_wording_set_still_holds_beside_the_sealed_facts(name, question, records, sealed_posts):
    assert kg_real.problems(question, records[question.key], sealed_posts[name]) == []


@pytest.mark.parametrize("sealed", SETS.values(), ids=lambda s: s.name)
def test_a_wrong_sealed_derivation_is_reported(sealed, records, sealed_posts):
    sealed_post = sealed_posts[sealed.name]
    question = sealed.questions[0]

    def invented(api: kg_real.Api) -> kg_real.Derivation:
        right = question.derive(api)
        return kg_real.Derivation("nobody", [[*right.facts[0], "no such fact"]], [right.facts[0][0]])

    found = sealed_problems(
        kg_real.RealQuestion(question.key, question.query_time, {}, invented), records, sealed_post
    )
    assert "fact 'no such fact' is not in the routes' answers" in found
    assert any(problem.endswith("is also a fact") for problem in found)
    assert any(problem.startswith("derived answer 'nobody' is ") for problem in found)  # wrong or unsure


@pytest.mark.parametrize("sealed", SETS.values(), ids=lambda s: s.name)
def test_the_sealed_set_is_the_selection_with_entities_of_the_reader(sealed, records):
    assert [question.key for question in sealed.questions] == sealed.taken
    for question in sealed.questions:
        KGEntities(**question.entities)
    assert {records[key]["domain"] for key in sealed.taken} == set(kg_sealed.SELECTION_DOMAINS)


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


@pytest.mark.parametrize("sealed", SETS.values(), ids=lambda s: s.name)
def test_every_sealed_question_has_a_well_formed_gold_intent(sealed, records):
    routes = official_routes()
    assert len(routes) == 38
    assert set(sealed.intents) == set(sealed.taken)
    for key, intent in sealed.intents.items():
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


@pytest.mark.parametrize("sealed", SETS)
def test_the_sealed_facts_join_the_real_tables_and_leave_the_default_kg_alone(sealed, monkeypatch):
    facts = real_fixture.SEALED_FACTS[sealed]
    assert real_fixture.fixture_facts() is real_fixture_data
    joined = real_fixture.fixture_facts(sealed)
    for name, extra in vars(facts).items():
        if name.isupper():
            table = getattr(joined, name)
            assert all(item in table for item in extra)
            assert all(item in table for item in getattr(real_fixture_data, name))
    # a real company an entry replaces keeps its name and price level
    for ticker, (name, anchor, _) in getattr(facts, "COMPANIES", {}).items():
        if ticker in real_fixture_data.COMPANIES:
            assert real_fixture_data.COMPANIES[ticker][:2] == (name, anchor)
    movies = joined.MOVIES
    assert len({m[0] for m in movies}) == len({m[1] for m in movies}) == len(movies)
    assert len({cached_real_fixture_dir(), *(cached_real_fixture_dir(name) for name in SETS)}) == 1 + len(
        SETS
    )
    monkeypatch.setattr(facts, "NEW_TABLE", {"x": 1}, raising=False)
    with pytest.raises(TypeError, match="NEW_TABLE"):
        real_fixture.fixture_facts(sealed)
    monkeypatch.setattr(facts, "MOVIES", {"x": 1})
    with pytest.raises(TypeError, match="MOVIES"):
        real_fixture.fixture_facts(sealed)


def test_an_unknown_sealed_set_is_an_error():
    with pytest.raises(ValueError, match="no sealed set 'fourth'"):
        real_fixture.fixture_facts("fourth")


@pytest.mark.parametrize("sealed", SETS)
def test_the_default_kg_holds_no_sealed_company(sealed):
    post = kg_real.in_process_api(cached_real_fixture_dir())
    facts = real_fixture.SEALED_FACTS[sealed]
    sealed_only = set(facts.COMPANIES) - set(real_fixture_data.COMPANIES)
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


def team_month_facts(months: dict) -> SimpleNamespace:
    return SimpleNamespace(NBA_TEAM_MONTHS=months)


def test_a_team_months_points_count_its_games_fixed_before():
    """A team-month's points in all include its games of the month already fixed: a hand-written game
    and its loss to an earlier entry's team."""
    fixed = [("2022-01-03", "Boston Celtics", "Dallas Mavericks", 101, 99)]
    months = {
        ("Utah Jazz", "2022-01"): {"games": 6, "beaten_by": ["Dallas Mavericks"]},
        ("Dallas Mavericks", "2022-01"): {"games": 8, "beaten_by": ["Denver Nuggets"], "points": 1100},
    }
    busy = {"Dallas Mavericks": {"2022-01-03"}, "Boston Celtics": {"2022-01-03"}}
    games = real_fixture._team_month_games(busy, random.Random(1), team_month_facts(months), fixed)
    everything = [*fixed, *games]
    assert real_fixture._month_points("Dallas Mavericks", "2022-01", everything) == 1100
    mavericks = [g for g in everything if "Dallas Mavericks" in g[1:3]]
    assert len(mavericks) == 1 + 1 + 8  # the fixed game, the win over Utah, its own eight
    # the month's games alone would miss the target by the points of the games fixed before
    own = [g for g in games if not {"Utah Jazz", "Dallas Mavericks"} <= set(g[1:3])]
    assert real_fixture._month_points("Dallas Mavericks", "2022-01", own) != 1100
    assert real_fixture._month_points("A", "2022-01", [("2022-02-01", "A", "B", 100, 90)]) == 0


def test_a_loss_whose_winners_all_play_that_day_moves_to_a_later_win():
    days = [f"2022-02-{day:02d}" for day in range(1, 29)]
    months = {("Utah Jazz", "2022-02"): {"games": 28, "beaten_by": ["Denver Nuggets"]}}
    busy = {"Denver Nuggets": set(days[:-1])}  # free on the month's last day only
    games = real_fixture._team_month_games(busy, random.Random(3), team_month_facts(months), [])
    lost = [g for g in games if "Denver Nuggets" in g[1:3]]
    assert [g[0] for g in lost] == ["2022-02-28"] and len(games) == 28
    busy = {"Denver Nuggets": set(days)}  # never free: no day can hold the loss
    with pytest.raises(ValueError):
        real_fixture._team_month_games(busy, random.Random(3), team_month_facts(months), [])


# --- the benchmark's option -----------------------------------------------------------------------------


@pytest.mark.parametrize("sealed", SETS.values(), ids=lambda s: s.name)
def test_the_benchmark_runs_the_sealed_set_only_when_asked(sealed, records):
    from benchmarks.kg import real_cases

    default = real_cases(cached_real_fixture_dir())
    cases = real_cases(cached_real_fixture_dir(sealed.name), sealed.name)
    assert not {case.key for case in default} & set(sealed.taken)
    assert [case.key for case in cases] == sealed.taken
    assert {case.split for case in cases} == {sealed.split}
    assert all(case.alternatives and case.gold for case in cases)


def test_sealed_needs_real_and_a_set_name(monkeypatch, capsys):
    from benchmarks import kg

    monkeypatch.setattr("sys.argv", ["kg.py", "--sealed", "second"])
    with pytest.raises(SystemExit):
        kg.main()
    assert "--sealed goes with --real" in capsys.readouterr().err
    for wrong in (["--sealed"], ["--sealed", "fourth"]):
        monkeypatch.setattr("sys.argv", ["kg.py", "--real", *wrong])
        with pytest.raises(SystemExit):
            kg.main()
        assert "--sealed" in capsys.readouterr().err


@pytest.mark.parametrize("sealed", SETS.values(), ids=lambda s: s.name)
def test_a_saved_run_of_a_sealed_set_is_reported_under_its_split(sealed, records, tmp_path, capsys):
    from benchmarks import kg

    saved = tmp_path / "results.json"
    saved.write_text(json.dumps({"a run": [{"key": key} for key in sealed.taken]}), encoding="utf-8")
    kg.report_saved_real(saved, show_misses=False, sealed=sealed.name)
    printed = capsys.readouterr().out
    assert f"{sealed.split} set, runs saved in {saved}" in printed
    rows = [line.split() for line in printed.splitlines() if line.startswith("a run ")]
    assert [row[2:4] for row in rows[:2]] == [[sealed.split, "0/40"], ["all", "0/40"]]
    with pytest.raises(SystemExit, match=f"not of the real-wording set .the first: {sealed.taken[0]}"):
        kg.report_saved_real(saved, show_misses=False)


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


def benchmark_args(out: Path | None, sealed: str | None) -> argparse.Namespace:
    return argparse.Namespace(
        preset="cpu", set=[], sealed=sealed, split="all", delay_s=0.0, batch_size=8, no_read=True,
        end_to_end=False, show_misses=False, out=out, keys=[], budget_s=100_000.0, llm_replies=None,
    )  # fmt: skip


@pytest.mark.parametrize("sealed", [None, *SETS])
def test_the_sealed_option_picks_the_set_and_its_kg(sealed, records, monkeypatch, tmp_path, capsys):
    from benchmarks import kg

    recorded = Recorded(monkeypatch)
    kg.run_real_benchmark(benchmark_args(None, sealed))
    kg.run_real_system(benchmark_args(tmp_path, sealed))
    wanted = SETS[sealed].taken if sealed else [question.key for question in kg_real.QUESTIONS]
    assert capsys.readouterr().out.startswith(f"{SETS[sealed].split if sealed else 'real-wording'} set: ")
    assert recorded.cases == [wanted] * 3  # scripted, unbudgeted, then the system's own stage run
    assert set(recorded.servers) == {cached_real_fixture_dir(sealed)}
    *_, system_cases, _, _, data_dir = recorded.reported[-1]
    assert [case.key for case in system_cases] == wanted and data_dir == cached_real_fixture_dir(sealed)


# --- the KG of each set answers through the official routes ----------------------------------------------


def route_problems(question: kg_real.RealQuestion, intent: kg_sealed.GoldIntent, post) -> list[str]:
    """What the derivation's calls say against the official shape: a route it called that is not one of
    the 38, and a gold intent none of whose routes answered (every call of them returned null)."""
    api = kg_real.Api(post)
    question.derive(api)
    routes = official_routes()
    found = [
        f"route {path} is not official"
        for path in sorted({path for path, _, _ in api.answers})
        if path not in routes
    ]
    if not any(result is not None for path, _, result in api.answers if path in intent.routes):
        found.append(f"no route of the gold intent {sorted(intent.routes)} answered")
    return found


@pytest.mark.parametrize(("name", "question"), SET_QUESTIONS, ids=lambda x: getattr(x, "key", x))
def test_the_routes_of_each_gold_intent_answer_on_the_sets_kg(name, question, records, sealed_posts):
    assert route_problems(question, SETS[name].intents[question.key], sealed_posts[name]) == []


def test_an_intent_whose_routes_do_not_answer_is_reported(records, sealed_posts):
    question = SECOND.questions[0]
    elsewhere = replace(SECOND.intents[question.key], routes=("music/get_members",))
    assert route_problems(question, elsewhere, sealed_posts["second"]) == [
        "no route of the gold intent ['music/get_members'] answered"
    ]

    def unofficial(api: kg_real.Api) -> kg_real.Derivation:
        api("movie/get_film", query="x")
        return question.derive(api)

    strange = kg_real.RealQuestion(question.key, question.query_time, {}, unofficial)
    assert "route movie/get_film is not official" in route_problems(
        strange,
        SECOND.intents[question.key],
        lambda path, body: None if path == "movie/get_film" else sealed_posts["second"](path, body),
    )


def test_the_second_sets_kg_builds_from_the_command_line(tmp_path, capsys):
    real_fixture.main([str(tmp_path / "kg"), "--sealed", "second"])
    assert capsys.readouterr().out.strip() == str(tmp_path / "kg")
    built = sorted(
        path.relative_to(tmp_path / "kg") for path in (tmp_path / "kg").rglob("*") if path.is_file()
    )
    cached = cached_real_fixture_dir("second")
    assert built == sorted(
        path.relative_to(cached) for path in cached.rglob("*") if path.is_file() and path.name != "complete"
    )
    with pytest.raises(SystemExit):
        real_fixture.main([str(tmp_path / "other"), "--sealed", "fourth"])


def test_a_saved_result_reads_back_with_its_computed_answer_and_reading_typed():
    from benchmarks import kg
    from models.kg.answer import ComputedAnswer
    from models.kg.stage import Reading

    reading = Reading("movie", ("budget",), ("cue",), "compare", "none", "any", "name", 0.9)
    result = KGResult(
        references=["Computed answer: a"],
        computed=ComputedAnswer("comparison", "a", "budget of a > b"),
        reading=reading,
        match=0.8,
    )
    [back] = kg.saved_results([json.loads(json.dumps({"key": "k", **asdict(result)}))])
    assert back == result
    assert isinstance(back.computed, ComputedAnswer) and back.reading == reading


def test_a_sealed_gold_intent_reads_in_the_real_wording_sets_terms():
    intent = kg_sealed.GoldIntent("lookup", "point", True, "now", ("finance/get_price_history",), ("Open",))
    assert intent.as_real() == kg_real.GoldIntent(
        "lookup", "relative", "now", ("finance/get_price_history:Open",)
    )
    whole = kg_sealed.GoldIntent("set", "span", False, "then", ("a/x", "b/y"), ())
    assert whole.as_real() == kg_real.GoldIntent("set", "span", "then", ("a/x", "b/y"))
    assert kg_real.relation_right(intent.as_real(), {("finance/get_price_history", "Open")})
    assert not kg_real.relation_right(intent.as_real(), {("finance/get_price_history", "Close")})

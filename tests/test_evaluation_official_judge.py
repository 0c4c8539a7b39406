"""`--judge official` against the starter kit's own code, read from ../shared/starter_kit (skipped when
absent), and a local OpenAI-compatible server: a scripted one here (its replies chosen per test), the
embedded model's llama.cpp server in the `model` test.

The kit's `evaluate_predictions` runs in this process on the same predictions, with the same server, and
must count the same: what the two flows send the judge, and how they score its replies, are compared
rather than written down here (nothing of the kit is copied into this repository)."""

from __future__ import annotations

import importlib.util
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import local_evaluation
from evaluation.data import GoldQuestion
from evaluation.judges import CachedJudge, OfficialJudge, VerdictCache, official_reply_verdict
from evaluation.scoring import CORRECT, EXACT, IDK, MISSING, Tally, score_predictions
from evaluation.starter_kit import KitUnreadable, read_kit
from evaluation.truncation import LlamaTruncator
from kg_mock.server import free_port
from tests.conftest import SHARED_DATA, SHARED_TOKENIZER
from tests.doubles import ScriptedLLM
from tests.test_evaluation_cli import QUESTIONS

KIT_DIR = SHARED_DATA.parent / "starter_kit"
LONG = " ".join(["and then the story goes on"] * 30)  # far past 75 tokens: the cut decides what is judged

# (question, ground truth, alternative answers, prediction, the server's reply or status codes)
CASES = [
    ("who wrote the play?", "ana ruiz", [], "I don't know, sorry", None),
    ("what is the capital?", "Lindholm", [], "lindholm", None),
    ("what is the river called?", "the grey river", [], "It is the Grey River.", '{"Accuracy": "True"}'),
    ("when did it open?", "1969", [], "It opened in 1969", '{"accuracy": true}'),
    ("what colour is the flag?", "blue", [], "Green", '{"accuracy": false}'),
    ("how many moons?", "8", [], "eight", "Accuracy: True"),
    ("which planet?", "mars", [], "Mars, the red one", 'Sure: {"accuracy": true}'),
    ("what number?", "42", [], "forty-two", ""),
    ("what is the story?", "a voyage", [], "A voyage " + LONG, '{"accuracy": true}'),
    ("which city?", "oslo", [], "Oslo it is", (429, '{"accuracy": true}')),
    ("which town?", "rome", [], "Rome!", (500, 500, 500)),
    ("which club?", "the otters", ["otters fc"], "Otters FC", '{"accuracy": false}'),  # no exact match on it
]


class ScriptedServer:
    """A loopback OpenAI-compatible chat server: the reply for a request is chosen by the prediction in
    its user message; a script of status codes answers the first calls with errors."""

    def __init__(self, cases):
        self.cases = cases
        self.requests: list[dict] = []
        self.calls: dict[str, int] = {}
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
                status, reply = server.answer(body)
                message = {"role": "assistant", "content": reply}
                payload = {
                    "id": "scripted", "object": "chat.completion", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop", "message": message}],
                }  # fmt: skip
                data = json.dumps(payload if status == 200 else {"error": {"message": "scripted"}}).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/v1"

    def answer(self, body: dict) -> tuple[int, str]:
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        (script,) = [case[4] for case in self.cases if case[3][:15] in user]
        with self.lock:
            self.requests.append(body)
            count = self.calls[user] = self.calls.get(user, 0) + 1
        if isinstance(script, tuple):
            step = script[min(count, len(script)) - 1]
            return (step, "") if isinstance(step, int) else (200, step)
        return 200, script

    def reset(self) -> None:
        self.requests, self.calls = [], {}

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def kit_dir() -> Path:
    if not (KIT_DIR / "local_evaluation.py").is_file():
        pytest.skip(f"{KIT_DIR} is absent")
    if not (SHARED_TOKENIZER / "tokenizer.json").is_file():
        pytest.skip(f"{SHARED_TOKENIZER} is absent")
    return KIT_DIR


@pytest.fixture
def server():
    running = ScriptedServer(CASES)
    yield running
    running.close()


@pytest.fixture
def kit_module(kit_dir, tmp_path, monkeypatch):
    """The kit's local_evaluation.py imported as the kit runs it: its prompts on the path, its Llama-2
    tokenizer in ./tokenizer, its logged replies written under the test's folder."""
    pytest.importorskip("transformers")
    (tmp_path / "tokenizer").symlink_to(SHARED_TOKENIZER, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(kit_dir))
    for name in [n for n in sys.modules if n == "prompts" or n.startswith("prompts.")]:
        monkeypatch.delitem(sys.modules, name)
    spec = importlib.util.spec_from_file_location(
        "starter_kit_local_evaluation", kit_dir / "local_evaluation.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _official(kit_dir: Path, url: str, workers: int = 3) -> OfficialJudge:
    return OfficialJudge(
        read_kit(kit_dir),
        "judge-model",
        retry_max_wait_s=0.01,
        timeout_s=10,
        workers=workers,
        base_url=url,
        api_key="k",
    )


def _golds() -> list[GoldQuestion]:
    return [
        GoldQuestion(f"q{i}", query, gold, alternatives)
        for i, (query, gold, alternatives, _, _) in enumerate(CASES)
    ]


def test_the_official_flow_counts_as_the_starter_kits_own_code(kit_dir, kit_module, server):
    import openai

    queries, ground_truths, predictions = ([case[i] for case in CASES] for i in (0, 1, 3))
    client = openai.OpenAI(base_url=server.url, api_key="k", max_retries=0)
    theirs = kit_module.evaluate_predictions(queries, ground_truths, predictions, "judge-model", client)
    their_requests = server.requests
    server.reset()

    truncator = LlamaTruncator(SHARED_TOKENIZER / "tokenizer.json")
    scored = score_predictions(_golds(), predictions, truncator, _official(kit_dir, server.url))
    tally = Tally()
    for item in scored:
        tally.add(item)
    ours = tally.as_dict()
    assert (ours["correct"], ours["exact_correct"], ours["missing"]) == (
        theirs["n_correct"],
        theirs["n_correct_exact"],
        theirs["n_miss"],
    )
    assert ours["score"] == pytest.approx(theirs["score"])
    # the same requests, in any order: system and user messages (the cut prediction), model, format
    key = lambda request: json.dumps(request, sort_keys=True)  # noqa: E731
    assert sorted(map(key, server.requests)) == sorted(map(key, their_requests))
    assert {(s.outcome, s.verdict_source) for s in scored[:2]} == {(MISSING, IDK), (CORRECT, EXACT)}
    errors = [s for s in scored if s.judge_error]
    assert [s.prediction for s in errors] == ["Rome!"]  # the server error: wrong, as the kit counts it


def test_the_kit_reply_reading(kit_dir):
    assert official_reply_verdict('{"Accuracy": "True"}') and official_reply_verdict('{"accuracy": true}')
    for reply in (
        '{"accuracy": false}',
        "Accuracy: True",
        'Sure: {"accuracy": true}',
        "",
        "[]",
        '{"x": true}',
    ):
        assert not official_reply_verdict(reply)


def test_verdicts_are_cached_per_kit_and_model(kit_dir, server, tmp_path):
    cache_path = tmp_path / "verdicts.jsonl"
    golds, predictions = _golds()[2:5], [case[3] for case in CASES[2:5]]
    truncator = LlamaTruncator(SHARED_TOKENIZER / "tokenizer.json")
    first = CachedJudge(_official(kit_dir, server.url), VerdictCache(cache_path), rules_first=False)
    before = score_predictions(golds, predictions, truncator, first)
    assert len(server.requests) == 3 and len(cache_path.read_text().splitlines()) == 3

    gone = f"http://127.0.0.1:{free_port()}/v1"
    again = CachedJudge(_official(kit_dir, gone), VerdictCache(cache_path), rules_first=False)
    after = score_predictions(golds, predictions, truncator, again)
    assert [s.outcome for s in after] == [s.outcome for s in before] and again.cache_hits == 3


def test_a_missing_or_changed_kit_is_a_clear_error(kit_dir, tmp_path):
    with pytest.raises(KitUnreadable, match="--kit-dir"):
        read_kit(None)
    with pytest.raises(KitUnreadable, match="local_evaluation.py and .*templates.py missing"):
        read_kit(tmp_path)
    changed = tmp_path / "kit"
    (changed / "prompts").mkdir(parents=True)
    (changed / "prompts" / "templates.py").write_text((kit_dir / "prompts" / "templates.py").read_text())
    source = (kit_dir / "local_evaluation.py").read_text()
    (changed / "local_evaluation.py").write_text(source.replace('"role": "user"', '"role": "human"'))
    with pytest.raises(KitUnreadable, match="unmodified checkout"):
        read_kit(changed)


def _data(tmp_path: Path) -> Path:
    path = tmp_path / "two.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    return path


def _hedged_answers(conversation, params):  # the answer checker is unsure of both: the judges differ
    text = " ".join(m["content"] for m in conversation)
    return "Probably the Danube." if "vienna" in text else "Canberra, I think."


def test_rules_and_official_side_by_side_and_the_verdicts_that_differ(kit_dir, tmp_path, monkeypatch, capsys):
    cases = [
        (None, None, None, "Probably", '{"accuracy": true}'),
        (None, None, None, "Canberra,", '{"accuracy": true}'),
    ]
    server = ScriptedServer(cases)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    out, cache = tmp_path / "out", tmp_path / "verdicts.jsonl"
    argv = ["--data", str(_data(tmp_path)), "--out", str(out), "--judge", "rules,official"]
    argv += [
        "--kit-dir",
        str(kit_dir),
        "--tokenizer-dir",
        str(SHARED_TOKENIZER),
        "--verdict-cache",
        str(cache),
    ]
    try:
        assert local_evaluation.main(argv, llm=ScriptedLLM(_hedged_answers)) == 0
    finally:
        server.close()
    report = json.loads((out / "report.json").read_text())
    assert report["judge"] == "rules" and report["hallucination"] == 2  # the first judge's scores
    comparison = report["judge_comparison"]
    official = comparison["reference"]
    assert official.startswith("official:") and comparison["scores"][official]["correct"] == 2
    difference = comparison["differences"]["rules"]
    assert difference["differ"] == 2 and {q["interaction_id"] for q in difference["questions"]} == {
        "q-capital",
        "q-river",
    }
    assert {(q["outcome"], q["reference_outcome"]) for q in difference["questions"]} == {
        ("hallucination", "correct")
    }
    printed = capsys.readouterr().out
    assert "`rules` differs from" in printed and "2 of 2 questions" in printed


def test_official_judge_without_kit_or_tokenizer_is_a_clear_error(kit_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    base = ["--data", str(_data(tmp_path)), "--judge", "official"]
    assert local_evaluation.main(base + ["--out", str(tmp_path / "a")], llm=ScriptedLLM([])) == 2
    no_tokenizer = ["--kit-dir", str(kit_dir), "--tokenizer-dir", str(tmp_path / "none")]
    assert (
        local_evaluation.main(base + ["--out", str(tmp_path / "b")] + no_tokenizer, llm=ScriptedLLM([])) == 2
    )
    assert (
        not (tmp_path / "a" / "predictions.jsonl").exists()
        and not (tmp_path / "b" / "predictions.jsonl").exists()
    )


@pytest.mark.model
def test_official_judge_against_the_embedded_models_server(kit_dir, llama_server, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llama_server)
    monkeypatch.setenv("OPENAI_API_KEY", "local-server-needs-no-key")
    monkeypatch.setenv("EVALUATION_MODEL_NAME", "embedded-judge")
    out = tmp_path / "out"
    argv = ["--data", str(_data(tmp_path)), "--out", str(out), "--limit", "1", "--judge", "official"]
    argv += ["--kit-dir", str(kit_dir), "--tokenizer-dir", str(SHARED_TOKENIZER)]
    argv += ["--verdict-cache", str(tmp_path / "verdicts.jsonl")]
    assert local_evaluation.main(argv, llm=ScriptedLLM(_hedged_answers)) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["judge"].startswith("official:embedded-judge:kit-") and report["judge_errors"] == 0
    (scored,) = [json.loads(line) for line in (out / "scored.jsonl").read_text().splitlines()]
    assert scored["verdict_source"] == report["judge"] and scored["judge_reply"]  # the server was asked

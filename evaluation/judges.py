"""Judges decide whether a prediction that is neither `I don't know` nor an exact match is correct.

- `RulesJudge` (offline, `--judge rules`): the answer checker (evaluation/answer_match.py) alone. A
  prediction it is unsure of counts as wrong, with the verdict source `UNSURE_COUNTED_WRONG`, so that
  reports say how many there were.
- `CheckedJudge` (`--judge local|openai`): the answer checker first; an LLM judge only for the
  predictions the checker is unsure of, through `VerdictCache`, so re-scoring the same (judge, query,
  answers, prediction) never asks again.
- `BackendJudge`: the system's own `LLMBackend` (`--judge local`); a weak judge for small models.
- `OpenAIJudge`: any OpenAI-compatible endpoint (`--judge openai`), like the official script:
  JSON mode, temperature 0, retries on connection, timeout, rate-limit and server errors.

The LLM judges share the rules in prompts/judge.txt and the JSON reply `{"accuracy": true|false}`
(an unparseable reply counts as wrong). Verdict sources: `RULES` (the checker), `UNSURE_COUNTED_WRONG`,
or the LLM judge's identity.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Protocol

from loguru import logger

from evaluation.answer_match import Verdict, check_answer
from models.llm.base import GenerationParams, LLMBackend
from models.prompts import PromptLibrary
from models.replies import find_json
from models.retry import retry_policy

RULES = "rules"
UNSURE_COUNTED_WRONG = "rules: unsure"
VERDICT_SCHEMA = {
    "type": "object",
    "properties": {"accuracy": {"type": "boolean"}},
    "required": ["accuracy"],
}


@dataclass(frozen=True)
class JudgeRequest:
    query: str
    answers: tuple[str, ...]  # ground truth first, then alternatives
    prediction: str  # already truncated and stripped


@dataclass
class JudgeVerdict:
    correct: bool
    source: str  # RULES, UNSURE_COUNTED_WRONG or the LLM judge's identity
    raw: str = ""  # the judge's reply
    error: str | None = None  # the judge could not be asked (never cached)


class JudgeUnavailable(RuntimeError):
    """The judge cannot be set up (no endpoint or key)."""


class Judge(Protocol):
    identity: str  # names the judge and its model; part of the verdict cache key
    weak: bool

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict]: ...


def checker_verdict(request: JudgeRequest) -> JudgeVerdict | None:
    """The answer checker's verdict, or None when it is unsure."""
    gold, *alternatives = request.answers
    verdict = check_answer(request.prediction, gold, alternatives, question=request.query)
    return None if verdict is Verdict.UNSURE else JudgeVerdict(verdict is Verdict.CORRECT, RULES)


def parse_verdict(reply: str) -> bool | None:
    """True/False from a `{"accuracy": ...}` reply, None when it cannot be read."""
    parsed = find_json(reply.strip().lower())
    value = parsed.get("accuracy") if parsed is not None else None
    if value is True or value == "true":
        return True
    if value is False or value == "false":
        return False
    return None


class RulesJudge:
    identity = RULES
    weak = True

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict]:
        return [checker_verdict(r) or JudgeVerdict(False, UNSURE_COUNTED_WRONG) for r in requests]


class VerdictCache:
    """Verdicts on disk (one JSON line each), keyed by judge identity, query, answers and prediction."""

    def __init__(self, path: Path | None):
        self.path = path
        self._verdicts: dict[str, JudgeVerdict] = {}
        self._lock = threading.Lock()
        if path is not None and path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                    self._verdicts[entry["key"]] = JudgeVerdict(**entry["verdict"])
                except (json.JSONDecodeError, KeyError, TypeError):
                    continue  # a line cut short by an interrupted run

    @staticmethod
    def key(identity: str, request: JudgeRequest) -> str:
        material = json.dumps([identity, request.query, list(request.answers), request.prediction])
        return hashlib.sha256(material.encode("utf-8")).hexdigest()

    def get(self, identity: str, request: JudgeRequest) -> JudgeVerdict | None:
        return self._verdicts.get(self.key(identity, request))

    def put(self, identity: str, request: JudgeRequest, verdict: JudgeVerdict) -> None:
        if verdict.error is not None:
            return
        key = self.key(identity, request)
        with self._lock:
            self._verdicts[key] = verdict
            if self.path is None:
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as stream:
                stream.write(json.dumps({"key": key, "verdict": asdict(verdict)}) + "\n")


class CheckedJudge:
    """Wraps an LLM judge: the answer checker first, then the cache, then one call for everything left."""

    def __init__(self, judge: Judge, cache: VerdictCache):
        self.inner = judge
        self.cache = cache
        self.identity = judge.identity
        self.weak = judge.weak
        self.cache_hits = 0

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict]:
        verdicts: list[JudgeVerdict | None] = [checker_verdict(r) for r in requests]
        pending = []
        for i, request in enumerate(requests):
            if verdicts[i] is not None:
                continue
            cached = self.cache.get(self.identity, request)
            if cached is not None:
                self.cache_hits += 1
                verdicts[i] = cached
            else:
                pending.append(i)
        if pending:
            logger.info(f"Judge {self.identity}: {len(pending)} predictions the answer checker is unsure of")
            for i, verdict in zip(pending, self.inner.judge([requests[i] for i in pending])):
                self.cache.put(self.identity, requests[i], verdict)
                verdicts[i] = verdict
        return [v for v in verdicts if v is not None]


class BackendJudge:
    """Judging with an `LLMBackend` (the system's own model): one batched call, JSON-constrained."""

    weak = True

    def __init__(self, backend: LLMBackend, model_name: str, prompts: PromptLibrary, max_tokens: int):
        self.backend = backend
        self.prompts = prompts
        self.params = GenerationParams(max_tokens=max_tokens, temperature=0.0, json_schema=VERDICT_SCHEMA)
        self.identity = f"local:{backend.name}:{model_name}"

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict]:
        conversations = [judge_conversation(self.prompts, r) for r in requests]
        verdicts = []
        for completion in self.backend.generate(conversations, self.params):
            if completion.error is not None:
                verdicts.append(JudgeVerdict(False, self.identity, error=completion.error))
                continue
            parsed = parse_verdict(completion.text)
            verdicts.append(JudgeVerdict(bool(parsed), self.identity, raw=completion.text))
        return verdicts


class OpenAIJudge:
    """An OpenAI-compatible chat endpoint; key and base URL from OPENAI_API_KEY / OPENAI_BASE_URL."""

    weak = False

    def __init__(
        self,
        model: str,
        prompts: PromptLibrary,
        max_attempts: int,
        retry_max_wait_s: float,
        timeout_s: float,
        workers: int,
        base_url: str | None = None,
        api_key: str | None = None,
    ):
        import openai

        base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        api_key = api_key or os.environ.get("OPENAI_API_KEY")
        if not api_key and not base_url:
            raise JudgeUnavailable(
                "The openai judge needs OPENAI_API_KEY (and OPENAI_BASE_URL for a non-OpenAI server); "
                "use --judge rules to score offline"
            )
        # Local OpenAI-compatible servers accept any key.
        self.client = openai.OpenAI(
            api_key=api_key or "unused", base_url=base_url, timeout=timeout_s, max_retries=0
        )
        self.errors = openai.OpenAIError
        self.retry = retry_policy(max_attempts, retry_max_wait_s, first_wait_s=1.0, what=f"judge {model}")
        self.model = model
        self.prompts = prompts
        self.workers = workers
        self.identity = f"openai:{model}"

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict]:
        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            return list(pool.map(self._judge_one, requests))

    def _judge_one(self, request: JudgeRequest) -> JudgeVerdict:
        try:
            response = self.retry(
                self.client.chat.completions.create,
                model=self.model,
                messages=judge_conversation(self.prompts, request),
                response_format={"type": "json_object"},
                temperature=0.0,
            )
        except self.errors as error:  # out of attempts, or a request that retrying cannot fix
            logger.error(f"Judge call failed: {error}")
            return JudgeVerdict(False, self.identity, error=f"{type(error).__name__}: {error}")
        reply = response.choices[0].message.content or ""
        return JudgeVerdict(bool(parse_verdict(reply)), self.identity, raw=reply)


def judge_conversation(prompts: PromptLibrary, request: JudgeRequest) -> list[dict[str, str]]:
    return prompts.conversation(
        "judge",
        query=request.query,
        answers="\n".join(f"- {answer}" for answer in request.answers),
        prediction=request.prediction,
    )

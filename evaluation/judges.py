"""Judges decide whether a prediction that is neither `I don't know` nor an exact match is correct.

- `RulesJudge` (offline, `--judge rules`): the answer checker (evaluation/answer_match.py) alone. A
  prediction it is unsure of counts as wrong, with the verdict source `UNSURE_COUNTED_WRONG`, so that
  reports say how many there were.
- `CachedJudge`: an LLM judge through `VerdictCache`, so re-scoring the same (judge, query, answers,
  prediction) never asks again; for `--judge local|openai` the answer checker first, and the LLM only
  for the predictions it is unsure of.
- `BackendJudge`: the system's own `LLMBackend` (`--judge local`); a weak judge for small models.
- `OpenAIJudge`: any OpenAI-compatible endpoint (`--judge openai`): JSON mode, temperature 0, retries on
  connection, timeout, rate-limit and server errors.
- `OfficialJudge` (`--judge official`): the starter kit's judge, with its instructions, in-context
  examples and message layout read from the user's checkout (evaluation/starter_kit.py), the ground
  truth alone (its exact match too: `ground_truth_only`), every prediction the leaderboard's two rules
  leave, and its reading of the reply (`official_reply_verdict`).

The local and openai judges share the rules in prompts/judge.txt and the JSON reply `{"accuracy": true|false}`
(an unparseable reply counts as wrong). Verdict sources: `RULES` (the checker), `UNSURE_COUNTED_WRONG`,
or the LLM judge's identity. Every verdict names its rule (`JudgeVerdict.rule`): the checker's rule
that decided it, or that was unsure of it when an LLM judged or it was counted wrong; `LLM_JUDGE` when
an LLM judged without the checker.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from loguru import logger

from evaluation.answer_match import Judgement, Verdict, judge_answer
from evaluation.starter_kit import KitJudging
from models.llm.base import GenerationParams, LLMBackend
from models.prompts import PromptLibrary
from models.replies import find_json
from models.retry import retry_policy

RULES = "rules"
UNSURE_COUNTED_WRONG = "rules: unsure"
LLM_JUDGE = "llm judge"  # the rule of a verdict an LLM judge gave without the answer checker
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
    # the answer checker's rule that decided it, or that was unsure of it (then an LLM judged), or LLM_JUDGE
    rule: str = LLM_JUDGE


class JudgeUnavailable(RuntimeError):
    """The judge cannot be set up (no endpoint or key)."""


class Judge(Protocol):
    identity: str  # names the judge and its model; part of the verdict cache key
    weak: bool
    ground_truth_only: bool  # judges (and exact-matches) the ground truth alone, as the starter kit does

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict]: ...


def checker_judgement(request: JudgeRequest) -> Judgement:
    """The answer checker's verdict on a request, with the rule that decided it."""
    gold, *alternatives = request.answers
    return judge_answer(request.prediction, gold, alternatives, question=request.query)


def rules_verdict(judgement: Judgement) -> JudgeVerdict:
    """The answer checker's sure judgement as a verdict of the rules."""
    return JudgeVerdict(judgement.verdict is Verdict.CORRECT, RULES, rule=judgement.rule)


def checker_verdict(request: JudgeRequest) -> JudgeVerdict | None:
    """The answer checker's verdict, or None when it is unsure."""
    judgement = checker_judgement(request)
    return None if judgement.verdict is Verdict.UNSURE else rules_verdict(judgement)


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
    ground_truth_only = False

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict]:
        verdicts = []
        for request in requests:
            judgement = checker_judgement(request)
            if judgement.verdict is Verdict.UNSURE:
                verdicts.append(JudgeVerdict(False, UNSURE_COUNTED_WRONG, rule=judgement.rule))
            else:
                verdicts.append(rules_verdict(judgement))
        return verdicts


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


class CachedJudge:
    """Wraps an LLM judge: the answer checker first (`rules_first`), then the cache, then one call for
    everything left."""

    def __init__(self, judge: Judge, cache: VerdictCache, rules_first: bool = True):
        self.inner = judge
        self.cache = cache
        self.rules_first = rules_first
        self.identity = judge.identity
        self.weak = judge.weak
        self.ground_truth_only = judge.ground_truth_only
        self.cache_hits = 0

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict]:
        judgements = [checker_judgement(r) if self.rules_first else None for r in requests]
        verdicts: list[JudgeVerdict | None] = []
        for judgement in judgements:
            if judgement is None or judgement.verdict is Verdict.UNSURE:
                verdicts.append(None)
            else:
                verdicts.append(rules_verdict(judgement))
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
            unsure = " the answer checker is unsure of" if self.rules_first else ""
            logger.info(f"Judge {self.identity}: {len(pending)} predictions{unsure}")
            for i, verdict in zip(pending, self.inner.judge([requests[i] for i in pending])):
                self.cache.put(self.identity, requests[i], verdict)
                verdicts[i] = verdict
        # an LLM's verdict names the checker's rule that was unsure of it (cached verdicts carry none)
        return [
            replace(v, rule=j.rule if j is not None and v.source != RULES else v.rule)
            for v, j in zip(verdicts, judgements)
            if v is not None
        ]


class BackendJudge:
    """Judging with an `LLMBackend` (the system's own model): one batched call, JSON-constrained."""

    weak = True
    ground_truth_only = False

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


def openai_client(kind: str, timeout_s: float, base_url: str | None = None, api_key: str | None = None):
    """An OpenAI client for a judge, from OPENAI_API_KEY / OPENAI_BASE_URL unless given; the judge's own
    retry policy retries, so the client does not."""
    import openai

    base_url = base_url or os.environ.get("OPENAI_BASE_URL")
    api_key = api_key or os.environ.get("OPENAI_API_KEY")
    if not api_key and not base_url:
        raise JudgeUnavailable(
            f"The {kind} judge needs OPENAI_API_KEY (and OPENAI_BASE_URL for a non-OpenAI server); "
            "use --judge rules to score offline"
        )
    # Local OpenAI-compatible servers accept any key.
    return openai.OpenAI(api_key=api_key or "unused", base_url=base_url, timeout=timeout_s, max_retries=0)


class ChatJudge:
    """A judge on an OpenAI-compatible chat endpoint: one request per prediction, `workers` at once, the
    retry policy around each; a call that fails after it counts as wrong and carries its error."""

    weak = False
    ground_truth_only = False

    def __init__(self, client: Any, retry: Any, model: str, workers: int, identity: str):
        import openai

        self.client = client
        self.errors = openai.OpenAIError
        self.retry = retry
        self.model = model
        self.workers = workers
        self.identity = identity

    def judge(self, requests: list[JudgeRequest]) -> list[JudgeVerdict]:
        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            return list(pool.map(self._judge_one, requests))

    def call(self, request: JudgeRequest) -> dict[str, Any]:
        """The chat request's arguments besides the model."""
        raise NotImplementedError

    def reads_correct(self, reply: str) -> bool:
        raise NotImplementedError

    def _judge_one(self, request: JudgeRequest) -> JudgeVerdict:
        try:
            response = self.retry(self.client.chat.completions.create, model=self.model, **self.call(request))
        except self.errors as error:  # out of attempts, or a request that retrying cannot fix
            logger.error(f"Judge {self.identity} call failed: {error}")
            return JudgeVerdict(False, self.identity, error=f"{type(error).__name__}: {error}")
        reply = response.choices[0].message.content or ""
        return JudgeVerdict(self.reads_correct(reply), self.identity, raw=reply)


class OpenAIJudge(ChatJudge):
    """Our judge prompt (prompts/judge.txt) on an OpenAI-compatible endpoint; key and base URL from
    OPENAI_API_KEY / OPENAI_BASE_URL."""

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
        client = openai_client("openai", timeout_s, base_url, api_key)
        retry = retry_policy(max_attempts, retry_max_wait_s, first_wait_s=1.0, what=f"judge {model}")
        super().__init__(client, retry, model, workers, f"openai:{model}")
        self.prompts = prompts

    def call(self, request: JudgeRequest) -> dict[str, Any]:
        messages = judge_conversation(self.prompts, request)
        return {"messages": messages, "response_format": {"type": "json_object"}, "temperature": 0.0}

    def reads_correct(self, reply: str) -> bool:
        return bool(parse_verdict(reply))


class OfficialJudge(ChatJudge):
    """The starter kit's judge (evaluation/starter_kit.py): its system and user messages with the ground
    truth alone, its response format and no sampling settings of its own; its attempts, retrying the
    errors it retries (with the project's waits between attempts, where the kit retries at once); its
    reading of the reply. A call that fails after the attempts counts as wrong, as in the kit, and is
    reported as a judge error (never cached)."""

    ground_truth_only = True

    def __init__(
        self,
        kit: KitJudging,
        model: str,
        retry_max_wait_s: float,
        timeout_s: float,
        workers: int,
        base_url: str | None = None,
        api_key: str | None = None,
    ):
        import openai

        retried = tuple(getattr(openai, name) for name in kit.retried_errors if hasattr(openai, name))
        retry = retry_policy(
            kit.max_attempts,
            retry_max_wait_s,
            first_wait_s=1.0,
            what=f"official judge {model}",
            should_retry=lambda error: isinstance(error, retried),
        )
        client = openai_client("official", timeout_s, base_url, api_key)
        super().__init__(client, retry, model, workers, f"official:{model}:kit-{kit.fingerprint}")
        self.kit = kit

    def call(self, request: JudgeRequest) -> dict[str, Any]:
        messages = self.kit.messages(request.query, request.answers[0], request.prediction)
        return {"messages": messages, "response_format": self.kit.response_format}

    def reads_correct(self, reply: str) -> bool:
        return official_reply_verdict(reply)


def official_reply_verdict(reply: str) -> bool:
    """The starter kit's reading of a judge reply: the whole reply, lower-cased, is a JSON object whose
    "accuracy" is true or the string "true"; anything else (no JSON, other text around it, an empty
    reply) is wrong."""
    try:
        parsed = json.loads(reply.lower())
    except ValueError:
        return False
    value = parsed.get("accuracy") if isinstance(parsed, dict) else None
    return value is True or value == "true"


def judge_conversation(prompts: PromptLibrary, request: JudgeRequest) -> list[dict[str, str]]:
    return prompts.conversation(
        "judge",
        query=request.query,
        answers="\n".join(f"- {answer}" for answer in request.answers),
        prediction=request.prediction,
    )

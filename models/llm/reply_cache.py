"""The reply cache: each LLM reply kept by its exact request, so that a rerun asks the model only
what it has not answered before.

The key is the sha256 of the model's identity (`LLMBackend.model_identity`: the GGUF file's hash
and the engine settings that change its arithmetic, or the served model's name), the conversation,
and every generation parameter (max_tokens, temperature, top_p, n, the stop list, the seed, the
JSON schema or grammar, the first token's log-probabilities). The replies live in one SQLite file
(WAL journal, a busy timeout) that several processes read and write at once.

Only complete replies are stored: a reply that failed, or that a time limit cut short, never is. A
hit costs no model time: it comes back at once with the original call's token counts and
`Completion.cached` set, and reports no engine step, so the deadline's speed model learns only from
the calls the model ran. Every preset has it off (`llm.reply_cache`); the benchmarks turn it on.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Sequence

from models.llm.base import Completion, Conversation, GenerationParams, LLMBackend


def request_key(model_identity: str, conversation: Conversation, params: GenerationParams) -> str:
    request = {"model": model_identity, "messages": conversation, "params": asdict(params)}
    return hashlib.sha256(json.dumps(request, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


class ReplyStore:
    """Replies by request key in a SQLite file, safe for several processes and threads."""

    def __init__(self, path: str | Path, busy_timeout_s: float = 60.0):
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        # Autocommit; the timeout makes a writer wait for another process's write instead of failing.
        self._connection = sqlite3.connect(
            self.path, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False
        )
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute("PRAGMA synchronous=NORMAL")
        self._connection.execute(
            "CREATE TABLE IF NOT EXISTS replies "
            "(key TEXT PRIMARY KEY, reply TEXT NOT NULL, stored REAL NOT NULL)"
        )

    def get(self, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        unique = list(dict.fromkeys(keys))
        if not unique:
            return {}
        with self._lock:
            rows = self._connection.execute(
                f"SELECT key, reply FROM replies WHERE key IN ({','.join('?' * len(unique))})", unique
            ).fetchall()
        return {key: json.loads(reply) for key, reply in rows}

    def put(self, replies: dict[str, dict[str, Any]]) -> None:
        if not replies:
            return
        now = time.time()
        rows = [(key, json.dumps(reply, ensure_ascii=False), now) for key, reply in replies.items()]
        with self._lock:
            # The first writer of a key wins: another process that answered the same request meanwhile
            # stored the same reply (or, for a sampled one, an equally valid one).
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                self._connection.executemany("INSERT OR IGNORE INTO replies VALUES (?, ?, ?)", rows)
                self._connection.execute("COMMIT")
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise

    def __len__(self) -> int:
        with self._lock:
            return int(self._connection.execute("SELECT COUNT(*) FROM replies").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._connection.close()


def _behind(name: str) -> Any:
    """An attribute read from and written to the backend behind the cache."""
    return property(
        lambda self: getattr(self.backend, name), lambda self, value: setattr(self.backend, name, value)
    )


class CachedBackend(LLMBackend):
    """Any backend with the reply cache in front: the requests it has answered before come from the
    store, the others go to the backend in one call (the batch stays one call), and their complete
    replies are stored. The time limit, clock and step hooks set on it reach the backend behind."""

    def __init__(self, backend: LLMBackend, store: ReplyStore):
        self.backend = backend
        self.store = store
        self.name = backend.name
        self.hits = 0
        self.misses = 0
        self._identity: str | None = None

    # The orchestrator sets these on the backend it holds; they belong to the one behind.
    time_limit = _behind("time_limit")
    clock = _behind("clock")
    step_observer = _behind("step_observer")
    step_predictor = _behind("step_predictor")

    @property
    def engine(self) -> LLMBackend:
        return self.backend.engine

    def generate(self, conversations: Sequence[Conversation], params: GenerationParams) -> list[Completion]:
        identity = self.model_identity()
        keys = [request_key(identity, conversation, params) for conversation in conversations]
        stored = self.store.get(keys)
        completions = [_from_record(stored[key]) if key in stored else None for key in keys]
        missing = [index for index, completion in enumerate(completions) if completion is None]
        self.hits += len(keys) - len(missing)
        self.misses += len(missing)
        if missing:
            computed = self.backend.generate([conversations[index] for index in missing], params)
            complete = {}
            for index, completion in zip(missing, computed):
                completions[index] = completion
                if completion.error is None and not completion.cut and completion.texts:
                    complete[keys[index]] = _record(completion)
            self.store.put(complete)
        return [completion for completion in completions if completion is not None]

    def model_identity(self) -> str:
        if self._identity is None:
            self._identity = self.backend.model_identity()
        return self._identity

    def count_tokens(self, text: str) -> int:
        return self.backend.count_tokens(text)

    def conversation_tokens(self, conversation: Conversation) -> int:
        return self.backend.conversation_tokens(conversation)

    def kv_cache_tokens(self) -> int | None:
        return self.backend.kv_cache_tokens()

    def recomputed_prompt_tokens(self, prompt_tokens: int) -> int:
        return self.backend.recomputed_prompt_tokens(prompt_tokens)

    def warm_up(self, json_schemas: Sequence[dict[str, Any]]) -> None:
        self.backend.warm_up(json_schemas)

    def close(self) -> None:
        self.backend.close()
        self.store.close()


def _record(completion: Completion) -> dict[str, Any]:
    return {
        "texts": completion.texts,
        "prompt_tokens": completion.prompt_tokens,
        "completion_tokens": completion.completion_tokens,
        "first_token_logprobs": completion.first_token_logprobs,
    }


def _from_record(record: dict[str, Any]) -> Completion:
    return Completion(
        texts=list(record["texts"]),
        prompt_tokens=int(record["prompt_tokens"]),
        completion_tokens=int(record["completion_tokens"]),
        first_token_logprobs=record.get("first_token_logprobs"),
        cached=True,
    )

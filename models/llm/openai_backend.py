"""LLM backend for any OpenAI-compatible chat server: vLLM serve, llama.cpp's servers, OpenAI.

The conversations of a batch go out concurrently (a thread pool of `max_concurrent_requests`).
`llm.base_url` may list several servers of the same model, comma-separated: the conversations are
dealt to them in turn (a job of `--jobs N` starts at its own one). Servers
differ in the details, so the backend adapts: it asks again for the missing samples when a server
ignores `n`, sends a JSON schema in the form the server accepts, and counts tokens with a local
tokenizer, the server's tokenize endpoint, or a characters-per-token estimate, in that order.
A request's timeout is the time its call has left, and no retry starts once that is spent: a
request still running at the time limit is given up as cut (the server cannot be asked for the
text generated so far).
"""

from __future__ import annotations

import itertools
import math
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import openai
from loguru import logger

from models.config import LLMConfig
from models.llm.base import Completion, Conversation, GenerationParams, LLMBackend, cut_by_limit
from models.retry import is_transient, retry_policy

# Placeholder key for local servers, which accept any key; the client refuses to start without one.
_NO_KEY = "no-key"


class OpenAIBackend(LLMBackend):
    name = "openai"

    def __init__(self, config: LLMConfig):
        self.config = config
        self._clients = [
            openai.OpenAI(
                base_url=url,
                api_key=os.environ.get(config.api_key_env) or _NO_KEY,
                timeout=openai.Timeout(config.request_timeout_s, connect=config.connect_timeout_s),
                max_retries=0,  # retries follow models/retry.py
            )
            for url in server_urls(config.base_url)
        ]
        self._turns = itertools.count()
        self._retry = retry_policy(
            config.request_retries + 1,
            config.request_retry_max_wait_s,
            what=f"request to {config.base_url}",
            should_retry=lambda error: is_transient(error) and self.seconds_left() > 0,
        )
        self._pool = ThreadPoolExecutor(
            max_workers=config.max_concurrent_requests, thread_name_prefix="llm-request"
        )
        self._lock = threading.RLock()
        self._model: str | None = config.served_model
        self._schema_style = config.json_schema_style
        self._token_counter: Callable[[str], int] | None = None
        self._server_root = server_urls(config.base_url)[0].rstrip("/").removesuffix("/v1")

    # ---- generation ------------------------------------------------------------------------------

    def generate(self, conversations: Sequence[Conversation], params: GenerationParams) -> list[Completion]:
        futures = [self._pool.submit(self._complete, conversation, params) for conversation in conversations]
        return [future.result() for future in futures]

    def _complete(self, conversation: Conversation, params: GenerationParams) -> Completion:
        with self._lock:
            client = self._clients[next(self._turns) % len(self._clients)]
        try:
            response = self._retry(self._request, client, conversation, params, params.n, params.seed)
            texts = [choice.message.content or "" for choice in response.choices]
            if not texts:
                raise RuntimeError("the server returned no choices")
            completion = Completion(texts=texts, first_token_logprobs=_first_token_logprobs(response, params))
            _add_usage(completion, response)
            # Some servers (llama-cpp-python's among them) ignore n and return one choice.
            if len(texts) < params.n and params.temperature == 0:
                texts.extend([texts[0]] * (params.n - len(texts)))
            while len(texts) < params.n:
                seed = None if params.seed is None else params.seed + len(texts)
                extra = self._retry(self._request, client, conversation, params, 1, seed)
                texts.append(extra.choices[0].message.content or "")
                completion.completion_tokens += extra.usage.completion_tokens if extra.usage else 0
            return completion
        except Exception as error:  # one conversation's failure never fails the batch
            if self.seconds_left() <= 0:
                return Completion(texts=[], cut=True, error=cut_by_limit(0))
            message = f"{type(error).__name__}: {error}"
            logger.warning(f"OpenAI-compatible request to {client.base_url} failed: {message}")
            return Completion(texts=[], error=message)

    def _request(
        self,
        client: openai.OpenAI,
        conversation: Conversation,
        params: GenerationParams,
        n: int,
        seed: int | None,
    ) -> Any:
        left = self.seconds_left()
        if left <= 0:
            raise TimeoutError("the call's time limit has passed")
        request: dict[str, Any] = {
            "timeout": openai.Timeout(
                min(self.config.request_timeout_s, left), connect=self.config.connect_timeout_s
            ),
            "model": self._served_model(),
            "messages": conversation,
            "max_tokens": params.max_tokens,
            "temperature": params.temperature,
            "top_p": params.top_p,
            "n": n,
        }
        if params.stop:
            request["stop"] = list(params.stop)
        if seed is not None:
            request["seed"] = seed
        if params.first_token_logprobs:
            request["logprobs"] = True
            request["top_logprobs"] = params.first_token_logprobs
        if params.grammar is not None:
            request["extra_body"] = {self.config.grammar_field: params.grammar}
        if params.json_schema is None:
            return client.chat.completions.create(**request)
        return self._request_with_schema(client, request, params.json_schema)

    def _request_with_schema(
        self, client: openai.OpenAI, request: dict[str, Any], schema: dict[str, Any]
    ) -> Any:
        if self._schema_style != "auto":
            response_format = _response_format(self._schema_style, schema)
            return client.chat.completions.create(**request, response_format=response_format)
        try:
            response_format = _response_format("openai", schema)
            return client.chat.completions.create(**request, response_format=response_format)
        except openai.APIStatusError as error:
            # Servers reject an unknown response_format with 400, 422 or (llama-cpp-python's) 500.
            if "response_format" not in str(error):
                raise
        # The server rejected the OpenAI json_schema form: try llama-cpp-python's, and keep it if it works.
        response_format = _response_format("json_object", schema)
        response = client.chat.completions.create(**request, response_format=response_format)
        logger.info("The server takes JSON schemas as response_format json_object + schema; using that form")
        self._schema_style = "json_object"
        return response

    def _served_model(self) -> str:
        """`llm.served_model`, else the model the servers list first (they must agree)."""
        with self._lock:
            if self._model is None:
                served = {}
                for client in self._clients:
                    models = client.models.list().data
                    if not models:
                        raise RuntimeError(f"The server at {client.base_url} lists no models")
                    served[str(client.base_url)] = models[0].id
                if len(set(served.values())) > 1:
                    listing = ", ".join(f"{url} serves {model!r}" for url, model in served.items())
                    raise RuntimeError(
                        f"llm.base_url lists servers of different models ({listing}); "
                        "list servers of one model, or name it with llm.served_model"
                    )
                self._model = next(iter(served.values()))
                logger.info(f"Using served model {self._model!r}")
            return self._model

    def model_identity(self) -> str:
        """The served model's name, whichever server answers (the servers of one model agree)."""
        return f"openai-compatible server, model {self._served_model()}"

    # ---- token counting --------------------------------------------------------------------------

    def count_tokens(self, text: str) -> int:
        with self._lock:
            if self._token_counter is None:
                self._token_counter = self._choose_token_counter()
        try:
            return self._token_counter(text)
        except _COUNTING_ERRORS as error:
            logger.warning(
                f"Token counting via the server failed ({error}); estimating from characters from now on"
            )
            self._token_counter = self._estimate_tokens
            return self._estimate_tokens(text)

    def _choose_token_counter(self) -> Callable[[str], int]:
        if self.config.tokenizer_path:
            return _local_token_counter(Path(self.config.tokenizer_path))
        for path, body in _TOKENIZE_FORMS:
            counter = self._server_token_counter(path, body)
            try:
                # A server that ignores the body's field answers with no tokens: not this form.
                if counter("hello world") <= 0:
                    continue
            except _COUNTING_ERRORS:
                continue
            logger.info(f"Counting tokens with the server's {path} endpoint")
            return counter
        logger.warning(
            f"No tokenizer_path and no tokenize endpoint at {self._server_root}: token counts are estimated "
            f"as characters / {self.config.approx_chars_per_token}"
        )
        return self._estimate_tokens

    def _server_token_counter(
        self, path: str, body: Callable[[str, str], dict[str, Any]]
    ) -> Callable[[str], int]:
        url = self._server_root + path
        timeout = httpx.Timeout(self.config.request_timeout_s, connect=self.config.connect_timeout_s)

        def count(text: str) -> int:
            response = httpx.post(url, json=body(text, self._served_model()), timeout=timeout)
            response.raise_for_status()
            payload = response.json()
            return int(payload["count"]) if "count" in payload else len(payload["tokens"])

        return count

    def _estimate_tokens(self, text: str) -> int:
        return math.ceil(len(text) / self.config.approx_chars_per_token)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        for client in self._clients:
            client.close()


_COUNTING_ERRORS = (httpx.HTTPError, openai.OpenAIError, KeyError, ValueError, TypeError)

# (path, request body) of the tokenize endpoints of vLLM, llama.cpp's server and llama-cpp-python's server.
_TOKENIZE_FORMS: list[tuple[str, Callable[[str, str], dict[str, Any]]]] = [
    ("/tokenize", lambda text, model: {"model": model, "prompt": text, "add_special_tokens": False}),
    ("/tokenize", lambda text, model: {"content": text}),
    ("/extras/tokenize", lambda text, model: {"model": model, "input": text}),
]


def server_urls(base_url: str) -> list[str]:
    """The servers `llm.base_url` lists, comma-separated."""
    urls = [url.strip() for url in base_url.split(",") if url.strip()]
    if not urls:
        raise ValueError("llm.base_url lists no server")
    return urls


def _response_format(style: str, schema: dict[str, Any]) -> dict[str, Any]:
    if style == "json_object":
        return {"type": "json_object", "schema": schema}
    return {"type": "json_schema", "json_schema": {"name": "output", "schema": schema}}


def _local_token_counter(path: Path) -> Callable[[str], int]:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path / "tokenizer.json" if path.is_dir() else path))
    return lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)


def _add_usage(completion: Completion, response: Any) -> None:
    if response.usage is not None:
        completion.prompt_tokens = response.usage.prompt_tokens
        completion.completion_tokens = response.usage.completion_tokens


def _first_token_logprobs(response: Any, params: GenerationParams) -> dict[str, float] | None:
    if not params.first_token_logprobs or not response.choices:
        return None
    logprobs = response.choices[0].logprobs
    if logprobs is None or not logprobs.content:
        return None
    return {entry.token: entry.logprob for entry in logprobs.content[0].top_logprobs}

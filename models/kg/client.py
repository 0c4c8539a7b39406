"""HTTP client for the CRAG mock KG API.

Each call's failure (server down, timeout, 4xx, HTTP 500 with its plain-text `Internal Server Error`,
a body that is not `{"result": ...}` JSON) becomes a `CallResult` with `error` set, never an
exception. Retries are minimal: the official server answers 500 and 4xx deterministically, so only a
connection error or a timeout is tried once more. Once the server refuses a connection the client
stops trying, so a dead API costs milliseconds. The official server answers one request at a time,
so a few connections suffice; more only queue behind each other and time out.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import httpx
from loguru import logger

from models.config import KGConfig
from models.kg.routes import ROUTES, ApiCall
from models.retry import retry_policy

DEADLINE_ERROR = "batch deadline reached"


@dataclass
class CallResult:
    call: ApiCall
    result: Any = None
    error: str | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None


class _NotSent(Exception):
    """A call given up before sending: the API is known to be down, or the batch deadline passed."""


class KGClient:
    def __init__(self, base_url: str, config: KGConfig):
        self.base_url = base_url.rstrip("/")
        self.config = config
        self.unreachable = False
        self._http = httpx.Client(
            base_url=self.base_url,
            timeout=httpx.Timeout(config.timeout_s, connect=config.connect_timeout_s),
            limits=httpx.Limits(
                max_connections=config.max_connections, max_keepalive_connections=config.max_connections
            ),
            headers={"accept": "application/json"},
        )
        self._pool = ThreadPoolExecutor(max_workers=config.max_connections, thread_name_prefix="kg-api")

    def call(self, call: ApiCall, deadline: float | None = None) -> CallResult:
        """One API call. Connection errors and timeouts are retried (models/retry.py); an HTTP error
        status, a plain-text 500 included, is final at once: the official server answers it again."""
        started = time.perf_counter()
        policy = retry_policy(
            attempts=self.config.retries + 1,
            max_wait_s=self.config.retry_backoff_s,
            first_wait_s=self.config.retry_backoff_s,
            what=f"KG API {call.route}",
            should_retry=lambda error: isinstance(error, (httpx.ConnectError, httpx.TimeoutException)),
        )
        try:
            response = policy(self._post, call, deadline)
        except _NotSent as reason:
            error = str(reason)
        except httpx.ConnectError as exc:
            self.unreachable = True
            error = f"cannot connect to {self.base_url}: {exc}"
        except httpx.TimeoutException:
            error = f"timed out after {self.config.timeout_s:g}s"
        except httpx.HTTPError as exc:
            error = f"HTTP error: {exc}"
        else:
            if response.status_code < 400:
                return self._parse(call, response, started)
            error = f"HTTP {response.status_code}: {response.text[:200]}"
        return CallResult(call, error=error, seconds=time.perf_counter() - started)

    def _post(self, call: ApiCall, deadline: float | None) -> httpx.Response:
        if self.unreachable:
            raise _NotSent("KG API unreachable")
        if deadline is not None and time.perf_counter() >= deadline:
            raise _NotSent(DEADLINE_ERROR)
        route = ROUTES[call.route]
        return self._http.post(route.path, json=call.body if route.takes_body else None)

    def _parse(self, call: ApiCall, response: httpx.Response, started: float) -> CallResult:
        seconds = time.perf_counter() - started
        try:
            payload = response.json()
        except ValueError:
            return CallResult(call, error=f"malformed JSON: {response.text[:80]!r}", seconds=seconds)
        if not isinstance(payload, dict) or "result" not in payload:
            return CallResult(
                call, error=f"unexpected body without 'result': {str(payload)[:80]}", seconds=seconds
            )
        return CallResult(call, result=payload["result"], seconds=seconds)

    def call_many(self, calls: list[ApiCall], deadline: float) -> list[CallResult]:
        """`calls` (already distinct) over the pooled connections; what is not answered by `deadline`
        (a `time.perf_counter()` value) comes back as a deadline error."""
        futures: list[Future[CallResult]] = [self._pool.submit(self.call, call, deadline) for call in calls]
        if futures:
            wait(futures, timeout=max(deadline - time.perf_counter(), 0.0))
        results = []
        for call, future in zip(calls, futures):
            if future.done():
                results.append(future.result())
            else:
                future.cancel()
                results.append(CallResult(call, error=DEADLINE_ERROR))
        late = sum(1 for r in results if r.error == DEADLINE_ERROR)
        if late:
            logger.warning(
                f"KG API: {late} call(s) not answered by the batch deadline; their evidence is dropped"
            )
        return results

    def is_up(self, seconds: float | None = None) -> bool:
        """One health check (`GET /`), so a batch does not pay for entity reading when the API is
        down; within `seconds` when given (the time its caller has left)."""
        cap = float("inf") if seconds is None else seconds
        timeout = httpx.Timeout(
            min(self.config.timeout_s, cap), connect=min(self.config.connect_timeout_s, cap)
        )
        try:
            self._http.get("/", timeout=timeout)
        except httpx.HTTPError as exc:
            logger.warning(
                f"KG API at {self.base_url} does not answer ({exc}); continuing without KG evidence"
            )
            self.unreachable = True
        return not self.unreachable

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._http.close()

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


class KGClient:
    def __init__(self, base_url: str, config: KGConfig):
        self.base_url = base_url.rstrip("/")
        self.config = config
        self.unreachable = False
        self._http = httpx.Client(
            base_url=self.base_url,
            timeout=httpx.Timeout(config.timeout_s, connect=config.connect_timeout_s),
            limits=httpx.Limits(max_connections=config.max_connections, max_keepalive_connections=config.max_connections),
            headers={"accept": "application/json"},
        )
        self._pool = ThreadPoolExecutor(max_workers=config.max_connections, thread_name_prefix="kg-api")

    def call(self, call: ApiCall, deadline: float | None = None) -> CallResult:
        started = time.perf_counter()
        route = ROUTES[call.route]
        error = "not attempted"
        for attempt in range(self.config.retries + 1):
            if self.unreachable:
                error = "KG API unreachable"
                break
            if deadline is not None and time.perf_counter() >= deadline:
                error = DEADLINE_ERROR
                break
            if attempt:
                time.sleep(self.config.retry_backoff_s)
            try:
                response = self._http.post(route.path, json=call.body if route.takes_body else None)
            except httpx.ConnectError as exc:
                error = f"cannot connect to {self.base_url}: {exc}"
                if attempt == self.config.retries:
                    self.unreachable = True
                continue
            except httpx.TimeoutException:
                error = f"timed out after {self.config.timeout_s:g}s"
                continue
            except httpx.HTTPError as exc:
                error = f"HTTP error: {exc}"
                break
            if response.status_code >= 400:
                error = f"HTTP {response.status_code}: {response.text[:200]}"
                break
            return self._parse(call, response, started)
        return CallResult(call, error=error, seconds=time.perf_counter() - started)

    def _parse(self, call: ApiCall, response: httpx.Response, started: float) -> CallResult:
        seconds = time.perf_counter() - started
        try:
            payload = response.json()
        except ValueError:
            return CallResult(call, error=f"malformed JSON: {response.text[:80]!r}", seconds=seconds)
        if not isinstance(payload, dict) or "result" not in payload:
            return CallResult(call, error=f"unexpected body without 'result': {str(payload)[:80]}", seconds=seconds)
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
            logger.warning(f"KG API: {late} call(s) not answered by the batch deadline; their evidence is dropped")
        return results

    def is_up(self) -> bool:
        """One health check (`GET /`), so a batch does not pay for entity reading when the API is down."""
        try:
            self._http.get("/")
        except httpx.HTTPError as exc:
            logger.warning(f"KG API at {self.base_url} does not answer ({exc}); continuing without KG evidence")
            self.unreachable = True
        return not self.unreachable

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._http.close()

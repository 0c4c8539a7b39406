"""HTTP client for the mock KG API: pooled connections, timeouts, retries, concurrent batches.

Every failure (server down, timeout, 4xx/5xx, a body that is not `{"result": ...}` JSON) becomes a
`CallResult` with `error` set; nothing raises to the caller. Once the server refuses a connection,
the client stops trying for the rest of its life, so a dead API costs milliseconds, not timeouts.
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

    def call(self, call: ApiCall) -> CallResult:
        started = time.perf_counter()
        route = ROUTES[call.route]
        error = "not attempted"
        for attempt in range(self.config.retries + 1):
            if self.unreachable:
                error = "KG API unreachable"
                break
            if attempt:
                time.sleep(self.config.retry_backoff_s * attempt)
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
                continue
            if response.status_code >= 500:
                error = f"server error {response.status_code}"
                continue
            if response.status_code >= 400:
                error = f"rejected ({response.status_code}): {response.text[:200]}"
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
        """All `calls` concurrently, each answered by `deadline` (a `time.perf_counter()` value)."""
        unique: dict[tuple[str, str], Future[CallResult]] = {}
        for call in calls:
            if call.key not in unique:
                unique[call.key] = self._pool.submit(self.call, call)
        remaining = deadline - time.perf_counter()
        if unique:
            wait(list(unique.values()), timeout=max(remaining, 0.0))
        results = []
        for call in calls:
            future = unique[call.key]
            if future.done():
                results.append(future.result())
            else:
                future.cancel()
                results.append(CallResult(call, error="batch deadline reached"))
        late = sum(1 for r in results if r.error == "batch deadline reached")
        if late:
            logger.warning(f"KG API: {late} call(s) still running at the batch deadline; their evidence is dropped")
        return results

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._http.close()

"""The one retry policy for calls over the network (OpenAI-compatible LLM servers, the judges, the KG API).

Only errors that can pass are retried: a connection failure, a timeout, or a server answering 408,
429 or 5xx. Waits grow exponentially with full jitter (tenacity), capped at `max_wait_s`; the last
error is re-raised unchanged when the attempts run out.
"""

from __future__ import annotations

import sys
from typing import Callable

import httpx
from loguru import logger
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_random_exponential

# Besides these, every 5xx.
TRANSIENT_STATUS_CODES = frozenset({408, 429})


def is_transient(error: BaseException) -> bool:
    """True for failures worth another attempt (an httpx or openai client error)."""
    status = _status_code(error)
    if status is not None:
        return status in TRANSIENT_STATUS_CODES or status >= 500
    openai = sys.modules.get("openai")  # an openai error exists only once its client is imported
    return isinstance(error, httpx.TransportError) or (
        openai is not None and isinstance(error, openai.APIConnectionError)
    )


def retry_policy(
    attempts: int,
    max_wait_s: float,
    first_wait_s: float = 0.5,
    what: str = "request",
    should_retry: Callable[[BaseException], bool] = is_transient,
) -> Retrying:
    """A tenacity `Retrying`: call it as `policy(function, *args)`; at most `attempts` calls in all."""
    return Retrying(
        stop=stop_after_attempt(max(1, attempts)),
        wait=wait_random_exponential(multiplier=first_wait_s, max=max_wait_s),
        retry=retry_if_exception(should_retry),
        before_sleep=_log_retry(what, attempts),
        reraise=True,
    )


def _status_code(error: BaseException) -> int | None:
    openai = sys.modules.get("openai")
    if openai is not None and isinstance(error, openai.APIStatusError):
        return error.status_code
    if isinstance(error, httpx.HTTPStatusError):
        return error.response.status_code
    return None


def _log_retry(what: str, attempts: int) -> Callable[[RetryCallState], None]:
    def log(state: RetryCallState) -> None:
        error = state.outcome.exception() if state.outcome is not None else None
        wait = state.next_action.sleep if state.next_action is not None else 0.0
        logger.warning(
            f"{what} failed (attempt {state.attempt_number}/{attempts}): "
            f"{type(error).__name__}: {error}; retrying in {wait:.1f}s"
        )

    return log

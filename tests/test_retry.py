"""The one retry policy: transient network failures are retried with back-off, others are not."""

from __future__ import annotations

import httpx
import pytest

from models.retry import is_transient, retry_policy


def status_error(code: int) -> httpx.HTTPStatusError:
    request = httpx.Request("POST", "http://kg/route")
    return httpx.HTTPStatusError(f"{code}", request=request, response=httpx.Response(code, request=request))


class Flaky:
    def __init__(self, errors: list[BaseException]):
        self.errors = list(errors)
        self.calls = 0

    def __call__(self, value: str) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return value


def test_transient_failures_are_retried_until_success():
    flaky = Flaky([httpx.ConnectError("refused"), status_error(503)])
    assert retry_policy(attempts=3, max_wait_s=0.01, first_wait_s=0.001)(flaky, "ok") == "ok"
    assert flaky.calls == 3


def test_a_request_that_retrying_cannot_fix_fails_at_once():
    flaky = Flaky([status_error(400)])
    with pytest.raises(httpx.HTTPStatusError):
        retry_policy(attempts=5, max_wait_s=0.01, first_wait_s=0.001)(flaky, "ok")
    assert flaky.calls == 1


def test_the_last_error_is_raised_when_attempts_run_out():
    flaky = Flaky([httpx.ReadTimeout("slow")] * 3)
    with pytest.raises(httpx.ReadTimeout):
        retry_policy(attempts=2, max_wait_s=0.01, first_wait_s=0.001)(flaky, "ok")
    assert flaky.calls == 2


@pytest.mark.parametrize(("error", "transient"), [
    (status_error(429), True), (status_error(500), True), (status_error(408), True),
    (status_error(404), False), (status_error(422), False), (ValueError("bad JSON"), False),
])  # fmt: skip
def test_which_errors_are_transient(error, transient):
    assert is_transient(error) is transient

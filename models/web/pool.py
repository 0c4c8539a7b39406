"""A persistent pool of page-extraction processes in which one page's work can be killed alone.

concurrent.futures cannot stop one running task: killing its process breaks the whole executor.
Here each worker is its own `python -m models.web.worker` with its own pipes, so a page past its
deadline (trafilatura ignores signals) or a worker that crashed costs only that page: the worker
is killed and replaced, and the page keeps the best version the worker had sent so far (the fast
extractor's result, sent before any slow fallback starts), or is left empty with an error.
Fresh interpreters, not multiprocessing's fork/forkserver/spawn: they inherit no threads from a
parent running an LLM, and never re-import the caller's main script.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait

from loguru import logger
from tqdm import tqdm

from models.config import REPO_ROOT, WebConfig
from models.web.fallback_chain import FallbackJob
from models.web.page import Page


@dataclass
class PoolTask:
    """A whole page (html, page_name) or the slow fallback step of one, with the page to keep if
    the worker fails."""

    key: int
    work: tuple[str, str] | FallbackJob
    size: int
    fallback_page: Page
    rank: int = 0  # lower first (the page's promise for its question), then larger first


@dataclass
class _Worker:
    process: subprocess.Popen
    to_worker: Connection
    from_worker: Connection
    started: float
    ready: bool = False
    task: PoolTask | None = None
    deadline: float = 0.0
    best_page: Page | None = None


class ExtractionPool:
    def __init__(self, config: WebConfig, workers: int):
        self._config = config
        self._workers = [self._start_worker() for _ in range(max(1, workers))]

    def run(self, tasks: list[PoolTask], stop_at: float | None = None) -> dict[int, Page]:
        """Pages by task key; the best ranked first, and among equals the largest first, so the
        longest work starts early. At `stop_at` (time.monotonic) pages still in work keep their
        best version so far, and pages not started keep their fallback, each with an error."""
        queue = deque(sorted(tasks, key=lambda task: (task.rank, -task.size)))
        results: dict[int, Page] = {}
        with tqdm(total=len(tasks), desc="web pages", leave=False, disable=None) as progress:
            while queue or any(worker.task for worker in self._workers):
                if stop_at is not None and time.monotonic() >= stop_at:
                    self._stop(queue, results)
                    break
                for worker in list(self._workers):
                    if worker.ready and worker.task is None and queue:
                        self._dispatch(worker, queue)
                self._wait_and_collect(results, stop_at)
                if queue and not self._workers:
                    self._fail_all(queue, results, "no extraction worker could start")
                progress.update(len(results) - progress.n)
        return results

    def close(self) -> None:
        for worker in self._workers:
            try:
                worker.to_worker.send(None)
            except OSError:
                pass
        for worker in self._workers:
            try:
                worker.process.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                worker.process.kill()
                worker.process.wait()
            worker.to_worker.close()
            worker.from_worker.close()
        self._workers = []

    def _start_worker(self) -> _Worker:
        task_read, task_write = os.pipe()
        result_read, result_write = os.pipe()
        process = subprocess.Popen(
            [sys.executable, "-m", "models.web.worker", str(task_read), str(result_write)],
            cwd=REPO_ROOT,
            pass_fds=(task_read, result_write),
            stdin=subprocess.DEVNULL,
        )
        os.close(task_read)
        os.close(result_write)
        worker = _Worker(
            process,
            Connection(task_write, readable=False),
            Connection(result_read, writable=False),
            started=time.monotonic(),
        )
        try:
            worker.to_worker.send_bytes(pickle.dumps(self._config))
        except OSError:
            pass  # died at once: its closed pipe reads as EOF, and the pool drops it there
        return worker

    def _wait_and_collect(self, results: dict[int, Page], stop_at: float | None) -> None:
        deadlines = [
            w.deadline if w.ready else w.started + self._config.worker_start_timeout_s
            for w in self._workers
            if w.task is not None or not w.ready
        ]
        if not deadlines:
            return
        if stop_at is not None:
            deadlines.append(stop_at)
        ready = wait(
            [w.from_worker for w in self._workers], timeout=max(0.0, min(deadlines) - time.monotonic())
        )
        for worker in list(self._workers):
            if worker.from_worker in ready:
                self._receive(worker, results)
            elif (
                not worker.ready and time.monotonic() >= worker.started + self._config.worker_start_timeout_s
            ):
                self._drop_worker(worker, f"did not start within {self._config.worker_start_timeout_s:g} s")
            elif worker.task is not None and time.monotonic() >= worker.deadline:
                self._give_up(worker, results, f"timed out after {self._config.page_timeout_s:g} s")

    def _dispatch(self, worker: _Worker, queue: deque[PoolTask]) -> None:
        task = queue.popleft()
        try:
            worker.to_worker.send((task.key, task.work))
        except OSError as exc:  # the worker died while idle: not the page's fault, so retry it
            queue.appendleft(task)
            self._drop_worker(worker, f"unreachable ({exc})", restart=True)
            return
        worker.task, worker.best_page = task, None
        worker.deadline = time.monotonic() + self._config.page_timeout_s

    def _receive(self, worker: _Worker, results: dict[int, Page]) -> None:
        try:
            message = worker.from_worker.recv()
        except (EOFError, OSError) as exc:
            if worker.task is None:
                self._drop_worker(worker, f"exited ({type(exc).__name__})", restart=worker.ready)
            else:
                self._give_up(worker, results, f"worker died ({type(exc).__name__})")
            return
        if message == "ready":
            worker.ready = True
            return
        key, page, is_final = message
        if is_final:
            results[key] = page
            worker.task = None
        else:
            worker.best_page = page

    def _give_up(self, worker: _Worker, results: dict[int, Page], reason: str) -> None:
        """Keeps the task's best page so far and replaces the worker."""
        task = worker.task
        assert task is not None
        page = worker.best_page or task.fallback_page
        page.error = f"{reason}; kept the {page.extractor} result"
        logger.warning("web page {!r}: {}", page.page_name, page.error)
        results[task.key] = page
        self._drop_worker(worker, reason, restart=True)

    def _drop_worker(self, worker: _Worker, reason: str, restart: bool = False) -> None:
        """Kills the worker; replaces it unless it never came up (a replacement would fail too)."""
        worker.process.kill()
        worker.process.wait()
        worker.to_worker.close()
        worker.from_worker.close()
        self._workers.remove(worker)
        if restart:
            logger.warning("web page worker {}: {}; replaced", worker.process.pid, reason)
            self._workers.append(self._start_worker())
        else:
            logger.error(
                "web page worker {}: {}; {} workers left", worker.process.pid, reason, len(self._workers)
            )

    def _stop(self, queue: deque[PoolTask], results: dict[int, Page]) -> None:
        self._fail_all(queue, results, "not extracted before the batch deadline")
        for worker in list(self._workers):
            if worker.task is not None:
                self._give_up(worker, results, "stopped at the batch deadline")

    def _fail_all(self, queue: deque[PoolTask], results: dict[int, Page], reason: str) -> None:
        while queue:
            task = queue.popleft()
            page = task.fallback_page
            page.error = reason
            results[task.key] = page

"""`--jobs N`: a run's batches spread over N worker processes, its results merged in the parent.

Each job is a process of its own (spawned: it inherits no threads and no loaded model), built by
`setup(job)` into a function that answers one task; the parent deals out the tasks (read from an
iterable as jobs are free for them), one at a time to each job, and hands every result to `done` as
it arrives, so that the parent alone writes the results and draws the one progress bar. A job that
dies while on a task (killed, out of memory, a crash in native code) costs that task one attempt: it
is dealt again, to a fresh job, once; when that dies too, `done` gets a `TaskFailed` saying so. A
task that raises comes back as a `TaskFailed` at once (it would raise again). So every task ends
exactly once: none lost, none duplicated.

`share_cores` splits the machine between the jobs: llama.cpp threads, page workers and torch
threads of cores // N each (unless set); the servers of `llm.base_url` are rotated so that each job
starts at its own.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import traceback
from collections import Counter, deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Generic, Iterable, TypeVar

from loguru import logger

from models.config import CragConfig

T = TypeVar("T")
R = TypeVar("R")

# How often a task is dealt again after the job running it died.
RETRIES_AFTER_DEATH = 1


@dataclass(frozen=True)
class TaskFailed:
    """A task that did not finish: it raised, or the jobs running it died."""

    error: str


class JobsCannotStart(RuntimeError):
    """The jobs die or fail before taking any task (the message says why)."""


def default_jobs() -> int:
    return os.cpu_count() or 1


def share_cores(config: CragConfig, jobs: int, job: int) -> None:
    """Give job `job` of `jobs` its share of the machine, in `config` (what is left automatic there)
    and in this process."""
    cores = max(1, (os.cpu_count() or 1) // jobs)
    config.llm.threads = config.llm.threads or cores
    config.web.workers = config.web.workers or cores
    servers = [url.strip() for url in config.llm.base_url.split(",") if url.strip()]
    if servers:
        turn = job % len(servers)
        config.llm.base_url = ",".join(servers[turn:] + servers[:turn])
    import torch

    torch.set_num_threads(cores)


@dataclass
class _Job:
    index: int
    process: Any  # multiprocessing's SpawnProcess
    connection: Connection
    ready: bool = False
    task: int | None = None  # the number of the task it is on


class _Deal(Generic[T]):
    """The tasks still to deal, by number: those dealt again after a death first, then the next of
    the iterable (read one ahead, so that a long run holds only the tasks in work)."""

    def __init__(self, tasks: Iterable[T]):
        self._fresh = iter(tasks)
        self._again: deque[int] = deque()
        self._numbers = itertools.count()
        self.held: dict[int, T] = {}
        self._ahead = self._pull()

    def _pull(self) -> int | None:
        for task in self._fresh:
            number = next(self._numbers)
            self.held[number] = task
            return number
        return None

    def __bool__(self) -> bool:
        return bool(self._again) or self._ahead is not None

    def take(self) -> int:
        if self._again:
            return self._again.popleft()
        number, self._ahead = self._ahead, self._pull()
        assert number is not None, "take() from an empty deal"
        return number

    def again(self, number: int) -> None:
        self._again.appendleft(number)


def run_jobs(
    tasks: Iterable[T],
    jobs: int,
    setup: Callable[[int], Callable[[T], R]],
    done: Callable[[T, R | TaskFailed], None],
) -> None:
    """Run every task in one of `jobs` processes; `done(task, result)` in this process as each ends.
    `setup` must pickle (a module-level function, or a functools.partial of one)."""
    deal = _Deal(tasks)
    if not deal:
        return
    context = multiprocessing.get_context("spawn")
    deaths: Counter[int] = Counter()
    running: list[_Job] = []
    failed_starts = 0

    def start(index: int) -> None:
        ours, theirs = context.Pipe()
        process = context.Process(
            target=_serve, args=(setup, index, theirs), name=f"job-{index}", daemon=True
        )
        process.start()
        theirs.close()
        running.append(_Job(index, process, ours))

    def end(number: int, result: Any) -> None:
        done(deal.held.pop(number), result)

    def finish(job: _Job) -> None:
        """The job ended (its pipe closed, or its process exited)."""
        nonlocal failed_starts
        running.remove(job)
        job.connection.close()
        job.process.join(timeout=5)
        reason = _death(job.process.exitcode)
        if job.task is not None:
            deaths[job.task] += 1
            if deaths[job.task] > RETRIES_AFTER_DEATH:
                logger.error(
                    f"job {job.index} {reason} on task {job.task}, as did the one before: recorded as failed"
                )
                end(job.task, TaskFailed(f"its job {reason}, twice"))
            else:
                logger.warning(f"job {job.index} {reason} on task {job.task}; dealing it again")
                deal.again(job.task)
        elif not job.ready:
            failed_starts += 1
            if failed_starts > jobs:
                raise JobsCannotStart(f"the jobs die before they start (the last {reason})")
        if deal and len(running) < jobs:
            start(job.index)

    try:
        for index in range(jobs):
            start(index)
        while running:
            for job in running:
                if job.ready and job.task is None and deal:
                    job.task = deal.take()
                    job.connection.send((job.task, deal.held[job.task]))
            if not deal and all(job.ready and job.task is None for job in running):
                break
            ready = wait([job.connection for job in running] + [job.process.sentinel for job in running])
            for job in list(running):
                if job.connection in ready:
                    try:
                        message = job.connection.recv()
                    except (EOFError, OSError):
                        finish(job)
                        continue
                    _receive(job, message, end)
                elif job.process.sentinel in ready:
                    finish(job)
    finally:
        for job in running:
            try:
                job.connection.send(None)
            except OSError:
                pass
        for job in running:
            job.process.join(timeout=10)
            if job.process.is_alive():
                job.process.kill()
                job.process.join()
            job.connection.close()


def _receive(job: _Job, message: tuple[Any, ...], end: Callable[[int, Any], None]) -> None:
    kind = message[0]
    if kind == "ready":
        job.ready = True
    elif kind == "setup failed":
        raise JobsCannotStart(f"job {job.index} could not start: {message[1]}")
    else:
        _, task, result = message
        job.task = None
        end(task, TaskFailed(result) if kind == "raised" else result)


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        return f"was killed by {signal.Signals(-exitcode).name}"
    return f"exited with code {exitcode}"


def _serve(setup: Callable[[int], Callable[[Any], Any]], index: int, connection: Connection) -> None:
    """The job's side: set up once, then answer tasks until told to stop."""
    os.environ["TQDM_DISABLE"] = "1"  # the parent draws the one progress bar
    try:
        answer = setup(index)
    except Exception as error:  # noqa: BLE001 - reported to the parent, which stops the run
        connection.send(("setup failed", f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=3)}"))
        return
    connection.send(("ready",))
    while (message := connection.recv()) is not None:
        task, payload = message
        try:
            result = answer(payload)
        except Exception as error:  # noqa: BLE001 - the parent records it against the task
            connection.send(("raised", task, f"{type(error).__name__}: {error}"))
            continue
        connection.send(("done", task, result))

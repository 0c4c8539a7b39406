"""One page-extraction worker process (started by pool.py); talks over two pipes.

Protocol: receives a pickled WebConfig, answers "ready", then receives (key, work) messages and
answers (key, page, is_final) for each: a page whose fast result still needs a slow fallback gets
a provisional answer first, so the pool can keep it if the fallback is killed. None stops it.
"""

from __future__ import annotations

import importlib
import pickle
import sys
from multiprocessing.connection import Connection

from models.config import WebConfig
from models.web.fallback_chain import FallbackJob, fast_extract, run_fallback
from models.web.page import Page


def serve(tasks: Connection, results: Connection, config: WebConfig) -> None:
    results.send("ready")
    while True:
        try:
            message = tasks.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        key, work = message
        try:
            job: FallbackJob | None
            if isinstance(work, FallbackJob):
                job = work
            else:
                page, job = fast_extract(work[0], work[1], config)
                results.send((key, page, job is None))
            if job is not None:
                results.send((key, run_fallback(job, config), True))
        except Exception as exc:  # noqa: BLE001 - one page's failure must not end the worker
            name = work.page_name if isinstance(work, FallbackJob) else str(work[1])
            results.send((key, Page(name, error=f"{type(exc).__name__}: {exc}"), True))


def main(argv: list[str]) -> None:
    # The slow fallbacks import these lazily; loading them before "ready" keeps their imports
    # out of the first fallback page's deadline.
    for module in ("lxml.html", "trafilatura", "bs4"):
        importlib.import_module(module)
    tasks = Connection(int(argv[1]), writable=False)
    results = Connection(int(argv[2]), readable=False)
    try:
        config: WebConfig = pickle.loads(tasks.recv_bytes())
        serve(tasks, results, config)
    except (EOFError, BrokenPipeError):
        return  # the pool closed before it needed this worker (a system closed while warming up)


if __name__ == "__main__":
    main(sys.argv)

"""A local stand-in for the CRAG mock KG API: the same 38 POST routes and `{"result": ...}` bodies,
served from the fixture knowledge graph.

    python -m kg_mock.server --port 8000 [--host 127.0.0.1] [--fixture path.json]

Bad requests get a 4xx with a message naming the problem; `GET /` is the health check.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import httpx

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from loguru import logger

from kg_mock.store import FIXTURE_PATH, FixtureStore
from models.kg.routes import ROUTES, CallValidationError, Route, validate_body


def create_app(store: FixtureStore) -> FastAPI:
    app = FastAPI(title="CRAG mock KG API (fixture)")

    @app.get("/")
    def health() -> dict[str, str]:
        return {"status": "ok", "routes": str(len(ROUTES))}

    for route in ROUTES.values():
        app.add_api_route(route.path, _endpoint(route, store), methods=["POST"], name=route.name)
    return app


def _endpoint(route: Route, store: FixtureStore):
    async def endpoint(request: Request) -> JSONResponse:
        raw = await request.body()
        body = None
        if raw.strip():
            try:
                body = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as error:
                return JSONResponse({"detail": f"{route.name}: the body is not valid JSON ({error})"}, status_code=400)
        if not route.takes_body:
            body = None
        try:
            clean = validate_body(route, body)
        except CallValidationError as error:
            return JSONResponse({"detail": str(error)}, status_code=422)
        return JSONResponse({"result": store.answer(route.name, clean)})

    return endpoint


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def _die_with_parent() -> None:
    """Linux: the server gets SIGTERM when the process that started it dies, even by a crash."""
    import ctypes
    import signal

    set_parent_death_signal = 1  # PR_SET_PDEATHSIG
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(set_parent_death_signal, signal.SIGTERM)


@contextmanager
def running_server(host: str = "127.0.0.1", port: int | None = None, startup_timeout_s: float = 30.0) -> Iterator[str]:
    """Run this server in a subprocess on a free port; yields its base URL and stops it on exit."""
    port = port or free_port(host)
    url = f"http://{host}:{port}"
    process = subprocess.Popen(
        [sys.executable, "-m", "kg_mock.server", "--host", host, "--port", str(port)],
        cwd=Path(__file__).resolve().parents[1],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=_die_with_parent if sys.platform == "linux" else None,
    )
    try:
        give_up = time.monotonic() + startup_timeout_s
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"mock KG server exited: {process.stderr.read().decode(errors='replace')[-500:]}")
            try:
                if httpx.get(url + "/", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > give_up:
                raise RuntimeError(f"mock KG server did not answer on {url} within {startup_timeout_s:g}s")
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--fixture", type=Path, default=FIXTURE_PATH)
    args = parser.parse_args()
    logger.info(f"Serving the fixture KG {args.fixture} on http://{args.host}:{args.port}")
    uvicorn.run(create_app(FixtureStore(args.fixture)), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"
SHARED_TOKENIZER = REPO_ROOT.parent / "shared" / "tokenizer"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "model: runs the real embedded LLM (slow on CPU)")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data, or a clean skip when this checkout has none."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"{SHARED_DATA} is absent")
    return SHARED_DATA


@pytest.fixture(scope="session")
def embedded_llm():
    """The embedded default model (llama.cpp + packaged Qwen2.5-Coder-1.5B), loaded once per run."""
    from models.config import LLMConfig
    from models.llm import create_backend

    backend = create_backend(LLMConfig())
    yield backend
    backend.close()


@pytest.fixture(scope="session")
def kg_data_dir(tmp_path_factory) -> Path:
    """The fixture KG in the official on-disk layout, built once per test session."""
    from kg_mock.fixture import build

    return build(tmp_path_factory.mktemp("kg_fixture"))


@pytest.fixture(scope="session")
def kg_url(kg_data_dir) -> Iterator[str]:
    """Base URL of the mock KG server on the fixture KG, one subprocess per test session."""
    from kg_mock.server import running_server

    with running_server(data_dir=kg_data_dir) as url:
        yield url


SERVER_START_TIMEOUT_S = 180
SERVER_CONTEXT_TOKENS = 1024


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory) -> str:
    """Base URL of a llama-cpp-python server on a free loopback port, stopped after the session."""
    from models.config import LLMConfig
    from kg_mock.server import free_port
    from models.llm.embedded import embedded_model_path

    config = LLMConfig()
    model = embedded_model_path(config.cache_dir, config)
    port = free_port()
    log_path = tmp_path_factory.mktemp("llama_server") / "server.log"
    command = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", str(SERVER_CONTEXT_TOKENS), "--n_threads", str(os.cpu_count() or 1), "--verbose", "False",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        wait_until_healthy(server, base_url, log_path)
        yield base_url
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def wait_until_healthy(server: subprocess.Popen, base_url: str, log_path: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"llama_cpp.server exited with {server.returncode}:\n{log_path.read_text()[-3000:]}")
        try:
            if httpx.get(f"{base_url}/models", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    pytest.fail(
        f"llama_cpp.server did not answer within {SERVER_START_TIMEOUT_S}s:\n{log_path.read_text()[-3000:]}"
    )


class _Behaviour(BaseHTTPRequestHandler):
    respond: Callable[[_Behaviour], None]

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length") or 0))
        type(self).respond(self)

    def do_GET(self):
        type(self).respond(self)

    def log_message(self, *args):
        pass

    def send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture()
def broken_api():
    """Starts loopback HTTP servers whose every request (GET or POST) is answered by the given function."""
    servers = []

    def start(respond: Callable[[_Behaviour], None]) -> str:
        handler = type("Handler", (_Behaviour,), {"respond": staticmethod(respond)})
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()

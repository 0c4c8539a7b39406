"""A local stand-in for the official CRAG mock KG API, behaving like it route by route
(../shared/docs/CRAG_MOCK_API.md) and reading a data directory in the official on-disk formats.

    python -m kg_mock.server [--data-dir DIR] [--port 8000] [--host 127.0.0.1] [--delay-s 0.25]

The data directory defaults to env `KG_BASE_DIRECTORY`, else `cragkg`; build one with
`python -m kg_mock.fixture DIR`. `--delay-s` (or env `KG_MOCK_DELAY_S`) adds a blocking pause to every
data call, to stand in for a real-size KG in benchmarks. As officially, every handler is `async` and
does its work on the event loop, so requests are served one at a time.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import httpx
import uvicorn
from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from loguru import logger
from pydantic import BaseModel, BeforeValidator
from pydantic_core import PydanticCustomError

from kg_mock.store import KnowledgeGraph

DEFAULT_DATA_DIR = "cragkg"
_ERROR_URL = "https://errors.pydantic.dev/2.5/v/{kind}"  # the official server runs pydantic 2.5.3


class QueryRequest(BaseModel):
    query: str


# pydantic 2.5.3's lax int parsing of a string: ASCII digits with single underscores between them, or
# digits with a "." and only zeros after it ("7001.", "7001.00"); at most 4300 characters in all.
_INT_STRING = re.compile(r"[+-]?(?:[0-9]+(?:_[0-9]+)*|[0-9]+\.0*)")
_MAX_INT_STRING = 4300


def _int_as_pydantic_253(value: Any) -> Any:
    """Int coercion of a string as the official server's pydantic 2.5.3 does it, where later versions
    differ (2.11 refuses "7001." but takes "0-7001", "1_000.0" and " 7001"; over 4300 characters
    2.5.3 answers `int_parsing_size` whatever they hold). Other values go on to pydantic's own int
    validation, which agrees."""
    if isinstance(value, str):
        if len(value) > _MAX_INT_STRING:
            raise PydanticCustomError(
                "int_parsing_size", "Unable to parse input string as an integer, exceeded maximum size"
            )
        if not _INT_STRING.fullmatch(value):
            raise PydanticCustomError(
                "int_parsing", "Input should be a valid integer, unable to parse string as an integer"
            )
        return int(value.split(".")[0].replace("_", ""))
    return value


LaxInt = Annotated[int, BeforeValidator(_int_as_pydantic_253)]


class IntQueryRequest(BaseModel):
    query: LaxInt


class RankRequest(BaseModel):
    rank: LaxInt
    date: str | None = None


class BillboardRequest(BaseModel):
    date: str
    attribute: str
    song_name: str


class GamesRequest(BaseModel):
    date: str
    team_name: str | None = None


class GameIdsRequest(BaseModel):
    game_ids: list[str]


# The finance routes whose query is a ticker.
FINANCE_TICKER_ROUTES = (
    "get_price_history",
    "get_detailed_price_history",
    "get_dividends_history",
    "get_market_capitalization",
    "get_eps",
    "get_pe_ratio",
    "get_info",
)


def _routes(kg: KnowledgeGraph) -> list[tuple[str, type[BaseModel] | None, Callable[..., Any]]]:
    """(path, request model, lookup) for the 38 data routes; the lookup takes the model's fields."""
    open_, movie, finance, music, sports = kg.open, kg.movie, kg.finance, kg.music, kg.sports
    routes: list[tuple[str, type[BaseModel] | None, Callable[..., Any]]] = [
        ("/open/search_entity_by_name", QueryRequest, open_.search_entity_by_name),
        ("/open/get_entity", QueryRequest, open_.get_entity),
        ("/movie/get_person_info", QueryRequest, movie.get_person_info),
        ("/movie/get_movie_info", QueryRequest, movie.get_movie_info),
        ("/movie/get_year_info", QueryRequest, movie.get_year_info),
        ("/movie/get_movie_info_by_id", IntQueryRequest, movie.get_movie_info_by_id),
        ("/movie/get_person_info_by_id", IntQueryRequest, movie.get_person_info_by_id),
    ]
    for name in ("get_company_name", "get_ticker_by_name", *FINANCE_TICKER_ROUTES):
        routes.append((f"/finance/{name}", QueryRequest, getattr(finance, name)))
    routes += [
        ("/music/search_artist_entity_by_name", QueryRequest, music.search_artist_entity_by_name),
        ("/music/search_song_entity_by_name", QueryRequest, music.search_song_entity_by_name),
        ("/music/get_billboard_rank_date", RankRequest, music.get_billboard_rank_date),
        ("/music/get_billboard_attributes", BillboardRequest, music.get_billboard_attributes),
        ("/music/grammy_get_all_awarded_artists", None, music.grammy_get_all_awarded_artists),
    ]
    for name in (
        "grammy_get_best_artist_by_year",
        "grammy_get_best_song_by_year",
        "grammy_get_best_album_by_year",
    ):
        routes.append((f"/music/{name}", IntQueryRequest, getattr(music, name)))
    for name in (
        "grammy_get_award_count_by_artist",
        "grammy_get_award_count_by_song",
        "grammy_get_award_date_by_artist",
        "get_artist_birth_place",
        "get_artist_birth_date",
        "get_members",
        "get_lifespan",
        "get_song_author",
        "get_song_release_country",
        "get_song_release_date",
        "get_artist_all_works",
    ):
        routes.append((f"/music/{name}", QueryRequest, getattr(music, name)))
    routes += [
        ("/sports/soccer/get_games_on_date", GamesRequest, _null_on_error(sports.soccer_get_games_on_date)),
        ("/sports/nba/get_games_on_date", GamesRequest, _null_on_error(sports.nba_get_games_on_date)),
        (
            "/sports/nba/get_play_by_play_data_by_game_ids",
            GameIdsRequest,
            _null_on_error(sports.nba_get_play_by_play_data_by_game_ids),
        ),
    ]
    return routes


def _null_on_error(lookup: Callable[..., Any]) -> Callable[..., Any]:
    """The official sports routes turn every exception into a null result."""

    def guarded(**arguments: Any) -> Any:
        try:
            return lookup(**arguments)
        except Exception:  # noqa: BLE001 - the official behaviour being reproduced
            return None

    return guarded


def create_app(kg: KnowledgeGraph, delay_s: float = 0.0) -> FastAPI:
    app = FastAPI(title="CRAG mock KG API (local)")

    @app.get("/")
    async def root() -> dict[str, str]:
        return {"message": "The CRAG API service is running"}

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            {"detail": jsonable_encoder([_with_url(item) for item in error.errors()])}, status_code=422
        )

    for path, model, lookup in _routes(kg):
        # No response model: the result goes to json.dumps as it is, so a NaN is a 500 as officially.
        app.add_api_route(path, _endpoint(model, lookup, delay_s), methods=["POST"], response_model=None)
    return app


def _endpoint(
    model: type[BaseModel] | None, lookup: Callable[..., Any], delay_s: float
) -> Callable[..., Any]:
    # Blocking on purpose (time.sleep and the lookup run on the event loop): one request at a time.
    if model is None:

        async def endpoint_without_body() -> dict[str, Any]:
            time.sleep(delay_s)  # noqa: ASYNC251 - blocking on purpose
            return {"result": lookup()}

        return endpoint_without_body

    async def endpoint(request: model) -> dict[str, Any]:  # type: ignore[valid-type]
        time.sleep(delay_s)  # noqa: ASYNC251 - blocking on purpose
        return {"result": lookup(**request.model_dump())}

    endpoint.__annotations__["request"] = model  # FastAPI reads the body model from the annotation
    return endpoint


def _with_url(error: dict[str, Any]) -> dict[str, Any]:
    """pydantic's error object as the official server sends it: its FastAPI keeps pydantic's `url`,
    which names the official server's pydantic version."""
    error = {key: value for key, value in error.items() if key != "url"}
    if error.get("type") != "json_invalid":
        error["url"] = _ERROR_URL.format(kind=error["type"])
    if "ctx" in error:
        error["ctx"] = {
            key: str(value) if isinstance(value, Exception) else value for key, value in error["ctx"].items()
        }
    return error


# --- running it -------------------------------------------------------------------------------------


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
def running_server(
    host: str = "127.0.0.1",
    port: int | None = None,
    startup_timeout_s: float = 60.0,
    data_dir: Path | None = None,
    delay_s: float = 0.0,
) -> Iterator[str]:
    """Run this server in a subprocess on a free port; yields its base URL and stops it on exit.
    `data_dir` defaults to the fixture KG (built once into a cache directory)."""
    if data_dir is None:
        from kg_mock.fixture import cached_fixture_dir

        data_dir = cached_fixture_dir()
    port = port or free_port(host)
    url = f"http://{host}:{port}"
    command = [
        sys.executable,
        "-m",
        "kg_mock.server",
        "--host",
        host,
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        "--delay-s",
        str(delay_s),
    ]
    # The log goes to a file, not a pipe nobody reads: tracebacks of HTTP 500s must not fill a pipe.
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command,
            cwd=Path(__file__).resolve().parents[1],
            stdout=subprocess.DEVNULL,
            stderr=log,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        try:
            wait_until_up(process, url, startup_timeout_s, log)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_until_up(process: subprocess.Popen, url: str, timeout_s: float, log: Any) -> None:
    """Until the server `process` started answers `GET /` on `url`; raises, with the end of its
    `log`, when it exits or stays silent for `timeout_s`."""
    give_up = time.monotonic() + timeout_s
    while True:
        if process.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"mock KG server exited: {log.read().decode(errors='replace')[-2000:]}")
        try:
            if httpx.get(url + "/", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > give_up:
            raise RuntimeError(f"mock KG server did not answer on {url} within {timeout_s:g}s")
        time.sleep(0.1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--data-dir", type=Path, default=Path(os.getenv("KG_BASE_DIRECTORY", DEFAULT_DATA_DIR))
    )
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--delay-s", type=float, default=float(os.getenv("KG_MOCK_DELAY_S", "0")))
    args = parser.parse_args(argv)
    make_one = (
        "build one with `python -m kg_mock.fixture DIR`, or point --data-dir (or env KG_BASE_DIRECTORY) "
        "at the official KG data"
    )
    if not args.data_dir.is_dir():
        raise SystemExit(f"No KG data folder {args.data_dir.resolve()}: {make_one}")
    try:
        kg = KnowledgeGraph(args.data_dir)
    except FileNotFoundError as error:
        raise SystemExit(
            f"The KG data folder {args.data_dir.resolve()} lacks {error.filename}: {make_one}"
        ) from None
    logger.info(
        f"Serving the KG in {args.data_dir} on http://{args.host}:{args.port} ({args.delay_s:g} s per call)"
    )
    uvicorn.run(create_app(kg, args.delay_s), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()

"""The reply cache options every benchmark that runs the LLM shares (models/llm/reply_cache.py).

A benchmark keeps the model's replies by default, in `$CRAG_CACHE_DIR/replies.sqlite` (the presets
have the cache off): a rerun after an edit that changes no request asks the model nothing again.

Not a script: the benchmarks that run the LLM import it.
"""

from __future__ import annotations

import argparse

from models.config import default_cache_dir

FILE_NAME = "replies.sqlite"


def add_reply_cache_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--reply-cache",
        metavar="PATH",
        default=None,
        help=f"the reply cache file (default: $CRAG_CACHE_DIR/{FILE_NAME}, else ~/.cache/crag/{FILE_NAME})",
    )
    group.add_argument("--no-reply-cache", action="store_true", help="ask the model every request afresh")


def reply_cache_override(args: argparse.Namespace) -> dict[str, str]:
    """The `llm.reply_cache` setting the options ask for."""
    if args.no_reply_cache:
        return {"llm.reply_cache": "none"}
    return {"llm.reply_cache": args.reply_cache or str(default_cache_dir() / FILE_NAME)}

"""Pages and embeddings a retrieval benchmark reads many times, kept on disk between runs.

A Task-3-shaped run gives every page to several questions, and a cross-validated one runs every
setting on every question: each distinct page is extracted once (ours: `PageExtractor`; the
baseline's: `html_sentences`) and each distinct text embedded once, here, and a rerun reads them
back (`--cache`). Keys hold what decides the value: the page's name and HTML and the configuration
that read it; the text and the encoder's name.

Not a script: benchmarks/retrieval.py imports it.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from loguru import logger

from models.config import RetrievalConfig, WebConfig
from models.retrieval.baseline import html_sentences
from models.schema import SearchResult
from models.web import Page, PageExtractor

from models.web.stage import PageKey


def digest(*parts: str) -> str:
    hashed = hashlib.sha256()
    for part in parts:
        hashed.update(part.encode("utf-8", errors="surrogatepass"))
        hashed.update(b"\0")
    return hashed.hexdigest()


class _Shelf:
    """A dict kept in one pickle file (None: in memory only)."""

    def __init__(self, path: Path | None):
        self.path = path
        self.values: dict[str, Any] = {}
        self.dirty = False
        if path is not None and path.is_file():
            with path.open("rb") as stream:
                self.values = pickle.load(stream)

    def get_many(self, keys: Sequence[str], compute: Callable[[list[str]], list[Any]]) -> list[Any]:
        missing = [key for key in dict.fromkeys(keys) if key not in self.values]
        if missing:
            self.values.update(zip(missing, compute(missing)))
            self.dirty = True
        return [self.values[key] for key in keys]

    def save(self) -> None:
        if self.path is None or not self.dirty:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        with temporary.open("wb") as stream:
            pickle.dump(self.values, stream, protocol=pickle.HIGHEST_PROTOCOL)
        temporary.replace(self.path)
        self.dirty = False


class PageStore:
    """Every distinct page read once, ours and the baseline's way (on disk under `folder` when given)."""

    def __init__(
        self, extractor: PageExtractor, web: WebConfig, retrieval: RetrievalConfig, folder: Path | None
    ):
        self.extractor = extractor
        self.sentence_max_chars = retrieval.baseline_sentence_max_chars
        web_version = digest(repr(web))[:12]
        self._pages = _Shelf(folder / f"pages-{web_version}.pkl" if folder else None)
        self._sentences = _Shelf(
            folder / f"baseline-sentences-{self.sentence_max_chars}.pkl" if folder else None
        )

    @staticmethod
    def key(result: SearchResult) -> PageKey:
        return (result.page_name, result.page_result)

    def pages(self, keys: Sequence[PageKey]) -> list[Page]:
        """Our extraction of each page (extracted together when missing: the pool runs them in parallel)."""
        by_digest = {digest(*key): key for key in keys}

        def extract(missing: list[str]) -> list[Page]:
            logger.info(f"extracting {len(missing)} pages")
            return self.extractor.extract_all([by_digest[d] for d in missing])

        return self._pages.get_many([digest(*key) for key in keys], extract)

    def sentences(self, keys: Sequence[PageKey]) -> list[list[str]]:
        """The baseline's sentences of each page (`html_sentences`)."""
        by_digest = {digest(*key): key for key in keys}

        def read(missing: list[str]) -> list[list[str]]:
            logger.info(f"reading {len(missing)} pages the baseline's way")
            return [html_sentences(by_digest[d][1], self.sentence_max_chars) for d in missing]

        return self._sentences.get_many([digest(*key) for key in keys], read)

    def save(self) -> None:
        self._pages.save()
        self._sentences.save()


class CachedEncoder:
    """An encoder remembering each text's vector (on disk under `folder` when given), so that
    runs over the same pages encode only new texts."""

    def __init__(self, encoder: Any, name: str, folder: Path | None):
        self.encoder = encoder
        self._vectors = _Shelf(folder / f"vectors-{digest(name)[:12]}.pkl" if folder else None)

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return self.encoder.encode([])
        keys = [digest(text) for text in texts]
        by_key = dict(zip(keys, texts))
        vectors = self._vectors.get_many(
            keys, lambda missing: list(self.encoder.encode([by_key[k] for k in missing]))
        )
        return np.stack(vectors)

    def save(self) -> None:
        self._vectors.save()

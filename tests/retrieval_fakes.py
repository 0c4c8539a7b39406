"""Stand-ins for retrieval tests: a page with the fields of `models.web.Page`, and a fast encoder."""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field

import numpy as np


@dataclass
class FakePage:
    page_name: str
    chunks: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)


class BagOfWordsEncoder:
    """Hashed bag-of-words vectors (L2-normalised): texts sharing words are similar. Records its calls."""

    dimension = 256

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def encode(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        vectors = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                vectors[row, zlib.crc32(word.encode()) % self.dimension] += 1.0
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1.0, norms)

"""Matching names from a question to the names the KG knows: company -> ticker, fuzzy search hits."""

from __future__ import annotations

import csv
import difflib
import re
from pathlib import Path

from loguru import logger


# Words that name a share class or legal form, not the company.
_COMPANY_NOISE = re.compile(
    r"\b(common stock|ordinary shares?|class [a-z]|american depositary shares?|depositary shares?|"
    r"inc|incorporated|corp|corporation|co|company|ltd|limited|plc|holdings?|group|the|sa|ag|nv|llc|lp)\b"
)


def normalize_name(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def name_score(query: str, candidate: str) -> float:
    """Similarity of two names in [0, 1]: token overlap, or the character ratio when higher."""
    left, right = normalize_name(query), normalize_name(candidate)
    if not left or not right:
        return 0.0
    left_tokens, right_tokens = set(left.split()), set(right.split())
    overlap = len(left_tokens & right_tokens) / len(left_tokens | right_tokens)
    return max(overlap, difflib.SequenceMatcher(None, left, right).ratio())


def company_key(name: str) -> str:
    return " ".join(_COMPANY_NOISE.sub(" ", normalize_name(name)).split())


def best_match(query: str, candidates: list[str], min_similarity: float) -> str | None:
    """The candidate most similar to `query`, if similar enough."""
    scored = [(name_score(query, candidate), candidate) for candidate in candidates if isinstance(candidate, str)]
    if not scored:
        return None
    score, candidate = max(scored, key=lambda item: item[0])
    return candidate if score >= min_similarity else None


class CompanyDirectory:
    """The name -> ticker table of ../shared/data/company_name.dict, when present (else empty)."""

    def __init__(self, path: str | Path, min_similarity: float):
        self.min_similarity = min_similarity
        self.by_key: dict[str, str] = {}
        self.tickers: set[str] = set()
        self._keys: list[str] = []
        path = Path(path)
        if not path.is_file():
            logger.info(f"Company table {path} absent; tickers come from the KG API only")
            return
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                name, symbol = (row.get("Name") or "").strip(), (row.get("Symbol") or "").strip()
                key = company_key(name)
                if key and symbol:
                    self.by_key.setdefault(key, symbol)
        self.tickers = set(self.by_key.values())
        self._keys = list(self.by_key)

    def ticker(self, company: str, fuzzy: bool = False) -> str | None:
        """The ticker of `company` by exact (normalised) name, or by the closest name when `fuzzy`."""
        key = company_key(company)
        if not key:
            return None
        if key in self.by_key:
            return self.by_key[key]
        if not fuzzy:
            return None
        close = difflib.get_close_matches(key, self._keys, n=1, cutoff=self.min_similarity)
        return self.by_key[close[0]] if close else None

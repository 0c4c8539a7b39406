"""Relations matched by meaning: a question against each relation's descriptions
(models/kg/relations.py), with the sentence encoder (models/embeddings.py; MiniLM on CPU).

The descriptions are embedded once; a batch of questions in one call. A relation's score is the
cosine of the question with its nearest description. The intent reader (models/kg/intent.py) weighs
it against the cue words.
"""

from __future__ import annotations

import numpy as np

from models.embeddings import SentenceEncoder
from models.kg.relations import TABLES, Relation


class RelationMeaning:
    def __init__(self, encoder: SentenceEncoder, tables: dict[str, tuple[Relation, ...]] = TABLES):
        self.encoder = encoder
        self.owners = [
            relation.name for table in tables.values() for relation in table for _ in relation.descriptions
        ]
        self.descriptions = [
            text for table in tables.values() for relation in table for text in relation.descriptions
        ]
        self._vectors: np.ndarray | None = None

    def warm_up(self) -> None:
        """Load the encoder and embed the descriptions (once)."""
        if self._vectors is None:
            self._vectors = self.encoder.encode(self.descriptions)

    def scores(self, texts: list[str]) -> list[dict[str, float]]:
        """Per text: relation name -> cosine with its nearest description."""
        if not texts:
            return []
        self.warm_up()
        assert self._vectors is not None
        similarities = self.encoder.encode(texts) @ self._vectors.T
        found: list[dict[str, float]] = []
        for row in similarities:
            best: dict[str, float] = {}
            for owner, value in zip(self.owners, row.tolist()):
                if value > best.get(owner, -1.0):
                    best[owner] = round(float(value), 4)
            found.append(best)
        return found


_SHARED: dict[tuple[str, str], RelationMeaning] = {}


def shared_meaning(name: str, device: str, encoder: SentenceEncoder | None = None) -> RelationMeaning:
    """One scorer per encoder and device in the process (every KG stage of a run shares its model):
    over `encoder` when it is that model, else over an encoder of its own."""
    key = (name, device)
    if key not in _SHARED:
        shared = (
            encoder
            if encoder is not None and encoder.name_or_path == name and encoder.device == device
            else None
        )
        _SHARED[key] = RelationMeaning(shared or SentenceEncoder(name, device))
    return _SHARED[key]

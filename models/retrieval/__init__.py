"""Retrieval and relevance: from a question's pages to the few references worth their tokens."""

from models.retrieval.candidates import PageContent
from models.retrieval.retriever import Retriever

__all__ = ["PageContent", "Retriever"]

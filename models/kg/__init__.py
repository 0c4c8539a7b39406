"""Knowledge-graph evidence from the CRAG mock API (Tasks 2 and 3)."""

from models.kg.stage import KGResult, KnowledgeGraphStage, sources_for

__all__ = ["KGResult", "KnowledgeGraphStage", "sources_for"]

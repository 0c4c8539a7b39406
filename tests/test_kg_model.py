"""The KG stage with the real embedded model reading the questions (slow: marked `model`)."""

import pytest

from models.config import KGConfig
from models.kg import KnowledgeGraphStage
from kg_mock.server import running_server
from models.prompts import PromptLibrary
from models.schema import Question, QuestionAttributes

QUERY_TIME = "03/10/2024, 23:34:42 PT"
CASES = [
    ("Who are the members of the band Halcyon Drift?", "music", "Katla Eiríksdóttir"),
    ("Who directed the movie The Glass Orchard?", "movie", "Marisol Okonkwo-Varga"),
]


@pytest.mark.model
def test_embedded_model_extracts_entities_that_reach_the_kg(embedded_llm, monkeypatch):
    with running_server() as url:
        monkeypatch.setenv("CRAG_MOCK_API_URL", url)
        stage = KnowledgeGraphStage(KGConfig(company_dict_path="/nonexistent"), embedded_llm, PromptLibrary())
        results = stage.run(
            [Question(str(i), query, QUERY_TIME) for i, (query, _, _) in enumerate(CASES)],
            [QuestionAttributes(domain=domain) for _, domain, _ in CASES],
        )
    for (query, _, answer), result in zip(CASES, results):
        assert result.error is None, (query, result.error)  # the constrained JSON parsed
        assert result.usage.calls == 1 and result.usage.completion_tokens > 0
        assert any(answer in reference for reference in result.references), (query, result.calls)

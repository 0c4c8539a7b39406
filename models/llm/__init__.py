"""LLM backends behind one interface; `create_backend` is the only place that imports a concrete one."""

from __future__ import annotations

from models.config import LLMConfig
from models.llm.base import Completion, Conversation, GenerationParams, LLMBackend, Message, TokenUsage

__all__ = [
    "Completion",
    "Conversation",
    "GenerationParams",
    "LLMBackend",
    "Message",
    "TokenUsage",
    "create_backend",
    "with_reply_cache",
]


def create_backend(config: LLMConfig) -> LLMBackend:
    """The backend `config.backend` names, importing only its own dependencies, behind the reply
    cache when `config.reply_cache` names one."""
    return with_reply_cache(_engine_backend(config), config)


def with_reply_cache(backend: LLMBackend, config: LLMConfig) -> LLMBackend:
    """`backend` behind the reply cache `config.reply_cache` names (itself when it names none)."""
    if config.reply_cache is None:
        return backend
    from models.llm.reply_cache import CachedBackend, ReplyStore

    return CachedBackend(backend, ReplyStore(config.reply_cache))


def _engine_backend(config: LLMConfig) -> LLMBackend:
    if config.backend == "llamacpp":
        from models.llm.llamacpp_backend import LlamaCppBackend

        return LlamaCppBackend(config)
    if config.backend == "openai":
        from models.llm.openai_backend import OpenAIBackend

        return OpenAIBackend(config)
    if config.backend == "vllm":
        from models.llm.vllm_backend import VLLMBackend

        return VLLMBackend(config)
    raise ValueError(f"Unknown LLM backend {config.backend!r}; choose llamacpp, openai or vllm")

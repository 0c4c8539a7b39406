"""llama-cpp-python's OpenAI-compatible server (`python -m llama_cpp.server`), with its model's KV
cache reused only up to whole evaluation chunks, as the llamacpp backend does it.

As shipped, the server reuses the cache up to wherever a request's prompt differs from the previous
one, so a reply depends on the request before it (models/README.md, "The reply cache"); two servers
could then not answer like one. Same arguments as `python -m llama_cpp.server`.
"""

from __future__ import annotations

import llama_cpp
from llama_cpp.server.__main__ import main

from models.llm.llamacpp_backend import ChunkAlignedLlama

if __name__ == "__main__":
    llama_cpp.Llama = ChunkAlignedLlama  # type: ignore[misc]  # the server builds its model from this name
    main()

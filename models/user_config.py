"""The entry point the CRAG evaluator imports: it instantiates `UserModel()`.

The preset comes from env `CRAG_PRESET` (the GPU image sets `t4x4`), else `cpu`.
"""

from __future__ import annotations

from models.config import CragConfig
from models.crag_system import CragSystem
from models.llm.base import LLMBackend


class UserModel(CragSystem):
    """The whole system, built and loaded: the evaluator only constructs it, so everything heavy
    loads here, before the first batch and outside any batch's time budget."""

    def __init__(
        self, config: CragConfig | None = None, llm: LLMBackend | None = None, load_llm: bool = True
    ):
        super().__init__(config, llm, load_llm)
        self.warm_up()

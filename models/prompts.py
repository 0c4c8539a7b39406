"""Prompt templates live in `prompts/<name>.txt`, never in code.

A template file has a `[system]` section and a `[user]` section; placeholders are `${name}`
(Python `string.Template`), so JSON braces in a prompt need no escaping; a literal dollar sign is `$$`.
Lines between `[if name]` and `[end]` (each on a line of its own) are kept only when the value
`name` is given and not None, so a prompt names only the inputs a question has.
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from models.config import PROMPTS_DIR
from models.llm.base import Conversation

_SECTION = re.compile(r"^\[(system|user)\]\s*$", re.MULTILINE)
_OPTIONAL = re.compile(r"^\[if (\w+)\]\n(.*?)^\[end\]\n?", re.MULTILINE | re.DOTALL)


class PromptLibrary:
    def __init__(self, directory: str | Path = PROMPTS_DIR):
        self.directory = Path(directory)
        self._templates: dict[str, dict[str, Template]] = {}

    def conversation(self, name: str, **values: object) -> Conversation:
        """The chat messages of template `name` with `values` filled in."""
        sections = self._load(name)
        given = {key: str(value) for key, value in values.items() if value is not None}

        def optional(block: re.Match[str]) -> str:
            return block.group(2) if block.group(1) in given else ""

        try:
            return [
                {
                    "role": role,
                    "content": Template(_OPTIONAL.sub(optional, template.template)).substitute(given),
                }
                for role, template in sections.items()
            ]
        except KeyError as missing:
            raise ValueError(f"Prompt {name!r} needs a value for {missing}") from None

    def _load(self, name: str) -> dict[str, Template]:
        if name not in self._templates:
            path = self.directory / f"{name}.txt"
            if not path.is_file():
                raise FileNotFoundError(
                    f"Prompt template {path} is missing; every prompt lives in {self.directory}/"
                )
            self._templates[name] = parse_template(path.read_text(encoding="utf-8"), path)
        return self._templates[name]


def parse_template(text: str, origin: Path | str = "<string>") -> dict[str, Template]:
    parts = _SECTION.split(text)
    sections = {parts[i]: Template(parts[i + 1].strip()) for i in range(1, len(parts) - 1, 2)}
    if "user" not in sections:
        raise ValueError(f"{origin}: a prompt template needs a [user] section")
    return sections

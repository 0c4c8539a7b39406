"""The official judging flow's inputs, read at run time from the user's CRAG starter-kit checkout.

`--judge official` judges with the starter kit's own instructions, in-context examples and message
layout, which this repository does not copy. `read_kit(kit_dir)` takes them from the two files that
hold them:

- `prompts/templates.py`, imported by path: the strings the kit's system message is made of;
- `local_evaluation.py`, parsed (never imported: importing it loads a tokenizer and the openai client)
  for how it uses them: which template strings `get_system_message()` joins, in which order; the
  f-string of the user message in `evaluate_predictions()` (its fields: the query, the ground truth and
  the prediction); the number of attempts `attempt_api_call()` makes by default, the errors it retries
  (any other ends its attempts) and the `response_format` it asks for.

What the flow does with them (evaluation/judges.py `OfficialJudge`, evaluation/scoring.py): the
prediction is cut to 75 Llama-2 tokens and stripped; a lower-cased prediction containing "i don't know"
is a miss; one equal to the lower-cased, stripped ground truth (the ground truth alone, not the
alternative answers) is correct; every other one goes to the model with the system message and the
user message, with no sampling settings of its own. The reply, lower-cased, must parse as JSON whose
"accuracy" is true or "true"; anything else, an empty reply, or no reply after the attempts counts as
wrong.
"""

from __future__ import annotations

import ast
import hashlib
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LOCAL_EVALUATION = Path("local_evaluation.py")
TEMPLATES = Path("prompts") / "templates.py"
# The fields of the kit's user message, and what this project passes for each.
MESSAGE_FIELDS = frozenset({"query", "ground_truth", "prediction"})


class KitUnreadable(RuntimeError):
    """The starter-kit files are missing or do not have the shape this reader knows."""


@dataclass(frozen=True)
class KitJudging:
    system_message: str
    user_message_parts: tuple[str | tuple[str], ...]  # literal text, or (field name,)
    max_attempts: int
    retried_errors: tuple[str, ...]  # openai exception class names the kit retries
    response_format: dict[str, Any]
    source: Path

    def user_message(self, query: str, ground_truth: str, prediction: str) -> str:
        values = {"query": query, "ground_truth": ground_truth, "prediction": prediction}
        return "".join(part if isinstance(part, str) else values[part[0]] for part in self.user_message_parts)

    def messages(self, query: str, ground_truth: str, prediction: str) -> list[dict[str, str]]:
        return [
            {"role": "system", "content": self.system_message},
            {"role": "user", "content": self.user_message(query, ground_truth, prediction)},
        ]

    @property
    def fingerprint(self) -> str:
        """A short hash of everything that shapes the judge's input, for the verdict cache key."""
        material = repr((self.system_message, self.user_message_parts, self.response_format))
        return hashlib.sha256(material.encode("utf-8")).hexdigest()[:12]


def read_kit(kit_dir: str | Path | None) -> KitJudging:
    """The judging inputs of the starter kit checked out at `kit_dir` (see the module docstring)."""
    if kit_dir is None:
        raise KitUnreadable(
            "--judge official reads the judging files of your CRAG starter-kit checkout: pass --kit-dir "
            f"with its folder (the one holding {LOCAL_EVALUATION} and {TEMPLATES})"
        )
    folder = Path(kit_dir)
    missing = [str(folder / name) for name in (LOCAL_EVALUATION, TEMPLATES) if not (folder / name).is_file()]
    if missing:
        raise KitUnreadable(
            f"--kit-dir {folder} is not a CRAG starter-kit checkout: {' and '.join(missing)} missing; pass "
            f"the folder of your checkout of the starter kit (it holds {LOCAL_EVALUATION} and {TEMPLATES})"
        )
    templates = _import_by_path(folder / TEMPLATES)
    tree = ast.parse((folder / LOCAL_EVALUATION).read_text(encoding="utf-8"))
    try:
        functions = {node.name: node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        system_names = _added_names(_returned(functions["get_system_message"]))
        attempts, retried, response_format = _api_call(functions["attempt_api_call"])
        parts = _user_message(functions["evaluate_predictions"])
    except (KeyError, ValueError) as error:
        raise KitUnreadable(
            f"{folder / LOCAL_EVALUATION} does not build its judge messages the way the CRAG starter kit "
            f"does ({error}); pass the folder of an unmodified checkout of the starter kit"
        ) from None
    pieces = [getattr(templates, name, None) for name in system_names]
    if not all(isinstance(piece, str) for piece in pieces):
        raise KitUnreadable(f"{folder / TEMPLATES} lacks the strings {', '.join(system_names)} as text")
    return KitJudging("".join(pieces), parts, attempts, retried, response_format, folder.resolve())


def _import_by_path(path: Path) -> types.ModuleType:
    """The module at `path`, run from its source (nothing is written into the user's checkout)."""
    module = types.ModuleType(f"crag_starter_kit_{path.stem}")
    module.__file__ = str(path)
    try:
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    except Exception as error:  # a broken checkout: say which file
        raise KitUnreadable(f"{path} cannot be imported: {type(error).__name__}: {error}") from None
    return module


def _returned(function: ast.FunctionDef) -> ast.expr:
    returns = [node.value for node in ast.walk(function) if isinstance(node, ast.Return) and node.value]
    if len(returns) != 1:
        raise ValueError(f"{function.name}() should return one expression")
    return returns[0]


def _added_names(expression: ast.expr) -> list[str]:
    """`A + B + C` as ["A", "B", "C"]."""
    if isinstance(expression, ast.Name):
        return [expression.id]
    if isinstance(expression, ast.BinOp) and isinstance(expression.op, ast.Add):
        return _added_names(expression.left) + _added_names(expression.right)
    raise ValueError("the system message should join template strings with +")


def _api_call(function: ast.FunctionDef) -> tuple[int, tuple[str, ...], dict[str, Any]]:
    """attempt_api_call(): its default number of attempts, the errors it retries, its response_format."""
    names = [arg.arg for arg in function.args.args]
    defaults = dict(zip(names[len(names) - len(function.args.defaults) :], function.args.defaults))
    attempts = ast.literal_eval(defaults["max_retries"])
    retried: list[str] = []
    for handler in (node for node in ast.walk(function) if isinstance(node, ast.ExceptHandler)):
        ends = any(isinstance(node, (ast.Break, ast.Return, ast.Raise)) for node in ast.walk(handler))
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if not ends:
            retried += [t.id for t in types if isinstance(t, ast.Name)]
    formats = [
        ast.literal_eval(keyword.value)
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        for keyword in node.keywords
        if keyword.arg == "response_format"
    ]
    if not isinstance(attempts, int) or not retried or len(formats) != 1:
        raise ValueError("attempt_api_call() should retry some errors a default number of times")
    return attempts, tuple(retried), formats[0]


def _user_message(function: ast.FunctionDef) -> tuple[str | tuple[str], ...]:
    """The f-string of the message whose role is "user", as literal text and field names."""
    for node in ast.walk(function):
        if not isinstance(node, ast.Dict):
            continue
        entries = {
            key.value: value for key, value in zip(node.keys, node.values) if isinstance(key, ast.Constant)
        }
        role = entries.get("role")
        if (
            isinstance(role, ast.Constant)
            and role.value == "user"
            and isinstance(entries.get("content"), ast.JoinedStr)
        ):
            return tuple(_message_part(part) for part in entries["content"].values)
    raise ValueError("evaluate_predictions() should build a user message from an f-string")


def _message_part(part: ast.expr) -> str | tuple[str]:
    if isinstance(part, ast.Constant) and isinstance(part.value, str):
        return part.value
    if (
        isinstance(part, ast.FormattedValue)
        and isinstance(part.value, ast.Name)
        and part.value.id in MESSAGE_FIELDS
        and part.conversion == -1
        and part.format_spec is None
    ):
        return (part.value.id,)
    raise ValueError(f"the user message has a field other than {', '.join(sorted(MESSAGE_FIELDS))}")

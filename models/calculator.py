"""Numerical calculator: the LLM writes Python expressions, a safe evaluator computes them.

`safe_eval` never hands model text to `eval`/`exec`/`compile`. It parses with `ast`, checks the whole
tree against a whitelist (literals, arithmetic, comparisons, boolean logic, a few pure functions and
date arithmetic) before computing anything, then interprets the tree itself, checking sizes before
every operation that could grow a number, string or list, and a deadline at every node.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import math
import operator
import re
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from loguru import logger

from models.config import CalculatorConfig
from models.llm.base import GenerationParams, LLMBackend, TokenUsage
from models.prompts import PromptLibrary
from models.replies import find_json
from models.schema import Evidence, Question, StageResult
from models.vocabulary import NUMBER_VALUE


class CalculatorError(ValueError):
    """The expression was refused or could not be computed."""


Number = (int, float)
_SCALARS = (int, float, str, dt.date, dt.timedelta)  # bool is an int; datetime is a date
_SEQUENCES = (list, tuple)

_BINARY_OPERATORS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: pow,
}
_UNARY_OPERATORS: dict[type, Callable[[Any], Any]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
    ast.Not: operator.not_,
}
_COMPARISONS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: operator.contains(b, a),
    ast.NotIn: lambda a, b: not operator.contains(b, a),
}
# Attributes readable on date, datetime and timedelta values, and their zero-argument methods.
_VALUE_ATTRIBUTES = {"days", "seconds", "year", "month", "day", "hour", "minute", "second"}
_VALUE_METHODS = {"total_seconds", "weekday"}
_CONSTANTS = {"pi": math.pi, "e": math.e}
_ALLOWED_NODES = (
    ast.Expression, ast.Constant, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp,
    ast.Call, ast.keyword, ast.Name, ast.Load, ast.Attribute, ast.List, ast.Tuple, ast.Subscript,
    ast.Slice, ast.And, ast.Or,
    *_BINARY_OPERATORS, *_UNARY_OPERATORS, *_COMPARISONS,
)  # fmt: skip


def safe_eval(expression: str, limits: CalculatorConfig | None = None) -> Any:
    """The value of a whitelisted Python expression; `CalculatorError` for anything refused."""
    return _Evaluator(limits or CalculatorConfig()).evaluate(expression)


class _Evaluator:
    def __init__(self, limits: CalculatorConfig):
        self.limits = limits
        self.deadline = 0.0
        self.functions = self._function_table()

    def evaluate(self, expression: str) -> Any:
        if not isinstance(expression, str):
            raise CalculatorError("the expression must be a string")
        expression = expression.strip()
        if not expression:
            raise CalculatorError("empty expression")
        if len(expression) > self.limits.max_expression_chars:
            raise CalculatorError(f"expression longer than {self.limits.max_expression_chars} characters")
        try:
            tree = ast.parse(expression, mode="eval")
        except (SyntaxError, ValueError, MemoryError, RecursionError) as error:
            raise CalculatorError(f"not a Python expression: {error}") from None
        self._validate(tree)
        self.deadline = time.monotonic() + self.limits.max_eval_seconds
        try:
            value = self._eval(tree.body)
        except CalculatorError:
            raise
        except (ArithmeticError, TypeError, ValueError, IndexError, KeyError, RecursionError) as error:
            raise CalculatorError(f"{type(error).__name__}: {error}") from None
        return self._check(value)

    # Checks on the tree, before anything is computed.

    def _validate(self, tree: ast.AST) -> None:
        nodes = list(ast.walk(tree))
        if len(nodes) > self.limits.max_ast_nodes:
            raise CalculatorError(f"expression has more than {self.limits.max_ast_nodes} syntax nodes")
        if _depth(tree, self.limits.max_nesting_depth) > self.limits.max_nesting_depth:
            raise CalculatorError(f"expression nested deeper than {self.limits.max_nesting_depth}")
        for node in nodes:
            if not isinstance(node, _ALLOWED_NODES):
                raise CalculatorError(f"{type(node).__name__} is not allowed")
            if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, str)):
                raise CalculatorError(f"constant {node.value!r} is not allowed")
            if isinstance(node, ast.Name) and node.id not in _CONSTANTS and node.id not in self.functions:
                if not any(key.startswith(node.id + ".") for key in self.functions):
                    raise CalculatorError(f"name {node.id!r} is not allowed")
            if isinstance(node, ast.Attribute):
                self._validate_attribute(node)
            if isinstance(node, ast.Call):
                self._validate_call(node)

    def _validate_attribute(self, node: ast.Attribute) -> None:
        if node.attr.startswith("_"):
            raise CalculatorError(f"attribute {node.attr!r} is not allowed")
        dotted = _dotted_name(node)
        if dotted is not None and (dotted in self.functions or _is_prefix(dotted, self.functions)):
            return
        if node.attr not in _VALUE_ATTRIBUTES | _VALUE_METHODS:
            raise CalculatorError(f"attribute {node.attr!r} is not allowed")

    def _validate_call(self, node: ast.Call) -> None:
        dotted = _dotted_name(node.func)
        is_method = isinstance(node.func, ast.Attribute) and node.func.attr in _VALUE_METHODS
        if dotted not in self.functions and not is_method:
            raise CalculatorError(f"calling {ast.unparse(node.func)!r} is not allowed")
        if any(isinstance(argument, ast.Starred) for argument in node.args):
            raise CalculatorError("starred arguments are not allowed")
        allowed_keywords = _KEYWORDS.get(dotted.rsplit(".", 1)[-1] if dotted else "", set())
        for keyword in node.keywords:
            if keyword.arg is None or keyword.arg not in allowed_keywords:
                raise CalculatorError(f"keyword argument {keyword.arg!r} is not allowed here")

    # The interpreter.

    def _eval(self, node: ast.AST) -> Any:
        if time.monotonic() > self.deadline:
            raise CalculatorError(f"evaluation took longer than {self.limits.max_eval_seconds} s")
        if isinstance(node, ast.Constant):
            return self._check(node.value)
        if isinstance(node, ast.Name):
            if node.id in _CONSTANTS:
                return _CONSTANTS[node.id]
            raise CalculatorError(f"{node.id!r} is a function, not a value")
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self._eval(element) for element in node.elts]
            return self._check(items if isinstance(node, ast.List) else tuple(items))
        if isinstance(node, ast.BinOp):
            return self._binary(node.op, self._eval(node.left), self._eval(node.right))
        if isinstance(node, ast.UnaryOp):
            return self._check(_UNARY_OPERATORS[type(node.op)](self._eval(node.operand)))
        if isinstance(node, ast.BoolOp):
            value = self._eval(node.values[0])
            for operand in node.values[1:]:
                if isinstance(node.op, ast.And) != bool(value):
                    break
                value = self._eval(operand)
            return value
        if isinstance(node, ast.Compare):
            left = self._eval(node.left)
            for op, right_node in zip(node.ops, node.comparators):
                right = self._eval(right_node)
                if not _COMPARISONS[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return self._eval(node.body) if self._eval(node.test) else self._eval(node.orelse)
        if isinstance(node, ast.Subscript):
            return self._subscript(self._eval(node.value), node.slice)
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        raise CalculatorError(f"{type(node).__name__} is not allowed")

    def _binary(self, op: ast.operator, left: Any, right: Any) -> Any:
        if isinstance(op, ast.Pow):
            return self._power(left, right)
        if isinstance(op, ast.Mult):
            self._check_repetition(left, right)
            self._check_repetition(right, left)
        if isinstance(op, ast.Mod) and not (isinstance(left, Number) and isinstance(right, Number)):
            raise CalculatorError("% is allowed between numbers only")
        return self._check(_BINARY_OPERATORS[type(op)](left, right))

    def _check_repetition(self, sequence: Any, count: Any) -> None:
        if isinstance(sequence, (str, *_SEQUENCES)) and isinstance(count, int):
            is_text = isinstance(sequence, str)
            limit = self.limits.max_string_length if is_text else self.limits.max_sequence_length
            if len(sequence) * max(count, 0) > limit:
                raise CalculatorError(f"repetition longer than {limit}")

    def _power(self, base: Any, exponent: Any, *modulus: Any) -> Any:
        if modulus:
            raise CalculatorError("pow with a modulus is not allowed")
        if not (isinstance(base, Number) and isinstance(exponent, Number)):
            raise CalculatorError("** is allowed between numbers only")
        if abs(exponent) > self.limits.max_exponent:
            raise CalculatorError(f"exponent larger than {self.limits.max_exponent}")
        if isinstance(base, int) and isinstance(exponent, int) and exponent > 0:
            if abs(base).bit_length() * exponent > self.limits.max_int_bits:
                raise CalculatorError(f"result larger than {self.limits.max_int_bits} bits")
        return self._check(pow(base, exponent))

    def _subscript(self, value: Any, index_node: ast.AST) -> Any:
        if not isinstance(value, (str, *_SEQUENCES)):
            raise CalculatorError("only lists, tuples and strings can be indexed")
        if isinstance(index_node, ast.Slice):
            parts = (index_node.lower, index_node.upper, index_node.step)
            bounds = [None if part is None else self._eval(part) for part in parts]
            if not all(bound is None or isinstance(bound, int) for bound in bounds):
                raise CalculatorError("slice bounds must be integers")
            return value[slice(*bounds)]
        index = self._eval(index_node)
        if not isinstance(index, int):
            raise CalculatorError("an index must be an integer")
        return value[index]

    def _attribute(self, node: ast.Attribute) -> Any:
        dotted = _dotted_name(node)
        if dotted in _DOTTED_CONSTANTS:
            return _DOTTED_CONSTANTS[dotted]
        if node.attr not in _VALUE_ATTRIBUTES:
            raise CalculatorError(f"{ast.unparse(node)!r} is not a value")
        value = self._eval(node.value)
        if not isinstance(value, (dt.date, dt.timedelta)) or not hasattr(value, node.attr):
            raise CalculatorError(f"{type(value).__name__} has no attribute {node.attr!r}")
        return getattr(value, node.attr)

    def _call(self, node: ast.Call) -> Any:
        arguments = [self._eval(argument) for argument in node.args]
        if any(keyword.arg is None for keyword in node.keywords):
            raise CalculatorError("** arguments are not allowed")
        keywords = {
            keyword.arg: self._eval(keyword.value) for keyword in node.keywords if keyword.arg is not None
        }
        dotted = _dotted_name(node.func)
        if dotted in self.functions:
            return self._check(self.functions[dotted](*arguments, **keywords))
        # A zero-argument method of a date or timedelta value, e.g. (b - a).total_seconds().
        assert isinstance(node.func, ast.Attribute)
        target = self._eval(node.func.value)
        if arguments or keywords or not isinstance(target, (dt.date, dt.timedelta)):
            raise CalculatorError(f"{ast.unparse(node.func)!r} is not allowed here")
        if not hasattr(target, node.func.attr):
            raise CalculatorError(f"{type(target).__name__} has no method {node.func.attr!r}")
        return self._check(getattr(target, node.func.attr)())

    def _check(self, value: Any) -> Any:
        """Refuse values outside the limits: huge ints, long strings or lists, nested lists, NaN."""
        if isinstance(value, bool) or isinstance(value, (dt.date, dt.timedelta)):
            return value
        if isinstance(value, int):
            if value.bit_length() > self.limits.max_int_bits:
                raise CalculatorError(f"integer larger than {self.limits.max_int_bits} bits")
            return value
        if isinstance(value, float):
            if not math.isfinite(value):
                raise CalculatorError("result is not a finite number")
            return value
        if isinstance(value, str):
            if len(value) > self.limits.max_string_length:
                raise CalculatorError(f"string longer than {self.limits.max_string_length}")
            return value
        if isinstance(value, _SEQUENCES):
            if len(value) > self.limits.max_sequence_length:
                raise CalculatorError(f"sequence longer than {self.limits.max_sequence_length}")
            if not all(isinstance(item, _SCALARS) for item in value):
                raise CalculatorError("lists may hold only numbers, strings and dates")
            if sum(len(item) for item in value if isinstance(item, str)) > self.limits.max_string_length:
                raise CalculatorError(f"strings in the list longer than {self.limits.max_string_length}")
            return value
        raise CalculatorError(f"values of type {type(value).__name__} are not allowed")

    # The whitelisted functions, each checking its own arguments.

    def _function_table(self) -> dict[str, Callable[..., Any]]:
        math_functions = {
            "sqrt": math.sqrt, "log": math.log, "log10": math.log10, "log2": math.log2, "exp": math.exp,
            "floor": math.floor, "ceil": math.ceil, "fabs": math.fabs,
        }  # fmt: skip
        numeric = {name: _numbers_only(function) for name, function in math_functions.items()}
        table: dict[str, Callable[..., Any]] = {
            "abs": _numbers_only(abs),
            "round": self._round,
            "min": _extreme(min),
            "max": _extreme(max),
            "sum": _sum,
            "len": _length,
            "sorted": _sorted,
            "int": _convert(int),
            "float": _convert(float),
            "pow": self._power,
            "range": self._range,
            "mean": _statistic(statistics.fmean),
            "average": _statistic(statistics.fmean),
            "median": _statistic(statistics.median),
            "statistics.mean": _statistic(statistics.fmean),
            "statistics.median": _statistic(statistics.median),
            "date": _date,
            "datetime": _datetime,
            "timedelta": _timedelta,
            "datetime.date": _date,
            "datetime.datetime": _datetime,
            "datetime.timedelta": _timedelta,
            "date.fromisoformat": _text_parser(dt.date.fromisoformat),
            "datetime.fromisoformat": _text_parser(dt.datetime.fromisoformat),
            "datetime.date.fromisoformat": _text_parser(dt.date.fromisoformat),
            "datetime.datetime.fromisoformat": _text_parser(dt.datetime.fromisoformat),
            "datetime.strptime": _text_parser(dt.datetime.strptime),
            "datetime.datetime.strptime": _text_parser(dt.datetime.strptime),
        }
        table.update(numeric)
        table.update({f"math.{name}": function for name, function in numeric.items()})
        return table

    def _round(self, number: Any, ndigits: Any = None) -> Any:
        if not isinstance(number, Number):
            raise CalculatorError("round takes a number")
        if ndigits is None:
            return round(number)
        if not isinstance(ndigits, int) or abs(ndigits) > self.limits.max_round_digits:
            raise CalculatorError(f"round digits must be an integer within ±{self.limits.max_round_digits}")
        return round(number, ndigits)

    def _range(self, *bounds: Any) -> list[int]:
        if not bounds or not all(isinstance(bound, int) for bound in bounds):
            raise CalculatorError("range takes integers")
        numbers = range(*bounds)
        if len(numbers) > self.limits.max_sequence_length:
            raise CalculatorError(f"range longer than {self.limits.max_sequence_length}")
        return list(numbers)


_KEYWORDS = {
    "sorted": {"reverse"},
    "round": {"ndigits"},
    "timedelta": {"days", "weeks", "hours", "minutes", "seconds"},
}
_DOTTED_CONSTANTS = {"math.pi": math.pi, "math.e": math.e}


def _numbers_only(function: Callable[..., Any]) -> Callable[..., Any]:
    def checked(*arguments: Any) -> Any:
        if not all(isinstance(argument, Number) for argument in arguments):
            raise CalculatorError(f"{function.__name__} takes numbers")
        return function(*arguments)

    return checked


def _items(arguments: tuple[Any, ...]) -> list[Any]:
    """Function arguments given either as one list or as separate values."""
    if len(arguments) == 1 and isinstance(arguments[0], _SEQUENCES):
        return list(arguments[0])
    return list(arguments)


def _extreme(function: Callable[..., Any]) -> Callable[..., Any]:
    def checked(*arguments: Any) -> Any:
        items = _items(arguments)
        if not items:
            raise CalculatorError(f"{function.__name__} of nothing")
        return function(items)

    return checked


def _numbers(arguments: tuple[Any, ...]) -> list[Any]:
    items = _items(arguments)
    if not all(isinstance(item, Number) for item in items):
        raise CalculatorError("expected numbers")
    return items


def _sum(*arguments: Any) -> Any:
    if len(arguments) == 2 and isinstance(arguments[0], _SEQUENCES):
        return sum(_numbers(arguments[:1])) + _numbers(arguments[1:])[0]
    return sum(_numbers(arguments))


def _statistic(function: Callable[[list[Any]], Any]) -> Callable[..., Any]:
    def checked(*arguments: Any) -> Any:
        items = _numbers(arguments)
        if not items:
            raise CalculatorError("statistic of nothing")
        return function(items)

    return checked


def _length(value: Any) -> int:
    if not isinstance(value, (str, *_SEQUENCES)):
        raise CalculatorError("len takes a list or a string")
    return len(value)


def _sorted(value: Any, reverse: Any = False) -> list[Any]:
    if not isinstance(value, (str, *_SEQUENCES)):
        raise CalculatorError("sorted takes a list")
    return sorted(value, reverse=bool(reverse))


def _convert(function: Callable[[Any], Any]) -> Callable[..., Any]:
    def checked(value: Any) -> Any:
        if not isinstance(value, (int, float, str)):
            raise CalculatorError(f"{function.__name__} takes a number or a string")
        return function(value.replace(",", "") if isinstance(value, str) else value)

    return checked


def _date(*parts: Any) -> dt.date:
    if not all(isinstance(part, int) for part in parts):
        raise CalculatorError("date takes integers")
    return dt.date(*parts)


def _datetime(*parts: Any) -> dt.datetime:
    if not all(isinstance(part, int) for part in parts):
        raise CalculatorError("datetime takes integers")
    return dt.datetime(*parts)


def _timedelta(*parts: Any, **named: Any) -> dt.timedelta:
    if not all(isinstance(part, Number) for part in (*parts, *named.values())):
        raise CalculatorError("timedelta takes numbers")
    return dt.timedelta(*parts, **named)


def _text_parser(function: Callable[..., Any]) -> Callable[..., Any]:
    def checked(*texts: Any) -> Any:
        if not texts or not all(isinstance(text, str) for text in texts):
            raise CalculatorError("expected text")
        return function(*texts)

    return checked


def _dotted_name(node: ast.AST) -> str | None:
    """`math.sqrt` for Attribute(Name('math'), 'sqrt'); None when the chain does not start at a name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _is_prefix(dotted: str, table: dict[str, Any]) -> bool:
    return dotted in _DOTTED_CONSTANTS or any(key.startswith(dotted + ".") for key in table)


def _depth(node: ast.AST, limit: int, level: int = 0) -> int:
    """Depth of the tree, stopping early once it passes `limit`."""
    if level > limit:
        return level
    return max((_depth(child, limit, level + 1) for child in ast.iter_child_nodes(node)), default=level)


def format_value(value: Any) -> str:
    """A short, readable rendering of a computed value for the reasoning prompt."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:.10g}"
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return f"{value.days} days" if not value.seconds and not value.microseconds else str(value)
    if isinstance(value, _SEQUENCES):
        return "[" + ", ".join(format_value(item) for item in value) + "]"
    return repr(value) if isinstance(value, str) else str(value)


# The stage.


@dataclass
class CalculationResult(StageResult):
    """`error`: the LLM gave no reply for this question."""

    lines: list[str] = field(default_factory=list)  # "expression = value"


_FENCE = re.compile(r"```[a-z]*", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_JSON_EXPRESSION = re.compile(r'"expression"\s*:\s*"((?:[^"\\]|\\.)*)"')
_WRITTEN_NUMBER = re.compile(NUMBER_VALUE)
_LONE_EQUALS = re.compile(r"(?<![=!<>])=(?!=)")
_COMPUTING_NODES = (ast.BinOp, ast.Call, ast.Compare, ast.BoolOp, ast.Subscript, ast.Attribute, ast.IfExp)


class Calculator:
    """Asks the LLM for candidate expressions (n samples per question) and keeps the valid results."""

    def __init__(self, config: CalculatorConfig, llm: LLMBackend, prompts: PromptLibrary):
        self.config = config
        self.llm = llm
        self.prompts = prompts

    def run(self, questions: list[Question], evidence: list[Evidence]) -> list[CalculationResult]:
        if not questions:
            return []
        references = [self._references(item) for item in evidence]
        conversations = [
            self.prompts.conversation(
                "calculator",
                query=question.query,
                query_time=question.query_time or "unknown",
                references=shown,
            )
            for question, shown in zip(questions, references)
        ]
        params = GenerationParams(
            max_tokens=self.config.max_tokens,
            temperature=self.config.temperature,
            n=self.config.samples,
            json_schema=self._schema() if self.config.constrained_output else None,
        )
        results = []
        completions = self.llm.generate(conversations, params)
        for question, shown, completion in zip(questions, references, completions):
            usage = TokenUsage()
            usage.add(completion)
            written = numbers_in(f"{question.query}\n{question.query_time}\n{shown}")
            lines = self.evaluate_samples(completion.texts, written)
            results.append(CalculationResult(lines=lines, usage=usage, error=completion.error))
        return results

    def json_schemas(self) -> list[dict[str, Any]]:
        """The output schemas this stage sends (for the backend's warm-up)."""
        return [self._schema()] if self.config.constrained_output else []

    def evaluate_samples(self, samples: list[str], written: set[float]) -> list[str]:
        """`expression = value` for each distinct value the samples compute, at most max_results;
        with `grounded_numbers_only`, only expressions whose numbers `written` (the prompt's) holds."""
        lines: list[str] = []
        seen_values: set[str] = set()
        for sample in samples:
            for candidate in candidate_expressions(sample):
                computed = self._compute(candidate)
                if computed is None:
                    continue
                expression, value = computed
                if self.config.grounded_numbers_only:
                    unwritten = self._unwritten_numbers(expression, written)
                    if unwritten:
                        logger.debug("calculator dropped {!r}: {} not in the prompt", expression, unwritten)
                        continue
                if value not in seen_values:
                    seen_values.add(value)
                    lines.append(f"{expression} = {value}")
                if len(lines) >= self.config.max_results:
                    return lines
        return lines

    def _compute(self, candidate: str) -> tuple[str, str] | None:
        """(expression, formatted value) for the first part of `candidate` that really computes something."""
        parts = [candidate] + [part.strip() for part in _LONE_EQUALS.split(candidate)][::-1]
        for part in parts:
            try:
                value = safe_eval(part, self.config)
            except CalculatorError as refusal:
                logger.debug("calculator refused {!r}: {}", part, refusal)
                continue
            if _computes_something(part):
                return part, format_value(value)
        return None

    def _unwritten_numbers(self, expression: str, written: set[float]) -> list[float]:
        """The numbers of `expression` that are neither in `written` nor free constants."""
        free = set(self.config.free_constants)
        unwritten = []
        for node in ast.walk(ast.parse(expression, mode="eval")):  # safe_eval has already parsed it
            if not isinstance(node, ast.Constant) or isinstance(node.value, bool):
                continue
            if not isinstance(node.value, (int, float)):
                continue
            value = abs(float(node.value))
            if (value.is_integer() and value <= self.config.max_free_integer) or value in free:
                continue
            if not any(
                math.isclose(value, number) or math.isclose(value * 100, number) for number in written
            ):
                unwritten.append(value)
        return unwritten

    def _references(self, evidence: Evidence) -> str:
        text = "\n\n".join(evidence.references) or "(none)"
        return self.llm.truncate_to_tokens(text, self.config.max_reference_tokens)

    def _schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"expression": {"type": "string", "maxLength": self.config.max_expression_chars}},
            "required": ["expression"],
        }


def _computes_something(expression: str) -> bool:
    """False for bare literals like `42` or `-5`, and for a top-level tuple (usually a misread "1,234")."""
    tree = ast.parse(expression, mode="eval")  # safe_eval has already parsed it
    if isinstance(tree.body, ast.Tuple):
        return False
    return any(isinstance(node, _COMPUTING_NODES) for node in ast.walk(tree))


def numbers_in(text: str) -> set[float]:
    """Every number written in `text` ("1,234.5" is one number; "2024-03-07" is three)."""
    return {float(match.replace(",", "")) for match in _WRITTEN_NUMBER.findall(text)}


def candidate_expressions(sample: str) -> list[str]:
    """Expression candidates in one LLM reply: the JSON `expression` field, else its non-empty lines."""
    text = sample.strip()
    parsed = find_json(text)
    if parsed is not None:
        value = parsed.get("expression", "")
        values = value if isinstance(value, list) else [value]
        return [str(item).strip() for item in values if str(item).strip()]
    quoted = _JSON_EXPRESSION.search(text)
    if quoted:
        try:
            return [json.loads(f'"{quoted.group(1)}"').strip()]
        except ValueError:
            return []
    lines = []
    for line in _FENCE.sub("", text).splitlines():
        line = _BULLET.sub("", line).strip().strip("`").strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines

"""The safe evaluator refuses hostile expressions without running anything, and computes honest ones."""

from __future__ import annotations

import ast
import builtins
import contextlib
import datetime as dt
import math
from pathlib import Path

import pytest

from models.calculator import CalculatorError, format_value, safe_eval
from models.config import CalculatorConfig

# A hang in the evaluator must fail the run, not stall it: the thread method aborts even a stuck C call.
pytestmark = pytest.mark.timeout(20, method="thread")

MARKER = "/tmp/crag_calculator_must_not_exist"

HOSTILE = [
    # imports and code execution
    f"__import__('os').system('touch {MARKER}')",
    f"__import__('pathlib').Path('{MARKER}').touch()",
    "import os",
    "exec('x = 1')",
    "eval('1 + 1')",
    "compile('1', 'f', 'eval')",
    f"open('{MARKER}', 'w')",
    "globals()",
    "locals()",
    "vars()",
    "breakpoint()",
    "input()",
    "print('hello')",
    "getattr(1, '__class__')",
    "setattr(math, 'pi', 3)",
    "type(1)",
    "__builtins__",
    "os.system('ls')",
    "sys.modules",
    # dunder and attribute access
    "(1).__class__.__bases__[0].__subclasses__()",
    "().__class__.__base__.__subclasses__()",
    "''.__class__.__mro__",
    "[].__class__",
    "math.__dict__",
    "math.__loader__",
    "math.sqrt.__globals__",
    "date.__init__",
    "int.__subclasses__()",
    "'{:>999999999}'.format(1)",
    "datetime.date.today()",
    "math.factorial(100000)",
    # lambdas, comprehensions and other statements or constructs
    "(lambda: 1)()",
    "lambda x: x",
    "[x for x in range(10)]",
    "{x: 1 for x in range(3)}",
    "(x for x in range(3))",
    "{1, 2}",
    "{'a': 1}",
    "(y := 5)",
    "x = 1",
    "del x",
    "f'{1 + 1}'",
    "b'bytes'",
    "2j * 2",
    "...",
    "None",
    "sorted([1, 2], key=lambda x: x)",
    "max([1, 2], key=abs)",
    "'a' if __import__('os') else 'b'",
    # huge powers, repetitions and sizes
    "9**9**9",
    "10**10**10",
    "2**100000",
    "pow(10, 100000)",
    "pow(2, 10**6, 7)",
    "1 << 100000",
    "'a'*10**10",
    "[0]*10**9",
    "'ab' * 100000",
    "('a' * 900) + ('b' * 900)",
    "[[1] * 1000] * 1000",
    "range(10**12)",
    "sum(range(10**9))",
    "int('9' * 1000)",
    "round(1.5, 10**9)",
    "'%0999999999d' % 1",
    "timedelta(days=10**12)",
    "exp(1000)",
    "float('inf')",
    "(-8) ** 0.5",
    # deep nesting and very long inputs
    "-" * 200 + "1",
    "[" * 60 + "1" + "]" * 60,
    "(" * 150 + "1" + ")" * 150,
    "1+" * 5000 + "1",
    "x" * 100_000,
    "not " * 60 + "True",
]


@contextlib.contextmanager
def forbidden_builtins_watch(expression: str):
    """Record calls of eval, exec, open, compile to code (parsing to an AST is fine) and imports of
    any module the expression names, made while the block runs."""
    calls: list[str] = []
    originals = {name: getattr(builtins, name) for name in ("eval", "exec", "compile", "open", "__import__")}

    def spy(name):
        def record(*args, **kwargs):
            if name == "compile":
                flags = args[3] if len(args) > 3 else kwargs.get("flags", 0)
                if not flags & ast.PyCF_ONLY_AST:
                    calls.append(name)
            elif name == "__import__":
                if args and args[0].split(".")[0] in expression:
                    calls.append(f"import {args[0]}")
            else:
                calls.append(name)
            return originals[name](*args, **kwargs)

        return record

    for name in originals:
        setattr(builtins, name, spy(name))
    try:
        yield calls
    finally:
        for name, original in originals.items():
            setattr(builtins, name, original)


def test_there_are_at_least_forty_hostile_expressions():
    assert len(HOSTILE) >= 40
    assert len(set(HOSTILE)) == len(HOSTILE)


@pytest.mark.parametrize("expression", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_expression_is_refused_without_side_effects(expression):
    marker = Path(MARKER)
    marker.unlink(missing_ok=True)
    with forbidden_builtins_watch(expression) as calls:
        with pytest.raises(CalculatorError):
            safe_eval(expression)
    assert calls == []
    assert not marker.exists()


def test_refusal_is_a_value_error():
    assert issubclass(CalculatorError, ValueError)
    with pytest.raises(ValueError):
        safe_eval("__import__('os')")


@pytest.mark.parametrize("bad_input", ["", "   ", None, 42])
def test_empty_or_non_text_input_is_refused(bad_input):
    with pytest.raises(CalculatorError):
        safe_eval(bad_input)


def test_limits_come_from_config():
    tight = CalculatorConfig(max_exponent=3, max_string_length=5)
    assert safe_eval("2**10") == 1024
    with pytest.raises(CalculatorError):
        safe_eval("2**10", tight)
    with pytest.raises(CalculatorError):
        safe_eval("'ab' * 3", tight)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("1 + 2 * 3", 7),
        ("(7 - 2) / 2", 2.5),
        ("17 // 5", 3),
        ("17 % 5", 2),
        ("-3 + abs(-4)", 1),
        ("2 ** 10", 1024),
        ("2 ** -1", 0.5),
        ("pow(3, 3)", 27),
        ("round(2 / 3, 2)", 0.67),
        ("round(1234.5678, ndigits=1)", 1234.6),
        ("math.sqrt(16)", 4.0),
        ("sqrt(2) ** 2 > 1.99", True),
        ("math.log10(1000)", 3.0),
        ("math.floor(2.7) + math.ceil(2.1)", 5),
        ("math.pi > 3.14", True),
        ("int('1,234') + 1", 1235),
        ("float('2.5') * 2", 5.0),
        # percentages
        ("(150 - 120) / 120 * 100", 25.0),
        ("round((45.3 - 50.1) / 50.1 * 100, 2)", -9.58),
        ("200 * 15 / 100", 30.0),
        # averages and aggregates
        ("mean([10, 20, 30, 40])", 25.0),
        ("average([1, 2])", 1.5),
        ("median([3, 1, 2])", 2),
        ("statistics.mean([2, 4])", 3.0),
        ("sum([1.5, 2.5, 3]) / len([1.5, 2.5, 3])", 7 / 3),
        ("sum([1, 2], 10)", 13),
        ("max(3, 9, 4) - min([3, 9, 4])", 6),
        ("sorted([3, 1, 2], reverse=True)[0]", 3),
        ("sorted([5, 3, 8])[1:]", [5, 8]),
        ("len('hello')", 5),
        ("sum(range(1, 101))", 5050),
        # comparisons and logic
        ("3 > 2 and 2 > 1", True),
        ("1 < 2 < 3", True),
        ("1 < 3 < 2", False),
        ("not (1 == 2)", True),
        ("2 in [1, 2, 3]", True),
        ("'yes' if 3 > 2 else 'no'", "yes"),
        # date arithmetic
        ("(date(2024, 3, 10) - date(2020, 1, 1)).days", 1530),
        ("(datetime.date(2024, 3, 1) - datetime.date(2024, 2, 1)).days", 29),
        ("date(2024, 2, 28) + timedelta(days=2)", dt.date(2024, 3, 1)),
        ("datetime(2024, 3, 5, 12) - datetime(2024, 3, 4)", dt.timedelta(days=1, hours=12)),
        ("(datetime.strptime('2024-03-05', '%Y-%m-%d') - datetime(2024, 1, 1)).days", 64),
        ("date.fromisoformat('2024-03-13').year - 1990", 34),
        ("timedelta(weeks=2).total_seconds()", 1209600.0),
        ("date(2024, 3, 10).weekday()", 6),
        ("(date(2024, 3, 10) - date(1995, 6, 15)).days // 365", 28),
    ],
)
def test_honest_expressions_compute(expression, expected):
    value = safe_eval(expression)
    if isinstance(expected, float):
        assert math.isclose(value, expected, rel_tol=1e-9)
    else:
        assert value == expected


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (25.0, "25"),
        (2 / 3, "0.6666666667"),
        (1234567.89, "1234567.89"),
        (True, "True"),
        (dt.date(2024, 3, 1), "2024-03-01"),
        (dt.timedelta(days=64), "64 days"),
        ([1, 2.5], "[1, 2.5]"),
        ("yes", "'yes'"),
    ],
)
def test_values_are_formatted_readably(value, text):
    assert format_value(value) == text


def test_the_watch_itself_notices_forbidden_calls():
    with forbidden_builtins_watch("os") as calls:
        eval("1")
        __import__("os")
    assert calls == ["eval", "import os"]

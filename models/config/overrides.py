"""`--set section.option=value`: overrides parsed by the option's declared type and checked against
its range (models/config/ranges.py); `check_config` checks a whole configuration the same way."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from typing import Any, Literal

from models.config.ranges import Range
from models.config.schema import CragConfig


def set_option(config: CragConfig, dotted: str, value: Any) -> None:
    """Set `section.option` (a top-level option, or `section.option.key` inside a dict option) on
    `config`. A string is parsed by the option's declared type; anything unknown or invalid raises
    ValueError naming what is allowed."""
    *path, leaf = dotted.split(".")
    target: Any = config
    for depth, part in enumerate(path):
        options = _declared_types(target)
        if part not in options:
            sections = {
                name: kind
                for name, kind in options.items()
                if dataclasses.is_dataclass(getattr(target, name))
            }
            raise ValueError(f"Unknown config section {part!r} in {dotted!r}; known: {_names(sections)}")
        child = getattr(target, part)
        if isinstance(child, dict) and depth == len(path) - 1:
            key_type, value_type = _dict_types(options[part])
            child[_convert(leaf, key_type, dotted)] = _convert(value, value_type, dotted)
            return
        if not dataclasses.is_dataclass(child):
            raise ValueError(f"{dotted!r}: {'.'.join(path[: depth + 1])} is an option, not a section")
        target = child
    options = _declared_types(target)
    if leaf not in options:
        raise ValueError(f"Unknown config option {dotted!r}; known: {_names(options)}")
    if dataclasses.is_dataclass(getattr(target, leaf)):
        known = _names(_declared_types(getattr(target, leaf)))
        raise ValueError(f"{dotted!r} is a section; set one of its options: {known}")
    setattr(target, leaf, _convert(value, options[leaf], dotted))


_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}
_NONE = {"none", "null"}


def check_config(config: Any, prefix: str = "") -> None:
    """Every option of `config` (a section, recursively) holds a value of its declared type within
    its declared range; the first that does not raises ValueError naming it and what is allowed."""
    for name, declared in _declared_types(config).items():
        value, dotted = getattr(config, name), f"{prefix}{name}"
        if dataclasses.is_dataclass(value):
            check_config(value, f"{dotted}.")
        else:
            _convert(value, declared, dotted)


def _declared_types(section: Any) -> dict[str, Any]:
    hints = typing.get_type_hints(type(section), include_extras=True)
    return {f.name: hints[f.name] for f in dataclasses.fields(section)}


def _names(options: dict[str, Any]) -> str:
    return ", ".join(sorted(options))


def _dict_types(declared: Any) -> tuple[Any, Any]:
    if typing.get_origin(declared) in (types.UnionType, typing.Union):  # dict[...] | None
        declared = next(a for a in typing.get_args(declared) if typing.get_origin(a) is dict)
    arguments = typing.get_args(declared)
    return (arguments[0], arguments[1]) if len(arguments) == 2 else (str, Any)


def _convert(value: Any, declared: Any, dotted: str) -> Any:
    """`value` as the `declared` type: strings are parsed, other values checked."""
    origin, arguments = typing.get_origin(declared), typing.get_args(declared)
    if declared is Any:
        return value
    if origin is typing.Annotated:
        converted = _convert(value, arguments[0], dotted)
        for declared_range in (a for a in arguments[1:] if isinstance(a, Range)):
            declared_range.check(converted, dotted)
        return converted
    if origin in (types.UnionType, typing.Union):
        if value is None or (isinstance(value, str) and value.strip().lower() in _NONE):
            if type(None) in arguments:
                return None
        errors = []
        for option in (a for a in arguments if a is not type(None)):
            try:
                return _convert(value, option, dotted)
            except ValueError as error:
                errors.append(str(error))
        raise ValueError("; ".join(errors) + (" (none is also allowed)" if type(None) in arguments else ""))
    if origin is Literal:
        text = value.strip() if isinstance(value, str) else value
        if text not in arguments:
            raise ValueError(f"{dotted} must be one of {', '.join(map(str, arguments))}; got {value!r}")
        return text
    if origin in (dict, list, tuple) or declared in (dict, list, tuple):
        return _convert_collection(value, origin or declared, arguments, dotted)
    if declared is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise ValueError(f"{dotted} expects a boolean (true/false, yes/no, 1/0, on/off); got {value!r}")
    if declared in (int, float):
        expected = f"{dotted} expects {'an integer' if declared is int else 'a number'}; got {value!r}"
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise ValueError(expected)
        try:
            number = declared(value.strip()) if isinstance(value, str) else value
        except ValueError:
            raise ValueError(expected) from None
        if declared is int and number != int(number):
            raise ValueError(f"{dotted} expects an integer; got {value!r}")
        return declared(number)
    if declared is str:
        if not isinstance(value, str):
            raise ValueError(f"{dotted} expects text; got {value!r}")
        return value
    raise ValueError(f"{dotted} has type {declared}, which cannot be set from an override")


def _convert_collection(value: Any, origin: Any, arguments: tuple[Any, ...], dotted: str) -> Any:
    """A dict from a JSON object; a list or tuple from a JSON array or comma-separated text."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith(("{", "[")):
            try:
                value = json.loads(text)
            except ValueError as error:
                raise ValueError(f"{dotted}: not valid JSON ({error}): {value!r}") from None
        elif origin is dict:
            raise ValueError(f'{dotted} expects a JSON object such as {{"key": value}}; got {value!r}')
        else:
            value = [item.strip() for item in text.split(",") if item.strip()]
    if origin is dict:
        if not isinstance(value, dict):
            raise ValueError(f"{dotted} expects a JSON object; got {value!r}")
        key_type, value_type = arguments if len(arguments) == 2 else (str, Any)
        return {
            _convert(key, key_type, dotted): _convert(item, value_type, f"{dotted}.{key}")
            for key, item in value.items()
        }
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{dotted} expects a list; got {value!r}")
    if origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
        item_types = [arguments[0]] * len(value)
    elif origin is tuple and arguments:
        if len(arguments) != len(value):
            raise ValueError(f"{dotted} expects {len(arguments)} items; got {len(value)}")
        item_types = list(arguments)
    else:
        item_types = [arguments[0] if arguments else Any] * len(value)
    items = [_convert(item, item_type, dotted) for item, item_type in zip(value, item_types)]
    return tuple(items) if origin is tuple else items


def parse_overrides(items: list[str]) -> dict[str, str]:
    """`["retrieval.top_k_chunks=5", ...]` -> {"retrieval.top_k_chunks": "5"}."""
    overrides = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"Override {item!r} must look like section.option=value")
        overrides[key.strip()] = value.strip()
    return overrides

"""State <-> JSON: dataclasses of tuples one way, lists and dicts the other (by type hints)."""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any

from . import vocabulary
from .state import State


def to_json(obj: Any) -> Any:
    """A JSON-ready copy of a state (or any part of it). Run on every move (the saved state,
    each view's Dining), hence the per-class field names instead of `dataclasses.fields`."""
    kind = type(obj)
    if kind in _SCALARS:
        return obj
    if kind in _WORDS:  # a vocabulary member: stored as its plain string, as before
        return obj._value_
    names = _FIELD_NAMES.get(kind)
    if names is None and dataclasses.is_dataclass(obj):
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(obj))
    if names is not None:
        values = obj.__dict__
        return {name: to_json(values[name]) for name in names}
    if isinstance(obj, (tuple, list)):
        return [to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): to_json(v) for k, v in obj.items()}
    return obj


_SCALARS = frozenset({str, int, float, bool, type(None)})
_WORDS = frozenset(vocabulary.WORDS)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def state_from_json(data: dict) -> State:
    return _decode(State, data)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(tp: Any, value: Any) -> Any:
    if value is None:
        return None
    if dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        return tp(**{k: _decode(hints[k], v) for k, v in value.items()})
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return _decode(inner[0], value)
    if origin is tuple:
        args = typing.get_args(tp)
        item = args[0]
        return tuple(_decode(item, v) for v in value)
    if tp is float and isinstance(value, int):
        return float(value)
    return value

"""State <-> JSON: dataclasses of tuples one way, lists and dicts the other (by type hints).

A field whose JSON name is not a Python name (a rule module's `"as"`) says so in its metadata:
`field(metadata={"json": "as"})`.
"""

from __future__ import annotations

import dataclasses
import enum
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
        renamed = _json_names(kind)
        if renamed is not None:
            values = obj.__dict__
            return {key: to_json(values[name]) for name, key in renamed}
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(obj))
    if names is not None:
        values = obj.__dict__
        return {name: to_json(values[name]) for name in names}
    if isinstance(obj, (tuple, list)):
        return [to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): to_json(v) for k, v in obj.items()}
    if isinstance(obj, enum.Enum):  # a rule module's own ids (a relic card): its plain value
        return obj._value_
    return obj


_SCALARS = frozenset({str, int, float, bool, type(None)})
_WORDS = frozenset(vocabulary.WORDS)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


@cache
def _json_names(cls: type) -> tuple[tuple[str, str], ...] | None:
    """(field name, JSON name) of each field of a class with a renamed one; None for the others
    (the core's records: their JSON names are their field names)."""
    pairs = tuple((f.name, f.metadata.get("json", f.name)) for f in dataclasses.fields(cls))
    return pairs if any(name != key for name, key in pairs) else None


def state_from_json(data: dict) -> State:
    return _decode(State, data)


def from_json(tp: Any, value: Any) -> Any:
    """A record (or a tuple, dict or enum member of them) of type `tp` from its JSON: how a rule
    module reads its part of `state.ext`."""
    return _decode(tp, value)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(tp: Any, value: Any) -> Any:
    if value is None:
        return None
    if dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        renamed = _json_names(tp)
        if renamed is not None:
            names = {key: name for name, key in renamed}
            return tp(**{names[k]: _decode(hints[names[k]], v) for k, v in value.items()})
        return tp(**{k: _decode(hints[k], v) for k, v in value.items()})
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return _decode(inner[0], value)
    if origin is tuple:
        args = typing.get_args(tp)
        item = args[0]
        return tuple(_decode(item, v) for v in value)
    if origin is dict:
        key, item = typing.get_args(tp)
        return {_decode(key, k): _decode(item, v) for k, v in value.items()}
    if tp is float and isinstance(value, int):
        return float(value)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(value)
    return value

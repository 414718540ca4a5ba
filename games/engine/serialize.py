"""State <-> JSON: dataclasses of tuples one way, lists and dicts the other (by type hints).

A field whose JSON name is not a Python name (a rule module's `"as"`) says so in its metadata:
`field(metadata={"json": "as"})`.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable
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
        try:
            return {name: to_json(values[name]) for name in names}
        except KeyError:  # a field written when first read (`Event.text`)
            return {name: to_json(getattr(obj, name)) for name in names}
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
    return _decoder(tp)(value)


@cache
def _decoder(tp: Any) -> Callable[[Any], Any]:
    """The function that decodes JSON into `tp`, worked out once per type: every page load and
    move decodes the whole state, and asking the type hints of each field for each value made
    that a millisecond or more. None decodes to None whatever the type."""
    if dataclasses.is_dataclass(tp):
        return _record_decoder(tp)
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _decoder(next(a for a in typing.get_args(tp) if a is not type(None)))
    if origin is tuple:
        item = _decoder(typing.get_args(tp)[0])
        return lambda v: None if v is None else tuple([item(x) for x in v])
    if origin is dict:
        key_type, item_type = typing.get_args(tp)
        key, item = _decoder(key_type), _decoder(item_type)
        return lambda v: None if v is None else {key(k): item(x) for k, x in v.items()}
    if tp is float:
        return lambda v: float(v) if isinstance(v, int) else v
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return lambda v: None if v is None else tp(v)
    return _same


def _record_decoder(cls: type) -> Callable[[Any], Any]:
    hints = _hints(cls)
    renamed = _json_names(cls)
    names = {key: name for name, key in renamed} if renamed is not None else {}
    fields: dict[str, tuple[str, Callable[[Any], Any]]] = {}  # JSON key -> (field, decoder)

    def field(key: str) -> tuple[str, Callable[[Any], Any]]:
        # Looked up on first use, not here: records may refer to each other (or to themselves).
        name = names.get(key, key)
        found = fields[key] = (name, _decoder(hints[name]))
        return found

    def decode(value: Any) -> Any:
        if value is None:
            return None
        kwargs = {}
        for key, item in value.items():
            name, decoder = fields.get(key) or field(key)
            kwargs[name] = decoder(item)
        return cls(**kwargs)

    return decode


def _same(value: Any) -> Any:
    return value

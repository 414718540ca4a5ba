"""What the site's JSON APIs share (the game's in games.api, and those of chat, reminders and
history), kept outside any one of them so that none imports another: the error body's schema,
the Vary of a response built per viewer, and input taken at its type.

Unknown fields (`{"relicz": true}` and `{"choice": ..., "target": 7}` were dropped in
silence, and the move made without them): a field the serializer declares, read-only ones
included (a client may send back what it read), is known; any other is `400 bad_request`
listing them all, nested objects (`timers`) included.

At its type (schemathesis sent `{"name": 0}`, `{"email_enabled":
0}`, `{"target": "3"}`, and DRF's fields quietly converted them). The API documents a string, a
boolean, a whole number, a list or an object for each field: anything else is `400 bad_request`
naming the field, before DRF's own validation. The pages' forms send only strings and keep
DRF's conversion (they validate with the same serializers, without this check).

Control characters (the vacation API stored `"until": "2026-12-02T10:00\\u0000"`): a string
holding a C0 or C1 control character (tab, line feed and carriage return aside) is `400
bad_request` naming the field; a date or time holds none at all. Names are the one exception:
they are cleaned instead (games/domain/names.py removes control and format characters), so a
field that cleans its text says so (`cleans_control_characters`)."""

from __future__ import annotations

from collections.abc import Mapping

from rest_framework import serializers

from staked.text import CONTROL_IN_TEXT, CONTROL_IN_TIME

# A view built per viewer: a cache must never hand one player's view to another.
PER_VIEWER = ("Authorization", "Cookie")

UNKNOWN = "Unknown field."
CONTROL = "Must not contain control characters."
TIMES = (serializers.DateTimeField, serializers.DateField, serializers.TimeField)


# Every error's body (staked.errors.json_error, games.api.errors.handle). No docstring: it would
# become the schema's description of the component.
class ErrorOut(serializers.Serializer):
    code = serializers.CharField(help_text="machine-readable: see docs/api.md, Errors")
    detail = serializers.CharField(help_text="in words, naming the rule where one forbids it")


class BadRequestOut(ErrorOut):
    """The one shape of a refused body (400 `bad_request`), chat's and preferences' too."""

    errors = serializers.DictField(
        required=False,
        help_text="field -> list of problems; a nested object's field -> its own field -> "
        'problems (e.g. {"timers": {"dining": ["Unknown field."]}}); absent when the body '
        "was not JSON at all",
    )


class UnknownFields(serializers.ValidationError):
    """A 400 whose `detail` lists every unknown field (games/api/errors.py uses `summary`)."""

    def __init__(self, errors: dict):
        super().__init__(errors)
        self.summary = f"Unknown fields: {', '.join(_paths(errors))}."


def check_types(serializer: serializers.Serializer, data) -> None:
    if not isinstance(data, Mapping):
        raise serializers.ValidationError({"non_field_errors": ["The body must be a JSON object."]})
    unknown = unknown_fields(serializer, data)
    if unknown:
        raise UnknownFields(unknown)
    errors = _object_errors(serializer, data)
    if errors:
        raise serializers.ValidationError(errors)


def unknown_fields(serializer: serializers.Serializer, data: Mapping) -> dict:
    """field -> ["Unknown field."], or for a nested object field -> {its unknown fields}."""
    errors: dict = {name: [UNKNOWN] for name in data if name not in serializer.fields}
    for name, field in serializer.fields.items():
        value = data.get(name)
        if isinstance(field, serializers.Serializer) and isinstance(value, Mapping):
            nested = unknown_fields(field, value)
            if nested:
                errors[name] = nested
    return errors


def _paths(errors: dict, prefix: str = "") -> list[str]:
    paths = []
    for name, problem in errors.items():
        if isinstance(problem, dict):
            paths += _paths(problem, f"{prefix}{name}.")
        else:
            paths.append(f"{prefix}{name}")
    return paths


def _object_errors(serializer: serializers.Serializer, data: Mapping) -> dict:
    errors = {}
    for name, field in serializer.fields.items():
        if field.read_only or name not in data:
            continue
        problem = _wrong_type(field, data[name])
        if problem:
            errors[name] = [problem] if isinstance(problem, str) else problem
    return errors


def _wrong_type(field: serializers.Field, value):
    if value is None:
        return None  # allow_null is DRF's to judge
    if isinstance(field, serializers.Serializer):
        if not isinstance(value, Mapping):
            return "Must be an object."
        return _object_errors(field, value) or None
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "Must be true or false."
    if isinstance(field, serializers.IntegerField):
        whole = isinstance(value, int) and not isinstance(value, bool)
        return None if whole else "Must be a whole number."
    if isinstance(field, TIMES):
        return CONTROL if isinstance(value, str) and CONTROL_IN_TIME.search(value) else None
    if isinstance(field, serializers.CharField | serializers.ChoiceField):
        if not isinstance(value, str):
            return "Must be a string."
        if getattr(field, "cleans_control_characters", False):
            return None
        return CONTROL if CONTROL_IN_TEXT.search(value) else None
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return "Must be a list."
        problems = [_wrong_type(field.child, item) for item in value]
        return next((p for p in problems if p), None)
    if isinstance(field, serializers.DictField):
        if not isinstance(value, Mapping):
            return "Must be an object."
        problems = [_wrong_type(field.child, item) for item in value.values()]
        return next((p for p in problems if p), None)
    return None

"""Checks an engine event against the `data` schema its kind declares (games/engine/events.py):
plain JSON Schema, undeclared properties forbidden (the schemas say `additionalProperties: false`).
Used by the engine's test table on every move and by the whole-game test."""

from __future__ import annotations

import json
from functools import cache

import jsonschema

from games.engine.events import DATA, PLACEHOLDER, json_schema, render
from games.engine.vocabulary import EventKind

KINDS = frozenset(k.value for k in EventKind)


@cache
def _validator(kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json_schema(DATA[kind]))


def problems(event) -> list[str]:
    """What is wrong with `event`'s data and text (empty: nothing)."""
    if event.kind not in DATA:
        return [f"{event.kind}: no declared data schema"]
    data = json.loads(json.dumps(event.data))  # as the API and the database hold it
    found = [
        f"{event.kind} {data}: {e.message} at {list(e.absolute_path)}"
        for e in _validator(event.kind).iter_errors(data)
    ]
    if event.template:
        if render(event.template, event.data) != event.text:
            found.append(f"{event.kind}: the text is not its template's")
        if not PLACEHOLDER.search(event.template):
            found.append(f"{event.kind}: a template without a seat")
    return found


def check(events) -> None:
    """`problems` of `events`; a test module's own kinds (tests/engine/test_hooks.py) aside."""
    found = [p for e in events if e.kind in KINDS for p in problems(e)]
    assert not found, "\n".join(found[:20])

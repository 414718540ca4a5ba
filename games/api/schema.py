"""What the OpenAPI schema says about each action (one request body per action, with
an example and the codes it can return), and a postprocessing hook that makes every request
body strict in the schema as the server is (staked/rest.py): no undeclared property."""

from __future__ import annotations

import re
from dataclasses import dataclass

from drf_spectacular.utils import OpenApiExample

from games.domain import event_schemas
from games.engine.events import json_schema


@dataclass(frozen=True)
class ActionDoc:
    summary: str
    description: str
    example: dict
    refusals: tuple[str, ...]  # the 400 codes besides bad_request


SEATS = ("illegal_target",)

ACTION_DOCS = {
    "ready": ActionDoc(
        "Ready: I have seen my role (the role reveal)",
        "Before round 1, in a game with `timers.reveal`: say you have seen your role. Round 1 "
        "starts when every seat is ready or when the reveal's deadline passes. The body is `{}`.",
        {},
        (),
    ),
    "place_token": ActionDoc(
        "Place a token on a seat (Mingling, R3)",
        "Place one of your tokens (`me.tokens`) face down on a living seat. "
        "`pending` lists the tokens you hold and the seats you may target.",
        {"token": "stake", "targets": [5]},
        ("illegal_target", "illegal_token"),
    ),
    "intervention_vote": ActionDoc(
        "A Ghost's intervention vote (R7)",
        "An eliminated player votes for one living seat during Mingling.",
        {"targets": [3]},
        SEATS,
    ),
    "tiebreak_vote": ActionDoc(
        "Vote in a tie (R5.5)",
        "Vote for one of the tied candidates (`tie.candidates`), if you are one of `tie.voters`.",
        {"targets": [4]},
        SEATS,
    ),
    "choose_examiner": ActionDoc(
        "Choose who is examined (R6)",
        "The examiner names the seat whose role they look at.",
        {"targets": [2]},
        SEATS,
    ),
    "give_relic": ActionDoc(
        "Give the relic you drew (R10.2)",
        "Give a Sacred Relic you drew to another seat; `card` names it when you hold several.",
        {"targets": [6], "card": "ritual_bell"},
        SEATS,
    ),
    "use_relic": ActionDoc(
        "Use your relic in its window (R10.3, R11)",
        "Use the relic you hold (`relic` is its id, as in `me.relic.id`); `targets`, `owners`, "
        "`card` and `token` as the card asks (see `pending.options`).",
        {"relic": "signet_ring", "targets": [3]},
        SEATS,
    ),
    "pass": ActionDoc(
        "Pass (let a relic window close)",
        "Pass on the open window or optional choice. The body is `{}`.",
        {},
        (),
    ),
    "resolve_choice": ActionDoc(
        "Make a mandatory choice (Last Will, relic choice)",
        "Resolve the choice offered in `pending` (`choice` is one of its ids; `targets` the "
        "seats it names).",
        {"choice": "dying_accusation", "targets": [7]},
        SEATS,
    ),
}


def example(name: str) -> list[OpenApiExample]:
    return [OpenApiExample(name, value=ACTION_DOCS[name].example, request_only=True)]


def strict_request_bodies(result, generator, request, public):
    """drf-spectacular postprocessing hook: every component a request body names (and the
    objects nested in it) gets `additionalProperties: false`, as the server refuses unknown
    fields with 400 bad_request; a generated valid body then never holds an extra one."""
    schemas = result.get("components", {}).get("schemas", {})
    seen: set[str] = set()

    def close(schema: dict) -> None:
        ref = schema.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            if name not in seen and name in schemas:
                seen.add(name)
                close(schemas[name])
            return
        for sub in schema.get("allOf", []) + schema.get("oneOf", []):
            close(sub)
        named = any(schema is s for s in schemas.values())  # a component, even one with no field
        if schema.get("type") == "object" and ("properties" in schema or named):
            schema.setdefault("additionalProperties", False)
            for prop in schema.get("properties", {}).values():
                close(prop)

    for path in result.get("paths", {}).values():
        for operation in path.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            for media in (body or {}).get("content", {}).values():
                close(media.get("schema", {}))
    return result


ERROR = {"$ref": "#/components/schemas/ErrorOut"}
BAD_REQUEST = {"$ref": "#/components/schemas/BadRequestOut"}
UNSUPPORTED = {
    "description": "unsupported_media_type: send the body as application/json",
    "content": {"application/json": {"schema": ERROR}},
}


def delete_bodies(result, generator, request, public):
    """drf-spectacular postprocessing hook: drf-spectacular writes no request body for a DELETE;
    an operation whose DELETE reads one names its schema in `x-delete-body`, made its optional
    JSON `requestBody` here (OpenAPI 3.1 allows it)."""
    for path in result.get("paths", {}).values():
        operation = path.get("delete")
        if isinstance(operation, dict) and "x-delete-body" in operation:
            schema = operation.pop("x-delete-body")
            operation["requestBody"] = {
                "required": False,
                "content": {"application/json": {"schema": schema}},
            }
    return result


def error_shapes(result, generator, request, public):
    """drf-spectacular postprocessing hook: every 400 has the one refused-body shape
    (`{code, detail, errors}`), and every operation that reads a body documents the 415 a
    form-encoded (or any non-JSON) body gets."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict):
                continue
            responses = operation.get("responses", {})
            for media in responses.get("400", {}).get("content", {}).values():
                if media.get("schema") == ERROR:
                    media["schema"] = BAD_REQUEST
            if "requestBody" in operation:
                responses.setdefault("415", UNSUPPORTED)
    return result


CODE = re.compile(r"\s*([a-z][a-z_]*)")
ERROR_SHAPES = {ERROR["$ref"]: "ErrorOut", BAD_REQUEST["$ref"]: "BadRequestOut"}


def error_codes(result, generator, request, public):
    """drf-spectacular postprocessing hook: each error answer's `code` is an enum of the codes
    that answer can carry. The codes are the ones its description names ("wrong_phase | stale
    (...)": the first word of each `|`-separated part), so the words a reader sees and the enum
    a client's validator checks are one list; an answer whose description names no code keeps
    the free string. tests/api/test_schema_conformance.py and schemathesis check every real
    refusal of whole games against these enums."""
    schemas = result.get("components", {}).get("schemas", {})
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict):
                continue
            for status_code, response in operation.get("responses", {}).items():
                if not status_code.startswith("4"):
                    continue
                media = response.get("content", {}).get("application/json")
                shape = ERROR_SHAPES.get((media or {}).get("schema", {}).get("$ref"))
                codes = _codes(response.get("description", ""))
                if shape is None or not codes or shape not in schemas:
                    continue
                base = schemas[shape]
                code = {**base["properties"]["code"], "enum": codes}
                media["schema"] = {**base, "properties": {**base["properties"], "code": code}}
    return result


def _codes(description: str) -> list[str]:
    found = [CODE.match(part) for part in description.split("|")]
    return list(dict.fromkeys(m.group(1) for m in found if m)) if all(found) else []


def event_kinds(result, generator, request, public):
    """drf-spectacular postprocessing hook: `EventOut` is one schema per event kind, chosen by
    `kind` (a discriminated `oneOf`), each with its declared `data` (games/domain/event_schemas.py),
    so a client reads seats, roles and relic ids from the schema alone."""
    schemas = result.get("components", {}).get("schemas", {})
    base = schemas.get("EventOut")
    if base is None:
        return result
    mapping = {}
    for kind, data in event_schemas.DATA.items():
        name = "Event" + "".join(word.capitalize() for word in kind.split("_"))
        # OpenAPI 3.1 is JSON Schema: a `nullable` seat of the table becomes `anyOf` with null.
        props = {
            **base["properties"],
            "kind": {"type": "string", "enum": [kind]},
            "data": json_schema(data),
        }
        schemas[name] = {
            "type": "object",
            "description": f"`{kind}`, written by {event_schemas.WHERE[kind]}",
            "properties": props,
            "required": base.get("required", list(props)),
            "additionalProperties": False,
        }
        mapping[kind] = f"#/components/schemas/{name}"
    schemas["EventOut"] = {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "kind", "mapping": mapping},
    }
    schemas["EventKindEnum"] = {"type": "string", "enum": list(mapping)}
    return result


def _header(description: str, schema: dict) -> dict:
    return {"description": description, "required": False, "schema": schema}


HEADERS = {
    "ETag": _header(
        "the game's version as an entity tag (a list's digest on /games/): send it back as "
        "If-None-Match",
        {"type": "string"},
    ),
    "Offer": _header(
        "your seat's offer, as the view's `offer`: send it as If-Match with a move",
        {"type": "string", "pattern": "^o[0-9a-f]{16}$"},
    ),
    "RateLimit-Limit": _header(
        "the budget that counted this request, the one with the least left",
        {"type": "integer", "minimum": 0},
    ),
    "RateLimit-Remaining": _header("what is left of it", {"type": "integer", "minimum": 0}),
    "RateLimit-Reset": _header(
        "seconds until its window ends (over it: until one more fits)",
        {"type": "integer", "minimum": 0},
    ),
    "RateLimit-Policy": _header(
        'every budget that counted this request: `120;w=60;comment="actions"`, ...',
        {"type": "string"},
    ),
    "Retry-After": _header("seconds to wait before trying again", {"type": "integer"}),
    "Idempotent-Replayed": _header(
        "true: the answer of an earlier request with this Idempotency-Key, repeated",
        {"type": "string", "enum": ["true"]},
    ),
}
RATE_LIMIT = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy")
VIEW = "#/components/schemas/GameViewOut"


def response_headers(result, generator, request, public):
    """drf-spectacular postprocessing hook: the headers each answer may carry, declared per
    response (none is required, as each appears only where it applies): the RateLimit-* ones
    where a rate limit counted the request, Retry-After on a 429, ETag and Offer with a game
    view, ETag with the games list, Idempotent-Replayed on the moves."""
    components = result.setdefault("components", {}).setdefault("headers", {})
    components.update(HEADERS)

    def ref(name: str) -> dict:
        return {"$ref": f"#/components/headers/{name}"}

    for path, operations in result.get("paths", {}).items():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            replayed = str(operation.get("operationId", "")).startswith("action_")
            for status_code, response in operation.get("responses", {}).items():
                names = list(RATE_LIMIT)
                if status_code == "429":
                    names.append("Retry-After")
                content = response.get("content", {}).get("application/json", {})
                if content.get("schema", {}).get("$ref") == VIEW:
                    names += ["ETag", "Offer"]
                elif status_code == "304" or (path == "/api/v1/games/" and status_code == "200"):
                    names.append("ETag")
                if replayed:
                    names.append("Idempotent-Replayed")
                headers = response.setdefault("headers", {})
                for name in names:
                    headers.setdefault(name, ref(name))
    return result

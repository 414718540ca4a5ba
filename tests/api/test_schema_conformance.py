"""Whole games against the published schema: every request body the
clients send and every answer they get, validated against `GET /api/v1/schema/`, with
undeclared properties forbidden (an object schema with properties and no
`additionalProperties` is closed here). A field the server sends but the schema does not
declare, or a request the schema does not describe, fails the test.

Seven guests play each game through the real routes, choosing every move from `pending` as
the example client does (examples/bot.py), read their views and their logs after each move,
until the game ends: relics and Last Wills on, then off.

Every exchange is also recorded and handed, after the game, to openapi-core, a strict
third-party OpenAPI validator (request: path, query, headers, security and body; answer: status,
headers and body), on the same closed copy of the schema. Our own check above reads the schema
as JSON Schema and could share a misreading with the schema's authors (a `nullable` beside a
`$ref` admitted null here, and openapi-core refused it); openapi-core reads it as a client's
tools do.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
from pathlib import Path

import jsonschema_rs
import pytest
from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse

from tests.api.conftest import guest

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SEATS = 7
MAX_MOVES = 2000


def _example_bot():
    spec = importlib.util.spec_from_file_location("example_bot", ROOT / "examples" / "bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BOT = _example_bot()


class Schema:
    """The published OpenAPI document as JSON Schemas, closed to undeclared properties."""

    def __init__(self, document: dict):
        self.document = document
        components = {
            name: _json_schema(schema) for name, schema in document["components"]["schemas"].items()
        }
        self.registry = jsonschema_rs.Registry(
            [(f"urn:c:{name}", schema) for name, schema in components.items()]
        )
        # by the schema node's id; the node is kept with it, so that its id is never reused
        self.validators: dict[int, tuple[dict, jsonschema_rs.Validator]] = {}
        self.routes = [
            (re.compile("^/" + re.sub(r"\{[^}]+\}", "[^/]+", path.strip("/")) + "/?$"), ops)
            for path, ops in document["paths"].items()
        ]

    def operation(self, method: str, path: str) -> dict:
        path = path.split("?", 1)[0]
        for pattern, ops in self.routes:
            if pattern.match(path) and method.lower() in ops:
                return ops[method.lower()]
        raise AssertionError(f"{method} {path}: no such operation in the schema")

    def check(self, schema: dict | None, instance, where: str) -> None:
        assert schema is not None, f"{where}: the schema declares no body"
        if id(schema) not in self.validators:
            validator = jsonschema_rs.Draft202012Validator(
                _json_schema(schema), registry=self.registry
            )
            self.validators[id(schema)] = (schema, validator)
        validator = self.validators[id(schema)][1]
        problems = sorted(validator.iter_errors(instance), key=lambda e: list(e.instance_path))
        assert not problems, f"{where}: " + "; ".join(
            f"{'/'.join(map(str, p.instance_path))}: {p.message[:300]}" for p in problems[:5]
        )


def _json_schema(node):
    """An OpenAPI 3.0 schema as JSON Schema: `nullable` as a null type, references by URN,
    and every object with `properties` closed unless it says otherwise."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _json_schema(value) for key, value in node.items()}
    if "$ref" in node:
        node["$ref"] = "urn:c:" + node["$ref"].rsplit("/", 1)[1]
    if node.pop("nullable", False):
        node = {"anyOf": [node, {"type": "null"}]}
    elif "properties" in node and "additionalProperties" not in node:
        node["additionalProperties"] = False
    return node


def closed(node):
    """The OpenAPI document with every object that lists `properties` closed to others."""
    if isinstance(node, list):
        return [closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: closed(value) for key, value in node.items()}
    if isinstance(node.get("properties"), dict) and "additionalProperties" not in node:
        node["additionalProperties"] = False
    return node


class Recorder:
    """Every exchange of a game as openapi-core reads it, validated at the end in one pass."""

    def __init__(self):
        self.exchanges: list[tuple[MockRequest, MockResponse]] = []

    def record(self, client, method: str, path: str, body, headers: dict, response) -> None:
        path, _, query = path.partition("?")
        sent = {"Content-Type": "application/json"} if body is not None else {}
        credentials = client._credentials.get("HTTP_AUTHORIZATION")
        if credentials:
            sent["Authorization"] = credentials
        for meta, value in headers.items():
            sent[meta.removeprefix("HTTP_").replace("_", "-").title()] = value
        request = MockRequest(
            "http://testserver",
            method,
            path,
            args=dict(pair.split("=", 1) for pair in query.split("&") if pair),
            headers=sent,
            data=json.dumps(body).encode() if body is not None else None,
        )
        answer = MockResponse(
            response.content,
            status_code=response.status_code,
            headers=dict(response.items()),
            content_type=response.get("Content-Type", "application/json"),
        )
        self.exchanges.append((request, answer))

    def validate(self, document: dict) -> int:
        openapi = OpenAPI.from_dict(closed(document))
        for request, answer in self.exchanges:
            where = f"{request.method.upper()} {request.path} -> {answer.status_code}"
            try:
                openapi.validate_request(request)
                openapi.validate_response(request, answer)
            except Exception as exc:  # openapi-core's errors name the cause in __cause__
                cause = exc.__cause__ or exc
                detail = getattr(cause, "schema_errors", None) or [cause]
                raise AssertionError(f"{where}: {exc}: {[str(e)[:400] for e in detail]}") from exc
        return len(self.exchanges)


class CheckedClient:
    """An API client whose every request and answer is checked against the schema (and
    recorded for openapi-core when a recorder is given)."""

    def __init__(self, client, schema: Schema, recorder: Recorder | None = None):
        self.client, self.schema, self.recorder = client, schema, recorder
        self.checked = 0

    def request(self, method: str, path: str, body=None, **headers):
        operation = self.schema.operation(method, path)
        if body and "requestBody" not in operation:
            raise AssertionError(f"{method} {path}: the schema declares no request body")
        if body is not None and "requestBody" in operation:
            content = operation["requestBody"]["content"]["application/json"]
            self.schema.check(content["schema"], body, f"{method} {path} request")
        call = getattr(self.client, method.lower())
        response = call(path, body, format="json", **headers) if body is not None else call(path)
        declared = operation["responses"].get(str(response.status_code))
        assert declared, f"{method} {path}: {response.status_code} is not declared"
        if response.status_code not in (204, 304):
            payload = response.json()
            schema = declared["content"]["application/json"]["schema"]
            self.schema.check(schema, payload, f"{method} {path} {response.status_code}")
        if self.recorder is not None:
            self.recorder.record(self.client, method, path, body, headers, response)
        self.checked += 1
        return response


@pytest.fixture
def schema(client) -> Schema:
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    return Schema(json.loads(response.content))


@pytest.fixture
def unlimited(settings):
    settings.RATE_LIMITS = {scope: "1000000/min" for scope in settings.RATE_LIMITS}


def play_to_the_end(
    schema: Schema, options: dict, recorder: Recorder | None = None
) -> tuple[dict, int]:
    players = [CheckedClient(guest(f"Player {n}"), schema, recorder) for n in range(1, SEATS + 1)]
    host = players[0]
    lobby = host.request("POST", "/api/v1/games/", options).json()
    code = lobby["code"]
    for player in players[1:]:
        assert player.request("POST", f"/api/v1/games/{code}/join/", {}).status_code == 200
    assert host.request("POST", f"/api/v1/games/{code}/start/", {}).status_code == 200
    host.request("GET", "/api/v1/games/")
    seen = [0] * SEATS
    for _ in range(MAX_MOVES):
        moved = False
        for seat, player in enumerate(players, start=1):
            view = player.request("GET", f"/api/v1/games/{code}/").json()
            if view["status"] == "finished":
                events = player.request("GET", f"/api/v1/games/{code}/events/?after=0").json()
                assert events["events"], "the log of a finished game is not empty"
                continue
            for action, body in BOT.plan(view):
                path = f"/api/v1/games/{code}/actions/{action}/"
                answer = player.request("POST", path, body, HTTP_IF_MATCH=str(view["version"]))
                if answer.status_code == 200:
                    moved = True
                    break
                assert answer.status_code in (400, 409), answer.content
            log = player.request("GET", f"/api/v1/games/{code}/events/?after={seen[seat - 1]}")
            seen[seat - 1] = max([e["seq"] for e in log.json()["events"]] or [seen[seat - 1]])
        final = host.request("GET", f"/api/v1/games/{code}/").json()
        if final["status"] == "finished":
            return final, sum(p.checked for p in players)
        assert moved, f"nobody could move: {final['phase']} waiting for {final['waiting_for']}"
    raise AssertionError(f"no end after {MAX_MOVES} rounds of moves")


@pytest.mark.long(18)
@pytest.mark.parametrize(
    "options",
    [
        {"relics": True, "last_wills": True, "preset": "async"},
        # The role reveal before round 1 (R2's ruling): its phase, `ready` and their events.
        {"relics": False, "last_wills": False, "preset": "async", "timers": {"reveal": 60}},
    ],
    ids=["relics-and-last-wills", "base-game"],
)
def test_every_request_and_answer_of_whole_games_matches_the_schema(schema, unlimited, options):
    recorder = Recorder()
    final, checked = play_to_the_end(schema, options, recorder)
    assert final["winner"] in ("hunters", "vampires")
    assert checked > 100
    assert recorder.validate(schema.document) == checked  # openapi-core agrees, strictly


def test_openapi_core_refuses_an_undeclared_property_and_a_wrong_null(schema):
    """openapi-core's verdict is not vacuous: a real lobby view passes; one more field fails,
    and so does a null where the schema admits none."""
    recorder = Recorder()
    host = CheckedClient(guest("Host"), schema, recorder)
    host.request("POST", "/api/v1/games/", {})
    assert recorder.validate(schema.document) == 1
    request, answer = recorder.exchanges[0]
    for change in ({"surprise": 1}, {"status": None}):
        view = {**json.loads(answer.data), **change}
        recorder.exchanges = [(request, MockResponse(json.dumps(view).encode(), 201))]
        with pytest.raises(AssertionError, match="POST /api/v1/games/ -> 201"):
            recorder.validate(schema.document)


def test_an_undeclared_property_fails_the_check(schema):
    """The check is not vacuous: a real view passes, the same view with one more field fails."""
    host = CheckedClient(guest("Host"), schema)
    view = host.request("POST", "/api/v1/games/", {}).json()
    closed = schema.document["components"]["schemas"]["GameViewOut"]
    schema.check(copy.deepcopy(closed), view, "the lobby's view")
    view["seats"][0]["surprise"] = 1
    with pytest.raises(AssertionError, match="surprise"):
        schema.check(copy.deepcopy(closed), view, "the lobby's view, one field more")

"""Each error answer's `code` is an enum in the published schema, made from the codes its
description names (games/api/schema.py, `error_codes`). Refusals provoked through the real routes
are validated against it, by our own check and by openapi-core, and an undeclared code fails."""

from __future__ import annotations

import json

import pytest
from openapi_core.testing import MockResponse

from tests.api.conftest import quick_guest
from tests.api.test_schema_conformance import CheckedClient, Recorder, Schema

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client) -> Schema:
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    return Schema(json.loads(response.content))


def codes(schema: Schema, method: str, path: str, status: int) -> list[str]:
    response = schema.operation(method, path)["responses"][str(status)]
    return response["content"]["application/json"]["schema"]["properties"]["code"]["enum"]


def test_every_error_answer_of_every_operation_declares_its_codes(schema):
    free = []
    for path, operations in schema.document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation.get("responses", {}).items():
                body = response.get("content", {}).get("application/json", {}).get("schema", {})
                if status.startswith("4") and "code" in body.get("properties", {}):
                    if not body["properties"]["code"].get("enum"):
                        free.append(f"{method.upper()} {path} {status}")
    assert not free, free
    actions = "/api/v1/games/{code}/actions/place_token/"
    assert codes(schema, "POST", actions, 409) == [
        "window_closed", "wrong_phase", "game_over", "stale", "idempotency_in_progress"
    ]  # fmt: skip
    assert codes(schema, "POST", actions, 400) == ["bad_request", "illegal_target", "illegal_token"]
    assert codes(schema, "POST", "/api/v1/games/{code}/start/", 409) == [
        "not_enough_players", "wrong_phase"
    ]  # fmt: skip


def test_refusals_through_the_real_routes_carry_a_declared_code(schema):
    recorder = Recorder()
    host, ben, cy = (CheckedClient(quick_guest(n), schema, recorder) for n in ("Ana", "Ben", "Cy"))
    code = host.request("POST", "/api/v1/games/", {}).json()["code"]
    game = f"/api/v1/games/{code}"
    refused = {
        "not_enough_players": host.request("POST", f"{game}/start/", {}),
        "game_full": host.request("POST", f"{game}/bots/", {"count": 11}),
        "not_found": ben.request("GET", "/api/v1/games/AAAAAA/"),
    }
    ben.request("POST", f"{game}/join/", {"name": "Ben"})
    refused["name_taken"] = cy.request("POST", f"{game}/join/", {"name": "Ben"})
    host.request("POST", f"{game}/bots/", {"count": 4})
    host.request("POST", f"{game}/start/", {})
    refused["wrong_phase"] = cy.request("POST", f"{game}/join/", {"name": "Cy"})
    refused["wrong_phase (leave)"] = ben.request("POST", f"{game}/leave/", {})
    view = host.request("GET", f"{game}/").json()
    place = f"{game}/actions/place_token/"
    body = {"token": "stake", "targets": [1]}  # one's own seat: never a legal target
    refused["illegal_target"] = host.request("POST", place, body, HTTP_IF_MATCH=view["offer"])
    stale = {"token": "stake", "targets": [2]}
    refused["stale"] = host.request("POST", place, stale, HTTP_IF_MATCH='"o0000000000000000"')
    refused["bad_request"] = host.request("GET", f"{game}/events/?surprise=1")
    assert (
        "; 1 is seated: invite friends or add bots."
        in refused["not_enough_players"].json()["detail"]
    )
    for expected, response in refused.items():
        assert response.json()["code"] == expected.split(" ")[0], (expected, response.json())
    assert recorder.validate(schema.document) == len(recorder.exchanges)  # openapi-core agrees

    # Not vacuous: the same refusal with a code its answer does not declare fails.
    request, answer = next((q, a) for q, a in recorder.exchanges if a.status_code == 409)
    wrong = {**json.loads(answer.data), "code": "nonsense"}
    recorder.exchanges = [(request, MockResponse(json.dumps(wrong).encode(), 409))]
    with pytest.raises(AssertionError, match="nonsense"):
        recorder.validate(schema.document)

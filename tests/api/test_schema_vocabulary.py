"""The published schema documents one request body per action, with
an example and its own error codes, the phases that occur, the fields the views hold, and 400s
that name only the codes an endpoint can return."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.domain.inputs import ACTIONS

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema() -> dict:
    return APIClient().get("/api/v1/schema/", {"format": "json"}).json()


def component(schema, ref: str) -> dict:
    return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def test_every_action_has_its_own_operation_body_and_example(schema):
    bodies = set()
    for name in ACTIONS:
        operation = schema["paths"][f"/api/v1/games/{{code}}/actions/{name}/"]["post"]
        assert operation["operationId"] == f"action_{name}"
        headers = {p["name"] for p in operation["parameters"] if p["in"] == "header"}
        assert headers == {"If-Match", "Idempotency-Key"}
        content = operation["requestBody"]["content"]["application/json"]
        if name in ("pass", "ready"):
            assert content["schema"]["properties"] == {}
            assert content["schema"]["additionalProperties"] is False
            continue
        body = component(schema, content["schema"]["$ref"])
        assert body["additionalProperties"] is False
        (example,) = content["examples"].values()
        assert set(example["value"]) <= set(body["properties"]), name
        bodies.add(content["schema"]["$ref"])
    assert len(bodies) == 5  # PlaceTokenIn, TargetIn, GiveRelicIn, UseRelicIn, ResolveChoiceIn
    assert not any("{action}" in path for path in schema["paths"])


def test_each_action_documents_the_400_codes_it_can_return(schema):
    def codes(name):
        operation = schema["paths"][f"/api/v1/games/{{code}}/actions/{name}/"]["post"]
        return operation["responses"]["400"]["description"]

    assert codes("place_token") == "bad_request | illegal_target | illegal_token"
    assert codes("tiebreak_vote") == "bad_request | illegal_target"
    assert codes("pass") == "bad_request"
    assert codes("ready") == "bad_request"
    guest = schema["paths"]["/api/v1/auth/guest/"]["post"]["responses"]["400"]
    assert guest["description"] == "bad_request"


def test_every_400_declares_errors_and_target_is_deprecated(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            response = operation.get("responses", {}).get("400")
            if response:  # the refused-body shape, its `code` an enum of this answer's codes
                body = response["content"]["application/json"]["schema"]
                assert "errors" in body["properties"], (path, method)
                assert "bad_request" in body["properties"]["code"]["enum"], (path, method)
    for name in ("TargetIn", "UseRelicIn", "ResolveChoiceIn"):
        properties = schema["components"]["schemas"][name]["properties"]
        assert properties["target"]["deprecated"] is True
        assert properties["targets"]["type"] == "array"


def test_the_phase_enum_is_the_engine_s_resting_phases_and_the_lobby(schema):
    """The engine's phases (games/engine, relics, Last Wills) but the two it only passes
    through within one move ("dining", "relics"), and the lobby's."""
    view = schema["components"]["schemas"]["GameViewOut"]["properties"]["phase"]
    phases = component(schema, view["allOf"][0]["$ref"])["enum"]
    assert sorted(phases) == sorted(
        [
            "lobby",
            "role_reveal",
            "mingling",
            "tiebreak",
            "choose_examiner",
            "give_relic",
            "relic_window",
        ]
        + ["relic_choice", "last_will", "finished"]
    )


def test_me_declares_relics_and_drawn_and_email_matches_empty_once(schema):
    me = schema["components"]["schemas"]["MeOut"]["properties"]
    assert {"relic", "relics", "drawn"} <= set(me)
    email = schema["components"]["schemas"]["Preferences"]["properties"]["email"]
    assert "oneOf" not in email and email["anyOf"] == [{"format": "email"}, {"maxLength": 0}]
    bots = schema["paths"]["/api/v1/games/{code}/bots/"]["post"]["description"]
    assert "for now" not in bots and "sensible" in bots


@pytest.mark.parametrize("header", ["8", '"8"', 'W/"8"'])
def test_if_none_match_takes_8_and_quoted_8_as_if_match_does(table, header):
    t = table("LVHHHH", last_wills=False)
    version = t.view(2)["version"]
    held = header.replace("8", str(version))
    response = t.client(2).get(t.url(), HTTP_IF_NONE_MATCH=held)
    assert response.status_code == 304 and response["ETag"] == f'"{version}"'
    stale = held.replace(str(version), str(version - 1))
    assert t.client(2).get(t.url(), HTTP_IF_NONE_MATCH=stale).status_code == 200


def test_use_relic_s_token_is_deprecated_in_the_schema():
    """No relic names a token and no offer or rule reads it: accepted in v1, marked to go."""
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    properties = schema["components"]["schemas"]["UseRelicIn"]["properties"]
    assert properties["token"]["deprecated"] is True
    assert properties["target"]["deprecated"] is True
    assert "deprecated" not in properties["targets"]


def test_every_response_declares_the_headers_it_may_carry():
    """RateLimit-* on every answer, Retry-After on every 429, ETag and Offer with a view,
    Idempotent-Replayed on the moves: declared per response (none required)."""
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    assert schema["components"]["headers"]["Retry-After"]["schema"] == {"type": "integer"}
    operations = [op for ops in schema["paths"].values() for op in ops.values()]
    for operation in operations:
        for status_code, response in operation["responses"].items():
            headers = response.get("headers", {})
            assert "RateLimit-Remaining" in headers, (operation["operationId"], status_code)
            if status_code == "429":
                assert "Retry-After" in headers, operation["operationId"]
    move = schema["paths"]["/api/v1/games/{code}/actions/place_token/"]["post"]["responses"]
    assert {"ETag", "Offer", "Idempotent-Replayed"} <= set(move["200"]["headers"])
    assert "Idempotent-Replayed" in move["409"]["headers"]

"""Every input refuses fields it does not know (400 bad_request listing
them, one `{code, detail, errors}` shape), and every action that names seats takes `targets`,
the old `target` still accepted, never both."""

from __future__ import annotations

import pytest
from django.urls import resolve

from games.domain import inputs
from games.models import Game
from staked.query_params import KNOWN
from tests.api.test_actions import refused

pytestmark = pytest.mark.django_db


def bad_request(response) -> dict:
    assert response.status_code == 400, (response.status_code, response.content)
    body = response.json()
    assert body["code"] == "bad_request" and body["detail"], body
    assert isinstance(body["errors"], dict), body
    return body


# --- unknown fields ---------------------------------------------------------------------------


def test_an_action_with_an_unknown_field_is_refused_naming_it_and_changes_nothing(table):
    t = table("LVHHHH", last_wills=False)
    body = refused(
        t, t.client(2), "resolve_choice", {"choice": "broken_stake", "target": 7, "x": 1}, 400,
        "bad_request",
    )  # fmt: skip
    assert body["errors"] == {"x": ["Unknown field."]}
    assert body["detail"] == "Unknown fields: x."
    body = refused(
        t, t.client(2), "place_token", {"token": "stake", "targets": [4], "tagret": 3}, 400,
        "bad_request",
    )  # fmt: skip
    assert body["errors"] == {"tagret": ["Unknown field."]}
    refused(t, t.client(2), "pass", {"please": True}, 400, "bad_request")


def test_a_new_game_with_an_unknown_option_or_timer_is_refused_listing_every_one(guests):
    (host,) = guests(1)
    body = bad_request(host.post("/api/v1/games/", {"relicz": True}, format="json"))
    assert body["errors"] == {"relicz": ["Unknown field."]}
    response = host.post(
        "/api/v1/games/", {"timers": {"dining": 30, "relic": 30}, "wills": 1}, format="json"
    )
    body = bad_request(response)
    assert body["errors"] == {"wills": ["Unknown field."], "timers": {"dining": ["Unknown field."]}}
    assert body["detail"] == "Unknown fields: wills, timers.dining."
    assert not Game.objects.exists()


def test_sign_in_chat_and_preferences_refuse_unknown_fields_in_the_same_shape(guests):
    from tests.api.conftest import guest

    anon = guest("Ana")
    anon.credentials()
    body = bad_request(anon.post("/api/v1/auth/guest/", {"name": "Bo", "admin": True}, "json"))
    assert body["errors"] == {"admin": ["Unknown field."]}
    body = bad_request(
        anon.post("/api/v1/auth/token/", {"username": "a", "password": "b", "otp": 1}, "json")
    )
    assert body["errors"] == {"otp": ["Unknown field."]}
    (host,) = guests(1)
    code = host.post("/api/v1/games/", {}, format="json").json()["code"]
    url = f"/api/v1/games/{code}/chat/table/"
    body = bad_request(host.post(url, {"text": "hi", "to": 3}, format="json"))
    assert body["errors"] == {"to": ["Unknown field."]}
    assert host.get(url).json()["messages"] == []
    body = bad_request(host.patch("/api/v1/me/notifications/", {"sms": True}, format="json"))
    assert body["errors"] == {"sms": ["Unknown field."]}


def test_chat_refuses_bad_text_as_bad_request_not_invalid(guests):
    (host,) = guests(1)
    code = host.post("/api/v1/games/", {}, format="json").json()["code"]
    body = bad_request(host.post(f"/api/v1/games/{code}/chat/table/", {"text": ""}, "json"))
    assert list(body["errors"]) == ["text"]


def test_a_form_encoded_action_is_415_and_the_schema_says_so(table, client):
    t = table("LVHHHH", last_wills=False)
    response = t.client(2).post(t.url("actions/place_token/"), {"token": "stake", "target": "4"})
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
    schema = client.get("/api/v1/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/games/{code}/actions/place_token/"]["post"]
    assert "unsupported_media_type" in operation["responses"]["415"]["description"]


# --- target and targets -----------------------------------------------------------------------


def test_r3_place_token_takes_targets_as_a_list_of_one_seat(table):
    t = table("LVHHHH", last_wills=False)
    view = t.act(2, "place_token", token="stake", targets=[4])
    assert view["me"]["placed"] == [{"target": 4, "token": "stake"}]
    view = t.act(3, "place_token", token="stake", target=5)  # deprecated, still accepted
    assert view["me"]["placed"] == [{"target": 5, "token": "stake"}]


@pytest.mark.parametrize(
    "action, body",
    [
        ("place_token", {"token": "stake", "target": 4, "targets": [4]}),
        ("place_token", {"token": "stake", "targets": []}),
        ("place_token", {"token": "stake", "targets": [4, 5]}),
        ("place_token", {"token": "stake"}),
        ("intervention_vote", {"target": 4, "targets": [5]}),
        ("use_relic", {"relic": "ritual_bell", "target": 4, "targets": [4]}),
        ("resolve_choice", {"choice": "parting_glance", "target": 4, "targets": [4]}),
    ],
)
def test_targets_and_target_together_or_no_seat_where_one_is_needed_is_400(table, action, body):
    t = table("LVHHHH", last_wills=False)
    payload = refused(t, t.client(2), action, body, 400, "bad_request")
    assert set(payload["errors"]) <= {"target", "targets"}, payload


@pytest.mark.parametrize(
    "action, body",
    [
        ("use_relic", {"relic": "ritual_bell", "target": 4}),
        ("resolve_choice", {"choice": "parting_glance", "target": 4}),
    ],
)
def test_the_old_single_target_still_passes_validation_where_a_list_is_taken(table, action, body):
    """Well-formed: the engine answers (no relic window, no choice now), not the validation."""
    t = table("LVHHHH", last_wills=False)
    refused(t, t.client(2), action, body, 409, "wrong_phase")


def test_the_engine_gets_target_for_one_seat_actions_and_targets_for_the_others():
    one = inputs.TargetIn(data={"targets": [3]})
    assert one.is_valid() and dict(one.validated_data) == {"target": 3}
    many = inputs.UseRelicIn(data={"relic": "ritual_bell", "target": 3})
    assert many.is_valid() and dict(many.validated_data) == {"relic": "ritual_bell", "targets": [3]}


def test_an_unknown_query_parameter_is_400_naming_it(guests):
    """`?page=2` on /me/games/ (which pages with limit and offset) answered page 1 in silence."""
    (ana,) = guests(1)
    code = ana.post("/api/v1/games/", {}, format="json").json()["code"]
    for path, unknown in [
        ("/api/v1/me/games/?page=2", ["page"]),
        ("/api/v1/games/?my_move=true&limt=5&x=1", ["limt", "x"]),
        (f"/api/v1/games/{code}/?after=3", ["after"]),
        (f"/api/v1/games/{code}/events/?after=0&since=2", ["since"]),
    ]:
        response = ana.get(path)
        assert response.status_code == 400, (path, response.content)
        body = response.json()
        assert body["code"] == "bad_request" and body["errors"] == {
            name: ["Unknown query parameter."] for name in unknown
        }
        assert all(name in body["detail"] for name in unknown)
    assert ana.get("/api/v1/me/games/?limit=5&offset=0").status_code == 200
    assert ana.get("/api/v1/games/?my_move=false&page=1").status_code == 200


@pytest.mark.django_db
def test_the_known_query_parameters_are_those_the_schema_declares(client):
    """staked/query_params.py and the published schema name the same parameters."""
    schema = client.get("/api/v1/schema/", {"format": "json"}).json()
    declared: dict[str, set[str]] = {}
    for path, operations in schema["paths"].items():
        example = path.replace("{code}", "ACDEFG").replace("{channel}", "table")
        example = example.replace("{seat}", "2").replace("{message_id}", "1")
        name = resolve(example).view_name
        for operation in operations.values():
            names = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
            declared.setdefault(name, set()).update(names)
    assert {k: v for k, v in declared.items() if v} == {
        k: set(v) for k, v in KNOWN.items() if k not in {"api-schema", "api-docs"}
    }

"""An action sent again with the same `Idempotency-Key`
gets the first answer and the move is made once (games/api/idempotency.py), also when the
retries race the first request."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import Event, Game

KEY = "HTTP_IDEMPOTENCY_KEY"


def post(client, t, action, body, key, **headers):
    return client.post(t.url(f"actions/{action}/"), body, format="json", **{KEY: key}, **headers)


@pytest.mark.django_db
def test_r3_a_retried_move_gets_the_first_answer_and_is_made_once(table):
    t = table("LVHHHH", last_wills=False)
    body = {"token": "stake", "targets": [4]}
    first = post(t.client(2), t, "place_token", body, "move-1")
    assert first.status_code == 200
    version, events = Game.objects.get(code=t.code).version, Event.objects.count()
    again = post(t.client(2), t, "place_token", body, "move-1")
    assert again.status_code == 200 and again.json() == first.json()
    assert again["ETag"] == first["ETag"] and again["Idempotent-Replayed"] == "true"
    assert (Game.objects.get(code=t.code).version, Event.objects.count()) == (version, events)
    assert t.view(2)["me"]["placed"] == [{"target": 4, "token": "stake"}]


@pytest.mark.django_db
def test_a_refusal_is_repeated_too_and_a_new_key_tries_again(table):
    t = table("LVHHHH", last_wills=False)
    body = {"token": "stake", "targets": [4]}
    stale = post(t.client(2), t, "place_token", body, "k", HTTP_IF_MATCH="999")
    assert stale.status_code == 409 and stale.json()["code"] == "stale"
    again = post(t.client(2), t, "place_token", body, "k", HTTP_IF_MATCH="999")
    assert again.status_code == 409 and again.json() == stale.json()
    assert post(t.client(2), t, "place_token", body, "k2").status_code == 200


@pytest.mark.django_db
def test_the_same_key_with_another_body_or_action_is_422_and_changes_nothing(table):
    t = table("LVHHHH", last_wills=False)
    first = post(t.client(2), t, "place_token", {"token": "stake", "targets": [4]}, "k")
    assert first.status_code == 200
    version = Game.objects.get(code=t.code).version
    for action, body in [("place_token", {"token": "feast", "targets": [5]}), ("pass", {})]:
        response = post(t.client(2), t, action, body, "k")
        assert response.status_code == 422, response.content
        assert response.json()["code"] == "idempotency_key_reused"
    assert Game.objects.get(code=t.code).version == version


@pytest.mark.django_db
def test_a_key_belongs_to_one_player_another_player_s_same_key_is_their_own(table):
    t = table("LVHHHH", last_wills=False)
    first = post(t.client(2), t, "place_token", {"token": "stake", "targets": [4]}, "k")
    assert first.status_code == 200
    mine = post(t.client(3), t, "place_token", {"token": "stake", "targets": [5]}, "k")
    assert mine.status_code == 200 and "Idempotent-Replayed" not in mine
    assert t.view(3)["me"]["placed"] == [{"target": 5, "token": "stake"}]


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "has space", "x" * 256, "é"])
def test_a_malformed_key_is_400(table, key):
    t = table("LVHHHH", last_wills=False)
    response = post(t.client(2), t, "place_token", {"token": "stake", "targets": [4]}, key)
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert t.view(2)["me"]["placed"] == []


@pytest.mark.django_db(transaction=True)
def test_r3_concurrent_retries_with_one_key_make_one_move_and_all_get_its_answer(table):
    t = table("LVHHHH", last_wills=False)
    token = t.client(2)._credentials["HTTP_AUTHORIZATION"]
    body = {"token": "stake", "targets": [4]}

    def send(_):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=token)
        try:
            return post(client, t, "place_token", body, "race")
        finally:
            connection.close()  # each thread's own database connection

    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(send, range(6)))
    assert [a.status_code for a in answers] == [200] * 6, [a.content for a in answers]
    assert len({a.content for a in answers}) == 1
    assert sum("Idempotent-Replayed" not in a for a in answers) == 1
    assert t.view(2)["me"]["placed"] == [{"target": 4, "token": "stake"}]

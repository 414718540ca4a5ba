"""`GET /api/v1/games/{code}/story/` and the host's `PATCH` of its `public` flag, through the
real routes, every answer validated against the published schema (tests/api/
test_schema_conformance.py's checked client). The story holds only what a spectator of the
finished game may see (R1.4): the public log and the end's public view."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import engine
from games.engine import state_from_json
from games.history.models import SharedReplay
from games.models import Event, Game
from games.services import organiser as admin_services
from tests import factories
from tests.api.test_schema_conformance import CheckedClient, Schema
from tests.history.tables import bot_game, play_to_the_end, table, users

pytestmark = pytest.mark.django_db


def story_url(code: str) -> str:
    return f"/api/v1/games/{code}/story/"


@pytest.fixture
def schema(client) -> Schema:
    return Schema(json.loads(client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").content))


def api_as(user, schema: Schema) -> CheckedClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {factories.api_token(user)}")
    return CheckedClient(client, schema)


@pytest.mark.parametrize(("players", "seed"), [(6, 1), (8, 2), (10, 3), (12, 4)])
def test_r1_4_a_finished_games_story_matches_the_schema_and_holds_only_what_spectators_see(
    schema, players, seed
):
    """Random finished games with relics and Last Wills: the story is what the public view
    and the public log hold, and it stays the same, byte for byte, once every line with an
    audience is deleted: it never read one."""
    game = bot_game(players, seed, users(1)[0])
    assert game.status == Game.Status.FINISHED
    anyone = api_as(None, schema)  # no sign-in: spectators were allowed
    body = anyone.request("GET", story_url(game.code)).json()

    end = engine.view(state_from_json(game.state), None)
    assert [
        {k: p[k] for k in ("seat", "role", "team", "mesmerized", "won")} for p in body["players"]
    ] == [{k: r[k] for k in ("seat", "role", "team", "mesmerized", "won")} for r in end["roles"]]
    assert (body["winner"], body["outcome"]) == (end["winner"], end["outcome"])
    public = list(Event.objects.filter(game=game, audience__isnull=True).order_by("seq"))
    log = [line for r in body["rounds"] for line in r["log"]]
    assert [(x["kind"], x["text"], x["data"]) for x in log] == [
        (e.kind, e.text, json.loads(json.dumps(e.data))) for e in public if e.round >= 1
    ]
    assert [x["seq"] for x in log] == list(range(log[0]["seq"], log[0]["seq"] + len(log)))
    revealed = {e.round: e.data for e in public if e.kind == "dining"}
    for r in body["rounds"]:
        if r["dining"] is not None:
            assert r["dining"]["tokens"] == revealed[r["round"]]["tokens"]
    dump = json.dumps(body)
    secrets = Event.objects.filter(game=game, audience__isnull=False)
    assert secrets.exists()
    for e in secrets:
        assert e.text not in dump, e.text
    assert body["turning_points"][-1]["kind"] == "decisive"

    secrets.delete()  # the story of a game without its private lines is the same story
    assert anyone.request("GET", story_url(game.code)).json() == body


def test_an_unknown_or_unfinished_game_has_no_story(schema):
    players = users(6)
    running = table(players)
    stopped = table(players)
    admin_services.game_abandon(code=stopped.code, by="test")
    anyone = api_as(None, schema)
    assert anyone.request("GET", story_url("ZZZZZZ")).json()["code"] == "not_found"
    for game in (running, stopped):
        answer = anyone.request("GET", story_url(game.code))
        assert (answer.status_code, answer.json()["code"]) == (404, "not_finished")


def test_a_private_tables_story_is_its_players_until_the_host_shares_it(schema):
    """Spectators off: the story is the seated players' (a signed-in stranger: 403 forbidden, a
    caller without a token: 401 not_authenticated, the same whether or not the game is over).
    The host's `public` flag opens it to anyone, and closes it again."""
    players = users(6)
    game = play_to_the_end(table(players, spectators=False))
    host, seated, stranger = (api_as(u, schema) for u in (players[0], players[3], users(1)[0]))
    anyone = api_as(None, schema)
    url = story_url(game.code)
    for who, refused in ((stranger, (403, "forbidden")), (anyone, (401, "not_authenticated"))):
        answer = who.request("GET", url)
        assert (answer.status_code, answer.json()["code"]) == refused
    assert seated.request("GET", url).json()["public"] is False

    shared = host.request("PATCH", url, {"public": True})
    assert shared.status_code == 200 and shared.json()["public"] is True
    assert anyone.request("GET", url).json() == shared.json()
    assert stranger.request("GET", url).status_code == 200

    assert host.request("PATCH", url, {"public": False}).json()["public"] is False
    assert anyone.request("GET", url).status_code == 401
    running = table(players, spectators=False)
    assert anyone.request("GET", story_url(running.code)).status_code == 401
    assert stranger.request("GET", story_url(running.code)).status_code == 403


REFUSALS = [  # (who, body, status, code)
    ("seated", {"public": True}, 403, "forbidden"),
    ("stranger", {"public": True}, 403, "forbidden"),
    ("nobody", {"public": True}, 401, "not_authenticated"),
    ("host", {"public": "yes"}, 400, "bad_request"),
    ("host", {"public": True, "open": True}, 400, "bad_request"),
    ("host", {}, 400, "bad_request"),
]


def test_only_the_host_shares_a_story_and_a_refusal_changes_nothing(schema):
    players = users(6)
    game = play_to_the_end(table(players, spectators=False))
    caller = {"host": players[0], "seated": players[2], "stranger": users(1)[0], "nobody": None}
    url = story_url(game.code)
    declared = schema.operation("PATCH", url)["responses"]
    for who, body, status, code in REFUSALS:
        answer = api_as(caller[who], schema).client.patch(url, body, format="json")  # unchecked
        assert (answer.status_code, answer.json()["code"]) == (status, code), (who, body)
        answer_schema = declared[str(status)]["content"]["application/json"]["schema"]
        schema.check(answer_schema, answer.json(), f"{who} {body}")
        assert not SharedReplay.objects.exists()
    assert api_as(None, schema).request("GET", url).status_code == 401


def test_the_host_cannot_share_an_unfinished_games_story(schema):
    players = users(6)
    running = table(players)
    answer = api_as(players[0], schema).request("PATCH", story_url(running.code), {"public": True})
    assert (answer.status_code, answer.json()["code"]) == (404, "not_finished")
    assert not SharedReplay.objects.exists()


def test_reading_a_story_writes_nothing(client):
    game = bot_game(6, 5, users(1)[0])
    with CaptureQueriesContext(connection) as queries:
        assert APIClient().get(story_url(game.code)).status_code == 200
        for step in ("summary", "1", "end"):
            assert client.get(f"/g/{game.code}/replay/?round={step}").status_code == 200
    writes = [q["sql"] for q in queries if re.match(r"\s*(INSERT|UPDATE|DELETE)", q["sql"], re.I)]
    assert not writes, writes

"""One paging style on every list of the API: `limit` sets a page's size, `next` is the
address of the next page (null on the last), followed as it is; chat also has `previous`."""

from __future__ import annotations

import json

import pytest

from games import services
from games.models import Game
from tests.api.conftest import quick_guest

pytestmark = pytest.mark.django_db


def follow(client, url: str, key: str, link: str = "next") -> list[list]:
    """Every page from `url` on, following `link` until it is null."""
    pages = []
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.content
        body = response.json()
        pages.append(body[key])
        url = body[link]
        assert url is None or url.startswith("http://testserver/api/v1/")
    return pages


def test_the_open_tables_page_by_limit_and_next():
    for name in ("Ana", "Ben", "Cy"):
        services.game_create(host=quick_guest(name).user, options={}, name=name)
    pages = follow(quick_guest("Dee"), "/api/v1/games/?limit=2", "games")
    assert [len(p) for p in pages] == [2, 1]
    assert len({g["code"] for p in pages for g in p}) == 3


def test_the_log_pages_by_limit_and_next_and_says_the_same_as_one_read(guests):
    host, *others = guests(6)
    code = host.post("/api/v1/games/", {}, format="json").json()["code"]
    for other in others:
        other.post(f"/api/v1/games/{code}/join/", {}, format="json")
    whole = host.get(f"/api/v1/games/{code}/events/").json()
    assert whole["next"] is None and not whole["more"] and len(whole["events"]) == 6
    pages = follow(host, f"/api/v1/games/{code}/events/?limit=4", "events")
    assert [len(p) for p in pages] == [4, 2]
    assert [e for p in pages for e in p] == whole["events"]


def test_my_games_page_by_limit_and_next(guests):
    client = guests(1)[0]
    response = client.get("/api/v1/me/games/?limit=5")
    assert response.status_code == 200 and response.json()["next"] is None


def test_chat_pages_back_with_previous_and_forward_with_next(guests):
    players = guests(6)
    host = players[0]
    code = host.post("/api/v1/games/", {}, format="json").json()["code"]
    for other in players[1:]:
        other.post(f"/api/v1/games/{code}/join/", {}, format="json")
    host.post(f"/api/v1/games/{code}/start/", {}, format="json")
    chat = f"/api/v1/games/{code}/chat/table/"
    for n in range(1, 4):
        sent = players[n].post(chat, {"text": f"m{n}"}, format="json")
        assert sent.status_code == 201, sent.content
    back = follow(host, f"{chat}?limit=2", "messages", "previous")
    assert [[m["text"] for m in p] for p in back] == [["m2", "m3"], ["m1"]]
    forward = follow(host, f"{chat}?after=0&limit=2", "messages")
    assert [[m["text"] for m in p] for p in forward] == [["m1", "m2"], ["m3"]]


def test_every_list_in_the_schema_takes_limit_and_answers_next(client):
    document = json.loads(client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").content)
    lists = {
        "/api/v1/games/": "GameListOut",
        "/api/v1/games/{code}/events/": "EventListOut",
        "/api/v1/me/games/": "MyGamesOut",
        "/api/v1/games/{code}/chat/{channel}/": "MessageListOut",
    }
    schemas = document["components"]["schemas"]
    for path, answer in lists.items():
        names = {p["name"] for p in document["paths"][path]["get"].get("parameters", [])}
        assert "limit" in names, path
        assert "next" in schemas[answer]["properties"], answer
    assert Game.objects.count() == 0


@pytest.mark.parametrize("url", ["/api/v1/games/?limit=0", "/api/v1/games/?limit=101"])
def test_a_limit_out_of_range_is_a_400_naming_it(url):
    response = quick_guest("Eve").get(url)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request" and "'limit'" in response.json()["detail"]


def test_a_log_limit_out_of_range_is_a_400_and_changes_nothing(guests):
    host = guests(1)[0]
    code = host.post("/api/v1/games/", {}, format="json").json()["code"]
    version = host.get(f"/api/v1/games/{code}/").json()["version"]
    response = host.get(f"/api/v1/games/{code}/events/?limit=201")
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert host.get(f"/api/v1/games/{code}/").json()["version"] == version

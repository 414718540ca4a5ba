"""`GET /api/v1/me/games/` and `GET /api/v1/me/stats/` through the real routes, and
a guest who registers keeping their games (`POST /api/v1/auth/register/` with their token)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.models import Game
from games.services import organiser as admin_services
from tests.history.tables import lord_examined_by_seat_1, play_to_the_end, table

pytestmark = pytest.mark.django_db

GAMES, STATS, REGISTER = "/api/v1/me/games/", "/api/v1/me/stats/", "/api/v1/auth/register/"


def guests(n: int) -> list[APIClient]:
    """Guests signed in through the API, each with its own token."""
    out = []
    for i in range(n):
        client = APIClient()
        body = client.post("/api/v1/auth/guest/", {"name": f"P{i}"}, format="json").json()
        client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
        client.user = get_user_model().objects.get(id=body["user_id"])
        client.token = body["token"]
        out.append(client)
    return out


def test_unauthenticated_is_401_not_authenticated():
    for url in (GAMES, STATS):
        response = APIClient().get(url)
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"


def test_my_games_lists_finished_games_newest_first_with_what_the_end_made_public():
    clients = guests(6)
    players = [c.user for c in clients]
    first = play_to_the_end(table(players))
    second = table(players)
    lord_examined_by_seat_1(second)
    second = play_to_the_end(second)
    table(players)  # still running: not listed
    body = clients[0].get(GAMES).json()
    assert body["count"] == 2
    assert [g["code"] for g in body["games"]] == [second.code, first.code]
    game = body["games"][0]
    assert set(game) == {
        "code",
        "finished_at",
        "rounds",
        "seat",
        "name",
        "role",
        "team",
        "mesmerized",
        "won",
        "winner",
        "players",
        "replay_url",
    }
    assert (game["seat"], game["name"], game["role"]) == (1, "Ana", "hunter")
    assert game["mesmerized"] is True and game["team"] == "vampires"  # R8.3
    assert game["won"] == (game["winner"] == "vampires")
    assert [p["name"] for p in game["players"]] == ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
    assert game["replay_url"] == f"http://testserver/g/{second.code}/replay/"
    assert game["rounds"] == Game.objects.get(code=second.code).round
    assert body["left_out"] == {"abandoned": 0, "practice": 0}
    # The Lord's own list shows the Lord's seat, never another's.
    lord = clients[5].get(GAMES).json()["games"][0]
    assert (lord["seat"], lord["role"], lord["team"]) == (6, "vampire_lord", "vampires")


def test_abandoned_and_practice_games_are_left_out_and_counted_apart():
    clients = guests(6)
    players = [c.user for c in clients]
    play_to_the_end(table(players))
    play_to_the_end(table(players, practice=True))
    stopped = table(players)
    admin_services.game_abandon(code=stopped.code, by="test")
    games, stats = clients[2].get(GAMES).json(), clients[2].get(STATS).json()
    assert games["count"] == 1 and len(games["games"]) == 1
    assert games["left_out"] == stats["left_out"] == {"abandoned": 1, "practice": 1}
    assert stats["games"] == 1


def test_my_stats_gives_win_rates_by_role_mesmerism_and_lord_examinations():
    clients = guests(6)
    players = [c.user for c in clients]
    game = table(players)
    lord_examined_by_seat_1(game)
    play_to_the_end(game)
    play_to_the_end(table(players))
    ana = clients[0].get(STATS).json()
    assert ana["games"] == 2 and ana["mesmerized"] >= 1 and ana["lord_examinations"] >= 1
    assert ana["by_role"][0]["role"] == "hunter" and ana["by_role"][0]["games"] == 2
    assert ana["by_role"][1] == {"role": "vampire", "games": 0, "wins": 0, "win_rate": None}
    assert ana["win_rate"] == (round(ana["wins"] / 2, 3))
    nobody = guests(1)[0].get(STATS).json()
    assert (nobody["games"], nobody["win_rate"], nobody["lord_examinations"]) == (0, None, 0)


def test_my_games_pages_with_limit_and_offset_and_refuses_a_bad_one():
    clients = guests(6)
    players = [c.user for c in clients]
    codes = [play_to_the_end(table(players)).code for _ in range(3)]
    page = clients[1].get(GAMES, {"limit": 2, "offset": 1}).json()
    assert [g["code"] for g in page["games"]] == [codes[1], codes[0]]
    assert page["count"] == 3
    for bad in ({"limit": 0}, {"limit": 101}, {"offset": -1}, {"limit": "many"}):
        response = clients[1].get(GAMES, bad)
        assert response.status_code == 400, bad
        assert response.json()["code"] == "bad_request" and response.json()["detail"]


def test_another_players_games_are_never_listed():
    clients = guests(7)
    play_to_the_end(table([c.user for c in clients[:6]]))
    outsider = clients[6].get(GAMES).json()
    assert outsider["count"] == 0 and outsider["games"] == []


def test_a_guest_who_registers_with_their_token_keeps_the_same_user_and_games():
    clients = guests(6)
    play_to_the_end(table([c.user for c in clients]))
    ana = clients[0]
    response = ana.post(REGISTER, {"username": "ana", "password": "correct-horse"}, format="json")
    assert response.status_code == 200  # the guest, kept: no new user
    body = response.json()
    assert body["user_id"] == ana.user.id and body["token"] == ana.token
    assert body["name"] == "P0"  # the guest's name stays unless another is given
    assert ana.get(GAMES).json()["count"] == 1
    # The password now signs in anywhere, to the same user and its games.
    again = APIClient().post(
        "/api/v1/auth/token/", {"username": "ana", "password": "correct-horse"}, format="json"
    )
    assert again.json()["user_id"] == ana.user.id
    # Registering again with that token makes a new account: a registered user is no guest.
    other = ana.post(REGISTER, {"username": "ana2", "password": "correct-horse"}, format="json")
    assert other.status_code == 201 and other.json()["user_id"] != ana.user.id


def test_a_guest_who_picks_a_taken_username_stays_a_guest():
    get_user_model().objects.create_user("taken", password="pw-taken-123")
    (ben,) = guests(1)
    response = ben.post(REGISTER, {"username": "TAKEN", "password": "correct-horse"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "username_taken"
    ben.user.refresh_from_db()
    assert ben.user.username.startswith("guest-") and not ben.user.has_usable_password()


def test_the_schema_declares_both_with_their_fields():
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    games = schema["paths"]["/api/v1/me/games/"]["get"]
    stats = schema["paths"]["/api/v1/me/stats/"]["get"]
    assert {p["name"] for p in games["parameters"]} >= {"limit", "offset"}
    assert set(games["responses"]) >= {"200", "400", "401"}
    assert set(stats["responses"]) >= {"200", "401"}
    parts = schema["components"]["schemas"]
    assert parts["MyStatsOut"]["properties"]["lord_examinations"]["description"]
    assert set(parts["MyGameOut"]["required"]) >= {"role", "team", "won", "replay_url"}
    register = schema["paths"]["/api/v1/auth/register/"]["post"]["responses"]
    assert {"200", "201", "409"} <= set(register)

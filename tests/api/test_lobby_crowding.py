"""One player cannot crowd the list of open tables, and a player's own games
are always listed first and complete (games/selectors/listing.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.models import Game
from games.selectors import listing
from tests.api.conftest import guest

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"


def test_a_player_may_host_five_open_lobbies_and_the_sixth_is_409_too_many_lobbies(settings):
    assert settings.MAX_OPEN_LOBBIES == 5
    eve = guest("Eve")
    codes = [eve.post(GAMES, {}, format="json").status_code for _ in range(6)]
    assert codes == [201] * 5 + [409]
    refused = eve.post(GAMES, {}, format="json").json()
    assert refused["code"] == "too_many_lobbies"
    assert "start one or leave one" in refused["detail"]
    assert Game.objects.filter(status=Game.Status.LOBBY).count() == 5
    # Starting or leaving one makes room again.
    code = eve.get(GAMES).json()["games"][0]["code"]
    assert eve.post(f"{GAMES}{code}/leave/").status_code == 204
    assert eve.post(GAMES, {}, format="json").status_code == 201


def test_the_home_page_says_so_in_words_when_the_cap_is_reached(settings):
    settings.MAX_OPEN_LOBBIES = 1
    phone = Client()
    assert phone.post("/new", {"name": "Eve", "preset": "live"}).status_code == 302
    refused = phone.post("/new", {"name": "Eve", "preset": "live"})
    assert refused.status_code == 409
    assert "You already host 1 open table: start one or leave one" in refused.content.decode()


def crowd(count: int) -> None:
    """`count` open lobbies of strangers, newer than anything before."""
    users = [get_user_model().objects.create_user(f"crowd{i}") for i in range(count)]
    for user in users:
        services.game_create(host=user, options={}, name=user.username)


def running_game_of(client) -> str:
    staff = get_user_model().objects.create_user("staffer", is_staff=True)
    game = services.game_create(host=staff, options={}, name="Staff")
    assert client.post(f"{GAMES}{game.code}/join/", {}, format="json").status_code == 200
    services.game_add_bots(code=game.code, user=staff, count=5)
    services.game_leave(code=game.code, user=staff)
    assert client.post(f"{GAMES}{game.code}/start/").status_code == 200
    return game.code


def test_a_players_own_running_game_is_listed_first_however_many_lobbies_others_open(settings):
    ana = guest("Ana")
    code = running_game_of(ana)
    crowd(listing.LOBBY_PAGE + 5)
    games = ana.get(GAMES).json()["games"]
    assert games[0]["code"] == code and games[0]["my_seat"] == 1
    assert [g["my_seat"] for g in games[1:]] == [None] * listing.LOBBY_PAGE


def test_the_home_page_lists_a_players_own_games_however_many_lobbies_others_open():
    phone = Client()
    assert phone.post("/new", {"name": "Ana", "preset": "live"}).status_code == 302
    mine = Game.objects.get()
    crowd(120)
    assert f'href="/g/{mine.code}/"' in phone.get("/").content.decode()


def test_open_lobbies_of_others_come_a_page_at_a_time_with_a_link_to_the_next():
    ana = guest("Ana")
    assert ana.post(GAMES, {}, format="json").status_code == 201
    crowd(listing.LOBBY_PAGE + 3)
    first = ana.get(GAMES).json()
    assert len(first["games"]) == 1 + listing.LOBBY_PAGE
    assert first["next"].endswith(f"{GAMES}?page=2")
    second = ana.get(GAMES, {"page": 2}).json()
    assert [g["my_seat"] for g in second["games"]] == [None] * 3  # her own only on page 1
    assert second["next"] is None
    seen = {g["code"] for g in first["games"] + second["games"]}
    assert len(seen) == 1 + listing.LOBBY_PAGE + 3
    assert ana.get(GAMES, {"page": "0"}).json()["code"] == "bad_request"


def test_listing_games_costs_a_fixed_number_of_queries(django_assert_max_num_queries):
    ana = guest("Ana")
    crowd(30)
    with django_assert_max_num_queries(8):
        assert len(ana.get(GAMES).json()["games"]) == 30

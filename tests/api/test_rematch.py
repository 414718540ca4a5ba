"""Rematch: one tap by a player of a finished game opens a new lobby with the same
players and options; later taps return the same lobby."""

import pytest

from games.models import Game, Player
from tests.api.conftest import guest

pytestmark = pytest.mark.django_db

# A whole 6-player game ("LVHHHH"): round 1 examines seat 3, round 2 stakes the Vampire (2),
# the Ghost protects seat 3 and round 3 stakes the Lord (1): the Hunters win.
ROUND_1 = {1: "S3 S4 F5", 2: "S3 S4 F5", 3: "S4 S5 F6", 4: "S3 S5 F6", 5: "S3 S6 F4", 6: "S3 S4 F5"}
ROUND_2 = {1: "S2 S3 F4", 2: "S3 S4 F6", 3: "S2 S4 F6", 4: "S2 S3 F6", 5: "D2 F6 I3", 6: "S2 S3 F4"}
ROUND_3 = {1: "S4 S5 F3", 3: "S1 S4 F5", 4: "S1 S5 F3", 5: "S1 S4 F3", 6: "D1 F5 I4"}


def finished(table, **options):
    t = table("LVHHHH", **{"last_wills": False, **options})
    for seat, plan in ROUND_1.items():
        t.place(seat, plan)
    t.act(3, "choose_examiner", target=4)
    for seat, plan in ROUND_2.items():
        t.place(seat, plan)
    t.act(2, "intervention_vote", target=3)
    for seat, plan in ROUND_3.items():
        t.place(seat, plan)
    assert t.view(1)["status"] == "finished"
    return t


def test_one_tap_opens_a_lobby_with_the_same_players_and_options(table):
    t = finished(table, preset="async", spectators=False)
    old = Game.objects.get(code=t.code)
    response = t.client(3).post(t.url("rematch/"))
    assert response.status_code == 201, response.content
    lobby = response.json()
    assert lobby["status"] == "lobby" and lobby["code"] != t.code
    assert [s["name"] for s in lobby["seats"]] == ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
    assert lobby["host_seat"] == 1  # the old game's host hosts again
    assert lobby["me"] == {"seat": 3, "vacation": None}
    same = {k: v for k, v in old.options.items() if k != "roles"}
    assert lobby["options"] == same and same["preset"] == "async" and not same["spectators"]
    new = Game.objects.get(code=lobby["code"])
    assert "roles" not in new.options  # a new deal: the staff-fixed one is not copied
    assert new.seed != old.seed
    for seat in range(1, 7):  # the old game points everyone to it
        assert t.view(seat)["rematch"] == lobby["code"]
    started = t.client(1).post(f"/api/v1/games/{lobby['code']}/start/")
    assert started.status_code == 200 and started.json()["status"] == "running"


def test_later_taps_return_the_same_lobby_and_seat_a_player_who_left_it_again(table):
    t = finished(table)
    code = t.client(1).post(t.url("rematch/")).json()["code"]
    again = t.client(5).post(t.url("rematch/"))
    assert again.status_code == 200 and again.json()["code"] == code
    assert t.client(5).post(f"/api/v1/games/{code}/leave/").status_code == 200
    back = t.client(5).post(t.url("rematch/"))
    assert back.status_code == 200 and back.json()["me"]["seat"] == 6
    assert Game.objects.filter(rematch_of__code=t.code).count() == 1
    assert Game.objects.get(code=code).players.count() == 6


def test_bots_sit_down_again_as_bots(table):
    t = finished(table)
    Player.objects.filter(game__code=t.code, seat=4).update(user=None, is_bot=True, name="Bot 4")
    lobby = t.client(2).post(t.url("rematch/")).json()
    bots = [s for s in lobby["seats"] if s["is_bot"]]
    assert [(s["seat"], s["name"]) for s in bots] == [(4, "Bot 4")]
    assert Player.objects.get(game__code=lobby["code"], seat=4).user is None


def test_a_rematch_is_refused_with_a_code_before_the_end_or_to_a_stranger(table):
    t = table("LVHHHH")
    response = t.client(1).post(t.url("rematch/"))
    assert (response.status_code, response.json()["code"]) == (409, "wrong_phase")
    t = finished(table)
    stranger = guest("Zed")
    response = stranger.post(t.url("rematch/"))
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    assert t.view(1)["rematch"] is None
    assert stranger.post("/api/v1/games/ACDEFG/rematch/").status_code == 404

"""The lobby (docs/api.md, "Games"): create with every option, list, join, leave, start."""

from __future__ import annotations

import json
import time
from datetime import datetime

import pytest

from games.domain.options import MAX_TIMER, MIN_TIMER, PRESETS
from games.models import Event, Game, Player
from tests.api.conftest import guest

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"


def create(client, expect: int = 201, **body) -> dict:
    response = client.post(GAMES, body, format="json")
    assert response.status_code == expect, response.content
    return response.json()


def url(code: str, suffix: str = "") -> str:
    return f"{GAMES}{code}/{suffix}"


def join(client, code: str, expect: int = 200, **body) -> dict:
    response = client.post(url(code, "join/"), body, format="json")
    assert response.status_code == expect, response.content
    return response.json()


def lobby(guests, n: int, **options):
    """A lobby of n guests, the first the host; returns (clients, code)."""
    players = guests(n)
    code = create(players[0], **options)["code"]
    for p in players[1:]:
        join(p, code)
    return players, code


# --- create ----------------------------------------------------------------------------------


def test_create_answers_201_with_the_hosts_view_at_seat_1(guests):
    (ana,) = guests(1)
    view = create(ana)
    assert view["status"] == "lobby" and view["phase"] == "lobby"
    assert view["host_seat"] == 1
    assert view["me"] == {"seat": 1, "vacation": None}
    assert [(s["seat"], s["name"]) for s in view["seats"]] == [(1, "Ana")]
    assert isinstance(view["version"], int)
    assert len(view["code"]) == 6


def test_create_with_defaults_records_the_default_options(guests):
    (ana,) = guests(1)
    options = create(ana)["options"]
    assert options["relics"] is False
    assert options["last_wills"] is True
    assert options["expansion"] is False
    assert options["preset"] == "live"
    assert options["spectators"] is True
    assert options["timers"] == PRESETS["live"]
    assert "seed" not in options


def test_create_with_every_option_records_them_as_created(guests):
    (ana,) = guests(1)
    body = {
        "relics": True,
        "last_wills": False,
        "expansion": True,
        "preset": "async",
        "spectators": False,
        "timers": {"mingling": 600, "choice": 90},
        "name": "Host Ana",
    }
    view = create(ana, **body)
    options = view["options"]
    assert options["relics"] is True
    assert options["last_wills"] is False
    assert options["expansion"] is True
    assert options["preset"] == "async"
    assert options["spectators"] is False
    # custom timers override the preset's; the others stay the preset's
    assert options["timers"] == {**PRESETS["async"], "mingling": 600, "choice": 90}
    assert view["seats"][0]["name"] == "Host Ana"


def test_create_with_the_async_preset_uses_its_timers(guests):
    (ana,) = guests(1)
    assert create(ana, preset="async")["options"]["timers"] == PRESETS["async"]


@pytest.mark.parametrize("timer", ["mingling", "relic", "tiebreak", "choice"])
@pytest.mark.parametrize("seconds", [MIN_TIMER, MAX_TIMER])
def test_create_accepts_custom_timers_at_the_bounds(guests, timer, seconds):
    assert (MIN_TIMER, MAX_TIMER) == (10, 7 * 24 * 3600)
    (ana,) = guests(1)
    assert create(ana, timers={timer: seconds})["options"]["timers"][timer] == seconds


@pytest.mark.parametrize("timer", ["mingling", "relic", "tiebreak", "choice"])
@pytest.mark.parametrize("seconds", [MIN_TIMER - 1, MAX_TIMER + 1, 0, -10, "soon", None])
def test_create_refuses_timers_outside_the_bounds_400(guests, timer, seconds):
    (ana,) = guests(1)
    body = create(ana, expect=400, timers={timer: seconds})
    assert body["code"] == "bad_request"
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    "body",
    [
        {"preset": "blitz"},
        {"relics": "maybe"},
        {"expansion": [1]},
        {"seed": -1},
        {"seed": 2**62 + 1},
        {"seed": "abc"},
        {"timers": [180]},
        {"name": "x" * 41},
    ],
)
def test_create_with_bad_options_is_400_bad_request(guests, body):
    (ana,) = guests(1)
    assert create(ana, expect=400, **body)["code"] == "bad_request"
    assert Game.objects.count() == 0


def test_a_mingling_timer_of_10_s_gives_a_deadline_10_s_after_the_start(guests):
    players, code = lobby(guests, 6, timers={"mingling": MIN_TIMER})
    before = time.time()
    view = players[0].post(url(code, "start/")).json()
    deadline = datetime.fromisoformat(view["deadline"].replace("Z", "+00:00")).timestamp()
    assert before + MIN_TIMER - 1 <= deadline <= time.time() + MIN_TIMER + 1


def test_a_mingling_timer_of_7_days_gives_a_deadline_a_week_away(guests):
    players, code = lobby(guests, 6, timers={"mingling": MAX_TIMER})
    before = time.time()
    view = players[0].post(url(code, "start/")).json()
    deadline = datetime.fromisoformat(view["deadline"].replace("Z", "+00:00")).timestamp()
    assert before + MAX_TIMER - 1 <= deadline <= time.time() + MAX_TIMER + 1


@pytest.mark.parametrize(
    "secret",
    [
        {"roles": {"1": "vampire_lord", "2": "vampire", "3": "hunter"}},
        {"relic_deck": ["signet_ring", "seers_orb"]},
    ],
    ids=["roles", "relic_deck"],
)
def test_staff_only_options_are_403_forbidden_for_others(guests, secret):
    (ana,) = guests(1)
    body = create(ana, expect=403, **secret)
    assert body["code"] == "forbidden"
    assert Game.objects.count() == 0


def test_staff_may_fix_the_deal_and_it_never_shows_in_options(staff, guests):
    roles = {"1": "vampire_lord", "2": "vampire", **{str(s): "hunter" for s in range(3, 7)}}
    view = create(staff, roles=roles, relic_deck=["signet_ring"])
    assert "roles" not in view["options"] and "relic_deck" not in view["options"]
    (ana,) = guests(1)
    seen = join(ana, view["code"])
    listed = ana.get(GAMES).json()
    for body in (seen, listed):
        text = json.dumps(body)
        assert "vampire_lord" not in text.replace('"vampire_lord": 1', "")
        assert "signet_ring" not in text and "relic_deck" not in text


def test_a_staff_seed_is_the_games_seed(staff):
    code = create(staff, seed=123)["code"]
    assert Game.objects.get(code=code).seed == 123


def test_a_players_seed_is_mixed_with_a_server_secret(guests):
    (ana, ben) = guests(2)
    first = Game.objects.get(code=create(ana, seed=123)["code"])
    second = Game.objects.get(code=create(ben, seed=123)["code"])
    assert first.seed != 123 and second.seed != 123
    assert first.seed != second.seed  # no player can compute the deal from the seed they gave


def test_the_seed_never_shows_in_the_view(guests):
    (ana,) = guests(1)
    view = create(ana, seed=424242)
    assert "seed" not in view["options"]
    assert "424242" not in json.dumps(view)


# --- list ------------------------------------------------------------------------------------


def test_list_shows_my_games_and_open_lobbies_only(guests):
    ana, ben, cleo, *rest = guests(8)
    mine = create(ana)["code"]  # my lobby
    open_lobby = create(ben)["code"]  # someone else's lobby
    running = create(cleo)["code"]  # someone else's running game
    for p in [ben, *rest]:
        join(p, running)
    assert cleo.post(url(running, "start/")).status_code == 200
    listed = {g["code"]: g for g in ana.get(GAMES).json()["games"]}
    assert set(listed) == {mine, open_lobby}
    assert listed[mine]["my_seat"] == 1 and listed[mine]["players"] == 1
    assert listed[open_lobby]["my_seat"] is None
    assert listed[mine]["status"] == "lobby"
    # a player of the running game sees it (and the open lobbies)
    listed = {g["code"]: g for g in ben.get(GAMES).json()["games"]}
    assert set(listed) == {mine, open_lobby, running}
    assert listed[running]["status"] == "running" and listed[running]["my_seat"] == 2
    assert listed[running]["players"] == 7
    item = listed[running]
    assert set(item) >= {"code", "status", "phase", "round", "players", "my_seat", "options"}


# --- join ------------------------------------------------------------------------------------


def test_join_takes_the_next_seat_with_the_given_name(guests):
    ana, ben = guests(2)
    code = create(ana)["code"]
    view = join(ben, code, name="Benny")
    assert view["me"] == {"seat": 2, "vacation": None}
    assert [(s["seat"], s["name"]) for s in view["seats"]] == [(1, "Ana"), (2, "Benny")]


def test_join_without_a_name_uses_the_guest_name(guests):
    ana, ben = guests(2)
    code = create(ana)["code"]
    assert join(ben, code)["seats"][1]["name"] == "Ben"


def test_join_accepts_a_lowercase_code(guests):
    ana, ben = guests(2)
    code = create(ana)["code"]
    assert join(ben, code.lower())["me"]["seat"] == 2


def test_join_is_idempotent(guests):
    ana, ben = guests(2)
    code = create(ana)["code"]
    first = join(ben, code)
    again = join(ben, code)
    assert again["me"] == {"seat": 2, "vacation": None}
    assert again["version"] == first["version"]
    assert Player.objects.filter(game__code=code).count() == 2


def test_the_host_joining_their_own_lobby_again_changes_nothing(guests):
    (ana,) = guests(1)
    view = create(ana)
    assert join(ana, view["code"])["version"] == view["version"]


@pytest.mark.parametrize("expansion,limit", [(False, 10), (True, 12)])
def test_r1_1_a_full_table_is_409_game_full(guests, expansion, limit):
    players = [*guests(limit), guest("Late")]
    code = create(players[0], expansion=expansion)["code"]
    for p in players[1:limit]:
        join(p, code)
    version = Game.objects.get(code=code).version
    body = join(players[limit], code, expect=409)
    assert body["code"] == "game_full"
    game = Game.objects.get(code=code)
    assert game.version == version and game.players.count() == limit


def test_joining_a_running_game_is_409_wrong_phase(guests):
    players, code = lobby(guests, 6)
    assert players[0].post(url(code, "start/")).status_code == 200
    late = guest("Late")
    assert join(late, code, expect=409)["code"] == "wrong_phase"
    # a seated player re-joining a running game just gets their view
    assert join(players[2], code)["me"]["seat"] == 3


def test_joining_an_unknown_code_is_404_not_found(guests):
    (ana,) = guests(1)
    response = ana.post(url("ZZZZZZ", "join/"), {}, format="json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_join_with_a_bad_name_is_400(guests):
    ana, ben = guests(2)
    code = create(ana)["code"]
    assert join(ben, code, expect=400, name="x" * 41)["code"] == "bad_request"


# --- leave -----------------------------------------------------------------------------------


def test_leave_renumbers_the_seats_1_to_n(guests):
    players, code = lobby(guests, 5)
    response = players[1].post(url(code, "leave/"))
    assert response.status_code == 200
    view = players[0].get(url(code)).json()
    assert [(s["seat"], s["name"]) for s in view["seats"]] == [
        (1, "Ana"),
        (2, "Cleo"),
        (3, "Dev"),
        (4, "Eli"),
    ]
    assert players[4].get(url(code)).json()["me"] == {"seat": 4, "vacation": None}
    assert list(Player.objects.filter(game__code=code).values_list("seat", flat=True)) == [
        1,
        2,
        3,
        4,
    ]


def test_the_leaver_no_longer_sees_the_game_as_theirs(guests):
    players, code = lobby(guests, 3)
    players[2].post(url(code, "leave/"))
    view = players[2].get(url(code)).json()
    assert "me" not in view
    listed = {g["code"]: g for g in players[2].get(GAMES).json()["games"]}
    assert listed[code]["my_seat"] is None


def test_host_leaving_passes_the_host_on(guests):
    players, code = lobby(guests, 3)
    assert players[0].post(url(code, "leave/")).status_code == 200
    view = players[1].get(url(code)).json()
    assert view["host_seat"] == 1 and view["me"] == {"seat": 1, "vacation": None}
    assert Game.objects.get(code=code).host_id == players[1].user_id
    # the new host may start (here: too few players), the old one may not
    assert players[0].post(url(code, "start/")).json()["code"] == "forbidden"
    assert players[1].post(url(code, "start/")).json()["code"] == "not_enough_players"


def test_the_last_human_leaving_closes_the_table_204(guests):
    ana, ben = guests(2)
    code = create(ana)["code"]
    join(ben, code)
    assert ana.post(url(code, "leave/")).status_code == 200
    response = ben.post(url(code, "leave/"))
    assert response.status_code == 204
    assert not response.content
    assert not Game.objects.filter(code=code).exists()
    assert not Event.objects.filter(game__code=code).exists()
    assert ben.get(url(code)).status_code == 404


def test_leaving_a_running_game_is_409_wrong_phase(guests):
    players, code = lobby(guests, 6)
    players[0].post(url(code, "start/"))
    response = players[3].post(url(code, "leave/"))
    assert response.status_code == 409 and response.json()["code"] == "wrong_phase"
    assert Player.objects.filter(game__code=code).count() == 6


def test_leaving_a_game_you_are_not_in_is_403_forbidden(guests):
    ana, ben = guests(2)
    code = create(ana)["code"]
    response = ben.post(url(code, "leave/"))
    assert response.status_code == 403 and response.json()["code"] == "forbidden"


def test_leaving_an_unknown_game_is_404(guests):
    (ana,) = guests(1)
    assert ana.post(url("ZZZZZZ", "leave/")).json()["code"] == "not_found"


# --- bots ------------------------------------------------------------------------------------


def test_host_adds_bots_in_the_lobby(guests):
    """docs/api.md: `POST .../bots/` `{"count": 3}` (host, lobby)."""
    (ana,) = guests(1)
    code = create(ana)["code"]
    response = ana.post(url(code, "bots/"), {"count": 3}, format="json")
    assert response.status_code == 200, response.status_code
    seats = response.json()["seats"]
    assert [s["is_bot"] for s in seats] == [False, True, True, True]


# --- start -----------------------------------------------------------------------------------


def test_only_the_host_may_start_403(guests):
    players, code = lobby(guests, 6)
    version = Game.objects.get(code=code).version
    response = players[1].post(url(code, "start/"))
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    game = Game.objects.get(code=code)
    assert game.status == "lobby" and game.version == version


@pytest.mark.parametrize("n", [1, 5])
def test_r1_1_fewer_than_6_players_cannot_start_409(guests, n):
    players, code = lobby(guests, n)
    response = players[0].post(url(code, "start/"))
    assert response.status_code == 409 and response.json()["code"] == "not_enough_players"
    assert Game.objects.get(code=code).status == "lobby"


@pytest.mark.parametrize("n", [6, 10])
def test_r1_1_6_to_10_players_start(guests, n):
    players, code = lobby(guests, n)
    view = players[0].post(url(code, "start/")).json()
    assert view["status"] == "running" and view["phase"] == "mingling" and view["round"] == 1
    assert len(view["seats"]) == n


def test_r1_1_11_players_without_expansion_is_impossible(guests):
    players = guests(11)
    code = create(players[0])["code"]
    for p in players[1:10]:
        join(p, code)
    assert join(players[10], code, expect=409)["code"] == "game_full"
    assert players[0].post(url(code, "start/")).json()["status"] == "running"
    assert len(players[0].get(url(code)).json()["seats"]) == 10


def test_r1_1_12_players_start_with_expansion(guests):
    players, code = lobby(guests, 12, expansion=True)
    view = players[0].post(url(code, "start/")).json()
    assert view["status"] == "running" and len(view["seats"]) == 12


def test_starting_twice_is_409_wrong_phase(guests):
    players, code = lobby(guests, 6)
    players[0].post(url(code, "start/"))
    response = players[0].post(url(code, "start/"))
    assert response.status_code == 409 and response.json()["code"] == "wrong_phase"


def test_starting_an_unknown_game_is_404(guests):
    (ana,) = guests(1)
    assert ana.post(url("ZZZZZZ", "start/")).status_code == 404


# --- the lobby view --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n,deck",
    [
        (6, (4, 1, False)),
        (7, (5, 1, True)),
        (8, (5, 2, False)),
        (9, (6, 2, False)),
        (10, (7, 2, True)),
        (11, (8, 2, True)),
        (12, (9, 2, True)),
    ],
)
def test_r1_2_lobby_view_shows_the_deck_for_the_count(guests, n, deck):
    players, code = lobby(guests, n, expansion=n > 10)
    view = players[-1].get(url(code)).json()
    assert view["deck"] == {
        "hunters": deck[0],
        "vampires": deck[1],
        "vampire_lord": 1,
        "lord_knows_vampires": deck[2],
    }


def test_lobby_view_below_6_has_no_deck(guests):
    players, code = lobby(guests, 3)
    assert players[0].get(url(code)).json()["deck"] is None


def test_lobby_view_has_phase_lobby_and_no_roles_anywhere(guests, staff):
    roles = {"1": "vampire_lord", "2": "vampire", **{str(s): "hunter" for s in range(3, 7)}}
    code = create(staff, roles=roles)["code"]
    players = guests(5)
    for p in players:
        join(p, code)
    for viewer in [staff, *players, guest("Outsider")]:
        view = viewer.get(url(code)).json()
        assert view["phase"] == "lobby" and view["status"] == "lobby" and view["round"] == 0
        assert view["roles"] is None and view["winner"] is None
        assert view["pending"] == [] and view["last_dining"] is None
        assert view["deadline"] is None
        assert "roles" not in view["options"]
        assert "role" not in view.get("me", {})
        assert len(view["seats"]) == 6
        for seat in view["seats"]:
            assert "role" not in seat and seat["placed_by"] == []
        events = viewer.get(url(code, "events/")).json()["events"]
        assert events and all(e["kind"] == "lobby" for e in events)
        assert "vampire" not in json.dumps(events).lower()


def test_lobby_view_for_a_spectator_has_no_me(guests):
    players, code = lobby(guests, 2)
    outsider = guest("Outsider")
    view = outsider.get(url(code)).json()
    assert "me" not in view
    assert len(view["seats"]) == 2
